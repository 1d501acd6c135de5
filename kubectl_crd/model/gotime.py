"""``metav1.Time`` as the API server decodes it: Go's ``time.Parse(time.RFC3339, s)``.

``metav1.Time.UnmarshalJSON`` (apimachinery ``pkg/apis/meta/v1/time.go``) takes JSON
null, else decodes a JSON string (anything else fails there: ``json: cannot unmarshal
number into Go value of type string``) and parses it with ``time.Parse`` and the RFC
3339 layout ``2006-01-02T15:04:05Z07:00``. Its errors are Go's ``time.ParseError``
(``time/format.go``: ``parse``, ``skip``, ``getnum``, ``parseNanoseconds``):

- ``parsing time "<value>" as "2006-01-02T15:04:05Z07:00": cannot parse "<rest>" as
  "<element>"`` where a layout element (``2006``, ``01``, ...) or the separator before
  it (``-``, ``T``, ``:``) does not match what is left of the value;
- ``parsing time "<value>": <what> out of range`` (month, hour, minute, second, the
  zone offset's hour or minute; ``day`` once the whole value is read, by the month's
  length);
- ``parsing time "<value>": extra text: "<rest>"``.

Looser than RFC 3339 where Go is: a one-digit hour, a fraction after the seconds
written with a comma, any number of its digits, a zone offset of 24 hours.

``metav1.MicroTime`` (``micro_time.go``) is the same with the layout
``2006-01-02T15:04:05.000000Z07:00``: exactly six fraction digits, read by ``atoi``
(a sign taken, a negative fraction ``out of range``), ``cannot parse "<rest>" as
".000000"`` where they are not there.

What the server stores (``stored_time``): ``MarshalJSON`` writes the instant in UTC,
``Time`` to the second (``time.RFC3339``; its protobuf form in etcd drops the fraction
too: ``time_proto.go``), ``MicroTime`` to the microsecond; the zero time (January 1 of
year 1, UTC) as null.

The one Go time parse of the package: the server's decoding (validation), a ``date``
printer column's age (``model.columns``), an exec plugin's ``expirationTimestamp``
(``kube.credentials``), the times of managedFields a write gives (the local store).
Pure (stdlib and ``model.govalues``); held to kube-apiserver by
tests/integration/test_timestamps_differential.py and
test_localstore_decoding_differential.py.
"""

from __future__ import annotations

from functools import lru_cache

from kubectl_crd.model.govalues import json_kind, unmarshal_type_error

__all__ = [
    "FULL_DATE",
    "LOCAL_TIME",
    "RFC3339",
    "RFC3339_MICRO",
    "layout_time",
    "rfc3339_problem",
    "stored_time",
    "time_problem",
    "unix_nanoseconds",
]

RFC3339 = "2006-01-02T15:04:05Z07:00"
RFC3339_MICRO = "2006-01-02T15:04:05.000000Z07:00"
#: kube-openapi strfmt's RFC3339FullDate (format ``date``) and ISO8601LocalTime (the
#: last layout ``strfmt.ParseDateTime`` tries for ``date-time``)
FULL_DATE = "2006-01-02"
LOCAL_TIME = "2006-01-02T15:04:05"

