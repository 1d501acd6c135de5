"""``kubectl crd scale`` against the real API server, and side by side with ``kubectl scale``.

One control plane for the module (``isolated_apiserver``) with:

- ``foos.samplecontroller.k8s.io``: sample-controller's Foo with a scale subresource
  (``spec.replicas``, maximum 10; ``status.availableReplicas``; ``status.selector``);
- ``bars.samplecontroller.k8s.io``: the same with a second version, v1beta1, which
  discovery prefers and which has no scale subresource;
- ``clusterfoos.samplecontroller.k8s.io``: cluster-scoped, scale paths ``.spec.size``
  and ``.status.size``;
- strimzi's KafkaBridge from the corpus (namespaced, ``spec.replicas``).

The oracle is the server (the objects after each command) and kubectl 1.N (the newest
next to ``/usr/bin/kubectl``): the parity test runs both on identical objects in two
namespaces and compares stdout, stderr, exit codes and the objects' specs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resolving import ref_of
from kubectl_crd.kube.scaling import Precondition, ScaleTarget, scale_object
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ScalePreconditionError
from tests.cli_runner import run_cli
from tests.integration.envtest import ControlPlane, newest_kubectl

DATA = Path(__file__).parents[1] / "unit" / "scale" / "data"
#: strimzi's KafkaBridge, under the corpus directory (the ``corpus_dir`` fixture)
BRIDGE_CRD = Path("crds", "strimzi", "046-Crd-kafkabridge.yaml")
BRIDGE_SAMPLE = Path("samples", "strimzi", "bridge__kafka-bridge.yaml")
FOO_API = "samplecontroller.k8s.io/v1alpha1"


def _crds(tmp: Path, corpus: Path) -> list[Path]:
    two_versions = (DATA / "foo-crd.yaml").read_text()
    alpha_only = (
        two_versions[: two_versions.index("    - name: v1beta1")]
        + (two_versions[two_versions.index("  names:") :])
    )
    bars = (
        two_versions.replace("foos.samplecontroller", "bars.samplecontroller")
        .replace("kind: Foo", "kind: Bar")
        .replace("plural: foos", "plural: bars")
        .replace("singular: foo", "singular: bar")
        .replace("shortNames: [fo]", "shortNames: [ba]")
    )
    cluster = (
        alpha_only.replace("foos.samplecontroller", "clusterfoos.samplecontroller")
        .replace("kind: Foo", "kind: ClusterFoo")
        .replace("plural: foos", "plural: clusterfoos")
        .replace("singular: foo", "singular: clusterfoo")
        .replace("shortNames: [fo]", "shortNames: [cfo]")
        .replace("scope: Namespaced", "scope: Cluster")
        .replace("                replicas:\n", "                size:\n")
        .replace("                availableReplicas:\n", "                size:\n")
        .replace("specReplicasPath: .spec.replicas", "specReplicasPath: .spec.size")
        .replace(
            "statusReplicasPath: .status.availableReplicas", "statusReplicasPath: .status.size"
        )
    )
    paths = []
    for name, text in (("foos", alpha_only), ("bars", bars), ("clusterfoos", cluster)):
        path = tmp / f"{name}.yaml"
        path.write_text(text)
        paths.append(path)
    return [*paths, corpus / BRIDGE_CRD]


@pytest.fixture(scope="module")
def plane(
    isolated_apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path
) -> ControlPlane:
    isolated_apiserver.install_crds(_crds(tmp_path_factory.mktemp("scale-crds"), corpus_dir))
    return isolated_apiserver


@pytest.fixture
def ns(plane: ControlPlane, request: pytest.FixtureRequest) -> Iterator[str]:
    name = f"s-{abs(hash(request.node.name)) % 10**8}-{time.monotonic_ns() % 10**6}"
    plane.kubectl("create", "namespace", name)
    yield name


def ours(plane: ControlPlane, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(
        "scale", *args, env={"KUBECONFIG": str(plane.kubeconfig), "KUBECTL_CRD_DEBUG": "0"}
    )


def theirs(plane: ControlPlane, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            newest_kubectl(),
            f"--kubeconfig={plane.kubeconfig}",
            f"--cache-dir={plane.workdir / 'scale-kube-cache'}",
            "scale",
            *args,
        ],
        capture_output=True,
        text=True,
        env=plane.env(),
        check=False,
    )


def foo(name: str, replicas: int | None = 1, labels: dict[str, str] | None = None) -> str:
    spec: dict[str, Any] = {"deploymentName": name}
    if replicas is not None:
        spec["replicas"] = replicas
    obj = {
        "apiVersion": FOO_API,
        "kind": "Foo",
        "metadata": {"name": name, "labels": labels or {}},
        "spec": spec,
    }
    return json.dumps(obj)


def create(plane: ControlPlane, ns: str, *documents: str) -> None:
    items = [json.loads(d) for d in documents]
    plane.kubectl(
        "create",
        "-n",
        ns,
        "-f",
        "-",
        input=json.dumps({"apiVersion": "v1", "kind": "List", "items": items}),
    )


def create_twins(plane: ControlPlane, namespaces: list[str], *documents: str) -> None:
    """The same objects in each of ``namespaces`` (made here), in one kubectl call."""
    items: list[dict[str, Any]] = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}} for name in namespaces
    ]
    for name in namespaces:
        for document in documents:
            obj = json.loads(document)
            obj["metadata"]["namespace"] = name
            items.append(obj)
    plane.kubectl(
        "create", "-f", "-", input=json.dumps({"apiVersion": "v1", "kind": "List", "items": items})
    )


def get(plane: ControlPlane, resource: str, ns: str = "") -> dict[str, Any]:
    where = ["-n", ns] if ns and not ns.startswith("-") else [ns] if ns else []
    args = ["get", resource, "-o", "json", "--show-managed-fields", *where]
    result: dict[str, Any] = json.loads(plane.kubectl(*args).stdout)
    return result


def replicas_of(plane: ControlPlane, resource: str, ns: str = "") -> Any:
    return get(plane, resource, ns)["spec"].get("replicas")


# -- scaling ---------------------------------------------------------------------------


def test_scale_up_and_down(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 1))
    up = ours(plane, "foo/example", "--replicas", "5", "-n", ns)
    assert (up.returncode, up.stdout, up.stderr) == (
        0,
        "foo.samplecontroller.k8s.io/example scaled\n",
        "",
    )
    assert replicas_of(plane, "foo/example", ns) == 5
    down = ours(plane, "foos", "example", "--replicas=0", f"--namespace={ns}")
    assert down.returncode == 0, down.stderr
    assert replicas_of(plane, "foo/example", ns) == 0


def test_writes_go_through_the_scale_subresource(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 1))
    assert ours(plane, "foo/example", "--replicas", "3", "-n", ns).returncode == 0
    managed = get(plane, "foo/example", ns)["metadata"]["managedFields"]
    ours_entries = [m for m in managed if m["manager"].startswith("kubectl-crd")]
    assert [m.get("subresource") for m in ours_entries] == ["scale"]


def test_cluster_scoped_with_its_own_paths(plane: ControlPlane) -> None:
    plane.kubectl(
        "apply",
        "-f",
        "-",
        input=json.dumps(
            {
                "apiVersion": FOO_API,
                "kind": "ClusterFoo",
                "metadata": {"name": "wide"},
                "spec": {"size": 1},
            }
        ),
    )
    result = ours(plane, "clusterfoo/wide", "--replicas", "4", "--current-replicas", "1")
    assert (result.returncode, result.stdout) == (
        0,
        "clusterfoo.samplecontroller.k8s.io/wide scaled\n",
    ), result.stderr
    assert get(plane, "clusterfoo/wide")["spec"] == {"size": 4}
    shown = ours(plane, "clusterfoo/wide")
    assert shown.returncode == 0
    assert "spec replicas:    4          .spec.size" in shown.stdout
    assert "status replicas:  0          .status.size" in shown.stdout


def test_corpus_crd_kafkabridge(plane: ControlPlane, ns: str, corpus_dir: Path) -> None:
    plane.kubectl("create", "-n", ns, "-f", str(corpus_dir / BRIDGE_SAMPLE))
    result = ours(plane, "kafkabridge/my-bridge", "--replicas", "3", "-n", ns)
    assert result.stdout == "kafkabridge.kafka.strimzi.io/my-bridge scaled\n", result.stderr
    assert replicas_of(plane, "kafkabridge/my-bridge", ns) == 3


# -- preconditions ---------------------------------------------------------------------


def test_preconditions_that_pass_and_fail(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 2))
    ok = ours(plane, "foo/example", "--replicas", "3", "--current-replicas", "2", "-n", ns)
    assert ok.returncode == 0, ok.stderr
    again = ours(plane, "foo/example", "--replicas", "4", "--current-replicas", "2", "-n", ns)
    assert (again.returncode, again.stdout, again.stderr) == (
        1,
        "",
        "error: Expected replicas to be 2, was 3\n",
    )
    version = get(plane, "foo/example", ns)["metadata"]["resourceVersion"]
    stale = ours(plane, "foo/example", "--replicas", "4", "--resource-version", "1", "-n", ns)
    assert stale.stderr == f"error: Expected resource version to be 1, was {version}\n"
    assert replicas_of(plane, "foo/example", ns) == 3
    fresh = ours(plane, "foo/example", "--replicas", "4", "--resource-version", version, "-n", ns)
    assert fresh.returncode == 0, fresh.stderr
    assert replicas_of(plane, "foo/example", ns) == 4


class InterruptedClient(KubeClient):
    """A real client that lets ``writer`` change the object on the server right after
    the first GET of the Scale: the write between kubectl's read and its update."""

    def __init__(self, config: ClusterConfig, writer: Callable[[], None]) -> None:
        super().__init__(config)
        self.writer: Callable[[], None] | None = writer
        self.calls: list[tuple[str, str]] = []

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        self.calls.append((method, path.rsplit("/", 1)[-1]))
        answer = super().request(method, path, **kwargs)
        if method == "GET" and self.writer is not None:
            writer, self.writer = self.writer, None
            writer()
        return answer


