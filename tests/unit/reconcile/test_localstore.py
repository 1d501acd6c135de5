"""The in-process store's API-server semantics, hermetic (the differential against the
real server is tests/integration/test_localstore_differential.py; cascading deletion is
held here only: envtest runs no garbage collector)."""

from __future__ import annotations

import itertools
import threading
import time
from typing import Any

import pytest

from kubectl_crd.kube.reflector import EventType, ReflectorEvent
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.reconcile.controller import needs_apply
from kubectl_crd.reconcile.localstore import ObjectStore, StoreRefusal, apply_merge_patch

GROUP = "store.example.com"


def widget_crd() -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"widgets.{GROUP}"},
        "spec": {
            "group": GROUP,
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "subresources": {"status": {}},
                    "schema": {
                        "openAPIV3Schema": {
                            "type": "object",
                            "properties": {
                                "spec": {
                                    "type": "object",
                                    "properties": {
                                        "size": {"type": "integer", "maximum": 10},
                                        "color": {"type": "string", "default": "blue"},
                                        "items": {
                                            "type": "array",
                                            "x-kubernetes-list-type": "map",
                                            "x-kubernetes-list-map-keys": ["name"],
                                            "items": {
                                                "type": "object",
                                                "required": ["name"],
                                                "properties": {
                                                    "name": {"type": "string"},
                                                    "value": {"type": "string"},
                                                    "note": {"type": "string"},
                                                },
                                            },
                                        },
                                        "tags": {
                                            "type": "array",
                                            "items": {"type": "string"},
                                        },
                                    },
                                },
                                "status": {
                                    "type": "object",
                                    "x-kubernetes-preserve-unknown-fields": True,
                                },
                            },
                        }
                    },
                }
            ],
        },
    }


def make_store() -> ObjectStore:
    uids = (f"uid-{n}" for n in itertools.count(1))
    store = ObjectStore(clock=lambda: 1_700_000_000.0, uids=lambda: next(uids))
    store.add_crd(CustomResourceDefinition.from_object(widget_crd()))
    return store


def widget(name: str = "w", **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": f"{GROUP}/v1",
        "kind": "Widget",
        "metadata": {"name": name, "namespace": "ns"},
        "spec": spec,
    }


def configmap(
    name: str, data: dict[str, str], owner: dict[str, Any] | None = None
) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, "namespace": "ns"}
    if owner is not None:
        meta["ownerReferences"] = [owner_ref(owner)]
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta, "data": data}


def owner_ref(owner: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": owner["apiVersion"],
        "kind": owner["kind"],
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
        "controller": True,
    }


def test_create_sets_server_fields_defaults_and_drops_status() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    created = store.create(info, {**widget(size=1), "status": {"ready": True}})
    meta = created["metadata"]
    assert meta["uid"] == "uid-1"
    assert meta["resourceVersion"] == "1"
    assert meta["generation"] == 1
    assert meta["creationTimestamp"] == "2023-11-14T22:13:20Z"
    assert created["spec"] == {"size": 1, "color": "blue"}
    assert "status" not in created


def test_generation_moves_on_spec_changes_only_and_no_op_keeps_version() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    created = store.create(info, widget(size=1))
    status = store.patch(info, "ns", "w", {"status": {"phase": "Ready"}}, subresource="status")
    assert status["metadata"]["generation"] == 1
    assert status["metadata"]["resourceVersion"] != created["metadata"]["resourceVersion"]
    assert status["status"] == {"phase": "Ready"}
    # a status in a main-resource write is ignored (the subresource keeps it apart)
    spec = store.patch(info, "ns", "w", {"spec": {"size": 2}, "status": {"phase": "X"}})
    assert spec["metadata"]["generation"] == 2
    assert spec["status"] == {"phase": "Ready"}
    same = store.patch(info, "ns", "w", {"spec": {"size": 2}})
    assert same["metadata"]["resourceVersion"] == spec["metadata"]["resourceVersion"]


def test_invalid_custom_resource_is_refused_with_the_servers_status() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    with pytest.raises(StoreRefusal) as caught:
        store.create(info, widget(size=11))
    assert caught.value.status == 422
    assert [e.field for e in caught.value.errors] == ["spec.size"]
    assert "should be less than or equal to 10" in caught.value.message
    assert store.list(info) == []


