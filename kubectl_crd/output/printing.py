"""One printer for objects, as ``kubectl get`` and ``kubectl scale`` write them.

As kubeconform's ``pkg/output`` (and ``output.validation`` for ``validate``): a command
builds one printer from its ``-o`` value, hands it every object or watch event with
``write`` and calls ``flush`` once at the end; no command formats an object itself.

- ``ObjectPrinter``: ``-o name|json|yaml``, ``jsonpath=``, ``jsonpath-as-json=``,
  ``go-template=`` and ``custom-columns=`` (cli-runtime ``pkg/printers``: ``name.go``,
  ``json.go``, ``yaml.go``, ``jsonpath.go``, ``template.go``, kubectl's
  ``customcolumn.go``; Go templates run by ``model.gotemplate``). A listing is gathered and printed at ``flush`` as kubectl
  prints a list (a ``v1`` ``List`` for json, yaml and jsonpath, one tab-aligned table
  for custom-columns; the object alone when one was named); streaming (a watch,
  ``scale``), each object is printed and flushed as it comes, yaml ones separated by
  ``---``, and with ``events`` a watch event is printed as kubectl prints a
  ``metav1.WatchEvent`` (``{"type", "object"}``) for json and yaml.
- ``Listing``: what a get shows (a table's rows, or the objects), from the server's
  pages or computed locally (``file_listing`` for ``-f``); ``print_listing`` prints it,
  the table with ``output.table``; ``listing_format`` reads get's shaping flags.
- ``resolve_output``: ``-o`` with ``--template`` and ``--allow-missing-template-keys``
  read as kubectl's ``PrintFlags.ToPrinter`` reads them (``template=``, the ``-file``
  formats, a template given by ``--template``), before any request, into an
  ``OutputFormat`` every printer takes.
- ``WatchPrinter``: ``get -w``'s events, as table rows (``output.table.WatchTable``)
  or through an ``ObjectPrinter``.

Heavy pieces (the YAML emitter, JSONPath) are imported when a printer needs them.
"""

from __future__ import annotations

import sys

from kubectl_crd.model.errors import KubectlCrdError, UsageError
from kubectl_crd.model.gostrconv import write_go_text
from kubectl_crd.model.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any, TextIO

    from kubectl_crd.kube.listing import ListingRead
    from kubectl_crd.model.columns import ColumnPlan, Row, TableColumn
    from kubectl_crd.model.gotemplate import Template as GoTemplate
    from kubectl_crd.model.jsonpath import JSONPath
    from kubectl_crd.output.table import TableOptions
    from kubectl_crd.validation.listing import FileListing

__all__ = [
    "Listing",
    "ListingFormat",
    "Named",
    "ObjectPrinter",
    "OutputFormat",
    "WatchPrinter",
    "compiled_jsonpath",
    "no_resources",
    "print_listing",
    "relaxed_jsonpath",
    "resolve_output",
    "unknown_output",
]

#: ``-o`` values shown as a table rather than as objects.
TABLE_OUTPUTS = ("", "wide")

#: kubectl's template formats (cli-runtime ``genericclioptions/template_flags.go``), its
#: JSONPath ones (``jsonpath_flags.go``) and get's columns (kubectl ``get/customcolumn_flags.go``)
GO_TEMPLATE_FORMATS = ("go-template", "go-template-file", "template", "templatefile")
JSONPATH_FORMATS = ("jsonpath", "jsonpath-as-json", "jsonpath-file")
COLUMNS_FORMATS = ("custom-columns", "custom-columns-file")
#: the printers' kinds of a template (``OutputFormat.kind``)
_TEMPLATE_KINDS = ("go-template", "jsonpath", "jsonpath-as-json")
#: every ``-o`` of ``kubectl scale`` (its printer: json, yaml, name and the templates)
SCALE_FORMATS = ("", "name", "json", "yaml", *GO_TEMPLATE_FORMATS, *JSONPATH_FORMATS)
#: every ``-o`` of ``kubectl get`` (the table's too)
GET_FORMATS = (*SCALE_FORMATS, "wide", *COLUMNS_FORMATS)


