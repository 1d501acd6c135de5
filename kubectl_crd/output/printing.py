"""One printer for objects, as ``kubectl get`` and ``kubectl scale`` write them.

As kubeconform's ``pkg/output`` (and ``output.validation`` for ``validate``): a command
builds one printer from its ``-o`` value, hands it every object or watch event with
``write`` and calls ``flush`` once at the end; no command formats an object itself.

- ``ObjectPrinter``: ``-o name|json|yaml|jsonpath=|custom-columns=`` (cli-runtime
  ``pkg/printers``: ``name.go``, ``json.go``, ``yaml.go``, ``jsonpath.go``,
  ``customcolumn.go``). A listing is gathered and printed at ``flush`` as kubectl
  prints a list (a ``v1`` ``List`` for json, yaml and jsonpath, one tab-aligned table
  for custom-columns; the object alone when one was named); streaming (a watch,
  ``scale``), each object is printed and flushed as it comes, yaml ones separated by
  ``---``, and with ``events`` a watch event is printed as kubectl prints a
  ``metav1.WatchEvent`` (``{"type", "object"}``) for json and yaml.
- ``Listing``: what a get shows (a table's rows, or the objects), from the server's
  pages or computed locally (``file_listing`` for ``-f``); ``print_listing`` prints it,
  the table with ``output.table``; ``listing_format`` reads get's shaping flags.
- ``WatchPrinter``: ``get -w``'s events, as table rows (``output.table.WatchTable``)
  or through an ``ObjectPrinter``.

Heavy pieces (the YAML emitter, JSONPath) are imported when a printer needs them.
"""

from __future__ import annotations

import json
import sys

from kubectl_crd.model.errors import UsageError
from kubectl_crd.model.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any, TextIO

    from kubectl_crd.kube.listing import ListingRead
    from kubectl_crd.model.columns import ColumnPlan, Row, TableColumn
    from kubectl_crd.model.jsonpath import JSONPath
    from kubectl_crd.output.table import TableOptions
    from kubectl_crd.validation.listing import FileListing

__all__ = [
    "Listing",
    "ListingFormat",
    "Named",
    "ObjectPrinter",
    "WatchPrinter",
    "compiled_jsonpath",
    "no_resources",
    "print_listing",
    "relaxed_jsonpath",
    "unknown_output",
]

#: ``-o`` values shown as a table rather than as objects.
TABLE_OUTPUTS = ("", "wide")


def unknown_output(output: str, allowed: str) -> str:
    """kubectl's words for an ``-o`` no printer takes (``printers: NoCompatiblePrinterError``)."""
    return (
        f'unable to match a printer suitable for the output format "{output}", allowed '
        f"formats are: {allowed}"
    )


def relaxed_jsonpath(expression: str) -> str:
    """kubectl's ``RelaxedJSONPathExpression``: ``spec.x`` or ``.spec.x`` as ``{.spec.x}``."""
    text = expression.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    if not text.startswith("."):
        text = "." + text
    return "{" + text + "}"


def compiled_jsonpath(template: str) -> JSONPath:
    """The template compiled as kubectl's printers compile it (missing keys allowed), or
    kubectl's usage error."""
    from kubectl_crd.model.jsonpath import JSONPath, JSONPathError

    try:
        return JSONPath(template, allow_missing_keys=True)
    except JSONPathError as exc:
        raise UsageError(f"error parsing jsonpath {template}, {exc}") from None


@record
class Named:
    """An object with the name ``-o name`` prints for it (``resource.group/name``), for a
    printer whose objects are not all of its one kind (``scale``'s Scales and objects)."""

    name: str
    object: Any


def _name(obj: Any) -> str:
    """``-o name``'s name: ``<unknown>`` for an object without one, as cli-runtime's
    ``NamePrinter`` (``pkg/printers/name.go``)."""
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    name = metadata.get("name", "") if isinstance(metadata, dict) else ""
    return name if isinstance(name, str) and name else "<unknown>"


def _group_kind(obj: Any, qualified: str) -> str:
    """``-o name``'s prefix: the object's own kind and group, lower-cased kind first
    (``printObj`` in cli-runtime's ``pkg/printers/name.go``), else ``qualified`` (the
    resource's, for an item that carries no kind)."""
    kind, api_version = obj.get("kind"), obj.get("apiVersion")
    if not (isinstance(kind, str) and kind and isinstance(api_version, str)):
        return qualified
    group = api_version.rpartition("/")[0]
    return f"{kind.lower()}.{group}" if group else kind.lower()


