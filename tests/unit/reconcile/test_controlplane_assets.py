"""``find_assets`` with ``KUBEBUILDER_ASSETS`` set: that directory or an error, as
controller-runtime's envtest uses it (``pkg/internal/testing/process/
bin_path_finder.go``: the variable, when set, is where the binaries are; no other place
is looked at). Where it finds them when unset: tests/unit/cli/test_dev.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_crd.model.errors import ControlPlaneError
from kubectl_crd.reconcile.controlplane import find_assets
from tests.unit.cli.test_dev import _assets as assets  # the fake binaries, made once


def test_a_kubebuilder_assets_without_the_binaries_is_an_error_not_another_place(
    tmp_path: Path,
) -> None:
    # before, a set but wrong KUBEBUILDER_ASSETS (a typo, a version not fetched) fell
    # through to setup-envtest's newest version or the project's cache: the loop ran on
    # another Kubernetes version than the one asked for
    assets(tmp_path / "data" / "kubebuilder-envtest" / "k8s" / "1.34.1-linux-amd64")
    wanted = tmp_path / "k8s" / "1.30.0-linux-amd64"
    wanted.mkdir(parents=True)
    environ = {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "KUBEBUILDER_ASSETS": str(wanted),
    }
    with pytest.raises(ControlPlaneError, match=f"^KUBEBUILDER_ASSETS={wanted} lacks"):
        find_assets(environ)
    assets(wanted / "bin")  # not there either: the directory itself holds them
    with pytest.raises(ControlPlaneError):
        find_assets(environ)
    environ["KUBEBUILDER_ASSETS"] = str(wanted / "bin")
    assert find_assets(environ) == str(wanted / "bin")
