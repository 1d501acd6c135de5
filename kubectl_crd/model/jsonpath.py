"""client-go's JSONPath dialect (``k8s.io/client-go/util/jsonpath``), written once.

kubectl and the API server do not speak RFC 9535 JSONPath but client-go's template
dialect: text outside ``{...}`` is literal, ``{range}``/``{end}`` loop, and the
evaluator has its own quirks (missing keys, type-strict filters, map values in key order,
out-of-bounds indexes as errors). Printer columns (the apiextensions-apiserver table
convertor), ``--sort-by``, ``-o jsonpath`` and ``-o custom-columns`` all go through this
module so that they agree with each other and with Kubernetes.

Values are plain JSON data: ``int`` stands for Go's ``int64``, ``float`` for ``float64``,
``None`` for a JSON null (a nil interface in Go).
"""

from __future__ import annotations

import json
import re

from kubectl_crd.model.govalues import go_json, go_print
from kubectl_crd.model.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "JSONPath",
    "JSONPathError",
    "go_print",
    "parse_jsonpath",
]


class JSONPathError(ValueError):
    """A template that does not parse, or an evaluation error, in client-go's words."""


# --- nodes (util/jsonpath/node.go) -------------------------------------------------


class _List:
    """A sequence of nodes, filled in as the parser reads them."""

    __slots__ = ("nodes",)

    def __init__(self, nodes: list[Any] | None = None) -> None:
        self.nodes: list[Any] = nodes if nodes is not None else []


@record
class _Text:
    text: str


@record
class _Field:
    name: str


@record
class _Param:
    value: int
    known: bool
    derived: bool = False


@record
class _Array:
    params: tuple[_Param, _Param, _Param]


@record
class _Filter:
    left: _List
    right: _List
    operator: str


class _GoInt(int):
    """An integer literal of a template: Go's ``int``, compared as ``float64``."""


@record
class _Number:
    value: float | _GoInt


@record
class _Bool:
    value: bool


@record
class _Wildcard:
    pass


@record
class _Recursive:
    pass


@record
class _Union:
    lists: tuple[_List, ...]


@record
class _Identifier:
    name: str


# --- parser (util/jsonpath/parser.go) ------------------------------------------------

_DICT_KEY = re.compile(r"^'([^']*)'$")
_SLICE = re.compile(r"^(-?\d*)(:-?\d*)?(:-?\d*)?$")
_FILTER = re.compile(r"^([^!<>=]+)([!<>=]+)(.+?)$", re.DOTALL)
_TERMINATORS = frozenset(" \t\r\n.,[]$@{}")


