"""Every corpus CRD version gets a sample that the real API server accepts (server-side dry run).

For each CRD in the corpus and each of its served versions, ``kubectl crd sample`` (our
CLI, in process) writes a skeleton; the real ``kubectl create --dry-run=server -f DIR``
sends them all in one call and reports per object. The CRDs are installed in rounds,
because Gateway API standard/experimental and the two kubebuilder CronJob tutorials
define the same CRD names with different schemas.

A rejection must be listed in ``EXPECTED_REJECTIONS`` with the reason no valid skeleton
can be made; an entry that the server no longer rejects fails the test as well, so the
table cannot go stale. Versions that need a conversion webhook (none runs here) are
reported as skipped, not counted.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubectl_crd.cli.root import cli
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.yaml_text import dump
from kubectl_crd.sources.files import FileSource
from tests.integration.envtest import ControlPlane, KubectlError

NAMESPACE = "sample-dry-run"

# "<project>/<file>@<version>" -> why no valid skeleton can be made without evaluating
# CEL (x-kubernetes-validations); the server's message is printed by the test.
EXPECTED_REJECTIONS: dict[str, str] = {}


@dataclass(frozen=True)
class Case:
    key: str  # "<project>/<file>@<version>"
    crd: CustomResourceDefinition
    version: str
    file: Path


def load_corpus(crd_dir: Path) -> list[CustomResourceDefinition]:
    source = FileSource([str(path) for path in sorted(crd_dir.glob("*/*.yaml"))])
    crds = list(source.crds())
    assert not source.problems(), [str(p) for p in source.problems()]
    return sorted(crds, key=lambda c: str(c.location))


def rounds(crds: list[CustomResourceDefinition]) -> list[list[CustomResourceDefinition]]:
    """Groups with unique CRD names, in corpus order; a repeated name goes to a later round."""
    groups: list[dict[str, CustomResourceDefinition]] = []
    for crd in crds:
        group = next((g for g in groups if crd.name not in g), None)
        if group is None:
            group = {}
            groups.append(group)
        group[crd.name] = crd
    return [list(g.values()) for g in groups]


def needs_conversion_webhook(crd: CustomResourceDefinition, version: str) -> bool:
    conversion = crd.raw.get("spec", {}).get("conversion") or {}
    storage = crd.storage_version
    return conversion.get("strategy") == "Webhook" and (storage is None or storage.name != version)


def install(plane: ControlPlane, files: list[str], names: list[str]) -> None:
    """``install_crds``, tolerating its Established check racing the naming controller.

    Right after a large apply some CRDs have no ``status.conditions`` yet, and the
    fixture's jsonpath filter then fails; waiting again a moment later works.
    """
    try:
        plane.install_crds(files)
    except KubectlError:
        for attempt in range(5):
            time.sleep(1 + attempt)
            try:
                plane.wait_established(names)
                return
            except KubectlError:
                continue
        raise


def generate(case: Case) -> str:
    group = case.crd.group
    result = CliRunner().invoke(
        cli,
        [
            "sample",
            "-n",
            NAMESPACE,
            "--crd",
            str(case.file),
            f"{case.crd.names.plural}.{group}",
            "--api-version",
            f"{group}/{case.version}",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, f"{case.key}: {result.output}"
    return result.stdout


def dry_run(plane: ControlPlane, directory: Path) -> dict[str, str]:
    """File name -> the server's message, for every object the server rejected."""
    proc = plane.kubectl(
        "create", "--dry-run=server", "-n", NAMESPACE, "-f", str(directory), "-o", "name",
        check=False,
    )  # fmt: skip
    errors: dict[str, str] = {}
    current = None
    for line in proc.stderr.splitlines():
        if line.startswith("Warning: "):
            continue  # deprecated versions
        match = re.search(re.escape(str(directory)) + r'/([^"]+)"', line)
        if match:
            current = match.group(1)
            line = line[match.end() :].lstrip(": ")
        assert current is not None, f"unexpected kubectl output: {line}"
        errors[current] = (errors.get(current, "") + " " + line).strip()
    accepted = [line for line in proc.stdout.splitlines() if line.strip()]
    files = sorted(p.name for p in directory.iterdir())
    assert len(accepted) + len(errors) == len(files), (proc.stdout, proc.stderr)
    return errors


