"""``kubectl crd workbench``'s refusals: one line on stderr, exit 1, no file written."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_crd.output.workbench.session import create_from_sample
from tests.cli_runner import run_cli
from tests.unit.workbench.conftest import CERTIFICATE, MakeSession

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


def test_against_cluster_bounds_a_silent_server(
    make_session: MakeSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that takes the connection and never answers: the check becomes a create
    after the workbench's own request timeout (not "checking" for ever)."""
    import socket
    import threading
    import time

    from kubectl_crd.cli.app import Application
    from kubectl_crd.cli.commands import workbench
    from kubectl_crd.output.workbench.session import Check

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    port = silent.getsockname()[1]
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
        f"clusters: [{{name: c, cluster: {{server: 'http://127.0.0.1:{port}'}}}}]\n"
        "contexts: [{name: c, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {}}]\n"
    )
    monkeypatch.setattr(workbench, "CLUSTER_TIMEOUT", "1s")
    cluster = workbench._cluster_objects(Application(kubeconfig=str(kubeconfig)))
    session = make_session(CERTIFICATE, old=cluster)
    create_from_sample(session)
    start = time.monotonic()
    checks: list[Check] = []
    # in a thread: without the bound the check would wait for ever, and the test with it
    worker = threading.Thread(target=lambda: checks.append(session.check()), daemon=True)
    worker.start()
    worker.join(8)
    silent.close()
    assert not worker.is_alive(), "the check still waits on the silent server after 8 s"
    cluster.client.close()
    (check,) = checks
    assert time.monotonic() - start < 5
    assert (check.valid, check.operation) == (True, "create")
    assert check.note.startswith("cluster unreachable (") and "timeout" in check.note.lower()
    assert check.note.endswith("): checked as a create")
