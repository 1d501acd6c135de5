"""Go's ``strconv`` as kubectl's messages and flags use it; each function defined once.

- ``go_quote``: ``strconv.Quote`` (``src/strconv/quote.go``), which ``%q`` of a string
  prints: the values in pflag's and field.Error's messages, a printer column's path;
  with ``ascii=True``, ``strconv.QuoteToASCII`` (``%+q``); ``go_can_backquote``:
  ``strconv.CanBackquote`` (``%#q``); ``go_is_print``: ``strconv.IsPrint``, over Go
  1.24's Unicode 15.0 whatever Python's ``unicodedata`` is.
- A Go string is any bytes; Python holds it as text the way ``surrogateescape`` reads
  bytes: UTF-8 decoded, every byte that is not UTF-8 as U+DC80+byte (what an argument
  or a file read with ``surrogateescape`` already is). ``go_bytes`` gives the bytes of
  such text (the time package's own quote, ``model.durations``, escapes them too),
  ``go_text`` the text of bytes (``model.gotemplate``'s ``slice``, ``index`` and
  ``base64decode`` cut and make Go strings by the byte). ``write_go_text`` writes such
  text to a stream as Go writes the string (kubectl's stderr carries a template's raw
  bytes in its error message).
- ``GO_SPACES``: ``unicode.IsSpace``'s runes (``utilyaml.IsJSONBuffer`` skips them,
  go-wordwrap breaks at them).
- ``parse_go_bool``: ``strconv.ParseBool`` (``src/strconv/atob.go``): ``cli.options``
  reads a switch given ``=VALUE`` with it (pflag's bool flags,
  ``github.com/spf13/pflag/bool.go``), ``model.scaleflags`` the old boolean spelling of
  ``--dry-run`` (``GetDryRunStrategy``).
- ``parse_go_int``: ``strconv.ParseInt(s, 0, bits)`` (``src/strconv/atoi.go``), which
  pflag's integer flags read (``IntVar``, ``Int64Var``, ``Int32Var``): ``cli.options``'
  counts (``--chunk-size``, ``--max-depth``), ``model.scaleflags``' replica counts;
  ``parse_go_float``: ``strconv.ParseFloat(s, 64)``. ``model.gotemplate`` reads a
  template's numbers with both, as ``text/template/parse``'s ``newNumber`` does.

Pure, and imports nothing: ``cli.options`` loads it on every click-parsed command line.
(``model.govalues``, which re-exports ``go_quote``, imports ``json``: start-up needs none.)
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy reads it as typing's, without importing typing at start-up
if TYPE_CHECKING:
    from typing import TextIO

#: Go's ``unicode.IsSpace``: the Latin-1 spaces (NEL and the no-break space among them)
#: and the other White_Space runes
GO_SPACES = frozenset(
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

_QUOTE_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def write_go_text(stream: TextIO, text: str) -> None:
    """Write ``text`` to ``stream`` as Go writes the string it holds: its bytes
    (``go_bytes``: UTF-8 whatever the locale, and a byte that is not UTF-8, kept by
    ``surrogateescape``, as it is) to the stream's binary buffer, after what the stream
    holds; ASCII, or a stream with no buffer beneath it (a ``StringIO``), as text."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None or text.isascii():
        stream.write(text)
        return
    stream.flush()  # what was written as text goes first
    buffer.write(go_bytes(text))


