"""``list_then_watch``: client-go's Reflector for one resource, as plain events.

Mirrors ``k8s.io/client-go/tools/cache/reflector.go`` (``ListAndWatch``, ``list``,
``watch``, ``handleWatch``, ``relistResourceVersion``), its pager
(``tools/pager/pager.go``) and its backoff (``apimachinery/pkg/util/wait/backoff.go``
``NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)``). What it promises:

- The first list asks for resourceVersion "0" (the API server's watch cache) in pages
  of 500; a later relist asks for the last resourceVersion seen (not older than it,
  without pages unless the server paged before, so the watch cache can answer), and for
  "" (a consistent read) once the server said that version is gone (410 Expired).
  A continue token that expires mid-list starts the list over without pages.
- After each list: the objects that are new are ``ADDED``, those whose resourceVersion
  changed ``MODIFIED``, those known before but missing now ``DELETED`` (with the last
  state seen: a delete that happened while disconnected is never lost), then one
  ``SYNCED`` marker.
- Then a watch from the list's resourceVersion with ``allowWatchBookmarks=true`` and
  ``timeoutSeconds`` drawn in [300, 600) (``minWatchTimeout * (1 + rand)``); each
  event advances the resourceVersion, bookmarks too (they are not passed on). A watch
  that ends (the server's timeout, a dropped connection) is opened again from the last
  resourceVersion; a refused connection or a 429 waits the backoff and tries the watch
  again; a 410 Gone (the answer or an ERROR event) and any other error list again
  after the backoff. A watch that ends within a second with no event counts as an error
  (``very short watch``).
- Backoff with jitter, as client-go's: 0.8, 1.6, 3.2, ... capped at 30 s, each delay
  drawn in [d, 2d), back to 0.8 s after two minutes without one.
- Each watch read has a client-side idle deadline: no byte for
  min(``timeoutSeconds`` + 30 s, ``WATCH_IDLE_SECONDS`` = 105 s) and the connection is
  taken for dead (it went silent without closing: kopf users report watches idle
  forever, nolar/kopf#810, #1276), failed and reopened from the last resourceVersion
  (cheap; a 410 lists again). client-go notices a dead peer in ~45 s from HTTP/2 pings
  (``ReadIdleTimeout`` 30 s + ``PingTimeout`` 15 s, k8s.io/client-go/transport); over
  HTTP/1.1 there are no pings, but the API server's watch cache sends every watcher
  that allows bookmarks a BOOKMARK at least once a minute
  (staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go
  ``defaultBookmarkFrequency = time.Minute``, cache_watcher.go ``nextBookmarkTime``), so
  a live watch is never silent much past 60 s; 60 s + client-go's 45 s is the bound.
  Without the watch cache (``--watch-cache=false``, rare) a quiet watch gets no
  bookmarks: it is then simply reopened every 105 s, which costs one request. Sockets
  also have Go's TCP keep-alive.
- ``stop`` (a ``threading.Event``) set from any thread ends the iteration promptly:
  within ``STOP_POLL_SECONDS`` during a watch or a backoff (the watch's socket is shut
  down), after the current page during a list.

Not mirrored: client-go 1.35's streaming lists (``sendInitialEvents``), resync, and the
store's indexers. Events are records of plain dicts; nothing is printed.
"""

from __future__ import annotations

import enum
import random as _random
import threading
import time

from kubectl_crd.kube.resources import DEFAULT_PAGE_SIZE
from kubectl_crd.model.errors import (
    ApiError,
    ClusterError,
    ClusterUnreachableError,
    ResourceExpiredError,
)
from kubectl_crd.model.records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterator
    from typing import Any

    from kubectl_crd.kube.client import WatchStream
    from kubectl_crd.kube.resources import ResourceClient

__all__ = [
    "WATCH_IDLE_SECONDS",
    "Backoff",
    "EventType",
    "Reflector",
    "ReflectorEvent",
    "list_then_watch",
    "watch_timeout_seconds",
]

