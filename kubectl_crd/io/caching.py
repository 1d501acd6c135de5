"""A cache of decoded documents keyed by file content, so big CRDs load in milliseconds.

``load_documents_cached(path)`` hashes the file (sha256) and looks for the decoded
values under ``$KUBECTL_CRD_CACHE_DIR/parsed/`` (default
``${XDG_CACHE_HOME:-~/.cache}/kubectl-crd/parsed/``). An entry is the values as
``marshal`` data (plain ``dict``, ``list``, ``str``, numbers, ``None``: twice as fast
to read as JSON, and, unlike pickle, it cannot run code), behind a header naming the
cache and marshal formats and the CRC-32 of the data, so an entry written by another
Python or cut short or damaged on disk is never decoded.

Reading and hashing a 2.8 MB file, and importing hashlib for it, cost about 5 ms of
a 40 ms explain, so, like git's index, the cache also remembers which content digest
a file had for its inode, size, mtime and ctime, and trusts that while they stay the
same. A file is only remembered once its timestamps are ``SETTLED_NS`` old: a change
in the same clock tick as the one read could otherwise leave them all unchanged.

The cache stays under ``MAX_BYTES`` (256 MB): each new entry prunes the least
recently used files (a hit refreshes its entry's mtime at most once a day) and the
files of other cache formats. A hit returns plain ``dict`` /
``list`` values with each document's start ``Location`` but no per-node positions;
``reload_with_positions`` parses the file again when an error needs them.

Promises: a hit never imports ruamel.yaml (``kubectl crd explain --crd FILE`` has to
start in well under 150 ms); entries are written atomically; a corrupt or foreign
entry is ignored and rewritten; a cache directory that cannot be written only costs
speed; files with any document error are not cached, so errors always come from a
fresh parse with exact positions.

``add_mark`` / ``has_mark`` remember a fact about a file's content next to its entry
(an empty file named by the content digest and the mark): what a caller established
about values it read once, say that a CRD's schemas passed a check, it need not
establish again while the content is unchanged.
"""

from __future__ import annotations

import gc
import marshal
import os
import time
import zlib

from kubectl_crd.io.documents import Document, expand_lists, is_list_object
from kubectl_crd.io.positions import YamlList, pack
from kubectl_crd.io.reading import STDIN, STDIN_SOURCE, read_file, read_stdin
from kubectl_crd.model.errors import InputError, Location
from kubectl_crd.model.records import replace
from kubectl_crd.model.schema import plain

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# Bump when decoding rules or the entry layout change, so stale entries are not trusted.
CACHE_FORMAT = 4  # 4: go-yaml v2's verdicts ("\/" refused, a final line break kept)
# What an entry starts with; the CRC-32 of the marshal data follows (4 bytes, big
# endian), then the data.
_HEADER = b"kubectl-crd parsed values %d, marshal %d\n" % (CACHE_FORMAT, marshal.version)
_CHECKSUM_SIZE = 4
#: How old a file's mtime and ctime must be before its stat is trusted to stand for its
#: content (git's "racy clean" problem: timestamps have a coarse tick).
SETTLED_NS = 2_000_000_000
#: After writing a new entry the cache is pruned if its files take more than this:
#: the least recently used go first, down to three quarters of it.
MAX_BYTES = 256 * 1024 * 1024
#: A hit marks its entry as used again (its mtime) at most this often.
_TOUCH_AFTER_NS = 24 * 3600 * 1_000_000_000


def cache_dir() -> str:
    """Where parsed values are stored (the directory may not exist yet)."""
    from kubectl_crd.io.cachefiles import cache_root

    return os.path.join(cache_root(), "parsed")


def load_documents_cached(
    path: str, *, directory: str | None = None, stdin: BinaryIO | None = None
) -> list[Document]:
    """``load_documents`` of a file through the parsed-value cache.

    ``-`` reads stdin, which is never cached. ``directory`` overrides ``cache_dir()``.
    """
    if path == STDIN:
        return read_stdin(stdin)
    root = directory or cache_dir()
    identity = _identity(path)
    if identity is not None:
        digest = _recorded_digest(root, identity)
        if digest is not None:
            cached = _read_entry(_entry_path(root, digest), path, digest)
            if cached is not None:
                return cached
    data = read_file(path)
    if isinstance(data, InputError):
        return [Document(path, 0, Location(path), error=data)]
    digest = _digest(data)
    entry = _entry_path(root, digest)
    cached = _read_entry(entry, path, digest)
    if cached is not None:
        _record_digest(root, identity, digest)
        return cached
    from kubectl_crd.io.loading import load_documents

    documents = load_documents(data, path, positions=False, digest=digest)
    if all(document.error is None for document in documents):
        written = _write_entry(entry, documents)
        if written:
            _record_digest(root, identity, digest)
            # a prune stats every entry: done on a process's first write, then each time
            # an eighth of the limit has been written (a run over thousands of new
            # files paid it for each of them: seconds)
            unpruned = _WRITTEN.get(root, -1)
            if unpruned < 0 or unpruned + written > MAX_BYTES // 8:
                _WRITTEN[root] = 0
                prune(root)
            else:
                _WRITTEN[root] = unpruned + written
        # a plain build has given them the digest; a List's file was read with positions
        documents = [d if d.digest == digest else replace(d, digest=digest) for d in documents]
    return documents


