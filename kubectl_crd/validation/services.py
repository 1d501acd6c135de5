"""A Service's validation, as kube-apiserver 1.34 refuses a Service it will not store.

Pure: the store (``reconcile.localstore``) asks, in the server's order of a create:

1. ``cluster_ip_problems``: what the Service registry's allocator checks before it
   allocates (``pkg/registry/core/service/ipallocator``'s caller, ``storage/alloc.go``
   ``initIPFamilyFields``): ``ValidateServiceClusterIPsRelatedFields``
   (``pkg/apis/core/validation/validation.go``: ``clusterIP`` and ``clusterIPs`` in step,
   valid addresses, families and policy supported and matching the addresses), then
   the families and policy against the cluster's single IPv4 stack (the test control
   plane's ``--service-cluster-ip-range=10.0.0.0/24``);
2. the allocation itself (``builtin_defaulting.ServiceAllocator``, which words its
   refusals with ``allocation_cause``): a requested address outside the range or taken,
   a requested node port outside 30000-32767 or taken;
3. ``validate_service``: ``ValidateService``'s checks of the spec (ports, names,
   protocols, target ports, type and its fields, affinity, traffic policies, external
   IPs, source ranges), after the object's metadata, all in one 422.

Each problem is a ``Cause``: (field, reason, message) with the message as
``field.Error.Error()`` writes it (``spec.ports[0].name: Required value``). On an
update, ``cluster_ip_problems`` takes the old spec too (alloc.go's update-only rules:
a second address or family released only with SingleStack), and
``validate_service_update`` checks ``ValidateServiceUpdate``'s own rules (the primary
address and family immutable, a LoadBalancer's class). The test control plane is
single-stack: what only a dual-stack cluster answers (a second address allocated,
families appended) is not modelled.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.gonetip import parse_cidr_sloppy, parse_ip_sloppy
from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation import names
from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    duplicate,
    forbidden,
    invalid_cause,
    not_supported,
    required,
)
from kubectl_crd.validation.results import Reason

__all__ = [
    "IP_MESSAGE",
    "NODE_PORTS",
    "PROTOCOLS",
    "allocation_cause",
    "cluster_ip_problems",
    "health_check_refusal",
    "parse_ip",
    "validate_service",
    "validate_service_update",
]

#: kube-apiserver's default ``--service-node-port-range``
NODE_PORTS = range(30000, 32768)

_POLICIES = ("PreferDualStack", "RequireDualStack", "SingleStack")
_FAMILIES = ("IPv4", "IPv6")
#: supportedPortProtocols (a Service's ports and a container's)
PROTOCOLS = ("SCTP", "TCP", "UDP")
_TYPES = ("ClusterIP", "ExternalName", "LoadBalancer", "NodePort")
_AFFINITIES = ("ClientIP", "None")
_TRAFFIC_POLICIES = ("Cluster", "Local")
# validation.go validateServiceTrafficDistribution: listed in this order, not sorted
_DISTRIBUTIONS = ("PreferClose", "PreferSameZone", "PreferSameNode")
#: IsValidIP's message (a Service's IPs, a pod's host aliases and nameservers)
IP_MESSAGE = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
_CIDR_MESSAGE = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"
_LOAD_BALANCER_ONLY = "may only be used when `type` is 'LoadBalancer'"


def parse_ip(text: Any) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An address as k8s.io/utils/net ``ParseIPSloppy`` reads it (``model.gonetip``):
    an IPv4 part with leading zeros is decimal (``10.0.0.010`` is 10.0.0.10; the server
    warns it will be refused one day), which Python's ``ip_address`` refuses."""
    return parse_ip_sloppy(text) if isinstance(text, str) else None


def _is_headless(spec: Mapping[str, Any]) -> bool:
    ips = spec.get("clusterIPs")
    return isinstance(ips, list) and bool(ips) and ips[0] == "None"


