"""A small, partial CEL evaluator for ``x-kubernetes-validations`` rules, used by ``sample``.

Most CRD rules that reject a skeleton are about which optional fields are present
(``has(self.a) != has(self.b)``, ``self.mode == 'Pipeline' && has(self.pipeline)``,
``size(self) > 0``, ``self.matches('^...$')``). ``kubectl crd sample`` uses this module
to notice such a rule failing and to try another skeleton. It is *not* the validator:
``evaluate`` answers ``True``/``False`` only for expressions made of the pieces below and
``None`` (cannot tell) for anything else, and the API server stays the judge.

Supported: literals (int, double, string, bool, null, lists, maps), ``self`` and field
selection (with the ``__dash__``-style escapes of ``apiserver/pkg/cel/escaping.go``),
indexing, ``has()``, ``! - * / % + - < <= > >= == != in && || ?:``, ``size``,
``startsWith``/``endsWith``/``contains``/``matches`` (RE2, via ``regex_examples``),
``int``/``string``/``double``, and the ``all``/``exists``/``exists_one``/``map``/``filter``
macros. CEL's error absorption is kept: ``true || error`` is ``true``.
Transition rules (``oldSelf``) never run on create; they evaluate to ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from kubectl_crd.model.durations import (
    NANOSECONDS_PER_SECOND,
    DurationSyntaxError,
    parse_go_duration,
)
from kubectl_crd.model.records import record
from kubectl_crd.model.sample import regex_examples


class Unsupported(Exception):
    """The expression uses CEL we do not evaluate."""


class CelError(Exception):
    """A CEL runtime error (no such key, bad types): the rule fails on the server."""


_STRING = "|".join(
    (
        r"'''(?:[^\\]|\\.)*?'''",  # triple-quoted strings may span lines
        r'"""(?:[^\\]|\\.)*?"""',
        r"'(?:[^'\\\n]|\\.)*'",
        r'"(?:[^"\\\n]|\\.)*"',
    )
)
_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+\.\d+(?:[eE][+-]?\d+)?|0x[0-9a-fA-F]+|\d+[uU]?)"
    rf"|(?P<string>[rR]?(?:{_STRING}))"
    r"|(?P<ident>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>==|!=|<=|>=|&&|\|\||[-+*/%!<>?:.,()\[\]{}]))"
)
_ESCAPES = {"__dash__": "-", "__dot__": ".", "__slash__": "/", "__underscores__": "__"}
_RESERVED = re.compile(r"^__([a-z]+)__$")


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            raise Unsupported(f"cannot read {text[pos : pos + 10]!r}")
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        pos = match.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    tokens.append(("end", ""))
    return tokens


# ------------------------------------------------------------------- syntax tree


@record
class _Node:
    op: str
    args: tuple[Any, ...] = ()


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.pos = 0

    def peek(self) -> str:
        return self.tokens[self.pos][1]

    def take(self, expected: str | None = None) -> tuple[str, str]:
        token = self.tokens[self.pos]
        if expected is not None and token[1] != expected:
            raise Unsupported(f"expected {expected!r}, got {token[1]!r}")
        self.pos += 1
        return token

    def parse(self) -> _Node:
        node = self.expr()
        if self.tokens[self.pos][0] != "end":
            raise Unsupported(f"unexpected {self.peek()!r}")
        return node

    def expr(self) -> _Node:
        cond = self.binary(0)
        if self.peek() == "?":
            self.take()
            then = self.expr()
            self.take(":")
            return _Node("?:", (cond, then, self.expr()))
        return cond

    _LEVELS = (
        ("||",),
        ("&&",),
        ("==", "!=", "<", "<=", ">", ">=", "in"),
        ("+", "-"),
        ("*", "/", "%"),
    )

    def binary(self, level: int) -> _Node:
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._LEVELS[level] and self.tokens[self.pos][0] in ("op", "ident"):
            op = self.take()[1]
            left = _Node(op, (left, self.binary(level + 1)))
        return left

    def unary(self) -> _Node:
        if self.peek() in ("!", "-"):
            op = self.take()[1]
            return _Node("neg" if op == "-" else "!", (self.unary(),))
        return self.member()

    def member(self) -> _Node:
        node = self.primary()
        while self.peek() in (".", "["):
            if self.take()[1] == ".":
                kind, name = self.take()
                if kind != "ident":
                    raise Unsupported("field name expected")
                if self.peek() == "(":
                    node = _Node("call", (name, node, *self.arguments()))
                else:
                    node = _Node("field", (node, unescape(name)))
            else:
                index = self.expr()
                self.take("]")
                node = _Node("index", (node, index))
        return node

    def arguments(self) -> list[_Node]:
        self.take("(")
        args: list[_Node] = []
        while self.peek() != ")":
            args.append(self.expr())
            if self.peek() == ",":
                self.take()
        self.take(")")
        return args

    def primary(self) -> _Node:
        kind, text = self.take()
        if kind == "number":
            if text.startswith("0x"):
                return _Node("lit", (int(text, 16),))
            return _Node("lit", (float(text) if "." in text else int(text.rstrip("uU")),))
        if kind == "string":
            return _Node("lit", (_string_literal(text),))
        if kind == "ident":
            if text in ("true", "false"):
                return _Node("lit", (text == "true",))
            if text == "null":
                return _Node("lit", (None,))
            if self.peek() == "(":
                return _Node("call", (text, None, *self.arguments()))
            return _Node("var", (text,))
        if text == "(":
            node = self.expr()
            self.take(")")
            return node
        if text == "[":
            items: list[_Node] = []
            while self.peek() != "]":
                items.append(self.expr())
                if self.peek() == ",":
                    self.take()
            self.take("]")
            return _Node("list", tuple(items))
        if text == "{":
            pairs: list[_Node] = []
            while self.peek() != "}":
                key = self.expr()
                self.take(":")
                pairs.append(_Node("pair", (key, self.expr())))
                if self.peek() == ",":
                    self.take()
            self.take("}")
            return _Node("map", tuple(pairs))
        raise Unsupported(f"unexpected {text!r}")


def unescape(name: str) -> str:
    """A CEL field name as the property it stands for (``escaping.go``)."""
    for escaped, plain in _ESCAPES.items():
        name = name.replace(escaped, plain)
    match = _RESERVED.match(name)
    return match.group(1) if match else name


def _string_literal(text: str) -> str:
    raw = text[0] in "rR"
    quoted = text[1:] if raw else text
    width = 3 if quoted[:3] in ("'''", '"""') else 1
    body = quoted[width:-width]
    if raw:
        return body
    return re.sub(
        r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)",
        lambda m: _ESCAPE_CHARS.get(m.group(1)) or chr(int(m.group(1)[1:], 16)),
        body,
    )