def _entry_path(root: str, digest: str) -> str:
    return os.path.join(root, f"v{CACHE_FORMAT}-{digest}.marshal")


class _Identity:
    """What stands for a file's content while it is unchanged: inode, size, times."""

    __slots__ = ("name", "settled", "stamp")

    def __init__(self, status: os.stat_result) -> None:
        self.name = f"v{CACHE_FORMAT}-file-{status.st_dev}-{status.st_ino}.digest"
        self.stamp = f"{status.st_size} {status.st_mtime_ns} {status.st_ctime_ns} "
        newest = max(status.st_mtime_ns, status.st_ctime_ns)
        self.settled = time.time_ns() - newest > SETTLED_NS


def _identity(path: str) -> _Identity | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return _Identity(status)


def _recorded_digest(root: str, identity: _Identity) -> str | None:
    try:
        with open(os.path.join(root, identity.name), encoding="ascii") as file:
            record = file.read()
    except (OSError, ValueError):
        return None
    stamp, _, digest = record.rpartition(" ")
    if stamp + " " != identity.stamp or len(digest) != 64:
        return None
    return digest


def _record_digest(root: str, identity: _Identity | None, digest: str) -> None:
    if identity is None or not identity.settled:
        return
    _write_atomically(os.path.join(root, identity.name), (identity.stamp + digest).encode())


def has_mark(document: Document, mark: str, *, directory: str | None = None) -> bool:
    """Whether ``add_mark(d, mark)`` was called for a document of the same file content."""
    if not document.digest:
        return False
    return os.path.exists(_mark_path(document.digest, mark, directory))


def add_mark(document: Document, mark: str, *, directory: str | None = None) -> None:
    """Remember ``mark`` (a short name) for the content of ``document``'s file.

    Does nothing for a document that did not come through the cache (stdin, or a file
    with errors); a cache directory that cannot be written only costs speed.
    """
    if not document.digest:
        return
    # Empty, so a reader sees the mark whole or not at all.
    try:
        with open(_mark_path(document.digest, mark, directory), "xb"):
            pass
    except OSError:
        pass


def _mark_path(digest: str, mark: str, directory: str | None) -> str:
    return os.path.join(directory or cache_dir(), f"v{CACHE_FORMAT}-{digest}.{mark}")


def reload_with_positions(document: Document) -> Document:
    """The same document parsed again with per-node positions (for error locations).

    Returns ``document`` itself when it already has positions, came from stdin, or
    its file can no longer be read or no longer holds that document. The last file
    parsed is kept, by its path and content digest: the other rejected documents of a
    file come next, and need no parse of their own.
    """
    if document.has_positions or document.source == STDIN_SOURCE:
        return document
    key = (document.source, document.digest, document.item is not None)
    found = _reloaded.get(key) if document.digest else None
    if found is None:
        data = read_file(document.source)
        if isinstance(data, InputError):
            return document
        from kubectl_crd.io.loading import load_documents

        documents = load_documents(data, document.source)
        if document.item is not None:
            documents = list(expand_lists(documents))
        found = {}
        for candidate in documents:
            found.setdefault((candidate.index, candidate.item), candidate)
        # the file's other rejected documents usually follow: the last file read is
        # kept (each of them parsed the whole file again: 1,000 took 46 s)
        _reloaded.clear()
        if document.digest:
            _reloaded[key] = found
    return found.get((document.index, document.item), document)


#: ``reload_with_positions``' last file: its documents with positions by index and item,
#: by path, content digest and whether Lists were expanded
_reloaded: dict[tuple[str, str, bool], dict[tuple[int, int | None], Document]] = {}


def _digest(data: bytes) -> str:
    import hashlib  # only on a miss: importing it costs 2-4 ms

    return hashlib.sha256(data).hexdigest()


