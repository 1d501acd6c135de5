"""``get -f FILE -l SELECTOR`` against ``kubectl get -l SELECTOR`` after ``kubectl create -f
FILE``: kubectl's resource builder filters the objects of files by their labels
(``visitByPaths`` with ``FilterByLabelSelector``), so the offline table holds the rows
the server lists for the same selector, and an object the selector leaves out is not
admitted (an invalid one among them is no error)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.envtest import ControlPlane

REPO = Path(__file__).resolve().parents[2]
CRONTAB_CRD = REPO / "examples" / "crds" / "crontab.yaml"


def crontab(name: str, labels: str, replicas: int = 1) -> str:
    return (
        f"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: {name}\n"
        f"  labels: {labels}\nspec:\n  cronSpec: '*/5 * * * *'\n  image: img\n"
        f"  replicas: {replicas}\n"
    )


#: (selector, whether it selects the offline-only object "z", labelled app=refused)
SELECTORS = [
    ("app=web", False),
    ("tier in (front,back),app", False),
    ("app=none", False),
    ("app!=web", True),
    ("!tier", True),
]


@pytest.mark.parametrize(("selector", "selects_z"), SELECTORS, ids=[s for s, _ in SELECTORS])
def test_a_selector_filters_the_objects_of_files_as_the_server_lists_them(
    apiserver: ControlPlane, namespace: str, tmp_path: Path, selector: str, selects_z: bool
) -> None:
    apiserver.install_crds([CRONTAB_CRD])
    created = tmp_path / "created.yaml"
    created.write_text(
        "---\n".join(
            [
                crontab("a", "{app: web, tier: front}"),
                crontab("b", "{app: db, tier: back}"),
                crontab("c", "{app: web}"),
                crontab("d", "{}"),
            ]
        )
    )
    apiserver.kubectl("create", "-n", namespace, "-f", str(created))
    # one more in the offline file only, over the schema's maximum: refused when selected
    offline = tmp_path / "offline.yaml"
    offline.write_text(created.read_text() + "---\n" + crontab("z", "{app: refused}", 10_000))
    config = [f"--kubeconfig={apiserver.kubeconfig}", f"--context={apiserver.context}"]
    real = apiserver.kubectl("get", "crontabs", "-n", namespace, "-l", selector, check=False)
    ours = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "get", "crontabs", "-n", namespace, *config,
         "-f", str(offline), "--crd", str(CRONTAB_CRD), "-l", selector],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    rows = [line.split() for line in ours.stdout.splitlines()]
    # a refused object is still shown offline (its error on stderr): z, when selected
    assert [row[0] for row in rows].count("z") == selects_z
    # ages: the created ones are seconds old on the server, 0s offline
    assert [row[:-1] for row in rows if row[0] != "z"] == [
        line.split()[:-1] for line in real.stdout.splitlines()
    ]
    if selects_z:
        assert ours.returncode == 1
        assert 'The CronTab "z" is invalid: spec.replicas' in ours.stderr
    else:
        assert (ours.returncode, ours.stderr) == (0, real.stderr)


def test_without_a_selector_the_refused_object_is_reported(
    apiserver: ControlPlane, tmp_path: Path
) -> None:
    offline = tmp_path / "offline.yaml"
    offline.write_text(crontab("z", "{app: refused}", replicas=10_000))
    done = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", "get", "crontabs", "-f", str(offline),
         "--crd", str(CRONTAB_CRD), f"--kubeconfig={apiserver.kubeconfig}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1 and 'The CronTab "z" is invalid' in done.stderr
