"""The size limits a create meets on its way to etcd, and the server's answer to each.

Three limits, measured on kube-apiserver 1.34 with etcd 3.6 started as envtest and
kubeadm start them (no ``--max-request-bytes``; tests/integration/
test_request_size_differential.py holds this module to the server):

- the request body: ``apiserver/pkg/server/options/server_run_options.go`` sets
  ``MaxRequestBodyBytes`` to 3 MiB, and ``endpoints/handlers/rest.go``
  (``limitedReadBody``) refuses a longer body before decoding it, dry run or not:
  ``413 RequestEntityTooLarge``, ``Request entity too large: limit is 3145728``. The body
  is what kubectl sends: the object as Go's ``json.Encoder`` writes it (compact, a
  newline after it);
- etcd's ``--max-request-bytes`` (1.5 MiB by default): the raft request carrying the
  write (``etcdserver/v3_server.go``) is refused, ``etcdserver: request is too large``;
- the etcd client's ``MaxCallSendMsgSize`` (2 MiB, clientv3's default; the API server
  sets none): a transaction message over it is never sent, ``rpc error: code =
  ResourceExhausted desc = trying to send message larger than max (<size> vs.
  2097152)``.

Both etcd refusals come after validation, only to a write that is stored (a dry run
never reaches etcd), as a ``500`` whose Status names no reason. The API server first
tries with the object's ``managedFields`` and, refused for its size, once more without
them (``endpoints/handlers/create.go``, ``isTooLargeError`` in ``rest.go``): the answer
is the second attempt's, so what is measured is the object as stored without
managedFields (an object stored that way keeps none). What etcd is sent for a create
(``storage/etcd3/store.go`` ``Create``): a transaction comparing the key's
mod_revision with 0, then putting the value, the object as ``json.Encoder`` writes it;
the raft request wraps it with a request header holding a 64-bit id whose top 16 bits
are the low ones of etcd's member id: ten bytes as a varint for half of all members,
nine for nearly all others, so the limit is met one byte sooner or later by the
cluster; taken here as ten (a body one byte under the limit may be stored). The stored object has the fields the server sets
(creationTimestamp and uid of fixed widths, generation 1, the namespace of a
namespaced kind) and the key is ``/registry/<group>/<plural>/[<namespace>/]<name>``.

Pure and cheap: ``may_be_too_big`` decides from a bound the caller already has (the
length of its marshal copy) whether the serialized size is worth computing at all.
"""

from __future__ import annotations

import json
from typing import Any

from kubectl_crd.model.govalues import go_json_float

__all__ = [
    "BODY_LIMIT",
    "ETCD_REQUEST_LIMIT",
    "GRPC_SEND_LIMIT",
    "body_refusal",
    "body_size",
    "may_be_too_big",
    "storage_refusal",
]

#: kube-apiserver's ``--max-request-bytes`` default
BODY_LIMIT = 3 * 1024 * 1024
#: etcd's ``--max-request-bytes`` default
ETCD_REQUEST_LIMIT = 3 * 512 * 1024
#: clientv3's default ``MaxCallSendMsgSize``
GRPC_SEND_LIMIT = 2 * 1024 * 1024

#: JSON writes one byte of a marshal copy as six at most (an HTML character or a control
#: character escaped as ``\\u00XX``; a null, ``N`` in marshal, as ``null,``), so an
#: object whose marshal copy is shorter than this is under every limit, unless its
#: schema's defaults add a megabyte: the stored object adds the server's metadata
#: (under 200 bytes) and the defaults, not looked at (an object of usual size is never
#: serialized for this)
_MARSHAL_BOUND = ETCD_REQUEST_LIMIT // 6 - 1024

#: a placeholder of the width of what the server sets: an RFC 3339 second, a uuid
_TIMESTAMP = "2006-01-02T15:04:05Z"
_UID = "00000000-0000-0000-0000-000000000000"
#: the raft request's header (field 100, two bytes of tag): a length byte and the
#: request id (a tag byte and a ten-byte varint)
_RAFT_HEADER = 2 + 1 + 1 + 10


def may_be_too_big(marshal_size: int) -> bool:
    """Whether an object whose marshal copy (version 2) has ``marshal_size`` bytes may
    meet a limit: False for every object of usual size, without serializing it."""
    return marshal_size > _MARSHAL_BOUND


