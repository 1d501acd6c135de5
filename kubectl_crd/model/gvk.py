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


#: The API groups kube-apiserver serves itself (``kubectl api-resources`` on v1.34
#: without any CRD), "" being the core group. A group not listed is served by a CRD
#: or an aggregated API, even when it ends in ``.k8s.io`` (gateway.networking.k8s.io).
BUILTIN_GROUPS = frozenset(
    {
        "",
        "admissionregistration.k8s.io",
        "apiextensions.k8s.io",
        "apiregistration.k8s.io",
        "apps",
        "authentication.k8s.io",
        "authorization.k8s.io",
        "autoscaling",
        "batch",
        "certificates.k8s.io",
        "coordination.k8s.io",
        "discovery.k8s.io",
        "events.k8s.io",
        "flowcontrol.apiserver.k8s.io",
        "internal.apiserver.k8s.io",
        "networking.k8s.io",
        "node.k8s.io",
        "policy",
        "rbac.authorization.k8s.io",
        "resource.k8s.io",
        "scheduling.k8s.io",
        "storage.k8s.io",
        "storagemigration.k8s.io",
    }
)


def is_builtin_group(group: str) -> bool:
    """True for an API group kube-apiserver serves itself (``BUILTIN_GROUPS``)."""
    return group in BUILTIN_GROUPS