def cases_of(crds: list[CustomResourceDefinition], crd_dir: Path) -> Iterator[Case | str]:
    for crd in crds:
        assert crd.location is not None
        file = Path(crd.location.file)
        relative = file.relative_to(crd_dir).as_posix()
        for version in crd.served_versions:
            key = f"{relative}@{version.name}"
            if needs_conversion_webhook(crd, version.name):
                yield key
            else:
                yield Case(key, crd, version.name, file)


def test_corpus_samples_pass_a_server_side_dry_run(
    isolated_apiserver: ControlPlane, corpus_dir: Path, tmp_path: Path
) -> None:
    plane = isolated_apiserver
    crd_dir = corpus_dir / "crds"
    plane.kubectl("create", "namespace", NAMESPACE)
    rejected: dict[str, str] = {}
    skipped: list[str] = []
    total = 0
    installed: set[str] = set()
    for index, group in enumerate(rounds(load_corpus(crd_dir))):
        names = [crd.name for crd in group]
        plane.delete_crds([n for n in names if n in installed])
        install(plane, sorted({crd.location.file for crd in group if crd.location}), names)
        installed.update(names)
        directory = tmp_path / f"round-{index}"
        directory.mkdir()
        by_file: dict[str, Case] = {}
        for number, case in enumerate(cases_of(group, crd_dir)):
            if isinstance(case, str):
                skipped.append(case)
                continue
            name = f"{number:04d}-{case.crd.name}-{case.version}.yaml"
            (directory / name).write_text(generate(case))
            by_file[name] = case
        total += len(by_file)
        for name, message in dry_run(plane, directory).items():
            rejected[by_file[name].key] = message

    print(f"\nsample dry-run: {total - len(rejected)}/{total} accepted")
    for key in skipped:
        print(f"  skipped {key}: needs the CRD's conversion webhook, which does not run here")
    for key, message in sorted(rejected.items()):
        print(f"  rejected {key}: {message}")
    unexpected = {k: v for k, v in rejected.items() if k not in EXPECTED_REJECTIONS}
    stale = sorted(set(EXPECTED_REJECTIONS) - set(rejected))
    assert not unexpected, "rejected, and not in EXPECTED_REJECTIONS:\n" + json.dumps(
        unexpected, indent=2
    )
    assert not stale, f"accepted now, remove from EXPECTED_REJECTIONS: {stale}"


# Strings that go-yaml (YAML 1.1) would read as something else unless quoted.
TRICKY_STRINGS = [
    "yes", "No", "on", "OFF", "y", "n", "true", "null", "~", "", "0755", "0x1F", "1_000",
    "1.0", ".5", "1e3", "-1", ".inf", ".NaN", "2024-01-01", "2001-12-14t21:59:43.10-05:00",
    "12:30:45", "=", "<<", "*", "&a", "!tag", "- item", "? key", "a: b", "a #b", "#c", "%x",
    "@x", "`x", "|", ">", "'", '"', "[a]", "{a: b}", " lead", "trail ", "multi\nline",
    "tab\there", "back\\slash", "unicode \u00e9\u4e2d", "ls\u2028", "bell\x07", "example",
]  # fmt: skip


def test_emitted_scalars_read_back_unchanged_by_kubectl(
    apiserver: ControlPlane, namespace: str
) -> None:
    data = {f"k{index}": value for index, value in enumerate(TRICKY_STRINGS)}
    config_map = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "tricky"},
        "data": data,
    }
    text = dump(config_map, comments={("data",): ["keys k0... hold the tricky strings"]})
    proc = apiserver.kubectl(
        "create", "--dry-run=server", "-n", namespace, "-o", "json", "-f", "-", input=text
    )
    assert json.loads(proc.stdout)["data"] == data


@pytest.mark.parametrize("source", ["cluster", "file"])
def test_sample_from_the_cluster_or_a_file_is_accepted(
    apiserver: ControlPlane, namespace: str, corpus_dir: Path, source: str
) -> None:
    crd_file = corpus_dir / "crds" / "sample-controller" / "crd.yaml"
    apiserver.install_crds([crd_file])
    args = ["--crd", str(crd_file)] if source == "file" else []
    proc = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "-n", namespace, "sample", "foos", *args],
        capture_output=True,
        text=True,
        env=apiserver.env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    created = apiserver.kubectl(
        "create", "--dry-run=server", "-o", "json", "-f", "-", input=proc.stdout
    )
    obj = json.loads(created.stdout)
    assert obj["kind"] == "Foo"
    assert obj["metadata"]["namespace"] == namespace
