"""``kubectl crd get -w`` against the real ``kubectl get -w`` on the same server and events.

Both tools watch the same CronTabs with the same flags, started together; then objects
are created (one with a long name, which widens kubectl's remembered columns), changed
and deleted. Every line both printed is compared: the same text, or the same words where
an age ticked between the two watchers (both read at most 2 s apart), with the same
spacing. ``--crd`` makes
ours compute the cells locally instead of asking the server for Tables; its lines must
still be kubectl's.

No fixed sleeps: each pair of watchers is started and waited on until the API server's
audit log shows both watch requests (blocking audit mode: logged before the response
starts), and after the writes every watcher is read until it printed the records its
flags promise, each wait with a deadline.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
import time
from collections.abc import Callable
from functools import partial
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

#: (our flags, kubectl's flags, records printed): the flags are the same unless ours
#: computes the table (--crd); records are lines (a JSON object counts once), for the two
#: objects listed and the three events (an add, a change, a delete) plus a header
FLAG_SETS: list[tuple[list[str], list[str], int]] = [
    (["-w"], ["-w"], 6),
    (["-w", "--output-watch-events"], ["-w", "--output-watch-events"], 6),
    (["--watch-only"], ["--watch-only"], 4),
    (
        ["-w", "-o", "wide", "--no-headers", "--show-labels"],
        ["-w", "-o", "wide", "--no-headers", "--show-labels"],
        5,
    ),
    (["first", "-w"], ["first", "-w"], 3),
    (["-w", "-o", "name"], ["-w", "-o", "name"], 5),
    (["-w", "-o", "json"], ["-w", "-o", "json"], 5),
    (
        ["-w", "-o", "json", "--output-watch-events"],
        ["-w", "-o", "json", "--output-watch-events"],
        5,
    ),
    (["-w", "--crd", str(CRONTAB_CRD)], ["-w"], 6),
]
DEADLINE = 60.0  # seconds for any one wait: a hang fails the test, it does not stall it


class _Watcher:
    """A watch process whose stdout is read as it comes (a thread per pipe)."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        self.lines: list[str] = []
        self.errors: list[str] = []
        self._threads = [
            threading.Thread(target=self._read, args=(pipe, into), daemon=True)
            for pipe, into in (
                (self.process.stdout, self.lines),
                (self.process.stderr, self.errors),
            )
        ]
        for thread in self._threads:
            thread.start()

    @staticmethod
    def _read(pipe: object, into: list[str]) -> None:
        for line in pipe:  # type: ignore[attr-defined]
            into.append(line)

    def records(self) -> int:
        """Lines printed, a JSON object (of several lines) counting once."""
        text = "".join(self.lines)
        if not text.startswith("{"):
            return len(text.splitlines())
        decoder, objects, at = json.JSONDecoder(), 0, 0
        while True:
            at = len(text) - len(text[at:].lstrip())
            try:
                _, at = decoder.raw_decode(text, at)
            except json.JSONDecodeError:
                return objects  # the end, or an object still being written
            objects += 1

    def stop(self) -> tuple[str, str]:
        self.process.terminate()
        self.process.wait(timeout=30)
        for thread in self._threads:
            thread.join(timeout=30)
        return "".join(self.lines), "".join(self.errors)


def _wait_for(condition: Callable[[], bool], what: Callable[[], str]) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"not within {DEADLINE:.0f} s: {what()}"
        time.sleep(0.05)


def _both_watching(plane: ControlPlane, mark: int, namespace: str) -> bool:
    return {"kubectl", "kubectl-crd"} <= _watching(plane, mark, namespace)


def _printed(records: int, real: _Watcher, mine: _Watcher) -> bool:
    return real.records() >= records and mine.records() >= records


def _counts(flags: list[str], real: _Watcher, mine: _Watcher) -> str:
    return (
        f"records of get -w {' '.join(flags)}: kubectl {real.records()}, ours {mine.records()}"
        f"\n--- kubectl\n{''.join(real.lines)}--- ours\n{''.join(mine.lines)}"
    )


def _watching(plane: ControlPlane, mark: int, namespace: str) -> set[str]:
    """Which tools (kubectl, kubectl-crd) have a CronTab watch open in ``namespace``."""
    return {
        event.get("userAgent", "").split("/")[0]
        for event in plane.audit_events(mark)
        if event.get("verb") == "watch"
        and event.get("stage") == "ResponseStarted"
        and event.get("objectRef", {}).get("resource") == "crontabs"
        and event.get("objectRef", {}).get("namespace") == namespace
    }


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
    running: list[tuple[list[str], int, _Watcher, _Watcher]] = []
    for ours, theirs, records in FLAG_SETS:
        # qualified: other tests install CronTab CRDs of other groups on the same server
        scope = [RESOURCE, "-n", namespace]
        mark = apiserver.audit_mark()
        real = _Watcher(
            [apiserver.kubectl_binary, "get", *scope, *theirs, *config], apiserver.env()
        )
        mine = _Watcher([*KUBECTL_CRD, "get", *scope, *ours, *config], apiserver.env())
        running.append((ours, records, real, mine))
        _wait_for(
            partial(_both_watching, apiserver, mark, namespace),
            partial(" ".join, ["both watches open: get -w", *ours]),
        )
    _apply(apiserver, namespace, "a-much-longer-name-than-the-others", "*/10 * * * *", 3)
    _apply(apiserver, namespace, "first", "0 1 * * *", 7)
    apiserver.kubectl("delete", RESOURCE, "second", "-n", namespace)
    for flags, records, real, mine in running:
        _wait_for(partial(_printed, records, real, mine), partial(_counts, flags, real, mine))
    problems: list[str] = []
    lines = 0
    for flags, records, real, mine in running:
        (their_text, _), (our_text, our_errors) = real.stop(), mine.stop()
        assert not our_errors.strip(), our_errors
        assert real.records() == records, (flags, their_text)  # no event beyond the three
        lines += len(their_text.splitlines())
        if not _same_but_ages(our_text, their_text):
            problems.append(
                f"get -w {' '.join(flags)}:\n--- kubectl\n{their_text}--- ours\n{our_text}"
            )
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
