"""The store's Service validation and allocation against the real API server.

kube-apiserver refuses a Service it cannot allocate for (``pkg/registry/core/service/
storage/alloc.go``: a requested cluster IP outside the test control plane's
``--service-cluster-ip-range=10.0.0.0/24`` or taken, a node port outside 30000-32767 or
taken, dual-stack or IPv6 on this single-stack IPv4 cluster) and one ``ValidateService``
refuses (``pkg/apis/core/validation/validation.go``: port names, protocols, target
ports, type rules, traffic policies, ...), each with its 422 and its exact message; the
allocation refuses first, alone. ``ObjectStore`` (``validation.services`` and
``builtin_defaulting.ServiceAllocator``) must answer the same writes alike, in the
same order (a refusal holds nothing: a later write may take what it asked for).

Addresses and node ports are the cluster's, shared by every test of the session: the
cases take the ones free on the server when the test starts (``Free``), and the
Services the test made are deleted at its end.
"""

from __future__ import annotations

import copy
import ipaddress
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.integration.envtest import ControlPlane
from tests.integration.localstore_answers import ODD
from tests.integration.test_localstore_metadata_differential import outcome


@dataclass(frozen=True)
class Free:
    """Two cluster IPs and three node ports nothing on the server holds."""

    ip: str
    ip2: str
    port: int
    port2: int
    port3: int


def _free(apiserver: ControlPlane) -> Free:
    listed = json.loads(apiserver.kubectl("get", "services", "-A", "-o", "json").stdout)
    ips: set[str] = set()
    ports: set[int] = set()
    for item in listed["items"]:
        spec = item.get("spec") or {}
        ips.update(spec.get("clusterIPs") or ())
        ports.update(p.get("nodePort") or 0 for p in spec.get("ports") or ())
        ports.add(spec.get("healthCheckNodePort") or 0)
    # from the top of each range's static band, its lowest 16 addresses and 86 ports
    # (ipallocator's calculateRangeOffset, portallocator's calculateRangeOffset): the
    # server's dynamic allocation takes a random one above the band while it can (a
    # case's Service could take an address the case sets later), the store the lowest
    # free one; then from the top of the range
    hosts = list(ipaddress.ip_network("10.0.0.0/24").hosts())
    addresses = [
        str(a) for a in [*reversed(hosts[:16]), *reversed(hosts[16:])] if str(a) not in ips
    ]
    numbers = [
        p for p in [*range(30085, 30000, -1), *range(32767, 30085, -1)] if p not in ports
    ]  # fmt: skip
    return Free(addresses[0], addresses[1], numbers[0], numbers[1], numbers[2])


def svc(name: str, *ports: Any, meta: Any = None, **spec: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, **(meta or {})},
        "spec": {"selector": {"app": "web"}, **spec},
    }
    if ports != (None,):
        body["spec"]["ports"] = list(ports) or [{"port": 80}]
    return body


