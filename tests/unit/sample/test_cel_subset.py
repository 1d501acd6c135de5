"""The partial CEL evaluator: right answers where it answers, ``None`` where it cannot tell."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.sample.cel_subset import evaluate, matches_pattern

OBJ = {"a": "x", "n": 3, "items": [1, 2, 3], "m": {"k": "v"}, "namespace": "ns", "x-y": 1}

CASES: list[tuple[str, Any, bool | None]] = [
    ("has(self.a)", OBJ, True),
    ("has(self.b)", OBJ, False),
    ("has(self.a) != has(self.b)", OBJ, True),
    ("(has(self.a) && !has(self.b)) || (!has(self.a) && has(self.b))", OBJ, True),
    ("has(self.__namespace__) && self.__namespace__ == 'ns'", OBJ, True),
    ("self.x__dash__y == 1", OBJ, True),
    ("self.n > 2 && self.n <= 3 && self.n != 4", OBJ, True),
    ("self.n + 1 == 4 && self.n * 2 == 6 && self.n / 2 == 1 && self.n % 2 == 1", OBJ, True),
    ("-self.n < 0", OBJ, True),
    ("size(self.items) == 3 && self.items.size() > 0", OBJ, True),
    ("self.items[0] == 1 && 2 in self.items && 'k' in self.m", OBJ, True),
    ("self.items.all(i, i > 0) && self.items.exists(i, i == 2)", OBJ, True),
    ("self.items.exists_one(i, i > 1)", OBJ, False),
    ("self.items.filter(i, i > 1).size() == 2 && self.items.map(i, i * 2)[2] == 6", OBJ, True),
    ("self.m.all(k, k.startsWith('k'))", OBJ, True),
    ("self.a.startsWith('x') && self.a.endsWith('x') && self.a.contains('x')", OBJ, True),
    ("self.a.matches('^[a-z]$')", OBJ, True),
    ("self.a.matches('^(?i)X$')", OBJ, True),  # RE2 flags, via regex_examples
    ("(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) <= 1", OBJ, True),
    ("self.n == 3 ? has(self.b) : true", OBJ, False),
    ('self.a == "x" && self.a != r"\\x"', OBJ, True),
    ("[1, 2].size() == 2 && {'a': 1}['a'] == 1", OBJ, True),
    ("int(self.n) == 3 && string(self.n) == '3' && string(true) == 'true'", OBJ, True),
    # CEL error semantics: a missing key is an error, absorbed by a deciding || / &&
    ("self.b == 'x'", OBJ, False),
    ("self.b == 'x' || true", OBJ, True),
    ("false && self.b == 'x'", OBJ, False),
    ("self.b == 'x' || false", OBJ, False),
    ("size(self.n) > 0", OBJ, False),
    ("self.n == 1.0 || self.n == 3.0", OBJ, True),
    ("true == 1", OBJ, False),
    # beyond the subset: cannot tell
    ("self.a.trim() == 'x'", OBJ, None),
    ("self == oldSelf", OBJ, None),
    ("type(self) == string", OBJ, None),
    ("isURL(self.a)", OBJ, None),
    ("self.a ==", OBJ, None),
    ("self.n", OBJ, None),  # not a bool
]


@pytest.mark.parametrize(("rule", "value", "expected"), CASES, ids=[c[0] for c in CASES])
def test_evaluate(rule: str, value: Any, expected: bool | None) -> None:
    assert evaluate(rule, value) is expected


@pytest.mark.parametrize(
    ("rule", "pattern"),
    [
        ("self.matches('^a+$')", "^a+$"),
        ('self.matches("^\\\\d$")', "^\\d$"),
        ("self.x.matches('^a+$')", None),
        ("self.matches('^a+$') && true", None),
        ("size(self) > 0", None),
    ],
)
def test_matches_pattern(rule: str, pattern: str | None) -> None:
    assert matches_pattern(rule) == pattern


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("self.a.matches(r'''^[a-z]$''')", True),
        ('self.a.matches(r"""^(?:[x]|y)$""") && self.a.upperAscii() == "X"', True),
        ("self.a.lowerAscii() == 'x' && '''multi\nline'''.size() == 10", True),
    ],
)
def test_triple_quoted_strings_and_case_functions(rule: str, expected: bool) -> None:
    assert evaluate(rule, OBJ) is expected


@pytest.mark.parametrize(
    ("rule", "value", "expected"),
    [
        ("duration(self) >= duration('1ms')", "1s", True),
        ("duration(self) >= duration('1ms')", "500us", False),
        ("!(duration(self) < duration('1s') || duration(self) > duration('1h'))", "1h0m0s", True),
        ("duration(self) == duration('90m')", "1h30m", True),
        ("duration(self) > duration('0s')", "1x", False),  # invalid: a CEL error fails
        ("self.all(k, k.split('/')[0].size() < 5)", {"ab/c": 1, "abcd": 2}, True),
        ("self.split('/').size() == 3", "a/b/c", True),
    ],
)
def test_durations_and_split(rule: str, value: Any, expected: bool) -> None:
    assert evaluate(rule, value) is expected
