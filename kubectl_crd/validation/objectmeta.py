"""ObjectMeta: decoding ``metadata`` as the server does, and validating it.

Decoding follows ``apiextensions-apiserver/pkg/apiserver/schema/objectmeta/coerce.go``:
``metadata`` is unmarshalled into ``metav1.ObjectMeta``, fields it does not have are
unknown fields for strict decoding (``metadata.foo``) and values of the wrong JSON
type fail the request. Validation follows ``apimachinery/pkg/api/validation/objectmeta.go``
(name or generateName, labels, annotations and their 256 KiB total, finalizers) and,
for ``x-kubernetes-embedded-resource`` values, ``objectmeta/validation.go`` (apiVersion
and kind required, names as path segments).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from kubectl_crd.model.govalues import bad_value, json_kind, unmarshal_type_error
from kubectl_crd.validation import names, paths
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.paths import Chain
from kubectl_crd.validation.results import Reason

Found = list[tuple[str, str, str, Chain]]  # (field, reason, message, chain)

#: metav1.ObjectMeta's JSON fields (decoded by ``validation.decoding`` from its Go type)
OBJECT_META_FIELDS = frozenset(
    (
        "name",
        "generateName",
        "namespace",
        "selfLink",
        "uid",
        "resourceVersion",
        "generation",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "labels",
        "annotations",
        "ownerReferences",
        "finalizers",
        "managedFields",
    )
)

ANNOTATIONS_LIMIT = 256 * 1024
# generateName's random suffix is 5 characters from this alphabet
# (apiserver/pkg/storage/names/generate.go, utilrand.String); offline we write "xxxxx".
NAME_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
GENERATED_SUFFIX = "xxxxx"
_MAX_GENERATED_PREFIX = 58


def decode_metadata(metadata: Any, chain: Chain) -> tuple[list[tuple[str, Chain]], str | None]:
    """Unknown fields (path, chain) of a custom resource's ``metadata`` value, and the
    error of its decoding into ``metav1.ObjectMeta`` if any (``decoding.object_meta_error``:
    encoding/json keeps the first type mismatch of a plain field and decodes on, but an
    error of a type's own ``UnmarshalJSON``, a ``metav1.Time`` that does not parse, ends
    the decoding at once and is the one returned; "first" in the sorted order of the
    map marshalled again)."""
    if not isinstance(metadata, dict):
        if metadata is None:
            return [], None
        return (
            [],
            unmarshal_type_error(json_kind(metadata), "v1.ObjectMeta"),
        )
    unknown: list[tuple[str, Chain]] = []
    for key in metadata:
        if key not in OBJECT_META_FIELDS:
            where = paths.child(chain, key)
            unknown.append((paths.dotted(where), where))
    if not metadata or plainly_decodes(metadata):
        return unknown, None
    from kubectl_crd.validation.decoding import object_meta_error  # its Go types: read once

    return unknown, object_meta_error(metadata)


#: ObjectMeta's fields of Go type string, map[string]string and []string
_STRING_FIELDS = frozenset(("name", "generateName", "namespace", "uid", "resourceVersion"))
_STRING_MAPS = frozenset(("labels", "annotations"))


def plainly_decodes(metadata: dict[str, Any]) -> bool:
    """True when every key is an ObjectMeta field of string, string map or string list
    type holding such a value (a manifest's usual ``name``, ``namespace``, ``labels``,
    ``annotations``, ``finalizers``): nothing that encoding/json could refuse. Anything
    else (timestamps, numbers, owner references, a null...) goes through the Go decoder,
    whose module and types are then loaded: ~25 ms at a validate's start and ~0.2 ms an
    object that this spares."""
    for key, value in metadata.items():
        if key in _STRING_FIELDS:
            if not isinstance(value, str):
                return False
        elif key in _STRING_MAPS:
            if not isinstance(value, dict) or any(
                not isinstance(k, str) or not isinstance(v, str) for k, v in value.items()
            ):
                return False
        elif key == "finalizers":
            if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
                return False
        else:
            return False
    return True


def coerce_metadata(metadata: dict[str, Any]) -> None:
    """Drop what ObjectMeta cannot hold: the server stores the decoded struct."""
    for key in list(metadata):
        if key not in OBJECT_META_FIELDS:
            del metadata[key]
        elif metadata[key] is None or metadata[key] == {} or metadata[key] == []:
            del metadata[key]  # omitempty
    for ref in metadata.get("ownerReferences") or ():
        if isinstance(ref, dict):
            # metav1.OwnerReference: a null *bool is nil, omitted (omitempty)
            for pointer in ("controller", "blockOwnerDeletion"):
                if pointer in ref and ref[pointer] is None:
                    del ref[pointer]


def generated_name(generate_name: str, suffix: str = GENERATED_SUFFIX) -> str:
    """``names.SimpleNameGenerator.GenerateName``: the prefix cut to 58 characters, then
    ``suffix`` (5 random characters on the server, ``xxxxx`` offline)."""
    return generate_name[:_MAX_GENERATED_PREFIX] + suffix


def validate_object_meta(
    metadata: dict[str, Any],
    chain: Chain,
    *,
    name_check: Any = names.name_is_dns_subdomain,
    generate_names: bool = True,
) -> Found:
    """``ValidateObjectMetaAccessor`` for a create."""
    found: Found = []
    meta_chain = paths.child(chain, "metadata")

    def add(key: str, reason: str, body: str) -> None:
        where = paths.child(meta_chain, key)
        field = paths.field_path(where)
        found.append((field, reason, f"{field}: {body}", where))

    generate_name = metadata.get("generateName") or ""
    name = metadata.get("name") or ""
    if generate_name:
        for message in name_check(generate_name, True):
            add(
                "generateName",
                Reason.INVALID,
                f"Invalid value: {bad_value(generate_name)}: {message}",
            )
        if not name and generate_names:
            name = generated_name(generate_name)
    if not name:
        add("name", Reason.REQUIRED, "Required value: name or generateName is required")
    else:
        for message in name_check(name, False):
            add("name", Reason.INVALID, f"Invalid value: {bad_value(name)}: {message}")
    generation = metadata.get("generation")
    if isinstance(generation, int) and not isinstance(generation, bool) and generation < 0:
        add(
            "generation",
            Reason.INVALID,
            f"Invalid value: {generation}: must be greater than or equal to 0",
        )
    for key, reason, body in labels_and_annotations_problems(metadata):
        add(key, reason, body)
    found.extend(_owner_reference_problems(metadata.get("ownerReferences"), meta_chain))
    for finalizer in metadata.get("finalizers") or ():
        for message in names.qualified_name(finalizer or ""):
            add(
                "finalizers",
                Reason.INVALID,
                f"Invalid value: {bad_value(finalizer or '')}: {message}",
            )
    return found


#: what ``ValidateObjectMetaAccessorUpdate`` checks again of the new metadata
_UPDATE_RECHECKED = ("metadata.labels", "metadata.annotations", "metadata.ownerReferences")

#: a strategy's metadata passes in ``update_meta_errors``: ``ValidateObjectMeta`` of the
#: new object (``META``), ``ValidateObjectMetaUpdate`` (``UPDATE``)
META, UPDATE = "meta", "update"
#: apiextensions-apiserver registry/customresource/validator.go: ``ValidateUpdate`` runs
#: ``ValidateObjectMetaAccessorUpdate`` once more
CUSTOM_RESOURCE_UPDATE = (UPDATE,)
#: each built-in's strategy's passes, read from kube-apiserver v1.34's answers
#: (tests/integration/test_localstore_patch_differential.py): ``ValidateXUpdate``'s
#: ``ValidateObjectMetaUpdate``, then ``ValidateX``'s ``ValidateObjectMeta``, unless
#: listed. A Job's is ``(META,)`` then, after ValidateJob's spec, ValidateJobUpdate's
#: ``UPDATE`` (the local store's ``_check_builtin``).
DEFAULT_UPDATE_STRATEGY: tuple[str, ...] = (UPDATE, META)
BUILTIN_UPDATE_STRATEGIES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "CronJob", "Service", "Lease"),
        (UPDATE,),
    ),
    # ValidateX (the object's metadata, its spec), then ValidateXUpdate
    **dict.fromkeys(("Namespace", "NetworkPolicy"), (META, UPDATE)),
    "Job": (META,),
    "PersistentVolumeClaim": (META, UPDATE, META),
    # rbac's strategies: ValidateRole, then ValidateRoleUpdate (ValidateRole again)
    **dict.fromkeys(
        ("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"), (META, META, UPDATE)
    ),
    # their ValidateUpdate looks at no metadata
    **dict.fromkeys(("Event", "PodDisruptionBudget"), ()),
}


def update_meta_errors(
    meta: dict[str, Any],
    old_meta: Any,
    strategy: tuple[str, ...],
    *,
    name_check: Any = names.path_segment_name,
    common: bool = True,
) -> Found:
    """An update's metadata errors, each as often and in the order the server reports it.

    apiserver/pkg/registry/rest/update.go (``BeforeUpdate``) runs ``validateCommonFields``:
    ``ValidateObjectMetaAccessor`` with path-segment names (no DNS-subdomain check: a
    generateName ``Gen_`` passes), then ``ValidateObjectMetaAccessorUpdate``; then the
    kind's strategy's ``ValidateUpdate`` runs its own passes, ``strategy`` (``META``
    with ``name_check``, the kind's name rule; ``UPDATE``). A bad label, annotation or
    owner reference is reported once by each pass, what only the update checks
    (``changed_meta_errors``) once by each ``UPDATE``, before the labels: a custom
    resource's bad label three times, a ConfigMap's four (kube-apiserver v1.34).
    Without ``common``, the strategy's passes alone.
    """
    first = validate_object_meta(
        meta, None, name_check=names.path_segment_name, generate_names=False
    )
    again = [e for e in first if e[0].startswith(_UPDATE_RECHECKED)]
    update = [*changed_meta_errors(meta, old_meta if isinstance(old_meta, dict) else {}), *again]
    found = [*first, *update] if common else []
    for each in strategy:
        if each == UPDATE:
            found += update
        elif name_check is names.path_segment_name:
            found += first
        else:
            found += validate_object_meta(meta, None, name_check=name_check, generate_names=False)
    return found


def changed_meta_errors(meta: dict[str, Any], old_meta: dict[str, Any]) -> Found:
    """``ValidateObjectMetaAccessorUpdate``'s own checks (apimachinery/pkg/api/
    validation/objectmeta.go), in its order, that can fail after ``BeforeUpdate``
    copied the server's fields over: finalizers added to an object being deleted; a uid
    other than the stored one (a patch's: a PUT's is its precondition, a 409 before
    this); a deletionTimestamp or deletionGracePeriodSeconds the update sets where the
    old object had none (or, for the grace period, another one): each immutable."""
    from kubectl_crd.model.gotime import stored_time
    from kubectl_crd.model.govalues import go_quote

    found: Found = []
    at = paths.child(None, "metadata")
    if old_meta.get("deletionTimestamp"):
        known = set(old_meta.get("finalizers") or ())
        added = sorted({f for f in meta.get("finalizers") or () if f not in known})
        if added:
            field = "metadata.finalizers"
            listed = ", ".join(go_quote(f) for f in added)
            message = (
                f"{field}: Forbidden: no new finalizers can be added if the object is being "
                f"deleted, found new finalizers []string{{{listed}}}"
            )
            found.append((field, Reason.FORBIDDEN, message, paths.child(at, "finalizers")))
    for key in ("uid", "deletionTimestamp", "deletionGracePeriodSeconds"):
        value, before = meta.get(key), old_meta.get(key)
        if key == "deletionTimestamp" and isinstance(value, str):
            value = stored_time(value)  # decoded: the instant in UTC, to the second
        # BeforeUpdate keeps the stored uid when the update gives none
        if value not in (None, "") and value != before:
            field = f"metadata.{key}"
            message = f"{field}: Invalid value: {bad_value(value)}: field is immutable"
            found.append((field, Reason.INVALID, message, paths.child(at, key)))
    return found


def labels_and_annotations_problems(metadata: Mapping[str, Any]) -> Iterator[tuple[str, str, str]]:
    """``ValidateLabels`` and ``ValidateAnnotations`` (apimachinery
    ``pkg/api/validation/objectmeta.go``), as (``labels`` or ``annotations``, reason,
    the message after the path): an object's metadata and a pod template's
    (``ValidatePodTemplateSpec``, at ``<template>.labels``) alike."""
    for key, value in (metadata.get("labels") or {}).items():
        for message in _label_key_problems(key):
            yield "labels", Reason.INVALID, f"Invalid value: {bad_value(key)}: {message}"
        for message in names.label_value(value or ""):
            yield "labels", Reason.INVALID, f"Invalid value: {bad_value(value or '')}: {message}"
    total = 0
    for key, value in (metadata.get("annotations") or {}).items():
        for message in names.qualified_name(key.lower()):
            yield "annotations", Reason.INVALID, f"Invalid value: {bad_value(key)}: {message}"
        total += len(key.encode()) + len((value or "").encode())
    if total > ANNOTATIONS_LIMIT:
        message = f"Too long: may not be more than {ANNOTATIONS_LIMIT} bytes"
        yield "annotations", Reason.TOO_LONG, message


def _owner_reference_problems(references: Any, meta_chain: Chain) -> Found:
    """``ValidateOwnerReferences`` (apimachinery/pkg/api/validation/objectmeta.go): each
    reference needs a version, kind, name and uid (the errors' paths name no index, as
    the server's do), and one reference at most is the controller."""
    found: Found = []
    if not isinstance(references, list):
        return found
    chain = paths.child(meta_chain, "ownerReferences")
    field = paths.field_path(chain)
    controller = ""
    for position, ref in enumerate(references):
        if not isinstance(ref, dict):
            continue
        at = paths.index(chain, position)
        version = _owner_version(str(ref.get("apiVersion") or ""))
        for key, empty, message in (
            ("apiVersion", not version, "version must not be empty"),
            ("kind", not ref.get("kind"), "must not be empty"),
            ("name", not ref.get("name"), "must not be empty"),
            ("uid", not ref.get("uid"), "must not be empty"),
        ):
            if empty:
                value = bad_value(str(ref.get(key) or ""))
                found.append(
                    (
                        f"{field}.{key}",
                        Reason.INVALID,
                        f"{field}.{key}: Invalid value: {value}: {message}",
                        paths.child(at, key),
                    )
                )
        if ref.get("controller") is True:
            current = f"{ref.get('kind') or ''}/{ref.get('name') or ''}"
            if controller:
                message = (
                    f"{field}: Invalid value: {_go_owner_references(references)}: Only one "
                    'reference can have Controller set to true. Found "true" in references '
                    f"for {controller} and {current}"
                )
                found.append((field, Reason.INVALID, message, chain))
            else:
                controller = current
    return found


def _owner_version(api_version: str) -> str:
    """The version of ``schema.FromAPIVersionAndKind``: "" when it does not parse."""
    if api_version.count("/") > 1:
        return ""
    return api_version.rpartition("/")[2]


def _go_owner_references(references: list[Any]) -> str:
    """A ``[]metav1.OwnerReference`` as ``field.Invalid`` prints it: its JSON (the
    struct's field order; controller and blockOwnerDeletion only when set)."""
    from kubectl_crd.model.govalues import go_json

    items = []
    for ref in references:
        ref = ref if isinstance(ref, dict) else {}
        fields = [(key, str(ref.get(key) or "")) for key in ("apiVersion", "kind", "name", "uid")]
        fields += [
            (k, ref[k]) for k in ("controller", "blockOwnerDeletion") if ref.get(k) is not None
        ]
        items.append("{" + ",".join(f"{go_json(k)}:{go_json(v)}" for k, v in fields) + "}")
    return "[" + ",".join(items) + "]"


@lru_cache(maxsize=4096)
def _label_key_problems(key: str) -> tuple[str, ...]:
    """``names.qualified_name`` of a label key, kept: objects share their label keys."""
    return tuple(names.qualified_name(key))


_STANDARD_FINALIZERS = frozenset({"orphan", "foregroundDeletion", "kubernetes"})


def finalizer_warnings(metadata: dict[str, Any]) -> list[str]:
    """``strategy.go: generateWarningsFromObj`` for a create."""
    warnings: list[str] = []
    finalizers = metadata.get("finalizers")
    if not finalizers:
        return warnings
    for finalizer in sorted(set(finalizers)):
        if not isinstance(finalizer, str):
            continue
        prefix = f"metadata.finalizers: {bad_value(finalizer)}: "
        warnings.extend(prefix + m for m in names.qualified_name(finalizer))
        if "/" not in finalizer and finalizer not in _STANDARD_FINALIZERS:
            if "." in finalizer:
                warnings.append(
                    prefix + "prefer a domain-qualified finalizer name including a path (/) "
                    "to avoid accidental conflicts with other finalizer writers"
                )
            else:
                warnings.append(
                    prefix + "prefer a domain-qualified finalizer name to avoid accidental "
                    "conflicts with other finalizer writers"
                )
    return warnings


_DUPLICATE_OWNERS = (
    ".metadata.ownerReferences contains duplicate entries; API server dedups owner "
    "references in 1.20+, and may reject such requests as early as 1.24; please fix your "
    "requests; duplicate UID(s) observed: "
)


def dedup_owner_references(metadata: dict[str, Any]) -> str:
    """``endpoints/handlers/rest.go: dedupOwnerReferencesAndAddWarning``, which a create
    and an update run on the decoded body before anything validates it: an owner
    reference equal to an earlier one (as decoded Go structs: an absent or null
    ``controller`` is not ``false``) is dropped, and the warning names each dropped
    one's uid; "" when there is none. ``metadata`` has decoded as ObjectMeta."""
    refs = metadata.get("ownerReferences")
    if not isinstance(refs, list) or len(refs) < 2:
        return ""
    kept: list[Any] = []
    seen: set[tuple[Any, ...]] = set()
    duplicates: list[str] = []
    for ref in refs:
        if not isinstance(ref, dict):
            return ""
        # metav1.OwnerReference: four strings ("" when absent) and two *bool (nil
        # when absent or null, not false)
        key = (
            *(ref.get(field) or "" for field in ("apiVersion", "kind", "name", "uid")),
            ref.get("controller"),
            ref.get("blockOwnerDeletion"),
        )
        if key in seen:
            duplicates.append(str(ref.get("uid") or ""))
        else:
            seen.add(key)
            kept.append(ref)
    if not duplicates:
        return ""
    metadata["ownerReferences"] = kept
    return _DUPLICATE_OWNERS + ", ".join(duplicates)


# ---------------------------------------------------------------------------- embedded


def embedded_metadata_unknown(node: SchemaNode, obj: Any) -> list[tuple[str, Chain]]:
    """Unknown ObjectMeta fields inside embedded resources below the root (strict decoding)."""
    found: list[tuple[str, Chain]] = []
    _walk_embedded_unknown(node, obj, None, found, root=True)
    return found


def _walk_embedded_unknown(
    node: SchemaNode | None, obj: Any, chain: Chain, found: list[tuple[str, Chain]], *, root: bool
) -> None:
    if node is None or not node.subtree_embedded:
        return
    if isinstance(obj, dict):
        if node.embedded and not root and isinstance(obj.get("metadata"), dict):
            unknown, _ = decode_metadata(obj["metadata"], paths.child(chain, "metadata"))
            found.extend(unknown)
        for key, value in obj.items():
            prop = node.properties.get(key)
            if prop is not None:
                _walk_embedded_unknown(prop, value, paths.child(chain, key), found, root=False)
            elif node.additional is not None:
                _walk_embedded_unknown(
                    node.additional, value, paths.child(chain, key), found, root=False
                )
    elif isinstance(obj, list) and node.items is not None:
        for position, value in enumerate(obj):
            _walk_embedded_unknown(
                node.items, value, paths.index(chain, position), found, root=False
            )


def coerce_embedded(node: SchemaNode, obj: Any, *, root: bool = True) -> None:
    """Reduce every embedded resource's metadata to ObjectMeta, as storage would."""
    if not node.subtree_embedded:
        return
    if isinstance(obj, dict):
        if node.embedded and not root and isinstance(obj.get("metadata"), dict):
            coerce_metadata(obj["metadata"])
        for key, value in obj.items():
            prop = node.properties.get(key) or node.additional
            if prop is not None:
                coerce_embedded(prop, value, root=False)
    elif isinstance(obj, list) and node.items is not None:
        for value in obj:
            coerce_embedded(node.items, value, root=False)


def validate_embedded(node: SchemaNode, obj: Any, *, include_root: bool = False) -> Found:
    """``objectmeta.Validate`` below the root: every x-kubernetes-embedded-resource value
    (and ``obj`` itself when ``include_root`` and ``node`` is one)."""
    found: Found = []
    if include_root:
        _embedded(node, obj, None, found)
    elif node.subtree_embedded and isinstance(obj, dict):
        for key, value in obj.items():
            prop = node.properties.get(key)
            if prop is not None:
                _embedded(prop, value, paths.child(None, key), found)
            elif node.additional is not None:
                _embedded(node.additional, value, paths.map_key(None, key), found)
    return found


def _embedded(node: SchemaNode, obj: Any, chain: Chain, found: Found) -> None:
    if not node.subtree_embedded:
        return
    if isinstance(obj, dict):
        if node.embedded:
            _embedded_resource(obj, chain, found)
        for key, value in obj.items():
            prop = node.properties.get(key)
            if prop is not None:
                _embedded(prop, value, paths.child(chain, key), found)
            elif node.additional is not None:
                _embedded(node.additional, value, paths.map_key(chain, key), found)
    elif isinstance(obj, list) and node.items is not None:
        for position, value in enumerate(obj):
            _embedded(node.items, value, paths.index(chain, position), found)


def _embedded_resource(obj: dict[str, Any], chain: Chain, found: Found) -> None:
    def add(key: str, reason: str, body: str) -> None:
        where = paths.child(chain, key)
        field = paths.field_path(where)
        found.append((field, reason, f"{field}: {body}", where))

    if "apiVersion" not in obj:
        add("apiVersion", Reason.REQUIRED, "Required value")
    if "kind" not in obj:
        add("kind", Reason.REQUIRED, "Required value")
    for key, value in obj.items():
        # non-string apiVersion/kind and undecodable metadata never get here: the
        # server's coercion refuses them while decoding (see ``embedded_coercion_error``)
        if key == "apiVersion":
            if not isinstance(value, str):
                continue
            if not value:
                add(key, Reason.INVALID, 'Invalid value: "": must not be empty')
            elif value.count("/") > 1:
                add(
                    key,
                    Reason.INVALID,
                    f"Invalid value: {bad_value(value)}: unexpected GroupVersion string: {value}",
                )
        elif key == "kind":
            if not isinstance(value, str):
                continue
            if not value:
                add(key, Reason.INVALID, 'Invalid value: "": must not be empty')
            else:
                problems = names.dns1035_label(value.lower())
                if problems:
                    add(
                        key,
                        Reason.INVALID,
                        f"Invalid value: {bad_value(value)}: may have mixed case, but should "
                        "otherwise match: " + ",".join(problems),
                    )
        elif key == "metadata":
            _, error = decode_metadata(value, paths.child(chain, "metadata"))
            if error is None and isinstance(value, dict):
                meta = dict(value)
                if not meta.get("name"):
                    meta["name"] = "fakename"
                found.extend(
                    validate_object_meta(
                        meta, chain, name_check=names.path_segment_name, generate_names=False
                    )
                )
                namespace = meta.get("namespace")
                if isinstance(namespace, str) and namespace:
                    where = paths.child(paths.child(chain, "metadata"), "namespace")
                    field = paths.field_path(where)
                    for message in names.dns1123_label(namespace):
                        found.append(
                            (
                                field,
                                Reason.INVALID,
                                f"{field}: Invalid value: {bad_value(namespace)}: {message}",
                                where,
                            )
                        )


def embedded_coercion_error(
    node: SchemaNode, obj: Any, *, include_root: bool = False
) -> tuple[str, str, Chain] | None:
    """The error that stops decoding in an embedded resource, if any (field, message, chain).

    ``objectmeta/algorithm.go: coercer.coerce`` refuses an apiVersion or kind that is
    not a string and a metadata that ObjectMeta cannot hold, answering HTTP 400 with
    the first one it meets; Go's map order makes that choice random, we take the
    first in document order. ``obj`` itself is looked at when ``include_root`` and
    ``node`` is an embedded resource (a CRD's default is coerced so).
    """
    return _coercion(node, obj, None, root=not include_root)


def _coercion(
    node: SchemaNode | None, obj: Any, chain: Chain, *, root: bool
) -> tuple[str, str, Chain] | None:
    if node is None or not node.subtree_embedded:
        return None
    if isinstance(obj, dict):
        for key, value in obj.items():
            if node.embedded and not root:
                where = paths.child(chain, key)
                if key in ("apiVersion", "kind") and not isinstance(value, str):
                    field = paths.field_path(where)
                    return (
                        field,
                        f"{field}: Invalid value: {bad_value(value)}: must be a string",
                        where,
                    )
                if key == "metadata":
                    _, error = decode_metadata(value, where)
                    if error is not None:
                        field = paths.field_path(where)
                        return field, f"{field}: Invalid value: {bad_value(value)}: {error}", where
            prop = node.properties.get(key)
            if prop is not None:
                found = _coercion(prop, value, paths.child(chain, key), root=False)
            elif node.additional is not None:
                found = _coercion(node.additional, value, paths.map_key(chain, key), root=False)
            else:
                found = None
            if found is not None:
                return found
    elif isinstance(obj, list):
        for position, value in enumerate(obj):
            found = _coercion(node.items, value, paths.index(chain, position), root=False)
            if found is not None:
                return found
    return None
