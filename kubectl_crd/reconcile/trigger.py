"""Reconcile one object now: the running dev loop's trigger socket, and its client.

``kubectl crd dev FILE`` listens on a Unix socket named from FILE's real path
(``socket_path``), in ``$XDG_RUNTIME_DIR/kubectl-crd/`` or, without it, in
``<tmp>/kubectl-crd-<uid>/`` (made ``0700`` and checked to be the user's own: another
user cannot reach the loop). ``kubectl crd dev [FILE] --trigger NAME [-n NS]`` from
another shell connects to it (FILE named: that loop; not named: the one running loop
that has NAME) and asks for the object to be reconciled now, as a dashboard key does
(``Triggers.trigger``): its backoff is forgotten, a delayed retry dropped, the key
added to the queue (a key already being reconciled is reconciled once more after,
never twice at once: the workqueue's rule).

The protocol is one JSON object per line each way:

- ``{"op": "find", "name": N, "namespace": NS|null}`` answers ``{"found": true,
  "object": "foo.samplecontroller.k8s.io/example-foo", "key": "default/example-foo",
  "file": ...}`` or ``{"found": false, "message": ...}``;
- ``{"op": "trigger", ...same..., "wait": seconds}`` answers ``{"triggered": true,
  "object": ..., "key": ...}`` (or ``false`` and the message), then, once the
  reconcile the trigger caused has finished (up to ``wait`` seconds), ``{"outcome":
  "success"|"error"|"terminal"|"gone", "duration", "writes", "error", "file",
  "line"}``, or ``{"outcome": null}`` when it has not finished in time.

An object is named as in the loop's cache: ``-n`` given, that namespace; not given,
the loop's namespace when it reconciles one, else the one namespace holding NAME (two
or more: the caller is asked for ``-n``). Stdlib only; the engine's events reach
``Triggers.observe`` through the command's sink.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
import stat
import tempfile
import threading
from collections.abc import Callable, Mapping
from typing import Any

from kubectl_crd.model.errors import KubectlCrdError
from kubectl_crd.reconcile import events as ev

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kubectl_crd.reconcile.backends import ResourceInfo
    from kubectl_crd.reconcile.controller import Controller

__all__ = [
    "TriggerServer",
    "Triggers",
    "object_text",
    "send_trigger",
    "socket_dir",
    "socket_path",
]

#: how long a ``--trigger`` waits for the reconcile it caused, by default
WAIT_SECONDS = 30.0
_SUFFIX = ".sock"


def socket_dir(environ: Mapping[str, str] | None = None) -> str:
    """Where the loops' sockets live (see the module docstring); created ``0700``, and
    refused when it is someone else's or open to others."""
    env = os.environ if environ is None else environ
    runtime = env.get("XDG_RUNTIME_DIR") or ""
    if runtime and os.path.isdir(runtime):
        directory = os.path.join(runtime, "kubectl-crd")
    else:
        directory = os.path.join(tempfile.gettempdir(), f"kubectl-crd-{os.getuid()}")
    with contextlib.suppress(FileExistsError):
        os.mkdir(directory, 0o700)
    info = os.lstat(directory)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise KubectlCrdError(f"{directory}: not a private directory of this user")
    return directory


def socket_path(file: str, environ: Mapping[str, str] | None = None) -> str:
    """The socket of the loop running ``file`` (its real path, hashed: short, and the
    same whatever relative spelling either command used)."""
    digest = hashlib.sha256(os.path.realpath(file).encode()).hexdigest()[:16]
    return os.path.join(socket_dir(environ), f"dev-{digest}{_SUFFIX}")


def object_text(kind: str, group: str, name: str) -> str:
    """kubectl's ``kind.group/name`` (``foo.samplecontroller.k8s.io/example-foo``)."""
    return f"{kind.lower()}.{group}/{name}" if group else f"{kind.lower()}/{name}"


class _Waiter:
    def __init__(self) -> None:
        self.started = False
        self.done = threading.Event()
        self.result: ev.ReconcileFinished | None = None


