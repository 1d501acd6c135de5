"""The runtime cost of one rule evaluation, as cel-go's ``CostTracker`` counts it.

The API server stops a rule whose evaluation costs more than the per-call limit, and
an object whose rules together cost more than the per-object budget
(``apiextensions-apiserver``'s ``schema/cel/validation.go``). cel-cpp keeps no cost,
so a program is *traced*: its checked syntax tree (``Expression.serialize()``) is
rewritten and run again, with calls into Python that count what ran.

Counting every node would cost a call per node; instead the tree is cut into
*scopes*, the parts that run the same number of times: the second operand of ``&&``
and ``||``, the branches of ``?:``, a comprehension's loop condition and loop step
each start one, counted by wrapping it as ``__tick(scope) ? e : null`` (``__tick``
answers true, so ``e`` runs once and keeps its type; nothing is converted). A node
costs what cel-go's planner makes of it and ``interpreter/runtimecost.go`` charges
(``_Rewriter`` says how: attributes and their qualifiers, presence tests, optional
qualifiers only when present, constants folded by ``OptOptimize``, ``&&``, ``||``,
``?:`` and comprehensions free, a list literal 10, a map 30, a call 1), times its
scope's count. A call whose
cost depends on its arguments' sizes (``==``, ``matches``, ``startsWith``, the
Kubernetes library's string and list functions...) has its operands bound to
variables and handed to ``__measure`` before the call (``cel.bind``'s comprehension);
a value Python cannot take (an optional, an IP) is not measured, and counts as size 1,
as ``actualSize`` counts a value that is not a ``Sizer``. ``call_cost`` mirrors
``CostTracker.costCall`` with the Kubernetes estimator (``apiserver/pkg/cel/library/
cost.go: CallCost``) and the sets extension's trackers.

Where this differs from cel-go: an evaluation that fails part way is counted as if
the rest of its scope ran (the rule fails either way); cel-go cancels a rule at the
step that crosses the per-call limit, here the cost of a rule over the limit is
reported as the limit plus one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from cel_expr_python import cel

from kubectl_crd.validation.cel.checked import (
    _fields,
    _signed,
    encode_fields,
    message_field,
    optional_escapes,
    read_checked,
    varint_field,
)
from kubectl_crd.validation.cel.cost import (
    ACCUMULATORS,
    LIST_CREATE,
    MAP_CREATE,
    MAX_NAME_FORMAT_REGEX_SIZE,
    ORIGINAL_NAMES,
    REGEX_STRING_LENGTH,
    STRING_TRAVERSAL,
    STRUCT_CREATE,
)
from kubectl_crd.validation.cel.library import gostrings
from kubectl_crd.validation.cel.library.conversions import CONVERSIONS
from kubectl_crd.validation.cel.library.indexing import INDEX_PAIRS
from kubectl_crd.validation.cel.library.lists import GUARD_ELEMENT

#: ``format.MaxRegexSize`` of each named format (``apiserver/pkg/cel/library/format.go``)
FORMAT_REGEX_SIZES = {
    "dns1123Label": 30,
    "dns1123Subdomain": 60,
    "dns1035Label": 30,
    "qualifiedName": 60,
    "dns1123LabelPrefix": 30,
    "dns1123SubdomainPrefix": 60,
    "dns1035LabelPrefix": 30,
    "labelValue": 40,
    "uri": 1103,
    "uuid": 70,  # len(strfmt.UUIDPattern)
    "byte": 84,
    "date": 71,  # len(strfmt.DateTimePattern)
    "datetime": 71,
}

#: Functions whose cost depends on their operands (cel-go's ``costCall`` cases, the
#: Kubernetes ``CallCost`` cases that read arguments, the sets trackers)
_MEASURED = frozenset(
    {
        "_==_", "_!=_", "_<_", "_<=_", "_>_", "_>=_", "_+_", "@in", "startsWith",
        "endsWith", "matches", "contains", "string", "bytes", "format", "__format", "strings.quote",
        "isSorted", "sum", "max", "min", "__indexOf", "__lastIndexOf", "url", "lowerAscii",
        "upperAscii", "substring", "__substring", "trim", "jsonpatch.escapeKey", "replace", "split",
        "join", "find", "findAll", "cidr", "isIP", "isCIDR", "ip", "ip.isCanonical",
        "containsIP", "containsCIDR", "quantity", "isQuantity", "semver", "isSemver",
        "__validate", "sets.contains", "sets.intersects", "sets.equivalent",
    }
)  # fmt: skip
#: and environment.runnable's rewording of a string() result (not a call cel-go makes)
_FREE_CALLS = frozenset({"_&&_", "_||_", "_?_:_"}) | {w for _, w, _ in gostrings.REWORDED}
_SETS_FACTORS = {"sets.contains": 1.0, "sets.intersects": 1.0, "sets.equivalent": 2.0}

# Expr fields (cel/expr/syntax.proto)
_ID, _CONST, _IDENT, _SELECT, _CALL, _LIST, _STRUCT, _COMPREHENSION = 2, 3, 4, 5, 6, 7, 8, 9
_MAX_OPERANDS = 8


_BOOL_TYPE = varint_field(3, 1)  # Type.primitive = BOOL
_INT_TYPE = varint_field(3, 2)  # Type.primitive = INT64
_NULL_TYPE = varint_field(2, 0)  # Type.null
_DYN_TYPE = message_field(1, b"")  # Type.dyn


# --------------------------------------------------------------------- the plan


@dataclass(frozen=True, slots=True)
class _Measured:
    """A call whose cost is computed from its operands at each evaluation."""

    function: str  # as the server names it
    operands: int  # the target, if any, and the arguments
    # ``validate``: the format's regex size, when the rule names the format
    format_regex_size: int = MAX_NAME_FORMAT_REGEX_SIZE


@dataclass
class CostPlan:
    """A rule's traced program, and what each scope's nodes cost per run."""

    program: Any
    scope_costs: list[int] = field(default_factory=list)  # scope -> cost of one run
    measured: list[_Measured] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Planned:
    """A rewritten node, and what cel-go's planner made of it: an *attribute* (a variable
    with its chain of fields and indexes) has a root whose cost (``root``) is paid only
    where the attribute is evaluated on its own, not where it extends a chain, qualifies
    an index or is a branch of ``?:``; a constant (``const``) may be folded."""

    code: bytes
    attr: bool = False
    root: int = 0
    const: bool = False


class _Rewriter:
    """Rewrites a checked tree for tracing and charges each node's cost to its scope,
    as cel-go plans and observes it (``interpreter/planner.go``, ``decorators.go``,
    ``runtimecost.go``): ``self.a.b`` is one attribute costing 1 for its root and 1 per
    qualifier; a presence test's qualifier costs 1 and its root nothing; ``a[b]``
    charges the qualifier, not ``b``'s root; a field of a call's result is a relative
    attribute (root 1); ``?:`` costs nothing nor do its attribute branches' roots;
    ``OptOptimize`` folds constant list and map literals and conversions of constants
    (cost 0) and turns ``x in [constants]`` into a set lookup (cost 0); ``or`` and
    ``orValue`` short-circuit at no cost."""

    def __init__(self, types: dict[int, bytes], first_id: int) -> None:
        self.types = types
        self.next_id = first_id
        self.references: list[tuple[int, tuple[str, ...]]] = []
        self.new_types: list[tuple[int, bytes]] = []
        self.scope_costs = [0]
        self.measured: list[_Measured] = []
        self.silent = 0  # inside what cel-go never evaluates: nothing is charged
        self.projecting = False  # an optional can land in a list or map: measure_projected

    def charge(self, scope: int, cost: int) -> None:
        if not self.silent:
            self.scope_costs[scope] += cost

    def new_id(self, type_bytes: bytes | None = None, *overloads: str) -> int:
        self.next_id += 1
        if type_bytes is not None:
            self.new_types.append((self.next_id, type_bytes))
        if overloads:
            self.references.append((self.next_id, overloads))
        return self.next_id

    def type_of(self, node_id: int) -> bytes:
        return self.types.get(node_id, _DYN_TYPE)

    # -- building -----------------------------------------------------------------

    def call(
        self,
        function: str,
        args: Sequence[bytes],
        type_bytes: bytes,
        *ids: str,
        target: bytes | None = None,
    ) -> bytes:
        node = self.new_id(type_bytes, *ids)
        payload = message_field(1, target) if target is not None else b""
        payload += message_field(2, function.encode()) + b"".join(message_field(3, a) for a in args)
        return varint_field(_ID, node) + message_field(_CALL, payload)

    def constant(self, kind: int, value: int, type_bytes: bytes) -> bytes:
        return varint_field(_ID, self.new_id(type_bytes)) + message_field(
            _CONST, varint_field(kind, value)
        )

    def ident(self, name: str, type_bytes: bytes) -> bytes:
        return varint_field(_ID, self.new_id(type_bytes)) + message_field(
            _IDENT, message_field(1, name.encode())
        )

    def counted(self, expr: bytes, expr_id: int, scope: int) -> bytes:
        """``__tick(scope) ? expr : null``: runs ``expr`` once, and counts it."""
        tick = self.call("__tick", [self.constant(3, scope, _INT_TYPE)], _BOOL_TYPE, "__tick_int")
        null = self.constant(1, 0, _NULL_TYPE)
        return self.call("_?_:_", [tick, expr, null], self.type_of(expr_id), "conditional")

    def new_scope(self) -> int:
        self.scope_costs.append(0)
        return len(self.scope_costs) - 1

    # -- rewriting ----------------------------------------------------------------

    def value(self, data: bytes, scope: int) -> bytes:
        """A node evaluated on its own: an attribute's root is paid."""
        planned = self.expr(data, scope)
        self.charge(scope, planned.root)
        return planned.code

    def counted_value(self, data: bytes) -> bytes:
        """A node that runs as often as it runs: a scope of its own, counted."""
        inner = self.new_scope()
        return self.counted(self.value(data, inner), _id_of(data), inner)

    def expr(self, data: bytes, scope: int) -> _Planned:
        node_id = 0
        for number, value in _fields(data):
            if number == _ID:
                node_id = _signed(value)
            elif number == _CONST:
                return _Planned(data, const=True)
            elif number == _IDENT:
                return _Planned(data, attr=True, root=1)
            elif number == _SELECT:
                return self.select(node_id, value, scope)
            elif number == _CALL:
                return self.call_expr(node_id, value, scope)
            elif number == _LIST:
                return self.literal(node_id, _LIST, value, scope)
            elif number == _STRUCT:
                return self.literal(node_id, _STRUCT, value, scope)
            elif number == _COMPREHENSION:
                return _Planned(
                    self.node(node_id, _COMPREHENSION, self.comprehension(value, scope))
                )
        return _Planned(data)

    @staticmethod
    def node(node_id: int, kind: int, payload: bytes) -> bytes:
        return varint_field(_ID, node_id) + message_field(kind, payload)

    def select(self, node_id: int, data: bytes, scope: int) -> _Planned:
        parts = _fields(data)
        test_only = any(n == 3 and v for n, v in parts)
        operand = next((v for n, v in parts if n == 1), b"")
        planned = self.expr(operand, scope)
        code = self.node(
            node_id, _SELECT, encode_fields([(n, planned.code if n == 1 else v) for n, v in parts])
        )
        self.charge(scope, 1)  # the field's qualifier (a presence test's too)
        if test_only:
            return _Planned(code, attr=True, root=0)  # the root is resolved, not observed
        return _Planned(code, attr=True, root=planned.root if planned.attr else 1)

    def literal(self, node_id: int, kind: int, data: bytes, scope: int) -> _Planned:
        parts = _fields(data)
        if kind == _STRUCT and any(n == 1 and v for n, v in parts):  # a message
            self.charge(scope, STRUCT_CREATE)
            out = [(n, self.entries(v, scope)[0] if n == 2 else v) for n, v in parts]
            return _Planned(self.node(node_id, kind, encode_fields(out)))
        folded = True
        out = []
        for number, value in parts:
            if kind == _LIST and number == 1:
                planned = self.expr(value, scope)
                self.charge(scope, planned.root)
                folded = folded and planned.const
                out.append((number, planned.code))
            elif kind == _LIST and number == 2:
                folded = False  # an optional element
                out.append((number, value))
            elif kind == _STRUCT and number == 2:
                code, constant = self.entries(value, scope)
                folded = folded and constant
                out.append((number, code))
            else:
                out.append((number, value))
        if not folded:
            self.charge(scope, LIST_CREATE if kind == _LIST else MAP_CREATE)
        return _Planned(self.node(node_id, kind, encode_fields(out)), const=folded)

    def entries(self, data: bytes, scope: int) -> tuple[bytes, bool]:
        constant = True
        out = []
        for number, value in _fields(data):
            if number in (3, 4):
                planned = self.expr(value, scope)
                self.charge(scope, planned.root)
                constant = constant and planned.const
                out.append((number, planned.code))
            else:
                constant = constant and not (number == 5 and value)
                out.append((number, value))
        return encode_fields(out), constant

    def comprehension(self, data: bytes, scope: int) -> bytes:
        out: list[tuple[int, Any]] = []
        if any(n == 1 and v == GUARD_ELEMENT.encode() for n, v in _fields(data)):
            # lists.guard_receivers' map: only its range, the receiver, is the server's
            return encode_fields(
                [(n, self.value(v, scope) if n == 2 else v) for n, v in _fields(data)]
            )
        for number, value in _fields(data):
            if number in (5, 6):  # the loop condition and step: once per iteration
                out.append((number, self.counted_value(value)))
            elif number in (2, 4, 7):
                out.append((number, self.value(value, scope)))
            else:
                out.append((number, value))
        return encode_fields(out)

    def call_expr(self, node_id: int, data: bytes, scope: int) -> _Planned:
        parts = _fields(data)
        function = next((v.decode() for n, v in parts if n == 2), "")
        target = next((v for n, v in parts if n == 1), None)
        args = [v for n, v in parts if n == 3]

        def rebuilt(codes: dict[int, bytes]) -> bytes:
            """The call with its operands (by position among fields) replaced."""
            payload = encode_fields([(n, codes.get(i, v)) for i, (n, v) in enumerate(parts)])
            return self.node(node_id, _CALL, payload)

        operand_positions = [i for i, (n, _) in enumerate(parts) if n in (1, 3)]
        if function == "_?_:_" and len(args) == 3:
            if _ident_name(args[0]) == "__hasOldSelf":
                # optionalOldSelf's rewrite of ``oldSelf``: the server reads one variable
                return _Planned(self.node(node_id, _CALL, data), attr=True, root=1)
            condition, truthy, falsy = operand_positions
            codes = {condition: self.value(args[0], scope)}
            for position, branch in ((truthy, args[1]), (falsy, args[2])):
                inner = self.new_scope()
                code = self.expr(branch, inner).code  # an attribute branch's root: free
                codes[position] = self.counted(code, _id_of(branch), inner)
            return _Planned(rebuilt(codes), attr=True, root=0)
        if function in ("_&&_", "_||_") and len(args) == 2:
            first, second = operand_positions
            codes = {first: self.value(args[0], scope), second: self.counted_value(args[1])}
            return _Planned(rebuilt(codes))
        if function in ("or", "orValue") and target is not None and len(args) == 1:
            first, second = operand_positions
            codes = {first: self.value(target, scope), second: self.counted_value(args[0])}
            return _Planned(rebuilt(codes))
        if function == "_[_]" and len(args) == 2 and _index_pair(args[0]) is not None:
            # indexing.in_engine's comprehension: charged as the call it stands for
            name, comprehension = _index_pair(args[0])  # type: ignore[misc]
            receiver, argument = _pair_operands(comprehension)

            def in_engine(variables: list[bytes]) -> bytes:
                return rebuilt({operand_positions[0]: _with_pair(args[0], variables)})

            return _Planned(
                self.measured_call(node_id, name, receiver, [argument], scope, make=in_engine)
            )
        if function in ("_[_]", "_[?_]", "_?._") and len(args) == 2:
            if _call_name(args[0]) in ("__validate", "format.__named"):
                # formats.rewrite's optional index: not in the server's expression
                wrapped = self.expr(args[0], scope)
                return _Planned(rebuilt({operand_positions[0]: wrapped.code}), root=wrapped.root)
            operand = self.expr(args[0], scope)
            index = self.expr(args[1], scope)  # a qualifier: an attribute's root is free
            root = operand.root if operand.attr else 1
            codes = {operand_positions[0]: operand.code, operand_positions[1]: index.code}
            if function == "_[_]":
                self.charge(scope, 1)
                return _Planned(rebuilt(codes), attr=True, root=root)
            # an optional qualifier is observed only when the field or key is there
            # (evalWatchConstQual.QualifyIfPresent)
            return _Planned(self.when_present(rebuilt(codes), node_id), attr=True, root=root)
        if function in _CONVERSIONS and len(args) == 1 and target is None:
            planned = self.expr(args[0], scope)
            if planned.const:
                return _Planned(rebuilt({operand_positions[0]: planned.code}), const=True)
            self.charge(scope, planned.root)
            self.charge(scope, 1)
            return _Planned(rebuilt({operand_positions[0]: planned.code}))
        if function == "@in" and len(args) == 2:
            members = _constant_members(args[1])
            if members is not None and not members:
                self.silent += 1  # folded to false: the element is never evaluated
                try:
                    code = rebuilt(
                        {
                            i: self.value(a, scope)
                            for i, a in zip(operand_positions, args, strict=True)
                        }
                    )
                finally:
                    self.silent -= 1
                return _Planned(code)
            if members is not None and all(members):
                # a set lookup: neither the list nor the lookup costs
                element = self.value(args[0], scope)
                return _Planned(
                    rebuilt({operand_positions[0]: element, operand_positions[1]: args[1]})
                )
        # a macro's list append is AddList, cost 1: not measured (no copy of the list per step)
        accumulating = function == "_+_" and bool(args) and _ident_name(args[0]) in ACCUMULATORS
        if function in _MEASURED and not accumulating and len(operand_positions) <= _MAX_OPERANDS:
            return _Planned(self.measured_call(node_id, function, target, args, scope))
        self.charge(scope, 1)
        return _Planned(rebuilt({i: self.value(parts[i][1], scope) for i in operand_positions}))

    def when_present(self, optional: bytes, node_id: int) -> bytes:
        """``optional`` with its qualifier's cost counted when it has a value:
        ``cel.bind(v, optional, !v.hasValue() || __tick(s) ? v : v)``."""
        scope = self.new_scope()
        self.charge(scope, 1)
        name = f"@present{scope}"
        optional_type = self.type_of(node_id)
        has_value = self.call(
            "hasValue", [], _BOOL_TYPE, "optional_hasValue", target=self.ident(name, optional_type)
        )
        absent = self.call("!_", [has_value], _BOOL_TYPE, "logical_not")
        tick = self.call("__tick", [self.constant(3, scope, _INT_TYPE)], _BOOL_TYPE, "__tick_int")
        counted = self.call("_||_", [absent, tick], _BOOL_TYPE, "logical_or")
        body = self.call(
            "_?_:_",
            [counted, self.ident(name, optional_type), self.ident(name, optional_type)],
            optional_type,
            "conditional",
        )
        return self.bind(name, optional, body, optional_type)

    def projected(self, name: str) -> bytes:
        """``_PROJECTION`` of the variable ``name``, its nodes numbered anew."""
        expr, types, references = _projection()

        def renumbered(data: bytes) -> bytes:
            out: list[tuple[int, Any]] = []
            for number, value in _fields(data):
                if number == _ID:
                    old = _signed(value)
                    value = self.new_id(types.get(old, _DYN_TYPE), *references.get(old, ()))
                elif number == _IDENT and _ident_name(data) == _PROJECTED:
                    value = message_field(1, name.encode())
                elif number in (_SELECT, _CALL, _LIST, _COMPREHENSION):
                    nested = _NESTED[number]
                    value = encode_fields(
                        [(n, renumbered(v) if n in nested else v) for n, v in _fields(value)]
                    )
                out.append((number, value))
            return encode_fields(out)

        return renumbered(expr)

    def bind(self, name: str, value: bytes, body: bytes, result_type: bytes) -> bytes:
        """``cel.bind(name, value, body)``: the comprehension the macro expands to."""
        comprehension = encode_fields(
            [
                (1, b"#unused"),
                (2, self.node(self.new_id(_DYN_TYPE), _LIST, b"")),
                (3, name.encode()),
                (4, value),
                (5, self.constant(2, 0, _BOOL_TYPE)),
                (6, self.ident(name, self.type_of(_id_of(value)))),
                (7, body),
            ]
        )
        return self.node(self.new_id(result_type), _COMPREHENSION, comprehension)

    def measured_call(
        self,
        node_id: int,
        function: str,
        target: bytes | None,
        args: list[bytes],
        scope: int,
        make: Callable[[list[bytes]], bytes] | None = None,
    ) -> bytes:
        """``cel.bind`` each operand, measure them, then make the call on the variables
        (``make`` builds it from them, where the engine runs another expression)."""
        index = len(self.measured)
        name = ORIGINAL_NAMES.get(function, function)
        size = MAX_NAME_FORMAT_REGEX_SIZE
        if name == "validate" and target is not None:
            size = FORMAT_REGEX_SIZES.get(_format_name(target) or "", size)
        operands = ([target] if target is not None else []) + args
        self.measured.append(_Measured(name, len(operands), size))
        names = [f"@cost{index}_{j}" for j in range(len(operands))]
        types = [self.type_of(_id_of(o)) for o in operands]
        variables = [self.ident(n, t) for n, t in zip(names, types, strict=True)]
        call_parts = []
        if target is not None:
            call_parts.append(message_field(1, variables[0]))
        call_parts.append(message_field(2, function.encode()))
        call_parts += [message_field(3, v) for v in variables[1 if target is not None else 0 :]]
        call = self.node(node_id, _CALL, b"".join(call_parts)) if make is None else make(variables)
        done = self.call("__done", [self.constant(3, index, _INT_TYPE)], _BOOL_TYPE, "__done_int")
        condition = done
        for j in reversed(range(len(operands))):
            code = self.constant(3, index * _MAX_OPERANDS + j, _INT_TYPE)
            operand = (
                self.projected(names[j]) if self.projecting else self.ident(names[j], types[j])
            )
            measure = self.call("__measure", [code, operand], _BOOL_TYPE, *_MEASURE_OVERLOADS)
            absorbed = self.call(
                "_||_", [measure, self.constant(2, 1, _BOOL_TYPE)], _BOOL_TYPE, "logical_or"
            )
            condition = self.call("_&&_", [absorbed, condition], _BOOL_TYPE, "logical_and")
        result_type = self.type_of(node_id)
        body = self.call(
            "_?_:_", [condition, call, self.constant(1, 0, _NULL_TYPE)], result_type, "conditional"
        )
        bound = [self.value(operand, scope) for operand in operands]  # evaluated in order
        for j in reversed(range(len(operands))):
            body = self.bind(names[j], bound[j], body, result_type)
        return body


