"""The krew manifests in the repository are what hack/build_krew.py writes: the same
document at the top (krew-manifest.yaml) and in the custom index (plugins/crd.yaml), for
the package's version, four platforms, and the caveats a user needs. That their sha256
values match the archives is checked where the archives are built
(tests/integration/test_krew.py)."""

from __future__ import annotations

import re

import yaml

from tests.krew_build import ROOT
from tests.krew_build import build_krew as bk


def _committed() -> str:
    return (ROOT / "krew-manifest.yaml").read_text()


def test_index_copy_is_the_top_level_manifest() -> None:
    assert (ROOT / "plugins" / "crd.yaml").read_text() == _committed()


def test_committed_manifest_is_what_the_build_writes() -> None:
    # fails when the version, the platforms, the caveats or a Python changed without a
    # rebuild (README: Release checklist)
    shas = bk.manifest_shas(ROOT / "krew-manifest.yaml")
    assert set(shas) == set(bk.PLATFORMS)
    assert _committed() == bk.render_manifest(bk.package_version(), shas, bk.PYTHONS)


def test_manifest_shape() -> None:
    doc = yaml.safe_load(_committed())
    assert doc["apiVersion"] == "krew.googlecontainertools.github.com/v1alpha2"
    assert doc["kind"] == "Plugin"
    assert doc["metadata"]["name"] == "crd"
    spec = doc["spec"]
    assert spec["version"] == f"v{bk.package_version()}"
    selectors = {
        (p["selector"]["matchLabels"]["os"], p["selector"]["matchLabels"]["arch"])
        for p in spec["platforms"]
    }
    assert selectors == {
        ("linux", "amd64"),
        ("linux", "arm64"),
        ("darwin", "amd64"),
        ("darwin", "arm64"),
    }
    for platform in spec["platforms"]:
        assert platform["bin"] == "kubectl-crd"
        assert re.fullmatch(r"[0-9a-f]{64}", str(platform["sha256"]))
        labels = platform["selector"]["matchLabels"]
        assert platform["uri"].endswith(f"_{labels['os']}_{labels['arch']}.tar.gz")
    caveats = spec["caveats"]
    assert "CPython 3.11 to 3.14" in caveats
    assert "glibc 2.28" in caveats and "macOS 13" in caveats
    assert "kubernetes" in caveats


def test_manifest_shas_reads_back_what_render_writes() -> None:
    shas = {p: f"{i:x}" * 64 for i, p in enumerate(bk.PLATFORMS, start=10)}
    text = bk.render_manifest("9.9.9", shas, bk.PYTHONS)
    assert bk.manifest_shas_text(text) == shas
    assert "version: v9.9.9" in text