_ESCAPE_CHARS = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "`": "`"}


# ------------------------------------------------------------------- evaluation

_CACHE: dict[str, _Node | Unsupported] = {}


def evaluate(rule: str, value: Any) -> bool | None:
    """``True``/``False`` when the rule can be evaluated here, else ``None``.

    A CEL runtime error counts as ``False``: the server reports it as a failed rule.
    """
    parsed = _CACHE.get(rule)
    if parsed is None:
        try:
            parsed = _Parser(rule).parse()
        except Unsupported as exc:
            parsed = exc
        except (IndexError, ValueError):
            parsed = Unsupported(rule)
        _CACHE[rule] = parsed
    if isinstance(parsed, Unsupported):
        return None
    try:
        result = _Evaluator({"self": value}).eval(parsed)
    except Unsupported:
        return None
    except CelError:
        return False
    except (RecursionError, ValueError, TypeError, OverflowError, ZeroDivisionError):
        return None
    return result if isinstance(result, bool) else None


def matches_pattern(rule: str) -> str | None:
    """The regex of a rule that is exactly ``self.matches('...')``, else ``None``."""
    try:
        node = _Parser(rule).parse()
    except (Unsupported, IndexError, ValueError):
        return None
    if (
        node.op == "call"
        and node.args[0] == "matches"
        and node.args[1] == _Node("var", ("self",))
        and len(node.args) == 3
        and node.args[2].op == "lit"
        and isinstance(node.args[2].args[0], str)
    ):
        pattern: str = node.args[2].args[0]
        return pattern
    return None


