"""Hypothesis strategies for the schema-driven fuzz tests: structural schemas, CRDs
built around them, objects that may or may not fit, CEL rules and JSONPath templates."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.crd_factory import make_crd

names = st.from_regex(r"[a-z][a-zA-Z0-9]{0,7}", fullmatch=True)

_FORMATS = ["", "int32", "int64", "date-time", "date", "byte", "uri", "email", "uuid", "x"]

leaf_schema = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "description": st.text(max_size=60),
            "format": st.sampled_from(_FORMATS),
            "pattern": st.sampled_from(["^[a-z]+$", "(a+)+$", "^(a|aa)+$", "[", "\\d{1,3}"]),
            "maxLength": st.integers(0, 20),
            "minLength": st.integers(0, 5),
            "enum": st.lists(st.text(max_size=5), min_size=1, max_size=4),
            "default": st.text(max_size=8),
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["integer", "number"])},
        optional={
            "minimum": st.integers(-5, 5),
            "maximum": st.integers(-5, 50),
            "exclusiveMinimum": st.booleans(),
            "multipleOf": st.sampled_from([1, 2, 0.5]),
            "default": st.integers(-3, 3),
        },
    ),
    st.fixed_dictionaries({"type": st.just("boolean")}, optional={"default": st.booleans()}),
    st.just({"x-kubernetes-int-or-string": True}),
    st.just({"type": "object", "x-kubernetes-preserve-unknown-fields": True}),
)


def _compound(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    obj = st.builds(
        lambda props, required, extra: {
            "type": "object",
            "properties": props,
            **({"required": sorted(set(required) & set(props))} if required else {}),
            **extra,
        },
        st.dictionaries(names, children, max_size=4),
        st.lists(names, max_size=2),
        st.fixed_dictionaries(
            {},
            optional={
                "description": st.text(max_size=40),
                "nullable": st.booleans(),
                "maxProperties": st.integers(0, 5),
            },
        ),
    )
    mapping = st.builds(lambda child: {"type": "object", "additionalProperties": child}, children)
    array = st.builds(
        lambda child, extra: {"type": "array", "items": child, **extra},
        children,
        st.fixed_dictionaries(
            {},
            optional={
                "maxItems": st.integers(0, 5),
                "x-kubernetes-list-type": st.sampled_from(["atomic", "set"]),
            },
        ),
    )
    return st.one_of(obj, mapping, array)


schemas = st.recursive(leaf_schema, _compound, max_leaves=12)

#: rules of every kind: fine, failing, not compiling, typed for another kind of node,
#: and expensive ones the cost estimate refuses
CEL_RULES = [
    "true",
    "false",
    "self == self",
    "has(self.a)",
    "self.size() < 3",
    "self.all(x, x != '')",
    "self.map(x, self.map(y, self.map(z, x))).size() > 0",
    "self.exists(x, x.matches('(a+)+$'))",
    "int(self) > 0",
    "self.startsWith('a')",
    "1 / 0 == 1",
    "self.nope.nope",
    "self ==",
    "oldSelf == self",
    "[1,2,3].all(i, [1,2,3].all(j, [1,2,3].all(k, i+j+k > 0)))",
    "string(self).size() < 1000000",
    "type(self) == string",
]


def with_rules(schema: dict[str, Any], rules: list[str]) -> dict[str, Any]:
    if not rules:
        return schema
    return {**schema, "x-kubernetes-validations": [{"rule": rule} for rule in rules]}


@st.composite
def crds(draw: st.DrawFn) -> dict[str, Any]:
    """A CRD (its spec schema generated, CEL rules on spec sometimes) as a plain object."""
    spec = draw(schemas)
    rules = draw(st.lists(st.sampled_from(CEL_RULES), max_size=2))
    schema = {
        "type": "object",
        "properties": {"spec": with_rules(spec, rules), "status": draw(schemas)},
    }
    return make_crd(schema=schema)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(names, children, max_size=4),
    max_leaves=20,
)


def value_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values shaped by ``schema`` (often valid), mixed with arbitrary JSON."""
    kind = schema.get("type")
    if schema.get("x-kubernetes-int-or-string"):
        shaped: st.SearchStrategy[Any] = st.integers(-5, 5) | st.text(max_size=5)
    elif kind == "string":
        shaped = st.sampled_from(schema.get("enum") or [""]) | st.text(max_size=12)
    elif kind in ("integer", "number"):
        shaped = st.integers(-10, 60)
    elif kind == "boolean":
        shaped = st.booleans()
    elif kind == "array":
        shaped = st.lists(value_for(schema["items"]), max_size=4)
    elif kind == "object" and "additionalProperties" in schema:
        shaped = st.dictionaries(names, value_for(schema["additionalProperties"]), max_size=3)
    elif kind == "object" and "properties" in schema:
        props = schema["properties"]
        shaped = st.fixed_dictionaries({}, optional={k: value_for(v) for k, v in props.items()})
    else:
        shaped = json_values
    return st.one_of(shaped, shaped, shaped, json_values)


_JSONPATH_PIECES = [
    "{", "}", ".", "..", "[", "]", "*", "?(@.a==1)", "?(@.a)", "0", "-1", ":", "1:3", "::",
    "a", "b", "spec", "metadata", "name", "'x'", '"y"', ",", "range", "end", "@", "$",
    "==", "!=", "<", ">", "\\", " ", "`", "{.a}", "{range .items[*]}", "{end}", "{@}",
    "{.a.b}", "{.a[0]}", "{.a[*].b}", "{..name}", "{['a.b']}", "{.a[?(@.b>1)]}",
]  # fmt: skip
jsonpath_templates = st.one_of(
    st.lists(st.sampled_from(_JSONPATH_PIECES), max_size=12).map("".join),
    st.text(max_size=30),
)
