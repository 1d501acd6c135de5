"""``validation.listing``: which documents are shown as stored, and the server's list order."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.validation.documents import DocumentResult
from kubectl_crd.validation.listing import is_stored, server_order

STORED = [
    ({}, False),
    ({"name": "a", "namespace": "ns", "labels": {"x": "y"}}, False),
    ({"name": "a", "creationTimestamp": None}, False),  # controller-gen's null: a manifest
    ({"name": "a", "resourceVersion": ""}, False),
    ({"name": "a", "creationTimestamp": "2024-01-02T03:04:05Z"}, True),
    ({"name": "a", "resourceVersion": "12"}, True),
    ({"name": "a", "uid": "0b5c0a8e-1111-4222-8333-444455556666"}, True),
]  # fmt: skip


@pytest.mark.parametrize(("metadata", "stored"), STORED)
def test_server_set_metadata_marks_an_object_dumped_from_a_cluster(
    metadata: dict[str, Any], stored: bool
) -> None:
    assert is_stored(metadata) is stored


def test_rows_go_in_etcd_key_order_and_rejections_stay_in_file_order() -> None:
    def result(index: int) -> DocumentResult:
        return DocumentResult(source="f.yaml", index=index, location=None, status="invalid")  # type: ignore[arg-type]

    entries = [
        ("b/a", (["b/a"], {}), result(0)),
        ("a/z", (["a/z"], {}), None),
        ("a-b/b", (["a-b/b"], {}), result(2)),
        ("a/x", (["a/x"], {}), None),
    ]
    rows, rejected = server_order(entries)  # type: ignore[arg-type]
    assert [row[0][0] for row in rows] == ["a-b/b", "a/x", "a/z", "b/a"]
    assert [r.index for r in rejected] == [0, 2]
