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
        ["also", "0", "3"],  # by name, as the server lists them, not in the files' order
        ["bad", "0", "3"],
        ["good", "0", "3"],
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
    assert several.stdout.splitlines() == sorted(
        f"crontab.stable.example.com/c{i}-{n}" for i in range(6) for n in range(30)
    )
    assert one.stdout == several.stdout


DUMPED = """apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: dumped
  namespace: default
  uid: 0b5c0a8e-1111-4222-8333-444455556666
  resourceVersion: "4711"
  generation: 3
  creationTimestamp: "2020-01-02T03:04:05Z"
spec: {cronSpec: "0 3 * * *", image: busybox, replicas: 2}
status: {replicas: 7}
"""

MANIFEST = """apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: manifest
  creationTimestamp: null
spec: {cronSpec: "0 3 * * *", image: busybox, replicas: 2}
status: {replicas: 7}
"""

STATUS_COLUMN = "custom-columns=NAME:.metadata.name,STATUS:.status.replicas,AGE:.metadata.creationTimestamp,GEN:.metadata.generation,RV:.metadata.resourceVersion"


def test_a_dumped_object_is_shown_as_stored_a_manifest_as_created(tmp_path: Path) -> None:
    (tmp_path / "objects.yaml").write_text(DUMPED + "---\n" + MANIFEST)
    result = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS, "-o", STATUS_COLUMN)
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    assert lines[:2] == [
        ["NAME", "STATUS", "AGE", "GEN", "RV"],
        # stored: status (the CRD has a status subresource), timestamp, generation kept
        ["dumped", "7", "2020-01-02T03:04:05Z", "3", "4711"],
    ]
    # created: the status dropped by the subresource, the server's own fields
    name, status, created, generation, version = lines[2]
    assert (name, status, generation, version) == ("manifest", "<none>", "1", "1")
    assert created.startswith("20") and created != "2020-01-02T03:04:05Z"
    table = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS)
    ages = {line.split()[0]: line.split()[-1] for line in table.stdout.splitlines()[1:]}
    # kubectl get right after kubectl create reads 0s; the dumped one its real age
    assert ages["manifest"] == "0s"
    assert ages["dumped"].endswith("y") or ages["dumped"].endswith("d")


def test_rows_come_by_namespace_then_name_as_the_server_lists_them(tmp_path: Path) -> None:
    def crontab(name: str, namespace: str) -> str:
        return GOOD.format(name=name, replicas=1).replace(
            "namespace: default", f"namespace: {namespace}"
        )

    (tmp_path / "b.yaml").write_text(crontab("x", "a") + "---\n" + crontab("b", "a-b"))
    (tmp_path / "a.yaml").write_text(crontab("z", "a") + "---\n" + crontab("a", "b"))
    result = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS, "-A")
    assert result.returncode == 0, result.stderr
    # etcd's key order: "a-b/b" before "a/x" ('-' sorts before '/')
    assert [line.split()[:2] for line in result.stdout.splitlines()[1:]] == [
        ["a-b", "b"],
        ["a", "x"],
        ["a", "z"],
        ["b", "a"],
    ]


def test_help_says_which_objects_are_shown_as_created_and_which_as_stored() -> None:
    result = run_cli("get", "--help")
    text = " ".join(result.stdout.split())
    assert "a manifest as a create of it returns it" in text
    assert "carries a resourceVersion, uid or creationTimestamp) as it is stored" in text


def test_an_object_without_a_namespace_is_in_the_namespace_given_with_n(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(
        GOOD.format(name="here", replicas=1).replace(", namespace: default", "")
        + "---\n"
        + GOOD.format(name="elsewhere", replicas=1)
    )
    result = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS, "-n", "team")
    assert result.returncode == 0, result.stderr
    # kubectl create -n team -f a.yaml would create 'here' in team, 'elsewhere' in default
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["NAME", "here"]
    every = run_cli("get", "crontabs", "-f", str(tmp_path), "--crd", CRDS, "-n", "team", "-A")
    assert [line.split()[:2] for line in every.stdout.splitlines()[1:]] == [
        ["default", "elsewhere"],
        ["team", "here"],
    ]
