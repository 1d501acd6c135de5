"""``library/lists.go``: ``isSorted``, ``sum``, ``min``, ``max``; ``indexOf`` and
``lastIndexOf`` are in ``indexing`` (they share their names with the strings extension).

The engine dispatches on runtime kinds only (a list is a list whatever its items), so
each function has one overload over ``list(dyn)``, and the server's dispatch is done
here: lists.go declares one overload per comparable (summable) element type, and
cel-go (``common/decls/decls.go``, ``defaultIsAssignableRuntimeType``) picks one by the
list's *first* element alone, so a first element of another kind is ``no such
overload: isSorted(list)``. The bound function then walks the list: a later element
that is not a ``Comparer`` (``Adder`` for ``sum``) is ``no such overload``; a comparison
across kinds yields an error value, which isSorted, min and max do not look at (they
only test for ``1``), so ``[dyn(2), dyn('a'), dyn(1)].isSorted()`` is true.

The engine cannot hand Python a list holding an optional (one inside a map kills the
process), so ``guard_receivers`` rewrites the receivers of these four calls to put
``null`` (which no overload takes, as a list, a map or an optional) in place of such
an element.
"""

from __future__ import annotations

import itertools
import re
from datetime import datetime, timedelta
from typing import Any

from cel_expr_python import cel
from google.protobuf import duration_pb2, timestamp_pb2

from kubectl_crd.validation.cel.library.base import Library

T = cel.Type
LIST = T.List(T.DYN)

#: the kinds lists.go's comparableTypes and summableTypes name, as Python gets them
#: (an int and a uint are one here)
_COMPARABLE = (bool, int, float, str, bytes, timedelta, datetime)
_SUMMABLE = (int, float, timedelta)


def _kind(value: Any) -> type | None:
    """Which of cel-go's types ``value`` is, for comparing and adding (int and double
    compare with each other: cel-go's heterogeneous numeric comparison; bytes come as a
    ``bytearray``)."""
    if isinstance(value, bytearray):
        return bytes
    for kind in (bool, int, float, str, bytes, timedelta, datetime):
        if isinstance(value, kind):
            return kind
    return None


