"""One HTTP/1.1 connection to the API server: direct or through a CONNECT proxy, TLS
with the server name kubectl would verify, and transport failures in kubectl's words.

Written on ``socket`` and ``ssl`` alone. ``http.client`` would cost 15 ms more at
start-up (it imports the ``email`` package to parse headers), a tenth of a live
``explain``; what the API server needs is small: a request with a known length, and a
response with ``Content-Length``, ``chunked`` or read-to-close bodies, kept alive
between the requests of one command, and read line by line for a watch.

``unreachable_error`` turns an ``OSError`` into kubectl's line, following
``k8s.io/kubectl/pkg/cmd/util/helpers.go`` ``StandardErrorMessage``: a refused
connection (also a refused proxy) is ``The connection to the server HOST was refused -
did you specify the right host or port?`` with the API server's host as written in the
URL; every other transport error is ``Unable to connect to the server: ERR`` where ERR
is Go's text. Python's ``ssl`` reports certificate problems with OpenSSL's codes; they
are mapped to Go's ``crypto/x509`` texts (``certificate signed by unknown authority``,
``certificate is valid for A, B, not C``); an expired certificate lacks Go's times.
"""

from __future__ import annotations

import contextlib
import io
import socket
import ssl

from kubectl_crd.model.errors import ClusterUnreachableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar
    from urllib.parse import SplitResult

    _T = TypeVar("_T")

#: client-go's dialer timeout (transport/cache.go: net.Dialer{Timeout: 30 * time.Second})
DIAL_TIMEOUT_SECONDS = 30.0
#: client-go's TLS handshake bound (apimachinery util/net/http.go SetTransportDefaults:
#: TLSHandshakeTimeout 10 s)
TLS_HANDSHAKE_TIMEOUT_SECONDS = 10.0
#: Go's TCP keep-alive defaults (net/tcpsockopt, net.Dialer KeepAlive 0 = on: 15 s idle,
#: 15 s between probes, 9 probes), which client-go's dialer keeps: a peer that vanished
#: without a FIN is noticed after about 2.5 minutes even when no deadline is set.
KEEPALIVE_IDLE_SECONDS = 15
KEEPALIVE_INTERVAL_SECONDS = 15
KEEPALIVE_PROBES = 9
_MAX_LINE = 1 << 16
_MAX_HEADERS = 200


class ServerURL:
    """The parts of a kubeconfig ``server`` URL that a connection needs.

    ``urllib.parse`` would do, but it costs 3-4 ms at start-up (it imports
    ``ipaddress``); a server URL is ``scheme://[user@]host[:port][/path]``.
    """

    __slots__ = ("host", "hostport", "path", "port", "scheme")

    def __init__(self, url: str) -> None:
        scheme, separator, rest = url.partition("://")
        if not separator:
            scheme, rest = "", url
        self.scheme = scheme.lower()
        end = len(rest)
        for mark in "/?#":
            index = rest.find(mark)
            if index >= 0:
                end = min(end, index)
        netloc, remainder = rest[:end], rest[end:]
        self.path = remainder.split("?", 1)[0].split("#", 1)[0]
        #: host[:port] as written in the URL (kubectl's "connection to the server X")
        self.hostport = netloc.rpartition("@")[2]
        host, port = self.hostport, ""
        if host.startswith("["):
            closing = host.find("]")
            host, port = host[1:closing], host[closing + 2 :] if closing >= 0 else ""
        elif host.count(":") == 1:
            host, port = host.split(":")
        self.host = host
        default = 443 if self.scheme == "https" else 80
        self.port = int(port) if port.isdigit() else default


_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")


#: the same set as text, for the fast path of ``query_string``
_UNRESERVED_TEXT = "".join(map(chr, sorted(_UNRESERVED)))


