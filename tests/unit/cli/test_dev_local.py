"""``kubectl crd dev FILE --local DIR``: the loop over the in-process store, no cluster.

Each test writes a small CRD (Gizmo, ``spec.size`` at most 10, the status subresource),
two Gizmos and a reconciler (a ConfigMap child per Gizmo, ``status.size``) under
``tmp_path`` and runs the command in a subprocess with no kubeconfig at all.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kubectl_crd.cli.commands.dev import dev_options
from kubectl_crd.model.errors import UsageError
from tests.cli_runner import run_cli

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.dev.example.com
spec:
  group: dev.example.com
  names: {kind: Gizmo, plural: gizmos, singular: gizmo, listKind: GizmoList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, maximum: 10}
          status:
            type: object
            properties:
              size: {type: integer}
              observedGeneration: {type: integer}
"""

GIZMOS = """\
apiVersion: dev.example.com/v1
kind: Gizmo
metadata:
  name: a
spec:
  size: 1
---
apiVersion: dev.example.com/v1
kind: Gizmo
metadata:
  name: b
  namespace: other
spec:
  size: 2
"""

RECONCILER = """\
FOR = "gizmos.dev.example.com/v1"
OWNS = ["v1/ConfigMap"]


def reconcile(obj, ctx):
    name = obj["metadata"]["name"]
    child = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name + "-cm"},
        "data": {"size": str(obj["spec"]["size"])},
    }
    return {"children": [child], "status": {"size": obj["spec"]["size"]}}
"""

