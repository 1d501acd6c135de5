"""``library/lists.go``: ``isSorted``, ``sum``, ``min``, ``max``; ``indexOf`` and
``lastIndexOf`` are in ``indexing`` (they share their names with the strings extension).

The engine dispatches on runtime kinds only (a list is a list whatever its items), so
each function has one overload over ``list(dyn)``; the checker is thus more lenient
than the server's with lists of types these functions refuse.
"""

from __future__ import annotations

import itertools
from typing import Any

from cel_expr_python import cel

from kubectl_crd.validation.cel.library.base import Library

T = cel.Type
LIST = T.List(T.DYN)


def is_sorted(items: list[Any]) -> bool:
    return all(a <= b for a, b in itertools.pairwise(items))


def total(items: list[Any]) -> Any:
    if not items:
        return 0
    result = items[0]
    for item in items[1:]:
        result = result + item
    return result


def smallest(items: list[Any]) -> Any:
    if not items:
        raise ValueError("min called on empty list")
    return min(items)


def largest(items: list[Any]) -> Any:
    if not items:
        raise ValueError("max called on empty list")
    return max(items)


def _member(name: str, overload: str, result: Any, impl: Any, *extra: Any) -> Any:
    return (name, [cel.Overload(overload, result, [LIST, *extra], is_member=True, impl=impl)])


LIBRARY = Library(
    "lists",
    "base",
    (
        _member("isSorted", "list_is_sorted", T.BOOL, is_sorted),
        _member("sum", "list_sum", T.DYN, total),
        _member("min", "list_min", T.DYN, smallest),
        _member("max", "list_max", T.DYN, largest),
    ),
)
