"""kubeconfig loading and merging with client-go's rules, down to one ``Connection``.

Mirrors ``k8s.io/client-go/tools/clientcmd``:

- ``loader.go`` (``ClientConfigLoadingRules``): ``--kubeconfig`` is one file that must
  exist; otherwise the ``KUBECONFIG`` path list (``os.pathsep``, duplicates and empty
  entries dropped, missing files skipped); otherwise ``~/.kube/config``. When files are
  merged, the first file that names a cluster, user or context wins for that name, and
  the first non-empty ``current-context`` wins. Relative ``certificate-authority``,
  ``client-certificate``, ``client-key``, ``tokenFile`` and an exec ``command`` holding a
  path separator are resolved against the directory of the file that defined them
  (``ResolveLocalPaths``).
- ``client_config.go`` (``DirectClientConfig``): ``--context`` or ``current-context``
  picks the context (a name that is not there is an invalid configuration); a context
  whose cluster is missing, or no configuration at all, means ``http://localhost:8080``
  as kubectl does; the namespace is ``-n``, else the context's, else ``default``.
- ``merged_client_builder.go`` / ``client_config.go`` (``inClusterClientConfig``): with
  no kubeconfig content and ``KUBERNETES_SERVICE_HOST``/``_PORT`` set and a
  service-account token present, the in-cluster config: the token file (re-read), its
  CA, and the namespace from ``POD_NAMESPACE`` or the namespace file.
- ``validation.go``: exec ``apiVersion`` and ``interactiveMode`` checks.

Files are parsed with PyYAML's C loader (libyaml): a kubeconfig is plain YAML and this is
the fastest reader there is; positions are not needed here, so ``kubectl_crd.io`` (and
ruamel) stays out of the cluster path. Nothing here reads a secret into a message.
"""

from __future__ import annotations

import os

from kubectl_crd.model.errors import KubeconfigError
from kubectl_crd.model.records import field, record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from kubectl_crd.kube.config import ClusterConfig

#: client-go's default when nothing is configured (``clientcmd.ClusterDefaults``).
DEFAULT_SERVER = "http://localhost:8080"
#: ``rest.InClusterConfig``'s service-account directory; ``KUBECTL_CRD_SERVICE_ACCOUNT_DIR``
#: points it elsewhere (for tests: the real path cannot be written outside a pod).
SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
SERVICE_ACCOUNT_DIR_ENV = "KUBECTL_CRD_SERVICE_ACCOUNT_DIR"

EXEC_API_VERSIONS = (
    "client.authentication.k8s.io/v1",
    "client.authentication.k8s.io/v1beta1",
)
INTERACTIVE_MODES = ("Never", "IfAvailable", "Always")


@record
class ExecConfig:
    """A user's ``exec`` stanza (``clientcmdapi.ExecConfig``), command path resolved."""

    command: str
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    api_version: str = ""
    install_hint: str = ""
    provide_cluster_info: bool = False
    interactive_mode: str = "IfAvailable"
    #: ``clusters[].cluster.extensions[name=client.authentication.k8s.io/exec].extension``
    cluster_config: object = None


@record
class Connection:
    """Everything needed to talk to one API server as one user, resolved from flags and
    kubeconfig. Secrets are kept out of ``repr``."""

    server: str
    context_name: str = ""
    cluster_name: str = ""
    user_name: str = ""
    namespace: str = "default"
    # TLS
    certificate_authority: str = ""
    certificate_authority_data: bytes = field(default=b"", repr=False)
    insecure_skip_tls_verify: bool = False
    tls_server_name: str = ""
    client_certificate: str = ""
    client_key: str = ""
    client_certificate_data: bytes = field(default=b"", repr=False)
    client_key_data: bytes = field(default=b"", repr=False)
    proxy_url: str = ""
    disable_compression: bool = False
    # credentials
    token: str = field(default="", repr=False)
    token_file: str = ""
    username: str = ""
    password: str = field(default="", repr=False)
    exec_config: ExecConfig | None = None
    auth_provider: object = field(default=None, repr=False)
    # impersonation (kubeconfig's as, as-uid, as-groups, as-user-extra)
    impersonate_user: str = ""
    impersonate_uid: str = ""
    impersonate_groups: tuple[str, ...] = ()
    impersonate_extra: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: True for the in-cluster config (the namespace came from the pod).
    in_cluster: bool = False


