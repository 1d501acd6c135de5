"""``kubectl crd get RESOURCE [NAME...]``: custom resources in a table, cell for cell as
``kubectl get`` shows them.

From files (``-f``), each object is first pruned and defaulted by the validation engine as
the API server would store it, and its cells are computed by ``model.columns``; an object
the server would reject is still shown, with its error on stderr.

From the cluster, the table is the server's own: like kubectl, the list (or get) asks for
a ``meta.k8s.io/v1`` Table (``Accept: application/json;as=Table;...``), so the cells are
the server's whatever its release, one request reads them, and the CRD is never read
(the cached discovery names the resource). ``model.columns`` computes the same cells
(``tests/integration/test_get_differential.py`` compares it with the server's Table on
every cell); it is used live only with ``--crd``, to preview a CRD under development
against the cluster's objects. Other outputs (``-o json|yaml|name|jsonpath|
custom-columns``) read the objects themselves, as kubectl does.

``-w``/``--watch`` lists, then watches from the list's resourceVersion (``--watch-only``
skips the printing of the list); each event is one row, written and flushed at once.
Piped, the rows are appended as kubectl appends them (its tab writer remembers column
widths, ``output.table.TabWriter``); on a terminal, the table is redrawn in place
(beyond kubectl), a row per object, deleted ones dropped.

Exit codes: 0, 1 for errors (unknown resource, unreachable cluster, rejected objects),
2 for bad arguments.
"""

from __future__ import annotations

import sys

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import (
    ALL_NAMESPACES,
    CHUNK_SIZE,
    CRD_PATHS,
    FIELD_SELECTOR,
    REPEATED,
    SELECTOR,
    SWITCH,
    VALUE,
    Flag,
    filename_flag,
    object_output_flag,
)
from kubectl_crd.model.errors import ExitCode, UsageError

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import Any

    from kubectl_crd.kube.client import KubeClient, WatchStream
    from kubectl_crd.kube.resources import ResourceClient
    from kubectl_crd.model.columns import ColumnPlan
    from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
    from kubectl_crd.output.printing import Listing, ListingFormat

FLAGS = (
    filename_flag("Files or directories (read recursively) with the objects to show, offline."),
    CRD_PATHS,
    ALL_NAMESPACES,
    SELECTOR,
    FIELD_SELECTOR,
    CHUNK_SIZE,
    object_output_flag("wide", "name", "json", "yaml", "jsonpath=TEMPLATE", "custom-columns=SPEC"),
    Flag(("--no-headers",), "no_headers", SWITCH, "Do not print headers."),
    Flag(
        ("--sort-by",),
        "sort_by",
        VALUE,
        "Sort by the value of this JSONPath (e.g. '{.metadata.name}' or .spec.size).",
        metavar="JSONPATH",
    ),
    Flag(
        ("--show-labels",),
        "show_labels",
        SWITCH,
        "Show all labels as the last column.",
    ),
    Flag(
        ("-L", "--label-columns"),
        "label_columns",
        REPEATED,
        "A label key to show as a column (repeatable, or comma-separated).",
        metavar="KEY",
    ),
    Flag(
        ("-w", "--watch"),
        "watch",
        SWITCH,
        "After listing/getting the requested object, watch for changes (cluster only).",
    ),
    Flag(
        ("--watch-only",),
        "watch_only",
        SWITCH,
        "Watch for changes to the requested object(s), without listing/getting first.",
    ),
    Flag(
        ("--output-watch-events",),
        "output_watch_events",
        SWITCH,
        "Output watch event objects when --watch or --watch-only is used. Existing "
        "objects are output as initial ADDED events.",
    ),
)

ARGUMENT = "arguments"

HELP = """Show custom resources with their CRD's printer columns, as kubectl get does.

\b
Examples:
  kubectl crd get crontabs -f examples/ --crd crds/
  kubectl crd get crontabs -A -o wide
  kubectl crd get ct my-cron -o jsonpath='{.spec.schedule}'
  kubectl crd get crontabs -w

With -f, the files' objects are shown offline as the API server would return them:
a manifest as a create of it returns it (pruned and defaulted, with the status dropped
where the CRD has a status subresource, and AGE 0s); an object dumped from a cluster
(kubectl get -o yaml: it carries a resourceVersion, uid or creationTimestamp) as it is
stored, its status and age kept. Rows come by namespace, then name, as the server lists
them. Without -f, objects are listed from the cluster of the current context.
"""