def cases(free: Free) -> list[tuple[str, dict[str, Any]]]:
    """(what, body), created in order on both sides; the names say which the server
    accepts (``ok-``) and which it refuses."""
    ip, ip2, port, port2, port3 = free.ip, free.ip2, free.port, free.port2, free.port3
    return [
        # the allocator: addresses
        ("cluster IP outside the range", svc("ip-outside", clusterIP="10.1.0.5")),
        ("the range's network address", svc("ip-network", clusterIP="10.0.0.0")),
        ("the range's broadcast address", svc("ip-broadcast", clusterIP="10.0.0.255")),
        ("the kubernetes Service's address", svc("ip-kubernetes", clusterIP="10.0.0.1")),
        ("a malformed cluster IP", svc("ip-malformed", clusterIP="abc")),
        ("an IPv6 cluster IP", svc("ip-six", clusterIP="fd00::1")),
        ("clusterIPs not led by clusterIP", svc("ip-mismatch", clusterIP=ip, clusterIPs=[ip2])),
        ("clusterIPs without clusterIP", svc("ip-without", clusterIPs=[ip, "fd00::5"])),
        ("an IPv4 address for an IPv6 family", svc("ip-family", clusterIP=ip, ipFamilies=["IPv6"])),
        ("a requested address", svc("ok-ip", clusterIP=ip)),
        ("the same address again", svc("ip-taken", clusterIP=ip)),
        # the allocator: families and policy on a single-stack IPv4 cluster
        ("RequireDualStack", svc("fam-require", ipFamilyPolicy="RequireDualStack")),
        ("IPv6 single-stack", svc("fam-six", ipFamilies=["IPv6"])),
        ("IPv6 and RequireDualStack", svc("fam-both", ipFamilies=["IPv6"], ipFamilyPolicy="RequireDualStack")),
        ("two families, SingleStack", svc("fam-single", ipFamilies=["IPv4", "IPv6"])),
        ("a family twice", svc("fam-twice", ipFamilyPolicy="PreferDualStack", ipFamilies=["IPv4", "IPv4"])),
        ("a policy not known", svc("fam-policy", ipFamilyPolicy="Foo")),
        ("a family not known", svc("fam-unknown", ipFamilies=["IPv5"])),
        ("a malformed address and a policy not known", svc("fam-two", clusterIP="abc", ipFamilyPolicy="Foo")),
        ("PreferDualStack", svc("ok-prefer", ipFamilyPolicy="PreferDualStack")),
        ("headless without a selector: RequireDualStack", {**svc("ok-headless", None, clusterIP="None", ipFamilyPolicy="RequireDualStack"), "spec": {"clusterIP": "None", "ipFamilyPolicy": "RequireDualStack"}}),
        ("headless with a selector: IPv6", svc("fam-headless", clusterIP="None", ipFamilies=["IPv6"])),
        ("headless without a selector: SingleStack, two families",
         {**svc("fam-headless-single", None), "spec": {"clusterIP": "None", "ipFamilyPolicy": "SingleStack", "ipFamilies": ["IPv4", "IPv6"]}}),
        ("headless without a selector: no policy, two families",
         {**svc("ok-headless-two", None), "spec": {"clusterIP": "None", "ipFamilies": ["IPv6", "IPv4"]}}),
        ("headless with a selector: PreferDualStack, two families",
         svc("fam-headless-prefer", clusterIP="None", ipFamilyPolicy="PreferDualStack", ipFamilies=["IPv4", "IPv6"])),
        ("an IPv6 address with its family, PreferDualStack",
         svc("fam-six-prefer", clusterIP="fd00::5", ipFamilies=["IPv6"], ipFamilyPolicy="PreferDualStack")),
        # the allocator: node ports
        ("a node port below the range", svc("np-low", {"port": 80, "nodePort": 80}, type="NodePort")),
        ("a node port above the range", svc("np-high", {"port": 80, "nodePort": 40000}, type="NodePort")),
        ("a requested node port", svc("ok-np", {"port": 80, "nodePort": port}, type="NodePort")),
        ("the same node port again", svc("np-taken", {"port": 80, "nodePort": port}, type="NodePort")),
        ("one node port twice in a Service",
         svc("np-twice", {"name": "a", "port": 80, "nodePort": port2}, {"name": "b", "port": 81, "nodePort": port2}, type="NodePort")),
        ("one node port for TCP and UDP",
         svc("ok-np-protocols", {"name": "a", "port": 80, "nodePort": port2}, {"name": "b", "port": 80, "protocol": "UDP", "nodePort": port2}, type="NodePort")),
        ("a taken node port on a LoadBalancer that allocates none",
         svc("np-lb", {"port": 80, "nodePort": port}, type="LoadBalancer", allocateLoadBalancerNodePorts=False)),
        ("a health check node port outside the range",
         svc("hc-low", type="LoadBalancer", externalTrafficPolicy="Local", healthCheckNodePort=80)),
        ("a taken health check node port",
         svc("hc-taken", type="LoadBalancer", externalTrafficPolicy="Local", healthCheckNodePort=port)),
        ("a requested health check node port",
         svc("ok-hc", type="LoadBalancer", externalTrafficPolicy="Local", healthCheckNodePort=port3)),
        # the allocation first, alone
        ("an address outside and a bad label", svc("first-label", meta={"labels": {"a": "b c"}}, clusterIP="10.1.0.5")),
        ("an address outside and a node port outside",
         svc("first-both", {"port": 80, "nodePort": 80}, type="NodePort", clusterIP="10.1.0.5")),
        ("a malformed address and unnamed ports", svc("first-ports", {"port": 80}, {"port": 81}, clusterIP="abc")),
        ("a node port outside and a protocol not known",
         svc("first-np", {"port": 80, "nodePort": 80, "protocol": "X"}, type="NodePort")),
        # ValidateService, after the metadata, in one answer
        ("two ports without names", svc("v-names", {"port": 80}, {"port": 81})),
        ("a bad label and two ports without names", svc("v-label", {"port": 80}, {"port": 81}, meta={"labels": {"a": "b c"}})),
        ("a port name not a DNS label", svc("v-name", {"port": 80, "name": "Http"})),
        ("a port name twice", svc("v-dup-name", {"port": 80, "name": "a"}, {"port": 81, "name": "a"})),
        ("a protocol not known", svc("v-protocol", {"port": 80, "protocol": "FOO"})),
        ("a port 0", svc("v-port0", {"port": 0})),
        ("a port above 65535", svc("v-port-high", {"port": 70000})),
        ("a target port above 65535", svc("v-target-high", {"port": 80, "targetPort": 70000})),
        ("a negative target port", svc("v-target-neg", {"port": 80, "targetPort": -1})),
        ("a target port name with an underscore", svc("v-target-name", {"port": 80, "targetPort": "bad_name"})),
        ("a target port name of 16 characters", svc("v-target-long", {"port": 80, "targetPort": "abcdefghijklmnop"})),
        ("a target port name of digits", svc("v-target-digits", {"port": 80, "targetPort": "123"})),
        ("a target port name with hyphens at the ends and twice", svc("v-target-hyphens", {"port": 80, "targetPort": "-a--b-"})),
        ("an app protocol not a qualified name", svc("v-app", {"port": 80, "appProtocol": "a b"})),
        ("a port twice", svc("v-dup-port", {"port": 80, "name": "a"}, {"port": 80, "name": "b"})),
        ("no ports", svc("v-no-ports", None)),
        ("a type not known", svc("v-type", type="Foo")),
        ("ExternalName without a name", svc("v-ext-missing", None, type="ExternalName")),
        ("ExternalName not a DNS name", svc("v-ext-bad", None, type="ExternalName", externalName="Bad_Name")),
        ("ExternalName with a cluster IP", svc("v-ext-ip", None, type="ExternalName", externalName="a.com", clusterIP=ip2)),
        ("ExternalName with families", svc("v-ext-fam", None, type="ExternalName", externalName="a.com", ipFamilies=["IPv4"])),
        ("ExternalName with a node port", svc("ok-ext-np", {"port": 80, "nodePort": 30999}, type="ExternalName", externalName="a.com")),
        ("a node port on a ClusterIP", svc("v-np-cluster", {"port": 80, "nodePort": port3})),
        ("headless NodePort", svc("v-headless-np", type="NodePort", clusterIP="None")),
        ("a session affinity not known", svc("v-affinity", sessionAffinity="X")),
        ("an affinity timeout of 0",
         svc("v-timeout", sessionAffinity="ClientIP", sessionAffinityConfig={"clientIP": {"timeoutSeconds": 0}})),
        ("an external traffic policy on a ClusterIP", svc("v-etp", externalTrafficPolicy="Local")),
        ("an external traffic policy not known", svc("v-etp-bad", type="NodePort", externalTrafficPolicy="Foo")),
        ("an internal traffic policy not known", svc("v-itp", internalTrafficPolicy="Foo")),
        ("source ranges on a ClusterIP", svc("v-ranges", loadBalancerSourceRanges=["1.2.3.0/24"])),
        ("a source range not a CIDR", svc("v-range-bad", type="LoadBalancer", loadBalancerSourceRanges=["x"])),
        ("a source range padded", svc("ok-range-padded", type="LoadBalancer", loadBalancerSourceRanges=[" 1.2.3.4/24 "])),
        ("an external IP not an address", svc("v-ext-ip-bad", externalIPs=["abc"])),
        ("an external IP on loopback", svc("v-ext-loop", externalIPs=["127.0.0.1"])),
        ("an external IP unspecified", svc("v-ext-any", externalIPs=["0.0.0.0"])),
        ("an external IP link-local", svc("v-ext-ll", externalIPs=["169.254.1.1"])),
        ("an external IPv6 link-local", svc("v-ext-ll6", externalIPs=["fe80::1"])),
        ("an external IP link-local multicast", svc("v-ext-mc", externalIPs=["224.0.0.5"])),
        ("a selector value not a label value", svc("v-selector", selector={"a": "b c"})),
        ("allocateLoadBalancerNodePorts on a ClusterIP", svc("v-alloc", allocateLoadBalancerNodePorts=True)),
        ("a health check node port on a ClusterIP", svc("v-hc", healthCheckNodePort=port3)),
        ("a load balancer class on a ClusterIP", svc("v-class", loadBalancerClass="a/b")),
        ("a traffic distribution not known", svc("v-distribution", trafficDistribution="X")),
        ("a name not a DNS-1035 label and unnamed ports", svc("Bad", {"port": 80}, {"port": 81})),
        # a bad value of a named Go type (core.Protocol, core.ServiceType, ...) is
        # written by json.Marshal, a plain string's by %q (field.Error.ErrorBody)
        ("an odd protocol", svc("q-protocol", {"port": 80, "protocol": ODD})),
        ("an odd family policy", svc("q-policy", ipFamilyPolicy=ODD)),
        ("an odd family", svc("q-family", ipFamilies=[ODD])),
        ("an odd family twice", svc("q-family-twice", ipFamilyPolicy="PreferDualStack", ipFamilies=[ODD, ODD])),
        ("an odd type", svc("q-type", type=ODD)),
        ("an odd session affinity", svc("q-affinity", sessionAffinity=ODD)),
        ("an odd external traffic policy", svc("q-etp", type="NodePort", externalTrafficPolicy=ODD)),
        ("an odd internal traffic policy", svc("q-itp", internalTrafficPolicy=ODD)),
        ("an odd traffic distribution", svc("q-distribution", trafficDistribution=ODD)),
        ("an odd port name", svc("q-port-name", {"port": 80, "name": ODD})),
        ("an odd app protocol", svc("q-app", {"port": 80, "appProtocol": ODD})),
        ("an odd cluster IP", svc("q-ip", clusterIP=ODD)),
        ("an odd external IP", svc("q-ext-ip", externalIPs=[ODD])),
        ("an odd external name", svc("q-ext-name", None, type="ExternalName", externalName=ODD)),
        ("an odd load balancer class", svc("q-class", type="LoadBalancer", loadBalancerClass=ODD)),
        ("an odd source range", svc("q-range", type="LoadBalancer", loadBalancerSourceRanges=[ODD])),
    ]  # fmt: skip


