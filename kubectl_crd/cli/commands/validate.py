"""``kubectl crd validate -f PATH...``: custom resources checked offline as the API server would.

Reads files, directories (recursively) and ``-`` (stdin); takes CRDs from ``--crd``,
from the inputs themselves, and from the cluster when a kind has no CRD otherwise
(unless ``--offline``); runs ``validation.documents`` and hands every result to the
printer of ``-o``. Exit codes: 0 when nothing is invalid, 1 when something is invalid
or unreadable or the arguments are bad (as kubectl), 3 for internal errors.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, cast

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import COUNT, CRD_PATHS, REPEATED, SWITCH, VALUE, Flag, output_flag
from kubectl_crd.cli.options import click_options, kubectl_command
from kubectl_crd.model.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from kubectl_crd.model.crd import CustomResourceDefinition
    from kubectl_crd.validation.documents import DocumentResult, MissingPolicy, OldObjects

FORMATS = ("human", "json", "yaml", "junit", "sarif", "github")

FLAGS = (
    Flag(
        ("-f", "--filename"),
        "filenames",
        REPEATED,
        "A file, directory (read recursively) or - for stdin, with the resources to "
        "validate (repeatable).",
        metavar="PATH",
    ),
    CRD_PATHS,
    Flag(
        ("--offline",),
        "offline",
        SWITCH,
        "Never ask the cluster for CRDs, even for kinds no given CRD serves.",
    ),
    Flag(
        ("--missing",),
        "missing",
        VALUE,
        "What a kind with no CRD is: an error, a warning (skipped with a note), or "
        "skipped silently.",
        default="error",
        show_default=True,
        choices=("error", "warn", "skip"),
    ),
    Flag(
        ("--field-validation",),
        "field_validation",
        VALUE,
        "Unknown and duplicate fields, as the API server's fieldValidation: an error "
        "(Strict), a warning (Warn), or nothing (Ignore).",
        default="Strict",
        show_default=True,
        choices=("Strict", "Warn", "Ignore"),
    ),
    Flag(
        ("--old",),
        "old_paths",
        REPEATED,
        "Validate as updates: an input whose object (kind, namespace, name) is in these "
        "files is checked as an update of it (transition rules with oldSelf, ratcheting).",
        metavar="PATH",
    ),
    Flag(
        ("--against-cluster",),
        "against_cluster",
        SWITCH,
        "Validate as updates of the live objects: each input that exists in the cluster "
        "is checked as an update of it; the others as creates.",
    ),
    output_flag(FORMATS, default="human"),
    Flag(
        ("--show-defaults",),
        "show_defaults",
        SWITCH,
        "Print each valid object as the server would store it, defaults filled in "
        "(the same as -o yaml).",
    ),
    Flag(
        ("--summary",),
        "summary",
        SWITCH,
        "End the human output with a count of documents by status.",
    ),
    Flag(
        ("-j", "--jobs"),
        "jobs",
        COUNT,
        "Validate files in this many processes at once (0: one per CPU). By default one per "
        "idle CPU (not kept busy by other work) from 256 KiB of input on, else 1. Not for stdin.",
    ),
    Flag(
        ("-w", "--watch"),
        "watch",
        SWITCH,
        "After the first run, validate again on every save and print only what changed "
        "(human output; Ctrl-C ends it).",
    ),
)

HELP = """Validate custom resources offline, as the API server would on create or update.

\b
Examples:
  kubectl crd validate -f manifests/ --crd crds/
  kubectl crd validate -f cr.yaml --offline -o json
  kustomize build . | kubectl crd validate -f - -o github
  kubectl crd validate -f new/ --old old/ --crd crds/

