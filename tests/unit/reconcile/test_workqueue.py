"""The work queue's semantics, as client-go's ``util/workqueue`` has them.

Time is a fake clock where the semantics are about time (delays, backoff, the token
bucket); threads are real where they are about concurrency (a key never processed by
two workers at once, a blocked ``get`` woken by an add).
"""

from __future__ import annotations

import threading
import time
from collections import Counter

import pytest

from kubectl_crd.reconcile.workqueue import (
    DEV_MAX_DELAY,
    BucketRateLimiter,
    ItemExponentialRateLimiter,
    MaxOfRateLimiter,
    WorkQueue,
    default_rate_limiter,
)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def drain(queue: WorkQueue[str]) -> list[str]:
    """Every key ready now, each marked done."""
    got = []
    while (item := queue.get(timeout=0)) is not None:
        got.append(item)
        queue.done(item)
    return got


# -- queue.go --------------------------------------------------------------------------


def test_adds_are_deduplicated_and_kept_in_order() -> None:
    queue: WorkQueue[str] = WorkQueue()
    for item in ("a", "b", "a", "c", "b", "a"):
        queue.add(item)
    assert len(queue) == 3
    assert drain(queue) == ["a", "b", "c"]
    assert queue.get(timeout=0) is None


def test_a_key_added_while_processing_is_handed_out_again_only_after_done() -> None:
    queue: WorkQueue[str] = WorkQueue()
    queue.add("a")
    assert queue.get(timeout=0) == "a"
    assert queue.processing() == {"a"}
    queue.add("a")
    queue.add("a")  # twice while in flight: still one more run
    assert len(queue) == 0
    assert queue.get(timeout=0) is None  # never handed to a second worker
    queue.done("a")
    assert queue.get(timeout=0) == "a"
    queue.done("a")
    assert queue.get(timeout=0) is None


def test_idle_means_nothing_ready_and_nothing_handed_out() -> None:
    queue: WorkQueue[str] = WorkQueue(clock=FakeClock())
    assert queue.idle()
    queue.add("a")
    assert not queue.idle()
    assert queue.get(timeout=0) == "a"
    assert not queue.idle() and len(queue) == 0  # handed out, not done
    queue.add("a")  # added while processing: done() queues it again
    queue.done("a")
    assert not queue.idle() and len(queue) == 1
    assert drain(queue) == ["a"]
    assert queue.idle()
    queue.add_after("b", 5)  # a waiting key is not work yet
    assert queue.idle()


def test_done_without_a_re_add_does_not_requeue() -> None:
    queue: WorkQueue[str] = WorkQueue()
    queue.add("a")
    item = queue.get(timeout=0)
    assert item == "a"
    queue.done(item)
    assert len(queue) == 0
    assert queue.processing() == frozenset()


def test_a_key_is_never_processed_by_two_threads_at_once() -> None:
    queue: WorkQueue[int] = WorkQueue()
    active: set[int] = set()
    overlaps = []
    runs: Counter[int] = Counter()
    lock = threading.Lock()

    def worker() -> None:
        while (item := queue.get()) is not None:
            with lock:
                if item in active:
                    overlaps.append(item)
                active.add(item)
                runs[item] += 1
            time.sleep(0.0005)
            with lock:
                active.discard(item)
            queue.done(item)

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for round_ in range(300):
        queue.add(round_ % 5)
        if round_ % 7 == 0:
            time.sleep(0.0005)
    # wait for the queue to empty, then stop the workers
    deadline = time.monotonic() + 10
    while (len(queue) or queue.processing()) and time.monotonic() < deadline:
        time.sleep(0.005)
    queue.shutdown()
    for thread in threads:
        thread.join(5)
    assert overlaps == []
    assert set(runs) == {0, 1, 2, 3, 4}
    # deduplication: 300 adds of 5 keys ran far fewer than 300 times
    assert sum(runs.values()) < 300


def test_shutdown_hands_out_what_is_queued_then_none_and_ignores_adds() -> None:
    queue: WorkQueue[str] = WorkQueue()
    queue.add("a")
    queue.add("b")
    queue.shutdown()
    queue.add("c")
    queue.add_after("d", 0.0)
    assert queue.shutting_down
    assert queue.get() == "a"
    assert queue.get() == "b"
    assert queue.get() is None  # no wait: shut down and empty


def test_shutdown_with_drain_waits_for_keys_in_flight() -> None:
    queue: WorkQueue[str] = WorkQueue()
    queue.add("a")
    assert queue.get(timeout=0) == "a"
    assert queue.shutdown(drain=True, timeout=0.05) is False  # still processing
    finished = []

    def finish() -> None:
        time.sleep(0.1)
        # the time taken before done(): taken after it, the drain's return could come
        # first (the waiting thread woken by done() ran before this one: 7 of 300 runs
        # with threads switching every microsecond)
        finished.append(time.monotonic())
        queue.done("a")

    thread = threading.Thread(target=finish)
    thread.start()
    assert queue.shutdown(drain=True, timeout=30) is True
    drained = time.monotonic()
    thread.join()
    assert finished and finished[0] <= drained


