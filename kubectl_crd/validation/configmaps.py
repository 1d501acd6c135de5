"""A ConfigMap's and a Secret's content, as kube-apiserver 1.34 refuses what it will not
store (``pkg/apis/core/validation/validation.go``: ``ValidateConfigMap``,
``ValidateConfigMapUpdate``, ``ValidateSecret``, ``ValidateSecretUpdate``; run by
``pkg/registry/core/configmap/strategy.go`` and ``secret/strategy.go``), and the config
key rule both use (apimachinery's ``IsConfigMapKey``, also a pod's key selectors').

Pure. Objects are as the local store holds them after decoding and defaulting: a
Secret's stringData already merged into its data (``builtin_defaulting``), its type
defaulted to ``Opaque`` (so an update that leaves the type out changes it), bytes in
base64. The metadata passes are the caller's (``objectmeta``): on an update,
``update_problems`` sits between ``ValidateObjectMetaUpdate`` and the new object's
``ValidateObjectMeta``, ``content_problems`` after the latter.

Go ranges over a map in a random order, so the server's order of two bad keys in one
map is not fixed; here they come in the object's order.
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import re
from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.gojson import go_json_decode
from kubectl_crd.model.govalues import json_kind, unmarshal_type_error
from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    forbidden,
    invalid_cause,
    required,
)
from kubectl_crd.validation.results import Reason

__all__ = ["config_key_problems", "content_problems", "update_problems"]

#: IsConfigMapKey's pattern and its message
_KEY_RE = re.compile("[-._a-zA-Z0-9]+")
_KEY_MESSAGE = ("a valid config key must consist of alphanumeric characters, '-', '_' or '.' "
                "(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation "
                "is '[-._a-zA-Z0-9]+')")  # fmt: skip
#: core.MaxSecretSize, a ConfigMap's limit too
MAX_SIZE = 1024 * 1024
_TOO_LONG = f"Too long: may not be more than {MAX_SIZE} bytes"
_IMMUTABLE = "field is immutable when `immutable` is set"
#: how ValidateSecret shows a dockercfg's value it cannot decode
_REDACTED = "<secret contents redacted>"
_DOCKER_KEYS = {
    "kubernetes.io/dockercfg": ".dockercfg",
    "kubernetes.io/dockerconfigjson": ".dockerconfigjson",
}
_SERVICE_ACCOUNT_NAME = "kubernetes.io/service-account.name"


# a pod template's key selectors name a few keys, most ConfigMaps a few: cached
@functools.lru_cache(maxsize=1024)
def config_key_problems(key: str) -> tuple[str, ...]:
    """apimachinery ``pkg/util/validation`` ``IsConfigMapKey``: at most 253 bytes,
    ``[-._a-zA-Z0-9]+``, not ``.`` or ``..`` nor starting with ``..``."""
    found = ["must be no more than 253 characters"] if len(key.encode()) > 253 else []
    if not _KEY_RE.fullmatch(key):
        found.append(_KEY_MESSAGE)
    if key in (".", ".."):
        found.append(f"must not be '{key}'")
    elif key.startswith(".."):
        found.append("must not start with '..'")
    return tuple(found)


def _map(obj: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    found = obj.get(name)
    return found if isinstance(found, Mapping) else {}


def _text_size(value: Any) -> int:
    """``len`` of a Go string (a lone surrogate: U+FFFD's three bytes)."""
    return len(value.encode("utf-8", "surrogatepass")) if isinstance(value, str) else 0


def _bytes(value: Any) -> bytes:
    """A ``[]byte`` field's value, held as base64."""
    if not isinstance(value, str):
        return b""
    try:
        return base64.b64decode(value)
    except (binascii.Error, ValueError):
        return value.encode("utf-8", "surrogatepass")


def _key_causes(where: str, key: str) -> list[Cause]:
    return [invalid_cause(f"{where}[{key}]", key, m) for m in config_key_problems(key)]


def content_problems(kind: str, obj: Mapping[str, Any]) -> list[Cause]:
    """``ValidateConfigMap`` / ``ValidateSecret`` after their ``ValidateObjectMeta``."""
    return _config_map(obj) if kind == "ConfigMap" else _secret(obj)


def _config_map(obj: Mapping[str, Any]) -> list[Cause]:
    """Each data key a config key and not a binaryData key, each binaryData key a
    config key, then the total of both maps' values."""
    data, binary = _map(obj, "data"), _map(obj, "binaryData")
    found: list[Cause] = []
    total = 0
    for key, value in data.items():
        found += _key_causes("data", key)
        if key in binary:
            detail = "duplicate of key present in binaryData"
            found.append(invalid_cause(f"data[{key}]", key, detail))
        total += _text_size(value)
    for key, value in binary.items():
        found += _key_causes("binaryData", key)
        total += len(_bytes(value))
    if total > MAX_SIZE:
        # field.TooLong(field.NewPath(""), ...): the whole object's, printed "[]"
        found.append(cause("[]", Reason.TOO_LONG, _TOO_LONG))
    return found


def _secret(obj: Mapping[str, Any]) -> list[Cause]:
    """Each data key a config key, the values' total, then the type's own rules."""
    data = {key: _bytes(value) for key, value in _map(obj, "data").items()}
    found: list[Cause] = []
    for key in data:
        found += _key_causes("data", key)
    if sum(map(len, data.values())) > MAX_SIZE:
        found.append(cause("data", Reason.TOO_LONG, _TOO_LONG))
    kind = obj.get("type")
    if kind == "kubernetes.io/service-account-token":
        # the controller adds the uid and the token later: only the name is required
        annotations = _map(_map(obj, "metadata"), "annotations")
        if not annotations.get(_SERVICE_ACCOUNT_NAME):
            found.append(required(f"metadata.annotations[{_SERVICE_ACCOUNT_NAME}]"))
    elif kind in _DOCKER_KEYS:
        key = _DOCKER_KEYS[kind]
        if key not in data:
            found.append(required(f"data[{key}]"))
        else:
            problem = _json_object_problem(data[key])
            if problem is not None:
                found.append(invalid_cause(f"data[{key}]", _REDACTED, problem))
    elif kind == "kubernetes.io/basic-auth":
        # either may be empty, but one must be there
        if "username" not in data and "password" not in data:
            found += [required("data[username]"), required("data[password]")]
    elif kind == "kubernetes.io/ssh-auth":
        if not data.get("ssh-privatekey"):
            found.append(required("data[ssh-privatekey]"))
    elif kind == "kubernetes.io/tls":
        found += [required(f"data[{key}]") for key in ("tls.crt", "tls.key") if key not in data]
    return found


def _json_object_problem(raw: bytes) -> str | None:
    """``json.Unmarshal(raw, &map[string]interface{}{})``'s error: a syntax error, a
    value other than an object or null, else the first number (in the document's order)
    a float64 cannot hold (``strconv.ParseFloat``'s range error; an underflow is 0)."""
    too_big: list[str] = []

    def number(literal: str) -> int:
        if not too_big and math.isinf(float(literal)):
            too_big.append(literal)
        return 0

    value, problem = go_json_decode(raw, parse_float=number, parse_int=number)
    if problem is not None:
        return problem
    if value is not None and not isinstance(value, dict):
        return unmarshal_type_error(json_kind(value), "map[string]interface {}")
    if too_big:
        return unmarshal_type_error(f"number {too_big[0]}", "float64")
    return None


def update_problems(kind: str, obj: Mapping[str, Any], old: Mapping[str, Any]) -> list[Cause]:
    """``ValidateConfigMapUpdate`` / ``ValidateSecretUpdate`` between their metadata
    passes: a Secret's type (``ValidateImmutableField``), then, when the old object was
    immutable, ``immutable`` itself and the data (and binaryData) as ``reflect.
    DeepEqual`` compares them (an empty map is none: the server stores none)."""
    found: list[Cause] = []
    if kind == "Secret" and obj.get("type") != old.get("type"):
        found.append(invalid_cause("type", obj.get("type") or "", "field is immutable", named=True))
    if old.get("immutable") is not True:
        return found
    if obj.get("immutable") is not True:
        found.append(forbidden("immutable", _IMMUTABLE))
    for name in ("data", "binaryData") if kind == "ConfigMap" else ("data",):
        if (obj.get(name) or None) != (old.get(name) or None):
            found.append(forbidden(name, _IMMUTABLE))
    return found
