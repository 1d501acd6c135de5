"""Compare the three CEL engines on PyPI on the corpus's real rules: which one to build on.

Run by hand in a scratch environment (only cel-expr-python is a dependency):

    python -m venv /tmp/cel && /tmp/cel/bin/pip install cel-python common-expression-language -e .
    /tmp/cel/bin/python bench/cel_engines.py

For each engine, side by side: how many of the corpus's rules it compiles (as written,
every one is accepted by the API server), how many (rule, value) pairs taken from the
corpus samples it evaluates, and how many verdicts agree with the API server's (the
server's are our validation's, which the differential tests show equal to the server's
on every case), the time to compile all rules and the median time per evaluation.
The engines see ``self`` as plain JSON (no schema typing, no Kubernetes libraries),
which is what each offers out of the box.
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.corpus import corpus_path, require_corpus  # noqa: E402  (the one setting)

CORPUS = corpus_path()

from kubectl_crd.io import read_inputs  # noqa: E402
from kubectl_crd.model.crd import CustomResourceDefinition, is_crd_object  # noqa: E402
from kubectl_crd.model.schema import plain  # noqa: E402
from kubectl_crd.validation.cel.tree import RuleNode, rule_tree  # noqa: E402


def corpus() -> tuple[list[str], list[tuple[str, Any, bool]]]:
    """Every rule, and (rule, self, server verdict) for rules the samples reach."""
    crds: dict[tuple[str, str], CustomResourceDefinition] = {}
    rules: list[str] = []
    for path in sorted((CORPUS / "crds").glob("*/*.yaml")):
        for document in read_inputs([str(path)]):
            if isinstance(document.content, dict) and is_crd_object(document.content):
                crd = CustomResourceDefinition.from_object(document.content)
                crds.setdefault((crd.group, crd.names.kind), crd)
                for version in crd.versions:
                    rules.extend(_rules(rule_tree(version.schema)))
    pairs: list[tuple[str, Any, bool]] = []
    for path in sorted((CORPUS / "samples").rglob("*.yaml")):
        for document in read_inputs([str(path)]):
            content = document.content
            if not isinstance(content, dict):
                continue
            group, _, name = str(content.get("apiVersion") or "").rpartition("/")
            crd = crds.get((group, str(content.get("kind") or "")))
            version = crd.version(name) if crd else None
            if version is None:
                continue
            tree = rule_tree(version.schema)
            if tree is not None:
                pairs.extend(_pairs(tree, plain(content), version.schema))
    return rules, pairs


def _rules(node: RuleNode | None) -> Iterator[str]:
    if node is None:
        return
    yield from (r.rule for r in node.rules)
    for child in (*node.properties.values(), node.items, node.additional, *node.all_of):
        yield from _rules(child)


def _pairs(node: RuleNode, value: Any, schema: Any) -> Iterator[tuple[str, Any, bool]]:
    if value is None:
        return
    for rule in node.rules:
        if not rule.transition:
            yield rule.rule, value, _server_verdict(node, rule.rule, value)
    if isinstance(value, dict):
        for key, child in node.properties.items():
            if key in value:
                yield from _pairs(child, value[key], schema)
        if node.additional is not None:
            for item in value.values():
                yield from _pairs(node.additional, item, schema)
    elif isinstance(value, list) and node.items is not None:
        for item in value:
            yield from _pairs(node.items, item, schema)


def _server_verdict(node: RuleNode, rule: str, value: Any) -> bool:
    """Our engine's verdict, with schema typing and the Kubernetes libraries: the
    server's, as the differential tests show."""
    from kubectl_crd.validation.cel.programs import compile_rule, run
    from kubectl_crd.validation.cel.tree import Rule
    from kubectl_crd.validation.cel.values import to_cel

    compiled = compile_rule(Rule(rule))
    data = {"self": to_cel(value, node.schema, node.resource_root), "__hasOldSelf": False}
    outcome = run(compiled.program, data)
    return outcome.value is True


class Engine:
    def __init__(
        self, name: str, compile_one: Callable[[str], Any], evaluate: Callable[[Any, Any], Any]
    ) -> None:
        self.name, self.compile_one, self.evaluate = name, compile_one, evaluate


def engines() -> list[Engine]:
    import cel  # type: ignore[import-not-found]  # common-expression-language (Rust)
    import celpy  # type: ignore[import-not-found]
    from cel_expr_python import cel as cpp

    native = cpp.NewEnv(variables={"self": cpp.Type.DYN})
    pure = celpy.Environment()
    return [
        Engine(
            "cel-expr-python",
            lambda r: native.compile(r),
            lambda p, v: p.eval(data={"self": v}).value(),
        ),
        Engine("common-expression-language", cel.compile, lambda p, v: p.execute({"self": v})),
        Engine(
            "cel-python",
            lambda r: pure.program(pure.compile(r)),
            lambda p, v: p.evaluate({"self": celpy.json_to_cel(v)}),
        ),
    ]


def main() -> None:
    require_corpus()
    try:
        found = engines()
    except ImportError as exc:
        sys.exit(f"error: install cel-python and common-expression-language first ({exc})")
    rules, pairs = corpus()
    print(f"{len(rules)} corpus rules; {len(pairs)} (rule, value) pairs from the samples")
    print(
        f"{'':28}{'compiles':>10}{'evaluates':>11}{'agrees':>8}{'compile all s':>15}{'eval us':>9}"
    )
    for engine in found:
        programs: dict[str, Any] = {}
        start = time.perf_counter()
        for rule in rules:
            # counting what each engine refuses, whatever the reason
            with contextlib.suppress(Exception):
                programs[rule] = engine.compile_one(rule)
        compile_time = time.perf_counter() - start
        evaluated = agreed = 0
        times: list[float] = []
        for rule, value, verdict in pairs:
            program = programs.get(rule)
            if program is None:
                continue
            began = time.perf_counter()
            try:
                result = engine.evaluate(program, value)
            except Exception:
                result = None
            times.append(time.perf_counter() - began)
            if isinstance(result, bool) or result in (0, 1):
                evaluated += 1
                agreed += bool(result) == verdict
        median = statistics.median(times) * 1e6 if times else 0.0
        compiled = len({r for r in rules if r in programs})
        print(
            f"{engine.name:28}{compiled:>6}/{len(set(rules)):<4}{evaluated:>6}/{len(pairs):<5}"
            f"{agreed:>8}{compile_time:>15.3f}{median:>9.1f}"
        )


if __name__ == "__main__":
    main()
