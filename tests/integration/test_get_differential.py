"""``kubectl crd get`` against the real API server's Table and the real ``kubectl get``.

A CRD made for the purpose exercises every column type, missing values, arrays,
filters, negative indexes, non-scalar strings, bad dates and a priority-1 column; corpus
CRDs with ``additionalPrinterColumns`` (the first install round) add their samples. For
every object, each cell ``model.columns`` computes (from the object the server returns,
and offline from the same file after pruning and defaulting) is compared with the
cell of the server's Table (``Accept: application/json;as=Table;v=v1;g=meta.k8s.io``);
then our text output with the real ``kubectl get`` (plain, ``-o wide``, ``-A
--show-labels``, ``-L``). Ages are computed at request time on both sides: a date cell
may differ by up to 2 seconds of clock (``7s`` vs ``8s``), and text comparisons are
retried when an age ticked between the two commands. The counts are printed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from kubectl_crd.io import read_inputs
from kubectl_crd.kube.client import TABLE_ACCEPT, KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.columns import cell_text, plan_columns, row_cells
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.schema import plain
from kubectl_crd.sources.files import FileSource
from kubectl_crd.validation.documents import CRDIndex, validate_document
from kubectl_crd.validation.pipeline import default_as_read
from tests.integration.envtest import ControlPlane, plan_rounds

SCRIPT = Path(sys.executable).with_name("kubectl-crd")
KUBECTL_CRD = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "kubectl_crd"]
MAX_CORPUS_CRDS = 16  # keeps the install (the slow part) near 20 s

COLUMNS_CRD = """
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.cells.example.com}
spec:
  group: cells.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
    additionalPrinterColumns:
    - {name: Text, type: string, jsonPath: .spec.text}
    - {name: Object, type: string, jsonPath: .spec.object}
    - {name: Hosts, type: string, jsonPath: ".spec.servers[*].hosts"}
    - {name: Count, type: integer, jsonPath: .spec.count}
    - {name: Ratio, type: number, jsonPath: .spec.ratio}
    - {name: Enabled, type: boolean, jsonPath: .spec.on}
    - {name: Ready, type: string, jsonPath: ".status.conditions[?(@.type==\\"Ready\\")].status"}
    - {name: Last, type: string, jsonPath: ".spec.list[-1]"}
    - {name: When, type: date, jsonPath: .spec.when}
    - {name: Nested, type: string, jsonPath: ".spec.object['a.b']"}
    - {name: Wide, type: string, jsonPath: .spec.wide, priority: 1}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
