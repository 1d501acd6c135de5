"""Built-in kinds' defaulting, as kube-apiserver 1.34 defaults a decoded body before it
stores it (create, update, the merged object of a server-side apply), and the few fields
their registries set on a create (a Service's cluster IP, a Job's selector).

The server runs the scheme's defaulting functions right after decoding a body into the
kind's Go type (apimachinery ``runtime/serializer/versioning``: ``Default`` after
``Decode``). ``defaulter-gen`` writes one ``SetObjectDefaults_<Kind>`` per kind
(``pkg/apis/*/v1/zz_generated.defaults.go``) that calls ``SetDefaults_<Type>`` for the
object, then for every nested value of a type that has one, outer before inner, fields in
order. The walk here is the same, made from data: ``_BY_TYPE`` maps a Go type (the names
of ``builtin_types.json``'s ``"go"`` part) to what its ``SetDefaults_<Type>`` (or a
declarative ``+default``) does, and each kind's plan (``_plan``) descends only into the
fields whose types lead to one, so a ConfigMap costs a dict lookup and a Deployment a
walk of its pod template. The functions mirror, field for field:

- ``pkg/apis/core/v1/defaults.go`` (and the declarative defaults its
  ``zz_generated.defaults.go`` inlines: a port's protocol, a GRPC probe's service, RBD
  and iSCSI volume fields): Container, PodSpec, Pod, Probe, HTTPGetAction, Volume and
  its sources' ``defaultMode``, the azureDisk and scaleIO sources, ObjectFieldSelector,
  Secret, Service, PersistentVolumeClaim, Namespace;
- ``pkg/apis/apps/v1/defaults.go``: Deployment, DaemonSet, StatefulSet, ReplicaSet;
- ``pkg/apis/batch/v1/defaults.go``: Job, CronJob;
- ``pkg/apis/networking/v1/defaults.go``: NetworkPolicy and its ports;
- ``pkg/apis/rbac/v1/defaults.go``: RoleBinding, ClusterRoleBinding, Subject.

The values a body may leave out are read as Go reads them: a missing field, null, and
the field's zero value (``""``, 0, false) are all "unset" to a ``SetDefaults`` that
tests ``== ""``; a pointer (``*int32``) is unset only when missing or null.

Registry pieces (``pkg/registry/*/strategy.go``, ``.../service/ipallocator``):
``ServiceAllocator`` gives a Service its cluster IP, IP families and node ports as the
test control plane's ``--service-cluster-ip-range=10.0.0.0/24`` would, deterministically
(the lowest free address, the lowest free node port: the server picks at random, so
callers compare the shape, not the address); ``prepare_job_for_create`` writes the
selector and labels the Job strategy generates from the object's uid.

Pure: stdlib and the model layer; the Go types are read through
``validation.decoding`` on first use.
"""

from __future__ import annotations

import base64
import ipaddress
import re
import threading
from collections.abc import Callable, Mapping
from typing import Any

from kubectl_crd.validation.fielderrors import Cause
from kubectl_crd.validation.services import (
    NODE_PORTS,
    allocation_cause,
    cluster_ip_problems,
    health_check_refusal,
    parse_ip,
)

__all__ = [
    "ServiceAllocator",
    "default_builtin",
    "image_pull_policy",
    "pod_qos_class",
    "prepare_claim_for_create",
    "prepare_daemon_set",
    "prepare_job_for_create",
    "prepare_namespace_for_create",
    "prepare_pod_for_create",
]

_Defaulter = Callable[[dict[str, Any]], None]


def _unset(value: Any) -> bool:
    """Go's ``== ""`` / ``== 0`` on a decoded value: missing, null or zero."""
    return value is None or value == "" or (value == 0 and value is not False)


# -- core/v1 ---------------------------------------------------------------------------

#: distribution/reference's grammar (``reference/regexp.go``), which
#: ``pkg/util/parsers.ParseImageName`` parses with (``ParseNormalizedNamed``)
_COMPONENT = r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
_DOMAIN_PART = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_DOMAIN = rf"(?:{_DOMAIN_PART}(?:\.{_DOMAIN_PART})*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?"
_REFERENCE = re.compile(
    rf"(?P<name>(?:{_DOMAIN}/)?{_COMPONENT}(?:/{_COMPONENT})*)"
    r"(?::(?P<tag>[\w][\w.-]{0,127}))?"
    r"(?:@(?P<digest>[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?"
)
#: go-digest's algorithms (``algorithm.go``: ``anchoredEncodedRegexps``): the digest of
#: one is valid only as that many lowercase hex digits; any other does not parse
_DIGEST_HEX = {"sha256": 64, "sha384": 96, "sha512": 128}
_IDENTIFIER = re.compile(r"[a-f0-9]{64}")
#: reference.NameTotalLengthMax, checked on the normalized name's path (the
#: ``library/`` of docker.io's official images included, the domain not)
_NAME_MAX = 255


def _parses(found: re.Match[str]) -> bool:
    """What ``ParseNormalizedNamed`` refuses of an image the grammar matches: a digest
    go-digest does not validate, a path over 255 characters once normalized
    (``normalize.go``'s ``splitDockerDomain``)."""
    digest = found.group("digest")
    if digest is not None:
        algorithm, _, encoded = digest.partition(":")
        size = _DIGEST_HEX.get(algorithm)
        if size is None or len(encoded) != size or encoded != encoded.lower():
            return False
    name = found.group("name")
    first, slash, rest = name.partition("/")
    if not slash or (
        not any(c in first for c in ".:") and first != "localhost" and first == first.lower()
    ):
        domain, remainder = "docker.io", name
    else:
        domain, remainder = first, rest
    if domain in ("docker.io", "index.docker.io") and "/" not in remainder:
        remainder = "library/" + remainder
    return len(remainder) <= _NAME_MAX


def image_pull_policy(image: Any) -> str:
    """``SetDefaults_Container``'s pull policy: ``Always`` when the image's tag is
    ``latest`` (``ParseImageName`` makes a reference with neither tag nor digest
    ``:latest``), else ``IfNotPresent`` (a digest alone, an image that does not parse:
    ``ParseImageName``'s error leaves the tag empty)."""
    if not isinstance(image, str) or _IDENTIFIER.fullmatch(image):
        return "IfNotPresent"  # a 64-hex name is an image ID, refused as a name
    found = _REFERENCE.fullmatch(image)
    if found is None or not _parses(found):
        return "IfNotPresent"
    tag = found.group("tag")
    if tag is None and found.group("digest") is None:
        tag = "latest"
    return "Always" if tag == "latest" else "IfNotPresent"


def _container(obj: dict[str, Any]) -> None:
    if _unset(obj.get("imagePullPolicy")):
        obj["imagePullPolicy"] = image_pull_policy(obj.get("image"))
    if _unset(obj.get("terminationMessagePath")):
        obj["terminationMessagePath"] = "/dev/termination-log"
    if _unset(obj.get("terminationMessagePolicy")):
        obj["terminationMessagePolicy"] = "File"


