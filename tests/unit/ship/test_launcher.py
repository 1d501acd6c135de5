"""The krew launcher (plugins/kubectl-crd, POSIX sh): which Python it picks, what path it
gives the package, and what it says when no Python fits. It runs here on an archive
laid out as the build lays it out, with a probe module as its entry point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.krew_build import build_krew as bk

PROBE = """\
import json, os, sys
def main():
    print(json.dumps({
        "version": "%d%d" % sys.version_info[:2],
        "path": sys.path[:2],
        "cwd_on_path": any(p in ("", os.getcwd()) for p in sys.path),
        "pythonpath": os.environ.get("PYTHONPATH"),
        "argv": sys.argv,
        "executable": sys.executable,
    }))
"""
#: The real interpreter behind this test's venv (a venv's python would bring the venv).
BASE_PYTHON = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
THIS = f"{sys.version_info[0]}{sys.version_info[1]}"


def _archive(tmp_path: Path, versions: tuple[str, ...] = ("311", "312", "313", "314")) -> Path:
    root = tmp_path / "store"
    (root / "lib" / "py").mkdir(parents=True)
    (root / "lib" / "py" / "probe.py").write_text(PROBE)
    for v in versions:
        (root / "lib" / f"cp{v}").mkdir()
    launcher = root / "kubectl-crd"
    launcher.write_bytes(bk.launcher_for("probe:main"))
    launcher.chmod(0o755)
    return root


def _bin(tmp_path: Path, **pythons: str | Path) -> Path:
    """A PATH directory with the tools the launcher needs and the given pythons
    (name -> target: a path to link, or a shell script's body)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for tool in ("readlink",):
        found = shutil.which(tool)
        assert found
        (bin_dir / tool).symlink_to(found)
    for name, target in pythons.items():
        dest = bin_dir / name.replace("_", ".")
        if isinstance(target, Path):
            dest.symlink_to(target)
        else:
            dest.write_text("#!/bin/sh\n" + target)
            dest.chmod(0o755)
    return bin_dir


def _run(
    launcher: Path, path: list[Path], *args: str, cwd: Path | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(launcher), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"PATH": os.pathsep.join(map(str, path)), **env},
        check=False,
    )


def _needs_base_python() -> None:
    if not BASE_PYTHON.exists():
        pytest.skip(f"no {BASE_PYTHON}")


def test_versioned_python_runs_the_entry_with_the_vendored_paths(tmp_path: Path) -> None:
    _needs_base_python()
    store = _archive(tmp_path)
    bin_dir = _bin(tmp_path, **{f"python3_{THIS[1:]}": BASE_PYTHON})
    (tmp_path / "work").mkdir()
    result = _run(store / "kubectl-crd", [bin_dir], "explain", "x", cwd=tmp_path / "work")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["version"] == THIS
    assert got["path"] == [str(store / "lib" / f"cp{THIS}"), str(store / "lib" / "py")]
    assert got["argv"] == ["kubectl-crd", "explain", "x"]
    assert not got["cwd_on_path"]  # -P: a click.py in the working directory shadows nothing
    assert got["pythonpath"] is None  # children do not inherit our extension modules


def test_symlinked_launcher_finds_its_archive(tmp_path: Path) -> None:
    _needs_base_python()
    store = _archive(tmp_path)
    bin_dir = _bin(tmp_path, **{f"python3_{THIS[1:]}": BASE_PYTHON})
    krew_bin = tmp_path / "krew-bin"
    krew_bin.mkdir()
    (krew_bin / "kubectl-crd").symlink_to(store / "kubectl-crd")  # what krew links
    result = _run(krew_bin / "kubectl-crd", [krew_bin, bin_dir], "--version")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["path"][1] == str(store / "lib" / "py")


def test_newest_shipped_version_wins_and_unshipped_ones_are_passed_over(tmp_path: Path) -> None:
    _needs_base_python()
    store = _archive(tmp_path, versions=(THIS,))
    # python3.14 would be newer, but the archive carries no cp314: never started
    bin_dir = _bin(
        tmp_path,
        python3_14="echo started-3.14; exit 0\n",
        **{f"python3_{THIS[1:]}": BASE_PYTHON},
    )
    result = _run(store / "kubectl-crd", [bin_dir])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["version"] == THIS


def test_a_shim_that_fails_is_skipped(tmp_path: Path) -> None:
    _needs_base_python()
    store = _archive(tmp_path)
    shims = tmp_path / "shims"
    shims.mkdir()
    # pyenv's shim for an installed but unselected version: exits 127
    (shims / "python3.14").write_text(
        "#!/bin/sh\necho 'pyenv: python3.14: command not found' >&2\nexit 127\n"
    )
    (shims / "python3.14").chmod(0o755)
    bin_dir = _bin(tmp_path, **{f"python3_{THIS[1:]}": BASE_PYTHON})
    result = _run(store / "kubectl-crd", [shims, bin_dir])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["version"] == THIS


def test_python3_is_used_when_its_version_is_shipped(tmp_path: Path) -> None:
    _needs_base_python()
    store = _archive(tmp_path)
    bin_dir = _bin(tmp_path, python3=BASE_PYTHON)
    result = _run(store / "kubectl-crd", [bin_dir])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["version"] == THIS


OLD_PYTHON3 = """\
case "$1" in
  -V) echo "Python 3.9.6" ;;
  -c) exit 0 ;;
esac
"""


def test_no_suitable_python_says_what_to_install(tmp_path: Path) -> None:
    store = _archive(tmp_path)
    bin_dir = _bin(tmp_path, python3=OLD_PYTHON3)
    result = _run(store / "kubectl-crd", [bin_dir], "--version")
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "error: kubectl crd needs CPython 3.11 to 3.14 (python3.14 ... python3.11 or python3 on"
        f" PATH); python3 is Python 3.9.6 at {bin_dir / 'python3'}."
    )
    assert "  macOS:                      brew install python@3.13" in lines
    assert lines[-1] == "or set KUBECTL_CRD_PYTHON to the path of a CPython 3.11 to 3.14."
    assert "pip install" not in result.stderr


def test_no_python3_at_all(tmp_path: Path) -> None:
    store = _archive(tmp_path, versions=("312", "313"))
    bin_dir = _bin(tmp_path)
    result = _run(store / "kubectl-crd", [bin_dir])
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "error: kubectl crd needs CPython 3.12 to 3.13 (python3.13 ... python3.12 or python3 on"
        " PATH); no python3 on PATH."
    )


def test_kubectl_crd_python_overrides_and_is_checked(tmp_path: Path) -> None:
    _needs_base_python()
    store = _archive(tmp_path)
    bin_dir = _bin(tmp_path, python3_14="echo started-3.14\n")
    chosen = _run(store / "kubectl-crd", [bin_dir], KUBECTL_CRD_PYTHON=str(BASE_PYTHON))
    assert chosen.returncode == 0, chosen.stderr
    assert json.loads(chosen.stdout)["executable"] == str(BASE_PYTHON)
    old = _bin(tmp_path / "old", python3=OLD_PYTHON3) / "python3"
    refused = _run(store / "kubectl-crd", [bin_dir], KUBECTL_CRD_PYTHON=str(old))
    assert refused.returncode == 1
    assert refused.stderr == (
        f"error: KUBECTL_CRD_PYTHON={old} is not CPython 3.11 to 3.14; unset it or point it at one\n"
    )