def test_conditional_patch_conflicts_on_a_stale_resource_version() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    store.create(info, widget(size=1))
    store.patch(info, "ns", "w", {"spec": {"size": 3}})
    with pytest.raises(StoreRefusal) as caught:
        store.patch(info, "ns", "w", {"metadata": {"resourceVersion": "1", "finalizers": ["x"]}})
    assert caught.value.status == 409


def test_builtins_get_server_metadata_and_generation_only_where_kept() -> None:
    store = make_store()
    cm_info = store.resolve("v1/ConfigMap")
    cm = store.create(cm_info, configmap("c", {"a": "1"}))
    assert set(cm["metadata"]) == {
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "managedFields",
    }
    # the create's Update entry, by the manager a request without fieldManager gets
    # (its User-Agent's product): a map the create added is a member too
    [entry] = cm["metadata"]["managedFields"]
    assert (entry["manager"], entry["operation"]) == ("kubectl-crd", "Update")
    assert entry["fieldsV1"] == {"f:data": {".": {}, "f:a": {}}}
    deploy_info = store.resolve("apps/v1/Deployment")
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "d"},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "d"}},
            "template": {
                "metadata": {"labels": {"app": "d"}},
                "spec": {"containers": [{"name": "app", "image": "a:1"}]},
            },
        },
        "status": {"replicas": 9},
    }
    created = store.create(deploy_info, deployment, namespace="ns")
    assert created["metadata"]["generation"] == 1
    assert created["metadata"]["namespace"] == "ns"
    assert created["status"] == {}  # the body's dropped: the zero DeploymentStatus
    status = store.update_status(deploy_info, {**created, "status": {"availableReplicas": 1}})
    assert status["metadata"]["generation"] == 1
    scaled = store.patch(deploy_info, "ns", "d", {"spec": {"replicas": 2}})
    assert scaled["metadata"]["generation"] == 2
    assert scaled["status"] == {"availableReplicas": 1}


def test_apply_replaces_the_managers_fields_and_merges_list_maps() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    first = widget(size=1, items=[{"name": "a", "value": "1", "note": "n"}, {"name": "b"}])
    first["metadata"]["labels"] = {"app": "x", "tier": "web"}
    store.apply(info, first, field_manager="m")
    # someone else adds an item and a label; the manager's next apply keeps them
    store.patch(info, "ns", "w", {"metadata": {"labels": {"other": "y"}}})
    current = store.get(info, "ns", "w")
    items = [*current["spec"]["items"], {"name": "c", "value": "3"}]
    store.patch(info, "ns", "w", {"spec": {"items": items}})
    second = widget(size=2, items=[{"name": "a", "value": "2"}])
    second["metadata"]["labels"] = {"app": "x"}
    result = store.apply(info, second, field_manager="m")
    assert result["spec"]["size"] == 2
    assert result["spec"]["items"] == [{"name": "a", "value": "2"}, {"name": "c", "value": "3"}]
    assert result["metadata"]["labels"] == {"app": "x", "other": "y"}
    assert result["metadata"]["generation"] == 3
    entry, patches = result["metadata"]["managedFields"]
    assert entry["manager"] == "m" and entry["operation"] == "Apply"
    assert entry["fieldsV1"]["f:spec"]["f:items"] == {
        'k:{"name":"a"}': {".": {}, "f:name": {}, "f:value": {}}
    }
    # the patches' manager keeps the label and the item it added
    assert patches["operation"] == "Update"
    assert patches["fieldsV1"] == {
        "f:metadata": {"f:labels": {"f:other": {}}},
        "f:spec": {"f:items": {'k:{"name":"c"}': {".": {}, "f:name": {}, "f:value": {}}}},
    }
    # a converged object (no other writer): the controller's check sees nothing to send
    alone = widget("alone", size=1, items=[{"name": "a"}])
    alone["metadata"]["labels"] = {"app": "x"}
    written = store.apply(info, alone, field_manager="m")
    assert not needs_apply(alone, written, "m")
    assert needs_apply(widget("alone", size=1), written, "m")  # items would be removed


