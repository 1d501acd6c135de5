"""Go's text behaviour that kubectl explain's output depends on, reimplemented in Python.

kubectl renders explain with a Go ``text/template`` (``kubectl pkg/explain/v2``). To
match it byte for byte we need three Go behaviours:

- ``word_wrap``: ``github.com/mitchellh/go-wordwrap`` v1.0.1 ``WrapString``, which
  kubectl's ``wrap`` template function uses (through ``pkg/util/term``'s word-wrap
  writer). It breaks only at white space, never splits a word, keeps existing
  newlines, drops the spaces at a break, and can leave an empty line when a line
  starts with spaces followed by a word that does not fit. Widths count code points.
- ``indent``: the template's ``indent``: a pad before the text and after every ``\\n``.
- ``go_value``: how the template prints a JSON value decoded by Go (``%v``):
  numbers are float64 (``1e+06``, ``0.5``), ``true``/``false``, maps as
  ``map[k:v]`` with sorted keys, lists as ``[a b]``, and null as ``<no value>`` at the
  top level (text/template) or ``<nil>`` inside a container (fmt).

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Mapping

from kubectl_crd.model.gostrconv import GO_SPACES

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

# Go's unicode.IsSpace, minus U+00A0 (go-wordwrap treats the no-break space as a letter).
_GO_SPACES = GO_SPACES - {"\xa0"}


def word_wrap(text: str, limit: int) -> str:
    """Wrap ``text`` at ``limit`` columns exactly as go-wordwrap 1.0.1 does.

    ``column`` counts what is already written on the current output line; a word and
    the spaces before it stay pending until the next space or newline shows where
    the word ends. A word that would cross the limit starts a new line (and the
    pending spaces are dropped) unless the word alone is at least ``limit`` long.
    """
    if limit <= 0:
        return text
    out: list[str] = []
    column = 0
    word: list[str] = []
    spaces: list[str] = []
    for char in text:
        if char == "\n":
            if word:
                out.extend(spaces)
                out.extend(word)
            elif column + len(spaces) <= limit:
                out.extend(spaces)
            word.clear()
            spaces.clear()
            out.append("\n")
            column = 0
        elif char in _GO_SPACES:
            if word or not spaces:
                column += len(spaces) + len(word)
                out.extend(spaces)
                out.extend(word)
                spaces.clear()
                word.clear()
            spaces.append(char)
        else:
            word.append(char)
            if column + len(word) + len(spaces) > limit and len(word) < limit:
                out.append("\n")
                column = 0
                spaces.clear()
    if word:
        out.extend(spaces)
        out.extend(word)
    elif column + len(spaces) <= limit:
        out.extend(spaces)
    return "".join(out)


def indent(amount: int, text: str) -> str:
    """The template's ``indent``: ``amount`` spaces before the text and after each newline."""
    pad = " " * amount
    return pad + text.replace("\n", "\n" + pad)


def go_value(value: Any) -> str:
    """A decoded JSON value as ``{{ $value }}`` prints it in a Go text/template."""
    if value is None:
        return "<no value>"
    return _fmt_v(value)


def _fmt_v(value: Any) -> str:
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return go_float(float(value))
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        items = " ".join(f"{key}:{_fmt_v(value[key])}" for key in sorted(value, key=str))
        return f"map[{items}]"
    if isinstance(value, list | tuple):
        return "[" + " ".join(_fmt_v(item) for item in value) + "]"
    return str(value)


def go_float(number: float) -> str:
    """``fmt.Sprint(float64)``: ``strconv.FormatFloat(f, 'g', -1, 64)``.

    The shortest digits that round-trip (Python's ``repr`` finds the same ones), in
    exponent form when the decimal exponent is below -4 or at least 6 (Go uses 6 as
    the precision for that decision when printing the shortest form): ``1e+06``,
    ``123456``, ``1.5e-05``.
    """
    number = float(number)  # JSON numbers are float64 in Go, integers included
    if number != number:
        return "NaN"
    if number in (float("inf"), float("-inf")):
        return "+Inf" if number > 0 else "-Inf"
    # repr() gives the shortest round-trip digits: "1e-05", "123456.0", "1.5e+16"
    text = repr(number)
    sign = text.startswith("-")
    mantissa, _, exponent_text = text.lstrip("-").partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # value = 0.<digits> * 10**point
    point = len(whole) + int(exponent_text or 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0")
    if not digits:
        return "-0" if sign else "0"
    exp10 = point - 1
    minus = "-" if sign else ""
    if exp10 < -4 or exp10 >= 6:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        exp_sign = "-" if exp10 < 0 else "+"
        return f"{minus}{mantissa}e{exp_sign}{abs(exp10):02d}"
    if point <= 0:
        return f"{minus}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return minus + digits + "0" * (point - len(digits))
    return f"{minus}{digits[:point]}.{digits[point:]}"
