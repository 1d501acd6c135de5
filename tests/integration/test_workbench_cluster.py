"""``workbench --against-cluster`` against the real API server: the live object is the
old one, so the check is an update, and its verdict is the server's own for the same
update (a dry-run PUT of the file's object with the live resourceVersion).

GatewayClass (gateway-api standard, cluster-scoped) has a transition rule:
``spec.controllerName`` is immutable (``self == oldSelf``). An absent object is a
create (the status line says so); an unreachable cluster too, with kubectl's line.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.errors import ApiError
from kubectl_crd.model.explain import resolve_target
from kubectl_crd.output.workbench.app import WorkbenchApp
from kubectl_crd.output.workbench.live import ClusterObjects
from kubectl_crd.output.workbench.session import Session
from kubectl_crd.sources.files import FileSource
from tests.integration.envtest import ControlPlane
from tests.unit.workbench.test_screen import _until

CRD = "gateway-api-standard/gateway.networking.k8s.io_gatewayclasses.yaml"
PATH = "/apis/gateway.networking.k8s.io/v1/gatewayclasses"
GC = """apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: {name}
spec:
  controllerName: {controller}
"""


@pytest.fixture(scope="module")
def crd_file(apiserver: ControlPlane, corpus_dir: Path) -> Path:
    path = corpus_dir / "crds" / CRD
    apiserver.install_crds([path])
    return path


@pytest.fixture
def client(apiserver: ControlPlane) -> Iterator[KubeClient]:
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as made:
        yield made


def _session(crd_file: Path, path: Path, client: KubeClient) -> Session:
    target = resolve_target(FileSource([str(crd_file)]).crds(), "gatewayclass")
    return Session(target, str(path), old=ClusterObjects(client))


def _server_update(
    client: KubeClient, text: str, name: str, collection: str = PATH
) -> tuple[bool, list[tuple[str, str]]]:
    """The server's answer to a dry-run update of ``text``'s object (as apply sends it:
    with the live resourceVersion)."""
    import yaml

    body: dict[str, Any] = yaml.safe_load(text)
    live = client.request("GET", f"{collection}/{name}")
    body["metadata"]["resourceVersion"] = live["metadata"]["resourceVersion"]
    try:
        client.request("PUT", f"{collection}/{name}", query={"dryRun": "All"}, body=body)
    except ApiError as exc:
        if exc.status != 422:
            raise
        causes = (exc.status_object.get("details") or {}).get("causes") or []  # type: ignore[union-attr]
        return False, [(c["field"], c["message"]) for c in causes]
    return True, []


def test_the_live_object_makes_it_an_update(
    apiserver: ControlPlane, crd_file: Path, client: KubeClient, tmp_path: Path
) -> None:
    name = f"gc-{secrets.token_hex(3)}"
    apiserver.kubectl("create", "-f", "-", input=GC.format(name=name, controller="example.com/a"))
    path = tmp_path / "gc.yaml"
    session = _session(crd_file, path, client)

    same = GC.format(name=name, controller="example.com/a")
    path.write_text(same)
    check = session.check()
    assert (check.valid, check.operation) == (True, "update")
    assert check.note.startswith(f"against the live {name} (resourceVersion ")
    assert _server_update(client, same, name) == (True, [])

    changed = GC.format(name=name, controller="example.com/b")
    path.write_text(changed)
    check = session.check()
    assert (check.valid, check.operation) == (False, "update")
    ok, causes = _server_update(client, changed, name)
    assert not ok
    # the screen shows a cause as the server's error line prints it: "field: message"
    shown = [(p.field, p.message) for p in check.problems if not p.blocked]
    assert shown == [(field, f"{field}: {message}") for field, message in causes]
    assert causes[0][1].endswith("Value is immutable")

    # the same text, as a create (the name not on the cluster): valid, and said so
    other = f"gc-{secrets.token_hex(3)}"
    path.write_text(GC.format(name=other, controller="example.com/b"))
    check = session.check()
    assert (check.valid, check.operation) == (True, "create")
    assert check.note == f"gatewayclass {other} not on the cluster: checked as a create"


def test_the_screen_says_against_what(
    apiserver: ControlPlane, crd_file: Path, client: KubeClient, tmp_path: Path
) -> None:
    name = f"gc-{secrets.token_hex(3)}"
    apiserver.kubectl("create", "-f", "-", input=GC.format(name=name, controller="example.com/a"))
    path = tmp_path / "gc.yaml"
    path.write_text(GC.format(name=name, controller="example.com/b"))
    session = _session(crd_file, path, client)

    async def scenario() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=(160, 40)) as pilot:
            # the check reads the live object and asks the server: slower than a unit's
            await _until(
                pilot,
                lambda: app.check.operation == "update" and bool(app.check.problems),
                "the check against the live object",
                timeout=30,
            )
            content = app.query_one("#status", Static).content
            status = str(getattr(content, "plain", content))
            assert status.startswith(" invalid (update): 1 error(s) the server reports | ")
            assert f"against the live {name}" in status

    asyncio.run(scenario())


def test_an_unreachable_cluster_is_a_create_with_the_reason(crd_file: Path, tmp_path: Path) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
        "clusters: [{name: c, cluster: {server: 'http://127.0.0.1:9'}}]\n"
        "contexts: [{name: c, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {}}]\n"
    )
    path = tmp_path / "gc.yaml"
    path.write_text(GC.format(name="gc", controller="example.com/b"))
    with KubeClient(ClusterConfig(kubeconfig=str(kubeconfig))) as client:
        check = _session(crd_file, path, client).check()
    assert (check.valid, check.operation) == (True, "create")
    assert check.note == (
        "cluster unreachable (The connection to the server 127.0.0.1:9 was refused - "
        "did you specify the right host or port?): checked as a create"
    )


def _crd(code_schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "wbratchets.wb.example.com"},
        "spec": {
            "group": "wb.example.com",
            "names": {"kind": "WbRatchet", "plural": "wbratchets", "singular": "wbratchet"},
            "scope": "Namespaced",
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {
                        "openAPIV3Schema": {
                            "type": "object",
                            "properties": {
                                "spec": {
                                    "type": "object",
                                    "properties": {"code": code_schema, "note": {"type": "string"}},
                                }
                            },
                        }
                    },
                }
            ],
        },
    }


NAME = "wbratchets.wb.example.com"
RATCHET = """apiVersion: wb.example.com/v1
kind: WbRatchet
metadata: {{name: r, namespace: {namespace}}}
spec:
  code: {code}
  note: {note}
