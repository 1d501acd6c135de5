"""``kubectl crd dev``: its flags checked before anything runs, and bad input as one line.

What needs no cluster: the flag checks (``dev_options``, a pure function), a reconciler
file that is missing or does not import, a kubeconfig that is missing or names a server
that refuses connections, and where ``--envtest`` looks for its binaries. The loop
itself runs against the real API server in ``tests/integration/test_dev_cli.py``.
"""

from __future__ import annotations

import json
import os
import socket
import stat
from pathlib import Path

import pytest

from kubectl_crd.cli.commands.dev import DevOptions, dev_options
from kubectl_crd.model.errors import ControlPlaneError, UsageError
from kubectl_crd.reconcile.controlplane import asset_places, find_assets
from tests.cli_runner import run_cli

GOOD = 'FOR = "widgets.dev.example.com/v1"\n\ndef reconcile(obj, ctx):\n    return None\n'


def test_defaults() -> None:
    assert dev_options("r.py") == DevOptions(file="r.py", reconcile_timeout=30.0, resync=None)


@pytest.mark.parametrize(
    ("flags", "workers"),
    [
        ({}, 8),  # a worker mostly waits for the server
        ({"local": "."}, 1),  # the in-process store answers at once
        ({"jobs": 3}, 3),
        ({"jobs": 3, "local": "."}, 3),
    ],
)
def test_workers_default_to_8_against_a_cluster_and_1_with_local(
    flags: dict[str, object], workers: int
) -> None:
    from kubectl_crd.cli.commands.dev import _workers

    assert _workers(dev_options("r.py", **flags)) == workers  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("flag", "value", "seconds"),
    [
        ("reconcile_timeout", "30s", 30.0),
        ("reconcile_timeout", "1m30s", 90.0),
        ("reconcile_timeout", "250ms", 0.25),
        ("reconcile_timeout", "0", None),
        ("reconcile_timeout", "12", 12.0),
        ("resync", "10m", 600.0),
        ("resync", None, None),
    ],
)
def test_durations(flag: str, value: str | None, seconds: float | None) -> None:
    assert getattr(dev_options("r.py", **{flag: value}), flag) == seconds  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"jobs": 0}, "-j/--jobs must be at least 1"),
        ({"crd_paths": ("crds/",)}, "--crd installs CRDs in the --envtest control plane"),
        (
            {"reconcile_timeout": "3x"},
            'invalid argument "3x" for "--reconcile-timeout" flag: time: unknown unit',
        ),
        ({"resync": "-1m"}, 'invalid argument "-1m" for "--resync" flag: must not be negative'),
        ({"selector": "a in (b"}, "invalid -l/--selector 'a in (b'"),
        ({"field_manager": ""}, "--field-manager must not be empty"),
    ],
)
def test_bad_flags_are_usage_errors(flags: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError) as raised:
        dev_options("r.py", **flags)  # type: ignore[arg-type]
    assert str(raised.value).startswith(message)


def test_envtest_takes_crds_and_as_takes_groups() -> None:
    options = dev_options(
        "r.py", crd_paths=("c.yaml",), envtest=True, as_user="me", as_groups=("a", "b")
    )
    assert (options.crd_paths, options.as_user, options.as_groups) == (
        ("c.yaml",),
        "me",
        ("a", "b"),
    )


def _run(tmp_path: Path, *args: str, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    base = {"HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "no-kubeconfig")}
    return run_cli("dev", *args, env={**base, **(env or {})})


def test_a_missing_file_is_one_line_and_exit_1(tmp_path: Path) -> None:
    result = _run(tmp_path, str(tmp_path / "nothere.py"))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: {tmp_path / 'nothere.py'}: no such file or directory"
    ]
    assert "Traceback" not in result.stderr


def test_a_file_that_does_not_compile_shows_file_line_and_caret(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text('FOR = "widgets.dev.example.com/v1"\ndef reconcile(obj, ctx:\n    pass\n')
    result = _run(tmp_path, str(path))
    assert result.returncode == 1
    first, line, caret = result.stderr.splitlines()
    assert first.startswith(f"error: {path}:2:")
    assert "SyntaxError" in first
    assert line.strip() == "def reconcile(obj, ctx:"
    assert caret.strip() == "^"
    assert "Traceback" not in result.stderr


def test_a_traceback_only_with_debug(tmp_path: Path) -> None:
    path = tmp_path / "raises.py"
    path.write_text("raise RuntimeError('at import')\n")
    plain = _run(tmp_path, str(path))
    debug = _run(tmp_path, str(path), "--debug")
    assert plain.returncode == debug.returncode == 1
    assert f"{path}:1:" in plain.stderr and "RuntimeError: at import" in plain.stderr
    assert "Traceback" not in plain.stderr
    assert "Traceback" in debug.stderr


def test_a_missing_watch_extra_path_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "r.py"
    path.write_text(GOOD)
    result = _run(tmp_path, str(path), "--watch-extra", str(tmp_path / "gone" / "x.yaml"))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: --watch-extra {tmp_path / 'gone' / 'x.yaml'}: no such file or directory"
    ]


def test_a_missing_kubeconfig_is_kubectls_line(tmp_path: Path) -> None:
    path = tmp_path / "r.py"
    path.write_text(GOOD)
    result = _run(tmp_path, str(path), "--kubeconfig", str(tmp_path / "missing"))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: stat {tmp_path / 'missing'}: no such file or directory"
    ]


