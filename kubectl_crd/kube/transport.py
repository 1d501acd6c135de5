"""One HTTP/1.1 connection to the API server: direct or through a CONNECT proxy, TLS
with the server name kubectl would verify, and transport failures in kubectl's words.

Built on ``http.client`` and ``ssl`` (the issue's measurements: about 40 ms less than
urllib3 and 300 ms less than the ``kubernetes`` package on a one-request command).
The connection is kept alive between the requests of one command.

``unreachable_error`` turns an ``OSError`` into kubectl's line, following
``k8s.io/kubectl/pkg/cmd/util/helpers.go`` ``StandardErrorMessage``: anything whose text
holds "connection refused" (also a refused proxy) is ``The connection to the server
HOST was refused - did you specify the right host or port?`` with the API server's
host as written in the URL; every other transport error is ``Unable to connect to the
server: ERR`` where ERR is Go's text. Python's ``ssl`` reports certificate problems
with OpenSSL's codes; they are mapped to Go's ``crypto/x509`` texts (``certificate
signed by unknown authority``, ``certificate is valid for A, B, not C``); an expired
certificate lacks Go's times.
"""

from __future__ import annotations

import http.client
import socket
import ssl

from kubectl_crd.model.errors import ClusterUnreachableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from urllib.parse import SplitResult

#: client-go's dialer timeout (transport/cache.go: net.Dialer{Timeout: 30 * time.Second})
DIAL_TIMEOUT_SECONDS = 30.0


class ProxyConnectError(OSError):
    """The proxy answered CONNECT with something else than 200 (Go: the status text)."""


class DialError(OSError):
    """The TCP connection could not be made (Go's ``dial tcp ...`` errors)."""

    def __init__(self, host: str, port: int, cause: OSError) -> None:
        super().__init__(str(cause))
        self.host = host
        self.port = port
        self.cause = cause


class TLSHandshakeTimeout(OSError):
    """The TLS handshake did not finish in time (``net/http: TLS handshake timeout``)."""