def _target(plane: ControlPlane, ns: str) -> ScaleTarget:
    crd = CustomResourceDefinition.from_object(
        get(plane, "customresourcedefinition/foos.samplecontroller.k8s.io")
        | {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition"}
    )
    return ScaleTarget(ref_of(crd), "v1alpha1", ns, "example")


def _config(plane: ControlPlane) -> ClusterConfig:
    return ClusterConfig(kubeconfig=str(plane.kubeconfig), namespace=None)


def test_a_concurrent_scale_is_not_overwritten(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 2))

    def other_writer() -> None:
        plane.kubectl("scale", "-n", ns, "foo/example", "--replicas", "5")

    client = InterruptedClient(_config(plane), other_writer)
    with pytest.raises(ScalePreconditionError) as caught:
        scale_object(
            client,
            _target(plane, ns),
            3,
            Precondition(2),
            server_dry_run=False,
            sleep=lambda _: None,
        )
    assert caught.value.kubectl_line == "error: Expected replicas to be 2, was 5"
    # read, conflicting write refused (409), read again, precondition fails: no 2nd write
    assert client.calls == [("GET", "scale"), ("PUT", "scale"), ("GET", "scale")]
    assert replicas_of(plane, "foo/example", ns) == 5


def test_a_concurrent_unrelated_change_is_retried_and_kept(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 2))

    def other_writer() -> None:
        plane.kubectl("label", "-n", ns, "foo/example", "touched=yes")

    client = InterruptedClient(_config(plane), other_writer)
    scale_object(
        client, _target(plane, ns), 3, Precondition(2), server_dry_run=False, sleep=lambda _: None
    )
    assert client.calls == [("GET", "scale"), ("PUT", "scale"), ("GET", "scale"), ("PUT", "scale")]
    after = get(plane, "foo/example", ns)
    assert after["spec"]["replicas"] == 3
    assert after["metadata"]["labels"] == {"touched": "yes"}


