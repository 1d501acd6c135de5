"""What a YAML scalar becomes once Kubernetes has read it.

The API server and kubectl decode YAML with ``sigs.k8s.io/yaml``: go-yaml v2 (YAML
1.1 rules) into ``interface{}``, then ``json.Marshal``, then a JSON decoder that keeps
integers as int64 and every other number as float64. This module mirrors that chain for
one scalar at a time, so a value here is what the server would see:

- ``resolve(tag, text)`` is go-yaml v2's ``resolve.go``: the plain-scalar table, ints
  through ``strconv.ParseInt(x, 0, 64)``, its float regexp, explicit tags;
- ``json_value(raw)`` is the JSON round trip (whole floats become ints, +Inf and NaN
  cannot be marshalled, uint64 comes back as float64);
- ``json_key(raw)`` is how ``sigs.k8s.io/yaml`` turns a map key into a JSON string.

Pure: stdlib only, no YAML library.
"""

from __future__ import annotations

import math
import re

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1

TAG_PREFIX = "tag:yaml.org,2002:"
STR_TAG = TAG_PREFIX + "str"
BOOL_TAG = TAG_PREFIX + "bool"
INT_TAG = TAG_PREFIX + "int"
FLOAT_TAG = TAG_PREFIX + "float"
NULL_TAG = TAG_PREFIX + "null"
TIMESTAMP_TAG = TAG_PREFIX + "timestamp"
BINARY_TAG = TAG_PREFIX + "binary"
MERGE_TAG = TAG_PREFIX + "merge"

# The tags go-yaml v2 checks a value against (``resolvableTag``); any other tag on a
# scalar leaves its text as a string, and tags on mappings and sequences are ignored.
_RESOLVABLE = frozenset({"", STR_TAG, BOOL_TAG, INT_TAG, FLOAT_TAG, NULL_TAG, TIMESTAMP_TAG})


class ScalarError(ValueError):
    """A scalar that Kubernetes refuses; the loader adds file, line and column."""


def _plain_table() -> dict[str, tuple[str, Any]]:
    table: dict[str, tuple[str, Any]] = {}
    groups: list[tuple[str, Any, str]] = [
        (BOOL_TAG, True, "y Y yes Yes YES true True TRUE on On ON"),
        (BOOL_TAG, False, "n N no No NO false False FALSE off Off OFF"),
        (NULL_TAG, None, "~ null Null NULL"),
        (FLOAT_TAG, math.nan, ".nan .NaN .NAN"),
        (FLOAT_TAG, math.inf, ".inf .Inf .INF +.inf +.Inf +.INF"),
        (FLOAT_TAG, -math.inf, "-.inf -.Inf -.INF"),
    ]
    for tag, value, words in groups:
        for word in words.split():
            table[word] = (tag, value)
    table[""] = (NULL_TAG, None)
    return table


_PLAIN = _plain_table()
# go-yaml v2 only consults its table (and number parsing) when the first character
# hints at it; "Yes" resolves, "yES" and "=" stay strings.
_TABLE_HINT = frozenset("yYnNtTfFoO~")
_NUMBER_HINT = frozenset("+-0123456789")
_ANY_HINT = _TABLE_HINT | _NUMBER_HINT | {"."}

# strconv.ParseFloat on text that starts with ".": underscores only between digits.
_DOT_FLOAT = re.compile(r"\.[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+(?:_[0-9]+)*)?\Z")
# go-yaml v2 ``yamlStyleFloat``.
_YAML_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
# strconv.ParseInt(x, 0, 64) syntax: sign, then 0x / 0o / 0b / leading-0 octal / decimal.
_GO_INT = re.compile(
    r"(?P<sign>[-+]?)(?:0[xX](?P<hex>[0-9a-fA-F]+)|0[oO](?P<oct>[0-7]+)|0[bB](?P<bin>[01]+)"
    r"|(?P<loct>0[0-7]*)|(?P<dec>[1-9][0-9]*))\Z"
)
# go-yaml v2 ``allowedTimestampFormats`` as Go's time.Parse reads them.
_TIMESTAMP = re.compile(
    r"(?P<y>[0-9]{4})-(?P<mo>[0-9]{1,2}+)-(?P<d>[0-9]{1,2}+)"
    r"(?:(?P<sep>[Tt ])(?P<h>[0-9]{1,2}+):(?P<mi>[0-9]{1,2}+):(?P<s>[0-9]{1,2}+)"
    r"(?:[.,][0-9]+)?(?P<tz>Z|[-+][0-9]{2}:[0-9]{2})?)?\Z"
)
_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def short_tag(tag: str) -> str:
    """``tag:yaml.org,2002:int`` -> ``!!int``, as go-yaml prints tags in errors."""
    return "!!" + tag[len(TAG_PREFIX) :] if tag.startswith(TAG_PREFIX) else tag