"""


def test_ratcheting_against_the_live_object(
    apiserver: ControlPlane, client: KubeClient, namespace: str, tmp_path: Path
) -> None:
    """An object stored under a loose schema, the CRD then tightened (maxLength 3): the
    file that leaves the too-long value alone is a valid update (ratcheting), the one
    that changes it is refused, as the server's dry-run PUTs answer."""
    import time

    from kubectl_crd.model.crd import CustomResourceDefinition

    crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
    loose = _crd({"type": "string"})
    tight = _crd({"type": "string", "maxLength": 3})
    if client.request("GET", crds, query={"fieldSelector": f"metadata.name={NAME}"})["items"]:
        client.request("DELETE", f"{crds}/{NAME}")
        apiserver.delete_crds([NAME])
    client.request("POST", crds, body=loose)
    apiserver.wait_established([NAME])
    collection = f"/apis/wb.example.com/v1/namespaces/{namespace}/wbratchets"
    import yaml

    original = RATCHET.format(namespace=namespace, code="bcdef", note="x")
    client.request("POST", collection, body=yaml.safe_load(original))
    current = client.request("GET", f"{crds}/{NAME}")
    current["spec"]["versions"] = tight["spec"]["versions"]
    client.request("PUT", f"{crds}/{NAME}", body=current)
    # the server swaps the schema in shortly after the write: until a create of a
    # too-long value is refused
    deadline = time.monotonic() + 30
    probe = yaml.safe_load(RATCHET.format(namespace=namespace, code="toolong", note="x"))
    probe["metadata"]["name"] = "probe"
    while True:
        try:
            client.request("POST", collection, query={"dryRun": "All"}, body=probe)
        except ApiError as exc:
            if exc.status == 422:
                break
            raise
        assert time.monotonic() < deadline, "the tightened schema never took effect"
        time.sleep(0.2)

    target = resolve_target([CustomResourceDefinition.from_object(tight)], "wbratchet")
    path = tmp_path / "r.yaml"
    session = Session(target, str(path), old=ClusterObjects(client))
    for note, code in (("changed", "bcdef"), ("x", "bcdeg")):
        text = RATCHET.format(namespace=namespace, code=code, note=note)
        path.write_text(text)
        check = session.check()
        ok, causes = _server_update(client, text, "r", collection)
        assert (check.valid, check.operation) == (ok, "update"), (code, check.problems, causes)
        shown = [(p.field, p.message) for p in check.problems if not p.blocked]
        assert shown == [(field, f"{field}: {message}") for field, message in causes]
    assert ok is False and causes[0][0] == "spec.code"  # the changed value is refused
