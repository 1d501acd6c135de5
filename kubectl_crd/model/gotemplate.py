"""Go's ``text/template`` over decoded JSON, as kubectl's ``-o go-template`` runs it.

Pure: stdlib only; imported only when a template format is asked for (start-up:
``bench/fast_path_bench.py``).

What it mirrors (semantics and message texts, not code):

- ``text/template/parse`` (``lex.go``, ``parse.go``, ``node.go``): actions, trim markers
  ``{{- -}}``, comments, pipelines with ``:=``/``=`` variables, ``if``/``else if``,
  ``range`` (with ``else``, ``break``, ``continue``, two variables, over an int),
  ``with``/``else with``, ``define``/``template``/``block``; a parse error is
  ``template: NAME:LINE: message``.
- ``text/template`` (``exec.go``, ``funcs.go``): the builtins ``and or not len index
  slice print printf println eq ne lt le gt ge html js urlquery call``; a map's missing
  key (``missingkey=default`` prints ``<no value>``, ``missingkey=error`` fails);
  maps ranged in key order; an execution error is ``template: NAME:LINE:COL: executing
  "NAME" at <NODE>: message``.
- ``fmt``: ``%v`` and ``printf``'s verbs over the values a JSON decoding gives:
  ``map[string]interface {}`` printed as ``map[a:1 b:2]``, ``[]interface {}``,
  ``string``, ``bool``, ``float64``, and ``int64``: kubectl decodes with
  ``k8s.io/apimachinery/pkg/util/json``, which keeps a whole number an int64.
- kubectl's additions (cli-runtime ``pkg/printers/template.go`` and ``jsonpath.go``):
  the functions ``exists`` and ``base64decode``.

How Go's reflection is modelled: a value read out of a map or a list is an
``interface{}`` (``Boxed``), which a pipeline unwraps after each command (``exec.go
evalPipeline``); ``MISSING`` is the invalid ``reflect.Value`` a missing key gives
(printed ``<no value>``); ``None`` is a JSON null (nil, printed ``<nil>``); a number
literal of the template is a Go ``int`` (``GoInt``), a string's element a ``uint8``
(``GoUint8``); a list has the capacity Go's ``append`` gave it while it was decoded
(``decoded_capacity``), which ``slice`` may reach past its length. A Go string is bytes,
held as ``model.gostrconv`` holds them (a byte that is not UTF-8 as U+DC80+byte):
``slice``, ``index``, ``len`` and ``base64decode`` work on ``go_bytes``, and a string
that ``print``/``printf`` join is made whole again (``_joined``), so that the two halves of
a cut ``é`` are ``é`` again, as Go's bytes are. The printer writes the result's bytes.
"""

from __future__ import annotations

import base64
import binascii
import math
import unicodedata

from kubectl_crd.model.gostrconv import (
    go_bytes,
    go_can_backquote,
    go_is_print,
    go_text,
    parse_go_float,
    parse_go_int,
)
from kubectl_crd.model.govalues import go_float_v, go_json, go_quote, go_type

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "MISSING",
    "ExecError",
    "GoInt",
    "Template",
    "TemplateError",
    "debug_object",
    "decoded_capacity",
    "go_sharp_v",
    "go_sprintf",
    "go_value_text",
]


class TemplateError(ValueError):
    """A template that does not parse, in Go's words (``template: output:1: ...``)."""


class ExecError(ValueError):
    """A template that failed while executing, in Go's words; ``partial`` is what it
    wrote before it failed (kubectl prints that too)."""

    def __init__(self, message: str, partial: str = "") -> None:
        super().__init__(message)
        self.partial = partial


class _Missing:
    """The invalid ``reflect.Value`` (a missing map key, a template without data)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class _NoFinal:
    """exec.go's ``missingVal``: no value piped into a command."""

    __slots__ = ()


_NO_FINAL: Any = _NoFinal()


class Boxed:
    """An ``interface{}`` value, as ``MapIndex`` and ``Index`` of decoded JSON give."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class GoInt(int):
    """A Go ``int`` (a number literal, ``len``), where decoded JSON's numbers are int64."""

    __slots__ = ()


class GoUint8(int):
    """A Go ``uint8`` (a ``byte``): what ``index`` of a string gives. It prints as any
    integer but for its type's name and ``%#v`` (unsigned: ``0x61``, fmt/print.go
    ``fmt0x64``)."""

    __slots__ = ()


def _unbox(value: Any) -> Any:
    """``indirectInterface``: the value inside an interface; a nil one is invalid."""
    if isinstance(value, Boxed):
        return MISSING if value.value is None else value.value
    return value


def _type_name(value: Any) -> str:
    """``reflect.Value.Type()``'s name: an interface (a value read out of a map or a
    list, or nil) is ``interface {}``, a template's number ``int``; the rest as
    ``govalues.go_type`` names decoded JSON."""
    if isinstance(value, Boxed) or value is None:
        return "interface {}"
    if isinstance(value, GoInt):
        return "int"
    if isinstance(value, GoUint8):
        return "uint8"
    if isinstance(value, complex):
        return "complex128"
    return go_type(value)


# -- lexing (text/template/parse/lex.go) ------------------------------------------------

T_ERROR = "error"
T_BOOL = "bool"
T_CHAR = "char"
T_CHARCONST = "charconst"
T_COMPLEX = "complex"
T_ASSIGN = "="
T_DECLARE = ":="
T_EOF = "EOF"
T_FIELD = "field"
T_IDENT = "identifier"
T_LDELIM = "leftdelim"
T_LPAREN = "("
T_NUMBER = "number"
T_PIPE = "|"
T_RAW = "raw string"
T_RDELIM = "rightdelim"
T_RPAREN = ")"
T_SPACE = "space"
T_STRING = "string"
T_TEXT = "text"
T_VARIABLE = "variable"
T_DOT = "."
T_NIL = "nil"
#: keywords: printed as <word> in "unexpected" messages (lex.go item.String)
KEYWORDS = (
    "block",
    "break",
    "continue",
    "define",
    "else",
    "end",
    "if",
    "range",
    "template",
    "with",
)

_SPACE = " \t\r\n"


class _Item:
    __slots__ = ("kind", "line", "pos", "value")

    def __init__(self, kind: str, value: str, pos: int, line: int) -> None:
        self.kind = kind
        self.value = value
        self.pos = pos
        self.line = line

    def __str__(self) -> str:
        if self.kind == T_EOF:
            return "EOF"
        if self.kind == T_ERROR:
            return self.value
        if self.kind in KEYWORDS or self.kind in (T_DOT, T_NIL):
            return f"<{self.value}>"
        if len(self.value) > 10:
            return go_quote(self.value[:10]) + "..."
        return go_quote(self.value)


#: The letters and decimal digits Unicode 15.0 added (4,368 runes: Kawi, Nag Mundari,
#: CJK Extension H, ...), which Go 1.24's ``unicode.IsLetter`` and ``IsDigit`` take and
#: Python 3.11's ``unicodedata`` (Unicode 14.0) does not. Derived from ICU 72's
#: Unicode 15.0 categories (L* and Nd, less Python's); kubectl 1.33 takes all of them in
#: a field name and refuses the other 114 runes 15.0 made printable.
_UNICODE_15_0_ALPHANUMERIC = (
    ("\U0001123f", "\U00011240"),
    ("\U00011f02", "\U00011f02"),
    ("\U00011f04", "\U00011f10"),
    ("\U00011f12", "\U00011f33"),
    ("\U00011f50", "\U00011f59"),
    ("\U0001342f", "\U0001342f"),
    ("\U00013441", "\U00013446"),
    ("\U0001b132", "\U0001b132"),
    ("\U0001b155", "\U0001b155"),
    ("\U0001df25", "\U0001df2a"),
    ("\U0001e030", "\U0001e06d"),
    ("\U0001e4d0", "\U0001e4eb"),
    ("\U0001e4f0", "\U0001e4f9"),
    ("\U0002b739", "\U0002b739"),
    ("\U00031350", "\U000323af"),
)


def _alphanumeric(char: str) -> bool:
    """lex.go ``isAlphaNumeric``: ``_``, ``unicode.IsLetter`` or ``unicode.IsDigit`` (Nd)
    over Go 1.24's Unicode 15.0, whatever Python's ``unicodedata`` is."""
    if char == "_" or char.isalpha() or (char.isdigit() and unicodedata.category(char) == "Nd"):
        # CJK Extension I (Unicode 15.1): letters to Python 3.13, not yet to Go 1.24
        return not "\U0002ebf0" <= char <= "\U0002ee5d"
    return "\U0001123f" <= char <= "\U000323af" and any(
        low <= char <= high for low, high in _UNICODE_15_0_ALPHANUMERIC
    )


def _rune(char: str) -> str:
    """``%#U``: ``U+0021 '!'``; a byte that is not UTF-8 (``model.gostrconv``) is the
    ``RuneError`` that lex.go's ``utf8.DecodeRuneInString`` reads it as."""
    if "\udc80" <= char <= "\udcff":
        char = "\ufffd"
    code = ord(char)
    text = f"U+{code:04X}"
    return f"{text} '{char}'" if go_is_print(char) else text