def query_string(pairs: Sequence[tuple[str, str]]) -> str:
    """``urllib.parse.urlencode(pairs)`` (``quote_plus`` of keys and values)."""

    def quote(text: str) -> str:
        if not text.strip(_UNRESERVED_TEXT):
            return text  # every character unreserved (names, "true", "10s"): nothing to quote
        return "".join(
            chr(byte) if byte in _UNRESERVED else "+" if byte == 32 else f"%{byte:02X}"
            for byte in text.encode("utf-8")
        )

    return "&".join(f"{quote(key)}={quote(value)}" for key, value in pairs)


def _sni(name: str) -> str | bytes:
    """An ASCII name as bytes: ``ssl`` then skips the ``idna`` codec (1.5 ms to import)."""
    return name.encode("ascii") if name.isascii() else name


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


class CanceledWhileConnecting(OSError):
    """The request's own timeout (``--request-timeout``, ``http.Client.Timeout``) passed
    while the connection was being made: net/http's ``getConn`` gives up on the dial or
    the TLS handshake it waits for before their own timeouts pass."""


class ConnectionClosed(ConnectionError):
    """The server closed the connection before or while answering (Go: ``EOF``)."""


class MalformedResponse(OSError):
    """Not an HTTP/1.x answer."""


class Headers:
    """Response headers: case-insensitive, repeated names kept in order."""

    __slots__ = ("_first", "items")

    def __init__(self, items: list[tuple[str, str]]) -> None:
        self.items = items
        #: each name's first value by its lower-case spelling, made at the first ``get``
        #: (a response's headers are looked up five times or so: a scan of them each
        #: time, lower-casing every name, was 92 lower() calls a write)
        self._first: dict[str, str] | None = None

    def get(self, name: str, default: str = "") -> str:
        first = self._first
        if first is None:
            first = {}
            for key, value in self.items:
                first.setdefault(key.lower(), value)
            self._first = first
        return first.get(name.lower(), default)

    def get_all(self, name: str) -> list[str]:
        name = name.lower()
        return [value for key, value in self.items if key.lower() == name]


class Response:
    """One HTTP/1.1 response; the body is read whole (``read``) or by lines (``readline``)."""

    def __init__(self, connection: ServerConnection, method: str) -> None:
        self._connection = connection
        reader = connection.reader
        assert reader is not None
        self._reader = reader
        line = reader.readline(_MAX_LINE)
        if not line:
            raise ConnectionClosed("EOF")
        parts = line.decode("latin-1").rstrip("\r\n").split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise MalformedResponse("malformed HTTP response")
        self.version = parts[0]
        self.status = int(parts[1])
        self.reason = parts[2] if len(parts) > 2 else ""
        items: list[tuple[str, str]] = []
        while True:
            line = reader.readline(_MAX_LINE)
            if not line:
                raise ConnectionClosed("EOF")
            if line in (b"\r\n", b"\n"):
                break
            if len(items) >= _MAX_HEADERS or b":" not in line:
                raise MalformedResponse("malformed HTTP response")
            key, _, value = line.decode("latin-1").partition(":")
            items.append((key.strip(), value.strip()))
        self.headers = Headers(items)
        connection_header = self.headers.get("Connection").lower()
        self._close = "close" in connection_header or (
            self.version == "HTTP/1.0" and "keep-alive" not in connection_header
        )
        self._chunked = "chunked" in self.headers.get("Transfer-Encoding").lower()
        self._chunk_left = 0
        self._length: int | None = None
        length = self.headers.get("Content-Length")
        if (method in ("HEAD", "CONNECT") and self.status == 200) or self.status in (204, 304):
            self._length = 0
        elif not self._chunked and length.isdigit():
            self._length = int(length)
        elif not self._chunked:
            self._close = True  # read to the end of the connection
        self.done = self._length == 0

    def getheader(self, name: str, default: str = "") -> str:
        return self.headers.get(name, default)

    def _finish(self) -> None:
        self.done = True
        if self._close:
            self._connection.close()

    def read(self) -> bytes:
        """The whole (rest of the) body."""
        if self.done:
            return b""
        if self._chunked:
            parts = []
            while True:
                line = self.readline()
                if not line:
                    break
                parts.append(line)
            return b"".join(parts)
        if self._length is None:
            data = self._reader.read()
        else:
            data = self._reader.read(self._length)
            if len(data) < self._length:
                raise ConnectionClosed("unexpected EOF")
        self._finish()
        return data

    def readline(self) -> bytes:
        """The next line of the body (with its newline), ``b""`` at its end."""
        if self.done:
            return b""
        if not self._chunked:
            if self._length is None:
                line = self._reader.readline()
                if not line:
                    self._finish()
                return line
            line = self._reader.readline(self._length)
            self._length -= len(line)
            if self._length == 0:
                self._finish()
            elif not line:
                raise ConnectionClosed("unexpected EOF")
            return line
        parts: list[bytes] = []
        while True:
            if self._chunk_left == 0:
                size_line = self._reader.readline(_MAX_LINE)
                if not size_line:
                    raise ConnectionClosed("unexpected EOF")
                try:
                    self._chunk_left = int(size_line.split(b";", 1)[0].strip(), 16)
                except ValueError:
                    raise MalformedResponse("malformed chunked encoding") from None
                if self._chunk_left == 0:
                    while self._reader.readline(_MAX_LINE) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    self._finish()
                    return b"".join(parts)
            piece = self._reader.readline(self._chunk_left)
            if not piece:
                raise ConnectionClosed("unexpected EOF")
            self._chunk_left -= len(piece)
            if self._chunk_left == 0:
                self._reader.readline(_MAX_LINE)  # the CRLF after the chunk
            parts.append(piece)
            if piece.endswith(b"\n"):
                return b"".join(parts)