#: which fields of a select, call, list and comprehension are expressions
_NESTED = {_SELECT: (1,), _CALL: (1, 3), _LIST: (1,), _COMPREHENSION: (2, 4, 5, 6, 7)}

#: What is measured in place of an operand where an optional can land in a list or a
#: map (``checked.optional_escapes``): the engine converting one for ``__measure`` kills
#: the process. A list becomes a list as long (what ``_size`` reads) of its strings
#: and bytes and a 0 for any other value (what ``_traversal`` reads: 1 for a value that
#: is no ``Sizer``), a map a list of its entries as [key, value] (``traversalCost``
#: walks both); a list or a map in it likewise; deeper than that a container counts 1.
#: An optional becomes 0 (size 1 either way).
_PROJECTED = "__v"
_LEAF = "type({0}) == string || type({0}) == bytes ? dyn({0}) : dyn(0)"
_INNER = (
    "type({0}) == list ? dyn(dyn({0}).map(__f, " + _LEAF.format("__f") + ")) : "
    "type({0}) == map ? dyn(dyn({0}).map(__f, [" + _LEAF.format("__f") + ", "
    + _LEAF.format("dyn({0})[__f]") + "])) : " + _LEAF
)  # fmt: skip
_PROJECTION = (
    f"type({_PROJECTED}) == list ? dyn(dyn({_PROJECTED}).map(__e, {_INNER.format('__e')}))"
    f" : type({_PROJECTED}) == map ? dyn(dyn({_PROJECTED}).map(__e, [{_LEAF.format('__e')}, "
    f"{_INNER.format(f'dyn({_PROJECTED})[__e]')}]))"
    f" : type({_PROJECTED}) == optional_type ? dyn(0) : {_PROJECTED}"
)


