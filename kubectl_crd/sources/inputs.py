"""CRDs from ``--crd``, from the inputs and from the cluster, assembled in this one place.

Every command that reads objects with their CRDs (``get -f``, ``validate``, ``scale
--local``) takes its CRDs from the same three places in the same order: the ``--crd``
files first, then the CRDs defined among its own inputs (a manifest directory that
holds its CRDs needs no ``--crd``), and the cluster's last. ``InputCRDs`` is that
order, written once; how far down it goes is the caller's choice:

- ``crds()`` (the ``CRDSource`` answer): the given CRDs, or the cluster's when
  nothing was given and no ``--crd`` named files (``--crd`` means "instead of the
  cluster");
- ``given()`` and ``from_cluster`` separately, for a caller that asks the cluster
  only for a kind the given CRDs lack (``validate``'s index).

The inputs are read for CRDs through the parsed-value cache and only the files whose
bytes name ``CustomResourceDefinition`` (``io.files_defining_crds``), so the pass
costs next to nothing on a directory of plain objects; documents already read (stdin,
which can be read once) are searched instead. A broken CRD among the inputs is not a
problem here: the command reports that document itself. Broken ``--crd`` documents
are ``problems()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kubectl_crd.io import Document, files_defining_crds, input_documents, require_paths
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import KubectlCrdError
from kubectl_crd.sources.files import FileSource, crd_of

#: What reads the cluster's CRDs, called at most once (``ClusterSource(...).crds``).
ClusterCRDs = Callable[[], Sequence[CustomResourceDefinition]]


class InputCRDs:
    """The CRDs of ``--crd`` paths, of ``inputs`` (or of ``documents`` already read from
    them) and of the cluster, in that order of precedence. ``cluster``: the cluster's
    settings (its CRDs are read with ``sources.cluster``), or what reads its CRDs; None
    for none (offline)."""

    def __init__(
        self,
        crd_paths: Sequence[str],
        inputs: Sequence[str] = (),
        *,
        documents: Iterable[Document] | None = None,
        cluster: ClusterConfig | ClusterCRDs | None = None,
    ) -> None:
        require_paths(crd_paths)  # a --crd typo is an error, not a CRD quietly missing
        self._crd_paths = tuple(crd_paths)
        self._files = FileSource(crd_paths)
        self._inputs = tuple(inputs)
        self._documents = documents
        self._cluster = _reader(cluster) if isinstance(cluster, ClusterConfig) else cluster
        self._given: list[CustomResourceDefinition] | None = None
        self._from_cluster: list[CustomResourceDefinition] | None = None

    @property
    def description(self) -> str:
        parts = [self._files.description] if self._crd_paths else []
        if self._inputs:
            parts.append("inputs: " + ", ".join(self._inputs))
        if self._cluster is not None:
            parts.append("cluster")
        return " + ".join(parts) or "none"

    def from_files(self) -> Sequence[CustomResourceDefinition]:
        """The ``--crd`` files' CRDs."""
        return self._files.crds()

    def from_inputs(self) -> list[CustomResourceDefinition]:
        """The CRDs defined among the inputs."""
        ignored: list[KubectlCrdError] = []  # the command reports those documents itself
        if self._documents is not None:
            documents: Iterable[Document] = self._documents
        else:
            documents = input_documents(files_defining_crds(self._inputs), cached=True)
        return [crd for d in documents if (crd := crd_of(d, ignored)) is not None]

    def given(self) -> list[CustomResourceDefinition]:
        """``--crd``'s CRDs, then the inputs' (a kind defined twice is in twice, for the
        caller's index to tell a conflict from a repeat)."""
        if self._given is None:
            self._given = [*self.from_files(), *self.from_inputs()]
        return self._given

    def from_cluster(self) -> list[CustomResourceDefinition]:
        """The cluster's CRDs, read once; none offline. May raise ``ClusterError``."""
        if self._from_cluster is None:
            self._from_cluster = list(self._cluster()) if self._cluster is not None else []
        return self._from_cluster

    def crds(self) -> Sequence[CustomResourceDefinition]:
        """The given CRDs, or the cluster's when none was given and no ``--crd``."""
        given = self.given()
        if given or self._crd_paths:
            return given
        return self.from_cluster()

    def problems(self) -> Sequence[KubectlCrdError]:
        """The ``--crd`` documents that could not be used."""
        return self._files.problems()


def _reader(config: ClusterConfig) -> ClusterCRDs:
    def read() -> Sequence[CustomResourceDefinition]:
        from kubectl_crd.sources.cluster import ClusterSource

        return ClusterSource(config).crds()

    return read