def test_a_concurrent_change_fails_a_resource_version_precondition(
    plane: ControlPlane, ns: str
) -> None:
    create(plane, ns, foo("example", 2))
    version = get(plane, "foo/example", ns)["metadata"]["resourceVersion"]

    def other_writer() -> None:
        plane.kubectl("label", "-n", ns, "foo/example", "touched=yes")

    client = InterruptedClient(_config(plane), other_writer)
    with pytest.raises(ScalePreconditionError) as caught:
        scale_object(
            client,
            _target(plane, ns),
            3,
            Precondition(-1, version),
            server_dry_run=False,
            sleep=lambda _: None,
        )
    now = get(plane, "foo/example", ns)
    assert caught.value.message == (
        f"Expected resource version to be {version}, was {now['metadata']['resourceVersion']}"
    )
    assert now["spec"]["replicas"] == 2


# -- dry runs, many objects, refusals ------------------------------------------------------


def test_server_dry_run_leaves_the_object_unchanged(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 2))
    before = get(plane, "foo/example", ns)
    result = ours(plane, "foo/example", "--replicas", "7", "--dry-run=server", "-n", ns)
    assert result.stdout == "foo.samplecontroller.k8s.io/example scaled (server dry run)\n"
    after = get(plane, "foo/example", ns)
    assert after["metadata"]["resourceVersion"] == before["metadata"]["resourceVersion"]
    assert after["spec"] == before["spec"]
    # the server still validates a dry run
    refused = ours(plane, "foo/example", "--replicas", "70", "--dry-run=server", "-n", ns)
    assert refused.returncode == 1
    assert "should be less than or equal to 10" in refused.stderr


def test_selector_over_many_objects(plane: ControlPlane, ns: str) -> None:
    chosen = [foo(f"f{i:02}", 1, {"app": "demo"}) for i in range(30)]
    others = [foo(f"o{i}", 1, {"app": "other"}) for i in range(3)]
    create(plane, ns, *chosen, *others)
    result = ours(plane, "foo", "-l", "app=demo", "--replicas", "6", "-n", ns)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"foo.samplecontroller.k8s.io/f{i:02} scaled" for i in range(30)
    ]
    items = get(plane, "foos", ns)["items"]
    by_name = {item["metadata"]["name"]: item["spec"]["replicas"] for item in items}
    assert by_name == {**{f"f{i:02}": 6 for i in range(30)}, **{f"o{i}": 1 for i in range(3)}}


