"""A ``-f`` path that does not exist, side by side with the real kubectl.

kubectl's resource builder refuses it (``the path "..." does not exist``, exit 1)
whatever else the command line asks; it first tries the cluster's discovery, which
only logs (no cluster here: ``KUBECONFIG`` names no file). Ours says the same line,
and only it: no cluster is asked, nothing else is printed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.cli_runner import run_cli
from tests.integration.envtest import newest_kubectl

REPO = Path(__file__).resolve().parents[2]
CRDS = str(REPO / "examples" / "crds")

CASES = [
    ("get", "crontabs", "-f", "{missing}"),
    ("get", "crontabs", "-f", "{present}", "-f", "{missing}"),
    ("scale", "--replicas=2", "-f", "{missing}"),
    ("scale", "--replicas=2", "-f", "{present}", "-f", "{missing}"),
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(case) for case in CASES])
def test_a_missing_path_is_kubectls_one_line(args: tuple[str, ...], tmp_path: Path) -> None:
    present = tmp_path / "present.yaml"
    present.write_text("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n")
    line = [a.format(missing=tmp_path / "gone.yaml", present=present) for a in args]
    theirs = subprocess.run(
        [newest_kubectl(), *line],
        capture_output=True,
        text=True,
        check=False,
        env={"KUBECONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"},
    )
    ours = run_cli(*line, env={"KUBECONFIG": "/nonexistent"})
    expected = f'error: the path "{tmp_path / "gone.yaml"}" does not exist\n'
    assert theirs.returncode == 1 and theirs.stderr.endswith(expected), theirs.stderr
    assert (ours.returncode, ours.stdout, ours.stderr) == (1, "", expected)


@pytest.mark.parametrize(
    "args",
    [
        ("get", "crontabs", "--crd", CRDS, "-f", "{missing}"),
        ("scale", "crontab/a", "--replicas=2", "--local", "--crd", CRDS, "-f", "{missing}"),
    ],
    ids=["get --crd", "scale --local"],
)
def test_offline_a_missing_path_is_the_same_line(args: tuple[str, ...], tmp_path: Path) -> None:
    missing = tmp_path / "gone.yaml"
    ours = run_cli(*(a.format(missing=missing) for a in args), env={"KUBECONFIG": "/nonexistent"})
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        1,
        "",
        f'error: the path "{missing}" does not exist\n',
    )


CRD_COMMANDS = [
    ("explain", "crontabs"),
    ("sample", "crontabs"),
    ("columns", "crontabs"),
    ("get", "crontabs"),
    ("get", "crontabs", "-f", "{present}"),
    ("validate", "-f", "{present}"),
    ("scale", "crontab/a", "--replicas=2", "--local", "-f", "{present}"),
]


@pytest.mark.parametrize("args", CRD_COMMANDS, ids=[" ".join(case) for case in CRD_COMMANDS])
def test_a_missing_crd_path_is_the_same_line_whatever_else_is_given(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    # a --crd typo beside a good one: before, explain and validate warned and went on
    # (validate exited 0 when the good one served the kind), get and columns said nothing
    present = tmp_path / "present.yaml"
    present.write_text(
        "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n"
        "spec: {cronSpec: '* * * * *', image: x, replicas: 1}\n"
    )
    missing = tmp_path / "gone.yaml"
    line = [a.format(present=present) for a in args]
    ours = run_cli(*line, "--crd", CRDS, "--crd", str(missing), env={"KUBECONFIG": "/nonexistent"})
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        1,
        "",
        f'error: the path "{missing}" does not exist\n',
    )
