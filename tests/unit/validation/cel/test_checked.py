"""The checked tree read from the engine's serialized ``CheckedExpr``, and the
homogeneous-literal check run over it (the server's texts are checked in
tests/integration/test_cel_crd_compile.py)."""

from __future__ import annotations

from cel_expr_python import cel

from kubectl_crd.validation.cel.checked import (
    CelType,
    CheckedRule,
    format_literal_errors,
    homogeneous_literal_errors,
    read_checked,
)
from kubectl_crd.validation.cel.environment import build_environment


def checked(expression: str) -> CheckedRule:
    env = build_environment({"self": cel.Type.DYN})
    return read_checked(env.compile(expression).serialize())


def test_the_tree_types_and_positions() -> None:
    rule = checked("[1, 'a'].size() == 2")
    assert rule.root.kind == "call" and rule.root.function == "_==_"
    size = rule.root.children[0]
    assert size.function == "size"
    literal = size.children[0]
    assert literal.kind == "list"
    assert [rule.types[e.id] for e in literal.elements] == [CelType("int"), CelType("string")]
    assert [rule.positions[e.id] for e in literal.elements] == [1, 4]


def test_type_names_as_cel_go_writes_them() -> None:
    rule = checked("[{'a': [1.5]}, {'b': [2.5]}]")
    assert str(rule.types[rule.root.id]) == "list(map(string, list(double)))"


def test_mixed_literals_are_found_and_format_calls_are_exempt() -> None:
    assert homogeneous_literal_errors(checked("[1, 'a']")) == [
        (4, "expected type 'int' but found 'string'")
    ]
    assert homogeneous_literal_errors(checked("{'a': 1, 2: 'b'}")) == [
        (9, "expected type 'string' but found 'int'"),
        (12, "expected type 'int' but found 'string'"),
    ]
    assert homogeneous_literal_errors(checked("[self, 1]")) == [
        (7, "expected type 'dyn' but found 'int'")
    ]
    assert homogeneous_literal_errors(checked("'%s %d'.format(['a', 1])")) == []
    assert homogeneous_literal_errors(checked("[1, 2].map(x, [x, x])")) == []


def test_constant_format_strings_checked_against_their_list() -> None:
    """cel-go's stringFormatValidator: offsets of the call's '(' or the element."""
    assert format_literal_errors(checked("'x'.format([1])")) == [
        (10, "too many arguments supplied to string.format (expected 0, got 1)")
    ]
    assert format_literal_errors(checked("'%s %s'.format([1])")) == [(14, "index 1 out of range")]
    assert format_literal_errors(checked("'%d'.format(['a'])")) == [
        (
            13,
            "error during formatting: decimal clause can only be used on integers, "
            "was given string",
        )
    ]
    assert format_literal_errors(checked("'%d%% %.2f %s'.format([1, 2.0, self])")) == []
    assert format_literal_errors(checked("'%d'.format([self])")) == []
    assert format_literal_errors(checked("self.format([1])")) == []