def _pod_spec(obj: dict[str, Any]) -> None:
    # not defaulting: the v1 <-> internal conversion every write goes through
    # (pkg/apis/core/v1/conversion.go Convert_v1_PodSpec_To_core_PodSpec and back):
    # the deprecated serviceAccount stands in for an empty serviceAccountName, and is
    # then written as whatever the name is
    account = obj.get("serviceAccountName") or obj.get("serviceAccount")
    if account:
        obj["serviceAccountName"] = obj["serviceAccount"] = account
    if _unset(obj.get("dnsPolicy")):
        obj["dnsPolicy"] = "ClusterFirst"
    if _unset(obj.get("restartPolicy")):
        obj["restartPolicy"] = "Always"
    if obj.get("securityContext") is None:
        obj["securityContext"] = {}
    if obj.get("terminationGracePeriodSeconds") is None:
        obj["terminationGracePeriodSeconds"] = 30
    if _unset(obj.get("schedulerName")):
        obj["schedulerName"] = "default-scheduler"


def _pod(obj: dict[str, Any], sent: Mapping[str, Any] | None = None) -> None:
    """``SetDefaults_Pod`` (a Pod only, not a template): requests default to limits,
    ``enableServiceLinks`` true, with host networking a port's hostPort its
    containerPort."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return
    for group in ("containers", "initContainers"):
        for container in spec.get(group) or ():
            resources = container.get("resources") if isinstance(container, dict) else None
            if not isinstance(resources, dict):
                continue
            limits = resources.get("limits")
            if isinstance(limits, dict):
                requests = resources.get("requests")
                if not isinstance(requests, dict):
                    requests = resources["requests"] = {}
                for key, value in limits.items():
                    requests.setdefault(key, value)
    _default_pod_requests(spec, _spelt_spec(sent))
    if spec.get("enableServiceLinks") is None:
        spec["enableServiceLinks"] = True
    if spec.get("hostNetwork") is True:
        for group in ("containers", "initContainers"):
            for container in spec.get(group) or ():
                for port in (container.get("ports") or ()) if isinstance(container, dict) else ():
                    if isinstance(port, dict) and _unset(port.get("hostPort")):
                        port["hostPort"] = port.get("containerPort")


def _pod_level(name: Any) -> bool:
    """component-helpers ``IsSupportedPodLevelResource``: cpu, memory, hugepages."""
    return name in _QOS_RESOURCES or (isinstance(name, str) and name.startswith("hugepages-"))


def _spelt_spec(sent: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The pod spec as ``sent``, each container's requests defaulted from its limits as
    ``_pod`` defaults the decoded one's: the spellings of the requests it sums."""
    spec = sent.get("spec") if sent is not None else None
    if not isinstance(spec, Mapping):
        return None
    spelt = dict(spec)
    for group in ("containers", "initContainers"):
        containers = spec.get(group)
        if not isinstance(containers, list):
            continue
        spelt[group] = []
        for container in containers:
            resources = container.get("resources") if isinstance(container, Mapping) else None
            if isinstance(resources, Mapping) and isinstance(resources.get("limits"), Mapping):
                requests = resources.get("requests")
                requests = requests if isinstance(requests, Mapping) else {}
                container = {**container, "resources": {**resources, "requests": {
                    **resources["limits"], **requests}}}  # fmt: skip
            spelt[group].append(container)
    return spelt


def _default_pod_requests(spec: dict[str, Any], sent: dict[str, Any] | None) -> None:
    """``defaultPodRequests`` (``pkg/apis/core/v1/defaults.go``, PodLevelResources, on
    in 1.34): a Pod whose ``spec.resources`` sets limits gets, for each resource it
    supports at the pod level and does not request, the containers' aggregated
    requests (``AggregateContainerRequests``), else the pod's limit. ``sent``: the spec
    as the request spelt it (``_spelt_spec``; None: the decoded one's spellings)."""
    from kubectl_crd.validation.pods import aggregate_container_resources

    resources = spec.get("resources")
    if not isinstance(resources, dict) or not isinstance(resources.get("limits"), dict):
        return
    limits = resources["limits"]
    if not limits:
        return
    requests = resources.get("requests")
    requests = dict(requests) if isinstance(requests, dict) else {}
    # Quantity.Add keeps the first addend's format: the sent spelling's (1.5Ki, stored
    # 1536, is binary: 1.5Ki + 512 is 2Ki)
    sums = aggregate_container_resources(spec, sent if sent is not None else spec, "requests")
    for name, (_, _, text) in sums.items():
        if name not in requests and _pod_level(name):
            requests[name] = text
    for name, value in limits.items():
        if name not in requests and _pod_level(name):
            requests[name] = value
    if requests:
        resources["requests"] = requests


def _volume(obj: dict[str, Any]) -> None:
    # ptr.AllPtrFieldsNil(&obj.VolumeSource): no source at all is an emptyDir (a decoded
    # Volume has its name and the pointers of its inlined VolumeSource, nothing else)
    if all(value is None for key, value in obj.items() if key != "name"):
        obj["emptyDir"] = {}
    image = obj.get("image")
    if isinstance(image, dict) and _unset(image.get("pullPolicy")):
        image["pullPolicy"] = image_pull_policy(image.get("reference"))


def _fields(**values: Any) -> _Defaulter:
    """A ``SetDefaults`` (or declarative ``+default``) that sets value fields Go reads as
    unset when empty (``if obj.Path == ""``)."""

    def default(obj: dict[str, Any]) -> None:
        for key, value in values.items():
            if _unset(obj.get(key)):
                obj[key] = value

    return default


def _pointers(**values: Any) -> _Defaulter:
    """One that sets pointer fields, unset only when nil (a ``*int64`` 0 is set)."""

    def default(obj: dict[str, Any]) -> None:
        for key, value in values.items():
            if obj.get(key) is None:
                obj[key] = value

    return default


def _secret(obj: dict[str, Any]) -> None:
    if _unset(obj.get("type")):
        obj["type"] = "Opaque"
    # and its conversion to the internal type (core/v1 conversion.go
    # Convert_v1_Secret_To_core_Secret): stringData is written over data, then dropped
    strings = obj.pop("stringData", None)
    if isinstance(strings, dict) and strings:
        data = obj.get("data")
        if not isinstance(data, dict):
            data = obj["data"] = {}
        for key, value in strings.items():
            text = value if isinstance(value, str) else ""
            data[key] = base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")


_EXTERNAL_TYPES = ("NodePort", "LoadBalancer")


