"""Kubernetes resource quantities (``500m``, ``1Gi``, ``1e3``) as exact numbers.

apimachinery's ``resource.Quantity`` (``k8s.io/apimachinery/pkg/api/resource/quantity.go``):
a signed decimal number, then a binary-SI suffix (``Ki`` .. ``Ei``), a decimal-SI one
(``n`` .. ``E``) or a decimal exponent (``e3``, ``E-2``). The server stores the canonical
spelling of what it parsed (``0.5`` becomes ``500m``), and apimachinery's
``equality.Semantic`` compares two quantities by value (``Quantity.Cmp``), not by
spelling: ``same_quantity`` is that comparison. Pure and stdlib only.
"""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = [
    "BINARY_EXPONENTS",
    "DECIMAL_EXPONENTS",
    "NOT_A_QUANTITY",
    "parse_quantity",
    "same_quantity",
    "stored_quantity",
]

_EXPONENT = re.compile(r"[-+]?[0-9]+")
#: the decimal-SI suffixes and their powers of ten, the binary-SI ones and their powers of
#: two (``suffix.go``'s decimal and binary suffixers): read by the parser here and by the
#: canonical spelling the server stores
DECIMAL_EXPONENTS = {
    "n": -9,
    "u": -6,
    "m": -3,
    "": 0,
    "k": 3,
    "M": 6,
    "G": 9,
    "T": 12,
    "P": 15,
    "E": 18,
}
BINARY_EXPONENTS = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_SUFFIXES = {
    **{suffix: Fraction(10) ** exponent for suffix, exponent in DECIMAL_EXPONENTS.items()},
    **{suffix: Fraction(2) ** exponent for suffix, exponent in BINARY_EXPONENTS.items()},
}
#: the message of apimachinery's ``ErrFormatWrong``
NOT_A_QUANTITY = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)


def parse_quantity(text: str) -> Fraction:
    """The exact value of a quantity's spelling; ``ValueError`` (apimachinery's words)
    for anything else.

    Read as ``ParseQuantity`` reads it, not by the regular expression its error message
    quotes: a missing number is 0, so ``.``, ``-``, ``k`` and ``e3`` are quantities
    (``isQuantity('.')`` is true on the API server)."""
    negative, whole, fraction, suffix = _split(text)
    if suffix in _SUFFIXES:
        scale = _SUFFIXES[suffix]
    elif suffix[:1] in ("e", "E") and _EXPONENT.fullmatch(suffix[1:]):
        scale = Fraction(10) ** int(suffix[1:])
    else:
        raise ValueError("unable to parse quantity's suffix")
    value = Fraction(f"{whole}.{fraction}" if fraction else whole) * scale
    return -value if negative else value


def _split(text: str) -> tuple[bool, str, str, str]:
    """(negative, whole digits, fraction digits, suffix) as ``parseQuantityString``
    scans ``text``: a sign, zeros skipped (nothing after them: 0), digits, a point and
    digits, then suffix letters, a sign and digits, and nothing else."""
    end = len(text)
    if not end:
        raise ValueError(NOT_A_QUANTITY)
    at = 1 if text[0] in "+-" else 0
    negative = text[0] == "-"
    while at < end and text[at] == "0":
        at += 1
    if at == end:
        return negative, "0", "", ""
    begin = at
    at = _digits(text, at)
    whole = text[begin:at] or "0"
    fraction = ""
    if at < end and text[at] == ".":
        begin = at + 1
        at = _digits(text, begin)
        fraction = text[begin:at]
    begin = at
    while at < end and text[at] in "eEinumkKMGTP":
        at += 1
    if at < end and text[at] in "+-":
        at += 1
    if _digits(text, at) != end:
        raise ValueError(NOT_A_QUANTITY)
    return negative, whole, fraction, text[begin:]


def _digits(text: str, at: int) -> int:
    """Where the ASCII digits from ``at`` end."""
    while at < len(text) and "0" <= text[at] <= "9":
        at += 1
    return at


def _value(value: object) -> Fraction | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        # a YAML 0.5 or 2: what its JSON spelling says, as the server parses it
        text = repr(value)
    elif isinstance(value, str):
        text = value
    else:
        return None
    try:
        return parse_quantity(text)
    except (ValueError, ZeroDivisionError):
        return None


def same_quantity(a: object, b: object) -> bool:
    """Both are quantities (strings, or JSON numbers) of the same value."""
    left, right = _value(a), _value(b)
    return left is not None and right is not None and left == right


