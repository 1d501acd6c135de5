"""``kubectl crd dev`` end to end: the command in a subprocess against the real API server.

A reconciler file in ``tmp_path`` makes one ConfigMap per custom resource and writes
status. The oracle is what the server holds (children with their controller
ownerReference, status with observedGeneration) and its audit log (the loop's requests
carry the ``kubectl-crd/`` user agent): editing the file changes the children without a
new LIST or WATCH, a broken edit prints its file:line and leaves the old code
reconciling, and SIGINT (Ctrl-C) ends the loop with exit code 0.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane

GROUP = "cli.dev.example.com"
FOR = f"gizmos.{GROUP}/v1"
SCHEMA = {
    "type": "object",
    "properties": {
        "spec": {"type": "object", "properties": {"message": {"type": "string"}}},
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    },
}
HANG_GUARD = 60.0

RECONCILER = """\
FOR = "gizmos.cli.dev.example.com/v1"
OWNS = ["v1/ConfigMap"]
VERSION = "{version}"


def reconcile(obj, ctx):
    name = obj["metadata"]["name"]
    message = obj["spec"].get("message", "")
    child = {{
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {{"name": name + "-{suffix}"}},
        "data": {{"message": message, "version": VERSION}},
    }}
    return {{"children": [child], "status": {{"message": message, "version": VERSION}}}}
"""


@pytest.fixture(scope="module")
def gizmos_crd(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> str:
    crd = make_crd("Gizmo", GROUP, schema=SCHEMA)
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    path = tmp_path_factory.mktemp("crd") / "gizmos.json"
    path.write_text(json.dumps(crd))
    (name,) = apiserver.install_crds([path])
    return name


class Loop:
    """``kubectl crd dev`` running in a subprocess; its output lines kept as they come."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kubectl_crd", "dev", *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(self.proc.stderr, self.err), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: Any, into: list[str]) -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.out) + "\n--- stderr ---\n" + "\n".join(self.err)

    def wait_for_line(self, contains: str, *, after: int = 0) -> str:
        def found() -> str | None:
            return next((line for line in self.out[after:] if contains in line), None)

        return eventually(found, f"a line with {contains!r}", self)

    def interrupt(self, timeout: float = HANG_GUARD) -> int:
        self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            # where every thread of the loop is (faulthandler, on SIGABRT), and its lines
            self.proc.send_signal(signal.SIGABRT)
            self.proc.wait(10)
            for reader in self._readers:
                reader.join(30)
            pytest.fail(f"SIGINT did not stop the loop within {timeout:.0f} s:\n{self.output()}")
        for reader in self._readers:
            reader.join(30)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def eventually(check: Callable[[], Any], what: str, loop: Loop | None = None) -> Any:
    deadline = time.monotonic() + HANG_GUARD
    while True:
        value = check()
        if value:
            return value
        if loop is not None and loop.proc.poll() is not None:
            pytest.fail(
                f"the loop exited {loop.proc.returncode} waiting for {what}:\n{loop.output()}"
            )
        if time.monotonic() > deadline:
            extra = f":\n{loop.output()}" if loop is not None else ""
            pytest.fail(f"no {what} within {HANG_GUARD:.0f} s{extra}")
        time.sleep(0.1)


@pytest.fixture
def loop_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    env["HOME"] = str(tmp_path)  # the discovery cache of this test alone
    env["PYTHONFAULTHANDLER"] = "1"  # a loop that hangs shows its threads (Loop.interrupt)
    return env


def configmaps(apiserver: ControlPlane, namespace: str) -> dict[str, dict[str, Any]]:
    listed = json.loads(
        apiserver.kubectl("get", "configmaps", "-n", namespace, "-o", "json").stdout
    )
    return {
        item["metadata"]["name"]: item
        for item in listed["items"]
        if item["metadata"]["name"] != "kube-root-ca.crt"
    }


