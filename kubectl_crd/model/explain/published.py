"""The OpenAPI v3 schema the API server publishes for one version of a CRD.

``kubectl explain`` does not read a CRD's ``openAPIV3Schema``: it reads
``/openapi/v3/apis/<group>/<version>``, which kube-apiserver builds from it. To explain
offline exactly as kubectl does we rebuild that document here, as pure data, following
k8s.io/apiextensions-apiserver (v0.34):

- ``pkg/apiserver/schema/convert.go`` ``NewStructural``: only the structural fields
  survive (``example``, ``externalDocs`` and unknown keys are dropped; ``additionalProperties``
  inside ``allOf``/``anyOf``/``oneOf``/``not`` is dropped too). The server would publish
  a bare ``{"type": "object"}`` for a schema it cannot convert (``$ref``, ``id``,
  ``definitions``, ``items`` as a list, an unknown ``type``,
  ``x-kubernetes-preserve-unknown-fields: false``), but it also refuses to create such
  a CRD, so here reaching such a node is an error (``UnpublishableSchema``).
- ``unfold.go`` ``Unfold``: an ``x-kubernetes-int-or-string`` node gets
  ``anyOf: [{type: integer}, {type: string}]``, or, when it already has an ``anyOf``,
  an ``allOf`` entry holding that ``anyOf`` in front of its own ``allOf``.
- ``kubeopenapi.go`` ``ToKubeOpenAPI``: empty values are omitted.
- ``pkg/controller/openapi/builder/builder.go`` ``buildKubeNative``: the root gets
  ``apiVersion`` and ``kind`` from TypeMeta and ``metadata`` as a reference to
  ObjectMeta (replacing whatever the CRD declared there); every
  ``x-kubernetes-embedded-resource`` node (through properties, items and
  additionalProperties) gets apiVersion, kind and metadata too, with their own
  descriptions, and ``kind``/``apiVersion`` appended to its ``required``; the root
  carries ``x-kubernetes-group-version-kind`` and, for selectable fields,
  ``x-kubernetes-selectable-fields``.
- kube-openapi's v3 builder writes a reference that has a description as
  ``{"description": ..., "allOf": [{"$ref": ...}]}``.

The meta/v1 definitions the document references (ObjectMeta and what it uses) are
data captured from the server, see ``metav1``. Nodes are converted lazily
(``LazySchema``): explaining one field of a multi-megabyte CRD touches only the nodes
on its path. Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import CRDError, UnpublishableSchema
from kubectl_crd.model.explain import metav1
from kubectl_crd.model.gvk import GroupVersionKind
from kubectl_crd.model.records import record
from kubectl_crd.model.schema import INT_OR_STRING_ANY_OF, Schema, plain

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

SCHEMA_REF_PREFIX = "#/components/schemas/"

# builder.go addEmbeddedProperties: embedded resources describe apiVersion and kind in
# their own words (lower case), not with TypeMeta's descriptions.
EMBEDDED_API_VERSION_DESCRIPTION = (
    "apiVersion defines the versioned schema of this representation of an object. "
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/"
    "api-conventions.md#resources"
)
EMBEDDED_KIND_DESCRIPTION = (
    "kind is a string value representing the type of this object. In CamelCase. "
    "More info: https://git.k8s.io/community/contributors/devel/sig-architecture/"
    "api-conventions.md#types-kinds"
)

# apiextensions validation: openapiV3Types
_VALID_TYPES = frozenset(("string", "number", "integer", "boolean", "array", "object"))
# convert.go validateUnsupportedFields
_UNSUPPORTED = ("id", "$schema", "$ref", "patternProperties", "dependencies", "additionalItems",
                "definitions")  # fmt: skip
_REFUSED = "the API server refuses this CRD schema and would publish none for it"
_VALIDATION_RULE_KEYS = ("message", "messageExpression", "reason", "fieldPath", "optionalOldSelf")
# ValueValidation fields copied when set (pointers in Go: present and not null).
_NUMERIC_VALIDATIONS = ("maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems",
                        "multipleOf", "maxProperties", "minProperties")  # fmt: skip


class LazySchema(Mapping[str, "Any"]):
    """One published schema node, converted from the CRD's node on first access.

    Explaining one path of a 10,000-node schema then converts only the nodes on the
    way and their children, not the whole tree. Children are ``LazySchema`` too; use
    ``plain()`` for nested dicts. Every rule applied is local to a node, so the result
    equals converting the whole tree at once. A node the server would refuse raises
    ``UnpublishableSchema`` when it is reached.
    """

    __slots__ = ("_data", "_nested", "_raw", "_root")

    def __init__(self, raw: Any, *, nested: bool = False, root: _RootInfo | None = None) -> None:
        self._raw = raw
        self._nested = nested
        self._root = root
        self._data: dict[str, Any] | None = None

    def _converted(self) -> dict[str, Any]:
        data = self._data
        if data is None:
            data = _convert_nested(self._raw) if self._nested else _convert(self._raw)
            if self._root is not None:
                _add_root_properties(data, self._root)
            self._data = data
        return data

    def __getitem__(self, key: str) -> Any:
        return self._converted()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self._converted().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._converted()

    def __iter__(self) -> Iterator[str]:
        return iter(self._converted())

    def __len__(self) -> int:
        return len(self._converted())

    def __repr__(self) -> str:
        return f"LazySchema({self._converted()!r})"


@record
class _RootInfo:
    gvk: GroupVersionKind
    selectable_fields: tuple[str, ...]


@record
class PublishedSchema:
    """The part of the server's OpenAPI v3 document for a group/version that explain reads.

    ``schemas`` is ``components.schemas``: the kind under ``name`` plus the meta/v1
    definitions it references.
    """

    gvk: GroupVersionKind
    name: str
    schemas: Mapping[str, Schema]

    @property
    def root(self) -> Schema:
        return self.schemas[self.name]

    def resolve_ref(self, ref: Any) -> Schema | None:
        """kubectl's ``resolveRef``: a local ``#/components/schemas/NAME`` or None."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            return None
        current: Any = {"components": {"schemas": self.schemas}}
        for part in ref[1:].split("/"):
            if not part:
                continue
            current = current.get(part) if isinstance(current, Mapping) else None
            if not isinstance(current, Mapping):
                return None
        return current  # type: ignore[no-any-return]

    def document(self) -> dict[str, Any]:
        """An OpenAPI v3 document holding these schemas, as plain data."""
        return {
            "openapi": "3.0.0",
            "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
            "components": {"schemas": plain(self.schemas)},
        }


