"""Which function the loop calls, and how: a reconciler (``reconcile(obj, ctx)`` or
``reconcile(obj)``) or a metacontroller hook (``sync(request)``, with
``finalize(request)``), told apart by the function's name, never by its parameter count
alone; what stays ambiguous is one load error at the user's ``def`` line.

Metacontroller names its hooks ``sync``, ``finalize`` and ``customize``
(docs/src/api/compositecontroller.md, ``spec.hooks``); its request is one object with
``parent``, ``children``, ``related`` and ``finalizing``."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.errors import ReconcilerLoadError
from kubectl_crd.reconcile import Result
from kubectl_crd.reconcile.loading import Finalization, load_reconciler

HEAD = 'FOR = "foos.samplecontroller.k8s.io/v1alpha1"\nOWNS = ["v1/ConfigMap"]\n'

PARENT: dict[str, Any] = {
    "apiVersion": "samplecontroller.k8s.io/v1alpha1",
    "kind": "Foo",
    "metadata": {"name": "foo", "namespace": "default", "uid": "u-1"},
    "spec": {"size": 2},
}


class Cache:
    """``ctx`` with an empty cache: ``list`` finds nothing, and says it was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def list(self, resource: str, namespace: str | None = None, labels: Any = None) -> list[Any]:
        self.asked.append(resource)
        return []


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def load(tmp_path: Path, body: str) -> Any:
    (tmp_path / "rec.py").write_text(HEAD + textwrap.dedent(body))
    return load_reconciler("rec.py")


def load_error(tmp_path: Path, body: str) -> str:
    with pytest.raises(ReconcilerLoadError) as caught:
        load(tmp_path, body)
    return str(caught.value)


def test_a_one_parameter_reconcile_is_a_reconciler_called_without_ctx(tmp_path: Path) -> None:
    loaded = load(
        tmp_path,
        """\
        def reconcile(obj):
            return {"status": {"size": obj["spec"]["size"]}}

        def finalize(obj):
            return obj["metadata"]["name"] == "foo"
        """,
    )
    assert not loaded.sync_hook and not loaded.finalize_hook
    cache = Cache()
    assert loaded.call(PARENT, cache) == Result(status={"size": 2})
    assert loaded.finalize(PARENT, cache) == Finalization(Result(), True)
    assert cache.asked == []  # no metacontroller request was built


def test_a_two_parameter_reconcile_gets_ctx(tmp_path: Path) -> None:
    loaded = load(
        tmp_path,
        """\
        def reconcile(obj, ctx):
            return {"status": {"ctx": type(ctx).__name__}}
        """,
    )
    assert loaded.call(PARENT, Cache()) == Result(status={"ctx": "Cache"})


def test_sync_and_finalize_of_one_request_are_metacontroller_hooks(tmp_path: Path) -> None:
    loaded = load(
        tmp_path,
        """\
        def sync(request):
            return {"status": {"parent": request["parent"]["metadata"]["name"]}, "children": []}

        def finalize(request):
            return {"finalized": request["finalizing"]}
        """,
    )
    assert loaded.sync_hook and loaded.finalize_hook
    assert loaded.call(PARENT, Cache()) == Result(status={"parent": "foo"})
    assert loaded.finalize(PARENT, Cache()) == Finalization(Result(), True)


def test_reconcile_wins_over_a_function_named_sync(tmp_path: Path) -> None:
    loaded = load(
        tmp_path,
        """\
        def sync(request):
            raise AssertionError("not the entry point")

        def reconcile(obj, ctx):
            return None
        """,
    )
    assert not loaded.sync_hook
    assert loaded.call(PARENT, Cache()) == Result()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "def reconcile(request):\n    return None\n",
            "rec.py:3:1: reconcile(request) is ambiguous: a metacontroller sync hook is "
            "def sync(request); a reconciler takes the object, def reconcile(obj, ctx) or "
            "def reconcile(obj)",
        ),
        (
            # metacontroller's Python examples' method, sync(self, parent, children)
            "def sync(parent, children):\n    return {}\n",
            "rec.py:3:1: sync takes (parent, children); a metacontroller sync hook takes "
            "one request: def sync(request), with request['parent'] and request['children']",
        ),
        (
            "def sync(request):\n    return {}\n\ndef finalize(obj, ctx):\n    return True\n",
            "rec.py:6:1: finalize takes (obj, ctx); beside sync(request), finalize is "
            "metacontroller's finalize hook: def finalize(request)",
        ),
        (
            "def sync(request):\n    return {}\n\ndef customize(request):\n    return {}\n",
            "rec.py:6:1: customize is metacontroller's customize hook, which kubectl crd "
            "dev does not run (its request's related stays empty); remove it",
        ),
        (
            "def reconcile(obj, ctx, extra):\n    return None\n",
            "rec.py:3:1: reconcile takes (obj, ctx, extra); a reconciler takes (obj, ctx) "
            "or (obj); a metacontroller sync hook is def sync(request)",
        ),
    ],
    ids=["reconcile-request", "sync-two", "hook-finalize-two", "customize", "three"],
)
def test_what_stays_ambiguous_is_one_line_at_the_def(
    tmp_path: Path, body: str, message: str
) -> None:
    lines = load_error(tmp_path, body).splitlines()
    assert lines[0] == message
    assert lines[1].lstrip().startswith("def ")  # the user's line, a caret under it
