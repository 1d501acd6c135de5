"""How Go prints and compares decoded JSON values: ``json.Marshal``, ``%v``,
``strconv.Quote``, ``apiequality.Semantic.DeepEqual``; defined once.

Pure: stdlib only. Used by validation's messages and by the JSONPath and printer-column
code of ``get`` alike.

``field.Error`` prints a bad value with ``%v`` for numbers and booleans, ``%q`` for
strings and ``json.Marshal`` for everything else
(``apimachinery/pkg/util/validation/field/errors.go``); kube-openapi prints bounds
with ``%v`` of a float64 (``kube-openapi/pkg/validation/errors/schema.go``). These
functions reproduce those renderings byte for byte.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

# strconv.Quote lives with strconv's other readings (``model.gostrconv``, which the flag
# parsers load without json); the messages here and in validation quote with it
from kubectl_crd.model.gostrconv import go_quote as go_quote

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any


def _shortest_digits(value: float) -> tuple[str, int]:
    """The shortest decimal digits of ``value`` and its decimal exponent (as strconv)."""
    # repr gives the shortest round-tripping digits; normalise them to digits+exponent.
    text = repr(abs(value))
    if "e" in text:
        mantissa, _, exp_text = text.partition("e")
        exp = int(exp_text)
    else:
        mantissa, exp = text, 0
    whole, _, fraction = mantissa.partition(".")
    if fraction == "0":
        fraction = ""
    digits = (whole + fraction).lstrip("0")
    # position of the decimal point relative to the first significant digit
    point = len(whole) + exp
    if not digits:
        return "0", 1
    leading_zeros = len(whole + fraction) - len((whole + fraction).lstrip("0"))
    point -= leading_zeros
    return digits.rstrip("0") or "0", point


def go_float_v(value: float) -> str:
    """``fmt.Sprintf("%v", float64)``: %g with the shortest digits."""
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if math.isnan(value):
        return "NaN"
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    digits, point = _shortest_digits(value)
    exp = point - 1
    sign = "-" if value < 0 else ""
    # strconv/ftoa.go, 'g' with the shortest precision: %e when the exponent is
    # below -4 or at least 6 (fmt.Println(1e6) prints 1e+06).
    if exp < -4 or exp >= 6:
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{body}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    return sign + _fixed(digits, point)


def _fixed(digits: str, point: int) -> str:
    if point <= 0:
        return "0." + "0" * (-point) + digits
    if point >= len(digits):
        return digits + "0" * (point - len(digits))
    return digits[:point] + "." + digits[point:]


def go_json_float(value: float) -> str:
    """``encoding/json`` for a float64: like ES6, 'e' below 1e-6 and from 1e21."""
    if value == 0:
        return "0" if math.copysign(1, value) > 0 else "-0"
    digits, point = _shortest_digits(value)
    exp = point - 1
    sign = "-" if value < 0 else ""
    if abs(value) < 1e-6 or abs(value) >= 1e21:
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{body}e{'-' if exp < 0 else '+'}{abs(exp)}"
    return sign + _fixed(digits, point)


def _json_string(text: str) -> str:
    """``encoding/json`` of a string (Go 1.22 and later): ``\\b`` and ``\\f`` short
    escapes, other control characters as ``\\u00XX``, and the HTML characters and line
    separators escaped, as ``json.Marshal`` does by default (``encode.go appendString``)."""
    return (
        json.dumps(text, ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def go_json(value: Any) -> str:
    """``json.Marshal`` of decoded JSON: keys sorted, no spaces, HTML-safe escapes."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_json_float(value)
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, dict):
        return (
            "{"
            + ",".join(f"{_json_string(str(k))}:{go_json(value[k])}" for k in sorted(value))
            + "}"
        )
    if isinstance(value, list | tuple):
        return "[" + ",".join(go_json(item) for item in value) + "]"
    return _json_string(str(value))


