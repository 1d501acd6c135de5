"""``kubectl crd completion bash|zsh|fish``: the scripts, run by the real shells.

Each script is loaded on its own in a fresh shell with ``kubectl-crd`` (this venv's
console script) on PATH and asked to complete a line: bash by calling the function
with ``COMP_LINE``/``COMP_POINT`` set as readline sets them, fish with ``complete -C``
(its own completion engine), zsh by calling the function with ``words``/``CURRENT`` set
and compsys's ``_describe``/``_files`` replaced by stubs that print what they were given
(compsys needs a terminal). A shell that is not installed skips its tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import run_cli

ROOT = Path(__file__).resolve().parents[3]
CRDS = str(ROOT / "examples" / "crds")
BIN = str(Path(sys.executable).parent)

KUBECONFIG = """\
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
contexts:
- {name: alpha, context: {cluster: c}}
- {name: alpine, context: {cluster: c}}
- {name: "arn:aws:eks:one", context: {cluster: c}}
- {name: zeta, context: {cluster: c}}
"""


def script(shell: str) -> str:
    result = run_cli("completion", shell)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "config"
    config.write_text(KUBECONFIG)
    return {
        "PATH": f"{BIN}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "KUBECONFIG": str(config),
        "KUBECTL_CRD_CACHE_DIR": str(tmp_path / "cache"),
    }


@pytest.fixture
def files(tmp_path: Path) -> Path:
    directory = tmp_path / "work"
    (directory / "sub").mkdir(parents=True)
    for name in ("a.yaml", "b.json", "c.txt", "d.yml"):
        (directory / name).write_text("")
    return directory


def need(shell: str) -> str:
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed")
    return found


def bash_complete(
    line: str, env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``line`` completed by the bash script, COMPREPLY one a line."""
    program = (
        'source /dev/stdin <<< "$SCRIPT"\n'
        "COMP_LINE=$LINE; COMP_POINT=${#LINE}\n"
        'read -r -a COMP_WORDS <<< "$LINE"\n'
        "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
        "__kubectl_crd_complete\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    return subprocess.run(
        [need("bash"), "--norc", "-c", program],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "SCRIPT": script("bash"), "LINE": line},
        cwd=cwd,
    )


def lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return [line for line in result.stdout.splitlines() if line]


def test_bash_commands(env: dict[str, str]) -> None:
    assert lines(bash_complete("kubectl-crd ex", env)) == ["explain"]
    assert lines(bash_complete("kubectl-crd s", env)) == ["sample", "scale"]


def test_bash_field_paths(env: dict[str, str]) -> None:
    found = lines(bash_complete(f"kubectl-crd explain --crd {CRDS} crontab.spec.re", env))
    assert found == ["crontab.spec.replicas"]


def test_bash_flag_value_after_equals_is_the_bare_value(env: dict[str, str]) -> None:
    # bash replaces the part after '=' (COMP_WORDBREAKS): the value alone
    assert lines(bash_complete("kubectl-crd --context=al", env)) == ["alpha", "alpine"]
    assert lines(bash_complete("kubectl-crd get --context ", env)) == [
        "alpha",
        "alpine",
        "arn:aws:eks:one",
        "zeta",
    ]


def test_bash_a_colon_leaves_the_part_bash_replaces(env: dict[str, str]) -> None:
    assert lines(bash_complete("kubectl-crd --context arn:aws:e", env)) == ["eks:one"]


def test_bash_manifests_are_yaml_and_json_files_and_directories(
    env: dict[str, str], files: Path
) -> None:
    found = lines(bash_complete("kubectl-crd validate -f ", env, cwd=files))
    assert sorted(found) == ["a.yaml", "b.json", "d.yml", "sub"]


def test_bash_no_files_where_none_fit(env: dict[str, str], files: Path) -> None:
    assert lines(bash_complete("kubectl-crd get -l ", env, cwd=files)) == []


def test_bash_any_file_for_the_kubeconfig(env: dict[str, str], files: Path) -> None:
    found = lines(bash_complete("kubectl-crd --kubeconfig ", env, cwd=files))
    assert sorted(found) == ["a.yaml", "b.json", "c.txt", "d.yml", "sub"]


ZSH_STUBS = r"""
_describe() { print -r -l -- "${(@P)4}" "opts:${(j: :)@[5,-1]}"; }
_files() { print -r -- "files:$*"; }
compset() { print -r -- "compset:$*"; }
compdef() { :; }
"""


def zsh_complete(words: list[str], env: dict[str, str]) -> list[str]:
    program = (
        ZSH_STUBS
        + 'eval "$SCRIPT"\n'
        + "words=(${(z)LINE}); [[ $LINE == *' ' ]] && words+=('')\n"
        + "CURRENT=${#words}\n"
        + "_kubectl_crd\n"
    )
    result = subprocess.run(
        [need("zsh"), "-f", "-c", program],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "SCRIPT": script("zsh"), "LINE": " ".join(words)},
    )
    assert result.stderr == ""
    return result.stdout.splitlines()


def test_zsh_candidates_with_descriptions(env: dict[str, str]) -> None:
    found = zsh_complete(["kubectl-crd", "ex"], env)
    assert found[0].startswith("explain:Explain the fields")
    assert found[-1] == "opts:"


def test_zsh_colons_escaped_and_the_flag_put_back_before_a_value(env: dict[str, str]) -> None:
    found = zsh_complete(["kubectl-crd", "--context=ar"], env)
    assert found == ["arn\\:aws\\:eks\\:one", "opts:-P --context="]


