"""Files, directories, stdin and Lists, as ``kubectl -f`` takes them."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from kubectl_crd.io import expand_paths, read_inputs
from kubectl_crd.model.errors import InputError, KubectlCrdError, Location, YamlError


def write(path: Path, text: str | bytes) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return str(path)


def test_directories_expand_recursively_in_lexical_order(tmp_path: Path) -> None:
    for name in ["b.yaml", "a/z.yml", "a/y/x.json", "a.yaml", "c.txt", "d.YAML", "e.json"]:
        write(tmp_path / name, "{}\n")
    expected = ["a/y/x.json", "a/z.yml", "a.yaml", "b.yaml", "d.YAML", "e.json"]
    found = [os.path.relpath(p, tmp_path) for p in expand_paths([str(tmp_path)])]
    assert found == expected
    assert found == [os.path.relpath(p, tmp_path) for p in expand_paths([str(tmp_path)])]


def test_symlinked_directories_are_not_followed(tmp_path: Path) -> None:
    write(tmp_path / "real" / "a.yaml", "{}\n")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    assert [os.path.relpath(p, tmp_path) for p in expand_paths([str(tmp_path)])] == ["real/a.yaml"]


def test_an_explicit_file_is_read_whatever_its_extension(tmp_path: Path) -> None:
    path = write(tmp_path / "manifest.txt", "kind: A\n")
    assert [d.content for d in read_inputs([path])] == [{"kind": "A"}]


def test_missing_paths_become_error_documents(tmp_path: Path) -> None:
    good = write(tmp_path / "good.yaml", "kind: A\n")
    missing = str(tmp_path / "missing.yaml")
    documents = list(read_inputs([missing, good]))
    assert documents[0].error is not None
    assert isinstance(documents[0].error, InputError)
    assert documents[0].source == missing
    assert str(documents[0].error) == f"{missing}: cannot read: no such file or directory"
    assert documents[1].content == {"kind": "A"}


def test_expand_paths_collects_problems(tmp_path: Path) -> None:
    problems: list[KubectlCrdError] = []
    missing = str(tmp_path / "missing")
    assert list(expand_paths([missing, "-"], problems=problems)) == ["-"]
    assert [e.location for e in problems] == [Location(missing)]
    # without a list the path is passed on, so reading it reports the error
    assert list(expand_paths([missing])) == [missing]


def test_unreadable_files_and_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Permissions do not stop root, so refuse from the inside.
    secret = write(tmp_path / "d" / "secret.yaml", "a: 1\n")
    closed = tmp_path / "closed"
    closed.mkdir()
    real_open, real_scandir = open, os.scandir

    def fake_open(path: str, *args: object, **kwargs: object) -> object:
        if path == secret:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *args, **kwargs)  # type: ignore[call-overload]

    def fake_scandir(path: str) -> object:
        if path == str(closed):
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr("builtins.open", fake_open)
    monkeypatch.setattr(os, "scandir", fake_scandir)
    documents = list(read_inputs([str(tmp_path)]))
    assert [(d.source, str(d.error)) for d in documents] == [
        (str(closed), f"{closed}: cannot read: permission denied"),
        (secret, f"{secret}: cannot read: permission denied"),
    ]


def test_stdin() -> None:
    stream = io.BytesIO(b"a: 1\n---\nb: [x,\n")
    documents = list(read_inputs(["-"], stdin=stream))
    assert documents[0].content == {"a": 1}
    assert documents[0].location == Location("<stdin>", 1, 1)
    assert documents[0].content.value_location("a") == Location("<stdin>", 1, 4)
    assert isinstance(documents[1].error, YamlError)
    assert documents[1].error.location is not None
    assert documents[1].error.location.file == "<stdin>"


LIST = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: one}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: two, name: dup}
- just a string
"""


def test_lists_are_unpacked_into_items(tmp_path: Path) -> None:
    path = write(tmp_path / "list.yaml", "kind: Other\n---\n" + LIST)
    documents = list(read_inputs([path]))
    assert [(d.index, d.item) for d in documents] == [(0, None), (1, 0), (1, 1), (1, 2)]
    one, two, text = documents[1:]
    assert one.ok
    assert one.content["metadata"] == {"name": "one"}
    assert one.location == Location(path, 6, 3)
    assert one.locate(["metadata", "name"]) == Location(path, 8, 20)
    # the duplicate belongs to the second item only
    assert two.error is not None
    assert 'duplicate field "name"' in two.error.message
    assert two.content["metadata"]["name"] == "dup"
    assert text.error is not None
    assert text.error.message == "item 2 of List is not a mapping/object"


@pytest.mark.parametrize(
    ("text", "unpacked"),
    [
        ("kind: ConfigMapList\nitems: [{kind: ConfigMap}]\n", True),
        ("kind: List\nitems: []\n", True),
        ("kind: List\nitems: {}\n", False),
        ("kind: Listing\nitems: [{kind: A}]\n", False),
        ("kind: ConfigMap\nitems: [{kind: A}]\n", False),
    ],
)
def test_what_counts_as_a_list(tmp_path: Path, text: str, unpacked: bool) -> None:
    documents = list(read_inputs([write(tmp_path / "x.yaml", text)]))
    assert all(d.item is not None for d in documents) == unpacked
    if not unpacked:
        assert len(documents) == 1


def test_a_problem_outside_the_items_keeps_the_list_whole(tmp_path: Path) -> None:
    path = write(tmp_path / "x.yaml", "kind: List\nitems: [{kind: A}]\nkind: List\n")
    documents = list(read_inputs([path]))
    assert len(documents) == 1
    assert documents[0].item is None
    assert documents[0].error is not None


def test_cached_reading_gives_the_same_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path / "cache"))
    path = write(tmp_path / "list.yaml", LIST.replace(", name: dup", ""))
    fresh = list(read_inputs([path]))
    for _ in range(2):
        cached = list(read_inputs([path], cached=True))
        assert [d.content for d in cached] == [d.content for d in fresh]
        assert [d.location for d in cached] == [d.location for d in fresh]
