"""The CEL ``ip()`` and ``cidr()`` libraries' refusals, as the API server words them:
netip's own errors (``ParseAddr("1::2::3"): multiple :: in address (at ":3")``, through
``model.gonetip``) inside each library's wrapping, zones and IPv4-mapped addresses
refused after parsing, a string that does not parse given to ``containsIP`` and
``containsCIDR``. test_cel_libraries_differential's harness, with these expressions."""

from __future__ import annotations

from tests.integration import test_cel_libraries_differential as libraries
from tests.integration.envtest import ControlPlane

NETWORK: list[tuple[str, str]] = [
    ("ip", "ip('1::2::3')"),
    ("ip", "ip('12345::')"),
    ("ip", "ip('1.2.3')"),
    ("ip", "ip('01.2.3.4')"),
    ("ip", "ip('1.2.3.4.5')"),
    ("ip", "ip('1..2.3')"),
    ("ip", "ip('1:2:3')"),
    ("ip", "ip('g::1')"),
    ("ip", "ip('fe80::1%')"),
    ("ip", "ip('%eth0')"),
    ("ip", "ip('fe80::1%eth0')"),
    ("ip", "ip('::ffff:1.2.3.4')"),
    ("ip", "ip('localhost')"),
    ("ip", "ip('')"),
    ("ip", "ip('1::1.2.3.4') == ip('1::102:304')"),
    ("ip", "isIP('1:2:3:4:5:6:7:1.2.3.4')"),
    ("ip", "ip.isCanonical('1::2::3')"),
    ("ip", "ip.isCanonical('2001:DB8::1')"),
    ("cidr", "cidr('10.0.0.0')"),
    ("cidr", "cidr('10.0.0.0/33')"),
    ("cidr", "cidr('10.0.0.0/08')"),
    ("cidr", "cidr('10.0.0.0/x')"),
    ("cidr", "cidr('1.2.3/8')"),
    ("cidr", "cidr('fe80::1%eth0/64')"),
    ("cidr", "cidr('::ffff:1.2.3.4/96')"),
    ("cidr", "isCIDR('10.0.0.0/+8')"),
    ("cidr", "cidr('10.0.0.0/8').containsIP('1::2::3')"),
    ("cidr", "cidr('10.0.0.0/8').containsCIDR('10.0.0.0')"),
]


def test_network_library_errors_agree_with_the_server(apiserver: ControlPlane) -> None:
    libraries.agree_with_the_server(apiserver, NETWORK, "cel-network.example.com")