@cache
def _projection() -> tuple[bytes, dict[int, bytes], dict[int, tuple[str, ...]]]:
    """``_PROJECTION`` checked: its expression, its nodes' types and overloads."""
    from kubectl_crd.validation.cel.environment import build_environment

    environment = build_environment({_PROJECTED: cel.Type.DYN})
    payload = next(v for n, v in _fields(environment.compile(_PROJECTION).serialize()) if n == 2)
    expr = b""
    types: dict[int, bytes] = {}
    references: dict[int, tuple[str, ...]] = {}
    for number, value in _fields(payload):
        if number == 4:
            expr = value
        elif number == 3:
            entry = dict(_fields(value))
            types[_signed(entry.get(1, 0))] = entry.get(2, b"")
        elif number == 2:
            entry = dict(_fields(value))
            ids = tuple(v.decode() for n, v in _fields(entry.get(2, b"")) if n == 3)
            if ids:
                references[_signed(entry.get(1, 0))] = ids
    return expr, types, references


_CONVERSIONS = frozenset(
    ("bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint")
) | {renamed for _, _, renamed, _, _ in CONVERSIONS}  # environment.runnable's names


def _constant_members(expr: bytes) -> list[bool] | None:
    """For a list literal of constants: whether each element is a primitive a set lookup
    takes (bool, int, uint, double, string; not bytes); else ``None``."""
    for number, value in _fields(expr):
        if number != _LIST:
            continue
        members: list[bool] = []
        for n, element in _fields(value):
            if n == 2:
                return None  # optional elements
            if n != 1:
                continue
            constant = next((v for k, v in _fields(element) if k == _CONST), None)
            if constant is None:
                return None
            kinds = [k for k, _ in _fields(constant)]
            members.append(bool(kinds) and kinds[0] in (2, 3, 4, 5, 6))
        return members
    return None


