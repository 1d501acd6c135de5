"""``regexps.searcher``: RE2's own match, answering as google-re2's ``search`` does."""

from __future__ import annotations

import pytest

from kubectl_crd.validation.regexps import go_regexp, pattern_matches, searcher

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