def test_all_namespaces_with_a_selector(plane: ControlPlane, ns: str) -> None:
    second = ns + "-b"
    plane.kubectl("create", "namespace", second)
    create(plane, ns, foo("a", 1, {"wave": ns}))
    create(plane, second, foo("b", 1, {"wave": ns}))
    result = ours(plane, "foo", "-A", "-l", f"wave={ns}", "--replicas", "2")
    assert sorted(result.stdout.splitlines()) == [
        "foo.samplecontroller.k8s.io/a scaled",
        "foo.samplecontroller.k8s.io/b scaled",
    ], result.stderr
    assert replicas_of(plane, "foo/a", ns) == replicas_of(plane, "foo/b", second) == 2


def test_over_the_schema_maximum_is_refused_with_the_servers_message(
    plane: ControlPlane, ns: str
) -> None:
    create(plane, ns, foo("example", 2))
    result = ours(plane, "foo/example", "--replicas", "11", "-n", ns)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        'The Foo "example" is invalid: spec.replicas: Invalid value: 11: spec.replicas in '
        "body should be less than or equal to 10\n"
    )
    assert replicas_of(plane, "foo/example", ns) == 2


def test_a_version_without_scale_is_explained(plane: ControlPlane, ns: str) -> None:
    result = ours(plane, "bar/anything", "--replicas", "1", "-n", ns)
    assert result.returncode == 1
    assert result.stderr.splitlines()[:2] == [
        "error: bars.samplecontroller.k8s.io version v1beta1 has no scale subresource, so it "
        "cannot be scaled (the server would answer 404 Not Found).",
        "v1alpha1 has one: use bars.v1alpha1.samplecontroller.k8s.io/NAME",
    ]


def test_show_mode_and_a_missing_spec_path(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("bare", None), foo("full", 3))
    full = ours(plane, "foo/full", "-n", ns)
    assert full.returncode == 0
    assert full.stdout.splitlines()[:4] == [
        f"foo.samplecontroller.k8s.io/full in namespace {ns} (version v1alpha1)",
        "  spec replicas:    3          .spec.replicas",
        "  status replicas:  0          .status.availableReplicas",
        "  selector:         <none>     .status.selector",
    ]
    bare = ours(plane, "foo/bare", "-n", ns)
    assert bare.returncode == 1
    assert bare.stderr.splitlines() == [
        "Error from server (InternalError): Internal error occurred: the spec replicas field "
        '".spec.replicas" does not exist',
        "foo.samplecontroller.k8s.io/bare has no .spec.replicas (the CRD's specReplicasPath) "
        "yet, so its Scale cannot be read: scale it without --current-replicas/"
        "--resource-version to set it, or set .spec.replicas in the object.",
    ]
    # a plain scale sets the missing field
    assert ours(plane, "foo/bare", "--replicas", "2", "-n", ns).returncode == 0
    assert replicas_of(plane, "foo/bare", ns) == 2


def test_wait_follows_the_status_until_it_converges(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 1))
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    env.update(KUBECONFIG=str(plane.kubeconfig), KUBECTL_CRD_DEBUG="0")
    argv = ["foo/example", "--replicas", "3", "--wait", "--timeout", "60s", "-n", ns]
    began = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kubectl_crd", "scale", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stderr is not None
        # the "controller" acts once the command has seen the status before it (a fixed
        # 1.5 s was trusted before: a slow start-up saw only the converged status)
        first = proc.stderr.readline()
        print(f"\nscale --wait printed its first status {time.monotonic() - began:.2f} s in")
        patch = {"status": {"availableReplicas": 3, "selector": "app=example"}}
        plane.kubectl(
            "patch",
            "-n",
            ns,
            "foo/example",
            "--subresource=status",
            "--type=merge",
            "-p",
            json.dumps(patch),
        )
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, first + err
    assert out == "foo.samplecontroller.k8s.io/example scaled\n"
    assert [first.rstrip("\n"), *err.splitlines()] == [
        "foo.samplecontroller.k8s.io/example: 0/3 replicas",
        "foo.samplecontroller.k8s.io/example: 3/3 replicas selector app=example",
    ]


def test_wait_times_out_with_kubectls_message(plane: ControlPlane, ns: str) -> None:
    create(plane, ns, foo("example", 1))
    result = ours(plane, "foo/example", "--replicas", "2", "--timeout", "2s", "-n", ns)
    # as kubectl: "scaled" is said once the replicas agree, so never here, and --timeout
    # alone prints no progress (before: the "scaled" line first, and a progress line)
    assert (result.returncode, result.stdout, result.stderr) == (
        1,
        "",
        'error: timed out waiting for "example" to be synced\n',
    )
    assert replicas_of(plane, "foo/example", ns) == 2  # scaled all the same, as kubectl


