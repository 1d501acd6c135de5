"""Kubernetes' version order, and the hand-written parser against the rule's regex."""

from __future__ import annotations

import itertools
import re

from kubectl_crd.model.versions import _parse_kube_version, sort_kube_versions

#: k8s.io/apimachinery/pkg/version: kubeVersionRegex
KUBE_VERSION = re.compile(r"^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$")


def by_regex(version: str) -> tuple[int, str, int] | None:
    match = KUBE_VERSION.fullmatch(version)
    if match is None:
        return None
    major, stability, minor = match.groups()
    return int(major), stability or "", int(minor or 0)


def test_parser_matches_the_regex_on_every_short_word() -> None:
    pieces = ["v", "V", "0", "1", "2", "10", "01", "alpha", "beta", "gamma", "a", " ", ""]
    words = {
        "".join(parts) for size in range(1, 5) for parts in itertools.product(pieces, repeat=size)
    }
    assert len(words) > 10_000
    wrong = [w for w in sorted(words) if _parse_kube_version(w) != by_regex(w)]
    assert wrong == []
    assert _parse_kube_version("v2beta3") == (2, "beta", 3)


def test_order_is_kubernetes() -> None:
    versions = ["v1alpha1", "foo1", "v2", "v1beta2", "v1", "v10beta3", "v11alpha2", "foo10", "v12"]
    assert sort_kube_versions(versions) == [
        "v12",
        "v2",
        "v1",
        "v10beta3",
        "v1beta2",
        "v11alpha2",
        "v1alpha1",
        "foo1",
        "foo10",
    ]
