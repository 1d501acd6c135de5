"""Files that change on disk, as batches of paths: the one place that imports watchdog.

``validate --watch`` re-validates what was saved, and the dev loop's hot reload will
stand on the same generator. An editor's save is often several events (write to a
temporary file, rename, touch); ``changes`` collects the events that arrive within
``settle`` seconds of each other and yields their paths once, but no later than
``max_wait`` seconds after the first (watchfiles' ``debounce``, 1.6 s by default there
too): files saved more often than ``settle`` without a pause (a generator, several
editors) would otherwise never be yielded. A ``stop`` event ends it
from another thread (the dev loop's reloader stops with the loop): the generator returns
within ``settle`` seconds of it being set, its observer stopped. The observer starts on
the first ``next()``, often in another thread: ``armed`` is set once it watches, so a
caller can say "watching" only when a save would be seen. ``since``: the files' stamps
(``file_stamps``) when the caller last looked; a file whose stamp differs once the
observer watches is the first batch, so a save in the gap between two watchers (the dev
loop starts a new one over a reconciler's new imports) is not lost.
"""

from __future__ import annotations

import os
import queue
import time
from collections.abc import Iterator, Mapping, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading


#: what watchdog logs (as an error) when its inotify emitter reads once it was stopped
#: (watchdog/observers/inotify.py, ``InotifyEmitter.queue_events``): a race of its own
#: stop, harmless, hit when the dev loop's watcher starts again over a reconciler's new
#: imports; logging's last resort printed it on stderr, over the live dashboard
_STOP_RACE = "InotifyEmitter.queue_events() called when the thread is inactive"


def _not_the_stop_race(record: object) -> bool:
    return getattr(record, "msg", None) != _STOP_RACE


def _quiet_the_stop_race() -> None:
    """Drop ``_STOP_RACE`` (only it) from watchdog's inotify logger."""
    import logging

    logger = logging.getLogger("watchdog.observers.inotify")
    if _not_the_stop_race not in logger.filters:
        logger.addFilter(_not_the_stop_race)


#: what tells a file's content changed without reading it: mtime, size, inode (an
#: editor that saves by renaming makes a new inode); None for a file that is not there
Stamp = tuple[int, int, int] | None


def file_stamps(paths: Sequence[str]) -> dict[str, Stamp]:
    """Each path's ``Stamp`` now."""
    stamps: dict[str, Stamp] = {}
    for path in paths:
        try:
            status = os.stat(path)
        except OSError:
            stamps[path] = None
        else:
            stamps[path] = (status.st_mtime_ns, status.st_size, status.st_ino)
    return stamps


def changes(
    paths: Sequence[str],
    *,
    settle: float = 0.1,
    max_wait: float = 1.6,
    extensions: Sequence[str] = (),
    stop: threading.Event | None = None,
    armed: threading.Event | None = None,
    since: Mapping[str, Stamp] | None = None,
) -> Iterator[set[str]]:
    """Each batch of changed files under ``paths`` (files or directories, recursively).

    A file given by name is matched whatever its extension; files found in a directory
    only with one of ``extensions`` (any, when empty). Runs until the caller stops
    iterating or ``stop`` is set; the observer thread stops with it.
    """
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    _quiet_the_stop_race()
    named = {os.path.abspath(p) for p in paths if not os.path.isdir(p)}
    under = tuple(os.path.abspath(p) + os.sep for p in paths if os.path.isdir(p))
    suffixes = tuple(extensions)
    events: queue.Queue[str] = queue.Queue()

    def wanted(path: str) -> bool:
        path = os.path.abspath(path)
        return path in named or (
            path.startswith(under) and (not suffixes or path.endswith(suffixes))
        )

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if event.is_directory or event.event_type in ("opened", "closed_no_write"):
                return
            for path in (event.src_path, getattr(event, "dest_path", "")):
                if isinstance(path, bytes):
                    path = os.fsdecode(path)
                if path and wanted(path):
                    events.put(os.path.abspath(path))

    observer = Observer()
    handler = Handler()
    watched: set[str] = set()
    for path in paths:
        directory = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
        if directory not in watched:
            watched.add(directory)
            observer.schedule(handler, directory, recursive=os.path.isdir(path))
    observer.start()
    if armed is not None:
        armed.set()
    if since:
        for path, stamp in file_stamps(list(since)).items():
            if stamp != since[path]:  # changed before this observer watched
                events.put(os.path.abspath(path))
    try:
        while stop is None or not stop.is_set():
            try:
                first = events.get(timeout=None if stop is None else settle)
            except queue.Empty:
                continue
            batch = {first}
            until = time.monotonic() + max_wait
            while (left := until - time.monotonic()) > 0:
                try:
                    batch.add(events.get(timeout=min(settle, left)))
                except queue.Empty:
                    break
            yield batch
    finally:
        observer.stop()
        observer.join(timeout=2)