def gizmo(apiserver: ControlPlane, namespace: str, name: str) -> dict[str, Any]:
    got = apiserver.kubectl("get", f"gizmos.{GROUP}", name, "-n", namespace, "-o", "json")
    return json.loads(got.stdout)  # type: ignore[no-any-return]


def create_gizmo(apiserver: ControlPlane, namespace: str, name: str, message: str) -> None:
    body = {
        "apiVersion": f"{GROUP}/v1",
        "kind": "Gizmo",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {"message": message},
    }
    apiserver.kubectl("apply", "-f", "-", input=json.dumps(body))


def save(path: Path, text: str) -> None:
    """Save as an editor does, atomically (a temporary file renamed over the old one):
    a plain write can be seen half done (truncated) on a loaded machine, and that half
    is a reload of its own."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def loop_requests(apiserver: ControlPlane, mark: int, verbs: tuple[str, ...]) -> list[str]:
    return [
        f"{event['verb']} {event['requestURI'].split('?')[0]}"
        for event in apiserver.audit_events(mark)
        if event.get("userAgent", "").startswith("kubectl-crd/") and event["verb"] in verbs
    ]


def test_dev_reconciles_reloads_without_a_new_list_keeps_old_code_on_a_broken_edit_and_stops_on_ctrl_c(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    reconciler = tmp_path / "rec.py"
    reconciler.write_text(RECONCILER.format(version="1", suffix="cm"))
    create_gizmo(apiserver, namespace, "one", "hello")
    loop = Loop(
        ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig), "-j", "2"],
        tmp_path,
        loop_env,
    )
    try:
        loop.wait_for_line("watching rec.py for changes")
        create_gizmo(apiserver, namespace, "two", "world")

        # children with a controller ownerReference, status with observedGeneration
        def converged(suffix: str, version: str) -> bool:
            children = configmaps(apiserver, namespace)
            wanted = {f"one-{suffix}", f"two-{suffix}"}
            if set(children) != wanted:
                return False
            return all(children[name]["data"]["version"] == version for name in wanted) and all(
                (gizmo(apiserver, namespace, name).get("status") or {}).get("version") == version
                for name in ("one", "two")
            )

        eventually(lambda: converged("cm", "1"), "children and status of version 1", loop)
        child = configmaps(apiserver, namespace)["one-cm"]
        parent = gizmo(apiserver, namespace, "one")
        (owner,) = child["metadata"]["ownerReferences"]
        assert (owner["kind"], owner["name"], owner["uid"], owner["controller"]) == (
            "Gizmo",
            "one",
            parent["metadata"]["uid"],
            True,
        )
        assert child["data"]["message"] == "hello"
        assert parent["status"]["observedGeneration"] == parent["metadata"]["generation"]
        # the status is on the server before the reconcile that wrote it is logged
        loop.wait_for_line(f"reconciled {namespace}/one in ")

        # an edit: new children (renamed), the old ones deleted, no new LIST or WATCH
        mark = apiserver.audit_mark()
        seen = len(loop.out)
        save(reconciler, RECONCILER.format(version="2", suffix="config"))
        loop.wait_for_line("reloaded rec.py in ", after=seen)
        eventually(lambda: converged("config", "2"), "children and status of version 2", loop)
        assert loop_requests(apiserver, mark, ("list", "watch")) == []
        writes = loop_requests(apiserver, mark, ("create", "update", "patch", "delete"))
        # a set: a child's delete event may enqueue its parent again before the echo of
        # the parent's status write is in the cache, and that reconcile sends the same
        # status once more (the controller's; the server stores nothing new)
        assert set(writes) == set(
            [
                # the new children, absent: created (both POSTed to the collection)
                f"create /api/v1/namespaces/{namespace}/configmaps",
                f"delete /api/v1/namespaces/{namespace}/configmaps/one-cm",
                f"delete /api/v1/namespaces/{namespace}/configmaps/two-cm",
                f"patch /apis/{GROUP}/v1/namespaces/{namespace}/gizmos/one/status",
                f"patch /apis/{GROUP}/v1/namespaces/{namespace}/gizmos/two/status",
            ]
        )
        # every write the server saw has its line in the log, without -v: a child no
        # longer desired going is a write on the user's cluster as an apply is
        for write in set(writes):
            verb, path = write.split(" ")
            if verb == "create":  # the collection's URL: the two new children
                for name in ("one-config", "two-config"):
                    loop.wait_for_line(f"  configmap {namespace}/{name} applied", after=seen)
                continue
            name = path.split("/")[-2 if path.endswith("/status") else -1]
            said = {"patch": "applied", "delete": "deleted"}[verb]
            what = "configmap" if "/configmaps/" in path else "gizmo"
            if path.endswith("/status"):
                said = "status written"
            loop.wait_for_line(f"  {what} {namespace}/{name} {said}", after=seen)

        # a broken edit: its file:line printed, the version 2 code keeps reconciling
        seen = len(loop.out)
        save(reconciler, RECONCILER.format(version="3", suffix="x") + "def broken(:\n")
        failed = loop.wait_for_line("reload of rec.py failed", after=seen)
        line_number = RECONCILER.count("\n") + 1
        assert f"rec.py:{line_number}:" in failed and "SyntaxError" in failed
        apiserver.kubectl(
            "patch", f"gizmos.{GROUP}", "one", "-n", namespace, "--type=merge",
            "-p", '{"spec": {"message": "changed"}}',
        )  # fmt: skip
        eventually(
            lambda: configmaps(apiserver, namespace)["one-config"]["data"]["message"] == "changed",
            "the change reconciled by the running code",
            loop,
        )
        assert configmaps(apiserver, namespace)["one-config"]["data"]["version"] == "2"

        # Ctrl-C: a clean stop, exit code 0
        assert loop.interrupt() == 0, loop.output()
        assert loop.out[-1].endswith(" stopped"), loop.output()
        assert not any("Traceback" in line for line in loop.err), loop.output()
    finally:
        loop.kill()


def test_a_crd_that_is_not_installed_is_an_error_at_for_and_exit_1(
    apiserver: ControlPlane, tmp_path: Path, loop_env: dict[str, str]
) -> None:
    reconciler = tmp_path / "rec.py"
    reconciler.write_text(
        'FOR = "nothings.nowhere.example.com/v1"\n\ndef reconcile(obj, ctx):\n    pass\n'
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kubectl_crd",
            "dev",
            "rec.py",
            "--kubeconfig",
            str(apiserver.kubeconfig),
        ],
        cwd=tmp_path,
        env=loop_env,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "error: rec.py:1:7: FOR: the server doesn't have a resource type "
        '"nothings.nowhere.example.com" '
        "(is its CRD installed? kubectl apply -f it, or run with --envtest --crd FILE)",
        '    FOR = "nothings.nowhere.example.com/v1"',
        "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ]


def test_a_version_the_crd_does_not_serve_is_at_for_without_the_install_hint(
    apiserver: ControlPlane, gizmos_crd: str, tmp_path: Path, loop_env: dict[str, str]
) -> None:
    # the CRD is installed: "is its CRD installed? kubectl apply -f it" sent the user
    # the wrong way (it was said of every resource the loop could not resolve)
    (tmp_path / "rec.py").write_text(
        f'FOR = "gizmos.{GROUP}/v9"\n\ndef reconcile(obj, ctx):\n    pass\n'
    )
    result = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "dev", "rec.py", "--kubeconfig",
         str(apiserver.kubeconfig), "--once"],
        cwd=tmp_path, env=loop_env, capture_output=True, text=True, timeout=HANG_GUARD,
        check=False,
    )  # fmt: skip
    assert (result.returncode, result.stderr.splitlines()[0]) == (
        1,
        f'error: rec.py:1:7: FOR: gizmos.{GROUP} has no version "v9" (served: v1)',
    )


def test_dry_run_prints_the_writes_and_stores_nothing(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    (tmp_path / "rec.py").write_text(RECONCILER.format(version="1", suffix="cm"))
    create_gizmo(apiserver, namespace, "dry", "hi")
    loop = Loop(
        [
            "rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig),
            "--dry-run", "--log-format", "json",
        ],
        tmp_path,
        loop_env,
    )  # fmt: skip
    try:
        loop.wait_for_line('"event": "ReconcileFinished"')
        assert loop.interrupt() == 0, loop.output()
    finally:
        loop.kill()
    events = [json.loads(line) for line in loop.out]  # every line is JSON
    writes = [event for event in events if event["event"] == "Write"]
    assert {(w["verb"], w["name"], w["dry_run"]) for w in writes} == {
        ("apply", "dry-cm", True),
        ("status", "dry", True),
    }
    assert configmaps(apiserver, namespace) == {}
    assert "status" not in gizmo(apiserver, namespace, "dry")
    assert events[-1]["event"] == "Stopped"


def dev_once(args: list[str], cwd: Path, env: dict[str, str]) -> list[str]:
    """``kubectl crd dev ARGS --once``'s stdout lines (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "dev", *args, "--once"],
        cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=HANG_GUARD,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def writes_shown(lines: list[str]) -> list[str]:
    """The text log's write lines and the diffs under them, without time stamps."""
    shown: list[str] = []
    under_a_write = False
    for line in lines:
        text = line[len("12:00:00.000 ") :]
        if text.startswith("  ") and not text.startswith("    "):
            under_a_write = text.endswith(("dry run)", "applied", "deleted", "written"))
            if under_a_write:
                shown.append(text)
        elif under_a_write and text.startswith("    "):
            shown.append(text)
        else:
            under_a_write = False
    return shown