# -- parity with kubectl scale -----------------------------------------------------------

PARITY_CASES: list[tuple[str, list[str]]] = [
    ("plain", ["foo/example", "--replicas", "4"]),
    ("type and name", ["foo", "example", "--replicas", "0"]),
    ("current replicas met", ["foo/example", "--replicas", "3", "--current-replicas", "2"]),
    ("current replicas not met", ["foo/example", "--replicas", "3", "--current-replicas", "9"]),
    ("over the maximum", ["foo/example", "--replicas", "11"]),
    ("negative", ["foo/example", "--replicas", "-1"]),
    ("server dry run", ["foo/example", "--replicas", "6", "--dry-run=server"]),
    ("client dry run", ["foo/example", "--replicas", "6", "--dry-run=client"]),
    ("output name", ["foo/example", "--replicas", "5", "-o", "name"]),
    ("selector", ["foo", "-l", "app=demo", "--replicas", "7"]),
    ("selector matching nothing", ["foo", "-l", "app=none", "--replicas", "7"]),
    ("all", ["foo", "--all", "--replicas", "8"]),
    ("missing object", ["foo/nope", "--replicas", "2"]),
    ("one missing of two", ["foo/example", "foo/nope", "--replicas", "2"]),
    ("no name", ["foo", "--replicas", "2"]),
    ("nothing", ["--replicas", "2"]),
    ("unknown type", ["nosuchthing/example", "--replicas", "2"]),
    ("from a file", ["-f", str(DATA / "example.yaml"), "--replicas", "3"]),
    (
        "from a file with a precondition",
        ["-f", str(DATA / "example.yaml"), "--replicas", "3", "--current-replicas", "2"],
    ),
    ("a file's namespace is not -n's", ["-f", str(DATA / "in-default.yaml"), "--replicas", "3"]),
    ("a kind no CRD serves", ["-f", str(DATA / "unknown-kind.yaml"), "--replicas", "3"]),
    ("bare dry run", ["--dry-run", "foo/example", "--replicas", "6"]),
    ("octal", ["foo/example", "--replicas", "010"]),
    ("non-integer", ["foo/example", "--replicas", "1.5"]),
    (
        "current replicas not an integer",
        ["foo/example", "--replicas", "1", "--current-replicas", "x"],
    ),
    (
        "resource version with many",
        ["foo/example", "foo/other", "--replicas", "2", "--resource-version", "1"],
    ),
    # each of these four differed from kubectl before (helper-56's session)
    ("dry run not a mode", ["foo/example", "--replicas", "6", "--dry-run=bogus"]),
    # kubectl scales, then its wait's deadline has passed already
    ("negative timeout", ["foo/example", "--replicas", "3", "--timeout=-1s"]),
    # status (availableReplicas) is 0 as the spec becomes: synced on the first look
    ("a timeout met at once", ["foo/example", "--replicas", "0", "--timeout", "30s"]),
    ("a selector that does not parse", ["foo", "-l", "app in (", "--replicas", "2"]),
    ("timeout not a duration", ["foo/example", "--replicas", "2", "--timeout", "x"]),
    ("dry run as a Go boolean", ["foo/example", "--replicas", "6", "--dry-run=T"]),
    # Complete (--dry-run) runs before Validate (the count)
    ("dry run checked before the count", ["foo/example", "--replicas=-1", "--dry-run=x"]),
    ("past int64", ["foo/example", "--replicas", "9223372036854775808"]),
    # kubectl prints the object it read before the scale, we the one after it (see
    # cli/commands/scale.py): a field the scale does not change reads the same
    ("output jsonpath", ["foo/example", "--replicas", "5", "-o", "jsonpath={.metadata.name}"]),
    ("output jsonpath that does not parse", ["foo/example", "--replicas", "5", "-o", "jsonpath={"]),
]


def _without_klog(stderr: str) -> str:
    """kubectl's own log lines (``W1123 22:33:22.550587 17049 helpers.go:703] --dry-run is
    deprecated ...``) are its logging, not the command's output: we do not print them."""
    return "".join(
        line for line in stderr.splitlines(keepends=True) if not re.match(r"^[IWE]\d{4} ", line)
    )