_PAIRED = {variable: function for function, variable in INDEX_PAIRS.items()}


def _index_pair(expr: bytes) -> tuple[str, bytes] | None:
    """For ``indexing.in_engine``'s comprehension (known by its variable): the function
    it stands for and the comprehension."""
    for number, value in _fields(expr):
        if number == _COMPREHENSION:
            variable = next((v.decode() for n, v in _fields(value) if n == 1), "")
            return (_PAIRED[variable], value) if variable in _PAIRED else None
    return None


def _pair_operands(comprehension: bytes) -> tuple[bytes, bytes]:
    """The receiver and the argument of ``in_engine``'s ``[[receiver, argument]]``."""
    outer = next(v for n, v in _fields(comprehension) if n == 2)
    (pair,) = [v for n, v in _fields(_list_of(outer)) if n == 1]
    receiver, argument = [v for n, v in _fields(_list_of(pair)) if n == 1]
    return receiver, argument


def _list_of(expr: bytes) -> bytes:
    found: bytes = next(v for n, v in _fields(expr) if n == _LIST)
    return found


def _with_pair(expr: bytes, variables: list[bytes]) -> bytes:
    """``in_engine``'s comprehension ranging over ``[[variables...]]`` (the list nodes'
    ids kept)."""
    out: list[tuple[int, Any]] = []
    for number, value in _fields(expr):
        if number == _COMPREHENSION:
            parts = _fields(value)
            outer = next(v for n, v in parts if n == 2)
            pair = next(v for n, v in _fields(_list_of(outer)) if n == 1)
            inner = b"".join(message_field(1, v) for v in variables)
            ranged = _Rewriter.node(
                _id_of(outer),
                _LIST,
                message_field(1, _Rewriter.node(_id_of(pair), _LIST, inner)),
            )
            value = encode_fields([(n, ranged if n == 2 else v) for n, v in parts])
        out.append((number, value))
    return encode_fields(out)


