"""The admission step against the real API server: the same writes, the same answers.

One script of writes (creates, updates of the main resource, ``status`` updates and
deletes, with and without finalizers, accepted and refused) runs against the real
kube-apiserver and against ``validation.admission.Admission`` with a dict as its store,
for three CRDs: namespaced with a status subresource, namespaced without one, and
cluster-scoped. Each side builds its next request body from its own last answer, as a
client does. After every step the answers must agree: the HTTP code, the object (apart
from uid, timestamps and managedFields; whether the resourceVersion changed, not its
value; a generated name's random suffix), the refusal's message and causes (field,
reason, message, in order) and the warnings.
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation.admission import Admission, AdmissionResult
from tests import crd_factory
from tests.integration.envtest import ControlPlane, plan_rounds

GROUP = "admission.example.com"

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "size": {"type": "integer", "default": 1},
                "code": {
                    "type": "string",
                    "maxLength": 5,
                    "x-kubernetes-validations": [
                        {"rule": "self == oldSelf", "message": "code is immutable"}
                    ],
                },
                "note": {"type": "string"},
            },
            "x-kubernetes-validations": [
                {"rule": "self.size >= 0", "message": "size must not be negative"}
            ],
        },
        "status": {
            "type": "object",
            "default": {},
            # a pattern: kube-openapi's words name the field, from .status in a
            # /status update (validator.go: ValidateStatusUpdate)
            "properties": {"phase": {"type": "string", "default": "New", "pattern": "^[A-Z]"}},
        },
    },
}


def _crd(
    kind: str, *, status: bool, scope: str = "Namespaced", preserved: bool = False
) -> dict[str, Any]:
    schema = copy.deepcopy(SCHEMA)
    if preserved:
        # trivy-operator's reports: a root that keeps unknown fields and declares metadata
        # as a bare object; validate took every metadata field for an unknown one
        schema["x-kubernetes-preserve-unknown-fields"] = True
        schema["properties"]["metadata"] = {"type": "object"}
    crd = crd_factory.make_crd(kind, GROUP, schema=schema, scope=scope)
    if status:
        crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    return crd


CRDS = {
    "status": _crd("Widget", status=True),
    "plain": _crd("Gadget", status=False),
    "cluster": _crd("Gizmo", status=True, scope="Cluster"),
    "preserved": _crd("Report", status=True, preserved=True),
}

TIMESTAMPS = ("creationTimestamp", "deletionTimestamp")


@dataclass
class Answer:
    """One side's answer, normalised for comparison."""

    code: int
    body: Any
    warnings: list[str] = field(default_factory=list)


def _normal(obj: Any, generate_name: str = "") -> Any:
    """An object without what differs by nature: uid, timestamps (present or not),
    managedFields, the resourceVersion's value, a generated name's suffix."""
    obj = copy.deepcopy(obj)
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(meta, dict):
        for key in ("uid", "managedFields", "resourceVersion"):
            meta.pop(key, None)
        for key in TIMESTAMPS:
            if key in meta:
                assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", meta[key]), meta[key]
                meta[key] = "<set>"
        name = meta.get("name", "")
        if generate_name and name.startswith(generate_name):
            suffix = name[len(generate_name) :]
            assert re.fullmatch(r"[bcdfghjklmnpqrstvwxz2456789]{5}", suffix), name
            meta["name"] = generate_name + "xxxxx"
    details = obj.get("details") if isinstance(obj, dict) else None
    if isinstance(details, dict) and "uid" in details:
        details["uid"] = "<set>" if details["uid"] else ""
    return obj