@pytest.mark.parametrize(("case", "args"), PARITY_CASES, ids=[c for c, _ in PARITY_CASES])
def test_parity_with_kubectl_scale(plane: ControlPlane, case: str, args: list[str]) -> None:
    spaces = [f"parity-{who}-{abs(hash(case)) % 10**8}" for who in ("k", "o")]
    create_twins(plane, spaces, foo("example", 2, {"app": "demo"}), foo("other", 1))
    kubectl_result = theirs(plane, *args, "-n", spaces[0])
    our_result = ours(plane, *args, "-n", spaces[1])
    assert (our_result.returncode, our_result.stdout, our_result.stderr) == (
        kubectl_result.returncode,
        kubectl_result.stdout,
        _without_klog(kubectl_result.stderr)
        .replace("kubectl scale --help", "kubectl crd scale --help")
        .replace(spaces[0], spaces[1]),
    )
    specs: dict[str, dict[str, Any]] = {space: {} for space in spaces}
    for item in get(plane, "foos", "--all-namespaces")["items"]:
        if item["metadata"]["namespace"] in specs:
            specs[item["metadata"]["namespace"]][item["metadata"]["name"]] = item["spec"]
    assert specs[spaces[1]] == specs[spaces[0]]
    assert set(specs[spaces[0]]) == {"example", "other"}


def test_a_missing_namespace_is_named_as_kubectl_names_it(plane: ControlPlane, ns: str) -> None:
    """kubectl's builder, on a 404 for an object in a namespace other than default,
    asks for the namespace and, when it is missing too, says so (``Info.Get`` in
    cli-runtime's ``resource/visitor.go``); before, the object's 404 was reported."""
    create(plane, ns, foo("example", 1))
    missing = f"{ns}-missing"
    for args in (["foo/example"], ["foo/example", "foo/other"], ["foo", "example"]):
        argv = [*args, "--replicas", "2", "-n", missing]
        kubectl_result = theirs(plane, *argv)
        our_result = ours(plane, *argv)
        assert kubectl_result.returncode == 1 and missing in kubectl_result.stderr, kubectl_result
        assert (our_result.returncode, our_result.stdout, our_result.stderr) == (
            kubectl_result.returncode,
            kubectl_result.stdout,
            kubectl_result.stderr,
        ), args


#: kubectl's resource builder (kube.targets): its refusals and the forms it reads
BUILDER_CASES: list[tuple[str, list[str]]] = [
    ("two slashes", ["foo/example/x", "--replicas", "2"]),
    ("mixed forms", ["foo/example", "foo", "--replicas", "2"]),
    ("a pair with a path", ["foo/example", "-f", str(DATA / "example.yaml"), "--replicas", "2"]),
    ("a type with a path", ["foo", "example", "-f", str(DATA / "example.yaml"), "--replicas", "2"]),
    ("a pair with a selector", ["foo/example", "-l", "app=demo", "--replicas", "2"]),
    ("a name with a selector", ["foo", "example", "-l", "app=demo", "--replicas", "2"]),
    ("a selector without a type", ["-l", "app=demo", "--replicas", "2"]),
    ("an unknown type alone", ["nosuchthing", "--replicas", "2"]),
    ("--all with names", ["foo", "example", "--all", "--replicas", "3"]),
    ("--all with a selector", ["foo", "-l", "app=demo", "--all", "--replicas", "3"]),
    ("two types, one name", ["foo,foos", "example", "--replicas", "3"]),
    ("two missing", ["foo/nope1", "foo/nope2", "--replicas", "2"]),
    # FilenameParam comes before the arguments are read
    ("a missing file", ["-f", "no-such-file.yaml", "foo/example", "--replicas", "2"]),
    ("two missing of three", ["foo", "nope1", "example", "nope2", "--replicas", "4"]),
    (
        "a selector over files",
        ["-f", str(DATA / "example.yaml"), "-l", "app=demo", "--replicas", "3"],
    ),
]


@pytest.mark.parametrize(("case", "args"), BUILDER_CASES, ids=[c for c, _ in BUILDER_CASES])
def test_the_resource_builder_is_kubectls(plane: ControlPlane, case: str, args: list[str]) -> None:
    spaces = [f"builder-{who}-{abs(hash(case)) % 10**8}" for who in ("k", "o")]
    create_twins(plane, spaces, foo("example", 2, {"app": "demo"}), foo("other", 1))
    kubectl_result = theirs(plane, *args, "-n", spaces[0])
    our_result = ours(plane, *args, "-n", spaces[1])
    program = Path(newest_kubectl()).name  # builder.go names os.Args[0]
    assert (our_result.returncode, our_result.stdout, our_result.stderr) == (
        kubectl_result.returncode,
        kubectl_result.stdout,
        _without_klog(kubectl_result.stderr)
        .replace(f"'{program} ", "'kubectl crd ")
        .replace(spaces[0], spaces[1]),
    )
    specs: dict[str, dict[str, Any]] = {space: {} for space in spaces}
    for item in get(plane, "foos", "--all-namespaces")["items"]:
        if item["metadata"]["namespace"] in specs:
            specs[item["metadata"]["namespace"]][item["metadata"]["name"]] = item["spec"]
    assert specs[spaces[1]] == specs[spaces[0]]


