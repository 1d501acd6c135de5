"""The OpenAPI schema stage: kube-openapi's validator, message for message.

Mirrors ``kube-openapi/pkg/validation/validate`` as the API server runs it on a
custom resource (``NewSchemaValidator(schema, nil, "", strfmt.Default)``): for each
node the type, junctor (allOf/anyOf/oneOf/not), string, format, number, array,
enum and object validators in that order, each only for the kinds of value it
applies to, so one value can fail several of them; errors with the same text are
reported once; a failed anyOf/oneOf adds the errors of its best branch, chosen by
kube-openapi's match count. ``kubeOpenAPIResultToFieldErrors``
(``apiextensions-apiserver/pkg/apiserver/validation/validation.go``) then turns each
into a field error: Required, NotSupported, TooLong, TooMany and TypeInvalid by code,
everything else Invalid, and errors without a path as ``<nil>: Invalid value: ""``.
"""

from __future__ import annotations

import math
from typing import Any

from kubectl_crd.model.govalues import bad_value, go_json, go_quote, go_v
from kubectl_crd.validation import paths
from kubectl_crd.validation.compiled import SchemaNode
from kubectl_crd.validation.paths import Chain
from kubectl_crd.validation.results import Reason

# kube-openapi error codes that kubeOpenAPIResultToFieldErrors maps specially
_TYPE = 1
_REQUIRED = 2
_TOO_LONG = 3
_ENUM = 4
_MAX_ITEMS = 5
_TOO_MANY_PROPERTIES = 6
_OTHER = 7  # any other *errors.Validation: Invalid with its value
_PLAIN = 8  # not a *errors.Validation: Invalid at <nil> with ""

# (code, name, value, valid, message, chain of the node for its location)
Problem = tuple[int, str, Any, Any, str, Chain]

_MAX_JSON_INT = float(1 << 53)


#: ``_kind`` of the plain decoded types, looked up before the isinstance chain
_KINDS = {
    bool: "boolean",
    str: "string",
    int: "integer",
    float: "number",
    list: "array",
    dict: "object",
}


def _kind(value: Any) -> str:
    """kube-openapi's schemaInfoForType name for a decoded JSON value."""
    known = _KINDS.get(type(value))
    if known is not None:
        return known
    if value is True or value is False:
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return ""


def _is_json_integer(value: float) -> bool:
    # swag.IsFloat64AJSONInteger
    if math.isnan(value) or math.isinf(value) or abs(value) > _MAX_JSON_INT:
        return False
    if value == math.trunc(value):
        return True
    truncated = float(math.trunc(value))
    diff = abs(value - truncated)
    return diff / (abs(value) + abs(truncated)) < 1e-9


def _type_message(name: str, type_name: str, value: Any) -> str:
    # errors.InvalidType with in="body": typeFailWithData for string values
    if isinstance(value, str):
        return f"{name} in body must be of type {type_name}: {go_quote(value)}"
    return f"{name} in body must be of type {type_name}"


def _enum_matches(data: Any, allowed: Any) -> bool:
    """reflect ConvertibleTo + DeepEqual between the value and one enum member."""
    data_bool = data is True or data is False
    allowed_bool = allowed is True or allowed is False
    if data_bool or allowed_bool:
        return data_bool and allowed_bool and data == allowed
    if isinstance(allowed, str):
        if isinstance(data, str):
            return data == allowed
        if isinstance(data, int):  # Go converts an integer to a string as a rune
            return 0 <= data <= 0x10FFFF and chr(data) == allowed
        return False
    if isinstance(allowed, int | float):
        if isinstance(data, int | float):
            if isinstance(allowed, int) and isinstance(data, float):
                return not math.isnan(data) and int(data) == allowed
            return float(data) == float(allowed)
        return False
    if isinstance(allowed, dict):
        return isinstance(data, dict) and _deep_equal(dict(data), allowed)
    if isinstance(allowed, list):
        return isinstance(data, list) and _deep_equal(list(data), allowed)
    return False


def _deep_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_deep_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_deep_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return type(a) is type(b) and a == b
    return type(a) is type(b) and bool(a == b)


def _add(problems: list[Problem], problem: Problem) -> None:
    problems.append(problem)