def definition_name(group: str, version: str, kind: str) -> str:
    """kube-openapi ``ToRESTFriendlyName`` of ``group/version.Kind``: the group reversed.

    ``stable.example.com``, ``v1``, ``CronTab`` -> ``com.example.stable.v1.CronTab``.
    """
    reversed_group = ".".join(reversed(group.split("."))) if group else ""
    return f"{reversed_group}.{version}.{kind}" if reversed_group else f"{version}.{kind}"


def publish(crd: CustomResourceDefinition, version: str) -> PublishedSchema:
    """The schema kube-apiserver publishes for ``crd`` at ``version`` (served or not)."""
    crd_version = crd.version(version)
    if crd_version is None:
        raise CRDError(f"has no version {version!r}", crd_name=crd.name, location=crd.location)
    gvk = crd.gvk(version)
    root = LazySchema(crd_version.schema, root=_RootInfo(gvk, crd_version.selectable_fields))
    name = definition_name(gvk.group, gvk.version, gvk.kind)
    schemas: dict[str, Schema] = {name: root, **metav1.SCHEMAS}
    return PublishedSchema(gvk=gvk, name=name, schemas=schemas)


def _add_root_properties(root: dict[str, Any], info: _RootInfo) -> None:
    """``buildKubeNative``: TypeMeta, ObjectMeta, the GVK and selectable fields."""
    properties = root.setdefault("properties", {})
    properties["metadata"] = plain(metav1.METADATA_PROPERTY)  # a deep copy
    properties["apiVersion"] = dict(metav1.TYPE_META_API_VERSION)
    properties["kind"] = dict(metav1.TYPE_META_KIND)
    if root.get("x-kubernetes-embedded-resource"):
        _add_embedded_properties(root)
    gvk = info.gvk
    root["x-kubernetes-group-version-kind"] = [
        {"group": gvk.group, "kind": gvk.kind, "version": gvk.version}
    ]
    if info.selectable_fields:
        root["x-kubernetes-selectable-fields"] = [
            {"fieldPath": path.removeprefix(".")} for path in info.selectable_fields
        ]


