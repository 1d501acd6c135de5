"""Benchmark: Python opcodes executed per Foo by ``kubectl crd dev --local DIR --once``.

A count the machine's load does not disturb, beside ``local_bench.py``'s times (on a
shared machine those move by 30% between runs, and between days by 2x): the same run
over ``--objects`` Foos (examples/foo, start-up included) under ``sys.settrace`` with
``f_trace_opcodes`` in every thread, which makes it ~50x slower. C code (marshal, json,
regular expressions' matching) counts for nothing, so it ranks Python work only.

``--against REV`` (repeatable) counts a commit too, in a temporary git worktree run with
this venv (its own example reconciler, the same DIR), and prints each one's ratio to the
checkout's; ``--modules N`` lists the N modules whose count changed most against the
first REV.

    .venv/bin/python bench/local_opcodes.py [--objects 200] [--against 9234dfa] [--modules 15]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

sys.path.insert(0, str(HERE))
from local_bench import make_dir  # noqa: E402


def _child(out: str, argv: list[str]) -> None:
    """Run the command in this process, counting opcodes by module, written to ``out``
    by an exit function (the command leaves through ``os._exit`` after running them)."""
    import atexit
    import runpy
    import threading

    counts: collections.Counter[object] = collections.Counter()

    def local(frame, event, arg):  # type: ignore[no-untyped-def]
        if event == "opcode":
            counts[frame.f_code] += 1
        return local

    def trace(frame, event, arg):  # type: ignore[no-untyped-def]
        frame.f_trace_opcodes = True
        return local

    def dump() -> None:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
        modules: collections.Counter[str] = collections.Counter()
        for code, count in counts.items():
            name = code.co_filename  # type: ignore[attr-defined]
            if "kubectl_crd/" in name:
                name = "kubectl_crd/" + name.rsplit("kubectl_crd/", 1)[1]
            elif "examples/" in name:
                name = "examples/" + name.rsplit("examples/", 1)[1]
            modules[name] += count
        Path(out).write_text(json.dumps(modules))

    atexit.register(dump)
    sys.argv = ["kubectl-crd", *argv]
    threading.settrace(trace)
    sys.settrace(trace)
    runpy.run_module("kubectl_crd", run_name="__main__")


def count(tree: Path, directory: Path) -> dict[str, int]:
    """Opcodes by module of one run in ``tree`` (a checkout of this repository)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        argv = [
            "dev",
            str(tree / "examples" / "foo" / "reconciler.py"),
            "--local",
            str(directory),
            "--once",
            "--log-format",
            "json",
        ]
        done = subprocess.run(
            [sys.executable, str(HERE / "local_opcodes.py"), "--child", out.name, *argv],
            cwd=tree,  # ``-m``'s package is the tree's: its directory comes first
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
            raise SystemExit(f"{tree}: dev --local --once exited {done.returncode}: {tail}")
        counts: dict[str, int] = json.loads(Path(out.name).read_text())
        return counts


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        sys.path.insert(0, os.getcwd())
        _child(sys.argv[2], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=200)
    parser.add_argument("--against", action="append", default=[], metavar="REV")
    parser.add_argument("--modules", type=int, default=0, metavar="N")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kubectl-crd-opcodes-") as tmp:
        directory = make_dir(Path(tmp) / "dir", options.objects)
        results = {"checkout": count(ROOT, directory)}
        for rev in options.against:
            tree = Path(tmp) / f"tree-{len(results)}"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                check=True,
                capture_output=True,
            )
            try:
                results[rev] = count(tree, directory)
            finally:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                    check=False,
                    capture_output=True,
                )
    base = sum(results["checkout"].values()) / options.objects
    for name, counts in results.items():
        per_foo = sum(counts.values()) / options.objects
        print(f"{name:12} {per_foo:10,.0f} opcodes per Foo   checkout/this {base / per_foo:5.2f}x")
    if options.modules and options.against:
        before, after = results[options.against[0]], results["checkout"]
        changed = sorted(
            set(before) | set(after),
            key=lambda m: abs(after.get(m, 0) - before.get(m, 0)),
            reverse=True,
        )
        print(f"\nper Foo, {options.against[0]} -> checkout:")
        for module in changed[: options.modules]:
            was, now = before.get(module, 0), after.get(module, 0)
            print(
                f"  {was / options.objects:8,.0f} {now / options.objects:8,.0f}"
                f" {(now - was) / options.objects:+8,.0f}  {module}"
            )


if __name__ == "__main__":
    main()
