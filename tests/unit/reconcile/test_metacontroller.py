"""Metacontroller sync and finalize hooks run in process: detection by the loader, the
request built from the cache, the response read back (shapes from metacontroller's
docs/src/api/compositecontroller.md, "Sync Hook Request" and "Sync Hook Response")."""

from __future__ import annotations

import copy
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.errors import ReconcilerLoadError, ReconcilerResultError
from kubectl_crd.reconcile import Result
from kubectl_crd.reconcile.loading import Finalization, load_reconciler
from kubectl_crd.reconcile.metacontroller import collect_children, read_response, request


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


class Cache:
    """``ctx.list`` over a few objects per resource; ``"*"`` lists every namespace."""

    def __init__(self, objects: dict[str, list[dict[str, Any]]]) -> None:
        self.objects = objects
        self.asked: list[tuple[str, str | None]] = []

    def list(
        self,
        resource: str,
        namespace: str | None = None,
        labels: str | Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        self.asked.append((resource, namespace))
        return [
            each
            for each in self.objects.get(resource, [])
            if namespace == "*" or each["metadata"].get("namespace", "") == namespace
        ]


PARENT = {
    "apiVersion": "ctl.example.com/v1",
    "kind": "IndexedJob",
    "metadata": {"name": "job", "namespace": "my-namespace", "uid": "parent-uid", "generation": 2},
    "spec": {"completions": 2},
    "status": {"old": True},
}


def child(
    kind: str, api_version: str, name: str, namespace: str, controller_uid: str | None
) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name, "namespace": namespace}
    if controller_uid:
        metadata["ownerReferences"] = [
            {
                "apiVersion": "v1",
                "kind": "X",
                "name": "p",
                "uid": controller_uid,
                "controller": True,
            }
        ]
    return {"apiVersion": api_version, "kind": kind, "metadata": metadata}


def write_hook(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "hook.py"
    path.write_text(textwrap.dedent(body))
    return path


HOOK = """\
FOR = "indexedjobs.ctl.example.com/v1"
OWNS = ["v1/Pod", "apps/v1/StatefulSet"]
SEEN = []

def sync(request):
    SEEN.append(request)
    job = request["parent"]
    pods = request["children"]["Pod.v1"]
    desired = [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"job-{i}"}}
        for i in range(job["spec"]["completions"])
    ]
    request["parent"]["spec"]["edited"] = True  # a hook may edit what it was sent
    return {"status": {"active": len(pods)}, "children": desired, "resyncAfterSeconds": 1.5}
"""


def test_a_sync_hook_is_detected_and_given_metacontrollers_request(tmp_path: Path) -> None:
    loaded = load_reconciler(str(write_hook(tmp_path, HOOK)))
    assert loaded.sync_hook and not loaded.has_finalize
    cache = Cache(
        {
            "v1/Pod": [
                child("Pod", "v1", "job-0", "my-namespace", "parent-uid"),
                child("Pod", "v1", "stranger", "my-namespace", "other-uid"),
                child("Pod", "v1", "orphan", "my-namespace", None),
                child("Pod", "v1", "job-9", "elsewhere", "parent-uid"),
            ]
        }
    )
    parent = copy.deepcopy(PARENT)
    result = loaded.call(parent, cache)
    assert result == Result(
        children=(
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "job-0"}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "job-1"}},
        ),
        status={"active": 1},
        requeue_after=1.5,
    )
    (sent,) = loaded.module.SEEN
    # every child type has an entry, empty or not, keyed <Kind>.<apiVersion>
    assert sent["children"] == {
        "Pod.v1": {"job-0": child("Pod", "v1", "job-0", "my-namespace", "parent-uid")},
        "StatefulSet.apps/v1": {},
    }
    assert sent["related"] == {} and sent["finalizing"] is False
    assert sent["parent"]["metadata"] == PARENT["metadata"]
    assert parent == PARENT  # the hook's edit did not reach the cache's object
    assert cache.asked == [("v1/Pod", "my-namespace"), ("apps/v1/StatefulSet", "my-namespace")]


