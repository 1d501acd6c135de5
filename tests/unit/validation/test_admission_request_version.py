"""The URL's version against the body's: what ``Admission`` answers without a cluster.

The texts were recorded from kube-apiserver 1.34; the live comparison is
tests/integration/test_admission_version_differential.py. A case each: the request's
version is not the body's (400, after the body decoded), a body without a kind (quoted),
a patch that changed the apiVersion (422 after the kind's error), and no URL version at
all (the body's picks it, as kubectl picks it).
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.validation import Admission
from tests import crd_factory

GROUP = "unit.example.com"


def _admission() -> Admission:
    crd = crd_factory.make_crd("Widget", GROUP, versions=("v1", "v2", "v3"), served=("v1", "v2"))
    return Admission(CustomResourceDefinition.from_object(crd), clock=lambda: 0.0, uids=str)


def _body(api_version: str, kind: str = "Widget", **spec: Any) -> dict[str, Any]:
    return {"apiVersion": api_version, "kind": kind, "metadata": {"name": "w"}, "spec": spec}


@pytest.mark.parametrize(
    ("api_version", "url", "code", "message"),
    [
        (f"{GROUP}/v2", "v1", 400, f"the API version in the data ({GROUP}/v2) does not match "
         f"the expected API version ({GROUP}/v1)"),
        (f"{GROUP}/v3", "v2", 400, f"the API version in the data ({GROUP}/v3) does not match "
         f"the expected API version ({GROUP}/v2)"),
        ("/v2", "v1", 400, f"the API version in the data (v2) does not match the expected "
         f"API version ({GROUP}/v1)"),
        (f"{GROUP}/v1/x", "v1", 400, "the object provided is unrecognized (must be of type "
         f"Widget): unexpected GroupVersion string: {GROUP}/v1/x "
         '({"apiVersion":"unit.example.co ...)'),
        (f"{GROUP}/v9", "v1", 400, 'Widget in version "v9" cannot be handled as a Widget: '
         'strict decoding error: unknown field "spec"'),
        (f"{GROUP}/v2", "v2", 201, ""),
    ],
)  # fmt: skip
def test_create_in_the_url_version(api_version: str, url: str, code: int, message: str) -> None:
    result = _admission().create(_body(api_version, replicas=1), version=url)
    assert (result.code, result.message) == (code, message)
    if result.ok:
        assert result.response["apiVersion"] == f"{GROUP}/{url}"
        assert result.stored["apiVersion"] == f"{GROUP}/v1"  # the storage version


def test_a_body_without_a_kind_is_quoted() -> None:
    body = {"apiVersion": f"{GROUP}/v1", "metadata": {"name": "w"}}
    result = _admission().create(body, version="v1")
    assert result.code == 400
    assert result.message == (
        "the object provided is unrecognized (must be of type Widget): Object 'Kind' is "
        f'missing in \'{{"apiVersion":"{GROUP}/v1","metadata":{{"name":"w"}}}}\' '
        f'({{"apiVersion":"unit.example.co ...)'
    )


def test_an_update_names_the_url_version() -> None:
    admission = _admission()
    created = admission.create(_body(f"{GROUP}/v1"), version="v1")
    body = _body(f"{GROUP}/v2")
    body["metadata"]["resourceVersion"] = created.stored["metadata"]["resourceVersion"]
    refused = admission.update(body, created.stored, version="v1")
    assert (refused.code, refused.reason) == (400, "BadRequest")
    accepted = admission.update(body, created.stored, version="v2")
    assert accepted.code == 200
    assert accepted.response["apiVersion"] == f"{GROUP}/v2"


def test_a_patch_that_changes_the_api_version() -> None:
    admission = _admission()
    created = admission.create(_body(f"{GROUP}/v1"), version="v1")
    patched = admission.read(created.stored, "v1")
    patched["apiVersion"], patched["kind"] = f"{GROUP}/v2", "Gadget"
    result = admission.update(patched, created.stored, version="v1", patched=True)
    assert result.code == 422
    assert result.message == (
        f'Gadget.{GROUP} "w" is invalid: [kind: Invalid value: "Gadget": must be Widget, '
        f'apiVersion: Invalid value: "{GROUP}/v2": must be {GROUP}/v1]'
    )
    del patched["apiVersion"]
    result = admission.update(patched, created.stored, version="v1", patched=True)
    assert (result.code, result.reason) == (500, "InternalError")


def test_without_a_url_version_the_body_picks_it() -> None:
    result = _admission().create(_body(f"{GROUP}/v2"))
    assert result.code == 201
    assert result.response["apiVersion"] == f"{GROUP}/v2"
