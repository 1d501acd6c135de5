"""Builds small CRD objects for tests, so each test states only what it cares about."""

from __future__ import annotations

from typing import Any


def make_crd(
    kind: str = "CronTab",
    group: str = "stable.example.com",
    *,
    plural: str | None = None,
    singular: str | None = None,
    short_names: tuple[str, ...] = (),
    versions: tuple[str, ...] = ("v1",),
    storage: str | None = None,
    served: tuple[str, ...] | None = None,
    scope: str = "Namespaced",
    schema: dict[str, Any] | None = None,
    api_version: str = "apiextensions.k8s.io/v1",
) -> dict[str, Any]:
    plural = plural or kind.lower() + "s"
    schema = schema or {
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}},
    }
    storage = storage or versions[0]
    served = versions if served is None else served
    names: dict[str, Any] = {"kind": kind, "plural": plural, "singular": singular or kind.lower()}
    if short_names:
        names["shortNames"] = list(short_names)
    return {
        "apiVersion": api_version,
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{group}"},
        "spec": {
            "group": group,
            "names": names,
            "scope": scope,
            "versions": [
                {
                    "name": v,
                    "served": v in served,
                    "storage": v == storage,
                    "schema": {"openAPIV3Schema": schema},
                }
                for v in versions
            ],
        },
    }
