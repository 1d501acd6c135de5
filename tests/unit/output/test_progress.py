"""The file progress bar: drawn on a terminal's stderr only, never when piped."""

from __future__ import annotations

import io
import re

import pytest

from kubectl_crd.output.progress import MIN_FILES, file_progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(files: int) -> None:
    with file_progress(files) as progress:
        for number in range(files):
            progress.advance(f"file-{number}.yaml")
            progress.advance(f"file-{number}.yaml")  # a second document of the same file


def test_a_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = _Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    _run(MIN_FILES + 2)
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stderr.getvalue())
    # a file counts as done when the next one starts
    assert f"{MIN_FILES + 1}/{MIN_FILES + 2} files" in drawn and drawn.startswith("\rvalidating")


@pytest.mark.parametrize("files", [MIN_FILES + 2, 1])
def test_nothing_when_piped_or_short(monkeypatch: pytest.MonkeyPatch, files: int) -> None:
    stderr = io.StringIO() if files > 1 else _Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    _run(files)
    assert stderr.getvalue() == ""