def test_fields_a_create_owns_move_to_its_apply_by_a_patch_of_managed_fields() -> None:
    """What the dev loop does to a child it created (FieldManager.Update takes the
    managedFields a write gives): the create's fields moved to the Apply entry, an
    apply that leaves some out removes them; the store's answer to the server's is
    held by test_localstore_managedfields_differential."""
    from kubectl_crd.model.managedfields import fields_moved_to_apply

    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    created = widget(size=1, items=[{"name": "a", "value": "1"}, {"name": "b"}])
    created["metadata"]["labels"] = {"app": "x"}
    answer = store.create(info, created, field_manager="m")
    (entry,) = answer["metadata"]["managedFields"]
    assert (entry["manager"], entry["operation"]) == ("m", "Update")
    # without the move, an apply leaving fields out keeps them: the create owns them
    kept = store.apply(info, widget(size=1, items=[{"name": "a"}]), field_manager="m", dry_run=True)
    assert (kept["metadata"]["labels"], len(kept["spec"]["items"])) == ({"app": "x"}, 2)
    moved = fields_moved_to_apply(answer, "m")
    version = answer["metadata"]["resourceVersion"]
    patch = {"metadata": {"managedFields": moved, "resourceVersion": version}}
    after = store.patch(info, "ns", "w", patch, field_manager="m")
    assert [(e["manager"], e["operation"]) for e in after["metadata"]["managedFields"]] == [
        ("m", "Apply")
    ]
    assert after["metadata"]["resourceVersion"] != version  # a write: the object changed
    applied = store.apply(info, widget(size=1, items=[{"name": "a"}]), field_manager="m")
    assert "labels" not in applied["metadata"]
    assert applied["spec"]["items"] == [{"name": "a"}]  # "b" and a's value gone too
    # given no entry, the object keeps none
    cleared = store.patch(info, "ns", "w", {"metadata": {"managedFields": [{}]}})
    assert "managedFields" not in cleared["metadata"]


def test_apply_of_builtins_merges_containers_by_name() -> None:
    store = make_store()
    info = store.resolve("apps/v1/Deployment")

    def deployment(*containers: dict[str, Any]) -> dict[str, Any]:
        return {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "d", "namespace": "ns"},
            "spec": {
                "selector": {"matchLabels": {"app": "d"}},
                "template": {
                    "metadata": {"labels": {"app": "d"}},
                    "spec": {"containers": list(containers)},
                },
            },
        }

    store.apply(
        info,
        deployment({"name": "app", "image": "a:1", "ports": [{"containerPort": 80}]}),
        field_manager="m",
    )
    store.patch(
        info, "ns", "d",
        {"spec": {"template": {"spec": {"containers": [
            {"name": "app", "image": "a:1", "ports": [{"containerPort": 80}]},
            {"name": "sidecar", "image": "s:1"},
        ]}}}},
    )  # fmt: skip
    applied = store.apply(info, deployment({"name": "app", "image": "a:2"}), field_manager="m")
    containers = applied["spec"]["template"]["spec"]["containers"]
    # (each container defaulted as the server defaults it: validation.builtin_defaulting)
    assert [(c["name"], c["image"], "ports" in c) for c in containers] == [
        ("app", "a:2", False),
        ("sidecar", "s:1", False),
    ]


def test_delete_with_uid_precondition() -> None:
    store = make_store()
    info = store.resolve("v1/ConfigMap")
    created = store.create(info, configmap("c", {}))
    with pytest.raises(StoreRefusal) as caught:
        store.delete(info, "ns", "c", uid="other")
    assert caught.value.status == 409
    assert "the UID in the precondition (other) does not match" in caught.value.message
    store.delete(info, "ns", "c", uid=created["metadata"]["uid"])
    assert store.list(info) == []
    with pytest.raises(StoreRefusal) as missing:
        store.delete(info, "ns", "c")
    assert missing.value.status == 404