def _check_supported(node: Any) -> Mapping[str, Any]:
    if not isinstance(node, Mapping):
        raise UnpublishableSchema(f"{_REFUSED}: a schema node is not an object")
    for key in _UNSUPPORTED:
        if node.get(key):
            raise UnpublishableSchema(f"{_REFUSED}: {key} is not supported")
    type_ = node.get("type")
    if type_ and (not isinstance(type_, str) or type_ not in _VALID_TYPES):
        raise UnpublishableSchema(f'{_REFUSED}: type "{type_}" is not an OpenAPI v3 type')
    if node.get("x-kubernetes-preserve-unknown-fields") is False:
        raise UnpublishableSchema(
            f"{_REFUSED}: x-kubernetes-preserve-unknown-fields must be true or undefined"
        )
    if isinstance(node.get("items"), list):
        raise UnpublishableSchema(f"{_REFUSED}: items must be a schema object and not an array")
    # a cluster's CRDs are read without the structural check (the server made it); a peer
    # that is no API server can still send these
    if node.get("items") is not None and not isinstance(node.get("items"), Mapping):
        raise UnpublishableSchema(f"{_REFUSED}: items must be a schema object")
    if node.get("properties") and not isinstance(node.get("properties"), Mapping):
        raise UnpublishableSchema(f"{_REFUSED}: properties must be an object")
    return node


def _convert(raw: Any) -> dict[str, Any]:
    """One node of ``NewStructural`` + ``Unfold`` + ``ToKubeOpenAPI`` (+ embedded additions)."""
    node = _check_supported(raw)
    out: dict[str, Any] = {}
    items = node.get("items")
    if items is not None:
        out["items"] = LazySchema(items)
    properties = node.get("properties")
    if properties:
        out["properties"] = {name: LazySchema(child) for name, child in properties.items()}
    additional = node.get("additionalProperties")
    if isinstance(additional, Mapping):
        out["additionalProperties"] = LazySchema(additional)
    elif additional is not None:
        out["additionalProperties"] = bool(additional)
    _copy_generic(node, out)
    _copy_extensions(node, out)
    _copy_value_validation(node, out)
    _copy_validation_rules(node, out)
    if out.get("x-kubernetes-int-or-string"):
        _unfold_int_or_string(out)
    if out.get("x-kubernetes-embedded-resource"):
        _add_embedded_properties(out)
    return out


def _convert_nested(raw: Any) -> dict[str, Any]:
    """A value validation (inside allOf/anyOf/oneOf/not): ``NestedValueValidation``."""
    node = _check_supported(raw)
    out: dict[str, Any] = {}
    _copy_value_validation(node, out)
    _copy_validation_rules(node, out)
    items = node.get("items")
    if items is not None:
        out["items"] = LazySchema(items, nested=True)
    properties = node.get("properties")
    if properties:
        out["properties"] = {
            name: LazySchema(child, nested=True) for name, child in properties.items()
        }
    # additionalProperties is parsed but not written back by toKubeOpenAPI.
    _copy_generic(node, out)  # "forbidden generics": normally empty
    _copy_extensions(node, out)
    return out


