"""Files validated by several processes at once (``kubectl crd validate -j N``).

Validation is CPU-bound Python, so threads would not help; processes do: on a 2-core
machine two processes validate 8,000 resources in 3.5 s against 6.3 s for one. The
CRD index and the reader are set up once in the parent and inherited by ``fork``ed
workers (nothing to pickle but results); each worker handles whole files, and the
results come back in input order as they are ready, so printing streams as with one
process. Where ``fork`` does not exist (Windows), or for stdin, the caller validates
in-process. ``map_files`` is the general form (``get -f`` renders its objects with it).

The workers are plain ``os.fork`` children fed through pipes, not a
``multiprocessing.Pool``: importing multiprocessing, starting a pool's threads and
its per-task bookkeeping cost the parent ~70 ms of CPU in a ``get -f`` of 10,000
objects on 2 CPUs, CPU the workers needed. Each worker is handed the index of its
next file while it works on the current one; its results come back pickled, framed
by the file's index and their length. A worker that dies (a signal, a crash in a
native library) is an error, not a hang.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import struct
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from kubectl_crd.io.documents import Document
from kubectl_crd.validation.documents import CRDIndex, DocumentResult, validate_located

T = TypeVar("T")

#: A task: the index of a file (4 bytes, unsigned; a single write, so it arrives whole)
_TASK = struct.Struct("<I")
#: A result's frame: the file's index, whether the work raised, the payload's length
_FRAME = struct.Struct("<I?Q")
#: Files handed to a worker before it has answered for the first
_IN_FLIGHT = 2


#: From this many bytes of input on, ``validate`` without ``-j`` uses workers (one per
#: idle CPU). From ``bench/validate_jobs_bench.py``'s CPU columns (224 CRDs, resources
#: of ~600 bytes): one process spends ~0.8 ms a resource; workers add ~0.25 s in all
#: (the forked workers copy the pages of the CRD index they touch) and ~0.3 ms a
#: resource (results pickled back), so two idle CPUs win from ~500 resources (~300 KB),
#: four from ~120. Bytes, not files: a corpus file holds 1 to 100 resources.
MIN_BYTES_FOR_WORKERS = 256 * 1024


def can_fork() -> bool:
    return hasattr(os, "fork")


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def idle_cpus() -> int:
    """The usable CPUs that other work does not keep busy: their number less the whole
    part of the last minute's load average (at least 1). Workers cost about a quarter
    more CPU in all than one process (results pickled, pages copied after the fork), so
    on CPUs kept busy by other work they are slower, not faster (the bench's rows at
    load 5 to 7 on 2 CPUs)."""
    cpus = usable_cpus()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows; or no load average to read
        return cpus
    return max(1, min(cpus, cpus - int(load)))


def workers_for(files: int, size: int, jobs: int | None) -> int:
    """How many processes validate ``files`` files of ``size`` bytes in all: ``jobs`` when
    given (0: one per usable CPU); by default one per idle CPU from
    ``MIN_BYTES_FOR_WORKERS`` on, else one; never more than there are files."""
    if jobs is None:
        jobs = idle_cpus() if size >= MIN_BYTES_FOR_WORKERS else 1
    elif jobs == 0:
        jobs = usable_cpus()
    return max(1, min(jobs, files))


class WorkerError(RuntimeError):
    """A worker process ended without answering for the files it was given."""


def map_files(paths: Iterable[str], work: Callable[[str], list[T]], jobs: int) -> Iterator[T]:
    """``work(path)`` for every path, ``jobs`` forked processes at once; the items of
    each file's list in input order, as they are ready. ``work`` and what it closes over
    are inherited by the workers; only file indexes and results cross between
    processes. An exception ``work`` raises in a worker is raised here."""
    files = list(paths)
    if not files:
        return
    workers: list[_Worker] = []
    try:
        for _ in range(min(jobs, len(files))):
            workers.append(_start(files, work, workers))
        yield from _gather(files, workers)
    finally:
        for worker in workers:
            worker.stop()


class _Worker:
    """A forked worker as the parent sees it: where it is sent indexes and read from."""

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid = pid
        self.tasks = tasks
        self.results = results
        self.pending: list[int] = []  # indexes sent and not answered yet, in order
        self.buffer = bytearray()

    def send(self, index: int) -> None:
        self.pending.append(index)
        # a worker gone (it can die before the first indexes are all sent) ends its
        # results pipe with this index pending, and _gather says why
        with contextlib.suppress(BrokenPipeError):
            os.write(self.tasks, _TASK.pack(index))

    def frames(self) -> Iterator[tuple[int, bool, bytes]]:
        """The complete frames in the buffer, taken out of it."""
        while len(self.buffer) >= _FRAME.size:
            index, failed, size = _FRAME.unpack_from(self.buffer)
            end = _FRAME.size + size
            if len(self.buffer) < end:
                return
            payload = bytes(self.buffer[_FRAME.size : end])
            del self.buffer[:end]
            yield index, failed, payload

    def stop(self) -> None:
        """No more tasks; then the worker is waited for (killed if it has work left)."""
        for descriptor in (self.tasks, self.results):
            with contextlib.suppress(OSError):
                os.close(descriptor)
        if self.pending:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGTERM)  # the parent stopped early
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _start(files: list[str], work: Callable[[str], list[Any]], others: list[_Worker]) -> _Worker:
    task_read, task_write = os.pipe()
    result_read, result_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: never returns
        os.close(task_write)
        os.close(result_read)
        for other in others:
            # a copy of another worker's task pipe kept open here would keep that
            # worker from ever seeing the end of its tasks
            os.close(other.tasks)
            os.close(other.results)
        _serve(files, work, task_read, result_write)
    os.close(task_read)
    os.close(result_write)
    return _Worker(pid, task_write, result_read)


def _serve(files: list[str], work: Callable[[str], list[Any]], tasks: int, results: int) -> None:
    """A worker's life: each index read, its file's work written back, until the
    parent closes the task pipe. Ends the process (``os._exit``: the parent's atexit
    handlers and buffered output are the parent's, never flushed twice)."""
    import pickle

    code = 0
    try:
        # Ctrl-C reaches the whole process group: the parent stops the workers
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        while True:
            raw = _read_exactly(tasks, _TASK.size)
            if raw is None:
                break
            (index,) = _TASK.unpack(raw)
            try:
                payload = pickle.dumps(work(files[index]), pickle.HIGHEST_PROTOCOL)
                failed = False
            except BaseException as exc:  # handed to the parent to raise
                payload = _pickled_error(exc)
                failed = True
            _write_all(results, _FRAME.pack(index, failed, len(payload)) + payload)
    except BaseException:  # a broken pipe: the parent is gone
        code = 1
    finally:
        os._exit(code)


def _pickled_error(exc: BaseException) -> bytes:
    import pickle
    import traceback

    try:
        return pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
    except Exception:  # an exception that does not pickle
        text = "".join(traceback.format_exception(exc)).rstrip()
        return pickle.dumps(WorkerError(text), pickle.HIGHEST_PROTOCOL)


def _read_exactly(descriptor: int, size: int) -> bytes | None:
    """``size`` bytes, or None at the end of the pipe."""
    data = b""
    while len(data) < size:
        chunk = os.read(descriptor, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _gather(files: list[str], workers: list[_Worker]) -> Iterator[Any]:
    """Hand out the indexes, read the frames, yield the results in input order."""
    import pickle

    following = 0  # the next index to hand out
    for _ in range(_IN_FLIGHT):
        for worker in workers:
            if following < len(files):
                worker.send(following)
                following += 1
    done: dict[int, list[Any]] = {}
    wanted = 0  # the next index to yield
    with selectors.DefaultSelector() as selector:
        for worker in workers:
            selector.register(worker.results, selectors.EVENT_READ, worker)
        while wanted < len(files):
            for key, _ in selector.select():
                worker = key.data
                chunk = os.read(worker.results, 1 << 20)
                if not chunk:
                    selector.unregister(worker.results)
                    if worker.pending:
                        raise WorkerError(_death(worker))
                    continue
                worker.buffer += chunk
                for index, failed, payload in worker.frames():
                    worker.pending.remove(index)
                    if following < len(files):
                        worker.send(following)
                        following += 1
                    value = pickle.loads(payload)
                    if failed:
                        raise value
                    done[index] = value
            while wanted in done:
                yield from done.pop(wanted)
                wanted += 1


def _death(worker: _Worker) -> str:
    """Why a worker stopped answering: its exit status, once it is reaped."""
    try:
        _, status = os.waitpid(worker.pid, 0)
    except ChildProcessError:
        return "a worker process ended unexpectedly"
    worker.pending = []  # reaped: nothing left to stop
    if os.WIFSIGNALED(status):
        return f"a worker process was killed by signal {os.WTERMSIG(status)}"
    return f"a worker process exited with status {os.WEXITSTATUS(status)} before it was done"


def validate_files(
    paths: Iterable[str],
    read: Callable[[str], Iterable[Document]],
    index: CRDIndex,
    jobs: int,
    **options: Any,
) -> Iterator[DocumentResult]:
    """``validate_document`` on every document of every file, ``jobs`` processes at once."""
    keep_stored = options.pop("keep_stored", False)

    def validate_file(path: str) -> list[DocumentResult]:
        results = []
        for document in read(path):
            result = validate_located(document, index, **options)
            # the stored object is the bulk of a result; only -o yaml prints it
            results.append(result if keep_stored else replace(result, stored=None))
        return results

    return map_files(paths, validate_file, jobs)
