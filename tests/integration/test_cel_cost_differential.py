"""Rule costs estimated as the API server estimates them when a CRD is written.

The server shows an estimate only when it refuses one: a rule whose cost times the
number of places it may run exceeds 10,000,000, or a schema whose rules together
exceed 100,000,000, with the factor by which they do (six decimals below 1.5x). So
each rule here is put under an array whose ``maxItems`` makes our estimate of it come
to 1.25 times the limit: the server's factor then shows its own estimate to the unit,
and any difference in ours changes the message or its presence. Corpus schemas are
padded the same way to 1.2 times the per-CRD limit, which shows the server's total of
all their rules.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import read_inputs
from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import is_crd_object
from kubectl_crd.model.schema import plain
from kubectl_crd.validation.cel.typing import check_rules
from kubectl_crd.validation.crds import crd_errors
from tests.integration.envtest import ControlPlane
from tests.integration.test_cel_crd_compile import crd, server_causes

ITEM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "n": {"type": "integer"},
        "s": {"type": "string", "maxLength": 20},
        "u": {"type": "string"},
        "e": {"type": "string", "enum": ["a", "bbb"]},
        "tags": {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 10}},
        "free": {"type": "array", "items": {"type": "string"}},
        "nums": {"type": "array", "maxItems": 8, "items": {"type": "integer"}},
        "m": {
            "type": "object",
            "maxProperties": 3,
            "additionalProperties": {"type": "string", "maxLength": 6},
        },
        "fm": {"type": "object", "additionalProperties": {"type": "integer"}},
        "objs": {
            "type": "array",
            "maxItems": 4,
            "items": {
                "type": "object",
                "properties": {"k": {"type": "string", "maxLength": 3}, "v": {"type": "integer"}},
                "required": ["k"],
            },
        },
        "d": {"type": "string", "format": "duration"},
        "t": {"type": "string", "format": "date-time"},
        "io": {"x-kubernetes-int-or-string": True},
        "b": {"type": "string", "format": "byte", "maxLength": 9},
        # nested three deep: the estimator walks each level's bound
        "lll": {
            "type": "array",
            "maxItems": 3,
            "items": {
                "type": "array",
                "maxItems": 4,
                "items": {"type": "array", "maxItems": 5, "items": {"type": "integer"}},
            },
        },
        "mlm": {
            "type": "object",
            "maxProperties": 3,
            "additionalProperties": {
                "type": "array",
                "maxItems": 4,
                "items": {
                    "type": "object",
                    "maxProperties": 2,
                    "additionalProperties": {"type": "string", "maxLength": 6},
                },
            },
        },
        "lls": {
            "type": "array",
            "maxItems": 3,
            "items": {"type": "array", "maxItems": 4, "items": {"type": "string", "maxLength": 7}},
        },
    },
}

# one of each thing the estimator prices differently: strings with and without bounds,
# enums, lists, maps, nested and two-variable comprehensions, each Kubernetes library
RULES = [
    "self.n > 1",
    "self.s == 'abc'",
    "self.u == 'abc'",
    "self.s.size() > 2",
    "self.s.matches('^a+$')",
    "self.u.matches('^a+$')",
    "self.s.contains('ab')",
    "self.u.startsWith('ab')",
    "self.s.endsWith(self.e)",
    "'a' in self.tags",
    "'a' in self.free",
    "self.tags.all(t, t.size() < 5)",
    "self.free.all(t, t.size() < 5)",
    "self.free.exists(t, t == 'x')",
    "self.tags.exists_one(t, t == 'x')",
    "self.tags.map(t, t + 'x').size() > 0",
    "self.tags.filter(t, t.startsWith('a')).size() > 0",
    "self.tags.all(a, self.tags.all(b, a == b))",
    "self.nums.all(x, x > 0)",
    "self.m.all(k, self.m[k].size() > 1)",
    "self.fm.all(k, self.fm[k] > 1)",
    "self.objs.all(o, o.k.size() > 0 && o.v > 1)",
    "has(self.s) && self.s != ''",
    "self.s + self.u == 'ab'",
    "self.tags + self.free == ['a']",
    "self.n > 1 ? self.s.size() > 1 : self.u.size() > 1",
    "self.s.lowerAscii() == 'a'",
    "self.u.upperAscii() == 'A'",
    "self.s.replace('a', 'bb') == 'c'",
    "self.s.replace('abc', '') == 'c'",
    "self.s.split(',').size() > 1",
    "self.s.split(',', 2).size() > 1",
    "self.tags.join(',') == 'a'",
    "self.tags.join() == 'a'",
    "self.s.substring(1) == 'a'",
    "self.s.trim() == 'a'",
    "self.s.indexOf('a') > 0",
    "self.tags.indexOf('a') > 0",
    "self.nums.isSorted()",
    "self.nums.sum() > 0",
    "self.nums.max() > 0",
    "self.s.find('[a-z]+') == 'a'",
    "self.s.findAll('[a-z]+').size() > 0",
    "url(self.u).getHost() == 'a'",
    "isURL(self.u)",
    "isIP(self.s) && ip(self.s).family() == 4",
    "isCIDR(self.s) && cidr(self.s).containsIP('1.2.3.4')",
    "isCIDR(self.s) && cidr(self.s).containsCIDR('1.2.3.0/24')",
    "cidr(self.s).ip() == ip('1.2.3.4')",
    "quantity(self.s).isInteger()",
    "isQuantity(self.u)",
    "isSemver(self.s) && semver(self.s).major() == 1",
    "!format.dns1123Label().validate(self.s).hasValue()",
    "format.named('dns1123Label').hasValue()",
    "self.d > duration('1s')",
    "self.t > timestamp('2020-01-01T00:00:00Z')",
    "self.io == 1",
    "string(self.b) == 'a'",
    "bytes(self.s) == b'a'",
    "sets.contains(self.tags, ['a'])",
    "sets.intersects(self.tags, self.free)",
    "sets.equivalent(self.nums, [1, 2])",
    "self.m.all(k, v, v.size() > 0)",
    "self.tags.all(i, t, t.size() > i)",
    "self.tags.exists(t, [t, 'a'].size() == 2)",
    "{'a': self.s}.size() == 1",
    "dyn(self.s) == 'a'",
    "self.?s.orValue('') == 'a'",
    "self.tags[0] == 'a'",
    "self.m['a'] == 'b'",
    "'%s'.format([self.s]) == 'a'",
    "strings.quote(self.s) == 'a'",
    "self.s.charAt(0) == 'a'",
    "self.u.indexOf('a', 1) > 0",
    "self.objs.map(o, o.k).join('') == 'a'",
    "self.objs.filter(o, o.v > 0).map(o, o.k).exists(k, k == 'a')",
    # values nested three deep: lists of lists of lists, maps of lists of maps
    "self.lll.all(a, a.all(b, b.all(c, c > 0)))",
    "self.lll.all(a, a.all(b, b.exists(c, [c] == [1])))",
    "self.lll.map(a, a.size()).size() > 0",
    "self.lll[0][0][0] > 0",
    "self.lll == [[[1]]]",
    "self.mlm.all(k, self.mlm[k].all(m, m.all(j, m[j].size() > 0)))",
    "self.mlm.all(k, v, v.all(m, m.all(j, m[j] == 'a')))",
    "self.mlm.all(k, self.mlm[k].exists(m, m.exists(j, j.startsWith('a'))))",
    "self.mlm['a'][0]['b'] == 'c'",
    "self.lls.all(a, a.all(s, s.startsWith('x')))",
    "self.lls[0].join(',') == 'a'",
    "self.lls.all(a, a.join(',').size() > 2)",
    "self.lls.map(a, a.map(s, s + 'x')).size() > 0",
    "self.lls.exists(a, a.join(',') == 'a' && a.indexOf('x') > 0)",
]

# refused on their own, whatever the array around them
EXPENSIVE = [
    {"rule": "self.free.all(a, self.free.all(b, a == b))"},
    {"rule": "self.u.matches(self.u)"},
    {"rule": "true", "messageExpression": "self.free.map(a, self.free.map(b, a + b)).join(',')"},
    {"rule": "true", "messageExpression": "self.free.join(',') + self.u"},
]


def cost_crd(name: str, wraps: dict[str, tuple[int, list[dict[str, Any]]]]) -> dict[str, Any]:
    """A CRD whose spec has, for each wrap, an array of ``maxItems`` ITEMs with ``rules``."""
    properties: dict[str, Any] = {}
    for field, (max_items, rules) in wraps.items():
        item = copy.deepcopy(ITEM)
        item["x-kubernetes-validations"] = rules
        properties[field] = {"type": "array", "maxItems": max_items, "items": item}
    root = {
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": properties}},
    }
    version = {"name": "v1", "served": True, "storage": True, "schema": {"openAPIV3Schema": root}}
    return crd(name, [version], group="cost.example.com")


def once(rule: dict[str, Any]) -> int:
    """Our estimate of one run of ``rule`` on an ITEM."""
    document = cost_crd("probe", {"wrap": (1, [rule])})
    schema = document["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    costs = [c.cost for c in check_rules(schema)[1] if c.field == "rule"]
    assert costs, f"{rule}: no estimate (did it compile?)"
    return costs[0]


def amplified(rule: str) -> dict[str, Any] | None:
    """A CRD where our estimate of ``rule`` comes to 1.25 times the per-rule limit."""
    cost = once({"rule": rule})
    if cost == 0:
        return None
    return cost_crd("amp", {"wrap": (max(1, round(12_500_000 / cost)), [{"rule": rule}])})


def differences(client: KubeClient, document: dict[str, Any]) -> tuple[list[str], list[str]]:
    theirs = sorted(server_causes(client, copy.deepcopy(document), within=""))
    ours = sorted(message for _, message, _ in crd_errors(copy.deepcopy(document)))
    return ours, theirs


def test_each_rule_costs_what_the_server_estimates(apiserver: ControlPlane) -> None:
    disagreements: list[str] = []
    compared = 0
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        for rule in RULES:
            document = amplified(rule)
            assert document is not None, f"{rule}: costs nothing, cannot be shown"
            ours, theirs = differences(client, document)
            assert theirs, f"{rule}: the server accepted it: our estimate is too high"
            compared += 1
            if ours != theirs:
                disagreements.append(f"{rule}\n  ours:   {ours}\n  server: {theirs}")
    print(f"rule costs: {compared - len(disagreements)}/{compared} equal to the server's")
    assert not disagreements, "\n".join(disagreements)


def test_rules_and_messages_too_expensive_on_their_own(apiserver: ControlPlane) -> None:
    document = cost_crd("dear", {"wrap": (1, EXPENSIVE)})
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        ours, theirs = differences(client, document)
    print(f"{len(theirs)} server errors, {len(ours)} ours")
    assert len(theirs) >= len(EXPENSIVE)
    assert ours == theirs


def test_the_schema_total_is_the_servers(apiserver: ControlPlane) -> None:
    """Twelve rules of 9,000,000 to 9,990,000 each, under the per-rule limit, over the
    per-CRD one together (distinct, so that the four most expensive the server names
    are not a matter of sorting ties)."""
    wraps = {}
    for position, rule in enumerate(RULES[:12]):
        cost = once({"rule": rule})
        target = 9_000_000 + position * 90_000
        wraps[f"w{position}"] = (max(1, target // cost), [{"rule": rule}])
    document = cost_crd("total", wraps)
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        ours, theirs = differences(client, document)
    print(f"{len(theirs)} server errors, {len(ours)} ours")
    assert any("entire OpenAPIv3 schema exceeds budget" in message for message in theirs)
    assert ours == theirs


def corpus_schemas(corpus: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted((corpus / "crds").glob("*/*.yaml")):
        for document in read_inputs([str(path)]):
            content = document.content
            if isinstance(content, dict) and is_crd_object(content):
                yield f"{path.parent.name}/{path.name}", plain(content)


PAD_RULE = "self.n > 1"  # 3 per run (ident, select, comparison)


def padded(definition: dict[str, Any]) -> dict[str, Any] | None:
    """The CRD with rules added to every version's schema so that our estimate of its
    total comes to 1.2 times the per-CRD limit; None when it has no rule to show."""
    totals = []
    for version in definition["spec"]["versions"]:
        schema = (version.get("schema") or {}).get("openAPIV3Schema")
        costs = check_rules(schema)[1] if schema else []
        totals.append(sum(c.total for c in costs) if costs else None)
    if all(t is None for t in totals):
        return None
    padded_crd = copy.deepcopy(definition)
    for version, total in zip(padded_crd["spec"]["versions"], totals, strict=True):
        if total is None:
            continue
        missing = 120_000_000 - total
        count = missing // 9_000_000 + 1
        pads = {}
        for position in range(count):
            # distinct costs just under the per-rule limit, summing to what is missing
            share = missing // count + (position - count // 2) * 3_000
            pad = {"type": "object", "properties": {"n": {"type": "integer"}}}
            pad["x-kubernetes-validations"] = [{"rule": PAD_RULE}]
            pads[f"pad{position}"] = {"type": "array", "maxItems": share // 3, "items": pad}
        schema = version["schema"]["openAPIV3Schema"]
        schema.setdefault("properties", {})["zzcostpad"] = {"type": "object", "properties": pads}
    return padded_crd


def test_corpus_schema_totals_are_the_servers(apiserver: ControlPlane, corpus_dir: Path) -> None:
    disagreements: list[str] = []
    compared = 0
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        for name, definition in corpus_schemas(corpus_dir):
            document = padded(definition)
            if document is None:
                continue
            document["metadata"].pop("resourceVersion", None)
            ours, theirs = differences(client, document)
            compared += 1
            if ours != theirs:
                disagreements.append(f"{name}\n  ours:   {ours}\n  server: {theirs}")
    print(f"corpus CRDs with rules: {compared - len(disagreements)}/{compared} totals equal")
    assert compared > 40
    assert not disagreements, "\n".join(disagreements[:10])


@pytest.mark.parametrize("rule", ["self.n > 1", "self.tags.all(t, t.size() < 5)"])
def test_an_estimate_one_unit_off_would_be_seen(
    apiserver: ControlPlane, rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The amplification shows a difference of a single unit in one run of a rule."""
    from kubectl_crd.validation.cel import cost

    document = amplified(rule)
    assert document is not None
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        theirs = sorted(server_causes(client, copy.deepcopy(document), within=""))
    exact = cost.estimate_cost
    monkeypatch.setattr(cost, "estimate_cost", lambda *a: (exact(*a)[0], exact(*a)[1] + 1))
    ours = sorted(m for _, m, _ in crd_errors(copy.deepcopy(document)))
    assert theirs and ours and ours != theirs