def cluster_ip_problems(
    spec: Mapping[str, Any], old_spec: Mapping[str, Any] | None = None
) -> list[Cause]:
    """What the allocator refuses before it allocates (see the module docstring):
    ``ValidateServiceClusterIPsRelatedFields``, then the families and policy a
    single-stack IPv4 cluster serves. ``spec`` is defaulted (``clusterIPs`` follows
    ``clusterIP`` when left out; on an update, the policy left out is ``old_spec``'s)."""
    if spec.get("type") == "ExternalName":
        return []
    found: list[Cause] = []
    cluster_ip = spec.get("clusterIP") or ""
    ips = [ip for ip in spec.get("clusterIPs") or () if isinstance(ip, str)]
    families = [f for f in spec.get("ipFamilies") or () if isinstance(f, str)]
    policy = spec.get("ipFamilyPolicy")
    if cluster_ip:
        if not ips:
            found.append(required("spec.clusterIPs"))
        elif ips[0] != cluster_ip:
            found.append(
                invalid_cause("spec.clusterIPs", ips, "first value must match `clusterIP`")
            )
    elif ips:
        found.append(
            invalid_cause("spec.clusterIPs", ips, "must be empty when `clusterIP` is not specified")
        )
    seen: set[str] = set()
    for index, family in enumerate(families):
        field = f"spec.ipFamilies[{index}]"
        if family not in _FAMILIES:
            found.append(not_supported(field, family, _FAMILIES, named=True))
        if family in seen:
            found.append(duplicate(field, family, named=True))
        seen.add(family)
    if policy is not None and policy not in _POLICIES:
        found.append(not_supported("spec.ipFamilyPolicy", policy, _POLICIES, named=True))
    invalid_ips = False
    for index, ip in enumerate(ips):
        if index == 0 and ip == "None":
            if len(ips) > 1:
                invalid_ips = True
                found.append(
                    invalid_cause("spec.clusterIPs", ips, "'None' must be the first and only value")
                )
            continue
        if parse_ip(ip) is None:
            invalid_ips = True
            found.append(invalid_cause(f"spec.clusterIPs[{index}]", ip, IP_MESSAGE))
    if len(ips) > 2:
        found.append(invalid_cause("spec.clusterIPs", ips, "may only hold up to 2 values"))
    if invalid_ips:
        return found
    parsed = [parse_ip(ip) for ip in ips if ip != "None"]
    if len(ips) > 1 and len({p.version for p in parsed if p is not None}) != len(ips):
        found.append(
            invalid_cause(
                "spec.clusterIPs", ips, "may specify no more than one IP for each IP family"
            )
        )
    if not _is_headless(spec):
        for index, (ip, family) in enumerate(zip(ips, families, strict=False)):
            address = parse_ip(ip)
            if family == "IPv4" and address is not None and address.version == 6:
                found.append(
                    invalid_cause(
                        f"spec.clusterIPs[{index}]",
                        ip,
                        f"expected an IPv4 value as indicated by `ipFamilies[{index}]`",
                    )
                )
            if family == "IPv6" and (address is None or address.version != 6):
                found.append(
                    invalid_cause(
                        f"spec.clusterIPs[{index}]",
                        ip,
                        f"expected an IPv6 value as indicated by `ipFamilies[{index}]`",
                    )
                )
    if found:
        return found
    if policy is None:
        # alloc.go: a headless Service without a selector defaults to dual-stack
        selectorless = spec.get("clusterIP") == "None" and not spec.get("selector")
        policy = "RequireDualStack" if selectorless else "SingleStack"
    return _family_problems(spec, ips, families, policy, old_spec)


