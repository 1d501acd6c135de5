"""The "beyond kubectl explain" section: ``ExplainDetails`` laid out as styled lines.

Printed after kubectl's own output, behind a separator line, unless ``--kubectl``::

    ---- beyond kubectl explain (--kubectl omits this) ----

    RESOURCE: / VERSIONS: / PRINTER COLUMNS: / SUBRESOURCES:   (at the root only)

    FIELD DETAILS:
      crontabs.spec.replicas <integer>
        default:  1
        minimum:  0

Only nodes with something to say get an entry: kubectl already shows type, required
and description. ``fact_items`` (one ``FactItem`` per fact, in a fixed order) is also
what the Markdown reference uses, so both say the same things.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubectl_crd.model.explain.details import (
    ExplainDetails,
    FieldFacts,
    ResourceFacts,
    ValidationRule,
)
from kubectl_crd.model.records import record
from kubectl_crd.model.schema import plain as plain_data
from kubectl_crd.model.styled import Line, Style, line, plain

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

SEPARATOR = "---- beyond kubectl explain (--kubectl omits this) ----"
WIDTH = 80

_LIST_TYPES = {
    "atomic": "atomic: replaced as a whole (server-side apply owns it as one value)",
    "set": "set: unique scalar items, merged item by item",
}
_MAP_TYPES = {
    "atomic": "atomic: replaced as a whole (server-side apply owns it as one value)",
    "granular": "granular: each key is merged and owned separately",
}


@record
class FactItem:
    """One fact: ``label`` (a schema keyword or a short name), ``value`` as text.

    ``style`` is ``CODE`` for literal values (JSON values, patterns, CEL), ``VALUE``
    for prose, ``NOTE`` for explanations.
    ``sub`` holds the parts of a CEL rule (message, reason, ...).
    """

    label: str
    value: str
    style: Style = Style.VALUE
    sub: tuple[FactItem, ...] = ()


def json_text(value: Any) -> str:
    """A schema value (default, example, enum member) as compact JSON."""
    import json  # here, not at the top: explain pays for it only when a value is shown

    return json.dumps(plain_data(value), ensure_ascii=False, separators=(", ", ": "), default=str)


def fact_items(facts: FieldFacts, *, with_notes: bool = True) -> list[FactItem]:
    """The facts of a node, in display order.

    With ``with_notes`` the notes (full sentences from ``target.schema_notes``) stand
    in for the int-or-string, embedded-resource and preserve-unknown-fields flags they
    explain; without, those flags get short items of their own.
    """
    items: list[FactItem] = []
    if facts.title:
        items.append(FactItem("title", facts.title))
    if facts.has_default:
        items.append(FactItem("default", json_text(facts.default), Style.CODE))
    if facts.enum:
        items.append(FactItem("enum", ", ".join(json_text(v) for v in facts.enum), Style.CODE))
    if facts.format:
        items.append(FactItem("format", facts.format))
    if facts.pattern:
        items.append(FactItem("pattern", facts.pattern, Style.CODE))
    for bound in facts.bounds:
        value = json_text(bound.value) + (" (exclusive)" if bound.exclusive else "")
        items.append(FactItem(bound.keyword, value, Style.CODE))
    if facts.unique_items:
        items.append(FactItem("uniqueItems", "true"))
    if facts.nullable:
        items.append(FactItem("nullable", "true: null is accepted and kept"))
    if facts.has_example:
        items.append(FactItem("example", json_text(facts.example), Style.CODE))
    if facts.list_type:
        if facts.list_type == "map":
            keys = ", ".join(facts.list_map_keys) or "(no keys)"
            text = f"map: items are merged by their keys: {keys}"
        else:
            text = _LIST_TYPES.get(facts.list_type, facts.list_type)
        items.append(FactItem("list-type", text))
    elif facts.list_map_keys:
        items.append(FactItem("list-map-keys", ", ".join(facts.list_map_keys)))
    if facts.map_type:
        items.append(FactItem("map-type", _MAP_TYPES.get(facts.map_type, facts.map_type)))
    explained_by_notes = with_notes and bool(facts.notes)
    if not explained_by_notes:
        if facts.int_or_string:
            items.append(FactItem("int-or-string", "an integer or a string"))
        if facts.embedded_resource:
            items.append(
                FactItem("embedded-resource", "a complete object with apiVersion, kind, metadata")
            )
        if facts.preserve_unknown_fields:
            text = (
                "free-form: any fields are kept, none is described"
                if facts.free_form
                else "fields not listed here are kept, not pruned"
            )
            items.append(FactItem("preserve-unknown-fields", text))
    items.extend(rule_item(rule) for rule in facts.rules)
    for keyword, value in facts.combinators:
        items.append(FactItem(keyword, _combinator_text(keyword, value), Style.CODE))
    if facts.external_docs:
        items.append(FactItem("docs", facts.external_docs))
    if with_notes:
        items.extend(FactItem("note", note, Style.NOTE) for note in facts.notes)
    return items


def rule_item(rule: ValidationRule) -> FactItem:
    sub: list[FactItem] = []
    if rule.message:
        sub.append(FactItem("message", rule.message))
    if rule.message_expression:
        sub.append(FactItem("messageExpression", rule.message_expression, Style.CODE))
    if rule.reason:
        sub.append(FactItem("reason", rule.reason))
    if rule.field_path:
        sub.append(FactItem("fieldPath", rule.field_path))
    if rule.optional_old_self is not None:
        sub.append(FactItem("optionalOldSelf", json_text(rule.optional_old_self)))
    return FactItem("rule", rule.rule, Style.CODE, tuple(sub))


def _combinator_text(keyword: str, value: Any) -> str:
    """``oneOf``/``anyOf`` of ``required`` lists in words, anything else as JSON."""
    branches = value if isinstance(value, list) else None
    if branches and keyword in ("oneOf", "anyOf"):
        sets = []
        for branch in branches:
            if not isinstance(branch, Mapping) or set(branch) != {"required"}:
                break
            sets.append(", ".join(str(name) for name in branch["required"]))
        else:
            lead = "exactly one of" if keyword == "oneOf" else "at least one of"
            return f"{lead}: " + " | ".join(sets) + " (fields set)"
    return json_text(value)


# -- layout -------------------------------------------------------------------------


def details_lines(details: ExplainDetails) -> list[Line]:
    """The whole section: separator, the CRD's settings at the root, field details."""
    out: list[Line] = [line((SEPARATOR, Style.SEPARATOR)), ()]
    if details.crd is not None:
        out.extend(resource_lines(details.crd))
    out.extend(field_lines(details))
    return out


