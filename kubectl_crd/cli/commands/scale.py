"""``kubectl crd scale``: scale custom resources through their ``/scale`` subresource.

Mirrors ``kubectl scale`` (``k8s.io/kubectl/pkg/cmd/scale/scale.go`` and the scaler of
``k8s.io/kubectl/pkg/scale/scale.go``) for custom resources, with its flags, messages
and exit codes, and never writes ``spec`` itself: every write goes to
``/apis/GROUP/VERSION/[namespaces/NS/]PLURAL/NAME/scale`` (an ``autoscaling/v1 Scale``).

- Without a precondition: one merge PATCH ``{"spec":{"replicas":N}}`` of the Scale.
- With ``--current-replicas`` or ``--resource-version``: GET the Scale, check, PUT it
  back with the resourceVersion read; a 409 Conflict starts over from the GET (every
  second, up to five minutes, as kubectl's ``ScaleCondition``), so another writer's
  change is checked again and never overwritten.
- ``--dry-run=server`` sends ``dryRun=All``; ``--dry-run=client`` only reads.

Beyond kubectl: with no ``--replicas`` it shows the current Scale and the CRD's scale
paths; ``--wait`` prints spec against status replicas until they agree; a version
without the subresource, an object without specReplicasPath and a built-in resource
are explained; several objects are scaled concurrently; ``--local -f FILE`` changes
specReplicasPath in files and validates the result offline.

Where it knowingly differs from kubectl: a named object is not read before it is
scaled (the write's own 404 says it is missing, in kubectl's words); ``-o json|yaml``
prints the object after the scale (kubectl prints the one it read before); after a
failed object the others are still scaled (kubectl stops), each reported.
RESOURCE is found through aggregated discovery and the one CRD it names, not by
listing every CRD. ``tests/integration/test_scale.py`` compares both tools.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

import click

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import CRD_PATHS, REPEATED, SWITCH, VALUE, Flag
from kubectl_crd.cli.options import KubectlCommand, click_options, kubectl_command
from kubectl_crd.model.errors import (
    ApiError,
    ExitCode,
    InvalidObjectError,
    KubectlCrdError,
    NoScaleSubresourceError,
    ResourceNotFoundError,
    ScalePreconditionError,
    ScaleTimeoutError,
    UsageError,
)
from kubectl_crd.model.records import record

if TYPE_CHECKING:
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.model.crd import CustomResourceDefinition, ScaleSubresource

#: kubectl's scaler: retry a conflicting write every second for up to five minutes
#: (``scale.NewRetryParams(1*time.Second, 5*time.Minute)`` in ``cmd/scale/scale.go``).
RETRY_INTERVAL = 1.0
RETRY_TIMEOUT = 300.0
#: ``--wait`` without ``--timeout``.
DEFAULT_WAIT_TIMEOUT = 300.0
#: Objects scaled at once (one connection each).
CONCURRENCY = 8

REPLICAS_REQUIRED = (
    "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
)
CURRENT_REPLICAS_INVALID = "The --current-replicas must specify an integer of -1 or greater"
NO_RESOURCES = (
    "You must provide one or more resources by argument or filename.\n"
    "Example resource specifications include:\n"
    "   '-f rsrc.yaml'\n"
    "   '--filename=rsrc.json'\n"
    "   '<resource> <name>'\n"
    "   '<resource>'"
)

FLAGS = (
    Flag(
        ("--replicas",),
        "replicas",
        VALUE,
        "The new desired number of replicas. Without it, show the current Scale.",
        metavar="COUNT",
    ),
    Flag(
        ("--current-replicas",),
        "current_replicas",
        VALUE,
        "Precondition for current size. Requires that the current size of the resource "
        "match this value in order to scale. -1 (default) for no condition.",
        metavar="COUNT",
        default="-1",
    ),
    Flag(
        ("--resource-version",),
        "resource_version",
        VALUE,
        "Precondition for resource version. Requires that the current resource version "
        "match this value in order to scale.",
        metavar="VERSION",
        default="",
    ),
    Flag(
        ("-f", "--filename"),
        "filenames",
        REPEATED,
        "A file, directory or - (stdin) naming the resources to scale (repeatable).",
        metavar="PATH",
    ),
    Flag(
        ("-l", "--selector"),
        "selector",
        VALUE,
        "Selector (label query) to filter on, e.g. -l key1=value1,key2=value2.",
        default="",
    ),
    Flag(("--all",), "all_objects", SWITCH, "Select all resources of the given type."),
    Flag(
        ("-A", "--all-namespaces"),
        "all_namespaces",
        SWITCH,
        "With -l or --all: select in every namespace.",
    ),
    Flag(
        ("-o", "--output"),
        "output",
        VALUE,
        "Output format: name, json or yaml (default: the kubectl message).",
        metavar="FORMAT",
        default="",
    ),
    Flag(
        ("--wait",),
        "wait",
        SWITCH,
        "Wait until status replicas (statusReplicasPath) equal the new spec replicas, "
        "printing progress.",
    ),
    Flag(
        ("--timeout",),
        "timeout",
        VALUE,
        "How long to wait for the replicas (as kubectl: a non-zero value waits; "
        "default with --wait: 5m).",
        metavar="DURATION",
        default="0s",
    ),
    Flag(
        ("--local",),
        "local",
        SWITCH,
        "Change specReplicasPath in the -f files and print them; no cluster write.",
    ),
    CRD_PATHS,
)

HELP = """Set a new size for custom resources, through their /scale subresource.

