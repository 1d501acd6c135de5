"""The pure half of ``explain -i``: every field path, and fuzzy ranking."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_crd.model.explain import walk
from kubectl_crd.model.explain.finder import field_paths, path_text, rank, score
from kubectl_crd.model.explain.published import publish
from tests.unit.explain_extras.conftest import crontab, load_crds, widget_crd


def test_crontab_paths_in_recursive_explain_order() -> None:
    paths = [path_text(p) for p in field_paths(publish(crontab(), "v1"))]
    assert paths[:4] == ["", "apiVersion", "kind", "metadata"]
    spec = paths.index("spec")
    assert paths[spec : spec + 12] == [
        "spec",
        "spec.concurrencyPolicy",
        "spec.config",
        "spec.cronSpec",
        "spec.image",
        "spec.labels",
        "spec.minReplicas",
        "spec.ports",
        "spec.ports.containerPort",
        "spec.ports.name",
        "spec.replicas",
        "spec.suspend",
    ]
    assert paths[-4:] == ["status", "status.labelSelector", "status.lastScheduleTime",
                          "status.replicas"]  # fmt: skip
    # standard types are followed, and their cycles cut
    assert "metadata.labels" in paths
    assert "metadata.managedFields.fieldsV1" in paths
    assert len(paths) == len(set(paths))


def test_every_listed_path_can_be_explained(corpus_dir: Path) -> None:
    (path,) = (corpus_dir / "crds" / "gateway-api-standard").glob("*httproutes*.yaml")
    crd = load_crds(path)[0]
    published = publish(crd, crd.preferred_version.name)
    paths = field_paths(published)
    assert len(paths) > 150
    for field_path in paths:
        walk(published, field_path)  # raises FieldNotFoundError if the list lied


def test_field_names_with_dots_are_escaped() -> None:
    spec = {"type": "object", "properties": {"a.b": {"type": "string"}}}
    paths = [path_text(p) for p in field_paths(publish(widget_crd(spec=spec), "v1"))]
    assert "spec.a\\.b" in paths


def test_limit() -> None:
    assert len(field_paths(publish(crontab(), "v1"), limit=5)) == 5


CANDIDATES = [
    "",
    "spec",
    "spec.concurrencyPolicy",
    "spec.config",
    "spec.cronSpec",
    "spec.minReplicas",
    "spec.replicas",
    "status.replicas",
    "metadata.deletionGracePeriodSeconds",
]


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("spec.conc", "spec.concurrencyPolicy"),
        ("rep", "spec.replicas"),  # a word start beats minReplicas' "Rep", shorter wins ties
        ("status rep", "status.replicas"),  # every term must match
        ("cronspec", "spec.cronSpec"),
        ("sc", "spec"),
        ("minR", "spec.minReplicas"),  # an upper-case letter makes the term case-sensitive
    ],
)
def test_the_best_match_comes_first(query: str, first: str) -> None:
    assert rank(query, CANDIDATES)[0].text == first


def test_non_matches_are_left_out_and_empty_query_keeps_order() -> None:
    assert [m.text for m in rank("spec.conc", CANDIDATES)] == [
        "spec.concurrencyPolicy",
        "spec.cronSpec",  # s p e c . c o n ... c as a subsequence
    ]
    assert rank("zzz", CANDIDATES) == []
    assert [m.text for m in rank("  ", CANDIDATES)] == CANDIDATES
    assert rank("minr", CANDIDATES)[0].text == "spec.minReplicas"
    assert rank("MINR", CANDIDATES) == []


def test_positions_mark_the_matched_characters() -> None:
    found = score("conc", "spec.concurrencyPolicy")
    assert found is not None
    assert found[1] == (5, 6, 7, 8)
    scattered = score("scp", "spec.concurrencyPolicy")
    assert scattered is not None
    positions = scattered[1]
    assert list(positions) == sorted(positions)
    assert ["spec.concurrencyPolicy".lower()[i] for i in positions] == ["s", "c", "p"]
