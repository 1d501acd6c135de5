"""``string.format`` as kube-apiserver runs it: cel-go ``ext/formatting.go``'s version-1
formatter, which the strings library at version 2 (``ext.StringsVersion(2)``,
``apiserver/pkg/cel/environment/base.go``) binds, with its ``en_US`` locale.

cel-cpp's own ``format`` words its errors otherwise and prints other texts (``%s`` of a
list quotes nothing, ``%f`` groups no digits, ``%e`` is C's), and a name the strings
extension declared cannot be declared again: so ``environment.runnable`` renames the
calls of a compiled program to ``FORMAT``, implemented here. What the compile-time
check refuses is ``checked.format_literal_errors``'.

The engine hands a Python function Python values, so an ``int`` and a ``uint`` are one
here, and timestamps and durations keep microseconds. It cannot hand over an optional:
one in a list fails the call with a Python error, one in a map kills the process
(SIGSEGV in cel_expr_python's conversion). So where the checker typed some node of an
expression ``optional_type`` or ``uint`` (nothing else makes such values: ``self`` is
JSON), ``guard_arguments`` rewrites the text of every ``format`` call to have the
engine replace, before the call, an optional argument, a list or map holding one (at
any depth the expression can build) and a ``uint`` argument by marker strings, which
``string_format`` turns into the errors and type names cel-go gives. What the marker
of a container holding an optional loses: an error cel-go would meet first among its
other members (invalid UTF-8 bytes); the guard's comprehensions count in the runtime
cost.
"""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta
from typing import Any

from cel_expr_python import cel

from kubectl_crd.model.gostrconv import go_quote
from kubectl_crd.model.govalues import go_float_v
from kubectl_crd.validation.cel.formatclause import ClauseError, parse_clause
from kubectl_crd.validation.cel.library.base import Library

T = cel.Type
FORMAT = "__format"
OVERLOAD_IDS = ("__format_string_list",)

_DEFAULT_PRECISION = 6
_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

#: cel.Type's names (the engine's) as cel-go's TypeName() gives them
_TYPE_NAMES = {
    "INT": "int", "UINT": "uint", "DOUBLE": "double", "STRING": "string", "BYTES": "bytes",
    "BOOL": "bool", "NULL": "null_type", "TYPE": "type", "DYN": "dyn",
    "DURATION": "google.protobuf.Duration", "TIMESTAMP": "google.protobuf.Timestamp",
}  # fmt: skip


class FormatError(ValueError):
    """One of cel-go's formatting errors, worded as cel-go words it."""


# The marker strings ``guard_arguments`` puts in place of what the engine cannot hand
# over (a NUL cannot come from a YAML or JSON string a user means).
_MARK = "\x00kubectl-crd:"
_OPTIONAL_MARK = _MARK + "optional\x00"
_LIST_MARK = _MARK + "list-with-optional\x00"
_MAP_MARK = _MARK + "map-with-optional\x00"
_UINT_MARK = _MARK + "uint\x00"


class OptionalValue:
    """An optional argument (cel-go's type name ``optional_type``)."""


class HoldsOptional:
    """A list or a map argument with an optional inside."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


class Uint(int):
    """A ``uint`` argument."""


def _unmarked(value: Any) -> Any:
    if not isinstance(value, str) or not value.startswith(_MARK):
        return value
    if value == _OPTIONAL_MARK:
        return OptionalValue()
    if value in (_LIST_MARK, _MAP_MARK):
        return HoldsOptional("list" if value == _LIST_MARK else "map")
    if value.startswith(_UINT_MARK):
        return Uint(value.removeprefix(_UINT_MARK))
    return value


def _type_of_type(value: Any) -> str:
    name = str(value)
    base = name.partition("<")[0]
    if base in ("LIST", "MAP"):
        return base.lower()
    return _TYPE_NAMES.get(base, base)


def type_name(value: Any) -> str:
    """cel-go's ``ref.Val.Type().TypeName()`` of a value as the engine hands it over."""
    if value is None:
        return "null_type"
    if isinstance(value, OptionalValue):
        return "optional_type"
    if isinstance(value, HoldsOptional):
        return value.kind
    if isinstance(value, Uint):
        return "uint"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bytes | bytearray):
        return "bytes"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "map"
    if isinstance(value, timedelta):
        return "google.protobuf.Duration"
    if isinstance(value, datetime):
        return "google.protobuf.Timestamp"
    if isinstance(value, cel.Type):
        return "type"
    return type(value).__name__


