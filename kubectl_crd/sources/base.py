"""The one interface every CRD source implements, and lookup on top of it.

Commands never know where a CRD came from: files, the cluster, a combination or a
fake all answer ``crds()`` and report the CRD documents they could not use through
``problems()`` instead of failing the whole command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import KubectlCrdError
from kubectl_crd.model.lookup import ResourceMatch, resolve_resource


class CRDSource(Protocol):
    @property
    def description(self) -> str:
        """Where the CRDs come from, for messages ("files: a.yaml", "cluster (context kind)")."""
        ...

    def crds(self) -> Sequence[CustomResourceDefinition]:
        """Every usable CRD. May raise ``ClusterError`` for a cluster-backed source."""
        ...

    def problems(self) -> Sequence[KubectlCrdError]:
        """CRD documents that were skipped because they are broken, after ``crds()``."""
        ...


def find_crd(source: CRDSource, query: str) -> ResourceMatch:
    """Resolve a RESOURCE argument against a source (see ``model.lookup``)."""
    return resolve_resource(source.crds(), query)
