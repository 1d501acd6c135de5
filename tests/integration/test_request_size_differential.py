"""Big objects: the size limits of a create, ``validate`` against the real API server.

kube-apiserver refuses a body over 3 MiB (413, before anything is decoded) and etcd a
write over its request limits (``etcdserver: request is too large`` past 1.5 MiB, the
etcd client's ``trying to send message larger than max`` past 2 MiB, each a 500 with
no reason). ``validation.requestsize`` mirrors the three (see its docstring); here
each is sent to the server for real (not a dry run: a dry run never reaches etcd),
and ``Admission.create`` (what ``validate`` runs, with the Status a store answers)
must give the same code, reason and message byte for byte, on both sides of each
limit to the byte. ``validate -f`` must report the same message at the object's
file:line:column.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.govalues import go_json
from kubectl_crd.validation import Admission
from kubectl_crd.validation.requestsize import BODY_LIMIT, body_size, storage_refusal
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_validation_differential import ApiClient

GROUP = "size.example.com"
MiB = 1024 * 1024

_SPEC = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "data": {"type": "string"},
                "list": {"type": "array", "items": {"type": "string"}},
                "mode": {"type": "string", "default": "fast"},
            },
        }
    },
}


def _crds() -> list[dict[str, Any]]:
    namespaced = make_crd("Big", GROUP, schema=_SPEC)
    cluster = make_crd("Wide", GROUP, schema=_SPEC)
    cluster["spec"]["scope"] = "Cluster"
    return [namespaced, cluster]


@pytest.fixture(scope="module")
def crds(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    where = tmp_path_factory.mktemp("crds")
    made = _crds()
    paths = []
    for crd in made:
        path = where / f"{crd['metadata']['name']}.json"
        path.write_text(json.dumps(crd))
        paths.append(path)
    apiserver.install_crds(paths)
    return {crd["spec"]["names"]["kind"]: crd for crd in made}


def big(kind: str, name: str, size: int, *, filler: str = "x", **spec: Any) -> dict[str, Any]:
    """An object of ``kind`` whose body (``body_size``) is ``size`` bytes, the most of it
    ``spec.data`` made of ``filler``."""
    obj: dict[str, Any] = {
        "apiVersion": f"{GROUP}/v1",
        "kind": kind,
        "metadata": {"name": name},
        "spec": {"data": "", **spec},
    }
    short = body_size(obj)
    count, rest = divmod(size - short, body_size({"": filler}) - body_size({"": ""}))
    obj["spec"]["data"] = filler * count + "x" * rest
    assert body_size(obj) == size
    return obj


def _largest_stored(kind: str, name: str, crd: CustomResourceDefinition, ns: str) -> int:
    """The body size of the biggest ``big`` object ``storage_refusal`` lets through."""
    low, high = MiB, 2 * MiB

    def fits(size: int) -> bool:
        obj = big(kind, name, size)
        obj["spec"]["mode"] = "fast"  # the default the server adds
        return (
            storage_refusal(
                obj, group=GROUP, plural=crd.names.plural, namespaced=crd.namespaced, namespace=ns
            )
            is None
        )

    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


def _server(client: ApiClient, crd: CustomResourceDefinition, ns: str, obj: Any) -> tuple[Any, ...]:
    """A real create of ``obj``, its body as kubectl writes it: (code, reason, message)."""
    path = f"/apis/{GROUP}/v1/"
    if crd.namespaced:
        path += f"namespaces/{ns}/"
    body = (go_json(obj) + "\n").encode()
    assert len(body) == body_size(obj)
    status, answer, _ = client.post(f"{path}{crd.names.plural}?fieldValidation=Strict", body)
    if status == 201:
        return (201,)
    return (status, answer.get("reason", ""), answer.get("message", ""))


def _ours(crd: CustomResourceDefinition, ns: str, obj: Any) -> tuple[Any, ...]:
    result = Admission(crd).create(obj, namespace=ns if crd.namespaced else None)
    if result.code == 201:
        return (201,)
    status = result.response if isinstance(result.response, dict) else {}
    return (result.code, status.get("reason", ""), status.get("message", ""))


@pytest.mark.parametrize("kind", ["Big", "Wide"])
def test_big_creates_are_refused_as_the_server_refuses_them(
    apiserver: ControlPlane, api_client: ApiClient, namespace: str, crds: dict[str, Any], kind: str
) -> None:
    crd = CustomResourceDefinition.from_object(crds[kind])
    prefix = namespace[-6:] if kind == "Wide" else ""  # cluster-scoped names are shared
    # names of one length: the key's length counts
    etcd_edge = _largest_stored(kind, f"{prefix}edge1", crd, namespace)
    cases: list[tuple[str, dict[str, Any], tuple[Any, ...]]] = [
        ("1 MiB", big(kind, f"{prefix}one", MiB), (201,)),
        ("the largest etcd stores", big(kind, f"{prefix}edge1", etcd_edge), (201,)),
        # the raft request's header holds a request id whose varint is ten bytes for
        # half of etcd's member ids, nine for most others (fewer for 1 in 256): a few
        # bytes more may still be stored
        ("four bytes more", big(kind, f"{prefix}edge2", etcd_edge + 4), (500, "")),
        ("1.6 MiB", big(kind, f"{prefix}big", int(1.6 * MiB)), (500, "")),
        ("2.5 MiB", big(kind, f"{prefix}bigger", int(2.5 * MiB)), (500, "")),
        ("the largest body read", big(kind, f"{prefix}limit1", BODY_LIMIT), (500, "")),
        ("a byte more", big(kind, f"{prefix}limit2", BODY_LIMIT + 1), (413,)),
        ("3.1 MiB", big(kind, f"{prefix}huge", int(3.1 * MiB)), (413,)),
        # 600 KiB of '<', six bytes each in Go's JSON: over the body limit
        ("HTML characters", big(kind, f"{prefix}html", int(3.2 * MiB), filler="<"), (413,)),
        # refused for a field the schema prunes first: etcd is never reached
        ("1.6 MiB and unknown", big(kind, f"{prefix}unk", int(1.6 * MiB), bad=1), (400,)),
    ]
    problems = []
    try:
        for what, obj, expected in cases:
            theirs = _server(api_client, crd, namespace, obj)
            ours = _ours(crd, namespace, obj)
            if theirs[: len(expected)] != expected:
                problems.append(f"{what}: the server answered {theirs[:2]} (the case is wrong)")
            if ours != theirs:
                problems.append(f"{what}:\n  server {theirs}\n  ours   {ours}")
    finally:
        apiserver.kubectl(
            "delete", crd.names.plural, "--all", "--wait=false",
            *(["-n", namespace] if crd.namespaced else []), check=False,
        )  # fmt: skip
    assert problems == [], "\n".join(problems)
    assert etcd_edge > int(1.49 * MiB)


def test_validate_reports_the_servers_answer_at_the_object(
    apiserver: ControlPlane, namespace: str, crds: dict[str, Any], tmp_path: Path
) -> None:
    """``kubectl create -f`` of a file holding a small object and two big ones, and
    ``validate -f`` of it: kubectl's errors are validate's messages, each at the line
    where its object starts."""
    import yaml

    crd_file = tmp_path / "crd.yaml"
    crd_file.write_text(yaml.safe_dump(crds["Big"]))
    objects = [
        big("Big", "small", 1000),
        big("Big", "stored-no", int(1.6 * MiB)),
        big("Big", "read-no", int(3.1 * MiB)),
    ]
    for obj in objects:
        obj["metadata"]["namespace"] = namespace
    manifest = tmp_path / "big.yaml"
    manifest.write_text("---\n".join(yaml.safe_dump(obj, width=1 << 30) for obj in objects))
    starts = [1]
    for line_number, line in enumerate(manifest.read_text().splitlines(), 1):
        if line == "---":
            starts.append(line_number + 1)
    created = apiserver.kubectl("create", "-f", str(manifest), check=False)
    refused = [line for line in created.stderr.splitlines() if line.startswith("Error from server")]
    assert len(refused) == 2, created.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "KUBECTL_CRD_DEBUG")}
    env["HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "validate", "-f", str(manifest),
         "--crd", str(crd_file), "--offline", "-o", "json"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    invalid = [r for r in json.loads(done.stdout)["resources"] if r["status"] == "invalid"]
    assert [r["name"] for r in invalid] == ["stored-no", "read-no"]
    for record, line, server in zip(invalid, starts[1:], refused, strict=True):
        (error,) = record["errors"]
        assert error["line"] == line, (record, starts)
        # kubectl: Error from server (<reason>): error when creating "<file>": <message>
        assert server.endswith(f": {error['message']}"), (server, error)
    apiserver.kubectl("delete", "bigs", "--all", "-n", namespace, "--wait=false", check=False)
