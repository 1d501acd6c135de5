"""``kubectl crd <TAB>`` through the real kubectl: its ``__complete`` runs our helper.

kubectl (1.26+) finds ``kubectl_complete-crd`` on PATH (this venv's console script, next
to ``kubectl-crd``) and relays its answer (``k8s.io/kubectl/pkg/cmd/plugin/
plugin_completion.go``). Where kubectl completes the same flag itself (``-f``,
``--context``, ``-n``), its own answer for ``kubectl get``/``apply`` is the oracle: the
same candidates (as sets: kubectl lists a Go map) and the same directive.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.envtest import ControlPlane, newest_kubectl

ROOT = Path(__file__).resolve().parents[2]
CRONTAB = ROOT / "examples" / "crds" / "crontab.yaml"
BIN = Path(sys.executable).parent

KUBECONFIG = """\
apiVersion: v1
kind: Config
current-context: zeta
clusters:
- {name: c-two, cluster: {server: "https://127.0.0.1:1"}}
- {name: c-one, cluster: {server: "https://127.0.0.1:1"}}
users:
- {name: u-a, user: {token: "t-a"}}
contexts:
- {name: zeta, context: {cluster: c-one, user: u-a}}
- {name: alpha, context: {cluster: c-two, user: u-a}}
- {name: alpine, context: {cluster: c-two, user: u-a}}
"""


def environment(tmp_path: Path, kubeconfig: Path | str) -> dict[str, str]:
    for script in ("kubectl-crd", "kubectl_complete-crd"):
        if not (BIN / script).exists():
            pytest.fail(f"{script} is not installed next to {sys.executable}; pip install -e .")
    return {
        "PATH": os.pathsep.join([str(BIN), "/usr/bin", "/bin"]),
        "HOME": str(tmp_path),
        "KUBECONFIG": str(kubeconfig),
        "KUBECTL_CRD_CACHE_DIR": str(tmp_path / "cache"),
    }


def kubectl_complete(env: dict[str, str], *words: str) -> tuple[list[str], str]:
    """``kubectl __complete WORDS``: the candidates and the directive line."""
    result = subprocess.run(
        [newest_kubectl(), "__complete", *words],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    # kubectl's own debug lines only: nothing of ours, never a traceback
    assert "Traceback" not in result.stderr
    for line in result.stderr.splitlines():
        assert line.startswith(("[Debug]", "Completion ended", "E1", "W1", "I1")), line
    lines = result.stdout.splitlines()
    return lines[:-1], lines[-1]


@pytest.fixture
def offline(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "config"
    config.write_text(KUBECONFIG)
    return environment(tmp_path, config)


def test_commands(offline: dict[str, str]) -> None:
    candidates, directive = kubectl_complete(offline, "crd", "ex")
    assert [c.split("\t")[0] for c in candidates] == ["explain"]
    assert directive == ":4"


def test_field_paths_of_a_crd_file(offline: dict[str, str]) -> None:
    candidates, directive = kubectl_complete(
        offline, "crd", "explain", "--crd", str(CRONTAB), "crontab.spec."
    )
    fields = dict(c.split("\t") for c in candidates)
    assert fields["crontab.spec.cronSpec"] == "<string>"
    assert fields["crontab.spec.ports"] == "<[]Object>"
    assert all(name.startswith("crontab.spec.") for name in fields)
    assert directive == ":6"


def test_manifest_files_as_kubectl_apply_f(offline: dict[str, str]) -> None:
    ours = kubectl_complete(offline, "crd", "validate", "-f", "")
    assert ours == kubectl_complete(offline, "apply", "-f", "")
    assert kubectl_complete(offline, "crd", "explain", "--crd", "") == ours


@pytest.mark.parametrize("typed", ["", "al", "z"])
def test_contexts_as_kubectl(offline: dict[str, str], typed: str) -> None:
    ours, our_directive = kubectl_complete(offline, "crd", "get", "--context", typed)
    theirs, their_directive = kubectl_complete(offline, "get", "--context", typed)
    assert sorted(ours) == sorted(theirs)
    assert ours  # the kubeconfig has some for every prefix asked
    assert our_directive == their_directive


def test_kubeconfig_flag_before_the_command(offline: dict[str, str], tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.write_text(KUBECONFIG.replace("alpha", "omega"))
    ours, _ = kubectl_complete(offline, "crd", "--kubeconfig", str(other), "--context", "")
    theirs, _ = kubectl_complete(offline, "--kubeconfig", str(other), "get", "--context", "")
    assert sorted(ours) == sorted(theirs) == ["alpine", "omega", "zeta"]


def test_namespaces_of_an_unreachable_cluster_as_kubectl(offline: dict[str, str]) -> None:
    ours = kubectl_complete(offline, "crd", "get", "-n", "")
    assert ours == kubectl_complete(offline, "get", "-n", "") == ([], ":4")


def test_namespaces_as_kubectl(apiserver: ControlPlane, namespace: str, tmp_path: Path) -> None:
    env = environment(tmp_path, apiserver.kubeconfig)
    ours, our_directive = kubectl_complete(env, "crd", "get", "-n", "")
    theirs, their_directive = kubectl_complete(env, "get", "-n", "")
    assert namespace in ours
    assert sorted(ours) == sorted(theirs)
    assert our_directive == their_directive == ":4"
    prefix = namespace[:6]
    ours, _ = kubectl_complete(env, "crd", "get", "--namespace", prefix)
    theirs, _ = kubectl_complete(env, "get", "--namespace", prefix)
    assert sorted(ours) == sorted(theirs)


def test_resources_from_the_cluster(apiserver: ControlPlane, tmp_path: Path) -> None:
    apiserver.install_crds([CRONTAB])
    env = environment(tmp_path, apiserver.kubeconfig)
    # no discovery cache yet: one bounded request fills it
    candidates, directive = kubectl_complete(env, "crd", "explain", "cr")
    assert "crontabs\tCronTab (stable.example.com)" in candidates
    assert directive == ":4"
    assert list((tmp_path / "cache" / "discovery").iterdir())
    # built-in resources are kubectl's own business
    candidates, _ = kubectl_complete(env, "crd", "get", "")
    assert not any(c.startswith(("deployments", "pods", "configmaps")) for c in candidates)


def test_field_paths_from_the_cluster(apiserver: ControlPlane, tmp_path: Path) -> None:
    apiserver.install_crds([CRONTAB])
    env = environment(tmp_path, apiserver.kubeconfig)
    offline = dict(env, KUBECONFIG=str(tmp_path / "none"))
    from_file, _ = kubectl_complete(offline, "crd", "explain", "--crd", str(CRONTAB), "ct.spec.")
    candidates, directive = kubectl_complete(env, "crd", "explain", "ct.spec.")
    # the CRD the server serves, the same fields as its file
    assert candidates == from_file
    assert "ct.spec.cronSpec\t<string>" in candidates
    assert directive == ":6"
    qualified, _ = kubectl_complete(env, "crd", "explain", "crontabs.stable.example.com.spec.re")
    assert qualified == ["crontabs.stable.example.com.spec.replicas\t<integer>"]


def _krew_layout(tmp_path: Path, launcher: str) -> dict[str, str]:
    """krew's layout: the archive's files in store/crd/v0, the helper linked from bin
    (as the caveats say); ``launcher`` stands in for the archive's kubectl-crd."""
    store = tmp_path / "store" / "crd" / "v0"
    store.mkdir(parents=True)
    helper = store / "kubectl_complete-crd"
    helper.write_bytes((ROOT / "plugins" / "kubectl_complete-crd").read_bytes())
    (store / "kubectl-crd").write_text(launcher)
    for path in (helper, store / "kubectl-crd"):
        path.chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "kubectl_complete-crd").symlink_to(helper)
    (bin_dir / "kubectl-crd").symlink_to(store / "kubectl-crd")
    return {"PATH": os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"]), "HOME": str(tmp_path)}


def test_the_archive_s_helper_defers_to_the_launcher_beside_it(tmp_path: Path) -> None:
    # the stand-in runs this checkout's package, as the archive's launcher runs its own
    launcher = f'#!/bin/sh\nexec "{sys.executable}" -m kubectl_crd "$@"\n'
    env = _krew_layout(tmp_path, launcher)
    env["PYTHONPATH"] = str(ROOT)
    candidates, directive = kubectl_complete(env, "crd", "ex")
    assert [c.split("\t")[0] for c in candidates] == ["explain"]
    assert directive == ":4"


def test_a_launcher_that_cannot_start_shows_nothing(tmp_path: Path) -> None:
    launcher = "#!/bin/sh\necho 'error: kubectl crd needs CPython 3.11' >&2\nexit 1\n"
    env = _krew_layout(tmp_path, launcher)
    result = subprocess.run(
        [newest_kubectl(), "__complete", "crd", "ex"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    # kubectl ignores a failed helper's output (cobra's default: files); its stderr,
    # which kubectl would show under the prompt, stays empty
    assert (result.returncode, result.stdout) == (0, ":0\n")
    assert "CPython" not in result.stderr


def test_object_names_as_kubectl_get(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    apiserver.install_crds([CRONTAB])
    for name in ("nightly", "noon", "weekly"):
        apiserver.kubectl(
            "apply",
            "-n",
            namespace,
            "-f",
            "-",
            input=(
                "apiVersion: stable.example.com/v1\nkind: CronTab\n"
                f"metadata: {{name: {name}}}\nspec: {{cronSpec: '* * * * */5', image: x}}\n"
            ),
        )
    env = environment(tmp_path, apiserver.kubeconfig)
    for words in (["crontabs", ""], ["ct", "n"], ["crontabs/n"], ["crontab", "-A", "w"]):
        ours, our_directive = kubectl_complete(env, "crd", "get", "-n", namespace, *words)
        theirs, their_directive = kubectl_complete(env, "get", "-n", namespace, *words)
        assert sorted(ours) == sorted(theirs), words
        assert ours, words
        assert our_directive == their_directive == ":4"
    ours, _ = kubectl_complete(env, "crd", "scale", "-n", namespace, "crontabs", "")
    assert sorted(ours) == ["nightly", "noon", "weekly"]


def test_get_output_formats_are_kubectl_get_s(offline: dict[str, str]) -> None:
    ours, our_directive = kubectl_complete(offline, "crd", "get", "-o", "")
    theirs, their_directive = kubectl_complete(offline, "get", "-o", "")
    # every format kubectl get takes, by kubectl's names (the templates since d5e09b6)
    assert set(ours) == set(theirs)
    assert {"json", "yaml", "name", "wide", "jsonpath", "custom-columns", "go-template"} <= set(
        ours
    )
    assert our_directive == their_directive == ":4"
