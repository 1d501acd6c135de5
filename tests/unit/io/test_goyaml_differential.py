"""Our YAML readers against kubectl's: go-yaml v2 through ``sigs.k8s.io/yaml``.

kubectl (and the API server) read YAML with go-yaml v2: ``sigs.k8s.io/yaml`` converts
each document to JSON, after k8s.io/apimachinery's ``YAMLReader`` has cut the stream
at ``---`` lines. ``hack/goyaml-converter.sh`` builds that chain (``hack/goyaml``,
the module versions of the Kubernetes release the suite's API server runs) into a
cache outside the repository; it is the oracle here. Every corpus file and every
stream of ``goyaml_cases`` goes through it and through each of our readers: libyaml's
events with positions, libyaml's plain build, and the block reader (where it answers);
the verdicts (a document accepted or refused) and the values (as JSON, after the
JSON decode the server does: integers that fit int64, other numbers float64) must be
the same.

Deliberate differences (each one is checked, not skipped):

- a duplicate key: go-yaml keeps the last value, and so do we, but we report it too:
  kubectl's default ``--validate=strict`` has the API server refuse it (strict
  decoding), and validating without it would hide the error;
- a document that is not a mapping: ``sigs.k8s.io/yaml`` converts it, kubectl then
  refuses it ("cannot unmarshal ... unstructured.detector"); we report it while reading;
- nesting deeper than ``loading.MAX_DEPTH`` (500): go-yaml allows 10,000 levels, but
  every value we accept must stay usable by recursive Python code;
- after a document kubectl refuses, kubectl stops reading the stream; we go on at the
  next ``---`` so that every broken document is reported in one run;
- a JSON stream (first character ``{``) that breaks: kubectl stops; we read it as
  YAML, which gives the same values for the documents kubectl had read.

Known differences, not generated (see ``goyaml_cases``): a tab inside a flow plain
scalar of a document that only ruamel's Python parser reads (libyaml refused its
``[a:b]`` or ``\\'``) ends the scalar there; a ``%TAG`` directive after a document in
the same piece is ignored by go-yaml, while libyaml applies it to the next document.
We follow kubectl where the API server, reading a raw YAML body whole, differs: the
last line's break, a directive before ``---``.

When the converter cannot be built the tests fail, so that CI proves they ran;
``KUBECTL_CRD_SKIP_GOYAML=1`` turns that failure into a skip.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import Document, load_documents, loading
from kubectl_crd.io.blockyaml import read_block_yaml
from kubectl_crd.model.yamlscalars import INT64_MAX, INT64_MIN, json_float
from tests.conftest import REPO_ROOT
from tests.unit.io.goyaml_cases import generated_streams, mutated_streams
from tests.unit.io.yaml_mutations import corpus_texts

SCRIPT = REPO_ROOT / "hack" / "goyaml-converter.sh"
SKIP_ENV = "KUBECTL_CRD_SKIP_GOYAML"
SOURCE = "stream.yaml"

# Our errors for what go-yaml accepts and Kubernetes refuses later (see the docstring).
_LATER_REFUSALS = re.compile(r"duplicate field |document is not a mapping|exceeded max depth")


@pytest.fixture(scope="session")
def goyaml_verdict() -> Path:
    """The converter binary (built on first use)."""
    try:
        proc = subprocess.run(
            ["bash", str(SCRIPT)], capture_output=True, text=True, check=False, timeout=1800
        )
        lines = proc.stdout.strip().splitlines()
        problem = "" if proc.returncode == 0 and lines else proc.stderr[-2000:]
    except (OSError, subprocess.TimeoutExpired) as exc:
        problem, lines = str(exc), []
    if problem:
        if os.environ.get(SKIP_ENV) == "1":
            pytest.skip(f"{SKIP_ENV}=1 and no go-yaml converter: {problem}")
        pytest.fail(
            f"{SCRIPT} could not build the go-yaml converter:\n{problem}\n"
            f"These tests need Go and the Go module proxy; set {SKIP_ENV}=1 to skip them.",
            pytrace=False,
        )
    return Path(lines[-1])


def run_converter(binary: Path, args: list[str], stdin: str | None = None) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [str(binary), *args], input=stdin, capture_output=True, text=True, check=True
    )
    # "\n" only: the JSON may hold U+2028 and U+0085, which splitlines() also splits at
    return [json.loads(line) for line in proc.stdout.split("\n") if line]


def _kubectl_int(digits: str) -> int | float:
    value = int(digits)
    return value if INT64_MIN <= value <= INT64_MAX else float(digits)


def kubectl_value(raw: Any) -> Any:
    """The JSON kubectl got from go-yaml, as the server's decoder reads it (integers
    that fit int64, other numbers float64; json.Marshal writes whole floats as integers)."""
    return json.loads(
        json.dumps(raw), parse_int=_kubectl_int, parse_float=lambda s: json_float(float(s))
    )


def canonical(value: Any) -> str:
    # json.dumps tells 1 from 1.0 and True from 1, which == does not
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# -- our readers -------------------------------------------------------------------------


def with_positions(text: str) -> list[Document]:
    return load_documents(text, SOURCE)


def libyaml_plain(text: str) -> list[Document]:
    # the plain build without the block reader: libyaml's events
    original = vars(loading)["read_block_yaml"]
    setattr(loading, "read_block_yaml", lambda *args: None)  # noqa: B010
    try:
        return load_documents(text, SOURCE, positions=False)
    finally:
        setattr(loading, "read_block_yaml", original)  # noqa: B010


def block_reader(text: str) -> list[Document] | None:
    decoded, problem = loading.decode_text(text, SOURCE)
    return None if problem is not None else read_block_yaml(decoded, SOURCE)


READERS: dict[str, Callable[[str], list[Document] | None]] = {
    "libyaml": with_positions,
    "libyaml-plain": libyaml_plain,
    "block": block_reader,
}


# -- comparison --------------------------------------------------------------------------


def disagreements(verdict: dict[str, Any], documents: list[Document]) -> list[str]:
    """How ``documents`` (one reader's) differ from kubectl's ``verdict`` on one stream.

    kubectl stops at the first piece it refuses, so the pieces after it are not
    compared (we go on at the next ``---``, to report every broken document at once).
    """
    if verdict["mode"] == "json":
        return _json_disagreements(verdict, documents)
    problems: list[str] = []
    stops = [
        d for d in documents if d.error and "invalid Yaml document separator" in d.error.message
    ]
    if verdict.get("stop"):
        # kubectl refused a "---" line, and with it the piece that line ends and the rest
        if not stops:
            problems.append(f"kubectl stops ({verdict['stop']}), we do not")
    elif stops:
        problems.append(f"we stop ({stops[0].error}), kubectl does not")
    documents = [d for d in documents if d not in stops]
    pieces = verdict["docs"]
    if not pieces:
        return problems + [f"kubectl read no document, we read {_show(d)}" for d in documents]
    starts = [piece["line"] for piece in pieces]
    found: list[list[Document]] = [[] for _ in pieces]
    for document in documents:
        # a broken document is placed where its error is (its start may be the "---"
        # line, which belongs to no piece)
        where = document.location
        if document.content is None and document.error and document.error.location:
            where = document.error.location
        line = where.line if where else 0
        found[max((i for i, start in enumerate(starts) if start <= line), default=0)].append(
            document
        )
    for piece, mine in zip(pieces, found, strict=True):
        problems.extend(f"piece at line {piece['line']}: {p}" for p in _compare(piece, mine))
        if "error" in piece:
            break
    return problems


def _compare(piece: dict[str, Any], mine: list[Document]) -> list[str]:
    if "error" in piece:
        if not any(d.error is not None for d in mine):
            return [f"kubectl refuses it ({piece['error']}), we read {_show_all(mine)}"]
        return []
    value = kubectl_value(piece["json"])
    if value is None:
        if mine:
            return [f"kubectl skips an empty document, we read {_show_all(mine)}"]
        return []
    if len(mine) != 1:
        return [f"kubectl reads {canonical(value)[:200]}, we read {_show_all(mine)}"]
    [document] = mine
    problems = []
    errors = [document.error, *document.more_errors] if document.error else []
    for error in errors:
        if not _LATER_REFUSALS.search(error.message):
            problems.append(f"kubectl reads {canonical(value)[:200]}, we refuse it: {error}")
    not_a_mapping = any("not a mapping" in error.message for error in errors)
    if not_a_mapping == isinstance(value, dict):
        problems.append(f"kubectl reads {canonical(value)[:100]}; 'not a mapping': {not_a_mapping}")
    if not problems and canonical(document.content) != canonical(value):
        problems.append(
            f"values differ: kubectl {canonical(value)[:300]} ours {canonical(document.content)[:300]}"
        )
    return problems


def _json_disagreements(verdict: dict[str, Any], documents: list[Document]) -> list[str]:
    values = [kubectl_value(d["json"]) for d in verdict["docs"]]
    values = [v for v in values if v is not None]
    ours = [d for d in documents if d.content is not None]
    problems = []
    if verdict.get("stop") and all(d.error is None for d in documents):
        # kubectl read the values before the break, then stopped
        problems.append(f"kubectl stops ({verdict['stop']}), we report nothing")
    for value, document in zip(values, ours, strict=False):
        if document.error is not None and not _LATER_REFUSALS.search(document.error.message):
            problems.append(
                f"kubectl reads {canonical(value)[:200]}, we refuse it: {document.error}"
            )
        elif canonical(document.content) != canonical(value):
            problems.append(
                f"values differ: kubectl {canonical(value)[:300]} ours {canonical(document.content)[:300]}"
            )
    if len(ours) < len(values):
        problems.append(f"kubectl reads {len(values)} documents, we read {len(ours)}")
    return problems


def _show(document: Document) -> str:
    if document.error is not None:
        return f"an error ({document.error.message})"
    return canonical(document.content)[:200]


def _show_all(documents: list[Document]) -> str:
    return "nothing" if not documents else "; ".join(_show(d) for d in documents)


# -- the tests ---------------------------------------------------------------------------


def corpus_files(corpus_dir: Path) -> list[Path]:
    return sorted(
        path
        for part in ("crds", "samples")
        for path in (corpus_dir / part).rglob("*")
        # files at the top of crds/ and samples/ are the corpus's own indexes
        if path.suffix in (".yaml", ".yml", ".json") and path.parent != corpus_dir / part
    )


@pytest.fixture(scope="module")
def corpus_verdicts(goyaml_verdict: Path, corpus_dir: Path) -> list[tuple[Path, dict[str, Any]]]:
    files = corpus_files(corpus_dir)
    verdicts = run_converter(goyaml_verdict, [str(path) for path in files])
    assert len(verdicts) == len(files)
    return list(zip(files, verdicts, strict=True))


@pytest.fixture(scope="module")
def generated_verdicts(goyaml_verdict: Path) -> list[tuple[str, dict[str, Any]]]:
    streams = generated_streams()
    verdicts = run_converter(goyaml_verdict, ["-strings"], stdin=json.dumps(streams))
    assert len(verdicts) == len(streams)
    return list(zip(streams, verdicts, strict=True))


def _all_disagreements(
    reader: Callable[[str], list[Document] | None], cases: Iterator[tuple[str, str, dict[str, Any]]]
) -> tuple[int, list[str]]:
    compared, problems = 0, list[str]()
    for name, text, verdict in cases:
        documents = reader(text)
        if documents is None:
            continue
        compared += 1
        problems.extend(f"{name}: {p}" for p in disagreements(verdict, documents))
    return compared, problems


@pytest.mark.parametrize("reader", READERS)
def test_corpus_files_read_as_kubectl_reads_them(
    reader: str, corpus_verdicts: list[tuple[Path, dict[str, Any]]]
) -> None:
    cases = (
        (str(path), path.read_bytes().decode("utf-8"), verdict) for path, verdict in corpus_verdicts
    )
    compared, problems = _all_disagreements(READERS[reader], cases)
    assert problems == []
    # the block reader takes the usual shape only; libyaml reads every file
    assert compared >= (1400 if reader == "block" else 1548)


@pytest.mark.parametrize("reader", READERS)
def test_generated_streams_read_as_kubectl_reads_them(
    reader: str, generated_verdicts: list[tuple[str, dict[str, Any]]]
) -> None:
    cases = ((repr(text)[:120], text, verdict) for text, verdict in generated_verdicts)
    compared, problems = _all_disagreements(READERS[reader], cases)
    assert problems == []
    assert compared >= (300 if reader == "block" else len(generated_verdicts))


@pytest.fixture(scope="module")
def mutated_verdicts(goyaml_verdict: Path, corpus_dir: Path) -> list[tuple[str, dict[str, Any]]]:
    samples = [t for p, t in corpus_texts(corpus_dir) if "samples" in p.parts and len(t) < 4000]
    streams = mutated_streams(samples, seed=25, mutations=1500, lines=250)
    verdicts = run_converter(goyaml_verdict, ["-strings"], stdin=json.dumps(streams))
    assert len(verdicts) == len(streams)
    return list(zip(streams, verdicts, strict=True))


@pytest.mark.parametrize("reader", READERS)
def test_mutated_streams_read_as_kubectl_reads_them(
    reader: str, mutated_verdicts: list[tuple[str, dict[str, Any]]]
) -> None:
    cases = ((repr(text)[:120], text, verdict) for text, verdict in mutated_verdicts)
    compared, problems = _all_disagreements(READERS[reader], cases)
    assert problems == []
    refused = sum("error" in d for _, v in mutated_verdicts for d in v["docs"])
    # the mutations broke many documents, and the block reader still took some
    assert refused > 500
    assert compared >= (300 if reader == "block" else len(mutated_verdicts))
