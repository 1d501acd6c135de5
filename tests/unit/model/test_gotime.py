"""``metav1.Time``'s decoding (``model.gotime``): Go's ``time.Parse`` with the
RFC 3339 layout, its messages as kube-apiserver 1.34 words them (the differential is
tests/integration/test_timestamps_differential.py)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.gotime import FULL_DATE, LOCAL_TIME, RFC3339, layout_time, time_problem
from kubectl_crd.validation.objectmeta import decode_metadata

_AS = 'as "2006-01-02T15:04:05Z07:00": cannot parse'


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-01-02T03:04:05Z", None),
        ("2024-01-02T3:04:05,5+01:00", None),  # Go: one-digit hour, comma fraction
        ("2024-02-29T00:00:00Z", None),
        (None, None),
        ("yesterday", f'parsing time "yesterday" {_AS} "yesterday" as "2006"'),
        ("2024-01-02", f'parsing time "2024-01-02" {_AS} "" as "T"'),
        ("2024-01-02T03:04:05", f'parsing time "2024-01-02T03:04:05" {_AS} "" as "Z07:00"'),
        ("2024-01-02t03:04:05z", f'parsing time "2024-01-02t03:04:05z" {_AS} "t03:04:05z" as "T"'),
        ("", f'parsing time "" {_AS} "" as "2006"'),
        ("2024-13-02T03:04:05Z", 'parsing time "2024-13-02T03:04:05Z": month out of range'),
        ("2023-02-29T00:00:00Z", 'parsing time "2023-02-29T00:00:00Z": day out of range'),
        ("2024-01-02T03:04:60Z", 'parsing time "2024-01-02T03:04:60Z": second out of range'),
        ("2024-01-02T03:04:05ZZ", 'parsing time "2024-01-02T03:04:05ZZ": extra text: "Z"'),
        ("\u00e9", f'parsing time "\\xc3\\xa9" {_AS} "\\xc3\\xa9" as "2006"'),
        (5, "json: cannot unmarshal number into Go value of type string"),
        (True, "json: cannot unmarshal bool into Go value of type string"),
        ([1], "json: cannot unmarshal array into Go value of type string"),
    ],
)
def test_time_problem(value: Any, expected: str | None) -> None:
    assert time_problem(value) == expected


def test_a_timestamp_error_ends_the_decoding_and_wins() -> None:
    """A type mismatch is kept and decoding goes on; metav1.Time's error is returned at
    once, even after it. A custom resource's metadata is decoded with sorted keys."""
    bad_time = 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'
    assert decode_metadata({"generation": "y", "creationTimestamp": "x"}, None)[1] == bad_time
    number = "json: cannot unmarshal number into Go struct field ObjectMeta.{} of type string"
    assert decode_metadata({"labels": {"a": 1}, "creationTimestamp": 5}, None)[1] == (
        number.format("creationTimestamp")
    )
    assert decode_metadata({"namespace": 1, "labels": {"a": 1}}, None)[1] == number.format("labels")


@pytest.mark.parametrize(
    ("value", "layout", "expected"),
    [
        ("2020-01-01", FULL_DATE, (1577836800 * 10**9, None)),
        ("2020-13-45", FULL_DATE, (None, 'parsing time "2020-13-45": month out of range')),
        ("2020-02-30", FULL_DATE, (None, 'parsing time "2020-02-30": day out of range')),
        (
            "20200101",
            FULL_DATE,
            (None, 'parsing time "20200101" as "2006-01-02": cannot parse "0101" as "-"'),
        ),
        (
            "2020-01-01T00:00:00",
            FULL_DATE,
            (None, 'parsing time "2020-01-01T00:00:00": extra text: "T00:00:00"'),
        ),
        ("2020-01-01T10:00:00.5", LOCAL_TIME, (1577872800 * 10**9 + 5 * 10**8, None)),
        (
            "2021-02-29T10:00:00Z",
            LOCAL_TIME,
            (None, 'parsing time "2021-02-29T10:00:00Z": extra text: "Z"'),
        ),
        (
            "yesterday",
            LOCAL_TIME,
            (
                None,
                'parsing time "yesterday" as "2006-01-02T15:04:05": cannot parse "yesterday" as "2006"',
            ),
        ),
        ("2020-01-01T10:00:00+01:00", RFC3339, (1577869200 * 10**9, None)),
    ],
)
def test_layout_time_reads_strfmts_layouts_as_go_does(
    value: str, layout: str, expected: tuple[int | None, str | None]
) -> None:
    """kube-openapi strfmt's layouts (a ``date``, the last of ``ParseDateTime``'s), as
    CEL's conversion of those formats reads them (the differential:
    tests/integration/test_cel_unconvertible_formats_differential.py)."""
    assert layout_time(value, layout) == expected
