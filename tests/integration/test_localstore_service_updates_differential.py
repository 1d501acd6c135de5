"""A Service's updates of its IP families, addresses and type: the store against the real server.

An update of a Service goes through the registry's allocation first
(``pkg/registry/core/service/storage/alloc.go`` ``initIPFamilyFields``: the policy an
update leaves out is the old one's, a SingleStack policy trims what the update kept of
a second address or family, any other policy may not release them; then the families
a single-stack IPv4 cluster serves), then ``ValidateServiceUpdate``
(``pkg/apis/core/validation/validation.go``: ``validateUpgradeDowngradeClusterIPs`` and
``...IPFamilies``, the primary address and family immutable but across an
ExternalName, or between two headless Services), then ``ValidateService``. The test
control plane is single-stack (``--service-cluster-ip-range=10.0.0.0/24``, no IPv6
range): a second family is refused there, so what is compared is what such a server
answers: the refusals, and what an accepted update stores.

Each case creates its Service on both sides (with the addresses and node ports free
on the server, so both hold the same), updates what was read back, and compares the
status code, reason, message and each cause's field, reason and message, or the
stored spec (a value either side allocated itself masked).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.integration import localstore_answers
from tests.integration.envtest import ControlPlane
from tests.integration.localstore_answers import changed
from tests.integration.test_localstore_service_differential import Free, _free, server, svc

__all__ = ["answer", "server"]

ALLOCATED = "<allocated>"


def answer(call: Callable[[], dict[str, Any]], given: set[Any]) -> tuple[Any, ...]:
    """A write's outcome (``localstore_answers.answer``): the stored spec with each
    address and node port not in ``given`` (the values the test asked for) masked."""

    def mask(value: Any) -> Any:
        return value if value in given or value == "None" else ALLOCATED

    def stored_spec(stored: dict[str, Any]) -> tuple[Any, ...]:
        spec = copy.deepcopy(stored.get("spec") or {})
        if "clusterIP" in spec:
            spec["clusterIP"] = mask(spec["clusterIP"])
        if "clusterIPs" in spec:
            spec["clusterIPs"] = [mask(ip) for ip in spec["clusterIPs"]]
        for port in spec.get("ports") or ():
            if "nodePort" in port:
                port["nodePort"] = mask(port["nodePort"])
        if "healthCheckNodePort" in spec:
            spec["healthCheckNodePort"] = mask(spec["healthCheckNodePort"])
        return (spec,)

    return localstore_answers.answer(call, stored_spec)


NP = "NodePort"
LB = "LoadBalancer"


def cases(free: Free) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(what, the created Service's spec fields, the update's: ``None`` removes one)."""
    ip, ip2, port = free.ip, free.ip2, free.port
    plain: dict[str, Any] = {"clusterIP": ip}
    prefer = {"clusterIP": ip, "ipFamilyPolicy": "PreferDualStack"}
    node = {"clusterIP": ip, "type": NP, "ports": [{"port": 80, "nodePort": port}]}
    balancer = {**node, "type": LB}
    headless = {"clusterIP": "None"}
    selectorless = {"clusterIP": "None", "selector": None}
    external = {"type": "ExternalName", "externalName": "a.com", "ports": None}
    to_external = {"type": "ExternalName", "externalName": "a.com"}
    return [
        # the policy
        ("SingleStack to PreferDualStack", plain, {"ipFamilyPolicy": "PreferDualStack"}),
        ("SingleStack to RequireDualStack", plain, {"ipFamilyPolicy": "RequireDualStack"}),
        ("PreferDualStack to SingleStack", prefer, {"ipFamilyPolicy": "SingleStack"}),
        ("PreferDualStack to RequireDualStack", prefer, {"ipFamilyPolicy": "RequireDualStack"}),
        ("the policy left out (the old one kept)", prefer, {"ipFamilyPolicy": None}),
        ("a policy not known", plain, {"ipFamilyPolicy": "Both"}),
        # a second family or address added, on a single-stack cluster
        ("a second family, SingleStack", plain, {"ipFamilies": ["IPv4", "IPv6"]}),
        ("a second family, PreferDualStack", prefer, {"ipFamilies": ["IPv4", "IPv6"]}),
        ("a second family and RequireDualStack", plain,
         {"ipFamilies": ["IPv4", "IPv6"], "ipFamilyPolicy": "RequireDualStack"}),
        ("a second address, SingleStack", plain, {"clusterIPs": [ip, "fd00::10"]}),
        ("a second address, PreferDualStack", prefer, {"clusterIPs": [ip, "fd00::10"]}),
        ("a second IPv4 address", prefer, {"clusterIPs": [ip, ip2]}),
        ("a second address and family, PreferDualStack", prefer,
         {"clusterIPs": [ip, "fd00::10"], "ipFamilies": ["IPv4", "IPv6"]}),
        # the primary changed or removed
        ("the primary family changed", plain, {"ipFamilies": ["IPv6"]}),
        ("the primary family changed, PreferDualStack", prefer, {"ipFamilies": ["IPv6", "IPv4"]}),
        ("the primary address changed", plain, {"clusterIP": ip2, "clusterIPs": [ip2]}),
        ("the primary address changed, clusterIPs left out", plain,
         {"clusterIP": ip2, "clusterIPs": None}),
        ("the primary address to IPv6", plain, {"clusterIP": "fd00::10", "clusterIPs": ["fd00::10"]}),
        ("clusterIP and clusterIPs emptied", plain, {"clusterIP": "", "clusterIPs": []}),
        ("the families emptied (inferred again)", plain, {"ipFamilies": []}),
        ("the families and policy left out", prefer, {"ipFamilies": None, "ipFamilyPolicy": None}),
        ("clusterIP alone changed, clusterIPs kept", plain, {"clusterIP": ip2}),
        # headless
        ("a ClusterIP made headless", plain, {"clusterIP": "None", "clusterIPs": ["None"]}),
        ("a headless Service given an address", headless, {"clusterIP": ip2, "clusterIPs": [ip2]}),
        ("headless: SingleStack to PreferDualStack", headless, {"ipFamilyPolicy": "PreferDualStack"}),
        ("headless: to RequireDualStack", headless, {"ipFamilyPolicy": "RequireDualStack"}),
        ("headless: IPv6", headless, {"ipFamilies": ["IPv6"]}),
        ("headless without a selector: both families kept, SingleStack", selectorless,
         {"ipFamilyPolicy": "SingleStack"}),
        ("headless without a selector: the second family removed, SingleStack", selectorless,
         {"ipFamilyPolicy": "SingleStack", "ipFamilies": ["IPv4"]}),
        ("headless without a selector: the second family removed", selectorless,
         {"ipFamilies": ["IPv4"]}),
        ("headless without a selector: the families swapped", selectorless,
         {"ipFamilies": ["IPv6", "IPv4"]}),
        ("headless without a selector: a selector added", selectorless, {"selector": {"app": "web"}}),
        # the type
        ("ClusterIP to NodePort", plain, {"type": NP}),
        ("ClusterIP to LoadBalancer", plain, {"type": LB}),
        ("ClusterIP to LoadBalancer, Local", plain, {"type": LB, "externalTrafficPolicy": "Local"}),
        ("NodePort to ClusterIP, its node port kept", node, {"type": "ClusterIP"}),
        ("NodePort to ClusterIP, its node port removed", node,
         {"type": "ClusterIP", "ports": [{"port": 80}], "externalTrafficPolicy": None}),
        ("NodePort to ClusterIP, its node port removed, the traffic policy left", node,
         {"type": "ClusterIP", "ports": [{"port": 80}]}),
        ("NodePort to ClusterIP, another node port", node,
         {"type": "ClusterIP", "ports": [{"port": 80, "nodePort": free.port2}]}),
        ("NodePort to LoadBalancer", node, {"type": LB}),
        ("LoadBalancer to NodePort", balancer, {"type": NP}),
        ("LoadBalancer to ClusterIP, the fields left", balancer, {"type": "ClusterIP"}),
        ("LoadBalancer to ClusterIP, its class left", {**balancer, "loadBalancerClass": "a/b"},
         {"type": "ClusterIP", "ports": [{"port": 80}]}),
        ("a LoadBalancer's class changed", {**balancer, "loadBalancerClass": "a/b"},
         {"loadBalancerClass": "a/c"}),
        ("a LoadBalancer's class added", balancer, {"loadBalancerClass": "a/c"}),
        ("ClusterIP to ExternalName, clusterIP cleared, clusterIPs kept", plain,
         {**to_external, "clusterIP": ""}),
        ("ClusterIP to ExternalName, addresses kept", plain, to_external),
        ("ClusterIP to ExternalName, addresses removed", plain,
         {**to_external, "clusterIP": "", "clusterIPs": None, "ipFamilies": None,
          "ipFamilyPolicy": None}),
        ("ClusterIP to ExternalName, the policy changed", plain,
         {**to_external, "ipFamilyPolicy": "PreferDualStack"}),
        ("ClusterIP to ExternalName, another address", plain,
         {**to_external, "clusterIP": ip2, "clusterIPs": [ip2]}),
        ("NodePort to ExternalName", node, to_external),
        ("ExternalName to ClusterIP", external, {"type": "ClusterIP", "ports": [{"port": 80}]}),
        ("ExternalName to ClusterIP, an address asked", external,
         {"type": "ClusterIP", "ports": [{"port": 80}], "clusterIP": ip2}),
        ("ExternalName to ClusterIP, headless", external,
         {"type": "ClusterIP", "ports": [{"port": 80}], "clusterIP": "None"}),
        ("ExternalName to ClusterIP, PreferDualStack", external,
         {"type": "ClusterIP", "ports": [{"port": 80}], "ipFamilyPolicy": "PreferDualStack"}),
        ("ExternalName to NodePort", external, {"type": NP, "ports": [{"port": 80}]}),
        ("headless to NodePort", headless, {"type": NP}),
        ("headless to ExternalName", headless, to_external),
    ]  # fmt: skip


