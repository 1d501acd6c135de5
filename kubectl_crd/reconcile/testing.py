"""Unit tests of a reconciler without a cluster: ``run_reconcile`` and ``run_finalize``.

Issue 27: a user tests their ``reconcile`` in milliseconds, in pytest, against objects
given as dicts or YAML, with the same in-process store the dev loop's ``--local`` mode
uses (``reconcile.localstore.ObjectStore``), so ``ctx.get`` and ``ctx.list`` find
them (label selectors included) and custom resources are admitted as the API server
admits them (defaults applied, an invalid object refused)::

    from pathlib import Path
    from kubectl_crd.reconcile.testing import run_reconcile

    HERE = Path(__file__).parent

    def test_owns_a_deployment():
        out = run_reconcile(HERE / "reconciler.py", HERE / "foo.yaml", crds=[HERE / "crd.yaml"])
        assert out.error is None
        assert out.child("Deployment", "example-foo")["spec"]["replicas"] == 1

What it runs is one call of the module's ``reconcile(obj, ctx)`` (or its metacontroller
sync hook, given the request the loop would build) on ``obj`` as the store holds it
after writing it (with a uid, a generation and its CRD's defaults); nothing is applied
and no second reconcile follows: the ``Outcome`` holds what that call returned
(children, status, requeue), the Events it recorded and what it logged, or the
exception it raised. The children and the status are also sent to the store as dry runs
(an apply of each child, the status through ``/status``), so a child of a kind not
served, or a custom resource or status its CRD's schema refuses, is the ``error`` it
would be on a cluster.

Inputs (``obj``, each of ``objects`` and ``crds``): a dict, YAML or JSON text (one or
more documents), or a ``pathlib.Path`` of a file or a directory (every YAML and JSON
file in it; ``crds`` takes only the CRDs of a path, as ``--crd DIR`` does). A CRD may
also sit among ``objects``. An object's ``metadata.uid`` is kept
(so a child's ``ownerReferences`` can name its parent's), and its ``status`` is written
through ``/status``, as a real controller (a Deployment's) would have set it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from kubectl_crd.model.errors import KubectlCrdError
from kubectl_crd.model.records import field, record

if TYPE_CHECKING:
    from kubectl_crd.reconcile.backends import ResourceInfo
    from kubectl_crd.reconcile.loading import LoadedReconciler
    from kubectl_crd.reconcile.localstore import ObjectStore

__all__ = ["Event", "Outcome", "run_finalize", "run_reconcile"]

#: an input: an object, YAML or JSON text, or a file or directory of them
Source = Union[Mapping[str, Any], str, "os.PathLike[str]"]

#: the field manager of the objects a test gives (as ``--local`` DIR's files have one)
TEST_MANAGER = "kubectl-crd-test"


@record
class Event:
    """A Kubernetes Event the reconcile recorded through ``ctx.event``."""

    type: str
    reason: str
    message: str
    #: the object it is about, as ``Kind/name``
    object: str


@record
class Outcome:
    """What one call of the user's function produced (see the module docstring)."""

    children: tuple[dict[str, Any], ...] = ()
    status: dict[str, Any] | None = None
    requeue_after: float | None = None
    events: tuple[Event, ...] = ()
    #: what it logged through ``ctx.log``, as ``LEVEL message``
    logs: tuple[str, ...] = ()
    #: the exception it raised (``TerminalError`` included), or the refusal of a child or
    #: of the status (see the module docstring)
    error: BaseException | None = None
    #: ``run_finalize`` only: whether clean-up is done (the finalizer may go)
    finalized: bool | None = None
    #: the reconciled object as the store held it when the function was called
    obj: dict[str, Any] = field(default_factory=dict)

    def child(self, kind: str, name: str | None = None) -> dict[str, Any]:
        """The one child of ``kind`` (and ``name``); ``LookupError`` listing the
        children when there is not exactly one."""
        found = [
            c
            for c in self.children
            if c.get("kind") == kind
            and (name is None or (c.get("metadata") or {}).get("name") == name)
        ]
        if len(found) != 1:
            have = ", ".join(
                f"{c.get('kind')}/{(c.get('metadata') or {}).get('name')}" for c in self.children
            )
            wanted = f"{kind}/{name}" if name else kind
            raise LookupError(f"{len(found)} children {wanted} (children: {have or 'none'})")
        return found[0]