class Server:
    """The real API server, through the project's client."""

    def __init__(self, client: KubeClient, crd: dict[str, Any], namespace: str) -> None:
        self.client = client
        plural = crd["spec"]["names"]["plural"]
        namespaced = crd["spec"]["scope"] == "Namespaced"
        self.collection = f"/apis/{GROUP}/v1/" + (
            f"namespaces/{namespace}/{plural}" if namespaced else plural
        )
        self.last: dict[str, Any] = {}

    def send(self, method: str, path: str, body: Any = None, validation: str = "") -> Answer:
        self.client.warnings.clear()
        try:
            query = {"fieldValidation": validation} if validation else None
            answer = self.client.request(method, self.collection + path, body=body, query=query)
            code = 201 if method == "POST" else 200
        except ApiError as exc:
            answer, code = dict(exc.status_object), exc.status
        return Answer(code, answer, list(self.client.warnings))

    def create(self, body: Any, validation: str) -> Answer:
        return self.send("POST", "", body, validation)

    def update(self, name: str, body: Any, validation: str, *, status: bool = False) -> Answer:
        return self.send("PUT", f"/{name}" + ("/status" if status else ""), body, validation)

    def delete(self, name: str, options: Any = None) -> Answer:
        return self.send("DELETE", f"/{name}", options)


class Ours:
    """The admission step over a dict of stored objects."""

    def __init__(self, crd: dict[str, Any], namespace: str) -> None:
        self.admission = Admission(CustomResourceDefinition.from_object(crd))
        self.namespace = namespace if crd["spec"]["scope"] == "Namespaced" else None
        self.stored: dict[str, Any] = {}
        self.last: dict[str, Any] = {}
        #: the watch events the writes make: (type, object)
        self.events: list[tuple[str, Any]] = []

    def _answer(self, result: AdmissionResult, name: str) -> Answer:
        if result.ok and result.written:
            kind = "ADDED" if result.operation == "create" else "MODIFIED"
            self.events.append(("DELETED" if result.removed else kind, result.object))
        if result.ok:
            if result.removed:
                self.stored.pop(name, None)
            else:
                self.stored[str(result.object["metadata"]["name"])] = result.stored
        return Answer(result.code, result.response, list(result.warnings))

    def create(self, body: Any, validation: str) -> Answer:
        result = self.admission.create(
            copy.deepcopy(body), namespace=self.namespace, field_validation=validation
        )
        if result.ok:
            name = result.object["metadata"]["name"]
            if name in self.stored:  # the store's part: names are unique
                result = self.admission.already_exists(name, self.stored[name])
        return self._answer(result, "")

    def update(self, name: str, body: Any, validation: str, *, status: bool = False) -> Answer:
        old = self.stored.get(name)
        if old is None:
            return self._answer(self.admission.not_found(name), name)
        write = self.admission.update_status if status else self.admission.update
        return self._answer(write(copy.deepcopy(body), old, field_validation=validation), name)

    def delete(self, name: str, options: Any = None) -> Answer:
        old = self.stored.get(name)
        if old is None:
            return self._answer(self.admission.not_found(name, "delete"), name)
        options = options or {}
        preconditions = options.get("preconditions") or {}
        result = self.admission.delete(
            old,
            propagation_policy=options.get("propagationPolicy"),
            uid=preconditions.get("uid"),
            resource_version=preconditions.get("resourceVersion"),
        )
        return self._answer(result, name)