class Triggers:
    """Finding and triggering objects of one controller, and following the reconciles a
    trigger caused (``observe`` is an ``EventSink``)."""

    def __init__(self, controller: Controller, display: str = "") -> None:
        self.controller = controller
        self.display = display
        self._lock = threading.Lock()
        self._waiters: dict[ev.ObjectKey, list[_Waiter]] = {}

    def find(self, name: str, namespace: str | None) -> tuple[ev.ObjectKey, str]:
        """The object's key and its ``kind.group/name``; ``KubectlCrdError`` when the
        loop's cache does not hold it."""
        controller = self.controller
        info = self._info()
        informer = controller.informer(info)
        keys = informer.cache.keys() if informer is not None else []
        resource = f"{info.plural}.{info.group}" if info.group else info.plural
        if not info.namespaced:
            namespace = ""
        elif namespace is None:
            namespace = controller.namespace
        # the loop caches only what its -l selects: an object left out is "not found"
        # by this loop, which says why
        selected = (
            f" among the objects -l {controller.selector} selects" if controller.selector else ""
        )
        if namespace is not None:
            key = (namespace, name)
            if key not in keys:
                where = f' in namespace "{namespace}"' if namespace else ""
                raise KubectlCrdError(f'{resource} "{name}" not found{where}{selected}')
        else:
            found = sorted(key for key in keys if key[1] == name)
            if not found:
                raise KubectlCrdError(f'{resource} "{name}" not found{selected}')
            if len(found) > 1:
                spaces = ", ".join(key[0] for key in found)
                raise KubectlCrdError(
                    f'{resource} "{name}" is in {len(found)} namespaces ({spaces}): '
                    "give -n NAMESPACE"
                )
            key = found[0]
        return key, object_text(info.kind, info.group, name)

    def _info(self) -> ResourceInfo:
        controller = self.controller
        return controller.backend.resolve(str(controller.reconciler.for_resource))

    def describe(self, key: ev.ObjectKey) -> str:
        """``kind.group/name`` of a key."""
        info = self._info()
        return object_text(info.kind, info.group, key[1])

    def trigger(self, key: ev.ObjectKey, *, follow: bool = True) -> _Waiter | None:
        """Reconcile ``key`` now (see the module docstring); with ``follow``, the waiter
        returned is told the outcome of the first reconcile of it that starts from now
        on (``forget`` it when no longer waiting)."""
        waiter = _Waiter() if follow else None
        if waiter is not None:
            with self._lock:
                self._waiters.setdefault(key, []).append(waiter)
        queue = self.controller.queue
        queue.forget(key)  # a user's "now": no backoff left from earlier failures
        queue.discard_waiting(key)
        self.controller.enqueue(key)
        return waiter

    def observe(self, event: ev.Event) -> None:
        if not isinstance(event, ev.ReconcileStarted | ev.ReconcileFinished):
            return
        with self._lock:
            waiters = self._waiters.get(event.key)
            if not waiters:
                return
            if isinstance(event, ev.ReconcileStarted):
                for waiter in waiters:
                    waiter.started = True
                return
            # a reconcile that started before the trigger does not count (the key is
            # reconciled once more after it); an object found gone ends every wait
            done = [w for w in waiters if w.started or event.outcome is ev.Outcome.GONE]
            left = [w for w in waiters if w not in done]
            if left:
                self._waiters[event.key] = left
            else:
                del self._waiters[event.key]
        for waiter in done:
            waiter.result = event
            waiter.done.set()

    def forget(self, key: ev.ObjectKey, waiter: _Waiter) -> None:
        with self._lock:
            waiters = self._waiters.get(key, [])
            if waiter in waiters:
                waiters.remove(waiter)
            if not waiters:
                self._waiters.pop(key, None)