def test_service_updates_answer_as_the_server_answers(
    apiserver: ControlPlane, server: ResourceClient, namespace: str
) -> None:
    store = ObjectStore()
    info = store.resolve("v1/Service")
    free = _free(apiserver)
    given = {free.ip, free.ip2, free.port, "fd00::10"}
    problems = []
    listed = cases(free)
    for index, (what, created, change) in enumerate(listed):
        name = f"u{index}"
        body = svc(name)
        body["spec"] = changed(body["spec"], created)
        body["metadata"]["namespace"] = namespace
        answers = []
        for make, update in (
            (server.create, server.update),
            (lambda b: store.create(info, b), lambda b: store.update(info, b)),
        ):
            old = make(copy.deepcopy(body))
            new = copy.deepcopy(old)
            new["spec"] = changed(new["spec"], change)
            answers.append(answer(lambda new=new, update=update: update(new), given))
        server.delete(name)
        store.delete(info, namespace, name)
        if answers[0] != answers[1]:
            problems.append(f"{what}:\n  server {answers[0]}\n  store  {answers[1]}")
    # the creates before are not compared: the cases of test_localstore_service_differential
    print(f"{2 * len(listed)} writes compared: {len(listed)} updates, on the server and the store")
    assert problems == [], f"{len(problems)} of {len(listed)} differ:\n" + "\n".join(problems)


