"""The root command as a user meets it: flags, exit codes and the one-line error rule."""

from __future__ import annotations

import json
import subprocess
import sys
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


# -- leaving without the interpreter's teardown (root._leave) ----------------------------

_LEAVE = """
import atexit, sys, threading, time
from kubectl_crd.cli.root import _leave
print("buffered", end="")
atexit.register(lambda: print(" atexit ran"))
if sys.argv[1] == "thread":  # a non-daemon thread still working: waited for, as usual
    threading.Thread(target=lambda: (time.sleep(0.3), print(" thread ran", end=""))).start()
_leave(int(sys.argv[2]) if sys.argv[2].isdigit() else sys.argv[2])
"""


@pytest.mark.parametrize(
    ("case", "code", "stdout", "stderr", "exit_code"),
    [
        ("plain", "4", "buffered atexit ran\n", "", 4),
        ("plain", "0", "buffered atexit ran\n", "", 0),
        ("thread", "3", "buffered thread ran atexit ran\n", "", 3),
        ("plain", "error: a message", "buffered atexit ran\n", "error: a message\n", 1),
    ],
)
def test_leaving_flushes_runs_exit_functions_and_keeps_the_exit_code(
    case: str, code: str, stdout: str, stderr: str, exit_code: int
) -> None:
    from tests.cli_runner import run_python

    result = run_python(_LEAVE, case, code)
    assert (result.stdout, result.stderr, result.returncode) == (stdout, stderr, exit_code)


def test_a_closed_pipe_at_exit_is_not_an_error() -> None:
    """``kubectl crd ... | head -1``: the reader gone before the last flush; as before
    ``_leave``, the interpreter's own exit (no traceback)."""
    crd = Path(__file__).parents[3] / "examples" / "crds" / "crontab.yaml"
    pipeline = subprocess.run(
        f"{sys.executable} -m kubectl_crd explain --crd {crd} crontabs --recursive | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert pipeline.stdout.startswith("GROUP:") or pipeline.stdout.startswith("KIND:")
    assert "Traceback" not in pipeline.stderr and pipeline.stderr == ""
