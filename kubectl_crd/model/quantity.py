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
