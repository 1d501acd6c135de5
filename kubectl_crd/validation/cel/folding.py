"""What cel-go's planner evaluates before a rule ever runs, and refuses the CRD for.

Kubernetes builds its programs with ``cel.OptOptimize`` and the regex optimizations
of its libraries (``apiserver/pkg/cel/library/regex.go``: ``find``, ``findAll``), so
``env.Program`` (``program instantiation failed: ...``, ``apiextensions``'
``compilation.go``) already:

- evaluates a type conversion (``bool``, ``bytes``, ``double``, ``duration``, ``dyn``,
  ``int``, ``string``, ``timestamp``, ``type``, ``uint``) of a constant
  (``interpreter/decorators.go`` ``maybeOptimizeConstUnary``): a literal, a list or
  map literal of constants (``maybeBuildListLiteral``), or a conversion so folded;
  an error there (``int('0x10')``, ``uint(-1)``, ``string(b'\\xff')``) is the refusal;
- compiles a constant pattern of ``find`` and ``findAll`` (``decRegexOptimizer``):
  Go's ``regexp`` error (``error parsing regexp: missing closing ): `(```).

The tree is planned depth first, arguments before their call, and the first error
stops it. cel-cpp does neither, so this module walks the checked tree
(``checked.read_checked``) and evaluates each foldable conversion with the runtime,
from the constant's own CEL text.
"""

from __future__ import annotations

import json
import struct

from kubectl_crd.validation.cel.checked import CheckedRule, Node

__all__ = ["instantiation_error"]

#: common/overloads ``IsTypeConversionFunction``
_CONVERSIONS = frozenset(
    {"bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint"}
)
#: the calls whose pattern argument a constant string makes compiled at plan time
_REGEX_CALLS = frozenset({"find", "findAll"})


class _Refused(Exception):
    """The planner's error."""


def instantiation_error(checked: CheckedRule) -> str:
    """The planner's error for the first constant it cannot evaluate, or "" (the
    server says ``program instantiation failed: <error>`` of a rule,
    ``messageExpression instantiation failed: <error>`` of a messageExpression)."""
    try:
        _plan(checked.root)
    except _Refused as refused:
        return str(refused)
    return ""


def _plan(node: Node) -> str | None:
    """Plan ``node``'s subtree: its CEL text when it is a constant (a literal, or a
    list, map or conversion of constants), else None."""
    if node.comprehension is not None:
        parts = node.comprehension
        for part in (
            parts.iter_range,
            parts.accu_init,
            parts.loop_condition,
            parts.loop_step,
            parts.result,
        ):
            _plan(part)
        return None
    if node.kind == "const":
        return _literal(node)
    if node.kind == "list":
        texts = [_plan(element) for element in node.elements]
        if node.optional_indices or any(text is None for text in texts):
            return None
        return "[" + ", ".join(texts) + "]"  # type: ignore[arg-type]
    if node.kind == "map":
        pairs = [(_plan(key), _plan(value), optional) for key, value, optional in node.entries]
        if any(key is None or value is None or optional for key, value, optional in pairs):
            return None
        return "{" + ", ".join(f"{key}: {value}" for key, value, _ in pairs) + "}"
    texts = [_plan(child) for child in node.children]
    if node.kind != "call":
        return None
    if node.function in _CONVERSIONS and node.target is None and len(node.args) == 1:
        (argument,) = texts
        if argument is None:
            return None
        text = f"{node.function}({argument})"
        _evaluate(text)
        return text
    if node.function in _REGEX_CALLS and len(node.children) == 2:
        pattern = node.children[1]
        if pattern.kind == "const" and pattern.value is not None and pattern.value.kind == "string":
            _compile_pattern(pattern.value.value)
    return None


def _evaluate(text: str) -> None:
    """Run the constant expression ``text``; its error is the planner's."""
    from kubectl_crd.validation.cel.programs import compile_rule, run
    from kubectl_crd.validation.cel.tree import Rule

    compiled = compile_rule(Rule(text))
    if compiled.error or compiled.program is None:
        return  # not one this engine compiles alone: left to the runtime
    outcome = run(compiled.program, {"__hasOldSelf": False})
    if outcome.error:
        raise _Refused(outcome.error)


def _compile_pattern(pattern: str) -> None:
    from kubectl_crd.validation.regexps import error, go_error_text, go_regexp

    try:
        go_regexp(pattern)
    except error as exc:
        raise _Refused(go_error_text(exc)) from None


def _literal(node: Node) -> str | None:
    """A constant node as CEL source."""
    constant = node.value
    if constant is None:
        return None
    kind, value = constant.kind, constant.value
    if kind == "null":
        return "null"
    if kind == "bool":
        return "true" if value else "false"
    if kind == "int":
        return str(value - (1 << 64) if value >= 1 << 63 else value)
    if kind == "uint":
        return f"{value}u"
    if kind == "double":
        number = struct.unpack("<d", value)[0] if isinstance(value, bytes) else float(value)
        if number != number or number in (float("inf"), float("-inf")):
            return None
        return repr(number)
    if kind == "string":
        return json.dumps(value, ensure_ascii=False)
    if kind == "bytes":
        return "b'" + "".join(f"\\x{byte:02x}" for byte in value) + "'"
    return None
