"""Timestamps as the API server decodes them (``metav1.Time``), on creates, and the
other fields of ``metav1.ObjectMeta`` (``OTHER_FIELDS``).

A ``creationTimestamp`` or ``deletionTimestamp`` is decoded by ``metav1.Time``'s own
``UnmarshalJSON``: a string Go's ``time.Parse`` takes as RFC 3339, or null; anything
else refuses the create with a 400 whose message is encoding/json's or
``time.ParseError``'s (``model.gotime``). Each value below is sent to
kube-apiserver (dry-run creates) in the metadata of a custom resource (what
``validate`` and ``Admission.create`` check; its metadata is marshalled again, keys
sorted, before it is decoded), of a ConfigMap (the local store's create of a built-in,
its body decoded in the order sent) and in the object of an ``ObjectStore.apply``
(tests/integration/test_localstore_typed_differential.py has those); ours must answer
with the same code, reason and message.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.reconcile.localstore import ObjectStore
from kubectl_crd.validation import Admission
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_localstore_metadata_differential import outcome
from tests.integration.test_validation_differential import ApiClient

GROUP = "stamps.example.com"

#: values of a timestamp, each refused or taken by Go's time.Parse (or encoding/json)
VALUES: list[Any] = [
    "", "yesterday", "2024", "20a4-01-02T00:00:00Z", "+024-01-02T00:00:00Z",
    "2024-1-02T03:04:05Z", "2024-01-2T03:04:05Z", "2024-01-02", "2024-01-02T",
    "2024-01-02T3:04:05Z", "2024-01-02T03:4:05Z", "2024-01-02T03:04:5Z", "2024-01-02T03:04:05",
    "2024-01-02 03:04:05Z", "2024-01-02t03:04:05z", "2024-00-10T00:00:00Z",
    "2024-13-10T00:00:00Z", "2023-02-29T00:00:00Z", "2024-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2024-04-31T00:00:00Z",
    "2024-01-00T00:00:00Z", "2024-01-02T24:00:00Z", "2024-01-02T23:60:00Z",
    "2024-01-02T23:59:60Z", "2024-01-02T23:59:59.999999999999Z", "2024-01-02T23:59:59,5Z",
    "2024-01-02T23:59:59.Z", "2024-01-02T23:59:59+0100", "2024-01-02T23:59:59+01:00",
    "2024-01-02T23:59:59+24:00", "2024-01-02T23:59:59+25:00", "2024-01-02T23:59:59+01:61",
    "2024-01-02T23:59:59-01:60", "2024-01-02T23:59:59*01:00", "2024-01-02T23:59:59Z ",
    " 2024-01-02T23:59:59Z", "2024-01-02T23:59:59ZZ", "2024-01-02T00:00:00+01:0x",
    "\u00e92024\"\\", "2024-01-02T00:00:00Z\n", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
    5, 1.5, True, [1], {"a": 1}, None,
]  # fmt: skip

#: metadata with more than one problem: which one the server names
SEVERAL: list[dict[str, Any]] = [
    {"generation": "x", "creationTimestamp": "bad"},
    {"labels": {"a": 1}, "creationTimestamp": 5},
    {"labels": {"a": 1}, "generation": "x"},
    {"generation": "x", "labels": {"a": 1}},
    {"deletionTimestamp": "bad", "creationTimestamp": 5},
]


#: the other fields of ObjectMeta, each a value it cannot hold or can (helper-64's
#: cases: validate took the lists' items and an int64 overflow, the server did not)
OTHER_FIELDS: list[dict[str, Any]] = [
    {"generation": "y"}, {"generation": 1.5}, {"generation": 2**63}, {"generation": -(2**63)},
    {"deletionGracePeriodSeconds": 2**64}, {"deletionGracePeriodSeconds": "1"},
    {"labels": {"a": 1}}, {"labels": []}, {"annotations": {"a": None}}, {"finalizers": [1]},
    {"finalizers": "x"}, {"uid": 5}, {"selfLink": True}, {"namespace": 1, "labels": {"a": 1}},
    {"ownerReferences": [{"uid": 5}]}, {"ownerReferences": [{"controller": "yes"}]},
    {"ownerReferences": ["x"]}, {"ownerReferences": {"a": 1}},
    {"ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": "u",
                          "blockOwnerDeletion": 1}]},
    {"managedFields": [{"time": "x"}]}, {"managedFields": [{"operation": 5}]},
    {"managedFields": [{"fieldsV1": "x"}]}, {"managedFields": [{"time": 5, "manager": 1}]},
    {"managedFields": [{"manager": 1}], "creationTimestamp": "x"},
]  # fmt: skip


@pytest.fixture(scope="module")
def crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    made = make_crd("Stamp", GROUP, schema={"type": "object"})
    path = tmp_path_factory.mktemp("crd") / "crd.json"
    path.write_text(json.dumps(made))
    apiserver.install_crds([path])
    return made


def _server(api: ApiClient, path: str, body: dict[str, Any]) -> tuple[Any, ...]:
    status, answer, _ = api.post(f"{path}?dryRun=All", json.dumps(body).encode())
    if status < 300:
        return ("accepted",)
    return (status, answer.get("reason"), answer.get("message"))


def _metadatas() -> list[dict[str, Any]]:
    return [
        *({"creationTimestamp": value} for value in VALUES),
        *({"deletionTimestamp": value} for value in VALUES[::3]),
        *SEVERAL,
        *OTHER_FIELDS,
    ]


def test_custom_resource_timestamps_are_decoded_as_the_server_decodes_them(
    api_client: ApiClient, namespace: str, crd: dict[str, Any]
) -> None:
    admission = Admission(CustomResourceDefinition.from_object(crd))
    problems = []
    refused = 0
    for number, meta in enumerate(_metadatas()):
        body = {
            "apiVersion": f"{GROUP}/v1",
            "kind": "Stamp",
            "metadata": {"name": f"s{number}", **meta},
        }
        theirs = _server(api_client, f"/apis/{GROUP}/v1/namespaces/{namespace}/stamps", body)
        result = admission.create(body, namespace=namespace)
        status = result.response if isinstance(result.response, dict) else {}
        ours = ("accepted",) if result.code < 300 else (result.code, status.get("reason"),
                                                         status.get("message"))  # fmt: skip
        refused += theirs != ("accepted",)
        if ours != theirs:
            problems.append(f"{meta!r}:\n  server {theirs}\n  ours   {ours}")
    assert problems == [], "\n".join(problems)
    assert refused > 40


def test_builtin_timestamps_are_decoded_as_the_server_decodes_them(
    api_client: ApiClient, namespace: str
) -> None:
    """The local store's create of a ConfigMap: its metadata decoded before anything."""
    store = ObjectStore()
    info = store.resolve("v1/ConfigMap")
    problems = []
    for number, meta in enumerate(_metadatas()):
        body = {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": f"c{number}", "namespace": namespace, **meta},
            "data": {"a": "b"},
        }
        theirs = _server(api_client, f"/api/v1/namespaces/{namespace}/configmaps", body)
        ours = outcome(partial(store.create, info, body, dry_run=True))
        if ours != theirs:
            problems.append(f"{meta!r}:\n  server {theirs}\n  store  {ours}")
    assert problems == [], "\n".join(problems)


