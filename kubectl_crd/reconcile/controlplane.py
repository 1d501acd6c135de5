"""A local control plane for ``kubectl crd dev --envtest``: etcd and kube-apiserver, nothing else.

What controller-runtime's envtest does (``pkg/envtest``, ``pkg/internal/testing/
controlplane``), for a person rather than a test: the binaries come from
``KUBEBUILDER_ASSETS``, from where ``setup-envtest`` keeps them
(``${XDG_DATA_HOME:-~/.local/share}/kubebuilder-envtest/k8s/<version>-<os>-<arch>``,
``~/Library/Application Support/io.kubebuilder.envtest/k8s/...`` on macOS), from this
project's ``hack/envtest-assets.sh`` cache (``~/.cache/kubectl-crd/envtest/k8s-...``),
or from envtest's default ``/usr/local/kubebuilder/bin``; ``find_assets`` says in one
line how to get them when none has both.

``LocalControlPlane.start()`` runs both on loopback only, on free ports, in a temporary
directory, with envtest's kube-apiserver flags (``APIServerDefaultArgs``). Unlike the
test suite's control plane (``tests/integration/envtest.py``, which makes a PKI with the
openssl CLI) it needs no tool beyond the two binaries: kube-apiserver makes its own
self-signed serving certificate in ``--cert-dir`` for ``--advertise-address=127.0.0.1``,
its key also signs service-account tokens, and the user is an admin (``system:masters``)
by a random bearer token in a ``--token-auth-file``. The kubeconfig it writes (mode 0600,
in the 0700 temporary directory) trusts that certificate and carries that token; only its
path is ever printed. ``install_crds`` applies CRD files server-side and waits until
each is Established. ``stop()`` stops kube-apiserver, then etcd (SIGTERM, then SIGKILL;
kube-apiserver's SIGKILL as soon as it stops listening, ``_stop_processes`` says why),
and removes the directory; it also runs at interpreter exit, and on Linux both processes
get ``PR_SET_PDEATHSIG`` so a killed ``kubectl crd`` takes them along.

The test suite's control plane starts its processes with this module's pieces
(``spawn``, ``Process``, ``wait_ready``, ``etcd_argv``, ``apiserver_argv``,
``etcd_healthy``, ``free_ports``), so they are written once; it adds its PKI, audit log,
restarts and a second kube-apiserver.

There is no kube-controller-manager: no garbage collection (children of a deleted
parent stay), no namespace deletion, no pods.
"""

from __future__ import annotations

import atexit
import contextlib
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time

from kubectl_crd.model.errors import ControlPlaneError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any

    from kubectl_crd.kube.client import KubeClient

__all__ = [
    "EXITED",
    "LATE",
    "PORT_TAKEN",
    "READY",
    "LocalControlPlane",
    "Process",
    "apiserver_argv",
    "asset_places",
    "etcd_argv",
    "etcd_healthy",
    "find_assets",
    "free_ports",
    "missing_assets",
    "spawn",
    "wait_ready",
]

BINARIES = ("kube-apiserver", "etcd")
#: the admin's name in the token file and the kubeconfig
ADMIN_USER = "kubectl-crd-dev"
CONTEXT = "envtest"
FIELD_MANAGER = "kubectl-crd-dev"

HOW_TO_GET = (
    "set KUBEBUILDER_ASSETS to a directory holding both, or fetch them with "
    "controller-runtime's setup-envtest "
    "(go install sigs.k8s.io/controller-runtime/tools/setup-envtest@latest; "
    "setup-envtest use), or build them with this project's hack/envtest-assets.sh (needs Go)"
)


def missing_assets(needed_for: str = "") -> str:
    """The one line saying the binaries are missing and how to get them. ``needed_for``
    names what needed them in the caller's words (the dev command passes its flag,
    ``--envtest``): the engine knows no command's flags (conventions: layers)."""
    wanted = f" for {needed_for}" if needed_for else ""
    return f"no kube-apiserver and etcd{wanted}: {HOW_TO_GET}"