def _without_identity(obj: dict[str, Any]) -> dict[str, Any]:
    metadata = dict(obj["metadata"])
    for key in ("namespace", "uid", "resourceVersion", "creationTimestamp", "generation"):
        metadata.pop(key, None)
    return obj | {"metadata": metadata}


@pytest.mark.parametrize("output", ["json", "yaml"])
def test_output_of_a_client_dry_run_is_kubectls(
    plane: ControlPlane, output: str, tmp_path: Path
) -> None:
    from kubectl_crd.io import read_inputs

    spaces = [f"out-{output}-k", f"out-{output}-o"]
    create_twins(plane, spaces, foo("example", 2, {"app": "demo"}))
    args = ["foo/example", "--replicas", "6", "--dry-run=client", "-o", output]
    kubectl_result = theirs(plane, *args, "-n", spaces[0])
    our_result = ours(plane, *args, "-n", spaces[1])
    assert our_result.returncode == kubectl_result.returncode == 0, our_result.stderr
    parsed = []
    for index, text in enumerate((kubectl_result.stdout, our_result.stdout)):
        path = tmp_path / f"{index}.{output}"
        path.write_text(text)
        (document,) = read_inputs([str(path)])
        parsed.append(_without_identity(document.content))
    assert parsed[1] == parsed[0]
    if output == "json":  # the same layout too, once the identity is the same
        ours_text = our_result.stdout.replace(spaces[1], spaces[0])
        theirs_uid = json.loads(kubectl_result.stdout)["metadata"]
        ours_uid = json.loads(our_result.stdout)["metadata"]
        for key in ("uid", "resourceVersion", "creationTimestamp"):
            ours_text = ours_text.replace(str(ours_uid[key]), str(theirs_uid[key]))
        assert ours_text == kubectl_result.stdout


def test_output_yaml_shows_the_scaled_object(plane: ControlPlane, ns: str) -> None:
    # kubectl prints the object as read before scaling (replicas still 2); we read it after
    create(plane, ns, foo("example", 2))
    result = ours(plane, "foo/example", "--replicas", "4", "-o", "yaml", "-n", ns)
    assert result.returncode == 0, result.stderr
    assert "  replicas: 4\n" in result.stdout
    assert "managedFields" not in result.stdout


def test_requests_of_one_scale(plane: ControlPlane, ns: str, tmp_path: Path) -> None:
    """One PATCH of /scale once discovery is cached (kubectl keeps it six hours too):
    no CRD read, no list of every CRD (2 s with the corpus installed), no GET or write
    of the object itself; with a cold cache, discovery first. A CRD created after the
    cache was written is found by asking again."""
    create(plane, ns, foo("example", 1))
    env = {
        "KUBECONFIG": str(plane.kubeconfig),
        "KUBECTL_CRD_DEBUG": "0",
        "KUBECTL_CRD_CACHE_DIR": str(tmp_path / "cache"),
    }

    def requests_of(*args: str) -> list[tuple[str, str]]:
        mark = plane.audit_mark()
        result = run_cli("scale", *args, env=env)
        assert result.returncode == 0, result.stderr
        return [
            (event["verb"], event["requestURI"].split("?")[0])
            for event in plane.audit_events(mark)
            if event.get("stage") == "ResponseComplete"
            and event.get("userAgent", "").startswith("kubectl-crd/")
        ]

    patch = ("patch", f"/apis/samplecontroller.k8s.io/v1alpha1/namespaces/{ns}/foos/example/scale")
    assert requests_of("fo/example", "--replicas", "2", "-n", ns) == [("get", "/apis"), patch]
    assert requests_of("fo/example", "--replicas", "3", "-n", ns) == [patch]
    assert (
        json.loads(plane.kubectl("get", "foo", "example", "-n", ns, "-o", "json").stdout)["spec"][
            "replicas"
        ]
        == 3
    )
    # a CRD the cached discovery does not know yet: discovery is asked again
    plane.install_crds([Path(__file__).parents[2] / "examples" / "crds" / "crontab.yaml"])
    crontab = {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "c"},
        "spec": {"cronSpec": "* * * * */5", "image": "x", "replicas": 1},
    }
    create(plane, ns, json.dumps(crontab))
    scaled = ("patch", f"/apis/stable.example.com/v1/namespaces/{ns}/crontabs/c/scale")
    assert requests_of("crontab/c", "--replicas", "2", "-n", ns) == [("get", "/apis"), scaled]


def test_a_built_in_resource_is_sent_to_kubectl_scale(plane: ControlPlane, ns: str) -> None:
    result = ours(plane, "deploy/web", "--replicas", "2", "-n", ns)
    assert (result.returncode, result.stderr) == (
        1,
        'error: "deploy" is deployments.apps, a built-in resource, not a custom resource: '
        "use kubectl scale\n",
    )


