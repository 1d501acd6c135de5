"""A pod template's commonest rules, as kube-apiserver 1.34 refuses a workload whose
pod template it will not store (``ValidatePodSpec`` and the functions it calls, of
kubernetes v1.34.4 ``pkg/apis/core/validation/validation.go``).

Pure. Called by ``validation.workloads`` where each workload's validation calls
``ValidatePodTemplateSpec``, on the defaulted template (an image's pull policy, a
termination message policy, a port's protocol and a pod's restart policy are set
before, an empty volume source is an emptyDir). In ``ValidatePodSpec``'s order:

- the volumes (``ValidateVolumes``): more than one source (``validateVolumeSource``'s
  order of the Go fields), the name a DNS-1123 label, unique; a volume with a problem
  is not one a mount may name;
- the containers (``validateContainers``), then the init containers
  (``validateInitContainers``: also unique across both lists), each by
  ``validateContainerCommon``: name (a DNS-1123 label), image, termination message
  policy, ports (names ``IsValidPortName`` and unique, container and host port
  numbers, protocol), env (names ``IsRelaxedEnvVarName``, ``valueFrom`` exactly one
  source and no ``value`` beside it), volume mounts (a volume's name, a path, unique
  paths), pull policy, resources (``validateContainerResourceName``, a negative or,
  for an integer resource, fractional quantity, a request above its limit or, for an
  extended resource or huge pages, not equal to it or without one); a regular
  container's probes (``validateProbe``: one handler and its port, path, scheme or command; counts, grace period, success
  threshold); an init container's probes and lifecycle without restartPolicy Always;
- the pod's restart policy (``validateRestartPolicy``).

Not checked: the volume sources' own fields, envFrom, volume devices, lifecycle
handlers, a probe's HTTP header names, huge pages' own rules, resource claims, security
contexts, host port conflicts, the init containers' own restart rules, and every
pod-level field after the restart policy (DNS, affinity, tolerations, ...).
Resource maps are Go maps: the server lists their errors in a random order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from kubectl_crd.model.govalues import bad_value
from kubectl_crd.model.quantity import parse_quantity
from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    duplicate,
    forbidden,
    invalid_cause,
    not_supported,
    required,
)
from kubectl_crd.validation.names import dns1123_label, qualified_name
from kubectl_crd.validation.objectmeta import labels_and_annotations_problems
from kubectl_crd.validation.results import Reason

# one implementation of apimachinery's IsValidPortName, IsValidPortNum's message and
# the supported protocols, shared with Services
from kubectl_crd.validation.services import (
    _PORT_RANGE_MESSAGE as _PORT_RANGE,
)
from kubectl_crd.validation.services import (
    _PROTOCOLS,
)
from kubectl_crd.validation.services import (
    _port_name_problems as port_name_problems,
)

__all__ = ["RESTART_POLICIES", "pod_template_problems", "restart_policy_problems"]

#: ``validateRestartPolicy``'s values, in its order
RESTART_POLICIES = ("Always", "OnFailure", "Never")
_MESSAGE_POLICIES = ("File", "FallbackToLogsOnError")
# sets.List: sorted
_PULL_POLICIES = ("Always", "IfNotPresent", "Never")
_ENV_NAME = "a valid environment variable name must consist only of printable ASCII characters other than '='"
#: (fileKeyRef is of the EnvFiles gate, alpha and off in 1.34: the server drops it)
_ENV_SOURCES = ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef")
#: what an init container may have only with restartPolicy Always (a sidecar)
_SIDECAR_ONLY = ("lifecycle", "livenessProbe", "readinessProbe", "startupProbe")
_INIT_FORBIDDEN = "may not be set for init containers without restartPolicy=Always"
#: a volume's sources as ``validateVolumeSource`` takes them: (JSON name, the Go path's
#: name in its message, which misspells downwardAPI)
_VOLUME_SOURCES = tuple(
    (json, go or json)
    for json, go in (
        ("emptyDir", ""), ("hostPath", ""), ("gitRepo", ""), ("gcePersistentDisk", ""),
        ("awsElasticBlockStore", ""), ("secret", ""), ("nfs", ""), ("iscsi", ""),
        ("glusterfs", ""), ("flocker", ""), ("persistentVolumeClaim", ""), ("rbd", ""),
        ("cinder", ""), ("cephfs", "cephFS"), ("quobyte", ""), ("downwardAPI", "downwarAPI"),
        ("fc", ""), ("flexVolume", ""), ("configMap", ""), ("azureFile", ""),
        ("vsphereVolume", ""), ("photonPersistentDisk", ""), ("portworxVolume", ""),
        ("azureDisk", ""), ("storageos", ""), ("projected", ""), ("scaleIO", ""),
        ("csi", ""), ("ephemeral", ""), ("image", ""),
    )
)  # fmt: skip
_SOURCE_ORDER = {json: index for index, (json, _) in enumerate(_VOLUME_SOURCES)}
#: IsRelaxedEnvVarName: printable ASCII but '='
_ENV_NAME_CHARS = re.compile("[ -<>-~]+")
# names repeat from template to template: the checks are cached (the commit's bench)
_label = functools.lru_cache(maxsize=512)(dns1123_label)
_port_name = functools.lru_cache(maxsize=512)(port_name_problems)


# The object is decoded JSON: its objects are dicts, and isinstance of a dict is
# several times cheaper than of the Mapping ABC (the bench in the commit message)
def _items(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [each if isinstance(each, dict) else {} for each in value]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def restart_policy_problems(spec: Mapping[str, Any], at: str) -> list[Cause]:
    """``validateRestartPolicy`` of the pod spec at ``at`` (defaulted: never empty)."""
    restart = _text(spec.get("restartPolicy"))
    where = f"{at}.restartPolicy"
    if not restart:
        return [required(where)]
    if restart not in RESTART_POLICIES:
        return [not_supported(where, restart, RESTART_POLICIES, named=True)]
    return []


def pod_template_problems(
    template: Mapping[str, Any], at: str, *, claim_volumes: Iterable[str] = ()
) -> list[Cause]:
    """``ValidatePodSpec``'s rules (the module docstring) of ``template``'s spec, the
    template at ``at``. ``claim_volumes``: the names of a StatefulSet's claim
    templates, volumes its validation adds to the pod's (``volumesToAddForTemplates``)."""
    meta = template.get("metadata")
    found = [
        cause(f"{at}.{key}", reason, body)
        for key, reason, body in labels_and_annotations_problems(
            meta if isinstance(meta, dict) else {}
        )
    ]
    spec = template.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    where = f"{at}.spec"
    volume_problems, volumes = _volumes(_items(spec.get("volumes")), f"{where}.volumes")
    found += volume_problems
    volumes |= set(claim_volumes)
    containers = _items(spec.get("containers"))
    if not containers:
        found.append(required(f"{where}.containers"))
    names: set[str] = set()
    for index, container in enumerate(containers):
        path = f"{where}.containers[{index}]"
        found += _container(container, volumes, path)
        name = _text(container.get("name"))
        if name in names:
            found.append(duplicate(f"{path}.name", name))
        names.add(name)
        for probe in _PROBES:
            found += _probe(container, probe, f"{path}.{probe}")
    for index, container in enumerate(_items(spec.get("initContainers"))):
        path = f"{where}.initContainers[{index}]"
        found += _container(container, volumes, path)
        name = _text(container.get("name"))
        # validateInitContainers: an empty name is not one the next may repeat
        if name in names:
            found.append(duplicate(f"{path}.name", name))
        elif name:
            names.add(name)
        if container.get("restartPolicy") != "Always":
            found += [forbidden(f"{path}.{each}", _INIT_FORBIDDEN) for each in _SIDECAR_ONLY
                      if container.get(each) is not None]  # fmt: skip
    found += restart_policy_problems(spec, where)
    return found


