"""The workload kinds' rules, as kube-apiserver 1.34 refuses a workload it will not
store (``pkg/apis/apps/validation/validation.go`` ``ValidateDeploymentSpec``,
``ValidateReplicaSetSpec``, ``ValidateStatefulSetSpec``, ``ValidateDaemonSetSpec`` and
their ``...Update``; ``pkg/apis/batch/validation/validation.go`` ``validateJobSpec``,
``validateCronJobSpec``).

Pure. What the store checks of a workload's spec beyond its decoding:

- the counts that must not be negative, in each validation's order, and a Deployment's
  progress deadline above its ``minReadySeconds``: what an int32 that overflowed in a
  server-side apply comes to (the conversion wraps 3000000000 to -1294967296);
- an apps/v1 workload's selector and pod template, at the place each validation checks
  them (``_SELECTOR_RULES``): the selector required (not of a DaemonSet, whose absent
  selector only fails to match), well formed (apimachinery's
  ``metav1validation.ValidateLabelSelector``, ``pods.label_selector_problems``: label
  keys and values, operators and their values), not empty, matching the template's labels
  (``metav1.LabelSelectorAsSelector``: an absent selector matches nothing), and the
  pod template (``validation.pods``, ``ValidatePodSpec``'s commonest rules: volumes,
  containers and init containers, ports, env, mounts, resources, policies; a
  StatefulSet's with a volume per claim template), then its pods' restart policy
  Always and no active deadline (``ValidatePodTemplateSpecForReplicaSet``, a
  DaemonSet's and a StatefulSet's own);
- a Job (``ValidateJob``, and on an update ``ValidateJobUpdate`` after it, which
  checks the spec a second time: its causes twice, the message once): the labels and
  selector the strategy generates (``validateGeneratedSelector``), the counts,
  completion mode, indexes' backoff, pod failure, success and pod replacement
  policies, the pod template (``validation.pods``) and the Job's restart policy, the
  selector; on an update
  the completions (an Indexed Job's with its parallelism), selector, template (a
  suspended Job's scheduling directives aside), completion mode, pod failure policy,
  backoffLimitPerIndex, managedBy and success policy are immutable;
- a CronJob (``validateCronJobSpec``, on a create and an update): its schedule
  (robfig/cron v3's ``ParseStandard``, ``cron_schedule_problem``, then no TZ in it),
  starting deadline, time zone (when new or changed; Go's ``time.LoadLocation`` read
  as the system's zoneinfo database), concurrency policy, history limits and job
  template (``ValidateJobTemplateSpec``: the Job spec's rules, written once and
  given the path ``spec.jobTemplate.spec``; no selector, no manual selector). A
  ``TZ=`` schedule without a space makes kube-apiserver's parser panic (the request
  fails without an answer); the store answers as if the location ended at the last
  character but one, as Go's slice would have read it;
- a StatefulSet's pod management policy, update strategy, claim retention policy,
  ``ordinals.start`` and its pods' restart policy and active deadline
  (``ValidateStatefulSetSpec``);
- on an update, an apps/v1 selector is immutable (the registries' ``ValidateUpdate``
  of ``pkg/registry/apps/*/strategy.go``), and a StatefulSet's spec may change only in
  ``_STATEFULSET_MUTABLE`` (``ValidateStatefulSetUpdate``).

Not checked: what ``validation.pods`` lists as not checked of a pod template (the
volume sources' fields, probes, security contexts, the pod-level fields after the
restart policy, ...), a template's labels and annotations, the other kinds'
strategies. A Job's
changed template is refused with its internal Go type as its value (``GO_TYPES``:
every type a pod spec reaches; only an ephemeral volume's claim template, which
embeds ObjectMeta, is printed as the API's JSON, where the server's is not).
tests/integration/test_localstore_workloads_differential.py,
test_localstore_job_differential.py and test_localstore_pod_template_differential.py
hold these to the server.
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from kubectl_crd.model.govalues import bad_value, go_equal, go_json
from kubectl_crd.model.labels import LabelSelector, Requirement
from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    duplicate,
    forbidden,
    invalid_cause,
    not_supported,
    required,
)
from kubectl_crd.validation.names import (
    dns1123_label,
    dns1123_subdomain,
    qualified_name,
)
from kubectl_crd.validation.pod_go_types import GO_TYPES, POD_SPEC_MOVED, POD_SPEC_V1_ONLY
from kubectl_crd.validation.pods import (
    label_selector_problems,
    pod_template_problems,
    selector_requirement,
)
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
        "ttlSecondsAfterFinished", "backoffLimitPerIndex",
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
    if (group, kind) == ("batch", "CronJob") and isinstance(spec, Mapping):
        old_spec = _field(old, "spec") if old is not None else None
        sent = _sent(given, "spec", "jobTemplate", "spec")
        return _validate_cronjob(spec, old_spec, sent)
    if names is None or not isinstance(spec, Mapping):
        return []
    old_spec = _field(old, "spec") if old is not None else None
    if (group, kind) == ("batch", "Job"):
        found = _validate_job(obj, spec, given)
        if old is not None:
            # the strategy's ValidateUpdate: ValidateJob, then ValidateJobUpdate
            found += validate_job_update(obj, old, given)
        return found
    rules = _SELECTOR_RULES.get((group, kind))
    stateful = (group, kind) == ("apps", "StatefulSet")
    found = _statefulset_strategies(spec) if stateful else []
    if rules is not None and old_spec is not None and rules.immutable == "first":
        found += _immutable_selector(spec, old_spec)
    for index, name in enumerate(names):
        if rules is not None and index == rules.after:
            found += _selector_and_template(rules, spec, given)
        value = _number(spec.get(name))
        if value is not None and value < 0:
            found.append(invalid_cause(f"spec.{name}", value, _NONNEGATIVE))
    if stateful:
        start = _number(_field(spec, "ordinals").get("start"))
        if start is not None and start < 0:
            found.append(invalid_cause("spec.ordinals.start", start, _NONNEGATIVE))
    if rules is not None and rules.after == len(names):
        found += _selector_and_template(rules, spec, given)
    if stateful:
        found += _statefulset_pod_rules(spec)
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


def validate_job_update(
    obj: Mapping[str, Any], old: Mapping[str, Any], given: Mapping[str, Any] | None = None
) -> list[Cause]:
    """``ValidateJobUpdate``'s spec causes (after its ``ValidateObjectMetaUpdate``):
    ``ValidateJobSpec`` a second time (its causes twice, the message once), then the
    fields an update may not change."""
    spec = obj.get("spec")
    if not isinstance(spec, Mapping):
        return []
    return _job_spec(obj, spec, given) + _job_update(spec, _field(old, "spec"), old)


_POD_MANAGEMENT = ("OrderedReady", "Parallel")
_STATEFULSET_STRATEGIES = ("RollingUpdate", "OnDelete")
_RETENTION = ("Retain", "Delete")


def _statefulset_strategies(spec: Mapping[str, Any]) -> list[Cause]:
    """``ValidateStatefulSetSpec`` before its counts: the pod management policy, the
    update strategy (a rolling update's only with RollingUpdate, its partition not
    negative) and the claim retention policy."""
    found: list[Cause] = []
    policy = spec.get("podManagementPolicy") or ""
    choices = " or ".join(f"'{each}'" for each in _POD_MANAGEMENT)
    if not policy:
        found.append(required("spec.podManagementPolicy"))
    elif policy not in _POD_MANAGEMENT:
        found.append(
            invalid_cause("spec.podManagementPolicy", policy, f"must be {choices}", named=True)
        )
    strategy = _field(spec, "updateStrategy")
    kind = strategy.get("type") or ""
    rolling = strategy.get("rollingUpdate")
    where = "spec.updateStrategy"
    if not kind:
        found.append(required(where))
    elif kind == "OnDelete":
        if isinstance(rolling, Mapping):
            detail = "only allowed for updateStrategy 'RollingUpdate'"
            found.append(_go_struct_cause(f"{where}.rollingUpdate", _rolling_go(rolling), detail))
    elif kind == "RollingUpdate":
        partition = _number(_field(strategy, "rollingUpdate").get("partition"))
        if partition is not None and partition < 0:
            found.append(invalid_cause(f"{where}.rollingUpdate.partition", partition, _NONNEGATIVE))
    else:
        shown = (f'{{"Type":{go_json(kind)},"RollingUpdate":'
                 f"{_rolling_go(rolling) if isinstance(rolling, Mapping) else 'null'}}}")  # fmt: skip
        choices = " or ".join(f"'{each}'" for each in _STATEFULSET_STRATEGIES)
        found.append(_go_struct_cause(where, shown, f"must be {choices}"))
    retention = spec.get("persistentVolumeClaimRetentionPolicy")
    if isinstance(retention, Mapping):
        for key in ("whenDeleted", "whenScaled"):
            value = retention.get(key) or ""
            if value not in _RETENTION:
                found.append(
                    not_supported(
                        f"spec.persistentVolumeClaimRetentionPolicy.{key}",
                        value,
                        _RETENTION,
                        named=True,
                    )
                )
    return found


def _rolling_go(rolling: Mapping[str, Any]) -> str:
    """``json.Marshal`` of the internal ``apps.RollingUpdateStatefulSetStrategy``."""
    return (
        f'{{"Partition":{go_json(rolling.get("partition"))},'
        f'"MaxUnavailable":{go_json(rolling.get("maxUnavailable"))}}}'
    )


def _statefulset_pod_rules(spec: Mapping[str, Any]) -> list[Cause]:
    """``ValidateStatefulSetSpec``'s last rules, after its template's
    (``_selector_and_template``): the pods restart Always, and have no active
    deadline."""
    found: list[Cause] = []
    pod = _field(_field(spec, "template"), "spec")
    restart = pod.get("restartPolicy") or ""
    where = "spec.template.spec.restartPolicy"
    if restart != "Always":
        found.append(not_supported(where, restart, ("Always",), named=True))
    if pod.get("activeDeadlineSeconds") is not None:
        detail = "activeDeadlineSeconds in StatefulSet is not Supported"
        found.append(forbidden("spec.template.spec.activeDeadlineSeconds", detail))
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
    if daemonset or not malformed:
        found += _pod_template(rules, spec, template, _sent(given, "spec", "template"))
    return found


def _pod_template(
    rules: _SelectorRules,
    spec: Mapping[str, Any],
    template: Mapping[str, Any],
    sent: Mapping[str, Any] | None,
) -> list[Cause]:
    """``ValidatePodTemplateSpec`` of an apps/v1 template (``pods``), then, but for a
    StatefulSet (``_statefulset_pod_rules``, after its template), the pods' restart
    policy Always and no active deadline (``ValidatePodTemplateSpecForReplicaSet``, a
    Deployment's too; ``ValidateDaemonSetSpec``)."""
    if rules.immutable == "spec":
        # ValidateStatefulSetSpec validates the template with a volume per claim
        # template (volumesToAddForTemplates)
        claims = [_field(each, "metadata").get("name") or ""
                  for each in spec.get("volumeClaimTemplates") or () if isinstance(each, Mapping)]  # fmt: skip
        return pod_template_problems(template, "spec.template", claim_volumes=claims, given=sent)
    found = pod_template_problems(template, "spec.template", given=sent)
    pod = _field(template, "spec")
    restart = pod.get("restartPolicy") or ""
    if restart != "Always":
        found.append(
            not_supported("spec.template.spec.restartPolicy", restart, ("Always",), named=True)
        )
    if pod.get("activeDeadlineSeconds") is not None:
        owner = "DaemonSet" if rules.unparsable is None else "ReplicaSet"
        detail = f"activeDeadlineSeconds in {owner} is not Supported"
        found.append(forbidden("spec.template.spec.activeDeadlineSeconds", detail))
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


#: the labels a Job's generated selector must match (``validateGeneratedSelector``), in
#: its order: what ``prepare_job_for_create`` gives its template, the Job's uid or name
_JOB_GENERATED = (("controller-uid", "uid"), ("job-name", "name"),
                  ("batch.kubernetes.io/controller-uid", "uid"),
                  ("batch.kubernetes.io/job-name", "name"))  # fmt: skip
_JOB_RESTART_POLICIES = ("OnFailure", "Never")


_COMPLETION_MODES = ("NonIndexed", "Indexed")
# sets.List: sorted
_FAILURE_ACTIONS = ("Count", "FailIndex", "FailJob", "Ignore")
_EXIT_CODE_OPERATORS = ("In", "NotIn")
_CONDITION_STATUSES = ("False", "True", "Unknown")
_REPLACEMENT_POLICIES = ("Failed", "TerminatingOrFailed")
_INDEXED_PARALLELISM = 100_000
_COMPLETIONS_SOFT_LIMIT = 100_000
_HIGH_COMPLETIONS_LIMIT = 10_000
_INDEXES_LIMIT = 64 * 1024
#: what an update of a Job may change of its template while it is suspended and has
#: never started (``validatePodTemplateUpdate``'s AllowMutableSchedulingDirectives)
_SCHEDULING_DIRECTIVES = ("nodeSelector", "tolerations", "schedulingGates")
#: ``ValidateJobSpecUpdate``'s immutable fields after the completions and selector,
#: in its order
_JOB_IMMUTABLE = ("completionMode", "podFailurePolicy", "backoffLimitPerIndex",
                  "managedBy", "successPolicy")  # fmt: skip


def _validate_job(
    obj: Mapping[str, Any], spec: Mapping[str, Any], given: Mapping[str, Any] | None
) -> list[Cause]:
    """``ValidateJob`` (``pkg/apis/batch/validation/validation.go``) after the metadata:
    ``validateGeneratedSelector``, ``ValidateJobSpec``, then an Indexed Job's last pod
    hostname."""
    found = _job_generated_selector(obj, spec) + _job_spec(obj, spec, given)
    completions = _number(spec.get("completions"))
    if spec.get("completionMode") == "Indexed" and completions is not None and completions > 0:
        name = str(_field(obj, "metadata").get("name") or "")
        hostname = f"{name}-{completions - 1}"
        if dns1123_label(hostname):
            detail = f"will not able to create pod with invalid DNS label: {hostname}"
            found.append(invalid_cause("metadata.name", name, detail))
    return found


def _job_generated_selector(obj: Mapping[str, Any], spec: Mapping[str, Any]) -> list[Cause]:
    """``validateGeneratedSelector``: without ``manualSelector: true``, the template
    must hold the labels the strategy generates (``ValidateHasLabel``), and a selector
    (the store's create adds the uid to it, as ``generateSelector`` does) must match
    them."""
    selector = spec.get("selector")
    if spec.get("manualSelector") is True or not isinstance(selector, Mapping):
        return []
    meta = _field(obj, "metadata")
    expected = {key: str(meta.get(field) or "") for key, field in _JOB_GENERATED}
    labels = _field(_field(_field(spec, "template"), "metadata"), "labels")
    found: list[Cause] = []
    for key, value in expected.items():
        where = f"spec.template.metadata.labels[{key}]"
        if key not in labels:
            found.append(cause(where, Reason.REQUIRED, f"Required value: must be '{value}'"))
        elif labels[key] != value:
            found.append(invalid_cause(where, dict(labels), f"must be '{value}'"))
    if not _selector_problems(selector) and not _as_selector(selector).matches(expected):
        found.append(_selector_cause(selector, "`selector` not auto-generated"))
    return found


def _job_spec(
    obj: Mapping[str, Any], spec: Mapping[str, Any], given: Mapping[str, Any] | None
) -> list[Cause]:
    """``ValidateJobSpec``: ``validateJobSpec``'s rules, then the selector (required,
    well formed, an empty one allowed) and its match."""
    found = _job_counts_and_policies(spec, "spec", _sent(given, "spec"))
    selector = spec.get("selector")
    malformed = _selector_problems(selector) if isinstance(selector, Mapping) else []
    if not isinstance(selector, Mapping):
        found.append(required("spec.selector"))
    found += malformed
    if not malformed:
        found += _mismatch(spec, given)
    return found


def _job_counts_and_policies(
    spec: Mapping[str, Any], at: str, sent: Mapping[str, Any] | None
) -> list[Cause]:
    """``validateJobSpec`` of the Job spec at ``at`` (a Job's ``spec``, a CronJob's
    ``spec.jobTemplate.spec``), in its order (of the pod template, only its containers
    and restart policy). ``sent``: the Job spec as the request sent it."""
    found: list[Cause] = []
    for name in _NONNEGATIVE_FIELDS[("batch", "Job")]:
        value = _number(spec.get(name))
        if value is not None and value < 0:
            found.append(invalid_cause(f"{at}.{name}", value, _NONNEGATIVE))
    per_index = _number(spec.get("backoffLimitPerIndex"))
    max_failed = _number(spec.get("maxFailedIndexes"))
    if max_failed is not None:
        if max_failed < 0:
            found.append(invalid_cause(f"{at}.maxFailedIndexes", max_failed, _NONNEGATIVE))
        if per_index is None:
            detail = "Required value: when maxFailedIndexes is specified"
            found.append(cause(f"{at}.backoffLimitPerIndex", Reason.REQUIRED, detail))
    managed_by = spec.get("managedBy")
    if isinstance(managed_by, str):
        found += _domain_prefixed_path(f"{at}.managedBy", managed_by)
    mode = spec.get("completionMode")
    completions = _number(spec.get("completions"))
    parallelism = _number(spec.get("parallelism"))
    if mode is not None and mode not in _COMPLETION_MODES:
        found.append(not_supported(f"{at}.completionMode", mode, _COMPLETION_MODES, named=True))
    if mode == "Indexed":
        if completions is None:
            detail = "Required value: when completion mode is Indexed"
            found.append(cause(f"{at}.completions", Reason.REQUIRED, detail))
        if parallelism is not None and parallelism > _INDEXED_PARALLELISM:
            detail = f"must be less than or equal to {_INDEXED_PARALLELISM} when completion mode is Indexed"
            found.append(invalid_cause(f"{at}.parallelism", parallelism, detail))
        if completions is not None and max_failed is not None and max_failed > completions:
            detail = "must be less than or equal to completions"
            found.append(invalid_cause(f"{at}.maxFailedIndexes", max_failed, detail))
        if max_failed is not None and max_failed > _INDEXED_PARALLELISM:
            detail = f"must be less than or equal to {_INDEXED_PARALLELISM}"
            found.append(invalid_cause(f"{at}.maxFailedIndexes", max_failed, detail))
        if (
            completions is not None
            and completions > _COMPLETIONS_SOFT_LIMIT
            and per_index is not None
        ):
            found += _high_completions(parallelism, max_failed, at)
    if mode in (None, "NonIndexed"):
        for name, value in (("backoffLimitPerIndex", per_index), ("maxFailedIndexes", max_failed)):
            if value is not None:
                found.append(
                    invalid_cause(f"{at}.{name}", value, "requires indexed completion mode")
                )
    policy = spec.get("podFailurePolicy")
    if isinstance(policy, Mapping):
        found += _pod_failure_policy(spec, policy, at)
    success = spec.get("successPolicy")
    if isinstance(success, Mapping):
        if mode != "Indexed":
            detail = "requires indexed completion mode"
            found.append(
                _go_struct_cause(f"{at}.successPolicy", _success_policy_go(success), detail)
            )
        else:
            found += _success_policy(success, completions or 0, at)
    replacement = spec.get("podReplacementPolicy")
    if replacement is not None:
        allowed = ("Failed",) if isinstance(policy, Mapping) else _REPLACEMENT_POLICIES
        if replacement not in allowed:
            found.append(
                not_supported(f"{at}.podReplacementPolicy", replacement, allowed, named=True)
            )
    template_spec = _field(_field(spec, "template"), "spec")
    sent_template = _field(sent, "template") if sent is not None else None
    found += pod_template_problems(_field(spec, "template"), f"{at}.template", given=sent_template)
    restart = template_spec.get("restartPolicy") or ""
    where = f"{at}.template.spec.restartPolicy"
    if restart in ("Always", ""):
        listed = ", ".join(f'"{each}"' for each in _JOB_RESTART_POLICIES)
        found.append(cause(where, Reason.REQUIRED, f"Required value: valid values: {listed}"))
    elif restart not in _JOB_RESTART_POLICIES:
        found.append(not_supported(where, restart, _JOB_RESTART_POLICIES, named=True))
    elif isinstance(policy, Mapping) and restart != "Never":
        detail = 'only "Never" is supported when podFailurePolicy is specified'
        found.append(invalid_cause(where, restart, detail))
    return found


def _high_completions(parallelism: int | None, max_failed: int | None, at: str) -> list[Cause]:
    """An Indexed Job's limits above 100000 completions with a backoff per index."""
    found: list[Cause] = []
    tail = f"when completions are above {_COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
    if max_failed is None:
        detail = (
            f"Required value: must be specified when completions is above {_COMPLETIONS_SOFT_LIMIT}"
        )
        found.append(cause(f"{at}.maxFailedIndexes", Reason.REQUIRED, detail))
    if parallelism is not None and parallelism > _HIGH_COMPLETIONS_LIMIT:
        detail = f"must be less than or equal to {_HIGH_COMPLETIONS_LIMIT} {tail}"
        found.append(invalid_cause(f"{at}.parallelism", parallelism, detail))
    if max_failed is not None and max_failed > _HIGH_COMPLETIONS_LIMIT:
        detail = f"must be less than or equal to {_HIGH_COMPLETIONS_LIMIT} {tail}"
        found.append(invalid_cause(f"{at}.maxFailedIndexes", max_failed, detail))
    return found


def _domain_prefixed_path(path: str, value: str) -> list[Cause]:
    """apimachinery's ``IsDomainPrefixedPath`` (the host a DNS subdomain)."""
    host, slash, rest = value.partition("/")
    if not slash or not host or not rest:
        return [
            invalid_cause(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')
        ]
    return [invalid_cause(path, host, message) for message in dns1123_subdomain(host)]


def _pod_failure_policy(spec: Mapping[str, Any], policy: Mapping[str, Any], at: str) -> list[Cause]:
    """``validatePodFailurePolicy`` and each rule's ``validatePodFailurePolicyRule``."""
    found: list[Cause] = []
    rules = [r if isinstance(r, Mapping) else {} for r in policy.get("rules") or ()]
    if len(rules) > 20:
        found.append(_too_many(f"{at}.podFailurePolicy.rules", len(rules), 20))
    template_spec = _field(_field(spec, "template"), "spec")
    names = {
        str(container.get("name"))
        for key in ("containers", "initContainers")
        for container in template_spec.get(key) or ()
        if isinstance(container, Mapping)
    }
    for index, rule in enumerate(rules):
        where = f"{at}.podFailurePolicy.rules[{index}]"
        action = rule.get("action") or ""
        if not action:
            listed = " ".join(f'"{a}"' for a in _FAILURE_ACTIONS)
            detail = f"Required value: valid values: [{listed}]"
            found.append(cause(f"{where}.action", Reason.REQUIRED, detail))
        elif action == "FailIndex":
            if spec.get("backoffLimitPerIndex") is None:
                detail = "requires the backoffLimitPerIndex to be set"
                found.append(invalid_cause(f"{where}.action", action, detail))
        elif action not in _FAILURE_ACTIONS:
            found.append(not_supported(f"{where}.action", action, _FAILURE_ACTIONS, named=True))
        exit_codes = rule.get("onExitCodes")
        conditions = rule.get("onPodConditions") or []
        if isinstance(exit_codes, Mapping):
            found += _on_exit_codes(f"{where}.onExitCodes", exit_codes, names)
        if conditions:
            found += _on_pod_conditions(f"{where}.onPodConditions", conditions)
        if isinstance(exit_codes, Mapping) and conditions:
            detail = (
                "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"
            )
            found.append(cause(where, Reason.INVALID, detail))
        if not isinstance(exit_codes, Mapping) and not conditions:
            detail = "Invalid value: specifying one of OnExitCodes and OnPodConditions is required"
            found.append(cause(where, Reason.INVALID, detail))
    return found


def _on_exit_codes(where: str, requirement: Mapping[str, Any], names: set[str]) -> list[Cause]:
    """``validatePodFailurePolicyRuleOnExitCodes``."""
    found: list[Cause] = []
    operator = requirement.get("operator") or ""
    if not operator:
        listed = " ".join(f'"{o}"' for o in _EXIT_CODE_OPERATORS)
        found.append(
            cause(f"{where}.operator", Reason.REQUIRED, f"Required value: valid values: [{listed}]")
        )
    elif operator not in _EXIT_CODE_OPERATORS:
        found.append(not_supported(f"{where}.operator", operator, _EXIT_CODE_OPERATORS, named=True))
    container = requirement.get("containerName")
    if container is not None and container not in names:
        detail = "must be one of the container or initContainer names in the pod template"
        found.append(invalid_cause(f"{where}.containerName", container, detail))
    values = requirement.get("values")
    codes = [_number(v) or 0 for v in values] if isinstance(values, list) else []
    if not codes:
        found.append(invalid_cause(f"{where}.values", values, "at least one value is required"))
    elif len(codes) > 255:
        found.append(_too_many(f"{where}.values", len(codes), 255))
    seen: set[int] = set()
    for index, code in enumerate(codes):
        if operator == "In" and code == 0:
            found.append(
                invalid_cause(f"{where}.values[{index}]", code, "must not be 0 for the In operator")
            )
        if code in seen:
            found.append(duplicate(f"{where}.values[{index}]", code))
        seen.add(code)
    if any(a > b for a, b in itertools.pairwise(codes)):
        found.append(invalid_cause(f"{where}.values", codes, "must be ordered"))
    return found


def _on_pod_conditions(where: str, patterns: list[Any]) -> list[Cause]:
    """``validatePodFailurePolicyRuleOnPodConditions`` (a pattern's status defaults to
    True)."""
    found: list[Cause] = []
    if len(patterns) > 20:
        found.append(_too_many(where, len(patterns), 20))
    for index, pattern in enumerate(patterns):
        item = pattern if isinstance(pattern, Mapping) else {}
        kind = str(item.get("type") or "")
        found += [invalid_cause(f"{where}[{index}].type", kind, m) for m in qualified_name(kind)]
        status = item.get("status") or ""
        if not status:
            listed = " ".join(f'"{s}"' for s in _CONDITION_STATUSES)
            detail = f"Required value: valid values: [{listed}]"
            found.append(cause(f"{where}[{index}].status", Reason.REQUIRED, detail))
        elif status not in _CONDITION_STATUSES:
            found.append(
                not_supported(f"{where}[{index}].status", status, _CONDITION_STATUSES, named=True)
            )
    return found


def _success_policy(policy: Mapping[str, Any], completions: int, at: str) -> list[Cause]:
    """``validateSuccessPolicy`` and each rule's ``validateSuccessPolicyRule``."""
    found: list[Cause] = []
    rules = [r if isinstance(r, Mapping) else {} for r in policy.get("rules") or ()]
    where = f"{at}.successPolicy.rules"
    if not rules:
        detail = "Required value: at least one rules must be specified when the successPolicy is specified"
        found.append(cause(where, Reason.REQUIRED, detail))
    if len(rules) > 20:
        found.append(_too_many(where, len(rules), 20))
    for index, rule in enumerate(rules):
        at = f"{where}[{index}]"
        indexes, count = rule.get("succeededIndexes"), _number(rule.get("succeededCount"))
        if indexes is None and count is None:
            detail = "Required value: at least one of succeededCount or succeededIndexes must be specified"
            found.append(cause(at, Reason.REQUIRED, detail))
        total = 0
        if isinstance(indexes, str):
            if len(indexes) > _INDEXES_LIMIT:
                detail = f"Too long: may not be more than {_INDEXES_LIMIT} bytes"
                found.append(cause(f"{at}.succeededIndexes", Reason.TOO_LONG, detail))
            total, problem = _indexes_count(indexes, completions)
            if problem:
                detail = f"error parsing succeededIndexes: {problem}"
                found.append(invalid_cause(f"{at}.succeededIndexes", indexes, detail))
        if count is not None:
            if count < 0:
                found.append(invalid_cause(f"{at}.succeededCount", count, _NONNEGATIVE))
            if count > completions:
                detail = f"must be less than or equal to {completions} (the number of specified completions)"
                found.append(invalid_cause(f"{at}.succeededCount", count, detail))
            if isinstance(indexes, str) and count > total:
                detail = (f"must be less than or equal to {total} (the number of indexes in the "
                          "specified succeededIndexes field)")  # fmt: skip
                found.append(invalid_cause(f"{at}.succeededCount", count, detail))
    return found


def _indexes_count(text: str, completions: int) -> tuple[int, str]:
    """``validateIndexesFormat``: how many indexes ``0,2-4``-style text names, or the
    problem (then 0)."""
    if not text:
        return 0, ""
    last: int | None = None
    total = 0
    for interval in text.split(","):
        limits = interval.split("-")
        if len(limits) > 2:
            return 0, (f"the fragment {go_json(interval)} violates the requirement that an index "
                       "interval can have at most two parts separated by '-'")  # fmt: skip
        for position, part in enumerate(limits):
            if not re.fullmatch(r"[+-]?\d+", part):
                return 0, f"cannot convert string to integer for index: {go_json(part)}"
            number = int(part)
            if number >= completions:
                return 0, f"too large index: {go_json(part)}"
            if last is not None and last >= number:
                return 0, f"non-increasing order, previous: {last}, current: {number}"
            total += 1 if position == 0 else number - last  # type: ignore[operator]
            last = number
    return total, ""


def _too_many(where: str, count: int, limit: int) -> Cause:
    return cause(where, Reason.TOO_MANY, f"Too many: {count}: must have at most {limit} items")


def _go_struct_cause(where: str, value: str, detail: str) -> Cause:
    """``field.Invalid`` of a value printed as JSON of an internal Go struct."""
    return cause(where, Reason.INVALID, f"Invalid value: {value}: {detail}")


def _success_policy_go(policy: Mapping[str, Any]) -> str:
    """``json.Marshal`` of the internal ``batch.SuccessPolicy`` (no JSON tags: Go's
    field names, nil pointers and slices ``null``)."""
    rules = policy.get("rules")
    if not isinstance(rules, list):
        return '{"Rules":null}'
    listed = ",".join(
        f'{{"SucceededIndexes":{go_json(r.get("succeededIndexes"))},'
        f'"SucceededCount":{go_json(r.get("succeededCount"))}}}'
        for r in rules
        if isinstance(r, Mapping)
    )
    return f'{{"Rules":[{listed}]}}'


def _pod_failure_policy_go(policy: Mapping[str, Any]) -> str:
    """``json.Marshal`` of the internal ``batch.PodFailurePolicy``."""
    rules = []
    for rule in policy.get("rules") or ():
        item = rule if isinstance(rule, Mapping) else {}
        codes = item.get("onExitCodes")
        exit_codes = (
            f'{{"ContainerName":{go_json(codes.get("containerName"))},'
            f'"Operator":{go_json(codes.get("operator") or "")},'
            f'"Values":{go_json(codes.get("values"))}}}'
            if isinstance(codes, Mapping)
            else "null"
        )
        conditions = item.get("onPodConditions")
        patterns = (
            "[" + ",".join(
                f'{{"Type":{go_json(p.get("type") or "")},"Status":{go_json(p.get("status") or "")}}}'
                for p in conditions if isinstance(p, Mapping)
            ) + "]"
            if isinstance(conditions, list)
            else "null"
        )  # fmt: skip
        rules.append(
            f'{{"Action":{go_json(item.get("action") or "")},"OnExitCodes":{exit_codes},'
            f'"OnPodConditions":{patterns}}}'
        )
    return f'{{"Rules":[{",".join(rules)}]}}'


def _job_update(
    spec: Mapping[str, Any], old_spec: Mapping[str, Any], old: Mapping[str, Any]
) -> list[Cause]:
    """``ValidateJobSpecUpdate`` after its ``ValidateJobSpec``: ``validateCompletions``
    (an Indexed Job's completions change only with its parallelism), the selector,
    ``validatePodTemplateUpdate`` (a Job suspended and never started may change its
    scheduling directives), then ``_JOB_IMMUTABLE``."""
    found: list[Cause] = []
    completions, old_completions = spec.get("completions"), old_spec.get("completions")
    if completions != old_completions:
        if spec.get("completionMode") != "Indexed":
            found.append(invalid_cause("spec.completions", completions, "field is immutable"))
        elif completions is not None and completions != spec.get("parallelism"):
            detail = "can only be modified in tandem with spec.parallelism"
            found.append(invalid_cause("spec.completions", completions, detail))
    found += _immutable_selector(spec, old_spec)
    template, old_template = _field(spec, "template"), _field(old_spec, "template")
    status = _field(old, "status")
    if old_spec.get("suspend") is True and status.get("startTime") is None:
        old_template = _with_scheduling_directives(old_template, template)
    if not go_equal(dict(template), dict(old_template)):
        shown = _pod_template_go(template)
        found.append(_go_struct_cause("spec.template", shown, "field is immutable"))
    for name in _JOB_IMMUTABLE:
        value, old_value = spec.get(name), old_spec.get(name)
        if go_equal(value, old_value):
            continue
        if name == "podFailurePolicy":
            shown = _pod_failure_policy_go(value) if isinstance(value, Mapping) else "null"
        elif name == "successPolicy":
            shown = _success_policy_go(value) if isinstance(value, Mapping) else "null"
        else:
            shown = bad_value(value)
        found.append(_go_struct_cause(f"spec.{name}", shown, "field is immutable"))
    return found


class _Unrenderable(Exception):
    """A template holds a field ``GO_TYPES`` does not know the Go type of."""


# GO_TYPES (pod_go_types, generated by hack/go_field_names.py from kubernetes v1.34.4's
# pkg/apis/core/types.go and k8s.io/api v0.34.4's core/v1/types.go, not from
# builtin_types.json, whose OpenAPI source has no Go field names): every internal type a
# PodSpec reaches, its fields in declaration order as kube-apiserver 1.34's json.Marshal
# writes them (no JSON tags: Go's names; an embedded struct's fields in its place), each
# with the v1 JSON name that holds it. A kind: ``s`` string, ``b`` bool, ``i`` integer
# (their zero values), ``p`` a scalar's pointer, a slice or map of scalars, or another
# package's type (LabelSelector, Quantity, IntOrString) written as its JSON (``null`` when
# absent), ``!T`` a struct, ``*T`` a pointer to one, ``[]T`` a slice of them, ``m`` an
# embedded ``metav1.ObjectMeta`` (an ephemeral volume's claim template's: its fields have
# JSON tags, written inline where it is embedded)
_ZERO = {"s": '""', "b": "false", "i": "0"}
#: ObjectMeta's JSON names in its declaration order (it has JSON tags, all omitempty)
_OBJECT_META = (
    "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
    "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels",
    "annotations", "ownerReferences", "finalizers", "managedFields",
)  # fmt: skip


def _go_value(value: Any, kind: str) -> str:
    if kind in _ZERO:
        return _ZERO[kind] if value is None else go_json(value)
    if kind == "p":
        return go_json(value)
    if kind.startswith("[]"):
        if value is None:
            return "null"
        if not isinstance(value, list):
            raise _Unrenderable
        return "[" + ",".join(_go_struct(item, kind[2:]) for item in value) + "]"
    if value is None and kind.startswith("*"):
        return "null"
    return _go_struct(value if value is not None else {}, kind[1:])


def _go_struct(value: Any, type_name: str, consumed: tuple[str, ...] = ()) -> str:
    """``json.Marshal`` of ``value`` (an API object) as the internal ``type_name``."""
    fields = GO_TYPES[type_name]
    if not isinstance(value, Mapping) or set(value) - {j for _, j, _ in fields} - set(consumed):
        raise _Unrenderable
    parts: list[str] = []
    for go, name, kind in fields:
        if kind == "m":
            parts += _object_meta_parts(_field(value, name))
        else:
            parts.append(f'"{go}":{_go_value(value.get(name), kind)}')
    return "{" + ",".join(parts) + "}"


def _object_meta_parts(meta: Mapping[str, Any]) -> list[str]:
    """An embedded ObjectMeta's JSON fields (all omitempty), in its declaration order."""
    if set(meta) - set(_OBJECT_META):
        raise _Unrenderable
    return [f'"{key}":{go_json(meta[key])}' for key in _OBJECT_META if meta.get(key)]


def _pod_template_go(template: Mapping[str, Any]) -> str:
    """``json.Marshal`` of the internal ``core.PodTemplateSpec`` of a v1 template (its
    ObjectMeta's JSON fields, then ``Spec`` in Go's names), as kube-apiserver prints the
    value of a changed template; the API's JSON for a template holding a field
    ``GO_TYPES`` does not know."""
    pod = dict(_field(template, "spec"))
    try:
        if set(template) - {"metadata", "spec"}:
            raise _Unrenderable
        parts = _object_meta_parts(_field(template, "metadata"))
        context = pod.get("securityContext")
        if isinstance(context, Mapping):
            pod["securityContext"] = {
                **context,
                **{key: pod[key] for key in POD_SPEC_MOVED if key in pod},
            }
        # the host namespaces are the internal SecurityContext's (above); serviceAccount,
        # ServiceAccountName's deprecated alias, has no internal field of its own
        spec = _go_struct(pod, "PodSpec", (*POD_SPEC_MOVED, *POD_SPEC_V1_ONLY))
    except _Unrenderable:
        return go_json(dict(template))
    return "{" + ",".join([*parts, f'"Spec":{spec}']) + "}"


def _with_scheduling_directives(
    old_template: Mapping[str, Any], template: Mapping[str, Any]
) -> dict[str, Any]:
    """The old template with the new one's labels, annotations, node selector,
    tolerations, scheduling gates and node affinity: what ``validatePodTemplateUpdate``
    compares a suspended Job's template with."""
    merged = copy.deepcopy(dict(old_template))
    meta, new_meta = dict(_field(merged, "metadata")), _field(template, "metadata")
    for key in ("labels", "annotations"):
        meta.pop(key, None)
        if key in new_meta:
            meta[key] = new_meta[key]
    merged["metadata"] = meta
    pod, new_pod = dict(_field(merged, "spec")), _field(template, "spec")
    for key in _SCHEDULING_DIRECTIVES:
        pod.pop(key, None)
        if key in new_pod:
            pod[key] = new_pod[key]
    affinity, new_affinity = pod.get("affinity"), new_pod.get("affinity")
    if isinstance(new_affinity, Mapping) or isinstance(affinity, Mapping):
        rest = {k: v for k, v in (affinity or {}).items() if k != "nodeAffinity"}
        if isinstance(new_affinity, Mapping):
            if "nodeAffinity" in new_affinity:
                rest["nodeAffinity"] = new_affinity["nodeAffinity"]
            pod["affinity"] = rest
        elif rest:
            pod["affinity"] = rest
        else:
            pod.pop("affinity", None)
    merged["spec"] = pod
    return merged


def _selector_problems(selector: Mapping[str, Any]) -> list[Cause]:
    """``metav1validation.ValidateLabelSelector`` of ``spec.selector``, label values
    checked (the apps kinds' ``AllowInvalidLabelValueInSelector: false``).
    ``LabelSelectorAsSelector`` refuses exactly what this finds."""
    return label_selector_problems(selector, "spec.selector")


def _selector_json(selector: Mapping[str, Any]) -> str:
    """``json.Marshal`` of a ``*metav1.LabelSelector``: the struct's field order
    (matchLabels, then matchExpressions), both omitempty, a requirement's values too."""
    parts = []
    labels = _strings(selector.get("matchLabels"))
    if labels:
        parts.append(f'"matchLabels":{go_json(labels)}')
    expressions = [selector_requirement(each) for each in selector.get("matchExpressions") or ()]
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
        key, operator, values = selector_requirement(expression)
        requirements.append(Requirement(key, _OPERATORS[operator], tuple(values)))
    return LabelSelector(tuple(requirements))


#: matchExpressions' operators as ``LabelSelectorAsSelector`` makes requirements of them
_OPERATORS = {"In": "in", "NotIn": "notin", "Exists": "exists", "DoesNotExist": "!"}


def _field(obj: Any, name: str) -> Mapping[str, Any]:
    """``obj[name]`` when both are objects, else an empty one."""
    value = obj.get(name) if isinstance(obj, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def _sent(given: Mapping[str, Any] | None, *path: str) -> Mapping[str, Any] | None:
    """The object at ``path`` of the body as the request sent it (None without one:
    the decoded object's values are printed)."""
    if given is None:
        return None
    for name in path:
        given = _field(given, name)
    return given


def _strings(labels: Any) -> dict[str, str]:
    return dict(labels) if isinstance(labels, Mapping) else {}


#: a CronJob's concurrency policies (``validateConcurrencyPolicy``'s order)
_CONCURRENCY_POLICIES = ("Allow", "Forbid", "Replace")
#: a time zone name's parts (``validateTimeZone``: the IANA naming rules, digits and
#: '+' tolerated for legacy names)
_TIME_ZONE_PART = re.compile(r"[A-Za-z.\-_0-9+]{1,14}")


def _validate_cronjob(
    spec: Mapping[str, Any], old_spec: Mapping[str, Any] | None, sent: Mapping[str, Any] | None
) -> list[Cause]:
    """``validateCronJobSpec`` (``pkg/apis/batch/validation/validation.go``, of
    ``ValidateCronJobCreate`` and ``ValidateCronJobUpdate``): the schedule, the starting
    deadline, the time zone (on an update only when it changed), the concurrency
    policy, the job template (``ValidateJobTemplateSpec``: ``validateJobSpec`` at
    ``spec.jobTemplate.spec``, no selector, no manual selector), the history limits.
    ``sent``: the job template's spec as the request sent it."""
    found: list[Cause] = []
    schedule = spec.get("schedule")
    schedule = schedule if isinstance(schedule, str) else ""
    if not schedule:
        found.append(required("spec.schedule"))
    else:
        found += _schedule_problems(schedule, spec.get("timeZone"), old_spec)
    deadline = _number(spec.get("startingDeadlineSeconds"))
    if deadline is not None and deadline < 0:
        found.append(invalid_cause("spec.startingDeadlineSeconds", deadline, _NONNEGATIVE))
    zone = spec.get("timeZone")
    if isinstance(zone, str) and (old_spec is None or old_spec.get("timeZone") != zone):
        found += _time_zone_problems(zone)
    policy = spec.get("concurrencyPolicy") or ""
    if not policy:
        found.append(required("spec.concurrencyPolicy"))
    elif policy not in _CONCURRENCY_POLICIES:
        found.append(
            not_supported("spec.concurrencyPolicy", policy, _CONCURRENCY_POLICIES, named=True)
        )
    at = "spec.jobTemplate.spec"
    job_spec = _field(_field(spec, "jobTemplate"), "spec")
    found += _job_counts_and_policies(job_spec, at, sent)
    selector = job_spec.get("selector")
    if isinstance(selector, Mapping):
        detail = "`selector` will be auto-generated"
        found.append(
            cause(f"{at}.selector", Reason.INVALID,
                  f"Invalid value: {_selector_json(selector)}: {detail}")
        )  # fmt: skip
    if job_spec.get("manualSelector") is True:
        found.append(not_supported(f"{at}.manualSelector", True, ("nil", "false")))
    for name in ("successfulJobsHistoryLimit", "failedJobsHistoryLimit"):
        value = _number(spec.get(name))
        if value is not None and value < 0:
            found.append(invalid_cause(f"spec.{name}", value, _NONNEGATIVE))
    return found


def _schedule_problems(schedule: str, zone: Any, old_spec: Mapping[str, Any] | None) -> list[Cause]:
    """``validateScheduleFormat``: robfig/cron's ``ParseStandard`` error, then a TZ in
    the schedule, allowed on an update only if the old schedule held one (and then not
    beside a ``timeZone``)."""
    found: list[Cause] = []
    problem = cron_schedule_problem(schedule)
    if problem:
        found.append(invalid_cause("spec.schedule", schedule, problem))
    old_schedule = old_spec.get("schedule") if old_spec is not None else None
    allow_tz = isinstance(old_schedule, str) and "TZ" in old_schedule
    if allow_tz and "TZ" in schedule and zone is not None:
        detail = "cannot use both timeZone field and TZ or CRON_TZ in schedule"
        found.append(invalid_cause("spec.schedule", schedule, detail))
    elif not allow_tz and "TZ" in schedule:
        detail = "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
        found.append(invalid_cause("spec.schedule", schedule, detail))
    return found


def _time_zone_problems(zone: str) -> list[Cause]:
    """``validateTimeZone``: not empty, IANA-named, not ``Local``, and known to
    ``time.LoadLocation``."""
    where = "spec.timeZone"
    if not zone:
        return [invalid_cause(where, zone, "timeZone must be nil or non-empty string", named=True)]
    for part in zone.split("/"):
        if part in (".", "..") or part.startswith("-") or not _TIME_ZONE_PART.fullmatch(part):
            return [invalid_cause(where, zone, f"unknown time zone {zone}", named=True)]
    found: list[Cause] = []
    if zone.lower() == "local":
        detail = (
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"
        )
        found.append(invalid_cause(where, zone, detail, named=True))
    problem = _load_location(zone)
    if problem:
        found.append(invalid_cause(where, zone, problem, named=True))
    return found


def _load_location(name: str) -> str:
    """Go's ``time.LoadLocation`` error of ``name`` ('' when it loads): ``UTC`` and
    ``Local`` are built in; other names are files of the system's zoneinfo database,
    as kube-apiserver reads them."""
    if name in ("", "UTC", "Local"):
        return ""
    if ".." in name or name.startswith("/") or "\\" in name:
        return "time: invalid location name"
    import os
    import zoneinfo

    # a directory of the database is read as a file, and fails as the read does
    if any(os.path.isdir(os.path.join(root, name)) for root in zoneinfo.TZPATH):
        return "is a directory"
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return f"unknown time zone {name}"
    return ""


class _CronBounds(NamedTuple):
    low: int
    high: int
    names: Mapping[str, int]


_MONTH_NAMES = {
    name: index + 1
    for index, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
_DAY_NAMES = {
    name: index for index, name in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))
}
#: the standard parser's five fields: minute, hour, day of month, month, day of week
_CRON_FIELDS = (
    _CronBounds(0, 59, {}), _CronBounds(0, 23, {}), _CronBounds(1, 31, {}),
    _CronBounds(1, 12, _MONTH_NAMES), _CronBounds(0, 6, _DAY_NAMES),
)  # fmt: skip
_DESCRIPTORS = ("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")
_INT64 = 2**63


class _CronError(Exception):
    pass


def cron_schedule_problem(spec: str) -> str:
    """The error of robfig/cron v3's ``ParseStandard`` (``parser.go``) of ``spec``, ''
    when it parses: an optional ``TZ=``/``CRON_TZ=`` location, a descriptor (``@daily``,
    ``@every <duration>``) or five fields of comma-separated ranges (``*``/``?``,
    ``a``, ``a-b``, each with an optional ``/step``; month and weekday names)."""
    try:
        _parse_cron(spec)
    except _CronError as exc:
        return str(exc)
    return ""


def _parse_cron(spec: str) -> None:
    if not spec:
        raise _CronError("empty spec string")
    if spec.startswith(("TZ=", "CRON_TZ=")):
        space = spec.find(" ")
        # Go slices spec[eq+1:-1] when there is no space: kube-apiserver recovers the
        # panic; the differential shows what it answers
        location = spec[spec.find("=") + 1 : space]
        problem = _load_location(location)
        if problem:
            raise _CronError(f"provided bad location {location}: {problem}")
        spec = spec[space:].strip(" \t\n\v\f\r\x85\xa0")
    if spec.startswith("@"):
        _parse_descriptor(spec)
        return
    fields = spec.split()
    if len(fields) != len(_CRON_FIELDS):
        raise _CronError(
            f"expected exactly {len(_CRON_FIELDS)} fields, found {len(fields)}: [{' '.join(fields)}]"
        )
    for text, bounds in zip(fields, _CRON_FIELDS, strict=True):
        for expression in (part for part in text.split(",") if part):
            _cron_range(expression, bounds)


def _parse_descriptor(spec: str) -> None:
    if spec in _DESCRIPTORS:
        return
    every = "@every "
    if spec.startswith(every):
        problem = go_parse_duration(spec[len(every) :])
        if problem:
            raise _CronError(f"failed to parse duration {spec}: {problem}")
        return
    raise _CronError(f"unrecognized descriptor: {spec}")


def _cron_range(expression: str, bounds: _CronBounds) -> None:
    """``getRange``: the range's errors in robfig/cron's order."""
    range_and_step = expression.split("/")
    low_and_high = range_and_step[0].split("-")
    if low_and_high[0] in ("*", "?"):
        start, end = bounds.low, bounds.high
    else:
        start = _cron_int_or_name(low_and_high[0], bounds.names)
        if len(low_and_high) == 1:
            end = start
        elif len(low_and_high) == 2:
            end = _cron_int_or_name(low_and_high[1], bounds.names)
        else:
            raise _CronError(f"too many hyphens: {expression}")
    step = 1
    if len(range_and_step) == 2:
        step = _cron_int(range_and_step[1])
        if len(low_and_high) == 1:
            end = bounds.high  # "N/step" is "N-max/step"
    elif len(range_and_step) > 2:
        raise _CronError(f"too many slashes: {expression}")
    if start < bounds.low:
        raise _CronError(f"beginning of range ({start}) below minimum ({bounds.low}): {expression}")
    if end > bounds.high:
        raise _CronError(f"end of range ({end}) above maximum ({bounds.high}): {expression}")
    if start > end:
        raise _CronError(f"beginning of range ({start}) beyond end of range ({end}): {expression}")
    if step == 0:
        raise _CronError(f"step of range should be a positive number: {expression}")


def _cron_int_or_name(text: str, names: Mapping[str, int]) -> int:
    named = names.get(text.lower())
    return named if named is not None else _cron_int(text)


def _cron_int(text: str) -> int:
    """``mustParseInt``: ``strconv.Atoi``, then not negative."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise _CronError(
            f"failed to parse int from {text}: strconv.Atoi: parsing {go_json(text)}: invalid syntax"
        )
    number = int(text)
    if not -_INT64 <= number < _INT64:
        raise _CronError(
            f"failed to parse int from {text}: strconv.Atoi: parsing {go_json(text)}: value out of range"
        )
    if number < 0:
        raise _CronError(f"negative number ({number}) not allowed: {text}")
    return number


#: ``time.ParseDuration``'s units, in nanoseconds
_DURATION_UNITS = {"ns": 1, "us": 10**3, "µs": 10**3, "μs": 10**3, "ms": 10**6,
                   "s": 10**9, "m": 60 * 10**9, "h": 3600 * 10**9}  # fmt: skip


def go_parse_duration(text: str) -> str:
    """The error of Go's ``time.ParseDuration`` of ``text`` ('' when it parses): a
    total beyond an int64 of nanoseconds is invalid too."""
    quoted = go_json(text)
    rest = text
    limit = _INT64 if rest[:1] == "-" else _INT64 - 1
    if rest[:1] in ("-", "+"):
        rest = rest[1:]
    total = 0
    if rest == "0":
        return ""
    if not rest:
        return f"time: invalid duration {quoted}"
    while rest:
        number = re.match(r"[0-9]*(\.[0-9]*)?", rest)
        digits = number.group(0) if number else ""
        if digits in ("", "."):
            return f"time: invalid duration {quoted}"
        rest = rest[len(digits) :]
        unit = re.match(r"[^0-9.]*", rest)
        name = unit.group(0) if unit else ""
        if not name:
            return f"time: missing unit in duration {quoted}"
        if name not in _DURATION_UNITS:
            return f"time: unknown unit {go_json(name)} in duration {quoted}"
        whole, _, fraction = digits.partition(".")
        scale = _DURATION_UNITS[name]
        total += int(whole or "0") * scale + int(fraction or "0") * scale // 10 ** len(fraction)
        if total > limit:
            return f"time: invalid duration {quoted}"
        rest = rest[len(name) :]
    return ""
