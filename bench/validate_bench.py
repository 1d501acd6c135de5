"""Benchmark: ``kubectl crd validate`` against kubeconform and kubectl-validate, side by side.

Two inputs, the same for every tool:

- ``samples``: every published sample of the corpus (``../shared/corpus/samples``);
- ``generated``: a deterministic set of custom resources (10,000 by default) made from
  those samples, renamed, one in five given an unknown field, 10 to a file.

against the corpus CRDs, one file per CRD name (the first in path order, so the two
Gateway API channels do not both define a kind). Each tool runs as a new process, the
tools alternating run by run; each row gives resources per second from the median wall
time, min and max, and the peak memory (max RSS) of the tool's process.

- ours: ``kubectl-crd validate --offline --crd DIR -f DIR -o json -j 1`` (the installed
  script next to this Python; one process, as kubeconform's ``-n 1``: its default of a
  worker per CPU is measured by ``validate_jobs_bench.py``);
- kubeconform: ``-n 1`` (one core, as the target asks), ``-strict``, fed the JSON
  Schemas its own converter (``openapi2jsonschema.py``) makes from the same CRDs;
- kubectl-validate: ``--local-crds DIR``.

The peers come from ``hack/bench-peers.sh`` (built from the Go module proxy into a
cache outside the repository); a peer that is not there is left out with a note.
Targets (issue 9): at least 10x kubectl-validate's throughput, within 2x of
kubeconform's. ``--smoke`` uses tiny inputs and one run (CI runs it so the bench
keeps working; no thresholds). ``--json`` prints the figures as JSON for comparisons
across commits.

    .venv/bin/python bench/validate_bench.py [--runs 5] [--count 10000] [--smoke] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
#: As an installed package runs: bytecode cached (a sandbox may set PYTHONDONTWRITEBYTECODE,
#: which makes every run compile the package again).
INSTALLED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SCRIPT = Path(sys.executable).with_name("kubectl-crd")
OURS = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "kubectl_crd"]
sys.path.insert(0, str(REPO))

from tests.corpus import corpus_path, require_corpus  # noqa: E402  (the one setting)

CORPUS = corpus_path()

from kubectl_crd.io import read_inputs  # noqa: E402  (Kubernetes' YAML rules, unlike PyYAML's)
from kubectl_crd.model.schema import plain  # noqa: E402

PEERS = Path(
    os.environ.get("KUBECTL_CRD_BENCH_PEERS", Path.home() / ".cache/kubectl-crd/bench-peers")
)


def documents(path: Path) -> Iterator[dict[str, Any]]:
    for document in read_inputs([str(path)]):
        if document.error is None and isinstance(document.content, dict):
            yield plain(document.content)


#: The corpus projects ``--smoke`` reads (every project's files took 12 s to read before
#: a smoke run validated anything; what it proves, that the bench runs, needs a few)
SMOKE_PROJECTS = ("cert-manager", "flux", "sample-controller")


def _corpus_files(part: str, projects: Sequence[str] | None) -> list[Path]:
    """The YAML files under the corpus's ``part`` (crds, samples), of ``projects`` only
    when given."""
    roots = [CORPUS / part / project for project in projects] if projects else [CORPUS / part]
    return sorted(path for root in roots for path in root.rglob("*.yaml"))


def crd_files(projects: Sequence[str] | None = None) -> list[Path]:
    """One file per CRD name, the first in path order (of ``projects`` when given)."""
    chosen: dict[str, Path] = {}
    for path in _corpus_files("crds", projects):
        for document in documents(path):
            if document.get("kind") == "CustomResourceDefinition":
                chosen.setdefault(document["metadata"]["name"], path)
    return sorted(set(chosen.values()))


def crd_directory(crds: list[Path], directory: Path) -> Path:
    """``crds`` copied into ``directory``, numbered in order (projects' files share names:
    ``crd.yaml``), for ``--crd DIR`` and kubectl-validate's ``--local-crds``."""
    directory.mkdir()
    for index, path in enumerate(crds):
        shutil.copy(path, directory / f"{index:04d}-{path.name}")
    return directory


def sample_files(projects: Sequence[str] | None = None) -> list[Path]:
    return _corpus_files("samples", projects)