def validate_node(node: SchemaNode, data: Any, chain: Chain, problems: list[Problem]) -> int:
    """Validate ``data`` against ``node``; append problems; return kube-openapi's match count."""
    if data is None:
        # SchemaValidator.Validate(nil) runs only the type and enum validators; the
        # type validator counts one match unless it fails, enum never matches null.
        count = 1
        if node.types and "null" not in node.types and not node.nullable:
            name = paths.dotted(chain)
            message = _type_message(name, node.type_text, "null")
            _add(problems, (_TYPE, name, "null", None, message, chain))
            count = 0
        if node.enum is not None:
            _enum_problem(node, data, chain, problems)
        return count

    leaf = node.leaf
    if leaf is not None and type(data) is leaf[0]:
        return leaf[1]  # a scalar of the node's type, which checks nothing else
    count = 0
    kind = _kind(data)
    # 1. type
    if node.types or node.format:
        if _check_type(node, data, kind, chain, problems):
            count += 1
        count += 1
    # 2. allOf / anyOf / oneOf / not
    if node.uses_junctors:
        count += _check_junctors(node, data, chain, problems)
    count += 2
    # 3. string, 4. format
    if kind == "string":
        _check_string(node, data, chain, problems)
        count += 1
        if node.format_check is not None:
            if not node.format_check(data):
                name = paths.dotted(chain)
                _add(
                    problems,
                    (_TYPE, name, data, None, _type_message(name, node.format, data), chain),
                )
            count += 1
    # 5. number
    elif kind == "integer" or kind == "number":
        _check_number(node, data, chain, problems)
        count += 2
    # 6. array
    elif kind == "array":
        count += _check_array(node, data, chain, problems) + 2
    # 7. enum (a string matches only an equal string member: a set lookup)
    if node.enum is not None and not (
        data in node.enum_strings
        if type(data) is str
        else any(_enum_matches(data, a) for a in node.enum)
    ):
        _enum_problem(node, data, chain, problems)
    count += 1
    # 8. object
    if kind == "object":
        count += _check_object(node, data, chain, problems) + 1
    return count + 1


def _enum_problem(node: SchemaNode, data: Any, chain: Chain, problems: list[Problem]) -> None:
    name = paths.dotted(chain)
    assert node.enum is not None
    listed = " ".join(go_json(v) if not isinstance(v, str) else v for v in node.enum)
    _add(
        problems,
        (_ENUM, name, data, node.enum, f"{name} in body should be one of [{listed}]", chain),
    )


def _check_type(
    node: SchemaNode, data: Any, kind: str, chain: Chain, problems: list[Problem]
) -> bool:
    types = node.types
    if kind in types:
        return True  # neither rule below can fail then (so they need not ask again)
    value_format = (
        "int64" if kind == "integer" else "float64" if kind == "number" else ""
    )  # schemaInfoForType for int64 / float64 values
    is_float_int = kind == "number" and "integer" in types and _is_json_integer(data)
    is_int_float = kind == "integer" and "number" in types
    scalar = kind not in ("string", "array")
    fmt = node.format
    if (
        scalar
        and fmt
        and not (value_format == fmt or is_float_int or is_int_float)
        and not (fmt == "int64" and value_format == "int32")
    ):
        name = paths.dotted(chain)
        _add(
            problems,
            (_TYPE, name, value_format, None, _type_message(name, fmt, value_format), chain),
        )
        return False
    if not ("number" in types or "integer" in types) and fmt and not scalar:
        return True
    if not (is_float_int or is_int_float):
        name = paths.dotted(chain)
        _add(problems, (_TYPE, name, kind, None, _type_message(name, node.type_text, kind), chain))
        return False
    return True


def _check_string(node: SchemaNode, data: str, chain: Chain, problems: list[Problem]) -> None:
    # stringValidator stops at its first failure: maxLength, minLength, pattern
    if node.max_length is None and node.min_length is None and not node.pattern:
        return
    if node.max_length is not None and len(data) > node.max_length:
        name = paths.dotted(chain)
        message = f"{name} in body should be at most {node.max_length} chars long"
        _add(problems, (_TOO_LONG, name, data, node.max_length, message, chain))
        return
    if node.min_length is not None and len(data) < node.min_length:
        name = paths.dotted(chain)
        message = f"{name} in body should be at least {node.min_length} chars long"
        _add(problems, (_OTHER, name, data, None, message, chain))
        return
    if node.pattern and (node.pattern_found is None or not node.pattern_found(data)):
        name = paths.dotted(chain)
        message = f"{name} in body should match '{node.pattern}'"
        if node.pattern_found is None:
            message = message[:-1] + f", but pattern is invalid: {node.pattern_error}'"
        _add(problems, (_OTHER, name, data, None, message, chain))


