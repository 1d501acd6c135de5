"""The static cost of a rule, estimated as the API server does when a CRD is written.

A CRD whose rule could cost more than ``StaticEstimatedCostLimit`` (10,000,000) times
the number of places it may run, or whose rules together could cost more than
``StaticEstimatedCRDCostLimit`` (100,000,000), is refused
(``apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go``). The
estimate is cel-go's (``checker/cost.go`` at v0.26, which Kubernetes 1.34 vendors)
over the checked syntax tree (``checked``), with Kubernetes' estimates of its library
functions (``apiserver/pkg/cel/library/cost.go``) and the sizes its schema allows
(``apiserver/pkg/cel/common/schemas.go: SchemaDeclType``: ``maxLength``, ``maxItems``,
``maxProperties``, else what fits in a 3 MiB request). cel-cpp keeps no cost of its
own; its checked tree and overload ids are cel-go's, but for the names this engine's
rewrites give (``indexOf``, ``validate``, ``format.named``), mapped back here.

Estimates are ranges (min, max) of unsigned 64-bit counts that saturate instead of
overflowing, as Go's do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kubectl_crd.validation.cel.checked import CelType, CheckedRule, Constant, Node
from kubectl_crd.validation.cel.escaping import field_names
from kubectl_crd.validation.compiled import SchemaNode

Range = tuple[int, int]

MAX_UINT64 = (1 << 64) - 1
MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024  # apiserver/pkg/apis/cel/config.go
PER_EXPRESSION_LIMIT = 10_000_000  # StaticEstimatedCostLimit
PER_CRD_LIMIT = 100_000_000  # StaticEstimatedCRDCostLimit

_UNKNOWN: Range = (0, MAX_UINT64)
STRING_TRAVERSAL = 0.1  # cel-go common/cost.go
REGEX_STRING_LENGTH = 0.25
LIST_CREATE = 10
MAP_CREATE = 30
STRUCT_CREATE = 40
_MAX_FORMAT_SIZE = 64  # apiserver/pkg/cel/limits.go
MAX_NAME_FORMAT_REGEX_SIZE = 128  # the longest named format's regex (library/format.go)
ACCUMULATORS = ("__result__", "@result")

# this engine's names for functions it reaches through a rewrite (``environment.prepare``)
ORIGINAL_NAMES = {
    "__indexOf": "indexOf",
    "__lastIndexOf": "lastIndexOf",
    "__validate": "validate",
    "format.__named": "format.named",
}
#: the prefix of the functions ``typing`` adds to give a field its schema's type (the
#: engine's is a list or map of ``dyn``): not in the server's tree, each passes its
#: receiver through
EXACT_PREFIX = "__kcExact"


# -- saturating arithmetic (cost.go: addUint64NoOverflow, multiplyUint64NoOverflow) ------


def _add(a: Range, b: Range) -> Range:
    return min(a[0] + b[0], MAX_UINT64), min(a[1] + b[1], MAX_UINT64)


def _multiply(a: Range, b: Range) -> Range:
    return times_with_guard(a[0], b[0]), times_with_guard(a[1], b[1])


def times_with_guard(x: int, y: int) -> int:
    """``multiplyUint64NoOverflow``, and ``validation.go: multiplyWithOverflowGuard``
    (the same product, saturating at the largest uint64)."""
    if y != 0 and x > MAX_UINT64 // y:
        return MAX_UINT64
    return x * y


def _by_factor(a: Range, factor: float) -> Range:
    return _factor(a[0], factor), _factor(a[1], factor)


def _factor(x: int, factor: float) -> int:
    """``multiplyByCostFactor``: float64 arithmetic, rounded up, saturating."""
    value = float(x)
    if value > 0 and factor > 0 and value > float(MAX_UINT64) / factor:
        return MAX_UINT64
    ceiling = math.ceil(value * factor)
    if ceiling >= 2.0**64:
        return MAX_UINT64
    return int(ceiling)


def _union(a: Range, b: Range) -> Range:
    return min(a[0], b[0]), max(a[1], b[1])


def _fixed(value: int) -> Range:
    return value, value


# -- sizes the schema allows (SchemaDeclType) ------------------------------------------


@dataclass
class DeclSize:
    """What the estimator needs of a node's ``DeclType``: the most elements it may have
    (characters, items, properties), the least bytes it takes serialized, and the
    types below it."""

    max_elements: int = 0
    min_size: int = 1
    fields: dict[str, DeclSize] = field(default_factory=dict)
    elem: DeclSize | None = None
    key: DeclSize | None = None


_STRING_PER_REQUEST = MAX_REQUEST_SIZE_BYTES - 2  # less the quotes
_MIN_STRING_SIZE = 2
_SCALARS = {"boolean": 4, "number": 1, "integer": 1}  # MinBoolSize, MinNumberSize
_TIME_FORMATS = {  # format: (MaxElements, MinSerializedSize)
    "duration": (32, 3),
    "date": (12, 12),
    "date-time": (32, 21),
}


def decl_size(
    node: SchemaNode,
    resource_root: bool,
    memo: dict[tuple[int, bool], DeclSize | None] | None = None,
) -> DeclSize | None:
    """``SchemaDeclType``'s sizes; None where CEL does not see the node. ``memo`` keeps
    each node's, for a caller that asks for nested nodes of one schema."""
    return _decl_size(node, resource_root, {} if memo is None else memo)


