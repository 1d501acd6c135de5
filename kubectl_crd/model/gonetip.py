"""Go's ``net/netip`` address and prefix parsing, with its error texts.

``ParseAddr`` and ``ParsePrefix`` (Go 1.26 ``src/net/netip/netip.go``) are what
Kubernetes' CEL ``ip()``/``cidr()`` libraries and ``net/url``'s bracketed hosts parse
with; their errors reach the user verbatim (``ParseAddr("1::2::3"): multiple :: in
address (at ":3")``). Python's ``ipaddress`` accepts and refuses nearly the same
strings but says nothing Go says, so the grammar is mirrored step by step: IPv4 as
four decimal fields without leading zeros, IPv6 as hex groups of at most four digits
with one ``::``, an embedded IPv4 in the last 32 bits, a zone after ``%``. The parsed
value is Python's ``ipaddress`` object (with the zone apart), which is what the callers
compute with.

Pure: stdlib and the model layer.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from kubectl_crd.model.gostrconv import go_quote

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

_DIGITS = "0123456789"
_HEX = {**{c: int(c) for c in _DIGITS}, **{c: 10 + i for i, c in enumerate("abcdef")}}
_HEX.update({c.upper(): v for c, v in _HEX.items() if c.isalpha()})


class AddrError(ValueError):
    """A refusal, worded as Go's ``error.Error()`` words it."""


@dataclass(frozen=True)
class ParsedAddr:
    address: Address
    zone: str  # "" when none (an IPv6 address only)


def _refused(text: str, message: str, at: str = "") -> AddrError:
    """``parseAddrError.Error()``: ``ParseAddr("in"): msg (at "rest")``."""
    tail = f" (at {go_quote(at)})" if at else ""
    return AddrError(f"ParseAddr({go_quote(text)}): {message}{tail}")


def parse_addr(text: str) -> ParsedAddr:
    """``netip.ParseAddr``: the first '.', ':' or '%' decides the form."""
    for char in text:
        if char == ".":
            return ParsedAddr(ipaddress.IPv4Address(bytes(_ipv4_fields(text, text))), "")
        if char == ":":
            return _ipv6(text)
        if char == "%":
            # Go assumes an IPv6 address with a zone whose address is missing
            raise _refused(text, "missing IPv6 address")
    raise _refused(text, "unable to parse IP")


def parse_ip(text: str) -> Address | None:
    """``net.ParseIP`` (Go 1.22 on: ``netip.ParseAddr``, a zone refused), or None."""
    try:
        parsed = parse_addr(text)
    except AddrError:
        return None
    return None if parsed.zone else parsed.address


def _ipv4_fields(whole: str, part: str) -> list[int]:
    """``parseIPv4Fields`` of ``part`` (the end of ``whole``, which errors name)."""
    fields: list[int] = []
    value = digits = 0
    for index, char in enumerate(part):
        if char in _DIGITS:
            if digits == 1 and value == 0:
                raise _refused(whole, "IPv4 field has octet with leading zero")
            value = value * 10 + int(char)
            digits += 1
            if value > 255:
                raise _refused(whole, "IPv4 field has value >255")
        elif char == ".":
            if index == 0 or index == len(part) - 1 or part[index - 1] == ".":
                raise _refused(whole, "IPv4 field must have at least one digit", part[index:])
            if len(fields) == 3:
                raise _refused(whole, "IPv4 address too long")
            fields.append(value)
            value = digits = 0
        else:
            raise _refused(whole, "unexpected character", part[index:])
    if len(fields) < 3:
        raise _refused(whole, "IPv4 address too short")
    return [*fields, value]


