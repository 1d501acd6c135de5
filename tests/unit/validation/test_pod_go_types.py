"""``validation.pod_go_types`` is what hack/go_field_names.py writes from the Go sources
of the pinned release (the Go names a Job's changed template is printed with), and the
script reads those sources as meant: embedded structs in place, kinds, v1 JSON names,
the host namespaces v1 keeps in ``PodSpec``, and a v1 field it does not know refused."""

from __future__ import annotations

import runpy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kubectl_crd.validation import pod_go_types
from tests.generated_modules import assert_script_writes

ROOT = Path(__file__).resolve().parents[3]


#: hack/go_field_names.py's globals (runpy puts the module in sys.modules while it runs,
#: where dataclasses look it up)
script = SimpleNamespace(
    **runpy.run_path(str(ROOT / "hack" / "go_field_names.py"), run_name="go_field_names")
)


def test_the_committed_module_is_what_the_script_writes_from_the_module_cache(
    tmp_path: Path,
) -> None:
    release = script.pinned_release()
    try:
        script.sources(script.modcache(None), release)
    except script.SourceError as missing:
        pytest.skip(f"the Go sources of {release} are not in the module cache: {missing}")
    assert_script_writes(script.main, Path(pod_go_types.__file__), tmp_path)


INTERNAL = """package core

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

/* a block comment with a brace } and a tag `json:"no"` */
type PodSpec struct {
	// a comment: Hidden string `json:"hidden"`
	Volumes []Volume
	RestartPolicy RestartPolicy
	NodeSelector map[string]string
	ServiceAccountName string
	SecurityContext *PodSecurityContext
	Priority *int32
}

type RestartPolicy string

type ResourceList map[string]resource.Quantity

type Volume struct {
	Name string
	VolumeSource
}

type VolumeSource struct {
	Ephemeral *EphemeralVolumeSource
	CephMonitors []string
	Divisor resource.Quantity
	Limits ResourceList
	Devices []VolumeDevice
}

type VolumeDevice struct{}

type EphemeralVolumeSource struct {
	VolumeClaimTemplate *PersistentVolumeClaimTemplate
}

type PersistentVolumeClaimTemplate struct {
	metav1.ObjectMeta
	Spec PersistentVolumeClaimSpec
}

type PersistentVolumeClaimSpec struct {
	VolumeName string
}

type PodSecurityContext struct {
	HostNetwork bool
	HostPID, HostIPC bool
	ShareProcessNamespace *bool
	HostUsers *bool
	RunAsUser *int64
	SELinuxOptions SELinuxOptions
}

type SELinuxOptions struct {
	Level string
}
"""

V1 = """package v1

type PodSpec struct {
	Volumes []Volume `json:"volumes,omitempty" protobuf:"bytes,1,rep,name=volumes"`
	RestartPolicy RestartPolicy `json:"restartPolicy,omitempty"`
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	DeprecatedServiceAccount string `json:"serviceAccount,omitempty"`
	HostNetwork bool `json:"hostNetwork,omitempty"`
	HostPID bool `json:"hostPID,omitempty"`
	HostIPC bool `json:"hostIPC,omitempty"`
	ShareProcessNamespace *bool `json:"shareProcessNamespace,omitempty"`
	SecurityContext *PodSecurityContext `json:"securityContext,omitempty"`
	Priority *int32 `json:"priority,omitempty"`
	HostUsers *bool `json:"hostUsers,omitempty"`
}

type Volume struct {
	Name string `json:"name"`
	VolumeSource `json:",inline"`
}

type VolumeSource struct {
	Ephemeral *EphemeralVolumeSource `json:"ephemeral,omitempty"`
	CephMonitors []string `json:"monitors"`
	Divisor resource.Quantity `json:"divisor,omitempty"`
	Limits ResourceList `json:"limits,omitempty"`
	Devices []VolumeDevice `json:"devices,omitempty"`
	Internal string `json:"-"`
}

type VolumeDevice struct{}

type EphemeralVolumeSource struct {
	VolumeClaimTemplate *PersistentVolumeClaimTemplate `json:"volumeClaimTemplate,omitempty"`
}

type PersistentVolumeClaimTemplate struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec PersistentVolumeClaimSpec `json:"spec"`
}

type PersistentVolumeClaimSpec struct {
	VolumeName string `json:"volumeName,omitempty"`
}

type PodSecurityContext struct {
	RunAsUser *int64 `json:"runAsUser,omitempty"`
	SELinuxOptions SELinuxOptions `json:"seLinuxOptions,omitempty"`
}

type SELinuxOptions struct {
	Level string `json:"level,omitempty"`
}
"""

