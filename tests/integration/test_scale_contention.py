"""Scale under contention (issue 30): several writers increment the same objects' replicas.

Writers of three kinds race on the same Foos (examples/foo/crd.yaml: a scale subresource
on ``.spec.replicas``, maximum 10): ``kubectl crd scale --current-replicas=N
--replicas=N+1`` (kubectl's precondition: read the Scale, refuse when the replicas
differ, PUT it conditional on its resourceVersion, on a 409 read again and re-check;
``k8s.io/kubectl/pkg/scale/scale.go`` ``ScaleCondition``), the real kubectl doing the
same, and ``ResourceClient.update_scale`` PUTting the Scale it read (its
resourceVersion the precondition). Every increment was conditional on the value it
started from, so none may be lost: each object's final replicas equal the number of
increments that reported success on it, and the losers were refused (a precondition
failure or a 409), never silently applied.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import ApiError
from tests.cli_runner import run_cli
from tests.integration.envtest import ControlPlane, newest_kubectl

FOO_CRD = Path(__file__).parents[2] / "examples" / "foo" / "crd.yaml"
NAMESPACE = "contention"
OBJECTS = ("a", "b")
TOP = 10  # the CRD's maximum
#: the in-process writers only take an object this far, so that the CLI writers make the
#: rest and their successes are counted too (below it they race the in-process ones)
CLIENT_TOP = 5


@pytest.fixture(scope="module")
def plane(isolated_apiserver: ControlPlane) -> ControlPlane:
    isolated_apiserver.install_crds([FOO_CRD])
    isolated_apiserver.kubectl("create", "namespace", NAMESPACE)
    for name in OBJECTS:
        foo = {
            "apiVersion": "samplecontroller.k8s.io/v1alpha1",
            "kind": "Foo",
            "metadata": {"name": name, "namespace": NAMESPACE},
            "spec": {"deploymentName": name, "replicas": 0},
        }
        isolated_apiserver.kubectl("create", "-f", "-", input=json.dumps(foo))
    return isolated_apiserver


def test_no_lost_update_when_scaling_with_a_precondition(
    plane: ControlPlane, tmp_path: Path
) -> None:
    client = KubeClient(
        ClusterConfig(kubeconfig=str(plane.kubeconfig)), environ={"HOME": str(tmp_path)}
    )
    foos = ResourceClient(
        client, "samplecontroller.k8s.io", "v1alpha1", "foos", namespaced=True, namespace=NAMESPACE
    )
    lock = threading.Lock()
    successes: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    unexpected: list[str] = []

    def current(name: str) -> int:
        return int(foos.get_scale(name)["spec"].get("replicas") or 0)

    def by_cli(name: str, replicas: int, kubectl: bool) -> str:
        args = (
            f"foo/{name}", "-n", NAMESPACE,
            f"--current-replicas={replicas}", f"--replicas={replicas + 1}",
        )  # fmt: skip
        if kubectl:
            done = subprocess.run(
                [newest_kubectl(), f"--kubeconfig={plane.kubeconfig}", "scale", *args],
                capture_output=True, text=True, env=plane.env(), check=False,
            )  # fmt: skip
        else:
            done = run_cli("scale", *args, env={"KUBECONFIG": str(plane.kubeconfig)})
        if done.returncode == 0:
            return "ok"
        if "Expected replicas to be" in done.stderr:
            return "precondition"
        unexpected.append(f"{name} {replicas}: exit {done.returncode}: {done.stderr.strip()}")
        return "error"

    def by_client(name: str, _replicas: int) -> str:
        scale = foos.get_scale(name)
        replicas = int(scale["spec"].get("replicas") or 0)
        if replicas >= CLIENT_TOP:
            return "precondition"
        scale["spec"]["replicas"] = replicas + 1
        time.sleep(random.uniform(0, 0.05))  # widen the read-write window: a slow writer
        try:
            foos.update_scale(name, scale)  # conditional on scale's resourceVersion
        except ApiError as exc:
            if exc.status == 409:
                return "conflict"
            unexpected.append(f"{name}: {exc}")
            return "error"
        return "ok"

    def writer(kind: str, seed: int) -> None:
        rng = random.Random(seed)
        while True:
            top = CLIENT_TOP if kind == "client" else TOP
            open_objects = [name for name in OBJECTS if current(name) < top]
            if not open_objects or len(unexpected) > 3:
                return
            name = rng.choice(open_objects)
            replicas = current(name)
            if replicas >= top:
                continue
            if kind == "client":
                outcome = by_client(name, replicas)
            else:
                outcome = by_cli(name, replicas, kubectl=kind == "kubectl")
            with lock:
                outcomes[f"{kind}:{outcome}"] += 1
                if outcome == "ok":
                    successes[name] += 1

    writers = [
        threading.Thread(target=writer, args=(kind, seed))
        for seed, kind in enumerate(("crd", "crd", "kubectl", "client", "client", "client"))
    ]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in writers)
    client.close()
    assert unexpected == []
    finals = {name: current_replicas(plane, name) for name in OBJECTS}
    # every increment that reported success is there, none twice: no lost update
    assert finals == dict.fromkeys(OBJECTS, TOP)
    assert dict(successes) == dict.fromkeys(OBJECTS, TOP), outcomes
    # the race happened: some writer lost (a refused precondition or a 409)
    print("scale contention outcomes:", dict(outcomes))
    lost = sum(n for key, n in outcomes.items() if not key.endswith(":ok"))
    assert lost > 0, outcomes
    # the in-process writers stop at CLIENT_TOP, so the CLI writers made at least every
    # increment above it; below it both kinds race (a CLI writer may win there too)
    cli_ok = outcomes["crd:ok"] + outcomes["kubectl:ok"]
    assert cli_ok >= len(OBJECTS) * (TOP - CLIENT_TOP), outcomes
    assert outcomes["client:ok"] <= len(OBJECTS) * CLIENT_TOP, outcomes


def current_replicas(plane: ControlPlane, name: str) -> int:
    out = plane.kubectl("get", "-n", NAMESPACE, f"foo/{name}", "-o", "jsonpath={.spec.replicas}")
    return int(out.stdout)