\b
Examples:
  kubectl crd scale foo/example --replicas 3
  kubectl crd scale foo example --replicas 3 --current-replicas 2
  kubectl crd scale foo -l app=demo --replicas 0 --dry-run=server
  kubectl crd scale foo/example --replicas 5 --wait --timeout 2m
  kubectl crd scale foo/example                  # show the current Scale
  kubectl crd scale -f foo.yaml --replicas 4 --local --crd crds/

Like kubectl scale, every write goes to the /scale subresource (never a patch of
spec); --current-replicas and --resource-version are checked before the write and
again after any conflicting write, so another writer's change is never overwritten.
"""


# -- targets ---------------------------------------------------------------------------


@record
class ScaleTarget:
    """One object to scale: its CRD, the served version used, namespace and name."""

    crd: CustomResourceDefinition
    version: str
    namespace: str
    name: str

    @property
    def kind_name(self) -> str:
        """kubectl's printed name: ``foo.samplecontroller.k8s.io/example``."""
        return f"{self.crd.names.kind.lower()}.{self.crd.group}/{self.name}"

    @property
    def object_path(self) -> str:
        where = f"/namespaces/{self.namespace}" if self.crd.namespaced else ""
        return f"/apis/{self.crd.group}/{self.version}{where}/{self.crd.names.plural}/{self.name}"

    @property
    def scale_path(self) -> str:
        return self.object_path + "/scale"

    @property
    def scale(self) -> ScaleSubresource:
        version = self.crd.version(self.version)
        assert version is not None and version.subresources.scale is not None
        return version.subresources.scale


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


def parse_replicas(text: str | None) -> int | None:
    """``--replicas``: ``None`` when not given (show mode); kubectl's errors otherwise."""
    if text is None:
        return None
    value = _parse_int(text, "--replicas")
    if value < 0:
        raise KubectlCrdError(REPLICAS_REQUIRED)
    return value


def parse_current_replicas(text: str) -> int:
    value = _parse_int(text, "--current-replicas")
    if value < -1:
        raise KubectlCrdError(CURRENT_REPLICAS_INVALID)
    return value


def _parse_int(text: str, flag: str) -> int:
    """pflag's IntVar: Go's ``strconv.ParseInt(s, 0, 64)`` message on failure."""
    try:
        if text != text.strip():
            raise ValueError(text)
        digits = text.lstrip("+-")
        if len(digits) > 1 and digits[0] == "0" and digits[1] in "01234567_":
            # Go's base 0: a leading 0 is octal ("010" is 8); Python's int() refuses it
            value = int(digits, 8)
            return -value if text.startswith("-") else value
        return int(text, 0)
    except ValueError:
        raise KubectlCrdError(
            f'invalid argument "{text}" for "{flag}" flag: strconv.ParseInt: '
            f'parsing "{text}": invalid syntax\n'
            "See 'kubectl crd scale --help' for usage."
        ) from None


def split_resource_args(args: Sequence[str]) -> tuple[list[tuple[str, str]], str]:
    """kubectl's ``ResourceTypeOrNameArgs``: ``TYPE/NAME...`` pairs, or ``TYPE NAME...``.

    Returns the (type, name) pairs and, for a lone ``TYPE``, that type with no names.
    """
    if not args:
        return [], ""
    if any("/" in arg for arg in args):
        pairs = []
        for arg in args:
            kind, slash, name = arg.partition("/")
            if not slash:
                raise KubectlCrdError(
                    "there is no need to specify a resource type as a separate argument "
                    "when passing arguments in resource/name form (e.g. 'kubectl crd scale "
                    "resource/<resource_name>' instead of 'kubectl crd scale resource "
                    "resource/<resource_name>'"
                )
            if not kind or not name:
                raise KubectlCrdError(
                    "arguments in resource/name form must have a single resource and name"
                )
            pairs.append((kind, name))
        return pairs, ""
    kind, *names = args
    return [(kind, name) for name in names], kind if not names else ""


