"""``scale --local``: an object with a new spec replicas, admitted as the API server admits
the write of its ``/scale`` subresource.

A write to ``/scale`` reads the stored object, sets the CRD's ``specReplicasPath`` in it
and writes it through the custom resource's own store, as an update of the main
resource (``apiextensions-apiserver``, ``pkg/registry/customresource/etcd.go``:
``ScaleREST.Update`` calls the store's ``Update`` with ``scaleUpdatedObjectInfo``), so
the whole object is validated as an update: schema, CEL, transition rules, and
ratcheting (an invalid field the write leaves unchanged is let through). Offline that
is ``Admission.update(changed, stored)`` when the file holds a stored object (it has a
``resourceVersion``: dumped with ``kubectl get -o yaml``); a plain manifest was never
stored, and is checked as the create of the changed copy. A stored object was read
through the server's decoder, so unknown fields in it are dropped as the server drops
them (``Ignore``); a manifest's are refused as a create refuses them.

``tests/integration/test_scale.py`` compares it with the server: the same dumped
object scaled by ``kubectl scale`` and by ``scale --local``, for a valid count, a count
over the schema's maximum, and an object a tightened schema ratchets.
"""

from __future__ import annotations

from dataclasses import dataclass

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from kubectl_crd.io import Document
    from kubectl_crd.model.crd import CustomResourceDefinition
    from kubectl_crd.validation.admission import Admission, AdmissionResult
    from kubectl_crd.validation.results import FieldError

__all__ = ["LocalScale", "scale_documents", "scale_locally"]


@dataclass(frozen=True, slots=True)
class LocalScale:
    """One object scaled offline. ``changed`` is the file's object with the new count
    (what ``--local`` prints, as written: comments' positions and managedFields kept);
    ``stored``: it was admitted as an update of the object the file holds; ``errors``
    are the refusal's causes (blocked ones included, as ``validate`` lists them),
    ``message`` the server's words for a refusal without causes."""

    changed: dict[str, Any]
    admission: AdmissionResult
    stored: bool
    #: kubectl's name of the object (``foo.example.com/a``) and its kind (set by
    #: ``scale_documents``)
    name: str = ""
    kind: str = ""

    @property
    def ok(self) -> bool:
        return self.admission.ok

    @property
    def errors(self) -> tuple[FieldError, ...]:
        if self.admission.ok:
            return ()
        validation = self.admission.validation
        if validation is not None and validation.errors:
            return validation.errors
        return self.admission.errors

    @property
    def message(self) -> str:
        return self.admission.message


def scale_locally(
    obj: dict[str, Any],
    crd: CustomResourceDefinition,
    version: str,
    replicas: int,
    admission: Admission | None = None,
    *,
    name: str = "",
    kind: str = "",
) -> LocalScale:
    """``obj`` with ``replicas`` at the version's specReplicasPath, admitted as the
    server would admit the ``/scale`` write (by ``admission``, the CRD's, when given).
    The version must have a scale subresource. ``name`` and ``kind``: ``LocalScale``'s."""
    from kubectl_crd.io.positions import copy_along
    from kubectl_crd.model.scaling import parse_field_path, set_field
    from kubectl_crd.validation.admission import Admission
    from kubectl_crd.validation.results import FieldValidation

    served = crd.version(version)
    scale = served.subresources.scale if served is not None else None
    if scale is None:
        raise ValueError(f"{crd.name} version {version} has no scale subresource")
    # only the maps on the way to the field are copied: the rest is shared with obj,
    # which nothing changes (admission works on its own copy)
    changed: dict[str, Any] = copy_along(obj, parse_field_path(scale.spec_replicas_path)[:-1])
    set_field(changed, scale.spec_replicas_path, replicas)
    if admission is None:
        admission = Admission(crd)
    stored = bool((obj.get("metadata") or {}).get("resourceVersion"))
    if stored:
        result = admission.update(changed, obj, field_validation=FieldValidation.IGNORE)
    else:
        result = admission.create(changed)
    return LocalScale(changed, result, stored, name=name, kind=kind)


def scale_documents(
    documents: Iterable[Document], crds: Sequence[CustomResourceDefinition], replicas: int
) -> list[LocalScale]:
    """Every document's object (in order) scaled as ``scale_locally`` scales it, its resource found
    among ``crds`` as the cluster's discovery would find it. Raises kubectl's mapping
    error for a kind no CRD serves, and ``NoScaleSubresourceError`` for a version
    without ``/scale``."""
    from kubectl_crd.kube.resolving import Resolver
    from kubectl_crd.validation.admission import Admission

    resolver = Resolver(crds)
    admissions: dict[str, Admission] = {}  # one per CRD, as the server has one store
    scaled: list[LocalScale] = []
    for document in documents:
        obj = document.content
        ref, version = resolver.by_document(obj, document.source)
        resolver.check_scalable(ref, version)
        crd = resolver.crd(ref)
        admission = admissions.get(crd.name)
        if admission is None:
            admission = admissions[crd.name] = Admission(crd)
        name = str((obj.get("metadata") or {}).get("name") or "")
        scaled.append(
            scale_locally(
                obj,
                crd,
                version,
                replicas,
                admission,
                name=f"{crd.names.kind.lower()}.{crd.group}/{name}",
                kind=crd.names.kind,
            )
        )
    return scaled
