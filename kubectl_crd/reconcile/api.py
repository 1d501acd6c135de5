"""The reconciler API: the few names a user's reconciler module may import.

A reconciler needs no import at all: a module declares ``FOR`` (``plural.group/version``
of what it reconciles), optionally ``OWNS`` (the kinds of the children it makes, as
``apps/v1/Deployment`` or ``v1/ConfigMap``) and ``WATCHES`` (other resources, each with a
function from a changed object to the ``(namespace, name)`` keys of the parents to
reconcile), and one level-triggered ``reconcile(obj, ctx)`` (or ``reconcile(obj)``,
called without ``ctx``) that returns ``None``, a plain dict
``{"children": [...], "status": {...}, "requeue_after": seconds}`` (every key optional)
or a ``Result``. Reconciliation is level-based, as controller-runtime's
(``pkg/reconcile/reconcile.go``): the function is given the object as it is now and
says what should exist, never what changed.

This module is the public surface (``kubectl_crd.reconcile`` re-exports it with an
explicit ``__all__``, pinned by a test); it imports nothing beyond the standard library,
so a reconciler's unit tests stay fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from kubectl_crd.model.records import field, record

if TYPE_CHECKING:
    import logging

__all__ = ["Context", "Result", "TerminalError"]


@record
class Result:
    """What one reconcile wants.

    ``children``: the desired child objects, applied server-side under the loop's one
    field manager with a controller ``ownerReference`` to the reconciled object (a child
    without a namespace goes into the parent's); owned children of the kinds in ``OWNS``
    that are no longer desired are deleted. ``status``: the object's new status, written
    through ``/status`` when its version has the subresource, with
    ``observedGeneration``; ``None`` leaves the status alone. ``requeue_after``: seconds
    after which the object is reconciled again even if nothing changes (as
    controller-runtime's ``Result.RequeueAfter``).
    """

    children: Sequence[Mapping[str, Any]] = field(default_factory=tuple)
    status: Mapping[str, Any] | None = None
    requeue_after: float | None = None


class TerminalError(Exception):
    """A failure that retrying cannot mend (controller-runtime's ``TerminalError``): it
    is reported, and the object is not requeued until it changes."""


class Context(Protocol):
    """What the loop hands ``reconcile`` besides the object."""

    #: a logger whose records the loop shows with the object's key
    log: logging.Logger
    #: the reconciled object's namespace ("" for a cluster-scoped one)
    namespace: str

    def event(
        self,
        reason: str,
        message: str,
        *,
        type: str = "Normal",
        obj: Mapping[str, Any] | None = None,
    ) -> None:
        """Record a Kubernetes Event on ``obj`` (the reconciled object by default)."""

    def get(self, resource: str, name: str, namespace: str | None = None) -> dict[str, Any] | None:
        """An object from the loop's cache (``FOR``, ``OWNS`` and ``WATCHES`` resources,
        as ``apps/v1/Deployment`` or ``plural.group/version``); ``None`` when absent.
        ``namespace`` defaults to the reconciled object's."""

    def list(
        self,
        resource: str,
        namespace: str | None = None,
        labels: str | Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        """Objects from the loop's cache, filtered by a label selector (kubectl's
        ``-l`` syntax, or a mapping of equalities); ``namespace`` defaults to the
        reconciled object's, ``"*"`` means every namespace."""

    @property
    def kubernetes(self) -> Any:
        """An authenticated ``kubernetes.client.ApiClient`` for the loop's cluster,
        built on first use from the same kubeconfig (an escape hatch: prefer children
        and status, which the loop writes and shows)."""
