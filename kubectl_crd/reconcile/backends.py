"""What the dev loop needs from a cluster-like thing, and the real cluster behind it.

``Backend`` is the loop's whole view of where objects live: resolve the resources a
reconciler names, list-then-watch them, and the few writes a controller makes (a create
of an absent child and server-side apply of children, a merge patch for status,
finalizers and managedFields, a delete with a uid precondition, a Kubernetes Event). It
is kept this small on purpose: issue 27's in-process store (``LocalBackend``, built on
``validation.admission``) implements the same protocol, so every reconciler runs
unchanged against either.

``ClusterBackend`` is the protocol on this package's own cluster client: ``KubeClient``
(one connection per thread, so every worker writes in parallel), ``Discovery`` (cached
aggregated discovery: resolving a resource costs no request on a warm cache),
``ResourceClient`` for the calls and ``kube.reflector.Reflector`` for client-go's
list-then-watch. With ``dry_run`` every write is sent as a server dry run
(``dryRun=All``, kubectl's ``--dry-run=server``): the server validates and admits it,
nothing is stored.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any, Protocol

from kubectl_crd.model.errors import ResourceNotFoundError, VersionNotFoundError
from kubectl_crd.model.records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.discovery import Discovery, ResourceRef
    from kubectl_crd.kube.reflector import ReflectorEvent
    from kubectl_crd.kube.resources import ResourceClient
    from kubectl_crd.model.errors import ClusterError

__all__ = ["Backend", "ClusterBackend", "ResourceInfo", "parse_resource_spec"]

#: the source component of the Kubernetes Events the loop records
EVENT_COMPONENT = "kubectl-crd-dev"


@record
class ResourceInfo:
    """One resource at one version, as a backend resolved it."""

    group: str
    version: str
    plural: str
    kind: str
    namespaced: bool
    #: the version serves ``/status`` (status is written there, not to the object)
    has_status: bool = False
    has_scale: bool = False

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def __str__(self) -> str:
        name = f"{self.plural}.{self.group}" if self.group else self.plural
        return f"{name}/{self.version}"


# Kubernetes' version names (v1, v1beta2, v2alpha1), told apart from a plural
_KUBE_VERSION = re.compile(r"v[0-9]+((alpha|beta)[0-9]+)?")


def parse_resource_spec(spec: str) -> tuple[str, str, str, bool]:
    """``(group, version, name, is_kind)`` of a reconciler's resource spelling.

    The forms of the public API (``reconcile.loading.parse_resource`` checks them when
    a reconciler loads): ``plural.group/version`` (``foos.example.com/v1``),
    ``plural/version`` (core), ``group/version/Kind`` (``apps/v1/Deployment``),
    ``version/Kind`` (``v1/ConfigMap``), a plural in place of the Kind too. A name that
    starts with a capital is a Kind. ``ValueError`` for anything else.
    """
    parts = spec.strip().split("/")
    if all(parts):
        if len(parts) == 3:
            group, version, name = parts
            return group, version, name, name[:1].isupper()
        if len(parts) == 2 and _KUBE_VERSION.fullmatch(parts[0]):
            return "", parts[0], parts[1], parts[1][:1].isupper()
        if len(parts) == 2:
            plural, _, group = parts[0].partition(".")
            return group, parts[1], plural, False
    raise ValueError(
        f"{spec!r} is not a resource: write plural.group/version (foos.example.com/v1), "
        "group/version/Kind (apps/v1/Deployment) or version/Kind (v1/ConfigMap)"
    )


class Backend(Protocol):
    """Where the loop's objects live (a cluster, or issue 27's in-process store).

    Objects are plain dicts as the API server sends them; errors are the
    ``model.errors.ClusterError`` tree (``ApiError`` with the server's status and line).
    ``dry_run`` writes are checked and admitted as real ones, and not stored.
    """

    def resolve(self, spec: str) -> ResourceInfo:
        """The resource a reconciler names (see ``parse_resource_spec``);
        ``ResourceNotFoundError`` if the backend does not serve it."""

    def resolve_kind(self, api_version: str, kind: str) -> ResourceInfo:
        """The resource of objects of ``apiVersion``/``kind`` (a child's)."""

    def list_then_watch(
        self,
        info: ResourceInfo,
        *,
        stop: threading.Event,
        namespace: str | None = None,
        label_selector: str | None = None,
        on_error: Callable[[ClusterError], None] | None = None,
    ) -> Iterator[ReflectorEvent]:
        """client-go's Reflector: ADDED/MODIFIED/DELETED events, a SYNCED marker after
        each (re)list, until ``stop`` is set (``kube.reflector``'s promises)."""

    def get(self, info: ResourceInfo, namespace: str, name: str) -> dict[str, Any]:
        """One object read from the backend itself, not from a cache (a retry after a
        409 Conflict while the watch is down); an ``ApiError`` with status 404 when it
        is gone."""

    def create(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """POST ``obj`` (its namespace set when namespaced); an ``ApiError`` 409
        AlreadyExists when there is one of its name."""

    def apply(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        force: bool = True,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Server-side apply of ``obj`` (its namespace set when namespaced)."""

    def patch(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        patch: Mapping[str, Any],
        *,
        subresource: str = "",
        field_manager: str = "",
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """A JSON merge patch (RFC 7386) of one object or its ``status`` subresource; a
        ``metadata.resourceVersion`` in the patch makes it conditional (409 Conflict)."""

    def delete(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        *,
        uid: str | None = None,
        dry_run: bool = False,
    ) -> None:
        """Delete in the background, only if the object still has ``uid`` (a
        precondition: a new object of the same name is left alone)."""

    def record_event(
        self,
        involved: Mapping[str, Any],
        reason: str,
        message: str,
        *,
        type: str = "Normal",
        dry_run: bool = False,
    ) -> None:
        """A core ``v1`` Event about ``involved`` (as client-go's event recorder)."""

    def watches_quiet(self) -> int | None:
        """A mark (how many watch events were sent so far) when every watch has handled
        all it was sent, else None; the same mark twice: nothing was sent in between.
        ``Controller.wait_idle`` ends on it at once; a backend that cannot tell (a
        cluster: events are on the wire) answers None, and ``wait_idle`` waits for its
        ``settle``."""

    def close(self) -> None:
        """Release connections; the backend is not used afterwards."""


class ClusterBackend:
    """``Backend`` on a real API server (see the module docstring)."""

    def __init__(
        self,
        client: KubeClient,
        discovery: Discovery | None = None,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        if discovery is None:
            from kubectl_crd.kube.discovery import Discovery

            discovery = Discovery(client.request, client.server)
        self.discovery = discovery
        self._now = now
        self._resolved: dict[str, ResourceInfo] = {}
        self._by_kind: dict[tuple[str, str], ResourceInfo] = {}
        self._clients: dict[ResourceInfo, ResourceClient] = {}
        self._lock = threading.Lock()

    # -- resolving -----------------------------------------------------------------------

    def resolve(self, spec: str) -> ResourceInfo:
        with self._lock:
            known = self._resolved.get(spec)
        if known is not None:
            return known
        try:
            group, version, name, is_kind = parse_resource_spec(spec)
        except ValueError as exc:
            raise ResourceNotFoundError(str(exc), query=spec) from None
        if is_kind:
            info = self._from_kind(group, version, name, spec)
        else:
            plural = name
            wanted = f"{plural}.{group}" if group else plural
            refs = [
                ref
                for _, ref, _ in self.discovery.find(wanted)
                if ref.plural == plural and ref.group == group
            ]
            if not refs:
                raise ResourceNotFoundError(
                    f'the server doesn\'t have a resource type "{wanted}"', query=spec
                )
            ref = refs[0]
            if version not in ref.versions:  # installed: not a ResourceNotFoundError,
                # whose "is its CRD installed?" hint the CLI adds
                raise VersionNotFoundError(
                    f'{wanted} has no version "{version}" (served: {", ".join(ref.versions)})'
                )
            info = _info(ref, version)
        with self._lock:
            self._resolved[spec] = info
        return info

    def resolve_kind(self, api_version: str, kind: str) -> ResourceInfo:
        group, _, version = api_version.rpartition("/")
        with self._lock:
            known = self._by_kind.get((api_version, kind))
        if known is not None:
            return known
        info = self._from_kind(group, version, kind, f"{api_version}/{kind}")
        with self._lock:
            self._by_kind[(api_version, kind)] = info
        return info

    def _from_kind(self, group: str, version: str, kind: str, spec: str) -> ResourceInfo:
        ref = self.discovery.find_kind(group, kind)
        if ref is None or version not in ref.versions:
            api_version = f"{group}/{version}" if group else version
            # cli-runtime's mapper words it so
            raise ResourceNotFoundError(
                f'no matches for kind "{kind}" in version "{api_version}"', query=spec
            )
        return _info(ref, version)

    def _resource(self, info: ResourceInfo) -> ResourceClient:
        with self._lock:
            found = self._clients.get(info)
            if found is None:
                from kubectl_crd.kube.resources import ResourceClient

                found = ResourceClient(
                    self.client, info.group, info.version, info.plural, namespaced=info.namespaced
                )
                self._clients[info] = found
            return found

    # -- reads -----------------------------------------------------------------------------

    def get(self, info: ResourceInfo, namespace: str, name: str) -> dict[str, Any]:
        return self._resource(info).get(name, namespace=namespace or None)

    def list_then_watch(
        self,
        info: ResourceInfo,
        *,
        stop: threading.Event,
        namespace: str | None = None,
        label_selector: str | None = None,
        on_error: Callable[[ClusterError], None] | None = None,
    ) -> Iterator[ReflectorEvent]:
        from kubectl_crd.kube.reflector import Reflector

        resource = self._resource(info).in_namespace(namespace or None)
        reflector = Reflector(resource, stop=stop, label_selector=label_selector, on_error=on_error)
        return reflector.events()

    # -- writes ----------------------------------------------------------------------------

    def create(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return self._resource(info).create(obj, field_manager=field_manager, dry_run=dry_run)

    def apply(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        force: bool = True,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        return self._resource(info).apply(
            obj, field_manager=field_manager, force=force, dry_run=dry_run
        )

    def patch(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        patch: Mapping[str, Any],
        *,
        subresource: str = "",
        field_manager: str = "",
        dry_run: bool = False,
    ) -> dict[str, Any]:
        from kubectl_crd.kube.resources import PatchType

        return self._resource(info).patch(
            name,
            patch,
            patch_type=PatchType.MERGE,
            subresource=subresource,
            namespace=namespace or None,
            dry_run=dry_run,
            field_manager=field_manager or None,
        )

    def delete(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        *,
        uid: str | None = None,
        dry_run: bool = False,
    ) -> None:
        from kubectl_crd.kube.resources import PropagationPolicy

        self._resource(info).delete(
            name,
            namespace=namespace or None,
            propagation_policy=PropagationPolicy.BACKGROUND,
            uid=uid,
            dry_run=dry_run,
        )

    def record_event(
        self,
        involved: Mapping[str, Any],
        reason: str,
        message: str,
        *,
        type: str = "Normal",
        dry_run: bool = False,
    ) -> None:
        event = kubernetes_event(involved, reason, message, type=type, now=self._now())
        namespace = event["metadata"]["namespace"]
        query: dict[str, object] = {"dryRun": "All"} if dry_run else {}
        self.client.request(
            "POST", f"/api/v1/namespaces/{namespace}/events", query=query, body=event
        )

    def watches_quiet(self) -> None:
        return None  # the server's events are on the wire: wait_idle's settle tells

    def close(self) -> None:
        self.client.close()


def _info(ref: ResourceRef, version: str) -> ResourceInfo:
    return ResourceInfo(
        group=ref.group,
        version=version,
        plural=ref.plural,
        kind=ref.kind,
        namespaced=ref.namespaced,
        has_status=version in ref.status_versions,
        has_scale=version in ref.scale_versions,
    )


def kubernetes_event(
    involved: Mapping[str, Any],
    reason: str,
    message: str,
    *,
    type: str = "Normal",
    now: float,
) -> dict[str, Any]:
    """A core ``v1`` Event as client-go's recorder makes one (``tools/record/event.go``
    ``makeEvent``): named after the object with a unique suffix, in its namespace
    (``default`` for a cluster-scoped object), count 1, first and last timestamps now."""
    metadata = involved.get("metadata") or {}
    namespace = str(metadata.get("namespace") or "default")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"generateName": f"{metadata.get('name', 'object')}.", "namespace": namespace},
        "involvedObject": {
            key: value
            for key, value in (
                ("apiVersion", involved.get("apiVersion")),
                ("kind", involved.get("kind")),
                ("name", metadata.get("name")),
                ("namespace", metadata.get("namespace")),
                ("uid", metadata.get("uid")),
                ("resourceVersion", metadata.get("resourceVersion")),
            )
            if value
        },
        "reason": reason,
        "message": message,
        "type": type,
        "source": {"component": EVENT_COMPONENT},
        "reportingComponent": EVENT_COMPONENT,
        "reportingInstance": EVENT_COMPONENT,
        "firstTimestamp": stamp,
        "lastTimestamp": stamp,
        "count": 1,
    }
