"""``kubectl crd validate`` as a user meets it: statuses, exit codes and every output format.

The engine's answers are checked against the API server in
``tests/integration/test_validation_differential.py``; here the command around it:
inputs, CRDs from the inputs, the missing-kind policy, printers, and bad input.
"""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.cli_runner import run_cli, run_python

REPO = Path(__file__).resolve().parents[3]
CRDS = str(REPO / "examples" / "crds")
CRONTAB_CRD = REPO / "examples" / "crds" / "crontab.yaml"

VALID = """\
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: good
spec:
  cronSpec: "* * * * */5"
  image: my-cron-image
"""

INVALID = """\
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: bad
spec:
  cronSpec: "* * * * */5"
  image: my-cron-image
  replicas: 200
"""

BUILTIN = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
"""

UNKNOWN_KIND = """\
apiVersion: example.org/v1
kind: Nope
metadata:
  name: nope
"""


def validate(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    if stdin is None:
        return run_cli("validate", *args, env=env)
    import os
    import sys

    clean = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    return subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "validate", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env={**clean, **(env or {})},
        check=False,
    )


def write(tmp_path: Path, name: str, *documents: str) -> str:
    path = tmp_path / name
    path.write_text("---\n".join(documents))
    return str(path)


def test_valid_resources_exit_0_and_print_nothing(tmp_path: Path) -> None:
    result = validate("-f", write(tmp_path, "ok.yaml", VALID), "--crd", CRDS, "--offline")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_an_invalid_resource_exits_1_with_the_server_message_at_its_line_and_a_caret(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, "bad.yaml", INVALID)
    result = validate("-f", path, "--crd", CRDS, "--offline")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == path
    assert lines[1] == (
        f'{path}:8:13: error: The CronTab "bad" is invalid: spec.replicas: Invalid value: 200: '
        "spec.replicas in body should be less than or equal to 10"
    )
    assert lines[2] == "    8 |   replicas: 200"
    assert lines[3] == "      |             ^"
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_second_run_from_the_parse_cache_says_the_same_at_the_same_places(
    tmp_path: Path, jobs: str
) -> None:
    """Inputs are read through the parsed-value cache, which keeps values only: an
    invalid document is parsed again for its positions."""
    cache = tmp_path / "cache"
    env = {"KUBECTL_CRD_CACHE_DIR": str(cache)}
    files = [write(tmp_path, f"f{i}.yaml", VALID, INVALID) for i in range(2)]
    args = ("--crd", CRDS, "--offline", "-j", jobs, *(a for f in files for a in ("-f", f)))
    first = validate(*args, env=env)
    assert any(cache.rglob("*")), "nothing was cached"
    second = validate(*args, env=env)
    assert first.returncode == second.returncode == 1
    assert first.stdout == second.stdout
    assert f'{files[1]}:16:13: error: The CronTab "bad" is invalid: spec.replicas' in second.stdout


def test_summary_counts_every_status(tmp_path: Path) -> None:
    path = write(tmp_path, "all.yaml", VALID, INVALID, BUILTIN, UNKNOWN_KIND)
    empty = write(tmp_path, "empty.yaml", "# nothing here\n")
    result = validate("-f", path, "-f", empty, "--crd", CRDS, "--offline", "--summary")
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == (
        "Summary: 5 documents: 1 valid, 1 invalid, 1 error, 1 skipped, 1 empty"
    )


@pytest.mark.parametrize(
    ("missing", "status", "code"),
    [("error", "error", 1), ("warn", "skipped", 0), ("skip", "skipped", 0)],
)
def test_a_kind_without_crd_follows_missing(
    tmp_path: Path, missing: str, status: str, code: int
) -> None:
    path = write(tmp_path, "unknown.yaml", UNKNOWN_KIND)
    result = validate("-f", path, "--offline", "--missing", missing, "-o", "json")
    assert result.returncode == code
    (record,) = json.loads(result.stdout)["resources"]
    assert record["status"] == status
    assert ("no CRD serves example.org/v1 Nope" in record.get("message", "")) == (missing != "skip")


def test_built_in_kinds_are_skipped_with_a_note(tmp_path: Path) -> None:
    result = validate("-f", write(tmp_path, "d.yaml", BUILTIN), "--offline", "-ojson")
    assert result.returncode == 0
    (record,) = json.loads(result.stdout)["resources"]
    assert record["status"] == "skipped"
    assert "built-in kind" in record["message"]


def test_crds_among_the_inputs_apply_to_the_resources_beside_them(tmp_path: Path) -> None:
    crd = CRONTAB_CRD.read_text()
    path = write(tmp_path, "both.yaml", INVALID, crd)
    result = validate("-f", path, "--offline", "-o", "json")
    records = json.loads(result.stdout)["resources"]
    assert [r["status"] for r in records] == ["invalid", "valid"]
    assert records[1]["kind"] == "CustomResourceDefinition"


def test_stdin_and_files_together(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.yaml", VALID)
    result = validate("-f", "-", "-f", path, "--crd", CRDS, "--offline", "-ojson", stdin=INVALID)
    records = json.loads(result.stdout)["resources"]
    assert [(r["source"], r["status"]) for r in records] == [
        ("<stdin>", "invalid"),
        (path, "valid"),
    ]


def test_broken_yaml_is_one_result_and_hides_nothing(tmp_path: Path) -> None:
    broken = write(tmp_path, "a-broken.yaml", "apiVersion: [unclosed\n")
    bad = write(tmp_path, "b-bad.yaml", INVALID)
    result = validate("-f", str(tmp_path), "--crd", CRDS, "--offline", "-o", "json")
    assert result.returncode == 1
    records = json.loads(result.stdout)["resources"]
    assert [(r["source"], r["status"]) for r in records] == [(broken, "error"), (bad, "invalid")]
    assert records[0]["line"] >= 1
    assert "Traceback" not in result.stderr


def test_field_validation_warn_turns_unknown_fields_into_warnings(tmp_path: Path) -> None:
    document = VALID + "  unknownField: 1\n"
    path = write(tmp_path, "unknown-field.yaml", document)
    strict = validate("-f", path, "--crd", CRDS, "--offline", "-ojson")
    warn = validate("-f", path, "--crd", CRDS, "--offline", "-ojson", "--field-validation=Warn")
    ignore = validate("-f", path, "--crd", CRDS, "--offline", "-ojson", "--field-validation=Ignore")
    assert json.loads(strict.stdout)["resources"][0]["status"] == "invalid"
    (warned,) = json.loads(warn.stdout)["resources"]
    assert (warned["status"], warned["warnings"]) == (
        "valid",
        ['unknown field "spec.unknownField"'],
    )
    assert json.loads(ignore.stdout)["resources"][0]["warnings"] == []
    assert (strict.returncode, warn.returncode, ignore.returncode) == (1, 0, 0)


def test_show_defaults_prints_the_object_as_stored(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.yaml", VALID + "status:\n  lastScheduleTime: x\n")
    result = validate("-f", path, "--crd", CRDS, "--offline", "--show-defaults")
    assert result.returncode == 0
    stored = yaml.safe_load(result.stdout)
    assert stored["spec"]["replicas"] == 1  # the schema's default
    assert "status" not in stored  # dropped on create: the version has a status subresource
    assert validate("-f", path, "--crd", CRDS, "--offline", "-o", "yaml").stdout == result.stdout


def test_junit_is_xml_with_a_case_per_document(tmp_path: Path) -> None:
    path = write(tmp_path, "all.yaml", VALID, INVALID, BUILTIN)
    result = validate("-f", path, "--crd", CRDS, "--offline", "-o", "junit")
    root = ET.fromstring(result.stdout)
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("3", "1", "1")
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name", "").split(" ")[0] for c in cases] == [
        "CronTab/good",
        "CronTab/bad",
        "Deployment/web",
    ]
    failure = cases[1].find("failure")
    assert failure is not None and "less than or equal to 10" in (failure.text or "")


def test_sarif_has_a_result_per_error_with_its_region(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", INVALID)
    result = validate("-f", path, "--crd", CRDS, "--offline", "-o", "sarif")
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    (finding,) = run["results"]
    assert finding["ruleId"] == "FieldValueInvalid"
    assert run["tool"]["driver"]["rules"][finding["ruleIndex"]]["id"] == "FieldValueInvalid"
    location = finding["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == path
    assert location["region"] == {"startLine": 8, "startColumn": 13}
    # the one wording of a rejected object (output.validation.rejected)
    assert finding["message"]["text"].startswith('The CronTab "bad" is invalid: spec.replicas: ')


def test_github_annotations_escape_their_properties(tmp_path: Path) -> None:
    path = write(tmp_path, "a,b:c.yaml", INVALID)
    result = validate("-f", path, "--crd", CRDS, "--offline", "-o", "github")
    (line,) = result.stdout.splitlines()
    escaped = path.replace(":", "%3A").replace(",", "%2C")
    assert line.startswith(f"::error file={escaped},line=8,col=13,title=kubectl-crd validate::")
    assert line.endswith("spec.replicas in body should be less than or equal to 10")
    assert '::The CronTab "bad" is invalid: spec.replicas: Invalid value: 200: ' in line


@pytest.mark.parametrize(
    "args",
    [(), ("-f", "x.yaml", "-o", "xml"), ("-f", "x.yaml", "--missing", "maybe")],
)
def test_usage_errors_exit_1_as_kubectl(args: tuple[str, ...]) -> None:
    result = validate(*args)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


def test_an_unreachable_cluster_is_a_warning_and_the_kind_stays_missing(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:9'}}]\n"
        "users: [{name: u, user: {}}]\n"
        "contexts: [{name: c, context: {cluster: c, user: u}}]\n"
    )
    path = write(tmp_path, "unknown.yaml", UNKNOWN_KIND)
    result = validate("-f", path, "-ojson", env={"KUBECONFIG": str(kubeconfig)})
    assert result.returncode == 1
    assert "warning: no CRDs from the cluster" in result.stderr
    assert "refused" in result.stderr
    assert json.loads(result.stdout)["resources"][0]["status"] == "error"


HTTPROUTES = "gateway.networking.k8s.io_httproutes.yaml"


def test_a_crd_copied_into_two_files_is_one_crd(tmp_path: Path) -> None:
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(CRONTAB_CRD.read_text())
    resources = tmp_path.parent / f"{tmp_path.name}-resources.yaml"
    resources.write_text(INVALID)
    result = validate("-f", str(resources), "--crd", str(tmp_path), "--offline", "-ojson")
    assert [r["status"] for r in json.loads(result.stdout)["resources"]] == ["invalid"]
    assert result.stderr == ""


def test_a_crd_defined_differently_in_two_files_names_both(
    tmp_path: Path, corpus_dir: Path
) -> None:
    standard = corpus_dir / "crds" / "gateway-api-standard" / HTTPROUTES
    experimental = corpus_dir / "crds" / "gateway-api-experimental" / HTTPROUTES
    route = tmp_path / "route.yaml"
    route.write_text(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n"
    )
    result = validate(
        "-f", str(route), "--crd", str(standard), "--crd", str(experimental), "--offline", "-ojson"
    )
    (record,) = json.loads(result.stdout)["resources"]
    assert record["status"] == "error"
    assert record["message"] == (
        "the CRD httproutes.gateway.networking.k8s.io is defined differently in "
        f"{experimental} and {standard}: pass the one you mean with --crd"
    )
    explained = run_cli(
        "explain", "httproutes.spec", "--crd", str(standard), "--crd", str(experimental)
    )
    assert explained.returncode == 1
    assert explained.stderr.strip() == f"error: {record['message']}"


def test_watch_prints_what_changed_on_every_save(tmp_path: Path) -> None:
    import os
    import queue
    import sys
    import threading
    import time

    path = Path(write(tmp_path, "cr.yaml", INVALID))
    clean = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kubectl_crd",
            "validate",
            "-w",
            "-f",
            str(path),
            "--crd",
            CRDS,
            "--offline",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=clean,
    )
    lines: queue.Queue[tuple[str, str]] = queue.Queue()

    def pump(name: str, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            lines.put((name, line.rstrip("\n")))

    for name, stream in (("out", process.stdout), ("err", process.stderr)):
        threading.Thread(target=pump, args=(name, stream), daemon=True).start()

    Seen = list[tuple[str, str]]

    def until(predicate: Callable[[Seen], bool], timeout: float = 60) -> Seen:
        """The lines read until ``predicate`` holds of all of them (two streams read by
        two threads: their lines arrive here in either order)."""
        seen: Seen = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = lines.get(timeout=0.2)
            except queue.Empty:
                continue
            seen.append(item)
            if predicate(seen):
                return seen
        raise AssertionError(f"not seen in {timeout} s: {seen}")

    def printed(stream: str, text: str) -> Callable[[Seen], bool]:
        return lambda seen: any(name == stream and text in line for name, line in seen)

    try:
        # the first run's report (stdout), and the watch's notice after it (stderr)
        until(
            lambda seen: (
                printed("out", "less than or equal to 10")(seen)
                and ("err", "watching for changes (Ctrl-C to stop)") in seen
            )
        )
        # at once: a save after the notice is seen (the files were stamped before it)
        path.write_text(VALID.replace("name: good", "name: bad"))
        after_fix = until(printed("out", "valid: CronTab/bad"))
        assert not any("less than or equal to 10" in text for _, text in after_fix)
        path.write_text(INVALID)
        until(printed("out", "less than or equal to 10"))
    finally:
        process.terminate()
        process.wait(timeout=10)


# the CLI with its file watcher armed late, as a loaded machine arms it (watchdog's import
# and threads), and a save made in between: after the notice, before the observer
_LATE_WATCHER = """\
import sys, threading
from kubectl_crd.io import filewatch

