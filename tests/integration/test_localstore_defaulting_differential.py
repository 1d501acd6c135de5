"""The store's built-in objects, stored as kube-apiserver stores them: defaulting, the
zero values of the fields a body leaves out, and what each registry sets on a create.

kube-apiserver decodes a built-in body into its Go type, runs the scheme's defaulting
(``pkg/apis/*/v1/defaults.go``: a Deployment's replicas, strategy and limits, a pod
template's restart and DNS policies, a container's pull policy, a Service's type,
affinity, ports and traffic policies, ...), lets the kind's strategy prepare it (a
status reset, a Job's generated selector, a Service's cluster IP), and stores what
encoding/json writes of it (every field that is not ``omitempty``: a container's
``resources: {}``, a Deployment's ``status: {}``, a Role's ``rules: null``).
``ObjectStore`` does the same with ``validation.decoding`` and
``validation.builtin_defaulting``.

Each case writes the same body (or sequence: a create then an update, an apply then a
second apply that leaves fields out) to kube-apiserver and to a store, reads the object
back from both and compares them whole, apart from what only differs by the instance:
uid, creationTimestamp, resourceVersion, managedFields, and the addresses and ports a
Service is given (compared as present or not: the server picks at random, the store
the lowest free one). Every kind in ``BUILTINS`` has a case.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.reconcile.localstore import BUILTINS, ObjectStore
from tests.integration.test_localstore_metadata_differential import outcome

MANAGER = "kubectl-crd-dev"
ROOT = Path(__file__).resolve().parents[2]


def container(**fields: Any) -> dict[str, Any]:
    return {"name": "c", "image": "nginx:1.27", **fields}


def pod_spec(*containers: Any, **spec: Any) -> dict[str, Any]:
    return {"containers": list(containers) or [container()], **spec}


def template(*containers: Any, labels: Any = None, **spec: Any) -> dict[str, Any]:
    return {
        "metadata": {"labels": labels or {"app": "web"}},
        "spec": pod_spec(*containers, **spec),
    }


def obj(api_version: str, kind: str, **top: Any) -> dict[str, Any]:
    return {"apiVersion": api_version, "kind": kind, "metadata": {}, **top}


def deployment(*containers: Any, **spec: Any) -> dict[str, Any]:
    return obj(
        "apps/v1",
        "Deployment",
        spec={
            "selector": {"matchLabels": {"app": "web"}},
            "template": template(*containers),
            **spec,
        },
    )


def nginx_deployment() -> dict[str, Any]:
    """examples/nginx's reconciler's Deployment, as it writes it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "nginx_reconciler", ROOT / "examples" / "nginx" / "reconciler.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    class Context:
        def list(self, *args: Any, **kwargs: Any) -> list[Any]:
            return []

    made = module.reconcile({"metadata": {"name": "web"}, "spec": {"count": 2}}, Context())
    child: dict[str, Any] = made["children"][0]
    return child


def service(*ports: Any, **spec: Any) -> dict[str, Any]:
    return obj(
        "v1",
        "Service",
        spec={"ports": list(ports) or [{"port": 80}], "selector": {"app": "web"}, **spec},
    )


def job(**spec: Any) -> dict[str, Any]:
    return obj(
        "batch/v1",
        "Job",
        spec={"template": template(container(image="busybox"), restartPolicy="Never"), **spec},
    )


def cronjob(**spec: Any) -> dict[str, Any]:
    job_spec = {"template": template(container(image="busybox"), restartPolicy="OnFailure")}
    return obj(
        "batch/v1",
        "CronJob",
        spec={"schedule": "*/5 * * * *", "jobTemplate": {"spec": job_spec}, **spec},
    )


