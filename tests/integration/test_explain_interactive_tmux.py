"""``kubectl crd explain -i`` driven for real: a shell in tmux, keys sent, the screen read.

Each test starts its own tmux server (a private socket, a fixed 120x36 window, no
user config), runs the installed ``kubectl-crd`` console script in a bash there,
types with ``send-keys`` and reads the screen with ``capture-pane``. This is the
whole program as a user meets it: terminal set-up, alternate screen, key decoding,
redraws, and the terminal handed back in a sane state when it exits.

tmux is required: without it the tests fail (never skip), so CI cannot pass them by
accident. Install it with ``apt-get install tmux``.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kubectl_crd.model.explain.finder import field_paths
from kubectl_crd.model.explain.published import publish
from tests.unit.explain_extras.conftest import crontab

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
WIDTH, HEIGHT = 120, 36
TIMEOUT = float(os.environ.get("KUBECTL_CRD_TMUX_TIMEOUT", "30"))
COMMAND = "kubectl-crd explain -i crontab --crd examples/crds/"
TITLE = "kubectl crd explain crontabs (stable.example.com/v1)"


class Tmux:
    """One private tmux server with one shell window."""

    def __init__(self, tmux: str, socket: str) -> None:
        self.tmux = tmux
        self.socket = socket

    def run(self, *args: str) -> str:
        result = subprocess.run(
            [self.tmux, "-L", self.socket, "-f", os.devnull, *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if result.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def start(self) -> None:
        env = {
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "HOME": os.environ.get("HOME", "/tmp"),
            "TERM": "xterm-256color",
            "KUBECONFIG": os.devnull,
            "PS1": "$ ",
            "LANG": "C.UTF-8",
        }
        for name in ("KUBECTL_CRD_CACHE_DIR", "VIRTUAL_ENV"):
            if name in os.environ:
                env[name] = os.environ[name]
        shell = "env -i " + " ".join(f"{k}='{v}'" for k, v in env.items())
        shell += " bash --norc --noprofile"
        self.run(
            "new-session", "-d", "-s", "main", "-x", str(WIDTH), "-y", str(HEIGHT),
            "-c", str(REPO), shell,
        )  # fmt: skip
        self.run("set-option", "-g", "status", "off")
        self.wait_for(lambda screen: "$" in screen, "the shell prompt")

    def type(self, text: str) -> None:
        self.run("send-keys", "-t", "main", "-l", text)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "main", *keys)

    def screen(self) -> str:
        return self.run("capture-pane", "-t", "main", "-p")

    def alternate_screen(self) -> bool:
        return self.run("display-message", "-t", "main", "-p", "#{alternate_on}").strip() == "1"

    def wait_for(self, ready: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        screen = self.screen()
        while not ready(screen):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}")
            time.sleep(0.1)
            screen = self.screen()
        return screen

    def kill(self) -> None:
        subprocess.run(
            [self.tmux, "-L", self.socket, "kill-server"], capture_output=True, check=False
        )


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    binary = shutil.which("tmux")
    if binary is None:
        pytest.fail(
            "tmux is not installed, and the interactive explain tests need it: "
            "apt-get install -y tmux",
            pytrace=False,
        )
    session = Tmux(binary, f"kubectl-crd-test-{os.getpid()}-{secrets.token_hex(4)}")
    session.start()
    try:
        yield session
    finally:
        session.kill()


def list_pane(screen: str) -> list[str]:
    """The rows of the list (left of the divider), without padding, empty rows dropped."""
    rows = []
    for line in screen.splitlines()[2:]:
        if "\u2502" in line:
            row = line.split("\u2502", 1)[0].rstrip()
            if row:
                rows.append(row)
    return rows


def preview_pane(screen: str) -> str:
    return "\n".join(
        line.split("\u2502", 1)[1].rstrip() for line in screen.splitlines() if "\u2502" in line
    )


def count(screen: str) -> tuple[int, int]:
    """The ``matches/total`` counter at the end of the query line."""
    found = re.search(r" (\d+)/(\d+)$", screen.splitlines()[1])
    assert found, screen
    return int(found[1]), int(found[2])


def path_count() -> int:
    return len(field_paths(publish(crontab(), "v1")))


def start_explorer(tmux: Tmux, command: str = COMMAND) -> str:
    tmux.type(f"{command}; echo EXIT=$?")
    tmux.keys("Enter")
    return tmux.wait_for(lambda s: TITLE in s and "Esc quit" in s, "the explorer")


def finished(screen: str) -> bool:
    return re.search(r"^EXIT=\d+$", screen, re.MULTILINE) is not None and TITLE not in screen


def check_terminal_restored(tmux: Tmux) -> None:
    assert not tmux.alternate_screen()
    tmux.type(
        "stty -a | tr ' ;' '\\n\\n' | grep -c -x -e icanon -e echo -e icrnl | sed 's/^/SANE=/'"
    )
    tmux.keys("Enter")
    tmux.wait_for(lambda s: "SANE=3" in s, "canonical mode, echo and icrnl back on")


def suspend_and_fg(tmux: Tmux, redrawn: Callable[[str], bool], what: str) -> str:
    """Ctrl-Z to the program on the screen (started without ``; echo ...``: the shell
    would run that when the job stops): the job stops and the terminal is the shell's
    again, sane; then ``fg``: the program's alternate screen again, waited for until
    ``redrawn`` holds (``what`` names it). Returns that screen."""
    tmux.keys("C-z")
    tmux.wait_for(lambda s: "Stopped" in s, "the job to stop")
    check_terminal_restored(tmux)  # the main screen, canonical mode, echo and icrnl back
    tmux.type("clear; fg")
    tmux.keys("Enter")
    return tmux.wait_for(lambda s: tmux.alternate_screen() and redrawn(s), what)


def test_typing_narrows_the_list_and_the_preview_follows_the_selection(tmux: Tmux) -> None:
    total = path_count()
    screen = start_explorer(tmux)
    assert count(screen) == (total, total)
    rows = list_pane(screen)
    assert rows[0] == "> (the resource)"
    assert "GROUP:      stable.example.com" in preview_pane(screen)

    tmux.type("spec.conc")
    screen = tmux.wait_for(lambda s: count(s) == (2, total), "the list to narrow to 2")
    assert list_pane(screen) == ["> spec.concurrencyPolicy", "  spec.cronSpec"]
    preview = preview_pane(screen)
    assert "FIELD: concurrencyPolicy <string>" in preview
    assert 'default: "Allow"' in preview
    assert "---- beyond kubectl explain" in preview

    tmux.keys("Down")
    screen = tmux.wait_for(lambda s: "FIELD: cronSpec <string>" in s, "the cronSpec preview")
    assert list_pane(screen) == ["  spec.concurrencyPolicy", "> spec.cronSpec"]
    assert "pattern: ^(\\S+\\s+){4}\\S+$" in preview_pane(screen)

    tmux.keys("Down")  # the last row stays selected
    tmux.keys("Up")
    screen = tmux.wait_for(
        lambda s: "FIELD: concurrencyPolicy <string>" in s, "the selection to move back up"
    )
    assert list_pane(screen)[0] == "> spec.concurrencyPolicy"

    tmux.keys("BSpace", "BSpace", "BSpace", "BSpace")  # "spec."
    screen = tmux.wait_for(lambda s: count(s)[0] > 2, "the list to widen")
    assert len(list_pane(screen)) > 5

    tmux.type("zzzz")
    screen = tmux.wait_for(lambda s: count(s) == (0, total), "no match")
    assert "no field matches" in screen

    tmux.keys("Escape")
    screen = tmux.wait_for(finished, "the explorer to quit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    assert "FIELD:" not in screen  # quitting prints nothing
    check_terminal_restored(tmux)


def test_enter_prints_the_selected_explanation_and_exits_0(tmux: Tmux, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    # stdout redirected: the finder draws on the terminal (stderr), the result goes to the file
    start_explorer(tmux, f"{COMMAND.replace('crontab ', 'crontab.spec.rep ')} > {out}")
    screen = tmux.wait_for(lambda s: "FIELD: replicas <integer>" in s, "the initial query")
    assert list_pane(screen)[0] == "> spec.replicas"
    tmux.keys("Enter")
    screen = tmux.wait_for(finished, "the explorer to quit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    text = out.read_text()
    assert text.startswith("GROUP:      stable.example.com\nKIND:       CronTab\n")
    assert "FIELD: replicas <integer>" in text
    assert "    default: 1\n" in text
    assert "\x1b" not in text  # a file gets no colour
    check_terminal_restored(tmux)


def test_ctrl_c_quits_with_exit_0(tmux: Tmux) -> None:
    start_explorer(tmux)
    tmux.type("stat")
    tmux.wait_for(lambda s: "> status" in s, "the list to narrow")
    tmux.keys("C-c")
    screen = tmux.wait_for(finished, "the explorer to quit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    check_terminal_restored(tmux)


def test_page_down_scrolls_the_explanation(tmux: Tmux) -> None:
    start_explorer(tmux, COMMAND.replace("crontab ", "crontab.metadata "))
    screen = tmux.wait_for(lambda s: "> metadata" in s, "metadata selected")
    assert "GROUP:      stable.example.com" in preview_pane(screen)
    tmux.keys("PageDown")
    screen = tmux.wait_for(
        lambda s: "GROUP:      stable.example.com" not in preview_pane(s), "the preview to scroll"
    )
    tmux.keys("PageUp")
    tmux.wait_for(lambda s: "GROUP:      stable.example.com" in preview_pane(s), "scroll back")
    tmux.keys("C-q")
    screen = tmux.wait_for(finished, "the explorer to quit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
