"""``--envtest``'s local control plane (``reconcile.controlplane``) with the real binaries.

It starts, its kubeconfig works with the real kubectl, the ``--crd`` files are installed
and Established, and stopping it leaves no process and no directory behind; then
``kubectl crd dev --envtest`` end to end: the loop reconciles on that control plane,
prints the kubeconfig a user can ``kubectl get`` with, and on SIGINT exits 0 having
stopped etcd and kube-apiserver.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.discovery import Discovery
from kubectl_crd.model.errors import InputError
from kubectl_crd.reconcile.controlplane import LocalControlPlane
from tests.integration.envtest import newest_kubectl

REPO = Path(__file__).resolve().parents[2]
CRONTAB_CRD = REPO / "examples" / "crds" / "crontab.yaml"
HANG_GUARD = 90.0

RECONCILER = """\
FOR = "crontabs.stable.example.com/v1"
OWNS = ["v1/ConfigMap"]


def reconcile(obj, ctx):
    name = obj["metadata"]["name"]
    return {"children": [{"apiVersion": "v1", "kind": "ConfigMap",
                          "metadata": {"name": name + "-schedule"},
                          "data": {"cronSpec": obj["spec"]["cronSpec"]}}]}
"""

CRONTAB = {
    "apiVersion": "stable.example.com/v1",
    "kind": "CronTab",
    "metadata": {"name": "nightly", "namespace": "default"},
    "spec": {"cronSpec": "0 3 * * *", "image": "backup:1"},
}


def kubectl(
    kubeconfig: str, *args: str, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [newest_kubectl(), f"--kubeconfig={kubeconfig}", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def processes_mentioning(text: str) -> list[int]:
    """Running processes whose command line holds ``text`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().split(")")[-1].split()[0]
        except OSError:
            continue
        if text.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def test_the_control_plane_starts_serves_kubectl_installs_crds_and_stops_clean(
    envtest_assets: Path,
) -> None:
    plane = LocalControlPlane(str(envtest_assets))
    plane.start()
    try:
        assert plane.server.startswith("https://127.0.0.1:")
        assert stat.S_IMODE(os.stat(plane.kubeconfig).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(plane.workdir).st_mode) == 0o700
        assert (
            kubectl(plane.kubeconfig, "auth", "can-i", "create", "customresourcedefinitions").stdout
            == "yes\n"
        )
        assert plane.install_crds([str(CRONTAB_CRD)]) == ["crontabs.stable.example.com"]
        # installed means discoverable, as the loop finds what it reconciles
        with KubeClient(ClusterConfig(kubeconfig=plane.kubeconfig)) as client:
            discovery = Discovery(client.request, client.server, cache_dir=plane.workdir)
            [(_, ref, _)] = discovery.find("crontabs.stable.example.com")
            assert ref.versions == ("v1",)
        crd = json.loads(
            kubectl(
                plane.kubeconfig, "get", "crd", "crontabs.stable.example.com", "-o", "json"
            ).stdout
        )
        conditions = {c["type"]: c["status"] for c in crd["status"]["conditions"]}
        assert conditions["Established"] == "True"
        created = kubectl(plane.kubeconfig, "apply", "-f", "-", input=json.dumps(CRONTAB))
        assert created.returncode == 0, created.stderr
        got = kubectl(plane.kubeconfig, "get", "crontabs", "-n", "default", "-o", "name")
        assert got.stdout == "crontab.stable.example.com/nightly\n"
        with pytest.raises(InputError, match="--crd takes CustomResourceDefinitions, not CronTab"):
            bad = Path(plane.workdir) / "not-a-crd.json"
            bad.write_text(json.dumps(CRONTAB))
            plane.install_crds([str(bad)])
        pids = plane.pids
        assert len(pids) == 2 and all(processes_mentioning(plane.workdir))
    finally:
        plane.stop()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not os.path.exists(plane.workdir)
    assert processes_mentioning(plane.workdir) == []


def test_kubectl_crd_dev_envtest_end_to_end(envtest_assets: Path, tmp_path: Path) -> None:
    (tmp_path / "rec.py").write_text(RECONCILER)
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    env.update(HOME=str(tmp_path), KUBEBUILDER_ASSETS=str(envtest_assets))
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "kubectl_crd", "dev", "rec.py", "--envtest",
            "--crd", str(CRONTAB_CRD), "--log-format", "json",
        ],
        cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    events: list[dict[str, object]] = []
    try:
        kubeconfig = ""
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            events.append(json.loads(line))
            message = str(events[-1].get("message", ""))
            if "--kubeconfig " in message:
                kubeconfig = message.split("--kubeconfig ")[1].split()[0]
            if message.startswith("watching rec.py for changes"):
                break
        assert kubeconfig, (events, proc.stderr.read() if proc.poll() is not None else "")
        workdir = str(Path(kubeconfig).parent)
        exited = proc.poll() is not None
        assert len(processes_mentioning(workdir)) == 2, (events, exited and proc.stderr.read())
        created = kubectl(kubeconfig, "apply", "-f", "-", input=json.dumps(CRONTAB))
        assert created.returncode == 0, created.stderr
        while time.monotonic() < deadline:
            got = kubectl(
                kubeconfig, "get", "configmap", "nightly-schedule", "-n", "default", "-o", "json"
            )
            if got.returncode == 0:
                break
            time.sleep(0.2)
        assert json.loads(got.stdout)["data"] == {"cronSpec": "0 3 * * *"}
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0, err
    events.extend(json.loads(line) for line in rest.splitlines())
    kinds = [event["event"] for event in events]
    assert "Stopped" in kinds
    assert events[-1] == {
        **events[-1],
        "event": "note",
        "message": "stopped the local control plane",
    }
    assert processes_mentioning(workdir) == []
    assert not os.path.exists(workdir)
