"""The standard conversions from a string, as cel-go reads the string.

cel-go's ``String.ConvertToType`` (``common/types/string.go``) uses Go's parsers:
``strconv.ParseInt`` and ``ParseUint`` (base 10: no space, no ``_``; a ``+`` for an
int only), ``ParseFloat`` (hex floats with a ``p`` exponent, ``inf``, ``infinity`` and
``nan`` in any case; a value beyond the float64 range is an error, not infinity),
``ParseBool`` (``1 t T TRUE true True`` and ``0 f F FALSE false False``),
``time.ParseDuration`` (``µs`` and ``μs`` for microseconds) and ``time.Parse`` of
RFC 3339 within years 1 to 9999. cel-cpp's readers differ on each (``int(' 1')`` is 1
there, ``duration('1µs')`` an error), so ``environment.runnable`` renames the calls of
those overloads in a compiled program to the functions here. A refusal is cel-go's
``type conversion error from 'string' to '<type>'`` (``timestamp overflow`` out of
range).
"""

from __future__ import annotations

import math
import re

from cel_expr_python import cel
from google.protobuf import duration_pb2, timestamp_pb2

from kubectl_crd.validation.cel.library.base import Library

T = cel.Type

_INT = re.compile(r"[+-]?[0-9]+")
_UINT = re.compile(r"[0-9]+")
#: strconv's readFloat: a decimal or 0x mantissa (digits, one '.', '_' anywhere the
#: digits are), a 'p' exponent required after 0x; ParseFloat takes the whole string
_DECIMAL = re.compile(r"[+-]?([0-9_]*)(\.[0-9_]*)?(?:[eE][+-]?[0-9][0-9_]*)?")
_HEX = re.compile(r"[+-]?0[xX]([0-9a-fA-F_]*)(\.[0-9a-fA-F_]*)?[pP][+-]?[0-9][0-9_]*")
#: strconv's special: inf or infinity with an optional sign, nan without one
_SPECIAL = re.compile(r"[+-]?(?:inf|infinity)|nan", re.IGNORECASE)
_DIGITS = frozenset("0123456789")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
_FALSE = frozenset({"0", "f", "F", "FALSE", "false", "False"})
#: cel-go's timestamp range in Unix seconds (common/types/timestamp.go)
MIN_UNIX, MAX_UNIX = -62135596800, 253402300799


def _refused(kind: str) -> ValueError:
    return ValueError(f"type conversion error from 'string' to '{kind}'")


def to_int(text: str) -> int:
    if _INT.fullmatch(text) and -(1 << 63) <= int(text) < 1 << 63:
        return int(text)
    raise _refused("int")


def to_uint(text: str) -> int:
    if _UINT.fullmatch(text) and int(text) < 1 << 64:
        return int(text)
    raise _refused("uint")


def to_double(text: str) -> float:
    if _SPECIAL.fullmatch(text):
        return float(text)
    hexadecimal = _HEX.fullmatch(text)
    number = hexadecimal or _DECIMAL.fullmatch(text)
    digits = _HEX_DIGITS if hexadecimal else _DIGITS
    if number is None or digits.isdisjoint(number.group(1) + (number.group(2) or "")):
        raise _refused("double")  # no mantissa digit (readFloat's sawdigits)
    if "_" in text and not _underscores_ok(text):
        raise _refused("double")
    plain = text.replace("_", "")
    try:
        if hexadecimal is not None:
            sign = -1.0 if plain[0] == "-" else 1.0
            value = sign * float.fromhex(plain.lstrip("+-"))
        else:
            value = float(plain)
    except OverflowError:
        value = math.inf
    if math.isinf(value):  # strconv.ErrRange
        raise _refused("double")
    return value


def _underscores_ok(text: str) -> bool:
    """strconv's ``underscoreOK``: every '_' between digits (a base prefix counts as
    one)."""
    saw = "^"
    rest = text[1:] if text[:1] in "+-" else text
    index = 0
    hexadecimal = False
    if len(rest) >= 2 and rest[0] == "0" and rest[1].lower() in "box":
        index, saw, hexadecimal = 2, "0", rest[1].lower() == "x"
    for char in rest[index:]:
        if char in (_HEX_DIGITS if hexadecimal else _DIGITS):
            saw = "0"
        elif char == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
    return saw != "_"


def to_bool(text: str) -> bool:
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _refused("bool")


def to_duration(text: str) -> duration_pb2.Duration:
    from kubectl_crd.model.durations import DurationSyntaxError, parse_go_duration

    try:
        nanoseconds = parse_go_duration(text)
    except DurationSyntaxError:
        raise _refused("google.protobuf.Duration") from None
    duration = duration_pb2.Duration()
    duration.FromNanoseconds(nanoseconds)
    return duration


def to_timestamp(text: str) -> timestamp_pb2.Timestamp:
    from kubectl_crd.model.gotime import RFC3339, layout_time

    nanoseconds, _ = layout_time(text, RFC3339)
    if nanoseconds is None:
        raise _refused("google.protobuf.Timestamp")
    if not MIN_UNIX <= nanoseconds // 1_000_000_000 <= MAX_UNIX:
        raise ValueError("timestamp overflow")
    stamp = timestamp_pb2.Timestamp()
    stamp.FromNanoseconds(nanoseconds)
    return stamp


#: (the conversion, cel-cpp's overload of it from a string, the name it is renamed to,
#: the result type, the implementation)
CONVERSIONS = (
    ("int", "string_to_int64", "__go_string_to_int", T.INT, to_int),
    ("uint", "string_to_uint64", "__go_string_to_uint", T.UINT, to_uint),
    ("double", "string_to_double", "__go_string_to_double", T.DOUBLE, to_double),
    ("bool", "string_to_bool", "__go_string_to_bool", T.BOOL, to_bool),
    ("duration", "string_to_duration", "__go_string_to_duration", T.DURATION, to_duration),
    ("timestamp", "string_to_timestamp", "__go_string_to_timestamp", T.TIMESTAMP, to_timestamp),
)

LIBRARY = Library(
    "conversions from strings as cel-go reads them",
    "base",
    tuple(
        (name, [cel.Overload(f"{name}_string", result, [T.STRING], impl=impl)])
        for _, _, name, result, impl in CONVERSIONS
    ),
)
