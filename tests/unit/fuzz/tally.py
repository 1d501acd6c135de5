"""How many fuzz cases ran and how long they took, printed at the end of a test run.

Kept free of hypothesis so that ``tests/conftest.py`` can load the hooks on every run
(an xdist controller loads no conftest below the paths it was given, and its workers
hold the counts: each worker hands its tally over in ``workeroutput``).
"""

from __future__ import annotations

import json

import pytest

#: test name -> (cases, seconds)
TALLY: dict[str, tuple[int, float]] = {}


def add(name: str, cases: int, seconds: float) -> None:
    count, spent = TALLY.get(name, (0, 0.0))
    TALLY[name] = (count + cases, spent + seconds)


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the counts to the controller
        workeroutput["fuzz_tally"] = json.dumps(TALLY)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    output = getattr(node, "workeroutput", {}) or {}
    for name, (cases, seconds) in json.loads(output.get("fuzz_tally", "{}")).items():
        add(name, cases, seconds)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TALLY:
        return
    cases = sum(count for count, _ in TALLY.values())
    seconds = sum(spent for _, spent in TALLY.values())
    terminalreporter.write_line(
        f"fuzz: {cases} cases in {seconds:.1f} s over {len(TALLY)} properties"
    )
    for name, (count, spent) in sorted(TALLY.items()):
        terminalreporter.write_line(f"  {name}: {count} cases, {spent:.1f} s")
