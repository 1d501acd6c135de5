"""The parsed-value cache: hits skip parsing, and nothing about it can break a load."""

from __future__ import annotations

import io
import marshal
import os
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import (
    add_mark,
    cache_dir,
    caching,
    has_mark,
    load_documents_cached,
    loading,
    reload_with_positions,
)
from kubectl_crd.io.caching import CACHE_FORMAT
from kubectl_crd.model.errors import Location

TEXT = (
    "apiVersion: v1\nkind: A\nspec:\n  mode: 0755\n  list: [1, 2.5]\n---\n# empty\n---\nkind: B\n"
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(directory))
    return directory / "parsed"


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.marshal")) if cache.is_dir() else []


HEADER = b"kubectl-crd parsed values %d, marshal %d\n" % (CACHE_FORMAT, marshal.version)


def entry_bytes(values: object, header: bytes = HEADER) -> bytes:
    """An entry as the cache writes it: header, CRC-32 of the marshal data, the data."""
    data = marshal.dumps(values)
    return header + zlib.crc32(data).to_bytes(4, "big") + data


def entry_values(entry: Path) -> object:
    data = entry.read_bytes()
    assert data.startswith(HEADER)
    checksum, values = data[len(HEADER) : len(HEADER) + 4], data[len(HEADER) + 4 :]
    assert zlib.crc32(values).to_bytes(4, "big") == checksum
    return marshal.loads(values)


def write(path: Path, text: str) -> str:
    path.write_text(text)
    return str(path)


def forbid_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> None:
        raise AssertionError("parsed although the cache should have answered")

    monkeypatch.setattr(loading, "load_documents", fail)


