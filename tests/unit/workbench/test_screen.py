"""The workbench screen driven by Textual's pilot: keys pressed, the file written from
the test as an editor would, the widgets read back.

Each test runs the real ``WorkbenchApp`` headless (``App.run_test``) over a corpus CRD
and a file in a temporary directory; the file is polled as in a terminal (waits are
bounded by ``_until``, each test takes about a second).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import ContentSwitcher, OptionList, Static, TextArea, Tree

from kubectl_crd.output.workbench.app import WorkbenchApp
from kubectl_crd.output.workbench.session import Check, create_from_sample
from tests.unit.workbench.conftest import CERTIFICATE, MakeSession

SIZE = (120, 40)


async def _until(
    pilot: Pilot[None], ready: Callable[[], bool], what: str, timeout: float = 10
) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def _text(app: WorkbenchApp, selector: str) -> str:
    content = app.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def _problems(app: WorkbenchApp) -> list[str]:
    options = app.query_one("#problems", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def _row(app: WorkbenchApp) -> list[str]:
    return _text(app, "#preview").splitlines()[1].split()


def _cursor(app: WorkbenchApp) -> object:
    node = app.query_one("#fields", Tree).cursor_node
    return None if node is None else node.data


def _line_of(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + len(needle) + 1
    raise AssertionError(needle)


def test_invalid_value_error_jump_fix_and_preview(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    assert create_from_sample(session)
    path = Path(session.path)

    async def scenario() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: app.check.valid, "the sample checked valid")
            assert _row(app) == ["example-certificate", "example", "0s"]
            assert _problems(app) == []
            text = path.read_text().replace("secretName: example", "secretName: 42")
            path.write_text(text)
            await _until(pilot, lambda: bool(_problems(app)), "the error listed")
            line, column = _line_of(text, "secretName: ")
            (shown,) = _problems(app)
            assert shown.split()[0] == f"{line}:{column}"
            assert "spec.secretName: Invalid value" in shown
            assert "invalid (create)" in _text(app, "#status")
            assert _row(app)[:2] == ["example-certificate", "42"]
            await pilot.press("j")
            await _until(pilot, lambda: _cursor(app) == ("spec", "secretName"), "the jump")
            assert "FIELD: secretName <string>" in _text(app, "#explain")
            # and to its line and column in the editor pane
            await pilot.press("g")
            editor = app.query_one("#editor", TextArea)
            assert app.query_one("#right", ContentSwitcher).current == "file-pane"
            assert editor.has_focus
            # the cursor is placed after a refresh (the pane has its size only then)
            where = (line - 1, column - 1)
            await _until(pilot, lambda: editor.cursor_location == where, "the cursor at it")
            assert editor.text == text
            await pilot.press("escape")
            assert not editor.has_focus
            path.write_text(text.replace("secretName: 42", "secretName: web-tls"))
            await _until(pilot, lambda: app.check.valid, "the fix checked valid")
            assert _problems(app) == []
            assert _row(app) == ["example-certificate", "web-tls", "0s"]
            await pilot.press("w")
            assert _text(app, "#preview").split()[:6] == [
                "NAME", "READY", "SECRET", "ISSUER", "STATUS", "AGE",
            ]  # fmt: skip
            await pilot.press("q")
        assert app.return_code == 0

    asyncio.run(scenario())


def test_search_stored_view_and_bad_input(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    path = Path(session.path)

    async def scenario() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: app.check.valid, "the sample checked valid")
            await pilot.press("slash", *"issuerref name", "enter")
            wanted = ("spec", "issuerRef", "name")
            await _until(pilot, lambda: _cursor(app) == wanted, "the search's pick")
            assert "FIELD: name <string>" in _text(app, "#explain")
            await pilot.press("s")
            assert app.query_one("#right", ContentSwitcher).current == "stored-pane"
            stored = _text(app, "#stored")
            assert "uid: " in stored and "+ added (default or server): metadata.uid" in stored
            path.write_text("spec: [\n")
            await _until(pilot, lambda: bool(app.check.message), "the YAML error")
            assert _text(app, "#status").strip().startswith("not YAML this workbench can read")
            assert _text(app, "#stored").startswith("no stored object: not YAML")
            path.unlink()
            await _until(pilot, lambda: "is gone" in _text(app, "#status"), "the file gone")
            # the pane keeps the text, and says how to write it back
            assert app.query_one("#editor", TextArea).text == "spec: [\n"
            assert "Ctrl-S writes the editor's text back" in _text(app, "#status")
            path.write_text("apiVersion: v1\nkind: Secret\n")
            await _until(pilot, lambda: "v1 Secret" in app.check.message, "another kind")
            await pilot.press("ctrl+c")
        assert app.return_code == 0

    asyncio.run(scenario())


def test_too_small_terminal_says_so(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)

    async def scenario() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=(50, 12)) as pilot:
            await pilot.pause()
            assert app.query_one("#small").display
            assert not app.query_one("#main").display
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            assert not app.query_one("#small").display
            assert app.query_one("#main").display

    asyncio.run(scenario())


def test_a_slow_check_leaves_the_screen_live(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    release = threading.Event()
    real_check = session.check_text

    def slow_check(text: str) -> Check:
        release.wait(10)
        return real_check(text)

    session.check_text = slow_check  # type: ignore[method-assign]

    async def scenario() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.3)
            assert "reading the file" in app.check.message  # the check is still running
            await pilot.press("f")  # keys are handled meanwhile
            assert app.query_one("#right", ContentSwitcher).current == "file-pane"
            release.set()
            await _until(pilot, lambda: app.check.valid, "the check to land")

    asyncio.run(scenario())


def test_n_walks_the_errors_and_their_fields(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    path = Path(session.path)
    text = path.read_text().replace("secretName: example", "secretName: 42\n  duration: 5")
    path.write_text(text)

    async def scenario() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=SIZE) as pilot:
            await _until(pilot, lambda: len(_problems(app)) == 2, "two errors")
            fields = [p.tree_path for p in app.check.problems]
            assert sorted(fields) == [("spec", "duration"), ("spec", "secretName")]
            await pilot.press("n")
            await _until(pilot, lambda: _cursor(app) == fields[1], "the second error's field")
            await pilot.press("n")
            await _until(pilot, lambda: _cursor(app) == fields[0], "back to the first")

    asyncio.run(scenario())
