"""``library/ip.go`` and ``library/cidr.go`` (Kubernetes 1.30): addresses and prefixes.

Go's ``netip`` rules (``model.gonetip``, its error texts too): no zones, no IPv4-mapped
IPv6 addresses, no leading zeros in IPv4; a CIDR keeps the address it was written with
(``masked()`` clears host bits).
"""

from __future__ import annotations

import ipaddress

from cel_expr_python import cel

from kubectl_crd.model.gonetip import AddrError, parse_addr, parse_prefix
from kubectl_crd.model.gostrconv import go_quote
from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.cel.library.types import make

T = cel.Type
IP = T("net.IP")
CIDR = T("net.CIDR")
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(text: str) -> Address:
    """``parseIPAddr`` (``library/ip.go``): ``netip.ParseAddr`` (``model.gonetip``, its
    error inside the library's words), then no zone and no IPv4-mapped IPv6 address."""
    try:
        parsed = parse_addr(text)
    except AddrError as error:
        raise ValueError(
            f"IP Address {go_quote(text)} parse error during conversion from string: {error}"
        ) from None
    if parsed.zone:
        raise ValueError(f"IP address {go_quote(text)} with zone value is not allowed")
    if _mapped(parsed.address):
        raise ValueError(f"IPv4-mapped IPv6 address {go_quote(text)} is not allowed")
    return parsed.address


def _mapped(address: Address) -> bool:
    return isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None


#: ``stringToCIDR``'s words, which ``parseCIDR`` has already put before netip's error
_CIDR_ERROR = "network address parse error during conversion from string: "


def _prefix(text: str) -> tuple[Address, int]:
    """``parseCIDR`` (``library/cidr.go``): ``netip.ParsePrefix``, then no IPv4-mapped
    address; refused in ``cidr()``'s words (the parse error's head twice, as upstream
    wraps it twice)."""
    try:
        parsed, length = parse_prefix(text)
    except AddrError as error:
        raise ValueError(f"{_CIDR_ERROR}{_CIDR_ERROR}{error}") from None
    if _mapped(parsed.address):
        raise ValueError(f"{_CIDR_ERROR}IPv4-mapped IPv6 address {go_quote(text)} is not allowed")
    return parsed.address, length


def ip(text: str) -> object:
    return make("net.IP", str(_address(text)))


def is_ip(text: str) -> bool:
    try:
        _address(text)
    except ValueError:
        return False
    return True


def is_canonical(text: str) -> bool:
    return str(_address(text)) == text


def _ip(value: object) -> Address:
    return ipaddress.ip_address(value.value)  # type: ignore[attr-defined]


def family(value: object) -> int:
    return _ip(value).version


def is_unspecified(value: object) -> bool:
    return _ip(value).is_unspecified


def is_loopback(value: object) -> bool:
    return _ip(value).is_loopback


def is_link_local_multicast(value: object) -> bool:
    address = _ip(value)
    if address.version == 4:
        return address in ipaddress.ip_network("224.0.0.0/24")
    return address in ipaddress.ip_network("ff02::/16")


def is_link_local_unicast(value: object) -> bool:
    address = _ip(value)
    if address.version == 4:
        return address in ipaddress.ip_network("169.254.0.0/16")
    return address in ipaddress.ip_network("fe80::/10")


def is_global_unicast(value: object) -> bool:
    """Go's ``IsGlobalUnicast``: private addresses count; broadcast does not."""
    address = _ip(value)
    if address.version == 4 and address == ipaddress.IPv4Address("255.255.255.255"):
        return False
    return not (
        address.is_unspecified
        or address.is_loopback
        or address.is_multicast
        or is_link_local_unicast(value)
    )


#: This engine's names for ``string()`` of an IP and of a CIDR
STRING_OF = {"net.IP": "__stringOfIP", "net.CIDR": "__stringOfCIDR"}


def ip_string(value: object) -> str:
    """``string(ip)``, ``string(cidr)``: the text the value holds, canonical."""
    return value.value  # type: ignore[attr-defined, no-any-return]


def cidr(text: str) -> object:
    address, length = _prefix(text)
    return make("net.CIDR", f"{address}/{length}")


def is_cidr(text: str) -> bool:
    try:
        _prefix(text)
    except ValueError:
        return False
    return True


def _network(value: object) -> tuple[Address, int]:
    return _prefix(value.value)  # type: ignore[attr-defined]


def _contains(prefix: tuple[Address, int], address: Address) -> bool:
    base, length = prefix
    if base.version != address.version:
        return False
    network = ipaddress.ip_network(f"{base}/{length}", strict=False)
    return address in network


