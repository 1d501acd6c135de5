"""``-o yaml`` byte for byte as the real ``kubectl`` writes it (``io.goyaml``).

Two sources of YAML, both compared with kubectl's own output of the same object:

- every CRD the server holds (corpus CRDs installed here): long descriptions folded at
  column 80, patterns full of indicators, enums, defaults of every type, CEL rules with
  quotes and newlines; ours is ``kubectl_yaml`` of kubectl's ``-o json``;
- custom resources made to be awkward (strings that read back as numbers, booleans,
  nulls, timestamps and base-60 floats; outer spaces, tabs, quotes, indicators, emoji,
  control characters, line breaks with and without trailing ones, long lines with
  and without spaces; keys that sort by letter and digit runs; floats and big
  integers); ours is ``kubectl crd get -o yaml``, end to end, against ``kubectl get``.
"""

from __future__ import annotations

import difflib
import json
import subprocess
from pathlib import Path
from typing import Any

import yaml

from kubectl_crd.io.goyaml import kubectl_yaml
from tests.integration.envtest import ControlPlane
from tests.integration.test_get_differential import KUBECTL_CRD

MAX_CORPUS_CRDS = 40

ANYTHING_CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.yaml.example.com
spec:
  group: yaml.example.com
  scope: Namespaced
  names: {plural: things, singular: thing, kind: Thing}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
"""

LONG_WORDS = " ".join(f"word{i}" for i in range(40))
STRINGS = [
    "plain",
    "",
    " leading",
    "trailing ",
    "257",
    "0x1F",
    "1e3",
    "1:20",
    "12:30:45",
    "true",
    "yes",
    "No",
    "on",
    "null",
    "~",
    "2024-01-02",
    "2024-01-02T03:04:05Z",
    "* * * * */5",
    "- dash",
    "-dash",
    "? q",
    ": colon",
    "a: b",
    "a:b",
    "a #b",
    "a#b",
    "#comment",
    "it's",
    '"quoted"',
    "back\\slash",
    "tab\there",
    "bell\x07",
    "nel\x85",
    "x\x85 y",
    "a\x85\x85b",
    "ls\u2028x",
    "ps\u2029",
    "nbsp\xa0",
    "emoji 😀",
    "ünïcödé",
    "line\nbreak",
    "line\nbreak\n",
    "lines\n\n",
    "\nleading break",
    " \nspace break",
    "trailing space \nx",
    "x\n trailing break space",
    "---",
    "...",
    "[flow]",
    "{flow}",
    "a, b",
    "@at",
    "`tick",
    "%pct",
    "!bang",
    "&anchor",
    "|pipe",
    ">gt",
    LONG_WORDS,
    "'" + LONG_WORDS + "'",
    "x" * 120,
    "  " + LONG_WORDS,
    LONG_WORDS + "\n" + LONG_WORDS + "\n",
    "double  spaces  " + LONG_WORDS,
    "tab\t" + LONG_WORDS,
]
KEYS = ["a10", "a9", "a09", "A", "_x", "Z", "z", "1", "10", "2", "x-1", "x_1", "x.1", "é", "ß"]
NUMBERS: list[Any] = [
    0,
    -1,
    1.5,
    0.1,
    1e-07,
    2.5e21,
    123456789.5,
    9007199254740993,
    True,
    False,
    None,
]


def thing(name: str, spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "yaml.example.com/v1",
        "kind": "Thing",
        "metadata": {"name": name, "labels": {"app": "yaml-test"}},
        "spec": spec,
    }


def things() -> list[dict[str, Any]]:
    return [
        thing(
            "strings", {"values": STRINGS, "byKey": {f"k{i:02d}": s for i, s in enumerate(STRINGS)}}
        ),
        thing("keys", {key: {key: [key]} for key in KEYS}),
        thing("numbers", {"list": NUMBERS, "nested": [[1, [2, []]], [{}], {"a": []}]}),
        thing(
            "deep",
            {
                "a": {
                    "b": {
                        "c": {"d": {"e": {"f": LONG_WORDS, "g": [LONG_WORDS, {"h": LONG_WORDS}]}}}
                    }
                }
            },
        ),
    ]


def _diff(theirs: str, ours: str) -> str:
    lines = difflib.unified_diff(
        theirs.splitlines(True), ours.splitlines(True), "kubectl", "ours", n=1
    )
    return "".join(lines)


def corpus_crd_files(corpus: Path) -> list[Path]:
    files = sorted((corpus / "crds").rglob("*.yaml"))
    step = max(1, len(files) // MAX_CORPUS_CRDS)
    return files[::step][:MAX_CORPUS_CRDS]


def test_yaml_is_kubectls_for_crds_and_awkward_objects(
    apiserver: ControlPlane, namespace: str, tmp_path: Path, corpus_dir: Path
) -> None:
    crd_file = tmp_path / "things-crd.yaml"
    crd_file.write_text(ANYTHING_CRD)
    apiserver.install_crds([crd_file, *corpus_crd_files(corpus_dir)])
    objects = tmp_path / "things.yaml"
    objects.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": things()}))
    apiserver.kubectl("create", "-n", namespace, "-f", str(objects))

    problems: list[str] = []
    names = apiserver.kubectl("get", "crds", "-o", "name").stdout.split()
    for name in names:
        theirs = apiserver.kubectl("get", name, "-o", "yaml").stdout
        ours = kubectl_yaml(json.loads(apiserver.kubectl("get", name, "-o", "json").stdout))
        if ours != theirs:
            problems.append(f"{name}:\n{_diff(theirs, ours)}")

    config = [f"--kubeconfig={apiserver.kubeconfig}", f"--context={apiserver.context}"]
    compared = 0
    for args in (
        ["things.yaml.example.com"],
        ["things.yaml.example.com", "strings"],
        ["things.yaml.example.com", "-l", "app=yaml-test"],
    ):
        command = [*args, "-n", namespace, "-o", "yaml", *config]
        theirs = subprocess.run(
            [apiserver.kubectl_binary, "get", *command],
            capture_output=True,
            text=True,
            env=apiserver.env(),
            check=True,
        ).stdout
        ours = subprocess.run(
            [*KUBECTL_CRD, "get", *command],
            capture_output=True,
            text=True,
            env=apiserver.env(),
            check=True,
        ).stdout
        compared += len(theirs.splitlines())
        if ours != theirs:
            problems.append(f"get {' '.join(args)}:\n{_diff(theirs, ours)}")
        # and what we print is YAML that reads back as the object
        assert yaml.safe_load(ours)
    print(f"\n-o yaml: {len(names)} CRDs and {compared} lines of custom resources compared")
    assert len(names) >= 20
    assert not problems, "\n".join(problems[:3])