real = filewatch.changes
saved, text = sys.argv[1:3]

def late(paths, **options):
    with open(saved, "w") as out:
        out.write(text)
    stop = threading.Event()
    timer = threading.Timer(20, stop.set)  # no batch in 20 s: the save was missed
    timer.daemon = True
    timer.start()
    for batch in real(paths, stop=stop, **options):
        yield batch
        return

filewatch.changes = late
sys.argv = ["kubectl-crd", *sys.argv[3:]]
from kubectl_crd.cli.root import main
main()
"""


def test_watch_sees_a_save_made_before_its_watcher_is_armed(tmp_path: Path) -> None:
    # the notice was printed before the observer existed: a save right after it (a
    # test's, or a user's on a loaded machine) was never validated
    path = write(tmp_path, "cr.yaml", INVALID)
    fixed = VALID.replace("name: good", "name: bad")
    args = ("validate", "-w", "-f", path, "--crd", CRDS, "--offline")
    done = run_python(_LATE_WATCHER, path, fixed, *args)
    assert "watching for changes (Ctrl-C to stop)" in done.stderr, done.stderr
    assert "valid: CronTab/bad" in done.stdout, (done.stdout, done.stderr)


def test_watch_needs_files_and_the_human_output() -> None:
    for args in (("-w", "-f", "-"), ("-w", "-f", "x.yaml", "-o", "json")):
        result = validate(*args, stdin="")
        assert result.returncode == 1
        assert "--watch needs files (not stdin) and the human output" in result.stderr


@pytest.mark.parametrize("output", ["human", "json", "yaml"])
def test_jobs_give_the_same_output_in_the_same_order(tmp_path: Path, output: str) -> None:
    for number in range(12):
        documents = [VALID.replace("good", f"good-{number}")]
        if number % 3 == 0:
            documents.append(INVALID.replace("bad", f"bad-{number}"))
        write(tmp_path, f"{number:02d}.yaml", *documents)
    write(tmp_path, "crd.yaml", CRONTAB_CRD.read_text())  # a CRD among the inputs too
    one = validate("-f", str(tmp_path), "--offline", "-o", output, "-j", "1")
    several = validate("-f", str(tmp_path), "--offline", "-o", output, "-j", "3")
    default = validate("-f", str(tmp_path), "--offline", "-o", output)  # one per CPU
    assert one.returncode == several.returncode == default.returncode == 1
    assert several.stdout == one.stdout and several.stderr == one.stderr
    assert default.stdout == one.stdout and default.stderr == one.stderr
    # the four invalid objects are reported (on stderr for -o yaml, which prints the valid)
    reported = one.stderr if output == "yaml" else one.stdout
    assert all(f"bad-{number}" in reported for number in (0, 3, 6, 9))


BIG = 256 * 1024  # MIN_BYTES_FOR_WORKERS


@pytest.mark.parametrize(
    ("files", "size", "jobs", "cpus", "load", "workers"),
    [
        (1, BIG, None, 4, 0.0, 1),  # one file: one process
        (40, BIG - 1, None, 4, 0.0, 1),  # below: forking costs more than it saves
        (4, BIG, None, 4, 0.0, 4),
        (400, 40 * BIG, None, 2, 0.0, 2),
        (400, 40 * BIG, None, 2, 0.9, 2),
        (400, 40 * BIG, None, 2, 1.2, 1),  # one CPU busy with other work
        (400, 40 * BIG, None, 2, 6.5, 1),  # all busy: one process costs less CPU
        (400, 40 * BIG, None, 8, 3.5, 5),
        (400, 40 * BIG, None, 1, 0.0, 1),
        (6, 40 * BIG, None, 8, 0.0, 6),  # never more workers than files
        (400, 40 * BIG, 1, 8, 0.0, 1),
        (400, 40 * BIG, 3, 8, 7.0, 3),  # given: as given, whatever the load
        (400, 0, 0, 8, 7.0, 8),
        (2, 0, 0, 8, 0.0, 2),
        (0, 0, None, 8, 0.0, 1),  # stdin
        (0, 0, 0, 8, 0.0, 1),
    ],
)
def test_default_workers_by_input_size_and_load(
    monkeypatch: pytest.MonkeyPatch,
    files: int,
    size: int,
    jobs: int | None,
    cpus: int,
    load: float,
    workers: int,
) -> None:
    from kubectl_crd.validation import parallel

    assert parallel.MIN_BYTES_FOR_WORKERS == BIG
    monkeypatch.setattr(parallel, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (load, load, load))
    assert parallel.workers_for(files, size, jobs) == workers


def test_help_states_the_default_the_code_uses() -> None:
    from kubectl_crd.cli.commands.validate import FLAGS
    from kubectl_crd.validation.parallel import MIN_BYTES_FOR_WORKERS

    (jobs,) = [flag for flag in FLAGS if flag.dest == "jobs"]
    assert f"from {MIN_BYTES_FOR_WORKERS // 1024} KiB of input on" in jobs.help
    assert jobs.default is None


def test_the_command_asks_for_workers_by_the_input_files_and_their_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kubectl_crd.cli.root import main
    from kubectl_crd.validation import parallel

    asked: list[tuple[int, int, int | None]] = []
    real = parallel.workers_for

    def recorded(files: int, size: int, jobs: int | None) -> int:
        asked.append((files, size, jobs))
        return real(files, size, jobs)

    monkeypatch.setattr(parallel, "workers_for", recorded)
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path / "cache"))
    for number in range(5):
        write(tmp_path, f"{number}.yaml", VALID.replace("good", f"good-{number}"))
    for more in ((), ("-j", "2")):
        with pytest.raises(SystemExit) as exit:
            main(["validate", "-f", str(tmp_path), "--crd", CRDS, "--offline", *more])
        assert exit.value.code == 0
    size = sum(path.stat().st_size for path in tmp_path.glob("*.yaml"))
    assert asked == [(5, size, None), (5, size, 2)]


BROKEN_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: integer}
            x-kubernetes-validations:
            - rule: self.nope == 1
"""

