"""A PodDisruptionBudget's spec as kube-apiserver 1.34 validates it.

Mirrors ``pkg/apis/policy/validation/validation.go`` ``ValidatePodDisruptionBudgetSpec``
(with ``pkg/apis/apps/validation`` ``ValidatePositiveIntOrPercent`` and
``IsNotMoreThan100Percent``), run by ``pkg/registry/policy/poddisruptionbudget/
strategy.go`` on a create and an update alike: minAvailable and maxUnavailable not both
set (the bad value the internal spec, Go field names, json.Marshal'ed), each a
non-negative integer or a percentage string (``[0-9]+%``) up to 100%, the selector, the
unhealthy pod eviction policy. ``ValidatePodDisruptionBudget`` checks no metadata. Pure:
problems are ``Cause``\\s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation.claims import label_selector_struct
from kubectl_crd.validation.fielderrors import Cause, cause, invalid_cause, not_supported
from kubectl_crd.validation.pods import label_selector_problems
from kubectl_crd.validation.results import Reason

__all__ = ["pdb_problems"]

_PERCENT = re.compile(r"[0-9]+%\Z")
#: validation.IsValidPercent's message
_NOT_PERCENT = (
    "a valid percent string must be a numeric string followed by an ending '%' "
    "(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"
)
#: supportedUnhealthyPodEvictionPolicies, sorted
_POLICIES = ("AlwaysAllow", "IfHealthyBudget")


def _int_or_percent(value: Any, at: str) -> list[Cause]:
    """``ValidatePositiveIntOrPercent`` then ``IsNotMoreThan100Percent``."""
    if isinstance(value, str):
        if not _PERCENT.match(value):
            return [invalid_cause(at, value, _NOT_PERCENT)]
        if int(value[:-1]) > 100:
            return [invalid_cause(at, value, "must not be greater than 100%")]
        return []
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return [invalid_cause(at, value, "must be greater than or equal to 0")]
    return []


def struct_json(value: Any) -> str:
    """``json.Marshal`` of a Go struct built as a dict in its fields' order (a map's
    keys already sorted)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{go_json(str(k))}:{struct_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(struct_json(v) for v in value) + "]"
    return go_json(value)


def pdb_problems(obj: Mapping[str, Any]) -> list[Cause]:
    """``ValidatePodDisruptionBudget`` of ``obj``."""
    spec = obj.get("spec")
    spec = spec if isinstance(spec, Mapping) else {}
    found: list[Cause] = []
    low, high = spec.get("minAvailable"), spec.get("maxUnavailable")
    policy = spec.get("unhealthyPodEvictionPolicy")
    if low is not None and high is not None:
        internal = {
            "MinAvailable": low,
            "Selector": label_selector_struct(spec.get("selector")),
            "MaxUnavailable": high,
            "UnhealthyPodEvictionPolicy": policy,
        }
        detail = "minAvailable and maxUnavailable cannot be both set"
        found.append(
            cause("spec", Reason.INVALID, f"Invalid value: {struct_json(internal)}: {detail}")
        )
    if low is not None:
        found += _int_or_percent(low, "spec.minAvailable")
    if high is not None:
        found += _int_or_percent(high, "spec.maxUnavailable")
    selector = spec.get("selector")
    if isinstance(selector, Mapping):
        found += label_selector_problems(selector, "spec.selector")
    if isinstance(policy, str) and policy not in _POLICIES:
        found.append(
            not_supported("spec.unhealthyPodEvictionPolicy", policy, _POLICIES, named=True)
        )
    return found