def _read_entry(entry: str, path: str, digest: str) -> list[Document] | None:
    try:
        with open(entry, "rb") as file:
            data = memoryview(file.read())
            used = os.fstat(file.fileno()).st_mtime_ns
        if time.time_ns() - used > _TOUCH_AFTER_NS:
            os.utime(entry)  # recently used: pruned last
        rows = _unframed(data)
        if rows is None:
            return None  # half-written by an older version, damaged, or not ours
        documents = [_cached_document(path, digest, *row) for row in rows]
    except (OSError, ValueError, EOFError, KeyError, TypeError, RecursionError):
        return None  # missing, or not what we wrote after all: parse again
    for document in documents:
        if not isinstance(document.content, dict) or type(document.index) is not int:
            return None
    return documents


def _cached_document(
    path: str,
    digest: str,
    index: int,
    line: int,
    column: int,
    content: Any,
    items: list[int] | None,
) -> Document:
    if items is not None and is_list_object(content):
        # Item positions of a List survive, so each unpacked item still points at
        # its own line (``kubectl get -o yaml`` output is one big List).
        located = YamlList(content["items"], source=path, start=pack(line, column))
        located.set_positions(items)
        content["items"] = located
    return Document(path, index, Location(path, line, column), content=content, digest=digest)


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


#: Bytes this process has written to each cache directory since it last pruned it.
_WRITTEN: dict[str, int] = {}


def prune(root: str, max_bytes: int | None = None) -> None:
    """Keep the cache under ``max_bytes`` (``MAX_BYTES``): drop the files of other
    cache formats and leftover temporary files, then the least recently used files
    until three quarters of the limit are left. Errors only leave files behind."""
    limit = MAX_BYTES if max_bytes is None else max_bytes
    try:
        names = os.listdir(root)
    except OSError:
        return
    current = f"v{CACHE_FORMAT}-"
    now = time.time_ns()
    kept: list[tuple[int, int, str]] = []
    total = 0
    for name in names:
        path = os.path.join(root, name)
        try:
            status = os.stat(path)
            if name.startswith(".parsed-"):
                if now - status.st_mtime_ns > _TOUCH_AFTER_NS:
                    os.unlink(path)  # left by a writer that was killed
                continue
            if not name.startswith(current):
                os.unlink(path)  # written by another version of the cache
                continue
        except OSError:
            continue
        kept.append((status.st_mtime_ns, status.st_size, path))
        total += status.st_size
    if total <= limit:
        return
    kept.sort()
    for _, size, path in kept:
        if total <= limit * 3 // 4:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size


def _write_entry(entry: str, documents: list[Document]) -> int:
    """The bytes written, 0 when nothing was."""
    try:
        values = marshal.dumps(
            [
                [
                    d.index,
                    d.location.line,
                    d.location.column,
                    plain(d.content) if d.has_positions else d.content,
                    _item_positions(d),
                ]
                for d in documents
            ]
        )
    except (ValueError, RecursionError):
        return 0
    data = _framed(values)
    return len(data) if _write_atomically(entry, data) else 0


def _framed(values: bytes) -> bytes:
    """Marshal data behind the header and its CRC-32."""
    return _HEADER + zlib.crc32(values).to_bytes(_CHECKSUM_SIZE, "big") + values


def _unframed(data: memoryview) -> Any:
    """What ``_framed`` framed, decoded; ``None`` for anything else. Raises what
    ``marshal.loads`` raises for data that passed the checks but is not marshal."""
    begin = len(_HEADER) + _CHECKSUM_SIZE
    if data[: len(_HEADER)] != _HEADER or zlib.crc32(data[begin:]).to_bytes(
        _CHECKSUM_SIZE, "big"
    ) != bytes(data[len(_HEADER) : begin]):
        return None
    # The collector would walk the young values over and over while they are
    # being built, for nothing: they are all reachable.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return marshal.loads(data[begin:])
    finally:
        if collecting:
            gc.enable()


def load_value(name: str, *, directory: str | None = None) -> Any:
    """What ``store_value(name, ...)`` stored (``None`` when nothing readable is there).

    For what a caller derives from content it names by digest (a rule's traced
    program): plain values (``marshal``'s), in the same directory, format and
    pruning as the parsed values."""
    try:
        with open(_value_path(name, directory), "rb") as file:
            return _unframed(memoryview(file.read()))
    except (OSError, ValueError, EOFError, TypeError):
        return None


def store_value(name: str, value: Any, *, directory: str | None = None) -> None:
    """Keep ``value`` under ``name`` (letters, digits, dashes); a directory that cannot
    be written only costs speed."""
    try:
        data = _framed(marshal.dumps(value))
    except ValueError:
        return
    _write_atomically(_value_path(name, directory), data)


def _value_path(name: str, directory: str | None) -> str:
    return os.path.join(directory or cache_dir(), f"v{CACHE_FORMAT}-value-{name}.marshal")


def _write_atomically(path: str, data: bytes) -> bool:
    from kubectl_crd.io.cachefiles import write_atomically

    return write_atomically(path, data, prefix=".parsed-")
