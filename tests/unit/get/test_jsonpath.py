"""client-go JSONPath semantics (cases after ``util/jsonpath/jsonpath_test.go``)."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.govalues import go_float_v as go_float_text
from kubectl_crd.model.govalues import go_json
from kubectl_crd.model.jsonpath import JSONPath, JSONPathError

STORE: dict[str, Any] = {
    "Name": "jsonpath",
    "Book": [
        {"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings", "Price": 8.95},
        {"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword", "Price": 12.99},
        {"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99},
    ],
    "Bicycle": [
        {"Color": "red", "Price": 19.95, "IsNew": True},
        {"Color": "green", "Price": 20.01, "IsNew": False},
    ],
    "Labels": {"engineer": 10, "web/html": 15, "k8s-app": 20},
    "Employees": {"jason": "manager", "dan": "clerk"},
}

CASES = [
    ("plain", "hello jsonpath", "hello jsonpath"),
    ("recursive", "{..}", None),
    ("field", "{.Name}", "jsonpath"),
    ("dict", "{.Labels}", '{"engineer":10,"k8s-app":20,"web/html":15}'),
    (
        "index",
        "{.Book[2]}",
        '{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}',
    ),
    ("negative index", "{.Book[-1].Author}", "Herman Melville"),
    ("slice", "{.Book[0:2].Title}", "Sayings Sword"),
    ("slice step", "{.Book[::2].Title}", "Sayings Moby Dick"),
    ("slice to end", "{.Book[1:].Title}", "Sword Moby Dick"),
    ("wildcard array", "{.Bicycle[*].Color}", "red green"),
    ("wildcard map sorted", "{.Employees.*}", "clerk manager"),
    ("filter string", '{.Book[?(@.Category=="fiction")].Author}', "Evelyn Waugh Herman Melville"),
    ("filter float", "{.Book[?(@.Price<9)].Title}", "Sayings Moby Dick"),
    ("filter bool", "{.Bicycle[?(@.IsNew==true)].Color}", "red"),
    ("filter exists", "{.Bicycle[?(@.IsNew)].Color}", "red green"),
    ("filter not equal", '{.Book[?(@.Category!="fiction")].Title}', "Sayings"),
    ("filter int64 vs literal never matches", "{.Labels[?(@==10)]}", ""),
    ("union", "{.Book[0,2].Title}", "Sayings Moby Dick"),
    ("union keys", "{.Employees['jason','dan']}", "manager clerk"),
    ("quoted key", "{.Labels['web/html']}", "15"),
    ("slash in a field", "{.Labels.web/html}", "15"),
    ("recursive field", "{..Color}", "red green"),
    ("range", "{range .Book[*]}[{.Title}]{end}", "[Sayings][Sword][Moby Dick]"),
    ("text after range", "{range .Bicycle[*]}{.Color},{end}done", "red,green,done"),
    ("quoted text", '{"a\\tb"}', "a\tb"),
    ("empty slice", "{.Book[1:1]}", ""),
]


@pytest.mark.parametrize(("name", "template", "expected"), CASES, ids=[c[0] for c in CASES])
def test_execute(name: str, template: str, expected: str | None) -> None:
    result = JSONPath(template).execute(STORE)
    if expected is not None:
        assert result == expected


def test_recursive_descent_visits_containers_in_key_order() -> None:
    results = JSONPath("{..}").find_results({"b": {"c": 1}, "a": [2]})[0]
    assert results == [{"b": {"c": 1}, "a": [2]}, [2], {"c": 1}]


ERRORS = [
    ("{.Missing}", "Missing is not found"),
    ("{.Book[5]}", "array index out of bounds: index 5, length 3"),
    ("{.Book[0:9]}", "array index out of bounds: index 8, length 3"),
    ("{.Book[2:1]}", "starting index 2 is greater than ending index 1"),
    ("{.Book[::0]}", "step must be > 0"),
    ("{.Name[0]}", "string is not array or slice"),
    ("{.Labels[0]}", "map[string]interface {} is not array or slice"),
    ("{.Book[?(@.Price)].Title[?(@.x==1)]}", None),
    ("{end}", "not in range, nothing to end"),
    ("{.Book[*].Category.nope}", "nope is not found"),
]


@pytest.mark.parametrize(("template", "message"), ERRORS)
def test_evaluation_errors(template: str, message: str | None) -> None:
    if message is None:
        JSONPath(template, allow_missing_keys=True).find_results(STORE)
        return
    with pytest.raises(JSONPathError, match="^" + message.replace("[", r"\[") + "$"):
        JSONPath(template).find_results(STORE)


PARSE_ERRORS = [
    ("{.Name", "unclosed action"),
    ("{.Book[0}", "unterminated array"),
    ("{.Book[x]}", "invalid array index x"),
    ("{.a..b..c}", None),
    ("{....a}", "invalid multiple recursive descent"),
    ("{.a[?(@.b==1}", "unterminated filter"),
    ("{!}", "unrecognized character in action: U+0021 '!'"),
    ('{"abc}', "unterminated quoted string"),
]


@pytest.mark.parametrize(("template", "message"), PARSE_ERRORS)
def test_parse_errors(template: str, message: str | None) -> None:
    if message is None:
        JSONPath(template)
        return
    with pytest.raises(JSONPathError) as caught:
        JSONPath(template)
    assert str(caught.value) == message


def test_missing_keys_allowed_give_nothing() -> None:
    assert JSONPath("{.Missing.deeper}", allow_missing_keys=True).find_results(STORE) == [[]]


def test_first_is_the_printer_column_lookup() -> None:
    path = JSONPath("{.Book[*].Title}", allow_missing_keys=True)
    assert path.first(STORE) == (True, "Sayings")
    assert JSONPath("{.Book[7]}", allow_missing_keys=True).first(STORE) == (False, None)
    assert JSONPath("{.nope}", allow_missing_keys=True).first(STORE) == (False, None)


@pytest.mark.parametrize("allow_missing_keys", [True, False])
@pytest.mark.parametrize(
    "template",
    ["{.a}", "{.a.b}", "{.a.b.c}", "{.n}", "{.n.x}", "{.l}", "{.l.x}", "{.s.x}", "{.z.y}"],
)
def test_first_on_a_field_chain_answers_as_the_general_evaluation(
    template: str, allow_missing_keys: bool
) -> None:
    data = {"a": {"b": {"c": 0}}, "n": None, "l": [{"x": 1}], "s": "text", "z": {"y": False}}
    fast = JSONPath(template, allow_missing_keys=allow_missing_keys)
    general = JSONPath(template, allow_missing_keys=allow_missing_keys)
    general._fields = None  # the shortcut off: the client-go evaluation
    assert fast._fields is not None
    assert fast.first(data) == general.first(data)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e6, "1e+06"),
        (123456.0, "123456"),
        (3.14, "3.14"),
        (1e-5, "1e-05"),
        (0.0001, "0.0001"),
        (1234567.0, "1.234567e+06"),
        (-2.5, "-2.5"),
        (1e21, "1e+21"),
    ],
)
def test_go_float_text(value: float, text: str) -> None:
    assert go_float_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e6, "1000000"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (0.5, "0.5"),
        ({"b": "<&>", "a": [True, None]}, '{"a":[true,null],"b":"\\u003c\\u0026\\u003e"}'),
    ],
)
def test_go_json(value: Any, text: str) -> None:
    assert go_json(value) == text
