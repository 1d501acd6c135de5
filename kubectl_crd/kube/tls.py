"""The TLS side of a connection: server verification and the client certificate.

Mirrors ``k8s.io/client-go/transport/transport.go`` (``TLSConfigFor``):
``certificate-authority-data`` wins over ``certificate-authority``, and either replaces
the system roots; ``insecure-skip-tls-verify`` turns verification off (and, unlike
urllib3, prints nothing); giving both is refused; ``tls-server-name`` is the name sent
in SNI and the name the certificate must hold. Client certificate data wins over files.

Key material never touches the disk: ``ssl`` only loads a chain from a path, so the
PEM goes into an anonymous in-memory file (``os.memfd_create``) read through
``/proc/self/fd/N`` and closed at once. Where there is no memfd (macOS, BSDs), it goes
into a private temporary file (mode 0600) that is removed right after loading; that
fallback is the only moment a key is on disk.
"""

from __future__ import annotations

import os
import ssl

from kubectl_crd.model.errors import KubeconfigError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kubectl_crd.kube.kubeconfig import Connection


def server_context(connection: Connection) -> ssl.SSLContext:
    """An SSL context verifying the server as client-go would (no client certificate)."""
    has_ca = bool(connection.certificate_authority_data or connection.certificate_authority)
    if connection.insecure_skip_tls_verify and has_ca:
        # transport.go TLSConfigFor
        raise KubeconfigError(
            "specifying a root certificates file with the insecure flag is not allowed"
        )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2  # Go's default client minimum
    if connection.insecure_skip_tls_verify:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    elif connection.certificate_authority_data:
        try:
            context.load_verify_locations(
                cadata=connection.certificate_authority_data.decode("ascii", "replace")
            )
        except (ssl.SSLError, ValueError) as exc:
            raise KubeconfigError(
                "unable to load root certificates: unable to parse bytes as PEM block"
            ) from exc
    elif connection.certificate_authority:
        try:
            context.load_verify_locations(cafile=connection.certificate_authority)
        except FileNotFoundError as exc:
            raise KubeconfigError(
                f"unable to read certificate-authority {connection.certificate_authority} for "
                f"{connection.cluster_name} due to open {connection.certificate_authority}: "
                "no such file or directory"
            ) from exc
        except (ssl.SSLError, OSError) as exc:
            raise KubeconfigError(
                f"unable to load root certificates: {connection.certificate_authority}"
            ) from exc
    else:
        context.load_default_certs()
    return context


def load_client_certificate(
    context: ssl.SSLContext,
    *,
    cert_file: str = "",
    key_file: str = "",
    cert_pem: bytes = b"",
    key_pem: bytes = b"",
) -> None:
    """Present this certificate and key; data wins over files (``dataFromSliceOrFile``)."""
    try:
        if not cert_pem and not key_pem:
            context.load_cert_chain(cert_file, key_file or None)
            return
        if not cert_pem:
            cert_pem = _read(cert_file)
        if not key_pem:
            key_pem = _read(key_file)
        _load_pem_pair(context, cert_pem, key_pem)
    except ssl.SSLError as exc:
        # Go's tls.X509KeyPair texts, as close as OpenSSL's reasons allow
        if "KEY_VALUES_MISMATCH" in str(exc):
            message = "tls: private key does not match public key"
        else:
            message = "tls: failed to load the client certificate and key"
        raise KubeconfigError(message) from None
    except OSError as exc:
        raise KubeconfigError(f"open {exc.filename}: {(exc.strerror or '').lower()}") from None


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _load_pem_pair(context: ssl.SSLContext, cert_pem: bytes, key_pem: bytes) -> None:
    pem = cert_pem.rstrip(b"\n") + b"\n" + key_pem
    memfd_create = getattr(os, "memfd_create", None)
    if memfd_create is not None and os.path.isdir("/proc/self/fd"):
        fd = memfd_create("kubectl-crd-client-certificate", os.MFD_CLOEXEC)
        try:
            os.write(fd, pem)
            context.load_cert_chain(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)
        return
    import tempfile

    with tempfile.TemporaryDirectory(prefix="kubectl-crd-") as directory:
        path = os.path.join(directory, "client.pem")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, pem)
        finally:
            os.close(fd)
        try:
            context.load_cert_chain(path)
        finally:
            os.unlink(path)


def certificate_names(der: bytes) -> tuple[list[str], list[str], str]:
    """The DNS names, IP addresses and common name of a DER certificate, for Go's
    ``x509: certificate is valid for ..., not HOST`` message. Uses the ``ssl`` module's
    own decoder (a certificate is public: an in-memory file is enough)."""
    pem = ssl.DER_cert_to_PEM_cert(der).encode("ascii")
    decode = getattr(ssl._ssl, "_test_decode_cert", None)  # type: ignore[attr-defined]
    memfd_create = getattr(os, "memfd_create", None)
    if decode is None or memfd_create is None:
        return [], [], ""
    fd = memfd_create("kubectl-crd-server-certificate", os.MFD_CLOEXEC)
    try:
        os.write(fd, pem)
        decoded = decode(f"/proc/self/fd/{fd}")
    except (OSError, ssl.SSLError):
        return [], [], ""
    finally:
        os.close(fd)
    dns = [value for kind, value in decoded.get("subjectAltName", ()) if kind == "DNS"]
    ips = [
        value.rstrip("\n")
        for kind, value in decoded.get("subjectAltName", ())
        if kind == "IP Address"
    ]
    common_name = ""
    for rdn in decoded.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                common_name = value
    return dns, ips, common_name
