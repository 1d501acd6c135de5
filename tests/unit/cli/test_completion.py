"""The candidates of ``cli.completion``: commands, flags, flag values, resources, fields.

The answers kubectl itself gives for the same flags (``-f``, ``--context``, ``-n``) are
compared with the real kubectl in ``tests/integration/test_completion_kubectl.py``.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest

from kubectl_crd.cli import completion
from kubectl_crd.cli.commands import COMMANDS
from kubectl_crd.cli.completion import (
    DEFAULT,
    ERROR,
    FILTER_FILE_EXT,
    NO_FILE_COMP,
    NO_SPACE,
    Completion,
    complete,
)
from tests.cli_runner import run_cli, run_python

ROOT = Path(__file__).resolve().parents[3]
CRDS = str(ROOT / "examples" / "crds")

KUBECONFIG = """\
apiVersion: v1
kind: Config
current-context: zeta
clusters:
- name: c-two
  cluster: {server: "https://127.0.0.1:1"}
- name: c-one
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: u-b
  user: {token: "secret-b"}
contexts:
- name: zeta
  context: {cluster: c-one, user: u-b}
- name: alpha
  context: {cluster: c-two, user: u-b}
- name: alpine
  context: {cluster: c-two, user: u-b}
"""

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: widgets.{group}}}
spec:
  group: {group}
  names: {{kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {{type: integer}}
              a.b: {{type: string}}
              parts:
                type: array
                items:
                  type: object
                  properties:
                    name: {{type: string}}
"""


