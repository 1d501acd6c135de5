"""Every example of ``examples/`` against the real API server: its CRD installed, its
samples created in a fresh namespace, its reconciler (loaded from the file, as ``kubectl
crd dev`` loads it) run by the real ``Controller`` over ``ClusterBackend``; what the
server then holds (children, their controller ownerReferences, status with
observedGeneration) is the oracle. envtest runs no controllers: for Foo the test plays
the Deployment controller's part (it writes the Deployment's status), for Nginx it
creates the pods a ReplicaSet would."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.discovery import Discovery
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.reconcile.backends import ClusterBackend
from kubectl_crd.reconcile.controller import Controller
from kubectl_crd.reconcile.loading import load_reconciler
from tests.cli_runner import run_cli
from tests.integration.envtest import ControlPlane

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def readme_commands(prefix: str) -> list[list[str]]:
    """The command lines of examples/*/README.md (their indented blocks, comments
    dropped) that start with ``prefix``, each as argv: what a reader types, from the
    repository's root."""
    found = []
    for readme in sorted(EXAMPLES.glob("*/README.md")):
        for line in readme.read_text().splitlines():
            argv = shlex.split(line, comments=True) if line.startswith("    ") else []
            if argv[: len(prefix.split())] == prefix.split():
                found.append(argv)
    return found


#: the README lines that run the loop on a cluster (--local runs: tests/unit/examples)
CLUSTER_RUNS = [a for a in readme_commands("kubectl crd dev") if "--local" not in a]


@pytest.fixture(scope="module")
def crds(apiserver: ControlPlane) -> list[str]:
    return apiserver.install_crds(
        [EXAMPLES / name / "crd.yaml" for name in ("foo", "hook", "nginx", "xca")]
    )


@pytest.fixture
def client(apiserver: ControlPlane, tmp_path: Path, crds: list[str]) -> Iterator[KubeClient]:
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as made:
        yield made


class Cluster:
    def __init__(self, client: KubeClient, namespace: str, cache: Path) -> None:
        self.client = client
        self.namespace = namespace
        discovery = Discovery(client.request, client.server, cache_dir=str(cache))
        self.backend = ClusterBackend(client, discovery)

    def resource(self, group: str, version: str, plural: str) -> ResourceClient:
        return ResourceClient(
            self.client, group, version, plural, namespaced=True, namespace=self.namespace
        )

    def create_samples(self, name: str, *files: str) -> None:
        for file in files:
            for obj in yaml.safe_load_all((EXAMPLES / name / file).read_text()):
                if not obj:
                    continue
                obj["metadata"]["namespace"] = self.namespace
                info = self.backend.resolve(f"{obj['apiVersion']}/{obj['kind']}")
                self.resource(info.group, info.version, info.plural).create(obj)

    @contextmanager
    def running(self, name: str) -> Iterator[Controller]:
        reconciler = load_reconciler(str(EXAMPLES / name / "reconciler.py"))
        controller = Controller(self.backend, reconciler, namespace=self.namespace)
        controller.start()
        try:
            assert controller.wait_idle(timeout=30, settle=0.5)
            yield controller
        finally:
            controller.stop()


@pytest.fixture
def cluster(client: KubeClient, namespace: str, tmp_path: Path) -> Cluster:
    return Cluster(client, namespace, tmp_path / "cache")


def eventually(controller: Controller, check: Callable[[], bool], timeout: float = 30) -> bool:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        controller.wait_idle(timeout=5, settle=0.3)
        if check():
            return True
        time.sleep(0.1)
    return check()


def controller_of(child: dict[str, Any]) -> tuple[str, str]:
    [ref] = [r for r in child["metadata"].get("ownerReferences", []) if r.get("controller")]
    return ref["kind"], ref["name"]


def test_foo(cluster: Cluster, apiserver: ControlPlane) -> None:
    cluster.create_samples("foo", "foo.yaml")
    foos = cluster.resource("samplecontroller.k8s.io", "v1alpha1", "foos")
    deployments = cluster.resource("apps", "v1", "deployments")
    with cluster.running("foo") as controller:
        deployment = deployments.get("example-foo")
        assert deployment["spec"]["replicas"] == 1
        assert controller_of(deployment) == ("Foo", "example-foo")
        assert foos.get("example-foo")["status"] == {
            "availableReplicas": 0,
            "observedGeneration": 1,
        }
        # the Deployment controller's part: one replica available
        deployments.update_status(
            {**deployment, "status": {"replicas": 1, "readyReplicas": 1, "availableReplicas": 1}}
        )
        assert eventually(
            controller,
            lambda: foos.get("example-foo")["status"].get("availableReplicas") == 1,
        )
        # `kubectl crd scale` writes the scale subresource: spec.replicas, then the Deployment
        scaled = run_cli(
            "scale", "foo/example-foo", "--replicas", "3", "-n", cluster.namespace,
            env={"KUBECONFIG": str(apiserver.kubeconfig)},
        )  # fmt: skip
        assert (scaled.returncode, scaled.stdout, scaled.stderr) == (
            0, "foo.samplecontroller.k8s.io/example-foo scaled\n", "",
        )  # fmt: skip
        assert eventually(
            controller, lambda: deployments.get("example-foo")["spec"]["replicas"] == 3
        )
        # the status is written after the Deployment, in the same reconcile
        assert eventually(
            controller, lambda: foos.get("example-foo")["status"]["observedGeneration"] == 2
        )


