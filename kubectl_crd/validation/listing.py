"""Objects of files as the API server would list them: ``kubectl crd get -f``'s rows.

Each document of the kind asked for goes through the admission step
(``validation.admission``) in one of two ways:

- a manifest (no resourceVersion, uid or creationTimestamp) is shown as a create of
  it returns it: pruned, defaulted, the status dropped where a status subresource
  splits it off, with the server's uid, generation and creationTimestamp (this run's
  now: AGE ``0s``, as right after ``kubectl create``), the request's namespace;
- an object dumped from a cluster (``kubectl get -o yaml``: it carries one of those)
  is shown as stored, as a read returns it: its status and timestamps kept, pruned and
  defaulted as stored.

Its printer-column cells are then computed (``model.columns``). An object the server
would reject still gets a row, its cells computed from what the file says, beside its
``DocumentResult`` (its errors in ``validate``'s words, for the command to print).
Rows are listed in the server's order (``server_order``), not the files'. With several
files and CPUs the files are read in forked processes (``validation.parallel``); only
rows and results cross back.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from typing import Any

    from kubectl_crd.io.documents import Document
    from kubectl_crd.model.columns import ColumnPlan, Row
    from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
    from kubectl_crd.validation.admission import Admission
    from kubectl_crd.validation.documents import CRDIndex, DocumentResult

    #: A document's place in a list (``<namespace>/<name>``), its row (None for a
    #: document that is no object: not YAML, or a file that cannot be read), the result
    #: of a document the server would reject (None for one it would store), and where
    #: the document is (a ``Location``'s fields: a tuple crosses from a worker 4x cheaper).
    Entry = tuple[str, Row | None, DocumentResult | None, tuple[str, int, int]]

__all__ = [
    "FileListing",
    "FileObjects",
    "is_stored",
    "list_files",
    "served_version",
    "server_order",
]


class FileListing:
    """The rows of one resource's objects among files, in the server's order, and the
    results of the documents the server would reject, in the files' order."""

    __slots__ = ("crd", "plan", "rejected", "rows")

    def __init__(
        self,
        crd: CustomResourceDefinition,
        plan: ColumnPlan,
        rows: list[Row],
        rejected: list[DocumentResult],
    ) -> None:
        self.crd = crd
        self.plan = plan
        self.rows = rows
        self.rejected = rejected


def list_files(
    crds: Iterable[CustomResourceDefinition],
    resource: str,
    filenames: Sequence[str],
    held: list[Document] | None = None,
    names: Sequence[str] = (),
    **options: Any,
) -> FileListing:
    """The objects of ``resource`` (a RESOURCE argument, resolved among ``crds``) in the
    files (``held``: their documents, already read), as the server would list them;
    ``options`` are ``FileObjects``'."""
    from kubectl_crd.model.columns import plan_columns
    from kubectl_crd.model.lookup import resolve_resource
    from kubectl_crd.validation.documents import CRDIndex

    index = CRDIndex(crds)
    match = resolve_resource(index.known(), resource)
    plan = plan_columns(served_version(match.crd, match.version).printer_columns)
    objects = FileObjects(match.crd, plan, index, names, **options)
    rows, rejected = server_order(objects.rows(filenames, held), match.crd)
    return FileListing(match.crd, plan, rows, rejected)


def served_version(crd: CustomResourceDefinition, wanted: str | None) -> CRDVersion:
    """The CRD's version of that name, or its preferred one (the first served)."""
    return crd.served_version(wanted)


def _label_matcher(selector: str) -> Callable[[Mapping[str, str] | None], bool] | None:
    """``-l``'s test of an object's labels (``None`` without a selector); a selector that
    does not parse is the user's error, in its parser's words."""
    if not selector:
        return None
    from kubectl_crd.model.errors import KubectlCrdError
    from kubectl_crd.model.labels import LabelSelectorError, parse_selector

    try:
        return parse_selector(selector).matches
    except LabelSelectorError as exc:
        raise KubectlCrdError(str(exc)) from None


