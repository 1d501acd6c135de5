"""A compiled rule's checked syntax tree, read from the engine's ``CheckedExpr``.

``Expression.serialize()`` gives a ``google.protobuf.Any`` holding a
``cel.expr.CheckedExpr`` (``cel/expr/checked.proto``, ``syntax.proto``): the
expression tree, the type the checker gave every node (``type_map``) and each node's
offset in the source (``source_info.positions``). No Python classes for those protos
ship with the engine, so this module reads the protobuf wire format itself, keeping
only what the checks of the API server's environment need: node kinds, children,
called function names, list and map literal elements, types and positions; and
writes fields back (``encode_fields``) for the rewrites of ``runtime_cost`` and
``environment.runnable``.

Used by ``homogeneous_literal_errors``: Kubernetes compiles rules with cel-go's
``HomogeneousAggregateLiterals`` and its AST validator of the same name
(``apiserver/pkg/cel/environment/base.go``): every element of a list literal, and
every key and every value of a map literal, must have the same type as the first
(``Type.IsEquivalentType``; ``dyn`` is not ``int``), except inside a ``format`` call
(the strings extension exempts it); a mismatch is the compile error
``expected type 'A' but found 'B'`` at the element. cel-cpp has neither check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kubectl_crd.validation.cel.formatclause import ClauseError, parse_clause

_PRIMITIVES = {1: "bool", 2: "int", 3: "uint", 4: "double", 5: "string", 6: "bytes"}
_WELL_KNOWN = {1: "any", 2: "google.protobuf.Timestamp", 3: "google.protobuf.Duration"}


def _fields(data: bytes) -> list[tuple[int, Any]]:
    """A message's fields in order: (number, value); varints as int, length-delimited
    as bytes, fixed-width as raw bytes."""
    out: list[tuple[int, Any]] = []
    position = 0
    size = len(data)
    while position < size:
        key, position = _varint(data, position)
        number, wire = key >> 3, key & 7
        value: Any
        if wire == 0:
            value, position = _varint(data, position)
        elif wire == 2:
            length, position = _varint(data, position)
            value = data[position : position + length]
            position += length
        elif wire == 1:
            value = data[position : position + 8]
            position += 8
        elif wire == 5:
            value = data[position : position + 4]
            position += 4
        else:
            raise ValueError(f"unsupported wire type {wire}")
        out.append((number, value))
    return out


def _varint(data: bytes, position: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, position
        shift += 7


def _signed(value: int) -> int:
    """An int64 read from a varint."""
    return value - (1 << 64) if value >= 1 << 63 else value


# -- writing: what runtime_cost and environment.runnable rewrite ---------------------

_SMALL = [bytes((n,)) for n in range(128)]


def _write_varint(value: int) -> bytes:
    if 0 <= value < 128:
        return _SMALL[value]
    value &= (1 << 64) - 1  # an int64 as protobuf writes it
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def varint_field(number: int, value: int) -> bytes:
    return _write_varint(number << 3) + _write_varint(value)


def message_field(number: int, payload: bytes) -> bytes:
    """A length-delimited field: a message, a string or bytes."""
    return _write_varint(number << 3 | 2) + _write_varint(len(payload)) + payload


def encode_fields(fields: Sequence[tuple[int, Any]]) -> bytes:
    """Fields as ``_fields`` reads them (varints as int, the rest as bytes), written."""
    return b"".join(
        varint_field(n, v) if isinstance(v, int) else message_field(n, v) for n, v in fields
    )


@dataclass(frozen=True)
class CelType:
    """A checked type (``name``: ``null_type``, ``google.protobuf.Timestamp``...),
    compared as ``IsEquivalentType`` compares (by that structure); ``str()`` writes it
    as cel-go's checker messages do."""

    name: str
    parameters: tuple[CelType, ...] = ()

    def __str__(self) -> str:
        # cel-go's checker/format.go names them so in every message (``expected type
        # 'int' but found 'null'``, ``applied to 'list(int).(duration)'``)
        name = _DISPLAYED.get(self.name, self.name)
        if not self.parameters:
            return name
        return f"{name}({', '.join(str(p) for p in self.parameters)})"


