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
from kubectl_crd.model.errors import invalid_flag_value
from kubectl_crd.model.gostrconv import parse_go_bool, parse_go_int

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
            settings["type"] = COUNT_VALUE
        elif flag.choices:
            settings["type"] = OneOf(flag.choices)
    option = click.Option([*flag.names, flag.dest], **settings)
    option.no_value = flag.no_value  # type: ignore[attr-defined]  # read by KubectlCommand
    return option


def flag_label(param: click.Parameter) -> str:
    """pflag's name for a flag in its errors: ``-o, --output``, or ``--output`` alone."""
    opts = getattr(param, "opts", ())
    short = [opt for opt in opts if len(opt) == 2]
    long = [opt for opt in opts if len(opt) > 2]
    return ", ".join((*short[:1], *long[:1])) or str(param.name)


class FlagValueError(click.BadParameter):
    """A flag's value refused in pflag's words (``invalid argument "x" for "--replicas"
    flag: ...``: ``model.errors.invalid_flag_value``)."""

    def __init__(self, value: str, param: click.Parameter, reason: str) -> None:
        super().__init__(invalid_flag_value(value, flag_label(param), reason), param=param)


class OneOf(click.Choice):  # type: ignore[type-arg]  # generic from click 8.3
    """``click.Choice`` refusing in pflag's words (pflag has no choice type: kubectl checks
    such values itself, with the same frame)."""

    name = "choice"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value in self.choices or param is None:
            return super().convert(value, param, ctx)
        raise FlagValueError(
            str(value), param, "must be one of " + ", ".join(map(str, self.choices))
        )


class Count(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.3
    """A non-negative integer, read as pflag's ``IntVar`` reads it (``strconv.ParseInt(s,
    0, 64)``: ``0x10`` is 16, ``010`` is 8, as ``kubectl get --chunk-size`` reads them)."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, int):
            return value
        text = str(value)
        try:
            number = parse_go_int(text)
        except ValueError as exc:
            if param is None:
                self.fail(f"{text!r} is not an integer", param, ctx)
            raise FlagValueError(text, param, str(exc)) from None
        if number < 0:
            if param is None:
                self.fail(f"{number} is negative", param, ctx)
            raise FlagValueError(text, param, "must be 0 or more")
        return number


COUNT_VALUE = Count()


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
    """pflag's spellings that click reads otherwise: ``-o=json`` as ``-ojson`` (click would
    keep the ``=``), and a switch given a value (``--recursive=false``, ``-R=true``) as
    pflag's bool flag reads it: given for true, left out for false, any other value refused
    in pflag's words."""
    options = {
        name: param
        for param in command.get_params(ctx)
        if isinstance(param, click.Option)
        for name in param.opts
    }
    normalised: list[str] = []
    for arg in args:
        name, equals, value = arg.partition("=")
        param = options.get(name) if equals and arg.startswith("-") else None
        if param is None:
            normalised.append(arg)
        elif not param.is_flag:
            normalised.extend((name, value) if len(name) == 2 else (arg,))
        else:
            try:
                given = parse_go_bool(value)
            except ValueError as exc:
                raise FlagValueError(value, param, str(exc)) from None
            if given:
                normalised.append(name)
    return normalised


def with_context(ctx: click.Context, parse: Callable[[], list[str]]) -> list[str]:
    """``parse()``, its usage errors tied to ``ctx`` (click's parser raises some without
    one, and the error's help line names the command)."""
    try:
        return parse()
    except click.UsageError as exc:
        if exc.ctx is None:
            exc.ctx = ctx
        raise


class KubectlCommand(click.Command):
    """A click command that reads kubectl's ``-x=VALUE`` spelling, and a bare flag with a
    ``no_value`` (pflag's NoOptDefVal) as that value; extra positionals are kubectl's
    ``Unexpected args: [...]`` (``k8s.io/kubectl/pkg/cmd/create/create.go``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        bare = {
            name: str(getattr(param, "no_value", None))
            for param in self.get_params(ctx)
            if getattr(param, "no_value", None) is not None
            for name in getattr(param, "opts", ())
        }
        if bare:
            args = [f"{arg}={bare[arg]}" if arg in bare else arg for arg in args]
        # extra positionals are refused below in kubectl's words, not click's
        ctx.allow_extra_args = True
        rest = with_context(
            ctx,
            lambda: super(KubectlCommand, self).parse_args(
                ctx, attached_short_values(self, ctx, args)
            ),
        )
        if ctx.args:
            raise click.UsageError(f"Unexpected args: [{' '.join(ctx.args)}]", ctx)
        return rest


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
