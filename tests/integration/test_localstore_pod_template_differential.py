"""A workload's pod template: the store against the real server.

``ValidatePodSpec``'s commonest rules (``validation.pods``: volumes and their
sources' fields, containers and init containers, their names, images, policies,
ports, env, envFrom, volume mounts, resources, security contexts, lifecycle handlers
and probes, host port conflicts; the pod's restart policy, DNS policy and config,
node selector, security context, affinity, gates, topology spread, names, hostname,
subdomain and tolerations: ``FIELDS``
holds the rules after the resources) and the apps kinds' "restart Always, no active
deadline" (``ValidatePodTemplateSpecForReplicaSet``, ``ValidateDaemonSetSpec``,
``ValidateStatefulSetSpec``), at the place each workload's validation checks its
template. Each case creates the same body on the session's kube-apiserver and in an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or the stored labels and spec. A map's errors (resources, labels,
annotations, a node selector) come in Go's random map order: a case holds one entry
with errors at most.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from tests.integration.localstore_answers import ODD, Sides, assert_agree
from tests.integration.test_localstore_job_differential import answer
from tests.integration.test_localstore_workloads_differential import deployment


def container(name: str | None = "app", **fields: Any) -> dict[str, Any]:
    """A valid container but for ``fields`` (``None``: left out)."""
    made = {"name": name, "image": "nginx:1", **fields}
    return {key: value for key, value in made.items() if value is not None}


def pod(*containers: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A pod spec of ``containers`` (one valid one when none) and ``fields``."""
    return {"containers": list(containers) or [container()], **fields}


EMPTY = {"name": "data", "emptyDir": {}}
MOUNT = {"name": "data", "mountPath": "/data"}
CONFIG = {"configMapKeyRef": {"name": "cm", "key": "k"}}
SECRET = {"secretKeyRef": {"name": "s", "key": "k"}}
PROBE = {"exec": {"command": ["true"]}}

#: (what, the template's pod spec) created as a Deployment on both sides
DEPLOYMENTS: list[tuple[str, dict[str, Any]]] = [
    ("valid: a container with ports, env, mounts, resources, an init container",
     pod(container(ports=[{"name": "http", "containerPort": 80}, {"containerPort": 53, "protocol": "UDP", "hostPort": 5353}],
                   env=[{"name": "A_B.c-1", "value": "x"}, {"name": "1 weird but printable", "valueFrom": CONFIG}],
                   volumeMounts=[MOUNT], resources={"requests": {"cpu": "500m"}, "limits": {"cpu": "1", "memory": "1Gi"}}),
         initContainers=[container("init", volumeMounts=[{"name": "data", "mountPath": "/data"}])],
         volumes=[EMPTY, {"name": "cfg", "configMap": {"name": "cm"}}])),
    ("a container without an image", pod(container(image=None))),
    ("a container with an empty image", pod(container(image=""))),
    ("a container without a name", pod(container(None))),
    ("a container name not a DNS label", pod(container("App_1"))),
    ("a container name of 64 characters", pod(container("a" * 64))),
    ("odd: a container name", pod(container(ODD))),
    ("two containers of one name", pod(container(), container())),
    ("an init container named as a container", pod(initContainers=[container()])),
    ("an init container: bad name, no image", pod(initContainers=[container("Init", image=None)])),
    ("a termination message policy not known", pod(container(terminationMessagePolicy="Sometimes"))),
    ("odd: a termination message policy", pod(container(terminationMessagePolicy=ODD))),
    ("a pull policy not known", pod(container(imagePullPolicy="Sometimes"))),
    ("odd: a pull policy", pod(container(imagePullPolicy=ODD))),
    ("a port without containerPort", pod(container(ports=[{"name": "http"}]))),
    ("a containerPort of 70000", pod(container(ports=[{"containerPort": 70000}]))),
    ("a containerPort of -1", pod(container(ports=[{"containerPort": -1}]))),
    ("a hostPort of 70000 and of -5", pod(container(ports=[{"containerPort": 80, "hostPort": 70000}, {"containerPort": 81, "hostPort": -5}]))),
    ("a protocol not known", pod(container(ports=[{"containerPort": 80, "protocol": "HTTP"}]))),
    ("odd: a protocol", pod(container(ports=[{"containerPort": 80, "protocol": ODD}]))),
    ("port names: upper case, too long, double hyphen, digits only, hyphen first",
     pod(container(ports=[{"name": "HTTP", "containerPort": 1}, {"name": "a-very-long-port-name", "containerPort": 2},
                          {"name": "a--b", "containerPort": 3}, {"name": "123", "containerPort": 4},
                          {"name": "-web", "containerPort": 5}]))),
    ("odd: a port name", pod(container(ports=[{"name": ODD, "containerPort": 80}]))),
    ("two ports of one name, and a third", pod(container(ports=[{"name": "http", "containerPort": 80}, {"name": "http", "containerPort": 81}, {"name": "http", "containerPort": 82}]))),
    ("env names: with '=', not ASCII, empty", pod(container(env=[{"name": "A=B"}, {"name": "é"}, {"name": ""}]))),
    ("odd: an env name", pod(container(env=[{"name": ODD}]))),
    ("env valueFrom without a source", pod(container(env=[{"name": "A", "valueFrom": {}}]))),
    ("env valueFrom with two sources", pod(container(env=[{"name": "A", "valueFrom": {**CONFIG, **SECRET}}]))),
    ("env valueFrom beside a value", pod(container(env=[{"name": "A", "value": "x", "valueFrom": CONFIG}]))),
    ("env valueFrom with two sources beside a value", pod(container(env=[{"name": "A", "value": "x", "valueFrom": {**CONFIG, **SECRET}}]))),
    ("a volume name not a DNS label, mounted", pod(container(volumeMounts=[{"name": "Data_1", "mountPath": "/d"}]), volumes=[{"name": "Data_1", "emptyDir": {}}])),
    ("two volumes of one name", pod(volumes=[EMPTY, {"name": "data", "configMap": {"name": "cm"}}])),
    ("a volume of two sources, mounted", pod(container(volumeMounts=[MOUNT]), volumes=[{"name": "data", "emptyDir": {}, "configMap": {"name": "cm"}}])),
    ("a volume of three sources", pod(volumes=[{"name": "data", "emptyDir": {}, "secret": {"secretName": "s"}, "downwardAPI": {}}])),
    ("odd: a volume name", pod(volumes=[{"name": ODD, "emptyDir": {}}])),
    ("valid: a volume without a source (an emptyDir)", pod(container(volumeMounts=[MOUNT]), volumes=[{"name": "data"}])),
    ("a mount of no volume", pod(container(volumeMounts=[MOUNT]))),
    ("a mount without a name or path", pod(container(volumeMounts=[{"name": "", "mountPath": ""}]), volumes=[EMPTY])),
    ("two mounts at one path", pod(container(volumeMounts=[MOUNT, {"name": "cfg", "mountPath": "/data"}]), volumes=[EMPTY, {"name": "cfg", "configMap": {"name": "cm"}}])),
    ("odd: two mounts at one path", pod(container(volumeMounts=[{"name": "data", "mountPath": ODD}, {"name": "data", "mountPath": ODD}]), volumes=[EMPTY])),
    ("a cpu request above its limit", pod(container(resources={"requests": {"cpu": "2000m"}, "limits": {"cpu": "1"}}))),
    ("a memory request above its limit", pod(container(resources={"requests": {"memory": "2Gi"}, "limits": {"memory": "1024Mi"}}))),
    ("an ephemeral-storage request above its limit", pod(container(resources={"requests": {"ephemeral-storage": "2G"}, "limits": {"ephemeral-storage": "1G"}}))),
    ("valid: a request equal to its limit, another spelling", pod(container(resources={"requests": {"cpu": "1000m"}, "limits": {"cpu": "1"}}))),
    ("a limit of a resource not standard", pod(container(resources={"limits": {"gpu": "1"}}))),
    ("a limit of a quota resource", pod(container(resources={"limits": {"requests.cpu": "1"}}))),
    ("odd: a resource name", pod(container(resources={"limits": {ODD: "1"}}))),
    ("a resource name not qualified", pod(container(resources={"requests": {"example.com/a b": "1"}}))),
    ("an extended resource requested without a limit", pod(container(resources={"requests": {"example.com/gpu": "1"}}))),
    ("an extended resource requested below its limit", pod(container(resources={"requests": {"example.com/gpu": "1"}, "limits": {"example.com/gpu": "2"}}))),
    ("an extended resource's fractional limit", pod(container(resources={"limits": {"example.com/gpu": "500m"}}))),
    ("valid: an extended resource, request equal to limit", pod(container(resources={"requests": {"example.com/gpu": "2"}, "limits": {"example.com/gpu": "2"}}))),
    ("valid: a kubernetes.io/ resource", pod(container(resources={"requests": {"kubernetes.io/thing": "1500m"}}))),
    ("a negative cpu request", pod(container(resources={"requests": {"cpu": "-1"}}))),
    ("a negative memory limit", pod(container(resources={"limits": {"memory": "-1Mi"}}))),
    ("an init container with probes and a lifecycle",
     pod(initContainers=[container("init", livenessProbe=PROBE, readinessProbe=PROBE, lifecycle={"preStop": {"exec": {"command": ["x"]}}})])),
    ("valid: a sidecar init container with a probe", pod(initContainers=[container("init", restartPolicy="Always", startupProbe=PROBE)])),
    ("a probe of two handlers", pod(container(livenessProbe={**PROBE, "tcpSocket": {"port": 80}, "grpc": {"port": 9}}))),
    ("a probe without a handler", pod(container(readinessProbe={"periodSeconds": 5}))),
    ("an exec probe without a command", pod(container(startupProbe={"exec": {}}))),
    ("an httpGet probe: port 0", pod(container(livenessProbe={"httpGet": {"port": 0}}))),
    ("an httpGet probe: a bad port name, an unknown scheme", pod(container(livenessProbe={"httpGet": {"port": "HTTP", "scheme": "FTP"}}))),
    ("odd: an httpGet probe's scheme and port name", pod(container(readinessProbe={"httpGet": {"port": ODD, "scheme": ODD}}))),
    ("a tcpSocket probe: port 70000", pod(container(readinessProbe={"tcpSocket": {"port": 70000}}))),
    ("a grpc probe: port 0", pod(container(startupProbe={"grpc": {"port": 0}}))),
    ("a probe's negative counts", pod(container(livenessProbe={**PROBE, "initialDelaySeconds": -1, "timeoutSeconds": -2, "failureThreshold": -3}))),
    ("a liveness probe succeeding twice, a startup probe thrice", pod(container(livenessProbe={**PROBE, "successThreshold": 2}, startupProbe={**PROBE, "successThreshold": 3}))),
    ("valid: a readiness probe succeeding thrice", pod(container(readinessProbe={**PROBE, "successThreshold": 3}))),
    ("a readiness probe's grace period", pod(container(readinessProbe={**PROBE, "terminationGracePeriodSeconds": 10}))),
    ("a liveness probe's grace period 0, a readiness probe's -1", pod(container(livenessProbe={**PROBE, "terminationGracePeriodSeconds": 0}, readinessProbe={**PROBE, "terminationGracePeriodSeconds": -1}))),
    ("valid: three probes", pod(container(livenessProbe={"httpGet": {"port": "http"}}, readinessProbe={"tcpSocket": {"port": 80}}, startupProbe={"grpc": {"port": 9000}}))),
    ("two init containers without names", pod(initContainers=[container(None), container(None)])),
    ("two containers without names", pod(container(None), container(None))),
    ("a pod restart policy Never", pod(restartPolicy="Never")),
    ("a pod restart policy OnFailure", pod(restartPolicy="OnFailure")),
    ("a pod restart policy not known", pod(restartPolicy="Sometimes")),
    ("odd: a pod restart policy", pod(restartPolicy=ODD)),
    ("an active deadline", pod(activeDeadlineSeconds=30)),
    ("everything at once, in the server's order",
     pod(container("A", image=None, ports=[{"containerPort": 0, "protocol": "X"}], env=[{"name": "="}],
                   volumeMounts=[{"name": "nope", "mountPath": "/x"}], imagePullPolicy="Sometimes"),
         container("A", terminationMessagePolicy="Sometimes"),
         initContainers=[container("A")], volumes=[{"name": "V", "emptyDir": {}}],
         restartPolicy="Never", activeDeadlineSeconds=5)),
]  # fmt: skip

