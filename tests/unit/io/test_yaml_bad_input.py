"""Bad input is a result, not an exception, and never costs the other documents."""

from __future__ import annotations

import sys
import time

import pytest

from kubectl_crd.io import MAX_DEPTH, load_documents, loading
from kubectl_crd.model.errors import Location, YamlError
from tests.unit.io.conftest import load, load_one


def error_of(text: str | bytes) -> YamlError:
    documents = load_documents(text, "bad.yaml")
    failed = [d for d in documents if d.error is not None]
    assert len(failed) == 1, documents
    error = failed[0].error
    assert isinstance(error, YamlError)
    return error


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("a: b: c\n", 1, 5, "mapping values are not allowed in this context"),
        ("a: [1, 2\nb: 3\n", 2, 2, "did not find expected ',' or ']'"),
        ("a:\n\t- 1\n", 2, 1, "found character that cannot start any token"),
        ('a: "x\n', 2, 1, "found unexpected end of stream"),
        ("a: 1\nb: \x07\n", 2, 4, "control character U+0007 is not allowed in YAML"),
    ],
)
def test_syntax_errors_name_file_line_and_column(
    backend: str, text: str, line: int, column: int, message: str
) -> None:
    error = error_of(text)
    assert error.location == Location("bad.yaml", line, column)
    assert "\n" not in str(error)
    if backend == "c":
        # ruamel's pure-Python scanner words some problems differently.
        assert error.message.startswith(message)


@pytest.mark.usefixtures("backend")
def test_a_syntax_error_costs_only_its_own_document() -> None:
    text = "a: 1\n---\nb: 2\n---\nc: [\n---\nd: 4\n---\ne: 'x\n---\nf: 6\n"
    documents = load(text)
    assert [(d.index, d.error is None) for d in documents] == [
        (0, True),
        (1, True),
        (2, False),
        (3, True),
        (4, False),
        (5, True),
    ]
    assert [d.content for d in documents if d.ok] == [{"a": 1}, {"b": 2}, {"d": 4}, {"f": 6}]
    assert documents[2].location.line == 5
    assert documents[3].content.key_location("d") == Location("test.yaml", 7, 1)
    assert documents[5].content.key_location("f") == Location("test.yaml", 11, 1)


@pytest.mark.usefixtures("backend")
def test_a_failed_load_does_not_poison_the_next() -> None:
    assert load("a: [\n")[0].error is not None
    assert load("a: 1\n")[0].content == {"a": 1}


@pytest.mark.usefixtures("backend")
def test_alias_bomb_is_refused_quickly() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for name, previous in zip("bcdefghi", "abcdefgh", strict=True):
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]")
    text = "first: ok\n---\n" + "\n".join(lines) + "\n---\nlast: ok\n"
    # the CPU this thread spent, not the wall clock: "quickly" is the work done (a bomb
    # expanded is 9^9 nodes), which a loaded CI machine's waits would add to
    started = time.thread_time()
    documents = load(text)
    assert time.thread_time() - started < 2
    assert [d.content for d in documents if d.ok] == [{"first": "ok"}, {"last": "ok"}]
    assert documents[1].error is not None
    assert documents[1].error.message == "document contains excessive aliasing"


def test_ordinary_aliasing_is_fine() -> None:
    text = "base: &base {a: 1, b: [1, 2, 3]}\n" + "".join(f"x{i}: *base\n" for i in range(200))
    document = load_one(text)
    assert document.error is None
    assert document.content["x199"] == {"a": 1, "b": [1, 2, 3]}


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "a: " + "{b: " * 5_000 + "1" + "}" * 5_000 + "\n",
        "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 1))
        + "  " * (MAX_DEPTH + 1)
        + "x\n",
    ],
    ids=["flow-lists", "flow-maps", "block-maps"],
)
def test_deep_nesting_is_refused_without_recursion_error(text: str) -> None:
    documents = load(text + "---\nnext: ok\n")
    assert documents[0].error is not None
    assert documents[0].error.message == f"exceeded max depth of {MAX_DEPTH}"
    assert documents[1].content == {"next": "ok"}


def test_deep_nesting_with_the_pure_python_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    # ruamel's pure-Python scanner is quadratic in flow nesting, so only just past the limit.
    monkeypatch.setattr(loading, "BACKEND", "python")
    depth = MAX_DEPTH + 10
    documents = load("a: " + "[" * depth + "]" * depth + "\n---\nnext: ok\n")
    assert documents[0].error is not None
    assert documents[0].error.message == f"exceeded max depth of {MAX_DEPTH}"
    assert documents[1].content == {"next": "ok"}


