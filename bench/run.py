"""The one entry point of ``bench/``: run any or all benchmarks, each printing ours next to its peer.

    .venv/bin/python bench/run.py                 # every benchmark, full size
    .venv/bin/python bench/run.py validate live   # some of them
    .venv/bin/python bench/run.py --smoke         # tiny inputs, one run: what CI runs
    .venv/bin/python bench/run.py validate --json # figures as JSON, to compare commits

Each benchmark is a script of its own here (so it can also be run alone) that prints
our figure, the peer's and the ratio from runs that alternate between the tools. In
smoke mode a benchmark runs at its smallest, to prove it still works; there are no
thresholds. The ones that need an API server start their own (tests/integration's
fixture), which smoke mode leaves out unless named.
"""

from __future__ import annotations

import argparse
import compileall
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: name -> (script, extra arguments in smoke mode, runs in smoke mode by default)
BENCHMARKS: dict[str, tuple[str, list[str], bool]] = {
    "fast-path": ("fast_path_bench.py", ["--runs", "1"], True),
    "validate": ("validate_bench.py", ["--smoke"], True),
    "validate-jobs": ("validate_jobs_bench.py", ["--smoke"], True),
    "cel": ("cel_bench.py", ["--smoke"], True),
    "explain": ("explain_bench.py", ["--runs", "1"], False),
    "live": ("live_bench.py", ["--runs", "1", "--objects", "5"], False),
    "scale": ("scale_bench.py", ["--runs", "1", "--objects", "5"], False),
    "get": ("get_bench.py", ["--runs", "1", "--objects", "5", "--offline-objects", "20"], False),
    "reload": ("reload_bench.py", ["--objects", "5", "--reloads", "3"], False),
    "dev": ("dev_bench.py", ["--smoke"], False),
    "local": ("local_bench.py", ["--smoke"], True),
    "completion": ("completion_bench.py", ["--runs", "1", "--no-cluster"], True),
    "workbench": ("workbench_bench.py", ["--runs", "1"], True),
    # builds this platform's archive layout from the cached wheels (downloads them once)
    "launcher": ("launcher_bench.py", ["--runs", "1"], False),
    # another install against this one (--baseline): alone, the install against itself
    "versions": ("versions_bench.py", ["--smoke"], False),
}


#: The benchmarks that read the CRD corpus (``tests.corpus``): without it, the run stops
#: before the first one with a line saying where it is expected.
NEEDS_CORPUS = {
    "validate",
    "validate-jobs",
    "cel",
    "explain",
    "completion",
    "workbench",
    "versions",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=", ".join(BENCHMARKS))
    parser.add_argument("--smoke", action="store_true", help="tiny inputs, one run, no thresholds")
    parser.add_argument("--json", action="store_true", help="JSON figures (where supported)")
    options = parser.parse_args()
    unknown = [name for name in options.names if name not in BENCHMARKS]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(BENCHMARKS)}")
    names = options.names or [
        name for name, (_, _, in_smoke) in BENCHMARKS.items() if in_smoke or not options.smoke
    ]
    if NEEDS_CORPUS.intersection(names):
        sys.path.insert(0, str(HERE.parent))
        from tests.corpus import require_corpus

        require_corpus()
    # the package's byte-code written first, as an installed package has it: where
    # PYTHONDONTWRITEBYTECODE is set (this machine), a module changed since its .pyc was
    # written is otherwise compiled again in every process a benchmark starts
    compileall.compile_dir(str(HERE.parent / "kubectl_crd"), quiet=1)
    failed = []
    for name in names:
        script, smoke_args, _ = BENCHMARKS[name]
        args = [*(smoke_args if options.smoke else [])]
        if options.json and name == "validate":
            args.append("--json")
        print(f"== {name}", flush=True)
        if subprocess.run([sys.executable, str(HERE / script), *args], check=False).returncode:
            failed.append(name)
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
