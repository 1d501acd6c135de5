"""Options that several commands share, declared once so they read and behave alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


def crd_paths_option(func: F) -> F:
    """``--crd PATH`` (repeatable): read CRDs from files instead of the cluster."""
    return click.option(
        "--crd",
        "crd_paths",
        multiple=True,
        metavar="PATH",
        help="Read CRDs from this file or directory instead of the cluster (repeatable).",
    )(func)


def api_version_option(help_text: str) -> Callable[[F], F]:
    """``--api-version GROUP/VERSION``, with the command's own help text."""

    def decorate(func: F) -> F:
        return click.option("--api-version", metavar="GROUP/VERSION", help=help_text)(func)

    return decorate
