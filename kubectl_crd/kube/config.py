"""Connection settings: kubeconfig file, context, namespace and request timeout.

Pure data plus parsing; the ``kubernetes`` package is only imported when a client is
actually built (see ``client.py``), so holding a ``ClusterConfig`` costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubectl_crd.model.durations import parse_request_timeout


@dataclass(frozen=True)
class ClusterConfig:
    kubeconfig: str | None = None
    context: str | None = None
    namespace: str | None = None
    request_timeout: str | None = None

    @property
    def timeout_seconds(self) -> float | None:
        return parse_request_timeout(self.request_timeout)