#: cel-go's names in checker messages, where ``CelType.name``'s differ
_DISPLAYED = {
    "null_type": "null",
    "google.protobuf.Timestamp": "timestamp",
    "google.protobuf.Duration": "duration",
}


def _type(data: bytes) -> CelType:
    for number, value in _fields(data):
        if number == 1:
            return CelType("dyn")
        if number == 2:
            return CelType("null_type")
        if number == 3:
            return CelType(_PRIMITIVES.get(value, "?"))
        if number == 4:
            return CelType("wrapper", (CelType(_PRIMITIVES.get(value, "?")),))
        if number == 5:
            return CelType(_WELL_KNOWN.get(value, "?"))
        if number == 6:
            elem = next((_type(v) for n, v in _fields(value) if n == 1), CelType("dyn"))
            return CelType("list", (elem,))
        if number == 7:
            parts = {n: _type(v) for n, v in _fields(value)}
            return CelType("map", (parts.get(1, CelType("dyn")), parts.get(2, CelType("dyn"))))
        if number == 9:
            return CelType(value.decode())
        if number == 10:
            return CelType(value.decode())
        if number == 11:
            return CelType("type", (_type(value),) if value else ())
        if number == 12:
            return CelType("*error*")
        if number == 14:
            name = ""
            parameters: list[CelType] = []
            for n, v in _fields(value):
                if n == 1:
                    name = v.decode()
                elif n == 2:
                    parameters.append(_type(v))
            return CelType(name, tuple(parameters))
    return CelType("dyn")


@dataclass
class Node:
    """One expression node: its id, kind and children (for a call, ``function``; for a
    list literal, its elements; for a map literal, (key, value) pairs).

    What the cost estimator needs besides: an identifier's or a selected field's
    ``name``, a presence test (``test_only``), a call's ``target`` and ``args`` apart, a
    constant's ``value``, and a comprehension's parts (``comprehension``)."""

    id: int
    kind: str  # const, ident, select, call, list, map, struct, comprehension
    function: str = ""
    children: list[Node] = field(default_factory=list)
    elements: list[Node] = field(default_factory=list)
    optional_indices: tuple[int, ...] = ()
    entries: list[tuple[Node, Node, bool]] = field(default_factory=list)
    name: str = ""
    test_only: bool = False
    target: Node | None = None
    args: list[Node] = field(default_factory=list)
    value: Any = None
    comprehension: Comprehension | None = None


@dataclass
class Comprehension:
    """``cel.expr.Expr.Comprehension``: what a macro (``all``, ``map``...) expands to."""

    iter_var: str
    iter_var2: str
    accu_var: str
    iter_range: Node
    accu_init: Node
    loop_condition: Node
    loop_step: Node
    result: Node


@dataclass(frozen=True)
class Constant:
    """A literal: its CEL kind (``string``, ``bytes``, ``int``, ``null``...) and value."""

    kind: str
    value: Any


_KINDS = {
    3: "const",
    4: "ident",
    5: "select",
    6: "call",
    7: "list",
    8: "struct",
    9: "comprehension",
}


def _expr(data: bytes) -> Node:
    node = Node(0, "const")
    for number, value in _fields(data):
        if number == 2:
            node.id = _signed(value)
        elif number in _KINDS:
            node.kind = _KINDS[number]
            _fill(node, number, value)
    return node


_CONSTANTS = {
    1: "null",
    2: "bool",
    3: "int",
    4: "uint",
    5: "double",
    6: "string",
    7: "bytes",
    8: "duration",
    9: "timestamp",
}


