"""The terminal: where colour is decided, and what each semantic style looks like.

Colour is used only when the stream is a terminal, ``NO_COLOR`` is unset or empty
(https://no-color.org) and ``TERM`` is not ``dumb``; otherwise the text is written
exactly as ``styled.plain`` gives it. Renderers never pick colours: they tag text with
a ``Style`` and ``THEME`` maps the tags to ANSI SGR parameters in this one place.

The escape codes are written here rather than by rich: importing ``rich.console``
costs 30-40 ms, as much again as all of ``explain --crd``. Each styled span becomes
``ESC[<codes>m text ESC[0m``, the bytes rich writes for the same style names (the
tests compare the two), and removing the codes gives back the plain text exactly.
"""

from __future__ import annotations

import os
import sys

from kubectl_crd.model.styled import Line, Style, plain

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import TextIO

#: SGR parameters per semantic style (empty: the terminal's default), with the rich
#: style name each stands for: dim 2, bold 1, red 31, green 32, yellow 33, blue 34,
#: magenta 35, cyan 36.
THEME: Mapping[Style, str] = {
    Style.PLAIN: "",
    Style.SEPARATOR: "2",  # dim
    Style.HEADING: "1",  # bold
    Style.PATH: "1;36",  # bold cyan
    Style.TYPE: "32",  # green
    Style.REQUIRED: "31",  # red
    Style.LABEL: "34",  # blue
    Style.VALUE: "",
    Style.CODE: "33",  # yellow
    Style.NOTE: "35",  # magenta
    Style.WARNING: "1;33",  # bold yellow
    Style.MUTED: "2",  # dim
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
        self.stream.write(ansi(lines, colour=self.colour))
        self.stream.flush()


def ansi(lines: Iterable[Line], *, colour: bool = True) -> str:
    """``lines`` as text, each followed by a newline, with ANSI colour codes if ``colour``."""
    if not colour:
        return plain(lines)
    return "".join(ansi_line(spans) + "\n" for spans in lines)


def ansi_line(spans: Line) -> str:
    """One line with each styled span between its SGR codes and a reset."""
    parts = []
    for chunk, style in spans:
        codes = THEME.get(style)
        parts.append(f"\x1b[{codes}m{chunk}\x1b[0m" if codes and chunk else chunk)
    return "".join(parts)