def _volumes(volumes: list[dict[str, Any]], at: str) -> tuple[list[Cause], set[str]]:
    """``ValidateVolumes``: the problems, and the names of the volumes without any."""
    found: list[Cause] = []
    good: set[str] = set()
    for index, volume in enumerate(volumes):
        path = f"{at}[{index}]"
        problems: list[Cause] = []
        sources = sorted(_SOURCE_ORDER[key] for key, value in volume.items()
                         if value is not None and key in _SOURCE_ORDER)  # fmt: skip
        sources_go = [_VOLUME_SOURCES[order][1] for order in sources]
        problems += [forbidden(f"{path}.{go}", "may not specify more than 1 volume type")
                     for go in sources_go[1:]]  # fmt: skip
        if not sources:
            problems.append(
                cause(path, Reason.REQUIRED, "Required value: must specify a volume type")
            )
        name = _text(volume.get("name"))
        if not name:
            problems.append(required(f"{path}.name"))
        else:
            problems += [invalid_cause(f"{path}.name", name, m) for m in _label(name)]
        if name in good:
            problems.append(duplicate(f"{path}.name", name))
        if problems:
            found += problems
        else:
            good.add(name)
    return found, good


def _container(container: Mapping[str, Any], volumes: set[str], at: str) -> list[Cause]:
    """``validateContainerCommon``, the parts the module docstring lists."""
    found: list[Cause] = []
    name = _text(container.get("name"))
    if not name:
        found.append(required(f"{at}.name"))
    else:
        found += [invalid_cause(f"{at}.name", name, m) for m in _label(name)]
    if not _text(container.get("image")):
        found.append(required(f"{at}.image"))
    policy = _text(container.get("terminationMessagePolicy"))
    if not policy:
        found.append(required(f"{at}.terminationMessagePolicy"))
    elif policy not in _MESSAGE_POLICIES:
        found.append(
            not_supported(f"{at}.terminationMessagePolicy", policy, _MESSAGE_POLICIES, named=True)
        )
    found += _ports(_items(container.get("ports")), f"{at}.ports")
    found += _env(_items(container.get("env")), f"{at}.env")
    found += _mounts(_items(container.get("volumeMounts")), volumes, f"{at}.volumeMounts")
    pull = _text(container.get("imagePullPolicy"))
    if not pull:
        found.append(required(f"{at}.imagePullPolicy"))
    elif pull not in _PULL_POLICIES:
        found.append(not_supported(f"{at}.imagePullPolicy", pull, _PULL_POLICIES, named=True))
    resources = container.get("resources")
    if isinstance(resources, dict):
        found += _resources(resources, f"{at}.resources")
    return found


