#!/usr/bin/env python3
"""Build the krew archives (one per os/arch) and write their sha256 into the manifests.

    python3 hack/build_krew.py [--out dist/krew] [--python 3.11,3.12,3.13,3.14]
                               [--platform linux/amd64,...] [--level 6] [--manifest-dir DIR]

Each archive runs without network access once krew has unpacked it:

    LICENSE
    kubectl-crd              the POSIX sh launcher (plugins/kubectl-crd), krew's `bin`
    kubectl_complete-crd     kubectl's completion helper, when the project has one
    lib/py/...               kubectl_crd and every wheel that is the same for all Pythons
    lib/cp3XY/...            the wheels with extension modules, one directory per CPython

The wheels come from ``pip download --only-binary=:all:`` for each platform and Python,
cached under ~/.cache/kubectl-crd/wheels/<os>-<arch>-cp3XY/<requirements digest>/, so a
second build (and CI's second run) downloads nothing. ``kubernetes`` is left out: only
the oidc auth-provider and the dev loop's ``ctx.kubernetes`` use it, it brings pydantic,
aiohttp and six native packages, and both places say how to add it (README: Install).

Reproducible: the same source files and wheels give the same sha256 (entries sorted,
mtime fixed at SOURCE_DATE_EPOCH or 0, uid/gid 0 with no names, modes 0755/0644, the
gzip header's mtime 0 and no file name). The archive name, uri and sha256 of each
platform are written into krew-manifest.yaml and plugins/crd.yaml (the same document: the
repository doubles as a custom krew index).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = ("3.11", "3.12", "3.13", "3.14")
#: os/arch -> pip platform tags. pip does not widen a manylinux tag to older ones by
#: itself, so every manylinux tag up to the glibc we promise is listed; macOS tags widen.
#: The minimums: cel-expr-python's manylinux_2_27/2_28 wheels, google-re2's macOS 13 ones.
PLATFORMS: dict[str, tuple[str, ...]] = {
    "linux/amd64": tuple(
        ["manylinux2014_x86_64"] + [f"manylinux_2_{n}_x86_64" for n in range(17, 29)]
    ),
    "linux/arm64": tuple(
        ["manylinux2014_aarch64"] + [f"manylinux_2_{n}_aarch64" for n in range(17, 29)]
    ),
    "darwin/amd64": ("macosx_13_0_x86_64",),
    "darwin/arm64": ("macosx_13_0_arm64",),
}
MINIMUMS = {"linux": "glibc 2.28", "darwin": "macOS 13"}
#: Runtime dependencies the archive leaves out (see the module docstring).
LEFT_OUT = {"kubernetes"}
HOMEPAGE = os.environ.get("KUBECTL_CRD_HOMEPAGE", "https://github.com/kubectl-crd/kubectl-crd")
MODE_EXEC, MODE_FILE, MODE_DIR = 0o755, 0o644, 0o755


def log(message: str) -> None:
    print(f"build-krew: {message}", file=sys.stderr)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(os.environ.get("KUBECTL_CRD_WHEEL_CACHE", Path(base) / "kubectl-crd" / "wheels"))


def project() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return dict(tomllib.load(f)["project"])


def package_version() -> str:
    text = (ROOT / "kubectl_crd" / "__init__.py").read_text()
    found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    if not found:
        raise SystemExit("build-krew: no __version__ in kubectl_crd/__init__.py")
    return found.group(1)


def requirements() -> list[str]:
    """pyproject's runtime dependencies minus LEFT_OUT, markers dropped: pip would judge
    them on this machine, not on the target; all four targets satisfy every one."""
    deps = project()["dependencies"]
    assert isinstance(deps, list)
    out = []
    for dep in deps:
        spec = str(dep).split(";")[0].strip()
        name = re.split(r"[\s<>=!~\[]", spec, maxsplit=1)[0].lower()
        if name not in LEFT_OUT:
            out.append(spec)
    return out


def console_scripts() -> dict[str, str]:
    scripts = project().get("scripts", {})
    assert isinstance(scripts, dict)
    return {str(k): str(v) for k, v in scripts.items()}


def wheels_for(platform: str, python: str, reqs: Sequence[str]) -> list[Path]:
    """The wheels for one platform and Python, downloaded once into the cache."""
    digest = hashlib.sha256("\n".join(reqs).encode()).hexdigest()[:12]
    tag = f"cp{python.replace('.', '')}"
    where = cache_dir() / f"{platform.replace('/', '-')}-{tag}" / digest
    done = where / ".complete"
    if not done.exists():
        where.mkdir(parents=True, exist_ok=True)
        log(f"downloading wheels for {platform} CPython {python} into {where}")
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check"]
        cmd += ["--only-binary=:all:", "--dest", str(where), "--implementation", "cp"]
        cmd += ["--python-version", python, "--abi", tag]
        for plat in PLATFORMS[platform]:
            cmd += ["--platform", plat]
        subprocess.run([*cmd, *reqs], check=True)
        done.write_text("\n".join(reqs) + "\n")
        # the wheels of earlier requirement lists are of no more use: keep one set
        for old in where.parent.iterdir():
            if old != where and (old / ".complete").exists():
                shutil.rmtree(old)
    return sorted(where.glob("*.whl"))


@dataclass(frozen=True)
class Entry:
    """One regular file of an archive."""

    name: str
    data: bytes
    executable: bool


def unpack_wheel(wheel: Path, prefix: str) -> Iterable[Entry]:
    """A wheel's files as installed into a site-packages at ``prefix`` (purelib and
    platlib of its .data go to the top; scripts, headers and data have no use here)."""
    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            if info.is_dir():
                continue
            name = info.filename
            parts = name.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                name = "/".join(parts[2:])
            if ".." in name.split("/") or name.startswith("/"):
                raise SystemExit(f"build-krew: {wheel.name} holds an unsafe path {name!r}")
            executable = bool((info.external_attr >> 16) & 0o111)
            yield Entry(f"{prefix}/{name}", zf.read(info), executable)


def source_files() -> list[Path]:
    """kubectl_crd as git knows it (tracked and new, not ignored) in the working tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "kubectl_crd"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return sorted(
        ROOT / p
        for p in listed.split("\0")
        if p and "__pycache__" not in p and (ROOT / p).is_file()
    )