class OutputFormat(str):
    """An ``-o`` value as the printers take it: ``name``, ``json``, ``yaml``, ``wide``,
    ``""``, or ``KIND=TEXT`` with ``KIND`` one of ``go-template``, ``jsonpath``,
    ``jsonpath-as-json`` and ``custom-columns`` (a ``-file`` format read, ``template=``
    named ``go-template=``); it carries ``--allow-missing-template-keys`` and, for a
    ``custom-columns-file``, its columns. A ``str``, so code that only asks which
    format it is (``output.scaling``) reads it as the plain value."""

    allow_missing_keys: bool
    file_columns: tuple[tuple[str, str], ...] | None

    def __new__(
        cls,
        value: str,
        allow_missing_keys: bool = True,
        file_columns: tuple[tuple[str, str], ...] | None = None,
    ) -> OutputFormat:
        made = super().__new__(cls, value)
        made.allow_missing_keys = allow_missing_keys
        made.file_columns = file_columns
        return made

    @property
    def kind(self) -> str:
        """The format: the part before ``=``."""
        return self.partition("=")[0]

    @property
    def text(self) -> str:
        """A template's text, or custom columns' spec: the part after ``=``."""
        return self.partition("=")[2]


def resolve_output(
    output: str,
    formats: Sequence[str],
    *,
    template: str = "",
    allow_missing_keys: bool = True,
) -> OutputFormat:
    """``-o`` (one of ``formats``) with ``--template`` read as kubectl's
    ``PrintFlags.ToPrinter`` reads them: a ``--template`` without ``-o`` is a
    go-template, and with one names its template; a ``-file`` format reads its file; the
    template is parsed now, so a bad one fails before any request, in kubectl's words."""
    if template and not output:
        output = "go-template"
    kind, value = output, template
    for name in (*GO_TEMPLATE_FORMATS, *JSONPATH_FORMATS, *COLUMNS_FORMATS):
        if not template and output.startswith(name + "="):
            kind, value = name, output[len(name) + 1 :]
            break
    if kind not in formats:
        allowed = ",".join(sorted(f for f in formats if f))
        raise UsageError(unknown_output(output, allowed))
    if kind in COLUMNS_FORMATS:
        if not value:
            raise KubectlCrdError("custom-columns format specified but no custom columns given")
        if kind == "custom-columns":
            _custom_columns(value)
            return OutputFormat("custom-columns=" + value, allow_missing_keys)
        columns = _file_columns(value)
        return OutputFormat("custom-columns=", allow_missing_keys, file_columns=columns)
    if kind not in GO_TEMPLATE_FORMATS and kind not in JSONPATH_FORMATS:
        return OutputFormat(kind, allow_missing_keys)
    if not value:
        raise KubectlCrdError("template format specified but no template given")
    if kind.endswith("file"):
        value = _template_file(value, "error reading --template")
    if kind in GO_TEMPLATE_FORMATS:
        _go_template(value)
        return OutputFormat("go-template=" + value, allow_missing_keys)
    compiled_jsonpath(value)
    json_output = kind == "jsonpath-as-json"
    return OutputFormat(
        ("jsonpath-as-json=" if json_output else "jsonpath=") + value, allow_missing_keys
    )


