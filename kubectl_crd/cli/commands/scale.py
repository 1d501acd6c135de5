"""``kubectl crd scale``: scale custom resources through their ``/scale`` subresource.

Mirrors ``kubectl scale`` (``k8s.io/kubectl/pkg/cmd/scale/scale.go``) for custom
resources, with its flags, messages and exit codes. This module reads the flags and
hands them on: ``model.scaleflags`` checks the flags' values in kubectl's words,
``kube.targets`` reads the arguments as kubectl's resource builder does, ``kube.scaling`` finds the objects (cached aggregated discovery, no CRD read to
scale) and scales them as kubectl's scaler does (never a write to ``spec``),
``output.scaling`` reports each object (objects through ``output.printing``);
``--local`` (``output.scaling.scale_files``) admits the changed files offline as the server admits a ``/scale`` write
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
from typing import Any

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import (
    ALL_NAMESPACES,
    ALLOW_MISSING_TEMPLATE_KEYS,
    CRD_PATHS,
    DRY_RUN,
    SELECTOR,
    SWITCH,
    TEMPLATE,
    TEMPLATE_FORMATS,
    VALUE,
    Flag,
    allow_missing_keys,
    filename_flag,
    object_output_flag,
)
from kubectl_crd.model.errors import ExitCode, KubectlCrdError, UsageError

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
    object_output_flag(
        "name",
        "json",
        "yaml",
        *TEMPLATE_FORMATS,
        help="Output format: name, json, yaml, go-template=TEMPLATE, go-template-file=FILE, "
        "template=TEMPLATE, templatefile=FILE, jsonpath=TEMPLATE, jsonpath-file=FILE or "
        "jsonpath-as-json=TEMPLATE (default: the kubectl message).",
    ),
    TEMPLATE,
    ALLOW_MISSING_TEMPLATE_KEYS,
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
    DRY_RUN,
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
    template: str,
    allow_missing_template_keys: str,
    wait: bool,
    timeout: str,
    local: bool,
    crd_paths: tuple[str, ...],
    dry_run: str,
) -> None:
    from kubectl_crd.output.printing import SCALE_FORMATS, resolve_output

    # kubectl builds its printer (the template read and parsed) before any request
    output = resolve_output(
        output,
        SCALE_FORMATS,
        template=template,
        allow_missing_keys=allow_missing_keys(allow_missing_template_keys, "scale"),
    )
    from kubectl_crd.model.scaleflags import REPLICAS_REQUIRED, ScaleFlags

    flags = ScaleFlags.read(replicas, current_replicas, dry_run, wait, timeout)
    if local:
        if flags.replicas is None:
            raise KubectlCrdError(REPLICAS_REQUIRED)
        _scale_local(app, filenames, crd_paths, flags.replicas, output)
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
    from kubectl_crd.output.scaling import scale_and_report, show_and_report

    client = KubeClient(app.cluster)
    try:
        documents: list[Any] = []
        if query.filenames:
            from kubectl_crd.io import read_inputs, require_paths

            require_paths(query.filenames)
            documents = list(read_inputs(list(query.filenames)))
        resolver, targets, problems = find_scale_targets(
            client, query, documents=documents, enforce_namespace=app.namespace is not None
        )
        require_targets(targets, problems, resource_version)
        if flags.replicas is None:
            failed = show_and_report(client, resolver, targets, output, sys.stdout, sys.stderr)
        else:
            precondition = Precondition(flags.current_replicas, resource_version)
            failed = scale_and_report(
                client, targets, flags, precondition, output, sys.stdout, sys.stderr
            )
        for problem in problems:
            print(problem.kubectl_line, file=sys.stderr)
        if failed or problems:
            sys.exit(ExitCode.ERROR)
    finally:
        client.close()


def _scale_local(
    app: Application,
    filenames: Sequence[str],
    crd_paths: Sequence[str],
    count: int,
    output: str,
) -> None:
    """``--local``: the files read, their CRDs found (``--crd``, the files, else the
    cluster), and the objects scaled offline (``output.scaling.scale_files``)."""
    if not filenames:
        raise UsageError('--local needs the objects with -f (use "-f -" for stdin)')
    from kubectl_crd.io import read_inputs, require_paths
    from kubectl_crd.output.scaling import scale_files
    from kubectl_crd.sources.inputs import InputCRDs

    require_paths(filenames)
    documents = list(read_inputs(list(filenames)))
    for document in documents:
        if not document.ok:
            raise document.errors[0]
    crds = InputCRDs(crd_paths, documents=documents, cluster=lambda: app.crd_source().crds())
    if scale_files(documents, crds.crds(), count, output, sys.stdout, sys.stderr):
        sys.exit(ExitCode.ERROR)
