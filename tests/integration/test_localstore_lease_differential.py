"""A Lease's spec: the store against kube-apiserver.

``pkg/apis/coordination/validation/validation.go`` ``ValidateLeaseSpec``: a duration
that is not positive and a negative transition count are refused, on create and on
update; ``pkg/registry/coordination/lease/strategy.go`` drops ``strategy`` and
``preferredHolder`` while the ``CoordinatedLeaderElection`` gate is off (it is by
default in 1.34), so neither is stored nor validated. Each case writes the same body to
the session's kube-apiserver and to an ``ObjectStore``: the refusal (code, reason,
message, causes) or the spec stored must be the same.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration.localstore_answers import Sides, answer, assert_agree, changed


def _spec(written: dict[str, Any]) -> tuple[Any, ...]:
    return (written.get("spec"),)


def _lease(name: str, namespace: str, **spec: Any) -> dict[str, Any]:
    return {
        "apiVersion": "coordination.k8s.io/v1",
        "kind": "Lease",
        "metadata": {"name": name, "namespace": namespace},
        "spec": changed({"holderIdentity": "me"}, spec),
    }


def test_lease_spec(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "coordination.k8s.io", "Lease", "leases")
    creates = [
        ("valid lease", _lease("l0", namespace, leaseDurationSeconds=15, leaseTransitions=0)),
        ("zero duration", _lease("l1", namespace, leaseDurationSeconds=0)),
        ("negative duration", _lease("l2", namespace, leaseDurationSeconds=-5)),
        ("negative transitions", _lease("l3", namespace, leaseTransitions=-1)),
        ("both", _lease("l4", namespace, leaseDurationSeconds=-1, leaseTransitions=-2)),
        ("valid lease, strategy dropped", _lease("l5", namespace, strategy="OldestEmulationVersion")),
        ("valid lease, bad strategy dropped", _lease("l6", namespace, strategy="no/such/one")),
        ("valid lease, holder with no strategy dropped", _lease("l7", namespace, preferredHolder="x")),
    ]  # fmt: skip
    updates = [
        ("negative duration on update", _lease("u1", namespace, leaseDurationSeconds=10),
         lambda o: o | {"spec": o["spec"] | {"leaseDurationSeconds": -1}}),
        ("valid update, strategy dropped", _lease("u2", namespace),
         lambda o: o | {"spec": o["spec"] | {"strategy": "OldestEmulationVersion"}}),
    ]  # fmt: skip
    problems = sides.creates(lambda call: answer(call, _spec), creates)
    problems += sides.updates(lambda call: answer(call, _spec), updates)
    assert_agree(problems, len(creates) + len(updates), "Lease writes")