class ServerConnection(http.client.HTTPConnection):
    """An ``HTTPConnection`` whose ``connect`` dials, tunnels and wraps TLS as client-go.

    ``host``/``port`` are the API server's (they make the ``Host`` header);
    ``tls_context`` is ``None`` for ``http://`` servers.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        tls_context: ssl.SSLContext | None,
        server_name: str,
        proxy: SplitResult | None = None,
        proxy_authorization: str = "",
        timeout: float | None = None,
    ) -> None:
        super().__init__(host, port, timeout=timeout)
        self.default_port = 443 if tls_context is not None else 80
        self.tls_context = tls_context
        self.server_name = server_name
        self.proxy = proxy
        self.proxy_authorization = proxy_authorization
        self.reused = False

    def __repr__(self) -> str:
        return f"ServerConnection({self.host!r}, {self.port!r})"

    def connect(self) -> None:
        dial_timeout = DIAL_TIMEOUT_SECONDS
        if self.timeout is not None and self.timeout is not socket._GLOBAL_DEFAULT_TIMEOUT:  # type: ignore[attr-defined]
            dial_timeout = min(dial_timeout, float(self.timeout))
        if self.proxy is not None:
            proxy_port = self.proxy.port or (443 if self.proxy.scheme == "https" else 80)
            sock = _dial(self.proxy.hostname or "", proxy_port, dial_timeout)
            if self.proxy.scheme == "https":
                proxy_context = ssl.create_default_context()
                sock = proxy_context.wrap_socket(sock, server_hostname=self.proxy.hostname)
                if self.tls_context is not None:
                    sock.close()
                    raise ClusterUnreachableError(
                        "Unable to connect to the server: an https proxy in front of an "
                        "https server (TLS inside TLS) is not supported by kubectl-crd; "
                        "use an http:// proxy URL"
                    )
            if self.tls_context is not None:
                self._tunnel_through(sock)
        else:
            sock = _dial(self.host, self.port, dial_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.settimeout(None if self.timeout is socket._GLOBAL_DEFAULT_TIMEOUT else self.timeout)  # type: ignore[attr-defined]
        if self.tls_context is not None:
            try:
                sock = self.tls_context.wrap_socket(sock, server_hostname=self.server_name)
            except TimeoutError:
                sock.close()
                raise TLSHandshakeTimeout("TLS handshake timeout") from None
            except OSError:
                sock.close()
                raise
        self.sock = sock
        self.reused = False

    def _tunnel_through(self, sock: socket.socket) -> None:
        target = f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"
        lines = [f"CONNECT {target} HTTP/1.1", f"Host: {target}"]
        if self.proxy_authorization:
            lines.append(f"Proxy-Authorization: {self.proxy_authorization}")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        del lines
        response = http.client.HTTPResponse(sock, method="CONNECT")
        try:
            response.begin()
        except (http.client.HTTPException, OSError):
            sock.close()
            raise
        if response.status != 200:
            sock.close()
            raise ProxyConnectError(response.reason or str(response.status))
        # A 200 to CONNECT has no body; what follows is the server's byte stream.


def _dial(host: str, port: int, timeout: float) -> socket.socket:
    try:
        return socket.create_connection((host, port), timeout)
    except OSError as exc:
        raise DialError(host, port, exc) from exc


def _go_dial_text(host: str, port: int, exc: OSError) -> str:
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if isinstance(exc, socket.gaierror):
        return f"dial tcp: lookup {host}: no such host"
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"dial tcp {address}: i/o timeout"
    reason = (exc.strerror or str(exc)).lower()
    return f"dial tcp {address}: connect: {reason}"


def unreachable_error(
    exc: BaseException,
    *,
    server_hostport: str,
    verify_name: str,
    hostname_mismatch_names: tuple[list[str], list[str]] | None = None,
) -> ClusterUnreachableError:
    """kubectl's line for a failed request (see the module docstring)."""
    refused = ClusterUnreachableError(
        f"The connection to the server {server_hostport} was refused - "
        "did you specify the right host or port?"
    )
    if isinstance(exc, DialError):
        if isinstance(exc.cause, ConnectionRefusedError):
            return refused
        return ClusterUnreachableError(
            f"Unable to connect to the server: {_go_dial_text(exc.host, exc.port, exc.cause)}"
        )
    if isinstance(exc, ConnectionRefusedError):
        return refused
    if isinstance(exc, TLSHandshakeTimeout):
        return ClusterUnreachableError(
            "Unable to connect to the server: net/http: TLS handshake timeout"
        )
    if isinstance(exc, ProxyConnectError):
        return ClusterUnreachableError(f"Unable to connect to the server: {exc}")
    if isinstance(exc, ssl.SSLCertVerificationError):
        return ClusterUnreachableError(
            "Unable to connect to the server: tls: failed to verify certificate: "
            + _x509_text(exc, verify_name, hostname_mismatch_names)
        )
    if isinstance(exc, ssl.SSLError):
        text = str(exc)
        if "WRONG_VERSION_NUMBER" in text or "record layer failure" in text:
            detail = "http: server gave HTTP response to HTTPS client"
        elif "TLSV1_ALERT" in text or "ALERT" in text:
            detail = "remote error: tls: " + (exc.reason or "alert").lower().replace("_", " ")
        else:
            detail = "tls: " + (exc.reason or text).lower().replace("_", " ")
        return ClusterUnreachableError(f"Unable to connect to the server: {detail}")
    if isinstance(exc, TimeoutError | socket.timeout):
        # net/http's text for http.Client.Timeout (kubectl --request-timeout)
        return ClusterUnreachableError(
            "Unable to connect to the server: net/http: request canceled "
            "(Client.Timeout exceeded while awaiting headers)"
        )
    if isinstance(exc, http.client.RemoteDisconnected | http.client.IncompleteRead):
        return ClusterUnreachableError("Unable to connect to the server: EOF")
    if isinstance(exc, ConnectionResetError):
        return ClusterUnreachableError(
            "Unable to connect to the server: read: connection reset by peer"
        )
    if isinstance(exc, http.client.HTTPException):
        return ClusterUnreachableError(
            f"Unable to connect to the server: malformed HTTP response ({type(exc).__name__})"
        )
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return ClusterUnreachableError(f"Unable to connect to the server: {str(reason).lower()}")


def _x509_text(
    exc: ssl.SSLCertVerificationError,
    verify_name: str,
    names: tuple[list[str], list[str]] | None,
) -> str:
    code = getattr(exc, "verify_code", 0)
    # OpenSSL X509_V_ERR_*: 2, 18, 19, 20, 21 are "no trusted chain"
    if code in (2, 18, 19, 20, 21):
        return "x509: certificate signed by unknown authority"
    if code in (9, 10):
        return "x509: certificate has expired or is not yet valid"
    if code in (62, 64):  # hostname / IP address mismatch
        return hostname_error_text(verify_name, names)
    message = getattr(exc, "verify_message", "") or str(exc)
    return f"x509: {message}"


def hostname_error_text(host: str, names: tuple[list[str], list[str]] | None) -> str:
    """Go's ``x509.HostnameError.Error()``."""
    dns, ips = names or ([], [])
    is_ip = _is_ip(host)
    if is_ip:
        if not ips:
            return (
                f"x509: cannot validate certificate for {host} because it doesn't contain "
                "any IP SANs"
            )
        valid = ", ".join(ips)
    else:
        valid = ", ".join(dns)
    if not valid:
        return f"x509: certificate is not valid for any names, but wanted to match {host}"
    return f"x509: certificate is valid for {valid}, not {host}"


def _is_ip(host: str) -> bool:
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
