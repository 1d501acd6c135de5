"""Documents whose ``kind`` or ``apiVersion`` kubectl cannot read: ``validate`` says what
kubectl says, against the real kubectl.

kubectl's builder decodes each document with unstructured's scheme, whose kind is a
string or nothing (``Object 'Kind' is missing in '<the document's JSON>'``), then into a
metadataOnlyObject, whose apiVersion is a string (``json: cannot unmarshal number into
Go struct field metadataOnlyObject.apiVersion of type string``): cli-runtime
resource/mapper.go ``infoForData``. ``kubectl create --dry-run=client --validate=false``
needs no cluster to say so. Before, validate showed Python's text for such a kind
(``True/a: no CRD serves x.io/v1 True``, ``YamlList(['a'])``) and skipped a document
with ``apiVersion: 5`` as a built-in kind. A document kubectl reads is left to the rest
of validate (no apiVersion: kubectl finds no resource for it, and validate says so in
its own words).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.cli_runner import run_cli
from tests.integration.envtest import newest_kubectl

DOCUMENTS = [
    "apiVersion: x.io/v1\nmetadata: {name: a}\n",
    "apiVersion: x.io/v1\nkind: null\n",
    'apiVersion: x.io/v1\nkind: ""\n',
    "apiVersion: x.io/v1\nkind: 5\nmetadata: {name: a}\n",
    "apiVersion: x.io/v1\nkind: Y\nmetadata: {name: a}\n",  # YAML 1.1: true
    "apiVersion: x.io/v1\nkind: [Foo]\n",
    "apiVersion: x.io/v1\nkind: {a: 1}\nmetadata: {name: '<a&b>', x: 1.5e30, y: 1.0}\n",
    "apiVersion: 5\nkind: 5\n",
    "apiVersion: 5\n",
    "apiVersion: 5\nkind: Foo\nmetadata: {name: a}\n",
    "apiVersion: 1.5\nkind: Foo\n",
    "apiVersion: [x.io/v1]\nkind: Foo\n",
    "apiVersion: {g: x.io}\nkind: Foo\n",
    "apiVersion: true\nkind: Foo\n",
    "apiVersion: null\nkind: Foo\n",
    "kind: Foo\nmetadata: {name: a}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a}\n",
]

_DECODE = re.compile(r'^(?:error: )?unable to decode "([^"]+)": (.*)$')


def kubectl_decode_errors(kubectl: str, files: list[Path]) -> dict[str, str]:
    """Each file kubectl cannot decode, and what it says (after ``unable to decode``)."""
    proc = subprocess.run(
        [
            kubectl,
            *("create", "--dry-run=client", "--validate=false", "--kubeconfig=/dev/null"),
            "--server=http://127.0.0.1:1",  # it never gets this far for these
            *(arg for path in files for arg in ("-f", str(path))),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = {}
    for line in proc.stderr.splitlines():
        if match := _DECODE.match(line):
            found[Path(match[1]).name] = match[2]
    return found


def test_documents_kubectl_cannot_read_are_errors_in_its_words(tmp_path: Path) -> None:
    files = []
    for number, text in enumerate(DOCUMENTS):
        path = tmp_path / f"{number:02d}.yaml"
        path.write_text(text, encoding="utf-8")
        files.append(path)
    theirs = kubectl_decode_errors(newest_kubectl(), files)
    proc = run_cli("validate", "--offline", "-o", "json", *(f"-f={path}" for path in files))
    assert proc.returncode == 1, proc.stderr
    results = {Path(r["source"]).name: r for r in json.loads(proc.stdout)["resources"]}
    assert len(results) == len(files)
    differences = []
    for path in files:
        ours = results[path.name]
        expected = theirs.get(path.name)
        read = ours["message"].startswith(("Object 'Kind' is missing", "json: "))
        if expected is None:
            same = not read  # kubectl reads it: so must validate
        else:
            same = ours["status"] == "error" and ours["message"] == expected
        if not same:
            differences.append(f"{path.read_text()!r}: kubectl {expected!r}, ours {ours}")
    assert differences == []
    # every document but the last two is one kubectl cannot read
    assert len(theirs) == len(DOCUMENTS) - 3
