"""``kubectl crd scale``: scale custom resources through their ``/scale`` subresource.

Mirrors ``kubectl scale`` (``k8s.io/kubectl/pkg/cmd/scale/scale.go``) for custom
resources, with its flags, messages and exit codes. This module reads the flags and
hands them on: ``kube.targets`` reads the arguments as kubectl's resource builder
does, ``kube.scaling`` finds the objects (cached aggregated discovery, no CRD read to
scale) and scales them as kubectl's scaler does (never a write to ``spec``),
``output.scaling`` reports each object (objects through ``output.printing``);
``--local`` admits the changed files offline as the server admits a ``/scale`` write
(``validation.scaling``, CRDs from ``sources.inputs``), a rejected object worded as
``validate`` words it (``output.validation.rejected``).

Beyond kubectl: with no ``--replicas`` it shows the current Scale and the CRD's scale
paths; ``--wait`` follows spec against status replicas until they agree; a version
without the subresource, an object without specReplicasPath and a built-in resource
are explained; several objects are scaled concurrently.

Where it knowingly differs from kubectl: a named object is not read before it is
scaled (the write's own 404 says it is missing, in kubectl's words); ``-o json|yaml``
prints the object after the scale (kubectl prints the one it read before); after a
failed object the others are still scaled (kubectl stops), each reported.
``tests/integration/test_scale.py`` compares both tools.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import (
    ALL_NAMESPACES,
    CRD_PATHS,
    SELECTOR,
    SWITCH,
    VALUE,
    Flag,
    filename_flag,
    object_output_flag,
)
from kubectl_crd.model.errors import ExitCode, KubectlCrdError, UsageError

if TYPE_CHECKING:
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.resolving import Resolver
    from kubectl_crd.kube.scaling import Precondition, ScaleTarget

#: ``--wait`` without ``--timeout``.
DEFAULT_WAIT_TIMEOUT = 300.0

REPLICAS_REQUIRED = (
    "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
)
CURRENT_REPLICAS_INVALID = "The --current-replicas must specify an integer of -1 or greater"
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
    filename_flag("A file, directory or - (stdin) naming the resources to scale (repeatable)."),
    SELECTOR,
    Flag(("--all",), "all_objects", SWITCH, "Select all resources of the given type."),
    ALL_NAMESPACES,
    object_output_flag(help="Output format: name, json or yaml (default: the kubectl message)."),
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
        "Change specReplicasPath in the -f files and print them, checked as the API "
        "server checks the /scale write: a file with a resourceVersion (a dump of a "
        "stored object) as an update of it, a manifest as its create; no cluster write.",
    ),
    CRD_PATHS,
    Flag(
        ("--dry-run",),
        "dry_run",
        VALUE,
        'Must be "none", "server", or "client": "server" asks the API server to check '
        'without persisting, "client" only reads. Alone, it means "client".',
        metavar="[none|server|client]",
        default="none",
        choices=("none", "server", "client", "true", "false"),
        no_value="client",
    ),
)

#: The parameter that takes the positional arguments (``DeclaredCommand``).
ARGUMENT = "resources"

HELP = """Set a new size for custom resources, through their /scale subresource.

\b
Examples:
  kubectl crd scale foo/example --replicas 3
  kubectl crd scale foo example --replicas 3 --current-replicas 2
  kubectl crd scale foo -l app=demo --replicas 0 --dry-run=server
  kubectl crd scale foo/example --replicas 5 --wait --timeout 2m
  kubectl crd scale foo/example                  # show the current Scale
  kubectl crd scale -f foo.yaml --replicas 4 --local --crd crds/   # offline