def _check_number(
    node: SchemaNode, data: int | float, chain: Chain, problems: list[Problem]
) -> None:
    # Kubernetes 1.34's kube-openapi (v0.0.0-20250710) builds numberValidator without
    # a type or format, so no range check applies and every bound is compared
    # natively: int64(bound) for an integer value, float64 otherwise. (The range
    # checks kube-openapi added in 2026 are not this server's behaviour.)
    if node.multiple_of is None and node.minimum is None and node.maximum is None:
        return
    is_int = isinstance(data, int)
    if node.multiple_of is not None:
        name = paths.dotted(chain)
        problem, shown = _multiple_of(name, data, node.multiple_of, native=is_int)
        if problem:
            _add(problems, (_OTHER, name, shown, None, problem, chain))
    for bound, exclusive, is_max in (
        (node.minimum, node.exclusive_minimum, False),
        (node.maximum, node.exclusive_maximum, True),
    ):
        if bound is None:
            continue
        limit: int | float = int(bound) if is_int else bound
        value: int | float = data if is_int else float(data)
        if is_max:
            failed = value >= limit if exclusive else value > limit
            word = "less than" if exclusive else "less than or equal to"
        else:
            failed = value <= limit if exclusive else value < limit
            word = "greater than" if exclusive else "greater than or equal to"
        if failed:
            name = paths.dotted(chain)
            message = f"{name} in body should be {word} {go_v(limit)}"
            _add(problems, (_OTHER, name, data, None, message, chain))


def _multiple_of(
    name: str, data: int | float, factor: float, *, native: bool
) -> tuple[str, int | float]:
    """``MultipleOfNativeType``: the message ("" when fine) and the value to show."""
    if native:
        whole = int(factor)
        if whole <= 0:
            return f"factor MultipleOf declared for {name} must be positive: {whole}", whole
        if data % whole != 0:
            return f"{name} in body should be a multiple of {whole}", data
        return "", data
    if factor <= 0:
        return f"factor MultipleOf declared for {name} must be positive: {go_v(factor)}", factor
    value = float(data)
    mult = (1 / factor * value) if factor < 1 else value / factor
    if not _is_json_integer(mult):
        return f"{name} in body should be a multiple of {go_v(factor)}", data
    return "", data


def _check_array(node: SchemaNode, data: list[Any], chain: Chain, problems: list[Problem]) -> int:
    count = 0
    items = node.items
    if items is not None:
        for position, item in enumerate(data):
            count += validate_node(items, item, paths.index(chain, position), problems)
    size = len(data)
    if node.min_items is not None and size < node.min_items:
        name = paths.dotted(chain)
        message = f"{name} in body should have at least {node.min_items} items"
        _add(problems, (_OTHER, name, size, None, message, chain))
    if node.max_items is not None and size > node.max_items:
        name = paths.dotted(chain)
        message = f"{name} in body should have at most {node.max_items} items"
        _add(problems, (_MAX_ITEMS, name, size, node.max_items, message, chain))
    return count


def _check_object(
    node: SchemaNode, data: dict[str, Any], chain: Chain, problems: list[Problem]
) -> int:
    count = 0
    size = len(data)
    if node.min_properties is not None and size < node.min_properties:
        name = paths.dotted(chain)
        message = f"{name} in body should have at least {node.min_properties} properties"
        _add(problems, (_OTHER, name, size, None, message, chain))
    if node.max_properties is not None and size > node.max_properties:
        name = paths.dotted(chain)
        message = f"{name} in body should have at most {node.max_properties} properties"
        _add(problems, (_TOO_MANY_PROPERTIES, name, size, node.max_properties, message, chain))
    properties = node.properties
    additional = node.additional
    if additional is not None:
        for key, value in data.items():
            if key not in properties:
                count += validate_node(additional, value, paths.child(chain, key), problems)
    for key, prop in properties.items():
        if key in data:
            count += validate_node(prop, data[key], paths.child(chain, key), problems)
    for key in node.required:
        if key not in data:
            required_name = f"{paths.dotted(chain)}.{key}"
            message = f"{required_name} in body is required"
            _add(problems, (_REQUIRED, required_name, None, None, message, chain))
    return count