def body_size(obj: Any) -> int:
    """The bytes of the request body kubectl sends for ``obj`` (its decoded content):
    Go's JSON of it (``model.govalues.go_json``) and the encoder's newline. Counted on
    the C encoder's text, which writes every string as Go does but for the characters
    Go escapes for HTML (``<``, ``>``, ``&``: six bytes, not one) and the line
    separators (``\\u2028``: six, not three), and every float as Python's ``repr``,
    not Go's shortest form (``2.0`` for Go's ``2``): ten times faster than ``go_json``
    on an object of many short strings (0.2 s against 2 s for 3 MiB)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=True)
    size = len(text.encode("utf-8", "surrogatepass")) + 1
    size += 5 * (text.count("<") + text.count(">") + text.count("&"))
    size += 3 * (text.count("\u2028") + text.count("\u2029"))
    for number in _floats(obj):
        size += len(go_json_float(number)) - len(repr(number))
    return size


def _floats(obj: Any) -> list[float]:
    """Every float in ``obj`` (decoded JSON), without recursion."""
    if type(obj) is float:
        return [obj]
    found: list[float] = []
    pending = [obj] if type(obj) in (dict, list) else []
    while pending:
        node = pending.pop()
        for value in node.values() if type(node) is dict else node:
            kind = type(value)
            if kind is float:
                found.append(value)
            elif kind is dict or kind is list:
                pending.append(value)
    return found


def body_refusal(size: int) -> str | None:
    """The server's message refusing a body of ``size`` bytes, None under the limit."""
    if size > BODY_LIMIT:
        return f"Request entity too large: limit is {BODY_LIMIT}"
    return None


def storage_refusal(
    obj: Any, *, group: str, plural: str, namespaced: bool, namespace: str = ""
) -> str | None:
    """The message of etcd's refusal to store ``obj`` (a create's object as validated:
    pruned, defaulted, its status split done), None when it fits. The server's fields
    are added as a create sets them; ``namespace``: the request's, by default the
    object's own, else ``default`` (kubectl's without a context namespace)."""
    if not isinstance(obj, dict):
        return None
    meta = obj.get("metadata")
    meta = dict(meta) if isinstance(meta, dict) else {}
    for dropped in (
        "managedFields", "resourceVersion", "selfLink", "deletionTimestamp",
        "deletionGracePeriodSeconds",
    ):  # fmt: skip
        meta.pop(dropped, None)
    meta["creationTimestamp"] = _TIMESTAMP
    meta["uid"] = _UID
    meta["generation"] = 1
    if namespaced:
        meta["namespace"] = namespace or str(meta.get("namespace") or "") or "default"
    else:
        meta.pop("namespace", None)
    stored = {**obj, "metadata": meta}
    value = body_size(stored)  # json.Encoder's newline is stored too
    parts = ["/registry", group, plural]
    if namespaced:
        parts.append(meta["namespace"])
    parts.append(str(meta.get("name") or ""))
    key = len("/".join(parts).encode())
    message = _transaction_size(key, value)
    if message > GRPC_SEND_LIMIT:
        return (
            "rpc error: code = ResourceExhausted desc = trying to send message larger than "
            f"max ({message} vs. {GRPC_SEND_LIMIT})"
        )
    if _RAFT_HEADER + _field(message) > ETCD_REQUEST_LIMIT:  # InternalRaftRequest's txn
        return "etcdserver: request is too large"
    return None


def _varint(number: int) -> int:
    """The bytes of ``number`` as a protobuf varint."""
    size = 1
    while number >= 0x80:
        number >>= 7
        size += 1
    return size


def _field(length: int) -> int:
    """A length-delimited protobuf field of ``length`` bytes: tag, length, bytes."""
    return 1 + _varint(length) + length


def _transaction_size(key: int, value: int) -> int:
    """The bytes of etcd's ``TxnRequest`` for a create: compare (target MOD, the key,
    mod_revision 0: a oneof, written though zero) and success (a ``RequestOp`` holding
    a ``PutRequest`` of the key and value)."""
    compare = 2 + _field(key) + 2
    put = _field(key) + _field(value)
    return _field(compare) + _field(_field(put))
