"""``kubectl crd get -f``: objects from files, pruned and defaulted, rejected ones shown."""

from __future__ import annotations

from pathlib import Path

from tests.cli_runner import run_cli

REPO = Path(__file__).resolve().parents[3]
CRDS = str(REPO / "examples" / "crds")

GOOD = """apiVersion: stable.example.com/v1
kind: CronTab
metadata: {{name: {name}, namespace: default}}
spec: {{cronSpec: "0 3 * * *", image: busybox, replicas: {replicas}}}
"""


def test_a_rejected_object_is_shown_with_its_errors_at_their_nodes(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(GOOD.format(name="good", replicas=2))
    (tmp_path / "b.yaml").write_text(
        GOOD.format(name="bad", replicas=50) + "---\n" + GOOD.format(name="also", replicas=1)
    )
    result = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS)
    assert result.returncode == 1
    rows = [line.split()[:3] for line in result.stdout.splitlines()]
    assert rows == [
        ["NAME", "SCHEDULE", "REPLICAS"],
        ["good", "0", "3"],
        ["bad", "0", "3"],
        ["also", "0", "3"],
    ]
    assert result.stderr == (
        f'{tmp_path / "b.yaml"}:4:57: error: The CronTab "bad" is invalid: '
        "spec.replicas: Invalid value: 50: "
        "spec.replicas in body should be less than or equal to 10\n"
    )
    # again: the files now come from the parsed-value cache, without positions, and the
    # rejected object is parsed again for its error's
    again = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS)
    assert (again.returncode, again.stderr) == (1, result.stderr)


def test_files_in_parallel_give_the_table_of_one_process(tmp_path: Path) -> None:
    for index in range(6):
        documents = [GOOD.format(name=f"c{index}-{n}", replicas=n % 10) for n in range(30)]
        (tmp_path / f"f{index}.yaml").write_text("---\n".join(documents))
    several = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS, "-o", "name")
    one = run_cli(
        "get",
        "crontabs",
        *(a for i in range(6) for a in ("-f", str(tmp_path / f"f{i}.yaml"))),
        "--crd",
        CRDS,
        "-o",
        "name",
    )
    assert several.returncode == one.returncode == 0
    assert several.stdout.splitlines() == [
        f"crontab.stable.example.com/c{i}-{n}" for i in range(6) for n in range(30)
    ]
    assert one.stdout == several.stdout
