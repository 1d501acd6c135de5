"""Integration fixtures: a real kube-apiserver and etcd, the real kubectl, a namespace per test.

Every test under ``tests/integration`` is marked ``integration`` (deselect them with
``-m "not integration"``). When ``hack/envtest-assets.sh`` cannot provide the binaries
the tests fail, so that CI proves they ran; ``KUBECTL_CRD_SKIP_INTEGRATION=1`` turns
that failure into a skip. Under pytest-xdist each worker starts its own control plane.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from tests.integration.envtest import AssetsUnavailable, ControlPlane, EnvtestError, ensure_assets

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tests.integration.test_validation_differential import ApiClient

HERE = Path(__file__).resolve().parent
SKIP_ENV = "KUBECTL_CRD_SKIP_INTEGRATION"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # This hook sees the whole session's items, not just this directory's.
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def envtest_assets() -> Path:
    """The directory with ``kube-apiserver`` and ``etcd`` (built on first use)."""
    try:
        return ensure_assets()
    except AssetsUnavailable as exc:
        if os.environ.get(SKIP_ENV) == "1":
            pytest.skip(f"{SKIP_ENV}=1 and no envtest assets: {exc}")
        pytest.fail(
            f"{exc}\nIntegration tests need these binaries; set {SKIP_ENV}=1 to skip them "
            'instead, or deselect them with -m "not integration".',
            pytrace=False,
        )


def _started(assets: Path) -> ControlPlane:
    plane = ControlPlane(assets)
    try:
        plane.start()
    except EnvtestError as exc:
        pytest.fail(f"the test control plane did not start: {exc}", pytrace=False)
    return plane


@pytest.fixture(scope="session")
def apiserver(envtest_assets: Path) -> Iterator[ControlPlane]:
    """etcd + kube-apiserver for the whole session (one per xdist worker).

    Offers ``kubeconfig``, ``server``, ``context``, ``kubectl(*args, input=, check=)``,
    ``install_crds(paths) -> names``, ``delete_crds(names)`` and ``env()``.
    """
    plane = _started(envtest_assets)
    try:
        yield plane
    finally:
        plane.stop()


@pytest.fixture(scope="module")
def isolated_apiserver(envtest_assets: Path) -> Iterator[ControlPlane]:
    """A control plane of the module's own, for tests that would crowd the shared one."""
    plane = _started(envtest_assets)
    try:
        yield plane
    finally:
        plane.stop()


class _CorpusPlane:
    """The one control plane of ``corpus_apiserver`` on this worker, while it is used."""

    plane: ControlPlane | None = None

    @classmethod
    def stop(cls) -> None:
        if cls.plane is not None:
            cls.plane.stop()
            cls.plane = None


CORPUS_APISERVER = "corpus_apiserver"


@pytest.fixture(scope="module")
def corpus_apiserver(envtest_assets: Path) -> ControlPlane:
    """A control plane for the corpus-wide modules, shared by them on a worker.

    Each installs its corpus rounds with ``ControlPlane.use_crds`` (a CRD already
    installed from the same file stays) and writes no objects but dry runs, so one
    plane serves them all and the corpus is installed once for the run of them, not
    once a module (about a minute of the server's time each, two on a loaded 2-core
    machine). Started on first use; stopped after a module when the next one does not
    use it (``pytest_runtest_teardown``): a plane holding the corpus is ~1.6 GB.
    No other CRD may be installed here: the explain differential compares what the
    server publishes for a group-version with the corpus CRDs of that group.
    """
    if _CorpusPlane.plane is None:
        _CorpusPlane.plane = _started(envtest_assets)
    return _CorpusPlane.plane


@pytest.hookimpl(trylast=True)  # after the module's own fixtures were torn down
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    # xdist runs an item only once it knows the next one (or has none): this is the
    # worker's real next test. Never within a module: its fixture value is cached.
    if nextitem is None or (
        nextitem.path != item.path and CORPUS_APISERVER not in getattr(nextitem, "fixturenames", ())
    ):
        _CorpusPlane.stop()


def pytest_sessionfinish() -> None:
    _CorpusPlane.stop()


@pytest.fixture
def client(apiserver: ControlPlane, tmp_path: Path) -> Iterator[KubeClient]:
    """Our client on the session's control plane (its own HOME: no user's caches)."""
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as made:
        yield made


@pytest.fixture
def namespace(apiserver: ControlPlane, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh namespace for one test, deleted afterwards without waiting.

    envtest runs no namespace controller, so a deleted namespace stays Terminating.
    """
    slug = re.sub(r"[^a-z0-9]+", "-", request.node.name.lower()).strip("-")[:40].strip("-")
    name = f"t-{slug}-{secrets.token_hex(3)}"
    apiserver.kubectl("create", "namespace", name)
    try:
        yield name
    finally:
        apiserver.kubectl("delete", "namespace", name, "--wait=false", check=False)


@pytest.fixture
def api_client(apiserver: ControlPlane) -> Iterator[ApiClient]:
    """One keep-alive HTTPS connection to the session's API server, for requests a
    differential test sends as they are (``test_validation_differential.ApiClient``)."""
    from tests.integration.test_validation_differential import ApiClient

    made = ApiClient(apiserver)
    try:
        yield made
    finally:
        if made.connection is not None:
            made.connection.close()
