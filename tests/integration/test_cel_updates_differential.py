"""Updates as the API server validates them: transition rules (``oldSelf``) and ratcheting.

1. Every corpus CRD version whose rules use ``oldSelf`` and that has samples: each
   sample is created for real, then every CEL mutation of it (``validation_mutations``)
   is sent as a dry-run update (PUT with the stored resourceVersion). Ours:
   ``validate_custom_resource(mutated, crd, old=<the stored object>)``. Verdicts,
   (path, reason, message) and warnings are compared; the test prints the counts.
2. Ratcheting: an object stored under a loose schema, the CRD then tightened (a
   maxLength and a CEL rule the value breaks): an update that leaves the value alone
   is accepted with the errors as warnings, one that changes it is refused.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.sources.files import FileSource
from kubectl_crd.validation import validate_custom_resource
from kubectl_crd.validation.cel.tree import RuleNode, rule_tree
from kubectl_crd.validation.schemas import compile_schema
from tests import crd_factory
from tests.integration.envtest import ControlPlane, plan_rounds, wait_until_refused
from tests.integration.validation_mutations import CEL_KINDS, mutations

NAMESPACE = "cel-updates"


def _transition_nodes(tree: RuleNode | None) -> set[int]:
    found: set[int] = set()
    pending = [tree]
    while pending:
        node = pending.pop()
        if node is None:
            continue
        if any(rule.transition for rule in node.rules):
            found.add(id(node.schema))
        pending.extend(node.properties.values())
        pending.extend((node.items, node.additional, *node.all_of))
    return found


def _send(
    client: KubeClient, method: str, path: str, body: Any, dry: bool
) -> tuple[bool, list[tuple[str, str, str]], Any]:
    try:
        answer = client.request(method, path, query={"dryRun": "All"} if dry else None, body=body)
    except ApiError as exc:
        if exc.status != 422:
            raise
        causes = (exc.status_object.get("details") or {}).get("causes") or []  # type: ignore[union-attr]
        return (
            False,
            [
                (c.get("field", ""), c.get("reason", ""), f"{c.get('field')}: {c.get('message')}")
                for c in causes
            ],
            None,
        )
    return True, [], answer


def _compare(ours: Any, server_ok: bool, server: list[tuple[str, str, str]]) -> list[str]:
    problems = []
    mine = [(e.field, e.reason, e.message) for e in ours.reported]
    if ours.valid != server_ok:
        problems.append(
            f"verdict: server {'valid' if server_ok else 'invalid'}, ours {mine}; server {server}"
        )
    elif Counter(mine) != Counter(server):
        problems.append(f"errors differ: server {server}, ours {mine}")
    return problems


def test_transition_rules_agree_with_the_api_server(
    isolated_apiserver: ControlPlane, corpus_dir: Path
) -> None:
    plane = isolated_apiserver
    index = json.loads((corpus_dir / "samples" / "INDEX.json").read_text())
    source = FileSource([str(p) for p in sorted((corpus_dir / "crds").glob("*/*.yaml"))])
    crds = {
        (Path(c.location.file).relative_to(corpus_dir).as_posix(), c.name): c
        for c in source.crds()
        if c.location
    }
    cases: dict[tuple[str, str], list[tuple[CustomResourceDefinition, Any]]] = {}
    for entry in index:
        for doc in entry["docs"]:
            for file in doc.get("crd") or ():
                for (f, name), crd in crds.items():
                    if f != file or crd.names.kind != doc["kind"]:
                        continue
                    version = crd.version(doc["apiVersion"].rpartition("/")[2])
                    if version is None or not version.served:
                        continue
                    if not _transition_nodes(rule_tree(version.schema)):
                        continue
                    from kubectl_crd.io import read_inputs

                    for document in read_inputs([str(corpus_dir / entry["file"])]):
                        content = document.content
                        if isinstance(content, dict) and content.get("kind") == doc["kind"]:
                            cases.setdefault((f, name), []).append(
                                (crd, json.loads(json.dumps(content)))
                            )
    assert cases, "no corpus CRD with transition rules has samples"
    plane.kubectl("create", "namespace", NAMESPACE, check=False)
    tally: Counter[str] = Counter()
    problems: list[str] = []
    rounds = plan_rounds([(corpus_dir / f, n) for f, n in sorted(cases)])
    with KubeClient(ClusterConfig(kubeconfig=str(plane.kubeconfig))) as client:
        for round_ in rounds:
            plane.delete_present(round_.names)
            plane.install_crds(sorted(set(round_.files)))
            for file, name in zip(round_.files, round_.names, strict=True):
                relative = Path(file).relative_to(corpus_dir).as_posix()
                for number, (crd, sample) in enumerate(cases[(relative, name)]):
                    version_name = sample["apiVersion"].rpartition("/")[2]
                    version = crd.version(version_name)
                    assert version is not None
                    sample["metadata"] = {"name": f"u{number}-{crd.names.singular or 'x'}"[:60]}
                    base = f"/apis/{crd.group}/{version_name}/"
                    if crd.namespaced:
                        base += f"namespaces/{NAMESPACE}/"
                    collection = base + crd.names.plural
                    created_ok, _, stored = _send(client, "POST", collection, sample, dry=False)
                    if not created_ok:
                        continue  # a sample the server refuses on create is the create differential's
                    ruled = frozenset(_transition_nodes(rule_tree(version.schema)))
                    node = compile_schema(version.schema)
                    for kind, mutated in mutations(
                        node, sample, limit=0, ruled=ruled, cel_limit=20
                    ):
                        if kind not in (*CEL_KINDS, "original"):
                            continue
                        body = copy.deepcopy(mutated)
                        body["metadata"] = {**stored["metadata"]}
                        ok, server, _ = _send(
                            client,
                            "PUT",
                            f"{collection}/{stored['metadata']['name']}",
                            body,
                            dry=True,
                        )
                        ours = validate_custom_resource(body, crd, version=version, old=stored)
                        tally["cases"] += 1
                        tally["server-invalid"] += not ok
                        found = _compare(ours, ok, server)
                        tally["agree"] += not found
                        tally["transition errors"] += sum(e.transition for e in ours.reported)
                        problems += [f"{relative} {kind}: {p}" for p in found]
                    client.request("DELETE", f"{collection}/{stored['metadata']['name']}")
    print(f"\ntransition-rule updates: {dict(tally)}")
    for line in problems[:100]:
        print("  " + line)
    assert tally["cases"] > 0 and tally["server-invalid"] > 0
    assert problems == []


def _spec_crd(kind: str, spec: dict[str, Any]) -> dict[str, Any]:
    """A cel.example.com CRD whose one version has ``spec``."""
    schema = {"type": "object", "properties": {"spec": spec}}
    return crd_factory.make_crd(kind, "cel.example.com", schema=schema)


RATCHET_CRD = _spec_crd(
    "Ratchet",
    {
        "type": "object",
        "properties": {
            "code": {"type": "string"},
            "note": {"type": "string"},
            "size": {"type": "integer"},
        },
    },
)


def test_ratcheting_agrees_with_the_api_server(isolated_apiserver: ControlPlane) -> None:
    plane = isolated_apiserver
    plane.kubectl("create", "namespace", NAMESPACE, check=False)
    collection = f"/apis/cel.example.com/v1/namespaces/{NAMESPACE}/ratchets"
    tightened = copy.deepcopy(RATCHET_CRD)
    spec_schema = tightened["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"][
        "spec"
    ]
    spec_schema["properties"]["code"].update(
        {
            "maxLength": 3,
            "x-kubernetes-validations": [
                {"rule": "self.startsWith('a')", "message": "starts with a"}
            ],
        }
    )
    spec_schema["properties"]["size"]["x-kubernetes-validations"] = [
        {"rule": "self >= oldSelf", "message": "size cannot shrink"}
    ]
    checked = 0
    warnings: list[str] = []
    config = ClusterConfig(kubeconfig=str(plane.kubeconfig))
    with KubeClient(config, on_warning=warnings.append) as client:
        client.request(
            "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body=RATCHET_CRD
        )
        plane.wait_established(["ratchets.cel.example.com"])
        obj = {
            "apiVersion": "cel.example.com/v1",
            "kind": "Ratchet",
            "metadata": {"name": "r"},
            "spec": {"code": "bcdef", "note": "x", "size": 5},
        }
        stored = client.request("POST", collection, body=obj)
        current = client.get(
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/ratchets.cel.example.com"
        )
        current["spec"]["versions"] = tightened["spec"]["versions"]
        client.request(
            "PUT",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/ratchets.cel.example.com",
            body=current,
        )
        crd = CustomResourceDefinition.from_object(tightened)
        # a new object whose code is too long: only the new schema refuses it
        waited = wait_until_refused(client, collection, {**obj, "metadata": {"name": "probe"}})
        print(f"\nthe tightened schema served {waited:.2f} s after the PUT")
        for spec in (
            {"code": "bcdef", "note": "changed", "size": 5},  # code unchanged: ratcheted
            {"code": "bcdeg", "note": "x", "size": 5},  # code changed: refused
            {"code": "bcdef", "note": "x", "size": 4},  # transition rule: never ratcheted
            {"code": "abc", "note": "x", "size": 6},
        ):
            body = {**obj, "metadata": {**stored["metadata"]}, "spec": spec}
            status_ok = True
            causes: list[tuple[str, str, str]] = []
            warnings.clear()
            client.warnings.clear()
            try:
                client.request("PUT", f"{collection}/r", query={"dryRun": "All"}, body=body)
            except ApiError as exc:
                status_ok = False
                causes = [
                    (
                        c.get("field", ""),
                        c.get("reason", ""),
                        f"{c.get('field')}: {c.get('message')}",
                    )
                    for c in (exc.status_object.get("details") or {}).get("causes") or []  # type: ignore[union-attr]
                ]
            ours = validate_custom_resource(body, crd, old=stored)
            assert _compare(ours, status_ok, causes) == [], (spec, causes, ours.errors)
            if status_ok:
                assert sorted(warnings) == sorted(ours.warnings), (spec, warnings, ours.warnings)
            checked += 1
    assert checked == 4


LISTS_CRD = _spec_crd(
    "Frozen",
    {
        "type": "object",
        "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "spec is immutable"}],
        "properties": {
            "tags": {
                "type": "array",
                "x-kubernetes-list-type": "set",
                "maxItems": 5,
                "items": {"type": "string", "maxLength": 5},
                "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "tags"}],
            },
            "ports": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "maxItems": 5,
                "items": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "maxLength": 5},
                        "port": {"type": "integer"},
                        "hosts": {
                            "type": "array",
                            "x-kubernetes-list-type": "set",
                            "maxItems": 3,
                            "items": {"type": "string", "maxLength": 5},
                        },
                    },
                },
                "x-kubernetes-validations": [{"rule": "(oldSelf == self)", "message": "ports"}],
            },
            "order": {
                "type": "array",
                "maxItems": 5,
                "items": {"type": "string", "maxLength": 5},
                "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "order"}],
            },
        },
    },
)


def test_immutable_set_and_map_lists_ignore_order_as_the_server_does(
    isolated_apiserver: ControlPlane,
) -> None:
    """``self == oldSelf`` on set and map lists (and on an object holding them) compares
    them without order, as the server's list types do; an atomic list keeps its order."""
    plane = isolated_apiserver
    plane.kubectl("create", "namespace", NAMESPACE, check=False)
    collection = f"/apis/cel.example.com/v1/namespaces/{NAMESPACE}/frozens"
    config = ClusterConfig(kubeconfig=str(plane.kubeconfig))
    old_spec = {
        "tags": ["a", "b", "c"],
        "ports": [
            {"name": "p1", "port": 1, "hosts": ["h1", "h2"]},
            {"name": "p2", "port": 2},
        ],
        "order": ["x", "y"],
    }
    updates = [
        {**old_spec, "tags": ["c", "a", "b"]},  # set reordered: equal
        {**old_spec, "ports": [old_spec["ports"][1], old_spec["ports"][0]]},  # map reordered
        {
            **old_spec,
            "ports": [{"name": "p1", "port": 1, "hosts": ["h2", "h1"]}, old_spec["ports"][1]],
        },  # a set inside a map list reordered
        {**old_spec, "tags": ["a", "b", "d"]},  # set changed
        {**old_spec, "ports": [{"name": "p1", "port": 9}, old_spec["ports"][1]]},  # entry changed
        {**old_spec, "order": ["y", "x"]},  # atomic list reordered: not equal
    ]
    with KubeClient(config) as client:
        client.request(
            "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body=LISTS_CRD
        )
        plane.wait_established(["frozens.cel.example.com"])
        crd = CustomResourceDefinition.from_object(LISTS_CRD)
        obj = {
            "apiVersion": "cel.example.com/v1",
            "kind": "Frozen",
            "metadata": {"name": "f"},
            "spec": old_spec,
        }
        stored = client.request("POST", collection, body=obj)
        verdicts = []
        for spec in updates:
            body = {**obj, "metadata": {**stored["metadata"]}, "spec": spec}
            server_ok, causes, _ = _send(client, "PUT", f"{collection}/f", body, dry=True)
            ours = validate_custom_resource(body, crd, old=stored)
            assert _compare(ours, server_ok, causes) == [], (spec, causes, ours.errors)
            verdicts.append(server_ok)
    # the cases mean what they say: three reorderings accepted, three changes refused
    assert verdicts == [True, True, True, False, False, False]