# -- --local against the server: the same object scaled by kubectl scale ------------------


def _ratchet_crds(tmp: Path) -> tuple[Path, Path]:
    """A Foo-like CRD (ratchets, kind Ratchet) as first installed, and tightened:
    spec.deploymentName at most 5 characters long."""
    text = (DATA / "foo-crd.yaml").read_text()
    loose = text[: text.index("    - name: v1beta1")].replace(
        "foos.samplecontroller", "ratchets.samplecontroller"
    ) + text[text.index("  names:") :].replace("kind: Foo", "kind: Ratchet").replace(
        "plural: foos", "plural: ratchets"
    ).replace("singular: foo", "singular: ratchet").replace("shortNames: [fo]", "shortNames: [rt]")
    anchor = "                deploymentName:\n                  type: string\n"
    tight = loose.replace(anchor, anchor + "                  maxLength: 5\n")
    assert tight != loose
    paths = (tmp / "loose.yaml", tmp / "tight.yaml")
    paths[0].write_text(loose)
    paths[1].write_text(tight)
    return paths


def _without_bookkeeping(obj: dict[str, Any]) -> dict[str, Any]:
    """What --local does not model: the server's new resourceVersion, its generation
    bump and managedFields."""
    metadata = {
        k: v
        for k, v in obj["metadata"].items()
        if k not in ("resourceVersion", "generation", "managedFields")
    }
    return obj | {"metadata": metadata}


def _cause(stderr: str) -> str:
    """The error without where it is: ``FILE:L:C: error: `` (ours) or nothing (kubectl)."""
    return re.sub(r"^.*?:\d+:\d+: error: ", "", stderr)


def test_local_is_what_the_server_does(plane: ControlPlane, ns: str, tmp_path: Path) -> None:
    """The same object scaled by ``kubectl scale`` on the server and by ``scale --local``
    on its dump: a stored object whose name a tightened schema no longer allows is
    scaled by both (ratcheting: the write is an update); a count over the maximum is
    refused by both in the same words; the dump made a plain manifest is refused by
    both (a create), for the name."""
    loose, tight = _ratchet_crds(tmp_path)
    plane.install_crds([loose])
    long_name = {
        "apiVersion": FOO_API,
        "kind": "Ratchet",
        "metadata": {"name": "long"},
        "spec": {"deploymentName": "toolong", "replicas": 1},
    }
    create(plane, ns, json.dumps(long_name))
    plane.install_crds([tight])
    manifest = dict(long_name, metadata={"name": "long", "namespace": ns})
    deadline = time.monotonic() + 60
    while True:  # the server serves the new schema a moment after the CRD changes
        probe = plane.kubectl(
            "create", "--dry-run=server", "-f", "-", input=json.dumps(manifest), check=False
        )
        if probe.returncode or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert "Too long" in probe.stderr, probe.stderr
    dump = tmp_path / "stored.yaml"
    dump.write_text(plane.kubectl("get", "ratchet/long", "-n", ns, "-o", "yaml").stdout)

    def local(path: Path, replicas: str) -> subprocess.CompletedProcess[str]:
        return run_cli(
            "scale",
            "--local",
            "-f",
            str(path),
            "--crd",
            str(tight),
            "--replicas",
            replicas,
            "-o",
            "json",
        )

    over_local = local(dump, "11")
    over_server = theirs(plane, "ratchet/long", "--replicas", "11", "-n", ns)
    assert over_local.returncode == over_server.returncode == 1
    assert over_server.stderr == (
        'The Ratchet "long" is invalid: spec.replicas: Invalid value: 11: spec.replicas in '
        "body should be less than or equal to 10\n"
    )
    assert _cause(over_local.stderr) == over_server.stderr
    assert over_local.stdout == ""

    ok_local = local(dump, "3")
    ok_server = theirs(plane, "ratchet/long", "--replicas", "3", "-n", ns)
    assert ok_local.returncode == ok_server.returncode == 0, ok_local.stderr
    read_back = get(plane, "ratchet/long", ns)
    assert read_back["spec"] == {"deploymentName": "toolong", "replicas": 3}
    assert _without_bookkeeping(json.loads(ok_local.stdout)) == _without_bookkeeping(read_back)

    plain = tmp_path / "manifest.json"
    plain.write_text(json.dumps(manifest))
    refused_local = local(plain, "3")
    refused_server = plane.kubectl("create", "--dry-run=server", "-f", str(plain), check=False)
    assert refused_local.returncode == refused_server.returncode == 1
    assert refused_server.stderr == (
        'The Ratchet "long" is invalid: spec.deploymentName: Too long: may not be more '
        "than 5 bytes\n"
    )
    assert _cause(refused_local.stderr) == refused_server.stderr
