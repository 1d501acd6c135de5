"""CRDs from files and directories given with ``--crd``.

Every document that claims to be a CRD is parsed; broken ones (bad YAML, not v1,
missing names, non-structural schema) are kept as ``problems()`` with file and line
instead of failing the command. Other kinds of objects in the same files are ignored,
so a whole manifests directory can be passed. Parsed files are cached by content
(see ``io``), which is what makes ``explain --crd`` on a multi-megabyte CRD fast; and
once every CRD of a file has passed the structural-schema check, the cache remembers
it for that content (a changed file is a new content), so reading it again skips the
walk over every schema node.
"""

from __future__ import annotations

from collections.abc import Sequence

from kubectl_crd.io import Document, add_mark, expand_paths, has_mark, load_documents_cached
from kubectl_crd.model.crd import CustomResourceDefinition, is_crd_object, same_definition
from kubectl_crd.model.errors import CRDError, KubectlCrdError
from kubectl_crd.model.structural import RULES_VERSION

#: The cache mark of a file content whose CRDs all have structural schemas.
STRUCTURAL_MARK = f"structural-{RULES_VERSION}"


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
            documents = load_documents_cached(path)
            checked = bool(documents) and has_mark(documents[0], STRUCTURAL_MARK)
            known = len(self._problems)
            for document in documents:
                crd = crd_of(document, self._problems, checked=checked)
                if crd is not None and not any(same_definition(crd, c) for c in crds):
                    crds.append(crd)
            if not checked and len(self._problems) == known and documents:
                add_mark(documents[0], STRUCTURAL_MARK)
        return crds


def crd_of(
    document: Document, problems: list[KubectlCrdError], *, checked: bool = False
) -> CustomResourceDefinition | None:
    """The CRD ``document`` defines; None for another kind of object, and for a broken
    CRD, whose error joins ``problems``. ``checked``: its structural schema is known
    good (the cache's mark), so the walk is skipped."""
    if document.error is not None:
        problems.append(document.error)
        return None
    if not is_crd_object(document.content):
        return None
    try:
        return CustomResourceDefinition.from_object(
            document.content, document.location, check_structural=not checked
        )
    except CRDError as exc:
        problems.append(exc)
        return None
