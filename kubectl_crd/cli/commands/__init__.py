"""Every ``kubectl crd`` command, registered once, here.

To add a command, write ``cli/commands/<name>.py`` defining ``command`` with
``cli.options.kubectl_command`` (the ``Application`` comes in as the first argument,
kubectl's global flags are accepted after the command's name, shared flags come from
``cli.options.click_options`` over ``cli.flags`` declarations, heavy imports go inside
the function) and add one ``Command`` line to ``COMMANDS``. Its one-line help is
written here and nowhere else: ``--help`` lists the commands without importing them.

A command is ``fast_path`` (parsed without click by ``cli.root``, see ``cli.flags``)
only where a row of ``bench/fast_path_bench.py`` shows that it pays; its module then
declares ``HELP``, ``ARGUMENT``, ``FLAGS`` and ``run`` (``DeclaredCommand``) instead
of a click command, and ``cli.group`` builds the click command from them.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Concatenate, Protocol

    from kubectl_crd.cli.app import Application
    from kubectl_crd.cli.flags import Flag

    class DeclaredCommand(Protocol):
        """A fast-path command module: its flags declared as data, ``run`` free of click."""

        @property
        def HELP(self) -> str:
            """The long help (``kubectl crd NAME --help``)."""

        @property
        def ARGUMENT(self) -> str:
            """The parameter that takes the positionals (any number of words)."""

        @property
        def FLAGS(self) -> Sequence[Flag]: ...

        @property
        def run(self) -> Callable[Concatenate[Application, ...], None]: ...


class Command:
    """One registry entry: the name, its one-line help, and whether it is fast-path."""

    __slots__ = ("fast_path", "name", "short_help")

    def __init__(self, name: str, short_help: str, *, fast_path: bool = False) -> None:
        self.name = name
        self.short_help = short_help
        self.fast_path = fast_path

    @property
    def module_name(self) -> str:
        return f"{__name__}.{self.name}"


#: In ``kubectl crd --help`` order. ``fast_path`` needs a row in bench/fast_path_bench.py.
COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        Command(
            "explain",
            "Explain the fields of a custom resource, offline or from a cluster.",
            fast_path=True,
        ),
        Command("sample", "Print a skeleton custom resource for a CRD.", fast_path=True),
        Command("validate", "Validate custom resources against their CRDs, offline."),
        Command("get", "Show custom resources with the CRD's printer columns.", fast_path=True),
        Command("columns", "Show a CRD's printer columns, checked against its schema."),
        Command("scale", "Scale custom resources through the /scale subresource.", fast_path=True),
        Command("dev", "Run a Python reconciler in a local loop that reloads it on save."),
        Command("workbench", "Write a custom resource on one screen, checked on every save."),
        Command("completion", "Print a script completing kubectl-crd in bash, zsh or fish."),
    )
}


def declared_command(name: str) -> DeclaredCommand:
    """The module of fast-path command ``name``."""
    # __import__ rather than importlib.import_module: importing importlib costs ~2 ms
    module: DeclaredCommand = __import__(f"{__name__}.{name}", fromlist=["run"])
    return module


if TYPE_CHECKING:
    # mypy checks each fast-path module against the protocol here.
    from kubectl_crd.cli.commands import explain, sample, scale

    _EXPLAIN: DeclaredCommand = explain
    _SAMPLE: DeclaredCommand = sample
    _SCALE: DeclaredCommand = scale
