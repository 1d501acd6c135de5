"""The official ``kubernetes`` client, built from the same kubeconfig and flags as ours.

The dev loop's escape hatch (``ctx.kubernetes`` in a reconciler): imported and built only
when a reconciler asks for it (``import kubernetes.client`` costs 0.3-1.3 s and ~70 MB,
``../shared/reference/dev-loop.md``). This package is the only importer of ``kubernetes``.
"""

from __future__ import annotations

import sys
from typing import Any

from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.errors import KubectlCrdError

__all__ = ["kubernetes_missing", "official_client"]


def kubernetes_missing(purpose: str) -> str:
    """The line for a ``kubernetes`` package that is not there: the krew archive leaves
    it out (hack/build_krew.py; it brings pydantic, aiohttp and six native packages for
    the two places that use it), so say how to add it to the Python running us."""
    return (
        f"{purpose} needs the Python package kubernetes, which this installation of "
        f"kubectl crd leaves out: install it with {sys.executable} -m pip install "
        "'kubernetes>=30,<38', or install kubectl crd with pipx (README: Install)"
    )


def official_client(config: ClusterConfig) -> Any:
    """A ``kubernetes.client.ApiClient`` for the cluster ``config`` names (its
    ``--kubeconfig``, or ``KUBECONFIG``, and ``--context``), impersonating ``--as`` and
    every ``--as-group``.

    The official client keeps default headers in a plain mapping (one value a name),
    and kube-apiserver reads one group per ``Impersonate-Group`` header line (its
    ``endpoints/filters/impersonation.go`` does not split a line at commas): the groups
    are added as lines of their own where the client hands its headers to urllib3."""
    try:
        from kubernetes import config as kube_config
    except ImportError:
        raise KubectlCrdError(kubernetes_missing("ctx.kubernetes")) from None

    api = kube_config.new_client_from_config(config_file=config.kubeconfig, context=config.context)
    if config.impersonate_user:
        api.set_default_header("Impersonate-User", config.impersonate_user)
        if config.impersonate_groups:
            rest = api.rest_client
            rest.pool_manager = _WithGroups(rest.pool_manager, config.impersonate_groups)
    return api


class _WithGroups:
    """A urllib3 pool manager whose requests carry one ``Impersonate-Group`` line per
    group (the official client's ``RESTClientObject`` calls only ``request`` with
    ``headers=``; everything else goes to the pool manager itself)."""

    def __init__(self, pool: Any, groups: tuple[str, ...]) -> None:
        self._pool = pool
        self._groups = groups

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        from urllib3 import HTTPHeaderDict

        headers = HTTPHeaderDict()
        for name, value in (kwargs.pop("headers", None) or {}).items():
            if name.lower() != "impersonate-group":
                headers.add(name, value)
        for group in self._groups:
            headers.add("Impersonate-Group", group)
        return self._pool.request(method, url, *args, headers=headers, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pool, name)
