"""Go's ``time.ParseDuration``, once, for every place Kubernetes reads a duration, and
``Duration.String`` (``go_duration_text``) where one is written.

Pure: stdlib only. Used by ``--request-timeout`` (kubectl's ``ParseTimeout`` in
``k8s.io/client-go/tools/clientcmd/client_config.go``: a bare non-negative integer means
seconds, anything else is a Go duration) and by CEL's ``duration()``. It mirrors
``src/time/format.go``: an optional sign, then one or more ``[0-9]*(\\.[0-9]*)?unit``
parts where at least one digit is on either side of the dot (``.5s`` and ``5.s`` are
valid, ``.s`` is not), units ``ns us µs μs ms s m h``, a lone ``0`` needs no unit, and
the total must fit in an int64 of nanoseconds. The result is integer nanoseconds, as
Go's ``Duration``; the error texts are Go's.
"""

from __future__ import annotations

import re

from kubectl_crd.model.gostrconv import go_bytes

NANOSECONDS_PER_SECOND = 1_000_000_000

_UNIT_NANOSECONDS = {
    "ns": 1,
    "us": 1_000,
    "\u00b5s": 1_000,  # U+00B5 micro sign
    "\u03bcs": 1_000,  # U+03BC Greek small letter mu
    "ms": 1_000_000,
    "s": NANOSECONDS_PER_SECOND,
    "m": 60 * NANOSECONDS_PER_SECOND,
    "h": 3600 * NANOSECONDS_PER_SECOND,
}
_INT64_MAX = (1 << 63) - 1


class DurationSyntaxError(ValueError):
    """Go's ``time: invalid duration "..."`` and its siblings."""


def _time_quote(text: str) -> str:
    """The time package's own ``quote`` (``src/time/format.go``), not ``strconv.Quote``
    (``model.gostrconv.go_quote``): every byte of a rune below space or past ASCII as
    ``\\xNN`` (``é`` is ``\\xc3\\xa9``, a tab ``\\x09``), ``"`` and ``\\`` backslashed.
    An argument's byte that is not UTF-8 is that byte, as in Go (``go_bytes``)."""
    out = ['"']
    for char in text:
        if " " <= char < "\x80":
            out.append("\\" + char if char in '"\\' else char)
            continue
        out.extend(f"\\x{byte:02x}" for byte in go_bytes(char))
    out.append('"')
    return "".join(out)


def _leading_digits(text: str, position: int) -> int:
    end = position
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return end


def parse_go_duration(text: str) -> int:
    """``text`` read as Go's ``time.ParseDuration`` reads it, in nanoseconds."""
    invalid = DurationSyntaxError(f"time: invalid duration {_time_quote(text)}")
    negative = False
    rest = text
    if rest[:1] in ("-", "+"):
        negative = rest[0] == "-"
        rest = rest[1:]
    if rest == "0":
        return 0
    if not rest:
        raise invalid
    total = 0
    position = 0
    while position < len(rest):
        if not (rest[position] == "." or "0" <= rest[position] <= "9"):
            raise invalid
        end = _leading_digits(rest, position)
        whole_digits = rest[position:end]
        if whole_digits and int(whole_digits) > _INT64_MAX + 1:
            raise invalid  # Go's leadingInt: "bad [0-9]*"
        whole = int(whole_digits) if whole_digits else 0
        position = end
        fraction, scale, fraction_digits = 0, 1, ""
        if position < len(rest) and rest[position] == ".":
            end = _leading_digits(rest, position + 1)
            fraction_digits = rest[position + 1 : end]
            position = end
            # Go's leadingFraction keeps digits only while they fit in an int64.
            for digit in fraction_digits:
                if fraction > _INT64_MAX // 10:
                    break
                candidate = fraction * 10 + int(digit)
                if candidate > 1 << 63:
                    break
                fraction, scale = candidate, scale * 10
        if not whole_digits and not fraction_digits:
            raise invalid
        unit_end = position
        while unit_end < len(rest) and not (rest[unit_end] == "." or "0" <= rest[unit_end] <= "9"):
            unit_end += 1
        if unit_end == position:
            raise DurationSyntaxError(f"time: missing unit in duration {_time_quote(text)}")
        unit = rest[position:unit_end]
        position = unit_end
        unit_ns = _UNIT_NANOSECONDS.get(unit)
        if unit_ns is None:
            raise DurationSyntaxError(
                f"time: unknown unit {_time_quote(unit)} in duration {_time_quote(text)}"
            )
        if whole > (1 << 63) // unit_ns:
            raise invalid
        value = whole * unit_ns
        if fraction:
            # float64 arithmetic, as Go: uint64(float64(f) * (float64(unit) / scale))
            value += int(float(fraction) * (float(unit_ns) / float(scale)))
            if value > 1 << 63:
                raise invalid
        total += value
        if total > 1 << 63:
            raise invalid
    if negative:
        return -total
    if total > _INT64_MAX:
        raise invalid
    return total


#: kube-openapi ``pkg/validation/strfmt/duration.go``: each unit's spellings (the last
#: one also as a prefix: "mins", "hours"), and its length in nanoseconds
_STRFMT_UNITS = (
    (("ns", "nano"), 1),
    (("us", "µs", "micro"), 1_000),
    (("ms", "milli"), 1_000_000),
    (("s", "sec"), 1_000_000_000),
    (("m", "min"), 60_000_000_000),
    (("h", "hr", "hour"), 3_600_000_000_000),
    (("d", "day"), 86_400_000_000_000),
    (("w", "wk", "week"), 604_800_000_000_000),
)
_STRFMT_PART = re.compile(r"((\d+)\s*([A-Za-zµ]+))")