def _service(obj: dict[str, Any]) -> None:
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return
    if _unset(spec.get("sessionAffinity")):
        spec["sessionAffinity"] = "None"
    affinity = spec["sessionAffinity"]
    if affinity == "None":
        spec.pop("sessionAffinityConfig", None)
    elif affinity == "ClientIP":
        config = spec.get("sessionAffinityConfig")
        client = config.get("clientIP") if isinstance(config, dict) else None
        if not isinstance(client, dict) or client.get("timeoutSeconds") is None:
            spec["sessionAffinityConfig"] = {"clientIP": {"timeoutSeconds": 10800}}
    if _unset(spec.get("type")):
        spec["type"] = "ClusterIP"
    kind = spec["type"]
    for port in spec.get("ports") or ():
        if not isinstance(port, dict):
            continue
        if _unset(port.get("protocol")):
            port["protocol"] = "TCP"
        # intstr.FromInt32(0) or FromString(""): the port itself
        if _unset(port.get("targetPort")):
            port["targetPort"] = port.get("port") or 0
    # service.ExternallyAccessible: a NodePort, a LoadBalancer, or a ClusterIP with
    # external IPs
    external = kind in _EXTERNAL_TYPES or (kind == "ClusterIP" and bool(spec.get("externalIPs")))
    if external and _unset(spec.get("externalTrafficPolicy")):
        spec["externalTrafficPolicy"] = "Cluster"
    if spec.get("internalTrafficPolicy") is None and kind in ("ClusterIP", *_EXTERNAL_TYPES):
        spec["internalTrafficPolicy"] = "Cluster"
    if kind == "LoadBalancer":
        if spec.get("allocateLoadBalancerNodePorts") is None:
            spec["allocateLoadBalancerNodePorts"] = True
        status = obj.get("status")
        balancer = status.get("loadBalancer") if isinstance(status, dict) else None
        for ingress in (balancer.get("ingress") or ()) if isinstance(balancer, dict) else ():
            if isinstance(ingress, dict) and ingress.get("ip") and ingress.get("ipMode") is None:
                ingress["ipMode"] = "VIP"


def _claim(obj: dict[str, Any]) -> None:
    status = obj.get("status")
    if not isinstance(status, dict):
        status = obj["status"] = {}
    if _unset(status.get("phase")):
        status["phase"] = "Pending"


def _namespace(obj: dict[str, Any]) -> None:
    meta = obj.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    if name:
        assert isinstance(meta, dict)
        labels = meta.get("labels")
        if not isinstance(labels, dict):
            labels = meta["labels"] = {}
        labels["kubernetes.io/metadata.name"] = name


# -- apps/v1, batch/v1 -------------------------------------------------------------------


def _dict_at(obj: dict[str, Any], *path: str) -> dict[str, Any]:
    """The mapping at ``path`` under ``obj``, made where missing (Go's zero struct or a
    nil map a default writes into)."""
    for key in path:
        inner = obj.get(key)
        if not isinstance(inner, dict):
            inner = obj[key] = {}
        obj = inner
    return obj


def _spec(obj: dict[str, Any]) -> dict[str, Any]:
    return _dict_at(obj, "spec")


def _in_spec(*defaulters: _Defaulter) -> _Defaulter:
    """A kind's ``SetDefaults`` made of defaults of its ``spec``."""

    def default(obj: dict[str, Any]) -> None:
        spec = _spec(obj)
        for each in defaulters:
            each(spec)

    return default


def _rolling(key: str, **bounds: Any) -> _Defaulter:
    """A Deployment's ``strategy`` / a DaemonSet's ``updateStrategy``: RollingUpdate with
    its two bounds."""

    def default(spec: dict[str, Any]) -> None:
        _strategy(spec, key, bounds)

    return default


def _strategy(spec: dict[str, Any], key: str, rolling: Mapping[str, Any]) -> None:
    strategy = spec.get(key)
    if not isinstance(strategy, dict):
        strategy = spec[key] = {}
    if _unset(strategy.get("type")):
        strategy["type"] = "RollingUpdate"
    if strategy["type"] == "RollingUpdate":
        update = strategy.get("rollingUpdate")
        if not isinstance(update, dict):
            update = strategy["rollingUpdate"] = {}
        for bound, value in rolling.items():
            if update.get(bound) is None:
                update[bound] = value


def _stateful_set(obj: dict[str, Any]) -> None:
    spec = _spec(obj)
    if not spec.get("podManagementPolicy"):
        spec["podManagementPolicy"] = "OrderedReady"
    strategy = spec.get("updateStrategy")
    if not isinstance(strategy, dict):
        strategy = spec["updateStrategy"] = {}
    if _unset(strategy.get("type")):
        strategy["type"] = "RollingUpdate"
        if strategy.get("rollingUpdate") is None:
            strategy["rollingUpdate"] = {}
    update = strategy.get("rollingUpdate")
    if isinstance(update, dict):
        # strategy.go dropStatefulSetDisabledFields: MaxUnavailableStatefulSet is off
        # on kube-apiserver 1.34 (the test control plane stores none)
        update.pop("maxUnavailable", None)
    if (
        strategy["type"] == "RollingUpdate"
        and isinstance(update, dict)
        and update.get("partition") is None
    ):
        update["partition"] = 0
    # StatefulSetAutoDeletePVC (GA in 1.32)
    policy = spec.get("persistentVolumeClaimRetentionPolicy")
    if not isinstance(policy, dict):
        policy = spec["persistentVolumeClaimRetentionPolicy"] = {}
    for key in ("whenDeleted", "whenScaled"):
        if not policy.get(key):
            policy[key] = "Retain"
    if spec.get("replicas") is None:
        spec["replicas"] = 1
    if spec.get("revisionHistoryLimit") is None:
        spec["revisionHistoryLimit"] = 10
    # apps/v1 conversion.go (Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec): each
    # claim template is written with its TypeMeta
    for claim in spec.get("volumeClaimTemplates") or ():
        if isinstance(claim, dict):
            claim["apiVersion"] = "v1"
            claim["kind"] = "PersistentVolumeClaim"


_MAX_INT32 = (1 << 31) - 1


def _job(obj: dict[str, Any]) -> None:
    spec = _spec(obj)
    if spec.get("completions") is None and spec.get("parallelism") is None:
        spec["completions"] = 1
        spec["parallelism"] = 1
    if spec.get("parallelism") is None:
        spec["parallelism"] = 1
    if spec.get("backoffLimit") is None:
        spec["backoffLimit"] = _MAX_INT32 if spec.get("backoffLimitPerIndex") is not None else 6
    template = spec.get("template")
    labels = (template.get("metadata") or {}).get("labels") if isinstance(template, dict) else None
    meta = obj.get("metadata")
    if isinstance(labels, dict) and isinstance(meta, dict) and not meta.get("labels"):
        meta["labels"] = dict(labels)
    if spec.get("completionMode") is None:
        spec["completionMode"] = "NonIndexed"
    if spec.get("suspend") is None:
        spec["suspend"] = False
    failure = spec.get("podFailurePolicy")
    if isinstance(failure, dict):
        for rule in failure.get("rules") or ():
            for pattern in (rule.get("onPodConditions") or ()) if isinstance(rule, dict) else ():
                if isinstance(pattern, dict) and _unset(pattern.get("status")):
                    pattern["status"] = "True"
    # JobPodReplacementPolicy (GA in 1.34)
    if spec.get("podReplacementPolicy") is None:
        spec["podReplacementPolicy"] = "Failed" if failure is not None else "TerminatingOrFailed"
    if spec.get("manualSelector") is None:
        spec["manualSelector"] = False


