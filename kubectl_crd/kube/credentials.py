"""Who the requests are made as: bearer token, token file, basic auth, exec plugin,
auth-provider; and the impersonation headers.

Mirrors client-go:

- ``transport/round_trippers.go`` (``HTTPWrappersForConfig``): a token or token file
  first, else basic auth; an exec plugin only when neither is set
  (``exec.go UpdateTransportConfig``); impersonation headers ``Impersonate-User``,
  ``Impersonate-Uid``, ``Impersonate-Group`` (one per group) and
  ``Impersonate-Extra-KEY`` (the key percent-encoded).
- ``transport/token_source.go`` (``NewCachedFileTokenSource``): a token file is read
  again when it changes (client-go: after a minute) and after a 401; an unreadable
  file keeps the last token.
- ``plugin/pkg/client/auth/exec/exec.go``: see ``ExecPlugin``.
- auth-provider: kubectl 1.26+ only keeps ``oidc`` (gcp and azure print a removal
  notice, kept word for word); ``oidc`` is handed to the ``kubernetes`` package, the
  only place it is imported.

A credential object never puts a secret into its ``repr``, an exception message, or an
exception's arguments. The Authorization value is computed when a request is sent.
"""

from __future__ import annotations

import json
import os
import sys

from kubectl_crd.model.errors import CredentialError, KubeconfigError
from kubectl_crd.model.gotime import rfc3339_problem, unix_nanoseconds
from kubectl_crd.model.govalues import json_kind, unmarshal_type_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from kubectl_crd.kube.kubeconfig import Connection, ExecConfig

#: exec.go installHintVerboseHelp
INSTALL_HINT_HELP = """

It looks like you are trying to use a client-go credential plugin that is not installed.

To learn more about this feature, consult the documentation available at:
      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins"""

#: kubectl's own texts for the auth providers removed in 1.26
#: (k8s.io/client-go/plugin/pkg/client/auth/{gcp,azure}/*_stub.go)
REMOVED_AUTH_PROVIDERS = {
    "gcp": (
        "The gcp auth plugin has been removed.\n"
        'Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead.\n'
        "See https://cloud.google.com/blog/products/containers-kubernetes/"
        "kubectl-auth-changes-in-gke for further details"
    ),
    "azure": (
        "The azure auth plugin has been removed.\n"
        "Please use the https://github.com/Azure/kubelogin kubectl/client-go credential "
        "plugin instead.\n"
        "See https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
        "#client-go-credential-plugins for further details"
    ),
}


