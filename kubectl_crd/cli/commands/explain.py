"""``kubectl crd explain RESOURCE[.field.path]``: kubectl explain for CRDs, offline or live.

The default output is kubectl explain's own plaintext layout, byte for byte, computed
from the CRD (``--crd`` files, or the CRDs the cluster serves) instead of the OpenAPI
document the server publishes; see ``kubectl_crd.model.explain``. After it, behind
one separator line, comes what kubectl leaves out (defaults, bounds, CEL rules, printer
columns, ...; ``output.explain``). With ``--kubectl`` stdout is exactly kubectl's
output, and what its layout cannot say (free-form fields, int-or-string) is printed
as ``note:`` lines on stderr, so it stays diffable against kubectl.

``-i`` is ``explore``, the fuzzy finder (``model.explain.finder`` ranks,
``output.explorer`` draws). Output formats are printers (``output.explain``:
``ExplainPrinter`` over ``RENDERERS``), behind the same ``write``/``flush`` interface as
validate's. The flags are
declared in ``FLAGS`` and the command is ``run``, free of click: ``root`` parses a plain
command line itself and ``group`` builds the click command from the same declarations.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import (
    COUNT,
    CRD_PATHS,
    SWITCH,
    Flag,
    api_version_flag,
    output_flag,
)
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import (
    FieldNotFoundError,
    KubectlCrdError,
    ResourceLookupError,
    UsageError,
)
from kubectl_crd.model.explain import ExplainTarget, render_header, resolve_target
from kubectl_crd.output.explain import RENDERERS


class ExplainOptions:
    __slots__ = ("max_depth", "recursive")

    def __init__(self, recursive: bool = False, max_depth: int = 0) -> None:
        self.recursive = recursive
        self.max_depth = max_depth


_NO_RESOURCE = (
    'You must specify the type of resource to explain. Use "kubectl crd explain '
    'RESOURCE" with a kind, plural, singular or short name of a CRD '
    "(kubectl get crd lists them)."
)

HELP = """Describe the fields of a custom resource the way kubectl explain does.

RESOURCE is a kind, plural, singular or short name, or plural.group, optionally
followed by a field path: crontabs.spec.cronSpec. Without --crd the CRDs come
from the cluster of the current context.

