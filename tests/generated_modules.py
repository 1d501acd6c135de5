"""A committed module that a hack/ script generates is what the script writes now."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path


def assert_script_writes(main: Callable[[list[str]], int], committed: Path, tmp_path: Path) -> None:
    """Run the script's ``main`` with ``--out`` in ``tmp_path``; its output must be
    ``committed``, byte for byte (the diff says what moved)."""
    out = tmp_path / committed.name
    assert main(["--out", str(out)]) == 0
    diff = "".join(
        difflib.unified_diff(
            committed.read_text(encoding="utf-8").splitlines(keepends=True),
            out.read_text(encoding="utf-8").splitlines(keepends=True),
            "committed",
            "generated",
        )
    )
    assert not diff, f"re-run the script and review:\n{diff}"
