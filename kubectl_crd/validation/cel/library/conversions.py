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

import re

from cel_expr_python import cel
from google.protobuf import duration_pb2, timestamp_pb2

from kubectl_crd.model.gostrconv import parse_go_bool, parse_go_float
from kubectl_crd.validation.cel.library.base import Library

T = cel.Type

_INT = re.compile(r"[+-]?[0-9]+")
_UINT = re.compile(r"[0-9]+")
#: cel-go's timestamp range in Unix seconds (common/types/timestamp.go)
_MIN_UNIX, _MAX_UNIX = -62135596800, 253402300799


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
    try:
        return parse_go_float(text)
    except ValueError:
        raise _refused("double") from None


def to_bool(text: str) -> bool:
    try:
        return parse_go_bool(text)
    except ValueError:
        raise _refused("bool") from None


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
    if not _MIN_UNIX <= nanoseconds // 1_000_000_000 <= _MAX_UNIX:
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
