"""Benchmark: each fast-path command parsed without click against the same line through click.

``cli.flags`` keeps a hand-written parser for the commands marked ``fast_path`` in
``cli.commands.COMMANDS``, because importing click costs 20-25 ms. That trick has to
earn its place: this prints, per fast-path command, the wall time of one command line
run through ``cli.root.main`` (the click-free parser) and through
``cli.group.run_click`` (click, the way every other command is parsed), as new
processes, interleaved, with the ratio. A command whose ratio is near 1 should leave
the fast path. ``tests/unit/cli/test_registry.py`` checks that every fast-path command
has a row here.

Run by hand from the repository root (offline, the bundled example CRD):

    .venv/bin/python bench/fast_path_bench.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: As an installed package runs: bytecode cached (a sandbox may set PYTHONDONTWRITEBYTECODE,
#: which makes every run compile the package again).
INSTALLED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
EXAMPLE_CRDS = str(REPO / "examples" / "crds")

#: command -> one typical command line of it (offline, so only start-up is compared)
COMMAND_LINES: dict[str, list[str]] = {
    "explain": ["explain", "crontab.spec", "--crd", EXAMPLE_CRDS],
    "sample": ["sample", "crontab", "--crd", EXAMPLE_CRDS],
    "get": [
        "get",
        "crontabs",
        "-f",
        str(REPO / "examples" / "resources" / "crontab-nightly.yaml"),
        "--crd",
        EXAMPLE_CRDS,
    ],
    "scale": [
        "scale",
        "-f",
        str(REPO / "examples" / "resources" / "crontab-nightly.yaml"),
        "--local",
        "--crd",
        EXAMPLE_CRDS,
        "--replicas",
        "2",
    ],
}

_FAST = "import sys; from kubectl_crd.cli.root import main; main(sys.argv[1:])"
_CLICK = (
    "import sys; from kubectl_crd.cli.root import main as _; "
    "from kubectl_crd.cli.group import run_click; run_click(sys.argv[1:]); sys.exit(0)"
)


def timed(code: str, args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, check=False, env=INSTALLED_ENV
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{args} failed: {done.stderr.decode(errors='replace')}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args()
    print(f"{'command':<10} {'fast path ms':>13} {'click ms':>9} {'ratio':>6}")
    for command, args in COMMAND_LINES.items():
        timed(_FAST, args), timed(_CLICK, args)  # warm the parse cache and the OS
        fast: list[float] = []
        slow: list[float] = []
        for _ in range(options.runs):
            fast.append(timed(_FAST, args))
            slow.append(timed(_CLICK, args))
        fast_ms, slow_ms = statistics.median(fast) * 1000, statistics.median(slow) * 1000
        print(f"{command:<10} {fast_ms:>13.1f} {slow_ms:>9.1f} {fast_ms / slow_ms:>6.2f}")


if __name__ == "__main__":
    main()
