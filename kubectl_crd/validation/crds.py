"""A CRD given as input, checked as the API server checks a CRD it is sent.

``apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go`` parts that
matter to a CRD's author, with the server's field paths and texts:

- every ``default`` valid against its own schema node (pruned first: a default with
  unknown fields is refused), in the words of schema validation at the default's path;
- the scale subresource's paths (``specReplicasPath`` under ``.spec``,
  ``statusReplicasPath`` under ``.status``, ``labelSelectorPath`` under either);
- printer columns' ``type`` and ``format``;
- CEL rules that do not type-check (``cel.typing``), or whose estimated cost is over
  the per-rule or per-CRD limit (``cel.cost``).

Where the server keeps one schema, one set of subresources or of printer columns for
all versions (they are the same in every version), it names ``spec.validation``,
``spec.subresources``, ``spec.additionalPrinterColumns``; otherwise
``spec.versions[i]...``. The structural-schema checks are ``model.structural``'s.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from kubectl_crd.model.govalues import bad_value, go_json
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.openapi import validate_schema
from kubectl_crd.validation.pruning import prune

#: (field, message, where in the CRD document)
CRDProblem = tuple[str, str, list[str | int]]

COLUMN_TYPES = ("boolean", "date", "integer", "number", "string")
COLUMN_FORMATS = ("byte", "date", "date-time", "double", "float", "int32", "int64", "password")


def crd_errors(crd: Mapping[str, Any]) -> list[CRDProblem]:
    spec = crd.get("spec")
    versions = spec.get("versions") if isinstance(spec, Mapping) else None
    if not isinstance(versions, list):
        return []
    problems: list[CRDProblem] = []
    schemas = list(
        _shared(
            versions, lambda v: (v.get("schema") or {}).get("openAPIV3Schema"), "spec.validation"
        )
    )
    for prefix, position, schema in schemas:
        root: list[str | int] = ["spec", "versions", position, "schema", "openAPIV3Schema"]
        if not prefix.startswith("spec.validation"):
            prefix += ".schema"
        problems += _defaults(f"{prefix}.openAPIV3Schema", root, schema)
        problems += _rules(f"{prefix}.openAPIV3Schema", root, schema)
    for prefix, position, subresources in _shared(
        versions, lambda v: v.get("subresources"), "spec"
    ):
        where: list[str | int] = ["spec", "versions", position, "subresources"]
        problems += _scale(f"{prefix}.subresources", where, subresources)
    for prefix, position, columns in _shared(
        versions, lambda v: v.get("additionalPrinterColumns"), "spec"
    ):
        where = ["spec", "versions", position, "additionalPrinterColumns"]
        problems += _columns(f"{prefix}.additionalPrinterColumns", where, columns)
    return problems


def structural_errors(crd: Mapping[str, Any]) -> list[CRDProblem]:
    """Every way the CRD's schemas are not structural, as the server names them (one
    error each; ``CustomResourceDefinition.from_object`` stops at the first)."""
    from kubectl_crd.model.structural import structural_schema_errors

    spec = crd.get("spec")
    versions = spec.get("versions") if isinstance(spec, Mapping) else None
    if not isinstance(versions, list):
        return []
    problems: list[CRDProblem] = []
    for prefix, position, schema in _shared(
        versions, lambda v: (v.get("schema") or {}).get("openAPIV3Schema"), "spec.validation"
    ):
        if not isinstance(schema, Mapping):
            continue
        if not prefix.startswith("spec.validation"):
            prefix += ".schema"
        where: list[str | int] = ["spec", "versions", position, "schema", "openAPIV3Schema"]
        for message in structural_schema_errors(schema, f"{prefix}.openAPIV3Schema"):
            problems.append((message.partition(": ")[0], message, where))
    return problems


def _rules(prefix: str, where: list[str | int], schema: Any) -> list[CRDProblem]:
    """The schema's CEL rules that do not compile, as the server words them."""
    from kubectl_crd.validation.cel.availability import engine_missing
    from kubectl_crd.validation.cel.tree import mentions_rules

    if engine_missing() or not isinstance(schema, Mapping) or not mentions_rules(schema):
        return []
    from kubectl_crd.validation.cel.typing import rule_json, rule_problems

    problems: list[CRDProblem] = []
    steps = {path: place for path, place, _ in _nodes(schema, "", [])}
    for problem in rule_problems(schema):
        if problem.index < 0:  # the schema's total cost
            problems.append((prefix, f"{prefix}: Forbidden: {problem.detail}", list(where)))
            continue
        field = (
            f"{prefix}{problem.schema_path}.x-kubernetes-validations[{problem.index}]"
            f".{problem.field}"
        )
        at = [*where, *steps.get(problem.schema_path, []), "x-kubernetes-validations"]
        at += [problem.index, problem.field]
        if problem.forbidden:
            problems.append((field, f"{field}: Forbidden: {problem.detail}", at))
            continue
        assert problem.rule is not None
        value = "true" if problem.field == "optionalOldSelf" else rule_json(problem.rule)
        problems.append((field, f"{field}: Invalid value: {value}: {problem.detail}", at))
    return problems


