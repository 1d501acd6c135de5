"""Examples for CRD patterns: every example matches under RE2 (Go's regexp), the matcher
the sample command injects; ``pattern_matches`` answers as Go's ``regexp.MatchString``."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from kubectl_crd.model.sample.regex_examples import PatternSyntaxError, examples, parse
from kubectl_crd.validation.regexps import pattern_matches


def checked_examples(pattern: str, **bounds: Any) -> Iterator[str]:
    """``examples`` with the RE2 matcher injected, as ``kubectl crd sample`` runs it."""
    return examples(pattern, matches=functools.partial(pattern_matches, pattern), **bounds)


DNS_SUBDOMAIN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
QUANTITY = (
    r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]"
    r"|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)

# Valid RE2 that Python's re rejects or reads differently.
RE2_ONLY = {
    r"^((?i)sun|mon|tues)day$",
    r"^(?i)(abort|warn)?$",
    r"^[[:alpha:]][[:digit:]]{2}$",
    r"^\p{L}+$",
}

# (pattern, the first example we expect) -- patterns taken from real CRDs.
FIRST_EXAMPLES = [
    (DNS_SUBDOMAIN, "example"),
    (QUANTITY, "1"),
    (r"^(http|https)://.+$", "https://example.com"),
    (r"^([0-9]{1,5}(h|m|s|ms)){1,4}$", "1s"),
    (r"^\[[0-9]+-[0-9]+\]$", "[0-0]"),
    (r"^[0-9]+([KMG]i?)?B/s$", "0B/s"),
    (r"^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$", "a:a"),
    (r"^((([01][0-9])|(2[0-3])):[0-5][0-9])$|(^24:00$)", "00:00"),
    (r"^.*@.*\.iam\.gserviceaccount\.com$", "@.iam.gserviceaccount.com"),
    (r"(^$|^[a-f0-9]{64}$)", "a" * 64),
    # RE2 allows flags in the middle of a pattern; Python's re does not.
    (r"^((?i)sun|mon|tues)day$", "sunday"),
    (r"^(?i)(abort|warn)?$", "abort"),
    (r"^[^*]*(\*[^/]*)?\.(json|yml|yaml)$", ".json"),
    (r"^Hostname|IPAddress|NamedAddress$", "Hostname"),
    (r"^[\w\s:/.\\-]+$", "example"),
    (r"^[A-Za-z0-9!#$%&'*+\-.^_\x60|~]+$", "example"),
    (r"^[[:alpha:]][[:digit:]]{2}$", "a00"),
    (r"^\p{L}+$", "example"),
]


@pytest.mark.parametrize(("pattern", "expected"), FIRST_EXAMPLES)
def test_first_example(pattern: str, expected: str) -> None:
    preferred = ("example", "https://example.com", "1", "1s")
    found = list(itertools.islice(checked_examples(pattern, preferred=preferred, min_length=1), 5))
    assert found[0] == expected
    assert len(set(found)) == len(found)
    for value in found:
        assert pattern_matches(pattern, value)
        if pattern not in RE2_ONLY:
            assert re.search(pattern, value), value


@pytest.mark.parametrize(
    ("pattern", "min_length", "max_length"),
    [(DNS_SUBDOMAIN, 10, 12), (r"^[a-z]+$", 30, None), (r"^[a-z]{2,5}$", 0, 3)],
)
def test_length_bounds_are_respected(pattern: str, min_length: int, max_length: int | None) -> None:
    found = list(
        itertools.islice(checked_examples(pattern, min_length=min_length, max_length=max_length), 3)
    )
    assert found
    for value in found:
        assert len(value) >= min_length
        assert max_length is None or len(value) <= max_length
        assert re.search(pattern, value)


@pytest.mark.parametrize(
    ("pattern", "value", "expected"),
    [
        ("^abc$", "abc", True),
        ("^abc$", "abcd", False),
        ("b", "abc", True),  # search semantics: unanchored patterns match anywhere
        ("^a|b$", "xb", True),
        ("^(?i)abc$", "ABC", True),
        ("^a(?i)bc$", "aBC", True),
        ("^a(?i)bc$", "ABC", False),
        ("^a(?i:b)c$", "aBc", True),
        ("^a(?i:b)c$", "aBC", False),
        ("^[^a-c]+$", "xyz", True),
        ("^[^a-c]+$", "xaz", False),
        ("^x{2,3}$", "xxxx", False),
        ("^x{2,}$", "xxxx", True),
        ("^x{2}$", "xx", True),
        ("^a{,2}$", "a{,2}", True),  # not a repeat in RE2: literal text
        (r"\bword\b", "a word here", True),
        (r"\bword\b", "swordfish", False),
        (r"^\d+\.\d+$", "1.25", True),
        (r"^\S+$", "no space", False),
        ("^a.c$", "a\nc", False),
        ("(?s)^a.c$", "a\nc", True),
        ("^$", "", True),
    ],
)
def test_pattern_matches_is_go_regexp(pattern: str, value: str, expected: bool) -> None:
    assert pattern_matches(pattern, value) is expected


def test_a_pattern_re2_refuses_matches_nothing() -> None:
    assert pattern_matches(r"(a)\1", "aa") is False


@pytest.mark.parametrize("pattern", ["(abc", "[a-", "a**", r"(a)\1", "x{3,2}", "(?z)a"])
def test_outside_the_supported_subset(pattern: str) -> None:
    with pytest.raises(PatternSyntaxError):
        parse(pattern)
    assert list(examples(pattern)) == []


def test_impossible_bounds_give_nothing() -> None:
    assert list(checked_examples("^[a-z]{5}$", max_length=3)) == []


def test_the_injected_matcher_decides() -> None:
    # Generation ignores anchors, so "a^b" (which matches nothing) yields "ab" unchecked;
    # RE2 refuses it, and a placeholder is never offered without a matcher.
    assert list(examples("a^b")) == ["ab"]
    assert list(checked_examples("a^b")) == []
    assert list(examples("^[0-9]+$", preferred=("example",)))[:1] == ["0"]
    assert list(checked_examples("^[a-z]+$", preferred=("example",)))[:1] == ["example"]
