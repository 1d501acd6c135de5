"""Informers: one resource's objects kept in a cache by a list-then-watch thread.

client-go's shared informer (``tools/cache/shared_informer.go``) in the small: a thread
iterates ``Backend.list_then_watch`` (the Reflector: list, watch, resume, relist on 410,
backoff) and keeps every object in a ``Cache`` keyed by ``(namespace, name)`` and
indexed by the uid of its controller owner (the ``ownerReferences`` entry with
``controller: true``, what ``metav1.GetControllerOf`` finds). Each change goes to the
informer's handler after the cache holds it, as ``on_add``, ``on_update(old, new)`` or
``on_delete``; a relist's differences arrive the same way (an object gone while the
watch was down is a delete, never lost). ``has_synced`` turns true after the first list.

Resync (``resyncPeriod``) replays the cache to ``on_resync`` every period without asking
the server, as client-go replays it as updates; the handler decides what a replay means
(the controller enqueues every object).

A first list the server refuses as unauthorized or forbidden (401, 403: ``--as`` a user
without rights) will not succeed by waiting: ``start_error`` holds it and
``wait_synced`` returns at once (the reflector keeps retrying with its backoff, as
client-go's does, should the rights be granted meanwhile). That refusal is not emitted
as a ``WatchError`` ("failed, retrying"): the caller reports it, as the one fatal line.

Objects have ``apiVersion`` and ``kind`` also when they came from a list (whose items
the server sends without them), as client-go's dynamic client gives them. Handlers run
on the informer's thread and must be quick (the controller only enqueues keys). Objects in the cache are never handed out to be changed: ``Cache.get`` and
``Cache.list`` return copies.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Protocol

from kubectl_crd.model.labels import LabelSelector, parse_selector
from kubectl_crd.model.schema import copy_json
from kubectl_crd.reconcile.events import WatchError, WatchStarted, WatchStopped, WatchSynced

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from kubectl_crd.model.errors import ClusterError
    from kubectl_crd.reconcile.backends import Backend, ResourceInfo
    from kubectl_crd.reconcile.events import EventSink, ObjectKey

__all__ = ["Cache", "EventHandler", "Informer", "controller_owner_uid", "object_key"]


def object_key(obj: Mapping[str, Any]) -> ObjectKey:
    metadata = obj.get("metadata") or {}
    return str(metadata.get("namespace") or ""), str(metadata.get("name") or "")


def controller_owner_uid(obj: Mapping[str, Any]) -> str:
    """The uid of ``obj``'s controller owner, "" if none (``metav1.GetControllerOf``)."""
    for ref in (obj.get("metadata") or {}).get("ownerReferences") or ():
        if isinstance(ref, dict) and ref.get("controller") is True:
            return str(ref.get("uid") or "")
    return ""


