"""The cluster's resources from aggregated discovery, cached on disk as kubectl caches them.

kubectl reads ``/apis`` once and keeps it under ``~/.kube/cache/discovery`` for six
hours (``cmd/util/kubectl_match_version.go`` and client-go's ``disk.CachedDiscoveryClient``),
refreshing it when a name is not found in it. Here the aggregated form
(``apidiscovery.k8s.io/v2``, one answer with every group's resources) is kept under
``<cache>/discovery/<host_port>.json`` with the same lifetime and the same refresh on a
miss, so a command that names a resource (``scale``, ``get``) needs no discovery
request at all on a warm cache, and never reads a CRD just to find its plural.

``ResourceRef`` is what discovery says of a custom resource: enough to build its
paths and to know which versions serve ``/scale``, without the CRD's schema.

The core group (``v1``: ConfigMap, Pod, Service, ...) is served at ``/api``, apart from
``/apis``; it is read (aggregated, or ``/api/v1`` from a server without aggregated
discovery) and cached the same way, but only when a name could be one of its
resources (``CORE_NAMES``) or its group is asked for, so a command on a custom
resource makes no more requests than before. Where it is read it comes first, as in
kubectl's ``PriorityRESTMapper``: ``service`` is the core Service even when a CRD
(knative's) also calls its kind Service.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kubectl_crd.io.cachefiles import cache_root, write_atomically
from kubectl_crd.model.records import record
from kubectl_crd.model.resourcenames import match_resource_name

#: kubectl's discovery client asks for the aggregated form first (client-go
#: ``discovery/aggregated_discovery.go``): one answer with every group's resources.
AGGREGATED_DISCOVERY = (
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
)
#: client-go's cached discovery lifetime as kubectl sets it (six hours).
CACHE_TTL_SECONDS = 6 * 3600
#: Every name of the core group's resources (plural, singular, kind, short names,
#: lowercased) as kube-apiserver serves them; pinned to the server's ``/api`` by
#: ``tests/integration/test_resource_client.py``. Only decides whether ``/api`` is read.
# fmt: off
CORE_NAMES = frozenset((
    "bindings", "binding", "componentstatuses", "componentstatus", "cs",
    "configmaps", "configmap", "cm", "endpoints", "ep", "events", "event", "ev",
    "limitranges", "limitrange", "limits", "namespaces", "namespace", "ns",
    "nodes", "node", "no", "persistentvolumeclaims", "persistentvolumeclaim", "pvc",
    "persistentvolumes", "persistentvolume", "pv", "pods", "pod", "po",
    "podtemplates", "podtemplate", "replicationcontrollers", "replicationcontroller",
    "rc", "resourcequotas", "resourcequota", "quota", "secrets", "secret",
    "serviceaccounts", "serviceaccount", "sa", "services", "service", "svc",
))
# fmt: on


@record
class ResourceRef:
    """A resource as discovery (or its CRD) names it."""

    group: str
    kind: str
    plural: str
    singular: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    #: served versions, the preferred first
    versions: tuple[str, ...] = ()
    #: the versions that serve the /scale subresource
    scale_versions: tuple[str, ...] = ()
    #: the versions that serve the /status subresource (the dev loop writes status there)
    status_versions: tuple[str, ...] = ()

    @property
    def crd_name(self) -> str:
        return f"{self.plural}.{self.group}"

    def matches(self, wanted: str) -> tuple[int, str | None] | None:
        """kubectl's forms (``model.resourcenames``): names, ``name.group``,
        ``name.version.group``; tier 0 for plural/singular/kind, 1 for short names."""
        names = (self.plural, self.singular, self.kind)
        return match_resource_name(wanted, names, self.short_names, self.group, self.versions)


class Discovery:
    """Aggregated discovery of one server, from the disk cache while it is fresh."""

    def __init__(
        self,
        request: Callable[..., Any],
        server: str,
        *,
        cache_dir: str | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._request = request
        # as kubectl names its directory per server (computeDiscoverCacheDir): the
        # address with every other character made an underscore; no hash (_hashlib
        # costs ~3 ms at start-up)
        name = re.sub(r"[^A-Za-z0-9.\-]", "_", server.removeprefix("https://"))
        directory = cache_dir if cache_dir is not None else os.path.join(cache_root(), "discovery")
        self._path = os.path.join(directory, f"{name}.json")
        self._core_path = os.path.join(directory, f"{name}.core.json")
        self._now = now
        self._groups: list[Mapping[str, Any]] | None = None
        self._core: list[ResourceRef] | None = None
        self._fresh = False  # read from the server in this process

    def groups(self, *, refresh: bool = False) -> list[Mapping[str, Any]] | None:
        """The groups, or None when the server has no aggregated discovery."""
        if self._groups is not None and not (refresh and not self._fresh):
            return self._groups
        if not refresh:
            cached = self._read_cache(self._path)
            if cached is not None:
                self._groups = cached
                return cached
        answer = self._request("GET", "/apis", accept=AGGREGATED_DISCOVERY)
        if not isinstance(answer, Mapping) or answer.get("kind") != "APIGroupDiscoveryList":
            return None
        self._groups = mappings(answer.get("items"))
        self._fresh = True
        write_atomically(
            self._path,
            json.dumps({"time": self._now(), "items": self._groups}).encode(),
            prefix=".discovery-",
        )
        return self._groups

    def core(self) -> list[ResourceRef]:
        """The core group's resources (``/api``), from the disk cache while it is fresh."""
        if self._core is None:
            groups = self._read_cache(self._core_path)
            if groups is None:
                groups = self._read_core()
                write_atomically(
                    self._core_path,
                    json.dumps({"time": self._now(), "items": groups}).encode(),
                    prefix=".discovery-",
                )
            self._core = resources_of(groups)
        return self._core

    def _read_core(self) -> list[Mapping[str, Any]]:
        answer = self._request("GET", "/api", accept=AGGREGATED_DISCOVERY)
        if isinstance(answer, Mapping) and answer.get("kind") == "APIGroupDiscoveryList":
            return mappings(answer.get("items"))
        # no aggregated discovery: /api/v1's APIResourceList, in the aggregated shape
        listing = self._request("GET", "/api/v1")
        resources: dict[str, dict[str, Any]] = {}
        for entry in mappings(mapping(listing).get("resources")):
            name = str(entry.get("name") or "")
            plural, _, subresource = name.partition("/")
            if subresource:
                if plural in resources:
                    resources[plural]["subresources"].append({"subresource": subresource})
                continue
            resources[plural] = {
                "resource": plural,
                "responseKind": {"kind": entry.get("kind") or ""},
                "singularResource": entry.get("singularName") or "",
                "scope": "Namespaced" if entry.get("namespaced") else "Cluster",
                "shortNames": strings(entry.get("shortNames")),
                "subresources": [],
            }
        version = {"version": "v1", "resources": list(resources.values())}
        return [{"metadata": {"name": ""}, "versions": [version]}]

    def find(self, wanted: str) -> list[tuple[int, ResourceRef, str | None]]:
        """The resources ``wanted`` names (tier, resource, version asked for); on a miss
        in a cached answer, the server is asked again (a CRD created since). A core
        resource it names is the only answer (kubectl's priority)."""
        if wanted.split(".", 1)[0] in CORE_NAMES:
            core = _matching(self.core(), wanted)
            if core:
                return core
        found = self._find(wanted, refresh=False)
        if not found and not self._fresh:
            found = self._find(wanted, refresh=True)
        return found

    def find_kind(self, group: str, kind: str) -> ResourceRef | None:
        if not group:
            return next((r for r in self.core() if r.kind == kind), None)
        for refresh in (False, True):
            if refresh and self._fresh:
                break
            for resource in self._resources(refresh=refresh):
                if resource.group == group and resource.kind == kind:
                    return resource
        return None

    def _find(self, wanted: str, *, refresh: bool) -> list[tuple[int, ResourceRef, str | None]]:
        return _matching(self._resources(refresh=refresh), wanted)

    def _resources(self, *, refresh: bool) -> list[ResourceRef]:
        groups = self.groups(refresh=refresh)
        return resources_of(groups or ())

    def _read_cache(self, path: str) -> list[Mapping[str, Any]] | None:
        try:
            with open(path, "rb") as file:
                data = json.loads(file.read())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("items"), list):
            return None
        age = self._now() - float(data.get("time") or 0)
        if not 0 <= age < CACHE_TTL_SECONDS:
            return None
        return list(data["items"])


