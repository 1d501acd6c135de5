"""Every kubeconfig form a kubectl user has, run side by side through kubectl and kubectl-crd.

The matrix of issue 8: one list of kubeconfig forms (``FORMS``: client certificates,
tokens, token files, exec plugins, TLS and proxy settings, merged KUBECONFIG lists, and
the failures: 401, 403, refused, bad TLS, failing plugins) and one list of live commands
(``LIVE_COMMANDS``: today ``explain``; ``get``, ``scale`` and ``dev`` join as they land).
``run_tool()`` runs one command with one form through one tool and records what the
API server and the test's helpers saw: the audit events of the run, the CONNECTs the
loopback proxy relayed, and each exec-plugin invocation.

What each form expects is written from kubectl's behaviour (kubectl 1.33 against
kube-apiserver 1.34; ``test_cluster_access.py`` checks kubectl against it, so a new
kubectl that changes behaviour fails there first), and kubectl-crd is compared with the
real kubectl's output of the same run. Where our text may differ from kubectl's (a
timeout: Go's context and net/http texts against Python's socket; an invalid kubeconfig:
Go's YAML parser's message against PyYAML's), the form says which stable part must
match and why (``Expect.ours_error``, ``Expect.why_different``). TLS failures are held
to Go's x509 texts exactly: our client reproduces them.

A new live command joins by one ``LiveCommand`` in ``LIVE_COMMANDS`` (ours, kubectl's
equivalent, and the kubectl command that makes the same first API request); every form
and every test then runs for it too.

Every secret a form puts in a kubeconfig, a token file or an exec plugin's output is a
marker that must never appear in kubectl-crd's output (plain or ``--debug``).
"""

from __future__ import annotations

import base64
import json
import os
import pty
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.crd_factory import make_crd
from tests.integration.connect_proxy import ConnectProxy
from tests.integration.envtest import (
    NO_RIGHTS_USER,
    SERVER_DNS_NAME,
    ControlPlane,
    newest_kubectl,
)

KUBECTL = newest_kubectl()
_SCRIPT = Path(sys.executable).with_name("kubectl-crd")
#: Our CLI as users run it: the console script of this environment.
KUBECTL_CRD = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "kubectl_crd"]
ADMIN_CERT_USER = "kubectl-crd-envtest-admin"
EXEC_V1 = "client.authentication.k8s.io/v1"
EXEC_V1BETA1 = "client.authentication.k8s.io/v1beta1"
#: A name not in the serving certificate.
WRONG_SERVER_NAME = "wrong.test.local"
#: klog lines (``E1123 21:32:59.286869   16293 memcache.go:265] ...``): kubectl's log
#: output before its error line; not part of the error kubectl-crd must match.
_KLOG_LINE = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+:\d+\] ")
#: The stable start of kubectl's transport errors (TLS, timeouts, exec plugins). After it
#: kubectl prints Go's own texts ("context deadline exceeded") where Python's socket has
#: its own; there kubectl-crd keeps this prefix and names the failure in its own words
#: (see ``Expect.ours_error``).
_UNABLE_TO_CONNECT = re.escape("Unable to connect to the server: ")


# --------------------------------------------------------------------------------------
# commands


@dataclass(frozen=True)
class LiveCommand:
    """One live command of ours and kubectl's counterparts.

    ``kubectl`` prints what ours prints on success (``explain --kubectl`` prints
    kubectl's bytes). ``kubectl_same_request`` makes the API request ours makes first,
    for the errors that depend on the request: ``kubectl explain`` reads discovery and
    OpenAPI, which every authenticated user may, where ours lists CRDs; a user without
    rights gets 403 only on the list, and kubectl words a 401 on OpenAPI differently
    ("the server has asked for the client to provide credentials") from a 401 on a
    list ("Unauthorized", the server's own Status message, the text issue 8 asks for).
    """

    name: str
    ours: tuple[str, ...]
    kubectl: tuple[str, ...]
    kubectl_same_request: tuple[str, ...]
    #: Called once per control plane before the command runs (install a CRD ...).
    prepare: Callable[[ControlPlane], None] = lambda plane: None

    def __str__(self) -> str:
        return self.name


#: The CRD the live commands read: a group and plural of its own, since the session's
#: API server also holds other tests' CRDs (two ``crontabs`` in two groups, for one).
PROBE_GROUP = "access.kubectl-crd.test"
PROBE_PLURAL = "accessprobes"
PROBE_CRD = make_crd(
    "AccessProbe",
    PROBE_GROUP,
    schema={
        "type": "object",
        "description": "An AccessProbe is read by the cluster-access tests.",
        "properties": {
            "spec": {
                "type": "object",
                "description": "What the probe looks at.",
                "properties": {
                    "target": {"type": "string", "description": "The thing to look at."},
                    "replicas": {"type": "integer", "minimum": 0},
                },
            },
            "status": {"type": "object", "properties": {"seen": {"type": "boolean"}}},
        },
    },
)
EXPLAIN_PATH = f"{PROBE_PLURAL}.spec"


def _install_probe_crd(plane: ControlPlane) -> None:
    path = plane.workdir / "accessprobes.json"
    path.write_text(json.dumps(PROBE_CRD))
    plane.install_crds([path])
    plane.wait_explainable(EXPLAIN_PATH)


EXPLAIN = LiveCommand(
    name="explain",
    ours=("explain", "--kubectl", EXPLAIN_PATH),
    kubectl=("explain", EXPLAIN_PATH),
    kubectl_same_request=("get", "customresourcedefinitions"),
    prepare=_install_probe_crd,
)

LIVE_COMMANDS = [EXPLAIN]


# --------------------------------------------------------------------------------------
# forms


@dataclass(frozen=True)
class Expect:
    """What a form must do, for kubectl and for kubectl-crd.

    ``error`` is a regular expression the whole error text must match (stderr without
    kubectl's klog lines and the exec plugin's own stderr); ``None`` means success.
    kubectl-crd must print kubectl's exact text, unless ``ours_error`` documents why it
    cannot (then it must match that instead).
    """

    error: str | None = None
    #: The user the server must see for every request the tool made (audit log).
    user: str | None = None
    #: The tool must not send a single request (a failing exec plugin: never anonymous).
    no_requests: bool = False
    ours_error: str | None = None
    why_different: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class Run:
    """One tool's run of one command with one form, and what the server and helpers saw."""

    tool: str
    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    events: list[dict[str, Any]]
    connects: list[str]
    plugin_calls: list[dict[str, Any]]

    def error_text(self, plugin_stderr: str = "") -> str:
        """stderr without klog records and without the lines the exec plugin wrote."""
        drop = {line for line in plugin_stderr.splitlines() if line}
        kept: list[str] = []
        in_klog_record = False
        for line in self.stderr.splitlines():
            if _KLOG_LINE.match(line):
                in_klog_record = True
                continue
            # klog continues a multi-line message with tab-indented lines and ends it " >"
            if in_klog_record and (line.startswith("\t") or line == " >"):
                continue
            in_klog_record = False
            if line not in drop:
                kept.append(line)
        return "\n".join(kept).strip()

    def describe(self) -> str:
        return (
            f"$ {' '.join(self.argv)}\nexit {self.returncode}\n"
            f"--- stdout ---\n{self.stdout[:2000]}\n--- stderr ---\n{self.stderr[-3000:]}"
        )


