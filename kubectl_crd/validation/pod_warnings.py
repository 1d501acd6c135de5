"""The warnings kube-apiserver 1.34 answers a valid write of a pod-carrying object with
(its ``Warning`` headers): each strategy's ``WarningsOnCreate`` / ``WarningsOnUpdate``
(``pkg/registry/{apps,core}/*/strategy.go``) and ``pkg/api/pod/warnings.go``
``warningsForPodSpecAndMeta``, in their order and words.

Mirrored: a Deployment's, ReplicaSet's, Job's, CronJob's and Pod's name that is no DNS
label; an Indexed Job past the completions and parallelism soft limits; a CronJob
update's TZ in its schedule; deprecated node labels in a nodeSelector, node affinity
terms and topology spread keys, a node affinity preference's values that are no label
values; a
topology spread constraint or pod (anti-)affinity term with no labelSelector;
deprecated annotations; deprecated and removed volume plugins; repeated host alias
IPs and image pull secrets, an empty pull secret name; fractional byte values of a
container's (and the pod overhead's) memory and ephemeral storage; seccomp and
AppArmor annotations beside no field; an env var hiding an earlier one; a container
port with a host IP and no host port, duplicate, overlapping and ambiguous ports,
repeated port names; a negative termination grace period; non-standard IPs in
dnsConfig and hostAliases; a StatefulSet's negative revisionHistoryLimit; fractional
storage in a claim, a StatefulSet's claim templates, an ephemeral volume's claim
(``GetWarningsForPersistentVolumeClaimSpec``), a claim's beta storage class annotation;
the overlapping paths of a configMap, secret, downwardAPI or projected volume and a
projected source left empty (``warningsForOverlappingVirtualPaths``). An update warns
only when the spec changed (its generation moved). A Service's (``pkg/api/service/
warnings.go``: a deprecated annotation, non-standard or non-canonical IPs and source
ranges, fields a headless or ExternalName Service ignores) and a NetworkPolicy's
(ambiguous, non-standard or non-canonical ipBlock CIDRs) on every write.

A Go map's keys (a nodeSelector's) are warned of in Go's random order upstream, here
sorted.

Pure: the model and validation layers.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Mapping
from typing import Any

from kubectl_crd.model.gonetip import (
    AddrError,
    go_ip_string,
    go_ipnet_string,
    parse_addr,
    parse_cidr_sloppy,
    parse_ip_sloppy,
    parse_prefix,
)
from kubectl_crd.model.gostrconv import go_quote
from kubectl_crd.model.quantity import parse_quantity
from kubectl_crd.model.schema import as_mapping
from kubectl_crd.validation.names import dns1123_label, label_value

_DEPRECATED_NODE_LABELS = {
    "beta.kubernetes.io/arch": 'deprecated since v1.14; use "kubernetes.io/arch" instead',
    "beta.kubernetes.io/os": 'deprecated since v1.14; use "kubernetes.io/os" instead',
    "failure-domain.beta.kubernetes.io/region": (
        'deprecated since v1.17; use "topology.kubernetes.io/region" instead'
    ),
    "failure-domain.beta.kubernetes.io/zone": (
        'deprecated since v1.17; use "topology.kubernetes.io/zone" instead'
    ),
    "beta.kubernetes.io/instance-type": (
        'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead'
    ),
    "app.kubernetes.io/created-by": "deprecated since v1.9",
    "scheduler.alpha.kubernetes.io/preferAvoidPods": (
        "deprecated since v1.22; use Taints and Tolerations instead"
    ),
    "node-role.kubernetes.io/master": 'use "node-role.kubernetes.io/control-plane" instead',
}  # pkg/api/node/util.go deprecatedNodeLabels

_DEPRECATED_ANNOTATIONS = (
    ("scheduler.alpha.kubernetes.io/critical-pod",
     'non-functional in v1.16+; use the "priorityClassName" field instead'),
    ("security.alpha.kubernetes.io/sysctls",
     'non-functional in v1.11+; use the "sysctls" field instead'),
    ("security.alpha.kubernetes.io/unsafe-sysctls",
     'non-functional in v1.11+; use the "sysctls" field instead'),
)  # fmt: skip

#: (volume source, message), in warnings.go's order (gitRepo: the GitRepoVolumeDriver
#: gate is off by default in 1.34); an ephemeral volume's claim is warned of between
#: the two groups
_DEPRECATED_VOLUMES = (
    ("photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"),
    ("gitRepo", "deprecated in v1.11, and disabled by default in v1.33+"),
    ("scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("flocker", "deprecated in v1.22, non-functional in v1.25+"),
    ("storageos", "deprecated in v1.22, non-functional in v1.25+"),
    ("quobyte", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
)
_REMOVED_VOLUMES = (
    ("cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    ("rbd", "deprecated in v1.28, non-functional in v1.31+"),
)

_SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod"
_SECCOMP_CONTAINER = "container.seccomp.security.alpha.kubernetes.io/"
_APPARMOR_CONTAINER = "container.apparmor.security.beta.kubernetes.io/"
_NULL_SELECTOR = "a null labelSelector results in matching no pod"
_FRACTIONAL = "fractional byte value {value} is invalid, must be an integer"


#: each workload's pod template: (the path of the spec holding it, whether a Job spec;
#: whether its name is warned of)
_TEMPLATES = {
    ("apps", "Deployment"): ("spec", False, True),
    ("apps", "ReplicaSet"): ("spec", False, True),
    ("apps", "StatefulSet"): ("spec", False, False),
    ("apps", "DaemonSet"): ("spec", False, False),
    ("batch", "Job"): ("spec", True, True),
    ("batch", "CronJob"): ("spec.jobTemplate.spec", True, True),
}

#: pkg/api/job/warnings.go's soft limits of an Indexed Job
_COMPLETIONS_SOFT_LIMIT = 100_000
_PARALLELISM_SOFT_LIMIT = 10_000


def write_warnings(
    group: str, kind: str, obj: Mapping[str, Any], old: Mapping[str, Any] | None
) -> list[str]:
    """The warnings of a valid create (``old`` None) or update of ``obj`` (defaulted, as
    stored), for the kinds this module knows; none for another."""
    spec = as_mapping(obj.get("spec"))
    meta = as_mapping(obj.get("metadata"))
    warnings: list[str] = []
    if (group, kind) == ("", "Pod"):
        if old is None:  # the Pod strategy warns of no update
            warnings += _name_warnings(meta, "the Pod's hostname")
            warnings += _spec_and_meta("", spec, meta, template=False)
        return warnings
    if (group, kind) == ("", "PersistentVolumeClaim"):
        return _claim_warnings(meta, spec)
    if (group, kind) == ("", "Service"):
        return _service_warnings(meta, spec)
    if (group, kind) == ("networking.k8s.io", "NetworkPolicy"):
        return _network_policy_warnings(spec)
    known = _TEMPLATES.get((group, kind))
    if known is None:
        return []
    at, job, named = known
    if old is None and named:
        warnings += _name_warnings(meta, "Pod names and hostnames")
    changed = old is None or (
        as_mapping(old.get("spec")).get("template") != spec.get("template")
        if kind == "DaemonSet"  # its internal TemplateGeneration
        else as_mapping(old.get("metadata")).get("generation") != meta.get("generation")
    )
    if changed:
        holder = _at(obj, at)
        if job:
            warnings += _indexed_job(at, holder)
        template = as_mapping(holder.get("template"))
        warnings += _spec_and_meta(
            f"{at}.template.",
            as_mapping(template.get("spec")),
            as_mapping(template.get("metadata")),
            True,
        )
    if kind == "StatefulSet":
        for index, claim in enumerate(_list(spec.get("volumeClaimTemplates"))):
            # an update's path names the Go field (".Spec"), as upstream writes it
            claim_at = f"spec.volumeClaimTemplates[{index}]" + (".Spec" if old else "")
            warnings += _claim_spec(claim_at, as_mapping(as_mapping(claim).get("spec")))
        limit = spec.get("revisionHistoryLimit")
        if type(limit) is int and limit < 0:
            warnings.append(
                "spec.revisionHistoryLimit: a negative value retains all historical "
                "revisions; a value >= 0 is recommended"
            )
    if kind == "CronJob" and old is not None and "TZ" in str(spec.get("schedule") or ""):
        warnings.append(
            "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see "
            "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more "
            "details"
        )
    return warnings


def _at(obj: Mapping[str, Any], dotted: str) -> Mapping[str, Any]:
    node: Mapping[str, Any] = obj
    for part in dotted.split("."):
        node = as_mapping(node.get(part))
    return node


def _indexed_job(at: str, spec: Mapping[str, Any]) -> list[str]:
    """``WarningsForJobSpec``'s own: an Indexed Job past both soft limits."""
    if spec.get("completionMode") != "Indexed":
        return []
    completions, parallelism = spec.get("completions") or 0, spec.get("parallelism") or 0
    if completions > _COMPLETIONS_SOFT_LIMIT and parallelism > _PARALLELISM_SOFT_LIMIT:
        return [
            f"{at}: In Indexed Jobs with a number of completions higher than 10^5 and a "
            "parallelism higher than 10^4, Kubernetes might not be able to track "
            "completedIndexes when a big number of indexes fail"
        ]
    return []


