"""``kubectl crd explain`` with the extras: default output, --kubectl, -o json|yaml."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from kubectl_crd.cli.group import cli
from kubectl_crd.model.explain import render_plaintext
from kubectl_crd.model.explain.detailtext import SEPARATOR
from tests.unit.explain_extras.conftest import CRONTAB, crontab, target

DOCUMENT_KEYS = [
    "group",
    "version",
    "kind",
    "resource",
    "path",
    "type",
    "required",
    "declared",
    "schema",
    "notes",
]


def explain(*args: str, crd: Path = CRONTAB) -> Any:
    result = CliRunner().invoke(cli, ["explain", "--crd", str(crd), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_default_output_is_kubectls_then_the_separator_then_the_details() -> None:
    result = explain("crontab.spec.replicas")
    kubectl = render_plaintext(target(crontab(), "crontab.spec.replicas"))
    assert result.exit_code == 0
    assert result.stdout.startswith(kubectl + SEPARATOR + "\n\n")
    assert "  crontabs.spec.replicas <integer>\n    default: 1\n" in result.stdout


@pytest.mark.parametrize("args", [["crontab"], ["crontab.spec"], ["crontab", "-R"]])
def test_kubectl_flag_prints_exactly_kubectls_output(args: list[str]) -> None:
    result = explain(*args, "--kubectl")
    kubectl = render_plaintext(target(crontab(), args[0]), recursive="-R" in args)
    assert result.exit_code == 0
    assert result.stdout == kubectl
    assert SEPARATOR not in result.stdout


def test_notes_go_to_stderr_with_kubectl_and_into_the_details_without() -> None:
    with_flag = explain("crontab.spec.config", "--kubectl")
    assert with_flag.stderr.startswith('note: "crontabs.spec.config" is free-form')
    assert "note:" not in with_flag.stdout
    default = explain("crontab.spec.config")
    assert default.stderr == ""
    assert 'note: "crontabs.spec.config" is free-form' in default.stdout


def test_json_is_the_declared_node_with_its_path() -> None:
    document = json.loads(explain("crontab.spec.replicas", "-o", "json").stdout)
    assert list(document) == DOCUMENT_KEYS
    assert document == {
        "group": "stable.example.com",
        "version": "v1",
        "kind": "CronTab",
        "resource": "crontabs",
        "path": "spec.replicas",
        "type": "integer",
        "required": False,
        "declared": True,
        "schema": crontab().version("v1").schema["properties"]["spec"]["properties"]["replicas"],  # type: ignore[union-attr]
        "notes": [],
    }


def test_json_at_the_root_and_for_a_node_the_server_adds() -> None:
    root = json.loads(explain("crontab", "-o", "json").stdout)
    assert root["path"] == ""
    assert root["schema"] == dict(crontab().version("v1").schema)  # type: ignore[union-attr]
    meta = json.loads(explain("crontab.metadata", "-o", "json").stdout)
    assert meta["declared"] is False
    assert meta["type"] == "ObjectMeta"
    # the server's ObjectMeta, its reference followed
    assert "labels" in meta["schema"]["properties"]


def test_json_notes_say_what_cannot_be_explained() -> None:
    document = json.loads(explain("crontab.spec.config", "-o", "json").stdout)
    assert document["notes"] and "free-form" in document["notes"][0]


def test_yaml_is_the_same_document_in_block_style() -> None:
    text = explain("crontab.spec", "-o", "yaml").stdout
    as_json = json.loads(explain("crontab.spec", "-o", "json").stdout)
    assert YAML(typ="safe", pure=True).load(text) == as_json
    assert text.startswith("group: stable.example.com\nversion: v1\nkind: CronTab\n")
    assert not re.search(r"(:|^ *-) [\[{][^\]}]", text, re.MULTILINE)  # block style


def test_yaml_quotes_words_yaml_1_1_reads_as_booleans(tmp_path: Path) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(
        CRONTAB.read_text().replace("enum: [Allow, Forbid, Replace]", "enum: ['on', 'off']")
    )
    text = explain("crontab.spec.concurrencyPolicy", "-o", "yaml", crd=crd).stdout
    assert '- "on"\n' in text
    assert '- "off"\n' in text


def test_kubectl_flag_with_another_format_keeps_the_format() -> None:
    result = explain("crontab.spec", "-o", "json", "--kubectl")
    assert json.loads(result.stdout)["path"] == "spec"


def test_help_lists_the_new_formats_and_flags() -> None:
    text = CliRunner().invoke(cli, ["explain", "--help"]).output
    assert "plaintext, json, yaml, markdown" in text
    assert "--kubectl" in text
    assert "-i, --interactive" in text


def test_interactive_without_a_terminal_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["explain", "--crd", str(CRONTAB), "crontab", "-i"])
    assert result.exit_code != 0
    assert "needs a terminal" in str(result.exception)
