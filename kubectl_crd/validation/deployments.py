"""A Deployment's numeric rules, as kube-apiserver 1.34 refuses a Deployment it will
not store (``pkg/apis/apps/validation/validation.go`` ``ValidateDeploymentSpec``).

Pure. What the store checks of a Deployment's spec beyond its decoding: the counts
that must not be negative (``replicas``, ``minReadySeconds``, ``revisionHistoryLimit``,
``progressDeadlineSeconds``) and a progress deadline above ``minReadySeconds``, in
``ValidateDeploymentSpec``'s order. These are what an int32 that overflowed in a
server-side apply comes to (the conversion wraps 3000000000 to -1294967296, which the
validation then refuses). Not checked: the selector, the pod template, the strategy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.validation.services import Cause, invalid_cause

__all__ = ["validate_deployment"]

_NONNEGATIVE = "must be greater than or equal to 0"


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def validate_deployment(obj: Mapping[str, Any]) -> list[Cause]:
    """The numeric rules of a defaulted Deployment's spec (see the module docstring)."""
    spec = obj.get("spec")
    if not isinstance(spec, Mapping):
        return []
    found: list[Cause] = []
    replicas = _number(spec.get("replicas")) or 0
    if replicas < 0:
        found.append(invalid_cause("spec.replicas", replicas, _NONNEGATIVE))
    min_ready = _number(spec.get("minReadySeconds")) or 0
    if min_ready < 0:
        found.append(invalid_cause("spec.minReadySeconds", min_ready, _NONNEGATIVE))
    history = _number(spec.get("revisionHistoryLimit"))
    if history is not None and history < 0:
        found.append(invalid_cause("spec.revisionHistoryLimit", history, _NONNEGATIVE))
    deadline = _number(spec.get("progressDeadlineSeconds"))
    if deadline is not None:
        if deadline < 0:
            found.append(invalid_cause("spec.progressDeadlineSeconds", deadline, _NONNEGATIVE))
        if deadline <= min_ready:
            found.append(
                invalid_cause(
                    "spec.progressDeadlineSeconds", deadline, "must be greater than minReadySeconds"
                )
            )
    return found