class _Parser:
    def __init__(self, text: str) -> None:
        self.input = text
        self.pos = 0
        self.start = 0
        self.root = _List()

    def parse(self) -> _List:
        self._text(self.root)
        return self.root

    def _consume(self) -> str:
        value = self.input[self.start : self.pos]
        self.start = self.pos
        return value

    def _next(self) -> str:
        if self.pos >= len(self.input):
            self.pos += 0
            return ""
        char = self.input[self.pos]
        self.pos += 1
        return char

    def _peek(self) -> str:
        return self.input[self.pos] if self.pos < len(self.input) else ""

    def _text(self, cur: _List) -> None:
        found = self.input.find("{", self.pos)
        if found < 0:
            self.pos = len(self.input)
            if self.pos > self.start:
                cur.nodes.append(_Text(self._consume()))
            return
        self.pos = found
        if self.pos > self.start:
            cur.nodes.append(_Text(self._consume()))
        self.pos += 1
        self._consume()
        action = _List()
        cur.nodes.append(action)
        self._inside(action)

    def _inside(self, cur: _List) -> None:
        while True:
            rest = self.input[self.pos :]
            if rest.startswith("}"):
                self.pos += 1
                self._consume()
                self._text(self.root)
                return
            if rest.startswith("[?("):
                self._filter(cur)
                continue
            if rest.startswith(".."):
                if cur.nodes and isinstance(cur.nodes[-1], _Recursive):
                    raise JSONPathError("invalid multiple recursive descent")
                self.pos += 2
                self._consume()
                cur.nodes.append(_Recursive())
                if _alphanumeric(self._peek()):
                    self._field(cur)
                continue
            char = self._next()
            if char == "" or char in "\r\n":
                raise JSONPathError("unclosed action")
            if char in " @$":
                self._consume()
            elif char == "[":
                self._array(cur)
            elif char in "\"'":
                self._quote(cur, char)
            elif char == ".":
                self._field(cur)
            elif char in "+-" or char.isdigit():
                self.pos -= 1
                self._number(cur)
            elif _alphanumeric(char):
                self.pos -= 1
                self._identifier(cur)
            else:
                raise JSONPathError(f"unrecognized character in action: {_go_rune(char)}")

    def _identifier(self, cur: _List) -> None:
        while (char := self._next()) != "" and char not in _TERMINATORS:
            pass
        if char != "":
            self.pos -= 1
        value = self._consume()
        if value in ("true", "false"):
            cur.nodes.append(_Bool(value == "true"))
        else:
            cur.nodes.append(_Identifier(value))

    def _number(self, cur: _List) -> None:
        if self._peek() in ("+", "-") and self._peek() != "":
            self.pos += 1
        while (char := self._next()) != "" and (char == "." or char.isdigit()):
            pass
        if char != "":
            self.pos -= 1
        value = self._consume()
        if re.fullmatch(r"[+-]?\d+", value):
            cur.nodes.append(_Number(_GoInt(int(value))))
            return
        try:
            cur.nodes.append(_Number(float(value)))
        except ValueError:
            raise JSONPathError(f"cannot parse number {value}") from None

    def _array(self, cur: _List) -> None:
        while True:
            char = self._next()
            if char in ("", "\n"):
                raise JSONPathError("unterminated array")
            if char == "]":
                break
        text = self._consume()[1:-1]
        if text == "*":
            text = ":"
        parts = text.split(",")
        if len(parts) > 1:
            lists = tuple(_parse_action(f"[{part.strip(' ')}]") for part in parts)
            cur.nodes.append(_Union(lists))
            return
        key = _DICT_KEY.match(text)
        if key:
            cur.nodes.extend(_parse_action(f".{key.group(1)}").nodes)
            return
        match = _SLICE.match(text)
        if match is None:
            raise JSONPathError(f"invalid array index {text}")
        groups = [match.group(1) or "", match.group(2) or "", match.group(3) or ""]
        params: list[_Param] = []
        for index, raw in enumerate(groups):
            if raw != "":
                digits = raw[1:] if index > 0 else raw
                if index > 0 and digits == "":
                    params.append(_Param(0, False))
                else:
                    try:
                        params.append(_Param(int(digits), True))
                    except ValueError:
                        raise JSONPathError(f"array index {digits} is not a number") from None
            elif index == 1:
                params.append(_Param(params[0].value + 1, True, True))
            else:
                params.append(_Param(0, False))
        cur.nodes.append(_Array((params[0], params[1], params[2])))

    def _filter(self, cur: _List) -> None:
        self.pos += 3
        self._consume()
        begin = end = False
        pair = ""
        while True:
            char = self._next()
            if char in ("", "\n"):
                raise JSONPathError("unterminated filter")
            if char in "\"'":
                if not begin:
                    begin, pair = True, char
                    continue
                if self.input[self.pos - 2] != "\\" and char == pair:
                    end = True
            elif char == ")" and begin == end:
                break
        if self._next() != "]":
            raise JSONPathError("unclosed array expect ]")
        text = self._consume()[:-2]
        match = _FILTER.match(text)
        if match is None:
            cur.nodes.append(_Filter(_parse_action(text), _List(), "exists"))
        else:
            left = _parse_action(match.group(1))
            right = _parse_action(match.group(3))
            cur.nodes.append(_Filter(left, right, match.group(2)))

    def _quote(self, cur: _List, quote: str) -> None:
        while True:
            char = self._next()
            if char in ("", "\n"):
                raise JSONPathError("unterminated quoted string")
            if char == quote and self.input[self.pos - 2] != "\\":
                break
        value = self._consume()
        cur.nodes.append(_Text(_unquote(value)))

    def _field(self, cur: _List) -> None:
        self._consume()
        while True:
            char = self._next()
            if char == "\\":
                self._next()
                continue
            if char == "" or char in _TERMINATORS:
                if char != "":
                    self.pos -= 1
                break
        value = self._consume()
        if value == "*":
            cur.nodes.append(_Wildcard())
        else:
            cur.nodes.append(_Field(value.replace("\\", "")))


def _alphanumeric(char: str) -> bool:
    return char != "" and (char == "_" or char.isalpha() or char.isdigit())