def contains_ip(value: object, other: object) -> bool:
    if isinstance(other, str):
        try:
            address = _address(other)
        except ValueError:
            # cidrContainsIPString: the string's error is passed on as the IP argument,
            # which cidrContainsIP answers with MaybeNoSuchOverloadErr of the CIDR
            raise ValueError("no such overload") from None
    else:
        address = _ip(other)
    return _contains(_network(value), address)


def contains_cidr(value: object, other: object) -> bool:
    inner_address, inner_length = _prefix(other) if isinstance(other, str) else _network(other)
    base, length = _network(value)
    return inner_length >= length and _contains((base, length), inner_address)


def cidr_ip(value: object) -> object:
    return make("net.IP", str(_network(value)[0]))


def masked(value: object) -> object:
    base, length = _network(value)
    network = ipaddress.ip_network(f"{base}/{length}", strict=False)
    return make("net.CIDR", f"{network.network_address}/{length}")


def prefix_length(value: object) -> int:
    return _network(value)[1]


def _member(
    name: str, overload: str, result: object, receiver: object, impl: object, *extra: object
) -> object:
    return cel.Overload(overload, result, [receiver, *extra], is_member=True, impl=impl)


LIBRARY = Library(
    "ip and cidr",
    "1.30",
    (
        (
            "ip",
            [
                cel.Overload("string_to_ip", IP, [T.STRING], impl=ip),
                _member("ip", "cidr_ip", IP, CIDR, cidr_ip),
            ],
        ),
        ("isIP", [cel.Overload("is_ip", T.BOOL, [T.STRING], impl=is_ip)]),
        (
            "ip.isCanonical",
            [cel.Overload("ip_is_canonical", T.BOOL, [T.STRING], impl=is_canonical)],
        ),
        ("family", [_member("family", "ip_family", T.INT, IP, family)]),
        (
            "isUnspecified",
            [_member("isUnspecified", "ip_is_unspecified", T.BOOL, IP, is_unspecified)],
        ),
        ("isLoopback", [_member("isLoopback", "ip_is_loopback", T.BOOL, IP, is_loopback)]),
        (
            "isLinkLocalMulticast",
            [
                _member(
                    "isLinkLocalMulticast",
                    "ip_is_link_local_multicast",
                    T.BOOL,
                    IP,
                    is_link_local_multicast,
                )
            ],
        ),
        (
            "isLinkLocalUnicast",
            [
                _member(
                    "isLinkLocalUnicast",
                    "ip_is_link_local_unicast",
                    T.BOOL,
                    IP,
                    is_link_local_unicast,
                )
            ],
        ),
        (
            "isGlobalUnicast",
            [_member("isGlobalUnicast", "ip_is_global_unicast", T.BOOL, IP, is_global_unicast)],
        ),
        # string(ip) and string(cidr) cannot be declared: the standard library owns
        # string() and the engine refuses a second declaration
        ("cidr", [cel.Overload("string_to_cidr", CIDR, [T.STRING], impl=cidr)]),
        # string(ip), string(cidr): cel-cpp cannot add overloads to the standard string(),
        # so environment.compile_expression renames such calls to these (one name per
        # type: the runtime tells two message types apart by neither)
        (STRING_OF["net.IP"], [cel.Overload("ip_to_string", T.STRING, [IP], impl=ip_string)]),
        (
            STRING_OF["net.CIDR"],
            [cel.Overload("cidr_to_string", T.STRING, [CIDR], impl=ip_string)],
        ),
        ("isCIDR", [cel.Overload("is_cidr", T.BOOL, [T.STRING], impl=is_cidr)]),
        (
            "containsIP",
            [
                _member(
                    "containsIP", "cidr_contains_ip_string", T.BOOL, CIDR, contains_ip, T.STRING
                ),
                _member("containsIP", "cidr_contains_ip_ip", T.BOOL, CIDR, contains_ip, IP),
            ],
        ),
        (
            "containsCIDR",
            [
                _member(
                    "containsCIDR",
                    "cidr_contains_cidr_string",
                    T.BOOL,
                    CIDR,
                    contains_cidr,
                    T.STRING,
                ),
                _member("containsCIDR", "cidr_contains_cidr", T.BOOL, CIDR, contains_cidr, CIDR),
            ],
        ),
        ("masked", [_member("masked", "cidr_masked", CIDR, CIDR, masked)]),
        (
            "prefixLength",
            [_member("prefixLength", "cidr_prefix_length", T.INT, CIDR, prefix_length)],
        ),
    ),
)
