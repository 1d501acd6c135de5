"""A body whose apiVersion is not the URL's: kube-apiserver's answers against ours.

Each case is a POST, a PUT (of the object or of its ``status``, which only v2 has) or
a JSON merge PATCH to a URL of one served version (v1, the storage version, or v2) of
a CRD with three versions (v3 not served) and conversion ``None``, with a body that names another version (served, not served, unknown),
another group, the core group, another kind, no apiVersion, no kind, a malformed
GroupVersion or a non-string kind, alone or with a decoding error (an unknown field
under strict field validation, a metadata field of the wrong type). The same request
goes to the real server (the body's bytes as our client encodes them, since the server
quotes them), to ``validation.admission.Admission`` with the URL's version, and to the
dev loop's in-process store (``reconcile.localstore.ObjectStore``) through the URL's
``ResourceInfo``. The code,
reason, message and details must agree; an accepted write's object must agree, and so
must the object read back afterwards in both versions (which version it was stored in
shows there: each version's schema defaults a field of its own).
"""

from __future__ import annotations

import copy
import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest

from kubectl_crd.kube.client import encode_body
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import StoreRefusal
from kubectl_crd.reconcile.localstore import ObjectStore, apply_merge_patch
from kubectl_crd.validation.admission import Admission, AdmissionResult
from tests.integration.envtest import ControlPlane
from tests.integration.test_admission_differential import _normal
from tests.integration.test_validation_differential import ApiClient

GROUP = "versions.example.com"
OTHER = "other.example.com"


def _schema(own: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "a": {"type": "string"},
                    own: {"type": "string", "default": f"default-{own}"},
                },
            }
        },
    }


def _crd(kind: str) -> dict[str, Any]:
    plural = kind.lower() + "s"
    versions = []
    for name, served in (("v1", True), ("v2", True), ("v3", False)):
        version: dict[str, Any] = {
            "name": name,
            "served": served,
            "storage": name == "v1",
            "schema": {"openAPIV3Schema": _schema("b" + name[1])},
        }
        if name == "v2":
            version["subresources"] = {"status": {}}
        versions.append(version)
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{GROUP}"},
        "spec": {
            "group": GROUP,
            "scope": "Namespaced",
            "names": {"kind": kind, "plural": plural, "singular": kind.lower()},
            "versions": versions,
        },
    }


WIDGETS = _crd("Widget")
GADGETS = _crd("Gadget")  # the same group: a body of its kind names a real kind

ABSENT: Any = object()

#: (apiVersion, kind) the body says of itself; ABSENT leaves the field out
TYPE_META: list[tuple[Any, Any]] = [
    (f"{GROUP}/v1", "Widget"),
    (f"{GROUP}/v2", "Widget"),
    (f"{GROUP}/v3", "Widget"),  # not served
    (f"{GROUP}/v9", "Widget"),  # not a version of the CRD
    (f"{OTHER}/v1", "Widget"),
    ("v1", "Widget"),  # the core group
    (GROUP, "Widget"),  # a version without a group
    (f"/{'v2'}", "Widget"),
    (f"{GROUP}/v1/x", "Widget"),  # not a GroupVersion
    (f"{GROUP}/v1", "Gadget"),
    (f"{GROUP}/v2", "Gadget"),
    (ABSENT, "Widget"),
    ("", "Widget"),
    (f"{GROUP}/v2", ABSENT),
    (f"{GROUP}/v1", ""),
    (ABSENT, ABSENT),
    (f"{GROUP}/v1", 5),
    (5, "Widget"),
]

#: what else the body holds: a spec field of each version's own, an unknown one, a
#: metadata field of the wrong type
CONTENT: dict[str, dict[str, Any]] = {
    "plain": {"spec": {"a": "x"}},
    "b1": {"spec": {"a": "x", "b1": "given"}},
    "b2": {"spec": {"a": "x", "b2": "given"}},
    "b3": {"spec": {"a": "x", "b3": "given"}},
    "unknown": {"spec": {"zzz": "x"}},
    "labels": {"metadata": {"labels": {"a": 1}}, "spec": {"a": "x"}},
}


def _body(api_version: Any, kind: Any, content: str, name: str) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if api_version is not ABSENT:
        body["apiVersion"] = api_version
    if kind is not ABSENT:
        body["kind"] = kind
    extra = copy.deepcopy(CONTENT[content])
    body["metadata"] = {"name": name, **extra.pop("metadata", {})}
    body.update(extra)
    return body