def _family_problems(
    spec: Mapping[str, Any],
    ips: list[str],
    families: list[str],
    policy: str,
    old_spec: Mapping[str, Any] | None,
) -> list[Cause]:
    """alloc.go ``initIPFamilyFields`` on a single-stack IPv4 cluster, in its order:
    an update that keeps a PreferDualStack Service's addresses and families is not
    checked; an update whose policy is not SingleStack may not release a second
    address or family; a SingleStack policy allows one of each; an address with no
    family given must be of a family the cluster serves; a headless Service without a
    selector takes any families; otherwise the policy and each family must be served."""
    if old_spec is not None and _prefers_dual_stack_unchanged(spec, old_spec, policy):
        return []
    found: list[Cause] = []
    if old_spec is not None and policy != "SingleStack":
        old_ips, old_families = old_spec.get("clusterIPs") or (), old_spec.get("ipFamilies") or ()
        for now, before, what in (
            (ips, old_ips, "cluster IP"),
            (families, old_families, "IP family"),
        ):
            if now and len(now) < len(before):
                message = f"must be 'SingleStack' to release the secondary {what}"
                found.append(invalid_cause("spec.ipFamilyPolicy", policy, message))
    if policy == "SingleStack":
        for counted, what in ((ips, "cluster IPs"), (families, "IP families")):
            if len(counted) == 2:
                message = f"must be 'RequireDualStack' or 'PreferDualStack' when multiple {what} are specified"
                found.append(invalid_cause("spec.ipFamilyPolicy", policy, message))
    for index, ip in enumerate(ips):
        if ip == "None":
            break
        address = parse_ip(ip)
        # a family left out is inferred from the address: IPv4 is the only one served
        if index >= len(families) and address is not None and address.version == 6:
            message = "IPv6 is not configured on this cluster"
            found.append(invalid_cause(f"spec.clusterIPs[{index}]", ips, message))
    if found or (spec.get("clusterIP") == "None" and not spec.get("selector")):
        return found
    if policy == "RequireDualStack":
        message = "this cluster is not configured for dual-stack services"
        found.append(invalid_cause("spec.ipFamilyPolicy", policy, message))
    for index, family in enumerate(families):
        if family != "IPv4":
            found.append(
                invalid_cause(f"spec.ipFamilies[{index}]", family, "not configured on this cluster")
            )
    return found


def _prefers_dual_stack_unchanged(
    spec: Mapping[str, Any], old_spec: Mapping[str, Any], policy: str
) -> bool:
    """alloc.go ``isMatchingPreferDualStackClusterIPFields``: a PreferDualStack Service
    updated with its type, policy, addresses and families as they were."""
    return (
        policy == old_spec.get("ipFamilyPolicy") == "PreferDualStack"
        and spec.get("type") == old_spec.get("type")
        and list(spec.get("clusterIPs") or ()) == list(old_spec.get("clusterIPs") or ())
        and list(spec.get("ipFamilies") or ()) == list(old_spec.get("ipFamilies") or ())
    )


def allocation_cause(field: str, value: Any, problem: str) -> Cause:
    """A requested address or node port the allocator refuses (alloc.go): ``problem``
    is one of ``outside``, ``taken``; an address's field is ``spec.clusterIPs`` and its
    value the whole list, a port's its own field and number."""
    if field == "spec.clusterIPs":
        ip = value[0] if isinstance(value, list) and value else value
        detail = (
            "the provided network does not match the current range"
            if problem == "outside"
            else "provided IP is already allocated"
        )
        return invalid_cause(field, value, f"failed to allocate IP {ip}: {detail}")
    return invalid_cause(field, value, _port_detail(problem))


def _port_detail(problem: str) -> str:
    if problem == "taken":
        return "provided port is already allocated"
    last = NODE_PORTS.stop - 1
    return f"provided port is not in the valid range. The range of valid ports is {NODE_PORTS.start}-{last}"


def health_check_refusal(number: int, problem: str) -> str:
    """A requested health check node port the allocator refuses: the server's 500."""
    return (
        "Internal error occurred: failed to allocate requested HealthCheck NodePort "
        f"{number}: {_port_detail(problem)}"
    )


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _port_problems(
    port: Mapping[str, Any], index: int, require_name: bool, names_seen: set[str]
) -> list[Cause]:
    """validation.go ``validateServicePort``."""
    where = f"spec.ports[{index}]"
    found: list[Cause] = []
    name = port.get("name") or ""
    if require_name and not name:
        found.append(required(f"{where}.name"))
    elif name:
        found.extend(invalid_cause(f"{where}.name", name, m) for m in names.dns1123_label(name))
        if name in names_seen:
            found.append(duplicate(f"{where}.name", name))
        names_seen.add(name)
    number = _int(port.get("port"))
    if not 1 <= number <= 65535:
        found.append(invalid_cause(f"{where}.port", number, names.PORT_RANGE_MESSAGE))
    protocol = port.get("protocol") or ""
    if not protocol:
        found.append(required(f"{where}.protocol"))
    elif protocol not in PROTOCOLS:
        found.append(not_supported(f"{where}.protocol", protocol, PROTOCOLS, named=True))
    target = port.get("targetPort")
    if isinstance(target, str):
        found.extend(
            invalid_cause(f"{where}.targetPort", target, m) for m in names.port_name(target)
        )
    elif not 1 <= _int(target) <= 65535:
        found.append(invalid_cause(f"{where}.targetPort", _int(target), names.PORT_RANGE_MESSAGE))
    app_protocol = port.get("appProtocol")
    if isinstance(app_protocol, str):
        found.extend(
            invalid_cause(f"{where}.appProtocol", app_protocol, m)
            for m in names.qualified_name(app_protocol)
        )
    return found


