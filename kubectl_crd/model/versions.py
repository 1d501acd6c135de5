"""Kubernetes' version ordering, used to pick a CRD's preferred version.

Mirrors ``k8s.io/apimachinery/pkg/version.CompareKubeAwareVersionStrings``: versions
shaped like ``v1``, ``v2beta3`` or ``v1alpha1`` sort GA first, then beta, then alpha,
higher numbers first within a class; anything else sorts after them, alphabetically.
Discovery lists a CRD's versions in this order and clients prefer the first served one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_KUBE_VERSION = re.compile(r"^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$")
_STABILITY = {None: 0, "beta": 1, "alpha": 2}


def kube_version_sort_key(version: str) -> tuple[int, int, int, int, str]:
    match = _KUBE_VERSION.match(version)
    if match is None:
        return (1, 0, 0, 0, version)
    major, stability, minor = match.groups()
    return (0, _STABILITY[stability], -int(major), -int(minor or 0), "")


def sort_kube_versions(versions: Iterable[str]) -> list[str]:
    return sorted(versions, key=kube_version_sort_key)
