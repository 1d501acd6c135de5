"""Usage errors as kubectl prints them: one ``error:`` line, kubectl's help line, exit 1.

Every command is in the table (a command added to ``cli.commands.COMMANDS`` without a
row fails ``test_every_command_has_rows``). kubectl's own lines for the same mistakes,
which these copy with ``kubectl`` read as ``kubectl crd``, are compared with the real
kubectl in ``tests/integration/test_usage_errors_differential.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_crd.cli.commands import COMMANDS
from tests.cli_runner import run_cli

CRDS = str(Path(__file__).parents[3] / "examples" / "crds")

#: Commands that parse flags: all of them.
PARSING = list(COMMANDS)


def flag_help(command: str) -> str:
    return f"See 'kubectl crd {command} --help' for usage."


def usage_help(command: str) -> str:
    return f"See 'kubectl crd {command} -h' for help and examples"


#: (command line, the two lines expected on stderr)
CASES: list[tuple[tuple[str, ...], tuple[str, str]]] = [
    (
        ("frobnicate",),
        (
            'error: unknown command "frobnicate" for "kubectl crd"',
            "See 'kubectl crd --help' for usage.",
        ),
    ),
    (("--bogus", "get"), ("error: unknown flag: --bogus", "See 'kubectl crd --help' for usage.")),
    (
        ("--kubeconfig",),
        ("error: flag needs an argument: --kubeconfig", "See 'kubectl crd --help' for usage."),
    ),
]
for _name in PARSING:
    CASES += [
        ((_name, "--bogus"), ("error: unknown flag: --bogus", flag_help(_name))),
        ((_name, "x", "-Z"), ("error: unknown shorthand flag: 'Z' in -Z", flag_help(_name))),
        # a global flag after the command, its value missing
        ((_name, "x", "--context"), ("error: flag needs an argument: --context", flag_help(_name))),
        ((_name, "x", "-n"), ("error: flag needs an argument: 'n' in -n", flag_help(_name))),
    ]
    if _name != "completion":  # the one command that reads no CRDs
        CASES += [
            ((_name, "x", "--crd"), ("error: flag needs an argument: --crd", flag_help(_name))),
        ]
CASES += [
    # choices checked by the parser
    (
        ("validate", "-f", "x.yaml", "-o", "bogus"),
        (
            'error: invalid argument "bogus" for "-o, --output" flag: '
            "must be one of human, json, yaml, junit, sarif, github",
            flag_help("validate"),
        ),
    ),
    (
        ("sample", "x", "-o=xml"),
        (
            'error: invalid argument "xml" for "-o, --output" flag: must be one of yaml, json',
            flag_help("sample"),
        ),
    ),
    # integers read as pflag's IntVar
    (
        ("validate", "-f", "x.yaml", "-j", "many"),
        (
            'error: invalid argument "many" for "-j, --jobs" flag: strconv.ParseInt: parsing "many": invalid syntax',
            flag_help("validate"),
        ),
    ),
    (
        ("explain", "x", "--max-depth", "-3"),
        (
            'error: invalid argument "-3" for "--max-depth" flag: must be 0 or more',
            flag_help("explain"),
        ),
    ),
    (
        ("scale", "x/y", "--replicas=x"),
        (
            'error: invalid argument "x" for "--replicas" flag: strconv.ParseInt: parsing "x": invalid syntax',
            flag_help("scale"),
        ),
    ),
    # a switch given a value: pflag's bool flag (true and false are read)
    (
        ("explain", "x", "-R=x"),
        (
            'error: invalid argument "x" for "-R, --recursive" flag: '
            'strconv.ParseBool: parsing "x": invalid syntax',
            flag_help("explain"),
        ),
    ),
    (
        ("get", "x", "--watch=maybe"),
        (
            'error: invalid argument "maybe" for "-w, --watch" flag: '
            'strconv.ParseBool: parsing "maybe": invalid syntax',
            flag_help("get"),
        ),
    ),
    # arguments: kubectl's UsageErrorf
    (
        ("columns",),
        ("error: RESOURCE is a required argument for the columns command", usage_help("columns")),
    ),
    (("columns", "a", "b"), ("error: Unexpected args: [b]", usage_help("columns"))),
    (("dev",), ("error: FILE is a required argument for the dev command", usage_help("dev"))),
    (
        ("dev", "r.py", "--log-format", "xml"),
        (
            'error: invalid argument "xml" for "--log-format" flag: must be one of text, json',
            flag_help("dev"),
        ),
    ),
]


@pytest.mark.parametrize(("args", "lines"), CASES, ids=[" ".join(args) for args, _ in CASES])
def test_usage_error_is_two_lines_and_exit_1(args: tuple[str, ...], lines: tuple[str, str]) -> None:
    result = run_cli(*args)
    assert (result.returncode, result.stdout, tuple(result.stderr.splitlines())) == (1, "", lines)


def test_every_command_has_rows() -> None:
    named = {args[0] for args, _ in CASES}
    assert named >= set(PARSING)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("explain",), "error: You must specify the type of resource to explain."),
        (("explain", "a", "b"), "error: We accept only this format: explain RESOURCE"),
        (("get",), "error: You must specify the type of resource to get."),
        (
            ("get", "x", "-o", "bogus", "-f", "-"),
            'error: unable to match a printer suitable for the output format "bogus"',
        ),
        (("validate",), 'error: must specify at least one file with -f (use "-f -" for stdin)'),
    ],
)
def test_a_command_refusing_its_arguments_exits_1_in_one_line(
    args: tuple[str, ...], line: str
) -> None:
    """kubectl words these itself (``cmdutil.CheckErr``), one line, exit 1."""
    result = run_cli(*args)
    assert result.returncode == 1
    (only,) = result.stderr.splitlines()
    assert only.startswith(line)


def test_bare_command_prints_help_and_succeeds() -> None:
    """As bare ``kubectl``: the help on stdout, exit 0."""
    result = run_cli()
    assert result.returncode == 0
    assert result.stdout.startswith("Usage: kubectl crd")
    assert result.stderr == ""


def test_a_switch_reads_go_booleans_as_pflag_does(tmp_path: Path) -> None:
    """``--recursive=false`` is the switch left out, ``-R=true`` the switch given."""
    env = {"KUBECTL_CRD_CACHE_DIR": str(tmp_path)}
    base = ("explain", "crontab", "--crd", CRDS)
    plain, recursive = (run_cli(*base, *more, env=env).stdout for more in ((), ("-R",)))
    assert plain != recursive
    for spelling, expected in [
        ("--recursive=false", plain),
        ("-R=0", plain),
        ("--recursive=True", recursive),
        ("-R=t", recursive),
    ]:
        result = run_cli(*base, spelling, env=env)
        assert (result.returncode, result.stdout) == (0, expected), spelling
