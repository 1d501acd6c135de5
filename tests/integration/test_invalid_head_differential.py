"""The head of a 422 Invalid, ``The CronTab "a\\"b" is invalid``, as the real kubectl prints it.

kubectl quotes the object's name with ``%q`` (``checkErr`` in
``k8s.io/kubectl/pkg/cmd/util/helpers.go``). ``model.errors.invalid_object_head`` writes
it for both of ours: the client's ``InvalidObjectError`` (the server's answer) and
``validate``'s offline rejection line. Names that ``%q`` escapes (a quote, a backslash, a
tab) are invalid names, so every create of them is a 422 to compare.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import InvalidObjectError
from tests.cli_runner import run_cli
from tests.integration.envtest import ControlPlane

CRDS = Path(__file__).parents[2] / "examples" / "crds"
NAMES = ['a"b', "a\\b", "a\tb", "plain_but_invalid"]


def crontab(name: str) -> dict[str, object]:
    return {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": name, "namespace": "default"},
        "spec": {"cronSpec": "* * * * */5", "image": "nginx"},
    }


@pytest.fixture(scope="module")
def plane(apiserver: ControlPlane) -> ControlPlane:
    apiserver.install_crds([CRDS / "crontab.yaml"])
    return apiserver


@pytest.mark.parametrize("name", NAMES)
def test_the_invalid_head_is_kubectls(plane: ControlPlane, tmp_path: Path, name: str) -> None:
    path = tmp_path / "crontab.json"
    path.write_text(json.dumps(crontab(name)))
    theirs = plane.kubectl("create", "-f", str(path), check=False)
    assert theirs.returncode == 1
    line = theirs.stderr.splitlines()[0]
    assert line.startswith("The CronTab "), line

    with KubeClient(
        ClusterConfig(kubeconfig=str(plane.kubeconfig)), environ={"HOME": str(tmp_path)}
    ) as client:
        crontabs = ResourceClient(
            client, "stable.example.com", "v1", "crontabs", namespaced=True, namespace="default"
        )
        with pytest.raises(InvalidObjectError) as caught:
            crontabs.create(crontab(name))
    assert caught.value.kubectl_line.splitlines()[0] == line

    ours = run_cli("validate", "-f", str(path), "--crd", str(CRDS))
    rejections = [text.partition(": error: ")[2] for text in ours.stdout.splitlines()]
    assert line in rejections, ours.stdout


def test_the_names_are_ones_kubectl_quotes(plane: ControlPlane, tmp_path: Path) -> None:
    """The cases compare something: kubectl's head escapes all but the last name."""
    heads = []
    for name in NAMES:
        path = tmp_path / f"{len(heads)}.json"
        path.write_text(json.dumps(crontab(name)))
        done = plane.kubectl("create", "-f", str(path), check=False)
        heads.append(done.stderr.splitlines()[0].partition(" is invalid")[0])
    assert heads == [
        'The CronTab "a\\"b"',
        'The CronTab "a\\\\b"',
        'The CronTab "a\\tb"',
        'The CronTab "plain_but_invalid"',
    ]
