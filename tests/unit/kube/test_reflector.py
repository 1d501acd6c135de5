"""The reflector's pure parts: client-go's backoff schedule, the watch timeout's range,
and what a relist reports. The loop itself runs against the real API server
(``tests/integration/test_resource_client.py``)."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kubectl_crd.kube.reflector import (
    WATCH_IDLE_SECONDS,
    Backoff,
    EventType,
    Reflector,
    watch_timeout_seconds,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_backoff_doubles_from_800ms_to_a_30s_cap_without_jitter_at_rand_0() -> None:
    clock = Clock()
    backoff = Backoff(random=lambda: 0.0, clock=clock)
    delays = []
    for _ in range(9):
        delays.append(backoff.next())
        clock.now += 1  # calls within two minutes of each other
    assert delays == pytest.approx([0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 30.0, 30.0, 30.0])


def test_backoff_jitter_draws_in_d_to_2d() -> None:
    clock = Clock()
    top = Backoff(random=lambda: 0.999999, clock=clock)
    assert [round(top.next(), 3) for _ in range(8)] == [
        1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 60.0, 60.0,
    ]  # fmt: skip


def test_backoff_starts_over_after_two_quiet_minutes() -> None:
    clock = Clock()
    backoff = Backoff(random=lambda: 0.0, clock=clock)
    assert [backoff.next() for _ in range(3)] == pytest.approx([0.8, 1.6, 3.2])
    clock.now += 120  # not more than two minutes: keeps growing
    assert backoff.next() == pytest.approx(6.4)
    clock.now += 120.5
    assert backoff.next() == pytest.approx(0.8)


@pytest.mark.parametrize(("draw", "seconds"), [(0.0, 300), (0.5, 450), (0.999999, 599)])
def test_watch_timeout_is_five_to_ten_minutes(draw: float, seconds: int) -> None:
    assert watch_timeout_seconds(lambda: draw) == seconds


def test_watch_timeout_with_the_real_random_stays_in_range() -> None:
    drawn = {watch_timeout_seconds() for _ in range(2000)}
    assert min(drawn) >= 300 and max(drawn) < 600
    assert len(drawn) > 100  # randomised, not one value


def _obj(name: str, version: str, namespace: str = "ns") -> dict[str, Any]:
    return {"metadata": {"name": name, "namespace": namespace, "resourceVersion": version}}


def test_a_relist_reports_new_changed_and_missing_objects() -> None:
    reflector = Reflector(None)  # type: ignore[arg-type]
    first = [_obj("a", "1"), _obj("b", "2"), _obj("a", "3", namespace="other")]
    assert [(e.type, e.key) for e in reflector._replace(first)] == [
        (EventType.ADDED, ("ns", "a")),
        (EventType.ADDED, ("ns", "b")),
        (EventType.ADDED, ("other", "a")),
    ]
    second = [_obj("a", "1"), _obj("b", "7"), _obj("c", "8")]
    events = [(e.type, e.key, e.object) for e in reflector._replace(second)]
    assert events == [
        (EventType.MODIFIED, ("ns", "b"), _obj("b", "7")),
        (EventType.ADDED, ("ns", "c"), _obj("c", "8")),
        # deleted while not watched: reported with the last state seen
        (EventType.DELETED, ("other", "a"), _obj("a", "3", namespace="other")),
    ]
    assert set(reflector.store) == {("ns", "a"), ("ns", "b"), ("ns", "c")}


def test_watch_events_move_the_store_and_the_resource_version() -> None:
    reflector = Reflector(None)  # type: ignore[arg-type]
    assert reflector._apply("ADDED", _obj("a", "5")) is not None
    assert reflector.resource_version == "5"
    assert reflector._apply("BOOKMARK", {"metadata": {"resourceVersion": "9"}}) is None
    assert reflector.resource_version == "9" and set(reflector.store) == {("ns", "a")}
    deleted = reflector._apply("DELETED", _obj("a", "11"))
    assert deleted is not None and deleted.type is EventType.DELETED
    assert reflector.store == {} and reflector.resource_version == "11"


def test_relist_versions_follow_client_go() -> None:
    reflector = Reflector(None)  # type: ignore[arg-type]
    assert reflector._relist_version() == "0"  # the first list: the watch cache
    reflector.resource_version = "42"
    assert reflector._relist_version() == "42"  # not older than the last seen
    reflector._version_unavailable = True
    assert reflector._relist_version() == ""  # gone: a consistent read


class _OneWatch:
    """A resource with one object whose watch records its arguments and stops the loop."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.watched: list[dict[str, Any]] = []

    def pages(self, **_: Any) -> Any:
        yield {"metadata": {"resourceVersion": "7"}, "items": [_obj("a", "7")]}

    def watch(self, **kwargs: Any) -> Any:
        self.watched.append(kwargs)
        self.stop.set()
        return _Closed()


class _Closed(list[Any]):
    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("options", "server_timeout", "read_timeout"),
    [
        # 300-600 s watches: the idle bound (bookmark minute + client-go's 45 s) decides
        ({}, 300, WATCH_IDLE_SECONDS),
        ({"idle_timeout": 3.0}, 300, 3.0),
        # a watch the server ends sooner than the idle bound: its end + the margin
        ({"min_watch_timeout": 2, "read_timeout_margin": 2}, 2, 4),
    ],
)
def test_the_watch_read_deadline_is_the_idle_bound_or_the_servers_end(
    options: dict[str, Any], server_timeout: int, read_timeout: float
) -> None:
    stop = threading.Event()
    resource = _OneWatch(stop)
    reflector = Reflector(resource, stop=stop, random=lambda: 0.0, **options)  # type: ignore[arg-type]
    list(reflector.events())
    assert [(w["timeout_seconds"], w["read_timeout"]) for w in resource.watched] == [
        (server_timeout, read_timeout)
    ]
    assert resource.watched[0]["resource_version"] == "7"
    assert resource.watched[0]["allow_bookmarks"] is True


def test_the_idle_bound_is_over_a_bookmark_minute_and_under_the_shortest_watch() -> None:
    assert 60 < WATCH_IDLE_SECONDS < watch_timeout_seconds(lambda: 0.0)
