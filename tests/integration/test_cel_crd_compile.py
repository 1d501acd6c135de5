"""Rules the API server refuses when a CRD is written, and ours: the same fields and words.

Each CRD below has rules that do not compile (unknown fields, type errors, syntax,
bad literals, a messageExpression that does not compile, optionalOldSelf without
oldSelf), in one version or in versions with different schemas. The server's answer is
a dry-run create's Status causes; ours is ``validation.crds.crd_errors``. The same
for defaults that break their own schema, scale paths and printer columns.
And every corpus CRD, all of which the server accepts (test_corpus_crds_install), has
no rule we refuse.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import read_inputs
from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import is_crd_object
from kubectl_crd.model.errors import ApiError
from kubectl_crd.model.schema import plain
from kubectl_crd.validation.crds import crd_errors
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane

SPEC_PROPERTIES = {
    "num": {"type": "integer"},
    "ratio": {"type": "number"},
    "s": {"type": "string", "maxLength": 5},
    "d": {"type": "string", "format": "duration"},
    "t": {"type": "string", "format": "date-time"},
    "tags": {"type": "array", "maxItems": 4, "items": {"type": "string", "maxLength": 8}},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}, "maxProperties": 4},
    "ref": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "my-field": {"type": "integer"}},
    },
    "grid": {
        "type": "array",
        "maxItems": 2,
        "items": {"type": "array", "maxItems": 2, "items": {"type": "integer"}},
    },
    "io": {"x-kubernetes-int-or-string": True},
    "groups": {
        "type": "object",
        "maxProperties": 2,
        "additionalProperties": {
            "type": "array",
            "maxItems": 2,
            "items": {"type": "string", "maxLength": 4},
        },
    },
    "cells": {
        "type": "array",
        "maxItems": 2,
        "items": {
            "type": "array",
            "maxItems": 2,
            "items": {"type": "object", "properties": {"s": {"type": "string", "maxLength": 3}}},
        },
    },
    "flags": {
        "type": "object",
        "maxProperties": 2,
        "additionalProperties": {
            "type": "object",
            "maxProperties": 2,
            "additionalProperties": {"type": "boolean"},
        },
    },
}

# (rule, messageExpression, optionalOldSelf): each is one x-kubernetes-validations entry on spec
RULES: list[dict[str, Any]] = [
    {"rule": "self.nope == 1"},
    {"rule": "self.num == 'x'"},
    {"rule": "self.num > 1.5"},  # cross-type numeric comparison: accepted
    {"rule": "self.ratio < 2"},  # accepted
    {"rule": "self.num ++ 1"},
    {"rule": "self.s.matches('[')"},
    {"rule": "self.d > duration('1x')"},
    {"rule": "self.t < timestamp('yesterday')"},
    {"rule": "self.tags.all(t, t.size() < 3)"},  # accepted
    {"rule": "self.tags.all(t, t + 1 > 0)"},
    {"rule": "self.labels.all(k, self.labels[k] == 1)"},
    {"rule": "self.ref.name.size() > 0 && self.ref.my__dash__field > 0"},  # accepted
    {"rule": "self.ref.my_field > 0"},
    {"rule": "self.count.size() > 1"},
    {"rule": "self.num.size() > 1"},
    {"rule": "self.grid.all(row, row.all(c, c > 0))"},  # accepted
    {"rule": "self.io == 1 || self.io == 'a'"},  # accepted: dyn
    {"rule": "true", "messageExpression": "self.nope"},
    {"rule": "true", "messageExpression": "'n: ' + self.s"},  # accepted
    {"rule": "self.s == 'a'", "optionalOldSelf": True},
    {"rule": "!oldSelf.hasValue() || self.num >= oldSelf.value().num", "optionalOldSelf": True},
    {"rule": "self.metadata.name == 'x'"},  # spec is not a resource root
    # homogeneous aggregate literals (the checker's option and the AST validator)
    {"rule": "[1, 'a'].size() == 2"},
    {"rule": "{'a': 1, 'b': 'x'}.size() == 2"},
    {"rule": "[1, 2.0].size() == 2"},
    {"rule": "[1, dyn('a')].size() == 2"},
    {"rule": "[[1], ['a']].size() == 2"},
    {"rule": "{1: 'a', 'b': 'c'}.size() == 2"},
    {"rule": "self.tags.exists(t, [t, 1].size() == 2)"},
    {"rule": "[self.tags, ['x']].size() == 2"},  # accepted: list(string) twice
    {"rule": "'%s %d'.format(['a', 1]) == 'a 1'"},  # accepted: format is exempt
    {"rule": "[self.io, 1].size() == 2"},
    {"rule": "[1, 'a', 2.0].size() == 3 && {'k': [1, 'b']}.size() == 1"},
    # cel-go's names of the types in the message: null, duration, timestamp
    {"rule": "[1, null].size() == 2"},
    {"rule": "[null, 1].size() == 2"},
    {"rule": "[1, duration('1s')].size() == 2"},
    {"rule": "[timestamp('2020-01-01T00:00:00Z'), 1].size() == 2"},
    # a field holding lists of lists or a map of lists has the schema's type
    {"rule": "self.grid[0][0] + 'x' == 'a'"},
    {"rule": "self.grid.all(r, r.all(c, c + 'x' == 'a'))"},
    {"rule": "self.grid.all(r, r.all(c, c + 1 > 0)) &&\n  self.grid[1][1] == 'x'", "message": "m"},
    {"rule": "self.grid[0].indexOf('a') == 1"},
    {"rule": "[self.grid[0], ['a']].size() == 2"},
    {"rule": "self.groups['a'][0] + 1 > 0"},
    {"rule": "self.groups.all(k, self.groups[k].all(g, g.size() < 3))"},  # accepted
    {"rule": "self.grid.exists(r, r.exists(c, c == 1))"},  # accepted
    {"rule": "self.cells[0][0].s + 1 > 0"},
    # and so where the rule has another error too
    {"rule": "self.grid . grid2 == 1"},
    {"rule": "self.nope == 1 && self.grid[0][0] + 'x' == 'a'"},
    {"rule": "self.grid.all(r, r.all(c, c + 'x' == 'a')) && self.nope"},
    {"rule": "self.cells.all(r, r.all(c, c.nope == 1))"},
    {"rule": "self.flags['a']['b'] + 1 > 0"},
    {"rule": "self.flags.all(k, self.flags[k].all(j, self.flags[k][j]))"},  # accepted
    # cel-go's literal validators (timestamp: time.Parse RFC3339 within years 1-9999),
    # and what its planner evaluates when the program is made (OptOptimize folds
    # conversions of constants; the regex library compiles find's and findAll's
    # constant patterns): "program instantiation failed: ..."; calls it leaves to run
    # time are accepted
    {"rule": "self.t < timestamp('2024-01-01T00:00:00')"},
    {"rule": "self.t < timestamp('2024-01-01')"},
    {"rule": "self.t < timestamp('2024-01-01 00:00:00Z')"},
    {"rule": "self.t < timestamp('0000-01-01T00:00:00Z')"},
    {"rule": "self.t < timestamp('2024-01-01T00:00:00.1234567891Z')"},
    {"rule": "self.t < timestamp('2024-01-01t00:00:00z')"},
    {"rule": "self.t < timestamp('2024-01-01T00:00:00+01:00')"},
    {"rule": "self.t < timestamp('2024-01-01T24:00:00Z')"},
    {"rule": "self.t < timestamp('2024-02-30T00:00:00Z')"},
    {"rule": "self.d > duration('1d')"},
    {"rule": "self.d > duration('')"},
    {"rule": "self.d > duration('0')"},
    {"rule": "self.d > duration('1\u00b5s')"},
    {"rule": "self.d > duration('100000000000h')"},
    {"rule": "self.d > duration('-1.5h')"},
    {"rule": "self.s.matches('(?P<n>a)')"},
    {"rule": "self.s.matches('a{1001}')"},
    {"rule": "self.s.matches('\\\\C')"},
    {"rule": "self.s.find('(') == ''"},
    {"rule": "self.s.findAll('(').size() == 0"},
    {"rule": "int('0x10') == 16"},
    {"rule": "self.num == int(1e19)"},
    {"rule": "uint(-1) == 1u"},
    {"rule": "string(b'\\xff') == 'x'"},
    {"rule": "self.num == 1 / 0"},
    {"rule": "[1][2] == 1"},
    {"rule": "{'a': 1}['b'] == 1"},
    {"rule": "9223372036854775807 + 1 > 0"},
    {"rule": "'abc'.charAt(5) == ''"},
    {"rule": "'x'.substring(5) == ''"},
    {"rule": "quantity('x') == quantity('1')"},
    {"rule": "ip('1.2.3') == ip('1.2.3.4')"},
    {"rule": "url('not a url').getHost() == ''"},
    {"rule": "semver('1.2') == semver('1.2.3')"},
    {"rule": "cidr('10.0.0.0/33').prefixLength() == 1"},
    {"rule": "true", "messageExpression": "string(int('0x10'))"},
    {"rule": "true", "messageExpression": "'x' + self.s.find('(')"},
    {"rule": "self.tags.all(t, t.find('[') == '')"},
    # overloads cel-go's checker finds none of, where cel-cpp's (or ours, over dyn) take any
    {"rule": "self.num in [1.0, 3.0]"},
    {"rule": "3u in self.tags"},
    {"rule": "1 in self.labels"},
    {"rule": "self.s in self.labels"},  # accepted
    {"rule": "dyn(self.num) in [1.0]"},  # accepted
    {"rule": "[[self.num]].isSorted()"},
    {"rule": "[self.tags].max().size() > 0"},
    {"rule": "[true, false].sum() == 1"},
    {"rule": "self.tags.min() == 'a'"},  # accepted
    {"rule": "[self.num, 2].sum() > 0 && [self.ratio].sum() > 0.0"},  # accepted
    {"rule": "sets.contains(self.tags, [1.0])"},
    {"rule": "sets.equivalent([self.num], [1u])"},
    {"rule": "sets.intersects([self.num], [dyn(1u)])"},  # accepted
    # the cost of the lists library over bytes, strings and durations
    {"rule": "[b'a'].min() == b'a'"},
    {"rule": "[b'b', b'a'].isSorted()"},
    {"rule": "['b', 'a'].isSorted()"},
    {"rule": "[duration('1s')].max() == duration('1s')"},
]


def crd(
    name: str, versions: list[dict[str, Any]], group: str = "cel.example.com"
) -> dict[str, Any]:
    """A CRD named after ``name`` (kind ``Name``, plural ``names``) with these versions."""
    document = make_crd(name.capitalize(), group)
    document["spec"]["versions"] = versions
    return document


def version(name: str, rules: list[dict[str, Any]], *, storage: bool) -> dict[str, Any]:
    spec = {"type": "object", "properties": SPEC_PROPERTIES, "x-kubernetes-validations": rules}
    root: dict[str, Any] = {"type": "object", "properties": {"spec": spec}}
    root["x-kubernetes-validations"] = [
        {"rule": "self.metadata.name.size() < 60 && self.kind == 'Widget'"},  # accepted
        {"rule": "self.metadata.labels.size() > 0"},
    ]
    return {
        "name": name,
        "served": True,
        "storage": storage,
        "schema": {"openAPIV3Schema": root},
    }


CASES = {
    "one": crd("one", [version("v1", RULES, storage=True)]),
    "two": crd(
        "two",
        [
            version("v1", RULES[:8], storage=True),
            version("v2", RULES[8:], storage=False),
        ],
    ),
}


def server_causes(
    client: KubeClient, document: dict[str, Any], within: str = "x-kubernetes-validations"
) -> list[str]:
    try:
        client.request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            query={"dryRun": "All"},
            body=document,
        )
    except ApiError as exc:
        causes = exc.status_object.get("details", {}).get("causes", [])  # type: ignore[union-attr]
        return [f"{c['field']}: {c['message']}" for c in causes if within in c.get("field", "")]
    return []


@pytest.mark.parametrize("case", sorted(CASES))
def test_compile_errors_are_the_servers(apiserver: ControlPlane, case: str) -> None:
    document = copy.deepcopy(CASES[case])
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        expected = server_causes(client, document)
    ours = [
        message for field, message, _ in crd_errors(document) if "x-kubernetes-validations" in field
    ]
    assert expected, "the server accepted a CRD built to be refused"
    print(f"{case}: {len(expected)} server errors, {len(ours)} ours")
    assert sorted(ours) == sorted(expected)


def test_no_corpus_rule_is_refused(corpus_dir: Path) -> None:
    refused: list[str] = []
    checked = 0
    for path in sorted((corpus_dir / "crds").glob("*/*.yaml")):
        for document in read_inputs([str(path)]):
            content = document.content
            if not isinstance(content, dict) or not is_crd_object(content):
                continue
            checked += 1
            refused += [f"{path.name}: {m[:300]}" for _, m, _ in crd_errors(plain(content))]
    print(f"{checked} corpus CRDs checked, {len(refused)} refused")
    assert checked > 200
    assert refused == []


DEFAULTS_AND_PATHS = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": "defs.cel.example.com"},
    "spec": {
        "group": "cel.example.com",
        "scope": "Namespaced",
        "names": {"plural": "defs", "singular": "def", "kind": "Def"},
        "versions": [
            {
                "name": name,
                "served": True,
                "storage": name == "v1",
                "subresources": {
                    "scale": {
                        "specReplicasPath": ".spec.replicas" if name == "v1" else ".status.x",
                        "statusReplicasPath": ".spec.replicas",
                        "labelSelectorPath": ".metadata.labels",
                    }
                },
                "additionalPrinterColumns": [
                    {"name": "Ok", "type": "integer", "jsonPath": ".spec.replicas"},
                    {"name": "Typ", "type": "widget", "jsonPath": ".spec.replicas"},
                    {"name": "Fmt", "type": "string", "format": "url", "jsonPath": ".spec.mode"},
                ],
                "schema": {
                    "openAPIV3Schema": {
                        "type": "object",
                        "properties": {
                            "spec": {
                                "type": "object",
                                "properties": {
                                    "replicas": {"type": "integer", "default": "three"},
                                    "mode": {"type": "string", "enum": ["a", "b"], "default": "c"},
                                    "size": {"type": "integer", "maximum": 5, "default": 9},
                                    "tags": {
                                        "type": "array",
                                        "maxItems": 1,
                                        "items": {"type": "string", "pattern": "^[a-z]+$"},
                                        "default": ["ok", "NO"],
                                    },
                                    "obj": {
                                        "type": "object",
                                        "default": {"name": 1, "extra": True},
                                        "properties": {"name": {"type": "string"}},
                                    },
                                },
                            },
                            "status": {"type": "object", "properties": {"x": {"type": "integer"}}},
                        },
                    }
                },
            }
            for name in ("v1", "v2")
        ],
    },
}


def test_defaults_scale_paths_and_columns_are_the_servers(apiserver: ControlPlane) -> None:
    for document in (DEFAULTS_AND_PATHS, _one_version(DEFAULTS_AND_PATHS)):
        with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
            expected = server_causes(client, copy.deepcopy(document), within="")
        ours = [message for _, message, _ in crd_errors(document)]
        assert expected, "the server accepted a CRD built to be refused"
        print(f"{len(expected)} server errors, {len(ours)} ours")
        assert sorted(ours) == sorted(expected)


def _one_version(document: dict[str, Any]) -> dict[str, Any]:
    one = copy.deepcopy(document)
    one["spec"]["versions"] = one["spec"]["versions"][:1]
    return one


NESTED = {
    "title": "t",
    "description": "d",
    "default": {},
    "nullable": True,
    "x-kubernetes-preserve-unknown-fields": True,
    "x-kubernetes-embedded-resource": True,
    "x-kubernetes-int-or-string": True,
    "x-kubernetes-validations": [{"rule": "true"}],
    "properties": {"metadata": {}, "x": {"description": "inner", "nullable": False}},
}


def test_nested_value_validations_are_refused_in_the_servers_words(apiserver: ControlPlane) -> None:
    """Everything but value validations inside allOf, anyOf, oneOf and not: one error
    each, in the words for that keyword (empty, undefined, false), with the server's
    paths (spec.validation when the versions share a schema)."""
    from kubectl_crd.io import load_documents
    from kubectl_crd.validation.documents import CRDIndex, validate_document

    spec = {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "allOf": [NESTED],
        "anyOf": [{"nullable": False, "description": ""}],  # nothing said: accepted
        "not": {"type": "object"},
    }
    other = copy.deepcopy(spec)
    other["oneOf"] = [{"additionalProperties": {"type": "string"}}]

    def version(name: str, spec_schema: dict[str, Any]) -> dict[str, Any]:
        root = {"type": "object", "properties": {"spec": spec_schema}}
        return {
            "name": name,
            "served": True,
            "storage": name == "v1",
            "schema": {"openAPIV3Schema": root},
        }

    for document in (
        crd("nested", [version("v1", spec)]),
        crd("nested", [version("v1", spec), version("v2", other)]),
    ):
        with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
            expected = sorted(server_causes(client, copy.deepcopy(document), within=""))
        parsed = load_documents(json.dumps(document), "crd.json")[0]
        ours = sorted(e.message for e in validate_document(parsed, CRDIndex([])).errors)
        print(f"{len(expected)} server errors, {len(ours)} ours")
        assert len(expected) > 10
        assert ours == expected


SCHEMA_CHECKS: dict[str, Any] = {
    "lt": {"type": "string", "x-kubernetes-list-type": "set"},
    "ltmap": {
        "type": "array",
        "x-kubernetes-list-type": "map",
        "items": {"type": "object", "properties": {"k": {"type": "string"}}},
    },
    "keys": {
        "type": "array",
        "x-kubernetes-list-map-keys": ["k"],
        "items": {"type": "object", "properties": {"k": {"type": "string"}}},
    },
    "badlt": {"type": "array", "x-kubernetes-list-type": "bag", "items": {"type": "string"}},
    "mt": {"type": "string", "x-kubernetes-map-type": "atomic"},
    "badmt": {"type": "object", "x-kubernetes-map-type": "deep"},
    "pat": {"type": "string", "pattern": "(["},
    "setobj": {
        "type": "array",
        "x-kubernetes-list-type": "set",
        "items": {"type": "object", "nullable": True, "properties": {"k": {"type": "string"}}},
    },
    "setlist": {
        "type": "array",
        "x-kubernetes-list-type": "set",
        "items": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
    },
    "mk": {
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k", "z", "k", "nope"],
        "items": {
            "type": "object",
            "required": ["k"],
            "properties": {"k": {"type": "string", "nullable": True}, "z": {"type": "object"}},
        },
    },
    "mapitems": {
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k"],
        "items": {"type": "string"},
    },
    "uniq": {"type": "array", "uniqueItems": True, "items": {"type": "string"}},
    "pu": {"type": "object", "x-kubernetes-preserve-unknown-fields": False},
    "fields": {
        "type": "string",
        "x-kubernetes-validations": [
            {"rule": " "},
            {"rule": "true", "message": " "},
            {"rule": "true", "message": "a\nb"},
            {"rule": "self ==\n'a'"},
            {"rule": "true", "messageExpression": " "},
            {"rule": "true", "reason": "FieldValueGone"},
            {"rule": "true", "fieldPath": " "},
        ],
    },
    # compiled: the rules of nodes without schema errors below them still are
    "rules": {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "self.nope == 1"}],
    },
}


def test_schema_checks_are_the_servers(apiserver: ControlPlane) -> None:
    """``ValidateCustomResourceDefinitionOpenAPISchema``: list and map types and keys,
    unsupported keywords, the fields of each rule, regular expressions; a node's rules
    are compiled only when no schema error is at or below it."""
    from kubectl_crd.io import load_documents
    from kubectl_crd.validation.documents import CRDIndex, validate_document

    spec = {"type": "object", "properties": SCHEMA_CHECKS}
    spec["x-kubernetes-validations"] = [{"rule": "self.nope == 1"}]  # not compiled
    root = {
        "type": "object",
        "properties": {
            "spec": spec,
            "metadata": {"type": "object", "default": {"name": "x"}},
        },
    }
    # with x-kubernetes-preserve-unknown-fields: false the schema cannot be converted
    # (no structural checks, defaults or rules); without it and the bad pattern (a
    # structural error), the rules of nodes with no schema error at or below them are
    # compiled
    convertible = copy.deepcopy(root)
    del convertible["properties"]["spec"]["properties"]["pu"]
    del convertible["properties"]["spec"]["properties"]["pat"]  # a structural error too
    del convertible["properties"]["metadata"]
    for schema, least in ((root, 25), (convertible, 20)):
        version = {
            "name": "v1",
            "served": True,
            "storage": True,
            "schema": {"openAPIV3Schema": schema},
        }
        document = crd("checks", [version])
        with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
            expected = sorted(server_causes(client, copy.deepcopy(document), within=""))
        parsed = load_documents(json.dumps(document), "crd.json")[0]
        ours = sorted(e.message for e in validate_document(parsed, CRDIndex([])).errors)
        print(f"{len(expected)} server errors, {len(ours)} ours")
        missing = [m for m in expected if m not in ours]
        extra = [m for m in ours if m not in expected]
        assert not missing and not extra, f"missing: {missing}\nextra: {extra}"
        assert len(expected) > least
    assert any("undefined field 'nope'" in m for m in expected)  # the rule beside the errors


def _widget_crd() -> dict[str, Any]:
    return crd("widget", [_version("v1", True)], group="example.com")


def _changed(change: Any) -> dict[str, Any]:
    document = _widget_crd()
    change(document)
    return document


def _version(name: str, storage: bool) -> dict[str, Any]:
    return {
        "name": name,
        "served": True,
        "storage": storage,
        "schema": {"openAPIV3Schema": {"type": "object"}},
    }


# common mistakes in a CRD's own fields, each alone
CRD_MISTAKES: dict[str, Any] = {
    "name not plural.group": lambda d: d["metadata"].update(name="gadgets.example.com"),
    "no storage version": lambda d: d["spec"]["versions"][0].update(storage=False),
    "two storage versions": lambda d: d["spec"]["versions"].append(_version("v2", True)),
    "a version twice": lambda d: d["spec"]["versions"].append(_version("v1", False)),
    "version name": lambda d: d["spec"]["versions"][0].update(name="V1"),
    "scope": lambda d: d["spec"].update(scope="Global"),
    "plural upper case": lambda d: (
        d["spec"]["names"].update(plural="Widgets"),
        d["metadata"].update(name="Widgets.example.com"),
    ),
    "kind lower case (accepted)": lambda d: d["spec"]["names"].update(kind="widget"),
    "kind as listKind": lambda d: d["spec"]["names"].update(listKind="Widget"),
    "group": lambda d: (
        d["spec"].update(group="Example_com"),
        d["metadata"].update(name="widgets.Example_com"),
    ),
    "group without a dot": lambda d: (
        d["spec"].update(group="example"),
        d["metadata"].update(name="widgets.example"),
    ),
    "short name": lambda d: d["spec"]["names"].update(shortNames=["W!"]),
    "category": lambda d: d["spec"]["names"].update(categories=["All Of"]),
    "no schema": lambda d: d["spec"]["versions"][0].pop("schema"),
    "storage version not served (accepted)": lambda d: d["spec"]["versions"][0].update(
        served=False
    ),
    "column path": lambda d: d["spec"]["versions"][0].update(
        additionalPrinterColumns=[{"name": "X", "type": "string", "jsonPath": "spec.x"}]
    ),
    "column without name": lambda d: d["spec"]["versions"][0].update(
        additionalPrinterColumns=[{"type": "string", "jsonPath": ".spec.x"}]
    ),
    "deprecation warning, not deprecated": lambda d: d["spec"]["versions"][0].update(
        deprecationWarning="x"
    ),
    "deprecation warning, control character": lambda d: d["spec"]["versions"][0].update(
        deprecated=True, deprecationWarning="a\tb"
    ),
    # unicode.IsPrint over the server's Unicode (15.0): U+11F04 KAWI LETTER A is new in
    # 15.0 (Python 3.11's 14.0 has it unassigned), a tab is a control character; the
    # index counts bytes
    "deprecation warning, a Unicode 15.0 letter (accepted)": lambda d: d["spec"]["versions"][
        0
    ].update(deprecated=True, deprecationWarning="Kawi \U00011f04"),
    "deprecation warning, a tab after a Unicode 15.0 letter": lambda d: d["spec"]["versions"][
        0
    ].update(deprecated=True, deprecationWarning="\U00011f04\t"),
    "nullable root": lambda d: d["spec"]["versions"][0]["schema"]["openAPIV3Schema"].update(
        nullable=True
    ),
    "preserveUnknownFields": lambda d: d["spec"].update(preserveUnknownFields=True),
    # conversion
    "strategy": lambda d: d["spec"].update(conversion={"strategy": "Magic"}),
    "webhook without its fields": lambda d: d["spec"].update(conversion={"strategy": "Webhook"}),
    "url and service": lambda d: d["spec"].update(
        conversion=_webhook(
            {"url": "https://x.example.com/c", "service": {"name": "s", "namespace": "n"}}
        )
    ),
    "neither url nor service": lambda d: d["spec"].update(conversion=_webhook({})),
    "review versions": lambda d: d["spec"].update(
        conversion=_webhook({"service": {"name": "s", "namespace": "n"}}, ["v3", "v3", "V1"])
    ),
    "no review versions": lambda d: d["spec"].update(
        conversion=_webhook({"service": {"name": "s", "namespace": "n"}}, [])
    ),
    "url over http": lambda d: d["spec"].update(
        conversion=_webhook({"url": "http://x.example.com/c"})
    ),
    "url with a fragment and a query": lambda d: d["spec"].update(
        conversion=_webhook({"url": "https://x.example.com/c?a=1#f"})
    ),
    # upstream passes the service's name and namespace in the wrong order
    "service": lambda d: d["spec"].update(
        conversion=_webhook(
            {"service": {"name": "S!", "namespace": "", "path": "x//y/", "port": 70000}}
        )
    ),
    "webhook fields with strategy None": lambda d: d["spec"].update(
        conversion={"strategy": "None", **_webhook({"service": {"name": "s", "namespace": "n"}})}
    ),
    # the approval annotation of a protected group (validateAPIApproval)
    "k8s.io group, no approval": lambda d: _protected(d, "x.k8s.io", None),
    "k8s.io itself, no approval": lambda d: _protected(d, "k8s.io", None),
    "kubernetes.io group, no approval": lambda d: _protected(d, "a.b.kubernetes.io", None),
    "approval empty": lambda d: _protected(d, "x.k8s.io", ""),
    "approval unapproved (accepted)": lambda d: _protected(
        d, "x.k8s.io", "unapproved, request not yet submitted"
    ),
    "approval URL (accepted)": lambda d: _protected(
        d, "x.k8s.io", "https://github.com/kubernetes/enhancements/pull/1111"
    ),
    "approval URL with user, port, query (accepted)": lambda d: _protected(
        d, "x.kubernetes.io", "http://u@example.com:8443/x?y=1"
    ),
    "approval Unapproved": lambda d: _protected(d, "x.k8s.io", "Unapproved"),
    "approval word": lambda d: _protected(d, "x.k8s.io", "approved"),
    "approval URL without scheme": lambda d: _protected(d, "x.k8s.io", "github.com/k/e/pull/1"),
    "approval URL without host": lambda d: _protected(d, "x.k8s.io", "https:///pull/1"),
    "approval opaque URL": lambda d: _protected(d, "x.k8s.io", "mailto:a@example.com"),
    "approval host with a space": lambda d: _protected(d, "x.k8s.io", "https://exa mple.com"),
    "approval bad port": lambda d: _protected(d, "x.k8s.io", "https://example.com:http"),
    "approval bad escape": lambda d: _protected(d, "x.k8s.io", "https://example.com/%zz"),
    "not a protected group (accepted)": lambda d: _protected(d, "notk8s.io", None),
}


def _protected(document: dict[str, Any], group: str, approval: str | None) -> None:
    document["spec"]["group"] = group
    document["metadata"]["name"] = f"widgets.{group}"
    if approval is not None:
        document["metadata"]["annotations"] = {"api-approved.kubernetes.io": approval}


def _webhook(client: dict[str, Any], versions: list[str] | None = None) -> dict[str, Any]:
    review = ["v1"] if versions is None else versions
    return {
        "strategy": "Webhook",
        "webhook": {"conversionReviewVersions": review, "clientConfig": client},
    }


def test_crd_mistakes_are_reported_as_the_server_reports_them(apiserver: ControlPlane) -> None:
    """A CRD's names, group, scope, versions, columns, deprecation warnings and root
    schema, each mistake alone: the same causes as a dry-run create."""
    from kubectl_crd.io import load_documents
    from kubectl_crd.validation.documents import CRDIndex, validate_document

    disagreements: list[str] = []
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        for name, change in CRD_MISTAKES.items():
            document = _changed(change)
            expected = sorted(server_causes(client, copy.deepcopy(document), within=""))
            parsed = load_documents(json.dumps(document), "crd.json")[0]
            ours = sorted(e.message for e in validate_document(parsed, CRDIndex([])).errors)
            if ours != expected:
                disagreements.append(f"{name}\n  ours:   {ours}\n  server: {expected}")
    print(f"{len(CRD_MISTAKES) - len(disagreements)}/{len(CRD_MISTAKES)} CRDs answered alike")
    assert not disagreements, "\n".join(disagreements)