def json_kind(value: Any) -> str:
    """encoding/json's name for the kind of a JSON value in its ``UnmarshalTypeError``
    (``json: cannot unmarshal <kind> into ...``; ``null`` for None, which decodes
    into anything)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "bool"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list | tuple):
        return "array"
    return "object"


def unmarshal_type_error(what: str, go_type: str, field: str = "") -> str:
    """An ``UnmarshalTypeError``'s text: ``what`` the JSON kind (``json_kind``, or
    ``number <literal>`` for a number an integer type cannot hold) that would not go
    into ``go_type``, at ``field`` (``Struct.path``) or, with none, as the whole value."""
    if field:
        return f"json: cannot unmarshal {what} into Go struct field {field} of type {go_type}"
    return f"json: cannot unmarshal {what} into Go value of type {go_type}"


#: ``%T`` of each JSON kind in an ``interface{}`` (numbers apart: ``go_type``)
_GO_TYPES = {
    "null": "<nil>",
    "bool": "bool",
    "string": "string",
    "array": "[]interface {}",
    "object": "map[string]interface {}",
}


def go_type(value: Any) -> str:
    """``%T`` of a decoded JSON value held in an ``interface{}`` (unstructured's numbers:
    ``int64`` and ``float64``)."""
    kind = json_kind(value)
    if kind == "number":
        return "int64" if isinstance(value, int) else "float64"
    return _GO_TYPES[kind]


def go_v(value: Any) -> str:
    """``%v`` of a number or bool as the validators print bounds and counts."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        return go_float_v(value)
    return str(value)


def go_print(value: Any) -> str:
    """``fmt.Fprint`` of a value: scalars as the JSONPath printer writes them, lists as
    ``[a b]`` and maps as ``map[k:v]`` in key order (custom-columns prints these)."""
    if isinstance(value, list):
        return "[" + " ".join(go_print(v) for v in value) + "]"
    if isinstance(value, dict):
        return "map[" + " ".join(f"{k}:{go_print(value[k])}" for k in sorted(value)) + "]"
    if value is None:
        return "<nil>"
    return go_v(value)


def as_kubectl_decodes(value: Any) -> Any:
    """``value`` after kubectl's JSON round trip (``json.Marshal``, then
    ``k8s.io/apimachinery/pkg/util/json.Unmarshal``, which keeps a whole number that
    fits an int64): a whole float64 written without an exponent (below 1e21) comes back
    an int64, an integer past int64 a float64; a key that is not a string is its text,
    any mapping a map and a tuple a list (a reconciler's dict, ``validation.typed``'s
    values). Without the text in between."""
    if isinstance(value, dict):
        return {str(key): as_kubectl_decodes(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_kubectl_decodes(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21 and -(2**63) <= value < 2**63:
            return int(value)
        return value
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        return float(value)
    if isinstance(value, Mapping):
        return as_kubectl_decodes(dict(value))
    return value


def bad_value(value: Any, *, named: bool = False) -> str:
    """How ``field.Error.ErrorBody`` prints a bad value. ``named``: the Go field holding
    it is a named string type (``core.Protocol``, ``batch.CompletionMode``, a pointer to
    one): ErrorBody's ``case string`` matches the plain type only, so such a value falls
    to ``json.Marshal`` (``\u0026`` for ``&``, DEL and U+200B as they are) where a plain
    string's is ``%q``."""
    if isinstance(value, bool | int | float):
        return go_v(value)
    if isinstance(value, str) and not named:
        return go_quote(value)
    return go_json(value)


def go_equal(left: Any, right: Any) -> bool:
    """``apiequality.Semantic.DeepEqual`` of decoded JSON: Python's ``==`` would take
    ``True`` for ``1`` and ``1`` for ``1.0``, which Go's int64, float64 and bool are not.
    Used where the API server skips a write that changes nothing (admission, the
    in-process store)."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(go_equal(v, right[k]) for k, v in left.items())
    if isinstance(left, list):
        return len(left) == len(right) and all(map(go_equal, left, right))
    return bool(left == right)
