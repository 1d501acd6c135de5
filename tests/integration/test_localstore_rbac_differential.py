"""A Role's, a ClusterRole's and a (Cluster)RoleBinding's content: the store against the
real server.

``ValidateRole`` / ``ValidateClusterRole`` / ``ValidateRoleBinding`` /
``ValidateClusterRoleBinding`` and their ``...Update`` (kube-apiserver 1.34,
``pkg/apis/rbac/validation/validation.go``; run by
``pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/strategy.go``):
each rule's verbs, its apiGroups and resources or its nonResourceURLs (a cluster role's
only), a cluster role's aggregation rule and its selectors; a binding's roleRef (rbac's
group, a Role or a ClusterRole, a cluster binding's a ClusterRole only; a name) and
subjects (a name, a known kind, its group, a service account's name, and a cluster
binding's its namespace); on an update the content checked twice, between the metadata
passes, and a binding's roleRef unchanged.

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or what was stored. No case has two bad entries in one map.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from typing import Any

from kubectl_crd.kube.client import ApiError, KubeClient
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.reconcile.localstore import ObjectStore
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Edit, Sides, assert_agree

RBAC = "rbac.authorization.k8s.io"


def answer(call: Callable[[], dict[str, Any]]) -> tuple[Any, ...]:
    """A write's outcome (``localstore_answers.answer``): the content stored."""
    return localstore_answers.answer(
        call,
        lambda stored: tuple(
            stored.get(f) for f in ("rules", "aggregationRule", "roleRef", "subjects")
        ),
    )