def _id_of(expr: bytes) -> int:
    return next((_signed(v) for n, v in _fields(expr) if n == _ID), 0)


def _ident_name(expr: bytes) -> str:
    for number, value in _fields(expr):
        if number == _IDENT:
            return next((v.decode() for n, v in _fields(value) if n == 1), "")
    return ""


def _call_name(expr: bytes) -> str:
    for number, value in _fields(expr):
        if number == _CALL:
            return next((v.decode() for n, v in _fields(value) if n == 2), "")
    return ""


def _format_name(expr: bytes) -> str | None:
    """The format a ``validate`` target names: ``format.dns1123Label()`` or
    ``format.named('...')`` (rewritten ``format.__named('...')[?0]``)."""
    for number, value in _fields(expr):
        if number != _CALL:
            continue
        parts = _fields(value)
        function = next((v.decode() for n, v in parts if n == 2), "")
        args = [v for n, v in parts if n == 3]
        if function == "_[?_]" and args:
            return _format_name(args[0])
        if function == "format.__named" and args:
            for n, v in _fields(args[0]):
                if n == _CONST:
                    text = next((t for k, t in _fields(v) if k == 6), None)
                    return text.decode() if isinstance(text, bytes) else None
        if function.startswith("format.") and not args:
            return function.removeprefix("format.")
    return None


