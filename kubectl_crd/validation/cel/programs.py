"""Rules compiled by the engine once per schema node, and run.

Every rule is compiled in one environment that declares ``self`` and ``oldSelf`` as
dynamic values. A rule with ``optionalOldSelf: true`` sees ``oldSelf`` as an optional
(``validation.go: validationActivationWithOldSelf``): the engine takes no optional
values from Python, so such a rule is compiled with ``oldSelf`` replaced by
``(__hasOldSelf ? optional.of(__oldSelf) : optional.none())``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from cel_expr_python import cel

from kubectl_crd.validation.cel.environment import (
    build_environment,
    compile_runnable,
    prepare,
)
from kubectl_crd.validation.cel.tree import _STRINGS, Rule, RuleNode

_OPTIONAL_OLD_SELF = "(__hasOldSelf ? optional.of(__oldSelf) : optional.none())"
_OLD_SELF_WORD = re.compile(r"(?<![\w.])oldSelf\b")


_VARIABLES = {
    "self": cel.Type.DYN,
    "oldSelf": cel.Type.DYN,
    "__oldSelf": cel.Type.DYN,
    "__hasOldSelf": cel.Type.BOOL,
}


@cache
def rules_environment(names: frozenset[str], traced: bool) -> Any:
    """The rules' environment, with ``names`` declared dynamic too (the variables of a
    macro run one element at a time: ``splitting``); ``traced``: with ``runtime_cost``'s
    tracing calls. Built once each (a traced one took 40 ms here, a plain one 0.4)."""
    functions: list[Any] = []
    if traced:
        from kubectl_crd.validation.cel.runtime_cost import tracing_functions

        functions = tracing_functions()
    variables = {**_VARIABLES, **dict.fromkeys(sorted(names), cel.Type.DYN)}
    return build_environment(variables, functions=functions)


def _environment() -> Any:
    return rules_environment(frozenset(), False)


def _traced_environment() -> Any:
    return rules_environment(frozenset(), True)


_plans: dict[int, tuple[Any, Any]] = {}


def run_costed(
    program: Any, source: str, data: dict[str, Any] | Bindings
) -> tuple[Outcome, int | None]:
    """``run``, and what the run cost as cel-go counts it (``runtime_cost``); ``None``
    when the program could not be traced. The traced program is built once (``source``,
    the text compiled, names it across runs)."""
    from kubectl_crd.validation.cel.runtime_cost import cost_plan, traced_run

    cached = _plans.get(id(program))
    if cached is None or cached[0] is not program:
        cached = (program, cost_plan(program, source, _traced_environment()))
        _plans[id(program)] = cached
    plan = cached[1]
    if plan is None:
        return run(program, data), None
    return traced_run(plan, data, partial(run, environment=_traced_environment()))


@dataclass(frozen=True, slots=True)
class CompiledRule:
    """A rule with its program, or the compile error the server would report."""

    rule: Rule
    program: Any = None
    message_program: Any = None
    error: str = ""
    transition: bool = False
    source: str = ""  # the text the engine compiled (after ``prepare``)
    message_source: str = ""


def compiled_rules(node: RuleNode) -> tuple[CompiledRule, ...]:
    """The node's rules compiled, once (kept on the node)."""
    if node.programs is None:
        node.programs = tuple(compile_rule(rule) for rule in node.rules)
    programs: tuple[CompiledRule, ...] = node.programs
    return programs


def compile_rule(rule: Rule) -> CompiledRule:
    text = rule.rule
    transition = rule.transition
    if rule.optional_old_self and transition:
        text = optional_old_self(text)
    try:
        program, source = compile_runnable(_environment(), prepare(text))
    except RuntimeError as exc:
        return CompiledRule(rule, error=compile_error_text(str(exc)), transition=transition)
    message_program = None
    message_source = ""
    if rule.message_expression:
        try:
            message_program, message_source = compile_runnable(
                _environment(), prepare(rule.message_expression)
            )
        except RuntimeError:
            message_program = None  # the server refuses such a CRD; fall back to the message
    return CompiledRule(
        rule,
        program,
        message_program,
        transition=transition,
        source=source,
        message_source=message_source,
    )


def optional_old_self(expression: str) -> str:
    """``oldSelf`` outside string literals replaced by the optional form."""
    out: list[str] = []
    position = 0
    for match in _STRINGS.finditer(expression):
        out.append(_OLD_SELF_WORD.sub(_OPTIONAL_OLD_SELF, expression[position : match.start()]))
        out.append(match.group(0))
        position = match.end()
    out.append(_OLD_SELF_WORD.sub(_OPTIONAL_OLD_SELF, expression[position:]))
    return "".join(out)


def compile_error_text(engine_text: str) -> str:
    """The engine's compile error as cel-go words it (``compilation failed: ERROR: ...``)."""
    from kubectl_crd.validation.cel.library.indexing import original_name

    body = original_name(_strip_status(engine_text))
    body = re.sub(r" \[INVALID_ARGUMENT\]$", "", body)
    return f"compilation failed: {body}"