def _applied(free: Free) -> list[tuple[str, dict[str, Any]]]:
    """(what, the spec one manager applies), in order to one Service: what the manager
    leaves out of its last apply is removed (then the registry's rules as for a PUT)."""
    ip, port = free.ip, free.port
    return [
        ("created with an address", {"clusterIP": ip}),
        ("PreferDualStack", {"clusterIP": ip, "ipFamilyPolicy": "PreferDualStack"}),
        ("a second family", {"clusterIP": ip, "ipFamilyPolicy": "PreferDualStack",
                             "ipFamilies": ["IPv4", "IPv6"]}),
        ("back to SingleStack", {"clusterIP": ip, "ipFamilyPolicy": "SingleStack"}),
        ("to a NodePort", {"clusterIP": ip, "type": NP, "ports": [{"port": 80, "nodePort": port}]}),
        ("to an ExternalName, the address left out",
         {"type": "ExternalName", "externalName": "a.com", "ports": [{"port": 80}]}),
        ("back to a ClusterIP, headless", {"clusterIP": "None", "ports": [{"port": 80}]}),
        ("headless: PreferDualStack", {"clusterIP": "None", "ipFamilyPolicy": "PreferDualStack",
                                       "ports": [{"port": 80}]}),
    ]  # fmt: skip


def test_applied_service_changes_answer_as_the_server_answers(
    apiserver: ControlPlane, server: ResourceClient, namespace: str
) -> None:
    """One manager's server-side applies of one Service, in order on both sides."""
    store = ObjectStore()
    info = store.resolve("v1/Service")
    free = _free(apiserver)
    given = {free.ip, free.port}
    problems = []
    steps = _applied(free)
    for what, spec in steps:
        body = {
            **svc("applied"),
            "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}], **spec},
        }
        body["metadata"]["namespace"] = namespace
        theirs = answer(lambda body=body: server.apply(body, field_manager="m", force=True), given)
        ours = answer(lambda body=body: store.apply(info, body, field_manager="m"), given)
        if ours != theirs:
            problems.append(f"{what}:\n  server {theirs}\n  store  {ours}")
    print(f"{2 * len(steps)} writes compared: {len(steps)} applies, on the server and the store")
    assert problems == [], f"{len(problems)} of {len(steps)} differ:\n" + "\n".join(problems)