class _Evaluator:
    def __init__(self, scope: Mapping[str, Any]) -> None:
        self.scope = dict(scope)

    def eval(self, node: _Node) -> Any:
        op = node.op
        if op == "lit":
            return node.args[0]
        if op == "var":
            name = node.args[0]
            if name not in self.scope:
                raise Unsupported(f"variable {name}")  # oldSelf, request, ...
            return self.scope[name]
        if op == "field":
            target = self.eval(node.args[0])
            if not isinstance(target, Mapping):
                raise CelError("field selection on a non-object")
            if node.args[1] not in target:
                raise CelError(f"no such key: {node.args[1]}")
            return target[node.args[1]]
        if op == "index":
            return self._index(self.eval(node.args[0]), self.eval(node.args[1]))
        if op in ("&&", "||"):
            return self._logic(op, node.args[0], node.args[1])
        if op == "?:":
            cond = self.eval(node.args[0])
            if not isinstance(cond, bool):
                raise CelError("condition is not a bool")
            return self.eval(node.args[1] if cond else node.args[2])
        if op == "!":
            value = self.eval(node.args[0])
            if not isinstance(value, bool):
                raise CelError("! needs a bool")
            return not value
        if op == "neg":
            value = self.eval(node.args[0])
            if not _is_number(value):
                raise CelError("- needs a number")
            return -value
        if op == "list":
            return [self.eval(item) for item in node.args]
        if op == "map":
            return {self.eval(p.args[0]): self.eval(p.args[1]) for p in node.args}
        if op == "call":
            return self._call(node.args[0], node.args[1], node.args[2:])
        return self._binary(op, self.eval(node.args[0]), self.eval(node.args[1]))

    def _logic(self, op: str, left_node: _Node, right_node: _Node) -> bool:
        short = op == "||"  # the value that decides the result on its own
        outcomes: list[Any] = []
        for side in (left_node, right_node):
            try:
                value = self.eval(side)
            except CelError as exc:
                outcomes.append(exc)
                continue
            if not isinstance(value, bool):
                outcomes.append(CelError(f"{op} needs bools"))
                continue
            if value is short:
                return short
            outcomes.append(value)
        for outcome in outcomes:
            if isinstance(outcome, CelError):
                raise outcome
        return not short

    def _index(self, target: Any, key: Any) -> Any:
        if isinstance(target, Mapping):
            if key not in target:
                raise CelError(f"no such key: {key}")
            return target[key]
        if isinstance(target, list) and isinstance(key, int) and not isinstance(key, bool):
            if not 0 <= key < len(target):
                raise CelError("index out of range")
            return target[key]
        raise CelError("cannot index")

    def _binary(self, op: str, left: Any, right: Any) -> Any:
        if op == "==":
            return _equal(left, right)
        if op == "!=":
            return not _equal(left, right)
        if op == "in":
            if isinstance(right, (list, Mapping)):
                return any(_equal(left, item) for item in right)
            raise CelError("in needs a list or map")
        if op in ("<", "<=", ">", ">="):
            comparable = (_is_number(left) and _is_number(right)) or (
                type(left) is type(right) and isinstance(left, (str, bool))
            )
            if not comparable:
                raise CelError(f"cannot compare with {op}")
            return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[
                op
            ]
        if op == "+":
            if (_is_number(left) and _is_number(right)) or (
                type(left) is type(right) and isinstance(left, (str, list))
            ):
                return left + right
            raise CelError("cannot add")
        if not (_is_number(left) and _is_number(right)):
            raise CelError(f"{op} needs numbers")
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if right == 0:
            raise CelError("division by zero")
        if op == "/":
            both_int = isinstance(left, int) and isinstance(right, int)
            return int(left / right) if both_int else left / right
        return left % right

    def _call(self, name: str, target: _Node | None, args: tuple[_Node, ...]) -> Any:
        if name == "has":
            if target is not None or len(args) != 1 or args[0].op != "field":
                raise Unsupported("has() needs a field selection")
            holder = self.eval(args[0].args[0])
            if not isinstance(holder, Mapping):
                raise CelError("has() on a non-object")
            return args[0].args[1] in holder
        if name in ("all", "exists", "exists_one", "map", "filter") and target is not None:
            return self._macro(name, self.eval(target), args)
        receiver = [] if target is None else [self.eval(target)]
        values = receiver + [self.eval(a) for a in args]
        function = _FUNCTIONS.get(name)
        if function is None:
            raise Unsupported(f"function {name}")
        return function(*values)

    def _macro(self, name: str, target: Any, args: tuple[_Node, ...]) -> Any:
        if len(args) != 2 or args[0].op != "var":
            raise Unsupported(f"{name} form")
        variable = args[0].args[0]
        items = list(target) if isinstance(target, (list, Mapping)) else None
        if items is None:
            raise CelError(f"{name} on a scalar")
        results = []
        for item in items:
            inner = _Evaluator({**self.scope, variable: item})
            results.append((item, inner.eval(args[1])))
        if name == "map":
            return [r for _, r in results]
        if name == "filter":
            return [item for item, r in results if r is True]
        flags = [r for _, r in results]
        if any(not isinstance(f, bool) for f in flags):
            raise CelError(f"{name} predicate is not a bool")
        if name == "all":
            return all(flags)
        if name == "exists":
            return any(flags)
        return sum(flags) == 1


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _equal(left: Any, right: Any) -> bool:
    if isinstance(left, bool) != isinstance(right, bool):
        return False
    return bool(left == right)


