"""Schema features met in projects the corpus never saw, each sent to the real API server.

A hunt over the CRDs and samples of projects outside the corpus (and systematic
mutations of them, as ``test_validation_differential`` makes them) found places where
``validate`` and the API server disagreed. Each case below is a small CRD written for
the test, showing only the feature, with the objects that showed the difference: the
server must accept the CRD exactly when ``crd_errors`` finds nothing, and every object's
dry-run create must get the same verdict and the same (path, reason, message) errors
from ``validate_custom_resource``. Update cases store objects under a loose schema, switch
the CRD to a tight one and send each update as a dry-run PUT: the same comparison with
``validate_custom_resource(..., old=<the stored object>)``. CRD cases are CRDs the server
refuses: each cause (path and words) of its dry-run create must be one of ``crd_errors``.

The second hunt (2026-11-27, kube-apiserver 1.34.4) covered 24 projects: 19 no hunt had
seen (Kong ingress controller, trust-manager, dapr, ECK, grafana-operator, knative
eventing, spark-operator, kubeflow trainer, cluster-api providers AWS and Azure,
external-dns, kubevela, mariadb-operator, minio operator, nack, open-cluster-management,
capsule, tekton triggers, traefik) and 5 again with new mutations (chaos-mesh, kserve,
lws, kuberay, volcano). 357 CRDs, each create's verdict equal to ``crd_errors``'; 3,604
objects (published samples, ``sample`` minimal and ``--all-fields``) and their
mutations (those of ``validation_mutations``, plus unicode at maxLength, floats,
2^63 and strings for integers, int-or-string values, format and pattern edges; and for
CRDs with transition rules, dry-run updates of stored objects with metadata changes):
112,306 cases, 112,303 verdicts and 133,726 of 133,727 errors equal, warnings 20,628 of
20,628; the rest are three objects over etcd's request limit, which a dry run never
reaches. 1,301 mutated CRDs (bounds stripped, rules broken, bad defaults, patterns,
list types, types removed, formats, metadata schemas, enums) of 16 projects: every
verdict equal. The disagreements found are the update, regexp, structural, defaults
and CEL-wording cases below, each fixed.

The third hunt (2026-11-29, kube-apiserver 1.34.4) covered 18 projects no hunt had
seen: sail-operator, kro, network-policy-api, kuadrant, authorino and limitador
operators, karpenter-provider-aws, cluster-api-provider-openstack, metal3's
baremetal-operator, the VPA, envoy ai-gateway, agones, linkerd2, Crunchy postgres,
k8ssandra, scylla and flink operators. 167 CRDs, each create's verdict, causes and
warnings equal; 81,203 objects and mutations (as above, plus interesting strings and
integers at every leaf under a rule, and dry-run updates of stored objects where rules
use oldSelf): 81,195 verdicts and 59,888 of 59,934 errors equal, warnings 34,138 of
34,138. Then objects stored under a loosened copy of each CRD (bounds, enums, patterns,
formats, defaults, rules and required dropped), the CRD tightened back, and each sent
as dry-run updates (relabelled, mutated) of 12 projects: 199,884 updates, 199,663
verdicts and 250,096 of 250,155 errors equal (180,580 of 180,761 and 221,955 of
222,007 after the stored-object fix). Fixed: the old-object-read and uri cases below.
Then fixed, all in the CEL package: a rule's error under an item of a list that is not
a map list is ratcheted when its nearest correlatable ancestor is unchanged
(cel/validation.go: ratchetingOptions.nearestParentCorrelation); errors of evaluation
are never ratcheted; format duration strings convert with kube-openapi's
ParseDuration ("5 min", "1d"), bad ones and bad base64 of format byte fail in the
server's words ("Invalid duration ...", "Invalid byte formatted string ...":
test_cel_unconvertible_formats_differential.py).

CRD messages (2026-11-27, helper-61): corpus CRDs mutated (bad defaults, defaults in
apiVersion, kind and metadata, unknown formats, rules that do not type-check, defaults
on such rules, printer columns, names) and sent as dry-run creates: of 300, 222 got
the server's exact causes and warnings before, 300 after (the CRD cases, warnings,
selectable-fields and root-with-status tests below); 300 more (another seed) 298, the
two left being a k8s-long-name default the server checks with the format (defaults
are validated with every format kube-openapi knows) and istio's VirtualService, whose
rules were not type-checked here (its mirrorPercent and mirror_percent gave protobuf
one JSON name twice): both fixed since, the crd-default-formats and
crd-json-name-twins cases. percona's PerconaServerMongoDB (486 KB) is accepted by both and
Established after 28 s at load 18: each status write re-validates it (7 s at load
29); its 313 published objects all agree.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation import FieldValidation, validate_custom_resource
from kubectl_crd.validation.crds import crd_errors, crd_warnings
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
    # found by the third hunt (a format: duration field under a rule): the value is
    # read as kube-openapi's strfmt.ParseDuration reads it (apiserver
    # pkg/cel/common/values.go), Go's syntax first, else every "<digits> <unit>" summed:
    # "5 min", "200 ms", "1s-x" are durations to the format check and to the rule
    "duration-format-spellings": Case(
        _rules(
            [],
            d={
                "type": "string",
                "format": "duration",
                "x-kubernetes-validations": [
                    {"rule": 'duration("0") <= self && self <= duration("5m")'}
                ],
            },
        ),
        [
            {"d": value}
            for value in (
                "5 min",
                "200 ms",
                "1 s",
                "3 secs",
                "1s-x",
                "1d",
                "5m",
                "1 hours 2 mins",
                "10 µs",
                "1 Sec",
                "2 weeks",
                "6min",
                "4 milliseconds",
                "90s",
            )
        ],
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
    # found by the third hunt on envoyproxy/ai-gateway's MCPRoute (an issuer with the
    # value fe80::1%eth0): format uri is net/url.ParseRequestURI, which keeps a
    # scheme's opaque rest and the query as written and unescapes only the authority
    # and the path (url.go: parse, setPath)
    "uri-escapes-where-unescaped": Case(
        _rules([], u={"type": "string", "format": "uri"}),
        [
            {"u": "fe80::1%eth0"},
            {"u": "http://a/b?q=%zz"},
            {"u": "mailto:a%zz"},
            {"u": "http://a/%zz"},
            {"u": "http://a%zz/b"},
            {"u": "/a%2"},
            {"u": "/a b"},
            {"u": "http://a b/"},
            {"u": "*"},
            {"u": "a:"},
        ],
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


@dataclass(frozen=True)
class UpdateCase:
    """Objects stored under ``loose`` (for real), the CRD then switched to ``tight``,
    each object then replaced by its update (a dry-run PUT at its resourceVersion)."""

    loose: dict[str, Any]
    tight: dict[str, Any]
    #: (stored object, its update), each a dict of top-level fields over ``metadata.name``
    updates: list[tuple[dict[str, Any], dict[str, Any]]]
    #: an object only ``tight`` refuses: its dry-run create tells when ``tight`` is served
    probe: dict[str, Any] | None = None


def _items(item: dict[str, Any], **list_schema: Any) -> dict[str, Any]:
    return {"type": "array", "items": item, **list_schema}


_N = {"type": "object", "properties": {"k": {"type": "string"}, "n": {"type": "integer"}}}
_N_MAX = {
    "type": "object",
    "properties": {"k": {"type": "string"}, "n": {"type": "integer", "maximum": 10}},
}

UPDATE_CASES: dict[str, UpdateCase] = {
    # found on kubeflow/trainer (ClusterTrainingRuntime updates): the server checks an
    # update's metadata in validateCommonFields (ValidateObjectMetaAccessor with
    # path-segment names, ValidateObjectMetaAccessorUpdate) and again in the strategy
    # (ValidateObjectMetaAccessorUpdate): a bad label or annotation is reported three
    # times, and a generateName the DNS-subdomain check would refuse passes
    "update-metadata": UpdateCase(
        {"type": "object"},
        {"type": "object"},
        [
            ({}, {"metadata": {"labels": {"bad key!": "v", "k": "bad value!"}}}),
            ({}, {"metadata": {"annotations": {"bad key!": "v"}, "generateName": "Gen_"}}),
            ({}, {"metadata": {"generateName": "a/b%"}}),
        ],
    ),
    # found on kubeflow/trainer (replicatedJobs[0].replicas: 1.5 in an update): an item
    # of an atomic or set list never correlates with an old item (equality.go), so a
    # changed list keeps every item's errors, changed or not; a map-type list's item
    # correlates by its keys and an unchanged one keeps no error
    "update-ratcheting-list-items": UpdateCase(
        _rules(
            [],
            a=_items(_N),
            m=_items(
                {**_N, "required": ["k"]},
                **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"]},
            ),
        ),
        _rules(
            [],
            a=_items(_N_MAX),
            m=_items(
                {**_N_MAX, "required": ["k"]},
                **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"]},
            ),
        ),
        [
            ({"spec": {"a": [{"n": 1}]}}, {"spec": {"a": [{"n": 11}]}}),
            ({"spec": {"a": [{"n": 20}, {"n": 1}]}}, {"spec": {"a": [{"n": 20}, {"n": 2}]}}),
            ({"spec": {"a": [{"n": 20}]}}, {"spec": {"a": [{"n": 20}], "m": []}}),
            (
                {"spec": {"m": [{"k": "x", "n": 20}, {"k": "y", "n": 1}]}},
                {"spec": {"m": [{"k": "y", "n": 2}, {"k": "x", "n": 20}]}},
            ),
            (
                {"spec": {"m": [{"k": "x", "n": 20}, {"k": "y", "n": 1}]}},
                {"spec": {"m": [{"k": "z", "n": 20}, {"k": "y", "n": 1}]}},
            ),
        ],
        probe={"spec": {"a": [{"n": 11}]}},
    ),
    # found by the third hunt (kro, ai-gateway, VPA, crunchy, karpenter): a rule's error
    # on an item of a list that is not a map list (which correlates with no old item)
    # is ratcheted by the nearest correlated ancestor (cel/validation.go
    # ratchetingOptions.nearestParentCorrelation): the list unchanged, a warning; the
    # list changed, an error on every item, changed or not; below such an item too; a
    # map list's item by its own old item
    "update-ratcheting-rules-under-list-items": UpdateCase(
        _rules(
            [],
            l=_items(_N),
            d=_items({"type": "object", "properties": {"o": _N}}),
            m=_items(
                {**_N, "required": ["k"]},
                **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"]},
            ),
            x={"type": "integer"},
        ),
        _rules(
            [],
            l=_items(_rules(["self.n <= 10"], **_N["properties"])),
            d=_items(
                {
                    "type": "object",
                    "properties": {"o": _rules(["self.n <= 10"], **_N["properties"])},
                }
            ),
            m=_items(
                {**_rules(["self.n <= 10"], **_N["properties"]), "required": ["k"]},
                **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"]},
            ),
            x={"type": "integer"},
        ),
        [
            (
                {"spec": {"l": [{"n": 20}, {"n": 1}]}},
                {"spec": {"l": [{"n": 20}, {"n": 1}], "x": 1}},
            ),
            ({"spec": {"l": [{"n": 20}, {"n": 1}]}}, {"spec": {"l": [{"n": 20}, {"n": 2}]}}),
            (
                {"spec": {"l": [{"n": 20}]}},
                {"spec": {"l": [{"n": 20}]}, "metadata": {"labels": {"a": "b"}}},
            ),
            ({"spec": {"d": [{"o": {"n": 20}}]}}, {"spec": {"d": [{"o": {"n": 20}}], "x": 2}}),
            (
                {"spec": {"d": [{"o": {"n": 20}}, {}]}},
                {"spec": {"d": [{"o": {"n": 20}}, {"o": {}}]}},
            ),
            (
                {"spec": {"m": [{"k": "x", "n": 20}, {"k": "y", "n": 1}]}},
                {"spec": {"m": [{"k": "y", "n": 2}, {"k": "x", "n": 20}]}},
            ),
        ],
        probe={"spec": {"l": [{"n": 11}]}},
    ),
    # a list's listType checks run on an update only when the old object passes them
    # (strategy.go: ValidateUpdate)
    "update-list-type-ratchets": UpdateCase(
        _rules([], s=_items({"type": "string"}), t=_items({"type": "string"})),
        _rules(
            [],
            s=_items({"type": "string"}, **{"x-kubernetes-list-type": "set"}),
            t=_items({"type": "string"}, **{"x-kubernetes-list-type": "set"}),
        ),
        [
            ({"spec": {"s": ["a", "a"]}}, {"spec": {"s": ["a", "a"], "t": ["b", "b"]}}),
            ({"spec": {"s": ["a"]}}, {"spec": {"s": ["a"], "t": ["b", "b"]}}),
        ],
        probe={"spec": {"s": ["a", "a"]}},
    ),
}


# an atomic map correlates its keys with the old map's, as a granular one does
# (cel/validation.go: validateMap, MapIsCorrelatable): its values' and properties'
# transition rules run (found probing transition rules; ours skipped them)
_ATOMIC_MAPS = _rules(
    [],
    t={
        "type": "object",
        "x-kubernetes-map-type": "atomic",
        "maxProperties": 3,
        "additionalProperties": {
            "type": "string",
            "maxLength": 5,
            "x-kubernetes-validations": [{"rule": "self == oldSelf"}],
        },
    },
    o={
        "type": "object",
        "x-kubernetes-map-type": "atomic",
        "properties": {
            "k": {
                "type": "string",
                "maxLength": 5,
                "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "fixed"}],
            }
        },
    },
)
UPDATE_CASES["update-atomic-maps-correlate"] = UpdateCase(
    _ATOMIC_MAPS,
    _ATOMIC_MAPS,
    [
        ({"spec": {"t": {"a": "x"}}}, {"spec": {"t": {"a": "y"}}}),
        ({"spec": {"t": {"a": "x"}}}, {"spec": {"t": {"a": "x", "b": "z"}}}),
        ({"spec": {"o": {"k": "x"}}}, {"spec": {"o": {"k": "y"}}}),
    ],
)


# found by the third hunt on kro's ComplexApp (objects stored before a CRD gained
# defaults, then relabelled): the server reads the stored object through the CRD's
# storage codec, which prunes and defaults it with the current schema
# (crdhandler.go: crdConversionRESTOptionsGetter, schemaCoercingDecoder and
# unstructuredDefaulter), so ratcheting and oldSelf see the old object pruned and
# defaulted: an unchanged invalid field passes, a defaulted field is no change
UPDATE_CASES["update-old-object-read-with-the-schema"] = UpdateCase(
    _rules(
        [],
        a={"type": "string"},
        n={"type": "integer"},
        p={"type": "string"},
        o={"type": "object", "properties": {"k": {"type": "string"}}},
    ),
    {
        "type": "object",
        "properties": {
            "a": {"type": "string", "default": "x"},
            "n": {"type": "integer", "maximum": 10},
            "o": {
                "type": "object",
                "properties": {"k": {"type": "string", "default": "d"}},
                "x-kubernetes-validations": [{"rule": "self.k == oldSelf.k"}],
            },
        },
        "required": ["a"],
        "x-kubernetes-validations": [{"rule": "self.a == oldSelf.a"}],
    },
    [
        ({"spec": {"n": 20}}, {"metadata": {"labels": {"k": "v"}}, "spec": {"n": 20}}),
        ({"spec": {"n": 20, "p": "v"}}, {"metadata": {"labels": {"k": "v"}}, "spec": {"n": 20}}),
        ({"spec": {"n": 1, "o": {}}}, {"spec": {"n": 2, "o": {"k": "d"}}}),
        ({"spec": {"n": 1}}, {"spec": {"n": 20}}),
        ({"spec": {"n": 1}}, {"spec": {"a": "y", "n": 1}}),
    ],
    probe={"spec": {"n": 20}},
)


def _merged(name: str, kind: str, parts: dict[str, Any]) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": f"{GROUP}/v1", "kind": kind, "spec": {}}
    obj.update({k: v for k, v in parts.items() if k != "metadata"})
    obj["metadata"] = {"name": name, **parts.get("metadata", {})}
    return obj


@pytest.mark.parametrize("name", sorted(UPDATE_CASES))
def test_outside_corpus_updates_agree_with_the_api_server(
    apiserver: ControlPlane, tmp_path: Path, name: str
) -> None:
    case = UPDATE_CASES[name]
    kind = "".join(part.capitalize() for part in name.split("-"))
    plural = kind.lower() + "s"
    base = f"/apis/{GROUP}/v1/namespaces/default/{plural}"
    crd_file = tmp_path / "crd.json"

    def install(spec: dict[str, Any]) -> CustomResourceDefinition:
        schema = {"type": "object", "properties": {"spec": spec}}
        raw = make_crd(kind, GROUP, plural=plural, schema=schema)
        crd_file.write_text(json.dumps(raw))
        apiserver.kubectl("apply", "--server-side", "--force-conflicts", "-f", str(crd_file))
        crd = CustomResourceDefinition.from_object(raw)
        apiserver.wait_established([crd.name])
        return crd

    install(case.loose)
    client = KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig)))
    stored = [
        client.request("POST", base, body=_merged(f"u{number}", kind, before))
        for number, (before, _after) in enumerate(case.updates)
    ]
    crd = install(case.tight)
    # the server swaps in the new schema a moment after the write: wait until it
    # refuses what only the new one refuses
    deadline = time.monotonic() + 60
    while case.probe is not None:
        try:
            client.request(
                "POST", base, query={"dryRun": "All"}, body=_merged("probe", kind, case.probe)
            )
        except ApiError as exc:
            assert exc.status == 422, exc
            break
        assert time.monotonic() < deadline, "the tightened schema not served in 60 s"
        time.sleep(0.2)
    refused = 0
    for old, (_before, after) in zip(stored, case.updates, strict=True):
        new = _merged(old["metadata"]["name"], kind, after)
        new["metadata"]["resourceVersion"] = old["metadata"]["resourceVersion"]
        try:
            client.request(
                "PUT",
                f"{base}/{old['metadata']['name']}",
                query={"dryRun": "All", "fieldValidation": "Strict"},
                body=new,
            )
            status, body = 200, {}
        except ApiError as exc:
            status, body = exc.status, dict(exc.status_object or {})
        verdict, server = _server_errors(status, body)
        result = validate_custom_resource(
            new, crd, field_validation=FieldValidation.STRICT, old=old
        )
        mine = [(e.field, e.reason, e.message) for e in result.reported]
        assert (verdict == "valid") == result.valid, (after, server, mine)
        assert Counter(server) == Counter(mine), after
        refused += verdict != "valid"
    assert refused > 0
    client.close()
    apiserver.kubectl("delete", "crd", crd.name, "--wait=false", check=False)


#: CRDs the server refuses, each cause's (path and) words to be ``crd_errors``'s: the
#: whole openAPIV3Schema
_IOS = {"x-kubernetes-int-or-string": True}
_EMBEDDED = {
    "type": "object",
    "x-kubernetes-embedded-resource": True,
    "x-kubernetes-preserve-unknown-fields": True,
}
_INT_OR_STRING = [{"type": "integer"}, {"type": "string"}]


def _checked(*rules: str) -> dict[str, Any]:
    return {"x-kubernetes-validations": [{"rule": r} for r in rules]}


def _spec(spec: dict[str, Any], **root: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"spec": spec, **root}}


CRD_CASES: dict[str, dict[str, Any]] = {
    # a CRD hunt outside the corpus (patterns written for PCRE or JavaScript): Go's
    # parser words a lookaround or an unknown (? group its own way, and refuses the \C
    # escape RE2 takes
    "crd-regexp-words": _spec(
        _rules(
            [],
            a={"type": "string", "pattern": "^(?<=x)a("},
            b={"type": "string", "pattern": "(?!x)"},
            c={"type": "string", "pattern": "a\\C"},
            d={"type": "string", "pattern": "(?<!x)b>c"},
        )
    ),
    # volcano's PodGroup (vendored by kubernetes-sigs/lws) with a default in its
    # int-or-string anyOf: only exactly anyOf [{type: integer}, {type: string}] (or
    # allOf[0].anyOf) goes unchecked, on any node; any other anyOf, oneOf or a later
    # allOf has its types refused (schema/validation.go: isIntOrStringAnyOfPattern)
    "crd-int-or-string-patterns": _spec(
        _rules(
            [],
            a={**_IOS, "anyOf": [{"type": "integer"}, {"type": "string", "default": "x"}]},
            b={**_IOS, "anyOf": [{"type": "string"}, {"type": "integer"}]},
            c={**_IOS, "oneOf": _INT_OR_STRING},
            d={**_IOS, "allOf": [{"anyOf": _INT_OR_STRING}, {"anyOf": _INT_OR_STRING}]},
            e={"x-kubernetes-preserve-unknown-fields": True, "anyOf": _INT_OR_STRING},
            f={**_IOS, "anyOf": [{"type": "integer", "nullable": False}, {"type": "string"}]},
            # kserve's LocalModelCache.spec.modelSize with an empty-string default: kept
            g={**_IOS, "anyOf": [{"type": "integer"}, {"type": "string", "default": ""}]},
            h={"type": "object", "allOf": [{"default": False}]},
        )
    ),
    # the root's and an embedded resource's apiVersion and kind are strings and their
    # metadata an object; the root's metadata may say only what name and generateName
    # are (validateStructuralMetadataInvariants)
    "crd-metadata-invariants": _spec(
        _rules(
            [],
            e={
                "type": "object",
                "x-kubernetes-embedded-resource": True,
                "properties": {"apiVersion": {"type": "integer"}, "metadata": {"type": "string"}},
            },
        ),
        kind={"type": "integer"},
        metadata={"type": "object", "properties": {"name": {"type": "string"}, "labels": {}}},
    ),
    # kubeflow/trainer's TrainJob (spec.managedBy has a default and a rule): the server
    # runs a node's rules on its default (as an update from itself, then as a create,
    # never ratcheted) and refuses a default they fail; it does not look at defaults
    # under additionalProperties at all (defaulting/validation.go)
    "crd-defaults-meet-rules": _spec(
        _rules(
            [],
            a={"type": "string", "default": "abc", **_checked("self.size() > 5")},
            b={
                "type": "object",
                "default": {"n": 1},
                "properties": {"n": {"type": "integer", **_checked("self > 3")}},
            },
            c={
                "type": "integer",
                "default": 1,
                "x-kubernetes-validations": [
                    {"rule": "self == oldSelf"},
                    {"rule": "oldSelf.hasValue() && self > 0", "optionalOldSelf": True},
                ],
            },
            d={"type": "string", "default": "abcdefg", **_checked("self.size() > 5")},
            m={
                "type": "object",
                "additionalProperties": {"type": "string", "format": "date-time", "default": "x"},
            },
        )
    ),
    # a rule selecting a field of a value that has none (a mistyped rule on
    # kubeflow/trainer's TrainJob): cel-go's checker words it its own way
    "crd-rule-selects-from-a-scalar": _spec(
        _rules(
            [],
            s={"type": "string", **_checked("self.nope == 1")},
            i={"type": "integer", **_checked("self.x.y > 0 || self > 1")},
            l={"type": "array", "items": {"type": "string"}, **_checked("self.size == 1")},
        )
    ),
    # optionalOldSelf on a rule that does not compile: the server does not know the
    # rule uses oldSelf and refuses the flag too, and shows the rule as written
    "crd-optional-old-self-uncompiled": _spec(
        {
            "type": "string",
            "x-kubernetes-validations": [
                {"rule": "self == oldSelf.orValue('') && undeclared", "optionalOldSelf": True},
            ],
        }
    ),
    # defaults in a resource's apiVersion, kind and metadata are checked in the object
    # they make (defaulting/validation.go: "must result in valid metadata"), an
    # embedded resource's default decoded and checked as one (found by helper-55's hunt)
    "crd-meta-defaults": {
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string", "default": "a/b/c"},
            "kind": {"type": "string", "default": "bad_kind"},
            "metadata": {"type": "object", "default": {"labels": {"bad key!": "v"}}},
            "spec": _rules(
                [],
                e={**_EMBEDDED, "default": {"kind": 5}},
                f={
                    **_EMBEDDED,
                    "properties": {"metadata": {"type": "object", "default": {"name": "a/b"}}},
                },
                g={
                    **_EMBEDDED,
                    "default": {"apiVersion": "", "kind": "K", "metadata": {"name": "n"}},
                },
                h={**_EMBEDDED, "properties": {"kind": {"type": "string", "default": ""}}},
                i={
                    **_EMBEDDED,
                    "default": {"apiVersion": "v1", "kind": "K", "metadata": {"name": 5}},
                },
                k={"type": "array", "default": [{"kind": "K"}], "items": _EMBEDDED},
                j={
                    "type": "array",
                    "items": {
                        **_EMBEDDED,
                        "properties": {"apiVersion": {"type": "string", "default": "x/y/z"}},
                    },
                },
            ),
        },
    },
    # a rule that does not compile, on objects: cel-go names each object type by its
    # path below the node the rule is on, which compilation.go names selfType<clock>
    "crd-self-type-names": {
        **_checked("self.metadata == 1", "self.spec.l == 1"),
        **_spec(
            _rules(
                [
                    "self.a == 1",
                    "self.l[0] == 1",
                    "self.m['k'] + 1 == 2",
                    "self == 1",
                    "self.l == 1",
                    "self.m == 1",
                    "self.namespace == 1",
                    "self.a.b.size() == 1",
                ],
                a={
                    "type": "object",
                    "properties": {
                        "b": {"type": "object", "properties": {"c": {"type": "string"}}}
                    },
                },
                l={
                    "type": "array",
                    "items": {"type": "object", "properties": {"x": {"type": "integer"}}},
                },
                m={
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {"x": {"type": "integer"}},
                    },
                },
                namespace={"type": "object", "properties": {"x": {"type": "integer"}}},
            )
        ),
    },
    # a default on a node whose rule does not compile: the server's validator has the
    # rule's compile error for the default ("rule compile error"), and with that
    # the rules are not compiled for the CRD (defaults first)
    "crd-default-with-uncompiled-rule": _spec(
        _rules(
            [],
            a={"type": "string", "default": "x", **_checked("self == 1", "self.size() > 3")},
            b={
                "type": "object",
                "default": {"c": 1},
                "properties": {"c": {"type": "integer", **_checked("self.x == 1")}},
            },
            d={"type": "object", "default": {}, **_checked("self.y == 1")},
            e={
                "type": "array",
                "default": ["a", "bb"],
                "items": {"type": "string", **_checked("self.size() > 1")},
            },
        )
    ),
    # defaults meet every format kube-openapi registers (defaulting/validation.go
    # validates them with strfmt.Default, nothing stripped), objects only those of the
    # default compatibility version: k8s-short-name and k8s-long-name are checked in
    # defaults alone (the CRD-message hunt's mutated corpus CRD); nested, at the
    # limits, and a format unknown to both (int32, never checked)
    "crd-default-formats": _spec(
        _rules(
            [],
            a={"type": "string", "format": "k8s-long-name", "default": "Foo_Bar"},
            b={"type": "string", "format": "k8s-short-name", "default": "a.b"},
            c={"type": "string", "format": "int32", "default": "x"},
            d={
                "type": "object",
                "default": {"e": "UP", "f": "ok.name", "g": "x" * 64},
                "properties": {
                    "e": {"type": "string", "format": "k8s-long-name"},
                    "f": {"type": "string", "format": "k8s-long-name"},
                    "g": {"type": "string", "format": "k8s-short-name"},
                },
            },
            h={"type": "string", "format": "k8s-long-name", "default": "a" * 254},
            i={"type": "string", "format": "k8s-long-name", "default": ("a" * 63 + ".") * 3 + "a"},
            j={"type": "string", "format": "k8sshortname", "default": "-a"},
        )
    ),
    # istio's VirtualService: properties mirror_percent and mirrorPercent (protobuf
    # would give both one JSON name) on the type of a rule that does not type-check
    "crd-json-name-twins": _spec(
        _rules(
            ["self.mirror_percent == 'x'", "self.mirrorPercent.value > 1", "self.mirror_Percent"],
            mirror_percent={"type": "integer"},
            mirrorPercent={"type": "object", "properties": {"value": {"type": "string"}}},
        )
    ),
    # a rule must be typed bool and a messageExpression string (compilation.go compares
    # the checked output type: dyn is neither); found mutating rules of a CRD
    "crd-rule-output-types": _spec(
        {
            "type": "object",
            "properties": {
                "m": {"type": "object", "additionalProperties": {"type": "string"}},
                "i": {"x-kubernetes-int-or-string": True},
            },
            "x-kubernetes-validations": [
                {"rule": "'x'"},
                {"rule": "self.i"},
                {"rule": "dyn(true)"},
                {"rule": "true", "messageExpression": "1"},
                {"rule": "true", "messageExpression": "dyn('x')"},
                {"rule": "has(self.m)", "messageExpression": "'m: ' + self.m['k']"},
            ],
        }
    ),
    # a rule using oldSelf below a list that is not a map-type list: no old item
    # correlates (validation.go: withForbidOldSelfValidations); maps, atomic or not,
    # correlate; found by a CRD hunt of transition rules
    "crd-old-self-uncorrelatable": _spec(
        _rules(
            [],
            a=_items(
                {
                    "type": "object",
                    "properties": {"k": {"type": "string", "maxLength": 5}},
                    "x-kubernetes-validations": [
                        {"rule": "self.k == oldSelf.k"},
                        {"rule": "has(self.k)"},
                    ],
                },
                maxItems=3,
            ),
            s=_items(
                {"type": "string", "maxLength": 3, **_checked("self == oldSelf")},
                maxItems=3,
                **{"x-kubernetes-list-type": "set"},
            ),
            m=_items(
                {
                    "type": "object",
                    "required": ["k"],
                    "properties": {
                        "k": {"type": "string", "maxLength": 5, **_checked("self == oldSelf")},
                        "z": _items(
                            {"type": "string", "maxLength": 2, **_checked("self == oldSelf")},
                            maxItems=2,
                        ),
                    },
                },
                maxItems=3,
                **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"]},
            ),
            t={
                "type": "object",
                "x-kubernetes-map-type": "atomic",
                "maxProperties": 3,
                "additionalProperties": {
                    "type": "string",
                    "maxLength": 5,
                    **_checked("self == oldSelf"),
                },
            },
        )
    ),
    # a default on the root, checked as an embedded resource's (found mutating corpus
    # CRDs): apiVersion and kind required, and then nothing more
    "crd-root-default": {
        **_spec({"type": "object", "properties": {"a": {"type": "string"}}}),
        "required": ["spec"],
        "default": {"zz": 1},
    },
    # an embedded resource is an object with properties (schema/validation.go); an
    # additionalProperties of false is one too (found mutating corpus CRDs)
    "crd-embedded-resource-shape": _spec(
        _rules(
            [],
            a={**_EMBEDDED, "additionalProperties": False},
            b={
                "x-kubernetes-embedded-resource": True,
                "x-kubernetes-preserve-unknown-fields": True,
            },
            c={**_EMBEDDED, "type": "string"},
            d={**_EMBEDDED, "additionalProperties": {"type": "string"}},
        )
    ),
    # cel-go ext/formatting.go: a literal format string is checked when the rule is
    # compiled (too many arguments, a verb for the wrong type)
    "crd-format-string-checks": _spec(
        _rules(["'x'.format([1]) == 'x'", "'%d'.format(['a']) == ''", "'%s %s'.format([1]) == ''"])
    ),
    "crd-metadata-says-nothing-else": _spec(
        {"type": "object"},
        apiVersion={"type": "string"},
        metadata={"type": "object", "required": [], "description": "", "properties": {}},
    ),
}


@pytest.mark.parametrize("name", sorted(CRD_CASES))
def test_outside_corpus_crds_are_refused_in_the_servers_words(
    apiserver: ControlPlane, name: str
) -> None:
    kind = "".join(part.capitalize() for part in name.split("-"))
    raw = make_crd(kind, GROUP, plural=kind.lower() + "s", schema=CRD_CASES[name])
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        try:
            client.request(
                "POST",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                query={"dryRun": "All"},
                body=raw,
            )
            server: list[str] = []
        except ApiError as exc:
            assert exc.status == 422, exc
            causes = (exc.status_object.get("details") or {}).get("causes") or []  # type: ignore[union-attr]
            server = [f"{c['field']}: {c['message']}" for c in causes]
    assert server  # each case is one the server refuses
    assert Counter(_SELF_TYPE.sub("selfType0", m) for m in server) == Counter(
        message for _, message, _ in crd_errors(raw)
    )


@pytest.mark.parametrize("shared", ["fields", "schema"])
def test_selectable_fields_where_the_internal_crd_cannot_hold_them(
    apiserver: ControlPlane, shared: str
) -> None:
    """The same selectable fields over different schemas, or different fields over one
    schema: the internal CRD holds each at the top only when every version has the same
    (found mutating kyverno's ValidatingPolicy, whose versions share their fields)."""
    kind = f"Selectable{shared.capitalize()}"
    raw = make_crd(
        kind,
        GROUP,
        plural=kind.lower() + "s",
        versions=("v1", "v2"),
        schema=_spec({"type": "object", "properties": {"a": {"type": "string"}}}),
    )
    one, two = raw["spec"]["versions"]
    one["selectableFields"] = [{"jsonPath": ".spec.a"}]
    two["selectableFields"] = [{"jsonPath": ".spec.a"}]
    if shared == "fields":
        two["schema"] = {"openAPIV3Schema": _spec({"type": "object"})}
    else:
        two["selectableFields"] = []
    status, body, _ = ApiClient(apiserver).post(
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All",
        json.dumps(raw).encode(),
    )
    assert status == 422, body
    server = [f"{c['field']}: {c['message']}" for c in body["details"]["causes"]]
    assert Counter(message for _, message, _ in crd_errors(raw)) == Counter(server)


#: a version's settings the server refuses (its schema, the fields set on the version),
#: each cause to be ``crd_errors``'s (found by a CRD-message hunt of version settings)
VERSION_CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # ValidateCustomResourceSelectableFields: ValidFieldPath without ['name'], not in
    # metadata, to a string, boolean or integer, once each, at most 8 distinct
    "selectable-field-paths": (
        _spec(
            _rules(
                [],
                a={"type": "string"},
                n={"type": "integer"},
                m={"type": "object", "additionalProperties": {"type": "string"}},
                l=_items({"type": "object", "properties": {"k": {"type": "string"}}}),
                i={"x-kubernetes-int-or-string": True},
                **{f"s{n}": {"type": "boolean"} for n in range(7)},
            ),
            metadata={"type": "object", "properties": {"name": {"type": "string"}}},
        ),
        {"selectableFields": []},
    ),
    # ValidateCustomResourceDefinitionSubresources: replicas paths required, each a
    # "simple json path" (a leading dot) under .spec. or .status. (".spec" is not)
    "scale-paths": (
        _spec({"type": "object"}),
        {
            "subresources": {
                "scale": {
                    "specReplicasPath": ".spec",
                    "statusReplicasPath": "status.r",
                    "labelSelectorPath": ".metadata.x",
                }
            }
        },
    ),
}


