"""``controlplane.Process.stop``: SIGTERM, then SIGKILL after the timeout or as soon as
``enough()`` says the graceful part that matters is over (what ``LocalControlPlane``
uses for kube-apiserver: see tests/integration/test_dev_envtest_stop.py)."""

from __future__ import annotations

import signal
import socket
import sys
import time
from pathlib import Path

from kubectl_crd.reconcile.controlplane import Process, _StoppedListening, spawn

# a process that takes SIGTERM as kube-apiserver does (notes it, keeps running a while:
# here for ever), so only SIGKILL ends it
STUBBORN = (
    "import signal, sys, time\n"
    "signal.signal(signal.SIGTERM, lambda *a: print('TERM', flush=True))\n"
    "print('ready', flush=True)\n"
    "while True: time.sleep(1)\n"
)


def stubborn(tmp_path: Path) -> Process:
    log = tmp_path / "stubborn.log"
    process = spawn("stubborn", [sys.executable, "-c", STUBBORN], str(log))
    while "ready" not in log.read_text():
        assert process.alive(), log.read_text()
    return process


def test_enough_ends_the_graceful_wait_with_sigkill_after_sigterm(tmp_path: Path) -> None:
    process = stubborn(tmp_path)
    asked = []

    def enough() -> bool:
        asked.append(process.alive())
        # yes from the third question on, once the process has noted SIGTERM (on a busy
        # machine its handler can run later than three 5 ms polls: a fixed count of
        # questions raced it, and SIGKILL came before the TERM line was written)
        return len(asked) >= 3 and "TERM" in Path(process.log).read_text()

    # a timeout no test would wait out: only enough() can end the wait
    process.stop(3600.0, enough=enough)
    assert process.popen.returncode == -signal.SIGKILL
    # asked until it said yes, the process alive each time
    assert len(asked) >= 3 and all(asked)
    assert "TERM" in Path(process.log).read_text()  # SIGTERM came first


def test_without_enough_a_process_that_exits_on_sigterm_is_not_killed(tmp_path: Path) -> None:
    log = tmp_path / "sleep.log"
    process = spawn("sleep", [sys.executable, "-c", "import time; time.sleep(3600)"], str(log))
    process.stop(60.0)
    assert process.popen.returncode == -signal.SIGTERM


def test_enough_never_saying_yes_falls_back_to_the_timeout(tmp_path: Path) -> None:
    process = stubborn(tmp_path)
    process.stop(0.05, enough=lambda: False)
    assert process.popen.returncode == -signal.SIGKILL


def _closed_port() -> int:
    """A port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_stopped_listening_waits_for_the_servers_own_line_after_the_close(
    tmp_path: Path,
) -> None:
    log = tmp_path / "kube-apiserver.log"
    log.write_text("I1128 controller.go:84] Shutting down OpenAPI AggregationController\n")
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        stopped = _StoppedListening(port, str(log))
        assert not stopped.enough()  # still accepting connections
    # closed, but not yet logged: the kill that lost the line in CI
    assert not stopped.enough()
    with log.open("a") as out:
        out.write(f"I1128 secure_serving.go:259] Stopped listening on 127.0.0.1:{port}\n")
    assert stopped.enough()


def test_stopped_listening_without_the_line_is_enough_half_a_second_after_the_close(
    tmp_path: Path,
) -> None:
    log = tmp_path / "kube-apiserver.log"
    log.write_text("Stopped listening on 127.0.0.1:1\n")  # another port's line
    stopped = _StoppedListening(_closed_port(), str(log))
    assert not stopped.enough()
    started = time.monotonic()
    while not stopped.enough():
        assert time.monotonic() - started < 5.0
        time.sleep(0.01)
    assert time.monotonic() - started >= _StoppedListening.LOG_WAIT
