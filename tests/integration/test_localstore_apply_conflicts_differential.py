"""Server-side apply without force over fields other managers own: the store against
kube-apiserver.

structured-merge-diff's ``merge/update.go`` compares the live object with it merged
with the applied one: a field another entry owns (another manager's, or the same
manager's by an update) that the apply adds or changes is a conflict, and without
``force`` the write is apiserver's 409 (``fieldmanager/internal/conflict.go``): "Apply
failed with N conflict(s)", each manager (``"m"``, an update's ``using v1``, a
subresource) with its fields, one ``FieldManagerConflict`` cause per field. The same
writes go to the server and to a store; each apply's answer (code, reason, message and
the causes, sorted: the server lists managers' causes in a Go map's order) or the
object's data and spec stored must agree.
"""

from __future__ import annotations

import copy
from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Sides, assert_agree, check


def _stored(obj: dict[str, Any]) -> tuple[Any, ...]:
    return (obj.get("data"), obj.get("spec"))


def _answer(call: Any) -> tuple[Any, ...]:
    found = localstore_answers.answer(call, _stored)
    if found[0] == "accepted":
        return found
    return (*found[:3], sorted(found[3], key=str))


def _configmap(name: str, **data: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}


_TEMPLATE = {
    "metadata": {"labels": {"app": "d"}},
    "spec": {
        "containers": [{"name": "main", "image": "nginx:1", "ports": [{"containerPort": 80}]}]
    },
}


def _deployment(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name}, "spec": spec}


#: (what, the write before: (verb, manager, body or patch), the apply: (manager, body))
CONFIGMAP_CASES: list[tuple[str, list[tuple[str, str, Any]], dict[str, Any]]] = [
    ("one field an updater set", [("patch", "editor", {"data": {"a": "1"}})],
     _configmap("c", a="2")),
    ("valid: the same value", [("patch", "editor", {"data": {"a": "1"}})],
     _configmap("c", a="1")),
    ("valid: a field of no one's", [("patch", "editor", {"data": {"a": "1"}})],
     _configmap("c", b="1")),
    ("two fields of one updater", [("patch", "editor", {"data": {"a": "1", "b": "1"}})],
     _configmap("c", a="2", b="2", c="2")),
    ("fields of an updater and of another applier",
     [("patch", "editor", {"data": {"a": "1"}}),
      ("apply", "other", _configmap("c", b="1"))],
     _configmap("c", a="2", b="2")),
    ("its own update's field", [("patch", "me", {"data": {"a": "1"}})],
     _configmap("c", a="2")),
    ("valid: its own earlier apply", [("apply", "me", _configmap("c", a="1"))],
     _configmap("c", a="2")),
]  # fmt: skip

DEPLOYMENT_CASES: list[tuple[str, list[tuple[str, str, Any]], dict[str, Any]]] = [
    ("the creator's container image and a label of the template", [],
     _deployment("d", {"template": {"metadata": {"labels": {"app": "d", "extra": "x"}},
                                    "spec": {"containers": [{"name": "main", "image": "nginx:3"}]}}})),
    ("a container's image and the replicas",
     [("patch", "scaler", {"spec": {"replicas": 3}})],
     _deployment("d", {"replicas": 2, "template": {"spec": {"containers": [
         {"name": "main", "image": "nginx:2"}]}}})),
    ("valid: a port of another protocol (a new item), a new template label",
     [],
     _deployment("d", {"template": {"metadata": {"labels": {"b": "x"}}, "spec": {"containers": [
         {"name": "main", "ports": [{"containerPort": 80, "protocol": "UDP"}]}]}}})),
]  # fmt: skip


def _run(
    sides: Sides,
    created: dict[str, Any],
    cases: list[tuple[str, list[tuple[str, str, Any]], dict[str, Any]]],
    problems: list[str],
) -> None:
    for index, (what, before, applied) in enumerate(cases):
        name = f"{created['metadata']['name']}-{index}"
        answers = []
        for server in (True, False):
            body = copy.deepcopy(created)
            body["metadata"] = {"name": name, "namespace": sides.namespace}
            if server:
                sides.server.create(body, field_manager="creator")
            else:
                sides.store.create(sides.info, body, field_manager="creator")
            for verb, manager, arg in before:
                if verb == "patch" and server:
                    sides.server.patch(name, arg, field_manager=manager)
                elif verb == "patch":
                    sides.store.patch(sides.info, sides.namespace, name, arg, field_manager=manager)
                else:
                    b = copy.deepcopy(arg)
                    b["metadata"] = {"name": name, "namespace": sides.namespace}
                    if server:
                        sides.server.apply(b, field_manager=manager, force=True)
                    else:
                        sides.store.apply(sides.info, b, field_manager=manager, force=True)
            b = copy.deepcopy(applied)
            b["metadata"] = {"name": name, "namespace": sides.namespace}
            if server:
                answers.append(_answer(lambda b=b: sides.server.apply(b, field_manager="me")))
            else:
                answers.append(
                    _answer(
                        lambda b=b: sides.store.apply(
                            sides.info, b, field_manager="me", force=False
                        )
                    )
                )
        check(problems, what, *answers)


def test_apply_conflicts(client: KubeClient, namespace: str) -> None:
    problems: list[str] = []
    _run(
        Sides.of(client, namespace, "", "ConfigMap", "configmaps"),
        # the creator owns a field: an object created with none has no managedFields,
        # and its updates are then not tracked until a first apply (not mirrored)
        _configmap("c", z="0"),
        CONFIGMAP_CASES,
        problems,
    )
    _run(
        Sides.of(client, namespace, "apps", "Deployment", "deployments"),
        _deployment("d", {"selector": {"matchLabels": {"app": "d"}}, "template": _TEMPLATE}),
        DEPLOYMENT_CASES,
        problems,
    )
    assert_agree(problems, len(CONFIGMAP_CASES) + len(DEPLOYMENT_CASES), "applies without force")