class _Lexer:
    """The items of a template, in order, ending with EOF or an error."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.start = 0
        self.line = 1
        self.start_line = 1
        self.items: list[_Item] = []
        self.paren_depth = 0

    def run(self) -> list[_Item]:
        state: Any = self._text_state
        while state is not None:
            state = state()
        return self.items

    # helpers
    def _emit(self, kind: str) -> None:
        self.items.append(
            _Item(kind, self.text[self.start : self.pos], self.start, self.start_line)
        )
        self._ignore()

    def _ignore(self) -> None:
        self.line += self.text.count("\n", self.start, self.pos)
        self.start = self.pos
        self.start_line = self.line

    def _error(self, message: str) -> None:
        self.items.append(_Item(T_ERROR, message, self.start, self.start_line))
        return None

    def _next(self) -> str:
        if self.pos >= len(self.text):
            self.pos += 1  # so that a backup after EOF is symmetric
            return ""
        char = self.text[self.pos]
        self.pos += 1
        return char

    def _peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _at_right_delim(self) -> tuple[bool, bool]:
        rest = self.text[self.pos :]
        if len(rest) >= 2 and rest[0] in _SPACE and rest[1] == "-" and rest[2:].startswith("}}"):
            return True, True
        return rest.startswith("}}"), False

    def _at_terminator(self) -> bool:
        char = self._peek()
        if char == "" or char in _SPACE or char in ".,|:)(":
            return True
        return self.text.startswith("}}", self.pos)

    # states
    def _text_state(self) -> Any:
        found = self.text.find("{{", self.pos)
        if found < 0:
            self.pos = len(self.text)
            if self.pos > self.start:
                self._emit(T_TEXT)
            self.items.append(_Item(T_EOF, "", self.pos, self.line))
            return None
        self.pos = found
        end = found
        after = self.text[found + 2 : found + 4]
        if len(after) == 2 and after[0] == "-" and after[1] in _SPACE:
            end = len(self.text[self.start : found].rstrip(_SPACE)) + self.start
        if end > self.start:
            keep = self.pos
            self.pos = end
            self._emit(T_TEXT)
            self.pos = keep
        self._ignore()
        return self._left_delim

    def _left_delim(self) -> Any:
        self.pos += 2
        after = self.text[self.pos : self.pos + 2]
        trim = len(after) == 2 and after[0] == "-" and after[1] in _SPACE
        marker = 2 if trim else 0
        if self.text.startswith("/*", self.pos + marker):
            self.pos += marker
            self._ignore()
            return self._comment
        self._emit(T_LDELIM)
        self.pos += marker
        self._ignore()
        self.paren_depth = 0
        return self._inside

    def _comment(self) -> Any:
        self.pos += 2
        end = self.text.find("*/", self.pos)
        if end < 0:
            return self._error("unclosed comment")
        self.pos = end + 2
        delim, trim = self._at_right_delim()
        if not delim:
            return self._error("comment ends before closing delimiter")
        if trim:
            self.pos += 2
        self.pos += 2
        if trim:
            while self._peek() and self._peek() in _SPACE:
                self.pos += 1
        self._ignore()
        return self._text_state

    def _right_delim(self) -> Any:
        _, trim = self._at_right_delim()
        if trim:
            self.pos += 2
            self._ignore()
        self.pos += 2
        self._emit(T_RDELIM)
        if trim:
            while self._peek() and self._peek() in _SPACE:
                self.pos += 1
            self._ignore()
        return self._text_state

    def _inside(self) -> Any:
        delim, _ = self._at_right_delim()
        if delim:
            if self.paren_depth == 0:
                return self._right_delim
            return self._error("unclosed left paren")
        char = self._next()
        if char == "":
            return self._error("unclosed action")
        if char in _SPACE:
            self.pos -= 1
            return self._space
        if char == "=":
            self._emit(T_ASSIGN)
        elif char == ":":
            if self._next() != "=":
                return self._error("expected :=")
            self._emit(T_DECLARE)
        elif char == "|":
            self._emit(T_PIPE)
        elif char == '"':
            return self._quote
        elif char == "`":
            return self._raw_quote
        elif char == "$":
            return self._variable
        elif char == "'":
            return self._char
        elif char == "." and not (self._peek() and "0" <= self._peek() <= "9"):
            return self._field
        elif char in "+-." or "0" <= char <= "9":
            self.pos -= 1
            return self._number
        elif _alphanumeric(char):
            self.pos -= 1
            return self._identifier
        elif char == "(":
            self.paren_depth += 1
            self._emit(T_LPAREN)
        elif char == ")":
            self.paren_depth -= 1
            if self.paren_depth < 0:
                return self._error("unexpected right paren")
            self._emit(T_RPAREN)
        elif ord(char) < 128 and char.isprintable():
            self._emit(T_CHAR)
        else:
            return self._error(f"unrecognized character in action: {_rune(char)}")
        return self._inside

    def _space(self) -> Any:
        count = 0
        while self._peek() and self._peek() in _SPACE:
            self.pos += 1
            count += 1
        rest = self.text[self.pos - 1 :]
        if len(rest) >= 2 and rest[1] == "-" and rest[2:].startswith("}}"):
            self.pos -= 1
            if count == 1:
                return self._right_delim
        self._emit(T_SPACE)
        return self._inside

    def _scan_until(self, close: str, message: str, *, escapes: bool, newline_ok: bool) -> bool:
        while True:
            char = self._next()
            if escapes and char == "\\":
                char = self._next()
                if char not in ("", "\n"):
                    continue
            if char == "" or (char == "\n" and not newline_ok):
                self._error(message)
                return False
            if char == close:
                return True

    def _quote(self) -> Any:
        if self._scan_until('"', "unterminated quoted string", escapes=True, newline_ok=False):
            self._emit(T_STRING)
            return self._inside
        return None

    def _raw_quote(self) -> Any:
        if self._scan_until("`", "unterminated raw quoted string", escapes=False, newline_ok=True):
            self._emit(T_RAW)
            return self._inside
        return None

    def _char(self) -> Any:
        if self._scan_until("'", "unterminated character constant", escapes=True, newline_ok=False):
            self._emit(T_CHARCONST)
            return self._inside
        return None

    def _variable(self) -> Any:
        if self._at_terminator():
            self._emit(T_VARIABLE)
            return self._inside
        return self._field_or_variable(T_VARIABLE)

    def _field(self) -> Any:
        return self._field_or_variable(T_FIELD)

    def _field_or_variable(self, kind: str) -> Any:
        if self._at_terminator():
            self._emit(T_VARIABLE if kind == T_VARIABLE else T_DOT)
            return self._inside
        char = ""
        while True:
            char = self._next()
            if not (char and _alphanumeric(char)):
                self.pos -= 1
                break
        if not self._at_terminator():
            return self._error(f"bad character {_rune(char)}")
        self._emit(kind)
        return self._inside

    def _identifier(self) -> Any:
        while True:
            char = self._next()
            if char and _alphanumeric(char):
                continue
            self.pos -= 1
            word = self.text[self.start : self.pos]
            if not self._at_terminator():
                return self._error(f"bad character {_rune(char)}")
            if word in KEYWORDS:
                self._emit(word)
            elif word in ("true", "false"):
                self._emit(T_BOOL)
            elif word == "nil":
                self._emit(T_NIL)
            else:
                self._emit(T_IDENT)
            return self._inside

    def _accept(self, valid: str) -> bool:
        if self._peek() and self._peek() in valid:
            self.pos += 1
            return True
        return False

    def _accept_run(self, valid: str) -> None:
        while self._peek() and self._peek() in valid:
            self.pos += 1

    def _scan_number(self) -> bool:
        self._accept("+-")
        digits = "0123456789_"
        if self._accept("0"):
            if self._accept("xX"):
                digits = "0123456789abcdefABCDEF_"
            elif self._accept("oO"):
                digits = "01234567_"
            elif self._accept("bB"):
                digits = "01_"
        self._accept_run(digits)
        if self._accept("."):
            self._accept_run(digits)
        if len(digits) == 11 and self._accept("eE"):
            self._accept("+-")
            self._accept_run("0123456789_")
        if len(digits) == 23 and self._accept("pP"):
            self._accept("+-")
            self._accept_run("0123456789_")
        self._accept("i")
        if self._peek() and _alphanumeric(self._peek()):
            self.pos += 1
            return False
        return True

    def _number(self) -> Any:
        if not self._scan_number():
            return self._error(f"bad number syntax: {go_quote(self.text[self.start : self.pos])}")
        if self._peek() in ("+", "-") and self._peek():
            if not self._scan_number() or self.text[self.pos - 1] != "i":
                return self._error(
                    f"bad number syntax: {go_quote(self.text[self.start : self.pos])}"
                )
            self._emit(T_COMPLEX)
            return self._inside
        self._emit(T_NUMBER)
        return self._inside


# -- nodes (text/template/parse/node.go) ------------------------------------------------


class _Node:
    pos = 0

    def text(self) -> str:
        raise NotImplementedError


class _FixedNode(_Node):
    """A node whose text is always the same (``.``, ``nil``, ``{{end}}``, ...)."""

    shown = ""

    def __init__(self, pos: int) -> None:
        self.pos = pos

    def text(self) -> str:
        return self.shown


class _TextNode(_Node):
    def __init__(self, pos: int, text: str) -> None:
        self.pos, self.value = pos, text

    def text(self) -> str:
        return go_quote(self.value)


class _ListNode(_Node):
    def __init__(self, pos: int) -> None:
        self.pos = pos
        self.nodes: list[_Node] = []

    def text(self) -> str:
        return "".join(n.text() for n in self.nodes)


class _PipeNode(_Node):
    def __init__(self, pos: int, line: int) -> None:
        self.pos, self.line = pos, line
        self.decl: list[_VariableNode] = []
        self.is_assign = False
        self.cmds: list[_CommandNode] = []

    def text(self) -> str:
        head = ""
        if self.decl:
            head = ", ".join(v.text() for v in self.decl) + (" = " if self.is_assign else " := ")
        return head + " | ".join(c.text() for c in self.cmds)


class _CommandNode(_Node):
    def __init__(self, pos: int) -> None:
        self.pos = pos
        self.args: list[_Node] = []

    def text(self) -> str:
        return " ".join(
            f"({a.text()})" if isinstance(a, _PipeNode) else a.text() for a in self.args
        )


class _ActionNode(_Node):
    def __init__(self, pos: int, line: int, pipe: _PipeNode) -> None:
        self.pos, self.line, self.pipe = pos, line, pipe

    def text(self) -> str:
        return "{{" + self.pipe.text() + "}}"


class _FieldNode(_Node):
    def __init__(self, pos: int, ident: str) -> None:
        self.pos = pos
        self.idents = ident[1:].split(".")

    def text(self) -> str:
        return "." + ".".join(self.idents)


class _VariableNode(_Node):
    def __init__(self, pos: int, ident: str) -> None:
        self.pos = pos
        self.idents = ident.split(".")

    def text(self) -> str:
        return ".".join(self.idents)


class _ChainNode(_Node):
    def __init__(self, pos: int, node: _Node) -> None:
        self.pos, self.node = pos, node
        self.fields: list[str] = []

    def text(self) -> str:
        inner = self.node.text()
        if isinstance(self.node, _PipeNode):
            inner = f"({inner})"
        return inner + "".join("." + f for f in self.fields)


class _IdentifierNode(_Node):
    def __init__(self, pos: int, name: str) -> None:
        self.pos, self.name = pos, name

    def text(self) -> str:
        return self.name


class _DotNode(_FixedNode):
    shown = "."


class _NilNode(_FixedNode):
    shown = "nil"


class _BoolNode(_Node):
    def __init__(self, pos: int, value: bool) -> None:
        self.pos, self.value = pos, value

    def text(self) -> str:
        return "true" if self.value else "false"


class _NumberNode(_Node):
    def __init__(self, pos: int, source: str, value: Any) -> None:
        self.pos, self.source, self.value = pos, source, value

    def text(self) -> str:
        return self.source


class _StringNode(_Node):
    def __init__(self, pos: int, quoted: str, value: str) -> None:
        self.pos, self.quoted, self.value = pos, quoted, value

    def text(self) -> str:
        return self.quoted


class _ControlNode(_Node):
    keyword = ""

    def __init__(
        self, pos: int, line: int, pipe: _PipeNode, body: _ListNode, otherwise: _ListNode | None
    ) -> None:
        self.pos, self.line, self.pipe, self.body, self.otherwise = pos, line, pipe, body, otherwise

    def text(self) -> str:
        tail = "{{else}}" + self.otherwise.text() if self.otherwise is not None else ""
        return f"{{{{{self.keyword} {self.pipe.text()}}}}}{self.body.text()}{tail}{{{{end}}}}"


class _IfNode(_ControlNode):
    keyword = "if"


class _RangeNode(_ControlNode):
    keyword = "range"


class _WithNode(_ControlNode):
    keyword = "with"


class _TemplateNode(_Node):
    def __init__(self, pos: int, line: int, name: str, pipe: _PipeNode | None) -> None:
        self.pos, self.line, self.name, self.pipe = pos, line, name, pipe

    def text(self) -> str:
        if self.pipe is None:
            return "{{template " + go_quote(self.name) + "}}"
        return "{{template " + go_quote(self.name) + " " + self.pipe.text() + "}}"


class _BreakNode(_FixedNode):
    shown = "{{break}}"


class _ContinueNode(_FixedNode):
    shown = "{{continue}}"


class _EndNode(_FixedNode):
    shown = "{{end}}"


class _ElseNode(_Node):
    def __init__(self, pos: int, line: int) -> None:
        self.pos, self.line = pos, line

    def text(self) -> str:
        return "{{else}}"


# -- parsing (text/template/parse/parse.go) ---------------------------------------------


def _unquote(token: _Item) -> str:
    """``strconv.Unquote`` of a string or raw string token."""
    raw = token.value
    if raw.startswith("`"):
        if "\r" in raw:
            pass  # Go drops carriage returns from raw strings
        return raw[1:-1].replace("\r", "")
    return _unescape(raw[1:-1], '"')


_SIMPLE_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
}


def _unescape(body: str, quote: str) -> str:
    """``strconv.Unquote``'s escapes in a string (``quote`` ``"``) or a character
    constant (``'``): in a string ``\\xNN`` and octal ones are bytes (``"\\xc3\\xa9"`` is
    ``é``), in a character constant runes."""
    out: list[str] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            if char == quote:
                raise TemplateError("invalid syntax")
            out.append(char)
            i += 1
            continue
        i += 1
        if i >= len(body):
            raise TemplateError("invalid syntax")
        esc = body[i]
        i += 1
        if esc in _SIMPLE_ESCAPES and (esc not in "'\"" or esc == quote):
            out.append(_SIMPLE_ESCAPES[esc])
        elif esc in "xuU":
            size = {"x": 2, "u": 4, "U": 8}[esc]
            digits = body[i : i + size]
            if len(digits) != size or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise TemplateError("invalid syntax")
            value = int(digits, 16)
            i += size
            if esc == "x":
                out.append(_escaped_byte(value, quote))
            else:
                if value > 0x10FFFF or 0xD800 <= value < 0xE000:
                    raise TemplateError("invalid syntax")
                out.append(chr(value))
        elif esc in "01234567":
            digits = body[i - 1 : i + 2]
            if len(digits) != 3 or any(d not in "01234567" for d in digits):
                raise TemplateError("invalid syntax")
            value = int(digits, 8)
            if value > 255:
                raise TemplateError("invalid syntax")
            out.append(_escaped_byte(value, quote))
            i += 2
        else:
            raise TemplateError("invalid syntax")
    return "".join(out) if quote == "'" else _joined(out)


def _escaped_byte(value: int, quote: str) -> str:
    """A ``\\x`` or octal escape's value: in a string one byte (above ASCII held as
    ``go_text`` holds a byte, joined to its neighbours' bytes by the caller), in a
    character constant the rune of that number."""
    if quote == "'" or value < 0x80:
        return chr(value)
    return go_text(bytes([value]))


class _IntOverflow:
    """A whole number that fits a uint64 and no int64: parse.go's ``newNumber`` takes it,
    and exec.go's ``idealConstant`` fails with ``overflows int`` where it is used."""