def test_cascading_deletion_of_owned_children_transitively() -> None:
    store = make_store()
    winfo = store.resolve(f"widgets.{GROUP}/v1")
    cinfo = store.resolve("v1/ConfigMap")
    parent = store.create(winfo, widget("p"))
    other = store.create(winfo, widget("o"))
    child = store.create(cinfo, configmap("child", {}, owner=parent))
    store.create(cinfo, configmap("grandchild", {}, owner=child))
    shared = configmap("shared", {}, owner=parent)
    # a second owner, not a controller (one controller reference at most: the server's
    # ValidateOwnerReferences, which the store runs on built-ins too)
    shared["metadata"]["ownerReferences"].append({**owner_ref(other), "controller": False})
    store.create(cinfo, shared)
    store.create(cinfo, configmap("free", {}))
    store.delete(winfo, "ns", "p")
    assert [c["metadata"]["name"] for c in store.list(cinfo)] == ["free", "shared"]
    store.delete(winfo, "ns", "o")
    assert [c["metadata"]["name"] for c in store.list(cinfo)] == ["free"]


def test_finalizers_hold_a_deleted_object_until_removed() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    created = store.create(
        info, {**widget(), "metadata": {"name": "w", "namespace": "ns", "finalizers": ["f"]}}
    )
    store.delete(info, "ns", "w")
    held = store.get(info, "ns", "w")
    assert held["metadata"]["deletionTimestamp"]
    assert held["metadata"]["generation"] == created["metadata"]["generation"] + 1
    store.patch(info, "ns", "w", {"metadata": {"finalizers": None}})
    assert store.list(info) == []


def drain(events: Any, count: int) -> list[ReflectorEvent]:
    return [next(events) for _ in range(count)]


def test_list_then_watch_and_selector_transitions() -> None:
    store = make_store()
    info = store.resolve("v1/ConfigMap")
    labelled = configmap("a", {})
    labelled["metadata"]["labels"] = {"app": "x"}
    store.create(info, labelled)
    store.create(info, configmap("b", {}))
    stop = threading.Event()
    every = store.list_then_watch(info, stop=stop, namespace="ns")
    selected = store.list_then_watch(info, stop=stop, label_selector="app=x")
    first = drain(every, 3)
    assert [(e.type, e.object and e.object["metadata"]["name"]) for e in first] == [
        (EventType.ADDED, "a"), (EventType.ADDED, "b"), (EventType.SYNCED, None),
    ]  # fmt: skip
    assert [e.type for e in drain(selected, 2)] == [EventType.ADDED, EventType.SYNCED]
    store.patch(info, "ns", "a", {"metadata": {"labels": {"app": "y"}}})
    store.patch(info, "ns", "b", {"metadata": {"labels": {"app": "x"}}})
    store.delete(info, "ns", "b")
    seen = [(e.type, e.object["metadata"]["name"]) for e in drain(selected, 3) if e.object]
    assert seen == [(EventType.DELETED, "a"), (EventType.ADDED, "b"), (EventType.DELETED, "b")]
    changes = drain(every, 3)
    assert [e.type for e in changes] == [EventType.MODIFIED, EventType.MODIFIED, EventType.DELETED]
    versions = [int(e.object["metadata"]["resourceVersion"]) for e in changes if e.object]
    assert versions == sorted(versions) and len(set(versions)) == 3
    stop.set()
    assert list(every) == []
    assert [c["metadata"]["name"] for c in store.list(info, label_selector={"app": "y"})] == ["a"]


