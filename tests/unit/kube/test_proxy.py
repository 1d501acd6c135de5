"""Proxy choice: golang.org/x/net/http/httpproxy's table, and kubeconfig proxy-url."""

from __future__ import annotations

import pytest

from kubectl_crd.kube.proxy import NoProxy, parse_proxy, proxy_for
from kubectl_crd.model.errors import KubeconfigError

# (NO_PROXY, host, port, excluded) - cases from httpproxy's proxy_test.go semantics
NO_PROXY_TABLE = [
    ("", "localhost", "443", True),  # localhost is never proxied
    ("", "127.0.0.1", "443", True),  # nor loopback
    ("", "::1", "443", True),
    ("", "127.1.2.3", "443", True),
    ("", "example.com", "443", False),
    ("*", "example.com", "443", True),
    ("example.com", "example.com", "443", True),
    ("example.com", "api.example.com", "443", True),
    ("example.com", "notexample.com", "443", False),
    (".example.com", "example.com", "443", False),  # a leading dot: subdomains only
    (".example.com", "api.example.com", "443", True),
    ("*.example.com", "example.com", "443", False),
    ("*.example.com", "api.example.com", "443", True),
    ("example.com:6443", "example.com", "6443", True),
    ("example.com:6443", "example.com", "443", False),
    ("10.0.0.0/8", "10.1.2.3", "443", True),
    ("10.0.0.0/8", "11.1.2.3", "443", False),
    ("10.1.2.3", "10.1.2.3", "443", True),
    ("10.1.2.3:6443", "10.1.2.3", "443", False),
    ("10.1.2.3:6443", "10.1.2.3", "6443", True),
    ("[fd00::1]:443", "fd00::1", "443", True),
    ("fd00::/8", "fd00::5", "443", True),
    (" EXAMPLE.com , other.org", "api.example.com", "443", True),
    ("foo.com,,bar.com", "bar.com", "443", True),
    ("example.com", "EXAMPLE.COM", "443", True),
]


@pytest.mark.parametrize(("no_proxy", "host", "port", "excluded"), NO_PROXY_TABLE)
def test_no_proxy_matching(no_proxy: str, host: str, port: str, excluded: bool) -> None:
    assert NoProxy(no_proxy).excludes(host, port) is excluded


def test_https_server_uses_https_proxy_upper_case_first() -> None:
    env = {"HTTPS_PROXY": "http://upper:1", "https_proxy": "http://lower:2"}
    proxy = proxy_for("https://api.example.com:6443", "", env)
    assert proxy is not None and proxy.hostname == "upper"
    proxy = proxy_for("https://api.example.com:6443", "", {"https_proxy": "http://lower:2"})
    assert proxy is not None and proxy.hostname == "lower"


def test_http_proxy_is_only_for_http_servers() -> None:
    env = {"HTTP_PROXY": "http://p:1"}
    assert proxy_for("https://api.example.com", "", env) is None
    assert proxy_for("http://api.example.com", "", env) is not None
    # a CGI environment: HTTP_PROXY could be set by a request header, Go ignores it
    assert proxy_for("http://api.example.com", "", {**env, "REQUEST_METHOD": "GET"}) is None


def test_no_proxy_uses_the_default_port() -> None:
    env = {"HTTPS_PROXY": "http://p:1", "NO_PROXY": "api.example.com:443"}
    assert proxy_for("https://api.example.com", "", env) is None
    assert proxy_for("https://api.example.com:6443", "", env) is not None


def test_loopback_server_never_goes_through_the_environment_proxy() -> None:
    env = {"HTTPS_PROXY": "http://p:1"}
    assert proxy_for("https://127.0.0.1:6443", "", env) is None
    assert proxy_for("https://localhost:6443", "", env) is None


def test_kubeconfig_proxy_url_ignores_no_proxy_and_loopback() -> None:
    proxy = proxy_for("https://127.0.0.1:6443", "http://p:3128", {"NO_PROXY": "*"})
    assert proxy is not None and (proxy.hostname, proxy.port) == ("p", 3128)


def test_proxy_without_scheme_gets_http() -> None:
    proxy = parse_proxy("proxy.internal:3128")
    assert proxy is not None
    assert (proxy.scheme, proxy.hostname, proxy.port) == ("http", "proxy.internal", 3128)


def test_socks5_is_a_clear_error() -> None:
    with pytest.raises(KubeconfigError, match="socks5"):
        proxy_for("https://h:1", "socks5://p:1080", {})