def _has_binaries(directory: str) -> bool:
    return all(os.access(os.path.join(directory, name), os.X_OK) for name in BINARIES)


def _version_key(name: str) -> tuple[tuple[int, ...], int]:
    """``1.34.4-linux-amd64`` or ``k8s-v1.34.4-etcd-v3.6.16-r2-linux-amd64``: the
    Kubernetes version's numbers, then hack/envtest-assets.sh's recipe (``-rN``; none is
    0): of two builds of one version, the later recipe's first."""
    parts = name.removeprefix("k8s-").removeprefix("v").split("-")
    version = tuple(int(part) for part in parts[0].split(".") if part.isdigit())
    recipes = [int(part[1:]) for part in parts[1:] if part[:1] == "r" and part[1:].isdigit()]
    return version, max(recipes, default=0)


def asset_places(environ: Mapping[str, str] | None = None) -> list[str]:
    """Where the binaries are looked for, in order (the newest version first in each
    versioned place)."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or os.path.expanduser("~")
    places: list[str] = []
    if env.get("KUBEBUILDER_ASSETS"):
        places.append(env["KUBEBUILDER_ASSETS"])
    data = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    roots = [os.path.join(data, "kubebuilder-envtest", "k8s")]
    if sys.platform == "darwin":
        roots.append(
            os.path.join(home, "Library", "Application Support", "io.kubebuilder.envtest", "k8s")
        )
    cache = env.get("KUBECTL_CRD_ENVTEST_CACHE") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "kubectl-crd", "envtest"
    )
    roots.append(cache)
    for root in roots:
        try:
            names = [name for name in os.listdir(root) if not name.endswith(".lock")]
        except OSError:
            continue
        names.sort(key=_version_key, reverse=True)
        places.extend(os.path.join(root, name) for name in names)
    places.append("/usr/local/kubebuilder/bin")
    return places


def find_assets(environ: Mapping[str, str] | None = None, *, needed_for: str = "") -> str:
    """The first place with both binaries; ``ControlPlaneError`` (how to get them,
    ``missing_assets(needed_for)``) else.
    A ``KUBEBUILDER_ASSETS`` that is set is the place or an error, as controller-runtime's
    envtest takes it (``pkg/internal/testing/process/bin_path_finder.go``): falling
    through to another place would run another Kubernetes version than the one asked for."""
    env = os.environ if environ is None else environ
    chosen = env.get("KUBEBUILDER_ASSETS")
    if chosen:
        if _has_binaries(chosen):
            return chosen
        raise ControlPlaneError(
            f"KUBEBUILDER_ASSETS={chosen} lacks kube-apiserver or etcd; "
            + missing_assets(needed_for)
        )
    for place in asset_places(environ):
        if _has_binaries(place):
            return place
    raise ControlPlaneError(missing_assets(needed_for))


def free_ports(count: int) -> list[int]:
    """Ports the kernel just handed out on 127.0.0.1 (held together, so distinct)."""
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(socket.socket()) for _ in range(count)]
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in socks]


def _tail(path: str, lines: int = 15) -> str:
    try:
        with open(path, errors="replace") as handle:
            kept = handle.read().rstrip().splitlines()[-lines:]
    except OSError:
        return ""
    return "\n".join(line[:300] for line in kept)


def _die_with_us() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking Linux to SIGKILL the child when this process dies
    (``PR_SET_PDEATHSIG``), so no etcd outlives a killed loop. The signal fires when the
    *thread* that forked exits: start the processes from a thread that lives as long as
    they should (the main thread does). libc is loaded here, before the fork: a
    ``preexec_fn`` must not import."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    parent = os.getpid()

    def preexec() -> None:
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG (linux/prctl.h)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os._exit(1)

    return preexec


class Process:
    """etcd or kube-apiserver, started by ``spawn``: its output in ``log``."""

    def __init__(self, name: str, popen: subprocess.Popen[bytes], log: str) -> None:
        self.name = name
        self.popen = popen
        self.log = log

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self, timeout: float, *, enough: Callable[[], bool] | None = None) -> None:
        """SIGTERM the process group, then SIGKILL it after ``timeout`` seconds, or as
        soon as ``enough()`` says the graceful part that matters is over (asked every
        5 ms)."""
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10.0)):
            if not self.alive():
                return
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, sig)  # start_new_session: pgid == pid
            if enough is not None and sig == signal.SIGTERM:
                deadline = time.monotonic() + wait
                while self.alive() and not enough() and time.monotonic() < deadline:
                    time.sleep(0.005)
                continue
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(wait)


def spawn(
    name: str, argv: Sequence[str], log: str, env: Mapping[str, str] | None = None
) -> Process:
    """Start ``argv`` (in ``env``, this process's environment by default) with its
    output to ``log``, in a session of its own (a terminal's Ctrl-C reaches this process
    only, which stops the children in order), dying with this process (``_die_with_us``)."""
    with open(log, "wb") as out:
        popen = subprocess.Popen(
            list(argv),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_us(),
            close_fds=True,
        )
    return Process(name, popen, log)


#: what ``wait_ready`` met
READY, PORT_TAKEN, EXITED, LATE = "ready", "port taken", "exited", "late"


def wait_ready(process: Process, deadline: float, ready: Callable[[], bool]) -> str:
    """Ask ``ready()`` every 0.1 s until it says yes (``READY``), the process exits
    (``PORT_TAKEN`` when its log says its address is in use, else ``EXITED``) or the
    ``time.monotonic()`` deadline passes (``LATE``)."""
    while True:
        if not process.alive():
            if "address already in use" in _tail(process.log, 200):
                return PORT_TAKEN
            return EXITED
        if ready():
            return READY
        if time.monotonic() > deadline:
            return LATE
        time.sleep(0.1)


def etcd_argv(binary: str, data_dir: str, client_port: int, peer_port: int) -> list[str]:
    """etcd on loopback, as envtest runs it."""
    client_url = f"http://127.0.0.1:{client_port}"
    peer_url = f"http://127.0.0.1:{peer_port}"
    return [
        binary,
        f"--data-dir={data_dir}",
        f"--listen-client-urls={client_url}",
        f"--advertise-client-urls={client_url}",
        f"--listen-peer-urls={peer_url}",
        f"--initial-advertise-peer-urls={peer_url}",
        f"--initial-cluster=default={peer_url}",
        "--unsafe-no-fsync=true",  # as envtest: the data is thrown away
    ]


def apiserver_argv(
    binary: str, *, cert_dir: str, secure_port: int, etcd_url: str, issuer: str
) -> list[str]:
    """kube-apiserver with controller-runtime envtest's ``APIServerDefaultArgs`` on
    loopback; the caller adds its authentication and certificates."""
    return [
        binary,
        "--service-cluster-ip-range=10.0.0.0/24",
        "--allow-privileged=true",
        "--disable-admission-plugins=ServiceAccount",
        "--authorization-mode=RBAC",
        f"--cert-dir={cert_dir}",
        f"--secure-port={secure_port}",
        "--bind-address=127.0.0.1",
        f"--etcd-servers={etcd_url}",
        f"--service-account-issuer={issuer}",
    ]


def etcd_healthy(port: int) -> bool:
    """Whether etcd on ``port`` says it is healthy."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", "/health")
        response = conn.getresponse()
        return response.status == 200 and json.loads(response.read()).get("health") == "true"
    except (OSError, ValueError, http.client.HTTPException):
        return False


