"""The block reader (``io.blockyaml``) against the full loader: where it answers, the
same documents as libyaml's plain build (values with their types, indexes, locations,
digests); where it cannot be sure, no answer."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io.blockyaml import read_block_yaml
from kubectl_crd.io.documents import Document
from kubectl_crd.io.loading import _load_text, load_documents

from .yaml_mutations import PIECES, corpus_texts, mutated
from .yaml_scalar_cases import KEY_CASES, REJECTED_KEYS, REJECTED_SCALARS, SCALAR_CASES


def _typed(value: Any) -> Any:
    """``value`` with every part's type spelled out, key order kept."""
    if isinstance(value, dict):
        return [(key, _typed(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


def _shape(documents: list[Document]) -> list[Any]:
    return [
        (d.source, d.index, d.location, d.item, d.digest, d.error, _typed(d.content))
        for d in documents
    ]


def _libyaml(text: str) -> list[Document] | None:
    """The full loader's plain build, or None where it fails or reports a problem."""
    try:
        documents = _load_text(text, "in.yaml", positions=False, digest="d")
    except Exception:
        return None
    if any(d.error is not None for d in documents):
        return None
    return documents


def _agrees(text: str) -> bool:
    """Whether the block reader answers for ``text``; asserts it answers as libyaml."""
    fast = read_block_yaml(text, "in.yaml", "d")
    if fast is None:
        return False
    full = _libyaml(text)
    assert full is not None, f"accepted what the full loader refuses:\n{text}"
    assert _shape(fast) == _shape(full), text
    return True


def _either(text: str) -> list[Document]:
    """The block reader's documents where it answers (checked against libyaml's), else the
    full loader's: a case the reader leaves is still held to its expected value."""
    documents = read_block_yaml(text, "in.yaml", "d") if _agrees(text) else _libyaml(text)
    assert documents is not None, text
    return documents


ACCEPTED = [
    "a: 1\n",
    "a: 1\nb: two\n",
    "a:\n  b:\n    c: x\n  d: y\n",
    "a:\nb: 1\n",  # null
    "a:   # nothing\nb: 1\n",
    "list:\n- a\n- b\n",  # a sequence at its key's indentation
    "list:\n  - a\n  - b\nnext: 1\n",
    "list:\n- name: a\n  port: 1\n- name: b\n",
    "list:\n- - a\n  - b\n- - c\n",
    "list:\n-\n  a: 1\n- \n",
    "q: 'it''s'\nd: \"double # not a comment\"\n",
    "'quoted key': 1\n\"other\": 2\n",
    "image: registry.example/app:1.2 # comment\nurl: http://x/y#z\n",
    "flow: {a: 1, b: [x, 'y', \"z\"], c: {}}\nempty: []\n",
    "---\na: 1\n---\nb: 2\n",
    "# leading comment\n---\na: 1\n",
    "a: 1\n---\n# only a comment\n---\nb: 2\n---\n",
    "  indented: root\n  same: level\n",
    "args:\n- --verbose\n- -v\n",
    "yes: on\n1: 2\n0x10: 1.5\nnothing: ~\n",
    "emoji: ünïcödé ✓\n",
    "a: 1   \nb:    spaced   value  \n",
    "command: [sh, -c, 'echo hi']\n",
    "script: |\n  echo one\n    indented # not a comment\n\n  # nor this\nnext: 1\n",
    "script: |-\n  no final break\n\n\nnext: 1\n",
    "script: |  # a comment\n\n  after an empty line\n",
    "steps:\n- name: a\n  script: |\n    run\n- name: b\n",
    "script: |\n  the last line without a break",
    "a: |\n  text\n---\nb: 1\n",
    "a: multi\n  line\n",
    "description: one\n  two  \n\n  three\n      four\n\n\nnext: 1\n",
    "x:\n- a: b\n    c\n  d: e\n",
    "n: 1\n  2\n",  # "1 2": a string
    "a: b\n c\nd: e\n   f\n",
    "a: trailing   \n  spaces   \n",
    "a: b\n  - c\n  [d] 'e' &f *g ? h | i > j %k @l `m` ! n , o :p\nz: 1\n",
    "a: 'open\n  quote'\n",
    "a: 'it''s   \n\n   over  ''lines''  \n  here  '  # done\nb: 1\n",
    "a: '\n  starts on the next line'\n",
    'a: "esc\\n"\n',
    'e: "\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\"\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F600"\n',
    'd: "folded  \n  over\n\n  lines \\\n  joined\\\n\n  \\ spaced\\  \n  end"  # c\nz: 1\n',
    '"k\\x41": v\nf: ["\\t", {"\\u00e9": 1}]\n',
]

REFUSED = [
    "a: 1\na: 2\n",  # a duplicate key: the full loader reports it
    "a: &x 1\nb: *x\n",
    "a: !!str 1\n",
    "a: >\n  text\n",
    "a: |+\n  kept\n\n",
    "a: |2\n   text\n",
    "a: |\nb: 1\n",  # an empty literal
    "a: |\n  text\n    \n",  # spaces beyond the indentation on an empty line
    "a: |\n     \n  text\n",  # a leading empty line longer than the indentation
    "l:\n- |\n  text\n",
    "a: |x\n  text\n",
    "a: [- x]\n",
    "a:\n  plain on its own line\n",
    "a: b # c\n  d\n",
    "a: b\n  # c\n  d\n",
    "a: 'q'\n  more\n",
    "a: b\n  c # d\n",
    "a: 'open\nquote'\n",  # less indented than its key's mapping (libyaml takes it)
    "a: 'never closed\n  b: c\n",
    "a:  'x\n--- y'\n",
    "a: 'x\n  y' z\n",  # text after the closing quote
    'a: "\\q"\n',  # not an escape
    'a: "\\/"\n',  # go-yaml v2 has no "\/" (kubectl refuses it): the full loader reports it
    'a: "\\\'"\n',  # go-yaml v2's "\'", which libyaml refuses: the full loader reads it
    "a: [x?y]\n",  # "?" ends a plain scalar in a flow collection, for libyaml
    'a: "\\ud800"\n',  # a surrogate
    'a: "\\x4"\n',
    'a: "\\u12_4"\n',
    'a: "open\nquote"\n',  # less indented than its key's mapping
    '"multi\n  line key": v\n',
    "a: [1,\n  2]\n",
    "a:\tb\n",
    "a: 1\r\nb: 2\r\n",
    "- a\n- b\n",  # the root is not a mapping
    "just a scalar\n",
    "a: 1\n...\n",
    "%YAML 1.1\n---\na: 1\n",
    "--- a: 1\n",
    "<<: {a: 1}\n",
    "? complex\n: key\n",
    "a: b: c\n",
    "a: 1\n  b: 2\n",
    "a:\n    b: 1\n  c: 2\n",
    "a: .inf\n",
    "~: null key\n",
    "a: @reserved\n",
    "a: [a, b, ]\n",
    "a: {b: 1, b: 2}\n",
    "a: \x85\n",
    "a: x\u2028y\n",
    "a: \x07\n",
    "k" * 1001 + ": long key\n",
    "{a: 1}\n",
    '{"a": 1}\n',
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_the_usual_shapes_are_read_as_libyaml_reads_them(text: str) -> None:
    assert _agrees(text)


@pytest.mark.parametrize("text", REFUSED)
def test_anything_else_is_left_to_the_full_loader(text: str) -> None:
    assert read_block_yaml(text, "in.yaml") is None


@pytest.mark.parametrize(("written", "expected"), SCALAR_CASES)
def test_scalars_resolve_as_kubernetes_reads_them(written: str, expected: Any) -> None:
    for text in (f"v: {written}\n", f"l:\n- {written}\n"):
        documents = _either(text)
        value = next(iter(documents[0].content.values()))
        value = value[0] if isinstance(value, list) else value
        assert _typed(value) == _typed(expected)
    _agrees(f"f: [{written}]\n")  # in a flow sequence: as libyaml reads it, if at all


@pytest.mark.parametrize(("written", "expected"), KEY_CASES)
def test_keys_read_as_kubernetes_reads_them(written: str, expected: str) -> None:
    assert list(_either(f"{written}: v\n")[0].content) == [expected]


@pytest.mark.parametrize(
    "text",
    [f"v: {written}\n" for written, _ in REJECTED_SCALARS]
    + [f"{key}: v\n" for key in REJECTED_KEYS],
)
def test_what_kubernetes_refuses_is_left_to_the_full_loader(text: str) -> None:
    assert read_block_yaml(text, "in.yaml") is None


def test_corpus_files_are_read_as_libyaml_reads_them(corpus_dir: Path) -> None:
    texts = corpus_texts(corpus_dir)
    samples = [text for path, text in texts if "samples" in path.parts]
    accepted = sum(_agrees(text) for _, text in texts)
    # most published samples have the usual shape: the reader is really used
    assert accepted > len(samples) * 3 // 4, (accepted, len(samples))


def test_mutated_corpus_files_are_read_as_libyaml_reads_them_or_left(corpus_dir: Path) -> None:
    chooser = random.Random(26)
    texts = [text for path, text in corpus_texts(corpus_dir) if "samples" in path.parts]
    texts = [text for text in texts if len(text) < 4000 and read_block_yaml(text, "x")]
    accepted = 0
    for _ in range(4000):
        text = chooser.choice(texts)
        for _ in range(chooser.randint(1, 3)):
            text = mutated(text, chooser)
        accepted += _agrees(text)
    assert accepted > 500  # mutations the reader still takes: the comparison had work


def test_a_plain_build_uses_the_reader_and_keeps_what_the_loader_promises() -> None:
    text = "apiVersion: v1\nkind: List\nitems:\n- kind: A\n"
    # a List is read with positions all the same (its items keep where they were written)
    documents = load_documents(text, "in.yaml", positions=False, digest="d")
    assert documents[0].has_positions
    documents = load_documents("a: 1\n", "in.yaml", positions=False, digest="d")
    assert documents[0].content == {"a": 1} and not documents[0].has_positions
    assert documents[0].digest == "d"


#: opening -> fewest of the 1,500 generated lines the reader must take (about half of what
#: it took when written: 154, 8, 471, 495, 455), so the comparison with libyaml had work
#: (a reader that left every line to the full loader passed this test before)
OPENINGS = {"a: [": 77, "a: {": 4, "a: ": 235, "- ": 247, "'k': ": 227}


@pytest.mark.parametrize("opening", list(OPENINGS))
def test_random_lines_of_indicators_are_read_as_libyaml_reads_them_or_left(
    opening: str,
) -> None:
    chooser = random.Random(opening)
    closing = {"a: [": "]", "a: {": "}"}.get(opening, "")
    accepted = 0
    for _ in range(1500):
        middle = "".join(chooser.choice(PIECES) for _ in range(chooser.randint(1, 8)))
        text = f"{opening}{middle}{closing}\n"
        accepted += _agrees(text if opening != "- " else f"l:\n{text}")
    assert accepted >= OPENINGS[opening], accepted