def _cases() -> Iterator[tuple[str, str, Any, Any, str, str]]:
    """(method, URL version, apiVersion, kind, content, field validation)."""
    for method in ("POST", "PUT", "PUT status", "PATCH"):
        for url_version in ("v1", "v2"):
            for api_version, kind in TYPE_META:
                contents = ["plain"]
                if method == "PATCH" and (
                    not isinstance(kind, str)
                    or not kind
                    or isinstance(api_version, int)
                    or str(api_version).count("/") > 1
                ):
                    # the patched object does not decode: the server's 422 quotes it
                    # whole, managedFields included, which admission does not keep
                    continue
                if method == "PATCH":
                    # a patched object decodes strictly in the version it names (its
                    # fields of the URL's version are unknown there): the same quoting
                    # refusal, so field validation is off for the apiVersion's own
                    yield method, url_version, api_version, kind, "plain", "Ignore"
                    continue
                if (api_version, kind) in (
                    (f"{GROUP}/v2", "Widget"),
                    (f"{GROUP}/v3", "Widget"),
                    (f"{GROUP}/v9", "Widget"),
                    (f"{OTHER}/v1", "Widget"),
                    (f"{GROUP}/v1", "Widget"),
                ):
                    contents += ["b1", "b2", "b3", "unknown", "labels"]
                for content in contents:
                    yield method, url_version, api_version, kind, content, "Strict"
                    if content == "unknown":
                        yield method, url_version, api_version, kind, content, "Warn"


class _Server:
    def __init__(self, plane: ControlPlane, namespace: str) -> None:
        self.api = ApiClient(plane)
        self.namespace = namespace

    def path(self, version: str, name: str = "") -> str:
        base = f"/apis/{GROUP}/{version}/namespaces/{self.namespace}/widgets"
        return f"{base}/{name}" if name else base

    def send(
        self, method: str, path: str, body: Any, validation: str, content_type: str
    ) -> tuple[int, Any]:
        if self.api.connection is None:
            self.api.connection = http.client.HTTPSConnection(
                self.api.host, self.api.port, context=self.api.context, timeout=30
            )
        connection = self.api.connection
        data = encode_body(body) if body is not None else None
        query = f"?fieldValidation={validation}" if validation else ""
        headers = {"Content-Type": content_type} if data is not None else {}
        connection.request(method, path + query, data, headers)
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else {}


class _AdmissionSide:
    """``Admission`` over a dict of stored objects, told the URL's version."""

    def __init__(self, namespace: str) -> None:
        self.admission = Admission(CustomResourceDefinition.from_object(WIDGETS))
        self.namespace = namespace
        self.stored: dict[str, Any] = {}

    def _answer(self, result: AdmissionResult) -> tuple[int, Any]:
        if result.ok and result.stored is not None:
            self.stored[str(result.stored["metadata"]["name"])] = result.stored
        return result.code, result.response

    def create(self, body: Any, version: str, validation: str) -> tuple[int, Any]:
        return self._answer(
            self.admission.create(
                copy.deepcopy(body),
                namespace=self.namespace,
                field_validation=validation,
                version=version,
            )
        )

    def resource_version(self, name: str) -> str:
        return str(self.stored[name]["metadata"]["resourceVersion"])

    def update(self, body: Any, version: str, validation: str, *, status: bool) -> tuple[int, Any]:
        old = self.stored[body["metadata"]["name"]]
        write = self.admission.update_status if status else self.admission.update
        return self._answer(
            write(copy.deepcopy(body), old, field_validation=validation, version=version)
        )

    def patch(self, name: str, patch: Any, version: str, validation: str) -> tuple[int, Any]:
        merged = apply_merge_patch(self.admission.read(self.stored[name], version), patch)
        return self._answer(
            self.admission.update(
                merged,
                self.stored[name],
                field_validation=validation,
                version=version,
                patched=True,
            )
        )

    def read(self, name: str, version: str) -> Any:
        return self.admission.read(self.stored[name], version)


class _StoreSide:
    """The dev loop's in-process store (``reconcile.localstore.ObjectStore``), written
    through the ``ResourceInfo`` of the URL's version (strict field validation only)."""

    def __init__(self, namespace: str) -> None:
        self.store = ObjectStore()
        self.store.add_crd(CustomResourceDefinition.from_object(WIDGETS))
        self.namespace = namespace

    def _info(self, version: str) -> Any:
        return self.store.resolve(f"widgets.{GROUP}/{version}")

    @staticmethod
    def _answer(call: Any, code: int) -> tuple[int, Any]:
        try:
            return code, call()
        except StoreRefusal as exc:
            return exc.status, dict(exc.status_object)

    def create(self, body: Any, version: str, validation: str) -> tuple[int, Any]:
        info = self._info(version)
        return self._answer(
            lambda: self.store.create(info, copy.deepcopy(body), namespace=self.namespace), 201
        )

    def resource_version(self, name: str) -> str:
        return str(self.read(name, "v1")["metadata"]["resourceVersion"])

    def update(self, body: Any, version: str, validation: str, *, status: bool) -> tuple[int, Any]:
        info = self._info(version)
        write = self.store.update_status if status else self.store.update
        return self._answer(lambda: write(info, copy.deepcopy(body)), 200)

    def patch(self, name: str, patch: Any, version: str, validation: str) -> tuple[int, Any]:
        info = self._info(version)
        return self._answer(lambda: self.store.patch(info, self.namespace, name, patch), 200)

    def read(self, name: str, version: str) -> Any:
        return self.store.get(self._info(version), self.namespace, name)


