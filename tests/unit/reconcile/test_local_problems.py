"""``--local DIR``: an object the store's apply refuses for a field of the wrong type is
a problem at that field's line and column. structured-merge-diff names the field in
its own path syntax (``.spec.template.spec.containers[name="c"].image``), which the
problem was not placed by: it was at the document's first line (1:1) for every such
refusal, whichever field it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_crd.reconcile.local import LocalBackend

CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: 1\n"
DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: d
spec:
  selector: {matchLabels: {a: b}}
  template:
    metadata: {labels: {a: b}}
    spec:
      containers:
      - name: first
        image: nginx
      - name: c
        image: 5
"""
SERVICE = """\
apiVersion: v1
kind: Service
metadata:
  name: s
spec:
  ports:
  - port: 80
    protocol: TCP
    name: [web]
"""


@pytest.mark.parametrize(
    ("text", "place", "path"),
    [
        (CONFIGMAP, "6:6", ".data.a"),
        (DEPLOYMENT, "14:16", '.spec.template.spec.containers[name="c"].image'),
        (SERVICE, "9:11", '.spec.ports[port=80,protocol="TCP"].name'),
    ],
)
def test_a_field_of_the_wrong_type_is_a_problem_where_it_is(
    tmp_path: Path, text: str, place: str, path: str
) -> None:
    (tmp_path / "o.yaml").write_text(text)
    (problem,) = LocalBackend(str(tmp_path)).load()
    assert f"{problem.location.line}:{problem.location.column}" == place, problem
    assert f"): {path}: expected " in problem.message, problem.message


def test_a_built_in_bodys_unknown_fields_are_the_servers_warnings(tmp_path: Path) -> None:
    # fieldValidation=Warn, the server's when a request names none: the status the file
    # gives is written through /status (an update), its unknown field dropped and warned
    # of (an apply refuses them instead: DEPLOYMENT's wrong type above is a problem)
    (tmp_path / "d.yaml").write_text(
        DEPLOYMENT.replace("image: 5", "image: nginx") + "status:\n  replicas: 1\n  bogus: 2\n"
    )
    warnings: list[str] = []
    backend = LocalBackend(str(tmp_path), on_warning=warnings.append)
    assert backend.load() == []
    assert warnings == ['unknown field "status.bogus"']
    info = backend.resolve_kind("apps/v1", "Deployment")
    assert "bogus" not in backend.get(info, "default", "d")["status"]
