"""CRDs from files and directories given with ``--crd``.

Every document that claims to be a CRD is parsed; broken ones (bad YAML, not v1,
missing names, non-structural schema) are kept as ``problems()`` with file and line
instead of failing the command. Other kinds of objects in the same files are ignored,
so a whole manifests directory can be passed. Parsed files are cached by content
(see ``io``), which is what makes ``explain --crd`` on a multi-megabyte CRD fast.
"""

from __future__ import annotations

from collections.abc import Sequence

from kubectl_crd.io import Document, expand_paths, load_documents_cached
from kubectl_crd.model.crd import CustomResourceDefinition, is_crd_object
from kubectl_crd.model.errors import CRDError, KubectlCrdError


class FileSource:
    def __init__(self, paths: Sequence[str]) -> None:
        self._paths = list(paths)
        self._crds: list[CustomResourceDefinition] | None = None
        self._problems: list[KubectlCrdError] = []

    @property
    def description(self) -> str:
        return "files: " + ", ".join(self._paths)

    def crds(self) -> Sequence[CustomResourceDefinition]:
        if self._crds is None:
            self._crds = self._load()
        return self._crds

    def problems(self) -> Sequence[KubectlCrdError]:
        return list(self._problems)

    def _load(self) -> list[CustomResourceDefinition]:
        crds: list[CustomResourceDefinition] = []
        for path in expand_paths(self._paths, problems=self._problems):
            for document in load_documents_cached(path):
                crd = self._crd_of(document)
                if crd is not None:
                    crds.append(crd)
        return crds

    def _crd_of(self, document: Document) -> CustomResourceDefinition | None:
        if document.error is not None:
            self._problems.append(document.error)
            return None
        if not is_crd_object(document.content):
            return None
        try:
            return CustomResourceDefinition.from_object(document.content, document.location)
        except CRDError as exc:
            self._problems.append(exc)
            return None