CM_REF = {"configMapRef": {"name": "cm"}}
SLEEP = {"sleep": {"seconds": 5}}
TOKEN = {"serviceAccountToken": {"path": "token"}}

#: (what, the template's pod spec): the rules after a container's resources, created as
#: Deployments on both sides
FIELDS: list[tuple[str, dict[str, Any]]] = [
    ("valid: envFrom a ConfigMap and a Secret, prefixed",
     pod(container(envFrom=[{**CM_REF, "prefix": "CFG_"}, {"secretRef": {"name": "s", "optional": True}}]))),
    ("envFrom without a source", pod(container(envFrom=[{"prefix": "A"}]))),
    ("envFrom of two sources", pod(container(envFrom=[{**CM_REF, "secretRef": {"name": "s"}}]))),
    ("envFrom names empty and not a DNS subdomain, a prefix with '='",
     pod(container(envFrom=[{"configMapRef": {"name": ""}, "prefix": "A=B"}, {"secretRef": {"name": "Bad_Name"}}]))),
    ("odd: an envFrom prefix and name", pod(container(envFrom=[{"configMapRef": {"name": ODD}, "prefix": ODD}]))),
    ("env sources: a configMapKeyRef without a key, a secretKeyRef's bad name and key, an empty name",
     pod(container(env=[{"name": "A", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": ""}}},
                        {"name": "B", "valueFrom": {"secretKeyRef": {"name": "Bad_Name", "key": "a/b"}}},
                        {"name": "C", "valueFrom": {"secretKeyRef": {"name": "", "key": ".."}}},
                        {"name": "D", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "..x"}}}]))),
    ("env fieldRef: no fieldPath, not supported, a subscript not supported, a bad label key, another version",
     pod(container(env=[{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": ""}}},
                        {"name": "B", "valueFrom": {"fieldRef": {"fieldPath": "status.phase"}}},
                        {"name": "C", "valueFrom": {"fieldRef": {"fieldPath": "spec.x['y']"}}},
                        {"name": "D", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['a b']"}}},
                        {"name": "E", "valueFrom": {"fieldRef": {"fieldPath": "metadata.nope"}}},
                        {"name": "F", "valueFrom": {"fieldRef": {"apiVersion": "v2", "fieldPath": "metadata.name"}}},
                        {"name": "G", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels"}}}]))),
    ("env resourceFieldRef: no resource, not supported, divisors not supported",
     pod(container(env=[{"name": "A", "valueFrom": {"resourceFieldRef": {"resource": ""}}},
                        {"name": "B", "valueFrom": {"resourceFieldRef": {"resource": "limits.gpu"}}},
                        {"name": "C", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "10m"}}},
                        {"name": "D", "valueFrom": {"resourceFieldRef": {"resource": "requests.memory", "divisor": "1000"}}},
                        {"name": "E", "valueFrom": {"resourceFieldRef": {"resource": "limits.hugepages-2Mi", "divisor": "3"}}},
                        {"name": "F", "valueFrom": {"resourceFieldRef": {"resource": "limits.ephemeral-storage", "divisor": "2Ki"}}}]))),
    ("valid: env from a field, a resource, a ConfigMap key and a Secret key",
     pod(container(env=[{"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                        {"name": "HOST", "valueFrom": {"fieldRef": {"fieldPath": "spec.host"}}},
                        {"name": "TEAM", "valueFrom": {"fieldRef": {"fieldPath": "metadata.annotations['Example.com/Team']"}}},
                        {"name": "CPU", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1000m"}}},
                        {"name": "MEM", "valueFrom": {"resourceFieldRef": {"resource": "requests.memory", "divisor": "1024Ki"}}},
                        {"name": "K", "valueFrom": {"configMapKeyRef": {"name": "cm", "key": "app.properties"}}},
                        {"name": "S", "valueFrom": {"secretKeyRef": {"name": "s", "key": "PASSWORD", "optional": True}}}]))),
    ("a downwardAPI volume: items without a path or a ref, with both, a field not supported, a resource without a container",
     pod(volumes=[{"name": "d", "downwardAPI": {"defaultMode": 1000, "items": [
         {"path": ""}, {"path": "a", "fieldRef": {"fieldPath": "metadata.name"}, "resourceFieldRef": {"resource": "limits.cpu", "containerName": "app"}},
         {"path": "b", "fieldRef": {"fieldPath": "status.podIP"}}, {"path": "/c", "resourceFieldRef": {"resource": "limits.cpu"}, "mode": -1}]}}])),
    ("projected downwardAPI: a duplicate path, a bad field",
     pod(volumes=[{"name": "p", "projected": {"sources": [
         {"configMap": {"name": "cm", "items": [{"key": "a", "path": "x"}]}},
         {"downwardAPI": {"items": [{"path": "x", "fieldRef": {"fieldPath": "metadata.labels"}}, {"path": "y", "fieldRef": {"fieldPath": "spec.nodeName"}}]}}]}}])),
    ("valid: downwardAPI volumes",
     pod(volumes=[{"name": "d", "downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}},
                                                          {"path": "cpu", "resourceFieldRef": {"containerName": "app", "resource": "limits.cpu", "divisor": "1m"}}]}},
                  {"name": "p", "projected": {"sources": [TOKEN, {"downwardAPI": {"items": [{"path": "ns", "fieldRef": {"fieldPath": "metadata.namespace"}}]}}]}}])),
    ("a lifecycle: postStart without a handler, preStop of two",
     pod(container(lifecycle={"postStart": {}, "preStop": {"exec": {"command": ["x"]}, "httpGet": {"port": 80}}}))),
    ("a lifecycle: httpGet without a path, a bad port name; tcpSocket port 0",
     pod(container(lifecycle={"preStop": {"httpGet": {"port": "Web_1", "path": ""}}, "postStart": {"tcpSocket": {"port": 0}}}))),
    ("a lifecycle: sleep above the grace period, sleep -1",
     pod(container(lifecycle={"preStop": {"sleep": {"seconds": 40}}, "postStart": {"sleep": {"seconds": -1}}}))),
    ("a lifecycle: sleep above a grace period of 3", pod(container(lifecycle={"preStop": SLEEP}), terminationGracePeriodSeconds=3)),
    ("valid: a lifecycle of sleep and exec", pod(container(lifecycle={"preStop": SLEEP, "postStart": PROBE}))),
    ("a sidecar init container's bad probe and lifecycle",
     pod(initContainers=[container("init", restartPolicy="Always", lifecycle={"preStop": {}}, livenessProbe={"exec": {}}, readinessProbe={**PROBE, "terminationGracePeriodSeconds": 5})])),
    ("a container's runAsUser -1 and runAsGroup 2^31",
     pod(container(securityContext={"runAsUser": -1, "runAsGroup": 2147483648}))),
    ("a pod's runAsUser, runAsGroup, fsGroup and a supplemental group out of range",
     pod(securityContext={"runAsUser": 2147483648, "runAsGroup": -1, "fsGroup": -2, "supplementalGroups": [1, -1]})),
    ("seccomp: a container's without a type, the pod's type not known",
     pod(container(securityContext={"seccompProfile": {}}), securityContext={"seccompProfile": {"type": "Strict"}})),
    ("seccomp: Localhost without a profile, with an absolute one; RuntimeDefault with one",
     pod(container("a", securityContext={"seccompProfile": {"type": "Localhost"}}),
         container("b", securityContext={"seccompProfile": {"type": "Localhost", "localhostProfile": "/x/../y"}}),
         container("c", securityContext={"seccompProfile": {"type": "RuntimeDefault", "localhostProfile": "p.json"}}))),
    ("appArmor: no type, a type not known, Localhost without a profile, padded, Unconfined with one",
     pod(container("a", securityContext={"appArmorProfile": {}}),
         container("b", securityContext={"appArmorProfile": {"type": "Strict"}}),
         container("c", securityContext={"appArmorProfile": {"type": "Localhost"}}),
         container("d", securityContext={"appArmorProfile": {"type": "Localhost", "localhostProfile": " p "}}),
         securityContext={"appArmorProfile": {"type": "Unconfined", "localhostProfile": "p"}})),
    ("odd: seccomp and appArmor types", pod(container(securityContext={"seccompProfile": {"type": ODD}, "appArmorProfile": {"type": ODD}}))),
    ("procMount not known, Unmasked with host users",
     pod(container("a", securityContext={"procMount": "Weird"}), container("b", securityContext={"procMount": "Unmasked"}))),
    ("allowPrivilegeEscalation false beside privileged and CAP_SYS_ADMIN",
     pod(container(securityContext={"allowPrivilegeEscalation": False, "privileged": True, "runAsUser": 5,
                                    "capabilities": {"add": ["NET_ADMIN", "CAP_SYS_ADMIN"], "drop": ["ALL"]}}))),
    ("allowPrivilegeEscalation false beside CAP_SYS_ADMIN, seccomp and SELinux",
     pod(container(securityContext={"allowPrivilegeEscalation": False, "capabilities": {"add": ["CAP_SYS_ADMIN"]},
                                    "seLinuxOptions": {"level": "s0"}, "seccompProfile": {"type": "RuntimeDefault"}}))),
    ("valid: a privileged container", pod(container(securityContext={"privileged": True}))),
    ("valid: empty capability lists (a Go slice of length 0, not nil)",
     pod(container(securityContext={"capabilities": {"add": [], "drop": []}}), initContainers=[container("init", securityContext={"capabilities": {"drop": []}})])),
    ("allowPrivilegeEscalation false beside privileged, empty capability lists printed",
     pod(container(securityContext={"allowPrivilegeEscalation": False, "privileged": True, "capabilities": {"add": [], "drop": []}}))),
    ("allowPrivilegeEscalation false beside privileged, a null and an empty capability list",
     pod(container(securityContext={"allowPrivilegeEscalation": False, "privileged": True, "capabilities": {"add": None, "drop": []}}))),
    ("hostPID with a shared process namespace, no security context", pod(hostPID=True, shareProcessNamespace=True)),
    ("valid: a probe's sleep and a lifecycle's grpc, unknown fields dropped",
     pod(container(livenessProbe={**PROBE, "sleep": {"seconds": 1}}, lifecycle={"preStop": {**PROBE, "grpc": {"port": 0}}}))),
    ("fsGroupChangePolicy and supplementalGroupsPolicy not known, hostPID with a shared process namespace",
     pod(securityContext={"fsGroupChangePolicy": "Sometimes", "supplementalGroupsPolicy": "Union"}, hostPID=True, shareProcessNamespace=True)),
    ("valid: a restricted security context",
     pod(container(securityContext={"runAsNonRoot": True, "runAsUser": 1000, "allowPrivilegeEscalation": False,
                                    "capabilities": {"drop": ["ALL"]}, "readOnlyRootFilesystem": True,
                                    "seccompProfile": {"type": "RuntimeDefault"}}),
         securityContext={"fsGroup": 2000, "seccompProfile": {"type": "Localhost", "localhostProfile": "profiles/a.json"},
                          "appArmorProfile": {"type": "RuntimeDefault"}})),
    ("tolerations: a key not a label name, an operator and an effect not known",
     pod(tolerations=[{"key": "a b", "operator": "Maybe", "effect": "NoRun"}])),
    ("tolerations: no key with Equal, Exists with a value, tolerationSeconds without NoExecute",
     pod(tolerations=[{"operator": "Equal"}, {"key": "k", "operator": "Exists", "value": "v"}, {"key": "k", "value": "v", "effect": "NoSchedule", "tolerationSeconds": 5}])),
    ("tolerations: a value not a label value, no operator and no key",
     pod(tolerations=[{"key": "k", "operator": "Equal", "value": "bad value!"}, {"value": "x"}])),
    ("odd: a toleration's operator and effect", pod(tolerations=[{"key": "k", "operator": ODD, "effect": ODD}])),
    ("valid: tolerations", pod(tolerations=[{"operator": "Exists"}, {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}, {"key": "k", "value": "v", "effect": "NoSchedule"}])),
    ("a nodeSelector key and value not valid", pod(nodeSelector={"a b": "bad value!"})),
    ("valid: a nodeSelector", pod(nodeSelector={"kubernetes.io/os": "linux", "disk": ""})),
    ("a dnsPolicy not known", pod(dnsPolicy="Cluster")),
    ("odd: a dnsPolicy", pod(dnsPolicy=ODD)),
    ("dnsPolicy None without dnsConfig", pod(dnsPolicy="None")),
    ("dnsPolicy None without nameservers", pod(dnsPolicy="None", dnsConfig={"searches": ["a.b"]})),
    ("dnsConfig: four nameservers, one not an IP; searches not subdomains; an option without a name",
     pod(dnsConfig={"nameservers": ["1.1.1.1", "8.8.8.8", "::1", "not-an-ip"], "searches": ["Bad.Domain", ".", "ok.", "_srv.ok", "a..b"],
                    "options": [{"name": "ndots", "value": "2"}, {"value": "x"}]})),
    ("valid: dnsPolicy None with nameservers", pod(dnsPolicy="None", dnsConfig={"nameservers": ["10.0.0.010"], "searches": ["svc.cluster.local."]})),
    ("a hostname and a subdomain not DNS labels", pod(hostname="Web_1", subdomain="a.b")),
    ("valid: a hostname and a subdomain", pod(hostname="web-0", subdomain="web")),
    ("two containers on one host port",
     pod(container("a", ports=[{"containerPort": 80, "hostPort": 8080}]), container("b", ports=[{"containerPort": 81, "hostPort": 8080}, {"containerPort": 82, "hostPort": 8080, "hostIP": "10.0.0.1"}]))),
    ("valid: one host port for TCP and UDP", pod(container(ports=[{"containerPort": 53, "hostPort": 53}, {"containerPort": 53, "hostPort": 53, "protocol": "UDP"}]))),
    ("an init container's two ports on one host port, another's on a container's",
     pod(container(ports=[{"containerPort": 80, "hostPort": 9000}]),
         initContainers=[container("i1", ports=[{"containerPort": 1, "hostPort": 9000}, {"containerPort": 2, "hostPort": 9000}]),
                         container("i2", ports=[{"containerPort": 3, "hostPort": 9000}])])),
    ("a configMap volume without a name, a secret without a secretName",
     pod(volumes=[{"name": "a", "configMap": {}}, {"name": "b", "secret": {}}])),
    ("a claim without a claimName, a hostPath without a path, mounted",
     pod(container(volumeMounts=[{"name": "a", "mountPath": "/a"}, {"name": "b", "mountPath": "/b"}]),
         volumes=[{"name": "a", "persistentVolumeClaim": {"claimName": ""}}, {"name": "b", "hostPath": {"path": ""}}])),
    ("a hostPath with '..' and a type not known", pod(volumes=[{"name": "a", "hostPath": {"path": "/a/../b", "type": "Pipe"}}])),
    ("odd: a hostPath type", pod(volumes=[{"name": "a", "hostPath": {"path": "/a", "type": ODD}}])),
    ("an emptyDir's negative sizeLimit", pod(volumes=[{"name": "a", "emptyDir": {"sizeLimit": "-1Gi"}}])),
    ("items: no key, no path, an absolute path, '..', '..x'; modes out of range",
     pod(volumes=[{"name": "a", "configMap": {"name": "cm", "defaultMode": 512, "items": [
         {"key": "", "path": ""}, {"key": "k", "path": "/abs"}, {"key": "k", "path": "x/../y"}, {"key": "k", "path": "..x", "mode": -1}]}},
                  {"name": "b", "secret": {"secretName": "s", "defaultMode": -1, "items": [{"key": "k", "path": "../up", "mode": 1000}]}}])),
    ("projected: a configMap without a name, duplicate paths, a short token, two kinds in a source, a bad mode",
     pod(volumes=[{"name": "p", "projected": {"defaultMode": 1000, "sources": [
         {"configMap": {"items": [{"key": "a", "path": "x"}]}},
         {"secret": {"name": "s", "items": [{"key": "b", "path": "x"}]}},
         {"serviceAccountToken": {"path": "t", "expirationSeconds": 60}},
         {"configMap": {"name": "cm"}, "secret": {"name": "s"}},
         {"serviceAccountToken": {"path": "/abs", "expirationSeconds": 4294967297}}]}}])),
    ("projected: a token without a path", pod(volumes=[{"name": "p", "projected": {"sources": [{"serviceAccountToken": {}}]}}])),
    ("a volume of two sources, the first without its name", pod(volumes=[{"name": "a", "configMap": {}, "secret": {}}])),
    ("valid: volumes of each checked source",
     pod(container(volumeMounts=[{"name": "p", "mountPath": "/p"}, {"name": "h", "mountPath": "/h"}]),
         volumes=[{"name": "p", "projected": {"sources": [TOKEN, {"configMap": {"name": "cm", "items": [{"key": "a", "path": "a/b", "mode": 256}]}}]}},
                  {"name": "h", "hostPath": {"path": "/var/log", "type": "Directory"}},
                  {"name": "c", "persistentVolumeClaim": {"claimName": "data"}},
                  {"name": "e", "emptyDir": {"sizeLimit": "1Gi", "medium": "Memory"}},
                  {"name": "s", "secret": {"secretName": "s", "defaultMode": 256}}])),
    ("node affinity: no terms", pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}})),
    ("node affinity: In without values, Exists with values, Gt of two, an operator not known, a bad key and value",
     pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
         {"matchExpressions": [{"key": "a", "operator": "In"}, {"key": "b", "operator": "Exists", "values": ["x"]},
                               {"key": "c", "operator": "Gt", "values": ["1", "2"]}, {"key": "a b", "operator": "Near"},
                               {"key": "d", "operator": "In", "values": ["bad value!"]}]},
         {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a", "b"]}, {"key": "spec.x", "operator": "Exists"},
                          {"key": "metadata.name", "operator": "NotIn", "values": ["Bad_Node"]}]}]}}})),
    ("node affinity: preferred weights 0 and 101, a value not checked, an odd operator",
     pod(affinity={"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": 0, "preference": {"matchExpressions": [{"key": "a", "operator": "In", "values": ["bad value!"]}]}},
         {"weight": 101, "preference": {"matchExpressions": [{"key": "a", "operator": ODD}]}}]}})),
    ("pod affinity and anti-affinity: no topology key, a bad one, a bad namespace, weights",
     pod(affinity={"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                       {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": ""},
                       {"namespaces": ["ok", "Bad_NS"], "topologyKey": "a b"}]},
                   "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                       {"weight": 200, "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname"}},
                       {"weight": 1, "podAffinityTerm": {}}]}})),
    ("valid: node, pod and anti-affinity",
     pod(affinity={"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                       {"matchExpressions": [{"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"]}]}]},
                                    "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 50, "preference": {}}]},
                   "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                       {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": "kubernetes.io/hostname"}}]}})),
    ("topology spread: maxSkew 0, no key, an action not known, a repeat, minDomains with ScheduleAnyway, a policy not known",
     pod(topologySpreadConstraints=[
         {"maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": "Never"},
         {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": 0, "nodeAffinityPolicy": "Maybe"},
         {"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway", "nodeTaintsPolicy": "Sometimes"}])),
    ("odd: a topology spread action", pod(topologySpreadConstraints=[{"maxSkew": 1, "topologyKey": "z", "whenUnsatisfiable": ODD}])),
    ("valid: topology spread", pod(topologySpreadConstraints=[{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                                                              "minDomains": 2, "labelSelector": {"matchLabels": {"app": "web"}}}])),
    ("readiness and scheduling gates not qualified names, a gate twice",
     pod(readinessGates=[{"conditionType": "a b"}], schedulingGates=[{"name": "x/y/z"}, {"name": "g"}, {"name": "g"}])),
    ("a service account, node and priority class name not DNS subdomains",
     pod(serviceAccountName="Robot_1", nodeName="Node_1", priorityClassName="High Priority")),
    # the server's conversion copies serviceAccountName to the deprecated serviceAccount
    ("valid: a service account, node name, priority class, gates",
     pod(serviceAccountName="robot", nodeName="node-1", priorityClassName="system-cluster-critical",
         readinessGates=[{"conditionType": "example.com/ready"}])),
    ("valid: only the deprecated serviceAccount", pod(serviceAccount="old-robot")),
    ("valid: both service account fields, the name wins",
     pod(serviceAccountName="robot", serviceAccount="old-robot")),
    ("the deprecated serviceAccount not a DNS subdomain", pod(serviceAccount="Old_Robot")),
    ("valid: an init container's restartPolicy not Always (dropped: ContainerRestartRules is off)",
     pod(initContainers=[container("init", restartPolicy="OnFailure")])),
    ("probe and lifecycle HTTP header names not valid",
     pod(container(readinessProbe={"httpGet": {"port": 80, "httpHeaders": [{"name": "X-Ok", "value": "1"}, {"name": "Bad Header", "value": "2"}]}},
                   lifecycle={"postStart": {"httpGet": {"port": 80, "httpHeaders": [{"name": "", "value": ""}]}}}))),
    ("hostNetwork: a host port not the container port",
     pod(container(ports=[{"containerPort": 80, "hostPort": 8080}, {"containerPort": 81}, {"containerPort": 82, "hostPort": 82}]), hostNetwork=True)),
    ("host aliases: an IP not valid, a hostname not a subdomain",
     pod(hostAliases=[{"ip": "10.0.0.300", "hostnames": ["ok.example", "Bad_Host"]}, {"ip": "", "hostnames": []}])),
    # netutils.ParseIPSloppy: leading zeros read, ASCII digits only, no zone
    ("host aliases: sloppy leading zeros, a Unicode digit, a zone, a trailing newline",
     pod(hostAliases=[{"ip": "0010.0.0.00001", "hostnames": ["a"]}, {"ip": "10.0.0.\u0663", "hostnames": ["b"]},
                      {"ip": "fe80::1%eth0", "hostnames": ["c"]}, {"ip": "10.0.0.1\n", "hostnames": ["d"]},
                      {"ip": "::ffff:010.0.0.1", "hostnames": ["e"]}, {"ip": "00000001::1", "hostnames": ["f"]}])),
    ("a runtime class and a priority class not subdomains, an empty runtime class",
     pod(container("a"), runtimeClassName="Run_C", priorityClassName="Prio_C")),
    ("an empty runtime class", pod(runtimeClassName="")),
    ("a preemption policy not known, empty", pod(preemptionPolicy="Sometimes")),
    ("an empty preemption policy", pod(preemptionPolicy="")),
    ("an os name not known", pod(os={"name": "plan9"})),
    ("an os without a name", pod(os={})),
    ("odd: an os name", pod(os={"name": ODD})),
    ("valid: hostNetwork, host aliases, runtime class, preemption, os",
     pod(container(ports=[{"containerPort": 80, "hostPort": 80}, {"containerPort": 81}]), hostNetwork=True,
         hostAliases=[{"ip": "127.0.0.1", "hostnames": ["foo.local"]}], runtimeClassName="gvisor", preemptionPolicy="Never", os={"name": "linux"})),
    ("sysctls: no name, not a sysctl name, twice, a net one with hostNetwork, an IPC one with hostIPC",
     pod(securityContext={"sysctls": [{"name": "", "value": "1"}, {"name": "Kernel.X", "value": "1"},
                                      {"name": "kernel.shm_rmid_forced", "value": "1"}, {"name": "kernel.shm_rmid_forced", "value": "0"},
                                      {"name": "net/ipv4/ip_forward", "value": "1"}, {"name": "fs.mqueue.msg_max", "value": "1"}]},
         hostNetwork=True, hostIPC=True)),
    ("valid: sysctls", pod(securityContext={"sysctls": [{"name": "net.ipv4.tcp_syncookies", "value": "1"}, {"name": "kernel.msgmax", "value": "65536"}]})),
    ("a CSI volume: no driver, a bad secret name; one with a driver too long and upper case",
     pod(volumes=[{"name": "a", "csi": {"driver": "", "nodePublishSecretRef": {"name": "Bad_Secret"}}},
                  {"name": "b", "csi": {"driver": "Driver_" + "x" * 60, "nodePublishSecretRef": {"name": ""}}}])),
    ("an ephemeral volume without a claim template", pod(volumes=[{"name": "e", "ephemeral": {}}])),
    ("valid: CSI and ephemeral volumes",
     pod(volumes=[{"name": "a", "csi": {"driver": "Secrets-Store.csi.k8s.io", "readOnly": True, "nodePublishSecretRef": {"name": "creds"}}},
                  {"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}}}])),
    ("resize policies: a resource twice and not known, a policy not known, an empty one",
     pod(container(resizePolicy=[{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "cpu", "restartPolicy": "Maybe"},
                                 {"resourceName": "gpu", "restartPolicy": "RestartContainer"}, {"resourceName": "", "restartPolicy": ""}]))),
    ("valid: resize policies", pod(container(resizePolicy=[{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "memory", "restartPolicy": "RestartContainer"}]))),
    ("everything after the restart policy, in the server's order",
     pod(container(envFrom=[{}], lifecycle={"preStop": {}}, securityContext={"runAsUser": -1}),
         dnsPolicy="Nope", nodeSelector={"a b": "c"}, securityContext={"fsGroup": -1},
         dnsConfig={"options": [{}]}, hostname="A", subdomain="B", tolerations=[{"operator": "X"}])),
]  # fmt: skip


def term(**fields: Any) -> dict[str, Any]:
    """A pod affinity term on the zone but for ``fields`` (``None``: left out)."""
    made = {"topologyKey": "topology.kubernetes.io/zone", **fields}
    return {key: value for key, value in made.items() if value is not None}


def spread(**fields: Any) -> dict[str, Any]:
    """A topology spread constraint on the zone but for ``fields``."""
    return {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
            "whenUnsatisfiable": "DoNotSchedule", **fields}  # fmt: skip


WEB = {"matchLabels": {"app": "web"}}
#: one bad requirement of each kind ValidateLabelSelectorRequirement refuses
BAD_EXPRESSIONS = {"matchExpressions": [
    {"key": "a", "operator": "In"}, {"key": "b", "operator": "Exists", "values": ["x"]},
    {"key": "c d", "operator": "Near", "values": ["-bad-"]}, {"key": "e", "operator": "NotIn", "values": ["ok", "a b"]},
]}  # fmt: skip


def anti(*required: dict[str, Any], preferred: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    """Pod anti-affinity of ``required`` terms and ``preferred`` ones (weight 10)."""
    affinity: dict[str, Any] = {}
    if required:
        affinity["requiredDuringSchedulingIgnoredDuringExecution"] = list(required)
    if preferred:
        affinity["preferredDuringSchedulingIgnoredDuringExecution"] = [
            {"weight": 10, "podAffinityTerm": each} for each in preferred
        ]
    return {"podAntiAffinity": affinity}


#: (what, the template's pod spec): the label selectors and label keys of pod
#: (anti-)affinity terms and topology spread constraints (``ValidatePodAffinityTermSelector``,
#: ``ValidateMatchLabelKeysAndMismatchLabelKeys``, the spread's ``ValidateLabelSelector``),
#: created as Deployments on both sides
SELECTORS: list[tuple[str, dict[str, Any]]] = [
    ("valid: affinity terms with selectors and label keys, a spread with matchLabelKeys",
     pod(affinity={"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
             term(labelSelector=WEB, namespaceSelector={}, matchLabelKeys=["pod-template-hash"], mismatchLabelKeys=["tenant"])]},
         **anti(preferred=(term(labelSelector={"matchExpressions": [{"key": "app", "operator": "Exists"}]},
                                namespaceSelector={"matchLabels": {"team": "a"}}),))},
         topologySpreadConstraints=[spread(labelSelector=WEB, matchLabelKeys=["pod-template-hash"])])),
    ("an affinity term's label selector: a label key not valid", pod(affinity=anti(term(labelSelector={"matchLabels": {"a b": "web"}})))),
    ("an affinity term's label selector: a label value not valid", pod(affinity=anti(term(labelSelector={"matchLabels": {"app": "-web"}})))),
    ("an affinity term's label selector: each kind of bad requirement", pod(affinity=anti(term(labelSelector=BAD_EXPRESSIONS)))),
    ("odd: an affinity term's selector operator, key and value",
     pod(affinity=anti(term(labelSelector={"matchExpressions": [{"key": ODD, "operator": ODD, "values": [ODD]}]})))),
    ("a preferred affinity term's namespace selector: each kind of bad requirement",
     pod(affinity={"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": 1, "podAffinityTerm": term(namespaceSelector=BAD_EXPRESSIONS)}]}})),
    ("a term's label and namespace selectors, namespaces, label keys and topology key, in the server's order",
     pod(affinity=anti(term(labelSelector={"matchExpressions": [{"key": "x", "operator": "In"}]},
                            namespaceSelector={"matchExpressions": [{"key": "y", "operator": "Exists", "values": ["v"]}]},
                            namespaces=["Bad_NS"], matchLabelKeys=["a b"], topologyKey="")))),
    ("matchLabelKeys and mismatchLabelKeys without a label selector",
     pod(affinity=anti(term(matchLabelKeys=["app"], mismatchLabelKeys=["tenant"])))),
    ("matchLabelKeys and mismatchLabelKeys not label names",
     pod(affinity=anti(term(labelSelector=WEB, matchLabelKeys=["ok", "a b", ""], mismatchLabelKeys=["-x"])))),
    ("odd: a matchLabelKey", pod(affinity=anti(term(labelSelector=WEB, matchLabelKeys=[ODD])))),
    ("a key in both matchLabelKeys and mismatchLabelKeys",
     pod(affinity=anti(term(labelSelector=WEB, matchLabelKeys=["a", "tenant"], mismatchLabelKeys=["tenant"])))),
    ("valid: a matchLabelKey also in the selector's matchLabels", pod(affinity=anti(term(labelSelector=WEB, matchLabelKeys=["app"])))),
    ("valid: a matchLabelKey also in one of the selector's expressions",
     pod(affinity=anti(term(labelSelector={"matchExpressions": [{"key": "app", "operator": "Exists"}]}, matchLabelKeys=["app"])))),
    ("a matchLabelKey in the selector's matchLabels and expressions",
     pod(affinity=anti(term(labelSelector={**WEB, "matchExpressions": [{"key": "app", "operator": "In", "values": ["web"]}]},
                            matchLabelKeys=["tenant", "app"])))),
    ("a matchLabelKey in two of the selector's expressions, a mismatchLabelKey too",
     pod(affinity=anti(term(labelSelector={"matchExpressions": [{"key": "x", "operator": "Exists"}, {"key": "x", "operator": "DoesNotExist"}]},
                            matchLabelKeys=["x"], mismatchLabelKeys=["x"])))),
    ("a spread's label selector: a label value, each kind of bad requirement",
     pod(topologySpreadConstraints=[spread(labelSelector={"matchLabels": {"app": "we b"}}), spread(whenUnsatisfiable="ScheduleAnyway", labelSelector=BAD_EXPRESSIONS)])),
    ("a spread's matchLabelKeys without a label selector", pod(topologySpreadConstraints=[spread(matchLabelKeys=["app"])])),
    ("a spread's matchLabelKeys not label names", pod(topologySpreadConstraints=[spread(labelSelector=WEB, matchLabelKeys=["a b", "pod-template-hash", "-"])])),
    ("valid: a spread's matchLabelKey also in its selector", pod(topologySpreadConstraints=[spread(labelSelector=WEB, matchLabelKeys=["app"])])),
    ("a spread's matchLabelKey in its selector's matchLabels and expressions",
     pod(topologySpreadConstraints=[spread(labelSelector={**WEB, "matchExpressions": [{"key": "app", "operator": "Exists"}]}, matchLabelKeys=["x", "app"])])),
    ("a spread's maxSkew, matchLabelKeys and selector, in the server's order",
     pod(topologySpreadConstraints=[spread(maxSkew=0, labelSelector={"matchExpressions": [{"key": "k", "operator": "In"}]}, matchLabelKeys=["a b"])])),
]  # fmt: skip


