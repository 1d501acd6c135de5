"""``kubectl crd get -w`` against the real ``kubectl get -w`` on the same server and events.

Both tools watch the same CronTabs with the same flags, started together; then objects
are created (one with a long name, which widens kubectl's remembered columns), changed
and deleted. Every line both printed is compared: the same text, or the same words where
an age ticked between the two watchers (both read at most 2 s apart), with the same
spacing. ``--crd`` makes
ours compute the cells locally instead of asking the server for Tables; its lines must
still be kubectl's.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from tests.integration.envtest import ControlPlane
from tests.integration.test_get_differential import KUBECTL_CRD, ages_close

REPO = Path(__file__).resolve().parents[2]
CRONTAB_CRD = REPO / "examples" / "crds" / "crontab.yaml"
RESOURCE = "crontabs.stable.example.com"

CRONTAB = """apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: {name}
  namespace: {namespace}
  labels: {{app: demo}}
spec:
  cronSpec: "{schedule}"
  image: busybox
  replicas: {replicas}
"""

#: (our flags, kubectl's flags): the same unless ours computes the table (--crd)
FLAG_SETS: list[tuple[list[str], list[str]]] = [
    (["-w"], ["-w"]),
    (["-w", "--output-watch-events"], ["-w", "--output-watch-events"]),
    (["--watch-only"], ["--watch-only"]),
    (
        ["-w", "-o", "wide", "--no-headers", "--show-labels"],
        ["-w", "-o", "wide", "--no-headers", "--show-labels"],
    ),
    (["first", "-w"], ["first", "-w"]),
    (["-w", "-o", "name"], ["-w", "-o", "name"]),
    (["-w", "-o", "json"], ["-w", "-o", "json"]),
    (["-w", "-o", "json", "--output-watch-events"], ["-w", "-o", "json", "--output-watch-events"]),
    (["-w", "--crd", str(CRONTAB_CRD)], ["-w"]),
]


def _apply(plane: ControlPlane, namespace: str, name: str, schedule: str, replicas: int) -> None:
    text = CRONTAB.format(name=name, namespace=namespace, schedule=schedule, replicas=replicas)
    plane.kubectl("apply", "-f", "-", input=text)


def _same_but_ages(ours: str, theirs: str) -> bool:
    if ours == theirs:
        return True
    our_lines, their_lines = ours.splitlines(), theirs.splitlines()
    if len(our_lines) != len(their_lines):
        return False
    for mine, real in zip(our_lines, their_lines, strict=True):
        # the spacing must be kubectl's too: only the words may be ages a second apart
        a, b = re.split(r"(\s+)", mine), re.split(r"(\s+)", real)
        if len(a) != len(b) or not all(
            x == y if index % 2 else ages_close(x, y)
            for index, (x, y) in enumerate(zip(a, b, strict=True))
        ):
            return False
    return True


def test_watch_prints_what_kubectl_prints(apiserver: ControlPlane, namespace: str) -> None:
    apiserver.install_crds([CRONTAB_CRD])
    _apply(apiserver, namespace, "first", "0 1 * * *", 1)
    _apply(apiserver, namespace, "second", "0 2 * * *", 2)
    config = [f"--kubeconfig={apiserver.kubeconfig}", f"--context={apiserver.context}"]
    running: list[tuple[list[str], subprocess.Popen[str], subprocess.Popen[str]]] = []
    for ours, theirs in FLAG_SETS:
        # qualified: other tests install CronTab CRDs of other groups on the same server
        scope = [RESOURCE, "-n", namespace]
        started = [
            subprocess.Popen(
                command,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=apiserver.env(),
            )
            for command in (
                [apiserver.kubectl_binary, "get", *scope, *theirs, *config],
                [*KUBECTL_CRD, "get", *scope, *ours, *config],
            )
        ]
        running.append((ours, started[0], started[1]))
    time.sleep(3)  # every watcher has listed and is watching
    _apply(apiserver, namespace, "a-much-longer-name-than-the-others", "*/10 * * * *", 3)
    _apply(apiserver, namespace, "first", "0 1 * * *", 7)
    apiserver.kubectl("delete", RESOURCE, "second", "-n", namespace)
    time.sleep(3)
    problems: list[str] = []
    lines = 0
    for flags, real, mine in running:
        outputs = []
        for process in (real, mine):
            process.terminate()
            out, err = process.communicate(timeout=30)
            outputs.append((out, err))
        (theirs, _), (ours, our_errors) = outputs
        assert not our_errors.strip(), our_errors
        lines += len(theirs.splitlines())
        if not _same_but_ages(ours, theirs):
            problems.append(f"get -w {' '.join(flags)}:\n--- kubectl\n{theirs}--- ours\n{ours}")
    print(f"\nget -w: {len(FLAG_SETS)} flag sets, {lines} lines of kubectl get -w compared")
    assert lines > 3 * len(FLAG_SETS)
    assert not problems, "\n".join(problems)


def test_watch_of_a_missing_object_fails_as_kubectl(
    apiserver: ControlPlane, namespace: str
) -> None:
    apiserver.install_crds([CRONTAB_CRD])
    config = [f"--kubeconfig={apiserver.kubeconfig}", f"--context={apiserver.context}"]
    results = [
        subprocess.run(
            [*command, "get", RESOURCE, "nope", "-w", "-n", namespace, *config],
            capture_output=True,
            text=True,
            env=apiserver.env(),
            timeout=30,
            check=False,
        )
        for command in ([apiserver.kubectl_binary], KUBECTL_CRD)
    ]
    real, ours = results
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        real.returncode,
        real.stdout,
        real.stderr,
    )
    assert re.search(r'NotFound.*"nope" not found', ours.stderr)
