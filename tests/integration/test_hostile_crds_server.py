"""Hostile CRDs against kube-apiserver: where the server has a message, ours is its.

- a pattern that is no Go regular expression and a rule estimated over the cost budget:
  the server refuses the CRD; ``validation.crds.crd_errors`` must give the same causes;
- a catastrophic pattern (valid RE2 and Go): both accept the CRD, and both refuse a
  200,000-character value with the same message, in bounded time;
- rules iterating past the CEL engine's own cap (10,000 comprehension iterations in an
  evaluation; cel-go has none) within the cost budget: answered as the server answers
  them, holding, failing or in error (``validation.cel.splitting``: one element of the
  outer macro at a time), as Cluster API's uniqueness rule on a list of 100 needs.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.validation import validate_custom_resource
from kubectl_crd.validation.crds import crd_errors
from tests.integration.envtest import ControlPlane
from tests.unit.security.test_hostile_crds import _crd, _thing

GROUP = "h.example.com"


def _client(plane: ControlPlane) -> KubeClient:
    return KubeClient(ClusterConfig(kubeconfig=str(plane.kubeconfig), context=plane.context))


def server_crd_causes(client: KubeClient, crd: dict[str, Any]) -> list[str]:
    """The server's causes for a dry-run create of ``crd``, as ``<field>: <message>``."""
    try:
        client.request(
            "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            query={"dryRun": "All"},
            body=crd,
        )
    except ApiError as exc:
        status: Any = exc.status_object
        return sorted(f"{c['field']}: {c['message']}" for c in status["details"]["causes"])
    return []


def _ours(crd: dict[str, Any]) -> list[str]:
    return sorted(message for _, message, _ in crd_errors(crd))


def _named(crd: dict[str, Any], plural: str) -> dict[str, Any]:
    crd = json.loads(json.dumps(crd))
    crd["metadata"]["name"] = f"{plural}.{GROUP}"
    crd["spec"]["names"] = {"kind": plural.capitalize()[:-1], "plural": plural}
    return crd


def test_refused_crds_are_refused_with_the_servers_causes(apiserver: ControlPlane) -> None:
    client = _client(apiserver)
    hostile = [
        _crd({"type": "object", "properties": {"s": {"type": "string", "pattern": r"^(a)\1$"}}}),
        _crd(
            {"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}}}},
            ("self.l.all(a, self.l.all(b, self.l.all(c, a + b + c != '')))",),
        ),
    ]
    for crd in hostile:
        server = server_crd_causes(client, crd)
        assert server, crd  # the server refuses it
        assert _ours(crd) == server


def _create(client: KubeClient, plural: str, thing: dict[str, Any]) -> str:
    metadata = {**thing["metadata"], "namespace": "default"}
    thing = {**thing, "kind": plural.capitalize()[:-1], "metadata": metadata}
    try:
        client.request(
            "POST", f"/apis/{GROUP}/v1/namespaces/default/{plural}", query={"dryRun": "All"},
            body=thing,
        )  # fmt: skip
    except ApiError as exc:
        return str(exc.status_object.get("message", ""))  # type: ignore[union-attr]
    return ""


def _local(crd: dict[str, Any], plural: str, thing: dict[str, Any]) -> list[str]:
    thing = {**thing, "kind": plural.capitalize()[:-1]}
    result = validate_custom_resource(thing, CustomResourceDefinition.from_object(crd))
    return [error.message for error in result.errors]


def test_a_catastrophic_pattern_is_answered_as_the_server_does(apiserver: ControlPlane) -> None:
    plural = "backtracks"
    crd = _named(
        _crd({"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}),
        plural,
    )
    assert _ours(crd) == [] == server_crd_causes(_client(apiserver), crd)
    apiserver.install_crds([_write(apiserver, crd)])
    thing = _thing({"s": "a" * 200_000 + "!"})
    # linear time: the CPU this thread spent (a backtracking match of 200,000 a's never
    # ends), not the wall clock, which a loaded CI machine's waits add to
    started = time.thread_time()
    ours = _local(crd, plural, thing)
    assert time.thread_time() - started < 5
    server = _create(_client(apiserver), plural, thing)
    assert len(ours) == 1 and ours[0] in server, (ours, server[-300:])


def _write(plane: ControlPlane, crd: dict[str, Any]) -> str:
    path = plane.workdir / f"{crd['metadata']['name']}.json"
    path.write_text(json.dumps(crd))
    return str(path)


def test_a_rule_within_the_cost_budget_runs_as_long_as_on_the_server(
    apiserver: ControlPlane,
) -> None:
    plural = "iterates"
    crd = _named(
        _crd(
            {
                "type": "object",
                "properties": {
                    "l": {
                        "type": "array",
                        "maxItems": 400,
                        "items": {"type": "string", "maxLength": 10},
                    }
                },
            },
            ("self.l.all(a, self.l.all(b, a != b || true))",),
        ),
        plural,
    )
    assert _ours(crd) == [] == server_crd_causes(_client(apiserver), crd)
    apiserver.install_crds([_write(apiserver, crd)])
    thing = _thing({"l": [str(n) for n in range(400)]})
    assert _create(_client(apiserver), plural, thing) == ""  # the server accepts it
    assert _local(crd, plural, thing) == []


#: a list past the engine's cap for the rules below (150 + 150 x 150 iterations)
_LONG = 150
_ITEMS = {
    "type": "array",
    "maxItems": _LONG,
    "items": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 20},
            "n": {"type": "integer"},
        },
    },
}
#: Cluster API's uniqueness rule (KubeadmConfig extraArgs), and a largest ``n`` exists:
#: an ``all`` over ``exists_one``, an ``exists`` over ``all``, each loop's early stops
#: and error folding as cel-go's macro expansions have them
_RULES = (
    "self.l.all(x, self.l.exists_one(y, x.name == y.name))",
    "self.l.exists(x, self.l.all(y, y.n <= x.n))",
)