def _selectable_paths() -> list[dict[str, str]]:
    paths = [".spec.zz", ".spec.m", ".spec.a", ".spec.a", "spec.a", ".spec.l[0].k"]
    paths += [".spec['a']", ".spec.", "", ".spec.m.x", ".spec.i", ".metadata.name"]
    return [{"jsonPath": p} for p in [*paths, ".spec.n", *(f".spec.s{n}" for n in range(7))]]


@pytest.mark.parametrize("name", sorted(VERSION_CASES))
def test_version_settings_are_refused_in_the_servers_words(
    apiserver: ControlPlane, name: str
) -> None:
    schema, settings = VERSION_CASES[name]
    kind = "".join(part.capitalize() for part in name.split("-"))
    raw = make_crd(kind, GROUP, plural=kind.lower() + "s", schema=schema)
    version = raw["spec"]["versions"][0]
    version.update(settings)
    if "selectableFields" in settings:
        version["selectableFields"] = _selectable_paths()
    status, body, _ = ApiClient(apiserver).post(
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All",
        json.dumps(raw).encode(),
    )
    assert status == 422, body
    server = [f"{c['field']}: {c['message']}" for c in body["details"]["causes"]]
    assert Counter(message for _, message, _ in crd_errors(raw)) == Counter(server)


