"""``library/urls.go``: ``url``, ``isURL`` and the getters, with Go's ``url.ParseRequestURI``.

A request URI is an absolute URL (``scheme:...``) or an absolute path (``/...``); no
control characters; a host as Go's ``url.Parse`` reads one (``model.gourl``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote

from cel_expr_python import cel

from kubectl_crd.model.gourl import GoURLError, parse_go_url
from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.cel.library.types import make

T = cel.Type
URL = T("kubernetes.URL")


@dataclass(frozen=True)
class _Parts:
    scheme: str
    host: str
    path: str
    raw_query: str


def _parse(text: str) -> _Parts:
    """What ``stringToUrl`` reads (apiserver ``pkg/cel/library/urls.go``): the text
    checked with Go's ``url.ParseRequestURI``, then its parts by ``url.Parse`` (which
    cuts a ``#fragment`` off; ParseRequestURI leaves it in the path or the query);
    ValueError with Go's words (the URL quoted as ``%q`` writes it) when one refuses."""
    try:
        parse_go_url(text, request=True)
        parsed = parse_go_url(text)
    except GoURLError as refused:
        raise ValueError(str(refused)) from None
    return _Parts(parsed.scheme, parsed.host, parsed.path, parsed.raw_query)


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
