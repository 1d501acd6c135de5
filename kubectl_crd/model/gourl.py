"""Go's ``net/url`` ``Parse``: the URL it reads, or its error in its words.

Pure, stdlib only. kube-apiserver reads a CRD's conversion webhook URL with ``url.Parse``
(``apiserver/pkg/util/webhook/validation.go`` ``ValidateWebhookURL``) and refuses one it
cannot parse with the parser's error (``parse "<URL, %q>": <reason>``); Python's
``urlsplit`` accepts what Go refuses (a space or ``{`` in a host, a port that is not
digits, a bad ``%`` escape) and raises on what Go reads (``[::1`` without its ``]``).
This follows Go 1.26's ``net/url/url.go`` (``parse``, ``getScheme``,
``parseAuthority``, ``parseHost``, ``unescape``, ``validUserinfo``) under the GODEBUG
defaults a v1.34 release is built with (k8s.io/kubernetes' go.mod: ``godebug
default=go1.24``; hack/envtest-assets.sh gives the test suite's kube-apiserver the same).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kubectl_crd.model.gostrconv import go_quote

__all__ = ["GoURL", "GoURLError", "parse_go_url"]

_HEX = frozenset("0123456789abcdefABCDEF")
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
#: what a host may hold unescaped besides letters and digits (shouldEscape, encodeHost:
#: RFC 3986's sub-delims, ':' and '[' ']' for a port and an IPv6 literal, '<' '>' '"'),
#: and the unreserved marks
_HOST_SAFE = frozenset("!$&'()*+,;=:[]<>\"-_.~")
_USERINFO = _ALNUM | frozenset("-._:~!$&'()*+,;=%@")
_SCHEME_LATER = frozenset("0123456789+-.")
#: what Userinfo.String leaves unescaped (shouldEscape, encodeUserPassword)
_USERNAME_KEPT = _ALNUM | frozenset("-_.~$&+,;=")


class GoURLError(ValueError):
    """``url.Error``'s text: ``parse "<URL>": <reason>``."""


@dataclass(frozen=True)
class GoURL:
    scheme: str  # lower-cased
    opaque: str
    userinfo: str | None  # as written (escaped); None without '@'
    host: str  # unescaped
    path: str  # unescaped
    raw_query: str
    fragment: str  # unescaped

    def username(self) -> str:
        """The user name as ``Userinfo.String`` writes it: unescaped, then escaped again
        (encodeUserPassword). The password is left out on purpose: nothing this tool
        prints holds a credential."""
        name = (self.userinfo or "").partition(":")[0]
        return "".join(
            char if char in _USERNAME_KEPT else "".join(f"%{b:02X}" for b in char.encode())
            for char in _percent_decoded(name)
        )


def parse_go_url(raw: str, *, request: bool = False) -> GoURL:
    """``url.Parse(raw)``, or with ``request`` ``url.ParseRequestURI(raw)`` (an absolute
    URL or an absolute path, no fragment cut off: a '#' is the path's or the query's);
    ``GoURLError`` with Go's message when Go refuses it."""
    if request:
        try:
            return _parse(raw, request=True)
        except _Refused as refused:
            raise GoURLError(f"parse {go_quote(raw)}: {refused}") from None
    before, hash_mark, fragment = raw.partition("#")
    try:
        url = _parse(before)
    except _Refused as refused:
        raise GoURLError(f"parse {go_quote(before)}: {refused}") from None
    if not hash_mark:
        return url
    try:
        unescaped = _unescape(fragment)
    except _Refused as refused:
        raise GoURLError(f"parse {go_quote(raw)}: {refused}") from None
    return replace(url, fragment=unescaped)


class _Refused(Exception):
    """One of net/url's errors, before ``url.Error`` wraps it."""


def _parse(raw: str, *, request: bool = False) -> GoURL:
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in raw):
        raise _Refused("net/url: invalid control character in URL")
    if not raw and request:
        raise _Refused("empty url")
    if raw == "*":
        return GoURL("", "", None, "", "*", "", "")
    scheme, rest = _scheme(raw)
    if rest.endswith("?") and rest.count("?") == 1:
        rest, query = rest[:-1], ""  # ForceQuery
    else:
        rest, _, query = rest.partition("?")
    if not rest.startswith("/"):
        if scheme:
            return GoURL(scheme, rest, None, "", "", query, "")
        if request:
            raise _Refused("invalid URI for request")
        if ":" in rest.partition("/")[0]:
            raise _Refused("first path segment in URL cannot contain colon")
    userinfo: str | None = None
    host = ""
    if (scheme or (not request and not rest.startswith("///"))) and rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        rest = slash + path
        userinfo, host = _authority(authority)
    return GoURL(scheme, "", userinfo, host, _unescape(rest), query, "")


