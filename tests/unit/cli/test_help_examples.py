"""The examples of a command's ``--help`` work on the bundled example CRD.

A reader copies them first: an example that names a field the CronTab of
``examples/crds/`` does not have prints nothing and looks like a bug of the tool.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from kubectl_crd.cli.commands import get
from tests.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[3]
CRONTAB = REPO / "examples" / "resources" / "crontab-nightly.yaml"


def test_gets_jsonpath_example_prints_a_field_of_the_example_crontab(tmp_path: Path) -> None:
    (line,) = (x.strip() for x in get.HELP.splitlines() if "jsonpath=" in x)
    words = shlex.split(line)
    assert words[:3] == ["kubectl", "crd", "get"], line
    name = words[4]
    manifest = tmp_path / f"{name}.yaml"
    # the example's object: the bundled nightly CronTab under the example's name
    manifest.write_text(re.sub(r"name: nightly\n", f"name: {name}\n", CRONTAB.read_text(), count=1))
    result = run_cli(*words[2:], "-f", str(manifest), "--crd", str(REPO / "examples" / "crds"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip(), f"{line!r} printed nothing for the example CronTab"