def test_an_abandoned_key_is_not_waited_for_by_idle_nor_a_drain() -> None:
    # --once gives up on a reconcile past its timeout (a thread cannot be killed)
    queue: WorkQueue[str] = WorkQueue()
    queue.add("a")
    queue.add("b")
    assert queue.get(timeout=0) == "a"
    assert queue.get(timeout=0) == "b"
    queue.abandon("a")
    assert not queue.idle()  # b still in flight
    queue.done("b")
    assert queue.idle()
    assert queue.processing() == {"a"}
    drained = threading.Thread(target=queue.shutdown, kwargs={"drain": True, "timeout": 30})
    drained.start()
    drained.join(30)
    assert not drained.is_alive()
    queue.done("a")
    assert queue.processing() == frozenset() and queue.idle()


def test_abandoning_the_last_key_in_flight_ends_a_drain_waiting_for_it() -> None:
    queue: WorkQueue[str] = WorkQueue()
    queue.add("a")
    assert queue.get(timeout=0) == "a"
    result: list[bool] = []
    waiting = threading.Thread(target=lambda: result.append(queue.shutdown(drain=True, timeout=30)))
    waiting.start()
    deadline = time.monotonic() + 30
    while not queue.shutting_down and time.monotonic() < deadline:  # the drain waits
        time.sleep(0.001)
    assert waiting.is_alive()  # for "a"
    queue.abandon("a")
    waiting.join(30)
    assert result == [True]


def test_a_blocked_get_wakes_on_add_and_on_shutdown() -> None:
    # the get's own timeout (60 s) is far beyond the bound asserted (30 s), which a
    # loaded machine cannot reach by scheduling alone (a 1 s bound of a 5 s timeout could)
    queue: WorkQueue[str] = WorkQueue()
    got: list[str | None] = []
    thread = threading.Thread(target=lambda: got.append(queue.get(timeout=60)))
    thread.start()
    time.sleep(0.05)  # most often blocked by now; an add before the get is handed out too
    queue.add("a")
    thread.join(30)
    assert got == ["a"]
    thread = threading.Thread(target=lambda: got.append(queue.get(timeout=60)))
    started = time.monotonic()
    thread.start()
    time.sleep(0.05)
    queue.shutdown()
    thread.join(30)
    assert got == ["a", None]
    assert time.monotonic() - started < 30


def test_get_with_a_timeout_returns_none_when_nothing_comes() -> None:
    queue: WorkQueue[str] = WorkQueue()
    started = time.monotonic()
    assert queue.get(timeout=0.05) is None
    assert 0.04 <= time.monotonic() - started < 30  # returns (a loaded machine: late)


# -- delaying_queue.go -----------------------------------------------------------------


def test_add_after_hands_the_key_out_once_it_is_due() -> None:
    clock = FakeClock()
    queue: WorkQueue[str] = WorkQueue(clock=clock)
    queue.add_after("a", 1.0)
    assert queue.waiting() == {"a": clock.now + 1.0}
    assert queue.get(timeout=0) is None
    clock.advance(0.999)
    assert queue.get(timeout=0) is None
    clock.advance(0.001)
    assert drain(queue) == ["a"]
    assert queue.waiting() == {}


def test_a_waiting_key_keeps_the_earlier_due_time_and_comes_once() -> None:
    clock = FakeClock()
    queue: WorkQueue[str] = WorkQueue(clock=clock)
    queue.add_after("a", 5.0)
    queue.add_after("a", 1.0)  # earlier: replaces
    queue.add_after("a", 3.0)  # later: ignored
    assert queue.waiting() == {"a": clock.now + 1.0}
    clock.advance(1.0)
    assert drain(queue) == ["a"]
    clock.advance(10.0)
    assert drain(queue) == []  # the superseded 5 s entry does not fire


def test_delayed_keys_come_in_due_order_and_dedup_with_plain_adds() -> None:
    clock = FakeClock()
    queue: WorkQueue[str] = WorkQueue(clock=clock)
    queue.add_after("late", 2.0)
    queue.add_after("early", 1.0)
    queue.add_after("now", 0.0)  # no delay: at once
    queue.add_after("neg", -1.0)
    assert drain(queue) == ["now", "neg"]
    queue.add("early")  # a plain add does not wait ...
    clock.advance(2.0)
    # ... and when its delayed entry comes due it is still queued: one run, not two
    assert drain(queue) == ["early", "late"]


