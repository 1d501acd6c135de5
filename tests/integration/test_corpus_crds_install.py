"""Every CRD of the real-world corpus installs into a real API server, and the cluster
source finds each installed CRD, exactly the set ``kubectl get crd`` lists.

Some corpus CRDs share a name but differ in schema (Gateway API standard and
experimental, the two kubebuilder cronjob tutorials, sample-controller's two Foo
files), so they cannot coexist in one cluster. ``plan_rounds`` groups the files into
install rounds; before each round the CRDs it redefines are deleted. The corpus needs
two rounds. The control plane is the corpus-wide modules' (``corpus_apiserver``), so
the shared one stays small; a CRD an earlier module installed from the same file stays.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.sources.cluster import ClusterSource
from tests.integration.envtest import (
    CRD_RESOURCE,
    ControlPlane,
    EnvtestError,
    KubectlError,
    Round,
    plan_rounds,
)


@pytest.fixture(scope="module")
def corpus_crds(corpus_dir: Path, corpus_apiserver: ControlPlane) -> list[tuple[Path, str]]:
    """(file, CRD name) for every corpus file, names read by kubectl's own YAML parser."""
    files = sorted((corpus_dir / "crds").glob("*/*.yaml"))
    assert files, f"no CRD files under {corpus_dir / 'crds'}"
    args = [arg for path in files for arg in ("-f", str(path))]
    out = corpus_apiserver.kubectl(
        "create", "--dry-run=client", "--validate=false", "-o", "name", *args
    ).stdout.split()
    assert {line.partition("/")[0] for line in out} == {CRD_RESOURCE}
    assert len(out) == len(files), "expected exactly one CRD per corpus file"
    return [(path, line.partition("/")[2]) for path, line in zip(files, out, strict=True)]


def test_every_corpus_crd_is_established_and_found_by_the_cluster_source(
    corpus_apiserver: ControlPlane,
    corpus_crds: list[tuple[Path, str]],
    record_property: Callable[[str, object], None],
) -> None:
    plane = corpus_apiserver
    rounds = plan_rounds(corpus_crds)
    _check_plan(rounds, corpus_crds)
    source_config = ClusterConfig(kubeconfig=str(plane.kubeconfig), context=plane.context)
    failures: dict[str, str] = {}
    report = [f"{len(corpus_crds)} files, {len({n for _, n in corpus_crds})} CRD names"]
    for number, round_ in enumerate(rounds, start=1):
        began = time.monotonic()
        try:
            installed = plane.use_crds(round_)
        except (KubectlError, EnvtestError) as exc:
            established = plane.established_crds()
            installed = [n for n in dict.fromkeys(round_.names) if n in established]
            for path, name in zip(round_.files, round_.names, strict=True):
                if name not in installed:
                    failures[f"{path.parent.name}/{path.name} ({name})"] = _reason(str(exc), path)
        else:
            assert installed == list(dict.fromkeys(round_.names))
        applied = time.monotonic()

        in_cluster = plane.crd_names()
        assert set(installed) <= in_cluster
        source = ClusterSource(source_config)
        found = {crd.name for crd in source.crds()}
        listed = time.monotonic()
        assert not source.problems(), [str(p) for p in source.problems()]
        assert found == in_cluster, {
            "missing from ClusterSource": sorted(in_cluster - found),
            "unknown to kubectl get crd": sorted(found - in_cluster),
        }
        line = (
            f"round {number}: {len(round_.files)} files, {len(installed)} Established; "
            f"installed (those this plane did not have from the same files) in "
            f"{applied - began:.1f} s; "
            f"ClusterSource listed {len(found)} in {listed - applied:.1f} s"
        )
        report.append(line)
        record_property(f"round{number}", line)
    print("\n".join(report))

    assert not failures, "CRDs that could not be installed:\n" + "\n".join(
        f"- {what}: {why}" for what, why in failures.items()
    )


def _check_plan(rounds: list[Round], corpus_crds: list[tuple[Path, str]]) -> None:
    assert sorted(p for r in rounds for p in r.files) == sorted(p for p, _ in corpus_crds)
    for round_ in rounds:  # a name twice in one round would silently replace a CRD
        assert len(set(round_.names)) == len(round_.names)


def _reason(error: str, path: Path) -> str:
    """kubectl's error lines naming this file (they carry the API server's message), or
    the whole error (for a CRD that is not Established: its conditions)."""
    lines = [line for line in error.splitlines() if str(path) in line]
    return "\n".join(lines) or error