@pytest.fixture
def kubeconfig(tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "config"
    path.write_text(KUBECONFIG)
    return {"KUBECONFIG": str(path), "HOME": str(tmp_path)}


@pytest.fixture
def widgets(tmp_path: Path) -> str:
    """Two CRDs with the same plural in two groups, in one directory."""
    directory = tmp_path / "crds"
    directory.mkdir()
    (directory / "a.yaml").write_text(CRD.format(group="a.example.com"))
    (directory / "b.yaml").write_text(CRD.format(group="b.example.com"))
    return str(directory)


def test_a_new_word_lists_every_command_with_its_help() -> None:
    answer = complete([""])
    assert answer.candidates == [(e.name, e.short_help) for e in COMMANDS.values()]
    assert answer.directive == NO_FILE_COMP


def test_a_prefix_lists_the_commands_it_starts() -> None:
    assert complete(["ex"]).values == ["explain"]
    assert complete(["s"]).values == ["sample", "scale"]
    assert complete(["--context", "x", "ge"]).values == ["get"]


def test_an_unknown_command_gets_nothing_and_no_files() -> None:
    answer = complete(["frobnicate", ""])
    assert (answer.candidates, answer.directive) == ([], NO_FILE_COMP)


def test_long_flags_of_a_fast_path_command_and_the_global_ones() -> None:
    answer = complete(["explain", "--"])
    assert answer.directive == NO_FILE_COMP
    for name in ("--crd", "--recursive", "--api-version", "--context", "--namespace", "--help"):
        assert name in answer.values
    assert not any(not v.startswith("--") for v in answer.values)
    assert dict(answer.candidates)["--recursive"] == "Print the fields of fields."


def test_a_dash_lists_short_and_long_names() -> None:
    values = complete(["explain", "-"]).values
    assert {"-R", "--recursive", "-n", "--namespace", "-o", "-h"} <= set(values)


def test_a_flag_given_is_not_offered_again_unless_it_repeats() -> None:
    assert complete(["explain", "-R", "--rec"]).values == []
    assert complete(["explain", "--crd", "x", "--cr"]).values == ["--crd"]


def test_flags_of_a_click_command() -> None:
    values = complete(["validate", "--"]).values
    assert {"--filename", "--output", "--jobs", "--crd"} <= set(values)
    assert "--recursive" not in values


def test_a_help_line_is_its_first_sentence_on_one_line() -> None:
    described = dict(complete(["explain", "--req"]).candidates)
    assert described == {
        "--request-timeout": "The length of time to wait before giving up on a single server "
        "request (e.g. 1s, 2m, 3h; 0 = no timeout)."
    }


@pytest.mark.parametrize(
    "words",
    [
        ["explain", "--crd", ""],
        ["explain", "--crd=x"],
        ["validate", "-f", ""],
        ["validate", "--filename", "a.y"],
        ["validate", "x.yaml", ""],
        ["get", "crontabs", "-f", ""],
    ],
)
def test_files_of_manifests_are_kubectl_s_extensions(words: list[str]) -> None:
    answer = complete(words)
    assert (answer.values, answer.directive) == (["json", "yaml", "yml"], FILTER_FILE_EXT)


def test_kubeconfig_and_a_dev_reconciler_are_any_file() -> None:
    assert complete(["--kubeconfig", ""]).directive == DEFAULT
    assert complete(["dev", ""]).directive == DEFAULT
    assert complete(["dev", "r.py", ""]).directive == NO_FILE_COMP


def test_contexts_from_the_kubeconfig(kubeconfig: dict[str, str]) -> None:
    answer = complete(["get", "--context", ""], kubeconfig)
    assert (answer.values, answer.directive) == (["alpha", "alpine", "zeta"], NO_FILE_COMP)
    assert complete(["--context", "al"], kubeconfig).values == ["alpha", "alpine"]
    # cobra gives a --flag=value word its bare values; the shell scripts put the flag back
    assert complete(["--context=al"], kubeconfig).values == ["alpha", "alpine"]


def test_names_of_each_kind(kubeconfig: dict[str, str]) -> None:
    names = completion.kubeconfig_names
    assert names("clusters", None, kubeconfig) == ["c-two", "c-one"]
    assert names("users", None, kubeconfig) == ["u-b"]


def test_kubectl_s_loading_rules_merge_files_and_kubeconfig_wins(
    kubeconfig: dict[str, str], tmp_path: Path
) -> None:
    other = tmp_path / "other"
    other.write_text("contexts:\n- name: omega\n  context: {cluster: x}\n")
    merged = {**kubeconfig, "KUBECONFIG": f"{kubeconfig['KUBECONFIG']}:{other}"}
    assert complete(["--context", ""], merged).values == ["alpha", "alpine", "omega", "zeta"]
    only = complete(["--kubeconfig", str(other), "get", "--context", ""], kubeconfig)
    assert only.values == ["omega"]


def test_a_broken_kubeconfig_offers_nothing_and_never_a_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config"
    path.write_text("contexts: {not: a list}\nusers: [{name: u, user: {token: hunter2}}]\n")
    answer = complete(["--context", ""], {"KUBECONFIG": str(path)})
    assert (answer.candidates, answer.directive) == ([], NO_FILE_COMP)
    assert "hunter2" not in answer.text() + "".join(capsys.readouterr())


def test_namespaces_of_an_unreachable_cluster_are_nothing_soon(kubeconfig: dict[str, str]) -> None:
    started = time.monotonic()
    answer = complete(["get", "-n", ""], kubeconfig)
    assert (answer.candidates, answer.directive) == ([], NO_FILE_COMP)
    assert time.monotonic() - started < completion.CLUSTER_TIMEOUT * 2 + 1


def test_choices_of_a_flag() -> None:
    assert complete(["sample", "-o", ""]).values == ["json", "yaml"]
    assert complete(["sample", "-o=j"]).values == ["json"]
    assert complete(["validate", "--output", "j"]).values == ["json", "junit"]


def test_formats_a_command_checks_itself() -> None:
    assert complete(["explain", "-o", ""]).values == ["json", "markdown", "plaintext", "yaml"]
    # jsonpath=TEMPLATE: the name of the format, the template is the user's
    assert complete(["get", "-o", "j"]).values == [
        "json",
        "jsonpath",
        "jsonpath-as-json",
        "jsonpath-file",
    ]
    assert complete(["scale", "--output="]).values == [
        "go-template",
        "go-template-file",
        "json",
        "jsonpath",
        "jsonpath-as-json",
        "jsonpath-file",
        "name",
        "template",
        "templatefile",
        "yaml",
    ]


def test_other_values_are_nothing_and_no_files() -> None:
    answer = complete(["get", "-l", ""])
    assert (answer.candidates, answer.directive) == ([], NO_FILE_COMP)


def test_shells_of_the_completion_command() -> None:
    assert complete(["completion", ""]).values == ["bash", "fish", "zsh"]
    assert complete(["completion", "bash", ""]).values == []


def test_resources_of_the_crd_files() -> None:
    answer = complete(["explain", "--crd", CRDS, "cron"])
    assert answer.candidates == [("crontabs", "CronTab (stable.example.com)")]
    assert complete(["sample", "--crd", CRDS, ""]).values == ["crontabs"]
    assert complete(["get", "--crd", CRDS, ""]).values == ["crontabs"]
    # the words after it name objects, of the cluster's (none here)
    nowhere = {"KUBECONFIG": "/nonexistent", "HOME": "/nonexistent"}
    assert complete(["get", "--crd", CRDS, "crontabs", ""], nowhere).values == []
    assert complete(["sample", "--crd", CRDS, "crontabs", ""], nowhere).values == []


def test_a_plural_two_groups_share_is_qualified(widgets: str) -> None:
    assert complete(["explain", "--crd", widgets, "w"]).values == [
        "widgets.a.example.com",
        "widgets.b.example.com",
    ]
    assert complete(["explain", "--crd", widgets, "widgets.b"]).values == ["widgets.b.example.com"]


def test_field_paths_under_a_node_with_their_type() -> None:
    answer = complete(["explain", "--crd", CRDS, "crontab.spec."])
    described = dict(answer.candidates)
    assert described["crontab.spec.cronSpec"] == "<string>"
    assert described["crontab.spec.ports"] == "<[]Object>"
    assert described["crontab.spec.labels"] == "<map[string]string>"
    # ports has fields of its own: no space, so that a dot can follow
    assert answer.directive == NO_FILE_COMP | NO_SPACE
    assert complete(["explain", "--crd", CRDS, "crontab.spec.re"]).values == [
        "crontab.spec.replicas"
    ]


def test_leaf_fields_end_with_a_space() -> None:
    answer = complete(["explain", "--crd", CRDS, "crontabs.spec.cronS"])
    assert (answer.values, answer.directive) == (["crontabs.spec.cronSpec"], NO_FILE_COMP)


def test_fields_through_lists_and_escaped_dots(widgets: str) -> None:
    qualified = "widgets.a.example.com"
    assert complete(["explain", "--crd", widgets, f"{qualified}.spec.parts."]).values == [
        f"{qualified}.spec.parts.name"
    ]
    assert complete(["explain", "--crd", widgets, f"{qualified}.spec.a"]).values == [
        f"{qualified}.spec.a\\.b"
    ]


def test_a_path_that_is_not_there_gets_nothing() -> None:
    answer = complete(["explain", "--crd", CRDS, "crontab.nope."])
    assert (answer.candidates, answer.directive) == ([], NO_FILE_COMP)
    assert complete(["explain", "--crd", str(ROOT / "missing"), "crontab."]).values == []


def test_api_versions_of_the_crd_files() -> None:
    assert complete(["explain", "--crd", CRDS, "--api-version", ""]).values == [
        "stable.example.com/v1"
    ]


def test_resources_from_the_discovery_cache_are_the_custom_ones(
    kubeconfig: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kubectl_crd.kube.discovery import Discovery

    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path / "cache"))

    def resource(plural: str, kind: str) -> dict[str, object]:
        return {"resource": plural, "responseKind": {"kind": kind}, "scope": "Namespaced"}

    answer = {
        "kind": "APIGroupDiscoveryList",
        "items": [
            {
                "metadata": {"name": "apps"},
                "versions": [{"version": "v1", "resources": [resource("deployments", "D")]}],
            },
            {
                "metadata": {"name": "stable.example.com"},
                "versions": [{"version": "v1", "resources": [resource("crontabs", "CronTab")]}],
            },
        ],
    }
    # the cache as a command run against this server leaves it (the server is unreachable:
    # a completion that asked it would find nothing)
    Discovery(lambda *_, **__: answer, "https://127.0.0.1:1").groups()
    found = complete(["explain", ""], kubeconfig)
    assert found.candidates == [("crontabs", "CronTab (stable.example.com)")]