def _special_ip_problems(
    text: str, address: ipaddress.IPv4Address | ipaddress.IPv6Address
) -> list[str]:
    """validation.go ``ValidateNonSpecialIP``."""
    if address.is_unspecified:
        return [f"may not be unspecified ({text})"]
    if address.is_loopback:
        return ["may not be in the loopback range (127.0.0.0/8, ::1/128)"]
    if address.is_link_local:
        return ["may not be in the link-local range (169.254.0.0/16, fe80::/10)"]
    link_local_multicast = ipaddress.ip_network(
        "224.0.0.0/24" if address.version == 4 else "ff02::/16"
    )
    if address in link_local_multicast:
        return ["may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"]
    return []


def validate_service(obj: Mapping[str, Any]) -> list[Cause]:
    """``ValidateService``'s checks of a defaulted Service's spec, in its order (the
    metadata's come first, from the store's ``ValidateObjectMeta``)."""
    spec = obj.get("spec")
    if not isinstance(spec, Mapping):
        return []
    found: list[Cause] = []
    kind = spec.get("type") or ""
    headless = _is_headless(spec)
    ports = [p for p in spec.get("ports") or () if isinstance(p, Mapping)]
    ips = spec.get("clusterIPs") or []
    if not ports and not headless and kind != "ExternalName":
        found.append(required("spec.ports"))
    if kind in ("LoadBalancer", "NodePort") and headless:
        found.append(
            invalid_cause(
                "spec.clusterIPs[0]", ips[0], f"may not be set to 'None' for {kind} services"
            )
        )
    elif kind == "ExternalName":
        if ips:
            found.append(forbidden("spec.clusterIPs", "may not be set for ExternalName services"))
        if spec.get("ipFamilies"):
            found.append(forbidden("spec.ipFamilies", "may not be set for ExternalName services"))
        if spec.get("ipFamilyPolicy") is not None:
            found.append(
                forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services")
            )
        # the value (a CNAME) may end in a dot
        cname = str(spec.get("externalName") or "").removesuffix(".")
        if cname:
            found.extend(
                invalid_cause("spec.externalName", cname, m) for m in names.dns1123_subdomain(cname)
            )
        else:
            found.append(required("spec.externalName"))
    names_seen: set[str] = set()
    for index, port in enumerate(ports):
        found.extend(_port_problems(port, index, len(ports) > 1, names_seen))
    selector = spec.get("selector")
    if isinstance(selector, Mapping):
        for key, value in selector.items():
            found.extend(invalid_cause("spec.selector", key, m) for m in names.qualified_name(key))
            found.extend(
                invalid_cause("spec.selector", value or "", m)
                for m in names.label_value(value or "")
            )
    affinity = spec.get("sessionAffinity") or ""
    if not affinity:
        found.append(required("spec.sessionAffinity"))
    elif affinity not in _AFFINITIES:
        found.append(not_supported("spec.sessionAffinity", affinity, _AFFINITIES, named=True))
    config = spec.get("sessionAffinityConfig")
    if affinity == "ClientIP":
        client = config.get("clientIP") if isinstance(config, Mapping) else None
        timeout = _int(client.get("timeoutSeconds")) if isinstance(client, Mapping) else 0
        if not 0 < timeout <= 86400:
            found.append(
                invalid_cause(
                    "spec.sessionAffinityConfig.clientIP.timeoutSeconds",
                    timeout,
                    "must be greater than 0 and less than 86400",
                )
            )
    elif affinity == "None" and config is not None:
        found.append(
            forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None")
        )
    for index, ip in enumerate(spec.get("externalIPs") or ()):
        address = parse_ip(ip)
        if address is None:
            found.append(invalid_cause(f"spec.externalIPs[{index}]", ip, IP_MESSAGE))
        else:
            found.extend(
                invalid_cause(f"spec.externalIPs[{index}]", ip, m)
                for m in _special_ip_problems(ip, address)
            )
    if not kind:
        found.append(required("spec.type"))
    elif kind not in _TYPES:
        found.append(not_supported("spec.type", kind, _TYPES, named=True))
    if kind == "ClusterIP":
        for index, port in enumerate(ports):
            if _int(port.get("nodePort")):
                found.append(
                    forbidden(
                        f"spec.ports[{index}].nodePort",
                        "may not be used when `type` is 'ClusterIP'",
                    )
                )
    node_ports: set[tuple[Any, int]] = set()
    for index, port in enumerate(ports):
        node_port = _int(port.get("nodePort"))
        if node_port:
            key = (port.get("protocol"), node_port)
            if key in node_ports:
                found.append(duplicate(f"spec.ports[{index}].nodePort", node_port))
            node_ports.add(key)
    seen_ports: set[tuple[Any, int]] = set()
    for index, port in enumerate(ports):
        key = (port.get("protocol"), _int(port.get("port")))
        if key in seen_ports:
            # the Go key is a core.ServicePort holding only the protocol and the port,
            # printed as encoding/json writes it: its fields in the struct's order
            value = (
                f'{{"Name":"","Protocol":{go_json(key[0])},"AppProtocol":null,'
                f'"Port":{key[1]},"TargetPort":0,"NodePort":0}}'
            )
            found.append(
                cause(f"spec.ports[{index}]", Reason.DUPLICATE, f"Duplicate value: {value}")
            )
        seen_ports.add(key)
    ranges = spec.get("loadBalancerSourceRanges") or []
    if ranges:
        # validation.go names the field with a capital L
        if kind != "LoadBalancer":
            found.append(
                forbidden(
                    "spec.LoadBalancerSourceRanges",
                    _LOAD_BALANCER_ONLY,
                )
            )
        for index, value in enumerate(ranges):
            value = str(value).strip()
            if parse_cidr_sloppy(value) is None:
                found.append(
                    invalid_cause(f"spec.LoadBalancerSourceRanges[{index}]", value, _CIDR_MESSAGE)
                )
    if spec.get("allocateLoadBalancerNodePorts") is not None and kind != "LoadBalancer":
        found.append(
            forbidden(
                "spec.allocateLoadBalancerNodePorts",
                _LOAD_BALANCER_ONLY,
            )
        )
    lb_class = spec.get("loadBalancerClass")
    if lb_class is not None:
        if kind != "LoadBalancer":
            found.append(forbidden("spec.loadBalancerClass", _LOAD_BALANCER_ONLY))
        else:
            found.extend(
                invalid_cause("spec.loadBalancerClass", lb_class, m)
                for m in names.qualified_name(str(lb_class))
            )
    found.extend(_traffic_problems(spec, kind))
    return found