def _long_list(**changes: dict[str, Any]) -> list[dict[str, Any]]:
    """``_LONG`` items named and numbered by their index; ``changes`` by index (``i3``),
    a None value dropping the field."""
    items: list[dict[str, Any]] = [{"name": f"n{i}", "n": i} for i in range(_LONG)]
    for at, change in changes.items():
        item = items[int(at[1:])]
        item.update(change)
        for key in [k for k, v in change.items() if v is None]:
            del item[key]
    return items


@pytest.fixture(scope="module")
def long_lists(apiserver: ControlPlane) -> dict[str, Any]:
    """The CRD of the rules above, which both take, installed."""
    crd = _named(_crd({"type": "object", "properties": {"l": _ITEMS}}, _RULES), "longlists")
    assert _ours(crd) == [] == server_crd_causes(_client(apiserver), crd)
    apiserver.install_crds([_write(apiserver, crd)])
    return crd


@pytest.mark.parametrize(
    ("case", "items"),
    [
        ("unique, the largest last", _long_list()),
        ("a name twice", _long_list(i7={"name": "n90"})),
        ("a name missing (every exists_one fails)", _long_list(i3={"name": None})),
        ("the largest first, another n missing", _long_list(i0={"n": 999}, i9={"n": None})),
        ("the largest's own n missing", _long_list(i149={"n": None})),
        ("a name twice and an n missing", _long_list(i1={"name": "n2"}, i5={"n": None})),
    ],
)
def test_rules_past_the_engines_iteration_cap_answer_as_the_server(
    apiserver: ControlPlane, long_lists: dict[str, Any], case: str, items: list[dict[str, Any]]
) -> None:
    plural, crd = "longlists", long_lists
    thing = _thing({"l": items})
    server = _create(_client(apiserver), plural, thing)
    ours = validate_custom_resource(
        {**thing, "kind": plural.capitalize()[:-1]}, CustomResourceDefinition.from_object(crd)
    )
    if not server:
        assert ours.errors == (), case
        return
    assert ours.errors, (case, server)
    assert server.endswith(f" is invalid: {ours.server_message}"), (case, server, ours.errors)
