"""The workbench screen: a Textual application that draws a ``session.Session``.

Layout: the field tree (lazy: a level is read when it is expanded) with a fuzzy search
over every field path (``/``, ``explain -i``'s ranking) on the left; on the right the
selected field's explanation with the extras, or the editor pane (``f``: Textual's
``TextArea`` with tree-sitter's YAML grammar when ``tree_sitter_yaml`` is installed,
plain text otherwise), or the object as the server would store it (``s``); below, the
errors with line:column and the server's message, and the rows ``kubectl get`` (and
``-o wide``, ``w``) would print; a status line and the keys in the footer.

What is checked is the editor pane's text: every edit is checked again after
``DEBOUNCE_SECONDS`` of quiet, in a worker thread. The file is polled
(``Session.changed``: mtime, size, inode; every ``POLL_SECONDS``) rather than watched
with ``io.filewatch`` (an editor that saves by renaming is seen alike): a change on
disk is loaded into the pane when the pane holds no unsaved edit, and otherwise asks
(save mine / discard mine / cancel), as quitting with unsaved edits does. ``e``
suspends the screen and runs ``$VISUAL``/``$EDITOR`` on the file (at the selected
error's line: ``+LINE``, which vi, vim, nano, emacs and micro take), then resumes.
The file is written by ``Ctrl-S`` only (``Session.save``).

The terminal going away ends the app: SIGHUP, and a pseudo-terminal whose master was
closed without one (the input then reads EOF forever, and Textual's input thread
spins on it: ``_terminal_gone``, polled). However the app ends without the user's
answer about the pane's unsaved edits (the terminal gone, SIGTERM, a crash), they are
kept in ``FILE.unsaved`` (``on_unmount``: Textual's last event, on every way out), and
the next workbench on the file offers them back (``_offer_unsaved``).

Textual is imported by this module only, and this module only by ``cli.commands.
workbench`` (``kubectl crd --help`` and every other command never load it).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual._xterm_parser import XTermParser
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import (
    ContentSwitcher,
    Footer,
    Input,
    OptionList,
    Static,
    TextArea,
    Tree,
)
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from kubectl_crd.model.explain.finder import path_text, rank
from kubectl_crd.model.schema import FieldPath
from kubectl_crd.output.terminal import ansi
from kubectl_crd.output.workbench.session import Check, Problem, Session, stored_text

POLL_SECONDS = 0.2
#: quiet after an edit in the pane before it is checked (a check of a typical object
#: takes 2 ms, argo's Workflow ~10: the wait is for the eye, not the machine)
DEBOUNCE_SECONDS = 0.15
#: Below this the panes cannot show a row of each: a message instead of a broken layout.
MIN_WIDTH, MIN_HEIGHT = 60, 16
_MATCHES = 200  # search results listed (the rest are a keystroke away)
BOTTOM_ROWS = 11  # the errors and the rows of kubectl get, on a terminal tall enough


class WorkbenchApp(App[None]):
    """``kubectl crd workbench``: see the module docstring."""

    TITLE = "kubectl crd workbench"
    # the palette's commands are Textual's own (themes, screenshots): not this tool's keys
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #title { height: 1; background: $primary; color: $text; text-style: bold; }
    #main { height: 1fr; }
    #left { width: 40%; min-width: 24; }
    #fields { height: 1fr; }
    #search { display: none; }
    #matches { display: none; height: 12; }
    #left.-searching #search { display: block; }
    #left.-searching #matches { display: block; }
    #right { width: 1fr; }
    #right > VerticalScroll, #preview-pane { overflow-x: auto; }
    #explain, #stored, #preview { width: auto; }
    #editor { height: 1fr; border: none; padding: 0; }
    #bottom { height: 11; }
    #problems { width: 55%; height: 100%; border: round $secondary; }
    #preview-pane { width: 1fr; border: round $secondary; }
    #status { height: 1; }
    #small { display: none; content-align: center middle; height: 1fr; }
    Screen.-small #small { display: block; }
    Screen.-small #title, Screen.-small #main, Screen.-small #bottom,
    Screen.-small #status, Screen.-small Footer { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
        # Ctrl-Z suspends as in vim or less (Textual's action: the terminal handed back
        # first, SIGTSTP, redrawn on fg); in the editor pane it is the pane's undo
        Binding("ctrl+z", "suspend_process", "Suspend", show=False),
        Binding("ctrl+s", "save", "Save", priority=True),
        # priority, as Esc below: the keys typed right behind / or f (one read) go into
        # the search box or the pane, not to the tree as keys of their own (d, g, ...)
        Binding("slash", "search", "Search", priority=True),
        # Esc leaves the search and the editor pane before the key behind it is read:
        # priority bindings run as the app reads the key, and they move the focus at
        # once (``_focus``), so a key typed right after Esc (ESC x in one read, over
        # SSH or tmux) goes to where Esc went, not into the box or the pane it left
        Binding("escape", "close_search", "Back", show=False, priority=True),
        Binding("escape", "leave_editor", "Leave editor", priority=True),
        Binding("j", "jump", "Error→field"),
        Binding("g", "goto_line", "Error→line"),
        Binding("n", "next_problem", "Next error"),
        # in the footer only when the file holds more than one object of the kind
        Binding("d", "next_document", "Next object"),
        Binding("f", "editor", "Editor", priority=True),
        Binding("e", "edit", "$EDITOR"),
        Binding("x", "view('explain-pane')", "Explain"),
        Binding("s", "view('stored-pane')", "Stored"),
        Binding("w", "wide", "Wide"),
    ]

    def __init__(self, session: Session, *, note: str = "", colour: bool = True) -> None:
        super().__init__()
        self.session = session
        self.note = note  # said once in the status line (the file created from sample)
        self.colour = colour
        self.check: Check = Check(message="reading the file ...")
        self.wide = False
        self._selected: FieldPath = ()
        self._matches: list[FieldPath] = []
        self._matched = ""  # the query self._matches answer
        #: Up/Down typed before the matches of this query came: applied to them
        self._moves: tuple[str, int] = ("", 0)
        self._ranking = False  # a ranking thread runs (at most one)
        #: Enter pressed for this query before its matches came: taken when they come
        self._enter: str | None = None
        self._checked = False
        self._checking = False
        self._again = False  # an edit landed while a check ran: check once more after it
        self._debounce: Timer | None = None
        #: the file's text as last read or saved (None: gone or unreadable), and why not
        self._disk: str | None = None
        self._disk_problem = ""
        #: the text the pane was loaded with or last saved: edits are what differs from it
        self._base = ""
        self._loaded = False  # the file is in the editor pane (after the first paint)
        self._asking = False  # a save / discard / cancel question is on the screen
        self._settling: tuple[int, int, int] | None = None  # the change seen last poll
        #: the editor pane, kept to read its text once the app's widgets are gone
        self._pane: Editor | None = None
        #: the pane's edits were discarded in answer to a question: nothing to keep
        self._discarded = False
        #: FILE.unsaved is this run's to replace or remove: it wrote it, or the edits
        #: an earlier run kept there were restored into the pane or discarded
        self._owns_unsaved = False
        #: where the pane's edits went on the way out, said on stderr ("" when nowhere)
        self.kept_unsaved = ""

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        session = self.session
        yield Static(
            Text(
                f" kubectl crd workbench  {session.title}  {_short(session.path)}",
                no_wrap=True,
                overflow="ellipsis",
            ),
            id="title",
        )
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SearchInput(placeholder="search fields (Enter: go, Esc: back)", id="search")
                yield OptionList(id="matches")
                tree: Tree[FieldPath] = Tree(session.crd.names.kind, data=(), id="fields")
                tree.show_root = True
                # the cursor's line kept in the middle: a jump shows the field with its
                # neighbours, at the same place however the tree was scrolled before
                tree.center_scroll = True
                yield tree
            with ContentSwitcher(initial="explain-pane", id="right"):
                with VerticalScroll(id="explain-pane"):
                    yield Static(id="explain")
                # the editor (TextArea, tree-sitter) is mounted after the first frame
                yield Vertical(id="file-pane")
                with VerticalScroll(id="stored-pane"):
                    yield Static(id="stored")
        with Horizontal(id="bottom"):
            yield OptionList(id="problems")
            with VerticalScroll(id="preview-pane"):
                yield Static(id="preview")
        yield Static(id="status")
        yield Static(
            f"The terminal is too small for the workbench: make it at least "
            f"{MIN_WIDTH}x{MIN_HEIGHT} (q quits).",
            id="small",
        )
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#problems", OptionList).border_title = "Errors"
        self._set_preview_title()
        tree = self.query_one("#fields", Tree)
        self._load(tree.root)
        tree.root.expand()
        self._show_field(())
        tree.focus()
        self._fit(self.size.width, self.size.height)
        self.set_interval(POLL_SECONDS, self.poll)
        self._watch_terminal()
        # back from Ctrl-Z (fg): Textual re-enters the alternate screen, blank, and only
        # says so; without a full repaint the screen stayed blank (1 in 4 tmux runs)
        self.app_resume_signal.subscribe(self, self._resumed)

    async def on_ready(self) -> None:
        """Textual's Ready: the first frame is on the terminal. Only now is the editor
        pane mounted (its styles, tree-sitter's grammar) and the file read,
        highlighted and checked: the first check compiles the schema (~80 ms for
        argo's Workflow) in a worker thread, and a thread started before the first
        frame competes with it for the interpreter (bench/README.md)."""
        pane = self.query_one("#file-pane")
        if not pane.is_attached:  # quitting already: nothing to mount into
            return
        self._pane = _editor()
        await pane.mount(self._pane)
        self._load_file()
        self._offer_unsaved()

    def on_resize(self, event: Any) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.screen.set_class(width < MIN_WIDTH or height < MIN_HEIGHT, "-small")
        # the errors and the rows take two fifths of what the title, status line and
        # keys leave, at most 11 rows: on 80x24 the tree keeps 12 (it had 9)
        bottom = max(5, min(BOTTOM_ROWS, (height - 4) * 2 // 5))
        self.query_one("#bottom").styles.height = bottom

    def _draw_title(self) -> None:
        session = self.session
        where = ""
        if self.check.documents > 1:
            where = f" [{self.check.document}/{self.check.documents}]"
        mark = " [+]" if self.dirty else ""
        self.query_one("#title", Static).update(
            Text(
                f" kubectl crd workbench  {session.title}{where}  {_short(session.path)}{mark}",
                no_wrap=True,
                overflow="ellipsis",
            )
        )

    # -- the tree -------------------------------------------------------------------------

    def _load(self, node: TreeNode[FieldPath]) -> None:
        """Add the fields under ``node`` once (a level is read when first expanded)."""
        if node.children or node.data is None:
            return
        for name, has_fields in self.session.children(node.data):
            node.add(name, data=(*node.data, name), allow_expand=has_fields)

    @on(Tree.NodeExpanded, "#fields")
    def _expanded(self, event: Tree.NodeExpanded[FieldPath]) -> None:
        self._load(event.node)

    @on(Tree.NodeHighlighted, "#fields")
    def _highlighted(self, event: Tree.NodeHighlighted[FieldPath]) -> None:
        # the tree highlights its root on mount, and a jump's field is shown already
        if event.node.data is not None and event.node.data != self._selected:
            self._show_field(event.node.data)

    def _show_field(self, path: FieldPath) -> None:
        self._selected = path
        lines = self.session.explanation(path)
        # kubectl's plaintext is wrapped at 80 columns already: no second wrap
        text = Text.from_ansi(ansi(lines, colour=self.colour), no_wrap=True)
        self.query_one("#explain", Static).update(text)
        self.query_one("#explain-pane").scroll_home(animate=False)

    def select_field(self, path: FieldPath) -> None:
        """Open the tree down to ``path``, select it and show its explanation."""
        tree = self.query_one("#fields", Tree)
        node = tree.root
        self._load(node)
        node.expand()
        for depth in range(len(path)):
            wanted = path[: depth + 1]
            child = next((c for c in node.children if c.data == wanted), None)
            if child is None:
                break
            node = child
            self._load(node)
            if depth + 1 < len(path):
                node.expand()
        self._show_field(node.data if node.data is not None else ())

        def place_cursor(attempts: int = 20) -> None:
            # a node just expanded has its line once the tree has laid itself out, which
            # on a busy machine can take more than one refresh: Tree.move_cursor to a node
            # whose line is still -1 would leave the cursor where it was
            if node.line < 0 and attempts:
                self.call_after_refresh(place_cursor, attempts - 1)
                return
            tree.move_cursor(node)
            tree.scroll_to_node(node, animate=False)

        self.call_after_refresh(place_cursor)
        self.query_one("#right", ContentSwitcher).current = "explain-pane"

    def _follow_version(self, version: str) -> None:
        """The file's object is written in another version of the CRD: its errors are
        that version's, so the tree and the explanation become that version's too."""
        self.session.use_version(version)
        tree = self.query_one("#fields", Tree)
        tree.clear()  # the root stays, without its children
        self._load(tree.root)
        tree.root.expand()
        self._show_field(())
        self._draw_title()

    # -- search ---------------------------------------------------------------------------

    def action_search(self) -> None:
        self.query_one("#left").add_class("-searching")
        self._focus(self.query_one("#search", Input))

    def action_close_search(self) -> None:
        self._enter = None  # an Enter still waiting for its matches goes nowhere now
        self.query_one("#left").remove_class("-searching")
        self._focus(self.query_one("#fields", Tree))

    def _focus(self, widget: Any) -> None:
        """Focus ``widget`` now: ``Widget.focus`` does it on a later turn of the loop,
        after the keys already read (typed behind the one that moved the focus) have
        gone to the widget that had it."""
        self.screen.set_focus(widget)

    @on(Input.Changed, "#search")
    def _query(self, event: Input.Changed) -> None:
        """Rank the field paths for the query in a worker thread: on argo's Workflow
        (9,261 paths) a ranking takes 0.2-0.3 s, which on the screen's loop froze it
        at every key. One ranking runs at a time: keys typed meanwhile are coalesced,
        and when it ends the query typed last is ranked (``_ranked_answer``)."""
        if event.value != self._enter:
            self._enter = None  # typed on after Enter: that Enter was for another query
        if not self._ranking:
            self._start_ranking(event.value)

    def _start_ranking(self, query: str) -> None:
        self._ranking = True
        self.run_worker(lambda: self._rank(query), thread=True, group="search", exit_on_error=False)

    def _rank(self, query: str) -> None:
        try:
            found: list[FieldPath] | None = self._ranked(query)
        except Exception:  # a bug must not leave the search waiting for ever
            found = None
        with contextlib.suppress(RuntimeError):  # the app has quit meanwhile
            self.call_from_thread(self._ranked_answer, query, found)

    def _ranked(self, query: str) -> list[FieldPath]:
        paths, texts = self.session.finder_lists()
        return [paths[m.index] for m in rank(query, texts)[:_MATCHES]]

    def _ranked_answer(self, query: str, found: list[FieldPath] | None) -> None:
        """A ranking ended (on the UI's loop): its matches are shown when the box
        still holds its query; otherwise the box's query is ranked now."""
        self._ranking = False
        if not self.query("#search"):
            return  # quitting
        latest = self.query_one("#search", Input).value
        if latest != query:
            self._start_ranking(latest)
            return
        if found is None:
            self.notify("the search failed (internal error)", severity="error")
            return
        self._show_matches(query, found)
        if self._enter == query:  # Enter was pressed before these matches came
            self._enter = None
            self._go_to_match()

    def _show_matches(self, query: str, found: list[FieldPath]) -> None:
        self._matches, self._matched = found, query
        matches = self.query_one("#matches", OptionList)
        matches.clear_options()
        matches.add_options(
            Option(path_text(p) or "(the resource)", id=str(i)) for i, p in enumerate(found)
        )
        if found:
            moved = self._moves[1] if self._moves[0] == query else 0
            matches.highlighted = max(0, min(moved, len(found) - 1))
        self._moves = ("", 0)

    def move_match(self, step: int) -> None:
        """Up/Down in the search box: through the matches, or, while the query typed
        last is still being ranked, once its matches are there (keys are read in the
        order typed, whatever the ranking's speed: a key's Changed message can reach
        the app after the Down typed behind it)."""
        query = self.query_one("#search", Input).value
        if self._matched != query:
            moved = self._moves[1] if self._moves[0] == query else 0
            self._moves = (query, moved + step)
            return
        matches = self.query_one("#matches", OptionList)
        if matches.option_count:
            current = matches.highlighted or 0
            matches.highlighted = max(0, min(current + step, matches.option_count - 1))

    @on(Input.Submitted, "#search")
    def _go(self, event: Input.Submitted) -> None:
        if self._matched != event.value:
            # Enter before the ranking's answer: taken when it comes (ranking here, on
            # the screen's loop, froze it for the ranking: 0.2-0.3 s on argo's Workflow)
            self._enter = event.value
            return
        self._go_to_match()

    def _go_to_match(self) -> None:
        if self._matches:
            index = self.query_one("#matches", OptionList).highlighted or 0
            self._pick(self._matches[index])

    @on(OptionList.OptionSelected, "#matches")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self._pick(self._matches[event.option_index])

    def _pick(self, path: FieldPath) -> None:
        self.action_close_search()
        self.select_field(path)

    # -- the file -------------------------------------------------------------------------

    @property
    def editor(self) -> TextArea:
        return self.query_one("#editor", TextArea)

    def _widgets_gone(self) -> bool:
        """Whether the screen's widgets are gone (the app is quitting): a debounced or
        threaded check that lands then has nothing to draw on (CI saw a late one raise)."""
        return not self.query("#editor")

    @property
    def dirty(self) -> bool:
        """Whether the editor pane holds unsaved edits (text that differs from what it
        was loaded with or last saved; a file gone from disk alone is not an edit: an
        editor saving by rename removes it for a moment; once the widgets are gone,
        nothing is left to save)."""
        return self._loaded and not self._widgets_gone() and self.editor.text != self._base

    def _load_file(self) -> None:
        text, problem = self.session.read()
        self._disk, self._disk_problem = text, problem
        self._replace_text(text or "")
        self._loaded = True
        self.recheck()

    def _replace_text(self, text: str) -> None:
        self._base = text
        editor = self.editor
        where = editor.cursor_location
        editor.load_text(text)
        # bytes that are not UTF-8 were read as U+FFFD: saving would change them
        editor.read_only = bool(self._disk_problem) and self._disk is not None
        last = editor.document.line_count - 1
        row = min(where[0], last)
        editor.cursor_location = (row, min(where[1], len(editor.document.get_line(row))))

    def poll(self) -> None:
        """The file on disk changed: take it into the pane, or ask when that would
        lose unsaved edits."""
        if not self._loaded or self._asking or self._widgets_gone() or not self.session.changed():
            return
        # acted on once the file has stood still for a poll: a writer that truncates
        # and then writes (Path.write_text, many editors) is seen half-way otherwise,
        # and a question about the half would be followed by one about the rest
        stamp = self.session.disk_stamp()
        if stamp != self._settling:
            self._settling = stamp
            return
        was_dirty = self.dirty
        text, problem = self.session.read()
        self._disk, self._disk_problem = text, problem
        if text is None:
            self._draw_status()  # the pane keeps its text: Ctrl-S writes it back
            self._draw_title()
            return
        if not was_dirty or text == self.editor.text:
            if text != self.editor.text:
                self._replace_text(text)  # the Changed event checks it
            else:
                self.recheck()
            return
        self._ask(
            f"{_short(self.session.path)} changed on disk while the editor pane has unsaved edits.",
            {
                "save": ("Save mine over it", self._save),
                "discard": ("Discard mine, load it", lambda: self._discard_and_load(text)),
                "cancel": ("Cancel: keep editing mine", self._draw_title),
            },
        )

    @on(TextArea.Changed, "#editor")
    def _edited(self, event: TextArea.Changed) -> None:
        if self._widgets_gone():  # a load's Changed, handled once the app has quit
            return
        self._draw_title()
        if self._debounce is not None:
            self._debounce.stop()
        self._debounce = self.set_timer(DEBOUNCE_SECONDS, self.recheck)

    def recheck(self) -> None:
        """Check the pane's text again, in a thread: the screen stays live meanwhile,
        and the first frame is not held back by the first check. The result is drawn
        on the UI's loop; an edit during a check is checked once that one lands."""
        if not self._loaded or self._widgets_gone():
            return
        if self._checking:
            self._again = True
            return
        self._checked = True
        self._checking = True
        text = self.editor.text
        unreadable = self._disk is None and not text
        self.run_worker(
            lambda: self._check_text(text, unreadable),
            thread=True,
            group="check",
            exit_on_error=False,
        )

    def _check_text(self, text: str, unreadable: bool) -> None:
        try:
            if unreadable:
                check = Check(message=self._disk_problem)
            else:
                check = self.session.check_text(text)
        except Exception as exc:  # a bug must not end the UI: say it, keep going
            check = Check(message=f"internal error while checking the file: {exc!r}")
        with contextlib.suppress(RuntimeError):  # the app has quit meanwhile
            self.call_from_thread(self.show_check, check)

    def show_check(self, check: Check) -> None:
        """Draw what depends on the text: errors, rows, the stored object, the title."""
        self._checking = False
        if self._widgets_gone():
            return
        self.check = check
        if check.version and check.version != self.session.target.version:
            self._follow_version(check.version)
        problems = self.query_one("#problems", OptionList)
        keep = problems.highlighted
        problems.clear_options()
        for index, problem in enumerate(check.problems):
            problems.add_option(Option(_problem_text(problem), id=str(index)))
        if check.problems:
            problems.highlighted = min(keep or 0, len(check.problems) - 1)
        problems.border_title = f"Errors ({len(check.problems)})" if check.problems else "Errors"
        self._draw_preview()
        self.query_one("#stored", Static).update(Text(stored_text(check), no_wrap=True))
        self._draw_status()
        self._draw_title()
        self.refresh_bindings()  # d shows in the footer for a file of several objects
        if self._again:
            self._again = False
            self.recheck()

    def _draw_status(self) -> None:
        check = self.check
        parts = [check.summary]
        if self._disk is None and self._loaded and self.editor.text:
            parts.append(f"{self._disk_problem}; Ctrl-S writes the editor's text back")
            if self.dirty:
                parts.append("unsaved edits")
        elif self._disk_problem:
            parts.append(f"{self._disk_problem}: the editor pane is read-only (e: $EDITOR)")
        elif self.dirty:
            parts.append("unsaved edits (Ctrl-S saves)")
        if check.documents > 1:
            parts.append(f"object {check.document}/{check.documents} of the kind (d: next)")
        if self.note:
            parts.append(self.note)
        self.query_one("#status", Static).update(
            Text(
                " " + " | ".join(parts),
                style="" if check.valid or not self.colour else "bold",
                no_wrap=True,
                overflow="ellipsis",
            )
        )

    def _draw_preview(self) -> None:
        check = self.check
        text = (check.wide if self.wide else check.get) or check.message or ""
        # kubectl's columns, never wrapped (a row in two is not a row): the pane scrolls
        self.query_one("#preview", Static).update(Text(text.rstrip("\n"), no_wrap=True))
        self._set_preview_title()

    def _set_preview_title(self) -> None:
        pane = self.query_one("#preview-pane")
        pane.border_title = "kubectl get -o wide" if self.wide else "kubectl get"

    # -- actions --------------------------------------------------------------------------

    def _problem(self) -> Problem | None:
        problems = self.query_one("#problems", OptionList)
        index = problems.highlighted
        if index is None or index >= len(self.check.problems):
            return self.check.problems[0] if self.check.problems else None
        return self.check.problems[index]

    @on(OptionList.OptionSelected, "#problems")
    def _problem_chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_jump()

    def action_jump(self) -> None:
        """From the selected error to its field in the tree (and its line in the file)."""
        problem = self._problem()
        if problem is None:
            self.notify("no error to jump from")
            return
        self.select_field(problem.tree_path)
        self._place_editor_cursor(problem)
        self.query_one("#fields", Tree).focus()

    def action_goto_line(self) -> None:
        """From the selected error to its line and column in the editor pane."""
        problem = self._problem()
        if problem is None:
            self.notify("no error to jump from")
            return
        self.action_editor()
        # once the pane, hidden until now, has its size: scrolling a pane of width 0
        # to the cursor scrolls the start of every line out of view
        self.call_after_refresh(self._place_editor_cursor, problem)

    def _place_editor_cursor(self, problem: Problem) -> None:
        # called after a refresh, which can come once the app has quit
        if not problem.line or not self._loaded or self._widgets_gone():
            return
        editor = self.editor
        row = min(problem.line - 1, editor.document.line_count - 1)
        column = min(max(problem.column - 1, 0), len(editor.document.get_line(row)))
        editor.cursor_location = (row, column)
        # the line in the middle, from its first column when the cursor fits (centring
        # both ways would cut off the start of every line, the YAML's indentation)
        editor.scroll_to(x=0, y=max(row - editor.size.height // 2, 0), animate=False)
        editor.scroll_cursor_visible(animate=False)

    def action_editor(self) -> None:
        self.query_one("#right", ContentSwitcher).current = "file-pane"
        if self._loaded:
            self._focus(self.editor)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self._asking:
            return False  # a question is up: its answers are the keys (and the footer)
        editing = self._editing()
        if action == "leave_editor":
            return editing
        if action == "close_search":
            left = self.query("#left")  # none on another screen
            return bool(left) and left.first().has_class("-searching")
        if action in ("search", "editor") and isinstance(self.focused, Input):
            return False  # priority keys, typed into the search box
        if editing and action not in ("save", "interrupt"):
            return False  # typed into the pane: not in the footer while it has the keys
        if action == "next_document":
            return self.check.documents > 1  # False: not in the footer, and d does nothing
        return True

    def action_next_document(self) -> None:
        if self.check.documents < 2:
            self.notify("the file holds one object of the kind")
            return
        self.session.document = self.check.document  # 0-based: the next one
        self.recheck()

    def action_next_problem(self) -> None:
        if not self.check.problems:
            self.notify("no errors")
            return
        problems = self.query_one("#problems", OptionList)
        current = problems.highlighted
        problems.highlighted = 0 if current is None else (current + 1) % len(self.check.problems)
        self.action_jump()

    def action_view(self, pane: str) -> None:
        switcher = self.query_one("#right", ContentSwitcher)
        switcher.current = "explain-pane" if switcher.current == pane else pane

    def action_wide(self) -> None:
        self.wide = not self.wide
        self._draw_preview()

    def action_save(self) -> None:
        if self._asking:
            return
        if not self._loaded:
            self.notify("the file is not read yet")
            return
        if self.editor.read_only:
            self.notify("not saved: the file is not UTF-8 (e opens $EDITOR)", severity="error")
            return
        self._save()

    def _save(self) -> bool:
        text = self.editor.text
        try:
            self.session.save(text)
        except OSError as exc:
            self.notify(f"not saved: {exc.strerror or exc}", severity="error")
            return False
        self._disk, self._disk_problem, self._base = text, "", text
        self._settle_unsaved()  # the edits are in the file now
        self.notify(f"saved {_short(self.session.path)}")
        self._draw_status()
        self._draw_title()
        return True

    def _editing(self) -> bool:
        return self._loaded and self.focused is self.editor

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()  # the footer: the pane's keys, or the screen's

    def action_leave_editor(self) -> None:
        self._focus(self.query_one("#problems", OptionList))

    def _resumed(self, app: object) -> None:
        self.refresh(layout=True, repaint=True)
        self.screen.refresh(layout=True, repaint=True)

    def action_suspend_process(self) -> None:
        """Ctrl-Z: Textual's suspend, when a shell with job control can bring the
        workbench back. Textual's SIGTSTP handler stops the process with SIGSTOP, which
        nothing would ever continue when no such shell started it (``bash -c '...'``,
        a tmux pane's own command): the screen would hang with the terminal given back
        in cooked mode."""
        if not job_control():
            self.notify("Ctrl-Z: no job control here (nothing could resume it)")
            return
        super().action_suspend_process()

    async def action_interrupt(self) -> None:
        await self.action_quit()

    async def action_quit(self) -> None:
        if self._asking:
            return
        if not self.dirty:
            self.exit()
            return
        self._ask(
            "The editor pane has unsaved edits.",
            {
                "save": ("Save and quit", self._save_and_quit),
                "discard": ("Discard them and quit", self._discard_and_quit),
                "cancel": ("Cancel: back to the workbench", lambda: None),
            },
        )

    def _save_and_quit(self) -> None:
        if self._save():
            self.exit()

    def _discard_and_quit(self) -> None:
        self._discarded = True
        self._settle_unsaved()
        self.exit()

    def _save_and_edit(self) -> None:
        if self._save():
            self._edit()

    def _discard_and_edit(self) -> None:
        self._replace_text(self._base)
        self._settle_unsaved()
        self._edit()

    def _discard_and_load(self, text: str) -> None:
        self._replace_text(text)
        self._settle_unsaved()

    def _ask(
        self,
        question: str,
        answers: dict[str, tuple[str, Callable[[], object]]],
        escape: str = "cancel",
    ) -> None:
        """Save / discard / cancel (or restore / discard): the chosen answer's action
        runs (Esc: the answer ``escape``)."""
        self._asking = True

        def answered(choice: str | None) -> None:
            self._asking = False
            answers[choice or escape][1]()

        labels = {key: label for key, (label, _) in answers.items()}
        self.push_screen(Question(question, labels, escape=escape), answered)

    # -- edits nobody could be asked about --------------------------------------------------

    def _offer_unsaved(self) -> None:
        """An earlier workbench on the file ended with edits it could not ask about and
        kept them in ``FILE.unsaved``: offered back (restore them into the pane, or
        discard them). The same text as the file's (saved since, by another editor)
        is nothing to offer: removed."""
        kept = self.session.read_unsaved()
        if kept is None:
            return
        if kept == self.editor.text:
            self.session.drop_unsaved()
            return
        when = _when(self.session.unsaved_path)
        self._ask(
            f"{_short(self.session.unsaved_path)} holds edits of this file that were not "
            f"saved{when}: the workbench ended without asking (its terminal closed, it "
            "was stopped or it failed).",
            {
                "restore": ("Restore them into the editor pane (Ctrl-S saves)", self._restore),
                "discard": ("Discard them (removes the .unsaved file)", self._discard_kept),
            },
            escape="restore",
        )

    def _restore(self) -> None:
        """The kept edits into the pane, unsaved (the file is written by Ctrl-S only)."""
        kept = self.session.read_unsaved()
        self._owns_unsaved = True
        if kept is None:
            self.notify("the .unsaved file is gone: nothing restored", severity="error")
            return
        base = self._base
        self._replace_text(kept)
        self._base = base  # what differs from the file is an edit: [+], Ctrl-S saves it
        self._draw_title()
        self._draw_status()
        self.action_editor()

    def _discard_kept(self) -> None:
        self._owns_unsaved = True
        self._settle_unsaved()

    def _settle_unsaved(self) -> None:
        """The pane's edits were saved or discarded: a copy kept of them, by this run
        or restored from an earlier one, is not needed any more."""
        if self._owns_unsaved:
            with contextlib.suppress(OSError):
                self.session.drop_unsaved()

    def on_unmount(self) -> None:
        """Textual's last event, however the app ends (quit, the terminal gone,
        SIGTERM, an exception): edits the user was not asked about are kept in
        ``FILE.unsaved``; a run that owns that copy and ends with none removes it."""
        pane = self._pane
        if pane is None or not self._loaded or pane.read_only:
            return
        text = pane.text
        if text != self._base and not self._discarded:
            try:
                self.session.keep_unsaved(text)
            except OSError as exc:
                where = self.session.unsaved_path
                self.kept_unsaved = f"unsaved edits lost: cannot write {where}: {exc}"
                return
            self.kept_unsaved = f"unsaved edits kept in {self.session.unsaved_path}"
        else:
            self._settle_unsaved()

    def action_edit(self) -> None:
        """Suspend the screen, run the editor on the file, resume and check it again
        (unsaved edits of the pane are saved or discarded first: asked)."""
        if self._asking:
            return
        if self.dirty:
            self._ask(
                "The editor pane has unsaved edits; $EDITOR edits the file.",
                {
                    "save": ("Save them, then $EDITOR", self._save_and_edit),
                    "discard": ("Discard them, then $EDITOR", self._discard_and_edit),
                    "cancel": ("Cancel", lambda: None),
                },
            )
            return
        self._edit()

    def _edit(self) -> None:
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        problem = self._problem()
        command = shlex.split(editor)
        if problem is not None and problem.line:
            command.append(f"+{problem.line}")
        command.append(self.session.path)
        from textual.app import SuspendNotSupported

        try:
            with self.suspend():
                subprocess.run(command, check=False)
        except SuspendNotSupported:
            self.notify("this terminal cannot be handed to an editor", severity="error")
        except OSError as exc:
            self.notify(f"cannot run {editor!r}: {exc.strerror or exc}", severity="error")
        self.poll()

    # -- the terminal going away ----------------------------------------------------------

    def _watch_terminal(self) -> None:
        """End the app when its terminal goes away. SIGHUP is handled on the loop; a
        pseudo-terminal closed without one shows as POLLHUP on the input (Textual's
        input thread then reads EOF in a loop and never ends: 100% of a core, seen on
        orphaned workbenches), polled here."""
        if self.is_headless:
            return
        import asyncio
        import signal

        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGHUP, self._terminal_gone)
            # kill's default: ended as by a quit, so that the pane's edits are kept
            loop.add_signal_handler(signal.SIGTERM, self.exit, None, TERMINATED)
        self.set_interval(0.5, self._poll_terminal)

    def _poll_terminal(self) -> None:
        if input_hung_up(_input_fd()):
            self._terminal_gone()

    def _terminal_gone(self) -> None:
        """Nobody is left to ask: the app ends (unsaved edits of the pane go to
        ``FILE.unsaved``, beside the file, never over it: ``on_unmount``)."""
        self.exit(return_code=TERMINAL_GONE)


#: the exit status when the terminal went away (as a shell killed by SIGHUP: 128 + 1)
TERMINAL_GONE = 129
#: the exit status after SIGTERM (as a shell killed by it: 128 + 15)
TERMINATED = 143


def _when(path: str) -> str:
    """`` (kept at 14:02 on 2026-11-27)``: when ``path`` was written, local time."""
    import time

    try:
        stamp = os.stat(path).st_mtime
    except OSError:
        return ""
    return time.strftime(" (kept at %H:%M on %Y-%m-%d)", time.localtime(stamp))


def job_control() -> bool:
    """Whether a job-control shell started this process in a job of its own: our
    process group is not the session's (a session leader's group is orphaned) and our
    parent, in the same session, is in another group (the shell, which ``fg`` asks to
    continue the job). A parent in our own group (``bash -c``) counts as none."""
    if not hasattr(os, "getpgrp") or not hasattr(os, "getsid"):
        return False  # Windows: no SIGTSTP
    try:
        group, parent = os.getpgrp(), os.getppid()
        return (
            group != os.getsid(0)
            and os.getsid(parent) == os.getsid(0)
            and os.getpgid(parent) != group
        )
    except OSError:  # the parent is gone (we are orphaned) or not ours to ask
        return False


def input_hung_up(fd: int | None) -> bool:
    """Whether ``fd`` reports a hang-up (POLLHUP, POLLERR, POLLNVAL): the far side of
    the pseudo-terminal is closed, or the descriptor is gone."""
    if fd is None:
        return False
    import select

    if not hasattr(select, "poll"):  # Windows: its driver reads a console, not a pty
        return False
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    try:
        events = poller.poll(0)
    except OSError:
        return True
    hung = select.POLLHUP | select.POLLERR | select.POLLNVAL
    return any(mask & hung for _, mask in events)


def _input_fd() -> int | None:
    stream = sys.__stdin__
    try:
        return stream.fileno() if stream is not None else None
    except (OSError, ValueError):
        return None


class KeyFooter(Footer):
    """Textual's footer with its keys in as many rows as the width needs, in aligned
    columns: ``Footer`` draws one row and cuts the rest off (at 80 columns the keys
    after ``f Editor`` were not shown, at 60 after ``j``)."""

    DEFAULT_CSS = """
    KeyFooter { layout: grid; grid-columns: auto; grid-rows: 1; height: auto; }
    """

    _columns = 0

    def compose(self) -> ComposeResult:
        keys = list(super().compose())
        self._widths = [_key_width(key) for key in keys]
        self._columns = _grid_columns(self._widths, self.size.width or self.app.size.width)
        yield from keys
        # after Footer.compose, which sets one column per key
        self.styles.grid_size_columns = max(self._columns, 1)

    def on_resize(self, event: Any) -> None:
        widths = getattr(self, "_widths", [])
        if widths and _grid_columns(widths, event.size.width) != self._columns:
            self.call_after_refresh(self.recompose)


def _key_width(key: Any) -> int:
    """The cells a FooterKey takes: `` key description `` (Footer's padding)."""
    from textual.widgets._footer import FooterKey

    if not isinstance(key, FooterKey):
        return 0
    return len(key.key_display) + len(key.description) + 3


def _grid_columns(widths: list[int], width: int) -> int:
    """The most columns whose widest cells fit ``width`` side by side."""
    for columns in range(len(widths), 1, -1):
        needed = sum(max(widths[i::columns]) for i in range(columns))
        if needed <= width:
            return columns
    return 1


async def _own_binding_now(widget: Any, event: events.Key) -> bool:
    """Run ``widget``'s own binding for ``event``'s key now, as the widget reads it.

    Textual runs a widget's bindings only once the key has bubbled up to the app
    (``App._on_key``), while a TextArea or an Input takes a printable key at once in
    its own ``_on_key``: of keys read together (typed quickly over SSH, pasted, sent by
    tmux in one write) a letter overtook the arrow or Backspace before it. Down, End,
    Backspace, W put the W where the cursor was before the Down (seen in tmux on
    argo's Workflow). Run here, every key of the widget acts in the order typed."""
    for binding in widget._bindings.key_to_bindings.get(event.key, ()):
        if not binding.priority and await widget.app.run_action(binding.action, widget):
            event.stop()
            event.prevent_default()
            return True
    return False


class Editor(TextArea):
    """The editor pane's TextArea, its keys acted on in the order typed
    (``_own_binding_now``)."""

    async def _on_key(self, event: events.Key) -> None:
        if not await _own_binding_now(self, event):
            await super()._on_key(event)


class SearchInput(Input):
    """The search box: Up and Down (PageUp, PageDown) move among the matches below it
    while the keys typed go on into the box, as in ``explain -i``'s finder (an Input
    alone leaves them unbound: Enter could only take the first match). Its keys are
    acted on in the order typed (``_own_binding_now``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("pagedown", "move(10)", show=False),
        Binding("pageup", "move(-10)", show=False),
    ]

    def action_move(self, step: int) -> None:
        app = self.app
        if isinstance(app, WorkbenchApp):
            app.move_match(step)

    async def _on_key(self, event: events.Key) -> None:
        if not await _own_binding_now(self, event):
            await super()._on_key(event)


class Question(ModalScreen[str]):
    """A question with its answers (save / discard / cancel, restore / discard), each
    by its first letter or a click; Esc is the answer ``escape``."""

    AUTO_FOCUS = "#answers"

    CSS = """
    Question { align: center middle; }
    #question { width: 64; height: auto; border: thick $warning; background: $surface;
                padding: 1 2; }
    #answers { height: auto; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "answer('save')", "Save", show=False),
        Binding("d", "answer('discard')", "Discard", show=False),
        Binding("r", "answer('restore')", "Restore", show=False),
        Binding("c", "answer('cancel')", "Cancel", show=False),
        Binding("escape", "answer_escape", "Cancel", show=False),
    ]

    def __init__(self, question: str, labels: dict[str, str], escape: str = "cancel") -> None:
        super().__init__()
        self.question = question
        self.labels = labels
        self.escape = escape

    def compose(self) -> ComposeResult:
        with Vertical(id="question"):
            yield Static(self.question)
            answers = OptionList(
                *(Option(f"{key[0]}  {label}", id=key) for key, label in self.labels.items()),
                id="answers",
            )
            yield answers

    @on(OptionList.OptionSelected, "#answers")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id or "cancel")

    def action_answer(self, key: str) -> None:
        if key in self.labels:  # r where the answers are save / discard / cancel: nothing
            self.dismiss(key)

    def action_answer_escape(self) -> None:
        self.dismiss(self.escape)


def _editor() -> Editor:
    """The editor pane: YAML highlighted when tree-sitter's grammar is installed."""
    # Textual's own lookup (textual/_tree_sitter.py): with tree-sitter but without the
    # grammar, TextArea(language="yaml") raises instead of falling back to plain text
    try:
        from textual._tree_sitter import get_language
    except ImportError:  # a Textual that moved it: plain text
        language = None
    else:
        language = "yaml" if get_language("yaml") is not None else None
    editor = Editor.code_editor(
        language=language, show_line_numbers=True, id="editor", soft_wrap=False
    )
    assert isinstance(editor, Editor)  # code_editor makes a cls: typed as a TextArea
    editor.indent_width = 2
    return editor


def _short(path: str) -> str:
    """``path`` relative to the current directory when that is shorter."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return relative if len(relative) < len(path) else path


def _problem_text(problem: Problem) -> Text:
    text = Text(f"{problem.where:>7} ", style="bold")
    text.append(problem.message, style="dim" if problem.blocked else "")
    return text


class EscapeIsEscape(XTermParser):
    """Textual's terminal input parser, except that Esc followed by a key is read as
    Esc, then the key: the workbench has no Alt keys, and Esc leaves the editor pane
    and the search.

    A terminal sends Alt+X and Esc-then-X as the same bytes, ESC X. Textual's parser
    (``textual/_xterm_parser.py``) reads them as Alt+X when X comes within ``ESCDELAY``
    (100 ms) of the ESC, and its table (``textual/_ansi_sequences.py``) maps some of
    them to other keys altogether: ESC b to Ctrl+Left, ESC DEL to Ctrl+W, ESC 3 to
    "£". Over SSH, or in tmux (which itself joins an ESC and a key typed within its
    ``escape-time``, 500 ms by default, into one), Esc then j typed at a normal pace
    arrives as one ESC j: the pane took the "j" as text instead of leaving. As vim
    does without Alt mappings, ESC X is Esc then X. Sequences that start a CSI or SS3
    (``ESC [``, ``ESC O``: the arrows, function keys, mouse) are read as before."""

    def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Any:
        # alt: a character that followed an ESC with nothing understood after it (the
        # parser's ESCDELAY ran out); ESC X whole: a pair the parser's table maps
        pair = len(sequence) == 2 and sequence[0] == "\x1b" and sequence[1] not in "[O\x1b"
        if alt or pair:
            yield events.Key("escape", "\x1b")
            yield from super()._sequence_to_key_events(sequence[-1])
            return
        yield from super()._sequence_to_key_events(sequence, alt)


def _read_escape_as_escape() -> None:
    """Make Textual's Linux driver read input with ``EscapeIsEscape``: the driver makes
    its parser by this module-level name (``textual/drivers/linux_driver.py``,
    ``run_input_thread``), and the workbench is the one Textual app of the process."""
    from textual.drivers import linux_driver

    if getattr(linux_driver, "XTermParser", None) is XTermParser:
        linux_driver.XTermParser = EscapeIsEscape  # type: ignore[attr-defined,misc]


def run_workbench(session: Session, *, note: str = "", colour: bool = True) -> int:
    """Run the screen until the user quits (0) or the terminal goes away
    (``TERMINAL_GONE``)."""
    _read_escape_as_escape()
    app = WorkbenchApp(session, note=note, colour=colour)
    app.run()
    code = app.return_code or 0
    if app.kept_unsaved and code != TERMINAL_GONE:  # a terminal to say it on
        print(app.kept_unsaved, file=sys.stderr)
    return code
