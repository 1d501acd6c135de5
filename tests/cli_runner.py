"""Run ``kubectl crd`` in a subprocess as a user would, with a clean environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping


def run_cli(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m kubectl_crd ARGS``; the caller's debug and kubeconfig settings are dropped."""
    return _run(["-m", "kubectl_crd", *args], env)


def run_python(
    code: str, *args: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -c CODE ARGS`` in ``run_cli``'s environment: another entry point (the
    completion script's ``main``), or the CLI with a piece of it replaced."""
    return _run(["-c", code, *args], env)


def _run(argv: list[str], env: Mapping[str, str] | None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        env=clean,
        check=False,
    )
