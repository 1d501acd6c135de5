"""The dev loop's engine events: plain records, handed to one ``EventSink``.

The engine prints nothing (``conventions.md``: results are data, printers are plugins);
what happens is told to a sink as these records, and ``output`` renders them as log
lines or a live screen. Every record is immutable and holds plain values (strings,
numbers, tuples, dicts as the API server sent them), so a sink may keep them, count
them or send them to another thread.

Keys are ``(namespace, name)`` of a reconciled object (``""`` namespace when it is
cluster-scoped); ``key_text`` spells one as kubectl does, ``namespace/name``.

A sink is called from the engine's threads (workers, informers, the reloader): it must
be quick and thread-safe (appending to a list, putting on a queue).
"""

from __future__ import annotations

import enum

from kubectl_crd.model.records import field, record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, TypeAlias

__all__ = [
    "Event",
    "EventSink",
    "KubernetesEventFailed",
    "Log",
    "ObjectCached",
    "ObjectDeleted",
    "ObjectKey",
    "Outcome",
    "ReconcileFinished",
    "ReconcileStarted",
    "ReconcileTimedOut",
    "ReloadFailed",
    "ReloadStarted",
    "ReloadSucceeded",
    "Requeued",
    "Stopped",
    "Stopping",
    "Swapped",
    "WatchError",
    "WatchStarted",
    "WatchStopped",
    "WatchSynced",
    "Write",
    "WriteFailed",
    "error_text",
    "key_text",
]

#: ``(namespace, name)``; the namespace is "" for a cluster-scoped object
ObjectKey = tuple[str, str]


def key_text(key: ObjectKey) -> str:
    """``namespace/name``, or ``name`` alone for a cluster-scoped object (kubectl's
    ``cache.MetaNamespaceKeyFunc``)."""
    namespace, name = key
    return f"{namespace}/{name}" if namespace else name


def error_text(error: BaseException) -> str:
    """``KeyError: 'x'``, or ``KeyboardInterrupt`` alone when the exception says nothing
    more, as Python's traceback writes its last line (``traceback.py``'s
    ``format_exception_only``), not ``KeyboardInterrupt: ``."""
    message = str(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


class Outcome(enum.Enum):
    """How one reconcile ended."""

    #: the reconciler returned and every write it asked for was made (or not needed)
    SUCCESS = "success"
    #: it raised (or a write failed): the key is requeued with backoff
    ERROR = "error"
    #: it raised ``TerminalError``: not retried until the object changes
    TERMINAL = "terminal"
    #: the object was gone from the cache: nothing to do
    GONE = "gone"


# -- the reconciled objects ------------------------------------------------------------


@record
class ObjectCached:
    """An object of the reconciled resource (``FOR``) entered the cache (the first list
    or a watch's ADDED); its key is queued, so a display can show it pending before its
    first reconcile starts."""

    key: ObjectKey
    resource: str


@record
class ObjectDeleted:
    """An object of the reconciled resource left the cache (deleted on the server)."""

    key: ObjectKey
    resource: str


# -- reconciles ------------------------------------------------------------------------


@record
class ReconcileStarted:
    key: ObjectKey
    #: the resource reconciled, as the reconciler's ``FOR`` names it
    resource: str
    #: the object's generation and resourceVersion as the reconciler is given it
    generation: int = 0
    resource_version: str = ""


@record
class ReconcileFinished:
    key: ObjectKey
    outcome: Outcome
    #: seconds the reconciler ran, writes included
    duration: float
    #: writes sent (server-side applies, status, deletes, finalizers)
    writes: int = 0
    #: the error's one line (``TypeError: ...``) when the outcome is ERROR or TERMINAL
    error: str = ""
    #: where in the user's code it was raised (the innermost frame of their file)
    file: str = ""
    line: int = 0
    #: the full traceback text, for a verbose display
    traceback: str = field(default="", repr=False)
    #: the result's requeue_after, when it asked for one
    requeue_after: float | None = None


@record
class ReconcileTimedOut:
    """A reconcile ran past ``reconcile_timeout``; it cannot be killed (a thread), so it
    is reported, and its key is reconciled again once it returns (``again``), unless the
    controller was told not to (``--once``: the run is one pass)."""

    key: ObjectKey
    elapsed: float
    timeout: float
    again: bool = True
    #: where in the user's files it was running then (``slow.py``, 4), if it was
    file: str = ""
    line: int = 0


@record
class Requeued:
    key: ObjectKey
    #: seconds until the key is reconciled again
    after: float
    #: "error" (backoff), "requeue_after", "timeout", "swap"
    reason: str
    #: how many times in a row it failed (client-go's NumRequeues)
    failures: int = 0


# -- writes ----------------------------------------------------------------------------


@record
class Write:
    """One write the loop made for a reconcile (or would make, with ``dry_run``)."""

    key: ObjectKey
    #: "apply" (a child: created when absent, else server-side applied), "move-fields"
    #: (a created child's fields moved to its apply, before an apply that leaves one of
    #: them out), "status", "delete" (a child no longer desired), "add-finalizer",
    #: "remove-finalizer"
    verb: str
    #: the written object's kind, namespace and name
    kind: str
    namespace: str
    name: str
    dry_run: bool = False
    #: what was sent (the applied object, the status patch)
    body: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)
    #: a dry run's answer: the object as the write would leave it (the server's reply;
    #: for a delete, the object it would delete), for its display as ``kubectl diff``
    #: shows one; None for a write that was made
    answer: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)


