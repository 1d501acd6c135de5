"""Our validation against the real API server, error for error, on the corpus samples.

Every sample object in the corpus's ``samples`` (``tests.corpus``; INDEX.json names its CRD) and
systematic mutations of it (``validation_mutations``) are validated by
``kubectl_crd.validation`` and sent to the API server as a server-side dry-run create
with ``fieldValidation=Strict`` (stdlib ``http.client`` with the fixture's client
certificate: one TLS connection, no kubectl process per case). For each case we
compare the verdict; for each error its (field path, reason) and its message text;
strict-decoding answers (HTTP 400) are compared as the set of unknown fields. Errors
of CEL rules are compared like the others (the "CEL errs" column counts the server's);
the server visits map keys in random order, so errors are compared as multisets.

CI runs a deterministic subset (one sample per CRD version, one place per mutation
kind); ``KUBECTL_CRD_VALIDATION_FULL=1`` runs every sample and two places per kind.
The test prints an agreement table by mutation kind and every disagreement, then
asserts that they all agree: verdicts, (path, reason) pairs and message texts (CI's subset
of 2026-11-26: 3,190 cases and 3,610 errors, 100% each).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import ssl
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubectl_crd.io import load_documents
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.govalues import go_json
from kubectl_crd.sources.files import FileSource
from kubectl_crd.validation import FieldValidation, compile_schema, validate_custom_resource
from tests.integration import validation_templates as templates
from tests.integration.envtest import ControlPlane, plan_rounds
from tests.integration.validation_mutations import KINDS, mutations

NAMESPACE = "validation-differential"
FULL = os.environ.get("KUBECTL_CRD_VALIDATION_FULL") == "1"


@dataclass
class Tally:
    cases: int = 0
    verdict_agree: int = 0
    cel_only: int = 0
    errors: int = 0
    path_reason_agree: int = 0
    message_agree: int = 0
    cel_errors: int = 0
    warning_cases: int = 0
    warnings_agree: int = 0
    disagreements: list[str] = field(default_factory=list)


class ApiClient:
    """One keep-alive HTTPS connection to the test API server."""

    def __init__(self, plane: ControlPlane) -> None:
        pki = plane._pki
        assert pki is not None
        self.context = ssl.create_default_context(cafile=str(pki.ca_cert))
        self.context.load_cert_chain(str(pki.client_cert), str(pki.client_key))
        host, port = plane.server.removeprefix("https://").rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.connection: http.client.HTTPSConnection | None = None

    def post(self, path: str, body: bytes) -> tuple[int, dict[str, Any], list[str]]:
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPSConnection(
                    self.host, self.port, context=self.context, timeout=30
                )
            try:
                self.connection.request("POST", path, body, {"Content-Type": "application/json"})
                response = self.connection.getresponse()
                data = response.read()
                warnings = [
                    _WARNING.sub(r"\1", w).replace('\\"', '"')
                    for w in response.headers.get_all("Warning") or ()
                ]
                return response.status, json.loads(data) if data else {}, warnings
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


def _ruled_nodes(schema: Any) -> frozenset[int]:
    """Ids of the compiled schema nodes that carry rules (the mutations' CEL targets)."""
    from kubectl_crd.validation.cel.tree import rule_tree

    found: set[int] = set()
    pending = [rule_tree(schema)]
    while pending:
        rule_node = pending.pop()
        if rule_node is None:
            continue
        if rule_node.rules:
            found.add(id(rule_node.schema))
        pending.extend(rule_node.properties.values())
        pending.extend((rule_node.items, rule_node.additional, *rule_node.all_of))
    return frozenset(found)


def _crd_rules(schema: Any) -> list[str]:
    found: list[str] = []
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            rules = node.get("x-kubernetes-validations")
            for rule in rules if isinstance(rules, list) else ():
                if not isinstance(rule, dict):
                    continue
                found.extend(str(rule.get(k)) for k in ("message", "rule") if rule.get(k))
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return found


def _is_cel(message: str, rules: list[str]) -> bool:
    markers = ("failed rule", "evaluating rule", "cost budget", "validation rules", "rule compile")
    if any(m in message for m in markers):
        return "some validation rules were not checked" not in message
    return any(rule and rule in message for rule in rules)


_WARNING = re.compile(r'^299 - "(.*)"$')
_STRICT = re.compile(r'(unknown|duplicate) field "((?:[^"\\]|\\.)*)"')


def _normalise_generated(message: str, generate_name: str) -> str:
    if not generate_name:
        return message
    prefix = re.escape(generate_name[:58])
    return re.sub(
        prefix + r"[bcdfghjklmnpqrstvwxz2456789]{5}", generate_name[:58] + "xxxxx", message
    )


def _server_errors(status: int, body: dict[str, Any]) -> tuple[str, list[tuple[str, str, str]]]:
    """The server's verdict ('valid', 'invalid', 'strict', 'other') and its errors."""
    if status in (200, 201):
        return "valid", []
    if status == 422:
        causes = (body.get("details") or {}).get("causes") or []
        return "invalid", [
            (
                c.get("field", ""),
                c.get("reason", ""),
                f"{c.get('field', '')}: {c.get('message', '')}",
            )
            for c in causes
        ]
    message = str(body.get("message", ""))
    if status == 400 and "strict decoding error: " in message:
        found = [
            (
                m[2],
                "UnknownField" if m[1] == "unknown" else "DuplicateField",
                f'{m[1]} field "{m[2]}"',
            )
            for m in _STRICT.finditer(message)
        ]
        return "strict", found
    if status == 400:
        # "<Kind> in version "v1" cannot be handled as a <Kind>: <decoding error>"
        detail = message.split(": ", 1)[-1]
        cause = re.match(r"^(\S+): Invalid value: ", detail)
        return "invalid", [(cause[1] if cause else "metadata", "BadRequest", detail)]
    return "other", [("", str(body.get("reason", status)), message)]


def _load_samples(
    corpus: Path, crds: dict[tuple[str, str], CustomResourceDefinition]
) -> list[tuple[CustomResourceDefinition, str, Any, str]]:
    """(crd, sample file, object, expect) for every sample object with a served version."""
    index = json.loads((corpus / "samples" / "INDEX.json").read_text())
    out = []
    for entry in index:
        if entry["expect"] in ("invalid-transition", "valid-transition"):
            continue  # updates, not creates
        path = corpus / entry["file"]
        documents = [d for d in load_documents(path.read_text(), str(path)) if d.ok]
        for document in documents:
            content = document.content
            if not isinstance(content, dict):
                continue
            group = str(content.get("apiVersion", "")).rpartition("/")[0]
            kind = content.get("kind")
            meta = next(
                (
                    d
                    for d in entry["docs"]
                    if d["apiVersion"] == content.get("apiVersion") and d["kind"] == kind
                ),
                None,
            )
            if meta is None or not meta.get("version_served"):
                continue
            crd = next(
                (
                    crds[(file, name)]
                    for file in meta.get("crd") or ()
                    for (f, name) in crds
                    if f == file
                    and crds[(f, name)].group == group
                    and crds[(f, name)].names.kind == kind
                ),
                None,
            )
            if crd is not None:
                out.append((crd, entry["file"], content, entry["expect"]))
    return out


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_validation_agrees_with_the_api_server(
    corpus_apiserver: ControlPlane, corpus_dir: Path
) -> None:
    plane = corpus_apiserver
    crd_dir = corpus_dir / "crds"
    source = FileSource([str(p) for p in sorted(crd_dir.glob("*/*.yaml"))])
    crds = {
        (Path(c.location.file).relative_to(corpus_dir).as_posix(), c.name): c
        for c in source.crds()
        if c.location is not None
    }
    samples = _load_samples(corpus_dir, crds)
    plane.kubectl("create", "namespace", NAMESPACE)
    local = threading.local()

    def post(case: tuple[str, bytes]) -> tuple[int, dict[str, Any], list[str]]:
        if not hasattr(local, "client"):
            local.client = ApiClient(plane)
        client: ApiClient = local.client
        return client.post(*case)

    pool = ThreadPoolExecutor(max_workers=4)
    began = time.monotonic()
    sent = 0
    tallies: dict[str, Tally] = defaultdict(Tally)
    seen_per_version: Counter[tuple[str, str]] = Counter()
    planned = plan_rounds((corpus_dir / f, n) for f, n in crds)
    for round_ in planned:
        members = {
            (Path(f).relative_to(corpus_dir).as_posix(), n)
            for f, n in zip(round_.files, round_.names, strict=True)
        }
        todo = [
            s
            for s in samples
            if (Path(s[0].location.file).relative_to(corpus_dir).as_posix(), s[0].name) in members
        ]  # type: ignore[union-attr]
        if not todo:
            continue
        # only the CRDs that have samples: installing is most of the test's time
        needed = {sample[0].name: sample[0] for sample in todo}
        (needed_round,) = plan_rounds(
            (Path(c.location.file), n) for n, c in needed.items() if c.location
        )
        plane.use_crds(needed_round)
        cases: list[tuple[CustomResourceDefinition, str, str, Any, list[str], str, str]] = []
        for crd, sample_file, content, _expect in todo:
            version_name = str(content["apiVersion"]).rpartition("/")[2]
            version = crd.version(version_name)
            assert version is not None
            key = (crd.name, version_name)
            seen_per_version[key] += 1
            if not FULL and seen_per_version[key] > 1:
                continue
            conversion = (crd.raw.get("spec") or {}).get("conversion") or {}
            storage = crd.storage_version
            if conversion.get("strategy") == "Webhook" and (
                storage is None or storage.name != version_name
            ):
                continue  # needs the CRD's conversion webhook, which does not run here
            node = compile_schema(version.schema)
            rules = _crd_rules(version.schema)
            base = _plain(content)
            base.setdefault("metadata", {})
            if isinstance(base["metadata"], dict):
                base["metadata"].pop("namespace", None)
            prefix = f"/apis/{crd.group}/{version_name}/"
            if crd.namespaced:
                prefix += f"namespaces/{NAMESPACE}/"
            url = f"{prefix}{crd.names.plural}?dryRun=All&fieldValidation=Strict"
            ruled = _ruled_nodes(version.schema)
            places = mutations(
                node, base, limit=2 if FULL else 1, ruled=ruled, cel_limit=12 if FULL else 4
            )
            for kind, mutated in places:
                cases.append((crd, version_name, kind, mutated, rules, sample_file, url))
        answers = pool.map(post, [(c[6], go_json(c[3]).encode()) for c in cases])
        for (crd, version_name, kind, mutated, rules, sample_file, _), answer in zip(
            cases, answers, strict=True
        ):
            _compare(answer, crd, version_name, kind, mutated, rules, sample_file, tallies[kind])
        sent += len(cases)
    pool.shutdown()
    print(f"\n{sent} cases in {time.monotonic() - began:.0f} s (CRD installs included)")
    _report_and_assert(tallies)


def _compare(
    answer: tuple[int, dict[str, Any], list[str]],
    crd: CustomResourceDefinition,
    version_name: str,
    kind: str,
    obj: Any,
    rules: list[str],
    sample_file: str,
    tally: Tally,
) -> None:
    status, body, server_warnings = answer
    obj = json.loads(go_json(obj))  # what the server decodes: 2e6 arrives as the integer 2000000
    verdict, server = _server_errors(status, body)
    version = crd.version(version_name)
    result = validate_custom_resource(
        obj, crd, version=version, field_validation=FieldValidation.STRICT
    )
    ours = [(e.field, e.reason, e.message) for e in result.reported]
    generate_name = ""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    if isinstance(meta, dict) and not meta.get("name"):
        generate_name = str(meta.get("generateName") or "")
    server = [(f, r, _normalise_generated(m, generate_name)) for f, r, m in server]
    tally.cases += 1
    if verdict == "valid":
        tally.warning_cases += 1
        if sorted(server_warnings) == sorted(result.warnings):
            tally.warnings_agree += 1
        else:
            tally.disagreements.append(
                f"{sample_file} [{kind}]: warnings server={server_warnings} ours={list(result.warnings)}"
            )
    cel = [e for e in server if _is_cel(e[2], rules)]
    tally.cel_errors += len(cel)
    if cel and len(cel) == len(server):
        tally.cel_only += 1
    our_verdict_invalid = bool(result.errors)
    server_invalid = verdict != "valid"
    where = f"{sample_file} [{kind}] {crd.name}/{version_name}"
    if verdict == "other":
        tally.disagreements.append(f"{where}: server {status}: {server}")
        return
    if our_verdict_invalid == server_invalid:
        tally.verdict_agree += 1
    else:
        tally.disagreements.append(
            f"{where}: verdict server={verdict} ours={'invalid' if our_verdict_invalid else 'valid'}: server={server} ours={ours}"
        )
    remaining_pr = Counter((f, r) for f, r, _ in ours)
    remaining_msg = Counter(m for _, _, m in ours)
    for f, r, m in server:
        tally.errors += 1
        if remaining_pr[(f, r)] > 0:
            remaining_pr[(f, r)] -= 1
            tally.path_reason_agree += 1
        else:
            tally.disagreements.append(f"{where}: server error not ours: {m!r} ({r})")
        if remaining_msg[m] > 0:
            remaining_msg[m] -= 1
            tally.message_agree += 1
        elif remaining_pr.get((f, r), -1) >= 0:
            close = [o for o in ours if o[0] == f]
            tally.disagreements.append(
                f"{where}: message differs: server {m!r} ours {[o[2] for o in close]}"
            )
    for (f, r), left in remaining_pr.items():
        if left > 0:
            tally.errors += left
            tally.disagreements.append(
                f"{where}: ours not the server's: {f} {r} x{left}: {[o[2] for o in ours if o[0] == f]}"
            )


def _report_and_assert(tallies: dict[str, Tally], kinds: Sequence[str] = KINDS) -> None:
    total = Tally()
    print("\nvalidation differential (server-side dry-run create, fieldValidation=Strict)")
    print(
        f"{'mutation':<22}{'cases':>7}{'verdict':>10}{'errors':>8}{'path+reason':>13}{'message':>10}{'CEL-only':>10}{'CEL errs':>10}"
    )
    for kind in kinds:
        t = tallies.get(kind)
        if t is None:
            continue
        for name in (
            "warning_cases",
            "warnings_agree",
            "cases",
            "verdict_agree",
            "cel_only",
            "errors",
            "path_reason_agree",
            "message_agree",
            "cel_errors",
        ):
            setattr(total, name, getattr(total, name) + getattr(t, name))
        total.disagreements.extend(t.disagreements)
        _row(kind, t)
    _row("total", total)
    for line in total.disagreements[:400]:
        print("  " + line)
    verdict = total.verdict_agree / max(total.cases, 1)
    path_reason = total.path_reason_agree / max(total.errors, 1)
    message = total.message_agree / max(total.errors, 1)
    assert total.cases > 0
    assert verdict == 1.0, f"verdict agreement {verdict:.2%}"
    assert path_reason == 1.0, f"(path, reason) agreement {path_reason:.2%}"
    assert message == 1.0, f"message agreement {message:.2%}"
    print(f"warnings on accepted creates: {total.warnings_agree}/{total.warning_cases} identical")
    assert total.warnings_agree == total.warning_cases


def _row(kind: str, t: Tally) -> None:
    def pct(a: int, b: int) -> str:
        return f"{a / b:.1%}" if b else "-"

    print(
        f"{kind:<22}{t.cases:>7}{pct(t.verdict_agree, t.cases):>10}{t.errors:>8}{pct(t.path_reason_agree, t.errors):>13}{pct(t.message_agree, t.errors):>10}{t.cel_only:>10}{t.cel_errors:>10}"
    )


def _install_probes(
    plane: ControlPlane, tmp_path: Path, namespace: str
) -> tuple[CustomResourceDefinition, ApiClient]:
    """The every-feature CRD (``validation_templates``) installed, a namespace for its
    objects, and a client to post them with."""
    raw = templates.crd()
    crd_file = tmp_path / "probes.json"
    crd_file.write_text(json.dumps(raw))
    plane.install_crds([crd_file])
    plane.kubectl("create", "namespace", namespace, check=False)
    return CustomResourceDefinition.from_object(raw), ApiClient(plane)


def test_every_template_and_format_agrees_with_the_api_server(
    isolated_apiserver: ControlPlane, tmp_path: Path
) -> None:
    """A CRD using every checkable feature (``validation_templates``), each value sent alone."""
    namespace = "validation-templates"
    crd, client = _install_probes(isolated_apiserver, tmp_path, namespace)
    url = f"/apis/{templates.GROUP}/v1/namespaces/{namespace}/probes?dryRun=All&fieldValidation=Strict"
    tallies: dict[str, Tally] = defaultdict(Tally)
    cases: list[tuple[str, Any]] = [
        (name, {"spec": {name: value}})
        for name, values in templates.VALUES.items()
        for value in values
    ]
    cases += [
        ("status", {"status": {"replicas": "x"}}),
        ("status", {"status": {"bogus": 1}}),
        ("spec", {"spec": None}),
        ("spec", {"spec": "x"}),
    ]
    for number, (name, extra) in enumerate(cases):
        obj = {
            "apiVersion": f"{templates.GROUP}/v1",
            "kind": "Probe",
            "metadata": {"name": f"probe-{number}"},
            **extra,
        }
        answer = client.post(url, go_json(obj).encode())
        _compare(answer, crd, "v1", name, obj, [], f"templates[{number}]", tallies[name])
    kinds = list(tallies)
    _report_and_assert(tallies, kinds=kinds)


def test_field_validation_warn_and_ignore_agree_with_the_api_server(
    isolated_apiserver: ControlPlane, tmp_path: Path
) -> None:
    """Unknown fields under ``fieldValidation=Warn`` (warnings) and ``Ignore`` (silence)."""
    namespace = "validation-warn"
    crd, client = _install_probes(isolated_apiserver, tmp_path, namespace)
    specs: list[dict[str, Any]] = [
        {"bogus": 1, "zeta": {"a": 1}},
        {"mapList": [{"name": "a", "extra": 1}], "intBounds": 50},
        {"embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "odd": 1}}},
        {"embeddedList": [{"apiVersion": "v1", "kind": "Pod", "spec": {"free": 1}, "x": 2}]},
    ]
    checked = 0
    for mode in (FieldValidation.WARN, FieldValidation.IGNORE):
        url = f"/apis/{templates.GROUP}/v1/namespaces/{namespace}/probes?dryRun=All&fieldValidation={mode}"
        for number, spec in enumerate(specs):
            obj = {
                "apiVersion": f"{templates.GROUP}/v1",
                "kind": "Probe",
                "metadata": {"name": f"warn-{number}", "unknownMeta": "x"},
                "spec": spec,
            }
            status, body, warnings = client.post(url, go_json(obj).encode())
            result = validate_custom_resource(obj, crd, field_validation=mode)
            server = [
                (c.get("field"), c.get("reason"))
                for c in (body.get("details") or {}).get("causes") or []
            ]
            ours = [(e.field, e.reason) for e in result.reported]
            assert (status in (200, 201)) == result.valid, (mode, spec, body, result.errors)
            assert sorted(server) == sorted(ours), (mode, spec, server, ours)
            assert sorted(warnings) == sorted(result.warnings), (mode, spec, warnings)
            checked += 1
    assert checked == 2 * len(specs)
