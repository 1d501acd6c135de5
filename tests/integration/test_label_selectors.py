"""``model.labels`` against the API server: every selector of the unit table lists, from
the server, exactly the objects our matcher picks, and the selectors we refuse the
server refuses too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import ApiError
from kubectl_crd.model.labels import parse_selector
from tests.integration.envtest import ControlPlane
from tests.unit.model.test_labels import CASES


@pytest.fixture
def configmaps(apiserver: ControlPlane, tmp_path: Path, namespace: str) -> Iterator[ResourceClient]:
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as client:
        yield ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=namespace)


def test_selectors_pick_what_the_server_lists(configmaps: ResourceClient) -> None:
    label_sets = {str(sorted(labels.items())): labels for _, labels, _ in CASES}
    names = {}
    for index, labels in enumerate(label_sets.values()):
        name = f"cm-{index}"
        names[name] = labels
        configmaps.create(
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": labels}}
        )
    compared = 0
    for selector in sorted({case[0] for case in CASES}):
        listed = {obj["metadata"]["name"] for obj in configmaps.items(label_selector=selector)}
        ours = {name for name, labels in names.items() if parse_selector(selector).matches(labels)}
        assert ours == listed, selector
        compared += 1
    assert compared == len({case[0] for case in CASES})


@pytest.mark.parametrize("selector", ["app=web,", "app in (a b)", "tier>x", "app===x", "-bad"])
def test_refused_selectors_are_refused_by_the_server(
    configmaps: ResourceClient, selector: str
) -> None:
    with pytest.raises(ApiError) as raised:
        list(configmaps.items(label_selector=selector))
    assert raised.value.status == 400
