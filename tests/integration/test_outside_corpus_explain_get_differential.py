"""``explain``, ``get`` and ``sample`` on schema features met outside the corpus, against the real server.

A hunt over the CRDs of 18 projects the corpus never saw (chaos-mesh, cloudnative-pg,
envoy gateway, kserve, gateway-api-inference-extension, jobset, karpenter, kueue, lws,
metallb, opentelemetry-operator, kuberay, rook, volcano, kgateway, contour, kubevirt,
argo-rollouts: 143 kinds, 162 served versions) compared ``kubectl crd explain --kubectl``
with ``kubectl explain`` (2,706 cases: roots, ``--recursive``, field paths, and one path
per distinct node shape; then every path of 80 kinds of 11 of the projects, 20,300 more), ``kubectl crd get`` with ``kubectl get`` (1,126 tables, 4,354
rows: live, ``--crd``, ``-f`` of the manifests and of dumped objects with a status
written, plain and ``-o wide``) and sent five ``kubectl crd sample`` variants of every
version to a server-side dry run. Explain agreed everywhere. Each difference found is a
case below, a small CRD written for the test that shows only the feature (the projects'
CRDs are not copied):

- ``SAMPLE_CASES``: a ``spec`` schema whose every ``kubectl crd sample`` variant must
  pass ``kubectl create --dry-run=server`` (each was refused before its fix);
- ``test_get_f_of_a_dump_stored_under_another_versions_schema``: get -f of a dump,
  against kubectl get of the object it was dumped from.

A second hunt (2026-11-27, kube-apiserver 1.34.4, kubectl 1.33) took 23 projects neither
the corpus nor the first hunt had (ECK, knative eventing, traefik, Kong ingress
controller, dapr, spark-operator, gatekeeper, grafana-operator, longhorn, OLM,
vault-secrets-operator, nginx ingress, AWS load balancer controller, trivy-operator,
argo-events, flagger, rabbitmq cluster-operator, zalando postgres-operator, percona
mongodb operator, jaeger-operator, hierarchical-namespaces, node-feature-discovery,
crossplane provider-kubernetes: 204 CRDs): explain 2,319 cases (roots, ``--recursive``,
paths with fields to depth 2, a sample of deeper ones, a missing field) all equal; the
sample cases ``rules-forbid-every-field-they-name``, ``rules-reach-deep-below-their-node``
and ``test_sample_names_an_object_as_the_crd_requires`` (its enum case) come from it.

A third hunt (2026-11-29, the same server and kubectl) took 19 more projects (fluent-operator,
kubewarden, karmada, apisix-ingress-controller, tempo-operator, loki-operator, mongodb
community operator, shipwright build, emissary, secrets-store-csi-driver,
kernel-module-management, NVIDIA gpu-operator, katib, mpi-operator, camel-k,
vitess-operator, pulumi-kubernetes-operator, scheduler-plugins, policy-reporter: 133
CRDs, 175 served versions): explain 1,764 cases (the second hunt's forms) and then every
path of the 42 CRDs of eight of them, 10,810 more, all equal; get 792 tables (live,
``-f`` of the created manifests and of dumps with a status written, plain and ``-o
wide``), 786 equal, the other six only in the creation time of a manifest not yet
created, which ``-f`` cannot know (a string column of ``.metadata.creationTimestamp``,
a date column not named AGE); six sample variants of every served version, 1,050 dry runs, 18 refused
before the fixes: ``rules-pin-fields-to-double-quoted-literals``,
``list-rules-pin-item-fields-to-literals`` and the root-rule case of
``test_sample_names_an_object_as_the_crd_requires``.

The sample CRDs go in with one ``kubectl apply`` on the session's control plane.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.cli.root import main as cli_main
from tests.crd_factory import make_crd
from tests.integration.envtest import ControlPlane
from tests.integration.test_get_differential import KUBECTL_CRD, words

GROUP = "hunt.outside.example.com"
SAMPLE_FLAGS: list[list[str]] = [
    [],
    ["--all-fields"],
    ["-o", "json"],
    ["--no-comments"],
    ["--all-fields", "-o", "json"],
]


S = {"type": "string"}
INT = {"type": "integer"}


def _object(properties: dict[str, Any], required: list[str] | None = None, **more: Any) -> Any:
    return {
        "type": "object",
        "properties": properties,
        **({"required": required} if required else {}),
        **more,
    }


#: name -> the ``spec`` schema of the CRD's one version
SAMPLE_CASES: dict[str, dict[str, Any]] = {
    # kubernetes-sigs/lws DisaggregatedSet: a rule on spec reads ``r.spec.replicas`` of
    # each item through a macro variable; an item without the optional ``spec`` object
    # makes the server's evaluation fail with "no such key: spec"
    "rule-selects-through-a-macro-variable": _object(
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
    # envoyproxy/gateway EnvoyExtensionPolicy: a string whose enum sits only in allOf
    # branches (their intersection is what the server allows)
    "enum-only-in-all-of": _object(
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
    # envoyproxy/gateway BackendTrafficPolicy: rules above pin fields to literals, several
    # rules the same field (only HTTPRoute is in every list), one an enum's value
    "rules-pin-fields-below-to-literals": _object(
        {
            "targetRef": _object({"group": S, "kind": S, "name": S}, ["group", "kind", "name"]),
            "lb": _object({"type": {"type": "string", "enum": ["Hash", "Random"]}}, ["type"]),
            "pre": INT,
        },
        ["targetRef", "lb"],
        **{
            "x-kubernetes-validations": [
                {"rule": "self.targetRef.group == 'gateway.networking.k8s.io'"},
                {"rule": "self.targetRef.kind in ['Gateway', 'HTTPRoute']"},
                {"rule": "self.targetRef.kind in ['HTTPRoute', 'GRPCRoute']"},
                {"rule": "!has(self.pre) || self.lb.type in ['Random']"},
            ]
        },
    ),
    # grafana-operator GrafanaNotificationPolicy: rules on the top route forbid each field
    # they name (``!has(self.__continue__)``, ...); --all-fields must drop all of them
    "rules-forbid-every-field-they-name": _object(
        {
            "route": _object(
                {
                    "receiver": S,
                    "continue": {"type": "boolean"},
                    "match_re": {"type": "object", "additionalProperties": S},
                    "matchers": {"type": "array", "items": S},
                    "group_by": {"type": "array", "items": S},
                },
                ["receiver"],
                **{
                    "x-kubernetes-validations": [
                        {"rule": "!has(self.__continue__)"},
                        {"rule": "!has(self.match_re)"},
                        {"rule": "!has(self.matchers)"},
                    ]
                },
            )
        },
        ["route"],
    ),
    # Kong KongUpstreamPolicy: rules on the root reach fields two and three levels below
    # (at most one of spec.hashOn's fields; no spec.healthchecks.passive.healthy.interval)
    # where the fields between are not optional; --all-fields must leave out, deep down,
    # the fields they name
    "rules-reach-deep-below-their-node": _object(
        {
            "hashOn": _object({"input": S, "cookie": S, "header": S}),
            "checks": _object({"passive": _object({"interval": INT, "timeout": INT})}),
        },
        ["hashOn", "checks"],
        **{
            "x-kubernetes-validations": [
                {
                    "rule": "[has(self.hashOn.input), has(self.hashOn.cookie),"
                    " has(self.hashOn.header)].filter(f, f).size() <= 1"
                },
                {"rule": "has(self.checks.passive) ? !has(self.checks.passive.interval) : true"},
            ]
        },
    ),
    # apache/apisix-ingress-controller BackendTrafficPolicy: a rule on each item pins
    # two required fields, one to a double-quoted empty string (``self.group == ""``)
    "rules-pin-fields-to-double-quoted-literals": _object(
        {
            "targetRefs": {
                "type": "array",
                "minItems": 1,
                "items": _object(
                    {"group": S, "kind": S, "name": S},
                    ["group", "kind", "name"],
                    **{
                        "x-kubernetes-validations": [
                            {"rule": "self.kind == 'Service' && self.group == \"\""}
                        ]
                    },
                ),
            }
        },
        ["targetRefs"],
    ),
    # apache/apisix-ingress-controller L4RoutePolicy: rules on the list pin its items'
    # fields to literals through a macro variable (``self.all(r, r.kind == 'TCPRoute' ||
    # ...)``)
    "list-rules-pin-item-fields-to-literals": _object(
        {
            "targetRefs": {
                "type": "array",
                "minItems": 1,
                "items": _object({"group": S, "kind": S, "name": S}, ["group", "kind", "name"]),
                "x-kubernetes-validations": [
                    {"rule": "self.all(r, r.kind == 'TCPRoute' || r.kind == 'UDPRoute')"},
                    {"rule": "self.all(r, r.group == 'gateway.networking.k8s.io')"},
                ],
            }
        },
        ["targetRefs"],
    ),
}


def _kind(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))[:60]


def _crd(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    kind = _kind(name)
    return make_crd(kind, GROUP, plural=kind.lower() + "s", schema=_object({"spec": spec}))


@pytest.fixture(scope="module")
def installed(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every sample case's CRD installed (one apply), and its file."""
    directory = tmp_path_factory.mktemp("outside-crds")
    files = {}
    for name, spec in SAMPLE_CASES.items():
        files[name] = directory / f"{name}.json"
        files[name].write_text(json.dumps(_crd(name, spec)))
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


