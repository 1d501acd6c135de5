"""Metacontroller sync hooks, run in process: the request built from the loop's cache, the
response read back as a result.

A metacontroller ``CompositeController`` calls a *sync hook* with one JSON request and
acts on its JSON response (metacontroller's ``docs/src/api/compositecontroller.md``,
"Sync Hook Request" / "Sync Hook Response", and the Go types ``SyncHookRequest`` /
``SyncHookResponse`` of ``pkg/controller/composite``). Such a function runs here
unchanged: the loader (``loading.py``) detects it by name (``sync(request)`` and, beside it,
``finalize(request)``) and this module adapts it.

The request, per parent:

- ``parent``: the object, as ``kubectl get -o json`` shows it;
- ``children``: one entry per child type of ``OWNS``, keyed ``<Kind>.<apiVersion>``
  (``Pod.v1``, ``Deployment.apps/v1``), present even when empty, each mapping a child's
  name to the child (``namespace/name`` when the parent is cluster-scoped and the child
  namespaced). As metacontroller sends only the children a parent controls (its
  ControllerRef rules), these are the cached objects of that type whose controller
  ``ownerReference`` has the parent's uid (metacontroller also requires the parent's
  label selector to match; the loop's own children carry no such labels, so it is not
  asked);
- ``related``: ``{}`` (no ``customize`` hook: "If you don't define a customize hook,
  then the related section of the hooks will be empty", ``api/customize.md``);
- ``finalizing``: ``False`` for the sync hook, ``True`` for the finalize hook.

The ``controller`` field (the whole ``CompositeController`` object) is not sent: there
is none. The response:

- ``status``: replaces the parent's status; ``null`` (or absent) leaves it unchanged
  (``pkg/controller/composite/controller.go``: "A null .status in the sync response
  means leave it unchanged");
- ``children``: every desired child (those not returned are deleted);
- ``resyncAfterSeconds``: a one-time resync of this parent after that many seconds,
  when greater than 0 (metacontroller sets ``RequeueAfter`` only then);
- ``finalized``: for the finalize hook, whether clean-up is done (the finalizer is
  removed only then).

Unlike Go's JSON decoding, unknown keys are an error naming them (a misspelt
``resyncAfterSecond`` would otherwise be dropped silently), and a hook returning
``None`` is an error, not an empty response (that would delete every child).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

__all__ = ["RESPONSE_KEYS", "collect_children", "read_response", "request", "type_key"]

#: the keys of ``SyncHookResponse`` a CompositeController's hook may return
RESPONSE_KEYS = ("children", "finalized", "resyncAfterSeconds", "status")


class Lister(Protocol):
    """The part of ``api.Context`` the adapter uses."""

    def list(
        self,
        resource: str,
        namespace: str | None = None,
        labels: str | Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]: ...


def type_key(kind: str, api_version: str) -> str:
    """The request's key for a child type: ``<Kind>.<apiVersion>`` (``Pod.v1``,
    ``StatefulSet.apps/v1``)."""
    return f"{kind}.{api_version}"


def collect_children(
    parent: Mapping[str, Any], ctx: Lister, child_types: Sequence[tuple[str, str]]
) -> dict[str, dict[str, Any]]:
    """The request's ``children``: for each ``(resource, type key)``, the cached objects
    of that resource that ``parent`` controls, by name (``namespace/name`` under a
    cluster-scoped parent). Every type has an entry, empty or not."""
    metadata = parent.get("metadata") or {}
    uid = metadata.get("uid")
    parent_namespace = metadata.get("namespace") or ""
    children: dict[str, dict[str, Any]] = {}
    for resource, key in child_types:
        found: dict[str, Any] = {}
        # a cluster-scoped parent may own children in every namespace
        for child in ctx.list(resource, namespace=parent_namespace or "*"):
            if uid is None or not _controlled_by(child, uid):
                continue
            child_meta = child.get("metadata") or {}
            name = child_meta.get("name", "")
            child_namespace = child_meta.get("namespace") or ""
            if child_namespace and not parent_namespace:
                name = f"{child_namespace}/{name}"
            found[name] = child
        children[key] = found
    return children


def request(
    parent: Mapping[str, Any],
    children: Mapping[str, Mapping[str, Any]],
    *,
    finalizing: bool,
    related: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The hook's request; a deep copy, so a hook that edits it (as hooks that received
    parsed JSON do) cannot change the loop's cache."""
    return copy.deepcopy(
        {
            "parent": parent,
            "children": children,
            "related": related or {},
            "finalizing": finalizing,
        }
    )


def read_response(response: object) -> tuple[dict[str, Any], bool]:
    """The response as the loop's plain result dict (``children``, ``status``,
    ``requeue_after``) and ``finalized``; ``ValueError`` with a one-line reason when it
    is not a hook's response."""
    if not isinstance(response, Mapping):
        kind = "None" if response is None else type(response).__name__
        raise ValueError(
            f"returned {kind}; a metacontroller hook returns a dict with "
            "status, children and resyncAfterSeconds"
        )
    unknown = sorted(str(key) for key in response if key not in RESPONSE_KEYS)
    if unknown:
        raise ValueError(
            f"returned unknown key{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(repr(key) for key in unknown)} (a hook returns "
            f"{', '.join(RESPONSE_KEYS)})"
        )
    resync = response.get("resyncAfterSeconds")
    if resync is not None and (isinstance(resync, bool) or not isinstance(resync, int | float)):
        raise ValueError(f"returned resyncAfterSeconds {resync!r}; it is a number of seconds")
    finalized = response.get("finalized", False)
    if not isinstance(finalized, bool):
        raise ValueError(f"returned finalized {finalized!r}; it is true or false")
    children = response.get("children")
    result = {
        "children": [] if children is None else children,
        "status": response.get("status"),
        # metacontroller: "if syncResult.ResyncAfterSeconds > 0", else no requeue
        "requeue_after": float(resync) if resync is not None and resync > 0 else None,
    }
    return result, finalized


def _controlled_by(child: Mapping[str, Any], uid: str) -> bool:
    references = (child.get("metadata") or {}).get("ownerReferences") or ()
    return any(ref.get("controller") is True and ref.get("uid") == uid for ref in references)
