"""The click side of ``kubectl crd``: the root group, help, and every command's parsing.

``root.main`` comes here for any command line its click-free parser declines (help,
usage errors, commands without declared flags). Commands load lazily: a module either
defines a click ``command`` or declares ``NAME``, ``SHORT_HELP``, ``HELP``,
``ARGUMENT``, ``FLAGS`` and ``run`` (``cli.flags``), from which the click command is
built here.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

import click

from kubectl_crd import __version__
from kubectl_crd.cli.app import Application, debug_from_env
from kubectl_crd.cli.flags import click_options
from kubectl_crd.cli.root import COMMANDS, GLOBAL_FLAGS, command_flags, take_global_flags


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(f"kubectl_crd.cli.commands.{entry[0]}")
        if hasattr(module, "FLAGS"):
            return declared_command(module)
        command: click.Command = module.command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_) for name, (_, help_) in COMMANDS.items()])


def declared_command(module: ModuleType) -> click.Command:
    """The click command for a module that declares its flags (``cli.flags``)."""

    @click.pass_obj
    def callback(app: Application, /, **params: object) -> None:
        take_global_flags(app, params)
        module.run(app, **params)

    callback.__doc__ = module.HELP
    inherited = command_flags(module.FLAGS)[len(module.FLAGS) :]
    # kubectl too leaves its global flags out of a command's help
    callback = click_options(inherited, hidden=True)(callback)
    callback = click_options(module.FLAGS)(callback)
    callback = click.argument(module.ARGUMENT, nargs=-1)(callback)
    return click.command(
        name=module.NAME,
        short_help=module.SHORT_HELP,
        epilog='Use "kubectl crd --help" for the global flags (accepted after the command too).',
        context_settings={"max_content_width": 100},
    )(callback)


CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


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
