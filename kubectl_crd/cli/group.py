"""The click side of ``kubectl crd``: the root group, help, and every command's parsing.

``root.main`` comes here for any command line its click-free parser declines (help,
usage errors, commands that are not fast-path). Commands come from the one registry,
``cli.commands.COMMANDS``, and load lazily: a module defines a click ``command``, or,
for a fast-path command, declares its flags (``DeclaredCommand``) and the click
command is built here from them. Either way the global flags are accepted after the
command's name too, hidden from its help as kubectl hides them (``cli.options``).
"""

from __future__ import annotations

import importlib
import sys

import click

from kubectl_crd import __version__
from kubectl_crd.cli.app import GLOBAL_FLAGS, Application, debug_from_env
from kubectl_crd.cli.commands import COMMANDS, declared_command
from kubectl_crd.cli.options import attached_short_values, click_options, kubectl_command

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class LazyGroup(click.Group):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, attached_short_values(self, ctx, args))

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        if entry.fast_path:
            return built_command(cmd_name)
        command: click.Command = importlib.import_module(entry.module_name).command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(entry.name, entry.short_help) for entry in COMMANDS.values()])


def built_command(name: str) -> click.Command:
    """The click command of fast-path command ``name``, from its declarations."""
    module = declared_command(name)

    def run(app: Application, /, **params: object) -> None:
        module.run(app, **params)

    run = click.argument(module.ARGUMENT, nargs=-1)(run)
    run = click_options(module.FLAGS)(run)
    return kubectl_command(name, help=module.HELP)(run)


@click.group(cls=LazyGroup, context_settings=CONTEXT_SETTINGS)
@click_options(GLOBAL_FLAGS)
@click.version_option(
    __version__, "--version", prog_name="kubectl-crd", message="%(prog)s %(version)s"
)
@click.pass_context
def cli(
    ctx: click.Context,
    kubeconfig: str | None,
    context: str | None,
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
        context=context,
        namespace=namespace,
        request_timeout=request_timeout,
        debug=debug or debug_from_env(),
    )


def run_click(args: list[str]) -> None:
    """Parse and run ``args`` with click; click's own outcomes become exit codes here."""
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
