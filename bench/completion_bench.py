"""Benchmark: ``kubectl crd <TAB>``, the helper kubectl runs, next to kubectl's own completion.

A completion is a new process per TAB, so the figure is its whole wall time. Rows, from
runs that alternate between the commands (so that load changes hit all alike):

- ``kubectl_complete-crd explain --crd FILE workflows.spec.templates.container.``: the
  fields under a node of the largest corpus CRD (argo-workflows' Workflow, 2.8 MB), the
  parse cache warm (one run first). Target: under 150 ms;
- the same with an empty parse cache (the first TAB after the file changed);
- ``kubectl_complete-crd ex``: a command name, the least a completion does;
- ``kubectl __complete crd explain ...``: the field path through the real kubectl, what
  a user waits for (kubectl's start-up, then the helper);
- with a cluster (a kube-apiserver started like the integration tests', or
  ``--kubeconfig``): ``kubectl_complete-crd get -n ""`` (namespaces from the server) and
  kubectl's own ``kubectl __complete get pods ""`` as the reference for a completion that
  asks the cluster;
- ``python -c pass``: the interpreter's own start-up, the floor.

    .venv/bin/python bench/completion_bench.py [--runs 15] [--kubeconfig PATH] [--no-cluster]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.corpus import corpus_path, require_corpus  # noqa: E402
from tests.integration.envtest import ControlPlane, ensure_assets, newest_kubectl  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from explain_bench import row as explain_row  # noqa: E402
from explain_bench import timed  # noqa: E402

CRD_FILE = corpus_path() / "crds" / "argo-workflows" / "argoproj.io_workflows.yaml"
FIELD = "workflows.spec.templates.container."
BIN = Path(sys.executable).parent
HELPER = BIN / "kubectl_complete-crd"
TARGET_MS = 150


def row(label: str, times: list[float]) -> str:
    return explain_row(label, times, width=58)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--kubeconfig", help="use this cluster instead of starting one")
    parser.add_argument("--no-cluster", action="store_true", help="the offline rows only")
    args = parser.parse_args()
    require_corpus()
    if not HELPER.exists():
        raise SystemExit(f"{HELPER} is not installed: pip install -e .")
    kubectl = newest_kubectl()
    plane: ControlPlane | None = None
    kubeconfig = args.kubeconfig
    if not kubeconfig and not args.no_cluster:
        plane = ControlPlane(ensure_assets())
        plane.start()
        kubeconfig = str(plane.kubeconfig)
    work = Path(tempfile.mkdtemp(prefix="completion-bench-"))
    try:
        env = dict(
            os.environ,
            PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}",
            HOME=str(work),
            KUBECONFIG=kubeconfig or str(work / "none"),
            KUBECTL_CRD_CACHE_DIR=str(work / "cache"),
        )
        # Some sandboxes export it; with it every run compiles an editable install's
        # modules from source, which no user's Python does.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        field = [str(HELPER), "explain", "--crd", str(CRD_FILE), FIELD]
        commands: dict[str, list[str]] = {
            "field": field,
            "command": [str(HELPER), "ex"],
            "kubectl-field": [kubectl, "__complete", "crd", *field[1:]],
            "python": [sys.executable, "-c", "pass"],
        }
        if kubeconfig:
            commands["namespaces"] = [str(HELPER), "get", "-n", ""]
            commands["kubectl-pods"] = [kubectl, "__complete", "get", "pods", ""]
        _, answer = timed(field, env)  # warm the parse cache and the bytecode
        fields = answer.splitlines()[:-1]
        if not any(line.startswith(FIELD + "image\t") for line in fields):
            raise SystemExit(f"unexpected answer for {FIELD}:\n{answer}")
        for name in ("kubectl-pods", "namespaces"):
            if name in commands:
                timed(commands[name], env)  # kubectl's discovery cache, the connection
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                times[name].append(timed(command, env)[0])
        uncached = []
        for index in range(max(1, args.runs // 5)):
            fresh = dict(env, KUBECTL_CRD_CACHE_DIR=str(work / f"fresh-{index}"))
            uncached.append(timed(field, fresh)[0])
        version = subprocess.run([kubectl, "version", "--client"], capture_output=True, text=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if plane is not None:
            plane.stop()

    size_mb = CRD_FILE.stat().st_size / 1e6
    print(f"complete {FIELD} ({len(fields)} fields) of {CRD_FILE.name} ({size_mb:.1f} MB)")
    print(f"{version.stdout.splitlines()[0]}; {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"{'':<58} {'median':>11} {'min':>11} {'runs':>5}")
    print(row("kubectl_complete-crd: field path (warm parse cache)", times["field"]))
    print(row("kubectl_complete-crd: field path (empty parse cache)", uncached))
    print(row("kubectl_complete-crd: a command name", times["command"]))
    print(row("kubectl __complete crd ...: field path, through kubectl", times["kubectl-field"]))
    if "namespaces" in times:
        print(
            row("kubectl_complete-crd get -n '': namespaces from the server", times["namespaces"])
        )
        print(
            row("kubectl __complete get pods '' (kubectl's own, reference)", times["kubectl-pods"])
        )
    print(row("python -c pass (the floor)", times["python"]))
    median = statistics.median(times["field"]) * 1000
    verdict = "within" if median < TARGET_MS else "OVER"
    print(f"field path warm: {median:.0f} ms median, {verdict} the {TARGET_MS} ms target")


if __name__ == "__main__":
    main()