def _deployment(root: dict[str, Any], template: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": root,
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}, **template},
                "spec": {"containers": [{"name": "c", "image": "nginx:1"}]},
            },
        },
    }


def _stateful_set(claim: dict[str, Any]) -> dict[str, Any]:
    body = _deployment({}, {})
    body["kind"] = "StatefulSet"
    body["spec"]["volumeClaimTemplates"] = [
        {"metadata": {"name": "ok"}, "spec": {"accessModes": ["ReadWriteOnce"]}},
        {"metadata": claim, "spec": {"accessModes": ["ReadWriteOnce"]}},
    ]
    return body


#: (what, body): ObjectMeta inside a built-in's templates, decoded with the body
TEMPLATED: list[tuple[str, dict[str, Any]]] = [
    ("template timestamp a word", _deployment({}, {"creationTimestamp": "now"})),
    ("template timestamp a number", _deployment({}, {"creationTimestamp": 0})),
    ("template timestamp null", _deployment({}, {"creationTimestamp": None})),
    ("template label a number", _deployment({}, {"labels": {"app": 1}})),
    ("a label a number, then a template timestamp",
     _deployment({"labels": {"a": 1}}, {"creationTimestamp": "now"})),
    ("a root timestamp and a template label", _deployment({"creationTimestamp": 1}, {"labels": {"a": 1}})),
    ("two label numbers", _deployment({"labels": {"a": 1}}, {"labels": {"b": 2}})),
    ("a claim template's timestamp", _stateful_set({"name": "d", "deletionTimestamp": "x"})),
    ("a claim template's generation a word", _stateful_set({"name": "d", "generation": "x"})),
]  # fmt: skip


def test_builtin_templates_metadata_is_decoded_as_the_server_decodes_it(
    api_client: ApiClient, namespace: str
) -> None:
    store = ObjectStore()
    problems = []
    for number, (what, body) in enumerate(TEMPLATED):
        body["metadata"] = {"name": f"d{number}", "namespace": namespace, **body["metadata"]}
        plural = body["kind"].lower() + "s"
        info = store.resolve(f"apps/v1/{body['kind']}")
        theirs = _server(api_client, f"/apis/apps/v1/namespaces/{namespace}/{plural}", body)
        ours = outcome(partial(store.create, info, body, dry_run=True))
        if ours != theirs:
            problems.append(f"{what}:\n  server {theirs}\n  store  {ours}")
        if (theirs == ("accepted",)) != ("null" in what):
            problems.append(f"{what}: the server answered {theirs} (the case is wrong)")
    assert problems == [], "\n".join(problems)