def _list(value: Any) -> list[Any]:
    return value if type(value) is list else []


def _name_warnings(meta: Mapping[str, Any], used_in: str) -> list[str]:
    problems = dns1123_label(str(meta.get("name") or ""))
    if not problems:
        return []
    return [
        f"metadata.name: this is used in {used_in}, which can result in surprising "
        f"behavior; a DNS label is recommended: [{' '.join(problems)}]"
    ]


def _spec_and_meta(
    at: str, spec: Mapping[str, Any], meta: Mapping[str, Any], template: bool
) -> list[str]:
    """``warningsForPodSpecAndMeta`` at ``at`` (``spec.template.``, or "" for a Pod)."""
    warnings: list[str] = []
    for label in sorted(as_mapping(spec.get("nodeSelector"))):
        if label in _DEPRECATED_NODE_LABELS:
            warnings.append(f"{at}spec.nodeSelector[{label}]: {_DEPRECATED_NODE_LABELS[label]}")
    affinity = as_mapping(spec.get("affinity"))
    node_affinity = as_mapping(affinity.get("nodeAffinity"))
    required = as_mapping(node_affinity.get("requiredDuringSchedulingIgnoredDuringExecution"))
    terms_at = f"{at}spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
    for index, term in enumerate(_list(required.get("nodeSelectorTerms"))):
        warnings += _node_term(f"{terms_at}.nodeSelectorTerms[{index}]", as_mapping(term))
    preferred_at = f"{at}spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution"
    for index, term in enumerate(
        _list(node_affinity.get("preferredDuringSchedulingIgnoredDuringExecution"))
    ):
        preference = as_mapping(as_mapping(term).get("preference"))
        warnings += _node_term(f"{preferred_at}[{index}].preference", preference, True)
    for index, constraint in enumerate(_list(spec.get("topologySpreadConstraints"))):
        constraint = as_mapping(constraint)
        constraint_at = f"{at}spec.topologySpreadConstraints[{index}]"
        topology_key = constraint.get("topologyKey")
        if topology_key in _DEPRECATED_NODE_LABELS:
            message = _DEPRECATED_NODE_LABELS[topology_key]
            warnings.append(f"{constraint_at}.topologyKey: {topology_key} is {message}")
        if constraint.get("labelSelector") is None:
            warnings.append(f"{constraint_at}.labelSelector: {_NULL_SELECTOR}")
    annotations = as_mapping(meta.get("annotations"))
    for key, message in _DEPRECATED_ANNOTATIONS:
        if key in annotations:
            warnings.append(f"{at}metadata.annotations[{key}]: {message}")
    for index, volume in enumerate(_list(spec.get("volumes"))):
        volume = as_mapping(volume)
        for source, message in _DEPRECATED_VOLUMES:
            if volume.get(source) is not None:
                warnings.append(f"{at}spec.volumes[{index}].{source}: {message}")
        claim = as_mapping(as_mapping(volume.get("ephemeral")).get("volumeClaimTemplate"))
        if claim:
            claim_at = f"{at}spec.volumes[{index}].ephemeral.volumeClaimTemplate.spec"
            warnings += _claim_spec(claim_at, as_mapping(claim.get("spec")))
        for source, message in _REMOVED_VOLUMES:
            if volume.get(source) is not None:
                warnings.append(f"{at}spec.volumes[{index}].{source}: {message}")
    warnings += _overlapping_paths(_list(spec.get("volumes")))
    aliases = _list(spec.get("hostAliases"))
    warnings += _repeated(
        [as_mapping(a).get("ip") for a in aliases], f"{at}spec.hostAliases", ".ip", "duplicate ip"
    )
    secrets = [as_mapping(s).get("name") or "" for s in _list(spec.get("imagePullSecrets"))]
    warnings += _repeated(secrets, f"{at}spec.imagePullSecrets", ".name", "duplicate name")
    for index, name in enumerate(secrets):
        if not name:
            warnings.append(f'{at}spec.imagePullSecrets[{index}].name: invalid empty name ""')
    overhead = as_mapping(spec.get("overhead"))
    for resource in ("memory", "ephemeral-storage"):
        warnings += _fractional(overhead, resource, f"{at}spec.overhead[{resource}]")
    security = as_mapping(spec.get("securityContext"))
    if security.get("seccompProfile") is None and _SECCOMP_POD in annotations:
        warnings.append(
            f"{at}metadata.annotations[{_SECCOMP_POD}]: non-functional in v1.27+; "
            'use the "seccompProfile" field instead'
        )
    pod_apparmor = security.get("appArmorProfile")
    for container_at, container in _containers(at, spec):
        warnings += _container(at, container_at, container, annotations, template, pod_apparmor)
    warnings += _ports(spec, at)
    grace = spec.get("terminationGracePeriodSeconds")
    if type(grace) is int and grace < 0:
        warnings.append(
            f"{at}spec.terminationGracePeriodSeconds: must be >= 0; negative values are "
            "invalid and will be treated as 1"
        )
    for which in ("podAffinity", "podAntiAffinity"):
        terms = as_mapping(affinity.get(which))
        base = f"{at}spec.affinity.{which}"
        required_at = f"{base}.requiredDuringSchedulingIgnoredDuringExecution"
        for index, term in enumerate(
            _list(terms.get("requiredDuringSchedulingIgnoredDuringExecution"))
        ):
            if as_mapping(term).get("labelSelector") is None:
                warnings.append(f"{required_at}[{index}].labelSelector: {_NULL_SELECTOR}")
        weighted_at = f"{base}.preferredDuringSchedulingIgnoredDuringExecution"
        for index, term in enumerate(
            _list(terms.get("preferredDuringSchedulingIgnoredDuringExecution"))
        ):
            if as_mapping(as_mapping(term).get("podAffinityTerm")).get("labelSelector") is None:
                warnings.append(
                    f"{weighted_at}[{index}].podAffinityTerm.labelSelector: {_NULL_SELECTOR}"
                )
    for index, server in enumerate(_list(as_mapping(spec.get("dnsConfig")).get("nameservers"))):
        warnings += _ip_warnings(f"{at}spec.dnsConfig.nameservers[{index}]", server)
    for index, alias in enumerate(aliases):
        warnings += _ip_warnings(f"{at}spec.hostAliases[{index}].ip", as_mapping(alias).get("ip"))
    return warnings


