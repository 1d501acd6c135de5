"""model.quantity: apimachinery's quantity spellings as exact values."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kubectl_crd.model.quantity import NOT_A_QUANTITY, parse_quantity, same_quantity


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", Fraction(1)),
        ("500m", Fraction(1, 2)),
        ("0.5", Fraction(1, 2)),
        ("1Ki", Fraction(1024)),
        ("1.5Gi", Fraction(3 * 2**29)),
        ("2k", Fraction(2000)),
        ("1e3", Fraction(1000)),
        ("1E-2", Fraction(1, 100)),
        ("-3n", Fraction(-3, 10**9)),
        ("+7M", Fraction(7 * 10**6)),
        # ParseQuantity reads a missing number as 0 (tests/integration/
        # test_cel_libraries_differential.py: isQuantity('.') is true on the server)
        (".", Fraction(0)),
        ("m", Fraction(0)),
        ("-", Fraction(0)),
        ("e3", Fraction(0)),
        ("1.", Fraction(1)),
    ],
)
def test_parse(text: str, value: Fraction) -> None:
    assert parse_quantity(text) == value


@pytest.mark.parametrize("text", ["", "1.2.3", "abc", "1Qi", "1ee3", "1Mi3", "1e", " 1", "1 "])
def test_not_quantities(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_quantity(text)
    assert str(caught.value) in (NOT_A_QUANTITY, "unable to parse quantity's suffix")


def test_same_quantity_compares_values_of_strings_and_numbers() -> None:
    assert same_quantity(0.5, "500m")
    assert same_quantity(2, "2000m")
    assert same_quantity("1Gi", "1024Mi")
    assert not same_quantity("1G", "1Gi")
    assert not same_quantity(True, "1")
    assert not same_quantity("x", "x")
    assert not same_quantity(None, "0")
