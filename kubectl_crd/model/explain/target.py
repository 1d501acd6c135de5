"""What ``explain RESOURCE[.field.path]`` points at, resolved once for every output format.

``resolve_target`` turns the argument into an ``ExplainTarget``: the CRD and version
(kubectl's rules: a group-qualified prefix such as ``crontabs.stable.example.com.spec``
is accepted unless ``--api-version`` is given; otherwise the preferred version), the
schema kube-apiserver publishes for that version, and the walk to the field. Renderers
(kubectl's plaintext, and later JSON, YAML, Markdown or an interactive browser) only
read the target; ``notes`` says, in our words, what kubectl's layout cannot show.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import FieldNotFoundError, ResourceLookupError, VersionNotFoundError
from kubectl_crd.model.explain.fieldpath import (
    FieldStep,
    is_map_schema,
    parse_fields,
    resolve,
    walk,
)
from kubectl_crd.model.explain.published import PublishedSchema, publish
from kubectl_crd.model.gvk import GroupVersionKind, GroupVersionResource, split_api_version
from kubectl_crd.model.lookup import ResourceMatch, resolve_resource
from kubectl_crd.model.records import record
from kubectl_crd.model.schema import Schema

_PREFIX_MESSAGE = "invalid jsonpath syntax, first node must be field node"


@record
class ExplainTarget:
    """A resolved explain request: CRD, version, published schema and field walk.

    ``schema`` is the explained node as published (for a field: the property's own
    schema, which may wrap a ``$ref`` in ``allOf``); ``resolved`` is what kubectl
    describes (the reference followed). ``steps`` holds one ``FieldStep`` per path
    element, the last one knowing the parent and whether the field is required.
    """

    crd: CustomResourceDefinition
    version: str
    published: PublishedSchema
    path: tuple[str, ...] = ()
    steps: tuple[FieldStep, ...] = ()

    @property
    def gvk(self) -> GroupVersionKind:
        return self.published.gvk

    @property
    def gvr(self) -> GroupVersionResource:
        return self.crd.gvr(self.version)

    @property
    def schema(self) -> Schema:
        return self.steps[-1].schema if self.steps else self.published.root

    @property
    def resolved(self) -> Schema:
        return resolve(self.published, self.schema)

    @property
    def field(self) -> FieldStep | None:
        return self.steps[-1] if self.steps else None

    @property
    def parent_required(self) -> tuple[str, ...]:
        """The ``required`` list of the schema holding the explained field."""
        if not self.steps:
            return ()
        required = self.steps[-1].parent.get("required")
        return tuple(required) if isinstance(required, list) else ()

    @property
    def display_path(self) -> str:
        """``plural.field.path`` for messages (the plural alone for the whole resource)."""
        return ".".join((self.crd.names.plural, *self.path))

    def notes(self) -> list[str]:
        """What kubectl's layout leaves out about this node, and why."""
        return schema_notes(self.resolved, self.display_path, self.published)


def resolve_target(
    crds: Iterable[CustomResourceDefinition],
    argument: str,
    *,
    api_version: str | None = None,
) -> ExplainTarget:
    """Resolve ``RESOURCE[.field.path]`` as ``kubectl explain`` does (see module doc)."""
    candidates = list(crds)
    if api_version:
        match, fields, version = _resolve_with_api_version(candidates, argument, api_version)
    else:
        match, fields = _resolve_with_prefix(candidates, argument)
        version = match.version or match.crd.preferred_version.name
    published = publish(match.crd, version)
    try:
        steps = walk(published, fields)
    except FieldNotFoundError as missing:
        raise field_not_found(published, fields, missing) from None
    return ExplainTarget(match.crd, version, published, tuple(fields), steps)


def _resolve_with_prefix(
    crds: list[CustomResourceDefinition], argument: str
) -> tuple[ResourceMatch, list[str]]:
    """kubectl ``SplitAndParseResourceRequestWithMatchingPrefix``.

    The longest prefix naming a resource with its group (``plural.group``; we also
    accept kind, singular and short names, and ``name.version.group``) wins; else the
    first element alone names the resource.
    """
    fields = parse_fields(argument, first_node_message=_PREFIX_MESSAGE)
    groups = {crd.group.lower() for crd in crds}
    qualifiers = groups | {f"{v.name}.{crd.group}".lower() for crd in crds for v in crd.versions}
    for end in range(len(fields), 1, -1):
        qualifier = ".".join(fields[1:end]).lower()
        if qualifier not in qualifiers:
            continue
        try:
            return resolve_resource(crds, ".".join(fields[:end])), fields[end:]
        except ResourceLookupError:
            continue
    return resolve_resource(crds, fields[0]), fields[1:]


