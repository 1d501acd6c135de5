"""A real etcd and kube-apiserver for the integration tests, started the way envtest does.

This mirrors controller-runtime's ``pkg/envtest`` (``pkg/internal/testing/controlplane``):
loopback only, free ports, a temporary data and certificate directory, and envtest's
kube-apiserver flags. Unlike envtest we also make a small PKI with the ``openssl`` CLI
(a CA, a serving certificate for 127.0.0.1, ``localhost`` and ``kubernetes.test.local``,
a client certificate for a user in ``system:masters`` and one for a user without RBAC
rights) so that the real ``kubectl`` and our client talk to the server over verified
TLS as a cluster admin. The server also authenticates bearer tokens from a static
token file (``ControlPlane.tokens``: two admins and a user without rights), and writes
an audit log (``audit_mark()`` / ``audit_events()``), so that tests can run every
kubeconfig form and see which user each request was made as.

What it promises:

- ``ensure_assets()`` runs ``hack/envtest-assets.sh`` (which honours
  ``KUBEBUILDER_ASSETS`` and builds into a cache outside the repository) and returns the
  directory from its last stdout line.
- ``ControlPlane.start()`` returns only when ``/readyz`` answers 200, or raises
  ``EnvtestError`` with the tail of both logs.
- Processes never outlive the test run: started as the product's ``dev --envtest``
  starts them (``kubectl_crd.reconcile.controlplane``: the same etcd and envtest flags,
  process handling and readiness wait), each runs in its own session with
  ``PR_SET_PDEATHSIG`` = SIGKILL (Linux), so even a SIGKILLed pytest takes them along;
  ``stop()`` (kube-apiserver first, then etcd) also runs from ``atexit`` and from a
  SIGTERM/SIGHUP handler as a backstop.
- ``ControlPlane(apiserver_args=[...])`` adds kube-apiserver flags (a short
  ``--etcd-compaction-interval`` for a test of 410 Gone); ``stop_apiserver()`` and
  ``start_apiserver()`` restart kube-apiserver alone, on the same port, certificates and
  etcd; ``extra_apiserver()`` runs a second kube-apiserver on the same etcd (an HA
  control plane's other member), with a kubeconfig of its own.

No third-party imports (the product module it shares is stdlib-only): the tests must be
able to report a broken environment clearly.
"""

from __future__ import annotations

import atexit
import base64
import http.client
import json
import os
import secrets
import shutil
import signal
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from kubectl_crd.reconcile.controlplane import (
    EXITED,
    LATE,
    PORT_TAKEN,
    Process,
    _listening,
    apiserver_argv,
    etcd_argv,
    etcd_healthy,
    free_ports,
    spawn,
    wait_ready,
)

REPO_ROOT = Path(__file__).resolve().parents[2]

#: The environment of the short-lived Go tools the tests run, kubectl above all (the
#: differentials start thousands of kubectl processes): no garbage collection below
#: GOMEMLIMIT. Measured on kubectl 1.33 explaining corpus CRDs: 94-101 ms of CPU per
#: process against 126 ms with Go's default GC, peak RSS 57-163 MiB against 52-68.
#: tests/conftest.py puts it into ``os.environ``; the control planes' etcd and
#: kube-apiserver, long-lived, run without it (``server_environment``).
GO_TOOL_ENVIRONMENT = {"GOGC": "off", "GOMEMLIMIT": "1GiB"}


def server_environment() -> dict[str, str]:
    """``os.environ`` without the entries of ``GO_TOOL_ENVIRONMENT`` that hold its
    values (one a user set otherwise is theirs, and kept)."""
    return {
        key: value for key, value in os.environ.items() if GO_TOOL_ENVIRONMENT.get(key) != value
    }


ASSETS_SCRIPT = REPO_ROOT / "hack" / "envtest-assets.sh"

#: controller-runtime uses 20 s; a cold kube-apiserver on a 2-core CI runner needs more.
DEFAULT_START_TIMEOUT = float(os.environ.get("KUBECTL_CRD_ENVTEST_START_TIMEOUT", "60"))
DEFAULT_STOP_TIMEOUT = 20.0
#: Keep the temporary directory (logs, PKI, etcd data) after a clean stop.
KEEP_ENV = "KUBECTL_CRD_ENVTEST_KEEP"
FIELD_MANAGER = "kubectl-crd-tests"
#: A second name in the serving certificate: it resolves nowhere, so a kubeconfig whose
#: server uses it works only through a proxy that maps it to 127.0.0.1, or with
#: ``tls-server-name`` set to it while the server is 127.0.0.1.
SERVER_DNS_NAME = "kubernetes.test.local"
#: Users the static token file and the client certificates authenticate.
ADMIN_GROUP = "system:masters"
NO_RIGHTS_USER = "kubectl-crd-envtest-nobody"
CRD_RESOURCE = "customresourcedefinition.apiextensions.k8s.io"


