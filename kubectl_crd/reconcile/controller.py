"""The dev loop's controller: informers, a work queue, workers, and the writes a result asks for.

controller-runtime's contract (``pkg/internal/controller/controller.go``,
``pkg/handler``, ``pkg/predicate``) run on threads:

- Informers (``informers.py``) for the reconciler's ``FOR`` resource, each ``OWNS``
  resource and each ``WATCHES`` resource; ``-n`` limits every watch to one namespace,
  ``-l`` only the ``FOR`` watch. Workers start once every informer has listed, so the
  first reconcile of each object sees its children (a restart over converged objects
  makes no write).
- What enqueues a ``FOR`` key: an add, a delete, a resync, and an update that changes
  ``metadata.generation`` (``GenerationChangedPredicate``: a status-only write, the
  loop's own included, does not), its ``deletionTimestamp`` or its ``finalizers`` (what
  the finalizer flow needs; the predicate alone would miss the latter two on an object
  whose generation does not move), or any update of an object without a generation
  (a ConfigMap). An owned child's event enqueues its controller owner
  (``handler.EnqueueRequestForOwner`` with ``OnlyControllerOwner``); a watched object's
  event enqueues what ``WATCHES`` maps it to. An event of a ``FOR`` object that is the
  echo of the loop's own write there (its status, its finalizer: the resourceVersion
  that write returned) enqueues nothing: a reconcile has already seen that state. A
  child's echo (exactly the version the loop's apply answered) enqueues its owner only
  when the owner's latest reconcile read more than its own object (a ``ctx.get`` of
  another object or any ``ctx.list``, as a status that counts children does, or a
  metacontroller hook, whose request carries its children; or ``ctx.kubernetes``):
  then, as controller-runtime's ``Owns`` does, its next reconcile sees the child in
  the cache. A reconcile that read nothing else would compute the same result again,
  so a cold start reconciles each object once; unless that reconcile no longer
  desired the child: it looked for children to delete in a cache the child was not
  in yet, so the echo reconciles the owner, which deletes it. Every other child
  event (someone else's change, a server controller's status, a delete) enqueues the
  owner as before. Until the watch brings the version a write answered, the loop
  compares against that answer instead of the cache, so a reconcile right after a
  write does not send it again.
- ``-j N`` workers take keys from the ``WorkQueue`` (a key is never reconciled by two at
  once). A worker calls the reconciler with a copy of the cached object and a
  ``Context``, then makes the writes of its ``Result``:

  * each desired child is server-side applied (field manager ``kubectl-crd-dev``,
    ``force``, as controllers apply) with its namespace defaulted to the parent's and a
    controller ``ownerReference`` to the parent; a child whose cached copy already
    holds every desired value, and whose fields this manager owns are exactly the
    desired ones (its ``managedFields``), is not sent: a converged object costs nothing
    (quantities in resource-like fields compare by value, as apimachinery's
    ``equality.Semantic`` does: ``cpu: 0.5`` matches the server's ``500m``);
  * owned children (of an ``OWNS`` resource, controller owner this parent) that are
    no longer desired are deleted, in the background, with a uid precondition;
  * the status replaces ``.status`` (metacontroller's semantics) through ``/status``
    when the version has the subresource, with ``observedGeneration`` set to the
    generation reconciled; otherwise through the object itself and without
    ``observedGeneration`` (without the subresource every status write moves the
    generation, so it could never match). It is sent as a merge patch only when it
    differs from the cached status.

  A child of a kind not in ``OWNS`` (or outside the ``-n`` namespace) is in no cache:
  it is applied on every reconcile and never deleted by the loop; declare its kind in
  ``OWNS`` to have it compared, and cleaned up, like the others.

- After a reconcile: success forgets the key's failures, and ``requeue_after`` adds it
  again after that long; an exception (or a refused write) requeues it with the
  rate limiter's backoff; ``TerminalError`` is reported and not retried until the
  object changes. A failure is also recorded on the object as a ``Warning`` Event
  (reason ``ReconcileError``), once per failure streak; ``ctx.event`` records the
  reconciler's own (``Normal`` by default). A reconcile that runs past ``reconcile_timeout`` is reported; a
  thread cannot be killed, so its key is reconciled again once it returns (not with
  ``requeue_timed_out=False``: ``--once``, whose one pass would never end for a
  reconciler slower than the timeout).
- Finalizers: when the reconciler has ``finalize``, the loop's finalizer (the
  reconciler's ``finalizer`` attribute, else ``FINALIZER``) is added before an object's
  first reconcile; once the object is being deleted, ``finalize`` runs, and the
  finalizer is removed when it reports it is done. An object being deleted is not
  reconciled. ``stop(remove_finalizers=True)`` takes the finalizer off every object
  before the loop exits, so no object is left undeletable with no loop running.
- ``swap(new)`` replaces the reconciler at once (a hot reload): new informers are
  started and listed before the swap, the ones no longer needed stopped after it, the
  others (and their caches) kept; every cached ``FOR`` object is enqueued with its
  failures forgotten.

The controller draws nothing: it tells its sink ``events.py`` records.
"""

from __future__ import annotations

import gc  # built in: no start-up cost
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from kubectl_crd.model.errors import (
    ApiError,
    ClusterError,
    KubectlCrdError,
    ReconcilerResultError,
    ResourceLookupError,
    UsageError,
    VersionNotFoundError,
)
from kubectl_crd.model.managedfields import (
    APPLY,
    UPDATE,
    fields_moved_to_apply,
    owns_only,
    update_entry,
)
from kubectl_crd.model.schema import copy_json, is_mapping
from kubectl_crd.reconcile.api import Result, TerminalError
from kubectl_crd.reconcile.events import (
    Log,
    ObjectCached,
    ObjectDeleted,
    Outcome,
    ReconcileFinished,
    ReconcileStarted,
    ReconcileTimedOut,
    Requeued,
    Stopped,
    Stopping,
    Swapped,
    WatchError,
    Write,
    WriteFailed,
    error_text,
    key_text,
)
from kubectl_crd.reconcile.informers import (
    Informer,
    object_key,
)
from kubectl_crd.reconcile.workqueue import WorkQueue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kubectl_crd.reconcile.api import Context
    from kubectl_crd.reconcile.backends import Backend, ResourceInfo
    from kubectl_crd.reconcile.events import EventSink, ObjectKey
    from kubectl_crd.reconcile.workqueue import RateLimiter

__all__ = [
    "CLUSTER_WORKERS",
    "FIELD_MANAGER",
    "FINALIZER",
    "LOCAL_WORKERS",
    "REASON_ERROR",
    "Controller",
    "FinalizeNotDone",
    "ReconcilerLike",
    "managed_paths",
    "merge_patch",
    "needs_apply",
    "object_paths",
    "subset",
    "tune_collector",
]

#: the one field manager of the loop's writes
FIELD_MANAGER = "kubectl-crd-dev"
#: the loop's finalizer, unless the reconciler names its own (``finalizer``)
FINALIZER = "kubectl-crd.dev/finalizer"
#: the reason of the Warning Event a failed reconcile records on its object
REASON_ERROR = "ReconcileError"
#: an Event's message is cut there (events.k8s.io's note limit is 1 kB)
_EVENT_MESSAGE_LIMIT = 1024
#: how often in-flight reconciles are checked against the timeout
_WATCHDOG_SECONDS = 0.1
#: the waits between the 4 tries of client-go's util/retry DefaultBackoff (10 ms, factor 5;
#: wait.ExponentialBackoff sleeps between steps, not after the last), jitter left out
_CONFLICT_RETRY_DELAYS = (0.01, 0.05, 0.25)
#: the workers a loop runs by default (``kubectl crd dev``'s ``-j``; its comment says why):
#: against a cluster, and on the in-process store
CLUSTER_WORKERS = 8
LOCAL_WORKERS = 1
#: the cyclic collector's youngest-generation threshold while the loop runs
_GC_YOUNG = 10_000


def tune_collector() -> Callable[[], None]:
    """Set the cyclic collector for the loop; the function that puts it back.

    The loop allocates a few dozen containers an event and keeps few of them: the
    youngest generation is collected every ``_GC_YOUNG`` allocations, not 700 (1,000
    Foos --once: 375 collections and 150-165 ms -> 25-49 and 62-90 ms). ``kubectl crd
    dev`` sets it for its loop, bench/dev_runner.py for the engine it times."""
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, _GC_YOUNG), *older)
    return lambda: gc.set_threshold(young, *older)


class FinalizationLike(Protocol):
    @property
    def result(self) -> Result: ...

    @property
    def finalized(self) -> bool: ...


class ReconcilerLike(Protocol):
    """What the controller needs of a reconciler (``loading.LoadedReconciler`` is one).

    Resources are anything whose ``str()`` is a spelling ``Backend.resolve`` takes
    (``loading.ResourceSpec``, or a plain string).
    """

    @property
    def for_resource(self) -> object: ...

    @property
    def owns(self) -> Sequence[object]: ...

    @property
    def watches(self) -> Sequence[tuple[object, Callable[[Any], Any]]]: ...

    @property
    def has_finalize(self) -> bool: ...

    def call(self, obj: Mapping[str, Any], ctx: Any) -> Result: ...

    def finalize(self, obj: Mapping[str, Any], ctx: Any) -> FinalizationLike: ...

    def parents_of(self, resource: Any, obj: Mapping[str, Any]) -> list[tuple[str, str]]: ...


# -- what a write would change (pure) ---------------------------------------------------


#: the members of these mappings are quantities in the built-in kinds (a container's
#: ``resources.limits``/``requests``, a PVC's, a ResourceQuota's ``hard``/``used``, a
#: LimitRange item's ``max``/``min``/``default``/``defaultRequest``/
#: ``maxLimitRequestRatio``, a node's ``capacity``/``allocatable``, a pod's ``overhead``)
_QUANTITY_MAPS = frozenset(
    {
        "limits",
        "requests",
        "hard",
        "used",
        "capacity",
        "allocatable",
        "overhead",
        "max",
        "min",
        "default",
        "defaultRequest",
        "maxLimitRequestRatio",
    }
)
#: scalar quantity fields of the built-in kinds (an ``emptyDir``'s)
_QUANTITY_FIELDS = frozenset({"sizeLimit"})