class FileObjects:
    """The rows of the CRD's objects among documents: ``names`` only (all when empty),
    those whose labels ``selector`` matches (all when empty), and for a namespaced kind
    only ``namespace``'s (all when None). ``keep_objects``
    false keeps no object in the rows (a plain table shows cells only)."""

    def __init__(
        self,
        crd: CustomResourceDefinition,
        plan: ColumnPlan,
        index: CRDIndex,
        names: Sequence[str] = (),
        *,
        namespace: str | None = None,
        default_namespace: str | None = None,
        keep_objects: bool = True,
        selector: str = "",
    ) -> None:
        self._crd = crd
        # -l over files: kubectl's builder filters the files' objects by their labels
        # (visitByPaths' FilterByLabelSelector), before anything is read or admitted
        self._labels_match = _label_matcher(selector)
        self._plan = plan
        self._index = index
        self._names = tuple(names)
        self._namespace = namespace if crd.namespaced else None
        self._default_namespace = default_namespace  # what the server gives one without
        # the CRDs given serve the kind ambiguously: every object of it is refused
        self._conflict = bool(index.conflict(crd.group, crd.names.kind))
        self.keep_objects = keep_objects
        from datetime import UTC, datetime

        self._now = datetime.now(UTC)
        # what each object needs, imported once here rather than per object
        from kubectl_crd.model.columns import row_cells
        from kubectl_crd.validation.admission import Admission
        from kubectl_crd.validation.documents import validate_located

        self._row_cells = row_cells
        self._validate = validate_located
        # one clock for the whole table: a created object's creationTimestamp is this
        # run's now in whole seconds, as the server's, so its AGE is under a second
        now = self._now.timestamp()
        if keep_objects:
            self._admission = Admission(crd, clock=lambda: now)
        else:
            # a plain table shows no uid: a random one costs ~3 us of a create's ~46
            # (bench/get_bench.py's offline row, 10,000 objects)
            self._admission = Admission(crd, clock=lambda: now, uids=str)

    def rows(self, filenames: Sequence[str], held: list[Document] | None = None) -> Iterable[Entry]:
        """The rows of the files' documents (``held``: documents already read, as stdin's
        must be), in the files' order; in forked processes when it pays."""
        import os

        from kubectl_crd.io import expand_paths
        from kubectl_crd.validation.parallel import can_fork, map_files

        if held is not None:
            return (entry for document in held for entry in self(document))
        paths = list(expand_paths(filenames))
        jobs = min(len(paths), os.cpu_count() or 1)
        if jobs > 1 and can_fork():
            return map_files(paths, self.file, jobs)
        return (entry for document in _documents(filenames) for entry in self(document))

    def file(self, path: str) -> list[Entry]:
        """One file's rows."""
        return [entry for document in _documents((path,)) for entry in self(document)]

    def __call__(self, document: Document) -> list[Entry]:
        """One document's row, or none when it is not an object asked for."""
        content = document.content
        if not isinstance(content, dict):
            if document.error is not None or content is not None:
                # no object to list (not YAML, unreadable, a list or a scalar), which
                # kubectl's get -f would stop on: said as a rejected object is (its row
                # aside), never passed over in silence; an empty document is nothing
                return [("", None, self._validate(document, self._index), _where(document))]
            return []
        if content.get("kind") != self._crd.names.kind:
            return []
        api_version = str(content.get("apiVersion", ""))
        if api_version.split("/")[0] != self._crd.group:
            return []
        metadata = content.get("metadata")
        meta = metadata if isinstance(metadata, dict) else {}
        if self._names and _text(meta.get("name")) not in self._names:
            return []
        labels = meta.get("labels")
        if self._labels_match is not None and not self._labels_match(
            labels if isinstance(labels, dict) else None
        ):
            return []
        # one without a namespace goes where a create sends it: the request's (-n)
        written = meta.get("namespace") or self._default_namespace or "default"
        if self._namespace and written != self._namespace:
            return []
        if is_stored(meta):
            return self._as_stored(document)
        return self._as_created(document)

    def _as_created(self, document: Document) -> list[Entry]:
        """A manifest: the object a create of it returns (``Admission.create``), with
        the server's creationTimestamp (this run's now, so AGE reads ``0s`` as right
        after ``kubectl create``), uid, generation and resourceVersion."""
        content = document.content
        if self._conflict or _undecodable(document):
            return self._rejected(document, None)
        meta = content.get("metadata")
        written = meta.get("namespace") if isinstance(meta, dict) else None
        admitted = self._admission.create(
            content,
            # kubectl create's request namespace: the object's own, else the context's
            namespace=(written or self._default_namespace) if self._crd.namespaced else None,
            decode_errors=document.errors,
        )
        if not admitted.ok:
            return self._rejected(document, admitted.message)
        return [self._entry(admitted.object, document)]

    def _as_stored(self, document: Document) -> list[Entry]:
        """An object dumped from a cluster (``kubectl get -o yaml``): shown as a read of
        it returns it (``Admission.read``: its status and server-set fields kept,
        pruned and defaulted as stored), once validation accepts it as the server
        accepts a replace of it unchanged: an update of itself, so what the server holds
        under a schema it no longer meets (stored through another version's schema,
        or before a CRD was tightened) ratchets, as it does there."""
        result = self._validate(document, self._index, old=_itself)
        if result.status != "valid":
            return self._rejected(document, None, result)
        obj = self._admission.read(document.content)
        if self._crd.namespaced:
            obj.setdefault("metadata", {}).setdefault(
                "namespace", self._default_namespace or "default"
            )
        return [self._entry(obj, document)]

    def _entry(self, obj: dict[str, Any], document: Document) -> Entry:
        cells = self._row_cells(self._plan, obj, self._now)
        row = (cells, obj if self.keep_objects else {})
        return (_list_key(obj), row, None, _where(document))

    def _rejected(
        self, document: Document, refusal: str | None, result: DocumentResult | None = None
    ) -> list[Entry]:
        """A row computed from what the file says, beside why the server would refuse the
        object (in ``validate``'s words; ``refusal``: the server's, when validation
        finds nothing to say)."""
        if result is None:
            result = self._validate(document, self._index)
        if result.status == "valid" and refusal:
            from dataclasses import replace

            result = replace(result, status="error", message=refusal)
        obj = _plain(document.content)
        row = (self._row_cells(self._plan, obj, self._now), obj if self.keep_objects else {})
        return [(_list_key(obj), row, _without_object(result), _where(document))]


