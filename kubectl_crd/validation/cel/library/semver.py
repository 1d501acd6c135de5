"""``library/semver.go`` (Kubernetes 1.33): ``semver``, ``isSemver`` and comparisons.

Strict semantic versions (blang/semver ``Parse``); with ``normalize`` a leading ``v``
is dropped, missing minor and patch become 0 and leading zeros are removed.
"""

from __future__ import annotations

import re

from cel_expr_python import cel

from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.cel.library.types import make

T = cel.Type
S = T("kubernetes.Semver")
_STRICT = re.compile(
    r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)


def _normalized(text: str) -> str:
    text = text.removeprefix("v")
    match = re.match(r"^([0-9.]*)(.*)$", text, re.S)
    assert match is not None
    core, rest = match.groups()
    parts = [p.lstrip("0") or "0" for p in core.split(".")] if core else []
    while len(parts) < 3:
        parts.append("0")
    return ".".join(parts) + rest


def _parse(text: str, normalize: bool = False) -> tuple[int, int, int, str]:
    candidate = _normalized(text) if normalize else text
    match = _STRICT.match(candidate)
    if match is None:
        raise ValueError(
            "No Major.Minor.Patch elements found" if "." not in text else "Invalid semver"
        )
    pre = match.group(4) or ""
    for part in pre.split(".") if pre else ():
        if part.isdigit() and len(part) > 1 and part[0] == "0":
            raise ValueError(f"Numeric PreRelease version must not contain leading zeroes {part!r}")
    return int(match.group(1)), int(match.group(2)), int(match.group(3)), pre


def semver(text: str, normalize: bool = False) -> object:
    major, minor, patch, pre = _parse(text, normalize)
    return make("kubernetes.Semver", f"{major}.{minor}.{patch}" + (f"-{pre}" if pre else ""))


def is_semver(text: str, normalize: bool = False) -> bool:
    try:
        _parse(text, normalize)
    except ValueError:
        return False
    return True


def _key(value: object) -> tuple[int, int, int, str]:
    return _parse(value.value)  # type: ignore[attr-defined]


def _compare_pre(a: str, b: str) -> int:
    if a == b:
        return 0
    if not a:
        return 1
    if not b:
        return -1
    for x, y in zip(a.split("."), b.split("."), strict=False):
        if x == y:
            continue
        if x.isdigit() and y.isdigit():
            return (int(x) > int(y)) - (int(x) < int(y))
        if x.isdigit():
            return -1
        if y.isdigit():
            return 1
        return (x > y) - (x < y)
    la, lb = len(a.split(".")), len(b.split("."))
    return (la > lb) - (la < lb)


def compare_to(value: object, other: object) -> int:
    a, b = _key(value), _key(other)
    if a[:3] != b[:3]:
        return (a[:3] > b[:3]) - (a[:3] < b[:3])
    return _compare_pre(a[3], b[3])


def _member(name: str, result: object, impl: object, *extra: object) -> object:
    return cel.Overload(f"semver_{name}", result, [S, *extra], is_member=True, impl=impl)


def _declared(name: str, result: object) -> object:
    """An overload the checker knows, run by quantity's implementation: the engine
    dispatches on kinds, and Quantity and Semver are both messages."""
    return cel.Overload(f"semver_{name}", result, [S, S], is_member=True)


LIBRARY = Library(
    "semver",
    "1.33",
    (
        (
            "semver",
            [
                cel.Overload("string_to_semver", S, [T.STRING], impl=semver),
                cel.Overload("string_bool_to_semver", S, [T.STRING, T.BOOL], impl=semver),
            ],
        ),
        (
            "isSemver",
            [
                cel.Overload("is_semver_string", T.BOOL, [T.STRING], impl=is_semver),
                cel.Overload("is_semver_string_bool", T.BOOL, [T.STRING, T.BOOL], impl=is_semver),
            ],
        ),
        ("major", [_member("major", T.INT, lambda v: _key(v)[0])]),
        ("minor", [_member("minor", T.INT, lambda v: _key(v)[1])]),
        ("patch", [_member("patch", T.INT, lambda v: _key(v)[2])]),
        ("isGreaterThan", [_declared("isGreaterThan", T.BOOL)]),
        ("isLessThan", [_declared("isLessThan", T.BOOL)]),
        ("compareTo", [_declared("compareTo", T.INT)]),
    ),
)