@pytest.mark.parametrize("depth", [MAX_DEPTH - 100, MAX_DEPTH, MAX_DEPTH + 1])
def test_both_builds_refuse_the_same_depth_whatever_the_recursion_limit(depth: int) -> None:
    # the plain build's block reader once left its flow collections' depth to Python's
    # recursion limit: under hypothesis' higher one it took 500 levels the full loader
    # refuses (the fuzzer's find, 2026-11-29)
    data = ("a: " + "[" * depth + "]" * depth + "\n").encode()
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        full = load_documents(data, "in.yaml")
        plain = load_documents(data, "in.yaml", positions=False)
    finally:
        sys.setrecursionlimit(limit)
    assert [str(d.error) for d in plain] == [str(d.error) for d in full]
    assert (full[0].error is None) == (depth < MAX_DEPTH)


def test_nesting_up_to_the_limit_is_fine() -> None:
    text = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert load_one(text).error is None


@pytest.mark.parametrize(
    ("data", "message", "location"),
    [
        (b"\x7fELF\x02\x01\x01\x00\x00\x00", "not a YAML or JSON file", Location("bad.yaml")),
        (
            b"a: 1\nb: \xff\xfe\n",
            "not a YAML or JSON file: invalid UTF-8 at byte 8",
            Location("bad.yaml", 2, 4),
        ),
        (b"PK\x03\x04\x14\x00", "not a YAML or JSON file", Location("bad.yaml")),
    ],
)
def test_binary_files(data: bytes, message: str, location: Location) -> None:
    documents = load_documents(data, "bad.yaml")
    assert len(documents) == 1
    assert documents[0].content is None
    assert documents[0].error is not None
    assert documents[0].error.message.startswith(message)
    assert documents[0].error.location == location


@pytest.mark.parametrize(
    "data",
    [
        "a: ü\n".encode("utf-16"),
        b"\xef\xbb\xbfa: \xc3\xbc\n",
        "a: ü\n",
    ],
    ids=["utf-16-bom", "utf-8-bom", "str"],
)
def test_encodings(data: bytes | str) -> None:
    assert load_documents(data, "x.yaml")[0].content == {"a": "ü"}


@pytest.mark.usefixtures("backend")
@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("- a\n- b\n", "a list"),
        ("just text\n", "a string"),
        ("42\n", "a number"),
        ("true\n", "a boolean"),
    ],
)
def test_documents_must_be_mappings(text: str, what: str) -> None:
    document = load_one(text)
    assert document.error is not None
    assert document.error.message == f"document is not a mapping/object: it is {what}"
    assert document.error.location == Location("test.yaml", 1, 1)


@pytest.mark.usefixtures("backend")
# ("---\n---\n# c\n...\n" is not empty for kubectl: its piece after the second "---"
# starts with "...", which go-yaml refuses; test_goyaml_differential_rules has it)
@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n", "---\n---\n# c\n", "~\n"])
def test_empty_documents_are_skipped(text: str) -> None:
    assert load(text) == []


@pytest.mark.usefixtures("backend")
def test_duplicate_keys_name_both_lines_and_keep_the_last_value() -> None:
    text = (
        "metadata:\n  annotations: {a: 1}\n  name: x\n  annotations: {b: 2}\nspec: {r: 1, r: 2}\n"
    )
    document = load_one(text)
    assert document.content == {
        "metadata": {"annotations": {"b": 2}, "name": "x"},
        "spec": {"r": 2},
    }
    assert document.error is not None
    assert document.error.message == 'duplicate field "annotations" at line 4 (first at line 2)'
    assert document.error.location == Location("test.yaml", 4, 3)
    assert [str(e) for e in document.more_errors] == [
        'test.yaml:5:14: duplicate field "r" at line 5 (first at line 5)'
    ]
    assert len(document.errors) == 2


def test_keys_that_collide_after_conversion_are_duplicates() -> None:
    # int 1 and string "1" are different keys to go-yaml but the same JSON field.
    document = load_one("1: a\n'1': b\n")
    assert document.content == {"1": "b"}
    assert document.error is not None
    assert 'duplicate field "1"' in document.error.message


def test_json_that_libyaml_cannot_read_still_loads() -> None:
    # Python's json.dumps escapes emoji as surrogate pairs, which libyaml rejects.
    documents = load('{"kind": "A", "e": "\\ud83d\\ude00", "n": 1.0}\n{"kind": "B"}\n')
    assert [d.content for d in documents] == [
        {"kind": "A", "e": "\U0001f600", "n": 1},
        {"kind": "B"},
    ]
    assert documents[1].location == Location("test.yaml", 2, 1)
    assert documents[1].content.key_location("kind") == Location("test.yaml", 2, 2)
    assert not documents[0].has_positions


def test_json_stream_duplicates_are_reported() -> None:
    documents = load('{"a": "\\ud83d\\ude00", "a": 2}\n')
    assert documents[0].error is not None
    assert 'duplicate field "a"' in documents[0].error.message


def test_broken_json_is_reported_as_yaml() -> None:
    error = error_of('{"a": 1,,}\n')
    assert error.location is not None
    assert error.location.line == 1