def test_watches_quiet_once_every_reader_is_back_for_more() -> None:
    """The mark ``Controller.wait_idle`` ends on: None while a reader holds an event it
    has not finished with, the count of events sent once it asks for the next."""
    store = make_store()
    info = store.resolve("v1/ConfigMap")
    stop = threading.Event()
    received: list[ReflectorEvent] = []
    handling = threading.Event()  # the reader finishes an event when this is set

    def read() -> None:
        for event in store.list_then_watch(info, stop=stop):
            received.append(event)
            handling.wait()

    def mark_when_quiet() -> int | None:
        deadline = time.monotonic() + 10
        while (mark := store.watches_quiet()) is None and time.monotonic() < deadline:
            time.sleep(0.005)
        return mark

    reader = threading.Thread(target=read, daemon=True)
    handling.set()
    reader.start()
    try:
        # the reader's watch is open once it holds the SYNCED: before that no watch
        # exists and the store is quiet at 0 (a thread slow to start failed 2 of 6 runs)
        deadline = time.monotonic() + 10
        while not received and time.monotonic() < deadline:
            time.sleep(0.005)
        first = mark_when_quiet()
        assert first is not None and [e.type for e in received] == [EventType.SYNCED]
        handling.clear()
        store.create(info, configmap("a", {}))
        deadline = time.monotonic() + 10
        while len(received) < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert received[-1].type is EventType.ADDED
        assert store.watches_quiet() is None  # the reader holds it
        handling.set()
        assert mark_when_quiet() == first + 1
        store.create(info, configmap("b", {}))  # a write moves the mark on
        assert mark_when_quiet() == first + 2
    finally:
        stop.set()
        handling.set()
        reader.join(5)
    assert not reader.is_alive()


def test_events_are_recorded_in_memory() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    obj = store.create(info, widget())
    store.record_event(obj, "Synced", "all good")
    store.record_event(obj, "Dry", "not kept", dry_run=True)
    [event] = store.events
    assert event["involvedObject"]["uid"] == obj["metadata"]["uid"]
    assert (event["reason"], event["message"], event["type"]) == ("Synced", "all good", "Normal")


def test_concurrent_writers_get_distinct_resource_versions() -> None:
    store = make_store()
    info = store.resolve("v1/ConfigMap")

    def write(n: int) -> None:
        for i in range(50):
            store.apply(info, configmap(f"c{n}", {"i": str(i)}), field_manager="m")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    listed = store.list(info)
    assert [c["data"] for c in listed] == [{"i": "49"}] * 4
    versions = {c["metadata"]["resourceVersion"] for c in listed}
    assert len(versions) == 4
    assert max(int(v) for v in versions) == 200


def test_resolve_refuses_unknown_resources() -> None:
    store = make_store()
    from kubectl_crd.model.errors import ResourceNotFoundError, VersionNotFoundError

    with pytest.raises(ResourceNotFoundError, match='no matches for kind "Gadget"'):
        store.resolve("example.com/v1/Gadget")
    # the CRD is there: not "not found", as ClusterBackend.resolve says it
    with pytest.raises(VersionNotFoundError, match='no version "v2"'):
        store.resolve(f"widgets.{GROUP}/v2")
    assert store.resolve_kind(f"{GROUP}/v1", "Widget").has_status


def test_merge_patch_rfc7386() -> None:
    assert apply_merge_patch({"a": 1, "b": {"c": 2, "d": 3}}, {"b": {"c": None, "e": 4}, "f": [1]}) == {
        "a": 1, "b": {"d": 3, "e": 4}, "f": [1],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("target", "patch", "merged"),
    [
        # a value that replaces nothing, null or a non-mapping: its null map values
        # pruned, in lists too (a list's null items stay)
        ({}, {"a": [{"b": None, "c": 1}, None]}, {"a": [{"c": 1}, None]}),
        ({"a": None}, {"a": {"b": None, "c": [None]}}, {"a": {"c": [None]}}),
        ({"a": [1]}, {"a": [None, {"b": None}]}, {"a": [None, {}]}),
        ({"a": 1}, {"a": {"b": None, "c": {"d": None}}}, {"a": {"c": {}}}),
        # one that replaces a mapping: taken as sent
        ({"a": {"x": 1}}, {"a": [None, {"b": None}]}, {"a": [None, {"b": None}]}),
    ],
)
def test_merge_patch_prunes_nulls_as_json_patch_v4(
    target: dict[str, Any], patch: dict[str, Any], merged: dict[str, Any]
) -> None:
    """kube-apiserver's merge (json-patch v4's MergePatch) prunes the null map values of
    a value it did not merge into a mapping (pruneNulls), in lists too, where RFC 7386
    keeps them in lists."""
    assert apply_merge_patch(target, patch) == merged


