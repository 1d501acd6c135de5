"""``string.format`` as cel-go's version-1 formatter runs it (``library.formatting``) and
the compile-time check of constant format strings (``checked.format_literal_errors``).

The texts were recorded from kube-apiserver 1.34; the live comparison of both is
tests/integration/test_cel_format_differential.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from cel_expr_python import cel

from kubectl_crd.validation.cel.checked import format_literal_errors, read_checked
from kubectl_crd.validation.cel.environment import build_environment
from kubectl_crd.validation.cel.library.formatting import FormatError, string_format

# (format, arguments, the server's result)
RESULTS: list[tuple[str, list[Any], str]] = [
    ("%s|%d|%b|%x|%X|%o", ["a", 1, 5, "hi", bytearray(b"hi"), 8], "a|1|101|6869|6869|10"),
    ("%x %o %b", [-10, -8, -5], "-a -10 -101"),
    ("%f", [1234567.891], "1,234,567.891000"),
    ("%f", [-0.0], "0.000000"),
    ("%f", [float("inf")], "\u221e"),
    ("%.3f", [3.14159], "3.142"),
    ("%e", [1.5], "1.500000\u00d710\u2070\u2070"),
    ("%e", [0.000123], "1.230000\u00d710\u207b\u2070\u2074"),
    ("%.3e", [123456.789], "1.234568\u00d710\u2070\u2075"),
    ("%s", [[float("inf"), "a", bytearray(b"c"), 2.0, None, True]],
     '["+Inf", "a", b"c", 2.000000, null, true]'),
    ("%s", [{"b": 1, "a": 2.5}], '{"a":2.500000, "b":1}'),
    ("%s", [[timedelta(seconds=1), datetime(2023, 1, 1, tzinfo=UTC)]],
     '[duration("1s"), timestamp("2023-01-01T00:00:00Z")]'),
    ("%s", [timedelta(seconds=3723.5)], "3723.5s"),
    ("%s", [123456789.0], "1.23456789e+08"),
    ("%s", [cel.Type.INT], "int"),
    ("%%%s", ["a"], "%a"),
]  # fmt: skip

# (format, arguments, the server's error)
ERRORS: list[tuple[str, list[Any], str]] = [
    ("%d", ["a"], "error during formatting: decimal clause can only be used on integers, "
     "was given string"),
    ("%f", [1], "error during formatting: fixed-point clause can only be used on doubles, "
     "was given int"),
    ("%s", [bytearray(b"\xff")], 'error during formatting: could not convert argument '
     '"invalid UTF-8 in bytes, cannot convert to string" to string'),
    ("%z", [1], 'could not parse formatting clause: unrecognized formatting clause "z"'),
    ("%", [], "index 0 out of range"),
    ("%s%", ["a", "b"], "unexpected end of string"),
    ("%.3", [1.0], "could not parse formatting clause: error while parsing precision: "
     "could not find end of precision specifier"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "arguments", "expected"), RESULTS)
def test_results(text: str, arguments: list[Any], expected: str) -> None:
    assert string_format(text, arguments) == expected


@pytest.mark.parametrize(("text", "arguments", "expected"), ERRORS)
def test_errors(text: str, arguments: list[Any], expected: str) -> None:
    with pytest.raises(FormatError) as raised:
        string_format(text, arguments)
    assert str(raised.value) == expected


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("'%z'.format([1])", [(11, 'could not parse formatting clause: unrecognized formatting clause "z"')]),
        ("'%é'.format([1])", [(11, 'could not parse formatting clause: unrecognized formatting clause "Ã"')]),
        ("'%'.format([1])", [(10, "unexpected end of string")]),
        ("'%f'.format([1])", [(13, "error during formatting: fixed-point clause can only be used on doubles, was given int")]),
        ("'%s'.format([[1, optional.of(1)]])", [(28, "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type")]),
        ("'%.f'.format([1.0])", [(12, 'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax')]),
        ("'%f %e %x'.format(['NaN', dyn(1), b'a'])", []),
    ],
)  # fmt: skip
def test_compile_time_check(expression: str, expected: list[tuple[int, str]]) -> None:
    env = build_environment({"self": cel.Type.DYN})
    assert format_literal_errors(read_checked(env.compile(expression).serialize())) == expected


# An optional reaching the formatter through dyn, in a rule and in a messageExpression
# (a map holding one killed the engine with SIGSEGV): what `kubectl crd validate` prints,
# the server's texts recorded from kube-apiserver 1.34, run in a child process so that a
# crash fails this test and not the test runner.
CRASHERS = [
    ("'%s'.format([{'a': dyn(optional.none())}])",
     "error during formatting: no formatting function for optional_type"),
    ("'%s'.format([dyn({'a': optional.of(1)})])",
     "error during formatting: no formatting function for optional_type"),
    ("'%d'.format([dyn(optional.of(1))])",
     "error during formatting: decimal clause can only be used on integers, "
     "was given optional_type"),
    ("'%f'.format([dyn(1u)])",
     "error during formatting: fixed-point clause can only be used on doubles, was given uint"),
]  # fmt: skip


def _validate_in_child(rules: list[dict[str, str]], tmp_path: Any) -> Any:
    """``kubectl crd validate`` of one object against a CRD with ``rules``, in a child."""
    import json
    import subprocess
    import sys

    spec: dict[str, Any] = {"type": "object", "properties": {"s": {"type": "string"}}}
    spec["x-kubernetes-validations"] = rules
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "foos.ex.com"},
        "spec": {
            "group": "ex.com",
            "scope": "Namespaced",
            "names": {"kind": "Foo", "plural": "foos", "singular": "foo"},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}},
                }
            ],
        },
    }
    obj = {"apiVersion": "ex.com/v1", "kind": "Foo", "metadata": {"name": "a"}, "spec": {"s": "x"}}
    (tmp_path / "crd.json").write_text(json.dumps(crd))
    (tmp_path / "obj.json").write_text(json.dumps(obj))
    command = [sys.executable, "-m", "kubectl_crd", "validate", "--offline", "-o", "json"]
    command += ["-f", str(tmp_path / "obj.json"), "--crd", str(tmp_path / "crd.json")]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(("expression", "expected"), CRASHERS)
def test_validate_survives_unusual_format_arguments(
    expression: str, expected: str, tmp_path: Any
) -> None:
    rules = [
        {"rule": f"({expression}).size() < 0"},
        {"rule": "1 < 0", "messageExpression": f"'m' + {expression}"},
    ]
    done = _validate_in_child(rules, tmp_path)
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    # the rule's evaluation error; the messageExpression's error falls back to the
    # rule's text, as the server's does
    assert f"{expected} evaluating rule: ({expression}).size() < 0" in done.stdout
    assert "failed rule: 1 < 0" in done.stdout


# A rule or a messageExpression whose value holds an optional: the server refuses such
# a CRD ("cel expression must evaluate to a bool", validation.crds says so too), but
# validate runs its rules; the engine's conversion of the result crashed (a map) or
# raised (a list, an optional): now the rule fails and the message falls back.
@pytest.mark.parametrize(
    "expression",
    ["dyn({'a': optional.none()})", "dyn([[1], {'a': [optional.of(1)]}])", "dyn(optional.none())"],
)
def test_validate_survives_optional_results(expression: str, tmp_path: Any) -> None:
    rules = [{"rule": expression}, {"rule": "1 < 0", "messageExpression": expression}]
    done = _validate_in_child(rules, tmp_path)
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert f"failed rule: {expression}" in done.stdout
    assert "failed rule: 1 < 0" in done.stdout


# An optional inside a list or a map given to a function bound to Python (the lists
# library, indexOf, transformMap's insert) or measured for the runtime cost (== and
# sets.contains of such a list): the engine's conversion killed validate (SIGSEGV).
# The cost is then not traced (the rule runs); the lists library answers as the server
# (lists.guard_receivers; recorded from kube-apiserver 1.34), indexOf runs in the engine
# (indexing.in_engine: -1 here, test_cel_index_of_differential), transformMap's insert
# refuses the rule when it compiles, in our words.
@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("[dyn({'a': optional.none()})].isSorted()", "'no such overload: isSorted(list)'"),
        ("[dyn({'a': optional.none()})].indexOf(1) == 0", "failed rule: [dyn({'a'"),
        (
            "[1].transformMapEntry(i, v, {'k': dyn({'a': optional.none()})}).size() == 0",
            "an optional value may reach transformMap",
        ),
        (
            "{'a': 1}.transformMap(k, v, optional.of(v)).size() == 0",
            "an optional value may reach transformMap",
        ),
        ("dyn({'a': optional.none()}) == dyn({'a': 1})", "failed rule: dyn("),
        ("sets.contains([dyn({'a': optional.none()})], [1])", "failed rule: sets.contains("),
    ],
)
def test_validate_survives_optionals_in_containers(rule: str, expected: str, tmp_path: Any) -> None:
    done = _validate_in_child([{"rule": rule}], tmp_path)
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert expected in done.stdout