def _resolve_with_api_version(
    crds: list[CustomResourceDefinition], argument: str, api_version: str
) -> tuple[ResourceMatch, list[str], str]:
    """kubectl ``SplitAndParseResourceRequest`` plus ``--api-version`` (group/version)."""
    fields = parse_fields(argument)
    group, version = split_api_version(api_version)
    same_group = [crd for crd in crds if crd.group == group]
    match = resolve_resource(same_group or crds, fields[0])
    crd = match.crd
    gvr = GroupVersionResource(group, version, crd.names.plural)
    served = crd.group == group and any(v.name == version for v in crd.served_versions)
    if not served:
        group_version_exists = (not group and version == "v1") or any(
            c.group == group and any(v.name == version for v in c.served_versions) for c in crds
        )
        if group_version_exists:
            raise VersionNotFoundError(f"GVR ({gvr}) not found in OpenAPI schema")
        raise VersionNotFoundError(f'couldn\'t find resource for "{gvr}"')
    return match, fields[1:], version


def field_not_found(
    published: PublishedSchema, fields: Sequence[str], missing: FieldNotFoundError
) -> FieldNotFoundError:
    """kubectl's message (naming the LAST path element, as kubectl does) plus our hint."""
    last = fields[-1]
    reached = [step.name for step in missing.found]
    where = ".".join(reached) if reached else published.gvk.kind
    available = list(field_entries(published, missing.container))
    names = sorted({name for name, _, _ in available})
    container = resolve(published, missing.container)
    if not names:
        if container.get("x-kubernetes-preserve-unknown-fields"):
            hint = (
                f'"{where}" keeps unknown fields (x-kubernetes-preserve-unknown-fields), so '
                f'"{missing.field}" may be set there, but the schema does not describe it'
            )
        else:
            hint = f'"{where}" has no fields, so it has no field "{missing.field}"'
    else:
        import difflib  # only on this error path: it costs start-up time

        close = difflib.get_close_matches(missing.field, names, n=3, cutoff=0.6)
        if not close:
            close = [n for n in names if n.lower() == missing.field.lower()]
        prefix = ".".join(reached)
        if close:
            spelled = ", ".join(f"{prefix}.{n}" if prefix else n for n in close)
            hint = f'"{where}" has no field "{missing.field}"; did you mean {spelled}?'
        else:
            shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
            hint = f'"{where}" has no field "{missing.field}"; its fields are: {shown}'
    return FieldNotFoundError(
        f'field "{last}" does not exist\n{hint}',
        field=missing.field,
        candidates=names,
        gvk=published.gvk,
    )


def field_entries(
    published: PublishedSchema, schema: Schema, history: frozenset[str] = frozenset()
) -> Iterable[tuple[str, Schema, Schema]]:
    """``(name, field schema, parent)`` as kubectl's non-recursive FIELDS list shows them.

    Properties sorted by name, then those reached through ``allOf``, ``items`` and a
    non-boolean ``additionalProperties`` (kubectl ``fieldList`` at one level); a
    ``$ref`` seen before is a cycle and yields nothing.
    """
    ref = schema.get("$ref") or ""
    if ref and ref in history:
        return
    history = history | {ref}
    resolved = resolve(published, schema)
    properties = resolved.get("properties")
    if isinstance(properties, Mapping):
        for name in sorted(properties):
            yield name, properties[name], resolved
    for branch in resolved.get("allOf") or ():
        if isinstance(branch, Mapping):
            yield from field_entries(published, branch, history)
    items = resolved.get("items")
    if items and isinstance(items, Mapping):
        yield from field_entries(published, items, history)
    additional = resolved.get("additionalProperties")
    if is_map_schema(additional):
        yield from field_entries(published, additional, history)


def schema_notes(schema: Schema, where: str, published: PublishedSchema) -> list[str]:
    """Plain-language notes on what kubectl's plaintext layout cannot convey."""
    notes: list[str] = []
    has_fields = bool(list(field_entries(published, schema)))
    if schema.get("x-kubernetes-preserve-unknown-fields"):
        if has_fields:
            notes.append(
                f'"{where}" also keeps fields that are not listed '
                "(x-kubernetes-preserve-unknown-fields: true); the schema does not describe them"
            )
        else:
            notes.append(
                f'"{where}" is free-form (x-kubernetes-preserve-unknown-fields: true): '
                "it accepts any fields and the schema describes none of them, "
                "so there is nothing more to explain"
            )
    if schema.get("x-kubernetes-embedded-resource"):
        notes.append(
            f'"{where}" holds a complete Kubernetes object (x-kubernetes-embedded-resource): '
            "the API server adds apiVersion, kind and metadata to its fields"
        )
    if schema.get("x-kubernetes-int-or-string"):
        notes.append(
            f'"{where}" takes an integer or a string (x-kubernetes-int-or-string); '
            "kubectl shows it as <Object>"
        )
    elif (
        schema.get("type") == "object"
        and not has_fields
        and not schema.get("x-kubernetes-preserve-unknown-fields")
        and not schema.get("x-kubernetes-embedded-resource")
        and schema.get("additionalProperties") is not True
        and not is_map_schema(schema.get("additionalProperties"))
        and schema is not published.root
    ):
        notes.append(
            f'"{where}" is an object that declares no fields: the API server prunes '
            "anything set inside it"
        )
    return notes
