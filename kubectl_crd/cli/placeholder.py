"""Placeholder commands for work that a later issue builds; they say so plainly and exit 1."""

from __future__ import annotations

import click

from kubectl_crd.model.errors import NotAvailableError


def not_available(name: str, why: str) -> click.Command:
    @click.command(
        name=name,
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        help=f"Not available yet ({why}).",
        add_help_option=False,
    )
    def placeholder() -> None:
        raise NotAvailableError(
            f'"kubectl crd {name}" is not available yet in this release ({why})'
        )

    return placeholder
