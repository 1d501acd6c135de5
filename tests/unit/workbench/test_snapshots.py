"""Snapshot tests of the workbench screen: the real app driven by Textual's pilot to a
state, its screen exported as SVG (``App.export_screenshot``) and compared, text for
text, with the file committed under ``snapshots/``.

Our own few lines instead of pytest-textual-snapshot: that plugin pins syrupy 4.8.0,
which needs pytest < 9, and the project tests on pytest 9. The comparison is the
same (the whole SVG, exactly).

Stable by construction: a fixed terminal size, the file in the working directory (the
title shows ``cr.yaml``, never a temporary path), the AGE column of a create is its
own check's clock (``0s``), the editor's cursor does not blink, no notification is on
the screen. The SVG follows Textual's drawing: a Textual upgrade that draws
differently fails here; look at the ``.actual.svg`` written beside the test's
temporary files and, when the new drawing is right, regenerate with
``WORKBENCH_SNAPSHOTS=update pytest tests/unit/workbench/test_snapshots.py``.
"""

from __future__ import annotations

import asyncio
import difflib
import html
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea

from kubectl_crd.output.workbench.app import Question, WorkbenchApp
from kubectl_crd.output.workbench.session import create_from_sample
from tests.unit.workbench.conftest import CERTIFICATE, MakeSession
from tests.unit.workbench.test_screen import _cursor, _problems, _until

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZE = (110, 32)
UPDATE = os.environ.get("WORKBENCH_SNAPSHOTS") == "update"
#: rich names the SVG's ids after a hash of the whole screen: one changed cell renames
#: every id; the ids are normalised so that a diff shows the cells that changed
_IDS = re.compile(r"terminal-\d+")
_TEXT = re.compile(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>')

Scene = Callable[[WorkbenchApp, Pilot[None], Path], Awaitable[None]]


def _drawing_versions() -> str:
    from importlib.metadata import version

    return f"textual {version('textual')}, rich {version('rich')}\n"


def _compare(name: str, actual: str, tmp_path: Path) -> None:
    """Fail with a diff when ``actual`` is not the committed snapshot ``name``."""
    actual = _IDS.sub("terminal-0", actual)
    expected_file = SNAPSHOTS / f"{name}.svg"
    versions = SNAPSHOTS / "VERSIONS"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        expected_file.write_text(actual, encoding="utf-8")
        versions.write_text(_drawing_versions(), encoding="utf-8")
        return
    if versions.read_text(encoding="utf-8") != _drawing_versions():
        # another Textual or rich draws the same screen with other cells: a new
        # release must not turn CI red with no change of ours; regenerate and look
        pytest.skip(
            f"snapshots drawn by {versions.read_text().strip()}, this is "
            f"{_drawing_versions().strip()}: WORKBENCH_SNAPSHOTS=update to redraw them"
        )
    assert expected_file.exists(), (
        f"no snapshot {expected_file.name}: run with WORKBENCH_SNAPSHOTS=update once, "
        "look at it, commit it"
    )
    expected = expected_file.read_text(encoding="utf-8")
    if actual == expected:
        return
    written = tmp_path / f"{name}.actual.svg"
    written.write_text(actual, encoding="utf-8")
    # the characters first; when only colours or styles changed, the SVG's lines
    diff = list(
        difflib.unified_diff(
            _screen_text(expected), _screen_text(actual), "committed", "drawn", lineterm="", n=0
        )
    ) or [
        line[:200]
        for line in difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "committed", "drawn", lineterm="", n=0
        )
    ]
    shown = "\n".join(diff[:40])
    raise AssertionError(
        f"the screen differs from {expected_file.name} (drawn: {written}):\n{shown}"
    )


async def _settled(app: WorkbenchApp, pilot: Pilot[None]) -> str:
    """The screen once two exports 0.1 s apart are the same: the check lands from a
    worker thread, a jump in the tree scrolls after the layout, on a busy machine a
    few frames later."""
    last = ""
    for _ in range(50):
        # a full repaint each time: a scrollbar can keep a thumb drawn before the last
        # scroll until something else repaints it (seen once in ten runs)
        app.screen.refresh(repaint=True, layout=True)
        await pilot.pause(0.1)
        shot = app.export_screenshot()
        if shot == last:
            return shot
        last = shot
    raise AssertionError("the screen did not settle in 5 s")