def render_details(details: ExplainDetails) -> str:
    """``details_lines`` as plain text."""
    return plain(details_lines(details))


def field_lines(details: ExplainDetails) -> list[Line]:
    out: list[Line] = [line(("FIELD DETAILS:", Style.HEADING))]
    entries = [facts for facts in details.nodes if facts.has_extras]
    if not entries:
        out.append(
            line(
                "    ",
                ("nothing more: no default, constraint, CEL rule or note", Style.MUTED),
            )
        )
        out.append(())
    for facts in entries:
        out.extend(entry_lines(details, facts))
        out.append(())
    return out


def entry_lines(details: ExplainDetails, facts: FieldFacts, indent: int = 2) -> list[Line]:
    """One node: ``path <type> -required-`` and its facts below it."""
    heading: list[tuple[str, Style]] = [
        (" " * indent, Style.PLAIN),
        (details.display_path(facts), Style.PATH),
        (f" <{facts.type}>", Style.TYPE),
    ]
    if facts.required:
        heading.append((" -required-", Style.REQUIRED))
    if not facts.declared:
        heading.append((" (not declared by the CRD: added by the API server)", Style.MUTED))
    return [tuple(heading), *item_lines(fact_items(facts), indent + 2)]


def item_lines(items: Sequence[FactItem], indent: int) -> list[Line]:
    """``label:`` then the value, values aligned; long notes wrapped, code never."""
    if not items:
        return []
    width = max(len(item.label) for item in items) + 2
    out: list[Line] = []
    for item in items:
        label = f"{item.label}:".ljust(width)
        column = indent + width
        if item.style is Style.NOTE:
            chunks = _wrap(item.value, WIDTH - column) or [""]
        else:
            chunks = item.value.split("\n")
        first, *rest = chunks
        label_style = Style.NOTE if item.style is Style.NOTE else Style.LABEL
        out.append(line(" " * indent, (label, label_style), (first, item.style)))
        out.extend(line(" " * column, (chunk, item.style)) for chunk in rest)
        out.extend(item_lines(item.sub, indent + 2))
    return out


def _wrap(text: str, width: int) -> list[str]:
    """Prose wrapped at ``width`` (at least 30), never breaking words or URLs."""
    import textwrap  # here, not at the top: it imports re (~4 ms), often not needed

    return textwrap.wrap(text, max(width, 30), break_long_words=False, break_on_hyphens=False)


