"""The application object handed to every command.

It holds kubectl's global flags and builds expensive things (the cluster client, the
CRD sources) only when a command asks for them, so that offline commands never import
the ``kubernetes`` package.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.sources.base import CRDSource


def debug_from_env() -> bool:
    return os.environ.get("KUBECTL_CRD_DEBUG", "").lower() not in ("", "0", "false", "no")


class Application:
    def __init__(
        self,
        *,
        kubeconfig: str | None = None,
        context: str | None = None,
        namespace: str | None = None,
        request_timeout: str | None = None,
        debug: bool = False,
    ) -> None:
        self.kubeconfig = kubeconfig
        self.context = context
        self.namespace = namespace
        self.request_timeout = request_timeout
        self.debug = debug
        self._cluster: ClusterConfig | None = None

    def __repr__(self) -> str:
        return (
            f"Application(kubeconfig={self.kubeconfig!r}, context={self.context!r}, "
            f"namespace={self.namespace!r}, request_timeout={self.request_timeout!r}, "
            f"debug={self.debug!r})"
        )

    @property
    def cluster(self) -> ClusterConfig:
        """Connection settings from kubeconfig and flags; imports the client lazily."""
        if self._cluster is None:
            from kubectl_crd.kube.config import ClusterConfig

            self._cluster = ClusterConfig(
                kubeconfig=self.kubeconfig,
                context=self.context,
                namespace=self.namespace,
                request_timeout=self.request_timeout,
            )
        return self._cluster

    def crd_source(
        self, crd_paths: Sequence[str] = (), *, use_cluster: bool | None = None
    ) -> CRDSource:
        """CRDs from ``--crd`` files when given, otherwise from the cluster.

        With ``use_cluster=True`` and files given, files come first and the cluster fills in.
        """
        from kubectl_crd.sources.files import FileSource

        if crd_paths and not use_cluster:
            return FileSource(crd_paths)
        from kubectl_crd.sources.cluster import ClusterSource

        cluster = ClusterSource(self.cluster)
        if crd_paths:
            from kubectl_crd.sources.combined import CompositeSource

            return CompositeSource([FileSource(crd_paths), cluster])
        return cluster
