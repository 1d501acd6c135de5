"""The envtest fixture works with the real kubectl, and its processes never outlive us."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.integration.envtest import REPO_ROOT, ControlPlane

# Its own group and names, so that tests installing examples/crds/crontab.yaml
# (stable.example.com) into the same session API server cannot collide with it: a second
# "crontabs" would make the plural ambiguous for kubectl and completion.
GROUP = "envtest.example.com"
CRONTABS = f"fixturetabs.{GROUP}"

CRONTAB_CRD = f"""\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {CRONTABS}
spec:
  group: {GROUP}
  scope: Namespaced
  names: {{kind: FixtureTab, plural: fixturetabs, singular: fixturetab, listKind: FixtureTabList}}
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {{}}
        scale:
          specReplicasPath: .spec.replicas
          statusReplicasPath: .status.replicas
      additionalPrinterColumns:
        - {{name: Schedule, type: string, jsonPath: .spec.cronSpec}}
        - {{name: Replicas, type: integer, jsonPath: .spec.replicas}}
      schema:
        openAPIV3Schema:
          type: object
          description: A CronTab runs a command on a schedule.
          properties:
            spec:
              type: object
              required: [cronSpec]
              properties:
                cronSpec: {{type: string, description: The schedule in cron format.}}
                image: {{type: string}}
                replicas: {{type: integer, minimum: 0}}
            status:
              type: object
              properties:
                replicas: {{type: integer}}
"""

CRONTAB = """\
apiVersion: envtest.example.com/v1
kind: FixtureTab
metadata:
  name: {name}
spec:
  cronSpec: "*/5 * * * *"
  image: busybox
  replicas: 1