#: a projected path and where it comes from (``pathAndSource``)
_Path = tuple[str, str]


def _path_text(item: _Path) -> str:
    """``pathAndSource.String()``."""
    path, source = item
    return f"{go_quote(path)} ({source})" if source else go_quote(path)


def _overlaps(seen: list[_Path], needle: _Path) -> list[_Path]:
    """``checkForOverlap``: the paths before that are ``needle``'s or hold it, or that
    it holds ('/' as the separator)."""
    if not needle[0]:
        return []
    return [
        item
        for item in seen
        if item[0]
        and (
            item == needle
            or (item[0] + "/").startswith(needle[0] + "/")
            or (needle[0] + "/").startswith(item[0] + "/")
        )
    ]


def _overlapping_paths(volumes: list[Any]) -> list[str]:
    """``warningsForOverlappingVirtualPaths``: within one configMap, secret, downwardAPI
    or projected volume, paths that are the same or one under another."""
    warnings: list[str] = []
    for volume in volumes:
        volume = as_mapping(volume)
        name = go_quote(str(volume.get("name") or ""))
        found: list[tuple[str, list[str]]] = []
        config_map, secret = as_mapping(volume.get("configMap")), as_mapping(volume.get("secret"))
        downward = as_mapping(volume.get("downwardAPI"))
        if "items" in config_map and config_map["items"] is not None:
            what = f"ConfigMap {go_quote(str(config_map.get('name') or ''))}"
            found.append((what, _within(_item_paths(config_map, ""))))
        if "items" in secret and secret["items"] is not None:
            what = f"Secret {go_quote(str(secret.get('secretName') or ''))}"
            found.append((what, _within(_item_paths(secret, ""))))
        if "items" in downward and downward["items"] is not None:
            found.append(("DownwardAPI", _within(_item_paths(downward, ""))))
        for what, overlaps in found:
            warnings += [f"volume {name} ({what}): overlapping paths: {o}" for o in overlaps]
        projected = volume.get("projected")
        if projected is None:
            continue
        seen: list[_Path] = []
        for source in _list(as_mapping(projected).get("sources")):
            source = as_mapping(source)
            if not source:
                warnings.append(f"volume {name} (Projected) has no sources provided")
                continue
            for path in _source_paths(source):
                path = (path[0].rstrip("/"), path[1])
                warnings += [
                    f"volume {name} (Projected): overlapping paths: "
                    f"{_path_text(path)} with {_path_text(other)}"
                    for other in _overlaps(seen, path)
                ]
                seen.append(path)
    return warnings