def test_an_unreachable_cluster_at_start_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": {"server": f"https://127.0.0.1:{port}"}}],
        "users": [{"name": "u", "user": {"token": "secret-token-never-shown"}}],
        "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "c",
    }
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(json.dumps(config))
    path = tmp_path / "r.py"
    path.write_text(GOOD)
    result = _run(tmp_path, str(path), "--kubeconfig", str(kubeconfig))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"The connection to the server 127.0.0.1:{port} was refused - did you specify the right host or port?"
    ]
    assert "secret-token-never-shown" not in result.stdout + result.stderr


def test_help_names_every_flag() -> None:
    result = run_cli("dev", "--help")
    assert result.returncode == 0
    for flag in (
        "--crd",
        "-A, --all-namespaces",
        "-l, --selector",
        "-j, --jobs",
        "--dry-run",
        "--as ",
        "--as-group",
        "--reconcile-timeout",
        "--resync",
        "--watch-extra",
        "--field-manager",
        "--envtest",
        "--remove-finalizers-on-exit",
        "--log-format",
        "-v, --verbose",
    ):
        assert flag in result.stdout, flag


# -- where --envtest finds kube-apiserver and etcd ---------------------------------------


def _assets(directory: Path) -> Path:
    directory.mkdir(parents=True)
    for name in ("kube-apiserver", "etcd"):
        binary = directory / name
        binary.write_text("#!/bin/sh\n")
        binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    return directory


def test_kubebuilder_assets_first(tmp_path: Path) -> None:
    chosen = _assets(tmp_path / "mine")
    _assets(tmp_path / "data" / "kubebuilder-envtest" / "k8s" / "1.34.1-linux-amd64")
    environ = {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "KUBEBUILDER_ASSETS": str(chosen),
    }
    assert find_assets(environ) == str(chosen)


def test_setup_envtests_newest_version_then_the_projects_cache(tmp_path: Path) -> None:
    k8s = tmp_path / "data" / "kubebuilder-envtest" / "k8s"
    _assets(k8s / "1.9.0-linux-amd64")
    newest = _assets(k8s / "1.31.0-linux-amd64")
    (k8s / "1.40.0-linux-amd64").mkdir()  # incomplete: skipped
    envtest = tmp_path / "cache" / "kubectl-crd" / "envtest"
    older_recipe = _assets(envtest / "k8s-v1.34.4-etcd-v3.6.16-linux-amd64")
    cache = _assets(envtest / "k8s-v1.34.4-etcd-v3.6.16-r2-linux-amd64")
    environ = {
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    assert find_assets(environ) == str(newest)
    places = asset_places(environ)
    assert places.index(str(k8s / "1.40.0-linux-amd64")) < places.index(str(newest))
    assert (
        places.index(str(newest))
        < places.index(str(k8s / "1.9.0-linux-amd64"))
        < places.index(str(cache))
        < places.index(str(older_recipe))  # the same version built by an earlier recipe
    )
    for path in k8s.iterdir():
        for binary in path.iterdir():
            binary.unlink()
    assert find_assets(environ) == str(cache)


#: the line the user sees, pinned as text: the command's wording, moved out of the
#: engine (controlplane.py named the --envtest flag), is the same line
HOW_TO_GET = (
    "set KUBEBUILDER_ASSETS to a directory holding both, or fetch them with "
    "controller-runtime's setup-envtest "
    "(go install sigs.k8s.io/controller-runtime/tools/setup-envtest@latest; "
    "setup-envtest use), or build them with this project's hack/envtest-assets.sh (needs Go)"
)


def test_no_assets_says_how_to_get_them_in_one_line(tmp_path: Path) -> None:
    environ = {"HOME": str(tmp_path)}
    if os.access("/usr/local/kubebuilder/bin/kube-apiserver", os.X_OK):
        pytest.skip("this machine has envtest's default assets")
    with pytest.raises(ControlPlaneError) as raised:
        find_assets(environ, needed_for="--envtest")
    assert str(raised.value) == f"no kube-apiserver and etcd for --envtest: {HOW_TO_GET}"
    assert "\n" not in HOW_TO_GET
    for hint in ("KUBEBUILDER_ASSETS", "setup-envtest", "hack/envtest-assets.sh"):
        assert hint in HOW_TO_GET
    with pytest.raises(ControlPlaneError, match=r"KUBEBUILDER_ASSETS=/nowhere lacks"):
        find_assets({**environ, "KUBEBUILDER_ASSETS": "/nowhere"})
    # the engine's own words name no command's flag (the command adds "--envtest")
    with pytest.raises(ControlPlaneError) as raised:
        find_assets(environ)
    assert str(raised.value) == f"no kube-apiserver and etcd: {HOW_TO_GET}"


def test_envtest_without_assets_exits_1_with_that_line(tmp_path: Path) -> None:
    if os.access("/usr/local/kubebuilder/bin/kube-apiserver", os.X_OK):
        pytest.skip("this machine has envtest's default assets")
    path = tmp_path / "r.py"
    path.write_text(GOOD)
    result = _run(tmp_path, str(path), "--envtest", env={"KUBEBUILDER_ASSETS": ""})
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"error: no kube-apiserver and etcd for --envtest: {HOW_TO_GET}"
    ]


