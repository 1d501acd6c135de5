"""``explain -o markdown``: reference documentation for a CRD, fit for a README.

For the resource itself (``explain crontabs -o markdown``) the document has the
names and scope, the versions, the printer columns and the subresources, then one
section per object: the root, then every field that has fields of its own, each with
a table of its fields (name, type, required, description, constraints). Object
fields link to their section. For a field path (``explain crontabs.spec -o
markdown``) only that subtree is documented.

The constraints are ``detailtext.fact_items``, the same facts the terminal shows.
Text from the CRD is escaped for GitHub-flavoured Markdown tables (``|``, HTML
brackets, line breaks as ``<br>``); anchors follow GitHub's heading slugs.

Pure: stdlib only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from kubectl_crd.model.explain.details import (
    ExplainDetails,
    FieldFacts,
    ResourceFacts,
    escape_field,
    explain_details,
)
from kubectl_crd.model.explain.detailtext import FactItem, fact_items
from kubectl_crd.model.explain.target import ExplainTarget
from kubectl_crd.model.styled import Style

# github-slugger: lower case, drop what is not a letter, digit, space, "-" or "_".
_SLUG_DROP = re.compile(r"[^\w\- ]", re.UNICODE)


class Slugger:
    """GitHub's heading anchors: a repeated slug gets ``-1``, ``-2``, ... appended."""

    def __init__(self) -> None:
        self._occurrences: dict[str, int] = {}

    def slug(self, heading: str) -> str:
        original = _SLUG_DROP.sub("", heading.lower()).replace(" ", "-")
        result = original
        while result in self._occurrences:
            self._occurrences[original] += 1
            result = f"{original}-{self._occurrences[original]}"
        self._occurrences[result] = 0
        return result