def run_reconcile(
    reconciler: str | os.PathLike[str] | LoadedReconciler,
    obj: Source,
    *,
    objects: Iterable[Source] = (),
    crds: Iterable[Source] = (),
) -> Outcome:
    """Run ``reconcile`` once on ``obj`` with ``objects`` in the store (see the module
    docstring). ``reconciler``: the path of the reconciler file, or a loaded one
    (``reconcile.loading.load_reconciler``) to save the import in a loop of tests."""
    return _run(reconciler, obj, objects, crds, finalizing=False)


def run_finalize(
    reconciler: str | os.PathLike[str] | LoadedReconciler,
    obj: Source,
    *,
    objects: Iterable[Source] = (),
    crds: Iterable[Source] = (),
) -> Outcome:
    """Run ``finalize`` once on ``obj`` being deleted (``metadata.deletionTimestamp``
    set, as the loop calls it); ``Outcome.finalized`` says whether it is done."""
    return _run(reconciler, obj, objects, crds, finalizing=True)


# -- running -----------------------------------------------------------------------------


def _run(
    reconciler: str | os.PathLike[str] | LoadedReconciler,
    obj: Source,
    objects: Iterable[Source],
    crds: Iterable[Source],
    *,
    finalizing: bool,
) -> Outcome:
    from kubectl_crd.reconcile.loading import LoadedReconciler, load_reconciler

    loaded = (
        reconciler if isinstance(reconciler, LoadedReconciler) else load_reconciler(str(reconciler))
    )
    if finalizing and not loaded.has_finalize:
        raise TypeError(f"{loaded.display} defines no finalize")
    targets = _documents(obj, "obj")
    if len(targets) != 1:
        raise ValueError(f"obj holds {len(targets)} objects; give one")
    store, uids = _store()
    others = [each for source in objects for each in _documents(source, "objects")]
    given_crds = []
    for source in crds:
        for each in _documents(source, "crds"):
            if _is_crd(each):
                given_crds.append(each)
            elif not isinstance(source, os.PathLike):  # a directory may hold objects too
                raise ValueError(f"crds: {each.get('kind')} is not a CustomResourceDefinition")
    for crd in [*given_crds, *(each for each in [*others, *targets] if _is_crd(each))]:
        _serve(store, crd)
    for each in others:
        if not _is_crd(each):
            _write(store, uids, each)
    info, stored = _write(store, uids, targets[0])
    try:
        wanted = store.resolve(loaded.for_resource.text)
    except KubectlCrdError as unserved:
        raise ValueError(f"FOR {loaded.for_resource}: {unserved.message}") from None
    if (wanted.group, wanted.plural) != (info.group, info.plural):
        raise ValueError(
            f"obj is a {info.kind} ({info.plural}.{info.group}); the reconciler is "
            f"FOR {loaded.for_resource}"
        )
    if finalizing:
        stored = _deleting(stored)
    context = _Context(store, loaded, stored, info)
    try:
        if finalizing:
            finalization = loaded.finalize(stored, context)
            result, finalized = finalization.result, finalization.finalized
        else:
            result, finalized = loaded.call(stored, context), None
    except (Exception, SystemExit) as raised:  # the user's: the outcome says which (a
        # sys.exit() too, a failed reconcile in the loop as well)
        return _outcome(context, stored, error=raised)
    status = _plain(result.status) if result.status is not None else None
    children = tuple(_plain(child) for child in result.children)
    error: KubectlCrdError | None = None
    try:
        for child in children:
            _check_child(store, child, stored)
        if status is not None and info.has_status:
            store.update_status(info, {**stored, "status": status}, dry_run=True)
    except KubectlCrdError as refused:
        error = refused
    return _outcome(
        context,
        stored,
        children=children,
        status=status,
        requeue_after=result.requeue_after,
        finalized=finalized,
        error=error,
    )


