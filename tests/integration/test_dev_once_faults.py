"""``kubectl crd dev --once`` over reconcilers that misbehave, run as a user runs it
(``--local``: no server is needed for what is tested here; the loop's rules are the
same against a cluster).

A reconcile that runs past ``--reconcile-timeout`` cannot be killed (a thread); the
loop reconciles the object again once it returns. With ``--once`` that again-and-again
never ended the run for a reconciler slower than the timeout: the run now ends after
the one pass, reports the object as failed and exits 1, as a failed reconcile does.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_runner import run_cli
from tests.integration.envtest import newest_kubectl

REPO = Path(__file__).resolve().parents[2]
FOO = REPO / "examples" / "foo"
#: what a run that ends takes, many times over (a run that never ends hits it)
HANG_GUARD = 60.0

SLOW = """\
import time

FOR = "foos.samplecontroller.k8s.io/v1alpha1"


def reconcile(obj, ctx):
    time.sleep(1.5)  # the watchdog (every 0.1 s) sees it past 200 ms, even under load
    return {"status": {"availableReplicas": 0}}
"""


def run_dev(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    environ.update({"HOME": str(cwd), **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "dev", *args],
        cwd=cwd,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=False,
    )


def local_dir(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    for name in ("crd.yaml", "foo.yaml"):
        (data / name).write_text((FOO / name).read_text())
    return data


HUNG = """\
import threading

FOR = "foos.samplecontroller.k8s.io/v1alpha1"


def reconcile(obj, ctx):
    threading.Event().wait()  # never returns: a thread cannot be killed
"""


@pytest.mark.parametrize("reconciler", ["slow", "hung"])
def test_once_ends_after_a_reconcile_past_the_timeout_and_exits_1(
    tmp_path: Path, reconciler: str
) -> None:
    # the run ends once the reconcile ran past the timeout: it counts as failed at once,
    # not when it returns (before, a reconciler that never returns never ended the
    # run: `--once` in CI hung until the job's own timeout)
    (tmp_path / "rec.py").write_text(SLOW if reconciler == "slow" else HUNG)
    local_dir(tmp_path)
    began = time.monotonic()
    done = run_dev(
        "rec.py", "--local", "data", "--once", "--reconcile-timeout", "200ms",
        "--log-format", "json", cwd=tmp_path,
    )  # fmt: skip
    took = time.monotonic() - began
    events = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [event["event"] for event in events]
    assert kinds.count("ReconcileStarted") == 1, kinds
    assert kinds.count("ReconcileTimedOut") == 1, kinds
    # not waited for (the hung one never returns; the slow one may, on a loaded machine,
    # while the run stops: it then counts once, as failed)
    assert kinds.count("ReconcileFinished") <= (1 if reconciler == "slow" else 0), kinds
    assert "Requeued" not in kinds  # not reconciled again: the run is over
    assert events[-1] == {
        "event": "summary", "objects": 1, "reconciles": 1, "writes": 0, "errors": 1,
        "problems": 0, "failed": ["default/example-foo"], "time": events[-1]["time"],
    }  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert took < 25, took  # start-up and the timeout; not the stop's 30 s grace


def test_envtest_without_the_crd_says_to_give_it_with_crd(
    envtest_assets: Path, tmp_path: Path
) -> None:
    # the hint for a CRD not installed is for what the user runs: with --envtest the
    # only way in is --crd (before: "kubectl apply -f it, or run with --envtest --crd")
    (tmp_path / "slow.py").write_text(SLOW)
    env_assets = {"KUBEBUILDER_ASSETS": str(envtest_assets)}
    done = run_dev("slow.py", "--envtest", "--once", cwd=tmp_path, env=env_assets)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[0] == (
        "error: slow.py:3:7: FOR: the server doesn't have a resource type "
        '"foos.samplecontroller.k8s.io" (is its CRD installed? give it with --crd FILE)'
    )


BAD_DURATIONS = ["abc", "1x", "1.5.5s"]


@pytest.mark.parametrize("value", BAD_DURATIONS)
@pytest.mark.parametrize("flag", ["--reconcile-timeout", "--resync"])
def test_a_bad_duration_is_refused_in_kubectls_words(flag: str, value: str) -> None:
    # pflag's DurationVar, as kubectl wait's --timeout refuses the same value (before
    # any kubeconfig is read): the same two lines, the flag and command renamed
    theirs = subprocess.run(
        [newest_kubectl(), "wait", "pods", "--for=delete", "--timeout", value],
        capture_output=True,
        text=True,
        check=False,
        env={"KUBECONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"},
    )
    ours = run_cli("dev", "r.py", flag, value, env={"KUBECONFIG": "/nonexistent"})
    expected = theirs.stderr.replace('"--timeout"', f'"{flag}"').replace(
        "'kubectl wait ", "'kubectl crd dev "
    )
    assert theirs.returncode == 1 and expected.startswith(f'error: invalid argument "{value}"')
    assert (ours.returncode, ours.stderr) == (1, expected)


def test_a_negative_duration_is_refused_in_pflags_frame() -> None:
    # pflag takes a negative duration; the loop cannot use one: refused in the same frame
    ours = run_cli("dev", "r.py", "--resync", "-1m", env={"KUBECONFIG": "/nonexistent"})
    assert (ours.returncode, ours.stderr) == (
        1,
        'error: invalid argument "-1m" for "--resync" flag: must not be negative\n'
        "See 'kubectl crd dev --help' for usage.\n",
    )


KUBECONFIG_FOR_ALICE = """\
apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:9"}
users:
- name: alice-admin
  user: {token: not-a-secret}
