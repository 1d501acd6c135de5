"""The admission step's own logic, without a cluster: the fields the server sets, the
status split, no-op writes, deletes and their finalizers, refusals.

Clock, uids, names and resourceVersions are injected, so every value is known. The
live comparison with kube-apiserver is tests/integration/test_admission_differential.py.
"""

from __future__ import annotations

import random
import threading
import uuid
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from kubectl_crd.io import load_documents
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.govalues import go_equal
from kubectl_crd.validation import Admission, AdmissionResult, Reason, Stage
from kubectl_crd.validation.admission import _gc_finalizers
from tests import crd_factory

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "size": {"type": "integer", "default": 1},
                "code": {
                    "type": "string",
                    "x-kubernetes-validations": [
                        {"rule": "self == oldSelf", "message": "code is immutable"}
                    ],
                },
            },
        },
        "status": {
            "type": "object",
            "default": {},
            "properties": {"phase": {"type": "string", "default": "New"}},
        },
    },
}


def crd(*, status: bool = True, scope: str = "Namespaced") -> CustomResourceDefinition:
    raw = crd_factory.make_crd("Widget", "example.com", schema=SCHEMA, scope=scope)
    if status:
        raw["spec"]["versions"][0]["subresources"] = {"status": {}}
    return CustomResourceDefinition.from_object(raw)


NOW = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)


def admission(**options: Any) -> Admission:
    versions = iter(range(100, 1000))
    uids = iter(f"uid-{n}" for n in range(1, 100))
    return Admission(
        options.pop("crd", None) or crd(**options),
        resource_versions=lambda: str(next(versions)),
        clock=NOW.timestamp,
        uids=lambda: next(uids),
        rng=random.Random(7),
    )


def widget(**metadata: Any) -> dict[str, Any]:
    metadata.setdefault("name", "w")
    return {
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": metadata,
        "spec": {"code": "a"},
        "status": {"phase": "Given"},
    }


def created(step: Admission, **metadata: Any) -> AdmissionResult:
    result = step.create(widget(**metadata))
    assert result.ok, result.message
    return result


def test_create_sets_the_servers_fields_and_drops_status() -> None:
    step = admission()
    result = step.create(widget(generation=9, uid="mine", creationTimestamp="2000-01-01T00:00:00Z"))
    assert (result.code, result.written, result.removed) == (201, True, False)
    assert result.stored == {
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {
            "name": "w",
            "namespace": "default",
            "uid": "uid-1",
            "creationTimestamp": "2026-01-02T03:04:05Z",
            "generation": 1,
            "resourceVersion": "100",
        },
        "spec": {"code": "a", "size": 1},
    }
    # read back, the status default is there (the storage decoder defaults again)
    assert result.object == {**result.stored, "status": {"phase": "New"}}
    assert result.response == result.object


def test_create_without_status_subresource_keeps_status() -> None:
    result = admission(status=False).create(widget())
    assert result.object["status"] == {"phase": "Given"}
    assert result.stored["status"] == {"phase": "Given"}


def test_timestamps_are_utc_whole_seconds() -> None:
    local = datetime(2026, 1, 2, 5, 4, 5, 999999, tzinfo=timezone(timedelta(hours=2)))
    step = Admission(crd(), clock=local.timestamp)
    meta = step.create(widget()).object["metadata"]
    assert meta["creationTimestamp"] == "2026-01-02T03:04:05Z"


def test_default_uids_and_resource_versions() -> None:
    step = Admission(crd())
    first = step.create(widget(name="a")).object["metadata"]
    second = step.create(widget(name="b")).object["metadata"]
    assert (first["resourceVersion"], second["resourceVersion"]) == ("1", "2")
    assert first["uid"] != second["uid"]
    for meta in (first, second):
        uid = uuid.UUID(meta["uid"])
        assert (str(uid), uid.version, uid.variant) == (meta["uid"], 4, uuid.RFC_4122)


