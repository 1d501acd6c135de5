"""``kubectl crd scale`` without a cluster: kubectl's flag checks and texts, the pieces
the scaler is made of, and ``--local``.

The texts are kubectl 1.33's (``kubectl scale`` run against envtest's API server);
the cluster behaviour is tested against the real server in
``tests/integration/test_scale.py``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import read_inputs
from kubectl_crd.kube.client import status_error
from kubectl_crd.kube.resolving import ref_of
from kubectl_crd.kube.scaling import Precondition, ScaleTarget
from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import (
    ApiError,
    InvalidObjectError,
    KubectlCrdError,
    NoScaleSubresourceError,
    ScalePreconditionError,
)
from kubectl_crd.model.scaleflags import CURRENT_REPLICAS_INVALID, REPLICAS_REQUIRED, ScaleFlags
from kubectl_crd.model.scaling import check_scalable, get_field, set_field
from kubectl_crd.output.objects import kubectl_json
from kubectl_crd.output.scaling import ScaleReport, WaitProgress, describe_scale
from tests.cli_runner import run_cli

DATA = Path(__file__).parent / "data"
FOO_CRD = DATA / "foo-crd.yaml"
FOOS = DATA / "foos.yaml"


def parse_replicas(text: str | None) -> int | None:
    """``--replicas`` as ``ScaleFlags.read`` reads it, every other flag valid."""
    return ScaleFlags.read(text, "-1", "none", False, "0s").replicas


def parse_current_replicas(text: str) -> int:
    """``--current-replicas`` as ``ScaleFlags.read`` reads it, every other flag valid."""
    return ScaleFlags.read("1", text, "none", False, "0s").current_replicas


def foo_crd() -> CustomResourceDefinition:
    (document,) = read_inputs([str(FOO_CRD)])
    return CustomResourceDefinition.from_object(document.content)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", 3),
        ("0", 0),
        ("+2", 2),
        ("010", 8),
        ("0x10", 16),
        ("1_0", 10),
        ("9223372036854775807", 2**63 - 1),
        (None, None),
    ],
)
def test_replicas_read_as_pflag_reads_an_int(text: str | None, expected: int | None) -> None:
    assert parse_replicas(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-1", REPLICAS_REQUIRED),
        (
            "abc",
            'invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": '
            "invalid syntax\nSee 'kubectl crd scale --help' for usage.",
        ),
        (
            "1.5",
            'invalid argument "1.5" for "--replicas" flag: strconv.ParseInt: parsing "1.5": '
            "invalid syntax\nSee 'kubectl crd scale --help' for usage.",
        ),
        # past int64 (kubectl 1.33's words; before, the number went to the server, and
        # its 'cannot unmarshal number' came back)
        (
            "9223372036854775808",
            'invalid argument "9223372036854775808" for "--replicas" flag: strconv.ParseInt: '
            'parsing "9223372036854775808": value out of range\n'
            "See 'kubectl crd scale --help' for usage.",
        ),
        (
            "-0x8000000000000001",
            'invalid argument "-0x8000000000000001" for "--replicas" flag: strconv.ParseInt: '
            'parsing "-0x8000000000000001": value out of range\n'
            "See 'kubectl crd scale --help' for usage.",
        ),
        # a digit past ASCII (ARABIC-INDIC ONE): Go's ParseInt refuses it, Python's int()
        # read it as 1 (scaleflags had its own parser; model.gostrconv is the one now)
        (
            "\u0661",
            'invalid argument "\u0661" for "--replicas" flag: strconv.ParseInt: '
            'parsing "\u0661": invalid syntax\n'
            "See 'kubectl crd scale --help' for usage.",
        ),
        (
            " 1",
            'invalid argument " 1" for "--replicas" flag: strconv.ParseInt: '
            'parsing " 1": invalid syntax\n'
            "See 'kubectl crd scale --help' for usage.",
        ),
    ],
)
def test_bad_replicas_have_kubectls_text(text: str, message: str) -> None:
    with pytest.raises(KubectlCrdError) as caught:
        parse_replicas(text)
    assert caught.value.message == message
    assert caught.value.exit_code == 1


def test_current_replicas() -> None:
    assert parse_current_replicas("-1") == -1
    assert parse_current_replicas("4") == 4
    with pytest.raises(KubectlCrdError, match="^" + CURRENT_REPLICAS_INVALID + "$"):
        parse_current_replicas("-2")


@pytest.mark.parametrize(
    ("precondition", "scale", "message"),
    [
        (Precondition(2), {"spec": {"replicas": 3}}, "Expected replicas to be 2, was 3"),
        (Precondition(2), {"spec": {}}, "Expected replicas to be 2, was 0"),
        (
            Precondition(-1, "7"),
            {"metadata": {"resourceVersion": "9"}, "spec": {"replicas": 1}},
            "Expected resource version to be 7, was 9",
        ),
        # kubectl checks the size first
        (
            Precondition(2, "7"),
            {"metadata": {"resourceVersion": "9"}, "spec": {"replicas": 1}},
            "Expected replicas to be 2, was 1",
        ),
    ],
)
def test_failed_preconditions(
    precondition: Precondition, scale: dict[str, Any], message: str
) -> None:
    with pytest.raises(ScalePreconditionError) as caught:
        precondition.check(scale)
    assert caught.value.kubectl_line == f"error: {message}"


def test_met_preconditions_pass() -> None:
    Precondition(2, "9").check({"metadata": {"resourceVersion": "9"}, "spec": {"replicas": 2}})
    assert not Precondition().given
    assert Precondition(0).given and Precondition(-1, "1").given


def test_set_field_makes_the_maps_on_the_way_as_the_server_does() -> None:
    obj: dict[str, Any] = {"spec": {"other": 1}}
    set_field(obj, ".spec.replicas", 4)
    set_field(obj, ".spec.scaling.count", 2)
    assert obj == {"spec": {"other": 1, "replicas": 4, "scaling": {"count": 2}}}
    assert get_field(obj, ".spec.scaling.count") == 2
    assert get_field(obj, ".status.replicas") is None


def test_target_paths_and_names() -> None:
    crd = foo_crd()
    ref = ref_of(crd)
    assert ref.scale_versions == ("v1alpha1",) and ref.versions == ("v1beta1", "v1alpha1")
    target = ScaleTarget(ref, "v1alpha1", "ns1", "example")
    assert target.kind_name == "foo.samplecontroller.k8s.io/example"
    # the path its /scale requests go to
    calls = target.calls(None)  # type: ignore[arg-type]
    assert calls.path(target.name, subresource="scale") == (
        "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/ns1/foos/example/scale"
    )
    paths = crd.version("v1alpha1").subresources.scale  # type: ignore[union-attr]
    assert paths is not None
    described = describe_scale(target, {"spec": {"replicas": 2}, "status": {}}, paths)
    assert "  status replicas:  0          .status.availableReplicas" in described.splitlines()


def test_a_version_without_scale_is_explained_with_the_stanza() -> None:
    crd = foo_crd()
    check_scalable(crd, "v1alpha1")
    with pytest.raises(NoScaleSubresourceError) as caught:
        check_scalable(crd, "v1beta1")
    lines = caught.value.kubectl_line.splitlines()
    assert lines[0] == (
        "error: foos.samplecontroller.k8s.io version v1beta1 has no scale subresource, so it "
        "cannot be scaled (the server would answer 404 Not Found)."
    )
    assert lines[1] == "v1alpha1 has one: use foos.v1alpha1.samplecontroller.k8s.io/NAME"
    assert "      scale:" in lines and "        specReplicasPath: .spec.replicas" in lines


def _invalid(causes: list[dict[str, str]]) -> ApiError:
    status = {
        "kind": "Status",
        "reason": "Invalid",
        "code": 422,
        "message": "ignored",
        "details": {"kind": "Foo", "name": "x", "causes": causes},
    }
    return status_error(422, status, "PATCH")


def test_invalid_answers_read_as_kubectl_prints_them() -> None:
    one = _invalid([{"field": "spec.replicas", "message": "Invalid value: 11: m"}])
    assert isinstance(one, InvalidObjectError)
    assert one.kubectl_line == 'The Foo "x" is invalid: spec.replicas: Invalid value: 11: m'
    two = _invalid([{"field": "a", "message": "m1"}, {"field": "b", "message": "m2"}])
    assert two.kubectl_line == 'The Foo "x" is invalid: \n* a: m1\n* b: m2'
    other = status_error(404, {"kind": "Status", "reason": "NotFound", "message": "x"}, "GET")
    assert not isinstance(other, InvalidObjectError)
    assert other.kubectl_line == "Error from server (NotFound): x"


# -- the command, offline --------------------------------------------------------------


def test_local_changes_spec_replicas_and_keeps_the_rest(tmp_path: Path) -> None:
    result = run_cli("scale", "--local", "-f", str(FOOS), "--crd", str(FOO_CRD), "--replicas", "4")
    assert result.returncode == 0, result.stderr
    documents = [d.content for d in read_inputs_text(tmp_path, result.stdout)]
    assert [d["spec"] for d in documents] == [
        {"deploymentName": "one", "replicas": 4},
        {"deploymentName": "two", "replicas": 4},
    ]
    assert documents[0]["metadata"] == {"name": "one", "labels": {"app": "demo"}}


def test_local_refuses_a_value_over_the_schema_maximum() -> None:
    result = run_cli("scale", "--local", "-f", str(FOOS), "--crd", str(FOO_CRD), "--replicas", "11")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == (
        f'{FOOS}:8:13: error: The Foo "one" is invalid: spec.replicas: Invalid value: 11: '
        "spec.replicas in body should be less than or equal to 10"
    )
    assert len(result.stderr.splitlines()) == 2  # one per object


def test_local_with_a_version_without_scale(tmp_path: Path) -> None:
    beta = tmp_path / "beta.yaml"
    beta.write_text(FOOS.read_text().replace("v1alpha1", "v1beta1"))
    result = run_cli("scale", "--local", "-f", str(beta), "--crd", str(FOO_CRD), "--replicas", "1")
    assert result.returncode == 1
    assert "version v1beta1 has no scale subresource" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "stderr"),
    [
        (["foo/x", "--replicas", "-3"], f"error: {REPLICAS_REQUIRED}\n"),
        (
            ["foo/x", "--replicas", "2", "--current-replicas", "-5"],
            f"error: {CURRENT_REPLICAS_INVALID}\n",
        ),
        (
            ["foo/x", "--replicas", "2", "-o", "wide"],
            'error: unable to match a printer suitable for the output format "wide", allowed '
            "formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml\n",
        ),
    ],
)
def test_flag_errors_before_any_cluster_access(args: list[str], stderr: str) -> None:
    # no kubeconfig at all: these must fail on the flags alone
    result = run_cli("scale", *args, env={"KUBECONFIG": "/nonexistent"})
    assert (result.returncode, result.stderr, result.stdout) == (1, stderr, "")


def test_an_unreachable_cluster_is_kubectls_line(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "config"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
        "clusters: [{name: c, cluster: {server: 'http://127.0.0.1:1'}}]\n"
        "contexts: [{name: c, context: {cluster: c, user: u}}]\nusers: [{name: u, user: {}}]\n"
    )
    result = run_cli("scale", "foo/x", "--replicas", "1", env={"KUBECONFIG": str(kubeconfig)})
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "The connection to the server 127.0.0.1:1 was refused - did you specify the right "
        "host or port?"
    ]


def read_inputs_text(tmp_path: Path, text: str) -> list[Any]:
    path = tmp_path / "out.yaml"
    path.write_text(text)
    return list(read_inputs([str(path)]))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _target_named(name: str) -> ScaleTarget:
    return ScaleTarget(ref_of(foo_crd()), "v1alpha1", "ns", name)


def test_wait_progress_piped_is_one_line_per_change() -> None:
    stream = io.StringIO()
    progress = WaitProgress(stream, 2)
    a, b = _target_named("a"), _target_named("b")
    progress.report(a, "a: 0/3 replicas")
    progress.report(b, "b: 1/3 replicas")
    progress.finished(a)
    progress.close()
    assert stream.getvalue() == "a: 0/3 replicas\nb: 1/3 replicas\n"


def test_wait_progress_on_a_terminal_is_a_live_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    stream = _Terminal()
    progress = WaitProgress(stream, 2)
    a = _target_named("a")
    progress.report(a, "a: 0/3 replicas")
    progress.report(a, "a: 3/3 replicas")
    progress.finished(a)
    progress.close()
    text = stream.getvalue()
    # the last frame: the count, and the object ready with its latest state; no colour
    assert "1/2 ready" in text and "ready  a: 3/3 replicas" in text
    assert not re.search(r"\x1b\[(?:\d+;)*3[0-7]m", text)  # no colour codes with NO_COLOR


def test_json_as_go_writes_it() -> None:
    assert kubectl_json({"b": "<&>", "a": "é"}) == (
        '{\n    "a": "é",\n    "b": "\\u003c\\u0026\\u003e"\n}'
    )


def test_local_with_a_kind_no_crd_serves() -> None:
    unknown = DATA / "unknown-kind.yaml"
    result = run_cli(
        "scale", "--local", "-f", str(unknown), "--crd", str(FOO_CRD), "--replicas", "1"
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        f'error: resource mapping not found for name: "example" namespace: "" from "{unknown}": '
        'no matches for kind "Bogus" in version "samplecontroller.k8s.io/v1alpha1"',
        "ensure CRDs are installed first",
    ]


# -- what --local prints: output.printing's printer --------------------------------------


@pytest.mark.parametrize(
    ("output", "check"),
    [
        (
            "name",
            lambda out: out == "foo.samplecontroller.k8s.io/one\nfoo.samplecontroller.k8s.io/two\n",
        ),
        # kubectl's YAML printer: a separator between objects, none before the first
        ("yaml", lambda out: not out.startswith("---") and out.count("---\n") == 1),
        ("", lambda out: not out.startswith("---") and out.count("---\n") == 1),
        # one indented object after another, as kubectl's JSON printer writes each
        ("json", lambda out: out.count('\n{\n    "apiVersion"') == 1 and out.startswith("{\n")),
    ],
)
def test_local_prints_each_object_as_kubectls_printers_do(output: str, check: Any) -> None:
    args = ["-o", output] if output else []
    result = run_cli(
        "scale", "--local", "-f", str(FOOS), "--crd", str(FOO_CRD), "--replicas", "4", *args
    )
    assert result.returncode == 0, result.stderr
    assert check(result.stdout), result.stdout


def test_a_scale_report_names_prints_and_fails_each_object() -> None:
    target = ScaleTarget(ref_of(foo_crd()), "v1alpha1", "ns", "a")
    out, err = io.StringIO(), io.StringIO()
    report = ScaleReport("", out, err, operation="scaled (server dry run)")
    report.write(target, None)
    report.write(target, KubectlCrdError("it broke"))
    report.flush()
    assert out.getvalue() == "foo.samplecontroller.k8s.io/a scaled (server dry run)\n"
    assert err.getvalue() == "error: it broke\n"
    assert report.failed
    scale = {"kind": "Scale", "metadata": {"name": "a"}, "spec": {"replicas": 2}}
    shown = io.StringIO()
    paths = foo_crd().version("v1alpha1").subresources.scale  # type: ignore[union-attr]
    assert paths is not None
    described = ScaleReport("", shown, err, paths=lambda _: paths)
    described.write(target, scale)
    assert shown.getvalue() == describe_scale(target, scale, paths) + "\n"
    as_json = io.StringIO()
    ScaleReport("json", as_json, err).write(target, scale)
    assert as_json.getvalue() == kubectl_json(scale) + "\n"
    assert not described.failed