class Cache:
    """The objects of one resource by ``(namespace, name)``, and by controller owner."""

    def __init__(self) -> None:
        self._objects: dict[ObjectKey, dict[str, Any]] = {}
        self._by_owner: dict[str, set[ObjectKey]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._objects)

    def put(self, obj: dict[str, Any]) -> dict[str, Any] | None:
        """Store ``obj`` (kept as given: the informer's own); the object it replaced."""
        key = object_key(obj)
        owner = controller_owner_uid(obj)
        with self._lock:
            old = self._objects.get(key)
            self._objects[key] = obj
            if old is not None:
                self._unindex(key, old)
            if owner:
                self._by_owner.setdefault(owner, set()).add(key)
        return old

    def pop(self, key: ObjectKey) -> dict[str, Any] | None:
        with self._lock:
            old = self._objects.pop(key, None)
            if old is not None:
                self._unindex(key, old)
        return old

    def _unindex(self, key: ObjectKey, obj: Mapping[str, Any]) -> None:
        owner = controller_owner_uid(obj)
        if owner:
            keys = self._by_owner.get(owner)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_owner[owner]

    # -- reads: the cache's own objects (not to be changed) --------------------------------

    def peek(self, key: ObjectKey) -> dict[str, Any] | None:
        """The cached object itself, not a copy: for the engine's reads only."""
        with self._lock:
            return self._objects.get(key)

    def keys(self) -> list[ObjectKey]:
        with self._lock:
            return list(self._objects)

    def objects(self) -> list[dict[str, Any]]:
        """The cached objects themselves (the engine's reads only)."""
        with self._lock:
            return list(self._objects.values())

    def owned_by(self, uid: str) -> list[dict[str, Any]]:
        """The cached objects whose controller owner has ``uid`` (themselves)."""
        with self._lock:
            return [self._objects[key] for key in sorted(self._by_owner.get(uid, ()))]

    # -- reads for reconcilers: copies -----------------------------------------------------

    def get(self, namespace: str, name: str) -> dict[str, Any] | None:
        found = self.peek((namespace, name))
        return None if found is None else copy_json(found)

    def list(
        self,
        namespace: str | None = None,
        labels: str | Mapping[str, str] | LabelSelector | None = None,
    ) -> list[dict[str, Any]]:
        """Copies of the objects in ``namespace`` (``None``: every one) that ``labels``
        selects (``-l`` text, a mapping of equalities, or a parsed selector), sorted by
        namespace and name."""
        selector = labels if isinstance(labels, LabelSelector) else parse_selector(labels)
        with self._lock:
            chosen = [
                obj
                for key, obj in sorted(self._objects.items())
                if (namespace is None or key[0] == namespace)
                and selector.matches((obj.get("metadata") or {}).get("labels"))
            ]
        return [copy_json(obj) for obj in chosen]


class EventHandler(Protocol):
    """What an informer tells of each change (after its cache holds it)."""

    def on_add(self, informer: Informer, obj: dict[str, Any]) -> None: ...

    def on_update(self, informer: Informer, old: dict[str, Any], new: dict[str, Any]) -> None: ...

    def on_delete(self, informer: Informer, obj: dict[str, Any]) -> None: ...

    def on_resync(self, informer: Informer, obj: dict[str, Any]) -> None: ...


