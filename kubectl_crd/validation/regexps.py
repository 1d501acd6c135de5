"""Go regular expressions, compiled by RE2 the way the validators need them.

Go's ``regexp`` is RE2: ``^(?i)[a-z]`` is valid, ``$`` is the end of the text, and
matching takes linear time. ``google-re2`` gives the same engine; its C++ logging
is turned off, because a large pattern (the hostname format's ``\\p{L}`` classes)
makes RE2 fall back from its DFA with a log line on stderr, which a command must
never print. The match result is the same either way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

error = re2.error


def go_regexp(pattern: str) -> Any:
    """``regexp.MustCompile``; raises ``error`` for syntax RE2 refuses."""
    options = re2.Options()
    options.log_errors = False
    return re2.compile(pattern, options)


@lru_cache(maxsize=1024)
def cached_go_regexp(pattern: str) -> Any:
    """``go_regexp`` compiled once per pattern (a refused pattern raises every time)."""
    return go_regexp(pattern)


def pattern_matches(pattern: str, value: str) -> bool:
    """Go's ``regexp.MatchString``: the pattern matches somewhere in ``value`` (what
    the OpenAPI ``pattern`` check asks); ``False`` for a pattern RE2 refuses. The
    sample generator checks its examples with it (``SampleOptions.pattern_match``)."""
    try:
        return cached_go_regexp(pattern).search(value) is not None
    except error:
        return False


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
