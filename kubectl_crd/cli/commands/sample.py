"""``kubectl crd sample RESOURCE``: print a skeleton custom resource for a CRD version.

The object comes from ``kubectl_crd.model.sample`` (required fields, server-side
defaults, first enum values, values that satisfy formats, patterns and bounds) and is
written as commented YAML by ``kubectl_crd.model.yaml_text``, or as JSON. Places where
no conforming value could be made are reported as ``warning:`` lines on stderr (and in
the YAML header), so ``kubectl crd sample widgets > w.yaml`` still shows them.
"""

from __future__ import annotations

import json

import click

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.options import api_version_option, crd_paths_option
from kubectl_crd.model.errors import ResourceNotFoundError


@click.command(
    name="sample",
    short_help="Print a skeleton custom resource for a CRD.",
    context_settings={"max_content_width": 100},
)
@click.argument("resource")
@crd_paths_option
@api_version_option("The version to sample (default: the CRD's preferred served version).")
@click.option(
    "-n",
    "--namespace",
    metavar="NS",
    help="metadata.namespace for a namespaced kind (also accepted before the command).",
)
@click.option(
    "--name", metavar="NAME", help="metadata.name of the sample (default: example-<singular>)."
)
@click.option(
    "--all-fields",
    is_flag=True,
    help="Fill in the optional fields too, as a fuller template to prune.",
)
@click.option(
    "--no-comments", is_flag=True, help="Leave out the header and the field descriptions."
)
@click.option(
    "-o",
    "--output",
    type=click.Choice(["yaml", "json"]),
    default="yaml",
    show_default=True,
    help="Output format; json has no comments.",
)
@click.pass_obj
def command(
    app: Application,
    resource: str,
    crd_paths: tuple[str, ...],
    api_version: str | None,
    namespace: str | None,
    name: str | None,
    all_fields: bool,
    no_comments: bool,
    output: str,
) -> None:
    """Print a skeleton RESOURCE (kind, plural, singular or short name, optionally
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
    """
    from kubectl_crd.model.sample import SampleOptions, build_sample, select_version
    from kubectl_crd.model.yaml_text import dump
    from kubectl_crd.sources.base import find_crd

    source = app.crd_source(crd_paths)
    try:
        match = find_crd(source, resource)
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
        SampleOptions(name=name, namespace=namespace or app.namespace, all_fields=all_fields),
    )
    for problem in sample.problems:
        click.echo(f"warning: {problem}", err=True)
    if output == "json":
        click.echo(json.dumps(sample.value, indent=2, ensure_ascii=False))
    elif no_comments:
        click.echo(dump(sample.value), nl=False)
    else:
        click.echo(dump(sample.value, comments=sample.comments, header=sample.header()), nl=False)
