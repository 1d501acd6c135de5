"""``kubectl crd get RESOURCE [NAME...]``: custom resources in a table, cell for cell as
``kubectl get`` shows them.

From files (``-f``), each object is first pruned and defaulted by the validation engine as
the API server would store it; an object the server would reject is still shown, with its
error on stderr. Without ``-f``, the objects are listed from the cluster and the columns
are computed locally by ``model.columns`` (the same code as offline, so both agree; the
server's Table is what the differential tests compare against). Exit codes: 0, 1 for
errors (unknown resource, unreachable cluster, rejected objects), 2 for bad arguments.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import COUNT, CRD_PATHS, REPEATED, SWITCH, VALUE, Flag
from kubectl_crd.cli.options import click_options, kubectl_command
from kubectl_crd.model.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition

FLAGS = (
    Flag(
        ("-f", "--filename"),
        "filenames",
        REPEATED,
        "Files or directories (read recursively) with the objects to show, offline.",
        metavar="PATH",
    ),
    CRD_PATHS,
    Flag(
        ("-A", "--all-namespaces"),
        "all_namespaces",
        SWITCH,
        "List the requested objects across all namespaces.",
    ),
    Flag(
        ("-l", "--selector"),
        "selector",
        VALUE,
        "Label selector to filter on (cluster only).",
        metavar="SELECTOR",
    ),
    Flag(
        ("--field-selector",),
        "field_selector",
        VALUE,
        "Field selector to filter on (cluster only): metadata.name, metadata.namespace "
        "and the CRD's selectableFields, e.g. --field-selector metadata.name=a.",
        metavar="SELECTOR",
    ),
    Flag(
        ("--chunk-size",),
        "chunk_size",
        COUNT,
        "List from the cluster in pages of this many objects (0: all at once), as kubectl.",
        default=500,
        show_default=True,
    ),
    Flag(
        ("-o", "--output"),
        "output",
        VALUE,
        "Output format: wide, name, json, yaml, jsonpath=TEMPLATE, custom-columns=SPEC.",
        metavar="FORMAT",
        default="",
    ),
    Flag(("--no-headers",), "no_headers", SWITCH, "Do not print headers."),
    Flag(
        ("--sort-by",),
        "sort_by",
        VALUE,
        "Sort by the value of this JSONPath (e.g. '{.metadata.name}' or .spec.size).",
        metavar="JSONPATH",
    ),
    Flag(
        ("--show-labels",),
        "show_labels",
        SWITCH,
        "Show all labels as the last column.",
    ),
    Flag(
        ("-L", "--label-columns"),
        "label_columns",
        REPEATED,
        "A label key to show as a column (repeatable, or comma-separated).",
        metavar="KEY",
    ),
)

HELP = """Show custom resources with their CRD's printer columns, as kubectl get does.

\b
Examples:
  kubectl crd get crontabs -f examples/ --crd crds/
  kubectl crd get crontabs -A -o wide
  kubectl crd get ct my-cron -o jsonpath='{.spec.schedule}'