def test_as_and_as_group_override_the_kubeconfigs_impersonation(tmp_path: Path) -> None:
    """kubectl's --as/--as-group win over the user's as/as-groups (clientcmd overrides)."""
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.kube.credentials import impersonation_headers
    from kubectl_crd.kube.kubeconfig import resolve_connection

    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:6443"}}],
                "users": [{"name": "u", "user": {"as": "kc-user", "as-groups": ["kc-group"]}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
                "current-context": "c",
            }
        )
    )
    environ = {"HOME": str(tmp_path)}
    kept = resolve_connection(ClusterConfig(kubeconfig=str(kubeconfig)), environ)
    assert impersonation_headers(kept) == [
        ("Impersonate-User", "kc-user"),
        ("Impersonate-Group", "kc-group"),
    ]
    flags = ClusterConfig(
        kubeconfig=str(kubeconfig), impersonate_user="me", impersonate_groups=("a", "b")
    )
    assert impersonation_headers(resolve_connection(flags, environ)) == [
        ("Impersonate-User", "me"),
        ("Impersonate-Group", "a"),
        ("Impersonate-Group", "b"),
    ]


@pytest.mark.parametrize(("envtest", "left"), [(False, (("ns", "b"),)), (True, ())])
def test_stopped_is_logged_as_the_controller_counts_it_and_empty_when_the_objects_go(
    envtest: bool, left: tuple[tuple[str, str], ...]
) -> None:
    """The controller's count already leaves out what ``remove_finalizers`` took off
    (tests/integration/test_dev_controller.py, test_dev_stop.py); the command only says
    that with --envtest or --local no object is left at all."""
    from kubectl_crd.cli.commands.dev import _finalizers_sink
    from kubectl_crd.reconcile.events import Stopped, Stopping

    seen: list[object] = []
    sink = _finalizers_sink(seen.append, envtest=envtest)  # type: ignore[arg-type]
    sink(Stopping(0))
    sink(Stopped((("ns", "b"),), (("ns", "a"),)))
    assert seen == [Stopping(0), Stopped(left, (("ns", "a"),))]


@pytest.mark.parametrize(
    ("flags", "reconciled", "said"),
    [
        ({"envtest": True, "once": True}, False, True),
        ({"envtest": True, "once": True}, True, False),
        ({"envtest": True}, False, False),  # the loop runs on: objects may come
        ({"once": True}, False, False),  # a cluster's namespace may be empty
    ],
)
def test_envtest_once_that_reconciled_nothing_says_why(
    flags: dict[str, bool], reconciled: bool, said: bool
) -> None:
    # a new control plane holds no object and --crd installs CRDs only: `--envtest --crd
    # crd.yaml --once` ended '0 objects, 0 reconciles, 0 writes, 0 errors', exit 0, with
    # no word that nothing could have been checked
    from kubectl_crd.cli.commands.dev import _empty_plane_hint
    from kubectl_crd.output.devlog import Tally
    from kubectl_crd.reconcile import events as ev

    tally = Tally()
    if reconciled:
        tally.count(ev.ReconcileFinished(("ns", "a"), ev.Outcome.SUCCESS, 0.01))
    hint = _empty_plane_hint(dev_options("r.py", **flags), tally, "foos.x/v1")
    assert (hint is not None) == said, hint
    if said:
        assert hint is not None and hint.startswith(
            "--envtest: the control plane started for this run holds no foos.x/v1 object "
            "(--crd installs CRDs only), so --once reconciled none; "
        )
