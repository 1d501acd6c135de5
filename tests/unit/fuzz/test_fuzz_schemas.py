"""Fuzzing what reads CRDs and objects: schema walking and explain on generated
structural schemas, the JSONPath dialect, printer-column cells, validation and CEL on
generated objects.

Property: a result or a ``KubectlCrdError`` with a clear line; never another exception;
every call bounded (``bounds``: a deadline per example, a hard stop on a hang).
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kubectl_crd.model.columns import cell_text, plan_columns, row_cells
from kubectl_crd.model.crd import CustomResourceDefinition, PrinterColumn
from kubectl_crd.model.errors import KubectlCrdError
from kubectl_crd.model.explain.target import resolve_target
from kubectl_crd.model.jsonpath import JSONPath, JSONPathError, print_results
from kubectl_crd.output.explain import RENDERERS
from kubectl_crd.validation import validate_custom_resource
from tests.unit.fuzz.bounds import clear_error, fuzz_settings, tallied
from tests.unit.fuzz.strategies import (
    crds,
    json_values,
    jsonpath_templates,
    names,
    value_for,
)


def _paths(schema: Any, prefix: str = "") -> list[str]:
    """Every field path explain can be asked for in ``schema`` (bounded in number)."""
    found = [prefix]
    if isinstance(schema, dict):
        for key, child in (schema.get("properties") or {}).items():
            found += _paths(child, f"{prefix}.{key}")
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                found += _paths(schema[key], prefix)
    return found[:50]


def _crd(obj: dict[str, Any]) -> CustomResourceDefinition | None:
    try:
        return CustomResourceDefinition.from_object(obj)
    except KubectlCrdError as exc:
        clear_error(exc)
        return None


@fuzz_settings(deadline_seconds=5.0)
@given(crds(), st.data())
@tallied
def test_explain_walks_and_renders_generated_schemas(obj: dict[str, Any], data: Any) -> None:
    crd = _crd(obj)
    if crd is None:
        return
    schema = obj["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    path = data.draw(st.sampled_from(_paths(schema)) | names.map(lambda n: f".spec.{n}"))
    recursive = data.draw(st.booleans())
    try:
        target = resolve_target([crd], f"crontab{path}")
        for render in RENDERERS.values():
            text = render(target, SimpleNamespace(recursive=recursive, max_depth=0))
            assert isinstance(text, str) and text
        target.notes()
    except KubectlCrdError as exc:
        clear_error(exc)


@fuzz_settings()
@given(jsonpath_templates, json_values)
@tallied
def test_jsonpath_parses_and_evaluates_or_says_why(template: str, data: Any) -> None:
    try:
        path = JSONPath(template, allow_missing_keys=True)
    except JSONPathError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip(), str(exc)
        return
    try:
        results = path.find_results(data)
        for values in results:
            assert isinstance(print_results(values), str)
        path.first(data)
        path.execute(data)
    except JSONPathError as exc:
        assert str(exc).strip(), template


_TYPES = ["string", "integer", "number", "boolean", "date", "object", "array", "x"]


@fuzz_settings()
@given(
    st.lists(
        st.builds(
            PrinterColumn,
            name=names,
            type=st.sampled_from(_TYPES),
            json_path=jsonpath_templates | names.map(lambda n: f".spec.{n}"),
            format=st.sampled_from(["", "int32", "byte", "date-time", "password", "x"]),
            priority=st.integers(0, 2),
        ),
        max_size=4,
    ),
    json_values | st.fixed_dictionaries({"spec": json_values, "metadata": json_values}),
)
@tallied
def test_printer_columns_plan_and_format_any_object(columns: list[Any], obj: Any) -> None:
    try:
        plan = plan_columns(columns)
        cells = row_cells(plan, obj)
    except KubectlCrdError as exc:
        clear_error(exc)
        return
    for cell in cells:
        assert isinstance(cell_text(cell), str)


@fuzz_settings(deadline_seconds=5.0)
@given(crds(), st.data())
@tallied
def test_validation_and_cel_answer_for_generated_objects(obj: dict[str, Any], data: Any) -> None:
    crd = _crd(obj)
    if crd is None:
        return
    schema = obj["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]
    resource = {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": data.draw(
            st.fixed_dictionaries({"name": names}, optional={"labels": json_values}) | json_values
        ),
        "spec": data.draw(value_for(schema["spec"])),
        "status": data.draw(value_for(schema["status"])),
    }
    old = data.draw(st.none() | st.just(json.loads(json.dumps(resource))))
    result = validate_custom_resource(resource, crd, old=old)
    for error in result.errors:
        assert isinstance(error.message, str) and error.message.strip(), error
        assert "Traceback" not in error.message and "object has no attribute" not in error.message


def _slots(node: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in ``node``, at any depth."""
    found: list[tuple[Any, Any]] = []
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, dict):
            found += [(current, key) for key in current]
            pending += current.values()
        elif isinstance(current, list):
            found += [(current, index) for index in range(len(current))]
            pending += current
    return found


@st.composite
def mangled_crds(draw: st.DrawFn) -> dict[str, Any]:
    """A generated CRD with some of its parts (at any depth) replaced by arbitrary JSON:
    what a file or a peer that is no API server can hold."""
    obj: dict[str, Any] = json.loads(json.dumps(draw(crds())))
    for _ in range(draw(st.integers(1, 4))):
        parents = _slots(obj)
        if not parents:
            break
        parent, key = draw(st.sampled_from(parents))
        parent[key] = draw(json_values)
    return obj


@fuzz_settings(deadline_seconds=5.0)
@given(mangled_crds())
@tallied
def test_mangled_crds_are_read_checked_and_explained_or_refused(obj: dict[str, Any]) -> None:
    from kubectl_crd.validation.crds import crd_errors

    for problem in crd_errors(obj):
        field, message, _ = problem
        assert isinstance(field, str) and isinstance(message, str) and message.strip()
    crd = _crd(obj)
    if crd is None:
        return
    try:
        target = resolve_target([crd], "crontab.spec")
        for render in RENDERERS.values():
            render(target, SimpleNamespace(recursive=True, max_depth=0))
    except KubectlCrdError as exc:
        clear_error(exc)
    result = validate_custom_resource(
        {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "a"}},
        crd,
    )
    assert all(error.message.strip() for error in result.errors)