def parse_strfmt_duration(text: str) -> int:
    """``text`` read as kube-openapi's ``strfmt.ParseDuration`` reads a ``format:
    duration`` string (the format's check, and the CEL value such a field holds:
    apiserver ``pkg/cel/common/values.go``), in nanoseconds: Go's ``time.ParseDuration``
    first, else every "<digits> <unit>" found anywhere in the text summed ("5 min",
    "200 ms", "1s-x"), in int64 arithmetic that wraps as Go's does.
    ``DurationSyntaxError`` with its message when nothing is found."""
    try:
        return parse_go_duration(text)
    except DurationSyntaxError:
        pass
    total, found = 0, False
    for match in _STRFMT_PART.finditer(text):
        factor = int(match[2])
        if factor > _INT64_MAX:
            raise DurationSyntaxError(f'strconv.Atoi: parsing "{match[2]}": value out of range')
        unit = match[3].strip().lower()
        for variants, multiplier in _STRFMT_UNITS:
            last = len(variants) - 1
            for index, variant in enumerate(variants):
                if (index == last and unit.startswith(variant)) or variant == unit:
                    found = True
                    total = _wrapped(total + factor * multiplier)
    if not found:
        raise DurationSyntaxError(f"unable to parse {text} as duration")
    return total


def _wrapped(value: int) -> int:
    """``value`` as a Go int64 holds it (two's complement overflow)."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def parse_request_timeout(value: str | None) -> float | None:
    """kubectl's ``--request-timeout`` in seconds; ``None`` for none (empty or zero).

    ``clientcmd.ParseTimeout``: a non-negative integer is seconds, else a Go duration.
    """
    if value is None or value == "":
        return None
    digits = value[1:] if value[:1] in ("+", "-") else value
    if digits.isascii() and digits.isdigit() and int(value) >= 0:  # Go's strconv.ParseInt
        return float(int(value)) or None
    try:
        nanoseconds = parse_go_duration(value)
    except DurationSyntaxError:
        nanoseconds = -1
    if nanoseconds < 0:  # Go would take it; a negative timeout is refused, as we always have
        from kubectl_crd.model.errors import UsageError

        raise UsageError(
            "invalid timeout value. Timeout must be a single integer in seconds, "
            f"or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h): {value}"
        )
    return nanoseconds / NANOSECONDS_PER_SECOND or None


def go_duration_text(nanoseconds: int) -> str:
    """``time.Duration.String()`` (``src/time/time.go``): ``1m30s``, ``2m0s``, ``1.5s``,
    ``500ms``, ``1h0m0s``, ``0s``; what client-go writes ``?timeout=`` with
    (``rest/request.go`` ``URL``)."""
    if nanoseconds < 0:
        return "-" + go_duration_text(-nanoseconds)

    def decimal(value: int, unit: int, digits: int) -> str:
        whole, part = divmod(value, unit)
        fraction = str(part).rjust(digits, "0").rstrip("0")
        return f"{whole}.{fraction}" if fraction else str(whole)

    if nanoseconds == 0:
        return "0s"
    if nanoseconds < 1000:
        return f"{nanoseconds}ns"
    if nanoseconds < 1_000_000:
        return decimal(nanoseconds, 1000, 3) + "\u00b5s"
    if nanoseconds < NANOSECONDS_PER_SECOND:
        return decimal(nanoseconds, 1_000_000, 6) + "ms"
    hours, rest = divmod(nanoseconds, 3600 * NANOSECONDS_PER_SECOND)
    minutes, rest = divmod(rest, 60 * NANOSECONDS_PER_SECOND)
    text = decimal(rest, NANOSECONDS_PER_SECOND, 9) + "s"
    if hours:
        return f"{hours}h{minutes}m{text}"
    return f"{minutes}m{text}" if minutes else text


def _truncated(numerator: int, denominator: int) -> int:
    """Go's integer division: toward zero."""
    quotient = abs(numerator) // denominator
    return quotient if numerator >= 0 else -quotient


def human_duration(nanoseconds: int) -> str:
    """``k8s.io/apimachinery/pkg/util/duration.HumanDuration``: the AGE of kubectl.

    Up to two seconds in the future (clock skew) reads ``0s``; more is ``<invalid>``.
    Precision drops as the age grows: ``119s``, ``3m5s``, ``179m``, ``7h59m``, ``47h``,
    ``2d3h``, ``729d``, ``5y100d``, ``9y``.
    """
    seconds = _truncated(nanoseconds, NANOSECONDS_PER_SECOND)
    if seconds < -1:
        return "<invalid>"
    if seconds < 0:
        return "0s"
    if seconds < 120:
        return f"{seconds}s"
    minutes = seconds // 60
    if minutes < 10:
        rest = seconds % 60
        return f"{minutes}m" if rest == 0 else f"{minutes}m{rest}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = minutes // 60
    if hours < 8:
        rest = minutes % 60
        return f"{hours}h" if rest == 0 else f"{hours}h{rest}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        rest = hours % 24
        return f"{hours // 24}d" if rest == 0 else f"{hours // 24}d{rest}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        days = (hours // 24) % 365
        years = hours // 24 // 365
        return f"{years}y" if days == 0 else f"{years}y{days}d"
    return f"{hours // 24 // 365}y"
