"""``--against-cluster``: the object as it stands on the cluster is the old object.

The object being written names which (``metadata.name``, and ``metadata.namespace``
or the namespace of ``-n`` / the kubeconfig's context, as ``kubectl apply`` picks it);
it is read with one GET through ``kube.resources.ResourceClient`` of the CRD version
being written, and the check becomes an update of it (transition rules with
``oldSelf``, ratcheting: ``customresource/strategy.go`` ``ValidateUpdate``). When the
cluster has no such object (404) the check is a create, as ``kubectl apply`` would do,
and the status line says so; when the cluster cannot be reached (or refuses to
answer) the check is a create too, with the client's line saying why. Answers are
kept per (namespace, name): a keystroke re-checks without a request; a failed read is
tried again after ``RETRY_SECONDS``.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.output.workbench.session import Session

#: a failed read (unreachable, forbidden) is asked again after this long
RETRY_SECONDS = 10.0


class ClusterObjects:
    """The live objects of ``session``'s resource, read through ``client``."""

    def __init__(self, client: KubeClient) -> None:
        self.client = client
        self._answers: dict[tuple[str, str], tuple[float, tuple[Any, str, str]]] = {}
        self._lock = threading.Lock()  # checks run in a worker thread, one at a time

    def old(self, session: Session, content: Any) -> tuple[Any, str, str]:
        meta = content.get("metadata") if isinstance(content, dict) else None
        meta = meta if isinstance(meta, dict) else {}
        name = str(meta.get("name") or "")
        if not name:
            return (
                None,
                "no metadata.name: checked as a create (nothing to read from the cluster)",
                "",
            )
        namespaced = session.crd.scope == "Namespaced"
        namespace = str(meta.get("namespace") or "") if namespaced else ""
        with self._lock:
            key = (namespace, name)
            known = self._answers.get(key)
            if known is not None:
                when, answer = known
                if answer[0] is not None or time.monotonic() - when < RETRY_SECONDS:
                    return answer
            answer = self._read(session, name, namespace, namespaced)
            self._answers[key] = (time.monotonic(), answer)
            return answer

    def _read(
        self, session: Session, name: str, namespace: str, namespaced: bool
    ) -> tuple[Any, str, str]:
        from kubectl_crd.kube.resources import ResourceClient
        from kubectl_crd.model.errors import ApiError, ClusterError

        crd = session.crd
        resources = ResourceClient(
            self.client,
            crd.group,
            session.version.name,
            crd.names.plural,
            namespaced=namespaced,
        )
        where = ""
        try:
            if namespaced:
                namespace = namespace or self.client.namespace
                where = f" in namespace {namespace}"
            live = resources.get(name, namespace=namespace or None)
        except ApiError as exc:
            if exc.status == 404:
                return (
                    None,
                    f"{crd.names.singular or crd.names.kind} {name} not on the cluster{where}: checked as a create",
                    "",
                )
            return (
                None,
                f"cannot read the live object ({exc.kubectl_line}): checked as a create",
                "",
            )
        except ClusterError as exc:
            line = getattr(exc, "kubectl_line", str(exc))
            return None, f"cluster unreachable ({line}): checked as a create", ""
        return live, f"against the live {name}{where} (resourceVersion {_version(live)})", ""


def _version(live: Any) -> str:
    meta = live.get("metadata") if isinstance(live, dict) else None
    return str((meta or {}).get("resourceVersion") or "?")