def parse_field_path(path: str) -> list[str]:
    """A scale path (``.spec.replicas``) as its fields: the API server splits on dots."""
    return [part for part in path.split(".") if part]


def get_field(obj: Mapping[str, Any], path: str) -> Any:
    node: Any = obj
    for part in parse_field_path(path):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def set_field(obj: dict[str, Any], path: str, value: Any) -> None:
    """``unstructured.SetNestedField``: missing maps on the way are made."""
    *parents, last = parse_field_path(path)
    node = obj
    for part in parents:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[last] = value


def scale_stanza(version: str) -> str:
    """The CRD lines that give ``version`` a scale subresource."""
    return (
        "  versions:\n"
        f"  - name: {version}\n"
        "    subresources:\n"
        "      scale:\n"
        "        specReplicasPath: .spec.replicas\n"
        "        statusReplicasPath: .status.replicas\n"
        "        labelSelectorPath: .status.selector   # optional, for HPAs"
    )


def check_scalable(crd: CustomResourceDefinition, version: str) -> None:
    """``NoScaleSubresourceError`` unless ``version`` of ``crd`` serves ``/scale``.

    The API server answers 404 ``<plural>.<group> "<name>" not found`` there, which
    reads as if the object were missing.
    """
    served = crd.version(version)
    if served is not None and served.subresources.scale is not None:
        return
    others = [
        v.name
        for v in crd.served_versions
        if v.subresources.scale is not None and v.name != version
    ]
    hint = ""
    if others:
        hint = (
            f"\n{', '.join(others)} {'has' if len(others) == 1 else 'have'} one: use "
            f"{crd.names.plural}.{others[0]}.{crd.group}/NAME"
        )
    raise NoScaleSubresourceError(
        f"{crd.names.plural}.{crd.group} version {version} has no scale subresource, so "
        f"it cannot be scaled (the server would answer 404 Not Found).{hint}\n"
        f"To make it scalable, add to the CustomResourceDefinition {crd.name}:\n"
        + scale_stanza(version)
    )


def invalid_error(error: ApiError) -> ApiError:
    """A 422 Invalid in kubectl's words (``checkErr``, ``MultilineError``); the rest as is."""
    status = error.status_object
    if error.reason != "Invalid" or not isinstance(status.get("details"), Mapping):
        return error
    details: Mapping[str, Any] = status["details"]  # type: ignore[assignment]
    head = "The request is invalid"
    if details.get("kind") or details.get("name"):
        head = f'The {details.get("kind", "")} "{details.get("name", "")}" is invalid'
    causes = [
        f"{c.get('field', '')}: {c.get('message', '')}"
        for c in details.get("causes") or ()
        if isinstance(c, Mapping)
    ]
    if len(causes) == 1:
        line = f"{head}: {causes[0]}"
    elif causes:
        line = f"{head}: \n" + "\n".join(f"* {cause}" for cause in causes)
    else:
        line = head
    return InvalidObjectError(
        line, status=error.status, reason=error.reason, status_object=error.status_object
    )


def _missing_spec_path(error: ApiError, target: ScaleTarget) -> ApiError:
    """The API server's 500 for an object without specReplicasPath (``ScaleREST`` in
    ``apiextensions-apiserver/pkg/registry/customresource/etcd.go``), explained under
    the server's own line."""
    path = target.scale.spec_replicas_path
    if error.status == 500 and "does not exist" in str(error.status_object.get("message", "")):
        return ApiError(
            f"{error.kubectl_line}\n{target.kind_name} has no {path} (the CRD's "
            f"specReplicasPath) yet, so its Scale cannot be read: scale it without "
            f"--current-replicas/--resource-version to set it, or set {path} in the object.",
            status=error.status,
            reason=error.reason,
            status_object=error.status_object,
        )
    return error


# -- the cluster side ------------------------------------------------------------------


