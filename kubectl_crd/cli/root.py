"""The ``kubectl crd`` entry point: kubectl's global flags, dispatch, and the error rule.

The top of the ``cli`` layers (root > group > commands > app, flags). A command line of
a fast-path command (``cli.commands``) in the plain forms is parsed here without click
(``cli.flags``) and run at once, so ``kubectl crd explain --crd ...`` does not pay
click's 20-25 ms import; anything else (help, usage errors, the other commands) goes
to click (``cli.group``), which reads the same flag declarations. Errors leave through ``main``: a one-line
``error: ...`` on stderr (a usage error adds kubectl's help line: ``cli.group``) and
kubectl's exit codes (1; 3 for an internal error); a traceback only with ``--debug``
or ``KUBECTL_CRD_DEBUG=1``.
"""

from __future__ import annotations

import sys

from kubectl_crd.cli.app import (
    GLOBAL_FLAGS,
    Application,
    debug_from_env,
    inherited_global_flags,
    take_global_flags,
)
from kubectl_crd.cli.commands import COMMANDS, declared_command
from kubectl_crd.cli.flags import parse_flags
from kubectl_crd.model.errors import ExitCode, KubectlCrdError
from kubectl_crd.model.gostrconv import write_go_text


def main(argv: list[str] | None = None) -> None:
    """Run the command line ``argv`` (default: the program's own) and exit.

    Run as the program (no ``argv``), the process ends without the interpreter's
    teardown (``_leave``); given ``argv`` (tests, an embedding caller), it raises
    ``SystemExit`` as usual.
    """
    if argv is not None:
        _run(argv)
    try:
        _run(sys.argv[1:])
    except SystemExit as exc:
        _leave(exc.code)


def _run(args: list[str]) -> None:
    if args[:1] == ["__complete"]:  # cobra's hidden command: the shell scripts' entry
        from kubectl_crd.cli.completion import main as complete

        complete(args[1:])
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
    """Run ``args`` without click if they are plain enough; ``False`` if click must.

    Only fast-path commands (``cli.commands.COMMANDS``) are tried.
    """
    parsed = parse_flags(GLOBAL_FLAGS, args, stop_at_positional=True)
    if parsed is None or not parsed.positionals:
        return False
    name, *rest = parsed.positionals
    entry = COMMANDS.get(name)
    if entry is None or not entry.fast_path:
        return False
    module = declared_command(name)
    command = parse_flags((*module.FLAGS, *inherited_global_flags(module.FLAGS)), rest)
    if command is None:
        return False
    app = Application(**parsed.values)  # type: ignore[arg-type]
    take_global_flags(app, command.values)
    app.debug = app.debug or debug_from_env()
    module.run(app, **{module.ARGUMENT: tuple(command.positionals)}, **command.values)
    return True


def _leave(code: str | int | None) -> None:
    """Exit with ``code`` as the interpreter would, minus freeing every object one by
    one: the OS takes the memory back at once. What a command leaves alive is freed
    and garbage-collected at exit otherwise, which took 0.21-0.23 s after
    ``dev --local --once`` over 1,000 Foos (bench/local_bench.py) for nothing. Exit
    functions run (a local control plane's stop, temporary directories) and the
    standard streams are flushed first; a message as the code, a live non-daemon thread,
    or a stream that cannot be flushed takes the interpreter's usual way out instead."""
    import atexit
    import os
    import threading

    waiting = [
        t for t in threading.enumerate() if not t.daemon and t is not threading.main_thread()
    ]
    if isinstance(code, str) or any(t.is_alive() for t in waiting):
        sys.exit(code)
    try:
        _flush_standard_streams()
    except (OSError, ValueError):  # a reader gone, a closed stream: as the interpreter says
        sys.exit(code)
    atexit._run_exitfuncs()  # what the interpreter's exit runs first (Py_FinalizeEx)
    import contextlib

    with contextlib.suppress(OSError, ValueError):  # an exit function may have written
        _flush_standard_streams()
    os._exit(int(code or 0))


def _flush_standard_streams() -> None:
    # a stream is None when its descriptor was closed at start (`kubectl crd ... >&-`)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def _report(message: str, debug: bool) -> None:
    if debug:
        import traceback

        traceback.print_exc()
    write_go_text(sys.stderr, f"{message}\n")  # a template's raw bytes as kubectl writes them


def _silence_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