def _compare(step: str, server: Answer, ours: Answer, rv_before: tuple[Any, Any]) -> list[str]:
    problems = []
    if server.code != ours.code:
        problems.append(f"{step}: code server {server.code} ours {ours.code}: {server.body}")
        return problems
    if server.code >= 400:
        keys = ("kind", "apiVersion", "status", "message", "reason", "code")
        left = {k: _uids(server.body.get(k)) for k in keys}
        right = {k: _uids(ours.body.get(k)) for k in keys}
        for side, answer in ((left, server), (right, ours)):
            details = answer.body.get("details") or {}
            side["details"] = {k: _uids(v) for k, v in details.items() if k != "causes"}
        if left != right:
            problems.append(f"{step}: refusal server {left} ours {right}")
        causes = [
            {key: _uids(value) for key, value in cause.items()}
            for cause in (server.body.get("details") or {}).get("causes") or []
        ]
        mine = [
            {key: _uids(value) for key, value in cause.items()}
            for cause in (ours.body.get("details") or {}).get("causes") or []
        ]
        if causes != mine:
            problems.append(f"{step}: causes server {causes} ours {mine}")
        return problems
    generate = ""
    meta = server.body.get("metadata") or {}
    if meta.get("generateName"):
        generate = meta["generateName"]
    if _normal(server.body, generate) != _normal(ours.body, generate):
        problems.append(
            f"{step}: object server {_normal(server.body, generate)} "
            f"ours {_normal(ours.body, generate)}"
        )
    if server.body.get("kind") != "Status":
        changed = [
            (answer.body.get("metadata") or {}).get("resourceVersion") != before
            for answer, before in zip((server, ours), rv_before, strict=True)
        ]
        if changed[0] != changed[1]:
            problems.append(
                f"{step}: resourceVersion changed on server {changed[0]}, ours {changed[1]}"
            )
    if sorted(server.warnings) != sorted(ours.warnings):
        problems.append(f"{step}: warnings server {server.warnings} ours {ours.warnings}")
    return problems


def _uids(text: Any) -> Any:
    """A message with what differs by nature replaced: every UUID (the two sides' uids)
    as <uid>, a stored resourceVersion as <rv>, the name generated from ``Gen_`` with
    its suffix as ``xxxxx``."""
    if not isinstance(text, str):
        return text
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uid>", text)
    text = re.sub(r"ResourceVersion in record \(\d+\)", "ResourceVersion in record (<rv>)", text)
    text = re.sub(r"\(\*bool\)\(0x[0-9a-f]+\)", "(*bool)(0x...)", text)  # Go's pointers
    return re.sub(r"Gen_[bcdfghjklmnpqrstvwxz2456789]{5}", "Gen_xxxxx", text)