class ServerConnection:
    """A connection that dials, tunnels and wraps TLS as client-go, then carries
    requests one after the other.

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
        self.host = host
        self.port = port
        self.tls_context = tls_context
        self.server_name = server_name
        self.proxy = proxy
        self.proxy_authorization = proxy_authorization
        self.timeout = timeout
        self.sock: socket.socket | None = None
        self.reader: io.BufferedReader | None = None
        self.reused = False
        #: ``abort`` was called: a socket connected after it is shut down at once
        self.aborted = False
        self._response: Response | None = None

    def __repr__(self) -> str:
        return f"ServerConnection({self.host!r}, {self.port!r})"

    @property
    def host_header(self) -> str:
        default = 443 if self.tls_context is not None else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()
            self.reader = None
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self._response = None

    def abort(self) -> None:
        """Shut the socket down from any thread: a read blocked in another thread ends at
        once (end of stream). ``close`` is left to the thread that reads: closing a file
        descriptor another thread reads from is not safe. Called before the socket is
        there (dialling, in the TLS handshake), it is shut down as ``connect`` ends."""
        self.aborted = True
        sock = self.sock
        raw = getattr(sock, "outer", sock)  # a TLS session inside a proxy's
        if raw is None:
            return
        # socket.socket's own shutdown: SSLSocket.shutdown drops its TLS object, which a
        # read in progress in another thread still uses
        with contextlib.suppress(OSError):
            socket.socket.shutdown(raw, socket.SHUT_RDWR)

    def connect(self) -> None:
        try:
            self._connect()
        except (DialError, TLSHandshakeTimeout) as exc:
            if self._request_timeout_passed(exc):
                raise CanceledWhileConnecting(
                    "request canceled while waiting for connection"
                ) from None
            raise
        # an abort from another thread while this one dialled saw no socket to shut down
        # (``aborted`` is set before ``sock`` is read there, and read after it is set here)
        if self.aborted:
            self.abort()

    def _connect(self) -> None:
        dial_timeout = DIAL_TIMEOUT_SECONDS
        if self.timeout is not None:
            dial_timeout = min(dial_timeout, float(self.timeout))
        if self.proxy is not None:
            proxy_port = self.proxy.port or (443 if self.proxy.scheme == "https" else 80)
            sock = _dial(self.proxy.hostname or "", proxy_port, dial_timeout)
            if self.proxy.scheme == "https":
                # Go's Transport dials an https proxy with the same TLS configuration as
                # the server (the kubeconfig's CA or insecure flag, its client certificate)
                proxy_context = self.tls_context or ssl.create_default_context()
                sock = proxy_context.wrap_socket(
                    sock, server_hostname=_sni(self.proxy.hostname or "")
                )
            if self.tls_context is not None:
                self._tunnel_through(sock)
                if isinstance(sock, ssl.SSLSocket):
                    # an https proxy: the server's TLS session runs inside the proxy's
                    sock.settimeout(self.timeout)
                    self.sock = _TLSInTLS(sock, self.tls_context, self.server_name)  # type: ignore[assignment]
                    self.reader = self.sock.makefile("rb")  # type: ignore[union-attr]
                    self.reused = False
                    return
        else:
            sock = _dial(self.host, self.port, dial_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.tls_context is not None:
            handshake = TLS_HANDSHAKE_TIMEOUT_SECONDS
            if self.timeout is not None:
                handshake = min(handshake, float(self.timeout))
            sock.settimeout(handshake)
            try:
                sock = self.tls_context.wrap_socket(sock, server_hostname=_sni(self.server_name))
            except TimeoutError:
                sock.close()
                raise TLSHandshakeTimeout("TLS handshake timeout") from None
            except OSError:
                sock.close()
                raise
        sock.settimeout(self.timeout)
        self.sock = sock
        self.reader = sock.makefile("rb")  # type: ignore[assignment]
        self.reused = False

    def _request_timeout_passed(self, exc: OSError) -> bool:
        """Whether ``exc`` timed out on the connection's ``timeout`` (a request timeout
        shorter than the phase's own), not on the dial's or the handshake's."""
        if self.timeout is None:
            return False
        if isinstance(exc, TLSHandshakeTimeout):
            return float(self.timeout) < TLS_HANDSHAKE_TIMEOUT_SECONDS
        timed_out = isinstance(exc, DialError) and isinstance(exc.cause, TimeoutError)
        return timed_out and float(self.timeout) < DIAL_TIMEOUT_SECONDS

    def _tunnel_through(self, sock: socket.socket) -> None:
        target = f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"
        lines = [f"CONNECT {target} HTTP/1.1", f"Host: {target}"]
        if self.proxy_authorization:
            lines.append(f"Proxy-Authorization: {self.proxy_authorization}")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        del lines
        # Read the answer byte by byte: what follows it belongs to the TLS session.
        status_line = b""
        while not status_line.endswith(b"\r\n\r\n") and len(status_line) < _MAX_LINE:
            byte = sock.recv(1)
            if not byte:
                sock.close()
                raise ConnectionClosed("EOF")
            status_line += byte
        first = status_line.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
        if len(first) < 2 or first[1] != "200":
            sock.close()
            raise ProxyConnectError(first[2] if len(first) > 2 else "malformed HTTP response")

    def request(
        self, method: str, target: str, headers: Sequence[tuple[str, str]], body: bytes | None
    ) -> Response:
        """Send one request (dialling first if needed) and read the response head."""
        if self._response is not None and not self._response.done:
            self.close()  # an unread body: the connection cannot be reused
        if self.sock is None:
            self.connect()
        assert self.sock is not None
        lines = [f"{method} {target} HTTP/1.1", f"Host: {self.host_header}"]
        for name, value in headers:
            if "\r" in value or "\n" in value or "\r" in name or "\n" in name:
                raise ValueError(f"invalid header field value for {name!r}")
            lines.append(f"{name}: {value}")
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        del lines
        self.sock.sendall(head + body if body else head)
        del head
        response = Response(self, method)
        self._response = response
        if response.done and response._close:
            self.close()
        return response


