"""Unit tests of the sync hook, without a cluster."""

from pathlib import Path

from kubectl_crd.reconcile.testing import run_reconcile

HERE = Path(__file__).parent
RECONCILER = HERE / "reconciler.py"
CRD = HERE / "crd.yaml"
UID = "0b6d1c6e-0000-4000-8000-00000000beef"


def hello(who: str = "World") -> str:
    return (HERE / "hello.yaml").read_text().replace("who: World", f"who: {who}")


def test_the_hook_greets_who() -> None:
    out = run_reconcile(RECONCILER, hello("Kubernetes"), crds=[CRD])
    assert out.error is None
    pod = out.child("Pod", "hello")
    assert pod["spec"]["containers"][0]["command"] == ["echo", "Hello, Kubernetes!"]
    assert out.status == {"pods": 0}


def test_the_request_holds_the_pods_it_controls() -> None:
    parent = hello().replace("namespace: default", f"namespace: default\n  uid: {UID}")
    owned = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": "hello",
            "namespace": "default",
            "ownerReferences": [
                {"apiVersion": "example.com/v1", "kind": "HelloWorld", "name": "hello",
                 "uid": UID, "controller": True},
            ],
        },
        "spec": {"containers": [{"name": "hello", "image": "busybox"}]},
    }  # fmt: skip
    stranger = {**owned, "metadata": {"name": "stranger", "namespace": "default"}}
    out = run_reconcile(RECONCILER, parent, objects=[owned, stranger], crds=[CRD])
    assert out.error is None
    assert out.status == {"pods": 1}
