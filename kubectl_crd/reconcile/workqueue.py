"""client-go's work queue: deduplicating, never concurrent per key, delayed, rate-limited.

Mirrors ``k8s.io/client-go/util/workqueue``:

- ``queue.go``: a FIFO with a *dirty* set (keys waiting to be processed) and a
  *processing* set (keys handed out by ``get`` and not yet ``done``). ``add`` of a key
  already dirty does nothing (deduplication); ``add`` of a key being processed only
  marks it dirty, and ``done`` puts it back in the queue: a key changed while it is
  reconciled is reconciled once more afterwards, never by two workers at once.
  After ``shutdown`` adds are ignored; ``get`` still hands out what is queued, then
  answers ``None``.
- ``delaying_queue.go``: ``add_after(key, seconds)`` keeps the key in a heap until it is
  due; a key already waiting keeps the earlier of its two due times. client-go runs a
  goroutine for the heap; here ``get`` moves due keys into the queue itself and sleeps
  no longer than until the next one is due, so there is no extra thread and a test
  drives time with an injected clock (and ``get(timeout=0)``).
- ``rate_limiting_queue.go``: ``add_rate_limited`` = ``add_after(key,
  limiter.when(key))``; ``forget`` clears the key's failures; ``num_requeues``.
- ``default_rate_limiters.go``: ``DefaultTypedControllerRateLimiter`` is the larger of
  a per-key exponential (5 ms doubling per failure) and an overall token bucket (10 per
  second, burst 100). Upstream caps the exponential at 1000 s; the dev loop caps it at
  ``DEV_MAX_DELAY`` (10 s): a developer fixing a failing reconcile should not wait a
  quarter of an hour for the retry (5 ms doubles to 10.24 s at the 12th failure, so a
  key that keeps failing is retried every 10 s). A hot reload forgets every key's
  failures (``Controller.swap``), so new code is tried at once.

Pure standard library; thread-safe (one lock and condition).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections import deque
from typing import Generic, Protocol, TypeVar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

K = TypeVar("K", bound="Hashable")
K_contra = TypeVar("K_contra", bound="Hashable", contravariant=True)


class RateLimiter(Protocol[K_contra]):
    """client-go's ``TypedRateLimiter``."""

    def when(self, item: K_contra) -> float:
        """Seconds to wait before ``item`` is retried (counts one more failure)."""

    def forget(self, item: K_contra) -> None:
        """``item`` succeeded: its failures are cleared."""

    def num_requeues(self, item: K_contra) -> int:
        """How many times in a row ``item`` failed."""


__all__ = [
    "DEV_MAX_DELAY",
    "BucketRateLimiter",
    "ItemExponentialRateLimiter",
    "MaxOfRateLimiter",
    "RateLimiter",
    "WorkQueue",
    "default_rate_limiter",
]

#: default_rate_limiters.go: the per-item exponential's base delay
BASE_DELAY = 0.005
#: the dev loop's cap on the per-item exponential (upstream: 1000 s); see the docstring
DEV_MAX_DELAY = 10.0
#: default_rate_limiters.go: rate.NewLimiter(rate.Limit(10), 100)
BUCKET_QPS = 10.0
BUCKET_BURST = 100


class ItemExponentialRateLimiter(Generic[K]):
    """``ItemExponentialFailureRateLimiter``: ``base * 2**failures``, capped at ``cap``."""

    def __init__(self, base: float = BASE_DELAY, cap: float = DEV_MAX_DELAY) -> None:
        self.base = base
        self.cap = cap
        self._failures: dict[K, int] = {}
        self._lock = threading.Lock()

    def when(self, item: K) -> float:
        with self._lock:
            exponent = self._failures.get(item, 0)
            self._failures[item] = exponent + 1
        if exponent >= 1024:  # 2.0 ** 1024 overflows; upstream returns the cap too
            return self.cap
        return min(self.base * 2.0**exponent, self.cap)

    def forget(self, item: K) -> None:
        with self._lock:
            self._failures.pop(item, None)

    def num_requeues(self, item: K) -> int:
        with self._lock:
            return self._failures.get(item, 0)


