"""Rule runs cost what the API server counts, to the unit: the per-object budget's edge.

The server shows a run's cost only by refusing an object: when the rules together
cost more than 10,000,000 (``validation failed due to running out of cost budget``),
or one run more than 1,000,000 (``call cost exceeds limit``). So each case puts a
construct's rule in an object with fillers whose costs we count, tuned so that our
total comes to exactly the budget: the server must accept that object, and refuse the
same object with one more unit of cost. A difference of one unit anywhere in our
count flips one of the two answers.

The fillers: ``heavy`` strings whose rule ``matches`` a 4,000-character pattern (a
run costs ``1 + ceil((1 + len) / 10) * 1000``, steps of 1,000) and a ``pad`` string
whose ``startsWith('')`` costs ``1 + ceil(len / 10)`` (steps of 1). The fillers are
first checked on their own, then each construct: attributes and their qualifiers,
presence tests, ``?:``, folded constants, set lookups, comprehensions, optionals, the
string, list, set and Kubernetes libraries, a messageExpression.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.validation import validate_custom_resource
from kubectl_crd.validation.cel import rules as cel_rules
from tests import crd_factory
from tests.integration.envtest import ControlPlane

GROUP = "runtime.cost.example.com"
BUDGET = cel_rules.RUNTIME_COST_BUDGET
#: the end of a budget refusal: "validation failed due to ..." where a rule ran out, and
#: "messageExpression evaluation failed due to ..." where a messageExpression did; which
#: one the server meets first one unit over varies from run to run (it visits an
#: object's fields in Go's random map order), so both count
OUT_OF_BUDGET = "failed due to running out of cost budget, no further validation rules will be run"
PATTERN = "^(a|" + "x" * 3992 + ")*$"  # 4,000 characters: a regex cost of 1,000
HEAVY_MAX = 9000
HEAVY = 12  # 12 x 901,001 and the pad's 10,001 pass the budget
STRING = {"type": "string", "maxLength": 20}
INTS = {"type": "array", "maxItems": 2000, "items": {"type": "integer"}}
STRINGS = {"type": "array", "maxItems": 2000, "items": STRING}


def bounded(schema: dict[str, Any], items: int) -> dict[str, Any]:
    """An array schema with fewer items allowed: an expensive rule's estimate fits."""
    return {**schema, "maxItems": items}


@dataclass(frozen=True)
class Construct:
    name: str
    schema: dict[str, Any]
    rule: str
    value: Any
    message_expression: str = ""