#: root schemas a CRD with the status subresource may not have: the first field set
#: that is not allowed at the root (in the Go struct's order) is refused, the schema
#: printed as Go marshals the internal struct (found mutating corpus CRDs: a default
#: on the root of cert-manager's Order and others)
ROOTS_WITH_STATUS: dict[str, dict[str, Any]] = {
    "default": {
        **_spec(
            {
                "type": "object",
                "x-kubernetes-validations": [
                    {"rule": "true", "reason": "FieldValueInvalid", "messageExpression": "'x'"}
                ],
                "properties": {
                    "a": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
                    "m": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "integer",
                            "format": "int64",
                            "maximum": 5,
                            "minimum": 1.5,
                            "multipleOf": 1e21,
                        },
                    },
                },
            },
            status={"x-kubernetes-preserve-unknown-fields": True},
        ),
        "default": {},
    },
    "map-type": {
        **_spec({**_IOS, "anyOf": _INT_OR_STRING}),
        "x-kubernetes-map-type": "granular",
        "minProperties": 1,
    },
    "nullable": {
        **_spec(
            {
                **_EMBEDDED,
                "required": [],
                "example": {"a": 1},
                "title": "t",
                "pattern": "^a$",
                "maxLength": 3,
            }
        ),
        "description": "<b>&\n",
        "externalDocs": {"url": "http://x"},
        "nullable": True,
    },
    "any-of": {**_spec({"type": "object"}), "anyOf": [{"required": ["spec"]}]},
    "enum": {**_spec({"type": "object"}), "enum": [{}]},
}


