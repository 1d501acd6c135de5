"""A PersistentVolumeClaim's spec as kube-apiserver 1.34 validates it.

Mirrors ``pkg/apis/core/validation/validation.go`` ``ValidatePersistentVolumeClaim``
(its spec by ``ValidatePersistentVolumeClaimSpec``, the rules an ephemeral volume's
claim template shares: ``validation.pods.claim_spec_problems``, written once) and
``ValidatePersistentVolumeClaimUpdate``'s own rules, as
``pkg/registry/core/persistentvolumeclaim/strategy.go`` runs them: on the spec as
``PrepareForCreate`` / ``PrepareForUpdate`` left it (``pkg/api/persistentvolumeclaim/
util.go``: a legacy dataSource neither a claim nor a snapshot dropped, dataSource and
dataSourceRef each filled from the other), with the options
``ValidationOptionsForPersistentVolumeClaim`` derives from the old claim (a data source
group the old claim set lets any group pass). Pure: problems are ``Cause``\\s.

An update's spec is immutable but for a first ``volumeName``, a ``storageClassName``
given to a claim without one (or its beta annotation's), and a bound claim's
``resources.requests.storage`` and ``volumeAttributesClassName``; a change of anything
else is one ``Forbidden`` whose detail holds ``diff.Diff`` of the two specs
(apimachinery ``pkg/util/diff``: a unified diff, three lines of context, of the
internal Go types' ``json.MarshalIndent`` with one space: Go field names, in the
struct's order).
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from kubectl_crd.model.govalues import go_json
from kubectl_crd.model.quantity import parse_quantity
from kubectl_crd.model.schema import as_mapping
from kubectl_crd.validation.fielderrors import Cause, forbidden, invalid_cause
from kubectl_crd.validation.pods import claim_spec_problems

__all__ = [
    "claim_problems",
    "claim_resize_refusal",
    "claim_update_problems",
    "label_selector_struct",
    "normalize_data_sources",
]

#: core.BetaStorageClassAnnotation
_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class"
_IMMUTABLE = "field is immutable"
_SNAPSHOT = ("snapshot.storage.k8s.io", "VolumeSnapshot")


def _normalized(spec: Mapping[str, Any], old_spec: Mapping[str, Any] | None) -> dict[str, Any]:
    """A copy of ``spec`` as ``normalize_data_sources`` leaves it."""
    copied = copy.deepcopy(dict(spec))
    normalize_data_sources(copied, old_spec)
    return copied


def normalize_data_sources(spec: dict[str, Any], old_spec: Mapping[str, Any] | None) -> bool:
    """``spec`` as the strategy's ``PrepareForCreate`` / ``PrepareForUpdate`` leave it
    (``pkg/api/persistentvolumeclaim/util.go``; AnyVolumeDataSource GA): a ref with a
    namespace dropped by ``DropDisabledFields`` (CrossNamespaceVolumeDataSource is alpha)
    unless the old claim had a ref; ``EnforceDataSourceBackwardsCompatibility``'s legacy
    dataSource neither a claim nor a snapshot dropped unless the old claim had one;
    ``NormalizeDataSources``: each filled from the other (its group as it is, a nil
    one written null). In place; whether anything changed."""
    changed = False
    ref = spec.get("dataSourceRef")
    old_ref = as_mapping(old_spec).get("dataSourceRef") if old_spec is not None else None
    if isinstance(ref, dict) and ref.get("namespace") and not isinstance(old_ref, dict):
        spec.pop("dataSourceRef")
        changed = True
    source, ref = spec.get("dataSource"), spec.get("dataSourceRef")
    old_source = as_mapping(old_spec).get("dataSource") if old_spec is not None else None
    if not isinstance(old_source, dict) and not isinstance(ref, dict) and isinstance(source, dict):
        group, kind = source.get("apiGroup") or "", source.get("kind")
        if not ((not group and kind == "PersistentVolumeClaim") or (group, kind) == _SNAPSHOT):
            spec.pop("dataSource")
            source, changed = None, True
    if isinstance(source, dict) and not isinstance(ref, dict):
        spec["dataSourceRef"] = _filled_from(source)
        changed = True
    elif isinstance(ref, dict) and not isinstance(source, dict) and not ref.get("namespace"):
        spec["dataSource"] = _filled_from(ref)
        changed = True
    return changed


def _filled_from(reference: Mapping[str, Any]) -> dict[str, Any]:
    filled = {"apiGroup": reference.get("apiGroup")}
    filled.update({key: reference[key] for key in ("kind", "name") if key in reference})
    return filled


def _any_group(old_spec: Mapping[str, Any]) -> bool:
    """``allowInvalidAPIGroupInDataSourceOrRef``: the old claim set a data source's group."""
    return any(
        as_mapping(old_spec.get(key)).get("apiGroup") is not None
        for key in ("dataSource", "dataSourceRef")
    )