def code(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    if not text:
        return "` `"
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def cell(text: str) -> str:
    """Text for a table cell: ``|`` escaped, HTML brackets as entities, paragraphs
    (blank lines) as ``<br><br>``; a single line break is a soft wrap, as in
    Markdown itself (Go doc comments, the usual source of CRD descriptions, wrap)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = text.replace("|", "\\|").replace("\r\n", "\n").strip()
    paragraphs = re.split(r"\n[ \t]*\n+", text)
    return "<br><br>".join(" ".join(p.split("\n")) for p in paragraphs)


def prose(text: str) -> str:
    """A description as a Markdown paragraph (HTML brackets escaped)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").strip()


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out.extend("| " + " | ".join(row) + " |" for row in rows)
    return out


class _Section:
    """One heading of the document: an object's facts and, collected on the way, its fields."""

    __slots__ = ("facts", "fields", "slug", "title")

    def __init__(self, facts: FieldFacts, title: str) -> None:
        self.facts = facts
        self.title = title
        self.slug = ""
        self.fields: list[FieldFacts] = []


def render_markdown(target: ExplainTarget) -> str:
    """The Markdown reference for ``target``'s resource, or for the subtree of a field."""
    details = explain_details(target, recursive=True)
    kind = target.gvk.kind
    out: list[str] = []
    if details.crd is not None:
        out.append(f"# {kind}")
        out.append("")
        if details.node.description:
            out += [prose(details.node.description), ""]
        out += _resource_sections(details.crd, target.gvk.api_version)
    else:
        path = ".".join(escape_field(name) for name in target.path)
        out += [f"# {kind} {code(path)}", ""]
        out += [f"Field {code(path)} of {code(target.gvk.api_version)} {code(kind)}.", ""]
        if details.node.description:
            out += [prose(details.node.description), ""]
    out += _field_sections(details, kind)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _resource_sections(crd: ResourceFacts, api_version: str) -> list[str]:
    rows = [
        ("API version", code(api_version)),
        ("Kind", f"{code(crd.kind)} (list: {code(crd.list_kind)})"),
        ("Resource", f"{code(crd.plural)} (singular: {code(crd.singular)})"),
        ("Scope", crd.scope),
    ]
    if crd.short_names:
        rows.append(("Short names", ", ".join(code(n) for n in crd.short_names)))
    if crd.categories:
        rows.append(("Categories", ", ".join(code(n) for n in crd.categories)))
    out = [*table(("", ""), rows), "", "## Versions", ""]
    version_rows = []
    for version in crd.versions:
        notes = []
        if version.preferred:
            notes.append("preferred")
        if version.explained:
            notes.append("documented here")
        if version.deprecated:
            notes.append("**deprecated**: " + cell(version.deprecation_warning))
        version_rows.append(
            (
                code(version.name),
                "yes" if version.served else "no",
                "yes" if version.storage else "no",
                "; ".join(notes),
            )
        )
    out += table(("Version", "Served", "Storage", "Notes"), version_rows)
    out += ["", "## Printer columns", ""]
    if crd.printer_columns:
        out += ["Shown by `kubectl get`:", ""]
        column_rows = []
        for column in crd.printer_columns:
            notes = [cell(column.description)] if column.description else []
            if column.priority:
                notes.append("only with `-o wide`")
            if column.format:
                notes.append(f"format {code(column.format)}")
            column_rows.append(
                (cell(column.name), column.type, code(column.json_path), "; ".join(notes))
            )
        out += table(("Column", "Type", "JSONPath", "Notes"), column_rows)
    else:
        out.append("None declared: `kubectl get` shows NAME and AGE.")
    out += ["", "## Subresources", ""]
    sub = crd.subresources
    if sub.status:
        out.append(
            "- **status**: `/status`; the status is written separately, and writes to "
            "the object ignore it."
        )
    if sub.scale is not None:
        parts = [
            f"spec replicas {code(sub.scale.spec_replicas_path)}",
            f"status replicas {code(sub.scale.status_replicas_path)}",
        ]
        if sub.scale.label_selector_path:
            parts.append(f"label selector {code(sub.scale.label_selector_path)}")
        out.append(
            "- **scale**: `/scale` (`kubectl scale`, autoscalers): " + ", ".join(parts) + "."
        )
    if not sub.status and sub.scale is None:
        out.append("None: the status is written with the rest of the object; no `/scale`.")
    if crd.selectable_fields:
        out += ["", "## Selectable fields", "", "For `kubectl get --field-selector`:", ""]
        out += [f"- {code(path)}" for path in crd.selectable_fields]
    out.append("")
    return out


def _field_sections(details: ExplainDetails, kind: str) -> list[str]:
    root = details.node
    sections: dict[tuple[str, ...], _Section] = {
        root.path: _Section(root, kind if not root.path else ".".join(root.path))
    }
    for facts in details.children:
        parent = sections.get(facts.path[:-1])
        if parent is None:
            continue  # below a node documented elsewhere (a standard type)
        parent.fields.append(facts)
        sections[facts.path] = _Section(facts, ".".join(escape_field(p) for p in facts.path))
    documented = [s for s in sections.values() if s.fields or s.facts is root]
    slugger = Slugger()
    for heading in ("Versions", "Printer columns", "Subresources", "Selectable fields"):
        if details.crd is not None:
            slugger.slug(heading)
    slugger.slug("Fields")
    for section in documented:
        section.slug = slugger.slug(section.title)
    links = {section.facts.path: section.slug for section in documented}
    out = ["## Fields", ""]
    for section in documented:
        out += [f"### {code(section.title)}", ""]
        if section.facts is not root and section.facts.description:
            out += [prose(section.facts.description), ""]
        items = fact_items(section.facts, with_notes=False)
        if items:
            out += [_bullet(item) for item in items] + [""]
        if not section.fields:
            continue
        rows = []
        for facts in section.fields:
            name = code(facts.name)
            if facts.path in links:
                name = f"[{name}](#{links[facts.path]})"
            rows.append(
                (
                    name,
                    code(facts.type),
                    "yes" if facts.required else "",
                    cell(facts.description),
                    "<br>".join(_inline(item) for item in fact_items(facts, with_notes=False)),
                )
            )
        out += table(("Field", "Type", "Required", "Description", "Constraints"), rows)
        out.append("")
    return out


def _inline(item: FactItem) -> str:
    """One fact in a table cell: ``label: value``, a CEL rule's parts after it."""
    if item.style is Style.CODE:
        value = code(item.value.replace("\n", " ")).replace("|", "\\|")
    else:
        value = cell(item.value)
    text = f"{item.label}: {value}"
    for sub in item.sub:
        text += "<br>&nbsp;&nbsp;" + _inline(sub)
    return text


def _bullet(item: FactItem) -> str:
    value = code(item.value) if item.style is Style.CODE else prose(item.value)
    return "\n".join([f"- {item.label}: {value}", *(f"  {_bullet(sub)}" for sub in item.sub)])
