"""``regexps``: RE2's own match, answering as google-re2's ``search`` does; refusals in Go's words."""

from __future__ import annotations

import pytest

from kubectl_crd.validation.regexps import (
    error,
    go_error_text,
    go_regexp,
    pattern_matches,
    searcher,
)

PATTERNS = (
    r"^(\S+\s+){4}\S+$",
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
    r"\p{L}+",
    r"é.",
    r"",
    r"^$",
    r"(?i)^ab",
    r"b$",
)
TEXTS = ("*/5 * * * *", "my-name", "-bad", "", "héllo wörld", "é", "AB", "ab\nb", "日本語 b")


@pytest.mark.parametrize("pattern", PATTERNS)
def test_searcher_answers_as_search(pattern: str) -> None:
    regexp = go_regexp(pattern)
    found = searcher(regexp)
    answers = [found(text) for text in TEXTS]
    assert answers == [regexp.search(text) is not None for text in TEXTS]
    assert answers == [pattern_matches(pattern, text) for text in TEXTS]


def test_searcher_falls_back_to_search_without_the_inner_object() -> None:
    class Wrapped:
        def __init__(self, pattern: str) -> None:
            self.regexp = go_regexp(pattern)

        def search(self, text: str) -> object:
            return self.regexp.search(text)

    found = searcher(Wrapped(r"^a+$"))
    assert [found("aaa"), found("ab"), found("")] == [True, False, False]


def test_a_pattern_re2_refuses_matches_nothing() -> None:
    assert pattern_matches(r"a(", "a(") is False


#: Go's own words (``regexp.Compile`` with go1.26, the same parser as the API server's
#: go1.24) for patterns RE2 words otherwise or takes: lookarounds, unknown ``(?``
#: groups, and RE2's ``\C``
GO_REFUSALS = {
    "(?<=x)a(": "invalid named capture: `(?<=x)a(`",
    "(?<!x)a": "invalid named capture: `(?<!x)a`",
    "(?<=x)>a": "invalid named capture: `(?<=x)>`",
    "x(?<=a)y(?<=b)": "invalid named capture: `(?<=a)y(?<=b)`",
    "a(?<n>b)(?<=c)>d": "invalid named capture: `(?<=c)>`",
    "(?=x)": "invalid or unsupported Perl syntax: `(?=`",
    "(?i)(?!x)": "invalid or unsupported Perl syntax: `(?!`",
    "(?#c)": "invalid or unsupported Perl syntax: `(?#`",
    "(?i-)": "invalid or unsupported Perl syntax: `(?i-)`",
    "(?'n'a)": "invalid or unsupported Perl syntax: `(?'`",
    "\\C": "invalid escape sequence: `\\C`",
    "[\\C]": "invalid escape sequence: `\\C`",
}


@pytest.mark.parametrize("pattern", sorted(GO_REFUSALS))
def test_refusals_are_worded_as_go_words_them(pattern: str) -> None:
    with pytest.raises(error) as refused:
        go_regexp(pattern)
    assert go_error_text(refused.value) == f"error parsing regexp: {GO_REFUSALS[pattern]}"


@pytest.mark.parametrize("pattern", ["\\\\C", "\\Q\\C\\E", "(?<name>a)", "(?P<n>a)"])
def test_go_takes_these(pattern: str) -> None:
    assert go_regexp(pattern) is not None