def _fill(node: Node, number: int, data: bytes) -> None:
    parts = _fields(data)
    if number == 3:
        for n, v in parts:
            if n in _CONSTANTS:
                if n == 6:
                    v = v.decode("utf-8", "surrogatepass")
                node.value = Constant(_CONSTANTS[n], v)
        if node.value is None:
            node.value = Constant("null", None)
    elif number == 4:
        node.name = next((v.decode() for n, v in parts if n == 1), "")
    elif number == 5:
        node.children = [_expr(v) for n, v in parts if n == 1]
        node.name = next((v.decode() for n, v in parts if n == 2), "")
        node.test_only = any(n == 3 and v for n, v in parts)
    elif number == 6:
        for n, v in parts:
            if n in (1, 3):
                child = _expr(v)
                node.children.append(child)
                if n == 1:
                    node.target = child
                else:
                    node.args.append(child)
            elif n == 2:
                node.function = v.decode()
    elif number == 7:
        node.elements = [_expr(v) for n, v in parts if n == 1]
        node.optional_indices = tuple(_optional_indices(parts))
    elif number == 8:
        message = next((v.decode() for n, v in parts if n == 1), "")
        if not message:
            node.kind = "map"
        for n, v in parts:
            if n != 2:
                continue
            key = value = None
            optional = False
            for en, ev in _fields(v):
                if en == 3:
                    key = _expr(ev)
                elif en == 4:
                    value = _expr(ev)
                elif en == 5:
                    optional = bool(ev)
            if value is not None:
                if key is not None:
                    node.entries.append((key, value, optional))
                node.children.extend(x for x in (key, value) if x is not None)
    elif number == 9:
        names = {n: v.decode() for n, v in parts if n in (1, 3, 8)}
        nodes = {n: _expr(v) for n, v in parts if n in (2, 4, 5, 6, 7)}
        node.children = [nodes[n] for n in (2, 4, 5, 6, 7) if n in nodes]
        empty = Node(0, "const", value=Constant("null", None))
        node.comprehension = Comprehension(
            names.get(1, ""),
            names.get(8, ""),
            names.get(3, ""),
            *(nodes.get(n, empty) for n in (2, 4, 5, 6, 7)),
        )


def _optional_indices(parts: list[tuple[int, Any]]) -> list[int]:
    found: list[int] = []
    for n, v in parts:
        if n != 2:
            continue
        if isinstance(v, bytes):  # packed
            position = 0
            while position < len(v):
                index, position = _varint(v, position)
                found.append(index)
        else:
            found.append(v)
    return found


@dataclass
class CheckedRule:
    """What the checks need of a compiled rule."""

    root: Node
    types: dict[int, CelType]
    positions: dict[int, int]
    overloads: dict[int, tuple[str, ...]] = field(default_factory=dict)  # call id: ids


def read_checked(serialized: bytes) -> CheckedRule:
    """``Expression.serialize()``'s bytes, read; of an expression compiled unchecked
    (a ``cel.expr.ParsedExpr``), the tree and positions only."""
    envelope = dict(_fields(serialized))
    payload = envelope[2]  # Any.value
    # ParsedExpr: expr 2, source_info 3; CheckedExpr: expr 4, source_info 5
    parsed = envelope.get(1, b"").endswith(b".ParsedExpr")
    expr_field, info_field = (2, 3) if parsed else (4, 5)
    root = Node(0, "const")
    types: dict[int, CelType] = {}
    positions: dict[int, int] = {}
    overloads: dict[int, tuple[str, ...]] = {}
    for number, value in _fields(payload):
        if number == expr_field:
            root = _expr(value)
        elif number == info_field:
            for n, v in _fields(value):
                if n == 4:
                    entry = dict(_fields(v))
                    positions[_signed(entry.get(1, 0))] = entry.get(2, 0)
        elif parsed:
            continue
        elif number == 2:
            entry = dict(_fields(value))
            reference = _fields(entry.get(2, b""))
            ids = tuple(v.decode() for n, v in reference if n == 3)
            if ids:
                overloads[_signed(entry.get(1, 0))] = ids
        elif number == 3:
            entry = dict(_fields(value))
            types[_signed(entry.get(1, 0))] = _type(entry.get(2, b""))
    return CheckedRule(root, types, positions, overloads)