def run(app: Application, arguments: tuple[str, ...], **options: Any) -> None:
    """``kubectl crd get``: the flags' values by their names in ``FLAGS``."""
    if not arguments:
        raise UsageError("You must specify the type of resource to get.")
    resource, names = arguments[0], arguments[1:]
    settings = listing_format(options)
    watching = options["watch"] or options["watch_only"]
    if options["filenames"]:
        if watching:
            raise UsageError("--watch needs a cluster: it cannot be used with -f")
        _show(app, _from_files(app, resource, names, options), settings, single=len(names) == 1)
        return
    from kubectl_crd.kube.client import KubeClient

    with KubeClient(app.cluster) as client:
        live = _Live.resolve(app, client, resource, options)
        if watching:
            if len(names) > 1:
                raise UsageError(
                    "watch is only supported on individual resources and resource "
                    f"collections, but {len(names)} resources were found"
                )
            _watch(live, names, options["watch_only"], settings)
            return
        if settings.output == "name" and not names and not settings.sort_by:
            # nothing to align: each page's names are printed as it comes
            if not live.print_names():
                from kubectl_crd.output.printing import Listing

                _show(app, Listing(live.namespaced, live.qualified), settings, single=False)
            return
        listing = live.read(names)
    _show(app, listing, settings, single=len(names) == 1)


def listing_format(options: dict[str, Any]) -> ListingFormat:
    """The flags that shape what is printed (``-o`` checked here, before any request)."""
    from kubectl_crd.output.printing import ListingFormat, unknown_output

    output: str = options["output"]
    known = ("", "wide", "name", "json", "yaml")
    if output not in known and not output.startswith(("jsonpath=", "custom-columns=")):
        raise UsageError(unknown_output(output, "custom-columns,json,jsonpath,name,wide,yaml"))
    labels = (k.strip() for keys in options["label_columns"] for k in keys.split(","))
    return ListingFormat(
        output=output,
        sort_by=options["sort_by"] or "",
        all_namespaces=options["all_namespaces"],
        no_headers=options["no_headers"],
        show_labels=options["show_labels"],
        label_columns=tuple(k for k in labels if k),
        watch_events=options["output_watch_events"],
    )


def _show(app: Application, listing: Listing, settings: ListingFormat, *, single: bool) -> None:
    from kubectl_crd.output.printing import print_listing

    print_listing(listing, settings, namespace=app.namespace, single=single)
    if listing.failed:
        sys.exit(ExitCode.ERROR)


def _qualified(crd: CustomResourceDefinition) -> str:
    """What ``-o name`` prefixes: ``singular.group``."""
    return f"{crd.names.singular or crd.names.kind.lower()}.{crd.group}"


def _cluster_crds(app: Application) -> Callable[[], Sequence[CustomResourceDefinition]]:
    """What reads the cluster's CRDs (``sources.cluster``), when asked."""

    def read() -> Sequence[CustomResourceDefinition]:
        from kubectl_crd.sources.cluster import ClusterSource

        return ClusterSource(app.cluster).crds()

    return read


def _from_files(
    app: Application, resource: str, names: tuple[str, ...], options: dict[str, Any]
) -> Listing:
    """The objects of the files, as the server would store them, with their cells
    (``validation.listing``); each rejected object's errors on stderr.

    The files are read twice, CRDs first (as ``validate`` reads them), then each file's
    objects of the resource.
    """
    from kubectl_crd.io import input_documents
    from kubectl_crd.model.columns import plan_columns
    from kubectl_crd.model.lookup import resolve_resource
    from kubectl_crd.output.printing import Listing
    from kubectl_crd.output.validation import problem_lines
    from kubectl_crd.sources.inputs import InputCRDs
    from kubectl_crd.validation.documents import CRDIndex
    from kubectl_crd.validation.listing import FileObjects, served_version, server_order

    filenames: tuple[str, ...] = options["filenames"]
    held = list(input_documents(filenames)) if "-" in filenames else None  # read once
    crds = InputCRDs(options["crd_paths"], filenames, documents=held, cluster=_cluster_crds(app))
    index = CRDIndex(crds.crds())
    given = index.known()
    match = resolve_resource(given, resource)
    crd = match.crd
    plan = plan_columns(served_version(crd, match.version).printer_columns)
    objects = FileObjects(
        crd,
        plan,
        index,
        names,
        namespace=None if options["all_namespaces"] else app.namespace,
        default_namespace=app.namespace,
        # a plain table shows cells only: the objects stay in the workers
        keep_objects=bool(
            options["output"] not in ("", "wide")
            or options["sort_by"]
            or options["all_namespaces"]
            or options["label_columns"]
            or options["show_labels"]
        ),
    )
    listing = Listing(crd.namespaced, _qualified(crd), plan.columns, problem=plan.problem)
    rows, rejected = server_order(objects.rows(filenames, held))
    for result in rejected:
        print("\n".join(problem_lines(result)), file=sys.stderr)
    listing.failed = bool(rejected)
    listing.rows.extend(rows)
    listing.objects.extend(row[1] for row in rows)
    return listing