def _is_timestamp(text: str) -> bool:
    match = _TIMESTAMP.match(text)
    if match is None:
        return False
    sep, tz = match["sep"], match["tz"]
    # "T"/"t" layouts require a zone, the space layout forbids one.
    if sep is not None and (sep == " ") == (tz is not None):
        return False
    year, month, day = int(match["y"]), int(match["mo"]), int(match["d"])
    if not 1 <= month <= 12 or not 1 <= day <= _DAYS[month - 1]:
        return False
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if month == 2 and day == 29 and not leap:
        return False
    return sep is None or (
        int(match["h"]) <= 23 and int(match["mi"]) <= 59 and int(match["s"]) <= 59
    )


def _parse_go_int(text: str) -> int | None:
    """strconv.ParseInt(text, 0, 64), falling back to ParseUint for large positives."""
    match = _GO_INT.match(text)
    if match is None:
        return None
    if match["hex"] is not None:
        value = int(match["hex"], 16)
    elif match["oct"] is not None:
        value = int(match["oct"], 8)
    elif match["bin"] is not None:
        value = int(match["bin"], 2)
    elif match["loct"] is not None:
        value = int(match["loct"], 8)
    else:
        value = int(match["dec"])
    if match["sign"] == "-":
        value = -value
    if INT64_MIN <= value <= INT64_MAX:
        return value
    # ParseUint takes no sign at all, so "+18446744073709551615" is not a uint64.
    if not match["sign"] and value <= UINT64_MAX:
        return value
    return None


def _parse_float(text: str) -> float | None:
    value = float(text)
    # strconv.ParseFloat reports overflow as an error, and go-yaml then keeps the string.
    return None if math.isinf(value) else value


def _resolve_untyped(tag: str, text: str) -> tuple[str, Any]:
    if tag == STR_TAG or (text and text[0] not in _ANY_HINT):
        return STR_TAG, text
    found = _PLAIN.get(text)
    if found is not None:
        return found
    first = text[0]
    if first == ".":
        if _DOT_FLOAT.match(text):
            number = _parse_float(text)
            if number is not None:
                return FLOAT_TAG, number
    elif first in _NUMBER_HINT:
        if tag in ("", TIMESTAMP_TAG) and _is_timestamp(text):
            return TIMESTAMP_TAG, text
        plain = text.replace("_", "")
        integer = _parse_go_int(plain)
        if integer is not None:
            return INT_TAG, integer
        if _YAML_FLOAT.match(plain):
            number = _parse_float(plain)
            if number is not None:
                return FLOAT_TAG, number
    return STR_TAG, text


def resolve(tag: str, text: str) -> Any:
    """The Go value go-yaml v2 decodes a scalar to, as Python (before the JSON round trip).

    ``tag`` is "" for a plain scalar without a tag, else the expanded tag. Quoted
    scalars without a tag never reach here: they are strings. Timestamps stay the text
    they were written as (go-yaml v2 decodes them into ``interface{}`` as strings).
    Raises ``ScalarError`` when an explicit tag does not fit the text.
    """
    if tag == BINARY_TAG:
        return _decode_binary(text)
    if tag not in _RESOLVABLE:
        return text
    rtag, value = _resolve_untyped(tag, text)
    if tag in ("", rtag, STR_TAG):
        return value
    # go-yaml v2 widens int and int64 to a float, but not uint64.
    if tag == FLOAT_TAG and rtag == INT_TAG and value <= INT64_MAX:
        return float(value)
    raise ScalarError(f"cannot decode {short_tag(rtag)} `{text}` as a {short_tag(tag)}")


def resolve_tag(text: str) -> str:
    """The tag go-yaml v2 gives ``text`` written plain (its encoder quotes a string
    whose tag would not be ``str``)."""
    return _resolve_untyped("", text)[0]


def resolve_plain(text: str) -> Any:
    """``resolve("", text)``: a plain scalar without a tag."""
    return _resolve_untyped("", text)[1]