CONSTRUCTS = [
    Construct("loop", INTS, "self.all(x, x >= 0)", list(range(500))),
    Construct(
        "map_index",
        {"type": "object", "maxProperties": 300, "additionalProperties": {"type": "integer"}},
        "self.all(k, self[k] >= 0 && self[k] < 1000)",
        {f"k{i}": i for i in range(200)},
    ),
    Construct(
        "presence_ternary",
        {
            "type": "array",
            "maxItems": 2000,
            "items": {"type": "object", "properties": {"a": STRING, "b": STRING}},
        },
        "self.all(x, has(x.a) ? x.a == 'v' : x.b == 'w')",
        [{"a": "v"} if i % 2 else {"b": "w"} for i in range(400)],
    ),
    Construct(
        "optional_select",
        {
            "type": "array",
            "maxItems": 2000,
            "items": {"type": "object", "properties": {"a": STRING}},
        },
        "self.all(x, x.?a.orValue('') != 'zzz' && x.?a.hasValue() == has(x.a))",
        [{"a": "v"} if i % 3 else {} for i in range(300)],
    ),
    Construct(
        "strings",
        STRINGS,
        "self.all(x, x.startsWith('ab') && x.matches('^[a-z]+$') && x.contains('kl')"
        " && x.lowerAscii() == x && x.size() == 20 && x.endsWith('t') && x + 'u' != x)",
        ["abcdefghijklmnopqrst"] * 150,
    ),
    Construct(
        "set_lookup_and_literals",
        STRINGS,
        "self.all(x, x in ['a', 'b', 'c'] && [x, 'z'].size() == 2 && x in [x] && !(x in []))",
        ["a", "b", "c"] * 100,
    ),
    Construct(
        "conversions",
        INTS,
        "self.all(x, string(x) != '' && int('5') == 5 && duration('1s') < duration('2s')"
        " && double(x) >= 0.0)",
        list(range(300)),
    ),
    Construct(
        "macros",
        INTS,
        "self.map(x, x * 2).filter(y, y >= 0).size() == self.size()"
        " && self.exists_one(x, x == 7) && self.exists(x, x == 99)",
        list(range(400)),
    ),
    Construct(
        "indexes",
        bounded(INTS, 100),
        "self.all(x, self[0] >= 0 && [1, 2, 3][x % 3] > 0 && self.filter(y, y < 3)[1] == 1)",
        list(range(60)),
    ),
    Construct(
        "lists_and_sets",
        INTS,
        "self.isSorted() && self.sum() > 0 && self.max() == 299 && self.indexOf(5) == 5"
        " && sets.contains(self, [1, 2]) && sets.intersects(self, [7])",
        list(range(300)),
    ),
    # an optional inside a list or a map (the engine cannot hand one to the counting
    # code): == and sets.contains of such values, counted as the server counts them
    Construct(
        "optionals_in_containers",
        bounded(STRINGS, 400),
        "self.all(x, [dyn(x), dyn(optional.of(x))] != [dyn(x)]"
        " && sets.contains([dyn(optional.none()), dyn(x)], [dyn(x)])"
        " && dyn({'k': optional.of(x)}) != dyn({'j': x}))",
        ["abcdefghijklmnopqrst"] * 300,
    ),
    # the same rule guards the lists library's receivers (lists.guard_receivers):
    # the guard is not the server's and costs nothing
    Construct(
        "lists_beside_optionals",
        INTS,
        "self.isSorted() && self.max() == 299 && self.sum() > 0"
        " && [dyn(optional.of(1)), dyn(2)].size() == 2",
        list(range(300)),
    ),
    # indexOf and lastIndexOf on lists that hold optionals run as a comprehension in the
    # engine (indexing.in_engine): charged one traversal of the list, as the server's call
    Construct(
        "index_of_optionals",
        bounded(STRINGS, 400),
        "self.all(x, [dyn(optional.none()), dyn(x)].indexOf(x) == 1"
        " && [dyn(x), dyn(optional.of(x))].lastIndexOf(dyn(optional.of(x))) == 1"
        " && [dyn([x, x]), dyn(optional.none())].indexOf(x) == -1 && x.indexOf('k') == 10"
        " && [dyn({x: x}), dyn(optional.none())].lastIndexOf(x) == -1)",
        ["abcdefghijklmnopqrst"] * 150,
    ),
    Construct(
        "index_of_mapped_optionals",
        bounded(INTS, 300),
        "self.map(y, optional.of(y)).lastIndexOf(optional.of(self[0])) == 0"
        " && dyn(self).indexOf(optional.none()) == -1",
        list(range(250)),
    ),
    Construct(
        "kubernetes_libraries",
        bounded(STRINGS, 150),
        "self.all(x, isQuantity(x) && quantity(x).isLessThan(quantity('10Gi'))"
        " && !format.dns1123Label().validate(x.lowerAscii()).hasValue()"
        " && isURL('https://' + x.lowerAscii() + '.example') && !isIP(x) && x.split('G').size() == 2"
        " && x.replace('Gi', 'Mi') != x)",
        ["1Gi", "5Gi", "9Gi"] * 40,
    ),
    # values nested three deep, walked level by level: lists of lists of lists, maps of
    # lists of maps
    Construct(
        "nested_lists",
        {
            "type": "array",
            "maxItems": 20,
            "items": bounded({"type": "array", "items": bounded(INTS, 20)}, 20),
        },
        "self.all(a, a.all(b, b.all(c, c >= 0) && b.exists(c, c == 4)))"
        " && self[0][1].size() == 5 && [0, 1, 2, 3, 4] in self[2] && self.map(a, a.size()).sum() == 24"
        " && self[1] == self[2] && sets.equivalent(self[0], self[3]) && self[4] + self[5] != self[0]"
        " && self[0].indexOf([0, 1, 2, 3, 4]) == 0",
        [[list(range(5)) for _ in range(4)] for _ in range(6)],
    ),
    Construct(
        "nested_maps",
        {
            "type": "object",
            "maxProperties": 10,
            "additionalProperties": {
                "type": "array",
                "maxItems": 10,
                "items": {
                    "type": "object",
                    "maxProperties": 5,
                    "additionalProperties": STRING,
                },
            },
        },
        "self.all(k, self[k].all(m, m.all(j, m[j].startsWith('v') && m[j].size() < 9)))"
        " && self.all(k, v, v.exists(m, 'a' in m)) && self['k1'][0]['a'] == 'value'"
        " && self['k1'] == self['k2'] && self['k0'].map(m, m.size()).sum() == 6",
        {f"k{i}": [{"a": "value", "b": "v" * 8} for _ in range(3)] for i in range(4)},
    ),
    Construct(
        "message_expression",
        bounded(INTS, 20),
        "self.size() < 0",
        list(range(10)),
        message_expression="'the first is ' + (self[0] == 0 ? 'zero' : 'other') + ', with '"
        " + (self.exists(x, x > 5) ? 'large' : 'small') + ' ones'",
    ),
]


