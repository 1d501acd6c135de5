"""A cache of decoded documents keyed by file content, so big CRDs load in milliseconds.

``load_documents_cached(path)`` hashes the file (sha256) and looks for the decoded
values, stored as JSON under ``$KUBECTL_CRD_CACHE_DIR/parsed/`` (default
``${XDG_CACHE_HOME:-~/.cache}/kubectl-crd/parsed/``). A hit returns plain ``dict`` /
``list`` values with each document's start ``Location`` but no per-node positions;
``reload_with_positions`` parses the file again when an error needs them.

Promises: a hit never imports ruamel.yaml (``kubectl crd explain --crd FILE`` has to
start in well under 150 ms); entries are written atomically; a corrupt or foreign
entry is ignored and rewritten; a cache directory that cannot be written only costs
speed; files with any document error are not cached, so errors always come from a
fresh parse with exact positions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from typing import Any, BinaryIO

from kubectl_crd.io.documents import Document, expand_lists, is_list_object
from kubectl_crd.io.inputs import STDIN, STDIN_SOURCE, read_file, read_stdin
from kubectl_crd.io.positions import YamlList, pack
from kubectl_crd.model.errors import InputError, Location

# Bump when decoding rules change, so stale entries are not trusted.
CACHE_FORMAT = 1


def cache_dir() -> str:
    """Where parsed values are stored (the directory may not exist yet)."""
    root = os.environ.get("KUBECTL_CRD_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(xdg, "kubectl-crd")
    return os.path.join(root, "parsed")


def load_documents_cached(
    path: str, *, directory: str | None = None, stdin: BinaryIO | None = None
) -> list[Document]:
    """``load_documents`` of a file through the parsed-value cache.

    ``-`` reads stdin, which is never cached. ``directory`` overrides ``cache_dir()``.
    """
    if path == STDIN:
        return read_stdin(stdin)
    data = read_file(path)
    if isinstance(data, InputError):
        return [Document(path, 0, Location(path), error=data)]
    entry = os.path.join(directory or cache_dir(), f"v{CACHE_FORMAT}-{_digest(data)}.json")
    cached = _read_entry(entry, path)
    if cached is not None:
        return cached
    from kubectl_crd.io.loading import load_documents

    documents = load_documents(data, path)
    if all(document.error is None for document in documents):
        _write_entry(entry, documents)
    return documents


def reload_with_positions(document: Document) -> Document:
    """The same document parsed again with per-node positions (for error locations).

    Returns ``document`` itself when it already has positions, came from stdin, or
    its file can no longer be read or no longer holds that document.
    """
    if document.has_positions or document.source == STDIN_SOURCE:
        return document
    data = read_file(document.source)
    if isinstance(data, InputError):
        return document
    from kubectl_crd.io.loading import load_documents

    documents = load_documents(data, document.source)
    if document.item is not None:
        documents = list(expand_lists(documents))
    for candidate in documents:
        if candidate.index == document.index and candidate.item == document.item:
            return candidate
    return document


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_entry(entry: str, path: str) -> list[Document] | None:
    try:
        with open(entry, "rb") as file:
            payload = json.loads(file.read())
        if payload["format"] != CACHE_FORMAT:
            return None
        documents = [_cached_document(path, *row) for row in payload["documents"]]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        # Missing, half-written by an older version, or not ours: parse again.
        return None
    for document in documents:
        if not isinstance(document.content, dict) or type(document.index) is not int:
            return None
    return documents


def _cached_document(
    path: str, index: int, line: int, column: int, content: Any, items: list[int] | None
) -> Document:
    if items is not None and is_list_object(content):
        # Item positions of a List survive, so each unpacked item still points at
        # its own line (``kubectl get -o yaml`` output is one big List).
        located = YamlList(content["items"], source=path, start=pack(line, column))
        located.set_positions(items)
        content["items"] = located
    return Document(path, index, Location(path, line, column), content=content)


def _item_positions(document: Document) -> list[int] | None:
    if not is_list_object(document.content):
        return None
    items = document.content["items"]
    if not isinstance(items, YamlList):
        return None
    positions = []
    for i in range(len(items)):
        where = items.item_location(i)
        positions.append(pack(where.line, where.column) if where else 0)
    return positions


def _write_entry(entry: str, documents: list[Document]) -> None:
    payload: dict[str, Any] = {
        "format": CACHE_FORMAT,
        "documents": [
            [d.index, d.location.line, d.location.column, d.content, _item_positions(d)]
            for d in documents
        ],
    }
    try:
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except (ValueError, TypeError, RecursionError, UnicodeError):
        return
    import tempfile

    directory = os.path.dirname(entry)
    temporary = ""
    try:
        os.makedirs(directory, exist_ok=True)
        # A unique temporary file in the same directory, renamed over the entry, so a
        # reader sees either the old entry or the whole new one.
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".parsed-", suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, entry)
    except OSError:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
