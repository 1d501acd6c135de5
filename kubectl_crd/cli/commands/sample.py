"""``kubectl crd sample RESOURCE``: print a skeleton custom resource for a CRD version.

The object comes from ``kubectl_crd.model.sample`` (required fields, server-side
defaults, first enum values, values that satisfy formats, patterns and bounds) and is
written as commented YAML by ``kubectl_crd.io.dump_yaml``, or as JSON. Places where
no conforming value could be made are reported as ``warning:`` lines on stderr (and in
the YAML header), so ``kubectl crd sample widgets > w.yaml`` still shows them.
"""

from __future__ import annotations

import json
import sys

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import CRD_PATHS, SWITCH, VALUE, Flag, api_version_flag, output_flag
from kubectl_crd.model.errors import ResourceNotFoundError, UsageError

HELP = """Print a skeleton RESOURCE (kind, plural, singular or short name, optionally
NAME.group or NAME.version.group) with its required fields, defaults and first enum
values filled in and the field descriptions as YAML comments.

\b
Examples:
  kubectl crd sample certificates.cert-manager.io > cert.yaml
  kubectl crd sample --crd crds/ httproute --api-version gateway.networking.k8s.io/v1
  kubectl crd sample -n team-a widget --all-fields -o json

The output is meant to pass a server-side dry run (kubectl create --dry-run=server -f).
CEL rules (x-kubernetes-validations) are checked with a partial evaluator; the header
names those it cannot evaluate, and anything known to fail is a warning on stderr.
A namespaced kind gets its metadata.namespace from -n/--namespace.
"""
ARGUMENT = "resource"
FLAGS = (
    CRD_PATHS,
    api_version_flag("The version to sample (default: the CRD's preferred served version)."),
    Flag(
        ("--name",),
        "name",
        VALUE,
        "metadata.name of the sample (default: example-<singular>).",
        metavar="NAME",
    ),
    Flag(
        ("--all-fields",),
        "all_fields",
        SWITCH,
        "Fill in the optional fields too, as a fuller template to prune.",
    ),
    Flag(
        ("--no-comments",),
        "no_comments",
        SWITCH,
        "Leave out the header and the field descriptions.",
    ),
    output_flag(("yaml", "json"), default="yaml", help="Output format; json has no comments."),
)


def run(
    app: Application,
    resource: tuple[str, ...],
    crd_paths: tuple[str, ...],
    api_version: str | None,
    name: str | None,
    all_fields: bool,
    no_comments: bool,
    output: str,
) -> None:
    if len(resource) != 1:
        raise UsageError(
            "sample takes one RESOURCE: a kind, plural, singular or short name of a CRD"
            if not resource
            else f"sample takes one RESOURCE, not {len(resource)}: {' '.join(resource)}"
        )
    from kubectl_crd.io import dump_yaml
    from kubectl_crd.model.sample import build_sample, select_version
    from kubectl_crd.sources.base import find_crd
    from kubectl_crd.validation.sample_checks import checked_sample_options

    source = app.crd_source(crd_paths)
    try:
        match = find_crd(source, resource[0])
    except ResourceNotFoundError as exc:
        problems = source.problems()
        if not problems:
            raise
        # A CRD that could not be read (no schema, not structural, bad YAML) is the
        # likeliest reason: say which, rather than only "not found".
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ResourceNotFoundError(
            f"{exc.message}; skipped an unusable CRD document: {problems[0]}{more}",
            query=exc.query,
            candidates=exc.candidates,
        ) from exc
    version = select_version(match.crd, api_version, match.version)
    sample = build_sample(
        match.crd,
        version,
        checked_sample_options(name=name, namespace=app.namespace, all_fields=all_fields),
    )
    for problem in sample.problems:
        print(f"warning: {problem}", file=sys.stderr)
    if output == "json":
        text = json.dumps(sample.value, indent=2, ensure_ascii=False) + "\n"
    elif no_comments:
        text = dump_yaml(sample.value)
    else:
        text = dump_yaml(sample.value, comments=sample.comments, header=sample.header())
    sys.stdout.write(text)
    sys.stdout.flush()
