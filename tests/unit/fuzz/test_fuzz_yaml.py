"""Fuzzing the YAML readers: ``io.loading.load_documents`` (both builds) and the block
reader (``io.blockyaml``), on generated, truncated, corrupted, invalid UTF-8, deeply
nested, alias-bomb and huge input.

Property: a list of documents, each with its content or a ``YamlError`` that is one
line; never an exception; every call bounded (``bounds``). Where the block reader
answers, its documents are the full loader's (the differential of
``tests/unit/io/test_blockyaml.py``, here on hypothesis's input).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kubectl_crd.io.blockyaml import read_block_yaml
from kubectl_crd.io.loading import load_documents
from tests.unit.fuzz.bounds import fuzz_settings, tallied

REPO = Path(__file__).resolve().parents[3]
#: real manifests to corrupt: every YAML file of examples/
SEEDS = sorted(
    path.read_bytes()
    for path in (REPO / "examples").rglob("*.yaml")
    if path.stat().st_size < 20_000
)
PIECES = [
    b" ", b"  ", b"- ", b": ", b"#", b"'", b'"', b"{", b"}", b"[", b"]", b",", b"\n",
    b"\n  ", b"&a ", b"*a", b"!!str ", b"!!binary ", b"|", b">-", b"? ", b"%YAML 1.1\n",
    b"---\n", b"...\n", b"<<: *a\n", b"\t", b"\r\n", b"\xef\xbb\xbf", b"\xff", b"\xc3",
    b"\xed\xa0\x80", b"\x00", b"\x1b[31m", b"\\u0000", b"0x", b"1e400", b"~", b"null",
]  # fmt: skip


def _check(documents: list[Any]) -> None:
    for document in documents:
        if document.error is not None:
            line = str(document.error)
            assert line.strip() and "\n" not in line.strip(), line
            assert "Traceback" not in line


def _read_all_ways(data: bytes) -> None:
    full = load_documents(data, "in.yaml")
    _check(full)
    plain = load_documents(data, "in.yaml", positions=False)
    _check(plain)
    # the same documents and the same problems whichever build reads them
    assert [d.error is None for d in full] == [d.error is None for d in plain], (
        [str(d.error) for d in full],
        [str(d.error) for d in plain],
    )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    fast = read_block_yaml(text, "in.yaml")
    if fast is not None:
        assert [d.content for d in fast] == [d.content for d in plain if d.error is None]


@st.composite
def corrupted(draw: st.DrawFn) -> bytes:
    """A real manifest cut short, with pieces spliced in and bytes flipped."""
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(data)))
        what = draw(st.integers(0, 3))
        if what == 0:
            data[at:at] = draw(st.sampled_from(PIECES))
        elif what == 1 and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif what == 2:
            del data[at : at + draw(st.integers(1, 40))]
        else:
            data = data[:at]  # truncated
    return bytes(data)


@st.composite
def nested(draw: st.DrawFn) -> bytes:
    """Deep flow or block nesting, or an alias tree that expands exponentially."""
    depth = draw(st.integers(1, 3000))
    kind = draw(st.sampled_from(["flow-seq", "flow-map", "block", "aliases", "merge"]))
    if kind == "flow-seq":
        return b"a: " + b"[" * depth + b"]" * draw(st.integers(0, depth)) + b"\n"
    if kind == "flow-map":
        return b"a: " + b"{b: " * depth + b"1" + b"}" * draw(st.integers(0, depth)) + b"\n"
    if kind == "block":
        depth = min(depth, 800)
        return b"".join(b"  " * i + b"k%d:\n" % i for i in range(depth)) + b"  " * depth + b"v\n"
    levels, width = draw(st.integers(2, 12)), draw(st.integers(2, 12))
    lines = [b'a0: &a0 ["x"]' if kind == "aliases" else b"a0: &a0 {x: 1}"]
    for i in range(1, levels):
        refs = b",".join(b"*a%d" % (i - 1) for _ in range(width))
        if kind == "aliases":
            lines.append(b"a%d: &a%d [%s]" % (i, i, refs))
        else:
            lines.append(b"a%d: &a%d {<<: [%s], k%d: 1}" % (i, i, refs, i))
    return b"\n".join(lines) + b"\n"


huge = st.sampled_from(
    [
        b"a: " + b"x" * 3_000_000 + b"\n",
        b"a: [" + b",".join([b"1"] * 100_000) + b"]\n",
        b"".join(b"k%d: v\n" % i for i in range(50_000)),
        b"- " * 5000 + b"x\n",
        b"---\n" * 20_000,
    ]
)


@fuzz_settings()
@given(corrupted())
@tallied
def test_corrupted_manifests_read_or_fail_in_one_line(data: bytes) -> None:
    _read_all_ways(data)


@fuzz_settings()
@given(st.binary(max_size=400) | st.text(max_size=300).map(str.encode))
@tallied
def test_arbitrary_bytes_read_or_fail_in_one_line(data: bytes) -> None:
    _read_all_ways(data)


@fuzz_settings()
@given(st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join))
@tallied
def test_yaml_indicator_soup_reads_or_fails_in_one_line(data: bytes) -> None:
    _read_all_ways(data)


@fuzz_settings(examples=60, deadline_seconds=8.0)
@given(nested() | huge)
@tallied
def test_deep_nesting_alias_bombs_and_huge_input_stay_bounded(data: bytes) -> None:
    _read_all_ways(data)
