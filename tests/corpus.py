"""Where the real-world CRD corpus is: the one setting the tests and ``bench/`` read.

``$KUBECTL_CRD_CORPUS`` (relative to the repository root when relative), else
``../shared/corpus`` next to the repository. A directory with ``crds/`` and
``samples/``. Tests take it through the ``corpus_dir`` fixture (``tests/conftest.py``,
which stops the run with ``missing_corpus_line`` when it is not there); scripts call
``require_corpus``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
ENV = "KUBECTL_CRD_CORPUS"
DEFAULT = "../shared/corpus"


def corpus_path() -> Path:
    """The corpus directory the setting names (whether or not it is there)."""
    return (REPO_ROOT / os.environ.get(ENV, DEFAULT)).resolve()


def corpus_present(path: Path) -> bool:
    return (path / "crds").is_dir() and (path / "samples").is_dir()


def missing_corpus_line(path: Path) -> str:
    """The one line that says where the corpus was looked for and how to point elsewhere."""
    return (
        f"the CRD corpus is expected at {path} (with crds/ and samples/): set {ENV} to where it is"
    )


def require_corpus() -> Path:
    """The corpus for a script, or exit with one line saying where it is expected."""
    path = corpus_path()
    if not corpus_present(path):
        sys.exit(f"error: {missing_corpus_line(path)}")
    return path