class ObjectPrinter:
    """``-o name|json|yaml|jsonpath=|custom-columns=``, each ``write`` an object, a
    ``Named`` object or (streaming) a watch event (anything with ``type`` and ``object``).

    ``qualified`` is the kind's ``singular.group`` that ``-o name`` prefixes; ``single``
    prints the one object of a listing alone rather than in a ``List``; ``streaming``
    prints each object at once; ``operation`` follows each name when no ``-o`` is given
    (kubectl's ``NamePrinter`` with an operation: ``foo.example.com/a scaled``);
    ``sort_by`` (``--sort-by``) orders a listing before it is printed; ``managed_fields``
    keeps ``metadata.managedFields``, which kubectl hides from what it read from a
    server (``--show-managed-fields``), in json and yaml.
    """

    def __init__(
        self,
        output: str,
        stream: TextIO,
        *,
        qualified: str = "",
        single: bool = False,
        streaming: bool = False,
        events: bool = False,
        operation: str = "",
        sort_by: str = "",
        managed_fields: bool = False,
    ) -> None:
        self._output = output
        self._managed_fields = managed_fields
        self._stream = stream
        self._qualified = qualified
        self._single = single
        self._streaming = streaming
        self._events = events and output in ("json", "yaml")
        self._operation = operation
        self._sort: JSONPath | None = None
        if sort_by:
            self._sort = compiled_jsonpath(relaxed_jsonpath(sort_by))
        self._objects: list[Any] = []
        self._printed = 0
        # a template is parsed once, when the printer is built (kubectl's ToPrinter)
        self._template: JSONPath | None = None
        self._columns: tuple[list[str], list[JSONPath]] = ([], [])
        if output.startswith("jsonpath="):
            self._template = compiled_jsonpath(output.removeprefix("jsonpath="))
        elif output.startswith("custom-columns="):
            self._columns = _custom_columns(output.removeprefix("custom-columns="))

    @property
    def printed(self) -> int:
        """How many objects were written."""
        return self._printed

    def write(self, item: Any) -> None:
        if isinstance(item, Named):
            name, obj, event = item.name, item.object, ""
        elif isinstance(item, dict):
            name, obj, event = f"{_group_kind(item, self._qualified)}/{_name(item)}", item, ""
        else:
            obj, event = item.object, item.type
            name = f"{_group_kind(obj, self._qualified)}/{_name(obj)}"
        self._printed += 1
        if self._output in ("", "name") and self._sort is None:
            # nothing to gather: a name is printed as it comes, as a page of a list is
            self._stream.write(self._name_line(name))
        elif self._streaming:
            self._stream.write(self._one(obj, event))
        else:
            self._objects.append((name, obj))
            return
        if self._streaming:
            self._stream.flush()

    def flush(self) -> None:
        entries = self._objects
        self._objects = []
        if entries:
            if self._sort is not None:
                from kubectl_crd.output.table import sort_objects

                entries = sort_objects(entries, self._sort, of=_second)
            self._stream.write(self._listing(entries))
        self._stream.flush()

    def _one(self, obj: Any, event: str) -> str:
        """One object, or one watch event, streamed."""
        separator = "---\n" if self._output == "yaml" and self._printed > 1 else ""
        if self._events:
            # kubectl prints metav1.WatchEvent: the object as the server sent it
            document = {"type": event, "object": obj}
            if self._output == "json":
                from kubectl_crd.output.objects import kubectl_json

                return kubectl_json(document, compact=True) + "\n"
            from kubectl_crd.output.objects import kubectl_yaml

            return separator + kubectl_yaml(document)
        return separator + self._formatted([obj], single=True)

    def _listing(self, entries: list[tuple[str, Any]]) -> str:
        if self._output in ("", "name"):
            return "".join(self._name_line(name) for name, _ in entries)
        return self._formatted([obj for _, obj in entries], single=self._single)

    def _name_line(self, name: str) -> str:
        """``-o name``'s line, or without ``-o`` the name and the operation."""
        if self._operation and not self._output:
            return f"{name} {self._operation}\n"
        return f"{name}\n"

    def _formatted(self, objects: list[Any], *, single: bool) -> str:
        """``-o json|yaml|jsonpath=|custom-columns=`` text of the objects."""
        if self._output.startswith("custom-columns="):
            return self._custom_columns_text(objects)
        from kubectl_crd.output.objects import kubectl_json, kubectl_yaml, without_managed_fields

        shown = objects if self._managed_fields else [without_managed_fields(o) for o in objects]
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
        if self._output == "json":
            return kubectl_json(document) + "\n"
        if self._output == "yaml":
            return kubectl_yaml(document)
        from kubectl_crd.model.jsonpath import print_results

        assert self._template is not None
        # kubectl's JSONPath printer sees the object through a JSON round trip:
        # every number is a float64 there (cli-runtime printers/jsonpath.go).
        data = json.loads(json.dumps(document), parse_int=float)
        return "".join(print_results(values) for values in self._template.find_results(data))

    def _custom_columns_text(self, objects: list[Any]) -> str:
        from kubectl_crd.model.govalues import go_print
        from kubectl_crd.output.table import tabwriter

        headers, paths = self._columns
        lines = [headers]
        for obj in objects:
            line = []
            for path in paths:
                values = [v for found in path.find_results(obj) for v in found]
                # cli-runtime printers/customcolumn.go: each value fmt.Sprint'ed, joined by ","
                line.append(",".join(go_print(v) for v in values) if values else "<none>")
            lines.append(line)
        return tabwriter(lines)