#: cel-go's duration range: int64 nanoseconds (an addition past it is errIntOverflow)
_MAX_DURATION = timedelta(microseconds=(1 << 63) // 1000)


def _to_cel(value: Any) -> Any:
    """A result as the engine takes it back: durations and timestamps as their protobuf
    messages (it refuses ``timedelta`` and ``datetime``), bytes as ``bytes``."""
    if isinstance(value, timedelta):
        duration = duration_pb2.Duration()
        duration.FromTimedelta(value)
        return duration
    if isinstance(value, datetime):
        stamp = timestamp_pb2.Timestamp()
        stamp.FromDatetime(value)
        return stamp
    if isinstance(value, bytearray):
        return bytes(value)
    return value


def _no_overload(function: str, items: list[Any], kinds: tuple[type, ...]) -> None:
    """cel-go's dispatch on the first element (``MaybeNoSuchOverload``' words)."""
    if items and _kind(items[0]) not in kinds:
        raise ValueError(f"no such overload: {function}(list)")


def _greater(a: Any, b: Any) -> bool:
    """``a.Compare(b) == 1``: false where cel-go's Compare is an error (other kinds)."""
    numbers = (int, float)
    ka, kb = _kind(a), _kind(b)
    if ka is not kb and not (ka in numbers and kb in numbers):
        return False
    return bool(a > b)


def _walked(function: str, items: list[Any]) -> list[Any]:
    _no_overload(function, items, _COMPARABLE)
    if any(_kind(item) is None for item in items):
        # the first element that is not a Comparer ends the walk with this error; what
        # the walk answers before it reaching one is never returned
        raise ValueError("no such overload")
    return items


def is_sorted(items: list[Any]) -> bool:
    return not any(_greater(a, b) for a, b in itertools.pairwise(_walked("isSorted", items)))


def total(items: list[Any]) -> Any:
    _no_overload("sum", items, _SUMMABLE)
    if not items:
        return 0
    kind = _kind(items[0])
    result: Any = {int: 0, float: 0.0, timedelta: timedelta(0)}[kind]  # type: ignore[index]
    for item in items:
        if _kind(item) is not kind:
            raise ValueError("no such overload")  # Add across kinds, or not an Adder
        try:
            result = result + item
        except OverflowError:  # past timedelta's range, long past cel-go's
            raise ValueError("integer overflow") from None
        if kind is timedelta and abs(result) >= _MAX_DURATION:
            raise ValueError("integer overflow")
    return _to_cel(result)


def _extreme(function: str, items: list[Any], replaces: Any) -> Any:
    result = None
    for item in _walked(function, items):
        if result is None or replaces(result, item):
            result = item
    if result is None:
        raise ValueError(f"{function} called on empty list")
    return _to_cel(result)


def smallest(items: list[Any]) -> Any:
    return _extreme("min", items, _greater)


def largest(items: list[Any]) -> Any:
    return _extreme("max", items, lambda result, item: _greater(item, result))


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

GUARDED = frozenset(name for name, _ in LIBRARY.functions)

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*$")
#: the guard's variable: ``runtime_cost`` charges nothing for its comprehension (not in
#: the server's program) but its range, the receiver
GUARD_ELEMENT = "__kcl"
_GUARD = (
    f".map({GUARD_ELEMENT}, type({GUARD_ELEMENT}) == optional_type || "
    f"type({GUARD_ELEMENT}) == list || type({GUARD_ELEMENT}) == map ? dyn(null) : "
    f"dyn({GUARD_ELEMENT}))"
)


def masked(text: str) -> str:
    """``text`` with the inside of each string literal blanked (offsets kept), so that
    brackets are told from code alone."""
    from kubectl_crd.validation.cel.tree import _STRINGS

    return _STRINGS.sub(lambda found: "'" + " " * (len(found.group(0)) - 2) + "'", text)


def receiver_span(masked_text: str, opening: int, first: int) -> tuple[int, int] | None:
    """Where the receiver of a member call starts and the ``.`` before its name is, in
    ``masked_text`` (``masked``): ``opening``, the offset of the call's ``(``; ``first``,
    the smallest offset of a node of its receiver (a node's offset is an operator's, a
    call's ``(``, a literal's first character). None when the receiver's text cannot
    be told."""
    dot = masked_text.rfind(".", 0, opening)
    if dot < 0:
        return None
    start = first
    name = _IDENTIFIER.search(masked_text, 0, start)
    if masked_text[start : start + 1] == "(" and name is not None:
        start = name.start()  # a global call's offset is its "("
    while True:
        depth = unopened = 0
        for char in masked_text[start:dot]:
            if char == "(":
                depth += 1
            elif char == ")":
                unopened += not depth
                depth = max(0, depth - 1)
        if not unopened:
            return start, dot
        before = masked_text[:start].rstrip()
        if not before.endswith("("):
            return None
        start = len(before) - 1


def guard_receivers(text: str, calls: list[tuple[int, int]]) -> str | None:
    """``text`` with the receiver of each call of ``GUARDED`` mapped to hold ``null`` in
    place of an optional, a list or a map. ``calls``: for each call, the offset of its
    ``(`` and the smallest offset of a node of its receiver (``receiver_span``). None
    when a receiver's text cannot be told (then the caller keeps refusing the rule)."""
    blanked = masked(text)
    inserts: list[tuple[int, str]] = []
    for opening, first in calls:
        span = receiver_span(blanked, opening, first)
        if span is None:
            return None
        start, dot = span
        inserts += [(start, "("), (dot, ")" + _GUARD)]
    for at, piece in sorted(inserts, key=lambda insert: insert[0], reverse=True):
        text = text[:at] + piece + text[at:]
    return text