class TriggerServer:
    """The loop's end of the socket: a thread accepting connections, one short thread
    per request (a trigger waits for its reconcile)."""

    def __init__(self, triggers: Triggers, path: str) -> None:
        self.triggers = triggers
        self.path = path
        self._socket: socket.socket | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        """Listen; False (and nothing started) when another live loop of the same file
        owns the socket already."""
        if os.path.exists(self.path):
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(self.path)
            except OSError:  # left by a loop that was killed: ours now
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path)
            else:
                return False
            finally:
                probe.close()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(self.path)
        os.chmod(self.path, 0o600)
        server.listen(8)
        server.settimeout(0.2)
        self._socket = server
        self._thread = threading.Thread(target=self._serve, name="dev-trigger", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
        if self._socket is not None:
            self._socket.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            self._socket = None

    def _serve(self) -> None:
        assert self._socket is not None
        while not self._stop.is_set():
            try:
                connection, _ = self._socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(
                target=self._answer, args=(connection,), name="dev-trigger-request", daemon=True
            ).start()

    def _answer(self, connection: socket.socket) -> None:
        with connection, contextlib.suppress(OSError):
            connection.settimeout(5.0)
            stream = connection.makefile("rwb")
            try:
                request = json.loads(stream.readline() or b"{}")
                name = str(request["name"])
                namespace = request.get("namespace")
                namespace = None if namespace is None else str(namespace)
                op = request.get("op", "trigger")
            except (ValueError, KeyError, TypeError):
                _send(stream, {"found": False, "triggered": False, "message": "bad request"})
                return
            try:
                key, text = self.triggers.find(name, namespace)
            except KubectlCrdError as exc:
                _send(stream, {"found": False, "triggered": False, "message": exc.message})
                return
            answer = {"object": text, "key": ev.key_text(key), "file": self.triggers.display}
            if op == "find":
                _send(stream, {"found": True, **answer})
                return
            waiter = self.triggers.trigger(key)
            assert waiter is not None
            _send(stream, {"triggered": True, **answer})
            wait = float(request.get("wait") or 0)
            finished = waiter.done.wait(wait) if wait > 0 else False
            self.triggers.forget(key, waiter)
            result = waiter.result
            if not wait:
                return
            if not finished or result is None:
                _send(stream, {"outcome": None})
                return
            _send(
                stream,
                {
                    "outcome": result.outcome.value,
                    "duration": result.duration,
                    "writes": result.writes,
                    "error": result.error,
                    "file": result.file,
                    "line": result.line,
                },
            )


def _send(stream: Any, body: Mapping[str, Any]) -> None:
    stream.write(json.dumps(body).encode() + b"\n")
    stream.flush()


def _ask(path: str, request: Mapping[str, Any], timeout: float) -> tuple[socket.socket, Any]:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(timeout)
    try:
        connection.connect(path)
        stream = connection.makefile("rwb")
        _send(stream, request)
    except BaseException:
        connection.close()
        raise
    return connection, stream


def _read(stream: Any) -> dict[str, Any]:
    line = stream.readline()
    if not line:
        raise KubectlCrdError("the dev loop closed the connection without an answer")
    body = json.loads(line)
    if not isinstance(body, dict):
        raise KubectlCrdError("the dev loop answered something that is not an object")
    return body


def _live_sockets(environ: Mapping[str, str] | None) -> list[str]:
    directory = socket_dir(environ)
    names = sorted(n for n in os.listdir(directory) if n.startswith("dev-") and n.endswith(_SUFFIX))
    return [os.path.join(directory, name) for name in names]


def send_trigger(
    file: str | None,
    name: str,
    namespace: str | None,
    *,
    on_triggered: Callable[[str], None],
    wait: float = WAIT_SECONDS,
    environ: Mapping[str, str] | None = None,
) -> ev.ReconcileFinished | None:
    """Ask the loop running ``file`` (None: the one running loop holding ``name``) to
    reconcile the object now; ``on_triggered`` gets its ``kind.group/name`` once the loop
    has queued it. The reconcile's outcome, as the loop's event, when it finishes
    within ``wait`` seconds (None otherwise); ``KubectlCrdError`` when no loop runs or the
    object is not in its cache."""
    request = {"name": name, "namespace": namespace}
    if file is not None:
        path = socket_path(file, environ)
        if not os.path.exists(path):
            raise KubectlCrdError(
                f"no dev loop is running {file} (start one: kubectl crd dev {file})"
            )
    else:
        path = _the_loop_holding(request, name, environ)
    try:
        connection, stream = _ask(path, {"op": "trigger", "wait": wait, **request}, wait + 10)
    except OSError:
        where = f" {file}" if file is not None else ""
        raise KubectlCrdError(
            f"no dev loop is running{where} (its socket {path} is stale)"
        ) from None
    with connection:
        answer = _read(stream)
        if not answer.get("triggered"):
            raise KubectlCrdError(str(answer.get("message") or "not triggered"))
        on_triggered(str(answer["object"]))
        if not wait:
            return None
        try:
            result = _read(stream)
        except (KubectlCrdError, OSError, ValueError):
            return None
    if result.get("outcome") is None:
        return None
    namespace_, _, name_ = str(answer["key"]).rpartition("/")
    return ev.ReconcileFinished(
        (namespace_, name_),
        ev.Outcome(result["outcome"]),
        float(result.get("duration") or 0),
        int(result.get("writes") or 0),
        str(result.get("error") or ""),
        str(result.get("file") or ""),
        int(result.get("line") or 0),
    )


def _the_loop_holding(
    request: Mapping[str, Any], name: str, environ: Mapping[str, str] | None
) -> str:
    """The socket of the one running loop whose cache holds the object."""
    found: list[tuple[str, dict[str, Any]]] = []
    messages: list[str] = []
    for candidate in _live_sockets(environ):
        try:
            connection, stream = _ask(candidate, {"op": "find", **request}, 5.0)
        except OSError:
            continue  # a loop that was killed left its socket
        with connection:
            answer = _read(stream)
        if answer.get("found"):
            found.append((candidate, answer))
        else:
            messages.append(str(answer.get("message") or "not found"))
    if not found and not messages:
        raise KubectlCrdError("no dev loop is running (start one: kubectl crd dev FILE)")
    if not found:
        if len(messages) == 1:
            raise KubectlCrdError(messages[0])
        raise KubectlCrdError(f'"{name}" not found in any of the {len(messages)} running dev loops')
    if len(found) > 1:
        files = ", ".join(str(answer.get("file")) for _, answer in found)
        raise KubectlCrdError(
            f'"{name}" is in {len(found)} running dev loops ({files}): name the '
            "reconciler: kubectl crd dev FILE --trigger NAME"
        )
    return found[0][0]