def _ipv6(text: str) -> ParsedAddr:
    """``parseIPv6``."""
    rest, percent, zone = text.partition("%")
    if percent and not zone:
        raise _refused(text, "zone must be a non-empty string")
    address = [0] * 16
    ellipsis = -1
    if rest.startswith("::"):
        ellipsis = 0
        rest = rest[2:]
        if not rest:
            return ParsedAddr(ipaddress.IPv6Address(0), zone)
    filled = 0
    while filled < 16:
        offset = value = 0
        while offset < len(rest) and rest[offset] in _HEX:
            value = (value << 4) + _HEX[rest[offset]]
            if offset > 3:
                raise _refused(text, "each group must have 4 or less digits", rest)
            if value > 0xFFFF:
                raise _refused(text, "IPv6 field has value >=2^16", rest)
            offset += 1
        if offset == 0:
            raise _refused(text, "each colon-separated field must have at least one digit", rest)
        if offset < len(rest) and rest[offset] == ".":
            if ellipsis < 0 and filled != 12:
                message = "embedded IPv4 address must replace the final 2 fields of the address"
                raise _refused(text, message, rest)
            if filled + 4 > 16:
                message = "too many hex fields to fit an embedded IPv4 at the end of the address"
                raise _refused(text, message, rest)
            address[filled : filled + 4] = _ipv4_fields(text, rest)
            rest = ""
            filled += 4
            break
        address[filled], address[filled + 1] = value >> 8, value & 0xFF
        filled += 2
        rest = rest[offset:]
        if not rest:
            break
        if rest[0] != ":":
            raise _refused(text, "unexpected character, want colon", rest)
        if len(rest) == 1:
            raise _refused(text, "colon must be followed by more characters", rest)
        rest = rest[1:]
        if rest[0] == ":":
            if ellipsis >= 0:
                raise _refused(text, "multiple :: in address", rest)
            ellipsis = filled
            rest = rest[1:]
            if not rest:
                break
    if rest:
        raise _refused(text, "trailing garbage after address", rest)
    if filled < 16:
        if ellipsis < 0:
            raise _refused(text, "address string too short")
        gap = 16 - filled
        address[ellipsis:filled] = [0] * gap + address[ellipsis:filled]
        address = address[:16]
    elif ellipsis >= 0:
        raise _refused(text, "the :: must expand to at least one field of zeros")
    return ParsedAddr(ipaddress.IPv6Address(bytes(address)), zone)


def parse_prefix(text: str) -> tuple[ParsedAddr, int]:
    """``netip.ParsePrefix``: the address before the last '/' and its bit count;
    a refusal is ``netip.ParsePrefix("in"): msg``, an address's own error inside it."""
    slash = text.rfind("/")

    def refused(message: str) -> AddrError:
        return AddrError(f"netip.ParsePrefix({go_quote(text)}): {message}")

    if slash < 0:
        raise refused("no '/'")
    try:
        parsed = parse_addr(text[:slash])
    except AddrError as error:
        raise refused(str(error)) from None
    if parsed.zone:
        raise refused("IPv6 zones cannot be present in a prefix")
    bits_text = text[slash + 1 :]
    bad_bits = refused(f"bad bits after slash: {go_quote(bits_text)}")
    if len(bits_text) > 1 and bits_text[0] not in "123456789":
        raise bad_bits
    bits = _atoi(bits_text)
    if bits is None:
        raise bad_bits
    if not 0 <= bits <= parsed.address.max_prefixlen:
        raise refused("prefix length out of range")
    return parsed, bits