#: reflector.go defaultMinWatchTimeout / minWatchTimeout (5 minutes)
MIN_WATCH_TIMEOUT_SECONDS = 300.0
#: how far past the server's timeout a silent watch is taken for dead
READ_TIMEOUT_MARGIN_SECONDS = 30.0
#: a watch silent this long is taken for dead: the watch cache's bookmark period
#: (apiserver storage/cacher/cacher.go defaultBookmarkFrequency, 1 minute) plus the
#: 45 s client-go gives an HTTP/2 connection to answer (ReadIdleTimeout 30 s +
#: PingTimeout 15 s, client-go transport); see the module docstring
WATCH_IDLE_SECONDS = 105.0
#: how often the stop event is looked at while a watch blocks
STOP_POLL_SECONDS = 0.1
#: reflector.go handleWatch: a watch closed this soon with no event is an error
SHORT_WATCH_SECONDS = 1.0


class EventType(enum.Enum):
    ADDED = "ADDED"
    MODIFIED = "MODIFIED"
    DELETED = "DELETED"
    #: every object of a (re)list has been reported: the events' state is the server's
    SYNCED = "SYNCED"


@record
class ReflectorEvent:
    """One change: ``type`` and the object (``None`` for ``SYNCED``)."""

    type: EventType
    object: dict[str, Any] | None = None

    @property
    def key(self) -> tuple[str, str]:
        return _key(self.object or {})


