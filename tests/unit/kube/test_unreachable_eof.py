"""A TLS connection closed mid-handshake is kubectl's "Unable to connect to the server:
EOF" (Go's crypto/tls gives io.EOF), not OpenSSL's text with a C source line in it.

Seen in the dev loop's WatchError lines when tests/integration/cutting_proxy.py reset
connections (issue 30): "tls: eof occurred in violation of protocol ( ssl.c:2427)", or
"tls: unexpected eof while reading" (by the OpenSSL build).
"""

from __future__ import annotations

import socket
import ssl
import threading

from kubectl_crd.kube.transport import unreachable_error


def _handshake_with_a_peer_that_closes() -> ssl.SSLError:
    """A real SSLEOFError: the server side reads the ClientHello, then closes without
    answering (closing with it unread would be a reset instead)."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve() -> None:
        connection, _ = listener.accept()
        connection.recv(65536)
        connection.close()

    threading.Thread(target=serve, daemon=True).start()
    context = ssl.create_default_context()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            context.wrap_socket(raw, server_hostname="127.0.0.1")
    except ssl.SSLError as exc:
        return exc
    finally:
        listener.close()
    raise AssertionError("the handshake did not fail")


def test_a_handshake_cut_short_is_eof() -> None:
    exc = _handshake_with_a_peer_that_closes()
    assert isinstance(exc, ssl.SSLEOFError)
    error = unreachable_error(exc, server_hostport="127.0.0.1:6443", verify_name="127.0.0.1")
    assert str(error) == "Unable to connect to the server: EOF"
