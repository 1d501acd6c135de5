"""``model.gostrconv`` side by side with the real kubectl's ``strconv.ParseBool``, ``ParseInt``
and ``IsPrint`` (which ``%q`` and a template's ``js`` ask of every rune).

kubectl reads a bool flag's ``=VALUE`` with ``strconv.ParseBool`` (pflag's ``boolValue.Set``).
``kubectl config view --minify=VALUE`` shows which way it read a spelling, offline: of a
kubeconfig with two contexts, true keeps the current one only, false both; a spelling Go
refuses is pflag's error line. Ours must read each spelling the same way, or refuse it with
the same words.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kubectl_crd.model.errors import invalid_flag_value
from kubectl_crd.model.gostrconv import go_bytes, parse_go_bool, parse_go_int
from kubectl_crd.model.gotemplate import Template
from tests.integration.envtest import newest_kubectl

#: Go's twelve spellings, and near misses (other cases, padding, other languages' words,
#: and what strconv.Quote escapes in the error: control characters, quotes, a byte that is
#: not UTF-8, passed on as the byte).
SPELLINGS = [
    *("1", "t", "T", "TRUE", "true", "True"),
    *("0", "f", "F", "FALSE", "false", "False"),
    *("", "tRUE", "fALSE", "yes", "no", "on", "off", "y", "n", "2", "-1", "00", "01"),
    *(
        " true",
        "true ",
        "\uff54rue",
        "tru",
        "truee",
        "True\n",
        "t\tf",
        '"t"',
        "\x7f",
        "\u00e9",
        "\udcffff",
    ),
]

KUBECONFIG = """\
apiVersion: v1
kind: Config
current-context: one
clusters:
- name: one
  cluster: {server: "https://one.invalid"}
- name: two
  cluster: {server: "https://two.invalid"}
contexts:
- name: one
  context: {cluster: one, user: u}
- name: two
  context: {cluster: two, user: u}
users:
- name: u
  user: {}
"""


def kubectl_reads(spelling: str, kubeconfig: Path) -> bool | str:
    """What kubectl made of ``--minify=spelling``: the boolean, or its error line."""
    done = subprocess.run(
        [
            newest_kubectl(),
            "config",
            "view",
            f"--minify={spelling}",
            "-o",
            "jsonpath={.clusters[*].name}",
        ],
        capture_output=True,
        text=True,
        check=False,
        env={"KUBECONFIG": str(kubeconfig), "PATH": "/usr/bin:/bin"},
    )
    if done.returncode:
        return done.stderr.splitlines()[0]
    return "two" not in done.stdout and "one" in done.stdout


def test_every_spelling_is_read_as_kubectl_reads_it(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "config"
    kubeconfig.write_text(KUBECONFIG)
    for spelling in SPELLINGS:
        theirs = kubectl_reads(spelling, kubeconfig)
        try:
            ours: bool | str = parse_go_bool(spelling)
        except ValueError as exc:
            ours = f"error: {invalid_flag_value(spelling, '--minify', str(exc))}"
        assert ours == theirs, repr(spelling)


@pytest.mark.parametrize("spelling", ["maybe", "tRUE"])
def test_a_refused_spelling_names_it_in_gos_words(spelling: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_go_bool(spelling)
    assert str(caught.value) == f'strconv.ParseBool: parsing "{spelling}": invalid syntax'


#: ``strconv.ParseInt(s, 0, bits)``'s cases: bases and their prefixes, underscores, signs,
#: the 32- and 64-bit edges, and what Go refuses (spaces, digits past ASCII, bad prefixes).
INTEGERS = [
    *("0", "7", "-0", "+5", "010", "08", "00", "007", "0_10", "0_8", "1_000", "1_0_0"),
    *("0x10", "0X1f", "0x", "0xg", "0x_1", "0x_", "0b11", "0B1", "0b", "0b_1", "0b1_"),
    *("0o17", "0O7", "0o", "0o8", "_1", "1__0", "1_", "0_", "0__1", "1x", "1e3", "1.0"),
    *("", "-", "+", "+-1", "--1", " 5", "5 ", "\t1", "\u0661", "\uff11", "\u212a"),
    *("2147483647", "2147483648", "-2147483648", "-2147483649", "0x7fffffff", "0x80000000"),
    *("-0x80000000", "99999999999", "99999999999x", "9223372036854775807"),
    *("9223372036854775808", "-9223372036854775808", "-9223372036854775809"),
    *("0x8000000000000000", "99999999999999999999x", "1_"),
]


def _ours(text: str, bits: int, flag: str) -> int | str:
    try:
        return parse_go_int(text, bits)
    except ValueError as exc:
        return f"error: {invalid_flag_value(text, flag, str(exc))}"


def test_int32_flags_read_as_kubectl_reads_them() -> None:
    """``kubectl create deployment --replicas`` (pflag's ``Int32Var``) echoes the value it
    read in the object it prints with ``--dry-run=client``, offline."""
    create = [newest_kubectl(), "create", "deployment", "x", "--image=i"]
    for text in INTEGERS:
        done = subprocess.run(
            [*create, f"--replicas={text}", "--dry-run=client", "-o", "json"],
            capture_output=True,
            text=True,
            check=False,
            env={"KUBECONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"},
        )
        if done.returncode:
            theirs: int | str = done.stderr.splitlines()[0]
        else:
            theirs = json.loads(done.stdout)["spec"]["replicas"]
        assert _ours(text, 32, "-r, --replicas") == theirs, repr(text)


def test_int64_flags_refuse_what_kubectl_refuses() -> None:
    """``kubectl get --chunk-size`` (``Int64Var``) refuses a value before it reads a
    kubeconfig: the same line, or, for a value it takes, no ParseInt error at all."""
    for text in INTEGERS:
        done = subprocess.run(
            [newest_kubectl(), "get", "pods", f"--chunk-size={text}"],
            capture_output=True,
            text=True,
            check=False,
            env={"KUBECONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"},
        )
        ours = _ours(text, 64, "--chunk-size")
        if isinstance(ours, int):
            assert "strconv.ParseInt" not in done.stderr, repr(text)
        else:
            assert done.stderr.splitlines()[0] == ours, repr(text)


#: every rune past ASCII (no surrogate: no UTF-8 holds one), 1,111,936 in one string
EVERY_RUNE = "".join(chr(code) for code in range(0x80, 0x110000) if not 0xD800 <= code < 0xE000)


def _first_difference(theirs: bytes, ours: bytes) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(theirs, ours, strict=False)) if a != b),
        min(len(theirs), len(ours)),
    )
    return f"at byte {at}: kubectl {theirs[at - 40 : at + 40]!r}, ours {ours[at - 40 : at + 40]!r}"


def test_quote_and_js_of_every_rune_as_kubectl_writes_them() -> None:
    """strconv.IsPrint decides what ``%q`` and ``js`` keep and what they escape, over Go
    1.24's Unicode (15.0), not Python's (3.11: 14.0): ``kubectl label --local -o
    go-template`` prints both of one ConfigMap holding every rune, offline."""
    configmap = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "runes"},
        "data": {"runes": EVERY_RUNE},
    }
    template = '{{printf "%q" .data.runes}}<@@>{{js .data.runes}}'
    done = subprocess.run(
        [newest_kubectl(), "label", "--local", "-f", "-", "a=b", "-o", f"go-template={template}"],
        input=json.dumps(configmap).encode(),
        capture_output=True,
        check=True,
        env={"KUBECONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"},
    )
    ours = go_bytes(Template(template).execute(configmap))
    assert done.stdout == ours, _first_difference(done.stdout, ours)