_STATUS = re.compile(r"^[A-Z_]+: ")


def _strip_status(text: str) -> str:
    return _STATUS.sub("", text.strip(), count=1)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What running a program gave: a value, or the error cel-go would have raised."""

    value: Any = None
    error: str = ""


_ERROR_TYPE = cel.Type.ERROR

#: The outcome of most runs: a rule that holds (outcomes are frozen, so one is shared)
_HOLDS = Outcome(value=True)


class Bindings:
    """The variables of a node's runs (``self``, ``oldSelf``...), given to the engine
    once per environment as an ``Activation`` that its programs share: the engine
    converts a variable's value on the first use and keeps it, where ``eval(data=...)``
    converts it for every program (a ``self`` of 50 list items: 36 us each time)."""

    __slots__ = ("_activations", "data")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._activations: dict[int, Any] = {}

    def activation(self, environment: Any) -> Any:
        key = id(environment)  # environments are built once (cached) and kept
        found = self._activations.get(key)
        if found is None:
            found = self._activations[key] = environment.Activation(data=self.data)
        return found


def run(program: Any, data: dict[str, Any] | Bindings, environment: Any = None) -> Outcome:
    """``program`` (compiled in ``environment``, the rules' by default) run on ``data``,
    through the ``Bindings``' shared activation when given those."""
    try:
        if isinstance(data, Bindings):
            result = program.eval(activation=data.activation(environment or _environment()))
        else:
            result = program.eval(data=data)
    except RuntimeError as exc:
        return Outcome(error=runtime_error_text(str(exc)))
    if result.type() == _ERROR_TYPE:
        try:
            text = str(result.value())
        except TypeError:  # an optional, which the engine cannot convert
            return Outcome(value=None)
        return Outcome(error=runtime_error_text(text))
    if str(result.type()).startswith(_CONTAINERS) and _holds_optional(result):
        return Outcome(value=None)
    value = result.plain_value()
    return _HOLDS if value is True else Outcome(value=value)


_CONTAINERS = ("LIST", "MAP")


def _holds_optional(result: Any) -> bool:
    """Whether a list or map result holds an optional (its type reads ``ERROR``): the
    engine's ``plain_value()`` of such a map kills the process (SIGSEGV), of such a
    list raises. Only a rule the server refuses (``cel expression must evaluate to a
    bool``, ``validation.crds``) gives one; ``Value.value()`` converts one level."""
    members = result.value()
    for member in members.values() if isinstance(members, dict) else members:
        kind = member.type()
        if kind == _ERROR_TYPE:
            return True
        if str(kind).startswith(_CONTAINERS) and _holds_optional(member):
            return True
    return False


# cel-cpp's runtime error texts and cel-go's (interpreter, common/types/err.go)
_NOT_FOUND = re.compile(r'^Key not found in map : "?(.*?)"?$')
_NO_OVERLOAD = re.compile(r"^No matching overloads? found")
_INDEX = re.compile(r"^Index error: index=(-?\d+) size=\d+$")
_CEL_TYPE = r"(string|int|uint|double|bool|bytes|timestamp|duration)"
_CONVERSION = re.compile(rf"^cannot convert {_CEL_TYPE} to {_CEL_TYPE}$")


def runtime_error_text(engine_text: str) -> str:
    from kubectl_crd.validation.cel.library.indexing import dispatch_error, original_name

    dispatched = dispatch_error(_strip_status(engine_text))
    if dispatched is not None:
        return dispatched
    return _runtime_error_text(original_name(engine_text))


def _runtime_error_text(engine_text: str) -> str:
    body = _strip_status(engine_text)
    found = _NOT_FOUND.match(body)
    if found:
        return f"no such key: {found.group(1)}"
    if _NO_OVERLOAD.match(body):
        return "no such overload"
    if body == "divide by zero":
        return "division by zero"
    index = _INDEX.match(body)
    if index:
        return f"index out of bounds: {index.group(1)}"
    if body in ("String to Duration conversion failed", "String to Timestamp conversion failed"):
        kind = "Duration" if "Duration" in body else "Timestamp"
        return f"type conversion error from 'string' to 'google.protobuf.{kind}'"
    conversion = _CONVERSION.match(body)
    if conversion:
        return f"type conversion error from '{conversion.group(1)}' to '{conversion.group(2)}'"
    if body.startswith("Type conversion error from "):  # cel-cpp's string to bool
        return "t" + body[1:]
    return _GO_CONVERSION_ERRORS.get(body, body)


#: cel-cpp's words for a conversion out of range, and cel-go's (common/types: err.go's
#: errIntOverflow and errUintOverflow, bytes.go's refusal of invalid UTF-8)
_GO_CONVERSION_ERRORS = {
    "double out of int64 range": "integer overflow",
    "uint64 out of int64 range": "integer overflow",
    "double out of uint64 range": "unsigned integer overflow",
    "int64 out of uint64 range": "unsigned integer overflow",
    "malformed UTF-8 bytes": "invalid UTF-8 in bytes, cannot convert to string",
}
