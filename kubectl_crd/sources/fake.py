"""An in-memory CRD source for unit tests, the ``MockTransport`` of this project."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import CRDError, KubectlCrdError


class FakeSource:
    def __init__(
        self,
        crds: Iterable[CustomResourceDefinition | Mapping[str, Any]] = (),
        *,
        description: str = "fake",
        error: KubectlCrdError | None = None,
    ) -> None:
        self._crds: list[CustomResourceDefinition] = []
        self._problems: list[KubectlCrdError] = []
        self._description = description
        self._error = error
        for item in crds:
            if isinstance(item, CustomResourceDefinition):
                self._crds.append(item)
                continue
            try:
                self._crds.append(CustomResourceDefinition.from_object(item))
            except CRDError as exc:
                self._problems.append(exc)

    @property
    def description(self) -> str:
        return self._description

    def crds(self) -> Sequence[CustomResourceDefinition]:
        if self._error is not None:
            raise self._error
        return list(self._crds)

    def problems(self) -> Sequence[KubectlCrdError]:
        return list(self._problems)