def _custom_columns(specification: str) -> tuple[list[str], list[JSONPath]]:
    """``custom-columns=HEADER:PATH,...``: the headers and their compiled paths."""
    headers: list[str] = []
    paths: list[JSONPath] = []
    for part in specification.split(","):
        header, sep, expression = part.partition(":")
        if not sep:
            raise UsageError(
                f"unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
            )
        headers.append(header)
        paths.append(compiled_jsonpath(relaxed_jsonpath(expression)))
    return headers, paths


def _second(pair: tuple[Any, Any]) -> Any:
    """A pair's second part: the object of a (name, object) entry or of a row."""
    return pair[1]


# -- kubectl get --------------------------------------------------------------------------


@record
class ListingFormat:
    """``kubectl get``'s flags that shape what it prints."""

    output: str = ""
    sort_by: str = ""
    all_namespaces: bool = False
    no_headers: bool = False
    show_labels: bool = False
    label_columns: tuple[str, ...] = ()
    watch_events: bool = False

    @property
    def table(self) -> bool:
        """Whether the output is a table (no ``-o``, or ``-o wide``)."""
        return self.output in TABLE_OUTPUTS

    def table_options(self, namespaced: bool) -> TableOptions:
        """The table's shape for a kind (a NAMESPACE column only for a namespaced one)."""
        from kubectl_crd.output.table import TableOptions

        return TableOptions(
            wide=self.output == "wide",
            all_namespaces=self.all_namespaces and namespaced,
            no_headers=self.no_headers,
            show_labels=self.show_labels,
            label_columns=self.label_columns,
        )


def listing_format(
    output: str,
    sort_by: str,
    label_columns: Iterable[str],
    *,
    all_namespaces: bool,
    no_headers: bool,
    show_labels: bool,
    watch_events: bool,
) -> ListingFormat:
    """``kubectl get``'s flags as a ``ListingFormat``: ``-o`` checked (before any
    request, in kubectl's words), ``-L`` keys split at commas."""
    known = ("", "wide", "name", "json", "yaml")
    if output not in known and not output.startswith(("jsonpath=", "custom-columns=")):
        raise UsageError(unknown_output(output, "custom-columns,json,jsonpath,name,wide,yaml"))
    labels = (k.strip() for keys in label_columns for k in keys.split(","))
    return ListingFormat(
        output=output,
        sort_by=sort_by or "",
        all_namespaces=all_namespaces,
        no_headers=no_headers,
        show_labels=show_labels,
        label_columns=tuple(k for k in labels if k),
        watch_events=watch_events,
    )


