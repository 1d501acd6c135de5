"""The click-free parser against click, on the same flag declarations.

``root.run_declared`` parses plain command lines itself and declines the rest; where
it accepts, click must reach the command with exactly the same parameters. Both are
driven over many generated command lines with the command's ``run`` replaced by a
recorder, so nothing but the parsing is compared.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import click
import pytest

from kubectl_crd.cli import root
from kubectl_crd.cli.app import Application
from kubectl_crd.cli.commands import explain, sample, scale
from kubectl_crd.cli.flags import COUNT, REPEATED, SWITCH, VALUE, Flag, parse_flags
from kubectl_crd.cli.group import run_click
from kubectl_crd.cli.options import COUNT_VALUE

GLOBAL_PIECES: list[list[str]] = [
    ["--kubeconfig", "k.yaml"],
    ["--kubeconfig=other.yaml"],
    ["--context", "kind"],
    ["--context="],
    ["-n", "team-a"],
    ["--namespace=team-b"],
    ["--request-timeout", "5s"],
    ["--debug"],
    ["-nteam-c"],
    ["-n=team-d"],
    # forms the small parser declines
    ["--debug=true"],
    ["--kube", "x"],
    ["-n", "-x"],
]

EXPLAIN_PIECES: list[list[str]] = [
    ["--crd", "a.yaml"],
    ["--crd=b.yaml"],
    ["--crd", "dir/"],
    ["-R"],
    ["--recursive"],
    ["--max-depth", "2"],
    ["--max-depth=03"],
    ["--max-depth", "0"],
    ["-o", "yaml"],
    ["--output=json"],
    ["--output", "markdown"],
    ["-ojson"],
    ["-o=yaml"],
    ["-o="],
    ["--kubectl"],
    ["-i"],
    ["--interactive"],
    ["--api-version", "stable.example.com/v1"],
    ["--api-version="],
    # forms the small parser declines, or that are errors
    ["--max-depth", "-1"],
    ["--max-depth", "x"],
    ["--max-depth", "1_0"],
    ["-Ri"],
    ["--crd"],
    ["--", "x"],
    ["-"],
    ["-n", "x"],
    ["-R=1"],
    ["-o=-x"],
    ["--recursive=1"],
    ["--output", "--kubectl"],
]

SAMPLE_PIECES: list[list[str]] = [
    ["--crd", "a.yaml"],
    ["--crd=dir/"],
    ["--api-version", "stable.example.com/v1"],
    ["--name", "w1"],
    ["--name="],
    ["--all-fields"],
    ["--no-comments"],
    ["-o", "json"],
    ["--output=yaml"],
    ["-oyaml"],
    ["-o=json"],
    # forms the small parser declines, or that are errors
    ["-o", "xml"],
    ["--output=JSON"],
    ["-oxml"],
    ["--all-fields=1"],
    ["--name"],
    ["--", "x"],
]

SCALE_PIECES: list[list[str]] = [
    ["--replicas", "3"],
    ["--replicas=0"],
    ["--current-replicas", "2"],
    ["--resource-version=7"],
    ["-l", "app=demo"],
    ["--selector=app=demo"],
    ["--all"],
    ["-A"],
    ["-f", "foo.yaml"],
    ["--filename=dir/"],
    ["-oname"],
    ["-o", "yaml"],
    ["--wait"],
    ["--timeout", "2m"],
    ["--local"],
    ["--crd", "a.yaml"],
    ["--dry-run"],  # pflag's NoOptDefVal: client, and the next word is not its value
    ["--dry-run=server"],
    ["--dry-run", "server"],  # "server" is then a positional, as in kubectl
    ["--dry-run=none"],
    # forms the small parser declines, or that are errors
    ["--dry-run=maybe"],
    ["--replicas"],
    ["--wait=1"],
    ["-Al", "x"],
]

#: Global flags may follow the command name, as kubectl's persistent flags do.
AFTER_THE_COMMAND: list[list[str]] = [
    ["--context", "after"],
    ["-n", "after"],
    ["--namespace=after"],
    ["--kubeconfig", "after.yaml"],
    ["--request-timeout=1m"],
    ["--debug"],
    ["--debug=yes"],
]

POSITIONALS: list[list[str]] = [["crontab"], ["crontabs.spec.cronSpec"], [], ["a", "b"]]


PIECES = {"explain": EXPLAIN_PIECES, "sample": SAMPLE_PIECES, "scale": SCALE_PIECES}


def command_lines(command: str) -> Iterator[list[str]]:
    rng = random.Random(20261122)
    own = PIECES[command]
    for global_piece, piece, positional in itertools.product(
        [[], *GLOBAL_PIECES[:3], ["--debug"], ["-nteam-c"]], own + AFTER_THE_COMMAND, POSITIONALS
    ):
        yield [*global_piece, command, *positional, *piece]
    for _ in range(600):
        globals_ = [rng.choice(GLOBAL_PIECES) for _ in range(rng.randrange(3))]
        pieces = [rng.choice(own + AFTER_THE_COMMAND) for _ in range(rng.randrange(5))]
        positional = rng.choice(POSITIONALS)
        where = rng.randrange(len(pieces) + 1)
        words = [*itertools.chain(*pieces[:where]), *positional, *itertools.chain(*pieces[where:])]
        yield [*itertools.chain(*globals_), command, *words]


Call = tuple[str, dict[str, object]]


def recorded(monkeypatch: pytest.MonkeyPatch, parse: str, args: list[str]) -> list[Call] | str:
    """The calls that reached a command's ``run`` through one parser, or how it ended."""
    calls: list[Call] = []

    def record(app: Application, **params: object) -> None:
        calls.append((repr(app), params))

    monkeypatch.setattr(explain, "run", record)
    monkeypatch.setattr(sample, "run", record)
    monkeypatch.setattr(scale, "run", record)
    if parse == "small":
        return calls if root.run_declared(list(args)) else "declined"
    try:
        run_click(list(args))
    except SystemExit as exc:
        return f"exit {exc.code}"
    except Exception as exc:  # ours, raised by the command; not expected here
        return f"raised {type(exc).__name__}"
    return calls


