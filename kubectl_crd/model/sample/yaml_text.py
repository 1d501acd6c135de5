"""A tiny block-style YAML emitter with comments, for JSON-shaped data.

``kubectl`` reads YAML with go-yaml (YAML 1.1 rules, through ``sigs.k8s.io/yaml``), so a
plain scalar that YAML 1.1 resolves to something else than a string must be quoted:
``yes``/``on``/``y``/``off`` (booleans), ``null``/``~``, ``0755`` (octal), ``1.0``,
``1_000``, dates like ``2024-01-01`` (timestamps), and anything starting with an
indicator (``*``, ``&``, ``!``, ``-``, ``=``, ``|``, ``%``, ``@``, quotes, ...). Rather
than mirror every resolver rule, a string is written plain only when it is a simple
word that starts with a letter and is not one of YAML 1.1's special words; everything
else is double-quoted with escapes (valid YAML 1.1 and 1.2).

Comments are given per path (``("spec", "ports", 0, "name")``) and written above the
key they describe. The ruamel-based ``io`` layer reads YAML; this module only writes the
simple shapes that ``kubectl crd sample`` produces, so it stays stdlib-only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

Path = tuple[str | int, ...]

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_./-]*$")
# YAML 1.1 words that are not strings (go-yaml v2 ``resolve.go``), compared lower-cased.
_SPECIAL_WORDS = frozenset(
    {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf"}
)
_INDENT = "  "


def quote_scalar(value: str) -> str:
    """``value`` as a YAML scalar that go-yaml and ruamel both read back as that string."""
    if _PLAIN.match(value) and value.lower() not in _SPECIAL_WORDS:
        return value
    out = ['"']
    for char in value:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFEFF):
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\ufffd")  # lone surrogates cannot be written in UTF-8
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return json.dumps(value)
    if isinstance(value, str):
        return quote_scalar(value)
    raise TypeError(f"cannot write {type(value).__name__} as YAML")


def comment_lines(lines: Sequence[str], indent: str) -> list[str]:
    """``# ``-prefixed lines; anything that YAML could read as a line break is flattened."""
    out = []
    for line in lines:
        text = " ".join(line.split())  # split() also breaks on \x85, \u2028, \u2029
        text = "".join(c for c in text if c.isprintable())
        out.append(f"{indent}# {text}".rstrip())
    return out


def dump(
    value: Any,
    *,
    comments: Mapping[Path, Sequence[str]] | None = None,
    header: Sequence[str] = (),
) -> str:
    """One YAML document (no ``---``), with optional header and per-path comments."""
    lines = comment_lines(header, "")
    _Emitter(comments or {}, lines).node(value, (), 0)
    return "\n".join(lines) + "\n"


class _Emitter:
    def __init__(self, comments: Mapping[Path, Sequence[str]], lines: list[str]) -> None:
        self.comments = comments
        self.lines = lines

    def node(self, value: Any, path: Path, level: int) -> None:
        if isinstance(value, Mapping) and value:
            self.mapping(value, path, level)
        elif isinstance(value, list) and value:
            self.sequence(value, path, level)
        else:
            self.lines.append(_INDENT * level + self.inline(value))

    @staticmethod
    def inline(value: Any) -> str:
        if isinstance(value, Mapping):
            return "{}"
        if isinstance(value, list):
            return "[]"
        return scalar(value)

    def mapping(self, value: Mapping[str, Any], path: Path, level: int) -> None:
        indent = _INDENT * level
        for key, item in value.items():
            child = (*path, key)
            self.lines.extend(comment_lines(self.comments.get(child, ()), indent))
            head = f"{indent}{quote_scalar(str(key))}:"
            if isinstance(item, (Mapping, list)) and item:
                self.lines.append(head)
                self.node(item, child, level + 1)
            else:
                self.lines.append(f"{head} {self.inline(item)}")

    def sequence(self, value: list[Any], path: Path, level: int) -> None:
        indent = _INDENT * level
        for index, item in enumerate(value):
            start = len(self.lines)
            self.node(item, (*path, index), level + 1)
            # Turn the item's first content line into "- ..." at this level; comment
            # lines above it move to the dash's column.
            for position in range(start, len(self.lines)):
                line = self.lines[position]
                stripped = line.lstrip(" ")
                if stripped.startswith("#"):
                    self.lines[position] = indent + stripped
                    continue
                self.lines[position] = f"{indent}- {stripped}"
                break
