"""The workload kinds' numeric rules, as kube-apiserver 1.34 refuses a workload it will
not store (``pkg/apis/apps/validation/validation.go`` ``ValidateDeploymentSpec``,
``ValidateReplicaSetSpec``, ``ValidateStatefulSetSpec``; ``pkg/apis/batch/validation/
validation.go`` ``validateJobSpec``).

Pure. What the store checks of a workload's spec beyond its decoding: the counts that
must not be negative, in each validation's order, and a Deployment's progress deadline
above its ``minReadySeconds``. These are what an int32 that overflowed in a server-side
apply comes to (the conversion wraps 3000000000 to -1294967296, which the validation
then refuses). A Deployment's selector and template too, between its replicas and its
other counts as ``ValidateDeploymentSpec`` checks them: a selector required and not
empty, and (``ValidatePodTemplateSpecForReplicaSet``) template labels that the selector
matches (``metav1.LabelSelectorAsSelector``: an absent selector matches nothing) and
containers (``ValidatePodSpec``'s first rule of a template). Not checked: a malformed
selector (an unknown operator, values where there must be none: the server's
``invalid label selector``; the match is then not checked either), the rest of a pod
template, strategies, the other workloads' selectors, a Job's indexes and policies.
tests/integration/test_localstore_workloads_differential.py holds these to the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.labels import LabelSelector, Requirement
from kubectl_crd.validation.fielderrors import Cause, invalid_cause, required

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


def validate_workload(
    group: str, kind: str, obj: Mapping[str, Any], given: Mapping[str, Any] | None = None
) -> list[Cause]:
    """The rules of a defaulted workload's spec (see the module docstring); none for
    another kind. ``given``: the body as the request sent it, for the values a message
    prints (decoding drops an empty ``labels: {}``, which the server's validation still
    sees and prints as ``{}``: a Go map, not nil)."""
    names = _NONNEGATIVE_FIELDS.get((group, kind))
    spec = obj.get("spec")
    if names is None or not isinstance(spec, Mapping):
        return []
    found: list[Cause] = []
    for name in names:
        value = _number(spec.get(name))
        if value is not None and value < 0:
            found.append(invalid_cause(f"spec.{name}", value, _NONNEGATIVE))
        if name == "replicas" and kind == "Deployment":
            found += _selector_and_template(spec, given)
    if kind == "Deployment":
        deadline = _number(spec.get("progressDeadlineSeconds"))
        if deadline is not None:
            if deadline < 0:
                found.append(invalid_cause("spec.progressDeadlineSeconds", deadline, _NONNEGATIVE))
            if deadline <= (_number(spec.get("minReadySeconds")) or 0):
                message = "must be greater than minReadySeconds"
                found.append(invalid_cause("spec.progressDeadlineSeconds", deadline, message))
    return found


#: matchExpressions' operators as ``LabelSelectorAsSelector`` makes requirements of them,
#: and whether the operator takes values (``labels.NewRequirement`` refuses otherwise)
_OPERATORS = {"In": ("in", True), "NotIn": ("notin", True), "Exists": ("exists", False),
              "DoesNotExist": ("!", False)}  # fmt: skip


def _selector_and_template(spec: Mapping[str, Any], given: Mapping[str, Any] | None) -> list[Cause]:
    """``ValidateDeploymentSpec``'s selector rules and its template's (the module
    docstring), in its order."""
    found: list[Cause] = []
    selector = spec.get("selector")
    template = _field(spec, "template")
    labels = _field(template, "metadata").get("labels")
    if labels is None and given is not None:
        sent = _field(_field(_field(given, "spec"), "template"), "metadata").get("labels")
        if isinstance(sent, Mapping) and not sent:
            labels = {}  # sent empty: decoding dropped it, the validation saw a Go map
    if not isinstance(selector, Mapping):
        found.append(required("spec.selector"))
        matched = False  # no selector is labels.Nothing(): it matches no labels
    else:
        if not selector.get("matchLabels") and not selector.get("matchExpressions"):
            # the value is the selector as JSON: its two fields are omitempty
            empty = "empty selector is invalid for deployment"
            found.append(invalid_cause("spec.selector", {}, empty))
        matcher = _as_selector(selector)
        # an empty selector (labels.Everything()) is not matched against the labels
        matched = matcher is None or not matcher.requirements or matcher.matches(_strings(labels))
    if not matched:
        message = "`selector` does not match template `labels`"
        found.append(invalid_cause("spec.template.metadata.labels", labels, message))
    if not _field(template, "spec").get("containers"):
        found.append(required("spec.template.spec.containers"))
    return found


def _as_selector(selector: Mapping[str, Any]) -> LabelSelector | None:
    """``metav1.LabelSelectorAsSelector``; None where it fails (a malformed expression)."""
    requirements = [
        Requirement(str(key), "=", (str(value),))
        for key, value in sorted(_strings(selector.get("matchLabels")).items())
    ]
    for expression in selector.get("matchExpressions") or ():
        if not isinstance(expression, Mapping):
            return None
        operator = _OPERATORS.get(str(expression.get("operator")))
        values = expression.get("values") or ()
        if operator is None or bool(values) != operator[1]:
            return None
        requirements.append(
            Requirement(str(expression.get("key")), operator[0], tuple(map(str, values)))
        )
    return LabelSelector(tuple(requirements))


def _field(obj: Any, name: str) -> Mapping[str, Any]:
    """``obj[name]`` when both are objects, else an empty one."""
    value = obj.get(name) if isinstance(obj, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _strings(labels: Any) -> dict[str, str]:
    return dict(labels) if isinstance(labels, Mapping) else {}
