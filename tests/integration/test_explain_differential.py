"""Differential test: ``kubectl crd explain`` prints exactly what the real ``kubectl explain`` prints.

Every CRD of the corpus (``$KUBECTL_CRD_CORPUS``, read in place) plus the unit tests'
Widget CRD is installed into the corpus-wide modules' control plane, in rounds (Gateway
API standard/experimental, the two kubebuilder CronJob tutorials and sample-controller's
two Foo files define the same CRD names with different schemas; see
``envtest.plan_rounds``). For each round:

1. the OpenAPI v3 documents the server publishes are fetched and compared with
   ``model.explain.publish`` for every served version (this is also how we wait until
   the server has published a round's schemas);
2. explain cases run through the real kubectl (in parallel, one cache directory per
   round) and through our CLI (in process, ``--crd`` on the CRD's file, answered from
   CRDs parsed once); stdout, the first stderr line and the exit code must be equal;
3. a few cases also run our CLI as a subprocess against the cluster (no ``--crd``).

Which cases (``KUBECTL_CRD_EXPLAIN_FULL=1`` runs every path instead):

- every served version: the root, and the root with ``--recursive``;
- every path whose node has fields (objects, arrays of objects, maps of objects),
  outside ObjectMeta, up to depth 2 in the preferred version and depth 1 in the others;
- a deterministic sample of deeper paths: the ``DEEP_SAMPLE`` paths (one in the other
  versions) with the smallest SHA-256 of ``<crd>@<version>:<path>``;
- one missing field per CRD (kubectl prints the header, then ``error: field "x" does
  not exist``).

``KUBECTL_CRD_EXPLAIN_ONLY=cert-manager,gateway-api-standard`` compares only the CRDs
whose file path contains one of those parts (every CRD is still installed).

The kubectl used is the newest one installed (``KUBECTL_CRD_EXPLAIN_KUBECTL`` overrides).
kubectl's explain output for CRDs is the same from 1.31 to 1.37; older releases differ
(no enums before 1.30, boolean ``additionalProperties`` misread before 1.31), and 1.36+
adds ``-R`` and ``EXTERNAL DOCS:`` (never published for CRDs), 1.37 ``--max-depth``. We
mirror the newest.

Measured (2 CPUs shared with other test runs, load average 2-16): CI mode compares
3,234 cases in 570 s of fixture time (9.7 min wall, 9.2 CPU-minutes, most of it in
kubectl processes and the API server); full mode on cert-manager, both Gateway API
channels, external-snapshotter, flux, the multiversion tutorial and the Widget CRD
compares 8,931 cases in 13 min. Every CRD in full mode is ~85,000 cases; run in three
parts (that one, then eight more projects: 9,042 cases in 8.5 min, then the other nine:
67,344 cases in 75 min) every case agreed: 85,317 of 85,317.

``KUBECTL_CRD_EXPLAIN_REGEN=1`` rewrites ``kubectl_crd/model/explain/metav1.py`` and
``tests/unit/explain/data/golden.json`` from this server and kubectl.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import difflib
import functools
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.root import main as cli_main
from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.model.explain import definition_name, field_entries, publish
from kubectl_crd.model.explain import metav1 as metav1_module
from kubectl_crd.model.explain.published import PublishedSchema
from kubectl_crd.model.schema import Schema, plain
from kubectl_crd.sources.base import CRDSource
from kubectl_crd.sources.fake import FakeSource
from kubectl_crd.sources.files import FileSource
from tests.integration.envtest import ControlPlane, newest_kubectl, plan_rounds

REPO = Path(__file__).resolve().parents[2]
WIDGETS = REPO / "tests" / "unit" / "explain" / "data" / "widgets.yaml"
GOLDEN = REPO / "tests" / "unit" / "explain" / "data" / "golden.json"
METAV1_MODULE = REPO / "kubectl_crd" / "model" / "explain" / "metav1.py"
FULL = os.environ.get("KUBECTL_CRD_EXPLAIN_FULL") == "1"
#: Comma-separated parts of CRD file paths: compare only those CRDs (all are installed).
ONLY = [part for part in os.environ.get("KUBECTL_CRD_EXPLAIN_ONLY", "").split(",") if part]
REGEN = os.environ.get("KUBECTL_CRD_EXPLAIN_REGEN") == "1"
DEEP_SAMPLE = 2
CLUSTER_CLI_CASES_PER_ROUND = 6
PUBLISH_TIMEOUT = 180.0
OBJECT_META_REF = metav1_module.OBJECT_META_REF
META_PREFIX = "io.k8s.apimachinery.pkg.apis.meta.v1."
_ESCAPE = re.compile(r"([ \t\r\n.,\[\]$@{}\\])")


# --------------------------------------------------------------------------------------
# cases


@dataclass(frozen=True)
class Case:
    crd: CustomResourceDefinition
    version: str
    path: tuple[str, ...] = ()
    recursive: bool = False

    @property
    def argument(self) -> str:
        return ".".join([self.crd.names.plural, *(_ESCAPE.sub(r"\\\1", p) for p in self.path)])

    def explain_args(self) -> list[str]:
        args = ["explain", self.argument, f"--api-version={self.crd.group}/{self.version}"]
        return [*args, "--recursive"] if self.recursive else args

    def __str__(self) -> str:
        return " ".join(self.explain_args()[1:])


@dataclass(frozen=True)
class Output:
    stdout: str
    stderr: str  # the first line
    code: int


def schema_paths(published: PublishedSchema) -> list[tuple[tuple[str, ...], bool]]:
    """Every field path kubectl can explain, with whether its node has fields.

    Fields are what kubectl's FIELDS list shows (``field_entries``), the first of a
    repeated name winning as in kubectl's walk. ObjectMeta (the same for every CRD)
    is not entered unless in full mode.
    """
    paths: list[tuple[tuple[str, ...], bool]] = []

    def visit(schema: Schema, prefix: tuple[str, ...]) -> None:
        seen: set[str] = set()
        for name, child, _ in field_entries(published, schema):
            if name in seen:
                continue
            seen.add(name)
            path = (*prefix, name)
            has_fields = next(iter(field_entries(published, child)), None) is not None
            paths.append((path, has_fields))
            if FULL or not _is_object_meta(child):
                visit(child, path)

    visit(published.root, ())
    return paths


def _is_object_meta(schema: Schema) -> bool:
    return any(branch.get("$ref") == OBJECT_META_REF for branch in schema.get("allOf") or ())


def cases_for(crd: CustomResourceDefinition) -> list[Case]:
    cases: list[Case] = []
    preferred = crd.preferred_version.name
    for version in crd.served_versions:
        cases += [Case(crd, version.name), Case(crd, version.name, recursive=True)]
        paths = schema_paths(publish(crd, version.name))
        if FULL:
            cases += [Case(crd, version.name, path) for path, _ in paths]
            continue
        # Other served versions are mostly near-copies: fewer paths there.
        depth, sample = (2, DEEP_SAMPLE) if version.name == preferred else (1, 1)
        shallow = [p for p, fields in paths if fields and len(p) <= depth and p[0] != "metadata"]
        cases += [Case(crd, version.name, path) for path in shallow]
        deep = [p for p, _ in paths if len(p) > depth and p[0] != "metadata"]
        deep.sort(key=lambda p: hashlib.sha256(f"{crd.name}@{version.name}:{p}".encode()).digest())
        cases += [Case(crd, version.name, path) for path in deep[:sample]]
    # A missing field: kubectl prints the header, then the error naming the last element.
    cases.append(Case(crd, preferred, ("spec", "kubectlCrdNoSuchField", "deeper")))
    return cases


# --------------------------------------------------------------------------------------
# running both sides


#: The explain processes' Go garbage collector off until a heap of 512 MiB: a kubectl
#: explain lives ~0.1 s, and on 2 busy cores GOGC=off cut the CPU of 40 ``kubectl version
#: --client`` runs from 3.9-4.2 s to 3.3-3.4 s. The output does not depend on it.
KUBECTL_ENV = {**os.environ, "GOGC": "off", "GOMEMLIMIT": "512MiB"}


def run_kubectl(kubectl: str, plane: ControlPlane, cache: Path, case: Case) -> Output:
    proc = subprocess.run(
        [kubectl, f"--kubeconfig={plane.kubeconfig}", f"--cache-dir={cache}", *case.explain_args()],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env=KUBECTL_ENV,
    )
    return Output(proc.stdout, _first_line(proc.stderr), proc.returncode)


#: Our explain with only kubectl's section on stdout.
KUBECTL_ONLY = ["--kubectl"]


@contextlib.contextmanager
def parsed_crd_files(parsed: dict[str, CustomResourceDefinition]) -> Iterator[None]:
    """``--crd FILE`` answered from already parsed CRDs (the file path is tested elsewhere).

    Parsing argo's 2.8 MB CRD again for each of its cases would cost more CPU than
    the kubectl processes we compare with.
    """
    original = Application.crd_source

    def crd_source(self: Application, crd_paths: Sequence[str] = (), **_: Any) -> CRDSource:
        return FakeSource([parsed[path] for path in crd_paths], description="parsed")

    Application.crd_source = crd_source  # type: ignore[method-assign]
    try:
        yield
    finally:
        Application.crd_source = original  # type: ignore[method-assign]


def run_ours(case: Case, crd_file: Path) -> Output:
    """Our CLI in process: ``kubectl-crd explain --crd FILE ...`` (see ``parsed_crd_files``)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    args = case.explain_args()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            cli_main([args[0], *KUBECTL_ONLY, "--crd", str(crd_file), *args[1:]])
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return Output(stdout.getvalue(), _first_line(stderr.getvalue()), code)


