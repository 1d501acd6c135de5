"""Every corpus CRD version gets a sample that the real API server accepts (server-side dry run).

For each CRD in the corpus and each of its served versions, ``kubectl crd sample`` (our
CLI, in process) writes a skeleton and an ``--all-fields`` template; the real
``kubectl create --dry-run=server -f DIR`` sends each set in one call and reports per
object. The CRDs are installed in rounds,
because Gateway API standard/experimental and the two kubebuilder CronJob tutorials
define the same CRD names with different schemas.

A rejection must be listed in ``EXPECTED_REJECTIONS`` (``EXPECTED_ALL_FIELDS``) with the
reason no valid sample can be made; an entry that the server no longer rejects fails the test as well, so the
table cannot go stale. Versions that need a conversion webhook (none runs here) are
reported as skipped, not counted.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from kubectl_crd.cli.group import cli
from kubectl_crd.io import dump_yaml as dump
from kubectl_crd.io import read_inputs
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.sources.files import FileSource
from kubectl_crd.validation.documents import CRDIndex, validate_documents
from tests.integration.envtest import ControlPlane, Round, plan_rounds

NAMESPACE = "sample-dry-run"

# The skeleton (required fields and defaults) of every version must be accepted;
# "--all-fields" templates too, except where noted. Keys: "<project>/<file>@<version>";
# values: why no valid sample is made (the server's message is printed by the test).
MODES: dict[str, tuple[str, ...]] = {"skeleton": (), "all-fields": ("--all-fields",)}
EXPECTED_REJECTIONS: dict[str, str] = {}
EXPECTED_ALL_FIELDS: dict[str, str] = {}


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


def rounds(
    crds: list[CustomResourceDefinition],
) -> list[tuple[Round, list[CustomResourceDefinition]]]:
    """The corpus CRDs grouped in install rounds (no CRD name twice), with each round."""
    by_file = {(crd.location.file if crd.location else "", crd.name): crd for crd in crds}
    planned = plan_rounds((Path(file), name) for file, name in by_file)
    return [
        (r, [by_file[str(f), n] for f, n in zip(r.files, r.names, strict=True)]) for r in planned
    ]


def needs_conversion_webhook(crd: CustomResourceDefinition, version: str) -> bool:
    conversion = crd.raw.get("spec", {}).get("conversion") or {}
    storage = crd.storage_version
    return conversion.get("strategy") == "Webhook" and (storage is None or storage.name != version)


def generate(case: Case, *flags: str) -> str:
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
            *flags,
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, f"{case.key}: {result.output}"
    return result.stdout


def dry_run(plane: ControlPlane, directory: Path) -> dict[str, str]:
    """Sample number -> the server's message, for every object the server rejected.

    Objects are named ``sample-NNNN`` after their file, because kubectl names the file
    only when several objects fail (a single failure reads ``The Kind "name" is invalid``).
    """
    proc = plane.kubectl(
        "create", "--dry-run=server", "-n", NAMESPACE, "-f", str(directory), "-o", "name",
        check=False,
    )  # fmt: skip
    errors: dict[str, str] = {}
    current = None
    for line in proc.stderr.splitlines():
        if line.startswith("Warning: "):
            continue  # deprecated versions
        match = re.search(r'"sample-(\d{4})"', line) or re.search(r"/(\d{4})-[^/\"]+\"", line)
        if match:
            current = match.group(1)
            line = re.sub(r'^.*?error when creating "[^"]+": ', "", line)
        assert current is not None, f"unexpected kubectl output: {line}"
        errors[current] = (errors.get(current, "") + " " + line).strip()
    accepted = re.findall(r"/sample-(\d{4})$", proc.stdout, flags=re.MULTILINE)
    files = sorted(p.name[:4] for p in directory.iterdir())
    assert sorted([*accepted, *errors]) == files, (proc.stdout, proc.stderr)
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
    corpus_apiserver: ControlPlane, corpus_dir: Path, tmp_path: Path
) -> None:
    plane = corpus_apiserver
    crd_dir = corpus_dir / "crds"
    plane.kubectl("create", "namespace", NAMESPACE)
    rejected: dict[str, dict[str, str]] = {mode: {} for mode in MODES}
    we_refuse: dict[str, dict[str, str]] = {mode: {} for mode in MODES}
    skipped: list[str] = []
    total = 0
    for index, (round_, group) in enumerate(rounds(load_corpus(crd_dir))):
        plane.use_crds(round_)
        cases: dict[str, Case] = {}
        for position, case in enumerate(cases_of(group, crd_dir)):
            if isinstance(case, str):
                skipped.append(case)
            else:
                cases[f"{position:04d}"] = case
        total += len(cases)
        for mode, flags in MODES.items():
            directory = tmp_path / f"round-{index}-{mode}"
            directory.mkdir()
            for number, case in cases.items():
                text = generate(case, "--name", f"sample-{number}", *flags)
                (directory / f"{number}-{case.crd.name}-{case.version}.yaml").write_text(text)
            server_rejected = dry_run(plane, directory)
            for number, message in server_rejected.items():
                rejected[mode][cases[number].key] = message
            for number, verdict in our_verdicts(group, directory).items():
                if number not in server_rejected and verdict:
                    we_refuse[mode][cases[number].key] = verdict

    for key in skipped:
        print(f"\n  skipped {key}: needs the CRD's conversion webhook, which does not run here")
    problems = []
    for mode, expected in (("skeleton", EXPECTED_REJECTIONS), ("all-fields", EXPECTED_ALL_FIELDS)):
        print(f"\nsample dry-run ({mode}): {total - len(rejected[mode])}/{total} accepted")
        for key, message in sorted(rejected[mode].items()):
            print(f"  rejected {key}: {message}")
        unexpected = {k: v for k, v in rejected[mode].items() if k not in expected}
        if unexpected:
            problems.append(f"{mode}: rejected, not expected:\n{json.dumps(unexpected, indent=2)}")
        stale = sorted(set(expected) - set(rejected[mode]))
        if stale:
            problems.append(f"{mode}: accepted now, remove from the expected table: {stale}")
        # kubectl crd validate must accept whatever the server accepted
        print(f"sample validate ({mode}): {len(we_refuse[mode])} refused that the server accepted")
        if we_refuse[mode]:
            problems.append(
                f"{mode}: the server accepts, kubectl crd validate refuses:\n"
                + json.dumps(we_refuse[mode], indent=2)
            )
    assert not problems, "\n".join(problems)


def our_verdicts(crds: list[CustomResourceDefinition], directory: Path) -> dict[str, str]:
    """Sample number -> our first error ("" when valid), by ``kubectl crd validate``'s engine."""
    verdicts: dict[str, str] = {}
    results = validate_documents(read_inputs([str(directory)]), CRDIndex(crds))
    for result in results:
        number = re.sub(r"^sample-", "", result.name)
        first = result.errors[0].message if result.errors else result.message
        verdicts[number] = "" if result.status == "valid" else f"{result.status}: {first}"
    return verdicts


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
