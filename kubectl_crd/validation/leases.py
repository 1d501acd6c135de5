"""A Lease's rules, as kube-apiserver 1.34 refuses a Lease it will not store
(``pkg/apis/coordination/validation/validation.go`` ``ValidateLeaseSpec``, on a create
and an update).

Pure. The strategy has dropped ``strategy`` and ``preferredHolder`` before (its gate is
off: ``builtin_defaulting.prepare_lease``), so their rules never see a value and are not
mirrored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.validation.fielderrors import Cause, invalid_cause


def validate_lease_spec(obj: Mapping[str, Any]) -> list[Cause]:
    """A duration that is not positive, a transition count that is negative."""
    spec = obj.get("spec")
    if not isinstance(spec, Mapping):
        return []
    found: list[Cause] = []
    duration = spec.get("leaseDurationSeconds")
    if type(duration) is int and duration <= 0:
        found.append(invalid_cause("spec.leaseDurationSeconds", duration, "must be greater than 0"))
    transitions = spec.get("leaseTransitions")
    if type(transitions) is int and transitions < 0:
        found.append(
            invalid_cause(
                "spec.leaseTransitions", transitions, "must be greater than or equal to 0"
            )
        )
    return found