def read_fields(checked: CheckedRule) -> frozenset[str]:
    """The field and key names the rule reads a value of: each select that is no
    presence test (``has(self.f)`` reads nothing) and each index or optional select by
    a string constant (``self['f']``, ``self[?'f']``, ``self.?f``); and the variables
    it names (``self``)."""
    names: set[str] = set()
    pending = [checked.root]
    while pending:
        node = pending.pop()
        if node.kind == "ident" or (node.kind == "select" and not node.test_only):
            names.add(node.name)
        elif node.kind == "call" and node.function in ("_[_]", "_[?_]", "_?._"):
            key = node.args[-1] if node.args else None
            if key is not None and isinstance(key.value, Constant) and key.value.kind == "string":
                names.add(str(key.value.value))
        pending.extend(node.children)
        pending.extend(node.elements)
    return frozenset(names)


def optional_escapes(checked: CheckedRule) -> bool:
    """Whether an optional value can end up inside a list or a map at run time: a node
    typed ``optional_type`` that is an element of a list literal (not a ``[?x]`` one),
    a value of a map literal (not a ``{?k: v}`` one), the value ``transformMap`` inserts
    or the argument of ``dyn`` (whose value may then go anywhere); a macro's result list
    is such a literal. The engine's
    conversion of a list or map holding one for a Python function raises or kills the
    process (SIGSEGV); ``self`` and ``oldSelf`` hold none."""

    def optional(node: Node) -> bool:
        return checked.types.get(node.id, CelType("dyn")).name == "optional_type"

    def visit(node: Node) -> bool:
        if node.kind == "list":
            kept = set(node.optional_indices)
            if any(optional(e) for i, e in enumerate(node.elements) if i not in kept):
                return True
        elif node.kind == "map":
            if any(
                optional(value) for _, value, entry_optional in node.entries if not entry_optional
            ):
                return True
        elif node.kind == "call" and node.function == "dyn" and any(map(optional, node.args)):
            return True
        elif node.kind == "call" and node.function == "cel.@mapInsert" and optional(node.args[-1]):
            return True  # transformMap's value: an optional inserted into the result map
        return any(map(visit, (*node.children, *node.elements)))

    return visit(checked.root)


def homogeneous_literal_errors(checked: CheckedRule) -> list[tuple[int, str]]:
    """(source offset, message) of every literal element whose type is not the first's."""
    found: list[tuple[int, str]] = []

    def mismatch(expected: CelType, node: Node) -> None:
        actual = checked.types.get(node.id, CelType("dyn"))
        found.append(
            (checked.positions.get(node.id, 0), f"expected type '{expected}' but found '{actual}'")
        )

    def element_type(node: Node, optional: bool) -> CelType:
        found_type = checked.types.get(node.id, CelType("dyn"))
        if optional and found_type.parameters:
            return found_type.parameters[0]
        return found_type

    def visit(node: Node, exempt: bool) -> None:
        inside_format = exempt or (node.kind == "call" and node.function == "format")
        if node.kind == "list" and not exempt:
            first: CelType | None = None
            for index, element in enumerate(node.elements):
                kind = element_type(element, index in node.optional_indices)
                if first is None:
                    first = kind
                elif kind != first:
                    mismatch(first, element)
                    break
        if node.kind == "map" and not exempt:
            key_type = value_type = None
            for key, value, optional in node.entries:
                kt, vt = element_type(key, False), element_type(value, optional)
                if key_type is None:
                    key_type, value_type = kt, vt
                    continue
                if kt != key_type:
                    mismatch(key_type, key)
                if vt != value_type:
                    assert value_type is not None
                    mismatch(value_type, value)
        for child in (*node.children, *node.elements):
            visit(child, inside_format)

    visit(checked.root, False)
    return found