_INT_OVERFLOW = _IntOverflow()


def _number_value(token: _Item) -> Any:
    """A number token's value as parse.go's ``newNumber`` reads it and exec.go's
    ``idealConstant`` makes it: a Go int, a float64 (a text with ``.eEpP`` that is no hex
    integer), a complex128, ``_INT_OVERFLOW``; or the parse error."""
    text = token.value
    if token.kind == T_CHARCONST:
        if text == "''":  # strconv.UnquoteChar finds the closing quote first
            raise TemplateError("invalid syntax")
        body = _unescape(text[1:-1], "'")
        if len(body) != 1:
            raise TemplateError(f"malformed character constant: {text}")
        return GoInt(ord(body))
    clean = text.replace("_", "")
    if token.kind == T_COMPLEX or clean.endswith("i"):
        try:
            return complex(clean.replace("i", "j"))
        except ValueError:
            raise TemplateError(f"illegal number syntax: {go_quote(text)}") from None
    try:
        return GoInt(parse_go_int(text))
    except ValueError:
        pass
    if text[:1] not in "+-":  # strconv.ParseUint takes no sign
        try:
            parse_go_int(text, 65)  # a uint64 (which a 65-bit signed integer holds)
            return _INT_OVERFLOW
        except ValueError:
            pass
    try:
        value = parse_go_float(text)
    except ValueError:
        raise TemplateError(f"illegal number syntax: {go_quote(text)}") from None
    if not any(c in text for c in ".eEpP"):
        # a float that looks like an integer is one too large for any (or "08")
        raise TemplateError(f"integer overflow: {go_quote(text)}")
    return value


class _Tree:
    """One template's parse: its root list; defined templates go into ``trees``."""

    def __init__(self, name: str, parse_name: str, trees: dict[str, _ListNode]) -> None:
        self.name = name
        self.parse_name = parse_name
        self.trees = trees
        self.vars = ["$"]
        self.range_depth = 0