def _atoi(text: str) -> int | None:
    """``strconv.Atoi`` of what ParsePrefix lets through: an optional sign, ASCII digits,
    within int64."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or any(char not in _DIGITS for char in digits):
        return None
    value = int(text)
    return value if -(1 << 63) <= value < (1 << 63) else None


# -- k8s.io/utils/net ParseIPSloppy and ParseCIDRSloppy ---------------------------------
# Go 1.16's net.ParseIP and ParseCIDR, forked into k8s.io/utils (internal/third_party/
# forked/golang/net/ip.go, parse.go) because Go 1.17 began refusing IPv4 fields with
# leading zeros and Kubernetes keeps reading stored data that has them: a field is any
# run of ASCII digits (``0010`` is 10), a hex group any run of hex digits under 2^16, no
# zone. What the API server's validation (IsValidIP, IsValidCIDR, a NetworkPolicy's
# ipBlock, the ipv4 and cidr formats) parses with.

#: parse.go ``big``: dtoi and xtoi give up at this value
_BIG = 0xFFFFFF


def _dtoi(text: str, start: int) -> tuple[int, int] | None:
    """``dtoi(text[start:])``: the decimal value and where its digits end, or None."""
    value, index = 0, start
    while index < len(text) and text[index] in _DIGITS:
        value = value * 10 + ord(text[index]) - 48
        if value >= _BIG:
            return None
        index += 1
    return None if index == start else (value, index)


def _xtoi(text: str) -> tuple[int, int] | None:
    """``xtoi``: the hexadecimal value at the start of ``text`` and its length, or None."""
    value = index = 0
    while index < len(text) and text[index] in _HEX:
        value = (value << 4) + _HEX[text[index]]
        if value >= _BIG:
            return None
        index += 1
    return None if index == 0 else (value, index)


def _sloppy_ipv4(text: str) -> list[int] | None:
    """``parseIPv4``: four dot-separated decimal fields up to 255, leading zeros read."""
    fields: list[int] = []
    index = 0
    for field in range(4):
        if field:
            if index >= len(text) or text[index] != ".":
                return None
            index += 1
        parsed = _dtoi(text, index)
        if parsed is None or parsed[0] > 0xFF:
            return None
        fields.append(parsed[0])
        index = parsed[1]
    return fields if index == len(text) else None


def _sloppy_ipv6(text: str) -> ipaddress.IPv6Address | None:
    """``parseIPv6``: hex groups, one ``::``, a sloppy IPv4 in the last 32 bits."""
    address = [0] * 16
    ellipsis = -1
    rest = text
    if rest.startswith("::"):
        ellipsis = 0
        rest = rest[2:]
        if not rest:
            return ipaddress.IPv6Address(0)
    filled = 0
    while filled < 16:
        parsed = _xtoi(rest)
        if parsed is None or parsed[0] > 0xFFFF:
            return None
        value, length = parsed
        if length < len(rest) and rest[length] == ".":
            if (ellipsis < 0 and filled != 12) or filled + 4 > 16:
                return None
            embedded = _sloppy_ipv4(rest)
            if embedded is None:
                return None
            address[filled : filled + 4] = embedded
            rest = ""
            filled += 4
            break
        address[filled], address[filled + 1] = value >> 8, value & 0xFF
        filled += 2
        rest = rest[length:]
        if not rest:
            break
        if rest[0] != ":" or len(rest) == 1:
            return None
        rest = rest[1:]
        if rest[0] == ":":
            if ellipsis >= 0:
                return None
            ellipsis = filled
            rest = rest[1:]
            if not rest:
                break
    if rest:
        return None
    if filled < 16:
        if ellipsis < 0:
            return None
        address = address[:ellipsis] + [0] * (16 - filled) + address[ellipsis:filled]
    elif ellipsis >= 0:
        return None
    return ipaddress.IPv6Address(bytes(address))


def parse_ip_sloppy(text: str) -> Address | None:
    """``netutils.ParseIPSloppy``: the first '.' or ':' decides the form; None when Go's
    answer is nil. An IPv4-mapped IPv6 text stays IPv6 here (Go's 16 bytes print as
    IPv4: ``address.ipv4_mapped``)."""
    for char in text:
        if char == ".":
            fields = _sloppy_ipv4(text)
            return None if fields is None else ipaddress.IPv4Address(bytes(fields))
        if char == ":":
            return _sloppy_ipv6(text)
    return None


def parse_cidr_sloppy(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """``netutils.ParseCIDRSloppy``'s network (the address masked), or None: the
    address before the first '/' (IPv4 tried first), ASCII decimal bits within its size."""
    address, slash, bits = text.partition("/")
    if not slash:
        return None
    fields = _sloppy_ipv4(address)
    ip: Address | None = ipaddress.IPv4Address(bytes(fields)) if fields else _sloppy_ipv6(address)
    parsed = _dtoi(bits, 0)
    if ip is None or parsed is None or parsed[1] != len(bits) or parsed[0] > ip.max_prefixlen:
        return None
    return ipaddress.ip_network(f"{ip}/{parsed[0]}", strict=False)


def go_ip_string(address: Address) -> str:
    """``net.IP.String()`` of a parsed address: an IPv4-mapped IPv6 address prints as
    its IPv4 (``To4``), any other IPv6 in RFC 5952 form."""
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped if mapped is not None else address)


def go_ipnet_string(network: ipaddress.IPv4Network | ipaddress.IPv6Network) -> str:
    """``net.IPNet.String()`` of what ``parse_cidr_sloppy`` gives: an IPv4-mapped network
    (prefix 96 or more; a shorter one masks the ``ffff`` away) prints as IPv4 with the
    mask's last 32 bits (``networkNumberAndMask``)."""
    mapped = getattr(network.network_address, "ipv4_mapped", None)
    if mapped is not None:
        return f"{mapped}/{network.prefixlen - 96}"
    return f"{network.network_address}/{network.prefixlen}"
