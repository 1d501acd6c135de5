"""Shared data for the explain unit tests: the Widget CRD and kubectl's output for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.explain.published import PublishedSchema
from kubectl_crd.model.gvk import GroupVersionKind

DATA = Path(__file__).parent / "data"


def load_widgets() -> CustomResourceDefinition:
    raw = YAML(typ="safe", pure=True).load((DATA / "widgets.yaml").read_text())
    return CustomResourceDefinition.from_object(raw)


@pytest.fixture(scope="session")
def widgets() -> CustomResourceDefinition:
    return load_widgets()


def golden_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / "golden.json").read_text())["cases"]
    return cases


def published(root: dict[str, Any], **schemas: dict[str, Any]) -> PublishedSchema:
    """A hand-made published document: ``root`` is the kind, ``schemas`` what it references."""
    return PublishedSchema(
        GroupVersionKind("g.io", "v1", "Root"), "Root", {"Root": root, **schemas}
    )
