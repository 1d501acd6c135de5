"""``kubectl crd workbench``'s refusals: one line on stderr, exit 1, no file written."""

from __future__ import annotations

from pathlib import Path

from tests.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[3]
CRDS = str(REPO / "examples" / "crds")
NO_SCHEMA = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things, singular: thing}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true}]
"""


def _refused(*args: str) -> str:
    result = run_cli("workbench", *args, env={"KUBECONFIG": "/dev/null"})
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    return result.stderr


def test_a_crd_without_schema_is_named(tmp_path: Path) -> None:
    (tmp_path / "crd.yaml").write_text(NO_SCHEMA)
    stderr = _refused("thing", "--crd", str(tmp_path))
    assert "warning: skipped a CRD: " in stderr and "schemas are required" in stderr
    assert stderr.rstrip().endswith('error: the server doesn\'t have a resource type "thing"')


def test_refusals_write_no_file(tmp_path: Path) -> None:
    target = tmp_path / "ct.yaml"
    assert _refused("crontab", "-f", str(target), "--crd", CRDS).strip() == (
        "error: workbench needs a terminal: standard input or output is not one"
    )
    assert _refused("crontab", "-f", str(tmp_path), "--crd", CRDS).strip() == (
        f"error: -f {tmp_path}: is a directory; name a file"
    )
    assert _refused("crontab", "-f", str(target), "--old", "/nope", "--crd", CRDS).strip() == (
        "error: --old /nope: no such file"
    )
    assert _refused(
        "crontab", "-f", str(target), "--old", str(target), "--against-cluster", "--crd", CRDS
    ).strip() == ("error: --old and --against-cluster both name the old object: give one")
    assert _refused("crontab.spec", "--crd", CRDS).strip() == (
        "error: workbench takes a resource, not a field path: crontab.spec"
    )
    assert not target.exists()