def launcher_for(entry_point: str) -> bytes:
    text = (ROOT / "plugins" / "kubectl-crd").read_text()
    line = "entry=kubectl_crd.cli.root:main\n"
    if line not in text:
        raise SystemExit("build-krew: plugins/kubectl-crd lost its `entry=` line")
    return text.replace(line, f"entry={entry_point}\n").encode()


def archive_entries(platform: str, pythons: Sequence[str], reqs: Sequence[str]) -> list[Entry]:
    entries = [
        Entry("LICENSE", (ROOT / "LICENSE").read_bytes(), False),
        Entry("kubectl-crd", (ROOT / "plugins" / "kubectl-crd").read_bytes(), True),
    ]
    for script, entry_point in sorted(console_scripts().items()):
        if script == "kubectl-crd":
            continue
        own = ROOT / "plugins" / script
        data = own.read_bytes() if own.is_file() else launcher_for(entry_point)
        entries.append(Entry(script, data, True))
    # a helper shipped as a file of its own (plugins/kubectl_complete-crd), not a script
    for extra in sorted((ROOT / "plugins").glob("kubectl_complete-*")):
        if extra.name not in {e.name for e in entries}:
            entries.append(Entry(extra.name, extra.read_bytes(), True))
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        entries.append(Entry(f"lib/py/{rel}", path.read_bytes(), False))
    per_python = {py: wheels_for(platform, py, reqs) for py in pythons}
    # lib/py: a wheel bound to no CPython version (abi "none" or "abi3") that every Python
    # got the same of; the rest go to lib/cp3XY, so each Python has its own directory
    shared = set.intersection(*({w.name for w in ws} for ws in per_python.values()))
    shared = {w for w in shared if w.removesuffix(".whl").split("-")[-2] in ("none", "abi3")}
    done_shared: set[str] = set()
    for py, wheels in per_python.items():
        for wheel in wheels:
            if wheel.name in shared:
                if wheel.name not in done_shared:
                    done_shared.add(wheel.name)
                    entries.extend(unpack_wheel(wheel, "lib/py"))
            else:
                entries.extend(unpack_wheel(wheel, f"lib/cp{py.replace('.', '')}"))
    names = [e.name for e in entries]
    if len(names) != len(set(names)):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise SystemExit(f"build-krew: two wheels install the same file: {dupes[:5]}")
    return entries