def _scheme(raw: str) -> tuple[str, str]:
    """``getScheme``: the letters, digits, '+', '-', '.' before a ':', led by a letter."""
    for index, char in enumerate(raw):
        if char in _ALNUM and not char.isdigit():
            continue
        if char in _SCHEME_LATER:
            if index == 0:
                return "", raw
            continue
        if char == ":":
            if index == 0:
                raise _Refused("missing protocol scheme")
            return raw[:index].lower(), raw[index + 1 :]
        return "", raw
    return "", raw


def _authority(authority: str) -> tuple[str | None, str]:
    userinfo, at, host = authority.rpartition("@")
    host = _host(host)
    if not at:
        return None, host
    if not all(char in _USERINFO for char in userinfo):
        raise _Refused("net/url: invalid userinfo")
    for part in userinfo.split(":", 1):
        _unescape(part)
    return userinfo, host


def _valid_port(port: str) -> bool:
    """``validOptionalPort``: empty, or ':' and ASCII digits (none is fine)."""
    return not port or (port[0] == ":" and all("0" <= char <= "9" for char in port[1:]))


def _port_checked(port: str) -> None:
    if not _valid_port(port):
        raise _Refused(f"invalid port {go_quote(port)} after host")


def _host(host: str) -> str:
    """``parseHost``: an IP literal in brackets (only at the start; an IPv6 address,
    with an optional zone after ``%25``), else the port after the host's last colon
    (``https://a:1:2/`` is host ``a:1:2``, port 2), then unescaped. Go 1.26's default,
    ``urlstrictcolons=1``, reads an http or https port after the first colon instead
    (``invalid port ":1:2" after host``); a release's ``default=go1.24`` turns it off,
    which is why parseHost's scheme is not needed here."""
    opening = host.rfind("[")
    if opening > 0:
        raise _Refused("invalid IP-literal")
    if opening == 0:
        closing = host.rfind("]")
        if closing < 0:
            raise _Refused("missing ']' in host")
        port = host[closing + 1 :]
        _port_checked(port)
        _unescape(port, host=True)
        name = host[1:closing]
        zone = name.find("%25")
        if zone >= 0:
            address = _unescape(name[:zone], host=True) + _unescape(name[zone:], zone=True)
        else:
            address = _unescape(name, host=True)
        _ip_literal(address)
        return "[" + address + "]" + port
    colon = host.rfind(":")
    if colon >= 0:
        _port_checked(host[colon:])
    return _unescape(host, host=True)


def _ip_literal(address: str) -> None:
    """What ``netip.ParseAddr`` (``model.gonetip``, its own words) and the IPv4 check
    refuse in brackets."""
    from kubectl_crd.model.gonetip import AddrError, parse_addr

    try:
        parsed = parse_addr(address)
    except AddrError as error:
        raise _Refused(f"invalid host: {error}") from None
    if parsed.address.version == 4:
        raise _Refused("invalid IP-literal")


def _unescape(text: str, *, host: bool = False, zone: bool = False) -> str:
    """``unescape``: every '%' followed by two hex digits. In a host (encodeHost) no
    escaped ASCII byte but ``%25`` and no byte that must be escaped (``invalid
    character " " in host name``); in an IPv6 zone (encodeZone) any escape but of such
    a byte."""
    index = 0
    while index < len(text):
        char = text[index]
        if char == "%":
            escape = text[index : index + 3]
            if len(escape) < 3 or escape[1] not in _HEX or escape[2] not in _HEX:
                raise _Refused(f"invalid URL escape {go_quote(escape)}")
            if host and int(escape[1], 16) < 8 and escape != "%25":
                raise _Refused(f"invalid URL escape {go_quote(escape)}")
            if zone and escape != "%25":
                byte = chr(int(escape[1:], 16))
                if byte != " " and _host_escapes(byte):
                    raise _Refused(f"invalid URL escape {go_quote(escape)}")
            index += 3
            continue
        if (host or zone) and char.isascii() and _host_escapes(char):
            raise _Refused(f"invalid character {go_quote(char)} in host name")
        index += 1
    return _percent_decoded(text)


def _host_escapes(char: str) -> bool:
    """``shouldEscape(c, encodeHost)`` of an ASCII character."""
    return char not in _ALNUM and char not in _HOST_SAFE


def _percent_decoded(text: str) -> str:
    """The escapes as the bytes they stand for, read back as UTF-8 (Go's strings hold
    bytes; a byte that is not UTF-8 becomes U+FFFD here, only ever shown)."""
    if "%" not in text:
        return text
    data = bytearray()
    index = 0
    raw = text.encode("utf-8")
    while index < len(raw):
        if raw[index] == 0x25:  # '%'
            data.append(int(raw[index + 1 : index + 3], 16))
            index += 3
        else:
            data.append(raw[index])
            index += 1
    return data.decode("utf-8", errors="replace")
