"""A CRD given as input, checked as the API server checks a CRD it is sent.

``apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go`` parts that
matter to a CRD's author, with the server's field paths and texts:

- every ``default`` valid against its own schema node (pruned first: a default with
  unknown fields is refused), in the words of schema validation at the default's path;
  an embedded resource's default decoded and checked as one, a default inside a
  resource's apiVersion, kind or metadata within the object it makes, and the node's
  rules run on it (a rule that does not type-check is a "rule compile error" there);
- the scale subresource's paths (``specReplicasPath`` under ``.spec``,
  ``statusReplicasPath`` under ``.status``, ``labelSelectorPath`` under either);
- printer columns' ``type`` and ``format``;
- CEL rules that do not type-check (``cel.typing``), or whose estimated cost is over
  the per-rule or per-CRD limit (``cel.cost``);
- the OpenAPI checks of each schema node (list and map types and keys, keywords that
  are not supported, the fields of each rule, regular expressions).

``crd_warnings``: what the server warns of when it accepts the CRD (formats it does
not know, ``strategy.go``).

In the server's order: a schema that cannot be converted to a structural one is said
to be so only when nothing else is wrong; defaults are checked only in a structural
schema, rules only when the defaults are right, and a node's rules only when no
schema error is at or below it.

Where the server keeps one schema, one set of subresources or of printer columns for
all versions (they are the same in every version), it names ``spec.validation``,
``spec.subresources``, ``spec.additionalPrinterColumns``; otherwise
``spec.versions[i]...``. The structural-schema checks are ``model.structural``'s.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from kubectl_crd.model.govalues import bad_value, go_json, go_quote
from kubectl_crd.model.schema import as_mapping
from kubectl_crd.validation.compiled import SchemaNode, SchemaTree
from kubectl_crd.validation.crd_spec import CRDProblem
from kubectl_crd.validation.fielderrors import unsupported
from kubectl_crd.validation.openapi import validate_schema
from kubectl_crd.validation.pruning import prune


def crd_errors(crd: Mapping[str, Any]) -> list[CRDProblem]:
    from kubectl_crd.validation.crd_spec import spec_errors

    problems: list[CRDProblem] = spec_errors(crd)
    spec = crd.get("spec")
    versions = spec.get("versions") if isinstance(spec, Mapping) else None
    if not isinstance(versions, list):
        return problems
    schemas = list(
        _shared(
            versions,
            lambda v: as_mapping(v.get("schema")).get("openAPIV3Schema"),
            "spec.validation",
        )
    )
    for prefix, position, schema in schemas:
        root: list[str | int] = ["spec", "versions", position, "schema", "openAPIV3Schema"]
        if not prefix.startswith("spec.validation"):
            prefix += ".schema"
        if not isinstance(schema, Mapping):
            continue
        # a shared schema meets the check when any version has the status subresource
        status = [
            "status" in as_mapping(as_mapping(v).get("subresources"))
            for v in (versions if prefix.startswith("spec.validation") else [versions[position]])
        ]
        problems += _schema_errors(f"{prefix}.openAPIV3Schema", root, schema, any(status))
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
    return problems + _selectable_fields_placement(versions)


def _selectable_fields_placement(versions: list[Any]) -> list[CRDProblem]:
    """Selectable fields where the internal CRD cannot have them (``validation.go``):
    the versions' schemas and selectable fields move to the top level each when every
    version has the same; shared selectable fields need the shared schema, a version's
    own its own schema (so the same fields over different schemas, or different
    fields over one schema, are refused)."""
    schemas = [as_mapping(as_mapping(v).get("schema")).get("openAPIV3Schema") for v in versions]
    schema_shared = (
        bool(schemas) and schemas[0] is not None and all(s == schemas[0] for s in schemas)
    )
    problems: list[CRDProblem] = []
    for prefix, position, fields in _shared(
        versions, lambda v: v.get("selectableFields") or None, "spec"
    ):
        where: list[str | int] = ["spec", "versions", position, "selectableFields"]
        if prefix == "spec" and not schema_shared:
            problems.append(
                (
                    "spec.selectableFields",
                    'spec.selectableFields: Invalid value: "": may only be set when '
                    "validations.schema is included",
                    where,
                )
            )
        elif prefix != "spec" and (schema_shared or schemas[position] is None):
            field = f"{prefix}.selectableFields"
            problems.append(
                (
                    field,
                    f'{field}: Invalid value: "": may only be set when '
                    "`version.schema.openAPIV3Schema` is not included",
                    where,
                )
            )
        elif isinstance(fields, list) and not _conversion_error(schemas[position]):
            problems += _selectable_field_errors(
                f"{prefix}.selectableFields", where, fields, schemas[position]
            )
    return problems


#: validation.go: MaxSelectableFields
_MAX_SELECTABLE_FIELDS = 8


def _selectable_field_errors(
    field: str, where: list[str | int], fields: list[Any], schema: Any
) -> list[CRDProblem]:
    """``ValidateCustomResourceSelectableFields``: each jsonPath a path of the schema
    (``ValidFieldPath`` without ``['name']``), not in metadata, to a string, boolean
    or integer, named once; at most 8."""
    from kubectl_crd.validation.paths import resolve_field_path

    problems: list[CRDProblem] = []
    unique: set[str] = set()
    for index, item in enumerate(fields):
        at = f"{field}[{index}].jsonPath"
        spot: list[str | int] = [*where, index, "jsonPath"]
        path = as_mapping(item).get("jsonPath")
        if not isinstance(path, str) or not path:
            problems.append((at, f"{at}: Required value", spot))
            continue
        found = resolve_field_path(path, schema, brackets=False)
        if isinstance(found, str):
            message = f"{at}: Invalid value: {bad_value(path)}: is an invalid path: {found}"
            problems.append((at, message, spot))
            continue
        node, steps = found
        if steps and steps[0] == ("metadata", False):
            message = (
                f"{at}: Invalid value: {bad_value(path)}: must not point to fields in metadata"
            )
            problems.append((at, message, spot))
        if as_mapping(node).get("type") not in ("string", "boolean", "integer"):
            message = (
                f"{at}: Invalid value: {bad_value(path)}: must point to a field of type "
                "string, boolean or integer. Enum string fields and strings with formats "
                "are allowed."
            )
            problems.append((at, message, spot))
        # field.Path's text: a property dotted, an additionalProperties key in brackets
        key = "".join(f"[{name}]" if is_key else f".{name}" for name, is_key in steps)
        if key in unique:
            problems.append((at, f"{at}: Duplicate value: {bad_value(path)}", spot))
        else:
            unique.add(key)
    if len(unique) > _MAX_SELECTABLE_FIELDS:
        message = (
            f"{field}: Too many: {len(unique)}: must have at most {_MAX_SELECTABLE_FIELDS} items"
        )
        problems.append((field, message, where))
    return problems


def crd_warnings(crd: Mapping[str, Any]) -> list[str]:
    """The warnings the server sends with a CRD it accepts (``strategy.go:
    WarningsOnCreate``): ``unrecognized format "int64"`` for each format of a ``string``
    node that the default compatibility version does not know, each text once (the
    warning recorder drops repeats; the server walks properties in a Go map's order,
    so the order of several is its own)."""
    from kubectl_crd.validation.formats import kept_format

    found: list[str] = []

    def walk(node: Any) -> None:
        if not isinstance(node, Mapping):
            return
        name = str(node.get("format") or "")
        if node.get("type") == "string" and name and not kept_format(name):
            found.append(f"unrecognized format {go_quote(name)}")
        for child, _ in _subschemas(node, ""):
            walk(child)

    spec = as_mapping(crd.get("spec"))
    versions = spec.get("versions")
    for version in versions if isinstance(versions, list) else []:
        walk(as_mapping(as_mapping(version).get("schema")).get("openAPIV3Schema"))
    return list(dict.fromkeys(found))


def _structural(prefix: str, where: list[str | int], schema: Mapping[str, Any]) -> list[CRDProblem]:
    """Every way the schema is not structural, as the server names them (one error each;
    ``CustomResourceDefinition.from_object`` stops at the first)."""
    from kubectl_crd.model.structural import structural_schema_errors

    return [
        (message.partition(": ")[0], message, where)
        for message in structural_schema_errors(schema, prefix)
    ]


def _schema_errors(
    prefix: str, where: list[str | int], schema: Mapping[str, Any], status: bool = False
) -> list[CRDProblem]:
    """One version's schema checked in the server's order (``validation.go``): a schema
    that cannot be converted is said to be so only when nothing else is wrong; else
    the structural checks, then (when those pass) its defaults, then (when those
    pass) its rules; the OpenAPI checks in every case."""
    found = _openapi_errors(prefix, where, schema)
    openapi = [(f, m, w) for f, m, w, _ in found]
    if schema.get("nullable") is True:
        field = f"{prefix}.nullable"
        openapi.insert(
            0, (field, f"{field}: Forbidden: nullable cannot be true at the root", where)
        )
    root = _root_with_status(prefix, where, schema) if status else []
    openapi = root + openapi
    conversion = _conversion_error(schema)
    if conversion:
        return openapi or [(prefix, f'{prefix}: Invalid value: "": {conversion}', where)]
    structural = _structural(prefix, where, schema) + _pattern_errors(prefix, where, schema)
    if structural:
        return structural + openapi
    defaults = _defaults(prefix, where, schema)
    if defaults:
        return defaults + openapi
    return openapi + _rules(prefix, where, schema, {node for _, _, _, node in found})


#: the internal ``apiextensions.JSONSchemaProps``: each Go field in declared order, its
#: JSON key and how its value is kept (``_props_json``)
_PROPS = (
    ("ID", "id", "str"),
    ("Schema", "$schema", "str"),
    ("Ref", "$ref", "ptr"),
    ("Description", "description", "str"),
    ("Type", "type", "str"),
    ("Nullable", "nullable", "bool"),
    ("Format", "format", "str"),
    ("Title", "title", "str"),
    ("Default", "default", "ptr"),
    ("Maximum", "maximum", "float"),
    ("ExclusiveMaximum", "exclusiveMaximum", "bool"),
    ("Minimum", "minimum", "float"),
    ("ExclusiveMinimum", "exclusiveMinimum", "bool"),
    ("MaxLength", "maxLength", "ptr"),
    ("MinLength", "minLength", "ptr"),
    ("Pattern", "pattern", "str"),
    ("MaxItems", "maxItems", "ptr"),
    ("MinItems", "minItems", "ptr"),
    ("UniqueItems", "uniqueItems", "bool"),
    ("MultipleOf", "multipleOf", "float"),
    ("Enum", "enum", "ptr"),
    ("MaxProperties", "maxProperties", "ptr"),
    ("MinProperties", "minProperties", "ptr"),
    ("Required", "required", "ptr"),
    ("Items", "items", "items"),
    ("AllOf", "allOf", "schemas"),
    ("OneOf", "oneOf", "schemas"),
    ("AnyOf", "anyOf", "schemas"),
    ("Not", "not", "schema"),
    ("Properties", "properties", "map"),
    ("AdditionalProperties", "additionalProperties", "or_bool"),
    ("PatternProperties", "patternProperties", "map"),
    ("Dependencies", "dependencies", "dependencies"),
    ("AdditionalItems", "additionalItems", "or_bool"),
    ("Definitions", "definitions", "map"),
    ("ExternalDocs", "externalDocs", "docs"),
    ("Example", "example", "ptr"),
    ("XPreserveUnknownFields", "x-kubernetes-preserve-unknown-fields", "ptr"),
    ("XEmbeddedResource", "x-kubernetes-embedded-resource", "bool"),
    ("XIntOrString", "x-kubernetes-int-or-string", "bool"),
    ("XListMapKeys", "x-kubernetes-list-map-keys", "ptr"),
    ("XListType", "x-kubernetes-list-type", "ptr"),
    ("XMapType", "x-kubernetes-map-type", "ptr"),
    ("XValidations", "x-kubernetes-validations", "rules"),
)
#: validation.go: allowedFieldsAtRootSchema (a root schema with a status subresource)
_ALLOWED_AT_ROOT = (
    "Description", "Type", "Format", "Title", "Maximum", "ExclusiveMaximum", "Minimum",
    "ExclusiveMinimum", "MaxLength", "MinLength", "Pattern", "MaxItems", "MinItems",
    "UniqueItems", "MultipleOf", "Required", "Items", "Properties", "ExternalDocs",
    "Example", "XPreserveUnknownFields", "XValidations",
)  # fmt: skip


def _root_with_status(
    prefix: str, where: list[str | int], schema: Mapping[str, Any]
) -> list[CRDProblem]:
    """With the status subresource, the root schema may say only what survives taking
    ``properties[status]`` out (``validateCustomResourceDefinitionValidation``): its
    first field (in the Go struct's order) that is set and not allowed is refused, with
    the whole schema printed as Go marshals the internal struct."""
    for name, key, kind in _PROPS:
        value = schema.get(key)
        unset = (
            value is None
            or (kind == "str" and value == "")
            or (kind == "bool" and value is not True)
        )
        if unset:
            continue
        if name == "Type":
            if value != "object":
                field = f"{prefix}.type"
                return [
                    (
                        field,
                        f'{field}: Invalid value: {bad_value(value)}: only "object" is '
                        "allowed as the type at the root of the schema if the status "
                        "subresource is enabled",
                        where,
                    )
                ]
            continue
        if name not in _ALLOWED_AT_ROOT:
            allowed = " ".join(_ALLOWED_AT_ROOT)
            return [
                (
                    prefix,
                    f"{prefix}: Invalid value: {_props_json(schema)}: only [{allowed}] fields "
                    "are allowed at the root of the schema if the status subresource is enabled",
                    where,
                )
            ]
    return []


def _props_json(node: Any) -> str:
    """``json.Marshal`` of the internal ``JSONSchemaProps`` ``node`` converts to: Go's
    field names in declared order, unset fields as their zero values."""
    from kubectl_crd.model.govalues import go_json_float
    from kubectl_crd.validation.cel.tree import node_rules, rule_json

    node = as_mapping(node)
    parts = []
    for name, key, kind in _PROPS:
        value = node.get(key)
        if kind == "str":
            text = go_json(value if isinstance(value, str) else "")
        elif kind == "bool":
            text = "true" if value is True else "false"
        elif value is None:
            text = "null"
        elif kind == "float":
            text = go_json_float(float(value)) if isinstance(value, int | float) else go_json(value)
        elif kind == "items":
            text = (
                f'{{"Schema":null,"JSONSchemas":[{",".join(_props_json(v) for v in value)}]}}'
                if isinstance(value, list)
                else f'{{"Schema":{_props_json(value)},"JSONSchemas":null}}'
            )
        elif kind == "schemas":
            text = (
                f"[{','.join(_props_json(v) for v in value)}]"
                if isinstance(value, list)
                else "null"
            )
        elif kind == "schema":
            text = _props_json(value)
        elif kind == "map":
            text = (
                "{"
                + ",".join(f"{go_json(str(k))}:{_props_json(value[k])}" for k in sorted(value))
                + "}"
                if isinstance(value, Mapping)
                else "null"
            )
        elif kind == "or_bool":
            text = (
                f'{{"Allows":{"true" if value is True else "false"},"Schema":null}}'
                if isinstance(value, bool)
                else f'{{"Allows":true,"Schema":{_props_json(value)}}}'
            )
        elif kind == "dependencies":
            text = (
                "{"
                + ",".join(
                    f"{go_json(str(k))}:"
                    + (
                        f'{{"Schema":null,"Property":{go_json(v)}}}'
                        if isinstance(v, list)
                        else f'{{"Schema":{_props_json(v)},"Property":null}}'
                    )
                    for k, v in sorted(as_mapping(value).items())
                )
                + "}"
            )
        elif kind == "docs":
            docs = as_mapping(value)
            text = (
                f'{{"Description":{go_json(str(docs.get("description") or ""))},'
                f'"URL":{go_json(str(docs.get("url") or ""))}}}'
            )
        elif kind == "rules":
            text = f"[{','.join(rule_json(rule) for rule in node_rules(node))}]"
        else:  # a pointer to (or a slice of) decoded JSON
            text = go_json(value)
        parts.append(f'"{name}":{text}')
    return "{" + ",".join(parts) + "}"


# structuralschema.NewStructural refuses these (convert.go), first found first
_NOT_CONVERTED = (
    ("id", "OpenAPIV3Schema 'id' is not supported"),
    ("$ref", "OpenAPIV3Schema '$ref' is not supported"),
    ("patternProperties", "OpenAPIV3Schema 'patternProperties' is not supported"),
    ("dependencies", "OpenAPIV3Schema 'dependencies' is not supported"),
    ("additionalItems", "OpenAPIV3Schema 'additionalItems' is not supported"),
    ("definitions", "OpenAPIV3Schema 'definitions' is not supported"),
)


def _conversion_error(node: Any) -> str:
    """Why the schema cannot be converted to a structural one, or ""."""
    if not isinstance(node, Mapping):
        return ""
    if node.get("x-kubernetes-preserve-unknown-fields") is False:
        return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
    for key, words in _NOT_CONVERTED:
        if node.get(key) not in (None, "", {}, []):
            return words
    if isinstance(node.get("items"), list):
        return "OpenAPIV3Schema 'items' must be a schema, but is an array"
    for child, _ in _subschemas(node, ""):
        found = _conversion_error(child)
        if found:
            return found
    return ""


def _subschemas(node: Mapping[str, Any], path: str) -> Iterator[tuple[Any, str]]:
    """The schemas inside ``node`` (properties by name, items, additionalProperties,
    not, allOf, anyOf, oneOf) with the paths the server prints."""
    properties = node.get("properties")
    for name, child in sorted((properties if isinstance(properties, Mapping) else {}).items()):
        yield child, f"{path}.properties[{name}]"
    for key in ("items", "additionalProperties", "not"):
        yield node.get(key), f"{path}.{key}"
    for junctor in ("allOf", "anyOf", "oneOf"):
        branches = node.get(junctor)
        for index, branch in enumerate(branches if isinstance(branches, list) else []):
            yield branch, f"{path}.{junctor}[{index}]"


def _pattern_errors(
    prefix: str, where: list[str | int], node: Any, path: str = ""
) -> list[CRDProblem]:
    """``ValidateStructural``: every ``pattern`` a Go regular expression."""
    if not isinstance(node, Mapping):
        return []
    from kubectl_crd.validation.regexps import error as regexp_error
    from kubectl_crd.validation.regexps import go_error_text, go_regexp

    found: list[CRDProblem] = []
    pattern = node.get("pattern")
    if isinstance(pattern, str) and pattern:
        try:
            go_regexp(pattern)
        except regexp_error as exc:
            field = f"{prefix}{path}.pattern"
            message = (
                f"{field}: Invalid value: {bad_value(pattern)}: must be a valid regular "
                f"expression, but isn't: {go_error_text(exc)}"
            )
            found.append((field, message, where))
    for child, child_path in _subschemas(node, path):
        found += _pattern_errors(prefix, where, child, child_path)
    return found


def _rules(prefix: str, where: list[str | int], schema: Any, blocked: set[str]) -> list[CRDProblem]:
    """The schema's CEL rules that do not compile or cost too much, as the server words
    them; not those at or above a node with a schema error (``blocked``: the server
    compiles a node's rules only when its subtree has none)."""
    from kubectl_crd.validation.cel.availability import engine_missing
    from kubectl_crd.validation.cel.tree import mentions_rules

    if engine_missing() or not isinstance(schema, Mapping) or not mentions_rules(schema):
        return []
    from kubectl_crd.validation.cel.tree import rule_json
    from kubectl_crd.validation.cel.typing import rule_problems

    def skipped(path: str) -> bool:
        return any(node == path or node.startswith(path + ".") for node in blocked)

    problems: list[CRDProblem] = []
    steps = {path: place for path, place, _ in _nodes(schema, "", [])}
    for problem in rule_problems(schema, skipped if blocked else None):
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
        if problem.within is not None:  # the rule's text alone is the value here
            detail = f"{problem.detail} {prefix}{problem.within}"
            value = bad_value(problem.rule.rule)
            problems.append((field, f"{field}: Invalid value: {value}: {detail}", at))
            continue
        value = "true" if problem.field == "optionalOldSelf" else rule_json(problem.rule)
        problems.append((field, f"{field}: Invalid value: {value}: {problem.detail}", at))
    return problems


#: (field, message, where in the document, the path of the node it is about)
_SchemaProblem = tuple[str, str, list[str | int], str]

_UNSUPPORTED = (
    ("id", "id is not supported"),
    ("additionalItems", "additionalItems is not supported"),
    ("patternProperties", "patternProperties is not supported"),
    ("definitions", "definitions is not supported"),
    ("dependencies", "dependencies is not supported"),
    ("$ref", "$ref is not supported"),
)
_OPENAPI_TYPES = ("array", "boolean", "integer", "number", "object", "string")
_META_FIELDS = ("apiVersion", "kind", "metadata")
_RULE_REASONS = (
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
)


def _openapi_errors(prefix: str, where: list[str | int], schema: Any) -> list[_SchemaProblem]:
    """``validation.go: ValidateCustomResourceDefinitionOpenAPISchema``'s schema errors."""
    problems: list[_SchemaProblem] = []
    _check_openapi(schema, "", [], prefix, where, problems, root=True)
    return problems


def _check_openapi(
    node: Any,
    path: str,
    steps: list[str | int],
    prefix: str,
    where: list[str | int],
    problems: list[_SchemaProblem],
    *,
    root: bool = False,
    in_meta: bool = False,  # in an apiVersion, kind or metadata of a resource
    no_defaults: str = "",  # why defaults are refused here ("in top-level metadata")
) -> None:
    if not isinstance(node, Mapping):
        return

    def add(child: str, body: str) -> None:
        field = f"{prefix}{path}{child}"
        problems.append((field, f"{field}: {body}", [*where, *steps], path))

    def walk(child: Any, at: str, at_steps: list[str | int], inner: bool, reason: str) -> None:
        _check_openapi(
            child, at, at_steps, prefix, where, problems, in_meta=inner, no_defaults=reason
        )

    schema_type = node.get("type")
    type_text = schema_type if isinstance(schema_type, str) else ""
    # specStandardValidatorV3.validate (what the conversion refuses is reported apart)
    if type_text and type_text not in _OPENAPI_TYPES:
        add(
            ".type",
            unsupported(type_text, _OPENAPI_TYPES),
        )
    if node.get("default") is not None and no_defaults:
        add(".default", f"Forbidden: must not be set {no_defaults}")
    for key, words in _UNSUPPORTED:
        if node.get(key) not in (None, "", {}, []):
            add(f".{key}", f"Forbidden: {words}")
    if type_text == "null":
        add(".type", "Forbidden: type cannot be set to null, use nullable as an alternative")
    if isinstance(node.get("items"), list) and node["items"]:
        add(".items", "Forbidden: items must be a schema object and not an array")
    if in_meta and node.get("x-kubernetes-embedded-resource") is True:
        add(
            ".x-kubernetes-embedded-resource", "Forbidden: must not be used inside of resource meta"
        )
    if node.get("uniqueItems") is True:
        add(
            ".uniqueItems",
            "Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        )
    # additionalProperties beside properties: model.structural reports it (no schema
    # can be walked with both)
    properties = node.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    additional = node.get("additionalProperties")
    if isinstance(additional, Mapping):
        reason = "inside additionalProperties applying to object metadata" if in_meta else ""
        walk(
            additional,
            f"{path}.additionalProperties",
            [*steps, "additionalProperties"],
            in_meta,
            reason or no_defaults,
        )
    for name in sorted(properties):
        inner, reason = in_meta, no_defaults
        if (root or node.get("x-kubernetes-embedded-resource") is True) and name in _META_FIELDS:
            inner = True
            reason = f"in top-level {name}" if root else reason
        walk(
            properties[name],
            f"{path}.properties[{name}]",
            [*steps, "properties", name],
            inner,
            reason,
        )
    for junctor in ("not", "allOf", "oneOf", "anyOf"):
        value = node.get(junctor)
        branches = (
            [value] if isinstance(value, Mapping) else value if isinstance(value, list) else []
        )
        for index, branch in enumerate(branches):
            if junctor == "not":
                walk(branch, f"{path}.not", [*steps, "not"], in_meta, no_defaults)
            else:
                walk(
                    branch,
                    f"{path}.{junctor}[{index}]",
                    [*steps, junctor, index],
                    in_meta,
                    no_defaults,
                )
    items = node.get("items")
    item_schema = items if isinstance(items, Mapping) else None
    if item_schema is not None:
        walk(item_schema, f"{path}.items", [*steps, "items"], in_meta, no_defaults)
    if node.get("x-kubernetes-preserve-unknown-fields") is False:
        add(
            ".x-kubernetes-preserve-unknown-fields",
            "Invalid value: false: must be true or undefined",
        )
    map_type = node.get("x-kubernetes-map-type")
    if map_type is not None:
        if type_text != "object":
            if not type_text:
                add(".type", "Required value: must be object if x-kubernetes-map-type is specified")
            else:
                add(
                    ".type",
                    f"Invalid value: {bad_value(type_text)}: must be object if x-kubernetes-map-type is specified",
                )
        if map_type not in ("atomic", "granular"):
            add(
                ".x-kubernetes-map-type",
                unsupported(map_type, ("atomic", "granular")),
            )
    list_type = node.get("x-kubernetes-list-type")
    if list_type is not None and type_text != "array":
        if not type_text:
            add(".type", "Required value: must be array if x-kubernetes-list-type is specified")
        else:
            add(
                ".type",
                f"Invalid value: {bad_value(type_text)}: must be array if x-kubernetes-list-type is specified",
            )
    elif list_type == "set" and item_schema is not None:
        item_type = item_schema.get("type")
        if item_type == "array":
            inner_list = item_schema.get("x-kubernetes-list-type")
            if inner_list is not None and inner_list != "atomic":
                add(
                    ".items.x-kubernetes-list-type",
                    f"Invalid value: {bad_value(inner_list)}: must be atomic as item of a list with x-kubernetes-list-type=set",
                )
        elif item_type == "object" and item_schema.get("x-kubernetes-map-type") != "atomic":
            # the server shows the items' list type here, which an object has not: null
            shown = go_json(item_schema.get("x-kubernetes-list-type"))
            add(
                ".items.x-kubernetes-map-type",
                f"Invalid value: {shown}: must be atomic as item of a list with x-kubernetes-list-type=set",
            )
    if list_type is not None and list_type not in ("atomic", "set", "map"):
        add(
            ".x-kubernetes-list-type",
            unsupported(list_type, ("atomic", "set", "map")),
        )
    _check_list_map_keys(node, list_type, item_schema, add)
    _check_rule_fields(node, add)


def _check_list_map_keys(
    node: Mapping[str, Any], list_type: Any, item_schema: Any, add: Any
) -> None:
    """The keys of a ``map`` list (``validation.go``, ``validateMapListKeysMapSet``)."""
    keys = node.get("x-kubernetes-list-map-keys")
    keys = [str(k) for k in keys] if isinstance(keys, list) else []
    if keys:
        if list_type is None:
            add(
                ".x-kubernetes-list-type",
                "Required value: must be map if x-kubernetes-list-map-keys is non-empty",
            )
        elif list_type != "map":
            add(
                ".x-kubernetes-list-type",
                f"Invalid value: {bad_value(list_type)}: must be map if x-kubernetes-list-map-keys is non-empty",
            )
    item_properties = as_mapping(item_schema.get("properties")) if item_schema is not None else {}
    if list_type == "map":
        if not keys:
            add(
                ".x-kubernetes-list-map-keys",
                "Required value: must not be empty if x-kubernetes-list-type is map",
            )
        if node.get("items") is None:
            add(".items", "Required value: must have a schema if x-kubernetes-list-type is map")
        if item_schema is not None and item_schema.get("type") != "object":
            shown = bad_value(str(item_schema.get("type") or ""))
            add(
                ".items.type",
                f"Invalid value: {shown}: must be object if parent array's x-kubernetes-list-type is map",
            )
        if item_schema is not None and item_schema.get("type") == "object":
            seen: set[str] = set()
            for key in keys:
                if key in item_properties:
                    if as_mapping(item_properties[key]).get("type") in ("array", "object"):
                        add(
                            f".items.properties[{key}].type",
                            'Invalid value: "object": must be a scalar type if parent array\'s x-kubernetes-list-type is map',
                        )
                else:
                    add(
                        ".x-kubernetes-list-map-keys",
                        f"Invalid value: {go_json(keys)}: entries must all be names of item properties",
                    )
                if key in seen:
                    add(
                        ".x-kubernetes-list-map-keys",
                        f"Invalid value: {go_json(keys)}: must not contain duplicate entries",
                    )
                seen.add(key)
    if item_schema is None or list_type not in ("set", "map"):
        return
    if item_schema.get("nullable") is True:
        add(
            ".items.nullable",
            f"Forbidden: cannot be nullable when x-kubernetes-list-type is {list_type}",
        )
    if list_type == "map":
        required = item_schema.get("required") or []
        for key in keys:
            key_schema = item_properties.get(key)
            if not isinstance(key_schema, Mapping):
                continue
            if key not in required and key_schema.get("default") is None:
                add(
                    f".items.properties[{key}].default",
                    "Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
                )
            if key_schema.get("nullable") is True:
                add(
                    f".items.properties[{key}].nullable",
                    "Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
                )


def _check_rule_fields(node: Mapping[str, Any], add: Any) -> None:
    """The fields of each ``x-kubernetes-validations`` entry, before any is compiled."""
    rules = node.get("x-kubernetes-validations")
    if not isinstance(rules, list):
        return
    for index, rule in enumerate(rules):
        if not isinstance(rule, Mapping):
            continue
        at = f".x-kubernetes-validations[{index}]"
        text = str(rule.get("rule") or "")
        message = str(rule.get("message") or "")
        if not text.strip():
            add(f"{at}.rule", "Required value: rule is not specified")
        elif message and not message.strip():
            add(
                f"{at}.message",
                f"Invalid value: {bad_value(message)}: must be non-empty if specified",
            )
        elif _has_newlines(message.strip()):
            add(
                f"{at}.message",
                f"Invalid value: {bad_value(message)}: must not contain line breaks",
            )
        elif _has_newlines(text.strip()) and not message.strip():
            add(
                f"{at}.message",
                "Required value: message must be specified if rule contains line breaks",
            )
        expression = str(rule.get("messageExpression") or "")
        if expression and not expression.strip():
            add(
                f"{at}.messageExpression",
                "Required value: messageExpression must be non-empty if specified",
            )
        reason = rule.get("reason")
        if reason is not None and reason not in _RULE_REASONS:
            add(
                f"{at}.reason",
                unsupported(reason, _RULE_REASONS, named=True),  # *FieldValueErrorReason
            )
        field_path = rule.get("fieldPath")
        if isinstance(field_path, str) and field_path:
            if not field_path.strip():
                add(
                    f"{at}.fieldPath",
                    f"Invalid value: {bad_value(field_path)}: must be non-empty if specified",
                )
            if _has_newlines(field_path):
                add(
                    f"{at}.fieldPath",
                    f"Invalid value: {bad_value(field_path)}: must not contain line breaks",
                )
            if not _field_path_valid(node, field_path):
                add(
                    f"{at}.fieldPath",
                    f"Invalid value: {bad_value(field_path)}: must be a valid path",
                )


def _field_path_valid(node: Mapping[str, Any], text: str) -> bool:
    """``ValidFieldPath``: each step a property where the node has properties, else a
    key of its additionalProperties map (a schema that cannot be converted passes)."""
    from kubectl_crd.validation.paths import resolve_field_path

    return bool(_conversion_error(node)) or not isinstance(resolve_field_path(text, node), str)


def _has_newlines(text: str) -> bool:
    return "\n" in text or "\r" in text


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
    """Each default against its node as the server's ``defaulting/validation.go`` checks
    it (properties and items only, never under ``additionalProperties``): pruning, then
    the first of decoding (an embedded resource's apiVersion and kind strings, its
    metadata an ObjectMeta), ObjectMeta's checks, the schema, the node's rules that
    finds anything. A default inside a resource's apiVersion, kind or metadata is
    checked within the object it makes (``validation/v1`` ``Validation`` around it):
    decoding and ObjectMeta errors then are one, "must result in valid metadata"."""
    from kubectl_crd.validation.objectmeta import embedded_coercion_error, validate_embedded

    problems: list[CRDProblem] = []
    for path, steps, node, meta in _defaulted(schema, "", [], schema, [], False):
        default = node["default"]
        field = f"{prefix}{path}.default"
        at = [*where, *steps, "default"]
        # ValidateDefaults checks the root as an embedded resource (apiVersion and
        # kind required in a default of it); its validator checks every format
        # kube-openapi registers, k8s-long-name included, where objects' formats are
        # stripped (defaulting/validation.go: NewSchemaValidatorFromOpenAPI)
        compiled = SchemaNode(
            {**node, "x-kubernetes-embedded-resource": True} if not path else node,
            SchemaTree(registered_formats=True),
        )
        found: list[tuple[str, str]] = []
        if meta is None:
            pruned = copy.deepcopy(default)
            if prune(pruned, compiled):
                problems.append(
                    (
                        field,
                        f"{field}: Invalid value: {go_json(default)}: must not have unknown fields",
                        at,
                    )
                )
            coerced = embedded_coercion_error(compiled, default, include_root=True)
            if coerced is not None:
                found = [coerced[:2]]
            else:
                found = [
                    (f, m) for f, _, m, _ in validate_embedded(compiled, default, include_root=True)
                ]
        else:
            resource, around = meta
            surrounding: Any = copy.deepcopy(default)
            for step in reversed(around):
                surrounding = [surrounding] if step is None else {step: surrounding}
            surrounding = {"apiVersion": "validation/v1", "kind": "Validation", **surrounding}
            root = SchemaNode({**resource, "x-kubernetes-embedded-resource": True})
            coerced = embedded_coercion_error(root, surrounding, include_root=True)
            errors = (
                [coerced[1]]
                if coerced is not None
                else [m for _, _, m, _ in validate_embedded(root, surrounding, include_root=True)]
            )
            if errors:
                # utilerrors.NewAggregate's text: one error alone, several (repeats
                # dropped) in brackets
                unique = list(dict.fromkeys(errors))
                text = unique[0] if len(unique) == 1 else f"[{', '.join(unique)}]"
                problems.append(
                    (
                        field,
                        f"{field}: Invalid value: {bad_value(default)}: "
                        f"must result in valid metadata: {text}",
                        at,
                    )
                )
                continue
        # kube-openapi's errors name their field after a dot, even an index
        # (``default.[1]``); field paths join as paths do (``default[1].kind``)
        dotted = False
        if not found:
            found = [(f, m) for f, _reason, m, _chain in validate_schema(compiled, default)]
            dotted = True
        if not found and compiled.has_rules:
            found = [(e.field, e.message) for e in _rules_on_default(node, default)]
            dotted = False
        for error_field, message in found:
            body = message[len(error_field) + 2 :]
            if error_field == "<nil>":
                full = field
            elif error_field.startswith("[") and not dotted:
                full = f"{field}{error_field}"
            else:
                full = f"{field}.{error_field}"
            problems.append((full, f"{full}: {body}", at))
    return problems


#: where a default sits when it is inside a resource's apiVersion, kind or metadata: that
#: resource's schema, and the steps from it (a property's name, None for a list's item)
_Meta = tuple[Mapping[str, Any], list[str | None]]


def _defaulted(
    node: Any,
    path: str,
    steps: list[str | int],
    resource: Mapping[str, Any],
    around: list[str | None],
    inside_meta: bool,
) -> Iterator[tuple[str, list[str | int], Mapping[str, Any], _Meta | None]]:
    """The nodes with a default, in the order the server checks them (properties
    sorted, as a Go map is walked here), with their paths, places in the document and,
    inside a resource's meta fields, where in the resource they are."""
    if not isinstance(node, Mapping):
        return
    if node is resource or node.get("x-kubernetes-embedded-resource") is True:
        resource, around, inside_meta = node, [], False
    if node.get("default") is not None:
        yield path, steps, node, (resource, around) if inside_meta else None
    items = node.get("items")
    if isinstance(items, Mapping):
        yield from _defaulted(
            items, f"{path}.items", [*steps, "items"], resource, [*around, None], inside_meta
        )
    properties = as_mapping(node.get("properties"))
    for name in sorted(properties):
        yield from _defaulted(
            properties[name],
            f"{path}.properties[{name}]",
            [*steps, "properties", name],
            resource,
            [*around, name],
            inside_meta or (node is resource and name in _META_FIELDS),
        )


def _rules_on_default(node: Mapping[str, Any], default: Any) -> list[Any]:
    from kubectl_crd.validation.cel.availability import engine_missing

    if engine_missing():
        return []
    from kubectl_crd.validation.cel.rules import rules_on_default

    return list(rules_on_default(node, default).errors)


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
    # ValidateCustomResourceDefinitionSubresources: the replicas paths required, each
    # path a "simple json path" (validateSimpleJSONPath: it starts with a dot), then
    # under .spec. or .status. (so ".spec" alone is not)
    rules = (
        ("specReplicasPath", (".spec.",), "should be a json path under .spec", True),
        ("statusReplicasPath", (".status.",), "should be a json path under .status", True),
        (
            "labelSelectorPath",
            (".spec.", ".status."),
            "should be a json path under either .spec or .status",
            False,
        ),
    )
    for key, roots, text, required in rules:
        value = scale.get(key)
        field = f"{prefix}.scale.{key}"
        spot: list[str | int] = [*where, "scale", key]
        if not isinstance(value, str) or not value:
            if required:
                problems.append((field, f"{field}: Required value", spot))
            continue
        if not value.startswith("."):
            text = "must be a simple json path starting with ."
        elif value.startswith(roots):
            continue
        problems.append((field, f"{field}: Invalid value: {bad_value(value)}: {text}", spot))
    return problems


def _columns(prefix: str, where: list[str | int], columns: Any) -> list[CRDProblem]:
    from kubectl_crd.validation.crd_spec import column_errors

    if not isinstance(columns, list):
        return []
    problems: list[CRDProblem] = []
    for index, column in enumerate(columns):
        if isinstance(column, Mapping):
            problems += column_errors(f"{prefix}[{index}]", column, [*where, index])
    return problems
