"""The root command as a user meets it: flags, exit codes and the one-line error rule."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli_runner import run_cli


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, env=env)


def test_help_lists_the_commands_and_global_flags() -> None:
    result = run("--help")
    assert result.returncode == 0
    for text in ("--kubeconfig", "--context", "-n, --namespace", "--request-timeout", "explain"):
        assert text in result.stdout


def test_help_says_which_commands_are_not_built_yet() -> None:
    """A placeholder command (``cli.placeholder``) is listed as such, not as a feature;
    today every command is built."""
    listed = run("--help").stdout
    placeholders = [
        name
        for name in ("explain", "sample", "validate", "get", "columns", "scale", "dev")
        if "is not available yet" in run(name, "x", env={"KUBECONFIG": "/nonexistent"}).stderr
    ]
    assert placeholders == []
    assert "Not available yet" not in listed


def test_version() -> None:
    from kubectl_crd import __version__

    result = run("--version")
    assert result.stdout.strip() == f"kubectl-crd {__version__}"


def test_placeholder_command_says_so_in_one_line_and_exits_1() -> None:
    from kubectl_crd.cli.placeholder import not_available
    from kubectl_crd.model.errors import NotAvailableError

    with pytest.raises(NotAvailableError) as raised:
        not_available("later", "planned").main(["x", "--replicas=3"], standalone_mode=False)
    assert raised.value.kubectl_line == (
        'error: "kubectl crd later" is not available yet in this release (planned)'
    )
    assert raised.value.exit_code == 1


@pytest.mark.parametrize("how", [("--debug",), ()])
def test_traceback_only_with_debug(how: tuple[str, ...]) -> None:
    env = {"KUBECTL_CRD_DEBUG": "0"}
    result = run(*how, "dev", "x", env=env)
    assert result.returncode == 1
    assert ("Traceback (most recent call last)" in result.stderr) == bool(how)


def test_debug_from_environment() -> None:
    result = run("dev", "x", env={"KUBECTL_CRD_DEBUG": "1"})
    assert "Traceback (most recent call last)" in result.stderr


@pytest.mark.parametrize("command", ["explain", "sample"])
def test_command_help_points_at_the_global_flags_without_listing_them(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0
    assert 'Use "kubectl crd --help" for the global flags' in result.stdout
    assert "--kubeconfig" not in result.stdout


def test_global_flags_after_the_command_reach_it(tmp_path: Path) -> None:
    crd = Path(__file__).parents[3] / "examples" / "crds" / "crontab.yaml"
    env = {"KUBECTL_CRD_CACHE_DIR": str(tmp_path)}
    result = run("sample", "--crd", str(crd), "crontab", "-n", "after", "-o", "json", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["metadata"]["namespace"] == "after"
    result = run("explain", "crontab", "--kubeconfig", str(tmp_path / "none"), env=env)
    assert result.returncode == 1
    assert str(tmp_path / "none") in result.stderr