def _outcome(context: _Context, stored: dict[str, Any], **values: Any) -> Outcome:
    return Outcome(events=tuple(context.events), logs=tuple(context.logs), obj=stored, **values)


class _Uids:
    """The store's uid source: a given ``metadata.uid`` first, else a random one."""

    def __init__(self) -> None:
        self.next: str | None = None

    def __call__(self) -> str:
        if self.next:
            uid, self.next = self.next, None
            return uid
        import uuid

        return str(uuid.uuid4())


def _store() -> tuple[ObjectStore, _Uids]:
    from kubectl_crd.reconcile.localstore import ObjectStore

    uids = _Uids()
    return ObjectStore(uids=uids), uids


def _documents(source: Source, what: str) -> list[dict[str, Any]]:
    """Every object ``source`` holds, as plain values."""
    import json

    from kubectl_crd.io.documents import expand_lists
    from kubectl_crd.io.loading import load_documents

    if isinstance(source, Mapping):
        return [_plain(source)]
    if isinstance(source, os.PathLike):
        path = Path(source)
        if path.is_dir():
            from kubectl_crd.io.inputs import expand_paths

            files = sorted(expand_paths([str(path)]))
        else:
            files = [str(path)]
        found: list[dict[str, Any]] = []
        for file in files:
            found.extend(_documents(Path(file).read_text(encoding="utf-8"), file))
        return found
    if not isinstance(source, str):
        raise TypeError(f"{what}: {type(source).__name__}; give a dict, YAML text or a Path")
    documents = list(expand_lists(load_documents(source, what)))
    for document in documents:
        if document.error is not None:
            raise ValueError(f"{document.error.location}: {document.error.message}")
    return [json.loads(json.dumps(d.content)) for d in documents if d.content is not None]


def _plain(value: Any) -> Any:
    import json

    return json.loads(json.dumps(value))


def _is_crd(obj: Mapping[str, Any]) -> bool:
    from kubectl_crd.model.crd import is_crd_object

    return is_crd_object(obj)


def _serve(store: ObjectStore, crd: Mapping[str, Any]) -> None:
    import json

    from kubectl_crd.io.loading import load_documents
    from kubectl_crd.sources.files import crd_of

    name = (crd.get("metadata") or {}).get("name") or "a CRD"
    (document,) = load_documents(json.dumps(crd), str(name))
    problems: list[KubectlCrdError] = []
    served = crd_of(document, problems)
    if problems or served is None:
        raise ValueError(f"CRD {name}: {'; '.join(p.message for p in problems)}")
    store.add_crd(served)


def _write(
    store: ObjectStore, uids: _Uids, obj: Mapping[str, Any]
) -> tuple[ResourceInfo, dict[str, Any]]:
    """Write one given object as ``--local`` writes a file's (applied, then its status
    through ``/status``); its resource and the object as stored."""
    api_version = str(obj.get("apiVersion") or "")
    kind = str(obj.get("kind") or "")
    try:
        info = store.resolve_kind(api_version, kind)
    except KubectlCrdError as error:
        raise ValueError(f"{api_version} {kind}: {error.message} (give its CRD in crds)") from None
    metadata = dict(obj.get("metadata") or {})
    # the given uid is the one the store makes (an applied one must be the object's)
    uids.next = str(metadata.pop("uid", None) or "") or None
    body = {key: value for key, value in obj.items() if key != "status"}
    body["metadata"] = metadata
    try:
        written = store.apply(info, body, field_manager=TEST_MANAGER)
        status = obj.get("status")
        if status is not None and info.has_status:
            written = store.update_status(info, {**written, "status": status})
    except KubectlCrdError as error:
        name = metadata.get("name") or "?"
        raise ValueError(f"{kind}/{name} refused: {error.message}") from None
    finally:
        uids.next = None
    return info, written


