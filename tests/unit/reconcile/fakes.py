"""A scripted ``Backend`` for hermetic tests of the informers' and the controller's logic.

Not an API server: it serves only the events a test feeds it and records the writes the
controller asks for, answering each with the object it was given (a new
resourceVersion). What the server does is held by the integration tests.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from kubectl_crd.kube.reflector import EventType, ReflectorEvent
from kubectl_crd.model.errors import ApiError, ResourceNotFoundError
from kubectl_crd.reconcile.api import Result
from kubectl_crd.reconcile.backends import ResourceInfo

#: the verbs of a child's write: ``create`` when the cache does not hold it, else ``apply``
CHILD_WRITES = ("create", "apply")
WIDGETS = ResourceInfo("dev.example.com", "v1", "widgets", "Widget", True, has_status=True)
CONFIGMAPS = ResourceInfo("", "v1", "configmaps", "ConfigMap", True)
SECRETS = ResourceInfo("", "v1", "secrets", "Secret", True)
EVENTS = ResourceInfo("", "v1", "events", "Event", True)
SPECS = {
    "widgets.dev.example.com/v1": WIDGETS,
    "v1/ConfigMap": CONFIGMAPS,
    "v1/Secret": SECRETS,
    "v1/Event": EVENTS,
}


class FakeBackend:
    def __init__(self) -> None:
        self.feeds: dict[ResourceInfo, queue.Queue[ReflectorEvent]] = {}
        self.initial: dict[ResourceInfo, list[dict[str, Any]]] = {}
        self.calls: list[tuple[Any, ...]] = []
        self.watches: list[ResourceInfo] = []
        #: what ``get`` answers, by (resource, namespace, name): the server's version
        self.stored: dict[tuple[ResourceInfo, str, str], dict[str, Any]] = {}
        self.refuse: Callable[[str, Mapping[str, Any]], Exception | None] = lambda verb, obj: None
        #: called with each write's answer before the write returns (an echo to feed)
        self.on_write: Callable[[str, ResourceInfo, dict[str, Any]], None] | None = None
        self._versions = itertools.count(100)
        self.lock = threading.Lock()
        #: events ``send`` fed, and those an informer took and handled, by resource
        self._sent: Counter[ResourceInfo] = Counter()
        self._handled: Counter[ResourceInfo] = Counter()

    # -- Backend -----------------------------------------------------------------------

    def resolve(self, spec: str) -> ResourceInfo:
        try:
            return SPECS[spec]
        except KeyError:
            raise ResourceNotFoundError(f"no {spec}", query=spec) from None

    def resolve_kind(self, api_version: str, kind: str) -> ResourceInfo:
        return self.resolve(f"{api_version}/{kind}")

    def list_then_watch(
        self,
        info: ResourceInfo,
        *,
        stop: threading.Event,
        namespace: str | None = None,
        label_selector: str | None = None,
        on_error: Any = None,
    ) -> Iterator[ReflectorEvent]:
        self.watches.append(info)
        feed = self.feed(info)
        for obj in self.initial.get(info, ()):
            yield ReflectorEvent(EventType.ADDED, obj)
        yield ReflectorEvent(EventType.SYNCED)
        while not stop.is_set():
            try:
                event = feed.get(timeout=0.02)
            except queue.Empty:
                continue
            yield event
            # resumed: the informer asks for the next event, so its handler is done
            # with this one (the informer calls its handlers in its own thread)
            with self.lock:
                self._handled[info] += 1

    def get(self, info: ResourceInfo, namespace: str, name: str) -> dict[str, Any]:
        """What ``stored`` holds for the test (the server's version), else a 404."""
        self.calls.append(("get", info.plural, name, {}, {}))
        found = self.stored.get((info, namespace, name))
        if found is None:
            raise ApiError(f'{info.plural} "{name}" not found', status=404, reason="NotFound")
        return dict(found)

    def create(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return self._record("create", info, obj, field_manager=field_manager)

    def apply(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        force: bool = True,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return self._record("apply", info, obj, field_manager=field_manager, force=force)

    def patch(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        patch: Mapping[str, Any],
        *,
        subresource: str = "",
        field_manager: str = "",
        dry_run: bool = False,
    ) -> dict[str, Any]:
        body = {"metadata": {"name": name, "namespace": namespace}, "patch": patch}
        return self._record("patch", info, body, subresource=subresource)

    def delete(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        *,
        uid: str | None = None,
        dry_run: bool = False,
    ) -> None:
        self._record("delete", info, {"metadata": {"name": name, "namespace": namespace}}, uid=uid)

    def record_event(
        self, involved: Mapping[str, Any], reason: str, message: str, **kw: Any
    ) -> None:
        self.calls.append(
            ("event", involved["metadata"]["name"], reason, message, kw.get("type", "Normal"))
        )

    def watches_quiet(self) -> None:
        return None

    def close(self) -> None:
        pass

    # -- for tests ---------------------------------------------------------------------

    def feed(self, info: ResourceInfo) -> queue.Queue[ReflectorEvent]:
        with self.lock:
            return self.feeds.setdefault(info, queue.Queue())

    def send(self, info: ResourceInfo, kind: str, obj: dict[str, Any]) -> None:
        feed = self.feed(info)
        with self.lock:  # counted first: a quiet mark never misses an event in the feed
            self._sent[info] += 1
        feed.put(ReflectorEvent(EventType(kind), obj))

    def handed_on(self) -> int | None:
        """A mark (how many events ``send`` fed) when the informers have handled every
        event fed to a resource they watch, else None; the same mark twice: nothing was
        sent in between. What a test waits for instead of sleeping while an informer's
        thread hands its events on (a loaded machine may not run it for a while)."""
        with self.lock:
            if any(self._sent[info] != self._handled[info] for info in set(self.watches)):
                return None
            return sum(self._sent.values())

    def wait_handed_on(self, timeout: float = 30.0) -> int:
        """``handed_on()``'s mark once there is one; fails after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while (mark := self.handed_on()) is None:
            if time.monotonic() > deadline:
                with self.lock:
                    raise AssertionError(
                        f"events not handed on in {timeout} s: sent {dict(self._sent)}, "
                        f"handled {dict(self._handled)}"
                    )
            time.sleep(0.002)
        return mark

    def _record(
        self, verb: str, info: ResourceInfo, obj: Mapping[str, Any], **options: Any
    ) -> dict[str, Any]:
        refused = self.refuse(verb, obj)
        if refused is not None:
            raise refused
        self.calls.append((verb, info.plural, obj["metadata"]["name"], obj, options))
        answer: dict[str, Any] = dict(obj)
        answer["metadata"] = {**obj["metadata"], "resourceVersion": str(next(self._versions))}
        if self.on_write is not None:
            self.on_write(verb, info, answer)
        return answer

    def writes(self) -> list[tuple[str, str, str]]:
        return [(c[0], c[1], c[2]) for c in self.calls if c[0] not in ("event", "get")]


class Finalization:
    def __init__(self, result: Result, finalized: bool) -> None:
        self.result = result
        self.finalized = finalized


class FakeReconciler:
    """A ``ReconcilerLike`` whose answer a test sets."""

    def __init__(
        self,
        answer: Callable[[dict[str, Any], Any], Any] | None = None,
        *,
        owns: tuple[str, ...] = ("v1/ConfigMap",),
        watches: tuple[tuple[str, Callable[[Any], Any]], ...] = (),
        finalize: Callable[[dict[str, Any], Any], bool] | None = None,
    ) -> None:
        self.for_resource = "widgets.dev.example.com/v1"
        self.owns = owns
        self.watches = watches
        self.answer = answer or (lambda obj, ctx: None)
        self._finalize = finalize
        self.calls: list[str] = []

    @property
    def has_finalize(self) -> bool:
        return self._finalize is not None

    def call(self, obj: Mapping[str, Any], ctx: Any) -> Result:
        self.calls.append(obj["metadata"]["name"])
        answer = self.answer(dict(obj), ctx)
        return answer if isinstance(answer, Result) else Result(**(answer or {}))

    def finalize(self, obj: Mapping[str, Any], ctx: Any) -> Finalization:
        assert self._finalize is not None
        return Finalization(Result(), self._finalize(dict(obj), ctx))

    def parents_of(self, resource: Any, obj: Mapping[str, Any]) -> list[tuple[str, str]]:
        return list(dict(self.watches)[str(resource)](obj))


def wait_for(check: Callable[[], object], what: object, timeout: float = 30.0) -> None:
    """Until ``check()`` holds, looked at every few milliseconds: a state waited for, not
    a time slept (a loaded machine only makes it longer); fails after ``timeout``
    seconds with ``what``."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def widget(
    name: str, *, rv: str = "1", generation: int = 1, uid: str = "", **meta: Any
) -> dict[str, Any]:
    return {
        "apiVersion": "dev.example.com/v1",
        "kind": "Widget",
        "metadata": {
            "name": name,
            "namespace": "ns",
            "uid": uid or f"uid-{name}",
            "resourceVersion": rv,
            "generation": generation,
            **meta,
        },
        "spec": {},
    }


def configmap(name: str, *, owner: str = "", rv: str = "1", **meta: Any) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "name": name,
        "namespace": "ns",
        "uid": f"uid-{name}",
        "resourceVersion": rv,
    }
    if owner:
        metadata["ownerReferences"] = [
            {
                "apiVersion": "dev.example.com/v1",
                "kind": "Widget",
                "name": owner,
                "uid": f"uid-{owner}",
                "controller": True,
                "blockOwnerDeletion": True,
            }
        ]
    metadata.update(meta)
    return {"metadata": metadata}
