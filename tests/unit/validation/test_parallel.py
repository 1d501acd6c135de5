"""``parallel.map_files``: forked workers, results in input order, failures surfaced."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from kubectl_crd.model.errors import InputError
from kubectl_crd.validation import parallel

pytestmark = pytest.mark.skipif(not parallel.can_fork(), reason="needs os.fork")


#: children this process had before the running test (under a whole-suite run, the
#: session's kube-apiserver and etcd): not the workers the test is about
_EARLIER: set[int] = set()


@pytest.fixture(autouse=True)
def _earlier_children() -> Iterator[None]:
    _EARLIER.clear()
    _EARLIER.update(_live_children())
    yield


def _children() -> set[int]:
    """The children the running test left, live or not yet reaped."""
    return _live_children() - _EARLIER


def _live_children() -> set[int]:
    """This process's live (not reaped) children, from /proc where there is one."""
    found = set()
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                found.add(int(entry))
    return found


def test_each_files_items_in_input_order_whatever_finishes_first() -> None:
    def work(path: str) -> list[str]:
        time.sleep(0.02 if int(path) % 3 == 0 else 0)  # some files take longer
        return [path, path + "!"]

    files = [str(i) for i in range(25)]
    results = list(parallel.map_files(files, work, 3))
    assert results == [item for path in files for item in (path, path + "!")]
    assert _children() == set()


def test_work_runs_in_other_processes() -> None:
    pids = set(parallel.map_files(["a", "b", "c", "d"], lambda _: [os.getpid()], 2))
    assert os.getpid() not in pids
    assert 1 <= len(pids) <= 2


def test_nothing_to_do_forks_nothing() -> None:
    assert list(parallel.map_files([], lambda path: [path], 4)) == []


def test_an_exception_in_a_worker_is_raised_in_the_parent_with_its_type() -> None:
    def work(path: str) -> list[str]:
        if path == "bad":
            raise InputError(f"cannot read {path}")
        return [path]

    with pytest.raises(InputError, match="cannot read bad"):
        list(parallel.map_files(["a", "bad", "c", "d"], work, 2))
    assert _children() == set()


def test_an_exception_that_does_not_pickle_comes_back_as_its_traceback() -> None:
    class Local(Exception):  # a local class cannot be pickled
        pass

    def work(path: str) -> list[str]:
        raise Local("no pickling")

    with pytest.raises(parallel.WorkerError, match="Local: no pickling"):
        list(parallel.map_files(["a"], work, 1))


def _dead(pid: int) -> bool:
    """Whether a child has exited (a zombie not reaped yet counts), from /proc; where
    there is none, after the 0.3 s that is enough on an idle machine."""
    if not os.path.isdir("/proc"):
        time.sleep(0.3)
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def _killed_by_fatal(path: str) -> list[str]:
    """A file's work that kills its worker process at the file named "fatal"."""
    if path == "fatal":
        os.kill(os.getpid(), signal.SIGKILL)
    return [path]


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(parallel.WorkerError, match="killed by signal 9"):
        list(parallel.map_files(["a", "fatal", "c", "d", "e"], _killed_by_fatal, 2))
    assert _children() == set()


def test_a_worker_dead_before_all_its_indexes_are_sent_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the second worker dies on its first file; the next index sent to it finds its
    # task pipe closed: that is the death reported, not a BrokenPipeError
    sent: list[int] = []
    fatal: list[int] = []  # the pid of the worker sent index 1 ("fatal")
    send = parallel._Worker.send

    def slow_send(worker: parallel._Worker, index: int) -> None:
        if index == 1:
            fatal.append(worker.pid)
        if len(sent) == 2:
            # both first indexes are in: wait until the fatal one has killed its worker
            # (a fixed 0.3 s was not always enough for a loaded machine to run it)
            deadline = time.monotonic() + 30
            while not _dead(fatal[0]):
                assert time.monotonic() < deadline, "the fatal worker did not die"
                time.sleep(0.005)
        sent.append(index)
        send(worker, index)

    monkeypatch.setattr(parallel._Worker, "send", slow_send)
    with pytest.raises(parallel.WorkerError, match="killed by signal 9"):
        list(parallel.map_files(["a", "fatal", "c", "d", "e"], _killed_by_fatal, 2))
    assert sent[:4] == [0, 1, 2, 3]
    assert _children() == set()


def test_stopping_early_stops_the_workers() -> None:
    def work(path: str) -> list[str]:
        time.sleep(0.01)
        return [path]

    results = parallel.map_files([str(i) for i in range(100)], work, 2)
    assert [next(results), next(results)] == ["0", "1"]
    results.close()
    assert _children() == set()
