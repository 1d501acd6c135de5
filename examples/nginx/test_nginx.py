"""Unit tests of the Nginx reconciler, without a cluster."""

from pathlib import Path

from kubectl_crd.reconcile.testing import run_reconcile

HERE = Path(__file__).parent
RECONCILER = HERE / "reconciler.py"
CRD = HERE / "crd.yaml"
NGINX = HERE / "nginx.yaml"


def test_count_drives_the_deployment_and_the_image_defaults() -> None:
    out = run_reconcile(RECONCILER, NGINX, crds=[CRD])
    assert out.error is None
    deployment = out.child("Deployment", "web")
    assert deployment["spec"]["replicas"] == 2
    # the CRD's default, applied by admission as the API server would
    assert deployment["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx:1.27"
    assert out.status == {"nodes": []}


def test_nodes_lists_its_pods_only() -> None:
    other = """
apiVersion: v1
kind: Pod
metadata: {name: other-1, namespace: default, labels: {app: nginx, nginx: other}}
spec: {containers: [{name: c, image: nginx}]}
"""
    out = run_reconcile(RECONCILER, NGINX, objects=[HERE / "pods.yaml", other], crds=[CRD])
    assert out.error is None
    assert out.status == {"nodes": ["web-7d9c5b6f4-abcde", "web-7d9c5b6f4-fghij"]}


def test_a_pod_maps_to_its_nginx() -> None:
    from kubectl_crd.reconcile.loading import load_reconciler

    loaded = load_reconciler(str(RECONCILER))
    pod = {"metadata": {"namespace": "default", "labels": {"app": "nginx", "nginx": "web"}}}
    assert loaded.parents_of("v1/Pod", pod) == [("default", "web")]
    assert loaded.parents_of("v1/Pod", {"metadata": {"namespace": "default"}}) == []
