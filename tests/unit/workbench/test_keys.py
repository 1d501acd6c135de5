"""Esc followed by a key is Esc, then the key (``app.EscapeIsEscape``): the bytes a
terminal sends for Esc-then-X typed quickly (and for Alt+X, and what tmux or SSH join
into one read) are ESC X, which Textual's own parser reads as Alt+X or, for some X,
as another key altogether. Fed to the parsers as the driver feeds them."""

from __future__ import annotations

import time

import pytest
from textual._xterm_parser import XTermParser

from kubectl_crd.output.workbench.app import EscapeIsEscape


def _keys(parser: XTermParser, data: str, wanted: int) -> list[str]:
    """The keys ``parser`` reads from ``data``, waiting (bounded) for ``wanted`` of
    them: a lone ESC and what follows it are reported once ESCDELAY has run out."""
    keys = [event.key for event in parser.feed(data) if hasattr(event, "key")]
    deadline = time.monotonic() + 5
    while len(keys) < wanted and time.monotonic() < deadline:
        keys += [event.key for event in parser.tick() if hasattr(event, "key")]
    return keys


#: (bytes, what Textual's parser reads, what the workbench reads)
CASES = [
    ("\x1bj", ["alt+j"], ["escape", "j"]),
    ("\x1bb", ["ctrl+left"], ["escape", "b"]),
    ("\x1b3", ["pound_sign"], ["escape", "3"]),
    ("\x1b\x7f", ["ctrl+w"], ["escape", "backspace"]),
    ("\x1b\r", ["enter"], ["escape", "enter"]),
    ("\x1b\x1bq", ["escape", "alt+q"], ["escape", "escape", "q"]),
    ("\x1bO", ["alt+shift+o"], ["escape", "O"]),  # ESC O then nothing: ESCDELAY ran out
    # sequences are still read whole
    ("\x1b[A", ["up"], ["up"]),
    ("\x1bOP", ["f1"], ["f1"]),
    ("\x1b[1;3D", ["alt+left"], ["alt+left"]),
    ("j", ["j"], ["j"]),
]


@pytest.mark.parametrize(("data", "textual", "ours"), CASES)
def test_escape_then_a_key_is_escape_then_the_key(
    data: str, textual: list[str], ours: list[str]
) -> None:
    # the first half pins what Textual does (a Textual that stops doing it makes the
    # parser needless: this says so)
    assert _keys(XTermParser(), data, len(textual)) == textual
    assert _keys(EscapeIsEscape(), data, len(ours)) == ours


def test_the_workbench_reads_its_terminal_with_it() -> None:
    from textual.drivers import linux_driver

    from kubectl_crd.output.workbench import app

    original = linux_driver.XTermParser
    try:
        linux_driver.XTermParser = XTermParser  # type: ignore[misc]
        app._read_escape_as_escape()
        assert linux_driver.XTermParser is EscapeIsEscape
    finally:
        linux_driver.XTermParser = original  # type: ignore[misc]
