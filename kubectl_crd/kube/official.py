"""The official ``kubernetes`` client, built from the same kubeconfig and flags as ours.

The dev loop's escape hatch (``ctx.kubernetes`` in a reconciler): imported and built only
when a reconciler asks for it (``import kubernetes.client`` costs 0.3-1.3 s and ~70 MB,
``../shared/reference/dev-loop.md``). This package is the only importer of ``kubernetes``.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.config import ClusterConfig

__all__ = ["official_client"]


def official_client(config: ClusterConfig) -> Any:
    """A ``kubernetes.client.ApiClient`` for the cluster ``config`` names (its
    ``--kubeconfig``, or ``KUBECONFIG``, and ``--context``), impersonating ``--as``.

    The official client keeps default headers in a mapping, so of ``--as-group`` only
    the first group can be sent; ours sends them all."""
    from kubernetes import config as kube_config

    api = kube_config.new_client_from_config(config_file=config.kubeconfig, context=config.context)
    if config.impersonate_user:
        api.set_default_header("Impersonate-User", config.impersonate_user)
        if config.impersonate_groups:
            api.set_default_header("Impersonate-Group", config.impersonate_groups[0])
    return api
