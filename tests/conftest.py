"""Fixtures shared by every test package."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.corpus import corpus_path, corpus_present, missing_corpus_line
from tests.integration.envtest import GO_TOOL_ENVIRONMENT
from tests.unit.fuzz.tally import (  # noqa: F401  the fuzz counts, printed at the end
    pytest_sessionfinish,
    pytest_terminal_summary,
    pytest_testnodedown,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
for _key, _value in GO_TOOL_ENVIRONMENT.items():
    os.environ.setdefault(_key, _value)  # for kubectl and the other Go tools the tests run
#: Set to 1 to skip the tests that need the corpus instead of stopping the run.
SKIP_CORPUS_ENV = "KUBECTL_CRD_SKIP_CORPUS"


#: The slowest modules, slowest first (``--durations`` of a clean-clone run, 2026-11-27,
#: seconds at load ~10: 991, 487, 465, 335, 297, 209, 194, 167, 108, 78, 71, 68; the
#: next is under 55). They are handed out first: hack/test.sh gives xdist whole modules
#: (``--dist loadfile``) in this order, so the long ones start at once, side by side,
#: and the many short ones fill in behind. With xdist's default ``load`` the first
#: worker was handed the first quarter of the items up front, and with them all the
#: corpus-wide differentials: it ran alone for the last 45 of 78 minutes.
SLOWEST_MODULES = (
    # the four modules of the corpus-wide control plane (corpus_apiserver) first and
    # together: xdist gives each worker two of them in a row, so that each worker
    # installs the corpus once and the plane is stopped after its second
    "integration/test_explain_differential.py",
    "integration/test_sample_dry_run.py",
    "integration/test_validation_differential.py",
    "integration/test_corpus_crds_install.py",
    "integration/test_get_differential.py",
    "integration/test_kubectl_yaml.py",
    "integration/test_admission_differential.py",
    "integration/test_dev_faults.py",
    "integration/test_cel_cost_differential.py",
    "integration/test_validation_outside_corpus_differential.py",
    "integration/test_krew.py",
)
#: Modules that time processes' start and stop (a control plane started from a child
#: process within 60 s, kube-apiserver's last log line before it is killed): after the
#: other integration modules, once the long ones no longer load both CPUs (the run of
#: 76f4b69 had them early, beside the explain differential's kubectl processes, and both
#: missed their bounds), but before the unit tests: test_apiserver_fixture's tests use
#: the session's control plane, whose directory was gone by the end of the unit tests
#: in the run of 8cfe304, which ran them last (every one of its tests failed)
LAST_MODULES = (
    "integration/test_apiserver_fixture.py",
    "integration/test_dev_envtest_stop.py",
)
TESTS = Path(__file__).resolve().parent


def _schedule_rank(item: pytest.Item) -> int:
    """Where ``item``'s module comes in the run: the slowest modules in their order,
    then the other integration modules (a control plane each, or a share of one), then
    ``LAST_MODULES``, then the unit tests."""
    relative = item.path.resolve().relative_to(TESTS).as_posix()
    if relative in SLOWEST_MODULES:
        return SLOWEST_MODULES.index(relative)
    if relative in LAST_MODULES:
        return len(SLOWEST_MODULES) + 1
    return len(SLOWEST_MODULES) + (0 if relative.startswith("integration/") else 2)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slowest modules first (``SLOWEST_MODULES``; a stable sort: each module's
    tests stay together and in their order). Without the corpus, a run that collected
    tests needing it stops at once with one line saying where it is expected (as the
    integration tests fail without their API server, so that CI proves they ran);
    ``KUBECTL_CRD_SKIP_CORPUS=1`` skips them instead."""
    items.sort(key=_schedule_rank)
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
