"""The command registry: one entry per command, pinned, and each entry's promises kept."""

from __future__ import annotations

import importlib
import pkgutil
import runpy
from pathlib import Path

import click
import pytest

from kubectl_crd.cli import commands
from kubectl_crd.cli.commands import COMMANDS, declared_command
from kubectl_crd.cli.group import cli
from tests.cli_runner import run_cli

BENCH = Path(__file__).resolve().parents[3] / "bench" / "fast_path_bench.py"


def test_the_registry_is_pinned() -> None:
    assert [(entry.name, entry.fast_path) for entry in COMMANDS.values()] == [
        ("explain", True),
        ("sample", True),
        ("validate", False),
        ("get", True),
        ("columns", False),
        ("scale", True),
        ("dev", False),
        ("workbench", False),
        ("completion", False),
    ]


def test_every_command_module_is_registered_and_nothing_else_is_a_command() -> None:
    modules = {info.name for info in pkgutil.iter_modules(commands.__path__)}
    assert modules == set(COMMANDS)


def test_every_fast_path_command_has_a_benchmark_row() -> None:
    rows = runpy.run_path(str(BENCH))["COMMAND_LINES"]
    fast = {name for name, entry in COMMANDS.items() if entry.fast_path}
    assert set(rows) == fast
    for name, args in rows.items():
        assert args[0] == name


@pytest.mark.parametrize("name", [n for n, e in COMMANDS.items() if e.fast_path])
def test_fast_path_modules_declare_their_flags_and_no_click_command(name: str) -> None:
    module = declared_command(name)
    assert module.HELP.strip()
    assert module.FLAGS
    assert not hasattr(module, "command")


@pytest.mark.parametrize("name", [n for n, e in COMMANDS.items() if not e.fast_path])
def test_other_modules_define_a_click_command_of_their_name(name: str) -> None:
    command = importlib.import_module(COMMANDS[name].module_name).command
    assert isinstance(command, click.Command)
    assert command.name == name


def test_short_help_comes_from_the_registry_only() -> None:
    listed = run_cli("--help").stdout
    for entry in COMMANDS.values():
        first_words = " ".join(entry.short_help.split()[:3])
        assert first_words in listed
    with click.Context(cli) as ctx:
        assert cli.list_commands(ctx) == list(COMMANDS)
