"""The cost estimator's arithmetic, schema sizes and messages (the integration test
``test_cel_cost_differential`` compares its estimates with the API server's)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.validation.cel import cost
from kubectl_crd.validation.cel.typing import check_rules
from kubectl_crd.validation.compiled import SchemaNode


def test_arithmetic_saturates_as_go_unsigned_integers_do() -> None:
    assert cost._add((1, cost.MAX_UINT64), (1, 1)) == (2, cost.MAX_UINT64)
    assert cost._multiply((2, 2**40), (3, 2**40)) == (6, cost.MAX_UINT64)
    assert cost._factor(25, 0.1) == 3  # rounded up
    assert cost._factor(cost.MAX_UINT64, 0.1) == 1844674407370955264  # float64, as Go rounds
    assert cost._factor(cost.MAX_UINT64, 2.0) == cost.MAX_UINT64


@pytest.mark.parametrize(
    ("estimate", "factor"),
    [
        (10_000_001, "1.000000x"),
        (14_999_999, "1.500000x"),
        (15_000_000, "1.5x"),
        (10**9 + 1, "more than 100x"),
    ],
)
def test_cost_messages(estimate: int, factor: str) -> None:
    message = cost.cost_error_message("estimated rule cost", estimate, cost.PER_EXPRESSION_LIMIT)
    assert message.startswith(f"estimated rule cost exceeds budget by factor of {factor} (try")


@pytest.mark.parametrize(
    ("schema", "max_elements", "min_size"),
    [
        ({"type": "string"}, 3 * 1024 * 1024 - 2, 2),
        ({"type": "string", "maxLength": 5}, 20, 2),  # runes as up to 4 bytes
        ({"type": "string", "enum": ["a", "ccc"]}, 3, 2),
        ({"type": "string", "format": "byte", "maxLength": 5}, 5, 2),
        ({"type": "string", "format": "date-time", "maxLength": 5}, 32, 21),
        ({"type": "integer"}, 0, 1),
        ({"type": "array", "items": {"type": "integer"}}, (3 * 1024 * 1024 - 2) // 2, 2),
        (
            {"type": "object", "additionalProperties": {"type": "boolean"}},
            (3 * 1024 * 1024 - 2) // 10,
            2,
        ),
        ({"x-kubernetes-int-or-string": True, "maxLength": 3}, 12, 1),
        (
            {
                "type": "object",
                "required": ["a", "b"],
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer", "default": 1}},
            },
            0,
            2 + 1 + 1 + 4,  # only a required field without a default counts
        ),
    ],
)
def test_schema_sizes(schema: dict[str, Any], max_elements: int, min_size: int) -> None:
    size = cost.decl_size(SchemaNode(schema), False)
    assert size is not None
    assert (size.max_elements, size.min_size) == (max_elements, min_size)


def test_untyped_nodes_are_not_seen() -> None:
    assert cost.decl_size(SchemaNode({"x-kubernetes-preserve-unknown-fields": True}), False) is None


def _schema(rules: list[dict[str, Any]], tags: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {"tags": tags},
                "x-kubernetes-validations": rules,
            }
        },
    }


def test_bounds_change_the_estimate_and_unbounded_lists_are_refused() -> None:
    rule = {"rule": "self.tags.all(a, self.tags.all(b, a == b))"}
    bounded = {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 10}}
    problems, costs = check_rules(_schema([rule], bounded))
    assert problems == []
    assert [(c.field, c.cost, c.total) for c in costs] == [("rule", 258, 258)]  # the server's
    unbounded = {"type": "array", "items": {"type": "string"}}
    problems, _ = check_rules(_schema([rule], unbounded))
    # the rule, then the schema's total: the rule as its largest part, and the total
    assert [(p.field, p.forbidden) for p in problems] == [
        ("rule", True),
        ("rule", True),
        ("", True),
    ]
    assert "by factor of more than 100x" in problems[0].detail
    assert problems[1].detail.startswith("contributed to estimated rule cost total")


def test_a_rule_that_does_not_compile_has_no_cost() -> None:
    problems, costs = check_rules(_schema([{"rule": "self.nope == 1"}], {"type": "string"}))
    assert [p.forbidden for p in problems] == [False]
    assert costs == []