def _size(value: Any) -> int:
    if isinstance(value, (str, list, Mapping)):
        return len(value)
    raise CelError("size() of a scalar")


def _string_method(check: Callable[[str, str], bool]) -> Callable[[Any, Any], bool]:
    def method(text: Any, other: Any) -> bool:
        if not isinstance(text, str) or not isinstance(other, str):
            raise CelError("string function on a non-string")
        return check(text, other)

    return method


def _matches(text: Any, pattern: Any) -> bool:
    if not isinstance(text, str) or not isinstance(pattern, str):
        raise CelError("matches() on a non-string")
    try:
        return regex_examples.matches(pattern, text)
    except regex_examples.PatternSyntaxError as exc:
        raise Unsupported(f"regex {pattern}") from exc


def _ascii_case(text: Any, change: Callable[[str], str]) -> str:
    if not isinstance(text, str):
        raise CelError("case change of a non-string")
    return "".join(change(c) if c.isascii() else c for c in text)


class Duration(float):
    """A CEL ``google.protobuf.Duration``, in seconds; compares with other durations."""


def _duration(text: Any) -> Duration:
    """CEL's ``duration()``: Go's ``time.ParseDuration`` syntax."""
    if not isinstance(text, str):
        raise CelError("duration() of a non-string")
    try:
        return Duration(parse_go_duration(text) / NANOSECONDS_PER_SECOND)
    except DurationSyntaxError as exc:
        raise CelError(str(exc)) from exc


def _split(text: Any, separator: Any) -> list[str]:
    if not isinstance(text, str) or not isinstance(separator, str):
        raise CelError("split() on a non-string")
    return text.split(separator) if separator else list(text)


def _to_int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise CelError("int() conversion") from exc


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "size": _size,
    "startsWith": _string_method(str.startswith),
    "endsWith": _string_method(str.endswith),
    "contains": _string_method(lambda text, part: part in text),
    "matches": _matches,
    "duration": _duration,
    "split": _split,
    "lowerAscii": lambda text: _ascii_case(text, str.lower),
    "upperAscii": lambda text: _ascii_case(text, str.upper),
    "int": _to_int,
    "double": lambda value: float(value),
    "string": lambda value: (
        value
        if isinstance(value, str)
        else str(value).lower()
        if isinstance(value, bool)
        else str(value)
    ),
}
