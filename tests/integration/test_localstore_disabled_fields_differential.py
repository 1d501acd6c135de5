"""The pod fields of features kube-apiserver 1.34 has off by default: the store against
the server.

Every pod-carrying strategy's PrepareForCreate and PrepareForUpdate drop them
(``pkg/api/pod/util.go`` ``dropDisabledFields``, before validation): a regular
container's ``restartPolicy`` and every ``restartPolicyRules`` (ContainerRestartRules,
alpha), an init container's ``restartPolicy`` but ``Always`` (a sidecar), projected
``clusterTrustBundle`` (ClusterTrustBundleProjection, beta off) and ``podCertificate``
sources (PodCertificateRequest, alpha), ``hostnameOverride`` (HostnameOverride), an env
var's ``fileKeyRef`` (EnvFiles), a lifecycle's ``stopSignal`` (ContainerStopSignals),
image volumes and their mounts (ImageVolume, beta off). Each case writes a Deployment
(an update, a Pod) on the session's kube-apiserver and in an ``ObjectStore``: the refusal,
or the pod spec stored, must be the same.
"""

from __future__ import annotations

import copy
from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration.localstore_answers import Sides, answer, assert_agree

LABELS = {"app": "x"}
MAIN = {"name": "main", "image": "nginx"}


def _deployment(name: str, namespace: str, pod: dict[str, Any]) -> dict[str, Any]:
    spec = {"containers": [MAIN]} | pod
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "selector": {"matchLabels": LABELS},
            "template": {"metadata": {"labels": LABELS}, "spec": copy.deepcopy(spec)},
        },
    }


def _pod_spec(written: dict[str, Any]) -> tuple[Any, ...]:
    spec = written.get("spec") or {}
    return (spec.get("template", {}).get("spec") if "template" in spec else spec,)


#: (what, the pod spec's fields); each in a Deployment's template
CASES: list[tuple[str, dict[str, Any]]] = [
    ("valid container restartPolicy dropped",
     {"containers": [MAIN | {"restartPolicy": "Always"}]}),
    ("valid container restartPolicy Never dropped",
     {"containers": [MAIN | {"restartPolicy": "Never"}]}),
    ("valid restartPolicyRules dropped",
     {"containers": [MAIN | {"restartPolicy": "Never", "restartPolicyRules": [
         {"action": "Restart", "exitCodes": {"operator": "In", "values": [42]}}]}]}),
    ("valid init container OnFailure dropped",
     {"initContainers": [{"name": "init", "image": "busybox", "restartPolicy": "OnFailure"}]}),
    ("valid sidecar kept",
     {"initContainers": [{"name": "side", "image": "busybox", "restartPolicy": "Always"}]}),
    ("valid trust bundle projection dropped",
     {"volumes": [{"name": "v", "projected": {"sources": [
         {"clusterTrustBundle": {"name": "b", "path": "b.pem"}},
         {"configMap": {"name": "c"}}]}}]}),
    ("valid pod certificate projection dropped",
     {"volumes": [{"name": "v", "projected": {"sources": [
         {"podCertificate": {"signerName": "example.com/s", "keyType": "ED25519",
                             "credentialBundlePath": "creds.pem"}}]}}]}),
    ("valid hostnameOverride dropped", {"hostnameOverride": "elsewhere"}),
    ("fileKeyRef dropped, the valueFrom left empty",
     {"containers": [MAIN | {"env": [{"name": "A", "valueFrom": {"fileKeyRef": {
         "volumeName": "v", "path": "p", "key": "k"}}}]}],
      "volumes": [{"name": "v", "emptyDir": {}}]}),
    ("valid stopSignal dropped, lifecycle gone",
     {"containers": [MAIN | {"lifecycle": {"stopSignal": "SIGTERM"}}]}),
    ("valid stopSignal dropped, preStop kept",
     {"containers": [MAIN | {"lifecycle": {"stopSignal": "SIGTERM",
                                          "preStop": {"exec": {"command": ["true"]}}}}]}),
    ("valid image volume dropped with its mount",
     {"containers": [MAIN | {"volumeMounts": [{"name": "img", "mountPath": "/i"}]}],
      "volumes": [{"name": "img", "image": {"reference": "busybox"}}]}),
]  # fmt: skip


def test_disabled_pod_fields_are_dropped_as_the_server_drops_them(
    client: KubeClient, namespace: str
) -> None:
    sides = Sides.of(client, namespace, "apps", "Deployment", "deployments")
    problems: list[str] = []
    for index, (what, pod) in enumerate(CASES):
        body = _deployment(f"d{index}", namespace, pod)
        theirs = answer(lambda b=body: sides.server.create(b), _pod_spec)
        ours = answer(
            lambda b=body: sides.store.create(sides.info, b, namespace=namespace), _pod_spec
        )
        if what.startswith("valid") != (theirs[0] == "accepted"):
            problems.append(f"{what}: the server answered {theirs[:3]} (the case is wrong)")
        if ours != theirs:
            problems.append(f"{what}:\n  server {theirs}\n  store  {ours}")
    assert_agree(problems, len(CASES), "Deployments with disabled pod fields")


def test_an_update_and_a_pod_drop_them_too(client: KubeClient, namespace: str) -> None:
    """PrepareForUpdate drops them from an update's template as PrepareForCreate does
    from a create's; a Pod's strategy drops them from its own spec."""
    deployments = Sides.of(client, namespace, "apps", "Deployment", "deployments")
    body = _deployment("u0", namespace, {})

    def with_policy(old: dict[str, Any]) -> dict[str, Any]:
        container = old["spec"]["template"]["spec"]["containers"][0]
        container |= {"restartPolicy": "Always", "lifecycle": {"stopSignal": "SIGINT"}}
        return old

    problems = deployments.updates(
        lambda call: answer(call, _pod_spec),
        [("valid update's restart policy and stop signal dropped", body, with_policy)],
    )
    pods = Sides.of(client, namespace, "", "Pod", "pods")
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p0", "namespace": namespace},
        "spec": {"containers": [MAIN | {"restartPolicy": "Never"}], "hostnameOverride": "h"},
    }
    problems += pods.creates(
        lambda call: answer(call, _pod_spec), [("valid pod's restart policy dropped", pod)]
    )
    assert_agree(problems, 2, "writes with disabled pod fields")
