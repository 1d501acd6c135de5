"""A rule run one element of its macro at a time (``validation.cel.splitting``).

Under the engine's cap the split run must answer what the engine's own expansion does,
errors included (held to it below over generated lists); past the cap the engine stops
with "Iteration budget exceeded" and the split run answers (kube-apiserver's answers:
tests/integration/test_hostile_crds_server.py)."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from kubectl_crd.validation.cel.environment import compile_runnable
from kubectl_crd.validation.cel.programs import Bindings, Outcome, _environment, run, run_costed
from kubectl_crd.validation.cel.rules import PER_CALL_LIMIT as LIMIT
from kubectl_crd.validation.cel.splitting import ITERATION_BUDGET, _macro, run_split


def _compiled(rule: str) -> tuple[Any, str]:
    return compile_runnable(_environment(), rule)


def _split(source: str, data: dict[str, Any] | Bindings) -> Outcome | None:
    split = run_split(source, data, LIMIT)
    return None if split is None else split[0]


def _both(rule: str, data: dict[str, Any]) -> tuple[Outcome, Outcome | None]:
    program, source = _compiled(rule)
    return run(program, data), _split(source, data)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("self.all(x, x > 0)", (("self",), "all", "x", " x > 0")),
        (" self.l . exists_one( y ,y == ')(,' ) ", (("self", "l"), "exists_one", "y", "y == ')(,' ")),
        ("oldSelf.a.b.exists(v, [1, 2].all(w, w != v))", (("oldSelf", "a", "b"), "exists", "v",
                                                          " [1, 2].all(w, w != v)")),
    ],
)  # fmt: skip
def test_the_macro_is_read_from_the_whole_text(source: str, expected: tuple[Any, ...]) -> None:
    found = _macro(source)
    assert found is not None
    assert (found.path, found.macro, found.variable, found.body) == expected


@pytest.mark.parametrize(
    "source",
    [
        "self.all(x, x > 0) && true",  # not one macro as a whole
        "self.all(i, v, v > i)",  # two variables
        "self.map(x, x + 1)",  # not a quantifier
        "self[0].all(x, x > 0)",  # an index, not a field path
        "self.all(x, x > 0 // a comment (\n)",  # a comment could hide brackets
        "(self).all(x, x > 0)",
        "f(self).all(x, true)",
    ],
)
def test_other_texts_are_not_split(source: str) -> None:
    assert _macro(source) is None


_RULES = (
    "self.l.all(x, self.l.exists_one(y, x.name == y.name))",
    "self.l.exists(x, self.l.all(y, y.n <= x.n))",
    "self.l.all(x, self.l.exists(y, y.name == x.name))",
    "self.l.exists_one(x, x.n > 3)",
    "self.l.all(x, x.n)",  # not a bool: no such overload
    "self.l.exists(x, x.n == 1 ? x.name : true)",
    # errors of two texts (an item without n, one without a name): which one is told
    "self.l.exists_one(x, x.n > size(x.name))",
    "self.l.all(x, size(x.name) < x.n)",
    "self.l.exists(x, size(x.name) > x.n)",
)


def _lists(seed: int) -> list[list[dict[str, Any]]]:
    """Small lists of items with names and numbers, some of either missing."""
    chooser = random.Random(seed)
    lists: list[list[dict[str, Any]]] = [[]]
    for size in (1, 2, 3, 5):
        for _ in range(12):
            items = []
            for _ in range(size):
                item: dict[str, Any] = {}
                if chooser.random() < 0.85:
                    item["name"] = chooser.choice("abc")
                if chooser.random() < 0.85:
                    item["n"] = chooser.randint(0, 6)
                items.append(item)
            lists.append(items)
    return lists


@pytest.mark.parametrize("rule", _RULES)
def test_under_the_cap_the_split_run_answers_and_costs_as_the_engine(rule: str) -> None:
    # the cost as runtime_cost's tracer counts the whole rule (held to the server)
    program, source = _compiled(rule)
    outcomes = set()
    for items in _lists(seed=len(rule)):
        data = {"self": {"l": items}, "__hasOldSelf": False}
        assert run_split(source, data, LIMIT) == run_costed(program, source, data), items
        outcomes.add(run(program, data))
    assert len(outcomes) >= 2, outcomes  # the lists reach more than one answer


def test_a_split_run_stops_past_the_per_call_limit() -> None:
    # 2,000^3 iterations: cel-go cancels it at the limit, and so does the split run
    rule = "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c != '')))"
    data = {"self": {"l": [str(n) for n in range(2000)]}, "__hasOldSelf": False}
    started = time.thread_time()
    split = run_split(_compiled(rule)[1], data, LIMIT)
    assert split is not None and split[1] > LIMIT
    assert time.thread_time() - started < 10


def test_past_the_cap_the_engine_stops_and_the_split_run_answers() -> None:
    rule = _RULES[0]
    items = [{"name": f"n{i}"} for i in range(100)]  # 100 + 100 x 100 iterations
    data = {"self": {"l": items}, "__hasOldSelf": False}
    engine, split = _both(rule, data)
    assert engine.error.startswith(ITERATION_BUDGET)
    assert split == Outcome(value=True)
    items[40]["name"] = "n41"
    assert _both(rule, data)[1] == Outcome(value=False)
    del items[99]["name"]
    assert _both(rule, data)[1] == Outcome(error="no such key: name")


def test_a_body_past_the_cap_is_split_in_turn() -> None:
    # 3 x (101 + 101 x 101) iterations: each body alone is past the cap
    rule = "self.k.all(z, self.l.all(x, self.l.exists_one(y, x == y)))"
    one = list(range(101))
    data = {"self": {"k": [1, 2, 3], "l": one}, "__hasOldSelf": False}
    program, source = _compiled(rule)
    assert run(program, data).error.startswith(ITERATION_BUDGET)
    assert _split(source, Bindings(data)) == Outcome(value=True)
    data["self"]["l"] = [*one, 0]
    assert _split(source, data) == Outcome(value=False)


def test_what_is_not_a_macro_over_a_list_is_not_split() -> None:
    data = {"self": {"l": {"a": 1}, "s": "x"}, "__hasOldSelf": False}
    for rule in ("self.l.all(k, k != '')", "self.m.all(x, true)", "self.s.all(x, true)"):
        assert _split(_compiled(rule)[1], data) is None
