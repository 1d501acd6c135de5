"""model.managedfields: a created child's fields moved to its apply, and what it owns."""

from __future__ import annotations

from typing import Any

from kubectl_crd.model.managedfields import fields_moved_to_apply, owns_only, update_entry

ME = "kubectl-crd-dev"


def obj(*entries: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"metadata": {"name": "x", "managedFields": list(entries)}, **fields}


def entry(manager: str, operation: str, fields: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "manager": manager,
        "operation": operation,
        "apiVersion": "v1",
        "time": "2026-11-29T01:00:00Z",
        "fieldsType": "FieldsV1",
        "fieldsV1": fields,
        **more,
    }


CREATED = {
    "f:data": {".": {}, "f:a": {}},
    "f:metadata": {
        "f:labels": {".": {}, "f:l": {}},
        "f:ownerReferences": {".": {}, 'k:{"uid":"u"}': {}},
    },
    "f:spec": {"f:containers": {'k:{"name":"c"}': {".": {}, "f:name": {}, "f:image": {}}}},
}


def test_nothing_to_move_without_the_managers_update_entry() -> None:
    assert fields_moved_to_apply(obj(entry(ME, "Apply", {"f:a": {}})), ME) is None
    assert fields_moved_to_apply(obj(entry("other", "Update", {"f:a": {}})), ME) is None
    status = entry(ME, "Update", {"f:status": {}}, subresource="status")
    assert fields_moved_to_apply(obj(status), ME) is None
    assert update_entry(obj(status), ME) is None


def test_an_update_entry_becomes_the_apply_entry_in_the_form_an_apply_writes() -> None:
    others = [entry("other", "Update", {"f:b": {}}), entry(ME, "Update", {}, subresource="status")]
    moved = fields_moved_to_apply(obj(entry(ME, "Update", CREATED), *others), ME)
    assert moved is not None
    assert moved[:2] == others  # every other entry as it was
    (applied,) = moved[2:]
    assert (applied["manager"], applied["operation"], applied["time"]) == (
        ME,
        "Apply",
        "2026-11-29T01:00:00Z",
    )
    # a map the create added is no member of an apply's set; a list item is
    assert applied["fieldsV1"] == {
        "f:data": {"f:a": {}},
        "f:metadata": {"f:labels": {"f:l": {}}, "f:ownerReferences": {'k:{"uid":"u"}': {}}},
        "f:spec": {"f:containers": {'k:{"name":"c"}': {".": {}, "f:name": {}, "f:image": {}}}},
    }


def test_moved_fields_join_an_apply_entry_the_manager_has() -> None:
    applied = entry(ME, "Apply", {"f:data": {"f:b": {}}, "f:empty": {}})
    moved = fields_moved_to_apply(
        obj(applied, entry(ME, "Update", {"f:data": {".": {}, "f:a": {}}})), ME
    )
    assert moved == [{**applied, "fieldsV1": {"f:data": {"f:a": {}, "f:b": {}}, "f:empty": {}}}]


def test_owns_only_what_the_object_sent_holds() -> None:
    sent = {
        "data": {"a": "1"},
        "metadata": {"labels": {"l": "1"}, "ownerReferences": [{"uid": "u", "name": "o"}]},
        "spec": {"containers": [{"name": "c", "image": "i"}]},
    }
    assert owns_only(CREATED, sent)
    # what the server defaulted: a field, a field of a list item, a list's item
    defaulted = {**CREATED, "f:spec": {"f:strategy": {}}}
    assert not owns_only(defaulted, sent)
    in_item = {"f:spec": {"f:containers": {'k:{"name":"c"}': {"f:imagePullPolicy": {}}}}}
    assert not owns_only(in_item, sent)
    assert not owns_only({"f:spec": {"f:containers": {'k:{"name":"d"}': {}}}}, sent)
    # a set's value and a list's index
    tags = {"spec": {"tags": ["x"], "args": ["a", "b"]}}
    assert owns_only({"f:spec": {"f:tags": {'v:"x"': {}}, "f:args": {"i:1": {}}}}, tags)
    assert not owns_only({"f:spec": {"f:tags": {'v:"y"': {}}}}, tags)
    assert not owns_only({"f:spec": {"f:args": {"i:2": {}}}}, tags)
    # a null sent is no field
    assert not owns_only({"f:data": {"f:a": {}}}, {"data": {"a": None}})