class ClientPool:
    """One ``KubeClient`` per thread: a client holds one connection and is not shared."""

    def __init__(self, config: ClusterConfig, first: KubeClient) -> None:
        import threading

        self._config = config
        self._local = threading.local()
        self._local.client = first
        self._clients = [first]

    def client(self) -> KubeClient:
        client: KubeClient | None = getattr(self._local, "client", None)
        if client is None:
            from kubectl_crd.kube.client import KubeClient

            client = KubeClient(self._config)
            self._local.client = client
            self._clients.append(client)
        return client

    def close(self) -> None:
        for client in self._clients:
            client.close()


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
    query = {"dryRun": "All"} if server_dry_run else None
    if not precondition.given:
        from kubectl_crd.kube.client import MERGE_PATCH

        try:
            result: dict[str, Any] = client.request(
                "PATCH",
                target.scale_path,
                query=query,
                body={"spec": {"replicas": replicas}},
                content_type=MERGE_PATCH,
            )
        except ApiError as exc:
            raise invalid_error(exc) from exc
        return result
    deadline = time.monotonic() + RETRY_TIMEOUT
    while True:
        try:
            scale: dict[str, Any] = client.request("GET", target.scale_path)
        except ApiError as exc:
            raise _missing_spec_path(exc, target) from exc
        precondition.check(scale)
        # the resourceVersion read stays in metadata: the PUT is conditional on it
        scale.setdefault("spec", {})["replicas"] = replicas
        try:
            updated: dict[str, Any] = client.request(
                "PUT", target.scale_path, query=query, body=scale
            )
            return updated
        except ApiError as exc:
            # scale.go ScaleCondition: retry only on update conflicts, from the read
            if exc.status != 409 or time.monotonic() >= deadline:
                raise invalid_error(exc) from exc
        sleep(RETRY_INTERVAL)


def read_scale(client: KubeClient, target: ScaleTarget) -> dict[str, Any]:
    try:
        scale: dict[str, Any] = client.request("GET", target.scale_path)
    except ApiError as exc:
        raise _missing_spec_path(exc, target) from exc
    return scale


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
    when spec no longer is N (someone else scaled); a line each time the status moves."""
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


class WaitProgress:
    """``--wait``'s progress: a line per change when piped; on a terminal, one line
    rewritten in place (objects ready, and the latest change)."""

    def __init__(self, stream: TextIO, total: int) -> None:
        import shutil
        import threading

        self._stream = stream
        self._total = total
        self._ready = 0
        self._latest = ""
        self._lock = threading.Lock()
        self._live = stream.isatty()
        self._width = shutil.get_terminal_size().columns if self._live else 0

    def report(self, target: ScaleTarget, line: str) -> None:
        with self._lock:
            self._latest = line
            if self._live:
                self._redraw()
            else:
                self._stream.write(line + "\n")
                self._stream.flush()

    def finished(self, target: ScaleTarget) -> None:
        with self._lock:
            self._ready += 1
            if self._live:
                self._redraw()

    def close(self) -> None:
        if self._live:
            self._stream.write("\n")
            self._stream.flush()

    def _redraw(self) -> None:
        text = f"[{self._ready}/{self._total} ready] {self._latest}"
        if self._width and len(text) >= self._width:
            text = text[: self._width - 2] + "…"
        # carriage return, then erase to the end of the line (ECMA-48 EL)
        self._stream.write("\r\x1b[K" + text)
        self._stream.flush()


def run_all(
    pool: ClientPool, targets: Sequence[ScaleTarget], work: Callable[[KubeClient, ScaleTarget], Any]
) -> list[Any | KubectlCrdError]:
    """``work`` on every target, concurrently past one; results in the targets' order."""
    if len(targets) <= 1:
        return [_attempt(work, pool.client(), target) for target in targets]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(CONCURRENCY, len(targets))) as executor:
        return list(executor.map(lambda target: _attempt(work, pool.client(), target), targets))


def _attempt(
    work: Callable[[KubeClient, ScaleTarget], Any], client: KubeClient, target: ScaleTarget
) -> Any | KubectlCrdError:
    try:
        return work(client, target)
    except KubectlCrdError as exc:
        return exc


# -- finding the objects ---------------------------------------------------------------


#: kubectl's discovery client asks for the aggregated form first (client-go
#: ``discovery/aggregated_discovery.go``): one answer with every group's resources.
AGGREGATED_DISCOVERY = (
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
)


