"""The workload kinds' rules, as kube-apiserver 1.34 refuses a workload it will not
store (``pkg/apis/apps/validation/validation.go`` ``ValidateDeploymentSpec``,
``ValidateReplicaSetSpec``, ``ValidateStatefulSetSpec``, ``ValidateDaemonSetSpec`` and
their ``...Update``; ``pkg/apis/batch/validation/validation.go`` ``validateJobSpec``).

Pure. What the store checks of a workload's spec beyond its decoding:

- the counts that must not be negative, in each validation's order, and a Deployment's
  progress deadline above its ``minReadySeconds``: what an int32 that overflowed in a
  server-side apply comes to (the conversion wraps 3000000000 to -1294967296);
- an apps/v1 workload's selector and pod template, at the place each validation checks
  them (``_SELECTOR_RULES``): the selector required (not of a DaemonSet, whose absent
  selector only fails to match), well formed (apimachinery's
  ``metav1validation.ValidateLabelSelector``: label keys and values, operators and
  their values), not empty, matching the template's labels
  (``metav1.LabelSelectorAsSelector``: an absent selector matches nothing), and a
  template with containers (``ValidatePodSpec``'s first rule);
- a Job's selector (``ValidateGeneratedSelector``: one of its own without
  ``manualSelector`` must match the labels the server generates; ``ValidateJobSpec``:
  required, well formed, matching), its template's containers and restart policy;
- on an update, an apps/v1 selector is immutable (the registries' ``ValidateUpdate``
  of ``pkg/registry/apps/*/strategy.go``), and a StatefulSet's spec may change only in
  ``_STATEFULSET_MUTABLE`` (``ValidateStatefulSetUpdate``).

Not checked: the rest of a pod template, strategies, a StatefulSet's ordinals, a Job's
generated template labels (``ValidateHasLabel``), indexes, policies and updates. tests/integration/test_localstore_workloads_differential.py
holds these to the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from kubectl_crd.model.govalues import go_equal, go_json
from kubectl_crd.model.labels import LabelSelector, Requirement
from kubectl_crd.validation.fielderrors import Cause, cause, forbidden, invalid_cause, required
from kubectl_crd.validation.names import label_value, qualified_name
from kubectl_crd.validation.results import Reason

__all__ = ["validate_workload"]

_NONNEGATIVE = "must be greater than or equal to 0"

#: (group, kind) -> the spec's fields that must not be negative, in the validation's
#: order (an unset one is not checked; a Deployment's and a ReplicaSet's replicas are
#: int32 values, 0 when unset)
_NONNEGATIVE_FIELDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("apps", "Deployment"): ("replicas", "minReadySeconds", "revisionHistoryLimit"),
    ("apps", "ReplicaSet"): ("replicas", "minReadySeconds"),
    ("apps", "StatefulSet"): ("replicas", "minReadySeconds"),
    ("apps", "DaemonSet"): ("minReadySeconds", "revisionHistoryLimit"),
    ("batch", "Job"): (
        "parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
        "ttlSecondsAfterFinished",
    ),
}  # fmt: skip


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class _SelectorRules(NamedTuple):
    """Where and how one apps/v1 kind's validation checks its selector and template."""

    #: how many of the kind's ``_NONNEGATIVE_FIELDS`` come before the selector
    after: int
    #: the kind in 'empty selector is invalid for <kind>'
    empty: str
    #: the detail of the ``Invalid`` that a selector ``LabelSelectorAsSelector`` refuses
    #: gets (then the template is not checked); None: no such cause, the template's
    #: containers checked regardless, the absent selector not required, and the empty
    #: one refused after the match (``ValidateDaemonSetSpec``)
    unparsable: str | None
    #: where an update's changed selector is refused: "first", "last", or "spec" (a
    #: StatefulSet's ``Forbidden`` of every field but ``_STATEFULSET_MUTABLE``)
    immutable: str


_SELECTOR_RULES: dict[tuple[str, str], _SelectorRules] = {
    ("apps", "Deployment"): _SelectorRules(1, "deployment", "invalid label selector", "last"),
    # ValidateReplicaSetSpec's text says deployment too
    ("apps", "ReplicaSet"): _SelectorRules(2, "deployment", "invalid label selector", "last"),
    # ValidateStatefulSetSpec gives field.Invalid an empty detail
    ("apps", "StatefulSet"): _SelectorRules(2, "statefulset", "", "spec"),
    ("apps", "DaemonSet"): _SelectorRules(0, "daemonset", None, "first"),
}

