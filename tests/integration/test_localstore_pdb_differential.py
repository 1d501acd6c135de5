"""A PodDisruptionBudget's spec: the store against the real server.

``ValidatePodDisruptionBudget`` (kube-apiserver 1.34, ``pkg/apis/policy/validation/
validation.go``; run by ``pkg/registry/policy/poddisruptionbudget/strategy.go``, whose
validation looks at no metadata): minAvailable and maxUnavailable not both set, each a
non-negative integer or a percentage up to 100%, the selector, the unhealthy pod
eviction policy. On a create the spec's errors come alone (``rest.BeforeCreate`` checks
the metadata, path-segment names, only after the strategy passed); on an update after
the common metadata checks.

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or the stored spec. No case has two bad entries in one map.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Sides, assert_agree, spec_set
from tests.integration.localstore_answers import spec_answer as answer

SELECTOR = {"matchLabels": {"app": "web"}}


def pdb(name: str, meta: Any = None, **spec: Any) -> dict[str, Any]:
    """A budget selecting app=web (``spec``'s fields change it, ``None`` removes)."""
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, **(meta or {})},
        "spec": localstore_answers.changed({"selector": SELECTOR}, spec),
    }


BAD_LABEL = {"labels": {"a": "b c"}}

CREATES = [
    ("valid minAvailable", pdb("ok-min", minAvailable=2)),
    ("valid minAvailable percent", pdb("ok-min-percent", minAvailable="50%")),
    ("valid maxUnavailable 0", pdb("ok-max-zero", maxUnavailable=0)),
    ("valid maxUnavailable 100%", pdb("ok-max-all", maxUnavailable="100%")),
    ("valid neither set, no selector", pdb("ok-none", selector=None)),
    ("valid empty selector", pdb("ok-empty", selector={}, minAvailable=1)),
    ("valid eviction policy", pdb("ok-policy", minAvailable=1, unhealthyPodEvictionPolicy="AlwaysAllow")),
    ("valid name not a DNS subdomain", pdb("Odd_Name", minAvailable=1)),
    ("both set", pdb("both", minAvailable=1, maxUnavailable="10%")),
    ("both set, no selector, a policy", pdb("both-bare", selector=None, minAvailable="5%", maxUnavailable=1, unhealthyPodEvictionPolicy="IfHealthyBudget")),
    ("both set, selector expressions", pdb("both-expr", selector={"matchLabels": {"a": "b"}, "matchExpressions": [{"key": "k", "operator": "In", "values": ["x", "y"]}]},
                                          minAvailable=0, maxUnavailable=0)),
    ("a negative minAvailable", pdb("min-negative", minAvailable=-1)),
    ("a negative maxUnavailable", pdb("max-negative", maxUnavailable=-3)),
    ("a negative percent", pdb("percent-negative", maxUnavailable="-5%")),
    ("a number in a string", pdb("percent-number", minAvailable="50")),
    ("a bare percent sign", pdb("percent-bare", minAvailable="%")),
    ("a fractional percent", pdb("percent-fraction", minAvailable="2.5%")),
    ("over 100%", pdb("percent-over", minAvailable="101%")),
    ("far over 100%", pdb("percent-far", maxUnavailable="1000%")),
    ("a bad selector value", pdb("bad-selector", selector={"matchLabels": {"a": "b c"}})),
    ("a bad selector operator", pdb("bad-operator", selector={"matchExpressions": [{"key": "k", "operator": "Like"}]})),
    ("an unknown eviction policy", pdb("bad-policy", unhealthyPodEvictionPolicy="Sometimes")),
    ("both set and each bad", pdb("all-bad", minAvailable=-1, maxUnavailable="200%", unhealthyPodEvictionPolicy="Never")),
    ("a name with a percent sign", pdb("a%b", minAvailable=1)),
    ("a bad label", pdb("bad-label", BAD_LABEL, minAvailable=1)),
    ("a bad label and a bad spec", pdb("bad-label-spec", BAD_LABEL, minAvailable="x")),
]  # fmt: skip

UPDATES = [
    ("valid minAvailable changed", pdb("u-ok", minAvailable=1), spec_set(minAvailable="30%")),
    ("valid selector changed", pdb("u-selector", minAvailable=1), spec_set(selector={"matchLabels": {"app": "api"}})),
    ("valid minAvailable swapped for maxUnavailable", pdb("u-swap", minAvailable=1), spec_set(minAvailable=None, maxUnavailable=1)),
    ("minAvailable made negative", pdb("u-negative", minAvailable=1), spec_set(minAvailable=-2)),
    ("maxUnavailable added beside minAvailable", pdb("u-both", minAvailable=1), spec_set(maxUnavailable="20%")),
    ("a bad selector", pdb("u-bad-selector"), spec_set(selector={"matchExpressions": [{"key": "k", "operator": "In"}]})),
    ("a bad label", pdb("u-label", minAvailable=1), spec_set({"a": "b c"})),
    ("a bad label and a bad spec", pdb("u-label-spec", minAvailable=1), spec_set({"a": "b c"}, minAvailable="150%")),
]  # fmt: skip


def test_pdb_spec(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "policy", "PodDisruptionBudget", "poddisruptionbudgets")
    problems = sides.creates(answer, CREATES)
    problems += sides.updates(answer, UPDATES)
    assert_agree(problems, len(CREATES) + len(UPDATES), "PodDisruptionBudget writes")