def _copy_generic(node: Mapping[str, Any], out: dict[str, Any]) -> None:
    for key in ("type", "description", "title"):
        value = node.get(key)
        if value:
            out[key] = value
    if node.get("nullable"):
        out["nullable"] = True
    if node.get("default") is not None:
        out["default"] = node["default"]


def _copy_extensions(node: Mapping[str, Any], out: dict[str, Any]) -> None:
    for key in (
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource",
        "x-kubernetes-int-or-string",
    ):
        if node.get(key):
            out[key] = True
    if node.get("x-kubernetes-list-map-keys"):
        out["x-kubernetes-list-map-keys"] = list(node["x-kubernetes-list-map-keys"])
    for key in ("x-kubernetes-list-type", "x-kubernetes-map-type"):
        if node.get(key) is not None:
            out[key] = node[key]


def _copy_value_validation(node: Mapping[str, Any], out: dict[str, Any]) -> None:
    for key in ("format", "pattern"):
        if node.get(key):
            out[key] = node[key]
    for key in _NUMERIC_VALIDATIONS:
        if node.get(key) is not None:
            out[key] = node[key]
    for key in ("exclusiveMaximum", "exclusiveMinimum", "uniqueItems"):
        if node.get(key):
            out[key] = True
    if node.get("enum"):
        out["enum"] = list(node["enum"])
    if node.get("required"):
        out["required"] = list(node["required"])
    for key in ("allOf", "anyOf", "oneOf"):
        branches = node.get(key)
        if branches:
            out[key] = [LazySchema(branch, nested=True) for branch in branches]
    if node.get("not") is not None:
        out["not"] = LazySchema(node["not"], nested=True)


def _copy_validation_rules(node: Mapping[str, Any], out: dict[str, Any]) -> None:
    rules = node.get("x-kubernetes-validations")
    if not rules:
        return
    published = []
    for rule in rules:
        if not isinstance(rule, Mapping):
            continue
        entry: dict[str, Any] = {"rule": rule.get("rule", "")}
        for key in _VALIDATION_RULE_KEYS:
            value = rule.get(key)
            if value or (key == "optionalOldSelf" and value is not None):
                entry[key] = value
        published.append(entry)
    out["x-kubernetes-validations"] = published


def _unfold_int_or_string(out: dict[str, Any]) -> None:
    any_of = out.get("anyOf")
    all_of = out.get("allOf") or []
    if any_of is not None and _is_int_or_string_any_of(any_of):
        return
    if all_of and _is_int_or_string_any_of(all_of[0].get("anyOf") or ()):
        return
    pattern = [dict(entry) for entry in INT_OR_STRING_ANY_OF]
    if any_of is None:
        out["anyOf"] = pattern
    else:
        out["allOf"] = [{"anyOf": pattern}, *all_of]


def _is_int_or_string_any_of(any_of: Any) -> bool:
    return len(any_of) == 2 and all(
        plain(entry) == expected
        for entry, expected in zip(any_of, INT_OR_STRING_ANY_OF, strict=True)
    )


def _add_embedded_properties(node: dict[str, Any]) -> None:
    """builder.go ``addEmbeddedProperties`` for one ``x-kubernetes-embedded-resource`` node."""
    properties = node.setdefault("properties", {})
    properties["apiVersion"] = {
        **metav1.TYPE_META_API_VERSION,
        "description": EMBEDDED_API_VERSION_DESCRIPTION,
    }
    properties["kind"] = {**metav1.TYPE_META_KIND, "description": EMBEDDED_KIND_DESCRIPTION}
    properties["metadata"] = plain(metav1.METADATA_PROPERTY)  # a deep copy
    required = node.setdefault("required", [])
    for name in ("kind", "apiVersion"):
        if name not in required:
            required.append(name)
