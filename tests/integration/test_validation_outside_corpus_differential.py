"""Schema features met in projects the corpus never saw, each sent to the real API server.

A hunt over the CRDs and samples of projects outside the corpus (and systematic
mutations of them, as ``test_validation_differential`` makes them) found places where
``validate`` and the API server disagreed. Each case below is a small CRD written for
the test, showing only the feature, with the objects that showed the difference: the
server must accept the CRD exactly when ``crd_errors`` finds nothing, and every object's
dry-run create must get the same verdict and the same (path, reason, message) errors
from ``validate_custom_resource``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation import FieldValidation, validate_custom_resource
from kubectl_crd.validation.crds import crd_errors
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_validation_differential import ApiClient, _server_errors

GROUP = "outside.example.com"


@dataclass(frozen=True)
class Case:
    spec: dict[str, Any]
    objects: list[dict[str, Any]] = field(default_factory=list)
    #: the root's ``metadata`` schema, and each object's metadata (by default a name)
    metadata_schema: dict[str, Any] | None = None
    metadata: list[dict[str, Any]] = field(default_factory=list)
    root_rules: list[dict[str, Any]] = field(default_factory=list)


def _rules(rules: list[str], **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "x-kubernetes-validations": [{"rule": r} for r in rules],
    }


_NAMESPACED = {"type": "object", "properties": {"namespace": {"type": "string"}}}

CASES: dict[str, Case] = {
    # kubernetes-sigs/jobset: a rule selects ``t.metadata.namespace`` of a template that
    # is not an embedded resource; ``namespace`` is a CEL reserved word, escaped to
    # ``__namespace__``, and the server reaches it under either name
    "reserved-word-as-itself": Case(
        _rules(
            ["!has(self.t.namespace)", "self.l.all(x, x.namespace != 'n')"],
            t=_NAMESPACED,
            l={"type": "array", "items": _NAMESPACED},
        ),
        [
            {"t": {"namespace": "n"}},
            {"t": {}, "l": [{"namespace": "m"}, {"namespace": "n"}]},
            {"t": {}, "l": [{"namespace": "m"}]},
        ],
    ),
    "reserved-word-escaped-and-map-key": Case(
        _rules(
            ["self.t.__namespace__ != 'n'", "!has(self.m.namespace)"],
            t=_NAMESPACED,
            m={"type": "object", "additionalProperties": {"type": "string"}},
        ),
        [{"t": {"namespace": "n"}}, {"t": {"namespace": "x"}, "m": {"namespace": "y"}}],
    ),
    # rook/rook: a rule reads a nullable field that is null; to rules an object's null
    # field is absent ("no such key", has() false), not a null value
    "null-field-is-absent": Case(
        _rules(
            [
                "self.m.z.size() == 3",
                "!has(self.m.z) || self.m.z.size() == 2",
                "!has(self.n) || self.n.size() > 0",
            ],
            m={
                "type": "object",
                "properties": {
                    "y": {"type": "string", "nullable": True},
                    "z": {"type": "array", "items": {"type": "string"}, "nullable": True},
                },
            },
            n={"type": "object", "additionalProperties": {"type": "string", "nullable": True}},
        ),
        [
            {"m": {"z": None}},
            {"m": {"y": None, "z": None}},
            {"m": {"z": ["a", "b"]}, "n": {"k": None}},
            {"m": {"z": ["a", "b", "c"]}, "n": {"k": None}},
        ],
    ),
    # openshift/api (vendored by kubevirt): the root's metadata.name has an enum, and a
    # create with generateName is checked with the name the server generates from it
    "generated-name-meets-the-schema": Case(
        {"type": "object"},
        [{}, {}, {}, {}],
        metadata_schema={
            "type": "object",
            "properties": {"name": {"type": "string", "enum": ["one", "two"]}},
        },
        metadata=[{"generateName": "gen-"}, {"generateName": "Gen_"}, {"name": "one"}, {}],
    ),
    "generated-name-meets-the-rules": Case(
        {"type": "object"},
        [{}, {}],
        metadata=[{"generateName": "gen-"}, {"generateName": "keep-"}],
        root_rules=[
            {"rule": "self.metadata.name.startsWith('keep-')", "message": "keep- names only"}
        ],
    ),
    # found with extra mutations on karpenter and others: an integer beyond int64 is a
    # float64 once the server decodes the JSON (a type error for an integer field, a
    # float in the messages and to rules); -2^63 still fits
    "integer-beyond-int64": Case(
        _rules(
            ["!has(self.n) || self.n <= 100"],
            i={"type": "integer", "maximum": 10},
            n={"type": "number", "maximum": 10},
            o={"x-kubernetes-int-or-string": True},
        ),
        [{"i": 2**63}, {"i": -(2**63)}, {"n": 2**64}, {"n": 5}, {"o": -(2**63) - 1}],
    ),
    # timestamps in an embedded resource's metadata, decoded as metav1.Time (time.Parse
    # with RFC 3339; a value that is not a string fails its json.Unmarshal)
    "embedded-timestamps": Case(
        {
            "type": "object",
            "properties": {
                "t": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": True,
                    "x-kubernetes-preserve-unknown-fields": True,
                }
            },
        },
        [
            {"t": {"apiVersion": "v1", "kind": "X", "metadata": meta}}
            for meta in (
                {"name": "a", "creationTimestamp": "2024-01-02"},
                {"name": "a", "creationTimestamp": 5},
                {"name": "a", "deletionTimestamp": "2024-02-30T00:00:00Z"},
                {"generation": "x", "creationTimestamp": "now"},
                {"name": "a", "creationTimestamp": "2024-01-02T03:04:05+01:00"},
            )
        ],
    ),
    # rook/rook: the scale subresource's specReplicasPath runs through a null object
    "scale-path-through-null": Case(
        {
            "type": "object",
            "properties": {
                "g": {
                    "type": "object",
                    "nullable": True,
                    "properties": {"instances": {"type": "integer", "nullable": True}},
                }
            },
        },
        [{"g": None}, {"g": {"instances": -1}}, {"g": {"instances": None}}],
    ),
}

_SCALE = {"specReplicasPath": ".spec.g.instances", "statusReplicasPath": ".status.replicas"}


def _crd(case: Case, name: str) -> dict[str, Any]:
    kind = "".join(part.capitalize() for part in name.split("-"))
    schema: dict[str, Any] = {"type": "object", "properties": {"spec": case.spec}}
    metadata = case.metadata_schema
    if case.root_rules:
        schema["x-kubernetes-validations"] = case.root_rules
    if metadata is not None:
        schema["properties"]["metadata"] = metadata
    if name.startswith("scale-"):
        schema["properties"]["status"] = {
            "type": "object",
            "properties": {"replicas": {"type": "integer"}},
        }
    raw = make_crd(kind, GROUP, plural=kind.lower() + "s", schema=schema)
    if name.startswith("scale-"):
        raw["spec"]["versions"][0]["subresources"] = {"status": {}, "scale": _SCALE}
    return raw


@pytest.mark.parametrize("name", sorted(CASES))
def test_outside_corpus_cases_agree_with_the_api_server(
    apiserver: ControlPlane, tmp_path: Path, name: str
) -> None:
    case = CASES[name]
    raw = _crd(case, name)
    crd_file = tmp_path / "crd.json"
    crd_file.write_text(json.dumps(raw))
    applied = apiserver.kubectl("apply", "--server-side", "-f", str(crd_file), check=False)
    ours = [p[1] for p in crd_errors(raw)]
    assert (applied.returncode == 0) == (not ours), (applied.stderr, ours)
    if applied.returncode:
        return
    crd = CustomResourceDefinition.from_object(raw)
    apiserver.wait_established([crd.name])
    client = ApiClient(apiserver)
    url = (
        f"/apis/{GROUP}/v1/namespaces/default/{crd.names.plural}?dryRun=All&fieldValidation=Strict"
    )
    invalid = 0
    for number, spec in enumerate(case.objects):
        obj = {
            "apiVersion": f"{GROUP}/v1",
            "kind": crd.names.kind,
            "metadata": case.metadata[number] if case.metadata else {"name": f"o{number}"},
            "spec": spec,
        }
        status, body, _ = client.post(url, go_json(obj).encode())
        verdict, server = _server_errors(status, body)
        prefix = obj["metadata"].get("generateName", "")
        if prefix and not obj["metadata"].get("name"):  # the server's random suffix
            server = [
                (f, r, re.sub(re.escape(prefix) + "[a-z0-9]{5}", prefix + "xxxxx", m))
                for f, r, m in server
            ]
        result = validate_custom_resource(obj, crd, field_validation=FieldValidation.STRICT)
        mine = [(e.field, e.reason, e.message) for e in result.reported]
        assert (verdict == "valid") == result.valid, (spec, server, mine)
        assert Counter(server) == Counter(mine), spec
        invalid += verdict != "valid"
    assert not case.objects or invalid > 0  # each case shows at least one refusal
    apiserver.kubectl("delete", "crd", crd.name, "--wait=false", check=False)
