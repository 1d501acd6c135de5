"""Text with semantic styles: the one layout behind plain and coloured output.

A renderer in ``model`` builds ``Line`` values, each a tuple of ``(text, Style)``
spans; ``plain`` joins the texts (what is written when colour is off), and the
terminal wrapper in ``kubectl_crd.output`` maps each ``Style`` to a colour. So the
coloured output is the plain output plus colour, never a second layout.

Pure: stdlib only.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import ClassVar


class Style:
    """What a piece of text is; the terminal decides how it looks.

    Named constants compared by identity, like an Enum's members; not an Enum, because
    importing ``enum`` costs ~2 ms of explain's start-up.
    """

    __slots__ = ("value",)

    PLAIN: ClassVar[Style]
    SEPARATOR: ClassVar[Style]
    HEADING: ClassVar[Style]
    PATH: ClassVar[Style]
    TYPE: ClassVar[Style]
    REQUIRED: ClassVar[Style]
    LABEL: ClassVar[Style]
    VALUE: ClassVar[Style]
    CODE: ClassVar[Style]
    NOTE: ClassVar[Style]
    WARNING: ClassVar[Style]
    MUTED: ClassVar[Style]

    def __init__(self, value: str) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Style.{self.value.upper()}"


Style.PLAIN = Style("plain")
Style.SEPARATOR = Style("separator")
Style.HEADING = Style("heading")
Style.PATH = Style("path")
Style.TYPE = Style("type")
Style.REQUIRED = Style("required")
Style.LABEL = Style("label")
Style.VALUE = Style("value")
Style.CODE = Style("code")
Style.NOTE = Style("note")
Style.WARNING = Style("warning")
Style.MUTED = Style("muted")

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