def rule(**fields: Any) -> dict[str, Any]:
    """A rule getting pods (``fields`` change it, ``None`` removes)."""
    base = {"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}
    return localstore_answers.changed(base, fields)


def role(
    kind: str, name: str, rules: Any = None, meta: Any = None, **fields: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "apiVersion": f"{RBAC}/v1",
        "kind": kind,
        "metadata": {"name": name, **(meta or {})},
    }
    if rules is not None:
        body["rules"] = rules
    return body | fields


def binding(
    name: str, ref: Any = None, subjects: Any = None, meta: Any = None, kind: str = "RoleBinding"
) -> dict[str, Any]:
    """A binding of ``kind`` (its default roleRef: a Role, or a ClusterBinding's ClusterRole)."""
    ref_kind = "ClusterRole" if kind == "ClusterRoleBinding" else "Role"
    body: dict[str, Any] = {
        "apiVersion": f"{RBAC}/v1",
        "kind": kind,
        "metadata": {"name": name, **(meta or {})},
        "roleRef": {"apiGroup": RBAC, "kind": ref_kind, "name": "reader"} if ref is None else ref,
    }
    if subjects is not None:
        body["subjects"] = subjects
    return body


def setting(labels: Any = None, **fields: Any) -> Edit:
    """An edit setting top-level fields (``None``: removed) and labels."""

    def edit(obj: dict[str, Any]) -> dict[str, Any]:
        obj = localstore_answers.changed(obj, fields)
        if labels is not None:
            obj["metadata"] = copy.deepcopy(obj["metadata"]) | {"labels": labels}
        return obj

    return edit


BAD_LABEL = {"labels": {"a": "b c"}}
SA = {"kind": "ServiceAccount", "name": "robot"}
USER = {"apiGroup": RBAC, "kind": "User", "name": "jane"}

ROLE_CREATES = [
    ("valid rules", role("Role", "ok-rules", [rule(), rule(apiGroups=["apps"], resources=["deployments", "deployments/scale"], verbs=["*"])])),
    ("valid without rules", role("Role", "ok-none")),
    # rules is not omitempty: [] passes validation (a Go slice of length 0) and is read
    # back from etcd's protobuf as nil, null; a rule's empty lists are omitempty
    ("valid empty rules", role("Role", "ok-empty", [])),
    ("valid rules with empty lists", role("Role", "ok-empty-lists", [rule(resourceNames=[], nonResourceURLs=[])])),
    ("valid resourceNames", role("Role", "ok-names", [rule(resourceNames=["one"])])),
    ("valid name not a DNS subdomain", role("Role", "System:Odd_Name")),
    ("a rule without verbs", role("Role", "no-verbs", [rule(verbs=None)])),
    ("a rule with empty verbs", role("Role", "empty-verbs", [rule(verbs=[])])),
    ("a rule without apiGroups", role("Role", "no-groups", [rule(apiGroups=None)])),
    ("a rule without resources", role("Role", "no-resources", [rule(resources=None)])),
    ("an empty rule", role("Role", "empty-rule", [{}])),
    ("nonResourceURLs in a Role", role("Role", "urls", [{"nonResourceURLs": ["/healthz"], "verbs": ["get"]}])),
    ("nonResourceURLs and resources in a Role", role("Role", "urls-both", [rule(nonResourceURLs=["/healthz", "/metrics"], verbs=None)])),
    ("the second rule bad", role("Role", "second", [rule(), rule(resources=[]), rule(verbs=[])])),
    ("a name with a slash", role("Role", "a%b", [rule(verbs=None)])),
    ("a bad label and a bad rule", role("Role", "bad-label", [rule(apiGroups=[])], BAD_LABEL)),
]  # fmt: skip

ROLE_UPDATES = [
    ("valid verbs changed", role("Role", "u-ok", [rule()]), setting(rules=[rule(verbs=["list"])])),
    ("valid rules removed", role("Role", "u-ok-gone", [rule()]), setting(rules=None)),
    ("valid rules emptied", role("Role", "u-ok-empty", [rule()]), setting(rules=[])),
    ("verbs removed", role("Role", "u-verbs", [rule()]), setting(rules=[rule(verbs=None)])),
    ("nonResourceURLs added", role("Role", "u-urls", [rule()]), setting(rules=[rule(nonResourceURLs=["/x"])])),
    ("a bad label and a bad rule", role("Role", "u-label", [rule()]), setting({"a": "b c"}, rules=[{}])),
]  # fmt: skip

CLUSTER_ROLE_CREATES = [
    ("valid nonResourceURLs", role("ClusterRole", "ok-urls", [{"nonResourceURLs": ["/healthz", "/api/*"], "verbs": ["get"]}, rule()])),
    ("valid aggregation rule", role("ClusterRole", "ok-aggregate", aggregationRule={"clusterRoleSelectors": [
        {"matchLabels": {"rbac.example.com/aggregate": "true"}}, {"matchExpressions": [{"key": "k", "operator": "Exists"}]}]})),
    ("valid empty selector", role("ClusterRole", "ok-empty-selector", aggregationRule={"clusterRoleSelectors": [{}]})),
    ("valid empty rules", role("ClusterRole", "ok-empty-rules", [])),
    ("nonResourceURLs and resources", role("ClusterRole", "urls-both", [rule(nonResourceURLs=["/healthz"])])),
    ("nonResourceURLs without verbs", role("ClusterRole", "urls-verbs", [{"nonResourceURLs": ["/healthz"]}])),
    ("a rule without groups or resources", role("ClusterRole", "no-groups", [{"verbs": ["get"]}])),
    ("an aggregation rule without selectors", role("ClusterRole", "no-selectors", aggregationRule={})),
    ("an aggregation rule with empty selectors", role("ClusterRole", "empty-selectors", aggregationRule={"clusterRoleSelectors": []})),
    ("a bad selector value", role("ClusterRole", "bad-value", aggregationRule={"clusterRoleSelectors": [{"matchLabels": {"a": "b c"}}]})),
    ("a bad selector key", role("ClusterRole", "bad-key", aggregationRule={"clusterRoleSelectors": [{"matchLabels": {"a b": "c"}}]})),
    ("a bad selector operator", role("ClusterRole", "bad-operator", aggregationRule={"clusterRoleSelectors": [
        {}, {"matchExpressions": [{"key": "k", "operator": "Like"}]}]})),
    ("an In requirement without values", role("ClusterRole", "bad-in", aggregationRule={"clusterRoleSelectors": [
        {"matchExpressions": [{"key": "k", "operator": "In"}]}]})),
    ("an Exists requirement with values", role("ClusterRole", "bad-exists", aggregationRule={"clusterRoleSelectors": [
        {"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["v"]}]}]})),
    ("a bad rule and a bad selector", role("ClusterRole", "bad-both", [{}], aggregationRule={"clusterRoleSelectors": [
        {"matchExpressions": [{"key": "k", "operator": "Like"}]}]})),
    ("a bad label and a bad rule", role("ClusterRole", "bad-label", [rule(verbs=[])], BAD_LABEL)),
]  # fmt: skip

CLUSTER_ROLE_UPDATES = [
    ("valid rules changed", role("ClusterRole", "u-ok", [rule()]), setting(rules=[rule(verbs=["watch"])])),
    ("the aggregation rule emptied", role("ClusterRole", "u-aggregate", aggregationRule={"clusterRoleSelectors": [{}]}),
     setting(aggregationRule={})),
    ("a bad label and a bad rule", role("ClusterRole", "u-label", [rule()]), setting({"a": "b c"}, rules=[rule(resources=None)])),
]  # fmt: skip

BINDING_CREATES = [
    ("valid subjects of every kind", binding("ok-all", subjects=[SA, USER, {"apiGroup": RBAC, "kind": "Group", "name": "devs"},
                                                                  {"kind": "ServiceAccount", "name": "other", "namespace": "elsewhere"}])),
    ("valid User and Group without apiGroup", binding("ok-default", subjects=[{"kind": "User", "name": "u"}, {"kind": "Group", "name": "g"}])),
    ("valid ClusterRole ref without apiGroup", binding("ok-cluster", {"kind": "ClusterRole", "name": "view"})),
    ("valid no subjects", binding("ok-none")),
    ("valid odd names", binding("ok-odd", {"apiGroup": RBAC, "kind": "Role", "name": "System:Odd_Name"}, [{"kind": "User", "name": "a b/c"}])),
    ("a roleRef of another group", binding("ref-group", {"apiGroup": "example.com", "kind": "Role", "name": "r"})),
    ("a roleRef of another kind", binding("ref-kind", {"apiGroup": RBAC, "kind": "Deployment", "name": "r"})),
    ("a roleRef without a name", binding("ref-name", {"apiGroup": RBAC, "kind": "Role", "name": ""})),
    ("a roleRef name with a slash", binding("ref-slash", {"apiGroup": RBAC, "kind": "Role", "name": "a/b"})),
    ("an empty roleRef", binding("ref-empty", {})),
    ("a subject without a name", binding("subject-name", subjects=[{"kind": "User"}])),
    ("a subject of an unknown kind", binding("subject-kind", subjects=[{"kind": "Robot", "name": "r"}])),
    ("an empty subject", binding("subject-empty", subjects=[{}])),
    ("a service account's bad name", binding("sa-name", subjects=[{"kind": "ServiceAccount", "name": "Robot_1"}])),
    ("a service account with rbac's group", binding("sa-group", subjects=[SA | {"apiGroup": RBAC}])),
    ("a user of another group", binding("user-group", subjects=[USER | {"apiGroup": "example.com"}])),
    ("a group of another group", binding("group-group", subjects=[{"apiGroup": "v1", "kind": "Group", "name": "g"}])),
    ("the second subject bad", binding("second", subjects=[USER, SA | {"name": ""}, {"kind": "Team", "name": "t"}])),
    ("everything wrong", binding("all-wrong", {"apiGroup": "x", "kind": "Pod", "name": "a/b"}, [{"kind": "ServiceAccount", "name": "A", "apiGroup": "y"}])),
    ("a bad label and a bad roleRef", binding("bad-label", {"apiGroup": RBAC, "kind": "Role"}, meta=BAD_LABEL)),
]  # fmt: skip

BINDING_UPDATES = [
    ("valid subjects changed", binding("u-ok", subjects=[SA]), setting(subjects=[USER])),
    ("the roleRef's name changed", binding("u-name"), setting(roleRef={"apiGroup": RBAC, "kind": "Role", "name": "writer"})),
    ("the roleRef's kind changed", binding("u-kind"), setting(roleRef={"apiGroup": RBAC, "kind": "ClusterRole", "name": "reader"})),
    ("the roleRef made bad", binding("u-bad"), setting(roleRef={"apiGroup": RBAC, "kind": "Thing", "name": ""})),
    ("a bad subject added", binding("u-subject", subjects=[SA]), setting(subjects=[SA, {"kind": "Robot", "name": "r"}])),
    ("a bad label and the roleRef changed", binding("u-label"), setting({"a": "b c"}, roleRef={"apiGroup": RBAC, "kind": "Role", "name": "x"})),
]  # fmt: skip


def cluster_binding(
    name: str, ref: Any = None, subjects: Any = None, meta: Any = None
) -> dict[str, Any]:
    return binding(name, ref, subjects, meta, kind="ClusterRoleBinding")


SA_THERE = SA | {"namespace": "elsewhere"}

CLUSTER_BINDING_CREATES = [
    ("valid subjects of every kind", cluster_binding("ok-all", subjects=[SA_THERE, USER, {"apiGroup": RBAC, "kind": "Group", "name": "devs"}])),
    ("valid User and Group without apiGroup", cluster_binding("ok-default", subjects=[{"kind": "User", "name": "u"}, {"kind": "Group", "name": "g"}])),
    ("valid roleRef without apiGroup", cluster_binding("ok-ref", {"kind": "ClusterRole", "name": "view"})),
    ("valid no subjects", cluster_binding("ok-none")),
    ("valid odd names", cluster_binding("ok-Odd:Name", {"apiGroup": RBAC, "kind": "ClusterRole", "name": "System:Odd_Name"}, [{"kind": "Group", "name": "a b/c"}])),
    ("a roleRef to a Role", cluster_binding("ref-role", {"apiGroup": RBAC, "kind": "Role", "name": "r"})),
    ("a roleRef of another group", cluster_binding("ref-group", {"apiGroup": "example.com", "kind": "ClusterRole", "name": "r"})),
    ("a roleRef without a name", cluster_binding("ref-name", {"apiGroup": RBAC, "kind": "ClusterRole", "name": ""})),
    ("a roleRef name with a slash", cluster_binding("ref-slash", {"apiGroup": RBAC, "kind": "ClusterRole", "name": "a/b"})),
    ("an empty roleRef", cluster_binding("ref-empty", {})),
    ("a service account without a namespace", cluster_binding("sa-namespace", subjects=[SA])),
    ("a service account's bad name, group, no namespace", cluster_binding("sa-all", subjects=[{"kind": "ServiceAccount", "name": "Robot_1", "apiGroup": RBAC}])),
    ("a service account without a name or namespace", cluster_binding("sa-empty", subjects=[{"kind": "ServiceAccount"}])),
    ("an empty subject", cluster_binding("subject-empty", subjects=[{}])),
    ("a user of another group", cluster_binding("user-group", subjects=[USER | {"apiGroup": "example.com"}])),
    ("a name with a percent", cluster_binding("a%b", subjects=[SA])),
    ("a bad label and a bad roleRef", cluster_binding("bad-label", {"apiGroup": RBAC, "kind": "ClusterRole"}, meta=BAD_LABEL)),
]  # fmt: skip

CLUSTER_BINDING_UPDATES = [
    ("valid subjects changed", cluster_binding("u-ok", subjects=[SA_THERE]), setting(subjects=[USER, SA_THERE | {"name": "b"}])),
    ("the roleRef's name changed", cluster_binding("u-name"), setting(roleRef={"apiGroup": RBAC, "kind": "ClusterRole", "name": "writer"})),
    ("the roleRef's kind changed", cluster_binding("u-kind"), setting(roleRef={"apiGroup": RBAC, "kind": "Role", "name": "reader"})),
    ("a service account without a namespace added", cluster_binding("u-sa", subjects=[USER]), setting(subjects=[USER, SA])),
    ("a bad label and the roleRef changed", cluster_binding("u-label"), setting({"a": "b c"}, roleRef={"apiGroup": RBAC, "kind": "ClusterRole", "name": "x"})),
]  # fmt: skip


def test_role(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, RBAC, "Role", "roles")
    problems = sides.creates(answer, ROLE_CREATES)
    problems += sides.updates(answer, ROLE_UPDATES)
    assert_agree(problems, len(ROLE_CREATES) + len(ROLE_UPDATES), "Role writes")


def _cluster_scoped(case: tuple[Any, ...], prefix: str) -> tuple[Any, ...]:
    """The case with its object's name prefixed: cluster roles outlive the test's
    namespace on the session's server."""
    what, body, *rest = case
    body = copy.deepcopy(body)
    body["metadata"]["name"] = f"{prefix}.{body['metadata']['name']}"
    return (what, body, *rest)


def _cluster_writes(
    client: KubeClient, namespace: str, kind: str, plural: str, creates: Any, updates: Any
) -> None:
    """The cluster-scoped ``kind``'s cases, their names prefixed, deleted afterwards."""
    store = ObjectStore()
    server = ResourceClient(client, RBAC, "v1", plural, namespaced=False)
    sides = Sides(server, store, store.resolve(f"{RBAC}/v1/{kind}"), namespace)
    creates = [_cluster_scoped(case, namespace) for case in creates]
    updates = [_cluster_scoped(case, namespace) for case in updates]
    try:
        problems = sides.creates(answer, creates)
        problems += sides.updates(answer, updates)
    finally:
        for _, body, *_ in (*creates, *updates):
            # one the server refused is not there to delete
            with contextlib.suppress(ApiError):
                server.delete(body["metadata"]["name"])
    assert_agree(problems, len(creates) + len(updates), f"{kind} writes")


def test_cluster_role(client: KubeClient, namespace: str) -> None:
    _cluster_writes(
        client, namespace, "ClusterRole", "clusterroles", CLUSTER_ROLE_CREATES, CLUSTER_ROLE_UPDATES
    )


def test_cluster_role_binding(client: KubeClient, namespace: str) -> None:
    _cluster_writes(
        client,
        namespace,
        "ClusterRoleBinding",
        "clusterrolebindings",
        CLUSTER_BINDING_CREATES,
        CLUSTER_BINDING_UPDATES,
    )


def test_role_binding(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, RBAC, "RoleBinding", "rolebindings")
    problems = sides.creates(answer, BINDING_CREATES)
    problems += sides.updates(answer, BINDING_UPDATES)
    assert_agree(problems, len(BINDING_CREATES) + len(BINDING_UPDATES), "RoleBinding writes")
