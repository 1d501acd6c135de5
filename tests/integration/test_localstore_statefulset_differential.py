"""A StatefulSet's ordinals, policies and updates: the store against the real server.

``ValidateStatefulSetSpec`` (``pkg/apis/apps/validation/validation.go``: the pod
management policy, the update strategy and its partition and maxUnavailable, the
claim retention policy, ``spec.ordinals.start``) and ``ValidateStatefulSetUpdate``
(only replicas, ordinals, template, updateStrategy, revisionHistoryLimit,
persistentVolumeClaimRetentionPolicy and minReadySeconds may change), with
``SetDefaults_StatefulSet``'s values stored. Each case writes the same body to the
session's kube-apiserver and to an ``ObjectStore``: the status code, reason, message
and each cause's field, reason and message must be the same, or the stored spec.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration.localstore_answers import ODD, Sides, assert_agree, changed
from tests.integration.test_localstore_job_differential import answer
from tests.integration.test_localstore_workloads_differential import statefulset

CLAIM = {"metadata": {"name": "data"},
         "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}  # fmt: skip

#: (what, the spec's fields) created on both sides
CREATES: list[tuple[str, dict[str, Any]]] = [
    ("valid: ordinals from 5", {"ordinals": {"start": 5}}),
    ("valid: empty ordinals", {"ordinals": {}}),
    ("ordinals from -1", {"ordinals": {"start": -1}}),
    ("a pod management policy not known", {"podManagementPolicy": "Whenever"}),
    ("an update strategy not known", {"updateStrategy": {"type": "Sometimes"}}),
    ("OnDelete with a rolling update", {"updateStrategy": {"type": "OnDelete", "rollingUpdate": {"partition": 1}}}),
    ("a negative partition", {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": -1}}}),
    ("valid: maxUnavailable 0 (dropped)", {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 0}}}),
    ("valid: maxUnavailable 0% (dropped)", {"updateStrategy": {"rollingUpdate": {"maxUnavailable": "0%"}}}),
    ("valid: maxUnavailable 150% (dropped)", {"updateStrategy": {"rollingUpdate": {"maxUnavailable": "150%"}}}),
    ("valid: maxUnavailable 2 (dropped)", {"updateStrategy": {"rollingUpdate": {"maxUnavailable": 2}}}),
    ("a claim retention policy not known",
     {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Keep", "whenScaled": "Drop"}}),
    ("valid: a claim template", {"volumeClaimTemplates": [CLAIM]}),
    ("valid: no serviceName", {"serviceName": None}),
    ("an unknown strategy with a rolling update, a restart policy, an active deadline",
     {"updateStrategy": {"type": "Sometimes", "rollingUpdate": {"partition": 2}},
      "template": {"metadata": {"labels": {"app": "web"}},
                   "spec": {"containers": [{"name": "app", "image": "nginx:1"}],
                            "restartPolicy": "Never", "activeDeadlineSeconds": 5}}}),
    ("ordinals from -1 and a negative replicas", {"ordinals": {"start": -1}, "replicas": -1}),
    ("odd: a pod management policy", {"podManagementPolicy": ODD}),
    ("odd: an update strategy", {"updateStrategy": {"type": ODD}}),
    ("odd: claim retention policies", {"persistentVolumeClaimRetentionPolicy": {"whenDeleted": ODD, "whenScaled": ODD}}),
    ("odd: a restart policy",
     {"template": {"metadata": {"labels": {"app": "web"}},
                   "spec": {"containers": [{"name": "app", "image": "nginx:1"}], "restartPolicy": ODD}}}),
]  # fmt: skip

#: (what, the created spec's fields, the update's: None removes one)
UPDATES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("valid: ordinals added", {}, {"ordinals": {"start": 3}}),
    ("valid: ordinals changed", {"ordinals": {"start": 3}}, {"ordinals": {"start": 7}}),
    ("valid: ordinals removed", {"ordinals": {"start": 3}}, {"ordinals": None}),
    ("ordinals to -1", {"ordinals": {"start": 3}}, {"ordinals": {"start": -1}}),
    ("valid: replicas, template, strategy, history, retention, minReadySeconds", {},
     {"replicas": 3, "revisionHistoryLimit": 2, "minReadySeconds": 4,
      "updateStrategy": {"type": "OnDelete"},
      "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"},
      "template": {"metadata": {"labels": {"app": "web", "v": "2"}},
                   "spec": {"containers": [{"name": "app", "image": "nginx:2"}]}}}),
    ("the pod management policy", {}, {"podManagementPolicy": "Parallel"}),
    ("the claim templates", {}, {"volumeClaimTemplates": [CLAIM]}),
    ("the serviceName", {}, {"serviceName": "db"}),
    ("the serviceName removed", {}, {"serviceName": None}),
    ("the pod management policy and a negative partition", {},
     {"podManagementPolicy": "Parallel",
      "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": -1}}}),
]  # fmt: skip


def _sides(client: KubeClient, namespace: str) -> Sides:
    return Sides.of(client, namespace, "apps", "StatefulSet", "statefulsets")


def _made(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    body = statefulset(name)
    body["spec"] = changed(body["spec"], spec)
    return body


def test_statefulset_creates_answer_as_the_server_answers(
    client: KubeClient, namespace: str
) -> None:
    cases = [(what, _made(f"c{index}", spec)) for index, (what, spec) in enumerate(CREATES)]
    problems = _sides(client, namespace).creates(answer, cases)
    assert_agree(problems, len(CREATES), "creates")


def test_statefulset_updates_answer_as_the_server_answers(
    client: KubeClient, namespace: str
) -> None:
    cases = [
        (what, _made(f"u{index}", created),
         lambda old, change=change: {**old, "spec": changed(old["spec"], change)})
        for index, (what, created, change) in enumerate(UPDATES)
    ]  # fmt: skip
    problems = _sides(client, namespace).updates(answer, cases)
    assert_agree(problems, len(UPDATES), "updates")