def _watched(client: KubeClient, collection: str, since: str) -> list[tuple[str, Any]]:
    """The events of a watch from ``since`` that ends after a second: every write since."""
    query = {"watch": "1", "resourceVersion": since, "timeoutSeconds": "1"}
    text = client.request("GET", collection, query=query)
    if isinstance(text, dict):  # one event only: decoded already
        return [(text["type"], text["object"])]
    decoder = json.JSONDecoder()
    events, at = [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        event, at = decoder.raw_decode(text, at)
        events.append((event["type"], event["object"]))
    return events


def _compare_events(
    case: str, server: list[tuple[str, Any]], ours: list[tuple[str, Any]]
) -> list[str]:
    """The same events (type and object) in the same order, each side's resourceVersions
    rising: a write the server makes no event for (a no-op) makes none here."""
    problems = []
    for name, events in (("server", server), ("ours", ours)):
        versions = [int(obj["metadata"]["resourceVersion"]) for _, obj in events]
        if versions != sorted(set(versions)):
            problems.append(f"{case}: {name}'s event resourceVersions do not rise: {versions}")

    def normal(events: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
        return [
            (kind, _normal(obj, obj["metadata"].get("generateName", ""))) for kind, obj in events
        ]

    if normal(server) != normal(ours):
        problems.append(f"{case}: watch events server {normal(server)}\nours {normal(ours)}")
    print(f"{case}: {len(server)} watch events")
    return problems


Step = Callable[[dict[str, Any]], Any]


def _edit(change: Callable[[dict[str, Any]], None]) -> Step:
    def body(last: dict[str, Any]) -> Any:
        edited = copy.deepcopy(last)
        edited.get("metadata", {}).pop("managedFields", None)
        change(edited)
        return edited

    return body


def _status_spec_and_labels(obj: dict[str, Any]) -> None:
    obj["status"] = {"phase": "Ready"}
    obj["spec"] = {**obj["spec"], "note": "n"}
    obj["metadata"].update(labels={"other": "x"}, finalizers=["example.com/z"])


def _obj(kind: str, **metadata: Any) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": kind, "metadata": metadata}


OWNER = {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner"}


def _script(kind: str, status: bool, namespace: str) -> list[tuple[Any, ...]]:
    """(label, operation, object name, body or body-from-last[, fieldValidation]) for
    one CRD; a delete's body is its DeleteOptions."""

    def with_spec(spec: dict[str, Any], **metadata: Any) -> dict[str, Any]:
        return {**_obj(kind, **metadata), "spec": spec, "status": {"phase": "Given"}}

    def set_(path: str, value: Any) -> Step:
        def change(obj: dict[str, Any]) -> None:
            *parents, last = path.split(".")
            node = obj
            for part in parents:
                node = node.setdefault(part, {})
            node[last] = value

        return _edit(change)

    def drop(path: str) -> Step:
        def change(obj: dict[str, Any]) -> None:
            *parents, last = path.split(".")
            node = obj
            for part in parents:
                node = node[part]
            node.pop(last, None)

        return _edit(change)

    def then(*steps: Step) -> Step:
        def body(last: dict[str, Any]) -> Any:
            for step in steps:
                last = step(last)
            return last

        return body

    return [
        (
            "create with finalizer, status and server fields",
            "create",
            "a",
            with_spec(
                {"code": "x"},
                name="a",
                finalizers=["example.com/keep", "plain"],
                labels={"app": "a"},
                generation=7,
                uid="not-a-uid",
            ),
        ),
        ("no-op update", "update", "a", _edit(lambda o: None)),
        ("second no-op update", "update", "a", _edit(lambda o: None)),
        ("metadata-only update", "update", "a", set_("metadata.labels.tier", "web")),
        ("spec update", "update", "a", set_("spec.size", 3)),
        ("status through the main resource", "update", "a", set_("status.phase", "Main")),
        (
            "status update also changing spec and labels",
            "status",
            "a",
            _edit(_status_spec_and_labels),
        ),
        ("status update dropping status", "status", "a", drop("status")),
        ("status update with an unknown field", "status", "a", set_("status.bogus", 1)),
        (
            "status update with an unknown field, Warn",
            "status",
            "a",
            set_("status.bogus", 1),
            "Warn",
        ),
        ("status update breaking a pattern", "status", "a", set_("status.phase", "lower")),
        ("status update, status not an object", "status", "a", set_("status", "x")),
        ("update breaking a pattern in status", "update", "a", set_("status.phase", "lower")),
        ("transition rule broken", "update", "a", set_("spec.code", "y")),
        ("CEL rule broken", "update", "a", set_("spec.size", -1)),
        ("too long blocks CEL", "update", "a", set_("spec.code", "toolong")),
        ("unknown field", "update", "a", set_("spec.bogus", 1)),
        ("unknown field, fieldValidation=Warn", "update", "a", set_("spec.bogus", 1), "Warn"),
        ("unknown field, fieldValidation=Ignore", "update", "a", set_("spec.bogus", 2), "Ignore"),
        ("name differs from the URL", "update", "a", set_("metadata.name", "zz")),
        ("no name in the body", "update", "a", drop("metadata.name")),
        ("another namespace in the body", "update", "a", set_("metadata.namespace", "elsewhere")),
        # handlers/update.go decodes the body before it compares namespace, then name
        ("a namespace not a string", "update", "a", set_("metadata.namespace", 1)),
        ("a name not a string", "status", "a", set_("metadata.name", 1)),
        (
            "labels not a map, another name",
            "update",
            "a",
            then(set_("metadata.name", "zz"), set_("metadata.labels", "x")),
        ),
        (
            "another name and an unknown field",
            "status",
            "a",
            then(set_("metadata.name", "zz"), set_("status.bogus", 1)),
        ),
        (
            "no name and unknown metadata",
            "update",
            "a",
            then(drop("metadata.name"), set_("metadata.bogus", 1)),
        ),
        (
            "another name and another namespace",
            "update",
            "a",
            then(set_("metadata.name", "zz"), set_("metadata.namespace", "elsewhere")),
        ),
        ("update of another kind", "update", "a", set_("kind", "Other")),
        ("stale resourceVersion", "update", "a", set_("metadata.resourceVersion", "1")),
        # etcd3's versioner parses it (a 500); an update may not set a deletion field
        ("resourceVersion not a number", "update", "a", set_("metadata.resourceVersion", "x1")),
        (
            "deletion fields set, and a bad label",
            "update",
            "a",
            then(
                set_("metadata.deletionTimestamp", "2000-01-01T00:00:00.5+01:00"),
                set_("metadata.deletionGracePeriodSeconds", 5),
                set_("metadata.labels", {"a b": "c"}),
            ),
        ),
        ("no resourceVersion", "update", "a", drop("metadata.resourceVersion")),
        (
            "another uid",
            "update",
            "a",
            set_("metadata.uid", "0a9d8f6c-0000-4000-8000-000000000000"),
        ),
        ("new finalizer warned", "update", "a", set_("metadata.finalizers", ["plain", "fresh"])),
        # handlers/rest.go: dedupOwnerReferencesAndAddWarning, before validation
        (
            "owner reference given twice",
            "update",
            "a",
            set_("metadata.ownerReferences", [{**OWNER, "uid": "u9"}, {**OWNER, "uid": "u9"}]),
        ),
        (
            "delete with another uid",
            "delete",
            "a",
            {"preconditions": {"uid": "0a9d8f6c-0000-4000-8000-000000000000"}},
        ),
        (
            "delete with a stale resourceVersion",
            "delete",
            "a",
            {"preconditions": {"resourceVersion": "1"}},
        ),
        ("delete with finalizers", "delete", "a", None),
        ("delete again", "delete", "a", None),
        (
            "finalizer added while deleting",
            "update",
            "a",
            set_("metadata.finalizers", ["plain", "fresh", "example.com/more"]),
        ),
        ("status update while deleting", "status", "a", set_("status.phase", "Gone")),
        ("spec update while deleting", "update", "a", set_("spec.note", "late")),
        ("one finalizer removed", "update", "a", set_("metadata.finalizers", ["fresh"])),
        ("last finalizer removed", "update", "a", set_("metadata.finalizers", [])),
        ("update of a removed object", "update", "a", _edit(lambda o: None)),
        ("delete of a removed object", "delete", "a", None),
        ("create without finalizers", "create", "b", with_spec({}, name="b")),
        ("create of an existing name", "create", "b", with_spec({}, name="b")),
        ("delete without finalizers", "delete", "b", None),
        ("create for foreground delete", "create", "c", with_spec({"code": "c"}, name="c")),
        ("foreground delete", "delete", "c", {"propagationPolicy": "Foreground"}),
        ("orphan delete while deleting", "delete", "c", {"propagationPolicy": "Orphan"}),
        ("create over an object being deleted", "create", "c", with_spec({}, name="c")),
        ("generateName", "create", "", with_spec({"size": 2}, generateName="gen-")),
        ("create invalid", "create", "d", with_spec({"size": -1, "code": "abcdefg"}, name="d")),
        ("create CEL rule broken", "create", "d", with_spec({"size": -2}, name="d")),
        ("create unknown field", "create", "d", with_spec({"bogus": True}, name="d")),
        (
            "create with resourceVersion",
            "create",
            "d",
            with_spec({}, name="d", resourceVersion="5"),
        ),
        (
            "create in another namespace",
            "create",
            "d",
            with_spec({}, name="d", namespace=namespace + "-other"),
        ),
        (
            "create in another namespace with an unknown field",
            "create",
            "d",
            with_spec({"bogus": 1}, name="d", namespace=namespace + "-other"),
        ),
        (
            "create in another namespace, generateName not a string",
            "create",
            "d",
            with_spec({}, name="d", namespace=namespace + "-other", generateName=5),
        ),
        ("create bad name", "create", "d", with_spec({}, name="D_d")),
        # the kind check is the strategy's (customresource/validator.go), a 422 that
        # names the body's kind (rest/create.go: BeforeCreate uses the object's kinds)
        ("create of another kind", "create", "d", {**with_spec({}, name="d"), "kind": "Other"}),
        (
            "owner reference without uid",
            "create",
            "d",
            with_spec({}, name="d", ownerReferences=[OWNER]),
        ),
        (
            "owner references: two controllers and no version",
            "create",
            "d",
            with_spec(
                {},
                name="d",
                ownerReferences=[
                    {**OWNER, "uid": "u1", "controller": True},
                    {**OWNER, "name": "two", "uid": "u2", "controller": True},
                    {**OWNER, "apiVersion": "a/b/c", "uid": "u3", "blockOwnerDeletion": False},
                    {"apiVersion": "v1", "uid": "u4"},
                ],
            ),
        ),
        (
            "owner reference accepted",
            "create",
            "g",
            with_spec({}, name="g", ownerReferences=[{**OWNER, "uid": "u1", "controller": True}]),
        ),
        (
            "owner references repeated, one controller left",
            "create",
            "h",
            with_spec(
                {},
                name="h",
                ownerReferences=[
                    {**OWNER, "uid": "u1", "controller": True},
                    {**OWNER, "uid": "u1", "controller": True},
                    {**OWNER, "uid": "u1", "controller": False},
                    {**OWNER, "uid": "u1", "blockOwnerDeletion": None},
                    {**OWNER, "uid": "u1"},
                ],
            ),
        ),
        ("create bad generateName", "create", "", with_spec({}, generateName="Gen_")),
        (
            "create with deletion fields",
            "create",
            "e",
            with_spec(
                {},
                name="e",
                deletionTimestamp="2020-01-01T00:00:00Z",
                deletionGracePeriodSeconds=30,
            ),
        ),
        (
            "create with unknown metadata, Warn",
            "create",
            "f",
            with_spec({}, name="f", bogus=1),
            "Warn",
        ),
    ]


@pytest.mark.parametrize("case", sorted(CRDS))
def test_admission_agrees_with_the_api_server(
    apiserver: ControlPlane, namespace: str, case: str
) -> None:
    crd = CRDS[case]
    name = crd["metadata"]["name"]
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, on_warning=lambda text: None) as client:
        try:
            client.request(
                "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body=crd
            )
        except ApiError as exc:
            if exc.status != 409:
                raise
        apiserver.wait_established([name])
        server = Server(client, crd, namespace)
        ours = Ours(crd, namespace)
        start = client.request("GET", server.collection)["metadata"]["resourceVersion"]
        kind = crd["spec"]["names"]["kind"]
        status = "subresources" in crd["spec"]["versions"][0]
        problems: list[str] = []
        steps = 0
        refused = 0
        for label, operation, target, body, *options in _script(kind, status, namespace):
            validation = options[0] if options else "Strict"  # kubectl's --validate=strict
            sides = (server, ours)
            before = tuple(
                (side.last.get(target) or {}).get("metadata", {}).get("resourceVersion")
                for side in sides
            )
            answers = []
            for side in sides:
                last = side.last.get(target) or {}
                sent = body(last) if callable(body) else copy.deepcopy(body)
                if operation == "create":
                    answer = side.create(sent, validation)
                elif operation == "delete":
                    answer = side.delete(target, sent)
                else:
                    answer = side.update(target, sent, validation, status=operation == "status")
                if answer.code < 300 and answer.body.get("kind") == kind:
                    side.last[target] = answer.body
                answers.append(answer)
            steps += 1
            refused += answers[0].code >= 400
            problems += _compare(f"{case} / {label}", answers[0], answers[1], before)
        print(f"\n{case}: {steps} writes, {refused} refused by the server")
        problems += _compare_events(case, _watched(client, server.collection, start), ours.events)
        with contextlib.suppress(ApiError):
            client.request(
                "DELETE", f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"
            )
    assert problems == [], "\n".join(problems)
    assert refused >= 10


def test_a_status_update_checks_only_the_status_replicas(
    apiserver: ControlPlane, namespace: str
) -> None:
    """An object stored before its CRD gained the scale subresource holds a negative
    ``spec.n``, now the specReplicasPath: the main resource's update is refused over it,
    a ``/status`` update is not (customresource/validator.go: ValidateStatusUpdate checks
    only ValidateScaleStatus), on both sides."""
    crd = _crd("Scaled", status=True)
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"][
        "n"
    ] = {"type": "integer"}
    name = crd["metadata"]["name"]
    path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, on_warning=lambda text: None) as client:
        client.request("POST", path, body=crd)
        try:
            apiserver.wait_established([name])
            server = Server(client, crd, namespace)
            body = {**_obj("Scaled", name="s"), "spec": {"n": -1}}
            created = server.create(body, "Strict")
            assert created.code == 201, created.body
            live = client.request("GET", f"{path}/{name}")
            live["spec"]["versions"][0]["subresources"]["scale"] = {
                "specReplicasPath": ".spec.n",
                "statusReplicasPath": ".status.replicas",
            }
            client.request("PUT", f"{path}/{name}", body=live)
            # the handler serves the new CRD once its informer has seen it: /scale answers
            deadline = time.monotonic() + 30
            while server.send("GET", "/s/scale").code != 200:
                assert time.monotonic() < deadline, "the scale subresource never came up"
                time.sleep(0.1)
            ours = Ours(live, namespace)
            ours.stored["s"] = created.body
            problems: list[str] = []
            codes = []
            for label, status in (("update", False), ("status update", True)):
                sides = (server, ours)
                sent = _edit(lambda o: o.__setitem__("status", {"phase": "Up"}))(created.body)
                answers = [side.update("s", sent, "Strict", status=status) for side in sides]
                before = (created.body["metadata"]["resourceVersion"],) * 2
                problems += _compare(label, answers[0], answers[1], before)
                codes.append(answers[0].code)
        finally:
            with contextlib.suppress(ApiError):
                client.request("DELETE", f"{path}/{name}")
    assert problems == [], "\n".join(problems)
    assert codes == [422, 200]  # the server's: only the main resource checks spec.n


