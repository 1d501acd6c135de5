"""``kubectl crd dev --trigger NAME``: the running loop's socket and its client
(``reconcile.trigger``), over a real Unix socket and a real controller on the ``--local``
backend (the Foo example); and when ``dev`` draws the dashboard instead of log lines."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.cli.commands.dev import dashboard_wanted, dev_options
from kubectl_crd.model.errors import KubectlCrdError, UsageError
from kubectl_crd.reconcile import events as ev
from kubectl_crd.reconcile.controller import Controller
from kubectl_crd.reconcile.loading import load_reconciler
from kubectl_crd.reconcile.local import LocalBackend
from kubectl_crd.reconcile.trigger import (
    Triggers,
    TriggerServer,
    send_trigger,
    socket_dir,
    socket_path,
)
from tests.cli_runner import run_cli
from tests.foo_project import GREEDY, OTHER_FOO, TAKEN, copy_foo


@pytest.fixture
def environ() -> Iterator[dict[str, str]]:
    # a short directory: a Unix socket's path has a limit of about 100 bytes
    runtime = tempfile.mkdtemp(prefix="kcrd-", dir="/tmp")
    try:
        yield {"XDG_RUNTIME_DIR": runtime}
    finally:
        shutil.rmtree(runtime, ignore_errors=True)


class Loop:
    def __init__(self, directory: Path, environ: dict[str, str]) -> None:
        self.file = str(directory / "reconciler.py")
        self.environ = environ
        self.events: list[Any] = []
        self.backend = LocalBackend(str(directory))
        self.backend.load()
        loaded = load_reconciler(self.file)
        self.triggers: Triggers | None = None
        self.controller = Controller(self.backend, loaded, self.sink, workers=2)
        self.controller.start()
        assert self.controller.wait_idle(settle=0.1)
        self.triggers = Triggers(self.controller, loaded.display)
        self.server = TriggerServer(self.triggers, socket_path(self.file, environ))
        assert self.server.start()

    def sink(self, event: Any) -> None:
        self.events.append(event)
        if self.triggers is not None:
            self.triggers.observe(event)

    def starts(self, key: ev.ObjectKey) -> int:
        return sum(isinstance(e, ev.ReconcileStarted) and e.key == key for e in self.events)

    def close(self) -> None:
        self.server.stop()
        self.controller.stop()
        self.backend.close()


@pytest.fixture
def loop(tmp_path: Path, environ: dict[str, str]) -> Iterator[Loop]:
    directory = copy_foo(tmp_path / "foo")
    (directory / "taken.yaml").write_text("---\n".join([TAKEN, GREEDY, OTHER_FOO]))
    running = Loop(directory, environ)
    try:
        yield running
    finally:
        running.close()


def trigger(
    loop: Loop, name: str, namespace: str | None, *, file: str | None = "loop"
) -> tuple[list[str], Any]:
    printed: list[str] = []
    result = send_trigger(
        loop.file if file == "loop" else file,
        name,
        namespace,
        on_triggered=printed.append,
        environ=loop.environ,
    )
    return printed, result


def test_trigger_reconciles_the_object_once_more_and_reports_how_it_ended(loop: Loop) -> None:
    key = ("default", "example-foo")
    before, other = loop.starts(key), loop.starts(("other", "example-foo"))
    printed, result = trigger(loop, "example-foo", "default")
    assert printed == ["foo.samplecontroller.k8s.io/example-foo"]
    assert isinstance(result, ev.ReconcileFinished)
    assert (result.key, result.outcome, result.writes) == (key, ev.Outcome.SUCCESS, 0)
    assert loop.controller.wait_idle(settle=0.1)
    assert loop.starts(key) == before + 1
    assert loop.starts(("other", "example-foo")) == other  # the other namespace's: untouched


def test_a_terminal_error_is_reported_at_the_reconcilers_file_and_line(loop: Loop) -> None:
    key = ("default", "greedy")
    before = loop.starts(key)
    assert before == 1  # a terminal error is not retried: only a trigger runs it again
    printed, result = trigger(loop, "greedy", None, file=None)
    assert printed == ["foo.samplecontroller.k8s.io/greedy"]
    assert result.outcome is ev.Outcome.TERMINAL
    assert (
        result.error == 'TerminalError: Resource "taken" already exists and is not managed by Foo'
    )
    source = Path(loop.file).read_text().splitlines()
    assert result.file.endswith("reconciler.py")
    assert "raise TerminalError(message)" in source[result.line - 1]
    assert loop.starts(key) == before + 1


def test_a_name_in_two_namespaces_needs_n_and_a_missing_one_is_not_found(loop: Loop) -> None:
    with pytest.raises(KubectlCrdError) as error:
        trigger(loop, "example-foo", None)
    assert error.value.message == (
        'foos.samplecontroller.k8s.io "example-foo" is in 2 namespaces (default, other): '
        "give -n NAMESPACE"
    )
    with pytest.raises(KubectlCrdError) as error:
        trigger(loop, "nope", "default")
    assert (
        error.value.message
        == 'foos.samplecontroller.k8s.io "nope" not found in namespace "default"'
    )
    with pytest.raises(KubectlCrdError) as error:
        trigger(loop, "nope", None, file=None)  # the one loop running answers
    assert error.value.message == 'foos.samplecontroller.k8s.io "nope" not found'


def test_no_loop_running(loop: Loop, tmp_path: Path) -> None:
    other = tmp_path / "other.py"
    with pytest.raises(KubectlCrdError) as error:
        trigger(loop, "example-foo", "default", file=str(other))
    assert (
        error.value.message
        == f"no dev loop is running {other} (start one: kubectl crd dev {other})"
    )
    loop.server.stop()
    assert not os.path.exists(loop.server.path)  # the socket goes with the loop
    with pytest.raises(KubectlCrdError) as error:
        trigger(loop, "example-foo", "default", file=None)
    assert error.value.message == "no dev loop is running (start one: kubectl crd dev FILE)"


def test_a_second_loop_of_the_same_file_leaves_the_socket_to_the_first_and_a_stale_one_is_taken(
    loop: Loop,
) -> None:
    assert not TriggerServer(loop.triggers, loop.server.path).start()  # type: ignore[arg-type]
    loop.server.stop()
    # a loop killed with SIGKILL leaves its socket file: nothing listens there
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(loop.server.path)
    stale.close()
    assert os.path.exists(loop.server.path)
    with pytest.raises(KubectlCrdError, match="no dev loop is running"):
        trigger(loop, "example-foo", "default", file=None)  # a stale socket is skipped
    again = TriggerServer(loop.triggers, loop.server.path)  # type: ignore[arg-type]
    assert again.start()
    try:
        printed, _ = trigger(loop, "example-foo", "default")
        assert printed == ["foo.samplecontroller.k8s.io/example-foo"]
    finally:
        again.stop()


def test_the_socket_directory_is_private(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir()
    directory = socket_dir({"XDG_RUNTIME_DIR": str(runtime)})
    assert directory == str(runtime / "kubectl-crd")
    assert os.stat(directory).st_mode & 0o777 == 0o700
    os.chmod(directory, 0o755)
    with pytest.raises(KubectlCrdError, match="not a private directory of this user"):
        socket_dir({"XDG_RUNTIME_DIR": str(runtime)})
    # the same path, however it is spelled
    (tmp_path / "r.py").write_text("")
    os.chmod(directory, 0o700)
    env = {"XDG_RUNTIME_DIR": str(runtime)}
    assert socket_path(str(tmp_path / "r.py"), env) == socket_path(
        str(tmp_path / "." / "r.py"), env
    )


class _Queue:
    def forget(self, key: ev.ObjectKey) -> None:
        pass

    def discard_waiting(self, key: ev.ObjectKey) -> None:
        pass


class _Controller:
    def __init__(self) -> None:
        self.queue = _Queue()
        self.added: list[ev.ObjectKey] = []

    def enqueue(self, key: ev.ObjectKey) -> None:
        self.added.append(key)


def test_a_reconcile_that_started_before_the_trigger_does_not_answer_it() -> None:
    """The key is reconciled once more after a reconcile in flight (the workqueue's
    rule): that next one is what the trigger waits for."""
    controller = _Controller()
    triggers = Triggers(controller)  # type: ignore[arg-type]
    key = ("default", "foo")
    waiter = triggers.trigger(key)
    assert waiter is not None and controller.added == [key]
    triggers.observe(ev.ReconcileFinished(key, ev.Outcome.ERROR, 0.1))  # began before
    triggers.observe(ev.ReconcileStarted(("default", "other"), "foos"))
    assert not waiter.done.is_set()
    triggers.observe(ev.ReconcileStarted(key, "foos"))
    triggers.observe(ev.ReconcileFinished(key, ev.Outcome.TERMINAL, 0.1))
    assert waiter.done.is_set()
    assert waiter.result is not None and waiter.result.outcome is ev.Outcome.TERMINAL
    gone = triggers.trigger(key)
    assert gone is not None
    triggers.observe(ev.ReconcileFinished(key, ev.Outcome.GONE, 0.0))  # no start: gone
    assert gone.result is not None and gone.result.outcome is ev.Outcome.GONE
    assert triggers.trigger(key, follow=False) is None
    assert triggers._waiters == {}


def test_the_cli_prints_the_trigger_and_its_outcome(loop: Loop) -> None:
    result = run_cli("dev", loop.file, "--trigger", "example-foo", "-n", "other", env=loop.environ)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "foo.samplecontroller.k8s.io/example-foo triggered"
    assert lines[1].startswith("reconciled other/example-foo in ")


def test_the_cli_exits_1_when_the_reconcile_it_caused_fails(loop: Loop) -> None:
    result = run_cli("dev", loop.file, "--trigger", "greedy", "-n", "default", env=loop.environ)
    assert result.returncode == 1, (result.stdout, result.stderr)
    lines = result.stdout.splitlines()
    assert lines[0] == "foo.samplecontroller.k8s.io/greedy triggered"
    assert lines[1].startswith("terminal error in default/greedy after "), lines
    assert 'TerminalError: Resource "taken" already exists' in lines[1]


def test_the_cli_without_a_loop_is_one_line_and_exit_1(environ: dict[str, str]) -> None:
    result = run_cli("dev", "--trigger", "example-foo", env=environ)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "error: no dev loop is running (start one: kubectl crd dev FILE)\n"


def test_trigger_flags_are_checked() -> None:
    assert dev_options(None, trigger="x").trigger == "x"
    with pytest.raises(UsageError, match="give the object's name"):
        dev_options(None, trigger="foo/x")
    with pytest.raises(UsageError, match="does not take --once"):
        dev_options("r.py", trigger="x", once=True)
    # every flag of the loop's own, not --once alone: before, -A or --local DIR looked
    # taken and was ignored
    with pytest.raises(UsageError) as error:
        dev_options("r.py", trigger="x", all_namespaces=True, local="d", selector="a=b")
    assert error.value.message == (
        "--trigger asks a running loop; it does not take --local, -A, -l"
    )


@pytest.mark.parametrize(
    ("flags", "ignored"),
    [
        (("--reconcile-timeout", "5s"), "--reconcile-timeout"),
        (("--reconcile-timeout", "30s"), "--reconcile-timeout"),  # the default, given
        (("--field-manager", "mine"), "--field-manager"),
    ],
)
def test_trigger_refuses_loop_flags_that_have_defaults(
    environ: dict[str, str], flags: tuple[str, ...], ignored: str
) -> None:
    # both have a non-empty default, so their value alone cannot tell that they were
    # given: before, --trigger took them silently and sent the trigger
    result = run_cli("dev", "r.py", "--trigger", "x", *flags, env=environ)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: --trigger asks a running loop; it does not take {ignored}\n"


def test_trigger_names_every_given_defaulted_flag() -> None:
    with pytest.raises(UsageError) as error:
        dev_options("r.py", trigger="x", given={"field_manager", "reconcile_timeout"})
    assert error.value.message == (
        "--trigger asks a running loop; it does not take --reconcile-timeout, --field-manager"
    )


class Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


TERM = {"TERM": "xterm-256color"}


@pytest.mark.parametrize(
    ("flags", "tty", "environ", "wanted"),
    [
        ({}, True, TERM, True),
        ({}, False, TERM, False),  # piped
        ({"log_format": "json"}, True, TERM, False),
        ({"once": True}, True, TERM, False),
        ({"no_dashboard": True}, True, TERM, False),
        ({}, True, {"TERM": "dumb"}, False),
        ({}, True, {}, False),
        ({}, True, {**TERM, "NO_COLOR": "1"}, True),  # the dashboard, without colour
    ],
)
def test_when_the_dashboard_is_drawn(
    flags: dict[str, Any], tty: bool, environ: dict[str, str], wanted: bool
) -> None:
    assert dashboard_wanted(dev_options("r.py", **flags), Stream(tty), environ) is wanted


def test_an_object_the_loops_selector_leaves_out_is_not_found_and_says_why(
    tmp_path: Path,
) -> None:
    # before: 'foos.samplecontroller.k8s.io "example-foo" not found', the object being
    # there (kubectl get finds it) but not selected by the loop's -l
    directory = copy_foo(tmp_path / "foo")
    backend = LocalBackend(str(directory))
    backend.load()
    controller = Controller(
        backend, load_reconciler(str(directory / "reconciler.py")), selector="app=none"
    )
    controller.start()
    try:
        triggers = Triggers(controller)
        for namespace, where in [(None, ""), ("default", ' in namespace "default"')]:
            with pytest.raises(KubectlCrdError) as error:
                triggers.find("example-foo", namespace)
            assert error.value.message == (
                f'foos.samplecontroller.k8s.io "example-foo" not found{where} '
                "among the objects -l app=none selects"
            )
    finally:
        controller.stop()
        backend.close()
