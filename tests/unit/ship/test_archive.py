"""The krew archive writer (hack/build_krew.py): the same entries give the same bytes, and
the archive holds only what krew unpacks (regular files and directories, no links, no
`..`), with normalised owners and modes."""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.krew_build import build_krew as bk

ENTRIES = [
    bk.Entry("kubectl-crd", b"#!/bin/sh\necho hi\n", True),
    bk.Entry("LICENSE", b"Apache\n", False),
    bk.Entry("lib/py/pkg/__init__.py", b"x = 1\n", False),
    bk.Entry("lib/cp311/ext/_native.cpython-311-x86_64-linux-gnu.so", b"\x7fELF", True),
]


def _members(path: Path) -> list[tarfile.TarInfo]:
    with tarfile.open(path) as tar:
        return tar.getmembers()


def test_same_entries_in_any_order_give_the_same_sha256(tmp_path: Path) -> None:
    first = bk.write_tar_gz(ENTRIES, tmp_path / "a.tar.gz", 0)
    second = bk.write_tar_gz(list(reversed(ENTRIES)), tmp_path / "b.tar.gz", 0)
    assert first == second
    assert first == hashlib.sha256((tmp_path / "a.tar.gz").read_bytes()).hexdigest()


def test_content_mtime_and_level_change_the_sha256(tmp_path: Path) -> None:
    base = bk.write_tar_gz(ENTRIES, tmp_path / "a.tar.gz", 0)
    changed = [*ENTRIES[:-1], bk.Entry(ENTRIES[-1].name, b"\x7fELF2", True)]
    assert bk.write_tar_gz(changed, tmp_path / "b.tar.gz", 0) != base
    assert bk.write_tar_gz(ENTRIES, tmp_path / "c.tar.gz", 1_700_000_000) != base


def test_members_are_sorted_with_their_directories_owned_by_root(tmp_path: Path) -> None:
    path = tmp_path / "a.tar.gz"
    bk.write_tar_gz(ENTRIES, path, 1_700_000_000)
    members = _members(path)
    names = [m.name for m in members]
    assert names == sorted(names)
    assert {"lib", "lib/py", "lib/py/pkg", "lib/cp311", "lib/cp311/ext"} <= set(names)
    for m in members:
        assert m.isfile() or m.isdir(), m.name  # krew refuses links and devices
        assert (m.uid, m.gid, m.uname, m.gname) == (0, 0, "", "")
        assert m.mtime == 1_700_000_000
        assert ".." not in m.name.split("/") and not m.name.startswith("/")
    modes = {m.name: m.mode for m in members}
    assert modes["kubectl-crd"] == 0o755
    assert modes["LICENSE"] == 0o644
    assert modes["lib/py"] == 0o755


def test_gzip_header_holds_no_time_or_name(tmp_path: Path) -> None:
    path = tmp_path / "a.tar.gz"
    bk.write_tar_gz(ENTRIES, path, 0)
    header = path.read_bytes()[:10]
    assert header[:3] == b"\x1f\x8b\x08"
    assert header[3] & 0x08 == 0  # FNAME: no original file name
    assert header[4:8] == b"\0\0\0\0"  # MTIME
    with gzip.open(path) as gz, tarfile.open(fileobj=io.BytesIO(gz.read())) as tar:
        member = tar.extractfile("lib/py/pkg/__init__.py")
        assert member is not None and member.read() == b"x = 1\n"


def _wheel(path: Path, files: dict[str, tuple[bytes, int]]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, (data, mode) in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            zf.writestr(info, data)
    return path


def test_a_wheel_unpacks_as_pip_installs_it(tmp_path: Path) -> None:
    wheel = _wheel(
        tmp_path / "demo-1.0-py3-none-any.whl",
        {
            "demo/__init__.py": (b"", 0o644),
            "demo/tool": (b"#!/bin/sh\n", 0o755),
            "demo-1.0.dist-info/METADATA": (b"Name: demo\n", 0o644),
            "demo-1.0.data/purelib/demo_extra.py": (b"y = 2\n", 0o644),
            "demo-1.0.data/platlib/_demo.so": (b"\x7fELF", 0o755),
            "demo-1.0.data/scripts/demo": (b"#!python\n", 0o755),
            "demo-1.0.data/headers/demo.h": (b"", 0o644),
        },
    )
    got = {e.name: e for e in bk.unpack_wheel(wheel, "lib/py")}
    assert set(got) == {
        "lib/py/demo/__init__.py",
        "lib/py/demo/tool",
        "lib/py/demo-1.0.dist-info/METADATA",
        "lib/py/demo_extra.py",
        "lib/py/_demo.so",
    }
    assert got["lib/py/demo/tool"].executable
    assert not got["lib/py/demo/__init__.py"].executable
    assert got["lib/py/demo_extra.py"].data == b"y = 2\n"


def test_a_wheel_with_a_path_out_of_its_directory_is_refused(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path / "bad-1.0-py3-none-any.whl", {"../evil.py": (b"", 0o644)})
    with pytest.raises(SystemExit, match="unsafe path"):
        list(bk.unpack_wheel(wheel, "lib/py"))


def test_requirements_leave_kubernetes_out_and_drop_markers() -> None:
    reqs = bk.requirements()
    names = [r.split(">")[0].split("<")[0].split("[")[0].strip().lower() for r in reqs]
    assert "kubernetes" not in names
    assert "cel-expr-python" in names
    assert "click" in names
    assert all(";" not in r for r in reqs)