class EnvtestError(RuntimeError):
    """The test control plane could not be made or started."""


class AssetsUnavailable(EnvtestError):
    """``hack/envtest-assets.sh`` could not provide kube-apiserver and etcd."""


class KubectlError(subprocess.CalledProcessError):
    """A kubectl call failed, or timed out (then ``timeout`` is set and ``returncode`` is
    None); unlike ``CalledProcessError`` the message shows stderr."""

    def __init__(
        self,
        returncode: int | None,
        cmd: Sequence[str],
        stdout: str,
        stderr: str,
        timeout: float | None = None,
    ) -> None:
        super().__init__(returncode, cmd, stdout, stderr)  # type: ignore[arg-type]
        self.timeout = timeout

    def __str__(self) -> str:
        if self.timeout is not None:
            return f"{_short_command(self.cmd)} did not finish within {self.timeout:.0f} s"
        output = _tail(self.stderr or self.stdout or "")
        return f"{_short_command(self.cmd)} exited {self.returncode}:\n{output}"


def _short_command(cmd: Sequence[str], limit: int = 16) -> str:
    """A command line for messages: an apply of 236 files is 20 KB long."""
    parts = [str(part) for part in cmd]
    more = f" ... ({len(parts) - limit} more arguments)" if len(parts) > limit else ""
    return " ".join(parts[:limit]) + more


def ensure_assets(script: Path = ASSETS_SCRIPT) -> Path:
    """Return the directory holding ``kube-apiserver`` and ``etcd``, building them if needed."""
    try:
        proc = subprocess.run(
            ["bash", str(script)], capture_output=True, text=True, check=False, timeout=3600
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AssetsUnavailable(f"{script} could not run: {exc}") from exc
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise AssetsUnavailable(
            f"{script} exited {proc.returncode} without an assets directory:\n{_tail(proc.stderr)}"
        )
    assets = Path(lines[-1])
    missing = [b for b in ("kube-apiserver", "etcd") if not os.access(assets / b, os.X_OK)]
    if missing:
        raise AssetsUnavailable(f"{script} printed {assets}, which lacks {', '.join(missing)}")
    return assets


def newest_kubectl() -> str:
    """The kubectl the differential tests compare with.

    ``$KUBECTL_CRD_EXPLAIN_KUBECTL``, else the highest ``kubectl.1.N`` next to the real
    kubectl binary (the Cloud SDK installs several; plain ``kubectl`` is a dispatcher).
    """
    chosen = os.environ.get("KUBECTL_CRD_EXPLAIN_KUBECTL")
    if chosen:
        return chosen
    found = shutil.which("kubectl")
    candidates: list[tuple[int, str]] = []
    if found:
        real = Path(found).resolve()
        for path in real.parent.glob("kubectl.1.*"):
            minor = path.name.rsplit(".", 1)[-1]
            if minor.isdigit() and os.access(path, os.X_OK):
                candidates.append((int(minor), str(path)))
    return max(candidates)[1] if candidates else (found or "kubectl")


# --------------------------------------------------------------------------------------
# processes that die with us


# etcd and kube-apiserver are started as the product's --envtest starts them
# (kubectl_crd.reconcile.controlplane: spawn, Process, wait_ready): each in its own
# session, so a terminal's Ctrl-C goes to pytest only and we stop them, and with
# PR_SET_PDEATHSIG, which fires when the *thread* that forked exits: start the control
# plane from a thread that lives as long as the test session (pytest's main thread does).


_running: set[ControlPlane] = set()
_backstop_lock = threading.Lock()
_backstop_installed = False


def _stop_all() -> None:
    for plane in list(_running):
        plane.stop()


def _install_backstop() -> None:
    """Stop every control plane at interpreter exit and on SIGTERM/SIGHUP.

    pytest turns Ctrl-C into KeyboardInterrupt and still tears fixtures down, but it
    dies on SIGTERM/SIGHUP without running them; SIGKILL is left to PR_SET_PDEATHSIG.
    """
    global _backstop_installed
    with _backstop_lock:
        if _backstop_installed:
            return
        _backstop_installed = True
    atexit.register(_stop_all)
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGHUP):
        previous = signal.getsignal(sig)

        def handler(signum: int, frame: FrameType | None, previous: Any = previous) -> None:
            _stop_all()
            if callable(previous):
                previous(signum, frame)
            elif previous != signal.SIG_IGN:
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)

        signal.signal(sig, handler)


