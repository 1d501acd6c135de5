"""``LocalBackend``: DIR's files as creates, updates and deletes in the local store."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.reconcile.local import LocalBackend, LocalProblem
from tests.unit.reconcile.test_localstore import GROUP, widget_crd

WIDGET = """\
apiVersion: store.example.com/v1
kind: Widget
metadata:
  name: {name}
  namespace: ns
spec:
  size: {size}
"""

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx:1}]}
status:
  availableReplicas: 2
"""


@pytest.fixture
def directory(tmp_path: Path) -> Path:
    (tmp_path / "crd.json").write_text(json.dumps(widget_crd()))
    (tmp_path / "a.yaml").write_text(WIDGET.format(name="a", size=1) + "---\n" + DEPLOYMENT)
    return tmp_path


def names(backend: LocalBackend, spec: str) -> list[str]:
    info = backend.resolve(spec)
    return [o["metadata"]["name"] for o in backend.store.list(info)]


def test_load_serves_crds_and_writes_objects_with_their_status(directory: Path) -> None:
    backend = LocalBackend(str(directory))
    assert backend.load() == []
    assert names(backend, f"widgets.{GROUP}/v1") == ["a"]
    deployment = backend.store.get(backend.resolve("apps/v1/Deployment"), "default", "web")
    assert deployment["status"] == {"availableReplicas": 2}
    assert deployment["metadata"]["generation"] == 1


def test_an_invalid_edit_is_reported_at_its_line_and_the_last_good_object_stays(
    directory: Path,
) -> None:
    seen: list[LocalProblem] = []
    backend = LocalBackend(str(directory), on_problem=seen.append)
    backend.load()
    info = backend.resolve(f"widgets.{GROUP}/v1")
    (directory / "a.yaml").write_text(WIDGET.format(name="a", size=11))
    backend.sync([str(directory / "a.yaml")])
    [problem] = seen
    assert str(problem).startswith(f"{directory / 'a.yaml'}:7:9: spec.size: Invalid value: 11")
    assert backend.store.get(info, "ns", "a")["spec"]["size"] == 1
    (directory / "a.yaml").write_text(WIDGET.format(name="a", size=3))
    backend.sync([str(directory / "a.yaml")])
    assert backend.problems == []
    stored = backend.store.get(info, "ns", "a")
    assert (stored["spec"]["size"], stored["metadata"]["generation"]) == (3, 2)
    # the Deployment left the file: deleted
    assert names(backend, "apps/v1/Deployment") == []


def test_the_loops_writes_survive_an_edit_and_a_removed_file_deletes_with_children(
    directory: Path,
) -> None:
    backend = LocalBackend(str(directory))
    backend.load()
    info = backend.resolve(f"widgets.{GROUP}/v1")
    parent = backend.store.get(info, "ns", "a")
    backend.patch(info, "ns", "a", {"status": {"ready": True}}, subresource="status")
    backend.patch(info, "ns", "a", {"metadata": {"finalizers": ["dev/f"]}})
    child: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "a-config",
            "namespace": "ns",
            "ownerReferences": [
                {"apiVersion": f"{GROUP}/v1", "kind": "Widget", "name": "a",
                 "uid": parent["metadata"]["uid"], "controller": True}
            ],
        },
    }  # fmt: skip
    backend.apply(backend.resolve("v1/ConfigMap"), child, field_manager="kubectl-crd-dev")
    (directory / "a.yaml").write_text(WIDGET.format(name="a", size=2))
    backend.sync([str(directory / "a.yaml")])
    edited = backend.store.get(info, "ns", "a")
    assert edited["status"] == {"ready": True}
    assert edited["metadata"]["finalizers"] == ["dev/f"]
    (directory / "a.yaml").unlink()
    backend.sync([str(directory / "a.yaml")])
    held = backend.store.get(info, "ns", "a")  # its finalizer holds it
    assert held["metadata"]["deletionTimestamp"]
    backend.patch(info, "ns", "a", {"metadata": {"finalizers": None}})
    assert names(backend, f"widgets.{GROUP}/v1") == []
    assert names(backend, "v1/ConfigMap") == []


