"""The API server's Table for custom resources, as pure code.

Mirrors ``apiextensions-apiserver pkg/registry/customresource/tableconvertor/
tableconvertor.go`` (the cells the server sends for ``kubectl get``) and
``apimachinery pkg/api/meta/table`` (dates as ages, computed server-side at request time):

- column 0 is ``Name`` (format ``name``), the object's ``metadata.name``;
- the version's ``additionalPrinterColumns``, or the default ``Age`` column
  (``.metadata.creationTimestamp``, type ``date``) only when the version defines none;
- each path compiled as ``"{" + jsonPath + "}"`` with missing keys allowed; a path that
  does not parse stops the list there (the server logs "invalid printer specification,
  falling back to default printing" and keeps the columns before it);
- only the first value found is used; a failed lookup, no value, or an empty first
  result is a nil cell.

``cell_text`` is the other side: how kubectl's table printer writes a cell it decoded from
the server's JSON; ``server_table`` reads such a Table (what live ``kubectl crd get``
asks the server for, as kubectl does). The JSONPath module is imported only where a
path is compiled: a live table needs none. The Go-value and duration modules, light
(stdlib only, ``typing`` not even), are imported with this one: a cell is formatted
per object, and an import statement there cost 2 of the 4 us a CronTab's row took.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from kubectl_crd.model.durations import human_duration
from kubectl_crd.model.gostrconv import go_quote
from kubectl_crd.model.gotime import unix_nanoseconds
from kubectl_crd.model.govalues import go_float_v, go_json, go_print
from kubectl_crd.model.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from kubectl_crd.model.crd import PrinterColumn
    from kubectl_crd.model.jsonpath import JSONPath

    #: a table row: its cells and the object it shows (what labels, namespace and
    #: ``--sort-by`` read; only the metadata in a server Table without ``includeObject``)
    Row = tuple[list["Cell"], Any]

__all__ = [
    "Cell",
    "ColumnPlan",
    "Row",
    "TableColumn",
    "cell_text",
    "plan_columns",
    "row_cells",
    "server_table",
]

Cell = str | int | float | bool | None

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


@record
class TableColumn:
    """One ``columnDefinitions`` entry of the server's Table."""

    name: str
    type: str
    format: str = ""
    description: str = ""
    priority: int = 0


@record
class ColumnPlan:
    """The Table's columns and the compiled path of each column after NAME."""

    columns: tuple[TableColumn, ...]
    paths: tuple[JSONPath, ...]
    problem: str | None = None  # the server's complaint about a column it could not compile


_NAME = TableColumn("Name", "string", "name", "Name must be unique within a namespace.")
_DEFAULT_AGE: tuple[tuple[str, str, str, str, int], ...] = (
    ("Age", "date", ".metadata.creationTimestamp", "", 0),
)


def plan_columns(printer_columns: Sequence[PrinterColumn]) -> ColumnPlan:
    """``tableconvertor.New`` for one version's ``additionalPrinterColumns``."""
    from kubectl_crd.model.jsonpath import JSONPath, JSONPathError

    specs = [(c.name, c.type, c.json_path, c.format, c.priority) for c in printer_columns]
    if not specs:
        specs = [(n, t, p, f, prio) for n, t, p, f, prio in _DEFAULT_AGE]
    columns = [_NAME]
    paths: list[JSONPath] = []
    descriptions = {c.name: c.description for c in printer_columns}
    for name, kind, path, fmt, priority in specs:
        try:
            compiled = JSONPath("{" + path + "}", allow_missing_keys=True)
        except JSONPathError:
            return ColumnPlan(
                tuple(columns),
                tuple(paths),
                f"unrecognized column definition {go_quote(path)}",
            )
        columns.append(TableColumn(name, kind, fmt, descriptions.get(name, ""), priority))
        paths.append(compiled)
    return ColumnPlan(tuple(columns), tuple(paths))