#: the layout's elements in order: (separator before it, element)
_ELEMENTS = (("", "2006"), ("-", "01"), ("-", "02"), ("T", "15"), (":", "04"), (":", "05"))
_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _time_quote(text: str) -> str:
    """``time/format.go``'s own ``quote`` (not strconv's, ``govalues.go_quote``): a byte
    of a character that is not printable ASCII as ``\\xNN``, ``"`` and ``\\`` after a
    backslash."""
    out = ['"']
    for char in text:
        if char < " " or char >= "\x80":
            out.extend(f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
        elif char in '"\\':
            out.append("\\" + char)
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


class _Bad(Exception):
    """Why the value stopped parsing: the ``time.ParseError`` message."""


def _digit(text: str, at: int) -> bool:
    return at < len(text) and "0" <= text[at] <= "9"


def _getnum(text: str, fixed: bool) -> tuple[int, str] | None:
    """``getnum``: one or two digits (two when ``fixed``), None when they are not."""
    if not _digit(text, 0):
        return None
    if not _digit(text, 1):
        return None if fixed else (int(text[0]), text[1:])
    return int(text[:2]), text[2:]


def rfc3339_problem(value: str, *, micro: bool = False) -> str | None:
    """``time.Parse(time.RFC3339, value)``'s error message (``RFC3339_MICRO``'s with
    ``micro``), None when it parses."""
    try:
        _parse(value, RFC3339_MICRO if micro else RFC3339)
    except _Bad as bad:
        return str(bad)
    return None


@lru_cache(maxsize=1024)  # an object's conditions share their times
def layout_time(value: str, layout: str) -> tuple[int | None, str | None]:
    """``time.Parse(layout, value)`` for ``RFC3339``, ``FULL_DATE`` or ``LOCAL_TIME``:
    the instant in Unix nanoseconds (a layout without a zone reads UTC) and None, or
    None and Go's error message."""
    try:
        parsed = _parse(value, layout)
    except _Bad as bad:
        return None, str(bad)
    return _unix(parsed) * 1_000_000_000 + parsed[6], None


def _cannot(value: str, rest: str, element: str, layout: str) -> _Bad:
    return _Bad(
        f"parsing time {_time_quote(value)} as {_time_quote(layout)}: cannot parse "
        f"{_time_quote(rest)} as {_time_quote(element)}"
    )


def _range(value: str, what: str) -> _Bad:
    return _Bad(f"parsing time {_time_quote(value)}: {what} out of range")


#: a parsed time: year, month, day, hour, minute, second, nanoseconds, zone offset (s)
Parsed = tuple[int, int, int, int, int, int, int, int]


def _parse(value: str, layout: str = RFC3339) -> Parsed:
    """``time.Parse(layout, value)`` for the layouts of this module: a layout is its
    elements up to ``02`` (``FULL_DATE``) or ``05``, then a zone or not."""
    micro = layout == RFC3339_MICRO
    rest = value
    numbers: list[int] = [0, 0, 0, 0, 0, 0]
    nanos = 0
    for index, (separator, element) in enumerate(
        _ELEMENTS[:3] if layout == FULL_DATE else _ELEMENTS
    ):
        if separator:
            if not rest.startswith(separator):
                raise _cannot(value, rest, separator, layout)
            rest = rest[len(separator) :]
        hold = rest
        if element == "2006":
            # four characters, the first a digit (so no sign for atoi), all of them an
            # integer: ASCII digits only (str.isdigit would take other Unicode digits)
            if len(rest) < 4 or not all("0" <= c <= "9" for c in rest[:4]):
                raise _cannot(value, hold, element, layout)
            numbers[index] = int(rest[:4])
            rest = rest[4:]
            continue
        got = _getnum(rest, fixed=element != "15")
        if got is None:
            raise _cannot(value, hold, element, layout)
        number, rest = got
        numbers[index] = number
        if element == "01" and not 1 <= number <= 12:
            raise _range(value, "month")
        if element == "15" and number >= 24:
            raise _range(value, "hour")
        if element == "04" and number >= 60:
            raise _range(value, "minute")
        if element == "05":
            if number >= 60:
                raise _range(value, "second")
            if micro:
                # stdFracSecond0: exactly six digits after "." or ",", read by atoi
                hold = rest
                if len(rest) < 7 or rest[0] not in ".,":
                    raise _cannot(value, hold, ".000000", layout)
                digits = rest[1:7]
                body = digits[1:] if digits[0] in "+-" else digits
                if not body or not all("0" <= c <= "9" for c in body):
                    raise _cannot(value, hold, ".000000", layout)
                nanos = int(body) * 1000
                rest = rest[7:]
                if digits[0] == "-" and nanos:
                    raise _range(value, "fractional second")
            elif len(rest) >= 2 and rest[0] in ".," and _digit(rest, 1):
                # a fraction the layout does not name: read all its digits (nine count)
                end = 2
                while _digit(rest, end):
                    end += 1
                nanos = int(rest[1:end][:9].ljust(9, "0"))
                rest = rest[end:]
    hold = rest
    offset = 0
    if layout in (FULL_DATE, LOCAL_TIME):
        pass  # no zone: the time is UTC's
    elif rest.startswith("Z"):
        rest = rest[1:]
    else:
        if len(rest) < 6 or rest[3] != ":":
            raise _cannot(value, hold, "Z07:00", layout)
        sign, hours, minutes, rest = rest[0], rest[1:3], rest[4:6], rest[6:]
        hour = _getnum(hours, fixed=True)
        minute = _getnum(minutes, fixed=True) if hour is not None else None
        if hour is not None and hour[0] > 24:
            raise _range(value, "time zone offset hour")
        if minute is not None and minute[0] > 60:
            raise _range(value, "time zone offset minute")
        if hour is None or minute is None or sign not in ("+", "-"):
            raise _cannot(value, hold, "Z07:00", layout)
        offset = (hour[0] * 60 + minute[0]) * 60 * (-1 if sign == "-" else 1)
    if rest:
        raise _Bad(f"parsing time {_time_quote(value)}: extra text: {_time_quote(rest)}")
    year, month, day = numbers[0], numbers[1], numbers[2]
    days = _DAYS[month - 1]
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        days = 29
    if not 1 <= day <= days:
        raise _range(value, "day")
    return (year, month, day, numbers[3], numbers[4], numbers[5], nanos, offset)


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (any year, Go's too: 0000)."""
    year -= month <= 2
    era = year // 400  # floor division: Hinnant's days_from_civil, negative years too
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    days += 719468
    era = days // 146097
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (month <= 2), month, day


#: Go's zero time (January 1, year 1, 00:00:00 UTC) in Unix seconds
_ZERO_UNIX = _days_from_civil(1, 1, 1) * 86400


def _unix(parsed: Parsed) -> int:
    """The parsed time's instant in whole Unix seconds (its nanoseconds apart)."""
    year, month, day, hour, minute, second, _, offset = parsed
    days = _days_from_civil(year, month, day)
    return days * 86400 + hour * 3600 + minute * 60 + second - offset


@lru_cache(maxsize=1024)  # objects made together share their timestamps
def unix_nanoseconds(value: str) -> int | None:
    """``time.Parse(time.RFC3339, value)``'s instant in Unix nanoseconds, None when Go
    refuses the value (``rfc3339_problem`` says why)."""
    try:
        parsed = _parse(value)
    except _Bad:
        return None
    return _unix(parsed) * 1_000_000_000 + parsed[6]


def stored_time(value: str, *, micro: bool = False) -> str | None:
    """What the server stores and returns for a ``metav1.Time`` (``MicroTime`` with
    ``micro``) decoded from ``value`` (which must parse): the instant in UTC to the
    second (microsecond), or None (JSON null) for the zero time."""
    parsed = _parse(value, RFC3339_MICRO if micro else RFC3339)
    unix, nanos = _unix(parsed), parsed[6]
    micros = nanos // 1000 if micro else 0
    if micros == 0 and unix == _ZERO_UNIX:
        return None
    days, seconds = divmod(unix, 86400)
    year, month, day = _civil_from_days(days)
    shown = f"{'-' if year < 0 else ''}{abs(year):04d}-{month:02d}-{day:02d}T"
    shown += f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return shown + (f".{micros:06d}Z" if micro else "Z")


def time_problem(value: object, *, micro: bool = False) -> str | None:
    """Why ``value`` (a decoded JSON value) is no ``metav1.Time`` (``MicroTime`` with
    ``micro``), None when it is one: null, or a string ``time.Parse`` takes. A value
    that is not a string fails its ``json.Unmarshal`` into a string (the caller adds
    the field's context, as encoding/json does, where the server's message has it)."""
    if value is None:
        return None
    if isinstance(value, str):
        return rfc3339_problem(value, micro=micro)
    return unmarshal_type_error(json_kind(value), "string")