#: A check of one run that knows the form's details; returns problems, empty when fine.
RunCheck = Callable[[Run], list[str]]


@dataclass
class Access:
    """A kubeconfig form, written to disk: how to run a tool with it and what to expect."""

    expect: Expect
    kubeconfigs: list[Path]
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    #: Run with stdin on a pseudo-terminal (exec plugins' interactiveMode).
    tty_stdin: bool = False
    #: Marker secrets: none may appear in kubectl-crd's output.
    secrets: list[str] = field(default_factory=list)
    #: What the exec plugin writes to stderr, passed through by both tools.
    plugin_stderr: str = ""
    checks: list[RunCheck] = field(default_factory=list)
    #: The first kubeconfig goes to ``$HOME/.kube/config`` and KUBECONFIG is unset.
    in_home: bool = False


@dataclass
class FormContext:
    """What a form may use to write itself: the server, a directory, the proxy."""

    plane: ControlPlane
    directory: Path
    proxy: ConnectProxy
    #: kubectl's ``--cache-dir``, with the server's discovery in it (``warm_kubectl_cache``).
    kubectl_cache: Path
    #: Sockets a form opened, closed by whoever made the context.
    sockets: list[socket.socket] = field(default_factory=list)

    @property
    def plugin_log(self) -> Path:
        return self.directory / "plugin-calls.jsonl"

    def kubeconfig(
        self, user: Mapping[str, Any], *, cluster: Mapping[str, Any] | None = None
    ) -> Path:
        """The form's kubeconfig (``directory/kubeconfig``): ``user`` for ``cluster``, the
        control plane's server with its CA inline by default."""
        return user_kubeconfig(self.plane, self.directory / "kubeconfig", user, cluster=cluster)

    def unresponsive_server(self) -> str:
        """``https://127.0.0.1:PORT`` of a socket that listens and never answers: the
        kernel completes the TCP handshake, the TLS handshake never comes."""
        listener = socket.create_server(("127.0.0.1", 0), backlog=16)
        self.sockets.append(listener)
        return f"https://127.0.0.1:{listener.getsockname()[1]}"

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


@dataclass(frozen=True)
class Form:
    name: str
    build: Callable[[FormContext], Access]

    def __str__(self) -> str:
        return self.name


# --------------------------------------------------------------------------------------
# writing kubeconfigs


def kubeconfig_document(
    *,
    cluster: Mapping[str, Any],
    user: Mapping[str, Any],
    name: str = "access",
    namespace: str | None = None,
) -> dict[str, Any]:
    """One cluster, one user, one context of the same name, current."""
    context: dict[str, Any] = {"cluster": name, "user": name}
    if namespace:
        context["namespace"] = namespace
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": name, "cluster": dict(cluster)}],
        "users": [{"name": name, "user": dict(user)}],
        "contexts": [{"name": name, "context": context}],
        "current-context": name,
        "preferences": {},
    }


def write_kubeconfig(path: Path, document: Mapping[str, Any]) -> Path:
    """JSON is YAML: kubectl and our loader both read it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n")
    path.chmod(0o600)
    return path


def verified_cluster(plane: ControlPlane, **extra: Any) -> dict[str, Any]:
    """The control plane's server with its CA inline, plus ``extra`` settings."""
    return {
        "server": plane.server,
        "certificate-authority-data": _b64(plane.pki.ca_cert.read_bytes()),
        **extra,
    }


def user_kubeconfig(
    plane: ControlPlane,
    path: Path,
    user: Mapping[str, Any],
    *,
    cluster: Mapping[str, Any] | None = None,
) -> Path:
    """A kubeconfig with ``user`` for ``cluster``: the control plane's server with its CA
    inline by default."""
    if cluster is None:
        cluster = verified_cluster(plane)
    return write_kubeconfig(path, kubeconfig_document(cluster=cluster, user=user))


def token_kubeconfig(
    plane: ControlPlane,
    path: Path,
    token: str | None = None,
    *,
    cluster: Mapping[str, Any] | None = None,
) -> Path:
    """A kubeconfig with a bearer token (the admin's by default)."""
    user = {"token": token or plane.tokens.admin.token}
    return user_kubeconfig(plane, path, user, cluster=cluster)


def client_cert_kubeconfig(plane: ControlPlane, path: Path) -> Path:
    """A kubeconfig with the admin client certificate as files."""
    user = {
        "client-certificate": str(plane.pki.client_cert),
        "client-key": str(plane.pki.client_key),
    }
    return user_kubeconfig(plane, path, user)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def key_markers(key_file: Path) -> list[str]:
    """The base64 lines of a PEM private key: any of them in output is a leak."""
    return [
        line
        for line in key_file.read_text().splitlines()
        if line and not line.startswith("-----") and len(line) >= 16
    ]


def _marker(role: str) -> str:
    """A secret-looking string, new each time."""
    return f"kcrd-marker-{role}-{_b64(os.urandom(12)).translate(str.maketrans('+/=', 'xyz'))}"


# --------------------------------------------------------------------------------------
# the exec plugin


