"""``cachefiles.write_atomically``: the whole new file or the old one, never a stray."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kubectl_crd.io import cachefiles


def test_writes_then_replaces_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "made" / "below" / "entry"
    assert cachefiles.write_atomically(str(path), b"one")
    assert cachefiles.write_atomically(str(path), b"two")
    assert path.read_bytes() == b"two"
    assert sorted(p.name for p in path.parent.iterdir()) == ["entry"]
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o600


def test_an_existing_file_with_the_temporary_name_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cachefiles, "_WRITES", iter([7]))
    squatter = tmp_path / f".cache-{os.getpid()}-7.tmp"
    squatter.write_bytes(b"not ours")
    assert not cachefiles.write_atomically(str(tmp_path / "entry"), b"data")
    assert squatter.read_bytes() == b"not ours"
    assert not (tmp_path / "entry").exists()


def test_a_directory_that_cannot_be_made_is_a_false_answer(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    assert not cachefiles.write_atomically(str(blocker / "entry"), b"data")


def test_a_directory_removed_after_a_write_is_made_again(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    assert cachefiles.write_atomically(str(directory / "a"), b"a")
    (directory / "a").unlink()
    directory.rmdir()
    assert cachefiles.write_atomically(str(directory / "b"), b"b")
    assert (directory / "b").read_bytes() == b"b"
