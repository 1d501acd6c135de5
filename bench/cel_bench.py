"""Benchmark: what the CEL rules add to validation, on a rule-heavy set, in one process.

The set: every published sample of the projects whose CRDs carry the most
``x-kubernetes-validations`` (Gateway API, Cluster API, Crossplane, the snapshotter,
Flux, Argo Workflows), validated with ``validate_custom_resource`` against their
CRDs, repeated to ``--count`` objects. Each run validates the whole set with rules off,
then on (alternating, ``--runs`` times); the rows give the median time per object, the
time the rules add per object and per rule evaluated, and the engine's floor: one
evaluation of the constant rule ``true`` on the same ``self``, which no rule can beat.

Target (issue 10): rules add at most 2x to validation time (``on / off <= 2``), and
programs are compiled once per schema (the first run's compile time is shown apart).

    .venv/bin/python bench/cel_bench.py [--runs 5] [--count 2000] [--smoke]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.corpus import corpus_path, require_corpus  # noqa: E402  (the one setting)

CORPUS = corpus_path()

from kubectl_crd.io import read_inputs  # noqa: E402
from kubectl_crd.model.crd import CustomResourceDefinition, is_crd_object  # noqa: E402
from kubectl_crd.validation import validate_custom_resource  # noqa: E402
from kubectl_crd.validation.cel import rules as cel_rules  # noqa: E402

PROJECTS = (
    "gateway-api-experimental",
    "cluster-api",
    "crossplane",
    "external-snapshotter",
    "flux",
    "argo-workflows",
)


def load(projects: tuple[str, ...]) -> list[tuple[Any, CustomResourceDefinition]]:
    crds: dict[tuple[str, str], CustomResourceDefinition] = {}
    for project in projects:
        for document in read_inputs([str(CORPUS / "crds" / project)]):
            if isinstance(document.content, dict) and is_crd_object(document.content):
                crd = CustomResourceDefinition.from_object(document.content)
                crds.setdefault((crd.group, crd.names.kind), crd)
    pairs = []
    for project in projects:
        for document in read_inputs([str(CORPUS / "samples" / project)]):
            content = document.content
            if not isinstance(content, dict):
                continue
            group = str(content.get("apiVersion") or "").rpartition("/")[0]
            crd = crds.get((group, str(content.get("kind") or "")))
            if crd is not None:
                pairs.append((content, crd))
    return pairs


def timed(pairs: list[tuple[Any, CustomResourceDefinition]], rules: bool) -> float:
    start = time.perf_counter()
    for content, crd in pairs:
        validate_custom_resource(content, crd, rules=rules)
    return time.perf_counter() - start


def floor_per_evaluation(repeat: int) -> float:
    """One run of the constant rule ``true``: the engine's cost of any evaluation."""
    from kubectl_crd.validation.cel.programs import compile_rule, run
    from kubectl_crd.validation.cel.tree import Rule

    program = compile_rule(Rule("true")).program
    data = {"self": {"a": "b", "n": 1}, "__hasOldSelf": False}
    start = time.perf_counter()
    for _ in range(repeat):
        run(program, data)
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--smoke", action="store_true", help="a tiny set, one run")
    options = parser.parse_args()
    require_corpus()
    runs, count = (1, 50) if options.smoke else (options.runs, options.count)
    base = load(PROJECTS)
    if not base:
        sys.exit(f"error: no samples under {CORPUS}")
    pairs = [base[i % len(base)] for i in range(count)]

    evaluations = 0
    original_run, original_run_costed = cel_rules.run, cel_rules.run_costed

    def counting_run(program: Any, data: Any) -> Any:
        nonlocal evaluations
        evaluations += 1
        return original_run(program, data)

    def counting_run_costed(program: Any, source: str, data: Any) -> Any:
        nonlocal evaluations
        evaluations += 1
        return original_run_costed(program, source, data)

    # runs are counted (cost) for a schema's first objects, then estimated: both counted
    cel_rules.run = counting_run  # type: ignore[assignment]
    cel_rules.run_costed = counting_run_costed  # type: ignore[assignment]
    start = time.perf_counter()
    timed(pairs, True)  # first pass: compiles every program once, and counts evaluations
    first = time.perf_counter() - start
    per_pass = evaluations
    cel_rules.run, cel_rules.run_costed = original_run, original_run_costed  # type: ignore[assignment]

    off: list[float] = []
    on: list[float] = []
    for _ in range(runs):
        off.append(timed(pairs, False))
        on.append(timed(pairs, True))
    off_median, on_median = statistics.median(off), statistics.median(on)
    added = on_median - off_median
    floor = floor_per_evaluation(2000 if not options.smoke else 50)
    print(f"{len(pairs)} objects ({len(base)} distinct samples of {', '.join(PROJECTS)})")
    print(f"rule evaluations per pass: {per_pass} ({per_pass / len(pairs):.1f} per object)")
    print(f"first pass (compiling the programs): {first:.3f} s")
    print(f"{'':34}{'per object (us)':>16}")
    print(f"{'rules off':34}{off_median / len(pairs) * 1e6:>16.1f}")
    print(f"{'rules on':34}{on_median / len(pairs) * 1e6:>16.1f}")
    print(f"{'added by the rules':34}{added / len(pairs) * 1e6:>16.1f}")
    if per_pass:
        print(f"{'per rule evaluated (us)':34}{added / per_pass * 1e6:>16.1f}")
    print(f"{'engine floor per evaluation (us)':34}{floor * 1e6:>16.1f}")
    print(f"ratio on/off: {on_median / off_median:.2f} (target <= 2.0)")


if __name__ == "__main__":
    main()
