"""The application object handed to every command, and the global flags that fill it.

It holds kubectl's global flags and builds expensive things (the cluster client, the
CRD sources) only when a command asks for them, so that offline commands never import
the ``kubernetes`` package. ``GLOBAL_FLAGS`` are declared here, once, for both parsers
(``cli.flags``, ``cli.options``); as kubectl's persistent flags they are accepted
before and after a command's name, and the later one wins.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from kubectl_crd.cli.flags import SWITCH, VALUE, Flag

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.sources.base import CRDSource


GLOBAL_FLAGS = (
    Flag(
        ("--kubeconfig",),
        "kubeconfig",
        VALUE,
        "Path to the kubeconfig file to use for CLI requests.",
        metavar="PATH",
    ),
    Flag(
        ("--context",),
        "context",
        VALUE,
        "The name of the kubeconfig context to use.",
        metavar="NAME",
    ),
    Flag(
        ("-n", "--namespace"),
        "namespace",
        VALUE,
        "If present, the namespace scope for this CLI request.",
        metavar="NS",
    ),
    Flag(
        ("--request-timeout",),
        "request_timeout",
        VALUE,
        "The length of time to wait before giving up on a single server request "
        "(e.g. 1s, 2m, 3h; 0 = no timeout).",
        metavar="DURATION",
    ),
    Flag(
        ("--debug",),
        "debug",
        SWITCH,
        "Show tracebacks for errors (or set KUBECTL_CRD_DEBUG=1).",
    ),
)

#: The global flags' parameters; they are ``Application``'s attributes too.
GLOBAL_DESTS = tuple(flag.dest for flag in GLOBAL_FLAGS)


def inherited_global_flags(own: Sequence[Flag]) -> tuple[Flag, ...]:
    """The global flags a command accepts after its name: those it does not declare
    itself (a command's own ``-n`` would win)."""
    names = {name for flag in own for name in flag.names}
    return tuple(flag for flag in GLOBAL_FLAGS if names.isdisjoint(flag.names))


def take_global_flags(app: Application, values: dict[str, object]) -> None:
    """Move the global flags given after the command from ``values`` into ``app``."""
    for dest in GLOBAL_DESTS:
        value = values.pop(dest, None)
        if value is not None and value is not False:
            setattr(app, dest, value)


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
        from kubectl_crd.io import require_paths
        from kubectl_crd.sources.files import FileSource

        require_paths(crd_paths)  # a --crd typo is an error, not a CRD quietly missing
        if crd_paths and not use_cluster:
            return FileSource(crd_paths)
        from kubectl_crd.sources.cluster import ClusterSource

        cluster = ClusterSource(self.cluster)
        if crd_paths:
            from kubectl_crd.sources.combined import CompositeSource

            return CompositeSource([FileSource(crd_paths), cluster])
        return cluster
