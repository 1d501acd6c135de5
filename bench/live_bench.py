"""Benchmark: live cluster reads, kubectl-crd against kubectl, on a real API server.

Starts a kube-apiserver like the integration-test fixture (``tests/integration/envtest.py``),
installs ``examples/crds/crontab.yaml`` with some custom resources, and times, as new
processes, interleaved so that machine load hits every row alike, once with a bearer
token kubeconfig and once with a client-certificate kubeconfig:

- ``kubectl explain RESOURCE.path`` (the newest kubectl installed, discovery cache warm);
- ``kubectl-crd explain --kubectl RESOURCE.path``: the CRD read from the server (the same
  bytes as kubectl), the console script next to this Python;
- ``kubectl crd explain --kubectl RESOURCE.path``: through kubectl's plugin dispatch, with
  that script's directory first on PATH, which adds kubectl's own start-up;
- ``kubectl get RESOURCE -o json``: a live list of the custom resources;
- our ``kubectl_crd.kube`` client making the same LIST and writing the JSON to stdout, as a
  tiny ``python -c`` command line (``LIST_SCRIPT``). There is no ``kubectl crd get`` yet;
  this row becomes it when it lands, and is labelled for what it is until then;
- ``python -c pass``, the interpreter's own start-up, for scale.

It prints medians, minimums and maximums, the ratios to kubectl, whether the outputs
agree, and the import breakdown (``-X importtime``) of the live explain.

Target (issue 8): at most 1.5x kubectl's median wall time when run directly.
Run by hand from the repository root:

    .venv/bin/python bench/live_bench.py [--runs 21] [--objects 50]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.integration.cluster_access import (  # noqa: E402
    client_cert_kubeconfig,
    token_kubeconfig,
)
from tests.integration.envtest import ControlPlane, ensure_assets, newest_kubectl  # noqa: E402

SCRIPT = Path(sys.executable).with_name("kubectl-crd")
OURS = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "kubectl_crd"]
#: Not passed on: a kubeconfig or debug setting of the caller, and
#: PYTHONDONTWRITEBYTECODE (some sandboxes export it), which makes every run compile
#: every module of an editable install from source, as no user's Python does.
DROPPED_ENV = ("KUBECONFIG", "KUBECTL_CRD_DEBUG", "PYTHONDONTWRITEBYTECODE")
EXAMPLE_CRD = REPO / "examples" / "crds" / "crontab.yaml"
RESOURCE = "crontabs"
EXPLAIN_PATH = f"{RESOURCE}.spec"
NAMESPACE = "bench"
#: What ``kubectl crd get -o json`` will do at its core: one LIST with our client, the
#: server's JSON to stdout. argv[1] is the API path.
LIST_SCRIPT = (
    "import sys\n"
    "from kubectl_crd.kube.client import KubeClient\n"
    "from kubectl_crd.kube.config import ClusterConfig\n"
    "import json\n"
    "listing = KubeClient(ClusterConfig()).request('GET', sys.argv[1])\n"
    "sys.stdout.write(json.dumps(listing, indent=4) + '\\n')\n"
)
CRONTAB = """\
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: crontab-{index:03d}
  namespace: {namespace}
  labels: {{app: bench, index: "{index}"}}
spec:
  cronSpec: "*/{minutes} * * * *"
  image: registry.example/cron:{index}
  replicas: {replicas}
"""


#: The first error of each failing command: its rows are marked, not left out.
FAILURES: dict[str, str] = {}


def crontabs(indexes: range, replicas: Callable[[int], int]) -> str:
    """The CronTabs numbered ``indexes`` in NAMESPACE, as one YAML stream."""
    return "---\n".join(
        CRONTAB.format(index=i, namespace=NAMESPACE, minutes=1 + i % 59, replicas=replicas(i))
        for i in indexes
    )


def serve_crontabs(plane: ControlPlane, count: int, replicas: Callable[[int], int]) -> None:
    """The example CRD installed and ``count`` CronTabs created, 200 to a request."""
    plane.install_crds([EXAMPLE_CRD])
    plane.kubectl("create", "namespace", NAMESPACE)
    for start in range(0, count, 200):
        stream = crontabs(range(start, min(start + 200, count)), replicas)
        plane.kubectl("apply", "--server-side", "-f", "-", input=stream)


def token_env(plane: ControlPlane, work: Path) -> dict[str, str]:
    """This environment for a timed tool: a token kubeconfig, its own HOME."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
    env.update(
        KUBECONFIG=str(token_kubeconfig(plane, work / "token.kubeconfig")),
        HOME=str(work / "home"),
    )
    return env


def timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    began = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - began
    if proc.returncode != 0:
        FAILURES.setdefault(" ".join(command), f"exit {proc.returncode}: {proc.stderr.strip()}")
    return elapsed, proc.stdout


def row(label: str, times: list[float], reference: list[float] | None = None) -> str:
    median = statistics.median(times)
    ratio = f"{median / statistics.median(reference):6.2f}x" if reference else " " * 7
    return (
        f"{label:<56} {median * 1000:7.0f} {min(times) * 1000:7.0f} {max(times) * 1000:7.0f}"
        f" ms {len(times):4d} {ratio}"
    )


def import_breakdown(command: list[str], env: dict[str, str], top: int = 12) -> list[str]:
    """``-X importtime`` of one run: the top-level imports by cumulative time, and the
    modules that cost most themselves."""
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=dict(env, PYTHONPROFILEIMPORTTIME="1"),
        check=False,
    )
    entries: list[tuple[int, int, str]] = []  # self µs, cumulative µs, name with indent
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative_us, name = line.removeprefix("import time:").split("|", 2)
        entries.append((int(self_us), int(cumulative_us), name.rstrip()))
    total = sum(entry[0] for entry in entries)
    lines = [f"all imports: {total / 1000:.0f} ms in {len(entries)} modules"]
    top_level = [e for e in entries if not e[2].startswith("  ")]
    lines.append("top-level imports by cumulative time:")
    for _, cumulative_us, name in sorted(top_level, key=lambda e: -e[1])[:top]:
        lines.append(f"  {cumulative_us / 1000:7.1f} ms  {name.strip()}")
    lines.append("modules by their own time:")
    for self_us, _, name in sorted(entries, key=lambda e: -e[0])[:top]:
        lines.append(f"  {self_us / 1000:7.1f} ms  {name.strip()}")
    return lines


