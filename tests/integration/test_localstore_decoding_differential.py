"""The store's decoding of a built-in body into its Go type, against the real API server.

kube-apiserver decodes a create's or update's body (POST, PUT, PUT of ``/status``) into
the kind's Go struct (sigs.k8s.io/json, case-sensitive) before anything else looks at
it: a value its Go type cannot hold is a 400 (``<Kind> in version "v1" cannot be handled
as a <Kind>: json: cannot unmarshal ...``); a time is stored in UTC, to the second
(``metav1.Time``) or the microsecond (``MicroTime``); base64 bytes re-encoded; a null map
value its zero value; an unknown field (``Data``) dropped. ``ObjectStore`` decodes with
``validation.decoding`` from the types hack/builtin_types.py reads from k8s.io/api.

Each case is written to both: the same verdict, code, reason and message byte for byte;
for an accepted one, the same stored values at every path the body names (the server
defaults fields the store does not: only the body's own paths are compared), and for
a ConfigMap the whole object (no defaulting), apart from uid, creationTimestamp,
resourceVersion and managedFields. Every case says what the server must answer, so a
case that stops testing anything fails.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import ApiError
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.integration.envtest import ControlPlane
from tests.integration.test_localstore_metadata_differential import outcome

#: kind -> (group, version, plural)
KINDS = {
    "ConfigMap": ("", "v1", "configmaps"),
    "Secret": ("", "v1", "secrets"),
    "Service": ("", "v1", "services"),
    "Pod": ("", "v1", "pods"),
    "Event": ("", "v1", "events"),
    "PersistentVolumeClaim": ("", "v1", "persistentvolumeclaims"),
    "Deployment": ("apps", "v1", "deployments"),
    "StatefulSet": ("apps", "v1", "statefulsets"),
    "Job": ("batch", "v1", "jobs"),
    "CronJob": ("batch", "v1", "cronjobs"),
    "NetworkPolicy": ("networking.k8s.io", "v1", "networkpolicies"),
    "Role": ("rbac.authorization.k8s.io", "v1", "roles"),
    "Lease": ("coordination.k8s.io", "v1", "leases"),
}
MANAGER = "kubectl-crd-dev"
HEAD = '{0} in version "v1" cannot be handled as a {0}: '
TYPE = "json: cannot unmarshal {} into Go struct field {} of type {}"


def cm(**top: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}, **top}


def secret(**top: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Secret", "metadata": {}, **top}


def service(*ports: dict[str, Any], **spec: Any) -> dict[str, Any]:
    spec = {"ports": list(ports) or [{"port": 80}], "selector": {"app": "web"}, **spec}
    return {"apiVersion": "v1", "kind": "Service", "metadata": {}, "spec": spec}


def container(**fields: Any) -> dict[str, Any]:
    return {"name": "c", "image": "nginx:1", **fields}


def deployment(*containers: Any, status: Any = None, **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": list(containers) or [container()]},
            },
            **spec,
        },
    }
    if status is not None:
        body["status"] = status
    return body


def job(status: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {},
        "spec": {
            "template": {
                "spec": {"restartPolicy": "Never", "containers": [container(image="busybox")]}
            }
        },
    }
    if status is not None:
        body["status"] = status
    return body


def event(**top: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {},
        "involvedObject": {"kind": "ConfigMap", "name": "x", "apiVersion": "v1"},
        "reason": "Tested",
        "message": "m",
        "type": "Normal",
        **top,
    }


def lease(**spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "coordination.k8s.io/v1",
        "kind": "Lease",
        "metadata": {},
        "spec": {"holderIdentity": "me", **spec},
    }


def role(*rules: Any) -> dict[str, Any]:
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "Role",
        "metadata": {},
        "rules": list(rules),
    }


def with_meta(body: dict[str, Any], **meta: Any) -> dict[str, Any]:
    body = copy.deepcopy(body)
    body["metadata"].update(meta)
    return body


def refused(kind: str, error: str) -> str:
    return HEAD.format(kind) + error


def typed(what: str, where: str, go: str) -> str:
    return TYPE.format(what, where, go)


def parse(value: str, rest: str, element: str, micro: bool = False) -> str:
    layout = "2006-01-02T15:04:05.000000Z07:00" if micro else "2006-01-02T15:04:05Z07:00"
    return f'parsing time "{value}" as "{layout}": cannot parse "{rest}" as "{element}"'


QUANTITY = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)
BAD_ROLLOUT = {"conditions": [{"type": "Available", "status": "True", "lastUpdateTime": "x"}]}

#: spellings of a quantity, each stored as the server stores it (a container's resources
#: are a ResourceList: rounded up to the milli by core/v1's defaulting too)
QUANTITIES: list[Any] = [
    "0.5", "1.5", "100m", "+1", "0100m", "1000m", "1e3", "1.5e3", "12E2", "1024Mi", "1536Mi",
    "0.5Gi", "0.1Ki", "1Ki", "8Ki", "2048", "1000k", "1.0000000001", "1000000n",
    "1.2345678901e-5", "1e-10", ".5", "5.", "100u", "1500u", "0.0005Ki", 2, 1.5, 1e-3,
]  # fmt: skip

#: (what, verb, body, the server's message): refused with a 400 BadRequest. ``verb``:
#: create (POST), update (PUT over ``before``'s object), status (PUT of /status) or
#: apply (server-side, as the dev loop writes its children)
REFUSED: list[tuple[str, str, dict[str, Any], str]] = [
    # the kinds of mismatch, into the Go types they name
    ("a number where a string is", "create", cm(data={"a": 1}),
     typed("number", "ConfigMap.data", "string")),
    ("a bool where a string is", "create", cm(data={"a": True}),
     typed("bool", "ConfigMap.data", "string")),
    ("an object where a string is", "create", cm(data={"a": {"b": "c"}}),
     typed("object", "ConfigMap.data", "string")),
    ("an array where a string is", "create", cm(data={"a": ["b"]}),
     typed("array", "ConfigMap.data", "string")),
    ("a list where a map is", "create", cm(data=["a"]),
     typed("array", "ConfigMap.data", "map[string]string")),
    ("a string where a map is", "create", cm(data="a=b"),
     typed("string", "ConfigMap.data", "map[string]string")),
    ("a string where a bool is", "create", cm(immutable="yes"),
     typed("string", "ConfigMap.immutable", "bool")),
    ("a number where a bool is", "create", cm(immutable=1),
     typed("number", "ConfigMap.immutable", "bool")),
    ("a string where an int32 is", "create", service({"port": "80"}),
     typed("string", "ServicePort.spec.ports.port", "int32")),
    ("an int32 overflowing", "create", service({"port": 3000000000}),
     typed("number 3000000000", "ServicePort.spec.ports.port", "int32")),
    ("an int32 underflowing", "create", service({"port": -2147483649}),
     typed("number -2147483649", "ServicePort.spec.ports.port", "int32")),
    ("a fraction in an int32", "create", service({"port": 80.5}),
     typed("number 80.5", "ServicePort.spec.ports.port", "int32")),
    ("a whole float in an int32 (its text has a point)", "create", service({"port": 80.0}),
     typed("number 80.0", "ServicePort.spec.ports.port", "int32")),
    ("a big float in an int32", "create", service({"port": 1e21}),
     typed("number 1e+21", "ServicePort.spec.ports.port", "int32")),
    ("a number where a named string type is", "create", service(type=5),
     typed("number", "ServiceSpec.spec.type", "v1.ServiceType")),
    ("a string where a list of structs is", "create", service(ports="80"),
     typed("string", "ServiceSpec.spec.ports", "[]v1.ServicePort")),
    ("a list where a map is (selector)", "create", service(selector=["app"]),
     typed("array", "ServiceSpec.spec.selector", "map[string]string")),
    ("a string where an int32 pointer is", "create", deployment(replicas="2"),
     typed("string", "DeploymentSpec.spec.replicas", "int32")),
    ("a fraction where an int32 pointer is", "create", deployment(replicas=2.5),
     typed("number 2.5", "DeploymentSpec.spec.replicas", "int32")),
    ("a string where a bool is (paused)", "create", deployment(paused="true"),
     typed("string", "DeploymentSpec.spec.paused", "bool")),
    ("an array where a struct is", "create", deployment(template=[]),
     typed("array", "DeploymentSpec.spec.template", "v1.PodTemplateSpec")),
    ("a string where a struct is, in a list", "create", deployment("c"),
     typed("string", "PodSpec.spec.template.spec.containers", "v1.Container")),
    ("a nested container port a string", "create",
     deployment(container(ports=[{"containerPort": "80"}])),
     typed("string", "ContainerPort.spec.template.spec.containers.ports.containerPort", "int32")),
    ("a nested env value a number", "create", deployment(container(env=[{"name": "A", "value": 5}])),
     typed("number", "EnvVar.spec.template.spec.containers.env.value", "string")),
    ("a string where a named map type is", "create",
     deployment(container(resources={"limits": "1"})),
     typed("string", "ResourceRequirements.spec.template.spec.containers.resources.limits",
           "v1.ResourceList")),
    ("a quantity that does not parse", "create",
     deployment(container(resources={"limits": {"cpu": "abc"}})), QUANTITY),
    ("a quantity that is an object", "create",
     deployment(container(resources={"requests": {"memory": {"a": 1}}})), QUANTITY),
    ("a strategy's int-or-string a fraction", "create",
     deployment(strategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1.5}}),
     typed("number 1.5", "RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge", "int32")),
    ("an int-or-string a bool", "create", service({"port": 80, "targetPort": True}),
     typed("bool", "ServicePort.spec.ports.targetPort", "int32")),
    ("an int-or-string an object", "create", service({"port": 80, "targetPort": {"a": 1}}),
     typed("object", "ServicePort.spec.ports.targetPort", "int32")),
    ("an int-or-string beyond int32", "create", service({"port": 80, "targetPort": 2**31}),
     typed("number 2147483648", "ServicePort.spec.ports.targetPort", "int32")),
    ("a network policy's int-or-string pointer a bool", "create",
     {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": {},
      "spec": {"podSelector": {}, "ingress": [{"ports": [{"port": False}]}]}},
     typed("bool", "NetworkPolicyPort.spec.ingress.ports.port", "int32")),
    ("a string where a list of strings is", "create", role({"apiGroups": [""], "verbs": "get"}),
     typed("string", "PolicyRule.rules.verbs", "[]string")),
    ("a number in a list of strings", "create", role({"apiGroups": [""], "verbs": ["get", 1]}),
     typed("number", "PolicyRule.rules.verbs", "string")),
    ("a cron job's schedule a number", "create",
     {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {},
      "spec": {"schedule": 5, "jobTemplate": job()["spec"]}},
     typed("number", "CronJobSpec.spec.schedule", "string")),
    ("a claim's storage request not a quantity", "create",
     {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {},
      "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1 Gi"}}}},
     QUANTITY),
    ("a lease's duration a string", "create", lease(leaseDurationSeconds="15"),
     typed("string", "LeaseSpec.spec.leaseDurationSeconds", "int32")),
    # ObjectMeta
    ("a generation a string", "create", with_meta(cm(), generation="1"),
     typed("string", "ObjectMeta.metadata.generation", "int64")),
    ("an owner reference's controller a string", "create",
     with_meta(cm(), ownerReferences=[{"apiVersion": "v1", "kind": "X", "name": "x",
                                        "uid": "u", "controller": "yes"}]),
     typed("string", "OwnerReference.metadata.ownerReferences.controller", "bool")),
    ("a statefulset claim template's label a number", "create",
     {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {},
      "spec": {"selector": {"matchLabels": {"a": "b"}}, "serviceName": "s",
               "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [container()]}},
               "volumeClaimTemplates": [{"metadata": {"labels": {"x": 1}}}]}},
     typed("number", "ObjectMeta.spec.volumeClaimTemplates.metadata.labels", "string")),
    # bytes: base64
    ("bytes not base64", "create", cm(binaryData={"b": "!!"}),
     "illegal base64 data at input byte 0"),
    ("bytes without their padding", "create", secret(data={"k": "YWJ"}),
     "illegal base64 data at input byte 0"),
    ("bytes with half their padding", "create", secret(data={"k": "YW="}),
     "illegal base64 data at input byte 3"),
    ("bytes with text after the padding", "create", secret(data={"k": "YQ==YQ=="}),
     "illegal base64 data at input byte 4"),
    ("bytes that are a number", "create", secret(data={"k": 5}),
     typed("number", "Secret.data", "[]uint8")),
    ("bytes as an array holding a number beyond a byte", "create", cm(binaryData={"b": [97, 256]}),
     typed("number 256", "ConfigMap.binaryData", "uint8")),
    # metav1.Time outside ObjectMeta (a create decodes the status it then drops)
    ("a condition's time not RFC 3339", "create", deployment(status=BAD_ROLLOUT),
     'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'),
    ("a condition's time a number", "create",
     deployment(status={"conditions": [{"type": "Available", "lastUpdateTime": 5}]}),
     typed("number", "DeploymentCondition.status.conditions.lastUpdateTime", "string")),
    ("a job's start time a date (status)", "status", job({"startTime": "2024-01-02"}),
     parse("2024-01-02", "", "T")),
    ("an event's first timestamp without a zone", "create",
     event(firstTimestamp="2024-01-02T03:04:05"),
     parse("2024-01-02T03:04:05", "", "Z07:00")),
    # metav1.MicroTime: six fraction digits
    ("an event time without its fraction", "create", event(eventTime="2024-01-02T03:04:05Z"),
     parse("2024-01-02T03:04:05Z", "Z", ".000000", micro=True)),
    ("an event time with five fraction digits", "create",
     event(eventTime="2024-01-02T03:04:05.12345Z"),
     parse("2024-01-02T03:04:05.12345Z", ".12345Z", ".000000", micro=True)),
    ("an event time with seven fraction digits", "create",
     event(eventTime="2024-01-02T03:04:05.1234567Z"),
     parse("2024-01-02T03:04:05.1234567Z", "7Z", "Z07:00", micro=True)),
    ("an event time with a negative fraction", "create",
     event(eventTime="2024-01-02T03:04:05.-12345Z"),
     'parsing time "2024-01-02T03:04:05.-12345Z": fractional second out of range'),
    ("an event time a number", "create", event(eventTime=5),
     typed("number", "Event.eventTime", "string")),
    ("an event series' time in seconds", "create",
     event(series={"count": 2, "lastObservedTime": "2024-01-02T03:04:05Z"}),
     parse("2024-01-02T03:04:05Z", "Z", ".000000", micro=True)),
    ("a lease's renew time in seconds", "create", lease(renewTime="2024-01-02T03:04:05+01:00"),
     parse("2024-01-02T03:04:05+01:00", "+01:00", ".000000", micro=True)),
    # which of several: the first mismatch in the body's order, unless an UnmarshalJSON
    # error comes, which ends the decoding wherever it is
    ("two mismatches: the first in the body", "create", cm(immutable="yes", data={"a": 1}),
     typed("string", "ConfigMap.immutable", "bool")),
    ("two mismatches the other way round", "create", cm(data={"a": 1}, immutable="yes"),
     typed("number", "ConfigMap.data", "string")),
    ("a mismatch before bad bytes", "create", cm(data={"a": 1}, binaryData={"b": "!!"}),
     typed("number", "ConfigMap.data", "string")),
    ("bad bytes before a mismatch", "create", cm(binaryData={"b": "!!"}, data={"a": 1}),
     "illegal base64 data at input byte 0"),
    ("a mismatch, then an int-or-string error", "create",
     service({"port": 80, "protocol": 5, "targetPort": 1.5}),
     typed("number 1.5", "ServicePort.spec.ports.targetPort", "int32")),
    ("an int-or-string error, then a mismatch", "create",
     service({"port": 80, "targetPort": 1.5, "protocol": 5}),
     typed("number 1.5", "ServicePort.spec.ports.targetPort", "int32")),
    ("a mismatch in spec, then a time error in status", "create",
     deployment(status=BAD_ROLLOUT, replicas="x"),
     'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'),
    ("a quantity error, then a time error", "create",
     {**deployment(container(resources={"limits": {"cpu": "abc"}})), "status": BAD_ROLLOUT},
     QUANTITY),
    # updates decode their body the same way
    ("an update with a number in data", "update", cm(data={"a": 1}),
     typed("number", "ConfigMap.data", "string")),
    ("an update with a port a string", "update", service({"port": "80"}),
     typed("string", "ServicePort.spec.ports.port", "int32")),
    ("an update with replicas a fraction", "update", deployment(replicas=1.5),
     typed("number 1.5", "DeploymentSpec.spec.replicas", "int32")),
    ("a status update with observedGeneration a string", "status",
     deployment(status={"observedGeneration": "1"}),
     typed("string", "DeploymentStatus.status.observedGeneration", "int64")),
    ("a status update with a condition's time not a time", "status",
     deployment(status=BAD_ROLLOUT),
     'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'),
    ("a status update decodes the spec too", "status", deployment(replicas="2", status={}),
     typed("string", "DeploymentSpec.spec.replicas", "int32")),
]  # fmt: skip

#: (what, verb, body): accepted by both, stored alike
ACCEPTED: list[tuple[str, str, dict[str, Any]]] = [
    ("a null map value (stored as its zero value)", "create", cm(data={"a": None, "b": "x"})),
    ("an empty string value", "create", cm(data={"a": ""})),
    ("an unknown field (dropped)", "create", cm(bogus={"x": 1}, data={"a": "b"})),
    ("a field spelt in another case (unknown, dropped)", "create", cm(Data={"a": 1}, data={"z": "y"})),
    ("an empty map (omitempty)", "create", cm(data={}, binaryData={"b": "YWJj"})),
    ("a false pointer bool (kept)", "create", cm(immutable=False)),
    ("a null field", "create", cm(data=None, immutable=None, binaryData={"b": "YQ=="})),
    ("bytes with a newline (re-encoded)", "create", cm(binaryData={"b": "YWJj\n", "c": "YW\r\nJj"})),
    ("bytes with bits after the last byte", "create", secret(data={"k": "YR==", "l": ""})),
    ("empty metadata maps dropped", "create", with_meta(cm(data={"a": "b"}), labels={}, annotations=None)),
    ("a metadata field not in ObjectMeta", "create", with_meta(cm(), colour="blue")),
    ("a template's creationTimestamp null", "create",
     with_meta(deployment(template={"metadata": {"labels": {"app": "web"}, "creationTimestamp": None},
                                    "spec": {"containers": [container()]}}))),
    ("an event's times in UTC, Time to the second, MicroTime to the microsecond", "create",
     event(firstTimestamp="2024-01-02T03:04:05.999+01:00",
           lastTimestamp="2024-01-02T3:04:05,5-02:30",
           eventTime="2024-06-30T23:59:59.123456-01:00",
           action="Test", reportingComponent="c", reportingInstance="i")),
    ("an event's epoch (kept) and zero (null) times", "create",
     event(firstTimestamp="1970-01-01T00:00:00Z", lastTimestamp="0001-01-01T00:00:00Z")),
    ("an event time across midnight and a year", "create",
     event(eventTime="2023-12-31T23:30:00.000001-01:00", action="Test",
           reportingComponent="c", reportingInstance="i")),
    ("a lease's micro times", "create",
     lease(renewTime="2024-01-02T03:04:05,000001+05:45", acquireTime="1970-01-01T00:00:00.000000Z",
           leaseDurationSeconds=15)),
    ("a deployment's condition times (status)", "status",
     deployment(status={"conditions": [
         {"type": "Available", "status": "True", "lastUpdateTime": "2024-02-29T23:00:00-01:00",
          "lastTransitionTime": "2024-01-02T03:04:05.5Z", "reason": "r", "message": "m"}]})),
    ("a job's start time (status)", "status",
     job({"startTime": "2024-01-02T03:04:05+14:00", "active": 1,
          "conditions": [{"type": "Suspended", "status": "False",
                          "lastProbeTime": "2024-01-02T03:04:05Z",
                          "lastTransitionTime": "2024-01-02T03:04:05.999999999Z"}]})),
    ("bytes as an array of numbers", "create", cm(binaryData={"b": [97, 98, None]})),
    ("omitempty drops an empty string and a zero int", "create",
     service({"port": 80, "name": "", "nodePort": 0})),
    ("a zero replicas (a pointer) kept", "create", deployment(replicas=0, paused=False)),
    ("an update with a null map value", "update", cm(data={"a": None})),
    ("an update dropping an unknown field", "update", cm(extra=1, data={"a": "b"})),
    # quantities: kept as written when canonical, else written canonically
    *(
        (f"a cpu limit of {spelling!r}", "create",
         deployment(container(resources={"limits": {"cpu": spelling}})))
        for spelling in QUANTITIES
    ),
    ("a quantity outside a ResourceList (not rounded to the milli)", "create",
     {"apiVersion": "v1", "kind": "Pod", "metadata": {},
      "spec": {"containers": [container(resources={"requests": {"cpu": "1500u"}})],
               "volumes": [{"name": "v", "emptyDir": {"sizeLimit": "1500u"}}]}}),
    ("an applied quantity", "apply",
     deployment(container(resources={"limits": {"cpu": "0.5", "memory": "1024Mi"}}))),
    # a server-side apply's merged object is converted, not decoded; stored alike
    ("an applied null map value", "apply", cm(data={"a": None, "b": "x"})),
    ("applied bytes with a newline", "apply", cm(binaryData={"b": "YWJj\n"})),
    ("an applied lease's micro times", "apply",
     lease(renewTime="2024-01-02T03:04:05.123456+01:00", acquireTime="0001-01-01T00:00:00.000000Z")),
    ("an applied event's times", "apply",
     event(firstTimestamp="2024-01-02T03:04:05.5+01:00", eventTime="2024-01-02T03:04:05.000001Z",
           action="Test", reportingComponent="c", reportingInstance="i")),
    ("an applied template's null creationTimestamp", "apply",
     deployment(template={"metadata": {"labels": {"app": "web"}, "creationTimestamp": None},
                          "spec": {"containers": [container()]}})),
]  # fmt: skip

#: the object written first, for an update or a status update of each kind
BEFORE = {
    "ConfigMap": cm(data={"a": "0"}),
    "Service": service(),
    "Deployment": deployment(),
    "Job": job(),
}

SERVER_SET = ("uid", "resourceVersion", "creationTimestamp", "managedFields", "generation")


class Sides:
    """The same write to kube-apiserver and to a store, in one namespace."""

    def __init__(self, client: KubeClient, namespace: str) -> None:
        self.namespace = namespace
        self.store = ObjectStore()
        self.server = {
            kind: ResourceClient(
                client, group, version, plural, namespaced=True, namespace=namespace
            )
            for kind, (group, version, plural) in KINDS.items()
        }

    def calls(self, verb: str, body: dict[str, Any]) -> tuple[Callable[[], Any], ...]:
        kind = body["kind"]
        group, version, _ = KINDS[kind]
        info = self.store.resolve(f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
        server = self.server[kind]
        if verb == "create":
            return (partial(server.create, body), partial(self.store.create, info, body))
        if verb == "apply":
            return (
                partial(server.apply, body, field_manager=MANAGER, force=True),
                partial(self.store.apply, info, body, field_manager=MANAGER, force=True),
            )
        before = with_meta(BEFORE[kind], name=body["metadata"]["name"], namespace=self.namespace)
        server.create(before)
        self.store.create(info, before)
        if verb == "update":
            return (partial(server.update, body), partial(self.store.update, info, body))
        return (partial(server.update_status, body), partial(self.store.update_status, info, body))


def answer(call: Callable[[], Any]) -> tuple[tuple[Any, ...], Any]:
    """The outcome of a write, and the object it answered with when it was accepted."""
    written: list[Any] = []
    found = outcome(lambda: written.append(call()))
    return found, written[0] if written else None


def stored(obj: dict[str, Any]) -> dict[str, Any]:
    """An object without what only the server sets (their values differ)."""
    obj = copy.deepcopy(obj)
    for key in SERVER_SET:
        obj["metadata"].pop(key, None)
    return obj


MISSING = "<missing>"


def at_paths(obj: Any, body: Any) -> Any:
    """``obj``'s values at each path ``body`` names (a map's keys, a list's items)."""
    if isinstance(body, dict) and body:
        if not isinstance(obj, dict):
            return obj
        return {
            key: at_paths(obj[key], value) if key in obj else MISSING for key, value in body.items()
        }
    if isinstance(body, list) and body and isinstance(obj, list):
        return [at_paths(o, b) for o, b in zip(obj, body, strict=False)] + [len(obj)]
    return obj