def test_dry_run_writes_are_admitted_and_not_stored() -> None:
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    cinfo = store.resolve("v1/ConfigMap")
    answer = store.apply(info, widget(size=2), field_manager="m", dry_run=True)
    assert answer["spec"] == {"size": 2, "color": "blue"}
    assert store.list(info) == []
    with pytest.raises(StoreRefusal):
        store.apply(info, widget(size=12), field_manager="m", dry_run=True)
    store.create(info, widget(size=1))
    store.create(cinfo, configmap("c", {"a": "1"}))
    stop = threading.Event()
    events = store.list_then_watch(cinfo, stop=stop)
    assert [e.type for e in drain(events, 2)] == [EventType.ADDED, EventType.SYNCED]
    store.patch(info, "ns", "w", {"spec": {"size": 5}}, dry_run=True)
    store.apply(cinfo, configmap("c", {"a": "2"}), field_manager="m", dry_run=True)
    store.delete(cinfo, "ns", "c", dry_run=True)
    store.record_event(answer, "R", "m", dry_run=True)
    assert store.get(info, "ns", "w")["spec"]["size"] == 1
    assert store.get(cinfo, "ns", "c")["data"] == {"a": "1"}
    assert store.events == []
    store.patch(cinfo, "ns", "c", {"data": {"a": "3"}})
    # the first event after the dry runs is the real write
    assert [(e.type, e.object and e.object["data"]) for e in drain(events, 1)] == [
        (EventType.MODIFIED, {"a": "3"})
    ]
    stop.set()


def test_a_callers_object_is_copied_as_plain_json() -> None:
    # the store keeps what a JSON round trip to the server would make of a caller's
    # object: tuples as lists, any mapping a dict, nothing shared with the caller
    from types import MappingProxyType

    from kubectl_crd.reconcile.localstore import _plain_object

    inner = {"k": "v"}
    given = {"a": [inner, inner], "t": ("x", 1), "m": {"n": None, "s": "with ( paren"}}
    copied = _plain_object(given)
    assert copied == {"a": [inner, inner], "t": ["x", 1], "m": {"n": None, "s": "with ( paren"}}
    assert copied["a"][0] is not inner and copied["a"][1] is not inner
    plain_data = {"a": [inner], "b": True, "f": 1.5}  # the fast path (no tuple in it)
    fast = _plain_object(plain_data)
    assert fast == plain_data and fast["a"][0] is not inner
    view = _plain_object({"p": MappingProxyType({"q": (1,)})})
    assert view == {"p": {"q": [1]}} and type(view["p"]) is dict


def test_every_answer_is_the_callers_own_copy() -> None:
    # a create read back in its storage version is the stored dict itself in admission's
    # result: the store must answer with a copy (and keep managedFields out of storage)
    store = make_store()
    info = store.resolve(f"widgets.{GROUP}/v1")
    created = store.create(info, widget("made", size=1))
    created["spec"]["size"] = 9
    applied = store.apply(info, widget("applied", size=2), field_manager="m")
    applied["spec"]["size"] = 9
    applied["metadata"]["managedFields"][0]["manager"] = "changed"
    status = store.update_status(info, {**store.get(info, "ns", "made"), "status": {"n": 1}})
    status["status"]["n"] = 9
    assert store.get(info, "ns", "made")["spec"]["size"] == 1
    assert store.get(info, "ns", "made")["status"] == {"n": 1}
    again = store.get(info, "ns", "applied")
    assert again["spec"]["size"] == 2
    assert [e["manager"] for e in again["metadata"]["managedFields"]] == ["m"]
    made = store.get(info, "ns", "made")["metadata"]["managedFields"]
    assert [(e["manager"], e.get("subresource")) for e in made] == [
        ("kubectl-crd", None),
        ("kubectl-crd", "status"),
    ]
    # the same fields applied again: the same managedFields, built from the same record
    repeated = store.apply(info, widget("applied", size=2), field_manager="m")
    assert repeated["metadata"]["managedFields"] == again["metadata"]["managedFields"]
    assert repeated["metadata"]["resourceVersion"] == again["metadata"]["resourceVersion"]