def file_listing(
    resource: str,
    names: Sequence[str],
    filenames: Sequence[str],
    crd_paths: Sequence[str],
    *,
    namespace: str | None,
    default_namespace: str | None,
    cluster: Any,
    keep_objects: bool,
    selector: str,
    err: TextIO,
) -> Listing:
    """``get -f``: the files' objects as the server would list them
    (``validation.listing``), those ``selector`` (``-l``) matches, the CRDs from
    ``--crd``, the files, else ``cluster`` (``sources.inputs``); each rejected object's
    errors on ``err``."""
    from kubectl_crd.io import input_documents, require_paths
    from kubectl_crd.output.validation import problem_lines
    from kubectl_crd.sources.inputs import InputCRDs
    from kubectl_crd.validation.listing import list_files

    require_paths(filenames)  # before the cluster is asked for the CRDs, as kubectl
    held = list(input_documents(filenames)) if "-" in filenames else None  # read once
    crds = InputCRDs(crd_paths, filenames, documents=held, cluster=cluster)
    found = list_files(
        crds.crds(),
        resource,
        filenames,
        held,
        names,
        namespace=namespace,
        default_namespace=default_namespace,
        keep_objects=keep_objects,
        selector=selector,
    )
    for result in found.rejected:
        print("\n".join(problem_lines(result)), file=err)
    return Listing.of_files(found)


class Listing:
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
        self.resource_version = ""  # where a watch after this listing starts

    @classmethod
    def of_files(cls, found: FileListing) -> Listing:
        """What ``validation.listing`` found in files: its rows (cells and, when kept,
        objects), failed when an object is rejected."""
        from kubectl_crd.kube.listing import qualified_name

        crd, plan = found.crd, found.plan
        return cls(
            crd.namespaced,
            qualified_name(crd.names.singular, crd.names.kind, crd.group),
            plan.columns,
            rows=found.rows,
            objects=[row[1] for row in found.rows],
            failed=bool(found.rejected),
            problem=plan.problem,
        )

    @property
    def empty(self) -> bool:
        return not self.rows and not self.objects

    def fill(
        self, read: ListingRead, plan: ColumnPlan | None = None, *, table: bool = False
    ) -> None:
        """The pages of a read from the cluster (``kube.listing``), failed when a name
        could not be read; rows computed from ``plan`` (``--crd``) when given. With
        ``table`` (a table is printed) objects that came instead of a Table get kubectl's
        default columns, NAME and AGE (``printObjectMeta``, the default handler of
        cli-runtime's ``pkg/printers/tableprinter.go``): a peer's list answer without
        ``items`` is such an object, as client-go decodes it."""
        self.failed = bool(read.errors)
        for page in read.pages:
            self.add_page(page)
        if plan is not None:
            self.compute_rows(plan)
        elif table and self.objects and not self.rows:
            from kubectl_crd.model.columns import date_cell, plan_columns

            # kubectl's own NAME and AGE (an age it cannot read is "<unknown>"), not the
            # cells of a server's default Table (where a missing timestamp is empty)
            self.columns = plan_columns(()).columns
            for obj in self.objects:
                metadata = obj.get("metadata") if isinstance(obj, dict) else None
                meta = metadata if isinstance(metadata, dict) else {}
                stamp = meta.get("creationTimestamp")
                name = meta.get("name")
                self.rows.append(
                    (
                        [
                            name if isinstance(name, str) else "",
                            date_cell(stamp if isinstance(stamp, str) else ""),
                        ],
                        obj,
                    )
                )

    def add_page(self, page: Any) -> None:
        """A page the server answered: a Table, a list or a single object."""
        from kubectl_crd.model.columns import server_table

        if not isinstance(page, dict):
            return
        metadata = page.get("metadata")
        if isinstance(metadata, dict) and metadata.get("resourceVersion"):
            self.resource_version = str(metadata["resourceVersion"])
        if page.get("kind") == "Table":
            columns, rows = server_table(page)
            self.columns = self.columns or columns
            self.rows.extend(rows)
        elif "items" in page:
            self.objects.extend(page.get("items") or [])
        else:
            self.objects.append(page)

    def compute_rows(self, plan: ColumnPlan) -> None:
        """The table computed here from the objects (a CRD's columns, ``--crd``)."""
        from kubectl_crd.output.table import computed_rows

        self.columns, self.problem = plan.columns, plan.problem
        self.rows = list(computed_rows(plan, self.objects))


def no_resources(namespace: str | None, all_namespaces: bool, namespaced: bool) -> str:
    """What kubectl get says on stderr when nothing matched (``get.go``)."""
    if all_namespaces or not namespaced:
        return "No resources found"
    return f"No resources found in {namespace or 'default'} namespace."