CORPUS_NAMESPACE = "admission-corpus"


def _readable_versions(crd: CustomResourceDefinition, version: str) -> list[str]:
    """``version``, then the CRD's other served versions when the None strategy
    converts between them (a Webhook's conversion does not run here)."""
    conversion = (crd.raw.get("spec") or {}).get("conversion") or {}
    if conversion.get("strategy", "None") != "None":
        return [version]
    return [version, *(v.name for v in crd.versions if v.served and v.name != version)]


def _unordered(answer: Answer) -> Answer:
    """A 422 with its causes sorted and its message's list of them too: the server's
    order follows Go's map iteration, random from one request to the next (the
    validation differential compares them as multisets for the same reason)."""
    body = answer.body
    if answer.code != 422 or not isinstance(body, dict):
        return answer
    body = copy.deepcopy(body)
    details = body.get("details") or {}
    causes = details.get("causes") or []
    details["causes"] = sorted(causes, key=lambda c: (c.get("field", ""), c.get("message", "")))
    head, _, listed = str(body.get("message", "")).partition(" is invalid: ")
    if len(causes) > 1 and listed.startswith("["):
        parts = sorted(f"{c.get('field')}: {c.get('message')}" for c in causes)
        body["message"] = f"{head} is invalid: " + "[" + ", ".join(parts) + "]"
    return Answer(answer.code, body, answer.warnings)


