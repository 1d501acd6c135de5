"""The strings extension's ``charAt`` and ``substring``, and a duration's
``getMilliseconds``, as cel-go computes them (cel-cpp's answers differ).

``ext/strings.go``: ``charAt`` past the end, or ``substring`` out of range, is
``index out of range: <the index>``, and a range that ends before it starts
``invalid substring range. start: <s>, end: <e>`` (cel-cpp: "<string>.charAt(<pos>):
<pos> is greater than <string>.size()" and the like). ``common/types/duration.go``:
``getMilliseconds`` is the whole duration in milliseconds (``d.Milliseconds()``, as
``getSeconds``, ``getMinutes`` and ``getHours`` are totals), not cel-cpp's millisecond
part of it. ``environment.runnable`` renames the calls of those overloads to the
functions here. And ``string()`` of a duration or a timestamp, which cel-cpp writes in
groups of three fraction digits (``1.500s``), is its result reworded
(``REWORDED``: ``1.5s``, as Go's ``FormatFloat`` and ``RFC3339Nano`` write them), as
is ``string()`` of a NaN or an infinity (``NaN``, ``+Inf``, not C's ``-nan``, ``inf``);
a timestamp's zone offset, which cel-go keeps and cel-cpp does not, stays UTC.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from cel_expr_python import cel

from kubectl_crd.validation.cel.library.base import Library

T = cel.Type


def char_at(text: str, index: int) -> str:
    if index < 0 or index > len(text):
        raise ValueError(f"index out of range: {index}")
    return text[index] if index < len(text) else ""


def substring_from(text: str, start: int) -> str:
    if start < 0 or start > len(text):
        raise ValueError(f"index out of range: {start}")
    return text[start:]


def substring_range(text: str, start: int, end: int) -> str:
    if start > end:
        raise ValueError(f"invalid substring range. start: {start}, end: {end}")
    for index in (start, end):
        if index < 0 or index > len(text):
            raise ValueError(f"index out of range: {index}")
    return text[start:end]


def duration_milliseconds(duration: timedelta) -> int:
    """``time.Duration.Milliseconds``: truncated toward zero (the engine hands the
    duration over in microseconds, which whole milliseconds do not need)."""
    microseconds = (duration.days * 86_400 + duration.seconds) * 1_000_000 + duration.microseconds
    return microseconds // 1000 if microseconds >= 0 else -(-microseconds // 1000)


def duration_text(text: str) -> str:
    """cel-go's ``string(duration)`` from cel-cpp's exact one (``1.500s``, nine digits
    at most): ``strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"``, where
    ``Seconds`` is the whole seconds plus the nanoseconds / 1e9 as float64s."""
    body = text.removesuffix("s")
    negative = body.startswith("-")
    whole, _, fraction = body.lstrip("-").partition(".")
    seconds = float(int(whole)) + float(int((fraction + "000000000")[:9])) / 1e9
    # the shortest digits that read back (repr's, FormatFloat's -1), never an exponent
    shown = format(Decimal(repr(-seconds if negative else seconds)), "f")
    if "." in shown:
        shown = shown.rstrip("0").rstrip(".")
    return shown + "s"


def timestamp_text(text: str) -> str:
    """cel-go's ``string(timestamp)``, ``time.RFC3339Nano``: cel-cpp's fraction without
    its trailing zeros."""
    head, dot, rest = text.partition(".")
    if not dot:
        return text
    digits = rest.rstrip("Z")
    zone = rest[len(digits) :]
    digits = digits.rstrip("0")
    return f"{head}.{digits}{zone}" if digits else f"{head}{zone}"


#: strconv.FormatFloat's words for the values that are no number (cel-cpp writes C's)
_NOT_NUMBERS = {"nan": "NaN", "-nan": "NaN", "inf": "+Inf", "-inf": "-Inf"}


def double_text(text: str) -> str:
    """cel-go's ``string(double)`` (``strconv.FormatFloat(f, 'g', -1, 64)``): cel-cpp's
    own for every number, Go's words for NaN and the infinities."""
    return _NOT_NUMBERS.get(text, text)


#: cel-cpp's overloads whose exact result is reworded: (its overload, the wrapper's
#: name, the wrapper)
REWORDED = (
    ("duration_to_string", "__go_duration_text", duration_text),
    ("timestamp_to_string", "__go_timestamp_text", timestamp_text),
    ("double_to_string", "__go_double_text", double_text),
)


#: (the function, cel-cpp's overload of it, the name it is renamed to, the parameters,
#: the result type, the implementation); each a member function
MEMBERS = (
    ("charAt", "string_char_at_int", "__charAt", [T.STRING, T.INT], T.STRING, char_at),
    (
        "substring",
        "string_substring_int",
        "__substring",
        [T.STRING, T.INT],
        T.STRING,
        substring_from,
    ),
    (
        "substring",
        "string_substring_int_int",
        "__substring",
        [T.STRING, T.INT, T.INT],
        T.STRING,
        substring_range,
    ),
    (
        "getMilliseconds",
        "duration_to_milliseconds",
        "__getMilliseconds",
        [T.DURATION],
        T.INT,
        duration_milliseconds,
    ),
)


def _overloads(renamed: str) -> list[object]:
    return [
        cel.Overload(f"{new}_{len(parameters)}", result, parameters, is_member=True, impl=impl)
        for _, _, new, parameters, result, impl in MEMBERS
        if new == renamed
    ]


#: the overload ids a renamed call's reference names
def overload_ids(renamed: str) -> tuple[str, ...]:
    return tuple(
        f"{new}_{len(parameters)}" for _, _, new, parameters, _, _ in MEMBERS if new == renamed
    )


LIBRARY = Library(
    "charAt, substring and getMilliseconds as cel-go computes them, string() reworded",
    "base",
    (
        *(
            (name, _overloads(name))
            for name in dict.fromkeys(new for _, _, new, _, _, _ in MEMBERS)
        ),
        *(
            (wrapper, [cel.Overload(f"{wrapper}_string", T.STRING, [T.STRING], impl=impl)])
            for _, wrapper, impl in REWORDED
        ),
    ),
)