def write_tar_gz(entries: Iterable[Entry], out: Path, mtime: int, level: int = 6) -> str:
    """A .tar.gz of ``entries`` (their directories added), byte-for-byte the same for the
    same entries; returns its sha256. krew unpacks only regular files and directories."""
    files = {e.name: e for e in entries}
    dirs = {"/".join(n.split("/")[:i]) for n in files for i in range(1, n.count("/") + 1)}
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(dirs | files.keys()):
            info = tarfile.TarInfo(name)
            info.mtime = mtime
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if name in files:
                entry = files[name]
                info.size = len(entry.data)
                info.mode = MODE_EXEC if entry.executable else MODE_FILE
                tar.addfile(info, io.BytesIO(entry.data))
            else:
                info.type = tarfile.DIRTYPE
                info.mode = MODE_DIR
                tar.addfile(info)
    compressed = io.BytesIO()
    # mtime=0 and no filename: the gzip header holds nothing of this machine or moment
    with gzip.GzipFile(
        filename="", mode="wb", fileobj=compressed, mtime=0, compresslevel=level
    ) as gz:
        gz.write(raw.getvalue())
    data = compressed.getvalue()
    out.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def archive_name(version: str, platform: str) -> str:
    os_name, arch = platform.split("/")
    return f"kubectl-crd_v{version}_{os_name}_{arch}.tar.gz"


def render_manifest(version: str, shas: dict[str, str], pythons: Sequence[str]) -> str:
    """The krew Plugin manifest (krew.googlecontainertools.github.com/v1alpha2)."""
    has_completion = any(
        s != "kubectl-crd" and s.startswith("kubectl_complete-") for s in console_scripts()
    ) or any((ROOT / "plugins").glob("kubectl_complete-*"))
    lo, hi = pythons[0], pythons[-1]
    caveats = [
        f"kubectl crd runs on CPython {lo} to {hi}, which it looks for on PATH",
        f"(python{hi} ... python{lo}, then python3; KUBECTL_CRD_PYTHON overrides).",
        f"It needs {MINIMUMS['linux']} or newer on Linux, {MINIMUMS['darwin']} or newer on macOS.",
        "The oidc auth-provider needs the Python package `kubernetes`, which this",
        "archive leaves out: install it into that Python, or install with pipx.",
    ]
    if has_completion:
        caveats += [
            "",
            "Shell completion (kubectl crd <TAB>): kubectl runs kubectl_complete-crd from",
            "PATH, which krew does not link; link it once with",
            '  ln -sf "${KREW_ROOT:-$HOME/.krew}/store/crd/v'
            + version
            + '/kubectl_complete-crd" \\',
            '    "${KREW_ROOT:-$HOME/.krew}/bin/kubectl_complete-crd"',
        ]
    lines = [
        "apiVersion: krew.googlecontainertools.github.com/v1alpha2",
        "kind: Plugin",
        "metadata:",
        "  name: crd",
        "spec:",
        f"  version: v{version}",
        f"  homepage: {HOMEPAGE}",
        "  shortDescription: Explain, validate and develop CustomResourceDefinitions",
        "  description: |",
        "    Explain, sample, validate (CEL rules included), get and scale custom",
        "    resources with the API server's own semantics, offline from CRD files or",
        "    live against a cluster, and run a hot-reloading reconcile loop for a Python",
        "    reconciler (kubectl crd dev).",
        "  caveats: |",
        *[f"    {c}".rstrip() for c in caveats],
        "  platforms:",
    ]
    for platform in PLATFORMS:
        os_name, arch = platform.split("/")
        name = archive_name(version, platform)
        lines += [
            "  - selector:",
            "      matchLabels:",
            f"        os: {os_name}",
            f"        arch: {arch}",
            f"    uri: {HOMEPAGE}/releases/download/v{version}/{name}",
            f"    sha256: {shas[platform]}",
            "    bin: kubectl-crd",
        ]
    return "\n".join(lines) + "\n"