def claim_problems(obj: Mapping[str, Any], old: Mapping[str, Any] | None = None) -> list[Cause]:
    """``ValidatePersistentVolumeClaimSpec`` of ``obj``'s spec (its metadata is the
    caller's)."""
    old_spec = as_mapping(old.get("spec")) if old is not None else None
    spec = _normalized(as_mapping(obj.get("spec")), old_spec)
    return claim_spec_problems(
        spec, "spec", any_group=old_spec is not None and _any_group(old_spec)
    )


def claim_update_problems(obj: Mapping[str, Any], old: Mapping[str, Any]) -> list[Cause]:
    """``ValidatePersistentVolumeClaimUpdate``'s own rules, after its second
    ``ValidatePersistentVolumeClaim``: the beta storage-class annotation, the spec's
    immutability, a shrunk request, the volume mode, a removed attributes class."""
    old_spec = _normalized(as_mapping(old.get("spec")), None)
    spec = _normalized(as_mapping(obj.get("spec")), old_spec)
    annotations = as_mapping(as_mapping(obj.get("metadata")).get("annotations"))
    old_annotations = as_mapping(as_mapping(old.get("metadata")).get("annotations"))
    new_clone, old_clone = copy.deepcopy(spec), copy.deepcopy(old_spec)
    found: list[Cause] = []
    if not old_spec.get("volumeName"):
        # volumeName may be set once
        _put(old_clone, "volumeName", spec.get("volumeName"))
    old_class, new_class = old_spec.get("storageClassName"), spec.get("storageClassName")
    if (
        _STORAGE_CLASS in old_annotations
        and old_class is None
        and new_class is not None
        and new_class == old_annotations[_STORAGE_CLASS]
        and annotations.get(_STORAGE_CLASS, old_annotations[_STORAGE_CLASS])
        == old_annotations[_STORAGE_CLASS]
    ):
        new_clone.pop("storageClassName", None)
    else:
        new_value = str(annotations.get(_STORAGE_CLASS) or "")
        if new_value != str(old_annotations.get(_STORAGE_CLASS) or ""):
            at = f"metadata.annotations.{_STORAGE_CLASS}"
            found.append(invalid_cause(at, new_value, _IMMUTABLE))
        if (
            new_class is not None
            and old_class is None
            and (
                _STORAGE_CLASS not in old_annotations
                or new_class == old_annotations[_STORAGE_CLASS]
            )
        ):
            new_clone.pop("storageClassName", None)
    status = as_mapping(obj.get("status")) or as_mapping(old.get("status"))
    bound = status.get("phase") == "Bound"
    requests = as_mapping(new_clone.get("resources")).get("requests")
    if bound and isinstance(requests, dict):
        old_storage = as_mapping(as_mapping(old_spec.get("resources")).get("requests")).get(
            "storage"
        )
        requests["storage"] = old_storage if old_storage is not None else "0"
    if bound:
        _put(new_clone, "volumeAttributesClassName", old_clone.get("volumeAttributesClassName"))
    if not _same(old_clone, new_clone):
        detail = (
            "spec is immutable after creation except resources.requests and "
            "volumeAttributesClassName for bound claims\n" + _diff(old_clone, new_clone)
        )
        found.append(forbidden("spec", detail))
    old_size = _storage(old_spec)
    new_size = _storage(spec)
    if new_size < old_size:
        capacity = parse_or_zero(
            as_mapping(as_mapping(old.get("status")).get("capacity")).get("storage")
        )
        if new_size <= capacity:
            at = "spec.resources.requests.storage"
            found.append(forbidden(at, "field can not be less than status.capacity"))
    mode, old_mode = spec.get("volumeMode"), old_spec.get("volumeMode")
    if mode != old_mode:
        found.append(invalid_cause("volumeMode", mode, _IMMUTABLE, named=True))
    vac, old_vac = spec.get("volumeAttributesClassName"), old_spec.get("volumeAttributesClassName")
    current = as_mapping(old.get("status")).get("currentVolumeAttributesClassName")
    if vac != old_vac and current is not None:
        at = "spec.volumeAttributesClassName"
        if vac is None:
            detail = (
                "update to nil is forbidden when status.currentVolumeAttributesClassName is not nil"
            )
            found.append(forbidden(at, detail))
        elif not vac:
            detail = "update to empty string is forbidden when status.currentVolumeAttributesClassName is not nil"
            found.append(forbidden(at, detail))
    return found