class _Named:
    """One kubeconfig entry (cluster, user or context) and the file that defined it."""

    __slots__ = ("body", "origin")

    def __init__(self, body: Mapping[str, object], origin: str) -> None:
        self.body = body
        self.origin = origin


class MergedKubeconfig:
    """The kubeconfig files merged by client-go's rules (first file wins per name)."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.clusters: dict[str, _Named] = {}
        self.users: dict[str, _Named] = {}
        self.contexts: dict[str, _Named] = {}
        self.current_context = ""

    def add(self, path: str, document: Mapping[str, object]) -> None:
        self.files.append(path)
        for key, into in (
            ("clusters", self.clusters),
            ("users", self.users),
            ("contexts", self.contexts),
        ):
            inner = {"clusters": "cluster", "users": "user", "contexts": "context"}[key]
            for entry in _list(document.get(key), path, key):
                name = entry.get("name")
                if not isinstance(name, str) or name in into:
                    continue
                into[name] = _Named(_mapping(entry.get(inner), path, f"{key}[{name}]"), path)
        current = document.get("current-context")
        if not self.current_context and isinstance(current, str):
            self.current_context = current

    @property
    def empty(self) -> bool:
        return not (self.clusters or self.users or self.contexts or self.current_context)


def _list(value: object, path: str, key: str) -> list[Mapping[str, object]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _load_error(path, f"{key} must be a list")
    return [entry for entry in value if isinstance(entry, dict)]


def _mapping(value: object, path: str, where: str) -> Mapping[str, object]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _load_error(path, f"{where} must be a mapping")
    return value


def _load_error(path: str, detail: str) -> KubeconfigError:
    # client-go's loader.go: fmt.Errorf("error loading config file \"%s\": %v", ...)
    return KubeconfigError(f'error loading config file "{path}": {detail}')


def kubeconfig_paths(explicit: str | None, environ: Mapping[str, str]) -> tuple[list[str], bool]:
    """The files to read, and whether they came from ``--kubeconfig`` (must exist)."""
    if explicit:
        return [explicit], True
    listed = environ.get("KUBECONFIG", "")
    if listed:
        paths: list[str] = []
        for entry in listed.split(os.pathsep):
            if entry and entry not in paths:
                paths.append(entry)
        return paths, False
    home = environ.get("HOME") or os.path.expanduser("~")
    return [os.path.join(home, ".kube", "config")], False


def read_document(path: str) -> Mapping[str, object] | None:
    """One kubeconfig file parsed; ``None`` when it does not exist."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _load_error(path, _os_detail(exc)) from exc
    if not data.strip():
        return {}
    # clientcmd.Load: the YAML serializer (sigs.k8s.io/yaml, go-yaml v2), then Interpret;
    # imported here, as PyYAML is: a module that imports this one may never read a file
    from kubectl_crd.kube.clientdecode import DecodeError, yaml_to_json
    from kubectl_crd.model.gojson import interpret_problem

    try:
        document = yaml_to_json(data)
    except DecodeError as exc:
        raise _load_error(path, str(exc)) from None
    problem = interpret_problem(document)
    if problem is not None:
        raise _load_error(path, problem)
    return document if isinstance(document, dict) else {}


def _os_detail(exc: OSError) -> str:
    """Go's ``*PathError`` text: ``open PATH: no such file or directory``."""
    reason = (exc.strerror or str(exc)).lower()
    return f"open {exc.filename}: {reason}" if exc.filename else reason


def load_merged(explicit: str | None, environ: Mapping[str, str]) -> MergedKubeconfig:
    paths, must_exist = kubeconfig_paths(explicit, environ)
    merged = MergedKubeconfig()
    for path in paths:
        document = read_document(path)
        if document is None:
            if must_exist:
                # loader.go stats an explicit path: "stat PATH: no such file or directory"
                raise KubeconfigError(f"stat {path}: no such file or directory")
            continue
        merged.add(path, document)
    return merged


def _resolve_path(value: object, origin: str) -> str:
    if not isinstance(value, str) or not value:
        return ""
    if os.path.isabs(value):
        return value
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(origin)), value))