def run_ours_against_cluster(plane: ControlPlane, case: Case, flag: list[str]) -> Output:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kubectl_crd",
            f"--kubeconfig={plane.kubeconfig}",
            case.explain_args()[0],
            *flag,
            *case.explain_args()[1:],
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return Output(proc.stdout, _first_line(proc.stderr), proc.returncode)


def _first_line(text: str) -> str:
    lines = [line for line in text.splitlines() if not line.startswith(("note:", "warning:"))]
    return lines[0] if lines else ""


# --------------------------------------------------------------------------------------
# the rounds


@dataclass
class Results:
    kubectl: str = ""
    compared: int = 0
    agreed: int = 0
    disagreements: list[tuple[Case, Output, Output]] = field(default_factory=list)
    cluster_compared: int = 0
    cluster_disagreements: list[tuple[Case, Output, Output]] = field(default_factory=list)
    published_compared: int = 0
    published_mismatches: list[str] = field(default_factory=list)
    metav1_mismatches: list[str] = field(default_factory=list)
    server_metav1: dict[str, Any] = field(default_factory=dict)
    timings: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def corpus(corpus_dir: Path) -> list[tuple[Path, CustomResourceDefinition]]:
    files = [*sorted((corpus_dir / "crds").glob("*/*.yaml")), WIDGETS]
    pairs: list[tuple[Path, CustomResourceDefinition]] = []
    for path in files:
        source = FileSource([str(path)])
        crds = list(source.crds())
        assert not source.problems(), [str(p) for p in source.problems()]
        pairs += [(path, crd) for crd in crds]
    return pairs


