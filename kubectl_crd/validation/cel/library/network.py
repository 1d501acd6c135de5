"""``library/ip.go`` and ``library/cidr.go`` (Kubernetes 1.30): addresses and prefixes.

Go's ``netip`` rules: no zones, no IPv4-mapped IPv6 addresses, no leading zeros in
IPv4; a CIDR keeps the address it was written with (``masked()`` clears host bits).
"""

from __future__ import annotations

import ipaddress

from cel_expr_python import cel

from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.cel.library.types import make

T = cel.Type
IP = T("net.IP")
CIDR = T("net.CIDR")
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _ipv4_problem(text: str) -> str:
    """Go's ``netip.ParseAddr`` words for a dotted address it refuses."""
    fields = text.split(".")
    for position, field in enumerate(fields):
        if not field.isdigit():
            if field == "":
                return "IPv4 field must have at least one digit" + (
                    f' (at "{".".join(fields[position:])}")' if position < len(fields) - 1 else ""
                )
            bad = next(i for i, c in enumerate(field) if not c.isdigit())
            rest = field[bad:] + "".join("." + f for f in fields[position + 1 :])
            return f'unexpected character (at "{rest}")'
        if len(field) > 1 and field[0] == "0":
            return "IPv4 field has octet with leading zero"
        if int(field) > 255:
            return "IPv4 field has value >255"
    return "IPv4 address too short" if len(fields) < 4 else "IPv4 address too long"


def _address(text: str) -> Address:
    if "%" in text:
        raise ValueError("IP address with zone value is not allowed")
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        if "." in text and ":" not in text:
            raise ValueError(f'ParseAddr("{text}"): {_ipv4_problem(text)}') from None
        raise ValueError(f'ParseAddr("{text}"): unable to parse IP') from None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        raise ValueError("IPv4-mapped IPv6 address is not allowed")
    return address


def _prefix(text: str) -> tuple[Address, int]:
    address_text, slash, bits = text.partition("/")
    if not slash:
        raise ValueError(f"netip.ParsePrefix(\"{text}\"): no '/'")
    address = _address(address_text)
    if not bits.isdigit() or (len(bits) > 1 and bits[0] == "0"):
        raise ValueError(f'netip.ParsePrefix("{text}"): bad bits after slash: "{bits}"')
    length = int(bits)
    if length > address.max_prefixlen:
        raise ValueError(f'netip.ParsePrefix("{text}"): prefix length out of range')
    return address, length


def ip(text: str) -> object:
    try:
        address = _address(text)
    except ValueError as exc:
        raise ValueError(
            f'IP Address "{text}" parse error during conversion from string: {exc}'
        ) from None
    return make("net.IP", str(address))


def is_ip(text: str) -> bool:
    try:
        _address(text)
    except ValueError:
        return False
    return True


def is_canonical(text: str) -> bool:
    try:
        return str(_address(text)) == text
    except ValueError as exc:
        raise ValueError(
            f'IP Address "{text}" parse error during conversion from string: {exc}'
        ) from None


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
    try:
        address, length = _prefix(text)
    except ValueError as exc:
        raise ValueError(
            f'network address "{text}" parse error during conversion from string: {exc}'
        ) from None
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
    address = _address(other) if isinstance(other, str) else _ip(other)
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
