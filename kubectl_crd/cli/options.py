"""The click half of the flag declarations: options from ``cli.flags``, and the command class.

Every command is built with ``kubectl_command``: a click command that hands the
``Application`` in as the first argument, accepts kubectl's global flags after its
name (hidden from its help, as kubectl hides them), and reads kubectl's ``-x=VALUE``
spelling of a short flag. Shared flags (``--crd``, ``--api-version``, ``-o``) are
``Flag`` declarations in ``cli.flags`` turned into options by ``click_options``, the
same declarations the click-free parser reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from kubectl_crd.cli.app import Application, inherited_global_flags, take_global_flags
from kubectl_crd.cli.flags import COUNT, REPEATED, SWITCH, Flag

GLOBAL_FLAGS_EPILOG = (
    'Use "kubectl crd --help" for the global flags (accepted after the command too).'
)


def click_option(flag: Flag, *, hidden: bool = False) -> click.Option:
    """The click option for ``flag``."""
    settings: dict[str, Any] = {"help": flag.help, "hidden": hidden}
    if flag.metavar:
        settings["metavar"] = flag.metavar
    if flag.kind == SWITCH:
        settings["is_flag"] = True
    elif flag.kind == REPEATED:
        settings["multiple"] = True
    else:
        settings["default"] = flag.default
        settings["show_default"] = flag.show_default
        if flag.kind == COUNT:
            settings["type"] = click.IntRange(min=0)
        elif flag.choices:
            settings["type"] = click.Choice(flag.choices)
    option = click.Option([*flag.names, flag.dest], **settings)
    option.no_value = flag.no_value  # type: ignore[attr-defined]  # read by KubectlCommand
    return option


def click_options(
    flags: Sequence[Flag], *, hidden: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A decorator adding ``flags`` to a click command, in the order given."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        params: list[click.Parameter] = func.__dict__.setdefault("__click_params__", [])
        # click reverses the decorators' list when it builds the command
        params.extend(click_option(flag, hidden=hidden) for flag in reversed(flags))
        return func

    return decorate


def attached_short_values(command: click.Command, ctx: click.Context, args: list[str]) -> list[str]:
    """``-o=json`` read as ``-ojson``: pflag (kubectl) takes a short flag's ``=VALUE`` as
    its value where click would keep the ``=``. Only short options that take a value."""
    takes_value = {
        name
        for param in command.get_params(ctx)
        if isinstance(param, click.Option) and not param.is_flag
        for name in param.opts
        if len(name) == 2
    }
    normalised: list[str] = []
    for arg in args:
        if arg[:2] in takes_value and arg[2:3] == "=":
            normalised.extend((arg[:2], arg[3:]))
        else:
            normalised.append(arg)
    return normalised


class KubectlCommand(click.Command):
    """A click command that reads kubectl's ``-x=VALUE`` spelling, and a bare flag with a
    ``no_value`` (pflag's NoOptDefVal) as that value."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        bare = {
            name: str(getattr(param, "no_value", None))
            for param in self.get_params(ctx)
            if getattr(param, "no_value", None) is not None
            for name in getattr(param, "opts", ())
        }
        if bare:
            args = [f"{arg}={bare[arg]}" if arg in bare else arg for arg in args]
        return super().parse_args(ctx, attached_short_values(self, ctx, args))


def kubectl_command(
    name: str, *, help: str, **settings: Any
) -> Callable[[Callable[..., None]], click.Command]:
    """Make ``func(app, **params)`` the click command ``name`` with the global flags.

    The one-line help of a command is the registry's (``cli.commands.COMMANDS``).
    """

    def decorate(func: Callable[..., None]) -> click.Command:
        own = [
            param
            for param in func.__dict__.get("__click_params__", ())
            if isinstance(param, click.Option)
        ]
        declared = {opt for param in own for opt in param.opts}
        inherited = [flag for flag in inherited_global_flags(()) if declared.isdisjoint(flag.names)]

        @click.pass_obj
        def callback(app: Application, /, **params: object) -> None:
            take_global_flags(app, params)
            func(app, **params)

        callback.__dict__["__click_params__"] = list(func.__dict__.get("__click_params__", ()))
        click_options(inherited, hidden=True)(callback)
        settings.setdefault("context_settings", {"max_content_width": 100})
        settings.setdefault("epilog", GLOBAL_FLAGS_EPILOG)
        return click.command(name=name, cls=KubectlCommand, help=help, **settings)(callback)

    return decorate