#: the types ``index_of_type_errors`` tells apart: any other (a wrapper, a message, an
#: abstract type) is taken as assignable, as a refusal there is not known to be the server's
_KNOWN_KINDS = frozenset(
    {
        "bool", "int", "uint", "double", "string", "bytes", "list", "map", "optional_type",
        "null_type", "google.protobuf.Timestamp", "google.protobuf.Duration", "type",
    }
)  # fmt: skip
#: what ``null`` is not assignable to (cel-go checker/types.go: a primitive or a container)
_NOT_NULLABLE = frozenset({"bool", "int", "uint", "double", "string", "bytes", "list", "map"})


def _assignable(parameter: CelType, argument: CelType) -> bool:
    """cel-go's checker ``isAssignable`` of ``argument`` to ``parameter``, for the types
    ``_KNOWN_KINDS`` names (no numeric conversion: ``1u`` is no ``int``)."""
    if "dyn" in (parameter.name, argument.name) or "*error*" in (parameter.name, argument.name):
        return True
    if argument.name == "null_type":
        return parameter.name not in _NOT_NULLABLE
    if parameter.name not in _KNOWN_KINDS or argument.name not in _KNOWN_KINDS:
        return True
    if parameter.name != argument.name or len(parameter.parameters) != len(argument.parameters):
        return False
    return all(map(_assignable, parameter.parameters, argument.parameters))


def index_of_type_errors(checked: CheckedRule) -> list[tuple[int, str]]:
    """(source offset, message) of each ``indexOf`` or ``lastIndexOf`` on a list whose
    argument is not of the list's element type: lists.go declares ``list(A).indexOf(A)``,
    which cel-go's checker refuses (``found no matching overload``), where this engine's
    declarations (over ``list(dyn)``, ``library.indexing``) take any argument."""
    found: list[tuple[int, str]] = []

    def visit(node: Node) -> None:
        name = node.function.removeprefix("__")  # environment.prepare's renames
        if node.kind == "call" and node.function in ("__indexOf", "__lastIndexOf"):
            target = node.target
            receiver = checked.types.get(target.id) if target is not None else None
            if receiver is not None and receiver.name == "list" and len(node.args) == 1:
                argument = checked.types.get(node.args[0].id, CelType("dyn"))
                element = receiver.parameters[0] if receiver.parameters else CelType("dyn")
                if not _assignable(element, argument):
                    found.append(
                        (
                            checked.positions.get(node.id, 0),
                            f"found no matching overload for '{name}' applied to "
                            f"'{receiver}.({argument})'",
                        )
                    )
        for child in (*node.children, *node.elements):
            visit(child)

    visit(checked.root)
    return found


#: the element types of the lists library's overloads (lists.go: comparableTypes,
#: summableTypes), by function
_COMPARABLE = frozenset(
    {
        "int", "uint", "double", "bool", "google.protobuf.Duration",
        "google.protobuf.Timestamp", "string", "bytes",
    }
)  # fmt: skip
_ELEMENT_TYPES = {
    "isSorted": _COMPARABLE,
    "min": _COMPARABLE,
    "max": _COMPARABLE,
    "sum": frozenset({"int", "uint", "double", "google.protobuf.Duration"}),
}
_SETS = frozenset({"sets.contains", "sets.equivalent", "sets.intersects"})


