"""The krew archives with the real tools: krew v0.4.3 and validate-krew-manifest built from
their Go module (hack/krew-tools.sh, cached outside the repository), the archives built
once per test session by hack/build_krew.py (wheels cached; gzip level 1 to keep CI
short), installed with `kubectl krew install --manifest --archive` into a temporary
KREW_ROOT and run through the real kubectl; the other platforms' archives installed with
KREW_OS/KREW_ARCH and checked for the files they must hold.

No API server: every command run here works offline, and each output is compared with
the pip-installed program's (the same code, run from this checkout's venv)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.integration.envtest import newest_kubectl
from tests.krew_build import ROOT
from tests.krew_build import build_krew as bk

#: The real interpreter behind the venv: the venv's python would lend its site-packages
#: to the archive and hide anything the archive lacks.
BASE_PYTHON = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
THIS_OS = {"linux": "linux", "darwin": "darwin"}.get(sys.platform, sys.platform)
THIS_ARCH = {"x86_64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(os.uname().machine, "")
THIS_PLATFORM = f"{THIS_OS}/{THIS_ARCH}"
CRDS = ROOT / "examples" / "crds"
RESOURCES = ROOT / "examples" / "resources"


@pytest.fixture(scope="session")
def krew_tools() -> Path:
    started = time.monotonic()
    result = subprocess.run(
        [str(ROOT / "hack" / "krew-tools.sh")], capture_output=True, text=True, check=False
    )
    if result.returncode == 2 and shutil.which("go") is None:
        pytest.skip("Go is needed to build krew (hack/krew-tools.sh) and is not on PATH")
    assert result.returncode == 0, result.stderr
    tools = Path(result.stdout.splitlines()[-1])
    print(f"krew tools ready in {time.monotonic() - started:.1f} s: {tools}")
    return tools


@dataclass(frozen=True)
class Built:
    archives: dict[str, Path]
    manifest: Path  # the index copy: plugins/crd.yaml, named as krew's validator wants


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """All four archives, built once per session; xdist workers share one build."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    where = base / "krew-build"
    where.mkdir(exist_ok=True)
    with open(where / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = where / ".done"
        if not done.exists():
            started = time.monotonic()
            bk.build(where / "archives", list(bk.PLATFORMS), bk.PYTHONS, where, level=1)
            done.write_text(f"{time.monotonic() - started:.1f}\n")
        print(f"krew archives built in {done.read_text().strip()} s")
    version = bk.package_version()
    archives = {p: where / "archives" / bk.archive_name(version, p) for p in bk.PLATFORMS}
    return Built(archives, where / "plugins" / "crd.yaml")


def _validate(tools: Path, manifest: Path) -> subprocess.CompletedProcess[str]:
    # -skip-install: its own install step downloads each uri; the installs below use
    # --archive with the files just built instead
    return subprocess.run(
        [str(tools / "validate-krew-manifest"), "-manifest", str(manifest), "-skip-install"],
        capture_output=True,
        text=True,
        check=False,
    )


def test_validate_krew_manifest_accepts_the_built_and_committed_manifests(
    krew_tools: Path, built: Built, tmp_path: Path
) -> None:
    for manifest in (built.manifest, ROOT / "plugins" / "crd.yaml"):
        result = _validate(krew_tools, manifest)
        assert result.returncode == 0, result.stderr
        assert "no overlapping spec.platform[].selector" in result.stderr
    # the validator takes the plugin's name from the file's: it does check
    renamed = tmp_path / "kubectl-crd.yaml"
    renamed.write_text(built.manifest.read_text())
    refused = _validate(krew_tools, renamed)
    assert refused.returncode != 0
    assert 'plugin should be named "kubectl-crd", not "crd"' in refused.stderr


def test_manifest_holds_the_sha256_of_each_built_archive(built: Built) -> None:
    shas = bk.manifest_shas(built.manifest)
    assert set(shas) == set(bk.PLATFORMS)
    for platform, archive in built.archives.items():
        assert shas[platform] == hashlib.sha256(archive.read_bytes()).hexdigest(), platform
    assert (built.manifest.parent.parent / "krew-manifest.yaml").read_text() == (
        built.manifest.read_text()
    )


def test_a_second_build_gives_the_same_bytes(tmp_path: Path) -> None:
    # one platform and one Python keep it short; the wheels come from the cache
    first = bk.build(tmp_path / "a", ["darwin/arm64"], ["3.13"], None, level=1)
    second = bk.build(tmp_path / "b", ["darwin/arm64"], ["3.13"], None, level=1)
    a, b = first["darwin/arm64"].read_bytes(), second["darwin/arm64"].read_bytes()
    assert hashlib.sha256(a).hexdigest() == hashlib.sha256(b).hexdigest()


def _krew_install(
    tools: Path, built: Built, platform: str, root: Path
) -> subprocess.CompletedProcess[str]:
    os_name, arch = platform.split("/")
    env = {
        "PATH": os.pathsep.join(
            [str(tools), str(Path(newest_kubectl()).parent), "/usr/bin", "/bin"]
        ),
        "HOME": str(root.parent),
        "KREW_ROOT": str(root),
        "KREW_OS": os_name,
        "KREW_ARCH": arch,
        "KREW_NO_UPGRADE_CHECK": "1",
    }
    kubectl_dir = root.parent / "kubectl-bin"
    kubectl_dir.mkdir(exist_ok=True)
    if not (kubectl_dir / "kubectl").exists():
        (kubectl_dir / "kubectl").symlink_to(newest_kubectl())
    env["PATH"] = f"{kubectl_dir}{os.pathsep}{env['PATH']}"
    return subprocess.run(
        [
            "kubectl",
            "krew",
            "install",
            f"--manifest={built.manifest}",
            f"--archive={built.archives[platform]}",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def installed(
    krew_tools: Path, built: Built, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    if THIS_PLATFORM not in bk.PLATFORMS:
        pytest.skip(f"no archive for {THIS_PLATFORM}")
    root = tmp_path_factory.mktemp("krew") / "root"
    started = time.monotonic()
    result = _krew_install(krew_tools, built, THIS_PLATFORM, root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Installed plugin: crd" in result.stdout + result.stderr
    print(f"krew install took {time.monotonic() - started:.1f} s")
    yield root


def _through_kubectl(root: Path, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`kubectl ARGS` as a user's shell runs it: krew's bin on PATH, one CPython."""
    pythons = root.parent / "python-bin"
    pythons.mkdir(exist_ok=True)
    name = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    if not (pythons / name).exists():
        (pythons / name).symlink_to(BASE_PYTHON)
    kubectl = newest_kubectl()
    path = [str(root / "bin"), str(pythons), "/usr/bin", "/bin"]
    env = {
        "PATH": os.pathsep.join(path),
        "HOME": str(root.parent),
        "KUBECONFIG": str(root / "none"),
    }
    return subprocess.run(
        [kubectl, *args], capture_output=True, text=True, env=env, cwd=cwd, check=False
    )


def _pip_installed(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "kubectl-crd"
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_installed_launcher_is_linked_into_krew_bin(installed: Path) -> None:
    link = installed / "bin" / "kubectl-crd"
    assert link.is_symlink()
    store = Path(os.readlink(link)).parent
    assert store == installed / "store" / "crd" / f"v{bk.package_version()}"
    assert (store / "LICENSE").read_bytes() == (ROOT / "LICENSE").read_bytes()
    assert os.access(store / "kubectl_complete-crd", os.X_OK)


def test_version_and_plugin_list_through_kubectl(installed: Path) -> None:
    if not BASE_PYTHON.exists():
        pytest.skip(f"no {BASE_PYTHON}")
    version = _through_kubectl(installed, "crd", "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout == f"kubectl-crd {bk.package_version()}\n"
    listed = _through_kubectl(installed, "plugin", "list")
    assert str(installed / "bin" / "kubectl-crd") in listed.stdout.splitlines(), listed.stdout


OFFLINE_COMMANDS = [
    pytest.param(["explain", "crontab.spec", "--crd", str(CRDS)], 0, id="explain"),
    pytest.param(["sample", "crontab", "--crd", str(CRDS)], 0, id="sample"),
    pytest.param(
        ["get", "crontabs", "-f", str(RESOURCES / "crontab-nightly.yaml"), "--crd", str(CRDS)],
        0,
        id="get-f",
    ),
]


@pytest.mark.parametrize(("args", "code"), OFFLINE_COMMANDS)
def test_offline_commands_through_kubectl_match_the_pip_install(
    installed: Path, args: list[str], code: int
) -> None:
    if not BASE_PYTHON.exists():
        pytest.skip(f"no {BASE_PYTHON}")
    got = _through_kubectl(installed, "crd", *args)
    want = _pip_installed(*args)
    assert (got.returncode, got.stderr) == (code, ""), got.stderr
    assert got.stdout == want.stdout
    assert got.stdout.strip()


def test_validate_runs_cel_rules_from_the_archive(installed: Path, tmp_path: Path) -> None:
    if not BASE_PYTHON.exists():
        pytest.skip(f"no {BASE_PYTHON}")
    # valid for the schema, broken only for the CRD's CEL rule minReplicas <= replicas
    obj = tmp_path / "cel.yaml"
    obj.write_text(
        "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: cel\n"
        'spec:\n  cronSpec: "0 3 * * *"\n  image: app:1\n  replicas: 1\n  minReplicas: 3\n'
    )
    got = _through_kubectl(installed, "crd", "validate", "--crd", str(CRDS), "-f", str(obj))
    want = _pip_installed("validate", "--crd", str(CRDS), "-f", str(obj))
    assert got.returncode == 1
    assert "replicas must not be below minReplicas" in got.stdout + got.stderr
    assert (got.stdout, got.stderr) == (want.stdout, want.stderr)
    ok = _through_kubectl(
        installed,
        "crd",
        "validate",
        "--crd",
        str(CRDS),
        "-f",
        str(RESOURCES / "crontab-nightly.yaml"),
    )
    assert ok.returncode == 0, ok.stdout + ok.stderr


#: The first bytes of an extension module for each platform: ELF e_machine (x86_64 62,
#: aarch64 183) or a Mach-O header's cputype (x86_64, arm64; universal2 holds both).
def _binary_platform(data: bytes) -> set[str]:
    if data[:4] == b"\x7fELF":
        machine = int.from_bytes(data[18:20], "little")
        return {{62: "linux/amd64", 183: "linux/arm64"}.get(machine, f"elf-{machine}")}
    if data[:4] == b"\xcf\xfa\xed\xfe":
        cpu = int.from_bytes(data[4:8], "little")
        return {{0x01000007: "darwin/amd64", 0x0100000C: "darwin/arm64"}.get(cpu, f"macho-{cpu}")}
    if data[:4] == b"\xca\xfe\xba\xbe":  # universal: big-endian list of architectures
        count = int.from_bytes(data[4:8], "big")
        cpus = [int.from_bytes(data[8 + 20 * i : 12 + 20 * i], "big") for i in range(count)]
        return {{0x01000007: "darwin/amd64", 0x0100000C: "darwin/arm64"}.get(c, "?") for c in cpus}
    return {"unknown"}


@pytest.mark.parametrize("platform", [p for p in bk.PLATFORMS if p != THIS_PLATFORM])
def test_other_platforms_install_with_the_files_they_must_hold(
    krew_tools: Path, built: Built, tmp_path: Path, platform: str
) -> None:
    root = tmp_path / "root"
    result = _krew_install(krew_tools, built, platform, root)
    assert result.returncode == 0, result.stdout + result.stderr
    store = root / "store" / "crd" / f"v{bk.package_version()}"
    assert (root / "bin" / "kubectl-crd").resolve() == store / "kubectl-crd"
    assert (store / "LICENSE").is_file()
    for script in ("kubectl-crd", "kubectl_complete-crd"):
        assert os.access(store / script, os.X_OK), script
    assert (store / "lib" / "py" / "kubectl_crd" / "__init__.py").is_file()
    assert not list(store.glob("lib/*/kubernetes"))  # left out (README: Install)
    lib = sorted(p.name for p in (store / "lib").iterdir())
    assert lib == ["cp311", "cp312", "cp313", "cp314", "py"]
    suffix = "darwin.so" if platform.startswith("darwin") else "linux-gnu.so"
    for cp in lib[:-1]:
        tag = f"cpython-{cp[2:]}"
        for module in ("cel_expr_python/cel", "re2/_re2", "_ruamel_yaml", "yaml/_yaml"):
            found = list((store / "lib" / cp).glob(f"{module}.{tag}*{suffix}"))
            assert len(found) == 1, f"{platform} {cp}: {module} extension: {found}"
    extensions = [p for p in (store / "lib").rglob("*.so") if p.is_file()]
    assert len(extensions) >= 16
    for ext in extensions:
        with open(ext, "rb") as f:
            kinds = _binary_platform(f.read(64))
        assert platform in kinds, f"{ext.relative_to(store)} is for {kinds}, not {platform}"


def test_oidc_without_kubernetes_says_how_to_add_it(installed: Path, tmp_path: Path) -> None:
    if not BASE_PYTHON.exists():
        pytest.skip(f"no {BASE_PYTHON}")
    config = tmp_path / "oidc.yaml"
    config.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n"
        "contexts: [{name: c, context: {cluster: c, user: u}}]\n"
        "users: [{name: u, user: {auth-provider: {name: oidc, config: {client-id: x,"
        " id-token: a.b.c, idp-issuer-url: 'https://127.0.0.1:2'}}}}]\n"
    )
    got = _through_kubectl(installed, "crd", "get", "crontabs", "--kubeconfig", str(config))
    assert got.returncode == 1
    lines = got.stderr.splitlines()
    assert len(lines) == 1, got.stderr
    assert lines[0].startswith(
        "error: the oidc auth-provider needs the Python package kubernetes, which this"
        " installation of kubectl crd leaves out: install it with "
    )
    assert lines[0].endswith(
        " -m pip install 'kubernetes>=30,<38', or install kubectl crd with pipx (README: Install)"
    )


def test_caveats_link_makes_kubectl_complete_through_the_archive(
    installed: Path, built: Built
) -> None:
    """The caveats' `ln -sf` run as printed, then kubectl's own completion entry point
    (kubectl 1.26+ runs kubectl_complete-crd from PATH for `kubectl crd <TAB>`)."""
    if not BASE_PYTHON.exists():
        pytest.skip(f"no {BASE_PYTHON}")
    import yaml

    caveats = yaml.safe_load(built.manifest.read_text())["spec"]["caveats"]
    link = caveats[caveats.index("ln -sf") :]
    subprocess.run(["sh", "-c", link], env={"KREW_ROOT": str(installed)}, check=True)
    assert (installed / "bin" / "kubectl_complete-crd").is_symlink()
    got = _through_kubectl(
        installed, "__complete", "crd", "explain", "--crd", "examples/crds/", "crontab.spec.re"
    )
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines() == ["crontab.spec.replicas\t<integer>", ":4"]


def test_the_repository_as_a_custom_index_installs_through_krew(
    krew_tools: Path, built: Built, tmp_path: Path
) -> None:
    """README's route: `kubectl krew index add NAME URL` clones a git repository laid out
    as this one is (plugins/crd.yaml), then `kubectl krew install NAME/crd` downloads the
    platform's `uri` and checks its sha256. The repository is a temporary git one, added
    by its local path (krew v0.4.3 clones the URL with git, which takes a path as well) and
    the uri points at a local HTTP server serving the built archive."""
    import functools
    import http.server
    import threading

    import yaml

    if THIS_PLATFORM not in bk.PLATFORMS:
        pytest.skip(f"no archive for {THIS_PLATFORM}")
    if not BASE_PYTHON.exists():
        pytest.skip(f"no {BASE_PYTHON}")
    archive = built.archives[THIS_PLATFORM]
    served: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            served.append(self.path)

    handler = functools.partial(Handler, directory=str(archive.parent))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        manifest = yaml.safe_load(built.manifest.read_text())
        os_name, arch = THIS_PLATFORM.split("/")
        mine = [
            p
            for p in manifest["spec"]["platforms"]
            if p["selector"]["matchLabels"] == {"os": os_name, "arch": arch}
        ]
        assert len(mine) == 1
        mine[0]["uri"] = f"http://127.0.0.1:{server.server_address[1]}/{archive.name}"
        assert mine[0]["sha256"] == hashlib.sha256(archive.read_bytes()).hexdigest()
        index = tmp_path / "index"
        (index / "plugins").mkdir(parents=True)
        (index / "plugins" / "crd.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
        git = ["git", "-C", str(index), "-c", "user.name=t", "-c", "user.email=t@example.com"]
        for step in (["init", "-q"], ["add", "plugins"], ["commit", "-q", "-m", "index"]):
            subprocess.run([*git, *step], check=True, capture_output=True)

        root = tmp_path / "root"
        kubectl_dir = tmp_path / "kubectl-bin"
        kubectl_dir.mkdir()
        (kubectl_dir / "kubectl").symlink_to(newest_kubectl())
        env = {
            "PATH": os.pathsep.join([str(kubectl_dir), str(krew_tools), "/usr/bin", "/bin"]),
            "HOME": str(tmp_path),
            "KREW_ROOT": str(root),
            "KREW_NO_UPGRADE_CHECK": "1",
        }

        def krew(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                ["kubectl", "krew", *args],
                capture_output=True,
                text=True,
                env=env,
                stdin=subprocess.DEVNULL,
                check=False,
            )

        added = krew("index", "add", "kubectl-crd", str(index))
        assert added.returncode == 0, added.stdout + added.stderr
        listed = krew("index", "list")
        assert listed.returncode == 0, listed.stderr
        assert ["kubectl-crd", str(index)] in [line.split() for line in listed.stdout.splitlines()]
        got = krew("install", "kubectl-crd/crd")
        assert got.returncode == 0, got.stdout + got.stderr
        assert "Installed plugin: crd" in got.stderr.splitlines(), got.stderr
        # krew fetched the archive from the index's uri (not from a cache or --archive)
        assert served == [f"/{archive.name}"]
    finally:
        server.shutdown()
        server.server_close()
    # the receipt names the custom index as the plugin's source (what `upgrade` follows)
    receipt = yaml.safe_load((root / "receipts" / "crd.yaml").read_text())
    assert receipt["status"]["source"]["name"] == "kubectl-crd"
    version = _through_kubectl(root, "crd", "--version")
    assert version.returncode == 0, version.stderr
    assert version.stdout == f"kubectl-crd {bk.package_version()}\n"
    # a second index with the same name is refused: the listing above is krew's own
    again = krew("index", "add", "kubectl-crd", str(index))
    assert again.returncode != 0