@pytest.fixture
def server(client: KubeClient, namespace: str) -> Iterator[ResourceClient]:
    """Services of the test's namespace, deleted at its end (their addresses and node
    ports are the cluster's: envtest's namespaces are never emptied)."""
    made = ResourceClient(client, "", "v1", "services", namespaced=True, namespace=namespace)
    yield made
    for item in made.list().get("items") or ():
        made.delete(item["metadata"]["name"])


def test_services_are_refused_as_the_server_refuses_them(
    apiserver: ControlPlane, server: ResourceClient, namespace: str
) -> None:
    store = ObjectStore()
    info = store.resolve("v1/Service")
    problems = []
    written = cases(_free(apiserver))
    for what, body in written:
        body = copy.deepcopy(body)
        body["metadata"]["namespace"] = namespace
        theirs = outcome(lambda body=body: server.create(body))
        ours = outcome(lambda body=body: store.create(info, body))
        if (theirs == ("accepted",)) != body["metadata"]["name"].startswith("ok-"):
            problems.append(f"{what}: the server answered {theirs} (the case is wrong)")
        if ours != theirs:
            problems.append(f"{what}:\n  server {theirs}\n  store  {ours}")
    assert problems == [], f"{len(problems)} of {len(written)} differ:\n" + "\n".join(problems)