def row_cells(plan: ColumnPlan, obj: Any, now: datetime | None = None) -> list[Cell]:
    """One Table row: the cells the API server computes for ``obj`` at ``now``."""
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    name = metadata.get("name", "") if isinstance(metadata, dict) else ""
    cells: list[Cell] = [name if isinstance(name, str) else ""]
    for column, path in zip(plan.columns[1:], plan.paths, strict=True):
        found, value = path.first(obj)
        if not found:
            cells.append(None)
        elif column.type == "string":
            cells.append("<no value>" if value is None else _string_cell(value))
        else:
            cells.append(_typed_cell(column.type, value, now))
    return cells


def _string_cell(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return go_json(value)
    return go_print(value)


def _typed_cell(kind: str, value: Any, now: datetime | None) -> Cell:
    """``cellForJSONValue``."""
    if kind == "integer":
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value
        if isinstance(value, float):
            return int(value) if value == value and abs(value) < 2**63 else _INT64_MIN
        return None
    if kind == "number":
        if isinstance(value, bool):
            return None
        if isinstance(value, (int, float)):
            return float(value)
        return None
    if kind == "boolean":
        return value if isinstance(value, bool) else None
    if kind == "date":
        if not isinstance(value, str):
            return None
        return date_cell(value, now)
    return None


def date_cell(value: str, now: datetime | None = None) -> str:
    """A ``date`` cell: ``metav1.Time.UnmarshalQueryParameter`` then
    ``ConvertToHumanReadableDateType`` (``""``/``"null"`` is the zero time: ``<unknown>``)."""
    if value in ("", "null"):
        return "<unknown>"
    instant = unix_nanoseconds(value)
    if instant is None:
        return "<invalid>"
    since_epoch = (now if now is not None else datetime.now(UTC)) - _EPOCH
    now_nanoseconds = (
        since_epoch.days * 86_400 + since_epoch.seconds
    ) * 1_000_000_000 + since_epoch.microseconds * 1000
    return human_duration(now_nanoseconds - instant)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def cell_text(cell: Cell) -> str:
    """How kubectl prints a cell it decoded from the Table's JSON (``tableprinter.go``):
    nil empty, strings cut at the first line break with ``...``, whole numbers that fit
    an int64 as integers (JSON decoding gives int64), other floats as ``%v``."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return _first_line(cell)
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, int):
        return str(cell)
    encoded = go_json(cell)
    if re.fullmatch(r"-?\d+", encoded) and _INT64_MIN <= int(encoded) <= _INT64_MAX:
        return encoded
    return go_float_v(float(encoded))


def _first_line(text: str) -> str:
    """``printers.multilineString`` style cut: the text up to ``\\f``, ``\\n`` or ``\\r``,
    followed by ``...``."""
    if "\n" not in text and "\r" not in text and "\f" not in text:
        return text  # the usual cell, without a regex search
    found = _LINE_BREAK.search(text)
    return text if found is None else text[: found.start()] + "..."


_LINE_BREAK = re.compile(r"[\f\n\r]")


def server_table(document: Any) -> tuple[tuple[TableColumn, ...], list[Row]]:
    """A ``meta.k8s.io/v1`` Table as the server sent it: its column definitions and its
    rows (cells as JSON decoded them: whole numbers int, others float, as kubectl's
    decoder gives int64 and float64), each with its ``object`` (``{}`` when absent)."""
    if not isinstance(document, dict):
        return (), []
    columns = tuple(
        TableColumn(
            str(c.get("name", "")),
            str(c.get("type", "")),
            str(c.get("format", "")),
            str(c.get("description", "")),
            int(c.get("priority") or 0),
        )
        for c in document.get("columnDefinitions") or ()
        if isinstance(c, dict)
    )
    rows: list[Row] = []
    for row in document.get("rows") or ():
        if isinstance(row, dict):
            cells = [
                c if isinstance(c, (str, int, float, bool)) else None
                for c in row.get("cells") or ()
            ]
            obj = row.get("object")
            rows.append((cells, obj if isinstance(obj, dict) else {}))
    return columns, rows
