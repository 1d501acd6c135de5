"""The dev loop's log lines: every engine event rendered, JSON lines that parse, colour
only on a terminal and never with NO_COLOR."""

from __future__ import annotations

import io
import json
import logging
import re
import threading

import pytest

from kubectl_crd.model.records import fields
from kubectl_crd.output.devlog import DevLog, duration_text, event_json, event_lines
from kubectl_crd.reconcile import events as ev

KEY = ("default", "foo")

#: one sample of every event kind, with what its text line must say
SAMPLES: list[tuple[object, str]] = [
    (ev.ObjectCached(KEY, "foos.example.com/v1"), "default/foo cached, queued"),
    (ev.ObjectDeleted(KEY, "foos.example.com/v1"), "default/foo deleted"),
    (ev.ReconcileStarted(KEY, "foos.example.com/v1", 3, "100"), "reconciling default/foo (generation 3)"),
    (ev.ReconcileFinished(KEY, ev.Outcome.SUCCESS, 0.0032, 2), "reconciled default/foo in 3.2ms, 2 writes"),
    (
        ev.ReconcileFinished(
            KEY, ev.Outcome.ERROR, 0.012, 0, "ValueError: bad", "reconciler.py", 7, "Traceback ...\n  line 7"
        ),
        "error in default/foo after 12ms: reconciler.py:7: ValueError: bad",
    ),
    (
        ev.ReconcileFinished(("", "cluster-thing"), ev.Outcome.TERMINAL, 0.5, 0, "TerminalError: no"),
        "terminal error in cluster-thing after 500ms: TerminalError: no (not retried until it changes)",
    ),
    (ev.ReconcileFinished(KEY, ev.Outcome.GONE, 0.0), "default/foo is gone"),
    (
        ev.ReconcileTimedOut(KEY, 31.0, 30.0),
        "still reconciling default/foo after 31.00s (--reconcile-timeout 30.00s); it is reconciled again when it returns",
    ),
    (ev.Requeued(KEY, 0.02, "error", 3), "requeued default/foo in 20ms (backoff, 3 failures in a row)"),
    (ev.Requeued(KEY, 5.0, "requeue_after"), "requeued default/foo in 5.00s (requeue_after)"),
    (ev.Write(KEY, "apply", "ConfigMap", "default", "foo-cm"), "  configmap default/foo-cm applied"),
    (
        ev.Write(KEY, "status", "Foo", "default", "foo", True, {"status": {"ready": True}}),
        "  foo default/foo status written (server dry run)",
    ),
    (
        ev.WriteFailed(KEY, "apply", "ConfigMap", "default", "x", 'ConfigMap "x" is invalid: data', 422),
        '  configmap default/x apply refused (422): ConfigMap "x" is invalid: data',
    ),
    (
        ev.KubernetesEventFailed(KEY, "Synced", "forbidden"),
        "  event Synced on default/foo not recorded: forbidden",
    ),
    (ev.Log(KEY, logging.WARNING, "careful"), "default/foo warning: careful"),
    (ev.WatchStarted("foos.example.com/v1", "for"), "watching foos.example.com/v1 (for)"),
    (ev.WatchSynced("configmaps/v1", 1, 0.25), "listed configmaps/v1: 1 object in 250ms"),
    (ev.WatchError("configmaps/v1", "connection refused"), "watch of configmaps/v1 failed, retrying: connection refused"),
    (ev.WatchStopped("configmaps/v1"), "stopped watching configmaps/v1"),
    (ev.ReloadStarted("reconciler.py", ("reconciler.py",)), "reloading reconciler.py (reconciler.py changed)"),
    (ev.ReloadSucceeded("reconciler.py", 0.056, ("secrets/v1",)), "reloaded reconciler.py in 56ms"),
    (
        ev.ReloadFailed("reconciler.py", "SyntaxError: invalid syntax", "reconciler.py", 4, "def f(:\n      ^"),
        "reload of reconciler.py failed, the running code stays: reconciler.py:4: SyntaxError: invalid syntax",
    ),
    (ev.Swapped(2), "new code runs: 2 objects requeued"),
    (ev.Stopping(1), "stopping, finishing 1 in flight"),
    (ev.Stopped((KEY,), ()), "stopped"),
]  # fmt: skip