def _go_rune(char: str) -> str:
    """Go's ``%#U``: ``U+0021 '!'``."""
    return f"U+{ord(char):04X} '{char}'"


def _unquote(value: str) -> str:
    """``UnquoteExtend``: Go's string unquoting, for single quotes too."""
    body = value[1:-1]
    if "\\" not in body:
        return body
    try:
        decoded: str = json.loads('"' + body.replace('"', '\\"').replace("\\'", "'") + '"')
    except ValueError:
        raise JSONPathError(f"unquote string {value} error invalid syntax") from None
    return decoded


def _parse_action(text: str) -> _List:
    root = _Parser("{" + text + "}").parse()
    first = root.nodes[0]
    assert isinstance(first, _List)
    return first


def parse_jsonpath(template: str) -> JSONPath:
    """Parse a template (``{.spec.x}``, ``text {range .items[*]}{.a}{end}``)."""
    return JSONPath(template)


# --- Go formatting of values ----------------------------------------------------------


def _go_type(value: Any) -> str:
    if isinstance(value, dict):
        return "map[string]interface {}"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, _GoInt):
        return "int"
    if isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    return type(value).__name__


# --- evaluator (util/jsonpath/jsonpath.go) -------------------------------------------


def _kind(value: Any) -> str | None:
    """The basic kind of ``text/template``'s comparison functions (forked in client-go)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (float, _GoInt)):
        return "float"  # template int literals are compared as float64
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "string"
    return None


def _compare(operator: str, left: Any, right: Any) -> bool:
    """``evalOperator``: incompatible or uncomparable types never pass (no error)."""
    kind = _kind(left)
    if kind is None or kind != _kind(right):
        return False
    if operator == "==":
        return bool(left == right)
    if operator == "!=":
        return bool(left != right)
    if kind == "bool":
        return False
    if operator == "<":
        return bool(left < right)
    if operator == ">":
        return bool(left > right)
    if operator == "<=":
        return bool(left <= right)
    if operator == ">=":
        return bool(left >= right)
    raise JSONPathError(f"unrecognized filter operator {operator}")


def _children(value: Any) -> list[Any] | None:
    """``iterHelper``: list items in order, map values in key order, else not iterable."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return [value[key] for key in sorted(value)]
    return None


