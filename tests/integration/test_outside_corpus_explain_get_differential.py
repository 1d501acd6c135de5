"""``explain``, ``get`` and ``sample`` on schema features met outside the corpus, against the real server.

A hunt over the CRDs of 18 projects the corpus never saw (chaos-mesh, cloudnative-pg,
envoy gateway, kserve, gateway-api-inference-extension, jobset, karpenter, kueue, lws,
metallb, opentelemetry-operator, kuberay, rook, volcano, kgateway, contour, kubevirt,
argo-rollouts) compared ``kubectl crd explain`` with ``kubectl explain``, ``kubectl crd
get`` with ``kubectl get`` (live, ``--crd`` and ``-f``, plain and ``-o wide``) and sent
every ``kubectl crd sample`` variant to a server-side dry run. Each difference found is a
case below: a small CRD written for the test, showing only the feature (the projects'
CRDs are not copied), with what the oracle is asked:

- ``samples``: every flag variant of ``kubectl crd sample`` must pass
  ``kubectl create --dry-run=server``;
- ``explain``: field paths whose ``kubectl crd explain --kubectl`` output (stdout, first
  stderr line, exit code) must equal the real ``kubectl explain``'s;
- ``objects``: created on the server, then ``kubectl crd get`` (live, ``--crd`` and
  ``-f`` of the dumped objects, plain and ``-o wide``) must print what ``kubectl get``
  prints (ages aside).

All CRDs go in with one ``kubectl apply`` on the session's control plane.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.cli.root import main as cli_main
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane

GROUP = "hunt.outside.example.com"
SAMPLE_FLAGS: list[list[str]] = [
    [],
    ["--all-fields"],
    ["-o", "json"],
    ["--no-comments"],
    ["--all-fields", "-o", "json"],
]


@dataclass(frozen=True)
class Case:
    #: the version's openAPIV3Schema ``spec`` and, when set, ``status``
    spec: dict[str, Any]
    status: dict[str, Any] | None = None
    columns: list[dict[str, Any]] = field(default_factory=list)
    samples: bool = False
    explain: list[str] = field(default_factory=list)
    objects: list[dict[str, Any]] = field(default_factory=list)


S = {"type": "string"}
INT = {"type": "integer"}


def _object(properties: dict[str, Any], required: list[str] | None = None, **more: Any) -> Any:
    return {
        "type": "object",
        "properties": properties,
        **({"required": required} if required else {}),
        **more,
    }


CASES: dict[str, Case] = {
    # kubernetes-sigs/lws DisaggregatedSet: a rule on spec reads ``r.spec.replicas`` of
    # each item through a macro variable; an item without the optional ``spec`` object
    # makes the server's evaluation fail with "no such key: spec"
    "rule-selects-through-a-macro-variable": Case(
        _object(
            {
                "roles": {
                    "type": "array",
                    "minItems": 1,
                    "items": _object(
                        {"name": S, "spec": _object({"replicas": INT}), "other": _object({})},
                        ["name"],
                    ),
                }
            },
            ["roles"],
            **{
                "x-kubernetes-validations": [
                    {"rule": "self.roles.all(r, !has(r.spec.replicas) || r.spec.replicas > 0)"}
                ]
            },
        ),
        samples=True,
    ),
    # envoyproxy/gateway EnvoyExtensionPolicy: a string whose enum sits only in allOf
    # branches (their intersection is what the server allows)
    "enum-only-in-all-of": Case(
        _object(
            {
                "code": _object(
                    {
                        "type": {
                            "type": "string",
                            "allOf": [
                                {"enum": ["HTTP", "Image"]},
                                {"enum": ["HTTP", "Image", "ConfigMap"]},
                            ],
                        },
                        "other": {"type": "string", "allOf": [{"enum": ["a", "b"]}]},
                    },
                    ["type"],
                )
            },
            ["code"],
        ),
        samples=True,
    ),
}


def _kind(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))[:60]


def _crd(name: str, case: Case) -> dict[str, Any]:
    kind = _kind(name)
    properties: dict[str, Any] = {"spec": case.spec}
    if case.status is not None:
        properties["status"] = case.status
    raw = make_crd(kind, GROUP, plural=kind.lower() + "s", schema=_object(properties))
    version = raw["spec"]["versions"][0]
    if case.columns:
        version["additionalPrinterColumns"] = case.columns
    if case.status is not None:
        version["subresources"] = {"status": {}}
    return raw


@pytest.fixture(scope="module")
def installed(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every case's CRD installed (one apply), and its file."""
    directory = tmp_path_factory.mktemp("outside-crds")
    files = {}
    for name, case in CASES.items():
        files[name] = directory / f"{name}.json"
        files[name].write_text(json.dumps(_crd(name, case)))
    apiserver.install_crds(files.values())
    return files


def _resource(name: str) -> str:
    return f"{_kind(name).lower()}s.{GROUP}"


def _ours(*args: str) -> tuple[str, str, int]:
    """Our CLI in process: stdout, the first stderr line, the exit code."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            cli_main(list(args))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    first = next(iter(stderr.getvalue().splitlines()), "")
    return stdout.getvalue(), first, code


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c.samples))
def test_every_sample_variant_passes_a_server_dry_run(
    apiserver: ControlPlane, installed: dict[str, Path], namespace: str, tmp_path: Path, name: str
) -> None:
    rejected = []
    for number, flags in enumerate(SAMPLE_FLAGS):
        out, err, code = _ours(
            "sample", "-n", namespace, "--crd", str(installed[name]), _resource(name),
            "--name", f"s{number}", *flags,
        )  # fmt: skip
        assert code == 0, (flags, err)
        sample = tmp_path / f"s{number}.{'json' if 'json' in flags else 'yaml'}"
        sample.write_text(out)
        created = apiserver.kubectl(
            "create", "--dry-run=server", "-n", namespace, "-f", str(sample), check=False
        )
        if created.returncode:
            rejected.append(f"{flags}: {created.stderr.strip()}\n{out}")
    assert not rejected, "\n".join(rejected)
