"""A NetworkPolicy's and an Ingress's spec as kube-apiserver 1.34 validates them.

Mirrors ``pkg/apis/networking/validation/validation.go`` ``ValidateNetworkPolicySpec``
(run by ``pkg/registry/networking/networkpolicy/strategy.go`` in ``ValidateNetworkPolicy``
and again in ``ValidateNetworkPolicyUpdate``): the pod selector; each ingress and egress
rule's ports (``ValidateNetworkPolicyPort``: TCP, UDP or SCTP, a port number in range
or a port name, an endPort only beside a numeric port and not below it) and peers
(``ValidateNetworkPolicyPeer``: a selector or an ipBlock, the ipBlock alone;
``ValidateIPBlock``: a CIDR as k8s.io/utils/net ``ParseCIDRSloppy`` reads it,
StrictIPCIDRValidation being alpha and off, each exception a strict subset); at most
two policy types, each Ingress or Egress. ``allowed``: an update's old CIDRs
(``AllowCIDRsEvenIfInvalid``), let through unparsed.

And ``ValidateIngressCreate`` / ``ValidateIngressUpdate``'s ``ValidateIngressSpec``
(``pkg/registry/networking/ingress/strategy.go``): rules or a default backend; each
rule's host (no IP, a DNS subdomain or a wildcard one) and HTTP paths (a pathType;
Exact and Prefix paths absolute, without ``//``, ``/./``, ``/../``, ``%2f``, not ending
``/..`` or ``/.``; an ImplementationSpecific one absolute if set); each backend
(``validateIngressBackend``: a service, its name a DNS-1035 label as
RelaxedServiceNameValidation is alpha and off, a port name or number; or a resource);
TLS hosts and secret names; the class name; on a create the
``kubernetes.io/ingress.class`` annotation equal to ``ingressClassName``. An update's
options for invalid data an older server stored (``AllowInvalidSecretName``,
``AllowInvalidWildcardHostRule``, a relaxed old service name) are not mirrored: the
store never holds such data. Pure: problems are ``Cause``\\s.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.gonetip import parse_cidr_sloppy
from kubectl_crd.model.schema import as_mapping
from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    forbidden,
    invalid_cause,
    not_supported,
    required,
)
from kubectl_crd.validation.names import (
    dns1035_label,
    dns1123_subdomain,
    path_segment_name,
    port_name,
)
from kubectl_crd.validation.pods import label_selector_problems
from kubectl_crd.validation.results import Reason
from kubectl_crd.validation.services import parse_ip

__all__ = ["ingress_problems", "network_policy_problems", "old_cidrs"]

_PROTOCOLS = ("TCP", "UDP", "SCTP")
_TYPES = ("Ingress", "Egress")
_PORT_RANGE = "must be between 1 and 65535, inclusive"
_NOT_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _rules(spec: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any], int]]:
    """(direction, peers' key, rule, index) of each ingress, then egress rule."""
    return [
        (direction, peers, as_mapping(rule), index)
        for direction, peers in (("ingress", "from"), ("egress", "to"))
        for index, rule in enumerate(_list(spec.get(direction)))
    ]


def old_cidrs(obj: Mapping[str, Any]) -> tuple[str, ...]:
    """``ValidateNetworkPolicyUpdate``'s ``existingCIDRs``: each ipBlock's CIDR and
    exceptions in the old object."""
    found: list[str] = []
    for _, key, rule, _ in _rules(as_mapping(obj.get("spec"))):
        for peer in _list(rule.get(key)):
            block = as_mapping(peer).get("ipBlock")
            if isinstance(block, Mapping):
                found.append(str(block.get("cidr") or ""))
                found += [str(each) for each in _list(block.get("except"))]
    return tuple(found)


def network_policy_problems(obj: Mapping[str, Any], allowed: tuple[str, ...] = ()) -> list[Cause]:
    """``ValidateNetworkPolicySpec`` of ``obj``'s spec."""
    spec = as_mapping(obj.get("spec"))
    found = label_selector_problems(as_mapping(spec.get("podSelector")), "spec.podSelector")
    for direction, key, rule, index in _rules(spec):
        at = f"spec.{direction}[{index}]"
        for number, port in enumerate(_list(rule.get("ports"))):
            found += _port(as_mapping(port), f"{at}.ports[{number}]")
        for number, peer in enumerate(_list(rule.get(key))):
            found += _peer(as_mapping(peer), f"{at}.{key}[{number}]", allowed)
    types = _list(spec.get("policyTypes"))
    if len(types) > len(_TYPES):
        detail = "may not specify more than two policyTypes"
        return [*found, invalid_cause("spec.policyTypes", types, detail)]
    for index, each in enumerate(types):
        if each not in _TYPES:
            found.append(not_supported(f"spec.policyTypes[{index}]", each, _TYPES, named=True))
    return found


def _port(port: Mapping[str, Any], at: str) -> list[Cause]:
    """``ValidateNetworkPolicyPort`` (the protocol defaulted to TCP)."""
    found: list[Cause] = []
    protocol = port.get("protocol")
    if isinstance(protocol, str) and protocol not in _PROTOCOLS:
        found.append(not_supported(f"{at}.protocol", protocol, _PROTOCOLS, named=True))
    number, end = port.get("port"), port.get("endPort")
    if isinstance(number, int):
        if not 1 <= number <= 65535:
            found.append(invalid_cause(f"{at}.port", number, _PORT_RANGE))
        if isinstance(end, int):
            if end < number:
                detail = "must be greater than or equal to `port`"
                found.append(invalid_cause(f"{at}.endPort", number, detail))
            if not 1 <= end <= 65535:
                found.append(invalid_cause(f"{at}.endPort", end, _PORT_RANGE))
    elif isinstance(number, str):
        if isinstance(end, int):
            detail = "may not be specified when `port` is non-numeric"
            found.append(invalid_cause(f"{at}.endPort", end, detail))
        found += [invalid_cause(f"{at}.port", number, m) for m in port_name(number)]
    elif isinstance(end, int):
        detail = "may not be specified when `port` is not specified"
        found.append(invalid_cause(f"{at}.endPort", end, detail))
    return found


def _peer(peer: Mapping[str, Any], at: str, allowed: tuple[str, ...]) -> list[Cause]:
    """``ValidateNetworkPolicyPeer``."""
    found: list[Cause] = []
    count = 0
    for key in ("podSelector", "namespaceSelector"):
        selector = peer.get(key)
        if isinstance(selector, Mapping):
            count += 1
            found += label_selector_problems(selector, f"{at}.{key}")
    block = peer.get("ipBlock")
    if isinstance(block, Mapping):
        count += 1
        found += _ip_block(block, f"{at}.ipBlock", allowed)
    if count == 0:
        found.append(cause(at, Reason.REQUIRED, "Required value: must specify a peer"))
    elif count > 1 and isinstance(block, Mapping):
        found.append(forbidden(at, "may not specify both ipBlock and another peer"))
    return found


def _ip_block(block: Mapping[str, Any], at: str, allowed: tuple[str, ...]) -> list[Cause]:
    """``ValidateIPBlock``."""
    cidr = str(block.get("cidr") or "")
    if not cidr:
        return [required(f"{at}.cidr")]
    network = parse_cidr_sloppy(cidr)
    if network is None:
        return [] if cidr in allowed else [invalid_cause(f"{at}.cidr", cidr, _NOT_CIDR)]
    found: list[Cause] = []
    for index, text in enumerate(_list(block.get("except"))):
        where, text = f"{at}.except[{index}]", str(text)
        exception = parse_cidr_sloppy(text)
        if exception is None:
            found += [] if text in allowed else [invalid_cause(where, text, _NOT_CIDR)]
            continue
        # net.IPNet.Contains of the exception's (masked) address, the masks' lengths
        inside = exception.version == network.version and exception.network_address in network
        if not inside or network.prefixlen >= exception.prefixlen:
            found.append(invalid_cause(where, text, "must be a strict subset of `cidr`"))
    return found


_PATH_TYPES = ("Exact", "ImplementationSpecific", "Prefix")
_BAD_SEQUENCES = ("//", "/./", "/../", "%2f", "%2F")
_BAD_SUFFIXES = ("/..", "/.")
_CLASS = "kubernetes.io/ingress.class"
#: validation.IsWildcardDNS1123Subdomain's pattern and message
_WILDCARD = re.compile(r"\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")
_WILDCARD_MESSAGE = (
    "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, "
    "which must consist of lower case alphanumeric characters, '-' or '.' and end with an "
    "alphanumeric character (e.g. '*.example.com', regex used for validation is "
    "'\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)


def _host(host: str, at: str) -> list[Cause]:
    """``IsWildcardDNS1123Subdomain`` of a host with a ``*``, else ``IsDNS1123Subdomain``."""
    if "*" not in host:
        return [invalid_cause(at, host, m) for m in dns1123_subdomain(host)]
    messages = ["must be no more than 253 characters"] if len(host) > 253 else []
    if not _WILDCARD.match(host):
        messages.append(_WILDCARD_MESSAGE)
    return [invalid_cause(at, host, m) for m in messages]


def ingress_problems(
    obj: Mapping[str, Any], given: Mapping[str, Any] | None, *, create: bool
) -> list[Cause]:
    """``ValidateIngressSpec`` of ``obj``'s spec, and on a ``create`` the class
    annotation's check. ``given``: the body as sent (an empty ``rules`` list it sent is
    Go's empty slice, ``[]`` where a missing one is ``null``)."""
    spec = as_mapping(obj.get("spec"))
    rules, default = _list(spec.get("rules")), spec.get("defaultBackend")
    found: list[Cause] = []
    if not rules and not isinstance(default, Mapping):
        sent = as_mapping(as_mapping(given).get("spec")).get("rules")
        value: list[Any] | None = [] if isinstance(sent, list) else None
        detail = "either `defaultBackend` or `rules` must be specified"
        found.append(invalid_cause("spec", value, detail))
    if isinstance(default, Mapping):
        found += _backend(default, "spec.defaultBackend")
    for index, each in enumerate(rules):
        each, at = as_mapping(each), f"spec.rules[{index}]"
        host = str(each.get("host") or "")
        if host and parse_ip(host) is not None:
            found.append(invalid_cause(f"{at}.host", host, "must be a DNS name, not an IP address"))
        if host:
            found += _host(host, f"{at}.host")
        http = each.get("http")
        if isinstance(http, Mapping):
            paths = _list(http.get("paths"))
            if not paths:
                found.append(required(f"{at}.http.paths"))
            for number, item in enumerate(paths):
                found += _path(as_mapping(item), f"{at}.http.paths[{number}]")
    for index, tls in enumerate(_list(spec.get("tls"))):
        tls, at = as_mapping(tls), f"spec.tls[{index}]"
        for number, host in enumerate(_list(tls.get("hosts"))):
            found += _host(str(host), f"{at}.hosts[{number}]")
        secret = str(tls.get("secretName") or "")
        if secret:
            found += [
                invalid_cause(f"{at}.secretName", secret, m) for m in dns1123_subdomain(secret)
            ]
    name = spec.get("ingressClassName")
    if isinstance(name, str):
        found += [invalid_cause("spec.ingressClassName", name, m) for m in dns1123_subdomain(name)]
    annotations = as_mapping(as_mapping(obj.get("metadata")).get("annotations"))
    if create and _CLASS in annotations and isinstance(name, str) and annotations[_CLASS] != name:
        detail = "must match `ingressClassName` when both are specified"
        found.append(invalid_cause(f"annotations.{_CLASS}", str(annotations[_CLASS]), detail))
    return found


def _path(item: Mapping[str, Any], at: str) -> list[Cause]:
    """``validateHTTPIngressPath``."""
    kind, text = item.get("pathType"), str(item.get("path") or "")
    if not isinstance(kind, str):
        return [
            cause(f"{at}.pathType", Reason.REQUIRED, "Required value: pathType must be specified")
        ]
    found: list[Cause] = []
    where = f"{at}.path"
    if kind in ("Exact", "Prefix"):
        if not text.startswith("/"):
            found.append(invalid_cause(where, text, "must be an absolute path"))
        found += [invalid_cause(where, text, f"must not contain '{sequence}'")
                  for sequence in _BAD_SEQUENCES if sequence in text]  # fmt: skip
        found += [invalid_cause(where, text, f"cannot end with '{suffix}'")
                  for suffix in _BAD_SUFFIXES if text.endswith(suffix)]  # fmt: skip
    elif kind == "ImplementationSpecific":
        if text and not text.startswith("/"):
            found.append(invalid_cause(where, text, "must be an absolute path"))
    else:
        found.append(not_supported(f"{at}.pathType", kind, _PATH_TYPES, named=True))
    return found + _backend(as_mapping(item.get("backend")), f"{at}.backend")


def _backend(backend: Mapping[str, Any], at: str) -> list[Cause]:
    """``validateIngressBackend``."""
    service, resource = backend.get("service"), backend.get("resource")
    if isinstance(service, Mapping) and isinstance(resource, Mapping):
        return [invalid_cause(at, "", "cannot set both resource and service backends")]
    if isinstance(resource, Mapping):
        return _resource(resource, f"{at}.resource")
    if not isinstance(service, Mapping):
        return [invalid_cause(at, "", "resource or service backend is required")]
    found: list[Cause] = []
    name = str(service.get("name") or "")
    if not name:
        found.append(required(f"{at}.service.name"))
    found += (
        [invalid_cause(f"{at}.service.name", name, m) for m in dns1035_label(name)] if name else []
    )
    port = as_mapping(service.get("port"))
    port_label, number = str(port.get("name") or ""), port.get("number")
    number = number if isinstance(number, int) else 0
    if port_label and number:
        found.append(invalid_cause(at, "", "cannot set both port name & port number"))
    elif port_label:
        where = f"{at}.service.port.name"
        found += [invalid_cause(where, port_label, m) for m in port_name(port_label)]
    elif number:
        if not 1 <= number <= 65535:
            found.append(invalid_cause(f"{at}.service.port.number", number, _PORT_RANGE))
    else:
        found.append(cause(at, Reason.REQUIRED, "Required value: port name or number is required"))
    return found


def _resource(resource: Mapping[str, Any], at: str) -> list[Cause]:
    """``validateIngressTypedLocalObjectReference``."""
    found: list[Cause] = []
    group = resource.get("apiGroup")
    if isinstance(group, str):
        found += [invalid_cause(f"{at}.apiGroup", group, m) for m in dns1123_subdomain(group)]
    for key in ("kind", "name"):
        value = str(resource.get(key) or "")
        if not value:
            found.append(required(f"{at}.{key}"))
        else:
            found += [
                invalid_cause(f"{at}.{key}", value, m) for m in path_segment_name(value, False)
            ]
    return found