def _template_file(path: str, what: str) -> str:
    """A template file's text, or kubectl's error (Go's ``*PathError`` words). Its bytes
    as ``os.ReadFile`` gives them: no line ending translated (a ``\\r`` is printed as
    it is), a byte that is not UTF-8 kept (``model.gostrconv``)."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as file:
            return file.read()
    except IsADirectoryError:
        raise KubectlCrdError(f"{what} {path}, read {path}: is a directory") from None
    except OSError as exc:
        reason = (exc.strerror or str(exc)).lower()
        raise KubectlCrdError(f"{what} {path}, open {path}: {reason}") from None


def _file_columns(path: str) -> tuple[tuple[str, str], ...]:
    """``custom-columns-file``: a line of headers, a line of specs (kubectl's
    ``NewCustomColumnsPrinterFromTemplate``)."""
    lines = _template_file(path, "error reading template").splitlines()
    usage = "Expected format is one line of space separated headers, one line of space separated column specs."
    if not lines:
        raise KubectlCrdError(f"invalid template, missing header line. {usage}")
    if len(lines) < 2:
        raise KubectlCrdError(f"invalid template, missing spec line. {usage}")
    headers, specs = lines[0].split(), lines[1].split()
    if len(headers) != len(specs):
        raise KubectlCrdError(
            f"number of headers ({len(headers)}) and field specifications ({len(specs)}) don't match"
        )
    for spec in specs:
        compiled_jsonpath(relaxed_jsonpath(spec))
    return tuple(zip(headers, specs, strict=True))


def _go_template(text: str) -> GoTemplate:
    """The template parsed as kubectl's printer parses it, or kubectl's error."""
    from kubectl_crd.model.gotemplate import Template, TemplateError

    try:
        return Template(text)
    except TemplateError as exc:
        raise KubectlCrdError(f"error parsing template {text}, {exc}") from None


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


def compiled_jsonpath(template: str, *, allow_missing_keys: bool = True) -> JSONPath:
    """The template compiled as kubectl's printers compile it (missing keys allowed
    unless ``--allow-missing-template-keys=false``), or kubectl's usage error."""
    from kubectl_crd.model.jsonpath import JSONPath, JSONPathError

    try:
        return JSONPath(template, allow_missing_keys=allow_missing_keys)
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
        no_headers: bool = False,
    ) -> None:
        spec = output if isinstance(output, OutputFormat) else OutputFormat(output)
        self._output = spec.kind  # "", name, json, yaml, go-template, jsonpath, ...
        self._managed_fields = managed_fields
        self._stream = stream
        self._qualified = qualified
        self._single = single
        self._streaming = streaming
        # get.go prints a metav1.WatchEvent through any object printer
        self._events = events and spec.kind in ("json", "yaml", *_TEMPLATE_KINDS)
        self._operation = operation
        self._sort: JSONPath | None = None
        if sort_by:
            self._sort = compiled_jsonpath(relaxed_jsonpath(sort_by))
        self._objects: list[Any] = []
        self._printed = 0
        # a template is parsed once, when the printer is built (kubectl's ToPrinter)
        self._text = spec.text
        self._allow_missing = spec.allow_missing_keys
        self._template: JSONPath | None = None
        self._go_template: GoTemplate | None = None
        self._columns: tuple[list[str], list[JSONPath]] = ([], [])
        # kubectl's custom-columns-file printer is built without --no-headers
        # (get/customcolumn_flags.go), its custom-columns= one with it
        self._no_headers = no_headers and spec.file_columns is None
        if self._output in ("jsonpath", "jsonpath-as-json"):
            self._template = compiled_jsonpath(self._text, allow_missing_keys=self._allow_missing)
        elif self._output == "go-template":
            self._go_template = _go_template(self._text)
        elif spec.file_columns is not None:
            self._columns = (
                [header for header, _ in spec.file_columns],
                [compiled_jsonpath(relaxed_jsonpath(path)) for _, path in spec.file_columns],
            )
        elif self._output == "custom-columns":
            self._columns = _custom_columns(self._text)

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
            self._put(self._one(obj, event))
        else:
            self._objects.append((name, obj))
            return
        if self._streaming:
            self._stream.flush()

    def flush(self, *, empty_list: bool = False) -> None:
        """Print what was gathered; with ``empty_list``, an empty listing too (an empty
        ``List``, custom columns' header; nothing for names)."""
        entries = self._objects
        self._objects = []
        if entries or (empty_list and not self._printed and self._output not in ("", "name")):
            if self._sort is not None:
                from kubectl_crd.output.table import sort_objects

                entries = sort_objects(entries, self._sort, of=_second)
            self._put(self._listing(entries))
        self._stream.flush()

    def _put(self, text: str) -> None:
        """Write what ``_one`` or ``_listing`` made: a template's text as its bytes."""
        if self._go_template is not None:
            write_go_text(self._stream, text)
        else:
            self._stream.write(text)

    def _one(self, obj: Any, event: str) -> str:
        """One object, or one watch event, streamed."""
        separator = "---\n" if self._output == "yaml" and self._printed > 1 else ""
        if self._events:
            # kubectl prints metav1.WatchEvent: the object as the server sent it
            document = {"type": event, "object": obj}
            if self._output == "json":
                from kubectl_crd.output.objects import kubectl_json

                return kubectl_json(document, compact=True) + "\n"
            if self._output == "yaml":
                from kubectl_crd.output.objects import kubectl_yaml

                return separator + kubectl_yaml(document)
            return self._formatted([document], single=True)
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
        if self._output == "custom-columns":
            return self._custom_columns_text(objects)
        if self._output == "go-template":
            return self._go_template_text(objects[0] if single else _list_of(objects))
        if self._output not in ("json", "yaml"):
            # kubectl hides managedFields from json and yaml only: its JSONPath printer
            # sees them, as its template printer does
            return self._jsonpath_text(objects[0] if single else _list_of(objects))
        from kubectl_crd.output.objects import kubectl_json, kubectl_yaml, without_managed_fields

        shown = objects if self._managed_fields else [without_managed_fields(o) for o in objects]
        document: Any = shown[0] if single else _list_of(shown)
        if self._output == "json":
            return kubectl_json(document) + "\n"
        return kubectl_yaml(document)

    def _jsonpath_text(self, document: Any) -> str:
        """``-o jsonpath=`` (``jsonpath-as-json=``: each result list as indented JSON)
        of the object or list (cli-runtime ``printers/jsonpath.go``)."""
        from kubectl_crd.model.jsonpath import JSONPathError, print_results

        assert self._template is not None
        as_json = self._output == "jsonpath-as-json"
        # kubectl's JSONPath printer reads an unstructured object's content as decoded,
        # whole numbers int64 (cli-runtime printers/jsonpath.go: only other objects go
        # through a JSON round trip); 12345678901 is not 1.2345678901e+10
        try:
            results = self._template.find_results(document)
        except JSONPathError as exc:
            from kubectl_crd.model.gotemplate import go_sharp_v
            from kubectl_crd.model.govalues import go_quote

            # Errorf("error executing jsonpath %q: %v\n", ...) of a text ending in a blank
            # line; the last newline is the one the error line gets
            raise KubectlCrdError(
                f"error executing jsonpath {go_quote(self._text)}: Error executing template: "
                f"{exc}. Printing more information for debugging the template:\n"
                f"\ttemplate was:\n\t\t{self._text}\n"
                f"\tobject given to jsonpath engine was:\n\t\t{go_sharp_v(document)}\n\n"
            ) from None
        if as_json:
            from kubectl_crd.output.objects import kubectl_json

            return "".join(kubectl_json(values) + "\n" for values in results)
        return "".join(print_results(values) for values in results)

    def _go_template_text(self, document: Any) -> str:
        """``-o go-template=`` of the object or list (cli-runtime
        ``printers/template.go``): it sees the object through kubectl's JSON round trip
        (whole numbers int64, others float64); when it fails, what it wrote and the
        debugging text go to stdout before kubectl's error."""
        from kubectl_crd.model.gotemplate import ExecError, debug_object
        from kubectl_crd.model.govalues import as_kubectl_decodes, go_quote

        assert self._go_template is not None
        data = as_kubectl_decodes(document)
        try:
            return self._go_template.execute(data, missing_key_error=not self._allow_missing)
        except ExecError as exc:
            raw, shown = debug_object(data)
            write_go_text(
                self._stream,
                f"{exc.partial}Error executing template: {exc}. Printing more information "
                "for debugging the template:\n"
                f"\ttemplate was:\n\t\t{self._text}\n"
                f"\traw data was:\n\t\t{raw}\n"
                f"\tobject given to template engine was:\n\t\t{shown}\n\n",
            )
            self._stream.flush()
            raise KubectlCrdError(
                f"error executing template {go_quote(self._text)}: {exc}"
            ) from None

    def _custom_columns_text(self, objects: list[Any]) -> str:
        from kubectl_crd.model.govalues import go_print
        from kubectl_crd.output.table import tabwriter

        headers, paths = self._columns
        lines = [] if self._no_headers else [headers]
        for obj in objects:
            line = []
            for path in paths:
                values = [v for found in path.find_results(obj) for v in found]
                # cli-runtime printers/customcolumn.go: each value fmt.Sprint'ed, joined by ","
                line.append(",".join(go_print(v) for v in values) if values else "<none>")
            lines.append(line)
        return tabwriter(lines)


