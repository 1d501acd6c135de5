"""The scale subresource as a CRD declares it: paths into objects, and what to say when
a version has none. Pure data and text, used by ``kube.scaling`` and ``scale --local``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import NoScaleSubresourceError


def parse_field_path(path: str) -> list[str]:
    """A scale path (``.spec.replicas``) as its fields: the API server splits on dots."""
    return [part for part in path.split(".") if part]


def get_field(obj: Mapping[str, Any], path: str) -> Any:
    node: Any = obj
    for part in parse_field_path(path):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def set_field(obj: dict[str, Any], path: str, value: Any) -> None:
    """``unstructured.SetNestedField``: missing maps on the way are made."""
    *parents, last = parse_field_path(path)
    node = obj
    for part in parents:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[last] = value


def scale_stanza(version: str) -> str:
    """The CRD lines that give ``version`` a scale subresource."""
    return (
        "  versions:\n"
        f"  - name: {version}\n"
        "    subresources:\n"
        "      scale:\n"
        "        specReplicasPath: .spec.replicas\n"
        "        statusReplicasPath: .status.replicas\n"
        "        labelSelectorPath: .status.selector   # optional, for HPAs"
    )


def check_scalable(crd: CustomResourceDefinition, version: str) -> None:
    """``NoScaleSubresourceError`` unless ``version`` of ``crd`` serves ``/scale``.

    The API server answers 404 ``<plural>.<group> "<name>" not found`` there, which
    reads as if the object were missing.
    """
    served = crd.version(version)
    if served is not None and served.subresources.scale is not None:
        return
    others = [
        v.name
        for v in crd.served_versions
        if v.subresources.scale is not None and v.name != version
    ]
    hint = ""
    if others:
        hint = (
            f"\n{', '.join(others)} {'has' if len(others) == 1 else 'have'} one: use "
            f"{crd.names.plural}.{others[0]}.{crd.group}/NAME"
        )
    raise NoScaleSubresourceError(
        f"{crd.names.plural}.{crd.group} version {version} has no scale subresource, so "
        f"it cannot be scaled (the server would answer 404 Not Found).{hint}\n"
        f"To make it scalable, add to the CustomResourceDefinition {crd.name}:\n"
        + scale_stanza(version)
    )
