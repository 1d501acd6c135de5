"""A Job's spec rules, generated labels and updates: the store against the real server.

``ValidateJob`` and ``ValidateJobUpdate`` (``pkg/apis/batch/validation/validation.go``):
``validateGeneratedSelector`` (the template must hold the labels the server generates,
unless ``manualSelector``), ``validateJobSpec``'s counts, completion mode, indexes'
backoff, pod failure policy, success policy and pod replacement policy; on an update,
the completions (an Indexed Job's only with its parallelism), selector, template (but
a suspended Job's scheduling directives), completion mode, pod failure policy,
backoffLimitPerIndex, managedBy and success policy are immutable. ``JobStrategy``
(``pkg/registry/batch/job/strategy.go``) generates the selector and the labels
(``batch.kubernetes.io/controller-uid``, ``batch.kubernetes.io/job-name`` and the
legacy ``controller-uid``, ``job-name``) on a create.

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or the stored object's metadata labels and spec (each side's
uid masked).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import ODD, Sides, assert_agree

CONTAINERS = [{"name": "app", "image": "nginx:1"}]
_UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _masked(value: Any) -> Any:
    """``value`` with every uid in it written ``<uid>`` (each side makes its own)."""
    if isinstance(value, str):
        return _UID.sub("<uid>", value)
    if isinstance(value, dict):
        return {_masked(k): _masked(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_masked(v) for v in value)
    return value


def answer(call: Callable[[], dict[str, Any]]) -> tuple[Any, ...]:
    """A write's outcome (``localstore_answers.answer``): the stored labels and spec;
    uids masked."""
    found = localstore_answers.answer(
        call, lambda stored: ((stored.get("metadata") or {}).get("labels"), stored.get("spec"))
    )
    return tuple(_masked(found))


def job(
    name: str, *, pod: dict[str, Any] | None = None, labels: Any = None, **spec: Any
) -> dict[str, Any]:
    """A valid Job but for what is given (``pod``: the template's spec's fields)."""
    template: dict[str, Any] = {
        "spec": {"containers": CONTAINERS, "restartPolicy": "Never", **(pod or {})}
    }
    if labels is not None:
        template["metadata"] = {"labels": labels}
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name},
        "spec": {**spec, "template": template},
    }


RICH_POD: dict[str, Any] = {
    "containers": [{
        "name": "app", "image": "nginx:1", "args": ["x"], "env": [{"name": "A", "value": "b"}],
        "ports": [{"containerPort": 80, "name": "http"}],
        "readinessProbe": {"httpGet": {"path": "/", "port": "http"}},
        "volumeMounts": [{"name": "v", "mountPath": "/v"}],
        "resources": {"limits": {"cpu": "1", "memory": "64Mi"}}}],
    "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1Gi"}}],
    "tolerations": [{"key": "k", "operator": "Exists"}], "nodeSelector": {"a": "b"},
    "hostNetwork": True, "priority": 0,
    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "a", "operator": "Exists"}]}]}}},
}  # fmt: skip
INDEXED = {"completionMode": "Indexed", "completions": 3, "parallelism": 3}
RULE_EXIT = {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}

#: (what, body) created on both sides
CREATES: list[tuple[str, dict[str, Any]]] = [
    ("valid: the generated labels and selector", job("c0")),
    ("valid: labels of its own kept beside the generated", job("c1", labels={"app": "web"})),
    ("valid: a manual selector, no generated labels",
     job("c2", labels={"app": "web"}, manualSelector=True, selector={"matchLabels": {"app": "web"}})),
    ("a template's controller-uid of its own", job("c3", labels={"controller-uid": "x"})),
    ("a template's job-name of another Job", job("c4", labels={"batch.kubernetes.io/job-name": "other"})),
    ("valid: the template's job-name its own", job("c5", labels={"job-name": "c5"})),
    ("Indexed without completions", job("c6", completionMode="Indexed", parallelism=2)),
    ("a completion mode not known", job("c7", completionMode="Sometimes")),
    ("valid: Indexed", job("c8", **INDEXED)),
    ("backoffLimitPerIndex without Indexed", job("c9", backoffLimitPerIndex=1)),
    ("maxFailedIndexes without backoffLimitPerIndex", job("c10", maxFailedIndexes=1)),
    ("maxFailedIndexes above completions", job("c11", **INDEXED, backoffLimitPerIndex=1, maxFailedIndexes=5)),
    ("negative backoffLimitPerIndex and maxFailedIndexes",
     job("c12", **INDEXED, backoffLimitPerIndex=-1, maxFailedIndexes=-1)),
    ("parallelism above 100000, Indexed", job("c13", completionMode="Indexed", completions=3, parallelism=100001)),
    ("valid: backoffLimitPerIndex and maxFailedIndexes",
     job("c14", **INDEXED, backoffLimitPerIndex=1, maxFailedIndexes=1)),
    ("a pod failure policy with OnFailure", job("c15", pod={"restartPolicy": "OnFailure"},
                                                podFailurePolicy={"rules": [RULE_EXIT]})),
    ("a pod failure policy's FailIndex without backoffLimitPerIndex",
     job("c16", podFailurePolicy={"rules": [{**RULE_EXIT, "action": "FailIndex"}]})),
    ("a pod failure policy's action not known, none given",
     job("c17", podFailurePolicy={"rules": [{**RULE_EXIT, "action": "Retry"}, {"onExitCodes": {"operator": "In", "values": [2]}}]})),
    ("exit codes: 0 with In, a repeat, out of order, an unknown container",
     job("c18", podFailurePolicy={"rules": [{"action": "Ignore", "onExitCodes": {
         "containerName": "nope", "operator": "In", "values": [3, 0, 3]}}]})),
    ("exit codes: none, an operator not known",
     job("c19", podFailurePolicy={"rules": [{"action": "Count", "onExitCodes": {"operator": "Maybe", "values": []}}]})),
    ("a rule with both and a rule with neither",
     job("c20", podFailurePolicy={"rules": [
         {**RULE_EXIT, "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
         {"action": "Ignore"}]})),
    ("pod conditions: a bad type, no status, a status not known",
     job("c21", podFailurePolicy={"rules": [{"action": "Ignore", "onPodConditions": [
         {"type": "a b"}, {"type": "X", "status": "Maybe"}]}]})),
    ("valid: a pod failure policy", job("c22", podFailurePolicy={"rules": [
        RULE_EXIT, {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]})),
    ("a success policy without Indexed", job("c23", successPolicy={"rules": [{"succeededCount": 1}]})),
    ("a success policy without rules", job("c24", **INDEXED, successPolicy={"rules": []})),
    ("success policy rules: empty, indexes malformed, a count above completions",
     job("c25", **INDEXED, successPolicy={"rules": [{}, {"succeededIndexes": "2-1"},
                                                    {"succeededCount": 4}]})),
    ("success policy: indexes out of range, a count above them",
     job("c26", **INDEXED, successPolicy={"rules": [{"succeededIndexes": "0,5", "succeededCount": 3}]})),
    # bad values of named Go types, json.Marshal'ed by the server, and of plain strings
    ("odd: a completion mode", job("q0", completionMode=ODD)),
    ("odd: a pod replacement policy", job("q1", podReplacementPolicy=ODD)),
    ("odd: a restart policy", job("q2", pod={"restartPolicy": ODD})),
    ("odd: a pod failure policy's action, operator, condition type and status",
     job("q3", podFailurePolicy={"rules": [{"action": ODD, "onExitCodes": {"operator": ODD, "values": [1]}},
                                           {"action": "Ignore", "onPodConditions": [{"type": ODD, "status": ODD}]}]})),
    ("valid: a success policy", job("c27", **INDEXED, successPolicy={"rules": [{"succeededIndexes": "0-1", "succeededCount": 1}]})),
    ("success policy indexes: not a number, three parts, overlapping, empty",
     job("c34", **INDEXED, successPolicy={"rules": [{"succeededIndexes": "a"}, {"succeededIndexes": "0-1-2"},
                                                    {"succeededIndexes": "0-2,1"}, {"succeededIndexes": ""}]})),
    ("valid: success policy indexes of two intervals", job("c35", completionMode="Indexed", completions=6,
     parallelism=1, successPolicy={"rules": [{"succeededIndexes": "0,2-4", "succeededCount": 4}]})),
    ("success policy: a negative count, a count above the indexes",
     job("c36", **INDEXED, successPolicy={"rules": [{"succeededCount": -1}, {"succeededIndexes": "1-2", "succeededCount": 3}]})),
    ("above 100000 completions with a backoff per index", job("c37", completionMode="Indexed",
     completions=100001, parallelism=10001, backoffLimitPerIndex=1)),
    ("above 100000 completions: too many failed indexes", job("c38", completionMode="Indexed",
     completions=200000, parallelism=1, backoffLimitPerIndex=1, maxFailedIndexes=100001)),
    ("a pod replacement policy not known", job("c28", podReplacementPolicy="Sometimes")),
    ("TerminatingOrFailed with a pod failure policy",
     job("c29", podReplacementPolicy="TerminatingOrFailed", podFailurePolicy={"rules": [RULE_EXIT]})),
    ("valid: TerminatingOrFailed", job("c30", podReplacementPolicy="TerminatingOrFailed")),
    ("a name too long for its last index's hostname",
     job("c31-" + "a" * 59, **{**INDEXED, "completions": 100, "parallelism": 1})),
    ("managedBy not a domain-prefixed path", job("c32", managedBy="nope")),
    ("valid: managedBy", job("c33", managedBy="example.com/mine")),
]  # fmt: skip

#: a pod with an ephemeral volume whose claim template has metadata, and one without
EPHEMERAL_POD = {
    "containers": [{"name": "app", "image": "nginx:1", "volumeMounts": [{"name": "e", "mountPath": "/e"}]}],
    "volumes": [{"name": "e", "ephemeral": {"volumeClaimTemplate": {
        "metadata": {"labels": {"tier": "db"}, "annotations": {"note": "x"}},
        "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "fast",
                 "resources": {"requests": {"storage": "1Gi"}, "limits": {"storage": "2Gi"}},
                 "selector": {"matchLabels": {"a": "b"}},
                 "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"}}}}}],
}  # fmt: skip
BARE_EPHEMERAL_POD = {
    "containers": [{"name": "app", "image": "nginx:1"}],
    "volumes": [{"name": "e", "ephemeral": {"volumeClaimTemplate": {
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}}}],
}  # fmt: skip

#: (what, the created Job's spec fields, the update's spec fields: None removes one;
#: ``template``/``pod`` changes go to the template's metadata/spec)
UPDATES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("valid: parallelism, backoffLimit, activeDeadlineSeconds, ttl", {},
     {"parallelism": 5, "backoffLimit": 2, "activeDeadlineSeconds": 60, "ttlSecondsAfterFinished": 5}),
    ("valid: suspended", {}, {"suspend": True}),
    ("completions of a NonIndexed Job", {}, {"completions": 4}),
    ("valid: completions of an Indexed Job with its parallelism", INDEXED,
     {"completions": 4, "parallelism": 4}),
    ("completions of an Indexed Job alone", INDEXED, {"completions": 4}),
    ("completions of an Indexed Job removed", INDEXED, {"completions": None}),
    ("the completion mode", {}, {"completionMode": "Indexed", "completions": 1}),
    ("the selector", {}, {"selector": {"matchLabels": {"app": "web"}}}),
    ("valid: manualSelector set", {}, {"manualSelector": True}),
    ("the template's image", {}, {"pod": {"containers": [{"name": "app", "image": "nginx:2"}]}}),
    ("the template's labels, not suspended", {}, {"labels": {"app": "web"}}),
    ("the template's node selector, not suspended", {}, {"pod": {"nodeSelector": {"a": "b"}}}),
    ("valid: a suspended Job's scheduling directives", {"suspend": True},
     {"labels": {"app": "web"}, "annotations": {"a": "b"},
      "pod": {"nodeSelector": {"a": "b"}, "tolerations": [{"key": "k", "operator": "Exists"}],
              "schedulingGates": [{"name": "g"}]}}),
    ("the image of a template of many fields", {"pod": RICH_POD},
     {"pod": {"containers": [{**RICH_POD["containers"][0], "image": "nginx:2"}]}}),
    ("the image of a template with an ephemeral volume (a claim template: ObjectMeta inline)",
     {"pod": EPHEMERAL_POD}, {"pod": {"containers": [{**EPHEMERAL_POD["containers"][0], "image": "nginx:2"}]}}),
    ("the image of a template with a bare ephemeral volume", {"pod": BARE_EPHEMERAL_POD},
     {"pod": {"containers": [{"name": "app", "image": "nginx:2"}]}}),
    ("a suspended Job's image", {"suspend": True},
     {"pod": {"containers": [{"name": "app", "image": "nginx:2"}]}}),
    ("backoffLimitPerIndex", {**INDEXED, "backoffLimitPerIndex": 1}, {"backoffLimitPerIndex": 2}),
    ("valid: maxFailedIndexes", {**INDEXED, "backoffLimitPerIndex": 1, "maxFailedIndexes": 1},
     {"maxFailedIndexes": 2}),
    ("the pod failure policy", {"podFailurePolicy": {"rules": [RULE_EXIT]}},
     {"podFailurePolicy": {"rules": [{**RULE_EXIT, "action": "Ignore"}]}}),
    ("the success policy", {**INDEXED, "successPolicy": {"rules": [{"succeededCount": 1}]}},
     {"successPolicy": {"rules": [{"succeededCount": 2}]}}),
    ("managedBy", {}, {"managedBy": "example.com/mine"}),
    ("valid: podReplacementPolicy", {}, {"podReplacementPolicy": "Failed"}),
    ("a suspended Job's generated labels removed", {"suspend": True},
     {"labels_replace": {"app": "web"}}),
    ("a suspended Job's job-name label changed", {"suspend": True},
     {"labels": {"job-name": "other", "batch.kubernetes.io/controller-uid": "x"}}),
    ("valid: a suspended Job's labels added", {"suspend": True}, {"labels": {"app": "web"}}),
    ("valid: resumed", {"suspend": True}, {"suspend": False}),
    ("completions and the template and the selector together", {},
     {"completions": 2, "selector": {"matchLabels": {"app": "web"}},
      "pod": {"containers": [{"name": "app", "image": "nginx:2"}]}}),
]  # fmt: skip


def _updated(old: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(old)
    spec = new["spec"]
    for key, value in change.items():
        if key == "pod":
            spec["template"]["spec"].update(copy.deepcopy(value))
        elif key == "labels_replace":
            spec["template"].setdefault("metadata", {})["labels"] = copy.deepcopy(value)
        elif key in ("labels", "annotations"):
            meta = spec["template"].setdefault("metadata", {})
            meta[key] = {**(meta.get(key) or {}), **value}
        elif value is None:
            spec.pop(key, None)
        else:
            spec[key] = copy.deepcopy(value)
    return new


def test_job_creates_answer_as_the_server_answers(client: KubeClient, namespace: str) -> None:
    problems = Sides.of(client, namespace, "batch", "Job", "jobs").creates(answer, CREATES)
    assert_agree(problems, len(CREATES), "creates")


def test_job_updates_answer_as_the_server_answers(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "batch", "Job", "jobs")
    cases = [
        (what, job(f"u{index}", **created), lambda old, change=change: _updated(old, change))
        for index, (what, created, change) in enumerate(UPDATES)
    ]
    problems = sides.updates(answer, cases)
    assert_agree(problems, len(UPDATES), "updates")


def _fields_answer(call: Callable[[], dict[str, Any]]) -> tuple[Any, ...]:
    """A write's outcome: the spec stored and each managedFields entry's manager,
    operation and fieldsV1 (``SetDefaults_Job`` runs before the field manager: the
    creator owns a defaulted ``manualSelector``, not the generated selector)."""
    found = localstore_answers.answer(
        call,
        lambda stored: (
            stored.get("spec"),
            [
                (e.get("manager"), e.get("operation"), e.get("fieldsV1"))
                for e in (stored.get("metadata") or {}).get("managedFields") or ()
            ],
        ),
    )
    return tuple(_masked(found))


MANAGED_CREATES: list[tuple[str, dict[str, Any]]] = [
    ("valid: no manualSelector", job("f0")),
    ("valid: manualSelector false", job("f1", manualSelector=False)),
    ("valid: manualSelector and a selector",
     job("f2", labels={"app": "web"}, manualSelector=True, selector={"matchLabels": {"app": "web"}})),
    ("valid: labels of its own, Indexed", job("f3", labels={"app": "web"}, **INDEXED)),
]  # fmt: skip


def test_job_managed_fields_answer_as_the_server_answers(
    client: KubeClient, namespace: str
) -> None:
    sides = Sides.of(client, namespace, "batch", "Job", "jobs")
    problems = sides.creates(_fields_answer, MANAGED_CREATES)
    assert_agree(problems, len(MANAGED_CREATES), "creates' managedFields")


IMAGE_VOLUME = {"name": "iv", "image": {"reference": "busybox:1", "pullPolicy": "IfNotPresent"}}
MOUNTED = {
    "containers": [{"name": "app", "image": "nginx:1",
                    "volumeMounts": [{"name": "iv", "mountPath": "/iv"}, {"name": "e", "mountPath": "/e"}]}],
    "initContainers": [{"name": "init", "image": "nginx:1",
                        "volumeMounts": [{"name": "iv", "mountPath": "/iv"}]}],
    "volumes": [IMAGE_VOLUME, {"name": "e", "emptyDir": {}}],
}  # fmt: skip
IMAGE_CREATES: list[tuple[str, dict[str, Any]]] = [
    ("valid: an image volume alone", job("i0", pod={"volumes": [IMAGE_VOLUME]})),
    ("valid: an image volume mounted, beside an emptyDir", job("i1", pod=MOUNTED)),
]


def test_job_image_volumes_answer_as_the_server_answers(client: KubeClient, namespace: str) -> None:
    """The ImageVolume gate is off in 1.34: the strategy drops image volumes and their
    mounts after the field manager saw them (the creator's entry owns them); a
    Deployment's update that adds one alike."""
    problems = Sides.of(client, namespace, "batch", "Job", "jobs").creates(
        _fields_answer, IMAGE_CREATES
    )
    deployments = Sides.of(client, namespace, "apps", "Deployment", "deployments")
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "i2"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": CONTAINERS},
            },
        },
    }

    def add_volume(old: dict[str, Any]) -> dict[str, Any]:
        new = copy.deepcopy(old)
        new["metadata"].pop("managedFields", None)
        new["spec"]["template"]["spec"].update(copy.deepcopy(MOUNTED))
        return new

    problems += deployments.updates(
        _fields_answer, [("valid: a Deployment's update adding one", deployment, add_volume)]
    )
    assert_agree(problems, len(IMAGE_CREATES) + 1, "writes of image volumes")