def validate_service_update(obj: Mapping[str, Any], old: Mapping[str, Any]) -> list[Cause]:
    """``ValidateServiceUpdate``'s own rules, before ``validate_service``'s:
    ``validateUpgradeDowngradeClusterIPs``, ``...IPFamilies`` (the primary address and
    family may not change, a second one released only with SingleStack; an
    ExternalName on either side aside, and between two headless Services) and
    ``validateLoadBalancerClassField`` (a LoadBalancer's class may not change)."""
    spec, old_spec = obj.get("spec"), old.get("spec")
    if not isinstance(spec, Mapping) or not isinstance(old_spec, Mapping):
        return []
    found: list[Cause] = []
    if "ExternalName" not in (spec.get("type"), old_spec.get("type")):
        headless, old_headless = _is_headless(spec), _is_headless(old_spec)
        if not (headless and old_headless):
            found += _upgrade_downgrade(spec, old_spec, "clusterIPs")
        if headless == old_headless and not headless:
            found += _upgrade_downgrade(spec, old_spec, "ipFamilies")
    if spec.get("type") == old_spec.get("type") == "LoadBalancer":
        lb_class = spec.get("loadBalancerClass")
        if lb_class != old_spec.get("loadBalancerClass"):
            found.append(
                invalid_cause("spec.loadBalancerClass", lb_class, "may not change once set")
            )
    return found