class Credentials:
    """The credential of one user: nothing (anonymous) in this base class."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(<redacted>)"

    def authorization(self) -> str:
        """The ``Authorization`` header value, or ``""`` for none."""
        return ""

    def client_certificate(self) -> tuple[bytes, bytes] | None:
        """A client certificate and key (PEM) this credential brings, if any."""
        return None

    def refresh_after_unauthorized(self) -> bool:
        """After a 401: fetch the credential again; ``True`` when it changed."""
        return False

    def secrets(self) -> tuple[str, ...]:
        """Every secret string this credential holds, for scrubbing messages."""
        return ()


class BearerToken(Credentials):
    def __init__(self, token: str) -> None:
        self._token = token

    def authorization(self) -> str:
        return "Bearer " + self._token

    def secrets(self) -> tuple[str, ...]:
        return (self._token,)


class TokenFile(Credentials):
    """``tokenFile`` (or the in-cluster token), read again whenever it changes.

    client-go re-reads after a minute (``token_source.go``); a ``stat`` per request costs
    microseconds and is never stale, so a rotated token is used at once. An unreadable
    or empty file keeps the last token (``bearerAuthRoundTripper`` does the same).
    """

    def __init__(self, path: str, initial: str = "") -> None:
        self.path = path
        self._token = initial
        self._stamp: tuple[int, int, int] | None = None
        self._seen: list[str] = []

    def _read(self, stamp: tuple[int, int, int] | None) -> None:
        try:
            with open(self.path, encoding="utf-8", errors="replace") as handle:
                token = handle.read().strip()
        except OSError:
            token = ""
        self._stamp = stamp
        if token:
            self._token = token
            self._seen.append(token)

    def _current_stamp(self) -> tuple[int, int, int] | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return (info.st_ino, info.st_mtime_ns, info.st_size)

    def authorization(self) -> str:
        stamp = self._current_stamp()
        if stamp is None or stamp != self._stamp:
            self._read(stamp)
        if not self._token:
            # token_source.go fileTokenSource: "read empty token from file"
            raise CredentialError(
                f'Unable to connect to the server: read empty token from file "{self.path}"'
            )
        return "Bearer " + self._token

    def refresh_after_unauthorized(self) -> bool:
        before = self._token
        self._read(self._current_stamp())
        return self._token != before

    def secrets(self) -> tuple[str, ...]:
        return (self._token, *self._seen)


class BasicAuth(Credentials):
    def __init__(self, username: str, password: str) -> None:
        self._username = username
        self._password = password

    def authorization(self) -> str:
        return "Basic " + self._encoded()

    def _encoded(self) -> str:
        import base64

        pair = f"{self._username}:{self._password}".encode()
        return base64.b64encode(pair).decode("ascii")

    def secrets(self) -> tuple[str, ...]:
        return (self._password, self._encoded())


class ExecPlugin(Credentials):
    """A client-go credential plugin (``client.authentication.k8s.io`` v1 or v1beta1).

    As ``exec.go``: the plugin gets the parent's environment plus its ``env`` and
    ``KUBERNETES_EXEC_INFO`` (an ``ExecCredential`` with ``spec.interactive`` and, with
    ``provideClusterInfo``, ``spec.cluster``); stdin is passed only when interactive,
    its stderr is the user's; stdout must be an ``ExecCredential`` of the same
    apiVersion with a token or a certificate and key. The result is kept until its
    ``expirationTimestamp`` and fetched again after a 401. A failure is an error:
    never an anonymous request.
    """

    def __init__(
        self,
        config: ExecConfig,
        connection: Connection,
        *,
        environ: Mapping[str, str] | None = None,
        stdin_is_terminal: bool | None = None,
    ) -> None:
        self.config = config
        self._connection = connection
        self._environ = environ
        self._stdin_is_terminal = stdin_is_terminal
        self._token = ""
        self._cert: tuple[bytes, bytes] | None = None
        self._expires_at: float | None = None
        self._fetched = False
        self._secrets: list[str] = []
        self.runs = 0

    def _interactive(self) -> bool:
        mode = self.config.interactive_mode
        if mode == "Never":
            return False
        terminal = self._stdin_is_terminal
        if terminal is None:
            try:
                terminal = os.isatty(sys.stdin.fileno())
            except (AttributeError, ValueError, OSError):
                terminal = False
        if mode == "Always" and not terminal:
            raise self._failure(
                "exec plugin cannot support interactive mode: standard input is not a terminal"
            )
        return terminal

    def _failure(self, message: str) -> CredentialError:
        return CredentialError(f"Unable to connect to the server: getting credentials: {message}")

    def exec_info(self, interactive: bool) -> str:
        """The ``KUBERNETES_EXEC_INFO`` value."""
        spec: dict[str, object] = {}
        if self.config.provide_cluster_info:
            spec["cluster"] = self._cluster_info()
        spec["interactive"] = interactive
        return json.dumps(
            {"kind": "ExecCredential", "apiVersion": self.config.api_version, "spec": spec},
            separators=(",", ":"),
        )

    def _cluster_info(self) -> dict[str, object]:
        """``clientauthentication.Cluster`` (``rest.ConfigToExecCluster``), omitempty."""
        connection = self._connection
        cluster: dict[str, object] = {"server": connection.server}
        if connection.tls_server_name:
            cluster["tls-server-name"] = connection.tls_server_name
        if connection.insecure_skip_tls_verify:
            cluster["insecure-skip-tls-verify"] = True
        ca = connection.certificate_authority_data
        if not ca and connection.certificate_authority:
            try:
                with open(connection.certificate_authority, "rb") as handle:
                    ca = handle.read()
            except OSError:
                ca = b""
        if ca:
            import base64

            cluster["certificate-authority-data"] = base64.b64encode(ca).decode("ascii")
        if connection.proxy_url:
            cluster["proxy-url"] = connection.proxy_url
        if connection.disable_compression:
            cluster["disable-compression"] = True
        if self.config.cluster_config is not None:
            cluster["config"] = self.config.cluster_config
        return cluster

    def _expired(self) -> bool:
        import time

        return self._expires_at is not None and time.time() > self._expires_at

    def _ensure(self) -> None:
        if not self._fetched or self._expired():
            self._run()

    def _run(self) -> None:
        interactive = self._interactive()
        environ = dict(os.environ if self._environ is None else self._environ)
        environ.update(self.config.env)
        environ["KUBERNETES_EXEC_INFO"] = self.exec_info(interactive)
        import subprocess

        command = self.config.command
        self.runs += 1
        try:
            completed = subprocess.run(
                [command, *self.config.args],
                env=environ,
                stdin=None if interactive else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=None,
                check=False,
            )
        except FileNotFoundError:
            if os.sep in command:
                raise self._failure(
                    f"exec: fork/exec {command}: no such file or directory"
                ) from None
            hint = f"\n\n{self.config.install_hint}" if self.config.install_hint else ""
            raise self._failure(
                f"exec: executable {command} not found{INSTALL_HINT_HELP}{hint}"
            ) from None
        except OSError as exc:
            reason = (exc.strerror or type(exc).__name__).lower()
            raise self._failure(f"exec: fork/exec {command}: {reason}") from None
        if completed.returncode != 0:
            code = completed.returncode if completed.returncode > 0 else -1
            raise self._failure(f"exec: executable {command} failed with exit code {code}")
        self._accept(completed.stdout)

    def _accept(self, stdout: bytes) -> None:
        """Check the plugin's ``ExecCredential`` (exec.go ``refreshCredsLocked``)."""
        expected = self.config.api_version
        from kubectl_crd.kube.clientdecode import DecodeError, decode_exec_output

        credential: object = None  # empty output: decoded as null, every field defaulted
        if stdout.strip():
            try:
                credential = decode_exec_output(stdout)
            except DecodeError as exc:
                raise self._failure(f"decoding stdout: {exc}") from None
        returned, problem = _decoded_version(credential)
        if problem is not None:
            raise self._failure(f"decoding stdout: {problem}")
        if returned != expected:
            raise self._failure(
                f"exec plugin is configured to use API version {expected}, "
                f"plugin returned version {returned}"
            )
        status = credential.get("status") if isinstance(credential, dict) else None
        if not isinstance(status, dict):
            raise self._failure("exec plugin didn't return a status field")
        token = status.get("token") or ""
        cert = status.get("clientCertificateData") or ""
        key = status.get("clientKeyData") or ""
        if not token and not cert and not key:
            raise self._failure("exec plugin didn't return a token or cert/key pair")
        if bool(cert) != bool(key):
            raise self._failure("exec plugin returned only certificate or key, not both")
        stamp = status.get("expirationTimestamp")
        instant = unix_nanoseconds(stamp) if isinstance(stamp, str) else None
        expires_at = instant / 1e9 if instant is not None else None
        self._token = token
        self._cert = (cert.encode(), key.encode()) if cert else None
        self._expires_at = expires_at
        self._fetched = True
        self._secrets.extend(s for s in (token, key) if s)

    def authorization(self) -> str:
        self._ensure()
        return "Bearer " + self._token if self._token else ""

    def client_certificate(self) -> tuple[bytes, bytes] | None:
        self._ensure()
        return self._cert

    def refresh_after_unauthorized(self) -> bool:
        before = (self._token, self._cert)
        self._run()
        return (self._token, self._cert) != before

    def secrets(self) -> tuple[str, ...]:
        return tuple(self._secrets)