"""

WIDGETS = [
    {"text": "plain", "count": 3, "ratio": 1.5, "on": True, "list": ["a", "b"], "wide": "w"},
    {
        "text": "multi\nline",
        "object": {"x": 1, "a.b": "dotted", "arr": [1, 2]},
        "servers": [{"hosts": ["foo", "bar"]}, {"hosts": ["baz"]}],
        "count": 3.9,
        "ratio": 1000000,
        "on": "yes",
        "when": "2001-02-03T04:05:06Z",
    },
    {"count": "seven", "ratio": 0.000012, "list": [], "when": "not a date", "text": 12},
    {"text": True, "ratio": 2.5e21, "when": "2999-01-01T00:00:00Z", "list": [1.5]},
    {"when": "", "object": [], "servers": []},
]


FLAG_SETS: list[list[str]] = [
    [],
    ["-o", "wide"],
    ["-A", "--show-labels"],
    ["-L", "app,example.com/tier"],
    ["--no-headers"],
    ["-o", "name"],
    ["--sort-by", "{.metadata.labels.rank}", "-o", "wide"],
    ["--sort-by", ".metadata.labels.example\\.com/tier"],
    ["-o", "jsonpath={range .items[*]}{.metadata.name}:{.spec.count} {.spec.object}{'\\n'}{end}"],
    ["-o", "custom-columns=N:.metadata.name,T:.spec.text,H:.spec.servers[*].hosts,R:.spec.ratio"],
    ["--chunk-size", "2"],  # pages joined as kubectl joins them
    ["--chunk-size", "0", "-o", "wide"],
    ["--field-selector", "metadata.name!=w0"],
    ["--field-selector", "metadata.namespace=nowhere"],  # "No resources found" on both
]


# Offline cells that differ from the server's, with the reason; an entry that no longer
# differs fails the test, so the list cannot go stale. Keys: "<crd> <column>".
KNOWN_OFFLINE_GAPS: dict[str, str] = {}


def widget_documents(namespace: str) -> list[dict[str, Any]]:
    out = []
    for number, spec in enumerate(WIDGETS):
        obj: dict[str, Any] = {
            "apiVersion": "cells.example.com/v1",
            "kind": "Widget",
            "metadata": {
                "name": f"w{number}",
                "namespace": namespace,
                "labels": {
                    "app": f"a{number}",
                    "example.com/tier": "t" * number,
                    "rank": f"r{[10, 7, 4, 1, 0][number]}",  # natural order reverses them
                },
            },
            "spec": spec,
        }
        if number == 1:
            obj["status"] = {"conditions": [{"type": "Other"}, {"type": "Ready", "status": "True"}]}
        out.append(obj)
    return out


def corpus_crds(corpus: Path) -> list[CustomResourceDefinition]:
    source = FileSource([str(p) for p in sorted((corpus / "crds").glob("*/*.yaml"))])
    crds = [crd for crd in source.crds() if any(v.printer_columns for v in crd.versions)]
    by_file = {(crd.location.file if crd.location else "", crd.name): crd for crd in crds}
    first = plan_rounds((Path(file), name) for file, name in by_file)[0]
    return [by_file[str(f), n] for f, n in zip(first.files, first.names, strict=True)]


def corpus_samples(
    corpus: Path, crds: list[CustomResourceDefinition]
) -> tuple[list[Path], list[CustomResourceDefinition]]:
    """Sample files whose CRDs are all among ``crds``, and those CRDs (at most
    ``MAX_CORPUS_CRDS`` files of them)."""
    files = {str(Path(crd.location.file).resolve()) for crd in crds if crd.location}
    chosen: list[Path] = []
    used: set[str] = set()
    for entry in json.loads((corpus / "samples" / "INDEX.json").read_text()):
        docs = entry.get("docs") or []
        crd_files = {str((corpus / c).resolve()) for d in docs for c in d.get("crd") or []}
        if not docs or not crd_files or not crd_files <= files or entry.get("expect") == "invalid":
            continue
        if len(used | crd_files) > MAX_CORPUS_CRDS:
            continue
        used |= crd_files
        chosen.append(corpus / entry["file"])
    kept = [c for c in crds if c.location and str(Path(c.location.file).resolve()) in used]
    return chosen, kept


def offline_objects(
    files: list[Path], crds: list[CustomResourceDefinition], namespace: str
) -> dict[tuple[str, str, str], Any]:
    """Every object of ``files`` as our validation engine says the server stores it and
    then returns it (defaulted again as read, as ``get -f`` shows it), by (group, kind,
    name)."""
    index = CRDIndex(crds)
    stored: dict[tuple[str, str, str], Any] = {}
    for document in read_inputs([str(f) for f in files]):
        content = document.content
        if not isinstance(content, dict) or "metadata" not in content:
            continue
        result = validate_document(document, index)
        if result.status == "valid" and result.stored is not None:
            group, _, version = str(content.get("apiVersion", "")).partition("/")
            key = (group, str(content.get("kind")), str(content["metadata"].get("name")))
            crd = index.lookup(group, str(content.get("kind")))
            assert crd is not None
            obj = plain(result.stored)
            default_as_read(obj, next(v for v in crd.versions if v.name == version))
            stored.setdefault(key, obj)  # kubectl create: the first one wins
    return stored


def ages_close(ours: str, theirs: str) -> bool:
    """Equal, or two ages (HumanDuration: ``56s``, ``2m56s``) at most 2 s apart (both
    computed at request time)."""
    if ours == theirs:
        return True
    a, b = age_seconds(ours), age_seconds(theirs)
    return a is not None and b is not None and abs(a - b) <= 2


#: the seconds of each unit HumanDuration writes
_UNIT_SECONDS = {"y": 365 * 86400, "d": 86400, "h": 3600, "m": 60, "s": 1}


def age_seconds(cell: str) -> int | None:
    """The seconds a HumanDuration cell says (``2m56s``: 176); None for another text."""
    if not cell or not HUMAN_DURATION.fullmatch(cell) or cell == "<unknown>":
        return None
    return sum(int(n) * _UNIT_SECONDS[unit] for n, unit in re.findall(r"(\d+)([ydhms])", cell))


def run_both(
    plane: ControlPlane, *args: str, ours_only: tuple[str, ...] = ()
) -> tuple[str, str, str]:
    """kubectl get and kubectl crd get started together (so that ages are read in the
    same second): kubectl's stdout, ours, and our stderr. ``ours_only`` flags go to ours
    (``--crd``: the table computed here, not the server's)."""
    config = [f"--kubeconfig={plane.kubeconfig}", f"--context={plane.context}"]
    commands = [
        [plane.kubectl_binary, "get", *args, *config],
        [*KUBECTL_CRD, "get", *args, *config, *ours_only],
    ]
    running = [
        subprocess.Popen(
            c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=plane.env()
        )
        for c in commands
    ]
    (real, _), (ours, errors) = (p.communicate(timeout=120) for p in running)
    assert running[1].returncode == 0, errors
    return real, ours, errors


def test_cells_and_text_match_the_server_and_kubectl(
    apiserver: ControlPlane, namespace: str, tmp_path: Path, corpus_dir: Path
) -> None:
    widget_crd = tmp_path / "widgets-crd.yaml"
    widget_crd.write_text(COLUMNS_CRD)
    samples, crds = corpus_samples(corpus_dir, corpus_crds(corpus_dir))
    apiserver.install_crds([widget_crd, *sorted({c.location.file for c in crds if c.location})])
    widgets = tmp_path / "widgets.yaml"
    widgets.write_text(yaml.safe_dump_all(widget_documents(namespace)))
    apiserver.kubectl("create", "-f", str(widgets))
    for sample in samples:
        apiserver.kubectl("create", "-n", namespace, "-f", str(sample), check=False)

    crds.append(FileSource([str(widget_crd)]).crds()[0])
    client = KubeClient(ClusterConfig(kubeconfig=str(apiserver.kubeconfig)))
    gaps_seen: set[str] = set()
    offline = offline_objects([widgets, *samples], crds, namespace)
    cells = mismatched = objects_seen = lines = offline_cells = 0
    problems: list[str] = []
    text_checked: list[str] = []
    for crd in crds:
        version = crd.preferred_version
        if not version.printer_columns:
            continue
        scope = f"/namespaces/{namespace}" if crd.namespaced else ""
        path = f"/apis/{crd.group}/{version.name}{scope}/{crd.names.plural}"
        listed = client.request("GET", path)
        if not listed.get("items"):
            continue
        table = client.request("GET", path, accept=TABLE_ACCEPT)
        plan = plan_columns(version.printer_columns)
        names = [c["name"] for c in table["columnDefinitions"]]
        assert names == [c.name for c in plan.columns], crd.name
        by_name = {item["metadata"]["name"]: item for item in listed["items"]}
        for row in table["rows"]:
            obj = by_name[row["object"]["metadata"]["name"]]
            objects_seen += 1
            ours = [cell_text(c) for c in row_cells(plan, obj)]
            theirs = [cell_text(c) for c in row["cells"]]
            for column, mine, server in zip(plan.columns, ours, theirs, strict=True):
                cells += 1
                close = ages_close(mine, server) if column.type == "date" else mine == server
                if not close:
                    mismatched += 1
                    problems.append(
                        f"{crd.name} {obj['metadata']['name']} {column.name}: "
                        f"ours {mine!r}, server {server!r}"
                    )
            # offline: the same object from its file, pruned and defaulted by our engine;
            # date cells are left out (the file has no creationTimestamp)
            from_file = offline.get((crd.group, crd.names.kind, obj["metadata"]["name"]))
            if from_file is None:
                continue
            computed = [cell_text(c) for c in row_cells(plan, from_file)]
            for column, mine, server in zip(plan.columns, computed, theirs, strict=True):
                if column.type == "date":
                    continue
                offline_cells += 1
                if mine != server and f"{crd.name} {column.name}" in KNOWN_OFFLINE_GAPS:
                    gaps_seen.add(f"{crd.name} {column.name}")
                elif mine != server:
                    problems.append(
                        f"offline {crd.name} {obj['metadata']['name']} {column.name}: "
                        f"ours {mine!r}, server {server!r}"
                    )
        text_checked.append(crd.names.plural + "." + crd.group)

    # the live table is the server's (as kubectl's); with --crd it is computed here from
    # the listed objects, so the purpose-made CRD's lines are compared both ways
    runs = [(resource, flags, ()) for resource in text_checked for flags in FLAG_SETS[:2]]
    widgets_resource = next(r for r in text_checked if r.endswith(".cells.example.com"))
    runs += [(widgets_resource, flags, ()) for flags in FLAG_SETS[2:]]
    runs += [(widgets_resource, flags, ("--crd", str(widget_crd))) for flags in FLAG_SETS]
    for resource, flags, ours_only in runs:
        scope = [] if "-A" in flags else ["-n", namespace]
        for _attempt in range(3):
            real, ours, _ = run_both(apiserver, resource, *scope, *flags, ours_only=ours_only)
            if ours == real:
                break
            time.sleep(0.2)
        real_lines = real.splitlines()
        our_lines = ours.splitlines()
        if "-A" in flags:  # other tests' namespaces may hold objects too
            real_lines = [line for i, line in enumerate(real_lines) if i == 0 or namespace in line]
            our_lines = [line for i, line in enumerate(our_lines) if i == 0 or namespace in line]
        lines += len(real_lines)
        ticked = ages_ticked(our_lines, real_lines)
        if "-A" in flags:
            # widths depend on the other namespaces' rows, compare the words
            real_lines = [" ".join(line.split()) for line in real_lines]
            our_lines = [" ".join(line.split()) for line in our_lines]
        if our_lines != real_lines and not ticked:
            problems.append(
                f"kubectl get {resource} {' '.join(flags)} {' '.join(ours_only)}:\n--- kubectl\n"
                + "\n".join(real_lines)
                + "\n--- ours\n"
                + "\n".join(our_lines)
            )

    # get -f over the files just created, against kubectl get: the same rows in the same
    # order (ages aside: 0s offline, the seconds since the create on the server); a
    # table where we show an object the server refused (exit 1) has a row kubectl lacks
    files = [a for f in [widgets, *samples] for a in ("-f", str(f))]
    crd_files = sorted({c.location.file for c in crds if c.location} | {str(widget_crd)})
    offline_get = [*KUBECTL_CRD, "get", "-n", namespace, *files]
    offline_get += [a for f in crd_files for a in ("--crd", f)]
    offline_tables = refused_tables = 0
    offline_compared: list[str] = []
    for resource in text_checked:
        for flags in FLAG_SETS[:2]:
            real = apiserver.kubectl("get", resource, "-n", namespace, *flags).stdout
            done = subprocess.run(
                [*offline_get, resource, *flags],
                capture_output=True,
                text=True,
                env=apiserver.env(),
            )
            if done.returncode != 0:
                refused_tables += 1
                continue
            offline_tables += 1
            offline_compared.append(resource)
            lines += len(real.splitlines())
            if words(done.stdout, ages=True) != words(real, ages=True):
                problems.append(
                    f"get -f {resource} {' '.join(flags)}:\n--- kubectl\n{real}--- ours\n"
                    + done.stdout
                )
    print(
        f"\nget differential: {cells - mismatched}/{cells} cells of {objects_seen} objects "
        f"({len(text_checked)} resources) agree with the server's Table; "
        f"{offline_cells} cells computed offline from the files compared; "
        f"{lines} lines of kubectl get compared; {len(samples)} corpus sample files; "
        f"get -f against kubectl get after create: {offline_tables} tables compared, "
        f"{refused_tables} left out (an object the server refused)"
    )
    # the purpose-made CRD's table at least, plain and wide (its objects all created)
    assert offline_compared.count(widgets_resource) == 2
    assert objects_seen >= len(WIDGETS)
    assert gaps_seen == set(KNOWN_OFFLINE_GAPS), "stale KNOWN_OFFLINE_GAPS entries"
    assert not problems, "\n".join(problems)


KNATIVE_SERVICES = "serving.knative.dev"
KNATIVE_SAMPLE = "samples/knative-serving/benchmarks__load-test__load-test-setup.yaml"
KNATIVE_CRD = "crds/knative-serving/service.yaml"


#: what kubectl's AGE cell can read: apimachinery's duration.HumanDuration ("0s", "59s",
#: "2m29s", "3h", "5d4h", "2y10d") or "<unknown>"
HUMAN_DURATION = re.compile(r"(?=.)(\d+y)?(\d+d)?(\d+h)?(\d+m)?(\d+s)?|<unknown>")


def words(text: str, *, ages: bool = False) -> list[list[str]]:
    """Each line's words (column widths left out); ``ages``: the cells of the AGE column
    as ``<age>`` (a created object's is 0s offline, the time since its create on the
    server: seconds on a quiet machine, minutes on a busy one). The AGE column is found
    by its header: kubectl pads every cell to its column, so the header's offsets cut
    each line of the same table."""
    lines = text.splitlines()
    if not ages or not lines:
        return [line.split() for line in lines]
    names, rows = table_cells(lines)
    return [names] + [
        [
            "<age>" if name == "AGE" and HUMAN_DURATION.fullmatch(cell) else cell
            for name, cell in zip(names, cells, strict=True)
        ]
        for cells in rows
    ]


def table_cells(lines: list[str]) -> tuple[list[str], list[list[str]]]:
    """A table's header names and each row's cells, cut at the header's offsets."""
    header = [(m.start(), m.group()) for m in re.finditer(r"\S+(?: \S+)*", lines[0])]
    starts = [start for start, _name in header]
    ends = [*starts[1:], None]
    rows = [[line[start:end].strip() for start, end in zip(starts, ends, strict=True)]
            for line in lines[1:]]  # fmt: skip
    return [name for _start, name in header], rows


def ages_ticked(ours: list[str], theirs: list[str]) -> bool:
    """The same table (``words`` with ages left out) whose AGE cells are each at most
    2 s apart: read at each command's own request time, an age can tick between
    kubectl's and ours however close their starts (3 tries apart on a loaded machine)."""
    if (
        not ours
        or not theirs
        or words("\n".join(ours), ages=True) != words("\n".join(theirs), ages=True)
    ):
        return False
    (names, our_rows), (_, their_rows) = table_cells(ours), table_cells(theirs)
    return all(
        ages_close(mine, real)
        for our_cells, their_cells in zip(our_rows, their_rows, strict=True)
        for name, mine, real in zip(names, our_cells, their_cells, strict=True)
        if name == "AGE"
    )


def test_get_f_lists_as_kubectl_get_after_create_and_a_dump_as_stored(
    apiserver: ControlPlane, namespace: str, tmp_path: Path, corpus_dir: Path
) -> None:
    """``get -f FILE`` against ``kubectl get`` after ``kubectl create -f FILE``: the rows in
    the server's order (knative's load-test setup lists its Services out of name order:
    the one table of 212 corpus tables that differed) and created objects without the
    status a status subresource drops; then the objects dumped with ``kubectl get -o
    yaml`` after a status write: shown as stored, status and age kept, line for line."""
    crd = corpus_dir / KNATIVE_CRD
    apiserver.install_crds([crd])
    sample = tmp_path / "load-test-setup.yaml"
    text = (corpus_dir / KNATIVE_SAMPLE).read_text()
    sample.write_text(text.replace("namespace: default", f"namespace: {namespace}"))
    names = re.findall(r"^  name: (\S+)", text, re.MULTILINE)
    assert names != sorted(names)  # the file's order is not the server's
    apiserver.kubectl("create", "-f", str(sample))
    resource = f"services.{KNATIVE_SERVICES}"
    config = [f"--kubeconfig={apiserver.kubeconfig}", f"--context={apiserver.context}"]
    offline = [*KUBECTL_CRD, "get", resource, "-n", namespace, "--crd", str(crd), *config]
    compared = 0
    for flags in ([], ["-o", "wide"]):
        real = apiserver.kubectl("get", resource, "-n", namespace, *flags).stdout
        ours = subprocess.run(
            [*offline, "-f", str(sample), *flags], capture_output=True, text=True, check=True
        ).stdout
        assert [line[0] for line in words(ours)[1:]] == sorted(names)
        assert words(ours, ages=True) == words(real, ages=True)
        compared += len(real.splitlines())

    # a status written through /status, then the objects dumped as a user dumps them
    status = {
        "url": "http://load-test.example.com",
        "latestCreatedRevisionName": "rev-00001",
        "latestReadyRevisionName": "rev-00001",
        "conditions": [{"type": "Ready", "status": "True", "reason": "Up"}],
    }
    for name in names:
        apiserver.kubectl(
            "patch", resource, name, "-n", namespace, "--subresource=status",
            "--type=merge", "-p", json.dumps({"status": status}),
        )  # fmt: skip
    dumped = tmp_path / "dumped.yaml"
    dumped.write_text(apiserver.kubectl("get", resource, "-n", namespace, "-o", "yaml").stdout)
    for flags in ([], ["-o", "wide"]):
        for _attempt in range(3):  # an age may tick between the two commands
            real = apiserver.kubectl("get", resource, "-n", namespace, *flags).stdout
            ours = subprocess.run(
                [*offline, "-f", str(dumped), *flags], capture_output=True, text=True, check=True
            ).stdout
            if ours == real:
                break
        assert ours == real
        assert "http://load-test.example.com" in ours
        compared += len(real.splitlines())
    print(f"\nget -f differential: {compared} lines of kubectl get compared (created and dumped)")