PROBE = {"httpGet": {"port": 80}}
REALISTIC_CONTAINER = container(
    image="registry.example.com:5000/team/app@sha256:" + "a" * 64,
    ports=[{"containerPort": 8080, "name": "http"}, {"containerPort": 9090, "protocol": "UDP"}],
    env=[
        {"name": "A", "value": "1"},
        {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
    ],
    resources={"limits": {"cpu": "500m", "memory": "128Mi"}},
    livenessProbe=PROBE,
    readinessProbe={"tcpSocket": {"port": 8080}, "periodSeconds": 5},
    startupProbe={"grpc": {"port": 9090}},
    volumeMounts=[{"name": "data", "mountPath": "/data"}],
)
#: images at the edges of distribution/reference's parse, each with a tag of "latest"
#: (or none) where it parses: the pull policy says which way the server read it
IMAGES_REFUSED_AND_NOT = [
    "app:latest@sha256:" + "A" * 64,  # a digest's hex is lowercase
    "app:latest@sha256:" + "a" * 32,  # and as long as its algorithm's
    "app:latest@sha512:" + "a" * 128,
    "app:latest@md5:" + "a" * 32,  # an algorithm go-digest does not have
    "a" * 64,  # an image ID, not a name
    "x.io/" + "b" * 255,  # a path of 255 characters: the longest
    "x.io/" + "b" * 256,
    "b" * 247,  # library/ + 247: 255
    "b" * 248,
    "index.docker.io/" + "b" * 248,
]
VOLUMES = [
    {"name": "data"},
    {"name": "cfg", "configMap": {"name": "cfg"}},
    {"name": "sec", "secret": {"secretName": "s"}},
    {"name": "host", "hostPath": {"path": "/tmp"}},
    {"name": "info", "downwardAPI": {"items": [{"path": "n", "fieldRef": {"fieldPath": "metadata.name"}}]}},
    {"name": "proj", "projected": {"sources": [{"configMap": {"name": "cfg"}}]}},
]  # fmt: skip


def with_volumes(body: dict[str, Any]) -> dict[str, Any]:
    body["spec"]["template"]["spec"]["volumes"] = copy.deepcopy(VOLUMES)
    return body


def with_labels(body: dict[str, Any], labels: dict[str, str]) -> dict[str, Any]:
    body["metadata"]["labels"] = labels
    return body


def daemon_set(image: str) -> dict[str, Any]:
    return obj(
        "apps/v1",
        "DaemonSet",
        spec={
            "selector": {"matchLabels": {"app": "web"}},
            "template": template(container(image=image)),
        },
    )


#: (what, the writes: (verb, body) in order, each to the same object)
CASES: list[tuple[str, list[tuple[str, dict[str, Any]]]]] = [
    ("ConfigMap", [("create", obj("v1", "ConfigMap", data={"a": "b"}))]),
    ("ConfigMap with nothing", [("create", obj("v1", "ConfigMap"))]),
    ("Secret, no type", [("create", obj("v1", "Secret", stringData={"a": "b"}))]),
    ("Secret applied", [("apply", obj("v1", "Secret", data={"a": "Yg=="}))]),
    ("ServiceAccount", [("create", obj("v1", "ServiceAccount"))]),
    ("Service, minimal", [("create", service())]),
    ("Service, applied", [("apply", service({"port": 80, "targetPort": 8080, "name": "http"}))]),
    (
        "Service, NodePort with ClientIP affinity",
        [
            (
                "create",
                service(
                    {"port": 80, "protocol": "UDP"}, type="NodePort", sessionAffinity="ClientIP"
                ),
            )
        ],
    ),
    ("Service, LoadBalancer", [("create", service(type="LoadBalancer"))]),
    (
        "Service, LoadBalancer with the Local traffic policy",
        [("create", service(type="LoadBalancer", externalTrafficPolicy="Local"))],
    ),
    (
        "Service, external IPs and a named target port",
        [("create", service({"port": 80, "targetPort": "http"}, externalIPs=["192.0.2.1"]))],
    ),
    (
        "Service, a NodePort applied again as a ClusterIP",
        [("apply", service(type="NodePort")), ("apply", service(type="ClusterIP"))],
    ),
    (
        "Service, a LoadBalancer updated to a ClusterIP",
        [
            ("create", service(type="LoadBalancer", externalTrafficPolicy="Local")),
            ("update", service(type="ClusterIP")),
        ],
    ),
    (
        "Service, applied twice",
        [("apply", service(type="NodePort")), ("apply", service({"port": 81}, type="NodePort"))],
    ),
    ("Service, headless", [("create", service(clusterIP="None"))]),
    (
        "Service, headless without a selector (dual-stack whatever the cluster's)",
        [("create", obj("v1", "Service", spec={"clusterIP": "None", "ports": [{"port": 80}]}))],
    ),
    (
        "Service, headless without a selector, PreferDualStack and IPv4",
        [
            (
                "create",
                obj(
                    "v1",
                    "Service",
                    spec={
                        "clusterIP": "None",
                        "ipFamilyPolicy": "PreferDualStack",
                        "ipFamilies": ["IPv4"],
                    },
                ),
            )
        ],
    ),
    (
        "Service, headless without a selector, SingleStack",
        [
            (
                "create",
                obj("v1", "Service", spec={"clusterIP": "None", "ipFamilyPolicy": "SingleStack"}),
            )
        ],
    ),
    (
        "Service, ExternalName",
        [
            (
                "create",
                obj("v1", "Service", spec={"type": "ExternalName", "externalName": "example.com"}),
            )
        ],
    ),
    (
        "Service, updated without its allocations",
        [("create", service(type="NodePort")), ("update", service(type="NodePort"))],
    ),
    ("Pod", [("create", obj("v1", "Pod", spec=pod_spec()))]),
    (
        "Pod, host network, init container with limits",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        container(ports=[{"containerPort": 8080}]),
                        hostNetwork=True,
                        initContainers=[
                            container(name="init", resources={"limits": {"memory": "64Mi"}})
                        ],
                        volumes=[
                            {
                                "name": "e",
                                "ephemeral": {
                                    "volumeClaimTemplate": {
                                        "spec": {
                                            "accessModes": ["ReadWriteOnce"],
                                            "resources": {"requests": {"storage": "1Gi"}},
                                        }
                                    }
                                },
                            }
                        ],
                    ),
                ),
            )
        ],
    ),
    (
        "Pod, Burstable",
        [
            (
                "create",
                obj("v1", "Pod", spec=pod_spec(container(resources={"requests": {"cpu": "1"}}))),
            )
        ],
    ),
    (
        "Pod, realistic",
        [("create", obj("v1", "Pod", spec=pod_spec(REALISTIC_CONTAINER, volumes=VOLUMES)))],
    ),
    # pod-level resources (PodLevelResources, on in 1.34): requests defaulted from the
    # containers' aggregated requests, else the pod's limits; the QoS class the pod's own
    (
        "Pod, pod-level limits only (Guaranteed)",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        resources={
                            "limits": {"cpu": "0.5", "memory": "1Gi", "hugepages-2Mi": "4Mi"}
                        }
                    ),
                ),
            )
        ],
    ),
    (
        "Pod, pod-level limits and the containers' requests summed",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        container(
                            resources={
                                "requests": {
                                    "cpu": "0.1",
                                    "memory": "100Mi",
                                    "ephemeral-storage": "1Gi",
                                }
                            }
                        ),
                        container(
                            name="d", resources={"requests": {"cpu": "250m", "memory": "100Mi"}}
                        ),
                        resources={"limits": {"cpu": "2", "memory": "1Gi"}},
                    ),
                ),
            )
        ],
    ),
    (
        "Pod, pod-level cpu limit, a sidecar and an init container (Burstable)",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        container(resources={"limits": {"memory": "1Gi", "cpu": "0.5"}}),
                        initContainers=[
                            container(
                                name="s",
                                restartPolicy="Always",
                                resources={"requests": {"cpu": "100m"}},
                            ),
                            container(name="i", resources={"requests": {"cpu": "2"}}),
                        ],
                        resources={"limits": {"cpu": "4"}},
                    ),
                ),
            )
        ],
    ),
    # Quantity.Add keeps the first addend's format: 1Gi + 512M is 1548576Ki, 5e-1 + 1 is
    # 1500e-3 (component-helpers AggregateContainerRequests, one code with the validation's)
    (
        "Pod, pod-level limits, the containers' requests in mixed spellings",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        container(resources={"requests": {"memory": "1Gi", "cpu": "5e-1"}}),
                        container(name="d", resources={"requests": {"memory": "512M", "cpu": "1"}}),
                        initContainers=[
                            container(
                                name="s",
                                restartPolicy="Always",
                                resources={"requests": {"memory": "100Mi", "cpu": "0.25"}},
                            ),
                        ],
                        resources={"limits": {"cpu": "4", "memory": "4Gi"}},
                    ),
                ),
            )
        ],
    ),
    # a quantity stored in another spelling (1.5Ki is stored 1536) is summed in the one
    # it was sent in: 1.5Ki + 512 is 2Ki; a request defaulted from its limit too
    (
        "Pod, pod-level limits, a binary request stored in decimal",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        container(resources={"requests": {"memory": "1.5Ki", "cpu": "1"}}),
                        container(name="d", resources={"requests": {"memory": "512", "cpu": "1"}}),
                        resources={"limits": {"cpu": "4", "memory": "4Gi"}},
                    ),
                ),
            ),
        ],
    ),
    (
        "Pod, pod-level limits, a binary request defaulted from its limit",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        container(resources={"limits": {"memory": "1.5Ki", "cpu": "1"}}),
                        container(name="d", resources={"requests": {"memory": "512", "cpu": "1"}}),
                        resources={"limits": {"cpu": "4", "memory": "4Gi"}},
                    ),
                ),
            ),
        ],
    ),
    (
        "Pod, pod-level requests only (Burstable)",
        [("create", obj("v1", "Pod", spec=pod_spec(resources={"requests": {"cpu": "1"}})))],
    ),
    (
        "Deployment, pod-level resources in the template (not defaulted)",
        [
            (
                "create",
                deployment(
                    template={
                        "metadata": {"labels": {"app": "web"}},
                        "spec": pod_spec(resources={"limits": {"cpu": "0.25", "memory": "1e3"}}),
                    }
                ),
            )
        ],
    ),
    (
        "Pod, images ParseImageName refuses (the tag it reads is then empty)",
        [
            (
                "create",
                obj(
                    "v1",
                    "Pod",
                    spec=pod_spec(
                        *(
                            container(name=f"c{index}", image=image)
                            for index, image in enumerate(IMAGES_REFUSED_AND_NOT)
                        )
                    ),
                ),
            )
        ],
    ),
    (
        "PersistentVolumeClaim",
        [
            (
                "create",
                obj(
                    "v1",
                    "PersistentVolumeClaim",
                    spec={
                        "accessModes": ["ReadWriteOnce"],
                        "resources": {"requests": {"storage": "1Gi"}},
                    },
                ),
            )
        ],
    ),
    ("Namespace", [("create", obj("v1", "Namespace"))]),
    (
        "Event",
        [
            (
                "create",
                obj(
                    "v1",
                    "Event",
                    involvedObject={"kind": "ConfigMap", "name": "x"},
                    reason="Tested",
                    message="m",
                    type="Normal",
                ),
            )
        ],
    ),
    ("Deployment, minimal", [("create", deployment())]),
    ("Deployment, the nginx example's", [("apply", nginx_deployment())]),
    (
        "Deployment, realistic",
        [
            (
                "create",
                with_volumes(
                    deployment(REALISTIC_CONTAINER, container(name="side", image="busybox:latest"))
                ),
            )
        ],
    ),
    ("Deployment, Recreate", [("create", deployment(strategy={"type": "Recreate"}))]),
    (
        "Deployment, lifecycle hooks and a partial rolling update",
        [
            (
                "create",
                deployment(
                    container(
                        lifecycle={
                            "preStop": {"httpGet": {"port": 80}},
                            "postStart": {"exec": {"command": ["true"]}},
                        },
                        readinessProbe={"exec": {"command": ["true"]}, "timeoutSeconds": 5},
                    ),
                    strategy={"rollingUpdate": {"maxSurge": 2}},
                ),
            )
        ],
    ),
    (
        "StatefulSet, OnDelete and a retention policy",
        [
            (
                "create",
                obj(
                    "apps/v1",
                    "StatefulSet",
                    spec={
                        "selector": {"matchLabels": {"app": "web"}},
                        "template": template(),
                        "updateStrategy": {"type": "OnDelete"},
                        "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete"},
                    },
                ),
            )
        ],
    ),
    (
        "CronJob, time zone and a Job template with labels",
        [("create", cronjob(timeZone="Etc/UTC", startingDeadlineSeconds=30))],
    ),
    (
        "Deployment, updated without its defaults",
        [("create", deployment(replicas=3)), ("update", deployment())],
    ),
    (
        "Deployment, its status written",
        [("create", deployment()), ("status", {**deployment(), "status": {"replicas": 1}})],
    ),
    (
        "Service, a load balancer's status written",
        [
            ("create", service(type="LoadBalancer")),
            (
                "status",
                {
                    **service(type="LoadBalancer"),
                    "status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.9"}]}},
                },
            ),
        ],
    ),
    (
        "Deployment, an apply then one without replicas",
        [("apply", deployment(replicas=3)), ("apply", deployment())],
    ),
    (
        "StatefulSet",
        [
            (
                "create",
                obj(
                    "apps/v1",
                    "StatefulSet",
                    spec={
                        "selector": {"matchLabels": {"app": "web"}},
                        "serviceName": "web",
                        "template": template(),
                        "volumeClaimTemplates": [
                            {
                                "metadata": {"name": "d"},
                                "spec": {
                                    "accessModes": ["ReadWriteOnce"],
                                    "resources": {"requests": {"storage": "1Gi"}},
                                },
                            }
                        ],
                    },
                ),
            )
        ],
    ),
    (
        "DaemonSet",
        [
            (
                "create",
                obj(
                    "apps/v1",
                    "DaemonSet",
                    spec={"selector": {"matchLabels": {"app": "web"}}, "template": template()},
                ),
            )
        ],
    ),
    (
        "DaemonSet, its template updated",
        [("create", daemon_set("nginx:1")), ("update", daemon_set("nginx:2"))],
    ),
    (
        "ReplicaSet",
        [
            (
                "create",
                obj(
                    "apps/v1",
                    "ReplicaSet",
                    spec={"selector": {"matchLabels": {"app": "web"}}, "template": template()},
                ),
            )
        ],
    ),
    ("Job", [("create", job())]),
    ("Job, with labels of its own", [("create", with_labels(job(), {"team": "a"}))]),
    (
        "Job, indexed with a backoff limit per index",
        [("create", job(completionMode="Indexed", completions=3, backoffLimitPerIndex=1))],
    ),
    ("Job, applied twice", [("apply", job()), ("apply", job(activeDeadlineSeconds=60))]),
    ("Job, applied", [("apply", job(backoffLimit=2))]),
    ("Job, parallel", [("create", job(parallelism=3))]),
    (
        "Job, pod failure policy",
        [
            (
                "create",
                job(
                    podFailurePolicy={
                        "rules": [
                            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}
                        ]
                    }
                ),
            )
        ],
    ),
    ("CronJob", [("create", cronjob())]),
    ("CronJob, applied", [("apply", cronjob(concurrencyPolicy="Forbid"))]),
    (
        "Ingress",
        [
            (
                "create",
                obj(
                    "networking.k8s.io/v1",
                    "Ingress",
                    spec={
                        "rules": [
                            {
                                "http": {
                                    "paths": [
                                        {
                                            "path": "/",
                                            "pathType": "Prefix",
                                            "backend": {
                                                "service": {"name": "web", "port": {"number": 80}}
                                            },
                                        }
                                    ]
                                }
                            }
                        ]
                    },
                ),
            )
        ],
    ),
    (
        "NetworkPolicy",
        [
            (
                "create",
                obj(
                    "networking.k8s.io/v1",
                    "NetworkPolicy",
                    spec={"podSelector": {}, "ingress": [{"ports": [{"port": 80}]}]},
                ),
            )
        ],
    ),
    (
        "NetworkPolicy with egress",
        [
            (
                "create",
                obj(
                    "networking.k8s.io/v1",
                    "NetworkPolicy",
                    spec={"podSelector": {}, "egress": [{}]},
                ),
            )
        ],
    ),
    (
        "PodDisruptionBudget, maxUnavailable",
        [("create", obj("policy/v1", "PodDisruptionBudget", spec={"maxUnavailable": "10%"}))],
    ),
    (
        "Ingress, a default backend and TLS",
        [
            (
                "create",
                obj(
                    "networking.k8s.io/v1",
                    "Ingress",
                    spec={
                        "defaultBackend": {"service": {"name": "web", "port": {"name": "http"}}},
                        "tls": [{"hosts": ["a.example.com"], "secretName": "t"}],
                    },
                ),
            )
        ],
    ),
    (
        "PodDisruptionBudget",
        [
            (
                "create",
                obj(
                    "policy/v1",
                    "PodDisruptionBudget",
                    spec={"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}},
                ),
            )
        ],
    ),
    ("Role, no rules", [("create", obj("rbac.authorization.k8s.io/v1", "Role"))]),
    (
        "Role",
        [
            (
                "create",
                obj(
                    "rbac.authorization.k8s.io/v1",
                    "Role",
                    rules=[{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}],
                ),
            )
        ],
    ),
    (
        "RoleBinding",
        [
            (
                "create",
                obj(
                    "rbac.authorization.k8s.io/v1",
                    "RoleBinding",
                    roleRef={"kind": "Role", "name": "r"},
                    subjects=[
                        {"kind": "User", "name": "u"},
                        {"kind": "ServiceAccount", "name": "s", "namespace": "x"},
                    ],
                ),
            )
        ],
    ),
    ("ClusterRole", [("create", obj("rbac.authorization.k8s.io/v1", "ClusterRole"))]),
    (
        "ClusterRoleBinding",
        [
            (
                "create",
                obj(
                    "rbac.authorization.k8s.io/v1",
                    "ClusterRoleBinding",
                    roleRef={"kind": "ClusterRole", "name": "view"},
                    subjects=[
                        {"kind": "Group", "name": "g"},
                        {"kind": "ServiceAccount", "name": "s", "namespace": "x"},
                    ],
                ),
            )
        ],
    ),
    ("Lease", [("create", obj("coordination.k8s.io/v1", "Lease", spec={"holderIdentity": "me"}))]),
]