Every error is reported with the API server's field path, reason and message at
file:line:column. CRDs come from --crd, from the inputs, and from the cluster of the
current context for kinds no given CRD serves (not with --offline). Built-in kinds
are skipped. With --old or --against-cluster, objects that already exist are
validated as updates: CEL transition rules (oldSelf) run, and errors at values that
did not change are only warnings (ratcheting).
"""


@kubectl_command("validate", help=HELP)
@click_options(FLAGS)
def command(
    app: Application,
    filenames: tuple[str, ...],
    crd_paths: tuple[str, ...],
    offline: bool,
    missing: str,
    field_validation: str,
    output: str,
    show_defaults: bool,
    summary: bool,
    watch: bool,
    old_paths: tuple[str, ...],
    against_cluster: bool,
    jobs: int | None,
) -> None:
    if not filenames:
        raise UsageError('must specify at least one file with -f (use "-f -" for stdin)')
    if old_paths and against_cluster:
        raise UsageError("--old and --against-cluster cannot be used together")
    if show_defaults and output == "human":
        output = "yaml"
    if watch and (output != "human" or "-" in filenames):
        raise UsageError("--watch needs files (not stdin) and the human output")
    from kubectl_crd.io import expand_paths
    from kubectl_crd.output.progress import file_progress
    from kubectl_crd.output.validation import PRINTERS
    from kubectl_crd.validation.parallel import workers_for

    run = _Run(app, filenames, crd_paths, offline, missing, field_validation)
    run.old_paths = old_paths
    run.against_cluster = app if against_cluster else None
    paths = [] if "-" in filenames else list(expand_paths(filenames))
    run.jobs = workers_for(len(paths), _size(paths), jobs)
    run.keep_stored = output == "yaml"
    kept: list[DocumentResult] = []  # only --watch needs them all; otherwise they stream
    failed = False
    files = 0 if watch else len(paths)
    colour = None if sys.stdout.isatty() else False
    with file_progress(files) as progress:
        # made inside: with a bar on the terminal, sys.stdout is its redirection
        printer = PRINTERS[output](sys.stdout, colour=colour, summary=summary, err=sys.stderr)
        for result in run.results():
            progress.advance(result.source)
            printer.write(result)
            failed = failed or result.status in ("invalid", "error")
            if watch:
                kept.append(result)
        printer.flush()
    if watch:
        _watch(run, kept, colour)
    if failed:
        sys.exit(ExitCode.ERROR)


def _size(paths: list[str]) -> int:
    """The bytes of ``paths`` (one stat each), to choose the default ``-j`` on."""
    size = 0
    for path in paths:
        with contextlib.suppress(OSError):
            size += os.stat(path).st_size
    return size


class _Run:
    """One validation of all the inputs, repeatable (``--watch`` runs it on every save)."""

    def __init__(
        self,
        app: Application,
        filenames: tuple[str, ...],
        crd_paths: tuple[str, ...],
        offline: bool,
        missing: str,
        field_validation: str,
    ) -> None:
        self.filenames = filenames
        self.crd_paths = crd_paths
        self.missing = cast("MissingPolicy", missing)
        self.field_validation = field_validation
        self.cluster = None if offline else _cluster_crds(app)
        self.old_paths: tuple[str, ...] = ()
        self.against_cluster: Application | None = None
        self.jobs = 1
        self.keep_stored = True

    def results(self) -> Iterator[DocumentResult]:
        from kubectl_crd.io import files_defining_crds, input_documents
        from kubectl_crd.sources.inputs import InputCRDs
        from kubectl_crd.validation.documents import (
            CRDIndex,
            old_objects_from,
            validate_documents,
        )

        # Files are read twice, CRDs first (sources.inputs, through the parsed-value
        # cache), so that the documents then stream (memory flat in the size of the
        # input); the documents are parsed with their positions: through the cache, each
        # invalid one would be parsed again (validate_located), and validate_bench's
        # 10,000 generated resources (10 to a file, one in five invalid) took 7.5 s
        # instead of 5.4. stdin can be read once only: its CRDs join as it is validated.
        streaming = "-" not in self.filenames
        inputs = self.filenames if streaming else ()
        crds = InputCRDs(self.crd_paths, cluster=self.cluster)
        from_files = crds.from_files()
        for problem in crds.problems():
            print(f"warning: skipped a CRD: {problem}", file=sys.stderr)
        # the cluster is asked only for a kind the given CRDs lack, once
        index = CRDIndex(from_files, fallback=crds.from_cluster)
        # after --crd's (theirs win a kind defined in both); an input CRD the server
        # would refuse serves none of its objects, and its document's verdict, when the
        # documents stream, is found by where it is (the streamed parse is another)
        index.add_inputs(input_documents(files_defining_crds(inputs), cached=True))
        old: OldObjects | None = None
        if self.old_paths:
            old = old_objects_from(input_documents(self.old_paths), index)
        elif self.against_cluster is not None:
            old = _live_objects(self.against_cluster)
        from kubectl_crd.validation.parallel import can_fork, validate_files

        if streaming and self.jobs > 1 and can_fork():
            from kubectl_crd.io import expand_paths

            return validate_files(
                list(expand_paths(self.filenames)),
                lambda path: input_documents((path,)),
                index,
                self.jobs,
                missing=self.missing,
                field_validation=self.field_validation,
                old=old,
                keep_stored=self.keep_stored,
            )
        documents = input_documents(self.filenames)
        return validate_documents(
            documents,
            index,
            missing=self.missing,
            field_validation=self.field_validation,
            old=old,
            crds_indexed=streaming,
        )


def _watch(run: _Run, before: list[DocumentResult], colour: bool | None) -> None:
    """Validate again on every save; print the documents whose outcome changed."""
    import time

    from kubectl_crd.io import EXTENSIONS
    from kubectl_crd.io.filewatch import changes, file_stamps
    from kubectl_crd.output.validation import HumanPrinter

    def outcome(result: DocumentResult) -> object:
        return (result.status, result.message, result.warnings, [e.message for e in result.errors])

    known = {_key(result): outcome(result) for result in before}
    # the files read, stamped before the notice: the observer is armed only once
    # changes() runs (watchdog's import and threads, most of a second on a loaded
    # machine), and a save after the notice and before that is a change all the same
    read = {result.source for result in before} | set(run.crd_paths)
    since = file_stamps(sorted(path for path in read if os.path.isfile(path)))
    print("watching for changes (Ctrl-C to stop)", file=sys.stderr, flush=True)
    watched = [*run.filenames, *run.crd_paths]
    for changed in changes(watched, extensions=EXTENSIONS, since=since):
        results = list(run.results())
        printer = HumanPrinter(sys.stdout, colour=colour, show_valid=True)
        now = {_key(result): outcome(result) for result in results}
        names = ", ".join(sorted(os.path.relpath(path) for path in changed))
        print(f"{time.strftime('%H:%M:%S')} changed: {names}", file=sys.stderr, flush=True)
        for result in results:
            if known.get(_key(result)) != now[_key(result)]:
                printer.write(result)
        for gone in sorted(set(known) - set(now), key=str):
            print(f"{gone[0]}: document {gone[1] + 1} is gone", flush=True)
        printer.flush()
        sys.stdout.flush()
        known = now


def _key(result: DocumentResult) -> tuple[str, int, int]:
    return (result.source, result.index, -1 if result.item is None else result.item)


def _live_objects(app: Application) -> OldObjects:
    """``--against-cluster``: the live object of each input, read with one GET (None when
    the server has no such object: the input is then a create)."""
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.model.errors import ApiError

    client: KubeClient | None = None

    def lookup(crd: CustomResourceDefinition, content: dict[str, object]) -> object:
        nonlocal client
        if client is None:
            client = KubeClient(app.cluster)
        metadata = content.get("metadata")
        meta = metadata if isinstance(metadata, dict) else {}
        name = str(meta.get("name") or "")
        if not name:
            return None  # generateName: always a create
        version = str(content.get("apiVersion") or "").rpartition("/")[2]
        path = f"/apis/{crd.group}/{version}/"
        if crd.namespaced:
            namespace = str(meta.get("namespace") or client.namespace)
            path += f"namespaces/{namespace}/"
        try:
            return client.get(f"{path}{crd.names.plural}/{name}")
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    return lookup


def _cluster_crds(app: Application) -> Callable[[], list[CustomResourceDefinition]]:
    """CRDs of the cluster, read once and only when a kind needs them; a cluster that
    cannot be reached gives none (with a warning): the kinds stay missing."""

    def read() -> list[CustomResourceDefinition]:
        from kubectl_crd.model.errors import ClusterError
        from kubectl_crd.sources.cluster import ClusterSource

        try:
            return list(ClusterSource(app.cluster).crds())
        except ClusterError as exc:
            print(
                f"warning: no CRDs from the cluster ({exc}); use --crd, or --offline",
                file=sys.stderr,
            )
            return []

    return read
