"""Formatted strings CEL cannot convert, against kube-apiserver.

The server converts a string of format ``duration``, ``date``, ``date-time`` or ``byte``
to its CEL type as a rule reads the field (apiserver ``cel/common/valuesunstructured.go``,
through kube-openapi's strfmt: ``ParseDuration``, ``time.Parse`` of a full date,
``ParseDateTime``, and ``Base64.UnmarshalText``, which decodes URL-safe base64), and a
value that does not convert is an error there: ``Invalid duration soon: unable to parse
soon as duration evaluating rule: ...``. A rule that does not read the field (a sibling's
rule, a presence test) is not touched by it.

Such values reach the rules where the schema's own format check does not stop them:
an object stored before its CRD gained the format, then updated (the unchanged value's
format error ratcheted, the rule's never), and a standard-base64 ``byte`` value with
``+`` or ``/``, which the format check takes and the conversion does not. Each case is
sent as a dry run and held to ``validate_custom_resource``: verdict, causes, warnings.
"""

from __future__ import annotations

import copy
from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.validation import validate_custom_resource
from tests import crd_factory
from tests.integration.envtest import ControlPlane, wait_until_refused

GROUP = "formats.example.com"
NAMESPACE = "default"

FIELDS = {
    "d": {"type": "string", "format": "duration"},
    "b": {"type": "string", "format": "byte"},
    "t": {"type": "string", "format": "date-time"},
    "day": {"type": "string", "format": "date"},
    "l": {"type": "array", "items": {"type": "string", "format": "duration"}},
    "x": {"type": "integer"},
    "since": {"type": "string", "format": "date"},  # no rule reads it
    "at": {"type": "string", "format": "date-time"},  # no rule reads it
}
RULES = [
    {"rule": "!has(self.d) || self.d < duration('1h')"},
    {"rule": "!has(self.b) || size(self.b) < 100"},
    {"rule": "!has(self.t) || self.t > timestamp('2000-01-01T00:00:00Z')"},
    {"rule": "!has(self.day) || self.day > timestamp('2000-01-01T00:00:00Z')"},
    {"rule": "!has(self.l) || self.l.all(e, e < duration('1h'))"},
    {"rule": "self.x < 5"},  # reads no formatted field
    {"rule": "has(self.d) || has(self.b) || true"},  # presence tests read nothing
    # short circuits: d is never read (x is always there), b only when x < 5
    {"rule": "has(self.x) || self.d < duration('1h')"},
    {"rule": "self.x >= 5 || size(self.b) > 0"},
]

#: the values stored under the CRD without formats, then read through them
STORED = {
    "duration": {"d": "soon"},
    "duration-spaced": {"d": "5 min"},
    "bytes": {"b": "not base64!"},
    "bytes-padding": {"b": "YWJj="},
    "bytes-standard": {"b": "a+b/"},
    "date-time": {"t": "yesterday"},
    "date-time-local": {"t": "2020-01-01T10:00:00"},
    "date-time-bad-day": {"t": "2021-02-29T10:00:00Z"},
    "date": {"day": "2020-13-45"},
    "date-basic": {"day": "20200101"},
    "list": {"l": ["1s", "later"]},
    "two": {"d": "soon", "b": "%%"},
}


def _crd(*, formats: bool) -> dict[str, Any]:
    fields = copy.deepcopy(FIELDS)
    if not formats:
        for schema in (*fields.values(), fields["l"]["items"]):
            schema.pop("format", None)
    spec: dict[str, Any] = {"type": "object", "properties": fields}
    if formats:
        spec["x-kubernetes-validations"] = RULES
        # a rule of the field itself, whose unchanged value ratchets its schema errors
        fields["day"]["x-kubernetes-validations"] = [
            {"rule": "self < timestamp('2100-01-01T00:00:00Z')"}
        ]
    schema = {"type": "object", "properties": {"spec": spec}}
    return crd_factory.make_crd("Formatted", GROUP, schema=schema)