def _item_paths(holder: Mapping[str, Any], source: str) -> list[_Path]:
    return [
        (str(as_mapping(item).get("path") or ""), source) for item in _list(holder.get("items"))
    ]


def _within(paths: list[_Path]) -> list[str]:
    """``checkVolumeMappingForOverlap``: each path against the ones before it."""
    overlaps: list[str] = []
    seen: list[_Path] = []
    for path in paths:
        path = (path[0].rstrip("/"), path[1])
        overlaps += [f"{_path_text(path)} with {_path_text(o)}" for o in _overlaps(seen, path)]
        seen.append(path)
    return overlaps


def _source_paths(source: Mapping[str, Any]) -> list[_Path]:
    """The paths one projected source writes (its first kind, as upstream's switch)."""
    config_map, secret = as_mapping(source.get("configMap")), as_mapping(source.get("secret"))
    downward = as_mapping(source.get("downwardAPI"))
    if config_map.get("items") is not None:
        return _item_paths(config_map, f"ConfigMap {go_quote(str(config_map.get('name') or ''))}")
    if secret.get("items") is not None:
        return _item_paths(secret, f"Secret {go_quote(str(secret.get('name') or ''))}")
    if downward.get("items") is not None:
        return _item_paths(downward, "DownwardAPI")
    token = source.get("serviceAccountToken")
    if token is not None:
        return [(str(as_mapping(token).get("path") or ""), "ServiceAccountToken")]
    bundle = source.get("clusterTrustBundle")
    if bundle is not None:
        bundle = as_mapping(bundle)
        name = bundle.get("name") if bundle.get("name") is not None else bundle.get("signerName")
        return [(str(bundle.get("path") or ""), f"ClusterTrustBundle {go_quote(str(name or ''))}")]
    certificate = source.get("podCertificate")
    if certificate is not None:
        certificate = as_mapping(certificate)
        return [
            (str(certificate[key]), f"PodCertificate {what}")
            for key, what in (
                ("certificateChainPath", "chain"),
                ("keyPath", "key"),
                ("credentialBundlePath", "credential bundle"),
            )
            if certificate.get(key)
        ]
    return []


_BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class"


def _claim_warnings(meta: Mapping[str, Any], spec: Mapping[str, Any]) -> list[str]:
    """``GetWarningsForPersistentVolumeClaim`` (a claim's create and update)."""
    warnings = []
    if _BETA_STORAGE_CLASS in as_mapping(meta.get("annotations")):
        warnings.append(
            f"metadata.annotations[{_BETA_STORAGE_CLASS}]: deprecated since v1.8; "
            'use "storageClassName" attribute instead'
        )
    return warnings + _claim_spec("spec", spec)


def _claim_spec(at: str, spec: Mapping[str, Any]) -> list[str]:
    """``GetWarningsForPersistentVolumeClaimSpec``: a fractional storage request, limit."""
    resources = as_mapping(spec.get("resources"))
    return _fractional(
        as_mapping(resources.get("requests")), "storage", f"{at}.resources.requests[storage]"
    ) + _fractional(
        as_mapping(resources.get("limits")), "storage", f"{at}.resources.limits[storage]"
    )


def _node_term(at: str, term: Mapping[str, Any], check_values: bool = False) -> list[str]:
    """``GetWarningsForNodeSelectorTerm``: each expression's deprecated key, then (a
    preference's) values that are no valid label values."""
    warnings = []
    for index, expression in enumerate(_list(term.get("matchExpressions"))):
        expression = as_mapping(expression)
        key = expression.get("key")
        if key in _DEPRECATED_NODE_LABELS:
            warnings.append(
                f"{at}.matchExpressions[{index}].key: {key} is {_DEPRECATED_NODE_LABELS[key]}"
            )
        if check_values:
            for number, value in enumerate(_list(expression.get("values"))):
                warnings += [
                    f"{at}.matchExpressions[{index}].values[{number}]: {value} is invalid, "
                    f"{message}"
                    for message in label_value(str(value))
                ]
    return warnings


