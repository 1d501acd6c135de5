"""The size limits of a create (``validation.requestsize``), on numbers measured on
kube-apiserver 1.34 and etcd 3.6 (the differential is
tests/integration/test_request_size_differential.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation import Reason, Stage, validate_custom_resource
from kubectl_crd.validation.requestsize import body_size, may_be_too_big, storage_refusal
from tests.crd_factory import make_crd

GROUP = "size.example.com"


def _sized(size: int, name: str) -> dict[str, Any]:
    """The object the measurement posted: ``size`` bytes of compact JSON (no newline)."""
    obj = {
        "apiVersion": f"{GROUP}/v1",
        "kind": "Big",
        "metadata": {"name": name},
        "spec": {"data": ""},
    }
    obj["spec"]["data"] = "x" * (size - len(json.dumps(obj, separators=(",", ":"))))
    return obj


def _refusal(size: int, name: str, namespace: str = "default") -> str | None:
    return storage_refusal(
        _sized(size, name), group=GROUP, plural="bigs", namespaced=True, namespace=namespace
    )


_TOO_BIG = "rpc error: code = ResourceExhausted desc = trying to send message larger than max"


@pytest.mark.parametrize(
    ("size", "name", "namespace", "expected"),
    [
        (1572610, "bis1", "default", None),  # the largest body etcd stored with that name
        (1572611, "bis1", "default", "etcdserver: request is too large"),
        (1677721, "b5", "default", "etcdserver: request is too large"),
        (2097052, "g", "default", f"{_TOO_BIG} (2097285 vs. 2097152)"),
        (2097052, "b6", "default", f"{_TOO_BIG} (2097287 vs. 2097152)"),
        (2097052, "gggggggggg", "default", f"{_TOO_BIG} (2097303 vs. 2097152)"),
        (2097052, "g", "kube-system", f"{_TOO_BIG} (2097297 vs. 2097152)"),
        (2500000, "g", "default", f"{_TOO_BIG} (2500233 vs. 2097152)"),
    ],
)
def test_etcds_limits_as_measured(size: int, name: str, namespace: str, expected: str) -> None:
    assert _refusal(size, name, namespace) == expected


def test_body_size_is_gos_json_and_a_newline() -> None:
    """Counted on the C encoder's text, corrected where Go writes otherwise: HTML
    characters, line separators, floats."""
    rng = random.Random(7)
    chars = 'ab<>&\u2028\u2029\x01\n\t"\\\u00e9\u20ac\U0001f600\x7f\x08\x0c'
    floats = [1e21, 2.0, 1e-7, 0.5, 123456789.5, 1e16, -0.0, 1.5e-5, 3e300, float(2**60)]

    def value(depth: int = 0) -> Any:
        pick = rng.random()
        if depth < 4 and pick < 0.2:
            return {text(): value(depth + 1) for _ in range(rng.randint(0, 4))}
        if depth < 4 and pick < 0.35:
            return [value(depth + 1) for _ in range(rng.randint(0, 4))]
        if pick < 0.5:
            return rng.choice(floats)
        if pick < 0.6:
            return rng.choice([None, True, False, 0, -5, 2**62])
        return text()

    def text() -> str:
        return "".join(rng.choice(chars) for _ in range(rng.randint(0, 8)))

    for _ in range(2000):
        obj = {"a": value(), "b": value()}
        assert body_size(obj) == len(go_json(obj).encode()) + 1, obj


def test_the_size_is_looked_at_only_for_big_objects() -> None:
    assert not may_be_too_big(200_000)
    assert may_be_too_big(300_000)


_CRD = CustomResourceDefinition.from_object(
    make_crd("Big", GROUP, schema={
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"data": {"type": "string"}}}},
    })
)  # fmt: skip


def test_validate_reports_the_body_limit_first_and_blocks_the_rest() -> None:
    obj = _sized(int(3.1 * 1024 * 1024), "b")
    obj["spec"]["bogus"] = 1
    errors = validate_custom_resource(obj, _CRD).errors
    assert [(e.stage, e.reason, e.message, e.blocked) for e in errors] == [
        (Stage.REQUEST, Reason.REQUEST_ENTITY_TOO_LARGE,
         "Request entity too large: limit is 3145728", False),
        (Stage.DECODING, Reason.UNKNOWN_FIELD, 'unknown field "spec.bogus"', True),
    ]  # fmt: skip


def test_validate_reports_etcds_refusal_last_and_only_for_a_create() -> None:
    obj = _sized(int(1.6 * 1024 * 1024), "b")
    (error,) = validate_custom_resource(obj, _CRD).errors
    assert (error.reason, error.message, error.blocked) == (
        Reason.STORAGE_TOO_LARGE,
        "etcdserver: request is too large",
        False,
    )
    assert validate_custom_resource(obj, _CRD, old=_sized(100, "b")).errors == ()
    obj["spec"]["bogus"] = 1
    errors = validate_custom_resource(obj, _CRD).errors
    assert [(e.reason, e.blocked) for e in errors] == [
        (Reason.UNKNOWN_FIELD, False),
        (Reason.STORAGE_TOO_LARGE, True),
    ]