def test_dry_run_shows_each_write_as_kubectl_diff_does_the_same_with_local(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    (tmp_path / "rec.py").write_text(RECONCILER.format(version="1", suffix="cm"))
    create_gizmo(apiserver, namespace, "dry", "hi")
    on_cluster = ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig)]
    # the same gizmo and CRD as files, for --local
    local = tmp_path / "local"
    local.mkdir()
    crd = json.loads(apiserver.kubectl("get", "crd", gizmos_crd, "-o", "json").stdout)
    (local / "crd.json").write_text(json.dumps({k: crd[k] for k in ("apiVersion", "kind", "spec")}
                                               | {"metadata": {"name": gizmos_crd}}))  # fmt: skip
    (local / "dry.json").write_text(json.dumps(gizmo(apiserver, namespace, "dry")))

    # a first reconcile: the child would be created, the status written
    server = writes_shown(dev_once([*on_cluster, "--dry-run"], tmp_path, loop_env))
    in_process = writes_shown(dev_once(["rec.py", "--local", "local", "--dry-run"], tmp_path, loop_env))  # fmt: skip
    assert server[:2] == [
        f"  configmap {namespace}/dry-cm applied (server dry run)",
        "    @@ -0,0 +1,14 @@",
    ]
    assert [line.replace("(dry run)", "(server dry run)") for line in in_process] == server
    assert f"  gizmo {namespace}/dry status written (server dry run)" in server
    assert configmaps(apiserver, namespace) == {}  # a dry run stores nothing

    # over converged objects, a new version: only what would change, against the live objects
    dev_once(on_cluster, tmp_path, loop_env)
    (tmp_path / "rec.py").write_text(RECONCILER.format(version="2", suffix="cm"))
    server = writes_shown(dev_once([*on_cluster, "--dry-run"], tmp_path, loop_env))
    assert [line for line in server if not line.startswith("     ")] == [
        f"  configmap {namespace}/dry-cm applied (server dry run)",
        "    @@ -1,7 +1,7 @@",
        '    -  version: "1"',
        '    +  version: "2"',
        f"  gizmo {namespace}/dry status written (server dry run)",
        "    @@ -1,4 +1,4 @@",
        '    -  version: "1"',
        '    +  version: "2"',
    ]
    # and a child no longer desired: its delete shows the live object going
    (tmp_path / "rec.py").write_text(RECONCILER.format(version="1", suffix="cfg"))
    server = writes_shown(dev_once([*on_cluster, "--dry-run"], tmp_path, loop_env))
    deleted = server.index(f"  configmap {namespace}/dry-cm deleted (server dry run)")
    assert server[deleted + 1] == "    @@ -1,14 +0,0 @@"
    assert '    -  version: "1"' in server[deleted + 2 :]
    assert set(configmaps(apiserver, namespace)) == {"dry-cm"}


