"""``library/format.go`` (Kubernetes 1.31): named formats and their ``validate``.

``format.dns1123Label()`` (and the others) give a ``kubernetes.NamedFormat``, and
``format.named(name)`` an optional one;
``<format>.validate(string)`` returns an optional list of error texts (none when
valid), made by ``rewrite``.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import re
from collections.abc import Callable

from cel_expr_python import cel

from kubectl_crd.validation import names
from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.cel.library.types import make
from kubectl_crd.validation.cel.library.urls import is_url

T = cel.Type
NAMED = T("kubernetes.NamedFormat")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _prefixed(check: Callable[[str], list[str]]) -> Callable[[str], list[str]]:
    """A name prefix (generateName): a trailing '-' is allowed."""

    def validate(value: str) -> list[str]:
        return check(names.mask_trailing_dash(value))

    return validate


def _uri(value: str) -> list[str]:
    return [] if is_url(value) else ["invalid URI"]


def _uuid(value: str) -> list[str]:
    return [] if _UUID.match(value) else ["does not match the UUID format"]


def _byte(value: str) -> list[str]:
    try:
        base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return ["invalid base64"]
    return []


def _date(value: str) -> list[str]:
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return ["invalid date"]
    return [] if len(value) == 10 else ["invalid date"]


def _datetime(value: str) -> list[str]:
    try:
        datetime.datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return ["invalid datetime"]
    return []


FORMATS: dict[str, Callable[[str], list[str]]] = {
    "dns1123Label": names.dns1123_label,
    "dns1123Subdomain": names.dns1123_subdomain,
    "dns1035Label": names.dns1035_label,
    "qualifiedName": names.qualified_name,
    "dns1123LabelPrefix": _prefixed(names.dns1123_label),
    "dns1123SubdomainPrefix": _prefixed(names.dns1123_subdomain),
    "dns1035LabelPrefix": _prefixed(names.dns1035_label),
    "labelValue": names.label_value,
    "uri": _uri,
    "uuid": _uuid,
    "byte": _byte,
    "date": _date,
    "datetime": _datetime,
}


def named(name: str) -> list[object]:
    """``format.named``: the format of that name as a list of one, or an empty list
    for a name there is none of (``rewrite`` makes it the server's optional)."""
    return [make("kubernetes.NamedFormat", name)] if name in FORMATS else []


def validate(named: object, value: str) -> list[list[str]]:
    """The errors as a list of one list, or an empty list when the value is valid:
    ``rewrite`` indexes it with ``[?0]``, which makes the server's optional of them."""
    check = FORMATS[named.value]  # type: ignore[attr-defined]
    errors = check(value)
    return [errors] if errors else []


_OPTIONAL_CALLS = re.compile(r"\.validate\(|(?<![\w.])format\.named\(")
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def rewrite(expression: str) -> str:
    """``X.validate(s)`` as ``X.__validate(s)[?0]`` (the server's optional list of
    errors) and ``format.named(n)`` as ``format.__named(n)[?0]`` (an optional format).

    The engine takes no optional values from Python; an optional index into a list of
    zero or one element is one.
    """
    if ".validate(" not in expression and "format.named(" not in expression:
        return expression
    out: list[str] = []
    position = 0
    for match in _OPTIONAL_CALLS.finditer(expression):
        if match.start() < position:
            continue
        close = _closing(expression, match.end())
        if close < 0:
            break
        name = "format.__named(" if match.group().startswith("format") else ".__validate("
        out.append(expression[position : match.start()])
        out.append(name + rewrite(expression[match.end() : close]) + ")[?0]")
        position = close + 1
    out.append(expression[position:])
    return "".join(out)


def _closing(text: str, start: int) -> int:
    depth = 1
    position = start
    while position < len(text):
        char = text[position]
        if char in "'\"":
            string = _STRING.match(text, position)
            position = string.end() if string else position + 1
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return position
        position += 1
    return -1


def _named(name: str) -> Callable[[], object]:
    return lambda: make("kubernetes.NamedFormat", name)


LIBRARY = Library(
    "format",
    "1.31",
    (
        *(
            (f"format.{name}", [cel.Overload(f"format_{name}", NAMED, [], impl=_named(name))])
            for name in FORMATS
        ),
        ("format.__named", [cel.Overload("format_named", T.List(NAMED), [T.STRING], impl=named)]),
        (
            "__validate",
            [
                cel.Overload(
                    "named_format_validate",
                    T.List(T.List(T.STRING)),
                    [NAMED, T.STRING],
                    is_member=True,
                    impl=validate,
                )
            ],
        ),
    ),
)
