"""Group/version/kind and group/version/resource identifiers."""

from __future__ import annotations

from kubectl_crd.model.records import record


@record(order=True)
class GroupVersionKind:
    group: str
    version: str
    kind: str

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def __str__(self) -> str:
        return f"{self.group}/{self.version}, Kind={self.kind}"


@record(order=True)
class GroupVersionResource:
    group: str
    version: str
    resource: str

    def __str__(self) -> str:
        return f"{self.group}/{self.version}, Resource={self.resource}"


def split_api_version(api_version: str) -> tuple[str, str]:
    """``"stable.example.com/v1"`` -> ``("stable.example.com", "v1")``; core ``"v1"`` -> ``("", "v1")``."""
    group, _, version = api_version.rpartition("/")
    return group, version