#: One exec credential plugin for every exec form, steered by its ``env``: it checks
#: what client-go promises plugins (KUBERNETES_EXEC_INFO, the cluster info, stdin) and
#: fails loudly when a promise is broken, and logs each call for the checks.
PLUGIN_SOURCE = """\
#!{python} -I
import json, os, sys, datetime
env = os.environ
info = json.loads(env.get("KUBERNETES_EXEC_INFO") or "{{}}")
spec = info.get("spec") or {{}}
call = {{
    "apiVersion": info.get("apiVersion"),
    "interactive": spec.get("interactive"),
    "cluster": spec.get("cluster"),
    "stdin_tty": sys.stdin.isatty() if sys.stdin else False,
    "argv": sys.argv[1:],
    "cwd": os.getcwd(),
    "parent": os.getppid(),
}}
try:
    with open(env["KCRD_PLUGIN_LOG"]) as log:
        earlier = [json.loads(line) for line in log if line.strip()]
except FileNotFoundError:
    earlier = []
first_for_this_client = not any(c.get("parent") == call["parent"] for c in earlier)
with open(env["KCRD_PLUGIN_LOG"], "a") as log:
    log.write(json.dumps(call) + "\\n")
problems = []
if info.get("apiVersion") != env["KCRD_PLUGIN_API_VERSION"]:
    problems.append(f"KUBERNETES_EXEC_INFO apiVersion {{info.get('apiVersion')!r}}")
if env.get("KCRD_PLUGIN_ARGS") and sys.argv[1:] != json.loads(env["KCRD_PLUGIN_ARGS"]):
    problems.append(f"args {{sys.argv[1:]!r}}")
if env.get("KCRD_PLUGIN_CLUSTER_SERVER"):
    cluster = spec.get("cluster") or {{}}
    if cluster.get("server") != env["KCRD_PLUGIN_CLUSTER_SERVER"]:
        problems.append(f"spec.cluster.server {{cluster.get('server')!r}}")
    if not cluster.get("certificate-authority-data"):
        problems.append("no spec.cluster.certificate-authority-data")
    if cluster.get("config") != {{"marker": "extension-config"}}:
        problems.append(f"spec.cluster.config {{cluster.get('config')!r}}")
expected_interactive = env.get("KCRD_PLUGIN_INTERACTIVE")
if expected_interactive is not None:
    if spec.get("interactive") is not (expected_interactive == "true"):
        problems.append(f"spec.interactive {{spec.get('interactive')!r}}")
    if call["stdin_tty"] is not (expected_interactive == "true"):
        problems.append(f"stdin is a terminal: {{call['stdin_tty']}}")
if problems:
    print("kcrd-test-plugin: broken promise: " + "; ".join(problems), file=sys.stderr)
    sys.exit(3)
status = {{}}
if env.get("KCRD_PLUGIN_TOKEN"):
    status["token"] = env["KCRD_PLUGIN_TOKEN"]
if env.get("KCRD_PLUGIN_FIRST_TOKEN") and first_for_this_client:
    status["token"] = env["KCRD_PLUGIN_FIRST_TOKEN"]
if env.get("KCRD_PLUGIN_CERT"):
    status["clientCertificateData"] = open(env["KCRD_PLUGIN_CERT"]).read()
    status["clientKeyData"] = open(env["KCRD_PLUGIN_KEY"]).read()
if env.get("KCRD_PLUGIN_EXPIRES_IN"):
    when = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(
        seconds=int(env["KCRD_PLUGIN_EXPIRES_IN"]))
    status["expirationTimestamp"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
if env.get("KCRD_PLUGIN_STATUS"):  # fields as given (values no well-behaved plugin writes)
    status.update(json.loads(env["KCRD_PLUGIN_STATUS"]))
credential = {{"apiVersion": env["KCRD_PLUGIN_API_VERSION"], "kind": "ExecCredential",
              "status": status}}
if env.get("KCRD_PLUGIN_FAIL"):
    print(env["KCRD_PLUGIN_FAIL"], file=sys.stderr)
    print(json.dumps(credential))  # printed, yet a failing plugin's output is never used
    sys.exit(1)
output = json.dumps(credential)
if env.get("KCRD_PLUGIN_YAML"):  # the same credential as YAML, which client-go reads too
    output = "\\n".join(
        [f"apiVersion: {{credential['apiVersion']}}", "kind: ExecCredential", "status:"]
        + [f"  {{key}}: {{value if key == 'expirationTimestamp' else json.dumps(value)}}"
           for key, value in status.items()]
    )
if env.get("KCRD_PLUGIN_OUTPUT_EDIT"):  # [old, new]: a plugin whose output is broken
    old, new = json.loads(env["KCRD_PLUGIN_OUTPUT_EDIT"])
    output = output.replace(old, new, 1)
print(env.get("KCRD_PLUGIN_PREFIX", "") + output)
"""