def _duration_text(value: timedelta) -> str:
    """cel-go's duration as a string: seconds as ``strconv.FormatFloat('f', -1)`` + s."""
    micros = (value.days * 86400 + value.seconds) * 1_000_000 + value.microseconds
    sign = "-" if micros < 0 else ""
    whole, fraction = divmod(abs(micros), 1_000_000)
    text = f"{whole}.{fraction:06d}".rstrip("0").rstrip(".")
    return f"{sign}{text}s"


def _timestamp_text(value: datetime) -> str:
    """``time.Time.Format(time.RFC3339Nano)`` in UTC: trailing zeros of the fraction
    dropped."""
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if value.microsecond:
        text += f".{value.microsecond:06d}".rstrip("0")
    return text + "Z"


def _as_string(value: Any) -> str:
    """``ConvertToType(StringType)`` of a scalar."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float_v(value)
    if isinstance(value, str):
        return value
    if isinstance(value, bytes | bytearray):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise FormatError(
                'could not convert argument "invalid UTF-8 in bytes, cannot convert to '
                'string" to string'
            ) from None
    if isinstance(value, timedelta):
        return _duration_text(value)
    if isinstance(value, datetime):
        return _timestamp_text(value)
    if isinstance(value, cel.Type):
        return _type_of_type(value)
    raise FormatError(_string_error(value))


def _string_error(value: Any) -> str:
    return (
        "string clause can only be used on strings, bools, bytes, ints, doubles, maps, "
        f"lists, types, durations, and timestamps, was given {type_name(value)}"
    )


def format_string(value: Any) -> str:
    """``FormatString``: the ``%s`` clause."""
    if isinstance(value, HoldsOptional):
        raise FormatError("no formatting function for optional_type")
    if isinstance(value, list):
        return _format_list(value)
    if isinstance(value, dict):
        return _format_map(value)
    if value is None:
        return "null"
    return _as_string(value)


def _member(value: Any) -> str:
    """A list's or a map's member: ``clauseForType`` then ``quoteForCEL``."""
    if isinstance(value, bool) or value is None or isinstance(value, cel.Type):
        return format_string(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = _go_fixed(value, _DEFAULT_PRECISION)
        return go_quote(text) if math.isinf(value) or math.isnan(value) else text
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, bytes | bytearray):
        return "b" + go_quote(_as_string(value))
    if isinstance(value, timedelta):
        return f"duration({go_quote(_duration_text(value))})"
    if isinstance(value, datetime):
        return f"timestamp({go_quote(_timestamp_text(value))})"
    if isinstance(value, list):
        return _format_list(value)
    if isinstance(value, dict):
        return _format_map(value)
    raise FormatError(f"no formatting function for {type_name(value)}")


def _format_list(items: list[Any]) -> str:
    return "[" + ", ".join(_member(item) for item in items) + "]"


def _format_map(mapping: dict[Any, Any]) -> str:
    pairs = sorted((_member(key), _member(value)) for key, value in mapping.items())
    return "{" + ", ".join(f"{key}:{value}" for key, value in pairs) + "}"


def _go_fixed(value: float, precision: int) -> str:
    """``fmt.Sprintf("%.Nf", f)``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return f"{value:.{precision}f}"


def _special_double(value: Any) -> float | None:
    """A double, or one of the strings a double's clause takes ("NaN", "Infinity",
    "-Infinity"), as a double; None for anything else."""
    if isinstance(value, float):
        return value
    if isinstance(value, str) and value in ("NaN", "Infinity", "-Infinity"):
        return float(value.replace("Infinity", "inf"))
    return None


