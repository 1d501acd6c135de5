"""The ``kubectl_crd.kube`` client in one process against the real API server.

What a command line cannot show: a tokenFile re-read by a client that lives on (``dev``),
request bodies given as JSON text or as objects, server-side apply, keep-alive within a
client, a watch stream, and the in-cluster configuration. The server says who a request
was made as (``SelfSubjectReview``), so no test guesses which credential was used.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import APPLY_PATCH, KubeClient
from kubectl_crd.kube.config import ClusterConfig
from tests.integration.cluster_access import (
    PROBE_CRD,
    PROBE_GROUP,
    PROBE_PLURAL,
    kubeconfig_document,
    verified_cluster,
    write_kubeconfig,
)
from tests.integration.connect_proxy import ConnectProxy
from tests.integration.envtest import SERVER_DNS_NAME, ControlPlane

SELF_SUBJECT_REVIEW = "/apis/authentication.k8s.io/v1/selfsubjectreviews"
REVIEW = {"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}


def _username(client: KubeClient, body: Any = None) -> str:
    review = client.request("POST", SELF_SUBJECT_REVIEW, body=REVIEW if body is None else body)
    return str(review["status"]["userInfo"]["username"])


@pytest.fixture(scope="module")
def probes(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The API path of the probe CRD's version (a group no other test uses)."""
    path = tmp_path_factory.mktemp("crd") / "accessprobes.json"
    path.write_text(json.dumps(PROBE_CRD))
    apiserver.install_crds([path])
    return f"/apis/{PROBE_GROUP}/v1"


def _client(path: Path, home: Path) -> KubeClient:
    return KubeClient(ClusterConfig(kubeconfig=str(path)), environ={"HOME": str(home)})


def test_token_file_is_read_again_when_it_changes(apiserver: ControlPlane, tmp_path: Path) -> None:
    tokens = apiserver.tokens
    token_file = tmp_path / "token"
    token_file.write_text(tokens.admin.token)
    path = write_kubeconfig(
        tmp_path / "kubeconfig",
        kubeconfig_document(
            cluster=verified_cluster(apiserver), user={"tokenFile": str(token_file)}
        ),
    )
    with _client(path, tmp_path) as client:
        assert _username(client) == tokens.admin.user
        token_file.write_text(tokens.second_admin.token + "\n")
        assert _username(client) == tokens.second_admin.user


def test_a_body_given_as_json_text_is_sent_as_is(apiserver: ControlPlane, tmp_path: Path) -> None:
    """Issue 8, defect 2: a str body was JSON-encoded a second time (400 from the server)."""
    with _client(apiserver.kubeconfig, tmp_path) as client:
        as_text = _username(client, json.dumps(REVIEW))
        as_object = _username(client, REVIEW)
    assert as_text == as_object == "kubectl-crd-envtest-admin"


def test_server_side_apply_creates_and_updates(
    apiserver: ControlPlane, probes: str, namespace: str, tmp_path: Path
) -> None:
    path = f"{probes}/namespaces/{namespace}/{PROBE_PLURAL}/applied"
    manifest: dict[str, Any] = {
        "apiVersion": f"{PROBE_GROUP}/v1",
        "kind": "AccessProbe",
        "metadata": {"name": "applied", "namespace": namespace},
        "spec": {"target": "applied", "replicas": 1},
    }
    query = {"fieldManager": "kubectl-crd-tests", "force": "true"}
    with _client(apiserver.kubeconfig, tmp_path) as client:
        created = client.request(
            "PATCH", path, query=query, body=json.dumps(manifest), content_type=APPLY_PATCH
        )
        manifest["spec"]["replicas"] = 3
        updated = client.request(
            "PATCH", path, query=query, body=manifest, content_type=APPLY_PATCH
        )
    assert created["spec"]["replicas"] == 1
    assert updated["spec"]["replicas"] == 3
    server = json.loads(
        apiserver.kubectl(
            "get", "-n", namespace, f"{PROBE_PLURAL}.{PROBE_GROUP}", "applied", "-o", "json"
        ).stdout
    )
    assert server["spec"]["replicas"] == 3


def test_requests_of_one_client_share_a_connection(apiserver: ControlPlane, tmp_path: Path) -> None:
    """Keep-alive: through a proxy, three requests are one CONNECT."""
    with ConnectProxy({SERVER_DNS_NAME: "127.0.0.1"}) as proxy:
        cluster = verified_cluster(
            apiserver,
            server=f"https://{SERVER_DNS_NAME}:{apiserver.port}",
            **{"proxy-url": proxy.url},
        )
        path = write_kubeconfig(
            tmp_path / "kubeconfig",
            kubeconfig_document(cluster=cluster, user={"token": apiserver.tokens.admin.token}),
        )
        with _client(path, tmp_path) as client:
            for _ in range(3):
                assert _username(client) == apiserver.tokens.admin.user
        assert proxy.connects == [f"{SERVER_DNS_NAME}:{apiserver.port}"]


def test_a_watch_streams_events_as_they_happen(
    apiserver: ControlPlane, probes: str, namespace: str, tmp_path: Path
) -> None:
    collection = f"{probes}/namespaces/{namespace}/{PROBE_PLURAL}"
    with _client(apiserver.kubeconfig, tmp_path) as client:
        listing = client.request("GET", collection)
        version = listing["metadata"]["resourceVersion"]
        seen: list[tuple[str, str]] = []
        done = threading.Event()

        def watch() -> None:
            query = {
                "resourceVersion": version,
                "allowWatchBookmarks": "true",
                "timeoutSeconds": "20",
            }
            for event in client.watch(collection, query=query):
                if event.type != "BOOKMARK":
                    seen.append((event.type, event.object["metadata"]["name"]))
                if len(seen) >= 2:
                    break
            done.set()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        for name in ("first", "second"):
            apiserver.kubectl(
                "create",
                "-n",
                namespace,
                "-f",
                "-",
                input=json.dumps(
                    {
                        "apiVersion": f"{PROBE_GROUP}/v1",
                        "kind": "AccessProbe",
                        "metadata": {"name": name},
                        "spec": {"target": name},
                    }
                ),
            )
        assert done.wait(20), f"events seen so far: {seen}"
    assert seen == [("ADDED", "first"), ("ADDED", "second")]


@pytest.fixture
def service_account(apiserver: ControlPlane, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment of a pod: service host and port, and a service-account directory."""
    account = tmp_path / "serviceaccount"
    account.mkdir()
    (account / "token").write_text(apiserver.tokens.admin.token)
    (account / "ca.crt").write_bytes(apiserver.pki.ca_cert.read_bytes())
    (account / "namespace").write_text("kcrd-pod-namespace")
    home = tmp_path / "home"
    home.mkdir()
    yield {
        "HOME": str(home),  # no ~/.kube/config there
        "KUBERNETES_SERVICE_HOST": "127.0.0.1",
        "KUBERNETES_SERVICE_PORT": str(apiserver.port),
        "KUBECTL_CRD_SERVICE_ACCOUNT_DIR": str(account),
    }


def test_in_cluster_configuration(apiserver: ControlPlane, service_account: dict[str, str]) -> None:
    account = Path(service_account["KUBECTL_CRD_SERVICE_ACCOUNT_DIR"])
    with KubeClient(ClusterConfig(), environ=service_account) as client:
        assert client.namespace == "kcrd-pod-namespace"
        assert _username(client) == apiserver.tokens.admin.user
        # kubelet rotates the projected token: the client reads it again
        (account / "token").write_text(apiserver.tokens.second_admin.token)
        assert _username(client) == apiserver.tokens.second_admin.user
