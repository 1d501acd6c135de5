"""Fixtures shared by every test package."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The real-world CRD corpus: ``$KUBECTL_CRD_CORPUS``, else ``../shared/corpus``.

    A relative ``KUBECTL_CRD_CORPUS`` is taken from the repository root. Tests that
    use it are skipped when the corpus is not there.
    """
    path = REPO_ROOT / os.environ.get("KUBECTL_CRD_CORPUS", "../shared/corpus")
    if not (path / "crds").is_dir():
        pytest.skip(f"CRD corpus not found at {path} (set KUBECTL_CRD_CORPUS)")
    return path.resolve()
