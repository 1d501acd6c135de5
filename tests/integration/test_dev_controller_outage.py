"""The dev loop across an API server outage: nothing changed meanwhile is lost.

On a control plane of this module's own: the loop runs and converges, kube-apiserver is
stopped, a second API server on the same etcd makes changes (a spec edited, a widget
created, a child deleted by hand), the first is started again, and every object
converges: the informers relisted or resumed, the writes that failed while it was down
were retried with backoff.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.discovery import Discovery
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.reconcile.backends import ClusterBackend
from kubectl_crd.reconcile.controller import Controller
from kubectl_crd.reconcile.events import WatchError
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_dev_controller import (
    GROUP,
    SCHEMA,
    Events,
    Reconciler,
    configmap_child,
    eventually,
    get_or_none,
    widget,
)


@pytest.fixture(scope="module")
def plane(
    isolated_apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory
) -> ControlPlane:
    crd = make_crd("Widget", GROUP, schema=SCHEMA)
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    path = tmp_path_factory.mktemp("crd") / "widgets.json"
    path.write_text(json.dumps(crd))
    isolated_apiserver.install_crds([path])
    isolated_apiserver.kubectl("create", "namespace", "outage")
    return isolated_apiserver


def _client(kubeconfig: Path, home: Path) -> KubeClient:
    return KubeClient(ClusterConfig(kubeconfig=str(kubeconfig)), environ={"HOME": str(home)})


@pytest.fixture
def client(plane: ControlPlane, tmp_path: Path) -> Iterator[KubeClient]:
    with _client(plane.kubeconfig, tmp_path) as made:
        yield made


def _resources(client: KubeClient) -> tuple[ResourceClient, ResourceClient]:
    widgets = ResourceClient(client, GROUP, "v1", "widgets", namespaced=True, namespace="outage")
    configmaps = ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace="outage")
    return widgets, configmaps


def test_changes_made_while_the_api_server_was_down_all_converge(
    plane: ControlPlane, client: KubeClient, tmp_path: Path
) -> None:
    widgets, configmaps = _resources(client)
    widgets.create(widget("kept", message="before"))
    widgets.create(widget("edited", message="before"))
    discovery = Discovery(client.request, client.server, cache_dir=str(tmp_path / "cache"))
    events = Events()
    controller = Controller(
        ClusterBackend(client, discovery), Reconciler(configmap_child), events,
        workers=2, namespace="outage",
    )  # fmt: skip
    controller.start()
    try:
        eventually(lambda: get_or_none(configmaps, "kept-config"))
        eventually(lambda: get_or_none(configmaps, "edited-config"))

        plane.stop_apiserver(grace=1.0)
        eventually(lambda: events.of(WatchError), timeout=30)
        _, other_kubeconfig = plane.extra_apiserver()
        with _client(other_kubeconfig, tmp_path / "other") as other:
            other_widgets, other_configmaps = _resources(other)
            other_widgets.patch("edited", {"spec": {"message": "during"}})
            other_widgets.create(widget("created", message="during"))
            other_configmaps.delete("kept-config")
        plane.start_apiserver()

        def converged(name: str, message: str) -> bool:
            child = get_or_none(configmaps, f"{name}-config")
            status: dict[str, Any] = widgets.get(name).get("status") or {}
            generation = widgets.get(name)["metadata"]["generation"]
            return (
                child is not None
                and child["data"] == {"message": message}
                and status.get("message") == message
                and status.get("observedGeneration") == generation
            )

        eventually(lambda: converged("kept", "before"), timeout=60)
        eventually(lambda: converged("edited", "during"), timeout=60)
        eventually(lambda: converged("created", "during"), timeout=60)
    finally:
        controller.stop(timeout=10)
