"""``KubeClient``: plain JSON requests to the API server, as kubectl makes them.

One client per command: it resolves the kubeconfig once (``kubeconfig.py``), keeps one
connection alive for all requests (``transport.py``), authenticates every request
(``credentials.py``) and turns failures into kubectl's one-line errors (the
``ClusterError`` tree of ``kubectl_crd.model.errors``).
It follows client-go's REST client (``k8s.io/client-go/rest/request.go``) where it
matters to a user:

- a body given as ``str`` or ``bytes`` is sent as it is; anything else is JSON-encoded
  once;
- a 401 makes an exec plugin or a token file fetch the credential again for the next
  request; the rejected request fails, as in kubectl (``exec.go`` ``maybeRefreshCreds``);
- 429 and 5xx answers with ``Retry-After`` are retried after that many seconds, at most
  ten times (``checkWait``, ``maxRetries``);
- ``Warning`` headers (code 299) go to ``on_warning``, by default printed as kubectl
  does: ``Warning: TEXT`` on stderr, each text once;
- one client may serve several threads: each thread keeps its own connection (as Go's
  transport hands one idle connection to one request at a time), and the kubeconfig,
  the credential and the TLS context are built and refreshed under one lock; a rotated
  client certificate makes each thread dial again at its next request, never closes a
  connection another thread is reading;
- every socket has Go's TCP keep-alive (``transport.py``); a watch may be given a read
  deadline (``read_timeout``) and be ended from another thread (``WatchStream.close``);
- ``idle_timeout`` (the dev loop's; one-shot commands leave it unset, as kubectl sets no
  deadline without ``--request-timeout``) bounds each read of the other requests when
  ``--request-timeout`` is not given: no byte for that long and the peer is taken for
  dead, where client-go would notice it from its HTTP/2 pings. A long list still sends
  bytes, so it is not cut; no ``?timeout=`` is sent for it;
- an error status becomes ``Error from server (Reason): message`` from the server's
  ``Status``, or client-go's generic text for the HTTP code (``NewGenericServerResponse``
  in ``k8s.io/apimachinery/pkg/api/errors/errors.go``).

No secret ever reaches an exception, a log or a ``repr``: messages are built from
hosts, paths and files; exceptions chained as causes are scrubbed of every secret the
credential holds before they leave.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import threading
import time

from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.durations import go_duration_text
from kubectl_crd.model.errors import (
    ApiError,
    ClusterError,
    ClusterUnreachableError,
    CredentialError,
    InvalidObjectError,
    KubeconfigError,
    ResourceExpiredError,
    UnauthorizedError,
    invalid_object_head,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ssl
    from collections.abc import Callable, Iterator, Mapping
    from typing import Any

    from kubectl_crd.kube.credentials import Credentials
    from kubectl_crd.kube.kubeconfig import Connection
    from kubectl_crd.kube.transport import Headers, Response, ServerConnection

__all__ = [
    "APPLY_PATCH",
    "CRD_LIST_PATH",
    "JSON_PATCH",
    "MERGE_PATCH",
    "STRATEGIC_MERGE_PATCH",
    "TABLE_ACCEPT",
    "KubeClient",
    "KubeconfigError",
    "WatchEvent",
    "WatchStream",
    "status_error",
]

CRD_LIST_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
TABLE_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"
APPLY_PATCH = "application/apply-patch+yaml"
MERGE_PATCH = "application/merge-patch+json"
JSON_PATCH = "application/json-patch+json"
STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json"

#: rest/request.go maxRetries for Retry-After answers
MAX_RETRIES = 10
_REDACTED = "[redacted]"


class WatchEvent:
    """One line of a watch stream: ``type`` (ADDED, MODIFIED, DELETED, BOOKMARK) and
    ``object``; ``resource_version`` is the object's ``metadata.resourceVersion``."""

    __slots__ = ("object", "type")

    def __init__(self, type: str, object: dict[str, Any]) -> None:
        self.type = type
        self.object = object

    @property
    def resource_version(self) -> str:
        metadata = self.object.get("metadata") or {}
        return str(metadata.get("resourceVersion") or "")

    def __repr__(self) -> str:
        return f"WatchEvent({self.type!r}, resourceVersion={self.resource_version!r})"


