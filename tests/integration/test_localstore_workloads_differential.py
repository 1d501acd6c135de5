"""A Deployment's selector and template, refused by the store as kube-apiserver refuses them.

``ValidateDeploymentSpec`` (``pkg/apis/apps/validation/validation.go``) requires a
selector, refuses an empty one, and ``ValidatePodTemplateSpecForReplicaSet`` refuses a
template whose labels the selector does not match and (``ValidatePodSpec``, in
``pkg/apis/core/validation``) one without containers: a 422 ``Invalid`` with the causes
in that order, after the replicas' and before the other counts'. The same writes go to
the session's kube-apiserver and to an ``ObjectStore``; the code, reason and message
must be the same, and the valid ones accepted by both.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from tests.integration.envtest import ControlPlane
from tests.integration.test_localstore_metadata_differential import Sides, outcome

CONTAINERS = [{"name": "app", "image": "nginx:1"}]


@pytest.fixture
def client(apiserver: ControlPlane, tmp_path: Path) -> Iterator[KubeClient]:
    config = ClusterConfig(kubeconfig=str(apiserver.kubeconfig))
    with KubeClient(config, environ={"HOME": str(tmp_path)}) as made:
        yield made


_DEFAULT: Any = object()


def deployment(
    name: str,
    selector: Any = _DEFAULT,
    labels: Any = _DEFAULT,
    *,
    template: Any = _DEFAULT,
    **spec: Any,
) -> dict[str, Any]:
    """A valid Deployment but for what is given; ``None`` leaves a field out."""
    selector = {"matchLabels": {"app": "web"}} if selector is _DEFAULT else selector
    labels = {"app": "web"} if labels is _DEFAULT else labels
    if template is _DEFAULT:
        template = {"spec": {"containers": CONTAINERS}}
        if labels is not None:
            template["metadata"] = {"labels": labels}
    body: dict[str, Any] = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name},
        "spec": {"replicas": 1, **spec},
    }
    if selector is not None:
        body["spec"]["selector"] = selector
    if template is not None:
        body["spec"]["template"] = template
    return body


def expressions(*requirements: tuple[str, str, list[str] | None]) -> dict[str, Any]:
    return {
        "matchExpressions": [
            {"key": key, "operator": op, **({"values": values} if values is not None else {})}
            for key, op, values in requirements
        ]
    }


#: (what, verb, body), in order on both sides; whether each is refused is the server's say
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("selector does not match the labels", "create", deployment("d1", labels={"app": "other"})),
    ("labels of several keys, one differs", "create",
     deployment("d2", {"matchLabels": {"app": "web", "tier": "db"}}, {"tier": "fe", "app": "web", "z": ""})),
    ("template without labels", "create", deployment("d3", labels=None)),
    ("template labels empty", "create", deployment("d4", labels={})),
    ("an In expression not matched", "create",
     deployment("d5", expressions(("app", "In", ["web", "api"])), {"app": "db"})),
    ("a NotIn expression not matched", "create",
     deployment("d6", expressions(("app", "NotIn", ["web"])), {"app": "web"})),
    ("an Exists expression not matched", "create",
     deployment("d7", expressions(("tier", "Exists", None)), {"app": "web"})),
    ("a DoesNotExist expression not matched, beside matchLabels", "create",
     deployment("d8", {"matchLabels": {"app": "web"}, **expressions(("tier", "DoesNotExist", None))},
                {"app": "web", "tier": "x"})),
    ("empty selector", "create", deployment("d9", {})),
    ("selector of empty matchLabels", "create", deployment("d10", {"matchLabels": {}})),
    ("selector of empty matchExpressions", "create", deployment("d11", {"matchExpressions": []})),
    ("no selector", "create", deployment("d12", None)),
    ("no selector and no template labels", "create", deployment("d13", None, None)),
    ("no template", "create", deployment("d14", template=None)),
    ("no template and no selector", "create", deployment("d15", None, template=None)),
    ("template without containers", "create",
     deployment("d16", template={"metadata": {"labels": {"app": "web"}}, "spec": {}})),
    ("template with empty containers", "create",
     deployment("d17", template={"metadata": {"labels": {"app": "web"}}, "spec": {"containers": []}})),
    ("with negative counts: replicas first, the other counts after", "create",
     deployment("d18", labels={"app": "x"}, replicas=-1, minReadySeconds=-1)),
    ("mismatch, applied", "apply", deployment("d19", labels={"app": "other"})),
    # accepted by both
    ("matching labels, created", "create", deployment("ok1")),
    ("matching expressions of every operator", "create",
     deployment("ok2", {"matchLabels": {"app": "web"}, **expressions(
         ("app", "In", ["web", "api"]), ("tier", "NotIn", ["db"]), ("app", "Exists", None),
         ("gone", "DoesNotExist", None))}, {"app": "web", "tier": "fe"})),
    ("labels beyond the selector's", "create", deployment("ok3", labels={"app": "web", "x": "y"})),
    ("valid, applied", "apply", deployment("ok4")),
    # an update that breaks the match, on the object applied above
    ("an applied update whose labels no longer match", "apply",
     deployment("ok4", labels={"app": "moved"})),
]  # fmt: skip


def test_deployment_selector_and_template_are_refused_as_the_server_refuses_them(
    client: KubeClient, namespace: str
) -> None:
    sides = Sides(client, namespace)
    problems = []
    refused = 0
    for what, verb, body in CASES:
        server, ours = (outcome(call) for call in sides.calls(verb, body))
        refused += server[0] != "accepted"
        if what.startswith(("matching", "labels beyond", "valid")) and server[0] != "accepted":
            problems.append(f"{what}: the server refused it (the case is wrong): {server}")
        if ours != server:
            problems.append(f"{what}:\n  server {server}\n  store  {ours}")
    assert problems == [], "\n".join(problems)
    assert refused == 20  # every case but the four valid ones (the cases are what they say)