def custom_resources(
    crds: list[Path], projects: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Every sample document (of ``projects`` when given) whose kind one of ``crds``
    defines."""
    kinds = set()
    for path in crds:
        for document in documents(path):
            if document.get("kind") == "CustomResourceDefinition":
                spec = document["spec"]
                kinds.add((spec["group"], spec["names"]["kind"]))
    found = []
    for path in sample_files(projects):
        for document in documents(path):
            group = str(document.get("apiVersion", "")).rpartition("/")[0]
            if (group, document.get("kind")) in kinds and isinstance(
                document.get("metadata"), dict
            ):
                found.append(document)
    return found


def generated(documents: list[dict[str, Any]], count: int) -> Iterator[dict[str, Any]]:
    for index in range(count):
        document = json.loads(json.dumps(documents[index % len(documents)]))
        metadata = document["metadata"]
        metadata["name"] = f"{str(metadata.get('name') or 'x')[:40]}-{index}"
        metadata.pop("generateName", None)
        if index % 5 == 4 and isinstance(document.get("spec"), dict):
            document["spec"]["benchUnknownField"] = index
        yield document


def write_generated(directory: Path, documents: Iterator[dict[str, Any]]) -> int:
    directory.mkdir(parents=True)
    batch: list[str] = []
    written = 0
    for document in documents:
        batch.append(json.dumps(document))
        written += 1
        if len(batch) == 10:
            (directory / f"{written:06d}.yaml").write_text("\n---\n".join(batch) + "\n")
            batch = []
    if batch:
        (directory / f"{written:06d}.yaml").write_text("\n---\n".join(batch) + "\n")
    return written


def kubeconform_schemas(crds: list[Path], directory: Path) -> Path | None:
    converter = PEERS / "openapi2jsonschema.py"
    if not converter.exists():
        return None
    directory.mkdir(parents=True)
    env = {**os.environ, "FILENAME_FORMAT": "{fullgroup}-{kind}_{version}"}
    subprocess.run(
        [sys.executable, str(converter), *map(str, crds)],
        cwd=directory,
        env=env,
        check=True,
        capture_output=True,
    )
    return directory


def timed(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS in MB of one run of ``command`` (output discarded)."""
    began = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=INSTALLED_ENV
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - began
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):  # 1: something was invalid, as meant
        raise SystemExit(f"{command[0]} failed ({process.returncode}): {' '.join(command)}")
    return elapsed, usage.ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--smoke", action="store_true", help="tiny inputs, one run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    require_corpus()
    projects = SMOKE_PROJECTS if options.smoke else None
    if options.smoke:
        options.runs, options.count = 1, 50
    crds = crd_files(projects)
    workdir = Path(tempfile.mkdtemp(prefix="kubectl-crd-bench-"))
    try:
        crd_dir = crd_directory(crds, workdir / "crds")
        resources = custom_resources(crds, projects)
        inputs: dict[str, tuple[Path, int]] = {}
        if options.smoke:
            inputs["samples"] = (
                workdir / "samples",
                write_generated(workdir / "samples", iter(resources[:20])),
            )
        else:
            inputs["samples"] = (
                workdir / "samples",
                write_generated(workdir / "samples", iter(resources)),
            )
        inputs["generated"] = (
            workdir / "generated",
            write_generated(workdir / "generated", generated(resources, options.count)),
        )
        schemas = kubeconform_schemas(crds, workdir / "schemas")
        tools: dict[str, Any] = {
            "kubectl-crd": lambda d: [
                *OURS,
                "validate",
                "--offline",
                "--crd",
                str(crd_dir),
                "-f",
                str(d),
                "-o",
                "json",
                "-j",
                "1",  # one process, as kubeconform's -n 1 (validate_jobs_bench: the workers)
            ],
        }
        notes = []
        if schemas is not None and (PEERS / "bin" / "kubeconform").exists():
            location = str(
                schemas / "{{ .Group }}-{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json"
            )
            tools["kubeconform"] = lambda d: [
                str(PEERS / "bin" / "kubeconform"), "-n", "1", "-strict", "-ignore-missing-schemas",
                "-output", "json", "-schema-location", location, str(d),
            ]  # fmt: skip
        else:
            notes.append("kubeconform: not built (hack/bench-peers.sh)")
        if (PEERS / "bin" / "kubectl-validate").exists():
            tools["kubectl-validate"] = lambda d: [
                str(PEERS / "bin" / "kubectl-validate"), str(d), "--local-crds", str(crd_dir),
            ]  # fmt: skip
        else:
            notes.append("kubectl-validate: not built (hack/bench-peers.sh)")
        figures: dict[str, dict[str, Any]] = {}
        for input_name, (directory, count) in inputs.items():
            times: dict[str, list[float]] = {tool: [] for tool in tools}
            memory: dict[str, int] = dict.fromkeys(tools, 0)
            for _ in range(options.runs):
                for tool, command in tools.items():
                    elapsed, rss = timed(command(directory))
                    times[tool].append(elapsed)
                    memory[tool] = max(memory[tool], rss)
            figures[input_name] = {
                tool: {
                    "resources": count,
                    "median_s": statistics.median(values),
                    "min_s": min(values),
                    "max_s": max(values),
                    "per_second": count / statistics.median(values),
                    "peak_mb": memory[tool],
                }
                for tool, values in times.items()
            }
        if options.json:
            print(json.dumps({"figures": figures, "notes": notes}, indent=2))
            return
        print(
            f"{len(crds)} CRDs; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.1f}; {options.runs} runs"
        )
        for input_name, by_tool in figures.items():
            ours = by_tool["kubectl-crd"]
            print(f"\n{input_name}: {ours['resources']} resources")
            print(
                f"{'tool':<18} {'res/s':>8} {'median':>8} {'min':>8} {'max':>8} {'peak MB':>8} {'ours/peer':>10}"
            )
            for tool, row in by_tool.items():
                ratio = (
                    ""
                    if tool == "kubectl-crd"
                    else f"{ours['per_second'] / row['per_second']:.2f}x"
                )
                print(
                    f"{tool:<18} {row['per_second']:8.0f} {row['median_s']:7.2f}s {row['min_s']:7.2f}s "
                    f"{row['max_s']:7.2f}s {row['peak_mb']:8d} {ratio:>10}"
                )
        for note in notes:
            print(f"note: {note}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
