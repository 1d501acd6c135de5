"""``explain -i``'s preview shows kubectl's ``field<TAB><type>`` rows as a terminal does.

kubectl explain separates a field's name from its type with a tab; prompt_toolkit draws
a tab as ``^I``, so the preview must expand it to the next tab stop (every 8 columns)
itself. Driven in tmux with the harness of ``test_explain_interactive_tmux``.
"""

from __future__ import annotations

from tests.integration import test_explain_interactive_tmux as explain_tmux
from tests.integration.test_explain_interactive_tmux import (
    Tmux,
    finished,
    preview_pane,
    start_explorer,
)

tmux = explain_tmux.tmux  # the fixture: one private tmux server per test


def test_the_preview_expands_kubectls_tabs(tmux: Tmux) -> None:
    screen = start_explorer(tmux)
    preview = preview_pane(screen)
    assert "FIELDS:" in preview, screen
    assert "^I" not in preview, preview
    # "  apiVersion" ends at column 12: its tab reaches the stop at 16
    assert "  apiVersion    <string>" in preview.splitlines(), preview
    tmux.keys("Escape")
    tmux.wait_for(finished, "the explorer to quit")
