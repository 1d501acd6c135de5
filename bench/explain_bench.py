"""Benchmark: ``kubectl crd explain --crd`` against ``kubectl explain`` on a real API server.

Explains one deep field path of the largest corpus CRD (argo-workflows'
``argoproj.io_workflows.yaml``, 2.8 MB, ~10k schema nodes) both ways, in one run, and
prints wall times side by side:

- ``kubectl explain``: the newest kubectl installed, against a kube-apiserver started
  like the integration-test fixture (``tests/integration/envtest.py``), its discovery
  and OpenAPI cache warm (one run first);
- ``kubectl-crd explain --kubectl --crd FILE``: offline, the installed console script
  next to this Python (``python -m kubectl_crd`` when there is none), as a new process
  each time, with the parse cache warm (one run first), and with an empty parse cache
  (the first parse). ``--kubectl`` leaves out our section after kubectl's output, so
  both print the same bytes;
- the same without ``--kubectl`` (our full output, what a user sees by default), piped
  and on a pseudo-terminal, where it is coloured;
- ``kubectl crd explain ...``: through kubectl's plugin dispatch, which adds kubectl's
  own start-up before it execs ``kubectl-crd``;
- ``kubectl-crd explain --kubectl`` without ``--crd``: the CRD read from the server,
  which needs the kubernetes client (not a target; for scale).

Targets: at most half of kubectl's wall time, under 150 ms warm, under 1 s uncached.
Run by hand from the repository root:

    .venv/bin/python bench/explain_bench.py [--runs 15] [--kubeconfig PATH]

``--kubeconfig`` uses a running cluster (the CRD is applied to it) instead of starting one.
"""

from __future__ import annotations

import argparse
import os
import pty
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

from tests.corpus import corpus_path, require_corpus  # noqa: E402
from tests.integration.envtest import (  # noqa: E402
    ControlPlane,
    EnvtestError,
    ensure_assets,
    newest_kubectl,
)

CORPUS = corpus_path()
CRD_FILE = CORPUS / "crds" / "argo-workflows" / "argoproj.io_workflows.yaml"
DEEP_PATH = (
    "workflows.spec.templateDefaults.dag.tasks.hooks.arguments.artifacts.http.auth"
    ".basicAuth.passwordSecret.key"
)
SCRIPT = Path(sys.executable).with_name("kubectl-crd")
OURS = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "kubectl_crd"]


def timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall seconds and stdout of one run of ``command``; a failure ends the benchmark
    (also ``completion_bench``'s)."""
    began = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - began
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed, proc.stdout


def timed_on_a_terminal(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """``timed`` with stdout a pseudo-terminal, where our output is coloured."""
    primary, secondary = pty.openpty()
    began = time.perf_counter()
    try:
        proc = subprocess.Popen(command, stdout=secondary, stderr=subprocess.DEVNULL, env=env)
    finally:
        os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    code = proc.wait()
    elapsed = time.perf_counter() - began
    os.close(primary)
    if code != 0:
        raise SystemExit(f"{' '.join(command)} failed ({code}) on a terminal")
    return elapsed, b"".join(chunks).decode()


def measure(runs: int, once: Callable[[int], tuple[float, str]]) -> tuple[list[float], str]:
    times, output = [], ""
    for index in range(runs):
        elapsed, output = once(index)
        times.append(elapsed)
    return times, output


def row(label: str, times: list[float], *, width: int = 50) -> str:
    """One figure: median and best wall time of ``times``, and how many runs (also
    ``completion_bench``'s rows, which have longer labels)."""
    median, best = statistics.median(times), min(times)
    return f"{label:<{width}} {median * 1000:8.0f} ms {best * 1000:8.0f} ms {len(times):5d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--kubeconfig", help="use this cluster instead of starting one")
    parser.add_argument("--path", default=DEEP_PATH, help="the RESOURCE.field.path to explain")
    args = parser.parse_args()
    require_corpus()

    kubectl = newest_kubectl()
    plane: ControlPlane | None = None
    if args.kubeconfig:
        kubeconfig = args.kubeconfig
        subprocess.run(
            [kubectl, f"--kubeconfig={kubeconfig}", "apply", "--server-side", "-f", str(CRD_FILE)],
            check=True,
            capture_output=True,
        )
    else:
        plane = ControlPlane(ensure_assets())
        plane.start()
        for attempt in range(5):
            # kubectl wait fails at once ("<nil> is of the type <nil>") while a new
            # CRD's status.conditions is still null; applying again is idempotent.
            try:
                plane.install_crds([CRD_FILE])
                break
            except EnvtestError:
                if attempt == 4:
                    raise
                time.sleep(1)
        kubeconfig = str(plane.kubeconfig)
    work = Path(tempfile.mkdtemp(prefix="explain-bench-"))
    try:
        env = dict(os.environ, KUBECONFIG=kubeconfig, KUBECTL_CRD_CACHE_DIR=str(work / "parsed"))
        # Some sandboxes export it; with it every run compiles an editable install's
        # modules from source, which no user's Python does.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        kube_cmd = [kubectl, f"--cache-dir={work / 'kube'}", "explain", args.path]
        deadline = time.monotonic() + 60
        while subprocess.run(kube_cmd, capture_output=True, env=env).returncode != 0:
            if time.monotonic() > deadline:
                raise SystemExit("kubectl explain did not succeed within 60 s")
            time.sleep(1)  # the server publishes OpenAPI shortly after Established

        # --kubectl: only kubectl's part, so that both print the same bytes
        ours_cmd = [*OURS, "explain", "--kubectl", "--crd", str(CRD_FILE), args.path]
        full_cmd = [*OURS, "explain", "--crd", str(CRD_FILE), args.path]
        # kubectl finds plugins on PATH: put the one being measured first
        plugin_env = dict(env, PATH=f"{Path(OURS[0]).parent}{os.pathsep}{env['PATH']}")
        plugin_cmd = [kubectl, "crd", *ours_cmd[1:]] if SCRIPT.exists() else []
        timed(ours_cmd, env)  # warm the parse cache and the bytecode
        commands = {"kubectl": (kube_cmd, env), "ours": (ours_cmd, env), "full": (full_cmd, env)}
        if plugin_cmd:
            commands["plugin"] = (plugin_cmd, plugin_env)
        interleaved: dict[str, list[float]] = {name: [] for name in commands}
        outputs: dict[str, str] = {}
        for _ in range(args.runs):  # interleaved, so that load changes hit both alike
            for name, (command, command_env) in commands.items():
                elapsed, outputs[name] = timed(command, command_env)
                if name == "full":
                    elapsed, _ = timed_on_a_terminal(command, dict(command_env, TERM="xterm"))
                    interleaved.setdefault("terminal", []).append(elapsed)
                interleaved[name].append(elapsed)

        def uncached(index: int) -> tuple[float, str]:
            fresh = dict(env, KUBECTL_CRD_CACHE_DIR=str(work / f"fresh-{index}"))
            return timed(ours_cmd, fresh)

        first_parse, _ = measure(max(3, args.runs // 3), uncached)
        live_cmd = [*OURS, "explain", "--kubectl", args.path]  # the CRD from the server
        live, live_output = measure(max(3, args.runs // 3), lambda _: timed(live_cmd, env))
        baseline, _ = measure(args.runs, lambda _: timed([sys.executable, "-c", "pass"], env))
        version = subprocess.run([kubectl, "version", "--client"], capture_output=True, text=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if plane is not None:
            plane.stop()

    kube_median = statistics.median(interleaved["kubectl"])
    ours_median = statistics.median(interleaved["ours"])
    ratio = ours_median / kube_median
    full_ratio = statistics.median(interleaved["full"]) / kube_median
    size_mb = CRD_FILE.stat().st_size / 1e6
    print(f"explain {args.path}")
    print(f"CRD {CRD_FILE.name} ({size_mb:.1f} MB); {version.stdout.splitlines()[0]}; "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")  # fmt: skip
    print(f"{'':<50} {'median':>11} {'min':>11} {'runs':>5}")
    print(row("kubectl explain (warm cache, real server)", interleaved["kubectl"]))
    print(row("kubectl-crd explain --kubectl --crd (warm)", interleaved["ours"]))
    print(row("kubectl-crd explain --crd (full output, warm)", interleaved["full"]))
    print(row("the same on a terminal (coloured)", interleaved["terminal"]))
    if "plugin" in interleaved:
        print(row("kubectl crd explain --kubectl --crd (plugin)", interleaved["plugin"]))
    print(row("kubectl-crd explain --kubectl --crd (first parse)", first_parse))
    print(row("kubectl-crd explain --kubectl (from the server)", live))
    print(row("python -c pass (interpreter start)", baseline))
    print(f"ours: {' '.join(OURS)}")
    print(f"ratio ours/kubectl (medians): {ratio:.2f} (--kubectl), {full_ratio:.2f} (full output)")
    same = (
        outputs["kubectl"]
        == outputs["ours"]
        == live_output
        == outputs.get("plugin", outputs["ours"])
    )
    print(f"same output: {same}")
    checks = {
        "at most half of kubectl's time (--kubectl)": ratio <= 0.5,
        "at most half of kubectl's time (full output)": full_ratio <= 0.5,
        "under 150 ms warm": ours_median < 0.150,
        "first parse under 1 s": statistics.median(first_parse) < 1.0,
    }
    for what, ok in checks.items():
        print(f"  {'ok  ' if ok else 'MISS'} {what}")


if __name__ == "__main__":
    main()
