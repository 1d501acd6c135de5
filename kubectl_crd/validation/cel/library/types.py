"""The message types that carry the libraries' opaque values, in one descriptor file.

cel-expr-python takes no opaque Python values, so ``kubernetes.Quantity``,
``net.IP``, ``net.CIDR``, ``kubernetes.URL``, ``kubernetes.Semver`` and
``kubernetes.NamedFormat`` are protobuf messages with the server's type names (so the
checker's "no matching overload" messages name them as cel-go does). Each holds one
canonical text, so that ``==`` (field equality) is the server's equality: quantities
by value, addresses by address, versions without build metadata.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, message_factory

_F = descriptor_pb2.FieldDescriptorProto

#: type name -> its message's only field
TYPES = {
    "kubernetes.Quantity": "value",
    "net.IP": "value",
    "net.CIDR": "value",
    "kubernetes.URL": "value",
    "kubernetes.Semver": "value",
    "kubernetes.NamedFormat": "value",
}


#: a message type no expression has: the checker never picks an overload declared on it
#: for an operand of a known type (only ``dyn`` is assignable to it), while the engine,
#: which dispatches on kinds at run time, hands such an overload a value of any of the
#: types above (``indexing`` names them in its dispatch errors as cel-go does)
ANY_LIBRARY_VALUE = "kubectl_crd.internal.AnyLibraryValue"


@cache
def files() -> tuple[descriptor_pb2.FileDescriptorProto, ...]:
    by_package: dict[str, descriptor_pb2.FileDescriptorProto] = {}
    for full_name, field in {**TYPES, ANY_LIBRARY_VALUE: "value"}.items():
        package, _, name = full_name.rpartition(".")
        file = by_package.get(package)
        if file is None:
            file = descriptor_pb2.FileDescriptorProto(
                name=f"kubectl_crd/library/{package}.proto", package=package, syntax="proto3"
            )
            by_package[package] = file
        message = file.message_type.add(name=name)
        message.field.add(name=field, number=1, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
    return tuple(by_package.values())


_classes: dict[str, Any] = {}


def bind(pool: Any) -> None:
    """Make the message classes from ``pool`` (after ``files()`` were added to it)."""
    for full_name in TYPES:
        _classes[full_name] = message_factory.GetMessageClass(pool.FindMessageTypeByName(full_name))


def make(full_name: str, value: Any) -> Any:
    return _classes[full_name](**{TYPES[full_name]: value})