def test_corpus_creates_agree_with_the_api_server(
    isolated_apiserver: ControlPlane, corpus_dir: Path
) -> None:
    """One sample of every corpus CRD version, created for real and by the admission
    step: the same code and message, and when accepted the same object (defaults,
    pruning, the status a subresource drops, metadata), read back the same."""
    from kubectl_crd.sources.files import FileSource
    from tests.integration.test_validation_differential import _load_samples

    plane = isolated_apiserver
    source = FileSource([str(p) for p in sorted((corpus_dir / "crds").glob("*/*.yaml"))])
    crds = {
        (Path(c.location.file).relative_to(corpus_dir).as_posix(), c.name): c
        for c in source.crds()
        if c.location is not None
    }
    samples = _load_samples(corpus_dir, crds)
    plane.kubectl("create", "namespace", CORPUS_NAMESPACE, check=False)
    problems: list[str] = []
    tally: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    config = ClusterConfig(kubeconfig=str(plane.kubeconfig))
    with KubeClient(config, on_warning=lambda text: None) as client:
        for round_ in plan_rounds((corpus_dir / f, n) for f, n in crds):
            members = {
                (Path(f).relative_to(corpus_dir).as_posix(), n)
                for f, n in zip(round_.files, round_.names, strict=True)
            }
            todo = []
            for crd, sample_file, content, _expect in samples:
                assert crd.location is not None
                key = (Path(crd.location.file).relative_to(corpus_dir).as_posix(), crd.name)
                version = str(content["apiVersion"]).rpartition("/")[2]
                if key not in members or (crd.name, version) in seen:
                    continue
                conversion = (crd.raw.get("spec") or {}).get("conversion") or {}
                storage = crd.storage_version
                if conversion.get("strategy") == "Webhook" and (
                    storage is None or storage.name != version
                ):
                    continue  # the CRD's conversion webhook does not run here
                seen.add((crd.name, version))
                todo.append((crd, sample_file, content))
            if not todo:
                continue
            needed = {crd.name: crd for crd, _, _ in todo}
            plane.delete_present(needed)
            plane.install_crds(
                sorted({str(c.location.file) for c in needed.values() if c.location})
            )
            for number, (crd, sample_file, content) in enumerate(todo):
                body = json.loads(go_json(content))
                meta = body.get("metadata")
                if not isinstance(meta, dict):
                    meta = body["metadata"] = {}
                meta.pop("namespace", None)
                meta["name"] = f"s{number}-{crd.names.singular or 'x'}"[:60]
                version = str(body["apiVersion"]).rpartition("/")[2]
                collection = f"/apis/{crd.group}/{version}/" + (
                    f"namespaces/{CORPUS_NAMESPACE}/" if crd.namespaced else ""
                )
                collection += crd.names.plural
                try:
                    answer = client.request(
                        "POST", collection, body=body, query={"fieldValidation": "Strict"}
                    )
                    server = Answer(201, answer)
                except ApiError as exc:
                    server = Answer(exc.status, dict(exc.status_object))
                ours = Admission(crd).create(copy.deepcopy(body), namespace=CORPUS_NAMESPACE)
                mine = Answer(ours.code, ours.response)
                tally["created" if server.code == 201 else "refused"] += 1
                found = _compare(sample_file, _unordered(server), _unordered(mine), (None, None))
                if server.code == 201 and not found:
                    # read back in its version, and in every other one the None
                    # conversion serves (pruned by that version, never defaulted)
                    for other in _readable_versions(crd, version):
                        at = collection.replace(f"/{version}/", f"/{other}/", 1)
                        read = client.request("GET", f"{at}/{meta['name']}")
                        mine = Admission(crd).read(ours.stored, other)
                        tally["reads"] += 1
                        if _normal(read) != _normal(mine):
                            found.append(f"{sample_file}: read as {other} differs: {_normal(read)}")
                    client.request("DELETE", f"{collection}/{meta['name']}")
                problems += found
    print(f"\ncorpus creates: {dict(tally)}, {len(problems)} differences")
    for line in problems[:50]:
        print("  " + line[:2000])
    assert tally["created"] > 100
    assert problems == []