def overload_type_errors(checked: CheckedRule) -> list[tuple[int, str]]:
    """(source offset, message) of each call cel-go's checker finds no overload for
    where this engine's declarations take any argument: ``in`` of a value not of the
    list's element or the map's key type (``in_list``: ``(A, list(A))``), the sets
    library's calls on lists of two element types (``(list(T), list(T))``), and the
    lists library's ``isSorted``, ``min``, ``max`` of a list whose elements are not
    comparable and ``sum`` of one whose are not summable (lists.go's overloads)."""
    found: list[tuple[int, str]] = []

    def type_of(node: Node) -> CelType:
        return checked.types.get(node.id, CelType("dyn"))

    def element(container: CelType) -> CelType:
        return container.parameters[0] if container.parameters else CelType("dyn")

    def refuse(node: Node, applied: str) -> None:
        found.append(
            (
                checked.positions.get(node.id, 0),
                f"found no matching overload for '{node.function}' applied to '{applied}'",
            )
        )

    def visit(node: Node) -> None:
        if node.kind == "call":
            arguments = [type_of(child) for child in node.args]
            if node.function == "@in" and len(arguments) == 2:
                value, container = arguments
                if container.name in ("list", "map") and not _assignable(element(container), value):
                    refuse(node, f"({value}, {container})")
            elif node.function in _SETS and len(arguments) == 2:
                first, second = arguments
                if first.name == second.name == "list" and not _assignable(
                    element(first), element(second)
                ):
                    refuse(node, f"({first}, {second})")
            elif node.function in _ELEMENT_TYPES and node.target is not None and not node.args:
                receiver = type_of(node.target)
                kind = element(receiver).name
                if (
                    receiver.name == "list"
                    and kind in _KNOWN_KINDS
                    and kind not in _ELEMENT_TYPES[node.function]
                ):
                    refuse(node, f"{receiver}.()")
        for child in (*node.children, *node.elements):
            visit(child)

    visit(checked.root)
    return found


#: what each clause of string.format takes, by verb, and the words of its refusal
#: (cel-go ext/formatting.go, the version-1 formatter kube-apiserver's strings library
#: (``ext.StringsVersion(2)``) compiles with: ``stringFormatChecker`` and the
#: ``*FormatError`` helpers); ``s`` takes more (``_FORMAT_STRING_TYPES``)
_FORMAT_CLAUSES: dict[str, tuple[frozenset[str], str]] = {
    "d": (frozenset({"int", "uint"}), "decimal clause can only be used on integers"),
    "f": (frozenset({"double", "string"}), "fixed-point clause can only be used on doubles"),
    "e": (frozenset({"double", "string"}), "scientific clause can only be used on doubles"),
    "b": (
        frozenset({"int", "uint", "bool"}),
        "only integers and bools can be formatted as binary",
    ),
    "x": (
        frozenset({"int", "uint", "string", "bytes"}),
        "only integers, byte buffers, and strings can be formatted as hex",
    ),
    "o": (frozenset({"int", "uint"}), "octal clause can only be used on integers"),
}
_FORMAT_CLAUSES["X"] = _FORMAT_CLAUSES["x"]
_FORMAT_STRING_TYPES = frozenset(
    {
        "list", "map", "int", "uint", "double", "bool", "string", "bytes", "type",
        "null_type", "google.protobuf.Timestamp", "google.protobuf.Duration",
    }
)  # fmt: skip
_FORMAT_STRING_ERROR = (
    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, "
    "types, durations, and timestamps"
)


class _FormatError(Exception):
    """A refusal of one format call: its words and the node cel-go reports it at (the
    argument a clause does not take, else the call)."""

    def __init__(self, message: str, node: int | None = None) -> None:
        super().__init__(message)
        self.message, self.node = message, node


def _format_requested(text: str, check: Callable[[int, str], None]) -> int:
    """cel-go's ``parseFormatString`` as its checker runs it over a constant format
    string: ``check(argument index, verb)`` for each clause; the number of arguments
    requested, or the first ``_FormatError`` (the order of its checks kept: an argument
    is requested before a lone ``%`` at the end is refused, and before its index is)."""
    data = text.encode()
    index = requested = 0
    while index < len(data):
        if data[index] != 0x25:  # %
            index += 1
            continue
        if data[index + 1 : index + 2] == b"%":
            index += 2
            continue
        if index + 1 >= len(data):
            raise _FormatError("unexpected end of string")
        argument = requested
        requested += 1
        try:
            index, verb, _precision = parse_clause(data, index + 1)
        except ClauseError as error:
            raise _FormatError(str(error)) from None
        check(argument, verb)
    return requested