def test_a_cluster_scoped_parent_sees_children_as_namespace_slash_name() -> None:
    parent = {"metadata": {"name": "global", "uid": "u"}}
    cache = Cache({"v1/ConfigMap": [child("ConfigMap", "v1", "cm", "team-a", "u")]})
    children = collect_children(parent, cache, [("v1/ConfigMap", "ConfigMap.v1")])
    assert list(children["ConfigMap.v1"]) == ["team-a/cm"]
    assert cache.asked == [("v1/ConfigMap", "*")]


def test_sync_is_a_hook_and_finalize_beside_it_too(tmp_path: Path) -> None:
    loaded = load_reconciler(
        str(
            write_hook(
                tmp_path,
                """\
                FOR = "indexedjobs.ctl.example.com/v1"
                OWNS = ["v1/Pod"]

                def sync(request):
                    return {"children": [], "status": None}

                def finalize(request):
                    left = request["children"]["Pod.v1"]
                    return {"children": [], "finalized": not left and request["finalizing"]}
                """,
            )
        )
    )
    assert loaded.sync_hook and loaded.finalize_hook
    # "status": null leaves the status alone, as metacontroller does
    assert loaded.call(PARENT, Cache({})) == Result()
    pod = child("Pod", "v1", "job-0", "my-namespace", "parent-uid")
    assert loaded.finalize(PARENT, Cache({"v1/Pod": [pod]})) == Finalization(Result(), False)
    assert loaded.finalize(PARENT, Cache({})) == Finalization(Result(), True)


def test_the_doc_example_response() -> None:
    # compositecontroller.md: status, children, resyncAfterSeconds (and finalized)
    plain, finalized = read_response(
        {
            "status": {"replicas": 1},
            "children": [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}],
            "resyncAfterSeconds": 0,
        }
    )
    assert plain == {
        "children": [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}],
        "status": {"replicas": 1},
        "requeue_after": None,  # only a value > 0 asks for a resync
    }
    assert finalized is False
    assert read_response({"finalized": True})[1] is True
    assert read_response({"children": None})[0]["children"] == []


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (
            None,
            "returned None; a metacontroller hook returns a dict with status, children and resyncAfterSeconds",
        ),
        (
            [],
            "returned list; a metacontroller hook returns a dict with status, children and resyncAfterSeconds",
        ),
        (
            {"resyncAfterSecond": 1},
            "returned unknown key 'resyncAfterSecond' (a hook returns children, finalized, resyncAfterSeconds, status)",
        ),
        ({"resyncAfterSeconds": "5"}, "returned resyncAfterSeconds '5'; it is a number of seconds"),
        ({"finalized": "yes"}, "returned finalized 'yes'; it is true or false"),
    ],
)
def test_bad_responses(response: object, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        read_response(response)
    assert str(caught.value) == message


def test_a_bad_response_names_the_hooks_file_and_line(tmp_path: Path) -> None:
    loaded = load_reconciler(
        str(
            write_hook(
                tmp_path,
                """\
                FOR = "indexedjobs.ctl.example.com/v1"

                def sync(request):
                    request["parent"]["spec"]
                """,
            )
        )
    )
    with pytest.raises(ReconcilerResultError) as caught:
        loaded.call(PARENT, Cache({}))
    assert str(caught.value) == (
        "hook.py:3: sync returned None; a metacontroller hook returns a dict with status, "
        "children and resyncAfterSeconds"
    )


def test_a_hook_needs_kinds_in_owns(tmp_path: Path) -> None:
    path = write_hook(
        tmp_path,
        'FOR = "indexedjobs.ctl.example.com/v1"\nOWNS = ["v1/pods"]\ndef sync(request): pass\n',
    )
    with pytest.raises(ReconcilerLoadError) as caught:
        load_reconciler(str(path))
    assert str(caught.value).splitlines()[0] == (
        "hook.py:2:8: OWNS: 'v1/pods': a metacontroller hook needs kinds, as "
        "'apps/v1/Deployment' (its request keys children by Kind.apiVersion)"
    )


def test_request_is_a_copy() -> None:
    parent = copy.deepcopy(PARENT)
    sent = request(parent, {"Pod.v1": {}}, finalizing=True)
    sent["parent"]["metadata"]["name"] = "changed"
    assert parent == PARENT and sent["finalizing"] is True and sent["related"] == {}
