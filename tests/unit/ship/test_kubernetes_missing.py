"""Without the ``kubernetes`` package (the krew archive leaves it out), the two places
that use it say so in one line with the command that adds it, instead of an internal
error. ``sys.modules[name] = None`` makes ``import name`` fail as a missing package does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.credentials import _oidc_token
from kubectl_crd.kube.official import official_client
from kubectl_crd.model.errors import KubeconfigError, KubectlCrdError

HOW = f"install it with {sys.executable} -m pip install 'kubernetes>=30,<38', or install kubectl crd with pipx"


@pytest.fixture
def no_kubernetes(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "kubernetes" or n.startswith("kubernetes.")]:
        monkeypatch.delitem(sys.modules, name)
    for name in ("kubernetes", "kubernetes.config", "kubernetes.config.kube_config"):
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.usefixtures("no_kubernetes")
def test_oidc_without_kubernetes_is_one_line_with_the_fix() -> None:
    provider = {"name": "oidc", "config": {"client-id": "x", "id-token": "a.b.c"}}
    with pytest.raises(KubeconfigError) as caught:
        _oidc_token(provider, "u")
    assert caught.value.kubectl_line == (
        "error: the oidc auth-provider needs the Python package kubernetes, which this"
        f" installation of kubectl crd leaves out: {HOW} (README: Install)"
    )


@pytest.mark.usefixtures("no_kubernetes")
def test_ctx_kubernetes_without_kubernetes_is_one_line_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(KubectlCrdError) as caught:
        official_client(ClusterConfig(kubeconfig=str(tmp_path / "none")))
    assert caught.value.kubectl_line.startswith("error: ctx.kubernetes needs the Python package")
    assert HOW in caught.value.kubectl_line
