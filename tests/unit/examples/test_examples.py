"""Every example of ``examples/`` in CI (testpaths is ``tests``): its own unit tests (run
through ``reconcile.testing``), and its reconciler run by the real ``Controller`` over
``LocalBackend`` on the example's directory, as ``kubectl crd dev --local`` runs it."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.reconcile.controller import Controller
from kubectl_crd.reconcile.loading import load_reconciler
from kubectl_crd.reconcile.local import LocalBackend

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
NAMES = ("foo", "hook", "nginx", "xca")


def test_every_example_is_here() -> None:
    found = sorted(p.parent.name for p in EXAMPLES.glob("*/reconciler.py"))
    assert found == sorted(NAMES)


def example_tests() -> list[tuple[str, str]]:
    cases = []
    for name in NAMES:
        for path in sorted((EXAMPLES / name).glob("test_*.py")):
            source = path.read_text()
            for line in source.splitlines():
                if line.startswith("def test_"):
                    cases.append((str(path.relative_to(EXAMPLES)), line[4:].split("(")[0]))
    return cases


def _module(relative: str) -> Any:
    path = EXAMPLES / relative
    spec = importlib.util.spec_from_file_location(f"examples_{path.parent.name}_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("relative", "function"), example_tests())
def test_the_examples_own_tests(relative: str, function: str) -> None:
    getattr(_module(relative), function)()


def test_each_example_has_tests() -> None:
    assert {relative.split("/")[0] for relative, _ in example_tests()} == set(NAMES)


# -- the real loop over --local DIR --------------------------------------------------------


@contextmanager
def running(name: str) -> Iterator[tuple[LocalBackend, Controller]]:
    backend = LocalBackend(str(EXAMPLES / name))
    assert backend.load() == []
    controller = Controller(backend, load_reconciler(str(EXAMPLES / name / "reconciler.py")))
    controller.start()
    try:
        assert controller.wait_idle(timeout=10, settle=0.2)
        yield backend, controller
    finally:
        controller.stop()


def one(backend: LocalBackend, spec: str, name: str) -> dict[str, Any]:
    return backend.store.get(backend.resolve(spec), "default", name)


def owner_of(child: dict[str, Any]) -> tuple[str, str, bool]:
    [ref] = child["metadata"]["ownerReferences"]
    return ref["kind"], ref["name"], ref["controller"]


def settle(controller: Controller, check: Callable[[], bool]) -> bool:
    assert controller.wait_idle(timeout=10, settle=0.2)
    return check()


def test_foo_owns_its_deployment_and_reports_what_it_makes_available() -> None:
    with running("foo") as (backend, controller):
        foos = "foos.samplecontroller.k8s.io/v1alpha1"
        deployment = one(backend, "apps/v1/Deployment", "example-foo")
        assert deployment["spec"]["replicas"] == 1
        assert owner_of(deployment) == ("Foo", "example-foo", True)
        foo = one(backend, foos, "example-foo")
        assert foo["status"] == {"availableReplicas": 0, "observedGeneration": 1}
        # no controller runs in the store: play the Deployment controller's part
        info = backend.resolve("apps/v1/Deployment")
        status = {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1}
        backend.store.update_status(info, {**deployment, "status": status})
        assert settle(
            controller,
            lambda: one(backend, foos, "example-foo")["status"]["availableReplicas"] == 1,
        )


def test_nginx_runs_count_pods_and_lists_them() -> None:
    with running("nginx") as (backend, controller):
        deployment = one(backend, "apps/v1/Deployment", "web")
        assert deployment["spec"]["replicas"] == 2
        assert owner_of(deployment) == ("Nginx", "web", True)
        nginx = one(backend, "nginxes.nginx.example.com/v1", "web")
        assert nginx["status"]["nodes"] == ["web-7d9c5b6f4-abcde", "web-7d9c5b6f4-fghij"]
        # a pod going reaches the Nginx through WATCHES
        pods = backend.resolve("v1/Pod")
        backend.store.delete(pods, "default", "web-7d9c5b6f4-abcde")
        assert settle(
            controller,
            lambda: (
                one(backend, "nginxes.nginx.example.com/v1", "web")["status"]["nodes"]
                == ["web-7d9c5b6f4-fghij"]
            ),
        )


def test_xca_is_active_holds_its_finalizer_and_is_finalized_on_delete() -> None:
    xcas = "xcas.tutorial.example.com/v1"
    with running("xca") as (backend, controller):
        xca = one(backend, xcas, "xca-sample")
        assert xca["status"]["active"] is True
        assert xca["status"]["lastUpdateTime"].endswith("Z")
        assert xca["metadata"]["finalizers"] == ["tutorial.example.com/cleanup"]
        backend.store.delete(backend.resolve(xcas), "default", "xca-sample")
        assert settle(controller, lambda: backend.store.list(backend.resolve(xcas)) == [])
        assert "Finalized" in [e["reason"] for e in backend.store.events]


def test_the_hook_makes_its_pod_and_counts_it() -> None:
    with running("hook") as (backend, controller):
        pod = one(backend, "v1/Pod", "hello")
        assert pod["spec"]["containers"][0]["command"] == ["echo", "Hello, World!"]
        assert owner_of(pod) == ("HelloWorld", "hello", True)
        assert settle(
            controller,
            lambda: one(backend, "helloworlds.example.com/v1", "hello")["status"]["pods"] == 1,
        )
