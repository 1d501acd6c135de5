"""Property names as CEL sees them (``apiserver/pkg/cel/escaping.go``).

A property whose name is a CEL reserved word becomes ``__word__``; ``__``, ``.``,
``-`` and ``/`` inside a name become ``__underscores__``, ``__dot__``, ``__dash__``
and ``__slash__``. A name with any other character, or starting with a digit, cannot
be escaped: rules cannot reach that property.

A reserved word is also reachable as itself on an object (``self.spec.namespace`` as well
as ``self.spec.__namespace__``): the CRD rules' type provider looks a field it does not
find up under its escaped name when the name is reserved (``apiserver/pkg/cel/types.go:
FindStructFieldType`` with ``recognizeKeywordAsFieldName``; the 1.34 API server
accepts and runs ``self.t.namespace``: ``test_cel_crd_compile.py``), and at run time an object's field names are unescaped before the
lookup (``apiserver/pkg/cel/common/values.go: unstructuredMap.Find``), so both select the
same property. ``field_names`` gives both.
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
#: reserved words a selection cannot spell (the lexer reads them as literals and ``in``)
_LITERALS = frozenset({"true", "false", "null", "in"})
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


@cache
def field_names(name: str) -> tuple[str, ...]:
    """The names an object's property ``name`` is reachable under in a rule: its escaped
    name, and for a reserved word the word itself too; () when it cannot be escaped."""
    escaped = escape(name)
    if escaped is None:
        return ()
    return (escaped, name) if name in RESERVED - _LITERALS else (escaped,)