_PROBES = ("livenessProbe", "readinessProbe", "startupProbe")
_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")
_PROBE_COUNTS = ("initialDelaySeconds", "timeoutSeconds", "periodSeconds",
                 "successThreshold", "failureThreshold")  # fmt: skip
_NONNEGATIVE = "must be greater than or equal to 0"
_SCHEMES = ("HTTP", "HTTPS")


def _probe(container: dict[str, Any], kind: str, at: str) -> list[Cause]:
    """``validateLivenessProbe`` and its siblings of a regular container (defaulted:
    a probe's counts, an httpGet's path and scheme): ``validateHandler`` (one handler;
    an exec's command, an httpGet's path, port and scheme, a tcpSocket's or grpc's
    port), the counts not negative, a positive grace period; a liveness or startup
    probe succeeds once, a readiness probe has no grace period."""
    probe = container.get(kind)
    if not isinstance(probe, dict):
        return []
    found: list[Cause] = []
    handlers = [each for each in _HANDLERS if isinstance(probe.get(each), dict)]
    for extra in handlers[1:]:
        found.append(forbidden(f"{at}.{extra}", "may not specify more than 1 handler type"))
    if not handlers:
        found.append(cause(at, Reason.REQUIRED, "Required value: must specify a handler type"))
    elif handlers[0] == "exec" and not probe["exec"].get("command"):
        found.append(required(f"{at}.exec.command"))
    elif handlers[0] == "httpGet":
        action = probe["httpGet"]
        if not _text(action.get("path")):
            found.append(required(f"{at}.httpGet.path"))
        found += _port_num_or_name(action.get("port"), f"{at}.httpGet.port")
        scheme = _text(action.get("scheme"))
        if scheme not in _SCHEMES:
            found.append(not_supported(f"{at}.httpGet.scheme", scheme, _SCHEMES, named=True))
    elif handlers[0] in ("tcpSocket", "grpc"):
        port = probe[handlers[0]].get("port")
        # a grpc port is an int32: intstr.FromInt32
        port = port if handlers[0] == "tcpSocket" else _int(port)
        found += _port_num_or_name(port, f"{at}.{handlers[0]}.port")
    for name in _PROBE_COUNTS:
        value = _int(probe.get(name))
        if value < 0:
            found.append(invalid_cause(f"{at}.{name}", value, _NONNEGATIVE))
    grace = probe.get("terminationGracePeriodSeconds")
    if isinstance(grace, int) and grace <= 0:
        found.append(
            invalid_cause(f"{at}.terminationGracePeriodSeconds", grace, "must be greater than 0")
        )
    success = _int(probe.get("successThreshold"))
    if kind != "readinessProbe" and success != 1:
        found.append(invalid_cause(f"{at}.successThreshold", success, "must be 1"))
    if kind == "readinessProbe" and isinstance(grace, int):
        detail = "must not be set for readinessProbes"
        found.append(invalid_cause(f"{at}.terminationGracePeriodSeconds", grace, detail))
    return found


