"""``kubectl crd dev FILE --local DIR``: the loop over the in-process store, no cluster.

Each test writes a small CRD (Gizmo, ``spec.size`` at most 10, the status subresource),
two Gizmos and a reconciler (a ConfigMap child per Gizmo, ``status.size``) under
``tmp_path`` and runs the command in a subprocess with no kubeconfig at all.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kubectl_crd.cli.commands.dev import dev_options
from kubectl_crd.model.errors import UsageError
from tests.cli_runner import run_cli

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.dev.example.com
spec:
  group: dev.example.com
  names: {kind: Gizmo, plural: gizmos, singular: gizmo, listKind: GizmoList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, maximum: 10}
          status:
            type: object
            properties:
              size: {type: integer}
              observedGeneration: {type: integer}
"""

GIZMOS = """\
apiVersion: dev.example.com/v1
kind: Gizmo
metadata:
  name: a
spec:
  size: 1
---
apiVersion: dev.example.com/v1
kind: Gizmo
metadata:
  name: b
  namespace: other
spec:
  size: 2
"""

RECONCILER = """\
FOR = "gizmos.dev.example.com/v1"
OWNS = ["v1/ConfigMap"]


def reconcile(obj, ctx):
    name = obj["metadata"]["name"]
    child = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name + "-cm"},
        "data": {"size": str(obj["spec"]["size"])},
    }
    return {"children": [child], "status": {"size": obj["spec"]["size"]}}
"""

#: a text line's time stamp
STAMP = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} ")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """tmp_path/r.py and tmp_path/dir/ with the CRD and the two Gizmos."""
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "crd.yaml").write_text(CRD)
    (tmp_path / "dir" / "gizmos.yaml").write_text(GIZMOS)
    (tmp_path / "r.py").write_text(RECONCILER)
    return tmp_path


def lines(text: str) -> list[str]:
    return [STAMP.sub("", line) for line in text.splitlines()]


def test_once_reconciles_every_object_and_exits_0_with_a_summary(project: Path) -> None:
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr) == (0, "")
    out = lines(done.stdout)
    assert "configmap default/a-cm applied" in [line.strip() for line in out]
    assert "configmap other/b-cm applied" in [line.strip() for line in out]
    assert "gizmo other/b status written" in [line.strip() for line in out]
    # each Gizmo: its first reconcile writes the child and the status (2 writes), the
    # child's ADDED enqueues it once more (converged: no writes)
    assert out[-1] == "2 objects, 4 reconciles, 4 writes, 0 errors"


def test_crd_files_given_apart_are_served_too(project: Path) -> None:
    (project / "dir" / "crd.yaml").rename(project / "crd.yaml")
    done = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"),
        "--crd", str(project / "crd.yaml"), "--once",
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    assert lines(done.stdout)[-1] == "2 objects, 4 reconciles, 4 writes, 0 errors"


def test_an_invalid_object_is_one_line_at_its_file_line_column_and_exits_1(
    project: Path,
) -> None:
    bad = project / "dir" / "bad.yaml"
    bad.write_text("apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata:\n  name: c\n"
                   "spec:\n  size: 11\n")  # fmt: skip
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr) == (1, "")
    out = lines(done.stdout)
    assert out[0] == (
        f"{bad}:6:9: error: spec.size: Invalid value: 11: spec.size in body should be "
        "less than or equal to 10"
    )
    assert "Traceback" not in done.stdout
    # the rest loaded and reconciled; c was never stored
    assert out[-1] == "2 objects, 4 reconciles, 4 writes, 0 errors, 1 input problem"


def test_a_failing_reconcile_is_run_once_and_exits_1(project: Path) -> None:
    (project / "r.py").write_text(
        RECONCILER.replace('    name = obj["metadata"]["name"]\n',
                           '    name = obj["metadata"]["name"]\n'
                           '    if name == "b":\n'
                           '        raise ValueError("no b")\n')
    )  # fmt: skip
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr) == (1, "")
    out = lines(done.stdout)
    [error] = [line for line in out if line.startswith("error in other/b")]
    assert re.fullmatch(
        rf"error in other/b after \S+: {project / 'r.py'}:8: ValueError: no b", error
    )
    assert not [line for line in out if line.startswith("requeued")]
    assert out[-1] == "2 objects, 3 reconciles, 2 writes, 1 error; failed: other/b"


def test_json_lines_parse_and_end_with_the_summary(project: Path) -> None:
    (project / "dir" / "bad.yaml").write_text("kind: [\n")
    done = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"), "--once",
        "--log-format", "json",
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (1, "")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    [problem] = [r for r in records if r["event"] == "problem"]
    assert problem["file"] == str(project / "dir" / "bad.yaml")
    assert problem["line"] >= 1
    assert records[-1] | {"time": 0} == {
        "time": 0, "event": "summary", "objects": 2, "reconciles": 4, "writes": 4,
        "errors": 0, "problems": 1, "failed": [],
    }  # fmt: skip
    finished = [r for r in records if r["event"] == "ReconcileFinished"]
    assert {r["key"] for r in finished} == {"default/a", "other/b"}


def test_a_crd_not_in_dir_is_a_one_line_error(project: Path) -> None:
    (project / "dir" / "crd.yaml").unlink()
    (project / "dir" / "gizmos.yaml").unlink()
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "put its CRD in the --local directory or give it with --crd FILE" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_local_flags_are_checked(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="alternatives"):
        dev_options("r.py", local=str(tmp_path), envtest=True)
    with pytest.raises(UsageError, match="no such directory"):
        dev_options("r.py", local=str(tmp_path / "missing"))
    with pytest.raises(UsageError, match="--crd installs CRDs"):
        dev_options("r.py", crd_paths=("crd.yaml",))
    options = dev_options("r.py", local=str(tmp_path), crd_paths=("crd.yaml",), once=True)
    assert (options.local, options.crd_paths, options.once) == (str(tmp_path), ("crd.yaml",), True)