def test_bodies_are_decoded_as_the_server_decodes_them(client: KubeClient, namespace: str) -> None:
    sides = Sides(client, namespace)
    problems = []
    for index, (what, verb, body, message) in enumerate(REFUSED):
        body = with_meta(body, name=f"r{index}", namespace=namespace)
        expected = (400, "BadRequest", refused(body["kind"], message))
        server, ours = (outcome(call) for call in sides.calls(verb, body))
        if server != expected:
            problems.append(f"{what}: the server answered {server}, not {expected}")
        if ours != server:
            problems.append(f"{what}:\n  server {server}\n  store  {ours}")
    assert problems == [], "\n".join(problems)


def test_accepted_bodies_are_stored_as_the_server_stores_them(
    client: KubeClient, namespace: str
) -> None:
    sides = Sides(client, namespace)
    problems = []
    for index, (what, verb, body) in enumerate(ACCEPTED):
        body = with_meta(body, name=f"a{index}", namespace=namespace)
        if body["kind"] == "Event":
            body["involvedObject"]["namespace"] = namespace  # the server requires it
        (server, theirs), (ours, mine) = (answer(call) for call in sides.calls(verb, body))
        if server != ("accepted",) or ours != server:
            problems.append(f"{what}:\n  server {server}\n  store  {ours}")
            continue
        theirs, mine = stored(theirs), stored(mine)
        if body["kind"] == "ConfigMap":
            if mine != theirs:
                problems.append(f"{what}: stored\n  server {theirs}\n  store  {mine}")
        elif at_paths(mine, body) != at_paths(theirs, body):
            problems.append(
                f"{what}: stored\n  server {at_paths(theirs, body)}\n  store  {at_paths(mine, body)}"
            )
    assert problems == [], "\n".join(problems)


