"""``library/urls.go``: ``url``, ``isURL`` and the getters, with Go's ``url.ParseRequestURI``.

A request URI is an absolute URL (``scheme:...``) or an absolute path (``/...``); no
fragment (``#`` is refused), no control characters or spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, unquote

from cel_expr_python import cel

from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.cel.library.types import make

T = cel.Type
URL = T("kubernetes.URL")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):(.*)$", re.S)
_PORT = re.compile(r"^:[0-9]*$")


@dataclass(frozen=True)
class _Parts:
    scheme: str
    host: str
    path: str
    raw_query: str


def _parse(text: str) -> _Parts:
    """Go's ``url.ParseRequestURI``; ValueError with Go's words when it refuses."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise ValueError(f'parse "{text}": net/url: invalid control character in URL')
    rest, _, raw_query = text.partition("?")
    scheme = ""
    match = _SCHEME.match(rest)
    if match:
        scheme, rest = match.group(1).lower(), match.group(2)
    elif rest.startswith(":"):
        raise ValueError(f'parse "{text}": missing protocol scheme')
    if not scheme and not rest.startswith("/"):
        raise ValueError(f'parse "{text}": invalid URI for request')
    host = ""
    if scheme and not rest.startswith("/"):
        # opaque: scheme:opaque
        return _Parts(scheme, "", "", raw_query)
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        path = slash + path
        host = authority.rpartition("@")[2]
        if " " in host:
            raise ValueError(f'parse "{text}": invalid character " " in host name')
        if host.startswith("["):
            end = host.find("]")
            if end < 0:
                raise ValueError(f"parse \"{text}\": missing ']' in host")
            port = host[end + 1 :]
            if port and not _PORT.match(port):
                raise ValueError(f'parse "{text}": invalid port "{port}" after host')
        else:
            _, colon, port = host.rpartition(":")
            if colon and not port.isdigit() and port != "":
                raise ValueError(f'parse "{text}": invalid port ":{port}" after host')
    else:
        path = rest
    return _Parts(scheme, host, unquote(path), raw_query)


def url(text: str) -> object:
    try:
        _parse(text)
    except ValueError as exc:
        raise ValueError(f"URL parse error during conversion from string: {exc}") from None
    return make("kubernetes.URL", text)


def is_url(text: str) -> bool:
    try:
        _parse(text)
    except ValueError:
        return False
    return True


def _parts(value: object) -> _Parts:
    return _parse(value.value)  # type: ignore[attr-defined]


def get_scheme(value: object) -> str:
    return _parts(value).scheme


def get_host(value: object) -> str:
    return _parts(value).host


def get_hostname(value: object) -> str:
    host = _parts(value).host
    if host.startswith("["):
        return host[1 : host.find("]")]
    return host.rpartition(":")[0] if ":" in host else host


def get_port(value: object) -> str:
    host = _parts(value).host
    if host.startswith("["):
        rest = host[host.find("]") + 1 :]
        return rest[1:] if rest.startswith(":") else ""
    return host.rpartition(":")[2] if ":" in host else ""


def get_escaped_path(value: object) -> str:
    return quote(_parts(value).path, safe="/:@!$&'()*+,;=-._~")


def get_query(value: object) -> dict[str, list[str]]:
    return parse_qs(_parts(value).raw_query, keep_blank_values=True)


def _getter(name: str, result: object, impl: object) -> tuple[str, list[Any]]:
    return (name, [cel.Overload(f"url_{name}", result, [URL], is_member=True, impl=impl)])


LIBRARY = Library(
    "urls",
    "base",
    (
        ("url", [cel.Overload("string_to_url", URL, [T.STRING], impl=url)]),
        ("isURL", [cel.Overload("is_url_string", T.BOOL, [T.STRING], impl=is_url)]),
        _getter("getScheme", T.STRING, get_scheme),
        _getter("getHost", T.STRING, get_host),
        _getter("getHostname", T.STRING, get_hostname),
        _getter("getPort", T.STRING, get_port),
        _getter("getEscapedPath", T.STRING, get_escaped_path),
        _getter("getQuery", T.Map(T.STRING, T.List(T.STRING)), get_query),
    ),
)