def test_the_text_is_kubectl_s_protocol() -> None:
    text = Completion([("a", "first"), ("b", "")], NO_FILE_COMP | NO_SPACE).text()
    assert text == "a\tfirst\nb\n:6\n"


#: no kubeconfig, no discovery cache: only what needs no cluster is completed
NO_HOME = {"HOME": "/nonexistent"}


def test_main_prints_the_answer_and_exits_0() -> None:
    result = run_python("from kubectl_crd.cli.completion import main; main()", "ex", env=NO_HOME)
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "explain\t" + COMMANDS["explain"].short_help + "\n:4\n",
        "",
    )


def test_a_failure_is_directive_1_never_a_traceback() -> None:
    code = (
        "import kubectl_crd.cli.completion as c\n"
        "def boom(*a, **k): raise RuntimeError('boom')\n"
        "c.complete = boom\n"
        "c.main()\n"
    )
    result = run_python(code, "ex", env=NO_HOME)
    assert (result.returncode, result.stdout, result.stderr) == (0, f":{ERROR}\n", "")


def test_the_root_command_answers_cobra_s_hidden_command() -> None:
    result = run_cli("__complete", "completion", "z", env=NO_HOME)
    assert (result.returncode, result.stdout, result.stderr) == (0, "zsh\n:4\n", "")