def _listening(port: int) -> bool:
    """Whether something on 127.0.0.1 accepts connections on ``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


class _StoppedListening:
    """Whether kube-apiserver's listener on ``port`` is closed and its log says so
    (or has not within ``LOG_WAIT`` seconds of the close)."""

    LOG_WAIT = 0.5

    def __init__(self, port: int, log: str) -> None:
        self.port, self.log = port, log
        self.closed_at: float | None = None

    def enough(self) -> bool:
        if self.closed_at is None:
            if _listening(self.port):
                return False
            self.closed_at = time.monotonic()
        if time.monotonic() - self.closed_at > self.LOG_WAIT:
            return True
        return f"Stopped listening on 127.0.0.1:{self.port}" in _last_bytes(self.log, 4096)


def _served(crd: Mapping[str, Any]) -> set[tuple[str, str, str]]:
    """(group, version, plural) of each version a CustomResourceDefinition serves."""
    spec = crd.get("spec") or {}
    group, plural = str(spec.get("group") or ""), str((spec.get("names") or {}).get("plural"))
    return {
        (group, str(version.get("name")), plural)
        for version in spec.get("versions") or ()
        if version.get("served")
    }


def _discovered(client: KubeClient, wanted: set[tuple[str, str, str]]) -> set[tuple[str, str, str]]:
    """Which of ``wanted`` (group, version, plural) the server's aggregated discovery
    lists under ``/apis``; all of them from a server without aggregated discovery
    (kube-apiserver before 1.26): nothing there to wait for."""
    from kubectl_crd.kube.discovery import AGGREGATED_DISCOVERY, resources_of

    answer = client.request("GET", "/apis", accept=AGGREGATED_DISCOVERY)
    if not isinstance(answer, dict) or answer.get("kind") != "APIGroupDiscoveryList":
        return wanted
    return {
        (ref.group, version, ref.plural)
        for ref in resources_of(answer.get("items") or ())
        for version in ref.versions
    }


def _last_bytes(path: str, size: int) -> str:
    try:
        with open(path, "rb") as handle:
            handle.seek(max(0, os.path.getsize(path) - size))
            return handle.read().decode(errors="replace")
    except OSError:
        return ""


class _PortTaken(Exception):
    pass


class LocalControlPlane:
    """etcd and kube-apiserver in a temporary directory (see the module docstring)."""

    def __init__(
        self,
        assets: str,
        *,
        start_timeout: float = 60.0,
        stop_timeout: float = 10.0,
        needed_for: str = "",
    ) -> None:
        self.assets = assets
        #: what needs the control plane, in the caller's words (``missing_assets``)
        self.needed_for = needed_for
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.workdir = ""
        self.kubeconfig = ""
        self.server = ""
        self._token = ""
        self._processes: list[Process] = []

    def __enter__(self) -> LocalControlPlane:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def processes(self) -> tuple[Process, ...]:
        """etcd and kube-apiserver, in the order started (running or not)."""
        return tuple(self._processes)

    @property
    def pids(self) -> list[int]:
        """The process ids of etcd and kube-apiserver (running or not)."""
        return [process.pid for process in self._processes]

    def start(self) -> None:
        """Start both; returns once kube-apiserver's ``/readyz`` answers 200."""
        if not _has_binaries(self.assets):
            raise ControlPlaneError(
                f"{self.assets} lacks kube-apiserver or etcd; " + missing_assets(self.needed_for)
            )
        self.workdir = tempfile.mkdtemp(prefix="kubectl-crd-envtest-")
        atexit.register(self.stop)
        try:
            for attempt in range(3):  # a port taken between choosing and binding it
                try:
                    self._start(attempt)
                    break
                except _PortTaken:
                    self._stop_processes()
            else:
                raise ControlPlaneError("the control plane's ports kept being taken")
        except BaseException:
            self.stop()
            raise

    def _start(self, attempt: int) -> None:
        etcd_port, peer_port, secure_port = free_ports(3)
        work = self.workdir
        deadline = time.monotonic() + self.start_timeout
        etcd = spawn(
            "etcd",
            etcd_argv(
                os.path.join(self.assets, "etcd"),
                os.path.join(work, f"etcd-{attempt}"),
                etcd_port,
                peer_port,
            ),
            os.path.join(work, "etcd.log"),
        )
        self._processes.append(etcd)
        self._wait(etcd, deadline, lambda: etcd_healthy(etcd_port))

        self._token = secrets.token_hex(24)
        tokens = os.path.join(work, "tokens.csv")
        with open(os.open(tokens, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as out:
            out.write(f'{self._token},{ADMIN_USER},{ADMIN_USER},"system:masters"\n')
        certs = os.path.join(work, "certs")
        key = os.path.join(certs, "apiserver.key")
        self.server = f"https://127.0.0.1:{secure_port}"
        apiserver = spawn(
            "kube-apiserver",
            [
                *apiserver_argv(
                    os.path.join(self.assets, "kube-apiserver"),
                    cert_dir=certs,
                    secure_port=secure_port,
                    etcd_url=f"http://127.0.0.1:{etcd_port}",
                    issuer=f"{self.server}/",
                ),
                # the serving certificate kube-apiserver makes itself for this address
                # (cert-dir/apiserver.crt and .key, before the flags below are read), and
                # its key for service-account tokens
                "--advertise-address=127.0.0.1",
                f"--service-account-key-file={key}",
                f"--service-account-signing-key-file={key}",
                f"--token-auth-file={tokens}",
            ],
            os.path.join(work, "kube-apiserver.log"),
        )
        self._processes.append(apiserver)
        ca = os.path.join(certs, "apiserver.crt")
        self._wait(apiserver, deadline, lambda: self._ready(ca))
        self._write_kubeconfig(ca)

    def _wait(self, process: Process, deadline: float, ready: Callable[[], bool]) -> None:
        outcome = wait_ready(process, deadline, ready)
        if outcome == PORT_TAKEN:
            raise _PortTaken(process.name)
        if outcome == EXITED:
            raise ControlPlaneError(
                f"{process.name} exited {process.popen.returncode} while starting; "
                f"its log ends:\n{_tail(process.log)}"
            )
        if outcome == LATE:
            raise ControlPlaneError(
                f"{process.name} was not ready within {self.start_timeout:.0f} s; "
                f"its log ends:\n{_tail(process.log)}"
            )

    def _ready(self, ca: str) -> bool:
        if not os.path.exists(ca):
            return False
        try:
            context = ssl.create_default_context(cafile=ca)
            port = int(self.server.rsplit(":", 1)[1])
            conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=5)
            conn.request("GET", "/readyz", headers={"Authorization": f"Bearer {self._token}"})
            return conn.getresponse().status == 200
        except (OSError, ssl.SSLError, http.client.HTTPException):
            return False

    def _write_kubeconfig(self, ca: str) -> None:
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {"name": CONTEXT, "cluster": {"server": self.server, "certificate-authority": ca}}
            ],
            "users": [{"name": ADMIN_USER, "user": {"token": self._token}}],
            "contexts": [
                {
                    "name": CONTEXT,
                    "context": {"cluster": CONTEXT, "user": ADMIN_USER, "namespace": "default"},
                }
            ],
            "current-context": CONTEXT,
            "preferences": {},
        }
        path = os.path.join(self.workdir, "kubeconfig")
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as out:
            out.write(json.dumps(config, indent=2) + "\n")  # JSON is YAML
        self.kubeconfig = path

    def install_crds(self, paths: Iterable[str], *, timeout: float = 60.0) -> list[str]:
        """Apply every CRD in ``paths`` (files or directories) server-side and wait until
        each is Established; the names, in order. A document that is not a CRD, or that
        cannot be read, is an error at its file."""
        from kubectl_crd.io import input_documents
        from kubectl_crd.kube.client import KubeClient
        from kubectl_crd.kube.config import ClusterConfig
        from kubectl_crd.kube.resources import ResourceClient
        from kubectl_crd.model.errors import InputError

        documents = []
        for document in input_documents(list(paths)):
            if document.error is not None:
                raise document.error
            content = document.content
            if content is None:
                continue
            if not isinstance(content, dict) or content.get("kind") != "CustomResourceDefinition":
                raise InputError(
                    f"{document.location}: --crd takes CustomResourceDefinitions, "
                    f"not {content.get('kind') if isinstance(content, dict) else 'this'}"
                )
            documents.append(json.loads(json.dumps(content)))
        if not documents:
            return []
        with KubeClient(ClusterConfig(kubeconfig=self.kubeconfig)) as client:
            crds = ResourceClient(
                client, "apiextensions.k8s.io", "v1", "customresourcedefinitions", namespaced=False
            )
            names = []
            served: set[tuple[str, str, str]] = set()
            for crd in documents:
                applied = crds.apply(crd, field_manager=FIELD_MANAGER, force=True)
                names.append(str(applied["metadata"]["name"]))
                served.update(_served(applied))
            deadline = time.monotonic() + timeout
            waiting = list(names)
            while waiting:
                crd = crds.get(waiting[0])
                conditions = {
                    str(c.get("type")): str(c.get("status"))
                    for c in (crd.get("status") or {}).get("conditions") or ()
                }
                if conditions.get("Established") == "True":
                    waiting.pop(0)
                    continue
                if time.monotonic() > deadline:
                    raise ControlPlaneError(
                        f"CustomResourceDefinition {waiting[0]} is not Established after "
                        f"{timeout:.0f} s: {conditions}"
                    )
                time.sleep(0.1)
            # Established is not yet discoverable: the apiextensions server's discovery
            # controller (customresource_discovery_controller.go) adds the resource
            # from its own queue, which lags on a loaded machine, and the loop resolves
            # what it reconciles through discovery. Wait for it as envtest's
            # WaitForCRDs does (controller-runtime pkg/envtest/crd.go).
            while missing := served - _discovered(client, served):
                if time.monotonic() > deadline:
                    group, version, plural = sorted(missing)[0]
                    raise ControlPlaneError(
                        f"{plural}.{group}/{version} is not in the server's discovery "
                        f"after {timeout:.0f} s"
                    )
                time.sleep(0.1)
        return names

    def stop(self, *, grace: float | None = None) -> None:
        """Stop kube-apiserver, then etcd, and remove the directory (again: a no-op).
        ``grace``: seconds each may take to exit after SIGTERM before SIGKILL (default
        ``stop_timeout``; kube-apiserver waits for open watches to end before it exits,
        so an abort that leaves them open passes a short one)."""
        self._stop_processes(grace)
        with contextlib.suppress(Exception):
            atexit.unregister(self.stop)
        if self.workdir and os.path.isdir(self.workdir):
            shutil.rmtree(self.workdir, ignore_errors=True)

    def _stop_processes(self, grace: float | None = None) -> None:
        for process in reversed(self._processes):
            enough = None
            if process.name == "kube-apiserver" and self.server:
                # kube-apiserver stops listening within milliseconds of SIGTERM (the
                # graceful-termination order of k8s.io/apiserver/pkg/server/
                # genericapiserver.go: NotAcceptingNewRequest, then the listener
                # closed) but exits only ~1.1 s later: its own loopback client keeps an
                # idle HTTP/2 connection to it, which the HTTP/2 server closes only
                # after its GOAWAY timer (golang.org/x/net/http2 server.go,
                # goAwayTimeout = 1 s), and net/http's Shutdown polls for it at up to
                # 500 ms. Measured: that connection alone is open 1.04 s after SIGTERM,
                # the exit at 1.15-1.27 s. The plane's data is thrown away and the loop's
                # requests ended before this stop, so once the listener is closed the
                # rest is not waited out: SIGKILL (a request of another client still in
                # flight is cut, as the plane is going away)
                # Closed is not enough on its own: the listener closes a moment before
                # the server logs "Stopped listening" (secure_serving.go: Serve returns,
                # then klog), and a kill in between left the log without it. Its own
                # line is the proof; without one within 0.5 s of the close, kill anyway.
                port = int(self.server.rsplit(":", 1)[1])
                enough = _StoppedListening(port, process.log).enough

            process.stop(self.stop_timeout if grace is None else grace, enough=enough)
