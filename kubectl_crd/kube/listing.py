"""What ``kubectl get`` asks of one resource on the cluster, as one use case.

``ResourceListing`` reads the named objects (a GET each) or the list in pages of
``--chunk-size`` joined by ``continue`` (kubectl's ``resource.Builder`` with
``RequestChunksOf``), and watches from the list's resourceVersion, narrowed to the
name for a named watch, with no bookmarks asked (``kubectl get -w`` asks for none).
It asks for the server's ``Table`` when the server makes the table, and for as much of
each row's object as the output needs (``includeObject``), as
``k8s.io/kubectl/pkg/cmd/get/get.go`` decides: the whole object to sort, none when only
the cells are shown. ``discovered`` finds the resource from a RESOURCE argument through
the cached discovery, never reading its CRD.

Pages and events come out as the server sends them; what is printed of them is
``output.printing``'s. Calls go through ``kube.resources.ResourceClient``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

    from kubectl_crd.kube.client import KubeClient, WatchStream
    from kubectl_crd.kube.resources import ResourceClient
    from kubectl_crd.model.crd import CustomResourceDefinition
    from kubectl_crd.model.errors import ApiError

__all__ = ["ListingRead", "ResourceListing", "defined", "discovered", "qualified_name"]


def discovered(
    client: KubeClient, argument: str, *, all_namespaces: bool = False
) -> tuple[ResourceClient, str]:
    """The resource a RESOURCE argument names (``crontabs``, ``ct``, ``crontab.v1.stable.
    example.com``...) through the cached discovery, in the client's namespace (or every
    one), and what ``-o name`` prefixes its objects with (``singular.group``)."""
    from kubectl_crd.kube.discovery import Discovery
    from kubectl_crd.kube.resolving import Resolver
    from kubectl_crd.kube.resources import ResourceClient

    discovery = Discovery(client.request, client.server)
    ref, version = Resolver(client=client, discovery=discovery, command="get").by_argument(argument)
    namespace = None if all_namespaces else client.namespace
    resource = ResourceClient.for_ref(client, ref, version, namespace=namespace)
    return resource, qualified_name(ref.singular, ref.kind, ref.group)


def defined(
    client: KubeClient, crd: CustomResourceDefinition, version: str, *, all_namespaces: bool = False
) -> tuple[ResourceClient, str]:
    """``discovered``'s answer for the resource a CRD given with ``--crd`` defines, in
    ``version``, without asking discovery."""
    from kubectl_crd.kube.resources import ResourceClient

    resource = ResourceClient(
        client,
        crd.group,
        version,
        crd.names.plural,
        namespaced=crd.namespaced,
        namespace=None if all_namespaces else client.namespace,
    )
    return resource, qualified_name(crd.names.singular, crd.names.kind, crd.group)


def qualified_name(singular: str, kind: str, group: str) -> str:
    """What ``-o name`` prefixes an object with: ``singular.group`` (kubectl's
    ``mapping.Resource.GroupResource()`` in its singular form, ``crontab.stable.example.com``)."""
    return f"{singular or kind.lower()}.{group}"


class ListingRead:
    """What one read gave: the pages (a named object's GET is a page of its own) and the
    errors of the names that could not be read, in kubectl's words."""

    __slots__ = ("errors", "pages")

    def __init__(self) -> None:
        self.pages: list[dict[str, Any]] = []
        self.errors: list[ApiError] = []


class ResourceListing:
    """``kubectl get``'s requests for one resource; see the module docstring.

    ``table``: ask for the server's Table (the server makes the table); ``sort``: the
    rows are sorted, so each needs its whole object; ``row_metadata``: the rows show
    more than their cells (namespaces, labels), so each needs the object's metadata;
    ``watch_timeout``: ``--request-timeout``, which ends a watch (``KubeClient.watch``).
    """

    def __init__(
        self,
        resource: ResourceClient,
        *,
        label_selector: str = "",
        field_selector: str = "",
        chunk_size: int = 500,
        table: bool = False,
        sort: bool = False,
        row_metadata: bool = False,
        watch_timeout: float | None = None,
    ) -> None:
        self.resource = resource
        self.watch_timeout = watch_timeout
        self.label_selector = label_selector
        self.field_selector = field_selector
        self.chunk_size = chunk_size
        self.table = table
        self.include_object: str | None = None
        if table and sort:
            # get.go: sorting needs the whole object, not the Table's metadata
            self.include_object = "Object"
        elif table and not row_metadata:
            # only the cells are shown: no metadata per row (kubectl asks for it anyway),
            # so a long listing holds cells, not objects
            self.include_object = "None"

    def read(self, names: Sequence[str] = ()) -> ListingRead:
        """The named objects (a GET each, an error kept per name), or the list."""
        from kubectl_crd.model.errors import ApiError

        read = ListingRead()
        for name in names:
            try:
                page = self.resource.get(name, table=self.table, include_object=self.include_object)
            except ApiError as exc:
                read.errors.append(exc)
            else:
                read.pages.append(page)
        if not names:
            read.pages.extend(self.pages())
        return read

    def pages(self) -> Iterator[dict[str, Any]]:
        """The list in pages of ``chunk_size`` (all at once for 0), as they come."""
        return self.resource.pages(**self._list_options())

    def items(self) -> Iterator[dict[str, Any]]:
        """The list's objects page by page, so a long listing is never held whole
        (``-o name``)."""
        return self.resource.items(**self._list_options())

    def _list_options(self) -> dict[str, Any]:
        return {
            "label_selector": self.label_selector,
            "field_selector": self.field_selector,
            "limit": self.chunk_size or None,
            "table": self.table,
            "include_object": self.include_object,
        }

    def watch(self, names: Sequence[str], resource_version: str) -> WatchStream:
        """Events after ``resource_version``; a named watch is the collection's narrowed
        to that name (``get.go``), ended by ``watch_timeout``."""
        return self.resource.watch(
            resource_version=resource_version,
            allow_bookmarks=False,  # kubectl get -w asks for none
            timeout=self.watch_timeout,
            table=self.table,
            label_selector=self.label_selector,
            field_selector=f"metadata.name={names[0]}" if names else self.field_selector,
        )
