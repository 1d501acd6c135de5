"""apps/v1 workloads' selectors and templates, refused by the store as kube-apiserver refuses them.

``ValidateDeploymentSpec``, ``ValidateReplicaSetSpec``, ``ValidateStatefulSetSpec`` and
``ValidateDaemonSetSpec`` (``pkg/apis/apps/validation/validation.go``) each check the
selector (required but for a DaemonSet, well formed as apimachinery's
``ValidateLabelSelector`` says, not empty), the template's labels against it and (``ValidatePodSpec``)
the template's containers, in an order of their own among the counts; on an update the
selector is immutable (a StatefulSet's spec but for a few fields). A 422 ``Invalid``
with the causes in the server's order. The same writes go to the session's
kube-apiserver and to an ``ObjectStore``; the code, reason and message must be the
same, and the valid ones accepted by both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.resources import ResourceClient
from tests.integration.test_localstore_metadata_differential import Sides, outcome

CONTAINERS = [{"name": "app", "image": "nginx:1"}]


_DEFAULT: Any = object()


def deployment(
    name: str,
    selector: Any = _DEFAULT,
    labels: Any = _DEFAULT,
    *,
    template: Any = _DEFAULT,
    kind: str = "Deployment",
    **spec: Any,
) -> dict[str, Any]:
    """A valid ``kind`` (a Deployment) but for what is given; ``None`` leaves a field out."""
    selector = {"matchLabels": {"app": "web"}} if selector is _DEFAULT else selector
    labels = {"app": "web"} if labels is _DEFAULT else labels
    if template is _DEFAULT:
        template = {"spec": {"containers": CONTAINERS}}
        if labels is not None:
            template["metadata"] = {"labels": labels}
    body: dict[str, Any] = {
        "apiVersion": "apps/v1",
        "kind": kind,
        "metadata": {"name": name},
        "spec": {"replicas": 1, **spec} if kind != "DaemonSet" else spec,
    }
    if kind == "StatefulSet":
        body["spec"]["serviceName"] = "web"
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


def replicaset(
    name: str, selector: Any = _DEFAULT, labels: Any = _DEFAULT, **spec: Any
) -> dict[str, Any]:
    return deployment(name, selector, labels, kind="ReplicaSet", **spec)


def statefulset(
    name: str, selector: Any = _DEFAULT, labels: Any = _DEFAULT, **spec: Any
) -> dict[str, Any]:
    return deployment(name, selector, labels, kind="StatefulSet", **spec)


def daemonset(
    name: str, selector: Any = _DEFAULT, labels: Any = _DEFAULT, **spec: Any
) -> dict[str, Any]:
    return deployment(name, selector, labels, kind="DaemonSet", **spec)


NO_CONTAINERS = {"metadata": {"labels": {"app": "web"}}, "spec": {}}

#: the other apps/v1 workloads: each checks in its own order (ReplicaSet and
#: StatefulSet after their counts, a DaemonSet before them and without requiring a
#: selector; a DaemonSet's empty selector refused after the match)
OTHER_KINDS: list[tuple[str, str, dict[str, Any]]] = [
    (f"{make.__name__}: {what}", verb, make(name, *args, **spec))
    for make in (replicaset, statefulset, daemonset)
    for what, verb, name, args, spec in [
        ("no selector", "create", "w1", (None,), {}),
        ("empty selector", "create", "w2", ({},), {}),
        ("selector does not match", "create", "w3", (_DEFAULT, {"app": "other"}), {}),
        ("no containers", "create", "w4", (), {"template": NO_CONTAINERS}),
        ("no selector, no labels, no containers, a negative count", "create", "w5", (None,),
         {"template": {"spec": {}}, "minReadySeconds": -1}),
        ("empty selector and labels, no containers, negative counts", "create", "w6",
         ({}, {}), {"template": {"metadata": {"labels": {}}, "spec": {}}, "minReadySeconds": -2,
                    **({"revisionHistoryLimit": -1} if make is daemonset else {})}),
        ("mismatch, applied", "apply", "w7", (_DEFAULT, {"app": "other"}), {}),
        ("valid", "create", "ok", (), {}),
    ]
]  # fmt: skip

#: a malformed selector (metav1validation.ValidateLabelSelector): its causes, then the
#: kind's own for a selector LabelSelectorAsSelector refuses (none of a DaemonSet's),
#: and the template is not checked (but for a DaemonSet's containers)
MALFORMED: list[tuple[str, str, dict[str, Any]]] = [
    (f"{make.__name__}: {what}", "create", make(name, selector, **spec))
    for make in (deployment, statefulset, daemonset)
    for what, name, selector, spec in [
        ("an unknown operator", "m1", expressions(("app", "Has", None)), {}),
        ("In without values", "m2", expressions(("app", "In", None)), {}),
        ("NotIn with empty values", "m3", expressions(("app", "NotIn", [])), {}),
        ("Exists with values", "m4", expressions(("app", "Exists", ["web"])), {}),
        ("an invalid key in matchLabels", "m5", {"matchLabels": {"a/b/c": "web"}}, {}),
        ("an empty key in matchLabels", "m6", {"matchLabels": {"": "web"}}, {}),
        ("an invalid value in matchLabels, no containers", "m7", {"matchLabels": {"app": "-web"}},
         {"template": NO_CONTAINERS}),
        ("invalid expression key and value beside matchLabels", "m8",
         {"matchExpressions": [{"key": "-x", "operator": "NotIn", "values": ["-y", "ok"]}],
          "matchLabels": {"app": "web"}}, {}),
        ("an unknown operator and an invalid key", "m9",
         expressions(("app", "Exists", None), ("-x", "Foo", ["y"])), {}),
    ]
]  # fmt: skip

#: objects created first, then updated (``UPDATES``): an apps/v1 selector is immutable
#: ("field is immutable", after the spec's causes, a DaemonSet's before them); a
#: StatefulSet's spec may change only in replicas, template, ... (spec: Forbidden)
WORKLOADS = (deployment, replicaset, statefulset, daemonset)
CREATED = {"app": "web", "tier": "fe"}
BEFORE = [(f"{make.__name__}: created", "create", make("u1", labels=CREATED)) for make in WORKLOADS]
UPDATES: list[tuple[str, str, dict[str, Any]]] = [
    (f"{make.__name__}: {what}", "update", make("u1", selector, labels, **spec))
    for make in WORKLOADS
    for what, selector, labels, spec in [
        ("a selector of another key", {"matchLabels": {"tier": "fe"}}, CREATED, {}),
        ("the same selector as an expression", expressions(("app", "In", ["web"])), CREATED, {}),
        ("a changed selector that does not match", {"matchLabels": {"x": "y"}}, CREATED, {}),
        ("a changed selector, malformed", {"matchLabels": {"app": "-web"}}, {"app": "web"}, {}),
        ("valid: the selector kept, labels and a count changed", _DEFAULT,
         {"app": "web", "new": "1"}, {"minReadySeconds": 5}),
        ("the selector kept, its labels dropped", _DEFAULT, {"tier": "fe"}, {}),
    ]
] + [
    ("statefulset: another serviceName", "update",
     {**(changed := statefulset("u1", labels=CREATED)),
      "spec": {**changed["spec"], "serviceName": "db"}}),
]  # fmt: skip


def job(
    name: str,
    selector: Any = None,
    labels: Any = None,
    *,
    containers: bool = True,
    restart: str | None = "Never",
    **spec: Any,
) -> dict[str, Any]:
    """A valid Job but for what is given (a selector and labels only when given)."""
    pod: dict[str, Any] = {"containers": CONTAINERS} if containers else {}
    if restart is not None:
        pod["restartPolicy"] = restart
    template: dict[str, Any] = {"spec": pod}
    if labels is not None:
        template["metadata"] = {"labels": labels}
    body: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name},
        "spec": {**spec, "template": template},
    }
    if selector is not None:
        body["spec"]["selector"] = selector
    return body


WEB = {"matchLabels": {"app": "web"}}
#: a Job's selector (``ValidateGeneratedSelector`` before its counts: one of its own
#: without ``manualSelector`` must match the labels the server generates; then, after
#: the counts, ``ValidateJobSpec``'s containers, restart policy, selector and match)
JOBS: list[tuple[str, str, dict[str, Any]]] = [
    ("job: valid", "create", job("j0")),
    ("job: no restartPolicy", "create", job("j1", restart=None)),
    ("job: restartPolicy Always", "create", job("j2", restart="Always")),
    ("job: a selector of its own without manualSelector", "create", job("j3", WEB, {"app": "web"})),
    ("job: manualSelector false and a selector", "create",
     job("j4", WEB, {"app": "web"}, manualSelector=False)),
    ("job: valid, a selector of the job-name label it generates", "create",
     job("j5", {"matchLabels": {"batch.kubernetes.io/job-name": "j5"}})),
    ("job: manualSelector without a selector", "create",
     job("j6", None, {"app": "web"}, manualSelector=True)),
    ("job: valid, manualSelector and an empty selector", "create",
     job("j7", {}, {"app": "web"}, manualSelector=True)),
    ("job: manualSelector, selector does not match", "create",
     job("j8", {"matchLabels": {"app": "db"}}, {"app": "web"}, manualSelector=True)),
    ("job: valid, manualSelector and a matching selector", "create",
     job("j9", WEB, {"app": "web"}, manualSelector=True)),
    ("job: manualSelector, malformed selector, no containers", "create",
     job("j10", {"matchLabels": {"app": "-web"}}, {"app": "web"}, containers=False,
         manualSelector=True)),
    ("job: a malformed selector without manualSelector", "create",
     job("j11", expressions(("app", "In", None)), {"app": "web"})),
    ("job: every count negative, no containers nor restartPolicy, a mismatch", "create",
     job("j12", {"matchLabels": {"app": "db"}}, {"app": "web"}, containers=False, restart=None,
         manualSelector=True, parallelism=-1, completions=-1, activeDeadlineSeconds=-1,
         backoffLimit=-1, ttlSecondsAfterFinished=-1)),
    ("job: not auto-generated, a count, restartPolicy and a mismatch", "create",
     job("j13", {"matchLabels": {"app": "db"}}, {"app": "web"}, restart="Always", parallelism=-1)),
]  # fmt: skip


class WorkloadSides(Sides):
    """``Sides`` with every apps/v1 workload, and ``update``: a PUT of the live object
    with the case's spec (not a server-side apply, which the store merges differently
    for a selector: its ``matchLabels`` key by key, where the server's LabelSelector is
    atomic and replaced whole)."""

    def __init__(self, client: KubeClient, namespace: str) -> None:
        super().__init__(client, namespace)
        for kind in ("ReplicaSet", "StatefulSet", "DaemonSet"):
            self.server[kind] = ResourceClient(
                client, "apps", "v1", kind.lower() + "s", namespaced=True, namespace=namespace
            )
            self.infos[kind] = self.store.resolve(f"apps/v1/{kind}")
        self.server["Job"] = ResourceClient(
            client, "batch", "v1", "jobs", namespaced=True, namespace=namespace
        )
        self.infos["Job"] = self.store.resolve("batch/v1/Job")

    def calls(
        self, verb: str, body: dict[str, Any]
    ) -> tuple[Callable[[], dict[str, Any]], Callable[[], dict[str, Any]]]:
        if verb != "update":
            return super().calls(verb, body)
        kind, name = body["kind"], body["metadata"]["name"]
        server, info = self.server[kind], self.infos[kind]

        def on_server() -> dict[str, Any]:
            return server.update({**server.get(name), "spec": body["spec"]})

        def on_store() -> dict[str, Any]:
            live = self.store.get(info, self.namespace, name)
            return self.store.update(info, {**live, "spec": body["spec"]})

        return on_server, on_store


_UID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def differences(
    sides: Sides, cases: list[tuple[str, str, dict[str, Any]]]
) -> tuple[list[str], int]:
    """The cases whose outcome differs on the two sides, or that are wrong (named valid,
    refused by the server), and how many the server refused."""
    problems = []
    refused = 0
    for what, verb, body in cases:
        # a Job's generated selector prints its uid, which each side makes its own
        server, ours = (
            tuple(_UID.sub("<uid>", str(part)) for part in outcome(call))
            for call in sides.calls(verb, body)
        )
        refused += server[0] != "accepted"
        valid = what.split(": ")[-1].startswith(("matching", "labels beyond", "valid", "created"))
        if valid and server[0] != "accepted":
            problems.append(f"{what}: the server refused it (the case is wrong): {server}")
        if ours != server:
            problems.append(f"{what}:\n  server {server}\n  store  {ours}")
    return problems, refused


def test_deployment_selector_and_template_are_refused_as_the_server_refuses_them(
    client: KubeClient, namespace: str
) -> None:
    problems, refused = differences(Sides(client, namespace), CASES)
    assert problems == [], "\n".join(problems)
    assert refused == 20  # every case but the four valid ones (the cases are what they say)


def test_other_workloads_selector_and_template_are_refused_as_the_server_refuses_them(
    client: KubeClient, namespace: str
) -> None:
    problems, refused = differences(WorkloadSides(client, namespace), OTHER_KINDS)
    assert problems == [], "\n".join(problems)
    assert refused == 3 * 7  # all but the valid one of each kind


def test_a_malformed_selector_is_refused_as_the_server_refuses_it(
    client: KubeClient, namespace: str
) -> None:
    problems, refused = differences(WorkloadSides(client, namespace), MALFORMED)
    assert problems == [], "\n".join(problems)
    assert refused == len(MALFORMED)


def test_a_changed_selector_is_refused_on_update_as_the_server_refuses_it(
    client: KubeClient, namespace: str
) -> None:
    problems, refused = differences(WorkloadSides(client, namespace), BEFORE + UPDATES)
    assert problems == [], "\n".join(problems)
    assert refused == len(UPDATES) - len(WORKLOADS)  # all but each kind's valid update


def test_a_job_selector_is_refused_as_the_server_refuses_it(
    client: KubeClient, namespace: str
) -> None:
    problems, refused = differences(WorkloadSides(client, namespace), JOBS)
    assert problems == [], "\n".join(problems)
    assert refused == len(JOBS) - 4  # all but the four valid ones