def test_a_merge_patch_whose_result_does_not_decode_is_a_422_of_the_field_patch() -> None:
    """The patch handler's wording (apiserver handlers/patch.go), not the 400 of an
    update: held to kube-apiserver by the decoding differential."""
    store = make_store()
    info = store.resolve("v1/ConfigMap")
    store.create(info, configmap("c", {"a": "<b>"}))
    with pytest.raises(StoreRefusal) as caught:
        store.patch(info, "ns", "c", {"data": {"n": 1}})
    status = caught.value.status_object or {}
    assert (caught.value.status, status["reason"]) == (422, "Invalid")
    message = status["message"]
    assert message.startswith(' "" is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"v1\\",')
    # json.Marshal's HTML-safe escapes inside the quoted JSON
    assert '\\"a\\":\\"\\\\u003cb\\\\u003e\\"' in message
    assert message.endswith(
        '": json: cannot unmarshal number into Go struct field ConfigMap.data of type string'
    )
    assert status["details"]["causes"][0]["field"] == "patch"
    assert store.get(info, "ns", "c")["data"] == {"a": "<b>"}


def _service(name: str, **spec: Any) -> dict[str, Any]:
    body = {"ports": [{"port": 80}], "selector": {"app": "web"}, **spec}
    return {"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": body}


def test_a_refused_service_write_holds_no_address_or_node_port() -> None:
    """The registry reverts the allocation of a write its validation then refuses
    (alloc.go txn.Revert): the next Service gets the lowest free address and port."""
    store = ObjectStore()
    info = store.resolve("v1/Service")
    unnamed = _service("a", type="NodePort", ports=[{"port": 80}, {"port": 81}])
    with pytest.raises(StoreRefusal, match=r"spec.ports\[0\].name: Required value"):
        store.create(info, unnamed)
    made = store.create(info, _service("b", type="NodePort"))
    assert (made["spec"]["clusterIP"], made["spec"]["ports"][0]["nodePort"]) == ("10.0.0.2", 30000)
    changed = _service("b", type="NodePort", ports=[{"port": 80}, {"port": 81}])
    with pytest.raises(StoreRefusal, match=r"spec.ports\[0\].name: Required value"):
        store.update(info, changed)
    again = store.create(info, _service("c", type="NodePort"))
    assert (again["spec"]["clusterIP"], again["spec"]["ports"][0]["nodePort"]) == (
        "10.0.0.3",
        30001,
    )


def test_a_service_address_with_leading_zeros_is_freed_by_its_delete() -> None:
    """ParseIPSloppy reads 10.0.0.010 as 10.0.0.10: it holds that address, and its
    delete frees it for a Service that asks for it spelt plainly."""
    store = ObjectStore()
    info = store.resolve("v1/Service")
    store.create(info, _service("a", clusterIP="10.0.0.010"))
    with pytest.raises(StoreRefusal, match="provided IP is already allocated"):
        store.create(info, _service("b", clusterIP="10.0.0.10"))
    store.delete(info, "default", "a")
    assert (
        store.create(info, _service("b", clusterIP="10.0.0.10"))["spec"]["clusterIP"] == "10.0.0.10"
    )


def test_deletions_a_write_sets_off_change_no_managed_fields() -> None:
    # the owner's last finalizer removed by "m": the owner goes, and the garbage
    # collector's delete marks its dependent, held by a finalizer; that marking is no
    # write of "m" (the delete handler runs no field manager)
    store = make_store()
    info = store.resolve("v1/ConfigMap")
    owner = configmap("owner", {"a": "1"})
    owner["metadata"]["finalizers"] = ["example.com/keep"]
    owner = store.create(info, owner, field_manager="maker")
    dependent = configmap("dependent", {"b": "2"}, owner=owner)
    dependent["metadata"]["finalizers"] = ["example.com/keep"]
    before = store.create(info, dependent, field_manager="maker")["metadata"]["managedFields"]
    store.delete(info, "ns", "owner")
    store.patch(info, "ns", "owner", {"metadata": {"finalizers": None}}, field_manager="m")
    marked = store.get(info, "ns", "dependent")
    assert marked["metadata"]["deletionTimestamp"]
    assert marked["metadata"]["managedFields"] == before