def _port_num_or_name(port: Any, at: str) -> list[Cause]:
    """``ValidatePortNumOrName`` of an IntOrString."""
    if isinstance(port, str):
        return [invalid_cause(at, port, m) for m in _port_name(port)]
    number = _int(port)
    return [] if 1 <= number <= 65535 else [invalid_cause(at, number, _PORT_RANGE)]


def _ports(ports: list[dict[str, Any]], at: str) -> list[Cause]:
    """``validateContainerPorts``."""
    found: list[Cause] = []
    names: set[str] = set()
    for index, port in enumerate(ports):
        path = f"{at}[{index}]"
        name = _text(port.get("name"))
        if name:
            problems = _port_name(name)
            found += [invalid_cause(f"{path}.name", name, m) for m in problems]
            if not problems and name in names:
                found.append(duplicate(f"{path}.name", name))
            names.add(name)
        number = _int(port.get("containerPort"))
        if number == 0:
            found.append(required(f"{path}.containerPort"))
        elif not 1 <= number <= 65535:
            found.append(invalid_cause(f"{path}.containerPort", number, _PORT_RANGE))
        host = _int(port.get("hostPort"))
        if host and not 1 <= host <= 65535:
            found.append(invalid_cause(f"{path}.hostPort", host, _PORT_RANGE))
        protocol = _text(port.get("protocol"))
        if not protocol:
            found.append(required(f"{path}.protocol"))
        elif protocol not in _PROTOCOLS:
            found.append(not_supported(f"{path}.protocol", protocol, _PROTOCOLS, named=True))
    return found


def _env(variables: list[dict[str, Any]], at: str) -> list[Cause]:
    """``ValidateEnv`` (``IsRelaxedEnvVarName``: the feature is GA and locked on in
    1.34) and ``validateEnvVarValueFrom``'s count of sources."""
    found: list[Cause] = []
    for index, variable in enumerate(variables):
        path = f"{at}[{index}]"
        name = _text(variable.get("name"))
        if not name:
            found.append(required(f"{path}.name"))
        elif not _ENV_NAME_CHARS.fullmatch(name):
            found.append(invalid_cause(f"{path}.name", name, _ENV_NAME))
        source = variable.get("valueFrom")
        if not isinstance(source, dict):
            continue
        count = sum(source.get(each) is not None for each in _ENV_SOURCES)
        where = f"{path}.valueFrom"
        if count == 0:
            listed = ", ".join(f"`{each}`" for each in _ENV_SOURCES[:-1])
            detail = f"must specify one of: {listed} or `{_ENV_SOURCES[-1]}`"
            found.append(invalid_cause(where, "", detail))
        elif _text(variable.get("value")):
            found.append(invalid_cause(where, "", "may not be specified when `value` is not empty"))
        elif count > 1:
            detail = "may not have more than one field specified at a time"
            found.append(invalid_cause(where, "", detail))
    return found


def _mounts(mounts: list[dict[str, Any]], volumes: set[str], at: str) -> list[Cause]:
    """``ValidateVolumeMounts``: a name, of a volume, a path, unique paths."""
    found: list[Cause] = []
    paths: set[str] = set()
    for index, mount in enumerate(mounts):
        path = f"{at}[{index}]"
        name = _text(mount.get("name"))
        if not name:
            found.append(required(f"{path}.name"))
        if name not in volumes:
            found.append(cause(f"{path}.name", Reason.NOT_FOUND, f"Not found: {bad_value(name)}"))
        target = _text(mount.get("mountPath"))
        if not target:
            found.append(required(f"{path}.mountPath"))
        if target in paths:
            found.append(invalid_cause(f"{path}.mountPath", target, "must be unique"))
        paths.add(target)
    return found


