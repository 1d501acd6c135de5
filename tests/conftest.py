"""Fixtures shared by every test package."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.corpus import corpus_path, corpus_present, missing_corpus_line
from tests.unit.fuzz.tally import (  # noqa: F401  the fuzz counts, printed at the end
    pytest_sessionfinish,
    pytest_terminal_summary,
    pytest_testnodedown,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
#: Set to 1 to skip the tests that need the corpus instead of stopping the run.
SKIP_CORPUS_ENV = "KUBECTL_CRD_SKIP_CORPUS"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without the corpus, a run that collected tests needing it stops at once with one
    line saying where it is expected (as the integration tests fail without their API
    server, so that CI proves they ran); ``KUBECTL_CRD_SKIP_CORPUS=1`` skips them instead."""
    path = corpus_path()
    needing = [item for item in items if "corpus_dir" in getattr(item, "fixturenames", ())]
    if not needing or corpus_present(path):
        return
    if os.environ.get(SKIP_CORPUS_ENV) != "1":
        pytest.exit(
            f"{missing_corpus_line(path)}, or {SKIP_CORPUS_ENV}=1 to skip what needs it "
            f"({len(needing)} of the tests collected)",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )
    skip = pytest.mark.skip(reason=missing_corpus_line(path))
    for item in needing:
        item.add_marker(skip)


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The real-world CRD corpus (``tests.corpus``: ``$KUBECTL_CRD_CORPUS``, else
    ``../shared/corpus``)."""
    return corpus_path()
