"""Each example as the README runs it: ``kubectl crd dev examples/X/reconciler.py --local
examples/X --once`` (a subprocess, no cluster, no kubeconfig), read from its JSON lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run_cli

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

#: per example: the writes of its children (verb, kind, name) and the last status written
EXPECTED: dict[str, tuple[set[tuple[str, str, str]], dict[str, Any]]] = {
    "foo": ({("apply", "Deployment", "example-foo")}, {"availableReplicas": 0}),
    "nginx": (
        {("apply", "Deployment", "web")},
        {"nodes": ["web-7d9c5b6f4-abcde", "web-7d9c5b6f4-fghij"]},
    ),
    "xca": (set(), {"active": True}),
    "hook": ({("apply", "Pod", "hello")}, {"pods": 1}),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_example_reconciles_once_in_local_mode(name: str) -> None:
    done = run_cli(
        "dev", str(EXAMPLES / name / "reconciler.py"), "--local", str(EXAMPLES / name),
        "--once", "--log-format", "json",
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    summary = records[-1]
    assert (summary["event"], summary["objects"], summary["errors"], summary["problems"]) == (
        "summary", 1, 0, 0,
    )  # fmt: skip
    writes = [r for r in records if r["event"] == "Write"]
    children = {(w["verb"], w["kind"], w["name"]) for w in writes if w["verb"] == "apply"}
    children_wanted, status_wanted = EXPECTED[name]
    assert children == children_wanted
    [*_, last] = [w["body"]["status"] for w in writes if w["verb"] == "status"]
    assert {key: last.get(key) for key in status_wanted} == status_wanted


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_examples_crd_and_samples_validate(name: str) -> None:
    directory = str(EXAMPLES / name)
    done = run_cli("validate", "--offline", "--crd", directory, "-f", directory)
    assert (done.returncode, done.stderr) == (0, "")
    assert "error" not in done.stdout