def _check_junctors(node: SchemaNode, data: Any, chain: Chain, problems: list[Problem]) -> int:
    name = paths.dotted(chain)
    count = 0
    quoted = go_quote(name)
    if node.any_of:
        best: tuple[int, list[Problem]] | None = None
        first_success: int | None = None
        for branch in node.any_of:
            found: list[Problem] = []
            matched = validate_node(branch, data, chain, found)
            if not found:
                first_success = matched
                best = None
                break
            if best is None or matched > best[0]:
                best = (matched, found)
        if first_success is None:
            message = f"{quoted} must validate at least one schema (anyOf)"
            _add(problems, (_PLAIN, name, "", None, message, chain))
        if best is not None:
            problems.extend(best[1])
            count += best[0]
        elif first_success is not None:
            count += first_success
    if node.one_of:
        best_one: tuple[int, list[Problem]] | None = None
        first: int | None = None
        validated = 0
        for branch in node.one_of:
            found = []
            matched = validate_node(branch, data, chain, found)
            if not found:
                validated += 1
                best_one = None
                if first is None:
                    first = matched
                continue
            if validated == 0 and (best_one is None or matched > best_one[0]):
                best_one = (matched, found)
        if validated != 1:
            extra = (
                "Found none valid" if validated == 0 else f"Found {validated} valid alternatives"
            )
            message = f"{quoted} must validate one and only one schema (oneOf). {extra}"
            _add(problems, (_PLAIN, name, "", None, message, chain))
            if best_one is not None:
                problems.extend(best_one[1])
                count += best_one[0]
        elif first is not None:
            count += first
    if node.all_of:
        validated = 0
        for branch in node.all_of:
            found = []
            count += validate_node(branch, data, chain, found)
            if not found:
                validated += 1
            problems.extend(found)
        if validated != len(node.all_of):
            extra = ". None validated" if validated == 0 else ""
            message = f"{quoted} must validate all the schemas (allOf){extra}"
            _add(problems, (_PLAIN, name, "", None, message, chain))
    if node.not_ is not None:
        found = []
        validate_node(node.not_, data, chain, found)
        if not found:
            message = f"{quoted} must not validate the schema (not)"
            _add(problems, (_PLAIN, name, "", None, message, chain))
    return count


def to_field_error(problem: Problem) -> tuple[str, str, str, Chain]:
    """``kubeOpenAPIResultToFieldErrors`` for one problem: (field, reason, message, chain)."""
    code, name, value, valid, message, chain = problem
    if code == _PLAIN:
        return "<nil>", Reason.INVALID, f'<nil>: Invalid value: "": {message}', chain
    field = name.removeprefix(".") if name and name != "." else "<nil>"
    if code == _REQUIRED:
        return field, Reason.REQUIRED, f"{field}: Required value", chain
    if code == _ENUM:
        values = ", ".join(go_quote(v if isinstance(v, str) else go_json(v)) for v in (valid or ()))
        detail = f": supported values: {values}" if values else ""
        return (
            field,
            Reason.NOT_SUPPORTED,
            f"{field}: Unsupported value: {bad_value(value)}{detail}",
            chain,
        )
    if code == _TOO_LONG:
        unit = "byte" if valid == 1 else "bytes"
        return (
            field,
            Reason.TOO_LONG,
            f"{field}: Too long: may not be more than {valid} {unit}",
            chain,
        )
    if code in (_MAX_ITEMS, _TOO_MANY_PROPERTIES):
        unit = "item" if valid == 1 else "items"
        return (
            field,
            Reason.TOO_MANY,
            f"{field}: Too many: {value}: must have at most {valid} {unit}",
            chain,
        )
    if code == _TYPE:
        return (
            field,
            Reason.TYPE_INVALID,
            f"{field}: Invalid value: {bad_value(value)}: {message}",
            chain,
        )
    return field, Reason.INVALID, f"{field}: Invalid value: {bad_value(value)}: {message}", chain


def validate_schema(
    node: SchemaNode, obj: Any, *, at: str = ""
) -> list[tuple[str, str, str, Chain]]:
    """Every schema error of ``obj``, deduplicated by text as kube-openapi's Result does.

    ``at``: the property of the root ``obj`` is, validated on its own against ``node``
    as a ``/status`` update validates ``.status`` (``validator.go: ValidateStatusUpdate``
    with the status schema's validator and the field path ``status``): kube-openapi's
    words name a field from ``obj`` (``phase in body should match``, ``" in body must
    be of type object``, ``"" must validate one and only one schema``), the cause's
    field and chain from the root (``status.phase``, ``status`` where it says
    ``<nil>``)."""
    problems: list[Problem] = []
    validate_node(node, obj, None, problems)
    seen: set[str] = set()
    out: list[tuple[str, str, str, Chain]] = []
    for problem in problems:
        if problem[4] in seen:
            continue
        seen.add(problem[4])
        error = to_field_error(problem)
        if at:
            field, reason, message, chain = error
            # kubeOpenAPIResultToFieldErrors: fldPath, its child for a named error
            full = at if field == "<nil>" else f"{at}.{field}"
            rooted = paths.rerooted(chain, paths.child(None, at))
            error = (full, reason, full + message[len(field) :], rooted)
        out.append(error)
    return out
