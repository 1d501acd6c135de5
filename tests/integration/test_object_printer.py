"""``output.printing``'s object printer side by side with kubectl's printers, where a
command prints several objects one after another (``scale``: kubectl's printer is
called once per object, and its YAML printer separates them with ``---``).

Two namespaces hold identical CronTabs; ``kubectl scale`` runs in one, ours in the
other, with a client dry run (nothing changes, so both print the same objects). The
texts must be the same once each object's identity (namespace, uid, resourceVersion,
creationTimestamp) is blanked.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli_runner import run_cli
from tests.integration.envtest import ControlPlane, newest_kubectl

CRONTAB_CRD = Path(__file__).parents[2] / "examples" / "crds" / "crontab.yaml"
IDENTITY = re.compile(
    r'("?(namespace|uid|resourceVersion|creationTimestamp)"?: ?)("[^"\n]*"|[^\s,]+)'
)


def crontab(name: str, replicas: int) -> dict[str, object]:
    return {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": name, "labels": {"app": "printer"}},
        "spec": {"cronSpec": "* * * * */5", "image": "demo", "replicas": replicas},
    }


def blanked(text: str) -> str:
    return IDENTITY.sub(r"\1X", text)


@pytest.fixture(scope="module")
def spaces(apiserver: ControlPlane) -> list[str]:
    apiserver.install_crds([CRONTAB_CRD])
    suffix = time.monotonic_ns() % 10**8
    names = [f"printer-k-{suffix}", f"printer-o-{suffix}"]
    items = [crontab("a", 1), crontab("b", 2), crontab("c", 3)]
    for name in names:
        apiserver.kubectl("create", "namespace", name)
        listing = {"apiVersion": "v1", "kind": "List", "items": items}
        apiserver.kubectl("create", "-n", name, "-f", "-", input=json.dumps(listing))
    return names


@pytest.mark.parametrize("output", ["yaml", "json", "name"])
def test_several_objects_print_as_kubectls_printer_prints_them(
    apiserver: ControlPlane, spaces: list[str], output: str
) -> None:
    args = ["scale", "crontabs.stable.example.com", "-l", "app=printer", "--replicas", "5"]
    args += ["--dry-run=client", "-o", output]
    theirs = subprocess.run(
        [newest_kubectl(), f"--kubeconfig={apiserver.kubeconfig}", *args, "-n", spaces[0]],
        capture_output=True,
        text=True,
        env=apiserver.env(),
        check=False,
    )
    ours = run_cli(
        *args,
        "-n",
        spaces[1],
        env={"KUBECONFIG": str(apiserver.kubeconfig), "KUBECTL_CRD_DEBUG": "0"},
    )
    assert (ours.returncode, theirs.returncode) == (0, 0), ours.stderr + theirs.stderr
    assert theirs.stdout.lower().count("crontab") == 3  # the three objects, in any format
    if output == "yaml":  # what kubectl's printer adds between objects, and only there
        assert theirs.stdout.count("---\n") == 2 and not theirs.stdout.startswith("---")
    assert blanked(ours.stdout) == blanked(theirs.stdout)