def heavy_cost(length: int) -> int:
    return 1 + math.ceil((1 + length) / 10) * 1000


def pad_cost(length: int) -> int:
    return 1 + math.ceil(length / 10)


def field_rule(rule: str, message_expression: str = "") -> list[dict[str, str]]:
    entry = {"rule": rule}
    if message_expression:
        entry["messageExpression"] = message_expression
    return [entry]


def make_crd() -> dict[str, Any]:
    properties: dict[str, Any] = {
        f"h{i}": {
            "type": "string",
            "maxLength": HEAVY_MAX,
            "x-kubernetes-validations": field_rule(f"self.matches('{PATTERN}')"),
        }
        for i in range(HEAVY)
    }
    properties["pad"] = {
        "type": "string",
        "maxLength": 100_000,
        "x-kubernetes-validations": field_rule("self.startsWith('')"),
    }
    properties["percall"] = {
        "type": "string",
        "maxLength": 10_100,
        "x-kubernetes-validations": field_rule(f"self.matches('{PATTERN}')"),
    }
    for construct in CONSTRUCTS:
        properties[construct.name] = {
            **copy.deepcopy(construct.schema),
            "x-kubernetes-validations": field_rule(construct.rule, construct.message_expression),
        }
    spec = {"type": "object", "properties": properties}
    return crd_factory.make_crd(
        "Cost", GROUP, schema={"type": "object", "properties": {"spec": spec}}
    )


def resource(spec: dict[str, Any], name: str = "c") -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/v1", "kind": "Cost", "metadata": {"name": name}, "spec": spec}


def our_cost(crd: CustomResourceDefinition, spec: dict[str, Any]) -> int:
    """What our count charges for the rules of ``spec`` (all counted exactly)."""
    schema = crd.versions[0].schema
    results = cel_rules.run_rules(schema, resource(spec), exact=True)
    return BUDGET - results.remaining


def filled(construct_cost: int, spec: dict[str, Any], extra: int) -> dict[str, Any]:
    """``spec`` with heavy strings and a pad making the total ``BUDGET + extra``."""
    left = BUDGET + extra - construct_cost
    filled_spec = dict(spec)
    for index in range(HEAVY):
        if left - pad_cost(0) <= 10_001:
            break
        # the longest heavy string that leaves at least the pad's least cost
        length = HEAVY_MAX
        while length > 0 and left - heavy_cost(length) < pad_cost(0):
            length -= 10
        filled_spec[f"h{index}"] = "a" * length
        left -= heavy_cost(length)
    assert pad_cost(0) <= left <= pad_cost(100_000), left
    pad = 0 if left == 1 else (left - 1) * 10
    assert pad_cost(pad) == left
    filled_spec["pad"] = "p" * pad
    return filled_spec


