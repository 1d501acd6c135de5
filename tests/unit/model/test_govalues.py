"""Go's renderings of decoded JSON values, one implementation for validation and get."""

from __future__ import annotations

import pytest

from kubectl_crd.model.govalues import bad_value, go_float_v, go_json, go_quote, go_type, json_kind


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        # encoding/json since Go 1.22: \b and \f short escapes; HTML characters escaped
        ("a\bb\fc\n\r\t", '"a\\bb\\fc\\n\\r\\t"'),
        ("<a href='x'>&</a>", "\"\\u003ca href='x'\\u003e\\u0026\\u003c/a\\u003e\""),
        ("\x01\x1f\x7f", '"\\u0001\\u001f\x7f"'),
        ("line\u2028sep\u2029", '"line\\u2028sep\\u2029"'),
        ({"b": [1, 2.5, None, True], "a": {}}, '{"a":{},"b":[1,2.5,null,true]}'),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1e-7, "1e-7"),
    ],
)
def test_json_marshal(value: object, encoded: str) -> None:
    assert go_json(value) == encoded


@pytest.mark.parametrize(
    ("value", "text"), [(1e6, "1e+06"), (123456.0, "123456"), (0.0001, "0.0001"), (1e-5, "1e-05")]
)
def test_percent_v_of_a_float(value: float, text: str) -> None:
    assert go_float_v(value) == text


def test_strconv_quote() -> None:
    assert go_quote('a"b\\\x00\u00e9\u200b') == '"a\\"b\\\\\\x00\u00e9\\u200b"'
    # a byte that is not UTF-8 (an argument's, by surrogateescape) is quoted as Go quotes it
    assert go_quote("\udcffff") == '"\\xffff"'


KINDS = [
    (None, "null", "<nil>"),
    (True, "bool", "bool"),
    (False, "bool", "bool"),
    (3, "number", "int64"),
    (2.5, "number", "float64"),
    ("x", "string", "string"),
    ([1], "array", "[]interface {}"),
    ((1,), "array", "[]interface {}"),
    ({"a": 1}, "object", "map[string]interface {}"),
]


@pytest.mark.parametrize(("value", "kind", "go"), KINDS)
def test_json_kind_and_go_type_name_a_value_as_encoding_json_and_percent_t_do(
    value: object, kind: str, go: str
) -> None:
    # a bool is no number, though Python's bool is an int
    assert (json_kind(value), go_type(value)) == (kind, go)


def test_a_bad_value_of_a_named_string_type_is_written_as_json_marshal_writes_it() -> None:
    """kube-apiserver 1.34, a Service's ``spec.type`` (core.ServiceType) against its
    ``metadata.name`` (a plain string): json.Marshal escapes HTML's ``&`` and ``<`` and
    leaves DEL, U+00A0 and U+200B; ``%q`` the reverse."""
    odd = "a\x7fb\u00a0c\u200bd\te&f<g"
    assert bad_value(odd, named=True) == '"a\x7fb\u00a0c\u200bd\\te\\u0026f\\u003cg"'
    assert bad_value(odd) == '"a\\x7fb\\u00a0c\\u200bd\\te&f<g"'
    assert bad_value(True, named=True) == "true"
