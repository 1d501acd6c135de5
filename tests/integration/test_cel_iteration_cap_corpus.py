"""Corpus CRDs whose uniqueness rules pass the CEL engine's iteration cap at their
schema's own bounds, against kube-apiserver.

cel-cpp stops an evaluation at 10,000 comprehension iterations; ``self.all(x,
self.exists_one(y, ...))`` over a list of n runs n + n x n. Cluster API's KubeadmConfig
``extraArgs`` (maxItems 100: 10,100) and Istio's ServiceEntry ``ports`` (maxItems 256:
65,792) said "Iteration budget exceeded" locally where the server takes the object;
``validation.cel.splitting`` runs them one element at a time. Each case is a dry-run
create on the server and ``validate_custom_resource`` here, the messages compared.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.validation import validate_custom_resource
from tests.integration.envtest import ControlPlane

_FILES = (
    "cluster-api/bootstrap.cluster.x-k8s.io_kubeadmconfigs.yaml",
    "istio/serviceentries.networking.istio.io.yaml",
)


@pytest.fixture(scope="module")
def crds(
    apiserver: ControlPlane, corpus_dir: Path
) -> Iterator[dict[str, CustomResourceDefinition]]:
    """The two CRDs installed on the shared server (and removed after), by kind."""
    paths = [corpus_dir / "crds" / name for name in _FILES]
    names = apiserver.install_crds(paths)
    try:
        found = {}
        for name in names:  # as the server holds them
            served = apiserver.kubectl("get", "crd", name, "-o", "json").stdout
            crd = CustomResourceDefinition.from_object(json.loads(served))
            found[crd.names.kind] = crd
        yield found
    finally:
        apiserver.delete_crds(names)


def _kubeadm_config(args: list[dict[str, str]]) -> dict[str, Any]:
    spec = {"clusterConfiguration": {"apiServer": {"extraArgs": args}}}
    return _object("bootstrap.cluster.x-k8s.io/v1beta2", "KubeadmConfig", spec)


def _service_entry(ports: list[dict[str, Any]]) -> dict[str, Any]:
    spec = {"hosts": ["api.example.com"], "ports": ports}
    return _object("networking.istio.io/v1", "ServiceEntry", spec)


def _object(api_version: str, kind: str, spec: dict[str, Any]) -> dict[str, Any]:
    metadata = {"name": "capped", "namespace": "default"}
    return {"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec}


_ARGS = [{"name": f"flag-{n}", "value": "on"} for n in range(100)]
_PORTS = [{"name": f"p{n}", "number": 1000 + n, "protocol": "TCP"} for n in range(256)]


def _with(items: list[dict[str, Any]], at: int, **change: Any) -> list[dict[str, Any]]:
    changed = [dict(item) for item in items]
    changed[at].update(change)
    return changed


@pytest.mark.parametrize(
    ("case", "thing"),
    [
        ("100 extraArgs", _kubeadm_config(_ARGS)),
        ("100 extraArgs, a name twice", _kubeadm_config(_with(_ARGS, 40, name="flag-41"))),
        ("256 ports", _service_entry(_PORTS)),
        ("256 ports, a number twice", _service_entry(_with(_PORTS, 255, number=1000))),
        ("256 ports, one out of range", _service_entry(_with(_PORTS, 7, number=70000))),
    ],
)
def test_the_servers_answer_at_the_schemas_bounds(
    apiserver: ControlPlane,
    crds: dict[str, CustomResourceDefinition],
    case: str,
    thing: dict[str, Any],
) -> None:
    server = _dry_run_create(apiserver, thing)
    ours = validate_custom_resource(thing, crds[thing["kind"]])
    if not server:
        assert ours.errors == (), case
        return
    assert ours.errors, (case, server)
    assert server.endswith(f" is invalid: {ours.server_message}"), (case, server, ours.errors)


def _dry_run_create(plane: ControlPlane, thing: dict[str, Any]) -> str:
    """The server's message refusing ``thing``, "" when it takes it."""
    group, version = thing["apiVersion"].split("/")
    plural = {"KubeadmConfig": "kubeadmconfigs", "ServiceEntry": "serviceentries"}[thing["kind"]]
    config = ClusterConfig(kubeconfig=str(plane.kubeconfig), context=plane.context)
    with KubeClient(config) as client:
        try:
            client.request(
                "POST", f"/apis/{group}/{version}/namespaces/default/{plural}",
                query={"dryRun": "All"}, body=thing,
            )  # fmt: skip
        except ApiError as exc:
            return str(exc.status_object.get("message", ""))  # type: ignore[union-attr]
    return ""