After kubectl's output, behind a separator line, comes what kubectl leaves out:
defaults, enums, patterns, bounds, formats, list and map types, CEL rules, and
for the resource its versions, printer columns and subresources. --kubectl
leaves that out.
"""
#: The positional parameter: any number of words, checked in ``run``.
ARGUMENT = "resource"
FLAGS = (
    CRD_PATHS,
    api_version_flag("The version to explain (default: the preferred version, as kubectl)."),
    Flag(("-R", "--recursive"), "recursive", SWITCH, "Print the fields of fields."),
    Flag(
        ("--max-depth",),
        "max_depth",
        COUNT,
        "With --recursive, stop after this many levels of fields (0: no limit).",
        default=0,
    ),
    # kubectl explain words its own error for an unknown format: run checks it
    output_flag(tuple(RENDERERS), default="plaintext", checked=False),
    Flag(
        ("--kubectl",),
        "kubectl_only",
        SWITCH,
        "Print exactly what kubectl explain prints: no section after it.",
    ),
    Flag(
        ("-i", "--interactive"),
        "interactive",
        SWITCH,
        "Pick a field with a fuzzy finder that shows its explanation live.",
    ),
)


def run(
    app: Application,
    resource: tuple[str, ...],
    crd_paths: tuple[str, ...],
    api_version: str | None,
    recursive: bool,
    max_depth: int,
    output: str,
    kubectl_only: bool,
    interactive: bool,
) -> None:
    if not resource:
        raise UsageError(_NO_RESOURCE)
    if len(resource) > 1:
        raise UsageError("We accept only this format: explain RESOURCE")
    if max_depth and not recursive:
        raise UsageError("--max-depth requires --recursive")
    if output not in RENDERERS:
        raise KubectlCrdError(f"unrecognized format: {output}")
    source = app.crd_source(crd_paths)
    crds = source.crds()
    problems = source.problems()
    for problem in problems:
        print(f"warning: skipped a CRD: {problem}", file=sys.stderr)
    options = ExplainOptions(recursive=recursive, max_depth=max_depth)
    try:
        if interactive:  # a field path is only the finder's first query
            explore(crds, resource[0], options, api_version=api_version, kubectl_only=kubectl_only)
            return
        target = resolve_target(crds, resource[0], api_version=api_version)
    except FieldNotFoundError as exc:
        # kubectl has printed the header by the time it finds the path missing.
        sys.stdout.write(render_header(exc.gvk))
        sys.stdout.flush()
        raise
    except ResourceLookupError as exc:
        if problems:
            exc.message += _skipped_hint(problems)
        raise
    from kubectl_crd.output.explain import ExplainPrinter

    # the details section after kubectl's plaintext holds the notes too
    details = output == "plaintext" and not kubectl_only
    printer = ExplainPrinter(output, options, sys.stdout, details=details)
    printer.write(target)
    printer.flush()
    if not details:
        for note in target.notes():
            print(f"note: {note}", file=sys.stderr)


def _skipped_hint(problems: Sequence[KubectlCrdError]) -> str:
    count = len(problems)
    return (
        f"\n({count} CRD document{'s' if count != 1 else ''} could not be read; "
        "see the warnings above)"
    )


def explore(
    crds: Sequence[CustomResourceDefinition],
    argument: str,
    options: ExplainOptions,
    *,
    api_version: str | None = None,
    kubectl_only: bool = False,
) -> None:
    """``explain -i``: pick a field path interactively, then print its explanation.

    ``argument`` names the resource as for ``explain``; a field path after it, even
    one that does not exist (``crontab.spec.rep``), is the finder's first query.
    Quitting prints nothing.
    """
    if not sys.stdin.isatty():
        raise UsageError("-i/--interactive needs a terminal: standard input is not one")
    target, query = _resource_and_query(crds, argument, api_version)
    from kubectl_crd.model.explain.fieldpath import walk
    from kubectl_crd.model.explain.finder import field_paths, path_text
    from kubectl_crd.model.explain.plaintext import render_plaintext
    from kubectl_crd.model.styled import Line, Style, text_lines

    try:
        from kubectl_crd.output.explorer import run_explorer
    except ImportError as exc:  # a krew install ships no dependencies
        raise KubectlCrdError(
            f"-i/--interactive needs prompt_toolkit ({exc}): "
            "pip install 'prompt_toolkit>=3.0.36,<3.1'"
        ) from exc

    published = target.published
    paths = field_paths(published)

    def target_at(index: int) -> ExplainTarget:
        path = paths[index]
        return ExplainTarget(target.crd, target.version, published, path, walk(published, path))

    def preview(index: int) -> list[Line]:
        try:
            chosen = target_at(index)
            lines = text_lines(render_plaintext(chosen))
            if not kubectl_only:
                from kubectl_crd.model.explain.details import explain_details
                from kubectl_crd.model.explain.detailtext import details_lines

                lines += details_lines(explain_details(chosen))
        except Exception as exc:  # a preview must never end the UI
            return [((f"error: {exc}", Style.WARNING),)]
        return lines

    env_colour = not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    chosen = run_explorer(
        [path_text(path) for path in paths],
        preview,
        title=f"kubectl crd explain {target.crd.names.plural} ({target.gvk.api_version})",
        initial_query=query,
        colour=env_colour,
    )
    if chosen is None:
        return
    picked = target_at(chosen)
    sys.stdout.write(
        render_plaintext(picked, recursive=options.recursive, max_depth=options.max_depth)
    )
    sys.stdout.flush()
    if not kubectl_only:
        from kubectl_crd.output.explain import write_details

        write_details(picked, options)


def _resource_and_query(
    crds: Sequence[CustomResourceDefinition], argument: str, api_version: str | None
) -> tuple[ExplainTarget, str]:
    """The target of the longest prefix of ``argument`` that exists, and the field
    path part of ``argument`` as typed (the finder's query)."""
    import re

    parts = re.split(r"(?<!\\)\.", argument)
    for end in range(len(parts), 0, -1):
        try:
            target = resolve_target(crds, ".".join(parts[:end]), api_version=api_version)
        except FieldNotFoundError:
            continue
        resource_parts = end - len(target.path)
        return target, ".".join(parts[resource_parts:])
    # the resource itself is unknown: let explain's own error say so
    return resolve_target(crds, argument, api_version=api_version), ""