@pytest.mark.parametrize("name", sorted(SAMPLE_CASES))
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


# hierarchical-namespaces: HNCConfiguration's metadata.name is an enum of one value
# ("config"); the sample named it example-hncconfiguration, which the server refuses
NAMED_BY_ENUM_CRD = make_crd(
    "Singleton",
    GROUP,
    plural="singletons",
    schema=_object(
        {"metadata": _object({"name": {"type": "string", "enum": ["config"]}}), "spec": _object({})}
    ),
)
# NVIDIA gpu-operator: GPUCluster's root rule pins the name (``self.metadata.name ==
# 'gpu-cluster'``, a singleton); the sample named it example-gpucluster
NAMED_BY_RULE_CRD = make_crd(
    "Pinned",
    GROUP,
    plural="pinneds",
    schema=_object(
        {"spec": _object({})},
        **{"x-kubernetes-validations": [{"rule": "self.metadata.name == 'the-one'"}]},
    ),
)


@pytest.mark.parametrize(
    "crd_object", [NAMED_BY_ENUM_CRD, NAMED_BY_RULE_CRD], ids=["enum", "root-rule"]
)
def test_sample_names_an_object_as_the_crd_requires(
    apiserver: ControlPlane, namespace: str, tmp_path: Path, crd_object: dict[str, Any]
) -> None:
    crd = tmp_path / "crd.json"
    crd.write_text(json.dumps(crd_object))
    apiserver.install_crds([crd])
    resource = crd_object["metadata"]["name"]
    for number, flags in enumerate(SAMPLE_FLAGS):
        out, err, code = _ours("sample", "-n", namespace, "--crd", str(crd), resource, *flags)
        assert code == 0, (flags, err)
        sample = tmp_path / f"s{number}.{'json' if 'json' in flags else 'yaml'}"
        sample.write_text(out)
        created = apiserver.kubectl(
            "create", "--dry-run=server", "-n", namespace, "-f", str(sample), check=False
        )
        assert created.returncode == 0, (flags, created.stderr, out)