# -- networking/v1, rbac/v1 --------------------------------------------------------------


def _network_policy(obj: dict[str, Any]) -> None:
    spec = _spec(obj)
    if not spec.get("policyTypes"):
        spec["policyTypes"] = ["Ingress", "Egress"] if spec.get("egress") else ["Ingress"]


_RBAC = "rbac.authorization.k8s.io"


def _role_binding(obj: dict[str, Any]) -> None:
    ref = obj.get("roleRef")
    if not isinstance(ref, dict):
        ref = obj["roleRef"] = {}
    if not ref.get("apiGroup"):
        ref["apiGroup"] = _RBAC


def _subject(obj: dict[str, Any]) -> None:
    if not obj.get("apiGroup") and obj.get("kind") in ("User", "Group"):
        obj["apiGroup"] = _RBAC


#: Go type -> what its SetDefaults_<Type> does (the names of builtin_types.json's "go")
_BY_TYPE: dict[str, _Defaulter] = {
    "core/v1.Pod": _pod,
    "core/v1.PodSpec": _pod_spec,
    "core/v1.Container": _container,
    "core/v1.EphemeralContainer": _container,
    "core/v1.ContainerPort": _fields(protocol="TCP"),  # +default="TCP"
    "core/v1.Probe": _fields(
        timeoutSeconds=1, periodSeconds=10, successThreshold=1, failureThreshold=3
    ),
    "core/v1.HTTPGetAction": _fields(path="/", scheme="HTTP"),
    "core/v1.GRPCAction": _pointers(service=""),  # +default=""
    "core/v1.Volume": _volume,
    "core/v1.SecretVolumeSource": _pointers(defaultMode=0o644),
    "core/v1.ConfigMapVolumeSource": _pointers(defaultMode=0o644),
    "core/v1.DownwardAPIVolumeSource": _pointers(defaultMode=0o644),
    "core/v1.ProjectedVolumeSource": _pointers(defaultMode=0o644),
    "core/v1.ServiceAccountTokenProjection": _pointers(expirationSeconds=3600),
    "core/v1.HostPathVolumeSource": _pointers(type=""),
    "core/v1.ObjectFieldSelector": _fields(apiVersion="v1"),
    "core/v1.ISCSIVolumeSource": _fields(iscsiInterface="default"),
    "core/v1.RBDVolumeSource": _fields(pool="rbd", user="admin", keyring="/etc/ceph/keyring"),
    "core/v1.AzureDiskVolumeSource": _pointers(
        cachingMode="ReadWrite", kind="Shared", fsType="ext4", readOnly=False
    ),
    "core/v1.ScaleIOVolumeSource": _fields(storageMode="ThinProvisioned", fsType="xfs"),
    "core/v1.Secret": _secret,
    "core/v1.Service": _service,
    "core/v1.PersistentVolumeClaim": _claim,
    "core/v1.PersistentVolumeClaimSpec": _pointers(volumeMode="Filesystem"),
    "core/v1.Namespace": _namespace,
    "core/v1.NamespaceStatus": _fields(phase="Active"),
    "apps/v1.Deployment": _in_spec(
        _pointers(replicas=1, revisionHistoryLimit=10, progressDeadlineSeconds=600),
        _rolling("strategy", maxUnavailable="25%", maxSurge="25%"),
    ),
    "apps/v1.DaemonSet": _in_spec(
        _rolling("updateStrategy", maxUnavailable=1, maxSurge=0),
        _pointers(revisionHistoryLimit=10),
    ),
    "apps/v1.StatefulSet": _stateful_set,
    "apps/v1.ReplicaSet": _in_spec(_pointers(replicas=1)),
    "batch/v1.Job": _job,
    "batch/v1.CronJob": _in_spec(
        _fields(concurrencyPolicy="Allow"),
        _pointers(suspend=False, successfulJobsHistoryLimit=3, failedJobsHistoryLimit=1),
    ),
    "networking/v1.NetworkPolicy": _network_policy,
    "networking/v1.NetworkPolicyPort": _pointers(protocol="TCP"),
    "rbac/v1.RoleBinding": _role_binding,
    "rbac/v1.ClusterRoleBinding": _role_binding,
    "rbac/v1.Subject": _subject,
}


# -- the walk ----------------------------------------------------------------------------

#: a type's plan: its own defaulter, and (field, how to reach values, the field
#: type's plan) for each field whose type leads to a defaulter
_Plan = tuple["_Defaulter | None", tuple[tuple[str, str, "_Plan"], ...]]
_EMPTY_PLAN: _Plan = (None, ())
_PLANS: dict[str, _Plan | None] = {}
_KIND_PLANS: dict[tuple[str, str], _Plan | None] = {}
_LOCK = threading.Lock()


def _plan(name: str, raw: Mapping[str, Any], visiting: set[str]) -> _Plan | None:
    """The plan of Go type ``name`` (None: nothing under it is defaulted)."""
    if name in _PLANS:
        return _PLANS[name]
    if name in visiting:
        return None  # a recursive type (JSON schema props): nothing defaulted in the loop
    visiting.add(name)
    found = raw.get(name)
    plan: _Plan | None = None
    if found is not None and found["k"] == "struct":
        steps = []
        for json_name, type_name, _flags in found["f"]:
            how, element = _reach(type_name, raw)
            if element is None:
                continue
            inner = _plan(element, raw, visiting)
            if inner is not None:
                steps.append((json_name, how, inner))
        own = _BY_TYPE.get(name)
        if own is not None or steps:
            plan = (own, tuple(steps))
    visiting.discard(name)
    _PLANS[name] = plan
    return plan


def _reach(type_name: str, raw: Mapping[str, Any]) -> tuple[str, str | None]:
    """How a field's values are reached: ``"one"`` (a struct or a pointer to one),
    ``"each"`` (a list of them), ``"values"`` (a map of them), and the struct type."""
    how = "one"
    name = type_name
    while True:
        found = raw.get(name.lstrip("*"))
        if found is None:
            return how, None
        kind = found["k"]
        if kind == "ptr":
            name = found["e"]
        elif kind == "struct":
            return how, name.lstrip("*")
        elif kind in ("slice", "map") and how == "one":
            how = "each" if kind == "slice" else "values"
            name = found["e"]
        else:
            return how, None