def test_the_samples_cover_every_event_kind() -> None:
    kinds = {
        getattr(ev, name)
        for name in ev.__all__
        if isinstance(getattr(ev, name), type) and hasattr(getattr(ev, name), "__record_fields__")
    }
    assert kinds == {type(event) for event, _ in SAMPLES}


@pytest.mark.parametrize(("event", "first"), SAMPLES, ids=lambda e: type(e).__name__)
def test_each_event_kind_has_its_line(event: ev.Event, first: str) -> None:
    lines = event_lines(event, verbose=True)
    assert lines
    assert "".join(chunk for chunk, _ in lines[0]) == first


@pytest.mark.parametrize(("event", "first"), SAMPLES, ids=lambda e: type(e).__name__)
def test_each_event_kind_is_one_json_line_that_parses(event: ev.Event, first: str) -> None:
    out = io.StringIO()
    DevLog(out, format="json", clock=lambda: 1700000000.25)(event)
    (line,) = out.getvalue().splitlines()
    body = json.loads(line)
    assert body["event"] == type(event).__name__
    assert body["time"] == 1700000000.25
    assert set(body) == {"time", "event", *(each.name for each in fields(event))}


def test_json_spells_keys_and_outcomes_as_text() -> None:
    body = event_json(ev.ReconcileFinished(KEY, ev.Outcome.ERROR, 0.5, 1, "E: x"), now=0)
    assert body["key"] == "default/foo"
    assert body["outcome"] == "error"
    left = event_json(ev.Stopped((KEY, ("", "c")), ()), now=0)
    assert left["finalizers_left"] == ["default/foo", "c"]
    assert left["finalizers_removed"] == []


def test_quiet_by_default_starts_gone_and_tracebacks_only_when_verbose() -> None:
    cached = ev.ObjectCached(KEY, "foos.example.com/v1")
    started = ev.ReconcileStarted(KEY, "foos.example.com/v1")
    gone = ev.ReconcileFinished(KEY, ev.Outcome.GONE, 0.0)
    failed = ev.ReconcileFinished(
        KEY, ev.Outcome.ERROR, 0.1, 0, "E: x", "r.py", 3, "Traceback\n  r.py 3"
    )
    assert event_lines(cached) == []
    assert event_lines(started) == []
    assert event_lines(gone) == []
    # the user's object deleted is a line without -v
    (deleted,) = event_lines(ev.ObjectDeleted(KEY, "foos.example.com/v1"))
    assert "".join(chunk for chunk, _ in deleted) == "default/foo deleted"
    assert len(event_lines(failed)) == 1
    assert len(event_lines(failed, verbose=True)) == 3


def test_reload_failure_shows_the_line_and_caret_under_it() -> None:
    out = io.StringIO()
    log = DevLog(out, colour=False, timestamps=False)
    log(ev.ReloadFailed("r.py", "SyntaxError: invalid syntax", "r.py", 4, "def f(:\n      ^"))
    assert out.getvalue().splitlines()[1:] == ["    def f(:", "          ^"]


#: every verb the controller writes with (controller.py's _send calls), and its word
WRITE_VERBS = [
    ("apply", "applied"),
    ("status", "status written"),
    ("delete", "deleted"),
    ("add-finalizer", "finalizer added"),
    ("remove-finalizer", "finalizer removed"),
]


@pytest.mark.parametrize("dry_run", [False, True], ids=["made", "dry-run"])
@pytest.mark.parametrize(("verb", "done"), WRITE_VERBS, ids=[verb for verb, _ in WRITE_VERBS])
def test_every_write_the_loop_makes_is_a_line_without_verbose(
    verb: str, done: str, dry_run: bool
) -> None:
    # a write is a change on the user's cluster: shown by default, a child's delete as
    # an apply; -v adds only reconcile starts, objects cached or found gone, tracebacks
    (line,) = event_lines(ev.Write(KEY, verb, "ConfigMap", "default", "c", dry_run))
    tail = " (server dry run)" if dry_run else ""
    assert "".join(chunk for chunk, _ in line) == f"  configmap default/c {done}{tail}"


