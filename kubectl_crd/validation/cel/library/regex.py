"""``library/regex.go``: ``find`` and ``findAll`` with RE2 semantics (Go's regexp)."""

from __future__ import annotations

from typing import Any

from cel_expr_python import cel

from kubectl_crd.validation.cel.library.base import Library
from kubectl_crd.validation.regexps import cached_go_regexp, go_error_text
from kubectl_crd.validation.regexps import error as regexp_error

T = cel.Type


def _compiled(pattern: str) -> Any:
    try:
        return cached_go_regexp(pattern)
    except regexp_error as exc:
        raise ValueError(go_error_text(exc)) from None


def find(text: str, pattern: str) -> str:
    match = _compiled(pattern).search(text)
    return match.group(0) if match else ""


def find_all(text: str, pattern: str, limit: int = -1) -> list[str]:
    if limit == 0:
        return []
    found = [m.group(0) for m in _compiled(pattern).finditer(text)]
    return found if limit < 0 else found[:limit]


LIBRARY = Library(
    "regex",
    "base",
    (
        (
            "find",
            [
                cel.Overload(
                    "string_find_string", T.STRING, [T.STRING, T.STRING], is_member=True, impl=find
                )
            ],
        ),
        (
            "findAll",
            [
                cel.Overload(
                    "string_find_all_string",
                    T.List(T.STRING),
                    [T.STRING, T.STRING],
                    is_member=True,
                    impl=find_all,
                ),
                cel.Overload(
                    "string_find_all_string_int",
                    T.List(T.STRING),
                    [T.STRING, T.STRING, T.INT],
                    is_member=True,
                    impl=find_all,
                ),
            ],
        ),
    ),
)