FINALIZING = """\
FOR = "gizmos.cli.dev.example.com/v1"


def reconcile(obj, ctx):
    return {"status": {"message": obj["spec"].get("message", "")}}


def finalize(obj, ctx):
    return True
"""


@pytest.mark.parametrize("remove", [False, True], ids=["warns", "removes"])
def test_ctrl_c_with_a_finalizer_set_warns_or_removes_it(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
    remove: bool,
) -> None:
    (tmp_path / "rec.py").write_text(FINALIZING)
    create_gizmo(apiserver, namespace, "held", "x")
    args = ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig)]
    loop = Loop([*args, "--remove-finalizers-on-exit"] if remove else args, tmp_path, loop_env)
    try:
        eventually(
            lambda: (
                "kubectl-crd.dev/finalizer"
                in (gizmo(apiserver, namespace, "held")["metadata"].get("finalizers") or ())
            ),
            "the loop's finalizer on the object",
            loop,
        )
        assert loop.interrupt() == 0, loop.output()
    finally:
        loop.kill()
    finalizers = gizmo(apiserver, namespace, "held")["metadata"].get("finalizers") or []
    text = loop.output()
    if remove:
        assert finalizers == []
        assert f"removed the loop's finalizer from {namespace}/held" in text
        assert "warning:" not in text
    else:
        assert finalizers == ["kubectl-crd.dev/finalizer"]
        (warning,) = [line for line in loop.out if "warning:" in line]
        assert "1 object still carries the loop's finalizer" in warning
        assert f"{namespace}/held (run again with --remove-finalizers-on-exit)" in warning
        # leave nothing undeletable behind for the namespace's clean-up
        apiserver.kubectl(
            "patch", f"gizmos.{GROUP}", "held", "-n", namespace, "--type=merge",
            "-p", '{"metadata": {"finalizers": null}}',
        )  # fmt: skip