CLAIMED = {"name": "data", "persistentVolumeClaim": {"claimName": "data"}}
DEVICE = {"name": "data", "devicePath": "/dev/xvda"}
PAGES = "hugepages-2Mi"
#: (what, the template's pod spec): volume devices and their conflicts with volume
#: mounts (``ValidateVolumeDevices``, ``ValidateVolumeMounts``), huge pages
#: (``validateResourceRequirements``), Windows options
#: (``validateWindowsSecurityContextOptions``), resource claims (``validatePodResourceClaims``,
#: ``validateResourceClaimNames``), the overhead (``validateOverhead``) and the volume
#: mounts' sub paths, propagation and recursive read-only, the active deadline's range,
#: a linux or windows pod's own rules (``validateLinux``, ``validateWindows``) and the
#: SELinux change policy, created as Deployments on both sides
MORE_FIELDS: list[tuple[str, dict[str, Any]]] = [
    ("valid: a block device of a claim and of an ephemeral volume",
     pod(container(volumeDevices=[DEVICE, {"name": "e", "devicePath": "/dev/xvdb"}]),
         volumes=[CLAIMED, {"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {
             "accessModes": ["ReadWriteOnce"], "volumeMode": "Block", "resources": {"requests": {"storage": "1Gi"}}}}}}])),
    ("a device of an emptyDir volume", pod(container(volumeDevices=[DEVICE]), volumes=[EMPTY])),
    ("a device without a name or path, one of no volume",
     pod(container(volumeDevices=[{"name": "", "devicePath": ""}, {"name": "nope", "devicePath": "/dev/a"}]))),
    ("two devices of one name and path, a path with '..'",
     pod(container(volumeDevices=[DEVICE, DEVICE, {"name": "data", "devicePath": "/dev/../x"}]), volumes=[CLAIMED])),
    ("a device named as a mount, a device path a mount's path",
     pod(container(volumeMounts=[{"name": "data", "mountPath": "/dev/xvdb"}, {"name": "cfg", "mountPath": "/dev/xvda"}],
                   volumeDevices=[DEVICE, {"name": "cfg2", "devicePath": "/dev/xvdb"}]),
         volumes=[CLAIMED, {"name": "cfg", "configMap": {"name": "cm"}}, {"name": "cfg2", "persistentVolumeClaim": {"claimName": "c2"}}])),
    ("an init container's device of an emptyDir volume", pod(initContainers=[container("init", volumeDevices=[DEVICE])], volumes=[EMPTY])),
    ("valid: huge pages beside memory", pod(container(resources={"limits": {PAGES: "4Mi", "memory": "1Gi"}, "requests": {PAGES: "4Mi"}}))),
    ("huge pages without cpu or memory", pod(container(resources={"limits": {PAGES: "4Mi"}}))),
    ("huge pages not a multiple of the page size",
     pod(container(resources={"limits": {PAGES: "3Mi", "cpu": "1"}, "requests": {PAGES: "3Mi"}}))),
    ("huge pages of a 1Gi page, 1500Mi", pod(container(resources={"limits": {"hugepages-1Gi": "1500Mi", "memory": "2Gi"}}))),
    ("huge pages of a bad page size", pod(container(resources={"limits": {"hugepages-abc": "2Mi", "memory": "1Gi"}}))),
    ("windows options: an empty credential spec and user, a bad credential spec name",
     pod(container(securityContext={"windowsOptions": {"gmsaCredentialSpecName": "Bad_Name", "gmsaCredentialSpec": "", "runAsUserName": ""}}))),
    ("windows options: a user with two backslashes, a pod's user too long",
     pod(container(securityContext={"windowsOptions": {"runAsUserName": "a\\b\\c"}}),
         securityContext={"windowsOptions": {"runAsUserName": "u" * 105}})),
    ("valid: windows options", pod(container(securityContext={"windowsOptions": {"runAsUserName": "NT AUTHORITY\\NETWORK SERVICE"}}))),
    ("windows options: a bad NetBios domain, a user of periods and spaces, a user with '@'",
     pod(container("a", securityContext={"windowsOptions": {"runAsUserName": "a*b\\ . "}}),
         container("b", securityContext={"windowsOptions": {"runAsUserName": "x@y"}}))),
    ("odd: a windows user name, a control character", pod(container(securityContext={"windowsOptions": {"runAsUserName": ODD}}))),
    ("windows options: a credential spec name too long, an empty domain",
     pod(securityContext={"windowsOptions": {"gmsaCredentialSpecName": "a" * 254, "runAsUserName": "\\user"}})),
    ("resource claims: no name, twice, neither source, both sources, bad names",
     pod(resourceClaims=[{"name": ""}, {"name": "gpu", "resourceClaimName": "c"}, {"name": "gpu", "resourceClaimName": "c"},
                         {"name": "Bad_Claim", "resourceClaimName": "Bad_Name", "resourceClaimTemplateName": "t"}])),
    ("a container's claims: of no pod claim, twice, no name",
     pod(container(resources={"claims": [{"name": "gpu"}, {"name": "gpu"}, {"name": ""}, {"name": "x"}]}),
         resourceClaims=[{"name": "gpu", "resourceClaimTemplateName": "t"}])),
    ("overhead: a negative cpu", pod(overhead={"cpu": "-1"})),
    ("valid: resource claims used by a container, whole and by request",
     pod(container(resources={"claims": [{"name": "gpu"}, {"name": "net", "request": "a"}, {"name": "net", "request": "b"}]}),
         resourceClaims=[{"name": "gpu", "resourceClaimTemplateName": "gpu-template"}, {"name": "net", "resourceClaimName": "net-claim"}])),
    ("a container's claims: a whole claim after its request, a request twice, a bad request name",
     pod(container("a", resources={"claims": [{"name": "net", "request": "a"}, {"name": "net"}, {"name": "net", "request": "a"}, {"name": "gpu", "request": "Bad_R"}]}),
         resourceClaims=[{"name": "net", "resourceClaimName": "n"}, {"name": "gpu", "resourceClaimName": "g"}]),
     ),
    ("a container's claim without pod claims", pod(container(resources={"claims": [{"name": "gpu"}]}))),
    ("valid: an overhead", pod(overhead={"cpu": "250m", "memory": "120Mi"})),
    ("overhead: huge pages not a multiple, without cpu or memory", pod(overhead={"hugepages-2Mi": "3Mi"})),
    ("overhead: a resource not standard for containers", pod(overhead={"gpu": "1"})),
    ("valid: mounts with a subPath, a subPathExpr, propagation and a recursive read-only",
     pod(container(volumeMounts=[{**MOUNT, "subPath": "a/b"}, {"name": "data", "mountPath": "/e", "subPathExpr": "$(POD)"},
                                 {"name": "data", "mountPath": "/h", "mountPropagation": "HostToContainer"},
                                 {"name": "data", "mountPath": "/r", "readOnly": True, "recursiveReadOnly": "IfPossible"}]),
         volumes=[EMPTY])),
    ("a mount's subPath absolute, another's with '..'",
     pod(container(volumeMounts=[{**MOUNT, "subPath": "/abs"}, {"name": "data", "mountPath": "/b", "subPath": "a/../../b"}]), volumes=[EMPTY])),
    ("a mount's subPath beside a subPathExpr, a subPathExpr absolute",
     pod(container(volumeMounts=[{**MOUNT, "subPath": "a", "subPathExpr": "b"}, {"name": "data", "mountPath": "/b", "subPathExpr": "/$(X)/.."}]), volumes=[EMPTY])),
    ("a mount propagation not known, Bidirectional in a container not privileged",
     pod(container("a", volumeMounts=[{**MOUNT, "mountPropagation": "Sideways"}]),
         container("b", volumeMounts=[{**MOUNT, "mountPropagation": "Bidirectional"}]), volumes=[EMPTY])),
    ("valid: Bidirectional propagation in a privileged container",
     pod(container(volumeMounts=[{**MOUNT, "mountPropagation": "Bidirectional"}], securityContext={"privileged": True}), volumes=[EMPTY])),
    ("odd: a mount propagation and a recursive read-only",
     pod(container(volumeMounts=[{**MOUNT, "mountPropagation": ODD, "recursiveReadOnly": ODD}]), volumes=[EMPTY])),
    ("a recursive read-only without readOnly, beside propagation; one not known",
     pod(container(volumeMounts=[{**MOUNT, "recursiveReadOnly": "Enabled", "mountPropagation": "HostToContainer"},
                                 {"name": "data", "mountPath": "/b", "readOnly": True, "recursiveReadOnly": "Always"}]), volumes=[EMPTY])),
    # the server drops hostUsers of a template (stores securityContext: {}): no
    # validateHostUsers conflict is left to refuse
    ("valid: hostUsers false beside hostNetwork, hostPID, hostIPC and a device",
     pod(container(volumeDevices=[DEVICE]), initContainers=[container("init", volumeDevices=[DEVICE])], volumes=[CLAIMED],
         hostNetwork=True, hostPID=True, hostIPC=True, securityContext={"hostUsers": False})),
    ("an active deadline of 0", pod(activeDeadlineSeconds=0)),
    ("an active deadline past an int32", pod(activeDeadlineSeconds=2147483648)),
    ("a linux pod's windows options, the pod's and its containers'",
     pod(container(securityContext={"windowsOptions": {"runAsUserName": "u"}}), initContainers=[container("init", securityContext={"windowsOptions": {}})],
         os={"name": "linux"}, securityContext={"windowsOptions": {"runAsUserName": "u"}})),
    ("a windows pod's linux fields, the pod's and its containers'",
     pod(container(securityContext={"appArmorProfile": {"type": "RuntimeDefault"}, "seLinuxOptions": {"level": "s0"}, "seccompProfile": {"type": "RuntimeDefault"},
                                    "capabilities": {"drop": ["ALL"]}, "readOnlyRootFilesystem": False, "privileged": False,
                                    "allowPrivilegeEscalation": True, "procMount": "Default", "runAsUser": 1, "runAsGroup": 1}),
         initContainers=[container("init", securityContext={"runAsUser": 2})],
         os={"name": "windows"}, hostPID=True, hostIPC=True, shareProcessNamespace=False,
         securityContext={"appArmorProfile": {"type": "RuntimeDefault"}, "seLinuxOptions": {"level": "s0"}, "seccompProfile": {"type": "RuntimeDefault"},
                          "fsGroup": 1, "fsGroupChangePolicy": "Always", "sysctls": [{"name": "net.ipv4.tcp_syncookies", "value": "1"}],
                          "runAsUser": 1, "runAsGroup": 1, "supplementalGroups": [1], "supplementalGroupsPolicy": "Merge",
                          "seLinuxChangePolicy": "Recursive"})),
    ("valid: a windows pod with windows options",
     pod(container(securityContext={"windowsOptions": {"runAsUserName": "ContainerUser"}}), os={"name": "windows"},
         securityContext={"windowsOptions": {"runAsUserName": "ContainerAdministrator"}})),
    ("valid: a linux pod's security contexts", pod(container(securityContext={"runAsUser": 1}), os={"name": "linux"}, securityContext={"fsGroup": 2})),
    ("a seLinuxChangePolicy not Recursive (SELinuxMount off)", pod(securityContext={"seLinuxChangePolicy": "MountOption"})),
    ("odd: a seLinuxChangePolicy", pod(securityContext={"seLinuxChangePolicy": ODD})),
    ("valid: a seLinuxChangePolicy Recursive", pod(securityContext={"seLinuxChangePolicy": "Recursive"})),
]  # fmt: skip


