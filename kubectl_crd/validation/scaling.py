"""``scale --local``: an object with a new spec replicas, checked as the API server checks
the write of its ``/scale`` subresource.

A write to ``/scale`` sets the CRD's ``specReplicasPath`` in the stored object and
writes it through the custom resource's own store, whose strategy validates the whole
object (``apiextensions-apiserver``, ``pkg/registry/customresource/etcd.go``:
``ScaleREST.Update``), so a count over the schema's maximum is refused with the
schema's message (``tests/integration/test_scale.py`` has the server say it). Offline there is no stored object: the file's object is it, checked as a
create of the changed copy.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

    from kubectl_crd.model.crd import CustomResourceDefinition
    from kubectl_crd.validation.results import ValidationResult

__all__ = ["scaled_locally"]


def scaled_locally(
    obj: dict[str, Any], crd: CustomResourceDefinition, version: str, replicas: int
) -> tuple[dict[str, Any], ValidationResult]:
    """A copy of ``obj`` with ``replicas`` at the version's specReplicasPath, and its
    validation against the CRD. The version must have a scale subresource."""
    from kubectl_crd.io import copy_tree
    from kubectl_crd.model.scaling import set_field
    from kubectl_crd.validation.pipeline import validate_custom_resource

    served = crd.version(version)
    scale = served.subresources.scale if served is not None else None
    if scale is None:
        raise ValueError(f"{crd.name} version {version} has no scale subresource")
    changed: dict[str, Any] = copy_tree(obj)
    set_field(changed, scale.spec_replicas_path, replicas)
    return changed, validate_custom_resource(changed, crd)