def subset(desired: Any, actual: Any, *, quantities: bool = False) -> bool:
    """Every value of ``desired`` is in ``actual``: mappings by key (``actual`` may hold
    more: what the server or others set), lists item by item with the same length,
    scalars equal (``True`` is not ``1``).

    In a resource-like field (a member of ``limits``, ``requests``, ``hard`` .. or a
    ``sizeLimit``) two quantities of the same value are equal: the server stores
    ``0.5`` as ``500m``, and apimachinery's ``equality.Semantic`` compares quantities by
    value, so an apply of the other spelling would change nothing anyone reads."""
    # this walk meets a value ~30 times per child (a reconcile's usual no-op apply):
    # exact-type checks first (``is_mapping``)
    if type(desired) is str and type(actual) is str and desired == actual:
        return True
    if is_mapping(desired):
        if not is_mapping(actual):
            return False
        for key, value in desired.items():
            if value is None:
                if actual.get(key) is not None:
                    return False
            elif key not in actual or not subset(
                value,
                actual[key],
                # a member of a resource list (it is flat), or a quantity field
                quantities=quantities or key in _QUANTITY_MAPS or key in _QUANTITY_FIELDS,
            ):
                return False
        return True
    if isinstance(desired, list | tuple):
        if not isinstance(actual, list) or len(actual) != len(desired):
            return False
        return all(subset(d, a) for d, a in zip(desired, actual, strict=True))
    if isinstance(desired, bool) or isinstance(actual, bool):
        return desired is actual
    if desired == actual:
        return True
    if quantities:
        from kubectl_crd.model.quantity import same_quantity

        return same_quantity(desired, actual)
    return False


#: the built-in kinds (group, kind) the server defaults fields of on every create (their
#: ``SetObjectDefaults``: a Deployment's strategy, a Secret's type, a Pod's policies), so a
#: create would own more than an apply: their children are applied from the start
#: (``Controller._creates``); ``validation.builtin_defaulting``'s plans, which a unit test
#: holds this to (not imported here: a converge would pay its import)
DEFAULTED_ON_CREATE = frozenset(
    {
        ("", "Namespace"),
        ("", "PersistentVolumeClaim"),
        ("", "Pod"),
        ("", "Secret"),
        ("", "Service"),
        ("apps", "DaemonSet"),
        ("apps", "Deployment"),
        ("apps", "ReplicaSet"),
        ("apps", "StatefulSet"),
        ("batch", "CronJob"),
        ("batch", "Job"),
        ("networking.k8s.io", "NetworkPolicy"),
        ("rbac.authorization.k8s.io", "RoleBinding"),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    }
)

#: identity fields: in an applied object, never in its managedFields
_IDENTITY = {("apiVersion",), ("kind",), ("metadata", "name"), ("metadata", "namespace")}