class Resolver:
    """RESOURCE arguments and documents to CRDs.

    Given CRDs (``--local``) are searched as they are. With a client, the cluster's
    aggregated discovery (``/apis``, ~0.1 s with 224 CRDs installed) names the
    candidate CRDs and only those are read (``GET .../customresourcedefinitions/NAME``):
    listing every CRD took ~2 s there. A server without aggregated discovery gets the
    whole list.
    """

    def __init__(
        self,
        crds: Iterable[CustomResourceDefinition] = (),
        *,
        client: KubeClient | None = None,
    ) -> None:
        self._given = list(crds)
        self._client = client
        self._discovery: list[Mapping[str, Any]] | None = None
        self._read: dict[str, CustomResourceDefinition | None] = {}
        #: resources the last search matched that no CRD serves
        self._builtin = ""

    def by_argument(self, argument: str) -> tuple[CustomResourceDefinition, str]:
        from kubectl_crd.model.lookup import resolve_resource

        first, _, rest = argument.strip().lower().partition(".")

        def matches(group: str, resource: Mapping[str, Any]) -> bool:
            kind = str((resource.get("responseKind") or {}).get("kind", "")).lower()
            names = {resource.get("resource"), resource.get("singularResource"), kind}
            names.update(resource.get("shortNames") or ())
            return first in names and (not rest or rest.endswith(group))

        candidates = self._candidates(matches)
        if not candidates and self._builtin:
            raise ResourceNotFoundError(
                f'"{argument}" is {self._builtin}, a built-in resource, not a custom '
                "resource: use kubectl scale",
                query=argument,
            )
        match = resolve_resource(candidates, argument)
        version = match.version or match.crd.preferred_version.name
        return match.crd, version

    def by_document(
        self, obj: Mapping[str, Any], source: str = ""
    ) -> tuple[CustomResourceDefinition, str]:
        api_version = str(obj.get("apiVersion") or "")
        kind = str(obj.get("kind") or "")
        group, _, version = api_version.rpartition("/")

        def matches(in_group: str, resource: Mapping[str, Any]) -> bool:
            response = resource.get("responseKind") or {}
            return in_group == group and response.get("kind") == kind

        for crd in self._candidates(matches):
            if crd.group == group and crd.names.kind == kind and crd.version(version):
                return crd, version
        metadata = obj.get("metadata") or {}
        # cli-runtime's resource.Builder (mapper.go infoForData) words it so
        raise ResourceNotFoundError(
            f'resource mapping not found for name: "{metadata.get("name", "")}" namespace: '
            f'"{metadata.get("namespace", "")}" from "{source}": no matches for kind '
            f'"{kind}" in version "{api_version}"\nensure CRDs are installed first',
            query=f"{kind}.{api_version}",
        )

    def _candidates(
        self, matches: Callable[[str, Mapping[str, Any]], bool]
    ) -> list[CustomResourceDefinition]:
        if self._client is None:
            return self._given
        groups = self._groups()
        if groups is None:  # no aggregated discovery: every CRD
            from kubectl_crd.sources.cluster import ClusterSource

            self._given = list(ClusterSource(self._client).crds())
            self._client = None
            return self._given
        names = {
            f"{resource.get('resource')}.{group['metadata']['name']}"
            for group in groups
            for version in group.get("versions") or ()
            for resource in version.get("resources") or ()
            if matches(str(group["metadata"]["name"]), resource)
        }
        found = {name: self._crd(name) for name in sorted(names)}
        self._builtin = ", ".join(name for name, crd in found.items() if crd is None)
        return [crd for crd in found.values() if crd is not None]

    def _groups(self) -> list[Mapping[str, Any]] | None:
        if self._discovery is None:
            assert self._client is not None
            answer = self._client.request("GET", "/apis", accept=AGGREGATED_DISCOVERY)
            if not isinstance(answer, Mapping) or answer.get("kind") != "APIGroupDiscoveryList":
                return None
            self._discovery = list(answer.get("items") or ())
        return self._discovery

    def _crd(self, name: str) -> CustomResourceDefinition | None:
        """The CRD ``name``; ``None`` for a built-in resource (no such CRD)."""
        if name not in self._read:
            from kubectl_crd.kube.client import CRD_LIST_PATH
            from kubectl_crd.model.crd import CRD_API_VERSION, CRD_KIND
            from kubectl_crd.model.crd import CustomResourceDefinition as CRD
            from kubectl_crd.model.errors import Location

            assert self._client is not None
            try:
                raw = self._client.request("GET", f"{CRD_LIST_PATH}/{name}")
            except ApiError as exc:
                if exc.status != 404:
                    raise
                raw = None
            self._read[name] = (
                None
                if raw is None
                else CRD.from_object(
                    {**raw, "apiVersion": CRD_API_VERSION, "kind": CRD_KIND},
                    Location(f"cluster:{name}"),
                    check_structural=False,
                )
            )
        return self._read[name]


