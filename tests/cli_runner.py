"""Run ``kubectl crd`` in a subprocess as a user would, with a clean environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping


def run_cli(*args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m kubectl_crd ARGS``; the caller's debug and kubeconfig settings are dropped."""
    clean = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    clean.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "kubectl_crd", *args],
        capture_output=True,
        text=True,
        env=clean,
        check=False,
    )
