"""Resolving ``RESOURCE[.path]`` to a CRD, version and field; errors and notes."""

from __future__ import annotations

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import (
    AmbiguousResourceError,
    FieldNotFoundError,
    KubectlCrdError,
    ResourceNotFoundError,
    VersionNotFoundError,
)
from kubectl_crd.model.explain import resolve_target
from tests.crd_factory import make_crd

CRONTAB = CustomResourceDefinition.from_object(
    make_crd(short_names=("ct",), versions=("v1", "v2beta1", "v1alpha1"), served=("v1", "v2beta1"))
)
GW = CustomResourceDefinition.from_object(make_crd("Gateway", "gateway.networking.k8s.io"))
ISTIO_GW = CustomResourceDefinition.from_object(make_crd("Gateway", "networking.istio.io"))
ALL = [CRONTAB, GW, ISTIO_GW]


@pytest.mark.parametrize(
    ("argument", "api_version", "crd", "version", "path"),
    [
        ("crontabs", None, CRONTAB, "v1", ()),  # the preferred version
        ("CronTab.spec", None, CRONTAB, "v1", ("spec",)),
        ("ct.spec.replicas", None, CRONTAB, "v1", ("spec", "replicas")),
        ("crontabs.stable.example.com.spec", None, CRONTAB, "v1", ("spec",)),
        ("crontabs.v2beta1.stable.example.com.spec", None, CRONTAB, "v2beta1", ("spec",)),
        ("crontabs.spec", "stable.example.com/v2beta1", CRONTAB, "v2beta1", ("spec",)),
        ("gateways.networking.istio.io", None, ISTIO_GW, "v1", ()),
        ("gateways.spec", "gateway.networking.k8s.io/v1", GW, "v1", ("spec",)),
    ],
)
def test_resolution(
    argument: str,
    api_version: str | None,
    crd: CustomResourceDefinition,
    version: str,
    path: tuple[str, ...],
) -> None:
    target = resolve_target(ALL, argument, api_version=api_version)
    assert target.crd is crd
    assert target.version == version
    assert target.path == path


@pytest.mark.parametrize(
    ("argument", "api_version", "error", "message"),
    [
        (
            "nothere",
            None,
            ResourceNotFoundError,
            'the server doesn\'t have a resource type "nothere"',
        ),
        ("gateways.spec", None, AmbiguousResourceError, "the server has multiple resources"),
        (
            "crontabs",
            "stable.example.com/v9",
            VersionNotFoundError,
            'couldn\'t find resource for "stable.example.com/v9, Resource=crontabs"',
        ),
        # a version that exists but is not served has no OpenAPI document either
        (
            "crontabs",
            "stable.example.com/v1alpha1",
            VersionNotFoundError,
            'couldn\'t find resource for "stable.example.com/v1alpha1, Resource=crontabs"',
        ),
        (
            "crontabs",
            "v1",
            VersionNotFoundError,
            "GVR (/v1, Resource=crontabs) not found in OpenAPI schema",
        ),
        ("crontabs.spec.nope.deeper", None, FieldNotFoundError, 'field "deeper" does not exist'),
    ],
)
def test_errors(
    argument: str, api_version: str | None, error: type[KubectlCrdError], message: str
) -> None:
    with pytest.raises(error) as excinfo:
        resolve_target(ALL, argument, api_version=api_version)
    assert str(excinfo.value).startswith(message)
    assert excinfo.value.exit_code == 1


@pytest.mark.parametrize(
    ("argument", "hint"),
    [
        ("crontabs.spec.replica", '"spec" has no field "replica"; did you mean spec.replicas?'),
        ("crontabs.spec.zzz", '"spec" has no field "zzz"; its fields are: replicas'),
        ("crontabs.spek.replicas", '"CronTab" has no field "spek"; did you mean spec?'),
        ("crontabs.spec.replicas.x", '"spec.replicas" has no fields, so it has no field "x"'),
    ],
)
def test_unknown_field_hint_is_on_the_second_line(argument: str, hint: str) -> None:
    with pytest.raises(FieldNotFoundError) as excinfo:
        resolve_target([CRONTAB], argument)
    first, second = str(excinfo.value).split("\n")
    assert first.startswith('field "') and first.endswith('" does not exist')
    assert second == hint


def test_required_and_parent(widgets: CustomResourceDefinition) -> None:
    target = resolve_target([widgets], "widgets.spec.mode")
    assert target.field is not None and target.field.required
    assert target.parent_required == ("mode", "size")
    assert target.resolved["enum"] == ["Fast", "Slow", ""]
    assert not resolve_target([widgets], "widgets.spec.ratio").field.required  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("argument", "fragment"),
    [
        ("widgets.spec.raw", "is free-form (x-kubernetes-preserve-unknown-fields: true)"),
        ("widgets.spec.template", "also keeps fields that are not listed"),
        ("widgets.spec.template", "holds a complete Kubernetes object"),
        ("widgets.spec.replicas", "takes an integer or a string"),
        ("widgets.spec.empty", "declares no fields"),
    ],
)
def test_notes_explain_what_kubectl_cannot(
    argument: str, fragment: str, widgets: CustomResourceDefinition
) -> None:
    notes = resolve_target([widgets], argument).notes()
    assert any(fragment in note for note in notes), notes


@pytest.mark.parametrize(
    "argument", ["widgets", "widgets.spec", "widgets.spec.labels", "widgets.spec.mode"]
)
def test_no_notes_for_ordinary_fields(argument: str, widgets: CustomResourceDefinition) -> None:
    assert resolve_target([widgets], argument).notes() == []


def test_unknown_field_under_a_free_form_node_says_why(widgets: CustomResourceDefinition) -> None:
    with pytest.raises(FieldNotFoundError) as excinfo:
        resolve_target([widgets], "widgets.spec.raw.anything")
    assert "keeps unknown fields (x-kubernetes-preserve-unknown-fields)" in str(excinfo.value)