def _run_case(
    server: _Server,
    ours: _AdmissionSide | _StoreSide,
    case: tuple[str, str, Any, Any, str, str],
    name: str,
) -> list[str]:
    method, url_version, api_version, kind, content, validation = case
    body = _body(api_version, kind, content, name)
    answers: list[tuple[int, Any]] = []
    if method != "POST":  # the object to write over: created in v1 on both sides
        seed = _body(f"{GROUP}/v1", "Widget", "plain", name)
        code, created = server.send("POST", server.path("v1"), seed, "Strict", "application/json")
        assert code == 201, created
        code, created = ours.create(seed, "v1", "Strict")
        assert code == 201, created
    if method == "POST":
        answers.append(
            server.send("POST", server.path(url_version), body, validation, "application/json")
        )
        answers.append(ours.create(body, url_version, validation))
    elif method.startswith("PUT"):
        status = method == "PUT status"  # v2 has the subresource, v1 not
        # the resourceVersion each side's own read gives (a body without a kind is
        # quoted by the server: it carries none, so that both quote the same bytes)
        if kind not in (ABSENT, "") and not isinstance(kind, int):
            code, current = server.send("GET", server.path(url_version, name), None, "", "")
            body["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"]
        answers.append(
            server.send(
                "PUT",
                server.path(url_version, name) + ("/status" if status else ""),
                body,
                validation,
                "application/json",
            )
        )
        mine = copy.deepcopy(body)
        if "resourceVersion" in mine["metadata"]:
            mine["metadata"]["resourceVersion"] = ours.resource_version(name)
        answers.append(ours.update(mine, url_version, validation, status=status))
    else:
        patch = {k: v for k, v in body.items() if k != "metadata"}
        if api_version is ABSENT:
            patch["apiVersion"] = None
        if kind is ABSENT:
            patch["kind"] = None
        labels = body["metadata"].get("labels")
        if labels is not None:
            patch["metadata"] = {"labels": labels}
        answers.append(
            server.send(
                "PATCH",
                server.path(url_version, name),
                patch,
                validation,
                "application/merge-patch+json",
            )
        )
        answers.append(ours.patch(name, patch, url_version, validation))
    (code, theirs), (my_code, mine_answer) = answers
    label = f"{method} {url_version} {api_version!r} {kind!r} {content} {validation}"
    if code != my_code:
        return [
            f"{label}: code server {code} ours {my_code}: {theirs.get('message')!r} / "
            f"{mine_answer.get('message')!r}"
        ]
    problems = []
    if code >= 400:
        for key in ("reason", "message", "details"):
            if theirs.get(key) != mine_answer.get(key):
                problems.append(
                    f"{label}: {key} server {theirs.get(key)!r} ours {mine_answer.get(key)!r}"
                )
        return problems
    if _normal(theirs) != _normal(mine_answer):
        problems.append(f"{label}: object server {_normal(theirs)} ours {_normal(mine_answer)}")
    for read_version in ("v1", "v2"):
        _, read = server.send("GET", server.path(read_version, name), None, "", "")
        ours_read = ours.read(name, read_version)
        if _normal(read) != _normal(ours_read):
            problems.append(
                f"{label}: read in {read_version} server {_normal(read)} ours {_normal(ours_read)}"
            )
    return problems


@pytest.fixture(scope="module")
def installed(apiserver: ControlPlane) -> Iterator[None]:
    names = apiserver.install_crds([])  # nothing from files: the CRDs are written below
    assert names == []
    for crd in (WIDGETS, GADGETS):
        apiserver.kubectl("apply", "--server-side", "-f", "-", input=json.dumps(crd))
    created = [WIDGETS["metadata"]["name"], GADGETS["metadata"]["name"]]
    apiserver.wait_established(created)
    try:
        yield
    finally:
        apiserver.delete_crds(created)


def _differences(
    plane: ControlPlane,
    namespace: str,
    ours: _AdmissionSide | _StoreSide,
    strict_only: bool,
    prefix: str,
) -> tuple[list[str], int]:
    server = _Server(plane, namespace)
    cases = [case for case in _cases() if not strict_only or case[5] != "Warn"]
    problems: list[str] = []
    try:
        for number, case in enumerate(cases):
            problems += _run_case(server, ours, case, f"{prefix}{number}")
    finally:
        if server.api.connection is not None:
            server.api.connection.close()
    return problems, len(cases)


def test_body_version_against_the_url(
    apiserver: ControlPlane, installed: None, namespace: str
) -> None:
    problems, count = _differences(apiserver, namespace, _AdmissionSide(namespace), False, "a")
    assert count > 300
    assert not problems, f"{len(problems)} of {count} cases differ:\n" + "\n".join(problems)


def test_the_local_store_writes_in_the_url_version(
    apiserver: ControlPlane, installed: None
) -> None:
    """The same cases through the dev loop's store: its ``ResourceInfo`` is the URL. In
    ``default``: the store takes a PUT's namespace from the body, which has none (a body
    without a kind is quoted whole)."""
    problems, count = _differences(apiserver, "default", _StoreSide("default"), True, "s")
    assert count > 250
    assert not problems, f"{len(problems)} of {count} cases differ:\n" + "\n".join(problems)