MANIFESTS = ("krew-manifest.yaml", "plugins/crd.yaml")


def manifest_shas(path: Path) -> dict[str, str]:
    """The sha256 per os/arch of a manifest render_manifest wrote (nothing if none)."""
    return manifest_shas_text(path.read_text()) if path.is_file() else {}


def manifest_shas_text(text: str) -> dict[str, str]:
    found = re.findall(
        r"^\s+os: (\w+)\n\s+arch: (\w+)\n(?:.*\n)*?\s+sha256: ([0-9a-f]{64})$", text, re.M
    )
    return {f"{os_name}/{arch}": sha for os_name, arch, sha in found}


def build(
    out_dir: Path,
    platforms: Sequence[str],
    pythons: Sequence[str],
    manifest_dir: Path | None,
    level: int = 6,
) -> dict[str, Path]:
    """Write one archive per platform into ``out_dir`` and the manifests (their sha256
    filled in) into ``manifest_dir`` unless it is None; returns the archives by platform."""
    mtime = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
    version = package_version()
    reqs = requirements()
    out_dir.mkdir(parents=True, exist_ok=True)
    shas: dict[str, str] = {}
    archives: dict[str, Path] = {}
    for platform in platforms:
        out = archives[platform] = out_dir / archive_name(version, platform)
        shas[platform] = write_tar_gz(archive_entries(platform, pythons, reqs), out, mtime, level)
        log(f"{out} {out.stat().st_size / 1e6:.1f} MB sha256 {shas[platform]}")
    if manifest_dir is None:
        return archives
    # a platform not built this time keeps the sha256 the manifest has for it
    for platform, sha in manifest_shas(manifest_dir / MANIFESTS[0]).items():
        shas.setdefault(platform, sha)
    missing = [p for p in PLATFORMS if p not in shas]
    if missing:
        raise SystemExit(f"build-krew: no sha256 for {', '.join(missing)}: build them too")
    text = render_manifest(version, shas, pythons)
    for rel in MANIFESTS:
        target = manifest_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return archives


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "krew")
    parser.add_argument("--python", default=",".join(PYTHONS))
    parser.add_argument("--platform", default=",".join(PLATFORMS))
    # 6: 9 saves 0.5 of 78.6 MB and takes twice as long; the tests use 1 (README)
    parser.add_argument("--level", type=int, default=6, choices=range(1, 10), metavar="1-9")
    parser.add_argument(
        "--manifest-dir",
        type=Path,
        default=ROOT,
        help="where krew-manifest.yaml and plugins/crd.yaml go (default: the repository)",
    )
    args = parser.parse_args(argv)
    pythons = sorted(p for p in args.python.split(",") if p)
    platforms = [p for p in args.platform.split(",") if p]
    if not set(platforms) <= set(PLATFORMS) or not set(pythons) <= set(PYTHONS) or not pythons:
        parser.error(f"platforms are {', '.join(PLATFORMS)}; Pythons are {', '.join(PYTHONS)}")
    build(args.out, platforms, pythons, args.manifest_dir, args.level)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
