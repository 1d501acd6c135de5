"""The dev dashboard's model and drawing (``output.devdash``), with no terminal: the
state fed engine events with a fake clock, frames drawn on a recording rich Console."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import select
import struct
import sys
import termios
import threading
from typing import Any

import pytest
from rich.console import Console

from kubectl_crd.output.devdash import (
    Dashboard,
    DashState,
    ObjectState,
    Snapshot,
    _keys,
    render,
)
from kubectl_crd.reconcile import events as ev

FOO = ("default", "foo")
BAR = ("default", "bar")
BAZ = ("other", "baz")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def fed(*events: Any, clock: Clock | None = None, **kwargs: Any) -> DashState:
    state = DashState(clock=clock or Clock(), **kwargs)
    for event in events:
        state(event)
    return state


def states(snap: Snapshot) -> dict[ev.ObjectKey, ObjectState]:
    return {row.key: row.state for row in snap.rows}


def test_each_object_takes_the_state_of_its_last_reconcile() -> None:
    clock = Clock()
    state = fed(
        ev.ReconcileStarted(FOO, "foos.x/v1"),
        ev.ReconcileStarted(BAR, "foos.x/v1"),
        ev.ReconcileStarted(BAZ, "foos.x/v1"),
        clock=clock,
    )
    snap = state.snapshot()
    assert states(snap) == {
        FOO: ObjectState.PENDING,
        BAR: ObjectState.PENDING,
        BAZ: ObjectState.PENDING,
    }
    assert all(row.running for row in snap.rows)

    state(ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.0032, writes=2))
    state(
        ev.ReconcileFinished(
            BAR, ev.Outcome.ERROR, 0.001, error="KeyError: 'x'", file="r.py", line=7
        )
    )
    state(ev.Requeued(BAR, 0.04, "error", failures=3))
    state(
        ev.ReconcileFinished(
            BAZ, ev.Outcome.TERMINAL, 0.001, error="TerminalError: taken\nmore", file="r.py", line=9
        )
    )
    snap = state.snapshot()
    assert states(snap) == {
        FOO: ObjectState.SYNCED,
        BAR: ObjectState.BACKING_OFF,
        BAZ: ObjectState.ERRORING,
    }
    rows = {row.key: row for row in snap.rows}
    assert rows[FOO].last == "3.2ms, 2 writes"
    assert (rows[BAR].file, rows[BAR].line, rows[BAR].last) == ("r.py", 7, "KeyError: 'x'")
    assert rows[BAR].retry_at == pytest.approx(100.04) and rows[BAR].failures == 3
    assert rows[BAZ].last == "terminal: TerminalError: taken"  # the first line only
    assert [snap.count(s) for s in ObjectState] == [1, 0, 1, 1]
    assert (snap.reconciles, snap.errors) == (3, 2)

    # a reload requeues every object; one found gone leaves the table
    state(ev.Swapped(3))
    state(ev.ReconcileFinished(FOO, ev.Outcome.GONE, 0.0))
    snap = state.snapshot()
    assert states(snap) == {BAR: ObjectState.PENDING, BAZ: ObjectState.PENDING}
    assert snap.reconciles == 3  # a gone object is not a reconcile


def test_rate_counts_the_last_ten_seconds_and_writes_are_counted() -> None:
    clock = Clock()
    state = fed(clock=clock)
    for _ in range(5):
        state(ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.001))
        state(ev.Write(FOO, "apply", "ConfigMap", "default", "foo"))
    clock.now += 6
    for _ in range(3):
        state(ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.001))
    assert state.snapshot().rate == pytest.approx(0.8)
    clock.now += 5  # the first five are older than ten seconds now
    snap = state.snapshot()
    assert snap.rate == pytest.approx(0.3)
    assert (snap.reconciles, snap.writes) == (8, 5)
    assert snap.rows[0].reconciles == 8


def test_reloads_watch_errors_queue_problems_and_lines() -> None:
    clock = Clock()
    state = fed(
        ev.ReloadStarted("r.py", ("r.py",)),
        clock=clock,
        queue_depth=lambda: 4,
        problems=lambda: ["d/foo.yaml:6:9: spec.size: Invalid value"],
    )
    assert state.snapshot().reload is not None
    assert isinstance(state.snapshot().reload, ev.ReloadStarted)
    failed = ev.ReloadFailed("r.py", "SyntaxError: invalid syntax", "r.py", 3, "x = (\n    ^")
    state(failed)
    assert state.snapshot().reload == failed
    state(ev.ReloadSucceeded("r.py", 0.045))
    assert state.snapshot().reload == ev.ReloadSucceeded("r.py", 0.045)

    state(ev.WatchError("foos.x/v1", "connection refused"))
    assert state.snapshot().watch_errors == ("foos.x/v1: connection refused",)
    state(ev.WatchSynced("foos.x/v1", 2, 0.1))
    assert state.snapshot().watch_errors == ()

    state.write("one\ntw")
    state.write("o\r\nthree")
    snap = state.snapshot()
    assert snap.recent == ("one", "two")  # "three" waits for its newline
    assert snap.queue == 4
    assert snap.problems == ("d/foo.yaml:6:9: spec.size: Invalid value",)


def draw(snap: Snapshot, width: int = 110, height: int = 16, **kwargs: Any) -> list[str]:
    console = Console(record=True, width=width, height=height, file=io.StringIO())
    console.print(render(snap, width=width, height=height, **kwargs))
    return console.export_text().splitlines()


def sample(clock: Clock) -> DashState:
    state = fed(
        ev.Write(FOO, "apply", "ConfigMap", "default", "foo"),
        ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.0032, writes=1),
        ev.ReconcileFinished(
            BAR,
            ev.Outcome.TERMINAL,
            0.002,
            error='TerminalError: "taken" exists',
            file="r.py",
            line=40,
        ),
        ev.ReloadSucceeded("r.py", 0.12),
        clock=clock,
        title="kubectl crd dev r.py: foos.x/v1 in every namespace",
        queue_depth=lambda: 0,
    )
    state.write("17:00:00.000 reconciled default/foo in 3.2ms, 1 write\n")
    clock.now += 2
    return state


def test_a_frame_shows_counts_reload_objects_and_recent_lines() -> None:
    clock = Clock()
    lines = draw(
        sample(clock).snapshot(), selected=BAR, trigger_hint="kubectl crd dev r.py --trigger NAME"
    )
    assert len(lines) == 16  # exactly the height: a frame never scrolls
    assert lines[0] == "kubectl crd dev r.py: foos.x/v1 in every namespace"
    assert lines[1] == (
        "synced 1  pending 0  erroring 1  backing off 0  \u2502 queue 0  0.2 reconciles/s  "
        "2 reconciles, 1 write, 1 error"
    )
    assert lines[2] == "reload: r.py reloaded 2.00s ago, latency 120ms"
    assert lines[4] == "  OBJECT       STATE        RUNS  LAST"
    # sorted by key; the selected one marked; the error at the user's file:line
    assert (
        lines[5]
        == '> default/bar  erroring        1  r.py:40: terminal: TerminalError: "taken" exists'
    )
    assert lines[6] == "  default/foo  synced          1  2.00s ago: 3.2ms, 1 write"
    assert lines[8] == 'default/bar: r.py:40: terminal: TerminalError: "taken" exists'
    assert "recent:" in lines
    assert "17:00:00.000 reconciled default/foo in 3.2ms, 1 write" in lines
    assert lines[-1] == (
        "\u2191/\u2193 select  r reconcile now  q quit  \u2502  kubectl crd dev r.py --trigger NAME"
    )


def test_the_envtest_kubeconfig_stays_under_the_title() -> None:
    # before, only a recent line said it, cut at the terminal's width
    # (".../kubectl-crd-envtest-92cqf94j/kubeconfi…") and soon scrolled away
    state = sample(Clock())
    state.kubeconfig = "/tmp/kubectl-crd-envtest-92cqf94j/kubeconfig"
    lines = draw(state.snapshot(), width=80)
    assert lines[1] == "kubectl --kubeconfig /tmp/kubectl-crd-envtest-92cqf94j/kubeconfig get ..."
    assert lines[2].startswith("synced 1  pending 0")
    assert draw(sample(Clock()).snapshot())[1].startswith("synced 1")  # not without one


def test_a_reload_to_another_for_drops_the_old_objects_rows_and_retitles() -> None:
    # before, the Foo stayed "pending" for ever (the new code does not reconcile it) and
    # the title still named foos: seen in tmux after FOR was changed to crontabs
    state = fed(
        ev.ObjectCached(FOO, "foos.x/v1"),
        ev.ReconcileStarted(FOO, "foos.x/v1", 1, "1"),
        ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.001),
        ev.ObjectCached(BAR, "foos.x/v1"),
    )
    state.retitle = lambda resource: f"kubectl crd dev r.py: {resource} in every namespace"
    state(ev.Swapped(0, ("crontabs.x/v1",), ("foos.x/v1",), (), "crontabs.x/v1"))
    state(ev.ReconcileStarted(BAZ, "crontabs.x/v1", 1, "5"))
    snap = state.snapshot()
    assert [(row.key, row.state) for row in snap.rows] == [(BAZ, ObjectState.PENDING)]
    assert snap.title == "kubectl crd dev r.py: crontabs.x/v1 in every namespace"
    state(ev.Swapped(1, for_resource="crontabs.x/v1"))  # the same FOR: rows stay, pending
    assert [row.key for row in state.snapshot().rows] == [BAZ]


def test_long_lines_are_cut_not_wrapped_and_many_objects_scroll_to_the_selection() -> None:
    clock = Clock()
    keys = [("default", f"obj-{index:02d}") for index in range(30)]
    state = fed(
        *(ev.ReconcileFinished(key, ev.Outcome.ERROR, 0.001, error="E" * 300) for key in keys),
        clock=clock,
    )
    lines = draw(state.snapshot(), width=60, height=12, selected=keys[25])
    assert len(lines) == 12
    assert all(len(line) <= 60 for line in lines)
    assert any(line.endswith("\u2026") for line in lines)
    marked = [line for line in lines if line.startswith(">")]
    assert len(marked) == 1 and "obj-25" in marked[0]
    assert not any("obj-00" in line for line in lines)  # scrolled past the first rows
    shown = sum(line[2:].startswith("default/obj-") for line in lines)
    assert f"  \u2026 {30 - shown} more (up/down scroll)" in lines
    assert lines[lines.index(marked[0]) + 1].startswith("  \u2026 ")  # the selection stays in view


def test_no_objects_and_no_reload_yet() -> None:
    lines = draw(DashState(clock=Clock()).snapshot(), height=10)
    assert lines[1].startswith("synced 0  pending 0  erroring 0  backing off 0")
    assert lines[2] == "reload: none yet (save the reconciler to reload it)"
    assert "  no object reconciled yet" in lines


def test_a_failed_reload_shows_where_and_the_caret() -> None:
    clock = Clock()
    state = fed(
        ev.ReloadFailed("r.py", "SyntaxError: '(' was never closed", "r.py", 3, "x = (\n    ^"),
        clock=clock,
    )
    lines = draw(state.snapshot(), height=10)
    assert (
        lines[2]
        == "reload: failed 0us ago, the running code stays: r.py:3: SyntaxError: '(' was never closed"
    )
    assert lines[3:5] == ["    x = (", "        ^"]
    # a load error that says where itself is not prefixed again
    state(ev.ReloadFailed("r.py", "r.py:3:5: SyntaxError: '(' was never closed", "r.py", 3))
    assert draw(state.snapshot(), height=10)[2] == (
        "reload: failed 0us ago, the running code stays: r.py:3:5: SyntaxError: '(' was never closed"
    )


@pytest.mark.parametrize("colour", [True, False])
def test_colour_only_when_asked(colour: bool) -> None:
    out = io.StringIO()
    console = Console(
        file=out,
        width=100,
        height=12,
        force_terminal=True,
        color_system="standard",
        no_color=not colour,
    )
    console.print(render(sample(Clock()).snapshot(), width=100, height=12, selected=FOO))
    text = out.getvalue()
    assert ("\x1b[31m" in text or "\x1b[1;31m" in text) is colour  # erroring in red
    assert ("\x1b[32m" in text) is colour  # synced in green


def test_keys_move_the_selection_trigger_and_quit() -> None:
    state = fed(
        ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.001),
        ev.ReconcileFinished(BAR, ev.Outcome.SUCCESS, 0.001),
        ev.ReconcileFinished(BAZ, ev.Outcome.SUCCESS, 0.001),
    )
    triggered: list[ev.ObjectKey] = []
    quits: list[bool] = []

    def trigger(key: ev.ObjectKey) -> str:
        triggered.append(key)
        return f"{key[1]} triggered"

    dash = Dashboard(
        state, io.StringIO(), colour=False, trigger=trigger, on_quit=lambda: quits.append(True)
    )
    dash.key("r")  # nothing selected yet: the first row
    dash.key("down")
    dash.key("down")
    dash.key("down")  # stays on the last
    dash.key("r")
    dash.key("up")
    dash.key("enter")
    assert triggered == [BAR, BAZ, FOO]
    assert state.snapshot().flash == "foo triggered"
    assert not quits
    dash.key("q")
    assert quits == [True]


def test_key_bytes() -> None:
    assert list(_keys(b"\x1b[A\x1b[Bj\x1bOAkRr\rq")) == [
        "up",
        "down",
        "j",
        "up",
        "k",
        "r",
        "r",
        "enter",
        "q",
    ]


def test_the_screen_is_given_back_even_when_the_loop_fails() -> None:
    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    stream = os.fdopen(secondary, "w", encoding="utf-8", closefd=True)
    chunks: list[bytes] = []
    stop = threading.Event()

    def drain() -> None:  # a pty's buffer is small: a frame must not block on it
        while not stop.is_set() or select.select([main], [], [], 0)[0]:
            if select.select([main], [], [], 0.05)[0]:
                chunks.append(os.read(main, 65536))

    reader = threading.Thread(target=drain)
    reader.start()
    state = fed(ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.001))
    before = (sys.stdout, sys.stderr)
    try:
        with pytest.raises(RuntimeError), Dashboard(state, stream, colour=False, keys=False):
            assert sys.stdout is state  # a print goes to the recent lines, not the screen
            print("from the reconciler")
            raise RuntimeError("boom")
        assert (sys.stdout, sys.stderr) == before
        stream.flush()
    finally:
        stop.set()
        reader.join()
        stream.close()
        os.close(main)
    written = b"".join(chunks).decode()
    assert "from the reconciler" in state.snapshot().recent
    assert (
        written.index("\x1b[?1049h") < written.index("default/foo") < written.index("\x1b[?1049l")
    )
    assert written.rindex("\x1b[?25h") > written.rindex("\x1b[?25l")  # the cursor shown last


def test_coloured_log_lines_are_drawn_as_text_and_a_tiny_terminal_still_fits() -> None:
    state = DashState(clock=Clock())
    state.write(
        "\x1b[2m17:00:00.000 \x1b[0m\x1b[32mreconciled \x1b[0m\x1b[1;36mdefault/foo\x1b[0m\n"
    )
    lines = draw(state.snapshot(), width=60, height=12)
    assert "17:00:00.000 reconciled default/foo" in lines  # the codes are styles, not text
    for width, height in [(20, 3), (10, 1), (40, 6)]:
        small = draw(sample(Clock()).snapshot(), width=width, height=height)
        assert len(small) == height and all(len(line) <= width for line in small)


# -- objects appear when cached, not when first reconciled -----------------------------


def test_a_cached_object_shows_pending_before_its_first_reconcile_and_a_deleted_one_leaves() -> (
    None
):
    state = fed(ev.ObjectCached(FOO, "foos.x/v1"), ev.ObjectCached(BAR, "foos.x/v1"))
    snap = state.snapshot()
    assert states(snap) == {BAR: ObjectState.PENDING, FOO: ObjectState.PENDING}
    assert [row.reconciles for row in snap.rows] == [0, 0]
    state(ev.ReconcileStarted(FOO, "foos.x/v1"))
    state(ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.001))
    state(ev.ObjectDeleted(BAR, "foos.x/v1"))
    assert states(state.snapshot()) == {FOO: ObjectState.SYNCED}
    state(ev.ObjectDeleted(FOO, "foos.x/v1"))
    assert state.snapshot().rows == ()


def test_the_engine_tells_the_dashboard_of_listed_added_and_deleted_objects() -> None:
    """The real controller (a fake backend, no workers: nothing is reconciled) feeds
    the dashboard: every listed or added object is a pending row at once."""
    import time

    from kubectl_crd.reconcile.controller import Controller
    from tests.unit.reconcile.fakes import WIDGETS, FakeBackend, FakeReconciler, widget

    backend = FakeBackend()
    backend.initial[WIDGETS] = [widget("a"), widget("b")]
    state = DashState()
    controller = Controller(backend, FakeReconciler(), state, workers=1)
    controller.start(run_workers=False)
    try:
        assert states(state.snapshot()) == {
            ("ns", "a"): ObjectState.PENDING,
            ("ns", "b"): ObjectState.PENDING,
        }
        backend.send(WIDGETS, "ADDED", widget("c"))
        backend.send(WIDGETS, "DELETED", widget("a", rv="2"))
        deadline = time.monotonic() + 30  # a loaded machine may not run the informer soon
        while sorted(state.keys()) != [("ns", "b"), ("ns", "c")]:
            assert time.monotonic() < deadline, state.keys()
            time.sleep(0.01)
        assert all(row.reconciles == 0 for row in state.snapshot().rows)
    finally:
        controller.stop(timeout=2)


# -- --local: the selected object's last diff ------------------------------------------


def test_the_selected_objects_last_diff_is_shown_under_it_as_the_log_writes_it() -> None:
    """DevLog's ``on_change`` hands each write's line and diff (here from a real
    ``Changes`` of --local) to the dashboard; a reconcile that writes nothing keeps the
    last change shown."""
    from kubectl_crd.output.devlog import Changes, DevLog

    parent = {
        "apiVersion": "x/v1",
        "kind": "Foo",
        "metadata": {"name": "foo", "namespace": "default"},
        "status": {"ready": 1},
    }
    state = DashState()
    log = DevLog(io.StringIO(), colour=False, timestamps=False)
    log.changes = Changes(lambda resource, key: parent, show=False)
    log.on_change = state.changed

    def both(event: Any) -> None:  # as the command's sink: observers, then the log
        state(event)
        log(event)

    both(ev.ObjectCached(FOO, "foos.x/v1"))
    both(ev.ReconcileStarted(FOO, "foos.x/v1"))
    both(ev.Write(FOO, "status", "Foo", "default", "foo", body={"status": {"ready": 2}}))
    assert state.snapshot().rows[0].diff == ()  # shown once the reconcile finished
    both(ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.002, 1))
    diff = state.snapshot().rows[0].diff
    assert diff[0] == "  foo default/foo status written"
    assert "    -  ready: 1" in diff and "    +  ready: 2" in diff
    assert log.stream.getvalue().count("ready") == 0  # the log itself shows no diff
    both(ev.ReconcileStarted(FOO, "foos.x/v1"))
    both(ev.ReconcileFinished(FOO, ev.Outcome.SUCCESS, 0.001, 0))
    lines = draw(state.snapshot(), selected=FOO, height=24)
    start = lines.index("last change of default/foo:")
    assert lines[start + 1 : start + 1 + len(diff)] == list(diff)


def test_the_dashboard_does_not_show_a_watches_mapping_failure_as_a_failing_watch() -> None:
    # a WATCHES mapping that raised on one object (WatchError, retrying false): before,
    # the dashboard's top said "watch failing: ..." until a relist that may never come
    state = DashState()
    state(ev.WatchError("secrets/v1", "WATCHES['v1/Secret'] failed on ns/s", retrying=False))
    assert state.snapshot().watch_errors == ()
    state(ev.WatchError("secrets/v1", "connection refused"))
    assert state.snapshot().watch_errors == ("secrets/v1: connection refused",)


def test_the_dashboard_shows_where_a_reconcile_past_its_timeout_is_running() -> None:
    # before: "still running after 1.0s", and not where (the log line says it too now)
    state = DashState()
    state(ev.ReconcileStarted(("ns", "a"), "foos.x/v1"))
    state(ev.ReconcileTimedOut(("ns", "a"), 1.0, 0.5, True, "slow.py", 4))
    (row,) = state.snapshot().rows
    assert row.last == "still running after 1.00s at slow.py:4"


def test_the_dashboards_reload_line_names_an_earlier_load_still_stuck() -> None:
    # before: only the log's warning under each reload said it, and it scrolls away
    state = DashState()
    state(ev.ReloadSucceeded("rec.py", 0.05, stuck=("helper.py:3",)))
    console = Console(record=True, width=120, height=10, file=io.StringIO())
    console.print(render(state.snapshot(), width=120, height=10))
    (line,) = [text for text in console.export_text().splitlines() if "reload:" in text]
    assert line.endswith("latency 50ms; earlier load stuck at helper.py:3")