def test_a_blocked_get_wakes_when_a_delayed_key_is_due() -> None:
    queue: WorkQueue[str] = WorkQueue()
    got: list[tuple[str | None, float]] = []
    started = time.monotonic()

    def take() -> None:
        got.append((queue.get(timeout=60), time.monotonic() - started))

    thread = threading.Thread(target=take)
    thread.start()
    time.sleep(0.02)
    queue.add_after("a", 0.1)  # the blocked get must shorten its wait (of 60 s)
    thread.join(30)
    assert got and got[0][0] == "a"
    assert 0.09 <= got[0][1] < 30


# -- rate limiters ---------------------------------------------------------------------


def test_item_exponential_doubles_from_5_ms_up_to_the_cap_and_forget_resets() -> None:
    limiter: ItemExponentialRateLimiter[str] = ItemExponentialRateLimiter()
    delays = [limiter.when("a") for _ in range(14)]
    assert delays[:4] == [0.005, 0.01, 0.02, 0.04]
    assert delays[11] == DEV_MAX_DELAY == 10.0  # 5 ms * 2**11 = 10.24 s, capped
    assert delays[10] == pytest.approx(5.12)
    assert delays[-1] == DEV_MAX_DELAY
    assert limiter.num_requeues("a") == 14
    assert limiter.when("b") == 0.005  # per key
    limiter.forget("a")
    assert limiter.num_requeues("a") == 0
    assert limiter.when("a") == 0.005


def test_item_exponential_does_not_overflow_after_many_failures() -> None:
    limiter: ItemExponentialRateLimiter[str] = ItemExponentialRateLimiter(cap=1000.0)
    for _ in range(1100):
        delay = limiter.when("a")
    assert delay == 1000.0


def test_token_bucket_allows_a_burst_of_100_then_10_per_second() -> None:
    clock = FakeClock()
    bucket: BucketRateLimiter[str] = BucketRateLimiter(clock=clock)
    assert [bucket.when(str(n)) for n in range(100)] == [0.0] * 100
    assert bucket.when("x") == pytest.approx(0.1)
    assert bucket.when("y") == pytest.approx(0.2)  # reservations queue up
    clock.advance(1.0)  # 10 tokens back: the debt of 2 paid, 8 left
    assert [bucket.when(str(n)) for n in range(8)] == [0.0] * 8
    assert bucket.when("z") == pytest.approx(0.1)
    clock.advance(1000.0)  # never more than the burst
    assert sum(bucket.when(str(n)) == 0.0 for n in range(150)) == 100


def test_default_limiter_is_the_larger_of_both() -> None:
    clock = FakeClock()
    limiter: MaxOfRateLimiter[str] = default_rate_limiter(clock=clock)
    # per-key backoff dominates while the bucket has tokens
    assert [limiter.when("a") for _ in range(3)] == [0.005, 0.01, 0.02]
    for n in range(97):
        limiter.when(f"k{n}")
    # the bucket is empty: a fresh key waits for a token (0.1 s), not 5 ms
    assert limiter.when("fresh") == pytest.approx(0.1)
    assert limiter.num_requeues("a") == 3
    limiter.forget("a")
    assert limiter.num_requeues("a") == 0


def test_add_rate_limited_backs_off_and_forget_starts_over() -> None:
    clock = FakeClock()
    queue: WorkQueue[str] = WorkQueue(clock=clock)
    for expected in (0.005, 0.01, 0.02, 0.04):
        assert queue.add_rate_limited("a") == expected
        assert queue.get(timeout=0) is None
        clock.advance(expected - 0.0001)
        assert queue.get(timeout=0) is None
        clock.advance(0.0001)
        assert drain(queue) == ["a"]
    assert queue.num_requeues("a") == 4
    queue.forget("a")
    assert queue.num_requeues("a") == 0
    assert queue.add_rate_limited("a") == 0.005


def test_shutdown_drops_waiting_keys() -> None:
    clock = FakeClock()
    queue: WorkQueue[str] = WorkQueue(clock=clock)
    queue.add_after("a", 1.0)
    queue.shutdown()
    clock.advance(2.0)
    assert queue.get(timeout=0) is None


def test_discard_waiting_drops_a_delayed_add() -> None:
    clock = FakeClock()
    queue: WorkQueue[str] = WorkQueue(clock=clock)
    queue.add_after("a", 1.0)
    queue.add_after("b", 1.0)
    queue.discard_waiting("a")
    clock.advance(1.0)
    assert drain(queue) == ["b"]
    queue.add_after("a", 1.0)  # a later delayed add works again
    clock.advance(1.0)
    assert drain(queue) == ["a"]
