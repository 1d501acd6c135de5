"""``output.devlog``'s ``Changes`` (what each write changed), ``OutDir`` (``--out``) and
``Tally`` (``--once``'s summary), fed plain engine events as the controller emits them."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from kubectl_crd.model.errors import Location
from kubectl_crd.output.devlog import (
    Change,
    Changes,
    DevLog,
    OutDir,
    Tally,
    json_changes,
    out_path,
    review_view,
    sorted_keys,
    yaml_diff,
)
from kubectl_crd.reconcile import events as ev

KEY = ("default", "a")
PARENT = {
    "apiVersion": "dev.example.com/v1",
    "kind": "Gizmo",
    "metadata": {"name": "a", "namespace": "default", "uid": "u-1", "resourceVersion": "7",
                 "generation": 2, "creationTimestamp": "2026-01-01T00:00:00Z",
                 "managedFields": [{"manager": "x"}]},
    "spec": {"size": 1},
    "status": {"size": 0, "phase": "New"},
}  # fmt: skip


def child(size: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "a-cm", "namespace": "default", "ownerReferences": [
            {"apiVersion": "dev.example.com/v1", "kind": "Gizmo", "name": "a", "uid": "u-1",
             "controller": True}]},
        "data": {"size": size},
    }  # fmt: skip


def apply(body: dict[str, Any]) -> ev.Write:
    meta = body["metadata"]
    return ev.Write(KEY, "apply", body["kind"], meta["namespace"], meta["name"], body=body)


def status(patch: dict[str, Any]) -> ev.Write:
    return ev.Write(KEY, "status", "Gizmo", "default", "a", body={"status": patch})


def changes(out: OutDir | None = None) -> Changes:
    return Changes(lambda resource, key: PARENT if key == KEY else None, out=out)


def test_out_path_layout() -> None:
    assert out_path(("v1", "ConfigMap", "default", "web")) == "default/configmap/web.yaml"
    assert out_path(("dev.example.com/v1", "Gizmo", "ns", "a")) == "ns/gizmo.dev.example.com/a.yaml"
    assert (
        out_path(("rbac.authorization.k8s.io/v1", "ClusterRole", "", "r"))
        == "_cluster/clusterrole.rbac.authorization.k8s.io/r.yaml"
    )


def test_review_view_drops_what_the_server_sets_and_the_owners_uid() -> None:
    view = review_view(PARENT)
    assert view["metadata"] == {"name": "a", "namespace": "default"}
    assert view["spec"] == {"size": 1}
    assert review_view(child("1"))["metadata"]["ownerReferences"] == [
        {"apiVersion": "dev.example.com/v1", "kind": "Gizmo", "name": "a", "controller": True}
    ]
    assert PARENT["metadata"]["uid"] == "u-1"  # the input is not changed


def test_json_changes_are_leaf_operations_at_json_pointers() -> None:
    old = {"a": {"b": 1, "c": [1, 2], "d/e": "x"}, "gone": True}
    new = {"a": {"b": 2, "c": [1], "d/e": "x", "f": None}, "new": {"k": "v"}}
    assert json_changes(old, new) == [
        {"op": "replace", "path": "/a/b", "old": 1, "new": 2},
        {"op": "replace", "path": "/a/c", "old": [1, 2], "new": [1]},
        {"op": "add", "path": "/a/f", "new": None},
        {"op": "remove", "path": "/gone", "old": True},
        {"op": "add", "path": "/new", "new": {"k": "v"}},
    ]
    assert json_changes({"x": 1}, {"x": 1}) == []


def test_a_childs_second_apply_is_diffed_against_its_first() -> None:
    tracker = changes()
    first = tracker.event(apply(child("1")))
    assert first is not None and first.old is None
    assert first.identity == ("v1", "ConfigMap", "default", "a-cm")
    second = tracker.event(apply(child("2")))
    assert second is not None
    # keys sorted, as kubectl get -o yaml writes them
    assert yaml_diff(second) == [
        "@@ -1,6 +1,6 @@", " apiVersion: v1", " data:", '-  size: "1"', '+  size: "2"',
        " kind: ConfigMap", " metadata:", "   name: a-cm",
    ]  # fmt: skip


def test_a_new_or_gone_object_is_one_hunk_as_difflib_writes_it() -> None:
    # yaml_diff skips difflib's matching when one side is empty (a thousand new
    # children); the text must be difflib's own
    import difflib

    from kubectl_crd.io.dumping import dump_yaml

    identity = ("v1", "ConfigMap", "default", "a-cm")
    small = {"a": 1}  # one line: difflib's hunk header without a count
    for old, new in ((None, child("1")), (child("1"), None), (None, small), (small, None)):
        lines = [dump_yaml(sorted_keys(side)).splitlines() if side else [] for side in (old, new)]
        expected = [
            line
            for line in difflib.unified_diff(*lines, lineterm="", n=3)
            if not line.startswith(("---", "+++"))
        ]
        assert len(expected) > 1
        assert yaml_diff(Change(identity, old, new)) == expected


def test_a_status_is_diffed_against_the_object_its_reconcile_started_from() -> None:
    tracker = changes()
    assert tracker.event(ev.ReconcileStarted(KEY, "gizmos.dev.example.com/v1")) is None
    # the controller sends a merge patch of what differs (phase dropped: null)
    change = tracker.event(status({"size": 1, "phase": None, "observedGeneration": 2}))
    assert change == Change(
        ("dev.example.com/v1", "Gizmo", "default", "a"),
        {"status": {"size": 0, "phase": "New"}},
        {"status": {"size": 1, "observedGeneration": 2}},
        KEY,
    )
    assert json_changes(change.old, change.new) == [
        {"op": "replace", "path": "/status/size", "old": 0, "new": 1},
        {"op": "remove", "path": "/status/phase", "old": "New"},
        {"op": "add", "path": "/status/observedGeneration", "new": 2},
    ]
    # a dry run changes nothing, and a status with no reconcile start is not guessed
    assert tracker.event(ev.Write(KEY, "apply", "ConfigMap", "default", "x", True, {})) is None
    other = ev.Write(("default", "b"), "status", "Gizmo", "default", "b", body={"status": {}})
    assert tracker.event(other) is None


def test_out_dir_writes_rewrites_and_removes(tmp_path: Path) -> None:
    out = OutDir(str(tmp_path))
    tracker = changes(out)
    tracker.event(ev.ReconcileStarted(KEY, "gizmos.dev.example.com/v1"))
    tracker.event(apply(child("1")))
    tracker.event(status({"size": 1}))
    cm = tmp_path / "default/configmap/a-cm.yaml"
    gizmo = tmp_path / "default/gizmo.dev.example.com/a.yaml"
    assert 'size: "1"' in cm.read_text()
    assert gizmo.read_text() == (
        "apiVersion: dev.example.com/v1\nkind: Gizmo\nmetadata:\n  name: a\n"
        "  namespace: default\nspec:\n  size: 1\nstatus:\n  phase: New\n  size: 1\n"
    )
    tracker.event(apply(child("2")))
    assert 'size: "2"' in cm.read_text()
    assert not list(tmp_path.rglob("*.tmp"))
    # a child the loop deletes goes; the object gone takes its own file and its children's
    deleted = tracker.event(ev.Write(KEY, "delete", "ConfigMap", "default", "a-cm"))
    assert deleted is not None and deleted.new is None and not cm.exists()
    tracker.event(apply(child("3")))
    assert cm.exists()
    tracker.event(ev.ReconcileFinished(KEY, ev.Outcome.GONE, 0.0))
    assert sorted(tmp_path.rglob("*")) == []


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


SGR = re.compile(r"\x1b\[[0-9;]*m")


def test_the_log_shows_the_diff_under_the_write_coloured_on_a_terminal_only() -> None:
    for stream, environ, coloured in (
        (_Tty(), {}, True),
        (_Tty(), {"NO_COLOR": "1"}, False),
        (io.StringIO(), {}, False),
    ):
        log = DevLog(stream, environ=environ, timestamps=False, changes=changes())
        log(ev.ReconcileStarted(KEY, "gizmos.dev.example.com/v1"))
        log(status({"size": 1}))
        text = stream.getvalue()
        assert bool(SGR.search(text)) == coloured, environ
        assert SGR.sub("", text).splitlines() == [
            "  gizmo default/a status written",
            "    @@ -1,3 +1,3 @@",
            "     status:",
            "       phase: New",
            "    -  size: 0",
            "    +  size: 1",
        ]
        if coloured:
            assert "\x1b[" in text.splitlines()[5]  # the + line itself


def test_the_json_log_adds_the_changes_field() -> None:
    out = io.StringIO()
    log = DevLog(out, format="json", changes=changes())
    log(apply(child("1")))
    log(ev.Write(KEY, "delete", "ConfigMap", "default", "a-cm"))
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert [c["path"] for c in first["changes"]] == ["/apiVersion", "/kind", "/metadata", "/data"]
    assert [(c["op"], c["path"]) for c in second["changes"]][-1] == ("remove", "/data")


def test_changes_shown_only_when_asked_but_out_written_regardless(tmp_path: Path) -> None:
    out = io.StringIO()
    quiet = Changes(lambda resource, key: None, out=OutDir(str(tmp_path)), show=False)
    DevLog(out, timestamps=False, changes=quiet)(apply(child("1")))
    assert out.getvalue() == "  configmap default/a-cm applied\n"
    assert (tmp_path / "default/configmap/a-cm.yaml").exists()


def test_tally_counts_and_says_clean() -> None:
    tally = Tally()
    sink_got: list[ev.Event] = []
    sink = tally.wrap(sink_got.append, once=True)
    sink(ev.ReconcileFinished(KEY, ev.Outcome.SUCCESS, 0.1, writes=2))
    sink(apply(child("1")))
    sink(ev.ReconcileFinished(("ns", "b"), ev.Outcome.ERROR, 0.1, error="boom"))
    sink(ev.Requeued(("ns", "b"), 3600.0, "error", 1))
    sink(ev.Requeued(KEY, 5.0, "requeue_after"))
    assert [type(e).__name__ for e in sink_got] == [
        "ReconcileFinished",
        "Write",
        "ReconcileFinished",
        "Requeued",
    ]  # fmt: skip  (the once-mode backoff requeue is not told)
    assert not tally.clean and tally.failing == [("ns", "b")]
    assert tally.summary() == {
        "objects": 2, "reconciles": 2, "writes": 1, "errors": 1, "problems": 0,
        "failed": ["ns/b"],
    }  # fmt: skip
    sink(ev.ReconcileFinished(("ns", "b"), ev.Outcome.SUCCESS, 0.1))
    assert tally.clean
    tally.problem()
    assert not tally.clean


def test_a_timed_out_reconcile_fails_only_when_it_is_not_run_again() -> None:
    # --once: the controller does not run it again (again=False), and its success is a
    # failure of the bound the user set; a loop that runs it again counts it as it ends
    for again, failed in ((False, True), (True, False)):
        tally = Tally()
        tally.count(ev.ReconcileTimedOut(KEY, 31.0, 30.0, again))
        # --once ends without waiting for it: failed from the timeout on
        assert tally.failing == ([KEY] if failed else [])
        tally.count(ev.ReconcileFinished(KEY, ev.Outcome.SUCCESS, 31.5))
        assert tally.reconciles == 1
        assert (tally.errors, tally.clean) == ((1, False) if failed else (0, True))
        tally.count(ev.ReconcileFinished(KEY, ev.Outcome.SUCCESS, 0.1))  # the next: its own
        assert tally.clean


def test_problem_and_summary_lines() -> None:
    out = io.StringIO()
    log = DevLog(out, timestamps=False)
    log.problem(Location("d/a.yaml", 7, 9), "spec.size: Invalid value: 11")
    tally = Tally()
    tally.count(ev.ReconcileFinished(KEY, ev.Outcome.SUCCESS, 0.1))
    tally.problem()
    log.summary(tally)
    assert out.getvalue().splitlines() == [
        "d/a.yaml:7:9: error: spec.size: Invalid value: 11",
        "1 object, 1 reconcile, 0 writes, 0 errors, 1 input problem",
    ]
    out = io.StringIO()
    DevLog(out, format="json").problem(Location("d/a.yaml", 7, 9), "bad")
    body = json.loads(out.getvalue())
    assert {k: body[k] for k in ("event", "file", "line", "column", "message")} == {
        "event": "problem", "file": "d/a.yaml", "line": 7, "column": 9, "message": "bad",
    }  # fmt: skip


# -- --out across runs: the index of what it wrote ---------------------------------------


def run(
    directory: Path,
    *events: ev.Event,
    cache: dict[tuple[str, tuple[str, str]], dict[str, Any]] | None = None,
) -> None:
    """One run of the loop as --out sees it: its events, then the loop's end.
    ``cache`` is what the informers hold at the end ((resource, key) -> object)."""
    held = {(KEY_RESOURCE, KEY): PARENT, **(cache or {})}
    tracker = Changes(lambda resource, key: held.get((resource, key)), out=OutDir(str(directory)))
    for event in events:
        tracker.event(event)
    tracker.event(ev.Stopped())


KEY_RESOURCE = "gizmos.dev.example.com/v1"


def named(name: str) -> dict[str, Any]:
    made = child("1")
    made["metadata"]["name"] = name
    return made


def files(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())


def first_run(directory: Path) -> None:
    run(
        directory,
        ev.ReconcileStarted(KEY, KEY_RESOURCE),
        apply(named("a-cm")),
        apply(named("b-cm")),
        status({"size": 1}),
    )


def test_out_removes_what_an_earlier_run_wrote_and_nothing_stands_for(tmp_path: Path) -> None:
    first_run(tmp_path)
    mine = "default/configmap/user.yaml"
    (tmp_path / "default/configmap/user.yaml").write_text("a person's file\n")
    (tmp_path / "notes.txt").write_text("kept\n")
    assert files(tmp_path) == [
        ".kubectl-crd-out.json", "default/configmap/a-cm.yaml", "default/configmap/b-cm.yaml",
        mine, "default/gizmo.dev.example.com/a.yaml", "notes.txt",
    ]  # fmt: skip
    # a --local run: the parent now wants a-cm only (b-cm was never made: not cached)
    run(tmp_path, ev.ReconcileStarted(KEY, KEY_RESOURCE), apply(named("a-cm")))
    assert files(tmp_path) == [
        ".kubectl-crd-out.json", "default/configmap/a-cm.yaml", mine,
        "default/gizmo.dev.example.com/a.yaml", "notes.txt",
    ]  # fmt: skip
    # the object deleted before the next run: its files go, the person's stay
    run(tmp_path)
    assert files(tmp_path) == [mine, "notes.txt"]


def test_out_keeps_a_converged_restarts_files_and_an_edited_file(tmp_path: Path) -> None:
    first_run(tmp_path)
    # against a cluster, a converged restart reconciles and writes nothing; its
    # children are in the cache: every file stands
    cached = {("v1/ConfigMap", ("default", name)): named(name) for name in ("a-cm", "b-cm")}
    run(tmp_path, ev.ReconcileStarted(KEY, KEY_RESOURCE), cache=cached)
    assert len(files(tmp_path)) == 4
    # a file a person edited after the run wrote it is theirs: never removed
    (tmp_path / "default/configmap/b-cm.yaml").write_text("edited\n")
    run(tmp_path)  # the object gone
    assert files(tmp_path) == ["default/configmap/b-cm.yaml"]


def test_out_removes_an_earlier_runs_child_the_loop_deletes(tmp_path: Path) -> None:
    first_run(tmp_path)
    cached = {("v1/ConfigMap", ("default", "a-cm")): named("a-cm")}
    run(
        tmp_path,
        ev.ReconcileStarted(KEY, KEY_RESOURCE),
        ev.Write(KEY, "delete", "ConfigMap", "default", "b-cm"),
        cache={**cached, ("v1/ConfigMap", ("default", "b-cm")): named("b-cm")},
    )
    assert "default/configmap/b-cm.yaml" not in files(tmp_path)
    assert "default/configmap/a-cm.yaml" in files(tmp_path)


def test_a_dry_run_or_an_unreadable_index_removes_nothing(tmp_path: Path) -> None:
    first_run(tmp_path)
    run(tmp_path, ev.Write(KEY, "apply", "ConfigMap", "default", "a-cm", True, named("a-cm")))
    assert len(files(tmp_path)) == 4
    (tmp_path / OutDir.INDEX).write_text("{not json")
    run(tmp_path)
    # the objects' files stay (untracked from now on), the unreadable index goes
    assert files(tmp_path) == [
        "default/configmap/a-cm.yaml", "default/configmap/b-cm.yaml",
        "default/gizmo.dev.example.com/a.yaml",
    ]  # fmt: skip
    # an index naming a path out_path does not make (another file) is not followed
    (tmp_path / OutDir.INDEX).write_text(json.dumps({"files": {"notes.txt": {
        "identity": ["v1", "ConfigMap", "default", "a-cm"], "owner": ["x", "y"],
        "child": True, "sha256": "0"}}}))  # fmt: skip
    (tmp_path / "notes.txt").write_text("kept\n")
    run(tmp_path)
    assert (tmp_path / "notes.txt").exists()
