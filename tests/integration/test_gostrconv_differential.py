"""``model.gostrconv.parse_go_bool`` side by side with the real kubectl's ``strconv.ParseBool``.

kubectl reads a bool flag's ``=VALUE`` with ``strconv.ParseBool`` (pflag's ``boolValue.Set``).
``kubectl config view --minify=VALUE`` shows which way it read a spelling, offline: of a
kubeconfig with two contexts, true keeps the current one only, false both; a spelling Go
refuses is pflag's error line. Ours must read each spelling the same way, or refuse it with
the same words.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kubectl_crd.model.errors import invalid_flag_value
from kubectl_crd.model.gostrconv import parse_go_bool
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