# --------------------------------------------------------------------------------------
# PKI


_OPENSSL_CONFIG = """\
[req]
distinguished_name = dn
[dn]
[ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign,digitalSignature
subjectKeyIdentifier = hash
[server]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1,DNS:localhost,DNS:kubernetes.test.local
authorityKeyIdentifier = keyid
[client]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
"""


@dataclass(frozen=True)
class PKI:
    ca_cert: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    service_account_key: Path
    service_account_pub: Path
    #: A client certificate for ``NO_RIGHTS_USER``: authenticated, allowed nothing by RBAC
    #: beyond what every authenticated user may (discovery, OpenAPI).
    no_rights_cert: Path
    no_rights_key: Path


def make_pki(directory: Path) -> PKI:
    """A CA, a serving cert, an admin and a no-rights client cert, a service-account key.

    EC P-256 keys: generated in milliseconds, accepted by Go, kubectl and urllib3.
    """
    openssl = shutil.which("openssl")
    if openssl is None:
        raise EnvtestError("the openssl CLI is needed to make the test PKI and is not on PATH")
    directory.mkdir(parents=True, exist_ok=True)
    config = directory / "openssl.cnf"
    config.write_text(_OPENSSL_CONFIG)

    def run(*args: str) -> None:
        proc = subprocess.run(
            [openssl, *args], cwd=directory, capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            raise EnvtestError(f"openssl {' '.join(args)} failed:\n{_tail(proc.stderr)}")

    def key(name: str) -> Path:
        run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", name)
        return directory / name

    def signed(name: str, subject: str, extensions: str) -> tuple[Path, Path]:
        key_path = key(f"{name}.key")
        run("req", "-new", "-config", "openssl.cnf", "-key", key_path.name, "-subj", subject,
            "-out", f"{name}.csr")  # fmt: skip
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-set_serial", f"0x{secrets.token_hex(8)}", "-days", "7", "-sha256",
            "-extfile", "openssl.cnf", "-extensions", extensions, "-out", f"{name}.crt")  # fmt: skip
        return directory / f"{name}.crt", key_path

    key("ca.key")
    run("req", "-x509", "-new", "-config", "openssl.cnf", "-extensions", "ca", "-key", "ca.key",
        "-subj", "/CN=kubectl-crd-envtest-ca", "-days", "7", "-sha256", "-out", "ca.crt")  # fmt: skip
    server_cert, server_key = signed("apiserver", "/CN=kube-apiserver", "server")
    client_cert, client_key = signed(
        "admin", f"/O={ADMIN_GROUP}/CN=kubectl-crd-envtest-admin", "client"
    )
    no_rights_cert, no_rights_key = signed("nobody", f"/CN={NO_RIGHTS_USER}", "client")
    sa_key = key("sa.key")
    run("pkey", "-in", "sa.key", "-pubout", "-out", "sa.pub")
    return PKI(
        ca_cert=directory / "ca.crt",
        server_cert=server_cert,
        server_key=server_key,
        client_cert=client_cert,
        client_key=client_key,
        service_account_key=sa_key,
        service_account_pub=directory / "sa.pub",
        no_rights_cert=no_rights_cert,
        no_rights_key=no_rights_key,
    )


@dataclass(frozen=True)
class StaticToken:
    """One line of kube-apiserver's ``--token-auth-file``: token,user,uid,"group1,group2"."""

    token: str
    user: str
    groups: tuple[str, ...] = ()

    def csv_line(self) -> str:
        return f'{self.token},{self.user},{self.user}-uid,"{",".join(self.groups)}"'


@dataclass(frozen=True)
class StaticTokens:
    """The bearer tokens the control plane accepts, new random values for each one.

    Each token is also a marker secret: it must never appear in any output.
    """

    admin: StaticToken
    #: Another admin, so that a test can tell which of two tokens a request used.
    second_admin: StaticToken
    no_rights: StaticToken

    @classmethod
    def generate(cls) -> StaticTokens:
        def token(role: str) -> str:
            return f"kcrd-{role}-{secrets.token_hex(16)}"

        return cls(
            admin=StaticToken(token("admin"), "token-admin", (ADMIN_GROUP,)),
            second_admin=StaticToken(token("second-admin"), "token-second-admin", (ADMIN_GROUP,)),
            no_rights=StaticToken(token("nobody"), NO_RIGHTS_USER),
        )

    def all(self) -> tuple[StaticToken, ...]:
        return (self.admin, self.second_admin, self.no_rights)

    def write(self, path: Path) -> Path:
        path.write_text("".join(f"{t.csv_line()}\n" for t in self.all()))
        path.chmod(0o600)
        return path