def _decl_size(
    node: SchemaNode, resource_root: bool, memo: dict[tuple[int, bool], DeclSize | None]
) -> DeclSize | None:
    key = (id(node), resource_root)
    if key not in memo:
        memo[key] = _computed_size(node, resource_root, memo)
    return memo[key]


def _computed_size(
    node: SchemaNode, resource_root: bool, memo: dict[tuple[int, bool], DeclSize | None]
) -> DeclSize | None:
    if node.types == ("integer", "string"):
        if node.max_length is not None:
            return DeclSize(max(node.max_length, 0) * 4)
        return DeclSize(_STRING_PER_REQUEST)
    kind = node.types[0] if len(node.types) == 1 else ""
    if kind == "array":
        if node.items is None:
            return None
        item = _decl_size(node.items, node.items.embedded, memo)
        if item is None:
            return None
        if node.max_items is not None:
            count = max(node.max_items, 0)
        else:
            count = (MAX_REQUEST_SIZE_BYTES - 2) // (item.min_size + 1)
        return DeclSize(count, 2, elem=item)
    if kind == "object":
        if node.additional is not None and not node.properties:
            value = _decl_size(node.additional, node.additional.embedded, memo)
            if value is None:
                return None
            if node.max_properties is not None:
                count = max(node.max_properties, 0)
            else:
                count = (MAX_REQUEST_SIZE_BYTES - 2) // (value.min_size + 6)
            return DeclSize(count, 2, elem=value, key=DeclSize(0, _MIN_STRING_SIZE))
        return _object(node, resource_root or node.embedded, memo)
    if kind == "string":
        if node.format == "byte":
            length = node.max_length
            return DeclSize(
                max(length, 0) if length is not None else _STRING_PER_REQUEST, _MIN_STRING_SIZE
            )
        if node.format in _TIME_FORMATS:
            return DeclSize(*_TIME_FORMATS[node.format])
        if node.max_length is not None:
            return DeclSize(max(node.max_length, 0) * 4, _MIN_STRING_SIZE)
        if node.enum:
            longest = max((len(e.encode()) for e in node.enum if isinstance(e, str)), default=0)
            return DeclSize(longest, _MIN_STRING_SIZE)
        return DeclSize(_STRING_PER_REQUEST, _MIN_STRING_SIZE)
    if kind in _SCALARS:
        return DeclSize(0, _SCALARS[kind])
    return None


def _object(
    node: SchemaNode, resource_root: bool, memo: dict[tuple[int, bool], DeclSize | None]
) -> DeclSize:
    fields: dict[str, DeclSize] = {}
    min_size = 2  # {}
    required = set(node.required)
    for name, child in node.properties.items():
        child_size = _decl_size(child, child.embedded, memo)
        if child_size is None:
            continue
        for field_name in field_names(name):
            fields[field_name] = child_size
        if name in required and not child.has_default:
            min_size += len(name.encode()) + child_size.min_size + 4
    if resource_root and not _has_type_and_object_meta(node):
        # WithTypeAndObjectMeta: kind, apiVersion and metadata.name/generateName are
        # always there, as unbounded strings; metadata has nothing else
        def text() -> DeclSize:
            return DeclSize(_STRING_PER_REQUEST, _MIN_STRING_SIZE)

        fields["kind"] = text()
        fields["apiVersion"] = text()
        fields["metadata"] = DeclSize(0, 2, fields={"name": text(), "generateName": text()})
    return DeclSize(0, min_size, fields=fields)