class _TLSInTLS:
    """A TLS session carried inside another one (an https proxy's): ``ssl`` only wraps
    plain sockets, so this one runs on memory BIOs over the outer ``SSLSocket``."""

    def __init__(self, outer: ssl.SSLSocket, context: ssl.SSLContext, server_name: str) -> None:
        self.outer = outer
        self.incoming = ssl.MemoryBIO()
        self.outgoing = ssl.MemoryBIO()
        self.tls = context.wrap_bio(self.incoming, self.outgoing, server_hostname=_sni(server_name))
        try:
            self._run(self.tls.do_handshake)
        except TimeoutError:
            outer.close()
            raise TLSHandshakeTimeout("TLS handshake timeout") from None
        except OSError:
            outer.close()
            raise

    def _run(self, operation: Callable[..., _T], *args: object) -> _T:
        while True:
            try:
                result = operation(*args)
            except ssl.SSLWantReadError:
                self._flush()
                data = self.outer.recv(65536)
                if data:
                    self.incoming.write(data)
                else:
                    self.incoming.write_eof()
                continue
            self._flush()
            return result

    def _flush(self) -> None:
        data = self.outgoing.read()
        if data:
            self.outer.sendall(data)

    def sendall(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = self._run(self.tls.write, view)
            view = view[written:]

    def readinto(self, buffer: memoryview) -> int:
        if not len(buffer):
            return 0
        try:
            return int(self._run(self.tls.read, len(buffer), buffer))
        except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
            return 0

    def makefile(self, mode: str) -> io.BufferedReader:
        return io.BufferedReader(_TLSInTLSReader(self))

    def getpeercert(self, binary_form: bool = False) -> object:
        return self.tls.getpeercert(binary_form)

    def close(self) -> None:
        self.outer.close()


class _TLSInTLSReader(io.RawIOBase):
    def __init__(self, session: _TLSInTLS) -> None:
        super().__init__()
        self.session = session

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        return self.session.readinto(buffer)


def _dial(host: str, port: int, timeout: float) -> socket.socket:
    try:
        sock = socket.create_connection((host, port), timeout)
    except OSError as exc:
        raise DialError(host, port, exc) from exc
    set_keepalive(sock)
    return sock


def set_keepalive(sock: socket.socket) -> None:
    """TCP keep-alive as Go's dialer sets it (see ``KEEPALIVE_IDLE_SECONDS``); options a
    platform lacks are left at its defaults."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (
        ("TCP_KEEPIDLE", KEEPALIVE_IDLE_SECONDS),  # Linux
        ("TCP_KEEPALIVE", KEEPALIVE_IDLE_SECONDS),  # macOS
        ("TCP_KEEPINTVL", KEEPALIVE_INTERVAL_SECONDS),
        ("TCP_KEEPCNT", KEEPALIVE_PROBES),
    ):
        option = getattr(socket, name, None)
        if option is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, option, value)


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
    if isinstance(exc, CanceledWhileConnecting):
        # net/http's Client wraps the transport's errRequestCanceledConn once its
        # Timeout has passed
        return ClusterUnreachableError(
            "Unable to connect to the server: net/http: request canceled while waiting for "
            "connection (Client.Timeout exceeded while awaiting headers)"
        )
    if isinstance(exc, ProxyConnectError):
        return ClusterUnreachableError(f"Unable to connect to the server: {exc}")
    if isinstance(exc, ssl.SSLCertVerificationError):
        return ClusterUnreachableError(
            "Unable to connect to the server: tls: failed to verify certificate: "
            + _x509_text(exc, verify_name, hostname_mismatch_names)
        )
    if isinstance(exc, ssl.SSLEOFError):
        # the peer closed (or a proxy reset) the connection mid-handshake: Go's
        # crypto/tls answers io.EOF, which kubectl prints as is (not OpenSSL's
        # "EOF occurred in violation of protocol (_ssl.c:2427)")
        return ClusterUnreachableError("Unable to connect to the server: EOF")
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
    if isinstance(exc, ConnectionClosed):
        return ClusterUnreachableError(f"Unable to connect to the server: {exc}")
    if isinstance(exc, ConnectionResetError):
        return ClusterUnreachableError(
            "Unable to connect to the server: read: connection reset by peer"
        )
    if isinstance(exc, MalformedResponse):
        return ClusterUnreachableError(f"Unable to connect to the server: {exc}")
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
