"""``scale --local`` through the admission step (``validation.scaling``): a file holding a
stored object (it has a resourceVersion) is scaled as the server scales it, an update of
the stored object (ratcheting lets an unchanged invalid field through); a plain manifest
is checked as its create (its status dropped when the CRD has a status subresource).

The server's side of the same files: tests/integration/test_scale.py
(``test_local_is_what_the_server_does``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import read_inputs
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.validation.scaling import scale_locally
from tests.cli_runner import run_cli

DATA = Path(__file__).parent / "data"
TIGHT_NAME = "                  maxLength: 5\n"


def tightened_crd(tmp_path: Path) -> Path:
    """foo-crd.yaml with spec.deploymentName at most 5 characters long."""
    text = (DATA / "foo-crd.yaml").read_text()
    anchor = "                deploymentName:\n                  type: string\n"
    assert anchor in text
    path = tmp_path / "tight-crd.yaml"
    path.write_text(text.replace(anchor, anchor + TIGHT_NAME))
    return path


def stored_foo(*, resource_version: str | None = "41", name: str = "toolong") -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": "a", "namespace": "ns"}
    if resource_version:
        metadata |= {
            "resourceVersion": resource_version,
            "uid": "0b3c2c1e-7f6e-4c1b-9d7a-1f6f0e3f7a11",
            "generation": 1,
            "creationTimestamp": "2026-11-26T10:00:00Z",
        }
    return {
        "apiVersion": "samplecontroller.k8s.io/v1alpha1",
        "kind": "Foo",
        "metadata": metadata,
        "spec": {"deploymentName": name, "replicas": 1},
        "status": {"availableReplicas": 1},
    }


def crd_from(path: Path) -> CustomResourceDefinition:
    (document,) = read_inputs([str(path)])
    return CustomResourceDefinition.from_object(document.content)


def test_a_stored_object_is_ratcheted_a_manifest_is_not(tmp_path: Path) -> None:
    crd = crd_from(tightened_crd(tmp_path))
    stored = scale_locally(stored_foo(), crd, "v1alpha1", 3)
    assert (stored.ok, stored.stored, stored.errors) == (True, True, ())
    assert stored.changed["spec"] == {"deploymentName": "toolong", "replicas": 3}
    manifest = scale_locally(stored_foo(resource_version=None), crd, "v1alpha1", 3)
    assert (manifest.ok, manifest.stored) == (False, False)
    assert [e.message for e in manifest.errors] == [
        "spec.deploymentName: Too long: may not be more than 5 bytes"
    ]


def test_the_new_count_is_validated_either_way(tmp_path: Path) -> None:
    crd = crd_from(tightened_crd(tmp_path))
    for resource_version in ("41", None):
        scaled = scale_locally(stored_foo(resource_version=resource_version), crd, "v1alpha1", 11)
        assert [e.message for e in scaled.errors][-1] == (
            "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or "
            "equal to 10"
        )
    # a stored object's invalid name changed by nothing stays ratcheted: only the count
    stored = scale_locally(stored_foo(), crd, "v1alpha1", 11)
    assert len(stored.errors) == 1


def test_a_manifests_status_is_dropped_as_a_create_drops_it() -> None:
    crd = crd_from(DATA / "foo-crd.yaml")
    obj = stored_foo(resource_version=None, name="ok")
    obj["status"] = {"availableReplicas": "not a number"}
    scaled = scale_locally(obj, crd, "v1alpha1", 2)
    assert scaled.ok, scaled.errors
    # what is printed is the file's object, changed only at specReplicasPath
    assert scaled.changed["status"] == {"availableReplicas": "not a number"}


@pytest.mark.parametrize(("stored", "code"), [(True, 0), (False, 1)])
def test_the_command_says_the_same(tmp_path: Path, stored: bool, code: int) -> None:
    import json

    obj = stored_foo(resource_version="41" if stored else None)
    path = tmp_path / "foo.json"
    path.write_text(json.dumps(obj, indent=2))
    crd = tightened_crd(tmp_path)
    result = run_cli("scale", "--local", "-f", str(path), "--crd", str(crd), "--replicas", "3")
    assert result.returncode == code, result.stderr
    if stored:
        assert '"replicas": 3' in result.stdout or "replicas: 3" in result.stdout
        assert result.stderr == ""
    else:
        assert result.stdout == ""
        assert result.stderr.splitlines() == [
            f'{path}:9:23: error: The Foo "a" is invalid: spec.deploymentName: Too long: '
            "may not be more than 5 bytes"
        ]


def test_only_the_path_to_spec_replicas_is_copied_and_the_file_object_is_untouched(
    tmp_path: Path,
) -> None:
    """``changed`` shares what the scale does not touch with the file's object (no deep
    copy per object), keeps the positions of the maps it copies, and the file's object
    is left as read, even after the admission of ``changed``."""
    import copy

    from kubectl_crd.io.positions import locate

    path = tmp_path / "foo.yaml"
    path.write_text(
        "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\n"
        "metadata:\n  name: a\n  namespace: ns\n"
        "spec:\n  deploymentName: toolong\n  replicas: 1\n"
    )
    (document,) = read_inputs([str(path)])
    obj = document.content
    before = copy.deepcopy(dict(obj))
    scaled = scale_locally(obj, crd_from(tightened_crd(tmp_path)), "v1alpha1", 4)
    assert scaled.changed["spec"]["replicas"] == 4
    assert obj["spec"]["replicas"] == 1 and dict(obj) == before
    assert scaled.changed["spec"] is not obj["spec"]
    assert scaled.changed["metadata"] is obj["metadata"]  # shared, not copied
    where = locate(scaled.changed, ["spec", "deploymentName"])
    assert where is not None and (where.line, where.column) == (7, 19)
    assert [e.message for e in scaled.errors] == [
        "spec.deploymentName: Too long: may not be more than 5 bytes"
    ]
