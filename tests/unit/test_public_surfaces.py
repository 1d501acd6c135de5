"""The packages that re-export a public surface: each ``__all__`` pinned, each name real.

``kubectl_crd.io``'s surface is pinned with its lazy loading in ``tests/unit/io``.
"""

from __future__ import annotations

import importlib

import pytest

SURFACES = {
    "kubectl_crd.model.explain": [
        "ExplainTarget",
        "FieldStep",
        "PublishedSchema",
        "Schema",
        "definition_name",
        "description",
        "field_entries",
        "parse_fields",
        "publish",
        "render_body",
        "render_header",
        "render_plaintext",
        "resolve",
        "resolve_target",
        "schema_notes",
        "type_guess",
        "walk",
    ],
    "kubectl_crd.reconcile": ["Context", "Result", "TerminalError"],
    "kubectl_crd.reconcile.testing": ["Event", "Outcome", "run_finalize", "run_reconcile"],
    "kubectl_crd.model.sample": [
        "CelRule",
        "PatternMatch",
        "RuleCheck",
        "Sample",
        "SampleOptions",
        "SchemaCheck",
        "build_sample",
        "select_version",
    ],
}


@pytest.mark.parametrize("package", sorted(SURFACES))
def test_public_names_are_pinned_and_defined(package: str) -> None:
    module = importlib.import_module(package)
    assert sorted(module.__all__) == sorted(SURFACES[package])
    for name in module.__all__:
        assert getattr(module, name) is not None
