"""A ConfigMap's and a Secret's content: the store against the real server.

``ValidateConfigMap`` / ``ValidateConfigMapUpdate`` and ``ValidateSecret`` /
``ValidateSecretUpdate`` (kube-apiserver 1.34, ``pkg/apis/core/validation/
validation.go``; run by ``pkg/registry/core/configmap/strategy.go`` and
``secret/strategy.go``): every data and binaryData key a config key
(``IsConfigMapKey``), a ConfigMap's key in both maps, the 1 MiB total, a Secret's
type-specific keys (service-account-token's annotation, dockercfg's and
dockerconfigjson's key and JSON, basic-auth's, ssh-auth's and tls's keys), after
stringData is merged into data; on an update, an immutable object's data, binaryData
and ``immutable`` itself, and a Secret's type, between the metadata passes.

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or what was stored (type, data, binaryData, immutable).
Go ranges over a map in a random order, so no case has two bad keys in one map: the
server's order of their errors is not fixed.
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable
from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import ODD, Edit, Sides, assert_agree

#: core.MaxSecretSize, a ConfigMap's limit too
LIMIT = 1024 * 1024


def answer(call: Callable[[], dict[str, Any]]) -> tuple[Any, ...]:
    """A write's outcome (``localstore_answers.answer``): the content stored."""
    return localstore_answers.answer(
        call,
        lambda stored: tuple(
            stored.get(f) for f in ("type", "data", "binaryData", "stringData", "immutable")
        ),
    )


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def cm(name: str, data: Any = None, binary: Any = None, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}
    if data is not None:
        body["data"] = data
    if binary is not None:
        body["binaryData"] = binary
    return body | fields


def secret(
    name: str, type_: str | None = None, data: Any = None, meta: Any = None, **fields: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": name, **(meta or {})},
    }
    if type_ is not None:
        body["type"] = type_
    if data is not None:
        body["data"] = {k: b64(v) for k, v in data.items()}
    return body | fields


def setting(**fields: Any) -> Edit:
    """An edit setting top-level fields (``None``: removed)."""

    def edit(obj: dict[str, Any]) -> dict[str, Any]:
        return localstore_answers.changed(obj, fields)

    return edit


def labelled(labels: dict[str, str], **fields: Any) -> Edit:
    def edit(obj: dict[str, Any]) -> dict[str, Any]:
        obj = localstore_answers.changed(obj, fields)
        obj["metadata"] = copy.deepcopy(obj["metadata"]) | {"labels": labels}
        return obj

    return edit


