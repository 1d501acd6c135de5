"""kubectl's human-readable table (``cli-runtime pkg/printers/tableprinter.go``).

The rows come from ``model.columns`` (the cells the API server computes); this module
decides which columns kubectl shows and how: headers upper-cased, priority > 0 columns
only with ``-o wide``, NAMESPACE first with ``-A``, ``-L`` label columns and LABELS with
``--show-labels`` last, and the spacing of Go's ``text/tabwriter`` with kubectl's
settings (``printers.GetNewTabWriter``: minwidth 6, tabwidth 4, padding 3, padded with
spaces, the last column never padded).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kubectl_crd.model.columns import cell_text, row_cells

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from datetime import datetime

    from kubectl_crd.model.columns import ColumnPlan
    from kubectl_crd.model.jsonpath import JSONPath

__all__ = [
    "TableOptions",
    "render_table",
    "sort_objects",
    "table_lines",
    "tabwriter",
]

_MIN_WIDTH = 6
_PADDING = 3


@dataclass(frozen=True)
class TableOptions:
    """kubectl get's flags that shape the table."""

    wide: bool = False
    all_namespaces: bool = False
    no_headers: bool = False
    show_labels: bool = False
    label_columns: tuple[str, ...] = field(default=())


def tabwriter(lines: Sequence[Sequence[str]]) -> str:
    """Go's ``text/tabwriter`` (``Writer.format``) over cells joined by tabs, lines by
    newlines: a cell's column is as wide as the widest cell of its column block (the run
    of adjacent lines that have a tab-terminated cell in that column) plus 3, at least 6;
    the last cell of a line is never padded. A newline inside a cell ends the line, as it
    does for kubectl (custom-columns prints multi-line values as they are)."""
    text = "".join("\t".join(line) + "\n" for line in lines)
    rows = [row.split("\t") for row in text.split("\n")[:-1]]
    out: list[str] = []
    _format_block(rows, 0, len(rows), [], out)
    return "".join(out)


def _format_block(
    rows: list[list[str]], start: int, end: int, widths: list[int], out: list[str]
) -> None:
    column = len(widths)
    written = start
    this = start
    while this < end:
        if column >= len(rows[this]) - 1:
            this += 1
            continue
        _write_rows(rows, written, this, widths, out)
        block_start = this
        width = _MIN_WIDTH
        while this < end and column < len(rows[this]) - 1:
            width = max(width, len(rows[this][column]) + _PADDING)
            this += 1
        _format_block(rows, block_start, this, [*widths, width], out)
        written = this
    _write_rows(rows, written, end, widths, out)


def _write_rows(
    rows: list[list[str]], start: int, end: int, widths: list[int], out: list[str]
) -> None:
    for row in rows[start:end]:
        for index, cell in enumerate(row):
            out.append(cell.ljust(widths[index]) if index < len(widths) else cell)
        out.append("\n")


def _label_header(key: str) -> str:
    """``-L a/b`` heads its column ``B`` (the part after the last slash, upper-cased)."""
    return key.rsplit("/", 1)[-1].upper()


def _labels(obj: Any) -> dict[str, str]:
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    labels = metadata.get("labels") if isinstance(metadata, dict) else None
    return {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}


def _namespace(obj: Any) -> str:
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    value = metadata.get("namespace", "") if isinstance(metadata, dict) else ""
    return value if isinstance(value, str) else ""


def table_lines(
    plan: ColumnPlan,
    objects: Iterable[Any],
    options: TableOptions,
    now: datetime | None = None,
) -> list[list[str]]:
    """The table as lines of cell texts, the header line first unless ``--no-headers``."""
    shown = [i for i, c in enumerate(plan.columns) if options.wide or c.priority == 0]
    lines: list[list[str]] = []
    for obj in objects:
        cells = row_cells(plan, obj, now)
        line = [cell_text(cells[i]) for i in shown]
        if options.all_namespaces:
            line.insert(0, _namespace(obj))
        labels = _labels(obj)
        line.extend(labels.get(key, "") for key in options.label_columns)
        if options.show_labels:
            text = ",".join(f"{k}={labels[k]}" for k in sorted(labels))
            line.append(text or "<none>")
        lines.append(line)
    if lines and not options.no_headers:
        header = [plan.columns[i].name.upper() for i in shown]
        if options.all_namespaces:
            header.insert(0, "NAMESPACE")
        header.extend(_label_header(key) for key in options.label_columns)
        if options.show_labels:
            header.append("LABELS")
        lines.insert(0, header)
    return lines


def render_table(
    plan: ColumnPlan,
    objects: Iterable[Any],
    options: TableOptions,
    now: datetime | None = None,
) -> str:
    """The text ``kubectl get`` prints for these objects (empty when there are none)."""
    return tabwriter(table_lines(plan, objects, options, now))


def _value_less(left: Any, right: Any) -> bool:
    """``isLess`` of kubectl's table sorter for the JSON kinds: strings bytewise (the
    real kubectl's table output puts ``r10`` before ``r4``; the differential test checks)."""
    if isinstance(left, str) and isinstance(right, str):
        return left.encode() < right.encode()
    if isinstance(left, bool) and isinstance(right, bool):
        return not left and right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left < right
    return False


def sort_objects(objects: Sequence[Any], path: JSONPath) -> list[Any]:
    """``--sort-by``: objects without a value first, then by the first value found
    (``TableSorter``; Go's sort is an insertion sort, stable, up to 12 rows)."""
    from functools import cmp_to_key

    keys: dict[int, tuple[bool, Any]] = {}
    for position, obj in enumerate(objects):
        keys[position] = path.first(obj)

    def compare(i: int, j: int) -> int:
        (found_i, value_i), (found_j, value_j) = keys[i], keys[j]
        if not found_i:
            return -1 if found_j else 0
        if not found_j:
            return 1
        if _value_less(value_i, value_j):
            return -1
        if _value_less(value_j, value_i):
            return 1
        return 0

    order = sorted(range(len(objects)), key=cmp_to_key(compare))
    return [objects[i] for i in order]