def test_nginx(cluster: Cluster) -> None:
    cluster.create_samples("nginx", "nginx.yaml")
    nginxes = cluster.resource("nginx.example.com", "v1", "nginxes")
    with cluster.running("nginx") as controller:
        deployment = cluster.resource("apps", "v1", "deployments").get("web")
        assert deployment["spec"]["replicas"] == 2
        assert controller_of(deployment) == ("Nginx", "web")
        assert nginxes.get("web")["status"]["nodes"] == []
        # the pods a ReplicaSet would start, reaching the Nginx through WATCHES
        cluster.create_samples("nginx", "pods.yaml")
        assert eventually(
            controller,
            lambda: (
                nginxes.get("web")["status"]["nodes"]
                == ["web-7d9c5b6f4-abcde", "web-7d9c5b6f4-fghij"]
            ),
        )


def test_xca(cluster: Cluster) -> None:
    cluster.create_samples("xca", "xca.yaml")
    xcas = cluster.resource("tutorial.example.com", "v1", "xcas")
    with cluster.running("xca") as controller:
        xca = xcas.get("xca-sample")
        assert xca["status"]["active"] is True
        assert xca["status"]["lastUpdateTime"].endswith("Z")
        assert xca["metadata"]["finalizers"] == ["tutorial.example.com/cleanup"]
        xcas.delete("xca-sample")

        def gone() -> bool:
            return [o["metadata"]["name"] for o in xcas.items()] == []

        assert eventually(controller, gone)


def test_hook(cluster: Cluster) -> None:
    cluster.create_samples("hook", "hello.yaml")
    hellos = cluster.resource("example.com", "v1", "helloworlds")
    with cluster.running("hook") as controller:
        pod = cluster.resource("", "v1", "pods").get("hello")
        assert pod["spec"]["containers"][0]["command"] == ["echo", "Hello, World!"]
        assert controller_of(pod) == ("HelloWorld", "hello")
        assert eventually(controller, lambda: hellos.get("hello")["status"].get("pods") == 1)


def test_the_readmes_kubectl_lines_are_what_kubectl_takes(
    apiserver: ControlPlane, crds: list[str]
) -> None:
    # each `kubectl apply -f` of a README, as a server dry run (the CRDs are installed)
    applies = readme_commands("kubectl apply")
    assert applies
    for argv in applies:
        args = [str(EXAMPLES.parent / a) if a.startswith("examples/") else a for a in argv[1:]]
        done = apiserver.kubectl(*args, "--dry-run=server", check=False)
        assert done.returncode == 0, (argv, done.stderr)


@pytest.mark.parametrize("argv", CLUSTER_RUNS, ids=lambda argv: " ".join(argv[3:]))
def test_the_readmes_cluster_runs_reconcile_the_samples(
    argv: list[str], apiserver: ControlPlane, crds: list[str], cluster: Cluster, tmp_path: Path
) -> None:
    # the line as the README has it, with --once (it would run until Ctrl-C), on the
    # test's namespace and control plane; before, foo's said `--crd crd.yaml` without
    # --envtest: 'error: --crd installs CRDs in the --envtest control plane ...', exit 1
    example = Path(argv[3]).parent.name
    args = argv[3:]
    if "--envtest" not in args:
        cluster.create_samples(example, *sorted(
            p.name for p in (EXAMPLES / example).glob("*.yaml") if p.name != "crd.yaml"
        ))  # fmt: skip
        if "-n" in args:  # the README's namespace: the test's own instead
            del args[args.index("-n") : args.index("-n") + 2]
        args += ["-n", cluster.namespace, "--kubeconfig", str(apiserver.kubeconfig)]
    done = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "dev", *args, "--once", "--log-format", "json"],
        cwd=EXAMPLES.parent, capture_output=True, text=True, timeout=120, check=False,
        env={**{k: v for k, v in os.environ.items() if k != "KUBECONFIG"},
             "HOME": str(tmp_path)},
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    summary = json.loads(done.stdout.splitlines()[-1])
    # a throwaway control plane holds no Foo until you create one
    objects = 0 if "--envtest" in args else 1
    assert (summary["event"], summary["objects"], summary["errors"]) == ("summary", objects, 0)