def _repeated(values: list[Any], at: str, leaf: str, what: str) -> list[str]:
    """Each value seen before (only when there are several, as upstream counts)."""
    if len(values) < 2:
        return []
    seen: set[Any] = set()
    warnings = []
    for index, value in enumerate(values):
        if value in seen:
            warnings.append(f"{at}[{index}]{leaf}: {what} {go_quote(str(value))}")
        else:
            seen.add(value)
    return warnings


def _fractional(resources: Mapping[str, Any], resource: str, at: str) -> list[str]:
    value = resources.get(resource)
    if not isinstance(value, str) or not _is_fractional(value):
        return []
    return [f"{at}: " + _FRACTIONAL.format(value=go_quote(value))]


@functools.lru_cache(maxsize=1024)
def _is_fractional(value: str) -> bool:
    """A quantity whose ``MilliValue`` (rounded up) is no whole number of units; the same
    few values recur in every write of a workload."""
    try:
        return math.ceil(parse_quantity(value) * 1000) % 1000 != 0
    except ValueError:
        return False


def _containers(at: str, spec: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``VisitContainersWithPath``'s order: init containers, containers, ephemeral."""
    for group in ("initContainers", "containers", "ephemeralContainers"):
        for index, container in enumerate(_list(spec.get(group))):
            yield f"{at}spec.{group}[{index}]", as_mapping(container)


def _container(
    at: str,
    container_at: str,
    container: Mapping[str, Any],
    annotations: Mapping[str, Any],
    template: bool,
    pod_apparmor: Any,
) -> list[str]:
    warnings = []
    name = container.get("name")
    security = as_mapping(container.get("securityContext"))
    seccomp_key = f"{_SECCOMP_CONTAINER}{name}"
    if security.get("seccompProfile") is None and seccomp_key in annotations:
        warnings.append(
            f"{at}metadata.annotations[{seccomp_key}]: non-functional in v1.27+; "
            'use the "seccompProfile" field instead'
        )
    apparmor_key = f"{_APPARMOR_CONTAINER}{name}"
    if (
        template
        and security.get("appArmorProfile") is None
        and apparmor_key in annotations
        and (pod_apparmor is None or pod_apparmor != _apparmor_field(annotations[apparmor_key]))
    ):
        warnings.append(
            f"{at}metadata.annotations[{apparmor_key}]: deprecated since v1.30; "
            'use the "appArmorProfile" field instead'
        )
    resources = as_mapping(container.get("resources"))
    for resource in ("memory", "ephemeral-storage"):
        for kind in ("limits", "requests"):
            warnings += _fractional(
                as_mapping(resources.get(kind)),
                resource,
                f"{container_at}.resources.{kind}[{resource}]",
            )
    env = _list(container.get("env"))
    if len(env) > 1:
        seen: set[Any] = set()
        for index, item in enumerate(env):
            item = as_mapping(item)
            item_name = item.get("name")
            if item_name not in seen:
                seen.add(item_name)
                continue
            reference = f"$({item_name})"
            value = str(item.get("value") or "")
            if item.get("valueFrom") is not None or reference not in value or value == reference:
                warnings.append(
                    f"{container_at}.env[{index}]: hides previous definition of "
                    f"{go_quote(str(item_name))}, which may be dropped when using apply"
                )
    return warnings


def _apparmor_field(annotation: Any) -> dict[str, str] | None:
    """``ApparmorFieldForAnnotation``: the profile an AppArmor annotation stands for."""
    if annotation == "runtime/default":
        return {"type": "RuntimeDefault"}
    if annotation == "unconfined":
        return {"type": "Unconfined"}
    if isinstance(annotation, str) and annotation.startswith("localhost/"):
        return {"type": "Localhost", "localhostProfile": annotation.removeprefix("localhost/")}
    return None


def _ports(spec: Mapping[str, Any], at: str) -> list[str]:
    """Every container's ports (init and ephemeral ones included) against the ones
    before: a host IP without host port, duplicate, overlapping and ambiguous
    definitions of one port and protocol; then repeated port names."""
    warnings = []
    seen: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    for container_at, container in _containers(at, spec):
        for index, port in enumerate(_list(container.get("ports"))):
            port = as_mapping(port)
            port_at = f"{container_at}.ports[{index}]"
            host_ip, host_port = port.get("hostIP") or "", port.get("hostPort") or 0
            if host_ip and not host_port:
                warnings.append(f"{port_at}: hostIP set without hostPort: {_go_port(port)}")
            key = f"{port.get('containerPort')}/{port.get('protocol') or ''}"
            for other_at, other in seen.get(key, ()):
                other_ip, other_port = other.get("hostIP") or "", other.get("hostPort") or 0
                if host_ip == other_ip and host_port == other_port:
                    warnings.append(f"{port_at}: duplicate port definition with {other_at}")
                elif not host_port or not other_port:
                    warnings.append(f"{port_at}: overlapping port definition with {other_at}")
                elif host_port == other_port and bool(host_ip) != bool(other_ip):
                    warnings.append(
                        f"{port_at}: dangerously ambiguous port definition with {other_at}"
                    )
            seen.setdefault(key, []).append((port_at, port))
    names: dict[str, str] = {}
    for container_at, container in _containers(at, spec):
        for index, port in enumerate(_list(container.get("ports"))):
            port_name = as_mapping(port).get("name")
            if not port_name:
                continue
            port_at = f"{container_at}.ports[{index}]"
            if port_name in names:
                first = names[port_name]
                warnings.append(
                    f"{port_at}: duplicate port name {go_quote(str(port_name))} with {first}, "
                    f"services and probes that select ports by name will use {first}"
                )
            else:
                names[port_name] = port_at
    return warnings


def _go_port(port: Mapping[str, Any]) -> str:
    """``%+v`` of the internal ``core.ContainerPort``."""
    return (
        f"{{Name:{port.get('name') or ''} HostPort:{port.get('hostPort') or 0} "
        f"ContainerPort:{port.get('containerPort') or 0} Protocol:{port.get('protocol') or ''} "
        f"HostIP:{port.get('hostIP') or ''}}}"
    )


def _ip_warnings(at: str, value: Any) -> list[str]:
    """``GetWarningsForIP`` (apimachinery ``util/validation/ip.go``) of a value
    validation accepted: one netip refuses (leading zeros) or an IPv4-mapped IPv6
    address is non-standard, an IPv6 address not in its canonical form is warned of."""
    if not isinstance(value, str):
        return []
    sloppy = parse_ip_sloppy(value)
    if sloppy is None:
        return []
    try:
        address = parse_addr(value).address
    except AddrError:
        address = None
    if address is None or getattr(address, "ipv4_mapped", None) is not None:
        return [
            f"{at}: non-standard IP address {go_quote(value)} will be considered invalid "
            f"in a future Kubernetes release: use {go_quote(go_ip_string(sloppy))}"
        ]
    if address.version == 6 and str(address) != value:
        return [
            f"{at}: IPv6 address {go_quote(value)} should be in RFC 5952 canonical format "
            f"({go_quote(str(address))})"
        ]
    return []


def _cidr_warnings(at: str, value: Any) -> list[str]:
    """``GetWarningsForCIDR`` of a value validation accepted: an address with bits set
    past the prefix is ambiguous; one netip refuses (leading zeros) or an IPv4-mapped
    one is non-standard; else an IPv6 prefix not in its canonical form."""
    if not isinstance(value, str):
        return []
    network = parse_cidr_sloppy(value)
    address = parse_ip_sloppy(value.partition("/")[0])
    if network is None or address is None:
        return []
    warnings = []
    if address != network.network_address:
        whole = go_ipnet_string(network)
        single = f"{go_ip_string(address)}/{network.max_prefixlen}"
        warnings.append(
            f"{at}: CIDR value {go_quote(value)} is ambiguous in this context (should be "
            f"{go_quote(whole)} or {go_quote(single)}?)"
        )
    try:
        parsed, bits = parse_prefix(value)
    except AddrError:
        parsed = None
    if parsed is None or getattr(parsed.address, "ipv4_mapped", None) is not None:
        warnings.append(
            f"{at}: non-standard CIDR value {go_quote(value)} will be considered invalid in "
            f"a future Kubernetes release: use {go_quote(go_ipnet_string(network))}"
        )
    elif not warnings and parsed.address.version == 6 and f"{parsed.address}/{bits}" != value:
        warnings.append(
            f"{at}: IPv6 CIDR value {go_quote(value)} should be in RFC 5952 canonical format "
            f"({go_quote(f'{parsed.address}/{bits}')})"
        )
    return warnings


#: pkg/apis/core annotation_key_constants.go
_TOPOLOGY_AWARE_HINTS = "service.kubernetes.io/topology-aware-hints"
_TOPOLOGY_MODE = "service.kubernetes.io/topology-mode"


def _service_warnings(meta: Mapping[str, Any], spec: Mapping[str, Any]) -> list[str]:
    """``GetWarningsForService`` (``pkg/api/service/warnings.go``), on create and update."""
    warnings = []
    if _TOPOLOGY_AWARE_HINTS in as_mapping(meta.get("annotations")):
        warnings.append(
            f"annotation {_TOPOLOGY_AWARE_HINTS} is deprecated, please use {_TOPOLOGY_MODE} instead"
        )
    cluster_ip = spec.get("clusterIP") or ""
    if cluster_ip not in ("", "None"):  # helper.IsServiceIPSet
        for index, ip in enumerate(_list(spec.get("clusterIPs"))):
            warnings += _ip_warnings(f"spec.clusterIPs[{index}]", ip)
    kind = spec.get("type")
    external_ips = _list(spec.get("externalIPs"))
    if kind == "ClusterIP" and cluster_ip == "None":
        if spec.get("loadBalancerIP"):
            warnings.append("spec.loadBalancerIP is ignored for headless services")
        if external_ips:
            warnings.append("spec.externalIPs is ignored for headless services")
        if spec.get("sessionAffinity") != "None":
            warnings.append("spec.SessionAffinity is ignored for headless services")
    for index, ip in enumerate(external_ips):
        warnings += _ip_warnings(f"spec.externalIPs[{index}]", ip)
    if spec.get("loadBalancerIP"):
        warnings += _ip_warnings("spec.loadBalancerIP", spec.get("loadBalancerIP"))
    for index, cidr in enumerate(_list(spec.get("loadBalancerSourceRanges"))):
        warnings += _cidr_warnings(f"spec.loadBalancerSourceRanges[{index}]", cidr)
    if kind == "ExternalName" and external_ips:
        warnings.append('spec.externalIPs is ignored when spec.type is "ExternalName"')
    if kind != "ExternalName" and spec.get("externalName"):
        warnings.append('spec.externalName is ignored when spec.type is not "ExternalName"')
    return warnings


def _network_policy_warnings(spec: Mapping[str, Any]) -> list[str]:
    """``networkPolicyWarnings`` (``pkg/registry/networking/networkpolicy/strategy.go``):
    each ipBlock's CIDR and exceptions, ingress rules' peers then egress rules'."""
    warnings = []
    for direction, peers in (("ingress", "from"), ("egress", "to")):
        for index, rule in enumerate(_list(spec.get(direction))):
            for number, peer in enumerate(_list(as_mapping(rule).get(peers))):
                block = as_mapping(peer).get("ipBlock")
                if not isinstance(block, Mapping):
                    continue
                at = f"spec.{direction}[{index}].{peers}[{number}].ipBlock"
                warnings += _cidr_warnings(f"{at}.cidr", block.get("cidr"))
                for k, exception in enumerate(_list(block.get("except"))):
                    warnings += _cidr_warnings(f"{at}.except[{k}]", exception)
    return warnings
