"""A pod template's commonest rules, as kube-apiserver 1.34 refuses a workload whose
pod template it will not store (``ValidatePodSpec`` and the functions it calls, of
kubernetes v1.34.4 ``pkg/apis/core/validation/validation.go``).

Pure. Called by ``validation.workloads`` where each workload's validation calls
``ValidatePodTemplateSpec``, on the defaulted template (an image's pull policy, a
termination message policy, a port's protocol and a pod's restart policy are set
before, an empty volume source is an emptyDir). In ``ValidatePodSpec``'s order:

- the template's pod-specific annotations (``ValidatePodSpecificAnnotations``: a
  mirror pod's node name, the tolerations annotation (encoding/json into
  ``[]core.Toleration``: Go's syntax and type errors, field names in any case; then
  ``ValidateTolerations``), the deletion cost an int32, the deprecated seccomp and
  AppArmor annotations' profiles and containers);
- the volumes (``ValidateVolumes``): more than one source (``validateVolumeSource``'s
  order of the Go fields; the first is checked, each later one forbidden), the first
  source's own fields for emptyDir (a negative size limit), hostPath (a path without
  '..', a type), secret and configMap (a name, the default mode, each item's key,
  local path and mode), persistentVolumeClaim (a claim name) and projected (the
  default mode; secret, configMap and downward API sources, their paths unique; a
  service account token's expiry and path; one kind a source) and downwardAPI (the
  default mode, each item's path, one field or resource reference and its mode), csi
  (a driver name, the node publish secret's name), ephemeral (a claim template:
  ``ValidatePersistentVolumeClaimTemplate``, its metadata only labels and annotations,
  the claim spec's access modes, selector, storage, class names, volume mode and data
  sources) and the in-tree plugins (nfs, iscsi, glusterfs, flocker, rbd,
  cinder, cephfs, quobyte, fc, flexVolume, azureFile, vsphereVolume,
  photonPersistentDisk, portworxVolume, azureDisk, storageos, scaleIO,
  gcePersistentDisk, awsElasticBlockStore, gitRepo: their required fields, formats and
  ranges; an iscsi initiator's volume name), the name a DNS-1123 label, unique; a volume with a problem is
  not one a mount may name; the resource claims (``validatePodResourceClaims``: a
  name, unique, a DNS label; one source, a DNS subdomain);
- the containers (``validateContainers``), then the init containers
  (``validateInitContainers``: also unique across both lists), each by
  ``validateContainerCommon``: name (a DNS-1123 label), image, termination message
  policy, ports (names ``IsValidPortName`` and unique, container and host port
  numbers, protocol), env (names ``IsRelaxedEnvVarName``, ``valueFrom`` exactly one
  source and no ``value`` beside it, the source's own fields: a key selector's name
  and key, a field reference's version and supported path, a resource reference's
  resource and divisor), envFrom (``ValidateEnvFrom``: a prefix, one source and its
  name), volume mounts (a volume's name, a path, unique paths, sub paths,
  propagation, recursive read-only) and devices (a
  claim's or ephemeral volume's name, a path without '..', both unique, neither a
  mount's), pull policy,
  resources (``validateContainerResourceName``, a negative or, for an integer
  resource, fractional quantity, a request above its limit or, for an extended
  resource or huge pages, not equal to it or without one; huge pages a multiple of
  their page size, beside cpu or memory; its claims, of the pod's, unique),
  resize policies
  (``validateResizePolicy``), the security context (``ValidateSecurityContext``: user
  and group ids, procMount, seccomp and AppArmor profiles, no privilege escalation
  beside privileged or CAP_SYS_ADMIN, Windows options); a regular
  or sidecar container's lifecycle (``validateLifecycle``: one handler each, a sleep
  within the pod's grace period) and probes (``validateProbe``: one handler and its
  port, path, scheme, header names or command; counts, grace period, success
  threshold), another init container's forbidden; host ports unique across the
  regular containers and within each init container (``checkHostPortConflicts``);
  ephemeral containers (``validateEphemeralContainers``: the common rules, an image
  without surrounding whitespace, names unique, a target found, only their fields);
  pod-level resources (``validatePodResources``: none for a windows pod, no claims,
  cpu, memory and huge pages by a container's rules, at least the containers'
  aggregate requests and huge pages limits, each container's limit at most the
  pod's); with hostNetwork, a host port set only to its container port
  (``validatePodHostNetworkDeps``);
- the pod's restart policy (``validateRestartPolicy``), DNS policy, node selector
  labels, security context (``validatePodSpecSecurityContext``: ids, supplemental
  groups, hostPID beside a shared process namespace, sysctls, fsGroup change and
  supplemental groups policies, seccomp, Windows options, AppArmor, the SELinux
  change policy), affinity
  (``validateAffinity``: node selector terms and weights; pod affinity terms'
  weights, label and namespace selectors, namespaces, match and mismatch label keys,
  topology keys), DNS config (``validatePodDNSConfig``), readiness and scheduling
  gates, topology spread constraints (``validateTopologySpreadConstraints``:
  maxSkew, key, action, repeats, minDomains, node policies, match label keys, label
  selector), a Windows host process pod (``validateWindowsHostProcessPod``: the
  containers' and the pod's hostProcess alike, all or none, on the host's network),
  service account and node names, the active deadline (1 to
  2147483647), hostname and subdomain (DNS-1123 labels), tolerations
  (``ValidateTolerations``), host aliases (an IP, DNS subdomains), the priority and
  runtime class names, the preemption policy, the overhead (``validateOverhead``: a container's resource
  rules, limits only), the OS name and a linux or windows pod's own rules
  (``validateLinux``, ``validateWindows``);
- then (``ValidatePodTemplateSpec``) the deprecated seccomp and AppArmor annotations
  against the profile fields beside them, and no ephemeral containers.

``label_selector_problems`` (apimachinery's ``ValidateLabelSelector``) serves these
selectors and a workload's ``spec.selector`` (``validation.workloads``).

The server drops a template's ``hostUsers``, so validateHostUsers refuses nothing;
an image volume too (ImageVolume is off).
An init container's restartPolicy other than Always and a projection's cluster trust
bundle and pod certificate sources are dropped before validation (ContainerRestartRules,
ClusterTrustBundleProjection and PodCertificateRequest are off), as the store drops them.
Resource maps are Go maps: the server lists their errors in a random order.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from kubectl_crd.model.gojson import go_json_decode
from kubectl_crd.model.gostrconv import go_bytes
from kubectl_crd.model.govalues import (
    bad_value,
    go_json,
    go_quote,
    go_v,
    json_kind,
    unmarshal_type_error,
)
from kubectl_crd.model.quantity import BINARY_EXPONENTS, parse_quantity, stored_quantity
from kubectl_crd.model.schema import as_mapping
from kubectl_crd.validation.configmaps import config_key_problems
from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    duplicate,
    forbidden,
    invalid_cause,
    not_supported,
    required,
)
from kubectl_crd.validation.names import PORT_RANGE_MESSAGE as _PORT_RANGE
from kubectl_crd.validation.names import (
    dns1123_label,
    dns1123_subdomain,
    label_value,
    name_is_dns_subdomain,
    qualified_name,
)
from kubectl_crd.validation.names import port_name as port_name_problems
from kubectl_crd.validation.objectmeta import labels_and_annotations_problems
from kubectl_crd.validation.results import Reason

# one implementation of the supported protocols and IP's message, shared with Services
from kubectl_crd.validation.services import IP_MESSAGE, PROTOCOLS, parse_ip

__all__ = [
    "RESTART_POLICIES",
    "claim_spec_problems",
    "label_selector_problems",
    "pod_template_problems",
    "restart_policy_problems",
    "selector_requirement",
]

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


_subdomain = functools.lru_cache(maxsize=512)(dns1123_subdomain)
# label selectors, label keys and topology keys repeat the same few labels
_label_name = functools.lru_cache(maxsize=512)(qualified_name)
_label_value = functools.lru_cache(maxsize=512)(label_value)


@functools.lru_cache(maxsize=512)
def _object_name(name: str) -> list[str]:
    """``ValidateConfigMapName`` and ``ValidateSecretName``: ``NameIsDNSSubdomain``."""
    return name_is_dns_subdomain(name, True)


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


def _required_detail(at: str, detail: str) -> Cause:
    """``field.Required`` with a detail."""
    return cause(at, Reason.REQUIRED, f"Required value: {detail}")


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
    template: Mapping[str, Any],
    at: str,
    *,
    claim_volumes: Iterable[str] = (),
    given: Mapping[str, Any] | None = None,
) -> list[Cause]:
    """``ValidatePodSpec``'s rules (the module docstring) of ``template``'s spec, the
    template at ``at``. ``claim_volumes``: the names of a StatefulSet's claim
    templates, volumes its validation adds to the pod's (``volumesToAddForTemplates``).
    ``given``: the template as the request sent it, for the values a message prints
    (``_go_security``)."""
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
    annotations = meta.get("annotations") if isinstance(meta, dict) else None
    annotations = annotations if isinstance(annotations, dict) else {}
    if annotations:
        found += _pod_annotations(annotations, spec, f"{at}.annotations")
    sent = spec if given is None else _sent_spec(given)
    volume_problems, volumes = _volumes(
        _items(spec.get("volumes")), f"{where}.volumes", _items(sent.get("volumes"))
    )
    found += volume_problems
    # a claim template's volume is a persistentVolumeClaim one
    volumes.update(dict.fromkeys(claim_volumes, True))
    pod_claims = spec.get("resourceClaims")
    claims: frozenset[str] = frozenset()
    if pod_claims:
        claim_problems, claims = _pod_claims(_items(pod_claims), f"{where}.resourceClaims")
        found += claim_problems
    security = spec.get("securityContext")
    security = security if isinstance(security, dict) else {}
    # hostUsers defaults to true: nil or true is the host's user namespace
    host_users = security.get("hostUsers") is not False
    grace = spec.get("terminationGracePeriodSeconds")
    grace = grace if isinstance(grace, int) else None
    restart = _text(spec.get("restartPolicy"))
    containers = _items(spec.get("containers"))
    if not containers:
        found.append(required(f"{where}.containers"))
    sent_containers = _items(sent.get("containers"))
    names: set[str] = set()
    host_ports: list[tuple[str, str]] = []
    for index, container in enumerate(containers):
        path = f"{where}.containers[{index}]"
        found += _container(container, volumes, path, host_users, host_ports, restart,
                            _at(sent_containers, index), claims)  # fmt: skip
        name = _text(container.get("name"))
        if name in names:
            found.append(duplicate(f"{path}.name", name))
        names.add(name)
        found += _lifecycle_and_probes(container, grace, path)
    # checkHostPortConflicts: across the regular containers, then each init container
    # on its own (they run one by one)
    found += _host_port_conflicts(host_ports)
    sent_inits = _items(sent.get("initContainers"))
    for index, container in enumerate(_items(spec.get("initContainers"))):
        path = f"{where}.initContainers[{index}]"
        init_host_ports: list[tuple[str, str]] = []
        found += _container(container, volumes, path, host_users, init_host_ports, restart,
                            _at(sent_inits, index), claims)  # fmt: skip
        name = _text(container.get("name"))
        # validateInitContainers: an empty name is not one the next may repeat
        if name in names:
            found.append(duplicate(f"{path}.name", name))
        elif name:
            names.add(name)
        found += _host_port_conflicts(init_host_ports)
        if container.get("restartPolicy") == "Always":
            found += _lifecycle_and_probes(container, grace, path)
        else:
            found += [forbidden(f"{path}.{each}", _INIT_FORBIDDEN) for each in _SIDECAR_ONLY
                      if container.get(each) is not None]  # fmt: skip
    ephemerals = _items(spec.get("ephemeralContainers"))
    if ephemerals:
        found += _ephemeral_containers(ephemerals, spec, volumes, where, host_users, restart,
                                       _items(sent.get("ephemeralContainers")), claims)  # fmt: skip
    resources = spec.get("resources")
    if isinstance(resources, dict):
        found += _pod_resources(spec, resources, sent, where, claims)
    if spec.get("hostNetwork") is True:
        found += _host_network_ports(containers, f"{where}.containers")
    found += restart_policy_problems(spec, where)
    sent_security = sent.get("securityContext")
    found += _pod_fields(
        spec, security, where, sent_security if isinstance(sent_security, dict) else {}
    )
    if annotations:
        found += _annotations_match_fields(annotations, spec, security, where)
    if ephemerals:
        found.append(
            forbidden(
                f"{where}.ephemeralContainers", "ephemeral containers not allowed in pod template"
            )
        )
    return found


def _not_zero(value: Any, key: str) -> bool:
    """Whether a container's field, as JSON, is not its Go zero value (null; for
    ``resources``, a struct, each of its fields null)."""
    if key == "resources":
        return isinstance(value, dict) and any(
            value.get(each) is not None for each in ("limits", "requests", "claims")
        )
    return value is not None


#: the ``EphemeralContainerCommon`` fields an ephemeral container may not set
#: (``allowedEphemeralContainerFields``' false ones and those it does not list), in
#: the Go struct's order
_NOT_EPHEMERAL = ("ports", "resources", "resizePolicy", "restartPolicy", "restartPolicyRules",
                  "livenessProbe", "readinessProbe", "startupProbe", "lifecycle")  # fmt: skip
_NOT_FOR_EPHEMERAL = "cannot be set for an Ephemeral Container"


def _ephemeral_containers(
    ephemerals: list[dict[str, Any]],
    spec: dict[str, Any],
    volumes: dict[str, bool],
    at: str,
    host_users: bool,
    restart: str,
    sent: list[dict[str, Any]],
    claims: frozenset[str],
) -> list[Cause]:
    """``validateEphemeralContainers`` (a template's are refused after all, but
    checked first): each one's ``validateContainerCommon``, an image without
    surrounding whitespace (``validateContainerOnlyForPod``), a name unique across
    every container, a target of a regular or init container, none of the
    ``_NOT_EPHEMERAL`` fields, no mount's subPath or subPathExpr."""
    others = {_text(each.get("name")) for kind in ("containers", "initContainers")
              for each in _items(spec.get(kind))}  # fmt: skip
    names = set(others)
    found: list[Cause] = []
    for index, container in enumerate(ephemerals):
        path = f"{at}.ephemeralContainers[{index}]"
        found += _container(
            container, volumes, path, host_users, [], restart, _at(sent, index), claims
        )
        image = _text(container.get("image"))
        if image != image.strip():
            detail = "must not have leading or trailing whitespace"
            found.append(invalid_cause(f"{path}.image", image, detail))
        name = _text(container.get("name"))
        if name in names:
            found.append(duplicate(f"{path}.name", name))
        names.add(name)
        target = _text(container.get("targetContainerName"))
        if target and target not in others:
            found.append(
                cause(
                    f"{path}.targetContainerName",
                    Reason.NOT_FOUND,
                    f"Not found: {bad_value(target)}",
                )
            )
        # not the Go zero value, as the request sent it: an empty list or map is a
        # non-nil one, and decoding left it out
        sent_container = _at(sent, index)
        found += [forbidden(f"{path}.{key}", _NOT_FOR_EPHEMERAL) for key in _NOT_EPHEMERAL
                  if _not_zero(sent_container.get(key), key)]  # fmt: skip
        for number, mount in enumerate(_items(container.get("volumeMounts"))):
            found += [forbidden(f"{path}.volumeMounts[{number}].{key}", _NOT_FOR_EPHEMERAL)
                      for key in ("subPath", "subPathExpr") if _text(mount.get(key))]  # fmt: skip
    return found


def _sent_spec(given: Mapping[str, Any]) -> dict[str, Any]:
    spec = given.get("spec")
    return spec if isinstance(spec, dict) else {}


def _at(items: list[dict[str, Any]], index: int) -> dict[str, Any]:
    """The item at ``index`` of the request's list (decoding keeps each item in its
    place), or an empty one."""
    return items[index] if index < len(items) else {}


_MIRROR = "kubernetes.io/config.mirror"
_TOLERATIONS = "scheduler.alpha.kubernetes.io/tolerations"
_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
_SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod"
_SECCOMP_PREFIX = "container.seccomp.security.alpha.kubernetes.io/"
_APPARMOR_PREFIX = "container.apparmor.security.beta.kubernetes.io/"
_DECIMAL_RE = re.compile("-?[0-9]+")


def _is_int32(text: str) -> bool:
    """``GetDeletionCostFromPodAnnotations``: ``validFirstDigit`` (a '-', a lone '0' or
    1-9 first: no '+', no leading zero), then ``strconv.ParseInt(text, 10, 32)``."""
    if not text or not (text[0] == "-" or text == "0" or "1" <= text[0] <= "9"):
        return False
    return bool(_DECIMAL_RE.fullmatch(text)) and -(2**31) <= int(text) < 2**31


