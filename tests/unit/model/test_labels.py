"""Label selectors (``model.labels``): parsing and matching, table-driven.

The same table is held to the real API server's list by
``tests/integration/test_label_selectors.py``.
"""

from __future__ import annotations

import pytest

from kubectl_crd.model.labels import LabelSelectorError, Requirement, parse_selector

#: (selector, labels, matches)
CASES = [
    ("", {}, True),
    ("", {"a": "1"}, True),
    ("app", {"app": ""}, True),
    ("app", {}, False),
    ("!app", {}, True),
    ("!app", {"app": "x"}, False),
    ("app=web", {"app": "web"}, True),
    ("app==web", {"app": "web"}, True),
    ("app=web", {"app": "db"}, False),
    ("app=web", {}, False),
    ("app!=web", {}, True),  # != matches an object without the label
    ("app!=web", {"app": "db"}, True),
    ("app!=web", {"app": "web"}, False),
    ("app=", {"app": ""}, True),
    ("app=", {"app": "x"}, False),
    ("app in (web,db)", {"app": "db"}, True),
    ("app in (web,db)", {"app": "x"}, False),
    ("app in (web,db)", {}, False),
    ("app notin (web,db)", {}, True),
    ("app notin (web,db)", {"app": "web"}, False),
    ("app in ()", {"app": ""}, True),
    ("app in (a,)", {"app": ""}, True),
    ("tier>3", {"tier": "4"}, True),
    ("tier>3", {"tier": "3"}, False),
    ("tier<3", {"tier": "2"}, True),
    ("tier<3", {"tier": "x"}, False),
    ("tier<3", {}, False),
    ("app=web,tier", {"app": "web", "tier": "1"}, True),
    ("app=web,tier", {"app": "web"}, False),
    ("app=web, !tier ,env in (prod)", {"app": "web", "env": "prod"}, True),
    ("example.com/team=a", {"example.com/team": "a"}, True),
    (" app = web ", {"app": "web"}, True),
]


@pytest.mark.parametrize(("selector", "labels", "expected"), CASES)
def test_matches(selector: str, labels: dict[str, str], expected: bool) -> None:
    assert parse_selector(selector).matches(labels) is expected


@pytest.mark.parametrize(
    "selector",
    ["app=web,", ",app", "app in web", "app in (a b)", "tier>x", "app===x", "=x", "a b", "-bad"],
)
def test_refused(selector: str) -> None:
    with pytest.raises(LabelSelectorError):
        parse_selector(selector)


def test_parsed_requirements() -> None:
    parsed = parse_selector("a, !b, c=1, d!=2, e in (x,y), f notin (z), g>1")
    assert parsed.requirements == (
        Requirement("a", "exists"),
        Requirement("b", "!"),
        Requirement("c", "=", ("1",)),
        Requirement("d", "!=", ("2",)),
        Requirement("e", "in", ("x", "y")),
        Requirement("f", "notin", ("z",)),
        Requirement("g", "gt", ("1",)),
    )


def test_a_mapping_is_equalities_and_none_matches_all() -> None:
    selector = parse_selector({"app": "web", "tier": "1"})
    assert selector.matches({"app": "web", "tier": "1", "x": "y"})
    assert not selector.matches({"app": "web"})
    assert parse_selector(None).matches(None)
