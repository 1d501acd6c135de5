"""Hostile CRDs and objects: validation stays bounded in time and memory and says why
it stopped.

- patterns that backtrack catastrophically under a backtracking engine (``(a+)+$`` on
  200,000 characters): RE2 answers in linear time, in the schema and in CEL;
- CEL rules built to exceed the cost budget: the CRD check refuses them with the API
  server's words (the figures are held to the server's in
  ``tests/integration/test_cel_cost_differential.py``), and an object validated against
  such a CRD anyway gets an error, in bounded time;
- enormous schemas (20,000 properties) and objects (20,000 fields);
- deep ``x-kubernetes-preserve-unknown-fields`` trees and deep schemas: what a file can
  hold (the reader's 500 levels) is validated and explained; deeper is one line;
- a pattern that is no Go regular expression, slipping past the CRD check: Go's words.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.validation import validate_custom_resource
from kubectl_crd.validation.crds import crd_errors

#: CPU seconds (the validating thread's, or the command's own process): every case here
#: takes well under one but the rule over the cost budget (~4 s on the CI-sized machine:
#: validation.cel.splitting runs it past the engine's iteration cap, counting its cost
#: until the per-call limit cancels it); what a bound guards against is work that grows
#: without one (a backtracking regexp, a cost unchecked), never a loaded CI machine's waits
SECONDS = 10.0


def _crd(spec: dict[str, Any], rules: tuple[str, ...] = ()) -> dict[str, Any]:
    if rules:
        spec = {**spec, "x-kubernetes-validations": [{"rule": rule} for rule in rules]}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "things.h.example.com"},
        "spec": {
            "group": "h.example.com",
            "names": {"kind": "Thing", "plural": "things", "singular": "thing"},
            "scope": "Namespaced",
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}},
                }
            ],
        },
    }


def _thing(spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "h.example.com/v1",
        "kind": "Thing",
        "metadata": {"name": "a", "namespace": "d"},
        "spec": spec,
    }


def _validate(crd: dict[str, Any], spec: Any) -> tuple[list[str], float]:
    started = time.thread_time()
    result = validate_custom_resource(_thing(spec), CustomResourceDefinition.from_object(crd))
    return [error.message for error in result.errors], time.thread_time() - started


def test_catastrophic_patterns_answer_in_linear_time() -> None:
    crd = _crd(
        {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}},
        ("self.s.matches('^(a|aa)+$')", "!self.s.matches('(x+x+)+y')"),
    )
    assert crd_errors(crd) == []  # valid Go (and RE2) patterns: the server takes the CRD
    errors, seconds = _validate(crd, {"s": "a" * 200_000 + "!"})
    assert seconds < SECONDS
    assert len(errors) == 2, errors
    assert errors[0].startswith('spec.s: Invalid value: "aaaa') and errors[0].endswith(
        "spec.s in body should match '^(a+)+$'"
    )
    assert errors[1] == (
        "spec: Invalid value: \"object\": failed rule: self.s.matches('^(a|aa)+$')"
    )


def test_rules_over_the_cost_budget_are_refused_and_stay_bounded() -> None:
    nested = "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c != '')))"
    crd = _crd(
        {"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}}}},
        (nested,),
    )
    problems = [message for _, message, _ in crd_errors(crd)]
    assert any(
        "Forbidden: estimated rule cost exceeds budget by factor of" in text for text in problems
    ), problems
    # validated anyway (validate --crd uses a CRD as given): an error, in bounded time
    errors, seconds = _validate(crd, {"l": [str(n) for n in range(2000)]})
    assert seconds < SECONDS
    assert errors and all(message.startswith("spec: Invalid value") for message in errors)


def test_enormous_schemas_and_objects_stay_bounded() -> None:
    properties = {
        f"p{n}": {"type": "string", "maxLength": 5, "pattern": "^[a-z]+$"} for n in range(20_000)
    }
    crd = _crd({"type": "object", "properties": properties})
    spec = {f"p{n}": "abc" if n % 1000 else "TOO-LONG" for n in range(20_000)}
    errors, seconds = _validate(crd, spec)
    assert seconds < SECONDS
    # every 1,000th value; kube-openapi's string validator stops at the first failure
    assert errors == [
        f"spec.p{n}: Too long: may not be more than 5 bytes" for n in range(0, 20_000, 1000)
    ]


def test_deep_preserved_trees_stay_bounded_in_process() -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(20_000):  # far deeper than any reader hands over
        node["a"] = {}
        node = node["a"]
    crd = _crd({"type": "object", "x-kubernetes-preserve-unknown-fields": True})
    errors, seconds = _validate(crd, deep)
    assert (errors, seconds < SECONDS) == ([], True)


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_CRD"))}
    env["HOME"] = str(tmp_path)
    return subprocess.run(
        [sys.executable, "-m", "kubectl_crd", *args],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False,
    )  # fmt: skip


def _peak_kib(tmp_path: Path, *args: str) -> int:
    """The peak resident memory of one ``kubectl crd ARGS`` run, in KiB."""
    probe = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], capture_output=True, check=False); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_CRD"))}
    env["HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", probe, sys.executable, "-m", "kubectl_crd", *args],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=True,
    )  # fmt: skip
    return int(done.stdout)


def _nested_schema(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


def _nested_object(levels: int) -> dict[str, Any]:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(levels):
        node["a"] = {}
        node = node["a"]
    return deep


def test_deep_trees_from_files_are_read_to_the_readers_limit_and_refused_past_it(
    tmp_path: Path,
) -> None:
    preserved = tmp_path / "preserved.json"
    preserved.write_text(
        json.dumps(_crd({"type": "object", "x-kubernetes-preserve-unknown-fields": True}))
    )
    # JSON files go through the YAML reader: 500 levels; a Thing adds 2 (itself, spec)
    for levels, expected in ((490, 0), (600, 1)):
        thing = tmp_path / f"thing-{levels}.json"
        thing.write_text(json.dumps(_thing(_nested_object(levels))))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = _cli(tmp_path, "validate", "--offline", "--crd", str(preserved), "-f", str(thing))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        assert cpu < SECONDS  # the command's own CPU, its start-up included
        # RUSAGE_CHILDREN's maxrss is the largest child this worker ever waited for (a
        # kube-apiserver holding the corpus: 1.8 GB): the command's own peak is asked
        # of a parent that runs nothing else
        assert (
            _peak_kib(tmp_path, "validate", "--offline", "--crd", str(preserved), "-f", str(thing))
            < 1024**2
        )
        assert result.returncode == expected, result.stderr
        assert "Traceback" not in result.stderr
        if expected:
            assert "exceeded max depth of 500" in result.stdout + result.stderr
    # a schema as deep as a file holds is explained; deeper is skipped with one warning
    for levels, expected in ((245, 0), (300, 1)):
        crd = tmp_path / f"deep-{levels}.json"
        crd.write_text(json.dumps(_crd(_nested_schema(levels))))
        result = _cli(tmp_path, "explain", "things", "--recursive", "--crd", str(crd))
        assert result.returncode == expected, result.stderr[-500:]
        assert "Traceback" not in result.stderr
        if expected:
            assert "exceeded max depth of 500" in result.stderr
        else:
            assert result.stdout.count("<Object>") == levels


def test_a_pattern_that_is_no_go_regexp_is_named_in_gos_words() -> None:
    crd = _crd({"type": "object", "properties": {"s": {"type": "string", "pattern": r"^(a)\1$"}}})
    go_words = "error parsing regexp: invalid escape sequence: `\\1`"
    assert any(go_words in message for _, message, _ in crd_errors(crd))
    errors, _ = _validate(crd, {"s": "aa"})
    # it was re2's "b'invalid escape sequence: \\1'" (a Python bytes repr)
    assert errors == [
        # kube-openapi's Pattern: FailedPattern(pattern + ", but pattern is invalid: " + err)
        f'spec.s: Invalid value: "aa": spec.s in body should match \'^(a)\\1$, '
        f"but pattern is invalid: {go_words}'"
    ]


def test_explain_of_a_schema_too_deep_for_json_and_yaml_says_which_formats_can() -> None:
    from types import SimpleNamespace

    from kubectl_crd.model.errors import RenderError
    from kubectl_crd.model.explain.target import resolve_target
    from kubectl_crd.output.explain import RENDERERS

    # 450 levels: the API server takes it (a cluster's CRD); a file's reader could not
    crd = CustomResourceDefinition.from_object(_crd(_nested_schema(450)), check_structural=False)
    target = resolve_target([crd], "things.spec")
    flags = SimpleNamespace(recursive=False, max_depth=0)
    for output in ("json", "yaml"):
        # it was "internal error: RecursionError", exit 3
        with pytest.raises(RenderError) as raised:
            RENDERERS[output](target, flags)
        assert raised.value.kubectl_line == (
            f"error: the schema of things.spec nests too deeply to write with -o {output}: "
            "use -o plaintext or -o markdown"
        )
    assert RENDERERS["markdown"](target, flags).count("\n") > 450


def test_crds_with_lists_where_objects_go_are_refused_not_crashed_on() -> None:
    from kubectl_crd.model.errors import KubectlCrdError
    from kubectl_crd.model.explain.target import resolve_target
    from kubectl_crd.output.explain import RENDERERS

    # found by tests/unit/fuzz's mangled CRDs; both were exit 3 ("internal error")
    crd = _crd({"type": "object"})
    crd["spec"]["versions"][0]["schema"] = [None]  # validate -f: AttributeError
    assert [message for _, message, _ in crd_errors(crd)] == [
        "spec.versions[0].schema.openAPIV3Schema: Required value"
    ]
    typed = _crd({"type": "array", "items": {"type": [None]}})  # explain: TypeError
    target = resolve_target([CustomResourceDefinition.from_object(typed)], "things.spec")
    with pytest.raises(KubectlCrdError, match='type "\\[None\\]" is not an OpenAPI v3 type'):
        RENDERERS["plaintext"](target, type("Flags", (), {"recursive": True, "max_depth": 0})())