def resource_lines(crd: ResourceFacts) -> list[Line]:
    out: list[Line] = [line(("RESOURCE:", Style.HEADING))]
    out.append(line("    ", (crd.name, Style.PATH), f" ({crd.scope})"))
    names = (
        f"kind {crd.kind}, list kind {crd.list_kind}, plural {crd.plural}, singular {crd.singular}"
    )
    out.append(line("    ", names))
    if crd.short_names:
        out.append(line("    ", ("short names: ", Style.LABEL), ", ".join(crd.short_names)))
    if crd.categories:
        out.append(line("    ", ("categories: ", Style.LABEL), ", ".join(crd.categories)))
    out.append(())
    out.extend(version_lines(crd))
    out.extend(printer_column_lines(crd))
    out.extend(subresource_lines(crd))
    if crd.selectable_fields:
        out.append(line(("SELECTABLE FIELDS:", Style.HEADING), " (kubectl get --field-selector)"))
        out.extend(line("    ", (path, Style.CODE)) for path in crd.selectable_fields)
        out.append(())
    return out


def version_lines(crd: ResourceFacts) -> list[Line]:
    out: list[Line] = [line(("VERSIONS:", Style.HEADING))]
    width = max(len(v.name) for v in crd.versions) + 3
    for version in crd.versions:
        flags = [
            flag
            for flag, on in (
                ("served", version.served),
                ("not served", not version.served),
                ("storage", version.storage),
                ("preferred", version.preferred),
            )
            if on
        ]
        spans: list[tuple[str, Style]] = [
            ("    ", Style.PLAIN),
            (version.name.ljust(width), Style.PATH),
            (", ".join(flags), Style.PLAIN),
        ]
        if version.deprecated:
            spans.append((", deprecated", Style.WARNING))
        if version.explained:
            spans.append(("  (explained here)", Style.MUTED))
        out.append(tuple(spans))
        if version.deprecation_warning:
            out.extend(
                item_lines(
                    [FactItem("warning", version.deprecation_warning, Style.WARNING)], 4 + width
                )
            )
    out.append(())
    return out


def printer_column_lines(crd: ResourceFacts) -> list[Line]:
    out: list[Line] = [line(("PRINTER COLUMNS:", Style.HEADING), " (kubectl get)")]
    columns = crd.printer_columns
    if not columns:
        out.append(line("    ", ("none declared: kubectl get shows NAME and AGE", Style.MUTED)))
        out.append(())
        return out
    rows = [("NAME", "TYPE", "JSONPATH")] + [(c.name, c.type, c.json_path) for c in columns]
    widths = [max(len(row[i]) for row in rows) + 3 for i in range(2)]
    out.append(
        line("    ", (rows[0][0].ljust(widths[0]) + rows[0][1].ljust(widths[1]) + "JSONPATH",
                      Style.LABEL))
    )  # fmt: skip
    for column in columns:
        spans: list[tuple[str, Style]] = [
            ("    ", Style.PLAIN),
            (column.name.ljust(widths[0]), Style.PATH),
            (column.type.ljust(widths[1]), Style.TYPE),
            (column.json_path, Style.CODE),
        ]
        extra = []
        if column.priority:
            extra.append(f"priority {column.priority}: only with -o wide")
        if column.format:
            extra.append(f"format {column.format}")
        if extra:
            spans.append(("  (" + "; ".join(extra) + ")", Style.MUTED))
        out.append(tuple(spans))
        indent = 4 + widths[0]
        for chunk in _wrap(column.description, WIDTH - indent):
            out.append(line(" " * indent, (chunk, Style.MUTED)))
    out.append(())
    return out


def subresource_lines(crd: ResourceFacts) -> list[Line]:
    out: list[Line] = [line(("SUBRESOURCES:", Style.HEADING))]
    sub = crd.subresources
    if not sub.status and sub.scale is None:
        out.append(line("    ", ("none: status is written with the rest; no /scale", Style.MUTED)))
    if sub.status:
        out.append(
            line(
                "    ",
                ("status", Style.PATH),
                "   /status: status is written separately; writes to the object ignore it",
            )
        )
    if sub.scale is not None:
        scale = sub.scale
        out.append(line("    ", ("scale", Style.PATH), "    /scale (kubectl scale, autoscalers):"))
        parts = [
            ("spec replicas", scale.spec_replicas_path),
            ("status replicas", scale.status_replicas_path),
        ]
        if scale.label_selector_path:
            parts.append(("label selector", scale.label_selector_path))
        items = [FactItem(label, path, Style.CODE) for label, path in parts]
        out.extend(item_lines(items, 13))
    out.append(())
    return out
