"""Usage errors side by side with the real kubectl: the same mistake, the same two lines.

kubectl refuses these before it reads a kubeconfig, so no API server is needed: its
stderr, with ``kubectl`` read as ``kubectl crd``, and its exit code must be ours.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.cli_runner import run_cli
from tests.integration.envtest import newest_kubectl

CASES = [
    ("get", "crontabs", "--bogus"),
    ("get", "crontabs", "-Z"),
    ("get", "crontabs", "-o"),
    ("get", "crontabs", "--output"),
    ("get", "crontabs", "-n"),
    ("get", "crontabs", "-l"),
    ("get", "crontabs", "--chunk-size=x"),
    ("scale", "crontab/x", "--replicas=x"),
    ("scale", "crontab/x", "--replicas"),
    ("scale", "crontab/x", "--current-replicas=x"),
    ("scale", "crontab/x", "--bogus"),
    ("explain", "crontabs", "--bogus"),
    ("explain", "crontabs", "--api-version"),
    ("explain", "crontabs", "--output"),
    ("get", "crontabs", "-w=x"),
    ("get", "crontabs", "--watch=maybe"),
    # values strconv.Quote escapes (%q in pflag's frame and in strconv's error)
    ("get", "crontabs", "--watch=a\tb"),
    ("get", "crontabs", "--chunk-size=1\n2"),
    ("get", "crontabs", '--watch="x"'),
    # strconv.ParseInt(s, 0, 64): past int64, and a misplaced underscore
    ("get", "crontabs", "--chunk-size=99999999999999999999"),
    ("get", "crontabs", "--chunk-size=1__0"),
    ("--kubeconfig",),
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(case) for case in CASES])
def test_usage_errors_as_kubectl(args: tuple[str, ...]) -> None:
    theirs = subprocess.run(
        [newest_kubectl(), *args],
        capture_output=True,
        text=True,
        check=False,
        env={"KUBECONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"},
    )
    ours = run_cli(*args, env={"KUBECONFIG": "/nonexistent"})
    expected = theirs.stderr.replace("'kubectl ", "'kubectl crd ")
    assert (ours.returncode, ours.stderr) == (theirs.returncode, expected)
    assert ours.returncode == 1
