"""``kubectl crd sample`` as a user runs it, offline from CRD files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.cli_runner import run_cli
from tests.crd_factory import make_crd

SPEC = {
    "type": "object",
    "description": "Spec of the widget.",
    "required": ["size", "mode"],
    "properties": {
        "size": {"type": "integer", "minimum": 2, "description": "How big."},
        "mode": {"type": "string", "enum": ["on", "off"]},
        "color": {"type": "string", "default": "yes"},
        "note": {"type": "string"},
    },
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args)


def write(path: Path, *crds: dict[str, Any]) -> str:
    path.write_text("\n---\n".join(json.dumps(c) for c in crds))
    return str(path)


@pytest.fixture
def crd_file(tmp_path: Path) -> str:
    schema = {"type": "object", "properties": {"spec": SPEC}}
    return write(
        tmp_path / "widgets.yaml",
        make_crd(
            "Widget", "example.com", versions=("v1", "v2"), served=("v1", "v2"), schema=schema
        ),
        make_crd("Gadget", "example.com", scope="Cluster"),
    )


def test_yaml_with_comments_reads_back_as_the_json_output(crd_file: str) -> None:
    as_yaml = run("sample", "--crd", crd_file, "widget", "-n", "team-a")
    as_json = run("sample", "--crd", crd_file, "widget", "-n", "team-a", "-o", "json")
    assert as_yaml.returncode == as_json.returncode == 0, as_yaml.stderr + as_json.stderr
    expected = {
        "apiVersion": "example.com/v2",
        "kind": "Widget",
        "metadata": {"name": "example-widget", "namespace": "team-a"},
        "spec": {"color": "yes", "mode": "on", "size": 2},
    }
    assert yaml.safe_load(as_yaml.stdout) == expected  # YAML 1.1: "yes"/"on" stay strings
    assert json.loads(as_json.stdout) == expected
    assert "# How big." in as_yaml.stdout
    assert '# (required; one of: "on", "off")' in as_yaml.stdout
    assert as_yaml.stdout.startswith("# Widget (example.com/v2), a sample from CRD")
    assert "#" not in as_json.stdout
    assert as_yaml.stderr == ""


def test_no_comments_name_and_version(crd_file: str) -> None:
    result = run(
        "-n", "ns1", "sample", "--crd", crd_file, "widgets.example.com", "--name", "w1",
        "--api-version", "example.com/v1", "--no-comments",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "#" not in result.stdout
    assert result.stdout.splitlines()[:5] == [
        "apiVersion: example.com/v1",
        "kind: Widget",
        "metadata:",
        "  name: w1",
        "  namespace: ns1",
    ]


def test_version_in_the_resource_argument(crd_file: str) -> None:
    result = run("sample", "--crd", crd_file, "widget.v1.example.com", "-o", "json")
    assert json.loads(result.stdout)["apiVersion"] == "example.com/v1"


def test_cluster_scoped_kind_ignores_the_namespace(crd_file: str) -> None:
    result = run("sample", "--crd", crd_file, "gadget", "-n", "team-a", "-o", "json")
    assert json.loads(result.stdout)["metadata"] == {"name": "example-gadget"}


def test_all_fields(crd_file: str) -> None:
    result = run("sample", "--crd", crd_file, "widget", "--all-fields", "-o", "json")
    assert json.loads(result.stdout)["spec"]["note"] == "example"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("widget", "--api-version", "v9"), 'CRD widgets.example.com has no version "v9"'),
        (("widget", "--api-version", "other.io/v1"), 'is in group "example.com", not "other.io"'),
        (("sprocket",), 'doesn\'t have a resource type "sprocket"'),
    ],
)
def test_errors_are_one_line(crd_file: str, args: tuple[str, ...], message: str) -> None:
    result = run("sample", "--crd", crd_file, *args)
    assert result.returncode == 1
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("error: ")
    assert message in result.stderr


def test_a_crd_without_schema_is_named_when_the_resource_is_not_found(tmp_path: Path) -> None:
    crd = make_crd("Widget", "example.com")
    del crd["spec"]["versions"][0]["schema"]
    result = run("sample", "--crd", write(tmp_path / "w.yaml", crd), "widget")
    assert result.returncode == 1
    assert len(result.stderr.splitlines()) == 1
    assert "schemas are required" in result.stderr


def test_problems_are_warnings_on_stderr(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "required": ["code"],
                "properties": {"code": {"type": "string", "pattern": "^[a-z]{5}$", "maxLength": 2}},
            }
        },
    }
    path = write(tmp_path / "w.yaml", make_crd("Widget", "example.com", schema=schema))
    result = run("sample", "--crd", path, "widget")
    assert result.returncode == 0
    assert result.stderr.startswith("warning: spec.code: no value satisfying pattern")
    assert "# WARNING: spec.code" in result.stdout
