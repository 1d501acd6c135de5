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

import json
import sys

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import COUNT, CRD_PATHS, REPEATED, SWITCH, VALUE, Flag
from kubectl_crd.model.errors import ExitCode, UsageError

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.model.columns import Row, TableColumn
    from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
    from kubectl_crd.output.table import TableOptions

FLAGS = (
    Flag(
        ("-f", "--filename"),
        "filenames",
        REPEATED,
        "Files or directories (read recursively) with the objects to show, offline.",
        metavar="PATH",
    ),
    CRD_PATHS,
    Flag(
        ("-A", "--all-namespaces"),
        "all_namespaces",
        SWITCH,
        "List the requested objects across all namespaces.",
    ),
    Flag(
        ("-l", "--selector"),
        "selector",
        VALUE,
        "Label selector to filter on (cluster only).",
        metavar="SELECTOR",
    ),
    Flag(
        ("--field-selector",),
        "field_selector",
        VALUE,
        "Field selector to filter on (cluster only): metadata.name, metadata.namespace "
        "and the CRD's selectableFields, e.g. --field-selector metadata.name=a.",
        metavar="SELECTOR",
    ),
    Flag(
        ("--chunk-size",),
        "chunk_size",
        COUNT,
        "List from the cluster in pages of this many objects (0: all at once), as kubectl.",
        default=500,
        show_default=True,
    ),
    Flag(
        ("-o", "--output"),
        "output",
        VALUE,
        "Output format: wide, name, json, yaml, jsonpath=TEMPLATE, custom-columns=SPEC.",
        metavar="FORMAT",
        default="",
    ),
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

With -f, objects are pruned and defaulted as the API server would store them first;
without -f they are listed from the cluster of the current context.
"""


def run(app: Application, arguments: tuple[str, ...], **options: Any) -> None:
    """``kubectl crd get``: the flags' values by their names in ``FLAGS``."""
    if not arguments:
        raise UsageError("You must specify the type of resource to get.")
    resource, names = arguments[0], arguments[1:]
    output: str = options["output"]
    _check_output(output)
    watching = options["watch"] or options["watch_only"]
    if options["filenames"]:
        if watching:
            raise UsageError("--watch needs a cluster: it cannot be used with -f")
        _show(app, _from_files(app, resource, names, options), options, single=len(names) == 1)
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
            _watch(client, live, names, options)
            return
        if options["output"] == "name" and not names and not options["sort_by"]:
            # nothing to align: each page's names are printed as it comes
            if not live.print_names(options):
                _show(app, _Listing(live.namespaced, live.qualified), options, single=False)
            return
        listing = live.read(names, options)
    _show(app, listing, options, single=len(names) == 1)


class _Listing:
    """What a get shows: the kind's naming, and either a table's columns and rows (a
    server Table, or cells computed locally) or the objects themselves."""

    def __init__(
        self,
        namespaced: bool,
        qualified: str,
        columns: tuple[TableColumn, ...] = (),
        rows: list[Row] | None = None,
        objects: list[Any] | None = None,
        failed: bool = False,
        problem: str | None = None,
    ) -> None:
        self.namespaced = namespaced
        self.qualified = qualified  # "singular.group", what -o name prefixes
        self.columns = columns
        self.rows = rows if rows is not None else []
        self.objects = objects if objects is not None else []
        self.failed = failed
        self.problem = problem  # a printer column the server could not compile
        self._resource_version = ""

    @property
    def empty(self) -> bool:
        return not self.rows and not self.objects

    @property
    def resource_version(self) -> str:
        """Where a watch after this listing starts (the last page's or object's)."""
        return self._resource_version

    def seen(self, page: Any) -> None:
        metadata = page.get("metadata") if isinstance(page, dict) else None
        if isinstance(metadata, dict) and metadata.get("resourceVersion"):
            self._resource_version = str(metadata["resourceVersion"])


def _show(app: Application, listing: _Listing, options: dict[str, Any], *, single: bool) -> None:
    from kubectl_crd.output.table import render_rows

    output: str = options["output"]
    if listing.empty:
        if not listing.failed:
            if options["all_namespaces"] or not listing.namespaced:
                print("No resources found", file=sys.stderr)
            else:
                namespace = app.namespace or "default"
                print(f"No resources found in {namespace} namespace.", file=sys.stderr)
        if listing.failed:
            sys.exit(ExitCode.ERROR)
        return
    if listing.problem:
        print(f"warning: {listing.problem}", file=sys.stderr)
    if output in ("", "wide"):
        rows = listing.rows
        if options["sort_by"]:
            from kubectl_crd.output.table import sort_objects

            rows = sort_objects(rows, _compiled(_relaxed(options["sort_by"])), of=_row_object)
        sys.stdout.write(render_rows(listing.columns, rows, _table_options(options, listing)))
    else:
        objects = listing.objects
        if options["sort_by"]:
            from kubectl_crd.output.table import sort_objects

            objects = sort_objects(objects, _compiled(_relaxed(options["sort_by"])))
        sys.stdout.write(_formatted(output, listing.qualified, objects, single=single))
    if listing.failed:
        sys.exit(ExitCode.ERROR)


def _row_object(row: Row) -> Any:
    return row[1]


def _table_options(options: dict[str, Any], listing: _Listing) -> TableOptions:
    from kubectl_crd.output.table import TableOptions

    labels = tuple(k.strip() for keys in options["label_columns"] for k in keys.split(","))
    return TableOptions(
        wide=options["output"] == "wide",
        all_namespaces=options["all_namespaces"] and listing.namespaced,
        no_headers=options["no_headers"],
        show_labels=options["show_labels"],
        label_columns=tuple(k for k in labels if k),
    )


def _check_output(output: str) -> None:
    known = ("", "wide", "name", "json", "yaml")
    if output in known or output.startswith(("jsonpath=", "custom-columns=")):
        return
    raise UsageError(
        f'unable to match a printer suitable for the output format "{output}", allowed '
        "formats are: custom-columns,json,jsonpath,name,wide,yaml"
    )


def _formatted(output: str, qualified: str, objects: list[Any], *, single: bool) -> str:
    """``-o name|json|yaml|jsonpath=|custom-columns=`` as kubectl prints them."""
    from kubectl_crd.model.govalues import go_print
    from kubectl_crd.model.jsonpath import JSONPath, print_results

    if output == "name":
        return "".join(f"{qualified}/{_name(obj)}\n" for obj in objects)
    from kubectl_crd.output.objects import kubectl_json, kubectl_yaml, without_managed_fields

    shown = [without_managed_fields(obj) for obj in objects]
    document: Any = (
        shown[0]
        if single
        else {
            "apiVersion": "v1",
            "items": shown,
            "kind": "List",
            "metadata": {"resourceVersion": ""},
        }
    )
    if output == "json":
        return kubectl_json(document) + "\n"
    if output == "yaml":
        return kubectl_yaml(document)
    if output.startswith("jsonpath="):
        template = output.removeprefix("jsonpath=")
        path = _compiled(template)
        # kubectl's JSONPath printer sees the object through a JSON round trip:
        # every number is a float64 there (cli-runtime printers/jsonpath.go).
        data = json.loads(json.dumps(document), parse_int=float)
        return "".join(print_results(values) for values in path.find_results(data))
    specification = output.removeprefix("custom-columns=")
    headers: list[str] = []
    paths: list[JSONPath] = []
    for part in specification.split(","):
        header, sep, expression = part.partition(":")
        if not sep:
            raise UsageError(
                f"unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
            )
        headers.append(header)
        paths.append(_compiled(_relaxed(expression)))
    from kubectl_crd.output.table import tabwriter

    lines = [headers]
    for obj in objects:
        line = []
        for path in paths:
            values = [v for found in path.find_results(obj) for v in found]
            # cli-runtime printers/customcolumn.go: each value fmt.Sprint'ed, joined by ","
            line.append(",".join(go_print(v) for v in values) if values else "<none>")
        lines.append(line)
    return tabwriter(lines)


def _relaxed(expression: str) -> str:
    """kubectl's ``RelaxedJSONPathExpression``: ``spec.x`` or ``.spec.x`` as ``{.spec.x}``."""
    text = expression.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    if not text.startswith("."):
        text = "." + text
    return "{" + text + "}"


def _compiled(template: str) -> Any:
    from kubectl_crd.model.jsonpath import JSONPath, JSONPathError

    try:
        return JSONPath(template, allow_missing_keys=True)
    except JSONPathError as exc:
        raise UsageError(f"error parsing jsonpath {template}, {exc}") from None


def _name(obj: Any) -> str:
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    name = metadata.get("name", "") if isinstance(metadata, dict) else ""
    return name if isinstance(name, str) else ""


def _version(crd: CustomResourceDefinition, wanted: str | None) -> CRDVersion:
    for version in crd.versions:
        if version.name == wanted:
            return version
    return crd.preferred_version


def _version_of(content: dict[str, Any]) -> str:
    """The version of an object's ``apiVersion`` (``group/version``)."""
    return str(content.get("apiVersion", "")).partition("/")[2]


def _qualified(crd: CustomResourceDefinition) -> str:
    return f"{crd.names.singular or crd.names.kind.lower()}.{crd.group}"


def _from_files(
    app: Application, resource: str, names: tuple[str, ...], options: dict[str, Any]
) -> _Listing:
    """The objects of the files, as the server would store them, with their cells.

    The files are read twice, CRDs first (as ``validate`` reads them), then each file's
    objects of the resource are validated and their cells computed, in forked
    processes when there are several files and CPUs (``validation.parallel``).
    """
    import os

    from kubectl_crd.io import expand_paths, files_defining_crds, input_documents
    from kubectl_crd.model.columns import plan_columns
    from kubectl_crd.sources.base import find_crd
    from kubectl_crd.sources.fake import FakeSource
    from kubectl_crd.sources.files import FileSource
    from kubectl_crd.validation.documents import CRDIndex, crds_among
    from kubectl_crd.validation.parallel import can_fork, map_files

    filenames: tuple[str, ...] = options["filenames"]
    index = CRDIndex(FileSource(options["crd_paths"]).crds())
    held = None  # stdin can be read only once
    if "-" in filenames:
        held = list(input_documents(filenames))
        index.add(crds_among(held))
    else:
        index.add(crds_among(input_documents(files_defining_crds(filenames))))
    given = index.known()
    if not given and not options["crd_paths"]:
        from kubectl_crd.sources.cluster import ClusterSource

        given = list(ClusterSource(app.cluster).crds())
        index.add(given)
    match = find_crd(FakeSource(given), resource)
    crd = match.crd
    plan = plan_columns(_version(crd, match.version).printer_columns)
    render = _FileObjects(crd, plan, index, names, app.namespace, options["all_namespaces"])
    # a plain table shows cells only: the objects stay in the workers
    render.keep_objects = bool(
        options["output"] not in ("", "wide")
        or options["sort_by"]
        or options["all_namespaces"]
        or options["label_columns"]
        or options["show_labels"]
    )
    paths = list(expand_paths(filenames)) if held is None else []
    jobs = min(len(paths), os.cpu_count() or 1)
    if jobs > 1 and can_fork():
        entries: Iterable[tuple[Row, str]] = map_files(paths, render.file, jobs)
    else:
        documents = held if held is not None else render.documents(filenames)
        entries = (entry for document in documents for entry in render(document))
    listing = _Listing(crd.namespaced, _qualified(crd), plan.columns, problem=plan.problem)
    for row, error in entries:
        if error:
            print(error, file=sys.stderr)
            listing.failed = True
        listing.rows.append(row)
        listing.objects.append(row[1])
    return listing


class _FileObjects:
    """One document's row (its object as the server would store it, and its cells), or
    none when it is not an object asked for; the error line of an object the server
    would reject (shown anyway, as written)."""

    def __init__(
        self,
        crd: CustomResourceDefinition,
        plan: Any,
        index: Any,
        names: tuple[str, ...],
        namespace: str | None,
        all_namespaces: bool,
    ) -> None:
        self._crd = crd
        self._plan = plan
        self._index = index
        self._names = names
        self._default_namespace = namespace  # what the server gives an object without one
        self._namespace = namespace if crd.namespaced and not all_namespaces else None
        self.keep_objects = True
        from datetime import UTC, datetime

        self._now = datetime.now(UTC)
        self._created = self._now.strftime("%Y-%m-%dT%H:%M:%SZ")
        # what each object needs, imported once here rather than per object
        from kubectl_crd.model.columns import row_cells
        from kubectl_crd.validation.documents import validate_located
        from kubectl_crd.validation.pipeline import default_as_read

        self._row_cells = row_cells
        self._validate = validate_located
        self._default_as_read = default_as_read

    def file(self, path: str) -> list[tuple[Row, str]]:
        return [entry for document in self.documents((path,)) for entry in self(document)]

    @staticmethod
    def documents(paths: tuple[str, ...]) -> Iterable[Any]:
        """The files' documents through the parsed-value cache (``io.caching``): without
        per-node positions on a hit, which only a rejected object needs (reparsed then)."""
        from kubectl_crd.io import read_inputs

        return read_inputs(paths, cached=True)

    def __call__(self, document: Any) -> list[tuple[Row, str]]:
        row_cells = self._row_cells
        content = document.content
        if not isinstance(content, dict) or content.get("kind") != self._crd.names.kind:
            return []
        if str(content.get("apiVersion", "")).split("/")[0] != self._crd.group:
            return []
        if self._names and _name(content) not in self._names:
            return []
        if self._namespace:
            metadata = content.get("metadata") or {}
            if (metadata.get("namespace") or "default") != self._namespace:
                return []
        result = self._validate(document, self._index)
        if result.status == "valid" and result.stored is not None:
            # the stored object is the pipeline's own copy, plain already when the
            # document came from the parsed-value cache; a parsed one (YamlMap, a dict
            # that also knows positions) is made plain only to be kept
            obj = result.stored
            if document.has_positions and self.keep_objects:
                obj = _plain(obj)
            _as_created(obj, self._created, self._crd.namespaced, self._default_namespace)
            self._default_as_read(obj, _version(self._crd, _version_of(content)), created=True)
            cells = row_cells(self._plan, obj, self._now)
            return [((cells, obj if self.keep_objects else {}), "")]
        # one line per reason, at the offending node (validate's words and positions)
        lines = [
            f"error: {error.location or result.location}: {result.title}: {error.message}"
            for error in result.errors
        ] or [f"error: {result.location}: {result.title}: {result.message}"]
        obj = _plain(content)
        shown = obj if self.keep_objects else {}
        return [((row_cells(self._plan, obj, self._now), shown), "\n".join(lines))]


def _as_created(obj: dict[str, Any], created: str, namespaced: bool, namespace: str | None) -> None:
    """Add what the server adds on create and the columns may show: the creation time
    (``created``: now, so AGE reads ``0s``) and, for a namespaced kind, the namespace."""
    metadata = obj.setdefault("metadata", {})
    if isinstance(metadata, dict):
        metadata.setdefault("creationTimestamp", created)
        if namespaced:
            metadata.setdefault("namespace", namespace or "default")


def _plain(value: Any) -> Any:
    """A decoded document as plain dicts and lists."""
    from kubectl_crd.model.schema import plain

    return plain(value)


class _Live:
    """A resource on the cluster: its path, and how its table is made (the server's Table,
    or with ``--crd`` the given CRD's columns computed here)."""

    def __init__(
        self,
        client: KubeClient,
        path: str,
        namespaced: bool,
        qualified: str,
        crd_version: CRDVersion | None,
    ) -> None:
        self.client = client
        self.path = path
        self.namespaced = namespaced
        self.qualified = qualified
        self.crd_version = crd_version

    @classmethod
    def resolve(
        cls, app: Application, client: KubeClient, resource: str, options: dict[str, Any]
    ) -> _Live:
        crd_version = None
        if options["crd_paths"]:
            from kubectl_crd.sources.base import find_crd
            from kubectl_crd.sources.files import FileSource

            match = find_crd(FileSource(options["crd_paths"]), resource)
            crd = match.crd
            crd_version = _version(crd, match.version)
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
        path = f"/apis/{group}/{version}"
        if namespaced and not options["all_namespaces"]:
            path += f"/namespaces/{client.namespace}"
        return cls(client, f"{path}/{plural}", namespaced, qualified, crd_version)

    def server_tables(self, options: dict[str, Any]) -> bool:
        """Whether the server makes the table (a human-readable output, no ``--crd``)."""
        return options["output"] in ("", "wide") and self.crd_version is None

    def read(self, names: tuple[str, ...], options: dict[str, Any]) -> _Listing:
        """The named objects, or the list (in pages of ``--chunk-size``)."""
        from kubectl_crd.model.errors import ApiError

        listing = _Listing(self.namespaced, self.qualified)
        pages: list[Any] = []
        if names:
            for name in names:
                try:
                    pages.append(self._get(f"{self.path}/{name}", {}, options))
                except ApiError as exc:
                    print(exc.kubectl_line, file=sys.stderr)
                    listing.failed = True
        else:
            pages.extend(self._pages(options))
        self._collect(listing, pages, options)
        return listing

    def print_names(self, options: dict[str, Any]) -> int:
        """``-o name`` page by page, so a long listing never holds its objects; the
        number of names printed."""
        printed = 0
        for page in self._pages(options):
            items = page.get("items") if isinstance(page, dict) else None
            if items:
                sys.stdout.write(_formatted("name", self.qualified, items, single=False))
                printed += len(items)
        return printed

    def query(self, options: dict[str, Any]) -> dict[str, object]:
        query: dict[str, object] = {}
        if options["selector"]:
            query["labelSelector"] = options["selector"]
        if options["field_selector"]:
            query["fieldSelector"] = options["field_selector"]
        return query

    def _get(self, path: str, query: dict[str, object], options: dict[str, Any]) -> Any:
        if not self.server_tables(options):
            return self.client.request("GET", path, query=query)
        if options["sort_by"]:
            # get.go: sorting needs the whole object, not the Table's metadata
            query = {**query, "includeObject": "Object"}
        elif not (options["all_namespaces"] or options["label_columns"] or options["show_labels"]):
            # only the cells are shown: no metadata per row (kubectl asks for it anyway),
            # so a long listing holds cells, not objects
            query = {**query, "includeObject": "None"}
        from kubectl_crd.kube.client import TABLE_ACCEPT

        return self.client.request("GET", path, query=query, accept=TABLE_ACCEPT)

    def _pages(self, options: dict[str, Any]) -> Iterator[Any]:
        """kubectl's resource.Builder with ``RequestChunksOf``: pages joined by continue."""
        query = self.query(options)
        if options["chunk_size"]:
            query["limit"] = options["chunk_size"]
        while True:
            page = self._get(self.path, query, options)
            yield page
            token = ((page.get("metadata") or {}) if isinstance(page, dict) else {}).get("continue")
            if not token or not options["chunk_size"]:
                return
            query["continue"] = token

    def _collect(self, listing: _Listing, pages: Iterable[Any], options: dict[str, Any]) -> None:
        """Pages (Tables, lists or single objects) into the listing's rows or objects."""
        from kubectl_crd.model.columns import server_table

        for page in pages:
            if not isinstance(page, dict):
                continue
            listing.seen(page)
            if page.get("kind") == "Table":
                columns, rows = server_table(page)
                listing.columns = listing.columns or columns
                listing.rows.extend(rows)
            elif "items" in page:
                listing.objects.extend(page.get("items") or [])
            else:
                listing.objects.append(page)
        if self.crd_version is not None and options["output"] in ("", "wide"):
            from kubectl_crd.model.columns import plan_columns
            from kubectl_crd.output.table import computed_rows

            plan = plan_columns(self.crd_version.printer_columns)
            listing.columns, listing.problem = plan.columns, plan.problem
            listing.rows = list(computed_rows(plan, listing.objects))


def _watch(
    client: KubeClient, live: _Live, names: tuple[str, ...], options: dict[str, Any]
) -> None:
    """``-w``/``--watch-only``: the list (printed unless watch-only), then a watch from its
    resourceVersion, each event printed and flushed as it arrives (``get.go: watch``)."""
    from kubectl_crd.kube.client import TABLE_ACCEPT
    from kubectl_crd.model.columns import server_table

    query = live.query(options)
    if names:
        # get.go: a named watch is the collection's watch narrowed to that name
        query["fieldSelector"] = f"metadata.name={names[0]}"
    listing = live.read(names, options)
    if listing.failed:
        sys.exit(ExitCode.ERROR)
    resource_version = listing.resource_version
    printer = _WatchPrinter(live, options, listing)
    try:
        if not options["watch_only"]:
            printer.initial(listing)
        tables = live.server_tables(options)
        accept = TABLE_ACCEPT if tables else "application/json"
        watch_query = {**query, "resourceVersion": resource_version}
        for event in client.watch(live.path, query=watch_query, accept=accept):
            if event.type not in ("ADDED", "MODIFIED", "DELETED"):
                continue
            if tables:
                columns, rows = server_table(event.object)
                printer.rows(event.type, rows, columns)
            else:
                printer.object(event.type, event.object)
    finally:
        printer.close()


class _WatchPrinter:
    """Prints a watch's initial objects and events in the chosen output format."""

    def __init__(self, live: _Live, options: dict[str, Any], listing: _Listing) -> None:
        self._live = live
        self._options = options
        self._output: str = options["output"]
        self._events: bool = options["output_watch_events"]
        self._table: Any = None
        self._objects_printed = 0
        if listing.columns:
            self._table_for(listing.columns, listing)

    def _table_for(self, columns: tuple[TableColumn, ...], listing: _Listing) -> Any:
        if self._table is None:
            from kubectl_crd.output.table import WatchTable

            self._table = WatchTable(
                columns,
                _table_options(self._options, listing),
                sys.stdout,
                events=self._events,
                live=sys.stdout.isatty(),
            )
        return self._table

    def initial(self, listing: _Listing) -> None:
        if self._output in ("", "wide"):
            if listing.rows:
                self._table_for(listing.columns, listing).write(
                    [("ADDED", row) for row in listing.rows]
                )
            return
        for obj in listing.objects:
            self.object("ADDED", obj)

    def rows(self, event: str, rows: list[Row], columns: tuple[TableColumn, ...]) -> None:
        listing = _Listing(self._live.namespaced, self._live.qualified)
        self._table_for(columns, listing).write([(event, row) for row in rows])

    def object(self, event: str, obj: Any) -> None:
        if self._output in ("", "wide"):
            # --crd: the given CRD's columns computed here for each object
            from kubectl_crd.model.columns import plan_columns
            from kubectl_crd.output.table import computed_rows

            assert self._live.crd_version is not None
            plan = plan_columns(self._live.crd_version.printer_columns)
            self.rows(event, list(computed_rows(plan, [obj])), plan.columns)
            return
        sys.stdout.write(self._formatted(event, obj))
        sys.stdout.flush()
        self._objects_printed += 1

    def _formatted(self, event: str, obj: Any) -> str:
        if self._events and self._output in ("json", "yaml"):
            # kubectl prints metav1.WatchEvent: the object as the server sent it
            document = {"type": event, "object": obj}
            if self._output == "json":
                from kubectl_crd.output.objects import kubectl_json

                return kubectl_json(document, compact=True) + "\n"
            from kubectl_crd.output.objects import kubectl_yaml

            return ("---\n" if self._objects_printed else "") + kubectl_yaml(document)
        text = _formatted(self._output, self._live.qualified, [obj], single=True)
        if self._output == "yaml" and self._objects_printed:
            return "---\n" + text
        return text

    def close(self) -> None:
        if self._table is not None:
            self._table.close()
