from __future__ import annotations

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import AmbiguousResourceError, ResourceNotFoundError
from kubectl_crd.model.lookup import resolve_resource
from tests.crd_factory import make_crd

CRONTAB = CustomResourceDefinition.from_object(make_crd(short_names=("ct",), versions=("v1", "v2")))
GATEWAY = CustomResourceDefinition.from_object(
    make_crd("Gateway", "gateway.networking.k8s.io", short_names=("gtw",))
)
ISTIO_GATEWAY = CustomResourceDefinition.from_object(make_crd("Gateway", "networking.istio.io"))
# A CRD whose short name is another CRD's plural: the exact name must win.
SHADOW = CustomResourceDefinition.from_object(
    make_crd("Shadow", "shadow.example.com", short_names=("crontabs",))
)
ALL = [CRONTAB, GATEWAY, ISTIO_GATEWAY, SHADOW]


@pytest.mark.parametrize(
    ("query", "expected_name", "expected_version"),
    [
        ("crontabs", "crontabs.stable.example.com", None),
        ("crontab", "crontabs.stable.example.com", None),
        ("CronTab", "crontabs.stable.example.com", None),
        ("CRONTABS", "crontabs.stable.example.com", None),
        ("ct", "crontabs.stable.example.com", None),
        ("crontabs.stable.example.com", "crontabs.stable.example.com", None),
        ("CronTab.stable.example.com", "crontabs.stable.example.com", None),
        ("crontabs.v2.stable.example.com", "crontabs.stable.example.com", "v2"),
        ("gtw", "gateways.gateway.networking.k8s.io", None),
        ("gateways.networking.istio.io", "gateways.networking.istio.io", None),
        ("gateway.gateway.networking.k8s.io", "gateways.gateway.networking.k8s.io", None),
        ("shadow", "shadows.shadow.example.com", None),
    ],
)
def test_resolves_every_spelling(
    query: str, expected_name: str, expected_version: str | None
) -> None:
    match = resolve_resource(ALL, query)
    assert match.crd.name == expected_name
    assert match.version == expected_version


def test_same_kind_in_two_groups_is_ambiguous_and_lists_candidates() -> None:
    with pytest.raises(AmbiguousResourceError) as caught:
        resolve_resource(ALL, "gateway")
    assert caught.value.candidates == (
        "gateways.gateway.networking.k8s.io",
        "gateways.networking.istio.io",
    )
    assert "gateways.networking.istio.io" in str(caught.value)


def test_same_crd_from_two_files_is_ambiguous_and_names_the_files() -> None:
    from kubectl_crd.model.errors import Location

    first = CustomResourceDefinition.from_object(make_crd(), Location("a.yaml", 1, 1))
    second = CustomResourceDefinition.from_object(make_crd(), Location("b.yaml", 1, 1))
    with pytest.raises(AmbiguousResourceError) as caught:
        resolve_resource([first, second], "crontab")
    assert any("a.yaml" in c for c in caught.value.candidates)
    assert any("b.yaml" in c for c in caught.value.candidates)


def test_unknown_resource_suggests_nearest_names() -> None:
    with pytest.raises(ResourceNotFoundError) as caught:
        resolve_resource(ALL, "crontabz")
    assert "crontabs" in caught.value.candidates
    assert str(caught.value).startswith('the server doesn\'t have a resource type "crontabz"')


def test_unknown_resource_without_near_names_has_no_suggestion() -> None:
    with pytest.raises(ResourceNotFoundError) as caught:
        resolve_resource(ALL, "zzzzzzzz")
    assert caught.value.candidates == ()
    assert "did you mean" not in str(caught.value)
