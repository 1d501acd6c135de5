"""The real kubectl finds and runs the installed plugin, as a user's shell would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def _plugin_env(tmp_path: Path) -> dict[str, str]:
    scripts = Path(sys.executable).parent
    if not (scripts / "kubectl-crd").exists():
        pytest.fail(f"kubectl-crd is not installed next to {sys.executable}; run pip install -e .")
    kubectl = shutil.which("kubectl")
    assert kubectl, "the real kubectl must be on PATH"
    path = os.pathsep.join([str(scripts), str(Path(kubectl).parent), "/usr/bin", "/bin"])
    return {"PATH": path, "HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "none")}


def test_kubectl_plugin_list_shows_kubectl_crd(tmp_path: Path) -> None:
    result = subprocess.run(
        ["kubectl", "plugin", "list"],
        capture_output=True,
        text=True,
        env=_plugin_env(tmp_path),
        check=False,
    )
    listed = [Path(line.strip()).name for line in result.stdout.splitlines()]
    assert "kubectl-crd" in listed, result.stdout + result.stderr


def test_kubectl_crd_help_runs_through_kubectl(tmp_path: Path) -> None:
    result = subprocess.run(
        ["kubectl", "crd", "--help"],
        capture_output=True,
        text=True,
        env=_plugin_env(tmp_path),
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "kubectl crd" in result.stdout
    assert "explain" in result.stdout


def test_plugin_errors_keep_exit_codes_through_kubectl(tmp_path: Path) -> None:
    result = subprocess.run(
        ["kubectl", "crd", "scale", "x/y", "-l", "app=z", "--replicas=1"],
        capture_output=True,
        text=True,
        env=_plugin_env(tmp_path),
        check=False,
    )
    assert result.returncode == 1
    # kubectl scale's own words (1.33) for names given with a selector; a lone type is
    # listed from the cluster as kubectl's builder does, so it makes no usage error
    assert result.stderr == (
        "error: selectors and the all flag cannot be used when passing resource/name arguments\n"
    )
    usage = subprocess.run(
        ["kubectl", "crd", "scale", "x/y", "--replicas=-1"],
        capture_output=True,
        text=True,
        env=_plugin_env(tmp_path),
        check=False,
    )
    assert usage.returncode == 1
    assert usage.stderr == (
        "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n"
    )
    missing = subprocess.run(
        ["kubectl", "crd", "dev", "x.py"],
        capture_output=True,
        text=True,
        env=_plugin_env(tmp_path),
        check=False,
    )
    assert missing.returncode == 1
    assert missing.stderr == "error: x.py: no such file or directory\n"