def server_causes(client: KubeClient, obj: dict[str, Any]) -> list[str]:
    try:
        client.request(
            "POST", f"/apis/{GROUP}/v1/namespaces/default/costs", query={"dryRun": "All"}, body=obj
        )
    except ApiError as exc:
        details = exc.status_object.get("details") or {}  # type: ignore[union-attr]
        causes = details.get("causes", [])
        return [f"{c['field']}: {c['message']}" for c in causes] or [str(exc)]
    return []


def our_causes(crd: CustomResourceDefinition, obj: dict[str, Any]) -> list[str]:
    return [e.message for e in validate_custom_resource(obj, crd).errors]


def budget_refusal(messages: list[str]) -> bool:
    return any(m.endswith(OUT_OF_BUDGET) for m in messages)


@pytest.fixture(scope="module")
def installed(apiserver: ControlPlane) -> Iterator[tuple[KubeClient, CustomResourceDefinition]]:
    raw = make_crd()
    with KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig))) as client:
        path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
        client.request("POST", path, body=raw)
        apiserver.wait_established([raw["metadata"]["name"]])
        yield client, CustomResourceDefinition.from_object(raw)
        client.request("DELETE", f"{path}/{raw['metadata']['name']}")


CASES = [None, *CONSTRUCTS]


@pytest.mark.parametrize("construct", CASES, ids=["fillers", *(c.name for c in CONSTRUCTS)])
def test_the_budget_edge_is_the_servers(
    installed: tuple[KubeClient, CustomResourceDefinition], construct: Construct | None
) -> None:
    client, crd = installed
    spec = {} if construct is None else {construct.name: construct.value}
    cost = our_cost(crd, spec) if spec else 0
    assert cost < cel_rules.PER_CALL_LIMIT
    at_budget = filled(cost, spec, 0)
    over_budget = filled(cost, spec, 1)
    assert our_cost(crd, at_budget) == BUDGET
    ours = [our_causes(crd, resource(s)) for s in (at_budget, over_budget)]
    theirs = [server_causes(client, resource(s)) for s in (at_budget, over_budget)]
    print(f"\n{construct.name if construct else 'fillers'}: the construct costs {cost}")
    for label, our, their in zip(("at the budget", "one unit over"), ours, theirs, strict=True):
        print(f"  {label}: ours {our or 'accepted'}; server {their or 'accepted'}")
    # at the budget: no refusal, the construct's own verdict alike (a failing rule's
    # error is reported); one unit over: refused for the budget by both
    assert not budget_refusal(theirs[0])
    assert ours[0] == theirs[0]
    assert budget_refusal(theirs[1]) and budget_refusal(ours[1])


def test_the_per_call_limit_is_the_servers(
    installed: tuple[KubeClient, CustomResourceDefinition],
) -> None:
    client, crd = installed
    # a run of 999,001 passes; 1,001,001 is cancelled at the limit
    for length, refused in ((9989, False), (10_000, True)):
        obj = resource({"percall": "a" * length})
        ours, theirs = our_causes(crd, obj), server_causes(client, obj)
        print(f"\npercall {length}: ours {ours}; server {theirs}")
        assert ours == theirs
        assert bool(theirs) == refused
    expected = (
        'spec.percall: Invalid value: "string": \'operation cancelled: actual cost limit '
        "exceeded': no further validation rules will be run due to call cost exceeds limit "
        f"for rule: self.matches('{PATTERN}')"
    )
    assert theirs == [expected]


def test_estimates_decide_when_to_count(
    installed: tuple[KubeClient, CustomResourceDefinition], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the objects that are always counted, an object whose estimates could reach
    the budget is counted again, with the same verdict."""
    client, crd = installed
    monkeypatch.setattr(cel_rules, "COUNTED_RUNS", 0)
    spec = filled(0, {}, 1)
    assert budget_refusal(our_causes(crd, resource(spec)))
    small = {"loop": list(range(10))}
    assert our_causes(crd, resource(small)) == server_causes(client, resource(small)) == []
