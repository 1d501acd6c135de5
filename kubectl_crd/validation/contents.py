"""Which built-in kinds' content the in-process store validates, and how each
strategy places it among the metadata checks.

One table (``CONTENT_CHECKS``) for the kinds whose registry strategy runs a
``ValidateX`` (the metadata, then the content) at each of its ``META`` passes
(``objectmeta.BUILTIN_UPDATE_STRATEGIES``) and a ``ValidateXUpdate``'s own rules last:
a PersistentVolumeClaim (``validation.claims``), a Role, ClusterRole, RoleBinding and
ClusterRoleBinding (``validation.rbac``), a NetworkPolicy and an Ingress
(``validation.networking``); and a PodDisruptionBudget (``validation.policy``), whose
validation checks no metadata, so that a create's content errors come alone (apiserver ``rest.BeforeCreate`` checks the
metadata, with path-segment names, once the strategy passed) and an update's after the
common metadata checks. A claim's update is then held to the PersistentVolumeClaimResize
admission plugin (``ContentCheck.refusal``). Pure: problems are ``Cause``\\s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kubectl_crd.validation.claims import (
    claim_problems,
    claim_resize_refusal,
    claim_update_problems,
)
from kubectl_crd.validation.fielderrors import Cause
from kubectl_crd.validation.networking import (
    ingress_problems,
    network_policy_problems,
    old_cidrs,
)
from kubectl_crd.validation.policy import pdb_problems
from kubectl_crd.validation.rbac import rbac_problems, rbac_update_problems

__all__ = ["CONTENT_CHECKS", "ContentCheck"]

Object = Mapping[str, Any]


@dataclass(frozen=True)
class ContentCheck:
    """A kind's content validation: ``problems(obj, old, given)`` (``old`` on an
    update, ``given`` the body as sent), reported at each ``META`` pass of an update;
    ``update_problems(obj, old)`` after all the passes. ``alone_on_create``: a create's
    problems, if any, are the answer without the metadata's, whose names are then
    checked as path segments. ``refusal(obj, old)``: what a validating admission
    plugin forbids of an update that passed validation (the 403's reason), if any."""

    problems: Callable[[Object, Object | None, Object | None], list[Cause]]
    update_problems: Callable[[Object, Object], list[Cause]]
    alone_on_create: bool = False
    refusal: Callable[[Object, Object], str | None] | None = None


def _pdb_update(obj: Object, old: Object) -> list[Cause]:
    """``ValidateUpdate`` is ``ValidatePodDisruptionBudget`` again (no metadata pass)."""
    return pdb_problems(obj)


def _network_policy_update(obj: Object, old: Object) -> list[Cause]:
    """``ValidateNetworkPolicyUpdate``'s spec again, the old object's CIDRs let through."""
    return network_policy_problems(obj, old_cidrs(old))


def _rbac(kind: str) -> ContentCheck:
    return ContentCheck(
        lambda obj, old, given: rbac_problems(kind, obj),
        lambda obj, old: rbac_update_problems(kind, obj, old),
    )


#: (group, kind) -> its content check
CONTENT_CHECKS: dict[tuple[str, str], ContentCheck] = {
    ("", "PersistentVolumeClaim"): ContentCheck(
        lambda obj, old, given: claim_problems(obj, old),
        claim_update_problems,
        refusal=claim_resize_refusal,
    ),
    **{
        ("rbac.authorization.k8s.io", kind): _rbac(kind)
        for kind in ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")
    },
    ("networking.k8s.io", "NetworkPolicy"): ContentCheck(
        lambda obj, old, given: network_policy_problems(obj), _network_policy_update
    ),
    # ValidateIngressCreate: metadata, spec, the class annotation; ValidateIngressUpdate:
    # the metadata update, then metadata and spec (the strategy's UPDATE, META)
    ("networking.k8s.io", "Ingress"): ContentCheck(
        lambda obj, old, given: ingress_problems(obj, given, create=old is None),
        lambda obj, old: [],
    ),
    ("policy", "PodDisruptionBudget"): ContentCheck(
        lambda obj, old, given: pdb_problems(obj), _pdb_update, alone_on_create=True
    ),
}
