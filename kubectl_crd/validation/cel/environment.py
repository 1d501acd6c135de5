"""The CEL environment of CRD validation rules, built once per process.

``apiserver/pkg/cel/environment/base.go``: the libraries by release; this module
registers every ``library`` module's functions with the engine. Message types live in
one descriptor pool: the libraries' opaque types and, for type-checking a CRD's rules,
the messages ``typing`` generates for its schema (``files``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from cel_expr_python import cel
from cel_expr_python.ext import ext_optional, ext_strings
from google.protobuf import descriptor_pool


@cache
def _extensions() -> tuple[Any, ...]:
    return (ext_strings.ExtStrings(), ext_optional.ExtOptional())


@cache
def _pool() -> Any:
    from google.protobuf import duration_pb2, struct_pb2, timestamp_pb2

    pool = descriptor_pool.DescriptorPool()
    for module in (struct_pb2, timestamp_pb2, duration_pb2):
        pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
    return pool


def build_environment(variables: Mapping[str, Any], *, files: Sequence[Any] = ()) -> Any:
    """A ``cel.Env`` with ``variables`` (name to ``cel.Type``) and every library.

    ``files`` are ``FileDescriptorProto`` messages added to the pool once (by name).
    """
    pool = _pool()
    for file in files:
        try:
            pool.FindFileByName(file.name)
        except KeyError:
            pool.Add(file)
    return cel.NewEnv(
        descriptor_pool=pool, variables=dict(variables), extensions=list(_extensions())
    )