# opentelemetry-operator: v1alpha1 collectors (spec.config a string) stored with
# conversion None and read back as v1beta1, where config is an object. kubectl get
# shows them; get -f of their dump validated them as creates against the read version's
# schema and exited 1 with its errors. A dump is now checked as a replace of it
# unchanged, which the server accepts (its fields ratchet).
TWO_SCHEMAS_CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": f"collectors.{GROUP}"},
    "spec": {
        "group": GROUP,
        "scope": "Namespaced",
        "names": {"plural": "collectors", "singular": "collector", "kind": "Collector"},
        "versions": [
            {
                "name": name,
                "served": True,
                "storage": name == "v1beta1",
                "schema": {
                    "openAPIV3Schema": _object({"spec": _object({"mode": S, "config": config})})
                },
                "additionalPrinterColumns": [
                    {"name": "Mode", "type": "string", "jsonPath": ".spec.mode"}
                ],
            }
            for name, config in (
                ("v1alpha1", S),
                ("v1beta1", {"type": "object", "x-kubernetes-preserve-unknown-fields": True}),
            )
        ],
    },
}


def test_get_f_of_a_dump_stored_under_another_versions_schema(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    crd = tmp_path / "collectors.json"
    crd.write_text(json.dumps(TWO_SCHEMAS_CRD))
    apiserver.install_crds([crd])
    resource = f"collectors.{GROUP}"
    old = {
        "apiVersion": f"{GROUP}/v1alpha1",
        "kind": "Collector",
        "metadata": {"name": "old", "namespace": namespace},
        "spec": {"mode": "sidecar", "config": "receivers: {}"},
    }
    apiserver.kubectl("create", "-f", "-", input=json.dumps(old))
    dumped = tmp_path / "dumped.yaml"
    dumped.write_text(apiserver.kubectl("get", resource, "-n", namespace, "-o", "yaml").stdout)
    assert "config: 'receivers: {}'" in dumped.read_text()  # read as v1beta1, still a string
    config = [f"--kubeconfig={apiserver.kubeconfig}", f"--context={apiserver.context}"]
    for flags in ([], ["-o", "wide"]):
        real = apiserver.kubectl("get", resource, "-n", namespace, *flags)
        ours = subprocess.run(
            [*KUBECTL_CRD, "get", resource, "-n", namespace, *flags, *config,
             "--crd", str(crd), "-f", str(dumped)],
            capture_output=True, text=True, check=False, env=apiserver.env(),
        )  # fmt: skip
        assert words(ours.stdout, ages=True) == words(real.stdout, ages=True)
        assert "sidecar" in real.stdout
        # the dump is checked as the server checks a replace of it unchanged: accepted
        assert (ours.returncode, ours.stderr) == (real.returncode, real.stderr) == (0, "")
