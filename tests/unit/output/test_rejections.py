"""One wording for a rejected object, whichever command reports it."""

from __future__ import annotations

import pytest

from kubectl_crd.model.errors import Location
from kubectl_crd.output.validation import problem_lines, rejection_line
from kubectl_crd.validation.documents import DocumentResult
from kubectl_crd.validation.results import FieldError

AT = Location("bad.yaml", 4, 3)
REPLICAS = FieldError(
    "spec.replicas",
    "FieldValueInvalid",
    "spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10",
    "schema",
    Location("bad.yaml", 8, 13),
)


def invalid(*errors: FieldError, kind: str = "CronTab", name: str = "broken") -> DocumentResult:
    return DocumentResult("bad.yaml", 0, AT, "invalid", kind=kind, name=name, errors=errors)


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (
            REPLICAS,
            'bad.yaml:8:13: error: The CronTab "broken" is invalid: spec.replicas: Invalid '
            "value: 50: spec.replicas in body should be less than or equal to 10",
        ),
        (
            # no place of its own: the document's
            FieldError("<nil>", "FieldValueRequired", "spec: Required value", "schema"),
            'bad.yaml:4:3: error: The CronTab "broken" is invalid: spec: Required value',
        ),
        (
            FieldError("spec", "FieldValueInvalid", "spec: Invalid value: m", "cel", blocked=True),
            'bad.yaml:4:3: error: The CronTab "broken" is invalid: spec: Invalid value: m '
            "(reported once the errors before it are fixed)",
        ),
        (
            FieldError("spec", "FieldValueInvalid", "spec: x", "cel", transition=True),
            'bad.yaml:4:3: error: The CronTab "broken" is invalid: spec: x (transition rule)',
        ),
    ],
)
def test_each_error_of_an_invalid_object_is_a_line_at_its_node(
    error: FieldError, line: str
) -> None:
    assert problem_lines(invalid(error)) == [line]


def test_several_errors_are_several_lines() -> None:
    other = FieldError("spec.x", "FieldValueRequired", "spec.x: Required value", "schema")
    assert problem_lines(invalid(REPLICAS, other)) == [
        rejection_line(REPLICAS.location or AT, "CronTab", "broken", REPLICAS),
        'bad.yaml:4:3: error: The CronTab "broken" is invalid: spec.x: Required value',
    ]


def test_an_unnamed_object_is_quoted_empty_as_kubectl_quotes_it() -> None:
    (line,) = problem_lines(invalid(REPLICAS, name=""))
    assert 'error: The CronTab "" is invalid: spec.replicas' in line


def test_a_document_that_could_not_be_checked_is_one_line() -> None:
    result = DocumentResult(
        "bad.yaml", 0, AT, "error", kind="Foo", name="x", message="no CRD serves v1 Foo"
    )
    assert problem_lines(result) == ["bad.yaml:4:3: error: Foo/x: no CRD serves v1 Foo"]


def test_a_valid_document_has_no_problem_lines() -> None:
    assert problem_lines(DocumentResult("ok.yaml", 0, AT, "valid", kind="CronTab")) == []
