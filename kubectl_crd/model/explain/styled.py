"""Text with semantic styles: the one layout behind plain and coloured output.

A renderer in ``model`` builds ``Line`` values, each a tuple of ``(text, Style)``
spans; ``plain`` joins the texts (what is written when colour is off), and the
terminal wrapper in ``kubectl_crd.output`` maps each ``Style`` to a colour. So the
coloured output is the plain output plus colour, never a second layout.

Pure: stdlib only.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable


class Style(enum.Enum):
    """What a piece of text is; the terminal decides how it looks."""

    PLAIN = "plain"
    SEPARATOR = "separator"
    HEADING = "heading"
    PATH = "path"
    TYPE = "type"
    REQUIRED = "required"
    LABEL = "label"
    VALUE = "value"
    CODE = "code"
    NOTE = "note"
    WARNING = "warning"
    MUTED = "muted"


Span = tuple[str, Style]
Line = tuple[Span, ...]


def line(*spans: Span | str) -> Line:
    """A line from spans; a bare string is ``Style.PLAIN``."""
    return tuple((s, Style.PLAIN) if isinstance(s, str) else s for s in spans)


def text_lines(text: str, style: Style = Style.PLAIN) -> list[Line]:
    """Existing text (kubectl's output) as lines of one style: ``plain`` gives it back."""
    parts = text.split("\n")
    if text.endswith("\n"):
        parts.pop()
    return [((part, style),) if part else () for part in parts]


def plain(lines: Iterable[Line]) -> str:
    """The text of ``lines``, each followed by a newline."""
    return "".join("".join(text for text, _ in spans) + "\n" for spans in lines)