@pytest.mark.parametrize("command", sorted(PIECES))
def test_small_parser_agrees_with_click_wherever_it_accepts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    monkeypatch.delenv("KUBECTL_CRD_DEBUG", raising=False)
    accepted = declined = 0
    disagreements = []
    for args in command_lines(command):
        small = recorded(monkeypatch, "small", args)
        if small == "declined":
            declined += 1
            continue
        accepted += 1
        by_click = recorded(monkeypatch, "click", args)
        if small != by_click:
            disagreements.append((args, small, by_click))
    capsys.readouterr()
    print(f"small parser accepted {accepted}, declined {declined}")
    assert not disagreements, disagreements[:5]
    # both kinds occur, so the comparison is not vacuous
    assert accepted > 300
    assert declined > 300


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "--crd", "a.yaml", "crontab.spec"],
        ["--kubeconfig=k", "-n", "ns", "explain", "crontab", "-R", "--max-depth=2"],
        ["--debug", "explain", "--crd=a.yaml", "--crd", "b", "-o", "json", "x", "--kubectl"],
        ["explain", "x", "--context", "kind", "-n", "ns", "--kubeconfig=k"],
        ["-n", "a", "sample", "--crd", "a.yaml", "widget", "-n", "b", "-o", "json"],
        ["-ndev", "explain", "--crd", "a.yaml", "x", "-ojson"],
        ["sample", "--crd", "a.yaml", "widget", "-o=json", "-n=b"],
    ],
)
def test_plain_command_lines_never_import_click(
    monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    assert recorded(monkeypatch, "small", args) != "declined"


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["explain", "--help"],
        ["explain", "-h"],
        ["--version"],
        ["sample", "crontab", "-o", "xml"],
        ["validate", "-f", "x.yaml"],
        ["explain", "crontab", "--no-such-flag"],
        ["explain", "--max-depth", "-1", "x"],
    ],
)
def test_help_version_and_errors_go_to_click(args: list[str]) -> None:
    assert root.run_declared(args) is False


def test_global_flags_after_the_command_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KUBECTL_CRD_DEBUG", raising=False)
    args = ["-n", "before", "--context=c", "explain", "x", "-n", "after", "--debug"]
    for parse in ("small", "click"):
        ((app, params),) = recorded(monkeypatch, parse, args)
        assert "namespace='after'" in app
        assert "context='c'" in app
        assert "debug=True" in app
        assert "namespace" not in params


def test_values_follow_click_rules() -> None:
    flags = (
        Flag(("-a", "--alpha"), "alpha", VALUE, ""),
        Flag(("--many",), "many", REPEATED, ""),
        Flag(("--depth",), "depth", COUNT, "", default=0),
        Flag(("-s",), "switch", SWITCH, ""),
    )
    parsed = parse_flags(flags, ["x", "-a", "1", "--alpha=2", "--many", "m", "-s", "y"])
    assert parsed is not None
    assert parsed.values == {"alpha": "2", "many": ("m",), "depth": 0, "switch": True}
    assert parsed.positionals == ["x", "y"]
    stopped = parse_flags(flags, ["-s", "cmd", "--unknown"], stop_at_positional=True)
    assert stopped is not None
    assert stopped.positionals == ["cmd", "--unknown"]
    assert parse_flags(flags, ["-a"]) is None
    assert parse_flags(flags, ["--depth", "+1"]) is None
    # Go's other spellings of an integer are click's (strconv.ParseInt there): a leading 0
    # is octal, so the small parser's int() would read it otherwise
    for value in ("010", "0x10", "1_0", "00", "9999999999999999999"):
        assert parse_flags(flags, ["--depth", value]) is None, value


def test_counts_read_integers_as_pflag_does() -> None:
    """``strconv.ParseInt(s, 0, 64)``, as kubectl's ``--chunk-size`` reads them (the
    texts are kubectl 1.33's, compared in test_gostrconv_differential)."""
    param = click.Option(["--chunk-size"])
    read = {value: COUNT_VALUE.convert(value, param, None) for value in ("010", "0x10", "1_000")}
    assert read == {"010": 8, "0x10": 16, "1_000": 1000}
    with pytest.raises(click.BadParameter) as caught:
        COUNT_VALUE.convert("99999999999999999999", param, None)
    assert caught.value.message == (
        'invalid argument "99999999999999999999" for "--chunk-size" flag: '
        'strconv.ParseInt: parsing "99999999999999999999": value out of range'
    )
    with pytest.raises(click.BadParameter, match="must be 0 or more"):
        COUNT_VALUE.convert("-0x1", param, None)