def format_literal_errors(checked: CheckedRule) -> list[tuple[int, str]]:
    """(source offset, message) of cel-go's ``stringFormatValidator`` (ext/formatting.go,
    an AST validator of the strings library): a constant format string applied to a list
    literal is parsed when the rule compiles, and its first error refuses the rule: a
    clause it cannot parse, an index beyond the list, an argument of a type its clause
    does not take (a ``dyn`` one passes; for ``%s`` the elements of a list or map
    literal are looked at too), more arguments than clauses."""
    found: list[tuple[int, str]] = []

    def type_name(node: Node) -> str:
        kind = checked.types.get(node.id, CelType("dyn"))
        return kind.name

    def string_argument(node: Node) -> Node | None:
        """The node a ``%s`` clause cannot take (``verifyString``), or None."""
        name = type_name(node)
        if name != "dyn" and name not in _FORMAT_STRING_TYPES:
            return node
        if node.kind == "list":
            nested: Sequence[Node] = node.elements
        elif node.kind == "map":
            nested = [part for key, value, _ in node.entries for part in (key, value)]
        else:
            return None
        for element in nested:
            bad = string_argument(element)
            if bad is not None:
                return bad
        return None

    def check(call: Node) -> None:
        target, args = call.target, call.args
        if target is None or target.kind != "const" or len(args) != 1 or args[0].kind != "list":
            return
        if not isinstance(target.value, Constant) or target.value.kind != "string":
            return
        elements = args[0].elements

        def clause(argument: int, verb: str) -> None:
            if argument >= len(elements):
                raise _FormatError(f"index {argument} out of range")
            element = elements[argument]
            if verb == "s":
                bad = string_argument(element)
                if bad is not None:
                    raise _FormatError(
                        f"error during formatting: {_FORMAT_STRING_ERROR}, "
                        f"was given {type_name(bad)}",
                        bad.id,
                    )
                return
            allowed, words = _FORMAT_CLAUSES[verb]
            name = type_name(element)
            if name != "dyn" and name not in allowed:
                raise _FormatError(
                    f"error during formatting: {words}, was given {name}", element.id
                )

        at = checked.positions.get(call.id, 0)
        try:
            requested = _format_requested(str(target.value.value), clause)
        except _FormatError as error:
            where = at if error.node is None else checked.positions.get(error.node, at)
            found.append((where, error.message))
            return
        if len(elements) > requested:
            message = (
                "too many arguments supplied to string.format "
                f"(expected {requested}, got {len(elements)})"
            )
            found.append((at, message))

    def visit(node: Node) -> None:
        if node.kind == "call" and node.function == "format":
            check(node)
        for child in (*node.children, *node.elements):
            visit(child)

    visit(checked.root)
    return found


def rename_calls(
    serialized: bytes,
    old: str,
    new: str,
    overloads: tuple[str, ...],
    *,
    only: str = "",
) -> bytes:
    """``Expression.serialize()``'s bytes with every call of ``old`` calling ``new``,
    its reference naming ``overloads``; with ``only``, just the calls the checker
    resolved to that overload alone (``int`` of a string; not of a double, nor of a
    ``dyn`` value, which the engine dispatches at run time)."""
    outer = _fields(serialized)
    payload = next(v for n, v in outer if n == 2)
    renamed: set[int] = set()
    chosen: set[int] | None = None
    if only:
        chosen = _resolved_to(_fields(payload), only)
    parts = [
        (n, _renamed(v, old, new, renamed, chosen) if n == 4 else v) for n, v in _fields(payload)
    ]
    reference = b"".join(message_field(3, o.encode()) for o in overloads)
    kept = []
    for number, value in parts:
        if number == 2 and _signed(dict(_fields(value)).get(1, 0)) in renamed:
            continue  # the old reference: replaced below
        kept.append((number, value))
    kept += [(2, varint_field(1, node) + message_field(2, reference)) for node in sorted(renamed)]
    return encode_fields([(n, encode_fields(kept) if n == 2 else v) for n, v in outer])


