"""``--local DIR``: an object moved from one file to another is not deleted (issue 30).

Found while writing the concurrent-edit test (issue 30): a file renamed to a name that
sorts first, or an object cut from one file and pasted into another that is saved
first, left the store without the object while a file held it (the old file's sync
deleted it by the uid that the new file's apply had just kept). All three cases fail
before the fix in ``LocalBackend.sync``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kubectl_crd.reconcile.local import LocalBackend

CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  count: '{n}'\n"


def _names(backend: LocalBackend) -> list[str]:
    return [o["metadata"]["name"] for o in backend.store.list(backend.resolve("v1/ConfigMap"))]


@pytest.mark.parametrize(("old", "new"), [("z.yaml", "a.yaml"), ("a.yaml", "z.yaml")])
def test_a_renamed_file_keeps_its_objects_in_one_batch(tmp_path: Path, old: str, new: str) -> None:
    (tmp_path / old).write_text(CONFIGMAP.format(n=1))
    backend = LocalBackend(str(tmp_path))
    assert backend.load() == []
    uid = backend.store.get(backend.resolve("v1/ConfigMap"), "default", "x")["metadata"]["uid"]
    os.rename(tmp_path / old, tmp_path / new)
    backend.sync({str(tmp_path / old), str(tmp_path / new)})
    assert _names(backend) == ["x"]
    # the same object, not a delete and a create
    assert (
        backend.store.get(backend.resolve("v1/ConfigMap"), "default", "x")["metadata"]["uid"] == uid
    )


def test_an_object_pasted_into_another_file_before_the_cut_is_saved_stays(
    tmp_path: Path,
) -> None:
    (tmp_path / "one.yaml").write_text(CONFIGMAP.format(n=1))
    backend = LocalBackend(str(tmp_path))
    assert backend.load() == []
    (tmp_path / "two.yaml").write_text(CONFIGMAP.format(n=2))
    backend.sync({str(tmp_path / "two.yaml")})
    (tmp_path / "one.yaml").write_text("")
    backend.sync({str(tmp_path / "one.yaml")})
    stored = backend.store.get(backend.resolve("v1/ConfigMap"), "default", "x")
    assert stored["data"] == {"count": "2"}
    # and once no file holds it, it is deleted
    (tmp_path / "two.yaml").unlink()
    backend.sync({str(tmp_path / "two.yaml")})
    assert _names(backend) == []
