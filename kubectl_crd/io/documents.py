"""One result per YAML document: its value, or why it could not be read.

Like kubeconform, an unreadable document is just a result: ``Document.error`` says what
went wrong (with file, line and column) and every other document of the same run still
comes through. ``expand_lists`` turns a ``kind: List`` (or any ``*List`` with an
``items`` array, as ``kubectl get -o yaml`` writes) into one document per item.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from kubectl_crd.io.positions import YamlList, YamlMap, locate, locate_field
from kubectl_crd.model.errors import InputError, Location, YamlError
from kubectl_crd.model.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any


@record
class Document:
    """A decoded document, or the error that stopped it.

    ``index`` counts the YAML documents of the file from 0 (empty ones included, so it
    matches what an editor shows); ``item`` is the position inside the ``items`` of a
    List the document was unpacked from. ``content`` is a ``YamlMap`` when positions
    are known, a plain ``dict`` when it came from the parsed-value cache, and may be
    kept next to an ``error`` that does not destroy it (duplicate keys: last one wins).
    ``more_errors`` holds any further problems of the same kind. ``digest`` is the
    sha256 of the file's content when it was read through the parsed-value cache: the
    key for facts about that content (``caching.has_mark``).
    """

    source: str
    index: int
    location: Location
    content: Any = None
    error: InputError | None = None
    item: int | None = None
    more_errors: tuple[YamlError, ...] = ()
    digest: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def errors(self) -> tuple[InputError, ...]:
        """Every problem found in the document, the first being ``error``."""
        return () if self.error is None else (self.error, *self.more_errors)

    @property
    def has_positions(self) -> bool:
        """False for values from the parsed-value cache (see ``reload_with_positions``)."""
        return isinstance(self.content, YamlMap | YamlList)

    def locate(self, path: Sequence[str | int]) -> Location:
        """Where the value at ``path`` starts; the document's start when unknown."""
        return locate(self.content, path) or self.location

    def locate_field(self, path: Sequence[str | int]) -> Location:
        """Where the field at ``path`` is named; the document's start when unknown."""
        return locate_field(self.content, path) or self.location


def is_list_object(content: Any) -> bool:
    """True for ``kind: List`` and any ``*List`` kind that carries an ``items`` array."""
    if not isinstance(content, dict):
        return False
    kind = content.get("kind")
    return (
        isinstance(kind, str) and kind.endswith("List") and isinstance(content.get("items"), list)
    )


def expand_lists(documents: Iterable[Document]) -> Iterator[Document]:
    """Each List document as one document per item; every other document unchanged.

    A problem inside one item (a duplicate key) stays with that item; a problem
    outside all items keeps the List whole, so nothing is silently dropped.
    """
    for document in documents:
        if not is_list_object(document.content):
            yield document
            continue
        items: list[Any] = document.content["items"]
        starts = [_item_location(document, items, i) for i in range(len(items))]
        owners = [_owner(items, error) for error in document.errors]
        if any(owner is None for owner in owners):
            yield document
            continue
        for i, item in enumerate(items):
            mine = [e for e, owner in zip(document.errors, owners, strict=True) if owner == i]
            error: InputError | None = mine[0] if mine else None
            if error is None and not isinstance(item, dict):
                error = YamlError(
                    f"item {i} of {document.content['kind']} is not a mapping/object",
                    location=starts[i],
                )
            yield Document(
                source=document.source,
                index=document.index,
                location=starts[i],
                content=item,
                error=error,
                item=i,
                more_errors=tuple(e for e in mine[1:] if isinstance(e, YamlError)),
            )


def _item_location(document: Document, items: list[Any], index: int) -> Location:
    if isinstance(items, YamlList):
        found = items.item_location(index)
        if found is not None:
            return found
    return document.location


def _owner(items: list[Any], error: InputError) -> int | None:
    """The item whose subtree holds a key at the error's location, if any."""
    where = error.location
    if where is None:
        return None
    for i, item in enumerate(items):
        pending = [item]
        while pending:
            node = pending.pop()
            if isinstance(node, YamlMap):
                if any(node.key_location(key) == where for key in node):
                    return i
                pending.extend(node.values())
            elif isinstance(node, list):
                pending.extend(node)
    return None