def _upgrade_downgrade(
    spec: Mapping[str, Any], old_spec: Mapping[str, Any], key: str
) -> list[Cause]:
    """``validateUpgradeDowngradeClusterIPs`` (``key`` clusterIPs) and
    ``...IPFamilies`` (ipFamilies), with their quirks: a changed family is reported at
    index 0 whatever its index, and when the count changed with the addresses as its
    value; a released family is judged by the addresses' count."""
    new, old = list(spec.get(key) or ()), list(old_spec.get(key) or ())
    ips = list(spec.get("clusterIPs") or ())
    family = key == "ipFamilies"
    primary = f"spec.{key}[0]"
    found: list[Cause] = []
    if len(new) == len(old):
        found += [
            invalid_cause(
                primary if family else f"spec.{key}[{index}]", new, "may not change once set"
            )
            for index, value in enumerate(old)
            if value != new[index]
        ]
        return found
    changed_value = ips if family else new
    if len(new) < len(old):
        if not (ips if family else new):
            what = "ipFamily" if family else "clusterIP"
            found.append(invalid_cause(primary, new, f"primary {what} can not be unset"))
        if new and new[0] != old[0]:
            found.append(invalid_cause(primary, changed_value, "may not change once set"))
        if len(new) == 1 and spec.get("ipFamilyPolicy") != "SingleStack":
            what = "ipFamily" if family else "clusterIP"
            message = f"must be set to 'SingleStack' when releasing the secondary {what}"
            found.append(invalid_cause("spec.ipFamilyPolicy", spec.get("ipFamilyPolicy"), message))
    elif old and new[0] != old[0]:
        found.append(invalid_cause(primary, changed_value, "may not change once set"))
    return found


def _traffic_problems(spec: Mapping[str, Any], kind: Any) -> list[Cause]:
    """validation.go ``validateServiceExternalTrafficPolicy``,
    ``validateServiceInternalTrafficFieldsValue``, ``validateServiceTrafficDistribution``."""
    found: list[Cause] = []
    external = kind in ("NodePort", "LoadBalancer") or (
        kind == "ClusterIP" and bool(spec.get("externalIPs"))
    )
    policy = spec.get("externalTrafficPolicy") or ""
    if not external:
        if policy:
            found.append(
                invalid_cause(
                    "spec.externalTrafficPolicy",
                    policy,
                    "may only be set for externally-accessible services",
                )
            )
    elif not policy:
        found.append(required("spec.externalTrafficPolicy"))
    elif policy not in _TRAFFIC_POLICIES:
        found.append(
            not_supported("spec.externalTrafficPolicy", policy, _TRAFFIC_POLICIES, named=True)
        )
    health = _int(spec.get("healthCheckNodePort"))
    if not (kind == "LoadBalancer" and policy == "Local"):
        if health:
            found.append(
                invalid_cause(
                    "spec.healthCheckNodePort",
                    health,
                    "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
                )
            )
    elif not health:
        found.append(required("spec.healthCheckNodePort"))
    elif not 1 <= health <= 65535:
        found.append(invalid_cause("spec.healthCheckNodePort", health, names.PORT_RANGE_MESSAGE))
    internal = spec.get("internalTrafficPolicy")
    if internal is None and kind in ("NodePort", "LoadBalancer", "ClusterIP"):
        found.append(required("spec.internalTrafficPolicy"))
    if internal is not None and internal not in _TRAFFIC_POLICIES:
        found.append(
            not_supported("spec.internalTrafficPolicy", internal, _TRAFFIC_POLICIES, named=True)
        )
    distribution = spec.get("trafficDistribution")
    if distribution is not None and distribution not in _DISTRIBUTIONS:
        found.append(not_supported("spec.trafficDistribution", distribution, _DISTRIBUTIONS))
    return found
