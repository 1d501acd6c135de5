"""The cluster source against kubeconfigs that cannot work: clear errors, never tracebacks."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeconfigError
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.errors import ClusterUnreachableError
from kubectl_crd.sources.cluster import ClusterSource


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _kubeconfig(tmp_path: Path, server: str) -> Path:
    path = tmp_path / "kubeconfig"
    path.write_text(
        f"""apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {{server: "{server}"}}
users:
- name: u
  user: {{token: abc}}
contexts:
- name: ctx
  context: {{cluster: c, user: u, namespace: team-a}}
current-context: ctx
"""
    )
    return path


def test_refused_connection_gets_kubectls_message(tmp_path: Path) -> None:
    port = _closed_port()
    config = ClusterConfig(kubeconfig=str(_kubeconfig(tmp_path, f"http://127.0.0.1:{port}")))
    with pytest.raises(ClusterUnreachableError) as caught:
        ClusterSource(config).crds()
    assert str(caught.value) == (
        f"The connection to the server 127.0.0.1:{port} was refused - "
        "did you specify the right host or port?"
    )
    assert caught.value.__cause__ is not None


def test_unknown_context_is_a_kubeconfig_error(tmp_path: Path) -> None:
    config = ClusterConfig(
        kubeconfig=str(_kubeconfig(tmp_path, "http://127.0.0.1:1")), context="nope"
    )
    with pytest.raises(KubeconfigError, match="context was not found for specified context: nope"):
        ClusterSource(config).crds()


def test_missing_kubeconfig_file_is_a_kubeconfig_error(tmp_path: Path) -> None:
    config = ClusterConfig(kubeconfig=str(tmp_path / "absent"))
    with pytest.raises(KubeconfigError):
        ClusterSource(config).crds()


def test_namespace_comes_from_flag_then_context(tmp_path: Path) -> None:
    from kubectl_crd.kube.client import KubeClient

    path = str(_kubeconfig(tmp_path, "http://127.0.0.1:1"))
    assert KubeClient(ClusterConfig(kubeconfig=path)).namespace == "team-a"
    assert KubeClient(ClusterConfig(kubeconfig=path, namespace="x")).namespace == "x"
