"""``kubectl crd dev --local DIR`` while DIR's files are edited concurrently (issue 30).

The real process on dev_bench's Gizmo operator (each Gizmo owns a ConfigMap holding its
``spec.n`` and gets ``status.ready = spec.n``), with ``--out`` as the window on its
store. Four writer threads edit DIR at once for a few seconds: rewrite a file's objects
with new values (half the saves in place in two pieces, as an editor without atomic
saves does, so that the loop may read a file half written), create files, delete files,
rename files (an object changes file), and save a broken file then mend it; meanwhile
the reconciler is saved again every second (a hot reload each time); last, half the
files are renamed to names that sort first (fails before e22fa24: the objects were
deleted while the renamed files held them). The loop must
reconcile while the writers run (not only once they stop). Then, within a
bounded time: the objects the loop holds (``--out``'s Gizmos and ConfigMaps) are exactly
the objects the files on disk hold, each reconciled at its last value on disk; the
process is alive, printed no traceback, and ends with exit 0 on SIGINT.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from bench.dev_bench import GROUP, OPEN, OURS_RECONCILER
from tests.crd_factory import make_crd

WRITERS = 4
SECONDS = 8.0

# "n" quoted: a bare n is the boolean false in YAML 1.1, as kubectl and the server read it
GIZMO = """\
apiVersion: bench.example.com/v1
kind: Gizmo
metadata:
  name: {name}
spec:
  "n": {n}
"""


class Writer(threading.Thread):
    """Edits its own files in DIR (names ``w<id>-<k>.yaml``, objects ``w<id>-<k>-<j>``)."""

    def __init__(self, directory: Path, index: int, counter: Any, stop: threading.Event):
        super().__init__(daemon=True)
        self.directory, self.index, self.counter, self.stop = directory, index, counter, stop
        self.rng = random.Random(index)
        self.files: dict[str, list[str]] = {}  # file name -> object names
        self.made = 0
        self.done: Counter[str] = Counter()

    def _objects(self, names: list[str]) -> str:
        return "---\n".join(GIZMO.format(name=name, n=next(self.counter)) for name in names)

    def _save(self, file: str, text: str) -> None:
        path = self.directory / file
        if self.rng.random() < 0.5:
            # in place, in two pieces: the loop may read the first half alone
            with path.open("w") as out:
                out.write(text[: len(text) // 2])
                out.flush()
                time.sleep(0.005)
                out.write(text[len(text) // 2 :])
        else:
            temporary = self.directory / f".{file}.tmp"
            temporary.write_text(text)
            os.replace(temporary, path)

    def run(self) -> None:
        while not self.stop.is_set():
            action = self.rng.choice(
                ["create", "edit", "edit", "edit", "delete", "rename", "broken"]
                if self.files
                else ["create"]
            )
            if action == "create":
                self.made += 1
                file = f"w{self.index}-{self.made}.yaml"
                names = [f"w{self.index}-{self.made}-{j}" for j in range(self.rng.randint(1, 3))]
                self._save(file, self._objects(names))
                self.files[file] = names
            else:
                file = self.rng.choice(sorted(self.files))
                if action == "edit":
                    self._save(file, self._objects(self.files[file]))
                elif action == "delete":
                    (self.directory / file).unlink()
                    del self.files[file]
                elif action == "rename":
                    self.made += 1
                    new = f"w{self.index}-{self.made}.yaml"
                    os.rename(self.directory / file, self.directory / new)
                    self.files[new] = self.files.pop(file)
                else:  # a save in the middle of an edit, then the file as it should be
                    self._save(file, "apiVersion: bench.example.com/v1\nkind: [Gizmo\n")
                    time.sleep(0.05)
                    self._save(file, self._objects(self.files[file]))
            self.done[action] += 1
            self.stop.wait(self.rng.uniform(0.01, 0.08))
        # last, half the files renamed to names that sort first ("a-..."), and not edited
        # again: the new name is read before the old one is found gone
        for file in sorted(self.files)[::2]:
            os.rename(self.directory / file, self.directory / f"a-{file}")
            self.files[f"a-{file}"] = self.files.pop(file)
            self.done["final rename"] += 1


def _on_disk(directory: Path) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in directory.glob("*.yaml"):
        for document in yaml.safe_load_all(path.read_text()):
            found[document["metadata"]["name"]] = document["spec"]["n"]
    return found


def _held(out: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The loop's Gizmos (status.ready) and ConfigMaps (data.n), from ``--out`` (a file
    may go between the listing and the reading: the loop removes what was deleted)."""

    def read(kind: str) -> dict[str, Any]:
        found = {}
        for path in (out / "default" / kind).glob("*.yaml"):
            try:
                found[path.stem] = yaml.safe_load(path.read_text()) or {}
            except FileNotFoundError:
                continue
        return found

    ready = {
        name: ((obj.get("status") or {}).get("ready"), obj.get("spec") or {})
        for name, obj in read(f"gizmo.{GROUP}").items()
    }
    children = {name: (obj.get("data") or {}).get("n") for name, obj in read("configmap").items()}
    return ready, children


