"""A progress bar for long runs over many files, on a terminal only.

Drawn by rich on stderr, and only when stderr is a terminal (never when piped; no
colour with ``NO_COLOR``, which rich honours). When stdout is the same terminal, what
the command prints goes through rich's stdout redirection, above the bar, so the two
never tangle; the bar disappears when the run ends. ``rich`` is imported only when a
bar is drawn.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

#: Fewer files than this finish too soon for a bar to help.
MIN_FILES = 10


class Progress(Protocol):
    def advance(self, source: str) -> None:
        """A document of ``source`` is done (the bar counts files)."""


class _Silent:
    def advance(self, source: str) -> None:
        pass


class _Bar:
    def __init__(self, progress: Any, task: Any) -> None:
        self._progress = progress
        self._task = task
        self._sources: set[str] = set()

    def advance(self, source: str) -> None:
        if source not in self._sources:
            self._sources.add(source)
            self._progress.update(self._task, completed=len(self._sources) - 1)
            self._progress.refresh()


@contextmanager
def file_progress(total: int, label: str = "validating") -> Iterator[Progress]:
    """A bar over ``total`` files while the block runs, or nothing where it would not help."""
    if total < MIN_FILES or not sys.stderr.isatty():
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(file=sys.stderr)
    progress = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files"),
        console=console,
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
        auto_refresh=False,
    )
    with progress:
        task = progress.add_task(label, total=total)
        yield _Bar(progress, task)
