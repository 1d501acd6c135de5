"""The workbench screen: a Textual application that draws a ``session.Session``.

Layout: the field tree (lazy: a level is read when it is expanded) with a fuzzy search
over every field path (``/``, ``explain -i``'s ranking) on the left; on the right the
selected field's explanation with the extras, or the file with its errors marked
(``f``), or the object as the server would store it (``s``); below, the errors of the
file with line:column and the server's message, and the rows ``kubectl get`` (and
``-o wide``, ``w``) would print; a status line and the keys in the footer.

The file is polled (``Session.changed``: mtime, size, inode; every
``POLL_SECONDS``) rather than watched with ``io.filewatch``: the check runs on the
UI's own loop, with no thread and no queue between them, and an editor that saves
by renaming is seen alike. ``e`` suspends the screen and runs ``$VISUAL``/``$EDITOR``
on the file (at the selected error's line: ``+LINE``, which vi, vim, nano, emacs and
micro take), then resumes; nothing here writes the file.

Textual is imported by this module only, and this module only by ``cli.commands.
workbench`` (``kubectl crd --help`` and every other command never load it).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import ContentSwitcher, Footer, Input, OptionList, Static, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from kubectl_crd.model.explain.finder import path_text, rank
from kubectl_crd.model.schema import FieldPath
from kubectl_crd.output.terminal import ansi
from kubectl_crd.output.workbench.session import Check, Problem, Session, stored_text

POLL_SECONDS = 0.2
#: Below this the panes cannot show a row of each: a message instead of a broken layout.
MIN_WIDTH, MIN_HEIGHT = 60, 16
_MATCHES = 200  # search results listed (the rest are a keystroke away)


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
    #right > VerticalScroll { overflow-x: auto; }
    #explain, #file, #stored { width: auto; }
    #bottom { height: 11; }
    #problems { width: 55%; border: round $secondary; }
    #preview-pane { width: 1fr; border: round $secondary; }
    #status { height: 1; }
    #small { display: none; content-align: center middle; height: 1fr; }
    Screen.-small #small { display: block; }
    Screen.-small #title, Screen.-small #main, Screen.-small #bottom,
    Screen.-small #status, Screen.-small Footer { display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit"),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
        Binding("slash", "search", "Search"),
        Binding("escape", "close_search", "Back", show=False),
        Binding("j", "jump", "Error→field"),
        Binding("n", "next_problem", "Next error"),
        Binding("e", "edit", "$EDITOR"),
        Binding("x", "view('explain-pane')", "Explain"),
        Binding("f", "view('file-pane')", "File"),
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
        self._checked = False
        self._checking = False

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
                yield Input(placeholder="search fields (Enter: go, Esc: back)", id="search")
                yield OptionList(id="matches")
                tree: Tree[FieldPath] = Tree(session.crd.names.kind, data=(), id="fields")
                tree.show_root = True
                yield tree
            with ContentSwitcher(initial="explain-pane", id="right"):
                with VerticalScroll(id="explain-pane"):
                    yield Static(id="explain")
                with VerticalScroll(id="file-pane"):
                    yield Static(id="file")
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
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#problems", OptionList).border_title = "Errors"
        self._set_preview_title()
        tree = self.query_one("#fields", Tree)
        self._load(tree.root)
        tree.root.expand()
        self._show_field(())
        tree.focus()
        self._fit(self.size.width, self.size.height)
        # the first check after the first paint: its first create compiles the schema
        self.call_after_refresh(self.recheck)
        self.set_interval(POLL_SECONDS, self.poll)

    def on_resize(self, event: Any) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.screen.set_class(width < MIN_WIDTH or height < MIN_HEIGHT, "-small")

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
        if event.node.data is not None:
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

    # -- search ---------------------------------------------------------------------------

    def action_search(self) -> None:
        self.query_one("#left").add_class("-searching")
        self.query_one("#search", Input).focus()

    def action_close_search(self) -> None:
        self.query_one("#left").remove_class("-searching")
        self.query_one("#fields", Tree).focus()

    @on(Input.Changed, "#search")
    def _query(self, event: Input.Changed) -> None:
        paths = self.session.paths()
        texts = [path_text(p) for p in paths]
        found = rank(event.value, texts)[:_MATCHES]
        self._matches = [paths[m.index] for m in found]
        matches = self.query_one("#matches", OptionList)
        matches.clear_options()
        matches.add_options(
            Option(path_text(p) or "(the resource)", id=str(i)) for i, p in enumerate(self._matches)
        )
        if self._matches:
            matches.highlighted = 0

    @on(Input.Submitted, "#search")
    def _go(self, event: Input.Submitted) -> None:
        matches = self.query_one("#matches", OptionList)
        if self._matches:
            index = matches.highlighted or 0
            self._pick(self._matches[index])

    @on(OptionList.OptionSelected, "#matches")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self._pick(self._matches[event.option_index])

    def _pick(self, path: FieldPath) -> None:
        self.action_close_search()
        self.select_field(path)

    # -- the file -------------------------------------------------------------------------

    def poll(self) -> None:
        # the first check comes after the first paint (on_mount), not from a timer; one
        # check at a time (a change during one is seen by the next poll)
        if self._checked and not self._checking and self.session.changed():
            self.recheck()

    def recheck(self) -> None:
        """Check the file again, in a thread: the screen stays live meanwhile, and the
        first frame is not held back by the first check (it compiles the schema:
        ~80 ms for argo's Workflow). The result is drawn on the UI's loop."""
        self._checked = True
        self._checking = True
        self.run_worker(self._check_file, thread=True, group="check", exit_on_error=False)

    def _check_file(self) -> None:
        try:
            check = self.session.check()
        except Exception as exc:  # a bug must not end the UI: say it, keep going
            check = Check(message=f"internal error while checking the file: {exc!r}")
        with contextlib.suppress(RuntimeError):  # the app has quit meanwhile
            self.call_from_thread(self.show_check, check)

    def show_check(self, check: Check) -> None:
        """Draw what depends on the file: errors, rows, the stored object, the file."""
        self._checking = False
        self.check = check
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
        self.query_one("#file", Static).update(self._file_text())
        status = check.summary
        if self.note:
            status = f"{status} | {self.note}"
        self.query_one("#status", Static).update(
            Text(
                f" {status}",
                style="" if check.valid or not self.colour else "bold",
                no_wrap=True,
                overflow="ellipsis",
            )
        )

    def _draw_preview(self) -> None:
        check = self.check
        text = (check.wide if self.wide else check.get) or check.message or ""
        self.query_one("#preview", Static).update(Text(text.rstrip("\n")))
        self._set_preview_title()

    def _set_preview_title(self) -> None:
        pane = self.query_one("#preview-pane")
        pane.border_title = "kubectl get -o wide" if self.wide else "kubectl get"

    def _file_text(self) -> Text:
        """The file with line numbers, lines with an error marked ``>``."""
        try:
            with open(self.session.path, encoding="utf-8", errors="replace") as stream:
                lines = stream.read().splitlines()
        except OSError as exc:
            return Text(f"cannot read {self.session.path}: {exc.strerror or exc}")
        marked = {p.line for p in self.check.problems if p.line}
        text = Text(no_wrap=True)
        for number, line in enumerate(lines, 1):
            mark = ">" if number in marked else " "
            style = "bold red" if number in marked and self.colour else ""
            text.append(f"{mark}{number:4} {line}\n", style=style)
        return text

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
        if problem.line:
            self.query_one("#file-pane").scroll_to(y=max(problem.line - 3, 0), animate=False)
        self.query_one("#fields", Tree).focus()

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

    def action_edit(self) -> None:
        """Suspend the screen, run the editor on the file, resume and check it again."""
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


def run_workbench(session: Session, *, note: str = "", colour: bool = True) -> None:
    """Run the screen until the user quits."""
    WorkbenchApp(session, note=note, colour=colour).run()