With -f, objects are pruned and defaulted as the API server would store them first;
without -f they are listed from the cluster of the current context.
"""


@kubectl_command("get", help=HELP)
@click.argument("arguments", nargs=-1, metavar="RESOURCE [NAME...]")
@click_options(FLAGS)
def command(
    app: Application,
    filenames: tuple[str, ...],
    crd_paths: tuple[str, ...],
    all_namespaces: bool,
    selector: str | None,
    field_selector: str | None,
    chunk_size: int,
    output: str,
    no_headers: bool,
    sort_by: str | None,
    show_labels: bool,
    label_columns: tuple[str, ...],
    arguments: tuple[str, ...],
) -> None:
    if not arguments:
        raise UsageError("You must specify the type of resource to get.")
    options = {
        "filenames": filenames,
        "crd_paths": crd_paths,
        "all_namespaces": all_namespaces,
        "selector": selector,
        "field_selector": field_selector,
        "chunk_size": chunk_size,
        "output": output,
        "no_headers": no_headers,
        "sort_by": sort_by,
        "show_labels": show_labels,
        "label_columns": label_columns,
    }
    run(app, arguments[0], arguments[1:], options)


def run(
    app: Application,
    resource: str,
    names: tuple[str, ...],
    options: dict[str, Any],
) -> None:
    """The command's body, separate from click's argument handling."""
    from kubectl_crd.model.columns import plan_columns
    from kubectl_crd.output.table import TableOptions, render_table

    output: str = options["output"]
    _check_output(output)
    crd, version, objects, failed = (
        _from_files(app, resource, names, options)
        if options["filenames"]
        else _from_cluster(app, resource, names, options)
    )
    if not objects:
        if not failed:
            scope = "" if options["all_namespaces"] or not crd.namespaced else None
            if scope is None:
                namespace = app.namespace or "default"
                print(f"No resources found in {namespace} namespace.", file=sys.stderr)
            else:
                print("No resources found", file=sys.stderr)
        if failed:
            sys.exit(ExitCode.ERROR)
        return
    if options["sort_by"]:
        from kubectl_crd.output.table import sort_objects

        objects = sort_objects(objects, _compiled(_relaxed(options["sort_by"])))
    if output in ("", "wide"):
        plan = plan_columns(version.printer_columns)
        if plan.problem:
            print(f"warning: {plan.problem}", file=sys.stderr)
        labels = tuple(k.strip() for keys in options["label_columns"] for k in keys.split(","))
        table = TableOptions(
            wide=output == "wide",
            all_namespaces=options["all_namespaces"] and crd.namespaced,
            no_headers=options["no_headers"],
            show_labels=options["show_labels"],
            label_columns=tuple(k for k in labels if k),
        )
        sys.stdout.write(render_table(plan, objects, table))
    else:
        sys.stdout.write(_formatted(output, crd, objects, single=len(names) == 1))
    if failed:
        sys.exit(ExitCode.ERROR)


def _check_output(output: str) -> None:
    known = ("", "wide", "name", "json", "yaml")
    if output in known or output.startswith(("jsonpath=", "custom-columns=")):
        return
    raise UsageError(
        f'unable to match a printer suitable for the output format "{output}", allowed '
        "formats are: custom-columns,json,jsonpath,name,wide,yaml"
    )


def _formatted(
    output: str, crd: CustomResourceDefinition, objects: list[Any], *, single: bool
) -> str:
    """``-o name|json|yaml|jsonpath=|custom-columns=`` as kubectl prints them."""
    from kubectl_crd.model.jsonpath import JSONPath, go_print, print_results

    if output == "name":
        resource = f"{crd.names.singular or crd.names.kind.lower()}.{crd.group}"
        return "".join(f"{resource}/{_name(obj)}\n" for obj in objects)
    document: Any = (
        objects[0]
        if single
        else {
            "apiVersion": "v1",
            "items": objects,
            "kind": "List",
            "metadata": {"resourceVersion": ""},
        }
    )
    if output == "json":
        return json.dumps(document, indent=4, ensure_ascii=False) + "\n"
    if output == "yaml":
        from kubectl_crd.io import dump_yaml

        return dump_yaml(document)
    if output.startswith("jsonpath="):
        template = output.removeprefix("jsonpath=")
        path = _compiled(template)
        # kubectl's JSONPath printer sees the object through a JSON round trip:
        # every number is a float64 there (cli-runtime printers/jsonpath.go).
        data = json.loads(json.dumps(document), parse_int=float)
        return "".join(print_results(values) for values in path.find_results(data))
    specification = output.removeprefix("custom-columns=")
    headers: list[str] = []
    paths: list[JSONPath] = []
    for part in specification.split(","):
        header, sep, expression = part.partition(":")
        if not sep:
            raise UsageError(
                f"unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
            )
        headers.append(header)
        paths.append(_compiled(_relaxed(expression)))
    from kubectl_crd.output.table import tabwriter

    lines = [headers]
    for obj in objects:
        line = []
        for path in paths:
            values = [v for found in path.find_results(obj) for v in found]
            # cli-runtime printers/customcolumn.go: each value fmt.Sprint'ed, joined by ","
            line.append(",".join(go_print(v) for v in values) if values else "<none>")
        lines.append(line)
    return tabwriter(lines)


def _relaxed(expression: str) -> str:
    """kubectl's ``RelaxedJSONPathExpression``: ``spec.x`` or ``.spec.x`` as ``{.spec.x}``."""
    text = expression.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    if not text.startswith("."):
        text = "." + text
    return "{" + text + "}"


def _compiled(template: str) -> Any:
    from kubectl_crd.model.jsonpath import JSONPath, JSONPathError

    try:
        return JSONPath(template, allow_missing_keys=True)
    except JSONPathError as exc:
        raise UsageError(f"error parsing jsonpath {template}, {exc}") from None


def _name(obj: Any) -> str:
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    name = metadata.get("name", "") if isinstance(metadata, dict) else ""
    return name if isinstance(name, str) else ""


def _version(crd: CustomResourceDefinition, wanted: str | None) -> CRDVersion:
    for version in crd.versions:
        if version.name == wanted:
            return version
    return crd.preferred_version


