"""Unit tests of the Foo reconciler: no cluster, a few milliseconds each."""

from pathlib import Path

from kubectl_crd.reconcile import TerminalError
from kubectl_crd.reconcile.testing import run_reconcile

HERE = Path(__file__).parent
RECONCILER = HERE / "reconciler.py"
CRD = HERE / "crd.yaml"
FOO = HERE / "foo.yaml"
UID = "6a1c5e0e-0000-4000-8000-000000000001"


#: what every Deployment needs beside its replicas, in the store as on a server (a
#: selector that matches the pod template's labels, a container): the reconciler's own
LABELS = {"app": "nginx", "controller": "example-foo"}
POD_TEMPLATE = {
    "selector": {"matchLabels": LABELS},
    "template": {
        "metadata": {"labels": LABELS},
        "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]},
    },
}


def foo_with_uid() -> str:
    return FOO.read_text().replace("namespace: default", f"namespace: default\n  uid: {UID}")


def test_owns_a_deployment_named_by_the_spec() -> None:
    out = run_reconcile(RECONCILER, FOO, crds=[CRD])
    assert out.error is None
    deployment = out.child("Deployment", "example-foo")
    assert deployment["spec"]["replicas"] == 1
    assert deployment["spec"]["selector"]["matchLabels"] == {
        "app": "nginx",
        "controller": "example-foo",
    }
    assert out.status == {"availableReplicas": 0}
    assert [(e.type, e.reason) for e in out.events] == [("Normal", "Synced")]


def test_status_follows_the_deployment() -> None:
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "example-foo",
            "namespace": "default",
            "ownerReferences": [
                {"apiVersion": "samplecontroller.k8s.io/v1alpha1", "kind": "Foo",
                 "name": "example-foo", "uid": UID, "controller": True},
            ],
        },
        "spec": {"replicas": 1, **POD_TEMPLATE},
        "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1},
    }  # fmt: skip
    out = run_reconcile(RECONCILER, foo_with_uid(), objects=[deployment], crds=[CRD])
    assert out.error is None
    assert out.status == {"availableReplicas": 1}


def test_a_deployment_it_does_not_own_is_left_alone() -> None:
    stranger = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "example-foo", "namespace": "default"},
        "spec": {"replicas": 5, **POD_TEMPLATE},
    }
    out = run_reconcile(RECONCILER, FOO, objects=[stranger], crds=[CRD])
    assert isinstance(out.error, TerminalError)
    assert out.children == ()
    assert [(e.type, e.reason) for e in out.events] == [("Warning", "ErrResourceExists")]