def _names(listing: str) -> list[str]:
    try:
        return [item["metadata"]["name"] for item in json.loads(listing)["items"]]
    except (ValueError, KeyError, TypeError):
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--objects", type=int, default=50, help="custom resources to list")
    args = parser.parse_args()

    kubectl = newest_kubectl()
    plane = ControlPlane(ensure_assets())
    work = Path(tempfile.mkdtemp(prefix="live-bench-"))
    try:
        plane.start()
        serve_crontabs(plane, args.objects, lambda i: i % 5)
        plane.wait_explainable(EXPLAIN_PATH)
        list_path = f"/apis/stable.example.com/v1/namespaces/{NAMESPACE}/{RESOURCE}"

        kubeconfigs = {
            "token": token_kubeconfig(plane, work / "token.kubeconfig"),
            "client cert": client_cert_kubeconfig(plane, work / "cert.kubeconfig"),
        }
        path = os.pathsep.join([str(Path(OURS[0]).parent), os.environ.get("PATH", "")])
        commands: dict[tuple[str, str], tuple[list[str], dict[str, str]]] = {}
        for auth, kubeconfig in kubeconfigs.items():
            slug = auth.replace(" ", "-")
            env = {
                k: v
                for k, v in os.environ.items()
                if k not in DROPPED_ENV and not k.lower().endswith("_proxy")
            }
            env.update(
                KUBECONFIG=str(kubeconfig),
                HOME=str(work / f"home-{slug}"),
                KUBECTL_CRD_CACHE_DIR=str(work / f"ours-cache-{slug}"),
                PATH=path,
            )
            cache = f"--cache-dir={work / f'kube-cache-{slug}'}"
            commands[(auth, "kubectl explain")] = ([kubectl, cache, "explain", EXPLAIN_PATH], env)
            commands[(auth, "kubectl-crd explain")] = (
                [*OURS, "explain", "--kubectl", EXPLAIN_PATH],
                env,
            )
            commands[(auth, "kubectl crd explain (plugin)")] = (
                # kubectl refuses flags before a plugin's name; plugins get no --cache-dir
                [kubectl, "crd", "explain", "--kubectl", EXPLAIN_PATH],
                env,
            )
            commands[(auth, "kubectl get -o json")] = (
                [kubectl, cache, "get", RESOURCE, "-n", NAMESPACE, "-o", "json"],
                env,
            )
            commands[(auth, "our client LIST")] = (
                [sys.executable, "-c", LIST_SCRIPT, list_path],
                env,
            )
        outputs: dict[tuple[str, str], str] = {}
        for key, (command, env) in commands.items():  # warm caches and bytecode, check
            _, outputs[key] = timed(command, env)
        baseline_env = commands[("token", "kubectl explain")][1]
        times: dict[tuple[str, str], list[float]] = {key: [] for key in commands}
        baseline: list[float] = []
        for _ in range(args.runs):
            for key, (command, env) in commands.items():
                times[key].append(timed(command, env)[0])
            baseline.append(timed([sys.executable, "-c", "pass"], baseline_env)[0])
        token_env = commands[("token", "kubectl-crd explain")][1]
        imports = import_breakdown([*OURS, "explain", "--kubectl", EXPLAIN_PATH], token_env)
        version = subprocess.run([kubectl, "version", "--client"], capture_output=True, text=True)
        server_version = plane.kubectl("version", "-o", "json").stdout
    finally:
        shutil.rmtree(work, ignore_errors=True)
        plane.stop()

    server = json.loads(server_version).get("serverVersion", {}).get("gitVersion", "?")
    print(f"live reads: explain {EXPLAIN_PATH}; list {args.objects} {RESOURCE}")
    print(
        f"{version.stdout.splitlines()[0]}; kube-apiserver {server}; "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':<56} {'median':>7} {'min':>7} {'max':>7}    {'runs':>4} {'/kubectl':>7}")
    checks: dict[str, bool] = {}
    for auth in kubeconfigs:
        print(f"-- {auth} kubeconfig")
        explain = times[(auth, "kubectl explain")]
        get = times[(auth, "kubectl get -o json")]
        print(row("kubectl explain", explain))
        print(
            row(
                "kubectl-crd explain --kubectl (from the server)",
                times[(auth, "kubectl-crd explain")],
                explain,
            )
        )
        print(
            row(
                "kubectl crd explain --kubectl (plugin dispatch)",
                times[(auth, "kubectl crd explain (plugin)")],
                explain,
            )
        )
        print(row("kubectl get -o json", get))
        print(
            row(
                "our kube client: the same LIST (python -c; no get yet)",
                times[(auth, "our client LIST")],
                get,
            )
        )
        ratio = statistics.median(times[(auth, "kubectl-crd explain")]) / statistics.median(explain)
        checks[f"explain at most 1.5x kubectl ({auth})"] = ratio <= 1.5
        list_ratio = statistics.median(times[(auth, "our client LIST")]) / statistics.median(get)
        checks[f"LIST at most 1.5x kubectl get ({auth})"] = list_ratio <= 1.5
    print(row("python -c pass (interpreter start)", baseline))
    print(f"ours: {' '.join(OURS)}")

    same_explain = all(
        outputs[(auth, "kubectl explain")]
        == outputs[(auth, "kubectl-crd explain")]
        == outputs[(auth, "kubectl crd explain (plugin)")]
        for auth in kubeconfigs
    )

    same_list = all(
        _names(outputs[(auth, "kubectl get -o json")]) == _names(outputs[(auth, "our client LIST")])
        for auth in kubeconfigs
    )
    print(f"same explain output: {same_explain}; same objects listed: {same_list}")
    for what, ok in checks.items():
        print(f"  {'ok  ' if ok else 'MISS'} {what}")
    for command, error in FAILURES.items():
        print(f"FAILED (times above are of a failing command): {command}\n  {error[:300]}")
    print("import breakdown of kubectl-crd explain --kubectl (token kubeconfig):")
    for line in imports:
        print(f"  {line}")


if __name__ == "__main__":
    main()