def _list_of(objects: list[Any]) -> dict[str, Any]:
    """The ``v1`` ``List`` kubectl prints a listing as (``get.go``)."""
    return {
        "apiVersion": "v1",
        "items": objects,
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    }


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
    template: str = "",
    allow_missing_keys: bool = True,
) -> ListingFormat:
    """``kubectl get``'s flags as a ``ListingFormat``: ``-o`` resolved (before any
    request, in kubectl's words: ``resolve_output``), ``-L`` keys split at commas."""
    output = resolve_output(
        output, GET_FORMATS, template=template, allow_missing_keys=allow_missing_keys
    )
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
    "No resources found" (a table's) or a column's problem on ``err``. Objects are
    printed as ``get.go printGeneric`` prints them: a listing that found nothing is an
    empty ``List`` (nothing for ``-o name``, custom columns' header), one named object
    that could not be read nothing (its error says why)."""
    out = stream or sys.stdout
    errors = err or sys.stderr
    if listing.empty and (settings.table or single):
        if settings.table and not listing.failed:
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
        settings.output,
        out,
        qualified=listing.qualified,
        single=single,
        sort_by=settings.sort_by,
        no_headers=settings.no_headers,
    )
    for obj in listing.objects:
        printer.write(obj)
    printer.flush(empty_list=True)


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