def _decode_binary(text: str) -> str:
    import binascii

    # Go's base64.StdEncoding skips only CR and LF; anything else must be the alphabet.
    compact = text.replace("\n", "").replace("\r", "")
    try:
        data = binascii.a2b_base64(compact.encode("ascii"), strict_mode=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise ScalarError("!!binary value contains invalid base64 data") from None
    # The bytes become a Go string; json.Marshal writes each invalid UTF-8 byte as U+FFFD.
    decoded = data.decode("utf-8", "surrogateescape")
    return re.sub("[\udc80-\udcff]", "\ufffd", decoded)


def json_float(value: float) -> int | float:
    """A float64 after json.Marshal and a decode that keeps integers as int64."""
    if math.isnan(value):
        raise ScalarError("json: unsupported value: NaN")
    if math.isinf(value):
        raise ScalarError(f"json: unsupported value: {'+Inf' if value > 0 else '-Inf'}")
    # encoding/json writes 'f' format (no exponent, no ".0") below 1e21, so a whole
    # number comes back as an integer when it fits int64.
    if not value.is_integer() or abs(value) >= 1e21:
        return value
    if abs(value) < 2**53:
        return int(value)
    # Above 2**53 Go prints the shortest round-trip digits padded with zeros, which is
    # what Python's repr holds too: 2**60 is written (and read back) as 1152921504606847000.
    from decimal import Decimal

    integer = int(Decimal(repr(value)))
    return integer if INT64_MIN <= integer <= INT64_MAX else value


def json_value(raw: Any) -> Any:
    """A resolved scalar as the JSON decoder on the server hands it to validation."""
    kind = type(raw)
    if kind is int:
        if INT64_MIN <= raw <= INT64_MAX:
            return raw
        # A uint64 is marshalled as its digits, which no longer fit int64 on the way back.
        return float(raw)
    if kind is float:
        return json_float(raw)
    return raw


def json_key(raw: Any) -> str:
    """A resolved map key as ``sigs.k8s.io/yaml`` writes it into JSON."""
    kind = type(raw)
    if kind is str:
        return str(raw)
    if kind is bool:
        return "true" if raw else "false"
    if kind is int:
        if INT64_MIN <= raw <= INT64_MAX:
            return str(raw)
        raise ScalarError(f"unsupported map key of type uint64: {raw}")
    if kind is float:
        return _format_float32_g(raw)
    if raw is None:
        raise ScalarError("unsupported map key: null (keys must be strings, numbers or booleans)")
    raise ScalarError(f"unsupported map key of type {kind.__name__}")


def _format_float32_g(value: float) -> str:
    """strconv.FormatFloat(value, 'g', -1, 32) with go-yaml's names for Inf and NaN."""
    import struct

    if math.isnan(value):
        return ".nan"
    try:
        single = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        single = math.copysign(math.inf, value)
    if math.isinf(single):
        return ".inf" if single > 0 else "-.inf"
    if single == 0:
        return "-0" if math.copysign(1.0, single) < 0 else "0"
    # The shortest digits that read back as the same float32.
    for precision in range(1, 10):
        text = f"{single:.{precision - 1}e}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == single:
            break
    mantissa, _, exp_text = text.partition("e")
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "")
    exponent = int(exp_text)
    # Go uses %e when the exponent is < -4 or >= 6 (precision 6 for shortest output).
    if exponent < -4 or exponent >= 6:
        fraction = "." + digits[1:] if len(digits) > 1 else ""
        return f"{sign}{digits[0]}{fraction}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    point = exponent + 1
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"


# go-yaml v2 decode.go: how much of a document may come from expanding aliases before
# it counts as a "billion laughs" attack.
_ALIAS_RATIO_LOW = 400_000
_ALIAS_RATIO_HIGH = 4_000_000


def allowed_alias_ratio(decode_count: int) -> float:
    """go-yaml v2's ``allowedAliasRatio``: the share of a document's decode operations
    that may come from aliases (``document contains excessive aliasing`` past it)."""
    if decode_count <= _ALIAS_RATIO_LOW:
        return 0.99
    if decode_count >= _ALIAS_RATIO_HIGH:
        return 0.10
    span = _ALIAS_RATIO_HIGH - _ALIAS_RATIO_LOW
    return 0.99 - 0.89 * ((decode_count - _ALIAS_RATIO_LOW) / span)
