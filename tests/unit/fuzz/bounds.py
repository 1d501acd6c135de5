"""What bounds every fuzz test: hypothesis settings, a wall-clock limit per call, and the
tally of cases run and time spent (``tally``) printed at the end of a run.

The property of every fuzz test is the same (issue 30): for any input, a result or a
clear error (a ``KubectlCrdError``, or a problem recorded in the result), never another
exception; and every call bounded in time. The per-example deadline is hypothesis's;
``bounded`` adds a hard stop (SIGALRM) so a hang fails the test instead of stalling the
run. ``FUZZ_EXAMPLES`` sizes every test; the default keeps the whole set under a minute
on CI's two cores (``KUBECTL_CRD_FUZZ_EXAMPLES`` raises it for a longer local run, and
``KUBECTL_CRD_FUZZ_RANDOM=1`` draws new cases instead of the fixed ones).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import wraps
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings

from kubectl_crd.model.errors import KubectlCrdError
from tests.unit.fuzz.tally import add

FUZZ_EXAMPLES = int(os.environ.get("KUBECTL_CRD_FUZZ_EXAMPLES", "150"))
#: a call slower than this fails as a hang; the deadlines per example (3-8 s) sit below it
#: and far above the slowest example seen (2.5 s, a 3 MB string at load 10), so that a
#: loaded CI machine does not make hypothesis report "unreliable test timings"
HANG_SECONDS = 10.0

F = TypeVar("F", bound=Callable[..., Any])


def fuzz_settings(examples: int = FUZZ_EXAMPLES, deadline_seconds: float = 3.0) -> settings:
    return settings(
        max_examples=examples,
        deadline=timedelta(seconds=deadline_seconds),
        # the same cases on every run (a failure is reproducible), unless a longer local
        # run asks for new ones with KUBECTL_CRD_FUZZ_RANDOM=1
        derandomize=os.environ.get("KUBECTL_CRD_FUZZ_RANDOM") != "1",
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


class Hang(Exception):
    """A call ran past ``HANG_SECONDS``."""


@contextmanager
def bounded(seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Raise ``Hang`` in the block if it runs longer than ``seconds`` (main thread only)."""

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def clear_error(exc: KubectlCrdError) -> None:
    """A clear error: a first line that says what is wrong (a hint may follow it, as
    explain's 'field "a" does not exist' is followed by why), naming no Python internals."""
    text = exc.kubectl_line
    first = text.strip().split("\n")[0]
    assert len(first) > len("error: "), text
    for internal in ("Traceback", "object has no attribute", "NoneType", "KeyError"):
        assert internal not in text, text


def tallied(test: F) -> F:
    """Count the examples a hypothesis test ran and the time they took."""

    @wraps(test)
    def counting(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            with bounded():
                return test(*args, **kwargs)
        finally:
            add(test.__name__, 1, time.perf_counter() - started)

    return counting  # type: ignore[return-value]
