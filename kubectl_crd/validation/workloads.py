"""The workload kinds' numeric rules, as kube-apiserver 1.34 refuses a workload it will
not store (``pkg/apis/apps/validation/validation.go`` ``ValidateDeploymentSpec``,
``ValidateReplicaSetSpec``, ``ValidateStatefulSetSpec``; ``pkg/apis/batch/validation/
validation.go`` ``validateJobSpec``).

Pure. What the store checks of a workload's spec beyond its decoding: the counts that
must not be negative, in each validation's order, and a Deployment's progress deadline
above its ``minReadySeconds``. These are what an int32 that overflowed in a server-side
apply comes to (the conversion wraps 3000000000 to -1294967296, which the validation
then refuses). Not checked: selectors, pod templates, strategies, a Job's indexes and
policies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.validation.fielderrors import Cause, invalid_cause

__all__ = ["validate_workload"]

_NONNEGATIVE = "must be greater than or equal to 0"

#: (group, kind) -> the spec's fields that must not be negative, in the validation's
#: order (an unset one is not checked; a Deployment's and a ReplicaSet's replicas are
#: int32 values, 0 when unset)
_NONNEGATIVE_FIELDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("apps", "Deployment"): ("replicas", "minReadySeconds", "revisionHistoryLimit"),
    ("apps", "ReplicaSet"): ("replicas", "minReadySeconds"),
    ("apps", "StatefulSet"): ("replicas", "minReadySeconds"),
    ("batch", "Job"): (
        "parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
        "ttlSecondsAfterFinished",
    ),
}  # fmt: skip


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def validate_workload(group: str, kind: str, obj: Mapping[str, Any]) -> list[Cause]:
    """The numeric rules of a defaulted workload's spec (see the module docstring);
    none for another kind."""
    names = _NONNEGATIVE_FIELDS.get((group, kind))
    spec = obj.get("spec")
    if names is None or not isinstance(spec, Mapping):
        return []
    found: list[Cause] = []
    for name in names:
        value = _number(spec.get(name))
        if value is not None and value < 0:
            found.append(invalid_cause(f"spec.{name}", value, _NONNEGATIVE))
    if kind == "Deployment":
        deadline = _number(spec.get("progressDeadlineSeconds"))
        if deadline is not None:
            if deadline < 0:
                found.append(invalid_cause("spec.progressDeadlineSeconds", deadline, _NONNEGATIVE))
            if deadline <= (_number(spec.get("minReadySeconds")) or 0):
                message = "must be greater than minReadySeconds"
                found.append(invalid_cause("spec.progressDeadlineSeconds", deadline, message))
    return found
