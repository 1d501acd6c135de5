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
Pure (stdlib and ``model.govalues``); held to kube-apiserver by
tests/integration/test_timestamps_differential.py.
"""

from __future__ import annotations

from kubectl_crd.model.govalues import json_kind

__all__ = ["RFC3339", "rfc3339_problem", "time_problem"]

RFC3339 = "2006-01-02T15:04:05Z07:00"

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


def rfc3339_problem(value: str) -> str | None:
    """``time.Parse(time.RFC3339, value)``'s error message, None when it parses."""
    try:
        _parse(value)
    except _Bad as bad:
        return str(bad)
    return None


def _cannot(value: str, rest: str, element: str) -> _Bad:
    return _Bad(
        f"parsing time {_time_quote(value)} as {_time_quote(RFC3339)}: cannot parse "
        f"{_time_quote(rest)} as {_time_quote(element)}"
    )


def _range(value: str, what: str) -> _Bad:
    return _Bad(f"parsing time {_time_quote(value)}: {what} out of range")


def _parse(value: str) -> None:
    rest = value
    numbers: list[int] = []
    for separator, element in _ELEMENTS:
        if separator:
            if not rest.startswith(separator):
                raise _cannot(value, rest, separator)
            rest = rest[len(separator) :]
        hold = rest
        if element == "2006":
            # four characters, the first a digit (so no sign for atoi), all of them an
            # integer: ASCII digits only (str.isdigit would take other Unicode digits)
            if len(rest) < 4 or not all("0" <= c <= "9" for c in rest[:4]):
                raise _cannot(value, hold, element)
            numbers.append(int(rest[:4]))
            rest = rest[4:]
            continue
        got = _getnum(rest, fixed=element != "15")
        if got is None:
            raise _cannot(value, hold, element)
        number, rest = got
        numbers.append(number)
        if element == "01" and not 1 <= number <= 12:
            raise _range(value, "month")
        if element == "15" and number >= 24:
            raise _range(value, "hour")
        if element == "04" and number >= 60:
            raise _range(value, "minute")
        if element == "05":
            if number >= 60:
                raise _range(value, "second")
            # a fraction the layout does not name: read all its digits
            if len(rest) >= 2 and rest[0] in ".," and _digit(rest, 1):
                end = 2
                while _digit(rest, end):
                    end += 1
                rest = rest[end:]
    hold = rest
    if rest.startswith("Z"):
        rest = rest[1:]
    else:
        if len(rest) < 6 or rest[3] != ":":
            raise _cannot(value, hold, "Z07:00")
        sign, hours, minutes, rest = rest[0], rest[1:3], rest[4:6], rest[6:]
        hour = _getnum(hours, fixed=True)
        minute = _getnum(minutes, fixed=True) if hour is not None else None
        if hour is not None and hour[0] > 24:
            raise _range(value, "time zone offset hour")
        if minute is not None and minute[0] > 60:
            raise _range(value, "time zone offset minute")
        if hour is None or minute is None or sign not in ("+", "-"):
            raise _cannot(value, hold, "Z07:00")
    if rest:
        raise _Bad(f"parsing time {_time_quote(value)}: extra text: {_time_quote(rest)}")
    year, month, day = numbers[0], numbers[1], numbers[2]
    days = _DAYS[month - 1]
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        days = 29
    if not 1 <= day <= days:
        raise _range(value, "day")


def time_problem(value: object) -> str | None:
    """Why ``value`` (a decoded JSON value) is no ``metav1.Time``, None when it is one:
    null, or a string ``time.Parse`` takes. A value that is not a string fails its
    ``json.Unmarshal`` into a string (the caller adds the field's context, as
    encoding/json does, where the server's message has it)."""
    if value is None:
        return None
    if isinstance(value, str):
        return rfc3339_problem(value)
    return f"json: cannot unmarshal {json_kind(value)} into Go value of type string"