#: what ``ValidateStatefulSetUpdate`` lets an update change (its message lists them)
_STATEFULSET_MUTABLE = (
    "replicas", "ordinals", "template", "updateStrategy", "revisionHistoryLimit",
    "persistentVolumeClaimRetentionPolicy", "minReadySeconds",
)  # fmt: skip
_STATEFULSET_FORBIDDEN = (
    "updates to statefulset spec for fields other than "
    + ", ".join(f"'{name}'" for name in _STATEFULSET_MUTABLE[:-1])
    + f" and '{_STATEFULSET_MUTABLE[-1]}' are forbidden"
)


def validate_workload(
    group: str,
    kind: str,
    obj: Mapping[str, Any],
    given: Mapping[str, Any] | None = None,
    old: Mapping[str, Any] | None = None,
) -> list[Cause]:
    """The rules of a defaulted workload's spec (see the module docstring); none for
    another kind. ``given``: the body as the request sent it, for the values a message
    prints (decoding drops an empty ``labels: {}``, which the server's validation still
    sees and prints as ``{}``: a Go map, not nil). ``old``: the stored object an update
    replaces."""
    names = _NONNEGATIVE_FIELDS.get((group, kind))
    spec = obj.get("spec")
    if names is None or not isinstance(spec, Mapping):
        return []
    rules = _SELECTOR_RULES.get((group, kind))
    old_spec = _field(old, "spec") if old is not None else None
    found: list[Cause] = []
    job = (group, kind) == ("batch", "Job")
    if job:
        found += _job_generated_selector(obj, spec)
    if rules is not None and old_spec is not None and rules.immutable == "first":
        found += _immutable_selector(spec, old_spec)
    for index, name in enumerate(names):
        if rules is not None and index == rules.after:
            found += _selector_and_template(rules, spec, given)
        value = _number(spec.get(name))
        if value is not None and value < 0:
            found.append(invalid_cause(f"spec.{name}", value, _NONNEGATIVE))
    if rules is not None and rules.after == len(names):
        found += _selector_and_template(rules, spec, given)
    if job:
        found += _job_template_and_selector(spec, given)
    if kind == "Deployment":
        deadline = _number(spec.get("progressDeadlineSeconds"))
        if deadline is not None:
            if deadline < 0:
                found.append(invalid_cause("spec.progressDeadlineSeconds", deadline, _NONNEGATIVE))
            if deadline <= (_number(spec.get("minReadySeconds")) or 0):
                message = "must be greater than minReadySeconds"
                found.append(invalid_cause("spec.progressDeadlineSeconds", deadline, message))
    if rules is not None and old_spec is not None:
        if rules.immutable == "last":
            found += _immutable_selector(spec, old_spec)
        elif rules.immutable == "spec":
            kept = [{k: v for k, v in each.items() if k not in _STATEFULSET_MUTABLE}
                    for each in (spec, old_spec)]  # fmt: skip
            if not go_equal(*kept):
                found.append(forbidden("spec", _STATEFULSET_FORBIDDEN))
    return found


def _selector_and_template(
    rules: _SelectorRules, spec: Mapping[str, Any], given: Mapping[str, Any] | None
) -> list[Cause]:
    """The selector's and the template's rules (the module docstring), in the order
    of the kind's validation."""
    found: list[Cause] = []
    selector = spec.get("selector")
    template = _field(spec, "template")
    daemonset = rules.unparsable is None
    malformed: list[Cause] = []
    empty = False
    if not isinstance(selector, Mapping):
        if not daemonset:
            found.append(required("spec.selector"))
    else:
        malformed = _selector_problems(selector)
        found += malformed
        empty = not selector.get("matchLabels") and not selector.get("matchExpressions")
    refused_empty = _selector_cause({}, f"empty selector is invalid for {rules.empty}")
    if empty and not daemonset:
        found.append(refused_empty)
    if malformed:
        if rules.unparsable is not None:
            found.append(_selector_cause(_field(spec, "selector"), rules.unparsable))
    else:
        found += _mismatch(spec, given)
    if empty and daemonset:
        found.append(refused_empty)
    if (daemonset or not malformed) and not _field(template, "spec").get("containers"):
        found.append(required("spec.template.spec.containers"))
    return found