class _Parser:
    def __init__(self, text: str, name: str, functions: frozenset[str]) -> None:
        self.items = _Lexer(text).run()
        self.index = 0
        self.name = name
        self.functions = functions
        self.last: _Item = self.items[0]
        self.trees: dict[str, _ListNode] = {}
        self.tree = _Tree(name, name, self.trees)

    # token stream
    def next(self) -> _Item:
        # past the end (the lexer stops at an error), the last item again
        item = self.items[min(self.index, len(self.items) - 1)]
        self.index += 1
        self.last = item
        return item

    def backup(self, count: int = 1) -> None:
        self.index -= count

    def peek(self) -> _Item:
        item = self.items[min(self.index, len(self.items) - 1)]
        self.last = item
        return item

    def next_non_space(self) -> _Item:
        while True:
            item = self.next()
            if item.kind != T_SPACE:
                return item

    def peek_non_space(self) -> _Item:
        item = self.next_non_space()
        self.backup()
        return item

    def errorf(self, message: str) -> None:
        raise TemplateError(f"template: {self.name}:{self.last.line}: {message}")

    def unexpected(self, item: _Item, context: str) -> None:
        if item.kind == T_ERROR:
            self.errorf(item.value)
        self.errorf(f"unexpected {item} in {context}")

    def expect(self, kind: str, context: str) -> _Item:
        item = self.next_non_space()
        if item.kind != kind:
            self.unexpected(item, context)
        return item

    # grammar
    def parse(self) -> dict[str, _ListNode]:
        root = _ListNode(self.peek().pos)
        while self.peek().kind != T_EOF:
            if self.peek().kind == T_LDELIM:
                start = self.index
                self.next()
                if self.next_non_space().kind == "define":
                    self.definition()
                    continue
                self.index = start
            node = self.text_or_action()
            if isinstance(node, _EndNode | _ElseNode):
                self.errorf(f"unexpected {node.text()}")
            root.nodes.append(node)
        self.add(self.name, root)
        return self.trees

    def add(self, name: str, root: _ListNode) -> None:
        existing = self.trees.get(name)
        if existing is None or _empty(existing):
            self.trees[name] = root
        elif not _empty(root):
            self.errorf(f"template: multiple definition of template {go_quote(name)}")

    def definition(self) -> None:
        context = "define clause"
        token = self.next_non_space()
        if token.kind not in (T_STRING, T_RAW):
            self.unexpected(token, context)
        name = self.template_name(token)
        self.expect(T_RDELIM, context)
        saved = self.tree
        self.tree = _Tree(name, self.name, self.trees)
        body, end = self.item_list()
        if not isinstance(end, _EndNode):
            self.errorf(f"unexpected {end.text()} in {context}")
        self.add(name, body)
        self.tree = saved

    def template_name(self, token: _Item) -> str:
        try:
            return _unquote(token)
        except TemplateError as exc:
            self.errorf(str(exc))
            raise

    def item_list(self) -> tuple[_ListNode, _Node]:
        body = _ListNode(self.peek_non_space().pos)
        while self.peek_non_space().kind != T_EOF:
            node = self.text_or_action()
            if isinstance(node, _EndNode | _ElseNode):
                return body, node
            body.nodes.append(node)
        self.errorf("unexpected EOF")
        raise AssertionError

    def text_or_action(self) -> _Node:
        token = self.next_non_space()
        if token.kind == T_TEXT:
            return _TextNode(token.pos, token.value)
        if token.kind == T_LDELIM:
            return self.action()
        self.unexpected(token, "input")
        raise AssertionError

    def action(self) -> _Node:
        token = self.next_non_space()
        kind = token.kind
        if kind == "block":
            return self.block()
        if kind == "else":
            return self.else_control()
        if kind == "end":
            return _EndNode(self.expect(T_RDELIM, "end").pos)
        if kind == "if":
            return self.control(_IfNode, "if")
        if kind == "range":
            return self.control(_RangeNode, "range")
        if kind == "template":
            return self.template_control()
        if kind == "with":
            return self.control(_WithNode, "with")
        if kind in ("break", "continue"):
            after = self.next_non_space()
            if after.kind != T_RDELIM:
                self.unexpected(after, "{{" + kind + "}}")
            if self.tree.range_depth == 0:
                self.errorf("{{" + kind + "}} outside {{range}}")
            return _BreakNode(token.pos) if kind == "break" else _ContinueNode(token.pos)
        self.backup()
        start = self.peek()
        return _ActionNode(start.pos, start.line, self.pipeline("command", T_RDELIM))

    def else_control(self) -> _Node:
        peek = self.peek_non_space()
        if peek.kind in ("if", "with"):
            return _ElseNode(peek.pos, peek.line)
        token = self.expect(T_RDELIM, "else")
        return _ElseNode(token.pos, token.line)

    def control(self, cls: type[_ControlNode], context: str) -> _Node:
        mark = len(self.tree.vars)
        pipe = self.pipeline(context, T_RDELIM)
        if context == "range":
            self.tree.range_depth += 1
        body, following = self.item_list()
        if context == "range":
            self.tree.range_depth -= 1
        otherwise = None
        if isinstance(following, _ElseNode):
            if context in ("if", "with") and self.peek().kind == context:
                self.next()
                otherwise = _ListNode(following.pos)
                otherwise.nodes.append(self.control(cls, context))
            else:
                otherwise, end = self.item_list()
                if not isinstance(end, _EndNode):
                    self.errorf(f"expected end; found {end.text()}")
        del self.tree.vars[mark:]
        return cls(pipe.pos, pipe.line, pipe, body, otherwise)

    def block(self) -> _Node:
        context = "block clause"
        token = self.next_non_space()
        if token.kind not in (T_STRING, T_RAW):
            self.unexpected(token, context)
        name = self.template_name(token)
        pipe = self.pipeline(context, T_RDELIM)
        saved = self.tree
        self.tree = _Tree(name, self.name, self.trees)
        body, end = self.item_list()
        if not isinstance(end, _EndNode):
            self.errorf(f"unexpected {end.text()} in {context}")
        self.add(name, body)
        self.tree = saved
        return _TemplateNode(token.pos, token.line, name, pipe)

    def template_control(self) -> _Node:
        context = "template clause"
        token = self.next_non_space()
        if token.kind not in (T_STRING, T_RAW):
            self.unexpected(token, context)
        name = self.template_name(token)
        pipe = None
        if self.next_non_space().kind != T_RDELIM:
            self.backup()
            pipe = self.pipeline(context, T_RDELIM)
        return _TemplateNode(token.pos, token.line, name, pipe)

    def pipeline(self, context: str, end: str) -> _PipeNode:
        token = self.peek_non_space()
        pipe = _PipeNode(token.pos, token.line)
        while True:  # declarations
            var = self.peek_non_space()
            if var.kind != T_VARIABLE:
                break
            self.next_non_space()
            after_var = self.peek()
            following = self.peek_non_space()
            if following.kind in (T_ASSIGN, T_DECLARE):
                pipe.is_assign = following.kind == T_ASSIGN
                self.next_non_space()
                pipe.decl.append(_VariableNode(var.pos, var.value))
                self.tree.vars.append(var.value)
                break
            if following.kind == T_CHAR and following.value == ",":
                self.next_non_space()
                pipe.decl.append(_VariableNode(var.pos, var.value))
                self.tree.vars.append(var.value)
                if context == "range" and len(pipe.decl) < 2:
                    if self.peek_non_space().kind in (T_VARIABLE, T_RDELIM, T_RPAREN):
                        continue
                    self.errorf("range can only initialize variables")
                self.errorf(f"too many declarations in {context}")
            # not a declaration: put the variable (and the space after it) back
            self.index = self.items.index(var)
            del after_var
            break
        while True:
            token = self.next_non_space()
            if token.kind == end:
                self.check_pipeline(pipe, context)
                return pipe
            if token.kind in (
                T_BOOL,
                T_CHARCONST,
                T_COMPLEX,
                T_DOT,
                T_FIELD,
                T_IDENT,
                T_NUMBER,
                T_NIL,
                T_RAW,
                T_STRING,
                T_VARIABLE,
                T_LPAREN,
            ):
                self.backup()
                pipe.cmds.append(self.command())
            else:
                self.unexpected(token, context)

    def check_pipeline(self, pipe: _PipeNode, context: str) -> None:
        if not pipe.cmds:
            self.errorf(f"missing value for {context}")
        for i, cmd in enumerate(pipe.cmds[1:]):
            if isinstance(cmd.args[0], _BoolNode | _DotNode | _NilNode | _NumberNode | _StringNode):
                self.errorf(f"non executable command in pipeline stage {i + 2}")

    def command(self) -> _CommandNode:
        cmd = _CommandNode(self.peek_non_space().pos)
        while True:
            self.peek_non_space()
            operand = self.operand()
            if operand is not None:
                cmd.args.append(operand)
            token = self.next()
            if token.kind == T_SPACE:
                continue
            if token.kind == T_ERROR:
                self.errorf(token.value)
            if token.kind in (T_RDELIM, T_RPAREN):
                self.backup()
            elif token.kind != T_PIPE:
                self.errorf(f"unexpected {token} in operand")
            break
        if not cmd.args:
            self.errorf("empty command")
        return cmd

    def operand(self) -> _Node | None:
        node = self.term()
        if node is None:
            return None
        if self.peek().kind == T_FIELD:
            chain = _ChainNode(self.peek().pos, node)
            while self.peek().kind == T_FIELD:
                chain.fields.append(self.next().value[1:])
            if isinstance(node, _FieldNode):
                return _FieldNode(chain.pos, chain.text())
            if isinstance(node, _VariableNode):
                return _VariableNode(chain.pos, chain.text())
            if isinstance(node, _BoolNode | _StringNode | _NumberNode | _NilNode | _DotNode):
                self.errorf(f"unexpected . after term {go_quote(node.text())}")
            return chain
        return node

    def term(self) -> _Node | None:
        token = self.next_non_space()
        kind = token.kind
        if kind == T_ERROR:
            self.errorf(token.value)
        if kind == T_IDENT:
            if token.value not in self.functions:
                self.errorf(f"function {go_quote(token.value)} not defined")
            return _IdentifierNode(token.pos, token.value)
        if kind == T_DOT:
            return _DotNode(token.pos)
        if kind == T_NIL:
            return _NilNode(token.pos)
        if kind == T_VARIABLE:
            name = token.value.split(".")[0]
            if name not in self.tree.vars:
                self.errorf(f"undefined variable {go_quote(name)}")
            return _VariableNode(token.pos, token.value)
        if kind == T_FIELD:
            return _FieldNode(token.pos, token.value)
        if kind == T_BOOL:
            return _BoolNode(token.pos, token.value == "true")
        if kind in (T_CHARCONST, T_COMPLEX, T_NUMBER):
            try:
                return _NumberNode(token.pos, token.value, _number_value(token))
            except TemplateError as exc:
                self.errorf(str(exc))
        if kind == T_LPAREN:
            return self.pipeline("parenthesized pipeline", T_RPAREN)
        if kind in (T_STRING, T_RAW):
            try:
                return _StringNode(token.pos, token.value, _unquote(token))
            except TemplateError as exc:
                self.errorf(str(exc))
        self.backup()
        return None


def _empty(node: _ListNode) -> bool:
    """``parse.IsEmptyTree``: nothing but white space."""
    for child in node.nodes:
        if isinstance(child, _TextNode):
            if child.value.strip(" \t\r\n\v\f\x85\xa0"):
                return False
        else:
            return False
    return True


# -- formatting (fmt) -------------------------------------------------------------------


def go_value_text(value: Any) -> str:
    """``fmt.Sprint`` of one value (``%v``), a top-level nil as ``<nil>``."""
    return _format_v(_unbox(value) if isinstance(value, Boxed) else value, "", 0)