class WatchStream:
    """The events of one watch request, an iterator of ``WatchEvent``.

    ``close()`` may be called from any thread: it shuts the socket down, so a read
    blocked in the consuming thread returns and the iteration ends (no error).
    ``expired``: the whole request's ``timeout`` passed and closed it.
    """

    def __init__(
        self,
        client: KubeClient,
        path: str,
        params: Mapping[str, object],
        accept: str,
        read_timeout: float | None,
        timeout: float | None = None,
    ) -> None:
        self.closed = False
        self.expired = False
        self.connection: ServerConnection | None = None
        self._events = client._watch_events(self, path, params, accept, read_timeout, timeout)

    def __iter__(self) -> WatchStream:
        return self

    def __next__(self) -> WatchEvent:
        return next(self._events)

    def close(self) -> None:
        self.closed = True
        connection = self.connection
        if connection is not None:
            connection.abort()

    def _expire(self) -> None:
        self.expired = True
        self.close()


def _print_warning(text: str) -> None:
    print(f"Warning: {text}", file=sys.stderr)


class KubeClient:
    """A client for the cluster of ``config`` (kubectl's global flags).

    ``environ`` replaces ``os.environ`` for reading ``KUBECONFIG``, ``HOME``, the proxy
    variables, in-cluster settings and the exec plugins' environment (tests use it).
    """

    def __init__(
        self,
        config: ClusterConfig | None = None,
        *,
        environ: Mapping[str, str] | None = None,
        on_warning: Callable[[str], None] | None = None,
        stdin_is_terminal: bool | None = None,
        idle_timeout: float | None = None,
    ) -> None:
        self.config = config or ClusterConfig()
        #: each read of a non-watch request without --request-timeout (module docstring)
        self.idle_timeout = idle_timeout
        self._environ = environ
        self._on_warning = on_warning or _print_warning
        self._stdin_is_terminal = stdin_is_terminal
        self.warnings: list[str] = []
        self._connection: Connection | None = None
        self._credentials: Credentials | None = None
        #: one kept-alive connection per thread, and every connection made (for close)
        self._local = threading.local()
        self._opened: list[ServerConnection] = []
        #: guards the lazily built configuration, credential, TLS context and warnings
        self._lock = threading.RLock()
        self._tls_context: ssl.SSLContext | None = None
        self._client_certificate: tuple[bytes, bytes] | None = None
        self._extra_headers: list[tuple[str, str]] = []
        #: (server URL, its path without the trailing "/"): the prefix of every target
        self._base_path: tuple[str | None, str] = (None, "")

    def __repr__(self) -> str:
        server = self._connection.server if self._connection else "?"
        return f"KubeClient(server={server!r}, context={self.context_name!r})"

    def __enter__(self) -> KubeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- configuration -----------------------------------------------------------------

    @property
    def environ(self) -> Mapping[str, str]:
        return os.environ if self._environ is None else self._environ

    @property
    def connection(self) -> Connection:
        """The resolved kubeconfig (server, TLS, credentials); read on first use."""
        if self._connection is None:
            from kubectl_crd.kube.kubeconfig import resolve_connection

            with self._lock:
                if self._connection is None:
                    self._connection = resolve_connection(self.config, self.environ)
        return self._connection

    @property
    def namespace(self) -> str:
        """``-n`` when given, else the context's namespace, else ``default`` (as kubectl)."""
        return self.connection.namespace

    @property
    def server(self) -> str:
        return self.connection.server

    @property
    def context_name(self) -> str:
        if self._connection is not None:
            return self._connection.context_name
        return self.config.context or ""

    @property
    def credentials(self) -> Credentials:
        if self._credentials is None:
            from kubectl_crd.kube.credentials import credentials_for, impersonation_headers

            with self._lock:
                if self._credentials is None:
                    connection = self.connection
                    self._extra_headers = impersonation_headers(connection)
                    self._credentials = credentials_for(
                        connection,
                        environ=self._environ,
                        stdin_is_terminal=self._stdin_is_terminal,
                    )
        return self._credentials

    # -- requests ----------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, object] | None = None,
        body: Any = None,
        content_type: str = "application/json",
        accept: str = "application/json",
    ) -> Any:
        """One API call; returns the decoded JSON body (text if it is not JSON)."""
        status, headers, data = self._exchange(
            method, path, query=query, body=body, content_type=content_type, accept=accept
        )
        decoded = _decode(data, headers.get("Content-Type", ""))
        if status >= 400:
            raise status_error(status, decoded, method, path)
        return decoded

    def get(self, path: str, *, query: Mapping[str, object] | None = None) -> Any:
        return self.request("GET", path, query=query)

    def watch(
        self,
        path: str,
        *,
        query: Mapping[str, object] | None = None,
        accept: str = "application/json",
        read_timeout: float | None = None,
        timeout: float | None = None,
    ) -> WatchStream:
        """A watch as a stream of events, read line by line on its own connection.

        ``query`` adds to ``watch=true`` (``resourceVersion``, ``allowWatchBookmarks``,
        ``timeoutSeconds``, selectors). BOOKMARK events are passed on. A 410 Gone, as
        the answer or as an ERROR event, raises ``ResourceExpiredError``.
        ``read_timeout`` bounds each read (kubectl sets none): a connection silent that
        long is taken for dead and the stream fails with ``ClusterUnreachableError``.
        ``timeout`` bounds the whole request, as ``http.Client.Timeout`` (kubectl's
        ``--request-timeout``, ``rest.Config.Timeout``) bounds every request of
        client-go's, a watch included, and is sent as ``?timeout=`` as
        ``rest/request.go`` ``URL()`` sends it (the server ignores it on a watch,
        ``handlers/get.go``): when it passes the stream just ends, no error, as
        ``watch/streamwatcher.go`` takes the body cut by a timeout for the watch's end
        (so ``kubectl get -w --request-timeout=1s`` stops after 1 s and exits 0); if
        it passes before the answer's headers, the request fails with net/http's
        timeout. The request is sent (and ``timeout`` starts) at the first ``next()``.
        """
        params = {"watch": "true", **(query or {})}
        return WatchStream(self, path, params, accept, read_timeout, timeout)

    def close(self) -> None:
        """Close every connection this client made, in every thread (a thread's next
        request dials again)."""
        with self._lock:
            opened, self._opened = self._opened, []
        for connection in opened:
            connection.close()
        self._local = threading.local()

    # -- internals ---------------------------------------------------------------------

    def _watch_events(
        self,
        stream: WatchStream,
        path: str,
        params: Mapping[str, object],
        accept: str,
        read_timeout: float | None,
        timeout: float | None,
    ) -> Iterator[WatchEvent]:
        if stream.closed:
            return
        timer = None
        if timeout:
            params = {**params, "timeout": go_duration_text(round(timeout * 1e9))}
            # net/http's client.go arms its Timeout the same way (time.AfterFunc):
            # the request is cancelled wherever it stands when it fires
            timer = threading.Timer(timeout, stream._expire)
            timer.daemon = True
            timer.start()
        bounds = [bound for bound in (read_timeout, timeout) if bound]
        connection = self._new_connection(timeout=min(bounds) if bounds else None)
        stream.connection = connection
        if stream.closed:  # close() ran before the line above: it saw no connection to abort
            stream.connection = None
            if stream.expired:
                raise self._unreachable(TimeoutError())
            return
        answered = False
        try:
            response = self._send_on(
                connection, "GET", self._target(path, params), None, "", accept
            )
            answered = True
            if response.status >= 400:
                data = response.read()
                raise status_error(
                    response.status,
                    _decode(data, response.getheader("Content-Type", "")),
                    "GET",
                    path,
                )
            while True:
                try:
                    line = response.readline()
                except OSError as exc:
                    if stream.closed:
                        return
                    raise self._unreachable(exc) from exc
                if not line:
                    return
                if not line.strip():
                    continue
                try:
                    event = json.loads(line)
                except ValueError:
                    raise ClusterUnreachableError(
                        "Unable to connect to the server: a watch event that is not JSON"
                    ) from None
                except RecursionError:
                    raise ClusterUnreachableError(TOO_DEEP) from None
                if not isinstance(event, dict):
                    continue
                kind = str(event.get("type") or "")
                obj = event.get("object") or {}
                if kind == "ERROR":
                    raise status_error(int(obj.get("code") or 500), obj, "GET", path)
                yield WatchEvent(kind, obj)
        except ClusterError:
            if stream.expired and not answered:
                raise self._unreachable(TimeoutError()) from None
            if stream.closed:
                return  # closed from another thread: the stream just ends
            raise
        finally:
            if timer is not None:
                timer.cancel()
            stream.connection = None
            connection.close()

    def _target(self, path: str, query: Mapping[str, object] | None) -> str:
        from kubectl_crd.kube.transport import ServerURL, query_string

        server = self.connection.server
        if self._base_path[0] != server:
            # parsed once per server URL, not once per request
            self._base_path = (server, ServerURL(server).path.rstrip("/"))
        target = self._base_path[1] + path
        if query:
            pairs: list[tuple[str, str]] = []
            for key, value in query.items():
                if value is None:
                    continue
                if isinstance(value, bool):
                    value = "true" if value else "false"
                if isinstance(value, list | tuple):
                    pairs.extend((key, str(item)) for item in value)
                else:
                    pairs.append((key, str(value)))
            if pairs:
                target += "?" + query_string(pairs)
        return target

    def _exchange(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, object] | None,
        body: Any,
        content_type: str,
        accept: str,
    ) -> tuple[int, Headers, bytes]:
        payload: bytes | None
        if body is None:
            payload = None
        elif isinstance(body, bytes):
            payload = body
        elif isinstance(body, str):
            payload = body.encode("utf-8")
        else:
            payload = encode_body(body)
        params = dict(query or {})
        timeout = self.config.timeout_seconds
        if timeout and "timeout" not in params and not params.get("watch"):
            params["timeout"] = go_duration_text(
                round(timeout * 1e9)
            )  # rest/request.go sets ?timeout=
        target = self._target(path, params)
        retries = 0
        while True:
            response = self._send(method, target, payload, content_type, accept)
            try:
                data = response.read()
            except OSError as exc:
                response_connection = getattr(self._local, "http", None)
                if response_connection is not None:
                    response_connection.close()
                raise self._unreachable(exc) from exc
            self._warnings(response.headers)
            status = response.status
            if status == 401:
                # exec.go / token_source.go: fetch the credential again for the next
                # request; the rejected one is not sent again (kubectl fails it too).
                with self._lock:
                    self.credentials.refresh_after_unauthorized()
            wait = _retry_after(status, response.getheader("Retry-After"))
            if wait is not None and retries < MAX_RETRIES:
                retries += 1
                time.sleep(wait)
                continue
            return status, response.headers, data

    def _send(
        self, method: str, target: str, payload: bytes | None, content_type: str, accept: str
    ) -> Response:
        connection: ServerConnection | None = getattr(self._local, "http", None)
        if connection is None:
            timeout = self.config.timeout_seconds or self.idle_timeout
            connection = self._new_connection(timeout=timeout)
            self._local.http = connection
            with self._lock:
                self._opened.append(connection)
        try:
            response = self._send_on(connection, method, target, payload, content_type, accept)
        except ConnectionError:
            # only a reused connection lets this through (see _send_on)
            # The server closed an idle keep-alive connection: dial again, once.
            connection.close()
            connection.reused = False
            response = self._send_on(connection, method, target, payload, content_type, accept)
        connection.reused = True
        return response

    def _send_on(
        self,
        connection: ServerConnection,
        method: str,
        target: str,
        payload: bytes | None,
        content_type: str,
        accept: str,
    ) -> Response:
        credentials = self.credentials
        try:
            with self._lock:
                authorization = credentials.authorization()
                if connection.tls_context is not None:
                    if connection.sock is None:
                        self._refresh_tls_if_needed()
                    if connection.tls_context is not self._tls_context:
                        # a rotated certificate needs a new handshake: this thread's
                        # connection only, the others notice at their next request
                        connection.close()
                        connection.tls_context = self._tls_context
        except ClusterError as exc:
            _scrub(exc, credentials.secrets())
            raise
        headers = [("Accept", accept), ("User-Agent", _user_agent())]
        if authorization:
            if not authorization.isprintable() or not authorization.isascii():
                raise CredentialError(
                    "Unable to connect to the server: net/http: invalid header field value "
                    'for "Authorization"'
                ) from None
            headers.append(("Authorization", authorization))
        headers.extend(self._extra_headers)
        if payload is not None:
            headers.append(("Content-Type", content_type))
        if connection.proxy is not None and connection.tls_context is None:
            # a plain http server through an http proxy: absolute-form request line
            target = (
                self.connection.server.rstrip("/").split("://", 1)[0]
                + "://"
                + (_hostport(connection.host, connection.port) + target)
            )
            if connection.proxy_authorization:
                headers.append(("Proxy-Authorization", connection.proxy_authorization))
        try:
            response = connection.request(method, target, headers, payload)
            del headers, authorization
            return response
        except ConnectionError as exc:
            connection.close()
            if connection.reused:
                raise  # the server closed an idle connection: _send dials again once
            error = self._unreachable(exc)
            _scrub(exc, credentials.secrets())
            raise error from exc
        except (OSError, ValueError) as exc:
            connection.close()
            error = self._unreachable(exc)
            _scrub(exc, credentials.secrets())
            raise error from exc

    def _unreachable(self, exc: BaseException) -> ClusterError:
        from kubectl_crd.kube.transport import unreachable_error

        if isinstance(exc, ClusterError):
            return exc
        from kubectl_crd.kube.transport import ServerURL

        server = ServerURL(self.connection.server)
        verify_name = self.connection.tls_server_name or server.host
        names = None
        import ssl

        if isinstance(exc, ssl.SSLCertVerificationError) and getattr(exc, "verify_code", 0) in (
            62,
            64,
        ):
            names = self._presented_names()
        return unreachable_error(
            exc,
            server_hostport=server.hostport,
            verify_name=verify_name,
            hostname_mismatch_names=names,
        )

    def _presented_names(self) -> tuple[list[str], list[str]] | None:
        """The names in the server's certificate, read over a second, unverified
        handshake, for Go's hostname-mismatch message."""
        import ssl

        from kubectl_crd.kube.tls import certificate_names

        insecure = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        insecure.check_hostname = False
        insecure.verify_mode = ssl.CERT_NONE
        probe = self._new_connection(timeout=5.0)
        probe.tls_context = insecure
        try:
            probe.connect()
            sock = probe.sock
            getpeercert = getattr(sock, "getpeercert", None)
            der = getpeercert(binary_form=True) if getpeercert is not None else None
        except OSError:
            return None
        finally:
            probe.close()
        if not der:
            return None
        dns, ips, _ = certificate_names(der)
        return dns, ips

    def _new_connection(self, *, timeout: float | None) -> ServerConnection:
        from kubectl_crd.kube.proxy import proxy_for
        from kubectl_crd.kube.transport import ServerConnection, ServerURL

        connection = self.connection
        server = ServerURL(connection.server)
        if server.scheme not in ("http", "https") or not server.host:
            raise KubeconfigError(
                f'invalid configuration: server "{connection.server}" is not an http(s) URL',
                in_configuration=True,
            )
        tls = server.scheme == "https"
        if tls:
            with self._lock:
                self._refresh_tls_if_needed()
        proxy = proxy_for(connection.server, connection.proxy_url, self.environ)
        proxy_authorization = ""
        if proxy is not None and proxy.username is not None:
            import base64
            from urllib.parse import unquote

            pair = f"{unquote(proxy.username)}:{unquote(proxy.password or '')}"
            proxy_authorization = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
        return ServerConnection(
            server.host,
            server.port,
            tls_context=self._tls_context if tls else None,
            server_name=connection.tls_server_name or server.host,
            proxy=proxy,
            proxy_authorization=proxy_authorization,
            timeout=timeout if timeout else None,
        )

    def _refresh_tls_if_needed(self) -> None:
        """Build the SSL context, again when an exec plugin hands out a new certificate."""
        from kubectl_crd.kube.transport import ServerURL

        if ServerURL(self.connection.server).scheme != "https":
            return
        plugin_certificate = self.credentials.client_certificate()
        if self._tls_context is not None and plugin_certificate == self._client_certificate:
            return
        from kubectl_crd.kube.tls import load_client_certificate, server_context

        connection = self.connection
        context = server_context(connection)
        if plugin_certificate is not None and not (
            connection.client_certificate or connection.client_certificate_data
        ):
            cert, key = plugin_certificate
            load_client_certificate(context, cert_pem=cert, key_pem=key)
        elif connection.client_certificate_data or connection.client_certificate:
            if not (connection.client_key_data or connection.client_key):
                raise KubeconfigError(
                    "client-key-data or client-key must be specified for "
                    f"{connection.user_name} to use the clientCert authentication method."
                )
            load_client_certificate(
                context,
                cert_file=connection.client_certificate,
                key_file=connection.client_key,
                cert_pem=connection.client_certificate_data,
                key_pem=connection.client_key_data,
            )
        # connections made with the old context dial again at their next request
        # (_send_on compares contexts)
        self._tls_context = context
        self._client_certificate = plugin_certificate

    def _warnings(self, headers: Headers) -> None:
        for value in headers.get_all("Warning") or ():
            for text in _warning_texts(value):
                with self._lock:
                    if text in self.warnings:
                        continue
                    self.warnings.append(text)
                self._on_warning(text)