WIDGET = """\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {a: 1}
"""


@pytest.mark.parametrize(
    ("order", "jobs"), [("crd first", "1"), ("object first", "1"), ("object first", "2")]
)
def test_an_input_crd_the_server_refuses_serves_none_of_its_objects(
    tmp_path: Path, order: str, jobs: str
) -> None:
    """kube-apiserver refuses the CRD (its rule does not compile), so no Widget can be
    created: the Widget is not checked against rules that never ran (it was, and 'no
    such key: nope evaluating rule' was its error)."""
    crd = write(tmp_path, "crd.yaml", BROKEN_CRD)
    widget = write(tmp_path, "widget.yaml", WIDGET)
    files = ["-f", crd, "-f", widget] if order == "crd first" else ["-f", widget, "-f", crd]
    result = validate(*files, "--offline", "-j", jobs)
    assert result.returncode == 1
    assert "undefined field 'nope'" in result.stdout
    assert (
        f"{widget}:1:1: error: Widget/w: no valid CRD serves example.com/v1 Widget: the "
        'CustomResourceDefinition "widgets.example.com" is invalid (its errors are listed '
        "with it)"
    ) in result.stdout.splitlines()
    assert "evaluating rule" not in result.stdout


_COUNTING_CRD_CHECKS = """\
import atexit, sys
from kubectl_crd.validation import crds

real = crds.crd_errors
checked = []

def counted(crd):
    checked.append(crd["metadata"]["name"])
    return real(crd)

crds.crd_errors = counted
atexit.register(lambda: print("checked:", *checked, file=sys.stderr))
sys.argv = ["kubectl-crd", *sys.argv[1:]]
from kubectl_crd.cli.root import main
main()
"""


