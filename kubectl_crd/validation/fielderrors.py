"""A field's error as kube-apiserver words it: ``field.Error.Error()`` of
k8s.io/apimachinery ``pkg/util/validation/field/errors.go`` (``<field>: <type>: <value>:
<detail>``), each kind by its constructor (``field.Invalid``, ``field.Required``, ...).

Pure. A ``Cause`` is (field, reason, message), the message whole, as a 422's
``details.causes`` and its text carry it; ``unsupported`` is ``field.NotSupported``'s
text after the path, for callers that put the path in front themselves.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.model.govalues import bad_value
from kubectl_crd.validation.results import Reason

__all__ = [
    "Cause",
    "cause",
    "duplicate",
    "forbidden",
    "invalid_cause",
    "not_supported",
    "required",
    "unsupported",
]

Cause = tuple[str, str, str]


def cause(field: str, reason: str, body: str) -> Cause:
    return (field, reason, f"{field}: {body}")


def invalid_cause(field: str, value: Any, detail: str, *, named: bool = False) -> Cause:
    """``field.Invalid``: ``<field>: Invalid value: <value>: <detail>`` (``named``: see
    ``bad_value``)."""
    return cause(field, Reason.INVALID, f"Invalid value: {bad_value(value, named=named)}: {detail}")


def required(field: str) -> Cause:
    return cause(field, Reason.REQUIRED, "Required value")


def forbidden(field: str, detail: str) -> Cause:
    return cause(field, Reason.FORBIDDEN, f"Forbidden: {detail}")


def duplicate(field: str, value: Any, *, named: bool = False) -> Cause:
    return cause(field, Reason.DUPLICATE, f"Duplicate value: {bad_value(value, named=named)}")


def unsupported(value: Any, supported: tuple[str, ...], *, named: bool = False) -> str:
    """``field.NotSupported``'s text after the path (``named``: see ``bad_value``)."""
    listed = ", ".join(f'"{v}"' for v in supported)
    return f"Unsupported value: {bad_value(value, named=named)}: supported values: {listed}"


def not_supported(
    field: str, value: Any, supported: tuple[str, ...], *, named: bool = False
) -> Cause:
    return cause(field, Reason.NOT_SUPPORTED, unsupported(value, supported, named=named))
