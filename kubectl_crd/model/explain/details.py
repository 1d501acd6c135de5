"""What a CRD says about a field beyond kubectl explain: the facts, as plain data.

kubectl explain renders only a field's type, description, ``required`` and enum
(``plaintext``). Everything else a CRD author writes into the schema, and the
resource-level settings of the CRD, is collected here as ``FieldFacts`` and
``ResourceFacts`` for renderers (``detailtext`` for the terminal, ``markdown``,
the interactive explorer) to lay out:

- per field: default, example, enum, format, pattern, bounds (minimum/maximum,
  lengths, items, properties, multipleOf, uniqueItems), nullable, int-or-string,
  preserve-unknown-fields, embedded-resource, list type and map keys, map type, every
  CEL rule (``x-kubernetes-validations``) with its message, value-validation
  combinators (``allOf``/``anyOf``/``oneOf``/``not``), title and external docs, and
  the notes of ``target.schema_notes`` (free-form nodes, int-or-string, ...);
- at the root: names and scope, every version (served, storage, deprecated and the
  warning clients see), the printer columns, the subresources and selectable fields.

Facts come from the CRD's own schema for the explained version (the raw
``openAPIV3Schema``), not from the published document: the server drops ``example``
and ``externalDocs`` there and unfolds int-or-string into ``anyOf``. Names, types
and ``required`` come from the published document, as in kubectl's output, and a node
the CRD does not declare (``metadata``, ``apiVersion``, ``kind``, the fields of an
embedded resource) is described from the published document instead.

Which fields: the explained node, then its children in kubectl's FIELDS order; with
``recursive`` all descendants (up to ``max_depth`` levels, as ``--max-depth``), not
descending into standard Kubernetes types (a ``$ref`` such as ObjectMeta).

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from kubectl_crd.model.crd import CustomResourceDefinition, PrinterColumn, Subresources
from kubectl_crd.model.errors import CRDError, FieldNotFoundError
from kubectl_crd.model.explain.fieldpath import is_map_schema, resolve, walk
from kubectl_crd.model.explain.plaintext import type_guess
from kubectl_crd.model.explain.published import PublishedSchema
from kubectl_crd.model.explain.target import ExplainTarget, field_entries, schema_notes
from kubectl_crd.model.gvk import GroupVersionKind
from kubectl_crd.model.records import record
from kubectl_crd.model.schema import INT_OR_STRING_ANY_OF, FieldPath, Schema, plain

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any


# Bounds in the order they are shown; the boolean ``exclusiveMinimum/Maximum`` of
# OpenAPI v3.0 qualifies ``minimum``/``maximum`` instead of standing alone.
_BOUND_KEYWORDS = ("minimum", "maximum", "multipleOf", "minLength", "maxLength", "minItems",
                   "maxItems", "minProperties", "maxProperties")  # fmt: skip
_COMBINATORS = ("allOf", "anyOf", "oneOf", "not")
# What ``x-kubernetes-int-or-string`` carries; not worth repeating as a constraint.


@record
class Bound:
    """One numeric constraint: ``keyword`` is the schema keyword (``minLength``, ...)."""

    keyword: str
    value: Any
    exclusive: bool = False


@record
class ValidationRule:
    """One ``x-kubernetes-validations`` entry (a CEL rule and what it reports)."""

    rule: str
    message: str = ""
    message_expression: str = ""
    reason: str = ""
    field_path: str = ""
    optional_old_self: bool | None = None


@record
class FieldFacts:
    """What the schema says about one node. ``path`` is relative to the resource.

    ``declared`` is False for nodes the API server adds (``metadata``, ``kind``,
    ``apiVersion``, the fields of standard types): their facts come from the
    published document. ``has_default``/``has_example`` tell a ``null``, ``0`` or
    ``""`` default from none.
    """

    path: FieldPath
    type: str
    required: bool = False
    declared: bool = True
    description: str = ""
    has_default: bool = False
    default: Any = None
    has_example: bool = False
    example: Any = None
    enum: tuple[Any, ...] = ()
    format: str = ""
    pattern: str = ""
    bounds: tuple[Bound, ...] = ()
    unique_items: bool = False
    nullable: bool = False
    int_or_string: bool = False
    preserve_unknown_fields: bool = False
    embedded_resource: bool = False
    free_form: bool = False
    list_type: str = ""
    list_map_keys: tuple[str, ...] = ()
    map_type: str = ""
    rules: tuple[ValidationRule, ...] = ()
    combinators: tuple[tuple[str, Any], ...] = ()
    title: str = ""
    external_docs: str = ""
    notes: tuple[str, ...] = ()
    standard_type: bool = False

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else ""

    @property
    def has_extras(self) -> bool:
        """True when there is anything to say beyond type, required and description."""
        return bool(
            self.has_default
            or self.has_example
            or self.enum
            or self.format
            or self.pattern
            or self.bounds
            or self.unique_items
            or self.nullable
            or self.int_or_string
            or self.preserve_unknown_fields
            or self.embedded_resource
            or self.list_type
            or self.list_map_keys
            or self.map_type
            or self.rules
            or self.combinators
            or self.title
            or self.external_docs
            or self.notes
        )


@record
class VersionFacts:
    name: str
    served: bool
    storage: bool
    deprecated: bool = False
    deprecation_warning: str = ""
    preferred: bool = False
    explained: bool = False


@record
class ResourceFacts:
    """The CRD-level settings shown with the root of a resource."""

    name: str
    group: str
    kind: str
    list_kind: str
    plural: str
    singular: str
    short_names: tuple[str, ...]
    categories: tuple[str, ...]
    scope: str
    versions: tuple[VersionFacts, ...]
    printer_columns: tuple[PrinterColumn, ...]
    subresources: Subresources
    selectable_fields: tuple[str, ...]


@record
class ExplainDetails:
    """The facts for one explain request: the node, its children, the CRD at the root."""

    resource: str
    node: FieldFacts
    children: tuple[FieldFacts, ...]
    crd: ResourceFacts | None = None

    def display_path(self, facts: FieldFacts) -> str:
        """``plural.a.b``: what ``kubectl crd explain`` accepts for that node."""
        return ".".join((self.resource, *(escape_field(name) for name in facts.path)))

    @property
    def nodes(self) -> tuple[FieldFacts, ...]:
        return (self.node, *self.children)


def escape_field(name: str) -> str:
    """A field name as a path element: a dot inside a name is written ``\\.``."""
    return name.replace("\\", "\\\\").replace(".", "\\.")


def deprecation_warning(crd: CustomResourceDefinition, version: str) -> str:
    """The warning clients get for a deprecated version (the server's default when unset).

    apiextensions-apiserver ``customresource_handler.go``: ``"%s/%s %s is deprecated"``
    of group, version and kind when ``deprecationWarning`` is not set.
    """
    found = crd.version(version)
    if found is None or not found.deprecated:
        return ""
    return found.deprecation_warning or f"{crd.group}/{version} {crd.names.kind} is deprecated"


def resource_facts(target: ExplainTarget) -> ResourceFacts:
    crd = target.crd
    try:
        preferred = crd.preferred_version.name
    except CRDError:  # a CRD that serves no version has no preferred one
        preferred = ""
    version = crd.version(target.version)
    return ResourceFacts(
        name=crd.name,
        group=crd.group,
        kind=crd.names.kind,
        list_kind=crd.names.list_kind,
        plural=crd.names.plural,
        singular=crd.names.singular,
        short_names=crd.names.short_names,
        categories=crd.names.categories,
        scope=crd.scope,
        versions=tuple(
            VersionFacts(
                name=v.name,
                served=v.served,
                storage=v.storage,
                deprecated=v.deprecated,
                deprecation_warning=deprecation_warning(crd, v.name),
                preferred=v.name == preferred,
                explained=v.name == target.version,
            )
            for v in crd.versions
        ),
        printer_columns=version.printer_columns if version else (),
        subresources=version.subresources if version else Subresources(),
        selectable_fields=version.selectable_fields if version else (),
    )


def explain_details(
    target: ExplainTarget, *, recursive: bool = False, max_depth: int = 0
) -> ExplainDetails:
    """The facts for ``target``: its node, its children (all descendants with
    ``recursive``, ``max_depth`` levels deep when not 0) and, at the root, the CRD."""
    published = target.published
    raw = declared_node(target)
    step = target.field
    node = node_facts(
        published,
        target.path,
        target.schema,
        raw,
        required=step.required if step else False,
        display=target.display_path,
    )
    children = tuple(
        _descendants(
            published,
            target.path,
            target.schema,
            raw,
            resource=target.crd.names.plural,
            recursive=recursive,
            max_depth=max_depth,
        )
    )
    crd = resource_facts(target) if not target.path else None
    return ExplainDetails(target.crd.names.plural, node, children, crd)


def node_facts(
    published: PublishedSchema,
    path: FieldPath,
    schema: Schema,
    raw: Schema | None,
    *,
    required: bool = False,
    display: str = "",
) -> FieldFacts:
    """The facts of one node: ``schema`` as published, ``raw`` as the CRD declares it
    (None when it does not: the API server adds the node)."""
    node = raw if raw is not None else effective_schema(published, schema)
    resolved = published.root if not path else resolve(published, schema)
    return FieldFacts(
        path=path,
        type=type_guess(published, schema),
        required=required,
        declared=raw is not None,
        description=str(node.get("description") or resolved.get("description") or ""),
        has_default="default" in node,
        default=node.get("default"),
        has_example="example" in node,
        example=node.get("example"),
        enum=tuple(node.get("enum") or ()),
        format=str(node.get("format") or ""),
        pattern=str(node.get("pattern") or ""),
        bounds=_bounds(node),
        unique_items=bool(node.get("uniqueItems")),
        nullable=bool(node.get("nullable")),
        int_or_string=bool(node.get("x-kubernetes-int-or-string")),
        preserve_unknown_fields=bool(node.get("x-kubernetes-preserve-unknown-fields")),
        embedded_resource=bool(node.get("x-kubernetes-embedded-resource")),
        free_form=_free_form(node),
        list_type=str(node.get("x-kubernetes-list-type") or ""),
        list_map_keys=tuple(str(k) for k in node.get("x-kubernetes-list-map-keys") or ()),
        map_type=str(node.get("x-kubernetes-map-type") or ""),
        rules=_rules(node),
        combinators=_combinators(node),
        title=str(node.get("title") or ""),
        external_docs=_external_docs(node),
        notes=tuple(schema_notes(resolved, display, published)),
        standard_type=_is_standard_type(schema),
    )


def declared_node(target: ExplainTarget) -> Schema | None:
    """The explained node as the CRD declares it, or None (a node the server adds)."""
    version = target.crd.version(target.version)
    return declared_child(version.schema, target.path) if version is not None else None


def declared_child(schema: Schema, path: Sequence[str]) -> Schema | None:
    """``path`` followed in the CRD's own schema exactly as kubectl follows it in the
    published one (``fieldpath.walk``: properties, items, map values, allOf), or None."""
    if not path:
        return schema
    own = PublishedSchema(GroupVersionKind("", "", ""), "declared", {"declared": schema})
    try:
        return walk(own, list(path))[-1].schema
    except FieldNotFoundError:
        return None


def child_entries(
    published: PublishedSchema, schema: Schema, raw: Schema | None
) -> Iterator[tuple[str, Schema, Schema | None, bool]]:
    """``(name, published field, raw field, required)`` for each child, once per name,
    in the order of kubectl's FIELDS list."""
    seen: set[str] = set()
    for name, child, parent in field_entries(published, schema):
        if name in seen:
            continue
        seen.add(name)
        raw_child = declared_child(raw, (name,)) if raw is not None else None
        yield name, child, raw_child, name in (parent.get("required") or ())


def _descendants(
    published: PublishedSchema,
    path: FieldPath,
    schema: Schema,
    raw: Schema | None,
    *,
    resource: str,
    recursive: bool,
    max_depth: int,
    level: int = 1,
) -> Iterator[FieldFacts]:
    for name, child, raw_child, required in child_entries(published, schema, raw):
        child_path = (*path, name)
        display = ".".join((resource, *(escape_field(p) for p in child_path)))
        facts = node_facts(
            published, child_path, child, raw_child, required=required, display=display
        )
        yield facts
        deeper = recursive and (max_depth == 0 or level < max_depth)
        if deeper and not facts.standard_type:
            yield from _descendants(
                published,
                child_path,
                child,
                raw_child,
                resource=resource,
                recursive=recursive,
                max_depth=max_depth,
                level=level + 1,
            )


def _is_standard_type(schema: Schema) -> bool:
    """A reference to a named definition (ObjectMeta, Time, ...), maybe wrapped in allOf."""
    if schema.get("$ref"):
        return True
    all_of = schema.get("allOf")
    return (
        isinstance(all_of, list)
        and len(all_of) == 1
        and isinstance(all_of[0], Mapping)
        and bool(all_of[0].get("$ref"))
    )


def effective_schema(published: PublishedSchema, schema: Schema) -> Schema:
    """A published node, its ``$ref`` followed, and a single ``allOf: [$ref]`` (how the
    server writes a described reference) merged with the definition it names."""
    node = resolve(published, schema)
    all_of = node.get("allOf")
    if _is_standard_type(node) and isinstance(all_of, list):
        target = resolve(published, all_of[0])
        merged = {**target, **{k: v for k, v in node.items() if k != "allOf"}}
        return merged
    return node


def _free_form(node: Schema) -> bool:
    """Accepts fields the schema does not describe, and describes none."""
    if is_map_schema(node.get("additionalProperties")):
        return False
    has_fields = bool(node.get("properties"))
    if node.get("x-kubernetes-preserve-unknown-fields"):
        return not has_fields and not node.get("items")
    return node.get("additionalProperties") is True and not has_fields


def _bounds(node: Schema) -> tuple[Bound, ...]:
    bounds = []
    for keyword in _BOUND_KEYWORDS:
        value = node.get(keyword)
        if value is None or isinstance(value, bool):
            continue
        exclusive = False
        if keyword == "minimum":
            exclusive = bool(node.get("exclusiveMinimum"))
        elif keyword == "maximum":
            exclusive = bool(node.get("exclusiveMaximum"))
        bounds.append(Bound(keyword, value, exclusive))
    return tuple(bounds)


def _rules(node: Schema) -> tuple[ValidationRule, ...]:
    rules = []
    for entry in node.get("x-kubernetes-validations") or ():
        if not isinstance(entry, Mapping):
            continue
        optional = entry.get("optionalOldSelf")
        rules.append(
            ValidationRule(
                rule=str(entry.get("rule") or ""),
                message=str(entry.get("message") or ""),
                message_expression=str(entry.get("messageExpression") or ""),
                reason=str(entry.get("reason") or ""),
                field_path=str(entry.get("fieldPath") or ""),
                optional_old_self=bool(optional) if optional is not None else None,
            )
        )
    return tuple(rules)


def _combinators(node: Schema) -> tuple[tuple[str, Any], ...]:
    found = []
    for keyword in _COMBINATORS:
        value = node.get(keyword)
        if not value:
            continue
        implied = keyword == "anyOf" and node.get("x-kubernetes-int-or-string")
        if implied and plain(value) == list(INT_OR_STRING_ANY_OF):
            continue
        found.append((keyword, value))
    return tuple(found)


def _external_docs(node: Schema) -> str:
    docs = node.get("externalDocs")
    if not isinstance(docs, Mapping):
        return ""
    url = str(docs.get("url") or "")
    text = str(docs.get("description") or "")
    return " ".join(part for part in (text, url) if part)