def object_paths(obj: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The field paths an apply of ``obj`` sets, down through mappings; a list or a
    scalar ends a path (as a managedFields entry's keys cannot be told apart below a
    list without the schema)."""
    paths: set[tuple[str, ...]] = set()
    for key, value in obj.items():
        path = (*prefix, key)
        if value and is_mapping(value):
            paths |= object_paths(value, path)
        elif path not in _IDENTITY:
            paths.add(path)
    return paths


def _fields_paths(fields: Mapping[str, Any], prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
    paths: set[tuple[str, ...]] = set()
    for key, value in fields.items():
        if not key.startswith("f:"):
            continue
        path = (*prefix, key[2:])
        inner = value if is_mapping(value) else {}
        if any(k.startswith("f:") for k in inner):
            paths |= _fields_paths(inner, path)
        else:
            paths.add(path)  # a leaf, or a list ("k:", "v:", "i:" below)
    return paths


def managed_paths(
    obj: Mapping[str, Any], manager: str, subresource: str = ""
) -> set[tuple[str, ...]] | None:
    """The field paths ``manager`` owns in ``obj``'s ``managedFields`` (``fieldsV1``,
    cut as ``object_paths`` cuts them): by apply, or by the create the loop made the
    object with (``Controller._create``; moved to the apply's entry before the next
    apply); ``None`` when it owns none."""
    found: set[tuple[str, ...]] | None = None
    for entry in (obj.get("metadata") or {}).get("managedFields") or ():
        if (
            entry.get("manager") == manager
            and entry.get("operation") in (APPLY, UPDATE)
            and (entry.get("subresource") or "") == subresource
        ):
            found = (found or set()) | _fields_paths(entry.get("fieldsV1") or {}, ())
    return found


def needs_apply(desired: Mapping[str, Any], cached: Mapping[str, Any] | None, manager: str) -> bool:
    """Whether applying ``desired`` could change ``cached``: not when ``cached`` holds
    every desired value and ``manager`` owns exactly the desired fields (an apply that
    leaves out a field the manager owns removes it, so that is a change too). A map
    the schema makes atomic (a Deployment's or Service's selector) is owned as a whole
    (its managedFields entry has no members): it must equal the desired one.

    Lists are compared item by item as subsets (the server defaults fields inside
    items: a port's protocol), so a member dropped from an item of a list this manager
    owns is not noticed. Quantities in resource-like fields compare by value
    (``subset``): a child asking for ``cpu: 0.5`` converges to no write over the
    server's ``500m``."""
    if cached is None:
        return True
    # a list's items come without apiVersion and kind (a watch's objects have them):
    # the resource they were read from already says both
    body = {key: value for key, value in desired.items() if key not in ("apiVersion", "kind")}
    if not subset(body, cached):
        return True
    managed = managed_paths(cached, manager)
    if managed is None:
        return True
    wanted = object_paths(desired)
    for path in wanted - managed:
        # owned through an atomic map (a selector: managedFields stop at the map)
        if not any(path[:end] in managed for end in range(1, len(path))):
            return True  # a desired field this manager does not own yet
    for path in managed - wanted:
        if not any(each[: len(path)] == path for each in wanted):
            return True  # owned, and no longer desired: an apply removes it
        # an atomic map is owned whole: it must be exactly the desired one
        if _at(desired, path) != _at(cached, path):
            return True
    return False


def released_by_move(
    child: Mapping[str, Any], desired: Mapping[str, Any], manager: str
) -> set[tuple[str, ...]]:
    """The fields (cut as ``object_paths`` cuts them) that moving ``manager``'s create
    fields to its apply and applying ``desired`` removes: its ``Update`` entry's that
    ``desired`` leaves out and no other manager owns."""
    entry = update_entry(child, manager)
    if entry is None:
        return set()
    others: set[tuple[str, ...]] = set()
    for each in (child.get("metadata") or {}).get("managedFields") or ():
        if each.get("manager") != manager and not each.get("subresource"):
            others |= _fields_paths(each.get("fieldsV1") or {}, ())
    wanted = object_paths(desired)
    return {
        path
        for path in _fields_paths(entry.get("fieldsV1") or {}, ()) - wanted - others
        if not any(each[: len(path)] == path for each in wanted)
    }


def _previewed_after_move(
    apply: Callable[[], dict[str, Any]],
    child: Mapping[str, Any],
    desired: Mapping[str, Any],
    manager: str,
) -> dict[str, Any]:
    """A dry-run apply's answer without what the move before it would have released."""
    answer = apply()
    for path in released_by_move(child, desired, manager):
        parent = _at(answer, path[:-1])
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
    return answer


def _at(obj: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = obj
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def merge_patch(old: Any, new: Any) -> Any:
    """The JSON merge patch (RFC 7386) that turns ``old`` into ``new``: keys gone from
    ``new`` set to null, mappings patched key by key, anything else replaced."""
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return copy_json(new)
    patch: dict[str, Any] = {}
    for key in old:
        if key not in new:
            patch[key] = None
    for key, value in new.items():
        if key not in old:
            patch[key] = copy_json(value)
        elif old[key] != value:
            patch[key] = merge_patch(old[key], value)
    return patch


# -- the controller -----------------------------------------------------------------------


class _Dispatch:
    """An informer's handler: its events go to the controller with its resource."""

    def __init__(self, controller: Controller, info: ResourceInfo) -> None:
        self.controller = controller
        self.info = info

    def on_add(self, informer: Informer, obj: dict[str, Any]) -> None:
        self.controller._changed(self.info, None, obj)

    def on_update(self, informer: Informer, old: dict[str, Any], new: dict[str, Any]) -> None:
        self.controller._changed(self.info, old, new)

    def on_delete(self, informer: Informer, obj: dict[str, Any]) -> None:
        self.controller._changed(self.info, obj, None)

    def on_resync(self, informer: Informer, obj: dict[str, Any]) -> None:
        if self.info == self.controller._for_info:
            self.controller.enqueue(object_key(obj))


class _LogHandler(logging.Handler):
    """Turns the reconciler's log records into ``Log`` events with the worker's key."""

    def __init__(self, controller: Controller) -> None:
        super().__init__()
        self.controller = controller

    def emit(self, record: logging.LogRecord) -> None:
        key = getattr(self.controller._local, "key", ("", ""))
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: show it as it is
            message = str(record.msg)
        self.controller._emit(Log(key, record.levelno, message))


class _Resources:
    """The resolved resources of one reconciler.

    A resource the backend does not serve is the reconciler's error at the declaration
    that names it (``rec.py:3:9: OWNS: no matches for kind "Gizmo" in version "v1"``,
    the line and a caret), when the reconciler can say where (``loading``'s
    ``unserved``); ``hint`` follows a CRD not installed (what to do about it depends
    on the backend: the CLI says)."""

    def __init__(self, backend: Backend, reconciler: ReconcilerLike, hint: str = "") -> None:
        def resolve(spec: object) -> ResourceInfo:
            try:
                return backend.resolve(str(spec))
            except (ResourceLookupError, VersionNotFoundError) as exc:
                message = exc.message
                # an installed CRD without that version: not "is its CRD installed?"
                if hint and isinstance(exc, ResourceLookupError):
                    message += f" (is its CRD installed? {hint})"
                unserved = getattr(reconciler, "unserved", None)
                if unserved is not None:
                    raise unserved(spec, message) from exc
                if isinstance(exc, ResourceLookupError):
                    raise type(exc)(message, query=exc.query, candidates=exc.candidates) from exc
                raise

        self.for_info = resolve(reconciler.for_resource)
        self.owns = tuple(dict.fromkeys(resolve(spec) for spec in reconciler.owns))
        self.watches: dict[ResourceInfo, list[object]] = {}
        #: every spelling the reconciler used, for ctx.get / ctx.list
        self.by_spec = {str(reconciler.for_resource): self.for_info}
        for spec in reconciler.owns:
            self.by_spec[str(spec)] = resolve(spec)
        for spec, _ in reconciler.watches:
            info = self.by_spec[str(spec)] = resolve(spec)
            self.watches.setdefault(info, []).append(spec)

    def roles(self) -> dict[ResourceInfo, str]:
        roles: dict[ResourceInfo, list[str]] = {self.for_info: ["for"]}
        for info in self.owns:
            roles.setdefault(info, []).append("owns")
        for info in self.watches:
            roles.setdefault(info, []).append("watches")
        return {info: ",".join(names) for info, names in roles.items()}


class Controller:
    """The loop for one reconciler (see the module docstring).

    ``start()`` resolves the resources (for one the backend does not serve, the
    reconciler's ``unserved`` error, else ``ResourceNotFoundError``), starts the informers, waits until they have listed (up to
    ``sync_timeout``), then starts ``workers`` threads. ``stop()`` ends it.
    ``kubernetes_client`` builds the object ``ctx.kubernetes`` gives (called once, on
    first use).
    """

    def __init__(
        self,
        backend: Backend,
        reconciler: ReconcilerLike,
        sink: EventSink | None = None,
        *,
        workers: int = 4,
        namespace: str | None = None,
        selector: str | None = None,
        dry_run: bool = False,
        field_manager: str = FIELD_MANAGER,
        reconcile_timeout: float | None = 30.0,
        resync: float | None = None,
        sync_timeout: float = 60.0,
        rate_limiter: RateLimiter[ObjectKey] | None = None,
        kubernetes_client: Callable[[], Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        requeue_timed_out: bool = True,
        unserved_hint: str = "",
        no_cluster_hint: str = "",
    ) -> None:
        if workers < 1:
            raise ValueError("a controller needs at least one worker")
        if selector:
            from kubectl_crd.model.labels import LabelSelectorError, parse_selector

            try:
                parse_selector(selector)  # refused here, not by every relist of the watch
            except LabelSelectorError as exc:
                raise UsageError(f"invalid label selector: {exc}") from None
        self.backend = backend
        self.sink = sink
        self.workers = workers
        self.namespace = namespace or None
        self.selector = selector or None
        self.dry_run = dry_run
        self.field_manager = field_manager
        self.reconcile_timeout = reconcile_timeout
        #: a reconcile that ran past the timeout runs once more when it returns (False:
        #: --once, a pass that must end even when the reconciler is always too slow)
        self.requeue_timed_out = requeue_timed_out
        self.resync = resync
        self.sync_timeout = sync_timeout
        #: what to do about a resource whose CRD the backend lacks (``_Resources``)
        self.unserved_hint = unserved_hint
        #: what else to do when a reconcile asks for ``ctx.kubernetes`` and the backend
        #: has no cluster (the CLI words it: the engine names no flag)
        self.no_cluster_hint = no_cluster_hint
        self._kubernetes_factory = kubernetes_client
        self._kubernetes: Any = None
        self._clock = clock
        self.queue: WorkQueue[ObjectKey] = WorkQueue(rate_limiter, clock=clock)
        self._reconciler = reconciler
        self._resources: _Resources | None = None
        self._informers: dict[ResourceInfo, Informer] = {}
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()
        self._stopped: Stopped | None = None
        self._swap_lock = threading.Lock()
        #: held while ``swap`` installs new code and requeues every key, and while a
        #: reconcile decides its retry: a reconcile by code swapped out meanwhile
        #: schedules nothing (the swap requeued its key with fresh rate-limit state)
        self._code_lock = threading.Lock()
        self._lock = threading.Lock()
        #: key -> [started, timed-out-reported, worker thread] of reconciles in flight
        self._in_flight: dict[ObjectKey, list[Any]] = {}
        #: (resource, key) -> the resourceVersion the loop's last write there returned
        self._own_writes: dict[tuple[ResourceInfo, ObjectKey], str] = {}
        #: (resource, key) -> the watch events that came while a write to it was in flight
        self._held: dict[
            tuple[ResourceInfo, ObjectKey],
            list[tuple[dict[str, Any] | None, dict[str, Any] | None]],
        ] = {}
        #: (resource, key) -> the object the loop's last write there answered, until the
        #: cache holds that version or a newer one (see ``_latest``)
        self._answers: dict[tuple[ResourceInfo, ObjectKey], dict[str, Any]] = {}
        #: (resource, key) -> the versions of the loop's writes there that its later
        #: writes answered over before the cache caught up (a create, a move of fields,
        #: then the apply): their echoes are the loop's too
        self._overwritten: dict[tuple[ResourceInfo, ObjectKey], set[str]] = {}
        #: (resource, finalizer) -> the objects a swapped-out reconciler left its
        #: finalizer on, the new code reconciling another resource or finalizing under
        #: another name: ``finalizers_left`` names them, ``remove_finalizers`` takes it off
        self._left_behind: dict[tuple[ResourceInfo, str], set[ObjectKey]] = {}
        #: key -> the error of the failure streak a Warning Event was recorded for
        self._failing: dict[ObjectKey, str] = {}
        #: the kinds of children the running code returned that its OWNS does not name,
        #: each warned about once per code (``_not_owned``)
        self._unowned: set[ResourceInfo] = set()
        #: the kinds (group, kind) whose create owns what the server defaults in it: the
        #: built-ins known to, and those a create of the loop's showed (_creates)
        self._defaults_on_create: set[tuple[str, str]] = set(DEFAULTED_ON_CREATE)
        #: (resource, key) -> the last status write the server accepted there: the status
        #: sent, and the resourceVersions it was based on and answered (see _write_status)
        self._status_sent: dict[
            tuple[ResourceInfo, ObjectKey], tuple[dict[str, Any], frozenset[str | None]]
        ] = {}
        #: parent key -> whether its latest reconcile read anything but its own object
        #: (``ctx.get`` of another object, ``ctx.list``, ``ctx.kubernetes``): only such
        #: a parent is reconciled again on the echo of a child the loop applied
        self._reads: dict[ObjectKey, bool] = {}
        #: parent key -> the children (group, kind, namespace, name) its latest reconcile
        #: desired: the echo of a child applied earlier and no longer desired is news
        self._desired: dict[ObjectKey, frozenset[tuple[str, str, str, str]]] = {}
        #: the end of the last reconcile that wrote, or may have written outside the loop
        #: (``ctx.kubernetes``; ``ctx.event`` when the loop watches Events):
        #: ``wait_idle(after_own_writes=True)``
        self._last_write = -math.inf
        #: how often reconcilers reached outside the loop's writes (see ``_last_write``)
        self._outside = 0
        self._local = threading.local()
        self.log = logging.Logger("reconciler", logging.DEBUG)
        self.log.addHandler(_LogHandler(self))
        self.log.propagate = False
        #: counters: reconciles, writes, errors
        self.stats = {"reconciles": 0, "writes": 0, "errors": 0}

    # -- the reconciler and its resources --------------------------------------------------

    @property
    def reconciler(self) -> ReconcilerLike:
        return self._reconciler

    @property
    def _for_info(self) -> ResourceInfo | None:
        return self._resources.for_info if self._resources is not None else None

    @property
    def finalizer(self) -> str:
        return _finalizer_of(self._reconciler)

    def informer(self, resource: str | ResourceInfo) -> Informer | None:
        """The informer of a resource (a reconciler's spelling or a ``ResourceInfo``)."""
        if not isinstance(resource, str):
            return self._informers.get(resource)
        resources = self._resources
        info = resources.by_spec.get(resource) if resources is not None else None
        if info is None:
            try:
                info = self.backend.resolve(resource)
            except KubectlCrdError:
                return None
        return self._informers.get(info)

    @property
    def informers(self) -> dict[ResourceInfo, Informer]:
        return dict(self._informers)

    # -- life ------------------------------------------------------------------------------

    def start(
        self, *, run_workers: bool = True, on_resolved: Callable[[], None] | None = None
    ) -> None:
        """Watch, wait for the caches, then work; with ``run_workers=False`` only the
        informers run and keys queue up (for tests of what enqueues what).
        ``on_resolved`` is called once every resource the reconciler names is served,
        before the first watch: what says the loop runs is not said before the error of
        a start that fails there (a CRD not installed)."""
        if self._resources is not None:
            raise RuntimeError("the controller is started already")
        resources = _Resources(self.backend, self._reconciler, self.unserved_hint)
        self._resources = resources
        if on_resolved is not None:
            on_resolved()
        started = self._start_informers(resources.roles())
        self._wait_synced(started)
        refused = self._refused(started)
        if refused is not None:
            for informer in started:
                informer.stop()
            raise refused
        if not run_workers:
            return
        for index in range(self.workers):
            thread = threading.Thread(target=self._work, name=f"worker-{index}", daemon=True)
            self._threads.append(thread)
        if self.reconcile_timeout:
            self._threads.append(
                threading.Thread(target=self._watchdog, name="reconcile-timeout", daemon=True)
            )
        for thread in self._threads:
            thread.start()

    def _start_informers(self, roles: Mapping[ResourceInfo, str]) -> list[Informer]:
        started = []
        for info, role in roles.items():
            if info in self._informers:
                continue
            informer = Informer(
                self.backend,
                info,
                _Dispatch(self, info),
                name=str(info),
                role=role,
                namespace=self.namespace,
                # -l limits what is reconciled; children and watched objects are all seen
                label_selector=self.selector if role.startswith("for") else None,
                resync=self.resync if role.startswith("for") else None,
                sink=self.sink,
            )
            self._informers[info] = informer
            informer.start()
            started.append(informer)
        return started

    def _wait_synced(self, informers: Iterable[Informer]) -> bool:
        deadline = time.monotonic() + self.sync_timeout
        synced = True
        for informer in informers:
            synced &= informer.wait_synced(max(0.0, deadline - time.monotonic()))
        return synced

    @staticmethod
    def _refused(informers: Iterable[Informer]) -> ClusterError | None:
        """The 401/403 that refused an informer's first list: waiting will not help
        (``--as`` a user without rights), so ``start``/``swap`` fail with the server's
        line at once instead of after ``sync_timeout``."""
        for informer in informers:
            if informer.start_error is not None:
                return informer.start_error
        return None

    def wait_idle(
        self, timeout: float = 10.0, settle: float = 0.0, *, after_own_writes: bool = False
    ) -> bool:
        """Wait until nothing is queued or in flight (delayed keys aside): at once when
        the backend tells that its watches are quiet (every event it sent was handled,
        so none is about to queue a key), else once that lasted ``settle`` seconds (a
        cluster's events may still be on the wire). For ``--once``, tests and benches.

        ``after_own_writes`` waits out only the echoes of the loop's own writes: the
        ``settle`` runs from the end of the last reconcile that wrote (or used
        ``ctx.kubernetes``, or ``ctx.event`` with Events watched), so a pass that wrote
        nothing is over as soon as the queue is idle; a change someone else makes
        meanwhile is not waited for (``--once``: each object once, as it was found).

        The backend's mark is read before and after the queue's look: equal marks mean
        every event sent before the look was handled (its key queued) and no reconcile
        wrote in between, so an idle queue then stays idle."""
        deadline = time.monotonic() + timeout
        quiet_since: float | None = None
        while time.monotonic() < deadline:
            mark = self.backend.watches_quiet()
            if not self.queue.idle():
                quiet_since = None
            elif mark is not None and self.backend.watches_quiet() == mark:
                return True
            else:
                now = time.monotonic()
                quiet_since = quiet_since or now
                since = self._last_write if after_own_writes else quiet_since
                if now - since >= settle:
                    return True
            time.sleep(0.005)
        return False

    def stop(
        self,
        *,
        graceful: bool = True,
        timeout: float | None = 30.0,
        remove_finalizers: bool = False,
    ) -> Stopped:
        """Finish the reconciles in flight (with ``graceful``), stop the workers and the
        watches; with ``remove_finalizers``, take the loop's finalizer off every object
        first. The ``Stopped`` event says which objects still carry it; a second call
        answers the same."""
        with self._lock:
            if self._stopped is not None:
                return self._stopped
            if self._stopping.is_set():
                raise RuntimeError("the controller is stopping in another thread")
        self._emit(Stopping(len(self.queue.processing())))
        self._stopping.set()
        # one bound for the drain and the joins (it was each's: 30 s became 60)
        deadline = None if timeout is None else time.monotonic() + timeout
        self.queue.shutdown(drain=graceful, timeout=timeout)
        with self._lock:  # the workers a reconcile the queue abandoned holds (--once)
            abandoned = {
                state[2]
                for state in self._in_flight.values()
                if state[1] and not self.requeue_timed_out
            }
        for thread in self._threads:
            if thread.ident is None:
                continue  # start() was interrupted (a Ctrl-C) before it started this one
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            thread.join(left if graceful and thread not in abandoned else 0.1)
        removed: tuple[ObjectKey, ...] = ()
        if remove_finalizers:
            removed = tuple(self.remove_finalizers())
        informers = list(self._informers.values())
        for informer in informers:
            informer.stop_soon()
        for informer in informers:
            informer.stop()
        with self._lock:
            running = tuple(sorted(self._in_flight))
            workers = [self._in_flight[key][2] for key in running]
        places = tuple(
            f"{file}:{line}" if file else "" for file, line in map(self._running_at, workers)
        )
        stopped = Stopped(tuple(self.finalizers_left()), removed, running, places)
        self._stopped = stopped
        self._emit(stopped)
        return stopped

    def finalizers_left(self) -> list[ObjectKey]:
        """The objects that carry the loop's finalizer, as far as the loop knows: the
        ``FOR`` objects in the cache (``_carrying``) and those a reload left it on
        (``_left_behind``: after a swap that changed ``FOR`` or the finalizer's name, no
        code of the loop removes it from them)."""
        info = self._for_info
        left = set(self._carrying(info, self.finalizer)) if info is not None else set()
        with self._lock:
            behind = [
                (each, finalizer, set(keys))
                for (each, finalizer), keys in self._left_behind.items()
            ]
        for each, finalizer, keys in behind:
            if each in self._informers:  # still followed (a renamed finalizer): as cached
                keys &= set(self._carrying(each, finalizer))
            left |= keys
        return sorted(left)

    def _carrying(self, info: ResourceInfo, finalizer: str) -> list[ObjectKey]:
        """The cached objects of ``info`` that carry ``finalizer``: each one's latest
        version, the answer of the loop's own last write when the watch has not brought
        that yet (``_latest``): right after ``remove_finalizers`` the cache still holds
        the finalizers the removal's echo is about to take away."""
        informer = self._informers.get(info)
        if informer is None:
            return []
        left = []
        keys = informer.cache.keys()  # a copy: the watch may change the cache meanwhile
        for key in keys:
            obj = self._latest(info, key)
            if obj is not None and _carries(obj, finalizer):
                left.append(key)
        return left

    def remove_finalizers(self) -> list[ObjectKey]:
        """Take the loop's finalizer off every cached ``FOR`` object, and off those a
        reload left it on (the CLI's ``--remove-finalizers-on-exit``); the keys it was
        taken from."""
        info = self._for_info
        work = (
            [(info, self.finalizer, key) for key in self._carrying(info, self.finalizer)]
            if info is not None
            else []
        )
        with self._lock:
            for (left_info, finalizer), keys in self._left_behind.items():
                work += [(left_info, finalizer, key) for key in sorted(keys)]
        jobs = iter(work)
        removed: list[ObjectKey] = []
        lock = threading.Lock()
        abort = threading.Event()

        def remove() -> None:
            writes = _Writes()
            try:
                while not abort.is_set():
                    with lock:
                        job = next(jobs, None)
                    if job is None:
                        return
                    what, finalizer, key = job
                    done = self._remove_finalizer_retrying(key, what, finalizer, writes, abort)
                    if done:
                        with lock:
                            removed.append(key)
                    # left behind by a reload and now off, or gone: no longer named; a
                    # removal that failed leaves it named in the stop's warning
                    left = what != info or finalizer != self.finalizer
                    if left and done is not False:
                        with self._lock:
                            self._left_behind.get((what, finalizer), set()).discard(key)
            finally:
                self._count(writes=writes.count)

        # one PATCH per object, from as many threads as the loop has workers (-j): on a
        # remote cluster each waits a round trip, which one after the other adds up to
        # seconds per thousand objects (against a local envtest on 2 cores, CPU-bound,
        # 300 objects took the same ~1.2-1.4 s either way). Daemon threads, waited for
        # here: a KeyboardInterrupt (a second Ctrl-C) leaves at once, and no patch is
        # started after it.
        threads = [
            threading.Thread(target=remove, name=f"remove-finalizer-{index}", daemon=True)
            for index in range(max(1, self.workers))
        ]
        try:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            abort.set()
        # once each: an object can carry the running code's finalizer and one a reload
        # left behind (the new code added its own), two removals of one object
        return sorted(set(removed))

    # -- swapping the reconciler -----------------------------------------------------------

    def swap(self, new: ReconcilerLike) -> Swapped:
        """Run ``new`` from now on (see the module docstring); resolving its resources
        may fail (as ``start``'s), in which case nothing changed."""
        with self._swap_lock:
            resources = _Resources(self.backend, new, self.unserved_hint)
            old_roles = self._resources.roles() if self._resources is not None else {}
            new_roles = resources.roles()
            started = self._start_informers(new_roles)
            self._wait_synced(started)
            refused = self._refused(started)
            if refused is not None:  # nothing changed: the old code runs on
                for each in started:
                    each.stop()
                    self._informers.pop(each.info, None)
                raise refused
            for info, role in new_roles.items():
                self._informers[info].role = role
            stopped = [info for info in old_roles if info not in new_roles]
            # the list of objects left with the old finalizer and the swap itself under
            # one lock: an old reconcile's finalizer add answered after the list was
            # made sees the swap, and adds its object itself (_process)
            with self._code_lock:
                left = self._leave_behind(resources.for_info, _finalizer_of(new))
                # before the new code can run: its first call ends the reload's
                # latency, and the reload reports the watches stopped by then
                for info in stopped:
                    informer = self._informers.pop(info, None)
                    if informer is not None:
                        informer.stop()
                self._reconciler = new
                with self._lock:
                    self._unowned.clear()  # the new code is told again, if it still does
                self._resources = resources
                keys = self._informers[resources.for_info].cache.keys()
                for key in keys:
                    # the new code is tried at once: no backoff, no delayed retry of the
                    # old code (nor one a reconcile still running it schedules: _settle)
                    self.queue.forget(key)
                    self.queue.discard_waiting(key)
                    self.queue.add(key)
            swapped = Swapped(
                len(keys),
                tuple(str(informer.info) for informer in started),
                tuple(str(info) for info in stopped),
                tuple(left),
                str(new.for_resource),
            )
        self._emit(swapped)
        return swapped

    def _leave_behind(self, for_info: ResourceInfo, finalizer: str) -> list[ObjectKey]:
        """Before a swap to code reconciling ``for_info`` under ``finalizer``: when that
        is not what runs now, the objects that carry the running code's finalizer keep
        it with no code to remove it (``_left_behind``); the ones the new code takes over
        are its own again. The objects left now."""
        old_info, old_finalizer = self._for_info, self.finalizer
        with self._lock:
            self._left_behind.pop((for_info, finalizer), None)
        if old_info is None or (old_info, old_finalizer) == (for_info, finalizer):
            return []
        keys = self._carrying(old_info, old_finalizer)
        if keys:
            with self._lock:
                self._left_behind.setdefault((old_info, old_finalizer), set()).update(keys)
        return sorted(keys)

    def _left_by_old_code(self, info: ResourceInfo, finalizer: str, key: ObjectKey) -> None:
        """``key`` got ``finalizer`` from code a swap has replaced: unless the code now
        running reconciles ``info`` under that name, it is left behind."""
        if (info, finalizer) != (self._for_info, self.finalizer):
            with self._lock:
                self._left_behind.setdefault((info, finalizer), set()).add(key)

    # -- enqueueing -----------------------------------------------------------------------

    def enqueue(self, key: ObjectKey) -> None:
        """Reconcile ``key`` soon ("reconcile this object now")."""
        self.queue.add(key)

    def _release(self, slot: tuple[ResourceInfo, ObjectKey], answer: dict[str, Any] | None) -> None:
        """The write to ``slot`` answered ``answer`` (None: it failed, or had no body):
        the events held meanwhile go on. Of a ``FOR`` object, its echo does not (if it
        has not come yet, it is awaited): a reconcile has seen that state. Of any other
        object (a child) the echo goes on too: a child's appearing is news to its
        parent (controller-runtime's ``Owns``), whoever wrote it."""
        version = _version(answer)
        filtered = slot[0] == self._for_info
        with self._lock:
            held = self._held.pop(slot, [])
            before = self._answers.pop(slot, None)
            if version and answer is not None:
                self._answers[slot] = answer
                if before is not None and _version(before):
                    self._overwritten.setdefault(slot, set()).add(str(_version(before)))
            else:
                self._overwritten.pop(slot, None)
            echoed = any(version and _version(new) == version for _, new in held)
            if filtered and version and not echoed:
                self._own_writes[slot] = version
        for old, new in held:
            if not (filtered and version and _version(new) == version):
                self._changed(slot[0], old, new)

    def _own_echo(self, info: ResourceInfo, obj: Mapping[str, Any]) -> bool:
        """``obj`` is exactly what the loop's last write to it returned."""
        version = (obj.get("metadata") or {}).get("resourceVersion")
        with self._lock:
            mine = self._own_writes.get((info, object_key(obj)))
            if mine is not None and mine == version:
                del self._own_writes[(info, object_key(obj))]
                return True
        return False

    def _latest(self, info: ResourceInfo, key: ObjectKey) -> dict[str, Any] | None:
        """What the server holds of ``key`` as far as the loop knows: the cached object,
        or the answer of the loop's own write there when the watch has not brought that
        version yet (so a reconcile right after a write does not send it again).
        resourceVersions are compared as numbers when both are (etcd's revisions);
        otherwise the cache is trusted."""
        informer = self._informers.get(info)
        cached = informer.cache.peek(key) if informer is not None else None
        with self._lock:
            answer = self._answers.get((info, key))
        if answer is None:
            return cached
        if cached is None or _newer(answer, cached):
            return answer
        return cached

    def _changed(
        self, info: ResourceInfo, old: dict[str, Any] | None, new: dict[str, Any] | None
    ) -> None:
        resources = self._resources
        if resources is None:
            return
        current = new if new is not None else old
        assert current is not None
        slot = (info, object_key(current))
        with self._lock:
            held = self._held.get(slot)
            if held is not None:  # a write to it is in flight: see _send
                held.append((old, new))
                return
            answer = self._answers.get(slot)
            # the watch brings exactly what the loop's last write there answered (or the
            # one it answered over)
            echo = (
                answer is not None
                and new is not None
                and (
                    _version(new) == _version(answer)
                    or _version(new) in self._overwritten.get(slot, ())
                )
            )
            if answer is not None and (new is None or not _newer(answer, new)):
                del self._answers[slot]  # gone, or the cache has caught up with it
                self._overwritten.pop(slot, None)
        if info == resources.for_info and (old is None or new is None):  # for displays
            known = ObjectCached if old is None else ObjectDeleted
            self._emit(known(object_key(current), str(self._reconciler.for_resource)))
        if new is not None and info == resources.for_info and self._own_echo(info, new):
            return
        if info == resources.for_info and (
            old is None or new is None or _for_update_matters(old, new)
        ):
            self.queue.add(object_key(current))
        if info in resources.owns:
            for obj in (old, new):
                if obj is not None:
                    key = self._owner_key(obj, resources.for_info)
                    if key is not None and not (echo and self._echo_is_old_news(key, info, obj)):
                        self.queue.add(key)
        specs = resources.watches.get(info)
        if specs:
            reconciler = self._reconciler
            for spec in specs:
                try:
                    parents = reconciler.parents_of(spec, current)
                except (Exception, SystemExit) as exc:
                    # the user's mapping failed on this object: its own error, at its
                    # line. Not the failure of the reconcile whose write brought the
                    # event (``_release`` hands held events on in that worker), nor a
                    # watch's (the informer's thread): neither failed, nothing retries
                    text, file, line, _ = self._describe(exc, _Writes(), reconciler)
                    where = f"{file}:{line}: " if file and line else ""
                    self._emit(
                        WatchError(
                            str(info),
                            f"WATCHES[{str(spec)!r}] failed on {key_text(object_key(current))}"
                            f", no parent reconciled: {where}{text}",
                            retrying=False,
                        )
                    )
                    continue
                for key in parents:
                    self.queue.add((str(key[0]), str(key[1])))

    def _echo_is_old_news(
        self, parent: ObjectKey, info: ResourceInfo, child: Mapping[str, Any]
    ) -> bool:
        """The echo of ``child``, which the loop applied for ``parent``, tells ``parent``
        nothing its latest reconcile did not know: that reconcile read nothing but its
        own object, and still desired the child. One that no longer desired it looked
        for undesired children in a cache the child was not in yet (its echo late: a
        replicas 3 -> 1 left two children for good, seen against the server)."""
        if self._reads.get(parent, True):
            return False
        identity = (info.group, info.kind, *object_key(child))
        return identity in self._desired.get(parent, frozenset())

    def _owner_key(self, child: Mapping[str, Any], owner: ResourceInfo) -> ObjectKey | None:
        for ref in (child.get("metadata") or {}).get("ownerReferences") or ():
            if not isinstance(ref, Mapping) or ref.get("controller") is not True:
                continue
            group = str(ref.get("apiVersion") or "").rpartition("/")[0]
            if ref.get("kind") == owner.kind and group == owner.group:
                namespace = (child.get("metadata") or {}).get("namespace") or ""
                return (str(namespace) if owner.namespaced else "", str(ref.get("name") or ""))
        return None

    # -- workers ---------------------------------------------------------------------------

    def _work(self) -> None:
        while not self._stopping.is_set():
            key = self.queue.get(timeout=0.25)
            if key is None:
                if self.queue.shutting_down:
                    return
                continue
            try:
                if not self._stopping.is_set():
                    self._local.key = key
                    self._process(key)
            except Exception as exc:  # the loop's own bug: reported, the worker lives
                self._emit(
                    ReconcileFinished(key, Outcome.ERROR, 0.0, 0, f"internal error: {exc!r}")
                )
                self.queue.add_rate_limited(key)
            finally:
                self._local.key = ("", "")
                self.queue.done(key)

    def _running_at(self, worker: threading.Thread) -> tuple[str, int]:
        """``("slow.py", 4)``: where in the user's files a reconcile past its time is
        running (a thread's frames are all there is: it cannot be interrupted);
        ``("", 0)`` when the reconciler cannot say."""
        running_at = getattr(self._reconciler, "running_at", None)
        place = running_at(worker) if running_at is not None else None
        return (str(place[0]), int(place[1])) if place is not None else ("", 0)

    def _watchdog(self) -> None:
        timeout = self.reconcile_timeout
        assert timeout
        while not self._stopping.wait(_WATCHDOG_SECONDS):
            now = self._clock()
            late = []
            with self._lock:
                for key, state in self._in_flight.items():
                    if not state[1] and now - state[0] > timeout:
                        state[1] = True
                        late.append((key, now - state[0], state[2]))
            for key, elapsed, worker in late:
                if not self.requeue_timed_out:  # --once: the pass is over without it
                    self.queue.abandon(key)
                file, line = self._running_at(worker)
                self._emit(
                    ReconcileTimedOut(key, elapsed, timeout, self.requeue_timed_out, file, line)
                )

    def _process(self, key: ObjectKey) -> None:
        reconciler = self._reconciler
        resources = self._resources
        assert resources is not None
        info = resources.for_info
        informer = self._informers.get(info)
        cached = informer.cache.peek(key) if informer is not None else None
        started = self._clock()
        if cached is None:
            self.queue.forget(key)
            with self._lock:
                self._failing.pop(key, None)
                self._reads.pop(key, None)
                self._desired.pop(key, None)
                self._status_sent.pop((info, key), None)
            self._emit(ReconcileFinished(key, Outcome.GONE, 0.0))
            return
        metadata = cached.get("metadata") or {}
        self._emit(
            ReconcileStarted(
                key,
                str(reconciler.for_resource),
                int(metadata.get("generation") or 0),
                str(metadata.get("resourceVersion") or ""),
            )
        )
        with self._lock:
            self._in_flight[key] = [started, False, threading.current_thread()]
            # before the reconciler runs: a read it makes sets it (``_Context``)
            self._reads[key] = False
        writes = _Writes()
        outcome = Outcome.SUCCESS
        error: BaseException | None = None
        requeue_after: float | None = None
        outside = self._outside
        try:
            obj = copy_json(cached)
            ctx = _Context(self, key, obj, info)
            if metadata.get("deletionTimestamp"):
                requeue_after = self._finalize(key, info, obj, ctx, reconciler, writes)
            else:
                # the name of the code this reconcile runs: a reload may land meanwhile
                finalizer = _finalizer_of(reconciler)
                if reconciler.has_finalize and not _carries(obj, finalizer):
                    latest = self._latest(info, key)
                    if latest is not None and _carries(latest, finalizer):
                        # the loop's own add was answered and its echo is not in the
                        # cache yet (the key came again meanwhile: a child's echo): the
                        # object as that answer left it, not a second add at the cached
                        # resourceVersion (a 409 Conflict, a failed reconcile)
                        obj = copy_json(latest)
                    else:
                        obj = self._add_finalizer(key, info, obj, writes, finalizer)
                        with self._code_lock:  # see swap: the add may postdate its list
                            if reconciler is not self._reconciler:
                                self._left_by_old_code(info, finalizer, key)
                    ctx = _Context(self, key, obj, info)
                result = reconciler.call(obj, ctx)
                requeue_after = result.requeue_after
                self._write(key, info, obj, result, writes, resources)
        except TerminalError as exc:
            outcome, error = Outcome.TERMINAL, exc
        except BaseException as exc:
            # BaseException too: a reconciler's sys.exit() (or a KeyboardInterrupt it
            # raises itself; a signal's reaches the main thread only) is its failure, not
            # the end of this worker thread, which would end silently (threading ignores
            # SystemExit) and take the object's reconcile with it
            outcome, error = Outcome.ERROR, exc
        finally:
            with self._lock:
                state = self._in_flight.pop(key, [started, False])
                if writes.count or writes.failures or self._outside != outside:
                    self._last_write = time.monotonic()
        duration = self._clock() - started
        if writes.failures and error is None:
            outcome = Outcome.ERROR
        self._count(reconciles=1, writes=writes.count, errors=int(outcome is Outcome.ERROR))
        text, file, line, trace = self._describe(error, writes, reconciler)
        self._emit(
            ReconcileFinished(
                key, outcome, duration, writes.count, text, file, line, trace, requeue_after
            )
        )
        if not isinstance(error, FinalizeNotDone):  # waiting is not failing
            self._report(key, info, cached, outcome, text)
        requeued = self._settle(key, reconciler, outcome, state[1], requeue_after)
        if requeued is not None:
            self._emit(requeued)

    def _settle(
        self,
        key: ObjectKey,
        reconciler: ReconcilerLike,
        outcome: Outcome,
        timed_out: bool,
        requeue_after: float | None,
    ) -> Requeued | None:
        """What comes after a reconcile of ``key`` by ``reconciler``: a backoff retry, a
        requeue, or nothing. Nothing at all when ``reconciler`` was swapped out while it
        ran: the swap has already requeued ``key`` for the new code with fresh
        rate-limit state, and a delayed retry of the old code's failure would reconcile
        it a second time (client-go has no hot swap; this is the dev loop's rule)."""
        with self._code_lock:
            if reconciler is not self._reconciler:
                return None
            if outcome is Outcome.ERROR:
                delay = self.queue.add_rate_limited(key)
                return Requeued(key, delay, "error", self.queue.num_requeues(key))
            self.queue.forget(key)
            if outcome is Outcome.TERMINAL:
                return None  # not retried until the object changes
            if timed_out and self.requeue_timed_out:  # once more, now that it returned
                self.queue.add(key)
                return Requeued(key, 0.0, "timeout")
            if requeue_after is not None and requeue_after > 0:
                self.queue.add_after(key, requeue_after)
                return Requeued(key, requeue_after, "requeue_after")
        return None

    def _report(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        outcome: Outcome,
        text: str,
    ) -> None:
        """A failed reconcile is told on the object too, as a ``Warning`` Event
        (``ReconcileError``, the one-line error), as controllers record theirs: once per
        failure streak, not once per retry (client-go's ``EventCorrelator`` folds
        repeats into one Event's count; a streak is the loop's unit of that). A success
        ends the streak; the next failure is news again."""
        with self._lock:
            if outcome in (Outcome.SUCCESS, Outcome.GONE):
                self._failing.pop(key, None)
                return
            if key in self._failing:
                return
            self._failing[key] = text
        message = text.splitlines()[0] if text else "reconcile failed"
        if len(message) > _EVENT_MESSAGE_LIMIT:
            message = message[: _EVENT_MESSAGE_LIMIT - 3] + "..."
        _Context(self, key, obj, info).event(REASON_ERROR, message, type="Warning")

    def _describe(
        self, error: BaseException | None, writes: _Writes, reconciler: ReconcilerLike
    ) -> tuple[str, str, int, str]:
        if error is None or isinstance(error, _WriteRefused):
            if writes.failures:
                first, more = writes.failures[0], len(writes.failures) - 1
                text = (
                    f"a write refused: {first}"
                    if not more
                    else (f"{more + 1} writes refused: {first} (and {more} more)")
                )
                return text, "", 0, ""
            return "", "", 0, ""
        # a result error says where and what already (``r.py:7: reconcile returned 3``)
        text = str(error) if isinstance(error, ReconcilerResultError) else error_text(error)
        file, line = "", 0
        frame_of = getattr(reconciler, "user_frame", None)
        frame = frame_of(error) if frame_of is not None else None
        if frame is not None:
            file, line = str(frame.file), int(frame.line)
        else:
            import traceback

            frames = traceback.extract_tb(error.__traceback__)
            if frames:
                file, line = frames[-1].filename, frames[-1].lineno or 0
        trace_of = getattr(reconciler, "user_traceback", None)
        if trace_of is not None:
            trace = str(trace_of(error))
        else:
            import traceback

            trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        return text, file, line, trace

    # -- finalizers ------------------------------------------------------------------------

    def _add_finalizer(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        obj: dict[str, Any],
        writes: _Writes,
        finalizer: str,
    ) -> dict[str, Any]:
        finalizers = [*((obj.get("metadata") or {}).get("finalizers") or ()), finalizer]
        written = self._patch_finalizers(key, info, obj, writes, "add-finalizer", finalizers)
        if written is None:  # refused: the reconcile fails and is retried
            raise _WriteRefused()
        return written if not self.dry_run else obj

    def _remove_finalizer_retrying(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        finalizer: str,
        writes: _Writes,
        abort: threading.Event,
    ) -> bool | None:
        """Off with the finalizer at the latest version known (True; None: the object
        is gone or does not carry it; False: the removal failed); after a 409 Conflict
        (someone else wrote the object meanwhile) the object is read from the server
        and the patch tried again, as client-go's ``retry.RetryOnConflict`` with
        ``retry.DefaultBackoff`` (k8s.io/client-go/util/retry/util.go: 4 tries, 10 ms
        then x5). Not from the cache: a stop right after an outage finds the watch still
        backing off. Without it a stop while others wrote left those objects'
        finalizers behind (the proxied soak: 20 of 30, 350 of 1,000)."""
        # the latest version known: the patch is conditional on its resourceVersion
        obj: Mapping[str, Any] | None = self._latest(info, key)
        if info not in self._informers:  # left behind by a reload: no cache follows it
            try:
                obj = self.backend.get(info, *key)
            except ClusterError as exc:
                return None if _gone(exc) else False
        for delay in (*_CONFLICT_RETRY_DELAYS, None):
            if obj is None or not _carries(obj, finalizer):
                return None
            conflicts = writes.conflicts
            if self._remove_finalizer(key, info, obj, writes, finalizer):
                return True
            if delay is None or writes.conflicts == conflicts or abort.wait(delay):
                return False
            try:  # the server's version: the watch may be down (a stop after an outage)
                obj = self.backend.get(info, *key)
            except ClusterError as exc:
                return None if _gone(exc) else False
        return False

    def _remove_finalizer(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        writes: _Writes,
        finalizer: str,
    ) -> bool:
        finalizers = (obj.get("metadata") or {}).get("finalizers") or ()
        remaining = [f for f in finalizers if f != finalizer]
        return (
            self._patch_finalizers(key, info, obj, writes, "remove-finalizer", remaining)
            is not None
        )

    def _patch_finalizers(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        writes: _Writes,
        action: str,
        finalizers: list[str],
    ) -> dict[str, Any] | None:
        """A merge patch setting the object's finalizers, conditional on the
        resourceVersion it was read at; None when refused."""
        patch = {
            "metadata": {
                "finalizers": finalizers,
                "resourceVersion": (obj.get("metadata") or {}).get("resourceVersion"),
            }
        }
        return self._send(
            writes, key, action, info, key,
            lambda: self.backend.patch(info, key[0], key[1], patch, dry_run=self.dry_run),
            patch,
        )  # fmt: skip

    def _finalize(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        obj: dict[str, Any],
        ctx: _Context,
        reconciler: ReconcilerLike,
        writes: _Writes,
    ) -> float | None:
        """An object being deleted: ``finalize``, then off with ``reconciler``'s
        finalizer (not the name of code a reload loaded while it ran)."""
        finalizer = _finalizer_of(reconciler)
        if not _carries(obj, finalizer):
            return None  # not ours to hold: nothing to do while it goes
        latest = self._latest(info, key)
        if latest is None or not _carries(latest, finalizer):
            # the loop's own removal was answered, and its echo is not in the cache yet:
            # a key queued again meanwhile (an event during the finalize) would run
            # finalize a second time on the cached version (seen against the server).
            # None: the removal's DELETED came after this run read the cache (and took
            # the answer with it): the object is gone (seen against the server in CI)
            return None
        if reconciler.has_finalize:
            done = reconciler.finalize(obj, ctx)
            if done.result.status is not None:
                self._write_status(key, info, obj, done.result.status, writes)
            if not done.finalized:
                after = done.result.requeue_after
                if after is None:
                    raise FinalizeNotDone("finalize is not done yet")
                return after
        # at the latest version the loop knows (a status write of finalize's, or of the
        # reconcile that ran while the object was deleted, answered after the version
        # this run read): at the cached one the patch was a 409 Conflict, a failed
        # reconcile, and finalize ran again (seen against the server in CI)
        current = self._latest(info, key)
        self._remove_finalizer(
            key, info, current if current is not None else obj, writes, finalizer
        )
        return None

    # -- writes ----------------------------------------------------------------------------

    def _send(
        self,
        writes: _Writes,
        key: ObjectKey,
        verb: str,
        info: ResourceInfo,
        target: ObjectKey,
        call: Callable[[], dict[str, Any] | None],
        body: Mapping[str, Any] | None,
        gone: Mapping[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """One write: counted, told to the sink, its echo remembered; a refusal (or a
        server out of reach) is told as ``WriteFailed`` and answered ``None`` (the
        reconcile goes on, then fails and is retried). A dry run's ``Write`` carries
        the server's answer, or ``gone`` (the object a delete would remove: a delete
        answers nothing).

        While the write is in flight, the target's watch events are held: the echo of
        this very write can arrive before its answer does, and is recognised only by
        the resourceVersion the answer carries."""
        if self._stopped is not None:
            # a reconcile the stop gave up on (``Stopped.abandoned``) returned after it:
            # nothing is written once the loop has said it stopped
            return None
        slot = (info, target)
        if not self.dry_run:
            with self._lock:
                self._held.setdefault(slot, [])
        try:
            written = call()
        except ClusterError as exc:
            if not self.dry_run:
                self._release(slot, None)
            status = exc.status if isinstance(exc, ApiError) else 0
            line = exc.message if isinstance(exc, ApiError) else exc.kubectl_line
            writes.failures.append(f"{verb} {info.kind} {target[1]}: {line}")
            writes.conflicts += status == 409
            self._emit(WriteFailed(key, verb, info.kind, *target, line, status))
            return None
        writes.count += 1
        echo = written if isinstance(written, dict) and written else None
        # a dry run's answer: what the write would leave, for the log's diff
        answer = (echo or gone) if self.dry_run else None
        self._emit(Write(key, verb, info.kind, *target, self.dry_run, body, answer))
        if not self.dry_run:
            self._release(slot, echo)
        return written if isinstance(written, dict) else {}

    def _write(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        parent: Mapping[str, Any],
        result: Result,
        writes: _Writes,
        resources: _Resources,
    ) -> None:
        metadata = parent.get("metadata") or {}
        uid = str(metadata.get("uid") or "")
        desired: set[tuple[str, str, str, str]] = set()
        for index, child in enumerate(result.children):
            try:
                applied, child_info = self._child(index, child, parent, info)
            except _KindNotServed as refused:  # a refused write: the others go on
                writes.failures.append(f"apply {refused.kind} {refused.name}: {refused}")
                self._emit(WriteFailed(key, "apply", *refused.args))
                continue
            child_key = object_key(applied)
            if child_info not in resources.owns:
                self._not_owned(key, child_info, child_key, child_info in resources.watches)
            identity = (child_info.group, child_info.kind, *child_key)
            desired.add(identity)
            cached = self._latest(child_info, child_key)
            if not needs_apply(applied, cached, self.field_manager):
                continue
            with self._lock:  # its echo can come before the apply answers: old news too
                self._desired[key] = self._desired.get(key, frozenset()) | {identity}
            apply = partial(
                self.backend.apply,
                child_info,
                applied,
                field_manager=self.field_manager,
                force=True,
                dry_run=self.dry_run,
            )
            # a child the loop created whose create owns a field this apply leaves out
            moving: Mapping[str, Any] | None = None
            if cached is None and self._creates(child_info, applied):
                created = self._create(writes, key, child_info, child_key, applied, apply)
                if created is None or self.dry_run:
                    continue
                if not self._leaves_created_fields(created, applied):
                    continue  # owned as the apply would own it
                # the create owns what the server defaulted in it: moved, then applied,
                # those fields are released as an apply that creates leaves them; the
                # kind's next children are applied from the start
                with self._lock:
                    self._defaults_on_create.add((child_info.group, child_info.kind))
                moving = created
            elif cached is not None and self._leaves_created_fields(cached, applied):
                moving = cached
            if moving is not None:
                if self.dry_run:
                    # the move is a write of its own, which a dry run does not store:
                    # the apply's preview leaves out what the two would remove
                    apply = partial(
                        _previewed_after_move, apply, moving, applied, self.field_manager
                    )
                elif not self._move_to_apply(writes, key, child_info, child_key, moving):
                    continue  # refused: the reconcile fails, and is retried
            self._send(writes, key, "apply", child_info, child_key, apply, applied)
        # before the cache is looked through: an echo handed on after this sees what
        # this reconcile desires (_echo_is_old_news), one before it is in the cache (a
        # handler runs once the cache holds the object)
        with self._lock:
            self._desired[key] = frozenset(desired)
        if uid:
            for owned_info in resources.owns:
                informer = self._informers.get(owned_info)
                if informer is None:
                    continue
                for child in informer.cache.owned_by(uid):
                    child_meta = child.get("metadata") or {}
                    child_key = object_key(child)
                    if (owned_info.group, owned_info.kind, *child_key) in desired:
                        continue
                    if child_meta.get("deletionTimestamp"):
                        continue  # already going
                    delete = partial(
                        self.backend.delete,
                        owned_info,
                        *child_key,
                        uid=child_meta.get("uid"),
                        dry_run=self.dry_run,
                    )
                    self._send(writes, key, "delete", owned_info, child_key, delete, None, child)
        if result.status is not None:
            self._write_status(key, info, parent, result.status, writes)

    def _creates(self, info: ResourceInfo, child: Mapping[str, Any]) -> bool:
        """Whether a child the loop's cache does not hold is POSTed (``_create``): when
        that says it is absent from the server (up to the watch's lag: its kind is
        watched with no label selector, in the child's namespace), and a create of its
        kind is known to own no more than an apply would."""
        informer = self._informers.get(info)
        if informer is None or informer.label_selector is not None:
            return False
        with self._lock:
            if (info.group, info.kind) in self._defaults_on_create:
                return False  # a create would own more than an apply: applied
        meta = child.get("metadata") or {}
        if meta.get("resourceVersion") or meta.get("uid"):
            return False  # a precondition only an apply keeps
        return (
            informer.namespace is None
            or not info.namespaced
            or informer.namespace == meta.get("namespace")
        )

    def _create(
        self,
        writes: _Writes,
        key: ObjectKey,
        info: ResourceInfo,
        target: ObjectKey,
        applied: dict[str, Any],
        apply: Callable[[], dict[str, Any]],
    ) -> dict[str, Any] | None:
        """A desired child the cache does not hold, POSTed: cheaper for the server than
        an apply that creates (no read before it, no merge; bench/dev_bench.py, 1,000
        objects with their status writes: 6.3 s of API server and etcd CPU against
        7.8 s), on the cores a converge shares with it. Told as an ``apply`` (what the
        reconciler asked for); one the cache had not seen yet (409 AlreadyExists) is
        applied instead. ``model.managedfields`` has how such a child comes to be owned
        as an applied one."""
        body = _without_nulls(applied)  # an applied null sets nothing

        def create() -> dict[str, Any]:
            try:
                return self.backend.create(
                    info, body, field_manager=self.field_manager, dry_run=self.dry_run
                )
            except ApiError as exc:
                if exc.status != 409 or exc.reason != "AlreadyExists":
                    raise
            return apply()

        return self._send(writes, key, "apply", info, target, create, applied)

    def _leaves_created_fields(self, child: Mapping[str, Any], desired: Mapping[str, Any]) -> bool:
        """Whether the loop's create of ``child`` owns a field ``desired`` lacks: right
        after the create, what the server defaulted in its body; later, what the new code
        leaves out. An apply would not remove such a field (``_move_to_apply`` first);
        one that keeps them all needs no move: the fields it changes become its own, the
        others stay the create's, still desired."""
        entry = update_entry(child, self.field_manager)
        return entry is not None and not owns_only(
            entry.get("fieldsV1") or {}, _without_nulls(desired)
        )

    def _move_to_apply(
        self,
        writes: _Writes,
        key: ObjectKey,
        info: ResourceInfo,
        target: ObjectKey,
        child: Mapping[str, Any],
    ) -> bool:
        """Before an apply that leaves out a field the loop's create of the child owns:
        the create's ``Update`` entry's fields moved to the ``Apply`` entry (a merge
        patch of ``managedFields``, conditional on the resourceVersion), so that the
        apply removes what it leaves out. True when there was nothing to move or it
        moved."""
        moved = fields_moved_to_apply(child, self.field_manager)
        if moved is None:
            return True  # nothing the loop created
        version = (child.get("metadata") or {}).get("resourceVersion")
        patch = {"metadata": {"managedFields": moved, "resourceVersion": version}}

        def move() -> dict[str, Any]:
            return self.backend.patch(
                info,
                *target,
                patch,
                field_manager=self.field_manager,
                dry_run=self.dry_run,
            )

        return self._send(writes, key, "move-fields", info, target, move, patch) is not None

    def _not_owned(
        self, key: ObjectKey, info: ResourceInfo, child: ObjectKey, watched: bool
    ) -> None:
        """A child of a kind OWNS does not name: applied like any, but never deleted
        once reconcile stops returning it (only owned kinds are looked through for
        that), and, unless WATCHES names its kind, its owner is not reconciled when it
        changes; silent, that was a child left behind with no word. Once per kind and
        code."""
        with self._lock:
            if info in self._unowned:
                return
            self._unowned.add(info)
        spelling = f"{info.api_version}/{info.kind}"
        unseen = "" if watched else ", nor reconcile its owner when it changes"
        self._emit(
            Log(
                key,
                logging.WARNING,
                f"child {info.kind} {child[1]}: OWNS does not name {spelling}, so the loop "
                f"does not delete such a child once reconcile stops returning it{unseen}; "
                f"add '{spelling}' to OWNS",
            )
        )

    def _child(
        self, index: int, child: Mapping[str, Any], parent: Mapping[str, Any], info: ResourceInfo
    ) -> tuple[dict[str, Any], ResourceInfo]:
        """The object to apply for one desired child, and its resource."""
        if not isinstance(child, Mapping):
            raise TypeError(f"child #{index} is {type(child).__name__}, not an object")
        api_version, kind = child.get("apiVersion"), child.get("kind")
        child_meta = child.get("metadata")
        name = child_meta.get("name") if isinstance(child_meta, Mapping) else None
        if not (isinstance(api_version, str) and api_version) or not (
            isinstance(kind, str) and kind
        ):
            raise ValueError(f"child #{index} needs apiVersion and kind")
        if not (isinstance(name, str) and name):
            raise ValueError(f"child #{index} ({kind}) needs metadata.name")
        parent_meta = parent.get("metadata") or {}
        try:
            child_info = self.backend.resolve_kind(api_version, kind)
        except (ResourceLookupError, VersionNotFoundError) as exc:
            # kubectl apply's words for such an object (its second line the hint):
            # 'resource mapping not found for name: "x" ...: no matches for kind "Nope"
            # in version "v1"' / 'ensure CRDs are installed first'
            namespace = (child_meta or {}).get("namespace") or parent_meta.get("namespace") or ""
            raise _KindNotServed(
                kind, str(namespace), name, f"{exc.message}; ensure CRDs are installed first"
            ) from exc
        applied = copy_json(dict(child))
        meta = applied["metadata"]
        if child_info.namespaced:
            meta.setdefault("namespace", parent_meta.get("namespace") or "default")
        else:
            meta.pop("namespace", None)
        owner = {
            "apiVersion": info.api_version,
            "kind": info.kind,
            "name": parent_meta.get("name"),
            "uid": parent_meta.get("uid"),
            "controller": True,
            "blockOwnerDeletion": True,
        }
        refs = [
            ref
            for ref in meta.get("ownerReferences") or ()
            if not (isinstance(ref, Mapping) and ref.get("uid") == owner["uid"])
        ]
        meta["ownerReferences"] = [*refs, owner]
        return applied, child_info

    def _write_status(
        self,
        key: ObjectKey,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        status: Mapping[str, Any],
        writes: _Writes,
    ) -> None:
        # a null is "no such field" to a merge patch: what the server keeps has none
        desired = _without_nulls(status)
        if info.has_status:
            desired["observedGeneration"] = (obj.get("metadata") or {}).get("generation")
        latest = self._latest(info, key)
        base = latest if latest is not None else obj
        slot = (info, key)
        with self._lock:
            sent = self._status_sent.get(slot)
        if sent is not None and sent[0] == desired and _version(base) in sent[1]:
            # the server accepted this very status (observedGeneration included) from
            # the loop, and what the loop knows of the object is the version that write
            # was based on or answered: nobody else wrote it since, so the write would
            # change nothing. Needed where the watch lags the answer and the versions
            # do not order (``_latest`` can then only trust the cache)
            return
        current = base.get("status")
        if current == desired:
            return
        patch = {"status": merge_patch(current or {}, desired)}
        subresource = "status" if info.has_status else ""
        answer = self._send(
            writes, key, "status", info, key,
            lambda: self.backend.patch(
                info, key[0], key[1], patch, subresource=subresource, dry_run=self.dry_run
            ),
            patch,
        )  # fmt: skip
        if answer is not None and not self.dry_run:
            with self._lock:
                self._status_sent[slot] = (desired, frozenset((_version(base), _version(answer))))
            generation = (answer.get("metadata") or {}).get("generation")
            if info.has_status and generation != desired.get("observedGeneration"):
                # the spec moved on under this reconcile (read from a cache the watch had
                # not brought up to date: after an outage a relist shows only the latest
                # state, which is this very answer). Its echo is news, not the loop's
                # own: reconcile again (the key is processing, so it is queued after)
                with self._lock:
                    self._own_writes.pop(slot, None)
                self.queue.add(key)

    # -- context ---------------------------------------------------------------------------

    def _reached_outside(self) -> None:
        with self._lock:
            self._outside += 1

    def _watches_events(self) -> bool:
        return any(
            info.plural == "events" and info.group in ("", "events.k8s.io")
            for info in tuple(self._informers)
        )

    def kubernetes_client(self) -> Any:
        with self._lock:
            if self._kubernetes is None:
                if self._kubernetes_factory is None:
                    # only the in-process store comes without one
                    hint = f", or {self.no_cluster_hint}" if self.no_cluster_hint else ""
                    raise RuntimeError(
                        "ctx.kubernetes needs a cluster and this loop runs on none: "
                        f"read with ctx.get and ctx.list{hint}"
                    )
                self._kubernetes = self._kubernetes_factory()
            return self._kubernetes

    def _count(self, **counts: int) -> None:
        with self._lock:
            for name, value in counts.items():
                self.stats[name] += value

    def _emit(self, event: Any) -> None:
        if self.sink is not None:
            self.sink(event)


class _WriteRefused(Exception):
    """A write the reconcile needed first (the finalizer) was refused (told already)."""


class _KindNotServed(Exception):
    """A child whose kind the backend does not serve: its ``kind``, ``namespace``,
    ``name`` and the message, as a ``WriteFailed`` tells them."""

    def __init__(self, kind: str, namespace: str, name: str, message: str) -> None:
        super().__init__(kind, namespace, name, message)
        self.kind, self.name = kind, name

    def __str__(self) -> str:
        return str(self.args[3])


class FinalizeNotDone(Exception):
    """``finalize`` said it is not done and asked for no particular delay: it is called
    again after the backoff."""


class _Writes:
    __slots__ = ("conflicts", "count", "failures")

    def __init__(self) -> None:
        self.count = 0
        self.failures: list[str] = []
        #: how many of the failures were 409 Conflict
        self.conflicts = 0


def _finalizer_of(reconciler: ReconcilerLike | None) -> str:
    return str(getattr(reconciler, "finalizer", None) or FINALIZER)


def _gone(exc: ClusterError) -> bool:
    return isinstance(exc, ApiError) and exc.status == 404


def _carries(obj: Mapping[str, Any], finalizer: str) -> bool:
    return finalizer in ((obj.get("metadata") or {}).get("finalizers") or ())


def _version(obj: Mapping[str, Any] | None) -> str | None:
    version = ((obj or {}).get("metadata") or {}).get("resourceVersion")
    return str(version) if version else None


def _newer(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """``a`` is a later version than ``b``, as far as their resourceVersions tell (the
    API conventions call them opaque; etcd's are revisions, so numbers compare)."""
    left, right = _version(a), _version(b)
    if left is None or right is None or not (left.isdigit() and right.isdigit()):
        return False
    return int(left) > int(right)


def _without_nulls(value: Any) -> Any:
    """A copy of JSON data without the null members of its mappings."""
    if isinstance(value, Mapping):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_without_nulls(item) for item in value]
    return value


def _for_update_matters(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """The ``FOR`` update filter (module docstring)."""
    old_meta = old.get("metadata") or {}
    new_meta = new.get("metadata") or {}
    generation = new_meta.get("generation")
    if not generation:
        return bool(old_meta.get("resourceVersion") != new_meta.get("resourceVersion"))
    return bool(
        old_meta.get("generation") != generation
        or old_meta.get("deletionTimestamp") != new_meta.get("deletionTimestamp")
        or old_meta.get("finalizers") != new_meta.get("finalizers")
    )


class _Context:
    """``api.Context`` for one reconcile."""

    def __init__(
        self, controller: Controller, key: ObjectKey, obj: Mapping[str, Any], info: ResourceInfo
    ) -> None:
        self._controller = controller
        self._key = key
        self._obj = obj
        self._info = info
        self.log = controller.log
        self.namespace = key[0]

    def event(
        self,
        reason: str,
        message: str,
        *,
        type: str = "Normal",
        obj: Mapping[str, Any] | None = None,
    ) -> None:
        from kubectl_crd.reconcile.events import KubernetesEventFailed

        if self._controller._watches_events():  # else its Event cannot echo back
            self._controller._reached_outside()
        involved = obj if obj is not None else self._obj
        if obj is None and "apiVersion" not in involved:
            involved = {**involved, "apiVersion": self._info.api_version, "kind": self._info.kind}
        try:
            self._controller.backend.record_event(
                involved, reason, message, type=type, dry_run=self._controller.dry_run
            )
        except KubectlCrdError as exc:
            self._controller._emit(KubernetesEventFailed(self._key, reason, str(exc)))

    def _cache(self, resource: str) -> tuple[Informer, ResourceInfo]:
        informer = self._controller.informer(resource)
        if informer is None:
            raise LookupError(
                f"{resource} is not watched by this loop: name it in FOR, OWNS or WATCHES"
            )
        return informer, informer.info

    def _read_children(self) -> None:
        """This reconcile depends on more than its object: the echo of a child the loop
        applies for it reconciles it again (before the read, so an echo that comes
        while it reads is not missed)."""
        self._controller._reads[self._key] = True

    def get(self, resource: str, name: str, namespace: str | None = None) -> dict[str, Any] | None:
        informer, info = self._cache(resource)
        where = (namespace if namespace is not None else self.namespace) if info.namespaced else ""
        if info != self._info or (where, name) != self._key:
            self._read_children()  # anything but its own object (FOR may be in OWNS too)
        return informer.cache.get(where, name)

    def list(
        self,
        resource: str,
        namespace: str | None = None,
        labels: str | Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        informer, info = self._cache(resource)
        self._read_children()
        where: str | None
        if not info.namespaced or namespace == "*":
            where = None
        else:
            where = namespace if namespace is not None else self.namespace
        return informer.cache.list(where, labels)

    @property
    def kubernetes(self) -> Any:
        self._read_children()  # it can read anything
        self._controller._reached_outside()  # ... and write it
        return self._controller.kubernetes_client()


if TYPE_CHECKING:

    def _is_a_context(ctx: _Context) -> Context:
        return ctx  # mypy checks that _Context is what the public API promises