#: kind -> (group, version, plural, namespaced)
KINDS = {
    kind: (group, version, plural, namespaced)
    for group, version, plural, kind, namespaced, *_ in BUILTINS
}


def compared(found: dict[str, Any]) -> dict[str, Any]:
    """A stored object without what differs by instance (see the module docstring)."""
    found = copy.deepcopy(found)
    meta = found["metadata"]
    uid = meta.pop("uid", None)
    for key in ("resourceVersion", "creationTimestamp", "managedFields"):
        meta.pop(key, None)
    spec = found.get("spec")
    if found.get("kind") == "Service" and isinstance(spec, dict):
        if spec.get("clusterIP") not in (None, "", "None"):
            spec["clusterIP"] = "<allocated>"
            spec["clusterIPs"] = ["<allocated>" for _ in spec.get("clusterIPs") or ()]
        for port in spec.get("ports") or ():
            if port.get("nodePort"):
                port["nodePort"] = "<allocated>"
        if spec.get("healthCheckNodePort"):
            spec["healthCheckNodePort"] = "<allocated>"
    return _replaced(found, uid) if uid else found


def _replaced(value: Any, uid: str) -> Any:
    """``value`` with the object's uid (a Job's generated labels) spelt ``<uid>``."""
    if isinstance(value, dict):
        return {key: _replaced(item, uid) for key, item in value.items()}
    if isinstance(value, list):
        return [_replaced(item, uid) for item in value]
    return "<uid>" if value == uid else value


