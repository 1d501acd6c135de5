"""Documents kubectl cannot read (their ``kind``, ``apiVersion`` or ``metadata``):
``validate`` says what kubectl says, against the real kubectl.

kubectl's builder decodes each document with unstructured's scheme, whose kind is a
string or nothing (``Object 'Kind' is missing in '<the document's JSON>'``), then into a
metadataOnlyObject, whose apiVersion is a string (``json: cannot unmarshal number into
Go struct field metadataOnlyObject.apiVersion of type string``): cli-runtime
resource/mapper.go ``infoForData``. ``kubectl create --dry-run=client --validate=false``
needs no cluster to say so. Before, validate showed Python's text for such a kind
(``True/a: no CRD serves x.io/v1 True``, ``YamlList(['a'])``) and skipped a document
with ``apiVersion: 5`` as a built-in kind. Then kubectl decodes the document into a
``metadataOnlyObject`` (resource/metadata_decoder.go: apiVersion, kind and
``metav1.ObjectMeta``) with the server's decoder, over the JSON it made of the YAML
(keys sorted): a label or annotation that is a number or a bool (``prometheus.io/scrape:
true``), a name that is a number, a bad time, is refused there, a built-in's too. Before,
validate skipped such a built-in and gave the server's answer for a custom resource
(which kubectl never sends). A document kubectl reads is left to the rest of validate
(no apiVersion: kubectl finds no resource for it, and validate says so in its own words).
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
    # metadata kubectl cannot decode, the first problem in the sorted keys' order
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: []\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: a\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: 5}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, labels: {version: 1.5}}\n",
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  annotations:\n"
    "    prometheus.io/scrape: true\n    z: 1\n",
    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, labels: {b: yes}, annotations: {a: 1}}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, creationTimestamp: yesterday}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, creationTimestamp: 2020-01-01}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata:\n  name: a\n  ownerReferences:\n"
    "  - {apiVersion: v1, kind: X, name: n, uid: u, controller: 'yes'}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, generation: 1.5}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, generation: 99999999999999999999}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, finalizers: a}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, deletionGracePeriodSeconds: '3'}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, managedFields: [{manager: 5}]}\n",
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
    "metadata: {name: a.x.io, uid: [u]}\n",
    # read by kubectl: an unknown metadata field, a whole float, a null
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a, Name: 5, generation: 2.0, labels: null}\n",
    "kind: Foo\nmetadata: {name: a}\n",
    "apiVersion: x.io/v1\nkind: Foo\nmetadata: {name: a}\n",
]
#: how many documents kubectl reads: the last three and ``apiVersion: null``
READ = 4

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
    assert len(theirs) == len(DOCUMENTS) - READ
