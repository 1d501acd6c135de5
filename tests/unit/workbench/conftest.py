"""Sessions over corpus CRDs and files in a temporary directory."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kubectl_crd.model.explain import resolve_target
from kubectl_crd.output.workbench.session import Session
from kubectl_crd.sources.files import FileSource

#: (resource, CRD file under the corpus' crds/)
CERTIFICATE = ("certificate", "cert-manager/cert-manager.io_certificates.yaml")
GATEWAYCLASS = (
    "gatewayclass",
    "gateway-api-standard/gateway.networking.k8s.io_gatewayclasses.yaml",
)

MakeSession = Callable[..., Session]


@pytest.fixture
def make_session(corpus_dir: Path, tmp_path: Path) -> MakeSession:
    """``make_session(CERTIFICATE, "cr.yaml", old_path=...)``: a session over a file of
    ``tmp_path`` (not created)."""

    def make(which: tuple[str, str], name: str = "cr.yaml", **options: object) -> Session:
        resource, crd_file = which
        crds = FileSource([str(corpus_dir / "crds" / crd_file)]).crds()
        target = resolve_target(crds, resource)
        return Session(target, str(tmp_path / name), **options)  # type: ignore[arg-type]

    return make