"""


@pytest.fixture(scope="module")
def crontab_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("crds") / "crontab.yaml"
    path.write_text(CRONTAB_CRD)
    assert apiserver.install_crds([path]) == [CRONTABS]
    return CRONTABS


def _pinned_kubernetes_version() -> str:
    env = (REPO_ROOT / "hack" / "envtest-versions.env").read_text()
    return next(
        line.split("=", 1)[1].strip()
        for line in env.splitlines()
        if line.startswith("KUBERNETES_VERSION=")
    )


def test_readyz(apiserver: ControlPlane) -> None:
    assert apiserver.kubectl("get", "--raw", "/readyz").stdout.strip() == "ok"


def test_fixture_surface(apiserver: ControlPlane) -> None:
    assert apiserver.kubeconfig.is_file()
    assert apiserver.server.startswith("https://127.0.0.1:")
    assert apiserver.env()["KUBECONFIG"] == str(apiserver.kubeconfig)
    view = json.loads(apiserver.kubectl("config", "view", "--minify", "-o", "json").stdout)
    assert view["current-context"] == apiserver.context
    assert view["clusters"][0]["cluster"]["server"] == apiserver.server


def test_server_is_the_pinned_version_and_we_are_admin(apiserver: ControlPlane) -> None:
    version = json.loads(apiserver.kubectl("version", "-o", "json").stdout)
    assert version["serverVersion"]["gitVersion"] == _pinned_kubernetes_version()
    # Admin through the client certificate's system:masters group, authorised by RBAC.
    assert apiserver.kubectl("auth", "can-i", "*", "*").stdout.strip() == "yes"
    print(f"kubectl {version['clientVersion']['gitVersion']} against {apiserver.server}")


def test_install_crds_is_idempotent(apiserver: ControlPlane, crontab_crd: str) -> None:
    path = apiserver.workdir / "crontab-again.yaml"
    path.write_text(CRONTAB_CRD)
    assert apiserver.install_crds([path, str(path)]) == [crontab_crd]
    assert apiserver.crd_conditions()[crontab_crd]["Established"] == "True"


def test_api_resources_lists_the_crd(apiserver: ControlPlane, crontab_crd: str) -> None:
    out = apiserver.kubectl("api-resources", f"--api-group={GROUP}", "-o", "wide").stdout
    row = next(line.split() for line in out.splitlines() if line.startswith("fixturetabs "))
    assert row[1:4] == [f"{GROUP}/v1", "true", "FixtureTab"]


def test_create_get_scale_and_status(
    apiserver: ControlPlane, crontab_crd: str, namespace: str
) -> None:
    assert "No resources found" in apiserver.kubectl("get", CRONTABS, "-n", namespace).stderr

    apiserver.kubectl("create", "-n", namespace, "-f", "-", input=CRONTAB.format(name="tick"))
    table = apiserver.kubectl("get", CRONTABS, "-n", namespace).stdout.splitlines()
    # Our printer columns; AGE is only the default when a CRD declares none.
    assert table[0].split() == ["NAME", "SCHEDULE", "REPLICAS"]
    assert table[1].split()[:7] == ["tick", "*/5", "*", "*", "*", "*", "1"]

    got = json.loads(
        apiserver.kubectl("get", f"{CRONTABS}/tick", "-n", namespace, "-o", "json").stdout
    )
    assert got["spec"] == {"cronSpec": "*/5 * * * *", "image": "busybox", "replicas": 1}

    apiserver.kubectl("scale", f"{CRONTABS}/tick", "-n", namespace, "--replicas=3")
    apiserver.kubectl(
        "patch",
        f"{CRONTABS}/tick",
        "-n",
        namespace,
        "--subresource=status",
        "--type=merge",
        "-p",
        '{"status": {"replicas": 3}}',
    )
    scale = json.loads(apiserver.kubectl("get", "--raw", _scale_path(namespace, "tick")).stdout)
    assert (scale["kind"], scale["spec"]["replicas"], scale["status"]["replicas"]) == (
        "Scale",
        3,
        3,
    )

    # The schema is enforced: a negative replica count is refused by the API server.
    refused = apiserver.kubectl(
        "create",
        "-n",
        namespace,
        "-f",
        "-",
        check=False,
        input=CRONTAB.format(name="bad").replace("replicas: 1", "replicas: -1"),
    )
    assert refused.returncode != 0
    assert "spec.replicas: Invalid value: -1" in refused.stderr


def _scale_path(namespace: str, name: str) -> str:
    return f"/apis/{GROUP}/v1/namespaces/{namespace}/fixturetabs/{name}/scale"


def test_explain_crontab(apiserver: ControlPlane, crontab_crd: str) -> None:
    # The OpenAPI v3 document of a new CRD is published asynchronously: retry briefly.
    args = ("explain", "fixturetab.spec", f"--api-version={GROUP}/v1")
    deadline = time.monotonic() + 30
    while (result := apiserver.kubectl(*args, check=False)).returncode != 0:
        assert time.monotonic() < deadline, result.stderr
        time.sleep(0.5)
    assert "KIND:       FixtureTab" in result.stdout
    assert "cronSpec\t<string> -required-" in result.stdout
    assert "The schedule in cron format." in result.stdout


@pytest.mark.parametrize("round_", [1, 2])
def test_namespace_fixture_isolates(
    apiserver: ControlPlane, crontab_crd: str, namespace: str, round_: int
) -> None:
    # Both rounds create the same name; each must see only its own object.
    assert namespace not in _namespaces_seen
    _namespaces_seen.append(namespace)
    apiserver.kubectl("create", "-n", namespace, "-f", "-", input=CRONTAB.format(name="same"))
    everywhere = apiserver.kubectl(
        "get",
        CRONTABS,
        "-A",
        "-o",
        'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}',
    ).stdout.split()
    mine = apiserver.kubectl("get", CRONTABS, "-n", namespace, "-o", "name").stdout.split()
    assert mine == [f"fixturetab.{GROUP}/same"]
    assert f"{namespace}/same" in everywhere
    phase = apiserver.kubectl("get", "namespace", namespace, "-o", "jsonpath={.status.phase}")
    assert phase.stdout == "Active"


_namespaces_seen: list[str] = []


# --------------------------------------------------------------------------------------
# teardown: a control plane started by a process that dies by each kind of signal

# The holder restores Python's Ctrl-C handler: a pytest-xdist worker ignores SIGINT, and
# an ignored signal stays ignored in its children, so SIGINT would otherwise do nothing.
_HOLDER = """\
import json, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)
from pathlib import Path
from tests.integration.envtest import ControlPlane
plane = ControlPlane(Path(sys.argv[1]))
plane.start()
print(json.dumps({"pids": [plane._apiserver.popen.pid, plane._etcd.popen.pid],
                  "workdir": str(plane.workdir)}), flush=True)
time.sleep(600)
"""


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")  # a zombie is dead
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux-only")
@pytest.mark.parametrize(
    "sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name
)
def test_processes_die_with_the_test_process(envtest_assets: Path, sig: signal.Signals) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(envtest_assets)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    started: dict[str, Any] = {}
    try:
        assert holder.stdout is not None
        line = holder.stdout.readline()
        assert line, holder.communicate(timeout=30)[1]
        started = json.loads(line)
        assert not any(_gone(pid) for pid in started["pids"])

        holder.send_signal(sig)
        holder.wait(timeout=60)
        deadline = time.monotonic() + 30
        while not all(_gone(pid) for pid in started["pids"]):
            assert time.monotonic() < deadline, f"still running after {sig.name}: {started}"
            time.sleep(0.1)
        if sig != signal.SIGKILL:  # a clean stop also removes the temporary directory
            assert not Path(started["workdir"]).exists()
    finally:
        holder.kill()
        holder.wait()
        if started:
            shutil.rmtree(started["workdir"], ignore_errors=True)  # left behind by SIGKILL
