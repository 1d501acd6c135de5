"""Which proxy a request goes through: kubeconfig ``proxy-url``, else the environment.

Mirrors ``golang.org/x/net/http/httpproxy`` (``FromEnvironment``, ``ProxyFunc``,
``useProxy``), which ``http.ProxyFromEnvironment`` and so client-go use:

- ``HTTPS_PROXY``/``https_proxy`` for https URLs, ``HTTP_PROXY``/``http_proxy`` for http
  ones (upper case first, the first non-empty wins); ``HTTP_PROXY`` is ignored under CGI
  (``REQUEST_METHOD`` set). A value without a scheme gets ``http://``.
- ``localhost`` and loopback addresses are never proxied.
- ``NO_PROXY``/``no_proxy``: comma-separated; ``*`` matches everything; an IP or CIDR
  matches addresses (with an optional ``:port``); ``example.com`` matches it and its
  subdomains, ``.example.com`` and ``*.example.com`` only subdomains; ports must agree
  when given. Matching is case-insensitive.

A kubeconfig ``proxy-url`` (``rest.Config.Proxy``, ``http.ProxyURL``) applies to every
request and ignores ``NO_PROXY``. ``http`` and ``https`` proxies are supported (an https
proxy in front of an https server carries TLS inside TLS: ``transport._TLSInTLS``);
``socks5`` is refused with a clear error (client-go supports it; we do not yet).
"""

from __future__ import annotations

from kubectl_crd.model.errors import KubeconfigError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from ipaddress import IPv4Network, IPv6Network
    from urllib.parse import SplitResult


def _env(environ: Mapping[str, str], *names: str) -> str:
    for name in names:
        value = environ.get(name, "")
        if value:
            return value
    return ""


def parse_proxy(value: str) -> SplitResult | None:
    """httpproxy's ``parseProxy``: a URL, or ``http://`` + the value when it has no scheme."""
    if not value:
        return None
    from urllib.parse import urlsplit

    parsed = urlsplit(value)
    if not parsed.scheme or not parsed.netloc:
        parsed = urlsplit("http://" + value)
    return parsed


class NoProxy:
    """The matchers of one ``NO_PROXY`` value (httpproxy ``config.init``)."""

    def __init__(self, value: str) -> None:
        import ipaddress

        self.match_all = False
        self.networks: list[tuple[IPv4Network | IPv6Network, str]] = []
        self.domains: list[tuple[str, str, bool]] = []  # (".suffix", port, match_host)
        for raw in value.split(","):
            entry = raw.strip().lower()
            if not entry:
                continue
            if entry == "*":
                self.match_all = True
                return
            if "/" in entry:
                try:
                    self.networks.append((ipaddress.ip_network(entry, strict=False), ""))
                    continue
                except ValueError:
                    pass
            host, port = _split_host_port(entry)
            if host is None:
                host, port = entry, ""
            if not host:
                continue
            try:
                address = ipaddress.ip_address(host)
            except ValueError:
                address = None
            if address is not None:
                self.networks.append((ipaddress.ip_network(address), port))
                continue
            if host.startswith("*."):
                host = host[1:]
            match_host = not host.startswith(".")
            if match_host:
                host = "." + host
            self.domains.append((host, port, match_host))

    def excludes(self, host: str, port: str) -> bool:
        """True when ``host:port`` must not be proxied (``useProxy`` is false)."""
        import ipaddress

        host = host.strip().lower()
        if host == "localhost":
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            address = None
        if address is not None and address.is_loopback:
            return True
        if self.match_all:
            return True
        if address is not None:
            for network, network_port in self.networks:
                if address in network and (not network_port or network_port == port):
                    return True
            # Go's domainMatch also runs for IPs, on the textual host.
        for suffix, domain_port, match_host in self.domains:
            matches = host.endswith(suffix) or (match_host and host == suffix[1:])
            if matches and (not domain_port or domain_port == port):
                return True
        return False


def _split_host_port(text: str) -> tuple[str | None, str]:
    """``net.SplitHostPort``, or ``(None, "")`` when ``text`` has no port."""
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or not text[end + 1 :].startswith(":"):
            return None, ""
        return text[1:end], text[end + 2 :]
    if text.count(":") != 1:
        return None, ""
    host, port = text.split(":")
    return host, port


def proxy_for(server: str, proxy_url: str, environ: Mapping[str, str]) -> SplitResult | None:
    """The proxy for requests to ``server``, or ``None`` for a direct connection."""
    from kubectl_crd.kube.transport import ServerURL

    target = ServerURL(server)
    if proxy_url:
        proxy = parse_proxy(proxy_url)
    else:
        if target.scheme == "https":
            proxy = parse_proxy(_env(environ, "HTTPS_PROXY", "https_proxy"))
        elif environ.get("REQUEST_METHOD"):
            proxy = None  # Go refuses HTTP_PROXY in a CGI environment
        else:
            proxy = parse_proxy(_env(environ, "HTTP_PROXY", "http_proxy"))
        if proxy is None:
            return None
        no_proxy = NoProxy(_env(environ, "NO_PROXY", "no_proxy"))
        if no_proxy.excludes(target.host, str(target.port)):
            return None
    if proxy is None:
        return None
    if proxy.scheme not in ("http", "https"):
        raise KubeconfigError(
            f"proxy scheme {proxy.scheme!r} is not supported by kubectl-crd "
            "(http and https proxies are)"
        )
    return proxy
