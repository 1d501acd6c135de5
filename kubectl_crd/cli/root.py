"""The ``kubectl crd`` entry point: kubectl's global flags, dispatch, and the error rule.

A command line in the plain forms is parsed here without click (``cli.flags``) and run
at once, so ``kubectl crd explain --crd ...`` does not pay click's 20-25 ms import;
anything else (help, usage errors, the other commands) goes to click (``cli.group``),
which reads the same flag declarations. Errors leave through ``main``: a one-line
``error: ...`` on stderr and kubectl's exit codes; a traceback only with ``--debug``
or ``KUBECTL_CRD_DEBUG=1``.
"""

from __future__ import annotations

import sys

from kubectl_crd.cli.app import Application, debug_from_env
from kubectl_crd.cli.flags import SWITCH, VALUE, Flag, parse_flags
from kubectl_crd.model.errors import ExitCode, KubectlCrdError

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Sequence

# name -> (module under kubectl_crd.cli.commands, one-line help shown before import)
COMMANDS: dict[str, tuple[str, str]] = {
    "explain": ("explain", "Explain the fields of a custom resource, offline or from a cluster."),
    "sample": ("sample", "Print a skeleton custom resource for a CRD."),
    "validate": ("validate", "Validate custom resources against their CRDs, offline."),
    "get": ("get", "Show custom resources with the CRD's printer columns."),
    "scale": ("scale", "Scale custom resources through the /scale subresource."),
    "dev": ("dev", "Run a Python reconciler locally with hot reload."),
}

#: Commands whose modules declare ``FLAGS`` and a click-free ``run``.
DECLARED_COMMANDS = frozenset({"explain", "sample"})

GLOBAL_FLAGS = (
    Flag(
        ("--kubeconfig",),
        "kubeconfig",
        VALUE,
        "Path to the kubeconfig file to use for CLI requests.",
        metavar="PATH",
    ),
    Flag(
        ("--context",),
        "context",
        VALUE,
        "The name of the kubeconfig context to use.",
        metavar="NAME",
    ),
    Flag(
        ("-n", "--namespace"),
        "namespace",
        VALUE,
        "If present, the namespace scope for this CLI request.",
        metavar="NS",
    ),
    Flag(
        ("--request-timeout",),
        "request_timeout",
        VALUE,
        "The length of time to wait before giving up on a single server request "
        "(e.g. 1s, 2m, 3h; 0 = no timeout).",
        metavar="DURATION",
    ),
    Flag(
        ("--debug",),
        "debug",
        SWITCH,
        "Show tracebacks for errors (or set KUBECTL_CRD_DEBUG=1).",
    ),
)


#: The global flags' parameters; they are ``Application``'s attributes too.
GLOBAL_DESTS = tuple(flag.dest for flag in GLOBAL_FLAGS)


def command_flags(own: Sequence[Flag]) -> tuple[Flag, ...]:
    """A declared command's flags, then the global flags it does not declare itself:
    as kubectl's persistent flags, they are accepted after the command name too."""
    names = {name for flag in own for name in flag.names}
    return (*own, *(flag for flag in GLOBAL_FLAGS if names.isdisjoint(flag.names)))


def take_global_flags(app: Application, values: dict[str, object]) -> None:
    """Move the global flags given after the command from ``values`` into ``app``."""
    for dest in GLOBAL_DESTS:
        value = values.pop(dest, None)
        if value is not None and value is not False:
            setattr(app, dest, value)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args or debug_from_env()
    try:
        if not run_declared(args):
            from kubectl_crd.cli.group import run_click

            run_click(args)
    except KubectlCrdError as exc:
        # cluster errors print kubectl's own line ("Error from server ...", no "error: ")
        _report(exc.kubectl_line, debug)
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


def run_declared(args: list[str]) -> bool:
    """Run ``args`` without click if they are plain enough; ``False`` if click must."""
    parsed = parse_flags(GLOBAL_FLAGS, args, stop_at_positional=True)
    if parsed is None or not parsed.positionals or parsed.positionals[0] not in DECLARED_COMMANDS:
        return False
    name, *rest = parsed.positionals
    # __import__ rather than importlib.import_module: importing importlib costs ~2 ms
    module = __import__(f"kubectl_crd.cli.commands.{COMMANDS[name][0]}", fromlist=["run"])
    command = parse_flags(command_flags(module.FLAGS), rest)
    if command is None:
        return False
    app = Application(**parsed.values)  # type: ignore[arg-type]
    take_global_flags(app, command.values)
    app.debug = app.debug or debug_from_env()
    module.run(app, **{module.ARGUMENT: tuple(command.positionals)}, **command.values)
    return True


def _report(message: str, debug: bool) -> None:
    if debug:
        import traceback

        traceback.print_exc()
    print(message, file=sys.stderr)


def _silence_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
