"""Go regular expressions, compiled by RE2 the way the validators need them.

Go's ``regexp`` is RE2: ``^(?i)[a-z]`` is valid, ``$`` is the end of the text, and
matching takes linear time. ``google-re2`` gives the same engine; its C++ logging
is turned off, because a large pattern (the hostname format's ``\\p{L}`` classes)
makes RE2 fall back from its DFA with a log line on stderr, which a command must
never print. The match result is the same either way.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import re2

error = re2.error

#: RE2's own span for "no match" (``re2/__init__.py``: ``_NULL_SPAN``)
_NO_MATCH = (-1, -1)


def go_regexp(pattern: str) -> Any:
    """``regexp.MustCompile``; raises ``error`` for syntax Go refuses, in Go's words
    where they are not RE2's (``go_error_text`` then reads them as they are)."""
    options = re2.Options()
    options.log_errors = False
    if "\\C" in pattern and _any_byte_escape(pattern):
        # RE2 takes \C (any byte); Go's parser knows no such escape (regexp/syntax parse.go)
        raise error("invalid escape sequence: \\C")
    try:
        return re2.compile(pattern, options)
    except error as exc:
        raise _perl_syntax_error(exc, pattern) from None


def _any_byte_escape(pattern: str) -> bool:
    """Whether ``pattern`` has a ``\\C`` escape (not an escaped backslash before a C,
    not inside ``\\Q...\\E`` literal text)."""
    position = 0
    while True:
        position = pattern.find("\\", position)
        if position < 0 or position + 1 >= len(pattern):
            return False
        escaped = pattern[position + 1]
        if escaped == "C":
            return True
        if escaped == "Q":
            end = pattern.find("\\E", position + 2)
            if end < 0:
                return False
            position = end
        position += 2


def _perl_syntax_error(exc: Exception, pattern: str) -> Any:
    """RE2's "invalid perl operator" in Go's words (regexp/syntax parse.go,
    parsePerlFlags): ``(?<`` not starting a valid ``(?<name>`` group is an invalid
    named capture, reported up to its ``>`` (the rest of the pattern when there is
    none, as for a lookbehind ``(?<=x)``); any other ``(?`` Go does not know is
    "invalid or unsupported Perl syntax"."""
    raw = exc.args[0] if exc.args else ""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    code, _, expr = text.partition(": ")
    if code != "invalid perl operator":
        return exc
    start = pattern.find(expr) if expr.startswith("(?<") else -1
    if start < 0:
        return error(f"invalid or unsupported Perl syntax: {expr}")
    rest = pattern[start:]
    end = rest.find(">")
    return error(f"invalid named capture: {rest if end < 0 else rest[: end + 1]}")


@lru_cache(maxsize=1024)
def cached_go_regexp(pattern: str) -> Any:
    """``go_regexp`` compiled once per pattern (a refused pattern raises every time)."""
    return go_regexp(pattern)


def searcher(regexp: Any) -> Callable[[str], bool]:
    """Go's ``regexp.MatchString`` for a compiled ``regexp``: whether it matches
    somewhere in a text. google-re2's ``search`` is Python that decodes every span and
    builds a match object (~3.5 us a call); the RE2 object it wraps answers the same
    question on the UTF-8 text in ~0.5 us, and the OpenAPI ``pattern`` check asks it
    for every value. Should the wrapper's inner object change, ``search`` is used."""
    inner = getattr(regexp, "_regexp", None)
    if inner is None or not hasattr(inner, "Match"):
        return lambda text: regexp.search(text) is not None
    unanchored = re2._Anchor.UNANCHORED

    def found(text: str) -> bool:
        data = text.encode()
        return bool(inner.Match(unanchored, data, 0, len(data))[0] != _NO_MATCH)

    return found


def pattern_matches(pattern: str, value: str) -> bool:
    """Go's ``regexp.MatchString``: the pattern matches somewhere in ``value`` (what
    the OpenAPI ``pattern`` check asks); ``False`` for a pattern RE2 refuses. The
    sample generator checks its examples with it (``SampleOptions.pattern_match``)."""
    try:
        return _cached_searcher(pattern)(value)
    except error:
        return False


@lru_cache(maxsize=1024)
def _cached_searcher(pattern: str) -> Callable[[str], bool]:
    return searcher(cached_go_regexp(pattern))


# RE2's words for a refused pattern and Go's (regexp/syntax ErrorCode)
_GO_CODES = {
    "missing ]": "missing closing ]",
    "missing )": "missing closing )",
    "unexpected )": "unexpected )",
    "bad repetition operator": "invalid nested repetition operator",
    "no argument for repetition operator": "missing argument to repetition operator",
    "invalid escape sequence": "invalid escape sequence",
    "invalid character class range": "invalid character class range",
    "invalid repetition size": "invalid repeat count",
    "trailing \\": "trailing backslash at end of expression",
    "invalid UTF-8": "invalid UTF-8",
    "invalid named capture group": "invalid named capture",
    "pattern too large - compile failed": "expression too large",
}


def go_error_text(exc: Exception) -> str:
    """Go's ``error parsing regexp: <code>: `<expr>``` for an RE2 refusal."""
    raw = exc.args[0] if exc.args else ""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    code, sep, expr = text.partition(": ")
    if text in _GO_CODES:
        code, expr = text, ""
    go_code = _GO_CODES.get(code, code)
    return (
        f"error parsing regexp: {go_code}: `{expr}`"
        if sep and expr
        else f"error parsing regexp: {go_code}"
    )