def _mismatch(spec: Mapping[str, Any], given: Mapping[str, Any] | None) -> list[Cause]:
    """The template's labels that a well-formed selector does not match: an absent
    selector is labels.Nothing(), which matches no labels; an empty one,
    labels.Everything(), matches any."""
    selector = spec.get("selector")
    labels = _field(_field(spec, "template"), "metadata").get("labels")
    if labels is None and given is not None:
        sent = _field(_field(_field(given, "spec"), "template"), "metadata").get("labels")
        if isinstance(sent, Mapping) and not sent:
            labels = {}  # sent empty: decoding dropped it, the validation saw a Go map
    if isinstance(selector, Mapping) and _as_selector(selector).matches(_strings(labels)):
        return []
    message = "`selector` does not match template `labels`"
    return [invalid_cause("spec.template.metadata.labels", labels, message)]


#: the labels a Job's generated selector must match (``ValidateGeneratedSelector``):
#: what ``prepare_job_for_create`` gives its template, ``None`` for the Job's uid and name
_JOB_GENERATED = (("batch.kubernetes.io/controller-uid", "uid"),
                  ("batch.kubernetes.io/job-name", "name"),
                  ("controller-uid", "uid"), ("job-name", "name"))  # fmt: skip
_JOB_RESTART_POLICIES = ("OnFailure", "Never")


def _job_generated_selector(obj: Mapping[str, Any], spec: Mapping[str, Any]) -> list[Cause]:
    """``ValidateGeneratedSelector`` (``pkg/apis/batch/validation``), before the Job's
    spec: without ``manualSelector: true``, a selector of the Job's own (the store's
    create adds the uid to it, as the strategy's ``generateSelector`` does) must
    match the labels the server generates for its pods."""
    selector = spec.get("selector")
    if spec.get("manualSelector") is True or not isinstance(selector, Mapping):
        return []
    if _selector_problems(selector):
        return []  # LabelSelectorAsSelector fails: not compared
    meta = _field(obj, "metadata")
    expected = {key: str(meta.get(field) or "") for key, field in _JOB_GENERATED}
    if _as_selector(selector).matches(expected):
        return []
    return [_selector_cause(selector, "`selector` not auto-generated")]


def _job_template_and_selector(
    spec: Mapping[str, Any], given: Mapping[str, Any] | None
) -> list[Cause]:
    """``ValidateJobSpec`` after the counts: the template's containers and restart
    policy (OnFailure or Never; 1.34 words any other as Required), then the selector
    (required, well formed, an empty one allowed) and its match."""
    found: list[Cause] = []
    template_spec = _field(_field(spec, "template"), "spec")
    if not template_spec.get("containers"):
        found.append(required("spec.template.spec.containers"))
    if template_spec.get("restartPolicy") not in _JOB_RESTART_POLICIES:
        listed = ", ".join(f'"{each}"' for each in _JOB_RESTART_POLICIES)
        detail = f"Required value: valid values: {listed}"
        found.append(cause("spec.template.spec.restartPolicy", Reason.REQUIRED, detail))
    selector = spec.get("selector")
    malformed = _selector_problems(selector) if isinstance(selector, Mapping) else []
    if not isinstance(selector, Mapping):
        found.append(required("spec.selector"))
    found += malformed
    if not malformed:
        found += _mismatch(spec, given)
    return found


_IN, _EXISTS = ("In", "NotIn"), ("Exists", "DoesNotExist")


