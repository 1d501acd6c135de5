"""Colour only on a terminal and never with NO_COLOR; kubectl's part is never coloured.

The terminal is a real pseudo-terminal (``pty``): the command runs as a user runs it.
"""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from kubectl_crd.model.explain import render_plaintext
from kubectl_crd.model.explain.details import explain_details
from kubectl_crd.model.explain.detailtext import SEPARATOR, details_lines
from kubectl_crd.model.styled import Line, Style, line, plain
from kubectl_crd.output.terminal import Terminal, ansi, colour_wanted
from tests.unit.explain_extras.conftest import CRONTAB, REPO, crontab, target

ESC = "\x1b"
ARGS = ["explain", "crontab", "--crd", str(CRONTAB)]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update({"TERM": "xterm-256color", "KUBECONFIG": os.devnull})
    env.update(extra)
    return env


def run_on_a_terminal(*, command: list[str] | None = None, **env: str) -> str:
    """stdout of ``kubectl crd explain`` (or ``command``) when stdout is a pseudo-terminal."""
    primary, secondary = pty.openpty()
    try:
        process = subprocess.Popen(
            command or [sys.executable, "-m", "kubectl_crd", *ARGS],
            stdin=subprocess.DEVNULL,
            stdout=secondary,
            stderr=subprocess.PIPE,
            env=_env(**env),
            cwd=REPO,
        )
    finally:
        os.close(secondary)
    chunks = []
    try:
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the other side is closed
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(primary)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    return b"".join(chunks).decode().replace("\r\n", "\n")


def run_piped(**env: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", *ARGS],
        capture_output=True,
        text=True,
        env=_env(**env),
        cwd=REPO,
        check=True,
    )
    return result.stdout


def test_a_terminal_gets_colour_after_the_separator_only() -> None:
    out = run_on_a_terminal()
    kubectl = render_plaintext(target(crontab(), "crontab"))
    assert out.startswith(kubectl)
    assert ESC not in kubectl
    assert f"{ESC}[" in out[len(kubectl) :]
    # colour is added to the same text, never changing it
    assert _strip(out) == run_piped()


def test_colour_costs_no_heavy_import() -> None:
    script = (
        "import sys\n"
        "from kubectl_crd.cli.root import main\n"
        "try:\n"
        f"    main({ARGS!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('rich imported:', 'rich' in sys.modules)\n"
    )
    out = run_on_a_terminal(command=[sys.executable, "-c", script])
    assert f"{ESC}[" in out
    assert out.rstrip().endswith("rich imported: False")


def test_no_color_on_a_terminal_means_no_escape_codes() -> None:
    out = run_on_a_terminal(NO_COLOR="1")
    assert SEPARATOR in out
    assert ESC not in out


def test_term_dumb_means_no_escape_codes() -> None:
    assert ESC not in run_on_a_terminal(TERM="dumb")


def test_piped_output_has_no_escape_codes() -> None:
    out = run_piped()
    assert SEPARATOR in out
    assert ESC not in out


class _FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("tty", "env", "expected"),
    [
        (True, {}, True),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),  # no-color.org: only a non-empty value counts
        (True, {"TERM": "dumb"}, False),
        (False, {}, False),
    ],
)
def test_colour_wanted(tty: bool, env: dict[str, str], expected: bool) -> None:
    stream = _FakeTTY() if tty else io.StringIO()
    assert colour_wanted(stream, env) is expected


def test_terminal_writes_plain_text_without_colour_and_styles_with_it() -> None:
    lines = [line(("HEADING:", Style.HEADING)), line("    ", ("1", Style.CODE)), ()]
    stream = io.StringIO()
    Terminal(stream, colour=False).write_lines(lines)
    assert stream.getvalue() == "HEADING:\n    1\n\n"
    coloured = io.StringIO()
    Terminal(coloured, colour=True).write_lines(lines)
    assert _strip(coloured.getvalue()) == plain(lines)
    assert f"{ESC}[1m" in coloured.getvalue()  # bold heading
    assert _strip(ansi(lines)) == plain(lines)
    assert ansi(lines, colour=False) == plain(lines)


def _strip(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


#: The rich style name each semantic style stood for when rich wrote the colours.
RICH_STYLE = {
    Style.PLAIN: "",
    Style.SEPARATOR: "dim",
    Style.HEADING: "bold",
    Style.PATH: "bold cyan",
    Style.TYPE: "green",
    Style.REQUIRED: "red",
    Style.LABEL: "blue",
    Style.VALUE: "",
    Style.CODE: "yellow",
    Style.NOTE: "magenta",
    Style.WARNING: "bold yellow",
    Style.MUTED: "dim",
}


def rich_rendering(lines: list[Line], color_system: str) -> str:
    from rich.console import Console
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        color_system=color_system,  # type: ignore[arg-type]
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )
    for spans in lines:
        text = Text(no_wrap=True, end="")
        for chunk, style in spans:
            text.append(chunk, style=RICH_STYLE[style] or None)
        console.print(text, soft_wrap=True, highlight=False)
    return buffer.getvalue()


def corpus_detail_lines(corpus_dir: Path) -> list[Line]:
    """The "beyond kubectl" lines of every corpus CRD's root and of its children."""
    from kubectl_crd.sources.files import FileSource

    lines: list[Line] = []
    for crd in FileSource([str(corpus_dir / "crds")]).crds():
        explained = target(crd, crd.names.plural)
        lines += details_lines(explain_details(explained, recursive=True, max_depth=2))
    return lines


def test_colours_are_the_bytes_rich_writes_and_leave_the_text_alone(corpus_dir: Path) -> None:
    """rich is the oracle for the escape codes; rich also expands tabs and drops some
    control characters, which we leave as they are (colour never changes the text)."""
    lines = corpus_detail_lines(corpus_dir)
    assert len(lines) > 5_000
    assert {style for spans in lines for _, style in spans} == set(RICH_STYLE)
    assert _strip(ansi(lines)) == plain(lines)
    as_rich = [
        spans
        for spans in lines
        if not any(ch in chunk for chunk, _ in spans for ch in "\t\r\x07\x08\x0b\x0c")
    ]
    assert len(as_rich) > 0.99 * len(lines)
    ours = ansi(as_rich)
    for color_system in ("standard", "256", "truecolor"):
        assert ours == rich_rendering(as_rich, color_system), color_system
