"""The ``kubectl crd`` root command: kubectl's global flags and lazily loaded subcommands.

Subcommand modules are imported only when invoked, so ``kubectl crd --help`` and the
offline commands start fast. Errors leave through ``main``: a one-line ``error: ...``
on stderr and kubectl's exit codes; a traceback only with ``--debug`` or
``KUBECTL_CRD_DEBUG=1``.
"""

from __future__ import annotations

import importlib
import sys
import traceback

import click

from kubectl_crd import __version__
from kubectl_crd.cli.app import Application, debug_from_env
from kubectl_crd.model.errors import ExitCode, KubectlCrdError

# name -> (module under kubectl_crd.cli.commands, one-line help shown before import)
COMMANDS: dict[str, tuple[str, str]] = {
    "explain": ("explain", "Explain the fields of a custom resource, offline or from a cluster."),
    "sample": ("sample", "Print a skeleton custom resource for a CRD."),
    "validate": ("validate", "Validate custom resources against their CRDs, offline."),
    "get": ("get", "Show custom resources with the CRD's printer columns."),
    "scale": ("scale", "Scale custom resources through the /scale subresource."),
    "dev": ("dev", "Run a Python reconciler locally with hot reload."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(f"kubectl_crd.cli.commands.{entry[0]}")
        command: click.Command = module.command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_) for name, (_, help_) in COMMANDS.items()])


CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=LazyGroup, context_settings=CONTEXT_SETTINGS)
@click.option(
    "--kubeconfig", metavar="PATH", help="Path to the kubeconfig file to use for CLI requests."
)
@click.option(
    "--context", "context_name", metavar="NAME", help="The name of the kubeconfig context to use."
)
@click.option(
    "-n", "--namespace", metavar="NS", help="If present, the namespace scope for this CLI request."
)
@click.option(
    "--request-timeout",
    metavar="DURATION",
    help="The length of time to wait before giving up on a single server request (e.g. 1s, 2m, 3h; 0 = no timeout).",
)
@click.option(
    "--debug", is_flag=True, help="Show tracebacks for errors (or set KUBECTL_CRD_DEBUG=1)."
)
@click.version_option(
    __version__, "--version", prog_name="kubectl-crd", message="%(prog)s %(version)s"
)
@click.pass_context
def cli(
    ctx: click.Context,
    kubeconfig: str | None,
    context_name: str | None,
    namespace: str | None,
    request_timeout: str | None,
    debug: bool,
) -> None:
    """kubectl crd: explain, validate and operate CustomResourceDefinitions.

    Works offline from CRD files (--crd) or live against the cluster of the current
    kubeconfig context.
    """
    ctx.obj = Application(
        kubeconfig=kubeconfig,
        context=context_name,
        namespace=namespace,
        request_timeout=request_timeout,
        debug=debug or debug_from_env(),
    )


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args or debug_from_env()
    try:
        cli.main(args=args, prog_name="kubectl crd", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except KubectlCrdError as exc:
        _report(f"error: {exc}", debug)
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        # Output piped into `head` and friends: not an error for the user.
        _silence_stdout()
        sys.exit(ExitCode.OK)
    except Exception as exc:
        _report(
            f"error: internal error: {type(exc).__name__}: {exc} (rerun with --debug for a traceback)",
            debug,
        )
        sys.exit(ExitCode.INTERNAL)
    sys.exit(ExitCode.OK)


def _report(message: str, debug: bool) -> None:
    if debug:
        traceback.print_exc()
    click.echo(message, err=True)


def _silence_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