def _updates(free: Free) -> list[tuple[str, dict[str, Any]]]:
    """(what, the spec's changed fields: None removes one) of an update of a NodePort
    Service that holds ``free.ip`` and ``free.port``."""
    return [
        ("the primary cluster IP changed", {"clusterIP": free.ip2, "clusterIPs": [free.ip2]}),
        ("the cluster IPs left out (kept)", {"clusterIP": None, "clusterIPs": None}),
        ("a node port below the range", {"ports": [{"port": 80, "nodePort": 80}]}),
        ("another node port", {"ports": [{"port": 80, "nodePort": free.port2}]}),
        ("a second port without names",
         {"ports": [{"port": 80, "nodePort": free.port}, {"port": 81}]}),
        ("to a ClusterIP keeping its node port", {"type": "ClusterIP"}),
        ("IPv6 for an IPv4 address", {"ipFamilies": ["IPv6"]}),
        ("RequireDualStack", {"ipFamilyPolicy": "RequireDualStack"}),
        ("to an ExternalName",
         {"type": "ExternalName", "externalName": "a.com", "clusterIP": "", "clusterIPs": None}),
    ]  # fmt: skip


def test_updates_are_refused_as_the_server_refuses_them(
    apiserver: ControlPlane, server: ResourceClient, namespace: str
) -> None:
    """Each update, of a Service made for it on both sides (and deleted after), as
    read back: ``ValidateServiceUpdate``'s immutable primary address, the allocation
    of what the update adds, ``ValidateService``."""
    store = ObjectStore()
    info = store.resolve("v1/Service")
    free = _free(apiserver)
    body = svc("updated", {"port": 80, "nodePort": free.port}, type="NodePort", clusterIP=free.ip)
    body["metadata"]["namespace"] = namespace
    problems = []
    updates = _updates(free)
    for what, change in updates:
        answers = []
        for old, update in (
            (server.create(body), server.update),
            (store.create(info, body), lambda b: store.update(info, b)),
        ):
            new = copy.deepcopy(old)
            for key, value in change.items():
                if value is None:
                    new["spec"].pop(key, None)
                else:
                    new["spec"][key] = value
            answers.append(outcome(lambda new=new, update=update: update(new)))
        server.delete("updated")
        store.delete(info, namespace, "updated")
        if answers[0] != answers[1]:
            problems.append(f"{what}:\n  server {answers[0]}\n  store  {answers[1]}")
    assert problems == [], f"{len(problems)} of {len(updates)} differ:\n" + "\n".join(problems)


