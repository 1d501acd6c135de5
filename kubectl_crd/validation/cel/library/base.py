"""What a library is: its functions, and the Kubernetes release that brought it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Library:
    """One library of the CRD CEL environment and the release it entered it."""

    name: str
    since: str  # the Kubernetes minor release ("1.28"); "base" for the first environment
    # (function name, [cel.Overload, ...]): the environment merges the overloads of a
    # name across libraries (quantity and semver both have compareTo)
    functions: tuple[tuple[str, list[Any]], ...] = ()
