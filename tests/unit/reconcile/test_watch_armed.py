"""The dev loop says it watches only once it does: ``HotReloader.start()`` and
``LocalBackend.start_watching()`` return once the file observer is armed.

The observer starts in the watcher's thread (importing watchdog, adding the inotify
watches), 0.3-0.5 s after the thread starts on a loaded machine. The loop printed
"watching ... for changes" before that, and a save made right after the line was lost
(``dev --local``: 3 of 8 files written on the line missed under load). Here the
observer is made late on purpose (``changes`` waits 0.5 s before it starts) and each
file is saved ONCE, right after the call returns: it must be seen.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import filewatch
from kubectl_crd.reconcile.events import ReloadSucceeded
from kubectl_crd.reconcile.loading import load_reconciler
from kubectl_crd.reconcile.local import LocalBackend
from kubectl_crd.reconcile.reloading import HotReloader
from tests.unit.reconcile.test_localstore import GROUP
from tests.unit.reconcile.test_localstore_local import WIDGET, directory, names
from tests.unit.reconcile.test_reloading import Sink, Swaps, version

__all__ = ["directory"]  # the fixture

#: guards against a hang only
HANG_GUARD = 20.0


@pytest.fixture
def late_observer(monkeypatch: pytest.MonkeyPatch) -> None:
    real = filewatch.changes

    def late(*args: Any, **kwargs: Any) -> Iterator[set[str]]:
        time.sleep(0.5)  # a loaded machine, importing watchdog
        yield from real(*args, **kwargs)

    monkeypatch.setattr(filewatch, "changes", late)


@pytest.mark.usefixtures("late_observer")
def test_a_save_right_after_the_reloader_starts_is_reloaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "rec.py"
    path.write_text(version(1))
    sink = Sink()
    reloader = HotReloader(load_reconciler(str(path)), Swaps(), sink)
    reloader.start()
    try:
        path.write_text(version(2))
        sink.wait(ReloadSucceeded, timeout=HANG_GUARD)
        assert reloader.current.call({}, None).status == {"version": 2}
    finally:
        reloader.stop()


@pytest.mark.usefixtures("late_observer")
def test_a_file_written_right_after_start_watching_is_stored(directory: Path) -> None:
    backend = LocalBackend(str(directory), settle=0.05)
    backend.load()
    backend.start_watching()
    try:
        (directory / "c.yaml").write_text(WIDGET.format(name="c", size=4))
        deadline = time.monotonic() + HANG_GUARD
        while "c" not in names(backend, f"widgets.{GROUP}/v1"):
            assert time.monotonic() < deadline, "c.yaml was not seen"
            time.sleep(0.02)
        assert names(backend, f"widgets.{GROUP}/v1") == ["a", "c"]
    finally:
        backend.close()


def test_a_watcher_that_cannot_start_does_not_hold_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The observer never arms (no inotify watch left): start() does not wait for it."""

    def broken(*args: Any, **kwargs: Any) -> Iterator[set[str]]:
        raise OSError(28, "inotify watch limit reached")
        yield set()  # a generator, as the real one

    monkeypatch.setattr(filewatch, "changes", broken)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "rec.py"
    path.write_text(version(1))
    began = time.monotonic()
    HotReloader(load_reconciler(str(path)), Swaps(), Sink()).start(armed_within=HANG_GUARD)
    assert time.monotonic() - began < HANG_GUARD / 2
