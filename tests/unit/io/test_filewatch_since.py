"""``io.filewatch.changes(since=)``: a save made before the observer watches is not lost.

The dev loop starts a new watcher when a reload changes what the reconciler imports; a
file saved between the old watcher's end and the new one's start was never reloaded
(helper-48's flake hunt). With the stamps of the files as loaded, the new watcher's
first batch is every file whose stamp differs, and only those.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from kubectl_crd.io.filewatch import changes, file_stamps


def test_a_file_saved_between_two_watchers_is_the_first_batch(tmp_path: Path) -> None:
    saved, kept = tmp_path / "reconciler.py", tmp_path / "helper.py"
    saved.write_text("A = 1\n")
    kept.write_text("B = 1\n")
    gone = tmp_path / "gone.py"
    gone.write_text("C = 1\n")
    since = file_stamps([str(saved), str(kept), str(gone)])
    saved.write_text("A = 22\n")  # a new size, whatever the clock's resolution
    gone.unlink()
    stop = threading.Event()
    stream = changes([str(saved), str(kept), str(gone)], settle=0.05, stop=stop, since=since)
    try:
        first = next(stream)
    finally:
        stop.set()
        stream.close()
    assert first == {os.path.abspath(saved), os.path.abspath(gone)}


def test_stamps_say_missing_files_and_change_with_a_rename(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    assert file_stamps([str(path)]) == {str(path): None}
    path.write_text("x = 1\n")
    before = file_stamps([str(path)])[str(path)]
    replacement = tmp_path / "a.py.tmp"
    replacement.write_text("x = 1\n")  # same size, maybe the same mtime: another inode
    os.replace(replacement, path)
    assert file_stamps([str(path)])[str(path)] != before
