"""``kubectl crd get RESOURCE [NAME...]``: custom resources in a table, cell for cell as
``kubectl get`` shows them. This module reads the flags and wires the pieces:

- from files (``-f``, ``output.printing.file_listing``): the CRDs from
  ``sources.inputs``, each object through the admission step as a create or as stored
  (``validation.listing``), its cells computed
  by ``model.columns``, rows in the server's order; an object the server would reject
  is still shown, with its error on stderr;
- from the cluster: ``kube.listing`` makes kubectl's requests (a ``meta.k8s.io/v1``
  Table, so the cells are the server's and the CRD is never read; the objects for
  other outputs; pages of ``--chunk-size``; ``-w`` watches from the list's
  resourceVersion); with ``--crd`` the given CRD's columns are computed here instead,
  to preview a CRD under development against the cluster's objects;
- ``output.printing`` prints the listing and each watch event (piped, rows appended as
  kubectl's tab writer appends them; on a terminal, redrawn in place).

``tests/integration/test_get_differential.py`` compares cells with the server's Table
and text with ``kubectl get``. Exit codes: 0; 1 for errors (unknown resource,
unreachable cluster, rejected objects) and for bad arguments, as kubectl.
"""

from __future__ import annotations

import sys

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import (
    ALL_NAMESPACES,
    ALLOW_MISSING_TEMPLATE_KEYS,
    CHUNK_SIZE,
    CRD_PATHS,
    FIELD_SELECTOR,
    REPEATED,
    SELECTOR,
    SWITCH,
    TEMPLATE,
    TEMPLATE_FORMATS,
    VALUE,
    Flag,
    allow_missing_keys,
    filename_flag,
    object_output_flag,
)
from kubectl_crd.model.errors import ExitCode, UsageError

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.listing import ResourceListing
    from kubectl_crd.model.columns import ColumnPlan
    from kubectl_crd.output.printing import Listing, ListingFormat