def _shared(versions: list[Any], part: Any, top: str) -> Iterator[tuple[str, int, Any]]:
    """Each version's ``part`` with the prefix the server names it by (``top`` when all
    versions have the same, as the internal CRD keeps one then)."""
    values = [part(v) if isinstance(v, Mapping) else None for v in versions]
    if not values or all(v is None for v in values):
        return
    if all(v == values[0] for v in values):
        yield top, 0, values[0]
        return
    for index, value in enumerate(values):
        if value is not None:
            yield f"spec.versions[{index}]", index, value


def _defaults(prefix: str, where: list[str | int], schema: Any) -> list[CRDProblem]:
    problems: list[CRDProblem] = []
    for path, steps, node in _nodes(schema, "", []):
        if "default" not in node or node["default"] is None:
            continue
        default = node["default"]
        field = f"{prefix}{path}.default"
        at = [*where, *steps, "default"]
        compiled = SchemaNode(node)
        pruned = copy.deepcopy(default)
        if prune(pruned, compiled):
            problems.append(
                (
                    field,
                    f"{field}: Invalid value: {go_json(default)}: must not have unknown fields",
                    at,
                )
            )
        for error_field, _reason, message, _chain in validate_schema(compiled, default):
            body = message[len(error_field) + 2 :]
            full = field if error_field == "<nil>" else f"{field}.{error_field}"
            problems.append((full, f"{full}: {body}", at))
    return problems


def _nodes(
    schema: Any, path: str, steps: list[str | int]
) -> Iterator[tuple[str, list[str | int], Mapping[str, Any]]]:
    """Every schema node in the server's order (properties sorted, as a Go map is
    walked here), with its path as the server prints it and its place in the document."""
    if not isinstance(schema, Mapping):
        return
    yield path, steps, schema
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for name in sorted(properties):
            yield from _nodes(
                properties[name], f"{path}.properties[{name}]", [*steps, "properties", name]
            )
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), Mapping):
            yield from _nodes(schema[key], f"{path}.{key}", [*steps, key])
    all_of = schema.get("allOf")
    if isinstance(all_of, list):
        for index, branch in enumerate(all_of):
            yield from _nodes(branch, f"{path}.allOf[{index}]", [*steps, "allOf", index])


def _scale(prefix: str, where: list[str | int], subresources: Any) -> list[CRDProblem]:
    scale = subresources.get("scale") if isinstance(subresources, Mapping) else None
    if not isinstance(scale, Mapping):
        return []
    problems: list[CRDProblem] = []
    rules = (
        ("specReplicasPath", (".spec",), "should be a json path under .spec"),
        ("statusReplicasPath", (".status",), "should be a json path under .status"),
        (
            "labelSelectorPath",
            (".spec", ".status"),
            "should be a json path under either .spec or .status",
        ),
    )
    for key, roots, text in rules:
        value = scale.get(key)
        if not isinstance(value, str) or not value:
            continue
        if not any(value == root or value.startswith(root + ".") for root in roots):
            field = f"{prefix}.scale.{key}"
            problems.append(
                (
                    field,
                    f"{field}: Invalid value: {bad_value(value)}: {text}",
                    [*where, "scale", key],
                )
            )
    return problems


def _columns(prefix: str, where: list[str | int], columns: Any) -> list[CRDProblem]:
    if not isinstance(columns, list):
        return []
    problems: list[CRDProblem] = []
    for index, column in enumerate(columns):
        if not isinstance(column, Mapping):
            continue
        kind = column.get("type")
        if isinstance(kind, str) and kind and kind not in COLUMN_TYPES:
            field = f"{prefix}[{index}].type"
            problems.append(
                (
                    field,
                    f"{field}: Invalid value: {bad_value(kind)}: must be one of {','.join(COLUMN_TYPES)}",
                    [*where, index, "type"],
                )
            )
        form = column.get("format")
        if isinstance(form, str) and form and form not in COLUMN_FORMATS:
            field = f"{prefix}[{index}].format"
            problems.append(
                (
                    field,
                    f"{field}: Invalid value: {bad_value(form)}: must be one of {','.join(COLUMN_FORMATS)}",
                    [*where, index, "format"],
                )
            )
    return problems
