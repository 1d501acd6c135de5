"""``model.gostrconv``'s quoting and its Go strings held as text.

The quoting tables are Go's own (``src/strconv/quote_test.go``: ``quotetests`` with
their ``Quote`` and ``QuoteToASCII`` columns); a Go string's byte that is not UTF-8 is
written here as the text that holds it (``"abc\\xffdef"`` is ``"abc\\udcffdef"``).
``tests/integration/test_get_templates_differential.py`` prints the same through the
real kubectl's ``%q`` and ``%+q``.
"""

from __future__ import annotations

import io

import pytest

from kubectl_crd.model.gostrconv import (
    go_bytes,
    go_can_backquote,
    go_is_print,
    go_quote,
    go_text,
    parse_go_float,
    write_go_text,
)

# (input, strconv.Quote, strconv.QuoteToASCII): quote_test.go's quotetests
QUOTE_TESTS = [
    ("\a\b\f\r\n\t\v", '"\\a\\b\\f\\r\\n\\t\\v"', '"\\a\\b\\f\\r\\n\\t\\v"'),
    ("\\", '"\\\\"', '"\\\\"'),
    ("abc\udcffdef", '"abc\\xffdef"', '"abc\\xffdef"'),
    ("\u263a", '"\u263a"', '"\\u263a"'),
    ("\U0010ffff", '"\\U0010ffff"', '"\\U0010ffff"'),
    ("\x04", '"\\x04"', '"\\x04"'),
    # non-printable but graphic runes: escaped by both
    ("!\u00a0!\u2000!\u3000!", '"!\\u00a0!\\u2000!\\u3000!"', '"!\\u00a0!\\u2000!\\u3000!"'),
    ("\x7f", '"\\x7f"', '"\\x7f"'),
]


@pytest.mark.parametrize(("text", "quoted", "ascii_quoted"), QUOTE_TESTS)
def test_quote_and_quote_to_ascii_as_go(text: str, quoted: str, ascii_quoted: str) -> None:
    assert go_quote(text) == quoted
    assert go_quote(text, ascii=True) == ascii_quoted


@pytest.mark.parametrize(
    ("text", "ascii_quoted"),
    [
        ("plain", '"plain"'),  # the fast path: nothing to escape either way
        ('h\u00e9"\U0001f600', '"h\\u00e9\\"\\U0001f600"'),
        ("\ufffd", '"\\ufffd"'),  # U+FFFD itself is a printable rune, escaped past ASCII
        ("\udcc3\udca9", '"\\xc3\\xa9"'),  # two bytes that were cut apart stay bytes
    ],
)
def test_quote_to_ascii_escapes_every_rune_past_ascii(text: str, ascii_quoted: str) -> None:
    assert go_quote(text, ascii=True) == ascii_quoted


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"h\xc3\xa9llo", "h\u00e9llo"),
        (b"h\xc3", "h\udcc3"),  # a rune cut after its first byte
        (b"\xa9llo", "\udca9llo"),
        (b"\xe6\x97", "\udce6\udc97"),  # each byte of a short sequence is one rune
        (b"\xed\xa0\x80", "\udced\udca0\udc80"),  # an encoded surrogate is no UTF-8
        (b"\xff\x00", "\udcff\x00"),
    ],
)
def test_go_text_and_go_bytes_carry_any_bytes(data: bytes, text: str) -> None:
    assert go_text(data) == text
    assert go_bytes(text) == data


def test_go_bytes_of_a_surrogate_no_argument_escaped_is_its_three_bytes() -> None:
    assert go_bytes("a\ud800\udcff") == b"a\xed\xa0\x80\xff"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('at <index "\udcc3x" 5>\n', b'at <index "\xc3x" 5>\n'),  # the byte itself
        ("h\u00e9llo \u2603\n", "h\u00e9llo \u2603\n".encode()),  # UTF-8, through the text
        ("plain\n", b"plain\n"),
    ],
)
def test_write_go_text_writes_the_bytes_go_would(text: str, written: bytes) -> None:
    # through a stream whose own errors would write "\udcc3" as text (stderr's)
    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding="utf-8", errors="backslashreplace")
    stream.write("first ")  # what the stream held goes first
    write_go_text(stream, text)
    stream.flush()
    assert buffer.getvalue() == b"first " + written


def test_write_go_text_to_a_stream_of_text_keeps_the_text() -> None:
    stream = io.StringIO()
    write_go_text(stream, "a\udcc3")
    assert stream.getvalue() == "a\udcc3"


# quote_test.go's canbackquotetests (a byte that is not UTF-8 held as gostrconv holds it)
CAN_BACKQUOTE_TESTS = [
    ("`", False),
    *((chr(code), code == 9) for code in range(32)),  # control characters but tab
    ("\x7f", False),
    ("' !\"#$%&'()*+,-./:;<=>?@[\\]^_{|}~", True),
    ("0123456789", True),
    ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", True),
    ("abcdefghijklmnopqrstuvwxyz", True),
    ("\u263a", True),
    ("\udc80", False),
    ("a\udce0\udca0z", False),
    ("\ufeffabc", False),
    ("a\ufeffz", False),
]


@pytest.mark.parametrize(("text", "expected"), CAN_BACKQUOTE_TESTS)
def test_can_backquote_as_go(text: str, expected: bool) -> None:
    assert go_can_backquote(text) is expected


def test_can_backquote_takes_every_rune_past_ascii_printable_or_not() -> None:
    # kubectl 1.33's %#q backquotes these (the differential prints them live)
    assert all(go_can_backquote(text) for text in ("\u2028", "\u0378", "\u0085", "\ufffd"))


@pytest.mark.parametrize(
    ("char", "printable"),
    [
        (" ", True),
        ("\u00e9", True),
        ("\u00a0", False),  # a space but U+0020
        ("\u00ad", False),  # a format character
        ("\u0378", False),  # unassigned
        # Unicode 15.0's runes, which Go 1.24 prints (first, last and one between)
        ("\u0cf3", True),
        ("\U0001f6dc", True),
        ("\U000323af", True),
        ("\U000323b0", False),
        ("\U0001fae9", False),
        # Unicode 15.1's, which it does not yet
        ("\u2ffc", False),
        ("\u31ef", False),
        ("\U0002ebf0", False),
    ],
)
def test_is_print_answers_with_go_s_unicode(char: str, printable: bool) -> None:
    assert go_is_print(char) is printable


# strconv.ParseFloat's answers, as kubectl 1.33 read these as template numbers
# (kubectl label --local -o go-template='{{printf "%v" NUMBER}}'; a parse error for the
# refused ones); the special spellings are atof.go's
PARSE_FLOAT = [
    ("1_23.50_0_0e+1_2", 1.235e14),
    ("0x_1_2.3_4_5p+1_2", 74565.0),
    ("1.7976931348623158e308", 1.7976931348623157e308),
    ("0x1.fffffffffffff7fffp1023", 1.7976931348623157e308),
    ("0x1p-1074", 5e-324),
    ("0x1p-1075", 0.0),
    ("2.4703282292062328e-324", 5e-324),
    ("0x.8p1", 1.0),
    ("0x1.p1", 2.0),
    ("+Inf", float("inf")),
    ("-infinity", float("-inf")),
]
PARSE_FLOAT_REFUSED = [
    *("1__23.5e+12", "123_.5e+12", "123._5e+12", "123.5_e+12", "123.5__0e+12"),
    *("123.5e_+12", "123.5e+_12", "123.5e+1__2", "123.5e+12_", "0x__12.345p+12"),
    *("0x1__2.345p+12", "0x12_.345p+12", "0x12._345p+12", "0x12.3__45p+12"),
    *("0x12.345p+1__2", "0x12.345p+12_", "1e+", "0x10", "1p3", " 1", "\u0661", "-nan"),
]


@pytest.mark.parametrize(("text", "value"), PARSE_FLOAT)
def test_parse_float_as_go(text: str, value: float) -> None:
    assert parse_go_float(text) == value


@pytest.mark.parametrize("text", PARSE_FLOAT_REFUSED)
def test_parse_float_refuses_what_go_refuses(text: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_go_float(text)
    assert str(caught.value) == f"strconv.ParseFloat: parsing {go_quote(text)}: invalid syntax"


def test_parse_float_past_the_largest_is_out_of_range() -> None:
    for text in ("1.7976931348623159e308", "-1e400", "0x1p1024"):
        with pytest.raises(ValueError) as caught:
            parse_go_float(text)
        assert str(caught.value).endswith(f"parsing {go_quote(text)}: value out of range")