def _matching(
    resources: Sequence[ResourceRef], wanted: str
) -> list[tuple[int, ResourceRef, str | None]]:
    found = []
    for resource in resources:
        match = resource.matches(wanted)
        if match is not None:
            found.append((match[0], resource, match[1]))
    return found


def mappings(value: object) -> list[Mapping[str, Any]]:
    """The mappings of a list in a server's answer (anything else there is left out:
    the answer comes from whatever is at the kubeconfig's address)."""
    if not isinstance(value, list | tuple):
        return []
    return [item for item in value if isinstance(item, Mapping)]


def mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def strings(value: object) -> list[str]:
    """The strings of a list in a server's answer."""
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def resources_of(groups: Sequence[Mapping[str, Any]]) -> list[ResourceRef]:
    """One ``ResourceRef`` per (group, plural) of an aggregated discovery answer."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for group in mappings(groups):
        name = str(mapping(group.get("metadata")).get("name") or "")
        for version in mappings(group.get("versions")):
            version_name = str(version.get("version") or "")
            for resource in mappings(version.get("resources")):
                plural = str(resource.get("resource") or "")
                entry = merged.setdefault(
                    (name, plural),
                    {
                        "group": name,
                        "kind": str(mapping(resource.get("responseKind")).get("kind") or ""),
                        "plural": plural,
                        "singular": str(resource.get("singularResource") or ""),
                        "namespaced": resource.get("scope") == "Namespaced",
                        "short_names": tuple(strings(resource.get("shortNames"))),
                        "versions": [],
                        "scale_versions": [],
                        "status_versions": [],
                    },
                )
                entry["versions"].append(version_name)
                subresources = {
                    s.get("subresource") for s in mappings(resource.get("subresources"))
                }
                if "scale" in subresources:
                    entry["scale_versions"].append(version_name)
                if "status" in subresources:
                    entry["status_versions"].append(version_name)
    return [
        ResourceRef(
            **{
                **entry,
                "versions": tuple(entry["versions"]),
                "scale_versions": tuple(entry["scale_versions"]),
                "status_versions": tuple(entry["status_versions"]),
            }
        )
        for entry in merged.values()
    ]
