"""How kubectl reads a RESOURCE argument as a resource's name: one matcher for CRDs and discovery.

Pure and free of the CRD model (stdlib only), so the cluster's discovery
(``kube.discovery``) uses it at no start-up cost, as ``model.lookup`` does for CRDs.
kubectl's forms (``k8s.io/apimachinery/pkg/api/meta`` ``RESTMapper``, with kubectl's
short-name expansion in ``k8s.io/client-go/restmapper/shortcut.go``): a name,
``name.group``, ``name.version.group``, case-insensitively.
"""

from __future__ import annotations

from collections.abc import Iterable


def match_resource_name(
    wanted: str,
    names: Iterable[str],
    short_names: Iterable[str],
    group: str,
    versions: Iterable[str],
) -> tuple[int, str | None] | None:
    """How a lowercased RESOURCE argument names a resource, as kubectl reads it: its
    tier (0 for ``names``: plural, singular, kind; 1 for a short name) and the version
    it gives (``NAME.version.group``, else ``None``); ``None`` when it does not.

    The one matcher for CRDs (``resolve_resource``) and for what discovery lists
    (``kube.discovery.ResourceRef``)."""
    exact = {name.lower() for name in names}
    short = {name.lower() for name in short_names}
    group = group.lower()
    versions = list(versions)
    for tier, pool in ((0, exact), (1, short)):
        if wanted in pool:
            return tier, None
        for name in pool:
            if wanted == f"{name}.{group}":
                return tier, None
            for version in versions:
                if wanted == f"{name}.{version.lower()}.{group}":
                    return tier, version
    return None