def test_finalizers_left_warn_and_name_the_flag() -> None:
    lines = ["".join(c for c, _ in line) for line in event_lines(ev.Stopped((KEY,), ()))]
    assert lines[1].startswith("warning: 1 object still carries the loop's finalizer")
    two = event_lines(ev.Stopped((KEY, ("", "c")), ()))
    assert "".join(c for c, _ in two[1]).startswith("warning: 2 objects still carry the")
    assert "default/foo" in lines[1]
    assert "--remove-finalizers-on-exit" in lines[1]


def test_a_stop_that_gave_up_on_a_reconcile_says_so() -> None:
    lines = ["".join(c for c, _ in line) for line in event_lines(ev.Stopped((), (), (KEY,)))]
    assert lines == [
        "stopped",
        "warning: gave up waiting for 1 reconcile still running: default/foo (it ends with "
        "the process, unfinished)",
    ]


def test_a_reload_that_leaves_finalizers_behind_warns() -> None:
    lines = ["".join(c for c, _ in line) for line in event_lines(ev.Swapped(1, (), (), (KEY,)))]
    assert lines == [
        "new code runs: 1 object requeued",
        "warning: 1 object keeps the old code's finalizer, which the new code does not "
        "remove: default/foo (named again on exit; --remove-finalizers-on-exit takes it off)",
    ]


def test_time_stamp_and_continuation_lines_align() -> None:
    out = io.StringIO()
    DevLog(out, colour=False, clock=lambda: 1700000000.123)(
        ev.ReloadSucceeded("r.py", 0.1, ("a/v1",))
    )
    first, second = out.getvalue().splitlines()
    assert re.fullmatch(r"\d\d:\d\d:\d\d\.123 reloaded r.py in 100ms", first)
    assert second == " " * 13 + "  now watching a/v1"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


SGR = re.compile(r"\x1b\[[0-9;]*m")


def test_colour_on_a_terminal_only_and_never_with_no_color() -> None:
    event = ev.ReconcileFinished(KEY, ev.Outcome.SUCCESS, 0.001, 1)
    for stream, environ, coloured in (
        (_Tty(), {}, True),
        (_Tty(), {"NO_COLOR": "1"}, False),
        (_Tty(), {"TERM": "dumb"}, False),
        (io.StringIO(), {}, False),
    ):
        DevLog(stream, environ=environ, clock=lambda: 0.0)(event)
        text = stream.getvalue()
        assert bool(SGR.search(text)) == coloured, (environ, type(stream))
        # the coloured text is the plain text plus codes
        assert SGR.sub("", text).endswith("reconciled default/foo in 1.0ms, 1 write\n")


def test_lines_of_concurrent_events_never_interleave() -> None:
    out = io.StringIO()
    log = DevLog(out, colour=False, timestamps=False)
    event = ev.ReloadSucceeded("r.py", 0.1, ("a/v1", "b/v1"))

    def emit() -> None:
        for _ in range(200):
            log(event)

    threads = [threading.Thread(target=emit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = out.getvalue().splitlines()
    assert len(lines) == 800 * 3
    for index in range(0, len(lines), 3):
        assert lines[index : index + 3] == [
            "reloaded r.py in 100ms",
            "  now watching a/v1",
            "  now watching b/v1",
        ]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.0000005, "0us"),
        (0.0004, "400us"),
        (0.0032, "3.2ms"),
        (0.25, "250ms"),
        (1.5, "1.50s"),
        (125, "2m05s"),
    ],
)
def test_durations(seconds: float, text: str) -> None:
    assert duration_text(seconds) == text


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="yaml"):
        DevLog(io.StringIO(), format="yaml")


