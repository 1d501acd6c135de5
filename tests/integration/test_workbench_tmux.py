"""``kubectl crd workbench`` driven for real in tmux: the installed program on a corpus
CRD, the file written from the test, keys sent, the screen read.

Reuses the tmux harness of ``explain -i``'s tests (a private server, a 120x36 window, a
clean environment). The scenario: the file is created from sample and checked valid;
the test writes an invalid value; the error appears with its line:column; ``j`` jumps
to its field; ``e`` runs $EDITOR (a script that logs its arguments and fixes the
file) through a suspended screen; the preview row changes; ``q`` exits 0 and hands
the terminal back sane. Then NO_COLOR: only greys are drawn. Each test takes a few
seconds.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.integration import test_explain_interactive_tmux as explain_tmux
from tests.integration.test_explain_interactive_tmux import (
    Tmux,
    check_terminal_restored,
    suspend_and_fg,
)

tmux = explain_tmux.tmux  # the fixture: one private tmux server per test

CERTIFICATES = "crds/cert-manager/cert-manager.io_certificates.yaml"
KEYS = "q Quit"  # the footer is drawn: the screen is up


def _line_of(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + len(needle) + 1
    raise AssertionError(needle)


def _up(screen: str) -> bool:
    """The workbench is drawn and its first check done."""
    return KEYS in screen and "valid (create)" in screen


def _start(
    tmux: Tmux, corpus_dir: Path, cr: Path, env: str = "", line: str = "{}; echo EXIT=$?"
) -> str:
    """Type ``line`` with the workbench's command line for {} and wait for the screen."""
    command = f"{env}kubectl-crd workbench certificate -f {cr} --crd {corpus_dir / CERTIFICATES}"
    tmux.type(line.format(command))
    tmux.keys("Enter")
    return tmux.wait_for(_up, "the workbench")


def _exited(screen: str) -> bool:
    return re.search(r"^EXIT=\d+$", screen, re.MULTILINE) is not None and KEYS not in screen


def test_error_jump_editor_fix_and_preview(tmux: Tmux, corpus_dir: Path, tmp_path: Path) -> None:
    cr = tmp_path / "cert.yaml"
    log = tmp_path / "editor.log"
    editor = tmp_path / "editor.sh"
    # an "editor": logs its arguments, fixes the value, exits (the screen comes back)
    editor.write_text(
        f'#!/bin/sh\necho "$@" > {log}\n'
        f"for file; do :; done\n"
        f'{sys.executable} -c "import sys; p=sys.argv[1]; t=open(p).read(); '
        f"open(p, 'w').write(t.replace('secretName: 42', 'secretName: web-tls'))\" \"$file\"\n"
    )
    editor.chmod(0o755)
    tmux.type(f"export EDITOR={editor}")
    tmux.keys("Enter")
    _start(tmux, corpus_dir, cr)
    # each of the screen's parts is drawn when its own check or worker is done: what is
    # asserted is waited for, every part of it (a timeout fails with the screen)
    tmux.wait_for(
        lambda s: (
            "valid (create) | created from kubectl crd sample" in s
            and re.search(r"example-certificate\s+example\s+0s", s) is not None
        ),
        "the sample's status line and its preview row",
    )

    text = cr.read_text().replace("secretName: example", "secretName: 42")
    cr.write_text(text)
    line, column = _line_of(text, "secretName: ")
    tmux.wait_for(
        lambda s: (
            f"{line}:{column} spec.secretName: Invalid value" in s
            and "invalid (create)" in s
            and re.search(r"example-certificate\s+42\b", s) is not None
        ),
        "the error, the status line and the preview row of the invalid object",
    )

    tmux.keys("j")
    tmux.wait_for(lambda s: "FIELD: secretName <string>" in s, "the jump to the field")

    tmux.keys("e")
    tmux.wait_for(
        lambda s: (
            "valid (create)" in s
            and "invalid" not in s
            and re.search(r"example-certificate\s+web-tls\s+\d+s", s) is not None
        ),
        "the fix through the editor and its preview row",
    )
    assert log.read_text().split() == [f"+{line}", str(cr)]

    tmux.keys("q")
    screen = tmux.wait_for(_exited, "the workbench to quit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    # said again on the way out, with the path (joined: a long path wraps)
    assert f"created {cr} from kubectl crd sample" in screen.replace("\n", "")
    check_terminal_restored(tmux)


_SGR_COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?([34]8;5;\d+|[34][0-7]|9[0-7]|10[0-7])[;m]")
_GREYS = {0, 7, 8, 15, 16, 59, 102, 145, 188, 231, *range(232, 256)}


def _hues(screen: str) -> set[str]:
    """The colour codes on the screen that are not greys (xterm-256 numbering)."""
    found = set()
    for code in _SGR_COLOUR.findall(screen):
        if ";5;" in code and int(code.rsplit(";", 1)[1]) in _GREYS:
            continue
        if code in ("30", "37", "40", "47", "90", "97", "100", "107"):
            continue
        found.add(code)
    return found


def test_no_color_draws_greys_only_and_ctrl_c_exits(
    tmux: Tmux, corpus_dir: Path, tmp_path: Path
) -> None:
    cr = tmp_path / "cert.yaml"
    _start(tmux, corpus_dir, cr)
    assert _hues(tmux.run("capture-pane", "-e", "-t", "main", "-p"))  # colour by default
    tmux.keys("q")
    tmux.wait_for(_exited, "the first run to quit")
    tmux.run("clear-history", "-t", "main")
    tmux.type("clear")
    tmux.keys("Enter")
    _start(tmux, corpus_dir, cr, env="NO_COLOR=1 ")
    assert not _hues(tmux.run("capture-pane", "-e", "-t", "main", "-p"))
    tmux.keys("C-c")
    screen = tmux.wait_for(_exited, "the workbench to quit on Ctrl-C")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    check_terminal_restored(tmux)


def test_ctrl_z_gives_the_terminal_back_and_fg_redraws(
    tmux: Tmux, corpus_dir: Path, tmp_path: Path
) -> None:
    # before: Ctrl-Z did nothing (Textual reads it as a key, and the workbench bound it
    # to nothing): no way back to the shell but quitting
    # no "; echo": the shell would run it when the job stops
    _start(tmux, corpus_dir, tmp_path / "cert.yaml", line="{}")
    assert tmux.alternate_screen()
    # Ctrl-Z, the terminal the shell's; fg: the screen again, redrawn, and its keys are
    # read again (q quits)
    suspend_and_fg(tmux, _up, "the workbench redrawn")
    tmux.keys("q")
    tmux.wait_for(lambda s: not tmux.alternate_screen() and "$" in s, "the workbench to quit")
    tmux.type("echo EXIT=$?")
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: re.search(r"^EXIT=\d+$", s, re.MULTILINE) is not None, "$?")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    check_terminal_restored(tmux)


