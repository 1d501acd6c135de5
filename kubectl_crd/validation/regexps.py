"""Go regular expressions, compiled by RE2 the way the validators need them.

Go's ``regexp`` is RE2: ``^(?i)[a-z]`` is valid, ``$`` is the end of the text, and
matching takes linear time. ``google-re2`` gives the same engine; its C++ logging
is turned off, because a large pattern (the hostname format's ``\\p{L}`` classes)
makes RE2 fall back from its DFA with a log line on stderr, which a command must
never print. The match result is the same either way.
"""

from __future__ import annotations

from typing import Any

import re2

error = re2.error


def go_regexp(pattern: str) -> Any:
    """``regexp.MustCompile``; raises ``error`` for syntax RE2 refuses."""
    options = re2.Options()
    options.log_errors = False
    return re2.compile(pattern, options)
