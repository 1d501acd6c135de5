"""Scaling custom resources through ``/scale`` as kubectl's scaler does, as a library.

Mirrors the scaler of ``k8s.io/kubectl/pkg/scale/scale.go``: every write goes to
``/apis/GROUP/VERSION/[namespaces/NS/]PLURAL/NAME/scale`` (an ``autoscaling/v1 Scale``),
never to ``spec`` itself.

- Without a precondition: one merge PATCH ``{"spec":{"replicas":N}}`` of the Scale.
- With ``--current-replicas`` or ``--resource-version``: GET the Scale, check, PUT it
  back with the resourceVersion read; a 409 Conflict starts over from the GET (every
  second, up to five minutes, as kubectl's ``ScaleCondition``), so another writer's
  change is checked again and never overwritten.
- ``wait_for_replicas`` is kubectl's ``WaitForScaleHasDesiredReplicas``.

The use case ``scale`` runs: ``require_targets`` (what the builder found, checked as
scale.go checks it), ``scale_all`` (with kubectl's dry runs; ``no objects passed to
scale`` when every object is missing), ``wait_all`` (``--wait``), ``show_all`` (no
``--replicas``). Several objects are handled concurrently on one client (a connection
per thread). Every path and request goes through ``resources.ResourceClient``
(``ScaleTarget.calls``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.discovery import ResourceRef
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.kube.targets import Target
from kubectl_crd.model.errors import (
    ApiError,
    KubectlCrdError,
    ScalePreconditionError,
    ScaleTimeoutError,
)
from kubectl_crd.model.records import record

if TYPE_CHECKING:
    from collections.abc import Iterable

    from kubectl_crd.kube.resolving import Resolver
    from kubectl_crd.kube.targets import InputDocument, ResourceQuery
    from kubectl_crd.model.crd import ScaleSubresource

#: kubectl's scaler: retry a conflicting write every second for up to five minutes
#: (``scale.NewRetryParams(1*time.Second, 5*time.Minute)`` in ``cmd/scale/scale.go``).
RETRY_INTERVAL = 1.0
RETRY_TIMEOUT = 300.0
#: Objects scaled at once (one connection each).
CONCURRENCY = 8


@record
class ScaleTarget:
    """One object to scale: its resource, the served version used, namespace and name.

    ``spec_replicas_path`` is the CRD's specReplicasPath when it was read (it explains
    a Scale the server cannot read); discovery alone does not give it.
    """

    resource: ResourceRef
    version: str
    namespace: str
    name: str
    spec_replicas_path: str = ""

    @classmethod
    def of(cls, target: Target) -> ScaleTarget:
        """The target ``kube.targets`` found."""
        return cls(target.resource, target.version, target.namespace, target.name)

    @property
    def kind_name(self) -> str:
        """kubectl's printed name: ``foo.samplecontroller.k8s.io/example``."""
        return f"{self.resource.kind.lower()}.{self.resource.group}/{self.name}"

    def calls(self, client: KubeClient) -> ResourceClient:
        """The resource client of this target's resource, version and namespace."""
        return ResourceClient.for_ref(
            client, self.resource, self.version, namespace=self.namespace or None
        )


@record
class Precondition:
    """``scale.ScalePrecondition``: ``size`` -1 and ``resource_version`` "" check nothing."""

    size: int = -1
    resource_version: str = ""

    @property
    def given(self) -> bool:
        return self.size != -1 or bool(self.resource_version)

    def check(self, scale: Mapping[str, Any]) -> None:
        """kubectl's ``ScalePrecondition.validate``, in its order and words."""
        replicas = int((scale.get("spec") or {}).get("replicas") or 0)
        if self.size != -1 and replicas != self.size:
            raise ScalePreconditionError(f"Expected replicas to be {self.size}, was {replicas}")
        actual = str((scale.get("metadata") or {}).get("resourceVersion") or "")
        if self.resource_version and actual != self.resource_version:
            raise ScalePreconditionError(
                f"Expected resource version to be {self.resource_version}, was {actual}"
            )