def test_ctrl_z_without_job_control_keeps_the_screen(
    tmux: Tmux, corpus_dir: Path, tmp_path: Path
) -> None:
    # before (with Ctrl-Z bound to Textual's suspend alone): under `bash -c` nothing
    # could continue the stopped process, and the terminal was left in cooked mode with
    # the workbench stopped for ever
    _start(tmux, corpus_dir, tmp_path / "cert.yaml", line="bash -c '{}; echo EXIT=$?'")
    tmux.keys("C-z")
    tmux.wait_for(
        lambda s: tmux.alternate_screen() and "no job control here" in s, "the screen to say why"
    )
    tmux.keys("q")
    screen = tmux.wait_for(_exited, "the workbench to quit")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    check_terminal_restored(tmux)


def test_search_keys_typed_fast_are_read_in_order(
    tmux: Tmux, corpus_dir: Path, tmp_path: Path
) -> None:
    # argo's Workflow: 9,261 field paths, each ranking a visible fraction of a second,
    # done in a thread. Before: Down typed right after the query moved through a list
    # of an earlier query, which the last one's then replaced (Enter took the first)
    from kubectl_crd.model.explain import resolve_target
    from kubectl_crd.model.explain.finder import rank
    from kubectl_crd.output.workbench.session import Session
    from kubectl_crd.sources.files import FileSource

    crd = corpus_dir / "crds/argo-workflows/argoproj.io_workflows.yaml"
    session = Session(resolve_target(FileSource([str(crd)]).crds(), "workflow"), "x.yaml")
    paths, texts = session.finder_lists()
    third = paths[rank("retrystrat", texts)[2].index]
    tmux.type(f"kubectl-crd workbench workflow -f {tmp_path / 'wf.yaml'} --crd {crd}")
    tmux.keys("Enter")
    tmux.wait_for(_up, "the workbench")
    tmux.keys("/")
    tmux.wait_for(lambda s: "search fields" in s, "the search box")
    tmux.type("retrystrat")
    tmux.keys("Down", "Down", "Enter")
    tmux.wait_for(lambda s: f"FIELD: {third[-1]} <" in s, f"{'.'.join(third)} chosen")
    tmux.keys("q")
    tmux.wait_for(lambda s: not tmux.alternate_screen(), "the workbench to quit")


def test_escape_then_a_key_typed_quickly_leaves_the_editor(
    tmux: Tmux, corpus_dir: Path, tmp_path: Path
) -> None:
    # before: Esc then x, sent together (as tmux and SSH deliver them when typed at a
    # normal pace), was read as Alt+X: the pane took the "x" as text and kept the keys
    cr = tmp_path / "cert.yaml"
    _start(tmux, corpus_dir, cr)
    before = cr.read_text()
    tmux.keys("f")
    tmux.wait_for(lambda s: "Leave editor" in s and "KIND:" not in s, "the editor pane")
    tmux.keys("Escape", "x")  # one send-keys: one write of ESC x
    screen = tmux.wait_for(
        lambda s: "KIND:" in s and "Leave editor" not in s, "the pane left, x: the explanation"
    )
    assert "[+]" not in screen, screen
    tmux.keys("q")
    screen = tmux.wait_for(_exited, "the workbench to quit (nothing unsaved: no question)")
    assert re.search(r"^EXIT=0$", screen, re.MULTILINE), screen
    assert cr.read_text() == before
