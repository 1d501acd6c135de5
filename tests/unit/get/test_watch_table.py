"""The watch table: kubectl's remembered column widths, its EVENT column, a server Table."""

from __future__ import annotations

import io

from kubectl_crd.model.columns import TableColumn, server_table
from kubectl_crd.output.table import TableOptions, TabWriter, WatchTable, tabwriter

COLUMNS = (TableColumn("Name", "string", "name"), TableColumn("Replicas", "integer"))


def row(name: str, replicas: int) -> tuple[list[object], dict[str, object]]:
    return [name, replicas], {"metadata": {"name": name, "namespace": "ns"}}


def test_a_tab_writer_never_narrows_a_column_it_has_written() -> None:
    writer = TabWriter()
    assert writer.format([["NAME", "AGE"], ["a", "1s"]]) == "NAME   AGE\na      1s\n"
    # the next flush keeps NAME's width, then widens it for a longer cell, and keeps that
    assert writer.format([["b", "2s"]]) == "b      2s\n"
    assert writer.format([["a-long-name", "3s"]]) == "a-long-name   3s\n"
    assert writer.format([["c", "4s"]]) == "c             4s\n"
    # a fresh writer (one kubectl get) starts again from the cells
    assert tabwriter([["c", "4s"]]) == "c     4s\n"  # min width 6


def test_remembered_widths_apply_between_blocks_of_one_flush() -> None:
    # a line with one cell ends the column block; the next block keeps the widest so far
    lines = [["a-long-cell", "x"], ["alone"], ["b", "y"]]
    assert TabWriter().format(lines) == "a-long-cell   x\nalone\nb             y\n"


def test_piped_watch_rows_follow_the_header_widths_and_pad_events() -> None:
    stream = io.StringIO()
    table = WatchTable(COLUMNS, TableOptions(), stream, events=True)
    table.write([("ADDED", row("a", 1))])
    table.write([("MODIFIED", row("a-much-longer-name", 2))])
    table.write([("DELETED", row("a", 2))])
    assert stream.getvalue() == (
        "EVENT      NAME   REPLICAS\n"
        "ADDED      a      1\n"
        "MODIFIED   a-much-longer-name   2\n"
        "DELETED    a                    2\n"
    )


def test_watch_only_prints_the_header_with_the_first_event() -> None:
    stream = io.StringIO()
    table = WatchTable(COLUMNS, TableOptions(), stream)
    table.write([])
    assert stream.getvalue() == ""
    table.write([("ADDED", row("a", 1))])
    assert stream.getvalue() == "NAME   REPLICAS\na      1\n"


def test_a_terminal_watch_redraws_one_row_per_object() -> None:
    stream = io.StringIO()
    table = WatchTable(COLUMNS, TableOptions(), stream, live=True)
    table.write([("ADDED", row("a", 1)), ("ADDED", row("b", 1))])
    table.write([("MODIFIED", row("a", 5))])
    table.write([("DELETED", row("b", 1))])
    table.close()
    final = stream.getvalue().rsplit("NAME", 1)[1]
    assert "a      5" in final
    assert "b " not in final


def test_server_table_reads_columns_cells_and_objects() -> None:
    document = {
        "kind": "Table",
        "columnDefinitions": [
            {"name": "Name", "type": "string", "format": "name", "priority": 0},
            {"name": "Ratio", "type": "number", "priority": 1},
        ],
        "rows": [
            {"cells": ["a", 1.5], "object": {"metadata": {"name": "a"}}},
            {"cells": ["b", None, {"not": "a cell"}]},
        ],
    }
    columns, rows = server_table(document)
    assert [(c.name, c.priority) for c in columns] == [("Name", 0), ("Ratio", 1)]
    assert rows == [(["a", 1.5], {"metadata": {"name": "a"}}), (["b", None, None], {})]
    assert server_table("not a table") == ((), [])


class _BlockByBlock(TabWriter):
    """The writer without its shortcut for tables of equal lines: every table goes
    through the general column-block algorithm."""

    def _format_uniform(self, lines: object) -> None:
        return None


def test_equal_lines_are_written_as_the_column_block_algorithm_writes_them() -> None:
    import random

    chooser = random.Random(11)
    cells = ["", "a", "NAME", "x" * 7, "long-cell-value", "ünïcode", "{0}", "%s", "  "]
    for _ in range(300):
        width = chooser.randint(1, 5)
        flushes = [
            [[chooser.choice(cells) for _ in range(width)] for _ in range(chooser.randint(1, 6))]
            for _ in range(chooser.randint(1, 3))
        ]
        fast, general = TabWriter(), _BlockByBlock()
        for lines in flushes:  # later flushes keep the widths remembered (watch)
            assert fast.format(lines) == general.format(lines), lines


def test_tables_with_tabs_line_breaks_or_empty_lines_take_the_general_way() -> None:
    for lines in ([["a\tb", "c"], ["d", "e"]], [["a\nb", "c"], ["d", "e"]], [[], []]):
        assert TabWriter().format(lines) == _BlockByBlock().format(lines)