def _targets(
    client: KubeClient,
    resolver: Resolver,
    args: Sequence[str],
    filenames: Sequence[str],
    selector: str,
    all_objects: bool,
    all_namespaces: bool,
    *,
    namespace_given: bool = False,
) -> tuple[list[ScaleTarget], list[KubectlCrdError]]:
    """The objects named by arguments, files, ``-l`` and ``--all``, and the ones not found
    (kubectl's ``infoErr``: reported after the others are scaled)."""
    pairs, type_only = split_resource_args(args)
    if not pairs and not type_only and not filenames:
        raise KubectlCrdError(NO_RESOURCES)
    namespace = client.namespace
    targets: list[ScaleTarget] = []
    problems: list[KubectlCrdError] = []
    if type_only:
        if not (selector or all_objects):
            raise KubectlCrdError("resource(s) were provided, but no name was specified")
        crd, version = resolver.by_argument(type_only)
        check_scalable(crd, version)
        in_namespace = "" if all_namespaces or not crd.namespaced else f"/namespaces/{namespace}"
        listing = client.request(
            "GET",
            f"/apis/{crd.group}/{version}{in_namespace}/{crd.names.plural}",
            query={"labelSelector": selector} if selector else None,
        )
        for item in listing.get("items") or ():
            metadata = item.get("metadata") or {}
            targets.append(
                ScaleTarget(crd, version, str(metadata.get("namespace") or ""), metadata["name"])
            )
    elif (selector or all_objects) and pairs:
        raise KubectlCrdError("name cannot be provided when a selector is specified")
    for kind, name in pairs:
        crd, version = resolver.by_argument(kind)
        check_scalable(crd, version)
        targets.append(ScaleTarget(crd, version, namespace if crd.namespaced else "", name))
    if filenames:
        from kubectl_crd.io import read_inputs

        for document in read_inputs(list(filenames)):
            if not document.ok:
                problems.extend(document.errors)
                continue
            obj = document.content
            try:
                crd, version = resolver.by_document(obj, document.source)
            except ResourceNotFoundError as exc:
                problems.append(exc)
                continue
            check_scalable(crd, version)
            metadata = obj.get("metadata") or {}
            ns = str(metadata.get("namespace") or namespace) if crd.namespaced else ""
            if namespace_given and crd.namespaced and ns != namespace:
                # resource.Builder's enforceNamespace: an object is not kept
                problems.append(
                    KubectlCrdError(
                        f'the namespace from the provided object "{ns}" does not match the '
                        f"namespace \"{namespace}\". You must pass '--namespace={ns}' to "
                        "perform this operation."
                    )
                )
                continue
            targets.append(ScaleTarget(crd, version, ns, str(metadata.get("name") or "")))
    return targets, problems


# -- the command -----------------------------------------------------------------------