def _pod_annotations(annotations: dict[str, Any], spec: dict[str, Any], at: str) -> list[Cause]:
    """``ValidatePodSpecificAnnotations`` of a template: a mirror pod's node name, the
    tolerations annotation's JSON and tolerations, the deletion cost an int32, the
    deprecated seccomp and AppArmor annotations' profiles and containers. The
    container annotations come in Go's random map order."""
    found: list[Cause] = []
    if _MIRROR in annotations and not _text(spec.get("nodeName")):
        detail = "must set spec.nodeName if mirror pod annotation is set"
        found.append(invalid_cause(f"{at}[{_MIRROR}]", _text(annotations[_MIRROR]), detail))
    if _text(annotations.get(_TOLERATIONS)):
        tolerations, problem = _annotation_tolerations(_text(annotations[_TOLERATIONS]))
        if problem is not None:
            found.append(invalid_cause(at, _TOLERATIONS, problem))
        else:
            found += _tolerations(tolerations, f"{at}.{_TOLERATIONS}")
    cost = annotations.get(_DELETION_COST)
    if isinstance(cost, str) and not _is_int32(cost):
        found.append(invalid_cause(f"{at}[{_DELETION_COST}]", cost, "must be a 32bit integer"))
    if _SECCOMP_POD in annotations:
        found += _seccomp_annotation(_text(annotations[_SECCOMP_POD]), f"{at}.{_SECCOMP_POD}")
    for key, value in annotations.items():
        if key.startswith(_SECCOMP_PREFIX):
            found += _seccomp_annotation(_text(value), f"{at}.{key}")
    for key, value in annotations.items():
        if not key.startswith(_APPARMOR_PREFIX):
            continue
        name, value = key[len(_APPARMOR_PREFIX) :], _text(value)
        if not any(name == _text(each.get("name")) for each, _ in _all_containers(spec)):
            found.append(invalid_cause(f"{at}[{key}]", name, "container not found"))
        if value not in ("", "runtime/default", "unconfined") and not value.startswith(
            "localhost/"
        ):
            detail = f"invalid AppArmor profile name: {go_quote(value)}"
            found.append(invalid_cause(f"{at}[{key}]", value, detail))
    return found


#: core.Toleration's fields (the internal type: no JSON tags, so encoding/json matches
#: the Go names case-insensitively) and the Go types its errors name
_TOLERATION_FIELDS = {
    name.lower(): (name, go_name, go_type)
    for name, go_name, go_type in (
        ("key", "Key", "string"),
        ("operator", "Operator", "core.TolerationOperator"),
        ("value", "Value", "string"),
        ("effect", "Effect", "core.TaintEffect"),
        ("tolerationSeconds", "TolerationSeconds", "int64"),
    )
}


class _JsonFraction(str):
    """A JSON number with a fraction or an exponent, as written (encoding/json names
    the literal in an ``UnmarshalTypeError`` for an integer field)."""


def _annotation_tolerations(text: str) -> tuple[list[dict[str, Any]], str | None]:
    """``GetTolerationsFromPodAnnotations``: the annotation ``json.Unmarshal``-ed into
    ``[]core.Toleration`` (encoding/json: its syntax error; else the first type error,
    decoding going on past it), as the fields ``_tolerations`` reads."""
    value, problem = go_json_decode(go_bytes(text), parse_float=_JsonFraction)
    if problem is not None:
        return [], problem
    if value is None:
        return [], None
    if not isinstance(value, list):
        return [], unmarshal_type_error(_kind(value), "[]core.Toleration")
    tolerations: list[dict[str, Any]] = []
    first: str | None = None
    for item in value:
        toleration: dict[str, Any] = {}
        tolerations.append(toleration)
        if item is None:
            continue
        if not isinstance(item, dict):
            first = first or unmarshal_type_error(_kind(item), "core.Toleration")
            continue
        for name, field_value in item.items():
            if name.lower() not in _TOLERATION_FIELDS or field_value is None:
                continue  # an unknown field is dropped; null leaves the zero value
            field, go_name, go_type = _TOLERATION_FIELDS[name.lower()]
            what = _kind(field_value)
            if what == "number" and go_type == "int64":
                fits = isinstance(field_value, int) and -(2**63) <= field_value < 2**63
                what = "number" if fits else f"number {field_value}"  # the literal
            if what == ("number" if go_type == "int64" else "string"):
                toleration[field] = field_value
            else:
                first = first or unmarshal_type_error(what, go_type, f"Toleration.{go_name}")
    return tolerations, first


def _kind(value: Any) -> str:
    return "number" if isinstance(value, _JsonFraction) else json_kind(value)


def _all_containers(spec: dict[str, Any], at: str = "") -> list[tuple[dict[str, Any], str]]:
    """``VisitContainersWithPath``: each init, regular and ephemeral container, with its
    path under the spec's path ``at``."""
    return [
        (container, f"{at}.{kind}[{index}]")
        for kind in ("initContainers", "containers", "ephemeralContainers")
        for index, container in enumerate(_items(spec.get(kind)))
    ]


def _seccomp_annotation(profile: str, at: str) -> list[Cause]:
    """``ValidateSeccompProfile`` of an annotation's value."""
    if profile in ("runtime/default", "docker/default", "unconfined"):
        return []
    if profile.startswith("localhost/"):
        return _descending_path(profile.removeprefix("localhost/"), at)
    return [invalid_cause(at, profile, "must be a valid seccomp profile")]


def _annotations_match_fields(
    annotations: dict[str, Any], spec: dict[str, Any], security: dict[str, Any], at: str
) -> list[Cause]:
    """``validateSeccompAnnotationsAndFields`` and
    ``validateAppArmorAnnotationsAndFieldsMatchOnCreate``: a deprecated annotation
    beside a profile field must say the same (``at``: the spec's path)."""
    found: list[Cause] = []
    pod_seccomp = security.get("seccompProfile")
    if isinstance(pod_seccomp, dict) and _SECCOMP_POD in annotations:
        found += _profiles_match(
            "seccomp",
            _text(annotations[_SECCOMP_POD]),
            pod_seccomp,
            f"{at}.securityContext.seccompProfile",
        )
    containers = _all_containers(spec, at)
    windows = _windows(spec)
    for kind, key, prefix, pod_profile in (
        ("seccomp", "seccompProfile", _SECCOMP_PREFIX, None),
        # a container without its own AppArmor profile has the pod's; windows pods skip it
        ("apparmor", "appArmorProfile", _APPARMOR_PREFIX, security.get("appArmorProfile")),
    ):
        if kind == "apparmor" and windows:
            break
        for container, path in containers:
            context = container.get("securityContext")
            profile = context.get(key) if isinstance(context, dict) else None
            profile = profile if isinstance(profile, dict) else pod_profile
            annotation = annotations.get(prefix + _text(container.get("name")))
            if isinstance(profile, dict) and annotation is not None:
                where = f"{path}.securityContext.{key}"
                found += _profiles_match(kind, _text(annotation), profile, where)
    return found


def _profiles_match(kind: str, annotation: str, profile: dict[str, Any], at: str) -> list[Cause]:
    """``validateSeccompAnnotationsAndFieldsMatch`` and its AppArmor twin: the
    annotation's value names the field's type (and its localhost profile)."""
    expected: dict[str, tuple[str, ...]] = {
        "Unconfined": ("unconfined",),
        "RuntimeDefault": ("runtime/default",),
    }
    if kind == "seccomp":
        expected["RuntimeDefault"] = ("runtime/default", "docker/default")
    kind_of = _text(profile.get("type"))
    if (kind_of in expected and annotation not in expected[kind_of]) or (
        kind_of == "Localhost" and not annotation.startswith("localhost/")
    ):
        return [forbidden(f"{at}.type", f"{kind} type in annotation and field must match")]
    local = profile.get("localhostProfile")
    if kind_of == "Localhost" and (local is None or annotation.removeprefix("localhost/") != local):
        return [
            forbidden(
                f"{at}.localhostProfile", f"{kind} profile in annotation and field must match"
            )
        ]
    return []


def _volumes(
    volumes: list[dict[str, Any]], at: str, sent: list[dict[str, Any]]
) -> tuple[list[Cause], dict[str, bool]]:
    """``ValidateVolumes``: the problems, and the names of the volumes without any,
    each with whether a block device may be of it (``isMatchedDevice``: a claim or an
    ephemeral volume). ``sent``: the volumes as the request sent them."""
    found: list[Cause] = []
    good: dict[str, bool] = {}
    for index, volume in enumerate(volumes):
        path = f"{at}[{index}]"
        problems: list[Cause] = []
        sources = sorted(_SOURCE_ORDER[key] for key, value in volume.items()
                         if value is not None and key in _SOURCE_ORDER)  # fmt: skip
        for rank, order in enumerate(sources):
            # the first source in the Go order is checked, each later one forbidden
            key, go_name = _VOLUME_SOURCES[order]
            if rank:
                problems.append(
                    forbidden(f"{path}.{go_name}", "may not specify more than 1 volume type")
                )
            else:
                check, source = _SOURCE_CHECKS.get(key), volume[key]
                if key == "ephemeral" and isinstance(source, dict):
                    problems += _ephemeral(source, f"{path}.ephemeral", _at(sent, index))
                elif check is not None and isinstance(source, dict):
                    problems += check(source, f"{path}.{_CHECK_PATHS.get(key, key)}")
            if key == "iscsi":
                problems += _iscsi_volume_name(volume, path)
        if not sources:
            problems.append(_required_detail(path, "must specify a volume type"))
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
            good[name] = bool(sources) and _VOLUME_SOURCES[sources[0]][0] in _BLOCK_SOURCES
    return found, good


_BLOCK_SOURCES = ("persistentVolumeClaim", "ephemeral")


#: ``fileModeErrorMsg``
_FILE_MODE = "must be a number between 0 and 0777 (octal), both inclusive"
#: ``supportedHostPathTypes``, sorted
_HOST_PATH_TYPES = ("", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File",
                    "FileOrCreate", "Socket")  # fmt: skip


def _mode(source: dict[str, Any], key: str, at: str) -> list[Cause]:
    mode = source.get(key)
    if isinstance(mode, int) and not 0 <= mode <= 0o777:
        return [invalid_cause(f"{at}.{key}", mode, _FILE_MODE)]
    return []


def _empty_dir(source: dict[str, Any], at: str) -> list[Cause]:
    limit = source.get("sizeLimit")
    text = str(limit) if limit is not None else ""
    if text[:1] == "-" and _above("0", text):
        detail = "SizeLimit field must be a valid resource quantity"
        return [forbidden(f"{at}.sizeLimit", detail)]
    return []


