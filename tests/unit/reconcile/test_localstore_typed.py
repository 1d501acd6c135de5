"""The store's typed check of an apply (``ObjectStore.apply`` -> ``validation.typed``).

The messages are the server's (tests/integration/test_localstore_typed_differential.py
compares them with kube-apiserver); these pin what the store does around the check:
nothing stored and no resourceVersion used by a refused apply, a dry run refused alike,
the list-map keys of built-ins taken from the same schemas, ``run_reconcile`` showing a
mistyped child as its error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.errors import StoreRefusal
from kubectl_crd.reconcile.localstore import ObjectStore

MANAGER = "m"


def configmap(**top: Any) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "a", "namespace": "ns"},
        **top,
    }


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_mistyped_apply_is_refused_before_anything_is_stored(dry_run: bool) -> None:
    store = ObjectStore()
    info = store.resolve("v1/ConfigMap")
    store.apply(
        info, configmap(metadata={"name": "other", "namespace": "ns"}), field_manager=MANAGER
    )
    before = store.get(info, "ns", "other")["metadata"]["resourceVersion"]
    with pytest.raises(StoreRefusal) as refused:
        store.apply(info, configmap(data={"a": 1}), field_manager=MANAGER, dry_run=dry_run)
    message = (
        "failed to create typed patch object (ns/a; /v1, Kind=ConfigMap): "
        ".data.a: expected string, got &value.valueUnstructured{Value:1}"
    )
    assert (refused.value.status, refused.value.reason) == (500, "")
    assert refused.value.status_object == {
        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
        "message": message, "code": 500,
    }  # fmt: skip
    assert refused.value.message == f"Error from server: {message}"
    with pytest.raises(StoreRefusal) as missing:
        store.get(info, "ns", "a")
    assert missing.value.status == 404
    # the next write takes the next number: the refused one used none
    written = store.apply(info, configmap(data={"a": "1"}), field_manager=MANAGER)
    assert int(written["metadata"]["resourceVersion"]) == int(before) + 1


def test_a_mistyped_update_of_an_existing_object_keeps_it() -> None:
    store = ObjectStore()
    info = store.resolve("v1/ConfigMap")
    store.apply(info, configmap(data={"a": "1"}), field_manager=MANAGER)
    with pytest.raises(StoreRefusal):
        store.apply(info, configmap(data={"a": "2", "b": True}), field_manager=MANAGER)
    assert store.get(info, "ns", "a")["data"] == {"a": "1"}


def test_a_finalizer_applied_twice_by_two_managers_is_kept_once() -> None:
    """``metadata.finalizers`` is a set in ObjectMeta's schema: two managers' applies
    make a union (the server's answer), not the last one's list."""
    store = ObjectStore()
    info = store.resolve("v1/ConfigMap")
    first = configmap(metadata={"name": "a", "namespace": "ns", "finalizers": ["x.io/a"]})
    second = configmap(metadata={"name": "a", "namespace": "ns", "finalizers": ["x.io/b"]})
    store.apply(info, first, field_manager="one")
    written = store.apply(info, second, field_manager="two")
    assert written["metadata"]["finalizers"] == ["x.io/a", "x.io/b"]


def test_run_reconcile_shows_a_mistyped_child_as_its_error(tmp_path: Path) -> None:
    from kubectl_crd.reconcile.testing import run_reconcile

    reconciler = tmp_path / "r.py"
    reconciler.write_text(
        'FOR = "v1/ConfigMap"\n'
        'OWNS = ["v1/Secret"]\n'
        "def reconcile(obj, ctx):\n"
        '    return {"children": [{"apiVersion": "v1", "kind": "Secret",\n'
        '        "metadata": {"name": "s"}, "stringData": {"n": 3}}]}\n'
    )
    out = run_reconcile(reconciler, configmap(data={"a": "1"}))
    assert isinstance(out.error, StoreRefusal)
    assert out.error.status_object["message"] == (
        "failed to create typed patch object (ns/s; /v1, Kind=Secret): "
        ".stringData.n: expected string, got &value.valueUnstructured{Value:3}"
    )
