"""Benchmark: start-up through krew's launcher against the pip-installed console script.

The krew archive runs the package through ``plugins/kubectl-crd``, a POSIX sh script that
finds a CPython and starts it on the vendored paths; pip gives a console script that
starts the venv's Python on its site-packages. Issue 28 asks the launcher to stay within 20% of the console
script. This lays the archive out as krew unpacks it (hack/build_krew.py's entries for
this platform and this Python, written to a temporary directory, no gzip) and the same
files as pip installs them (a venv's site-packages and pip's console-script template: an
editable install would add its import hooks to the pip side), gives the
launcher the same interpreter as the venv's (``python3.N`` on PATH from an empty venv of
it, so that both start with the same site set-up), warms the bytecode of both, then runs each command line
alternately in new processes and prints the medians, the ratio and the load average.
It also prints the launcher's first run on a fresh unpack, which compiles the package
(krew cannot run a post-install step; later runs reuse the bytecode written then).

Run by hand from the repository root (offline; wheels from ~/.cache/kubectl-crd/wheels):

    .venv/bin/python bench/launcher_bench.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.corpus import corpus_path, corpus_present  # noqa: E402
from tests.krew_build import build_krew as bk  # noqa: E402

#: As an installed package runs: bytecode cached (a sandbox may set PYTHONDONTWRITEBYTECODE).
INSTALLED_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"
BASE_PYTHON = Path(sys.base_prefix) / "bin" / f"python{PYTHON}"


def largest_corpus_crd() -> tuple[str, str] | None:
    """(plural, file) of the corpus's largest CRD file, for explain."""
    import yaml

    root = corpus_path()
    if not corpus_present(root):
        return None
    files = sorted((root / "crds").rglob("*.yaml"), key=lambda p: p.stat().st_size)
    for path in reversed(files):
        for doc in yaml.safe_load_all(path.read_text()):
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                return str(doc["spec"]["names"]["plural"]), str(path)
    return None


def unpack(store: Path, venv: Path) -> tuple[Path, Path]:
    """This platform's archive for this Python as krew leaves it on disk, and the same
    files installed as pip installs them (into ``venv``'s site-packages, with pip's
    console script); returns both programs."""
    platform = f"{'darwin' if sys.platform == 'darwin' else 'linux'}/" + (
        "arm64" if os.uname().machine in ("arm64", "aarch64") else "amd64"
    )
    site = venv / "lib" / f"python{PYTHON}" / "site-packages"
    for entry in bk.archive_entries(platform, [PYTHON], bk.requirements()):
        targets = [store / entry.name]
        for prefix in ("lib/py/", f"lib/cp{PYTHON.replace('.', '')}/"):
            if entry.name.startswith(prefix):
                targets.append(site / entry.name.removeprefix(prefix))
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(entry.data)
            target.chmod(0o755 if entry.executable else 0o644)
    script = venv / "bin" / "kubectl-crd"
    # pip's console-script template (pip/_internal/operations/install/wheel.py)
    script.write_text(
        f"#!{venv / 'bin' / 'python'}\n"
        "import re\nimport sys\nfrom kubectl_crd.cli.root import main\n"
        "if __name__ == '__main__':\n"
        "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
        "    sys.exit(main())\n"
    )
    script.chmod(0o755)
    return store / "kubectl-crd", script


def timed(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False, env=env, cwd=REPO)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed: {done.stderr.decode(errors='replace')}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args()
    if not BASE_PYTHON.exists():
        raise SystemExit(f"no {BASE_PYTHON} behind this venv")
    lines: dict[str, list[str]] = {"--version": ["--version"]}
    lines["explain example"] = ["explain", "crontab.spec", "--crd", str(REPO / "examples" / "crds")]
    corpus = largest_corpus_crd()
    if corpus:
        lines[f"explain {corpus[0]}"] = ["explain", f"{corpus[0]}.spec", "--crd", corpus[1]]
    with tempfile.TemporaryDirectory() as tmp:
        # the launcher's python3.N: an empty venv of the venv's interpreter, so both start
        # with the same site set-up and without the base installation's .pth files (a
        # sandbox's may import certifi, 20 ms a user's Python does not spend); the pip
        # side: a second venv of it, the same files installed as pip installs them
        clean, piped = Path(tmp) / "clean-python", Path(tmp) / "pip-venv"
        for venv in (clean, piped):
            subprocess.run([str(BASE_PYTHON), "-m", "venv", "--without-pip", str(venv)], check=True)
        launcher, pip_script = unpack(Path(tmp) / "store", piped)
        pythons = clean / "bin"
        env = dict(INSTALLED_ENV, PATH=f"{pythons}{os.pathsep}/usr/bin{os.pathsep}/bin")
        first = timed([str(launcher), "--version"], env)
        timed([str(pip_script), "--version"], env)  # compiles its copy too
        print(f"load average {os.getloadavg()[0]:.2f}; Python {PYTHON}; runs {options.runs}")
        print(f"launcher's first run on a fresh unpack (compiles): {first * 1000:.0f} ms")
        print(f"{'command':<28} {'launcher ms':>12} {'pip script ms':>14} {'ratio':>6}")
        for name, args in lines.items():
            timed([str(launcher), *args], env), timed([str(pip_script), *args], env)  # warm
            ours: list[float] = []
            theirs: list[float] = []
            for _ in range(options.runs):
                ours.append(timed([str(launcher), *args], env))
                theirs.append(timed([str(pip_script), *args], env))
            a, b = statistics.median(ours) * 1000, statistics.median(theirs) * 1000
            print(f"{name:<28} {a:>12.1f} {b:>14.1f} {a / b:>6.2f}")
        print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
