"""Go's ``encoding/json`` verdict on bytes: the ``SyntaxError`` text ``json.Unmarshal``
returns for input that is not one JSON value.

``json.Unmarshal`` scans its whole input before it decodes anything (``checkValid``,
``src/encoding/json/scanner.go``), so a syntax error is reported whatever the target
type, in the scanner's words: ``invalid character 'x' looking for beginning of value``,
``... after object key:value pair``, ``unexpected end of JSON input``. Python's ``json``
words them otherwise (``Expecting value``) and takes what Go refuses (``NaN``,
``Infinity``); client-go shows Go's text, e.g. for an exec credential plugin's output
(``kube.credentials``).

The scanner below is that file's state machine, state by state: one step per byte
(a string's plain run at once); whitespace is space, tab, CR and LF only; nesting
deeper than 10,000 is refused; and at the end of the input one more step with a space,
as Go's ``eof`` takes it, so ``-`` alone is ``invalid character ' ' in numeric
literal`` and an unfinished object ``unexpected end of JSON input``.
"""

from __future__ import annotations

import json
import re

from kubectl_crd.model.gostrconv import go_quote
from kubectl_crd.model.govalues import json_kind, unmarshal_type_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["FIND_KIND", "go_json_decode", "go_json_syntax_error", "interpret_problem"]

_SPACE = frozenset(b" \t\r\n")
_DIGITS = frozenset(b"0123456789")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_ESCAPES = frozenset(b'bfnrt\\/"')
#: a string's bytes that need no step of their own
_PLAIN_RUN = re.compile(rb'[^"\\\x00-\x1f]+')
#: scanner.go's maxNestingDepth
_MAX_NESTING_DEPTH = 10000

# what a container expects next (scanner.go's parseObjectKey, parseObjectValue,
# parseArrayValue)
_OBJECT_KEY, _OBJECT_VALUE, _ARRAY_VALUE = range(3)

#: the states of true, false and null after their first letter: (next byte, its state)
_LITERAL_STEPS = {
    "t": ("r", "tr"), "tr": ("u", "tru"), "tru": ("e", ""),
    "f": ("a", "fa"), "fa": ("l", "fal"), "fal": ("s", "fals"), "fals": ("e", ""),
    "n": ("u", "nu"), "nu": ("l", "nul"), "nul": ("l", ""),
}  # fmt: skip
_LITERAL_NAMES = {"t": "true", "f": "false", "n": "null"}


def _quote_char(byte: int) -> str:
    """scanner.go's ``quoteChar``: a byte between single quotes, as ``strconv.Quote``
    writes the rune of its value."""
    if byte == ord("'"):
        return "'\\''"
    if byte == ord('"'):
        return "'\"'"
    return "'" + go_quote(chr(byte))[1:-1] + "'"


class _Refused(Exception):
    pass


def go_json_syntax_error(data: bytes) -> str | None:
    """The message of the ``*json.SyntaxError`` Go's ``json.Unmarshal`` returns for
    ``data``; None when ``data`` is one valid JSON value (with whitespace around)."""
    scanner = _Scanner()
    try:
        position, size = 0, len(data)
        while position < size:
            if scanner.state == "string":
                run = _PLAIN_RUN.match(data, position)
                if run is not None:
                    position = run.end()
                    continue
            scanner.step(data[position])
            position += 1
        if not scanner.end_top:
            scanner.step(ord(" "))  # scanner.go's eof
        if not scanner.end_top:
            return "unexpected end of JSON input"
    except _Refused as refused:
        return str(refused)
    return None


def go_json_decode(data: bytes, **options: Any) -> tuple[Any, str | None]:
    """``json.Unmarshal`` of ``data`` into ``interface{}``: the value and None, or None
    and the syntax error's text. A string's invalid UTF-8 bytes become U+FFFD, as
    encoding/json decodes them. ``options`` go to ``json.loads`` (``parse_float``)."""
    problem = go_json_syntax_error(data)
    if problem is not None:
        return None, problem
    return json.loads(data.decode("utf-8", "replace"), **options), None


#: the struct apimachinery's JSON meta factory reads apiVersion and kind into (its
#: ``Interpret``, runtime/serializer/json/meta.go), as encoding/json names it
FIND_KIND = (
    'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; '
    'Kind string "json:\\"kind,omitempty\\"" }'
)
#: how ``Interpret`` words a failed unmarshal into that struct
INTERPRET_PREFIX = "couldn't get version/kind; json parse error: "


def interpret_problem(value: object) -> str | None:
    """Why ``Interpret`` cannot read apiVersion and kind from the decoded ``value``: it
    is not an object, or one of the two is not a string (the first in the document's
    order: encoding/json reports its first type error). None when it can."""
    if value is not None and not isinstance(value, dict):
        return INTERPRET_PREFIX + unmarshal_type_error(json_kind(value), FIND_KIND)
    for field, found in (value or {}).items():
        if field in ("apiVersion", "kind") and found is not None and not isinstance(found, str):
            return INTERPRET_PREFIX + unmarshal_type_error(json_kind(found), "string", f".{field}")
    return None


def _error(byte: int, context: str) -> _Refused:
    return _Refused(f"invalid character {_quote_char(byte)} {context}")


