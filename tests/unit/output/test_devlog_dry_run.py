"""``--dry-run``'s display: each write the loop would make, as ``kubectl diff`` shows it
(kubectl's diff.go: a server dry run, then the live object against the server's answer),
by the one printer that shows ``--local``'s writes (a YAML diff under the write's line;
``changes`` in the JSON line). Nothing is recorded and no ``--out`` file is written: a
dry run writes nothing."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

from kubectl_crd.output.devlog import Changes, DevLog, OutDir
from kubectl_crd.reconcile import events as ev

KEY = ("default", "a")
SERVER_METADATA = {"uid": "u-9", "resourceVersion": "12", "creationTimestamp": "2026-01-01T00:00:00Z",
                   "managedFields": [{"manager": "kubectl-crd-dev"}]}  # fmt: skip
PARENT: dict[str, Any] = {
    "apiVersion": "dev.example.com/v1",
    "kind": "Gizmo",
    "metadata": {"name": "a", "namespace": "default", "uid": "u-1", "generation": 3},
    "spec": {"size": 2},
    "status": {"size": 1, "observedGeneration": 2},
}


def live_child(size: str) -> dict[str, Any]:
    """A ConfigMap as the server holds it: the loop's fields and the server's."""
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "a-cm", "namespace": "default", **SERVER_METADATA,
                     "labels": {"team": "x"}},
        "data": {"size": size, "owner": "a"},
    }  # fmt: skip


def lookup(resource: str, key: tuple[str, str]) -> dict[str, Any] | None:
    if key == KEY and resource.startswith("gizmos."):
        return PARENT
    if key == ("default", "a-cm") and resource == "v1/ConfigMap":
        return live_child("1")
    return None


def run(*events: ev.Event, out: OutDir | None = None, format: str = "text") -> list[str]:
    stream = io.StringIO()
    log = DevLog(stream, format=format, timestamps=False, colour=False)
    log.changes = Changes(lookup, out=out)
    for event in events:
        log(event)
    return stream.getvalue().splitlines()


STARTED = ev.ReconcileStarted(KEY, "gizmos.dev.example.com/v1")


def test_a_dry_run_apply_is_the_live_object_against_the_servers_answer() -> None:
    answer = live_child("2")  # the server's merge of the apply: only size changes
    body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a-cm"},
            "data": {"size": "2", "owner": "a"}}  # fmt: skip
    write = ev.Write(KEY, "apply", "ConfigMap", "default", "a-cm", True, body, answer)
    assert run(STARTED, write) == [
        "  configmap default/a-cm applied (server dry run)",
        "    @@ -1,7 +1,7 @@",
        "     apiVersion: v1",
        "     data:",
        "       owner: a",
        '    -  size: "1"',
        '    +  size: "2"',
        "     kind: ConfigMap",
        "     metadata:",
        "       labels:",
    ]


def test_a_dry_run_of_a_new_child_delete_and_status() -> None:
    new = {"apiVersion": "v1", "kind": "ConfigMap",
           "metadata": {"name": "a-new", "namespace": "default", **SERVER_METADATA},
           "data": {"k": "v"}}  # fmt: skip
    parent = copy.deepcopy(PARENT)
    parent["status"] = {"size": 2, "observedGeneration": 3}
    lines = run(
        STARTED,
        ev.Write(KEY, "apply", "ConfigMap", "default", "a-new", True, new, new),
        ev.Write(KEY, "delete", "ConfigMap", "default", "a-cm", True, None, live_child("1")),
        ev.Write(KEY, "status", "Gizmo", "default", "a", True, {"status": {}}, parent),
    )
    assert lines == [
        "  configmap default/a-new applied (server dry run)",
        "    @@ -0,0 +1,7 @@",
        "    +apiVersion: v1",
        "    +data:",
        "    +  k: v",
        "    +kind: ConfigMap",
        "    +metadata:",
        "    +  name: a-new",
        "    +  namespace: default",
        "  configmap default/a-cm deleted (server dry run)",
        "    @@ -1,10 +0,0 @@",
        "    -apiVersion: v1",
        "    -data:",
        "    -  owner: a",
        '    -  size: "1"',
        "    -kind: ConfigMap",
        "    -metadata:",
        "    -  labels:",
        "    -    team: x",
        "    -  name: a-cm",
        "    -  namespace: default",
        "  gizmo default/a status written (server dry run)",
        "    @@ -1,3 +1,3 @@",
        "     status:",
        "    -  observedGeneration: 2",
        "    -  size: 1",
        "    +  observedGeneration: 3",
        "    +  size: 2",
    ]


def test_the_json_line_carries_the_changes_and_no_out_file_is_written(tmp_path: Path) -> None:
    write = ev.Write(KEY, "apply", "ConfigMap", "default", "a-cm", True, {}, live_child("2"))
    out = OutDir(str(tmp_path))
    (line,) = run(write, out=out, format="json")
    body = json.loads(line)
    assert body["changes"] == [{"op": "replace", "path": "/data/size", "old": "1", "new": "2"}]
    assert body["dry_run"] is True
    assert list(tmp_path.iterdir()) == []
    # a second look at the same dry run sees the same live object: nothing was recorded
    assert run(write, out=out)[1:] == run(write)[1:] != []


def test_the_request_body_is_not_printed_as_json_any_more() -> None:
    body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    lines = run(ev.Write(KEY, "apply", "ConfigMap", "default", "c", True, body, None))
    assert lines == ["  configmap default/c applied (server dry run)"]
