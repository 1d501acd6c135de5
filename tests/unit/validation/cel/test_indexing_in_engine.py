"""indexOf and lastIndexOf run in the engine (``indexing.in_engine``, where a rule makes an
optional) answer as the Python overloads do where both can run: the same rule with and
without an optional beside it (``[optional.none()].size() * 0 + ...`` makes one), value
for value and error for error. The Python overloads are held to the server by
test_cel_libraries_differential, the engine's by test_cel_index_of_differential; this
one holds the text rewrite (nesting, parentheses, string literals, spacing) without a
server."""

from __future__ import annotations

import pytest

from kubectl_crd.validation.cel.library.indexing import INDEX_PAIRS
from kubectl_crd.validation.cel.programs import Outcome, compile_rule, run_costed
from kubectl_crd.validation.cel.tree import Rule

SELF = {"s": "Hello-World", "l": [3, 1, 2, 1], "m": {"k": [1, 2]}}

EXPRESSIONS = [
    "self.l.indexOf(1)",
    "self.l.lastIndexOf(1)",
    "self.l.indexOf(7)",
    "(self.l).lastIndexOf((1))",
    "self.l . indexOf( 2 )",
    "[1, 2].indexOf(self.l.indexOf(1))",
    "[self.l.lastIndexOf(1), 0].indexOf([0, 3].indexOf(self.l.indexOf(1) + 2))",
    "['a).indexOf(', 'b'].indexOf('a).indexOf(')",
    "self.m.k.lastIndexOf(2.0)",
    "[[1], [2, 3]].indexOf([2u, 3.0])",
    "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2})",
    "[true, 1].indexOf(1)",
    "[].indexOf(1)",
    "self.l.filter(x, x > 1).indexOf(2)",
    "self.l.map(x, [x].indexOf(x))",
    "self.s.indexOf('o') + dyn(self.s).lastIndexOf('o')",
    "dyn(self.s).indexOf('o', 5) + self.l.indexOf(2)",
    "[1].indexOf(1 / 0)",
    "dyn(self.l[0]).indexOf(1)",
    "dyn(self.s).indexOf(1)",
    "dyn(self.m).lastIndexOf('k')",
]


def outcome(text: str) -> tuple[Outcome, int | None, str]:
    compiled = compile_rule(Rule(text))
    assert not compiled.error, compiled.error
    result, cost = run_costed(compiled.program, compiled.source, {"self": SELF})
    return result, cost, compiled.source


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_the_engine_answers_as_the_python_overloads(expression: str) -> None:
    plain, plain_cost, plain_source = outcome(expression)
    beside, beside_cost, source = outcome(
        f"[optional.none()].size() == 1 ? ({expression}) : ({expression})"
    )
    assert not any(variable in plain_source for variable in INDEX_PAIRS.values())
    assert any(variable in source for variable in INDEX_PAIRS.values())
    if plain.error:
        assert beside.error == plain.error
    else:
        assert beside.value == plain.value
    # the list literal, optional.none(), size() and ==: 10 + 1 + 1 + 1; the in-engine
    # comprehension is charged as the call
    assert plain_cost is not None and beside_cost is not None
    assert beside_cost - plain_cost == 13