def _sequence(body: Mapping[str, object], key: str) -> list[object]:
    value = body.get(key)
    return value if isinstance(value, list) else []


def _text(body: Mapping[str, object], key: str) -> str:
    value = body.get(key)
    return value if isinstance(value, str) else ""


def _base64(body: Mapping[str, object], key: str, origin: str) -> bytes:
    value = body.get(key)
    if not value:
        return b""
    import binascii

    try:
        # Go's base64.StdEncoding skips line breaks and nothing else
        text = str(value).replace("\r", "").replace("\n", "")
        return binascii.a2b_base64(text.encode("ascii"), strict_mode=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        raise _load_error(origin, f"{key}: illegal base64 data") from None


def _exec_config(user_name: str, body: Mapping[str, object], origin: str) -> ExecConfig:
    command = _text(body, "command")
    if os.sep in command:  # loader.go: only a command with a path separator is a path
        command = _resolve_path(command, origin)
    api_version = _text(body, "apiVersion")
    if api_version not in EXEC_API_VERSIONS:
        # exec.go newAuthenticator (v1alpha1 is gone from kubectl 1.24 on)
        raise KubeconfigError(f'exec plugin: invalid apiVersion "{api_version}"')
    mode = _text(body, "interactiveMode")
    if not mode:
        if api_version.endswith("/v1"):
            # validation.go validateAuthInfo
            raise KubeconfigError(
                f"interactiveMode must be specified for {user_name} to use exec authentication plugin"
            )
        mode = "IfAvailable"
    if mode not in INTERACTIVE_MODES:
        raise KubeconfigError(f'invalid interactiveMode for {user_name}: "{mode}"')
    env: list[tuple[str, str]] = []
    for item in _sequence(body, "env"):
        if isinstance(item, dict):
            env.append((str(item.get("name", "")), str(item.get("value", ""))))
    args = tuple(str(arg) for arg in _sequence(body, "args"))
    return ExecConfig(
        command=command,
        args=args,
        env=tuple(env),
        api_version=api_version,
        install_hint=_text(body, "installHint"),
        provide_cluster_info=bool(body.get("provideClusterInfo")),
        interactive_mode=mode,
    )


def resolve_connection(flags: ClusterConfig, environ: Mapping[str, str]) -> Connection:
    """The server and credentials kubectl would use with these flags and environment."""
    merged = load_merged(flags.kubeconfig, environ)
    context_name = flags.context or merged.current_context
    if merged.empty and not flags.context:
        in_cluster = _in_cluster(flags, environ)
        if in_cluster is not None:
            return in_cluster
    if context_name and context_name not in merged.contexts:
        raise KubeconfigError(
            f"context was not found for specified context: {context_name}",
            in_configuration=True,
        )
    context = merged.contexts[context_name].body if context_name else {}
    cluster_name = _text(context, "cluster")
    user_name = _text(context, "user")
    namespace = flags.namespace or _text(context, "namespace") or "default"
    cluster_entry = merged.clusters.get(cluster_name)
    user_entry = merged.users.get(user_name)
    values: dict[str, object] = {
        "server": DEFAULT_SERVER,
        "context_name": context_name,
        "cluster_name": cluster_name,
        "user_name": user_name,
        "namespace": namespace,
    }
    exec_cluster_config: object = None
    if cluster_entry is not None:
        cluster, origin = cluster_entry.body, cluster_entry.origin
        values["server"] = _text(cluster, "server") or DEFAULT_SERVER
        values["certificate_authority"] = _resolve_path(
            cluster.get("certificate-authority"), origin
        )
        values["certificate_authority_data"] = _base64(
            cluster, "certificate-authority-data", origin
        )
        values["insecure_skip_tls_verify"] = bool(cluster.get("insecure-skip-tls-verify"))
        values["tls_server_name"] = _text(cluster, "tls-server-name")
        values["proxy_url"] = _text(cluster, "proxy-url")
        values["disable_compression"] = bool(cluster.get("disable-compression"))
        extensions = cluster.get("extensions")
        for extension in extensions if isinstance(extensions, list) else ():
            if isinstance(extension, dict) and extension.get("name") == (
                "client.authentication.k8s.io/exec"
            ):
                exec_cluster_config = extension.get("extension")
    if user_entry is not None:
        user, origin = user_entry.body, user_entry.origin
        values["client_certificate"] = _resolve_path(user.get("client-certificate"), origin)
        values["client_key"] = _resolve_path(user.get("client-key"), origin)
        values["client_certificate_data"] = _base64(user, "client-certificate-data", origin)
        values["client_key_data"] = _base64(user, "client-key-data", origin)
        values["token"] = _text(user, "token")
        values["token_file"] = _resolve_path(user.get("tokenFile"), origin)
        values["username"] = _text(user, "username")
        values["password"] = _text(user, "password")
        values["impersonate_user"] = _text(user, "as")
        values["impersonate_uid"] = _text(user, "as-uid")
        values["impersonate_groups"] = tuple(str(g) for g in _sequence(user, "as-groups"))
        extra = user.get("as-user-extra") or {}
        if isinstance(extra, dict):
            values["impersonate_extra"] = tuple(
                (str(key), tuple(str(v) for v in (vals or ()))) for key, vals in extra.items()
            )
        exec_body = user.get("exec")
        if isinstance(exec_body, dict):
            exec_config = _exec_config(user_name, exec_body, origin)
            if exec_cluster_config is not None:
                exec_config = ExecConfig(
                    command=exec_config.command,
                    args=exec_config.args,
                    env=exec_config.env,
                    api_version=exec_config.api_version,
                    install_hint=exec_config.install_hint,
                    provide_cluster_info=exec_config.provide_cluster_info,
                    interactive_mode=exec_config.interactive_mode,
                    cluster_config=exec_cluster_config,
                )
            values["exec_config"] = exec_config
        provider = user.get("auth-provider")
        if isinstance(provider, dict):
            values["auth_provider"] = provider
    if values.get("token_file") and not values.get("token"):
        # client_config.go getUserIdentificationPartialConfig reads the file up front
        # (later reads go through the cached file token source): a missing file fails.
        _check_readable(str(values["token_file"]))
    # kubectl's --as and --as-group override the user's as and as-groups
    # (clientcmd's ConfigOverrides, AuthInfo.Impersonate and ImpersonateGroups)
    if flags.impersonate_user:
        values["impersonate_user"] = flags.impersonate_user
    if flags.impersonate_groups:
        values["impersonate_groups"] = tuple(flags.impersonate_groups)
    if not values.get("impersonate_user") and any(
        values.get(key) for key in ("impersonate_uid", "impersonate_groups", "impersonate_extra")
    ):
        # clientcmd's validateAuthInfo (client-go tools/clientcmd/validation.go), naming
        # the context's user entry as kubectl does (empty without a kubeconfig)
        raise KubeconfigError(
            f"requesting uid, groups or user-extra for {user_name} without impersonating a user"
        )
    return Connection(**values)  # type: ignore[arg-type]


def _check_readable(path: str) -> None:
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise KubeconfigError(_os_detail(exc)) from None


def service_account_dir(environ: Mapping[str, str]) -> str:
    return environ.get(SERVICE_ACCOUNT_DIR_ENV) or SERVICE_ACCOUNT_DIR


def _in_cluster(flags: ClusterConfig, environ: Mapping[str, str]) -> Connection | None:
    """``rest.InClusterConfig`` when ``inClusterClientConfig.Possible()``, else ``None``."""
    host = environ.get("KUBERNETES_SERVICE_HOST", "")
    port = environ.get("KUBERNETES_SERVICE_PORT", "")
    directory = service_account_dir(environ)
    token_file = os.path.join(directory, "token")
    if not host or not port or not os.path.isfile(token_file):
        return None
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # net.JoinHostPort
    namespace = flags.namespace or environ.get("POD_NAMESPACE", "")
    if not namespace:
        try:
            with open(os.path.join(directory, "namespace"), encoding="utf-8") as handle:
                namespace = handle.read().strip()
        except OSError:
            namespace = ""
    ca_file = os.path.join(directory, "ca.crt")
    return Connection(
        server=f"https://{host}:{port}",
        namespace=namespace or "default",
        certificate_authority=ca_file if os.path.isfile(ca_file) else "",
        token_file=token_file,
        in_cluster=True,
    )
