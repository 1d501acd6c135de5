"""The Kubernetes CEL libraries (``apiserver/pkg/cel/library``), one module each.

Each module exposes ``LIBRARY``, a ``Library``: the function declarations with their
Python implementations, the engine extensions it enables, and the message types that
carry its opaque values (``kubernetes.Quantity``, ``net.IP``...) in the one
descriptor pool, so that type names in the engine's messages are the server's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Library:
    """One library of the CRD CEL environment and the release it entered it."""

    name: str
    since: str  # the Kubernetes minor release ("1.28"); "base" for the first environment
    functions: tuple[Any, ...] = ()  # cel.FunctionDecl
    extensions: tuple[Any, ...] = ()  # cel.CelExtensionBase
    messages: tuple[Any, ...] = field(default=())  # descriptor_pb2.DescriptorProto
