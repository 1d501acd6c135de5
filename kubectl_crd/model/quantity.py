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

__all__ = ["NOT_A_QUANTITY", "parse_quantity", "same_quantity"]

_FORMAT = re.compile(r"^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$")
_EXPONENT = re.compile(r"[-+]?[0-9]+")
_SUFFIXES = {
    "": Fraction(1),
    "n": Fraction(1, 10**9),
    "u": Fraction(1, 10**6),
    "m": Fraction(1, 10**3),
    "k": Fraction(10**3),
    "M": Fraction(10**6),
    "G": Fraction(10**9),
    "T": Fraction(10**12),
    "P": Fraction(10**15),
    "E": Fraction(10**18),
    "Ki": Fraction(2**10),
    "Mi": Fraction(2**20),
    "Gi": Fraction(2**30),
    "Ti": Fraction(2**40),
    "Pi": Fraction(2**50),
    "Ei": Fraction(2**60),
}
#: the message of apimachinery's ``ErrFormatWrong``
NOT_A_QUANTITY = (
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)


def parse_quantity(text: str) -> Fraction:
    """The exact value of a quantity's spelling; ``ValueError`` (apimachinery's words)
    for anything else."""
    match = _FORMAT.match(text)
    if match is None or not text:
        raise ValueError(NOT_A_QUANTITY)
    number, suffix = match.groups()
    if number.count(".") > 1 or number.strip("+-") in ("", "."):
        raise ValueError(NOT_A_QUANTITY)
    if suffix in _SUFFIXES:
        scale = _SUFFIXES[suffix]
    elif suffix[:1] in ("e", "E") and _EXPONENT.fullmatch(suffix[1:]):
        scale = Fraction(10) ** int(suffix[1:])
    else:
        raise ValueError("unable to parse quantity's suffix")
    return Fraction(number) * scale


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
