"""A CRD in a protected group (``*.k8s.io``, ``*.kubernetes.io``) needs the
``api-approved.kubernetes.io`` annotation, as the API server's create requires.
The same cases run against the real server in
tests/integration/test_cel_crd_compile.py (``CRD_MISTAKES``)."""

from __future__ import annotations

import pytest

from kubectl_crd.validation.crds import crd_errors
from tests.crd_factory import make_crd

FIELD = "metadata.annotations[api-approved.kubernetes.io]"
REQUIRED = (
    f"{FIELD}: Required value: protected groups must have approval annotation "
    '"api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111'
)


def invalid(value: str) -> str:
    return (
        f'{FIELD}: Invalid value: "{value}": protected groups must have approval annotation '
        '"api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", '
        "see https://github.com/kubernetes/enhancements/pull/1111"
    )


def approval_errors(group: str, annotation: str | None) -> list[str]:
    crd = make_crd("Widget", group)
    if annotation is not None:
        crd["metadata"]["annotations"] = {"api-approved.kubernetes.io": annotation}
    return [message for field, message, _ in crd_errors(crd) if field == FIELD]


@pytest.mark.parametrize(
    ("group", "annotation", "expected"),
    [
        ("x.k8s.io", None, [REQUIRED]),
        ("k8s.io", None, [REQUIRED]),
        ("a.b.kubernetes.io", None, [REQUIRED]),
        ("x.k8s.io", "", [REQUIRED]),
        ("x.k8s.io", "unapproved, request not yet submitted", []),
        ("x.k8s.io", "unapproved", []),
        ("x.k8s.io", "https://github.com/kubernetes/enhancements/pull/1111", []),
        ("x.k8s.io", "http://example.com", []),
        ("x.k8s.io", "https://user@example.com:8443/x?y=1", []),
        ("x.k8s.io", "Unapproved", [invalid("Unapproved")]),
        ("x.k8s.io", "approved", [invalid("approved")]),
        (
            "x.k8s.io",
            "github.com/kubernetes/enhancements/pull/1",
            [invalid("github.com/kubernetes/enhancements/pull/1")],
        ),
        ("x.k8s.io", "https://", [invalid("https://")]),
        ("x.k8s.io", "https:///path", [invalid("https:///path")]),
        ("x.k8s.io", "mailto:someone@example.com", [invalid("mailto:someone@example.com")]),
        ("x.k8s.io", "https://exa mple.com", [invalid("https://exa mple.com")]),
        ("x.k8s.io", "https://example.com:http", [invalid("https://example.com:http")]),
        ("x.k8s.io", "https://example.com/%zz", [invalid("https://example.com/%zz")]),
        ("notk8s.io", None, []),
        ("k8s.io.example.com", None, []),
        ("example.com", None, []),
    ],
)
def test_protected_groups_need_the_approval_annotation(
    group: str, annotation: str | None, expected: list[str]
) -> None:
    assert approval_errors(group, annotation) == expected
