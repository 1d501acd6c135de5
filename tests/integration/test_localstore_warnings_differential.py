"""A valid write's warnings (``Warning`` headers): the store against kube-apiserver.

Each strategy's ``WarningsOnCreate`` / ``WarningsOnUpdate`` and ``pkg/api/pod/warnings.go``
(``validation.pod_warnings``): deprecated node labels and annotations, fractional byte
values, env vars hiding earlier ones, duplicate and ambiguous ports, a name that is no
DNS label, ... The same writes go to the server (``KubeClient(on_warning=)``) and to a
store (``ObjectStore(on_warning=)``); every write must be accepted by both and warned
of alike, the same texts in order.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.integration.envtest import ControlPlane
from tests.integration.test_localstore_decoding_differential import (
    Sides,
    container,
    deployment,
    job,
    outcome,
    with_meta,
)


def _template(**spec: Any) -> dict[str, Any]:
    body = deployment()
    body["spec"]["template"]["spec"].update(spec)
    return body


def _pod(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {},
        "spec": {"containers": [container()], **spec},
    }


def _changed_template(body: dict[str, Any]) -> dict[str, Any]:
    """An update's body: the template's first container given a duplicate env var."""
    body = copy.deepcopy(body)
    body["spec"]["template"]["spec"]["containers"][0]["env"] = [
        {"name": "A", "value": "1"},
        {"name": "A", "value": "2"},
    ]
    return body


ENV = [
    {"name": "A", "value": "1"},
    {"name": "B", "value": "x"},
    {"name": "A", "value": "2"},
    {"name": "B", "value": "$(B)y"},
    {"name": "B", "value": "$(B)"},
]
PORT = {"containerPort": 80}
#: (what, verb, body)
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("env vars hiding earlier ones", "create", deployment(container(env=ENV))),
    ("a fractional memory request and limit", "create", deployment(container(
        resources={"requests": {"memory": "1.5"}, "limits": {"memory": "2.5", "cpu": "0.5"}}))),
    ("ports: duplicate, overlapping, a host IP alone, repeated names", "create", deployment(
        container(ports=[PORT | {"name": "web"}, PORT, {"containerPort": 81, "hostIP": "10.0.0.1"}]),
        container(name="d", ports=[PORT | {"name": "web", "hostPort": 8080},
                                   {"containerPort": 82, "hostPort": 9090},
                                   {"containerPort": 82, "hostPort": 9090, "hostIP": "10.0.0.2"}]))),
    ("deprecated node labels", "create", _template(
        nodeSelector={"beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64"},
        affinity={"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "failure-domain.beta.kubernetes.io/zone",
                                       "operator": "Exists"}]}]},
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {
                "matchExpressions": [{"key": "beta.kubernetes.io/arch", "operator": "In",
                                      "values": ["amd64", "-not a label value-"]}]}}]}})),
    ("topology spread and affinity terms with no selector", "create", _template(
        topologySpreadConstraints=[{"maxSkew": 1, "topologyKey": "beta.kubernetes.io/instance-type",
                                    "whenUnsatisfiable": "DoNotSchedule"}],
        affinity={"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "zone"}],
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 5, "podAffinityTerm": {"topologyKey": "zone"}}]}})),
    ("deprecated annotations and volumes, pull secrets", "create", (lambda d: (
        d["spec"]["template"]["metadata"].update(annotations={
            "scheduler.alpha.kubernetes.io/critical-pod": "",
            "seccomp.security.alpha.kubernetes.io/pod": "runtime/default",
            "container.apparmor.security.beta.kubernetes.io/c": "runtime/default"}),
        d)[1])(_template(
            volumes=[{"name": "g", "gitRepo": {"repository": "https://example.com/r"}}],
            imagePullSecrets=[{"name": "s"}, {"name": "s"}, {}]))),
    ("a negative grace period, non-standard IPs", "create", _template(
        terminationGracePeriodSeconds=-1, dnsConfig={"nameservers": ["2001:DB8::1"]},
        hostAliases=[{"ip": "2001:db8::0:1", "hostnames": ["a"]},
                     {"ip": "2001:db8::0:1", "hostnames": ["b"]}])),
    ("a name that is no DNS label", "create", with_meta(deployment(), name="a.b")),
    ("a Pod named with a dot, env repeated", "create",
     with_meta(_pod(containers=[container(env=ENV[:3])]), name="p.q")),
    ("an update that changes the template", "update", _changed_template(deployment())),
    ("an apply", "apply", deployment(container(resources={"limits": {"memory": "0.5"}}))),
    ("an update that leaves the template: no warning", "update",
     with_meta(deployment(), labels={"a": "b"})),
    # a text told before is not told again (KubeClient tells each once): the Job's name
    # warning is the Deployment's
    ("a Job named with a dot, env repeated", "create", (lambda j: (
        j["spec"]["template"]["spec"]["containers"][0].update(
            env=[{"name": "J", "value": "1"}, {"name": "J", "value": "2"}]), j)[1])(
            with_meta(job(), name="j.k"))),
    ("a CronJob named with a dot, a fractional memory limit", "create", with_meta({
        "apiVersion": "batch/v1", "kind": "CronJob", "metadata": {},
        "spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": job()["spec"] | {
            "template": {"spec": {"restartPolicy": "Never", "containers": [
                container(resources={"limits": {"memory": "1.5"}})]}}}}}}, name="c.d")),
    ("a claim's beta storage class, fractional storage", "create", {
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"annotations": {"volume.beta.kubernetes.io/storage-class": "slow"}},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1.5"}}}}),
    ("a StatefulSet's claim template and ephemeral volume, fractional storage", "create", {
        "apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {},
        "spec": {"selector": {"matchLabels": {"app": "web"}}, "serviceName": "web",
                 "template": {"metadata": {"labels": {"app": "web"}}, "spec": {
                     "containers": [container()],
                     "volumes": [{"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {
                         "accessModes": ["ReadWriteOnce"],
                         "resources": {"requests": {"storage": "3.5"}}}}}}]}},
                 "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {
                     "accessModes": ["ReadWriteOnce"],
                     "resources": {"requests": {"storage": "2.5"}, "limits": {"storage": "4.5"}}}}]}}),
    ("overlapping volume paths, a projected source left empty", "create", _template(volumes=[
        {"name": "c", "configMap": {"name": "cm", "items": [
            {"key": "a", "path": "p"}, {"key": "b", "path": "p/q"}, {"key": "c", "path": "p/"}]}},
        {"name": "s", "secret": {"secretName": "sec", "items": [
            {"key": "a", "path": "x"}, {"key": "b", "path": "x"}]}},
        {"name": "d", "downwardAPI": {"items": [
            {"path": "n", "fieldRef": {"fieldPath": "metadata.name"}},
            {"path": "n/m", "fieldRef": {"fieldPath": "metadata.namespace"}}]}},
        {"name": "p", "projected": {"sources": [
            {"configMap": {"name": "cm", "items": [{"key": "a", "path": "t"}]}},
            {"secret": {"name": "sec", "items": [{"key": "b", "path": "t/u"}]}},
            {"serviceAccountToken": {"path": "t"}},
            {"clusterTrustBundle": {"signerName": "example.com/s", "path": "b"}}]}}])),
    ("a valid Deployment: no warning", "create", deployment()),
    ("a Service's deprecated annotation, non-standard external IPs and source ranges", "create", {
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"annotations": {"service.kubernetes.io/topology-aware-hints": "auto"}},
        "spec": {"type": "LoadBalancer", "ports": [{"port": 80}], "externalName": "x.example",
                 "externalIPs": ["10.1.2.010", "2001:DB8::1", "::ffff:10.1.2.3", "2001:db8::1"],
                 "loadBalancerIP": "0010.1.1.1",
                 "loadBalancerSourceRanges": ["10.0.0.1/8", "0010.0.0.0/8", "2001:DB8::/32",
                                              "::ffff:1.2.3.0/120", "::ffff:1.2.3.4/120",
                                              "2001:db8::1/32", "10.0.0.0/8"]}}),
    ("a headless Service with external IPs and client affinity", "create", {
        "apiVersion": "v1", "kind": "Service", "metadata": {},
        "spec": {"clusterIP": "None", "ports": [{"port": 80}], "externalIPs": ["10.1.2.3"],
                 "sessionAffinity": "ClientIP"}}),
    ("an ExternalName Service with external IPs", "create", {
        "apiVersion": "v1", "kind": "Service", "metadata": {},
        "spec": {"type": "ExternalName", "externalName": "x.example", "externalIPs": ["10.1.2.3"]}}),
    ("a NetworkPolicy's ambiguous, non-standard and non-canonical CIDRs", "create", {
        "apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {},
        "spec": {"podSelector": {},
                 "ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.1/8", "except": ["10.1.0.0/016"]}},
                                       {"podSelector": {}}]}],
                 "egress": [{}, {"to": [{"ipBlock": {"cidr": "2001:DB8::/32",
                                                     "except": ["2001:db8:0:0::/48", "2001:db8:1::1/48"]}}]}]}}),
    ("a valid NetworkPolicy: no warning", "create", {
        "apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {},
        "spec": {"podSelector": {}, "egress": [{"to": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}]}}),
]  # fmt: skip


def test_write_warnings_are_the_servers(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    heard: tuple[list[str], list[str]] = ([], [])
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}, on_warning=heard[0].append) as made:
        sides = Sides(made, namespace)
        sides.store = ObjectStore(on_warning=heard[1].append)
        problems = []
        for index, (what, verb, body) in enumerate(CASES):
            name = body["metadata"].get("name") or f"w{index}"
            body = with_meta(body, name=name, namespace=namespace)
            results = []
            for side, call in enumerate(sides.calls(verb, body)):
                heard[side].clear()
                results.append(outcome(call))
            if results[0] != ("accepted",) or results[1] != ("accepted",):
                problems.append(f"{what}: not accepted by both: {results}")
            if heard[0] != heard[1]:
                problems.append(f"{what}:\n  server {heard[0]}\n  store  {heard[1]}")
            if (heard[0] == []) != ("no warning" in what):
                problems.append(f"{what}: the server warned {heard[0]} (the case is wrong)")
    print(f"{2 * len(CASES)} writes compared: {len(CASES)} writes' warnings")
    assert problems == [], "\n".join(problems)