def _check_child(store: ObjectStore, child: Mapping[str, Any], parent: Mapping[str, Any]) -> None:
    """Refuse ``child`` as the loop's apply would be refused (a kind not served, a
    custom resource its CRD's schema refuses); nothing is stored."""
    from kubectl_crd.reconcile.controller import FIELD_MANAGER

    info = store.resolve_kind(str(child.get("apiVersion") or ""), str(child.get("kind") or ""))
    metadata = dict(child.get("metadata") or {})
    if info.namespaced:
        metadata.setdefault("namespace", (parent.get("metadata") or {}).get("namespace"))
    store.apply(info, {**child, "metadata": metadata}, field_manager=FIELD_MANAGER, dry_run=True)


def _deleting(obj: dict[str, Any]) -> dict[str, Any]:
    metadata = dict(obj.get("metadata") or {})
    metadata.setdefault("deletionTimestamp", metadata.get("creationTimestamp"))
    return {**obj, "metadata": metadata}


class _Collect(logging.Handler):
    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.DEBUG)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(f"{record.levelname} {record.getMessage()}")


class _Context:
    """``api.Context`` over the store, for one call."""

    def __init__(
        self,
        store: ObjectStore,
        loaded: LoadedReconciler,
        obj: Mapping[str, Any],
        info: ResourceInfo,
    ) -> None:
        self._store = store
        self._obj = obj
        self._info = info
        self.namespace = str((obj.get("metadata") or {}).get("namespace") or "")
        self.events: list[Event] = []
        self.logs: list[str] = []
        self.log = logging.Logger("reconciler", logging.DEBUG)
        self.log.addHandler(_Collect(self.logs))
        self.log.propagate = False
        # what the loop watches, so a read of anything else fails as it would there
        self._watched: set[tuple[str, str]] = set()
        for spec in loaded.resources:
            try:
                each = store.resolve(spec.text)
            except KubectlCrdError:
                continue
            self._watched.add((each.group, each.plural))

    def event(
        self,
        reason: str,
        message: str,
        *,
        type: str = "Normal",
        obj: Mapping[str, Any] | None = None,
    ) -> None:
        involved = obj if obj is not None else self._obj
        name = (involved.get("metadata") or {}).get("name") or ""
        kind = involved.get("kind") or self._info.kind
        self.events.append(Event(type, reason, message, f"{kind}/{name}"))

    def _resolve(self, resource: str) -> ResourceInfo:
        try:
            info = self._store.resolve(resource)
        except KubectlCrdError:
            info = None
        if info is None or (info.group, info.plural) not in self._watched:
            raise LookupError(
                f"{resource} is not watched by this loop: name it in FOR, OWNS or WATCHES"
            )
        return info

    def get(self, resource: str, name: str, namespace: str | None = None) -> dict[str, Any] | None:
        info = self._resolve(resource)
        where = (namespace if namespace is not None else self.namespace) if info.namespaced else ""
        try:
            return self._store.get(info, where, name)
        except KubectlCrdError:
            return None

    def list(
        self,
        resource: str,
        namespace: str | None = None,
        labels: str | Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        info = self._resolve(resource)
        where: str | None
        if not info.namespaced or namespace == "*":
            where = None
        else:
            where = namespace if namespace is not None else self.namespace
        return self._store.list(info, where, labels)

    @property
    def kubernetes(self) -> Any:
        raise RuntimeError("run_reconcile has no cluster: ctx.kubernetes is not available")


if TYPE_CHECKING:
    from kubectl_crd.reconcile.api import Context

    def _is_a_context(ctx: _Context) -> Context:
        return ctx  # mypy checks that _Context is what the public API promises
