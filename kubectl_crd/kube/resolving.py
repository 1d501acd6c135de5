"""RESOURCE arguments and documents to the custom resources they name, as kubectl finds them.

With a cluster, the (cached) aggregated discovery answers: ``crontab``, ``crontabs``,
``ct``, ``crontabs.stable.example.com`` or ``crontabs.v1.stable.example.com`` name one
resource, and no CRD is read to scale it (kubectl reads none either). A CRD is read
only when it is needed: for the scale paths (``scale`` with no ``--replicas``), to
explain a version without ``/scale``, or to word an ambiguous or unknown name as
``model.lookup`` does. Given CRDs (``--local``) are searched as they are; a server
without aggregated discovery gets its whole CRD list read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from kubectl_crd.kube.client import CRD_LIST_PATH, KubeClient
from kubectl_crd.kube.discovery import Discovery, ResourceRef, mapping, mappings, strings
from kubectl_crd.model.crd import CRD_API_VERSION, CRD_KIND, CustomResourceDefinition
from kubectl_crd.model.errors import ApiError, Location, ResourceNotFoundError
from kubectl_crd.model.gvk import is_builtin_group


def ref_of(crd: CustomResourceDefinition) -> ResourceRef:
    """What discovery would say of ``crd``."""
    served = [v for v in crd.served_versions]
    preferred = crd.preferred_version.name
    ordered = [preferred, *(v.name for v in served if v.name != preferred)]
    return ResourceRef(
        group=crd.group,
        kind=crd.names.kind,
        plural=crd.names.plural,
        singular=crd.names.singular,
        namespaced=crd.namespaced,
        short_names=tuple(crd.names.short_names),
        versions=tuple(ordered),
        scale_versions=tuple(v.name for v in served if v.subresources.scale is not None),
    )


class Resolver:
    """Finds resources by argument or by document, and their CRDs when asked."""

    def __init__(
        self,
        crds: Iterable[CustomResourceDefinition] = (),
        *,
        client: KubeClient | None = None,
        discovery: Discovery | None = None,
        command: str = "scale",
    ) -> None:
        self._command = command  # the kubectl command a built-in resource is for
        self._given = list(crds)
        self._client = client
        self._discovery = discovery
        self._read: dict[str, CustomResourceDefinition | None] = {}

    def by_argument(self, argument: str) -> tuple[ResourceRef, str]:
        wanted = argument.strip().lower()
        if self._discovery is not None:
            found = self._discovery.find(wanted)
            for tier in (0, 1):
                matches = [(ref, version) for t, ref, version in found if t == tier]
                if len(matches) == 1:
                    ref, version = matches[0]
                    if is_builtin_group(ref.group):
                        raise ResourceNotFoundError(
                            f'"{argument}" is {ref.plural}.{ref.group or "core"}, a built-in '
                            f"resource, not a custom resource: use kubectl {self._command}",
                            query=argument,
                        )
                    return ref, version or ref.versions[0]
                if matches:
                    break  # ambiguous: the CRDs word it
        from kubectl_crd.model.lookup import resolve_resource

        match = resolve_resource(self._crds(wanted), argument)
        return ref_of(match.crd), match.version or match.crd.preferred_version.name

    def by_document(self, obj: Mapping[str, Any], source: str = "") -> tuple[ResourceRef, str]:
        api_version = str(obj.get("apiVersion") or "")
        kind = str(obj.get("kind") or "")
        group, _, version = api_version.rpartition("/")
        if self._discovery is not None:
            ref = self._discovery.find_kind(group, kind)
            if ref is not None and version in ref.versions:
                return ref, version
        elif self._client is None:
            for crd in self._given:
                if crd.group == group and crd.names.kind == kind and crd.version(version):
                    return ref_of(crd), version
        metadata = obj.get("metadata") or {}
        # cli-runtime's resource.Builder (mapper.go infoForData) words it so
        raise ResourceNotFoundError(
            f'resource mapping not found for name: "{metadata.get("name", "")}" namespace: '
            f'"{metadata.get("namespace", "")}" from "{source}": no matches for kind '
            f'"{kind}" in version "{api_version}"\nensure CRDs are installed first',
            query=f"{kind}.{api_version}",
        )

    def crd(self, ref: ResourceRef) -> CustomResourceDefinition:
        """The CRD behind ``ref`` (given, or read from the cluster once)."""
        for crd in self._given:
            if crd.group == ref.group and crd.names.plural == ref.plural:
                return crd
        fetched = self._fetch(ref.crd_name)
        if fetched is None:
            raise ResourceNotFoundError(
                f'customresourcedefinitions.apiextensions.k8s.io "{ref.crd_name}" not found',
                query=ref.crd_name,
            )
        return fetched

    def check_scalable(self, ref: ResourceRef, version: str) -> None:
        """``NoScaleSubresourceError`` (with the CRD stanza to add) unless it scales."""
        if version in ref.scale_versions:
            return
        from kubectl_crd.model.scaling import check_scalable

        check_scalable(self.crd(ref), version)

    def _crds(self, wanted: str) -> list[CustomResourceDefinition]:
        """The CRDs ``model.lookup`` words errors from: the given ones, or the cluster's
        (only those discovery names, when it can)."""
        if self._client is None:
            return self._given
        groups = self._discovery.groups() if self._discovery is not None else None
        if groups is None:  # no aggregated discovery: every CRD
            listing = self._client.request("GET", CRD_LIST_PATH)
            # a peer that answers 200 with something else (a proxy's HTML login page)
            # lists no CRDs: the resource is then not found, kubectl's last line there
            items = listing.get("items") if isinstance(listing, dict) else None
            return [_crd(item) for item in items or () if isinstance(item, dict)]
        first = wanted.partition(".")[0]
        names = set()
        for group in mappings(groups):
            group_name = str(mapping(group.get("metadata")).get("name") or "")
            if is_builtin_group(group_name):
                continue
            for version in mappings(group.get("versions")):
                for resource in mappings(version.get("resources")):
                    kind = str(mapping(resource.get("responseKind")).get("kind", "")).lower()
                    options = {resource.get("resource"), resource.get("singularResource"), kind}
                    options.update(strings(resource.get("shortNames")))
                    if first in options:
                        names.add(f"{resource.get('resource')}.{group_name}")
        found = [self._fetch(name) for name in sorted(names)]
        return [crd for crd in found if crd is not None]

    def _fetch(self, name: str) -> CustomResourceDefinition | None:
        if name in self._read:
            return self._read[name]
        crd = None
        if self._client is not None:
            try:
                raw = self._client.request("GET", f"{CRD_LIST_PATH}/{name}")
            except ApiError as exc:
                if exc.status != 404:
                    raise
            else:
                crd = _crd(raw)
        self._read[name] = crd
        return crd


def _crd(raw: Mapping[str, Any]) -> CustomResourceDefinition:
    name = str((raw.get("metadata") or {}).get("name") or "")
    return CustomResourceDefinition.from_object(
        {**raw, "apiVersion": CRD_API_VERSION, "kind": CRD_KIND},
        Location(f"cluster:{name}"),
        check_structural=False,
    )