#: (what, kind, the object's body, a merge patch whose result does not decode)
UNDECODABLE_PATCHES = [
    ("a number in a ConfigMap's data", "ConfigMap", cm(data={"a": "b"}), {"data": {"a": 1}}),
    ("a string replicas", "Deployment", deployment(), {"spec": {"replicas": "2"}}),
    ("a Lease's bad time", "Lease", lease(), {"spec": {"renewTime": "yesterday"}}),
    (
        "a Service's port as a string",
        "Service",
        service(),
        {"spec": {"ports": [{"port": "80"}]}},
    ),
    # the patched object decoded as the kind it names (body_kind_problem)
    ("a patch to a Secret, bad base64", "ConfigMap", cm(data={"a": "b"}), {"kind": "Secret"}),
    ("a patch to a Secret", "ConfigMap", cm(data={"a": "YQ=="}), {"kind": "Secret"}),
    ("a patch to an unknown kind", "ConfigMap", cm(data={"a": "b"}), {"kind": "Gadget"}),
    ("a patch to an unknown version", "ConfigMap", cm(data={"a": "b"}), {"apiVersion": "v2"}),
    (
        "a patch to another group's kind",
        "ConfigMap",
        cm(data={"a": "b"}),
        {"apiVersion": "apps/v1", "kind": "Deployment"},
    ),
]
PATCH_HEAD = re.compile(r' "" is invalid: patch: Invalid value: ("(?:[^"\\]|\\.)*"): (.*)', re.S)


