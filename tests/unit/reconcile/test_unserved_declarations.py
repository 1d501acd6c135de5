"""A FOR, OWNS or WATCHES naming a resource the backend does not serve is the
reconciler's error at the string that names it (file:line:column, the line and a
caret), as every other load error is: at start and at a reload. Before, it was the
backend's message alone, with no place in the module (the hint the CLI adds aside)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kubectl_crd.model.errors import ReconcilerLoadError, ResourceNotFoundError
from kubectl_crd.reconcile.controller import Controller
from kubectl_crd.reconcile.events import ReloadFailed
from kubectl_crd.reconcile.loading import load_reconciler
from kubectl_crd.reconcile.reloading import HotReloader
from tests.unit.reconcile.fakes import FakeBackend, FakeReconciler

HINT = "give it with --crd FILE"

RECONCILER = textwrap.dedent(
    """\
    FOR = "widgets.dev.example.com/v1"
    OWNS = ["v1/ConfigMap",
            "v1/Gizmo"]
    WATCHES = {"v1/Secret": lambda obj: []}

    def reconcile(obj, ctx):
        return None
    """
)


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


CASES = [
    # (the text replaced in a reconciler that loads, by what, the error, its
    # line:column, the line and its caret)
    (
        '"v1/Secret"]',
        '"v1/Gizmo"]',
        "OWNS: no v1/Gizmo (is its CRD installed? give it with --crd FILE)",
        "3:9",
        '"v1/Gizmo"]',
        "^^^^^^^^^^",
    ),
    (
        'FOR = "widgets.dev.example.com/v1"',
        'FOR = "gadgets.dev.example.com/v1"',
        "FOR: no gadgets.dev.example.com/v1 (is its CRD installed? give it with --crd FILE)",
        "1:7",
        'FOR = "gadgets.dev.example.com/v1"',
        "      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ),
    (
        '{"v1/Secret": lambda',
        '{"v1/Nope": lambda',
        "WATCHES: no v1/Nope (is its CRD installed? give it with --crd FILE)",
        "4:12",
        'WATCHES = {"v1/Nope": lambda obj: []}',
        "           ^^^^^^^^^",
    ),
]


@pytest.mark.parametrize(("old", "new", "message", "place", "line", "caret"), CASES)
def test_an_unserved_resource_is_an_error_at_its_declaration(
    tmp_path: Path, old: str, new: str, message: str, place: str, line: str, caret: str
) -> None:
    path = tmp_path / "rec.py"
    path.write_text(RECONCILER.replace('"v1/Gizmo"]', '"v1/Secret"]').replace(old, new))
    controller = Controller(FakeBackend(), load_reconciler(str(path)), unserved_hint=HINT)
    with pytest.raises(ReconcilerLoadError) as raised:
        controller.start(run_workers=False)
    assert str(raised.value) == f"rec.py:{place}: {message}\n    {line}\n    {caret}"
    assert isinstance(raised.value.__cause__, ResourceNotFoundError)


def test_the_place_is_the_line_as_loaded_not_as_saved_since(tmp_path: Path) -> None:
    path = tmp_path / "rec.py"
    path.write_text(RECONCILER)
    loaded = load_reconciler(str(path))
    path.write_text("\n\n\n" + RECONCILER)  # a save the loop has not loaded
    with pytest.raises(ReconcilerLoadError) as raised:
        Controller(FakeBackend(), loaded).start(run_workers=False)
    assert raised.value.location is not None
    assert (raised.value.location.line, raised.value.source_line) == (3, '"v1/Gizmo"]')
    assert raised.value.message == "OWNS: no v1/Gizmo"  # no hint given: none added


def test_a_reload_to_an_unserved_resource_fails_at_its_declaration(tmp_path: Path) -> None:
    path = tmp_path / "rec.py"
    path.write_text(RECONCILER.replace('"v1/Gizmo"]', '"v1/Secret"]'))
    controller = Controller(FakeBackend(), load_reconciler(str(path)), unserved_hint=HINT)
    controller.start(run_workers=False)
    failed: list[ReloadFailed] = []
    try:
        reloader = HotReloader(controller.reconciler, controller.swap, failed.append)  # type: ignore[arg-type]
        path.write_text(RECONCILER)
        assert not reloader.reload([str(path)])
    finally:
        controller.stop()
    (event,) = [each for each in failed if isinstance(each, ReloadFailed)]
    assert (event.file, event.line) == ("rec.py", 3)
    assert event.error == (
        "rec.py:3:9: OWNS: no v1/Gizmo (is its CRD installed? give it with --crd FILE)"
    )
    assert event.caret == '"v1/Gizmo"]\n^^^^^^^^^^'


def test_a_reconciler_that_cannot_say_where_keeps_the_backends_error() -> None:
    # a library user's own ReconcilerLike (no unserved): the error as before, hinted
    reconciler = FakeReconciler()
    reconciler.for_resource = "nothings.example.com/v1"
    with pytest.raises(ResourceNotFoundError, match=r"^no nothings.example.com/v1 \(is its"):
        Controller(FakeBackend(), reconciler, unserved_hint=HINT).start(run_workers=False)