class _Gone(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_reader_gone_silences_the_log_and_calls_on_broken_once() -> None:
    calls: list[int] = []
    log = DevLog(_Gone(), colour=False, on_broken=lambda: calls.append(1))
    for _ in range(3):
        log(ev.WatchStopped("a/v1"))
        log.note("x")
    assert calls == [1]


def test_a_reload_error_that_says_where_is_not_prefixed_again() -> None:
    out = io.StringIO()
    log = DevLog(out, colour=False, timestamps=False)
    log(ev.ReloadFailed("r.py", "r.py:17:15: SyntaxError: invalid syntax", "r.py", 17))
    log(ev.ReloadFailed("r.py", "SyntaxError: invalid syntax", "r.py", 4))
    assert out.getvalue().splitlines() == [
        "reload of r.py failed, the running code stays: r.py:17:15: SyntaxError: invalid syntax",
        "reload of r.py failed, the running code stays: r.py:4: SyntaxError: invalid syntax",
    ]


# -- lines written together (flush_after) ------------------------------------------------


class _Counting(io.StringIO):
    """A stream that counts its writes (each a system call on a real one)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def _wait_for(predicate: object, seconds: float = 10.0) -> bool:
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return True
        time.sleep(0.005)
    return False


def test_kept_lines_are_written_together_after_flush_after() -> None:
    out = _Counting()
    # 1 s: long enough that a busy machine does not run the flusher before the asserts
    log = DevLog(out, colour=False, timestamps=False, flush_after=1.0)
    log(ev.WatchStarted("a/v1", "for"))
    log.note("one")
    log(ev.WatchStopped("a/v1"))
    assert out.getvalue() == ""  # kept for 1 s
    assert _wait_for(lambda: out.getvalue() != "")
    assert out.getvalue().splitlines() == ["watching a/v1 (for)", "one", "stopped watching a/v1"]
    assert out.writes == 1
    log.note("two")  # the next line starts the next wait
    assert _wait_for(lambda: out.getvalue().endswith("two\n"))
    log.close()


def test_close_does_not_wait_out_the_flushers_pause() -> None:
    """The flusher waits ``flush_after`` between a line and its write; ``close`` ends that
    wait (a sleep there held every exit of ``kubectl crd dev`` up to 50 ms)."""
    import threading

    out = io.StringIO()
    log = DevLog(out, colour=False, timestamps=False, flush_after=60)
    log.note("a")
    # the flusher has taken the line's wake-up and is in its 60 s pause
    assert _wait_for(lambda: not log._due.is_set())
    closing = threading.Thread(target=log.close)
    closing.start()
    closing.join(10)
    assert not closing.is_alive()  # with the pause a sleep: 60 s
    assert out.getvalue() == "a\n"


def test_flush_close_and_a_new_stream_write_what_is_kept_at_once() -> None:
    first, second = io.StringIO(), io.StringIO()
    log = DevLog(first, colour=False, timestamps=False, flush_after=60)
    log.note("a")
    log.flush()
    assert first.getvalue() == "a\n"
    log.note("b")
    log.stream = second  # b belongs to the stream it was written for
    log.note("c")
    assert first.getvalue() == "a\nb\n" and second.getvalue() == ""
    log.close()
    assert second.getvalue() == "c\n"
    log.note("d")  # after close: at once
    assert second.getvalue() == "c\nd\n"


def test_a_reader_gone_while_lines_are_kept_calls_on_broken_once() -> None:
    calls: list[int] = []
    log = DevLog(_Gone(), colour=False, on_broken=lambda: calls.append(1), flush_after=0.01)
    for _ in range(3):
        log(ev.WatchStopped("a/v1"))
        log.note("x")
    assert _wait_for(lambda: calls == [1])
    log.note("y")
    log.close()
    assert calls == [1]


def test_an_idle_log_finds_the_reader_of_its_pipe_gone_without_writing() -> None:
    """``kubectl crd dev ... | head -3``: head takes its lines from the first write and
    goes; the loop may have nothing more to say for hours, and stops all the same."""
    import os

    read_end, write_end = os.pipe()
    calls: list[int] = []
    with os.fdopen(write_end, "w") as stream:
        log = DevLog(stream, colour=False, on_broken=lambda: calls.append(1), flush_after=0.01)
        log.note("one")
        with os.fdopen(read_end) as reader:
            assert reader.readline().endswith("one\n")
        assert _wait_for(lambda: calls == [1])
        log.note("two")  # not written: the reader is gone
        log.close()
    assert calls == [1]


def test_a_reader_still_there_is_not_gone() -> None:
    import os

    from kubectl_crd.output.devlog import _reader_gone

    read_end, write_end = os.pipe()
    try:
        assert not _reader_gone(io.StringIO())
        with os.fdopen(write_end, "w", closefd=False) as stream:
            assert not _reader_gone(stream)
            os.close(read_end)
            assert _reader_gone(stream)
    finally:
        os.close(write_end)
