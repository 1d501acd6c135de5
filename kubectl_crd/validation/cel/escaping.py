"""Property names as CEL sees them (``apiserver/pkg/cel/escaping.go``).

A property whose name is a CEL reserved word becomes ``__word__``; ``__``, ``.``,
``-`` and ``/`` inside a name become ``__underscores__``, ``__dot__``, ``__dash__``
and ``__slash__``. A name with any other character, or starting with a digit, cannot
be escaped: rules cannot reach that property.
"""

from __future__ import annotations

import re
from functools import cache

RESERVED = frozenset(
    {
        "true",
        "false",
        "null",
        "in",
        "as",
        "break",
        "const",
        "continue",
        "else",
        "for",
        "function",
        "if",
        "import",
        "let",
        "loop",
        "package",
        "namespace",
        "return",
        "var",
        "void",
        "while",
    }
)
_EXPAND = re.compile(r"(__|[-./]|[^a-zA-Z0-9\-./_])")
_REPLACEMENTS = {"__": "__underscores__", ".": "__dot__", "-": "__dash__", "/": "__slash__"}


@cache
def escape(name: str) -> str | None:
    """The CEL field name of a property, or None when it cannot be escaped."""
    if not name or name[0].isdigit():
        return None
    if name in RESERVED:
        return f"__{name}__"
    escapable = True

    def replace(match: re.Match[str]) -> str:
        nonlocal escapable
        text = match.group(0)
        replacement = _REPLACEMENTS.get(text)
        if replacement is None:
            escapable = False
            return ""
        return replacement

    escaped = _EXPAND.sub(replace, name)
    return escaped if escapable else None
