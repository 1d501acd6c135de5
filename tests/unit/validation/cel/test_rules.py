"""The CEL stage in the pipeline: where rules run, and the server's words for their errors.

Expectations follow apiextensions-apiserver's schema/cel/validation.go; the real
server's answers on the corpus rules are compared in tests/integration.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.validation import Reason, validate_custom_resource
from kubectl_crd.validation.cel.escaping import escape
from kubectl_crd.validation.cel.tree import uses_old_self


def crd_with(spec: dict[str, Any], *, root_rules: list[Any] | None = None) -> Any:
    root: dict[str, Any] = {"type": "object", "properties": {"spec": spec}}
    if root_rules:
        root["x-kubernetes-validations"] = root_rules
    return CustomResourceDefinition.from_object(
        {
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com",
                "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                "versions": [
                    {
                        "name": "v1",
                        "served": True,
                        "storage": True,
                        "schema": {"openAPIV3Schema": root},
                    }
                ],
            },
        }
    )


def widget(spec: Any, name: str = "w") -> dict[str, Any]:
    return {
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": name},
        "spec": spec,
    }


def messages(spec_schema: dict[str, Any], spec: Any, old: Any = None, **kw: Any) -> list[str]:
    crd = crd_with(spec_schema, **kw)
    result = validate_custom_resource(widget(spec), crd, old=None if old is None else widget(old))
    return [e.message for e in result.errors]


def obj(rules: list[Any], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "x-kubernetes-validations": rules}


def test_default_message_shows_the_type_not_the_value() -> None:
    schema = obj([{"rule": "self.a > 1"}], a={"type": "integer"})
    assert messages(schema, {"a": 1}) == ['spec: Invalid value: "object": failed rule: self.a > 1']
    scalar = {
        "type": "object",
        "properties": {
            "s": {
                "type": "string",
                "x-kubernetes-validations": [
                    {"rule": "self.size() < 3", "message": "  too long  "}
                ],
            }
        },
    }
    assert messages(scalar, {"s": "abcd"}) == ['spec.s: Invalid value: "string": too long']


@pytest.mark.parametrize(
    ("reason", "expected"),
    [
        ("FieldValueForbidden", "spec.a: Forbidden: no"),
        ("FieldValueRequired", "spec.a: Required value: no"),
        ("FieldValueDuplicate", 'spec.a: Duplicate value: "object"'),
        ("FieldValueInvalid", 'spec.a: Invalid value: "object": no'),
    ],
)
def test_reasons(reason: str, expected: str) -> None:
    inner = obj([{"rule": "false", "message": "no", "reason": reason}])
    assert messages({"type": "object", "properties": {"a": inner}}, {"a": {}}) == [expected]


def test_field_path_moves_the_error() -> None:
    schema = obj(
        [{"rule": "self.start < self.end", "message": "bad", "fieldPath": ".start"}],
        start={"type": "integer"},
        end={"type": "integer"},
    )
    assert messages(schema, {"start": 2, "end": 1}) == ['spec.start: Invalid value: "object": bad']
    keyed = {
        "type": "object",
        "additionalProperties": {"type": "string"},
        "x-kubernetes-validations": [{"rule": "false", "message": "m", "fieldPath": "['a.b']"}],
    }
    assert messages(keyed, {"a.b": "x"}) == ['spec[a.b]: Invalid value: "object": m']


def test_message_expression_and_its_fallbacks() -> None:
    def with_expression(expression: str) -> list[str]:
        schema = obj(
            [{"rule": "false", "message": "fallback", "messageExpression": expression}],
            n={"type": "string", "maxLength": 5},
        )
        return messages(schema, {"n": "abc"})

    assert with_expression("'n is ' + self.n") == ['spec: Invalid value: "object": n is abc']
    assert with_expression("'  '") == ['spec: Invalid value: "object": fallback']
    assert with_expression("'a\\nb'") == ['spec: Invalid value: "object": fallback']
    assert with_expression("self.missing") == ['spec: Invalid value: "object": fallback']


def test_runtime_errors_in_the_servers_words() -> None:
    schema = obj([{"rule": "self.a == 1"}], a={"type": "integer"})
    assert messages(schema, {}) == [
        'spec: Invalid value: "object": no such key: a evaluating rule: self.a == 1'
    ]


def test_rules_never_run_on_null_and_names_are_escaped() -> None:
    schema = obj(
        [{"rule": "self.__dash__x == 1 && self.__namespace__ == 'n' && !has(self.__dot__y)"}],
        **{
            "-x": {"type": "integer"},
            "namespace": {"type": "string"},
            ".y": {"type": "string"},
        },
    )
    assert messages(schema, {"-x": 1, "namespace": "n"}) == []
    assert escape("a-b.c/d__e") == "a__dash__b__dot__c__slash__d__underscores__e"
    assert escape("9lives") is None and escape("a b") is None


def test_a_reserved_word_is_also_reachable_as_itself() -> None:
    """``self.t.namespace`` compiles and runs as ``self.t.__namespace__`` does (the server's
    type provider falls back to the escaped name; kubernetes-sigs/jobset's CRD relies on it)."""
    from kubectl_crd.validation.crds import crd_errors

    template = {"type": "object", "properties": {"namespace": {"type": "string"}}}
    for rule in ("!has(self.t.namespace)", "self.t.all(x, x.namespace != 'n')"):
        items = rule.startswith("self.t.all")
        t = {"type": "array", "items": template} if items else template
        schema = obj([{"rule": rule}], t=t)
        assert crd_errors(crd_with(schema).raw) == []
        value = {"t": [{"namespace": "n"}] if items else {"namespace": "n"}}
        assert messages(schema, value) == [f'spec: Invalid value: "object": failed rule: {rule}']
        assert messages(schema, {"t": [] if items else {}}) == []
    # a map's keys are not escaped: ``m.namespace`` is the key "namespace"
    schema = obj(
        [{"rule": "self.m.namespace == 'n'"}],
        m={"type": "object", "additionalProperties": {"type": "string"}},
    )
    assert messages(schema, {"m": {"namespace": "n"}}) == []


def test_numbers_are_doubles_and_dates_are_timestamps() -> None:
    schema = obj(
        [{"rule": "self.n / 2.0 == 1.5 && self.t > timestamp('2020-01-01T00:00:00Z')"}],
        n={"type": "number"},
        t={"type": "string", "format": "date-time"},
    )
    assert messages(schema, {"n": 3, "t": "2021-05-01T10:00:00+02:00"}) == []


def test_the_resource_root_shows_only_name_and_generate_name() -> None:
    rules = [{"rule": "self.metadata.name == 'w' && !has(self.metadata.labels)"}]
    crd = crd_with({"type": "object"}, root_rules=rules)
    labelled = widget({})
    labelled["metadata"]["labels"] = {"a": "b"}
    assert validate_custom_resource(labelled, crd).valid


def test_transition_rules_run_only_on_updates() -> None:
    immutable = {
        "type": "object",
        "properties": {
            "m": {
                "type": "string",
                "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}],
            }
        },
    }
    assert messages(immutable, {"m": "b"}) == []
    assert messages(immutable, {"m": "b"}, old={"m": "a"}) == [
        'spec.m: Invalid value: "string": immutable'
    ]
    assert messages(immutable, {"m": "a"}, old={"m": "a"}) == []
    assert uses_old_self("self == oldSelf") and not uses_old_self("self == 'oldSelf'")


def test_optional_old_self_runs_on_create() -> None:
    rule = {
        "rule": "!oldSelf.hasValue() || self >= oldSelf.value()",
        "optionalOldSelf": True,
        "message": "no decrease",
    }
    schema = {
        "type": "object",
        "properties": {
            "n": {
                "type": "integer",
                "x-kubernetes-validations": [
                    rule,
                    {
                        "rule": "oldSelf.hasValue()",
                        "optionalOldSelf": True,
                        "message": "update only",
                    },
                ],
            }
        },
    }
    assert messages(schema, {"n": 1}) == ['spec.n: Invalid value: "integer": update only']
    assert messages(schema, {"n": 1}, old={"n": 2}) == [
        'spec.n: Invalid value: "integer": no decrease'
    ]


def test_unchanged_invalid_values_are_ratcheted_to_warnings() -> None:
    schema = {
        "type": "object",
        "properties": {
            "s": {
                "type": "string",
                "maxLength": 2,
                "x-kubernetes-validations": [{"rule": "self.startsWith('a')"}],
            }
        },
    }
    crd = crd_with(schema)
    result = validate_custom_resource(widget({"s": "bcd"}), crd, old=widget({"s": "bcd"}))
    assert result.valid
    assert result.warnings == (
        "spec.s: Invalid value: \"string\": failed rule: self.startsWith('a')",
    )
    changed = validate_custom_resource(widget({"s": "bce"}), crd, old=widget({"s": "bcd"}))
    # a changed value is not ratcheted: too long (a blocking error), so no rule runs
    assert [e.reason for e in changed.errors] == [Reason.TOO_LONG, Reason.INVALID]
    assert changed.errors[1].message.startswith("<nil>: Invalid value: null: some validation")


def test_without_the_engine_the_rules_are_reported_unchecked(monkeypatch: Any) -> None:
    import sys

    from kubectl_crd.validation.cel import availability

    monkeypatch.setitem(sys.modules, "cel_expr_python", None)
    monkeypatch.setitem(sys.modules, "cel_expr_python.cel", None)
    availability.engine_missing.cache_clear()
    try:
        crd = crd_with(obj([{"rule": "false"}]))
        result = validate_custom_resource(widget({}), crd)
        assert result.valid
        assert result.warnings == (availability.NOT_CHECKED,)
    finally:
        availability.engine_missing.cache_clear()


def test_a_null_field_is_absent_to_rules_but_counts_in_equality() -> None:
    """``valuesunstructured.go``: an object's null field is not found (``has`` false, a
    select is "no such key"); {"z": null} and {} still differ (their sizes do)."""
    m = {
        "type": "object",
        "properties": {"z": {"type": "array", "items": {"type": "string"}, "nullable": True}},
    }
    rules = ["!has(self.m.z) || self.m.z.size() == 2", "self.m.z.size() == 3"]
    schema = obj([{"rule": rule} for rule in rules], m=m)
    assert messages(schema, {"m": {"z": None}}) == [
        'spec: Invalid value: "object": no such key: z evaluating rule: self.m.z.size() == 3'
    ]
    immutable = obj([{"rule": "self.m == oldSelf.m", "message": "immutable"}], m=m)
    assert messages(immutable, {"m": {"z": None}}, old={"m": {}}) == [
        'spec: Invalid value: "object": immutable'
    ]
    assert messages(immutable, {"m": {"z": None}}, old={"m": {"z": None}}) == []
    # two null fields in one object (rook/rook's samples)
    two = {"type": "object", "properties": {k: {**m["properties"]["z"]} for k in ("y", "z")}}
    both = obj([{"rule": "!has(self.m.y) && !has(self.m.z)"}], m=two)
    assert messages(both, {"m": {"y": None, "z": None}}) == []