def test_unknown_kinds_and_yaml_errors_are_problems(directory: Path) -> None:
    (directory / "b.yaml").write_text(
        "apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n---\nkey: [\n"
    )
    backend = LocalBackend(str(directory))
    problems = [str(p) for p in backend.load()]
    assert (
        problems[0]
        == f'{directory / "b.yaml"}:1:1: no matches for kind "Gadget" in version "example.com/v1"'
    )
    assert len(problems) == 2 and problems[1].startswith(f"{directory / 'b.yaml'}:")


def test_watching_dir_turns_saves_into_writes(directory: Path) -> None:
    changed = threading.Event()
    backend = LocalBackend(str(directory), on_change=lambda paths: changed.set(), settle=0.05)
    backend.load()
    backend.start_watching()  # returns with the observer armed
    try:
        (directory / "c.yaml").write_text(WIDGET.format(name="c", size=4))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "c" not in names(backend, f"widgets.{GROUP}/v1"):
            time.sleep(0.02)
        assert names(backend, f"widgets.{GROUP}/v1") == ["a", "c"]
        assert changed.is_set()
    finally:
        backend.close()


class ChildPerWidget:
    """A ConfigMap per Widget (a list-map free child) and a status; finalizer too."""

    for_resource = f"widgets.{GROUP}/v1"
    owns = ("v1/ConfigMap",)
    watches: tuple[Any, ...] = ()
    has_finalize = True
    finalizer = "store.example.com/cleanup"

    def __init__(self) -> None:
        self.finalized: list[str] = []

    def call(self, obj: dict[str, Any], ctx: Any) -> Any:
        from kubectl_crd.reconcile.api import Result

        name = obj["metadata"]["name"]
        child = {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": f"{name}-config", "labels": {"widget": name}},
            "data": {"size": str(obj["spec"].get("size"))},
        }
        return Result(children=[child], status={"size": obj["spec"].get("size")})

    def finalize(self, obj: dict[str, Any], ctx: Any) -> Any:
        from kubectl_crd.reconcile.api import Result

        self.finalized.append(obj["metadata"]["name"])

        class Done:
            result = Result()
            finalized = True

        return Done()

    def parents_of(self, resource: Any, obj: Any) -> list[tuple[str, str]]:
        return []


def test_the_controller_converges_on_the_local_backend_and_a_restart_writes_nothing(
    directory: Path,
) -> None:
    from kubectl_crd.reconcile.controller import Controller
    from kubectl_crd.reconcile.events import Write

    for n in range(5):
        (directory / f"w{n}.yaml").write_text(WIDGET.format(name=f"w{n}", size=n))
    backend = LocalBackend(str(directory))
    backend.load()
    writes: list[Write] = []

    def run() -> None:
        controller = Controller(
            backend, ChildPerWidget(), lambda e: writes.append(e) if isinstance(e, Write) else None
        )
        controller.start()
        assert controller.wait_idle(timeout=10, settle=0.2)
        controller.stop()

    run()
    info = backend.resolve(f"widgets.{GROUP}/v1")
    widgets = backend.store.list(info)
    assert [w["status"] for w in widgets] == [
        {"size": 1, "observedGeneration": 1},
        *({"size": n, "observedGeneration": 1} for n in range(5)),
    ]
    children = backend.store.list(backend.resolve("v1/ConfigMap"))
    assert [c["metadata"]["ownerReferences"][0]["name"] for c in children] == [
        "a",
        *(f"w{n}" for n in range(5)),
    ]
    verbs = sorted(w.verb for w in writes)
    assert verbs.count("apply") == 6 and verbs.count("add-finalizer") == 6

    def versions() -> list[str]:
        every = [*backend.store.list(info), *backend.store.list(backend.resolve("v1/ConfigMap"))]
        return [o["metadata"]["resourceVersion"] for o in every]

    before = versions()
    writes.clear()
    run()
    assert writes == []
    assert versions() == before
    # a file removed: the finalizer runs, the object and its child go
    (directory / "w4.yaml").unlink()
    backend.sync([str(directory / "w4.yaml")])
    reconciler = ChildPerWidget()
    controller = Controller(backend, reconciler)
    controller.start()
    try:
        assert controller.wait_idle(timeout=10, settle=0.2)
    finally:
        controller.stop()
    # at least once: the child's cascade DELETED may enqueue w4 again before the Widget
    # informer has seen w4 go (separate watches, as with a real server's garbage
    # collector), and finalize runs again on the cached copy: finalizers must be idempotent
    assert set(reconciler.finalized) == {"w4"}
    assert "w4-config" not in [
        c["metadata"]["name"] for c in backend.store.list(backend.resolve("v1/ConfigMap"))
    ]