def _from_files(
    app: Application, resource: str, names: tuple[str, ...], options: dict[str, Any]
) -> tuple[CustomResourceDefinition, CRDVersion, list[Any], bool]:
    from kubectl_crd.io import expand_paths, read_inputs
    from kubectl_crd.sources.base import find_crd
    from kubectl_crd.sources.fake import FakeSource
    from kubectl_crd.sources.files import FileSource
    from kubectl_crd.validation.documents import CRDIndex, validate_document

    documents = list(read_inputs(list(expand_paths(options["filenames"]))))
    given = list(FileSource(options["crd_paths"]).crds())
    from kubectl_crd.validation.documents import _crd_or_none

    given.extend(crd for crd in map(_crd_or_none, documents) if crd is not None)
    if not given and not options["crd_paths"]:
        from kubectl_crd.sources.cluster import ClusterSource

        given = list(ClusterSource(app.cluster).crds())
    match = find_crd(FakeSource(given), resource)
    crd = match.crd
    version = _version(crd, match.version)
    index = CRDIndex(given)
    objects: list[Any] = []
    failed = False
    for document in documents:
        content = document.content
        if not isinstance(content, dict):
            continue
        api_version = str(content.get("apiVersion", ""))
        if content.get("kind") != crd.names.kind or api_version.split("/")[0] != crd.group:
            continue
        if names and _name(content) not in names:
            continue
        if app.namespace and crd.namespaced and not options["all_namespaces"]:
            metadata = content.get("metadata") or {}
            if (metadata.get("namespace") or "default") != app.namespace:
                continue
        result = validate_document(document, index)
        if result.status == "valid" and result.stored is not None:
            objects.append(_as_created(result.stored, crd.namespaced, app.namespace))
            continue
        failed = True
        reasons = "; ".join(str(error) for error in result.errors) or result.message
        print(f"error: {result.location}: {result.title}: {reasons}", file=sys.stderr)
        objects.append(_plain(content))
    return crd, version, objects, failed


def _as_created(obj: Any, namespaced: bool, namespace: str | None) -> Any:
    """What the server adds on create and the columns may show: the creation time
    (now, so AGE reads ``0s``) and, for a namespaced kind, the namespace."""
    stored = _plain(obj)
    metadata = stored.setdefault("metadata", {})
    if isinstance(metadata, dict):
        from datetime import UTC, datetime

        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        metadata.setdefault("creationTimestamp", now)
        if namespaced:
            metadata.setdefault("namespace", namespace or "default")
    return stored


def _plain(value: Any) -> Any:
    """A decoded document as plain dicts and lists."""
    return json.loads(json.dumps(value))


def _from_cluster(
    app: Application, resource: str, names: tuple[str, ...], options: dict[str, Any]
) -> tuple[CustomResourceDefinition, CRDVersion, list[Any], bool]:
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.model.errors import ApiError

    client = KubeClient(app.cluster)
    if options["crd_paths"]:
        from kubectl_crd.sources.base import find_crd
        from kubectl_crd.sources.files import FileSource

        match = find_crd(FileSource(options["crd_paths"]), resource)
        crd, wanted = match.crd, match.version
    else:
        # the cached discovery names the resource; only its CRD is read (for the
        # printer columns), never the list of every CRD
        from kubectl_crd.kube.discovery import Discovery
        from kubectl_crd.kube.resolving import Resolver

        discovery = Discovery(client.request, client.server)
        resolver = Resolver(client=client, discovery=discovery, command="get")
        ref, wanted = resolver.by_argument(resource)
        crd = resolver.crd(ref)
    version = _version(crd, wanted)
    base = f"/apis/{crd.group}/{version.name}"
    if crd.namespaced and not options["all_namespaces"]:
        base += f"/namespaces/{client.namespace}"
    base += f"/{crd.names.plural}"
    objects: list[Any] = []
    failed = False
    if names:
        for name in names:
            try:
                objects.append(client.request("GET", f"{base}/{name}"))
            except ApiError as exc:
                print(exc.kubectl_line, file=sys.stderr)
                failed = True
        return crd, version, objects, failed
    query: dict[str, object] = {}
    if options["selector"]:
        query["labelSelector"] = options["selector"]
    if options["field_selector"]:
        query["fieldSelector"] = options["field_selector"]
    if options["chunk_size"]:
        query["limit"] = options["chunk_size"]
    while True:
        # kubectl's resource.Builder with RequestChunksOf: pages joined by continue
        listed = client.request("GET", base, query=query)
        if not isinstance(listed, dict):
            break
        objects.extend(listed.get("items") or [])
        token = (listed.get("metadata") or {}).get("continue")
        if not token or not options["chunk_size"]:
            break
        query["continue"] = token
    return crd, version, objects, failed
