"""Kubernetes' version ordering, used to pick a CRD's preferred version.

Mirrors ``k8s.io/apimachinery/pkg/version.CompareKubeAwareVersionStrings``: versions
shaped like ``v1``, ``v2beta3`` or ``v1alpha1`` sort GA first, then beta, then alpha,
higher numbers first within a class; anything else sorts after them, alphabetically.
Discovery lists a CRD's versions in this order and clients prefer the first served one.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Iterable

_STABILITY = {"": 0, "beta": 1, "alpha": 2}
_DIGITS = frozenset("0123456789")


def kube_version_sort_key(version: str) -> tuple[int, int, int, int, str]:
    parsed = _parse_kube_version(version)
    if parsed is None:
        return (1, 0, 0, 0, version)
    major, stability, minor = parsed
    return (0, _STABILITY[stability], -major, -minor, "")


def _parse_kube_version(version: str) -> tuple[int, str, int] | None:
    """``v<major>[(alpha|beta)<minor>]`` with numbers from 1, no leading zeros; or None.

    Written out rather than as a regular expression: importing ``re`` costs ~4 ms of
    a start-up that must stay fast.
    """
    if not version.startswith("v"):
        return None
    rest = version[1:]
    stability = ""
    for word in ("alpha", "beta"):
        major, found, minor = rest.partition(word)
        if found:
            stability, rest = word, major
            if not _is_number(minor):
                return None
            break
    if not _is_number(rest):
        return None
    return int(rest), stability, int(minor) if stability else 0


def _is_number(text: str) -> bool:
    return bool(text) and text[0] != "0" and _DIGITS.issuperset(text)


def sort_kube_versions(versions: Iterable[str]) -> list[str]:
    return sorted(versions, key=kube_version_sort_key)
