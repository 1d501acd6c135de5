"""The terminal: where colour is decided, and what each semantic style looks like.

Colour is used only when the stream is a terminal, ``NO_COLOR`` is unset or empty
(https://no-color.org) and ``TERM`` is not ``dumb``; otherwise the text is written
exactly as ``styled.plain`` gives it, without importing rich at all (piped output
stays fast and byte-stable). Renderers never pick colours: they tag text with a
``Style`` and ``THEME`` maps the tags to rich styles in this one place.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Mapping

from kubectl_crd.model.explain.styled import Line, Style, plain

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up

if TYPE_CHECKING:
    from typing import TextIO

    from rich.console import Console
    from rich.text import Text

#: rich style per semantic style (empty: the terminal's default).
THEME: Mapping[Style, str] = {
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


def colour_wanted(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when ``stream`` is a terminal and neither NO_COLOR nor TERM=dumb says no."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Terminal:
    """Writes styled lines to one stream, in colour when ``colour_wanted`` says so."""

    def __init__(self, stream: TextIO | None = None, *, colour: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.colour = colour_wanted(self.stream) if colour is None else colour

    def write_lines(self, lines: Iterable[Line]) -> None:
        if not self.colour:
            self.stream.write(plain(lines))
            self.stream.flush()
            return
        console = _console(self.stream)
        for spans in lines:
            console.print(styled_text(spans), soft_wrap=True, highlight=False)
        self.stream.flush()


def styled_text(spans: Line) -> Text:
    """One line as rich ``Text`` with ``THEME`` applied."""
    from rich.text import Text

    text = Text(no_wrap=True, end="")
    for chunk, style in spans:
        text.append(chunk, style=THEME.get(style) or None)
    return text


def ansi(lines: Iterable[Line], *, colour: bool = True) -> str:
    """``lines`` as text with ANSI colour codes (for a full-screen UI's preview pane)."""
    if not colour:
        return plain(lines)
    buffer = io.StringIO()
    console = _console(buffer, color_system="256")
    for spans in lines:
        console.print(styled_text(spans), soft_wrap=True, highlight=False)
    return buffer.getvalue()


def _console(stream: TextIO, color_system: str = "auto") -> Console:
    from rich.console import Console

    return Console(
        file=stream,
        force_terminal=True,
        color_system=color_system,  # type: ignore[arg-type]
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )
