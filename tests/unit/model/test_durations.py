"""Go duration parsing, checked against the table of Go's own ``src/time/time_test.go``
(``parseDurationTests`` and ``parseDurationErrorTests``), and kubectl's ``ParseTimeout``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubectl_crd.model.durations import (
    DurationSyntaxError,
    go_duration_text,
    parse_go_duration,
    parse_request_timeout,
)
from kubectl_crd.model.errors import UsageError

NS, US, MS, S = 1, 1_000, 1_000_000, 1_000_000_000
M, H = 60 * S, 3600 * S

GO_VALID = [
    ("0", 0),
    ("5s", 5 * S),
    ("30s", 30 * S),
    ("1478s", 1478 * S),
    ("-5s", -5 * S),
    ("+5s", 5 * S),
    ("-0", 0),
    ("+0", 0),
    ("5.0s", 5 * S),
    ("5.6s", 5 * S + 600 * MS),
    ("5.s", 5 * S),
    (".5s", 500 * MS),
    ("1.0s", 1 * S),
    ("1.00s", 1 * S),
    ("1.004s", 1 * S + 4 * MS),
    ("1.0040s", 1 * S + 4 * MS),
    ("100.00100s", 100 * S + 1 * MS),
    ("10ns", 10 * NS),
    ("11us", 11 * US),
    ("12\u00b5s", 12 * US),
    ("12\u03bcs", 12 * US),
    ("13ms", 13 * MS),
    ("14s", 14 * S),
    ("15m", 15 * M),
    ("16h", 16 * H),
    ("3h30m", 3 * H + 30 * M),
    ("10.5s4m", 4 * M + 10 * S + 500 * MS),
    ("-2m3.4s", -(2 * M + 3 * S + 400 * MS)),
    ("1h2m3s4ms5us6ns", 1 * H + 2 * M + 3 * S + 4 * MS + 5 * US + 6 * NS),
    ("39h9m14.425s", 39 * H + 9 * M + 14 * S + 425 * MS),
    ("52763797000ns", 52763797000 * NS),
    ("0.3333333333333333333h", 20 * M),
    ("9007199254740993ns", (1 << 53) + 1),
    ("9223372036854775807ns", (1 << 63) - 1),
    ("9223372036854775.807us", (1 << 63) - 1),
    ("9223372036s854ms775us807ns", (1 << 63) - 1),
    ("-9223372036854775808ns", -(1 << 63)),
    ("-9223372036854775.808us", -(1 << 63)),
    ("-9223372036s854ms775us808ns", -(1 << 63)),
    ("-2562047h47m16.854775808s", -(1 << 63)),
    ("0.100000000000000000000h", 6 * M),
    ("0.830103483285477580700h", 49 * M + 48 * S + 372539827 * NS),
]

GO_INVALID = [
    "",
    "3",
    "-",
    "s",
    ".",
    "-.",
    ".s",
    "+.s",
    "1d",
    "\x85\x85",
    "\ufffd",
    "9223372036854775810ns",
    "9223372036854775808ns",
    "-9223372036854775809ns",
    "9223372036854776us",
    "3000000h",
    "9223372036854775.808us",
    "9223372036854ms775us808ns",
]


@pytest.mark.parametrize(("text", "nanoseconds"), GO_VALID)
def test_go_parses_these(text: str, nanoseconds: int) -> None:
    assert parse_go_duration(text) == nanoseconds


@pytest.mark.parametrize("text", GO_INVALID)
def test_go_refuses_these(text: str) -> None:
    with pytest.raises(DurationSyntaxError, match=r"^time: "):
        parse_go_duration(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3", 'time: missing unit in duration "3"'),
        ("1d", 'time: unknown unit "d" in duration "1d"'),
        (".s", 'time: invalid duration ".s"'),
        # the time package's quote, not strconv's: src/time/format_test.go's
        # parseDurationErrorTests (Go's raw bytes are argv's surrogateescape here), and
        # kubectl 1.33's 'wait --timeout' for the last two
        ("\udc85\udc85", 'time: invalid duration "\\x85\\x85"'),
        ("hello \udcffff world", 'time: invalid duration "hello \\xffff world"'),
        ("\ufffd hello \ufffd", 'time: invalid duration "\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd"'),
        ("\u00e91", 'time: invalid duration "\\xc3\\xa91"'),
        ('a\tb"\\', 'time: invalid duration "a\\x09b\\"\\\\"'),
    ],
)
def test_go_error_texts(text: str, message: str) -> None:
    with pytest.raises(DurationSyntaxError) as caught:
        parse_go_duration(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        (None, None),
        ("", None),
        ("0", None),
        ("5", 5.0),
        ("+5", 5.0),
        ("1s", 1.0),
        (".5s", 0.5),
        ("2m", 120.0),
        ("1h30m", 5400.0),
        ("250ms", 0.25),
    ],
)
def test_request_timeout_as_kubectl_parses_it(text: str | None, seconds: float | None) -> None:
    assert parse_request_timeout(text) == seconds


@pytest.mark.parametrize("text", ["abc", "5x", "-1s", "-5", "1s2"])
def test_bad_request_timeout_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="invalid timeout value"):
        parse_request_timeout(text)


@pytest.mark.parametrize(
    ("nanoseconds", "text"),
    [
        (0, "0s"),
        (1, "1ns"),
        (1_500, "1.5\u00b5s"),
        (500_000_000, "500ms"),
        (1_500_000_000, "1.5s"),
        (32_000_000_000, "32s"),
        (90_000_000_000, "1m30s"),
        (120_000_000_000, "2m0s"),
        (3_600_000_000_000, "1h0m0s"),
        (-1_500_000_000, "-1.5s"),
    ],
)
def test_duration_string_as_go_writes_it(nanoseconds: int, text: str) -> None:
    """``time.Duration.String()`` (values from Go's time_test.go durationTests)."""
    assert go_duration_text(nanoseconds) == text


@given(st.integers(min_value=-(2**63) + 1, max_value=2**63 - 1))
def test_a_written_duration_parses_back_to_itself(nanoseconds: int) -> None:
    assert parse_go_duration(go_duration_text(nanoseconds)) == nanoseconds
