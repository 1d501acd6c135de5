"""The dev loop's live dashboard: the engine's events (``reconcile.events``) as one screen.

``kubectl crd dev`` on a terminal (not piped, not ``--log-format json``, not ``--once``)
shows this instead of scrolling log lines (``output.devlog``, which stays the format
for pipes and machines). Three parts, so each is tested on its own:

- ``DashState``: a plain model, an ``EventSink`` (thread-safe, quick): every reconciled
  object's state and last result, counters, the reconciles of the last
  ``RATE_WINDOW`` seconds, the last reload, the recent log lines. ``snapshot()`` copies
  it into a ``Snapshot`` of plain values.
- ``render(snapshot, ...)``: a ``Snapshot`` as rich text lines fitted to a width and
  height (a pure function: tests give a ``Console(record=True, width=...)``).
- ``Dashboard``: a context manager that draws ``render`` with ``rich.live.Live`` on the
  alternate screen at ``REFRESH_PER_SECOND`` (redrawn in place, no clearing: no
  flicker) and, when stdin is a terminal, reads keys from ``/dev/tty`` in cbreak mode
  (up/down or k/j select, ``r`` or Enter reconciles the selected object now, ``q``
  quits). Leaving it, by any exit (Ctrl-C, an error), puts the terminal back: the
  saved tty mode restored, the main screen and the cursor back, ``sys.stdout`` and
  ``sys.stderr`` (which meanwhile feed the recent lines, so a reconciler's ``print``
  cannot scribble over the screen) restored.

An object's state is its last reconcile's: **synced** (it succeeded), **pending** (queued
or being reconciled: new, changed, or a reload requeued it), **erroring** (it failed and
waits for a change, a key or ``--trigger``: a ``TerminalError``), **backing off** (it
failed and is retried after the workqueue's backoff). Colour only when the caller says
(a terminal, ``NO_COLOR`` unset: ``output.terminal.colour_wanted``); rich is imported
only by ``render`` and ``Dashboard``.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import os
import sys
import threading
import time

from kubectl_crd.model.records import record
from kubectl_crd.output.devlog import duration_text, located_error, where_prefix
from kubectl_crd.reconcile import events as ev

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import TracebackType
    from typing import Any, TextIO

__all__ = [
    "REFRESH_PER_SECOND",
    "DashState",
    "Dashboard",
    "ObjectRow",
    "ObjectState",
    "Snapshot",
    "Tee",
    "render",
]

#: redraws per second (rich Live's own refresh thread)
REFRESH_PER_SECOND = 5
#: reconciles per second are counted over this many seconds
RATE_WINDOW = 10.0
#: recent log lines kept
RECENT_LINES = 200


class ObjectState(enum.Enum):
    SYNCED = "synced"
    PENDING = "pending"
    ERRORING = "erroring"
    BACKING_OFF = "backing off"


_STATE_STYLE = {
    ObjectState.SYNCED: "green",
    ObjectState.PENDING: "cyan",
    ObjectState.ERRORING: "bold red",
    ObjectState.BACKING_OFF: "yellow",
}


@record
class ObjectRow:
    """One reconciled object, as the dashboard shows it."""

    key: ev.ObjectKey
    state: ObjectState
    #: reconciles of it that finished
    reconciles: int = 0
    #: its last reconcile's one line: ``3.2ms, 1 write``, or the error
    last: str = ""
    #: where the error was raised, in the user's code
    file: str = ""
    line: int = 0
    #: monotonic time its last reconcile finished (0: none yet)
    finished_at: float = 0.0
    #: monotonic time of its retry, while backing off
    retry_at: float = 0.0
    #: failures in a row
    failures: int = 0
    #: a reconcile of it is running
    running: bool = False
    #: with --local: the last reconcile that wrote something, each write's log line and
    #: diff (ANSI colour codes when coloured)
    diff: tuple[str, ...] = ()


@record
class Snapshot:
    """What one frame shows (plain values; ``DashState.snapshot``)."""

    now: float
    title: str = ""
    #: --envtest: the control plane's kubeconfig, for kubectl beside the loop
    kubeconfig: str = ""
    rows: tuple[ObjectRow, ...] = ()
    #: objects and queued keys the cache knows but no reconcile has finished yet
    queue: int | None = None
    rate: float = 0.0
    reconciles: int = 0
    writes: int = 0
    errors: int = 0
    #: the last reload's last event (started, succeeded or failed) and when it came
    reload: ev.ReloadStarted | ev.ReloadSucceeded | ev.ReloadFailed | None = None
    reload_at: float = 0.0
    #: the input's current problems (``--local`` DIR): ``file:line:column: message``
    problems: tuple[str, ...] = ()
    #: resources whose watch is failing, with the error
    watch_errors: tuple[str, ...] = ()
    #: the log's recent lines (ANSI colour codes when coloured)
    recent: tuple[str, ...] = ()
    #: a short message of the last key pressed (``triggered ...``)
    flash: str = ""

    def count(self, state: ObjectState) -> int:
        return sum(row.state is state for row in self.rows)


class _Object:
    __slots__ = (
        "diff",
        "diffing",
        "failures",
        "file",
        "finished_at",
        "last",
        "line",
        "reconciles",
        "resource",
        "retry_at",
        "running",
        "state",
    )

    def __init__(self) -> None:
        self.state = ObjectState.PENDING
        #: the FOR resource it is an object of, as the reconciler spells it
        self.resource = ""
        self.reconciles = 0
        self.last = ""
        self.file = ""
        self.line = 0
        self.finished_at = 0.0
        self.retry_at = 0.0
        self.failures = 0
        self.running = False
        self.diff: tuple[str, ...] = ()
        #: the diff of the reconcile running now (it becomes ``diff`` if it wrote)
        self.diffing: list[str] = []


class DashState:
    """The dashboard's model, fed engine events (see the module docstring).

    ``queue_depth`` and ``problems`` are read at each snapshot (the workqueue's length,
    ``--local`` DIR's problems until fixed): they are states, not events."""

    def __init__(
        self,
        *,
        title: str = "",
        clock: Callable[[], float] = time.monotonic,
        queue_depth: Callable[[], int] | None = None,
        problems: Callable[[], list[str]] | None = None,
    ) -> None:
        self.title = title
        #: shown under the title for as long as the loop runs: in the recent lines the
        #: start's line with it was cut at the terminal's width, then scrolled away
        self.kubeconfig = ""
        #: the title for the FOR a reload swaps in (None: the title stays)
        self.retitle: Callable[[str], str] | None = None
        self._clock = clock
        self.queue_depth = queue_depth
        self.problems = problems
        self._lock = threading.Lock()
        self._objects: dict[ev.ObjectKey, _Object] = {}
        self._finishes: collections.deque[float] = collections.deque()
        self._recent: collections.deque[str] = collections.deque(maxlen=RECENT_LINES)
        self._partial = ""
        self._watch_errors: dict[str, str] = {}
        self._reload: ev.ReloadStarted | ev.ReloadSucceeded | ev.ReloadFailed | None = None
        self._reload_at = 0.0
        self._flash = ""
        self.reconciles = 0
        self.writes = 0
        self.errors = 0

    # -- events ------------------------------------------------------------------------

    def __call__(self, event: ev.Event) -> None:
        now = self._clock()
        with self._lock:
            if isinstance(event, ev.ObjectCached):
                # pending (queued) until its first reconcile
                self._object(event.key).resource = event.resource
            elif isinstance(event, ev.ObjectDeleted):
                self._objects.pop(event.key, None)
            elif isinstance(event, ev.ReconcileStarted):
                entry = self._object(event.key)
                entry.resource = event.resource
                entry.running = True
                entry.state = ObjectState.PENDING
                entry.diffing = []
            elif isinstance(event, ev.ReconcileFinished):
                self._finished(event, now)
            elif isinstance(event, ev.Requeued):
                entry = self._object(event.key)
                if event.reason == "error":
                    entry.state = ObjectState.BACKING_OFF
                    entry.retry_at = now + event.after
                    entry.failures = event.failures
                elif event.reason in ("swap", "timeout"):
                    entry.state = ObjectState.PENDING
            elif isinstance(event, ev.ReconcileTimedOut):
                entry = self._object(event.key)
                at = f" at {event.file}:{event.line}" if event.file and event.line else ""
                entry.last = f"still running after {duration_text(event.elapsed)}{at}"
            elif isinstance(event, ev.Write):
                self.writes += 1
            elif isinstance(event, ev.Swapped):
                if event.for_resource and self.retitle is not None:
                    self.title = self.retitle(event.for_resource)
                for key, entry in list(self._objects.items()):
                    if event.for_resource and entry.resource not in ("", event.for_resource):
                        del self._objects[key]  # of the FOR the new code does not reconcile
                    else:  # every object is reconciled anew
                        entry.state = ObjectState.PENDING
            elif isinstance(event, ev.ReloadStarted | ev.ReloadSucceeded | ev.ReloadFailed):
                self._reload, self._reload_at = event, now
            elif isinstance(event, ev.WatchError) and event.retrying:
                # not a WATCHES mapping's failure on one object (retrying false): the
                # watch runs on, so it is a recent line, not "watch failing" until a relist
                self._watch_errors[event.resource] = event.message
            elif isinstance(event, ev.WatchSynced | ev.WatchStopped):
                self._watch_errors.pop(event.resource, None)

    def _object(self, key: ev.ObjectKey) -> _Object:
        entry = self._objects.get(key)
        if entry is None:
            entry = self._objects[key] = _Object()
        return entry

    def _finished(self, event: ev.ReconcileFinished, now: float) -> None:
        if event.outcome is ev.Outcome.GONE:
            self._objects.pop(event.key, None)
            return
        entry = self._object(event.key)
        entry.running = False
        if entry.diffing:
            entry.diff, entry.diffing = tuple(entry.diffing), []
        entry.reconciles += 1
        entry.finished_at = now
        entry.retry_at = 0.0
        self.reconciles += 1
        self._finishes.append(now)
        took = duration_text(event.duration)
        if event.outcome is ev.Outcome.SUCCESS:
            entry.state = ObjectState.SYNCED
            entry.failures = 0
            writes = "no writes" if not event.writes else _plural(event.writes, "write")
            again = (
                f", again in {duration_text(event.requeue_after)}" if event.requeue_after else ""
            )
            entry.last, entry.file, entry.line = f"{took}, {writes}{again}", "", 0
            return
        self.errors += 1
        # a failure is "erroring" until the engine says it is retried (``Requeued``)
        entry.state = ObjectState.ERRORING
        entry.last = event.error.splitlines()[0] if event.error else "failed"
        if event.outcome is ev.Outcome.TERMINAL:
            entry.last = "terminal: " + entry.last
        entry.file, entry.line = event.file, event.line

    def changed(self, write: ev.Write, diff: list[str]) -> None:
        """What one write of a reconcile changed (``DevLog``'s ``on_change`` with
        ``--local``: the write's line and diff as the log writes them): kept as the
        object's last change once its reconcile finishes."""
        with self._lock:
            entry = self._objects.get(write.key)
            if entry is not None:
                entry.diffing += diff

    # -- the command's own lines -------------------------------------------------------

    def write(self, text: str) -> int:
        """A stream's ``write``: the log (and, while the dashboard is up, ``print``)
        writes here; whole lines become recent lines."""
        with self._lock:
            text = self._partial + text
            *lines, self._partial = text.split("\n")
            self._recent.extend(line.rstrip("\r") for line in lines)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def flash(self, message: str) -> None:
        with self._lock:
            self._flash = message

    # -- reads -------------------------------------------------------------------------

    def keys(self) -> list[ev.ObjectKey]:
        """The objects in display order (namespace, then name)."""
        with self._lock:
            return sorted(self._objects)

    def snapshot(self) -> Snapshot:
        now = self._clock()
        queue = self.queue_depth() if self.queue_depth is not None else None
        problems = tuple(self.problems()) if self.problems is not None else ()
        with self._lock:
            while self._finishes and self._finishes[0] < now - RATE_WINDOW:
                self._finishes.popleft()
            rows = tuple(
                ObjectRow(
                    key,
                    entry.state,
                    entry.reconciles,
                    entry.last,
                    entry.file,
                    entry.line,
                    entry.finished_at,
                    entry.retry_at,
                    entry.failures,
                    entry.running,
                    entry.diff,
                )
                for key, entry in sorted(self._objects.items())
            )
            return Snapshot(
                now=now,
                title=self.title,
                kubeconfig=self.kubeconfig,
                rows=rows,
                queue=queue,
                rate=len(self._finishes) / RATE_WINDOW,
                reconciles=self.reconciles,
                writes=self.writes,
                errors=self.errors,
                reload=self._reload,
                reload_at=self._reload_at,
                problems=problems,
                watch_errors=tuple(f"{r}: {m}" for r, m in sorted(self._watch_errors.items())),
                recent=tuple(self._recent),
                flash=self._flash,
            )


class Tee:
    """A stream writing to two: the terminal and the dashboard's recent lines (the
    start's lines, before the dashboard takes the screen)."""

    def __init__(self, *streams: Any) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _ago(now: float, then: float) -> str:
    return f"{duration_text(max(0.0, now - then))} ago"


# -- drawing ----------------------------------------------------------------------------

#: the footer's help
HELP = "\u2191/\u2193 select  r reconcile now  q quit"


def render(
    snap: Snapshot,
    *,
    width: int,
    height: int,
    selected: ev.ObjectKey | None = None,
    trigger_hint: str = "",
) -> Any:
    """One frame: a rich ``Group`` of exactly the lines that fit ``width`` x ``height``
    (each cut with an ellipsis, never wrapped, so a frame never scrolls)."""
    from rich.console import Group
    from rich.text import Text

    def line(*parts: tuple[str, str] | str) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis", end="")
        for part in parts:
            if isinstance(part, str):
                text.append(part)
            else:
                text.append(*part)
        text.truncate(width, overflow="ellipsis")
        return text

    top: list[Text] = [line((snap.title, "bold"))]
    if snap.kubeconfig:
        top.append(line(("kubectl --kubeconfig ", "dim"), snap.kubeconfig, (" get ...", "dim")))
    counts: list[tuple[str, str] | str] = []
    for state in ObjectState:
        number = snap.count(state)
        counts += [(f"{state.value} {number}", _STATE_STYLE[state] if number else "dim"), "  "]
    queue = f"queue {snap.queue}" if snap.queue is not None else ""
    counts += [
        ("\u2502 ", "dim"),
        f"{queue}  " if queue else "",
        f"{snap.rate:.1f} reconciles/s  ",
        (
            f"{_plural(snap.reconciles, 'reconcile')}, {_plural(snap.writes, 'write')}, "
            f"{_plural(snap.errors, 'error')}",
            "dim",
        ),
    ]
    top.append(line(*counts))
    top.append(_reload_line(snap, line))
    if isinstance(snap.reload, ev.ReloadFailed) and snap.reload.caret:
        top += [line(("    " + text, "yellow")) for text in snap.reload.caret.splitlines()[:2]]
    for problem in snap.problems[:3]:
        top.append(line((problem, "red")))
    if len(snap.problems) > 3:
        top.append(line((f"and {len(snap.problems) - 3} more problems", "red")))
    for failing in snap.watch_errors[:2]:
        top.append(line(("watch failing: " + failing, "yellow")))

    footer = [
        line(
            (HELP, "dim"),
            ("  \u2502  " + trigger_hint, "dim") if trigger_hint else "",
        )
    ]
    if snap.flash:
        footer.insert(0, line((snap.flash, "bold")))

    # the objects, then the selected one's detail, then recent lines with what is left
    rows = snap.rows
    keys = [row.key for row in rows]
    index = keys.index(selected) if selected in keys else (0 if rows else -1)
    detail = _detail(rows[index], line, width) if index >= 0 else []
    room = height - len(top) - len(footer) - 2  # a blank line and the header
    recent_room = max(0, min(len(snap.recent), room - len(detail) - 3 - len(rows)))
    room_rows = max(1, room - len(detail) - (recent_room + 1 if recent_room else 0))
    more = len(rows) > room_rows > 1  # a line says how many do not fit
    room_rows -= more
    first = max(0, min(index - room_rows + 1, len(rows) - room_rows)) if index >= room_rows else 0
    shown = rows[first : first + room_rows]
    name_width = max([len("OBJECT"), *(len(ev.key_text(key)) for key in keys)])
    name_width = min(name_width, max(12, width // 3))
    body: list[Text] = [
        Text(end=""),
        line((_row_cells(name_width, "OBJECT", "STATE", "RUNS", "LAST"), "bold")),
    ]
    if not rows:
        body.append(line(("  no object reconciled yet", "dim")))
    for offset, row in enumerate(shown):
        mine = first + offset == index
        body.append(_row_line(snap, row, name_width, mine, line))
    if more:
        body.append(line((f"  \u2026 {len(rows) - len(shown)} more (up/down scroll)", "dim")))
    body += detail
    if recent_room:
        body.append(line(("recent:", "dim")))
        body += [_ansi(text, width) for text in snap.recent[-recent_room:]]
    frame = top + body
    frame = frame[: max(0, height - len(footer))]
    frame += [Text(end="")] * (height - len(footer) - len(frame))
    frame += footer
    return Group(*(_with_newline(text) for text in frame[:height]))


def _with_newline(text: Any) -> Any:
    text.end = "\n"
    return text


def _row_cells(name_width: int, name: str, state: str, runs: str, last: str) -> str:
    return f"  {name:<{name_width}}  {state:<11}  {runs:>4}  {last}"


def _row_line(snap: Snapshot, row: ObjectRow, name_width: int, mine: bool, line: Any) -> Any:
    """One object: the selected one marked ``>`` (and reversed), the state coloured."""
    name = ev.key_text(row.key)
    if len(name) > name_width:
        name = name[: name_width - 1] + "\u2026"
    state = row.state.value + ("*" if row.running else "")
    if row.state is ObjectState.BACKING_OFF and row.retry_at:
        wait = duration_text(max(0.0, row.retry_at - snap.now))
        last = f"retry in {wait}: {where_prefix(row.file, row.line)}{row.last}"
    elif row.state in (ObjectState.ERRORING, ObjectState.BACKING_OFF):
        last = where_prefix(row.file, row.line) + row.last
    elif row.finished_at:
        last = f"{_ago(snap.now, row.finished_at)}: {row.last}"
    else:
        last = row.last
    style = "reverse" if mine else ""
    return line(
        (f"{'>' if mine else ' '} {name:<{name_width}}  ", style),
        (f"{state:<11}", _STATE_STYLE[row.state]),
        (f"  {row.reconciles:>4}  {last}", style),
    )


#: lines of the selected object's last diff shown at the most
DIFF_LINES = 12


def _detail(row: ObjectRow, line: Any, width: int) -> list[Any]:
    """The selected object's error, in full, and (with --local) its last diff."""
    lines = []
    if row.state in (ObjectState.ERRORING, ObjectState.BACKING_OFF):
        what = f"{ev.key_text(row.key)}: {where_prefix(row.file, row.line)}{row.last}"
        if row.failures:
            what += f" ({_plural(row.failures, 'failure')} in a row)"
        lines.append(line((what, "red")))
    if row.diff:
        lines.append(line((f"last change of {ev.key_text(row.key)}:", "bold")))
        lines += [_ansi(text, width) for text in row.diff[:DIFF_LINES]]
        if len(row.diff) > DIFF_LINES:
            lines.append(line((f"  \u2026 {len(row.diff) - DIFF_LINES} more lines", "dim")))
    return [line(("", "")), *lines] if lines else []


def _reload_line(snap: Snapshot, line: Any) -> Any:
    reload = snap.reload
    if reload is None:
        return line(("reload: ", "dim"), ("none yet (save the reconciler to reload it)", "dim"))
    ago = _ago(snap.now, snap.reload_at)
    if isinstance(reload, ev.ReloadStarted):
        return line(("reload: ", "dim"), (f"reloading {reload.path}", "magenta"))
    # an earlier load that never returned, said on the line that stays (the log's
    # warning under each reload scrolls out of the recent lines)
    stuck = ("; earlier load stuck at " + ", ".join(reload.stuck), "yellow")
    if isinstance(reload, ev.ReloadSucceeded):
        return line(
            ("reload: ", "dim"),
            (f"{reload.path} reloaded {ago}, latency {duration_text(reload.latency)}", "magenta"),
            *([stuck] if reload.stuck else []),
        )
    error = located_error(reload.error, reload.file, reload.line)
    return line(
        ("reload: ", "dim"),
        (f"failed {ago}, the running code stays: {error}", "red"),
        *([stuck] if reload.stuck else []),
    )


def _ansi(text: str, width: int) -> Any:
    from rich.text import Text

    shown = Text.from_ansi(text, no_wrap=True, overflow="ellipsis", end="")
    shown.truncate(width, overflow="ellipsis")
    return shown


# -- the live screen --------------------------------------------------------------------


class Dashboard:
    """``render`` live on the terminal ``stream`` (see the module docstring).

    ``trigger(key)`` reconciles an object now and returns what to flash (``r``);
    ``on_quit`` is called on ``q`` (the command stops as on Ctrl-C). ``keys``: read
    keys from ``/dev/tty`` (only when stdin is a terminal)."""

    def __init__(
        self,
        state: DashState,
        stream: TextIO,
        *,
        colour: bool,
        trigger: Callable[[ev.ObjectKey], str] | None = None,
        on_quit: Callable[[], None] | None = None,
        keys: bool = True,
        trigger_hint: str = "",
        refresh_per_second: float = REFRESH_PER_SECOND,
    ) -> None:
        self.state = state
        self.stream = stream
        self.colour = colour
        self.trigger = trigger
        self.on_quit = on_quit
        self.read_keys = keys
        self.trigger_hint = trigger_hint
        self.refresh_per_second = refresh_per_second
        self.selected: ev.ObjectKey | None = None
        self._live: Any = None
        self._console: Any = None
        self._stop = threading.Event()
        self._reader: threading.Thread | None = None
        #: written on stop so the key reader's select returns at once: a reader still
        #: waiting out its timeout would take keys typed for the shell after the loop
        self._wake: tuple[int, int] | None = None
        self._tty: int | None = None
        self._saved_mode: Any = None
        self._saved_streams: tuple[Any, Any] | None = None
        self._saved_tstp: Any = None

    def frame(self) -> Any:
        """The frame to draw now (rich Live's refresh thread calls it)."""
        size = self._console.size if self._console is not None else None
        width, height = (size.width, size.height) if size is not None else (100, 30)
        snap = self.state.snapshot()
        keys = [row.key for row in snap.rows]
        if self.selected not in keys:
            self.selected = keys[0] if keys else None
        try:
            return render(
                snap,
                width=width,
                height=height,
                selected=self.selected,
                trigger_hint=self.trigger_hint,
            )
        except Exception as exc:  # a drawing bug must not end the refresh thread unseen
            from rich.text import Text

            return Text(f"kubectl crd dev: the dashboard cannot draw: {exc!r}")

    def __enter__(self) -> Dashboard:
        from rich.console import Console
        from rich.live import Live

        self._console = Console(
            file=self.stream,
            force_terminal=True,
            no_color=not self.colour,
            highlight=False,
            emoji=False,
        )
        self._live = Live(
            console=self._console,
            screen=True,
            auto_refresh=True,
            refresh_per_second=self.refresh_per_second,
            redirect_stdout=False,
            redirect_stderr=False,
            get_renderable=self.frame,
        )
        try:
            if self.read_keys:
                self._start_keys()
            self._saved_streams = (sys.stdout, sys.stderr)
            sys.stdout = sys.stderr = self.state  # type: ignore[assignment]
            self._catch_suspend()
            self._live.start(refresh=True)
        except BaseException:
            self._restore()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._restore()

    def _restore(self) -> None:
        """Every piece of the terminal back, each even if another failed."""
        self._stop.set()
        if self._wake is not None:
            os.write(self._wake[1], b"x")
        self._release_suspend()
        try:
            if self._live is not None:
                self._live.stop()
                self._live = None
        finally:
            if self._saved_streams is not None:
                sys.stdout, sys.stderr = self._saved_streams
                self._saved_streams = None
            if self._reader is not None:
                self._reader.join(1.0)
                self._reader = None
            self._restore_tty()
            if self._wake is not None:
                for end in self._wake:
                    os.close(end)
                self._wake = None

    # -- Ctrl-Z ------------------------------------------------------------------------

    def _catch_suspend(self) -> None:
        """Ctrl-Z (SIGTSTP) suspends as less and vim do: the terminal given back first
        (main screen, cursor, the saved key mode), then the process stopped; on ``fg``
        cbreak and the alternate screen again, redrawn. A handler can only be set from
        the main thread; elsewhere Ctrl-Z stops the process as it is."""
        import signal

        if not hasattr(signal, "SIGTSTP") or threading.current_thread() is not (
            threading.main_thread()
        ):
            return
        self._saved_tstp = signal.signal(signal.SIGTSTP, self._suspend)

    def _release_suspend(self) -> None:
        import signal

        saved, self._saved_tstp = self._saved_tstp, None
        if saved is not None:
            signal.signal(signal.SIGTSTP, saved)

    def _suspend(self, signum: int, frame: object) -> None:
        import signal
        import termios
        import tty

        live = self._live
        if live is not None:
            live.stop()
        if self._tty is not None and self._saved_mode is not None:
            termios.tcsetattr(self._tty, termios.TCSADRAIN, self._saved_mode)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        try:
            os.kill(os.getpid(), signal.SIGTSTP)  # stops here until SIGCONT (fg, bg)
        finally:
            signal.signal(signal.SIGTSTP, self._suspend)
            if self._tty is not None:
                with contextlib.suppress(termios.error):
                    tty.setcbreak(self._tty)
            if live is not None and self._live is live:
                live.start(refresh=True)

    # -- keys --------------------------------------------------------------------------

    def _start_keys(self) -> None:
        import termios
        import tty

        try:
            fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
        except OSError:
            return  # no controlling terminal: no keys, the screen still works
        try:
            self._saved_mode = termios.tcgetattr(fd)
            tty.setcbreak(fd)  # keys one at a time, no echo; Ctrl-C still a signal
        except termios.error:
            os.close(fd)
            return
        self._tty = fd
        self._wake = os.pipe()
        self._reader = threading.Thread(target=self._read_keys, name="dev-keys", daemon=True)
        self._reader.start()

    def _restore_tty(self) -> None:
        import termios

        fd, self._tty = self._tty, None
        if fd is None:
            return
        try:
            if self._saved_mode is not None:
                termios.tcsetattr(fd, termios.TCSADRAIN, self._saved_mode)
        finally:
            os.close(fd)

    def _read_keys(self) -> None:
        import select

        fd, wake = self._tty, self._wake
        assert fd is not None and wake is not None
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([fd, wake[0]], [], [])
                if fd not in ready:
                    continue
                data = os.read(fd, 64)
            except OSError:
                return
            if not data:
                return
            for key in _keys(data):
                self.key(key)

    def key(self, key: str) -> None:
        """Act on one key (``up``, ``down``, ``r``, ``q``...)."""
        keys = self.state.keys()
        if key in ("up", "k", "down", "j") and keys:
            index = keys.index(self.selected) if self.selected in keys else 0
            index += -1 if key in ("up", "k") else 1
            self.selected = keys[max(0, min(len(keys) - 1, index))]
        elif key in ("r", "enter") and self.trigger is not None:
            selected = self.selected if self.selected in keys else (keys[0] if keys else None)
            if selected is not None:
                self.state.flash(self.trigger(selected))
        elif key == "q" and self.on_quit is not None:
            self.on_quit()


def _keys(data: bytes) -> Iterator[str]:
    """The keys in what one read returned (arrows as their escape sequences)."""
    arrows = {b"A": "up", b"B": "down"}
    index = 0
    while index < len(data):
        if data[index : index + 2] in (b"\x1b[", b"\x1bO") and index + 2 < len(data):
            yield arrows.get(data[index + 2 : index + 3], "")
            index += 3
            continue
        byte = data[index : index + 1]
        index += 1
        if byte in (b"\r", b"\n"):
            yield "enter"
        elif byte.isascii() and byte.isalpha():
            yield byte.decode().lower()
