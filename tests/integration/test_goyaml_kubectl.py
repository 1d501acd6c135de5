"""The go-yaml converter (``hack/goyaml``) against the real kubectl: the oracle of
``tests/unit/io/test_goyaml_differential.py`` says what kubectl says.

``kubectl create --dry-run=client --validate=false -f -`` reads a stream as the converter
does and needs no cluster to tell what it read: a document without ``kind`` is reported
as ``Object 'Kind' is missing in '<its JSON>'``, a document that is not an object as
``cannot unmarshal ... unstructured.detector``, and a stream it cannot read as ``error
parsing STDIN: <go-yaml's error>`` (and it stops there). Every generated stream of
``goyaml_cases`` goes through both; verdicts, values and error texts must be the same.
"""

from __future__ import annotations

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

_MISSING_KIND = re.compile(r"""unable to decode "STDIN": Object 'Kind' is missing in '(.*)'$""")
_NOT_OBJECT = re.compile(r'unable to decode "STDIN": json: cannot unmarshal (\w+) into Go value')
_PARSING = "error parsing STDIN: "
_CREATE = ["create", "--dry-run=client", "--validate=false", "-f", "-", "--kubeconfig=/dev/null"]


def kubectl_read(kubectl: str, text: str) -> list[tuple[str, Any]]:
    """What kubectl made of each document of ``text``, in order."""
    proc = subprocess.run(
        [kubectl, *_CREATE],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    found: list[tuple[str, Any]] = []
    for line in (proc.stdout + proc.stderr).split("\n"):
        line = line.removeprefix("error: ")
        if match := _MISSING_KIND.search(line):
            found.append(("object", json.loads(match[1])))
        elif _NOT_OBJECT.search(line):
            found.append(("not an object", None))
        elif line.startswith(_PARSING):
            found.append(("refused", line.removeprefix(_PARSING)))
        elif line.strip() and "no objects passed" not in line:
            found.append(("unexpected", line))
    return found


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
) -> None:
    # documents with a kind or apiVersion would go on to the server; none is generated
    streams = [s for s in generated_streams() if "kind" not in s and "apiVersion" not in s]
    verdicts = run_converter(goyaml_verdict, ["-strings"], stdin=json.dumps(streams))
    kubectl = newest_kubectl()
    with ThreadPoolExecutor(max_workers=2) as pool:
        read = list(pool.map(lambda text: kubectl_read(kubectl, text), streams))
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