def test_a_patch_whose_result_does_not_decode_is_the_patch_handlers_422(
    client: KubeClient, namespace: str
) -> None:
    """The patch handler words a decoding error of the patched object as a 422 Invalid of
    the field ``patch``, the patched object's JSON as its value: the same code, reason,
    cause, decoding error and patched object (apart from what differs by instance; the
    store's JSON has its keys sorted, the server's keeps its structs' field order where
    the patch did not reach)."""
    sides = Sides(client, namespace)
    problems = []
    for index, (what, kind, body, patch) in enumerate(UNDECODABLE_PATCHES):
        name = f"p{index}"
        body = with_meta(body, name=name, namespace=namespace)
        group, version, _ = KINDS[kind]
        info = sides.store.resolve(f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
        sides.server[kind].create(body)
        sides.store.create(info, body)
        answers = []
        for call in (
            partial(sides.server[kind].patch, name, patch),
            partial(sides.store.patch, info, namespace, name, patch),
        ):
            try:
                call()
            except ApiError as exc:
                answers.append(exc.status_object or {})
            else:
                answers.append({})
        shapes = []
        for status in answers:
            found = PATCH_HEAD.fullmatch(str(status.get("message")))
            causes = (status.get("details") or {}).get("causes") or [{}]
            patched = json.loads(json.loads(found.group(1))) if found else None
            if isinstance(patched, dict):
                for key in SERVER_SET:
                    patched.get("metadata", {}).pop(key, None)
                for key in ("clusterIP", "clusterIPs"):  # allocated: the server's at random
                    patched.get("spec", {}).pop(key, None)
            shapes.append(
                (status.get("code"), status.get("reason"), causes[0].get("field"),
                 found.group(2) if found else status.get("message"), patched)
            )  # fmt: skip
        if shapes[0][0] != 422:
            problems.append(f"{what}: the server answered {answers[0]} (the case is wrong)")
        elif shapes[1] != shapes[0]:
            problems.append(f"{what}:\n  server {shapes[0]}\n  store  {shapes[1]}")
    assert problems == [], "\n".join(problems)


#: (what, verb, body): written with no fieldValidation, as the dev loop writes; the
#: server's Warn answers each field the Go type has not with a warning
UNKNOWN_FIELDS: list[tuple[str, str, dict[str, Any]]] = [
    ("fields at the top and in metadata, one differing only in case",
     "create", with_meta(cm(dta={"a": "1"}, zzz=1, Data={"b": "2"}), bogus=1)),
    ("fields in a spec, a template, containers and their ports",
     "create", {**deployment(container(bogus=2, ports=[{"containerPort": 80, "y": 1}]),
                           container(name="e", q=1), foo=1)}),
    ("a field beside a ResourceList", "create", deployment(container(resources={"lim": {}}))),
    ("a field in an update", "update", cm(extra={"a": 1})),
    ("a field in a status update", "status", deployment(status={"bogus": 1})),
    ("a body that does not decode: no warning", "create", cm(dta=1, data={"a": 1})),
    ("an apply: refused by its typed check, no warning", "apply", cm(extra=1)),
]  # fmt: skip


def test_unknown_fields_are_warned_of_as_the_server_warns(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    """The server's warnings (``KubeClient(on_warning=)``) and the store's
    (``ObjectStore(on_warning=)``) for the same writes: the same texts, in order."""
    heard: tuple[list[str], list[str]] = ([], [])
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}, on_warning=heard[0].append) as made:
        sides = Sides(made, namespace)
        sides.store = ObjectStore(on_warning=heard[1].append)
        problems = []
        for index, (what, verb, body) in enumerate(UNKNOWN_FIELDS):
            body = with_meta(body, name=f"w{index}", namespace=namespace)
            calls = sides.calls(verb, body)
            for side, call in enumerate(calls):
                heard[side].clear()
                outcome(call)
            if heard[0] != heard[1]:
                problems.append(f"{what}:\n  server {heard[0]}\n  store  {heard[1]}")
            if (heard[0] == []) != ("no warning" in what):
                problems.append(f"{what}: the server warned {heard[0]} (the case is wrong)")
    assert problems == [], "\n".join(problems)
