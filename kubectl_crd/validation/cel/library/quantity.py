"""``library/quantity.go`` (Kubernetes 1.28): ``resource.Quantity`` values.

Parsed as ``k8s.io/apimachinery/pkg/api/resource`` does (binary suffixes Ki..Ei,
decimal n u m k M G T P E, exponents ``e3``), held exactly as a fraction; the message
keeps the canonical decimal, so ``==`` compares values (``Quantity.Equal``).
"""

from __future__ import annotations

from fractions import Fraction

from cel_expr_python import cel

from kubectl_crd.model.quantity import parse_quantity
from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.cel.library.types import make

T = cel.Type
Q = T("kubernetes.Quantity")
_INT64 = (-(2**63), 2**63 - 1)
#: one parser of apimachinery's spellings, shared with the dev loop's comparisons
parse = parse_quantity


def _text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _value(q: object) -> Fraction:
    return Fraction(q.value)  # type: ignore[attr-defined]


def quantity(text: str) -> object:
    return make("kubernetes.Quantity", _text(parse(text)))


def is_quantity(text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


def is_integer(q: object) -> bool:
    value = _value(q)
    return value.denominator == 1 and _INT64[0] <= value <= _INT64[1]


def as_integer(q: object) -> int:
    if not is_integer(q):
        raise ValueError("cannot convert value to integer")
    return int(_value(q))


def as_approximate_float(q: object) -> float:
    return float(_value(q))


def add(q: object, other: object) -> object:
    right = Fraction(other) if isinstance(other, int) else _value(other)
    return make("kubernetes.Quantity", _text(_value(q) + right))


def sub(q: object, other: object) -> object:
    right = Fraction(other) if isinstance(other, int) else _value(other)
    return make("kubernetes.Quantity", _text(_value(q) - right))


def compare_to(q: object, other: object) -> int:
    """Quantities by value; also semantic versions, whose overloads share this
    implementation (the engine dispatches on kinds: both are messages)."""
    if q.DESCRIPTOR.full_name == "kubernetes.Semver":  # type: ignore[attr-defined]
        from kubectl_crd.validation.cel.library import semver

        return semver.compare_to(q, other)
    left, right = _value(q), _value(other)
    return (left > right) - (left < right)


def is_greater_than(q: object, other: object) -> bool:
    return compare_to(q, other) > 0


def is_less_than(q: object, other: object) -> bool:
    return compare_to(q, other) < 0


def _member(name: str, result: object, impl: object, *extra: object) -> object:
    suffix = "_".join(getattr(t, "name", lambda: "x")() for t in extra) or "none"
    return cel.Overload(f"quantity_{name}_{suffix}", result, [Q, *extra], is_member=True, impl=impl)


LIBRARY = Library(
    "quantity",
    "1.28",
    (
        ("quantity", [cel.Overload("string_to_quantity", Q, [T.STRING], impl=quantity)]),
        ("isQuantity", [cel.Overload("is_quantity_string", T.BOOL, [T.STRING], impl=is_quantity)]),
        ("isInteger", [_member("isInteger", T.BOOL, is_integer)]),
        ("asInteger", [_member("asInteger", T.INT, as_integer)]),
        ("asApproximateFloat", [_member("asApproximateFloat", T.DOUBLE, as_approximate_float)]),
        ("add", [_member("add", Q, add, Q), _member("add", Q, add, T.INT)]),
        ("sub", [_member("sub", Q, sub, Q), _member("sub", Q, sub, T.INT)]),
        ("isGreaterThan", [_member("isGreaterThan", T.BOOL, is_greater_than, Q)]),
        ("isLessThan", [_member("isLessThan", T.BOOL, is_less_than, Q)]),
        ("compareTo", [_member("compareTo", T.INT, compare_to, Q)]),
    ),
)
