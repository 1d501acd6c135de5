"""``validation.scheme_kinds`` is what hack/scheme_kinds.py writes from the Go sources of
the pinned release (the kinds kube-apiserver's scheme decodes a body into), and the
script reads those sources as meant: the groups the server installs, their versions
(import aliases included), the kinds each version registers, and the meta kinds."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from kubectl_crd.validation import scheme_kinds
from tests.generated_modules import assert_script_writes

ROOT = Path(__file__).resolve().parents[3]

#: hack/scheme_kinds.py's globals, and hack/go_field_names.py's (the helpers it imports)
script = SimpleNamespace(
    **runpy.run_path(str(ROOT / "hack" / "scheme_kinds.py"), run_name="scheme_kinds")
)
helpers = SimpleNamespace(
    **runpy.run_path(str(ROOT / "hack" / "go_field_names.py"), run_name="go_field_names")
)
# what running it left behind: its directory on sys.path, the helpers' module
sys.modules.pop("go_field_names", None)
if str(ROOT / "hack") in sys.path:
    sys.path.remove(str(ROOT / "hack"))


def test_the_committed_module_is_what_the_script_writes_from_the_module_cache(
    tmp_path: Path,
) -> None:
    release = helpers.pinned_release()
    kubernetes = helpers.modcache(None) / "k8s.io" / f"kubernetes@{release}"
    if not (kubernetes / script.KNOWN_VERSIONS).is_file():
        pytest.skip(f"the Go sources of {release} are not in the module cache")
    assert_script_writes(script.main, Path(scheme_kinds.__file__), tmp_path)


KNOWN_VERSIONS = """package controlplane

import (
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
)
"""

APPS_INSTALL = """package install

import (
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/apis/apps/v1"
	beta "k8s.io/kubernetes/pkg/apis/apps/v1beta1"
)

func Install(scheme *runtime.Scheme) {
	utilruntime.Must(apps.AddToScheme(scheme))
	utilruntime.Must(beta.AddToScheme(scheme))
	utilruntime.Must(v1.AddToScheme(scheme))
}
"""

CORE_INSTALL = """package install

import (
	"k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/apis/core/v1"
)

func Install(scheme *runtime.Scheme) {
	utilruntime.Must(core.AddToScheme(scheme))
	utilruntime.Must(v1.AddToScheme(scheme))
}
"""


def _register(*kinds: str) -> str:
    listed = "".join(f"\t\t&{kind}{{}},\n" for kind in kinds)
    return (
        "package v1\n\nfunc addKnownTypes(scheme *runtime.Scheme) error {\n"
        f"\tscheme.AddKnownTypes(SchemeGroupVersion,\n{listed}\t)\n"
        "\tscheme.AddKnownTypes(SchemeGroupVersion, &metav1.Status{})\n"
        "\treturn nil\n}\n\nfunc other() {\n\t_ = &NotRegistered{}\n}\n"
    )


def _cache(tmp_path: Path) -> Path:
    release = helpers.pinned_release()
    api = "v0." + release.removeprefix("v1.")
    files = {
        f"kubernetes@{release}/{script.KNOWN_VERSIONS}": KNOWN_VERSIONS,
        f"kubernetes@{release}/pkg/apis/apps/install/install.go": APPS_INSTALL,
        f"kubernetes@{release}/pkg/apis/apps/register.go": 'const GroupName = "apps"\n',
        f"kubernetes@{release}/pkg/apis/core/install/install.go": CORE_INSTALL,
        f"kubernetes@{release}/pkg/apis/core/register.go": 'var GroupName = ""\n',
        f"api@{api}/apps/v1/register.go": _register("Deployment", "DeploymentList"),
        f"api@{api}/apps/v1beta1/register.go": _register("Deployment", "Scale"),
        f"api@{api}/core/v1/register.go": _register("ConfigMap", "Secret"),
    }
    for path, text in files.items():
        target = tmp_path / "cache" / "k8s.io" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return tmp_path / "cache"


def test_the_script_reads_installs_and_registrations(tmp_path: Path) -> None:
    out = tmp_path / "generated.py"
    assert script.main(["--modcache", str(_cache(tmp_path)), "--out", str(out)]) == 0
    namespace: dict[str, object] = {}
    exec(compile(out.read_text(encoding="utf-8"), str(out), "exec"), namespace)
    meta = " ".join(script.META_KINDS)
    assert namespace["SCHEME_KINDS"] == {
        # sorted; only addKnownTypes' own kinds; metav1's in every version, the
        # unversioned ones (Status, discovery) in core v1
        "apps/v1": " ".join(sorted(["Deployment", "DeploymentList", *script.META_KINDS])),
        "apps/v1beta1": " ".join(sorted(["Deployment", "Scale", *script.META_KINDS])),
        "v1": " ".join(
            sorted(["ConfigMap", "Secret", *script.META_KINDS, *script.UNVERSIONED_KINDS])
        ),
    }
    assert namespace["INTERNAL_PACKAGES"] == {"": "core", "apps": "apps"}
    assert namespace["META_KINDS"] == f"{meta} {' '.join(script.UNVERSIONED_KINDS)}"


def test_missing_sources_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--modcache", str(tmp_path), "--out", str(tmp_path / "g.py")]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert f"kubernetes@{helpers.pinned_release()}/{script.KNOWN_VERSIONS} is missing" in error
