"""``kubectl crd columns``: printer-column paths walked through the schema, and the command."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.columncheck import check_column_path
from tests.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[3]

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "replicas": {"type": "integer"},
                "mode": {"type": "string"},
                "items": {
                    "type": "array",
                    "items": {"type": "object", "properties": {"n": {"type": "string"}}},
                },
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            },
        },
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}},
    },
}


@pytest.mark.parametrize(
    ("path", "kind", "expected"),
    [
        (".spec.replicas", "integer", ""),
        (".spec.replicas", "string", ""),  # a string column shows anything
        (".spec.mode", "integer", "type 'integer' over a schema 'string'"),
        (".spec.nope", "string", "never matches: the schema has no field 'nope' at .spec"),
        (".status.ready", "boolean", ""),
        (".spec.items[0].n", "string", ""),
        (".spec.items[*].n", "string", ""),
        (".spec.mode[0]", "string", "never matches: .spec.mode is not an array"),
        (".spec.labels.anything", "string", ""),
        (".spec.free.deep.er", "string", ""),
        (".metadata.labels.app", "string", ""),
        (
            ".spec.items[?(@.n=='a')].n",
            "string",
            "not checked: only paths of fields and indexes are walked",
        ),
    ],
)
def test_paths_against_the_schema(path: str, kind: str, expected: str) -> None:
    assert check_column_path(path, kind, SCHEMA) == expected


def test_the_example_crontab_columns_and_preview() -> None:
    result = run_cli("columns", "crontabs", "--crd", str(REPO / "examples" / "crds"))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "stable.example.com/v1 (served, storage)"
    assert lines[2].split() == ["Schedule", "string", "-", "0", ".spec.cronSpec", "ok"]
    preview = lines[lines.index("preview (kubectl crd sample, as kubectl get -o wide):") + 2]
    assert preview.split()[0] == "example-crontab" and preview.split()[-1] == "0s"


def test_a_column_that_can_never_show_is_flagged(corpus_dir: Path) -> None:
    # Velero's PodVolumeBackup keeps the node in .spec.node; its column reads .status.node
    crd = corpus_dir / "crds" / "velero" / "velero.io_podvolumebackups.yaml"
    result = run_cli("columns", "podvolumebackups", "--crd", str(crd))
    assert result.returncode == 1
    assert "never matches: the schema has no field 'node' at .status" in result.stdout
