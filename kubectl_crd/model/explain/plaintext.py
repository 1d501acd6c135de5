"""kubectl explain's default ``plaintext`` layout, byte for byte.

A reimplementation of the Go template kubectl renders (``kubectl pkg/explain/v2/
templates/plaintext.tmpl``, unchanged in what it prints for CRDs from kubectl 1.31 to
1.37), applied to the schema kube-apiserver publishes (``published``):

    GROUP:      stable.example.com          (no GROUP line for the core group)
    KIND:       CronTab
    VERSION:    v1
                                            (blank)
    FIELD: cronSpec <string>                (only for a field path; ENUM: lines follow)
                                            (two blank lines)
    DESCRIPTION:
        <descriptions of the node, its allOf, items and map values, wrapped at 76>
        <a line of four spaces>             (or "    <empty>" and no such line)
    FIELDS:                                 (only when there are fields)
      cronSpec\t<string> -required-
        <description wrapped at 78 - indent, or "<no description>">
                                            (blank; --recursive prints no descriptions)

Details that matter for byte equality: tabs are literal (no tabwriter), the text is
wrapped by go-wordwrap (``gotext.word_wrap``), enum values print as Go's ``%v`` (at
most four in a field list, then ``, ....``), field names are sorted by Go's string
order, ``-required-`` comes from the parent's ``required``, and the document ends
with an extra newline. kubectl 1.36 added ``EXTERNAL DOCS:`` blocks, but the API
server never publishes ``externalDocs`` for a CRD (``NewStructural`` drops it) and
meta/v1 has none, so they cannot appear here.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping

from kubectl_crd.model.errors import RenderError
from kubectl_crd.model.explain.fieldpath import is_map_schema, resolve
from kubectl_crd.model.explain.gotext import go_value, indent, word_wrap
from kubectl_crd.model.explain.published import PublishedSchema
from kubectl_crd.model.explain.target import ExplainTarget
from kubectl_crd.model.gvk import GroupVersionKind
from kubectl_crd.model.schema import Schema

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any


def render_plaintext(target: ExplainTarget, *, recursive: bool = False, max_depth: int = 0) -> str:
    """The complete ``kubectl explain`` output for ``target``.

    ``max_depth`` (kubectl 1.37 ``--max-depth``, with ``recursive``) stops the field
    tree after that many levels; 0 means no limit.
    """
    out = [render_header(target.gvk)]
    field = target.field
    if field is not None:
        out.append(render_field_line(target.published, field.name, field.schema))
    out.append(
        render_body(target.published, target.schema, recursive=recursive, max_depth=max_depth)
    )
    out.append("\n")
    return "".join(out)


def render_header(gvk: GroupVersionKind) -> str:
    """The GROUP/KIND/VERSION lines and the blank line after them.

    kubectl writes them before it walks the field path, so they are on stdout even
    when the path turns out not to exist.
    """
    group = f"GROUP:      {gvk.group}\n" if gvk.group else ""
    return f"{group}KIND:       {gvk.kind}\nVERSION:    {gvk.version}\n\n"


def render_field_line(published: PublishedSchema, name: str, schema: Schema) -> str:
    """``FIELD: name <type>``, the ``ENUM:`` lines, and two newlines."""
    type_name = type_guess(published, schema)
    return f"FIELD: {name} <{type_name}>\n{_enum(schema, long_view=True)}\n\n"


def render_body(
    published: PublishedSchema, schema: Schema, *, recursive: bool = False, max_depth: int = 0
) -> str:
    """DESCRIPTION and FIELDS of a node (the template's ``output`` with an empty path)."""
    resolved = resolve(published, schema)
    text = description(published, resolved) or "<empty>"
    out = ["DESCRIPTION:\n", indent(4, word_wrap(text, 76)), "\n"]
    fields: list[str] = []
    _field_list(published, resolved, 1, frozenset(), recursive, max_depth, fields)
    if fields:
        out.append("FIELDS:\n")
        out.extend(fields)
    return "".join(out)


def description(published: PublishedSchema, schema: Schema) -> str:
    """The node's description, then those of its allOf, items and map values, each + ``\\n``."""
    node = resolve(published, schema)
    if not node:
        return ""
    parts: list[str] = []
    if node.get("description"):
        parts.append(f"{node['description']}\n")
    for branch in node.get("allOf") or ():
        if isinstance(branch, Mapping):
            parts.append(description(published, branch))
    items = node.get("items")
    if items and isinstance(items, Mapping):
        parts.append(description(published, items))
    additional = node.get("additionalProperties")
    if is_map_schema(additional):
        parts.append(description(published, additional))
    return "".join(parts)


def type_guess(published: PublishedSchema, schema: Schema) -> str:
    """kubectl's ``typeGuess``: ``string``, ``Object``, ``[]Object``, ``map[string]string``,
    ``ObjectMeta`` (the last dotted part of a ``$ref`` to an object), ..."""
    if not schema:
        raise RenderError("expected schema argument to subtemplate 'typeguess'")
    items = schema.get("items")
    if items:
        return "[]" + type_guess(published, items)
    additional = schema.get("additionalProperties")
    if is_map_schema(additional):
        return "map[string]" + type_guess(published, additional)
    all_of = schema.get("allOf")
    if all_of and not schema.get("properties") and len(all_of) == 1:
        return type_guess(published, all_of[0])
    ref = schema.get("$ref")
    if ref:
        target = published.resolve_ref(ref)
        if not target or not target.get("type") or target.get("type") == "object":
            name = str(ref).split("/")[-1]
            return name.split(".")[-1] or "Object"
        return str(target["type"])
    type_ = schema.get("type")
    if type_ == "object":
        return "Object"
    return str(type_) if type_ else "Object"


def _enum(schema: Schema, *, long_view: bool, indent_amount: int = 0, limit: int = -1) -> str:
    """kubectl's ``extractEnum``: ``ENUM:`` lines, or ``enum: a, b, c, d, ....`` on one line."""
    values = schema.get("enum")
    if not values or not isinstance(values, list):
        return ""
    out = ["ENUM:" if long_view else "\n" + " " * indent_amount + "enum: "]
    for index, value in enumerate(values):
        if limit > -1 and index >= limit:
            out.append(", ....")
            break
        if long_view:
            out.append("\n    ")
        elif index > 0:
            out.append(", ")
        out.append('""' if value == "" and isinstance(value, str) else go_value(value))
    return "".join(out)


def _field_list(
    published: PublishedSchema,
    schema: Schema,
    level: int,
    history: frozenset[str],
    recursive: bool,
    max_depth: int,
    out: list[str],
) -> None:
    """kubectl's ``fieldList``: sorted properties (recursing with ``recursive``), then
    the fields reached through allOf, items and map values, at the same level."""
    ref: Any = schema.get("$ref") or ""
    if ref and ref in history:
        return  # a cycle
    history = history | {ref}
    resolved = resolve(published, schema)
    properties = resolved.get("properties")
    if isinstance(properties, Mapping) and properties:
        required = resolved.get("required")
        required_names = required if isinstance(required, list) else ()
        pad = level * 2
        for name in sorted(properties):
            field = properties[name]
            line = [
                " " * pad,
                name,
                "\t<",
                type_guess(published, field),
                ">",
                " -required-" if name in required_names else "",
                _enum(field, long_view=False, indent_amount=pad, limit=4),
                "\n",
            ]
            if not recursive:
                text = field.get("description") or "<no description>"
                line += [indent(pad + 2, word_wrap(text, 78 - pad)), "\n\n"]
            out.append("".join(line))
            if recursive and (max_depth == 0 or level < max_depth):
                _field_list(published, field, level + 1, history, recursive, max_depth, out)
    for branch in resolved.get("allOf") or ():
        if isinstance(branch, Mapping):
            _field_list(published, branch, level, history, recursive, max_depth, out)
    items = resolved.get("items")
    if items and isinstance(items, Mapping):
        _field_list(published, items, level, history, recursive, max_depth, out)
    additional = resolved.get("additionalProperties")
    if is_map_schema(additional):
        _field_list(published, additional, level, history, recursive, max_depth, out)
