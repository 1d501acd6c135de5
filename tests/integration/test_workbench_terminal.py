"""The workbench ends when its terminal goes away.

The real program on a pseudo-terminal of the test's own (``os.openpty``), started in a
session of its own so that the pty is NOT its controlling terminal: closing the master
then sends no SIGHUP, and the input reads EOF (or EIO) for ever. Before the fix,
Textual's input thread spun on that EOF at 100% of a core and the app never ended
(orphaned workbenches were seen); now the hang-up on the input ends it within a second,
exit status 129. SIGHUP (what ``tmux kill-session`` or a closed ssh sends) ends it the
same way. Unsaved edits of the editor pane are left in ``FILE.unsaved``, the file itself
untouched. Each test takes a few seconds.
"""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_crd.output.workbench.app import TERMINAL_GONE, TERMINATED, input_hung_up
from kubectl_crd.output.workbench.session import UNSAVED_SUFFIX

REPO = Path(__file__).resolve().parents[2]
CRDS = REPO / "examples" / "crds"


class Screen:
    """The workbench on a pty: ``wait_for(text)`` reads the master until ``text`` shows."""

    def __init__(self, cr: Path) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 110, 0, 0))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TMUX", "NO_COLOR"))}
        env.update(TERM="xterm-256color", KUBECONFIG="/dev/null")
        argv = ["-m", "kubectl_crd", "workbench", "crontab", "-f", str(cr), "--crd", str(CRDS)]
        self.proc = subprocess.Popen(
            [sys.executable, *argv],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,  # no controlling terminal: closing the master sends no SIGHUP
            env=env,
            cwd=str(cr.parent),
        )
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: bytes, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never drawn; last: {self.seen[-400:]!r}")
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                self.seen += os.read(self.master, 65536)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close_master(self) -> None:
        os.close(self.master)
        self.master = -1

    def exit_status(self, timeout: float = 30) -> int:
        """The exit status, or a failure naming the CPU it burns while it hangs on (the
        hang was for ever: the bound only guards against it, and a loaded machine's
        shutdown of the app may take seconds)."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            cpu = _cpu_share(self.proc.pid)
            raise AssertionError(
                f"still running {timeout} s after its terminal went away ({cpu:.0%} of a core)"
            ) from None


def _cpu_share(pid: int) -> float:
    def ticks() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    before = ticks()
    time.sleep(1)
    return (ticks() - before) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def screen(tmp_path: Path) -> Iterator[Screen]:
    made = Screen(tmp_path / "ct.yaml")
    try:
        made.wait_for(b"valid (create)")
        yield made
    finally:
        if made.proc.poll() is None:
            made.proc.kill()
            made.proc.wait()
        if made.master >= 0:
            os.close(made.master)


def test_closing_the_pty_without_sighup_ends_it(screen: Screen) -> None:
    screen.close_master()
    assert screen.exit_status() == TERMINAL_GONE


def test_sighup_ends_it(screen: Screen) -> None:
    screen.proc.send_signal(signal.SIGHUP)
    assert screen.exit_status() == TERMINAL_GONE


def test_unsaved_edits_survive_the_terminal(screen: Screen, tmp_path: Path) -> None:
    cr = tmp_path / "ct.yaml"
    before = cr.read_text()
    screen.send(b"f")  # the editor pane, the cursor at the start of the file
    # its key in the footer: the pane has the keys (typed earlier, "e" would run $EDITOR)
    screen.wait_for(b"Leave editor")
    screen.send(b"# mine\r")
    screen.wait_for(b"[+]")  # the title marks unsaved edits
    screen.close_master()
    assert screen.exit_status() == TERMINAL_GONE
    assert cr.read_text() == before
    assert Path(str(cr) + UNSAVED_SUFFIX).read_text() == "# mine\n" + before


def test_sigterm_keeps_unsaved_edits_and_says_where(screen: Screen, tmp_path: Path) -> None:
    # before: SIGTERM (kill's default) ended the process at once, the pane's edits lost
    cr = tmp_path / "ct.yaml"
    before = cr.read_text()
    screen.send(b"f")
    screen.wait_for(b"Leave editor")
    screen.send(b"# mine\r")
    screen.wait_for(b"[+]")
    screen.proc.send_signal(signal.SIGTERM)
    assert screen.exit_status() == TERMINATED
    assert cr.read_text() == before
    kept = Path(str(cr) + UNSAVED_SUFFIX)
    assert kept.read_text() == "# mine\n" + before
    screen.wait_for(f"unsaved edits kept in {kept}".encode())  # said on the terminal


def test_input_hung_up_sees_the_master_closed() -> None:
    master, slave = os.openpty()
    try:
        assert not input_hung_up(slave)
        os.close(master)
        assert input_hung_up(slave)
    finally:
        os.close(slave)
    assert not input_hung_up(None)