class DryRunCommand(KubectlCommand):
    """Reads a bare ``--dry-run`` as pflag does with kubectl's ``NoOptDefVal``: it means
    ``client`` and never takes the next argument (``cmdutil.AddDryRunFlag``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args = ["--dry-run=client" if arg == "--dry-run" else arg for arg in args]
        return super().parse_args(ctx, args)


@kubectl_command("scale", help=HELP)
@click.argument("resources", nargs=-1)
@click_options(FLAGS)
@click.option(
    "--dry-run",
    "dry_run",
    type=click.Choice(["none", "server", "client", "true", "false"]),
    default="none",
    metavar="[none|server|client]",
    help='Must be "none", "server", or "client": "server" asks the API server to check '
    'without persisting, "client" only reads. Alone, it means "client".',
)
def command(
    app: Application,
    resources: tuple[str, ...],
    replicas: str | None,
    current_replicas: str,
    resource_version: str,
    filenames: tuple[str, ...],
    selector: str,
    all_objects: bool,
    all_namespaces: bool,
    output: str,
    wait: bool,
    timeout: str,
    local: bool,
    crd_paths: tuple[str, ...],
    dry_run: str,
) -> None:
    if output not in ("", "name", "json", "yaml"):
        raise KubectlCrdError(
            f'unable to match a printer suitable for the output format "{output}", '
            "allowed formats are: json,name,yaml"
        )
    # kubectl's GetDryRunStrategy still reads the old boolean spelling
    dry_run = {"true": "client", "false": "none"}.get(dry_run, dry_run)
    count = parse_replicas(replicas)
    precondition = Precondition(parse_current_replicas(current_replicas), resource_version)
    wait_seconds = _wait_seconds(wait, timeout)
    if local:
        if count is None:
            raise KubectlCrdError(REPLICAS_REQUIRED)
        _scale_local(app, filenames, crd_paths, count, output)
        return
    if all_namespaces and not (selector or all_objects):
        raise UsageError("-A/--all-namespaces needs -l or --all")
    from kubectl_crd.kube.client import KubeClient

    client = KubeClient(app.cluster)
    pool = ClientPool(app.cluster, client)
    try:
        resolver = Resolver(client=client)
        targets, problems = _targets(
            client,
            resolver,
            resources,
            filenames,
            selector,
            all_objects,
            all_namespaces,
            namespace_given=app.namespace is not None,
        )
        if resource_version and len(targets) > 1:
            raise KubectlCrdError("cannot use --resource-version with multiple resources")
        if not targets:
            raise KubectlCrdError(_no_objects([str(problem) for problem in problems]))
        if count is None:
            failed = _show(pool, targets, output)
        else:
            failed = _scale(pool, targets, count, precondition, dry_run, output, wait_seconds)
        for problem in problems:
            print(problem.kubectl_line, file=sys.stderr)
        if failed or problems:
            sys.exit(ExitCode.ERROR)
    finally:
        pool.close()


def _wait_seconds(wait: bool, timeout: str) -> float:
    from kubectl_crd.model.durations import DurationSyntaxError, parse_go_duration

    try:
        seconds = parse_go_duration(timeout) / 1e9
    except DurationSyntaxError as exc:
        raise KubectlCrdError(f'invalid argument "{timeout}" for "--timeout" flag: {exc}') from None
    if seconds < 0:
        raise KubectlCrdError("--timeout must not be negative")
    if wait and not seconds:
        return DEFAULT_WAIT_TIMEOUT
    return seconds


def _scale(
    pool: ClientPool,
    targets: Sequence[ScaleTarget],
    count: int,
    precondition: Precondition,
    dry_run: str,
    output: str,
    wait_seconds: float,
) -> bool:
    suffix = {"client": " (dry run)", "server": " (server dry run)"}.get(dry_run, "")

    def work(client: KubeClient, target: ScaleTarget) -> Any:
        if dry_run == "client":
            return read_scale(client, target)
        scale_object(client, target, count, precondition, server_dry_run=dry_run == "server")
        if output in ("json", "yaml"):
            return client.request("GET", target.object_path)
        return None

    results = run_all(pool, targets, work)
    if all(_object_missing(result) for result in results):
        # kubectl reads each object first, and with none found says so in one line
        raise KubectlCrdError(
            _no_objects([str(r.status_object.get("message", "")) for r in results])  # type: ignore[union-attr]
        )
    failed = False
    for target, result in zip(targets, results, strict=True):
        if isinstance(result, KubectlCrdError):
            print(result.kubectl_line, file=sys.stderr)
            failed = True
        elif output == "name":
            print(target.kind_name)
        elif output in ("json", "yaml") and dry_run != "client":
            _print_object(result, output)
        elif output in ("json", "yaml"):
            _print_object(pool.client().request("GET", target.object_path), output)
        else:
            print(f"{target.kind_name} scaled{suffix}")
    sys.stdout.flush()
    if wait_seconds and dry_run == "none":
        done = [t for t, r in zip(targets, results, strict=True) if not isinstance(r, Exception)]

        progress = WaitProgress(sys.stderr, len(done))

        def wait_one(client: KubeClient, target: ScaleTarget) -> None:
            wait_for_replicas(client, target, count, wait_seconds, progress.report)
            progress.finished(target)

        waits = run_all(pool, done, wait_one)
        progress.close()
        for result in waits:
            if isinstance(result, KubectlCrdError):
                print(result.kubectl_line, file=sys.stderr)
                failed = True
    return failed


def _no_objects(reasons: Sequence[str]) -> str:
    """kubectl's ``no objects passed to scale`` with the builder's errors after it (one
    as it is, several as Go prints an aggregate: ``[a, b]``)."""
    if not reasons:
        return "no objects passed to scale"
    joined = reasons[0] if len(reasons) == 1 else "[" + ", ".join(reasons) + "]"
    return f"no objects passed to scale {joined}"


def _object_missing(result: object) -> bool:
    return isinstance(result, ApiError) and result.status == 404 and result.reason == "NotFound"


def _show(pool: ClientPool, targets: Sequence[ScaleTarget], output: str) -> bool:
    results = run_all(pool, targets, read_scale)
    failed = False
    for target, result in zip(targets, results, strict=True):
        if isinstance(result, KubectlCrdError):
            print(result.kubectl_line, file=sys.stderr)
            failed = True
        elif output == "name":
            print(target.kind_name)
        elif output in ("json", "yaml"):
            _print_object(result, output)
        else:
            print(describe_scale(target, result))
    return failed


def go_json(obj: Any) -> str:
    """kubectl's ``-o json``: ``json.MarshalIndent`` with four spaces, keys sorted (Go
    maps), UTF-8 kept, and ``<``, ``>``, ``&`` escaped as Go's encoder does."""
    text = json.dumps(obj, indent=4, sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def describe_scale(target: ScaleTarget, scale: Mapping[str, Any]) -> str:
    """The current Scale with the CRD's paths it comes from."""
    paths = target.scale
    spec = (scale.get("spec") or {}).get("replicas")
    status = scale.get("status") or {}
    where = f" in namespace {target.namespace}" if target.namespace else ""
    rows = [
        ("spec replicas", str(spec if spec is not None else "<unset>"), paths.spec_replicas_path),
        ("status replicas", str(status.get("replicas") or 0), paths.status_replicas_path),
        (
            "selector",
            str(status.get("selector") or "<none>"),
            paths.label_selector_path or "(no labelSelectorPath)",
        ),
    ]
    lines = [f"{target.kind_name}{where} (version {target.version})"]
    lines += [f"  {label + ':':<17} {value:<10} {path}" for label, value, path in rows]
    lines.append(
        f"  {'resourceVersion:':<17} {(scale.get('metadata') or {}).get('resourceVersion', '')}"
    )
    return "\n".join(lines)


def _print_object(obj: Any, output: str) -> None:
    # kubectl hides managedFields unless --show-managed-fields (get.go, printers)
    if isinstance(obj, dict) and isinstance(obj.get("metadata"), dict):
        obj["metadata"].pop("managedFields", None)
    if output == "json":
        print(go_json(obj))
    else:
        from kubectl_crd.io import dump_yaml

        sys.stdout.write(dump_yaml(obj))


# -- offline ---------------------------------------------------------------------------


def _scale_local(
    app: Application,
    filenames: Sequence[str],
    crd_paths: Sequence[str],
    count: int,
    output: str,
) -> None:
    """``--local``: specReplicasPath changed in each document, validated, printed."""
    if not filenames:
        raise UsageError('--local needs the objects with -f (use "-f -" for stdin)')
    from kubectl_crd.io import copy_tree, read_inputs
    from kubectl_crd.model.crd import is_crd_object
    from kubectl_crd.validation import validate_custom_resource

    documents = list(read_inputs(list(filenames)))
    for document in documents:
        if not document.ok:
            raise document.errors[0]
    objects = [d for d in documents if not is_crd_object(d.content)]
    crds = _local_crds(app, crd_paths, [d.content for d in documents if is_crd_object(d.content)])
    resolver = Resolver(crds)
    rendered: list[tuple[str, dict[str, Any]]] = []
    invalid = False
    for document in objects:
        obj = document.content
        crd, version = resolver.by_document(obj, document.source)
        check_scalable(crd, version)
        scale = crd.version(version).subresources.scale  # type: ignore[union-attr]
        assert scale is not None
        changed: dict[str, Any] = copy_tree(obj)
        set_field(changed, scale.spec_replicas_path, count)
        result = validate_custom_resource(changed, crd)
        name = f"{crd.names.kind.lower()}.{crd.group}/{(obj.get('metadata') or {}).get('name')}"
        title = f'The {crd.names.kind} "{(obj.get("metadata") or {}).get("name", "")}" is invalid'
        for error in result.reported:
            where = f"{error.location}: " if error.location else ""
            print(f"{where}{title}: {error.message}", file=sys.stderr)
            invalid = True
        rendered.append((name, changed))
    if invalid:
        sys.exit(ExitCode.ERROR)
    for name, changed in rendered:
        if output == "name":
            print(name)
        elif output == "json":
            print(go_json(changed))
        else:
            from kubectl_crd.io import dump_yaml

            if len(rendered) > 1:
                sys.stdout.write("---\n")
            sys.stdout.write(dump_yaml(changed))


def _local_crds(
    app: Application, crd_paths: Sequence[str], inline: Sequence[Any]
) -> list[CustomResourceDefinition]:
    """CRDs from ``--crd``, from the inputs, and else the cluster's (read only)."""
    from kubectl_crd.model.crd import CustomResourceDefinition

    crds = [CustomResourceDefinition.from_object(obj) for obj in inline]
    if crd_paths:
        from kubectl_crd.sources.files import FileSource

        crds.extend(FileSource(crd_paths).crds())
    if not crds:
        crds.extend(app.crd_source().crds())
    return crds


command.__class__ = (
    DryRunCommand  # kubectl_command builds a KubectlCommand; this one reads --dry-run
)