def _host_path(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateHostPathVolumeSource`` (defaulted: a type)."""
    target = _text(source.get("path"))
    if not target:
        return [required(f"{at}.path")]
    found = _no_backsteps(target, f"{at}.path")
    kind = source.get("type")
    if isinstance(kind, str) and kind not in _HOST_PATH_TYPES:
        found.append(not_supported(f"{at}.type", kind, _HOST_PATH_TYPES, named=True))
    return found


def _key_to_paths(items: Any, at: str) -> list[Cause]:
    """``validateKeyToPath`` of each item."""
    found: list[Cause] = []
    for index, item in enumerate(_items(items)):
        found += _key_to_path(item, f"{at}[{index}]")
    return found


def _key_to_path(item: dict[str, Any], at: str) -> list[Cause]:
    """``validateKeyToPath``: a key, a local path, a mode."""
    found = [] if _text(item.get("key")) else [required(f"{at}.key")]
    target = _text(item.get("path"))
    if not target:
        found.append(required(f"{at}.path"))
    found += _local_path(target, f"{at}.path")
    return found + _mode(item, "mode", at)


def _named_source(name_key: str) -> Callable[[dict[str, Any], str], list[Cause]]:
    """``validateSecretVolumeSource`` / ``validateConfigMapVolumeSource``: a name,
    the default mode, the items."""

    def check(source: dict[str, Any], at: str) -> list[Cause]:
        found = [] if _text(source.get(name_key)) else [required(f"{at}.{name_key}")]
        found += _mode(source, "defaultMode", at)
        if source.get("items"):
            found += _key_to_paths(source["items"], f"{at}.items")
        return found

    return check


def _claim(source: dict[str, Any], at: str) -> list[Cause]:
    return [] if _text(source.get("claimName")) else [required(f"{at}.claimName")]


def _projected(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateProjectedVolumeSource``: the default mode, then each source's
    secret, configMap and serviceAccountToken (their paths unique across the volume,
    the conflict at the volume's path, a token's missing path too: upstream quirks)
    and downwardAPI; a cluster trust bundle or pod certificate source counts as a kind
    (their gates are off: dropped before, they are never here when the store asks)."""
    found = _mode(source, "defaultMode", at)
    paths: set[str] = set()
    for index, each in enumerate(_items(source.get("sources"))):
        where = f"{at}.sources[{index}]"
        count = 0
        for kind in ("secret", "configMap"):
            projection = each.get(kind)
            if not isinstance(projection, dict):
                continue
            count += 1
            name = _text(projection.get("name"))
            if not name:
                found.append(required(f"{where}.{kind}.name"))
            for number, item in enumerate(_items(projection.get("items"))):
                found += _key_to_path(item, f"{where}.{kind}.items[{number}]")
                found += _unique_path(_text(item.get("path")), paths, at, name)
        downward = each.get("downwardAPI")
        if isinstance(downward, dict):
            count += 1
            for item in _items(downward.get("items")):
                target = _text(item.get("path"))
                found += _downward_file(item, f"{where}.downwardAPI")
                found += _unique_path(target, paths, at, target)
        for kind in ("clusterTrustBundle", "podCertificate"):
            count += isinstance(each.get(kind), dict)
        token = each.get("serviceAccountToken")
        if isinstance(token, dict):
            count += 1
            seconds = _int(token.get("expirationSeconds"))
            where_seconds = f"{where}.serviceAccountToken.expirationSeconds"
            if seconds < 600:
                found.append(
                    invalid_cause(
                        where_seconds, seconds, "may not specify a duration less than 10 minutes"
                    )
                )
            if seconds > 1 << 32:
                found.append(
                    invalid_cause(
                        where_seconds,
                        seconds,
                        "may not specify a duration larger than 2^32 seconds",
                    )
                )
            target = _text(token.get("path"))
            if not target:
                found.append(required(f"{at}.path"))
            else:
                found += _local_path(target, f"{at}.path")
        if count > 1:
            found.append(forbidden(where, "may not specify more than 1 volume type per source"))
    return found


def _container(
    container: Mapping[str, Any],
    volumes: dict[str, bool],
    at: str,
    host_users: bool,
    host_ports: list[tuple[str, str]],
    restart: str,
    sent: dict[str, Any],
    claims: frozenset[str],
) -> list[Cause]:
    """``validateContainerCommon``, the parts the module docstring lists; each host
    port's path and key added to ``host_ports``. ``sent``: the container as the request
    sent it; ``claims``: the pod's resource claims' names."""
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
    found += _ports(_items(container.get("ports")), f"{at}.ports", host_ports)
    found += _env(_items(container.get("env")), f"{at}.env")
    if container.get("envFrom"):
        found += _env_from(_items(container.get("envFrom")), f"{at}.envFrom")
    mounts, devices = _items(container.get("volumeMounts")), container.get("volumeDevices")
    if devices:
        found += _mounts_and_devices(container, mounts, _items(devices), volumes, at)
    elif mounts:
        found += _mounts(container, mounts, volumes, f"{at}.volumeMounts", {})
    pull = _text(container.get("imagePullPolicy"))
    if not pull:
        found.append(required(f"{at}.imagePullPolicy"))
    elif pull not in _PULL_POLICIES:
        found.append(not_supported(f"{at}.imagePullPolicy", pull, _PULL_POLICIES, named=True))
    resources = container.get("resources")
    if isinstance(resources, dict):
        found += _resources(resources, f"{at}.resources", claims)
    if container.get("resizePolicy"):
        found += _resize_policy(_items(container["resizePolicy"]), f"{at}.resizePolicy", restart)
    security = container.get("securityContext")
    if isinstance(security, dict) and security:
        found += _container_security(
            security, f"{at}.securityContext", host_users, sent.get("securityContext")
        )
    return found


_RESIZE_RESOURCES = ("cpu", "memory")
_RESIZE_POLICIES = ("NotRequired", "RestartContainer")


def _resize_policy(policies: list[dict[str, Any]], at: str, restart: str) -> list[Cause]:
    """``validateResizePolicy`` (InPlacePodVerticalScaling, beta and on): a resource
    once, cpu or memory, a policy, NotRequired when the pod never restarts; most
    errors at the list's path, as upstream."""
    found: list[Cause] = []
    seen: set[str] = set()
    for index, policy in enumerate(policies):
        resource = _text(policy.get("resourceName"))
        if resource in seen:
            found.append(duplicate(f"{at}[{index}]", resource, named=True))
        seen.add(resource)
        if not resource:
            found.append(required(at))
        elif resource not in _RESIZE_RESOURCES:
            found.append(not_supported(at, resource, _RESIZE_RESOURCES, named=True))
        action = _text(policy.get("restartPolicy"))
        if not action:
            found.append(required(at))
        elif action not in _RESIZE_POLICIES:
            found.append(not_supported(at, action, _RESIZE_POLICIES, named=True))
        if restart == "Never" and action != "NotRequired":
            detail = "must be 'NotRequired' when `restartPolicy` is 'Never'"
            found.append(invalid_cause(at, action, detail, named=True))
    return found


_PROBES = ("livenessProbe", "readinessProbe", "startupProbe")
#: ``validateHandler``'s order; a probe has no sleep and a lifecycle handler no grpc
#: (decoding drops them)
_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc", "sleep")
_PROBE_COUNTS = ("initialDelaySeconds", "timeoutSeconds", "periodSeconds",
                 "successThreshold", "failureThreshold")  # fmt: skip
_NONNEGATIVE = "must be greater than or equal to 0"
_SCHEMES = ("HTTP", "HTTPS")
_HEADER_RE = re.compile("[-A-Za-z0-9]+")
_HEADER_MESSAGE = ("a valid HTTP header must consist of alphanumeric characters or '-' (e.g. "
                   "'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')")  # fmt: skip


def _lifecycle_and_probes(container: dict[str, Any], grace: int | None, at: str) -> list[Cause]:
    """What ``validateContainers`` checks after a container's name, as it does for a
    sidecar init container: ``validateLifecycle`` (postStart, then preStop; a stop
    signal is of the ContainerStopSignals gate, alpha and off in 1.34), then the probes."""
    found: list[Cause] = []
    lifecycle = container.get("lifecycle")
    if isinstance(lifecycle, dict):
        for hook in ("postStart", "preStop"):
            handler = lifecycle.get(hook)
            if isinstance(handler, dict):
                found += _handler(handler, grace, f"{at}.lifecycle.{hook}")
    for probe in _PROBES:
        found += _probe(container, probe, grace, f"{at}.{probe}")
    return found


def _handler(handler: dict[str, Any], grace: int | None, at: str) -> list[Cause]:
    """``validateHandler``: one handler (the later ones forbidden) and its fields: an
    exec's command, an httpGet's path, port and scheme, a tcpSocket's or grpc's port,
    a sleep within the pod's grace period."""
    found: list[Cause] = []
    handlers = [each for each in _HANDLERS if isinstance(handler.get(each), dict)]
    for extra in handlers[1:]:
        found.append(forbidden(f"{at}.{extra}", "may not specify more than 1 handler type"))
    if not handlers:
        found.append(_required_detail(at, "must specify a handler type"))
    elif handlers[0] == "exec" and not handler["exec"].get("command"):
        found.append(required(f"{at}.exec.command"))
    elif handlers[0] == "httpGet":
        action = handler["httpGet"]
        if not _text(action.get("path")):
            found.append(required(f"{at}.httpGet.path"))
        found += _port_num_or_name(action.get("port"), f"{at}.httpGet.port")
        scheme = _text(action.get("scheme"))
        if scheme not in _SCHEMES:
            found.append(not_supported(f"{at}.httpGet.scheme", scheme, _SCHEMES, named=True))
        for header in _items(action.get("httpHeaders")):
            # IsHTTPHeaderName; the path has no index upstream
            name = _text(header.get("name"))
            if not _HEADER_RE.fullmatch(name):
                found.append(invalid_cause(f"{at}.httpGet.httpHeaders", name, _HEADER_MESSAGE))
    elif handlers[0] in ("tcpSocket", "grpc"):
        port = handler[handlers[0]].get("port")
        # a grpc port is an int32: intstr.FromInt32
        port = port if handlers[0] == "tcpSocket" else _int(port)
        found += _port_num_or_name(port, f"{at}.{handlers[0]}.port")
    elif handlers[0] == "sleep":
        # validateSleepAction with PodLifecycleSleepActionAllowZero (GA in 1.34)
        seconds = _int(handler["sleep"].get("seconds"))
        if grace is not None and not 0 <= seconds <= grace:
            detail = f"must be non-negative and less than terminationGracePeriodSeconds ({grace})"
            found.append(invalid_cause(f"{at}.sleep", seconds, detail))
    return found


def _probe(container: dict[str, Any], kind: str, grace: int | None, at: str) -> list[Cause]:
    """``validateLivenessProbe`` and its siblings (defaulted: a probe's counts, an
    httpGet's path and scheme): ``validateHandler``, the counts not negative, a
    positive grace period; a liveness or startup probe succeeds once, a readiness
    probe has no grace period."""
    probe = container.get(kind)
    if not isinstance(probe, dict):
        return []
    found = _handler(probe, grace, at)
    for name in _PROBE_COUNTS:
        value = _int(probe.get(name))
        if value < 0:
            found.append(invalid_cause(f"{at}.{name}", value, _NONNEGATIVE))
    own = probe.get("terminationGracePeriodSeconds")
    if isinstance(own, int) and own <= 0:
        found.append(
            invalid_cause(f"{at}.terminationGracePeriodSeconds", own, "must be greater than 0")
        )
    success = _int(probe.get("successThreshold"))
    if kind != "readinessProbe" and success != 1:
        found.append(invalid_cause(f"{at}.successThreshold", success, "must be 1"))
    if kind == "readinessProbe" and isinstance(own, int):
        detail = "must not be set for readinessProbes"
        found.append(invalid_cause(f"{at}.terminationGracePeriodSeconds", own, detail))
    return found


def _port_num_or_name(port: Any, at: str) -> list[Cause]:
    """``ValidatePortNumOrName`` of an IntOrString."""
    if isinstance(port, str):
        return [invalid_cause(at, port, m) for m in _port_name(port)]
    number = _int(port)
    return [] if 1 <= number <= 65535 else [invalid_cause(at, number, _PORT_RANGE)]


def _ports(ports: list[dict[str, Any]], at: str, host_ports: list[tuple[str, str]]) -> list[Cause]:
    """``validateContainerPorts``; each host port's path and key (protocol, host IP,
    port) added to ``host_ports``, for ``checkHostPortConflicts`` (after the containers)."""
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
        protocol = _text(port.get("protocol"))
        if host:
            if not 1 <= host <= 65535:
                found.append(invalid_cause(f"{path}.hostPort", host, _PORT_RANGE))
            key = f"{protocol}/{_text(port.get('hostIP'))}/{host}"
            host_ports.append((f"{path}.hostPort", key))
        if not protocol:
            found.append(required(f"{path}.protocol"))
        elif protocol not in PROTOCOLS:
            found.append(not_supported(f"{path}.protocol", protocol, PROTOCOLS, named=True))
    return found


def _env(variables: list[dict[str, Any]], at: str) -> list[Cause]:
    """``ValidateEnv`` (``IsRelaxedEnvVarName``: the feature is GA and locked on in
    1.34) and ``validateEnvVarValueFrom``: each source's fields, their count."""
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
        where = f"{path}.valueFrom"
        count = 0
        for kind in _ENV_SOURCES:
            ref = source.get(kind)
            if isinstance(ref, dict):
                count += 1
                found += _ENV_SOURCE_CHECKS[kind](ref, f"{where}.{kind}")
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


#: ``validEnvDownwardAPIFieldPathExpressions``, sorted
_ENV_FIELD_PATHS = ("metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
                    "spec.serviceAccountName", "status.hostIP", "status.hostIPs",
                    "status.podIP", "status.podIPs")  # fmt: skip
#: ``validVolumeDownwardAPIFieldPathExpressions``, sorted
_VOLUME_FIELD_PATHS = ("metadata.annotations", "metadata.labels", "metadata.name",
                       "metadata.namespace", "metadata.uid")  # fmt: skip
#: what ``ConvertDownwardAPIFieldLabel`` (pkg/apis/core/pods/helpers.go) takes of v1
_FIELD_LABELS = frozenset(("metadata.annotations", "metadata.labels", "metadata.name",
    "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.restartPolicy",
    "spec.serviceAccountName", "spec.schedulerName", "status.phase", "status.hostIP",
    "status.hostIPs", "status.podIP", "status.podIPs"))  # fmt: skip
#: ``validContainerResourceFieldPathExpressions``, sorted
_RESOURCE_FIELDS = ("limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu",
                    "requests.ephemeral-storage", "requests.memory")  # fmt: skip
_BYTE_DIVISORS = frozenset(("1", "1k", "1M", "1G", "1T", "1P", "1E",
                            "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"))  # fmt: skip
_BYTE_DIVISOR_MESSAGE = ("only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, "
                         "1Pi, 1Ei are supported with the ")  # fmt: skip


def _key_selector(ref: dict[str, Any], at: str) -> list[Cause]:
    """``validateConfigMapKeySelector`` / ``validateSecretKeySelector``: the name
    a DNS subdomain (an empty one too: it is checked as it is), a key
    (``IsConfigMapKey``)."""
    name, key = _text(ref.get("name")), _text(ref.get("key"))
    name_messages, key_messages = _key_ref_messages(name, key)
    if key and not name_messages and not key_messages:
        return []
    found = [invalid_cause(f"{at}.name", name, m) for m in name_messages]
    if not key:
        found.append(required(f"{at}.key"))
    return found + [invalid_cause(f"{at}.key", key, m) for m in key_messages]


# most templates name a few keys of a few ConfigMaps and Secrets, valid ones: cached
@functools.lru_cache(maxsize=512)
def _key_ref_messages(name: str, key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What is wrong with a key selector's name and (non-empty) key."""
    # an empty key is the caller's Required, not IsConfigMapKey's
    return tuple(_subdomain(name)), config_key_problems(key) if key else ()


def _field_ref(
    ref: dict[str, Any], at: str, paths: tuple[str, ...] = _ENV_FIELD_PATHS
) -> list[Cause]:
    """``validateObjectFieldSelector`` (defaulted: apiVersion v1)."""
    version = _text(ref.get("apiVersion"))
    if not version:
        return [required(f"{at}.apiVersion")]
    label = _text(ref.get("fieldPath"))
    if not label:
        return [required(f"{at}.fieldPath")]
    # ConvertDownwardAPIFieldLabel, then fieldpath.SplitMaybeSubscriptedPath
    base, sub = label, None
    if label.endswith("']") and "['" in label and not label.startswith("['"):
        base, sub = label[:-2].split("['", 1)
    problem = ""
    if version != "v1":
        problem = f"unsupported pod version: {version}"
    elif sub is not None and base not in ("metadata.annotations", "metadata.labels"):
        problem = f"field label does not support subscript: {label}"
    elif sub is None and label not in _FIELD_LABELS and label != "spec.host":
        problem = f"field label not supported: {label}"
    if problem:
        return [invalid_cause(f"{at}.fieldPath", label, f"error converting fieldPath: {problem}")]
    if sub is not None:
        sub = sub.lower() if base == "metadata.annotations" else sub
        return [invalid_cause(at, sub, m) for m in qualified_name(sub)]
    base = "spec.nodeName" if label == "spec.host" else label
    if base not in paths:
        return [not_supported(f"{at}.fieldPath", base, paths)]
    return []


def _resource_ref(ref: dict[str, Any], at: str, *, volume: bool = False) -> list[Cause]:
    """``validateContainerResourceFieldSelector`` and ``validateContainerResourceDivisor``
    (a volume's item names its container)."""
    found: list[Cause] = []
    resource = _text(ref.get("resource"))
    if volume and not _text(ref.get("containerName")):
        found.append(required(f"{at}.containerName"))
    elif not resource:
        found.append(required(f"{at}.resource"))
    elif resource not in _RESOURCE_FIELDS and not resource.startswith(
        ("requests.hugepages-", "limits.hugepages-")
    ):
        found.append(not_supported(f"{at}.resource", resource, _RESOURCE_FIELDS))
    divisor = ref.get("divisor")
    # an unset divisor is the zero Quantity: not checked
    if divisor is None or not _differ(str(divisor), "0"):
        return found
    try:
        text = stored_quantity(str(divisor))
    except (ValueError, ZeroDivisionError):
        return found
    kind = _DIVISOR_KINDS.get(resource)
    if kind is None and resource.startswith(("requests.hugepages-", "limits.hugepages-")):
        kind = "hugepages"
    if kind == "cpu" and text not in ("1m", "1"):
        detail = "only divisor's values 1m and 1 are supported with the cpu resource"
        found.append(invalid_cause(f"{at}.divisor", resource, detail))
    elif kind not in (None, "cpu") and text not in _BYTE_DIVISORS:
        found.append(
            invalid_cause(f"{at}.divisor", resource, f"{_BYTE_DIVISOR_MESSAGE}{kind} resource")
        )
    return found


#: the resources whose divisor ``validateContainerResourceDivisor`` checks, and its word
#: for each
_DIVISOR_KINDS = {
    "limits.cpu": "cpu", "requests.cpu": "cpu", "limits.memory": "memory",
    "requests.memory": "memory", "limits.ephemeral-storage": "local ephemeral storage",
    "requests.ephemeral-storage": "local ephemeral storage",
}  # fmt: skip


def _downward_file(item: dict[str, Any], at: str) -> list[Cause]:
    """``validateDownwardAPIVolumeFile`` (``at``: the source's path: upstream adds no
    item index)."""
    target = _text(item.get("path"))
    found = [] if target else [required(f"{at}.path")]
    found += _local_path(target, f"{at}.path")
    field_ref, resource_ref = item.get("fieldRef"), item.get("resourceFieldRef")
    if isinstance(field_ref, dict):
        found += _field_ref(field_ref, f"{at}.fieldRef", _VOLUME_FIELD_PATHS)
        if isinstance(resource_ref, dict):
            detail = "fieldRef and resourceFieldRef can not be specified simultaneously"
            found.append(invalid_cause(at, "resource", detail))
    elif isinstance(resource_ref, dict):
        found += _resource_ref(resource_ref, f"{at}.resourceFieldRef", volume=True)
    else:
        detail = "one of fieldRef and resourceFieldRef is required"
        found.append(_required_detail(at, detail))
    return found + _mode(item, "mode", at)


def _downward_api(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateDownwardAPIVolumeSource``."""
    found = _mode(source, "defaultMode", at)
    for item in _items(source.get("items")):
        found += _downward_file(item, at)
    return found


_ENV_SOURCE_CHECKS: dict[str, Callable[[dict[str, Any], str], list[Cause]]] = {
    "fieldRef": _field_ref,
    "resourceFieldRef": _resource_ref,
    "configMapKeyRef": _key_selector,
    "secretKeyRef": _key_selector,
}


def _unique_path(target: str, paths: set[str], at: str, value: str) -> list[Cause]:
    """A projected volume's file paths are unique across its sources; the conflict is
    reported at the volume's path, printing ``value`` (the source's name, or the path)."""
    if target in paths:
        return [invalid_cause(at, value, "conflicting duplicate paths")]
    if target:
        paths.add(target)
    return []


def _csi(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateCSIVolumeSource``: ``ValidateCSIDriverName``, then the secret's name
    (an invalid one reported at ``csi.name``, as upstream)."""
    driver = _text(source.get("driver"))
    found = [] if driver else [required(f"{at}.driver")]
    if len(driver) > 63:
        found.append(
            cause(f"{at}.driver", Reason.TOO_LONG, "Too long: may not be more than 63 bytes")
        )
    found += [invalid_cause(f"{at}.driver", driver, m) for m in _subdomain(driver.lower())]
    secret = source.get("nodePublishSecretRef")
    if isinstance(secret, dict):
        name = _text(secret.get("name"))
        if not name:
            found.append(required(f"{at}.nodePublishSecretRef.name"))
        else:
            found += [invalid_cause(f"{at}.name", name, m) for m in _subdomain(name)]
    return found


def _ephemeral(source: dict[str, Any], at: str, sent_volume: dict[str, Any]) -> list[Cause]:
    """``validateEphemeralVolumeSource``: a claim template, by
    ``ValidatePersistentVolumeClaimTemplate`` (a template's is no pod's: the claim's
    name is not checked). ``sent_volume``: the volume as the request sent it."""
    template = source.get("volumeClaimTemplate")
    if not isinstance(template, dict):
        return [required(f"{at}.volumeClaimTemplate")]
    at = f"{at}.volumeClaimTemplate"
    meta, spec = template.get("metadata"), template.get("spec")
    meta = meta if isinstance(meta, dict) else {}
    sent = as_mapping(
        as_mapping(as_mapping(sent_volume.get("ephemeral")).get("volumeClaimTemplate")).get(
            "metadata"
        )
    )
    # an empty list the request sent is a Go slice of length 0, not nil: set (decoding,
    # omitempty, left it out)
    meta = {**meta, **{key: [] for key in _TEMPLATE_META_LISTS if sent.get(key) == []}}
    return _template_meta(meta, f"{at}.metadata") + claim_spec_problems(
        spec if isinstance(spec, dict) else {}, f"{at}.spec"
    )


_TEMPLATE_META_LISTS = ("ownerReferences", "finalizers", "managedFields")


#: ``ObjectMeta``'s fields but labels and annotations, in its order: a template may
#: set none (``validateFieldAllowList``), each named as that function names it (the Go
#: field's name, its first letter lowered: UID is ``uID``)
_NOT_TEMPLATE_META = (("name", "name"), ("generateName", "generateName"),
                      ("namespace", "namespace"), ("selfLink", "selfLink"), ("uid", "uID"),
                      ("resourceVersion", "resourceVersion"), ("generation", "generation"),
                      ("creationTimestamp", "creationTimestamp"),
                      ("deletionTimestamp", "deletionTimestamp"),
                      ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
                      ("ownerReferences", "ownerReferences"), ("finalizers", "finalizers"),
                      ("managedFields", "managedFields"))  # fmt: skip
#: the fields whose zero value JSON can give: a string's "", generation's 0 (a pointer
#: or a slice is set by any value but null: an empty list, 0 seconds)
_ZERO_VALUES: dict[str, tuple[object, ...]] = {
    **dict.fromkeys(("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion"), ("",)),
    "generation": (0,),
}  # fmt: skip


def _template_meta(meta: dict[str, Any], at: str) -> list[Cause]:
    """``ValidateTemplateObjectMeta``: the annotations, the labels, and none of the
    other fields set (not their Go zero value: reflect.DeepEqual, so an empty list is
    set)."""
    problems = sorted(labels_and_annotations_problems(meta), key=lambda each: each[0] == "labels")
    found = [cause(f"{at}.{key}", reason, body) for key, reason, body in problems]
    return found + [
        forbidden(f"{at}.{name}", "cannot be set")
        for key, name in _NOT_TEMPLATE_META
        if meta.get(key) is not None and meta[key] not in _ZERO_VALUES.get(key, ())
    ]


#: ``supportedAccessModes`` and ``supportedVolumeModes``, sorted
_ACCESS_MODES = ("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")
_VOLUME_MODES = ("Block", "Filesystem")


def claim_spec_problems(spec: dict[str, Any], at: str, *, any_group: bool = False) -> list[Cause]:
    """``ValidatePersistentVolumeClaimSpec`` (VolumeAttributesClass GA and on) of an
    ephemeral volume's claim template and of a claim (``validation.claims``): access
    modes (one at least, known, ReadWriteOncePod alone), the selector, a positive
    storage request (at ``resources[storage]``, as upstream), the class names DNS
    subdomains, the volume mode, the data source and its ref, alike. ``any_group``:
    ``AllowInvalidAPIGroupInDataSourceOrRef``, a data source's group not checked."""
    found: list[Cause] = []
    modes = [_text(mode) for mode in spec.get("accessModes") or ()]
    if not modes:
        found.append(_required_detail(f"{at}.accessModes", "at least 1 access mode is required"))
    selector = spec.get("selector")
    if isinstance(selector, dict):
        found += label_selector_problems(selector, f"{at}.selector")
    found += [not_supported(f"{at}.accessModes", mode, _ACCESS_MODES, named=True)
              for mode in modes if mode not in _ACCESS_MODES]  # fmt: skip
    if "ReadWriteOncePod" in modes and any(
        mode in _ACCESS_MODES and mode != "ReadWriteOncePod" for mode in modes
    ):
        detail = "may not use ReadWriteOncePod with other access modes"
        found.append(forbidden(f"{at}.accessModes", detail))
    storage = _requirements(spec, "requests").get("storage")
    if storage is None:
        found.append(required(f"{at}.resources[storage]"))
    elif _quantity(storage) <= 0:
        found.append(
            invalid_cause(f"{at}.resources[storage]", str(storage), "must be greater than zero")
        )
    found += _class_name(spec, "storageClassName", at)
    mode = spec.get("volumeMode")
    if isinstance(mode, str) and mode not in _VOLUME_MODES:
        found.append(not_supported(f"{at}.volumeMode", mode, _VOLUME_MODES, named=True))
    source, ref = spec.get("dataSource"), spec.get("dataSourceRef")
    if isinstance(source, dict):
        found += _data_source(source, f"{at}.dataSource", any_group)
    if isinstance(ref, dict):
        found += _data_source(ref, f"{at}.dataSourceRef", any_group)
        namespace = _text(ref.get("namespace"))
        found += [invalid_cause(f"{at}.dataSourceRef.namespace", namespace, m)
                  for m in (_label(namespace) if namespace else ())]  # fmt: skip
        # the value is the *field.Path of dataSource: json.Marshal'ed, {}
        if namespace and isinstance(source, dict):
            detail = "may not be specified when dataSourceRef.namespace is specified"
            found.append(cause(at, Reason.INVALID, f"Invalid value: {{}}: {detail}"))
        elif isinstance(source, dict) and any(
            source.get(key) != ref.get(key) for key in ("apiGroup", "kind", "name")
        ):
            found.append(cause(at, Reason.INVALID, "Invalid value: {}: must match dataSourceRef"))
    return found + _class_name(spec, "volumeAttributesClassName", at)


def _class_name(spec: dict[str, Any], key: str, at: str) -> list[Cause]:
    """``ValidateClassName`` of a class name set (``NameIsDNSSubdomain``)."""
    name = _text(spec.get(key))
    return [invalid_cause(f"{at}.{key}", name, m) for m in _subdomain(name)] if name else []


def _data_source(source: dict[str, Any], at: str, any_group: bool) -> list[Cause]:
    """``validateDataSource`` / ``validateDataSourceRef``: a name, a kind, a
    PersistentVolumeClaim of the core group, or a group a DNS subdomain."""
    found = [required(f"{at}.{key}") for key in ("name", "kind") if not _text(source.get(key))]
    group, kind = _text(source.get("apiGroup")), _text(source.get("kind"))
    if not group and kind != "PersistentVolumeClaim":
        detail = "must be 'PersistentVolumeClaim' when referencing the default apiGroup"
        found.append(invalid_cause(at, kind, detail))
    if group and not any_group:
        found += [invalid_cause(f"{at}.apiGroup", group, m) for m in _subdomain(group)]
    return found


Check = Callable[[dict[str, Any], str], list[Cause]]


def _requires(*keys: str, then: Check | None = None) -> Check:
    """An in-tree volume plugin's ``validate...VolumeSource``: each of ``keys`` set
    (a string or a list not empty: ``field.Required``), then ``then``'s rules."""

    def check(source: dict[str, Any], at: str) -> list[Cause]:
        found = [required(f"{at}.{key}") for key in keys if not source.get(key)]
        return found + (then(source, at) if then is not None else [])

    return check


def _nfs(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateNFSVolumeSource``: the path absolute, an empty one too."""
    target = _text(source.get("path"))
    if target.startswith("/"):
        return []
    return [invalid_cause(f"{at}.path", target, "must be an absolute path")]


#: ``iscsiInitiatorIqnRegex`` (unanchored at its start), ``...EuiRegex``, ``...NaaRegex``
_IQN_RE = re.compile(r"iqn\.[0-9]{4}-[0-9]{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\t\n\f\r ]+)\Z")
_EUI_RE = re.compile("eui.[A-Za-z0-9]{16}")
_NAA_RE = re.compile("naa.[A-Za-z0-9]{32}")
_LUN_RANGE = "must be between 0 and 255, inclusive"


def _iscsi(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateISCSIVolumeSource`` (defaulted: an interface): a target portal, an
    IQN and an initiator name of the iqn, eui or naa format, a LUN in 0-255, a secret
    for CHAP (the initiator name's path is lower case, as upstream)."""
    found = [] if _text(source.get("targetPortal")) else [required(f"{at}.targetPortal")]
    qualified = _text(source.get("iqn"))
    if not qualified:
        found.append(required(f"{at}.iqn"))
    found += _iscsi_name(qualified, f"{at}.iqn")
    lun = _int(source.get("lun"))
    if not 0 <= lun <= 255:
        found.append(invalid_cause(f"{at}.lun", lun, _LUN_RANGE))
    chap = source.get("chapAuthDiscovery") is True or source.get("chapAuthSession") is True
    if chap and not isinstance(source.get("secretRef"), dict):
        found.append(required(f"{at}.secretRef"))
    initiator = source.get("initiatorName")
    if isinstance(initiator, str):
        found += _iscsi_name(initiator, f"{at}.initiatorname")
    return found


def _iscsi_name(name: str, at: str) -> list[Cause]:
    """An IQN's or initiator name's format (an empty IQN is only required)."""
    if not name:
        return []
    if not name.startswith(("iqn", "eui", "naa")):
        return [invalid_cause(at, name, "must be valid format starting with iqn, eui, or naa")]
    if not (
        _IQN_RE.search(name)
        if name.startswith("iqn")
        else (_EUI_RE if name.startswith("eui") else _NAA_RE).fullmatch(name)
    ):
        return [invalid_cause(at, name, "must be valid format")]
    return []


def _iscsi_volume_name(volume: dict[str, Any], at: str) -> list[Cause]:
    """``validateVolumeSource``'s check of an iscsi volume with an initiator name
    (whether or not the volume's first source): '<name>:<targetPortal>' under 65."""
    source = volume.get("iscsi")
    if not isinstance(source, dict) or not isinstance(source.get("initiatorName"), str):
        return []
    name = _text(volume.get("name"))
    if len(f"{name}:{_text(source.get('targetPortal'))}".encode()) <= 64:
        return []
    detail = ("Total length of <volume name>:<iscsi.targetPortal> must be under 64 "
              "characters if iscsi.initiatorName is specified.")  # fmt: skip
    return [invalid_cause(f"{at}.name", name, detail)]


def _flocker(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateFlockerVolumeSource``: one of a dataset name (without '/') and UUID."""
    name, uuid = _text(source.get("datasetName")), _text(source.get("datasetUUID"))
    found: list[Cause] = []
    if not name and not uuid:
        found.append(_required_detail(at, "one of datasetName and datasetUUID is required"))
    if name and uuid:
        detail = "datasetName and datasetUUID can not be specified simultaneously"
        found.append(invalid_cause(at, "resource", detail))
    if "/" in name:
        found.append(invalid_cause(f"{at}.datasetName", name, "must not contain '/'"))
    return found


def _secret_ref_name(source: dict[str, Any], at: str) -> list[Cause]:
    secret = source.get("secretRef")
    if isinstance(secret, dict) and not _text(secret.get("name")):
        return [required(f"{at}.secretRef.name")]
    return []


_REGISTRY = "must be a host:port pair or multiple pairs separated by commas"


def _quobyte(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateQuobyteVolumeSource``: a registry of host:port pairs
    (``net.SplitHostPort``), a tenant of 64 bytes at most, a volume."""
    registry = _text(source.get("registry"))
    found: list[Cause] = []
    if not registry:
        found.append(_required_detail(f"{at}.registry", _REGISTRY))
    elif len(_text(source.get("tenant")).encode()) >= 65:
        detail = "must be a UUID and may not exceed a length of 64 characters"
        found.append(_required_detail(f"{at}.tenant", detail))
    else:
        found += [invalid_cause(f"{at}.registry", registry, _REGISTRY)
                  for pair in registry.split(",") if not _host_port(pair)]  # fmt: skip
    if not _text(source.get("volume")):
        found.append(required(f"{at}.volume"))
    return found


def _host_port(text: str) -> bool:
    """Whether Go's ``net.SplitHostPort`` takes ``text``: a last ':' before the port,
    no other ':' but in a bracketed host, no stray brackets."""
    last = text.rfind(":")
    if last < 0:
        return False
    start, end = 0, 0
    if text.startswith("["):
        close = text.find("]")
        if close < 0 or close + 1 != last:
            return False
        start, end = 1, close + 1
    elif ":" in text[:last]:
        return False
    return "[" not in text[start:] and "]" not in text[end:]


def _fc(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateFCVolumeSource``: target WWNs or WWIDs, not both; with WWNs a LUN in
    0-255."""
    wwns, wwids = source.get("targetWWNs"), source.get("wwids")
    found: list[Cause] = []
    if not wwns and not wwids:
        detail = "must specify either targetWWNs or wwids, but not both"
        found.append(_required_detail(f"{at}.targetWWNs", detail))
    if wwns and wwids:
        detail = "targetWWNs and wwids can not be specified simultaneously"
        found.append(invalid_cause(f"{at}.targetWWNs", wwns, detail))
    if wwns:
        lun = source.get("lun")
        if not isinstance(lun, int):
            found.append(
                _required_detail(f"{at}.lun", "lun is required if targetWWNs is specified")
            )
        elif not 0 <= lun <= 255:
            found.append(invalid_cause(f"{at}.lun", lun, _LUN_RANGE))
    return found


def _flex_options(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateFlexVolumeSource``'s options: none in a kubernetes.io or k8s.io
    namespace (a Go map: its errors in a random order)."""
    options = source.get("options")
    found: list[Cause] = []
    for key in options if isinstance(options, dict) else ():
        normalized = "." + key.split("/", 1)[0].lower()
        if normalized.endswith((".kubernetes.io", ".k8s.io")):
            detail = "kubernetes.io and k8s.io namespaces are reserved"
            found.append(invalid_cause(f"{at}.options[{key}]", key, detail))
    return found


#: ``validateAzureDisk``'s caching modes and kinds, sorted
_CACHING_MODES = ("None", "ReadOnly", "ReadWrite")
_DISK_KINDS = ("Dedicated", "Managed", "Shared")
_MANAGED_URI = (
    "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}",
)
_BLOB_URI = ("https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd",)


def _azure_disk(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateAzureDisk``'s caching mode, kind and the URI of that kind."""
    found: list[Cause] = []
    caching, kind = source.get("cachingMode"), source.get("kind")
    if isinstance(caching, str) and caching not in _CACHING_MODES:
        found.append(not_supported(f"{at}.cachingMode", caching, _CACHING_MODES, named=True))
    if isinstance(kind, str) and kind not in _DISK_KINDS:
        found.append(not_supported(f"{at}.kind", kind, _DISK_KINDS, named=True))
    uri = _text(source.get("diskURI"))
    if kind == "Managed" and not uri.startswith("/subscriptions/"):
        found.append(not_supported(f"{at}.diskURI", uri, _MANAGED_URI))
    if isinstance(kind, str) and kind != "Managed" and not uri.startswith("https://"):
        found.append(not_supported(f"{at}.diskURI", uri, _BLOB_URI))
    return found


def _storageos(source: dict[str, Any], at: str) -> list[Cause]:
    """``validateStorageOSVolumeSource`` after the volume name's presence: the names
    DNS labels, the secret's name."""
    found: list[Cause] = []
    for key in ("volumeName", "volumeNamespace"):
        name = _text(source.get(key))
        if name:
            found += [invalid_cause(f"{at}.{key}", name, m) for m in _label(name)]
    return found + _secret_ref_name(source, at)


def _partition(source: dict[str, Any], at: str) -> list[Cause]:
    """A GCE or AWS disk's partition: in 0-255 (the message says 1, as upstream's
    ``pdPartitionErrorMsg``)."""
    partition = _int(source.get("partition"))
    if 0 <= partition <= 255:
        return []
    return [invalid_cause(f"{at}.partition", partition, "must be between 1 and 255, inclusive")]


def _git_directory(source: dict[str, Any], at: str) -> list[Cause]:
    return _descending_path(_text(source.get("directory")), f"{at}.directory")


#: the volume sources whose own fields are checked (the module docstring), the
#: in-tree plugins by ``validateVolumeSource``'s functions of them
_SOURCE_CHECKS: dict[str, Check] = {
    "emptyDir": _empty_dir,
    "hostPath": _host_path,
    "gitRepo": _requires("repository", then=_git_directory),
    "gcePersistentDisk": _requires("pdName", then=_partition),
    "awsElasticBlockStore": _requires("volumeID", then=_partition),
    "secret": _named_source("secretName"),
    "nfs": _requires("server", "path", then=_nfs),
    "iscsi": _iscsi,
    "glusterfs": _requires("endpoints", "path"),
    "flocker": _flocker,
    "persistentVolumeClaim": _claim,
    "rbd": _requires("monitors", "image"),
    "cinder": _requires("volumeID", then=_secret_ref_name),
    "cephfs": _requires("monitors"),
    "quobyte": _quobyte,
    "configMap": _named_source("name"),
    "fc": _fc,
    "flexVolume": _requires("driver", then=_flex_options),
    "azureFile": _requires("secretName", "shareName"),
    "vsphereVolume": _requires("volumePath"),
    "photonPersistentDisk": _requires("pdID"),
    "portworxVolume": _requires("volumeID"),
    "azureDisk": _requires("diskName", "diskURI", then=_azure_disk),
    "storageos": _requires("volumeName", then=_storageos),
    "projected": _projected,
    "scaleIO": _requires("gateway", "system", "volumeName"),
    "downwardAPI": _downward_api,
    "csi": _csi,
}
#: where a source's own errors are, when not at its JSON name (upstream's slip)
_CHECK_PATHS = {"gcePersistentDisk": "persistentDisk"}


def _env_from(sources: list[dict[str, Any]], at: str) -> list[Cause]:
    """``ValidateEnvFrom``: a prefix an env var name (relaxed), a ConfigMap's or
    Secret's name (``NameIsDNSSubdomain`` with prefix, as ``ValidateConfigMapName``),
    exactly one of the two (that error at the list's path: its index is missing upstream)."""
    found: list[Cause] = []
    for index, source in enumerate(sources):
        path = f"{at}[{index}]"
        prefix = _text(source.get("prefix"))
        if prefix and not _ENV_NAME_CHARS.fullmatch(prefix):
            found.append(invalid_cause(f"{path}.prefix", prefix, _ENV_NAME))
        count = 0
        for kind in ("configMapRef", "secretRef"):
            ref = source.get(kind)
            if not isinstance(ref, dict):
                continue
            count += 1
            name = _text(ref.get("name"))
            if not name:
                found.append(required(f"{path}.{kind}.name"))
            else:
                found += [invalid_cause(f"{path}.{kind}.name", name, m) for m in _object_name(name)]
        if count == 0:
            found.append(
                invalid_cause(at, "", "must specify one of: `configMapRef` or `secretRef`")
            )
        elif count > 1:
            detail = "may not have more than one field specified at a time"
            found.append(invalid_cause(at, "", detail))
    return found


#: ``IsValidUserID`` and ``IsValidGroupID``'s range
_ID_RANGE = "must be between 0 and 2147483647, inclusive"
_PROFILE_TYPES = ("Localhost", "RuntimeDefault", "Unconfined")
_PROC_MOUNTS = ("Default", "Unmasked")


def _id_problems(security: dict[str, Any], keys: tuple[str, ...], at: str) -> list[Cause]:
    found: list[Cause] = []
    for key in keys:
        value = security.get(key)
        if isinstance(value, int) and not 0 <= value <= 2147483647:
            found.append(invalid_cause(f"{at}.{key}", value, _ID_RANGE))
    return found


def _container_security(
    security: dict[str, Any], at: str, host_users: bool, sent: Any
) -> list[Cause]:
    """``ValidateSecurityContext`` (privileged is allowed: kube-apiserver's
    --allow-privileged, which envtest sets). ``sent``:
    the security context as the request sent it."""
    found = _id_problems(security, ("runAsUser", "runAsGroup"), at)
    proc = security.get("procMount")
    if isinstance(proc, str):
        if proc not in _PROC_MOUNTS:
            found.append(not_supported(f"{at}.procMount", proc, _PROC_MOUNTS, named=True))
        if host_users and proc == "Unmasked":
            detail = "`hostUsers` must be false to use `Unmasked`"
            found.append(invalid_cause(f"{at}.procMount", proc, detail, named=True))
    found += _seccomp(security.get("seccompProfile"), f"{at}.seccompProfile")
    if security.get("allowPrivilegeEscalation") is False:
        # the value printed is the internal SecurityContext, json.Marshal'ed
        escalation = "cannot set `allowPrivilegeEscalation` to false and"
        if security.get("privileged") is True:
            found.append(cause(at, Reason.INVALID, f"Invalid value: {_go_security(security, sent)}: "
                               f"{escalation} `privileged` to true"))  # fmt: skip
        capabilities = security.get("capabilities")
        added = capabilities.get("add") if isinstance(capabilities, dict) else None
        for each in added if isinstance(added, list) else ():
            if each == "CAP_SYS_ADMIN":
                found.append(cause(at, Reason.INVALID, f"Invalid value: {_go_security(security, sent)}: "
                                   f"{escalation} `capabilities.Add` CAP_SYS_ADMIN"))  # fmt: skip
    options = security.get("windowsOptions")
    if isinstance(options, dict) and options:
        found += _windows_options(options, f"{at}.windowsOptions")
    found += _app_armor(security.get("appArmorProfile"), f"{at}.appArmorProfile")
    return found


#: ``validNetBiosRegex``, ``validWindowsUserDomainDNSRegex``, ``invalidUserNameCharsRegex``
#: and ``invalidUserNameDotsSpacesRegex`` of validation.go
_NETBIOS_RE = re.compile(r'[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}')
_DNS_LABEL = "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
_WINDOWS_DOMAIN_RE = re.compile(f"{_DNS_LABEL}(?:\\.{_DNS_LABEL})*")
_USER_CHARS_RE = re.compile(r'["/\\:;|=,+*?<>@\[\]]')
_DOTS_SPACES_RE = re.compile("[. ]+")
#: ``[[:cntrl:]]``: ASCII's control characters
_CONTROL_RE = re.compile("[\x00-\x1f\x7f]")


def _windows_options(options: dict[str, Any], at: str) -> list[Cause]:
    """``validateWindowsSecurityContextOptions``: the credential spec's name a DNS
    subdomain, the spec not empty nor past 64 KiB, the user name (DOMAIN\\USER) without
    control characters or a second backslash, a NetBios or DNS domain under 256 bytes,
    a user of 1-104 bytes, not only dots and spaces, none of '"/\\:;|=,+*?<>@[]'. The
    values are *string: json.Marshal'ed."""
    found: list[Cause] = []
    name = options.get("gmsaCredentialSpecName")
    if isinstance(name, str):
        where = f"{at}.gmsaCredentialSpecName"
        found += [invalid_cause(where, name, m, named=True) for m in _subdomain(name)]
    spec = options.get("gmsaCredentialSpec")
    if isinstance(spec, str):
        where = f"{at}.gmsaCredentialSpec"
        if not spec:
            detail = "gmsaCredentialSpec cannot be an empty string"
            found.append(invalid_cause(where, spec, detail, named=True))
        elif len(spec.encode()) > 64 * 1024:
            detail = "gmsaCredentialSpec size must be under 64 KiB"
            found.append(invalid_cause(where, spec, detail, named=True))
    user = options.get("runAsUserName")
    if isinstance(user, str):
        found += [invalid_cause(f"{at}.runAsUserName", user, detail, named=True)
                  for detail in _windows_user(user)]  # fmt: skip
    return found


def _windows_user(name: str) -> list[str]:
    """The details of ``validateWindowsSecurityContextOptions``' runAsUserName."""
    if not name:
        return ["runAsUserName cannot be an empty string"]
    if _CONTROL_RE.search(name):
        return ["runAsUserName cannot contain control characters"]
    parts = name.split("\\")
    if len(parts) > 2:
        return ["runAsUserName cannot contain more than one backslash"]
    domain, user = ("", parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    details: list[str] = []
    if len(domain.encode()) >= 256:
        details.append("runAsUserName's Domain length must be under 256 characters")
    if len(parts) == 2 and not (
        _NETBIOS_RE.fullmatch(domain) or _WINDOWS_DOMAIN_RE.fullmatch(domain)
    ):
        details.append("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
    if not user:
        details.append("runAsUserName's User cannot be empty")
    elif len(user.encode()) > 104:
        details.append("runAsUserName's User length must not be longer than 104 characters")
    if _DOTS_SPACES_RE.fullmatch(user):
        details.append("runAsUserName's User cannot contain only periods or spaces")
    if _USER_CHARS_RE.search(user):
        details.append(
            "runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]"
        )
    return details


def _go_struct(value: Any, fields: tuple[str, ...], defaults: Mapping[str, Any]) -> str:
    """``json.Marshal`` of an internal (untagged) struct pointer of a decoded object:
    null, or its fields by their Go names, a missing one its zero value."""
    if not isinstance(value, dict):
        return "null"
    parts = []
    for name in fields:
        key = name[0].lower() + name[1:]
        parts.append(f'"{name}":{go_json(value.get(key, defaults.get(name)))}')
    return "{" + ",".join(parts) + "}"


_PROFILE = ("Type", "LocalhostProfile")
_ZERO_TYPE = {"Type": ""}


def _go_security(security: dict[str, Any], sent: Any) -> str:
    """``core.SecurityContext``, json.Marshal'ed in its fields' order. An empty
    capability list the request sent (``sent``) is a slice of length 0, not nil, in
    the Go object the server validates: printed ``[]`` (the decoded ``security`` has
    it no more: omitempty leaves it out of what is stored, and so does decoding)."""
    capabilities = security.get("capabilities")
    sent_capabilities = sent.get("capabilities") if isinstance(sent, dict) else None
    if isinstance(capabilities, dict) and isinstance(sent_capabilities, dict):
        empty: dict[str, list[str]] = {
            key: [] for key in ("add", "drop") if sent_capabilities.get(key) == []
        }
        capabilities = {**empty, **capabilities}
    capabilities = _go_struct(capabilities, ("Add", "Drop"), {})
    selinux = _go_struct(security.get("seLinuxOptions"), ("User", "Role", "Type", "Level"),
                         {"User": "", "Role": "", "Type": "", "Level": ""})  # fmt: skip
    windows = _go_struct(
        security.get("windowsOptions"),
        ("GMSACredentialSpecName", "GMSACredentialSpec", "RunAsUserName", "HostProcess"),
        {},
    )
    scalars = [f'"{name}":{go_json(security.get(name[0].lower() + name[1:]))}' for name in (
        "RunAsUser", "RunAsGroup", "RunAsNonRoot", "ReadOnlyRootFilesystem",
        "AllowPrivilegeEscalation", "ProcMount")]  # fmt: skip
    return (
        f'{{"Capabilities":{capabilities},"Privileged":{go_json(security.get("privileged"))},'
        f'"SELinuxOptions":{selinux},"WindowsOptions":{windows},{",".join(scalars)},'
        f'"SeccompProfile":{_go_struct(security.get("seccompProfile"), _PROFILE, _ZERO_TYPE)},'
        f'"AppArmorProfile":{_go_struct(security.get("appArmorProfile"), _PROFILE, _ZERO_TYPE)}}}'
    )


def _seccomp(profile: Any, at: str) -> list[Cause]:
    """``validateSeccompProfileField``."""
    if not isinstance(profile, dict):
        return []
    found: list[Cause] = []
    kind = _text(profile.get("type"))
    local = profile.get("localhostProfile")
    if not kind:
        detail = "type is required when seccompProfile is set"
        found.append(_required_detail(f"{at}.type", detail))
    elif kind not in _PROFILE_TYPES:
        found.append(not_supported(f"{at}.type", kind, _PROFILE_TYPES, named=True))
    if kind == "Localhost":
        if local is None:
            detail = "must be set when seccomp type is Localhost"
            found.append(_required_detail(f"{at}.localhostProfile", detail))
        else:
            found += _descending_path(_text(local), f"{at}.localhostProfile")
    elif local is not None:
        value = _go_struct(profile, _PROFILE, _ZERO_TYPE)
        detail = "can only be set when seccomp type is Localhost"
        found.append(
            cause(f"{at}.localhostProfile", Reason.INVALID, f"Invalid value: {value}: {detail}")
        )
    return found


def _app_armor(profile: Any, at: str) -> list[Cause]:
    """``ValidateAppArmorProfileField``."""
    if not isinstance(profile, dict):
        return []
    kind = _text(profile.get("type"))
    local = profile.get("localhostProfile")
    where = f"{at}.localhostProfile"
    if kind == "Localhost":
        text = _text(local)
        if local is None or not text:
            detail = "must be set when AppArmor type is Localhost"
            return [_required_detail(where, detail)]
        found: list[Cause] = []
        if text != text.strip():
            found.append(invalid_cause(where, text, "must not be padded with whitespace"))
        if len(text.encode()) > 4095:
            found.append(cause(where, Reason.TOO_LONG, "Too long: may not be more than 4095 bytes"))
        return found
    if kind in ("RuntimeDefault", "Unconfined"):
        if local is None:
            return []
        return [
            invalid_cause(where, _text(local), "can only be set when AppArmor type is Localhost")
        ]
    if not kind:
        detail = "type is required when appArmorProfile is set"
        return [_required_detail(f"{at}.type", detail)]
    return [not_supported(f"{at}.type", kind, _PROFILE_TYPES, named=True)]


def _descending_path(target: str, at: str) -> list[Cause]:
    """``validateLocalDescendingPath``: relative, without a '..' element."""
    found: list[Cause] = []
    if target.startswith("/"):
        found.append(invalid_cause(at, target, "must be a relative path"))
    return found + _no_backsteps(target, at)


def _no_backsteps(target: str, at: str) -> list[Cause]:
    """``validatePathNoBacksteps``: one error, however many '..' elements."""
    if ".." in target and ".." in target.split("/"):
        return [invalid_cause(at, target, "must not contain '..'")]
    return []


def _local_path(target: str, at: str) -> list[Cause]:
    """``ValidateLocalNonReservedPath``: a descending path not starting with '..'
    (unless the '..' element was already reported)."""
    found = _descending_path(target, at)
    if target.startswith("..") and not target.startswith("../"):
        found.append(invalid_cause(at, target, "must not start with '..'"))
    return found


def _host_port_conflicts(host_ports: list[tuple[str, str]]) -> list[Cause]:
    """``AccumulateUniqueHostPorts``: a (protocol, host IP, host port) once."""
    found: list[Cause] = []
    seen: set[str] = set()
    for path, key in host_ports:
        if key in seen:
            found.append(duplicate(path, key))
        seen.add(key)
    return found


def _host_network_ports(containers: list[dict[str, Any]], at: str) -> list[Cause]:
    """``validatePodHostNetworkDeps`` of a template: a host port set is the container
    port (a Pod's are defaulted to it, a template's may stay 0)."""
    found: list[Cause] = []
    for index, container in enumerate(containers):
        for number, port in enumerate(_items(container.get("ports"))):
            host = _int(port.get("hostPort"))
            if host and host != _int(port.get("containerPort")):
                detail = "must match `containerPort` when `hostNetwork` is true"
                found.append(invalid_cause(f"{at}[{index}].ports[{number}].hostPort", host, detail))
    return found


#: ``validateDNSPolicy``'s values, in its order
_DNS_POLICIES = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
_FS_GROUP_POLICIES = ("Always", "OnRootMismatch")
_GROUPS_POLICIES = ("Merge", "Strict")
_OPERATORS = ("Equal", "Exists")
_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
#: IsDNS1123SubdomainWithUnderscore (RelaxedDNSSearchValidation, GA in 1.34)
_SEARCH_LABEL = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_SEARCH_FORMAT = _SEARCH_LABEL + "(\\." + _SEARCH_LABEL + ")*"
_SEARCH_RE = re.compile(_SEARCH_FORMAT)
_SEARCH_MESSAGE = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
    "'_', '-' or '.', and must start and end with an alphanumeric character (e.g. "
    f"'example.com', regex used for validation is '{_SEARCH_FORMAT}')"
)


#: the pod spec's fields ``_pod_fields`` checks after the DNS policy (but the security
#: context: never nil once defaulted)
_OPTIONAL_POD_FIELDS = frozenset((
    "nodeSelector", "hostPID", "affinity", "dnsConfig", "readinessGates", "schedulingGates",
    "topologySpreadConstraints", "serviceAccountName", "nodeName", "activeDeadlineSeconds",
    "hostname", "subdomain", "tolerations", "hostAliases", "priorityClassName",
    "runtimeClassName", "preemptionPolicy", "overhead", "os",
))  # fmt: skip


def _pod_fields(
    spec: dict[str, Any], security: dict[str, Any], at: str, sent_security: dict[str, Any]
) -> list[Cause]:
    """``ValidatePodSpec`` after the restart policy, in its order (the module
    docstring). ``sent_security``: the pod's security context as the request sent it."""
    found: list[Cause] = []
    policy = _text(spec.get("dnsPolicy"))
    if not policy:
        found.append(required(f"{at}.dnsPolicy"))
    elif policy not in _DNS_POLICIES:
        found.append(not_supported(f"{at}.dnsPolicy", policy, _DNS_POLICIES, named=True))
    # a container's own host process is the one rule of the rest a template without
    # any of the fields below can break: found first, listed in its place
    host_process = _host_process(spec, security, at)
    # a typical template sets none of the rest: one set operation skips them all (the
    # bench in this module's commits)
    if not security and policy != "None" and not spec.keys() & _OPTIONAL_POD_FIELDS:
        return found + host_process
    selector = spec.get("nodeSelector")
    if isinstance(selector, dict) and selector:
        found += [cause(f"{at}.nodeSelector", reason, body)
                  for _, reason, body in labels_and_annotations_problems({"labels": selector})]  # fmt: skip
    # the spec's hostPID and shareProcessNamespace are the internal type's security
    # context fields; a defaulted one is mostly empty
    if security or spec.get("hostPID") is True:
        found += _pod_security(spec, security, f"{at}.securityContext")
    affinity = spec.get("affinity")
    if isinstance(affinity, dict) and affinity:
        found += _affinity(affinity, f"{at}.affinity")
    found += _dns_config(spec.get("dnsConfig"), policy, f"{at}.dnsConfig")
    for index, gate in enumerate(_items(spec.get("readinessGates"))):
        condition = _text(gate.get("conditionType"))
        where = f"{at}.readinessGates[{index}].conditionType"
        found += [invalid_cause(where, condition, m) for m in qualified_name(condition)]
    gates: set[str] = set()
    for index, gate in enumerate(_items(spec.get("schedulingGates"))):
        name = _text(gate.get("name"))
        where = f"{at}.schedulingGates[{index}]"
        found += [invalid_cause(where, name, m) for m in qualified_name(name)]
        if name in gates:
            found.append(duplicate(where, name))
        gates.add(name)
    constraints = spec.get("topologySpreadConstraints")
    if constraints:
        found += _spread(_items(constraints), f"{at}.topologySpreadConstraints")
    found += host_process
    # ValidateServiceAccountName, ValidateNodeName: NameIsDNSSubdomain
    for key in ("serviceAccountName", "nodeName"):
        name = _text(spec.get(key))
        if name:
            found += [invalid_cause(f"{at}.{key}", name, m) for m in _subdomain(name)]
    deadline = spec.get("activeDeadlineSeconds")
    if isinstance(deadline, int) and not 1 <= deadline <= 2147483647:
        detail = "must be between 1 and 2147483647, inclusive"
        found.append(invalid_cause(f"{at}.activeDeadlineSeconds", deadline, detail))
    for key in ("hostname", "subdomain"):
        name = _text(spec.get(key))
        if name:
            found += [invalid_cause(f"{at}.{key}", name, m) for m in _label(name)]
    tolerations = spec.get("tolerations")
    if tolerations:
        found += _tolerations(_items(tolerations), f"{at}.tolerations")
    for index, alias in enumerate(_items(spec.get("hostAliases"))):
        where = f"{at}.hostAliases[{index}]"
        address = _text(alias.get("ip"))
        if parse_ip(address) is None:
            found.append(invalid_cause(f"{where}.ip", address, IP_MESSAGE))
        for number, host in enumerate(alias.get("hostnames") or ()):
            host = _text(host)
            found += [
                invalid_cause(f"{where}.hostnames[{number}]", host, m) for m in _subdomain(host)
            ]
    # ValidatePriorityClassName and ValidateRuntimeClassName: NameIsDNSSubdomain (a
    # runtime class whenever set, an empty one too)
    priority, runtime = spec.get("priorityClassName"), spec.get("runtimeClassName")
    for key, value in (("priorityClassName", priority or None), ("runtimeClassName", runtime)):
        if isinstance(value, str):
            found += [invalid_cause(f"{at}.{key}", value, m) for m in _subdomain(value)]
    preemption = spec.get("preemptionPolicy")
    if preemption == "":
        found.append(required(f"{at}.preemptionPolicy"))
    else:
        found += _policy(spec, "preemptionPolicy", _PREEMPTION_POLICIES, at)
    overhead = spec.get("overhead")
    if isinstance(overhead, dict):
        # validateOverhead: a container's resource rules of limits only
        found += _resources({"limits": overhead}, f"{at}.overhead", frozenset())
    system = spec.get("os")
    if isinstance(system, dict):
        # validateOS: the error at os itself, else a linux or windows pod's own rules
        os_name = _text(system.get("name"))
        if not os_name:
            found.append(required(f"{at}.os.name"))
        elif os_name not in ("linux", "windows"):
            found.append(not_supported(f"{at}.os", os_name, ("linux", "windows"), named=True))
        else:
            found += _os_rules(spec, security, os_name == "windows", at, sent_security)
    return found


def _host_process_of(context: Any) -> Any:
    """A security context's ``windowsOptions.hostProcess`` (None: not set)."""
    options = context.get("windowsOptions") if isinstance(context, dict) else None
    return options.get("hostProcess") if isinstance(options, dict) else None


def _a_host_process_container(spec: dict[str, Any]) -> bool:
    """Whether a container sets hostProcess true (loops, not ``_all_containers``: every
    template asks, and a typical one sets no security context)."""
    for kind in ("initContainers", "containers"):
        containers = spec.get(kind)
        for container in containers if isinstance(containers, list) else ():
            context = container.get("securityContext") if isinstance(container, dict) else None
            if context and _host_process_of(context) is True:
                return True
    return False


def _host_process(spec: dict[str, Any], security: dict[str, Any], at: str) -> list[Cause]:
    """``validateWindowsHostProcessPod`` (of any pod, whatever its OS): a container's
    host process the pod's when both are set; with one host process container (its
    own or the pod's), every container one and the pod on the host's network
    (hostProcess containers are allowed: envtest's --allow-privileged)."""
    pod_value = _host_process_of(security)
    if pod_value is None and not _a_host_process_container(spec):
        return []
    containers = _all_containers(spec, at)
    owns = [_host_process_of(container.get("securityContext")) for container, _ in containers]
    found: list[Cause] = []
    hosts = 0
    for (_, path), own in zip(containers, owns, strict=True):
        if pod_value is not None and own is not None and own != pod_value:
            detail = f"pod hostProcess value must be identical if both are specified, was {go_v(pod_value)}"
            found.append(
                invalid_cause(f"{path}.securityContext.windowsOptions.hostProcess", own, detail)
            )
        hosts += own is True or (own is None and pod_value is True)
    if hosts:
        if hosts != len(containers):
            detail = "If pod contains any hostProcess containers then all containers must be HostProcess containers"
            found.append(invalid_cause(at, "", detail))
        if spec.get("hostNetwork") is not True:
            detail = "hostNetwork must be true if pod contains any hostProcess containers"
            found.append(invalid_cause(f"{at}.hostNetwork", False, detail))
    return found


#: ``validateWindows``: the pod security context's fields a windows pod may not set,
#: in its order (hostPID, hostIPC and shareProcessNamespace are the spec's own in v1)
_NOT_WINDOWS_POD = (
    "appArmorProfile", "seLinuxOptions", "hostUsers", "hostPID", "hostIPC", "seccompProfile",
    "fsGroup", "fsGroupChangePolicy", "sysctls", "shareProcessNamespace", "runAsUser",
    "runAsGroup", "supplementalGroups", "supplementalGroupsPolicy", "seLinuxChangePolicy",
)  # fmt: skip
_SPEC_FIELDS = frozenset(("hostUsers", "hostPID", "hostIPC", "shareProcessNamespace"))
#: and a container security context's
_NOT_WINDOWS_CONTAINER = (
    "appArmorProfile", "seLinuxOptions", "seccompProfile", "capabilities",
    "readOnlyRootFilesystem", "privileged", "allowPrivilegeEscalation", "procMount",
    "runAsUser", "runAsGroup",
)  # fmt: skip
_NOT_FOR_WINDOWS = "cannot be set for a windows pod"
_NOT_FOR_LINUX = "windows options cannot be set for a linux pod"


def _os_rules(
    spec: dict[str, Any], security: dict[str, Any], windows: bool, at: str, sent: dict[str, Any]
) -> list[Cause]:
    """``validateLinux`` (no Windows options) or ``validateWindows`` (none of the
    Linux fields), of the pod's security context, then of each container's, init
    containers first (``VisitContainersWithPath``). ``sent``: the pod's security
    context as the request sent it: an empty supplementalGroups is a Go slice of
    length 0, not nil, so set (decoding, omitempty, left it out)."""
    found: list[Cause] = []
    if windows:
        for key in _NOT_WINDOWS_POD:
            if key in _SPEC_FIELDS:
                value = security.get(key) if key == "hostUsers" else spec.get(key)
                # hostPID and hostIPC are the internal type's bools: set when true
                if value is True or (value is not None and key not in ("hostPID", "hostIPC")):
                    found.append(forbidden(f"{at}.{key}", _NOT_FOR_WINDOWS))
            elif (security.get(key) is not None and (key != "sysctls" or security[key])) or (
                key == "supplementalGroups" and sent.get(key) == []
            ):
                found.append(forbidden(f"{at}.securityContext.{key}", _NOT_FOR_WINDOWS))
    elif security.get("windowsOptions") is not None:
        found.append(forbidden(f"{at}.securityContext.windowsOptions", _NOT_FOR_LINUX))
    for kind in ("initContainers", "containers"):
        for index, container in enumerate(_items(spec.get(kind))):
            context = container.get("securityContext")
            if not isinstance(context, dict):
                continue
            where = f"{at}.{kind}[{index}].securityContext"
            if windows:
                found += [forbidden(f"{where}.{key}", _NOT_FOR_WINDOWS)
                          for key in _NOT_WINDOWS_CONTAINER if context.get(key) is not None]  # fmt: skip
            elif context.get("windowsOptions") is not None:
                found.append(forbidden(f"{where}.windowsOptions", _NOT_FOR_LINUX))
    return found


_PREEMPTION_POLICIES = ("PreemptLowerPriority", "Never")


_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
_WEIGHT = "must be in the range 1-100"


def _affinity(affinity: dict[str, Any], at: str) -> list[Cause]:
    """``validateAffinity``: node affinity (``ValidateNodeSelector``, the preferred
    terms' weights and preferences, their label values not checked), then pod affinity
    and anti-affinity terms (``_pod_affinity_term``), the preferred ones' weights."""
    found: list[Cause] = []
    node = affinity.get("nodeAffinity")
    if isinstance(node, dict):
        at_node = f"{at}.nodeAffinity"
        required_terms = node.get("requiredDuringSchedulingIgnoredDuringExecution")
        if isinstance(required_terms, dict):
            where = f"{at_node}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"
            terms = _items(required_terms.get("nodeSelectorTerms"))
            if not terms:
                detail = "must have at least one node selector term"
                found.append(_required_detail(where, detail))
            for index, term in enumerate(terms):
                found += _node_selector_term(term, f"{where}[{index}]", check_values=True)
        found += _weighted(
            node.get("preferredDuringSchedulingIgnoredDuringExecution"),
            f"{at_node}.preferredDuringSchedulingIgnoredDuringExecution",
            "preference",
            # preferred terms may name label values no node has (upstream's comment)
            functools.partial(_node_selector_term, check_values=False),
        )
    for kind in ("podAffinity", "podAntiAffinity"):
        pod_affinity = affinity.get(kind)
        if not isinstance(pod_affinity, dict):
            continue
        where = f"{at}.{kind}.requiredDuringSchedulingIgnoredDuringExecution"
        for index, term in enumerate(
            _items(pod_affinity.get("requiredDuringSchedulingIgnoredDuringExecution"))
        ):
            found += _pod_affinity_term(term, f"{where}[{index}]")
        found += _weighted(
            pod_affinity.get("preferredDuringSchedulingIgnoredDuringExecution"),
            f"{at}.{kind}.preferredDuringSchedulingIgnoredDuringExecution",
            "podAffinityTerm",
            _pod_affinity_term,
        )
    return found


def _weighted(
    terms: Any, at: str, inner: str, check: Callable[[dict[str, Any], str], list[Cause]]
) -> list[Cause]:
    """Preferred scheduling terms: each one's weight (1-100), then its ``inner`` term."""
    found: list[Cause] = []
    for index, term in enumerate(_items(terms)):
        weight = _int(term.get("weight"))
        if not 1 <= weight <= 100:
            found.append(invalid_cause(f"{at}[{index}].weight", weight, _WEIGHT))
        value = term.get(inner)
        found += check(value if isinstance(value, dict) else {}, f"{at}[{index}].{inner}")
    return found


def _node_selector_term(term: dict[str, Any], at: str, *, check_values: bool) -> list[Cause]:
    """``ValidateNodeSelectorTerm``: each match expression
    (``ValidateNodeSelectorRequirement``), then each match field
    (``ValidateNodeFieldSelectorRequirement``: only metadata.name, one value, In or
    NotIn)."""
    found: list[Cause] = []
    for index, requirement in enumerate(_items(term.get("matchExpressions"))):
        where = f"{at}.matchExpressions[{index}]"
        operator = _text(requirement.get("operator"))
        values = [_text(each) for each in requirement.get("values") or ()]
        problems = _set_operator_values(where, operator, values)
        if problems is not None:
            found += problems
        elif operator in ("Gt", "Lt"):
            if len(values) != 1:
                detail = "must be specified single value when `operator` is 'Lt' or 'Gt'"
                found.append(_required_detail(f"{where}.values", detail))
        else:
            found.append(_bad_operator(where, operator))
        key = _text(requirement.get("key"))
        found += [invalid_cause(f"{where}.key", key, m) for m in qualified_name(key)]
        if check_values:
            for number, value in enumerate(values):
                found += [
                    invalid_cause(f"{where}.values[{number}]", value, m) for m in label_value(value)
                ]
    for index, requirement in enumerate(_items(term.get("matchFields"))):
        where = f"{at}.matchFields[{index}]"
        operator = _text(requirement.get("operator"))
        values = [_text(each) for each in requirement.get("values") or ()]
        if operator in ("In", "NotIn"):
            if len(values) != 1:
                detail = ("must be only one value when `operator` is 'In' or "
                          "'NotIn' for node field selector")  # fmt: skip
                found.append(_required_detail(f"{where}.values", detail))
        else:
            found.append(_bad_operator(where, operator))
        key = _text(requirement.get("key"))
        if key != "metadata.name":
            found.append(invalid_cause(f"{where}.key", key, "not a valid field selector key"))
        else:
            for number, value in enumerate(values):
                found += [
                    invalid_cause(f"{where}.values[{number}]", value, m) for m in _subdomain(value)
                ]
    return found


def _bad_operator(at: str, operator: str) -> Cause:
    """A ``NodeSelectorOperator`` or ``LabelSelectorOperator`` (named strings:
    json.Marshal'ed) not known."""
    return invalid_cause(f"{at}.operator", operator, "not a valid selector operator", named=True)


def _set_operator_values(where: str, operator: str, values: list[str]) -> list[Cause] | None:
    """The values' rule of a set-based operator, the same in
    ``ValidateNodeSelectorRequirement`` and ``ValidateLabelSelectorRequirement``: In and
    NotIn need some, Exists and DoesNotExist take none; None for another operator."""
    if operator in _IN:
        if values:
            return []
        detail = "must be specified when `operator` is 'In' or 'NotIn'"
        return [_required_detail(f"{where}.values", detail)]
    if operator in _EXISTS:
        if not values:
            return []
        detail = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
        return [forbidden(f"{where}.values", detail)]
    return None


def _pod_affinity_term(term: dict[str, Any], at: str) -> list[Cause]:
    """``validatePodAffinityTerm``: the label and namespace selectors
    (``ValidatePodAffinityTermSelector``, label values checked), the namespaces, the
    label keys, the topology key."""
    found: list[Cause] = []
    for kind in ("labelSelector", "namespaceSelector"):
        selector = term.get(kind)
        if isinstance(selector, dict):
            found += label_selector_problems(selector, f"{at}.{kind}")
    for name in term.get("namespaces") or ():
        name = _text(name)
        # ValidateNamespaceName: NameIsDNSLabel; the path has no index upstream
        found += [invalid_cause(f"{at}.namespace", name, m) for m in _label(name)]
    found += _label_keys(term.get("matchLabelKeys"), term.get("mismatchLabelKeys"), term, at)
    key = _text(term.get("topologyKey"))
    if not key:
        found.append(_required_detail(f"{at}.topologyKey", "can not be empty"))
    return found + [invalid_cause(f"{at}.topologyKey", key, m) for m in _label_name(key)]


def _label_keys(match: Any, mismatch: Any, holder: dict[str, Any], at: str) -> list[Cause]:
    """``ValidateMatchLabelKeysAndMismatchLabelKeys`` of ``holder`` (a pod affinity
    term, or a spread constraint: no mismatch keys, as 1.34's default
    MatchLabelKeysInPodTopologySpreadSelectorMerge validates it): without a label
    selector, either list forbidden; else each key a label name. A match key already
    in the selector is refused only where one of its expressions repeats a key of it
    (upstream expects the keys merged into the selector, which a pod's create does and
    a template's does not), at ``<at>[i]`` with the key's last index; a key in both
    lists is refused."""
    if not match and not mismatch:
        return []
    match = [_text(each) for each in match] if isinstance(match, list) else []
    mismatch = [_text(each) for each in mismatch] if isinstance(mismatch, list) else []
    selector = holder.get("labelSelector")
    found: list[Cause] = []
    for kind, keys in (("matchLabelKeys", match), ("mismatchLabelKeys", mismatch)):
        if not keys:
            continue
        if not isinstance(selector, dict):
            detail = "must not be specified when labelSelector is not set"
            found.append(forbidden(f"{at}.{kind}", detail))
            continue
        for index, key in enumerate(keys):
            found += [invalid_cause(f"{at}.{kind}[{index}]", key, m) for m in _label_name(key)]
    expressions = _items(selector.get("matchExpressions")) if isinstance(selector, dict) else []
    if match and expressions:
        last = {key: index for index, key in enumerate(match)}
        labels = selector.get("matchLabels") if isinstance(selector, dict) else None
        seen = set(labels) if isinstance(labels, dict) else set()
        for expression in expressions:
            key = _text(expression.get("key"))
            if key in last and key in seen:
                detail = "exists in both matchLabelKeys and labelSelector"
                found.append(invalid_cause(f"{at}[{last[key]}]", key, detail))
            seen.add(key)
    if mismatch:
        detail = "exists in both matchLabelKeys and mismatchLabelKeys"
        found += [invalid_cause(f"{at}.matchLabelKeys[{index}]", key, detail)
                  for index, key in enumerate(match) if key in mismatch]  # fmt: skip
    return found


_IN, _EXISTS = ("In", "NotIn"), ("Exists", "DoesNotExist")


def label_selector_problems(selector: Mapping[str, Any], at: str) -> list[Cause]:
    """apimachinery's ``metav1validation.ValidateLabelSelector`` of the selector at
    ``at``: the match labels (``ValidateLabels``), then each requirement's operator
    and its values, key and values (``ValidateLabelSelectorRequirement``).
    ``matchLabels`` is a Go map, which the server walks in random order: its problems
    come sorted by key here. Its options are always false here: an unknown operator
    is allowed only to a SubjectAccessReview, an invalid label value only on an update
    of a pod template that already held one (``GetValidationOptionsFromPodTemplate``),
    which the store, having validated what it holds, never has."""
    found: list[Cause] = []
    labels = selector.get("matchLabels")
    where = f"{at}.matchLabels"
    for key, value in sorted(labels.items()) if isinstance(labels, Mapping) else ():
        found += [invalid_cause(where, key, message) for message in _label_name(str(key))]
        found += [invalid_cause(where, value, message) for message in _label_value(str(value))]
    for index, expression in enumerate(selector.get("matchExpressions") or ()):
        where = f"{at}.matchExpressions[{index}]"
        key, operator, values = selector_requirement(expression)
        problems = _set_operator_values(where, operator, values)
        found += problems if problems is not None else [_bad_operator(where, operator)]
        found += [invalid_cause(f"{where}.key", key, message) for message in _label_name(key)]
        for number, value in enumerate(values):
            found += [
                invalid_cause(f"{where}.values[{number}]", value, message)
                for message in _label_value(value)
            ]
    return found


def selector_requirement(expression: Any) -> tuple[str, str, list[str]]:
    """A ``LabelSelectorRequirement``'s key, operator and values, Go's zero values for
    what is missing."""
    item = expression if isinstance(expression, Mapping) else {}
    values = item.get("values")
    return (
        str(item.get("key") or ""),
        str(item.get("operator") or ""),
        [str(value) for value in values] if isinstance(values, list) else [],
    )


_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")
_NODE_POLICIES = ("Honor", "Ignore")


def _spread(constraints: list[dict[str, Any]], at: str) -> list[Cause]:
    """``validateTopologySpreadConstraints``: maxSkew, topologyKey, whenUnsatisfiable,
    a repeated (topologyKey, whenUnsatisfiable), minDomains, the node inclusion
    policies, the match label keys, the label selector (label values checked)."""
    found: list[Cause] = []
    for index, constraint in enumerate(constraints):
        where = f"{at}[{index}]"
        skew = _int(constraint.get("maxSkew"))
        if skew <= 0:
            found.append(invalid_cause(f"{where}.maxSkew", skew, "must be greater than zero"))
        key = _text(constraint.get("topologyKey"))
        if not key:
            found.append(_required_detail(f"{where}.topologyKey", "can not be empty"))
        action = _text(constraint.get("whenUnsatisfiable"))
        if action not in _UNSATISFIABLE:
            found.append(
                not_supported(f"{where}.whenUnsatisfiable", action, _UNSATISFIABLE, named=True)
            )
        if any(_text(other.get("topologyKey")) == key and _text(other.get("whenUnsatisfiable")) == action
               for other in constraints[index + 1:]):  # fmt: skip
            found.append(
                duplicate(f"{where}.{{topologyKey, whenUnsatisfiable}}", f"{{{key}, {action}}}")
            )
        minimum = constraint.get("minDomains")
        if isinstance(minimum, int):
            if minimum <= 0:
                found.append(
                    invalid_cause(f"{where}.minDomains", minimum, "must be greater than zero")
                )
            if action != "DoNotSchedule":
                detail = f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"
                found.append(invalid_cause(f"{where}.minDomains", minimum, detail))
        for policy in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            found += _policy(constraint, policy, _NODE_POLICIES, where)
        found += _label_keys(constraint.get("matchLabelKeys"), None, constraint, where)
        selector = constraint.get("labelSelector")
        if isinstance(selector, dict):
            found += label_selector_problems(selector, f"{where}.labelSelector")
    return found


def _pod_security(spec: dict[str, Any], security: dict[str, Any], at: str) -> list[Cause]:
    """``validatePodSpecSecurityContext`` (the SELinux options are not checked: only
    a windows pod's are refused, by ``_os_rules``)."""
    found = _id_problems(security, ("fsGroup", "runAsUser", "runAsGroup"), at)
    for index, group in enumerate(security.get("supplementalGroups") or ()):
        if isinstance(group, int) and not 0 <= group <= 2147483647:
            found.append(invalid_cause(f"{at}.supplementalGroups[{index}]", group, _ID_RANGE))
    if spec.get("shareProcessNamespace") is True and spec.get("hostPID") is True:
        detail = "ShareProcessNamespace and HostPID cannot both be enabled"
        found.append(invalid_cause(f"{at}.shareProcessNamespace", True, detail))
    if security.get("sysctls"):
        found += _sysctls(spec, _items(security["sysctls"]), f"{at}.sysctls")
    found += _policy(security, "fsGroupChangePolicy", _FS_GROUP_POLICIES, at)
    found += _seccomp(security.get("seccompProfile"), f"{at}.seccompProfile")
    options = security.get("windowsOptions")
    if isinstance(options, dict) and options:
        found += _windows_options(options, f"{at}.windowsOptions")
    found += _app_armor(security.get("appArmorProfile"), f"{at}.appArmorProfile")
    found += _policy(security, "supplementalGroupsPolicy", _GROUPS_POLICIES, at)
    # validateSELinuxChangePolicy: with SELinuxMount off (beta, default off in 1.34)
    # and no policy in an old object, only Recursive (useOnlyRecursiveSELinuxChangePolicy)
    return found + _policy(security, "seLinuxChangePolicy", ("Recursive",), at)


_SYSCTL_SEGMENT = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_SYSCTL_FORMAT = f"^({_SYSCTL_SEGMENT}[\\./])*{_SYSCTL_SEGMENT}$"
_SYSCTL_RE = re.compile(_SYSCTL_FORMAT)
#: component-helpers node/util/sysctl's namespaced sysctls (namespace.go)
_IPC_SYSCTLS = frozenset((
    "kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced",
    "kernel.shm", "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.msg",
))  # fmt: skip


def _sysctls(spec: dict[str, Any], sysctls: list[dict[str, Any]], at: str) -> list[Cause]:
    """``validateSysctls``: a name, ``IsValidSysctlName``, unique; none of the host's
    network namespace with hostNetwork, nor of its IPC namespace with hostIPC
    (``ValidateHostSysctl``)."""
    found: list[Cause] = []
    names: set[str] = set()
    for index, sysctl in enumerate(sysctls):
        where = f"{at}[{index}].name"
        name = _text(sysctl.get("name"))
        if not name:
            found.append(required(where))
        elif len(name) > 253 or not _SYSCTL_RE.match(name):
            detail = f"must have at most 253 characters and match regex {_SYSCTL_FORMAT}"
            found.append(invalid_cause(where, name, detail))
        elif name in names:
            found.append(duplicate(where, name))
        namespace = _sysctl_namespace(name)
        if namespace == "net" and spec.get("hostNetwork") is True:
            found.append(
                invalid_cause(where, name, "may not be specified when 'hostNetwork' is true")
            )
        elif namespace == "ipc" and spec.get("hostIPC") is True:
            found.append(invalid_cause(where, name, "may not be specified when 'hostIPC' is true"))
        names.add(name)
    return found


def _sysctl_namespace(name: str) -> str:
    """``GetNamespace``: "net", "ipc" or "" of a sysctl, its name normalised (a name
    whose first separator is '/' has its '.' and '/' swapped) and cut at a '*'."""
    first = min((i for i in (name.find("."), name.find("/")) if i >= 0), default=-1)
    if first >= 0 and name[first] == "/":
        name = name.translate(str.maketrans("./", "/."))
    name = name.split("*", 1)[0]
    if name in _IPC_SYSCTLS or name.startswith("fs.mqueue."):
        return "ipc"
    return "net" if name.startswith("net.") else ""


def _policy(holder: dict[str, Any], key: str, values: tuple[str, ...], at: str) -> list[Cause]:
    """A pointer to a named string type, set and not one of ``values``."""
    value = holder.get(key)
    if isinstance(value, str) and value not in values:
        return [not_supported(f"{at}.{key}", value, values, named=True)]
    return []


def _dns_config(config: Any, policy: str, at: str) -> list[Cause]:
    """``validatePodDNSConfig``."""
    if policy == "None":
        if not isinstance(config, dict):
            detail = "must provide `dnsConfig` when `dnsPolicy` is None"
            return [_required_detail(at, detail)]
        if not config.get("nameservers"):
            detail = "must provide at least one DNS nameserver when `dnsPolicy` is None"
            return [_required_detail(f"{at}.nameservers", detail)]
    if not isinstance(config, dict):
        return []
    found: list[Cause] = []
    servers = [_text(each) for each in config.get("nameservers") or ()]
    if len(servers) > 3:
        found.append(
            invalid_cause(f"{at}.nameservers", servers, "must not have more than 3 nameservers")
        )
    for index, server in enumerate(servers):
        if parse_ip(server) is None:
            found.append(invalid_cause(f"{at}.nameservers[{index}]", server, IP_MESSAGE))
    searches = [_text(each) for each in config.get("searches") or ()]
    if len(searches) > 32:
        found.append(
            invalid_cause(f"{at}.searches", searches, "must not have more than 32 search paths")
        )
    if len(" ".join(searches)) > 2048:
        detail = "must not have more than 2048 characters (including spaces) in the search list"
        found.append(invalid_cause(f"{at}.searches", searches, detail))
    for index, search in enumerate(searches):
        if search == ".":
            continue
        search = search.removesuffix(".")
        where = f"{at}.searches[{index}]"
        if len(search.encode()) > 253:
            found.append(invalid_cause(where, search, "must be no more than 253 characters"))
        if not _SEARCH_RE.fullmatch(search):
            found.append(invalid_cause(where, search, _SEARCH_MESSAGE))
    for index, option in enumerate(_items(config.get("options"))):
        if not _text(option.get("name")):
            found.append(_required_detail(f"{at}.options[{index}]", "must not be empty"))
    return found


def _tolerations(tolerations: list[dict[str, Any]], at: str) -> list[Cause]:
    """``ValidateTolerations``."""
    found: list[Cause] = []
    for index, toleration in enumerate(tolerations):
        path = f"{at}[{index}]"
        key = _text(toleration.get("key"))
        operator = _text(toleration.get("operator"))
        effect = _text(toleration.get("effect"))
        value = _text(toleration.get("value"))
        if key:
            found += [invalid_cause(f"{path}.key", key, m) for m in qualified_name(key)]
        elif operator != "Exists":
            detail = ('operator must be Exists when `key` is empty, which means "match all values '
                      'and all keys"')  # fmt: skip
            found.append(invalid_cause(f"{path}.operator", operator, detail, named=True))
        if toleration.get("tolerationSeconds") is not None and effect != "NoExecute":
            detail = "effect must be 'NoExecute' when `tolerationSeconds` is set"
            found.append(invalid_cause(f"{path}.effect", effect, detail, named=True))
        if operator in ("Equal", ""):
            problems = label_value(value)
            if problems:
                found.append(invalid_cause(f"{path}.operator", value, ";".join(problems)))
        elif operator == "Exists":
            if value:
                detail = "value must be empty when `operator` is 'Exists'"
                found.append(invalid_cause(f"{path}.operator", value, detail))
        else:
            found.append(not_supported(f"{path}.operator", operator, _OPERATORS, named=True))
        if effect and effect not in _EFFECTS:
            found.append(not_supported(f"{path}.effect", effect, _EFFECTS, named=True))
    return found


def _mounts(
    container: Mapping[str, Any],
    mounts: list[dict[str, Any]],
    volumes: dict[str, bool],
    at: str,
    devices: dict[str, str],
) -> list[Cause]:
    """``ValidateVolumeMounts`` of ``container``'s ``mounts``: a name, of a volume, a
    path, unique paths, neither the name nor the path a volume device's (``devices``:
    ``GetVolumeDeviceMap``), the sub path or expression (not both) relative without
    '..', the propagation (Bidirectional only to a privileged container), the
    recursive read-only. The sub paths', propagation's and recursive read-only's
    errors are at ``<at>.<field>``, without the mount's index, as upstream writes
    them."""
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
        if devices:
            if name in devices:
                detail = "must not already exist in volumeDevices"
                found.append(invalid_cause(f"{path}.name", name, detail))
            if target in devices.values():
                detail = "must not already exist as a path in volumeDevices"
                found.append(invalid_cause(f"{path}.mountPath", target, detail))
        # decoding always writes name and mountPath (not omitempty): any third key is
        # one of the optional fields
        if len(mount) > 2:
            found += _mount_options(container, mount, at, path)
    return found


_PROPAGATIONS = ("Bidirectional", "HostToContainer", "None")
_RECURSIVE_READ_ONLY = ("Disabled", "Enabled", "IfPossible")


def _mount_options(
    container: Mapping[str, Any], mount: dict[str, Any], at: str, path: str
) -> list[Cause]:
    """``ValidateVolumeMounts`` after the device conflicts: ``subPath``,
    ``subPathExpr`` (``validateLocalDescendingPath``), ``validateMountPropagation``,
    ``validateMountRecursiveReadOnly``."""
    found: list[Cause] = []
    sub = _text(mount.get("subPath"))
    if sub:
        found += _descending_path(sub, f"{at}.subPath")
    expression = _text(mount.get("subPathExpr"))
    if expression:
        if sub:
            detail = "subPathExpr and subPath are mutually exclusive"
            found.append(invalid_cause(f"{path}.subPathExpr", expression, detail))
        found += _descending_path(expression, f"{at}.subPathExpr")
    propagation = mount.get("mountPropagation")
    if isinstance(propagation, str):
        where = f"{at}.mountPropagation"
        if propagation not in _PROPAGATIONS:
            found.append(not_supported(where, propagation, _PROPAGATIONS, named=True))
        security = container.get("securityContext")
        privileged = isinstance(security, dict) and security.get("privileged") is True
        if propagation == "Bidirectional" and not privileged:
            detail = "Bidirectional mount propagation is available only to privileged containers"
            found.append(forbidden(where, detail))
    recursive = mount.get("recursiveReadOnly")
    if isinstance(recursive, str):
        where = f"{at}.recursiveReadOnly"
        if recursive in ("Enabled", "IfPossible"):
            if mount.get("readOnly") is not True:
                found.append(forbidden(where, "may only be specified when readOnly is true"))
            if isinstance(propagation, str) and propagation != "None":
                detail = "may only be specified when mountPropagation is None or not specified"
                found.append(forbidden(where, detail))
        elif recursive != "Disabled":
            found.append(not_supported(where, recursive, _RECURSIVE_READ_ONLY, named=True))
    return found


def _mounts_and_devices(
    container: Mapping[str, Any],
    mounts: list[dict[str, Any]],
    devices: list[dict[str, Any]],
    volumes: dict[str, bool],
    at: str,
) -> list[Cause]:
    """``ValidateVolumeMounts``, then ``ValidateVolumeDevices``: each device's name
    (unique, of a claim or ephemeral volume), path (unique, without '..'), neither a
    volume mount's (``GetVolumeMountMap``: a name's last path)."""
    by_name = {_text(each.get("name")): _text(each.get("devicePath")) for each in devices}
    found = _mounts(container, mounts, volumes, f"{at}.volumeMounts", by_name)
    mounted = {_text(each.get("name")): _text(each.get("mountPath")) for each in mounts}
    names: set[str] = set()
    paths: set[str] = set()
    for index, device in enumerate(devices):
        where = f"{at}.volumeDevices[{index}]"
        name, target = _text(device.get("name")), _text(device.get("devicePath"))
        if not name:
            found.append(required(f"{where}.name"))
        if name in names:
            found.append(invalid_cause(f"{where}.name", name, "must be unique"))
        block = volumes.get(name)
        if block is False:
            detail = "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"
            found.append(invalid_cause(f"{where}.name", name, detail))
        elif block is None:
            found.append(cause(f"{where}.name", Reason.NOT_FOUND, f"Not found: {bad_value(name)}"))
        if not target:
            found.append(required(f"{where}.devicePath"))
        if target in paths:
            found.append(invalid_cause(f"{where}.devicePath", target, "must be unique"))
        if target and _no_backsteps(target, ""):
            detail = "can not contain backsteps ('..')"
            found.append(invalid_cause(f"{where}.devicePath", target, detail))
        else:
            paths.add(target)
        if name in mounted:
            detail = "must not already exist in volumeMounts"
            found.append(invalid_cause(f"{where}.name", name, detail))
        if target in mounted.values():
            detail = "must not already exist as a path in volumeMounts"
            found.append(invalid_cause(f"{where}.devicePath", target, detail))
        if name:
            names.add(name)
    return found


def _resources(
    resources: dict[str, Any],
    at: str,
    claims: frozenset[str],
    names: Callable[[str, str], list[Cause]] | None = None,
) -> list[Cause]:
    """``validateResourceRequirements``: each limit's, then each request's name
    (``names``: ``validateContainerResourceName``, or the pod's) and quantity (not negative, whole for an
    integer resource), a request above its limit (equal to it, and the limit set, for
    a resource not overcommitable: an extended one, huge pages), huge pages a
    multiple of their page size and beside cpu or memory; the claims, of the pod's
    ``claims`` (``validateResourceClaimNames``). Values printed as the stored,
    canonical, quantity."""
    found: list[Cause] = []
    pages = False
    limits = resources.get("limits")
    limits = limits if isinstance(limits, dict) else {}
    requests = resources.get("requests")
    requests = requests if isinstance(requests, dict) else {}
    for kind, values in (("limits", limits), ("requests", requests)):
        for name, value in values.items():
            text = str(value)
            where = f"{at}.{kind}[{name}]"
            found += (names or _resource_name)(name, where)
            # only a '-' makes a quantity negative ("-0" aside): most skip the parse
            if text[:1] == "-" and _above("0", text):
                found.append(invalid_cause(where, text, "must be greater than or equal to 0"))
            if _integer_resource(name) and not _whole(text):
                found.append(invalid_cause(where, text, "must be an integer", named=True))
            huge = name.startswith("hugepages-")
            if kind == "limits":
                if huge:
                    pages = True
                    found += _huge_pages(name, text, where)
                continue
            limit = limits.get(name)
            overcommit = _native(name) and not name.startswith("hugepages-")
            if limit is None:
                if not overcommit:
                    detail = "Limit must be set for non overcommitable resources"
                    found.append(_required_detail(f"{at}.limits", detail))
            elif not overcommit and str(limit) != text and _differ(text, str(limit)):
                detail = f"must be equal to {name} limit of {limit}"
                found.append(invalid_cause(f"{at}.requests", text, detail))
            elif _above(text, str(limit)):
                detail = f"must be less than or equal to {name} limit of {limit}"
                found.append(invalid_cause(f"{at}.requests", text, detail))
            if huge:
                pages = True
                found += _huge_pages(name, text, where)
    if pages and not any(key in ("cpu", "memory") for key in (*limits, *requests)):
        found.append(forbidden(at, "HugePages require cpu or memory"))
    used = resources.get("claims")
    if used:
        found += _claim_names(_items(used), claims, f"{at}.claims")
    return found


#: ``SupportedPodLevelResources`` (component-helpers resource/helpers.go), sorted
_POD_LEVEL_RESOURCES = ("cpu", "hugepages-", "memory")


@functools.lru_cache(maxsize=64)
def _pod_resource_name(name: str, where: str) -> list[Cause]:
    """``validatePodResourceName``: ``validateResourceName``, then a pod-level
    resource (``IsSupportedPodLevelResource``)."""
    found = _base_resource_name(name, where)
    if not found and name not in ("cpu", "memory") and not name.startswith("hugepages-"):
        found.append(not_supported(where, name, _POD_LEVEL_RESOURCES, named=True))
    return found


def _pod_resources(
    spec: dict[str, Any],
    resources: dict[str, Any],
    sent: dict[str, Any],
    at: str,
    claims: frozenset[str],
) -> list[Cause]:
    """``validatePodResources`` (PodLevelResources, beta and on in 1.34): none for a
    windows pod; no claims (an empty list the request sent is a non-nil slice:
    decoding left it out); a container's resource rules with the pod-level resource
    names; then ``validatePodResourceConsistency``: a request at least the
    containers' (``_aggregate``), a huge pages limit at least theirs, each regular
    container's limit at most the pod's (at ``resources.containers[i][name].limits``,
    as upstream writes it). Consistency errors come in Go's map order."""
    where = f"{at}.resources"
    if _windows(spec):
        return [forbidden(where, "may not be set for a windows pod")]
    found: list[Cause] = []
    sent_resources = sent.get("resources")
    if resources.get("claims") is not None or (
        isinstance(sent_resources, dict) and sent_resources.get("claims") == []
    ):
        found.append(
            forbidden(f"{where}.claims", "claims may not be set for Resources at pod-level")
        )
    found += _resources(resources, where, claims, _pod_resource_name)
    requests, limits = resources.get("requests"), resources.get("limits")
    if isinstance(requests, dict) and requests:
        for name, (value, _, text) in aggregate_container_resources(spec, sent, "requests").items():
            own = requests.get(name)
            if own is not None and _quantity(own) < value:
                detail = f"must be greater than or equal to aggregate container requests of {text}"
                found.append(invalid_cause(f"{where}.requests[{name}]", str(own), detail))
    if isinstance(limits, dict) and limits:
        for name, (value, _, text) in aggregate_container_resources(spec, sent, "limits").items():
            own = limits.get(name)
            if name.startswith("hugepages-") and own is not None and _quantity(own) < value:
                detail = f"must be greater than or equal to aggregate container limits of {text}"
                found.append(invalid_cause(f"{where}.limits[{name}]", str(own), detail))
        for index, container in enumerate(_items(spec.get("containers"))):
            for name, limit in _requirements(container, "limits").items():
                own = limits.get(name)
                if own is not None and _quantity(own) < _quantity(limit):
                    detail = f"must be less than or equal to pod limits of {own}"
                    at_limit = f"{where}.containers[{index}][{name}].limits"
                    found.append(invalid_cause(at_limit, str(limit), detail))
    return found


def _windows(spec: dict[str, Any]) -> bool:
    system = spec.get("os")
    return isinstance(system, dict) and system.get("name") == "windows"


def _quantity(text: Any) -> Fraction:
    """A decoded (so valid) quantity's value; 0 if it is none."""
    try:
        return parse_quantity(str(text))
    except (ValueError, ZeroDivisionError):
        return Fraction(0)


def _requirements(container: dict[str, Any], kind: str) -> dict[str, Any]:
    resources = container.get("resources")
    values = resources.get(kind) if isinstance(resources, dict) else None
    return values if isinstance(values, dict) else {}


#: resources' quantities: each one's value, a spelling of its format (``Quantity.Add``
#: keeps the first addend's) and its ``Quantity.String``
Sums = dict[str, tuple[Fraction, str, str]]


def aggregate_container_resources(spec: dict[str, Any], sent: dict[str, Any], kind: str) -> Sums:
    """``AggregateContainerRequests`` / ``AggregateContainerLimits``
    (component-helpers resource/helpers.go) of the ``kind`` of the containers: the
    regular containers' and sidecars' sum, or the most an init container needs beside
    the sidecars before it, whichever is more. ``sent``: the pod spec as the request
    sent it."""
    total: Sums = {}
    sent_containers = _items(sent.get("containers"))
    for index, container in enumerate(_items(spec.get("containers"))):
        _add(total, _sums(container, _at(sent_containers, index), kind))
    sidecars: Sums = {}
    most: Sums = {}
    sent_inits = _items(sent.get("initContainers"))
    for index, container in enumerate(_items(spec.get("initContainers"))):
        own = _sums(container, _at(sent_inits, index), kind)
        if container.get("restartPolicy") == "Always":
            _add(total, own)
            _add(sidecars, own)
            own = sidecars
        else:
            _add(own, sidecars)
        _most(most, own)
    _most(total, most)
    return total


def _sums(container: dict[str, Any], sent: dict[str, Any], kind: str) -> Sums:
    """A container's ``kind`` of resources, each in the format the request spelt it
    (its stored spelling may have lost it: 1.5Ki is stored 1536)."""
    spelt = _requirements(sent, kind)
    return {
        name: (_quantity(text), str(spelt.get(name, text)), str(text))
        for name, text in _requirements(container, kind).items()
    }


def _add(sums: Sums, addends: Sums) -> None:
    """``addResourceList``: ``Quantity.Add`` keeps the first addend's format (the
    second's when the first is zero) and drops its spelling: printed canonically again
    (``_sum_text``); a lone addend keeps its own."""
    for name, (value, spelt, text) in addends.items():
        if name not in sums:
            sums[name] = (value, spelt, text)
            continue
        old, old_spelt, _ = sums[name]
        spelt = old_spelt if old else spelt
        sums[name] = (old + value, spelt, _sum_text(old + value, spelt))


def _most(sums: Sums, others: Sums) -> None:
    """``maxResourceList``: the greater of each."""
    for name, each in others.items():
        if name not in sums or each[0] > sums[name][0]:
            sums[name] = each


_EXPONENT_FORM = re.compile("[eE][-+]?[0-9]+$")


def _sum_text(value: Fraction, spelt: str) -> str:
    """``Quantity.String`` of ``value`` in the format of the quantity ``spelt``
    (``stored_quantity`` of the value written in it: a binary one as so many Ki,
    exactly: the addends are nano-precise, so the value over 1024 has 19 decimals at
    most)."""
    nanos = int(value * 10**9)
    if _EXPONENT_FORM.search(spelt):
        return stored_quantity(f"{nanos}e-9")
    if spelt.endswith(tuple(BINARY_EXPONENTS)):
        whole, part = divmod(abs(nanos) * 5**10, 10**19)
        sign = "-" if nanos < 0 else ""
        return stored_quantity(f"{sign}{whole}.{part:019d}Ki")
    return stored_quantity(f"{nanos}n")


def _pod_claims(claims: list[dict[str, Any]], at: str) -> tuple[list[Cause], frozenset[str]]:
    """``validatePodResourceClaims`` (a template is no static pod's): each claim's
    name (required, unique, a DNS label), exactly one source, each source's name a DNS
    subdomain; and the names a container's claims may use (every one set:
    ``gatherPodResourceClaimNames``)."""
    found: list[Cause] = []
    names: set[str] = set()
    for index, claim in enumerate(claims):
        where = f"{at}[{index}]"
        name = _text(claim.get("name"))
        if not name:
            found.append(required(f"{where}.name"))
        elif name in names:
            found.append(duplicate(f"{where}.name", name))
        else:
            found += [invalid_cause(f"{where}.name", name, m) for m in _label(name)]
            names.add(name)
        claim_name, template = (
            claim.get("resourceClaimName"),
            claim.get("resourceClaimTemplateName"),
        )
        if (claim_name is None) == (template is None):
            # the internal core.PodResourceClaim, json.Marshal'ed (no JSON tags)
            internal = {"Name": name, "ResourceClaimName": claim_name,
                        "ResourceClaimTemplateName": template}  # fmt: skip
            detail = ("must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"
                      if claim_name is None else
                      "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified")  # fmt: skip
            found.append(
                cause(where, Reason.INVALID, f"Invalid value: {go_json(internal)}: {detail}")
            )
        for key, source in (
            ("resourceClaimName", claim_name),
            ("resourceClaimTemplateName", template),
        ):
            if isinstance(source, str):
                found += [invalid_cause(f"{where}.{key}", source, m) for m in _subdomain(source)]
    return found, frozenset(_text(claim.get("name")) for claim in claims) - {""}


def _claim_names(used: list[dict[str, Any]], claims: frozenset[str], at: str) -> list[Cause]:
    """``validateResourceClaimNames``: each claim a container uses named (a request a
    DNS label), not repeated (a whole claim after one of its requests, the same
    request twice), of the pod's ``claims``."""
    found: list[Cause] = []
    seen: set[str] = set()
    for index, claim in enumerate(used):
        where = f"{at}[{index}]"
        name, request = _text(claim.get("name")), _text(claim.get("request"))
        if not name:
            found.append(required(where))
            continue
        if name in seen:
            found.append(duplicate(where, name))
        else:
            key = name
            if request:
                found += [invalid_cause(f"{where}.request", request, m) for m in _label(request)]
                key = f"{name}/{request}"
            if key in seen:
                found.append(duplicate(where, key))
            elif not request:
                # Go walks a set: one Duplicate per request of the claim seen before
                found += [duplicate(where, name) for each in seen
                          if "/" in each and each.split("/", 1)[0] == name]  # fmt: skip
            seen.add(key)
        if name not in claims:
            listed = ": " + ", ".join(sorted(claims)) if claims else " which is empty"
            detail = f"must be one of the names in pod.spec.resourceClaims{listed}"
            found.append(cause(where, Reason.NOT_FOUND, f"Not found: {bad_value(name)}: {detail}"))
    return found


@functools.lru_cache(maxsize=256)
def _huge_pages(name: str, text: str, where: str) -> list[Cause]:
    """``validateResourceQuantityHugePageValue``: the quantity a whole multiple of the
    page size (``IsHugePageResourceValueDivisible``: a size that is no quantity, not
    positive or not whole divides nothing; the quantity rounded up to a whole)."""
    try:
        size = parse_quantity(name.removeprefix("hugepages-"))
        divides = size > 0 and size.denominator == 1 and math.ceil(parse_quantity(text)) % size == 0
    except (ValueError, ZeroDivisionError):
        divides = False
    if divides:
        return []
    return [invalid_cause(where, text, f"{text} is not positive integer multiple of {name}")]


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


def _base_resource_name(name: str, where: str) -> list[Cause]:
    """``validateResourceName`` (a ResourceName: json.Marshal'ed): a qualified name,
    an unprefixed one standard."""
    found = [invalid_cause(where, name, m, named=True) for m in qualified_name(name)]
    if not found and "/" not in name and not (name in _STANDARD_RESOURCES or name.startswith(
            ("hugepages-", "requests.hugepages-"))):  # fmt: skip
        detail = "must be a standard resource type or fully qualified"
        found.append(invalid_cause(where, name, detail, named=True))
    return found


@functools.lru_cache(maxsize=256)
def _resource_name(name: str, where: str) -> list[Cause]:
    """``validateContainerResourceName``."""
    found = _base_resource_name(name, where)
    if "/" not in name:
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
