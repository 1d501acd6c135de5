"""Benchmark: ``kubectl crd validate`` in one process against one worker per CPU, by input size.

What ``validate``'s default ``-j`` is chosen on (``cli/commands/validate.py``): the same
resources (``validate_bench``'s generated set: corpus samples renamed, one in five given
an unknown field, 10 to a file) in inputs of 1 to many files, each validated by a new
process with ``-j 1`` and with ``-j 0`` (a forked worker per CPU), the two alternating
run by run, against the corpus CRDs (``--crd``, one file per CRD name). A row gives
both medians of the wall time, their ratio, and the medians of the CPU time (user and
system, the workers' included), which other work on the machine disturbs far less: the
workers' extra CPU, fixed (the forks) and per resource (results pickled back), against
what one process spends, says from what input size idle CPUs make the workers win
(``MIN_BYTES_FOR_WORKERS`` in ``validation/parallel.py``); the wall times say what
they do on this machine as loaded. Each run's output is compared with ``-j 1``'s: it
must be byte for byte the same, in the same order.

    .venv/bin/python bench/validate_jobs_bench.py [--runs 5] [--files 1,2,4,8,32,400] [--smoke]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from validate_bench import (  # noqa: E402  (the inputs are validate_bench's)
    INSTALLED_ENV,
    OURS,
    SMOKE_PROJECTS,
    crd_directory,
    crd_files,
    custom_resources,
    generated,
    require_corpus,
    write_generated,
)


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds and CPU seconds (user and system, workers included) of one run, and
    a digest of what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    result = subprocess.run(command, capture_output=True, env=INSTALLED_ENV, check=False)
    elapsed = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):  # 1: something was invalid, as meant
        raise SystemExit(f"validate failed ({result.returncode}): {result.stderr.decode()[:500]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, hashlib.sha256(result.stdout).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--files", default="1,2,4,8,32,400", help="input sizes, in files")
    parser.add_argument("--smoke", action="store_true", help="two small inputs, one run")
    options = parser.parse_args()
    require_corpus()
    sizes = [int(n) for n in options.files.split(",")]
    projects = SMOKE_PROJECTS if options.smoke else None
    if options.smoke:
        options.runs, sizes = 1, [1, 2]
    crds = crd_files(projects)
    resources = custom_resources(crds, projects)
    workdir = Path(tempfile.mkdtemp(prefix="kubectl-crd-jobs-bench-"))
    try:
        crd_dir = crd_directory(crds, workdir / "crds")
        # warm the parsed-CRD cache, as every later run finds it
        subprocess.run(
            [*OURS, "validate", "--offline", "--crd", str(crd_dir), "-f", str(crd_dir)],
            capture_output=True,
            env=INSTALLED_ENV,
            check=False,
        )
        print(
            f"{len(crds)} CRDs; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.1f}; {options.runs} runs"
        )
        print(
            f"{'files':>6} {'resources':>9} {'KB':>6} {'-j 1':>8} {'-j 0':>8} {'-j 0 / -j 1':>12}"
            f" {'cpu -j 1':>9} {'cpu -j 0':>9}"
        )
        for files in sizes:
            directory = workdir / f"in-{files}"
            count = write_generated(directory, generated(resources, files * 10))
            size = sum(path.stat().st_size for path in directory.iterdir())
            times: dict[str, list[float]] = {"1": [], "0": []}
            cpus: dict[str, list[float]] = {"1": [], "0": []}
            digests: set[str] = set()
            for _ in range(options.runs):
                for jobs in times:
                    command = [
                        *OURS, "validate", "--offline", "--crd", str(crd_dir),
                        "-f", str(directory), "-o", "json", "-j", jobs,
                    ]  # fmt: skip
                    elapsed, cpu, digest = timed(command)
                    times[jobs].append(elapsed)
                    cpus[jobs].append(cpu)
                    digests.add(digest)
            if len(digests) != 1:
                raise SystemExit(f"{files} files: -j 0 printed something else than -j 1")
            one, many = (statistics.median(times[jobs]) for jobs in ("1", "0"))
            cpu_one, cpu_many = (statistics.median(cpus[jobs]) for jobs in ("1", "0"))
            print(
                f"{files:>6} {count:>9} {size // 1000:>6} {one:7.3f}s {many:7.3f}s {many / one:>11.2f}x"
                f" {cpu_one:8.3f}s {cpu_many:8.3f}s"
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