def go_bytes(text: str) -> bytes:
    """The bytes of ``text`` as a Go string: its UTF-8; a lone surrogate, which no UTF-8
    holds, is what the text was before Python decoded it: the byte an argument's
    ``surrogateescape`` kept (U+DC80-U+DCFF), else the three bytes of the surrogate."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate below U+DC80: its bytes, as Go would hold them
        return b"".join(
            char.encode("utf-8", "surrogateescape" if char >= "\udc80" else "surrogatepass")
            for char in text
        )


def go_text(data: bytes) -> str:
    """The Go string ``data`` as text (``go_bytes`` reverses it): UTF-8 decoded, each
    byte of a sequence that is not UTF-8 on its own (U+DC80+byte), as Go's ``range``
    reads such a byte as one ``RuneError`` of width 1."""
    return data.decode("utf-8", "surrogateescape")


#: The printable runes Unicode 15.0 added (4,482 in these ranges), which Go 1.24's
#: ``unicode`` tables hold (kubectl 1.33 is built with it) and Python 3.11's ``unicodedata``
#: (Unicode 14.0) does not. Measured: kubectl's ``%q`` of every rune from U+0080 on
#: escapes exactly what ``go_is_print`` refuses (tests/integration/test_gostrconv_differential.py).
_UNICODE_15_0_PRINTABLE = (
    ("\u0cf3", "\u0cf3"),
    ("\u0ece", "\u0ece"),
    ("\U00010efd", "\U00010eff"),
    ("\U0001123f", "\U00011241"),
    ("\U00011b00", "\U00011b09"),
    ("\U00011f00", "\U00011f10"),
    ("\U00011f12", "\U00011f3a"),
    ("\U00011f3e", "\U00011f59"),
    ("\U0001342f", "\U0001342f"),
    ("\U00013440", "\U00013455"),
    ("\U0001b132", "\U0001b132"),
    ("\U0001b155", "\U0001b155"),
    ("\U0001d2c0", "\U0001d2d3"),
    ("\U0001df25", "\U0001df2a"),
    ("\U0001e030", "\U0001e06d"),
    ("\U0001e08f", "\U0001e08f"),
    ("\U0001e4d0", "\U0001e4f9"),
    ("\U0001f6dc", "\U0001f6dc"),
    ("\U0001f774", "\U0001f776"),
    ("\U0001f77b", "\U0001f77f"),
    ("\U0001f7d9", "\U0001f7d9"),
    ("\U0001fa75", "\U0001fa77"),
    ("\U0001fa87", "\U0001fa88"),
    ("\U0001faad", "\U0001faaf"),
    ("\U0001fabb", "\U0001fabd"),
    ("\U0001fabf", "\U0001fabf"),
    ("\U0001face", "\U0001facf"),
    ("\U0001fada", "\U0001fadb"),
    ("\U0001fae8", "\U0001fae8"),
    ("\U0001faf7", "\U0001faf8"),
    ("\U0002b739", "\U0002b739"),
    ("\U00031350", "\U000323af"),
)
#: What Unicode 15.1 added (CJK Extension I, four ideographic description characters and
#: U+31EF), printable to a Python on Unicode 15.1 (3.13) and not yet to Go 1.24
_UNICODE_15_1 = (("\u2ffc", "\u2fff"), ("\u31ef", "\u31ef"), ("\U0002ebf0", "\U0002ee5d"))


def go_is_print(char: str) -> bool:
    """``strconv.IsPrint`` (= ``unicode.IsPrint``) of one rune, as kubectl 1.33's Go
    (Unicode 15.0) answers it: letters, marks, numbers, punctuation, symbols and the ASCII
    space. Python's ``isprintable`` is the same rule over its own Unicode version."""
    if char.isprintable():
        return char < "\u2ffc" or not any(low <= char <= high for low, high in _UNICODE_15_1)
    if char > "\U000323af":  # beyond the last range: most of the runes that are not printable
        return False
    for low, high in _UNICODE_15_0_PRINTABLE:  # in order: stop at the first range past it
        if char < low:
            return False
        if char <= high:
            return True
    return False


def go_quote(text: str, *, ascii: bool = False) -> str:
    """``strconv.Quote``, or with ``ascii`` ``strconv.QuoteToASCII``: printable runes kept
    (only ASCII ones with ``ascii``), the rest escaped the way Go does."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'  # nothing to escape (a name, a key: the usual text), no walk
    out = ['"']
    for char in text:
        escaped = _QUOTE_ESCAPES.get(char)
        if escaped is not None:
            out.append(escaped)
        elif "\ud800" <= char <= "\udfff":
            # not UTF-8 in Go: each byte of an invalid sequence is quoted as \xNN
            out.extend(f"\\x{byte:02x}" for byte in go_bytes(char))
        elif go_is_print(char) and (not ascii or char < "\x80"):
            out.append(char)
        else:
            code = ord(char)
            if code < 0x80:
                out.append(f"\\x{code:02x}")
            elif code < 0x10000:
                out.append(f"\\u{code:04x}")
            else:
                out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def go_can_backquote(text: str) -> bool:
    """``strconv.CanBackquote``, which ``%#q`` asks before it writes a string between
    backquotes: any rune past ASCII but U+FEFF, printable or not (U+2028, U+0085, an
    unassigned one), and no byte that is not UTF-8, control character but tab, DEL or
    backquote."""
    return not any(
        (char < " " and char != "\t") or char in "`\x7f\ufeff" or "\ud800" <= char <= "\udfff"
        for char in text
    )


#: The spellings ``strconv.ParseBool`` accepts: these twelve, case and all, nothing else.
_GO_BOOLS = {
    **dict.fromkeys(("1", "t", "T", "TRUE", "true", "True"), True),
    **dict.fromkeys(("0", "f", "F", "FALSE", "false", "False"), False),
}


def parse_go_bool(text: str) -> bool:
    """``text`` as ``strconv.ParseBool`` reads it; any other spelling raises ``ValueError``
    with Go's error text (``strconv.ParseBool: parsing "x": invalid syntax``)."""
    try:
        return _GO_BOOLS[text]
    except KeyError:
        raise ValueError(f"strconv.ParseBool: parsing {go_quote(text)}: invalid syntax") from None


#: a digit's value in any base up to 36, both cases of the ASCII letters (Go's ``lower``
#: folds ASCII only: the Kelvin sign is no ``k``)
_DIGIT_VALUES = {
    char: value
    for value, char in enumerate("0123456789abcdefghijklmnopqrstuvwxyz")
    for char in {char, char.upper()}
}
_BASE_PREFIXES = {"b": 2, "B": 2, "o": 8, "O": 8, "x": 16, "X": 16}
#: ``_go_uint``'s answer for a syntax error (a value is never negative)
_SYNTAX = -1


def parse_go_int(text: str, bits: int = 64) -> int:
    """``text`` as ``strconv.ParseInt(text, 0, bits)`` reads it: a sign, then decimal,
    ``0x`` hex, ``0o``/``0b`` octal and binary or a bare leading ``0``'s octal (``010`` is
    8), underscores between digits (``1_000``), and nothing else: no space, no digit past
    ASCII. ``ValueError`` with Go's text (``strconv.ParseInt: parsing "x": invalid syntax``,
    or ``value out of range`` past a ``bits``-bit signed integer, which Go reports as soon
    as the digits read so far are past it, before any bad character after them)."""
    negative = text[:1] == "-"
    digits = text[1:] if text[:1] in ("+", "-") else text
    magnitude = _go_uint(digits, bits)
    limit = 1 << (bits - 1)
    if magnitude == _SYNTAX:
        reason = "invalid syntax"
    elif magnitude is None or magnitude > limit or (magnitude == limit and not negative):
        reason = "value out of range"
    else:
        return -magnitude if negative else magnitude
    raise ValueError(f"strconv.ParseInt: parsing {go_quote(text)}: {reason}")


def parse_go_float(text: str) -> float:
    """``text`` as ``strconv.ParseFloat(text, 64)`` reads it (``src/strconv/atof.go``):
    decimal, or ``0x`` hexadecimal with its ``p`` exponent, underscores between digits,
    ``Inf``/``Infinity``/``NaN`` in any case; ``ValueError`` with Go's text (``invalid
    syntax``, or ``value out of range`` past float64's largest, where Go gives ±Inf)."""
    sign = text[:1] if text[:1] in ("+", "-") else ""
    body = text[len(sign) :]
    special = body.lower()
    if special in ("inf", "infinity") or (special == "nan" and not sign):
        return float(sign + special)
    reason = "invalid syntax"
    # Python's float() and fromhex() take more (spaces, digits past ASCII, a bare "1p3")
    starts = body[:1]  # a digit or a point: no "nan" or "inf" past the specials above
    if (
        body.isascii()
        and (starts.isdigit() or starts == ".")
        and all(c.isalnum() or c in "._+-" for c in body)
    ):
        hexadecimal = body[:2] in ("0x", "0X")
        try:
            if not hexadecimal:
                value = float(text)
            elif "p" in special and _underscores_ok(body):
                value = float.fromhex(sign + body.replace("_", ""))
            else:
                raise ValueError
        except OverflowError:
            reason = "value out of range"
        except ValueError:
            pass
        else:
            if value not in (float("inf"), float("-inf")):
                return value
            reason = "value out of range"
    raise ValueError(f"strconv.ParseFloat: parsing {go_quote(text)}: {reason}")


def _go_uint(text: str, bits: int) -> int | None:
    """``strconv.ParseUint(text, 0, bits)``: the value, None when it is out of range, or
    ``_SYNTAX``."""
    if not text:
        return _SYNTAX
    base, body = 10, text
    if text[0] == "0":
        if len(text) >= 3 and text[1] in _BASE_PREFIXES:
            base, body = _BASE_PREFIXES[text[1]], text[2:]
        else:
            base, body = 8, text[1:]
    top = (1 << bits) - 1
    value = 0
    underscores = False
    for char in body:
        if char == "_":
            underscores = True
            continue
        digit = _DIGIT_VALUES.get(char, 36)
        if digit >= base:
            return _SYNTAX
        value = value * base + digit
        if value > top:
            return None
    if underscores and not _underscores_ok(text):
        return _SYNTAX
    return value


def _underscores_ok(text: str) -> bool:
    """Go's ``underscoreOK``: each underscore between two digits, a base prefix counting
    as one (``0x_1`` is 1; ``_1``, ``1__0`` and ``1_`` are syntax errors)."""
    last = "^"  # ^ the start, 0 a digit or base prefix, _ an underscore, ! anything else
    at = 0
    hexadecimal = False
    if len(text) >= 2 and text[0] == "0" and text[1] in _BASE_PREFIXES:
        at, last = 2, "0"
        hexadecimal = text[1] in "xX"
    for char in text[at:]:
        if "0" <= char <= "9" or (hexadecimal and char in "abcdefABCDEF"):
            last = "0"
        elif char == "_":
            if last != "0":
                return False
            last = "_"
        elif last == "_":
            return False
        else:
            last = "!"
    return last != "_"
