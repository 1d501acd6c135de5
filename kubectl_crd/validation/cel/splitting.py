"""A rule the engine stops at its iteration cap, run one element of its loop at a time.

cel-cpp ends an evaluation after 10,000 comprehension iterations in all (its runtime
option ``comprehension_max_iterations``; cel-expr-python sets it and exposes no way to
change it): "Iteration budget exceeded". cel-go, the server's engine, has no such cap:
a rule runs as long as its cost stays within the per-call limit (1,000,000). So a
uniqueness rule the CRDs of Cluster API write, ``self.all(x, self.exists_one(y, x.name
== y.name))``, fails here on a list of 100 (KubeadmConfig's ``extraArgs``, its
``maxItems``: 100 + 100 x 100 iterations) that the server accepts.

Such a rule, when it is one macro ``R.all(v, B)``, ``R.exists(v, B)`` or
``R.exists_one(v, B)`` over a list ``R`` that is a variable or a field path from one
(``self``, ``oldSelf.spec.items``, an outer macro's variable), is run here as the
macro's expansion runs (cel-go ``parser/macro.go``): ``B`` once per element, each an
evaluation of its own with ``v`` bound (so each has the engine's whole cap; a ``B``
over the cap is split the same way), the results folded as the expansion folds them:

- ``all``: ``__result__ && B`` while ``__result__`` is not false: false when one
  element gives false, else the first error, else true;
- ``exists``: ``__result__ || B`` while not true: true when one gives true, else the
  first error, else false;
- ``exists_one``: ``B ? n + 1 : n`` over every element, then ``n == 1``: an error in
  ``B`` becomes the count, and a later one replaces it (a ternary's condition error is
  its result), so the last error.

A non-bool ``B`` is "no such overload" (the expansion's ``&&``, ``||``, ``?:``). Other
rules over the cap keep the engine's error.

Without the engine's cap, what bounds a split run is what bounds it on the server: the
per-call cost limit. Given a limit, every part runs traced (``runtime_cost``), the
loop's own cost is added as cel-go counts it (``_LOOP``, ``_CONDITION``,
``_iteration_cost``), and the run stops once the cost passes the limit; without one (the
caller knows the rule's estimated cost is within it) nothing is traced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from kubectl_crd.validation.cel.environment import compile_runnable
from kubectl_crd.validation.cel.programs import (
    _VARIABLES,
    Bindings,
    Outcome,
    rules_environment,
    run,
)
from kubectl_crd.validation.cel.tree import _STRINGS

__all__ = ["ITERATION_BUDGET", "run_split"]

#: the engine's error text (``programs.runtime_error_text`` keeps it as it is)
ITERATION_BUDGET = "Iteration budget exceeded"

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEAD = re.compile(
    r"\s*(?P<path>[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)"
    r"\s*\.\s*(?P<macro>all|exists_one|exists)\s*"
)
_OPENING = "([{"
_CLOSING = ")]}"


@dataclass(frozen=True, slots=True)
class _Macro:
    path: tuple[str, ...]  # a variable, then the fields selected from it
    macro: str
    variable: str
    body: str


def _macro(source: str) -> _Macro | None:
    """``source`` as ``R.macro(v, B)``, None when it is not one such call as a whole."""
    # string literals masked (same length, so positions hold) before brackets count
    masked = _STRINGS.sub(lambda found: "0" * len(found.group()), source)
    if "//" in masked:
        return None  # a comment could hold brackets
    end = len(masked.rstrip())
    if end == 0 or masked[end - 1] != ")":
        return None
    depth = 0
    opening = -1
    for at in range(end - 1, -1, -1):
        if masked[at] in _CLOSING:
            depth += 1
        elif masked[at] in _OPENING:
            depth -= 1
            if depth == 0:
                opening = at
                break
    if opening < 0 or masked[opening] != "(":
        return None
    head = _HEAD.fullmatch(masked, 0, opening)
    if head is None:
        return None
    commas = [at for at, depth in _top_level(masked, opening + 1, end - 1) if depth == 0]
    if len(commas) != 1:
        return None  # one argument, or two variables (``all(i, v, B)``): not split
    variable = source[opening + 1 : commas[0]].strip()
    if _NAME.fullmatch(variable) is None:
        return None
    path = tuple(name.strip() for name in head.group("path").split("."))
    return _Macro(path, head.group("macro"), variable, source[commas[0] + 1 : end - 1])


def _top_level(masked: str, start: int, stop: int) -> list[tuple[int, int]]:
    """The commas between ``start`` and ``stop``, each with its bracket depth."""
    depth = 0
    found = []
    for at in range(start, stop):
        char = masked[at]
        if char in _OPENING:
            depth += 1
        elif char in _CLOSING:
            depth -= 1
        elif char == ",":
            found.append((at, depth))
    return found


@dataclass(frozen=True, slots=True)
class _Program:
    """An expression compiled where ``names`` are the macro variables."""

    names: frozenset[str]
    program: Any
    source: str

    def run(self, data: dict[str, Any], counted: bool) -> tuple[Outcome, int | None]:
        """The outcome on ``data`` and, when ``counted``, its cost as cel-go counts it."""
        from kubectl_crd.validation.cel.runtime_cost import traced_run

        if not counted:
            return run(self.program, data), None
        environment = rules_environment(self.names, True)
        plan = self.plan()
        assert plan is not None  # run_split counts only what has a plan
        return traced_run(plan, data, partial(run, environment=environment))

    def plan(self) -> Any:
        """Its ``runtime_cost.CostPlan``; None when the tracer cannot rewrite it."""
        return _plan(self)


@cache
def _compiled(names: frozenset[str], text: str) -> _Program | None:
    try:
        program, source = compile_runnable(rules_environment(names, False), text)
    except RuntimeError:
        return None
    return _Program(names, program, source)


@cache
def _plan(program: _Program) -> Any:
    from kubectl_crd.validation.cel.runtime_cost import cost_plan

    # kept by the text it is named after: the variables are part of it
    named = f"{sorted(program.names)}\n{program.source}"
    return cost_plan(program.program, named, rules_environment(program.names, True))


#: what cel-go charges a loop beyond its range's cost and its iterations' (its macro's
#: expansion, parser/macro.go, as interpreter/runtimecost.go counts it and
#: ``runtime_cost``'s tracer, held to the server, does: an identifier 1, a call 1,
#: ``&&``, ``||`` and ``?:`` free): the result, ``r`` 1 or ``r == 1`` 2
_LOOP = {"all": 1, "exists": 1, "exists_one": 2}
#: an iteration's loop condition: ``@not_strictly_false(r)``, ``@not_strictly_false(!r)``,
#: ``true``; it runs once more when a decided loop has elements left, and stops it
_CONDITION = {"all": 2, "exists": 3, "exists_one": 0}


def run_split(
    source: str, data: dict[str, Any] | Bindings, limit: int | None
) -> tuple[Outcome, int] | None:
    """The outcome of ``source`` (a rule's compiled text) on ``data``, run one element of
    its macro at a time, and its cost as cel-go counts it, stopped once that passes
    ``limit`` (the cost is then over it, the outcome of no matter); None when it is
    not such a macro over a list, or the tracer cannot count it. With no ``limit``
    (the rule's estimated cost is within the per-call limit, which bounds the run) the
    runs are not traced, and the cost told is 0: tracing costs ~30 us an iteration."""
    variables = data.data if isinstance(data, Bindings) else data
    macro = _macro(source)
    if macro is None or macro.path[0] not in variables or macro.variable in _VARIABLES:
        return None
    names = frozenset(variables).difference(_VARIABLES)
    body = _compiled(names | {macro.variable}, macro.body)
    counted = limit is not None
    # the range, compiled to count what evaluating it costs
    target = _compiled(names, ".".join(macro.path)) if counted else None
    if body is None or (counted and (target is None or None in (target.plan(), body.plan()))):
        return None
    # the list as the engine was given it (its values converted once, timestamps and
    # all), not a copy the engine hands back
    elements: Any = variables
    for name in macro.path:
        elements = elements.get(name) if isinstance(elements, dict) else None
    if not isinstance(elements, list):
        return None
    cost = 0
    if target is not None:
        cost = (target.run(variables, True)[1] or 0) + _LOOP[macro.macro]
    outcomes: list[Outcome] = []
    for element in elements:
        bound = {**variables, macro.variable: element}
        outcome, spent = body.run(bound, counted)
        if outcome.error.startswith(ITERATION_BUDGET):
            split = run_split(body.source, bound, None if limit is None else limit - cost)
            if split is None:
                return None
            outcome, spent = split
        outcomes.append(outcome)
        if limit is not None:
            cost += (spent or 0) + _iteration_cost(macro.macro, outcome)
            if cost > limit:
                break
        if _decided(macro.macro, outcome):
            if limit is not None and len(outcomes) < len(elements):
                cost += _CONDITION[macro.macro]  # the next iteration's ends the loop
            break
    return _fold(macro.macro, outcomes), cost


def _iteration_cost(macro: str, outcome: Outcome) -> int:
    """An iteration's cost beyond its body's: its condition, then the step's own part,
    ``r && B`` or ``r || B`` 1, ``B ? r + 1 : r`` 2 when ``B`` holds (else nothing: the
    tracer counts the bare ``r`` of the other branch as free, and a failed ``B`` runs
    neither branch)."""
    if macro != "exists_one":
        return _CONDITION[macro] + 1
    return 2 if outcome.value is True and not outcome.error else 0


def _decided(macro: str, outcome: Outcome) -> bool:
    """Whether the loop stops after this element (the expansion's loop condition)."""
    return (macro == "all" and outcome.value is False) or (
        macro == "exists" and outcome.value is True
    )


def _fold(macro: str, outcomes: list[Outcome]) -> Outcome:
    first_error = ""
    last_error = ""
    count = 0
    for outcome in outcomes:
        error = outcome.error
        if not error and not isinstance(outcome.value, bool):
            error = "no such overload"
        if error:
            first_error = first_error or error
            last_error = error
            continue
        if _decided(macro, outcome):
            return Outcome(value=outcome.value)
        count += outcome.value is True
    if macro == "exists_one":
        return Outcome(error=last_error) if last_error else Outcome(value=count == 1)
    if first_error:
        return Outcome(error=first_error)
    return Outcome(value=macro == "all")
