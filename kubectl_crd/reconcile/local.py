"""``LocalBackend``: the dev loop's ``Backend`` on an in-process store fed from a directory.

Issue 27's ``kubectl crd dev ./reconciler.py --local DIR``: DIR's YAML and JSON files
hold CRDs and objects (custom resources, and any other object a reconciler reads: a
Deployment with the status a cluster would give it). ``load()`` serves the CRDs, then
writes every object into a ``reconcile.localstore.ObjectStore``; ``start_watching()``
follows the files (``io.filewatch``), so saving a file is a create or update of what it
holds, and an object gone from its file (or the file deleted) is deleted, its children
with it (the store's garbage collector).

Each file's objects are server-side applied under ``FILE_MANAGER``: an edit replaces
what the file set and nothing else, so the loop's own writes (the status through
``/status``, a finalizer through a merge patch) survive an edit of the file, as they
would survive ``kubectl apply --server-side`` of it. A ``status`` in a file is written
through the status subresource after the object (the subresource keeps it apart).

Problems are ``LocalProblem`` records (file:line:column and the message), handed to
``on_problem`` and kept in ``problems`` until the file is fixed: a YAML error, an
unknown kind, and an object the store refuses (a custom resource that does not validate
is not written, so the loop keeps reconciling the last good one). A CRD removed from
DIR keeps being served until restart (its objects stay, as the server keeps them).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from kubectl_crd.model.errors import ApiError, KubectlCrdError, Location
from kubectl_crd.model.records import record
from kubectl_crd.reconcile.localstore import ObjectStore, StoreRefusal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kubectl_crd.io.documents import Document
    from kubectl_crd.kube.reflector import ReflectorEvent
    from kubectl_crd.model.errors import ClusterError
    from kubectl_crd.reconcile.backends import Backend, ResourceInfo

__all__ = ["FILE_MANAGER", "LocalBackend", "LocalProblem"]

#: the field manager of the objects DIR's files hold
FILE_MANAGER = "kubectl-crd-local"

#: an object's identity in DIR: (group, kind, namespace, name)
Identity = tuple[str, str, str, str]


@record
class LocalProblem:
    """What is wrong with one file (or one object in it)."""

    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


class LocalBackend:
    """``Backend`` (see ``reconcile.backends``) on an ``ObjectStore`` fed from
    ``directory`` (see the module docstring); ``on_warning`` is told the text of each
    warning the server would send with a write's answer."""

    def __init__(
        self,
        directory: str,
        *,
        store: ObjectStore | None = None,
        on_problem: Callable[[LocalProblem], None] | None = None,
        on_change: Callable[[set[str]], None] | None = None,
        on_warning: Callable[[str], None] | None = None,
        settle: float = 0.1,
        exclude: tuple[str, ...] = (),
    ) -> None:
        self.directory = directory
        #: directories under DIR that are not its input: the loop's own output (``dev
        #: --local . --out out``), which read back was objects twice over and problems
        self._exclude = tuple(os.path.abspath(path) for path in exclude)
        # the warnings the server would send with its answers (a built-in's unknown
        # field), told as a cluster's Warning headers are (``KubeClient(on_warning=)``);
        # a ``store`` given is built with its own
        self.store = store if store is not None else ObjectStore(on_warning=on_warning)
        self._on_problem = on_problem
        self._on_change = on_change
        self._settle = settle
        #: file -> identity -> (ResourceInfo, uid) of what it wrote
        self._written: dict[str, dict[Identity, tuple[ResourceInfo, str]]] = {}
        #: file -> its current problems
        self._problems: dict[str, list[LocalProblem]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None

    @property
    def problems(self) -> list[LocalProblem]:
        with self._lock:
            return [p for path in sorted(self._problems) for p in self._problems[path]]

    # -- DIR -----------------------------------------------------------------------------

    def files(self) -> list[str]:
        from kubectl_crd.io.inputs import expand_paths

        found = (os.path.abspath(p) for p in expand_paths([self.directory]))
        return sorted(path for path in found if self._input(path))

    def _input(self, path: str) -> bool:
        """Whether ``path`` (absolute) is DIR's input, not under an excluded directory."""
        return not any(
            os.path.commonpath((path, excluded)) == excluded for excluded in self._exclude
        )

    def load(self) -> list[LocalProblem]:
        """Serve every CRD in DIR, then write every object; the problems found."""
        self.sync(self.files())
        return self.problems

    def sync(self, paths: set[str] | list[str]) -> None:
        """Bring the store in line with ``paths`` as they are on disk now: CRDs first
        (an object may be of a kind another file defines), then objects."""
        read = {path: self._read(path) for path in sorted(paths)}
        with self._lock:
            for path in read:
                self._problems.pop(path, None)
        for path, documents in read.items():
            for document in documents:
                self._serve_crd(path, document)
        dropped: list[tuple[Identity, ResourceInfo, str]] = []
        for path, documents in read.items():
            dropped += self._sync_objects(path, documents)
        # deletes last, and only of what no file holds now: an object moved from one
        # file to another (a rename, a cut and paste) is not deleted, whichever of the
        # two files is read first, in this batch or the next
        with self._lock:
            held = {identity for written in self._written.values() for identity in written}
        for identity, info, uid in dropped:
            if identity not in held:
                # already gone (deleted by its owner's cascade), or replaced: fine
                with contextlib.suppress(ApiError):
                    self.store.delete(info, identity[2], identity[3], uid=uid)

    def _read(self, path: str) -> list[Document]:
        from kubectl_crd.io.documents import expand_lists
        from kubectl_crd.io.loading import load_documents
        from kubectl_crd.io.reading import read_file

        if not os.path.exists(path):
            return []
        data = read_file(path)
        if isinstance(data, KubectlCrdError):
            self._problem(path, data.location or Location(path), data.message)
            return []
        return list(expand_lists(load_documents(data, path)))

    def _serve_crd(self, path: str, document: Document) -> None:
        from kubectl_crd.sources.files import crd_of

        if document.error is not None:
            return  # reported with the file's objects
        found: list[KubectlCrdError] = []
        crd = crd_of(document, found)
        for error in found:
            self._problem(path, error.location or document.location, error.message)
        if crd is not None:
            self.store.add_crd(crd)

    def _sync_objects(
        self, path: str, documents: list[Document]
    ) -> list[tuple[Identity, ResourceInfo, str]]:
        """Write ``path``'s objects; those it held before and holds no more."""
        from kubectl_crd.model.crd import is_crd_object

        with self._lock:
            before = dict(self._written.get(path, {}))
        now: dict[Identity, tuple[ResourceInfo, str]] = {}
        # a document that cannot be read (a save in the middle of an edit) may hold any
        # of the file's objects: none of them is deleted until the file reads again
        unreadable = False
        for document in documents:
            if document.error is not None:
                error = document.error
                self._problem(path, error.location or document.location, error.message)
                unreadable = True
                continue
            content = document.content
            if not isinstance(content, Mapping) or is_crd_object(content):
                continue
            api_version = str(content.get("apiVersion") or "")
            kind = str(content.get("kind") or "")
            given = content.get("metadata")
            meta: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
            try:
                info = self.store.resolve_kind(api_version, kind)
            except KubectlCrdError as exc:
                self._problem(path, document.location, exc.message)
                unreadable = True
                continue
            namespace = str(meta.get("namespace") or "default") if info.namespaced else ""
            identity = (info.group, info.kind, namespace, str(meta.get("name") or ""))
            try:
                uid = self._write(info, content, namespace)
            except StoreRefusal as exc:
                self._refused(path, document, exc)
                if identity in before:
                    now[identity] = before[identity]  # the last good one stays
                continue
            except ApiError as exc:
                self._problem(path, document.location, exc.message)
                continue
            now[identity] = (info, uid)
        if unreadable:
            now = {**before, **now}
        with self._lock:
            if now:
                self._written[path] = now
            else:
                self._written.pop(path, None)
        return [
            (identity, info, uid) for identity, (info, uid) in before.items() if identity not in now
        ]

    def _write(self, info: ResourceInfo, content: Mapping[str, Any], namespace: str) -> str:
        """Apply one file object (its status through ``/status``); its uid."""
        body = {key: value for key, value in content.items() if key != "status"}
        metadata = dict(body.get("metadata") or {})
        # a file saved from a cluster names that cluster's uid: the store makes its own
        # (an applied uid is the object's, else refused: ObjectStore.apply)
        metadata.pop("uid", None)
        if namespace:
            metadata["namespace"] = namespace
        body["metadata"] = metadata
        written = self.store.apply(info, body, field_manager=FILE_MANAGER)
        status = content.get("status")
        if status is not None and info.has_status and written.get("status") != status:
            written = self.store.update_status(info, {**written, "status": status})
        return str(written["metadata"].get("uid") or "")

    def _refused(self, path: str, document: Document, exc: StoreRefusal) -> None:
        if not exc.errors:
            # an apply the typed patch refused names its field its own way: there
            fields = _typed_patch_path(exc.message, document.content)
            where = document.locate(fields) if fields else document.location
            self._problem(path, where, exc.message)
            return
        for error in exc.errors:
            where = error.location or document.locate(_field_path(error.field))
            self._problem(path, where, error.message)

    def _problem(self, path: str, location: Location, message: str) -> None:
        from kubectl_crd.io.inputs import display_path

        # files are read by absolute path (to match the watcher's events); shown as typed
        shown = Location(display_path(location.file), location.line, location.column)
        problem = LocalProblem(shown, message)
        with self._lock:
            self._problems.setdefault(path, []).append(problem)
        if self._on_problem is not None:
            self._on_problem(problem)

    # -- watching DIR -------------------------------------------------------------------

    def start_watching(self, armed_within: float = 10.0) -> None:
        """Follow DIR's files in a thread until ``close()``. Returns once the watch is
        armed (or after ``armed_within`` seconds): the observer starts in that thread,
        a few tenths of a second later on a loaded machine, and a save made after the
        loop said it watches was missed (3 of 8 times under load)."""
        if self._watcher is not None:
            return
        armed = threading.Event()
        self._watcher = threading.Thread(
            target=self._watch, args=(armed,), name="kubectl-crd-local-files", daemon=True
        )
        self._watcher.start()
        armed.wait(armed_within)

    def _watch(self, armed: threading.Event) -> None:
        from kubectl_crd.io.filewatch import changes
        from kubectl_crd.io.inputs import EXTENSIONS

        try:
            for batch in changes(
                [self.directory],
                settle=self._settle,
                extensions=EXTENSIONS,
                stop=self._stop,
                armed=armed,
            ):
                batch = {path for path in batch if self._input(os.path.abspath(path))}
                if not batch:
                    continue
                try:
                    self.sync(batch)
                except KubectlCrdError as exc:  # one bad save must not end the watch
                    self._problem(self.directory, Location(self.directory), exc.message)
                if self._on_change is not None:
                    self._on_change(batch)
        finally:
            armed.set()  # a watcher that failed to start does not hold the loop up

    # -- Backend -----------------------------------------------------------------------

    def resolve(self, spec: str) -> ResourceInfo:
        return self.store.resolve(spec)

    def resolve_kind(self, api_version: str, kind: str) -> ResourceInfo:
        return self.store.resolve_kind(api_version, kind)

    def list_then_watch(
        self,
        info: ResourceInfo,
        *,
        stop: threading.Event,
        namespace: str | None = None,
        label_selector: str | None = None,
        on_error: Callable[[ClusterError], None] | None = None,
    ) -> Iterator[ReflectorEvent]:
        return self.store.list_then_watch(
            info, stop=stop, namespace=namespace, label_selector=label_selector
        )

    def get(self, info: ResourceInfo, namespace: str, name: str) -> dict[str, Any]:
        return self.store.get(info, namespace, name)

    def create(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return self.store.create(info, obj, field_manager=field_manager, dry_run=dry_run)

    def apply(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        force: bool = True,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return self.store.apply(
            info, obj, field_manager=field_manager, force=force, dry_run=dry_run
        )

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
        return self.store.patch(
            info,
            namespace,
            name,
            patch,
            subresource=subresource,
            dry_run=dry_run,
            field_manager=field_manager,
        )

    def delete(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        *,
        uid: str | None = None,
        dry_run: bool = False,
    ) -> None:
        self.store.delete(info, namespace, name, uid=uid, dry_run=dry_run)

    def record_event(
        self,
        involved: Mapping[str, Any],
        reason: str,
        message: str,
        *,
        type: str = "Normal",
        dry_run: bool = False,
    ) -> None:
        self.store.record_event(involved, reason, message, type=type, dry_run=dry_run)

    def watches_quiet(self) -> int | None:
        return self.store.watches_quiet()

    def close(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=2)
            self._watcher = None


if TYPE_CHECKING:

    def _is_a_backend(backend: LocalBackend) -> Backend:
        return backend  # mypy holds LocalBackend to the protocol


_INDEX = re.compile(r"\[(\d+)\]")
#: structured-merge-diff's refusal of an apply: ``failed to create typed patch object
#: (default/x; /v1, Kind=ConfigMap): .data.a: expected string, ...``, its path in
#: fieldpath's text form (sigs.k8s.io/structured-merge-diff fieldpath/serialize-pe.go:
#: ``.name`` a field, ``[0]`` an index, ``[name="c",port=80]`` a list-map key)
_TYPED_PATCH = re.compile(r"failed to create typed patch object \([^)]*\): (?=\.)")


def _typed_patch_path(message: str, content: Any) -> list[str | int]:
    """The path (keys and indexes into ``content``) of the field a typed-patch refusal
    names; as far as it can be followed (a list-map key no item has ends it)."""
    import json

    found = _TYPED_PATCH.search(message)
    if found is None:
        return []
    text, at = message, found.end()
    path: list[str | int] = []
    node = content
    while at < len(text) and text[at] in ".[":
        if text[at] == ".":
            end = at + 1
            while end < len(text) and text[end] not in ".[:":
                end += 1
            name = text[at + 1 : end]
            path.append(name)
            node = node.get(name) if isinstance(node, Mapping) else None
            at = end
            continue
        end, quoted = at + 1, False
        while end < len(text) and (quoted or text[end] != "]"):
            if text[end] == '"' and text[end - 1] != "\\":
                quoted = not quoted
            end += 1
        inside, at = text[at + 1 : end], end + 1
        if inside.isdigit():
            index: int | None = int(inside)
        else:  # key=value pairs, values in JSON
            try:
                wanted = json.loads("{" + re.sub(r'(^|,)([^=,"]+)=', r'\1"\2":', inside) + "}")
            except ValueError:
                break
            items = node if isinstance(node, list) else []
            index = next(
                (
                    i
                    for i, item in enumerate(items)
                    if isinstance(item, Mapping)
                    and all(item.get(key) == value for key, value in wanted.items())
                ),
                None,
            )
        if index is None or not isinstance(node, list) or index >= len(node):
            break
        path.append(index)
        node = node[index]
    return path


def _field_path(field: str) -> list[str | int]:
    """``spec.items[0].name`` as ``["spec", "items", 0, "name"]`` (a server field path)."""
    path: list[str | int] = []
    for part in field.split("."):
        name, _, rest = part.partition("[")
        if name:
            path.append(name)
        path += [int(n) for n in _INDEX.findall("[" + rest)] if rest else []
    return path