def _has_type_and_object_meta(node: SchemaNode) -> bool:
    properties = node.properties
    metadata = properties.get("metadata")
    return (
        all(
            properties.get(k) is not None and "string" in properties[k].types
            for k in ("kind", "apiVersion")
        )
        and metadata is not None
        and "object" in metadata.types
        and all(
            metadata.properties.get(k) is not None and "string" in metadata.properties[k].types
            for k in ("name", "generateName")
        )
    )


def max_cardinality(min_size: int) -> int:
    """How often a value of at least ``min_size`` bytes fits in a request
    (``compilation.go: maxCardinality``)."""
    return MAX_REQUEST_SIZE_BYTES // (min_size + 1)


def max_elements(node: SchemaNode) -> int | None:
    """``cel_validation.go: extractMaxElements``: how many children a node may hold
    (None: unbounded)."""
    kind = node.types[0] if len(node.types) == 1 else ""
    if kind == "object":
        if node.additional is not None:
            return max(node.max_properties, 0) if node.max_properties is not None else None
        return 1
    if kind == "array":
        return max(node.max_items, 0) if node.max_items is not None else None
    return 1


def cost_error_message(name: str, cost: int, limit: int) -> str:
    """``validation.go: getCostErrorMessage``."""
    exceed = float(cost) / float(limit)
    if exceed > 100.0:
        factor = "more than 100x"
    elif exceed < 1.5:
        factor = f"{exceed:f}x"
    else:
        factor = f"{exceed:.1f}x"
    return (
        f"{name} exceeds budget by factor of {factor} (try simplifying the rule, or adding "
        "maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )


# -- the estimator (checker/cost.go) ---------------------------------------------------


@dataclass
class _Entry:
    """``entrySizeEstimate``: a container literal's kind and its keys' and values' sizes."""

    container: str  # "list" or "map"
    key: Range
    value: Range


@dataclass
class _Local:
    path: list[str] | None
    size: Range | None
    entry: _Entry | None


@dataclass
class _Operand:
    """``checker.AstNode``: what a function estimator sees of a target or argument."""

    path: list[str] | None
    type: CelType
    node: Node | None
    computed: Range | None


def _kind(cel_type: CelType) -> str:
    name = cel_type.name
    if name in ("list", "map", "dyn", "bool", "int", "uint", "double", "string", "bytes"):
        return name
    if name == "google.protobuf.Timestamp":
        return "timestamp"
    if name == "google.protobuf.Duration":
        return "duration"
    if name in ("null_type", "type", "*error*", "wrapper", "any"):
        return name
    if name in ("optional_type", "net.IP", "net.CIDR") or cel_type.parameters:
        return "opaque"
    return "struct"


_SCALAR_KINDS = ("bool", "double", "duration", "int", "timestamp", "uint")


def _is_scalar(cel_type: CelType) -> bool:
    kind = _kind(cel_type)
    if kind in _SCALAR_KINDS:
        return True
    if cel_type.name == "optional_type" and cel_type.parameters:
        return _is_scalar(cel_type.parameters[0])
    return False


def estimate_cost(checked: CheckedRule, self_size: DeclSize | None) -> Range:
    """``Env.EstimateCost`` of a rule (or messageExpression) whose ``self`` has
    ``self_size``, in Kubernetes' environment (``has()`` costs nothing there:
    ``environment/base.go`` sets ``PresenceTestHasCost(false)``)."""
    return _Coster(checked, self_size).cost(checked.root)


class _Coster:
    def __init__(self, checked: CheckedRule, root: DeclSize | None) -> None:
        self.checked = checked
        self.root = root
        self.paths: dict[int, list[str]] = {}
        self.locals: dict[str, list[_Local]] = {}
        self.sizes: dict[int, Range] = {}
        self.entries: dict[int, _Entry] = {}

    # paths, types and sizes

    def type_of(self, node: Node) -> CelType:
        return self.checked.types.get(node.id, CelType("dyn"))

    def path(self, node: Node) -> list[str]:
        if node.kind == "ident":
            local = self.peek(node.name)
            if local is not None:
                return list(local.path or [])
        return list(self.paths.get(node.id, []))

    def peek(self, name: str) -> _Local | None:
        stack = self.locals.get(name)
        return stack[-1] if stack else None

    def push(self, name: str, local: _Local) -> None:
        self.locals.setdefault(name, []).append(local)

    def pop(self, name: str) -> None:
        self.locals[name].pop()

    def estimate_size(self, path: list[str] | None) -> Range | None:
        """``compilation.go: sizeEstimator.EstimateSize``: the schema's bound at a path
        below ``self`` (the path's first step is the variable)."""
        if not path or self.root is None:
            return None
        current: DeclSize | None = self.root
        for name in path[1:]:
            assert current is not None
            if name in ("@items", "@values"):
                current = current.elem
            elif name == "@keys":
                current = current.key
            else:
                current = current.fields.get(name)
            if current is None:
                return None
        assert current is not None
        return 0, current.max_elements

    def compute_size(self, node: Node) -> Range | None:
        if node.id in self.sizes:
            return self.sizes[node.id]
        literal = _literal_size(node)
        if literal is not None:
            return literal
        estimated = self.estimate_size(self.path(node))
        if estimated is not None:
            self.sizes[node.id] = estimated
            return estimated
        if _is_scalar(self.type_of(node)):
            return 1, 1
        if node.kind == "ident":
            local = self.peek(node.name)
            if local is not None and local.size is not None:
                return local.size
        return None

    def size_or_unknown(self, node: Node) -> Range:
        found = self.compute_size(node)
        return found if found is not None else _UNKNOWN

    def entry_size(self, node: Node) -> _Entry | None:
        if node.id in self.entries:
            return self.entries[node.id]
        if node.kind == "ident":
            local = self.peek(node.name)
            if local is not None and local.entry is not None:
                return local.entry
        return None

    def operand(self, node: Node) -> _Operand:
        """``newAstNode``: paths from an accumulator are not the schema's."""
        path: list[str] | None = self.path(node)
        if path and path[0] in ACCUMULATORS:
            path = None
        return _Operand(path, self.type_of(node), node, self.compute_size(node))

    def operand_size(self, operand: _Operand) -> Range:
        """``library.CostEstimator.sizeEstimate``."""
        if operand.computed is not None:
            return operand.computed
        found = self.estimate_size(operand.path)
        return found if found is not None else _UNKNOWN

    # costs

    def cost(self, node: Node) -> Range:
        kind = node.kind
        if kind == "const":
            return 0, 0
        if kind == "ident":
            local = self.peek(node.name)
            self.paths[node.id] = list(local.path or []) if local is not None else [node.name]
            return 1, 1
        if kind == "select":
            return self.cost_select(node)
        if kind == "call":
            return self.cost_call(node)
        if kind == "list":
            return self.cost_list(node)
        if kind == "map":
            return self.cost_map(node)
        if kind == "struct":
            total: Range = (0, 0)
            for child in node.children:
                total = _add(total, self.cost(child))
            return _add(total, _fixed(STRUCT_CREATE))
        if kind == "comprehension":
            assert node.comprehension is not None
            if _is_bind(node):
                return self.cost_bind(node)
            return self.cost_comprehension(node)
        return 0, 0

    def cost_select(self, node: Node) -> Range:
        operand = node.children[0]
        if node.test_only:
            return self.cost(operand)  # the presence test itself is free in Kubernetes
        total = self.cost(operand)
        if _kind(self.type_of(operand)) in ("map", "struct"):
            total = _add(total, (1, 1))
        self.paths[node.id] = [*self.path(operand), node.name]
        return total

    def cost_call(self, node: Node) -> Range:
        function = ORIGINAL_NAMES.get(node.function, node.function)
        if function == "dyn" and node.args:
            argument = node.args[0]
            cost = self.cost(argument)
            self.copy_sizes(node, argument)
            return _add((1, 1), cost)
        if function.startswith(EXACT_PREFIX) and node.target is not None:
            passed = self.cost(node.target)
            self.copy_sizes(node, node.target)
            self.paths[node.id] = self.path(node.target)
            return passed
        if function == "_[?_]" and node.args and _is_rewritten_optional(node.args[0]):
            # the engine's optional around a rewritten call: not in the server's tree
            inner = node.args[0]
            cost = self.cost(inner)
            self.copy_sizes(node, inner)
            return cost
        argument_costs: list[Range] = []
        operands: list[_Operand] = []
        for argument in node.args:
            argument_costs.append(self.cost(argument))
            operands.append(self.operand(argument))
        overload_ids = self.checked.overloads.get(node.id, ())
        if not overload_ids:
            return 0, 0
        total: Range = (0, 0)
        target = None
        if node.target is not None:
            total = self.cost(node.target)
            target = self.operand(node.target)
        function_cost: Range = (MAX_UINT64, 0)
        result_size: Range | None = None
        for overload in overload_ids:
            cost, size = self.function_cost(
                node, function, overload, target, operands, argument_costs
            )
            function_cost = _union(function_cost, cost)
            if size is not None:
                result_size = size if result_size is None else _union(result_size, size)
            if overload in ("index_list", "index_map") and node.args:
                entry = self.entry_size(node.args[0])
                result_size = entry.value if entry is not None else None
                step = "@items" if overload == "index_list" else "@values"
                self.paths[node.id] = [*self.path(node.args[0]), step]
            if result_size is None:
                result_size = self.compute_size(node)
        if result_size is not None:
            self.sizes[node.id] = result_size
        return _add(total, function_cost)

    def copy_sizes(self, destination: Node, source: Node) -> None:
        size = self.compute_size(source)
        if size is not None:
            self.sizes[destination.id] = size
        entry = self.entry_size(source)
        if entry is not None:
            self.entries[destination.id] = entry

    def union_entries(self, node: Node, first: Node, second: Node) -> None:
        """``entrySizeEstimate.union``: ``node``'s entries are either operand's (none
        when one has none), in the first one's kind of container."""
        one, other = self.entry_size(first), self.entry_size(second)
        if one is not None and other is not None:
            self.entries[node.id] = _Entry(
                one.container, _union(one.key, other.key), _union(one.value, other.value)
            )

    def cost_list(self, node: Node) -> Range:
        total: Range = (0, 0)
        item: Range = (0 if not node.elements else MAX_UINT64, 0)
        for element in node.elements:
            total = _add(total, self.cost(element))
            item = _union(item, self.size_or_unknown(element))
        self.entries[node.id] = _Entry("list", (1, 1), item)
        return _add(total, _fixed(LIST_CREATE))

    def cost_map(self, node: Node) -> Range:
        total: Range = (0, 0)
        empty = not node.entries
        key: Range = (0 if empty else MAX_UINT64, 0)
        value: Range = (0 if empty else MAX_UINT64, 0)
        for entry_key, entry_value, _optional in node.entries:
            total = _add(total, self.cost(entry_key))
            total = _add(total, self.cost(entry_value))
            key = _union(key, self.size_or_unknown(entry_key))
            value = _union(value, self.size_or_unknown(entry_value))
        self.entries[node.id] = _Entry("map", key, value)
        return _add(total, _fixed(MAP_CREATE))

    def push_local(self, name: str, node: Node) -> None:
        self.push(name, _Local(self.path(node), self.compute_size(node), self.entry_size(node)))

    def push_iteration(self, name: str, range_node: Node, role: str) -> None:
        """``pushIterKey``, ``pushIterValue``, ``pushIterSingle``."""
        entry = self.entry_size(range_node)
        container = entry.container if entry is not None else _kind(self.type_of(range_node))
        size: Range | None
        if role == "key":
            size = entry.key if entry is not None else None
            step = "@indices" if container == "list" else "@keys"
        elif role == "value":
            size = entry.value if entry is not None else None
            step = "@items" if container == "list" else "@values"
        else:
            size = entry.key if entry is not None else None
            step = "@keys"
            if container == "list":
                size = entry.value if entry is not None else None
                step = "@items"
        self.push(name, _Local([*self.path(range_node), step], size, None))

    def cost_comprehension(self, node: Node) -> Range:
        loop = node.comprehension
        assert loop is not None
        total = self.cost(loop.iter_range)
        total = _add(total, self.cost(loop.accu_init))
        self.push_local(loop.accu_var, loop.accu_init)
        if loop.iter_var2:
            self.push_iteration(loop.iter_var, loop.iter_range, "key")
            self.push_iteration(loop.iter_var2, loop.iter_range, "value")
        else:
            self.push_iteration(loop.iter_var, loop.iter_range, "single")
        condition = self.cost(loop.loop_condition)
        step = self.cost(loop.loop_step)
        self.pop(loop.iter_var)
        if loop.iter_var2:
            self.pop(loop.iter_var2)
        total = _add(total, self.cost(loop.result))
        self.pop(loop.accu_var)
        count = self.size_or_unknown(loop.iter_range)
        total = _add(total, _multiply(count, _add(step, condition)))
        if loop.accu_init.kind == "const":
            size = self.compute_size(loop.accu_init)
            if size is not None:
                self.sizes[node.id] = size
        elif loop.accu_init.kind in ("list", "map"):
            self.sizes[node.id] = count
            step_entry = self.entry_size(loop.loop_step)
            if step_entry is not None:
                self.entries[node.id] = step_entry
        return total

    def cost_bind(self, node: Node) -> Range:
        loop = node.comprehension
        assert loop is not None
        total = self.cost(loop.iter_range)
        total = _add(total, self.cost(loop.accu_init))
        self.push_local(loop.accu_var, loop.accu_init)
        total = _add(total, self.cost(loop.result))
        self.pop(loop.accu_var)
        self.copy_sizes(node, loop.result)
        return total

    def function_cost(
        self,
        node: Node,
        function: str,
        overload: str,
        target: _Operand | None,
        operands: list[_Operand],
        argument_costs: list[Range],
    ) -> tuple[Range, Range | None]:
        arguments: Range = (0, 0)
        for cost in argument_costs:
            arguments = _add(arguments, cost)
        sets_factor = _SETS.get(overload)
        if sets_factor is not None and len(operands) == 2:
            sizes = _multiply(self.operand_size(operands[0]), self.operand_size(operands[1]))
            return _add(_add(_by_factor(sizes, sets_factor), (1, 1)), arguments), None
        library = self.library_cost(function, overload, target, operands)
        if library is not None:
            cost, size = library
            return _add(cost, arguments), size
        return self.standard_cost(node, overload, target, operands, argument_costs, arguments)

    def standard_cost(
        self,
        node: Node,
        overload: str,
        target: _Operand | None,
        operands: list[_Operand],
        argument_costs: list[Range],
        arguments: Range,
    ) -> tuple[Range, Range | None]:
        """``coster.functionCost``'s own cases; everything else costs 1."""
        sizes = [self.operand_size(o) for o in operands]
        if overload == "string_format" and target is not None:
            return _add(_by_factor(self.operand_size(target), STRING_TRAVERSAL), arguments), None
        if overload == "string_to_bytes" and len(operands) == 1:
            size = sizes[0]
            # Go's unsigned arithmetic wraps here (no guard in cost.go)
            return _add(_by_factor(size, STRING_TRAVERSAL), arguments), (
                size[0],
                (size[1] * 4) % (1 << 64),
            )
        if overload == "bytes_to_string" and len(operands) == 1:
            size = sizes[0]
            return _add(_by_factor(size, STRING_TRAVERSAL), arguments), (size[0] // 4, size[1])
        if overload == "strings_quote" and len(operands) == 1:
            size = sizes[0]
            return _add(_by_factor(size, STRING_TRAVERSAL), arguments), (
                (size[0] + 2) % (1 << 64),
                (size[1] * 2 + 2) % (1 << 64),
            )
        if overload in ("starts_with_string", "ends_with_string") and len(operands) == 1:
            return _add(_by_factor(sizes[0], STRING_TRAVERSAL), arguments), None
        if overload == "in_list" and len(operands) == 2:
            return _add(_by_factor(sizes[1], 1), arguments), None
        if overload == "matches_string" and target is not None and len(operands) == 1:
            text = _by_factor(_add(self.operand_size(target), (1, 1)), STRING_TRAVERSAL)
            regex = _by_factor(sizes[0], REGEX_STRING_LENGTH)
            return _add(_multiply(text, regex), arguments), None
        if overload == "contains_string" and target is not None and len(operands) == 1:
            text = _by_factor(self.operand_size(target), STRING_TRAVERSAL)
            part = _by_factor(sizes[0], STRING_TRAVERSAL)
            return _add(_multiply(text, part), arguments), None
        if overload in ("logical_or", "logical_and"):
            left, right = argument_costs[0], argument_costs[1]
            return (left[0], _add(left, right)[1]), None
        if overload == "conditional":
            size = _union(sizes[1], sizes[2])
            self.union_entries(node, node.args[1], node.args[2])
            condition, when_true, when_false = argument_costs
            return _add(condition, _union(when_true, when_false)), size
        if overload in ("add_string", "add_bytes", "add_list") and len(operands) == 2:
            size = _add(sizes[0], sizes[1])
            self.union_entries(node, node.args[0], node.args[1])
            if overload == "add_list":
                return _add((1, 1), arguments), size
            return _add(_by_factor(size, STRING_TRAVERSAL), arguments), size
        if overload in _COMPARISONS:
            smallest = min(sizes[0][1], sizes[1][1])
            least = 1 if smallest > 0 else 0
            return _add(_by_factor((least, smallest), STRING_TRAVERSAL), arguments), None
        return _add((1, 1), arguments), None

    def library_cost(
        self, function: str, overload: str, target: _Operand | None, operands: list[_Operand]
    ) -> tuple[Range, Range | None] | None:
        """``library.CostEstimator.EstimateCallCost``: Kubernetes' functions, by name."""
        size = self.operand_size
        if function in _NOMINAL:
            return (1, 1), None
        if function in ("isSorted", "sum", "max", "min", "indexOf", "lastIndexOf"):
            if target is None:
                return None
            element = self.list_element(target)
            if element is not None:
                element_cost: Range = (1, 1)
                if _kind(element.type) in ("string", "bytes"):
                    element_cost = _add(element_cost, _by_factor(size(element), STRING_TRAVERSAL))
                return _multiply(size(target), element_cost), None
            return _by_factor(size(target), STRING_TRAVERSAL), None
        if function in ("url", "jsonpatch.escapeKey"):
            if len(operands) != 1:
                return None
            found = size(operands[0])
            return _by_factor(found, STRING_TRAVERSAL), found
        if function in ("lowerAscii", "upperAscii", "substring", "trim"):
            if target is None:
                return None
            found = size(target)
            return _by_factor(found, STRING_TRAVERSAL), found
        if function == "replace":
            if target is None or len(operands) < 2:
                return None
            return self.replace_cost(size(target), size(operands[0]), size(operands[1]))
        if function == "split":
            if target is None:
                return None
            found = size(target)
            most = found[1]
            if len(operands) > 1:
                limit = operands[1].node
                if (
                    limit is not None
                    and isinstance(limit.value, Constant)
                    and limit.value.kind == "int"
                ):
                    most = limit.value.value % (1 << 64)
            return _by_factor(found, 2 * STRING_TRAVERSAL), (0, most)
        if function == "join":
            if target is None:
                return None
            joined: Range = (0, 0)
            count = size(target)
            element = self.list_element(target)
            if element is not None:
                joined = _multiply(count, size(element))
            if operands:
                separators = (max(count[0] - 1, 0), max(count[1] - 1, 0))
                joined = _add(joined, _multiply(size(operands[0]), separators))
            return _by_factor(joined, STRING_TRAVERSAL), joined
        if function in ("find", "findAll"):
            if target is None or not operands:
                return None
            found = size(target)
            text = _by_factor(_add(found, (1, 1)), STRING_TRAVERSAL)
            regex = _by_factor(size(operands[0]), REGEX_STRING_LENGTH)
            return _multiply(text, regex), (0, found[1])
        if function in ("cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver"):
            if not operands:
                return None
            return _by_factor(size(operands[0]), STRING_TRAVERSAL), None
        if function == "ip":
            if overload == "cidr_ip":
                return (1, 1), None
            if not operands:
                return None
            return _by_factor(size(operands[0]), STRING_TRAVERSAL), None
        if function == "ip.isCanonical":
            if not operands:
                return None
            return _by_factor(size(operands[0]), 2 * STRING_TRAVERSAL), None
        if function in ("containsIP", "containsCIDR"):
            if not operands:
                return None
            compared = _by_factor(_add((4, 16), (4, 16)), STRING_TRAVERSAL)
            if function == "containsCIDR":
                compared = _add(compared, _by_factor((4, 16), STRING_TRAVERSAL))
                compared = _add(compared, (1, 1))
            if overload in ("cidr_contains_ip_string", "cidr_contains_cidr_string"):
                compared = _add(compared, _by_factor(size(operands[0]), STRING_TRAVERSAL))
            return compared, None
        if function == "validate":
            if not operands:
                return None
            text = _by_factor(size(operands[0]), STRING_TRAVERSAL)
            return _by_factor(text, MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH), None
        if function == "_==_" and len(operands) == 2:
            return self.equality_cost(operands[0], operands[1])
        return None

    def replace_cost(self, text: Range, old: Range, new: Range) -> tuple[Range, Range | None]:
        """``EstimateCallCost`` of ``replace``: the result may grow or shrink."""
        count_min = count_max = retained_min = retained_max = 0
        if old[0] == 0:
            count_max = text[1] + 1 if text[1] < MAX_UINT64 else text[1]
            retained_max = text[1]
        elif new[1] <= old[0]:
            retained_max = text[1]
        else:
            count_max = _go_uint(math.ceil(float(text[1]) / float(old[0])))
        if old[1] == 0:
            count_min = text[0] + 1 if text[0] < MAX_UINT64 else text[0]
            retained_min = text[0]
        elif old[1] <= new[0]:
            retained_min = text[0]
        else:
            count_min = _go_uint(math.ceil(float(text[0]) / float(old[1])))
        size = _add(_multiply((count_min, count_max), new), (retained_min, retained_max))
        return _by_factor(text, 2 * STRING_TRAVERSAL), size

    def equality_cost(self, left: _Operand, right: _Operand) -> tuple[Range, Range | None] | None:
        if left.type != right.type:
            return None
        name = left.type.name
        if name in ("net.IP", "net.CIDR", "kubernetes.Quantity", "kubernetes.Semver"):
            return (1, 1), None
        if name == "kubernetes.NamedFormat":
            return _by_factor((1, _MAX_FORMAT_SIZE), STRING_TRAVERSAL), None
        if name == "kubernetes.URL":
            size: Range = (1, 1)
            if right.computed is not None:
                size = _union(right.computed, right.computed)  # sic: the right side twice
            return _by_factor((1, size[1]), STRING_TRAVERSAL), None
        return None

    def list_element(self, target: _Operand) -> _Operand | None:
        """``listElementNode``: a list's item, by path when the list has one."""
        if not target.type.parameters:
            return None
        path = [*target.path, "@items"] if target.path else None
        return _Operand(path, target.type.parameters[0], None, None)


_SETS = {
    "list_sets_contains_list": 1.0,
    "list_sets_intersects_list": 1.0,
    "list_sets_equivalent_list": 2.0,
}
_COMPARISONS = frozenset(
    {
        "less_string",
        "greater_string",
        "less_equals_string",
        "greater_equals_string",
        "less_bytes",
        "greater_bytes",
        "less_equals_bytes",
        "greater_equals_bytes",
        "equals",
        "not_equals",
    }
)
# functions Kubernetes prices at 1 whatever their arguments
_NOMINAL = frozenset(
    {
        "format.named",
        "masked",
        "prefixLength",
        "family",
        "isUnspecified",
        "isLoopback",
        "isLinkLocalMulticast",
        "isLinkLocalUnicast",
        "isGlobalUnicast",
        "sign",
        "asInteger",
        "isInteger",
        "asApproximateFloat",
        "isGreaterThan",
        "isLessThan",
        "compareTo",
        "add",
        "sub",
        "major",
        "minor",
        "patch",
        "getScheme",
        "getHostname",
        "getHost",
        "getPort",
        "getEscapedPath",
        "getQuery",
        "serviceAccount",
        "path",
        "group",
        "resource",
        "subresource",
        "namespace",
        "name",
        "allowed",
        "reason",
        "error",
        "errored",
    }
)


def _go_uint(value: int) -> int:
    return min(max(value, 0), MAX_UINT64)


def _literal_size(node: Node) -> Range | None:
    """``computeExprSize``: the size of a literal."""
    if node.kind == "const" and isinstance(node.value, Constant):
        if node.value.kind == "string":
            return _fixed(len(node.value.value))
        if node.value.kind == "bytes":
            return _fixed(len(node.value.value))
        return 1, 1
    if node.kind == "list":
        return _fixed(len(node.elements))
    if node.kind == "map":
        return _fixed(len(node.entries))
    return None


def _is_bind(node: Node) -> bool:
    loop = node.comprehension
    assert loop is not None
    return (
        loop.iter_range.kind == "list"
        and not loop.iter_range.elements
        and loop.loop_condition.kind == "const"
        and isinstance(loop.loop_condition.value, Constant)
        and loop.loop_condition.value.kind == "bool"
        and not loop.loop_condition.value.value
        and loop.accu_var != "__result__"
    )


def _is_rewritten_optional(node: Node) -> bool:
    return node.kind == "call" and node.function in ("__validate", "format.__named")