def test_the_local_store_follows_concurrent_edits_of_its_files(tmp_path: Path) -> None:
    directory, out = tmp_path / "dir", tmp_path / "out"
    directory.mkdir()
    crd = make_crd(
        "Gizmo", GROUP, schema={"type": "object", "properties": {"spec": OPEN, "status": OPEN}}
    )
    crd["spec"]["versions"][0]["subresources"] = {"status": {}}
    (directory / "crd.json").write_text(json.dumps(crd))
    reconciler = tmp_path / "reconciler.py"
    reconciler.write_text(OURS_RECONCILER)
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("kubectl-crd")), "dev", str(reconciler),
            "--local", str(directory), "--out", str(out), "--log-format", "json",
            "--no-dashboard",
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "HOME": str(tmp_path), "NO_COLOR": "1"},
    )  # fmt: skip
    events: Counter[str] = Counter()
    reconciled_at: list[float] = []  # each ReconcileFinished's own time (the loop's clock)
    internal: list[str] = []
    stderr: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            event = json.loads(line)
            events[event["event"]] += 1
            if event["event"] == "ReconcileFinished":
                reconciled_at.append(event["time"])
            # the writers start once DIR is watched: the line comes after the observer
            # is armed (WatchSynced comes before it, and files created between the two
            # were never seen)
            if event["event"] == "note" and event["message"].startswith("watching "):
                started.set()
            if "internal error" in str(event.get("error", "")):
                internal.append(line)

    def read_errors() -> None:
        assert proc.stderr is not None
        stderr.extend(proc.stderr)

    readers = [threading.Thread(target=read, daemon=True)]
    readers.append(threading.Thread(target=read_errors, daemon=True))
    for reader in readers:
        reader.start()
    try:
        assert started.wait(30), stderr
        counter = iter(range(1, 10**9))
        lock = threading.Lock()

        def next_n() -> int:
            with lock:
                return next(counter)

        class Counting:
            def __next__(self) -> int:
                return next_n()

        stop = threading.Event()
        writers = [Writer(directory, i, Counting(), stop) for i in range(WRITERS)]
        for writer in writers:
            writer.start()
        reloads = 0
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline:
            time.sleep(1)
            reloads += 1
            reconciler.write_text(OURS_RECONCILER + f"\nSAVED = {reloads}\n")
        # which reconciles ran while the writers did is read from each event's time (the
        # wall clock, as the loop's "time" field), once every line is read: counting the
        # lines read so far at this point also depended on how far this process's reader
        # thread had got, behind the loop's output on a loaded machine
        stopped_at = time.time()
        stop.set()
        for writer in writers:
            writer.join(10)
        disk = _on_disk(directory)
        assert len(disk) >= 10

        def settled() -> bool:
            ready, children = _held(out)
            return {name: value[0] for name, value in ready.items()} == disk and children == {
                name: str(n) for name, n in disk.items()
            }

        limit = time.monotonic() + 60
        while not settled():
            assert proc.poll() is None, f"the loop died: {proc.returncode} {stderr[-20:]}"
            if time.monotonic() > limit:
                ready, children = _held(out)
                wrong = {
                    name: (n, ready.get(name), children.get(name))
                    for name, n in disk.items()
                    if ready.get(name, (None,))[0] != n or children.get(name) != str(n)
                }
                extra = set(ready) - set(disk)
                raise AssertionError(f"not converged in 60 s: {wrong=} {extra=}")
            time.sleep(0.5)
        assert proc.poll() is None
        done = sum((w.done for w in writers), Counter())
        print(
            f"local concurrent edits: {dict(done)}, {len(disk)} objects at the end, "
            f"{reloads} reconciler saves"
        )
        assert all(done[kind] >= 1 for kind in ("create", "edit", "delete", "rename", "broken"))
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
        for reader in readers:
            reader.join(30)
        during = sum(1 for at in reconciled_at if at < stopped_at)
        print(
            f"{events['ReloadSucceeded']} reloads, {events['ReconcileFinished']} reconciles "
            f"({during} while the writers ran)"
        )
        # the loop kept up while the files changed (it once waited for a pause in the
        # saves that never came: io.filewatch's batches now end after max_wait)
        assert during >= 10, during
        assert events["ReloadSucceeded"] >= 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert internal == []
    assert not [line for line in stderr if "Traceback" in line], "".join(stderr[-40:])
