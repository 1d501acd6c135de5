"""A NetworkPolicy's spec: the store against the real server.

``ValidateNetworkPolicy`` / ``ValidateNetworkPolicyUpdate`` (kube-apiserver 1.34,
``pkg/apis/networking/validation/validation.go``; run by ``pkg/registry/networking/
networkpolicy/strategy.go``): the pod selector, each rule's ports (protocol, port
number or name, endPort) and peers (one of the selectors, or an ipBlock alone, its
CIDR and its exceptions strict subsets), the policy types; on an update the spec
checked again after the metadata update pass, an old object's CIDRs let through.

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or the stored spec. No case has two bad entries in one map.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Sides, assert_agree, spec_set
from tests.integration.localstore_answers import spec_answer as answer


def policy(name: str, meta: Any = None, **spec: Any) -> dict[str, Any]:
    """A policy selecting app=web (``spec``'s fields change it, ``None`` removes)."""
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "NetworkPolicy",
        "metadata": {"name": name, **(meta or {})},
        "spec": localstore_answers.changed({"podSelector": {"matchLabels": {"app": "web"}}}, spec),
    }


def ingress(*peers: Any, ports: Any = None) -> list[dict[str, Any]]:
    rule: dict[str, Any] = {}
    if peers:
        rule["from"] = list(peers)
    if ports is not None:
        rule["ports"] = ports
    return [rule]


def egress(*peers: Any, ports: Any = None) -> list[dict[str, Any]]:
    rule: dict[str, Any] = {}
    if peers:
        rule["to"] = list(peers)
    if ports is not None:
        rule["ports"] = ports
    return [rule]


PODS = {"podSelector": {"matchLabels": {"role": "client"}}}
NAMESPACES = {"namespaceSelector": {"matchLabels": {"team": "a"}}}
BAD_LABEL = {"labels": {"a": "b c"}}