FLAGS = (
    filename_flag("Files or directories (read recursively) with the objects to show, offline."),
    CRD_PATHS,
    ALL_NAMESPACES,
    SELECTOR,
    FIELD_SELECTOR,
    CHUNK_SIZE,
    object_output_flag(
        "wide",
        "name",
        "json",
        "yaml",
        "custom-columns=SPEC",
        "custom-columns-file=FILE",
        *TEMPLATE_FORMATS,
    ),
    TEMPLATE,
    ALLOW_MISSING_TEMPLATE_KEYS,
    Flag(("--no-headers",), "no_headers", SWITCH, "Do not print headers."),
    Flag(
        ("--sort-by",),
        "sort_by",
        VALUE,
        "Sort by the value of this JSONPath (e.g. '{.metadata.name}' or .spec.size).",
        metavar="JSONPATH",
    ),
    Flag(("--show-labels",), "show_labels", SWITCH, "Show all labels as the last column."),
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
  kubectl crd get crontabs -f examples/resources/ --crd examples/crds/
  kubectl crd get crontabs -A -o wide
  kubectl crd get ct my-cron -o jsonpath='{.spec.cronSpec}'
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
    from kubectl_crd.output.printing import listing_format

    settings = listing_format(
        options["output"],
        options["sort_by"],
        options["label_columns"],
        all_namespaces=options["all_namespaces"],
        no_headers=options["no_headers"],
        show_labels=options["show_labels"],
        watch_events=options["output_watch_events"],
        template=options["template"],
        allow_missing_keys=allow_missing_keys(options["allow_missing_template_keys"], "get"),
    )
    watching = options["watch"] or options["watch_only"]
    if options["filenames"]:
        if watching:
            raise UsageError("--watch needs a cluster: it cannot be used with -f")
        listing = _from_files(app, resource, names, options, settings)
        _show(app, listing, settings, single=len(names) == 1)
        return
    from kubectl_crd.kube.client import KubeClient

    with KubeClient(app.cluster) as client:
        reading, listing, plan = _on_cluster(app, client, resource, options, settings)
        if watching:
            if len(names) > 1:
                raise UsageError(
                    "watch is only supported on individual resources and resource "
                    f"collections, but {len(names)} resources were found"
                )
            _read(reading, listing, names, plan, settings)
            if listing.failed:
                sys.exit(ExitCode.ERROR)
            # the list (printed unless watch-only), then a watch from its resourceVersion,
            # each event printed and flushed as it arrives (get.go: watch)
            from kubectl_crd.output.printing import WatchPrinter

            WatchPrinter(listing, settings, sys.stdout, plan=plan).follow(
                lambda: reading.watch(names, listing.resource_version),
                None if options["watch_only"] else listing,
            )
            return
        if settings.output == "name" and not names and not settings.sort_by:
            # nothing to align: names are printed page by page
            from kubectl_crd.output.printing import stream_names

            if not stream_names(reading.items(), listing.qualified, sys.stdout):
                _show(app, listing, settings, single=False)
            return
        _read(reading, listing, names, plan, settings)
    _show(app, listing, settings, single=len(names) == 1)


def _show(app: Application, listing: Listing, settings: ListingFormat, *, single: bool) -> None:
    from kubectl_crd.output.printing import print_listing

    print_listing(listing, settings, namespace=app.namespace, single=single)
    if listing.failed:
        sys.exit(ExitCode.ERROR)


def _from_files(
    app: Application,
    resource: str,
    names: tuple[str, ...],
    options: dict[str, Any],
    settings: ListingFormat,
) -> Listing:
    from kubectl_crd.output.printing import file_listing

    return file_listing(
        resource,
        names,
        options["filenames"],
        options["crd_paths"],
        namespace=None if options["all_namespaces"] else app.namespace,
        default_namespace=app.namespace,
        cluster=app.cluster,
        # a plain table shows cells only: the objects stay in the workers
        keep_objects=bool(
            not settings.table
            or options["sort_by"]
            or options["all_namespaces"]
            or options["label_columns"]
            or options["show_labels"]
        ),
        selector=options["selector"],
        err=sys.stderr,
    )


def _on_cluster(
    app: Application,
    client: KubeClient,
    resource: str,
    options: dict[str, Any],
    settings: ListingFormat,
) -> tuple[ResourceListing, Listing, ColumnPlan | None]:
    """The resource's requests (``kube.listing``), an empty listing of it, and with
    ``--crd`` the given CRD's columns, computed here from the listed objects (without,
    the table is the server's and the CRD is never read)."""
    from kubectl_crd.kube.listing import ResourceListing, defined, discovered
    from kubectl_crd.output.printing import Listing

    all_namespaces: bool = options["all_namespaces"]
    plan = None
    if options["crd_paths"]:
        from kubectl_crd.model.columns import plan_columns
        from kubectl_crd.sources.base import find_crd
        from kubectl_crd.sources.inputs import InputCRDs

        match = find_crd(InputCRDs(options["crd_paths"]), resource)
        version = match.crd.served_version(match.version)
        plan = plan_columns(version.printer_columns)
        found = defined(client, match.crd, version.name, all_namespaces=all_namespaces)
    else:
        found = discovered(client, resource, all_namespaces=all_namespaces)
    resources, qualified = found
    reading = ResourceListing(
        resources,
        label_selector=options["selector"],
        field_selector=options["field_selector"],
        chunk_size=options["chunk_size"],
        # the server makes the table for a human-readable output, unless --crd's is asked
        table=settings.table and plan is None,
        sort=bool(options["sort_by"]),
        row_metadata=bool(all_namespaces or options["label_columns"] or options["show_labels"]),
        # client-go's http.Client.Timeout cuts a watch too: kubectl get -w ends (exit 0)
        watch_timeout=client.config.timeout_seconds,
    )
    return reading, Listing(resources.namespaced, qualified), plan


def _read(
    reading: ResourceListing,
    listing: Listing,
    names: tuple[str, ...],
    plan: ColumnPlan | None,
    settings: ListingFormat,
) -> None:
    """``listing`` filled from the named objects or the list, its rows computed from
    ``plan`` (``--crd``) for a table; a name that could not be read is kubectl's line on
    stderr (the others are still shown)."""
    read = reading.read(names)
    for error in read.errors:
        print(error.kubectl_line, file=sys.stderr)
    listing.fill(read, plan if settings.table else None, table=settings.table)