class _Scanner:
    """scanner.go's ``scanner``: ``state`` names its ``step`` function."""

    def __init__(self) -> None:
        self.state = "begin-value"
        self.stack: list[int] = []
        self.end_top = False

    def step(self, byte: int) -> None:
        state = self.state
        if state == "begin-value":
            self.begin_value(byte)
        elif state == "begin-value-or-empty":  # after [
            if byte in _SPACE:
                return
            if byte == ord("]"):
                self.end_value(byte)
            else:
                self.begin_value(byte)
        elif state == "begin-string-or-empty":  # after {
            if byte in _SPACE:
                return
            if byte == ord("}"):
                self.stack[-1] = _OBJECT_VALUE
                self.end_value(byte)
            else:
                self.begin_string(byte)
        elif state == "begin-string":  # after a comma in an object
            self.begin_string(byte)
        elif state in ("end-value", "end-top"):  # end-top: stateEndValue's empty stack
            self.end_value(byte)
        elif state == "string":
            if byte == ord('"'):
                self.state = "end-value"
            elif byte == ord("\\"):
                self.state = "string-escape"
            elif byte < 0x20:
                raise _error(byte, "in string literal")
        elif state == "string-escape":
            if byte in _ESCAPES:
                self.state = "string"
            elif byte == ord("u"):
                self.state = "u0"
            else:
                raise _error(byte, "in string escape code")
        elif state in ("u0", "u1", "u2", "u3"):
            if byte not in _HEX:
                raise _error(byte, "in \\u hexadecimal character escape")
            self.state = "string" if state == "u3" else f"u{int(state[1]) + 1}"
        elif state == "neg":
            if byte == ord("0"):
                self.state = "0"
            elif byte in _DIGITS:
                self.state = "1"
            else:
                raise _error(byte, "in numeric literal")
        elif state == "1":
            if byte not in _DIGITS:
                self.after_integer(byte)
        elif state == "0":
            self.after_integer(byte)
        elif state == "dot":
            if byte not in _DIGITS:
                raise _error(byte, "after decimal point in numeric literal")
            self.state = "dot0"
        elif state == "dot0":
            if byte in (ord("e"), ord("E")):
                self.state = "e"
            elif byte not in _DIGITS:
                self.end_value(byte)
        elif state == "e":
            if byte in (ord("+"), ord("-")):
                self.state = "e-sign"
            else:
                self.exponent_digit(byte)
        elif state == "e-sign":
            self.exponent_digit(byte)
        elif state == "e0":
            if byte not in _DIGITS:
                self.end_value(byte)
        else:  # in a literal
            expected, following = _LITERAL_STEPS[state]
            if byte != ord(expected):
                name = _LITERAL_NAMES[state[0]]
                raise _error(byte, f"in literal {name} (expecting {_quote_char(ord(expected))})")
            self.state = following or "end-value"

    def begin_value(self, byte: int) -> None:
        """``stateBeginValue``."""
        if byte in _SPACE:
            return
        if byte == ord("{"):
            self.push(byte, _OBJECT_KEY)
            self.state = "begin-string-or-empty"
        elif byte == ord("["):
            self.push(byte, _ARRAY_VALUE)
            self.state = "begin-value-or-empty"
        elif byte == ord('"'):
            self.state = "string"
        elif byte == ord("-"):
            self.state = "neg"
        elif byte == ord("0"):
            self.state = "0"
        elif byte in _DIGITS:
            self.state = "1"
        elif chr(byte) in _LITERAL_NAMES:
            self.state = chr(byte)
        else:
            raise _error(byte, "looking for beginning of value")

    def begin_string(self, byte: int) -> None:
        """``stateBeginString``."""
        if byte in _SPACE:
            return
        if byte != ord('"'):
            raise _error(byte, "looking for beginning of object key string")
        self.state = "string"

    def after_integer(self, byte: int) -> None:
        """``state0``: a fraction, an exponent, or the end of the number."""
        if byte == ord("."):
            self.state = "dot"
        elif byte in (ord("e"), ord("E")):
            self.state = "e"
        else:
            self.end_value(byte)

    def exponent_digit(self, byte: int) -> None:
        """``stateESign``."""
        if byte not in _DIGITS:
            raise _error(byte, "in exponent of numeric literal")
        self.state = "e0"

    def push(self, byte: int, expecting: int) -> None:
        """``pushParseState``."""
        self.stack.append(expecting)
        if len(self.stack) > _MAX_NESTING_DEPTH:
            raise _error(byte, "exceeded max depth")

    def pop(self) -> None:
        """``popParseState``."""
        self.stack.pop()
        if self.stack:
            self.state = "end-value"
        else:
            self.state = "end-top"
            self.end_top = True

    def end_value(self, byte: int) -> None:
        """``stateEndValue``: a value ended; ``byte`` is what follows it."""
        stack = self.stack
        if not stack:
            self.state = "end-top"
            self.end_top = True
            if byte not in _SPACE:
                raise _error(byte, "after top-level value")
            return
        if byte in _SPACE:
            self.state = "end-value"
            return
        expecting = stack[-1]
        if expecting == _OBJECT_KEY:
            if byte != ord(":"):
                raise _error(byte, "after object key")
            stack[-1] = _OBJECT_VALUE
            self.state = "begin-value"
        elif expecting == _OBJECT_VALUE:
            if byte == ord(","):
                stack[-1] = _OBJECT_KEY
                self.state = "begin-string"
            elif byte == ord("}"):
                self.pop()
            else:
                raise _error(byte, "after object key:value pair")
        elif byte == ord(","):
            self.state = "begin-value"
        elif byte == ord("]"):
            self.pop()
        else:
            raise _error(byte, "after array element")
