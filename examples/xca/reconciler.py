"""A kubebuilder-style Xca, as a kubectl-crd reconciler.

``status.active`` is true unless ``spec.suspend``; ``status.lastUpdateTime`` is when
``active`` last changed (kept as it is otherwise, so a reconcile that changes nothing
writes nothing). ``finalize`` runs before an Xca goes: the loop keeps ``FINALIZER`` on
every Xca while this module defines ``finalize``, as kubebuilder's
``controllerutil.AddFinalizer`` does.
"""

import datetime
from typing import Any

FOR = "xcas.tutorial.example.com/v1"
FINALIZER = "tutorial.example.com/cleanup"


def now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def reconcile(xca: dict[str, Any], ctx: Any) -> dict[str, Any]:
    active = not (xca.get("spec") or {}).get("suspend", False)
    status = xca.get("status") or {}
    updated = status.get("lastUpdateTime")
    if status.get("active") != active or not updated:
        updated = now()
        ctx.log.info("active=%s", active)
    return {"status": {"active": active, "lastUpdateTime": updated}}


def finalize(xca: dict[str, Any], ctx: Any) -> bool:
    ctx.event("Finalized", f"cleaned up after {xca['metadata']['name']}")
    return True