SLOW = """\
import time

FOR = "gizmos.cli.dev.example.com/v1"


def reconcile(obj, ctx):
    time.sleep(60)
"""


def test_a_hang_is_reported_ctrl_c_waits_for_it_and_a_second_one_stops_at_once(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    (tmp_path / "rec.py").write_text(SLOW)
    create_gizmo(apiserver, namespace, "slow", "x")
    loop = Loop(
        [
            "rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig), "-v",
            "--reconcile-timeout", "1s",
        ],
        tmp_path,
        loop_env,
    )  # fmt: skip
    try:
        loop.wait_for_line(f"reconciling {namespace}/slow")
        late = loop.wait_for_line(f"still reconciling {namespace}/slow after ")
        assert late.endswith("(--reconcile-timeout 1.00s); it is reconciled again when it returns")
        loop.proc.send_signal(signal.SIGINT)
        loop.wait_for_line("stopping, finishing 1 in flight")
        time.sleep(0.5)
        assert loop.proc.poll() is None  # still finishing the reconcile
        began = time.monotonic()
        assert loop.interrupt(timeout=10) == 130
        assert time.monotonic() - began < 5
    finally:
        loop.kill()
    assert not any("Traceback" in line for line in loop.err), loop.output()


def test_as_runs_the_loop_with_the_impersonated_users_rights(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    """A user without RBAC rights: the server refuses the loop's list as it refuses
    kubectl's with the same --as, and the loop says so in the server's words, as its one
    fatal line (no "failed, retrying" before it), and exits 1."""
    from tests.integration.envtest import NO_RIGHTS_USER

    (tmp_path / "rec.py").write_text(RECONCILER.format(version="1", suffix="cm"))
    refused = apiserver.kubectl(
        "get", f"gizmos.{GROUP}", "-n", namespace, f"--as={NO_RIGHTS_USER}", "--as-group=g1",
        check=False,
    )  # fmt: skip
    assert refused.returncode == 1
    mark = apiserver.audit_mark()
    loop = Loop(
        [
            "rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig),
            "--as", NO_RIGHTS_USER, "--as-group", "g1",
        ],
        tmp_path,
        loop_env,
    )  # fmt: skip
    try:
        assert loop.proc.wait(HANG_GUARD) == 1
        for reader in loop._readers:
            reader.join(30)
    finally:
        loop.kill()
    assert [line for line in loop.out if "retrying" in line] == []
    assert loop.err == [refused.stderr.strip()], loop.output()  # kubectl's line, exactly
    lists = [
        event
        for event in apiserver.audit_events(mark)
        if event.get("userAgent", "").startswith("kubectl-crd/") and event["verb"] == "list"
    ]
    assert lists
    for event in lists:
        assert event["impersonatedUser"]["username"] == NO_RIGHTS_USER
        assert "g1" in event["impersonatedUser"]["groups"]
        assert event["responseStatus"]["code"] == 403


KUBERNETES_CLIENT = """\
FOR = "gizmos.cli.dev.example.com/v1"


def reconcile(obj, ctx):
    from kubernetes import client

    namespace = client.CoreV1Api(ctx.kubernetes).read_namespace(ctx.namespace)
    return {"status": {"namespaceUid": namespace.metadata.uid}}
"""


def test_ctx_kubernetes_is_an_official_client_on_the_same_kubeconfig(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    (tmp_path / "rec.py").write_text(KUBERNETES_CLIENT)
    create_gizmo(apiserver, namespace, "asks", "x")
    loop = Loop(
        ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig)], tmp_path, loop_env
    )
    try:
        status = eventually(
            lambda: gizmo(apiserver, namespace, "asks").get("status"), "a status", loop
        )
        assert loop.interrupt() == 0, loop.output()
    finally:
        loop.kill()
    uid = json.loads(apiserver.kubectl("get", "namespace", namespace, "-o", "json").stdout)
    assert status["namespaceUid"] == uid["metadata"]["uid"]


RAISING = """\
FOR = "gizmos.cli.dev.example.com/v1"


def reconcile(obj, ctx):
    if obj["spec"].get("message") == "bad":
        raise ValueError("no bad messages")
    return {"status": {"message": obj["spec"]["message"]}}
"""


def test_a_raising_reconciler_is_logged_at_its_line_retried_with_backoff_and_recovers(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    (tmp_path / "rec.py").write_text(RAISING)
    create_gizmo(apiserver, namespace, "flaky", "bad")
    loop = Loop(
        ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig)], tmp_path, loop_env
    )
    try:
        error = loop.wait_for_line(f"error in {namespace}/flaky after ")
        assert error.endswith(": rec.py:6: ValueError: no bad messages"), error
        loop.wait_for_line(f"requeued {namespace}/flaky in 5.0ms (backoff, 1 failure in a row)")
        loop.wait_for_line(f"requeued {namespace}/flaky in 10ms (backoff, 2 failures in a row)")
        apiserver.kubectl(
            "patch", f"gizmos.{GROUP}", "flaky", "-n", namespace, "--type=merge",
            "-p", '{"spec": {"message": "good"}}',
        )  # fmt: skip
        eventually(
            lambda: (
                (gizmo(apiserver, namespace, "flaky").get("status") or {}).get("message") == "good"
            ),
            "the status of the fixed object",
            loop,
        )
        loop.wait_for_line(f"reconciled {namespace}/flaky in ")
        assert loop.interrupt() == 0, loop.output()
    finally:
        loop.kill()