def _itself(crd: CustomResourceDefinition, content: dict[str, Any]) -> Any:
    """A dump's old object for its validation: the dump itself (``_as_stored``)."""
    from kubectl_crd.model.schema import copy_json

    return copy_json(content)


def is_stored(metadata: dict[str, Any]) -> bool:
    """Whether an object's metadata carries what only the server sets (resourceVersion,
    uid, creationTimestamp): an object dumped from a cluster, not a manifest. A null
    creationTimestamp (controller-gen writes one) is no such mark."""
    get = metadata.get
    return bool(get("resourceVersion") or get("uid") or get("creationTimestamp"))


def server_order(
    entries: Iterable[Entry], crd: CustomResourceDefinition
) -> tuple[list[Row], list[DocumentResult]]:
    """The rows in the order the API server lists objects, and the rejected documents'
    results in the files' order. The server lists in etcd's key order, and an object's
    key ends ``<namespace>/<name>`` (``apiserver/pkg/registry/generic/registry/store.go``:
    ``NamespaceKeyFunc``), so rows go by that string: by namespace, then name (``a/x``
    after ``a-b/y``, as bytes compare). An object whose namespace and name an earlier
    one took is refused as the server refuses a second create of them (``already
    exists``); like every refused object, it keeps its row."""
    keyed: list[tuple[str, Row]] = []
    rejected: list[DocumentResult] = []
    created: set[str] = set()
    admission = None  # made for the first duplicate, if any
    for key, row, result, where in entries:
        if result is None and key in created:
            if admission is None:
                from kubectl_crd.validation.admission import Admission

                admission = Admission(crd)
            result = _already_exists(admission, key, where)
        elif result is None:
            created.add(key)
        if row is not None:
            keyed.append((key, row))
        if result is not None:
            rejected.append(result)
    keyed.sort(key=lambda pair: pair[0])
    return [row for _, row in keyed], rejected


def _where(document: Document) -> tuple[str, int, int]:
    location = document.location
    return (location.file, location.line, location.column)


def _already_exists(admission: Admission, key: str, where: tuple[str, int, int]) -> DocumentResult:
    """The server's refusal of a second create of ``key`` (``Admission.already_exists``'s
    words)."""
    from kubectl_crd.model.errors import Location
    from kubectl_crd.validation.documents import DocumentResult

    namespace, _, name = key.rpartition("/")
    refusal = admission.already_exists(name)
    return DocumentResult(
        source=where[0],
        index=0,
        location=Location(*where),
        status="error",
        kind=admission.crd.names.kind,
        name=name,
        namespace=namespace,
        message=refusal.message,
    )


def _list_key(obj: Any) -> str:
    """The object's place in a list: ``<namespace>/<name>``, or ``<name>``."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(meta, dict):
        return ""
    name = _text(meta.get("name"))
    namespace = _text(meta.get("namespace"))
    return f"{namespace}/{name}" if namespace else name


def _undecodable(document: Document) -> bool:
    """An input error other than duplicate keys (which strict decoding reports itself)."""
    return document.error is not None and any(
        "duplicate" not in error.message for error in document.errors
    )


def _documents(paths: Sequence[str]) -> Iterable[Document]:
    """The files' documents through the parsed-value cache (``io.caching``): without
    per-node positions on a hit, which only a rejected object needs (reparsed then)."""
    from kubectl_crd.io import read_inputs

    return read_inputs(paths, cached=True)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _plain(value: Any) -> Any:
    """A decoded document as plain dicts and lists."""
    from kubectl_crd.model.schema import plain

    return plain(value)


def _without_object(result: DocumentResult) -> DocumentResult:
    """The result without the stored object, which the row holds if it is kept (and
    which need not cross back from a worker)."""
    if result.stored is None:
        return result
    from dataclasses import replace

    return replace(result, stored=None)
