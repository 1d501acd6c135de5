"""``kubectl crd workbench RESOURCE [-f FILE]``: one screen to write a custom resource.

Finds the CRD as ``explain`` does (``--crd`` files, else the cluster), resolves the
version (``--api-version`` or the preferred one), creates FILE from ``kubectl crd
sample`` when it does not exist, and runs the screen of ``output.workbench`` over a
``Session``. Textual is imported here, inside the command, and nowhere else.
"""

from __future__ import annotations

import os
import sys

import click

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import CRD_PATHS, SWITCH, VALUE, Flag, api_version_flag
from kubectl_crd.cli.options import click_options, kubectl_command
from kubectl_crd.model.errors import KubectlCrdError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kubectl_crd.output.workbench.live import ClusterObjects

FLAGS = (
    Flag(
        ("-f", "--filename"),
        "filename",
        VALUE,
        "The custom resource to write (default: ./<singular>.yaml); created from "
        "kubectl crd sample when it does not exist.",
        metavar="FILE",
    ),
    CRD_PATHS,
    api_version_flag("The version to write (default: the preferred version, as explain)."),
    Flag(
        ("--old",),
        "old_path",
        VALUE,
        "Check FILE as an update of the object in this file (transition rules with "
        "oldSelf, ratcheting) instead of as a create.",
        metavar="PATH",
    ),
    Flag(
        ("--against-cluster",),
        "against_cluster",
        SWITCH,
        "Check FILE as an update of the object of the same name (and namespace) on the "
        "cluster, read as get reads it; a create when the cluster has none (the status "
        "line says so, and when the cluster cannot be reached).",
    ),
)

HELP = """Write a custom resource on one screen: its CRD's fields, live validation, the
printer columns and the stored object.

\b
Examples:
  kubectl crd workbench crontab -f my-cron.yaml --crd examples/crds/
  kubectl crd workbench workflows.argoproj.io -f wf.yaml --old wf-live.yaml
  kubectl crd workbench crontab -f my-cron.yaml --against-cluster

\b
The screen shows the field tree of the CRD version (/ searches it) with the selected
field's explanation and extras, the object's errors as the API server would answer a
create (or with --old / --against-cluster an update) with line:column, and the rows
kubectl get and kubectl get -o wide would print. f opens the editor pane (YAML
highlighted; checked as you type, Ctrl-S saves, Esc leaves it); e opens $VISUAL or
$EDITOR on the file (at the selected error's line); the screen follows every save.
Keys:
  /  search fields     j  error -> its field    g  error -> its line   n  next error
  f  editor pane       e  $EDITOR               x  explanation         s  stored object
  w  get -o wide       d  next object of the kind in the file (title: 2/3)
  Ctrl-S  save         q or Ctrl-C  quit

The file is written only by Ctrl-S (and $EDITOR), except that a FILE which does not
exist is created from kubectl crd sample (the status line says so). Quitting, or the
file changing on disk, while the editor pane holds unsaved edits asks first: save,
discard or cancel; ending without asking (the terminal gone, SIGTERM, a crash) keeps
them in FILE.unsaved, which the next workbench on FILE offers back. Esc followed by a
key is Esc, then the key (there are no Alt keys). Needs a terminal of at least 60x16.
Colours follow NO_COLOR.
"""


@kubectl_command("workbench", help=HELP)
@click.argument("resource", nargs=1)
@click_options(FLAGS)
def command(
    app: Application,
    resource: str,
    filename: str | None,
    crd_paths: tuple[str, ...],
    api_version: str | None,
    old_path: str | None,
    against_cluster: bool,
) -> None:
    from kubectl_crd.model.explain import resolve_target

    source = app.crd_source(crd_paths)
    crds = source.crds()
    for problem in source.problems():  # a CRD without a schema, say: why it is missing
        print(f"warning: skipped a CRD: {problem}", file=sys.stderr)
    target = resolve_target(crds, resource, api_version=api_version)
    if target.path:
        raise UsageError(f"workbench takes a resource, not a field path: {resource}")
    from kubectl_crd.output.workbench.session import Session, create_from_sample

    path = filename or f"{target.crd.names.singular or target.crd.names.kind.lower()}.yaml"
    if os.path.isdir(path):
        raise UsageError(f"-f {path}: is a directory; name a file")
    if old_path is not None and against_cluster:
        raise UsageError("--old and --against-cluster both name the old object: give one")
    if old_path is not None and not os.path.isfile(old_path):
        raise UsageError(f"--old {old_path}: no such file")
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise UsageError("workbench needs a terminal: standard input or output is not one")
    cluster = _cluster_objects(app) if against_cluster else None
    session = Session(target, path, old_path=old_path, old=cluster, namespace=app.namespace)
    try:
        from kubectl_crd.output.workbench.app import run_workbench
    except ImportError as exc:  # a krew install ships no dependencies
        raise KubectlCrdError(
            f"workbench needs textual ({exc}): pip install 'textual>=8.2,<9'"
        ) from exc
    try:
        created = create_from_sample(session)
    except OSError as exc:
        raise KubectlCrdError(f"cannot create {path}: {exc.strerror or exc}") from exc
    colour = not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    # the title line shows the path; the status line says the file is new
    try:
        code = run_workbench(
            session, note="created from kubectl crd sample" if created else "", colour=colour
        )
    finally:
        if cluster is not None:
            cluster.client.close()
    if code:  # the terminal went away: nothing to print to, and nobody to read it
        os._exit(code)
    if created:
        print(f"created {path} from kubectl crd sample", file=sys.stderr)


#: each request for the live object, unless --request-timeout says otherwise: a cluster
#: that does not answer leaves the check a create after this, not "checking" for ever
CLUSTER_TIMEOUT = "10s"


def _cluster_objects(app: Application) -> ClusterObjects:
    """The live objects, read by a client that prints nothing (its warnings would land
    on the screen), never prompts (an exec plugin asking would block the screen) and
    bounds each request (``CLUSTER_TIMEOUT``)."""
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.output.workbench.live import ClusterObjects

    config = app.cluster
    if not config.request_timeout:
        config = ClusterConfig(
            kubeconfig=config.kubeconfig,
            context=config.context,
            namespace=config.namespace,
            request_timeout=CLUSTER_TIMEOUT,
            impersonate_user=config.impersonate_user,
            impersonate_groups=config.impersonate_groups,
        )
    client = KubeClient(config, on_warning=lambda _: None, stdin_is_terminal=False)
    return ClusterObjects(client)