class Backoff:
    """client-go's ``exponentialBackoffManager`` with the reflector's values.

    Each ``next()`` is the current delay with jitter (``d + rand * jitter * d``), then
    the delay is multiplied by ``factor`` up to ``cap``; after ``reset_after`` seconds
    without a call the delay starts from ``initial`` again.
    """

    def __init__(
        self,
        initial: float = 0.8,
        cap: float = 30.0,
        reset_after: float = 120.0,
        factor: float = 2.0,
        jitter: float = 1.0,
        *,
        random: Callable[[], float] = _random.random,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.initial = initial
        self.cap = cap
        self.reset_after = reset_after
        self.factor = factor
        self.jitter = jitter
        self._random = random
        self._clock = clock
        self._delay = initial
        self._last: float | None = None

    def next(self) -> float:
        now = self._clock()
        if self._last is not None and now - self._last > self.reset_after:
            self._delay = self.initial
        self._last = now
        delay = self._delay
        self._delay = min(self._delay * self.factor, self.cap)
        return delay + self._random() * self.jitter * delay if self.jitter > 0 else delay


def watch_timeout_seconds(
    random: Callable[[], float] = _random.random,
    minimum: float = MIN_WATCH_TIMEOUT_SECONDS,
) -> int:
    """reflector.go: ``timeoutSeconds := int64(minWatchTimeout.Seconds() * (rand.Float64()
    + 1.0))``, so that watches of many clients do not all end at once; in [300, 600)."""
    return int(minimum * (random() + 1.0))


def _key(obj: dict[str, Any]) -> tuple[str, str]:
    metadata = obj.get("metadata") or {}
    return str(metadata.get("namespace") or ""), str(metadata.get("name") or "")


def _resource_version(obj: dict[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("resourceVersion") or "")


def _refused(exc: BaseException) -> bool:
    """A dial refused (utilnet.IsConnectionRefused), seen through the causes."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return True
        cause = getattr(seen, "cause", None)  # transport.DialError
        if isinstance(cause, ConnectionRefusedError):
            return True
        seen = seen.__cause__
    return False


def _too_large_resource_version(exc: ApiError) -> bool:
    """reflector.go isTooLargeResourceVersionError: a 504 whose cause is
    ``ResourceVersionTooLarge`` (the server is behind the version asked for)."""
    details = exc.status_object.get("details") or {}
    causes = details.get("causes") if isinstance(details, dict) else None
    return any(
        isinstance(cause, dict) and cause.get("reason") == "ResourceVersionTooLarge"
        for cause in causes or ()
    )


class _WatchEnded(Exception):
    """The watch failed in a way that calls for a list again, after the backoff."""


class Reflector:
    """The list-then-watch loop of one resource; iterate ``events()``.

    ``store`` holds the objects as last seen (by namespace and name), and
    ``resource_version`` the last resourceVersion seen; ``lists``, ``expired`` and
    ``watches`` count what happened (lists made, 410 answers met, watches opened);
    ``on_error`` gets each error that made it back off or list again (client-go's
    ``WatchErrorHandler``, which logs them).
    """

    def __init__(
        self,
        resource: ResourceClient,
        *,
        stop: threading.Event | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
        min_watch_timeout: float = MIN_WATCH_TIMEOUT_SECONDS,
        read_timeout_margin: float = READ_TIMEOUT_MARGIN_SECONDS,
        idle_timeout: float = WATCH_IDLE_SECONDS,
        backoff: Backoff | None = None,
        connect_backoff: Backoff | None = None,
        on_error: Callable[[ClusterError], None] | None = None,
        random: Callable[[], float] = _random.random,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.resource = resource
        self.stop = stop if stop is not None else threading.Event()
        self.label_selector = label_selector
        self.field_selector = field_selector
        self.page_size = page_size
        self.min_watch_timeout = min_watch_timeout
        self.read_timeout_margin = read_timeout_margin
        self.idle_timeout = idle_timeout
        self.backoff = backoff or Backoff(random=random, clock=clock)
        #: reflector.go initConnBackoffManager: refused watches and 429s back off apart
        self.connect_backoff = connect_backoff or Backoff(random=random, clock=clock)
        self.on_error = on_error
        self._random = random
        self._clock = clock
        self.store: dict[tuple[str, str], dict[str, Any]] = {}
        self.resource_version = ""
        self.lists = 0
        self.expired = 0
        self.watches = 0
        #: reflector.go isLastSyncResourceVersionUnavailable: relist with ""
        self._version_unavailable = False
        #: reflector.go paginatedResult: the server paged a list at "0"
        self._paginated = False
        self._stream: WatchStream | None = None
        self._finished = threading.Event()

    # -- the loop ----------------------------------------------------------------------

    def events(self) -> Generator[ReflectorEvent, None, None]:
        """List, report, watch, report; again after every error, until ``stop`` (or until
        the generator is closed)."""
        stopper = threading.Thread(target=self._watch_stop, name="reflector-stop", daemon=True)
        stopper.start()
        try:
            while not self.stop.is_set():
                try:
                    items, version = self._list()
                except ClusterError as exc:
                    self._error(exc)
                    if not self._sleep(self.backoff.next()):
                        return
                    continue
                if self.stop.is_set():
                    return
                yield from self._replace(items)
                self.resource_version = version
                self._version_unavailable = False
                yield ReflectorEvent(EventType.SYNCED)
                try:
                    yield from self._watch_until_error()
                except _WatchEnded:
                    if not self._sleep(self.backoff.next()):
                        return
        finally:
            self._finished.set()
            stream, self._stream = self._stream, None
            if stream is not None:
                stream.close()

    def _watch_until_error(self) -> Iterator[ReflectorEvent]:
        while not self.stop.is_set():
            timeout = watch_timeout_seconds(self._random, self.min_watch_timeout)
            stream = self.resource.watch(
                resource_version=self.resource_version,
                label_selector=self.label_selector,
                field_selector=self.field_selector,
                allow_bookmarks=True,
                timeout_seconds=timeout,
                read_timeout=min(timeout + self.read_timeout_margin, self.idle_timeout),
            )
            self._stream = stream
            self.watches += 1
            started = self._clock()
            count = 0
            try:
                for event in stream:
                    if self.stop.is_set():
                        return
                    count += 1
                    reported = self._apply(event.type, event.object)
                    if reported is not None:
                        yield reported
            except ResourceExpiredError as exc:
                # reflector.go: list again from the last resourceVersion seen (a list is
                # "not older than" it, so this is right); "" only if that is gone too
                self.expired += 1
                self._error(exc)
                raise _WatchEnded() from exc
            except ApiError as exc:
                self._error(exc)
                if exc.status == 429 and count == 0:
                    if not self._sleep(self.connect_backoff.next()):
                        return
                    continue
                raise _WatchEnded() from exc
            except ClusterUnreachableError as exc:
                self._error(exc)
                if _refused(exc):
                    # reflector.go: a refused watch is retried after the backoff, not
                    # turned into a list (the server is restarting)
                    if not self._sleep(self.connect_backoff.next()):
                        return
                    continue
                if count == 0 and self._clock() - started < SHORT_WATCH_SECONDS:
                    raise _WatchEnded() from exc
                continue  # the stream broke: watch again from the last resourceVersion
            finally:
                self._stream = None
                stream.close()
            if self.stop.is_set():
                return
            if count == 0 and self._clock() - started < SHORT_WATCH_SECONDS:
                raise _WatchEnded()  # "very short watch"

    def _apply(self, kind: str, obj: dict[str, Any]) -> ReflectorEvent | None:
        version = _resource_version(obj)
        if kind == "BOOKMARK":
            if version:
                self.resource_version = version
            return None
        if kind not in ("ADDED", "MODIFIED", "DELETED"):
            return None
        key = _key(obj)
        if kind == "DELETED":
            self.store.pop(key, None)
        else:
            self.store[key] = obj
        if version:
            self.resource_version = version
        return ReflectorEvent(EventType(kind), obj)

    def _replace(self, items: list[dict[str, Any]]) -> Iterator[ReflectorEvent]:
        """The store becomes ``items``; the differences as events (kube-rs and the
        informer's DeletedFinalStateUnknown: a missing object is reported deleted)."""
        fresh: dict[tuple[str, str], dict[str, Any]] = {}
        for obj in items:
            fresh[_key(obj)] = obj
        old, self.store = self.store, fresh
        for key, obj in fresh.items():
            before = old.get(key)
            if before is None:
                yield ReflectorEvent(EventType.ADDED, obj)
            elif _resource_version(before) != _resource_version(obj):
                yield ReflectorEvent(EventType.MODIFIED, obj)
        for key, obj in old.items():
            if key not in fresh:
                yield ReflectorEvent(EventType.DELETED, obj)

    # -- the list ----------------------------------------------------------------------

    def _relist_version(self) -> str:
        """reflector.go relistResourceVersion."""
        if self._version_unavailable:
            return ""
        return self.resource_version or "0"

    def _list(self) -> tuple[list[dict[str, Any]], str]:
        version = self._relist_version()
        # reflector.go list(): pages for "0" and "" (the watch cache ignores the limit
        # at "0"); none at a given version unless the server paged before, so the
        # watch cache answers instead of etcd (and an old version is no 410)
        limit: int | None = self.page_size
        if version not in ("", "0") and not self._paginated:
            limit = None
        self.lists += 1
        try:
            return self._list_pages(version, limit)
        except ResourceExpiredError:
            self.expired += 1
            self._version_unavailable = True
            raise
        except ApiError as exc:
            if exc.status == 504 and _too_large_resource_version(exc):
                self._version_unavailable = True
            raise

    def _list_pages(self, version: str, limit: int | None) -> tuple[list[dict[str, Any]], str]:
        items: list[dict[str, Any]] = []
        list_version = ""
        pages = self.resource.pages(
            label_selector=self.label_selector,
            field_selector=self.field_selector,
            limit=limit,
            resource_version=version,
        )
        count = 0
        try:
            for page in pages:
                metadata = page.get("metadata") or {}
                if count == 0:
                    list_version = str(metadata.get("resourceVersion") or "")
                    if metadata.get("continue") and version == "0":
                        self._paginated = True
                count += 1
                items.extend(page.get("items") or ())
                if self.stop.is_set():
                    break
        except ResourceExpiredError:
            if count == 0 or limit is None:
                raise
            # pager.go FullListIfExpired: the continue token expired mid-list, so the
            # list starts over at the version asked for, in one piece
            self.expired += 1
            return self._list_pages(version, None)
        return items, list_version

    # -- waiting and stopping ----------------------------------------------------------

    def _sleep(self, seconds: float) -> bool:
        """Wait ``seconds`` unless stopped; False when stopped."""
        return not self.stop.wait(seconds)

    def _error(self, exc: ClusterError) -> None:
        if self.on_error is not None:
            self.on_error(exc)

    def _watch_stop(self) -> None:
        """Shut the current watch's socket when ``stop`` is set (a blocked read returns)."""
        while not self._finished.is_set():
            if self.stop.wait(STOP_POLL_SECONDS):
                stream = self._stream
                if stream is not None:
                    stream.close()
                if self._finished.wait(STOP_POLL_SECONDS):
                    return


def list_then_watch(
    resource: ResourceClient,
    *,
    stop: threading.Event,
    label_selector: str | None = None,
    field_selector: str | None = None,
    page_size: int = DEFAULT_PAGE_SIZE,
    on_error: Callable[[ClusterError], None] | None = None,
) -> Generator[ReflectorEvent, None, None]:
    """The events of ``resource``'s objects until ``stop`` is set (see the module
    docstring); ``Reflector`` gives access to the store and the counters."""
    return Reflector(
        resource,
        stop=stop,
        label_selector=label_selector,
        field_selector=field_selector,
        page_size=page_size,
        on_error=on_error,
    ).events()
