"""The OpenAPI v3 schema the API server publishes for one version of a CRD.

``kubectl explain`` does not read a CRD's ``openAPIV3Schema``: it reads
``/openapi/v3/apis/<group>/<version>``, which kube-apiserver builds from it. To explain
offline exactly as kubectl does we rebuild that document here, as pure data, following
k8s.io/apiextensions-apiserver (v0.34):

- ``pkg/apiserver/schema/convert.go`` ``NewStructural``: only the structural fields
  survive (``example``, ``externalDocs`` and unknown keys are dropped; ``additionalProperties``
  inside ``allOf``/``anyOf``/``oneOf``/``not`` is dropped too). A schema that cannot be
  converted (``$ref``, ``id``, ``definitions``, ``items`` as a list, an unknown ``type``,
  ``x-kubernetes-preserve-unknown-fields: false``) is published as a bare
  ``{"type": "object"}`` without apiVersion, kind or metadata.
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
data captured from the server, see ``metav1``. Pure: stdlib only.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import CRDError
from kubectl_crd.model.explain import metav1
from kubectl_crd.model.gvk import GroupVersionKind

Schema = Mapping[str, Any]

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
_INT_OR_STRING_ANY_OF = ({"type": "integer"}, {"type": "string"})
_VALIDATION_RULE_KEYS = ("message", "messageExpression", "reason", "fieldPath", "optionalOldSelf")
# ValueValidation fields copied when set (pointers in Go: present and not null).
_NUMERIC_VALIDATIONS = ("maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems",
                        "multipleOf", "maxProperties", "minProperties")  # fmt: skip


class UnpublishableSchema(Exception):
    """The server could not turn the schema into a structural one (it publishes a bare object)."""


@dataclass(frozen=True)
class PublishedSchema:
    """The part of the server's OpenAPI v3 document for a group/version that explain reads.

    ``schemas`` is ``components.schemas``: the kind under ``name`` plus the meta/v1
    definitions it references. ``unpublishable`` says why the server could only
    publish ``{"type": "object"}`` (empty when it published the real schema).
    """

    gvk: GroupVersionKind
    name: str
    schemas: Mapping[str, Schema]
    unpublishable: str = ""

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
        """An OpenAPI v3 document holding these schemas (for machine-readable output)."""
        return {
            "openapi": "3.0.0",
            "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
            "components": {"schemas": dict(self.schemas)},
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
    unpublishable = ""
    try:
        root = _structural(crd_version.schema)
    except UnpublishableSchema as exc:
        unpublishable = str(exc)
        root = {"type": "object"}
    else:
        properties = root.setdefault("properties", {})
        properties["metadata"] = copy.deepcopy(metav1.METADATA_PROPERTY)
        properties["apiVersion"] = dict(metav1.TYPE_META_API_VERSION)
        properties["kind"] = dict(metav1.TYPE_META_KIND)
        _add_embedded_properties(root)
    root["x-kubernetes-group-version-kind"] = [
        {"group": gvk.group, "kind": gvk.kind, "version": gvk.version}
    ]
    if crd_version.selectable_fields:
        root["x-kubernetes-selectable-fields"] = [
            {"fieldPath": path.removeprefix(".")} for path in crd_version.selectable_fields
        ]
    name = definition_name(gvk.group, gvk.version, gvk.kind)
    schemas: dict[str, Schema] = {name: root}
    if not unpublishable:
        schemas.update(metav1.SCHEMAS)
    return PublishedSchema(gvk=gvk, name=name, schemas=schemas, unpublishable=unpublishable)


def _check_supported(node: Any) -> Mapping[str, Any]:
    if not isinstance(node, Mapping):
        raise UnpublishableSchema("a schema node is not an object")
    for key in _UNSUPPORTED:
        if node.get(key):
            raise UnpublishableSchema(f"OpenAPIV3Schema {key!r} is not supported")
    type_ = node.get("type")
    if type_ and type_ not in _VALID_TYPES:
        raise UnpublishableSchema(f"type {type_!r} is not an OpenAPI v3 type")
    if node.get("x-kubernetes-preserve-unknown-fields") is False:
        raise UnpublishableSchema(
            "'x-kubernetes-preserve-unknown-fields' must be true or undefined"
        )
    if isinstance(node.get("items"), list):
        raise UnpublishableSchema("OpenAPIV3Schema 'items' must be a schema, but is an array")
    return node


def _structural(raw: Any) -> dict[str, Any]:
    """``NewStructural`` + ``Unfold`` + ``ToKubeOpenAPI`` for a node of the schema tree."""
    node = _check_supported(raw)
    out: dict[str, Any] = {}
    items = node.get("items")
    if items is not None:
        out["items"] = _structural(items)
    properties = node.get("properties")
    if properties:
        out["properties"] = {name: _structural(child) for name, child in properties.items()}
    additional = node.get("additionalProperties")
    if isinstance(additional, Mapping):
        out["additionalProperties"] = _structural(additional)
    elif additional is not None:
        out["additionalProperties"] = bool(additional)
    _copy_generic(node, out)
    _copy_extensions(node, out)
    _copy_value_validation(node, out)
    _copy_validation_rules(node, out)
    if out.get("x-kubernetes-int-or-string"):
        _unfold_int_or_string(out)
    return out


def _nested(raw: Any) -> dict[str, Any]:
    """A value validation (inside allOf/anyOf/oneOf/not): ``NestedValueValidation``."""
    node = _check_supported(raw)
    out: dict[str, Any] = {}
    _copy_value_validation(node, out)
    _copy_validation_rules(node, out)
    items = node.get("items")
    if items is not None:
        out["items"] = _nested(items)
    properties = node.get("properties")
    if properties:
        out["properties"] = {name: _nested(child) for name, child in properties.items()}
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
            out[key] = [_nested(branch) for branch in branches]
    if node.get("not") is not None:
        out["not"] = _nested(node["not"])


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
    if any_of is not None and tuple(any_of) == _INT_OR_STRING_ANY_OF:
        return
    if all_of and tuple(all_of[0].get("anyOf") or ()) == _INT_OR_STRING_ANY_OF:
        return
    pattern = [dict(entry) for entry in _INT_OR_STRING_ANY_OF]
    if any_of is None:
        out["anyOf"] = pattern
    else:
        out["allOf"] = [{"anyOf": pattern}, *all_of]


def _add_embedded_properties(node: dict[str, Any]) -> None:
    for child in (node.get("properties") or {}).values():
        _add_embedded_properties(child)
    if isinstance(node.get("items"), dict):
        _add_embedded_properties(node["items"])
    if isinstance(node.get("additionalProperties"), dict):
        _add_embedded_properties(node["additionalProperties"])
    if not node.get("x-kubernetes-embedded-resource"):
        return
    properties = node.setdefault("properties", {})
    properties["apiVersion"] = {
        **metav1.TYPE_META_API_VERSION,
        "description": EMBEDDED_API_VERSION_DESCRIPTION,
    }
    properties["kind"] = {**metav1.TYPE_META_KIND, "description": EMBEDDED_KIND_DESCRIPTION}
    properties["metadata"] = copy.deepcopy(metav1.METADATA_PROPERTY)
    required = node.setdefault("required", [])
    for name in ("kind", "apiVersion"):
        if name not in required:
            required.append(name)
