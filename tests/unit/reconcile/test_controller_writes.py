"""The controller's pure decisions: whether a child needs an apply, the status patch, the
``FOR`` update filter, resource spellings, and the Kubernetes Event it records.

The managedFields below are what kube-apiserver 1.34 answered for an apply by
``kubectl-crd-dev`` (``tests/integration/test_dev_controller.py`` holds the whole loop to
the server, including a restart that makes no write).
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.reconcile.backends import kubernetes_event, parse_resource_spec
from kubectl_crd.reconcile.controller import (
    _for_update_matters,
    managed_paths,
    merge_patch,
    needs_apply,
    object_paths,
    subset,
)

OWNER = {
    "apiVersion": "dev.example.com/v1",
    "kind": "Widget",
    "name": "w0",
    "uid": "u-1",
    "controller": True,
    "blockOwnerDeletion": True,
}
DESIRED = {
    "apiVersion": "v1",
    "kind": "ConfigMap",
    "metadata": {
        "name": "w0-config",
        "namespace": "ns",
        "labels": {"widget": "w0"},
        "ownerReferences": [OWNER],
    },
    "data": {"message": "w0"},
}
# as a list answers it: no apiVersion or kind on the items
CACHED = {
    "metadata": {
        "name": "w0-config",
        "namespace": "ns",
        "uid": "c-1",
        "resourceVersion": "208",
        "labels": {"widget": "w0"},
        "ownerReferences": [OWNER],
        "managedFields": [
            {
                "manager": "kubectl-crd-dev",
                "operation": "Apply",
                "apiVersion": "v1",
                "fieldsType": "FieldsV1",
                "fieldsV1": {
                    "f:data": {"f:message": {}},
                    "f:metadata": {
                        "f:labels": {"f:widget": {}},
                        "f:ownerReferences": {'k:{"uid":"u-1"}': {}},
                    },
                },
            }
        ],
    },
    "data": {"message": "w0"},
}


def with_(obj: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    import copy

    changed = copy.deepcopy(obj)
    target = changed
    for key in path[:-1]:
        target = target.setdefault(key, {})
    if value is None:
        target.pop(path[-1], None)
    else:
        target[path[-1]] = value
    return changed


# -- subset ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("desired", "actual", "expected"),
    [
        ({"a": 1}, {"a": 1, "b": 2}, True),
        ({"a": 1}, {"a": 2}, False),
        ({"a": 1}, {}, False),
        ({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}}, True),
        ({"a": [{"x": 1}]}, {"a": [{"x": 1, "default": True}]}, True),  # server defaults
        ({"a": [1, 2]}, {"a": [1]}, False),
        ({"a": [1]}, {"a": [1, 2]}, False),
        ({"a": True}, {"a": 1}, False),
        ({"a": 1}, {"a": True}, False),
        ({"a": None}, {}, True),
        ({"a": None}, {"a": 1}, False),
        ({"a": "1"}, {"a": 1}, False),
        ({}, {"a": 1}, True),
        # quantities in resource-like fields compare by value, as the server stores them
        ({"limits": {"cpu": 0.5}}, {"limits": {"cpu": "500m"}}, True),
        ({"requests": {"memory": "1024Mi"}}, {"requests": {"memory": "1Gi"}}, True),
        ({"hard": {"pods": "1e3"}}, {"hard": {"pods": "1k"}}, True),
        ({"emptyDir": {"sizeLimit": "0.5Gi"}}, {"emptyDir": {"sizeLimit": "512Mi"}}, True),
        ({"limits": {"cpu": "0.5"}}, {"limits": {"cpu": "501m"}}, False),
        ({"limits": {"cpu": "x"}}, {"limits": {"cpu": "y"}}, False),
        # ... and nowhere else (a ConfigMap's data is kept as written)
        ({"data": {"cpu": "0.5"}}, {"data": {"cpu": "500m"}}, False),
        ({"cpu": 0.5}, {"cpu": "500m"}, False),
    ],
)
def test_subset(desired: Any, actual: Any, expected: bool) -> None:
    assert subset(desired, actual) is expected


# -- needs_apply -----------------------------------------------------------------------


def test_a_converged_child_needs_no_apply() -> None:
    assert object_paths(DESIRED) == {
        ("metadata", "labels", "widget"),
        ("metadata", "ownerReferences"),
        ("data", "message"),
    }
    assert managed_paths(CACHED, "kubectl-crd-dev") == object_paths(DESIRED)
    assert needs_apply(DESIRED, CACHED, "kubectl-crd-dev") is False


def test_a_child_needs_an_apply_when() -> None:
    manager = "kubectl-crd-dev"
    # ... it is not in the cache
    assert needs_apply(DESIRED, None, manager)
    # ... a value differs
    assert needs_apply(with_(DESIRED, ("data", "message"), "new"), CACHED, manager)
    # ... a new field is desired
    assert needs_apply(with_(DESIRED, ("data", "extra"), "x"), CACHED, manager)
    # ... a field the manager owns is no longer desired (an apply removes it)
    assert needs_apply(with_(DESIRED, ("metadata", "labels"), None), CACHED, manager)
    # ... the manager owns nothing there (someone else made the same object)
    assert needs_apply(DESIRED, with_(CACHED, ("metadata", "managedFields"), []), manager)
    # ... the ownerReference is missing
    assert needs_apply(DESIRED, with_(CACHED, ("metadata", "ownerReferences"), []), manager)
    # another manager's name does not count
    assert needs_apply(DESIRED, CACHED, "someone-else")


def test_managed_paths_reads_the_managers_apply_and_create_entries_of_the_subresource() -> None:
    # its Update entry is the create the loop made the child with (Controller._create)
    cached = with_(
        CACHED,
        ("metadata", "managedFields"),
        [
            {"manager": "kubectl-crd-dev", "operation": "Update", "fieldsV1": {"f:x": {}}},
            {"manager": "other", "operation": "Update", "fieldsV1": {"f:y": {}}},  # not ours
            {
                "manager": "kubectl-crd-dev",
                "operation": "Apply",
                "subresource": "status",
                "fieldsV1": {"f:status": {"f:ok": {}}},
            },
            {
                "manager": "kubectl-crd-dev",
                "operation": "Apply",
                # the server's form of an apply's fields: no "." beside a map's fields,
                # one beside a list map item's
                "fieldsV1": {
                    "f:spec": {
                        "f:a": {},
                        "f:list": {'k:{"name":"x"}': {".": {}, "f:name": {}}},
                    }
                },
            },
        ],
    )
    assert managed_paths(cached, "kubectl-crd-dev") == {("spec", "a"), ("spec", "list"), ("x",)}
    assert managed_paths(cached, "kubectl-crd-dev", "status") == {("status", "ok")}
    assert managed_paths(cached, "other") == {("y",)}
    assert managed_paths(cached, "nobody") is None


def test_object_paths_stop_at_lists_and_empty_maps_and_skip_identity() -> None:
    obj = {
        "apiVersion": "v1",
        "kind": "X",
        "metadata": {"name": "n", "namespace": "ns", "annotations": {}},
        "spec": {"list": [{"a": 1}], "deep": {"deeper": {"x": 1}}},
    }
    assert object_paths(obj) == {
        ("metadata", "annotations"),
        ("spec", "list"),
        ("spec", "deep", "deeper", "x"),
    }


# -- status ----------------------------------------------------------------------------


def test_merge_patch_turns_the_old_status_into_the_new() -> None:
    old = {"ready": False, "gone": 1, "nested": {"a": 1, "b": 2}, "list": [1, 2], "same": "s"}
    new = {"ready": True, "nested": {"a": 1, "c": 3}, "list": [3], "same": "s", "added": {"x": 1}}
    patch = merge_patch(old, new)
    assert patch == {
        "gone": None,
        "ready": True,
        "nested": {"b": None, "c": 3},
        "list": [3],
        "added": {"x": 1},
    }
    assert apply_merge_patch(old, patch) == new
    assert merge_patch({}, {"a": 1}) == {"a": 1}
    assert merge_patch(new, new) == {}


def apply_merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386's algorithm, as the server runs it (to check the patches above)."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = apply_merge_patch(result.get(key), value)
    return result


# -- the FOR update filter -------------------------------------------------------------


def meta(**fields: Any) -> dict[str, Any]:
    return {"metadata": {"resourceVersion": "1", "generation": 1, **fields}}


@pytest.mark.parametrize(
    ("old", "new", "enqueues"),
    [
        (meta(), meta(resourceVersion="2"), False),  # status-only (or label) write
        (meta(), meta(resourceVersion="2", generation=2), True),  # spec changed
        (meta(), meta(resourceVersion="2", deletionTimestamp="t"), True),
        (meta(), meta(resourceVersion="2", finalizers=["f"]), True),
        (meta(finalizers=["f"]), meta(resourceVersion="2"), True),
        # no generation at all (a ConfigMap): every change
        ({"metadata": {"resourceVersion": "1"}}, {"metadata": {"resourceVersion": "2"}}, True),
        ({"metadata": {"resourceVersion": "1"}}, {"metadata": {"resourceVersion": "1"}}, False),
    ],
)
def test_for_update_filter(old: Any, new: Any, enqueues: bool) -> None:
    assert _for_update_matters(old, new) is enqueues


# -- spellings and events --------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        (
            "foos.samplecontroller.k8s.io/v1alpha1",
            ("samplecontroller.k8s.io", "v1alpha1", "foos", False),
        ),
        ("configmaps/v1", ("", "v1", "configmaps", False)),
        ("apps/v1/Deployment", ("apps", "v1", "Deployment", True)),
        ("apps/v1/deployments", ("apps", "v1", "deployments", False)),
        ("v1/ConfigMap", ("", "v1", "ConfigMap", True)),
        ("v1beta1/configmaps", ("", "v1beta1", "configmaps", False)),
    ],
)
def test_resource_spellings(spec: str, parsed: tuple[str, str, str, bool]) -> None:
    assert parse_resource_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["", "foos", "a/b/c/d", "/v1", "apps//Deployment"])
def test_bad_resource_spellings(spec: str) -> None:
    with pytest.raises(ValueError, match="is not a resource"):
        parse_resource_spec(spec)


def test_kubernetes_event_as_client_go_records_one() -> None:
    involved = {
        "apiVersion": "dev.example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns", "uid": "u", "resourceVersion": "7"},
    }
    event = kubernetes_event(involved, "Synced", "all good", type="Warning", now=0.0)
    assert event["metadata"] == {"generateName": "w.", "namespace": "ns"}
    assert event["involvedObject"] == {
        "apiVersion": "dev.example.com/v1",
        "kind": "Widget",
        "name": "w",
        "namespace": "ns",
        "uid": "u",
        "resourceVersion": "7",
    }
    assert (event["reason"], event["message"], event["type"]) == ("Synced", "all good", "Warning")
    assert event["firstTimestamp"] == event["lastTimestamp"] == "1970-01-01T00:00:00Z"
    assert event["source"] == {"component": "kubectl-crd-dev"}
    cluster_scoped = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}
    assert kubernetes_event(cluster_scoped, "R", "m", now=0)["metadata"]["namespace"] == "default"


SERVICE = {
    "apiVersion": "v1",
    "kind": "Service",
    "metadata": {"name": "web", "namespace": "ns"},
    "spec": {"selector": {"app": "web"}, "ports": [{"port": 80}]},
}


def service_cached(selector: dict[str, str]) -> dict[str, Any]:
    """As kube-apiserver 1.34 keeps it: defaults filled in; spec.selector is an atomic
    map, owned whole (``f:selector: {}``)."""
    return {
        "metadata": {
            "name": "web",
            "namespace": "ns",
            "managedFields": [
                {
                    "manager": "kubectl-crd-dev",
                    "operation": "Apply",
                    "fieldsV1": {
                        "f:spec": {
                            "f:ports": {'k:{"port":80,"protocol":"TCP"}': {".": {}, "f:port": {}}},
                            "f:selector": {},
                        }
                    },
                }
            ],
        },
        "spec": {
            "selector": selector,
            "ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}],
            "clusterIP": "10.0.0.7",
            "type": "ClusterIP",
        },
    }


def test_an_atomic_map_is_owned_whole() -> None:
    manager = "kubectl-crd-dev"
    assert needs_apply(SERVICE, service_cached({"app": "web"}), manager) is False
    # a member the last apply set and the desired selector no longer has
    assert needs_apply(SERVICE, service_cached({"app": "web", "tier": "x"}), manager) is True
    assert needs_apply(SERVICE, service_cached({"app": "db"}), manager) is True


def test_an_emptied_map_is_a_change() -> None:
    manager = "kubectl-crd-dev"
    cached = with_(CACHED, ("metadata", "annotations"), {"a": "1"})
    cached["metadata"]["managedFields"][0]["fieldsV1"]["f:metadata"]["f:annotations"] = {"f:a": {}}
    desired = with_(DESIRED, ("metadata", "annotations"), {"a": "1"})
    assert needs_apply(desired, cached, manager) is False
    assert needs_apply(with_(DESIRED, ("metadata", "annotations"), {}), cached, manager) is True


def test_the_built_ins_defaulted_on_create_are_those_the_store_defaults() -> None:
    """``DEFAULTED_ON_CREATE`` (the kinds whose children the loop applies from the start)
    against ``validation.builtin_defaulting``'s plans of every built-in kind the store
    serves (the server's SetObjectDefaults, held by the defaulting differential)."""
    from kubectl_crd.reconcile.controller import DEFAULTED_ON_CREATE
    from kubectl_crd.validation import builtin_defaulting
    from kubectl_crd.validation.typed import builtin

    defaulted = set()
    for spelled in builtin().go_types["kinds"]:
        api_version, kind = spelled.rsplit("/", 1)
        builtin_defaulting.default_builtin({}, api_version, kind)
        if builtin_defaulting._KIND_PLANS.get((api_version, kind)):
            defaulted.add((api_version.rpartition("/")[0], kind))
    assert defaulted == DEFAULTED_ON_CREATE
