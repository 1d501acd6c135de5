"""``explain -i``: a full-screen fuzzy finder over field paths with a live preview.

In the spirit of the kubectl-explore plugin: type to narrow the list of every field
path of the resource (``model.explain.finder.rank``), move with the arrow keys, and
the right-hand pane shows the selected field's explanation as it changes. Keys::

    typing, Backspace, Ctrl-W, Ctrl-U   edit the query
    Up/Down, Ctrl-P/Ctrl-N, Tab         move the selection
    PageUp/PageDown                     scroll the explanation
    Enter                               quit and print the selected explanation
    Esc, Ctrl-C, Ctrl-Q, Ctrl-G         quit

Built on prompt_toolkit, imported only here and only when ``-i`` is used. The
screen is drawn on the alternate screen of the terminal (stdout, or stderr when
stdout is redirected, as fzf does) and both are restored on the way out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.data_structures import Point
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    BufferControl,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output.defaults import create_output
from prompt_toolkit.styles import Style as PromptStyle

from kubectl_crd.model.explain.finder import Match, rank
from kubectl_crd.model.styled import Line
from kubectl_crd.output.terminal import ansi

HELP = "Up/Down select  PgUp/PgDn scroll  Enter print and quit  Esc quit"

_STYLE = PromptStyle.from_dict(
    {
        "title": "reverse bold",
        "prompt": "bold",
        "count": "ansibrightblack",
        "match": "ansiyellow bold",
        "selected": "reverse",
        "selected match": "reverse ansiyellow bold",
        "help": "ansibrightblack",
        "empty": "ansibrightblack italic",
    }
)


def expand_tabs(lines: Sequence[Line], size: int = 8) -> list[Line]:
    """``lines`` with each tab turned into the spaces up to the next tab stop, as a terminal
    shows kubectl's ``field<TAB><type>`` rows: prompt_toolkit draws a tab as ``^I``."""
    expanded: list[Line] = []
    for spans in lines:
        column = 0
        out = []
        for text, style in spans:
            if "\t" in text:
                pieces = []
                for char in text:
                    if char == "\t":
                        pad = size - column % size
                        pieces.append(" " * pad)
                        column += pad
                    else:
                        pieces.append(char)
                        column += 1
                text = "".join(pieces)
            else:
                column += len(text)
            out.append((text, style))
        expanded.append(tuple(out))
    return expanded


@dataclass
class _State:
    candidates: Sequence[str]
    matches: list[Match]
    query: str = ""
    selected: int = 0
    scroll: int = 0
    previews: dict[int, list[str]] = field(default_factory=dict)


def run_explorer(
    candidates: Sequence[str],
    preview: Callable[[int], Sequence[Line]],
    *,
    title: str,
    initial_query: str = "",
    colour: bool = True,
) -> int | None:
    """Let the user pick a candidate; its index, or None when they quit without one.

    ``preview(index)`` gives the styled explanation of a candidate; each is
    computed once, when first selected.
    """
    state = _State(candidates, rank(initial_query, candidates), initial_query)

    def refilter(buffer: Buffer) -> None:
        query = buffer.text
        if state.query and query.startswith(state.query) and query.strip():
            # a longer query only narrows the previous matches
            narrowed = [m.text for m in state.matches]
            indexes = [m.index for m in state.matches]
            state.matches = sorted(
                (
                    Match(indexes[m.index], m.text, m.score, m.positions)
                    for m in rank(query, narrowed)
                ),
                key=lambda m: (-m.score, len(m.text), m.index),
            )
        else:
            state.matches = rank(query, candidates)
        state.query = query
        state.selected = 0
        state.scroll = 0

    query_buffer = Buffer(multiline=False, document=None, on_text_changed=refilter, name="query")
    query_buffer.text = initial_query
    query_buffer.cursor_position = len(initial_query)

    def preview_lines() -> list[str]:
        if not state.matches:
            return []
        index = state.matches[state.selected].index
        if index not in state.previews:
            text = ansi(expand_tabs(preview(index)), colour=colour)
            state.previews[index] = text.split("\n")
        return state.previews[index]

    def list_fragments() -> StyleAndTextTuples:
        fragments: StyleAndTextTuples = []
        if not state.matches:
            return [("class:empty", " no field matches")]
        for row, match in enumerate(state.matches):
            selected = row == state.selected
            base = "class:selected" if selected else ""
            fragments.append((base, "> " if selected else "  "))
            marked = set(match.positions)
            text = match.text or "(the resource)"
            for position, char in enumerate(text):
                if position in marked and match.text:
                    fragments.append((f"{base} class:match".strip(), char))
                else:
                    fragments.append((base, char))
            fragments.append((base, "\n"))
        return fragments

    def preview_text() -> ANSI:
        lines = preview_lines()
        return ANSI("\n".join(lines[state.scroll :]))

    def count_text() -> StyleAndTextTuples:
        return [("class:count", f" {len(state.matches)}/{len(candidates)} ")]

    list_width = min(max((len(c) for c in candidates), default=10) + 4, 60)
    list_window = Window(
        FormattedTextControl(
            list_fragments,
            get_cursor_position=lambda: Point(0, state.selected),
            show_cursor=False,
        ),
        width=Dimension(preferred=list_width, max=list_width, min=20),
        wrap_lines=False,
    )
    preview_window = Window(FormattedTextControl(preview_text), wrap_lines=True)
    root = HSplit(
        [
            Window(
                FormattedTextControl([("class:title", f" {title} ")]),
                height=1,
                style="class:title",
            ),
            VSplit(
                [
                    Window(FormattedTextControl([("class:prompt", "> ")]), width=2),
                    Window(BufferControl(query_buffer), height=1),
                    Window(FormattedTextControl(count_text), height=1, width=Dimension(max=20)),
                ],
                height=1,
            ),
            VSplit([list_window, Window(width=1, char="\u2502"), preview_window]),
            Window(FormattedTextControl([("class:help", HELP)]), height=1),
        ]
    )

    bindings = KeyBindings()

    def move(event: KeyPressEvent, delta: int) -> None:
        if state.matches:
            state.selected = max(0, min(len(state.matches) - 1, state.selected + delta))
            state.scroll = 0

    def page(delta: int) -> None:
        height = preview_window.render_info.window_height if preview_window.render_info else 10
        lines = preview_lines()
        step = max(height - 2, 1) * delta
        state.scroll = max(0, min(max(len(lines) - 1, 0), state.scroll + step))

    @bindings.add("up")
    @bindings.add("c-p")
    @bindings.add("s-tab")
    def _up(event: KeyPressEvent) -> None:
        move(event, -1)

    @bindings.add("down")
    @bindings.add("c-n")
    @bindings.add("tab")
    def _down(event: KeyPressEvent) -> None:
        move(event, 1)

    @bindings.add("pageup")
    def _page_up(event: KeyPressEvent) -> None:
        page(-1)

    @bindings.add("pagedown")
    def _page_down(event: KeyPressEvent) -> None:
        page(1)

    @bindings.add("enter")
    def _accept(event: KeyPressEvent) -> None:
        chosen = state.matches[state.selected].index if state.matches else None
        event.app.exit(result=chosen)

    @bindings.add("escape", eager=True)
    @bindings.add("c-c")
    @bindings.add("c-q")
    @bindings.add("c-g")
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit(result=None)

    app: Application[int | None] = Application(
        layout=Layout(root, focused_element=query_buffer),
        key_bindings=bindings,
        style=_STYLE,
        full_screen=True,
        mouse_support=False,
        output=create_output(always_prefer_tty=True),
    )
    app.ttimeoutlen = 0.05
    return app.run()