#: the group, and the versions its scheme registers ExecCredential in (exec.go's
#: ``install.Install``: the internal one, v1beta1, v1)
_GROUP = "client.authentication.k8s.io"
_INTERNAL = "__internal"
_REGISTERED = (_INTERNAL, "v1beta1", "v1")
_SCHEME = "pkg/client/auth/exec/exec.go:62"


def _decoded_version(credential: object) -> tuple[str, str | None]:
    """The group/version client-go decodes the plugin's output as, and why it cannot
    decode it (None when it can): exec.go decodes into the internal ExecCredential with
    the universal decoder (apimachinery runtime/serializer/json ``Decode``): the JSON
    meta factory's ``Interpret`` reads apiVersion and kind, ``gvkWithDefaults`` fills
    what is empty from the internal type's (kind ExecCredential, version __internal, so
    an empty output "returns" client.authentication.k8s.io/__internal), the kind must
    be registered in that version, then the object is unmarshalled into it."""
    from kubectl_crd.model.gojson import interpret_problem

    problem = interpret_problem(credential)
    if problem is not None:
        return "", problem
    fields = credential if isinstance(credential, dict) else {}
    api_version = fields.get("apiVersion") or ""
    kind = fields.get("kind") or "ExecCredential"
    if api_version.count("/") > 1:
        return "", f"unexpected GroupVersion string: {api_version}"
    group, _, version = api_version.rpartition("/")
    if not version and group in ("", _GROUP):
        group, version = _GROUP, _INTERNAL
    shown = f"{group}/{version}" if group else version
    if group != _GROUP or version not in _REGISTERED or kind != "ExecCredential":
        return shown, f'no kind "{kind}" is registered for version "{shown}" in scheme "{_SCHEME}"'
    return shown, _unmarshal_problem(fields, version)


