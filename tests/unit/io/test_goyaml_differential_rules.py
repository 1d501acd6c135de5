"""The go-yaml v2 rules our readers apply, one by one, without the Go toolchain.

``test_goyaml_differential`` finds where we differ from kubectl's reading; these pin
what each fix does (message, line, column), for every parser backend.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kubectl_crd.io import load_documents
from tests.conftest import REPO_ROOT

REFUSE_TOO = "(kubectl and the API server refuse this file too)"


def errors(text: str) -> list[str]:
    return [str(d.error) for d in load_documents(text, "f.yaml") if d.error is not None]


def contents(text: str, *, positions: bool = True) -> list[object]:
    documents = load_documents(text, "f.yaml", positions=positions)
    assert all(d.error is None for d in documents), [str(d.error) for d in documents]
    return [d.content for d in documents]


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # go-yaml reports no line on a document's first line (parser.fail in decode.go)
        ('a: "^app1\\/.+$"\n', "f.yaml:1:10: error converting YAML to JSON: yaml: found"),
        ('a: 1\nb: "x\n  \\/"\n', "f.yaml:3:3: error converting YAML to JSON: yaml: line 3: found"),
        # the line counts from the "---" that starts kubectl's piece
        (
            'a: 1\n---\nb: 2\nc: "\\/"\n',
            "f.yaml:4:5: error converting YAML to JSON: yaml: line 2: ",
        ),
        ('"\\/": v\n', "f.yaml:1:2: error converting YAML to JSON: yaml: found unknown escape"),
        ('a: ["\\/"]\n', "f.yaml:1:6: error converting YAML to JSON: yaml: found unknown escape"),
    ],
)
def test_a_slash_escape_is_refused_as_kubectl_refuses_it(text: str, expected: str) -> None:
    [error] = errors(text)
    assert error.startswith(expected)
    assert error.endswith(f"found unknown escape character {REFUSE_TOO}")


@pytest.mark.usefixtures("backend")
def test_a_slash_escaped_otherwise_or_in_a_json_stream_is_read() -> None:
    assert contents("a: \"x\\\\/y\"\nb: '\\/'\nc: \\/\n") == [
        {"a": "x\\/y", "b": "\\/", "c": "\\/"}
    ]
    # kubectl reads a stream that starts with "{" with a JSON decoder, which knows "\/"
    assert contents('{"a": "x\\/y"}\n') == [{"a": "x/y"}]


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("positions", [True, False])
def test_what_go_yaml_reads_and_libyaml_refuses(positions: bool) -> None:
    # "\'" is an escape for go-yaml; ":" inside a flow plain scalar goes on (libyaml
    # 0.2.5 refuses both); "?" still ends a flow plain scalar, as for go-yaml
    assert contents('a: "it\\\'s"\n', positions=positions) == [{"a": "it's"}]
    assert contents("a: [b:c, 12:30:45]\nd: {e:f}\n", positions=positions) == [
        {"a": ["b:c", "12:30:45"], "d": {"e:f": None}}
    ]
    assert errors("a: [http://x/y?a=b]\n")


@pytest.mark.usefixtures("backend")
def test_a_block_scalar_at_the_end_of_a_file_keeps_its_line_break() -> None:
    # kubectl's LineReader ends the last line with "\n" too
    assert contents("a: |\n  x") == [{"a": "x\n"}]
    assert contents("a: >\n  x") == [{"a": "x\n"}]
    assert contents("a: |-\n  x") == [{"a": "x"}]


@pytest.mark.usefixtures("backend")
def test_a_directive_is_refused_as_kubectl_cuts_it_from_its_document() -> None:
    [error] = errors("%YAML 1.1\n---\na: 1\n")[:1]
    assert error.startswith("f.yaml:1:1: a %YAML or %TAG directive: kubectl cuts the stream")
    # after a document in the same piece, go-yaml never reads it
    assert contents("a: |\n  x\n%YAML 1.1\n---\nb: 1\n") == [{"a": "x\n"}, {"b": 1}]
    # the directive's line, whichever parser reads it (ruamel's Python parser, which
    # takes what libyaml refuses, once failed on a directive with an AttributeError)
    assert errors("a: [b:c]\n---\n# c\n%TAG !e! tag:x,2000:\n---\nb: !e!c 1\n")[0].startswith(
        "f.yaml:4:1: a %YAML or %TAG directive"
    )


@pytest.mark.usefixtures("backend")
def test_what_follows_a_document_end_is_not_read_until_the_next_separator() -> None:
    # go-yaml reads one document of each piece: what follows its end is not read
    assert contents("a: 1\n...\nb: 2\n") == [{"a": 1}]
    assert contents("a: 1\n...\nb: [\n---\nc: 3\n") == [{"a": 1}, {"c": 3}]
    assert contents("  a: 1\nb: 2\n") == [{"a": 1}]


@pytest.mark.usefixtures("backend")
def test_what_follows_a_document_end_is_skipped_whatever_the_parser_finds_there() -> None:
    # libyaml's scanner meets the open quote after the "..." has ended the document,
    # ruamel's pure-Python parser before it ends it (its root is complete then)
    assert contents('a: |\n...\n">.\n---\nc: 3\n') == [{"a": ""}, {"c": 3}]


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("positions", [True, False])
def test_a_piece_that_starts_with_a_document_end_is_refused(positions: bool) -> None:
    documents = load_documents("a: 1\n---\n# c\n...\nb: 2\n", "f.yaml", positions=positions)
    assert [d.content for d in documents] == [{"a": 1}, None]
    assert str(documents[1].error).startswith(
        'f.yaml:4:1: a document that starts with "...": kubectl cuts the stream'
    )
    # a "---" that ends nothing stays in its piece: "---\n..." is an empty document
    assert contents("---\n...\na: 1\n") == []


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize("positions", [True, False])
def test_a_line_starting_with_dashes_ends_the_stream_as_kubectl_reads_it(positions: bool) -> None:
    text = "a: 1\n---\nb: 2\n---x\nc: 3\n"
    documents = load_documents(text, "f.yaml", positions=positions)
    # the piece that the bad line ends is never decoded by kubectl, nor is the rest
    assert [d.content for d in documents] == [{"a": 1}, None]
    assert str(documents[1].error) == (
        "f.yaml:4:1: invalid Yaml document separator: x (kubectl ends a document at every "
        'line that starts with "---" and refuses this file too)'
    )
    assert contents("a: 1\n--- # c\nb: 2\n--- \nc: 3\n") == [{"a": 1}, {"b": 2}, {"c": 3}]
    # "---#" is a separator with a comment for kubectl (libyaml wants a blank)
    assert contents("a: 1\n---#c\nb: 2\n") == [{"a": 1}, {"b": 2}]


@pytest.mark.usefixtures("backend")
def test_only_a_plain_double_angle_is_a_merge_key() -> None:
    assert contents("!!merge x: v\n") == [{"x": "v"}]
    assert contents("a: &a {b: 1}\nc:\n  !!merge <<: *a\n") == [{"a": {"b": 1}, "c": {"b": 1}}]


def test_the_converter_mirrors_the_api_server_release_of_the_suite() -> None:
    versions = (REPO_ROOT / "hack" / "envtest-versions.env").read_text()
    kubernetes = re.search(r"^KUBERNETES_VERSION=v1\.(\S+)$", versions, re.MULTILINE)
    assert kubernetes is not None
    go_mod = Path(REPO_ROOT / "hack" / "goyaml" / "go.mod").read_text()
    assert f"k8s.io/apimachinery v0.{kubernetes[1]}\n" in go_mod
