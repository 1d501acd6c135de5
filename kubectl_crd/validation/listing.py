"""Objects of files as the API server would list them: ``kubectl crd get -f``'s rows.

Each document of the kind asked for is validated as a create (``validate_located``),
its object taken as the server would store it (pruned, defaulted), given what the
server adds on a create that columns may show (``creationTimestamp`` now, the
namespace), defaulted again as read, and its printer-column cells computed
(``model.columns``). An object the server would reject still gets a row, its cells
computed from what the file says, beside its ``DocumentResult`` (its errors, for the
command to print). With several files and CPUs the files are read in forked
processes (``validation.parallel``); only rows and results cross back.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from kubectl_crd.io.documents import Document
    from kubectl_crd.model.columns import ColumnPlan, Row
    from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
    from kubectl_crd.validation.documents import CRDIndex, DocumentResult

    #: A document's row, and the result of a document the server would reject (None
    #: for one it would store).
    Entry = tuple[Row, DocumentResult | None]

__all__ = ["FileObjects", "served_version"]


def served_version(crd: CustomResourceDefinition, wanted: str | None) -> CRDVersion:
    """The CRD's version of that name, or its preferred one (the first served)."""
    return (crd.version(wanted) if wanted else None) or crd.preferred_version


class FileObjects:
    """The rows of the CRD's objects among documents: ``names`` only (all when empty),
    and for a namespaced kind only ``namespace``'s (all when None). ``keep_objects``
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
    ) -> None:
        self._crd = crd
        self._plan = plan
        self._index = index
        self._names = tuple(names)
        self._namespace = namespace if crd.namespaced else None
        self._default_namespace = default_namespace  # what the server gives one without
        self.keep_objects = keep_objects
        from datetime import UTC, datetime

        self._now = datetime.now(UTC)
        self._created = self._now.strftime("%Y-%m-%dT%H:%M:%SZ")
        # what each object needs, imported once here rather than per object
        from kubectl_crd.model.columns import row_cells
        from kubectl_crd.validation.documents import validate_located
        from kubectl_crd.validation.pipeline import default_as_read

        self._row_cells = row_cells
        self._validate = validate_located
        self._default_as_read = default_as_read

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
        if not isinstance(content, dict) or content.get("kind") != self._crd.names.kind:
            return []
        api_version = str(content.get("apiVersion", ""))
        if api_version.split("/")[0] != self._crd.group:
            return []
        metadata = content.get("metadata")
        if self._names and _name(metadata) not in self._names:
            return []
        if self._namespace:
            namespace = metadata.get("namespace") if isinstance(metadata, dict) else None
            if (namespace or "default") != self._namespace:
                return []
        result = self._validate(document, self._index)
        if result.status == "valid" and result.stored is not None:
            # the stored object is the pipeline's own copy, plain already when the
            # document came from the parsed-value cache; a parsed one (YamlMap, a dict
            # that also knows positions) is made plain only to be kept
            obj = result.stored
            if document.has_positions and self.keep_objects:
                obj = _plain(obj)
            self._as_created(obj)
            version = served_version(self._crd, api_version.partition("/")[2])
            self._default_as_read(obj, version, created=True)
            cells = self._row_cells(self._plan, obj, self._now)
            return [((cells, obj if self.keep_objects else {}), None)]
        obj = _plain(content)
        row = (self._row_cells(self._plan, obj, self._now), obj if self.keep_objects else {})
        return [(row, _without_object(result))]

    def _as_created(self, obj: dict[str, Any]) -> None:
        """Add what the server adds on create and the columns may show: the creation time
        (now, so AGE reads ``0s``) and, for a namespaced kind, the namespace."""
        metadata = obj.setdefault("metadata", {})
        if isinstance(metadata, dict):
            metadata.setdefault("creationTimestamp", self._created)
            if self._crd.namespaced:
                metadata.setdefault("namespace", self._default_namespace or "default")


def _documents(paths: Sequence[str]) -> Iterable[Document]:
    """The files' documents through the parsed-value cache (``io.caching``): without
    per-node positions on a hit, which only a rejected object needs (reparsed then)."""
    from kubectl_crd.io import read_inputs

    return read_inputs(paths, cached=True)


def _name(metadata: Any) -> str:
    name = metadata.get("name", "") if isinstance(metadata, dict) else ""
    return name if isinstance(name, str) else ""


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
