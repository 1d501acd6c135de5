"""Compare the two CEL engines on PyPI on the corpus's real x-kubernetes-validations rules.

Run by hand in a scratch environment (neither engine is a dependency yet):

    python -m venv /tmp/cel && /tmp/cel/bin/pip install cel-expr-python cel-python -e .
    /tmp/cel/bin/python bench/cel_engines.py

Prints, side by side: how many corpus rules each engine parses, the time to compile all
of them, and the time per evaluation of a typical rule, with the ratio. This informs
the choice of engine for ``validation/`` (see the note on the validate issue).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kubectl_crd.io import load_documents_cached

# As everywhere in the project: $KUBECTL_CRD_CORPUS, relative to the repository root.
REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / os.environ.get("KUBECTL_CRD_CORPUS", "../shared/corpus")
RULE = "self.minReplicas <= self.replicas && self.name.startsWith('a')"
DATA = {"minReplicas": 1, "replicas": 3, "name": "abc"}


def corpus_rules() -> list[str]:
    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for rule in node.get("x-kubernetes-validations") or ():
                if isinstance(rule, dict) and "rule" in rule:
                    yield str(rule["rule"])
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    rules: list[str] = []
    for path in sorted((CORPUS / "crds").glob("*/*.yaml")):
        for document in load_documents_cached(str(path)):
            rules.extend(walk(document.content))
    return rules


def per_call(fn: Any, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    try:
        import celpy  # type: ignore[import-not-found]
        from cel_expr_python import cel  # type: ignore[import-not-found]
    except ImportError as exc:
        sys.exit(f"error: install cel-expr-python and cel-python first ({exc})")
    rules = corpus_rules()
    native = cel.NewEnv(variables={"self": cel.Type.DYN, "oldSelf": cel.Type.DYN})
    pure = celpy.Environment()

    def compile_all(compile_one: Any) -> tuple[int, float]:
        ok = 0
        start = time.perf_counter()
        for rule in rules:
            try:
                compile_one(rule)
                ok += 1
            except Exception:  # counting what each engine refuses, whatever the reason
                pass
        return ok, time.perf_counter() - start

    native_ok, native_compile = compile_all(lambda r: native.compile(r, disable_check=True))
    pure_ok, pure_compile = compile_all(pure.compile)
    native_expr = native.compile(RULE, disable_check=True)
    pure_prog = pure.program(pure.compile(RULE))
    pure_activation = {"self": celpy.json_to_cel(DATA)}
    native_eval = per_call(lambda: native_expr.eval(data={"self": DATA}), 5000)
    pure_eval = per_call(lambda: pure_prog.evaluate(pure_activation), 500)
    print(f"{len(rules)} corpus rules")
    print(f"{'':28}{'cel-expr-python':>18}{'cel-python':>14}{'ratio':>8}")
    print(f"{'rules parsed':28}{native_ok:>18}{pure_ok:>14}")
    print(
        f"{'compile all (s)':28}{native_compile:>18.3f}{pure_compile:>14.3f}{pure_compile / native_compile:>8.1f}"
    )
    print(
        f"{'evaluate one rule (us)':28}{native_eval * 1e6:>18.1f}{pure_eval * 1e6:>14.1f}{pure_eval / native_eval:>8.1f}"
    )


if __name__ == "__main__":
    main()
