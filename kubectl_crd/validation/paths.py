"""Where a node is, as a cheap chain, and the ways the server spells it.

A walk passes ``(parent, segment, is_map_key)`` tuples down instead of strings: the
text is made only when an error needs it. kube-openapi and pruning join keys with
``.`` and indexes as ``[i]``; ``field.Path`` (list types, embedded ObjectMeta) writes
a map key of an ``additionalProperties`` map as ``[key]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Chain = tuple[Any, str | int, bool] | None


def child(chain: Chain, key: str) -> Chain:
    return (chain, key, False)


def map_key(chain: Chain, key: str) -> Chain:
    return (chain, key, True)


def index(chain: Chain, position: int) -> Chain:
    return (chain, position, False)


def rerooted(chain: Chain, root: Chain) -> Chain:
    """``chain``, a path from some node, as the path from the root ``root`` is at."""
    steps: list[tuple[str | int, bool]] = []
    while chain is not None:
        chain, segment, is_key = chain
        steps.append((segment, is_key))
    for segment, is_key in reversed(steps):
        root = (root, segment, is_key)
    return root


def segments(chain: Chain) -> list[str | int]:
    out: list[str | int] = []
    while chain is not None:
        chain, segment, _ = chain
        out.append(segment)
    out.reverse()
    return out


def dotted(chain: Chain) -> str:
    """kube-openapi's and pruning's spelling: ``spec.ports[0].name``, map keys dotted."""
    parts: list[str] = []
    for segment in segments(chain):
        if isinstance(segment, int):
            parts.append(f"[{segment}]")
        elif parts:
            parts.append("." + segment)
        else:
            parts.append(segment)
    return "".join(parts)


def field_path(chain: Chain) -> str:
    """``field.Path.String()``: children dotted, indexes and map keys in brackets."""
    parts: list[str] = []
    node = chain
    reversed_parts: list[tuple[str | int, bool]] = []
    while node is not None:
        node, segment, is_key = node
        reversed_parts.append((segment, is_key))
    for segment, is_key in reversed(reversed_parts):
        if isinstance(segment, int) or is_key:
            parts.append(f"[{segment}]")
        elif parts:
            parts.append("." + segment)
        else:
            parts.append(segment)
    return "".join(parts) or "<nil>"


def field_path_steps(text: str) -> list[tuple[str, bool]] | None:
    """A rule's ``fieldPath`` (``.spec.a``, ``['x.y']``) as (name, written in brackets)
    steps, or None when it is not one (``cel/validation.go: ValidFieldPath``'s scanner:
    ``.`` then a name, or ``[`` a single-quoted string ``]``)."""
    tokens = _field_path_tokens(text)
    steps: list[tuple[str, bool]] = []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        if token == "[":
            quoted = tokens[position + 1] if position + 1 < len(tokens) else ""
            closing = tokens[position + 2] if position + 2 < len(tokens) else ""
            if len(quoted) < 2 or quoted[0] != "'" or quoted[-1] != "'" or closing != "]":
                return None
            steps.append((_unescape(quoted[1:-1]), True))
            position += 3
        elif token == ".":
            if position + 1 >= len(tokens):
                return None
            steps.append((tokens[position + 1], False))
            position += 2
        else:
            return None
    return steps


def resolve_field_path(
    text: str, schema: Any, *, brackets: bool = True
) -> tuple[Any, list[tuple[str, bool]]] | str:
    """``cel/validation.go: ValidFieldPath``: the schema node (a raw mapping, or None
    under a boolean ``additionalProperties``) a rule's ``fieldPath`` or a selectable
    field's ``jsonPath`` names, and its steps ((name, a key of an additionalProperties
    map)); or the server's words for why it names none. ``brackets=False``: the
    selectable fields' option that refuses ``['name']``."""
    tokens = _field_path_tokens(text)
    node: Any = schema
    steps: list[tuple[str, bool]] = []
    position = 0
    while position < len(tokens):
        token = tokens[position]
        if token == "[":
            if not brackets:
                return "array notation is not allowed"
            if position + 1 >= len(tokens):
                return "unexpected end of JSON path"
            quoted = tokens[position + 1]
            if len(quoted) < 2 or quoted[0] != "'" or quoted[-1] != "'":
                return f"expected single quoted string but got {quoted}"
            name = _unescape(quoted[1:-1])
            position += 2
        elif token == ".":
            if position + 1 >= len(tokens):
                return "unexpected end of JSON path"
            name = tokens[position + 1]
            position += 2
        else:
            return f"expected [ or . but got: {token}"
        properties = node.get("properties") if isinstance(node, Mapping) else None
        additional = node.get("additionalProperties") if isinstance(node, Mapping) else None
        if isinstance(properties, Mapping) and properties:
            if name not in properties:
                return "does not refer to a valid field"
            node = properties[name]
            steps.append((name, False))
        elif additional is not None:
            node = additional if isinstance(additional, Mapping) else None
            steps.append((name, True))
        else:
            return "does not refer to a valid field"
        if token == "[":
            if position >= len(tokens):
                return "unexpected end of JSON path"
            if tokens[position] != "]":
                return f"expected ] but got {tokens[position]}"
            position += 1
    return node, steps


def _field_path_tokens(text: str) -> list[str]:
    """The delimiters ``.``, ``[`` and ``]`` alone; a single-quoted string whole (to its
    first unescaped quote); any other run of characters up to a delimiter."""
    tokens: list[str] = []
    position = 0
    while position < len(text):
        if text[position] == "'":
            end = position + 1
            while end < len(text) and not (text[end] == "'" and text[end - 1] != "\\"):
                end += 1
            tokens.append(text[position : end + 1])
            position = end + 1
        elif text[position] in ".[]":
            tokens.append(text[position])
            position += 1
        else:
            end = position
            while end < len(text) and text[end] not in ".[]":
                end += 1
            tokens.append(text[position:end])
            position = end
    return tokens


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _unescape(text: str) -> str:
    out: list[str] = []
    position = 0
    while position < len(text):
        char = text[position]
        if char == "\\" and position + 1 < len(text):
            following = text[position + 1]
            out.append(_ESCAPES.get(following, following))
            position += 2
        else:
            out.append(char)
            position += 1
    return "".join(out)
