"""Rule runs counted as cel-go counts them (the server's word on it is in
``tests/integration/test_cel_runtime_cost_differential.py``, to the unit)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import load_value
from kubectl_crd.io.caching import CACHE_FORMAT
from kubectl_crd.validation.cel import rules as cel_rules
from kubectl_crd.validation.cel.programs import compile_rule, run, run_costed
from kubectl_crd.validation.cel.runtime_cost import call_cost
from kubectl_crd.validation.cel.tree import Rule


def cost_of(expression: str, value: Any) -> tuple[Any, int | None]:
    compiled = compile_rule(Rule(expression))
    outcome, cost = run_costed(compiled.program, compiled.source, {"self": value})
    assert outcome == run(compiled.program, {"self": value})  # counting changes nothing
    return outcome.value, cost


# (rule, self, cost): each worked out from interpreter/runtimecost.go and planner.go
COSTS = [
    # ident 1 + field 1 + ==: ceil(min(3, 3) * 0.1)
    ("self.a == 'abc'", {"a": "abc"}, 3),
    # range 1; per item: condition 2 (call, accumulator) + step 3 (accumulator, x, >);
    # result 1
    ("self.all(x, x > 0)", [1, 2, 3], 17),
    # the loop stops at the first false: one step, then the condition that ends it
    ("self.all(x, x > 1)", [1, 2, 3], 9),
    # a presence test's qualifier costs 1 and its root nothing; the second operand of
    # && runs: a field 2 + startsWith ceil(26 * 0.1)
    ("has(self.a) && self.a.startsWith('ab')", {"a": "abcdefghijklmnopqrstuvwxyz"}, 6),
    # a set lookup in constants costs nothing but its element
    ("self.x in ['a', 'b']", {"x": "b"}, 2),
    # folded to false: the element is never read
    ("self.x in []", {"x": "b"}, 0),
    # conversions of constants are folded
    ("duration(self.d) < duration('1h')", {"d": "1m"}, 4),
    # an absent optional field is not charged; orValue costs nothing
    ("self.x.?y.orValue(1) == 1", {"x": {}}, 3),
    ("self.x.?y.orValue(1) == 1", {"x": {"y": 1}}, 4),
    # a[b]: the index's root is a qualifier, not charged: per key 2 + 1 + (1 + 1 + 1)
    ("self.all(k, self[k] > 0)", {"a": 1, "b": 2}, 14),
]


@pytest.mark.parametrize(("rule", "value", "cost"), COSTS)
def test_costs(rule: str, value: Any, cost: int) -> None:
    assert cost_of(rule, value)[1] == cost


@pytest.mark.parametrize(
    ("function", "args", "cost"),
    [
        ("matches", ["a" * 99, "^a+$"], 10),  # ceil(100 * 0.1) * ceil(4 * 0.25)
        ("contains", ["a" * 20, "aaa"], 2),
        ("_==_", [[1, 2, 3], [1, 2]], 1),
        ("_+_", ["a" * 15, "b" * 6], 3),
        ("_+_", [[1], [2]], 1),
        ("@in", [1, list(range(40))], 40),
        ("sets.equivalent", [[1, 2, 3], [1, 2]], 13),  # 1 + 3 * 2 * 2
        ("isSorted", [["abcdefghijkl", "b"]], 1),  # traversal truncates: 1.2 -> 1, 0.1 -> 0
        ("join", [["ab", "cd"], "--"], 2),  # the result's 6 characters, twice, * 0.1
        ("ip", ["10.0.0.1"], 1),
        ("validate", ["format", "a" * 30], 32),  # ceil(3.1) * ceil(30 * 0.25), dns1123Label
        ("size", ["abc"], 1),
    ],
)
def test_call_costs(function: str, args: list[Any], cost: int) -> None:
    size = 30 if function == "validate" else 128
    assert call_cost(function, args, size) == cost


def test_a_plan_is_kept_across_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path))
    compiled = compile_rule(Rule("self.size() < 5 || self.startsWith('kept')"))
    assert run_costed(compiled.program, compiled.source, {"self": "kept across"})[1] == 6
    kept = list(tmp_path.rglob("*celplan-*"))
    assert len(kept) == 1
    name = kept[0].name.removeprefix(f"v{CACHE_FORMAT}-value-").removesuffix(".marshal")
    traced, scope_costs, measured = load_value(name, directory=str(kept[0].parent))
    assert (
        isinstance(traced, bytes)
        and scope_costs
        and measured == [("_<_", 2, 128), ("startsWith", 2, 128)]
    )


def test_the_rules_stop_at_the_per_call_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cel_rules, "PER_CALL_LIMIT", 10)
    schema = {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "l": {
                        "type": "array",
                        "items": {"type": "integer"},
                        "x-kubernetes-validations": [{"rule": "self.all(x, x > 0)"}],
                    },
                    "m": {"type": "string", "x-kubernetes-validations": [{"rule": "false"}]},
                },
            }
        },
    }
    small = cel_rules.run_rules(schema, {"spec": {"l": [1], "m": "x"}}, exact=True)
    assert [e.message for e in small.errors] == [
        'spec.m: Invalid value: "string": failed rule: false'
    ]
    big = cel_rules.run_rules(schema, {"spec": {"l": [1, 2, 3], "m": "x"}}, exact=True)
    assert [e.message for e in big.errors] == [
        "spec.l: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': "
        "no further validation rules will be run due to call cost exceeds limit for rule: "
        "self.all(x, x > 0)"
    ]
