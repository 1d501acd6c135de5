"""Our YAML scalar decoding equals what the real API server stores for the same text.

Each case of ``tests/unit/io/yaml_scalar_cases.py`` goes into one custom resource
(a preserve-unknown-fields CRD), created twice: through the real ``kubectl`` (which
converts YAML client-side, as users do) and as a raw ``application/yaml`` body that the
API server decodes itself. What comes back must equal ``kubectl_crd.io``'s value.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from kubectl_crd.io import load_documents
from tests.integration.envtest import ControlPlane
from tests.unit.io.yaml_scalar_cases import KEY_CASES, REJECTED_SCALARS, SCALAR_CASES

CRD = """
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: scalars.yaml.example.com}
spec:
  group: yaml.example.com
  scope: Namespaced
  names: {kind: Scalar, plural: scalars, singular: scalar}
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


def _single_line(cases: list[tuple[str, Any]]) -> list[tuple[int, str, Any]]:
    return [(i, text, want) for i, (text, want) in enumerate(cases) if "\n" not in text]


def _manifest(name: str, body: str) -> str:
    return (
        f"apiVersion: yaml.example.com/v1\nkind: Scalar\nmetadata:\n  name: {name}\nspec:\n{body}"
    )


def _go_json(text: str) -> Any:
    """Decode JSON like the API server does: integers int64, anything larger float64."""

    def number(literal: str) -> int | float:
        value = int(literal)
        return value if -(2**63) <= value < 2**63 else float(value)

    return json.loads(text, parse_int=number)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b if not isinstance(a, (dict, list)) else a == b


@pytest.fixture(scope="module")
def scalar_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("crd") / "scalars.yaml"
    path.write_text(CRD)
    apiserver.install_crds([path])


def _ours(body: str) -> dict[str, Any]:
    (document,) = load_documents(_manifest("x", body), "case.yaml")
    assert document.error is None, document.error
    return dict(document.content["spec"])


def _ours_plain(body: str) -> dict[str, Any]:
    """``_ours`` through the plain build the parsed-value cache uses."""
    (document,) = load_documents(_manifest("x", body), "case.yaml", positions=False)
    assert document.error is None, document.error
    return dict(document.content["spec"])


def _create_via_kubectl(
    apiserver: ControlPlane, namespace: str, name: str, body: str
) -> dict[str, Any]:
    apiserver.kubectl("create", "-n", namespace, "-f", "-", input=_manifest(name, body))
    got = apiserver.kubectl("get", "-n", namespace, "scalar", name, "-o", "json")
    return dict(_go_json(got.stdout)["spec"])


def _create_raw_yaml(
    apiserver: ControlPlane, namespace: str, name: str, body: str
) -> dict[str, Any]:
    """POST the YAML text itself; the server's own YAML decoder reads it."""
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig

    client = KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig)))
    created = client.request(
        "POST",
        f"/apis/yaml.example.com/v1/namespaces/{namespace}/scalars",
        body=_manifest(name, body),
        content_type="application/yaml",
    )
    # The client decoded the JSON reply with Python's rules; re-read it with Go's.
    return dict(_go_json(json.dumps(created))["spec"])


@pytest.mark.usefixtures("scalar_crd")
def test_scalar_values_match_the_server(apiserver: ControlPlane, namespace: str) -> None:
    cases = _single_line(SCALAR_CASES)
    body = "".join(f"  c{i}: {text}\n" for i, text, _ in cases)
    ours = _ours(body)
    via_kubectl = _create_via_kubectl(apiserver, namespace, "via-kubectl", body)
    disagreements = []
    for i, text, expected in cases:
        key = f"c{i}"
        server_value = via_kubectl.get(key)
        # alone in a file, as a plain build reads it (io.blockyaml, where it can)
        plain = _ours_plain(f"  {key}: {text}\n").get(key)
        if not all(_same(v, server_value) for v in (ours.get(key), expected, plain)):
            disagreements.append(
                f"{text!r}: ours={ours.get(key)!r} plain={plain!r} table={expected!r} "
                f"server={server_value!r}"
            )
    print(f"yaml scalars: {len(cases) - len(disagreements)}/{len(cases)} agree with the API server")
    assert not disagreements, "\n".join(disagreements)


@pytest.mark.usefixtures("scalar_crd")
def test_raw_yaml_body_decodes_like_kubectl(apiserver: ControlPlane, namespace: str) -> None:
    cases = _single_line(SCALAR_CASES)
    body = "".join(f"  c{i}: {text}\n" for i, text, _ in cases)
    ours = _ours(body)
    raw = _create_raw_yaml(apiserver, namespace, "raw-yaml", body)
    disagreements = [
        f"{text!r}: ours={ours.get(f'c{i}')!r} server={raw.get(f'c{i}')!r}"
        for i, text, _ in cases
        if not _same(ours.get(f"c{i}"), raw.get(f"c{i}"))
    ]
    assert not disagreements, "\n".join(disagreements)


@pytest.mark.usefixtures("scalar_crd")
def test_map_keys_match_the_server(apiserver: ControlPlane, namespace: str) -> None:
    cases = [(text, key) for text, key in KEY_CASES if "\n" not in text]
    body = "".join(f"  k{i}:\n    {text}: v\n" for i, (text, _) in enumerate(cases))
    ours = _ours(body)
    server = _create_via_kubectl(apiserver, namespace, "keys", body)
    for i, (text, expected) in enumerate(cases):
        assert list(ours[f"k{i}"]) == [expected], text
        assert list(server[f"k{i}"]) == [expected], text


@pytest.mark.usefixtures("scalar_crd")
@pytest.mark.parametrize(("text", "message"), REJECTED_SCALARS[:4])
def test_rejected_scalars_are_rejected_by_both(
    apiserver: ControlPlane, namespace: str, text: str, message: str
) -> None:
    body = f"  v: {text}\n"
    (document,) = load_documents(_manifest("x", body), "case.yaml")
    assert document.error is not None
    assert message in str(document.error)
    proc = apiserver.kubectl(
        "create", "-n", namespace, "-f", "-", input=_manifest("rejected", body), check=False
    )
    assert proc.returncode != 0
    assert message in proc.stderr