@pytest.mark.parametrize("name", sorted(ROOTS_WITH_STATUS))
def test_root_schemas_with_the_status_subresource(apiserver: ControlPlane, name: str) -> None:
    kind = "Root" + "".join(part.capitalize() for part in name.split("-"))
    raw = make_crd(kind, GROUP, plural=kind.lower() + "s", schema=ROOTS_WITH_STATUS[name])
    raw["spec"]["versions"][0]["subresources"] = {"status": {}}
    status, body, _ = ApiClient(apiserver).post(
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All",
        json.dumps(raw).encode(),
    )
    assert status == 422, body
    server = [f"{c['field']}: {c['message']}" for c in body["details"]["causes"]]
    assert Counter(message for _, message, _ in crd_errors(raw)) == Counter(server)


#: compilation.go names the type of the node a rule is on after the clock's nanoseconds
_SELF_TYPE = re.compile(r"\bselfType\d+")

#: CRDs the server accepts with warnings (strategy.go: WarningsOnCreate)
WARNED_CRDS: dict[str, dict[str, Any]] = {
    # formats the default compatibility version (1.33 for a 1.34 server) does not know,
    # on strings only: int64 and friends are numbers' formats, k8s-short-name came in
    # 1.34; a format is known without its dashes (date-time, datetime), case counts
    "crd-format-warnings": _spec(
        _rules(
            [],
            a={"type": "string", "format": "int64"},
            b={"type": "integer", "format": "int64"},
            c={"type": "string", "format": "k8s-short-name"},
            d={"type": "array", "items": {"type": "string", "format": "int32"}},
            e={"type": "string", "format": "date-time"},
            f={"type": "string", "format": "date_time"},
            g={"type": "string", "format": "int64"},
            h={"type": "number", "format": "double"},
            i={"type": "object", "additionalProperties": {"type": "string", "format": "Byte"}},
            j={"type": "string", "format": "dat-e"},
        )
    ),
}


@pytest.mark.parametrize("name", sorted(WARNED_CRDS))
def test_outside_corpus_crd_warnings_are_the_servers(apiserver: ControlPlane, name: str) -> None:
    kind = "".join(part.capitalize() for part in name.split("-"))
    raw = make_crd(kind, GROUP, plural=kind.lower() + "s", schema=WARNED_CRDS[name])
    status, _, warnings = ApiClient(apiserver).post(
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All",
        json.dumps(raw).encode(),
    )
    assert status == 201
    assert not crd_errors(raw)
    assert warnings  # each case is one the server warns about
    # the server walks properties in a Go map's order: the order is its own
    assert Counter(crd_warnings(raw)) == Counter(warnings)