# the fields holding expressions, by expression kind (syntax.proto); 8's are in entries
_CHILDREN = {5: (1,), 6: (1, 3), 7: (1,), 9: (2, 4, 5, 6, 7)}


def _rewritten(
    data: bytes,
    function: Callable[[int, bytes], bytes],
    expression: Callable[[int, bytes], bytes] = lambda node, expr: expr,
) -> bytes:
    """An expression's bytes rewritten bottom up: each call's function name through
    ``function(node id, name)``, then each node's bytes through ``expression``."""
    node = 0
    out: list[tuple[int, Any]] = []
    for number, value in _fields(data):
        if number == 2:
            node = _signed(value)
        elif number in _CHILDREN:
            children = _CHILDREN[number]
            fields = []
            for n, v in _fields(value):
                if n in children:
                    v = _rewritten(v, function, expression)
                elif number == 6 and n == 2:
                    v = function(node, v)
                fields.append((n, v))
            value = encode_fields(fields)
        elif number == 8:
            fields = []
            for n, v in _fields(value):
                if n == 2:  # an entry: its map key (3) and value (4)
                    v = encode_fields(
                        [(k, _rewritten(x, function, expression) if k in (3, 4) else x)
                         for k, x in _fields(v)]
                    )  # fmt: skip
                fields.append((n, v))
            value = encode_fields(fields)
        out.append((number, value))
    return expression(node, encode_fields(out))


def _renamed(
    data: bytes, old: str, new: str, renamed: set[int], chosen: set[int] | None = None
) -> bytes:
    def rename(node: int, name: bytes) -> bytes:
        if name != old.encode() or (chosen is not None and node not in chosen):
            return name
        renamed.add(node)
        return new.encode()

    return _rewritten(data, rename)


def _resolved_to(parts: list[tuple[int, Any]], overload: str) -> set[int]:
    """The ids of the calls a ``CheckedExpr``'s reference map (``parts``, its fields)
    resolves to ``overload`` alone."""
    return {
        _signed(entry.get(1, 0))
        for n, v in parts
        if n == 2
        for entry in (dict(_fields(v)),)
        if [x for k, x in _fields(entry.get(2, b"")) if k == 3] == [overload.encode()]
    }


def wrap_calls(serialized: bytes, overload: str, wrapper: str, wrapper_overload: str) -> bytes:
    """``Expression.serialize()``'s bytes with every call the checker resolved to
    ``overload`` alone made the argument of a call of ``wrapper`` (of the same type,
    resolved to ``wrapper_overload``): what ``environment.runnable`` uses to reword a
    result the engine computes exactly but writes otherwise."""
    outer = _fields(serialized)
    payload = next(v for n, v in outer if n == 2)
    parts = _fields(payload)
    chosen = _resolved_to(parts, overload)
    if not chosen:
        return serialized
    types = {
        _signed(entry.get(1, 0)): entry.get(2, b"")
        for n, v in parts
        if n == 3
        for entry in (dict(_fields(v)),)
    }
    made: list[tuple[int, int]] = []  # (wrapper id, wrapped id)
    next_id = [max((*types, *chosen), default=0) + 1]

    def wrapped(node: int, expr: bytes) -> bytes:
        if node not in chosen:
            return expr
        new = next_id[0]
        next_id[0] += 1
        made.append((new, node))
        call = encode_fields([(2, wrapper.encode()), (3, expr)])
        return encode_fields([(2, new), (6, call)])

    kept: list[tuple[int, Any]] = [
        (n, _rewritten(v, lambda node, name: name, wrapped) if n == 4 else v) for n, v in parts
    ]
    reference = message_field(3, wrapper_overload.encode())
    for new, node in made:
        kept.append((2, varint_field(1, new) + message_field(2, reference)))
        kept.append((3, varint_field(1, new) + message_field(2, types.get(node, b""))))
    return encode_fields([(n, encode_fields(kept) if n == 2 else v) for n, v in outer])