@pytest.mark.parametrize("crd_text", [BROKEN_CRD, BROKEN_CRD.replace("self.nope", "self.a")])
def test_an_input_crd_with_objects_is_checked_once(tmp_path: Path, crd_text: str) -> None:
    """The files stream after a first pass for their CRDs (another parse of the same
    file): the CRD document's verdict is found by its place, not asked again for its
    Widget (it was: two checks of widgets.example.com)."""
    crd = write(tmp_path, "crd.yaml", crd_text)
    widget = write(tmp_path, "widget.yaml", WIDGET)
    result = run_python(_COUNTING_CRD_CHECKS, "validate", "-f", crd, "-f", widget, "--offline")
    refused = "self.nope" in crd_text
    assert result.returncode == (1 if refused else 0), result.stderr
    assert ("no valid CRD serves" in result.stdout) == refused
    assert result.stderr.splitlines()[-1] == "checked: widgets.example.com"


def test_the_same_crd_given_with_crd_still_checks_its_objects(tmp_path: Path) -> None:
    """``--crd`` files are the schema to check against, not inputs checked as the server
    checks a CRD it is sent: their objects are checked (the rule's runtime error)."""
    crd = write(tmp_path, "crd.yaml", BROKEN_CRD)
    result = validate("-f", write(tmp_path, "w.yaml", WIDGET), "--crd", crd, "--offline")
    assert result.returncode == 1
    assert "no such key: nope evaluating rule" in result.stdout
