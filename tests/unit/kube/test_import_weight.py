"""Live one-shot commands never import the ``kubernetes`` package (340-500 ms of start-up):
``kubectl crd explain`` against a loopback server serving a CRD list, in a fresh
interpreter, and the modules it loaded checked at exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.unit.kube.conftest import Reply, ScriptedServer, write_kubeconfig

EXAMPLE_CRD = Path(__file__).parents[3] / "examples" / "crds" / "crontab.yaml"

_PROBE = """
import atexit, sys
def report():
    heavy = sorted(m for m in ("kubernetes", "urllib3", "requests", "ruamel", "click", "rich")
                   if m in sys.modules)
    sys.stderr.write("HEAVY=" + ",".join(heavy) + "\\n")
atexit.register(report)
sys.argv = ["kubectl-crd", *sys.argv[1:]]
from kubectl_crd.cli.root import main
main()
"""


def test_live_explain_imports_no_kubernetes(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    crd = yaml.safe_load(EXAMPLE_CRD.read_text())
    scripted_server.replies = [Reply(200, {"kind": "CustomResourceDefinitionList", "items": [crd]})]
    kubeconfig = write_kubeconfig(
        tmp_path / "kubeconfig",
        clusters={"c": {"server": scripted_server.url}},
        users={"u": {"token": "t"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("KUBE")}
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, "--kubeconfig", str(kubeconfig), "explain", "crontab.spec"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "KIND:       CronTab" in result.stdout
    assert scripted_server.requests[0]["path"] == (
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
    )
    heavy = result.stderr.strip().splitlines()[-1]
    assert heavy == "HEAVY=", json.dumps(heavy)
