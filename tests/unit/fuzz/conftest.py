"""Prints how many fuzz cases ran and how long they took (issue 30 asks for the counts)."""

from __future__ import annotations

import pytest

from tests.unit.fuzz.bounds import TALLY


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TALLY:
        return  # not run here (another xdist worker ran the fuzz tests, or none did)
    cases = sum(count for count, _ in TALLY.values())
    seconds = sum(spent for _, spent in TALLY.values())
    terminalreporter.write_line(
        f"fuzz: {cases} cases in {seconds:.1f} s over {len(TALLY)} properties"
    )
    for name, (count, spent) in sorted(TALLY.items()):
        terminalreporter.write_line(f"  {name}: {count} cases, {spent:.1f} s")
