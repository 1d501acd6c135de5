"""The CEL stage: every rule of a schema run against an object, as the API server runs them.

``apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go``: at each node, its
rules in order, then its allOf branches' rules, then the items or the properties and
additionalProperties below; never on a null value. A rule that uses ``oldSelf`` (a
transition rule) runs only on an update where the old object has a value at the same
place (map keys for maps and objects that are not atomic, map keys for
``x-kubernetes-list-type: map`` lists), or with ``optionalOldSelf`` always.

On an update, an error of a rule that is not a transition rule, at a value equal to its
old value, is ratcheted: the server sends it as a warning, not an error
(``ratchetingOptions.shouldRatchetError``).

The server visits the keys of a map in Go's random order; here they are visited in the
order they are written, so the output is the same on every run.

Runtime cost: a rule whose run costs more than ``PER_CALL_LIMIT`` stops the rules, and
so does an object whose runs together cost more than ``RUNTIME_COST_BUDGET``, with the
server's messages. cel-cpp counts no cost; counting it (``runtime_cost``) makes a run
about twice as slow. So the first ``COUNTED_RUNS`` objects of a schema are counted;
after them the rules run uncounted, adding up each node's estimate (its rules' and
messages' estimated costs, ``typing.estimate_rules``: the estimate the server checks
when the CRD is written, an upper bound, worth computing once many objects share it);
only when that sum could break a limit, or a rule has no estimate or one over the
per-call limit, or the object failed its schema (its sizes may exceed the schema's
bounds), do they run again, counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from kubectl_crd.model.govalues import go_quote
from kubectl_crd.validation import paths
from kubectl_crd.validation.cel.programs import (
    Bindings,
    CompiledRule,
    Outcome,
    compiled_rules,
    run,
    run_costed,
)
from kubectl_crd.validation.cel.splitting import ITERATION_BUDGET, run_split
from kubectl_crd.validation.cel.tree import NOT_ESTIMATED, RuleNode, rule_tree
from kubectl_crd.validation.cel.values import Conversions, InvalidFormat, to_cel
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.paths import Chain
from kubectl_crd.validation.results import Reason

# config.go: MaxEvaluatedMessageExpressionSizeBytes
MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024
# apiserver/pkg/apis/cel/config.go: PerCallLimit, RuntimeCELCostBudget
PER_CALL_LIMIT = 1_000_000
RUNTIME_COST_BUDGET = 10_000_000

_OUT_OF_BUDGET = (
    "validation failed due to running out of cost budget, no further validation rules will be run"
)
_MESSAGE_OUT_OF_BUDGET = (
    "messageExpression evaluation failed due to running out of cost budget, "
    "no further validation rules will be run"
)
_CANCELLED = "operation cancelled: actual cost limit exceeded"


@dataclass(frozen=True, slots=True)
class RuleError:
    """One field error of a rule, with where it points in the object."""

    field: str
    reason: str
    message: str
    chain: Chain
    transition: bool = False


@dataclass(slots=True)
class RuleResults:
    errors: list[RuleError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # exact: each run's cost is counted and charged to ``remaining``; else each node's
    # estimate is added to ``estimated`` to see whether counting is needed
    exact: bool = False
    remaining: int = RUNTIME_COST_BUDGET
    estimated: int = 0
    stopped: bool = False  # no further rule runs (out of budget, or counting is needed)
    needs_exact: bool = False
    # the object's values as converted for the engine (values.to_cel's memo)
    converted: Conversions = field(default_factory=dict)
    # the values of its formatted strings that do not convert (values.InvalidFormat)
    invalid: list[InvalidFormat] = field(default_factory=list)


#: Objects of a schema whose runs are all counted before estimates take over: typing a
#: schema's rules for their estimates costs more (up to 150 ms for a Gateway API route)
#: than counting a few objects' runs.
COUNTED_RUNS = 200


def run_rules(schema: Any, obj: Any, old: Any = None, *, exact: bool = False) -> RuleResults:
    """Every rule of ``schema`` (a version's openAPIV3Schema) against ``obj``.

    ``old`` is the stored object on an update; transition rules and ratcheting apply then.
    ``exact``: count every run's cost (the object may break the schema's size bounds).
    """
    tree = rule_tree(schema)
    if tree is None:
        return RuleResults()
    tree.runs += 1
    if not exact and tree.runs > COUNTED_RUNS:
        if tree.estimate == NOT_ESTIMATED:
            from kubectl_crd.validation.cel.typing import estimate_rules

            estimate_rules(schema, PER_CALL_LIMIT)
        estimated = RuleResults()
        _validate(tree, obj, old, None, old is not None, estimated, ratchet_parent=False)
        if not estimated.needs_exact:
            return estimated
        results = RuleResults(exact=True, converted=estimated.converted)
        _validate(tree, obj, old, None, old is not None, results, ratchet_parent=False)
        return results
    results = RuleResults(exact=True)
    _validate(tree, obj, old, None, old is not None, results, ratchet_parent=False)
    return results


def rules_on_default(schema: Any, default: Any) -> RuleResults:
    """The rules of ``schema`` (one node of a CRD's schema) and below against its
    ``default``, as the server checks a CRD's defaults (``defaulting/validation.go``):
    once with the default as its own old value, then, when that passes, as a create
    (what a rule with ``optionalOldSelf`` sees); no ratcheting (the check passes no
    correlated object)."""
    from kubectl_crd.validation.cel.tree import subtree_rules
    from kubectl_crd.validation.cel.typing import uncompiled_rules

    results = RuleResults(exact=True)
    tree = subtree_rules(schema)
    if tree is None:
        return results
    # the server's validator compiles each rule against its node's type: one that does
    # not type-check is a "rule compile error" (where our untyped programs would run it)
    failing: dict[int, tuple[RuleNode, dict[int, str]]] = {}
    for node, index, detail in uncompiled_rules(tree):
        failing.setdefault(id(node), (node, {}))[1][index] = detail
    for node, errors in failing.values():
        node.programs = tuple(
            CompiledRule(c.rule, error=errors[i], transition=c.transition) if i in errors else c
            for i, c in enumerate(compiled_rules(node))
        )
    _validate(tree, default, default, None, False, results, ratchet_parent=False)
    if not results.errors and not results.stopped:
        _validate(tree, default, None, None, False, results, ratchet_parent=False)
    return results


def _equal(value: Any, old: Any) -> bool:
    """``CachedDeepEqual`` of decoded JSON (Go's DeepEqual tells 1 from 1.0 and true)."""
    if type(value) is not type(old):
        return False
    if isinstance(value, dict):
        return value.keys() == old.keys() and all(_equal(value[k], old[k]) for k in value)
    if isinstance(value, list):
        return len(value) == len(old) and all(_equal(a, b) for a, b in zip(value, old, strict=True))
    return bool(value == old)


#: ``self == oldSelf`` (either way round, spaces and parentheses aside): the usual
#: immutability rule, evaluated by ``schema_equal`` instead of the engine
_IMMUTABILITY = re.compile(r"\s*\(?\s*(self\s*==\s*oldSelf|oldSelf\s*==\s*self)\s*\)?\s*")


def schema_equal(value: Any, old: Any, schema: SchemaNode | None) -> bool:
    """CEL's ``==`` on two values of ``schema`` as Kubernetes gives them to rules
    (``apiserver/pkg/cel/common/values.go``): a ``x-kubernetes-list-type: set`` list
    equals another with the same elements in any order, a ``map`` list one with the
    same entries by key in any order (``unstructuredSetList``/``unstructuredMapList``
    ``Equal``); objects field by field, other lists in order; numbers across int and
    double; ``true`` is not ``1``."""
    if isinstance(value, dict) and isinstance(old, dict):
        if value.keys() != old.keys():
            return False
        for key, item in value.items():
            sub = None
            if schema is not None:
                sub = schema.properties.get(key) if schema.properties else None
                sub = sub if sub is not None else schema.additional
            if not schema_equal(item, old[key], sub):
                return False
        return True
    if isinstance(value, list) and isinstance(old, list):
        if len(value) != len(old):
            return False
        items = schema.items if schema is not None else None
        list_type = schema.list_type if schema is not None else None
        if list_type == "set":
            return all(any(schema_equal(a, b, items) for b in old) for a in value)
        if list_type == "map" and schema is not None and schema.map_keys:
            keys = schema.map_keys
            by_key = {tuple(repr(b.get(k)) for k in keys): b for b in old if isinstance(b, dict)}
            for a in value:
                if not isinstance(a, dict):
                    return False
                match = by_key.get(tuple(repr(a.get(k)) for k in keys))
                if match is None or not schema_equal(a, match, items):
                    return False
            return True
        return all(schema_equal(a, b, items) for a, b in zip(value, old, strict=True))
    if isinstance(value, bool) or isinstance(old, bool):
        return isinstance(value, bool) and isinstance(old, bool) and value == old
    if isinstance(value, (int, float)) and isinstance(old, (int, float)):
        return value == old
    return type(value) is type(old) and bool(value == old)


def _validate(
    node: RuleNode,
    value: Any,
    old: Any,
    chain: Chain,
    correlated: bool,
    results: RuleResults,
    *,
    ratchet_parent: bool,
) -> None:
    if value is None or results.stopped:
        return
    # cel/validation.go ratchetingOptions: a node its old value correlates with ratchets
    # its rules' errors when it equals that value; one that correlates with none (an
    # item of a list that is not a map list, and all below it) by its nearest correlated
    # ancestor's equality, which it hands down as its own
    ratchet = _equal(value, old) if correlated and old is not None else ratchet_parent
    if node.rules:
        _expressions(node, value, old, chain, ratchet, results)
    for branch in node.all_of:
        # allOf errors are not ratcheted on their own value (validation.go passes
        # only the nearest parent's correlation)
        _validate(branch, value, old, chain, False, results, ratchet_parent=ratchet_parent)
    if isinstance(value, list):
        old_list = old if isinstance(old, list) else None
        _array(node, value, old_list, chain, correlated, results, ratchet)
    elif isinstance(value, dict):
        old_map = old if isinstance(old, dict) else None
        _map(node, value, old_map, chain, correlated, results, ratchet)


def _map(
    node: RuleNode,
    value: dict[str, Any],
    old: dict[str, Any] | None,
    chain: Chain,
    correlated: bool,
    results: RuleResults,
    ratchet: bool,
) -> None:
    # every map correlates its keys with the old map's, atomic ones too
    # (cel/validation.go: validateMap, MapIsCorrelatable)
    keep_old = old is not None
    root = chain is None
    if node.additional is not None:
        for key, item in value.items():
            old_item = old.get(key) if keep_old and old is not None else None
            _validate(
                node.additional,
                item,
                old_item,
                paths.map_key(chain, key),
                correlated and keep_old and old is not None and key in old,
                results,
                ratchet_parent=ratchet,
            )
    if node.properties:
        for key, item in value.items():
            sub = node.properties.get(key)
            if sub is None:
                continue
            old_item = old.get(key) if keep_old and old is not None else None
            visible = not (root and key in ("apiVersion", "kind"))
            _validate(
                sub,
                item,
                old_item,
                paths.child(chain, key),
                correlated and visible and keep_old and old is not None and key in old,
                results,
                ratchet_parent=ratchet,
            )


def _array(
    node: RuleNode,
    value: list[Any],
    old: list[Any] | None,
    chain: Chain,
    correlated: bool,
    results: RuleResults,
    ratchet: bool,
) -> None:
    if node.items is None:
        return
    keys = node.schema.map_keys if node.schema.list_type == "map" else ()
    old_by_key: dict[tuple[Any, ...], Any] = {}
    if keys and old is not None:
        for item in old:
            if isinstance(item, dict):
                old_by_key.setdefault(tuple(item.get(k) for k in keys), item)
    for position, item in enumerate(value):
        old_item = None
        if keys and isinstance(item, dict):
            old_item = old_by_key.get(tuple(item.get(k) for k in keys))
        _validate(
            node.items,
            item,
            old_item,
            paths.index(chain, position),
            correlated and old_item is not None,
            results,
            ratchet_parent=ratchet,
        )


def _expressions(
    node: RuleNode,
    value: Any,
    old: Any,
    chain: Chain,
    ratchet: bool,
    results: RuleResults,
) -> None:
    if results.exact:
        if results.remaining <= 0:
            _stop(results, _invalid(node, chain, _OUT_OF_BUDGET))
            return
    else:
        estimate = node.estimate
        if estimate is None or estimate < 0:
            results.needs_exact = results.stopped = True
            return
        results.estimated += estimate
        if results.estimated > RUNTIME_COST_BUDGET:
            results.needs_exact = results.stopped = True
            return
    memo, invalid = results.converted, results.invalid
    self_value = to_cel(value, node.schema, node.resource_root, memo, invalid)
    old_value = (
        to_cel(old, node.schema, node.resource_root, memo, invalid) if old is not None else None
    )
    variables: dict[str, Any] = {"self": self_value, "__hasOldSelf": old is not None}
    if old is not None:
        variables["oldSelf"] = old_value
        variables["__oldSelf"] = old_value
    unreadable: _Unreadable | None = None
    if invalid:
        variables, unreadable = _unreadable(variables)
    programs = compiled_rules(node)
    # one Activation for all the node's programs; a lone program is given the variables
    # as they are (it converts them once either way, and an Activation costs ~2 us more)
    data: dict[str, Any] | Bindings = Bindings(variables) if len(programs) > 1 else variables
    for compiled in programs:
        rule = compiled.rule
        if compiled.error:
            results.errors.append(_invalid(node, chain, f"rule compile error: {compiled.error}"))
            continue
        if compiled.transition and old is None and not rule.optional_old_self:
            continue
        if old is not None and _IMMUTABILITY.fullmatch(rule.rule):
            # the engine's lists are ordered; the server's set and map lists are not
            outcome = Outcome(value=schema_equal(value, old, node.schema))
            cost: int | None = _immutability_cost(value, old) if results.exact else None
        else:
            outcome, cost = _evaluate(
                compiled.program, compiled.source, data, results, node.estimate
            )
            if unreadable is not None:
                outcome = unreadable.outcome(compiled.program, outcome)
        if not _charge(results, cost):
            _stop(results, _invalid(node, chain, _OUT_OF_BUDGET))
            return
        if cost is not None and cost > PER_CALL_LIMIT:
            detail = (
                f"'{_CANCELLED}': no further validation rules will be run due to call cost "
                f"exceeds limit for rule: {rule.error_string}"
            )
            _stop(results, _invalid(node, chain, detail))
            return
        if outcome.value is True:
            continue
        if outcome.error:
            if outcome.error.startswith("no such overload"):
                detail = (
                    f"'{outcome.error}': call arguments did not match a supported operator, "
                    f"function or macro signature for rule: {rule.error_string}"
                )
            else:
                detail = f"{outcome.error} evaluating rule: {rule.error_string}"
            results.errors.append(_invalid(node, chain, detail, compiled.transition))
            continue
        at = _rule_chain(chain, rule.field_path, node.schema)
        message, stop = _message(compiled, data, results)
        if stop:
            # an Invalid messageExpression error (the budget, the per-call limit): the
            # rules stop after it
            error = _invalid(node, at, stop)
        else:
            detail = message or rule.default_message
            type_value = go_quote(node.type_name)
            error = _reason_error(paths.field_path(at), type_value, detail, rule.reason, at)
        error = RuleError(error.field, error.reason, error.message, at, compiled.transition)
        if not compiled.transition and ratchet:
            results.warnings.append(error.message)
        else:
            results.errors.append(error)
        if stop:
            results.stopped = True
            return


#: what a value the engine cannot take says of itself in the engine's error
#: (``Non-CEL value type for 'self['d'] -> <repr>': <type>``)
_UNREADABLE_MARK = "kubectl-crd-invalid-format:"
_UNREADABLE = re.compile(re.escape(_UNREADABLE_MARK) + r"(\d+)")
#: a variable that is a marker itself is named without its repr
_UNREADABLE_VARIABLE = re.compile(r"Non-CEL value type for '(\w+)': _Marker\b")


class _Marker:
    """Where an ``InvalidFormat`` was, in the variables of ``_Unreadable.strict``: a
    value the engine refuses when it converts the map or list holding it."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __repr__(self) -> str:
        return f"{_UNREADABLE_MARK}{self.index}"


class _Unreadable:
    """A node's variables holding values that do not convert (``InvalidFormat``). The
    server converts an object's fields as a rule reads them, and a field that does not
    convert is an error value there (``valuesunstructured.go``); the engine converts a
    whole map or list when a rule first touches it, and takes no error values. So each
    rule runs on the strings as they are (the variables ``_unreadable`` gives back),
    then again on ``strict``, markers in their place: where that run fails on a marker
    and the rule reads a field of that name (``checked.read_fields``: not a presence
    test), the rule's outcome is that field's error, unless the first run answered and
    a run with nulls in their place (``nulled``: present to ``has``, refused by any
    use) answers the same; else the first run's."""

    __slots__ = ("found", "nulled", "strict")

    def __init__(
        self, strict: dict[str, Any], nulled: dict[str, Any], found: list[InvalidFormat]
    ) -> None:
        self.strict = strict
        self.nulled = nulled
        self.found = found

    def outcome(self, program: Any, first: Outcome) -> Outcome:
        error = run(program, self.strict).error
        marked = _UNREADABLE.search(error)
        if marked is not None:
            index = int(marked.group(1))
        else:  # a variable that is a marker (a node's own value) is named, not shown
            variable = _UNREADABLE_VARIABLE.search(error)
            marker = self.strict.get(variable.group(1)) if variable is not None else None
            if type(marker) is not _Marker:
                return first
            index = marker.index
        reads = _read_fields(program)
        if "__oldSelf" in reads:
            reads = reads | {"oldSelf"}
        readable = [each for each in self.found if each.field in reads]
        if not readable:
            return first
        if not first.error and run(program, self.nulled) == first:
            # the same answer with nulls there, which no use of a value takes: the rule
            # never got to them (a short circuit: ``has(self.x) || self.d < ...``)
            return first
        hit = self.found[index]
        chosen = hit if any(each is hit for each in readable) else readable[0]
        return Outcome(error=chosen.message)


def _unreadable(variables: dict[str, Any]) -> tuple[dict[str, Any], _Unreadable | None]:
    """The variables with each ``InvalidFormat`` as its string, and the ``_Unreadable``
    that runs the rules strictly (None: none in these variables)."""
    found: list[InvalidFormat] = []
    indices: dict[int, int] = {}  # by identity: two equal values may be two fields
    plain, strict, nulled = 0, 1, 2

    def swapped(value: Any, mode: int) -> Any:
        if type(value) is InvalidFormat:
            if mode == strict:
                return _Marker(indices[id(value)])
            if mode == nulled:
                return None
            if id(value) not in indices:
                indices[id(value)] = len(found)
                found.append(value)
            return value.text
        if type(value) is dict:
            return {key: swapped(item, mode) for key, item in value.items()}
        if type(value) is list:
            return [swapped(item, mode) for item in value]
        return value

    for name, value in variables.items():
        if type(value) is InvalidFormat and not value.field:
            # the node's own value: read where the rule names the variable (the
            # optional rewrite's __oldSelf is oldSelf)
            value.field = name.removeprefix("__")
    as_strings = {name: swapped(value, plain) for name, value in variables.items()}
    if not found:
        return variables, None
    markers = {name: swapped(value, strict) for name, value in variables.items()}
    as_nulls = {name: swapped(value, nulled) for name, value in variables.items()}
    return as_strings, _Unreadable(markers, as_nulls, found)


_READ_FIELDS: dict[int, tuple[Any, frozenset[str]]] = {}


def _read_fields(program: Any) -> frozenset[str]:
    """``checked.read_fields`` of a program, read once."""
    cached = _READ_FIELDS.get(id(program))
    if cached is None or cached[0] is not program:
        from kubectl_crd.validation.cel.checked import read_checked, read_fields

        cached = _READ_FIELDS[id(program)] = (
            program,
            read_fields(read_checked(program.serialize())),
        )
    return cached[1]


def _evaluate(
    program: Any,
    source: str,
    data: dict[str, Any] | Bindings,
    results: RuleResults,
    estimate: int | None = None,
) -> tuple[Outcome, int | None]:
    """A run of ``program`` (a rule's or a message's), with its cost when the results
    count (else ``None``). A run the engine's iteration cap stopped is run again a loop element at
    a time where the rule allows it (``splitting``: cel-go has no such cap); no longer
    bounded by that cap, it is by the per-call limit, as on the server: counted, and
    told when past the limit, unless the node's estimate (of all its rules) is within
    the limit, which bounds the run already."""
    if results.exact:
        outcome, cost = run_costed(program, source, data)
    else:
        outcome, cost = run(program, data), None
    if not outcome.error.startswith(ITERATION_BUDGET):
        return outcome, cost
    bounded = not results.exact and estimate is not None and 0 <= estimate <= PER_CALL_LIMIT
    split = run_split(source, data, None if bounded else PER_CALL_LIMIT)
    if split is None:
        return outcome, cost
    outcome, split_cost = split
    return outcome, split_cost if results.exact or split_cost > PER_CALL_LIMIT else None


def _charge(results: RuleResults, cost: int | None) -> bool:
    """Charge a counted run to the budget; False when it costs more than what is left
    (``validation.go``: the rules stop there). An uncounted run (estimated per node,
    or a program the tracer could not rewrite) is not charged."""
    if cost is None:
        return True
    charged = PER_CALL_LIMIT + 1 if cost > PER_CALL_LIMIT else cost  # cancelled at the limit
    if charged > results.remaining:
        return False
    results.remaining -= charged
    return True


def _invalid(node: RuleNode, chain: Chain, detail: str, transition: bool = False) -> RuleError:
    """``field.Invalid(fldPath, sts.Type, detail)``: the value shown is the node's type."""
    where = paths.field_path(chain)
    message = f"{where}: Invalid value: {go_quote(node.type_name)}: {detail}"
    return RuleError(where, Reason.INVALID, message, chain, transition)


def _stop(results: RuleResults, error: RuleError) -> None:
    results.errors.append(error)
    results.stopped = True


def _immutability_cost(value: Any, old: Any) -> int:
    """``self == oldSelf``: two variables and ``_==_`` (``runtime_cost.call_cost``)."""
    from kubectl_crd.validation.cel.runtime_cost import call_cost

    return 2 + call_cost("_==_", [value, old])


def _message(
    compiled: CompiledRule, data: dict[str, Any] | Bindings, results: RuleResults
) -> tuple[str, str]:
    """``validation.go: evalMessageExpression``: the message ("" falls back to the rule's
    message), and the detail of an error that stops the rules (the budget, the per-call
    limit), else ""."""
    if compiled.message_program is None:
        return "", ""
    outcome, cost = _evaluate(compiled.message_program, compiled.message_source, data, results)
    if not _charge(results, cost):
        return "", _MESSAGE_OUT_OF_BUDGET
    if cost is not None and cost > PER_CALL_LIMIT:
        expression = go_quote(compiled.rule.message_expression)
        return "", (
            "no further validation rules will be run due to call cost exceeds limit for "
            f"messageExpression: {expression}"
        )
    if outcome.error or not isinstance(outcome.value, str):
        return "", ""
    text = outcome.value.strip()
    if not text or "\n" in text or len(text.encode()) > MAX_MESSAGE_EXPRESSION_BYTES:
        return "", ""
    return text, ""


def _reason_error(where: str, type_value: str, detail: str, reason: str, at: Chain) -> RuleError:
    """``validation.go: fieldErrorForReason``."""
    if reason == Reason.FORBIDDEN:
        return RuleError(where, reason, f"{where}: Forbidden: {detail}", at)
    if reason == Reason.REQUIRED:
        return RuleError(where, reason, f"{where}: Required value: {detail}", at)
    if reason == Reason.DUPLICATE:
        return RuleError(where, reason, f"{where}: Duplicate value: {type_value}", at)
    return RuleError(where, Reason.INVALID, f"{where}: Invalid value: {type_value}: {detail}", at)


def _rule_chain(chain: Chain, field_path: str, schema: SchemaNode | None) -> Chain:
    """The rule's ``fieldPath`` (``.a.b``, ``['k']``) appended (``ValidFieldPath``).

    A step names a property where the schema has properties, else it is a key of
    the additionalProperties map (printed ``[key]``).
    """
    if not field_path:
        return chain
    for name, _ in paths.field_path_steps(field_path) or []:
        if schema is not None and schema.properties:
            chain = paths.child(chain, name)
            schema = schema.properties.get(name)
        else:
            chain = paths.map_key(chain, name)
            schema = schema.additional if schema is not None else None
    return chain
