"""An exec plugin's output (and a kubeconfig) decoded as client-go decodes it, against
Go itself: ``hack/goyaml``'s ``-exec`` mode runs apimachinery's universal decoder's
first steps (IsJSONBuffer, then encoding/json or sigs.k8s.io/yaml, then Interpret) on
each output, and ``kube.clientdecode`` must give the same JSON or the same error text.

The outputs: a well-formed ExecCredential in JSON and in YAML, every truncation of each,
each with one byte deleted, each with one of a few troublesome bytes inserted at every
position, and hand-written ones (the JSON scanner's every context, go-yaml's line rule
for scanner and parser errors, aliases, anchors defined twice, merges, tags, go-yaml's
escapes, collections as keys, YAML 1.1 scalars).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.clientdecode import DecodeError, decode_exec_output
from kubectl_crd.model.gojson import go_json_syntax_error, interpret_problem
from tests.unit.io.test_goyaml_differential import (
    canonical,
    goyaml_verdict,  # noqa: F401 (a fixture)
    kubectl_value,
    run_converter,
)

JSON_CREDENTIAL = (
    '{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",\n'
    ' "status": {"token": "t-1", "expirationTimestamp": "2026-01-01T00:00:00Z",\n'
    '  "n": [1, -2.5e3, true, false, null, "\\u00e9\\n"]}}\n'
)
YAML_CREDENTIAL = (
    "apiVersion: client.authentication.k8s.io/v1\n"
    "kind: ExecCredential\n"
    "status:\n"
    "  token: t-1\n"
    "  expirationTimestamp: 2026-01-01T00:00:00Z\n"
    "  n: [1, -2.5e3, yes, off, ~, 'q', \"d\"]\n"
    "  block: |\n"
    "    line\n"
)
#: a flow sequence's plain scalar that ends in ":" (the one known difference)
_FLOW_PAIR = re.compile(r"\[[^\]\n]*\w:[,\]]")
INSERTED = ["}", "]", ",", ":", '"', "\\", "\n", "\t", "x", "-", "0", "{", "[", "'", "#", "&", "*"]

HAND_WRITTEN = [
    "",
    "   \n",
    "not json at all",
    "- 1\n- 2\n",
    "a: b: c\n",
    "a: 1\nb: [\n",
    "a:\n  b: 1\n c: 2\n",
    "x: *nope\n",
    "a: &anchor {k: v}\nb: *anchor\n",
    "<<: {a: 1}\nb: 2\n",
    "b: 2\n<<: [{a: 1, b: 3}, {a: 4}]\n",
    "t: 2026-01-01T00:00:00Z\ny: y\nn: 0x1F\no: 0o17\n1: one\ntrue: 2\n1.5: f\n",
    "a: !!int '3'\nb: !!str 3\nc: !!float 1\n",
    "a: .nan\n",
    "\ta: 1\n",
    "a: 'x\n",
    "a: 1\n---\nb: [\n",
    "---\napiVersion: v1\n",
    "Warning: something\n" + JSON_CREDENTIAL,
    '{"a": 1,}',
    '{"a" 1}',
    '{"a": tru}',
    '{"a": fals}',
    '{"a": nul}',
    '{"a": "b',
    '{"a": "b\n"}',
    '{"a": -}',
    '{"a": 1.}',
    '{"a": 1e}',
    '{"a": 1e+}',
    '{"a": 01}',
    '{"a": .5}',
    '{"a": NaN}',
    '{"a": [1,]}',
    '{"a": [1 2]}',
    '{"a":1 "b":2}',
    '{"a": "\\x"}',
    '{"a": "\\u12"}',
    '{"a": "\\u12G4"}',
    "{} x",
    "{}{}",
    "{,}",
    "{",
    '{"a"',
    '{"a":',
    '{"apiVersion": 1}',
    '{"kind": ["x"]}',
    '{"apiVersion": null, "kind": "K"}',
    "\u00a0{}",
    "\u2028{}",
    '{"a": "\u00e9\u2028"}',
    "{'a': 1}",
    # aliases: shared, refused when they contain themselves or laugh (go-yaml's budget)
    "x: &x {k: v}\ny: *x\nz: [*x, *x]\n",
    "a: &a [*a]\n",
    "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(9)
    ),
    "[" * 900 + "]" * 900,
    # an anchor defined again names the later node (PyYAML's composer refused it); the
    # document's parse errors come before any decoding error
    "a: &x 1\nb: &x [2]\nc: *x\n",
    "a: &x 1\nb: *x\nc: &x 3\nd: *x\n",
    "a: &x 1\nb: &x [*x]\n",
    "a: &x [1]\nb: &x [*x, *x]\nc: &x [*x, *x]\n",
    "a: &x {k: 1}\nb: &x {j: 2}\n<<: *x\n",
    "a: &x 1\nb: &x 2\nc: [\n",
    "a: &x 1\nb: &x 2\nc: [d:e, *x]\n",
    'a: &x 1\nb: &x 2\nc: "\\q"\n',
    "a: !!int x\nb: [\n",
    "a: &a [*a]\nb: *nope\n",
    # tags: ``!`` leaves a string (libyaml marks it implicit, PyYAML resolved it)
    "c: ! 3\nd: ! '3'\ne: !int 3\nf: !!int '3'\n",
    "! <<: {a: 1}\nb: !!merge {c: 2}\n'<<': 3\n",
    # escapes: go-yaml reads \\' (libyaml refuses), refuses \\/ (libyaml reads)
    'c: "\\\'"\n',
    'c: ["\\\'", 1]\n',
    'c: "\\/"\n',
    'c: 1\nd: "a\n  b\\/"\n',
    'c: "\\\\/"\n',
    '\u00e9: "\u00e9\\/"\n',
    # keys that are collections: %#v
    "? [1, a]\n: 2\n",
    "? {a: [1.5, true]}\n: 2\n",
]


def outputs() -> list[str]:
    found = list(HAND_WRITTEN)
    for text in (JSON_CREDENTIAL, YAML_CREDENTIAL):
        found += [text[:end] for end in range(len(text))]
        found += [text[:i] + text[i + 1 :] for i in range(len(text))]
        found += [text[:i] + extra + text[i:] for i in range(0, len(text), 3) for extra in INSERTED]
    return list(dict.fromkeys(found))


def _one_pair_null_mapping(value: Any) -> bool:
    if isinstance(value, dict):
        if len(value) == 1 and None in value.values():
            return True
        return any(_one_pair_null_mapping(each) for each in value.values())
    return isinstance(value, list) and any(_one_pair_null_mapping(each) for each in value)


def ours(text: str) -> dict[str, Any]:
    try:
        value = decode_exec_output(text.encode())
    except DecodeError as exc:
        return {"error": str(exc)}
    problem = interpret_problem(value)
    return {"error": problem} if problem is not None else {"json": value}


def test_exec_output_decoded_as_client_go_decodes_it(goyaml_verdict: Path) -> None:  # noqa: F811
    cases = outputs()
    assert len(cases) > 2000
    verdicts = run_converter(goyaml_verdict, ["-exec"], stdin=json.dumps(cases))
    assert len(verdicts) == len(cases)
    differences = []
    for text, go in zip(cases, verdicts, strict=True):
        mine = ours(text)
        if _FLOW_PAIR.search(text) and "json" in go:
            # known: a plain scalar ending in ":" in a flow sequence, which libyaml
            # refuses and PyYAML's pure-Python parser reads as a one-pair mapping;
            # go-yaml reads the text. Checked as it is, not skipped
            assert "json" in mine and _one_pair_null_mapping(mine["json"]), (text, mine)
            continue
        if "error" in go:
            same = mine.get("error") == go["error"]
        else:
            # numbers as the Go side's JSON decode reads them, on both sides
            same = "json" in mine and canonical(kubectl_value(mine["json"])) == canonical(
                kubectl_value(go["json"])
            )
        if not same:
            differences.append(f"{text!r}\n    go:   {go}\n    ours: {mine}")
    assert not differences, f"{len(differences)} of {len(cases)} differ:\n" + "\n".join(
        differences[:15]
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"a": [1, 2.5e-3, true, null, "x\\u00e9"]}', None),
        (b"-", "invalid character ' ' in numeric literal"),
        (b"tr", "invalid character ' ' in literal true (expecting 'u')"),
        (b"[" * 10001, "invalid character '[' exceeded max depth"),
        (b"\xe9", "invalid character '\u00e9' looking for beginning of value"),
        (b"\x7f", "invalid character '\\x7f' looking for beginning of value"),
        (b"", "unexpected end of JSON input"),
        (b"'", "invalid character '\\'' looking for beginning of value"),
    ],
)
def test_go_json_syntax_errors_beyond_an_object(data: bytes, expected: str | None) -> None:
    """Top-level values the exec oracle cannot reach (it reads JSON only after ``{``):
    encoding/json's scanner as scanner.go words it, the end of input stepped as a space
    (``eof``), ``quoteChar`` of a byte as the rune of its value."""
    assert go_json_syntax_error(data) == expected