#: Every request at Metadata level (who, what, when, the response code; no bodies), once
#: it completed: enough to tell which user a request was made as, and that none was
#: anonymous.
_AUDIT_POLICY = """\
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
"""


# --------------------------------------------------------------------------------------
# the control plane


def _tail(text: str, lines: int = 40, width: int = 400) -> str:
    """The last lines of a log or error, each cut short (kubectl can print an object
    of many megabytes on one line)."""
    kept = text.rstrip().splitlines()[-lines:]
    return "\n".join(line if len(line) <= width else line[:width] + " [...]" for line in kept)


def _text(output: str | bytes | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""


def _b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


class ControlPlane:
    """etcd plus kube-apiserver in a temporary directory, and a kubectl bound to them.

    The object handed to tests as the ``apiserver`` fixture: ``kubeconfig``, ``server``,
    ``context``, ``kubectl()``, ``install_crds()``, ``delete_crds()`` and ``env()``.
    """

    context = "envtest"

    def __init__(
        self,
        assets: Path,
        *,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        stop_timeout: float = DEFAULT_STOP_TIMEOUT,
        kubectl: str | None = None,
        apiserver_args: Sequence[str] = (),
    ) -> None:
        self.assets = assets
        self.apiserver_args = tuple(apiserver_args)
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.kubectl_binary = kubectl or os.environ.get("KUBECTL") or "kubectl"
        self.workdir = Path(tempfile.mkdtemp(prefix="kubectl-crd-envtest-"))
        self.kubeconfig = self.workdir / "kubeconfig"
        self.server = ""
        self.tokens = StaticTokens.generate()
        self.audit_log = self.workdir / "audit.log"
        self.startup_seconds = 0.0
        self._etcd: Process | None = None
        self._apiserver: Process | None = None
        self._extra: list[tuple[Process, str]] = []  # with its server URL
        self._etcd_url = ""
        self._pki: PKI | None = None
        # CRD name -> the file use_crds installed it from (install_crds and delete_crds forget)
        self._crd_files: dict[str, str] = {}

    @property
    def pki(self) -> PKI:
        """The CA, serving and client certificates (after ``start()``)."""
        if self._pki is None:
            raise EnvtestError("the control plane has not been started")
        return self._pki

    @property
    def port(self) -> int:
        return _port(self.server)

    def __enter__(self) -> ControlPlane:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"ControlPlane(server={self.server!r}, workdir={str(self.workdir)!r})"

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        began = time.monotonic()
        if shutil.which(self.kubectl_binary) is None:
            raise EnvtestError(f"kubectl ({self.kubectl_binary!r}) is not on PATH")
        _install_backstop()
        _running.add(self)
        try:
            self._pki = make_pki(self.workdir / "pki")
            for attempt in range(3):  # a port taken between free_ports() and bind()
                try:
                    self._start_processes(attempt)
                    break
                except _PortInUse:
                    self._stop_processes()
            else:
                raise EnvtestError("ports kept being taken; see logs in " + str(self.workdir))
        except BaseException:
            self.stop(keep=True)
            raise
        self.startup_seconds = time.monotonic() - began

    def stop(self, *, keep: bool = False) -> None:
        """Stop kube-apiserver, then etcd; remove the directory unless told to keep it."""
        self._stop_processes()
        _running.discard(self)
        if not keep and not os.environ.get(KEEP_ENV) and self.workdir.exists():
            shutil.rmtree(self.workdir, ignore_errors=True)

    def _stop_processes(self) -> None:
        # kube-apiserver closes its listener within milliseconds of SIGTERM but exits
        # only ~1.1 s later (its loopback client's idle HTTP/2 connection waits out the
        # server's 1 s GOAWAY timer; kubectl_crd/reconcile/controlplane.py's
        # LocalControlPlane._stop_processes measures and explains it). The plane is
        # being thrown away, so once nothing listens the rest is not waited for: SIGKILL
        # at once. That made each stop 1.13 s -> ~0.05 s; etcd still gets its SIGTERM.
        apiservers = [(proc, _port(url)) for proc, url in self._extra]
        if self._apiserver is not None:  # self.server is set before it is spawned
            apiservers.append((self._apiserver, self.port))
        for proc, port in apiservers:
            proc.stop(self.stop_timeout, enough=lambda port=port: not _listening(port))
        if self._etcd is not None:
            self._etcd.stop(self.stop_timeout)
        self._extra = []

    def stop_apiserver(self, grace: float | None = None) -> None:
        """Stop kube-apiserver alone: SIGTERM, then SIGKILL after ``grace`` seconds (an
        open watch holds a graceful shutdown for up to a minute); etcd keeps running."""
        if self._apiserver is not None:
            self._apiserver.stop(self.stop_timeout if grace is None else grace)

    def start_apiserver(self) -> None:
        """Start kube-apiserver again on the same port, certificates and etcd; returns
        when ``/readyz`` answers 200."""
        if self._apiserver is not None and self._apiserver.alive():
            raise EnvtestError("kube-apiserver is running")
        port = self.port
        deadline = time.monotonic() + self.start_timeout
        self._apiserver = spawn(
            "kube-apiserver",
            self._apiserver_argv(port, self.audit_log),
            str(self.workdir / "kube-apiserver.log"),
            env=server_environment(),
        )
        self._wait_ready(self._apiserver, deadline, lambda: self._apiserver_ready(self.server))

    def extra_apiserver(self) -> tuple[str, Path]:
        """A second kube-apiserver on this plane's etcd: its server URL and a kubeconfig
        for it (admin by client certificate). ``stop()`` stops it too."""
        (port,) = free_ports(1)
        server = f"https://127.0.0.1:{port}"
        name = f"kube-apiserver-{port}"
        proc = spawn(
            name,
            self._apiserver_argv(port, self.workdir / f"audit-{port}.log"),
            str(self.workdir / f"{name}.log"),
            env=server_environment(),
        )
        self._extra.append((proc, server))
        deadline = time.monotonic() + self.start_timeout
        self._wait_ready(proc, deadline, lambda: self._apiserver_ready(server))
        kubeconfig = self.workdir / f"kubeconfig-{port}"
        self._write_kubeconfig(server, kubeconfig)
        return server, kubeconfig

    def _start_processes(self, attempt: int) -> None:
        etcd_client, etcd_peer, secure_port = free_ports(3)
        data = self.workdir / f"etcd-data-{attempt}"
        self._etcd_url = f"http://127.0.0.1:{etcd_client}"
        self.server = f"https://127.0.0.1:{secure_port}"
        deadline = time.monotonic() + self.start_timeout

        self._etcd = spawn(
            "etcd",
            etcd_argv(str(self.assets / "etcd"), str(data), etcd_client, etcd_peer),
            str(self.workdir / "etcd.log"),
            env=server_environment(),
        )
        self._wait_ready(self._etcd, deadline, lambda: etcd_healthy(etcd_client))

        self.tokens.write(self.workdir / "tokens.csv")
        (self.workdir / "audit-policy.yaml").write_text(_AUDIT_POLICY)
        self._apiserver = spawn(
            "kube-apiserver",
            self._apiserver_argv(secure_port, self.audit_log),
            str(self.workdir / "kube-apiserver.log"),
            env=server_environment(),
        )
        self._wait_ready(self._apiserver, deadline, lambda: self._apiserver_ready(self.server))
        self._write_kubeconfig(self.server, self.kubeconfig)

    def _apiserver_argv(self, secure_port: int, audit_log: Path) -> list[str]:
        pki = self.pki
        cert_dir = self.workdir / "apiserver-certs"
        cert_dir.mkdir(exist_ok=True)
        return [
            # controller-runtime envtest's defaults (APIServerDefaultArgs) ...
            *apiserver_argv(
                str(self.assets / "kube-apiserver"),
                cert_dir=str(cert_dir),
                secure_port=secure_port,
                etcd_url=self._etcd_url,
                issuer=f"{self.server}/",
            ),
            f"--service-account-key-file={pki.service_account_pub}",
            f"--service-account-signing-key-file={pki.service_account_key}",
            # ... and our admin authentication and serving certificate.
            f"--client-ca-file={pki.ca_cert}",
            f"--tls-cert-file={pki.server_cert}",
            f"--tls-private-key-file={pki.server_key}",
            f"--token-auth-file={self.workdir / 'tokens.csv'}",
            f"--audit-policy-file={self.workdir / 'audit-policy.yaml'}",
            f"--audit-log-path={audit_log}",  # mode "blocking": written before replying
            *self.apiserver_args,
        ]

    def _wait_ready(self, proc: Process, deadline: float, ready: Callable[[], bool]) -> None:
        outcome = wait_ready(proc, deadline, ready)
        if outcome == PORT_TAKEN:
            raise _PortInUse(proc.name)
        if outcome == EXITED:
            raise EnvtestError(
                f"{proc.name} exited {proc.popen.returncode} during startup\n" + self.logs()
            )
        if outcome == LATE:
            raise EnvtestError(
                f"{proc.name} was not ready within {self.start_timeout:.0f} s "
                f"(KUBECTL_CRD_ENVTEST_START_TIMEOUT)\n" + self.logs()
            )

    def logs(self, lines: int = 30) -> str:
        """The tail of every log, for failure messages."""
        parts = []
        for name in ("etcd", "kube-apiserver"):
            log = self.workdir / f"{name}.log"
            if log.exists():
                text = _tail(log.read_text(errors="replace"), lines)
                parts.append(f"--- last {lines} lines of {log} ---\n{text}")
        return "\n".join(parts)

    def _apiserver_ready(self, server: str) -> bool:
        try:
            conn = self._admin_connection(server, timeout=5)
            conn.request("GET", "/readyz")
            return conn.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            return False

    def _admin_connection(self, server: str, *, timeout: float) -> http.client.HTTPSConnection:
        """A connection to ``server`` as the admin client certificate."""
        assert self._pki is not None
        context = ssl.create_default_context(cafile=str(self._pki.ca_cert))
        context.load_cert_chain(str(self._pki.client_cert), str(self._pki.client_key))
        host, port = server.removeprefix("https://").rsplit(":", 1)
        return http.client.HTTPSConnection(host, int(port), context=context, timeout=timeout)

    def get_json(self, path: str, *, timeout: float = 120) -> Any:
        """GET ``path`` as the admin, in process: for the polls of a large listing (the
        corpus's CRDs are ~29 MB of JSON), which a ``kubectl get -o json`` would decode
        and print again at every poll (~1 s of CPU on the 2 cores the server needs)."""
        conn = self._admin_connection(self.server, timeout=timeout)
        try:
            conn.request("GET", path, headers={"Accept": "application/json"})
            response = conn.getresponse()
            body = response.read()
        finally:
            conn.close()
        if response.status != 200:
            raise EnvtestError(f"GET {path}: {response.status} {body[:200]!r}")
        return json.loads(body)

    def _write_kubeconfig(self, server: str, path: Path) -> None:
        assert self._pki is not None
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {
                    "name": self.context,
                    "cluster": {
                        "server": server,
                        "certificate-authority-data": _b64(self._pki.ca_cert),
                    },
                }
            ],
            "users": [
                {
                    "name": f"{self.context}-admin",
                    "user": {
                        "client-certificate-data": _b64(self._pki.client_cert),
                        "client-key-data": _b64(self._pki.client_key),
                    },
                }
            ],
            "contexts": [
                {
                    "name": self.context,
                    "context": {"cluster": self.context, "user": f"{self.context}-admin"},
                }
            ],
            "current-context": self.context,
            "preferences": {},
        }
        # JSON is YAML: kubectl, client-go and the Python client all read it.
        path.write_text(json.dumps(config, indent=2) + "\n")

    # -- audit -------------------------------------------------------------------------

    def audit_mark(self) -> int:
        """A position in the audit log: ``audit_events(mark)`` returns what came after."""
        try:
            return self.audit_log.stat().st_size
        except FileNotFoundError:
            return 0

    def audit_events(self, mark: int = 0) -> list[dict[str, Any]]:
        """The audit events (``audit.k8s.io/v1`` Event objects) logged since ``mark``.

        The log backend is in blocking mode: an event is written before the response's
        last bytes leave the server, so once a client has exited, its requests are here.
        """
        try:
            with self.audit_log.open("rb") as log:
                log.seek(mark)
                data = log.read()
        except FileNotFoundError:
            return []
        complete = data[: data.rfind(b"\n") + 1]
        return [json.loads(line) for line in complete.splitlines() if line.strip()]

    def watches_open(
        self, mark: int, resources: tuple[str, ...], agent: str = "kubectl-crd/"
    ) -> bool:
        """Whether ``agent`` has opened a watch of each of ``resources`` (plural names)
        since ``mark``. An informer sends its watch once its LIST has synced, so a first
        reconcile can finish before that watch is logged: a test that counts the LISTs
        and WATCHes after some point waits for this first."""
        opened = [
            event["requestURI"]
            for event in self.audit_events(mark)
            if event["verb"] == "watch"
            and event.get("stage") == "ResponseStarted"
            and event.get("userAgent", "").startswith(agent)
        ]
        return all(any(f"/{resource}?" in uri for uri in opened) for resource in resources)

    # -- kubectl -----------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        """``os.environ`` with ``KUBECONFIG`` pointing at this control plane."""
        env = dict(os.environ)
        env["KUBECONFIG"] = str(self.kubeconfig)
        return env

    def kubectl(
        self,
        *args: str,
        input: str | None = None,
        check: bool = True,
        timeout: float = 300,
    ) -> subprocess.CompletedProcess[str]:
        """Run the real kubectl against this control plane (``KubectlError`` if ``check``)."""
        cmd = [
            self.kubectl_binary,
            f"--kubeconfig={self.kubeconfig}",
            f"--context={self.context}",
            f"--cache-dir={self.workdir / 'kube-cache'}",  # keep ~/.kube/cache clean
            *args,
        ]
        try:
            proc = subprocess.run(
                cmd,
                input=input,
                capture_output=True,
                text=True,
                env=self.env(),
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise KubectlError(None, cmd, _text(exc.stdout), _text(exc.stderr), timeout) from None
        if check and proc.returncode != 0:
            raise KubectlError(proc.returncode, cmd, proc.stdout, proc.stderr)
        return proc

    def install_crds(self, paths: Iterable[Path | str], *, timeout: float = 600) -> list[str]:
        """Create or update the CRDs in ``paths`` and wait until each is Established.

        Server-side apply, not client-side: the last-applied annotation of a multi-MB CRD
        exceeds the 256 KiB annotation limit. Idempotent; returns the CRD names in order.
        One kubectl call for all files: the 224 corpus CRDs take about 22 s on 2 idle
        cores; ``timeout`` only guards against a hang.
        """
        files = [str(path) for path in paths]
        if not files:
            return []
        result = self.kubectl(
            "apply",
            "--server-side",
            "--force-conflicts",
            f"--field-manager={FIELD_MANAGER}",
            "-o",
            "name",
            *_file_args(files),
            timeout=timeout,
        )
        names = _crd_names(result.stdout)
        for name in names:
            self._crd_files.pop(name, None)
        self.wait_established(names)
        return names

    def use_crds(self, round_: Round) -> list[str]:
        """Make ``round_``'s CRDs the installed ones of their names; returns the names.

        A CRD this method installed from the same file before is left as it is; one of
        the same name from another file (or installed otherwise) is deleted first, as a
        round redefines it. The corpus-wide modules share one plane
        (``corpus_apiserver``) this way: an apply of the corpus that changes nothing
        costs the server about half of the first (66 s against 142 s at load 5).
        """
        wanted = {name: str(path) for path, name in zip(round_.files, round_.names, strict=True)}
        stale = [name for name, file in wanted.items() if self._crd_files.get(name) != file]
        if stale:  # (delete_present lists every CRD: tens of MB with the corpus)
            self.delete_present(stale)
            self.install_crds(list(dict.fromkeys(wanted[name] for name in stale)))
        self._crd_files.update((name, wanted[name]) for name in stale)
        return list(wanted)

    def wait_established(self, names: Sequence[str], *, timeout: float = 120) -> None:
        """Wait until every named CRD has condition Established=True.

        One LIST of the CRDs every 0.2 s, not ``kubectl wait``: that makes a request per
        object (client-go throttles kubectl to 5 requests/s: 45 s for the 224 corpus
        CRDs), and it fails at once on a CRD created a moment ago whose
        ``status.conditions`` is still null (``.status.conditions accessor error: <nil>
        is of the type <nil>``), which made this fixture fail under load.
        """
        deadline = time.monotonic() + timeout
        while True:
            established = self.established_crds()
            pending = [name for name in names if name not in established]
            if not pending:
                return
            if time.monotonic() > deadline:
                raise EnvtestError(
                    f"CRDs not Established after {timeout:.0f} s:\n"
                    f"{self.describe_conditions(pending)}"
                )
            time.sleep(0.2)

    def wait_explainable(self, resource_path: str, *, timeout: float = 60) -> None:
        """Wait until ``kubectl explain RESOURCE_PATH`` works: the server publishes a new
        CRD's OpenAPI a moment after it is Established."""
        deadline = time.monotonic() + timeout
        while True:
            explained = self.kubectl("explain", resource_path, check=False)
            if explained.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise EnvtestError(
                    f"kubectl explain {resource_path} still fails after {timeout:.0f} s:\n"
                    + _tail(explained.stderr)
                )
            time.sleep(0.5)

    def describe_conditions(self, names: Sequence[str]) -> str:
        """One line per CRD with all its conditions, the API server's reasons included."""
        got = self.kubectl(
            "get", *(f"{CRD_RESOURCE}/{name}" for name in names), "-o", "json", check=False
        )
        if got.returncode != 0:
            return got.stderr
        doc = json.loads(got.stdout)
        lines = []
        for crd in doc.get("items", [doc]):
            conditions = "; ".join(
                f"{c.get('type')}={c.get('status')} ({c.get('reason')}: {c.get('message')})"
                # a CRD just created may have ``status.conditions: null``
                for c in (crd.get("status") or {}).get("conditions") or ()
            )
            lines.append(f"{crd['metadata']['name']}: {conditions or 'no conditions'}")
        return "\n".join(lines)

    def crd_conditions(self) -> dict[str, dict[str, str]]:
        """Every CRD's conditions as {type: status}, from one LIST."""
        # the whole objects, read here (not a jsonpath range: right after a large apply
        # some CRDs have no status.conditions yet, and kubectl's range over a null fails)
        listing = self.get_json("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
        return {
            item["metadata"]["name"]: {
                str(c.get("type")): str(c.get("status"))
                for c in ((item.get("status") or {}).get("conditions") or [])
            }
            for item in listing.get("items") or []
        }

    def crd_names(self) -> set[str]:
        """The names of every CRD the API server has."""
        return set(self.crd_conditions())

    def delete_present(self, names: Iterable[str]) -> list[str]:
        """Delete those of ``names`` the cluster has (before a round redefines them)."""
        present = self.crd_names()
        doomed = sorted(set(names) & present)
        self.delete_crds(doomed)
        return doomed

    def established_crds(self) -> set[str]:
        return {
            name
            for name, conditions in self.crd_conditions().items()
            if conditions.get("Established") == "True"
        }

    def delete_crds(self, names: Iterable[str], *, timeout: float = 300) -> None:
        """Delete CRDs and wait until they are gone (the API server removes their objects).

        One delete without ``--wait``, then one LIST a second: ``kubectl delete --wait``
        waits object by object, and on a loaded 2-core CI machine the CRD finalizer can
        take minutes for a dozen CRDs. A timeout names what is left and why.
        """
        wanted = list(names)
        if not wanted:
            return
        for name in wanted:
            self._crd_files.pop(name, None)
        self.kubectl(
            "delete", "--ignore-not-found", "--wait=false", *(f"{CRD_RESOURCE}/{n}" for n in wanted)
        )
        deadline = time.monotonic() + timeout
        while True:
            conditions = self.crd_conditions()
            remaining = [n for n in wanted if n in conditions]
            if not remaining:
                return
            if time.monotonic() > deadline:
                raise EnvtestError(
                    f"CRDs still present {timeout:.0f} s after delete: "
                    + "; ".join(f"{n} {conditions.get(n)}" for n in remaining)
                )
            time.sleep(1)


def _port(server: str) -> int:
    return int(server.rsplit(":", 1)[1])


class _PortInUse(EnvtestError):
    pass


@dataclass
class Round:
    """CRD files that can be installed together: no CRD name twice."""

    files: list[Path] = field(default_factory=list)
    names: list[str] = field(default_factory=list)


def wait_until_refused(client: Any, collection: str, probe: dict[str, Any]) -> float:
    """Seconds until the server refuses (422) a dry-run create of ``probe``: a CRD's new
    schema is served a moment after its write (a fixed 2 s was trusted once), so a test
    that tightened one waits for what only the new schema refuses. 60 s at most."""
    from kubectl_crd.model.errors import ApiError

    began = time.monotonic()
    while True:
        try:
            client.request("POST", collection, query={"dryRun": "All"}, body=probe)
        except ApiError as exc:
            if exc.status != 422:
                raise
            return time.monotonic() - began
        assert time.monotonic() < began + 60, "the tightened schema not served in 60 s"
        time.sleep(0.2)


def plan_rounds(named_files: Iterable[tuple[Path, str]]) -> list[Round]:
    """Group (file, CRD name) pairs into install rounds, keeping the given order.

    Each file goes into the first round that does not define its CRD name yet, so CRDs
    that redefine one another (Gateway API standard and experimental) never share a
    round. Before installing a round, delete the CRDs of that round already present.
    """
    rounds: list[Round] = []
    for path, name in named_files:
        target = next((r for r in rounds if name not in r.names), None)
        if target is None:
            target = Round()
            rounds.append(target)
        target.files.append(path)
        target.names.append(name)
    return rounds


def _file_args(files: Iterable[str]) -> Iterator[str]:
    for name in files:
        yield "-f"
        yield name


def _crd_names(kubectl_name_output: str) -> list[str]:
    """CRD names from ``kubectl ... -o name`` output, in order and without repeats."""
    names: dict[str, None] = {}
    for line in kubectl_name_output.splitlines():
        if not line.strip():
            continue
        resource, _, name = line.strip().partition("/")
        if resource != CRD_RESOURCE:
            raise ValueError(f"not a CustomResourceDefinition: {line.strip()}")
        names[name] = None
    return list(names)
