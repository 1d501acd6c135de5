"""A Job's changed template, refused with the internal ``core.PodTemplateSpec`` as its
value (``json.Marshal``: Go's field names, every field): the store against the real
server, over templates of rarely used pod and container fields, so that each struct
of ``validation.pod_go_types.GO_TYPES`` a template reaches is printed at least once.

Each case creates the same Job on the session's kube-apiserver and in an
``ObjectStore``, then changes its image: the 422's message and causes must be the
same.
"""

from __future__ import annotations

import copy
from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Sides
from tests.integration.test_localstore_job_differential import answer, job

APP = {"name": "app", "image": "nginx:1"}

#: (what, the pod spec's fields beside a container ``app``, the container's fields)
TEMPLATES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("env from sources, values from fields, resources, config maps and secrets", {}, {
        "envFrom": [{"prefix": "P_", "configMapRef": {"name": "cm", "optional": True}},
                    {"secretRef": {"name": "s"}}],
        "env": [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                {"name": "B", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu",
                                                                 "containerName": "app"}}},
                {"name": "C", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "k"}}},
                {"name": "D", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k", "optional": False}}}],
        "resources": {"limits": {"cpu": "1"}, "requests": {"cpu": "500m"}},
    }),
    ("lifecycle hooks, probes of every handler, a container security context", {}, {
        "lifecycle": {"postStart": {"exec": {"command": ["true"]}},
                      "preStop": {"httpGet": {"path": "/stop", "port": 80, "httpHeaders": [{"name": "X", "value": "y"}]}}},
        "livenessProbe": {"tcpSocket": {"port": 80}, "periodSeconds": 3},
        "startupProbe": {"grpc": {"port": 9000, "service": "s"}},
        "readinessProbe": {"exec": {"command": ["cat", "/ok"]}},
        "securityContext": {"capabilities": {"add": ["NET_ADMIN"], "drop": ["ALL"]}, "privileged": False,
                            "runAsUser": 1000, "readOnlyRootFilesystem": True, "allowPrivilegeEscalation": False,
                            "seccompProfile": {"type": "RuntimeDefault"},
                            "seLinuxOptions": {"level": "s0:c1,c2"}},
        "resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}],
        "stdin": True, "tty": True, "workingDir": "/w", "command": ["sh"],
    }),
    ("pod-level rarities: DNS, host aliases, gates, spread, OS, pull secrets, sysctls", {
        "dnsPolicy": "None", "dnsConfig": {"nameservers": ["1.1.1.1"], "searches": ["a.b"],
                                           "options": [{"name": "ndots", "value": "2"}]},
        "hostAliases": [{"ip": "10.0.0.1", "hostnames": ["h"]}],
        "readinessGates": [{"conditionType": "example.com/ready"}],
        "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                                       "labelSelector": {"matchLabels": {"a": "b"}}}],
        "os": {"name": "linux"}, "imagePullSecrets": [{"name": "reg"}],
        "securityContext": {"sysctls": [{"name": "net.core.somaxconn", "value": "1024"}], "fsGroup": 2000,
                            "runAsNonRoot": True, "supplementalGroups": [5]},
        "serviceAccountName": "builder", "hostname": "h", "subdomain": "s",
        "terminationGracePeriodSeconds": 5, "enableServiceLinks": False,
    }, {}),
    ("affinities of pods and nodes, preferred and required", {
        "affinity": {
            "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchExpressions": [{"key": "a", "operator": "Exists"}]},
                 "topologyKey": "zone", "namespaces": ["n"]}]},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 5, "podAffinityTerm": {"topologyKey": "host", "labelSelector": {"matchLabels": {"a": "b"}}, "matchLabelKeys": ["k"]}}]},
            "nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 1, "preference": {"matchFields": [{"key": "metadata.name", "operator": "In",
                                                              "values": ["n1"]}]}}]}},
    }, {}),
    ("volumes of many sources, mounts and devices", {
        "volumes": [
            {"name": "cm", "configMap": {"name": "cm", "items": [{"key": "k", "path": "p", "mode": 0o400}],
                                         "defaultMode": 0o644}},
            {"name": "sec", "secret": {"secretName": "s", "optional": True}},
            {"name": "dapi", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}}]}},
            {"name": "proj", "projected": {"sources": [
                {"serviceAccountToken": {"path": "t", "expirationSeconds": 3600, "audience": "a"}},
                {"configMap": {"name": "cm"}}, {"secret": {"name": "s"}}]}},
            {"name": "hp", "hostPath": {"path": "/tmp", "type": "Directory"}},
            {"name": "nfs", "nfs": {"server": "s", "path": "/x", "readOnly": True}},
            {"name": "claim", "persistentVolumeClaim": {"claimName": "c"}},
            {"name": "csi", "csi": {"driver": "d.example.com", "volumeAttributes": {"a": "b"}}},
        ],
    }, {
        "volumeMounts": [{"name": "cm", "mountPath": "/cm", "subPath": "p", "readOnly": True},
                         {"name": "hp", "mountPath": "/hp", "mountPropagation": "HostToContainer"}],
        "volumeDevices": [{"name": "claim", "devicePath": "/dev/x"}],
    }),
    ("init containers, a sidecar, scheduling gates, tolerations with seconds", {
        "initContainers": [{"name": "init", "image": "busybox:1", "command": ["true"]},
                           {"name": "side", "image": "busybox:1", "restartPolicy": "Always"}],
        "schedulingGates": [{"name": "g"}],
        "tolerations": [{"key": "k", "operator": "Equal", "value": "v", "effect": "NoExecute",
                         "tolerationSeconds": 30}],
        "priorityClassName": "", "preemptionPolicy": "Never",
    }, {}),
]  # fmt: skip


def _image_changed(old: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(old)
    new["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:2"
    return new


def test_a_changed_template_of_rare_fields_is_printed_as_the_server_prints_it(
    client: KubeClient, namespace: str
) -> None:
    sides = Sides.of(client, namespace, "batch", "Job", "jobs")
    cases = [
        (what, job(f"t{index}", pod={**pod, "containers": [{**APP, **container}]}), _image_changed)
        for index, (what, pod, container) in enumerate(TEMPLATES)
    ]
    localstore_answers.assert_agree(sides.updates(answer, cases), len(TEMPLATES), "updates")
