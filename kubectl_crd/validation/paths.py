"""Where a node is, as a cheap chain, and the ways the server spells it.

A walk passes ``(parent, segment, is_map_key)`` tuples down instead of strings: the
text is made only when an error needs it. kube-openapi and pruning join keys with
``.`` and indexes as ``[i]``; ``field.Path`` (list types, embedded ObjectMeta) writes
a map key of an ``additionalProperties`` map as ``[key]``.
"""

from __future__ import annotations

from typing import Any

Chain = tuple[Any, str | int, bool] | None


def child(chain: Chain, key: str) -> Chain:
    return (chain, key, False)


def map_key(chain: Chain, key: str) -> Chain:
    return (chain, key, True)


def index(chain: Chain, position: int) -> Chain:
    return (chain, position, False)


def segments(chain: Chain) -> list[str | int]:
    out: list[str | int] = []
    while chain is not None:
        chain, segment, _ = chain
        out.append(segment)
    out.reverse()
    return out


def dotted(chain: Chain) -> str:
    """kube-openapi's and pruning's spelling: ``spec.ports[0].name``, map keys dotted."""
    parts: list[str] = []
    for segment in segments(chain):
        if isinstance(segment, int):
            parts.append(f"[{segment}]")
        elif parts:
            parts.append("." + segment)
        else:
            parts.append(segment)
    return "".join(parts)


def field_path(chain: Chain) -> str:
    """``field.Path.String()``: children dotted, indexes and map keys in brackets."""
    parts: list[str] = []
    node = chain
    reversed_parts: list[tuple[str | int, bool]] = []
    while node is not None:
        node, segment, is_key = node
        reversed_parts.append((segment, is_key))
    for segment, is_key in reversed(reversed_parts):
        if isinstance(segment, int) or is_key:
            parts.append(f"[{segment}]")
        elif parts:
            parts.append("." + segment)
        else:
            parts.append(segment)
    return "".join(parts) or "<nil>"
