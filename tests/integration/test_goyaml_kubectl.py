"""The go-yaml converter (``hack/goyaml``) against the real kubectl: the oracle of
``tests/unit/io/test_goyaml_differential.py`` says what kubectl says.

``kubectl create --dry-run=client --validate=false -f -`` reads a stream as the converter
does and needs no cluster to tell what it read: a document without ``kind`` is reported
as ``Object 'Kind' is missing in '<its JSON>'``, a document that is not an object as
``cannot unmarshal ... unstructured.detector``, and a stream it cannot read as ``error
parsing STDIN: <go-yaml's error>`` (and it stops there). Every generated stream of
``goyaml_cases`` goes through both; verdicts, values and error texts must be the same.

The streams go to kubectl as files, ``BATCH`` to a process (``-f 0000.yaml -f 0001.yaml
...``): kubectl's builder reads ``-f -`` and a file with the same ``FileVisitor``
(k8s.io/cli-runtime pkg/resource/visitor.go), names the file where it names ``STDIN``,
and goes on to the next file after one it cannot read (``ContinueOnError``). One process
per stream cost ~90 ms of Go start-up each: 1,900 of them were 128 s of a CI run.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from tests.integration.envtest import newest_kubectl
from tests.unit.io.goyaml_cases import generated_streams
from tests.unit.io.test_goyaml_differential import (
    goyaml_verdict,  # noqa: F401 (a fixture)
    run_converter,
)

#: Streams per kubectl process.
BATCH = 100
_MISSING_KIND = re.compile(r"""unable to decode "([^"]+)": Object 'Kind' is missing in '(.*)'$""")
_NOT_OBJECT = re.compile(r'unable to decode "([^"]+)": json: cannot unmarshal (\w+) into Go value')
_PARSING = re.compile(r"error parsing (\S+): (.*)$")
_CREATE = ["create", "--dry-run=client", "--validate=false", "--kubeconfig=/dev/null"]


def kubectl_read(kubectl: str, texts: list[str], directory: Path) -> list[list[tuple[str, Any]]]:
    """What kubectl made of each document of each of ``texts``, in order, by stream.

    Each stream is a file of ``directory`` (one kubectl process for them all); a line
    of kubectl's that names no file of the batch is an ``unexpected`` finding of every
    stream, so that it cannot pass unnoticed.
    """
    names = [f"{number:04d}.yaml" for number in range(len(texts))]
    for name, text in zip(names, texts, strict=True):
        (directory / name).write_text(text, encoding="utf-8", newline="")
    proc = subprocess.run(
        [kubectl, *_CREATE, *(arg for name in names for arg in ("-f", name))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=directory,
    )
    found: dict[str, list[tuple[str, Any]]] = {name: [] for name in names}
    unexpected: list[tuple[str, Any]] = []
    for line in (proc.stdout + proc.stderr).split("\n"):
        line = line.removeprefix("error: ")
        if match := _MISSING_KIND.search(line):
            finding: tuple[str, Any] = ("object", json.loads(match[2]))
        elif match := _NOT_OBJECT.search(line):
            finding = ("not an object", None)
        elif match := _PARSING.match(line):
            finding = ("refused", match[2])
        else:
            if line.strip() and "no objects passed" not in line:
                unexpected.append(("unexpected", line))
            continue
        if match[1] in found:
            found[match[1]].append(finding)
        else:
            unexpected.append(("unexpected", line))
    return [[*found[name], *unexpected] for name in names]


def converter_read(verdict: dict[str, Any]) -> list[tuple[str, Any]]:
    """The same, from the converter's verdict (kubectl stops at its first refusal)."""
    found: list[tuple[str, Any]] = []
    for document in verdict["docs"]:
        if "error" in document:
            return [*found, ("refused", document["error"])]
        value = document["json"]
        if isinstance(value, dict):
            found.append(("object", value))
        elif value is not None:
            found.append(("not an object", None))
    if verdict.get("stop"):
        found.append(("refused", verdict["stop"]))
    return found


def test_the_converter_reads_every_generated_stream_as_kubectl_does(
    goyaml_verdict: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    # documents with a kind or apiVersion would go on to the server; none is generated
    streams = [s for s in generated_streams() if "kind" not in s and "apiVersion" not in s]
    verdicts = run_converter(goyaml_verdict, ["-strings"], stdin=json.dumps(streams))
    kubectl = newest_kubectl()
    batches = [streams[start : start + BATCH] for start in range(0, len(streams), BATCH)]
    directories = [tmp_path / f"batch-{number}" for number in range(len(batches))]
    for directory in directories:
        directory.mkdir()
    with ThreadPoolExecutor(max_workers=2) as pool:
        read = [
            stream
            for batch in pool.map(functools.partial(kubectl_read, kubectl), batches, directories)
            for stream in batch
        ]
    differences = [
        f"{text!r}: kubectl {ours}, converter {theirs}"
        for text, ours, theirs in zip(
            streams, read, (converter_read(v) for v in verdicts), strict=True
        )
        if ours != theirs
    ]
    assert differences == []
    refused = sum(any(kind == "refused" for kind, _ in r) for r in read)
    assert len(streams) > 1500 and refused > 100