def write_plugin(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(PLUGIN_SOURCE.format(python=sys.executable))
    path.chmod(0o755)
    return path


def plugin_calls(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def exec_user(
    ctx: FormContext,
    *,
    api_version: str = EXEC_V1,
    command: str | None = None,
    interactive_mode: str | None = "Never",
    env: Mapping[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A kubeconfig ``user`` running the test plugin with ``KCRD_PLUGIN_*`` settings."""
    plugin = write_plugin(ctx.directory / "bin" / "kcrd-test-plugin")
    settings = {
        "KCRD_PLUGIN_LOG": str(ctx.plugin_log),
        "KCRD_PLUGIN_API_VERSION": api_version,
        **(env or {}),
    }
    config: dict[str, Any] = {
        "apiVersion": api_version,
        "command": command or str(plugin),
        "env": [{"name": k, "value": v} for k, v in settings.items()],
        **extra,
    }
    if interactive_mode is not None:
        config["interactiveMode"] = interactive_mode
    return {"exec": config}


# --------------------------------------------------------------------------------------
# checks


def _user_of(event: Mapping[str, Any]) -> str | None:
    impersonated = event.get("impersonatedUser") or {}
    return impersonated.get("username") or (event.get("user") or {}).get("username")


def check_proxied(target: str) -> RunCheck:
    def check(run: Run) -> list[str]:
        if target not in run.connects:
            return [f"the proxy saw no CONNECT {target} (it saw {run.connects})"]
        return []

    return check


def check_plugin_calls(*, count: int | None = None, at_least: int = 1, **expected: Any) -> RunCheck:
    """The plugin ran (``count`` times exactly, if given), each call with ``expected``."""

    def check(run: Run) -> list[str]:
        calls = run.plugin_calls
        problems = []
        if count is not None and len(calls) != count:
            problems.append(f"the exec plugin ran {len(calls)} times, not {count}")
        elif len(calls) < at_least:
            problems.append(f"the exec plugin ran {len(calls)} times, not at least {at_least}")
        for call in calls:
            for key, value in expected.items():
                if call.get(key) != value:
                    problems.append(f"plugin call {key}={call.get(key)!r}, expected {value!r}")
        return problems

    return check


# --------------------------------------------------------------------------------------
# the forms


def _cert_files(ctx: FormContext) -> Access:
    pki = ctx.plane.pki
    user = {"client-certificate": str(pki.client_cert), "client-key": str(pki.client_key)}
    cluster = {"server": ctx.plane.server, "certificate-authority": str(pki.ca_cert)}
    path = ctx.kubeconfig(user, cluster=cluster)
    return Access(Expect(user=ADMIN_CERT_USER), [path], secrets=key_markers(pki.client_key))


def _cert_data(ctx: FormContext) -> Access:
    pki = ctx.plane.pki
    user = {
        "client-certificate-data": _b64(pki.client_cert.read_bytes()),
        "client-key-data": _b64(pki.client_key.read_bytes()),
    }
    path = ctx.kubeconfig(user)
    secrets = [*key_markers(pki.client_key), user["client-key-data"][20:60]]
    return Access(Expect(user=ADMIN_CERT_USER), [path], secrets=secrets)


def _token(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.admin
    path = token_kubeconfig(ctx.plane, ctx.directory / "kubeconfig", token.token)
    return Access(Expect(user=token.user), [path], secrets=[token.token])


def _token_file(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.second_admin
    token_file = ctx.directory / "token"
    token_file.write_text(token.token + "\n")  # client-go trims surrounding whitespace
    path = ctx.kubeconfig({"tokenFile": str(token_file)})
    return Access(Expect(user=token.user), [path], secrets=[token.token])


def _basic_auth(ctx: FormContext) -> Access:
    """kube-apiserver has no basic auth since 1.19: the request is anonymous, 403."""
    password = _marker("password")
    path = ctx.kubeconfig({"username": "admin", "password": password})
    expect = Expect(error=_forbidden_list_crds("system:anonymous"), user="system:anonymous")
    return Access(
        expect,
        [path],
        secrets=[password],
    )


def _exec_token(api_version: str, interactive_mode: str | None) -> Callable[[FormContext], Access]:
    def build(ctx: FormContext) -> Access:
        token = ctx.plane.tokens.admin
        user = exec_user(
            ctx,
            api_version=api_version,
            interactive_mode=interactive_mode,
            env={"KCRD_PLUGIN_TOKEN": token.token, "KCRD_PLUGIN_INTERACTIVE": "false"},
        )
        path = ctx.kubeconfig(user)
        return Access(
            Expect(user=token.user),
            [path],
            secrets=[token.token],
            checks=[check_plugin_calls(apiVersion=api_version, interactive=False)],
        )

    return build


def _exec_cert(ctx: FormContext) -> Access:
    pki = ctx.plane.pki
    user = exec_user(
        ctx, env={"KCRD_PLUGIN_CERT": str(pki.client_cert), "KCRD_PLUGIN_KEY": str(pki.client_key)}
    )
    path = ctx.kubeconfig(user)
    return Access(
        Expect(user=ADMIN_CERT_USER),
        [path],
        secrets=key_markers(pki.client_key),
        checks=[check_plugin_calls(apiVersion=EXEC_V1)],
    )


def _exec_expiring(ctx: FormContext) -> Access:
    """A credential valid for an hour is fetched once per process, however many requests."""
    admin = ctx.plane.tokens.admin
    user = exec_user(
        ctx,
        api_version=EXEC_V1BETA1,
        env={"KCRD_PLUGIN_TOKEN": admin.token, "KCRD_PLUGIN_EXPIRES_IN": "3600"},
    )
    path = ctx.kubeconfig(user)
    return Access(
        Expect(user=admin.user),
        [path],
        secrets=[admin.token],
        checks=[check_plugin_calls(count=1, apiVersion=EXEC_V1BETA1)],
    )


def _exec_relative_command(ctx: FormContext) -> Access:
    """``command: bin/kcrd-test-plugin`` is taken from the kubeconfig's directory, not
    the working directory (client-go's ResolveLocalPaths)."""
    token = ctx.plane.tokens.admin
    user = exec_user(ctx, command="bin/kcrd-test-plugin", env={"KCRD_PLUGIN_TOKEN": token.token})
    path = ctx.kubeconfig(user)
    elsewhere = ctx.directory / "elsewhere"
    elsewhere.mkdir()
    return Access(
        Expect(user=token.user),
        [path],
        cwd=elsewhere,
        secrets=[token.token],
        checks=[check_plugin_calls(cwd=str(elsewhere))],
    )


def _exec_cluster_info(ctx: FormContext) -> Access:
    """``provideClusterInfo``, ``args`` and ``env`` reach the plugin as client-go passes them."""
    token = ctx.plane.tokens.admin
    args = ["get-token", "--cluster=marker one"]
    user = exec_user(
        ctx,
        env={
            "KCRD_PLUGIN_TOKEN": token.token,
            "KCRD_PLUGIN_ARGS": json.dumps(args),
            "KCRD_PLUGIN_CLUSTER_SERVER": ctx.plane.server,
        },
        args=args,
        provideClusterInfo=True,
    )
    cluster = verified_cluster(
        ctx.plane,
        extensions=[
            {
                "name": "client.authentication.k8s.io/exec",
                "extension": {"marker": "extension-config"},
            }
        ],
    )
    path = ctx.kubeconfig(user, cluster=cluster)
    return Access(
        Expect(user=token.user),
        [path],
        secrets=[token.token],
        checks=[check_plugin_calls(argv=args)],
    )


def _exec_interactive(mode: str, *, interactive: bool) -> Callable[[FormContext], Access]:
    """On a terminal, ``Never`` hides stdin from the plugin and says so in
    ``spec.interactive``; ``IfAvailable`` hands the terminal over."""

    def build(ctx: FormContext) -> Access:
        token = ctx.plane.tokens.admin
        user = exec_user(
            ctx,
            interactive_mode=mode,
            env={
                "KCRD_PLUGIN_TOKEN": token.token,
                "KCRD_PLUGIN_INTERACTIVE": "true" if interactive else "false",
            },
        )
        path = ctx.kubeconfig(user)
        return Access(
            Expect(user=token.user),
            [path],
            tty_stdin=True,
            secrets=[token.token],
            checks=[check_plugin_calls(interactive=interactive, stdin_tty=interactive)],
        )

    return build


def _exec_always_without_terminal(ctx: FormContext) -> Access:
    user = exec_user(ctx, interactive_mode="Always", env={"KCRD_PLUGIN_TOKEN": "never-used"})
    path = ctx.kubeconfig(user)
    error = re.escape(
        "Unable to connect to the server: getting credentials: exec plugin cannot support "
        "interactive mode: standard input is not a terminal"
    )
    return Access(
        Expect(error=error, no_requests=True),
        [path],
        checks=[check_plugin_calls(count=0, at_least=0)],
    )


def _exec_undecodable_expiry(ctx: FormContext) -> Access:
    """An ``expirationTimestamp`` Go's RFC 3339 parse refuses (a date alone; Python's
    ``fromisoformat`` takes it): client-go fails decoding the plugin's output, before any
    request, with ``time.Parse``'s text; the token is never used."""
    unused = _marker("undecodable-expiry-token")
    status = {"token": unused, "expirationTimestamp": "2026-01-01"}
    user = exec_user(ctx, env={"KCRD_PLUGIN_STATUS": json.dumps(status)})
    path = ctx.kubeconfig(user)
    error = re.escape(
        "Unable to connect to the server: getting credentials: decoding stdout: parsing time "
        '"2026-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'
    )
    return Access(Expect(error=error, no_requests=True), [path], secrets=[unused])


def _exec_yaml_output(ctx: FormContext) -> Access:
    """The plugin prints its ExecCredential as YAML: client-go's universal decoder reads
    anything that does not start with ``{`` as YAML (sigs.k8s.io/yaml), so the token is
    used; an unquoted expirationTimestamp stays the text go-yaml v2 read."""
    token = ctx.plane.tokens.admin
    user = exec_user(
        ctx, env={"KCRD_PLUGIN_TOKEN": token.token, "KCRD_PLUGIN_YAML": "1",
                  "KCRD_PLUGIN_EXPIRES_IN": "3600"},
    )  # fmt: skip
    path = ctx.kubeconfig(user)
    return Access(Expect(user=token.user), [path], secrets=[token.token])


def _exec_broken_json(ctx: FormContext) -> Access:
    """The plugin's JSON has a trailing comma: encoding/json's scanner text."""
    unused = _marker("broken-json-token")
    edit = json.dumps(['"}}', '",}}'])
    user = exec_user(ctx, env={"KCRD_PLUGIN_TOKEN": unused, "KCRD_PLUGIN_OUTPUT_EDIT": edit})
    path = ctx.kubeconfig(user)
    error = re.escape(
        "Unable to connect to the server: getting credentials: decoding stdout: couldn't get "
        "version/kind; json parse error: invalid character '}' looking for beginning of "
        "object key string"
    )
    return Access(Expect(error=error, no_requests=True), [path], secrets=[unused])


def _exec_warning_before_json(ctx: FormContext) -> Access:
    """A line printed to stdout before the JSON (a plugin's warning): the output no
    longer starts with ``{``, so it is read as YAML, and go-yaml refuses it at the
    JSON's line."""
    unused = _marker("warned-token")
    user = exec_user(
        ctx, env={"KCRD_PLUGIN_TOKEN": unused, "KCRD_PLUGIN_PREFIX": "Warning: cached: yes\n"}
    )
    path = ctx.kubeconfig(user)
    error = re.escape(
        "Unable to connect to the server: getting credentials: decoding stdout: yaml: "
        "mapping values are not allowed in this context"
    )
    return Access(Expect(error=error, no_requests=True), [path], secrets=[unused])


def _exec_v1_without_interactive_mode(ctx: FormContext) -> Access:
    user = exec_user(ctx, interactive_mode=None, env={"KCRD_PLUGIN_TOKEN": "never-used"})
    path = ctx.kubeconfig(user)
    # client-go's clientcmd validation names the kubeconfig user ("access" here).
    error = re.escape(
        "error: interactiveMode must be specified for access to use exec authentication plugin"
    )
    return Access(
        Expect(error=error, no_requests=True),
        [path],
        checks=[check_plugin_calls(count=0, at_least=0)],
    )


def _exec_rejected_token(ctx: FormContext) -> Access:
    """The plugin's first token is rejected (401): client-go runs the plugin again for the
    next request (exec.go, on an Unauthorized response) but does not repeat the failed
    one, so kubectl fails with the 401 and the plugin has run twice."""
    rejected = _marker("rejected-exec-token")
    token = ctx.plane.tokens.admin
    user = exec_user(
        ctx, env={"KCRD_PLUGIN_TOKEN": token.token, "KCRD_PLUGIN_FIRST_TOKEN": rejected}
    )
    path = ctx.kubeconfig(user)
    error = re.escape("error: You must be logged in to the server (Unauthorized)")
    return Access(
        Expect(error=error),
        [path],
        secrets=[rejected, token.token],
        checks=[check_plugin_calls(count=2)],
    )


def _exec_fails(ctx: FormContext) -> Access:
    """Exit 1 with a message: both tools show it and fail; neither goes on anonymously."""
    leaked = _marker("failed-exec-token")
    message = f"kcrd-test-plugin: no credentials for you ({_marker('message')[-8:]})"
    user = exec_user(
        ctx,
        env={"KCRD_PLUGIN_TOKEN": leaked, "KCRD_PLUGIN_FAIL": message},
        installHint="kcrd-install-hint: shown only when the plugin is not found",
    )
    path = ctx.kubeconfig(user)
    plugin = ctx.directory / "bin" / "kcrd-test-plugin"
    error = re.escape(
        f"Unable to connect to the server: getting credentials: exec: executable {plugin} "
        "failed with exit code 1"
    )

    def shows_plugin_stderr(run: Run) -> list[str]:
        return [] if message in run.stderr else [f"the plugin's stderr {message!r} is not shown"]

    return Access(
        Expect(error=error, no_requests=True),
        [path],
        secrets=[leaked],
        plugin_stderr=message,
        checks=[check_plugin_calls(), shows_plugin_stderr],
    )


def _exec_not_found(ctx: FormContext) -> Access:
    """A plugin that is not installed: client-go's text and the kubeconfig's installHint."""
    hint = "kcrd-install-hint: pip install kcrd-test-plugin"
    user = exec_user(ctx, command="kcrd-test-plugin-not-installed", installHint=hint)
    path = ctx.kubeconfig(user)
    # client-go plugin/pkg/client/auth/exec/exec.go: the not-found text and the hint.
    error = re.escape(
        "Unable to connect to the server: getting credentials: exec: executable "
        "kcrd-test-plugin-not-installed not found\n\n"
        "It looks like you are trying to use a client-go credential plugin that is not "
        "installed.\n\n"
        "To learn more about this feature, consult the documentation available at:\n"
        "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
        "#client-go-credential-plugins\n\n"
        f"{hint}"
    )
    return Access(Expect(error=error, no_requests=True), [path])


def _insecure_without_ca(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.admin
    cluster = {"server": ctx.plane.server, "insecure-skip-tls-verify": True}
    path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
    # Success means empty stderr: no InsecureRequestWarning, as kubectl prints none.
    return Access(Expect(user=token.user), [path], secrets=[token.token])


def _tls_server_name(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.admin
    cluster = verified_cluster(ctx.plane, **{"tls-server-name": SERVER_DNS_NAME})
    path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
    return Access(Expect(user=token.user), [path], secrets=[token.token])


def _tls_server_name_wrong(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.admin
    cluster = verified_cluster(ctx.plane, **{"tls-server-name": WRONG_SERVER_NAME})
    path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
    expect = Expect(
        error=_UNABLE_TO_CONNECT
        + re.escape(
            "tls: failed to verify certificate: x509: certificate is valid for localhost, "
            f"{SERVER_DNS_NAME}, not {WRONG_SERVER_NAME}"
        ),
        no_requests=True,
    )
    return Access(expect, [path], secrets=[token.token])


def _unknown_authority(ctx: FormContext) -> Access:
    """No CA in the kubeconfig: the system roots do not know the test CA."""
    token = ctx.plane.tokens.admin
    cluster = {"server": ctx.plane.server}
    path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
    expect = Expect(
        error=_UNABLE_TO_CONNECT
        + re.escape(
            "tls: failed to verify certificate: x509: certificate signed by unknown authority"
        ),
        no_requests=True,
    )
    return Access(expect, [path], secrets=[token.token])


def _proxy_url(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.admin
    target = f"{SERVER_DNS_NAME}:{ctx.plane.port}"
    cluster = verified_cluster(
        ctx.plane, server=f"https://{target}", **{"proxy-url": ctx.proxy.url}
    )
    path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
    return Access(
        Expect(user=token.user), [path], secrets=[token.token], checks=[check_proxied(target)]
    )


def _proxy_environment(variable: str) -> Callable[[FormContext], Access]:
    """``HTTPS_PROXY`` / ``https_proxy``: the server's name resolves only in the proxy."""

    def build(ctx: FormContext) -> Access:
        token = ctx.plane.tokens.admin
        target = f"{SERVER_DNS_NAME}:{ctx.plane.port}"
        cluster = verified_cluster(ctx.plane, server=f"https://{target}")
        path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
        return Access(
            Expect(user=token.user),
            [path],
            env={variable: ctx.proxy.url},
            secrets=[token.token],
            checks=[check_proxied(target)],
        )

    return build


def _two_files(ctx: FormContext, *, context: str | None = None) -> Access:
    """Two kubeconfig files that disagree: client-go takes the first file's
    current-context and the first definition of each cluster, user and context name
    (client-go tools/clientcmd/loader.go, "first file to set it wins")."""
    plane = ctx.plane
    invalid = _marker("second-file-token")
    first = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "first",
        "clusters": [{"name": "shared", "cluster": verified_cluster(plane)}],
        "users": [{"name": "shared", "user": {"token": plane.tokens.admin.token}}],
        "contexts": [{"name": "first", "context": {"cluster": "shared", "user": "shared"}}],
    }
    refused = f"https://127.0.0.1:{_refused_port()}"
    second = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "second",
        "clusters": [{"name": "shared", "cluster": verified_cluster(plane, server=refused)}],
        "users": [
            {"name": "shared", "user": {"token": invalid}},
            {"name": "other", "user": {"token": plane.tokens.no_rights.token}},
        ],
        "contexts": [
            {"name": "second", "context": {"cluster": "shared", "user": "other"}},
            {"name": "first", "context": {"cluster": "nowhere", "user": "nobody"}},
        ],
    }
    paths = [
        write_kubeconfig(ctx.directory / "a" / "config", first),
        write_kubeconfig(ctx.directory / "b" / "config", second),
    ]
    secrets = [plane.tokens.admin.token, plane.tokens.no_rights.token, invalid]
    args = (f"--context={context}",) if context else ()
    return Access(Expect(), paths, args=args, secrets=secrets)


def _kubeconfig_list(ctx: FormContext) -> Access:
    access = _two_files(ctx)
    access.expect = Expect(user=ctx.plane.tokens.admin.user)
    return access


def _kubeconfig_list_second_context(ctx: FormContext) -> Access:
    """``--context second``: a context only the second file has, with the second file's
    user ``other`` and the first file's cluster ``shared``."""
    access = _two_files(ctx, context="second")
    user = ctx.plane.tokens.no_rights.user
    access.expect = Expect(error=_forbidden_list_crds(user), user=user)
    return access


def _wrong_context(ctx: FormContext) -> Access:
    path = token_kubeconfig(ctx.plane, ctx.directory / "kubeconfig")
    error = re.escape(
        "Error in configuration: context was not found for specified context: kcrd-no-such-context"
    )
    return Access(
        Expect(error=error, no_requests=True),
        [path],
        args=("--context=kcrd-no-such-context",),
        secrets=[ctx.plane.tokens.admin.token],
    )


def _invalid_token(ctx: FormContext) -> Access:
    token = _marker("invalid-token")
    path = token_kubeconfig(ctx.plane, ctx.directory / "kubeconfig", token)
    error = re.escape("error: You must be logged in to the server (Unauthorized)")
    return Access(Expect(error=error), [path], secrets=[token])


def _forbidden_list_crds(user: str) -> str:
    return re.escape(
        "Error from server (Forbidden): customresourcedefinitions.apiextensions.k8s.io is "
        f'forbidden: User "{user}" cannot list resource "customresourcedefinitions" in API '
        'group "apiextensions.k8s.io" at the cluster scope'
    )


def _rbac_denied_token(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.no_rights
    path = token_kubeconfig(ctx.plane, ctx.directory / "kubeconfig", token.token)
    return Access(
        Expect(error=_forbidden_list_crds(NO_RIGHTS_USER), user=NO_RIGHTS_USER),
        [path],
        secrets=[token.token],
    )


def _rbac_denied_cert(ctx: FormContext) -> Access:
    pki = ctx.plane.pki
    user = {
        "client-certificate-data": _b64(pki.no_rights_cert.read_bytes()),
        "client-key-data": _b64(pki.no_rights_key.read_bytes()),
    }
    path = ctx.kubeconfig(user)
    return Access(
        Expect(error=_forbidden_list_crds(NO_RIGHTS_USER), user=NO_RIGHTS_USER),
        [path],
        secrets=key_markers(pki.no_rights_key),
    )


def _impersonation(ctx: FormContext) -> Access:
    """``as``: an admin acting as the user without rights is refused as that user."""
    token = ctx.plane.tokens.admin
    user = {"token": token.token, "as": NO_RIGHTS_USER, "as-groups": ["kcrd-group"]}
    path = ctx.kubeconfig(user)
    return Access(
        Expect(error=_forbidden_list_crds(NO_RIGHTS_USER), user=NO_RIGHTS_USER),
        [path],
        secrets=[token.token],
    )


def _refused_port() -> int:
    """A loopback port nothing listens on (bound and released: the kernel will not hand
    it out again soon)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unreachable(ctx: FormContext) -> Access:
    token = ctx.plane.tokens.admin
    port = _refused_port()
    cluster = verified_cluster(ctx.plane, server=f"https://127.0.0.1:{port}")
    path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
    error = re.escape(
        f"The connection to the server 127.0.0.1:{port} was refused - did you specify the "
        "right host or port?"
    )
    return Access(Expect(error=error, no_requests=True), [path], secrets=[token.token])


def _request_timeout(ctx: FormContext) -> Access:
    """``--request-timeout=1s`` against a server that never answers."""
    token = ctx.plane.tokens.admin
    cluster = verified_cluster(ctx.plane, server=ctx.unresponsive_server())
    path = ctx.kubeconfig({"token": token.token}, cluster=cluster)
    expect = Expect(
        # Go's text depends on the phase the deadline hits, which varies run to run:
        # net/http adds " (Client.Timeout exceeded while awaiting headers)" to the
        # context's error when the deadline hits while it waits for the headers.
        error=_UNABLE_TO_CONNECT
        + "("
        + re.escape("context deadline exceeded")
        + "|"
        + re.escape("context deadline exceeded (Client.Timeout exceeded while awaiting headers)")
        + "|"
        + re.escape(
            "net/http: request canceled while waiting for connection "
            "(Client.Timeout exceeded while awaiting headers)"
        )
        + ")",
        no_requests=True,
        # ours: the handshake the server never answers is waited for until the request's
        # timeout, then net/http's words for that phase (transport.CanceledWhileConnecting)
        ours_error=_UNABLE_TO_CONNECT
        + re.escape(
            "net/http: request canceled while waiting for connection "
            "(Client.Timeout exceeded while awaiting headers)"
        ),
        why_different="kubectl's last discovery attempt decides its text, and that varies "
        "run to run ('context deadline exceeded' when it waits on a dial an earlier attempt "
        "started); ours is one request, which gives up waiting for its connection",
    )
    return Access(expect, [path], args=("--request-timeout=1s",), secrets=[token.token])


def _home_kube_config(ctx: FormContext) -> Access:
    """No KUBECONFIG: ``$HOME/.kube/config``."""
    token = ctx.plane.tokens.admin
    path = token_kubeconfig(ctx.plane, ctx.directory / "kubeconfig", token.token)
    return Access(Expect(user=token.user), [path], in_home=True, secrets=[token.token])


def _relative_paths(ctx: FormContext) -> Access:
    """Relative certificate, key and CA paths are taken from the kubeconfig's directory
    (client-go ResolveLocalPaths), whatever the working directory."""
    pki = ctx.plane.pki
    certs = ctx.directory / "config" / "certs"
    certs.mkdir(parents=True)
    for source, name in ((pki.client_cert, "admin.crt"), (pki.client_key, "admin.key"),
                         (pki.ca_cert, "ca.crt")):  # fmt: skip
        shutil.copyfile(source, certs / name)
    cluster = {"server": ctx.plane.server, "certificate-authority": "certs/ca.crt"}
    user = {"client-certificate": "certs/admin.crt", "client-key": "./certs/admin.key"}
    path = write_kubeconfig(
        ctx.directory / "config" / "kubeconfig", kubeconfig_document(cluster=cluster, user=user)
    )
    elsewhere = ctx.directory / "elsewhere"
    elsewhere.mkdir()
    return Access(
        Expect(user=ADMIN_CERT_USER), [path], cwd=elsewhere, secrets=key_markers(pki.client_key)
    )


def _kubeconfig_flag_over_variable(ctx: FormContext) -> Access:
    """``--kubeconfig`` wins over KUBECONFIG (which points at a server that refuses)."""
    token = ctx.plane.tokens.admin
    good = token_kubeconfig(ctx.plane, ctx.directory / "good", token.token)
    refused = verified_cluster(ctx.plane, server=f"https://127.0.0.1:{_refused_port()}")
    bad = token_kubeconfig(ctx.plane, ctx.directory / "bad", cluster=refused)
    return Access(
        Expect(user=token.user), [bad], args=(f"--kubeconfig={good}",), secrets=[token.token]
    )


def _kubeconfig_flag_missing_file(ctx: FormContext) -> Access:
    missing = ctx.directory / "no-such-kubeconfig"
    error = re.escape(f"error: stat {missing}: no such file or directory")
    return Access(Expect(error=error, no_requests=True), [], args=(f"--kubeconfig={missing}",))


def _no_kubeconfig_at_all(ctx: FormContext) -> Access:
    """KUBECONFIG names a file that does not exist (skipped, as client-go does) and
    ``$HOME/.kube/config`` is absent: kubectl falls back to http://localhost:8080."""
    error = re.escape(
        "The connection to the server localhost:8080 was refused - did you specify the "
        "right host or port?"
    )
    return Access(Expect(error=error, no_requests=True), [ctx.directory / "absent"])


def _kubeconfig_invalid_yaml(ctx: FormContext) -> Access:
    path = ctx.directory / "kubeconfig"
    path.write_text("apiVersion: v1\nclusters: [\n")
    # go-yaml's line: a parser error's 0-based line (kube.clientdecode)
    error = re.escape(
        f'error: error loading config file "{path}": yaml: line 2: did not find expected '
        "node content"
    )
    return Access(Expect(error=error, no_requests=True), [], args=(f"--kubeconfig={path}",))


FORMS: list[Form] = [
    Form("client-cert-files", _cert_files),
    Form("client-cert-data", _cert_data),
    Form("token", _token),
    Form("token-file", _token_file),
    Form("basic-auth-is-anonymous", _basic_auth),
    Form("exec-v1-token", _exec_token(EXEC_V1, "Never")),
    Form("exec-v1beta1-token", _exec_token(EXEC_V1BETA1, None)),
    Form("exec-v1-client-cert", _exec_cert),
    Form("exec-expiring-token", _exec_expiring),
    Form("exec-relative-command", _exec_relative_command),
    Form("exec-cluster-info-args-env", _exec_cluster_info),
    Form("exec-never-on-terminal", _exec_interactive("Never", interactive=False)),
    Form("exec-if-available-on-terminal", _exec_interactive("IfAvailable", interactive=True)),
    Form("exec-always-without-terminal", _exec_always_without_terminal),
    Form("exec-v1-without-interactive-mode", _exec_v1_without_interactive_mode),
    Form("exec-undecodable-expiry", _exec_undecodable_expiry),
    Form("exec-yaml-output", _exec_yaml_output),
    Form("exec-broken-json", _exec_broken_json),
    Form("exec-warning-before-json", _exec_warning_before_json),
    Form("exec-token-rejected-401", _exec_rejected_token),
    Form("exec-fails", _exec_fails),
    Form("exec-not-found-install-hint", _exec_not_found),
    Form("insecure-skip-tls-verify-without-ca", _insecure_without_ca),
    Form("tls-server-name", _tls_server_name),
    Form("tls-server-name-wrong", _tls_server_name_wrong),
    Form("unknown-certificate-authority", _unknown_authority),
    Form("proxy-url", _proxy_url),
    Form("https-proxy-variable", _proxy_environment("HTTPS_PROXY")),
    Form("https-proxy-variable-lowercase", _proxy_environment("https_proxy")),
    Form("home-kube-config", _home_kube_config),
    Form("relative-paths-in-kubeconfig", _relative_paths),
    Form("kubeconfig-flag-over-variable", _kubeconfig_flag_over_variable),
    Form("kubeconfig-flag-missing-file", _kubeconfig_flag_missing_file),
    Form("kubeconfig-invalid-yaml", _kubeconfig_invalid_yaml),
    Form("no-kubeconfig-at-all", _no_kubeconfig_at_all),
    Form("kubeconfig-list-first-wins", _kubeconfig_list),
    Form("kubeconfig-list-context-from-second", _kubeconfig_list_second_context),
    Form("wrong-context", _wrong_context),
    Form("invalid-token-401", _invalid_token),
    Form("rbac-denied-token-403", _rbac_denied_token),
    Form("rbac-denied-client-cert-403", _rbac_denied_cert),
    Form("impersonation-403", _impersonation),
    Form("unreachable-server", _unreachable),
    Form("request-timeout-unresponsive-server", _request_timeout),
]


# --------------------------------------------------------------------------------------
# running


#: Variables of the caller that would change what either tool does.
_DROPPED_ENV = (
    "KUBECONFIG",
    "KUBECTL_CRD_DEBUG",
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "NO_PROXY",
    "no_proxy",
    "ALL_PROXY",
    "all_proxy",
)


def warm_kubectl_cache(plane: ControlPlane, directory: Path) -> Path:
    """A kubectl cache directory holding the server's discovery, as a user's has.

    With a cold cache kubectl reads discovery before anything else, and client-go's
    discovery words its errors differently from the request's own (a 401 reads "the
    server has asked for the client to provide credentials", a 403 "unknown"); with
    discovery cached, kubectl's error is the one its resource request got, the same
    request kubectl-crd makes. (A ``resource.group`` argument makes kubectl 1.33 read
    discovery again even when cached, hence ``get customresourcedefinitions``.)
    """
    cache = directory / "kubectl-cache"
    for command in LIVE_COMMANDS:
        for args in (command.kubectl, command.kubectl_same_request):
            # The same kubectl binary as the runs: plane.kubectl() may be another version.
            subprocess.run(
                [KUBECTL, f"--kubeconfig={plane.kubeconfig}", f"--cache-dir={cache}", *args],
                capture_output=True,
                check=True,
                timeout=60,
            )
    return cache


def tool_env(access: Access, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED_ENV}
    env["HOME"] = str(home)  # never the developer's ~/.kube/config
    if access.in_home:
        default = home / ".kube" / "config"
        default.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(access.kubeconfigs[0], default)
    else:
        env["KUBECONFIG"] = os.pathsep.join(str(path) for path in access.kubeconfigs)
    env["KUBECTL_CRD_CACHE_DIR"] = str(home / "kubectl-crd-cache")
    env.update(access.env)
    return env


def run_tool(
    tool: str,
    args: Sequence[str],
    access: Access,
    ctx: FormContext,
    *,
    timeout: float = 60,
) -> Run:
    """Run ``kubectl`` or ``kubectl-crd`` with ``args`` and the form; record what happened."""
    home = ctx.directory / f"home-{tool}"
    home.mkdir(exist_ok=True)
    if tool == "kubectl":
        argv = [KUBECTL, f"--cache-dir={ctx.kubectl_cache}", *access.args, *args]
    else:
        argv = [*KUBECTL_CRD, *access.args, *args]
    mark = ctx.plane.audit_mark()
    connects_before = len(ctx.proxy.connects)
    calls_before = len(plugin_calls(ctx.plugin_log))
    stdin: int = subprocess.DEVNULL
    terminal: tuple[int, int] | None = None
    if access.tty_stdin:
        terminal = pty.openpty()
        stdin = terminal[1]
    try:
        proc = subprocess.run(
            argv,
            stdin=stdin,
            capture_output=True,
            text=True,
            env=tool_env(access, home),
            cwd=access.cwd or ctx.directory,
            timeout=timeout,
            check=False,
        )
    finally:
        if terminal is not None:
            for fd in terminal:
                os.close(fd)
    events = [
        event
        for event in ctx.plane.audit_events(mark)
        if (event.get("user") or {}).get("username") != "system:apiserver"
    ]
    return Run(
        tool=tool,
        argv=argv,
        returncode=proc.returncode,
        stdout=proc.stdout,
        stderr=proc.stderr,
        events=events,
        connects=ctx.proxy.connects[connects_before:],
        plugin_calls=plugin_calls(ctx.plugin_log)[calls_before:],
    )


def expectation_problems(run: Run, access: Access, *, error_pattern: str | None) -> list[str]:
    """How a run misses the form's expectation (``error_pattern`` for its error text)."""
    expect = access.expect
    problems: list[str] = []
    if expect.ok:
        if run.returncode != 0:
            problems.append(f"exit {run.returncode}, expected success")
        if run.stderr.strip():
            problems.append(f"stderr not empty: {run.stderr.strip()[:500]!r}")
    else:
        if run.returncode == 0:
            problems.append("exit 0, expected a failure")
        text = run.error_text(access.plugin_stderr)
        if error_pattern is not None and not re.fullmatch(error_pattern, text, re.DOTALL):
            problems.append(f"error text {text!r} does not match {error_pattern!r}")
    if expect.no_requests and run.events:
        problems.append(
            "requests were made: "
            + ", ".join(f"{_user_of(e)} {e.get('verb')} {e.get('requestURI')}" for e in run.events)
        )
    if expect.user is not None:
        if not run.events:
            problems.append("no request reached the server")
        users = {_user_of(event) for event in run.events}
        if users != {expect.user}:
            problems.append(f"requests made as {sorted(map(str, users))}, expected {expect.user}")
    if (
        any(_user_of(e) == "system:anonymous" for e in run.events)
        and expect.user != "system:anonymous"
    ):
        problems.append("an anonymous request was made")
    for check in access.checks:
        problems.extend(check(run))
    return problems


def leaked_secrets(run: Run, secrets: Sequence[str]) -> list[str]:
    """The marker secrets that appear in a run's stdout or stderr."""
    output = run.stdout + run.stderr
    return [secret for secret in secrets if secret in output]
