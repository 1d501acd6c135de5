"""go-yaml's own rules, as the real API server and the real kubectl apply them, and as
``kubectl_crd.io`` does (``tests/unit/io/test_goyaml_differential.py`` holds our readers
to go-yaml itself; this holds both to the server).

Each case is a custom resource (a preserve-unknown-fields CRD) written with something
libyaml and go-yaml read differently. It is created twice, through ``kubectl create``
(which converts YAML itself) and as a raw ``application/yaml`` body that the server
decodes; both must refuse what we refuse and store what we read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import load_documents
from kubectl_crd.model.errors import ApiError
from tests.integration.envtest import ControlPlane

CRD = """
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.goyaml.example.com}
spec:
  group: goyaml.example.com
  scope: Namespaced
  names: {kind: Thing, plural: things, singular: thing}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
"""

# (spec lines, what follows the object in the file)
CASES = [
    ('  regexp: "^app1\\/.+$"\n', ""),  # external-secrets' conjur sample: refused
    ('  a: "x"\n  b: "a\n    \\/ b"\n', ""),  # on a later line: refused
    ('  a: "it\\\'s"\n', ""),  # go-yaml's escape, which libyaml refuses: read
    ("  a: [b:c, 12:30:45, 2019-04-29T15:58:56Z]\n  d: {e:f}\n", ""),  # ':' in flow: read
    ("  a: 1\n", "...\nnot: [yaml\n"),  # after the document's end: not read
    ("  a: 1\n", "..."),  # "...": the whole object indented, then a line less indented
]


def _manifest(name: str, spec: str, after: str) -> str:
    head = f"apiVersion: goyaml.example.com/v1\nkind: Thing\nmetadata:\n  name: {name}\n"
    if after == "...":
        # the root mapping ends at a line less indented than it: go-yaml reads no further
        indented = "".join(f"  {line}" for line in f"{head}spec:\n{spec}".splitlines(True))
        return f"{indented}not: [yaml\n"
    return f"{head}spec:\n{spec}{after}"


@pytest.fixture(scope="module")
def thing_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> None:
    path: Path = tmp_path_factory.mktemp("crd") / "things.yaml"
    path.write_text(CRD)
    apiserver.install_crds([path])


def _raw(apiserver: ControlPlane, namespace: str, text: str) -> dict[str, Any] | str:
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig

    client = KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig)))
    try:
        created = client.request(
            "POST",
            f"/apis/goyaml.example.com/v1/namespaces/{namespace}/things",
            body=text,
            content_type="application/yaml",
        )
    except ApiError as exc:
        return exc.message
    return dict(json.loads(json.dumps(created))["spec"])


def _kubectl(apiserver: ControlPlane, namespace: str, name: str, text: str) -> Any:
    proc = apiserver.kubectl("create", "-n", namespace, "-f", "-", input=text, check=False)
    if proc.returncode != 0:
        return proc.stderr.strip()
    got = apiserver.kubectl("get", "-n", namespace, "thing", name, "-o", "json")
    return dict(json.loads(got.stdout)["spec"])


@pytest.mark.usefixtures("thing_crd")
@pytest.mark.parametrize(("index", "spec", "after"), [(i, *case) for i, case in enumerate(CASES)])
def test_the_server_kubectl_and_we_read_it_alike(
    apiserver: ControlPlane, namespace: str, index: int, spec: str, after: str
) -> None:
    name = f"case-{index}"
    text = _manifest(name, spec, after)
    documents = load_documents(text, "case.yaml")
    raw = _raw(apiserver, namespace, _manifest(f"{name}-raw", spec, after))
    via_kubectl = _kubectl(apiserver, namespace, name, text)
    if documents[0].error is not None:
        message = str(documents[0].error)
        assert "kubectl and the API server refuse this file too" in message
        assert "found unknown escape character" in message
        assert isinstance(raw, str) and "found unknown escape character" in raw, raw
        assert isinstance(via_kubectl, str), via_kubectl
        assert "error converting YAML to JSON: yaml: " in via_kubectl
        assert "found unknown escape character" in via_kubectl
    else:
        assert [d.error for d in documents] == [None]
        ours = dict(documents[0].content["spec"])
        assert raw == ours
        assert via_kubectl == ours
