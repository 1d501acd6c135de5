"""``ResourceClient``: every call on one resource, with its URLs built in one place.

One resource (group, version, plural; namespaced or not) in one namespace or in all
of them. Objects go in and come out as plain dicts, as the API server sends them. The
calls are client-go's dynamic client (``k8s.io/client-go/dynamic/simple.go``) and
kubectl's REST helper (``k8s.io/kubectl/pkg/cmd/util/...``, ``resource/helper.go``):

- ``get``; ``pages`` / ``items`` / ``list``: a list in pages of ``limit`` joined by
  ``continue`` (client-go's ``tools/pager``), as objects or as the server's Table
  (``TABLE_ACCEPT`` with ``includeObject``, what ``kubectl get`` asks for);
- ``create`` (POST), ``update`` (PUT: the object's ``metadata.resourceVersion`` makes it
  conditional), ``patch`` (merge, JSON, or strategic for built-in kinds), ``apply``
  (server-side apply: ``fieldManager``, ``force``), ``delete`` (``propagationPolicy``,
  ``preconditions`` on uid and resourceVersion);
- the ``status`` and ``scale`` subresources through the same calls (``subresource=``),
  with named shortcuts (``get_status``, ``update_scale``, ...);
- ``dry_run=True`` where kubectl offers ``--dry-run=server`` (``dryRun=All``);
- ``watch``: one watch request (``KubeClient.watch``); ``reflector.py`` builds the
  list-then-watch loop on it.

Paths: ``/api/v1/...`` for the core group, ``/apis/GROUP/VERSION/...`` for every other,
``namespaces/NS/`` before the plural of a namespaced resource; names are
percent-encoded as Go's ``URL.EscapedPath`` encodes client-go's request paths. Errors
are those of ``KubeClient`` (kubectl's lines), nothing is retried here.
"""

from __future__ import annotations

import enum
import re

from kubectl_crd.kube.client import (
    APPLY_PATCH,
    JSON_PATCH,
    MERGE_PATCH,
    STRATEGIC_MERGE_PATCH,
    TABLE_ACCEPT,
)
from kubectl_crd.model.errors import ClusterUnreachableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from kubectl_crd.kube.client import KubeClient, WatchStream
    from kubectl_crd.kube.discovery import ResourceRef

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "PatchType",
    "PropagationPolicy",
    "ResourceClient",
    "resource_path",
]

#: client-go's pager page size (tools/pager/pager.go defaultPageSize)
DEFAULT_PAGE_SIZE = 500


class PatchType(enum.Enum):
    """The patch formats the API server takes, by content type."""

    MERGE = MERGE_PATCH
    JSON = JSON_PATCH
    #: only for built-in kinds: custom resources answer 415 Unsupported Media Type
    STRATEGIC = STRATEGIC_MERGE_PATCH
    APPLY = APPLY_PATCH


class PropagationPolicy(enum.Enum):
    """``DeleteOptions.propagationPolicy`` (``apimachinery/pkg/apis/meta/v1/types.go``)."""

    ORPHAN = "Orphan"
    BACKGROUND = "Background"
    FOREGROUND = "Foreground"


# what Go's URL.EscapedPath leaves as it is in a path (net/url shouldEscape, encodePath:
# unreserved characters and the reserved ones but '?'), less '/': client-go refuses a
# name with '/' (IsValidPathSegmentName), here it stays inside its segment
_PATH_SAFE = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~$&+,;=:@"
)


#: a segment made of those alone (every Kubernetes name): kept as it is, not byte by byte
_PLAIN_SEGMENT = re.compile("[" + re.escape(bytes(sorted(_PATH_SAFE)).decode("ascii")) + "]*")


def _segment(text: str) -> str:
    if _PLAIN_SEGMENT.fullmatch(text):
        return text
    return "".join(
        chr(byte) if byte in _PATH_SAFE else f"%{byte:02X}" for byte in text.encode("utf-8")
    )


def resource_path(
    group: str,
    version: str,
    plural: str,
    *,
    namespace: str = "",
    name: str = "",
    subresource: str = "",
) -> str:
    """The API path of a collection, an object or an object's subresource.

    ``/api/v1`` for the core group (``group == ""``), ``/apis/GROUP/VERSION`` for the
    others; ``namespace`` empty for cluster-scoped resources and for every namespace.
    """
    if not version or not plural:
        raise ValueError("a resource path needs a version and a plural")
    if subresource and not name:
        raise ValueError("a subresource belongs to a named object")
    path = f"/apis/{group}/{version}" if group else f"/api/{version}"
    if namespace:
        path += f"/namespaces/{_segment(namespace)}"
    path += f"/{plural}"
    if name:
        path += f"/{_segment(name)}"
    if subresource:
        path += f"/{subresource}"
    return path


