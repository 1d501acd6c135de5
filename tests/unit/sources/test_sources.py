from __future__ import annotations

import pytest

from kubectl_crd.model.errors import AmbiguousResourceError, ClusterUnreachableError
from kubectl_crd.sources.base import find_crd
from kubectl_crd.sources.combined import CompositeSource, FallbackSource
from kubectl_crd.sources.fake import FakeSource
from tests.crd_factory import make_crd


def test_fake_source_reports_broken_crds_as_problems_not_exceptions() -> None:
    broken = make_crd("Broken", api_version="apiextensions.k8s.io/v1beta1")
    source = FakeSource([make_crd(), broken])
    assert [c.name for c in source.crds()] == ["crontabs.stable.example.com"]
    assert len(source.problems()) == 1
    assert "brokens.stable.example.com" in str(source.problems()[0])


def test_composite_prefers_the_first_source_for_the_same_crd() -> None:
    local = FakeSource([make_crd(versions=("v2",))], description="files")
    cluster = FakeSource([make_crd(versions=("v1",)), make_crd("Other")], description="cluster")
    source = CompositeSource([local, cluster])
    by_name = {c.name: c for c in source.crds()}
    assert set(by_name) == {"crontabs.stable.example.com", "others.stable.example.com"}
    assert by_name["crontabs.stable.example.com"].preferred_version.name == "v2"
    assert find_crd(source, "crontab").crd.preferred_version.name == "v2"
    assert source.description == "files + cluster"


def test_fallback_uses_the_second_source_when_the_cluster_is_unreachable() -> None:
    down = FakeSource(error=ClusterUnreachableError("connection refused"), description="cluster")
    files = FakeSource([make_crd()], description="files")
    source = FallbackSource(down, files)
    assert [c.name for c in source.crds()] == ["crontabs.stable.example.com"]
    assert source.description == "files"


def test_composite_does_not_hide_an_unreachable_cluster() -> None:
    down = FakeSource(error=ClusterUnreachableError("connection refused"))
    with pytest.raises(ClusterUnreachableError):
        CompositeSource([FakeSource([make_crd()]), down]).crds()


def test_lookup_through_a_source_reports_ambiguity() -> None:
    source = FakeSource(
        [make_crd("Gateway", "a.example.com"), make_crd("Gateway", "b.example.com")]
    )
    with pytest.raises(AmbiguousResourceError):
        find_crd(source, "gateways")
