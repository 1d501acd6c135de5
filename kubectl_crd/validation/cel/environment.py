"""The CEL environment of CRD validation rules, built once per set of variables.

``apiserver/pkg/cel/environment/base.go`` (Kubernetes 1.34): the standard library with
the extensions cel-cpp carries itself (strings v2 as Kubernetes pins it, optional
types, sets, two-variable comprehensions), and the Kubernetes libraries of
``library`` registered as Python functions. Message types live in one descriptor
pool: the libraries' opaque types and, for type-checking a CRD's rules, the messages
``typing`` generates for its schema (``files``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from cel_expr_python import cel
from google.protobuf import descriptor_pool

from kubectl_crd.validation.cel.library import (
    formats,
    indexing,
    lists,
    network,
    quantity,
    regex,
    semver,
    types,
    urls,
)
from kubectl_crd.validation.cel.library.base import Library

LIBRARIES: tuple[Library, ...] = (
    regex.LIBRARY,
    lists.LIBRARY,
    indexing.LIBRARY,
    urls.LIBRARY,
    quantity.LIBRARY,
    network.LIBRARY,
    formats.LIBRARY,
    semver.LIBRARY,
)

# The extensions of Kubernetes' CRD environment that cel-cpp implements: strings at
# version 2 as base.go pins it (no reverse()), optional types, sets, two-variable
# comprehensions. ext.Lists (sort, flatten, range...) is not in a 1.34 server's CRD
# environment: it refuses such rules as undeclared references.
_CONFIG = """
extensions:
  - name: "optional"
    version: 2
  - name: "strings"
    version: 2
  - name: "sets"
  - name: "two-var-comprehensions"
"""


@cache
def _pool() -> Any:
    from google.protobuf import duration_pb2, struct_pb2, timestamp_pb2

    pool = descriptor_pool.DescriptorPool()
    for module in (struct_pb2, timestamp_pb2, duration_pb2):
        pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
    for file in types.files():
        pool.Add(file)
    types.bind(pool)
    return pool


@cache
def _functions() -> tuple[Any, ...]:
    overloads: dict[str, list[Any]] = {}
    for library in LIBRARIES:
        for name, found in library.functions:
            overloads.setdefault(name, []).extend(found)
    return tuple(cel.FunctionDecl(name, found) for name, found in overloads.items())


def prepare(expression: str) -> str:
    """An expression as this engine compiles it: ``format``'s ``validate`` rewritten to
    give an optional (``library.formats.rewrite``), ``indexOf`` and ``lastIndexOf``
    renamed to reach lists too (``library.indexing.rewrite``)."""
    from kubectl_crd.validation.cel.library.formats import rewrite

    return indexing.rewrite(rewrite(expression))


def build_environment(
    variables: Mapping[str, Any], *, files: Sequence[Any] = (), functions: Sequence[Any] = ()
) -> Any:
    """A ``cel.Env`` with ``variables`` (name to ``cel.Type``), every library and
    ``functions`` (``cel.FunctionDecl``, e.g. ``runtime_cost``'s tracing calls).

    ``files`` are ``FileDescriptorProto`` messages added to the pool once (by name).
    """
    pool = _pool()
    for file in files:
        try:
            pool.FindFileByName(file.name)
        except KeyError:
            pool.Add(file)
    return cel.NewEnv(
        descriptor_pool=pool,
        config=cel.NewEnvConfigFromYaml(_CONFIG),
        variables=dict(variables),
        functions=[*_functions(), *functions],
    )
