"""``kubectl crd dev --once --out``: the same reconciler over the same objects, once with
``--local DIR`` (the in-process store) and once against the real API server, gives the
same ``--out`` files (children, status-updated objects), the same summary and exit 0;
and a child the server refuses is exit 1 on both.

The oracle is kube-apiserver: what the cluster run wrote is what the server accepted
(the loop writes ``--out`` from its applies and status patches as the server answered
them), and the local run must match it byte for byte.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.integration.envtest import ControlPlane

GROUP = "once.dev.example.com"

CRD = f"""\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.{GROUP}
spec:
  group: {GROUP}
  names: {{kind: Gizmo, plural: gizmos, singular: gizmo, listKind: GizmoList}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {{status: {{}}}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {{type: integer, maximum: 10, default: 1}}
              labels: {{type: object, additionalProperties: {{type: string}}}}
          status:
            type: object
            properties:
              size: {{type: integer}}
              observedGeneration: {{type: integer}}
"""

GIZMOS = f"""\
apiVersion: {GROUP}/v1
kind: Gizmo
metadata:
  name: a
  namespace: {{namespace}}
spec:
  size: 3
---
apiVersion: {GROUP}/v1
kind: Gizmo
metadata:
  name: b
  namespace: {{namespace}}
  labels: {{{{tier: web}}}}
spec:
  labels: {{{{{{label}}: x}}}}
"""

RECONCILER = f"""\
FOR = "gizmos.{GROUP}/v1"
OWNS = ["v1/ConfigMap"]


def reconcile(obj, ctx):
    name = obj["metadata"]["name"]
    spec = obj["spec"]
    child = {{
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {{"name": name + "-cm"}},
        "data": {{"size": str(spec["size"])}},
    }}
    if "labels" in spec:
        child["metadata"]["labels"] = spec["labels"]
    return {{"children": [child], "status": {{"size": spec["size"]}}}}
"""

STAMP = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} ")


def run_dev(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    env["HOME"] = str(home)  # the discovery cache of this test alone
    return subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "dev", *args],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


def files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def setup(apiserver: ControlPlane, namespace: str, tmp_path: Path, label: str) -> Path:
    """tmp_path/r.py, tmp_path/local/ (the CRD, two Gizmos), the same in the cluster."""
    local = tmp_path / "local"
    local.mkdir()
    (local / "crd.yaml").write_text(CRD)
    objects = GIZMOS.format(namespace=namespace, label=label)
    (local / "gizmos.yaml").write_text(objects)
    (tmp_path / "r.py").write_text(RECONCILER)
    apiserver.kubectl("apply", "--server-side", "-f", str(local / "crd.yaml"))
    apiserver.wait_established([f"gizmos.{GROUP}"])
    # created, not applied: kubectl apply's last-applied annotation is no part of the test
    apiserver.kubectl("create", "-f", "-", input=objects)
    return local


def test_local_and_cluster_once_write_the_same_out_files(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    local = setup(apiserver, namespace, tmp_path, "app")
    runs = {}
    for where, flags in (
        ("local", ["--local", str(local)]),
        ("cluster", ["--kubeconfig", str(apiserver.kubeconfig), "-n", namespace]),
    ):
        done = run_dev(
            str(tmp_path / "r.py"), *flags, "--once", "--out", str(tmp_path / f"out-{where}"),
            home=tmp_path,
        )  # fmt: skip
        assert (done.returncode, done.stderr) == (0, ""), (where, done.stdout)
        last = STAMP.sub("", done.stdout.splitlines()[-1])
        assert last == "2 objects, 2 reconciles, 4 writes, 0 errors", (where, done.stdout)
        runs[where] = files(tmp_path / f"out-{where}")
    # the index of what --out wrote (to remove it when it stands for nothing) too
    assert runs["local"] == runs["cluster"]
    assert set(runs["local"]) == {
        f"{namespace}/configmap/a-cm.yaml", f"{namespace}/configmap/b-cm.yaml",
        f"{namespace}/gizmo.{GROUP}/a.yaml", f"{namespace}/gizmo.{GROUP}/b.yaml",
        ".kubectl-crd-out.json",
    }  # fmt: skip
    b = runs["local"][f"{namespace}/gizmo.{GROUP}/b.yaml"]
    # the CRD's default (b's size 1) is in b's status on both
    assert b.endswith(
        "spec:\n  labels:\n    app: x\n  size: 1\nstatus:\n  observedGeneration: 1\n  size: 1\n"
    )


def test_once_against_a_cluster_exits_1_on_a_child_the_server_refuses(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    setup(apiserver, namespace, tmp_path, "-bad-")  # not a valid label key
    done = run_dev(
        str(tmp_path / "r.py"), "--kubeconfig", str(apiserver.kubeconfig), "-n", namespace,
        "--once", home=tmp_path,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (1, ""), done.stdout
    out = [STAMP.sub("", line) for line in done.stdout.splitlines()]
    [refused] = [line for line in out if "configmap" in line and "refused" in line]
    assert refused.startswith(f"  configmap {namespace}/b-cm apply refused (422): ")
    assert "-bad-" in refused
    assert out[-1] == f"2 objects, 2 reconciles, 3 writes, 1 error; failed: {namespace}/b"


def test_out_removes_the_files_of_an_object_gone_since_the_last_run(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    """A second --local --once run into the same --out DIR after b left DIR: b's files
    go, a's and a file of the user's stay (and against the cluster, a converged
    restart's run keeps every file: it applies nothing)."""
    local = setup(apiserver, namespace, tmp_path, "app")
    out = tmp_path / "out"
    flags = [str(tmp_path / "r.py"), "--once", "--out", str(out)]
    done = run_dev(*flags, "--local", str(local), home=tmp_path)
    assert done.returncode == 0, done.stdout
    (out / "README.md").write_text("the user's\n")
    cluster = ["--kubeconfig", str(apiserver.kubeconfig), "-n", namespace]
    for _ in range(2):  # the first applies to the cluster, the second is converged
        done = run_dev(*flags, *cluster, home=tmp_path)
        assert done.returncode == 0, done.stdout
    assert len(files(out)) == 6
    (local / "gizmos.yaml").write_text(
        GIZMOS.format(namespace=namespace, label="app").split("---")[0]
    )
    done = run_dev(*flags, "--local", str(local), home=tmp_path)
    assert done.returncode == 0, done.stdout
    assert sorted(files(out)) == [
        ".kubectl-crd-out.json", "README.md",
        f"{namespace}/configmap/a-cm.yaml", f"{namespace}/gizmo.{GROUP}/a.yaml",
    ]  # fmt: skip