contexts:
- name: c
  context: {cluster: c, user: alice-admin}
current-context: c
"""


@pytest.mark.parametrize("kubeconfig", ["alice", "none"])
def test_as_group_without_as_is_refused_in_kubectls_words(kubeconfig: str, tmp_path: Path) -> None:
    # clientcmd's validateAuthInfo names the context's user entry (nothing without a
    # kubeconfig); before, the loop always said "for  without" (client-go's transport)
    path = tmp_path / "kubeconfig"
    if kubeconfig == "alice":
        path.write_text(KUBECONFIG_FOR_ALICE)
    (tmp_path / "r.py").write_text(SLOW)
    theirs = subprocess.run(
        [newest_kubectl(), "get", "pods", "--as-group", "devs"],
        capture_output=True,
        text=True,
        check=False,
        env={"KUBECONFIG": str(path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    ours = run_dev("r.py", "--as-group", "devs", cwd=tmp_path, env={"KUBECONFIG": str(path)})
    user = "alice-admin" if kubeconfig == "alice" else ""
    assert theirs.stderr == (
        f"error: requesting uid, groups or user-extra for {user} without impersonating a user\n"
    )
    assert (ours.returncode, ours.stderr) == (theirs.returncode, theirs.stderr)


def test_once_with_stdout_closed_exits_without_a_traceback(tmp_path: Path) -> None:
    # `kubectl crd dev ... >&-`: Python starts with sys.stdout None; the exit's flush
    # of the standard streams raised AttributeError (a traceback, exit 1) in every command
    done = subprocess.run(
        [sys.executable, "-c", "import os, sys; os.close(1); "
         "os.execv(sys.executable, [sys.executable, '-m', 'kubectl_crd', *sys.argv[1:]])",
         "dev", str(FOO / "reconciler.py"), "--local", str(FOO), "--once"],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=False,
        stderr=subprocess.PIPE, text=True, timeout=HANG_GUARD, check=False,
        env={k: v for k, v in os.environ.items() if k != "KUBECTL_CRD_DEBUG"},
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr


# in flight until the test lets it go (the file "release"), whatever the machine's load
HELD = """\
import os
import time

FOR = "foos.samplecontroller.k8s.io/v1alpha1"