class Informer:
    """One resource's list-then-watch thread, cache and handler (module docstring).

    ``name`` is the resource as the reconciler spells it (for events); ``namespace``
    limits the watch to one namespace (``None``: all), ``label_selector`` to the
    objects it selects (the server filters). ``resync`` is the replay period in
    seconds (``None`` or 0: never).
    """

    def __init__(
        self,
        backend: Backend,
        info: ResourceInfo,
        handler: EventHandler,
        *,
        name: str = "",
        role: str = "",
        namespace: str | None = None,
        label_selector: str | None = None,
        resync: float | None = None,
        sink: EventSink | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.backend = backend
        self.info = info
        self.handler = handler
        self.name = name or str(info)
        self.role = role
        self.namespace = namespace
        self.label_selector = label_selector
        self.resync = resync
        self.cache = Cache()
        self._sink = sink
        self._clock = clock
        self._stop = threading.Event()
        self._stopping_done = False
        self._synced = threading.Event()
        #: set once the first list succeeded or was refused for good (``start_error``)
        self._settled = threading.Event()
        #: the 401/403 that refused the first list (module docstring), else None
        self.start_error: ClusterError | None = None
        self._threads: list[threading.Thread] = []
        self._started_at = 0.0
        #: lists the reflector has finished (the first one and every relist)
        self.syncs = 0

    def __repr__(self) -> str:
        return f"Informer({self.name!r}, objects={len(self.cache)}, synced={self.has_synced})"

    @property
    def has_synced(self) -> bool:
        return self._synced.is_set()

    def wait_synced(self, timeout: float | None = None) -> bool:
        """Wait until the first list is in the cache; False at ``timeout``, or at once
        when that list was refused as unauthorized or forbidden (``start_error``)."""
        self._settled.wait(timeout)
        return self._synced.is_set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def start(self) -> None:
        if self._threads:
            return
        self._started_at = self._clock()
        self._emit(WatchStarted(self.name, self.role))
        watcher = threading.Thread(target=self._run, name=f"informer {self.name}", daemon=True)
        self._threads.append(watcher)
        if self.resync:
            self._threads.append(
                threading.Thread(target=self._resync_loop, name=f"resync {self.name}", daemon=True)
            )
        for thread in self._threads:
            thread.start()

    def stop_soon(self) -> None:
        """Tell the watch to stop without waiting (``stop`` waits): a loop stopping its
        informers tells every one first, so their last looks at ``stop`` overlap (the
        in-process store's watch looks every 50 ms)."""
        self._stop.set()

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop watching (the watch's socket is shut, so this is prompt) and wait."""
        if self._stopping_done:
            return
        self._stopping_done = True
        self._stop.set()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout)
        self._emit(WatchStopped(self.name))

    # -- the watch thread ------------------------------------------------------------------

    def _run(self) -> None:
        from kubectl_crd.kube.reflector import EventType

        events = self.backend.list_then_watch(
            self.info,
            stop=self._stop,
            namespace=self.namespace,
            label_selector=self.label_selector,
            on_error=self._on_error,
        )
        try:
            for event in events:
                if self._stop.is_set():
                    break
                try:
                    if event.type is EventType.SYNCED:
                        self._on_synced()
                    elif event.object is None:
                        continue
                    elif event.type is EventType.DELETED:
                        old = self.cache.pop(object_key(event.object))
                        self.handler.on_delete(self, old if old is not None else event.object)
                    else:
                        if "kind" not in event.object:
                            # a list's items come without them; client-go's dynamic
                            # client sets them from the list, and reconcilers expect them
                            event.object["apiVersion"] = self.info.api_version
                            event.object["kind"] = self.info.kind
                        old = self.cache.put(event.object)
                        if old is None:
                            self.handler.on_add(self, event.object)
                        else:
                            self.handler.on_update(self, old, event.object)
                except BaseException as exc:  # a handler's bug must not end the watch
                    # BaseException too: a WATCHES mapping's sys.exit() (no signal's
                    # KeyboardInterrupt reaches this thread) would end it silently
                    self._emit(WatchError(self.name, f"handler failed: {exc!r}"))
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()

    def _on_synced(self) -> None:
        self.syncs += 1
        if not self._synced.is_set():
            self._synced.set()
            self._settled.set()
            self.start_error = None
            self._emit(WatchSynced(self.name, len(self.cache), self._clock() - self._started_at))

    def _on_error(self, exc: ClusterError) -> None:
        line = getattr(exc, "kubectl_line", None) or str(exc)
        if not self._synced.is_set() and getattr(exc, "status", 0) in (401, 403):
            # the refusal is the caller's to report (``start``/``swap`` raise it as the
            # one fatal line): a "failed, retrying" line before it would say otherwise
            self.start_error = exc
            self._settled.set()
            return
        self._emit(WatchError(self.name, line))

    def _resync_loop(self) -> None:
        assert self.resync
        while not self._stop.wait(self.resync):
            self.replay()

    def replay(self, objects: Iterable[dict[str, Any]] | None = None) -> int:
        """Hand every cached object (or ``objects``) to ``on_resync``; how many."""
        count = 0
        for obj in self.cache.objects() if objects is None else objects:
            if self._stop.is_set():
                break
            try:
                self.handler.on_resync(self, obj)
            except (Exception, SystemExit) as exc:  # as in the watch (a caller's thread
                # may be the main one: its Ctrl-C is not caught here)
                self._emit(WatchError(self.name, f"handler failed: {exc!r}"))
            count += 1
        return count

    def _emit(self, event: Any) -> None:
        if self._sink is not None:
            self._sink(event)
