"""Files, directories and stdin as a stream of documents, the way ``kubectl -f`` takes them.

A directory stands for every ``.yaml``, ``.yml`` and ``.json`` file below it, in
lexical order of the path components (what Go's ``filepath.Walk`` gives kubectl), so
runs are deterministic; symlinked directories are not followed. A file named
explicitly is read whatever its extension. ``-`` is stdin. A path that cannot be read
becomes a ``Document`` with an ``InputError``: nothing here raises for bad input.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

from kubectl_crd.io.documents import Document, expand_lists
from kubectl_crd.io.reading import STDIN, read_error, read_file, read_stdin
from kubectl_crd.model.errors import InputError, KubectlCrdError, Location

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import BinaryIO

EXTENSIONS = (".yaml", ".yml", ".json")


def display_path(path: str) -> str:
    """A path as the user reads it: relative to the working directory when below it
    (where the user typed ``--local foo``, ``foo/foo.yaml``, not the absolute path)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith("..") else relative


def expand_paths(
    paths: Sequence[str], *, problems: list[KubectlCrdError] | None = None
) -> Iterator[str]:
    """Each path, with directories replaced by the manifest files below them.

    ``-`` (stdin) is passed through. A path that does not exist or a directory that
    cannot be listed is appended to ``problems`` when given; without ``problems`` a
    missing path is passed through so that reading it reports the error.
    """
    for path in paths:
        for found in _expand(path):
            if isinstance(found, InputError):
                if problems is None:
                    yield found.location.file if found.location else path
                else:
                    problems.append(found)
            else:
                yield found


def require_paths(paths: Sequence[str]) -> None:
    """kubectl's resource builder refuses a ``-f`` path that does not exist before it
    reads anything (``cli-runtime/pkg/resource/visitor.go``: ``ExpandPathsToFileVisitors``,
    ``pathNotExistError``): ``the path "x.yaml" does not exist``, for the first such path."""
    for path in paths:
        if path != STDIN and not os.path.lexists(path):
            from kubectl_crd.model.govalues import go_quote  # json: only when it is said

            raise InputError(f"the path {go_quote(path)} does not exist")


def read_inputs(
    paths: Sequence[str], *, stdin: BinaryIO | None = None, cached: bool = False
) -> Iterator[Document]:
    """Every document of every input, Lists unpacked into their items.

    With ``cached``, files go through the parsed-value cache (see ``caching``): much
    faster for big files, but the documents have no per-node positions until
    ``reload_with_positions``.
    """
    for path in paths:
        for found in _expand(path):
            if isinstance(found, InputError):
                location = found.location or Location(path)
                yield Document(location.file, 0, location, error=found)
            elif found == STDIN:
                yield from expand_lists(read_stdin(stdin))
            else:
                yield from expand_lists(_read_file(found, cached))


def input_documents(paths: Sequence[str], *, cached: bool = False) -> Iterator[Document]:
    """Every document of every input; a file with none is one empty document (kubeconform's
    "empty" status), so that it is reported instead of silently passing. ``cached``: as
    ``read_inputs``."""
    for path in expand_paths(paths):
        found = False
        for document in read_inputs([path], cached=cached):
            found = True
            yield document
        if not found:
            yield Document(path, 0, Location(path))


def files_defining_crds(paths: Sequence[str]) -> tuple[str, ...]:
    """The input files that may define a CRD: a byte search, so that a first pass for
    the CRDs parses only those (the word cannot be missing from a file that has one)."""
    found = []
    for path in expand_paths(paths):
        if path == STDIN:
            continue
        try:
            with open(path, "rb") as file:
                if b"CustomResourceDefinition" in file.read():
                    found.append(path)
        except OSError:
            continue  # the second pass reports it
    return tuple(found)


def _read_file(path: str, cached: bool) -> list[Document]:
    if cached:
        from kubectl_crd.io.caching import load_documents_cached

        return load_documents_cached(path)
    from kubectl_crd.io.loading import load_documents

    data = read_file(path)
    if isinstance(data, InputError):
        return [Document(path, 0, Location(path), error=data)]
    return load_documents(data, path)


def _expand(path: str) -> Iterator[str | InputError]:
    if path == STDIN or not os.path.isdir(path):
        if path != STDIN and not os.path.lexists(path):
            yield InputError("cannot read: no such file or directory", location=Location(path))
        else:
            yield path
        return
    yield from _walk(path)


def _walk(root: str) -> Iterator[str | InputError]:
    """The manifest files below ``root`` in lexical order, or the errors met on the way."""
    listing = _listing(root)
    if isinstance(listing, InputError):
        yield listing
        return
    stack = [iter(listing)]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
        elif entry.is_dir(follow_symlinks=False):
            inner = _listing(entry.path)
            if isinstance(inner, InputError):
                yield inner
            else:
                stack.append(iter(inner))
        elif entry.name.lower().endswith(EXTENSIONS):
            yield entry.path


def _listing(directory: str) -> list[os.DirEntry[str]] | InputError:
    try:
        with os.scandir(directory) as scan:
            return sorted(scan, key=lambda entry: entry.name)
    except OSError as exc:
        return read_error(directory, exc)