def _unmarshal_problem(fields: Mapping[str, object], version: str) -> str | None:
    """Why the object does not unmarshal into ExecCredential of ``version``, in
    encoding/json's words: a ``metav1.Time``'s error ends the decoding, so it is told
    even after another field's; a field of another kind is an ``UnmarshalTypeError``
    decoding goes on past, so the first of those, in the document's order, is told only
    if nothing ends the decoding."""
    status = fields.get("status")
    if isinstance(status, dict):
        stamp = status.get("expirationTimestamp")
        if isinstance(stamp, str) and (parse_error := rfc3339_problem(stamp)) is not None:
            return parse_error
        if stamp is not None and not isinstance(stamp, str):
            return _unmarshal_type_error(
                stamp, "ExecCredentialStatus.status.expirationTimestamp", "string"
            )
    package = "clientauthentication" if version == _INTERNAL else version
    for field, value in fields.items():
        if field not in ("spec", "status") or value is None:
            continue
        if not isinstance(value, dict):
            struct = f"{package}.ExecCredential{field.capitalize()}"
            return _unmarshal_type_error(value, f"ExecCredential.{field}", struct)
        for name, inner in value.items():
            if inner is None:
                continue
            if field == "status" and name in _STATUS_STRINGS and not isinstance(inner, str):
                return _unmarshal_type_error(inner, f"ExecCredentialStatus.status.{name}", "string")
            if field == "spec" and name == "interactive" and not isinstance(inner, bool):
                return _unmarshal_type_error(inner, "ExecCredentialSpec.spec.interactive", "bool")
    return None


#: ExecCredentialStatus's string fields (client.authentication.k8s.io types.go)
_STATUS_STRINGS = ("token", "clientCertificateData", "clientKeyData")


