"""``reconcile.testing``: a user's reconcile run once against objects in the local store."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.errors import KubectlCrdError, ReconcilerResultError
from kubectl_crd.reconcile import TerminalError
from kubectl_crd.reconcile.loading import load_reconciler
from kubectl_crd.reconcile.testing import Event, run_finalize, run_reconcile

CRD: dict[str, Any] = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "gizmos.test.example.com"},
    "spec": {
        "group": "test.example.com",
        "scope": "Namespaced",
        "names": {"kind": "Gizmo", "plural": "gizmos", "singular": "gizmo"},
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
                                    "size": {"type": "integer", "default": 3, "maximum": 10},
                                    "app": {"type": "string"},
                                },
                            },
                            "status": {
                                "type": "object",
                                "properties": {"seen": {"type": "integer"}},
                            },
                        },
                    }
                },
            }
        ],
    },
}

GIZMO = """
apiVersion: test.example.com/v1
kind: Gizmo
metadata: {name: g, namespace: ns1}
spec: {app: web}
"""


def configmap(name: str, namespace: str = "ns1", **labels: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": namespace, "labels": labels},
    }


def reconciler(tmp_path: Path, body: str, header: str = "") -> Path:
    path = tmp_path / "reconciler.py"
    path.write_text(
        "from kubectl_crd.reconcile import Result, TerminalError\n"
        "FOR = 'gizmos.test.example.com/v1'\n"
        "OWNS = ['v1/ConfigMap']\n" + textwrap.dedent(header) + "\n"
        "def reconcile(obj, ctx):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    )
    return path


def test_the_object_is_admitted_and_reads_find_the_objects(tmp_path: Path) -> None:
    path = reconciler(
        tmp_path,
        """
        same = ctx.list('v1/ConfigMap', labels={'app': obj['spec']['app']})
        every = ctx.list('v1/ConfigMap', namespace='*', labels='app in (web, db)')
        ctx.log.info('size %s', obj['spec']['size'])
        return Result(
            children=[{'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'c'},
                       'data': {'uid': obj['metadata']['uid']}}],
            status={'seen': len(same) * 10 + len(every)},
            requeue_after=5,
        )
        """,
    )
    objects = [
        configmap("a", app="web"),
        configmap("b", app="db"),
        configmap("c", namespace="ns2", app="web"),
        configmap("d"),
    ]
    out = run_reconcile(path, GIZMO, objects=objects, crds=[CRD])
    assert out.error is None
    assert out.status == {"seen": 13}  # 1 in ns1 with app=web; 3 anywhere in (web, db)
    assert out.requeue_after == 5.0
    assert out.logs == ("INFO size 3",)  # the CRD's default, as admission applies it
    assert out.obj["spec"] == {"app": "web", "size": 3}
    assert out.child("ConfigMap", "c")["data"]["uid"] == out.obj["metadata"]["uid"]


def test_a_given_uid_is_kept_and_get_finds_a_cluster_object(tmp_path: Path) -> None:
    path = reconciler(
        tmp_path,
        """
        found = ctx.get('v1/ConfigMap', 'a')
        missing = ctx.get('v1/ConfigMap', 'a', namespace='other')
        return {'status': {'seen': int(found is not None) + 10 * int(missing is not None)}}
        """,
    )
    gizmo = GIZMO.replace("namespace: ns1", "namespace: ns1, uid: '1234'")
    out = run_reconcile(path, gizmo, objects=[configmap("a")], crds=[CRD])
    assert out.error is None
    assert out.obj["metadata"]["uid"] == "1234"
    assert out.status == {"seen": 1}


def test_errors_are_the_outcomes(tmp_path: Path) -> None:
    raising = reconciler(tmp_path, "raise TerminalError('no')")
    out = run_reconcile(raising, GIZMO, crds=[CRD])
    assert isinstance(out.error, TerminalError) and str(out.error) == "no"
    assert out.children == () and out.status is None

    unwatched = reconciler(tmp_path, "ctx.list('v1/Secret')")
    out = run_reconcile(unwatched, GIZMO, crds=[CRD])
    assert isinstance(out.error, LookupError)
    assert "v1/Secret is not watched by this loop" in str(out.error)

    wrong = reconciler(tmp_path, "return {'state': 1}")
    out = run_reconcile(wrong, GIZMO, crds=[CRD])
    assert isinstance(out.error, ReconcilerResultError)
    assert "unknown key 'state'" in str(out.error)

    cluster = reconciler(tmp_path, "ctx.kubernetes")
    assert isinstance(run_reconcile(cluster, GIZMO, crds=[CRD]).error, RuntimeError)


def test_a_status_the_schema_refuses_is_the_error(tmp_path: Path) -> None:
    path = reconciler(tmp_path, "return {'status': {'seen': 'many'}}")
    out = run_reconcile(path, GIZMO, crds=[CRD])
    assert isinstance(out.error, KubectlCrdError)
    assert "status.seen" in str(out.error)
    assert out.status == {"seen": "many"}  # what it returned, still shown


def test_events_name_their_object(tmp_path: Path) -> None:
    path = reconciler(
        tmp_path,
        """
        ctx.event('Made', 'one')
        ctx.event('Odd', 'two', type='Warning', obj={'kind': 'ConfigMap', 'metadata': {'name': 'a'}})
        """,
    )
    out = run_reconcile(path, GIZMO, crds=[CRD])
    assert out.events == (
        Event("Normal", "Made", "one", "Gizmo/g"),
        Event("Warning", "Odd", "two", "ConfigMap/a"),
    )


def test_bad_inputs_are_one_line_errors(tmp_path: Path) -> None:
    path = reconciler(tmp_path, "return None")
    with pytest.raises(ValueError, match="give its CRD in crds"):
        run_reconcile(path, GIZMO)
    with pytest.raises(ValueError, match=r"Gizmo/g refused: .*spec\.size"):
        run_reconcile(path, GIZMO.replace("app: web", "size: 11"), crds=[CRD])
    with pytest.raises(ValueError, match="obj holds 2 objects"):
        run_reconcile(path, GIZMO + "---\n" + GIZMO, crds=[CRD])
    with pytest.raises(ValueError, match="obj:"):
        run_reconcile(path, "a: [", crds=[CRD])
    with pytest.raises(ValueError, match="crds: ConfigMap is not a CustomResourceDefinition"):
        run_reconcile(path, GIZMO, crds=[CRD, configmap("a")])
    with pytest.raises(ValueError, match=r"obj is a ConfigMap \(configmaps\.\); the reconciler"):
        run_reconcile(path, configmap("a"), crds=[CRD])
    with pytest.raises(TypeError, match="defines no finalize"):
        run_finalize(path, GIZMO, crds=[CRD])


def test_paths_of_files_and_directories_and_a_loaded_reconciler(tmp_path: Path) -> None:
    import json

    directory = tmp_path / "dir"
    directory.mkdir()
    (directory / "crd.json").write_text(json.dumps(CRD))
    (directory / "gizmo.yaml").write_text(GIZMO)
    (directory / "cms.yaml").write_text(
        json.dumps(configmap("a", app="web")) + "\n---\n" + json.dumps(configmap("b", app="web"))
    )
    path = reconciler(
        tmp_path, "return {'status': {'seen': len(ctx.list('v1/ConfigMap', labels='app=web'))}}"
    )
    loaded = load_reconciler(str(path))
    out = run_reconcile(loaded, directory / "gizmo.yaml", objects=[directory / "cms.yaml"],
                        crds=[directory])  # fmt: skip
    assert out.error is None and out.status == {"seen": 2}


def test_finalize_sees_the_object_going(tmp_path: Path) -> None:
    path = reconciler(
        tmp_path,
        "return None",
        header="""
        def finalize(obj, ctx):
            return {'finalized': 'deletionTimestamp' in obj['metadata'], 'status': {'seen': 0}}
        """,
    )
    out = run_finalize(path, GIZMO, crds=[CRD])
    assert out.error is None
    assert out.finalized is True
    assert out.status == {"seen": 0}


def test_a_hook_gets_the_children_its_parent_controls(tmp_path: Path) -> None:
    path = tmp_path / "hook.py"
    path.write_text(
        "FOR = 'gizmos.test.example.com/v1'\n"
        "OWNS = ['v1/ConfigMap']\n"
        "def sync(request):\n"
        "    names = sorted(request['children']['ConfigMap.v1'])\n"
        "    return {'status': {'seen': len(names)}, 'children': []}\n"
    )
    owned = configmap("mine")
    owned["metadata"]["ownerReferences"] = [
        {"apiVersion": "test.example.com/v1", "kind": "Gizmo", "name": "g", "uid": "u1",
         "controller": True},
    ]  # fmt: skip
    gizmo = GIZMO.replace("namespace: ns1", "namespace: ns1, uid: u1")
    out = run_reconcile(path, gizmo, objects=[owned, configmap("theirs")], crds=[CRD])
    assert out.error is None and out.status == {"seen": 1}


def test_child_names_what_there_is() -> None:
    from kubectl_crd.reconcile.testing import Outcome

    out = Outcome(children=({"kind": "ConfigMap", "metadata": {"name": "a"}},))
    assert out.child("ConfigMap")["metadata"]["name"] == "a"
    with pytest.raises(LookupError, match=r"0 children Secret/x \(children: ConfigMap/a\)"):
        out.child("Secret", "x")


def test_children_are_checked_as_the_loops_apply_would_be(tmp_path: Path) -> None:
    bad_child = reconciler(
        tmp_path,
        """
        return {'children': [{'apiVersion': 'test.example.com/v1', 'kind': 'Gizmo',
                              'metadata': {'name': 'sub'}, 'spec': {'size': 99}}]}
        """,
    )
    out = run_reconcile(bad_child, GIZMO, crds=[CRD])
    assert isinstance(out.error, KubectlCrdError)
    assert "spec.size" in str(out.error)
    assert out.child("Gizmo", "sub")["spec"] == {"size": 99}  # what it returned
    unserved = reconciler(
        tmp_path,
        "return {'children': [{'apiVersion': 'x.example.com/v1', 'kind': 'Thing', "
        "'metadata': {'name': 't'}}]}",
    )
    out = run_reconcile(unserved, GIZMO, crds=[CRD])
    assert isinstance(out.error, KubectlCrdError)
    assert 'no matches for kind "Thing"' in str(out.error)


def test_a_reconciler_that_exits_is_an_outcome_as_in_the_loop(tmp_path: Path) -> None:
    # the dev loop fails the reconcile of a reconciler calling sys.exit(); the test
    # helper says the same instead of ending the user's test run with SystemExit
    exiting = reconciler(tmp_path, "import sys; sys.exit(2)")
    out = run_reconcile(exiting, GIZMO, crds=[CRD])
    assert isinstance(out.error, SystemExit) and out.error.code == 2
    assert out.children == () and out.status is None