def differences(theirs: Any, mine: Any, path: str = "") -> list[str]:
    """The paths where two objects differ, each with both values."""
    if isinstance(theirs, dict) and isinstance(mine, dict):
        found = []
        for key in dict.fromkeys([*theirs, *mine]):
            here = f"{path}.{key}"
            if key not in mine:
                found.append(f"{here}: server {theirs[key]!r}, store has none")
            elif key not in theirs:
                found.append(f"{here}: store {mine[key]!r}, server has none")
            else:
                found.extend(differences(theirs[key], mine[key], here))
        return found
    if isinstance(theirs, list) and isinstance(mine, list) and len(theirs) == len(mine):
        return [
            problem
            for index, (a, b) in enumerate(zip(theirs, mine, strict=True))
            for problem in differences(a, b, f"{path}[{index}]")
        ]
    return [] if theirs == mine and type(theirs) is type(mine) else [
        f"{path}: server {theirs!r}, store {mine!r}"
    ]  # fmt: skip


def run_case(
    client: KubeClient, namespace: str, index: int, writes: list[tuple[str, dict[str, Any]]]
) -> tuple[tuple[Any, ...], tuple[Any, ...], dict[str, Any] | None, dict[str, Any] | None]:
    """The writes on both sides: the first refusal of each, and the objects read back."""
    store = ObjectStore()
    kind = writes[0][1]["kind"]
    group, version, plural, namespaced = KINDS[kind]
    server = ResourceClient(
        client, group, version, plural, namespaced=namespaced, namespace=namespace
    )
    info = store.resolve(f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
    name = f"{namespace}-d{index}" if not namespaced else f"d{index}"
    results = []
    for side in ("server", "store"):
        found: tuple[Any, ...] = ("accepted",)
        for verb, body in writes:
            body = copy.deepcopy(body)
            body["metadata"]["name"] = name
            if namespaced:
                body["metadata"]["namespace"] = namespace
            if kind == "Event":
                body["involvedObject"]["namespace"] = namespace
            if side == "server":
                call = {
                    "create": lambda b: server.create(b),
                    "update": lambda b: server.update(
                        {
                            **b,
                            "metadata": {
                                **b["metadata"],
                                "resourceVersion": server.get(name)["metadata"]["resourceVersion"],
                            },
                        }
                    ),
                    "apply": lambda b: server.apply(b, field_manager=MANAGER, force=True),
                    "status": lambda b: server.update_status(
                        {
                            **b,
                            "metadata": {
                                **b["metadata"],
                                "resourceVersion": server.get(name)["metadata"]["resourceVersion"],
                            },
                        }
                    ),
                }[verb]
            else:
                call = {
                    "create": lambda b: store.create(info, b),
                    "update": lambda b: store.update(info, b),
                    "apply": lambda b: store.apply(info, b, field_manager=MANAGER, force=True),
                    "status": lambda b: store.update_status(info, b),
                }[verb]
            found = outcome(lambda call=call, body=body: call(body))
            if found != ("accepted",):
                break
        results.append(found)
    theirs = server.get(name) if results[0] == ("accepted",) else None
    ns = namespace if namespaced else ""
    mine = store.get(info, ns, name) if results[1] == ("accepted",) else None
    if not namespaced and theirs is not None:
        server.delete(name)
    return results[0], results[1], theirs, mine


def test_every_builtin_kind_has_a_case() -> None:
    assert {writes[0][1]["kind"] for _, writes in CASES} == set(KINDS)


def test_builtin_objects_are_stored_as_the_server_stores_them(
    client: KubeClient, namespace: str
) -> None:
    problems = []
    for index, (what, writes) in enumerate(CASES):
        server, store, theirs, mine = run_case(client, namespace, index, writes)
        if server != ("accepted",):
            problems.append(f"{what}: the server refused it (the case is wrong): {server}")
            continue
        if store != server:
            problems.append(f"{what}: the store answered {store}")
            continue
        assert theirs is not None and mine is not None
        found = differences(compared(theirs), compared(mine))
        if found:
            problems.append(f"{what}:\n    " + "\n    ".join(found))
    assert problems == [], f"{len(problems)} of {len(CASES)} cases differ:\n" + "\n".join(problems)
