"""``sources.inputs.InputCRDs``: CRDs from --crd, the inputs and the cluster, in that order."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_crd.io import input_documents
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.sources.fake import FakeSource
from kubectl_crd.sources.inputs import InputCRDs

from .test_file_source import GOOD

WIDGET = GOOD.replace("crontabs", "widgets").replace("CronTab", "Widget").replace("ct]", "wd]")
GADGET = GOOD.replace("crontabs", "gadgets").replace("CronTab", "Gadget").replace("ct]", "gd]")
BROKEN = GOOD.replace("crontabs", "brokens").replace("CronTab", "Broken").replace("v1\n", "")
OBJECT = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path / "cache"))


class Cluster:
    """The cluster's CRDs (a ``FakeSource``), counting the reads."""

    def __init__(self, *documents: str) -> None:
        from kubectl_crd.io import load_documents

        self.source = FakeSource(
            d.content for text in documents for d in load_documents(text, "cluster")
        )
        self.reads = 0

    def __call__(self) -> list[CustomResourceDefinition]:
        self.reads += 1
        return list(self.source.crds())


def kinds(crds: object) -> list[str]:
    assert isinstance(crds, (list, tuple))
    return [crd.names.kind for crd in crds]


def test_crd_files_then_the_inputs_and_the_cluster_only_when_nothing_is_given(
    tmp_path: Path,
) -> None:
    (tmp_path / "crd.yaml").write_text(GOOD)
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    (inputs / "defs.yaml").write_text(WIDGET + "---\n" + OBJECT)
    (inputs / "objects.yaml").write_text(OBJECT)
    cluster = Cluster(GADGET)
    crds = InputCRDs([str(tmp_path / "crd.yaml")], [str(inputs)], cluster=cluster)
    assert kinds(crds.given()) == ["CronTab", "Widget"]
    assert kinds(crds.crds()) == ["CronTab", "Widget"]
    assert cluster.reads == 0
    assert kinds(crds.from_cluster()) == ["Gadget"]
    assert kinds(crds.from_cluster()) == ["Gadget"]
    assert cluster.reads == 1  # read once


def test_the_cluster_when_neither_crd_files_nor_inputs_define_one(tmp_path: Path) -> None:
    (tmp_path / "objects.yaml").write_text(OBJECT)
    cluster = Cluster(GADGET)
    crds = InputCRDs([], [str(tmp_path / "objects.yaml")], cluster=cluster)
    assert kinds(crds.crds()) == ["Gadget"]
    assert InputCRDs([], [str(tmp_path / "objects.yaml")]).crds() == []  # offline


def test_crd_files_given_mean_instead_of_the_cluster_even_when_empty(tmp_path: Path) -> None:
    (tmp_path / "empty.yaml").write_text(OBJECT)
    cluster = Cluster(GADGET)
    crds = InputCRDs([str(tmp_path / "empty.yaml")], cluster=cluster)
    assert crds.crds() == []
    assert cluster.reads == 0


def test_documents_already_read_are_searched_instead_of_the_files(tmp_path: Path) -> None:
    path = tmp_path / "stdin.yaml"
    path.write_text(WIDGET + "---\n" + OBJECT)
    held = list(input_documents([str(path)]))
    path.write_text(OBJECT)  # the files are not read again
    crds = InputCRDs([], ["-"], documents=held)
    assert kinds(crds.crds()) == ["Widget"]


def test_a_broken_input_crd_is_left_to_the_command_a_broken_crd_file_is_a_problem(
    tmp_path: Path,
) -> None:
    (tmp_path / "inputs.yaml").write_text(BROKEN + "---\n" + WIDGET)
    (tmp_path / "crd.yaml").write_text(BROKEN)
    crds = InputCRDs([str(tmp_path / "crd.yaml")], [str(tmp_path / "inputs.yaml")])
    assert kinds(crds.given()) == ["Widget"]
    assert [p.location.file for p in crds.problems() if p.location] == [str(tmp_path / "crd.yaml")]


def test_a_kind_in_both_places_is_kept_twice_for_the_index_to_judge(tmp_path: Path) -> None:
    (tmp_path / "crd.yaml").write_text(GOOD)
    (tmp_path / "inputs.yaml").write_text(GOOD.replace("shortNames: [ct]", "shortNames: [cr]"))
    crds = InputCRDs([str(tmp_path / "crd.yaml")], [str(tmp_path / "inputs.yaml")])
    given = crds.given()
    assert kinds(given) == ["CronTab", "CronTab"]
    assert given[0].names.short_names != given[1].names.short_names
