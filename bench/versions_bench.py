"""Benchmark: the same command lines through two installs of kubectl-crd, interleaved.

What a change's "no regression (same run, before and after)" is measured with: the
``kubectl-crd`` script of another install (``--baseline``, e.g. a venv where an older
commit was ``pip install``-ed) against this one's (``--ours``, by default the script next
to this Python), each command line run by both in turn, ``--runs`` times, as new
processes, each install with a parse cache of its own (warmed before timing, as on any
run after a user's first):

- explain: the deep field path of argo-workflows' Workflow (explain_bench's) from its file;
- sample: of the same CRD;
- validate: every corpus sample whose kind a corpus CRD defines, one process (``-j 1``);
- get -f: ``--offline-objects`` CronTabs in files (get_bench's offline row);
- scale --local: the same CronTabs, a new count;
- live, on a kube-apiserver like the tests' fixture with ``--objects`` CronTabs and a
  bearer-token kubeconfig: get of one object, get of all of them, scale of one object.

Prints each row's medians, ours' minimum and maximum, ours/baseline of the medians and
the median of each run's pair's ratio; a row whose exit codes differ between the
installs is marked.

    python3 -m venv /tmp/base && git archive COMMIT | tar -x -C /tmp/base-src
    /tmp/base/bin/pip install /tmp/base-src
    .venv/bin/python bench/versions_bench.py --baseline /tmp/base/bin/kubectl-crd
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from explain_bench import CRD_FILE, DEEP_PATH  # noqa: E402
from live_bench import DROPPED_ENV, EXAMPLE_CRD, NAMESPACE, crontabs, serve_crontabs  # noqa: E402
from validate_bench import crd_directory, crd_files, custom_resources, write_generated  # noqa: E402

from tests.corpus import require_corpus  # noqa: E402
from tests.integration.cluster_access import token_kubeconfig  # noqa: E402
from tests.integration.envtest import ControlPlane, ensure_assets  # noqa: E402

SCRIPT = Path(sys.executable).with_name("kubectl-crd")


def run(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, env=env, check=False)
    return time.perf_counter() - began, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--baseline", help="the other install's kubectl-crd (default: this one, a self-check)"
    )
    parser.add_argument("--ours", default=str(SCRIPT), help="this install's kubectl-crd")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--objects", type=int, default=100)
    parser.add_argument("--offline-objects", type=int, default=1000)
    parser.add_argument("--no-live", action="store_true", help="skip the kube-apiserver rows")
    parser.add_argument("--smoke", action="store_true", help="tiny inputs, one run, no server")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.offline_objects, args.no_live = 1, 20, True
    args.baseline = args.baseline or args.ours
    require_corpus()
    work = Path(tempfile.mkdtemp(prefix="versions-bench-"))
    plane: ControlPlane | None = None
    try:
        crds = crd_files()
        crd_dir = crd_directory(crds, work / "crds")
        samples = work / "samples"
        resources = custom_resources(crds)
        write_generated(samples, iter(resources[:20] if args.smoke else resources))
        offline = work / "offline"
        offline.mkdir()
        for start in range(0, args.offline_objects, 100):
            batch = crontabs(range(start, min(start + 100, args.offline_objects)), lambda i: i % 9)
            (offline / f"{start:06d}.yaml").write_text(batch)
        lines: dict[str, list[str]] = {
            "explain (argo Workflow, deep path)": ["explain", "--crd", str(CRD_FILE), DEEP_PATH],
            "sample (argo Workflow)": ["sample", "workflows", "--crd", str(CRD_FILE)],
            "validate -j 1 (corpus samples)": [
                "validate", "--offline", "--crd", str(crd_dir), "-f", str(samples), "-j", "1",
            ],
            f"get -f ({args.offline_objects} CronTabs)": [
                "get", "crontabs", "-f", str(offline), "--crd", str(EXAMPLE_CRD),
            ],
            f"scale --local ({args.offline_objects} CronTabs)": [
                "scale", "--local", "-f", str(offline), "--crd", str(EXAMPLE_CRD),
                "--replicas=3", "-o", "name",
            ],
        }  # fmt: skip
        base_env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        if not args.no_live:
            plane = ControlPlane(ensure_assets())
            plane.start()
            serve_crontabs(plane, args.objects, lambda i: 1)
            base_env["KUBECONFIG"] = str(token_kubeconfig(plane, work / "token.kubeconfig"))
            one = ["crontab/crontab-000", "-n", NAMESPACE]
            lines["get (one, live)"] = ["get", *one]
            lines[f"get ({args.objects}, live)"] = ["get", "crontabs", "-n", NAMESPACE]
            lines["scale (one, live)"] = ["scale", *one, "--replicas=2"]
        installs = {"baseline": args.baseline, "ours": args.ours}
        envs = {
            name: dict(base_env, HOME=str(work / f"home-{name}"), KUBECTL_CRD_CACHE_DIR=str(work / f"cache-{name}"))
            for name in installs
        }  # fmt: skip
        times: dict[tuple[str, str], list[float]] = {}
        codes: dict[tuple[str, str], set[int]] = {}
        for label, line in lines.items():  # warm the caches and the bytecode
            for name, script in installs.items():
                codes[label, name] = {run([script, *line], envs[name])[1]}
                times[label, name] = []
        for index in range(args.runs):
            for label, line in lines.items():
                order = list(installs) if index % 2 == 0 else list(reversed(installs))
                for name in order:
                    elapsed, code = run([installs[name], *line], envs[name])
                    times[label, name].append(elapsed)
                    codes[label, name].add(code)
    finally:
        if plane is not None:
            plane.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"versions: {args.runs} interleaved runs; {os.cpu_count()} CPUs, "
        f"load {os.getloadavg()[0]:.1f}\nbaseline {args.baseline}\nours     {args.ours}"
    )
    # a run of each install side by side meets the same load: the median of those
    # pairs' ratios moves less with the machine's load than the ratio of the medians
    print(
        f"{'':<40} {'baseline':>9} {'ours':>9} {'min/max ours':>15} {'ours/base':>9} {'paired':>7}"
    )
    for label in lines:
        base, ours = times[label, "baseline"], times[label, "ours"]
        mark = "" if codes[label, "baseline"] == codes[label, "ours"] else "  exit codes differ: "
        if mark:
            mark += f"{sorted(codes[label, 'baseline'])} vs {sorted(codes[label, 'ours'])}"
        print(
            f"{label:<40} {statistics.median(base) * 1000:7.0f}ms {statistics.median(ours) * 1000:7.0f}ms "
            f"{min(ours) * 1000:7.0f}/{max(ours) * 1000:<7.0f} "
            f"{statistics.median(ours) / statistics.median(base):8.2f}x "
            f"{statistics.median(o / b for o, b in zip(ours, base, strict=True)):6.2f}x{mark}"
        )


if __name__ == "__main__":
    main()
