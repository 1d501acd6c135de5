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
from kubectl_crd.cli.options import (
    FlagValueError,
    attached_short_values,
    click_options,
    kubectl_command,
    with_context,
)
from kubectl_crd.model.errors import ExitCode, UsageError
from kubectl_crd.model.gostrconv import write_go_text

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class LazyGroup(click.Group):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return with_context(
            ctx,
            lambda: super(LazyGroup, self).parse_args(ctx, attached_short_values(self, ctx, args)),
        )

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

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if not name.startswith("-") and self.get_command(ctx, name) is None:
            # cobra's words (kubectl: 'unknown command "x" for "kubectl"')
            raise click.UsageError(f'unknown command "{name}" for "{ctx.command_path}"', ctx)
        return super().resolve_command(ctx, args)

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
    except click.exceptions.Abort as exc:
        # Ctrl-C: 130 and nothing more, as kubectl (Go dies of the signal); click's
        # "Aborted!" only for an abort of its own (a prompt answered with EOF)
        if not isinstance(exc.__cause__, KeyboardInterrupt):
            click.echo("Aborted!", err=True)
        sys.exit(130)
    except click.exceptions.NoArgsIsHelpError as exc:
        # bare `kubectl crd`: the help on stdout and success, as bare kubectl
        click.echo(exc.ctx.get_help())
        sys.exit(ExitCode.OK)
    except click.UsageError as exc:
        write_go_text(sys.stderr, "\n".join(usage_error_lines(exc)) + "\n")
        sys.exit(UsageError.exit_code)
    except click.ClickException as exc:
        write_go_text(sys.stderr, f"error: {exc.format_message()}\n")
        sys.exit(exc.exit_code)


def usage_error_lines(exc: click.UsageError) -> tuple[str, str]:
    """A command line click refused, in kubectl's two lines: the error, and where help is.

    Flag errors are pflag's (``github.com/spf13/pflag/flag.go``: ``unknown flag: --x``,
    ``unknown shorthand flag: 'x' in -x``, ``flag needs an argument: 'o' in -o``,
    ``invalid argument "v" for "-o, --output" flag: ...``) followed by cobra's ``See
    'kubectl get --help' for usage.``; argument errors are kubectl's ``UsageErrorf``
    (``k8s.io/kubectl/pkg/cmd/util/helpers.go``), followed by ``See 'kubectl create
    configmap -h' for help and examples``.
    """
    path = exc.ctx.command_path if exc.ctx is not None else "kubectl crd"
    flag_hint = f"See '{path} --help' for usage."
    if isinstance(exc, click.NoSuchOption):
        name = exc.option_name
        if name.startswith("--"):
            return f"error: unknown flag: {name}", flag_hint
        return f"error: unknown shorthand flag: '{name[1:]}' in {name}", flag_hint
    if isinstance(exc, click.BadOptionUsage):
        name = exc.option_name
        if name.startswith("--"):
            return f"error: flag needs an argument: {name}", flag_hint
        return f"error: flag needs an argument: '{name[1:]}' in {name}", flag_hint
    if isinstance(exc, FlagValueError):
        return f"error: {exc.message}", flag_hint
    command = exc.ctx.command.name if exc.ctx is not None else "kubectl crd"
    if isinstance(exc, click.MissingParameter) and isinstance(exc.param, click.Argument):
        # kubectl logs: "POD or TYPE/NAME is a required argument for the logs command"
        argument = (exc.param.name or "").upper()
        message = f"{argument} is a required argument for the {command} command"
    elif isinstance(exc, click.BadParameter) and exc.param is not None:
        message = f"invalid {exc.param.human_readable_name}: {exc.message}"
    else:
        message = exc.message
    if exc.ctx is not None and isinstance(exc.ctx.command, click.Group):
        return f"error: {message}", flag_hint
    return f"error: {message}", f"See '{path} -h' for help and examples"