def test_default_counter_is_shared_safely_between_threads() -> None:
    step = Admission(crd())
    seen: list[str] = []

    def create(first: int) -> None:
        for n in range(first, first + 50):
            seen.append(step.create(widget(name=f"w{n}")).stored["metadata"]["resourceVersion"])

    threads = [threading.Thread(target=create, args=(n * 100,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(map(int, seen)) == list(range(1, 201))


@pytest.mark.parametrize(
    ("generate_name", "prefix"),
    [("web-", "web-"), ("x" * 70, "x" * 58)],
)
def test_generate_name_gets_a_random_suffix(generate_name: str, prefix: str) -> None:
    names = set()
    step = Admission(crd(), rng=random.Random(1))
    for _ in range(20):
        name = step.create(widget(name="", generateName=generate_name)).object["metadata"]["name"]
        assert name.startswith(prefix) and len(name) == len(prefix) + 5
        assert set(name[len(prefix) :]) <= set("bcdfghjklmnpqrstvwxz2456789")
        names.add(name)
    assert len(names) == 20


def test_namespaces() -> None:
    assert created(admission()).object["metadata"]["namespace"] == "default"
    step = admission()
    assert step.create(widget(), namespace="team").object["metadata"]["namespace"] == "team"
    assert step.create(widget(namespace="mine")).object["metadata"]["namespace"] == "mine"
    refused = step.create(widget(namespace="mine"), namespace="team")
    assert (refused.code, refused.reason) == (400, "BadRequest")
    assert refused.message.startswith("the namespace of the provided object does not match")
    cluster = admission(scope="Cluster").create(widget(namespace="mine"), namespace="team")
    assert "namespace" not in cluster.object["metadata"]


def test_create_refusals() -> None:
    step = admission()
    with_version = step.create(widget(resourceVersion="3"))
    assert (with_version.code, with_version.reason) == (500, "")
    assert with_version.message == "resourceVersion should not be set on objects to be created"
    unknown = step.create({**widget(), "spec": {"bogus": 1}})
    assert (unknown.code, unknown.reason) == (400, "BadRequest")
    assert unknown.message == (
        'Widget in version "v1" cannot be handled as a Widget: '
        'strict decoding error: unknown field "spec.bogus"'
    )
    invalid = step.create(widget(name="Bad_Name"))
    assert (invalid.code, invalid.reason) == (422, "Invalid")
    assert [(e.field, e.reason) for e in invalid.errors] == [("metadata.name", Reason.INVALID)]
    assert invalid.message.startswith('Widget.example.com "Bad_Name" is invalid: metadata.name:')
    assert invalid.object is None and invalid.stored is None
    assert invalid.response["status"] == "Failure" and invalid.response["code"] == 422
    assert step.create(["not", "a", "mapping"]).code == 400


def test_errors_keep_their_input_positions() -> None:
    text = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: x\n"
    (document,) = load_documents(text, "w.yaml")
    result = admission().create(document.content)
    error = result.errors[0]  # then CEL's "some validation rules were not checked"
    assert (error.field, error.location.line if error.location else None) == ("spec.size", 6)


def test_an_object_with_positions_is_stored_plain() -> None:
    text = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 2\n"
    (document,) = load_documents(text, "w.yaml")
    result = admission().create(document.content)
    assert type(result.stored) is dict and type(result.stored["spec"]) is dict
    assert type(result.object) is dict


def test_noop_update_writes_nothing_once_the_read_defaults_are_stored() -> None:
    step = admission()
    first = created(step)
    # the body carries status as read ({phase: New}), which storage lacked: a write
    once = step.update(first.object, first.stored)
    assert (once.code, once.written) == (200, True)
    assert once.object["metadata"]["resourceVersion"] == "101"
    again = step.update(once.object, once.stored)
    assert (again.written, again.stored) == (False, once.stored)
    assert again.object["metadata"]["resourceVersion"] == "101"


def _edit(result: AdmissionResult, change: Any) -> dict[str, Any]:
    import copy

    body: dict[str, Any] = copy.deepcopy(result.object)
    change(body)
    return body


@pytest.mark.parametrize(
    ("status_subresource", "change", "generation", "status"),
    [
        (True, lambda o: o["spec"].update(size=5), 2, {"phase": "New"}),
        (True, lambda o: o["metadata"].update(labels={"a": "b"}), 1, {"phase": "New"}),
        (True, lambda o: o.update(status={"phase": "Up"}), 1, {"phase": "New"}),
        (False, lambda o: o["spec"].update(size=5), 2, {"phase": "Given"}),
        (False, lambda o: o["metadata"].update(labels={"a": "b"}), 1, {"phase": "Given"}),
        (False, lambda o: o.update(status={"phase": "Up"}), 2, {"phase": "Up"}),
    ],
)
def test_generation_and_the_status_split_on_update(
    status_subresource: bool, change: Any, generation: int, status: dict[str, str]
) -> None:
    step = admission(status=status_subresource)
    first = created(step)
    body = _edit(first, change)
    body["metadata"]["generation"] = 40  # a request cannot set it
    result = step.update(body, first.stored)
    assert result.ok, result.message
    assert result.object["metadata"]["generation"] == generation
    assert result.object["status"] == status
    assert result.object["metadata"]["uid"] == "uid-1"
    assert result.object["metadata"]["creationTimestamp"] == "2026-01-02T03:04:05Z"


def test_status_update_takes_only_status() -> None:
    step = admission()
    first = created(step, labels={"a": "1"}, finalizers=["example.com/f"])

    def change(obj: dict[str, Any]) -> None:
        obj["status"] = {"phase": "Up"}
        obj["spec"]["size"] = 9
        obj["metadata"].update(labels={"b": "2"}, finalizers=[], annotations={"x": "y"})

    result = step.update_status(_edit(first, change), first.stored)
    assert result.ok, result.message
    assert result.object == {
        **first.object,
        "metadata": {**first.object["metadata"], "resourceVersion": "101"},
        "status": {"phase": "Up"},
    }
    dropped = step.update_status(_edit(result, lambda o: o.pop("status")), result.stored)
    # the request is defaulted as it is decoded, before the strategy takes its status
    assert dropped.stored["status"] == dropped.object["status"] == {"phase": "New"}
    assert (dropped.written, dropped.object["metadata"]["generation"]) == (True, 1)


def test_status_update_needs_the_subresource() -> None:
    step = admission(status=False)
    first = created(step)
    result = step.update_status(first.object, first.stored)
    assert (result.code, result.reason) == (404, "NotFound")


def test_update_refusals_in_the_servers_order() -> None:
    step = admission()
    first = created(step)
    stale = _edit(first, lambda o: o["metadata"].update(resourceVersion="1"))
    conflict = step.update(stale, first.stored)
    assert (conflict.code, conflict.reason) == (409, "Conflict")
    assert conflict.message == (
        'Operation cannot be fulfilled on widgets.example.com "w": the object has been '
        "modified; please apply your changes to the latest version and try again"
    )
    missing = step.update(
        _edit(first, lambda o: o["metadata"].pop("resourceVersion")), first.stored
    )
    assert (missing.code, [e.field for e in missing.errors]) == (422, ["metadata.resourceVersion"])
    assert missing.message == (
        'widgets.example.com "w" is invalid: metadata.resourceVersion: '
        "Invalid value: 0: must be specified for an update"
    )
    other_uid = step.update(_edit(first, lambda o: o["metadata"].update(uid="u2")), first.stored)
    assert other_uid.code == 409 and "UID in precondition: u2, UID in object meta: uid-1" in (
        other_uid.message
    )
    renamed = step.update(_edit(first, lambda o: o["metadata"].update(name="v")), first.stored)
    assert (renamed.code, renamed.message) == (
        400,
        "the name of the object (v) does not match the name on the URL (w)",
    )
    # a body that does not decode is refused before the resourceVersion is looked at
    undecodable = _edit(first, lambda o: o["spec"].update(bogus=1))
    undecodable["metadata"]["resourceVersion"] = "1"
    assert step.update(undecodable, first.stored).code == 400


def test_transition_rules_run_on_update() -> None:
    step = admission()
    first = created(step)
    result = step.update(_edit(first, lambda o: o["spec"].update(code="b")), first.stored)
    assert result.code == 422
    assert [(e.field, e.message, e.stage) for e in result.errors] == [
        ("spec.code", 'spec.code: Invalid value: "string": code is immutable', Stage.CEL)
    ]


def test_delete_without_finalizers_removes_the_object() -> None:
    step = admission()
    first = created(step)
    result = step.delete(first.stored)
    assert (result.code, result.removed, result.written) == (200, True, True)
    assert result.stored is None
    assert result.response == {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success",
        "details": {"name": "w", "group": "example.com", "kind": "widgets", "uid": "uid-1"},
    }
    # watchers get the last state at the delete's resourceVersion
    assert result.object["metadata"]["resourceVersion"] == "101"
    assert result.object["spec"] == first.object["spec"]


def test_delete_with_finalizers_then_the_last_one_removed() -> None:
    step = admission()
    first = created(step, finalizers=["example.com/a", "example.com/b"])
    deleting = step.delete(first.stored)
    meta = deleting.object["metadata"]
    assert (deleting.removed, deleting.written) == (False, True)
    assert meta["deletionTimestamp"] == "2026-01-02T03:04:05Z"
    assert (meta["deletionGracePeriodSeconds"], meta["generation"]) == (0, 2)
    again = step.delete(deleting.stored)
    assert (again.written, again.object) == (False, deleting.object)

    added = _edit(deleting, lambda o: o["metadata"]["finalizers"].append("example.com/c"))
    refused = step.update(added, deleting.stored)
    assert refused.code == 422
    expected = (
        "metadata.finalizers: Forbidden: no new finalizers can be added if the object is "
        'being deleted, found new finalizers []string{"example.com/c"}'
    )
    assert [e.message for e in refused.errors] == [expected, expected]
    assert refused.message == f'Widget.example.com "w" is invalid: {expected}'

    one = step.update(
        _edit(deleting, lambda o: o["metadata"].update(finalizers=["example.com/b"])),
        deleting.stored,
    )
    assert (one.removed, one.object["metadata"]["deletionTimestamp"]) == (
        False,
        meta["deletionTimestamp"],
    )
    last = step.update(_edit(one, lambda o: o["metadata"].pop("finalizers")), one.stored)
    assert (last.code, last.removed) == (200, True)
    # the client gets the object it sent, as updated, with its resourceVersion; watchers
    # get the stored object (its finalizer still on) at the delete's resourceVersion
    old_version = one.object["metadata"]["resourceVersion"]
    assert last.response["metadata"]["resourceVersion"] == old_version
    assert "finalizers" not in last.response["metadata"]
    assert last.object["metadata"]["finalizers"] == ["example.com/b"]
    assert int(last.object["metadata"]["resourceVersion"]) == int(old_version) + 1
    assert last.stored is None


def test_an_immediate_delete_shows_watchers_the_stored_finalizers() -> None:
    step = admission()
    first = created(step, finalizers=["orphan"])
    result = step.delete(first.stored, propagation_policy="Background")
    assert (result.removed, result.object["metadata"]["finalizers"]) == (True, ["orphan"])


def test_delete_preconditions() -> None:
    step = admission()
    first = created(step)
    wrong_uid = step.delete(first.stored, uid="other")
    assert (wrong_uid.code, wrong_uid.removed) == (409, False)
    assert wrong_uid.message == (
        'Operation cannot be fulfilled on Widget.example.com "w": the UID in the precondition '
        "(other) does not match the UID in record (uid-1). The object might have been deleted "
        "and then recreated"
    )
    stale = step.delete(first.stored, resource_version="7")
    assert (
        stale.code == 409
        and "precondition (7) does not match the ResourceVersion in record (100)" in (stale.message)
    )
    assert step.delete(first.stored, uid="uid-1", resource_version="100").removed


@pytest.mark.parametrize(
    ("finalizers", "policy", "expected"),
    [
        ([], None, []),
        ([], "Background", []),
        ([], "Foreground", ["foregroundDeletion"]),
        ([], "Orphan", ["orphan"]),
        (["b", "a"], None, ["b", "a"]),
        (["orphan", "a"], None, ["orphan", "a"]),
        (["orphan", "a"], "Background", ["a"]),
        (["orphan", "a"], "Foreground", ["a", "foregroundDeletion"]),
        (["foregroundDeletion"], "Orphan", ["orphan"]),
    ],
)
def test_garbage_collector_finalizers(
    finalizers: list[str], policy: Any, expected: list[str]
) -> None:
    assert _gc_finalizers(finalizers, policy) == expected


@pytest.mark.parametrize(
    ("left", "right", "same"),
    [
        ({"a": 1}, {"a": 1}, True),
        ({"a": 1}, {"a": True}, False),
        ({"a": 1}, {"a": 1.0}, False),
        ({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}, True),
        ({"a": [1]}, {"a": [1, 2]}, False),
        ({"a": {}}, {"b": {}}, False),
    ],
)
def test_semantic_equality_tells_go_types_apart(left: Any, right: Any, same: bool) -> None:
    assert go_equal(left, right) is same


def test_status_update_without_status_removes_it() -> None:
    import copy

    schema = copy.deepcopy(SCHEMA)
    del schema["properties"]["status"]["default"]
    raw = crd_factory.make_crd("Widget", "example.com", schema=schema)
    raw["spec"]["versions"][0]["subresources"] = {"status": {}}
    step = admission(crd=CustomResourceDefinition.from_object(raw))
    first = created(step)
    with_status = step.update_status(
        _edit(first, lambda o: o.update(status={"phase": "Up"})), first.stored
    )
    assert with_status.object["status"] == {"phase": "Up"}
    dropped = step.update_status(_edit(with_status, lambda o: o.pop("status")), with_status.stored)
    assert (dropped.written, "status" in dropped.object) == (True, False)


def test_update_keeps_the_servers_fields_whatever_the_body_says() -> None:
    step = admission()
    first = created(step, finalizers=["example.com/f"])
    deleting = step.delete(first.stored)

    def change(obj: dict[str, Any]) -> None:
        meta = obj["metadata"]
        meta["creationTimestamp"] = "1999-01-01T00:00:00Z"
        del meta["uid"], meta["deletionTimestamp"], meta["deletionGracePeriodSeconds"]
        meta["labels"] = {"a": "b"}

    result = step.update(_edit(deleting, change), deleting.stored)
    assert result.ok, result.message
    meta, before = result.object["metadata"], deleting.object["metadata"]
    for key in ("creationTimestamp", "uid", "deletionTimestamp", "deletionGracePeriodSeconds"):
        assert meta[key] == before[key], key
    assert meta["labels"] == {"a": "b"}


def test_the_stores_refusals() -> None:
    step = admission()
    first = created(step)
    missing = step.not_found("gone", "delete")
    assert (missing.operation, missing.code, missing.reason) == ("delete", 404, "NotFound")
    assert missing.response["details"] == {
        "name": "gone",
        "group": "example.com",
        "kind": "widgets",
    }
    assert missing.message == 'widgets.example.com "gone" not found'
    taken = step.already_exists("w", first.stored)
    assert (taken.code, taken.message) == (409, 'widgets.example.com "w" already exists')
    deleting = step.delete(created(step, name="f", finalizers=["example.com/f"]).stored)
    assert step.already_exists("f", deleting.stored).message == (
        'object is being deleted: widgets.example.com "f" already exists'
    )


def test_a_refusals_response_is_the_servers_status() -> None:
    step = admission()
    result = step.create({**widget(), "spec": {"size": "big"}})
    assert result.response == {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": result.message,
        "reason": "Invalid",
        "details": {
            "name": "w",
            "group": "example.com",
            "kind": "Widget",
            "causes": [
                {
                    "reason": "FieldValueTypeInvalid",
                    "message": 'Invalid value: "string": spec.size in body must be of type '
                    'integer: "string"',
                    "field": "spec.size",
                },
                {
                    "reason": "FieldValueInvalid",
                    "message": "Invalid value: null: some validation rules were not checked "
                    "because the object was invalid; correct the existing errors to complete "
                    "validation",
                    "field": "<nil>",
                },
            ],
        },
        "code": 422,
    }


def test_ratcheting_through_an_update() -> None:
    import copy

    loose = admission()
    first = created(loose, name="r")  # spec.size defaults to 1
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["spec"]["properties"]["size"]["maximum"] = 0
    raw = crd_factory.make_crd("Widget", "example.com", schema=schema)
    raw["spec"]["versions"][0]["subresources"] = {"status": {}}
    tight = admission(crd=CustomResourceDefinition.from_object(raw))
    assert tight.create(widget(name="new")).code == 422
    # the stored size breaks the tightened schema; left alone, it is not held against the update
    kept = tight.update(
        _edit(first, lambda o: o["metadata"].update(labels={"a": "b"})), first.stored
    )
    assert kept.ok, kept.message
    changed = tight.update(_edit(first, lambda o: o["spec"].update(size=2)), first.stored)
    assert changed.code == 422
    assert [(e.field, e.reason) for e in changed.errors] == [("spec.size", Reason.INVALID)]


def _two_versions() -> CustomResourceDefinition:
    """v1 stores; v2 serves a schedule as an object where v1 has a string, and only v1
    gives a field a default (as kubebuilder's multiversion tutorial and crossplane's
    XRDs do)."""
    import copy

    raw = crd_factory.make_crd("Widget", "example.com", versions=("v1", "v2"), storage="v1")
    v1, v2 = raw["spec"]["versions"]
    v1_spec = {
        "type": "object",
        "properties": {
            "schedule": {"type": "string"},
            "policy": {"type": "string", "default": "Keep"},
        },
    }
    v2_spec = {
        "type": "object",
        "properties": {
            "schedule": {"type": "object", "properties": {"minute": {"type": "string"}}},
            "policy": {"type": "string"},
        },
    }
    for version, spec in ((v1, v1_spec), (v2, v2_spec)):
        version["schema"]["openAPIV3Schema"] = {
            "type": "object",
            "properties": {"spec": copy.deepcopy(spec)},
        }
    return CustomResourceDefinition.from_object(raw)


def test_a_served_version_is_stored_in_the_storage_version() -> None:
    step = admission(crd=_two_versions())
    body = {**widget(), "apiVersion": "example.com/v2", "spec": {"schedule": {"minute": "*/1"}}}
    body.pop("status")
    result = step.create(body)
    assert result.ok, result.message
    # stored as v1 (the None conversion changes only apiVersion) ...
    assert result.stored["apiVersion"] == "example.com/v1"
    assert result.stored["spec"] == {"schedule": {"minute": "*/1"}}
    # ... read back in v2 through v1's schema: v1 prunes the object it takes for a string
    # and adds its default (kube-apiserver 1.34 answers the same for the corpus samples)
    assert result.object["apiVersion"] == "example.com/v2"
    assert result.object["spec"] == {"schedule": {}, "policy": "Keep"}
    assert step.read(result.stored)["spec"] == {"schedule": {}, "policy": "Keep"}
    assert step.read(result.stored)["apiVersion"] == "example.com/v1"
    # an update in v2 answers in v2, stores in v1; as read, nothing changed: no write
    again = step.update(result.object, result.stored)
    assert again.object["apiVersion"] == "example.com/v2"
    assert again.stored["apiVersion"] == "example.com/v1"
    deleted = step.delete(again.stored, version="v2")
    assert deleted.object["apiVersion"] == "example.com/v2" and deleted.removed


def test_owner_references_are_validated() -> None:
    owner = {"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": "u1"}
    step = admission()
    ok = step.create(widget(ownerReferences=[{**owner, "controller": True}]))
    assert ok.ok and ok.object["metadata"]["ownerReferences"][0]["controller"] is True
    bad = step.create(
        widget(
            ownerReferences=[
                {**owner, "controller": True},
                {**owner, "name": "p", "controller": True, "blockOwnerDeletion": False},
                {"apiVersion": "a/b/c", "uid": "u3"},
            ]
        )
    )
    assert [(e.field, e.message.partition(": Invalid value: ")[2][-40:]) for e in bad.errors] == [
        ("metadata.ownerReferences", "ferences for ConfigMap/o and ConfigMap/p"),
        ("metadata.ownerReferences.apiVersion", '"a/b/c": version must not be empty'),
        ("metadata.ownerReferences.kind", '"": must not be empty'),
        ("metadata.ownerReferences.name", '"": must not be empty'),
    ]
    # the list as Go prints it: JSON in the struct's field order, unset pointers left out
    assert (
        '[{"apiVersion":"v1","kind":"ConfigMap","name":"o","uid":"u1","controller":true},'
        '{"apiVersion":"v1","kind":"ConfigMap","name":"p","uid":"u1","controller":true,'
        '"blockOwnerDeletion":false},{"apiVersion":"a/b/c","kind":"","name":"","uid":"u3"}]'
    ) in bad.errors[0].message
