"""A Role's, a ClusterRole's, a RoleBinding's and a ClusterRoleBinding's content as
kube-apiserver 1.34 validates it.

Mirrors ``pkg/apis/rbac/validation/validation.go`` (run by
``pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/strategy.go``): ``ValidatePolicyRule``
of each rule (verbs; apiGroups and resources, or nonResourceURLs, which a namespaced
Role may not have, alone), a ClusterRole's aggregation rule (a selector at least, each
valid, and each one ``LabelSelectorAsSelector`` refuses once more as "invalid label
selector."), a binding's roleRef (rbac's group, a path segment name, and a Role or a
ClusterRole, a ClusterRoleBinding's a ClusterRole only) and subjects
(``ValidateRoleBindingSubject``, whose service account a ClusterRoleBinding must give a
namespace); and ``ValidateRoleBindingUpdate``'s / ``ValidateClusterRoleBindingUpdate``'s
unchanged roleRef. The objects are v1's, defaulted (a
roleRef's and a User's or Group's group filled in). Pure: problems are ``Cause``\\s,
the metadata's are the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.govalues import go_json
from kubectl_crd.model.schema import as_mapping
from kubectl_crd.validation.fielderrors import (
    Cause,
    cause,
    invalid_cause,
    not_supported,
    required,
)
from kubectl_crd.validation.names import name_is_dns_subdomain, path_segment_name
from kubectl_crd.validation.pods import label_selector_problems
from kubectl_crd.validation.results import Reason

__all__ = ["rbac_problems", "rbac_update_problems"]

_GROUP = "rbac.authorization.k8s.io"
_SUBJECT_KINDS = ("ServiceAccount", "User", "Group")
#: a binding kind -> the roleRef kinds it may name
_BINDINGS = {"RoleBinding": ("Role", "ClusterRole"), "ClusterRoleBinding": ("ClusterRole",)}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _required(at: str, detail: str) -> Cause:
    return cause(at, Reason.REQUIRED, f"Required value: {detail}")


def rbac_problems(kind: str, obj: Mapping[str, Any]) -> list[Cause]:
    """``ValidateRole``, ``ValidateClusterRole``, ``ValidateRoleBinding`` or
    ``ValidateClusterRoleBinding`` of ``obj`` (``kind``), past its ``ValidateObjectMeta``."""
    if kind in _BINDINGS:
        return _binding(obj, kind)
    rules = obj.get("rules")
    found: list[Cause] = []
    for index, rule in enumerate(rules if isinstance(rules, list) else ()):
        found += _rule(as_mapping(rule), kind == "Role", f"rules[{index}]")
    aggregation = obj.get("aggregationRule")
    if kind == "ClusterRole" and isinstance(aggregation, Mapping):
        at = "aggregationRule.clusterRoleSelectors"
        selectors = aggregation.get("clusterRoleSelectors")
        selectors = selectors if isinstance(selectors, list) else []
        if not selectors:
            detail = "at least one clusterRoleSelector required if aggregationRule is non-nil"
            found.append(_required(at, detail))
        for index, selector in enumerate(selectors):
            problems = label_selector_problems(as_mapping(selector), f"{at}[{index}]")
            found += problems
            if problems:
                # LabelSelectorAsSelector's error: the selector it returns is nil
                found.append(invalid_cause(f"{at}[{index}]", None, "invalid label selector."))
    return found


def _rule(rule: Mapping[str, Any], namespaced: bool, at: str) -> list[Cause]:
    """``ValidatePolicyRule``."""
    found: list[Cause] = []
    if not rule.get("verbs"):
        found.append(_required(f"{at}.verbs", "verbs must contain at least one value"))
    urls = rule.get("nonResourceURLs")
    if urls:
        where = f"{at}.nonResourceURLs"
        if namespaced:
            detail = "namespaced rules cannot apply to non-resource URLs"
            found.append(invalid_cause(where, urls, detail))
        if rule.get("apiGroups") or rule.get("resources") or rule.get("resourceNames"):
            detail = "rules cannot apply to both regular resources and non-resource URLs"
            found.append(invalid_cause(where, urls, detail))
        return found
    if not rule.get("apiGroups"):
        detail = "resource rules must supply at least one api group"
        found.append(_required(f"{at}.apiGroups", detail))
    if not rule.get("resources"):
        detail = "resource rules must supply at least one resource"
        found.append(_required(f"{at}.resources", detail))
    return found


def _binding(obj: Mapping[str, Any], binding_kind: str) -> list[Cause]:
    """``ValidateRoleBinding`` or ``ValidateClusterRoleBinding`` past its metadata: the
    roleRef, then each subject."""
    ref = as_mapping(obj.get("roleRef"))
    group, kind, name = (_text(ref.get(key)) for key in ("apiGroup", "kind", "name"))
    found: list[Cause] = []
    if group != _GROUP:
        found.append(not_supported("roleRef.apiGroup", group, (_GROUP,)))
    if kind not in _BINDINGS[binding_kind]:
        found.append(not_supported("roleRef.kind", kind, _BINDINGS[binding_kind]))
    if not name:
        found.append(required("roleRef.name"))
    found += [invalid_cause("roleRef.name", name, m) for m in path_segment_name(name, False)]
    subjects = obj.get("subjects")
    namespaced = binding_kind == "RoleBinding"
    for index, subject in enumerate(subjects if isinstance(subjects, list) else ()):
        found += _subject(as_mapping(subject), namespaced, f"subjects[{index}]")
    return found


def _subject(subject: Mapping[str, Any], namespaced: bool, at: str) -> list[Cause]:
    """``ValidateRoleBindingSubject`` of a binding's subject: a cluster binding's
    (``namespaced`` false) service account must name its namespace."""
    group, kind, name = (_text(subject.get(key)) for key in ("apiGroup", "kind", "name"))
    found = [] if name else [required(f"{at}.name")]
    if kind == "ServiceAccount":
        if name:
            messages = name_is_dns_subdomain(name, False)
            found += [invalid_cause(f"{at}.name", name, m) for m in messages]
        if group:
            found.append(not_supported(f"{at}.apiGroup", group, ("",)))
        if not namespaced and not _text(subject.get("namespace")):
            found.append(required(f"{at}.namespace"))
    elif kind in ("User", "Group"):
        if group != _GROUP:
            found.append(not_supported(f"{at}.apiGroup", group, (_GROUP,)))
    else:
        found.append(not_supported(f"{at}.kind", kind, _SUBJECT_KINDS))
    return found


def rbac_update_problems(kind: str, obj: Mapping[str, Any], old: Mapping[str, Any]) -> list[Cause]:
    """What ``ValidateRoleBindingUpdate`` or ``ValidateClusterRoleBindingUpdate`` adds
    after its metadata update pass: the roleRef unchanged (its bad value the internal
    ``rbac.RoleRef``, which has no json tags: its Go field names)."""
    if kind not in _BINDINGS:
        return []
    keys = ("apiGroup", "kind", "name")
    ref, old_ref = as_mapping(obj.get("roleRef")), as_mapping(old.get("roleRef"))
    if all(_text(ref.get(key)) == _text(old_ref.get(key)) for key in keys):
        return []
    value = (
        "{"
        + ",".join(
            f'"{go_name}":{go_json(_text(ref.get(key)))}'
            for go_name, key in zip(("APIGroup", "Kind", "Name"), keys, strict=True)
        )
        + "}"
    )
    return [cause("roleRef", Reason.INVALID, f"Invalid value: {value}: cannot change roleRef")]