def test_field_paths_of_an_unreachable_cluster_are_nothing_soon(
    kubeconfig: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path / "cache"))
    started = time.monotonic()
    answer = complete(["explain", "crontab.spec."], kubeconfig)
    assert (answer.candidates, answer.directive) == ([], NO_FILE_COMP)
    assert time.monotonic() - started < completion.CLUSTER_TIMEOUT * 4 + 1


def test_a_dotted_word_gets_fields_and_group_qualified_names() -> None:
    assert complete(["explain", "--crd", CRDS, "crontabs.st"]).values == [
        "crontabs.status",
        "crontabs.stable.example.com",
    ]


def test_a_cluster_that_never_answers_is_waited_for_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    monkeypatch.setenv("KUBECTL_CRD_CACHE_DIR", str(tmp_path / "cache"))
    with socket.socket() as silent:  # accepts connections (the backlog), never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        config = tmp_path / "config"
        config.write_text(KUBECONFIG.replace("127.0.0.1:1", f"127.0.0.1:{port}"))
        started = time.monotonic()
        # a field path asks twice (the CRD, then resource names): the second is skipped
        answer = complete(["explain", "crontab.spec."], {"KUBECONFIG": str(config)})
        elapsed = time.monotonic() - started
        # Asked once: one connection in the backlog. The first is stuck in its TLS
        # handshake, so a second request could not have reused it. Counted, not timed:
        # two waits took 2-3 s and one took 3.4 s on CI's 2 loaded cores.
        silent.setblocking(False)
        connections = 0
        with contextlib.suppress(BlockingIOError):
            while True:
                silent.accept()[0].close()
                connections += 1
    assert (answer.candidates, answer.directive) == ([], NO_FILE_COMP)
    assert connections == 1
    # bounded: the wait ends (a join without its timeout would hang here)
    assert elapsed < completion.CLUSTER_TIMEOUT * 10


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_declares_its_flags_and_positionals(name: str) -> None:
    from kubectl_crd.cli.commands import declared_command

    # completion reads FLAGS (no click) and knows what the positionals are
    assert isinstance(declared_command(name).FLAGS, tuple)
    assert name in completion._POSITIONALS
    answer = complete([name, "--"])
    assert "--help" in answer.values
    assert answer.directive == NO_FILE_COMP