def _causes(exc: ApiError) -> list[tuple[str, str, str]]:
    causes = (exc.status_object.get("details") or {}).get("causes") or []  # type: ignore[union-attr]
    return sorted((c.get("field", ""), c.get("reason", ""), c.get("message", "")) for c in causes)


def _ours(result: Any) -> list[tuple[str, str, str]]:
    return sorted(
        (e.field, e.reason, e.message.split(": ", 1)[1] if e.field else e.message)
        for e in result.reported
    )


def test_unconvertible_formatted_values_fail_the_rules_that_read_them(
    isolated_apiserver: ControlPlane,
) -> None:
    plane = isolated_apiserver
    loose, tight = _crd(formats=False), _crd(formats=True)
    name = f"formatteds.{GROUP}"
    crd_path = f"/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"
    collection = f"/apis/{GROUP}/v1/namespaces/{NAMESPACE}/formatteds"
    warnings: list[str] = []
    config = ClusterConfig(kubeconfig=str(plane.kubeconfig))
    crd = CustomResourceDefinition.from_object(tight)
    compared = 0
    with KubeClient(config, on_warning=warnings.append) as client:
        client.request(
            "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body=loose
        )
        plane.wait_established([name])
        stored = {}
        for case, spec in STORED.items():
            body = {
                "apiVersion": f"{GROUP}/v1",
                "kind": "Formatted",
                "metadata": {"name": case, "namespace": NAMESPACE},
                "spec": {**spec, "x": 1},
            }
            stored[case] = client.request("POST", collection, body=body)
        current = client.get(crd_path)
        current["spec"]["versions"] = tight["spec"]["versions"]
        client.request("PUT", crd_path, body=current)
        # served a moment after the write: wait for its rules (x < 5)
        probe = {
            "apiVersion": f"{GROUP}/v1",
            "kind": "Formatted",
            "metadata": {"name": "probe", "namespace": NAMESPACE},
            "spec": {"x": 9},
        }
        wait_until_refused(client, collection, probe)
        sends: list[tuple[str, str, dict[str, Any], dict[str, Any] | None]] = []
        for case, old in stored.items():
            # an update changing another field (the format error ratcheted), and one
            # breaking the sibling rule too
            for x in (2, 7):
                body = copy.deepcopy(old)
                body["spec"]["x"] = x
                sends.append((f"{case} x={x}", "PUT", body, old))
        creates = (
            ("create bytes-standard", {"b": "a+b/"}),
            ("create url", {"b": "a-b_"}),
            # the format checks: time.Parse takes the year 0000 (which no rule reads
            # here: the engine holds no timestamp before year 1), nothing after the end
            ("create year 0", {"since": "0000-01-01", "at": "0000-01-01T00:00:00Z"}),
            ("create date newline", {"day": "2020-01-01\n"}),
            ("create date-time newline", {"t": "2020-01-01T00:00:00Z\n"}),
        )
        for case, spec in creates:
            body = {**probe, "metadata": {"name": "new", "namespace": NAMESPACE}}
            sends.append((case, "POST", {**body, "spec": {**spec, "x": 1}}, None))
        problems = []
        for case, method, body, old in sends:
            warnings.clear()
            path = collection if method == "POST" else f"{collection}/{body['metadata']['name']}"
            try:
                client.request(method, path, query={"dryRun": "All"}, body=body)
                server_ok, server = True, []
            except ApiError as exc:
                if exc.status != 422:
                    raise
                server_ok, server = False, _causes(exc)
            ours = validate_custom_resource(body, crd, old=old)
            if (ours.valid, _ours(ours)) != (server_ok, server):
                problems.append(
                    f"{case}: server {server_ok} {server}; ours {ours.valid} {_ours(ours)}"
                )
            elif server_ok and sorted(warnings) != sorted(ours.warnings):
                problems.append(f"{case}: warnings {warnings}; ours {list(ours.warnings)}")
            compared += 1
    assert compared == len(STORED) * 2 + len(creates)
    assert problems == [], "\n".join(problems)
