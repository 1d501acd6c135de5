"""Connection settings from kubectl's global flags: kubeconfig, context, namespace,
request timeout, and impersonation (``--as``, ``--as-group``).

Pure data; the kubeconfig is only read when a client needs it (``kubeconfig.py``), so
holding a ``ClusterConfig`` costs nothing.
"""

from __future__ import annotations

from kubectl_crd.model.durations import parse_request_timeout
from kubectl_crd.model.records import record


@record
class ClusterConfig:
    kubeconfig: str | None = None
    context: str | None = None
    namespace: str | None = None
    request_timeout: str | None = None
    #: kubectl's --as and --as-group (impersonation), over the kubeconfig's
    impersonate_user: str | None = None
    impersonate_groups: tuple[str, ...] = ()

    @property
    def timeout_seconds(self) -> float | None:
        return parse_request_timeout(self.request_timeout)