class _Live:
    """A resource on the cluster (``kube.resources.ResourceClient``), and how its table is
    made: the server's Table, or with ``--crd`` the given CRD's columns computed here."""

    def __init__(
        self,
        resource: ResourceClient,
        qualified: str,
        crd_version: CRDVersion | None,
        options: dict[str, Any],
    ) -> None:
        self.resource = resource
        self.namespaced = resource.namespaced
        self.qualified = qualified
        self.crd_version = crd_version
        self.selectors: dict[str, Any] = {
            "label_selector": options["selector"],
            "field_selector": options["field_selector"],
        }
        #: the server makes the table (a human-readable output, no --crd)
        self.tables = options["output"] in ("", "wide") and crd_version is None
        self._include: str | None = None
        if self.tables and options["sort_by"]:
            # get.go: sorting needs the whole object, not the Table's metadata
            self._include = "Object"
        elif self.tables and not (
            options["all_namespaces"] or options["label_columns"] or options["show_labels"]
        ):
            # only the cells are shown: no metadata per row (kubectl asks for it anyway),
            # so a long listing holds cells, not objects
            self._include = "None"
        self._chunk_size: int = options["chunk_size"]
        self._table_output = options["output"] in ("", "wide")

    @classmethod
    def resolve(
        cls, app: Application, client: KubeClient, resource: str, options: dict[str, Any]
    ) -> _Live:
        from kubectl_crd.kube.resources import ResourceClient

        crd_version = None
        if options["crd_paths"]:
            from kubectl_crd.sources.base import find_crd
            from kubectl_crd.sources.inputs import InputCRDs

            match = find_crd(InputCRDs(options["crd_paths"]), resource)
            crd = match.crd
            # validation.listing.served_version, without loading validation (~30 ms)
            crd_version = crd.version(match.version or "") or crd.preferred_version
            group, version, plural = crd.group, crd_version.name, crd.names.plural
            namespaced, qualified = crd.namespaced, _qualified(crd)
        else:
            # the cached discovery names the resource; the CRD is never read
            from kubectl_crd.kube.discovery import Discovery
            from kubectl_crd.kube.resolving import Resolver

            discovery = Discovery(client.request, client.server)
            resolver = Resolver(client=client, discovery=discovery, command="get")
            ref, version = resolver.by_argument(resource)
            group, plural, namespaced = ref.group, ref.plural, ref.namespaced
            qualified = f"{ref.singular or ref.kind.lower()}.{ref.group}"
        namespace = None if options["all_namespaces"] else client.namespace
        resources = ResourceClient(
            client, group, version, plural, namespaced=namespaced, namespace=namespace
        )
        return cls(resources, qualified, crd_version, options)

    def plan(self) -> ColumnPlan | None:
        """With ``--crd``, the given CRD's columns, computed here."""
        if self.crd_version is None:
            return None
        from kubectl_crd.model.columns import plan_columns

        return plan_columns(self.crd_version.printer_columns)

    def read(self, names: tuple[str, ...]) -> Listing:
        """The named objects, or the list (in pages of ``--chunk-size``)."""
        from kubectl_crd.model.errors import ApiError
        from kubectl_crd.output.printing import Listing

        listing = Listing(self.namespaced, self.qualified)
        pages: list[Any] = []
        for name in names:
            try:
                pages.append(
                    self.resource.get(name, table=self.tables, include_object=self._include)
                )
            except ApiError as exc:
                print(exc.kubectl_line, file=sys.stderr)
                listing.failed = True
        if not names:
            pages.extend(self.pages())
        for page in pages:
            listing.add_page(page)
        plan = self.plan()
        if plan is not None and self._table_output:
            listing.compute_rows(plan)
        return listing

    def pages(self) -> Iterator[dict[str, Any]]:
        """kubectl's resource.Builder with ``RequestChunksOf``: pages joined by continue."""
        return self.resource.pages(
            **self.selectors,
            limit=self._chunk_size or None,
            table=self.tables,
            include_object=self._include,
        )

    def print_names(self) -> int:
        """``-o name`` page by page, so a long listing never holds its objects; the
        number of names printed."""
        from kubectl_crd.output.printing import ObjectPrinter

        printer = ObjectPrinter("name", sys.stdout, qualified=self.qualified)
        for page in self.pages():
            for obj in page.get("items") or ():
                printer.write(obj)
        printer.flush()
        return printer.printed

    def watch(self, names: tuple[str, ...], resource_version: str) -> WatchStream:
        """Events after ``resource_version``; a named watch is the collection's narrowed
        to that name (``get.go``)."""
        selectors = dict(self.selectors)
        if names:
            selectors["field_selector"] = f"metadata.name={names[0]}"
        return self.resource.watch(
            resource_version=resource_version,
            allow_bookmarks=False,  # kubectl get -w asks for none
            table=self.tables,
            **selectors,
        )


def _watch(live: _Live, names: tuple[str, ...], watch_only: bool, settings: ListingFormat) -> None:
    """``-w``/``--watch-only``: the list (printed unless watch-only), then a watch from its
    resourceVersion, each event printed and flushed as it arrives (``get.go: watch``)."""
    from kubectl_crd.output.printing import WatchPrinter

    listing = live.read(names)
    if listing.failed:
        sys.exit(ExitCode.ERROR)
    printer = WatchPrinter(listing, settings, sys.stdout, plan=live.plan())
    try:
        if not watch_only:
            printer.initial(listing)
        for event in live.watch(names, listing.resource_version):
            printer.write(event)
    finally:
        printer.flush()
