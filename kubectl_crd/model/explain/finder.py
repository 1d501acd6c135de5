"""The pure half of ``explain -i``: every field path of a resource, and fuzzy ranking.

``field_paths`` lists what ``kubectl crd explain RESOURCE.<path>`` accepts, in the
order of ``explain --recursive`` (kubectl's FIELDS order, depth first), the resource
itself first as the empty path. Standard types are followed too (``metadata.labels``),
and a reference already on the way down is a cycle that is not followed again.

``rank`` orders paths for a query the way fzf-like finders do: every
space-separated term must appear in order (a subsequence), case-insensitively unless
the term has an upper-case letter; a run of consecutive characters, a match at the
start of a path element and a literal substring score higher; shorter paths win
ties. It also returns the matched positions, for highlighting.

Pure: stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from kubectl_crd.model.explain.details import escape_field
from kubectl_crd.model.explain.fieldpath import is_map_schema, resolve
from kubectl_crd.model.explain.published import PublishedSchema
from kubectl_crd.model.explain.target import field_entries
from kubectl_crd.model.records import record
from kubectl_crd.model.schema import FieldPath, Schema

_MATCH = 16
_CONSECUTIVE = 12
_BOUNDARY = 10
_SUBSTRING = 24
_GAP = 1
_SEPARATORS = frozenset("._-/\\")


def field_paths(published: PublishedSchema, *, limit: int = 20_000) -> list[FieldPath]:
    """Every field path of the resource (``()`` first), at most ``limit`` of them."""
    out: list[FieldPath] = [()]
    seen: set[FieldPath] = {()}
    for path in _walk(published, published.root, (), frozenset()):
        if path not in seen:
            seen.add(path)
            out.append(path)
            if len(out) >= limit:
                break
    return out


def _walk(
    published: PublishedSchema, schema: Schema, prefix: FieldPath, refs: frozenset[str]
) -> Iterator[FieldPath]:
    for name, child, _ in field_entries(published, schema):
        path = (*prefix, name)
        yield path
        child_refs = _refs(published, child)
        if child_refs & refs:
            continue  # a cycle through a reference
        yield from _walk(published, child, path, refs | child_refs)


def _refs(published: PublishedSchema, schema: Schema) -> frozenset[str]:
    """The ``$ref`` targets reached from ``schema`` without a property step."""
    found: set[str] = set()
    pending = [schema]
    while pending:
        node = pending.pop()
        ref = node.get("$ref")
        if isinstance(ref, str) and ref:
            if ref in found:
                continue
            found.add(ref)
        node = resolve(published, node)
        for branch in node.get("allOf") or ():
            if isinstance(branch, Mapping):
                pending.append(branch)
        items = node.get("items")
        if isinstance(items, Mapping) and items:
            pending.append(items)
        additional = node.get("additionalProperties")
        if is_map_schema(additional):
            pending.append(additional)
    return frozenset(found)


def path_text(path: FieldPath) -> str:
    """A path as typed after the resource: ``spec.ports.name`` (dots in names escaped)."""
    return ".".join(escape_field(name) for name in path)


@record
class Match:
    """A ranked candidate: its index in the input, the score, the matched positions."""

    index: int
    text: str
    score: int
    positions: tuple[int, ...]


def rank(query: str, candidates: Sequence[str]) -> list[Match]:
    """The candidates matching ``query``, best first (all of them, in order, if empty)."""
    terms = query.split()
    if not terms:
        return [Match(i, text, 0, ()) for i, text in enumerate(candidates)]
    matches = []
    for index, text in enumerate(candidates):
        total = 0
        positions: set[int] = set()
        for term in terms:
            found = score(term, text)
            if found is None:
                break
            total += found[0]
            positions.update(found[1])
        else:
            matches.append(Match(index, text, total, tuple(sorted(positions))))
    matches.sort(key=lambda m: (-m.score, len(m.text), m.index))
    return matches


def score(term: str, text: str) -> tuple[int, tuple[int, ...]] | None:
    """The best score of ``term`` as a subsequence of ``text`` and where it matched."""
    smart_case = term != term.lower()
    haystack = text if smart_case else text.lower()
    needle = term if smart_case else term.lower()
    if not needle:
        return 0, ()
    best: tuple[int, tuple[int, ...]] | None = None
    start = haystack.find(needle[0])
    while start >= 0:
        found = _greedy(needle, haystack, text, start)
        if found is None:
            break  # no later start can match either
        if best is None or found[0] > best[0]:
            best = found
        start = haystack.find(needle[0], start + 1)
    return best


def _greedy(
    needle: str, haystack: str, text: str, start: int
) -> tuple[int, tuple[int, ...]] | None:
    """Match ``needle`` from ``start``, preferring a literal run, then scan forward."""
    if haystack.startswith(needle, start):
        positions = tuple(range(start, start + len(needle)))
        points = len(needle) * _MATCH + (len(needle) - 1) * _CONSECUTIVE + _SUBSTRING
        return points + _boundary(text, start) + _boundaries(text, positions[1:]), positions
    positions_list: list[int] = []
    cursor = start
    for char in needle:
        cursor = haystack.find(char, cursor)
        if cursor < 0:
            return None
        positions_list.append(cursor)
        cursor += 1
    points = 0
    previous = -2
    for position in positions_list:
        points += _MATCH
        if position == previous + 1:
            points += _CONSECUTIVE
        elif previous >= 0:
            points -= min(position - previous - 1, 8) * _GAP
        points += _boundary(text, position)
        previous = position
    return points, tuple(positions_list)


def _boundary(text: str, position: int) -> int:
    if position == 0 or text[position - 1] in _SEPARATORS:
        return _BOUNDARY
    if text[position].isupper() and text[position - 1].islower():
        return _BOUNDARY // 2  # camelCase hump
    return 0


def _boundaries(text: str, positions: Sequence[int]) -> int:
    return sum(_BOUNDARY for p in positions if text[p - 1] in _SEPARATORS)