def claim_resize_refusal(obj: Mapping[str, Any], old: Mapping[str, Any]) -> str | None:
    """The PersistentVolumeClaimResize admission plugin's refusal of an update that
    passed validation (``plugin/pkg/admission/storage/persistentvolume/resize/
    admission.go``): a storage request grown is forbidden unless the old claim is bound
    and its StorageClass, the same before and after, sets ``allowVolumeExpansion``. The
    in-process store holds no StorageClass, so a bound claim's growth is refused too."""
    if _storage(as_mapping(obj.get("spec"))) <= _storage(as_mapping(old.get("spec"))):
        return None
    if as_mapping(old.get("status")).get("phase") != "Bound":
        return "Only bound persistent volume claims can be expanded"
    return (
        "only dynamically provisioned pvc can be resized and the storageclass that "
        "provisions the pvc must support resize"
    )


def parse_or_zero(text: Any) -> Fraction:
    """A quantity's value; 0 (Go's zero ``Quantity``) if there is none."""
    try:
        return parse_quantity(str(text)) if text is not None else Fraction(0)
    except (ValueError, ZeroDivisionError):
        return Fraction(0)


def _put(spec: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        spec.pop(key, None)
    else:
        spec[key] = value


def _storage(spec: Mapping[str, Any]) -> Fraction:
    return parse_or_zero(
        as_mapping(as_mapping(spec.get("resources")).get("requests")).get("storage")
    )


def _same(left: dict[str, Any], right: dict[str, Any]) -> bool:
    """``apiequality.Semantic.DeepEqual`` of two specs: quantities by value, an empty
    list or map as a missing one."""
    return bool(_semantic(left) == _semantic(right))


def _semantic(value: Any, quantities: bool = False) -> Any:
    if isinstance(value, dict):
        kept = {
            k: _semantic(v, k in ("limits", "requests") or quantities) for k, v in value.items()
        }
        return {k: v for k, v in kept.items() if v not in ({}, [], None)}
    if isinstance(value, list):
        return [_semantic(v) for v in value]
    if quantities and isinstance(value, str):
        return parse_or_zero(value)
    return value


def _go_struct(spec: dict[str, Any]) -> dict[str, Any]:
    """The internal ``core.PersistentVolumeClaimSpec`` of a v1 spec, as
    ``json.Marshal`` writes it: its Go field names, in its order (a map's keys sorted)."""

    def listed(value: Any) -> Any:
        return list(value) if isinstance(value, list) else None

    def resources(values: Any) -> Any:
        return {k: values[k] for k in sorted(values)} if isinstance(values, dict) else None

    def reference(value: Any, namespaced: bool) -> Any:
        if not isinstance(value, dict):
            return None
        ref = {
            "APIGroup": value.get("apiGroup"),
            "Kind": value.get("kind") or "",
            "Name": value.get("name") or "",
        }
        if namespaced:
            ref["Namespace"] = value.get("namespace")
        return ref

    resources_of = as_mapping(spec.get("resources"))
    return {
        "AccessModes": listed(spec.get("accessModes")),
        "Selector": label_selector_struct(spec.get("selector")),
        "Resources": {
            "Limits": resources(resources_of.get("limits")),
            "Requests": resources(resources_of.get("requests")),
        },
        "VolumeName": spec.get("volumeName") or "",
        "StorageClassName": spec.get("storageClassName"),
        "VolumeMode": spec.get("volumeMode"),
        "DataSource": reference(spec.get("dataSource"), False),
        "DataSourceRef": reference(spec.get("dataSourceRef"), True),
        "VolumeAttributesClassName": spec.get("volumeAttributesClassName"),
    }


def label_selector_struct(selector: Any) -> Any:
    """A ``metav1.LabelSelector`` as its json tags write it (``omitempty``, its
    fields in their order: ``go_struct_json`` keeps it)."""
    if not isinstance(selector, dict):
        return None
    written: dict[str, Any] = {}
    labels = selector.get("matchLabels")
    if labels:
        written["matchLabels"] = {k: labels[k] for k in sorted(labels)}
    expressions = selector.get("matchExpressions")
    if expressions:
        written["matchExpressions"] = [
            {
                "key": each.get("key") or "",
                "operator": each.get("operator") or "",
                **({"values": each["values"]} if each.get("values") else {}),
            }
            for each in expressions
            if isinstance(each, dict)
        ]
    return written


def _indented(value: Any, depth: int = 0) -> str:
    """``json.MarshalIndent(value, "", " ")`` of a ``_go_struct`` value (its dicts
    already in the order Go writes them)."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{go_json(str(k))}: {_indented(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        items = [f"{inner}{_indented(v, depth + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return go_json(value)


def _diff(old_spec: dict[str, Any], new_spec: dict[str, Any]) -> str:
    """apimachinery's ``diff.Diff``: go-difflib's unified diff of the two specs' JSON,
    no file header, every line (the last too) ending in a newline."""
    old_lines = [line + "\n" for line in _indented(_go_struct(old_spec)).split("\n")]
    new_lines = [line + "\n" for line in _indented(_go_struct(new_spec)).split("\n")]
    lines = list(difflib.unified_diff(old_lines, new_lines, n=3, lineterm="\n"))
    return "".join(lines[2:])