def _hostport(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@functools.cache
def _user_agent() -> str:
    # built once: it is sent with every request and never changes in a process
    from kubectl_crd import __version__

    return f"kubectl-crd/{__version__} ({sys.platform})"


def _retry_after(status: int, header: str | None) -> float | None:
    """rest/request.go ``checkWait``: 429 and 5xx with an integer Retry-After."""
    if header is None or (status != 429 and status < 500):
        return None
    try:
        seconds = int(header.strip())
    except ValueError:
        return None
    return float(max(seconds, 0))


#: what a JSON text may hold raw but go-yaml's reader does not keep as it is: DEL and the
#: C1 controls (refused: ``control characters are not allowed``), NEL, U+2028 and U+2029
#: (YAML 1.1 line breaks: folded into a space inside a quoted scalar), U+FEFF (a byte
#: order mark), U+FFFE, U+FFFF; and lone surrogates. Escaped, each is read as itself
_NOT_YAML_PRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def encode_body(body: Any) -> bytes:
    """A request body as JSON that the server's YAML reader takes too: a server-side
    apply's body is read as YAML (``application/apply-patch+yaml``: sigs.k8s.io/yaml over
    go-yaml), which refuses the surrogate-pair escapes ``json.dumps`` writes for a
    character beyond U+FFFF (``found invalid Unicode character escape code``: an emoji in
    a ConfigMap). So non-ASCII goes as UTF-8, as Go's encoding/json writes it, and only
    what YAML may not hold raw is escaped (control characters already are)."""
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    text = _NOT_YAML_PRINTABLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    return text.encode("utf-8")


def _warning_texts(value: str) -> list[str]:
    """The texts of a ``Warning`` header with code 299 (``net/http.ParseWarningHeaders``
    in apimachinery: ``299 - "text"``, comma-separated, quoted-string escapes)."""
    texts: list[str] = []
    rest = value.strip()
    while rest:
        parts = rest.split(" ", 2)
        if len(parts) < 3 or not parts[2].startswith('"'):
            break
        code, text_and_more = parts[0], parts[2]
        index, text = 1, []
        while index < len(text_and_more) and text_and_more[index] != '"':
            if text_and_more[index] == "\\" and index + 1 < len(text_and_more):
                index += 1
            text.append(text_and_more[index])
            index += 1
        if code == "299":
            texts.append("".join(text))
        rest = text_and_more[index + 1 :]
        comma = rest.find(",")
        if comma < 0:
            break
        rest = rest[comma + 1 :].strip()
    return texts


#: what a peer is told when its answer nests deeper than Python's JSON reader goes
#: (about 1,000 levels: the interpreter's recursion limit; Go's encoding/json stops at
#: 10,000). No API object nests so deep; the answer is refused, not the process crashed.
TOO_DEEP = "Unable to connect to the server: an answer nested too deeply to read"


def _decode(data: bytes, content_type: str) -> Any:
    if not data:
        return None
    if "json" in content_type or data[:1] in (b"{", b"["):
        try:
            return json.loads(data)
        except ValueError:
            pass
        except RecursionError:
            raise ClusterUnreachableError(TOO_DEEP) from None
    return data.decode("utf-8", "replace")


#: client-go's texts for an error answer without a Status (errors.go NewGenericServerResponse)
_GENERIC = {
    400: ("BadRequest", "the server rejected our request for an unknown reason"),
    401: ("Unauthorized", "the server has asked for the client to provide credentials"),
    404: ("NotFound", "the server could not find the requested resource"),
    405: ("MethodNotAllowed", "the server does not allow this method on the requested resource"),
    409: ("Conflict", "the server reported a conflict"),
    422: ("Invalid", "the server rejected our request due to an error in our request"),
    429: (
        "TooManyRequests",
        "the server has received too many requests and has asked us to try again later",
    ),
    503: ("ServiceUnavailable", "the server is currently unable to handle the request"),
    504: (
        "Timeout",
        "the server was unable to return a response in the time allotted, but may still be "
        "processing the request",
    ),
}


def _qualified_resource(path: str) -> tuple[str, str]:
    """``resource.group`` and name of an API path, as client-go's request builder knows
    them (``/apis/G/V[/namespaces/NS]/R[/NAME[/SUB]]``, ``/api/v1/...``)."""
    parts = [part for part in path.split("?", 1)[0].split("/") if part]
    if parts[:1] == ["api"] and len(parts) >= 2:
        group, rest = "", parts[2:]
    elif parts[:1] == ["apis"] and len(parts) >= 3:
        group, rest = parts[1], parts[3:]
    else:
        return "", ""
    if len(rest) >= 2 and rest[0] == "namespaces" and len(rest) != 2:
        rest = rest[2:]
    if not rest:
        return "", ""
    resource = f"{rest[0]}.{group}" if group else rest[0]
    return resource, rest[1] if len(rest) > 1 else ""


def status_error(status: int, body: Any, method: str, path: str = "") -> ApiError:
    """kubectl's line for an error answer (``StandardErrorMessage``); public so that the
    in-process store words its refusals as the cluster client does."""
    if isinstance(body, dict) and body.get("kind") == "Status":
        reason = str(body.get("reason") or "")
        message = str(body.get("message") or "")
        status_object = body
    else:
        server_message = body.strip() if isinstance(body, str) else ""
        reason, message = _GENERIC.get(status, ("", ""))
        if status == 409 and method == "POST":
            reason = "AlreadyExists"
        if status in (403, 415) or (status == 406 and server_message):
            reason = {403: "Forbidden", 406: "NotAcceptable", 415: "UnsupportedMediaType"}[status]
            message = server_message
        elif status == 406:
            reason = "NotAcceptable"
            message = (
                "the server was unable to respond with a content type that the client supports"
            )
        elif not message:
            if status >= 500:
                reason = "InternalError"
                message = (
                    f'an error on the server ("{server_message}") has prevented the request '
                    "from succeeding"
                )
            else:
                message = (
                    f"the server responded with the status code {status} but did not return "
                    "more information"
                )
        resource, name = _qualified_resource(path)
        if resource:  # NewGenericServerResponse names what was asked for
            detail = (
                f"{method.lower()} {resource} {name}" if name else f"{method.lower()} {resource}"
            )
            message = f"{message} ({detail})"
        status_object = {"kind": "Status", "code": status, "reason": reason, "message": message}
    if reason == "Unauthorized" or status == 401:
        return UnauthorizedError(
            f"You must be logged in to the server ({message})",
            status=status,
            reason=reason or "Unauthorized",
            status_object=status_object,
        )
    if reason == "Invalid" and isinstance(status_object.get("details"), dict):
        return _invalid(status, status_object)
    line = f"Error from server ({reason}): {message}" if reason else f"Error from server: {message}"
    kind = ResourceExpiredError if status == 410 or reason in ("Expired", "Gone") else ApiError
    return kind(line, status=status, reason=reason, status_object=status_object)


def _invalid(status: int, status_object: dict[str, Any]) -> InvalidObjectError:
    """A 422 Invalid in kubectl's words (``checkErr`` and ``MultilineError`` in
    ``k8s.io/kubectl/pkg/cmd/util/helpers.go``): no ``Error from server`` prefix, the
    causes after the object's name, one ``* cause`` line each when there are several."""
    details: dict[str, Any] = status_object["details"]
    head = invalid_object_head(str(details.get("kind") or ""), str(details.get("name") or ""))
    causes = [
        f"{c.get('field', '')}: {c.get('message', '')}"
        for c in details.get("causes") or ()
        if isinstance(c, dict)
    ]
    if len(causes) == 1:
        line = f"{head}: {causes[0]}"
    elif causes:
        line = f"{head}: \n" + "\n".join(f"* {cause}" for cause in causes)
    else:
        line = head
    return InvalidObjectError(line, status=status, reason="Invalid", status_object=status_object)


def _scrub(exc: BaseException, secrets: tuple[str, ...]) -> None:
    """Replace every secret in the arguments of ``exc`` and of its causes and contexts."""
    secrets = tuple(s for s in secrets if s)
    if not secrets:
        return
    seen: set[int] = set()
    current: BaseException | None = exc
    stack = [exc]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        args = []
        for arg in current.args:
            if isinstance(arg, str | bytes):
                for secret in secrets:
                    if isinstance(arg, bytes):
                        arg = arg.replace(secret.encode(), _REDACTED.encode())
                    else:
                        arg = arg.replace(secret, _REDACTED)
            args.append(arg)
        current.args = tuple(args)
        if isinstance(current, ClusterError):
            message = current.message
            for secret in secrets:
                message = message.replace(secret, _REDACTED)
            current.message = message
        for linked in (current.__cause__, current.__context__):
            if linked is not None:
                stack.append(linked)