def test_zsh_no_space_after_a_field_with_fields(env: dict[str, str]) -> None:
    found = zsh_complete(["kubectl-crd", "explain", "--crd", CRDS, "crontab.spec.p"], env)
    assert found == ["crontab.spec.ports:<[]Object>", "opts:-S "]


def test_zsh_manifest_files_by_extension(env: dict[str, str]) -> None:
    found = zsh_complete(["kubectl-crd", "validate", "-f", ""], env)
    assert found == ["files:-g *.(json|yaml|yml)"]


def fish_complete(line: str, env: dict[str, str], cwd: Path | None = None) -> list[str]:
    result = subprocess.run(
        [need("fish"), "--no-config", "-c", 'echo "$SCRIPT" | source; complete -C "$LINE"'],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "SCRIPT": script("fish"), "LINE": line},
        cwd=cwd,
    )
    assert result.stderr == ""
    return result.stdout.splitlines()


def test_fish_candidates_with_descriptions(env: dict[str, str]) -> None:
    found = fish_complete("kubectl-crd ex", env)
    assert len(found) == 1
    assert found[0].startswith("explain\tExplain the fields")


def test_fish_flag_value_after_equals(env: dict[str, str]) -> None:
    assert fish_complete("kubectl-crd --context=al", env) == [
        "--context=alpha",
        "--context=alpine",
    ]


def test_fish_manifest_files(env: dict[str, str], files: Path) -> None:
    found = fish_complete("kubectl-crd validate -f ", env, cwd=files)
    assert sorted(found) == ["a.yaml", "b.json", "d.yml", "sub/"]


def test_zsh_files_after_the_equals_of_a_flag(env: dict[str, str]) -> None:
    found = zsh_complete(["kubectl-crd", "explain", "--crd=ex"], env)
    assert found == ["compset:-P *=", "files:-g *.(json|yaml|yml)"]


def test_fish_files_after_the_equals_of_a_flag(env: dict[str, str], files: Path) -> None:
    found = fish_complete("kubectl-crd explain --crd=", env, cwd=files)
    assert sorted(found) == ["--crd=a.yaml", "--crd=b.json", "--crd=d.yml", "--crd=sub/"]
    found = fish_complete("kubectl-crd --kubeconfig=c", env, cwd=files)
    assert [line.split("\t")[0] for line in found] == ["--kubeconfig=c.txt"]


def test_bash_files_after_the_equals_of_a_flag(env: dict[str, str], files: Path) -> None:
    found = lines(bash_complete("kubectl-crd explain --crd=", env, cwd=files))
    assert sorted(found) == ["a.yaml", "b.json", "d.yml", "sub"]


ZPTY = r"""
zmodload zsh/zpty
zpty z 'PS1="%% " zsh -f -i'
zpty -w z 'autoload -Uz compinit; compinit -u -D; eval "$SCRIPT"'
zpty -w -n z "$LINE"$'\t'
all=""
for i in {1..100}; do
  while zpty -r -t z chunk; do all+=$chunk; done
  [[ $all == *$WANT* ]] && break
  sleep 0.1
done
zpty -d z
print -r -- "${all//$'\r'/}"
"""


def test_zsh_compsys_completes_a_field_path_on_a_terminal(env: dict[str, str]) -> None:
    """The real thing: an interactive zsh on a pseudo-terminal, compinit, TAB."""
    line = f"kubectl-crd explain --crd {CRDS} crontab.spec.rep"
    result = subprocess.run(
        [need("zsh"), "-f", "-c", ZPTY],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        env={**env, "SCRIPT": script("zsh"), "LINE": line, "WANT": "crontab.spec.replicas"},
    )
    assert "crontab.spec.replicas" in result.stdout, result.stdout[-2000:]


def bash_on_a_terminal(env: dict[str, str], keys: bytes, want: bytes, cwd: Path) -> bytes:
    """An interactive bash (readline) on a pseudo-terminal: the script sourced, ``keys``
    typed; what the terminal showed once ``want`` appears (or after 20 s)."""
    import fcntl
    import pty
    import select
    import struct
    import termios
    import time

    (cwd / "completion.bash").write_text(script("bash"))
    primary, secondary = pty.openpty()
    # wide enough that readline never scrolls the line sideways: a long checkout path
    # (CI's) made the typed line exceed 80 columns and split what the test looks for
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 1000, 0, 0))
    shell = subprocess.Popen(
        [need("bash"), "--norc", "--noprofile", "-i"],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env={**env, "TERM": "dumb", "PS1": "$ ", "INPUTRC": "/dev/null"},
        cwd=cwd,
        start_new_session=True,
    )
    os.close(secondary)
    shown = b""
    try:
        os.write(primary, b"source completion.bash\n")
        os.write(primary, keys)
        deadline = time.monotonic() + 20
        while want not in shown and time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 0.1)
            if ready:
                try:
                    shown += os.read(primary, 65536)
                except OSError:
                    break
    finally:
        shell.kill()
        shell.wait()
        os.close(primary)
    return shown


def test_bash_readline_completes_a_leaf_field_and_adds_a_space(
    env: dict[str, str], tmp_path: Path
) -> None:
    keys = f"kubectl-crd explain --crd {CRDS} crontab.spec.rep\tX".encode()
    shown = bash_on_a_terminal(env, keys, b"replicas X", tmp_path)
    assert b"crontab.spec.replicas X" in shown, shown[-500:]


def test_bash_readline_adds_no_space_after_a_field_with_fields(
    env: dict[str, str], tmp_path: Path
) -> None:
    keys = f"kubectl-crd explain --crd {CRDS} crontab.spec.por\t.".encode()
    shown = bash_on_a_terminal(env, keys, b"ports.", tmp_path)
    assert b"crontab.spec.ports." in shown, shown[-500:]