def print_listing(
    listing: Listing,
    settings: ListingFormat,
    *,
    namespace: str | None,
    single: bool,
    stream: TextIO | None = None,
    err: TextIO | None = None,
) -> None:
    """The listing as ``kubectl get`` prints it: its table or its objects on ``stream``,
    "No resources found" or a column's problem on ``err``."""
    out = stream or sys.stdout
    errors = err or sys.stderr
    if listing.empty:
        if not listing.failed:
            print(no_resources(namespace, settings.all_namespaces, listing.namespaced), file=errors)
        return
    if listing.problem:
        print(f"warning: {listing.problem}", file=errors)
    if settings.table:
        from kubectl_crd.output.table import render_rows, sort_objects

        rows = listing.rows
        if settings.sort_by:
            path = compiled_jsonpath(relaxed_jsonpath(settings.sort_by))
            rows = sort_objects(rows, path, of=_second)
        out.write(render_rows(listing.columns, rows, settings.table_options(listing.namespaced)))
        return
    printer = ObjectPrinter(
        settings.output, out, qualified=listing.qualified, single=single, sort_by=settings.sort_by
    )
    for obj in listing.objects:
        printer.write(obj)
    printer.flush()


class WatchPrinter:
    """``kubectl get -w``: the listing's objects as ADDED, then each event as it comes,
    as table rows (the server's Table, or a CRD's columns computed here: ``plan``) or
    through an ``ObjectPrinter``; written and flushed at once."""

    def __init__(
        self,
        listing: Listing,
        settings: ListingFormat,
        stream: TextIO,
        *,
        plan: ColumnPlan | None = None,
        live: bool | None = None,
    ) -> None:
        self._settings = settings
        self._namespaced = listing.namespaced
        self._stream = stream
        self._plan = plan
        self._live = stream.isatty() if live is None else live
        self._table: Any = None
        self._objects = ObjectPrinter(
            settings.output,
            stream,
            qualified=listing.qualified,
            streaming=True,
            events=settings.watch_events,
        )
        if listing.columns:
            self._table_for(listing.columns)

    def _table_for(self, columns: tuple[TableColumn, ...]) -> Any:
        if self._table is None:
            from kubectl_crd.output.table import WatchTable

            self._table = WatchTable(
                columns,
                self._settings.table_options(self._namespaced),
                self._stream,
                events=self._settings.watch_events,
                live=self._live,
            )
        return self._table

    def initial(self, listing: Listing) -> None:
        """The listing, as ADDED events."""
        if self._settings.table:
            if listing.rows:
                self._table_for(listing.columns).write([("ADDED", row) for row in listing.rows])
            return
        for obj in listing.objects:
            self.write(_Event("ADDED", obj))

    def write(self, event: Any) -> None:
        """One watch event (anything with ``type`` and ``object``): a server Table's
        rows, an object's row computed with ``plan``, or the object printed; bookmarks
        and other types are not printed (``get.go`` prints added, modified, deleted)."""
        if event.type not in ("ADDED", "MODIFIED", "DELETED"):
            return
        if not self._settings.table:
            self._objects.write(event)
            return
        obj = event.object
        if isinstance(obj, dict) and obj.get("kind") == "Table":
            from kubectl_crd.model.columns import server_table

            columns, rows = server_table(obj)
        else:
            from kubectl_crd.output.table import computed_rows

            assert self._plan is not None, "a table of objects needs the CRD's columns"
            columns, rows = self._plan.columns, list(computed_rows(self._plan, [obj]))
        self._table_for(columns).write([(event.type, row) for row in rows])

    def flush(self) -> None:
        """The end of the watch (a terminal's live table stops redrawing)."""
        if self._table is not None:
            self._table.close()
            self._table = None

    def follow(self, watch: Callable[[], Iterable[Any]], initial: Listing | None = None) -> None:
        """``initial`` (a listing, unless ``--watch-only``) as ADDED, then each event of
        ``watch()`` (opened after it) as it arrives, until the events end; flushed
        however they end (``get.go: watch``)."""
        try:
            if initial is not None:
                self.initial(initial)
            for event in watch():
                self.write(event)
        finally:
            self.flush()


def stream_names(objects: Iterable[Any], qualified: str, stream: TextIO) -> bool:
    """``-o name`` of a list read page by page: each name printed as it comes, so a long
    listing never holds its objects; whether any was."""
    printer = ObjectPrinter("name", stream, qualified=qualified)
    for obj in objects:
        printer.write(obj)
    printer.flush()
    return bool(printer.printed)


class _Event:
    __slots__ = ("object", "type")

    def __init__(self, type: str, object: Any) -> None:
        self.type = type
        self.object = object