#: a text line's time stamp
STAMP = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} ")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """tmp_path/r.py and tmp_path/dir/ with the CRD and the two Gizmos."""
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "crd.yaml").write_text(CRD)
    (tmp_path / "dir" / "gizmos.yaml").write_text(GIZMOS)
    (tmp_path / "r.py").write_text(RECONCILER)
    return tmp_path


def lines(text: str) -> list[str]:
    return [STAMP.sub("", line) for line in text.splitlines()]


def test_once_reconciles_every_object_and_exits_0_with_a_summary(project: Path) -> None:
    # no kubeconfig is read: one that does not parse changes nothing
    (project / "kubeconfig").write_text("clusters: [\n")
    done = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"), "--once",
        env={"KUBECONFIG": str(project / "kubeconfig")},
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    out = lines(done.stdout)
    assert "configmap default/a-cm applied" in [line.strip() for line in out]
    assert "configmap other/b-cm applied" in [line.strip() for line in out]
    assert "gizmo other/b status written" in [line.strip() for line in out]
    # each Gizmo: its first reconcile writes the child and the status (2 writes), the
    # child's ADDED enqueues it once more (converged: no writes)
    assert out[-1] == "2 objects, 2 reconciles, 4 writes, 0 errors"


def test_crd_files_given_apart_are_served_too(project: Path) -> None:
    (project / "dir" / "crd.yaml").rename(project / "crd.yaml")
    done = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"),
        "--crd", str(project / "crd.yaml"), "--once",
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    assert lines(done.stdout)[-1] == "2 objects, 2 reconciles, 4 writes, 0 errors"


def test_an_invalid_object_is_one_line_at_its_file_line_column_and_exits_1(
    project: Path,
) -> None:
    bad = project / "dir" / "bad.yaml"
    bad.write_text("apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata:\n  name: c\n"
                   "spec:\n  size: 11\n")  # fmt: skip
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr) == (1, "")
    out = lines(done.stdout)
    assert out[0] == (
        f"{bad}:6:9: error: spec.size: Invalid value: 11: spec.size in body should be "
        "less than or equal to 10"
    )
    assert "Traceback" not in done.stdout
    # the rest loaded and reconciled; c was never stored
    assert out[-1] == "2 objects, 2 reconciles, 4 writes, 0 errors, 1 input problem"


def test_a_failing_reconcile_is_run_once_and_exits_1(project: Path) -> None:
    (project / "r.py").write_text(
        RECONCILER.replace('    name = obj["metadata"]["name"]\n',
                           '    name = obj["metadata"]["name"]\n'
                           '    if name == "b":\n'
                           '        raise ValueError("no b")\n')
    )  # fmt: skip
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr) == (1, "")
    out = lines(done.stdout)
    [error] = [line for line in out if line.startswith("error in other/b")]
    assert re.fullmatch(
        rf"error in other/b after \S+: {project / 'r.py'}:8: ValueError: no b", error
    )
    assert not [line for line in out if line.startswith("requeued")]
    assert out[-1] == "2 objects, 2 reconciles, 2 writes, 1 error; failed: other/b"


def test_ctx_kubernetes_on_the_local_store_says_what_to_run_instead(project: Path) -> None:
    # the CLI words the hint (the engine names no flag): before, the engine's own text
    # said "(--local)" and "--envtest"
    (project / "r.py").write_text(
        RECONCILER.replace('    name = obj["metadata"]["name"]\n',
                           '    name = obj["metadata"]["name"]\n'
                           '    ctx.kubernetes\n')
    )  # fmt: skip
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr) == (1, "")
    [error] = [line for line in lines(done.stdout) if line.startswith("error in other/b")]
    assert error.endswith(
        ": RuntimeError: ctx.kubernetes needs a cluster and this loop runs on none: read with "
        "ctx.get and ctx.list, or run with --envtest instead of --local"
    ), error


def test_json_lines_parse_and_end_with_the_summary(project: Path) -> None:
    (project / "dir" / "bad.yaml").write_text("kind: [\n")
    done = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"), "--once",
        "--log-format", "json",
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (1, "")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    [problem] = [r for r in records if r["event"] == "problem"]
    assert problem["file"] == str(project / "dir" / "bad.yaml")
    assert problem["line"] >= 1
    assert records[-1] | {"time": 0} == {
        "time": 0, "event": "summary", "objects": 2, "reconciles": 2, "writes": 4,
        "errors": 0, "problems": 1, "failed": [],
    }  # fmt: skip
    finished = [r for r in records if r["event"] == "ReconcileFinished"]
    assert {r["key"] for r in finished} == {"default/a", "other/b"}


def test_a_crd_not_in_dir_is_an_error_at_the_for_that_names_it(project: Path) -> None:
    (project / "dir" / "crd.yaml").unlink()
    (project / "dir" / "gizmos.yaml").unlink()
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert done.returncode == 1
    # no loop ran: no 'r.py: reconciling gizmos...' line before the error (there was)
    assert "reconciling" not in done.stdout, done.stdout
    # at FOR's file:line:column with the line and a caret, as a load error (before: the
    # message alone, no place in the module)
    assert done.stderr.splitlines() == [
        f"error: {project / 'r.py'}:1:7: FOR: the server doesn't have a resource type "
        '"gizmos.dev.example.com" (is its CRD installed? put its CRD in the --local '
        "directory or give it with --crd FILE)",
        '    FOR = "gizmos.dev.example.com/v1"',
        "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ]


def test_a_version_the_crd_does_not_serve_is_at_for_without_the_install_hint(
    project: Path,
) -> None:
    # the CRD is in DIR: "put its CRD in the --local directory" sent the user the wrong way
    reconciler = project / "r.py"
    reconciler.write_text(RECONCILER.replace("dev.example.com/v1", "dev.example.com/v9"))
    done = run_cli("dev", str(reconciler), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr.splitlines()[0]) == (
        1,
        f'error: {reconciler}:1:7: FOR: gizmos.dev.example.com has no version "v9" (served: v1)',
    )


def test_local_flags_are_checked(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="alternatives"):
        dev_options("r.py", local=str(tmp_path), envtest=True)
    with pytest.raises(UsageError, match="no such directory"):
        dev_options("r.py", local=str(tmp_path / "missing"))
    # the reconciler given to --local (FILE and DIR swapped): it is there, not a directory
    (tmp_path / "r.py").write_text("")
    with pytest.raises(UsageError, match=r"^--local \S+r\.py: not a directory \(DIR holds"):
        dev_options("foo.yaml", local=str(tmp_path / "r.py"))
    with pytest.raises(UsageError, match="--crd installs CRDs"):
        dev_options("r.py", crd_paths=("crd.yaml",))
    options = dev_options("r.py", local=str(tmp_path), crd_paths=("crd.yaml",), once=True)
    assert (options.local, options.crd_paths, options.once) == (str(tmp_path), ("crd.yaml",), True)


def test_each_write_shows_its_diff_and_json_its_changes(project: Path) -> None:
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    out = lines(done.stdout)
    at = out.index("  gizmo default/a status written")
    assert [line.strip() for line in out[at + 1 : at + 5]] == [
        "@@ -0,0 +1,3 @@", "+status:", "+  observedGeneration: 1", "+  size: 1",
    ]  # fmt: skip
    assert "\x1b[" not in done.stdout  # not a terminal: no colour
    at = out.index("  configmap other/b-cm applied")
    assert '+  size: "2"' in [line.strip() for line in out[at + 1 : at + 16]]
    done = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"), "--once",
        "--log-format", "json",
    )  # fmt: skip
    records = [json.loads(line) for line in done.stdout.splitlines()]
    [status] = [r for r in records if r["event"] == "Write" and r["key"] == "other/b"
                and r["verb"] == "status"]  # fmt: skip
    assert status["changes"] == [
        {"op": "add", "path": "/status", "new": {"size": 2, "observedGeneration": 1}}
    ]
    [child] = [r for r in records if r["event"] == "Write" and r["name"] == "a-cm"]
    assert [(c["op"], c["path"]) for c in child["changes"]] == [
        ("add", "/apiVersion"), ("add", "/kind"), ("add", "/metadata"), ("add", "/data"),
    ]  # fmt: skip
    assert child["changes"][3]["new"] == {"size": "1"}
    # the owner's uid (new on every run) is left out of what a write changed
    assert "uid" not in child["changes"][2]["new"]["ownerReferences"][0]


def test_out_writes_children_and_status_updated_objects(project: Path) -> None:
    out = project / "out"
    done = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"), "--once",
        "--out", str(out),
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert files == [
        ".kubectl-crd-out.json",  # the writer's index of what it wrote (stale-file removal)
        "default/configmap/a-cm.yaml", "default/gizmo.dev.example.com/a.yaml",
        "other/configmap/b-cm.yaml", "other/gizmo.dev.example.com/b.yaml",
    ]  # fmt: skip
    assert (out / "other/gizmo.dev.example.com/b.yaml").read_text() == (
        "apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata:\n  name: b\n  namespace: other\n"
        "spec:\n  size: 2\nstatus:\n  observedGeneration: 1\n  size: 2\n"
    )  # fmt: skip
    assert (out / "default/configmap/a-cm.yaml").read_text() == (
        'apiVersion: v1\ndata:\n  size: "1"\nkind: ConfigMap\nmetadata:\n  name: a-cm\n'
        "  namespace: default\n  ownerReferences:\n    - apiVersion: dev.example.com/v1\n"
        "      blockOwnerDeletion: true\n      controller: true\n      kind: Gizmo\n"
        "      name: a\n"
    )  # fmt: skip


class Running:
    """``kubectl crd dev`` in a subprocess, its stdout collected by a thread."""

    def __init__(self, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
        # a SIGABRT then prints every thread's stack (interrupt(): where a stop hangs)
        env["PYTHONFAULTHANDLER"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kubectl_crd", "dev", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(STAMP.sub("", line.rstrip("\n")))

    def wait_for(
        self,
        check: Callable[[], bool],
        what: str,
        timeout: float = 15.0,
        again: Callable[[], object] | None = None,
    ) -> None:
        """Until ``check()``; ``again`` (a file's save) is done first and every second
        after (the file watchers start in threads: a save before they watch is lost)."""
        deadline = time.monotonic() + timeout
        next_try = 0.0
        while not check():
            if again is not None and time.monotonic() >= next_try:
                again()
                next_try = time.monotonic() + 1.0
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.process.kill()
                raise AssertionError(f"no {what}; output:\n" + "\n".join(self.lines))
            time.sleep(0.02)

    def said(self, text: str, since: int = 0) -> bool:
        """Whether a line from ``since`` on (its indent aside) ends with ``text``."""
        return any(line.strip().endswith(text) for line in self.lines[since:])

    def interrupt(self) -> tuple[int, str]:
        self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGABRT)  # the stacks (PYTHONFAULTHANDLER)
            self.process.wait(timeout=15)
            assert self.process.stderr is not None
            stacks = self.process.stderr.read()
            raise AssertionError(f"not stopped 15 s after SIGINT; its threads:\n{stacks}") from None
        self._reader.join(timeout=5)  # the reader thread owns stdout
        assert self.process.stderr is not None
        return code, self.process.stderr.read()


def test_live_edits_of_dir_and_of_the_reconciler_are_picked_up(project: Path) -> None:
    out = project / "out"
    child = out / "default/configmap/a-cm.yaml"
    run = Running(str(project / "r.py"), "--local", str(project / "dir"), "--out", str(out))
    try:
        run.wait_for(lambda: child.exists() and run.said("for changes; Ctrl-C to stop"), "start")
        # an edit of DIR: a's size 1 -> 3; the child's diff and its --out file follow
        mark = len(run.lines)
        gizmos = project / "dir" / "gizmos.yaml"
        edit = GIZMOS.replace("size: 1", "size: 3")
        run.wait_for(
            lambda: 'size: "3"' in child.read_text(), "child for size 3",
            again=lambda: gizmos.write_text(edit),
        )  # fmt: skip
        run.wait_for(lambda: run.said('+  size: "3"', mark), "diff")
        assert run.said('-  size: "1"', mark)
        # an invalid save: one error line at its file:line:column, the last good a stays
        bad = GIZMOS.replace("size: 1", "size: 11")
        run.wait_for(
            lambda: run.said(
                f"{gizmos}:6:9: error: spec.size: Invalid value: 11: spec.size in body "
                "should be less than or equal to 10", mark,
            ),
            "the invalid save's error line",
            again=lambda: gizmos.write_text(bad),
        )  # fmt: skip
        assert 'size: "3"' in child.read_text()
        gizmos.write_text(edit)
        # an edit of the reconciler: a new data key in every child
        mark = len(run.lines)
        new_code = RECONCILER.replace('"data": {"size"', '"data": {"v2": "yes", "size"')
        run.wait_for(
            lambda: 'v2: "yes"' in child.read_text(), "child by the new code",
            again=lambda: (project / "r.py").write_text(new_code),
        )  # fmt: skip
        # the log keeps its lines up to 50 ms to write them together (DevLog.flush_after)
        run.wait_for(
            lambda: any(line.startswith("reloaded ") for line in run.lines[mark:]), "reloaded"
        )
        # --out writes the file before the log prints the write's line and diff
        run.wait_for(lambda: run.said('+  v2: "yes"', mark), "the new code's diff")
        # b removed from DIR: its files go (its child by cascade)
        run.wait_for(
            lambda: not (out / "other").exists(), "b's files removed",
            again=lambda: gizmos.write_text(edit.split("---")[0]),
        )  # fmt: skip
        assert child.exists()
    finally:
        code, stderr = run.interrupt()
    assert (code, stderr) == (0, "")
    assert run.lines[-1] == "stopped"


def test_once_interrupted_prints_the_summary_and_exits_130(project: Path) -> None:
    started = project / "started"
    (project / "r.py").write_text(
        RECONCILER.replace(
            '    name = obj["metadata"]["name"]\n',
            '    name = obj["metadata"]["name"]\n'
            '    if name == "b":\n'
            f"        open({str(started)!r}, 'w').close()\n"
            "        import time; time.sleep(1.5)\n",
        )
    )
    run = Running(str(project / "r.py"), "--local", str(project / "dir"), "--once")
    try:
        run.wait_for(started.exists, "b's reconcile")
    finally:
        code, stderr = run.interrupt()
    # b's reconcile was let finish (the graceful stop), then the summary; 130 as on Ctrl-C
    assert (code, stderr) == (130, "")
    assert run.lines[-1].startswith("2 objects, ")
    assert "reconciled other/b" in " ".join(run.lines)


def test_a_stop_after_an_interrupted_start_skips_the_workers_never_started(
    project: Path,
) -> None:
    # a Ctrl-C inside Controller.start() (between two workers' start) then stop(): the
    # CLI's --once exited 3 ("cannot join thread before it is started") about 1 in 7
    from kubectl_crd.reconcile.controller import Controller
    from kubectl_crd.reconcile.loading import load_reconciler
    from kubectl_crd.reconcile.local import LocalBackend

    backend = LocalBackend(str(project / "dir"))
    backend.load()
    controller = Controller(backend, load_reconciler(str(project / "r.py")), workers=2)
    controller.start(run_workers=False)
    controller._threads.append(threading.Thread(target=lambda: None))  # never started
    stopped = controller.stop(timeout=5)
    assert stopped.finalizers_left == ()
    backend.close()


def test_the_loop_collects_young_objects_less_often_and_puts_the_collector_back(
    project: Path,
) -> None:
    """The cyclic collector's youngest generation waits for 10,000 allocations while the
    loop runs (dev's ``_GC_YOUNG``); an in-process caller gets its thresholds and an
    unfrozen heap back."""
    import gc

    from kubectl_crd.cli.root import main

    seen = project / "threshold"
    (project / "r.py").write_text(
        RECONCILER.replace(
            '    name = obj["metadata"]["name"]\n',
            f"    import gc; open({str(seen)!r}, 'w').write(repr(gc.get_threshold()))\n"
            '    name = obj["metadata"]["name"]\n',
        )
    )
    before = (gc.get_threshold(), gc.get_freeze_count())
    with pytest.raises(SystemExit) as exited:
        main(["dev", str(project / "r.py"), "--local", str(project / "dir"), "--once"])
    assert exited.value.code == 0
    assert seen.read_text() == repr((10_000, *before[0][1:]))
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


def test_the_stores_warnings_are_log_lines_as_a_servers_are(tmp_path: Path) -> None:
    # a write the server answers with a Warning header (an unknown field of a built-in,
    # dropped under fieldValidation=Warn) is a line worded as the cluster run words the
    # header (cli/commands/dev.py _cluster_backend: 'Warning: <the header's text>')
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "d.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n"
        "  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
        "    spec:\n      containers: [{name: c, image: nginx}]\n"
    )  # fmt: skip
    (tmp_path / "r.py").write_text(
        'FOR = "deployments.apps/v1"\n\n\ndef reconcile(obj):\n'
        '    return {"status": {"replicas": 1, "bogus": 2}}\n'
    )  # fmt: skip
    done = run_cli("dev", str(tmp_path / "r.py"), "--local", str(tmp_path / "dir"), "--once")
    assert (done.returncode, done.stderr) == (0, "")
    out = [line.strip() for line in lines(done.stdout)]
    assert out.count('Warning: unknown field "status.bogus"') == 1, out
    assert "deployment default/d status written" in out, out


def test_a_watches_mapping_that_raised_makes_once_exit_1_and_is_counted(project: Path) -> None:
    # 0c0abef made the mapping's exception its own line, failing no reconcile: --once then
    # ended 0 with '0 errors', though the user's code failed and a parent may have been
    # missed. Every Gizmo's reconcile still succeeds; the mapping raises on DIR's Secret
    (project / "r.py").write_text(
        RECONCILER.replace(
            'OWNS = ["v1/ConfigMap"]\n',
            'OWNS = ["v1/ConfigMap"]\nWATCHES = {"v1/Secret": lambda obj: 1 / 0}\n',
        )
    )
    (project / "dir" / "secret.yaml").write_text(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n"
    )
    done = run_cli("dev", str(project / "r.py"), "--local", str(project / "dir"), "--once")
    assert (done.returncode, done.stderr) == (1, "")
    out = [line.strip() for line in lines(done.stdout)]
    [failed] = [line for line in out if "failed on default/s" in line]
    assert failed.startswith("watch of secrets/v1: WATCHES['v1/Secret'] failed on default/s, ")
    assert failed.endswith(": ZeroDivisionError: division by zero"), failed
    assert out[-1] == "2 objects, 2 reconciles, 4 writes, 0 errors, 1 WATCHES error"
    json_run = run_cli(
        "dev", str(project / "r.py"), "--local", str(project / "dir"), "--once",
        "--log-format", "json",
    )  # fmt: skip
    summary = json.loads(json_run.stdout.splitlines()[-1])
    assert (json_run.returncode, summary["errors"], summary["watches_errors"]) == (1, 0, 1)