def _selector_problems(selector: Mapping[str, Any]) -> list[Cause]:
    """``metav1validation.ValidateLabelSelector`` with label values checked (the apps
    kinds' ``AllowInvalidLabelValueInSelector: false``). ``LabelSelectorAsSelector``
    refuses exactly what this finds. ``matchLabels`` is a Go map, which the server
    walks in random order: its problems come sorted by key here."""
    found: list[Cause] = []
    path = "spec.selector.matchLabels"
    for key, value in sorted(_strings(selector.get("matchLabels")).items()):
        found += [invalid_cause(path, key, message) for message in qualified_name(str(key))]
        found += [invalid_cause(path, value, message) for message in label_value(str(value))]
    for index, expression in enumerate(selector.get("matchExpressions") or ()):
        path = f"spec.selector.matchExpressions[{index}]"
        key, operator, values = _requirement(expression)
        if operator in _IN:
            if not values:
                detail = "Required value: must be specified when `operator` is 'In' or 'NotIn'"
                found.append(cause(f"{path}.values", Reason.REQUIRED, detail))
        elif operator in _EXISTS:
            if values:
                detail = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
                found.append(forbidden(f"{path}.values", detail))
        else:
            found.append(
                invalid_cause(f"{path}.operator", operator, "not a valid selector operator")
            )
        found += [invalid_cause(f"{path}.key", key, message) for message in qualified_name(key)]
        for at, value in enumerate(values):
            found += [
                invalid_cause(f"{path}.values[{at}]", value, message)
                for message in label_value(value)
            ]
    return found


def _requirement(expression: Any) -> tuple[str, str, list[str]]:
    """A ``LabelSelectorRequirement``'s key, operator and values, Go's zero values for
    what is missing."""
    item = expression if isinstance(expression, Mapping) else {}
    values = item.get("values")
    return (
        str(item.get("key") or ""),
        str(item.get("operator") or ""),
        [str(value) for value in values] if isinstance(values, list) else [],
    )


def _selector_json(selector: Mapping[str, Any]) -> str:
    """``json.Marshal`` of a ``*metav1.LabelSelector``: the struct's field order
    (matchLabels, then matchExpressions), both omitempty, a requirement's values too."""
    parts = []
    labels = _strings(selector.get("matchLabels"))
    if labels:
        parts.append(f'"matchLabels":{go_json(labels)}')
    expressions = [_requirement(each) for each in selector.get("matchExpressions") or ()]
    if expressions:
        listed = ",".join(
            go_json({"key": key, "operator": op, **({"values": values} if values else {})})
            for key, op, values in expressions
        )
        parts.append(f'"matchExpressions":[{listed}]')
    return "{" + ",".join(parts) + "}"


def _selector_cause(selector: Mapping[str, Any], detail: str) -> Cause:
    """``field.Invalid`` of ``spec.selector``: the selector as JSON, and no ': ' before
    an empty detail (``field.Error.ErrorBody``)."""
    body = f"Invalid value: {_selector_json(selector)}" + (f": {detail}" if detail else "")
    return cause("spec.selector", Reason.INVALID, body)


def _immutable_selector(spec: Mapping[str, Any], old_spec: Mapping[str, Any]) -> list[Cause]:
    """``ValidateImmutableField`` of ``spec.selector`` (``apiequality.Semantic``: an
    empty map or list equals an absent one, as the JSON of both shows)."""
    new, old = _field(spec, "selector"), _field(old_spec, "selector")
    if _selector_json(new) == _selector_json(old):
        return []
    return [_selector_cause(new, "field is immutable")]


def _as_selector(selector: Mapping[str, Any]) -> LabelSelector:
    """``metav1.LabelSelectorAsSelector`` of a selector ``_selector_problems`` passes."""
    requirements = [
        Requirement(str(key), "=", (str(value),))
        for key, value in sorted(_strings(selector.get("matchLabels")).items())
    ]
    for expression in selector.get("matchExpressions") or ():
        key, operator, values = _requirement(expression)
        requirements.append(Requirement(key, _OPERATORS[operator], tuple(values)))
    return LabelSelector(tuple(requirements))


#: matchExpressions' operators as ``LabelSelectorAsSelector`` makes requirements of them
_OPERATORS = {"In": "in", "NotIn": "notin", "Exists": "exists", "DoesNotExist": "!"}


def _field(obj: Any, name: str) -> Mapping[str, Any]:
    """``obj[name]`` when both are objects, else an empty one."""
    value = obj.get(name) if isinstance(obj, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _strings(labels: Any) -> dict[str, str]:
    return dict(labels) if isinstance(labels, Mapping) else {}
