"""A NetworkPolicy's spec as kube-apiserver 1.34 validates it.

Mirrors ``pkg/apis/networking/validation/validation.go`` ``ValidateNetworkPolicySpec``
(run by ``pkg/registry/networking/networkpolicy/strategy.go`` in ``ValidateNetworkPolicy``
and again in ``ValidateNetworkPolicyUpdate``): the pod selector; each ingress and egress
rule's ports (``ValidateNetworkPolicyPort``: TCP, UDP or SCTP, a port number in range
or a port name, an endPort only beside a numeric port and not below it) and peers
(``ValidateNetworkPolicyPeer``: a selector or an ipBlock, the ipBlock alone;
``ValidateIPBlock``: a CIDR as k8s.io/utils/net ``ParseCIDRSloppy`` reads it,
StrictIPCIDRValidation being alpha and off, each exception a strict subset); at most
two policy types, each Ingress or Egress. ``allowed``: an update's old CIDRs
(``AllowCIDRsEvenIfInvalid``), let through unparsed. Pure: problems are ``Cause``\\s.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    forbidden,
    invalid_cause,
    not_supported,
    required,
)
from kubectl_crd.validation.names import port_name
from kubectl_crd.validation.pods import label_selector_problems
from kubectl_crd.validation.results import Reason
from kubectl_crd.validation.services import parse_ip

__all__ = ["network_policy_problems", "old_cidrs"]

_PROTOCOLS = ("TCP", "UDP", "SCTP")
_TYPES = ("Ingress", "Egress")
_PORT_RANGE = "must be between 1 and 65535, inclusive"
_NOT_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _rules(spec: Mapping[str, Any]) -> list[tuple[str, str, Mapping[str, Any], int]]:
    """(direction, peers' key, rule, index) of each ingress, then egress rule."""
    return [
        (direction, peers, _mapping(rule), index)
        for direction, peers in (("ingress", "from"), ("egress", "to"))
        for index, rule in enumerate(_list(spec.get(direction)))
    ]


def old_cidrs(obj: Mapping[str, Any]) -> tuple[str, ...]:
    """``ValidateNetworkPolicyUpdate``'s ``existingCIDRs``: each ipBlock's CIDR and
    exceptions in the old object."""
    found: list[str] = []
    for _, key, rule, _ in _rules(_mapping(obj.get("spec"))):
        for peer in _list(rule.get(key)):
            block = _mapping(peer).get("ipBlock")
            if isinstance(block, Mapping):
                found.append(str(block.get("cidr") or ""))
                found += [str(each) for each in _list(block.get("except"))]
    return tuple(found)


def network_policy_problems(obj: Mapping[str, Any], allowed: tuple[str, ...] = ()) -> list[Cause]:
    """``ValidateNetworkPolicySpec`` of ``obj``'s spec."""
    spec = _mapping(obj.get("spec"))
    found = label_selector_problems(_mapping(spec.get("podSelector")), "spec.podSelector")
    for direction, key, rule, index in _rules(spec):
        at = f"spec.{direction}[{index}]"
        for number, port in enumerate(_list(rule.get("ports"))):
            found += _port(_mapping(port), f"{at}.ports[{number}]")
        for number, peer in enumerate(_list(rule.get(key))):
            found += _peer(_mapping(peer), f"{at}.{key}[{number}]", allowed)
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
    network = _sloppy_cidr(cidr)
    if network is None:
        return [] if cidr in allowed else [invalid_cause(f"{at}.cidr", cidr, _NOT_CIDR)]
    found: list[Cause] = []
    for index, text in enumerate(_list(block.get("except"))):
        where, text = f"{at}.except[{index}]", str(text)
        exception = _sloppy_cidr(text)
        if exception is None:
            found += [] if text in allowed else [invalid_cause(where, text, _NOT_CIDR)]
            continue
        # net.IPNet.Contains of the exception's (masked) address, the masks' lengths
        inside = exception.version == network.version and exception.network_address in network
        if not inside or network.prefixlen >= exception.prefixlen:
            found.append(invalid_cause(where, text, "must be a strict subset of `cidr`"))
    return found


def _sloppy_cidr(text: str) -> Network | None:
    """``ParseCIDRSloppy``'s network (the address masked), or ``None``."""
    address, slash, bits = text.partition("/")
    ip = parse_ip(address)
    if ip is None or not slash or not bits.isdigit() or not bits.isascii():
        return None
    length = int(bits)
    if length > ip.max_prefixlen:
        return None
    return ipaddress.ip_network(f"{ip}/{length}", strict=False)