EXPECTED = {
    "PodSpec": (
        ("Volumes", "volumes", "[]Volume"),
        ("RestartPolicy", "restartPolicy", "s"),  # a named string
        ("NodeSelector", "nodeSelector", "p"),
        ("ServiceAccountName", "serviceAccountName", "s"),
        ("SecurityContext", "securityContext", "*PodSecurityContext"),
        ("Priority", "priority", "p"),
    ),
    "Volume": (  # VolumeSource's fields in its place
        ("Name", "name", "s"),
        ("Ephemeral", "ephemeral", "*EphemeralVolumeSource"),
        ("CephMonitors", "monitors", "p"),
        ("Divisor", "divisor", "p"),
        ("Limits", "limits", "p"),  # a named map
        ("Devices", "devices", "[]VolumeDevice"),
    ),
    "EphemeralVolumeSource": (
        ("VolumeClaimTemplate", "volumeClaimTemplate", "*PersistentVolumeClaimTemplate"),
    ),
    # ObjectMeta embedded: its JSON-tagged fields written in its place
    "PersistentVolumeClaimTemplate": (
        ("ObjectMeta", "metadata", "m"),
        ("Spec", "spec", "!PersistentVolumeClaimSpec"),
    ),
    "PersistentVolumeClaimSpec": (("VolumeName", "volumeName", "s"),),
    "VolumeDevice": (),
    "PodSecurityContext": (
        ("HostNetwork", "hostNetwork", "b"),
        ("HostPID", "hostPID", "b"),
        ("HostIPC", "hostIPC", "b"),
        ("ShareProcessNamespace", "shareProcessNamespace", "p"),
        ("HostUsers", "hostUsers", "p"),
        ("RunAsUser", "runAsUser", "p"),
        ("SELinuxOptions", "seLinuxOptions", "!SELinuxOptions"),
    ),
    "SELinuxOptions": (("Level", "level", "s"),),
}


def _cache(tmp_path: Path, internal: str, v1: str) -> Path:
    """A module cache holding only the two files, at the pinned release."""
    release = script.pinned_release()
    api = "v0." + release.removeprefix("v1.")
    for module, path, text in (
        (f"kubernetes@{release}", script.INTERNAL, internal),
        (f"api@{api}", script.V1, v1),
    ):
        target = tmp_path / "cache" / "k8s.io" / module / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return tmp_path / "cache"


def _generate(tmp_path: Path, internal: str, v1: str) -> dict[str, Any]:
    out = tmp_path / "generated.py"
    code = script.main(["--modcache", str(_cache(tmp_path, internal, v1)), "--out", str(out)])
    assert code == 0
    namespace: dict[str, Any] = {}
    exec(compile(out.read_text(encoding="utf-8"), str(out), "exec"), namespace)
    return namespace


def test_the_script_reads_go_declarations_as_encoding_json_writes_them(tmp_path: Path) -> None:
    generated = _generate(tmp_path, INTERNAL, V1)
    assert generated["GO_TYPES"] == EXPECTED
    assert list(generated["GO_TYPES"]) == list(EXPECTED)  # depth first, in field order
    assert generated["POD_SPEC_MOVED"] == (
        "hostNetwork",
        "hostPID",
        "hostIPC",
        "shareProcessNamespace",
        "hostUsers",
    )
    assert generated["POD_SPEC_V1_ONLY"] == ("serviceAccount",)


@pytest.mark.parametrize(
    ("internal", "v1", "message"),
    [
        (
            INTERNAL,
            V1.replace("type VolumeDevice struct{}", 'type VolumeDevice struct {\n\tPath string `json:"path"`\n}'),
            "v1 fields with no internal field: [('VolumeDevice', 'Path')]",
        ),
        (
            INTERNAL.replace("\tLevel string\n", "\tLevel string\n\tType string\n"),
            V1,
            "v1 SELinuxOptions has no field Type",
        ),
        (INTERNAL, V1.replace("\tDeprecatedServiceAccount string", "\t// gone"), "V1_ONLY fields v1 has no more: [('PodSpec', 'DeprecatedServiceAccount')]"),
        (INTERNAL, V1.replace("\tHostUsers *bool", "\tUsers *bool"), "v1 PodSpec has no field HostUsers"),
        (INTERNAL, V1.replace("type SELinuxOptions", "type Other"), "k8s.io/api core/v1/types.go has no type SELinuxOptions"),
        (INTERNAL.replace("Devices []VolumeDevice", "Devices []Missing"), V1, "pkg/apis/core/types.go: no type Missing"),
        (INTERNAL.replace("Priority *int32", "Hook func(int)"), V1, "a field this reader does not know: 'Hook func(int)'"),
    ],
)  # fmt: skip
def test_what_the_script_cannot_map_stops_it_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], internal: str, v1: str, message: str
) -> None:
    out = tmp_path / "generated.py"
    code = script.main(["--modcache", str(_cache(tmp_path, internal, v1)), "--out", str(out)])
    error = capsys.readouterr().err
    assert (code, error.count("\n"), out.exists()) == (1, 1, False)
    assert message in error


def test_missing_sources_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--modcache", str(tmp_path), "--out", str(tmp_path / "g.py")]) == 1
    error = capsys.readouterr().err
    assert f"kubernetes@{script.pinned_release()}/pkg/apis/core/types.go is missing" in error