def _screen_text(svg: str) -> list[str]:
    """The characters of an exported screen, row by row (for a diff a person reads)."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for found in _TEXT.finditer(svg):
        x, y, text = float(found[1]), float(found[2]), html.unescape(found[3])
        rows.setdefault(y, []).append((x, text))
    return [
        "".join(t for _, t in sorted(row)).replace("\xa0", " ").rstrip()
        for _, row in sorted(rows.items())
    ]


def _shot(
    make_session: MakeSession,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    scene: Scene,
    *,
    size: tuple[int, int] = SIZE,
    edit: Callable[[str], str] = lambda text: text,
) -> str:
    monkeypatch.chdir(tmp_path)
    session = make_session(CERTIFICATE)
    session.path = "cr.yaml"
    create_from_sample(session)
    path = tmp_path / "cr.yaml"
    path.write_text(edit(path.read_text()))
    shot: list[str] = []

    async def run() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=size) as pilot:
            await _until(pilot, lambda: app._checked and not app._checking, "the first check")
            app.query_one("#editor", TextArea).cursor_blink = False
            await scene(app, pilot, path)
            shot.append(await _settled(app, pilot))

    asyncio.run(run())
    return shot[0]


async def _nothing(app: WorkbenchApp, pilot: Pilot[None], path: Path) -> None:
    return None


async def _error_jump(app: WorkbenchApp, pilot: Pilot[None], path: Path) -> None:
    await _until(pilot, lambda: bool(_problems(app)), "the error")
    await pilot.press("j")
    await _until(pilot, lambda: _cursor(app) == ("spec", "secretName"), "the jump")


async def _error_line(app: WorkbenchApp, pilot: Pilot[None], path: Path) -> None:
    await _until(pilot, lambda: bool(_problems(app)), "the error")
    await pilot.press("g")


async def _quit_question(app: WorkbenchApp, pilot: Pilot[None], path: Path) -> None:
    await pilot.press("f", "end", *"-x", "q")
    await _until(pilot, lambda: "-x" in app.query_one("#editor", TextArea).text, "the edit")
    await pilot.press("escape", "q")
    await _until(pilot, lambda: isinstance(app.screen, Question), "the question")


def _bad_secret(text: str) -> str:
    return text.replace("secretName: example", "secretName: 42")


def test_first_screen(
    make_session: MakeSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _compare("first-screen", _shot(make_session, tmp_path, monkeypatch, _nothing), tmp_path)


def test_error_jumped_to_its_field(
    make_session: MakeSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # tall enough for the whole opened tree: at 32 rows the tree scrolls, and its
    # scrollbar's thumb was drawn one cell off in one run of ten (same rows, same
    # offset: a Textual repaint race, not ours)
    size = (SIZE[0], 46)
    shot = _shot(make_session, tmp_path, monkeypatch, _error_jump, edit=_bad_secret, size=size)
    _compare("error-field", shot, tmp_path)


def test_error_line_in_the_editor(
    make_session: MakeSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shot = _shot(make_session, tmp_path, monkeypatch, _error_line, edit=_bad_secret)
    _compare("error-line", shot, tmp_path)


def test_quit_with_unsaved_edits_asks(
    make_session: MakeSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shot = _shot(make_session, tmp_path, monkeypatch, _quit_question)
    _compare("quit-question", shot, tmp_path)


def test_too_small(
    make_session: MakeSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shot = _shot(make_session, tmp_path, monkeypatch, _nothing, size=(50, 12))
    _compare("too-small", shot, tmp_path)


@pytest.mark.skipif(UPDATE, reason="compares against the committed snapshots")
def test_a_changed_screen_fails_with_a_diff(
    make_session: MakeSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the first screen, but the file's secretName one letter longer: the row changes
    shot = _shot(
        make_session,
        tmp_path,
        monkeypatch,
        _nothing,
        edit=lambda text: text.replace("secretName: example", "secretName: examplez"),
    )
    with pytest.raises(
        AssertionError, match=r"the screen differs from first-screen\.svg"
    ) as caught:
        _compare("first-screen", shot, tmp_path)
    assert "examplez" in str(caught.value)
    assert (tmp_path / "first-screen.actual.svg").read_text() == _IDS.sub("terminal-0", shot)