def test_a_broken_crd_is_a_problem_and_serves_nothing(directory: Path) -> None:
    broken = widget_crd()
    broken["metadata"]["name"] = "gadgets.store.example.com"
    broken["spec"]["names"] = {"plural": "gadgets", "kind": "Gadget"}
    broken["spec"]["versions"] = []
    (directory / "broken.json").write_text(json.dumps(broken))
    backend = LocalBackend(str(directory))
    [problem] = backend.load()
    assert str(problem.location).startswith(str(directory / "broken.json"))
    with pytest.raises(Exception, match="no matches for kind"):
        backend.resolve("store.example.com/v1/Gadget")


def test_a_file_that_does_not_read_deletes_nothing(directory: Path) -> None:
    backend = LocalBackend(str(directory))
    backend.load()
    path = directory / "a.yaml"
    path.write_text(WIDGET.format(name="a", size=1) + "  bad: [\n")
    backend.sync([str(path)])
    assert backend.problems and str(backend.problems[0]).startswith(f"{path}:")
    assert names(backend, f"widgets.{GROUP}/v1") == ["a"]
    assert names(backend, "apps/v1/Deployment") == ["web"]
    path.write_text(WIDGET.format(name="a", size=1))
    backend.sync([str(path)])
    assert backend.problems == []
    assert names(backend, "apps/v1/Deployment") == []


def test_a_builtin_with_invalid_metadata_is_a_problem_at_its_line(tmp_path: Path) -> None:
    # the store validates a built-in's metadata as the server does (differential:
    # tests/integration/test_localstore_metadata_differential.py); from DIR, the cause
    # is a file:line:column problem and the object is not written
    (tmp_path / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n"
        "    ok: yes-fine\n    bad key: x\ndata:\n  a: '1'\n"
    )
    problems = LocalBackend(str(tmp_path)).load()
    (problem,) = problems
    assert problem.location.file.endswith("cm.yaml")
    assert problem.location.line == 6  # metadata.labels: where its value starts
    assert problem.message.startswith('metadata.labels: Invalid value: "bad key": name part')
    backend = LocalBackend(str(tmp_path))
    backend.load()
    assert names(backend, "v1/ConfigMap") == []


def test_a_builtin_keeps_no_empty_metadata_maps(tmp_path: Path) -> None:
    (tmp_path / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels: {}\n"
        "  annotations: {}\n  finalizers: []\n"
    )
    backend = LocalBackend(str(tmp_path))
    assert backend.load() == []
    stored = backend.store.get(backend.resolve("v1/ConfigMap"), "default", "cm")
    assert not {"labels", "annotations", "finalizers"} & set(stored["metadata"])


def test_wait_idle_ends_when_the_stores_watches_are_quiet_not_after_a_settle(
    directory: Path,
) -> None:
    """The store tells when every event it sent was handled, so ``wait_idle`` needs no
    settle (one of an hour would run into the timeout) and answers only after the
    reconciles the loop's own writes start (the finalizer's, the children's events):
    nothing runs after it."""
    from kubectl_crd.reconcile.controller import Controller

    for n in range(20):
        (directory / f"w{n}.yaml").write_text(WIDGET.format(name=f"w{n}", size=n % 10))
    backend = LocalBackend(str(directory))
    assert backend.load() == []
    calls: list[str] = []

    class Counting(ChildPerWidget):
        def call(self, obj: dict[str, Any], ctx: Any) -> Any:
            calls.append(obj["metadata"]["name"])
            return super().call(obj, ctx)

    controller = Controller(backend, Counting(), workers=4)
    controller.start()
    try:
        assert controller.wait_idle(timeout=10, settle=3600)
        seen = sorted(calls)
        time.sleep(0.3)
        assert sorted(calls) == seen
        assert set(seen) == {"a", *(f"w{n}" for n in range(20))}
    finally:
        controller.stop()
        backend.close()