def scale_object(
    client: KubeClient,
    target: ScaleTarget,
    replicas: int,
    precondition: Precondition,
    *,
    server_dry_run: bool,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Scale one object the way kubectl's ``genericScaler.Scale`` does; the new Scale."""
    calls = target.calls(client)
    if not precondition.given:
        return calls.patch_scale(
            target.name, {"spec": {"replicas": replicas}}, dry_run=server_dry_run
        )
    deadline = time.monotonic() + RETRY_TIMEOUT
    while True:
        scale = read_scale(client, target)
        precondition.check(scale)
        # the resourceVersion read stays in metadata: the PUT is conditional on it
        scale.setdefault("spec", {})["replicas"] = replicas
        try:
            return calls.update_scale(target.name, scale, dry_run=server_dry_run)
        except ApiError as exc:
            # scale.go ScaleCondition: retry only on update conflicts, from the read
            if exc.status != 409 or time.monotonic() >= deadline:
                raise
        sleep(RETRY_INTERVAL)


def read_scale(client: KubeClient, target: ScaleTarget) -> dict[str, Any]:
    try:
        scale = target.calls(client).get_scale(target.name)
    except ApiError as exc:
        raise _missing_spec_path(exc, target) from exc
    return scale


def _missing_spec_path(error: ApiError, target: ScaleTarget) -> ApiError:
    """The API server's 500 for an object without specReplicasPath (``ScaleREST`` in
    ``apiextensions-apiserver/pkg/registry/customresource/etcd.go``), explained under
    the server's own line."""
    message = str(error.status_object.get("message", ""))
    named = re.search(r'"([^"]+)" does not exist', message)
    path = target.spec_replicas_path or (named.group(1) if named else "specReplicasPath")
    if error.status == 500 and "does not exist" in message:
        return ApiError(
            f"{error.kubectl_line}\n{target.kind_name} has no {path} (the CRD's "
            f"specReplicasPath) yet, so its Scale cannot be read: scale it without "
            f"--current-replicas/--resource-version to set it, or set {path} in the object.",
            status=error.status,
            reason=error.reason,
            status_object=error.status_object,
        )
    return error


def wait_for_replicas(
    client: KubeClient,
    target: ScaleTarget,
    replicas: int,
    timeout: float,
    report: Callable[[ScaleTarget, str], None],
    *,
    interval: float = 1.0,
) -> None:
    """kubectl's ``WaitForScaleHasDesiredReplicas``: done when spec == status == N, or
    when spec no longer is N (someone else scaled); a line each time the status moves.
    A negative ``timeout`` has passed already: kubectl's poll then ends before its first
    look (``timed out``, whatever the replicas)."""
    if timeout < 0:
        raise ScaleTimeoutError(f'timed out waiting for "{target.name}" to be synced')
    deadline = time.monotonic() + timeout
    last = None
    while True:
        scale = read_scale(client, target)
        spec = int((scale.get("spec") or {}).get("replicas") or 0)
        status = scale.get("status") or {}
        current = int(status.get("replicas") or 0)
        selector = str(status.get("selector") or "")
        state = (spec, current, selector)
        if state != last:
            where = f" selector {selector}" if selector else ""
            report(target, f"{target.kind_name}: {current}/{spec} replicas{where}")
            last = state
        if spec != replicas:
            report(target, f"{target.kind_name}: spec replicas changed to {spec} by another writer")
            return
        if current == replicas:
            return
        if time.monotonic() + interval > deadline:
            raise ScaleTimeoutError(f'timed out waiting for "{target.name}" to be synced')
        time.sleep(interval)


def find_scale_targets(
    client: KubeClient,
    query: ResourceQuery,
    *,
    documents: Iterable[InputDocument] = (),
    enforce_namespace: bool = False,
) -> tuple[Resolver, list[ScaleTarget], list[KubectlCrdError]]:
    """The objects ``query`` names (``targets.find_targets`` through the cached
    discovery, each resource checked to serve ``/scale``), the resolver that found them
    (it reads a CRD when asked: ``scale_paths``) and the objects not found."""
    from kubectl_crd.kube.discovery import Discovery
    from kubectl_crd.kube.resolving import Resolver
    from kubectl_crd.kube.targets import find_targets

    resolver = Resolver(client=client, discovery=Discovery(client.request, client.server))
    found, problems = find_targets(
        query,
        resolver,
        client,
        client.namespace,
        documents=documents,
        check=resolver.check_scalable,
        enforce_namespace=enforce_namespace,
    )
    return resolver, [ScaleTarget.of(target) for target in found], problems


def scale_paths(resolver: Resolver) -> Callable[[ScaleTarget], ScaleSubresource]:
    """A target's scale paths, from its CRD (read from the cluster once per resource)."""

    def paths(target: ScaleTarget) -> ScaleSubresource:
        served = resolver.crd(target.resource).version(target.version)
        assert served is not None and served.subresources.scale is not None
        return served.subresources.scale

    return paths


def require_targets(
    targets: Sequence[ScaleTarget], problems: Sequence[KubectlCrdError], resource_version: str
) -> None:
    """scale.go's checks of what the builder found: ``--resource-version`` names one
    object; with none found, ``no objects passed to scale`` and the builder's errors."""
    if resource_version and len(targets) > 1:
        raise KubectlCrdError("cannot use --resource-version with multiple resources")
    if not targets:
        raise KubectlCrdError(no_objects([str(problem) for problem in problems]))


def no_objects(reasons: Sequence[str]) -> str:
    """kubectl's ``no objects passed to scale`` with the builder's errors after it (one
    as it is, several as Go prints an aggregate: ``[a, b]``, each message once, and
    without brackets when one is left: ``aggregate.Error`` in apimachinery's
    ``util/errors/errors.go``)."""
    if not reasons:
        return "no objects passed to scale"
    unique = list(dict.fromkeys(reasons))
    joined = unique[0] if len(unique) == 1 else "[" + ", ".join(unique) + "]"
    return f"no objects passed to scale {joined}"


def scale_all(
    client: KubeClient,
    targets: Sequence[ScaleTarget],
    replicas: int,
    precondition: Precondition,
    *,
    dry_run: str = "none",
    fetch_objects: bool = False,
) -> list[Any | KubectlCrdError]:
    """Scale every target, concurrently past one; per target, in order, the object read
    after the write with ``fetch_objects`` (``-o json|yaml``), else None, or the error.

    ``dry_run``: ``none``, ``server`` (``dryRun=All``: the server checks and writes
    nothing), ``client`` (the Scale is read, nothing sent). When every target is
    missing, kubectl (which reads each object first) says so in one line: raised."""

    def work(target: ScaleTarget) -> Any:
        try:
            if dry_run == "client":
                read_scale(client, target)
            else:
                scale_object(
                    client, target, replicas, precondition, server_dry_run=dry_run == "server"
                )
        except ApiError as exc:
            raise namespace_missing(client, target, exc) from exc
        return target.calls(client).get(target.name) if fetch_objects else None

    results = run_all(targets, work)
    missing = [r for r in results if isinstance(r, ApiError) and _object_missing(r)]
    if results and len(missing) == len(results):
        raise KubectlCrdError(
            no_objects([str(r.status_object.get("message", "")) for r in missing])
        )
    return results


def _object_missing(error: ApiError) -> bool:
    return error.status == 404 and error.reason == "NotFound"


def namespace_missing(client: KubeClient, target: ScaleTarget, error: ApiError) -> ApiError:
    """An object's 404 as kubectl's builder reports it: in a namespace other than
    ``default`` that does not exist either, the namespace's own 404 (``Info.Get`` in
    cli-runtime's ``resource/visitor.go`` asks for the namespace then)."""
    if not _object_missing(error) or target.namespace in ("", "default"):
        return error
    try:
        client.get(f"/api/v1/namespaces/{target.namespace}")
    except ApiError as gone:
        if _object_missing(gone):
            return gone
    except KubectlCrdError:  # the namespace cannot be read: the object's 404 stands
        pass
    return error


def wait_all(
    client: KubeClient,
    targets: Sequence[ScaleTarget],
    replicas: int,
    timeout: float,
    report: Callable[[ScaleTarget, str], None],
    finished: Callable[[ScaleTarget], None],
) -> list[KubectlCrdError | None]:
    """``wait_for_replicas`` on every target at once; per target, in order, None or the
    failure (a timeout, an error)."""

    def wait_one(target: ScaleTarget) -> None:
        wait_for_replicas(client, target, replicas, timeout, report)
        finished(target)

    return [r if isinstance(r, KubectlCrdError) else None for r in run_all(targets, wait_one)]


def show_all(client: KubeClient, targets: Sequence[ScaleTarget]) -> list[Any | KubectlCrdError]:
    """Every target's Scale (or the error reading it), in order."""
    return run_all(targets, lambda target: read_scale(client, target))


def run_all(
    targets: Sequence[ScaleTarget], work: Callable[[ScaleTarget], Any]
) -> list[Any | KubectlCrdError]:
    """``work`` on every target, concurrently past one (``KubeClient`` is safe across
    threads: a connection per thread); results in the targets' order."""
    if len(targets) <= 1:
        return [_attempt(work, target) for target in targets]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(CONCURRENCY, len(targets))) as executor:
        return list(executor.map(lambda target: _attempt(work, target), targets))


def _attempt(work: Callable[[ScaleTarget], Any], target: ScaleTarget) -> Any | KubectlCrdError:
    try:
        return work(target)
    except KubectlCrdError as exc:
        return exc