@record
class WriteFailed:
    """A write the server refused (a child it rejects, RBAC, a conflict): the reconcile
    counts as failed and is retried; the loop keeps running."""

    key: ObjectKey
    verb: str
    kind: str
    namespace: str
    name: str
    #: the server's line (``The ConfigMap "x" is invalid: ...``)
    message: str
    status: int = 0


@record
class KubernetesEventFailed:
    """``ctx.event(...)`` could not be recorded (the loop goes on)."""

    key: ObjectKey
    reason: str
    message: str


@record
class Log:
    """A record the reconciler logged through ``ctx.log``, or the loop's warning about
    what it returned (a child of a kind OWNS does not name)."""

    key: ObjectKey
    level: int
    message: str


# -- watches ---------------------------------------------------------------------------


@record
class WatchStarted:
    #: the resource as the reconciler named it (``FOR``, ``OWNS`` or ``WATCHES``)
    resource: str
    #: "for", "owns" or "watches"
    role: str


@record
class WatchSynced:
    """The informer's first list is in its cache (later relists say it again)."""

    resource: str
    objects: int
    #: seconds from the informer's start
    elapsed: float


@record
class WatchError:
    """The watch failed and will list or watch again after a backoff; or, with
    ``retrying`` false, an object it brought could not be handled (a ``WATCHES``
    mapping that raised) and the watch goes on."""

    resource: str
    message: str
    retrying: bool = True


@record
class WatchStopped:
    resource: str


# -- reloads and the loop's life -------------------------------------------------------


@record
class ReloadStarted:
    path: str
    #: the files whose change caused it
    changed: tuple[str, ...] = ()


@record
class ReloadSucceeded:
    path: str
    #: seconds from the file write to the first reconcile by the new code (or to the
    #: swap when nothing is cached)
    latency: float
    #: the resources whose watches started or stopped because FOR/OWNS changed
    watches_started: tuple[str, ...] = ()
    watches_stopped: tuple[str, ...] = ()
    #: where earlier loads that never returned are still running (``helper.py:2``):
    #: their threads cannot be stopped (``loading.load_reconciler``)
    stuck: tuple[str, ...] = ()


@record
class ReloadFailed:
    """The new code did not import or declare a valid reconciler; the old one runs on."""

    path: str
    error: str
    file: str = ""
    line: int = 0
    #: the offending source line and a caret under the column, as Python shows them
    caret: str = ""
    #: as ``ReloadSucceeded.stuck``
    stuck: tuple[str, ...] = ()


@record
class Swapped:
    """The controller runs a new reconciler; ``requeued`` cached objects were enqueued.
    ``finalizers_left``: the objects that keep the old code's finalizer, the new code
    reconciling another resource or finalizing under another name (named again when
    the loop stops; ``--remove-finalizers-on-exit`` takes it off them)."""

    requeued: int
    watches_started: tuple[str, ...] = ()
    watches_stopped: tuple[str, ...] = ()
    finalizers_left: tuple[ObjectKey, ...] = ()
    #: the resource the new code reconciles, as it spells ``FOR`` (a display follows a
    #: change of it: the rows of the old one's objects go)
    for_resource: str = ""


@record
class Stopping:
    """The loop stops: ``in_flight`` reconciles are being finished."""

    in_flight: int


@record
class Stopped:
    """The loop stopped; ``finalizers_left`` are the objects still carrying the loop's
    finalizer (they cannot be deleted until a loop removes it)."""

    finalizers_left: tuple[ObjectKey, ...] = ()
    finalizers_removed: tuple[ObjectKey, ...] = ()
    #: the reconciles still running when the stop gave up waiting for them (its bound,
    #: 30 s from the CLI): the process ends without their end
    abandoned: tuple[ObjectKey, ...] = ()
    #: where each of ``abandoned`` was running in the user's files (``slow.py:4``, or "")
    abandoned_at: tuple[str, ...] = ()


if TYPE_CHECKING:
    Event: TypeAlias = (
        ObjectCached
        | ObjectDeleted
        | ReconcileStarted
        | ReconcileFinished
        | ReconcileTimedOut
        | Requeued
        | Write
        | WriteFailed
        | KubernetesEventFailed
        | Log
        | WatchStarted
        | WatchSynced
        | WatchError
        | WatchStopped
        | ReloadStarted
        | ReloadSucceeded
        | ReloadFailed
        | Swapped
        | Stopping
        | Stopped
    )
    EventSink: TypeAlias = Callable[[Event], None]
else:
    Event = object
    EventSink = object
