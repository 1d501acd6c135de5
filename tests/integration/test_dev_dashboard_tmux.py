"""``kubectl crd dev``'s live dashboard driven for real: a shell in tmux (the private
tmux server of ``test_explain_interactive_tmux``), the Foo example copied to a temporary
directory and run with ``--local``, files edited, keys sent, ``--trigger`` run from a
second command, the screen read with ``capture-pane``.

tmux is required (hack/test.sh installs it): without it the tests fail, never skip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_crd.output.devdash import HELP
from tests.foo_project import GREEDY, TAKEN, copy_foo
from tests.integration.test_explain_interactive_tmux import (
    Tmux,
    check_terminal_restored,
    suspend_and_fg,
    tmux,  # noqa: F401  (the fixture)
)

BIN = Path(sys.executable).parent


@pytest.fixture
def runtime() -> Iterator[str]:
    # short: a Unix socket's path is limited to about 100 bytes
    directory = tempfile.mkdtemp(prefix="kcrd-", dir="/tmp")
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def drawn(screen: str) -> bool:
    """The whole frame is on the screen: its last line, the keys' help, is there. A
    screen read while a frame is being written (after ``fg`` it is all new) has its top
    and not its end: what a test reads from a screen it waits for the end of."""
    return HELP in screen


def runs(screen: str, name: str, state: str) -> int | None:
    """The RUNS cell of ``default/NAME`` when its row shows ``state``."""
    found = re.search(rf"default/{name}\s+{state}\*?\s+(\d+)\s", screen)
    return int(found[1]) if found else None


def trigger(project: Path, runtime: str, name: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "KUBECTL_CRD_DEBUG")}
    env["XDG_RUNTIME_DIR"] = runtime
    return subprocess.run(
        [str(BIN / "kubectl-crd"), "dev", "foo/reconciler.py", "--trigger", name],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_dashboard_shows_states_errors_at_file_line_and_triggers(
    tmux: Tmux,  # noqa: F811
    tmp_path: Path,
    runtime: str,
) -> None:
    project = tmp_path
    copy_foo(project / "foo")
    (project / "foo" / "taken.yaml").write_text(TAKEN)  # someone else's Deployment
    tmux.type(
        f"cd {project} && XDG_RUNTIME_DIR={runtime} kubectl-crd dev foo/reconciler.py "
        "--local foo; echo EXIT=$?"
    )
    tmux.keys("Enter")
    screen = tmux.wait_for(
        lambda s: drawn(s) and runs(s, "example-foo", "synced") is not None and "synced 1 " in s,
        "example-foo synced",
    )
    assert tmux.alternate_screen()
    assert "kubectl crd dev foo/reconciler.py: foos.samplecontroller.k8s.io/v1alpha1" in screen
    assert "reload: none yet" in screen
    assert "kubectl crd dev foo/reconciler.py --trigger NAME" in screen

    # an invalid edit: the store refuses it, the dashboard shows where
    foo = project / "foo" / "foo.yaml"
    foo.write_text(foo.read_text().replace("replicas: 1", "replicas: 99"))
    screen = tmux.wait_for(
        lambda s: "foo.yaml:9:13: spec.replicas: Invalid value: 99" in s, "the problem"
    )

    # a Foo whose Deployment is someone else's: a TerminalError at the reconciler's line
    (project / "foo" / "greedy.yaml").write_text(GREEDY)
    screen = tmux.wait_for(
        lambda s: drawn(s) and runs(s, "greedy", "erroring") == 1, "greedy erroring"
    )
    source = (project / "foo" / "reconciler.py").read_text().splitlines()
    line = next(i for i, text in enumerate(source, 1) if "raise TerminalError(message)" in text)
    assert f"foo/reconciler.py:{line}: terminal: TerminalError: Resource" in screen
    assert "erroring 1" in screen

    # --trigger from another command: reconciled once more (a terminal error is not retried)
    done = trigger(project, runtime, "greedy")
    assert done.returncode == 1, done.stderr  # the reconcile it caused failed
    lines = done.stdout.splitlines()
    assert lines[0] == "foo.samplecontroller.k8s.io/greedy triggered"
    assert lines[1].startswith("terminal error in default/greedy after ")
    assert f"foo/reconciler.py:{line}: TerminalError: Resource" in lines[1]
    tmux.wait_for(lambda s: runs(s, "greedy", "erroring") == 2, "greedy's runs to move to 2")
    assert trigger(project, runtime, "nope").stderr == (
        'error: foos.samplecontroller.k8s.io "nope" not found\n'
    )

    # the key: select greedy (the second row) and press r
    tmux.keys("Down")
    tmux.wait_for(
        lambda s: re.search(r"^> default/greedy", s, re.MULTILINE) is not None, "selection"
    )
    tmux.keys("r")
    screen = tmux.wait_for(
        lambda s: drawn(s) and runs(s, "greedy", "erroring") == 3, "greedy's runs to move to 3"
    )
    assert "foo.samplecontroller.k8s.io/greedy triggered" in screen

    # Ctrl-C: the loop stops, the screen and the terminal mode come back
    tmux.keys("C-c")
    screen = tmux.wait_for(lambda s: re.search(r"^EXIT=\d+$", s, re.MULTILINE) is not None, "exit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    assert re.search(r"2 objects, \d+ reconciles, \d+ writes, 3 errors, 1 input problem", screen)
    assert not os.listdir(os.path.join(runtime, "kubectl-crd"))  # the socket went with the loop
    check_terminal_restored(tmux)


def test_q_quits_and_piped_output_is_log_lines(tmux: Tmux, tmp_path: Path, runtime: str) -> None:  # noqa: F811
    copy_foo(tmp_path / "foo")
    tmux.type(
        f"cd {tmp_path} && XDG_RUNTIME_DIR={runtime} kubectl-crd dev foo/reconciler.py "
        "--local foo; echo EXIT=$?"
    )
    tmux.keys("Enter")
    tmux.wait_for(lambda s: runs(s, "example-foo", "synced") is not None, "example-foo synced")

    # a save that does not load: the reload line says where, the old code runs on
    reconciler = tmp_path / "foo" / "reconciler.py"
    good = reconciler.read_text()
    reconciler.write_text(good.replace("def reconcile(", "def reconcile(((", 1))
    line = next(i for i, text in enumerate(good.splitlines(), 1) if "def reconcile(" in text)
    screen = tmux.wait_for(lambda s: drawn(s) and "reload: failed" in s, "the failed reload")
    assert f"the running code stays: foo/reconciler.py:{line}:15: SyntaxError: " in screen
    assert "    def reconcile(((foo" in screen  # the line, and a caret under it
    reconciler.write_text(good)
    screen = tmux.wait_for(lambda s: drawn(s) and "foo/reconciler.py reloaded" in s, "the reload")
    assert re.search(r"reload: foo/reconciler\.py reloaded \S+ ago, latency \S+", screen)
    tmux.keys("q")
    screen = tmux.wait_for(lambda s: re.search(r"^EXIT=\d+$", s, re.MULTILINE) is not None, "exit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    check_terminal_restored(tmux)

    # the same loop piped: no screen, the log lines of before (head closing the pipe
    # stops the loop)
    tmux.type("clear")
    tmux.keys("Enter")
    tmux.type(
        f"XDG_RUNTIME_DIR={runtime} kubectl-crd dev foo/reconciler.py --local foo | head -3; "
        "echo PIPED=${PIPESTATUS[0]}"
    )
    tmux.keys("Enter")
    screen = tmux.wait_for(
        lambda s: re.search(r"^PIPED=\d+$", s, re.MULTILINE) is not None, "the piped run to end"
    )
    assert not tmux.alternate_screen()
    assert re.search(r"^PIPED=0$", screen, re.MULTILINE), screen
    logged = re.findall(r"^\d\d:\d\d:\d\d\.\d{3} (.*)$", screen, re.MULTILINE)
    assert logged == [
        "foo/reconciler.py: reconciling foos.samplecontroller.k8s.io/v1alpha1 of foo in every "
        "namespace",
        "watching foos.samplecontroller.k8s.io/v1alpha1 (for)",
        logged[2],
    ]
    assert logged[2].startswith("listed foos.samplecontroller.k8s.io/v1alpha1: 1 object in ")
    assert "OBJECT" not in screen and "\u2191/\u2193 select" not in screen


def test_ctrl_z_gives_the_terminal_back_and_fg_redraws(
    tmux: Tmux,  # noqa: F811
    tmp_path: Path,
    runtime: str,
) -> None:
    copy_foo(tmp_path / "foo")
    # no "; echo": the shell would run it when the job stops
    tmux.type(
        f"cd {tmp_path} && XDG_RUNTIME_DIR={runtime} kubectl-crd dev foo/reconciler.py --local foo"
    )
    tmux.keys("Enter")
    tmux.wait_for(lambda s: runs(s, "example-foo", "synced") is not None, "example-foo synced")
    assert tmux.alternate_screen()

    # Ctrl-Z: the shell's prompt on the main screen, in its own key mode; fg: the
    # dashboard again, redrawn, its keys read in cbreak mode again (q quits)
    screen = suspend_and_fg(
        tmux,
        lambda s: drawn(s) and runs(s, "example-foo", "synced") is not None,
        "the dashboard redrawn",
    )
    assert "\u2191/\u2193 select" in screen
    tmux.keys("q")
    # the shell's prompt after the summary: what is typed from here is the shell's
    tmux.wait_for(
        lambda s: (
            not tmux.alternate_screen()
            and re.search(r"1 object.*\n\$ *$", s.rstrip("\n")) is not None
        ),
        "the loop to end and the shell's prompt",
    )
    tmux.type("echo EXIT=$?")
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: re.search(r"^EXIT=\d+$", s, re.MULTILINE) is not None, "exit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    check_terminal_restored(tmux)