def _format_v(value: Any, flags: str, depth: int) -> str:
    if value is MISSING or value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return go_float_v(value)
    if isinstance(value, str):
        return value
    if isinstance(value, complex):
        imag = go_float_v(value.imag)
        sign = "" if imag.startswith(("-", "+")) else "+"
        return f"({go_float_v(value.real)}{sign}{imag}i)"
    if isinstance(value, Boxed):
        return _format_v(value.value, flags, depth)
    if isinstance(value, list):
        return "[" + " ".join(_format_v(v, flags, depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "map["
            + " ".join(f"{k}:{_format_v(value[k], flags, depth + 1)}" for k in sorted(value))
            + "]"
        )
    return str(value)


def go_sharp_v(
    value: Any,
    top: bool = True,
    width: int | None = None,
    flags: str = "",
    prec: int | None = None,
    map_type: str = "map[string]interface {}",
) -> str:
    """``%#v``: Go syntax. A width and a precision format each scalar as ``%v`` would
    (digits, a string's runes before it is quoted, a map's keys too), not the list or
    map around it, and a nil inside one is written as it is (fmt/print.go
    ``printValue``; sharpV and plusV clear the ``#`` and ``+`` flags). ``map_type``:
    the Go type a mapping had (go-yaml's are ``map[interface {}]interface {}``)."""
    if value is MISSING or value is None:
        return _pad("<nil>", width, flags) if top else "interface {}(nil)"
    scalar = flags.replace("#", "").replace("+", "")
    if isinstance(value, bool):
        return _pad("true" if value else "false", width, flags)
    if isinstance(value, GoUint8):  # print.go fmt0x64: an unsigned integer in hex, 0x
        return _format_int(int(value), "x", "#" + scalar, width, prec)
    if isinstance(value, int):
        return _format_int(int(value), "d", scalar, width, prec)
    if isinstance(value, float):
        return _format_float(value, "v", scalar, width, prec)
    if isinstance(value, str):
        return _pad(go_quote(value if prec is None else value[:prec]), width, scalar)
    if isinstance(value, list):
        inner = ", ".join(go_sharp_v(v, False, width, flags, prec, map_type) for v in value)
        return "[]interface {}{" + inner + "}"
    if isinstance(value, dict):
        inner = ", ".join(
            go_sharp_v(k, False, width, flags, prec, map_type)
            + ":"
            + go_sharp_v(value[k], False, width, flags, prec, map_type)
            for k in sorted(value)
        )
        return map_type + "{" + inner + "}"
    return str(value)


def _pad(text: str, width: int | None, flags: str, *, zero_ok: bool = True) -> str:
    """fmt/format.go ``pad``: spaces on the right with ``-``, else zeros (``0``, unless
    the verb turns them off: %U, an infinity) or spaces on the left; no sign moved."""
    if width is None or len(text) >= width:
        return text
    fill = width - len(text)
    if "-" in flags:
        return text + " " * fill
    if "0" in flags and zero_ok:
        return "0" * fill + text
    return " " * fill + text


def _pad_number(text: str, width: int | None, flags: str) -> str:
    """A float's padding (``fmtFloat``): zeros go after its sign, the space of ``% `` too."""
    if "0" in flags and "-" not in flags and text[:1] in ("+", "-", " "):
        return text[0] + _pad(text[1:], None if width is None else width - 1, flags)
    return _pad(text, width, flags)


def _format_int(value: int, verb: str, flags: str, width: int | None, prec: int | None) -> str:
    negative = value < 0
    magnitude = -value if negative else value
    if verb in ("d", "v"):
        digits = str(magnitude)
    elif verb == "b":
        digits = format(magnitude, "b")
    elif verb in ("o", "O"):
        digits = format(magnitude, "o")
    elif verb == "x":
        digits = format(magnitude, "x")
    elif verb == "X":
        digits = format(magnitude, "X")
    elif verb == "c":
        return _pad(_char(value), width, flags)
    elif verb == "q":
        # fmt/format.go fmtQc: %+q is strconv.QuoteRuneToASCII (%#q adds nothing)
        return _pad(_quote_rune(value, ascii="+" in flags), width, flags)
    elif verb == "U":
        # format.go fmtUnicode: at least four hex digits, more with a precision
        digits = f"{value if value >= 0 else value & 0xFFFFFFFFFFFFFFFF:X}"
        text = "U+" + digits.rjust(4 if prec is None else max(prec, 4), "0")
        if "#" in flags and 0 <= value <= 0x10FFFF and go_is_print(chr(value)):
            text += f" '{chr(value)}'"
        return _pad(text, width, flags, zero_ok=False)
    else:
        raise _BadVerb
    # fmt/format.go fmtInteger: a precision, or zero padding (which leaves room for the
    # sign only: "%#08x" of -7 is -0x0000007), gives leading zeros; zero and zero
    # precision print nothing but spaces
    sign = "-" if negative else "+" if "+" in flags else " " if " " in flags else ""
    if prec is not None:
        if prec == 0 and magnitude == 0:
            return " " * (width or 0)
        digits = digits.rjust(prec, "0")
    elif "0" in flags and "-" not in flags and width is not None:
        digits = digits.rjust(width - len(sign), "0")
    prefix = ""
    if "#" in flags:
        if verb == "b":
            prefix = "0b"
        elif verb in ("o", "O") and not digits.startswith("0"):
            prefix = "0"
        elif verb in ("x", "X"):
            prefix = "0" + verb
    if verb == "O":
        prefix = "0o" + prefix
    return _pad(sign + prefix + digits, width, flags, zero_ok=False)


def _char(value: int) -> str:
    return chr(value) if 0 <= value <= 0x10FFFF and not 0xD800 <= value < 0xE000 else "\ufffd"


def _quote_rune(value: int, *, ascii: bool = False) -> str:
    """``strconv.QuoteRune`` (``QuoteRuneToASCII`` with ``ascii``): ``Quote``'s escapes
    between single quotes, where ``'`` is escaped and ``"`` is not."""
    char = _char(value)
    if char == "'":
        return "'\\''"
    quoted = go_quote(char, ascii=ascii)[1:-1]
    if quoted == '\\"':
        quoted = '"'
    return "'" + quoted + "'"


def _format_float(value: float, verb: str, flags: str, width: int | None, prec: int | None) -> str:
    if math.isinf(value) or math.isnan(value):
        text = "NaN" if math.isnan(value) else ("+Inf" if value > 0 else "-Inf")
        return _pad(text, width, flags, zero_ok=False)
    lower = verb.lower()
    if lower in ("v", "g") and prec is None:
        text = go_float_v(value)
        if verb == "G":
            text = text.upper()
    elif lower in ("v", "g"):
        text = format(value, f".{max(prec or 0, 1)}{'G' if verb == 'G' else 'g'}")
    elif lower == "x":
        text = _hex_float(value, prec)
        if verb == "X":
            text = text.upper()
    elif lower == "e":
        text = format(value, f".{6 if prec is None else prec}{verb}")
    elif lower == "f":
        text = format(value, f".{6 if prec is None else prec}f")
    elif verb == "b":
        text = _binary_float(value)
    else:
        raise _BadVerb
    if "#" in flags and verb != "b":
        text = _alternate_float(text, verb, prec)
    if "+" in flags and not text.startswith("-"):
        text = "+" + text
    elif " " in flags and not text.startswith("-"):
        text = " " + text
    return _pad_number(text, width, flags)


def _binary_float(value: float) -> str:
    """``%b`` of a float64 (strconv/ftoa.go ``fmtB``): the integer mantissa and the
    power of two, ``6755399441055744p-52``; a subnormal (and zero) at ``p-1074``."""
    sign = "-" if math.copysign(1, value) < 0 else ""
    magnitude = abs(value)
    if magnitude < 2.0**-1022:
        mantissa, exponent = int(math.ldexp(magnitude, 1074)), -1074
    else:
        fraction, exponent = math.frexp(magnitude)
        mantissa, exponent = int(math.ldexp(fraction, 53)), exponent - 53
    return f"{sign}{mantissa}p{'-' if exponent < 0 else '+'}{abs(exponent)}"


def _alternate_float(text: str, verb: str, prec: int | None) -> str:
    """The ``#`` flag on a float (fmt/format.go ``fmtFloat``): always a decimal point,
    and for %v, %g, %G and %x (not %X) the trailing zeros up to the precision (6 when none
    is given), the digits counted from the first non-zero one (the ``x`` of ``0x``
    among them, as Go counts it)."""
    sign = "-" if text.startswith("-") else ""
    number = text[len(sign) :]
    digits = (6 if prec is None else prec) if verb in ("v", "g", "G", "x") else 0
    tail = ""
    for i, char in enumerate(number):
        if char in "pP" or (char in "eE" and verb not in ("x", "X")):
            number, tail = number[:i], number[i:]
            break
    nonzero = False
    for char in number:
        if char != ".":
            nonzero = nonzero or char != "0"
            digits -= nonzero
    if "." not in number:
        if number == "0":
            digits -= 1  # a lone leading 0 counts once
        number += "."
    return sign + number + "0" * max(digits, 0) + tail


def _hex_float(value: float, prec: int | None) -> str:
    """``%x`` of a float64 (strconv/ftoa.go ``fmtX``): ``0x1p-02``; the mantissa
    normalised (a subnormal too) to a leading 1 and 13 hex digits, rounded half to even
    to ``prec`` digits, a carry moving the exponent (``%.0x`` of 1.5 is ``0x1p+01``)."""
    sign = "-" if math.copysign(1, value) < 0 else ""
    if value == 0:
        mantissa, exponent = 0, 0
    else:
        fraction, exponent = math.frexp(abs(value))  # fraction in [0.5, 1)
        mantissa, exponent = int(fraction * (1 << 53)), exponent - 1  # 1.<52 bits> * 2**e
    digits = 13  # hex digits after the point
    if prec is not None and prec < digits:
        shift = 4 * (digits - prec)
        kept, extra = mantissa >> shift, mantissa & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if extra > half or (extra == half and kept & 1):
            kept += 1
        if kept >> (4 * prec) == 2:  # 1.ff... rounded up to 2.00...
            kept >>= 1
            exponent += 1
        mantissa, digits = kept, prec
    whole, fraction = divmod(mantissa, 1 << (4 * digits))
    text = format(fraction, f"0{digits}x") if digits else ""
    text = text.rstrip("0") if prec is None else text.ljust(prec, "0")
    body = str(whole) + ("." + text if text else "")
    return f"{sign}0x{body}p{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


class _BadVerb(Exception):
    pass


def _format_string(value: str, verb: str, flags: str, width: int | None, prec: int | None) -> str:
    # fmt/format.go: the precision counts runes (truncateString), but bytes for %x/%X
    # (fmtSbx)
    if prec is not None and verb not in ("x", "X"):
        value = value[:prec]
    if verb in ("s", "v"):
        text = value
    elif verb == "q":
        if "#" in flags and go_can_backquote(value):
            text = "`" + value + "`"
        else:
            text = go_quote(value, ascii="+" in flags)  # %+q: strconv.QuoteToASCII
    elif verb in ("x", "X"):
        data = go_bytes(value)[:prec]
        parts = [format(b, "02x" if verb == "x" else "02X") for b in data]
        if " " in flags:
            prefix = ("0x" if verb == "x" else "0X") if "#" in flags else ""
            text = " ".join(prefix + p for p in parts)
        else:
            text = (("0x" if verb == "x" else "0X") if "#" in flags and parts else "") + "".join(
                parts
            )
    else:
        raise _BadVerb
    return _pad(text, width, flags)


def _format_arg(
    value: Any,
    verb: str,
    flags: str,
    width: int | None,
    prec: int | None,
    depth: int,
    *,
    bad: bool = False,
) -> str:
    """One operand of ``printf``; a verb its type does not take is ``%!verb(type=value)``,
    the value printed ``bad``: with %v and the verb's flags, ``#`` not making it %#v
    (print.go ``badVerb`` calls ``printArg(arg, 'v')``; only doPrintf sets sharpV)."""
    if isinstance(value, Boxed):
        value = value.value
        if value is None:
            # print.go printValue: a nil inside a list or map is written as it is
            return "<nil>" if depth else _pad("<nil>", width, flags)
    if verb == "T":  # print.go: fmtS of the type's name, a precision cuts it; nil's is whole
        name = _go_typename(value)
        cut = prec is not None and not (value is MISSING or value is None)
        return _pad(name[:prec] if cut else name, width, flags)
    if value is MISSING or value is None:
        if depth > 0:
            return "<nil>"
        if verb == "v":
            return _pad("<nil>", width, flags)
        return f"%!{verb}(<nil>)"
    if verb == "v" and "#" in flags and not bad:
        return go_sharp_v(value, depth == 0, width, flags, prec)
    try:
        if isinstance(value, bool):
            if verb not in ("t", "v"):
                raise _BadVerb
            return _pad("true" if value else "false", width, flags)
        if isinstance(value, int):
            return _format_int(int(value), verb, flags, width, prec)
        if isinstance(value, float):
            return _format_float(value, verb, flags, width, prec)
        if isinstance(value, str):
            return _format_string(value, verb, flags, width, prec)
        if isinstance(value, list):
            inner = " ".join(_format_arg(v, verb, flags, width, prec, depth + 1) for v in value)
            return "[" + inner + "]"
        if isinstance(value, dict):
            inner = " ".join(
                _format_arg(k, verb, flags, width, prec, depth + 1)
                + ":"
                + _format_arg(value[k], verb, flags, width, prec, depth + 1)
                for k in sorted(value)
            )
            return "map[" + inner + "]"
    except _BadVerb:
        pass
    # fmt's badVerb: the operand printed with %v and the same flags and width
    if verb == "v":
        return _pad(_format_v(value, flags, depth), width, flags, zero_ok=False)
    shown = _format_arg(value, "v", flags, width, prec, depth, bad=True)
    return f"%!{verb}({_go_typename(value)}={shown})"


def _go_typename(value: Any) -> str:
    if value is MISSING or value is None:
        return "<nil>"
    return _type_name(value)


def _parse_num(text: str, start: int, end: int) -> tuple[int | None, int]:
    """fmt's ``parsenum``: the ASCII digits from ``start``, and where they end; None with
    ``end`` when there are none, or when a number past a million has more digits
    (``tooLarge``: the rest of the format is taken)."""
    num, i = 0, start
    while i < end and "0" <= text[i] <= "9":
        if num > 1_000_000:
            return None, end
        num = num * 10 + ord(text[i]) - 48
        i += 1
    return (num if i > start else None), i


def _arg_number(text: str, i: int, used: int, count: int) -> tuple[int, int, bool, bool]:
    """fmt's ``argNumber``: after an ``[n]`` the operand used next, the position after
    it, whether one was found and whether it was good (``%!v(BADINDEX)`` if not); a
    ``[`` without a closing ``]`` is skipped as one character."""
    if i >= len(text) or text[i] != "[":
        return used, i, False, True
    close = text.find("]", i + 1)
    if close < 0 or len(text) - i < 3:  # parseArgNumber: "[n]" takes three bytes at least
        return used, i + 1, False, False
    number, after = _parse_num(text, i + 1, close)
    if number is None or after != close:
        return used, close + 1, False, False
    if 1 <= number <= count:
        return number - 1, close + 1, True, True
    return used, close + 1, True, False


def _int_from_arg(args: list[Any], used: int) -> tuple[int | None, int]:
    """fmt's ``intFromArg``: the operand as a ``*`` width or precision (None: not an
    integer, or past a million either way), and the operand after it."""
    if used >= len(args):
        return None, used
    value = _unbox(args[used])
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 1_000_000:
        return None, used + 1
    return int(value), used + 1


def go_sprintf(format_text: str, args: list[Any]) -> str:
    """``fmt.Sprintf`` over template values (a nil is ``None``), as fmt/print.go's
    ``doPrintf`` reads the format."""
    out: list[str] = []
    used = 0
    i = 0
    n = len(format_text)
    reordered = False
    while i < n:
        j = format_text.find("%", i)
        if j < 0:
            out.append(format_text[i:])
            break
        out.append(format_text[i:j])
        i = j + 1
        if i >= n:
            out.append("%!(NOVERB)")
            break
        flags = ""
        while i < n and format_text[i] in "#0+- ":
            flags += format_text[i]
            i += 1
        width: int | None = None
        prec: int | None = None
        # an index, even a bad one, turns the EXTRA check off (pp.reordered)
        reordered = reordered or "[" in format_text[i : i + 1]
        used, i, after_index, good = _arg_number(format_text, i, used, len(args))
        if i < n and format_text[i] == "*":
            width, used = _int_from_arg(args, used)
            i += 1
            if width is None:
                out.append("%!(BADWIDTH)")
            elif width < 0:
                flags += "-"
                width = -width
            after_index = False
        else:
            width, i = _parse_num(format_text, i, n)
            if after_index and width is not None:  # "%[3]2d"
                good = False
        if i + 1 < n and format_text[i] == ".":
            i += 1
            if after_index:  # "%[3].2d"
                good = False
            reordered = reordered or format_text[i] == "["
            used, i, after_index, index_good = _arg_number(format_text, i, used, len(args))
            good = good and index_good
            if i < n and format_text[i] == "*":
                prec, used = _int_from_arg(args, used)
                i += 1
                if prec is not None and prec < 0:
                    prec = None  # a negative precision makes no sense: none, and BADPREC
                if prec is None:
                    out.append("%!(BADPREC)")
                after_index = False
            else:
                prec, i = _parse_num(format_text, i, n)
                if prec is None:
                    prec = 0
        if not after_index:
            reordered = reordered or "[" in format_text[i : i + 1]
            used, i, after_index, index_good = _arg_number(format_text, i, used, len(args))
            good = good and index_good
        if i >= n:
            out.append("%!(NOVERB)")
            break
        verb = format_text[i]
        i += 1
        if "\udc80" <= verb <= "\udcff":
            verb = "\ufffd"  # a byte that is not UTF-8: utf8.DecodeRuneInString's RuneError
        if verb == "%":
            out.append("%")
            continue
        if not good:
            out.append(f"%!{verb}(BADINDEX)")
            continue
        if used >= len(args):
            out.append(f"%!{verb}(MISSING)")
            continue
        value = args[used]
        used += 1
        if verb == "w":
            verb = "v"
        if verb == "v":
            flags = flags.replace("+", "")  # %+v is fmt's plusV, not a sign
        out.append(_format_arg(value, verb, flags, width, prec, 0))
    if used < len(args) and not reordered:
        extra = ", ".join(
            f"{_go_typename(_unbox(a) if isinstance(a, Boxed) else a)}={_format_v(a, '', 0)}"
            if not (a is None or a is MISSING)
            else "<nil>"
            for a in args[used:]
        )
        out.append(f"%!(EXTRA {extra})")
    return _joined(out)


def _joined(parts: list[str]) -> str:
    """The Go string of ``parts`` joined: their bytes together, so that bytes cut from
    one rune (``slice "é" 0 1``, then ``1``) are that rune again, as text that ``eq``,
    ``len`` and the precision of ``%.1s`` read as Go reads the bytes."""
    text = "".join(parts)
    if text.isascii():
        return text
    return go_text(go_bytes(text))


def _sprint(args: list[Any]) -> str:
    """``fmt.Sprint``: a space between operands when neither is a string."""
    out: list[str] = []
    previous_string = True
    for index, arg in enumerate(args):
        value = _unbox(arg) if isinstance(arg, Boxed) else arg
        is_string = isinstance(value, str)
        if index > 0 and not is_string and not previous_string:
            out.append(" ")
        out.append(_format_v(value, "", 0))
        previous_string = is_string
    return _joined(out)


def _sprintln(args: list[Any]) -> str:
    return _joined([" ".join(_format_v(a, "", 0) for a in args), "\n"])


def _eval_args(args: list[Any]) -> str:
    """funcs.go ``evalArgs``: a lone string as it is, else ``Sprint`` with a nil as
    ``<no value>``."""
    if len(args) == 1 and isinstance(args[0], str):
        return str(args[0])
    shown = ["<no value>" if (a is None or a is MISSING) else a for a in args]
    return _sprint(shown)


def _html(args: list[Any]) -> str:
    text = _eval_args(args)
    table = {"\0": "\ufffd", '"': "&#34;", "'": "&#39;", "&": "&amp;", "<": "&lt;", ">": "&gt;"}
    return "".join(table.get(c, c) for c in text)


def _js(args: list[Any]) -> str:
    text = _eval_args(args)
    table = {
        "\\": "\\\\",
        "'": "\\'",
        '"': '\\"',
        "<": "\\u003C",
        ">": "\\u003E",
        "&": "\\u0026",
        "=": "\\u003D",
    }
    out: list[str] = []
    for char in text:
        if char in table:
            out.append(table[char])
        elif char < " ":
            out.append(f"\\u00{ord(char):02X}")
        elif ord(char) < 0x80 or go_is_print(char) or "\udc80" <= char <= "\udcff":
            # funcs.go JSEscape: a byte that is not UTF-8 decodes as RuneError, which is
            # printable, so the byte is written as it is
            out.append(char)
        else:
            out.append(f"\\u{ord(char):04X}")
    return "".join(out)


def _urlquery(args: list[Any]) -> str:
    from urllib.parse import quote_plus

    return quote_plus(go_bytes(_eval_args(args)), safe="")


# -- execution (text/template/exec.go) ---------------------------------------------------


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _ExecFailure(Exception):
    pass


class _FuncError(Exception):
    """A builtin's returned error (``error calling NAME: ...``)."""


#: name: (fixed parameters, variadic, the fixed parameters' kinds: "v" reflect.Value,
#: "i" interface{}, "s" string)
_SIGNATURES: dict[str, tuple[str, bool]] = {
    "and": ("v", True),
    "or": ("v", True),
    "not": ("v", False),
    "len": ("v", False),
    "index": ("v", True),
    "slice": ("v", True),
    "call": ("v", True),
    "eq": ("v", True),
    "ne": ("vv", False),
    "lt": ("vv", False),
    "le": ("vv", False),
    "gt": ("vv", False),
    "ge": ("vv", False),
    "html": ("", True),
    "js": ("", True),
    "urlquery": ("", True),
    "print": ("", True),
    "println": ("", True),
    "printf": ("s", True),
    "exists": ("i", True),
    "base64decode": ("s", False),
}
#: the variadic part's kind
_VARIADIC_KIND = {
    "and": "v",
    "or": "v",
    "index": "v",
    "slice": "v",
    "call": "v",
    "eq": "v",
    "html": "i",
    "js": "i",
    "urlquery": "i",
    "print": "i",
    "println": "i",
    "printf": "i",
    "exists": "i",
}
#: the funcs kubectl's template printer adds to Go's builtins
FUNCTIONS = frozenset(_SIGNATURES)
_KIND_TYPES = {"v": "reflect.Value", "i": "interface {}", "s": "string"}


class Template:
    """A parsed template (``template.New(name).Funcs(kubectl's).Parse(text)``)."""

    def __init__(self, text: str, name: str = "output") -> None:
        self.name = name
        self.source = text
        self.trees = _Parser(text, name, FUNCTIONS).parse()

    def execute(self, data: Any, *, missing_key_error: bool = False) -> str:
        """The text of the template over ``data``; ``ExecError`` (with the text written
        so far) when it fails."""
        state = _State(self, missing_key_error)
        try:
            state.walk(data, self.trees[self.name])
        except _ExecFailure as exc:
            raise ExecError(str(exc), "".join(state.out)) from None
        except RecursionError:
            raise ExecError(
                f"template: {self.name}: exceeded maximum template depth (100000)",
                "".join(state.out),
            ) from None
        return "".join(state.out)


class _State:
    def __init__(self, template: Template, missing_key_error: bool) -> None:
        self.template = template
        self.missing_key_error = missing_key_error
        self.out: list[str] = []
        self.vars: list[tuple[str, Any]] = []
        self.node: _Node | None = None
        self.current = template.name

    # errors
    def at(self, node: _Node) -> None:
        self.node = node

    def errorf(self, message: str) -> None:
        name = self.current
        if self.node is None:
            raise _ExecFailure(f"template: {name}: {message}")
        text = self.template.source[: self.node.pos]
        newline = text.rfind("\n")
        column = self.node.pos if newline < 0 else self.node.pos - newline - 1
        line = 1 + text.count("\n")
        location = f"{self.template.name}:{line}:{column}"
        raise _ExecFailure(
            f"template: {location}: executing {go_quote(name)} at <{self.node.text()}>: {message}"
        )

    # variables
    def var(self, name: str) -> Any:
        for key, value in reversed(self.vars):
            if key == name:
                return value
        self.errorf(f"undefined variable: {name}")

    def set_var(self, name: str, value: Any) -> None:
        for index in range(len(self.vars) - 1, -1, -1):
            if self.vars[index][0] == name:
                self.vars[index] = (name, value)
                return
        self.errorf(f"undefined variable: {name}")

    # walking
    def walk(self, dot: Any, root: _ListNode) -> None:
        self.vars = [("$", dot)]
        self.walk_list(dot, root)

    def walk_list(self, dot: Any, node: _ListNode) -> None:
        for child in node.nodes:
            self.walk_node(dot, child)

    def walk_node(self, dot: Any, node: _Node) -> None:
        self.at(node)
        if isinstance(node, _TextNode):
            self.out.append(node.value)
        elif isinstance(node, _ActionNode):
            value = self.pipeline(dot, node.pipe)
            if not node.pipe.decl:
                self.at(node)
                self.out.append(_printable(value))
        elif isinstance(node, _IfNode | _WithNode):
            mark = len(self.vars)
            value = self.pipeline(dot, node.pipe)
            if _truth(value):
                self.walk_list(value if isinstance(node, _WithNode) else dot, node.body)
            elif node.otherwise is not None:
                self.walk_list(dot, node.otherwise)
            del self.vars[mark:]
        elif isinstance(node, _RangeNode):
            self.walk_range(dot, node)
        elif isinstance(node, _TemplateNode):
            self.walk_template(dot, node)
        elif isinstance(node, _BreakNode):
            raise _Break
        elif isinstance(node, _ContinueNode):
            raise _Continue
        elif isinstance(node, _ListNode):
            self.walk_list(dot, node)

    def walk_range(self, dot: Any, node: _RangeNode) -> None:
        self.at(node)
        outer = len(self.vars)
        value = self.pipeline(dot, node.pipe)
        if isinstance(value, Boxed):
            value = value.value
            if value is None:
                self.errorf("range can't iterate over <nil>")
        mark = len(self.vars)
        decl = node.pipe.decl

        def one(index: Any, element: Any) -> bool:
            if decl:
                if node.pipe.is_assign:
                    if len(decl) > 1:
                        self.set_var(decl[0].idents[0], index)
                        self.set_var(decl[1].idents[0], element)
                    else:
                        self.set_var(decl[0].idents[0], element)
                else:
                    self.vars[mark - 1] = (self.vars[mark - 1][0], element)
                    if len(decl) > 1:
                        self.vars[mark - 2] = (self.vars[mark - 2][0], index)
            try:
                self.walk_list(element, node.body)
            except _Continue:
                pass
            finally:
                del self.vars[mark:]
            return True

        ran = False
        try:
            if isinstance(value, list):
                for i, element in enumerate(value):
                    ran = one(GoInt(i), Boxed(element))
            elif isinstance(value, dict):
                for key in sorted(value):
                    ran = one(key, Boxed(value[key]))
            elif isinstance(value, int) and not isinstance(value, bool):
                if len(decl) > 1:
                    self.errorf(
                        f"can't use {_format_v(value, '', 0)} to iterate over more than one variable"
                    )
                for i in range(int(value)):
                    number = type(value)(i)  # exec.go: val.Seq(), of the value's own type
                    ran = one(number, number)
            elif value is MISSING:
                pass
            else:
                # at the pipeline's last node, as exec.go (walkRange's s.at(r) is overwritten)
                self.errorf(f"range can't iterate over {_format_v(value, '', 0)}")
        except _Break:
            del self.vars[mark:]
            ran = True
        if not ran and node.otherwise is not None:
            self.walk_list(dot, node.otherwise)
        del self.vars[outer:]

    def walk_template(self, dot: Any, node: _TemplateNode) -> None:
        self.at(node)
        tree = self.template.trees.get(node.name)
        if tree is None:
            self.errorf(f"template {go_quote(node.name)} not defined")
        value = self.pipeline(dot, node.pipe) if node.pipe is not None else MISSING
        saved_vars, saved_name = self.vars, self.current
        self.vars = [("$", value)]
        self.current = node.name
        try:
            assert tree is not None
            self.walk_list(value, tree)
        except RecursionError:
            # exec.go stops a template that calls itself at maxExecDepth (100000), at
            # this node; Python's stack ends sooner. Said from here, where Go says it
            # (if there is no room left to say it, the caller one level up does)
            self.vars, self.current = saved_vars, saved_name
            self.at(node)
            self.errorf("exceeded maximum template depth (100000)")
        finally:
            self.vars, self.current = saved_vars, saved_name

    # evaluation
    def pipeline(self, dot: Any, pipe: _PipeNode) -> Any:
        self.at(pipe)
        value: Any = _NO_FINAL
        for cmd in pipe.cmds:
            value = self.command(dot, cmd, value)
            if isinstance(value, Boxed):
                value = MISSING if value.value is None else value.value
        for var in pipe.decl:
            if pipe.is_assign:
                self.set_var(var.idents[0], value)
            else:
                self.vars.append((var.idents[0], value))
        return value

    def command(self, dot: Any, cmd: _CommandNode, final: Any) -> Any:
        first = cmd.args[0]
        if isinstance(first, _FieldNode):
            self.at(first)
            return self.field_chain(dot, dot, first, first.idents, cmd.args, final)
        if isinstance(first, _ChainNode):
            return self.chain(dot, first, cmd.args, final)
        if isinstance(first, _IdentifierNode):
            return self.function(dot, first, cmd, cmd.args, final)
        if isinstance(first, _PipeNode):
            self.not_a_function(cmd.args, final)
            return self.pipeline(dot, first)
        if isinstance(first, _VariableNode):
            return self.variable(dot, first, cmd.args, final)
        self.at(first)
        self.not_a_function(cmd.args, final)
        if isinstance(first, _BoolNode):
            return first.value
        if isinstance(first, _DotNode):
            return dot
        if isinstance(first, _NilNode):
            self.errorf("nil is not a command")
        if isinstance(first, _NumberNode):
            return self.number(first)
        if isinstance(first, _StringNode):
            return first.value
        self.errorf(f"can't evaluate command {go_quote(first.text())}")

    def number(self, node: _NumberNode) -> Any:
        """exec.go ``idealConstant``: a number's value, or its error where it is used."""
        if node.value is _INT_OVERFLOW:
            self.at(node)
            self.errorf(f"{node.source} overflows int")
        return node.value

    def not_a_function(self, args: list[_Node], final: Any) -> None:
        if len(args) > 1 or final is not _NO_FINAL:
            self.errorf(f"can't give argument to non-function {args[0].text()}")

    def chain(self, dot: Any, chain: _ChainNode, args: list[_Node], final: Any) -> Any:
        if not chain.fields:
            self.errorf("internal error: no fields in evalChainNode")
        if isinstance(chain.node, _NilNode):
            self.errorf(f"indirection through explicit nil in {chain.text()}")
        pipe = self.arg(dot, "i", chain.node)
        if pipe is None:
            # exec.go evalPipeline digs into the interface{}: a nil is no value at all,
            # a receiver evalField takes as a missing key ("<no value>", or with
            # missingkey=error "nil data; no entry for key")
            pipe = MISSING
        return self.field_chain(dot, pipe, chain, chain.fields, args, final)

    def variable(self, dot: Any, node: _VariableNode, args: list[_Node], final: Any) -> Any:
        self.at(node)
        value = self.var(node.idents[0])
        if len(node.idents) == 1:
            self.not_a_function(args, final)
            return value
        return self.field_chain(dot, value, node, node.idents[1:], args, final)

    def field_chain(
        self, dot: Any, receiver: Any, node: _Node, idents: list[str], args: list[_Node], final: Any
    ) -> Any:
        for ident in idents[:-1]:
            receiver = self.field(ident, [], _NO_FINAL, receiver)
        return self.field(idents[-1], args, final, receiver)

    def field(self, name: str, args: list[_Node], final: Any, receiver: Any) -> Any:
        if receiver is MISSING:
            if self.missing_key_error:
                self.errorf(f"nil data; no entry for key {go_quote(name)}")
            return MISSING
        static = _type_name(receiver)
        if isinstance(receiver, Boxed):
            if receiver.value is None:
                self.errorf(f"nil pointer evaluating {static}.{name}")
            receiver = receiver.value
        has_args = len(args) > 1 or final is not _NO_FINAL
        if isinstance(receiver, dict):
            if has_args:
                self.errorf(f"{name} is not a method but has arguments")
            if name in receiver:
                return Boxed(receiver[name])
            if self.missing_key_error:
                self.errorf(f"map has no entry for key {go_quote(name)}")
            return MISSING
        self.errorf(f"can't evaluate field {name} in type {static}")

    def function(
        self, dot: Any, node: _IdentifierNode, cmd: _Node, args: list[_Node], final: Any
    ) -> Any:
        self.at(node)
        name = node.name
        fixed, variadic = _SIGNATURES[name]
        rest = args[1:]
        count = len(rest) + (0 if final is _NO_FINAL else 1)
        if variadic:
            if count < len(fixed):
                self.errorf(
                    f"wrong number of args for {name}: want at least {len(fixed)} got {len(rest)}"
                )
        elif count != len(fixed):
            self.errorf(f"wrong number of args for {name}: want {len(fixed)} got {count}")
        kinds = [fixed[i] if i < len(fixed) else _VARIADIC_KIND[name] for i in range(count)]
        if name in ("and", "or"):
            value: Any = MISSING
            for arg in rest:
                value = self.arg(dot, "v", arg)
                if _truth(value) == (name == "or"):
                    return value
            if final is not _NO_FINAL:
                value = final
            return value
        values = [self.arg(dot, kinds[i], arg) for i, arg in enumerate(rest)]
        if final is not _NO_FINAL:
            values.append(self.validate(final, kinds[len(rest)]))
        try:
            if name == "call":
                callee = rest[0].text() if rest else _format_v(final, "", 0)
                result = _call(callee, values)
            else:
                result = _BUILTINS[name](values)
        except _FuncError as exc:
            self.at(cmd)
            self.errorf(f"error calling {name}: {exc}")
        return result

    def validate(self, value: Any, kind: str) -> Any:
        """exec.go ``validateType``: an argument as the parameter's type takes it."""
        if kind == "v":
            return value
        if value is MISSING:
            if kind == "i":
                return None
            self.errorf(f"invalid value; expected {_KIND_TYPES[kind]}")
        if kind == "i":
            return _unbox(value) if isinstance(value, Boxed) else value
        inner = value.value if isinstance(value, Boxed) else value
        if kind == "s":
            if isinstance(inner, str):
                return inner
            got = _type_name(value if inner is None else inner)
            self.errorf(f"wrong type for value; expected string; got {got}")
        return value

    def arg(self, dot: Any, kind: str, node: _Node) -> Any:
        self.at(node)
        if isinstance(node, _DotNode):
            return self.validate(dot, kind)
        if isinstance(node, _NilNode):
            if kind in ("v", "i"):
                return MISSING if kind == "v" else None
            self.errorf(f"cannot assign nil to {_KIND_TYPES[kind]}")
        if isinstance(node, _FieldNode):
            return self.validate(
                self.field_chain(dot, dot, node, node.idents, [node], _NO_FINAL), kind
            )
        if isinstance(node, _VariableNode):
            return self.validate(self.variable(dot, node, [], _NO_FINAL), kind)
        if isinstance(node, _PipeNode):
            return self.validate(self.pipeline(dot, node), kind)
        if isinstance(node, _IdentifierNode):
            return self.validate(self.function(dot, node, node, [node], _NO_FINAL), kind)
        if isinstance(node, _ChainNode):
            return self.validate(self.chain(dot, node, [], _NO_FINAL), kind)
        if kind == "s":
            if isinstance(node, _StringNode):
                return node.value
            self.errorf(f"expected string; found {node.text()}")
        if isinstance(node, _BoolNode):
            return node.value
        if isinstance(node, _NumberNode):
            return self.number(node)
        if isinstance(node, _StringNode):
            return node.value
        self.errorf(f"can't handle {node.text()} for arg of type {_KIND_TYPES[kind]}")


def _printable(value: Any) -> str:
    """exec.go ``printValue``: an invalid value is ``<no value>``."""
    if value is MISSING or value is _NO_FINAL:
        return "<no value>"
    return _format_v(value, "", 0)


def _truth(value: Any) -> bool:
    value = _unbox(value)
    if value is MISSING or value is None:
        return False
    if isinstance(value, float):
        return value != 0
    return bool(value)


# -- builtins (text/template/funcs.go; cli-runtime printers/template.go) -----------------


def _kind(value: Any) -> str:
    """funcs.go ``basicKind``."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    return "invalid"


def _eq(values: list[Any]) -> bool:
    first = _unbox(values[0])
    if len(values) == 1:
        raise _FuncError("missing argument for comparison")
    k1 = _kind(first)
    for other in values[1:]:
        boxed_nil = isinstance(other, Boxed) and other.value is None
        other = _unbox(other)
        k2 = _kind(other)
        if k1 != k2:
            if first is not MISSING and other is not MISSING:
                # kubectl 1.33's Go words it without the types (funcs.go errBadComparison)
                raise _FuncError("incompatible types for comparison")
            truth = False
        elif k1 != "invalid":
            truth = first == other
        elif first is MISSING or other is MISSING:
            truth = (first is MISSING) == (other is MISSING)
        else:
            shown = _format_arg(other, "s", "", None, None, 0)
            raise _FuncError(f"non-comparable type {shown}: {_type_name(other)}")
        del boxed_nil
        if truth:
            return True
    return False


def _ne(values: list[Any]) -> bool:
    return not _eq(values)


def _lt(values: list[Any]) -> bool:
    first, second = _unbox(values[0]), _unbox(values[1])
    k1, k2 = _kind(first), _kind(second)
    if k1 == "invalid" or k2 == "invalid":
        raise _FuncError("invalid type for comparison")
    if k1 != k2:
        raise _FuncError("incompatible types for comparison")
    if k1 == "bool":
        raise _FuncError("invalid type for comparison")
    if k1 == "string":  # Go orders strings by their bytes, not by code points
        return go_bytes(first) < go_bytes(second)
    return bool(first < second)


def _le(values: list[Any]) -> bool:
    return _lt(values) or _eq(values)


def _gt(values: list[Any]) -> bool:
    return not _le(values)


def _ge(values: list[Any]) -> bool:
    return not _lt(values)


def _not(values: list[Any]) -> bool:
    return not _truth(values[0])


def _len(values: list[Any]) -> Any:
    item = values[0]
    if isinstance(item, Boxed):
        if item.value is None:
            raise _FuncError("len of nil pointer")
        item = item.value
    if item is MISSING:
        raise _FuncError("reflect: call of reflect.Value.Type on zero Value")
    if isinstance(item, str):
        return GoInt(len(go_bytes(item)))
    if isinstance(item, list | dict):
        return GoInt(len(item))
    raise _FuncError(f"len of type {_type_name(item)}")


def _index_arg(index: Any, cap: int) -> int:
    if index is MISSING:
        raise _FuncError("cannot index slice/array with nil")
    if not isinstance(index, int) or isinstance(index, bool):
        raise _FuncError(f"cannot index slice/array with type {_type_name(index)}")
    if index < 0 or index > cap:
        raise _FuncError(f"index out of range: {index}")
    return int(index)


def _index(values: list[Any]) -> Any:
    item = _unbox(values[0])
    if item is MISSING:
        raise _FuncError("index of untyped nil")
    for raw in values[1:]:
        index = _unbox(raw)
        if isinstance(item, Boxed):
            if item.value is None:
                raise _FuncError("index of nil pointer")
            item = item.value
        if isinstance(item, str):
            # a string's element is a byte (uint8)
            data = go_bytes(item)
            position = _index_arg(index, len(data))
            if position == len(data):
                raise _FuncError("reflect: string index out of range")
            item = GoUint8(data[position])
        elif isinstance(item, list):
            position = _index_arg(index, len(item))
            if position == len(item):
                raise _FuncError("reflect: slice index out of range")
            item = Boxed(item[position])
        elif isinstance(item, dict):
            if index is MISSING:
                raise _FuncError("value is nil; should be of type string")
            if not isinstance(index, str):
                raise _FuncError(f"value has type {_type_name(index)}; should be string")
            item = Boxed(item.get(index))
        else:
            raise _FuncError(f"can't index item of type {_type_name(item)}")
    return item


#: runtime/sizeclasses.go ``class_to_size``: what malloc rounds a small allocation up
#: to, the multiples of 16 only (all a ``[]interface{}`` of 16-byte elements asks for)
_SIZE_CLASSES = (
    *range(16, 257, 16),
    *(288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280),
    *(1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144),
    *(6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384),
    *(18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768),
)


def decoded_capacity(length: int) -> int:
    """The capacity of a list as kubectl's template sees it: encoding/json's
    ``arrayInterface`` appends each element to ``make([]any, 0)``, so it is what Go's
    ``append`` grew it to (runtime/slice.go ``growslice``, ``nextslicecap``: double
    below 256, then +25% and 192; msize.go ``roundupsize``: up to a size class, less
    the 8-byte malloc header a pointerful object over 512 bytes carries; pages of 8 KiB
    beyond 32 KiB). ``slice`` reaches up to it: past a list's length are nils."""
    cap = 0
    while cap < length:
        new_cap = cap * 2 if cap < 256 else cap
        if cap >= 256:
            while new_cap < cap + 1:
                new_cap += (new_cap + 768) >> 2
        new_cap = max(new_cap, cap + 1)
        size = request = new_cap * 16
        if request <= 32768 - 8:
            if request > 512:
                request += 8
            rounded = next(c for c in _SIZE_CLASSES if c >= request) - (request - size)
        else:
            rounded = (request + 8191) & ~8191
        cap = rounded // 16
    return cap


class _Sliced(list):  # type: ignore[type-arg]
    """A list ``slice`` made: its elements, and the array it shares with the list it
    was cut from, which a further ``slice`` may reach up to ``cap`` (Go slices share
    their backing array)."""

    __slots__ = ("backing", "cap", "offset")

    def __init__(self, elements: list[Any], backing: list[Any], offset: int, cap: int) -> None:
        super().__init__(elements)
        self.backing = backing
        self.offset = offset
        self.cap = cap


def _slice(values: list[Any]) -> Any:
    item = _unbox(values[0])
    if item is MISSING:
        raise _FuncError("slice of untyped nil")
    # funcs.go slice, unlike index, does not look into an index's interface{}: a field's
    # value (Boxed) is no integer to it, 'cannot index slice/array with type interface {}'
    indexes = values[1:]
    if len(indexes) > 3:
        raise _FuncError(f"too many slice indexes: {len(indexes)}")
    if isinstance(item, str):
        if len(indexes) == 3:
            raise _FuncError("cannot 3-index slice a string")
        data: Any = go_bytes(item)
        cap = len(data)
    elif isinstance(item, _Sliced):
        data, cap = item, item.cap
    elif isinstance(item, list):
        data, cap = item, decoded_capacity(len(item))
    else:
        raise _FuncError(f"can't slice item of type {_type_name(item)}")
    # funcs.go slice: each index within the capacity, then i <= j (<= k)
    bounds = [0, len(data), 0]
    for i, index in enumerate(indexes):
        bounds[i] = _index_arg(index, cap)
    if bounds[0] > bounds[1]:
        raise _FuncError(f"invalid slice index: {bounds[0]} > {bounds[1]}")
    if len(indexes) == 3:
        if bounds[1] > bounds[2]:
            raise _FuncError(f"invalid slice index: {bounds[1]} > {bounds[2]}")
        cap = bounds[2]
    if isinstance(item, str):
        return go_text(data[bounds[0] : bounds[1]])
    if isinstance(item, _Sliced):
        backing, offset = item.backing, item.offset
    else:
        backing, offset = [*item, *[None] * (cap - len(item))], 0
    start, end = offset + bounds[0], offset + bounds[1]
    return _Sliced(backing[start:end], backing, start, cap - bounds[0])


def _call(name: str, values: list[Any]) -> Any:
    function = _unbox(values[0])
    if function is MISSING:
        raise _FuncError("call of nil")
    raise _FuncError(f"non-function {name} of type {_type_name(function)}")


def _exists(values: list[Any]) -> bool:
    """cli-runtime printers/jsonpath.go ``exists``: whether ``index`` would find it.
    Without an index it is true, even of nil: ``reflect.ValueOf`` of a nil interface is
    no pointer that its ``indirect`` could find nil."""
    item = values[0]
    if len(values) == 1:
        return True
    for index in values[1:]:
        if item is None:
            return False
        if isinstance(item, str):
            item = go_bytes(item)  # a string's elements are its bytes
        if isinstance(item, list | bytes):
            if not isinstance(index, int) or isinstance(index, bool):
                return False
            if index < 0 or index >= len(item):
                return False
            item = item[index]
        elif isinstance(item, dict):
            if index is None:
                index = ""
            if not isinstance(index, str):
                return False
            item = item.get(index)
        else:
            return False
    return item is not None


def _base64decode(values: list[Any]) -> str:
    try:
        data = base64.b64decode(go_bytes(values[0]), validate=True)
    except (binascii.Error, ValueError):
        raise _FuncError(_base64_error(values[0])) from None
    return go_text(data)


def _base64_error(text: str) -> str:
    """Go's ``base64.CorruptInputError``: the offset of the first bad byte, or where the
    last, incomplete quantum of four starts (``StdEncoding`` wants the padding)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
    data = go_bytes(text)
    bad = (i for i, byte in enumerate(data) if chr(byte) not in alphabet and byte not in (10, 13))
    offset = next(bad, len(data) - len(data) % 4)
    return f"base64 decode failed: illegal base64 data at input byte {offset}"


_BUILTINS: dict[str, Callable[[list[Any]], Any]] = {
    "not": _not,
    "len": _len,
    "index": _index,
    "slice": _slice,
    "eq": _eq,
    "ne": _ne,
    "lt": _lt,
    "le": _le,
    "gt": _gt,
    "ge": _ge,
    "html": _html,
    "js": _js,
    "urlquery": _urlquery,
    "print": _sprint,
    "println": _sprintln,
    "printf": lambda values: go_sprintf(values[0], values[1:]),
    "exists": _exists,
    "base64decode": _base64decode,
}


def debug_object(data: Any) -> tuple[str, str]:
    """What kubectl's template printer shows of the object after an execution error:
    its JSON (``raw data was``) and its ``%+v`` (``object given to template engine``)."""
    return go_json(data), _format_v(data, "", 0)