def _resources(resources: dict[str, Any], at: str) -> list[Cause]:
    """``validateResourceRequirements``: each limit's, then each request's name
    (``validateContainerResourceName``) and quantity (not negative, whole for an
    integer resource), a request above its limit (equal to it, and the limit set, for
    a resource not overcommitable: an extended one, huge pages). Values printed as
    the stored, canonical, quantity."""
    found: list[Cause] = []
    limits = resources.get("limits")
    limits = limits if isinstance(limits, dict) else {}
    requests = resources.get("requests")
    requests = requests if isinstance(requests, dict) else {}
    for kind, values in (("limits", limits), ("requests", requests)):
        for name, value in values.items():
            text = str(value)
            where = f"{at}.{kind}[{name}]"
            found += _resource_name(name, where)
            # only a '-' makes a quantity negative ("-0" aside): most skip the parse
            if text[:1] == "-" and _above("0", text):
                found.append(invalid_cause(where, text, "must be greater than or equal to 0"))
            if _integer_resource(name) and not _whole(text):
                found.append(invalid_cause(where, text, "must be an integer", named=True))
            if kind == "limits":
                continue
            limit = limits.get(name)
            overcommit = _native(name) and not name.startswith("hugepages-")
            if limit is None:
                if not overcommit:
                    detail = "Required value: Limit must be set for non overcommitable resources"
                    found.append(cause(f"{at}.limits", Reason.REQUIRED, detail))
            elif not overcommit and str(limit) != text and _differ(text, str(limit)):
                detail = f"must be equal to {name} limit of {limit}"
                found.append(invalid_cause(f"{at}.requests", text, detail))
            elif _above(text, str(limit)):
                detail = f"must be less than or equal to {name} limit of {limit}"
                found.append(invalid_cause(f"{at}.requests", text, detail))
    return found


#: ``standardResources`` but the quota prefixed huge pages
_STANDARD_RESOURCES = frozenset((
    "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
    "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
    "services.loadbalancers",
))  # fmt: skip
_INTEGER_RESOURCES = frozenset((
    "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
))  # fmt: skip


def _native(name: str) -> bool:
    """``IsNativeResource``: unprefixed, or in a kubernetes.io/ namespace."""
    return "/" not in name or "kubernetes.io/" in name


@functools.lru_cache(maxsize=256)
def _extended(name: str) -> bool:
    """``IsExtendedResourceName``."""
    return (
        not _native(name)
        and not name.startswith("requests.")
        and not qualified_name(f"requests.{name}")
    )


def _integer_resource(name: str) -> bool:
    return name in _INTEGER_RESOURCES or _extended(name)


@functools.lru_cache(maxsize=256)
def _resource_name(name: str, where: str) -> list[Cause]:
    """``validateContainerResourceName`` (a ResourceName: json.Marshal'ed)."""
    found = [invalid_cause(where, name, m, named=True) for m in qualified_name(name)]
    if "/" not in name:
        if not found and not (name in _STANDARD_RESOURCES or name.startswith(
            ("hugepages-", "requests.hugepages-"))):  # fmt: skip
            detail = "must be a standard resource type or fully qualified"
            found.append(invalid_cause(where, name, detail, named=True))
        if name not in ("cpu", "memory", "ephemeral-storage") and not name.startswith("hugepages-"):
            detail = "must be a standard resource for containers"
            found.append(invalid_cause(where, name, detail, named=True))
    elif not _native(name) and not _extended(name):
        detail = "doesn't follow extended resource name standard"
        found.append(invalid_cause(where, name, detail, named=True))
    return found


@functools.lru_cache(maxsize=256)
def _whole(text: str) -> bool:
    """Whether the quantity ``text`` is a whole number (``MilliValue() % 1000 == 0``;
    not a quantity: True, decoding refuses it)."""
    try:
        value = parse_quantity(text)
    except (ValueError, ZeroDivisionError):
        return True
    return (value * 1000).__ceil__() % 1000 == 0


def _differ(text: str, other: str) -> bool:
    return _above(text, other) or _above(other, text)


@functools.lru_cache(maxsize=1024)
def _above(text: str, other: str) -> bool:
    """Whether the quantity ``text`` is above the quantity ``other`` (False when
    either is not one). Cached: a store's templates repeat a few requests and
    limits, and the parse was most of this module's time (the commit's bench)."""
    if text == other:
        return False
    try:
        return parse_quantity(text) > parse_quantity(other)
    except (ValueError, ZeroDivisionError):
        return False
