"""The one YAML writer: plain data as block-style YAML, optionally with comments.

Used for every YAML the tool writes (``explain -o yaml``, ``sample``, and the results
of later commands). Block style, keys in the order given (not sorted), no line
folding, multi-line strings as literal blocks (``|``, ``|-``) when that keeps them
exact, comments per path above the key they describe. Stdlib only, so writing YAML
never imports ruamel.yaml.

Quoting: ``kubectl`` reads YAML with go-yaml (YAML 1.1 rules, through
``sigs.k8s.io/yaml``), and other tools with YAML 1.2 readers. A string is written
plain only when it is text no reader can take for anything else (a letter, ``_`` or
``/`` first; no line break, control character, ``": "``, ``" #"``, trailing ``:`` or
outer whitespace) and the go-yaml resolver ``model.yamlscalars.resolve_plain`` (tested against
the API server) reads it back as the same string, so ``yes``, ``on`` and ``null`` are
quoted; everything else is double-quoted with escapes, valid YAML 1.1 and 1.2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from kubectl_crd.model.schema import Path
from kubectl_crd.model.yamlscalars import resolve_plain

# Plain text a YAML 1.1 or 1.2 reader cannot take for anything else: it starts with a
# letter, "_" or "/" (so never a number, date, indicator or quote), has no line break
# or control character, no ": " or " #" (a key or a comment), no trailing ":" and no
# whitespace at either end.
_PLAIN_TEXT = re.compile(r"^[^\W\d]|^[_/]")
_BREAKS_PLAIN = re.compile(r": | #|:$|^\s|\s$")
_INDENT = "  "


@lru_cache(maxsize=8192)
def quote_scalar(value: str) -> str:
    """``value`` as a YAML scalar that go-yaml and YAML 1.2 readers read back as it
    (kept for the strings seen last: a document's keys and values repeat, and the dev
    loop's diffs and ``--out`` files dump thousands of objects)."""
    if (
        _PLAIN_TEXT.match(value)
        and value.isprintable()
        and not _BREAKS_PLAIN.search(value)
        and resolve_plain(value) == value
    ):
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


def literal_block(text: str) -> tuple[str, list[str]] | None:
    """``text`` as a literal block (its indicator and lines), where that is exact.

    Several lines, none starting the block with a space or tab (the indentation would
    be misread), no trailing blanks (a reader keeps them, an editor would not), only
    printable characters, and at most one final line break (``|`` keeps one, ``|-``
    none).
    """
    body = text.removesuffix("\n")
    if "\n" not in body or body.endswith("\n") or text.startswith((" ", "\t", "\n")):
        return None
    lines = body.split("\n")
    if any(line != line.rstrip() or not line.isprintable() for line in lines):
        return None
    return ("|" if text.endswith("\n") else "|-"), lines


def comment_lines(lines: Sequence[str], indent: str) -> list[str]:
    """``# ``-prefixed lines; anything that YAML could read as a line break is flattened."""
    out = []
    for line in lines:
        text = " ".join(line.split())  # split() also breaks on \x85, \u2028, \u2029
        text = "".join(c for c in text if c.isprintable())
        out.append(f"{indent}# {text}".rstrip())
    return out


def dump_yaml(
    value: Any,
    *,
    comments: Mapping[Path, Sequence[str]] | None = None,
    header: Sequence[str] = (),
) -> str:
    """One YAML document (no ``---``) of JSON-shaped ``value``, with an optional header
    and comments per path (``("spec", "ports", 0, "name")``) above their keys."""
    lines = comment_lines(header, "")
    _Emitter(comments or {}, lines).node(value, (), 0)
    return "\n".join(lines) + "\n"


class _Emitter:
    def __init__(self, comments: Mapping[Path, Sequence[str]], lines: list[str]) -> None:
        self.comments = comments
        self.lines = lines

    def node(self, value: Any, path: Path, level: int) -> None:
        indent = _INDENT * level
        block = literal_block(value) if isinstance(value, str) else None
        if isinstance(value, Mapping) and value:
            self.mapping(value, path, level)
        elif isinstance(value, list | tuple) and value:
            self.sequence(value, path, level)
        elif block is not None:
            # Here only as a sequence item ("- |", its lines under the item) or a
            # whole document; a mapping's values are written by ``mapping``.
            self.lines.append(indent + block[0])
            self.block_lines(block[1], max(level, 1))
        else:
            self.lines.append(indent + self.inline(value))

    def block_lines(self, lines: list[str], level: int) -> None:
        indent = _INDENT * level
        self.lines.extend(indent + line if line else "" for line in lines)

    @staticmethod
    def inline(value: Any) -> str:
        if isinstance(value, Mapping):
            return "{}"
        if isinstance(value, list | tuple):
            return "[]"
        return scalar(value)

    def mapping(self, value: Mapping[Any, Any], path: Path, level: int) -> None:
        indent = _INDENT * level
        for key, item in value.items():
            child = (*path, key)
            self.lines.extend(comment_lines(self.comments.get(child, ()), indent))
            head = f"{indent}{quote_scalar(str(key))}:"
            block = literal_block(item) if isinstance(item, str) else None
            if isinstance(item, Mapping | list | tuple) and item:
                self.lines.append(head)
                self.node(item, child, level + 1)
            elif block is not None:
                self.lines.append(f"{head} {block[0]}")
                self.block_lines(block[1], level + 1)
            else:
                self.lines.append(f"{head} {self.inline(item)}")

    def sequence(self, value: Sequence[Any], path: Path, level: int) -> None:
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
