"""``kubectl crd get -f``: a document that is no object is an error, never passed over.

kubectl's ``get -f`` stops on a file that is not YAML, or a document that is a list or
a scalar (``error parsing ...``, ``unable to decode ...``, exit 1); ours says why at the
document's line, lists the other files' objects, and exits 1. An empty document is
nothing, as for kubectl.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[3]
CRDS = str(REPO / "examples" / "crds")

GOOD = """apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: good, namespace: default}
spec: {cronSpec: "0 3 * * *", image: busybox, replicas: 2}
"""

UNUSABLE = [
    ("not-yaml", "kind: CronTab\nmetadata: {name: a\n", "3:1", "did not find expected ',' or '}'"),
    ("a-list", "- a\n- b\n", "1:1", "document is not a mapping/object: it is a list"),
    ("a-scalar", "hello\n", "1:1", "document is not a mapping/object: it is a string"),
]


@pytest.mark.parametrize(
    ("text", "where", "says"), [case[1:] for case in UNUSABLE], ids=[c[0] for c in UNUSABLE]
)
def test_an_unusable_document_is_an_error_and_the_rest_is_listed(
    tmp_path: Path, text: str, where: str, says: str
) -> None:
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(text)
    result = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS, "-o", "name")
    assert result.returncode == 1
    assert result.stdout == "crontab.stable.example.com/good\n"
    [line] = result.stderr.splitlines()
    assert line.startswith(f"{tmp_path / 'b.yaml'}:{where}: error: ")
    assert says in line


def test_an_empty_document_is_nothing(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("---\n---\n" + GOOD)
    result = run_cli("get", "crontabs", "-f", str(tmp_path / "a.yaml"), "--crd", CRDS, "-o", "name")
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "crontab.stable.example.com/good\n",
        "",
    )