def test_miss_then_hit(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    first = load_documents_cached(path)
    assert not any(d.has_positions for d in first)  # built plain, as the entry keeps them
    assert len(entries(cache)) == 1
    forbid_parsing(monkeypatch)
    second = load_documents_cached(path)
    assert [d.content for d in second] == [d.content for d in first]
    assert [(d.index, d.location) for d in second] == [
        (0, Location(path, 1, 1)),
        (2, Location(path, 9, 1)),
    ]
    assert not any(d.has_positions for d in second)
    assert type(second[0].content["spec"]["mode"]) is int
    assert second[0].locate(["spec", "mode"]) == Location(path, 1, 1)


def test_the_key_is_the_content_not_the_path(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_documents_cached(write(tmp_path / "a.yaml", TEXT))
    forbid_parsing(monkeypatch)
    copy = write(tmp_path / "copy.yaml", TEXT)
    assert load_documents_cached(copy)[0].location == Location(copy, 1, 1)


def forbid_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> None:
        raise AssertionError("read the file although its stat should have answered")

    monkeypatch.setattr(caching, "read_file", fail)


def records(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.digest")) if cache.is_dir() else []


def test_a_settled_file_is_known_by_its_stat(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caching, "SETTLED_NS", 0)
    path = write(tmp_path / "a.yaml", TEXT)
    first = load_documents_cached(path)
    assert len(records(cache)) == 1
    forbid_parsing(monkeypatch)
    forbid_reading(monkeypatch)
    second = load_documents_cached(path)
    assert [d.content for d in second] == [d.content for d in first]
    assert {d.digest for d in second} == {d.digest for d in first}


def test_a_file_changed_just_now_is_not_known_by_its_stat(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    load_documents_cached(path)
    load_documents_cached(path)
    assert len(entries(cache)) == 1
    assert records(cache) == []


def test_a_change_that_keeps_size_and_mtime_is_still_seen(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(caching, "SETTLED_NS", 0)
    path = write(tmp_path / "a.yaml", "kind: A\n")
    load_documents_cached(path)
    before = os.stat(path)
    write(tmp_path / "a.yaml", "kind: B\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # ctime moves on
    assert [d.content for d in load_documents_cached(path)] == [{"kind": "B"}]


@pytest.mark.parametrize("record", ["", "garbage", "1 2 3 " + "0" * 64, "\xff"])
def test_a_wrong_stat_record_costs_only_a_read(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: str
) -> None:
    monkeypatch.setattr(caching, "SETTLED_NS", 0)
    path = write(tmp_path / "a.yaml", TEXT)
    expected = [d.content for d in load_documents_cached(path)]
    (recorded,) = records(cache)
    recorded.write_text(record, encoding="latin-1")
    assert [d.content for d in load_documents_cached(path)] == expected
    forbid_reading(monkeypatch)  # the record was written again
    assert [d.content for d in load_documents_cached(path)] == expected


def test_a_changed_file_is_parsed_again(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    load_documents_cached(path)
    write(tmp_path / "a.yaml", "kind: C\n")
    assert [d.content for d in load_documents_cached(path)] == [{"kind": "C"}]
    assert len(entries(cache)) == 2


@pytest.mark.parametrize(
    "garbage",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b'{"format": 1, "documents": []}', id="an-old-json-entry"),
        pytest.param(b"\xff\xfe", id="binary"),
        pytest.param(HEADER, id="header-only"),
        pytest.param(entry_bytes([[0, 1, 1, {"kind": "X"}, None]])[:-3], id="cut-short"),
        pytest.param(
            entry_bytes([[0, 1, 1, {"kind": "X"}, None]]).replace(b"X", b"Y"), id="damaged"
        ),
        pytest.param(
            entry_bytes([[0, 1, 1, {"kind": "X"}, None]], header=HEADER.replace(b"marshal", b"m")),
            id="another-header",
        ),
        pytest.param(entry_bytes({"format": 2}), id="not-rows"),
        pytest.param(entry_bytes([[0, 1, 1]]), id="short-row"),
        pytest.param(entry_bytes([[0, 1, 1, [], None]]), id="content-not-a-mapping"),
        pytest.param(entry_bytes([["0", 1, 1, {}, None]]), id="index-not-an-int"),
    ],
)
def test_a_corrupt_entry_is_ignored_and_rewritten(
    cache: Path, tmp_path: Path, garbage: bytes
) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    expected = [d.content for d in load_documents_cached(path)]
    (entry,) = entries(cache)
    entry.write_bytes(garbage)
    assert [d.content for d in load_documents_cached(path)] == expected
    assert entry_values(entry)[0][3] == expected[0]  # type: ignore[index]


def test_entries_hold_plain_values(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    first = load_documents_cached(path)
    (entry,) = entries(cache)
    assert entry_values(entry) == [
        [0, 1, 1, {"apiVersion": "v1", "kind": "A", "spec": {"mode": 493, "list": [1, 2.5]}}, None],
        [2, 9, 1, {"kind": "B"}, None],
    ]
    assert [d.content for d in first] == [row[3] for row in entry_values(entry)]  # type: ignore[attr-defined]


def test_an_unwritable_cache_only_costs_speed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(blocker))
    path = write(tmp_path / "a.yaml", TEXT)
    for _ in range(2):
        assert [d.content["kind"] for d in load_documents_cached(path)] == ["A", "B"]
    assert not list(tmp_path.glob("**/*.tmp"))


def test_documents_with_errors_are_not_cached(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", "a: 1\na: 2\n")
    for _ in range(2):
        (document,) = load_documents_cached(path)
        assert document.error is not None
        assert document.has_positions
    assert entries(cache) == []


def test_unreadable_paths_and_stdin(cache: Path, tmp_path: Path) -> None:
    (document,) = load_documents_cached(str(tmp_path))
    assert document.error is not None
    assert document.source == str(tmp_path)
    documents = load_documents_cached("-", stdin=io.BytesIO(b"kind: A\n"))
    assert [d.content for d in documents] == [{"kind": "A"}]
    assert documents[0].source == "<stdin>"
    assert entries(cache) == []


def test_reload_with_positions(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    load_documents_cached(path)
    cached = load_documents_cached(path)[1]
    assert not cached.has_positions
    positioned = reload_with_positions(cached)
    assert positioned.has_positions
    assert positioned.content == cached.content
    assert positioned.locate(["kind"]) == Location(path, 9, 7)
    assert reload_with_positions(positioned) is positioned
    # the file read last is kept: its other documents need no second parse
    assert reload_with_positions(load_documents_cached(path)[0]).has_positions
    os.unlink(path)
    assert reload_with_positions(cached) == positioned  # that same content, kept
    other = write(tmp_path / "b.yaml", TEXT + "\n")
    unread = load_documents_cached(other)[1]
    os.unlink(other)
    assert reload_with_positions(unread) is unread  # gone, and never read again


def test_reloading_the_rejected_documents_of_a_file_parses_it_once(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kubectl_crd.io import loading

    text = "".join(f"---\nkind: K\nnum: {i}\n" for i in range(50))
    path = write(tmp_path / "many.yaml", text)
    load_documents_cached(path)
    documents = load_documents_cached(path)
    assert not any(d.has_positions for d in documents)
    parses: list[str] = []
    real = loading.load_documents

    def counted(data: Any, source: str, **options: Any) -> Any:
        parses.append(source)
        return real(data, source, **options)

    monkeypatch.setattr(loading, "load_documents", counted)
    located = [reload_with_positions(d) for d in documents]
    assert parses == [path]
    assert [d.locate(["num"]) for d in located] == [Location(path, 3 * i + 3, 6) for i in range(50)]


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"KUBECTL_CRD_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/c/parsed"),
        (
            {"KUBECTL_CRD_CACHE_DIR": "", "XDG_CACHE_HOME": "/x", "HOME": "/h"},
            "/x/kubectl-crd/parsed",
        ),
        ({"XDG_CACHE_HOME": "", "HOME": "/h"}, "/h/.cache/kubectl-crd/parsed"),
    ],
)
def test_cache_dir(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], expected: str
) -> None:
    for name in ("KUBECTL_CRD_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert cache_dir() == expected


def test_a_cache_hit_does_not_import_ruamel(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    load_documents_cached(path)
    script = (
        "import sys\n"
        "from kubectl_crd.io import load_documents_cached\n"
        f"documents = load_documents_cached({path!r})\n"
        "assert documents[0].content['kind'] == 'A', documents\n"
        "print(sorted(m for m in sys.modules if 'ruamel' in m))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ.copy(),
    )
    assert result.stdout.strip() == "[]"


def test_marks_belong_to_the_content(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    first = load_documents_cached(path)
    assert not has_mark(first[0], "checked")
    add_mark(first[0], "checked")
    add_mark(first[0], "checked")  # twice is fine
    assert has_mark(load_documents_cached(path)[1], "checked")
    assert has_mark(load_documents_cached(write(tmp_path / "copy.yaml", TEXT))[0], "checked")
    assert not has_mark(first[0], "other")
    write(tmp_path / "a.yaml", TEXT + "# changed\n")
    assert not has_mark(load_documents_cached(path)[0], "checked")


def test_no_marks_without_a_cache_entry(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (broken,) = load_documents_cached(write(tmp_path / "a.yaml", "a: 1\na: 2\n"))
    (piped,) = load_documents_cached("-", stdin=io.BytesIO(b"kind: A\n"))
    for document in (broken, piped):
        add_mark(document, "checked")
        assert not has_mark(document, "checked")
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(blocker))
    (unwritable, _) = load_documents_cached(write(tmp_path / "b.yaml", TEXT))
    add_mark(unwritable, "checked")  # only costs speed
    assert not has_mark(unwritable, "checked")


def entry_of(cache: Path, path: str) -> Path:
    (first, *_) = load_documents_cached(path)
    return cache / f"v{CACHE_FORMAT}-{first.digest}.marshal"


HOUR_NS = 3600 * 10**9


def test_pruning_drops_the_least_recently_used_and_other_formats(
    cache: Path, tmp_path: Path
) -> None:
    paths = [write(tmp_path / f"{n}.yaml", f"kind: K{n}\n") for n in range(6)]
    now = time.time_ns()
    for hours, path in enumerate(paths):  # paths[0] was used last
        os.utime(entry_of(cache, path), ns=(now - hours * HOUR_NS, now - hours * HOUR_NS))
    size = entry_of(cache, paths[0]).stat().st_size
    (cache / "v1-0123.marshal").write_text("an older format")
    (cache / ".parsed-killed.tmp").write_text("")
    os.utime(cache / ".parsed-killed.tmp", ns=(now - 48 * HOUR_NS, now - 48 * HOUR_NS))
    (cache / ".parsed-writing.tmp").write_text("")
    caching.prune(str(cache), max_bytes=4 * size)
    assert entries(cache) == sorted(entry_of(cache, path) for path in paths[:3])
    assert sorted(p.name for p in cache.iterdir() if not p.name.endswith(".marshal")) == [
        ".parsed-writing.tmp"
    ]


def test_new_entries_keep_the_cache_under_its_limit(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_documents_cached(write(tmp_path / "first.yaml", "kind: K\n"))
    size = entries(cache)[0].stat().st_size
    monkeypatch.setattr(caching, "MAX_BYTES", 5 * size)
    for n in range(20):  # same size, other content
        load_documents_cached(write(tmp_path / f"{n}.yaml", f"kind: {chr(ord('a') + n)}\n"))
        assert sum(p.stat().st_size for p in cache.iterdir()) <= 5 * size


def test_a_hit_marks_an_old_entry_as_used(cache: Path, tmp_path: Path) -> None:
    path = write(tmp_path / "a.yaml", TEXT)
    entry = entry_of(cache, path)
    old = time.time_ns() - 48 * HOUR_NS
    os.utime(entry, ns=(old, old))
    load_documents_cached(path)
    assert entry.stat().st_mtime_ns > old + 47 * HOUR_NS