def test_selector_and_resync_reach_the_loop(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    """-l reconciles only the matching objects; --resync reconciles them again from the
    cache, with no change and no write."""
    (tmp_path / "rec.py").write_text(RAISING)
    for name, team in (("mine", "a"), ("theirs", "b")):
        create_gizmo(apiserver, namespace, name, "good")
        apiserver.kubectl("label", f"gizmos.{GROUP}", name, "-n", namespace, f"team={team}")
    loop = Loop(
        [
            "rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig),
            "-l", "team=a", "--resync", "1s",
        ],
        tmp_path,
        loop_env,
    )  # fmt: skip
    try:
        first = loop.wait_for_line(f"reconciled {namespace}/mine in ")
        assert first.endswith(", 1 write")
        again = loop.wait_for_line(
            f"reconciled {namespace}/mine in ", after=loop.out.index(first) + 1
        )
        assert again.endswith(", no writes")
        assert loop.interrupt() == 0, loop.output()
    finally:
        loop.kill()
    assert not any(f"{namespace}/theirs" in line for line in loop.out), loop.output()
    assert "status" in gizmo(apiserver, namespace, "mine")
    assert "status" not in gizmo(apiserver, namespace, "theirs")


REJECTED = """\
FOR = "gizmos.cli.dev.example.com/v1"
OWNS = ["v1/ConfigMap"]


def reconcile(obj, ctx):
    if obj["metadata"]["name"] == "odd":
        return ["not", "a", "result"]
    child = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Bad_Name"}}
    return {"children": [child]}
"""


def test_a_child_the_server_rejects_and_a_result_that_is_not_one_are_log_lines(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    (tmp_path / "rec.py").write_text(REJECTED)
    create_gizmo(apiserver, namespace, "even", "x")
    create_gizmo(apiserver, namespace, "odd", "x")
    refused = apiserver.kubectl(
        "create", "configmap", "Bad_Name", "-n", namespace, "--dry-run=server", check=False
    )
    server_says = refused.stderr.strip().removeprefix("error: failed to create configmap: ")
    assert refused.returncode == 1 and server_says.startswith('ConfigMap "Bad_Name" is invalid: ')
    loop = Loop(
        ["rec.py", "-n", namespace, "--kubeconfig", str(apiserver.kubeconfig)], tmp_path, loop_env
    )
    try:
        line = loop.wait_for_line(f"configmap {namespace}/Bad_Name apply refused (422): ")
        assert line.endswith(server_says), (line, server_says)
        odd = loop.wait_for_line(f"error in {namespace}/odd after ")
        assert ": rec.py:5: " in odd and "list" in odd, odd
        assert loop.interrupt() == 0, loop.output()
    finally:
        loop.kill()


def test_a_write_rbac_forbids_is_kubectls_line_and_the_loop_goes_on(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    # --as a user the plane's RBAC lets read gizmos and ConfigMaps and write gizmos'
    # status, not write ConfigMaps: the refused apply is the line kubectl prints for the
    # same server-side apply as the same user, the status is still written, and the
    # loop runs on (--once: exit 1, the object failed)
    user = f"limited-{namespace}"
    role = f"{namespace}-limited"
    for args in (
        ("create", "role", role, "-n", namespace, "--verb=get,list,watch",
         "--resource=configmaps,gizmos." + GROUP),
        ("create", "role", role + "-status", "-n", namespace, "--verb=patch,update",
         f"--resource=gizmos.{GROUP}/status"),
        ("create", "rolebinding", role, "-n", namespace, f"--role={role}", f"--user={user}"),
        ("create", "rolebinding", role + "-status", "-n", namespace, f"--role={role}-status",
         f"--user={user}"),
    ):  # fmt: skip
        apiserver.kubectl(*args)
    (tmp_path / "rec.py").write_text(RECONCILER.format(version="1", suffix="cm"))
    create_gizmo(apiserver, namespace, "g", "hello")
    child = {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "g-cm", "namespace": namespace}, "data": {"message": "hello"},
    }  # fmt: skip
    # the loop creates a child it does not have: kubectl's create, as the same user
    theirs = apiserver.kubectl(
        "create", "--field-manager=kubectl-crd-dev", f"--as={user}", "-f", "-",
        input=json.dumps(child), check=False,
    )  # fmt: skip
    forbidden = "Error from server (Forbidden): "
    assert theirs.returncode == 1 and theirs.stderr.startswith(forbidden)
    # kubectl create names its input; the server's line is the rest
    line = forbidden + theirs.stderr.strip().removeprefix(
        forbidden + 'error when creating "STDIN": '
    )
    done = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "dev", "rec.py", "-n", namespace, "--kubeconfig",
         str(apiserver.kubeconfig), "--as", user, "--once"],
        cwd=tmp_path, env=loop_env, capture_output=True, text=True, timeout=HANG_GUARD,
        check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (1, ""), done.stdout
    refused = next(line for line in done.stdout.splitlines() if "apply refused" in line)
    assert refused.endswith(f"configmap {namespace}/g-cm apply refused (403): {line}")
    assert "status written" in done.stdout
    assert done.stdout.splitlines()[-1].endswith(
        f"1 object, 1 reconcile, 1 write, 1 error; failed: {namespace}/g"
    )


UNSERVED_CHILD = """\
FOR = "gizmos.cli.dev.example.com/v1"
OWNS = ["v1/ConfigMap"]


def reconcile(obj, ctx):
    nope = {"apiVersion": "v1", "kind": "Nope", "metadata": {"name": "x"}}
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "y"}}
    return {"children": [nope, cm]}
"""


def test_a_child_of_a_kind_the_server_does_not_serve_is_kubectls_words_with_its_name(
    apiserver: ControlPlane,
    gizmos_crd: str,
    namespace: str,
    tmp_path: Path,
    loop_env: dict[str, str],
) -> None:
    # before: 'error in NS/g after ...: .../backends.py:NNN: ResourceNotFoundError: ...',
    # at the loop's own line, no child named, and the ConfigMap beside it not applied
    (tmp_path / "rec.py").write_text(UNSERVED_CHILD)
    create_gizmo(apiserver, namespace, "g", "x")
    nope = {"apiVersion": "v1", "kind": "Nope", "metadata": {"name": "x", "namespace": namespace}}
    theirs = apiserver.kubectl("apply", "-f", "-", input=json.dumps(nope), check=False)
    # kubectl: 'error: resource mapping not found for name: "x" namespace: "NS" from
    # "STDIN": no matches for kind "Nope" in version "v1"' / 'ensure CRDs are installed first'
    cause, hint = theirs.stderr.strip().split(": ", 4)[-1].splitlines()
    done = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "dev", "rec.py", "-n", namespace, "--kubeconfig",
         str(apiserver.kubeconfig), "--once"],
        cwd=tmp_path, env=loop_env, capture_output=True, text=True, timeout=HANG_GUARD,
        check=False,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (1, ""), done.stdout
    lines = done.stdout.splitlines()
    refused = next(line for line in lines if "apply refused" in line)
    assert refused.endswith(f"nope {namespace}/x apply refused: {cause}; {hint}"), refused
    assert any(line.endswith(f"configmap {namespace}/y applied") for line in lines), lines
    assert "Traceback" not in done.stdout and "backends.py" not in done.stdout
