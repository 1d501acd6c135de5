"""Ctrl-C: exit 130 and no word of click's, as kubectl (a Go program dies of SIGINT).

click turns a KeyboardInterrupt into its Abort, which printed "Aborted!" on stderr; the
blank line it writes first closes the terminal's ``^C`` echo and stays.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_ctrl_c_while_a_command_reads_stdin_exits_130_quietly() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kubectl_crd", "validate", "-f", "-", "--crd",
         str(REPO / "examples" / "foo" / "crd.yaml")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        # as from a terminal: a test run started in the background (`cmd &` in a script,
        # as CI may) has SIGINT ignored, and its children inherit that (so would kubectl)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        # the command reads stdin once its modules are loaded: wait for it to be in the
        # read (twice in a row), then interrupt it; stdin stays open (communicate()
        # would close it, and an EOF could end the read before the signal is handled)
        deadline = time.monotonic() + 30
        seen = 0
        while seen < 2 and time.monotonic() < deadline:
            seen = seen + 1 if _reading_stdin(proc.pid) else 0
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.stdin.close()
    assert (proc.returncode, out, err) == (130, "", "\n")


def _reading_stdin(pid: int) -> bool:
    """Whether the process waits in a pipe's read (``/proc/PID/wchan``: Linux's
    ``anon_pipe_read``, ``pipe_read`` before 6.x)."""
    try:
        with open(f"/proc/{pid}/wchan") as wchan:
            return "pipe_read" in wchan.read()
    except OSError:
        return False