def _apply(plan: _Plan, obj: dict[str, Any], sent: Mapping[str, Any] | None = None) -> None:
    own, steps = plan
    if own is _pod:
        _pod(obj, sent)
    elif own is not None:
        own(obj)
    for key, how, inner in steps:
        value = obj.get(key)
        if value is None:
            continue
        if how == "one":
            if type(value) is dict:
                _apply(inner, value)
        elif how == "each":
            if type(value) is list:
                for item in value:
                    if type(item) is dict:
                        _apply(inner, item)
        elif type(value) is dict:
            for item in value.values():
                if type(item) is dict:
                    _apply(inner, item)


def default_builtin(
    obj: dict[str, Any], api_version: str, kind: str, *, sent: Mapping[str, Any] | None = None
) -> None:
    """Default ``obj`` (a decoded built-in object the caller owns) in place, as the
    server's ``SetObjectDefaults_<Kind>`` does; a kind without defaults is left alone.
    ``sent``: the object as the request spelt it (a Pod's sums of quantities keep the
    sent formats, which the decoded values may have lost)."""
    key = (api_version, kind)
    plan = _KIND_PLANS.get(key, _EMPTY_PLAN)
    if plan is _EMPTY_PLAN:
        from kubectl_crd.validation.typed import builtin

        go = builtin().go_types
        with _LOCK:
            name = go["kinds"].get(f"{api_version}/{kind}")
            plan = _plan(name, go["types"], set()) if name is not None else None
            _KIND_PLANS[key] = plan
    if plan is not None:
        _apply(plan, obj, sent)


# -- registry pieces ---------------------------------------------------------------------


def prepare_job_for_create(obj: dict[str, Any], uid: str, *, shares_labels: bool) -> None:
    """The Job strategy's ``PrepareForCreate`` (``pkg/registry/batch/job/strategy.go``
    ``generateSelector``): unless ``manualSelector`` is true, the selector matches the
    Job's uid, and the pod template carries the labels it selects and the Job's name.
    ``shares_labels``: the body had no labels of its own (defaulting gave it the
    template's)."""
    spec = _spec(obj)
    if spec.get("manualSelector") is True:
        return
    name = str((obj.get("metadata") or {}).get("name") or "")
    labels = _dict_at(spec, "template", "metadata", "labels")
    for key, value in (
        ("batch.kubernetes.io/controller-uid", uid),
        ("batch.kubernetes.io/job-name", name),
        ("controller-uid", uid),
        ("job-name", name),
    ):
        labels.setdefault(key, value)
    _dict_at(spec, "selector", "matchLabels").setdefault("batch.kubernetes.io/controller-uid", uid)
    spec["manualSelector"] = False
    # SetDefaults_Job gave a Job without labels its template's map itself (Go maps are
    # references): the labels generated into the template are the Job's too
    job_meta = obj.get("metadata")
    if shares_labels and isinstance(job_meta, dict):
        job_meta["labels"] = dict(labels)


_QOS_RESOURCES = ("cpu", "memory")


def pod_qos_class(spec: Mapping[str, Any]) -> str:
    """``qos.GetPodQOS`` (``pkg/apis/core/helper/qos``): BestEffort without a cpu or
    memory request or limit in any container, Guaranteed when every container limits
    both and the requests equal the limits, else Burstable; with pod-level resources
    (PodLevelResources, on in 1.34) the same rules on the pod's own alone."""
    from kubectl_crd.model.quantity import parse_quantity

    requests: dict[str, Any] = {}
    limits: dict[str, Any] = {}
    guaranteed = True
    found = spec.get("resources")
    pod: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    if any(_pod_level(name) for key in ("requests", "limits") for name in pod.get(key) or {}):
        # PodLevelResources: the pod's own requests and limits decide, alone
        for into, key in ((requests, "requests"), (limits, "limits")):
            for name in _QOS_RESOURCES:
                text = (pod.get(key) or {}).get(name)
                value = parse_quantity(str(text)) if text is not None else 0
                if value > 0:
                    into[name] = value
        if not requests and not limits:
            return "BestEffort"
        if len(limits) == len(_QOS_RESOURCES) and requests == limits:
            return "Guaranteed"
        return "Burstable"
    for group in ("initContainers", "containers"):
        for container in spec.get(group) or ():
            resources = container.get("resources") if isinstance(container, Mapping) else None
            resources = resources if isinstance(resources, Mapping) else {}
            for into, found in (
                (requests, resources.get("requests")),
                (limits, resources.get("limits")),
            ):
                for name in _QOS_RESOURCES:
                    text = found.get(name) if isinstance(found, Mapping) else None
                    value = parse_quantity(str(text)) if text is not None else 0
                    if value:
                        into[name] = into.get(name, 0) + value
            given = resources.get("limits")
            if not isinstance(given, Mapping) or not all(given.get(n) for n in _QOS_RESOURCES):
                guaranteed = False
    if not requests and not limits:
        return "BestEffort"
    if guaranteed and requests == limits:
        return "Guaranteed"
    return "Burstable"


def prepare_pod_for_create(obj: dict[str, Any]) -> None:
    """The Pod strategy's ``PrepareForCreate`` (``pkg/registry/core/pod/strategy.go``: a
    Pending status with the pod's QoS class, generation 1) and what the admission
    plugins every kube-apiserver runs add (``plugin/pkg/admission/priority``: priority 0
    and ``PreemptLowerPriority`` without a class; ``defaulttolerationseconds``: 300 s
    of the not-ready and unreachable taints)."""
    spec = _spec(obj)
    obj["status"] = {"phase": "Pending", "qosClass": pod_qos_class(spec)}
    if spec.get("priority") is None and not spec.get("priorityClassName"):
        spec["priority"] = 0
    if spec.get("preemptionPolicy") is None:
        spec["preemptionPolicy"] = "PreemptLowerPriority"
    tolerations = spec.get("tolerations")
    if not isinstance(tolerations, list):
        tolerations = []
    for taint in ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"):
        if not any(
            isinstance(t, Mapping)
            and t.get("effect") in (None, "", "NoExecute")
            and (t.get("key") == taint or (not t.get("key") and t.get("operator") == "Exists"))
            for t in tolerations
        ):
            tolerations.append(
                {
                    "key": taint,
                    "operator": "Exists",
                    "effect": "NoExecute",
                    "tolerationSeconds": 300,
                }
            )
    spec["tolerations"] = tolerations


def prepare_claim_for_create(obj: dict[str, Any]) -> None:
    """The StorageObjectInUseProtection admission plugin (on by default,
    ``plugin/pkg/admission/storage/storageobjectinuseprotection``): a claim's
    ``kubernetes.io/pvc-protection`` finalizer."""
    meta = obj.get("metadata")
    if isinstance(meta, dict):
        _add_finalizer(meta, "kubernetes.io/pvc-protection")


