"""Decoded YAML containers that remember where each of their parts was written.

``YamlMap`` and ``YamlList`` are a real ``dict`` and ``list`` (``json.dumps``,
``isinstance`` and equality with plain values all work) that also answer "which file,
line and column?" for their own start, every key, every value and every item. Scalars
are plain Python values; their parent knows where they are.

Positions describe the document as it was parsed: keys added later have none, and
list positions are by index, so inserting into a list shifts them. Several thousand
nodes per CRD are normal (the Argo Workflow schema has 10k), so a position is kept as
one packed int, not as a ``Location`` object.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kubectl_crd.model.errors import Location

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

_BITS = 32
_MASK = (1 << _BITS) - 1


def pack(line: int, column: int) -> int:
    """One position (1-based line and column) as a single int."""
    return (line << _BITS) | column


def _pack_entry(key_position: int, value_position: int) -> int:
    return (key_position << (2 * _BITS)) | value_position


def _key_of(entry: int) -> int:
    return entry >> (2 * _BITS)


def _value_of(entry: int) -> int:
    return entry & ((1 << (2 * _BITS)) - 1)


def unpack(position: int) -> tuple[int, int]:
    return position >> _BITS, position & _MASK


def _location(source: str, position: int) -> Location | None:
    if not source or not position:
        return None
    return Location(source, position >> _BITS, position & _MASK)


class _Positioned:
    """What ``YamlMap`` and ``YamlList`` share: the file and where the node starts."""

    __slots__ = ()
    _source: str
    _start: int

    @property
    def source(self) -> str:
        return self._source

    @property
    def location(self) -> Location | None:
        """Where the node starts: its first key or "-" in block style, the bracket in flow."""
        return _location(self._source, self._start)


# "Any" in quotes: base classes are evaluated, and Any is imported for type checkers only.
class YamlMap(_Positioned, dict[str, "Any"]):
    """A mapping that knows the location of itself, of each key and of each value."""

    __slots__ = ("_entries", "_source", "_start")

    def __init__(
        self, items: Iterable[tuple[str, Any]] = (), /, *, source: str = "", start: int = 0
    ) -> None:
        super().__init__(items)
        self._source = source
        self._start = start
        # key -> pack_entry(key position, value position)
        self._entries: dict[str, int] = {}

    def key_location(self, key: str) -> Location | None:
        entry = self._entries.get(key)
        return None if entry is None else _location(self._source, _key_of(entry))

    def value_location(self, key: str) -> Location | None:
        entry = self._entries.get(key)
        return None if entry is None else _location(self._source, _value_of(entry))

    def set_positions(self, key: str, key_position: int, value_position: int) -> None:
        """Record where ``key`` and its value were written (see ``pack``)."""
        self._entries[key] = _pack_entry(key_position, value_position)

    def positions(self, key: str) -> tuple[int, int]:
        """The packed positions of ``key`` and of its value; zeros when unknown."""
        entry = self._entries.get(key, 0)
        return _key_of(entry), _value_of(entry)

    def __repr__(self) -> str:
        return f"YamlMap({dict.__repr__(self)})"


class YamlList(_Positioned, list["Any"]):
    """A sequence that knows the location of itself and of each item."""

    __slots__ = ("_items", "_source", "_start")

    def __init__(self, items: Iterable[Any] = (), /, *, source: str = "", start: int = 0) -> None:
        super().__init__(items)
        self._source = source
        self._start = start
        # item index -> pack(line, column)
        self._items: list[int] = []

    def item_location(self, index: int) -> Location | None:
        if not 0 <= index < len(self._items):
            return None
        return _location(self._source, self._items[index])

    def set_positions(self, positions: Iterable[int]) -> None:
        """Record where each item was written, by index (see ``pack``)."""
        self._items = list(positions)

    def __repr__(self) -> str:
        return f"YamlList({list.__repr__(self)})"


def _walk(content: Any, path: Sequence[str | int], *, key: bool) -> Location | None:
    node = content
    found = node.location if isinstance(node, YamlMap | YamlList) else None
    for segment in path:
        if isinstance(node, dict):
            name = segment if isinstance(segment, str) else str(segment)
            if name not in node:
                break
            if isinstance(node, YamlMap):
                here = node.key_location(name) if key else node.value_location(name)
                found = here or found
            node = node[name]
        elif isinstance(node, list):
            if isinstance(segment, str):
                if not segment.isdigit():
                    break
                segment = int(segment)
            if not 0 <= segment < len(node):
                break
            if isinstance(node, YamlList):
                found = node.item_location(segment) or found
            node = node[segment]
        else:
            break
    return found


def locate(content: Any, path: Sequence[str | int]) -> Location | None:
    """Where the value at a JSON path starts.

    Path segments are keys (str) and list indexes (int, or a string of digits). When
    the path goes past what exists, the deepest existing node answers; ``None`` when
    nothing on the way has positions (e.g. plain values from the parsed-value cache).
    """
    return _walk(content, path, key=False)


def locate_field(content: Any, path: Sequence[str | int]) -> Location | None:
    """Like ``locate``, but a mapping member answers with its key: the line naming the field.

    For an error about ``spec`` this is the ``spec:`` line, where ``locate`` would give
    the first line inside it.
    """
    return _walk(content, path, key=True)


def copy_tree(node: Any) -> Any:
    """A deep copy of decoded YAML, positions included, without recursion.

    Aliases are copied rather than shared so that changing one place (defaulting,
    pruning) never changes another, as with go-yaml which decodes every alias anew.
    """
    if not isinstance(node, dict | list):
        return node
    root = _shallow_container(node)
    pending: list[tuple[Any, Any]] = [(node, root)]
    while pending:
        original, copy = pending.pop()
        if isinstance(original, dict):
            for key, value in original.items():
                if isinstance(value, dict | list):
                    child = _shallow_container(value)
                    pending.append((value, child))
                    value = child
                copy[key] = value
        else:
            for value in original:
                if isinstance(value, dict | list):
                    child = _shallow_container(value)
                    pending.append((value, child))
                    value = child
                copy.append(value)
    return root


def copy_along(node: Any, keys: Sequence[str]) -> Any:
    """A copy of the mapping ``node`` in which only the mappings along ``keys`` are new
    (positions kept) and everything else is shared with ``node``: enough to set a value
    under ``keys`` without changing ``node``, for a fraction of ``copy_tree``'s cost
    (``scale --local`` sets one field in each of many objects)."""
    root = _shallow_container(node)
    original, copy = node, root
    for depth in range(len(keys) + 1):
        for key, value in original.items():
            copy[key] = value
        if depth == len(keys):
            break
        child = original.get(keys[depth])
        if not isinstance(child, dict):
            break
        copy[keys[depth]] = _shallow_container(child)
        original, copy = child, copy[keys[depth]]
    return root


def _shallow_container(node: Any) -> Any:
    if isinstance(node, YamlMap):
        new_map = YamlMap(source=node._source, start=node._start)
        new_map._entries = dict(node._entries)
        return new_map
    if isinstance(node, YamlList):
        new_list = YamlList(source=node._source, start=node._start)
        new_list._items = list(node._items)
        return new_list
    return {} if isinstance(node, dict) else []