CREATES = [
    ("valid deny all", policy("ok-deny", podSelector={})),
    ("valid ingress and egress", policy("ok-both", ingress=ingress(PODS, NAMESPACES | PODS, ports=[{"port": 80}, {"protocol": "UDP", "port": "dns"}]),
                                        egress=egress({"ipBlock": {"cidr": "10.0.0.0/8", "except": ["10.1.0.0/16", "10.2.3.4/32"]}}, ports=[{"port": 1000, "endPort": 2000, "protocol": "SCTP"}]))),
    ("valid policy types", policy("ok-types", policyTypes=["Egress", "Ingress"])),
    ("valid empty rules", policy("ok-empty-rules", ingress=[{}], egress=[{}])),
    ("valid IPv6 block", policy("ok-v6", egress=egress({"ipBlock": {"cidr": "2001:db8::/32", "except": ["2001:db8:1::/48"]}}))),
    ("valid sloppy CIDR", policy("ok-sloppy", egress=egress({"ipBlock": {"cidr": "10.0.0.1/8"}}))),
    ("a bad pod selector", policy("bad-selector", podSelector={"matchLabels": {"a": "b c"}})),
    ("an unknown protocol", policy("bad-protocol", ingress=ingress(ports=[{"protocol": "ICMP", "port": 1}]))),
    ("port 0", policy("port-zero", ingress=ingress(ports=[{"port": 0}]))),
    ("port 70000", policy("port-high", egress=egress(ports=[{"port": 70000}]))),
    ("a bad port name", policy("port-name", ingress=ingress(ports=[{"port": "http_80"}]))),
    ("endPort below port", policy("end-below", ingress=ingress(ports=[{"port": 100, "endPort": 50}]))),
    ("endPort over 65535", policy("end-high", ingress=ingress(ports=[{"port": 100, "endPort": 70000}]))),
    ("endPort with a named port", policy("end-named", ingress=ingress(ports=[{"port": "http", "endPort": 90}]))),
    ("endPort without a port", policy("end-alone", egress=egress(ports=[{"endPort": 90}]))),
    ("an empty peer", policy("peer-empty", ingress=ingress({}))),
    ("an ipBlock beside a selector", policy("peer-both", ingress=ingress(PODS | {"ipBlock": {"cidr": "10.0.0.0/8"}}))),
    ("an ipBlock without a CIDR", policy("cidr-none", egress=egress({"ipBlock": {"cidr": ""}}))),
    ("a bad CIDR", policy("cidr-bad", egress=egress({"ipBlock": {"cidr": "10.0.0.0"}}))),
    ("valid CIDRs with many leading zeros", policy("ok-zeros", egress=egress({"ipBlock": {"cidr": "0010.0.0.0/0008", "except": ["010.001.0.0/16"]}}))),
    ("a CIDR with a Unicode digit", policy("cidr-unicode", egress=egress({"ipBlock": {"cidr": "10.0.0.\u0660/8"}}))),
    ("a CIDR with a zone", policy("cidr-zone", egress=egress({"ipBlock": {"cidr": "fe80::%eth0/64"}}))),
    ("a CIDR with a signed prefix", policy("cidr-signed", egress=egress({"ipBlock": {"cidr": "10.0.0.0/+8"}}))),
    ("a CIDR with a bad prefix", policy("cidr-prefix", egress=egress({"ipBlock": {"cidr": "10.0.0.0/33"}}))),
    ("an exception outside", policy("except-outside", egress=egress({"ipBlock": {"cidr": "10.0.0.0/16", "except": ["10.1.0.0/24"]}}))),
    ("an exception as wide", policy("except-same", ingress=ingress({"ipBlock": {"cidr": "10.0.0.0/16", "except": ["10.0.0.0/16"]}}))),
    ("a bad exception", policy("except-bad", ingress=ingress({"ipBlock": {"cidr": "10.0.0.0/16", "except": ["nope"]}}))),
    ("an IPv6 exception of an IPv4 block", policy("except-family", ingress=ingress({"ipBlock": {"cidr": "10.0.0.0/8", "except": ["2001:db8::/64"]}}))),
    ("a bad peer selector", policy("peer-selector", ingress=ingress({"namespaceSelector": {"matchExpressions": [{"key": "k", "operator": "In"}]}}))),
    ("an unknown policy type", policy("bad-type", policyTypes=["Ingress", "Sideways"])),
    ("three policy types", policy("three-types", policyTypes=["Ingress", "Egress", "Sideways"])),
    ("several rules wrong", policy("several", ingress=[{"ports": [{"port": 0}]}, {"from": [{}]}], egress=egress({"ipBlock": {"cidr": "x"}}, ports=[{"protocol": "x"}]),
                                   policyTypes=["Nope"])),
    ("a bad name", policy("Bad_Name", ingress=ingress({}))),
    ("a bad label and a bad port", policy("bad-label", BAD_LABEL, ingress=ingress(ports=[{"port": -1}]))),
]  # fmt: skip

UPDATES = [
    ("valid rules added", policy("u-ok"), spec_set(ingress=ingress(PODS, ports=[{"port": 443}]))),
    ("valid selector changed", policy("u-selector"), spec_set(podSelector={"matchLabels": {"app": "api"}})),
    ("a bad port", policy("u-port"), spec_set(egress=egress(ports=[{"port": 0}]))),
    ("an empty peer", policy("u-peer"), spec_set(ingress=ingress({}))),
    ("a bad exception", policy("u-except", egress=egress({"ipBlock": {"cidr": "10.0.0.0/8"}})), spec_set(egress=egress({"ipBlock": {"cidr": "10.0.0.0/8", "except": ["11.0.0.0/16"]}}))),
    ("a bad label and a bad policy type", policy("u-label"), spec_set({"a": "b c"}, policyTypes=["Both"])),
]  # fmt: skip


def test_network_policy_spec(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "networking.k8s.io", "NetworkPolicy", "networkpolicies")
    problems = sides.creates(answer, CREATES)
    problems += sides.updates(answer, UPDATES)
    assert_agree(problems, len(CREATES) + len(UPDATES), "NetworkPolicy writes")