def test_a_dry_run_create_answers_as_the_server_answers(
    apiserver: ControlPlane, server: ResourceClient, namespace: str
) -> None:
    """A dry run's allocators (alloc.go) check no requested value and hold nothing:
    what they fill in is the range's network address and node ports from 32769 up.
    The answers' specs are compared whole; then the values the dry runs asked for are
    taken for real, on both."""
    store = ObjectStore()
    info = store.resolve("v1/Service")
    free = _free(apiserver)
    dry = [
        svc("d-lb", {"name": "a", "port": 80}, {"name": "b", "port": 81},
            {"name": "c", "port": 82, "nodePort": free.port}, type="LoadBalancer",
            externalTrafficPolicy="Local"),
        svc("d-np", type="NodePort"),
        svc("d-fixed", {"port": 80, "nodePort": free.port2}, type="NodePort", clusterIP=free.ip),
        svc("d-taken", clusterIP="10.0.0.1"),
        svc("d-outside", {"port": 80, "nodePort": 5}, type="NodePort"),
    ]  # fmt: skip
    problems = []
    for body in dry:
        body["metadata"]["namespace"] = namespace
        theirs = server.create(body, dry_run=True)["spec"]
        ours = store.create(info, body, dry_run=True)["spec"]
        if ours != theirs:
            problems.append(f"{body['metadata']['name']}:\n  server {theirs}\n  store  {ours}")
    real = svc("after", {"port": 80, "nodePort": free.port2}, type="NodePort", clusterIP=free.ip)
    real["metadata"]["namespace"] = namespace
    answers = [outcome(lambda: server.create(real)), outcome(lambda: store.create(info, real))]
    assert problems == [], "\n".join(problems)
    assert answers == [("accepted",), ("accepted",)]
