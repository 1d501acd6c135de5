"""The corpus has one setting (``tests.corpus``), and its absence is one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.corpus import DEFAULT, ENV

REPO = Path(__file__).resolve().parents[2]
NOWHERE = "/nonexistent/kubectl-crd-corpus"
EXPECTED = f"the CRD corpus is expected at {NOWHERE} (with crds/ and samples/)"


def _env(**more: str) -> dict[str, str]:
    return {**os.environ, ENV: NOWHERE, **more}


def test_nothing_else_names_the_corpus_directory() -> None:
    literals = (f'"{DEFAULT}"', '"shared" / "corpus"')
    found = [
        str(path.relative_to(REPO))
        for folder in ("tests", "bench")
        for path in (REPO / folder).rglob("*.py")
        if path.name not in ("corpus.py", "test_corpus_setting.py")
        and any(literal in path.read_text() for literal in literals)
    ]
    assert found == []


def test_bench_smoke_without_the_corpus_stops_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--smoke"],
        capture_output=True,
        text=True,
        env=_env(),
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"error: {EXPECTED}: set {ENV} to where it is"]
    assert "Traceback" not in result.stdout


def test_tests_needing_the_corpus_stop_the_run_in_one_line_or_skip() -> None:
    module = "tests/unit/get/test_columns_command.py"
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", module]
    stopped = subprocess.run(
        args, capture_output=True, text=True, env=_env(), cwd=REPO, check=False
    )
    assert stopped.returncode != 0
    assert sum(EXPECTED in line for line in stopped.stdout.splitlines()) == 1
    assert "passed" not in stopped.stdout
    skipped = subprocess.run(
        args,
        capture_output=True,
        text=True,
        env=_env(KUBECTL_CRD_SKIP_CORPUS="1"),
        cwd=REPO,
        check=False,
    )
    assert skipped.returncode == 0
    assert "1 skipped" in skipped.stdout
