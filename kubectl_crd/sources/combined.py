"""Sources built from other sources: a composite (first wins per CRD) and a fallback."""

from __future__ import annotations

from collections.abc import Sequence

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ClusterError, KubectlCrdError
from kubectl_crd.sources.base import CRDSource


class CompositeSource:
    """All CRDs of several sources; where two define the same CRD name the earlier wins.

    ``CompositeSource([files, cluster])`` lets local CRD files shadow what the cluster
    serves, which is what someone editing a CRD wants to see.
    """

    def __init__(self, sources: Sequence[CRDSource]) -> None:
        self._sources = list(sources)

    @property
    def description(self) -> str:
        return " + ".join(s.description for s in self._sources)

    def crds(self) -> Sequence[CustomResourceDefinition]:
        seen: set[str] = set()
        merged: list[CustomResourceDefinition] = []
        for source in self._sources:
            for crd in source.crds():
                if crd.name not in seen:
                    seen.add(crd.name)
                    merged.append(crd)
        return merged

    def problems(self) -> Sequence[KubectlCrdError]:
        return [p for s in self._sources for p in s.problems()]


class FallbackSource:
    """The primary source, or the fallback when the primary cannot reach its cluster."""

    def __init__(self, primary: CRDSource, fallback: CRDSource) -> None:
        self._primary = primary
        self._fallback = fallback
        self._active: CRDSource = primary

    @property
    def description(self) -> str:
        return self._active.description

    def crds(self) -> Sequence[CustomResourceDefinition]:
        try:
            self._active = self._primary
            return self._primary.crds()
        except ClusterError:
            self._active = self._fallback
            return self._fallback.crds()

    def problems(self) -> Sequence[KubectlCrdError]:
        return self._active.problems()