# ------------------------------------------------------------------- evaluation

_KINDS = {
    "int": cel.Type.INT,
    "uint": cel.Type.UINT,
    "double": cel.Type.DOUBLE,
    "bool": cel.Type.BOOL,
    "string": cel.Type.STRING,
    "bytes": cel.Type.BYTES,
    "null": cel.Type.NULL,
    "timestamp": cel.Type.TIMESTAMP,
    "duration": cel.Type.DURATION,
    "list": cel.Type.List(cel.Type.DYN),
    "map": cel.Type.Map(cel.Type.DYN, cel.Type.DYN),
}
_MEASURE_OVERLOADS = tuple(f"__measure_{kind}" for kind in _KINDS)


class _Trace:
    """What one traced run saw."""

    def __init__(self, plan: CostPlan) -> None:
        self.plan = plan
        self.counts = [0] * len(plan.scope_costs)
        self.counts[0] = 1
        self.operands: dict[int, dict[int, Any]] = {}
        self.measured_cost = 0

    def tick(self, scope: int) -> bool:
        self.counts[scope] += 1
        return True

    def measure(self, code: int, value: Any) -> bool:
        self.operands.setdefault(code // _MAX_OPERANDS, {})[code % _MAX_OPERANDS] = value
        return True

    def done(self, index: int) -> bool:
        found = self.operands.pop(index, {})
        measured = self.plan.measured[index]
        values = [found.get(j, _NOT_MEASURED) for j in range(measured.operands)]
        self.measured_cost += call_cost(measured.function, values, measured.format_regex_size)
        return True

    def total(self) -> int:
        static = sum(c * n for c, n in zip(self.plan.scope_costs, self.counts, strict=True))
        return static + self.measured_cost


_current: list[_Trace] = []


def _tick(scope: int) -> bool:
    return _current[-1].tick(scope)


def _done(index: int) -> bool:
    return _current[-1].done(index)


def _measure(code: int, value: Any) -> bool:
    return _current[-1].measure(code, value)


def tracing_functions() -> list[Any]:
    """The declarations a traced program calls; the environment adds them."""
    T = cel.Type
    return [
        cel.FunctionDecl("__tick", [cel.Overload("__tick_int", T.BOOL, [T.INT], impl=_tick)]),
        cel.FunctionDecl("__done", [cel.Overload("__done_int", T.BOOL, [T.INT], impl=_done)]),
        cel.FunctionDecl(
            "__measure",
            [
                cel.Overload(f"__measure_{kind}", T.BOOL, [T.INT, cel_type], impl=_measure)
                for kind, cel_type in _KINDS.items()
            ],
        ),
    ]


#: Plans kept across runs are named by it (and by this module's code).
PLAN_FORMAT = 1


@cache
def _plan_version() -> str:
    """What a kept plan depends on besides its rule: this module's code and the
    environment's, whose ``runnable`` renames calls before a plan is made (with
    ``checked.rename_calls``, to ``library.conversions``' functions among others: a plan made
    by other code is not trusted), this package's version and the engine's build (its
    file's size and time: importlib.metadata would cost 10 ms)."""
    import hashlib
    import os

    from kubectl_crd import __version__
    from kubectl_crd.validation.cel import checked, environment
    from kubectl_crd.validation.cel.library import conversions, gostrings

    sha = hashlib.sha256()
    # the renames: environment.runnable's list, checked.rename_calls, the conversions
    for path in (
        __file__,
        environment.__file__,
        checked.__file__,
        conversions.__file__,
        gostrings.__file__,
    ):
        with open(path, "rb") as code:
            sha.update(code.read())
    digest = sha.hexdigest()[:16]
    engine = os.stat(cel.__file__)
    return f"{PLAN_FORMAT} {digest} {__version__} {engine.st_size} {engine.st_mtime_ns}"


def cost_plan(program: Any, source: str, environment: Any) -> CostPlan | None:
    """The traced program of a compiled rule (``None`` if the engine refuses it), kept
    across runs in the cache directory, named by the digest of ``source`` (the text
    compiled) and ``_plan_version`` (the engine serializes maps in no fixed order, so
    the checked program cannot name it): rewriting costs up to a millisecond a rule,
    reading a kept plan a few microseconds."""
    import hashlib

    from kubectl_crd.io import load_value, store_value

    name = "celplan-" + hashlib.sha256(f"{_plan_version()}\n{source}".encode()).hexdigest()
    kept = load_value(name)
    if isinstance(kept, tuple) and len(kept) == 3:
        traced_bytes, scope_costs, measured = kept
        try:
            traced = environment.deserialize(traced_bytes)
            return CostPlan(traced, list(scope_costs), [_Measured(*m) for m in measured])
        except (RuntimeError, TypeError, ValueError):
            pass  # not a plan this engine takes: made again
    serialized = program.serialize()
    made = _rewritten(serialized, projecting=optional_escapes(read_checked(serialized)))
    if made is None:
        return None
    traced_bytes, scope_costs, measured_calls = made
    try:
        traced = environment.deserialize(traced_bytes)
    except RuntimeError:
        return None
    plain_measured = [(m.function, m.operands, m.format_regex_size) for m in measured_calls]
    store_value(name, (traced_bytes, scope_costs, plain_measured))
    return CostPlan(traced, scope_costs, measured_calls)


def _rewritten(
    serialized: bytes, *, projecting: bool = False
) -> tuple[bytes, list[int], list[_Measured]] | None:
    """The serialized traced program, each scope's cost and the measured calls;
    ``projecting``: operands are measured through ``_PROJECTION``."""
    outer = _fields(serialized)
    payload = next(v for n, v in outer if n == 2)
    parts = _fields(payload)
    types: dict[int, bytes] = {}
    highest = 0
    for number, value in parts:
        if number == 3:
            entry = dict(_fields(value))
            key = _signed(entry.get(1, 0))
            types[key] = entry.get(2, b"")
            highest = max(highest, key)
        elif number == 2:
            highest = max(highest, _signed(dict(_fields(value)).get(1, 0)))
    expr = next((v for n, v in parts if n == 4), None)
    if expr is None:
        return None
    rewriter = _Rewriter(types, highest)
    rewriter.projecting = projecting
    rewritten = rewriter.value(expr, 0)
    added = [message_field(4, rewritten)]
    for node, overloads in rewriter.references:
        reference = b"".join(message_field(3, o.encode()) for o in overloads)
        added.append(message_field(2, varint_field(1, node) + message_field(2, reference)))
    for node, type_bytes in rewriter.new_types:
        added.append(message_field(3, varint_field(1, node) + message_field(2, type_bytes)))
    # the other fields as they were, the expression replaced, the new entries after
    kept = [message_field(n, v) if n != 4 else b"" for n, v in parts]
    outer_out = [(n, b"".join(kept) + b"".join(added) if n == 2 else v) for n, v in outer]
    return encode_fields(outer_out), rewriter.scope_costs, rewriter.measured


def traced_run(plan: CostPlan, data: Any, run: Callable[[Any, Any], Any]) -> tuple[Any, int]:
    """``run(program, data)`` of the traced program, and the cost of that run."""
    trace = _Trace(plan)
    _current.append(trace)
    try:
        outcome = run(plan.program, data)
    finally:
        _current.pop()
    return outcome, trace.total()


# ------------------------------------------------------------------- call costs


class _NotMeasured:
    """An operand Python was not given: not a ``Sizer`` (size 1)."""


_NOT_MEASURED = _NotMeasured()


def _size(value: Any) -> int:
    """``actualSize``: code points of a string, bytes, elements of a list or map."""
    if isinstance(value, str | bytes | bytearray | list | dict):
        return len(value)
    return 1


def _ceil(value: float) -> int:
    return math.ceil(value)


def _traversal(value: Any) -> int:
    """``library/cost.go: traversalCost`` (Go converts a float to uint by truncation)."""
    if isinstance(value, str | bytes | bytearray):
        return int(len(value) * STRING_TRAVERSAL)
    if isinstance(value, list):
        return sum(_traversal(item) for item in value)
    if isinstance(value, dict):
        return sum(_traversal(k) + _traversal(v) for k, v in value.items())
    return 1


def _text(value: Any) -> bool:
    return isinstance(value, str | bytes | bytearray)


def call_cost(
    function: str, args: Sequence[Any], format_regex_size: int = MAX_NAME_FORMAT_REGEX_SIZE
) -> int:
    """``CostTracker.costCall``: the sets trackers, Kubernetes' ``CallCost`` by function
    name, then cel-go's cases by overload (told here by the operands' kinds)."""
    sizes = [_size(a) for a in args]
    factor = _SETS_FACTORS.get(function)
    if factor is not None and len(args) == 2:
        return 1 + int(sizes[0] * sizes[1] * factor)
    found = _kubernetes_cost(function, args, sizes, format_regex_size)
    if found is not None:
        return found
    return _standard_cost(function, args, sizes)


def _kubernetes_cost(
    function: str, args: Sequence[Any], sizes: list[int], format_regex_size: int
) -> int | None:
    if not args:
        return None
    if function in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf"):
        return _traversal(args[0])
    if function in (
        "url",
        "lowerAscii",
        "upperAscii",
        "substring",
        "__substring",
        "trim",
        "jsonpatch.escapeKey",
    ):
        return _ceil(sizes[0] * STRING_TRAVERSAL)
    if function in ("replace", "split"):
        return _ceil(sizes[0] * 2 * STRING_TRAVERSAL)
    if function == "join":
        items = args[0] if isinstance(args[0], list) else []
        separator = args[1] if len(args) > 1 and isinstance(args[1], str) else ""
        texts = [item for item in items if isinstance(item, str)]
        length = sum(len(t) for t in texts) + len(separator) * max(0, len(texts) - 1)
        return _ceil(length * 2 * STRING_TRAVERSAL)
    if function in ("find", "findAll") and len(args) >= 2:
        text_cost = _ceil((1.0 + sizes[0]) * STRING_TRAVERSAL)
        return text_cost * _ceil(sizes[1] * REGEX_STRING_LENGTH)
    if function in ("cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver"):
        return _ceil(sizes[0] * STRING_TRAVERSAL)
    if function == "ip":
        # cidr.ip() (overload cidr_ip) reads a field; ip(string) parses
        return _ceil(sizes[0] * STRING_TRAVERSAL) if _text(args[0]) else 1
    if function == "ip.isCanonical":
        return _ceil(sizes[0] * 2 * STRING_TRAVERSAL)
    if function in ("containsIP", "containsCIDR") and len(args) >= 2:
        cost = _ceil((sizes[0] + sizes[0]) * STRING_TRAVERSAL)
        if function == "containsCIDR":
            cost += _ceil(sizes[0] * STRING_TRAVERSAL) + 1
        if _text(args[1]):
            cost += _ceil(sizes[1] * STRING_TRAVERSAL)
        return cost
    if function == "validate" and len(args) >= 2:
        text_cost = _ceil((1.0 + sizes[1]) * STRING_TRAVERSAL)
        return text_cost * _ceil(format_regex_size * REGEX_STRING_LENGTH)
    return None


def _standard_cost(function: str, args: Sequence[Any], sizes: list[int]) -> int:
    if function in ("startsWith", "endsWith", "format", "__format", "strings.quote") and args:
        if _text(args[0]):
            return _ceil(sizes[0] * STRING_TRAVERSAL)
    elif function in ("bytes", "string") and len(args) == 1:
        # StringToBytes, BytesToString; other conversions are O(1)
        source = str if function == "bytes" else bytes | bytearray
        if isinstance(args[0], source):
            return _ceil(sizes[0] * STRING_TRAVERSAL)
    elif function == "@in" and len(args) == 2 and isinstance(args[1], list):
        return sizes[1]
    elif function in ("_==_", "_!=_") and len(args) == 2:
        return _ceil(min(sizes) * STRING_TRAVERSAL)
    elif function in ("_<_", "_<=_", "_>_", "_>=_") and len(args) == 2:
        if _text(args[0]) and _text(args[1]):
            return _ceil(min(sizes) * STRING_TRAVERSAL)
    elif function == "_+_" and len(args) == 2:
        if _text(args[0]) and _text(args[1]):
            return _ceil((sizes[0] + sizes[1]) * STRING_TRAVERSAL)
    elif function == "matches" and len(args) == 2:
        text_cost = _ceil((1.0 + sizes[0]) * STRING_TRAVERSAL)
        return text_cost * _ceil(sizes[1] * REGEX_STRING_LENGTH)
    elif function == "contains" and len(args) == 2 and _text(args[0]):
        return _ceil(sizes[0] * STRING_TRAVERSAL) * _ceil(sizes[1] * STRING_TRAVERSAL)
    return 1
