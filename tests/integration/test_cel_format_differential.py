"""``string.format`` in x-kubernetes-validations: kube-apiserver's answers against ours.

Compile time: every expression below goes into one CRD twice, as a rule and as a
messageExpression; the server's dry-run create refuses some (cel-go's
``stringFormatValidator``: a constant format string with a list literal, its clauses
parsed, its argument types checked, its argument count) and ours
(``validation.crds.crd_errors``) must refuse the same, in the same words.

Run time: each expression the server accepted goes into a second CRD, as the
messageExpression of a rule that fails (so the server's message is the formatted
text) and inside a rule that fails or errs (so an evaluation error shows its words);
an object created against it (dry run) and validated by ours
(``validation.pipeline.validate_custom_resource``) must get the same causes, in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import ApiError
from kubectl_crd.validation.crds import crd_errors
from kubectl_crd.validation.pipeline import validate_custom_resource
from tests.integration.envtest import ControlPlane

GROUP = "format.example.com"

EXPRESSIONS = [
    # every verb, on what it takes
    "'%s|%d|%f|%e|%b|%x|%X|%o'.format(['a', 1, 1.5, 1.5, 5, 'hi', b'hi', 8])",
    "'%x'.format(['abc'])", "'%X'.format([b'ab'])", "'%x'.format(['héllo'])",
    "'%x %o %b'.format([-10, -8, -5])", "'%b'.format([true])", "'%b'.format([false])",
    "'%d'.format([1u])", "'%o'.format([1u])", "'%d'.format([-9223372036854775808])",
    "'%s'.format([18446744073709551615u])", "'%x'.format([b'\\x00\\xff'])",
    # precision and widths
    "'%.3f'.format([3.14159])", "'%.0f'.format([2.5])", "'%.1f'.format([0.05])",
    "'%.10f'.format([1.0])", "'%.2e'.format([1234.5])", "'%.3e'.format([123456.789])",
    "'%.20e'.format([1.5])", "'%.15f'.format([-0.1])",
    # x/text's en_US numbers
    "'%f'.format([1234567.891])", "'%f'.format([1e21])", "'%f'.format([-0.0])",
    "'%f'.format([-1e-7])", "'%f'.format([-1234.5])", "'%f'.format([double('inf')])",
    "'%f'.format([-double('inf')])", "'%f'.format(['NaN'])", "'%e'.format(['-Infinity'])",
    "'%e'.format([1e100])", "'%e'.format([0.000123])", "'%e'.format([-1.0])",
    "'%e'.format([0.0])",
    # %s of every kind
    "'%s'.format([1.0])", "'%s'.format([1e20])", "'%s'.format([0.1])", "'%s'.format([1e-5])",
    "'%s'.format([-0.0])", "'%s'.format([1.0/3.0])", "'%s'.format([123456789.0])",
    "'%s'.format([double('nan')])", "'%s'.format([null])", "'%s'.format([type(1)])",
    "'%s'.format([[type(1), type('a'), type([1]), type({'a': 1}), type(null)]])",
    "'%s'.format([duration('1h')])", "'%s'.format([duration('1h2m3.5s')])",
    "'%s'.format([timestamp('2023-02-03T23:31:20Z')])",
    "'%s'.format([timestamp('2023-02-03T23:31:20.123Z')])",
    "'%s'.format([{'a': 1}])", "'%s'.format([[1, 'a']])",
    "'%s'.format([[double('inf'), 'a', b'c', 1u, 2.0, null, true]])",
    "'%s'.format([{'b': 1, 'a': 2.5}])", "'%s'.format([{2: 'x', 1: 'y'}])",
    "'%s'.format([{true: 1, false: 2}])", "'%s'.format([[duration('1s'), timestamp('2023-01-01T00:00:00Z')]])",
    "'%s'.format([['q\"uote', 'tab\\t', 'é']])", "'%s'.format([b'\\xff'])",
    "'%%'.format([])", "'%%%s'.format(['a'])", "'x'.format([])",
    # refused when the rule compiles
    "'%z'.format([1])", "'%5d'.format([1])", "'%5'.format([1])", "'%é'.format([1])",
    "'%'.format([1])", "'%.f'.format([1.0])", "'%.3'.format([1.0])",
    "'%.99999999999999999999f'.format([1.0])",
    "'%d %d'.format([1])", "'%s %s'.format(['a'])", "'%d'.format([1, 2])", "'x'.format([1])",
    "'%d'.format([1, 'x', 3])", "'%z %d'.format([1])", "'%d %z'.format(['a', 1])",
    "'%d'.format(['a'])", "'%f'.format([1])", "'%e'.format([1])", "'%o'.format([1.5])",
    "'%b'.format(['a'])", "'%x'.format([1.5])", "'%d'.format([[1]])",
    "'%s'.format([optional.of(1)])", "'%s'.format([[1, optional.of(1)]])",
    "'%s'.format([{'a': optional.none()}])", "'%d'.format([self.s])", "'%f'.format([self.n])",
    # checked only at run time: dyn arguments and lists that are not literals
    "'%d'.format([dyn('a')])", "'%d'.format([self.io])", "'%x'.format([self.io])",
    "'%s'.format([self.io])", "'%f'.format([dyn(1)])", "'%e'.format([dyn(1)])",
    "'%f'.format([dyn('NaN')])", "'%f'.format([dyn('x')])", "'%e'.format([self.s])",
    "'%x'.format([dyn(1.5)])", "'%o'.format([dyn(-8)])", "'%b'.format([dyn(-5)])",
    "'%s %s'.format(self.tags)", "'%s'.format(self.tags)", "'%d'.format(self.tags)",
    "'%s'.format([self.labels])", "'%d %s'.format([dyn(1), dyn('a')])",
    "'%s'.format([dyn([1, 'a'])])", "'%.2f'.format([dyn(1.005)])",
    "'%5'.format(self.tags)", "'%z'.format(self.tags)", "'%d'.format(dyn([1, 2]))",
    "'%s %s %s'.format(self.tags)", "'%'.format(dyn([]))", "'%s%'.format(self.tags)",
    "'%.3'.format(self.tags)", "'%s'.format(dyn([1]))", "'%s'.format([dyn(1)])",
    "'%d'.format(self.nums)", "'%s'.format([self.nums])", "'%x'.format([self.s])",
    # optionals through dyn: the engine cannot hand them to the formatter (a map holding
    # one crashed it), environment.compile_runnable guards the arguments
    "'%s'.format([dyn(optional.of(1))])", "'%s'.format([[dyn(optional.of(1))]])",
    "'%s'.format([dyn([optional.of(1)])])", "'%s'.format([{'a': dyn(optional.none())}])",
    "'%s'.format([dyn({'a': optional.none()})])", "'%d'.format([dyn(optional.of(1))])",
    "'%s'.format(dyn([optional.of(1)]))", "'%s'.format([dyn(self.?s)])",
    "'%s'.format([dyn(optional.of(optional.of(1)))])", "'%d'.format([dyn([optional.none()])])",
    "'%x'.format([dyn({'a': optional.none()})])",
    "'%s'.format([[1, 2].map(x, [dyn(optional.of(x))])])",
    "'%s'.format([[[[[[[[[[dyn(optional.none())]]]]]]]]]])",
    "'%s'.format(['%s'.format([dyn(optional.none())])])",
    "'%s'.format([dyn(self.?s.orValue('z'))])", "'%s'.format([[dyn(self.?s).orValue('z'), 2u]])",
    "'%s'.format([dyn(optional.none()).orValue(1u)])", "'%s'.format([dyn(optional.of(1)).value()])",
    "'%s'.format([dyn(type(optional.none()))])", "'%s'.format([dyn([type(optional.of(1))])])",
    # uint through dyn, named as cel-go names it
    "'%f'.format([dyn(1u)])", "'%e'.format([dyn(2u)])", "'%b'.format([dyn(5u)])",
    "'%s'.format([dyn(3u)])", "'%x'.format([dyn(255u)])", "'%o'.format([dyn(8u)])",
    "'%d'.format([dyn(7u)])", "'%f'.format([dyn([1u])])", "'%s %s'.format([dyn(self.s), 1u])",
    # other unusual values through dyn
    "'%s'.format([dyn({'a': null})])", "'%s'.format([dyn({'a': [null, b'x', duration('1s')]})])",
    "'%s'.format([dyn({1u: type(1)})])", "'%s'.format([dyn(b'\\xff')])",
    "'%s'.format([dyn([timestamp('2023-01-01T00:00:00Z'), duration('-1.5s')])])",
    "'%d'.format([dyn(duration('1s'))])", "'%f'.format([dyn(timestamp('2023-01-01T00:00:00Z'))])",
]  # fmt: skip

SPEC: dict[str, Any] = {
    "type": "object",
    "properties": {
        "s": {"type": "string", "maxLength": 10},
        "n": {"type": "integer"},
        "nums": {"type": "array", "maxItems": 3, "items": {"type": "integer"}},
        "tags": {"type": "array", "maxItems": 3, "items": {"type": "string", "maxLength": 5}},
        "labels": {
            "type": "object",
            "maxProperties": 3,
            "additionalProperties": {"type": "string", "maxLength": 5},
        },
        "io": {"x-kubernetes-int-or-string": True},
    },
}

OBJECT_SPEC = {"s": "abc", "n": 3, "nums": [7], "tags": ["a", "b"], "labels": {"k": "v"}, "io": "x"}


def _crd(plural: str, rules: list[dict[str, Any]]) -> dict[str, Any]:
    spec = {**SPEC, "x-kubernetes-validations": rules}
    kind = plural.capitalize()[:-1]
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{GROUP}"},
        "spec": {
            "group": GROUP,
            "scope": "Namespaced",
            "names": {"kind": kind, "plural": plural, "singular": plural[:-1]},
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}},
                }
            ],
        },
    }


def _compile_rules() -> list[dict[str, Any]]:
    rules: list[dict[str, Any]] = [{"rule": f"{e} != '#'"} for e in EXPRESSIONS]
    rules += [{"rule": f"{i} >= 0", "messageExpression": e} for i, e in enumerate(EXPRESSIONS)]
    return rules


def _causes(client: KubeClient, method: str, path: str, body: Any) -> list[dict[str, Any]]:
    try:
        client.request(method, path, query={"dryRun": "All"}, body=body)
    except ApiError as exc:
        details = exc.status_object.get("details") or {}
        return list(details.get("causes") or [])  # type: ignore[union-attr]
    return []


def _config(apiserver: ControlPlane) -> ClusterConfig:
    return ClusterConfig(kubeconfig=str(apiserver.kubeconfig))


@pytest.fixture(scope="module")
def compile_answers(apiserver: ControlPlane) -> Iterator[list[str]]:
    document = _crd("formats", _compile_rules())
    with KubeClient(_config(apiserver)) as client:
        causes = _causes(
            client, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", document
        )
    yield [f"{c['field']}: {c['message']}" for c in causes]


def test_format_calls_refused_at_compile_time(compile_answers: list[str]) -> None:
    ours = [message for _, message, _ in crd_errors(_crd("formats", _compile_rules()))]
    server = compile_answers
    assert server, "the server accepted every expression"
    missing = [m for m in server if m not in ours]
    extra = [m for m in ours if m not in server]
    assert not missing and not extra, (
        f"{len(server)} server errors, {len(ours)} ours\nserver only:\n"
        + "\n".join(missing)
        + "\nours only:\n"
        + "\n".join(extra)
    )


def _accepted(server_errors: list[str]) -> list[str]:
    """The expressions the server compiles (as a rule and as a messageExpression)."""
    refused = set()
    for text in server_errors:
        field = text.split(": ", 1)[0]
        index = int(field.rsplit("[", 1)[1].split("]", 1)[0])
        refused.add(index % len(EXPRESSIONS))
    return [e for i, e in enumerate(EXPRESSIONS) if i not in refused]


def test_format_results_at_run_time(
    apiserver: ControlPlane, compile_answers: list[str], namespace: str
) -> None:
    expressions = _accepted(compile_answers)
    rules: list[dict[str, Any]] = []
    for i, expression in enumerate(expressions):
        rules.append({"rule": f"{i} < 0", "messageExpression": expression})
        rules.append({"rule": f"({expression}).size() < 0"})
    document = _crd("formatruns", rules)
    apiserver.kubectl("apply", "--server-side", "-f", "-", input=json.dumps(document))
    name = document["metadata"]["name"]
    apiserver.wait_established([name])
    try:
        obj = {
            "apiVersion": f"{GROUP}/v1",
            "kind": "Formatrun",
            "metadata": {"name": "one", "namespace": namespace},
            "spec": OBJECT_SPEC,
        }
        with KubeClient(_config(apiserver)) as client:
            causes = _causes(
                client, "POST", f"/apis/{GROUP}/v1/namespaces/{namespace}/formatruns", obj
            )
    finally:
        apiserver.delete_crds([name])
    server = [c["message"] for c in causes]
    result = validate_custom_resource(obj, CustomResourceDefinition.from_object(document))
    ours = [error.message.removeprefix(f"{error.field}: ") for error in result.errors]
    assert len(server) == 2 * len(expressions)  # every rule fails
    differ = [
        f"{expressions[i // 2]}\n  server {a!r}\n  ours   {b!r}"
        for i, (a, b) in enumerate(zip(server, ours, strict=False))
        if a != b
    ]
    assert len(ours) == len(server) and not differ, (
        f"{len(differ)} of {len(server)} causes differ:\n" + "\n".join(differ)
    )
