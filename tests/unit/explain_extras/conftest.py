"""Helpers for the "beyond kubectl explain" tests: tiny CRDs built around one field."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.explain import ExplainTarget, resolve_target
from kubectl_crd.model.explain.details import explain_details
from kubectl_crd.model.explain.detailtext import render_details
from tests.crd_factory import make_crd

REPO = Path(__file__).resolve().parents[3]
CRONTAB = REPO / "examples" / "crds" / "crontab.yaml"


def widget_crd(
    field: dict[str, Any] | None = None, *, spec: dict[str, Any] | None = None, **version: Any
) -> CustomResourceDefinition:
    """A Widget CRD whose ``spec`` holds ``field`` as ``f`` (or is ``spec``).

    ``version`` keys (``additionalPrinterColumns``, ``subresources``, ...) are set on
    the one version ``v1``.
    """
    spec_schema = spec or {"type": "object", "properties": {"f": field or {"type": "string"}}}
    schema = {"type": "object", "properties": {"spec": copy.deepcopy(spec_schema)}}
    raw = make_crd("Widget", "example.com", schema=schema)
    raw["spec"]["versions"][0].update(version)
    return CustomResourceDefinition.from_object(raw)


def target(crd: CustomResourceDefinition, argument: str) -> ExplainTarget:
    return resolve_target([crd], argument)


def details_text(explained: ExplainTarget, **options: Any) -> str:
    return render_details(explain_details(explained, **options))


def entry(text: str, path: str) -> list[str]:
    """The fact lines under ``path``'s heading, whitespace runs collapsed to one space."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(f"  {path} <"):
            body = []
            for following in lines[index + 1 :]:
                if not following.strip():
                    break
                body.append(" ".join(following.split()))
            return body
    raise AssertionError(f"no entry for {path} in:\n{text}")


def load_crds(path: Path) -> list[CustomResourceDefinition]:
    yaml = YAML(typ="safe", pure=True)
    return [
        CustomResourceDefinition.from_object(doc)
        for doc in yaml.load_all(path.read_text())
        if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition"
    ]


def crontab() -> CustomResourceDefinition:
    return load_crds(CRONTAB)[0]
