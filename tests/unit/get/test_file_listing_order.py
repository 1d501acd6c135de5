"""``validation.listing``: which documents are shown as stored, and the server's list order."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import Location
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


CRD = CustomResourceDefinition.from_object(
    {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {
            "group": "stable.example.com",
            "scope": "Namespaced",
            "names": {"kind": "CronTab", "plural": "crontabs", "singular": "crontab"},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {"openAPIV3Schema": {"type": "object"}},
                }
            ],
        },
    }
)


def result(index: int) -> DocumentResult:
    return DocumentResult(
        source="f.yaml", index=index, location=Location("f.yaml", index), status="invalid"
    )


def test_rows_go_in_etcd_key_order_and_rejections_stay_in_file_order() -> None:
    entries = [
        ("b/a", (["b/a"], {}), result(1), ("f.yaml", 1, 0)),
        ("a/z", (["a/z"], {}), None, ("f.yaml", 5, 0)),
        ("a-b/b", (["a-b/b"], {}), result(9), ("f.yaml", 9, 0)),
        ("a/x", (["a/x"], {}), None, ("f.yaml", 13, 0)),
    ]
    rows, rejected = server_order(entries, CRD)  # type: ignore[arg-type]
    assert [row[0][0] for row in rows] == ["a-b/b", "a/x", "a/z", "b/a"]
    assert [r.index for r in rejected] == [1, 9]


def test_a_second_object_of_one_namespace_and_name_is_refused_as_already_existing() -> None:
    entries = [
        ("ns/a", (["first"], {}), None, ("a.yaml", 1, 0)),
        ("ns/b", (["rejected b"], {}), result(3), ("a.yaml", 3, 0)),
        ("ns/b", (["b"], {}), None, ("b.yaml", 1, 0)),  # the first b was refused
        ("ns/a", (["second"], {}), None, ("b.yaml", 7, 0)),
        ("other/a", (["other"], {}), None, ("b.yaml", 12, 0)),
    ]
    rows, rejected = server_order(entries, CRD)  # type: ignore[arg-type]
    assert [row[0][0] for row in rows] == ["first", "second", "rejected b", "b", "other"]
    assert [(str(r.location), r.status) for r in rejected] == [
        ("f.yaml:3", "invalid"),
        ("b.yaml:7", "error"),
    ]
    assert rejected[1].title == "CronTab/a"
    assert rejected[1].message == 'crontabs.stable.example.com "a" already exists'