_DECIMAL_NAMES = {exponent: suffix for suffix, exponent in DECIMAL_EXPONENTS.items()}
_BINARY_NAMES = {0: "", **{exponent: suffix for suffix, exponent in BINARY_EXPONENTS.items()}}
_INT64 = 1 << 63


def stored_quantity(text: str, *, milli: bool = False) -> str:
    """What the server stores for a quantity spelt ``text`` (``ValueError`` when it is
    none): apimachinery's ``ParseQuantity`` then ``Quantity.String``
    (``api/resource/quantity.go``). A spelling that is already canonical is kept as it
    was written (the parsed quantity keeps its string when it fits an int64 with a
    scale that is a multiple of 3, no trailing "000" and no leading zero after the
    sign, or is a binary suffix's odd multiple: ``+1`` and ``0100m`` stay); others are
    written canonically: a decimal number with the largest suffix that keeps it whole
    (``0.5`` -> ``500m``, ``1000m`` -> ``1``, ``1.5e3`` -> ``1500``), binary
    multiples of 1024 with theirs (``1024Mi`` -> ``1Gi``), precision beyond the nano
    rounded away from zero. ``milli``: then ``RoundUp(-3)`` (a ResourceList's
    default), which leaves a quantity at the milli or coarser as it is."""
    value = parse_quantity(text)
    if text == "0":
        return text
    negative, num, denom, suffix = _split(text)
    binary = suffix in BINARY_EXPONENTS
    if binary:
        kind, exponent = "binary", BINARY_EXPONENTS[suffix]
    elif suffix in DECIMAL_EXPONENTS:
        kind, exponent = "decimal", DECIMAL_EXPONENTS[suffix]
    else:
        kind, exponent = "exponent", int(suffix[1:])
    # ParseQuantity's int64 path: the quantity keeps ``text`` when it is canonical
    if binary:
        scale, mantissa = 0, 1
        if exponent >= 0 and not denom:
            mantissa = 1 << exponent
            precision = 15 - len(num) - int(exponent * 3 / 10) - 1
        else:
            precision = -1
    else:
        scale, mantissa = exponent, 1
        precision = 18 - len(num) - len(denom)
    if precision >= 0 and scale - len(denom) >= -9:
        scale -= len(denom)
        shifted = num + denom
        number = int(shifted)
        if -_INT64 <= number * mantissa < _INT64 and (not milli or scale >= -3):
            if binary:
                if exponent % 10 == 0 and number & 7:
                    return text
            elif scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0":
                return text
    elif binary and 0 < abs(_round_up(value, 9)) < 1:
        kind = "decimal"  # the inf.Dec path: a binary quantity below 1 is decimal
    # rounded up (away from zero) to the nano as parsed, or to the milli
    return _canonical_quantity(_round_up(value, 3 if milli else 9), kind, negative)


def _round_up(value: Fraction, digits: int) -> Fraction:
    """``value`` rounded away from zero to ``digits`` decimal places (inf.RoundUp)."""
    scaled = abs(value) * 10**digits
    if scaled.denominator == 1:
        return value
    whole = -(-scaled.numerator // scaled.denominator)
    return (-1 if value < 0 else 1) * Fraction(whole, 10**digits)


def _canonical_quantity(value: Fraction, kind: str, negative: bool) -> str:
    """``Quantity.CanonicalizeBytes`` of an exact value in a format."""
    if value == 0:
        return "0"
    if kind == "binary":
        if -1024 < value < 1024 or value.denominator != 1:
            kind = "decimal"
        else:
            mantissa, times = int(value), 0
            while mantissa % 1024 == 0 and times < 6:
                mantissa //= 1024
                times += 1
            return f"{mantissa}{_BINARY_NAMES[times * 10]}"
    # mantissa * 10**exponent, the mantissa without trailing zeros...
    exponent = 0
    while value.denominator != 1:
        value *= 10
        exponent -= 1
    mantissa = int(value)
    while mantissa % 10 == 0:
        mantissa //= 10
        exponent += 1
    # ...then the exponent down to a multiple of 3
    down = exponent % 3
    mantissa *= 10**down
    exponent -= down
    if kind == "exponent":
        return f"{mantissa}e{exponent}" if exponent else str(mantissa)
    suffix = _DECIMAL_NAMES.get(exponent)
    if suffix is None:  # beyond E: Go prints no suffix for it; keep the value's own form
        return f"{mantissa}e{exponent}"
    return f"{mantissa}{suffix}"