HOST_PROCESS = {"windowsOptions": {"hostProcess": True}}
CLAIM_SPEC = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}


def ephemeral(template: dict[str, Any]) -> dict[str, Any]:
    """An ephemeral volume of the claim ``template``."""
    return {"name": "e", "ephemeral": {"volumeClaimTemplate": template}}


#: (what, the template's pod spec): Windows host process pods
#: (``validateWindowsHostProcessPod``), a windows pod's empty lists and structs,
#: pod-level resources (``validatePodResources``: PodLevelResources is beta and on), the
#: in-tree volume plugins' fields (``validate<Plugin>VolumeSource``), an ephemeral
#: volume's claim template (``ValidatePersistentVolumeClaimTemplate``), the projections
#: of gates that are off, created as Deployments on both sides
LATER_FIELDS: list[tuple[str, dict[str, Any]]] = [
    ("valid: a windows host process pod, on the host's network",
     pod(container(securityContext={"windowsOptions": {"runAsUserName": "NT AUTHORITY\\SYSTEM"}}), initContainers=[container("init")],
         os={"name": "windows"}, hostNetwork=True, securityContext={"windowsOptions": {"hostProcess": True}})),
    ("a host process container beside one that is not, off the host's network",
     pod(container("a", securityContext=HOST_PROCESS), container("b"))),
    ("a pod's host process, a container's false, an init container's true",
     pod(container(securityContext={"windowsOptions": {"hostProcess": False}}), initContainers=[container("init", securityContext=HOST_PROCESS)],
         hostNetwork=True, securityContext=HOST_PROCESS)),
    ("valid: host process false everywhere", pod(container(securityContext={"windowsOptions": {"hostProcess": False}}), securityContext={"windowsOptions": {"hostProcess": False}})),
    ("a windows pod's host process inherited by all, off the host's network, beside a bad topology spread and hostname",
     pod(container("a"), container("b"), os={"name": "windows"}, securityContext=HOST_PROCESS,
         topologySpreadConstraints=[{"maxSkew": 0, "topologyKey": "z", "whenUnsatisfiable": "DoNotSchedule"}], hostname="A")),
    ("a linux pod's host process", pod(container(securityContext=HOST_PROCESS), os={"name": "linux"}, hostNetwork=True)),
    ("a windows pod's empty supplemental groups, empty sysctls", pod(os={"name": "windows"}, securityContext={"supplementalGroups": [], "sysctls": []})),
    ("a windows pod's containers' empty capabilities and SELinux options, an empty capability list",
     pod(container("a", securityContext={"capabilities": {}, "seLinuxOptions": {}}), container("b", securityContext={"capabilities": {"drop": []}}),
         os={"name": "windows"})),
    ("a windows pod's empty seccomp and AppArmor profiles", pod(os={"name": "windows"}, securityContext={"seccompProfile": {"type": "RuntimeDefault"}, "appArmorProfile": {"type": "RuntimeDefault"}, "seLinuxOptions": {}})),
    ("valid: projected cluster trust bundle and pod certificate sources (dropped: their gates are off)",
     pod(volumes=[{"name": "p", "projected": {"sources": [{"clusterTrustBundle": {"name": "b", "path": "ca.pem"}},
                                                          {"podCertificate": {"signerName": "example.com/s", "keyType": "RSA3072", "credentialBundlePath": "c"}}]}}])),
    ("valid: pod-level resources above the containers'",
     pod(container("a", resources={"requests": {"cpu": "500m", "memory": "512Mi"}, "limits": {"memory": "1Gi"}}), container("b", resources={"requests": {"cpu": "0.5"}}),
         initContainers=[container("init", resources={"requests": {"cpu": "1"}})],
         resources={"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2", "memory": "1Gi", PAGES: "2Mi"}})),
    ("pod-level resources: ephemeral-storage", pod(resources={"requests": {"ephemeral-storage": "1Gi"}})),
    ("pod-level resources: an extended resource", pod(resources={"limits": {"example.com/gpu": "1"}})),
    ("pod-level resources: a resource not standard", pod(resources={"limits": {"gpu": "1"}})),
    ("odd: a pod-level resource name", pod(resources={"limits": {ODD: "1"}})),
    # one request with errors a case: the requests are a Go map, walked in a random order
    ("pod-level resources: a request above its limit", pod(resources={"requests": {"cpu": "2"}, "limits": {"cpu": "1"}})),
    ("pod-level resources: a negative memory request", pod(resources={"requests": {"memory": "-1"}})),
    ("pod-level resources: huge pages without cpu or memory, not a multiple", pod(resources={"limits": {PAGES: "3Mi"}})),
    ("pod-level resources: claims", pod(resources={"claims": [{"name": "gpu"}]}, resourceClaims=[{"name": "gpu", "resourceClaimName": "c"}])),
    ("pod-level resources: claims of no pod claim", pod(resources={"claims": [{"name": "x"}, {"name": ""}]})),
    ("pod-level resources: empty claims", pod(resources={"claims": [], "requests": {"cpu": "1"}})),
    ("pod-level resources of a windows pod", pod(os={"name": "windows"}, resources={"requests": {"cpu": "-1"}})),
    ("pod-level requests below the containers' sum", pod(container("a", resources={"requests": {"cpu": "600m"}}), container("b", resources={"requests": {"cpu": "0.6"}}), resources={"requests": {"cpu": "1"}})),
    ("pod-level requests below an init container beside a sidecar",
     pod(container(resources={"requests": {"memory": "256Mi"}}),
         initContainers=[container("side", restartPolicy="Always", resources={"requests": {"memory": "512Mi"}}), container("init", resources={"requests": {"memory": "1Gi"}})],
         resources={"requests": {"memory": "1Gi"}})),
    ("pod-level requests below the containers' sum, binary first",
     pod(container("a", resources={"requests": {"memory": "1Gi"}}), container("b", resources={"requests": {"memory": "512M"}}), resources={"requests": {"memory": "1G"}})),
    ("pod-level requests below the containers' sum, decimal first",
     pod(container("a", resources={"requests": {"memory": "512M"}}), container("b", resources={"requests": {"memory": "1Gi"}}), resources={"requests": {"memory": "1G"}})),
    ("pod-level requests below the containers' sum, a binary one stored without its suffix first",
     pod(container("a", resources={"requests": {"memory": "1.5Ki"}}), container("b", resources={"requests": {"memory": "512"}}), resources={"requests": {"memory": "1Ki"}})),
    ("pod-level requests below the containers' sum, an exponent first",
     pod(container("a", resources={"requests": {"cpu": "5e-1"}}), container("b", resources={"requests": {"cpu": "1"}}), resources={"requests": {"cpu": "1"}})),
    ("pod-level memory limit below a container's", pod(container(resources={"limits": {"memory": "2Gi"}}), resources={"limits": {"memory": "1Gi"}})),
    ("pod-level huge pages limit below the containers'",
     pod(container("a", resources={"limits": {PAGES: "4Mi", "memory": "1Gi"}}), container("b", resources={"limits": {PAGES: "2Mi", "memory": "1Gi"}}),
         resources={"limits": {PAGES: "4Mi", "memory": "4Gi"}})),
    ("pod-level resources, then the host network's ports",
     pod(container(ports=[{"containerPort": 80, "hostPort": 81}], resources={"limits": {"cpu": "2"}}), hostNetwork=True, resources={"limits": {"cpu": "1"}})),
    ("valid: in-tree volume plugins",
     pod(volumes=[{"name": "nfs", "nfs": {"server": "nfs.local", "path": "/exports"}},
                  {"name": "iscsi", "iscsi": {"targetPortal": "10.0.0.1:3260", "iqn": "iqn.2001-04.com.example:storage", "lun": 255,
                                              "initiatorName": "eui.0123456789ABCDEF", "chapAuthSession": True, "secretRef": {"name": "chap"}}},
                  {"name": "gluster", "glusterfs": {"endpoints": "ep", "path": "vol"}}, {"name": "rbd", "rbd": {"monitors": ["10.0.0.2:6789"], "image": "img"}},
                  {"name": "ceph", "cephfs": {"monitors": ["10.0.0.3:6789"]}}, {"name": "cinder", "cinder": {"volumeID": "v", "secretRef": {"name": "s"}}},
                  {"name": "fc", "fc": {"targetWWNs": ["500a0982991b8dc5"], "lun": 0}}, {"name": "fc2", "fc": {"wwids": ["3600508b400105e210000900000490000"]}},
                  {"name": "flex", "flexVolume": {"driver": "example/lvm", "options": {"example.com/size": "1"}}},
                  {"name": "afile", "azureFile": {"secretName": "s", "shareName": "share"}},
                  {"name": "gce", "gcePersistentDisk": {"pdName": "pd", "partition": 1}}, {"name": "aws", "awsElasticBlockStore": {"volumeID": "vol-1"}},
                  {"name": "git", "gitRepo": {"repository": "https://example.com/r.git", "directory": "src"}},
                  {"name": "vs", "vsphereVolume": {"volumePath": "[ds] v.vmdk"}}, {"name": "ph", "photonPersistentDisk": {"pdID": "p"}},
                  {"name": "px", "portworxVolume": {"volumeID": "x"}}, {"name": "sos", "storageos": {"volumeName": "v", "volumeNamespace": "ns"}},
                  {"name": "flock", "flocker": {"datasetName": "d"}}, {"name": "quo", "quobyte": {"registry": "a:7861,[::1]:7861", "volume": "v"}},
                  {"name": "adisk", "azureDisk": {"diskName": "d", "diskURI": "https://a.blob.core.windows.net/c/d.vhd", "cachingMode": "ReadWrite",
                                                  "fsType": "ext4", "readOnly": False, "kind": "Shared"}},
                  {"name": "sio", "scaleIO": {"gateway": "https://g", "system": "s", "secretRef": {"name": "s"}, "volumeName": "v",
                                              "storageMode": "ThinProvisioned", "fsType": "xfs"}}])),
    ("nfs: no server, no path", pod(volumes=[{"name": "a", "nfs": {}}])),
    ("nfs: a relative path", pod(volumes=[{"name": "a", "nfs": {"server": "s", "path": "exports"}}])),
    ("valid: azureDisk and scaleIO defaulted (SetDefaults_AzureDiskVolumeSource, _ScaleIOVolumeSource)",
     pod(volumes=[{"name": "a", "azureDisk": {"diskName": "d", "diskURI": "https://a.blob.core.windows.net/c/d.vhd"}},
                  {"name": "b", "azureDisk": {"diskName": "d", "diskURI": "/subscriptions/x", "kind": "Managed", "fsType": "", "readOnly": True}},
                  {"name": "c", "scaleIO": {"gateway": "https://g", "system": "s", "secretRef": {"name": "s"}, "volumeName": "v"}},
                  {"name": "e", "scaleIO": {"gateway": "https://g", "system": "s", "secretRef": {"name": "s"}, "volumeName": "w",
                                            "storageMode": "", "fsType": "ext4"}}])),
    ("iscsi: no portal, no iqn, a LUN of 256, CHAP without a secret",
     pod(volumes=[{"name": "a", "iscsi": {"lun": 256, "chapAuthDiscovery": True}}])),
    ("iscsi: an iqn of no known prefix, initiator names of bad iqn and eui forms",
     pod(volumes=[{"name": "a", "iscsi": {"targetPortal": "p", "iqn": "xyz.2001", "initiatorName": "iqn.01-04.x:y"}},
                  {"name": "b", "iscsi": {"targetPortal": "p", "iqn": "naa.123", "initiatorName": "eui.0123"}},
                  {"name": "c", "iscsi": {"targetPortal": "p", "iqn": "iqn.2001-04.com.example:a b", "initiatorName": "abc"}}])),
    ("iscsi: a name and portal over 64 with an initiator name, beside a second source",
     pod(volumes=[{"name": "a" * 40, "iscsi": {"targetPortal": "10.0.0.1:3260" + "0" * 20, "iqn": "iqn.2001-04.com.example:s", "initiatorName": "iqn.2001-04.com.example:i"},
                   "nfs": {}}])),
    ("gluster, rbd, cephfs, cinder without their fields",
     pod(volumes=[{"name": "a", "glusterfs": {}}, {"name": "b", "rbd": {"monitors": []}}, {"name": "c", "cephfs": {}}, {"name": "d", "cinder": {"secretRef": {}}}])),
    ("flocker: neither, both, a name with '/'",
     pod(volumes=[{"name": "a", "flocker": {}}, {"name": "b", "flocker": {"datasetName": "a/b", "datasetUUID": "u"}}])),
    ("quobyte: no registry nor volume; a tenant too long; registries not host:port",
     pod(volumes=[{"name": "a", "quobyte": {}}, {"name": "b", "quobyte": {"registry": "r:1", "tenant": "t" * 65, "volume": "v"}},
                  {"name": "c", "quobyte": {"registry": "r,r:1:2,[::1]:3,[::1,a]b:1,x:", "volume": "v"}}])),
    ("fc: neither WWNs nor WWIDs, both without a LUN, a LUN of 300",
     pod(volumes=[{"name": "a", "fc": {}}, {"name": "b", "fc": {"targetWWNs": ["w"], "wwids": ["i"]}}, {"name": "c", "fc": {"targetWWNs": ["w"], "lun": 300}}])),
    ("flexVolume: no driver, a reserved option", pod(volumes=[{"name": "a", "flexVolume": {"options": {"Foo.Kubernetes.IO/x": "1"}}}])),
    ("flexVolume: a k8s.io option", pod(volumes=[{"name": "a", "flexVolume": {"driver": "d", "options": {"k8s.io": "1"}}}])),
    ("azureFile, vsphere, photon, portworx, scaleIO without their fields",
     pod(volumes=[{"name": "a", "azureFile": {}}, {"name": "b", "vsphereVolume": {}}, {"name": "c", "photonPersistentDisk": {}},
                  {"name": "d", "portworxVolume": {}}, {"name": "e", "scaleIO": {"secretRef": {"name": "s"}, "storageMode": "ThinProvisioned", "fsType": "xfs"}}])),
    ("azureDisk: no name nor URI, a caching mode and kind not known",
     pod(volumes=[{"name": "a", "azureDisk": {"diskURI": "", "diskName": "", "cachingMode": "Sometimes", "kind": "Blob", "fsType": "ext4", "readOnly": False}}])),
    ("azureDisk: a managed disk's blob URI, a shared disk's managed URI",
     pod(volumes=[{"name": "a", "azureDisk": {"diskName": "d", "diskURI": "https://x", "cachingMode": "None", "kind": "Managed", "fsType": "ext4", "readOnly": False}},
                  {"name": "b", "azureDisk": {"diskName": "d", "diskURI": "/subscriptions/x", "cachingMode": "None", "kind": "Dedicated", "fsType": "ext4", "readOnly": False}}])),
    ("odd: an azureDisk caching mode", pod(volumes=[{"name": "a", "azureDisk": {"diskName": "d", "diskURI": "https://x", "cachingMode": ODD, "kind": "Shared", "fsType": "ext4", "readOnly": False}}])),
    ("storageos: no volume name, a namespace not a label, a secret without a name; another's volume name not a label",
     pod(volumes=[{"name": "a", "storageos": {"volumeNamespace": "NS_1", "secretRef": {}}}, {"name": "b", "storageos": {"volumeName": "Vol.1"}}])),
    ("gce and aws disks: no names, partitions out of range",
     pod(volumes=[{"name": "a", "gcePersistentDisk": {"partition": 256}}, {"name": "b", "awsElasticBlockStore": {"partition": -1}}])),
    ("gitRepo: no repository, an absolute directory with '..'", pod(volumes=[{"name": "a", "gitRepo": {"directory": "/a/../b"}}])),
    ("odd: an nfs path and a flex option", pod(volumes=[{"name": "a", "nfs": {"server": "s", "path": ODD}}, {"name": "b", "flexVolume": {"driver": "d", "options": {ODD + ".k8s.io/x": "y"}}}])),
    ("valid: an ephemeral volume's full claim template",
     pod(volumes=[ephemeral({"metadata": {"labels": {"app": "web"}, "annotations": {"note": "x"}},
                             "spec": {**CLAIM_SPEC, "storageClassName": "fast", "volumeAttributesClassName": "gold", "selector": {"matchLabels": {"tier": "db"}},
                                      "dataSource": {"kind": "PersistentVolumeClaim", "name": "src"},
                                      "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "src"}}})])),
    ("an ephemeral claim template without access modes or storage", pod(volumes=[ephemeral({"spec": {}})])),
    # validateFieldAllowList: set is not Go's zero value (an empty list is set), named
    # by the Go field (UID is uID)
    ("an ephemeral claim template's metadata: empty finalizers and owner references",
     pod(volumes=[ephemeral({"metadata": {"finalizers": [], "ownerReferences": []}, "spec": CLAIM_SPEC})])),
    ("an ephemeral claim template's metadata: empty labels, annotations and managed fields",
     pod(volumes=[ephemeral({"metadata": {"labels": {}, "annotations": {}, "managedFields": []}, "spec": CLAIM_SPEC})])),
    ("an ephemeral claim template's metadata: a uid, a version, a generation, a creation time",
     pod(volumes=[ephemeral({"metadata": {"uid": "u", "resourceVersion": "1", "generation": 3, "creationTimestamp": "2020-01-01T00:00:00Z"}, "spec": CLAIM_SPEC})])),
    ("valid: an ephemeral claim template's metadata: each field at its zero value or null",
     pod(volumes=[ephemeral({"metadata": {"name": "", "uid": "", "generation": 0, "creationTimestamp": None, "finalizers": None,
                                          "deletionGracePeriodSeconds": None}, "spec": CLAIM_SPEC})])),
    ("an ephemeral claim template's metadata: a grace period of 0, a name, a namespace, finalizers",
     pod(volumes=[ephemeral({"metadata": {"deletionGracePeriodSeconds": 0, "name": "x", "namespace": "y", "generateName": "g",
                                          "finalizers": ["a/b"]}, "spec": CLAIM_SPEC})])),
    ("an ephemeral claim template: an access mode not known, ReadWriteOncePod with another, storage 0",
     pod(volumes=[ephemeral({"spec": {"accessModes": ["ReadWriteOncePod", "ReadWriteMany", "WriteOnly"], "resources": {"requests": {"storage": "0"}}}})])),
    ("an ephemeral claim template: a negative storage, a class and an attributes class not subdomains, a volume mode not known",
     pod(volumes=[ephemeral({"spec": {**CLAIM_SPEC, "resources": {"requests": {"storage": "-1Gi"}}, "storageClassName": "Fast_1",
                                      "volumeAttributesClassName": "Gold_1", "volumeMode": "Raw"}})])),
    ("odd: an ephemeral claim template's access mode and volume mode",
     pod(volumes=[ephemeral({"spec": {**CLAIM_SPEC, "accessModes": [ODD], "volumeMode": ODD}})])),
    ("an ephemeral claim template's selector: each kind of bad requirement",
     pod(volumes=[ephemeral({"spec": {**CLAIM_SPEC, "selector": BAD_EXPRESSIONS}})])),
    ("an ephemeral claim template's data sources: no name nor kind, a kind of the core group, a group not a subdomain",
     pod(volumes=[ephemeral({"spec": {**CLAIM_SPEC, "dataSource": {"apiGroup": "Snap_Shots"},
                                      "dataSourceRef": {"kind": "VolumeSnapshot", "name": "s"}}})])),
    ("an ephemeral claim template's data source beside a ref with a namespace, not a DNS label",
     pod(volumes=[ephemeral({"spec": {**CLAIM_SPEC, "dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
                                      "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "a", "namespace": "Other_NS"}}})])),
    ("an ephemeral claim template's data source not its ref",
     pod(volumes=[ephemeral({"spec": {**CLAIM_SPEC, "dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
                                      "dataSourceRef": {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot", "name": "a"}}})])),
    ("an ephemeral claim template's metadata: a name, namespace, generateName, finalizers; an annotation and a label not valid",
     pod(volumes=[ephemeral({"metadata": {"name": "n", "namespace": "ns", "generateName": "g", "finalizers": ["f"],
                                          "annotations": {"a b": "x"}, "labels": {"app": "-bad-"}}, "spec": CLAIM_SPEC})])),
    ("an ephemeral claim template's bad storage, then the volume's name", pod(volumes=[{**ephemeral({"spec": {"accessModes": ["ReadWriteOnce"]}}), "name": "E_1"}])),
    ("valid: an init container's resize policy (InPlacePodVerticalScaling is on)",
     pod(initContainers=[container("init", resizePolicy=[{"resourceName": "cpu", "restartPolicy": "NotRequired"}])])),
    ("an ephemeral container in a template", pod(ephemeralContainers=[container("debug")])),
    ("an ephemeral container's ports, resources, probes, lifecycle, a subPath; its target not found, its name a container's, its image padded",
     pod(ephemeralContainers=[container(image=" busybox ", targetContainerName="nope", ports=[{"containerPort": 80}],
                                        resources={"limits": {"cpu": "1"}}, livenessProbe=PROBE, readinessProbe=PROBE, startupProbe=PROBE,
                                        lifecycle={"preStop": PROBE}, volumeMounts=[{**MOUNT, "subPath": "a"}, {"name": "data", "mountPath": "/b", "subPathExpr": "b"}])],
         volumes=[EMPTY])),
    ("an ephemeral container's empty ports, resources of an empty map, an empty lifecycle, empty resources",
     pod(ephemeralContainers=[container("a", ports=[], resources={"limits": {}}, lifecycle={}), container("b", resources={}, resizePolicy=[])])),
    ("an ephemeral container without a name or image, after an init container's bad name",
     pod(initContainers=[container("Init")], ephemeralContainers=[{"targetContainerName": "app"}])),
    ("valid: projected: a cluster trust bundle beside a configMap, a bad pod certificate (both dropped)",
     pod(volumes=[{"name": "p", "projected": {"sources": [{"clusterTrustBundle": {"path": "/abs"}, "configMap": {"name": "cm"}},
                                                          {"podCertificate": {"signerName": "Bad Signer", "keyType": "X"}}]}}])),
]  # fmt: skip

APPARMOR = "container.apparmor.security.beta.kubernetes.io/"
SECCOMP = "container.seccomp.security.alpha.kubernetes.io/"
TOLERATIONS = "scheduler.alpha.kubernetes.io/tolerations"
#: (what, the template's annotations, its pod spec): ValidatePodSpecificAnnotations and
#: the deprecated annotations against their fields; one annotation with a problem of
#: a kind a case (Go's map order)
ANNOTATED: list[tuple[str, dict[str, str], dict[str, Any]]] = [
    ("a mirror pod annotation without a node name", {"kubernetes.io/config.mirror": "x"}, pod()),
    ("valid: a mirror pod annotation with a node name", {"kubernetes.io/config.mirror": "x"}, pod(nodeName="n1")),
    ("a pod deletion cost not an int32", {"controller.kubernetes.io/pod-deletion-cost": "2147483648"}, pod()),
    ("a pod deletion cost with a leading zero", {"controller.kubernetes.io/pod-deletion-cost": "010"}, pod()),
    ("a pod deletion cost with a plus", {"controller.kubernetes.io/pod-deletion-cost": "+1"}, pod()),
    ("valid: a pod deletion cost", {"controller.kubernetes.io/pod-deletion-cost": "-2147483648"}, pod()),
    ("seccomp annotations: the pod's not a profile, a container's absolute",
     {"seccomp.security.alpha.kubernetes.io/pod": "strict", SECCOMP + "app": "localhost//etc/p.json"}, pod()),
    # one case each: the server walks the annotations, a Go map, in a random order
    ("an AppArmor annotation of no container", {APPARMOR + "nope": "runtime/default"}, pod()),
    ("an AppArmor annotation's bad profile", {APPARMOR + "app": "strict"}, pod()),
    ("annotations and fields disagree: seccomp pod and container, AppArmor type and profile",
     {"seccomp.security.alpha.kubernetes.io/pod": "unconfined", SECCOMP + "app": "localhost/a.json",
      APPARMOR + "app": "localhost/b", APPARMOR + "init": "runtime/default"},
     pod(container(securityContext={"seccompProfile": {"type": "Localhost", "localhostProfile": "b.json"},
                                    "appArmorProfile": {"type": "Localhost", "localhostProfile": "c"}}),
         initContainers=[container("init")],
         securityContext={"seccompProfile": {"type": "RuntimeDefault"}, "appArmorProfile": {"type": "Unconfined"}})),
    # the tolerations annotation: json.Unmarshal into []core.Toleration, then ValidateTolerations
    ("tolerations annotation: a JSON syntax error", {TOLERATIONS: '[{"key": "a",}]'}, pod()),
    ("tolerations annotation: JSON ending early", {TOLERATIONS: '[{"key": "a"'}, pod()),
    ("tolerations annotation: an object, not a list", {TOLERATIONS: '{"key": "a"}'}, pod()),
    ("tolerations annotation: an item not an object", {TOLERATIONS: '["a", {"key": 1}]'}, pod()),
    ("tolerations annotation: a number key, then a bool operator", {TOLERATIONS: '[{"key": 1, "operator": true}]'}, pod()),
    ("tolerations annotation: a fraction of seconds", {TOLERATIONS: '[{"operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 1.50}]'}, pod()),
    ("tolerations annotation: seconds past int64", {TOLERATIONS: '[{"operator": "Exists", "tolerationSeconds": 9223372036854775808}]'}, pod()),
    ("tolerations annotation: names in any case, a bad key, seconds without NoExecute",
     {TOLERATIONS: '[{"KEY": "a b", "Operator": "Equal", "tolerationseconds": 5}, {"value": "x"}]'}, pod()),
    ("tolerations annotation: Exists with a value, an unknown effect and operator",
     {TOLERATIONS: '[{"key": "k", "operator": "Exists", "value": "v"}, {"key": "k", "operator": "In", "effect": "Never"}]'}, pod()),
    ("tolerations annotation: a null item, a zero toleration", {TOLERATIONS: '[{"key": "k", "operator": "Exists"}, null]'}, pod()),
    ("valid: tolerations annotation: tolerations, unknown fields, null fields",
     {TOLERATIONS: ' [{"key": "k", "operator": "Exists", "effect": "NoSchedule", "other": [1]}, {"key": null, "operator": "Exists"}] '}, pod()),
    ("valid: tolerations annotation: null", {TOLERATIONS: "null"}, pod()),
    ("valid: annotations that match their fields",
     {"seccomp.security.alpha.kubernetes.io/pod": "docker/default", APPARMOR + "app": "localhost/p"},
     pod(container(securityContext={"appArmorProfile": {"type": "Localhost", "localhostProfile": "p"}}),
         securityContext={"seccompProfile": {"type": "RuntimeDefault"}})),
]  # fmt: skip

#: a container refused with its security context printed, of empty capability lists
EMPTY_CAPABILITIES = container(securityContext={"allowPrivilegeEscalation": False, "privileged": True,
                                                "capabilities": {"add": [], "drop": []}})  # fmt: skip
BAD_POD = pod(
    container(image=None, ports=[{"containerPort": 70000}], volumeMounts=[MOUNT]),
    restartPolicy="OnFailure",
    activeDeadlineSeconds=5,
)
CLAIM = {
    "metadata": {"name": "data"},
    "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
}


def _apps(kind: str, name: str, pod_spec: dict[str, Any], **spec: Any) -> dict[str, Any]:
    return deployment(
        name,
        kind=kind,
        template={"metadata": {"labels": {"app": "web"}}, "spec": pod_spec},
        **spec,
    )


def _job(name: str, pod_spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name},
            "spec": {"template": {"spec": pod_spec}}}  # fmt: skip


def _cronjob(name: str, pod_spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": name},
            "spec": {"schedule": "* * * * *", "jobTemplate": {"spec": {"template": {"spec": pod_spec}}}}}  # fmt: skip


#: (group, kind, plural, [(what, body)]): every other kind with a pod template
OTHER_KINDS: list[tuple[str, str, str, list[tuple[str, dict[str, Any]]]]] = [
    ("apps", "ReplicaSet", "replicasets", [
        ("no image, a bad port, a mount of no volume, OnFailure, a deadline", _apps("ReplicaSet", "r1", BAD_POD)),
        ("a bad selector: the template not checked", _apps("ReplicaSet", "r2", BAD_POD, selector={"matchLabels": {"a b": "c"}})),
    ]),
    ("apps", "DaemonSet", "daemonsets", [
        ("no image, a bad port, a mount of no volume, OnFailure, a deadline", _apps("DaemonSet", "d1", BAD_POD)),
        ("a bad selector: the template checked", _apps("DaemonSet", "d2", BAD_POD, selector={"matchLabels": {"a b": "c"}})),
        ("a host port twice, a dnsPolicy not known, a hostPath without a path",
         _apps("DaemonSet", "d3", pod(container(ports=[{"containerPort": 1, "hostPort": 9100}, {"containerPort": 2, "hostPort": 9100}]),
                                      dnsPolicy="Host", volumes=[{"name": "h", "hostPath": {"path": ""}}]))),
    ]),
    ("apps", "StatefulSet", "statefulsets", [
        ("no image, a bad port, a mount of no volume, OnFailure, a deadline", _apps("StatefulSet", "s1", BAD_POD)),
        ("valid: a mount of a claim template", _apps("StatefulSet", "s2", pod(container(volumeMounts=[MOUNT])), volumeClaimTemplates=[CLAIM])),
        ("valid: a device of a claim template", _apps("StatefulSet", "s5", pod(container(volumeDevices=[DEVICE])), volumeClaimTemplates=[CLAIM])),
        ("empty capability lists printed", _apps("StatefulSet", "s4", pod(container("a"), initContainers=[EMPTY_CAPABILITIES]), volumeClaimTemplates=[CLAIM])),
        ("a mount of a claim template, a bad env name", _apps("StatefulSet", "s3", pod(container(volumeMounts=[MOUNT], env=[{"name": "a=b"}])), volumeClaimTemplates=[CLAIM])),
    ]),
    ("batch", "Job", "jobs", [
        ("no image, a bad port, a mount of no volume, Never, a deadline", _job("j1", {**BAD_POD, "restartPolicy": "Never"})),
        ("an active deadline of -1", _job("j7", pod(activeDeadlineSeconds=-1, restartPolicy="Never"))),
        ("a pull policy not known, restart Always", _job("j2", pod(container(imagePullPolicy="Sometimes")))),
        ("empty capability lists printed", _job("j6", pod(EMPTY_CAPABILITIES, restartPolicy="Never"))),
        ("odd: a restart policy, a duplicate container", _job("j3", pod(container(), container(), restartPolicy=ODD))),
        ("a resize policy restarting a container of a pod that never restarts",
         _job("j5", pod(container(resizePolicy=[{"resourceName": "memory", "restartPolicy": "RestartContainer"}]), restartPolicy="Never"))),
        ("envFrom without a source, a toleration without a key, Never",
         _job("j4", pod(container(envFrom=[{"prefix": "P_"}]), tolerations=[{"operator": "Equal"}], restartPolicy="Never"))),
    ]),
    ("batch", "Job", "jobs", [
        ("a template label key and value not valid (one label: a Go map lists several in a random order)",
         {**_job("m1", pod(restartPolicy="Never")), "spec": {"template": {
             "metadata": {"labels": {"a b": "bad value!"}}, "spec": pod(restartPolicy="Never")}}}),
        ("a template annotation key not valid",
         {**_job("m2", pod(restartPolicy="Never")), "spec": {"template": {
             "metadata": {"annotations": {"a b": "x"}}, "spec": pod(restartPolicy="Never")}}}),
        ("odd: a template annotation key",
         {**_job("m5", pod(restartPolicy="Never")), "spec": {"template": {
             "metadata": {"annotations": {ODD: "y"}}, "spec": pod(restartPolicy="Never")}}}),
        ("template annotations over 256 KiB and no image",
         {**_job("m3", pod(restartPolicy="Never")), "spec": {"template": {
             "metadata": {"annotations": {"big": "x" * 262144}},
             "spec": pod(container(image=None), restartPolicy="Never")}}}),
    ]),
    ("apps", "Deployment", "deployments", [
        ("odd: a selector's operator (a LabelSelectorOperator: json.Marshal'ed)",
         _apps("Deployment", "o1", pod(), selector={"matchExpressions": [{"key": "app", "operator": ODD, "values": ["web"]}]})),
    ]),
    ("apps", "Deployment", "deployments", [
        ("a template label value not valid",
         deployment("m4", template={"metadata": {"labels": {"app": "web", "x": "-bad-"}}, "spec": pod()})),
    ]),
    ("apps", "Deployment", "deployments", [
        (what, deployment(f"a{index}", template={"metadata": {"labels": {"app": "web"}, "annotations": notes}, "spec": spec}))
        for index, (what, notes, spec) in enumerate(ANNOTATED)
    ]),
    ("batch", "CronJob", "cronjobs", [
        ("no image, a bad port, a mount of no volume, OnFailure", _cronjob("c1", {**BAD_POD, "activeDeadlineSeconds": None})),
        ("a volume of two sources, restart Always", _cronjob("c2", pod(volumes=[{"name": "v", "emptyDir": {}, "secret": {"secretName": "s"}}]))),
        ("empty capability lists printed", _cronjob("c3", pod(EMPTY_CAPABILITIES, restartPolicy="OnFailure"))),
    ]),
]  # fmt: skip


#: (the names' prefix, the cases, what they are): the lists created as Deployments
DEPLOYMENT_LISTS = [
    ("p", DEPLOYMENTS, "Deployment pod templates"),
    ("f", FIELDS, "Deployment pod template fields"),
    ("s", SELECTORS, "Deployment pod template selectors"),
    ("x", MORE_FIELDS, "Deployment pod template more fields"),
    ("l", LATER_FIELDS, "Deployment pod template later fields"),
]


@pytest.mark.parametrize(
    ("prefix", "listed", "what"), DEPLOYMENT_LISTS, ids=[each[2] for each in DEPLOYMENT_LISTS]
)
def test_deployment_pod_templates_answer_as_the_server_answers(
    client: KubeClient,
    namespace: str,
    prefix: str,
    listed: list[tuple[str, dict[str, Any]]],
    what: str,
) -> None:
    sides = Sides.of(client, namespace, "apps", "Deployment", "deployments")
    cases = [
        # a pod field set to None is left out; a None deeper down is sent as null
        (
            case,
            _apps(
                "Deployment", f"{prefix}{index}", {k: v for k, v in spec.items() if v is not None}
            ),
        )
        for index, (case, spec) in enumerate(listed)
    ]
    assert_agree(sides.creates(answer, cases), len(cases), what)


def test_other_kinds_pod_templates_answer_as_the_server_answers(
    client: KubeClient, namespace: str
) -> None:
    problems: list[str] = []
    count = 0
    for group, kind, plural, cases in OTHER_KINDS:
        cleaned = [(f"{what} ({kind})", _without_none(body)) for what, body in cases]
        problems += Sides.of(client, namespace, group, kind, plural).creates(answer, cleaned)
        count += len(cases)
    assert_agree(problems, count, "pod templates of the other kinds")


def _without_none(value: Any) -> Any:
    """``value`` without the fields set to None (a case's way to leave one out)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(each) for each in value]
    return value


def _template_edit(change: dict[str, Any]) -> Any:
    """An update that sets ``change``'s fields in the first container and the pod
    spec's ``pod`` fields."""

    def edit(old: dict[str, Any]) -> dict[str, Any]:
        pod_spec = old["spec"]["template"]["spec"]
        pod_spec["containers"][0].update(change.get("container", {}))
        for key in change.get("drop", ()):
            pod_spec["containers"][0].pop(key, None)
        pod_spec.update(change.get("pod", {}))
        return old

    return edit


#: (group, kind, plural, what, the created body, the update's change): an update
#: validates the template as a create does
UPDATES: list[tuple[str, str, str, str, dict[str, Any], dict[str, Any]]] = [
    ("apps", "Deployment", "deployments", "the image removed, a port of 0",
     _apps("Deployment", "u1", pod()), {"drop": ["image"], "container": {"ports": [{"containerPort": 0}]}}),
    ("apps", "Deployment", "deployments", "valid: a new image and a mounted volume",
     _apps("Deployment", "u2", pod()), {"container": {"image": "nginx:2", "volumeMounts": [MOUNT]}, "pod": {"volumes": [EMPTY]}}),
    ("apps", "DaemonSet", "daemonsets", "restart Never, a bad env name",
     _apps("DaemonSet", "u3", pod()), {"container": {"env": [{"name": "a=b"}]}, "pod": {"restartPolicy": "Never"}}),
    ("apps", "StatefulSet", "statefulsets", "a mount of no volume, a pull policy not known",
     _apps("StatefulSet", "u4", pod()), {"container": {"volumeMounts": [MOUNT], "imagePullPolicy": "Later"}}),
    ("apps", "Deployment", "deployments", "a security context's runAsUser -1, a preStop without a handler",
     _apps("Deployment", "u5", pod()), {"container": {"securityContext": {"runAsUser": -1}, "lifecycle": {"preStop": {}}}}),
    ("apps", "Deployment", "deployments", "a security context printed with an empty capability list",
     _apps("Deployment", "u6", pod()), {"container": EMPTY_CAPABILITIES}),
]  # fmt: skip


def test_pod_template_updates_answer_as_the_server_answers(
    client: KubeClient, namespace: str
) -> None:
    problems: list[str] = []
    for group, kind, plural, what, body, change in UPDATES:
        sides = Sides.of(client, namespace, group, kind, plural)
        problems += sides.updates(answer, [(what, body, _template_edit(change))])
    assert_agree(problems, len(UPDATES), "pod template updates")
