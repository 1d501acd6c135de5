"""Hot reload: a saved reconciler is loaded beside the running one and swapped in, the
controller's cache and watches kept.

``HotReloader`` watches the reconciler's ``watched_files`` (the file and the modules of
its own that it imports) and any extra paths through ``io.filewatch`` (the one file
watcher), a save's burst of events settled into one batch. Each batch loads the code
again in isolation (``loading.load_reconciler``): when that fails, the running code
stays and ``ReloadFailed`` says where (file, line, the line and a caret); when it
succeeds, the swap target (the controller's ``swap``, a plain callable here, so the
reloader knows nothing of the controller) installs it, and ``ReloadSucceeded`` reports
the latency from the file's write (its mtime) to the first call into the new code, or
to the swap when the swap says nothing was requeued. A swap that raises (the new code
names a resource the cluster does not serve, say) is a failed reload too.

Nothing here kills processes or restarts the interpreter: kopf's answer to a code change
is a restart and a new LIST of everything (nolar/kopf#1083); the point of this module is
that the loop never pays that.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from kubectl_crd.io.inputs import display_path
from kubectl_crd.model.errors import KubectlCrdError, ReconcilerError
from kubectl_crd.reconcile.events import (
    ReloadFailed,
    ReloadStarted,
    ReloadSucceeded,
    error_text,
)
from kubectl_crd.reconcile.loading import (
    LoadedReconciler,
    attempted_files,
    load_reconciler,
    stuck_loads,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kubectl_crd.reconcile.events import EventSink

__all__ = ["HotReloader"]

#: a file's mtime older than this before its batch arrived is not the save's time
#: (a copied file keeps its old mtime): the batch's arrival is used instead
_MTIME_TRUSTED = 10.0
#: how long a reload waits for the new code to import: a module-level call that never
#: returns held the reloader's one thread, and every later save, for ever. Past it the
#: reload fails where the import is, and the next save that changes a file it ran loads
#: again (the same code is not run beside it: ``load_reconciler``; the stuck import
#: stays in its daemon thread, a thread cannot be killed: ``load_reconciler`` undoes it
#: around the thread, and each later reload names it while it runs)
LOAD_TIMEOUT = 10.0


class HotReloader:
    """Reload ``loaded`` on every save, until ``stop()``.

    ``swap(new)`` installs new code (the controller's ``swap``); it may return the
    number of cached objects it requeued, or a record with ``requeued``,
    ``watches_started`` and ``watches_stopped`` (as ``events.Swapped``): with 0
    requeued, the latency ends at the swap; otherwise at the first call into the new
    code (or after ``first_call_wait`` seconds without one, at the swap).
    """

    def __init__(
        self,
        loaded: LoadedReconciler,
        swap: Callable[[LoadedReconciler], object],
        sink: EventSink,
        *,
        extra: Sequence[str] = (),
        settle: float = 0.05,
        load: Callable[[str], LoadedReconciler] | None = None,
        first_call_wait: float = 10.0,
        load_timeout: float = LOAD_TIMEOUT,
    ) -> None:
        self._current = loaded
        self._swap = swap
        self._sink = sink
        self._extra = tuple(os.path.abspath(path) for path in extra)
        self._settle = settle
        self._load = load or partial(load_reconciler, timeout=load_timeout)
        self._first_call_wait = first_call_wait
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._armed = threading.Event()

    @property
    def current(self) -> LoadedReconciler:
        """The code the controller runs now (the last that loaded and swapped)."""
        return self._current

    def paths(self) -> tuple[str, ...]:
        """What is watched: the reconciler's files, those its latest load ran when that
        failed (the helper the user is fixing), and the extra paths."""
        files = dict.fromkeys((*self._current.watched_files, *attempted_files(self._current.path)))
        return (*files, *self._extra)

    def start(self, armed_within: float = 10.0) -> threading.Thread:
        """Run the reloader in a daemon thread; returns once its files are watched (or
        after ``armed_within`` seconds), so that a save made after the loop says it
        watches is seen: the observer starts in that thread, a few tenths of a second
        later on a loaded machine."""
        thread = threading.Thread(target=self.run, name="kubectl-crd-reloader", daemon=True)
        self._thread = thread
        thread.start()
        self._armed.wait(armed_within)
        return thread

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop watching (from any thread); waits for the reloader's thread."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def run(self) -> None:
        """Watch and reload until ``stop()``; the watcher starts again over a new set of
        files when a reload changes what the reconciler imports."""
        try:
            self._watch()
        except Exception as error:  # no inotify watch left, say: the loop runs on
            self._sink(
                ReloadFailed(
                    path=self._current.display,
                    error=f"watching files failed, hot reload is off: {type(error).__name__}: {error}",
                )
            )
        finally:
            self._armed.set()  # a watcher that failed to start does not hold start() up

    def _watch(self) -> None:
        from kubectl_crd.io.filewatch import Stamp, changes, file_stamps

        since: dict[str, Stamp] | None = None
        while not self._stop.is_set():
            watched = self.paths()
            batches = changes(
                watched, settle=self._settle, stop=self._stop, armed=self._armed, since=since
            )
            try:
                for batch in batches:
                    before = file_stamps(watched)  # as the reload is about to read them
                    self.reload(batch, arrived=time.time())
                    if self.paths() != watched:
                        # a file saved after the load read it (this watcher's events are
                        # dropped with it, the next one is not armed yet) is the next
                        # watcher's first batch, not a save lost between the two; a new
                        # file (a new import) is taken as loaded
                        now = self.paths()
                        since = {p: before[p] for p in now if p in before}
                        since.update(file_stamps([p for p in now if p not in before]))
                        break
            finally:
                close = getattr(batches, "close", None)  # a generator: stops the observer
                if close is not None:
                    close()

    def reload(self, changed: Iterable[str] = (), *, arrived: float | None = None) -> bool:
        """Load the code again and swap it in; False (and ``ReloadFailed``) when it
        does not load or the swap refuses it. ``changed``: the files whose change
        caused it, their mtime being where the latency starts."""
        with self._lock:
            arrived = time.time() if arrived is None else arrived
            changed = sorted(changed)
            written = _written_at(changed, arrived)
            path = self._current.path
            shown = self._current.display
            self._sink(ReloadStarted(path=shown, changed=tuple(display_path(p) for p in changed)))
            # the earlier loads abandoned still running (not this one's, if it is: its
            # failure says where it is)
            stuck = stuck_loads(path)
            try:
                new = self._load(path)
            except Exception as error:  # a bug of ours too must not end the loop
                self._sink(_failed(shown, error, stuck))
                return False
            report = _Report(self._sink, shown, written, stuck)
            new.on_first_call(report.send)
            try:
                answer = self._swap(new)
            except Exception as error:  # the controller refused it: the old code runs on
                new.on_first_call(None)
                self._sink(_failed(shown, error, stuck))
                return False
            swapped = time.time()
            self._current = new
            requeued = answer if isinstance(answer, int) else getattr(answer, "requeued", None)
            report.swapped(
                tuple(getattr(answer, "watches_started", ())),
                tuple(getattr(answer, "watches_stopped", ())),
            )
            if requeued == 0:
                new.on_first_call(None)
                report.send(swapped)
            elif requeued is None:
                timer = threading.Timer(self._first_call_wait, report.send, (swapped,))
                timer.daemon = True
                timer.start()
            return True


class _Report:
    """``ReloadSucceeded``, sent once: at the first call, or at the swap; never before
    the swap has answered which watches it started and stopped. A worker takes a key
    the swap requeued and calls the new code while the swap is still returning: that
    first call, reported at once, said no watch had started (a reload that added
    ``v1/Secret`` to ``OWNS`` reported ``watches_started=()``, seen with threads
    switching often); it is reported once the swap's answer is in."""

    def __init__(self, sink: EventSink, path: str, written: float, stuck: tuple[str, ...]) -> None:
        self._sink = sink
        self._path = path
        self._written = written
        self._stuck = stuck
        self._sent = False
        self._lock = threading.Lock()
        #: when the latency ends (the first call, or the swap), once known
        self._when: float | None = None
        #: the watches the swap started and stopped, once it answered
        self._watches: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def send(self, when: float) -> None:
        """The latency ends at ``when`` (the first one given counts)."""
        with self._lock:
            if self._when is None:
                self._when = when
        self._send_when_known()

    def swapped(self, started: tuple[str, ...], stopped: tuple[str, ...]) -> None:
        """The swap answered: the watches it started and stopped."""
        with self._lock:
            self._watches = (started, stopped)
        self._send_when_known()

    def _send_when_known(self) -> None:
        with self._lock:
            if self._sent or self._when is None or self._watches is None:
                return
            self._sent = True
            when, (started, stopped) = self._when, self._watches
        self._sink(
            ReloadSucceeded(
                path=self._path,
                latency=max(when - self._written, 0.0),
                watches_started=started,
                watches_stopped=stopped,
                stuck=self._stuck,
            )
        )


def _written_at(changed: Sequence[str], arrived: float) -> float:
    """When the save happened: the newest mtime of the changed files, when it is
    believable (not after the batch arrived, not long before)."""
    times = []
    for path in changed:
        try:
            times.append(os.stat(path).st_mtime)
        except OSError:
            continue
    newest = max(times, default=arrived)
    return newest if arrived - _MTIME_TRUSTED <= newest <= arrived else arrived


def _failed(path: str, error: Exception, stuck: tuple[str, ...] = ()) -> ReloadFailed:
    if isinstance(error, ReconcilerError):
        location = error.location
        caret = f"{error.source_line}\n{error.caret}" if error.source_line else ""
        return ReloadFailed(
            path=path,
            error=str(error).splitlines()[0],
            file=location.file if location else "",
            line=location.line if location else 0,
            caret=caret,
            stuck=stuck,
        )
    if isinstance(error, KubectlCrdError):
        return ReloadFailed(path=path, error=str(error), stuck=stuck)
    return ReloadFailed(path=path, error=error_text(error), stuck=stuck)