def _dry_run(query: dict[str, object], dry_run: bool) -> dict[str, object]:
    if dry_run:
        query["dryRun"] = "All"  # kubectl --dry-run=server
    return query


class ResourceClient:
    """Calls on one resource; see the module docstring.

    ``namespace`` is where a namespaced resource's objects are read and written;
    ``None`` means every namespace for lists and watches, and an object's own
    ``metadata.namespace`` (or ``namespace=``) for calls on one object. It is ignored
    for a cluster-scoped resource.
    """

    def __init__(
        self,
        client: KubeClient,
        group: str,
        version: str,
        plural: str,
        *,
        namespaced: bool,
        namespace: str | None = None,
    ) -> None:
        self.client = client
        self.group = group
        self.version = version
        self.plural = plural
        self.namespaced = namespaced
        self.namespace = namespace if namespaced else None

    @classmethod
    def for_ref(
        cls,
        client: KubeClient,
        ref: ResourceRef,
        version: str | None = None,
        *,
        namespace: str | None = None,
    ) -> ResourceClient:
        """The client for a resource discovery found (its preferred version by default)."""
        return cls(
            client,
            ref.group,
            version or ref.versions[0],
            ref.plural,
            namespaced=ref.namespaced,
            namespace=namespace,
        )

    def in_namespace(self, namespace: str | None) -> ResourceClient:
        """The same resource in another namespace (``None``: every namespace)."""
        return ResourceClient(
            self.client,
            self.group,
            self.version,
            self.plural,
            namespaced=self.namespaced,
            namespace=namespace,
        )

    def __repr__(self) -> str:
        where = "" if not self.namespaced else f", namespace={self.namespace!r}"
        return f"ResourceClient({self.api_version!r}, {self.plural!r}{where})"

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    # -- paths -------------------------------------------------------------------------

    @property
    def collection_path(self) -> str:
        """The list and watch path: the client's namespace, or every namespace."""
        return resource_path(self.group, self.version, self.plural, namespace=self.namespace or "")

    def path(self, name: str, *, subresource: str = "", namespace: str | None = None) -> str:
        """The path of one object (or of its ``subresource``)."""
        if not name:
            raise ValueError("an object path needs a name")
        return resource_path(
            self.group,
            self.version,
            self.plural,
            namespace=self._namespace_for(namespace),
            name=name,
            subresource=subresource,
        )

    def _namespace_for(self, namespace: str | None, obj: Mapping[str, Any] | None = None) -> str:
        if not self.namespaced:
            return ""
        if namespace:
            return namespace
        if obj is not None:
            given = str((obj.get("metadata") or {}).get("namespace") or "")
            if given:
                return given
        if self.namespace:
            return self.namespace
        raise ValueError(f"{self.plural} are namespaced: name the object's namespace")

    def _object_path(self, obj: Mapping[str, Any], subresource: str, namespace: str | None) -> str:
        name = str((obj.get("metadata") or {}).get("name") or "")
        if not name:
            raise ValueError("the object has no metadata.name")
        return self.path(
            name, subresource=subresource, namespace=self._namespace_for(namespace, obj)
        )

    # -- reads -------------------------------------------------------------------------

    def get(
        self,
        name: str,
        *,
        subresource: str = "",
        namespace: str | None = None,
        table: bool = False,
        include_object: str | None = None,
    ) -> dict[str, Any]:
        """One object (or its subresource); with ``table``, the server's Table of it."""
        query: dict[str, object] = {}
        if include_object:
            query["includeObject"] = include_object
        result: dict[str, Any] = self.client.request(
            "GET",
            self.path(name, subresource=subresource, namespace=namespace),
            query=query,
            accept=TABLE_ACCEPT if table else "application/json",
        )
        return result

    def pages(
        self,
        *,
        label_selector: str | None = None,
        field_selector: str | None = None,
        limit: int | None = None,
        resource_version: str | None = None,
        resource_version_match: str | None = None,
        table: bool = False,
        include_object: str | None = None,
    ) -> Iterator[dict[str, Any]]:
        """The list in pages of ``limit`` (one page when ``limit`` is None or 0).

        As client-go's pager: each next page asks for the previous one's ``continue``
        token and no resourceVersion (the server refuses both together). An expired
        token raises ``ResourceExpiredError`` (what ``kubectl get --chunk-size`` says);
        the reflector starts over instead. With ``table`` each page is a ``Table``
        (``includeObject``: ``None``, ``Metadata`` or ``Object``).
        """
        query: dict[str, object] = {}
        if label_selector:
            query["labelSelector"] = label_selector
        if field_selector:
            query["fieldSelector"] = field_selector
        if limit:
            query["limit"] = limit
        if resource_version is not None:
            query["resourceVersion"] = resource_version
        if resource_version_match:
            query["resourceVersionMatch"] = resource_version_match
        if include_object:
            query["includeObject"] = include_object
        accept = TABLE_ACCEPT if table else "application/json"
        path = self.collection_path
        while True:
            page = self.client.request("GET", path, query=query, accept=accept)
            if not isinstance(page, dict):
                # a JSON array, a string, a bare number: no list or object answers so (a
                # broken server or proxy); client-go's unstructured decoder refuses it too
                what = {list: "a JSON array", str: "not JSON", type(None): "empty"}
                raise ClusterUnreachableError(
                    f"Unable to connect to the server: the list answer from {path} is "
                    f"{what.get(type(page), 'a bare JSON value')}, not an object"
                )
            yield page
            token = (page.get("metadata") or {}).get("continue")
            if not token or not limit:
                return
            query["continue"] = token
            query.pop("resourceVersion", None)
            query.pop("resourceVersionMatch", None)

    def items(self, **options: Any) -> Iterator[dict[str, Any]]:
        """Every object of the list, page after page (``pages``' options).

        A page is read as client-go's unstructured decoder reads an answer
        (``unstructuredJSONScheme.decode`` in apimachinery's
        ``pkg/apis/meta/v1/unstructured/helpers.go``): with an ``items`` key it is a
        list, without one it is a single object, which kubectl then prints as one (no
        API server answers a list so; a peer that does is shown, as kubectl shows it)."""
        for page in self.pages(**options):
            if "items" in page:
                yield from page.get("items") or ()
            else:
                yield page

    def list(self, **options: Any) -> dict[str, Any]:
        """The whole list as one ``...List`` (or one ``Table``), its pages joined; the
        first page's metadata (its resourceVersion is the list's)."""
        merged: dict[str, Any] | None = None
        for page in self.pages(**options):
            if merged is None:
                merged = dict(page)
                merged["metadata"] = {
                    k: v for k, v in (page.get("metadata") or {}).items() if k != "continue"
                }
                key = "rows" if page.get("kind") == "Table" else "items"
                merged[key] = list(page.get(key) or ())
            else:
                key = "rows" if page.get("kind") == "Table" else "items"
                merged[key].extend(page.get(key) or ())
        assert merged is not None
        return merged

    def watch(
        self,
        *,
        resource_version: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
        allow_bookmarks: bool = True,
        timeout_seconds: int | None = None,
        read_timeout: float | None = None,
        timeout: float | None = None,
        table: bool = False,
    ) -> WatchStream:
        """One watch of the collection (``KubeClient.watch``): events after
        ``resource_version``; ``timeout_seconds`` is the server's bound on the request,
        ``read_timeout`` the client's on each read, ``timeout`` its on the whole request."""
        query: dict[str, object] = {}
        if resource_version is not None:
            query["resourceVersion"] = resource_version
        if allow_bookmarks:
            query["allowWatchBookmarks"] = "true"
        if timeout_seconds is not None:
            query["timeoutSeconds"] = timeout_seconds
        if label_selector:
            query["labelSelector"] = label_selector
        if field_selector:
            query["fieldSelector"] = field_selector
        return self.client.watch(
            self.collection_path,
            query=query,
            accept=TABLE_ACCEPT if table else "application/json",
            read_timeout=read_timeout,
            timeout=timeout,
        )

    # -- writes ------------------------------------------------------------------------

    def create(
        self,
        obj: Mapping[str, Any],
        *,
        namespace: str | None = None,
        dry_run: bool = False,
        field_manager: str | None = None,
    ) -> dict[str, Any]:
        """POST ``obj`` to its collection (``generateName`` works: no name needed)."""
        query = _dry_run({}, dry_run)
        if field_manager:
            query["fieldManager"] = field_manager
        path = resource_path(
            self.group,
            self.version,
            self.plural,
            namespace=self._namespace_for(namespace, obj),
        )
        result: dict[str, Any] = self.client.request("POST", path, query=query, body=obj)
        return result

    def update(
        self,
        obj: Mapping[str, Any],
        *,
        subresource: str = "",
        namespace: str | None = None,
        dry_run: bool = False,
        field_manager: str | None = None,
    ) -> dict[str, Any]:
        """PUT ``obj`` back; its ``metadata.resourceVersion`` (when set) makes the write
        conditional: a 409 Conflict if the object changed since it was read."""
        query = _dry_run({}, dry_run)
        if field_manager:
            query["fieldManager"] = field_manager
        result: dict[str, Any] = self.client.request(
            "PUT", self._object_path(obj, subresource, namespace), query=query, body=obj
        )
        return result

    def patch(
        self,
        name: str,
        patch: Any,
        *,
        patch_type: PatchType = PatchType.MERGE,
        subresource: str = "",
        namespace: str | None = None,
        dry_run: bool = False,
        field_manager: str | None = None,
        force: bool | None = None,
    ) -> dict[str, Any]:
        """PATCH one object (or subresource); ``patch`` is a dict, a list (JSON patch),
        or text sent as it is."""
        query = _dry_run({}, dry_run)
        if field_manager:
            query["fieldManager"] = field_manager
        if force is not None:
            query["force"] = force
        result: dict[str, Any] = self.client.request(
            "PATCH",
            self.path(name, subresource=subresource, namespace=namespace),
            query=query,
            body=patch,
            content_type=patch_type.value,
        )
        return result

    def apply(
        self,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        force: bool = False,
        subresource: str = "",
        namespace: str | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Server-side apply of ``obj`` (apiVersion, kind, metadata.name and the fields
        this manager owns) as ``field_manager``. A field another manager owns with a
        different value is a 409 Conflict naming it, unless ``force`` takes it over
        (``kubectl apply --server-side --force-conflicts``)."""
        if not field_manager:
            raise ValueError("server-side apply needs a field manager")
        name = str((obj.get("metadata") or {}).get("name") or "")
        return self.patch(
            name,
            obj,
            patch_type=PatchType.APPLY,
            subresource=subresource,
            namespace=self._namespace_for(namespace, obj),
            dry_run=dry_run,
            field_manager=field_manager,
            force=True if force else None,
        )

    def delete(
        self,
        name: str,
        *,
        namespace: str | None = None,
        propagation_policy: PropagationPolicy | None = None,
        uid: str | None = None,
        resource_version: str | None = None,
        grace_period_seconds: int | None = None,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """DELETE one object with ``DeleteOptions``: the propagation policy, and
        preconditions (the object is deleted only if its uid / resourceVersion are
        these: a 409 Conflict otherwise). The answer is the object (still there with a
        deletionTimestamp while finalizers remain) or a ``Status``."""
        options: dict[str, Any] = {"kind": "DeleteOptions", "apiVersion": "v1"}
        if propagation_policy is not None:
            options["propagationPolicy"] = propagation_policy.value
        preconditions = {
            key: value
            for key, value in (("uid", uid), ("resourceVersion", resource_version))
            if value
        }
        if preconditions:
            options["preconditions"] = preconditions
        if grace_period_seconds is not None:
            options["gracePeriodSeconds"] = grace_period_seconds
        if dry_run:
            options["dryRun"] = ["All"]  # kubectl delete --dry-run=server
        result: dict[str, Any] = self.client.request(
            "DELETE", self.path(name, namespace=namespace), body=options
        )
        return result

    # -- subresources ------------------------------------------------------------------

    def get_status(self, name: str, *, namespace: str | None = None) -> dict[str, Any]:
        return self.get(name, subresource="status", namespace=namespace)

    def update_status(self, obj: Mapping[str, Any], **options: Any) -> dict[str, Any]:
        """PUT the object to ``/status``: the server keeps its spec and metadata."""
        return self.update(obj, subresource="status", **options)

    def patch_status(self, name: str, patch: Any, **options: Any) -> dict[str, Any]:
        return self.patch(name, patch, subresource="status", **options)

    def apply_status(
        self, obj: Mapping[str, Any], *, field_manager: str, **options: Any
    ) -> dict[str, Any]:
        return self.apply(obj, field_manager=field_manager, subresource="status", **options)

    def get_scale(self, name: str, *, namespace: str | None = None) -> dict[str, Any]:
        """The object's ``autoscaling/v1`` Scale."""
        return self.get(name, subresource="scale", namespace=namespace)

    def update_scale(self, name: str, scale: Mapping[str, Any], **options: Any) -> dict[str, Any]:
        """PUT a Scale (conditional on its resourceVersion, as kubectl's scaler uses it)."""
        body = dict(scale)
        metadata = dict(body.get("metadata") or {})
        metadata.setdefault("name", name)
        body["metadata"] = metadata
        return self.update(body, subresource="scale", **options)

    def patch_scale(self, name: str, patch: Any, **options: Any) -> dict[str, Any]:
        return self.patch(name, patch, subresource="scale", **options)