def _unmarshal_type_error(value: object, field: str, go_type: str) -> str:
    return unmarshal_type_error(json_kind(value), go_type, field)


class AuthProviderToken(Credentials):
    """An ``oidc`` auth-provider, through the ``kubernetes`` package's loader."""

    def __init__(self, provider: Mapping[str, object], user_name: str) -> None:
        self._provider = provider
        self._user_name = user_name
        self._token = ""

    def authorization(self) -> str:
        if not self._token:
            self._token = _oidc_token(self._provider, self._user_name)
        return "Bearer " + self._token

    def secrets(self) -> tuple[str, ...]:
        config = self._provider.get("config")
        values = [self._token]
        if isinstance(config, dict):
            values += [
                str(config.get(k) or "") for k in ("id-token", "refresh-token", "client-secret")
            ]
        return tuple(v for v in values if v)


def _oidc_token(provider: Mapping[str, object], user_name: str) -> str:
    try:
        from kubernetes.config.kube_config import KubeConfigLoader
    except ImportError:  # the krew archive leaves kubernetes out
        from kubectl_crd.kube.official import kubernetes_missing

        raise KubeconfigError(kubernetes_missing("the oidc auth-provider")) from None
    document = {
        "contexts": [{"name": "c", "context": {"cluster": "c", "user": user_name}}],
        "clusters": [{"name": "c", "cluster": {"server": "https://localhost"}}],
        "users": [{"name": user_name, "user": {"auth-provider": dict(provider)}}],
        "current-context": "c",
    }
    try:
        loader = KubeConfigLoader(config_dict=document, active_context="c")
        loader._load_auth_provider_token()
        token = str(getattr(loader, "token", "") or "")
    except Exception as exc:  # the loader raises many kinds; none of them may leak
        raise CredentialError(
            f"Unable to connect to the server: getting credentials: oidc: {type(exc).__name__}"
        ) from None
    if not token.startswith("Bearer "):
        raise CredentialError(
            "Unable to connect to the server: getting credentials: oidc: no id-token"
        )
    return token[len("Bearer ") :]


def credentials_for(
    connection: Connection,
    *,
    environ: Mapping[str, str] | None = None,
    stdin_is_terminal: bool | None = None,
) -> Credentials:
    """The credential client-go would use for this connection's user."""
    if connection.token_file:
        return TokenFile(connection.token_file, connection.token)
    if connection.token:
        return BearerToken(connection.token)
    if connection.username or connection.password:
        return BasicAuth(connection.username, connection.password)
    if connection.exec_config is not None:
        return ExecPlugin(
            connection.exec_config,
            connection,
            environ=environ,
            stdin_is_terminal=stdin_is_terminal,
        )
    provider = connection.auth_provider
    if isinstance(provider, dict):
        name = str(provider.get("name") or "")
        if name in REMOVED_AUTH_PROVIDERS:
            raise KubeconfigError(REMOVED_AUTH_PROVIDERS[name])
        if name != "oidc":
            raise KubeconfigError(f'no Auth Provider found for name "{name}"')
        return AuthProviderToken(provider, connection.user_name)
    return Credentials()


def impersonation_headers(connection: Connection) -> list[tuple[str, str]]:
    """``transport.NewImpersonatingRoundTripper``'s headers."""
    from urllib.parse import quote

    headers: list[tuple[str, str]] = []
    if connection.impersonate_user:
        headers.append(("Impersonate-User", connection.impersonate_user))
    if connection.impersonate_uid:
        headers.append(("Impersonate-Uid", connection.impersonate_uid))
    headers.extend(("Impersonate-Group", group) for group in connection.impersonate_groups)
    for key, values in connection.impersonate_extra:
        name = "Impersonate-Extra-" + quote(key, safe="!#$&'*+-.^_`|~")
        headers.extend((name, value) for value in values)
    return headers