Like kubectl scale, every write goes to the /scale subresource (never a patch of
spec); --current-replicas and --resource-version are checked before the write and
again after any conflicting write, so another writer's change is never overwritten.
"""


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


# -- the command -----------------------------------------------------------------------


def run(
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
        from kubectl_crd.output.printing import unknown_output

        raise KubectlCrdError(unknown_output(output, "json,name,yaml"))
    # kubectl's GetDryRunStrategy still reads the old boolean spelling
    dry_run = {"true": "client", "false": "none"}.get(dry_run, dry_run)
    count = parse_replicas(replicas)
    size = parse_current_replicas(current_replicas)  # kubectl checks it before anything
    wait_seconds = _wait_seconds(wait, timeout)
    if local:
        if count is None:
            raise KubectlCrdError(REPLICAS_REQUIRED)
        _scale_local(app, filenames, crd_paths, count, output)
        return
    from kubectl_crd.kube.targets import check_paths, parse_resource_args

    check_paths(filenames)
    query = parse_resource_args(
        resources,
        filenames=filenames,
        selector=selector,
        all_objects=all_objects,
        all_namespaces=all_namespaces,
    )
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.scaling import Precondition, find_scale_targets, require_targets

    client = KubeClient(app.cluster)
    try:
        documents: list[Any] = []
        if query.filenames:
            from kubectl_crd.io import read_inputs

            documents = list(read_inputs(list(query.filenames)))
        resolver, targets, problems = find_scale_targets(
            client, query, documents=documents, enforce_namespace=app.namespace is not None
        )
        require_targets(targets, problems, resource_version)
        if count is None:
            failed = _show(client, resolver, targets, output)
        else:
            precondition = Precondition(size, resource_version)
            failed = _scale(client, targets, count, precondition, dry_run, output, wait_seconds)
        for problem in problems:
            print(problem.kubectl_line, file=sys.stderr)
        if failed or problems:
            sys.exit(ExitCode.ERROR)
    finally:
        client.close()


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
    client: KubeClient,
    targets: Sequence[ScaleTarget],
    count: int,
    precondition: Precondition,
    dry_run: str,
    output: str,
    wait_seconds: float,
) -> bool:
    from kubectl_crd.kube.scaling import scale_all, wait_all
    from kubectl_crd.output.scaling import ScaleReport, WaitProgress

    results = scale_all(
        client,
        targets,
        count,
        precondition,
        dry_run=dry_run,
        fetch_objects=output in ("json", "yaml"),
    )
    suffix = {"client": " (dry run)", "server": " (server dry run)"}.get(dry_run, "")
    report = ScaleReport(output, sys.stdout, sys.stderr, operation=f"scaled{suffix}")
    for target, result in zip(targets, results, strict=True):
        report.write(target, result)
    report.flush()
    if wait_seconds and dry_run == "none":
        done = [t for t, r in zip(targets, results, strict=True) if not isinstance(r, Exception)]
        progress = WaitProgress(sys.stderr, len(done))
        try:
            failures = wait_all(
                client, done, count, wait_seconds, progress.report, progress.finished
            )
        finally:
            progress.close()
        for failure in failures:
            report.error(failure)
    return report.failed


def _show(
    client: KubeClient, resolver: Resolver, targets: Sequence[ScaleTarget], output: str
) -> bool:
    from kubectl_crd.kube.scaling import scale_paths, show_all
    from kubectl_crd.output.scaling import ScaleReport

    report = ScaleReport(output, sys.stdout, sys.stderr, paths=scale_paths(resolver))
    for target, result in zip(targets, show_all(client, targets), strict=True):
        report.write(target, result)
    report.flush()
    return report.failed


# -- offline ---------------------------------------------------------------------------


def _scale_local(
    app: Application,
    filenames: Sequence[str],
    crd_paths: Sequence[str],
    count: int,
    output: str,
) -> None:
    """``--local``: specReplicasPath changed in each document, admitted as the server
    admits a ``/scale`` write (``validation.scaling``), printed."""
    if not filenames:
        raise UsageError('--local needs the objects with -f (use "-f -" for stdin)')
    from kubectl_crd.io import read_inputs
    from kubectl_crd.model.crd import is_crd_object
    from kubectl_crd.output.printing import Named, ObjectPrinter
    from kubectl_crd.sources.inputs import InputCRDs
    from kubectl_crd.validation.scaling import scale_documents

    documents = list(read_inputs(list(filenames)))
    for document in documents:
        if not document.ok:
            raise document.errors[0]
    crds = InputCRDs(crd_paths, documents=documents, cluster=lambda: app.crd_source().crds())
    objects = [d for d in documents if not is_crd_object(d.content)]
    scaled = scale_documents(objects, crds.crds(), count)
    if not all(each.ok for each in scaled):
        # imported only then: the rejection formatter imports validate's result records
        from kubectl_crd.output.validation import scale_rejections

        for line in scale_rejections(objects, scaled):
            print(line, file=sys.stderr)
        sys.exit(ExitCode.ERROR)
    # the files' objects as written (managedFields kept), yaml without -o
    printer = ObjectPrinter(output or "yaml", sys.stdout, streaming=True, managed_fields=True)
    for each in scaled:
        printer.write(Named(each.name, each.changed))
    printer.flush()
