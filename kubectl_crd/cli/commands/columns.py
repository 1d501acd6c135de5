"""``kubectl crd columns RESOURCE``: each version's printer columns, checked, with a preview.

For every served version: the ``additionalPrinterColumns`` (name, type, format,
priority, JSONPath), each path checked against the version's schema
(``model.columncheck``: a path that can never match, a type that cannot render the
schema's), and a preview: the row ``kubectl get -o wide`` would print for the object
``kubectl crd sample`` makes, computed by the same code as ``get``.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import click

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import CRD_PATHS, api_version_flag
from kubectl_crd.cli.options import click_options, kubectl_command
from kubectl_crd.model.errors import ExitCode, UsageError

FLAGS = (
    CRD_PATHS,
    api_version_flag("Only this version (default: every served version)."),
)

HELP = """Show a CRD's printer columns per version, each path checked against the schema.

\b
Examples:
  kubectl crd columns crontabs --crd examples/crds/
  kubectl crd columns httproutes --api-version gateway.networking.k8s.io/v1

Each column's JSONPath is walked through the version's schema: a path that can never
match, or a column type that cannot show the schema's type, is flagged (exit code 1).
A preview row shows what kubectl get -o wide would print for the object kubectl crd
sample makes.
"""


@kubectl_command("columns", help=HELP)
@click.argument("resource", nargs=1)
@click_options(FLAGS)
def command(
    app: Application, resource: str, crd_paths: tuple[str, ...], api_version: str | None
) -> None:
    from kubectl_crd.model.columncheck import check_column_path
    from kubectl_crd.model.columns import plan_columns
    from kubectl_crd.model.sample import build_sample
    from kubectl_crd.output.table import TableOptions, render_table, tabwriter
    from kubectl_crd.sources.base import find_crd
    from kubectl_crd.validation.sample_checks import checked_sample_options

    match = find_crd(app.crd_source(crd_paths), resource)
    crd = match.crd
    wanted = api_version.rpartition("/")[2] if api_version else match.version
    versions = [v for v in crd.served_versions if wanted is None or v.name == wanted]
    if not versions:
        raise UsageError(f"{crd.name} serves no version {wanted}")
    flagged = False
    for number, version in enumerate(versions):
        if number:
            sys.stdout.write("\n")
        marks = ", storage" if version.storage else ""
        sys.stdout.write(f"{crd.group}/{version.name} (served{marks})\n")
        columns = version.printer_columns
        if not columns:
            sys.stdout.write("no printer columns: kubectl get shows NAME and AGE\n")
        else:
            rows = [["NAME", "TYPE", "FORMAT", "PRIORITY", "JSONPATH", "CHECK"]]
            for column in columns:
                problem = check_column_path(column.json_path, column.type, version.schema)
                flagged = flagged or (bool(problem) and not problem.startswith("not checked"))
                rows.append(
                    [
                        column.name,
                        column.type,
                        column.format or "-",
                        str(column.priority),
                        column.json_path,
                        problem or "ok",
                    ]
                )
            sys.stdout.write(tabwriter(rows))
        sample = build_sample(crd, version, checked_sample_options())
        plan = plan_columns(columns)
        shown = {**sample.value, "metadata": {**sample.value["metadata"]}}
        # as just created: the AGE column shows 0s rather than <unknown>
        shown["metadata"]["creationTimestamp"] = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        preview = render_table(plan, [shown], TableOptions(wide=True))
        sys.stdout.write("preview (kubectl crd sample, as kubectl get -o wide):\n")
        sys.stdout.write("".join(f"  {line}\n" for line in preview.splitlines()))
    sys.stdout.flush()
    if flagged:
        sys.exit(ExitCode.ERROR)