class JSONPath:
    """A parsed template; ``find_results`` is client-go's ``FindResults``."""

    def __init__(self, template: str, *, allow_missing_keys: bool = False) -> None:
        self.template = template
        self.allow_missing_keys = allow_missing_keys
        self._root = _Parser(template).parse()
        # a plain field chain (``{.spec.replicas}``, most printer columns): ``first``
        # walks it directly, with the same answers as the general evaluation
        self._fields: tuple[str, ...] | None = None
        if len(self._root.nodes) == 1 and isinstance(self._root.nodes[0], _List):
            chain = self._root.nodes[0].nodes
            if chain and all(isinstance(n, _Field) and n.name for n in chain):
                self._fields = tuple(n.name for n in chain)
        self._stack: list[list[Any]] = []
        self._cur: list[Any] = []
        self._begin_range = self._in_range = self._end_range = 0

    def find_results(self, data: Any) -> list[list[Any]]:
        self._stack = []
        self._begin_range = self._in_range = self._end_range = 0
        return self._find(data, self._root.nodes)

    def first(self, data: Any) -> tuple[bool, Any]:
        """The apiextensions-apiserver column lookup: ``results[0][0]``, or (False, None)
        when the lookup fails, finds nothing, or finds an empty first list."""
        if self._fields is not None:
            value = data
            for name in self._fields:
                if not isinstance(value, dict) or name not in value:
                    return False, None
                value = value[name]
            return True, value
        try:
            results = self.find_results(data)
        except JSONPathError:
            return False, None
        if not results or not results[0]:
            return False, None
        return True, results[0][0]

    def execute(self, data: Any) -> str:
        """``Execute``: every result list printed, values separated by a space."""
        return "".join(print_results(values) for values in self.find_results(data))

    def _find(self, data: Any, nodes: list[Any]) -> list[list[Any]]:
        self._cur = [data]
        full: list[list[Any]] = []
        for index, node in enumerate(nodes):
            results = self._walk(self._cur, node)
            if self._end_range > 0 and self._end_range <= self._in_range:
                self._end_range -= 1
                break
            if self._begin_range > 0:
                self._begin_range -= 1
                self._in_range += 1
                for position, value in enumerate(results):
                    if position == len(results) - 1:
                        self._in_range -= 1
                    full.extend(self._find(value, nodes[index + 1 :]))
                break
            full.append(results)
        return full

    def _walk(self, values: list[Any], node: Any) -> list[Any]:
        if isinstance(node, _List):
            return self._list(values, node)
        if isinstance(node, _Text):
            return [node.text]
        if isinstance(node, _Field):
            return self._field(values, node)
        if isinstance(node, _Array):
            return self._array(values, node)
        if isinstance(node, _Filter):
            return self._filter(values, node)
        if isinstance(node, (_Number, _Bool)):
            return [node.value for _ in values]
        if isinstance(node, _Wildcard):
            out: list[Any] = []
            for value in values:
                items = _children(value)
                if items is not None:
                    out.extend(items)
            return out
        if isinstance(node, _Recursive):
            return self._recursive(values)
        if isinstance(node, _Union):
            out = []
            for part in node.lists:
                out.extend(self._list(values, part))
            return out
        if isinstance(node, _Identifier):
            return self._identifier(values, node)
        raise JSONPathError(f"unexpected Node {node}")

    def _list(self, values: list[Any], node: _List) -> list[Any]:
        for child in node.nodes:
            values = self._walk(values, child)
        return values

    def _identifier(self, values: list[Any], node: _Identifier) -> list[Any]:
        if node.name == "range":
            self._stack.append(self._cur)
            self._begin_range += 1
            return values
        if node.name == "end":
            if self._end_range < self._in_range:
                self._end_range += 1
                return []
            if not self._stack:
                raise JSONPathError("not in range, nothing to end")
            self._cur = self._stack.pop()
            return []
        raise JSONPathError(f"unrecognized identifier {node.name}")

    def _field(self, values: list[Any], node: _Field) -> list[Any]:
        if not values:
            return []
        out = [v[node.name] for v in values if isinstance(v, dict) and node.name in v]
        if not out and not self.allow_missing_keys:
            raise JSONPathError(f"{node.name} is not found")
        return out

    def _array(self, values: list[Any], node: _Array) -> list[Any]:
        out: list[Any] = []
        for value in values:
            if value is None:
                continue
            if not isinstance(value, list):
                raise JSONPathError(f"{_go_type(value)} is not array or slice")
            length = len(value)
            first, second, third = node.params
            start = first.value if first.known else 0
            if start < 0:
                start += length
            end = second.value if second.known else length
            if end < 0 or (end == 0 and second.derived):
                end += length
            if end == start:
                return out
            if start >= length or start < 0:
                raise JSONPathError(f"array index out of bounds: index {start}, length {length}")
            if end > length or end < 0:
                raise JSONPathError(f"array index out of bounds: index {end - 1}, length {length}")
            if start > end:
                raise JSONPathError(f"starting index {start} is greater than ending index {end}")
            step = 1
            if third.known:
                if third.value <= 0:
                    raise JSONPathError("step must be > 0")
                step = third.value
            out.extend(value[start:end:step])
        return out

    def _recursive(self, values: list[Any]) -> list[Any]:
        out: list[Any] = []
        for value in values:
            items = _children(value)
            if items:
                out.append(value)
                out.extend(self._recursive(items))
        return out

    def _filter(self, values: list[Any], node: _Filter) -> list[Any]:
        out: list[Any] = []
        for value in values:
            items = _children(value)
            if items is None:
                items = [value]
            for item in items:
                try:
                    lefts = self._list([item], node.left)
                except JSONPathError:
                    if not self.allow_missing_keys:
                        raise
                    lefts = []
                rights = self._list([item], node.right)
                if not lefts:
                    continue
                if len(lefts) > 1:
                    raise JSONPathError("can only compare one element at a time")
                if node.operator == "exists":
                    out.append(item)
                    continue
                if not rights:
                    continue
                if len(rights) > 1:
                    raise JSONPathError("can only compare one element at a time")
                if _compare(node.operator, lefts[0], rights[0]):
                    out.append(item)
        return out


def print_results(values: list[Any]) -> str:
    """``PrintResults``: maps and lists as JSON, scalars as ``fmt.Fprint``."""
    return " ".join(go_json(v) if isinstance(v, (dict, list)) else go_print(v) for v in values)