@pytest.fixture(scope="module")
def openapi_client(
    corpus_apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[KubeClient]:
    """Our client on the module's control plane (its own HOME: no user's caches)."""
    config = ClusterConfig(kubeconfig=str(corpus_apiserver.kubeconfig))
    home = tmp_path_factory.mktemp("home")
    with KubeClient(config, environ={"HOME": str(home)}) as client:
        yield client


@pytest.fixture(scope="module")
def results(
    corpus_apiserver: ControlPlane,
    openapi_client: KubeClient,
    corpus: list[tuple[Path, CustomResourceDefinition]],
    tmp_path_factory: pytest.TempPathFactory,
) -> Results:
    plane = corpus_apiserver
    kubectl = newest_kubectl()
    results = Results(kubectl=kubectl)
    workers = max(2, (os.cpu_count() or 2) * 2)
    by_file = {path: crd for path, crd in corpus}
    began = time.monotonic()
    for number, round_ in enumerate(plan_rounds([(p, c.name) for p, c in corpus]), start=1):
        start = time.monotonic()
        crds = [by_file[path] for path in round_.files]
        files = dict(zip(round_.names, round_.files, strict=True))
        plane.use_crds(round_)
        installed = time.monotonic()
        docs = _wait_published(openapi_client, crds, results)
        published = time.monotonic()
        if number == 1:
            _check_metav1(docs, crds, results)
            if REGEN:
                _regenerate(plane, kubectl, docs, corpus, tmp_path_factory.mktemp("golden-cache"))

        chosen = [c for c in crds if not ONLY or any(o in str(files[c.name]) for o in ONLY)]
        cases = [case for crd in chosen for case in cases_for(crd)]
        cache = tmp_path_factory.mktemp(f"kube-cache-round{number}")
        parsed = {str(files[crd.name]): crd for crd in crds}
        with concurrent.futures.ThreadPoolExecutor(workers) as pool, parsed_crd_files(parsed):
            pending = pool.map(functools.partial(run_kubectl, kubectl, plane, cache), cases)
            ours = [run_ours(case, files[case.crd.name]) for case in cases]
            theirs = list(pending)
        for case, mine, real in zip(cases, ours, theirs, strict=True):
            results.compared += 1
            if mine == real:
                results.agreed += 1
            else:
                results.disagreements.append((case, mine, real))
        compared = time.monotonic()

        kubectl_output = dict(zip(map(id, cases), theirs, strict=True))
        picked = _spread(cases, CLUSTER_CLI_CASES_PER_ROUND)
        flag = KUBECTL_ONLY
        for case in picked:
            mine = run_ours_against_cluster(plane, case, flag)
            real = kubectl_output[id(case)]
            results.cluster_compared += 1
            if mine != real:
                results.cluster_disagreements.append((case, mine, real))
        results.timings.append(
            f"round {number}: {len(crds)} CRDs installed in {installed - start:.0f} s, "
            f"published in {published - installed:.0f} s, {len(cases)} cases compared in "
            f"{compared - published:.0f} s, {len(picked)} cluster CLI runs in "
            f"{time.monotonic() - compared:.0f} s"
        )
    results.timings.append(f"total {time.monotonic() - began:.0f} s with {kubectl}")
    return results


def _spread(cases: Sequence[Case], count: int) -> list[Case]:
    """``count`` cases spread over the list (deterministic)."""
    if len(cases) <= count:
        return list(cases)
    step = len(cases) / count
    return [cases[int(i * step)] for i in range(count)]


def _fetch_documents(client: KubeClient, paths: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The OpenAPI v3 documents at ``paths`` ({} for one not served yet), fetched in process.

    Not one ``kubectl get --raw`` each: a poll fetches every group-version of the round,
    and each kubectl process costs ~100 ms CPU (mostly Go start-up) for a request that
    costs the server ~5 ms.
    """

    def fetch(path: str) -> tuple[str, dict[str, Any]]:
        try:
            return path, client.get(f"/openapi/v3/{path}")
        except ApiError:  # 404 until the server publishes the group-version
            return path, {}

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return dict(pool.map(fetch, paths))


def _wait_published(
    client: KubeClient, crds: Sequence[CustomResourceDefinition], results: Results
) -> dict[str, dict[str, Any]]:
    """Poll the server's OpenAPI v3 documents until they hold what we expect.

    The server publishes asynchronously after a CRD is Established, and a redefined
    CRD's old schema can linger for a moment; so we wait until every served version's
    schema equals ``publish()``. On timeout the remaining differences are recorded.
    """
    expected: dict[tuple[str, str], dict[str, Any]] = {}
    for crd in crds:
        for version in crd.served_versions:
            published = publish(crd, version.name)
            expected[(f"apis/{crd.group}/{version.name}", published.name)] = plain(published.root)
    deadline = time.monotonic() + PUBLISH_TIMEOUT
    while True:
        docs = _fetch_documents(client, sorted({path for path, _ in expected}))
        mismatches = []
        for (path, name), schema in expected.items():
            served = docs.get(path, {}).get("components", {}).get("schemas", {}).get(name)
            if served != schema:
                mismatches.append(_describe_mismatch(path, name, schema, served))
        if not mismatches or time.monotonic() > deadline:
            break
        time.sleep(2)
    results.published_compared += len(expected)
    results.published_mismatches += mismatches
    return docs


def _describe_mismatch(path: str, name: str, ours: Any, served: Any) -> str:
    if served is None:
        return f"{path} {name}: not published"
    diff = difflib.unified_diff(
        json.dumps(served, indent=1, sort_keys=True).splitlines(),
        json.dumps(ours, indent=1, sort_keys=True).splitlines(),
        "server",
        "ours",
        lineterm="",
        n=1,
    )
    return f"{path} {name}:\n" + "\n".join(list(diff)[:30])


def _check_metav1(
    docs: dict[str, dict[str, Any]], crds: Sequence[CustomResourceDefinition], results: Results
) -> None:
    """The embedded meta/v1 schemas equal what this server publishes next to a CRD kind."""
    for crd in crds:
        version = crd.preferred_version.name
        doc = docs.get(f"apis/{crd.group}/{version}", {})
        schemas = doc.get("components", {}).get("schemas", {})
        kind = schemas.get(definition_name(crd.group, version, crd.names.kind))
        if kind is None or "metadata" not in kind.get("properties", {}):
            continue
        server = {
            "metadataProperty": kind["properties"]["metadata"],
            "typeMetaApiVersion": kind["properties"]["apiVersion"],
            "typeMetaKind": kind["properties"]["kind"],
            "schemas": {n: schemas.get(n) for n in metav1_module.SCHEMAS},
        }
        ours = {
            "metadataProperty": metav1_module.METADATA_PROPERTY,
            "typeMetaApiVersion": metav1_module.TYPE_META_API_VERSION,
            "typeMetaKind": metav1_module.TYPE_META_KIND,
            "schemas": metav1_module.SCHEMAS,
        }
        results.server_metav1 = server
        results.metav1_mismatches += [key for key in server if server[key] != ours[key]]
        return


# --------------------------------------------------------------------------------------
# regeneration of the data that unit tests and the model embed


def python_literal(value: Any, depth: int = 0) -> str:
    """JSON data as a Python literal, one item per line, as ruff format leaves it."""
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{python_literal(k)}: {python_literal(value[k], depth + 1)}," for k in sorted(value)]  # fmt: skip
        return "{\n" + "\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        items = [f"{inner}{python_literal(item, depth + 1)}," for item in value]
        return "[\n" + "\n".join(items) + f"\n{pad}]"
    if isinstance(value, str):
        quoted = json.dumps(value, ensure_ascii=False)  # JSON's escapes are Python's too
        if '"' in value and "'" not in value:  # ruff's choice: the quote needing no escapes
            quoted = "'" + quoted[1:-1].replace('\\"', '"') + "'"
        return quoted
    assert value is None or isinstance(value, bool | int | float), value
    return repr(value)


def render_metav1_module(data: dict[str, Any], server_version: str) -> str:
    # A Python literal rather than JSON text: the module loads without importing json
    # (and re with it), which is start-up time explain --crd does not have to spend.
    text = python_literal(data)
    assert '"""' not in text
    return f'''"""Generated data: the ``meta/v1`` schemas in a CRD's published OpenAPI v3 document.

Taken verbatim from ``GET /openapi/v3/apis/<group>/<version>`` of kube-apiserver
{server_version} (the integration-test server): the definitions reachable from ObjectMeta,
the TypeMeta ``apiVersion``/``kind`` properties and the ``metadata`` property the API
server adds to every CRD kind. The descriptions are the Go doc comments of
k8s.io/apimachinery and change between Kubernetes releases; kubectl explain prints
them, so they come from the server version we mirror. Do not edit by hand; the
integration test ``test_explain_differential.py`` checks this against the server and
rewrites it with ``KUBECTL_CRD_EXPLAIN_REGEN=1``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

SERVER_VERSION = "{server_version}"

_DATA: dict[str, Any] = {text}

OBJECT_META_REF = "#/components/schemas/{META_PREFIX}ObjectMeta"
METADATA_PROPERTY: dict[str, Any] = _DATA["metadataProperty"]
TYPE_META_API_VERSION: dict[str, Any] = _DATA["typeMetaApiVersion"]
TYPE_META_KIND: dict[str, Any] = _DATA["typeMetaKind"]
SCHEMAS: dict[str, dict[str, Any]] = _DATA["schemas"]
'''


def _regenerate(
    plane: ControlPlane,
    kubectl: str,
    docs: dict[str, dict[str, Any]],
    corpus: list[tuple[Path, CustomResourceDefinition]],
    cache: Path,
) -> None:
    version = json.loads(plane.kubectl("version", "-o", "json").stdout)["serverVersion"]
    probe = Results()
    _check_metav1(docs, [crd for _, crd in corpus], probe)
    METAV1_MODULE.write_text(render_metav1_module(probe.server_metav1, version["gitVersion"]))
    golden = json.loads(GOLDEN.read_text())
    client = json.loads(
        subprocess.run(
            [kubectl, "version", "--client", "-o", "json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )["clientVersion"]["gitVersion"]
    golden["_comment"] = re.sub(
        r"kubectl v[\d.]+ against kube-apiserver v[\d.]+",
        f"kubectl {client} against kube-apiserver {version['gitVersion']}",
        golden["_comment"],
    )
    for case in golden["cases"]:
        proc = subprocess.run(
            [kubectl, f"--kubeconfig={plane.kubeconfig}", f"--cache-dir={cache}", "explain",
             *case["args"]],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        case.update(stdout=proc.stdout, stderr=_first_line(proc.stderr), exit=proc.returncode)
    GOLDEN.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------------------
# the tests


def test_explain_is_kubectl_explain_on_the_corpus(
    corpus_apiserver: ControlPlane,
    results: Results,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    record_property: Callable[[str, object], None],
) -> None:
    """One test item, so that pytest-xdist never runs the corpus rounds on two workers.

    The summary goes straight to the terminal (without xdist) and into the JUnit
    properties.
    """
    summary = [
        f"explain agreement: {results.agreed}/{results.compared} ({'full' if FULL else 'CI'} mode)",
        f"published schemas compared with the server: {results.published_compared}",
        "cluster CLI agreement: "
        f"{results.cluster_compared - len(results.cluster_disagreements)}/{results.cluster_compared}",
        *results.timings,
    ]
    with capsys.disabled():
        print("\n" + "\n".join(summary))
    for number, line in enumerate(summary):
        record_property(f"explain_summary_{number}", line)
    failures = [
        *_published_failures(results),
        *_agreement_failures(results),
        *_cluster_failures(results),
        *_golden_failures(corpus_apiserver, results, tmp_path),
    ]
    assert not failures, "\n\n".join(failures)


def _published_failures(results: Results) -> list[str]:
    failures = [f"published schema differs: {m}" for m in results.published_mismatches[:10]]
    if not results.server_metav1:
        failures.append("no CRD document to compare meta/v1 with")
    if results.metav1_mismatches:
        failures.append(
            f"metav1.py differs from the server in {results.metav1_mismatches}; "
            "rerun with KUBECTL_CRD_EXPLAIN_REGEN=1"
        )
    return failures


def _agreement_failures(results: Results) -> list[str]:
    report = []
    for case, mine, real in results.disagreements[:10]:
        diff = difflib.unified_diff(
            real.stdout.splitlines(), mine.stdout.splitlines(), "kubectl", "ours", lineterm="", n=2
        )
        report.append(
            f"--- {case}\nexit kubectl={real.code} ours={mine.code}; "
            f"stderr kubectl={real.stderr!r} ours={mine.stderr!r}\n" + "\n".join(list(diff)[:40])
        )
    if results.agreed == results.compared:
        return []
    return [
        f"{results.compared - results.agreed} disagreements, first ones:\n" + "\n\n".join(report)
    ]


def _cluster_failures(results: Results) -> list[str]:
    if not results.cluster_compared:
        return ["no case ran our CLI against the cluster"]
    return [
        f"against the cluster, {case}: ours={mine} kubectl={real}"
        for case, mine, real in results.cluster_disagreements[:5]
    ]


def _golden_failures(plane: ControlPlane, results: Results, cache: Path) -> list[str]:
    """data/golden.json (the unit tests' expectation) still holds for this kubectl."""
    stale = []
    for case in json.loads(GOLDEN.read_text())["cases"]:
        proc = subprocess.run(
            [results.kubectl, f"--kubeconfig={plane.kubeconfig}", f"--cache-dir={cache}",
             "explain", *case["args"]],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        got = (proc.stdout, _first_line(proc.stderr), proc.returncode)
        if got != (case["stdout"], case["stderr"], case["exit"]):
            stale.append(" ".join(case["args"]))
    if not stale:
        return []
    return [f"golden.json is stale for {stale}; rerun with KUBECTL_CRD_EXPLAIN_REGEN=1"]