def _localized(value: float, body: str) -> str:
    """golang.org/x/text's en_US rendering of a number: infinities as ∞, the integer
    digits grouped by three, no sign on a negative zero."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    sign = "-" if value < 0 else ""
    whole, dot, fraction = body.lstrip("-").partition(".")
    grouped = f"{int(whole):,}"
    return sign + grouped + dot + fraction


def _fixed(value: Any, precision: int | None) -> str:
    number = _special_double(value)
    if number is None:
        raise FormatError(
            f"fixed-point clause can only be used on doubles, was given {type_name(value)}"
        )
    digits = _DEFAULT_PRECISION if precision is None else precision
    return _localized(number, _go_fixed(number, digits))


def _scientific(value: Any, precision: int | None) -> str:
    """``%<precision>e`` (cel-go writes the precision as the width) through x/text:
    ``1.500000``, a multiplication sign, ``10`` and the exponent in superscript digits."""
    number = _special_double(value)
    if number is None:
        raise FormatError(
            f"scientific clause can only be used on doubles, was given {type_name(value)}"
        )
    if math.isnan(number) or math.isinf(number):
        text = _localized(number, "")
    else:
        mantissa, _, exponent = f"{number:.{_DEFAULT_PRECISION}e}".partition("e")
        power = int(exponent)
        sign = "-" if power < 0 else ""
        if mantissa.startswith("-") and number == 0:
            mantissa = mantissa[1:]
        text = f"{mantissa}\u00d710{(sign + format(abs(power), '02d')).translate(_SUPERSCRIPTS)}"
    width = _DEFAULT_PRECISION if precision is None else precision
    return text.rjust(width)


def _decimal(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise FormatError(f"decimal clause can only be used on integers, was given {type_name(value)}")


def _binary(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return format(value, "b")
    raise FormatError(
        f"only integers and bools can be formatted as binary, was given {type_name(value)}"
    )


def _hex(value: Any, upper: bool) -> str:
    if isinstance(value, str):
        text = value.encode("utf-8", "surrogatepass").hex()
    elif isinstance(value, bytes | bytearray):
        text = bytes(value).hex()
    elif isinstance(value, int) and not isinstance(value, bool):
        text = format(value, "x")
    else:
        raise FormatError(
            "only integers, byte buffers, and strings can be formatted as hex, "
            f"was given {type_name(value)}"
        )
    return text.upper() if upper else text


def _octal(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return format(value, "o")
    raise FormatError(f"octal clause can only be used on integers, was given {type_name(value)}")


def _formatted(verb: str, precision: int | None, value: Any) -> str:
    try:
        if verb == "s":
            return format_string(value)
        if verb == "d":
            return _decimal(value)
        if verb == "f":
            return _fixed(value, precision)
        if verb == "e":
            return _scientific(value, precision)
        if verb == "b":
            return _binary(value)
        if verb in "xX":
            return _hex(value, verb == "X")
        return _octal(value)
    except FormatError as error:
        raise FormatError(f"error during formatting: {error}") from None


def string_format(text: str, arguments: list[Any]) -> str:
    """``parseFormatString`` with the runtime's argument list: its checks in its order
    (an argument beyond the list is refused before a lone ``%`` at the end)."""
    arguments = [_unmarked(argument) for argument in arguments]
    data = text.encode("utf-8", "surrogatepass")
    out = bytearray()
    index = argument = 0
    while index < len(data):
        byte = data[index]
        if byte != 0x25:  # %
            out.append(byte)
            index += 1
            continue
        if data[index + 1 : index + 2] == b"%":
            out.append(0x25)
            index += 2
            continue
        if argument >= len(arguments):
            raise FormatError(f"index {argument} out of range")
        if index + 1 >= len(data):
            raise FormatError("unexpected end of string")
        try:
            index, verb, precision = parse_clause(data, index + 1)
        except ClauseError as error:
            raise FormatError(str(error)) from None
        out += _formatted(verb, precision, arguments[argument]).encode("utf-8", "surrogatepass")
        argument += 1
    return out.decode("utf-8", "surrogatepass")


_FORMAT_CALL = re.compile(r"\.\s*format\s*\(")


def _literal(text: str) -> str:
    return "'" + text.replace("\x00", "\\x00") + "'"


#: the deepest search cel-cpp's parser takes (its recursion limit is 32)
MAX_DEPTH = 7


def _holds_optional(name: str, depth: int, complete: bool) -> str:
    """CEL text: whether ``name`` is an optional or holds one ``depth`` levels down;
    when the search is not ``complete``, a list or a map at the last level counts as
    holding one (a wrong message rather than a crash)."""
    test = f"type({name}) == optional_type"
    if depth == 0:
        if complete:
            return test
        return f"({test} || type({name}) == list || type({name}) == map)"
    inner = f"__fo{depth}"
    return (
        f"({test} || ((type({name}) == list || type({name}) == map) && "
        f"dyn({name}).transformList(__fi{depth}, {inner}, {inner})"
        f".exists({inner}, {_holds_optional(inner, depth - 1, complete)})))"
    )


def _marked(name: str, depth: int, complete: bool) -> str:
    """CEL text: ``name``, or the marker that stands for it."""
    holds = _holds_optional(name, depth, complete)
    return (
        f"type({name}) == optional_type ? dyn({_literal(_OPTIONAL_MARK)}) : "
        f"type({name}) == uint ? dyn({_literal(_UINT_MARK)} + string({name})) : "
        f"type({name}) == list && {holds} ? dyn({_literal(_LIST_MARK)}) : "
        f"type({name}) == map && {holds} ? dyn({_literal(_MAP_MARK)}) : dyn({name})"
    )


def calls_format(text: str) -> bool:
    """Whether ``text`` may call ``format`` (a cheap look before ``guard_arguments``)."""
    return _FORMAT_CALL.search(text) is not None


def _closing(masked: str, opening: int) -> int | None:
    level = 0
    for index in range(opening, len(masked)):
        char = masked[index]
        if char in "([{":
            level += 1
        elif char in ")]}":
            level -= 1
            if level == 0:
                return index
    return None


def guard_arguments(text: str, depth: int, complete: bool = True) -> str:
    """``text`` with the argument list of every ``format`` call, ``A``, replaced by
    ``[A].map(a, a.map(x, <x or its marker>))[0]`` (CEL has no ``let``): an optional
    or a ``uint`` never reaches the engine's conversion (see the module's docstring).
    ``depth``: how deep a list or map argument is searched for an optional: to be
    ``complete``, at least the levels of lists and maps the expression can build
    (``self`` holds no optional)."""
    from kubectl_crd.validation.cel.tree import _STRINGS

    masked = _STRINGS.sub(lambda found: "'" + " " * (len(found.group(0)) - 2) + "'", text)
    out: list[str] = []
    position = 0
    for call in _FORMAT_CALL.finditer(masked):
        if call.start() < position:
            continue  # inside the arguments of a call rewritten already
        opening = call.end() - 1
        closing = _closing(masked, opening)
        if closing is None:
            return text  # unbalanced: it does not compile anyway
        arguments = guard_arguments(text[opening + 1 : closing], depth, complete)
        out.append(text[position : opening + 1])
        out.append(
            f"[{arguments}].map(__fa, dyn(__fa).map(__fx, {_marked('__fx', depth, complete)}))[0]"
        )
        out.append(")")
        position = closing + 1
    out.append(text[position:])
    return "".join(out)


LIBRARY = Library(
    "strings: format",
    "1.29",
    (
        (
            FORMAT,
            [
                cel.Overload(
                    OVERLOAD_IDS[0],
                    T.STRING,
                    [T.STRING, T.List(T.DYN)],
                    is_member=True,
                    impl=string_format,
                )
            ],
        ),
    ),
)