class BucketRateLimiter(Generic[K]):
    """``BucketRateLimiter`` over ``golang.org/x/time/rate``'s token bucket: ``burst``
    tokens, refilled at ``qps`` per second; each ``when`` reserves one token and answers
    how long until it is there (tokens go negative: reservations queue up). Overall, not
    per item, so ``forget`` and ``num_requeues`` do nothing."""

    def __init__(
        self,
        qps: float = BUCKET_QPS,
        burst: int = BUCKET_BURST,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.qps = qps
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self._lock = threading.Lock()

    def when(self, item: K) -> float:
        with self._lock:
            now = self._clock()
            elapsed = max(0.0, now - self._last)
            self._last = now
            self._tokens = min(float(self.burst), self._tokens + elapsed * self.qps)
            self._tokens -= 1.0
            return 0.0 if self._tokens >= 0 else -self._tokens / self.qps

    def forget(self, item: K) -> None:
        return None

    def num_requeues(self, item: K) -> int:
        return 0


class MaxOfRateLimiter(Generic[K]):
    """``MaxOfRateLimiter``: the longest wait of its limiters; forgets in each."""

    def __init__(self, *limiters: RateLimiter[K]) -> None:
        self.limiters = limiters

    def when(self, item: K) -> float:
        # every limiter is asked (each counts the failure or takes a token)
        return max(limiter.when(item) for limiter in self.limiters)

    def forget(self, item: K) -> None:
        for limiter in self.limiters:
            limiter.forget(item)

    def num_requeues(self, item: K) -> int:
        return max(limiter.num_requeues(item) for limiter in self.limiters)


def default_rate_limiter(
    *, max_delay: float = DEV_MAX_DELAY, clock: Callable[[], float] = time.monotonic
) -> MaxOfRateLimiter[K]:
    """``DefaultTypedControllerRateLimiter`` with the dev cap: max(exponential 5 ms ..
    ``max_delay``, token bucket 10 qps burst 100)."""
    return MaxOfRateLimiter(
        ItemExponentialRateLimiter(BASE_DELAY, max_delay),
        BucketRateLimiter(BUCKET_QPS, BUCKET_BURST, clock=clock),
    )


class WorkQueue(Generic[K]):
    """The rate-limited delaying queue of keys (see the module docstring).

    ``get`` returns the next key (now in *processing*) or ``None`` once the queue is shut
    down and empty, or when ``timeout`` seconds pass with nothing due; every key ``get``
    returns must be given back with ``done``.
    """

    def __init__(
        self,
        rate_limiter: RateLimiter[K] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self.rate_limiter: RateLimiter[K] = rate_limiter or default_rate_limiter(clock=clock)
        self._queue: deque[K] = deque()
        self._dirty: set[K] = set()
        self._processing: set[K] = set()
        #: keys handed out that ``idle`` and a drain no longer wait for (``abandon``)
        self._abandoned: set[K] = set()
        #: delaying_queue.go waitingForQueue: (due, sequence, key), and each key's due
        self._waiting: list[tuple[float, int, K]] = []
        self._due: dict[K, float] = {}
        self._sequence = itertools.count()
        self._shutting_down = False
        self._cond = threading.Condition()

    # -- queue.go ----------------------------------------------------------------------

    def add(self, item: K) -> None:
        with self._cond:
            self._add(item)

    def _add(self, item: K) -> None:
        if self._shutting_down or item in self._dirty:
            return
        self._dirty.add(item)
        if item in self._processing:
            return  # done() queues it again
        self._queue.append(item)
        self._cond.notify()

    def get(self, timeout: float | None = None) -> K | None:
        """The next key, or ``None`` (shut down and empty, or ``timeout`` passed)."""
        deadline = None if timeout is None else self._clock() + timeout
        with self._cond:
            while True:
                next_due = self._move_due()
                if self._queue:
                    item = self._queue.popleft()
                    self._processing.add(item)
                    self._dirty.discard(item)
                    return item
                if self._shutting_down:
                    return None
                now = self._clock()
                wait = None if deadline is None else deadline - now
                if wait is not None and wait <= 0:
                    return None
                if next_due is not None:
                    until_due = max(0.0, next_due - now)
                    wait = until_due if wait is None else min(wait, until_due)
                self._cond.wait(wait)

    def done(self, item: K) -> None:
        """``item`` is processed; queued again if it was added meanwhile."""
        with self._cond:
            self._processing.discard(item)
            self._abandoned.discard(item)
            if item in self._dirty:
                self._queue.append(item)
                self._cond.notify()
            elif self._processing <= self._abandoned:
                self._cond.notify_all()  # shutdown(drain=True) waits for this

    def shutdown(self, *, drain: bool = False, timeout: float | None = None) -> bool:
        """No more adds; waiting ``get``s return. With ``drain``, wait (up to
        ``timeout``) until every key handed out is ``done`` (``ShutDownWithDrain``) or
        abandoned; False if some were still processing then."""
        with self._cond:
            self._shutting_down = True
            self._waiting.clear()
            self._due.clear()
            self._cond.notify_all()
            if drain:
                self._cond.wait_for(lambda: self._processing <= self._abandoned, timeout)
            return self._processing <= self._abandoned

    @property
    def shutting_down(self) -> bool:
        with self._cond:
            return self._shutting_down

    def __len__(self) -> int:
        """Keys ready to be handed out (not the waiting nor the processing ones)."""
        with self._cond:
            return len(self._queue)

    def idle(self) -> bool:
        """Nothing ready and nothing handed out (the waiting and abandoned keys aside),
        in one look: ``len`` and ``processing`` one after the other miss a key that
        ``done`` queues again between them."""
        with self._cond:
            return not self._queue and self._processing <= self._abandoned

    def abandon(self, item: K) -> None:
        """No longer wait for ``item``, handed out: ``idle`` and ``shutdown(drain=True)``
        leave it out until it is ``done``. Not in client-go: the dev loop's ``--once``
        gives up on a reconcile past ``--reconcile-timeout``, whose thread cannot be
        killed (a reconciler that never returns would hold the run forever)."""
        with self._cond:
            if item in self._processing:
                self._abandoned.add(item)
                self._cond.notify_all()  # a drain waiting for it alone is over

    def processing(self) -> frozenset[K]:
        with self._cond:
            return frozenset(self._processing)

    def waiting(self) -> dict[K, float]:
        """Keys added with a delay and not yet due, with their due time."""
        with self._cond:
            return dict(self._due)

    # -- delaying_queue.go -------------------------------------------------------------

    def add_after(self, item: K, delay: float) -> None:
        """``item`` added once ``delay`` seconds have passed (now when ``delay <= 0``);
        a key already waiting keeps the earlier due time."""
        with self._cond:
            if self._shutting_down:
                return
            if delay <= 0:
                self._add(item)
                return
            due = self._clock() + delay
            known = self._due.get(item)
            if known is not None and known <= due:
                return
            self._due[item] = due
            heapq.heappush(self._waiting, (due, next(self._sequence), item))
            self._cond.notify()  # a waiting get() may have to wake earlier

    def discard_waiting(self, item: K) -> None:
        """Drop ``item``'s delayed add, if any (not in client-go: the dev loop's swap
        adds every key at once and has no use for the old code's retry)."""
        with self._cond:
            self._due.pop(item, None)  # its heap entry is skipped as superseded

    def _move_due(self) -> float | None:
        """Queue the keys that are due; the next due time of the rest (lock held)."""
        now = self._clock()
        while self._waiting:
            due, _, item = self._waiting[0]
            if self._due.get(item) != due:  # superseded by an earlier due time
                heapq.heappop(self._waiting)
                continue
            if due > now:
                return due
            heapq.heappop(self._waiting)
            del self._due[item]
            self._add(item)
        return None

    # -- rate_limiting_queue.go --------------------------------------------------------

    def add_rate_limited(self, item: K) -> float:
        """``item`` added after the rate limiter's delay (one more failure); the delay."""
        delay = self.rate_limiter.when(item)
        self.add_after(item, delay)
        return delay

    def forget(self, item: K) -> None:
        """``item`` succeeded (or will not be retried): its failures are cleared."""
        self.rate_limiter.forget(item)

    def num_requeues(self, item: K) -> int:
        return self.rate_limiter.num_requeues(item)
