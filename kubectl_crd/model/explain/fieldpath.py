"""Field paths for explain: parsing ``RESOURCE.a.b`` and walking a published schema.

Parsing follows kubectl ``pkg/explain/explain.go``: the argument is read as the
client-go JSONPath ``{.ARG}`` (one trailing ``.`` is ignored), and every node must be a
field: ``a.b``, ``a\\.b`` (an escaped dot), ``a['b.c']`` (which client-go re-parses as
``.b.c``, so it is two fields). Array indexes, wildcards, filters and recursive
descent are rejected with kubectl's messages.

Walking follows the ``output`` template of kubectl ``pkg/explain/v2/templates/
plaintext.tmpl``: a name is looked up in ``properties``; when the schema has none
with that name the walk goes on, with the same name, into ``items``, then a
non-boolean ``additionalProperties``, then each ``allOf`` alternative in turn. So a
map or an array never consumes a path element: ``spec.containers.name`` is the
``name`` of a container. ``$ref`` is resolved, and a reference already seen since the
last property step is a cycle that ends the walk.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping

from kubectl_crd.model.errors import FieldNotFoundError, FieldPathSyntaxError
from kubectl_crd.model.explain.published import PublishedSchema
from kubectl_crd.model.records import record
from kubectl_crd.model.schema import Schema

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any, TypeGuard

_TERMINATORS = frozenset(" \t\r\n.,[]$@{}")


@record
class FieldStep:
    """One path element found: ``schema`` is the field's schema as published.

    ``parent`` is the (resolved) schema whose ``properties`` hold the field, so
    ``parent.get("required")`` says whether the field is required. ``via`` lists the
    hops kubectl took inside the previous field before finding this name: ``items``,
    ``additionalProperties``, ``allOf[i]`` or a ``$ref``.
    """

    name: str
    parent: Schema
    schema: Schema
    via: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        required = self.parent.get("required")
        return isinstance(required, list) and self.name in required


def parse_fields(text: str, *, first_node_message: str | None = None) -> list[str]:
    """The field names of the JSONPath ``{.text}``, kubectl's ``jsonPathParse`` + checks.

    ``first_node_message`` is kubectl's complaint when a node is not a field; the two
    explain code paths word it differently.
    """
    message = first_node_message or "invalid jsonpath syntax, all nodes must be field nodes"
    text = text.removesuffix(".")
    nodes = _parse_nodes("." + text)
    if not nodes or nodes[0] is None:
        raise FieldPathSyntaxError("invalid jsonpath syntax, first node must be field node")
    if any(node is None for node in nodes):
        raise FieldPathSyntaxError(message)
    return [node for node in nodes if node is not None]


def _parse_nodes(text: str) -> list[str | None]:
    """A small client-go JSONPath reader: field names, or None for any other node."""
    nodes: list[str | None] = []
    pos = 0
    while pos < len(text):
        char = text[pos]
        if text.startswith("..", pos):
            nodes.append(None)  # recursive descent
            pos += 2
            if pos < len(text) and (text[pos].isalnum() or text[pos] == "_"):
                name, pos = _read_field(text, pos)
                nodes.append(name)
            continue
        if char == ".":
            name, pos = _read_field(text, pos + 1)
            nodes.append(None if name == "*" else name)
        elif char == "[":
            end = text.find("]", pos)
            if end < 0 or "\n" in text[pos:end]:
                raise FieldPathSyntaxError("unterminated array")
            inner = text[pos + 1 : end]
            pos = end + 1
            if _is_quoted_key(inner):
                nodes.extend(_parse_nodes("." + inner[1:-1]))
            else:
                nodes.append(None)  # index, slice, union or wildcard
        elif char in " @$":
            pos += 1
        elif char in "\r\n":
            raise FieldPathSyntaxError("unclosed action")
        elif char == "}":
            raise FieldPathSyntaxError("must pass in 1 jsonpath string")
        elif char in "'\"":
            end = text.find(char, pos + 1)
            if end < 0:
                raise FieldPathSyntaxError("unterminated quoted string")
            nodes.append(None)  # a text literal
            pos = end + 1
        elif char.isalnum() or char in "_+-":
            _, pos = _read_field(text, pos)
            nodes.append(None)  # an identifier or a number
        else:
            raise FieldPathSyntaxError(
                f"unrecognized character in action: U+{ord(char):04X} {char!r}"
            )
    return nodes


def _read_field(text: str, pos: int) -> tuple[str, int]:
    chars: list[str] = []
    while pos < len(text):
        char = text[pos]
        if char == "\\":
            if pos + 1 < len(text):
                chars.append(text[pos + 1])
            pos += 2
            continue
        if char in _TERMINATORS:
            break
        chars.append(char)
        pos += 1
    return "".join(chars), pos


def resolve(published: PublishedSchema, schema: Schema) -> Schema:
    """``or (resolveRef $ref) $schema``: the referenced schema, or the schema itself."""
    ref = schema.get("$ref")
    if ref:
        target = published.resolve_ref(ref)
        if target:
            return target
    return schema


def is_map_schema(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """A non-boolean, non-empty ``additionalProperties`` (kubectl's test for a map)."""
    return isinstance(value, Mapping) and bool(value)


def walk(published: PublishedSchema, fields: list[str] | tuple[str, ...]) -> tuple[FieldStep, ...]:
    """Follow ``fields`` from the kind's schema; raise ``FieldNotFoundError`` like kubectl."""
    steps: list[FieldStep] = []
    schema: Schema = published.root
    for name in fields:
        found = _find(published, schema, name, frozenset(), ())
        if found is None:
            raise FieldNotFoundError(name, field=name, found=steps, container=schema)
        steps.append(found)
        schema = found.schema
    return tuple(steps)


def _find(
    published: PublishedSchema,
    schema: Schema,
    name: str,
    history: frozenset[str],
    via: tuple[str, ...],
) -> FieldStep | None:
    ref = schema.get("$ref") or ""
    if ref and ref in history:
        return None  # a cycle
    history = history | {ref}
    resolved = resolve(published, schema)
    if ref:
        via = (*via, f"$ref:{ref}")
    properties = resolved.get("properties")
    if isinstance(properties, Mapping) and properties.get(name):
        return FieldStep(name, resolved, properties[name], via)
    items = resolved.get("items")
    if items and isinstance(items, Mapping):
        return _find(published, items, name, history, (*via, "items"))
    additional = resolved.get("additionalProperties")
    if is_map_schema(additional):
        return _find(published, additional, name, history, (*via, "additionalProperties"))
    for index, branch in enumerate(resolved.get("allOf") or ()):
        if isinstance(branch, Mapping):
            found = _find(published, branch, name, history, (*via, f"allOf[{index}]"))
            if found is not None:
                return found
    return None


def _is_quoted_key(inner: str) -> bool:
    """``'name'``: a map key in brackets (no quote inside; a comma makes it a union)."""
    return (
        len(inner) >= 2
        and inner[0] == inner[-1] == "'"
        and "'" not in inner[1:-1]
        and "," not in inner
    )