def reconcile(obj, ctx):
    deadline = time.monotonic() + 60
    while not os.path.exists("release") and time.monotonic() < deadline:
        time.sleep(0.02)
"""


def test_a_reader_gone_while_the_loop_stops_lets_the_stop_finish(tmp_path: Path) -> None:
    # `kubectl crd dev ... | head`: the log's reader goes while the loop is already
    # stopping (Ctrl-C, a reconcile held in flight). The loop stops itself with SIGTERM when
    # its reader goes; during the stop that SIGTERM was taken for a second Ctrl-C: the
    # stop was cut short, "Aborted!" and exit 130 (with --once over one Foo, every time)
    (tmp_path / "held.py").write_text(HELD)
    local_dir(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECTL_CRD_DEBUG", "KUBECONFIG")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kubectl_crd", "dev", "held.py", "--local", "data"],
        cwd=tmp_path, env={**env, "HOME": str(tmp_path)}, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    try:
        seen = []
        for wanted in ("for changes", "stopping, finishing 1 in flight"):
            while not any(wanted in line for line in seen):
                line = proc.stdout.readline()
                assert line, seen
                seen.append(line)
            if wanted == "for changes":  # the first reconcile is still in flight
                proc.send_signal(signal.SIGINT)
        proc.stdout.close()  # the reader goes, the reconcile still running
        time.sleep(0.8)  # the log notices an idle reader gone within 0.5 s
        (tmp_path / "release").touch()
        err = proc.stderr.read()
        proc.wait(HANG_GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert "Aborted!" not in err
    assert proc.returncode == 0, err


def test_a_missing_crd_file_is_refused_before_a_control_plane_starts(tmp_path: Path) -> None:
    # before, --envtest started etcd and kube-apiserver (seconds) and only then said
    # "error: /nonexist: cannot read: ..."; --local said it at once, in other words
    (tmp_path / "slow.py").write_text(SLOW)
    missing = str(tmp_path / "nonexist.yaml")
    for mode in (("--envtest",), ("--local", str(local_dir(tmp_path)))):
        done = run_dev("slow.py", *mode, "--crd", missing, "--once", cwd=tmp_path,
                       env={"KUBEBUILDER_ASSETS": "/nonexistent-assets"})  # fmt: skip
        assert (done.returncode, done.stdout, done.stderr) == (
            1,
            "",
            f'error: the path "{missing}" does not exist\n',  # as every command's --crd
        )


def test_local_dry_run_is_not_called_a_server_dry_run(tmp_path: Path) -> None:
    # with --local no server checks the write: the in-process store does (kubectl's
    # client-side "(dry run)", not its "(server dry run)")
    done = run_dev(str(FOO / "reconciler.py"), "--local", str(FOO), "--once", "--dry-run",
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "  deployment default/example-foo applied (dry run)\n" in done.stdout
    assert "  foo default/example-foo status written (dry run)\n" in done.stdout
    assert "server" not in done.stdout


def test_out_inside_the_local_dir_is_not_read_back_as_input(tmp_path: Path) -> None:
    # `--local . --out out`: the files the loop writes are its output, not DIR's
    # objects. Before, the next run read out/'s Foo and ConfigMap back (the Foo twice,
    # the ConfigMap refused: ownerReferences.uid empty) and its manifest as a YAML
    # file ("'/' is not a resource"): 2 input problems and exit 1 for a clean run
    data = local_dir(tmp_path)
    args = (str(FOO / "reconciler.py"), "--local", "data", "--out", "data/out", "--once")
    for _ in range(2):
        done = run_dev(*args, "--log-format", "json", cwd=tmp_path)
        events = [json.loads(line) for line in done.stdout.splitlines()]
        assert [e for e in events if e["event"] == "problem"] == []
        assert (events[-1]["objects"], events[-1]["problems"], done.returncode) == (1, 0, 0)
    assert (data / "out" / "default" / "deployment.apps" / "example-foo.yaml").exists()
