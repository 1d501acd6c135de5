"""``kubectl crd explain`` as a user runs it: stdout, stderr, exit codes, offline imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import run_cli
from tests.unit.explain.conftest import DATA, golden_cases

WIDGETS = str(DATA / "widgets.yaml")


#: Only kubectl's section on stdout, to compare with the golden files.
KUBECTL_ONLY = ["--kubectl"]


def run(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    # offline means offline: a kubeconfig that does not exist
    env = {"KUBECTL_CRD_CACHE_DIR": str(cache), "KUBECONFIG": str(cache / "no-such-kubeconfig")}
    return run_cli(*args, env=env)


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.mark.parametrize(
    "case",
    [
        c
        for c in golden_cases()
        if c["args"] in (["widgets.spec"], ["widgets.spec.nonexistent.deeper"])
    ],
    ids=lambda c: " ".join(c["args"]),
)
def test_offline_output_is_kubectls(case: dict[str, object], cache: Path) -> None:
    args = case["args"]
    assert isinstance(args, list)
    result = run("explain", *KUBECTL_ONLY, "--crd", WIDGETS, *args, cache=cache)
    assert result.stdout == case["stdout"]
    assert result.returncode == case["exit"]
    assert (result.stderr.splitlines() or [""])[0] == case["stderr"]


def test_unknown_field_names_nearby_fields_on_the_next_line(cache: Path) -> None:
    result = run("explain", "--crd", WIDGETS, "widgets.spec.mod", cache=cache)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        'error: field "mod" does not exist',
        '"spec" has no field "mod"; did you mean spec.mode?',
    ]


def test_free_form_fields_get_a_note_on_stderr_not_on_stdout(cache: Path) -> None:
    result = run("explain", *KUBECTL_ONLY, "--crd", WIDGETS, "widgets.spec.raw", cache=cache)
    assert result.returncode == 0
    assert "note:" not in result.stdout
    assert result.stderr.startswith('note: "widgets.spec.raw" is free-form')


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["widgets", "-o", "bogus"], 1, "error: unrecognized format: bogus"),
        (
            ["widgets", "--output", "plaintext-openapiv2"],
            1,
            "error: unrecognized format: plaintext-openapiv2",
        ),
        ([], 1, "error: You must specify the type of resource to explain."),
        (["widgets", "wd"], 1, "error: We accept only this format: explain RESOURCE"),
        (["widgets", "--max-depth", "1"], 1, "error: --max-depth requires --recursive"),
        (["nothing"], 1, 'error: the server doesn\'t have a resource type "nothing"'),
        (["widgets.spec[0]"], 1, "error: invalid jsonpath syntax, first node must be field node"),
    ],
)
def test_errors_and_exit_codes(args: list[str], code: int, message: str, cache: Path) -> None:
    result = run("explain", "--crd", WIDGETS, *args, cache=cache)
    assert result.returncode == code
    assert result.stderr.startswith(message)
    assert result.stdout == ""


def test_recursive_short_flag_and_max_depth(cache: Path) -> None:
    args = ["widgets.spec.portMap", "-R", "--max-depth", "1"]
    result = run("explain", *KUBECTL_ONLY, "--crd", WIDGETS, *args, cache=cache)
    assert result.returncode == 0
    fields = result.stdout.split("FIELDS:\n")[1]
    assert fields == "  number\t<integer> -required-\n  protocol\t<string>\n  enum: TCP, UDP\n\n"


def test_a_broken_crd_file_is_reported_with_file_and_line(tmp_path: Path, cache: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: [\n"
    )
    result = run(
        "explain", "--crd", str(broken), "--crd", WIDGETS, "widgets.spec.mode", cache=cache
    )
    assert result.returncode == 0  # the resource asked for is in a good file
    assert f"warning: skipped a CRD: {broken}:" in result.stderr
    result = run("explain", "--crd", str(broken), "gizmos", cache=cache)
    assert result.returncode == 1
    assert f"{broken}:3" in result.stderr or f"{broken}:4" in result.stderr
    assert "could not be read" in result.stderr


#: What ``explain --crd`` leaves unimported for its start-up time (bench/README.md).
#: Each costs 1-25 ms; those the interpreter had loaded before (an editable install's
#: import hook loads re, for one) do not count.
SLOW_TO_IMPORT = {
    "click",
    "rich",
    "ruamel",
    "traceback",
    "dataclasses",
    "inspect",
    "typing",
    "re",
    "json",
    "enum",
    "hashlib",
    "textwrap",
    "copy",
    "importlib",
}


def test_offline_explain_imports_neither_the_kubernetes_client_nor_click(cache: Path) -> None:
    code = (
        "import sys\n"
        "BEFORE = set(sys.modules)\n"
        f"SLOW = {sorted(SLOW_TO_IMPORT)!r}\n"
        "from kubectl_crd.cli.root import main\n"
        "try:\n"
        f"    main(['explain', '--crd', {WIDGETS!r}, 'widgets.spec.template.metadata'])\n"
        "except SystemExit as exc:\n"
        "    status = exc.code\n"
        "report = {'status': status, 'kubernetes': sorted(m for m in sys.modules"
        " if m == 'kubernetes' or m.startswith('kubernetes.') or m.startswith('urllib3')),"
        " 'slow to import': sorted(m for m in set(sys.modules) - BEFORE if m.split('.')[0] in SLOW)}\n"
        "import json\n"
        "sys.stderr.write(json.dumps(report))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "KUBECTL_CRD_DEBUG"}
    env["KUBECTL_CRD_CACHE_DIR"] = str(cache)
    for _ in ("fill the parse cache", "read it"):
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
        )
    report = json.loads(result.stderr.splitlines()[-1])
    assert report == {"status": 0, "kubernetes": [], "slow to import": []}
    assert "FIELD: metadata <ObjectMeta>" in result.stdout