def _add_finalizer(holder: dict[str, Any], finalizer: str) -> None:
    finalizers = holder.get("finalizers")
    if not isinstance(finalizers, list):
        finalizers = holder["finalizers"] = []
    if finalizer not in finalizers:
        finalizers.append(finalizer)


_TEMPLATE_GENERATION = "deprecated.daemonset.template.generation"


def prepare_daemon_set(obj: dict[str, Any], old: Mapping[str, Any] | None) -> None:
    """The DaemonSet strategy (``pkg/registry/apps/daemonset/strategy.go``): the
    template's generation, 1 on a create and one more on an update that changes the
    template, kept in the ``deprecated.daemonset.template.generation`` annotation."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        return
    generation = 1
    if old is not None:
        old_meta = old.get("metadata") or {}
        try:
            generation = int((old_meta.get("annotations") or {}).get(_TEMPLATE_GENERATION) or 0)
        except ValueError:
            generation = 0
        if (obj.get("spec") or {}).get("template") != (old.get("spec") or {}).get("template"):
            generation += 1
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        annotations = meta["annotations"] = {}
    annotations[_TEMPLATE_GENERATION] = str(generation)


_CONTAINER_GROUPS = ("initContainers", "containers", "ephemeralContainers")


def drop_disabled_pod_fields(spec: dict[str, Any], *, dry: bool = False) -> bool:
    """What every pod-carrying strategy's PrepareForCreate and PrepareForUpdate drop from
    a pod spec, with the feature gates off that kube-apiserver 1.34 has off by default
    (``pkg/api/pod/util.go`` ``dropDisabledFields``): image volumes and the mounts of
    them (ImageVolume), a container's ``restartPolicy`` and every
    ``restartPolicyRules`` (ContainerRestartRules; an init container keeps
    ``Always``, a sidecar's), projected ``clusterTrustBundle`` and ``podCertificate``
    sources (each left an empty source, as Go sets the pointer nil), ``hostnameOverride``,
    an env var's ``valueFrom.fileKeyRef`` (EnvFiles), a lifecycle's ``stopSignal``
    (ContainerStopSignals; the lifecycle with it when nothing else is left). Upstream
    keeps each one the old spec uses; no write the store takes leaves one to use, so
    the old spec is not looked at. Whether anything was (with ``dry``: would be)
    dropped."""
    dropped = False

    def drop(holder: dict[str, Any], key: str) -> None:
        nonlocal dropped
        if key in holder:
            dropped = True
            if not dry:
                del holder[key]

    volumes = spec.get("volumes")
    images: set[Any] = set()
    if isinstance(volumes, list):
        images = {
            v.get("name") for v in volumes if isinstance(v, dict) and v.get("image") is not None
        }
        if images:
            dropped = True
            if not dry:
                kept = [
                    v for v in volumes if not (isinstance(v, dict) and v.get("image") is not None)
                ]
                if kept:
                    spec["volumes"] = kept
                else:
                    del spec["volumes"]
        for volume in volumes:
            projected = volume.get("projected") if isinstance(volume, dict) else None
            sources = projected.get("sources") if isinstance(projected, dict) else None
            for source in sources if isinstance(sources, list) else ():
                if isinstance(source, dict):
                    drop(source, "clusterTrustBundle")
                    drop(source, "podCertificate")
    drop(spec, "hostnameOverride")
    for group in _CONTAINER_GROUPS:
        containers = spec.get(group)
        for container in containers if isinstance(containers, list) else ():
            if not isinstance(container, dict):
                continue
            if group != "initContainers" or container.get("restartPolicy") != "Always":
                drop(container, "restartPolicy")
            drop(container, "restartPolicyRules")
            for env in container.get("env") or ():
                value_from = env.get("valueFrom") if isinstance(env, dict) else None
                if isinstance(value_from, dict):
                    drop(value_from, "fileKeyRef")
            lifecycle = container.get("lifecycle")
            if isinstance(lifecycle, dict) and "stopSignal" in lifecycle:
                drop(lifecycle, "stopSignal")
                if not dry and not lifecycle:
                    del container["lifecycle"]
            mounts = container.get("volumeMounts")
            if images and isinstance(mounts, list) and not dry:
                left = [m for m in mounts if not (isinstance(m, dict) and m.get("name") in images)]
                if left:
                    container["volumeMounts"] = left
                else:
                    del container["volumeMounts"]
    return dropped


#: what the Lease strategy drops while the CoordinatedLeaderElection gate is off (its
#: default in 1.34: beta, off)
_LEASE_GATED = ("strategy", "preferredHolder")


def prepare_lease(obj: dict[str, Any], old: Mapping[str, Any] | None, *, dry: bool = False) -> bool:
    """The Lease strategy (``pkg/registry/coordination/lease/strategy.go``), the
    ``CoordinatedLeaderElection`` gate off: a create drops ``spec.strategy`` and
    ``spec.preferredHolder``, an update each one the old Lease has not. Whether it
    drops anything; ``dry``: only that (the store copies the object first when so)."""
    spec = obj.get("spec")
    if not isinstance(spec, dict):
        return False
    old_spec = (old.get("spec") if old is not None else None) or {}
    dropped = False
    for name in _LEASE_GATED:
        if name in spec and (not isinstance(old_spec, Mapping) or old_spec.get(name) is None):
            dropped = True
            if not dry:
                del spec[name]
    return dropped


def prepare_namespace_for_create(obj: dict[str, Any]) -> None:
    """The Namespace strategy's ``PrepareForCreate``: the ``kubernetes`` finalizer."""
    _add_finalizer(_spec(obj), "kubernetes")


#: the test control plane's ``--service-cluster-ip-range`` (``reconcile.controlplane``)
SERVICE_CIDR = "10.0.0.0/24"


class ServiceAllocator:
    """What the Service registry allocates (``pkg/registry/core/service/storage``'s
    ``alloc.go``): a cluster IP from ``SERVICE_CIDR`` (the first address is the
    ``kubernetes`` Service's), its single IPv4 family, node ports. Deterministic: the
    lowest free one. Not thread-safe (the store calls it under its lock)."""

    def __init__(self, cidr: str = SERVICE_CIDR) -> None:
        network = ipaddress.ip_network(cidr)
        hosts = list(network.hosts())
        self._network = str(network.network_address)
        self._addresses = [str(a) for a in hosts[1:]]  # hosts[0]: the kubernetes Service
        self._in_range = {str(a) for a in hosts}
        self._ips: set[str] = {str(hosts[0])}
        self._ports: set[int] = set()

    def allocate(
        self, obj: dict[str, Any], old: Mapping[str, Any] | None, *, dry_run: bool = False
    ) -> str | list[Cause] | None:
        """Give ``obj`` (a defaulted Service) what the registry fills in: on an update
        the old object's allocations where the new one leaves them out
        (``patchAllocatedValues``), then the families, cluster IPs, node ports and
        health check node port it still lacks. A refusal is returned, nothing held:
        the server's 500 message (a full range, a taken health check port), or the
        422's causes (``services.cluster_ip_problems``, then a requested address or
        node port outside the range or taken). A dry run (alloc.go's dry-run
        allocators) checks no requested value and holds nothing: what it fills in is
        the range's network address and node ports from 32769 up, as the server
        answers."""
        spec = obj.get("spec")
        if not isinstance(spec, dict):
            return None
        kind = spec.get("type")
        old_spec = old.get("spec") if old is not None else None
        held = (set(self._ips), set(self._ports))
        if isinstance(old_spec, Mapping):
            _patch_allocated_values(spec, old_spec)
            _normalize_cluster_ips(spec, old_spec)
            _drop_type_dependent_fields(obj, spec, old_spec)
            problem = self._allocate(spec, kind, old_spec, dry_run)
            if problem is None and not dry_run:
                # what the old object held and the new one does not is free again
                ips, ports = _held(old_spec)
                new_ips, new_ports = _held(spec)
                self._ips.difference_update(ips - new_ips)
                self._ports.difference_update(ports - new_ports)
        else:
            problem = self._allocate(spec, kind, None, dry_run)
        if problem is not None or dry_run:
            self._ips, self._ports = held
        return problem

    def _allocate(
        self, spec: dict[str, Any], kind: Any, old_spec: Any, dry_run: bool
    ) -> str | list[Cause] | None:
        old_ips, old_ports = _held(old_spec) if isinstance(old_spec, Mapping) else (set(), set())
        if isinstance(old_spec, Mapping) and kind != "ExternalName":
            # alloc.go initIPFamilyFields: the policy an update leaves out is the old
            # one's, and a SingleStack policy trims a second address or family the
            # update kept as it was
            if not spec.get("ipFamilyPolicy") and old_spec.get("ipFamilyPolicy"):
                spec["ipFamilyPolicy"] = old_spec["ipFamilyPolicy"]
            if spec.get("ipFamilyPolicy") == "SingleStack":
                for key in ("clusterIPs", "ipFamilies"):
                    now = spec.get(key) or []
                    if len(now) > 1 and now == list(old_spec.get(key) or ()):
                        spec[key] = now[:1]
        # strategy.go PrepareForCreate / PrepareForUpdate: clusterIPs follows clusterIP
        if spec.get("clusterIP") and not spec.get("clusterIPs"):
            spec["clusterIPs"] = [spec["clusterIP"]]
        if kind == "ExternalName":
            return None
        problems = cluster_ip_problems(spec, old_spec if isinstance(old_spec, Mapping) else None)
        if problems:
            return problems
        cluster_ip = spec.get("clusterIP")
        if not cluster_ip:
            free = (
                self._network
                if dry_run
                else next((a for a in self._addresses if a not in self._ips), None)
            )
            if free is None:
                return "Internal error occurred: failed to allocate a serviceIP: range is full"
            cluster_ip = free
        elif cluster_ip != "None" and not old_ips and not dry_run:
            # an update's new primary address is ValidateServiceUpdate's to refuse
            # ("may not change once set"), not the allocator's
            address = str(parse_ip(cluster_ip))
            ips = spec.get("clusterIPs") or [cluster_ip]
            if address not in self._in_range:
                return [allocation_cause("spec.clusterIPs", ips, "outside")]
            if address in self._ips:
                return [allocation_cause("spec.clusterIPs", ips, "taken")]
        if cluster_ip != "None":
            self._ips.add(str(parse_ip(cluster_ip) or cluster_ip))
        spec["clusterIP"] = cluster_ip
        if not spec.get("clusterIPs"):
            spec["clusterIPs"] = [cluster_ip]
        if cluster_ip == "None" and not spec.get("selector"):
            # alloc.go initIPFamilyFields: a headless Service without a selector is the
            # one that defaults to RequireDualStack and both families, whatever the
            # cluster's (its endpoints are written by hand, of either family)
            if not spec.get("ipFamilyPolicy"):
                spec["ipFamilyPolicy"] = "RequireDualStack"
            single = spec["ipFamilyPolicy"] == "SingleStack"
            families = spec.get("ipFamilies") or ["IPv4"]
            if not single and len(families) == 1:
                families = [*families, "IPv6" if families[0] == "IPv4" else "IPv4"]
            spec["ipFamilies"] = families
        if not spec.get("ipFamilies"):
            spec["ipFamilies"] = ["IPv4"]
        if not spec.get("ipFamilyPolicy"):
            spec["ipFamilyPolicy"] = "SingleStack"
        return self._allocate_ports(spec, kind, old_spec, old_ports, dry_run)

    def _allocate_ports(
        self, spec: dict[str, Any], kind: Any, old_spec: Any, old_ports: set[int], dry_run: bool
    ) -> str | list[Cause] | None:
        """Node ports: a LoadBalancer that allocates none still holds those requested;
        a port number twice is one port when the protocols differ (alloc.go
        ``initNodePorts``); then the health check node port."""
        assigns = kind == "NodePort" or (
            kind == "LoadBalancer" and spec.get("allocateLoadBalancerNodePorts") is not False
        )
        holders: list[tuple[dict[str, Any], str, str]] = []
        if kind in _EXTERNAL_TYPES:
            holders = [
                (port, "nodePort", f"spec.ports[{index}].nodePort")
                for index, port in enumerate(spec.get("ports") or ())
                if isinstance(port, dict) and (assigns or port.get("nodePort"))
            ]
        # service.NeedsHealthCheck: a LoadBalancer with the Local traffic policy
        if kind == "LoadBalancer" and spec.get("externalTrafficPolicy") == "Local":
            holders.append((spec, "healthCheckNodePort", ""))
        dry_next = 32769
        taken_here: dict[int, set[Any]] = {}
        for holder, key, where in holders:
            wanted = holder.get(key)
            protocol = holder.get("protocol")
            if wanted:
                number = int(wanted)
                if not dry_run and number not in old_ports:
                    shared = number in taken_here and protocol not in taken_here[number]
                    problem = (
                        "outside"
                        if number not in NODE_PORTS
                        else "taken"
                        if number in self._ports and not shared
                        else None
                    )
                    if problem is not None and not where:
                        return health_check_refusal(number, problem)
                    if problem is not None:
                        return [allocation_cause(where, number, problem)]
                taken_here.setdefault(number, set()).add(protocol)
                self._ports.add(number)
                continue
            if dry_run:
                found: int | None = dry_next
                dry_next += 1
            else:
                found = next((p for p in NODE_PORTS if p not in self._ports), None)
            if found is None:
                return "Internal error occurred: failed to allocate a nodePort: range is full"
            self._ports.add(found)
            taken_here.setdefault(found, set()).add(protocol)
            holder[key] = found
        return None

    def held(self) -> tuple[frozenset[str], frozenset[int]]:
        """What is held now, for ``restore`` (a write the validation refuses after its
        allocation: the registry's transaction is reverted, alloc.go ``txn.Revert``)."""
        return frozenset(self._ips), frozenset(self._ports)

    def restore(self, held: tuple[frozenset[str], frozenset[int]]) -> None:
        self._ips, self._ports = set(held[0]), set(held[1])

    def release(self, obj: Mapping[str, Any]) -> None:
        """A deleted Service's allocations are free again."""
        spec = obj.get("spec")
        if isinstance(spec, Mapping):
            ips, ports = _held(spec)
            self._ips.difference_update(ips)
            self._ports.difference_update(ports)


def _held(spec: Mapping[str, Any]) -> tuple[set[str], set[int]]:
    """The cluster IPs (as parsed: ``10.0.0.010`` holds 10.0.0.10) and node ports a
    Service's spec holds."""
    given = [*(spec.get("clusterIPs") or ()), spec.get("clusterIP")]
    ips = {str(parse_ip(ip) or ip) for ip in given if ip and ip != "None"}
    ports = {
        port["nodePort"]
        for port in spec.get("ports") or ()
        if isinstance(port, Mapping) and port.get("nodePort")
    }
    if spec.get("healthCheckNodePort"):
        ports.add(spec["healthCheckNodePort"])
    return ips, ports


def _needs(kind: Any, spec: Mapping[str, Any]) -> tuple[bool, bool, bool, bool]:
    """Whether a Service of ``kind`` needs a cluster IP, node ports, a health check node
    port, and whether it is externally accessible (``strategy.go``'s needsClusterIP,
    needsNodePort, needsHCNodePort; ``service.ExternallyAccessible``)."""
    external = kind in _EXTERNAL_TYPES
    return (
        kind != "ExternalName",
        external,
        kind == "LoadBalancer" and spec.get("externalTrafficPolicy") == "Local",
        external or (kind == "ClusterIP" and bool(spec.get("externalIPs"))),
    )


def _patch_allocated_values(spec: dict[str, Any], old_spec: Mapping[str, Any]) -> None:
    """The Service strategy's ``patchAllocatedValues`` (``pkg/registry/core/service/
    strategy.go``): what an update leaves out of the addresses, node ports and health
    check node port the old object was given is kept, where both types need it."""
    old_needs, new_needs = _needs(old_spec.get("type"), old_spec), _needs(spec.get("type"), spec)
    if old_needs[0] and new_needs[0]:
        if not spec.get("clusterIP") and old_spec.get("clusterIP"):
            spec["clusterIP"] = old_spec["clusterIP"]
        if not spec.get("clusterIPs") and old_spec.get("clusterIPs"):
            spec["clusterIPs"] = list(old_spec["clusterIPs"])
    if old_needs[1] and new_needs[1]:
        old_ports_by_key = {
            (p.get("port"), p.get("protocol")): p.get("nodePort")
            for p in old_spec.get("ports") or ()
            if isinstance(p, Mapping)
        }
        for port in spec.get("ports") or ():
            if isinstance(port, dict) and not port.get("nodePort"):
                kept = old_ports_by_key.get((port.get("port"), port.get("protocol")))
                if kept:
                    port["nodePort"] = kept
    if old_needs[2] and new_needs[2] and old_spec.get("healthCheckNodePort"):
        spec["healthCheckNodePort"] = (
            spec.get("healthCheckNodePort") or old_spec["healthCheckNodePort"]
        )


def _normalize_cluster_ips(spec: dict[str, Any], old_spec: Mapping[str, Any]) -> None:
    """The Service strategy's ``NormalizeClusterIPs`` of an update: ``clusterIPs`` kept
    as it was follows a changed ``clusterIP`` (cleared with a cleared one)."""
    same_ips = list(spec.get("clusterIPs") or ()) == list(old_spec.get("clusterIPs") or ())
    cluster_ip, old_ip = spec.get("clusterIP") or "", old_spec.get("clusterIP") or ""
    if old_spec.get("clusterIPs") and not spec.get("clusterIPs") and cluster_ip == old_ip:
        spec["clusterIPs"] = list(old_spec["clusterIPs"])
    elif cluster_ip != old_ip and same_ips:
        if cluster_ip:
            spec["clusterIPs"] = [cluster_ip]
        else:
            spec.pop("clusterIPs", None)


def _drop_type_dependent_fields(
    obj: dict[str, Any], spec: dict[str, Any], old_spec: Mapping[str, Any]
) -> None:
    """The Service strategy's ``dropTypeDependentFields`` (``pkg/registry/core/service/
    strategy.go``): an update to a type that no longer needs a field the old one had
    wipes it, when the update left it as it was (an apply's merged object carries them);
    node ports when the update adds none. 1.34 drops ``internalTrafficPolicy`` on the
    way to an ExternalName alike (the test control plane does)."""
    old_type, new_type = old_spec.get("type"), spec.get("type")
    old_needs, new_needs = _needs(old_type, old_spec), _needs(new_type, spec)

    def same(key: str) -> bool:
        return bool(spec.get(key) == old_spec.get(key))

    if old_needs[0] and not new_needs[0]:
        if same("clusterIP") and same("clusterIPs"):
            spec.pop("clusterIP", None)
            spec.pop("clusterIPs", None)
        for key in ("ipFamilies", "ipFamilyPolicy", "internalTrafficPolicy"):
            if same(key):
                spec.pop(key, None)
    if old_needs[1] and not new_needs[1]:
        old_ports = {
            p.get("nodePort") for p in old_spec.get("ports") or () if isinstance(p, Mapping)
        }
        new_ports = {p.get("nodePort") for p in spec.get("ports") or () if isinstance(p, dict)}
        if new_ports - {None, 0} <= old_ports:
            for port in spec.get("ports") or ():
                if isinstance(port, dict):
                    port.pop("nodePort", None)
    if old_needs[2] and not new_needs[2] and same("healthCheckNodePort"):
        spec.pop("healthCheckNodePort", None)
    if old_type == "LoadBalancer" and new_type != "LoadBalancer":
        kept = spec.get("allocateLoadBalancerNodePorts")
        if kept is not None and kept == old_spec.get("allocateLoadBalancerNodePorts"):
            spec.pop("allocateLoadBalancerNodePorts")
        if same("loadBalancerClass"):
            spec.pop("loadBalancerClass", None)
        status = obj.get("status")
        if isinstance(status, dict):
            obj["status"] = {**status, "loadBalancer": {}}  # (a copy: it may be the old's)
    if old_needs[3] and not new_needs[3] and same("externalTrafficPolicy"):
        spec.pop("externalTrafficPolicy", None)
