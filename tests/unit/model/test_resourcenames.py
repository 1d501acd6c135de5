"""``match_resource_name``: kubectl's spellings of a resource, the one matcher for CRDs and discovery."""

from __future__ import annotations

import pytest

from kubectl_crd.kube.discovery import ResourceRef
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.lookup import resolve_resource
from kubectl_crd.model.resourcenames import match_resource_name
from tests.crd_factory import make_crd

NAMES = ("crontabs", "crontab", "CronTab")
SHORT = ("ct",)
GROUP = "stable.example.com"
VERSIONS = ("v1", "v1beta1")


@pytest.mark.parametrize(
    ("wanted", "expected"),
    [
        ("crontabs", (0, None)),
        ("crontab", (0, None)),
        ("crontab.v1.stable.example.com", (0, "v1")),
        ("ct", (1, None)),
        ("crontabs.stable.example.com", (0, None)),
        ("ct.stable.example.com", (1, None)),
        ("crontabs.v1beta1.stable.example.com", (0, "v1beta1")),
        ("ct.v1.stable.example.com", (1, "v1")),
        ("crontabs.v2.stable.example.com", None),
        ("crontabs.stable", None),
        ("crontabs.example.com", None),
        ("cron", None),
    ],
)
def test_spellings(wanted: str, expected: tuple[int, str | None] | None) -> None:
    assert match_resource_name(wanted, NAMES, SHORT, GROUP, VERSIONS) == expected


def test_upper_case_names_and_group_are_matched_lowercased() -> None:
    assert match_resource_name(
        "crontab.stable.example.com", NAMES, SHORT, "Stable.Example.COM", VERSIONS
    ) == (0, None)
    assert match_resource_name("crontabs.v1.stable.example.com", NAMES, SHORT, GROUP, ("V1",)) == (
        0,
        "V1",
    )


def test_crds_and_discovery_read_a_name_alike() -> None:
    crd = CustomResourceDefinition.from_object(
        make_crd("CronTab", GROUP, short_names=SHORT, versions=VERSIONS)
    )
    ref = ResourceRef(GROUP, "CronTab", "crontabs", "crontab", True, ("ct",), VERSIONS)
    for wanted in ("ct", "crontab.v1beta1.stable.example.com", "crontabs.stable.example.com"):
        match = resolve_resource([crd], wanted)
        assert ref.matches(wanted) == (0 if wanted != "ct" else 1, match.version)
