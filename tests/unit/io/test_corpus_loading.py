"""Every file of the real-world CRD corpus loads, fast, with Kubernetes' values."""

from __future__ import annotations

import time
from pathlib import Path

from kubectl_crd.io import load_documents, read_inputs

# The corpus files with a problem: a duplicated metadata.annotations key, and a "\/"
# escape that go-yaml v2 (so kubectl and the API server) refuses.
DUPLICATE_KEY_SAMPLE = "samples/argo-workflows/k8s-patch-json-workflow.yaml"
SLASH_ESCAPE_SAMPLE = "samples/external-secrets/conjur-external-secret-find.yaml"


def problems_in(corpus_dir: Path, part: str) -> tuple[int, list[str]]:
    files = 0
    problems: list[str] = []
    for path in sorted((corpus_dir / part).rglob("*")):
        # Files at the top of crds/ and samples/ are the corpus's own indexes.
        if path.suffix not in (".yaml", ".yml", ".json") or path.parent == corpus_dir / part:
            continue
        files += 1
        documents = load_documents(path.read_bytes(), str(path))
        if not documents:
            problems.append(f"{path}: no documents")
        problems.extend(str(d.error) for d in documents if d.error is not None)
    return files, problems


def test_every_crd_file_loads(corpus_dir: Path) -> None:
    files, problems = problems_in(corpus_dir, "crds")
    assert files >= 236
    assert problems == []


def test_every_sample_loads_and_the_two_kubectl_refuses_are_reported(corpus_dir: Path) -> None:
    files, problems = problems_in(corpus_dir, "samples")
    assert files >= 1312
    assert len(problems) == 2
    assert problems[0].startswith(f"{corpus_dir / DUPLICATE_KEY_SAMPLE}:13:3: ")
    assert 'duplicate field "annotations" at line 13 (first at line 6)' in problems[0]
    # kubectl create: "error converting YAML to JSON: yaml: line 17: found unknown
    # escape character"; the column is the backslash's
    assert problems[1] == (
        f"{corpus_dir / SLASH_ESCAPE_SAMPLE}:17:25: error converting YAML to JSON: yaml: "
        "line 17: found unknown escape character (kubectl and the API server refuse this "
        "file too)"
    )


def test_each_crd_file_is_one_crd(corpus_dir: Path) -> None:
    for path in sorted((corpus_dir / "crds").rglob("*.yaml")):
        documents = list(read_inputs([str(path)]))
        assert [d.content["kind"] for d in documents] == ["CustomResourceDefinition"], path


def test_the_values_that_trip_other_yaml_loaders(corpus_dir: Path) -> None:
    [matchers] = read_inputs(
        [
            str(
                corpus_dir
                / "crds/prometheus-operator/monitoring.coreos.com_alertmanagerconfigs.yaml"
            )
        ]
    )
    schema = matchers.content["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    inhibit = schema["properties"]["spec"]["properties"]["inhibitRules"]["items"]
    match_type = inhibit["properties"]["sourceMatch"]["items"]["properties"]["matchType"]
    assert match_type["enum"] == ["!=", "=", "=~", "!~"]

    [workflow] = read_inputs([str(corpus_dir / "samples/argo-workflows/arguments-artifacts.yaml")])
    artifact = workflow.content["spec"]["templates"][0]["inputs"]["artifacts"][0]
    assert artifact["mode"] == 493

    [backup] = read_inputs(
        [str(corpus_dir / "samples/velero/docs-v1.18__api-types__backup.block01.yaml")]
    )
    assert backup.content["status"]["completionTimestamp"] == "2019-04-29T15:58:56Z"


def test_the_largest_crd_parses_well_under_a_second(corpus_dir: Path) -> None:
    data = (corpus_dir / "crds/argo-workflows/argoproj.io_workflows.yaml").read_bytes()
    load_documents(data, "warm-up.yaml")
    # CPU time, so that other processes on a busy machine do not count.
    timings = []
    for _ in range(3):
        started = time.process_time()
        load_documents(data, "argo.yaml")
        timings.append(time.process_time() - started)
    assert min(timings) < 1.0
