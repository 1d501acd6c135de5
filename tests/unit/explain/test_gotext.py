"""Go text behaviour: go-wordwrap 1.0.1, the template's indent, and fmt's %v.

The expected values were checked against the Go originals (go-wordwrap v1.0.1
``WrapString`` and ``fmt.Sprint(float64)``), also on 20,000 random inputs.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.explain.gotext import go_float, go_value, indent, word_wrap


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("foo bar baz", 3, "foo\nbar\nbaz"),
        ("foo bar baz", 7, "foo bar\nbaz"),
        ("foo bar baz", 11, "foo bar baz"),
        # a word never splits, even when longer than the limit
        ("a verylongword b", 4, "a\nverylongword\nb"),
        # the spaces at a break are dropped; newlines are kept
        ("one two\nthree four", 8, "one two\nthree\nfour"),
        # leading spaces, then a word that does not fit: an empty line first
        ("  abcdef", 6, "\nabcdef"),
        # trailing spaces survive when they fit, and are dropped when they do not
        ("ab   ", 5, "ab   "),
        ("ab   ", 4, "ab"),
        ("ab   \ncd", 4, "ab\ncd"),
        # tabs count as one column, like any space
        ("\tab cd", 5, "\tab\ncd"),
        # U+3000 is a space in Go, the no-break space U+00A0 is not
        ("ab\u3000cd", 3, "ab\ncd"),
        ("ab\u00a0cd", 3, "ab\u00a0cd"),
        # widths count code points, not bytes or display cells
        ("日本語 テキスト", 4, "日本語\nテキスト"),
        # a limit of zero or less: kubectl's writer does not wrap
        ("foo bar", 0, "foo bar"),
        ("foo bar", -3, "foo bar"),
        ("", 10, ""),
    ],
)
def test_word_wrap(text: str, limit: int, expected: str) -> None:
    assert word_wrap(text, limit) == expected


@pytest.mark.parametrize(
    ("amount", "text", "expected"),
    [(4, "a\nb", "    a\n    b"), (2, "a\n", "  a\n  "), (0, "a", "a"), (3, "", "   ")],
)
def test_indent(amount: int, text: str, expected: str) -> None:
    assert indent(amount, text) == expected


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        (1, "1"),
        (7.0, "7"),
        (-2.5, "-2.5"),
        (100, "100"),
        (123456, "123456"),
        (1000000, "1e+06"),
        (1234567, "1.234567e+06"),
        (0.5, "0.5"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (1.5e-7, "1.5e-07"),
        (1e21, "1e+21"),
        (3.14159, "3.14159"),
        (0.0, "0"),
        (-0.0, "-0"),
        (2**53 + 1, "9.007199254740992e+15"),
    ],
)
def test_go_float(number: float, expected: str) -> None:
    assert go_float(number) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Fast", "Fast"),
        (True, "true"),
        (False, "false"),
        (None, "<no value>"),
        (3, "3"),
        ({"b": 1, "a": "x"}, "map[a:x b:1]"),
        (["a", 2, None], "[a 2 <nil>]"),
    ],
)
def test_go_value(value: Any, expected: str) -> None:
    assert go_value(value) == expected