CONFIGMAP_CREATES = [
    ("valid keys with dots, dashes, underscores", cm("ok-keys", {"app.yaml": "a", "my-key": "b", "MY_KEY": "c", ".hidden": "d", "a..b": "e"})),
    ("valid binaryData", cm("ok-binary", binary={"blob.bin": b64("\x00\x01binary")})),
    ("valid data and binaryData", cm("ok-both", {"a": "1"}, {"b": b64("2")})),
    ("valid empty maps", cm("ok-empty", {}, {})),
    ("valid 253-character key", cm("ok-long-key", {"k" * 253: "v"})),
    ("valid total of exactly 1 MiB", cm("ok-limit", {"a": "x" * (LIMIT - 4)}, {"b": b64("yyyy")})),
    ("a key with a slash", cm("key-slash", {"config/app.yaml": "a"})),
    ("a key with a space", cm("key-space", {"a b": "a"})),
    ("the key '.'", cm("key-dot", {".": "a"})),
    ("the key '..'", cm("key-dotdot", {"..": "a"})),
    ("a key starting with '..'", cm("key-dotdot-prefix", {"..data": "a"})),
    ("an empty key", cm("key-empty", {"": "a"})),
    ("a 254-character key", cm("key-long", {"k" * 254: "a"})),
    ("a long key with slashes", cm("key-long-slash", {"a/" * 127: "a"})),
    ("a long key starting with '..'", cm("key-long-dotdot", {".." + "k" * 252: "a"})),
    ("a key not ASCII", cm("key-unicode", {"ключ": "a"})),
    ("a key %q and JSON write differently", cm("key-odd", {ODD: "a"})),
    ("a bad binaryData key", cm("key-binary", binary={"b/c": b64("x")})),
    ("a bad key in each map", cm("key-each", {"a b": "1"}, {"c d": b64("2")})),
    ("a key in both maps", cm("key-both", {"a": "1"}, {"a": b64("2")})),
    ("a bad key in both maps", cm("key-both-bad", {"a b": "1"}, {"a b": b64("2")})),
    ("a value over 1 MiB", cm("too-big", {"a": "x" * (LIMIT + 1)})),
    ("1 MiB and a byte across both maps", cm("too-big-both", {"a": "x" * (LIMIT - 3)}, {"b": b64("yyyy")})),
    ("multi-byte characters over 1 MiB", cm("too-big-utf8", {"a": "é" * (LIMIT // 2 + 1)})),
    ("a bad name, a bad key, too big", cm("Bad_Name", {"a/b": "x" * (LIMIT + 1)})),
    ("a bad label and a bad key", {**cm("bad-label", {"a b": "1"}), "metadata": {"name": "bad-label", "labels": {"a": "b c"}}}),
]  # fmt: skip

CONFIGMAP_UPDATES = [
    ("valid change of a mutable ConfigMap", cm("u-ok", {"a": "1"}), setting(data={"a": "2"})),
    ("valid new label on an immutable ConfigMap", cm("u-ok-label", {"a": "1"}, immutable=True), labelled({"x": "y"})),
    ("valid immutable made, data changed", cm("u-ok-freeze", {"a": "1"}), setting(data={"a": "2"}, immutable=True)),
    ("valid immutable: false to true", cm("u-ok-false", {"a": "1"}, immutable=False), setting(immutable=True)),
    ("a bad key added", cm("u-key", {"a": "1"}), setting(data={"a": "1", "b/c": "2"})),
    ("an immutable ConfigMap's data changed", cm("u-data", {"a": "1"}, immutable=True), setting(data={"a": "2"})),
    ("an immutable ConfigMap's data removed", cm("u-data-gone", {"a": "1"}, immutable=True), setting(data=None)),
    ("valid empty data given to an immutable ConfigMap without it", cm("u-data-empty", binary={"b": b64("1")}, immutable=True), setting(data={})),
    ("an immutable ConfigMap's binaryData changed", cm("u-binary", binary={"b": b64("1")}, immutable=True), setting(binaryData={"b": b64("2")})),
    ("immutable unset", cm("u-unset", {"a": "1"}, immutable=True), setting(immutable=None)),
    ("immutable set to false", cm("u-false", {"a": "1"}, immutable=True), setting(immutable=False)),
    ("immutable unset, data and binaryData changed", cm("u-all", {"a": "1"}, immutable=True),
     setting(immutable=None, data={"a": "2"}, binaryData={"c": b64("3")})),
    ("an immutable ConfigMap's data changed to a bad key", cm("u-data-key", {"a": "1"}, immutable=True), setting(data={"a b": "1"})),
    ("a bad label and an immutable ConfigMap's data changed", cm("u-label", {"a": "1"}, immutable=True),
     labelled({"a": "b c"}, data={"a": "2"})),
]  # fmt: skip

SECRET_CREATES = [
    ("valid Opaque, keys with dots, dashes, underscores", secret("ok-opaque", "Opaque", {"app.yaml": "a", "my-key": "b", "MY_KEY": "c", ".hidden": "d"})),
    ("valid without a type", secret("ok-notype", None, {"a": "1"})),
    ("valid custom type", secret("ok-custom", "example.com/custom", {"anything": "x"})),
    ("valid stringData", secret("ok-strings", None, {"a": "1"}, stringData={"b": "2", "a": "3"})),
    ("valid total of exactly 1 MiB", secret("ok-limit", None, {"a": "x" * (LIMIT - 4), "b": "yyyy"})),
    ("a key with a slash", secret("key-slash", None, {"config/app.yaml": "a"})),
    ("the key '..'", secret("key-dotdot", None, {"..": "a"})),
    ("a 254-character key", secret("key-long", None, {"k" * 254: "a"})),
    ("a bad stringData key", secret("key-strings", None, stringData={"a b": "x"})),
    ("a value over 1 MiB", secret("too-big", None, {"a": "x" * (LIMIT + 1)})),
    ("stringData over 1 MiB with data", secret("too-big-strings", None, {"a": "x" * (LIMIT // 2)}, stringData={"b": "y" * (LIMIT // 2 + 1)})),
    ("valid service-account-token", secret("ok-sa", "kubernetes.io/service-account-token", meta={"annotations": {"kubernetes.io/service-account.name": "default"}})),
    ("service-account-token without its annotation", secret("sa-none", "kubernetes.io/service-account-token")),
    ("service-account-token with an empty annotation", secret("sa-empty", "kubernetes.io/service-account-token", meta={"annotations": {"kubernetes.io/service-account.name": ""}})),
    ("valid dockercfg", secret("ok-dockercfg", "kubernetes.io/dockercfg", {".dockercfg": '{"r.example": {"auth": "eA=="}}'})),
    ("valid dockercfg of null", secret("ok-dockercfg-null", "kubernetes.io/dockercfg", {".dockercfg": " null "})),
    ("dockercfg without its key", secret("dockercfg-none", "kubernetes.io/dockercfg", {"config.json": "{}"})),
    ("dockercfg not JSON", secret("dockercfg-bad", "kubernetes.io/dockercfg", {".dockercfg": "nope"})),
    ("dockercfg a JSON array", secret("dockercfg-array", "kubernetes.io/dockercfg", {".dockercfg": "[1]"})),
    ("dockercfg a JSON string", secret("dockercfg-string", "kubernetes.io/dockercfg", {".dockercfg": '"x"'})),
    ("dockercfg empty", secret("dockercfg-empty", "kubernetes.io/dockercfg", {".dockercfg": ""})),
    ("dockercfg a JSON number", secret("dockercfg-number", "kubernetes.io/dockercfg", {".dockercfg": "1e999"})),
    ("dockercfg with a number no float64 holds", secret("dockercfg-huge", "kubernetes.io/dockercfg", {".dockercfg": '{"a": {"b": [1e-999, 2e400, 3e999]}}'})),
    ("dockercfg with an integer no float64 holds", secret("dockercfg-huge-int", "kubernetes.io/dockercfg", {".dockercfg": '{"a": ' + "9" * 400 + "}"})),
    ("dockercfg with a byte-order mark", secret("dockercfg-bom", "kubernetes.io/dockercfg", {".dockercfg": "\ufeff{}"})),
    ("valid dockercfg with a tiny number", secret("ok-dockercfg-tiny", "kubernetes.io/dockercfg", {".dockercfg": '{"a": 1e-999}'})),
    ("valid dockerconfigjson from stringData", secret("ok-dcj", "kubernetes.io/dockerconfigjson", stringData={".dockerconfigjson": '{"auths": {}}'})),
    ("dockerconfigjson without its key", secret("dcj-none", "kubernetes.io/dockerconfigjson")),
    ("dockerconfigjson cut short", secret("dcj-short", "kubernetes.io/dockerconfigjson", {".dockerconfigjson": '{"auths": {'})),
    ("dockerconfigjson with trailing text", secret("dcj-trailing", "kubernetes.io/dockerconfigjson", {".dockerconfigjson": "{} x"})),
    ("valid basic-auth, username only", secret("ok-basic", "kubernetes.io/basic-auth", {"username": "u"})),
    ("valid basic-auth, empty password only", secret("ok-basic-empty", "kubernetes.io/basic-auth", {"password": ""})),
    ("basic-auth with neither key", secret("basic-none", "kubernetes.io/basic-auth", {"user": "u"})),
    ("valid ssh-auth", secret("ok-ssh", "kubernetes.io/ssh-auth", {"ssh-privatekey": "k"})),
    ("ssh-auth without its key", secret("ssh-none", "kubernetes.io/ssh-auth")),
    ("ssh-auth with an empty key", secret("ssh-empty", "kubernetes.io/ssh-auth", {"ssh-privatekey": ""})),
    ("valid tls", secret("ok-tls", "kubernetes.io/tls", {"tls.crt": "c", "tls.key": "k"})),
    ("tls without either key", secret("tls-none", "kubernetes.io/tls")),
    ("tls without its key", secret("tls-nokey", "kubernetes.io/tls", {"tls.crt": "c"})),
    ("a bad name, a bad key, too big, no dockercfg", secret("Bad_Name", "kubernetes.io/dockercfg", {"a b": "x" * (LIMIT + 1)})),
]  # fmt: skip

SECRET_UPDATES = [
    ("valid change of a mutable Secret", secret("u-ok", None, {"a": "1"}), setting(data={"a": b64("2")})),
    ("valid new label on an immutable Secret", secret("u-ok-label", None, {"a": "1"}, immutable=True), labelled({"x": "y"})),
    ("valid stringData that changes nothing on an immutable Secret", secret("u-ok-same", None, {"a": "1"}, immutable=True), setting(stringData={"a": "1"})),
    ("the type changed", secret("u-type", "Opaque", {"tls.crt": "c", "tls.key": "k"}), setting(type="kubernetes.io/tls")),
    ("the type left out", secret("u-type-gone", "kubernetes.io/tls", {"tls.crt": "c", "tls.key": "k"}), setting(type=None)),
    ("a tls Secret's key removed", secret("u-tls", "kubernetes.io/tls", {"tls.crt": "c", "tls.key": "k"}), setting(data={"tls.crt": b64("c")})),
    ("an immutable Secret's data changed", secret("u-data", None, {"a": "1"}, immutable=True), setting(data={"a": b64("2")})),
    ("an immutable Secret's data changed by stringData", secret("u-strings", None, {"a": "1"}, immutable=True), setting(stringData={"a": "2"})),
    ("immutable unset", secret("u-unset", None, {"a": "1"}, immutable=True), setting(immutable=None)),
    ("the type, immutable and data changed", secret("u-all", None, {"a": "1"}, immutable=True),
     setting(type="example.com/other", immutable=False, data={"a b": b64("2")})),
    ("a bad label, an immutable Secret's data changed", secret("u-label", None, {"a": "1"}, immutable=True),
     labelled({"a": "b c"}, data={"a": b64("2")})),
]  # fmt: skip


def test_configmap_content(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "", "ConfigMap", "configmaps")
    problems = sides.creates(answer, CONFIGMAP_CREATES)
    problems += sides.updates(answer, CONFIGMAP_UPDATES)
    assert_agree(problems, len(CONFIGMAP_CREATES) + len(CONFIGMAP_UPDATES), "ConfigMap writes")


def test_secret_content(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "", "Secret", "secrets")
    problems = sides.creates(answer, SECRET_CREATES)
    problems += sides.updates(answer, SECRET_UPDATES)
    assert_agree(problems, len(SECRET_CREATES) + len(SECRET_UPDATES), "Secret writes")
