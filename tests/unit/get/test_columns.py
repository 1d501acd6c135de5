"""Printer-column cells (tableconvertor.go), human durations and kubectl's table text."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from kubectl_crd.model.columns import cell_text, date_cell, plan_columns, row_cells
from kubectl_crd.model.crd import PrinterColumn
from kubectl_crd.model.durations import human_duration
from kubectl_crd.model.jsonpath import JSONPath
from kubectl_crd.output.table import (
    TableOptions,
    render_table,
    sort_objects,
    tabwriter,
)

S = 1_000_000_000
NOW = datetime(2026, 1, 1, tzinfo=UTC)

DURATIONS = [
    (-3 * S, "<invalid>"),
    (-2 * S, "<invalid>"),
    (-1999_000_000, "0s"),
    (-S, "0s"),
    (0, "0s"),
    (119 * S, "119s"),
    (120 * S, "2m"),
    (185 * S, "3m5s"),
    (599 * S, "9m59s"),
    (600 * S, "10m"),
    (179 * 60 * S, "179m"),
    (180 * 60 * S, "3h"),
    (479 * 60 * S, "7h59m"),
    (8 * 3600 * S, "8h"),
    (47 * 3600 * S, "47h"),
    (48 * 3600 * S, "2d"),
    (51 * 3600 * S, "2d3h"),
    (191 * 3600 * S, "7d23h"),
    (192 * 3600 * S, "8d"),
    (729 * 86400 * S, "729d"),
    (730 * 86400 * S, "2y"),
    ((5 * 365 + 100) * 86400 * S, "5y100d"),
    (8 * 365 * 86400 * S, "8y"),
    (20 * 365 * 86400 * S, "20y"),
]


@pytest.mark.parametrize(("nanoseconds", "text"), DURATIONS)
def test_human_duration(nanoseconds: int, text: str) -> None:
    assert human_duration(nanoseconds) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("", "<unknown>"),
        ("null", "<unknown>"),
        ("yesterday", "<invalid>"),
        ("2025-12-31T23:59:00Z", "60s"),
        ("2025-12-31T23:00:00.123+00:00", "59m"),
        ("2026-01-01T01:00:00+02:00", "60m"),
        ("2026-01-01T00:00:05Z", "<invalid>"),
        ("2025-12-31 23:59:00Z", "<invalid>"),
        # Go's time.Parse (model.gotime), looser than RFC 3339: a one-digit hour, a comma
        # before the fraction, an offset of 24 hours
        ("2025-12-31T9:00:00Z", "15h"),
        ("2025-12-31T23:59:00,5Z", "59s"),
        ("2026-01-01T23:59:00+24:00", "60s"),
    ],
)
def test_date_cells(value: str, text: str) -> None:
    assert date_cell(value, NOW) == text


def column(name: str, kind: str, path: str, priority: int = 0) -> PrinterColumn:
    return PrinterColumn(name=name, type=kind, json_path=path, priority=priority)


CELLS: list[tuple[str, str, Any, str]] = [
    ("string", ".spec.v", "text", "text"),
    ("string", ".spec.v", {"b": 1, "a": [1.5]}, '{"a":[1.5],"b":1}'),
    ("string", ".spec.v", 7, "7"),
    ("string", ".spec.v", 1e6, "1e+06"),
    ("string", ".spec.v", True, "true"),
    ("string", ".spec.v", None, "<no value>"),
    ("string", ".spec.v", "two\nlines", "two..."),
    ("integer", ".spec.v", 3.99, "3"),
    ("integer", ".spec.v", -3.99, "-3"),
    ("integer", ".spec.v", "3", ""),
    ("number", ".spec.v", 2, "2"),
    ("number", ".spec.v", 1e6, "1000000"),
    ("number", ".spec.v", 0.5, "0.5"),
    ("number", ".spec.v", 2.5e21, "2.5e+21"),
    ("boolean", ".spec.v", False, "false"),
    ("boolean", ".spec.v", "true", ""),
    ("date", ".spec.v", 5, ""),
    ("date", ".spec.v", "2025-12-30T00:00:00Z", "2d"),
    ("string", ".spec.missing", None, ""),
    ("string", ".spec.v[5]", ["a"], ""),
    ("string", ".spec.v[*].n", [{"n": "x"}, {"n": "y"}], "x"),
    ("string", ".spec.v[-1]", ["a", "b"], "b"),
    ("string", '.spec.v[?(@.t=="R")].s', [{"t": "O", "s": "1"}, {"t": "R", "s": "2"}], "2"),
]


@pytest.mark.parametrize(("kind", "path", "value", "text"), CELLS)
def test_cells(kind: str, path: str, value: Any, text: str) -> None:
    plan = plan_columns([column("C", kind, path)])
    obj = {"metadata": {"name": "n"}, "spec": {"v": value}}
    cells = row_cells(plan, obj, NOW)
    assert cells[0] == "n"
    assert cell_text(cells[1]) == text


def test_default_age_column_only_without_columns() -> None:
    assert [c.name for c in plan_columns([]).columns] == ["Name", "Age"]
    plan = plan_columns([column("Size", "integer", ".spec.size")])
    assert [c.name for c in plan.columns] == ["Name", "Size"]


def test_unparsable_path_keeps_the_columns_before_it() -> None:
    plan = plan_columns(
        [column("A", "string", ".a"), column("B", "string", ".b[x]"), column("C", "string", ".c")]
    )
    assert [c.name for c in plan.columns] == ["Name", "A"]
    assert plan.problem == 'unrecognized column definition ".b[x]"'


def test_tabwriter_pads_to_width_plus_three_at_least_six() -> None:
    assert tabwriter([["NAME", "A", "LAST"], ["averylongname", "", "x"]]) == (
        "NAME" + " " * 12 + "A" + " " * 5 + "LAST\n" + "averylongname" + " " * 9 + "x\n"
    )


OBJECTS = [
    {
        "metadata": {
            "name": "b",
            "namespace": "ns1",
            "labels": {"z": "1", "app": "web"},
            "creationTimestamp": "2025-12-31T23:00:00Z",
        },
        "spec": {"size": 3, "w": "x"},
    },
    {
        "metadata": {"name": "a", "namespace": "ns2", "creationTimestamp": "2025-12-31T23:59:30Z"},
        "spec": {},
    },
]


def test_table_flags() -> None:
    plan = plan_columns(
        [
            column("Size", "integer", ".spec.size"),
            column("W", "string", ".spec.w", priority=1),
            column("Age", "date", ".metadata.creationTimestamp"),
        ]
    )
    plain = render_table(plan, OBJECTS, TableOptions(), NOW)
    assert plain == "NAME   SIZE   AGE\nb      3      60m\na             30s\n"
    wide = render_table(plan, OBJECTS, TableOptions(wide=True, no_headers=True), NOW)
    assert wide == "b     3     x     60m\na                 30s\n"
    everything = render_table(
        plan,
        OBJECTS,
        TableOptions(all_namespaces=True, show_labels=True, label_columns=("example.com/app", "z")),
        NOW,
    )
    assert everything.splitlines() == [
        "NAMESPACE   NAME   SIZE   AGE   APP   Z     LABELS",
        "ns1         b      3      60m         1     app=web,z=1",
        "ns2         a             30s               <none>",
    ]
    assert render_table(plan, [], TableOptions(), NOW) == ""


def test_tabwriter_column_blocks_break_at_a_line_with_fewer_cells() -> None:
    # the text the real kubectl printed for -o custom-columns in the differential test
    lines = [
        ["N", "T", "H", "R"],
        ["w0", "plain", "<none>", "1.5"],
        ["w1", "multi\nline", "[foo bar],[baz]", "1000000"],
        ["w2", "12", "<none>", "1.2e-05"],
    ]
    assert tabwriter(lines).splitlines() == [
        "N      T       H        R",
        "w0     plain   <none>   1.5",
        "w1     multi",
        "line   [foo bar],[baz]   1000000",
        "w2     12                <none>   1.2e-05",
    ]


def test_sort_by_strings_is_bytewise_as_kubectl_tables() -> None:
    path = JSONPath("{.n}", allow_missing_keys=True)
    objects = [{"n": "r4"}, {"n": "r10"}, {"n": "R9"}]
    assert sort_objects(objects, path) == [{"n": "R9"}, {"n": "r10"}, {"n": "r4"}]


def test_sort_objects_missing_values_first() -> None:
    path = JSONPath("{.spec.size}", allow_missing_keys=True)
    objects = [{"spec": {"size": 5}}, {"spec": {}}, {"spec": {"size": 2}}]
    assert sort_objects(objects, path) == [
        {"spec": {}},
        {"spec": {"size": 2}},
        {"spec": {"size": 5}},
    ]
