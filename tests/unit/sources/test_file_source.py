from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.errors import CRDError, YamlError
from kubectl_crd.sources.base import find_crd
from kubectl_crd.sources.files import FileSource

GOOD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {kind: CronTab, plural: crontabs, singular: crontab, shortNames: [ct]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
"""

V1BETA1 = GOOD.replace("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1").replace(
    "crontabs", "olds"
)
NON_STRUCTURAL = (
    GOOD.replace("crontabs", "widgets")
    .replace("CronTab", "Widget")
    .replace(
        "openAPIV3Schema: {type: object}",
        "openAPIV3Schema: {type: object, properties: {spec: {description: untyped}}}",
    )
)
DEPLOYMENT = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path / "cache"))


def test_reads_crds_from_a_directory_and_ignores_other_kinds(tmp_path: Path) -> None:
    crds = tmp_path / "crds"
    (crds / "nested").mkdir(parents=True)
    (crds / "nested" / "crontab.yaml").write_text(GOOD)
    (crds / "deploy.yaml").write_text(DEPLOYMENT)
    (crds / "notes.txt").write_text("not yaml: [")
    source = FileSource([str(crds)])
    assert [c.name for c in source.crds()] == ["crontabs.stable.example.com"]
    assert source.problems() == []
    assert find_crd(source, "ct").crd.location is not None


def test_broken_crds_are_problems_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "mixed.yaml"
    path.write_text(GOOD + "---\n" + V1BETA1 + "---\n" + NON_STRUCTURAL + "---\nkey: [unclosed\n")
    source = FileSource([str(path)])
    assert [c.name for c in source.crds()] == ["crontabs.stable.example.com"]
    problems = source.problems()
    assert len(problems) == 3
    old, widget, syntax = problems
    assert isinstance(old, CRDError) and "only apiextensions.k8s.io/v1" in str(old)
    assert old.location is not None and old.location.file == str(path) and old.location.line == 15
    assert isinstance(widget, CRDError) and "schema is not structural" in str(widget)
    assert "properties[spec].type: Required value" in str(widget)
    assert isinstance(syntax, YamlError) and str(path) in str(syntax)


def test_missing_path_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    source = FileSource([str(tmp_path / "absent.yaml")])
    assert source.crds() == []
    assert len(source.problems()) == 1
    assert "absent.yaml" in str(source.problems()[0])


def test_the_second_read_comes_from_the_parse_cache(tmp_path: Path) -> None:
    path = tmp_path / "crd.yaml"
    path.write_text(GOOD)
    first = FileSource([str(path)]).crds()
    assert any((tmp_path / "cache").rglob("*")), "the first read should fill the cache"
    second = FileSource([str(path)]).crds()
    assert first[0].raw == second[0].raw


def test_structural_check_runs_once_per_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kubectl_crd.model import crd as crd_module

    walked: list[str] = []
    real = crd_module.structural_schema_errors

    def counting(schema: Any, path: str) -> list[str]:
        walked.append(path)
        return real(schema, path)

    monkeypatch.setattr(crd_module, "structural_schema_errors", counting)
    path = tmp_path / "crd.yaml"
    path.write_text(GOOD)
    for _ in range(3):
        assert [c.name for c in FileSource([str(path)]).crds()] == ["crontabs.stable.example.com"]
    assert len(walked) == 1, "a content that passed is not walked again"
    # A changed file is a new content: checked again, and its problems still reported.
    path.write_text(GOOD + "---\n" + NON_STRUCTURAL)
    for _ in range(2):
        source = FileSource([str(path)])
        assert [c.name for c in source.crds()] == ["crontabs.stable.example.com"]
        (problem,) = source.problems()
        assert "schema is not structural" in str(problem)
    assert len(walked) == 1 + 2 * 2
