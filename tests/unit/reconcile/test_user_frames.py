"""Where a reconciler's error is drawn: the line and caret of the code that ran, even when
the file was saved since it was loaded (the hot reload not yet done, or failed). The
code's column offsets belong to the loaded text: read against the saved file, the caret
pointed at the wrong columns, or under another line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kubectl_crd.reconcile.loading import load_reconciler

FOR = 'FOR = "foos.samplecontroller.k8s.io/v1alpha1"\n'


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # messages show paths relative to the working directory


def test_an_error_in_a_file_saved_since_is_drawn_from_the_loaded_text(tmp_path: Path) -> None:
    helpers = tmp_path / "helpers.py"
    helpers.write_text("def ratio(obj):\n    return 1 / obj['spec']['zero']\n")
    (tmp_path / "rec.py").write_text(
        "import helpers\n"
        + FOR
        + "def reconcile(obj, ctx):\n    return {'requeue_after': helpers.ratio(obj)}\n"
    )
    loaded = load_reconciler(str(tmp_path / "rec.py"))
    # saved before the error: a line above, and the old line's text moved right
    helpers.write_text(
        "import math\ndef ratio(obj):\n    value = math.inf\n    return value / obj['spec']['zero']\n"
    )
    os.utime(helpers, (1, 1))  # a stat unlike any earlier read: a cache cannot hide it
    with pytest.raises(ZeroDivisionError) as caught:
        loaded.call({"spec": {"zero": 0}}, None)
    frame = loaded.user_frame(caught.value)
    assert frame is not None
    assert (frame.file, frame.line, frame.column) == ("helpers.py", 2, 12)
    assert frame.source_line == "return 1 / obj['spec']['zero']"
    assert frame.caret == "       ^^^^^^^^^^^^^^^^^^^^^^^"


def test_the_reconcilers_own_file_saved_since(tmp_path: Path) -> None:
    rec = tmp_path / "rec.py"
    rec.write_text(FOR + "def reconcile(obj, ctx):\n    return obj['spec']['x'] + 1\n")
    loaded = load_reconciler(str(rec))
    rec.write_text(FOR + "def reconcile(obj, ctx):\n    return {}\n")
    with pytest.raises(TypeError) as caught:
        loaded.call({"spec": {"x": "a"}}, None)
    frame = loaded.user_frame(caught.value)
    assert frame is not None
    assert (frame.file, frame.line, frame.column) == ("rec.py", 3, 12)
    assert (frame.source_line, frame.caret) == (
        "return obj['spec']['x'] + 1",
        "       ^^^^^^^^^^^^^^^^^^^^",
    )
