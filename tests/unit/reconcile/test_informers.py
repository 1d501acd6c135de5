"""Informers and their cache, on a scripted backend (``fakes.FakeBackend``)."""

from __future__ import annotations

import threading
import time
from typing import Any

from kubectl_crd.model.schema import copy_json
from kubectl_crd.reconcile.events import WatchError, WatchStarted, WatchStopped, WatchSynced
from kubectl_crd.reconcile.informers import Cache, Informer
from tests.unit.reconcile.fakes import CONFIGMAPS, FakeBackend, configmap


class Recorder:
    def __init__(self, informer_cache: list[Cache] | None = None) -> None:
        self.seen: list[tuple[str, str, bool]] = []
        self.fail_on: str = ""
        self.lock = threading.Lock()

    def _note(self, what: str, informer: Informer, obj: dict[str, Any]) -> None:
        name = obj["metadata"]["name"]
        if name == self.fail_on:
            raise RuntimeError("handler bug")
        key = (obj["metadata"]["namespace"], name)
        with self.lock:
            # the cache already holds the change when a handler hears of it
            self.seen.append((what, name, informer.cache.peek(key) is not None))

    def on_add(self, informer: Informer, obj: dict[str, Any]) -> None:
        self._note("add", informer, obj)

    def on_update(self, informer: Informer, old: dict[str, Any], new: dict[str, Any]) -> None:
        self._note(
            f"update {old['metadata']['resourceVersion']}>{new['metadata']['resourceVersion']}",
            informer,
            new,
        )

    def on_delete(self, informer: Informer, obj: dict[str, Any]) -> None:
        self._note("delete", informer, obj)

    def on_resync(self, informer: Informer, obj: dict[str, Any]) -> None:
        self._note("resync", informer, obj)


def wait_for(check: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_cache_indexes_by_controller_owner_and_follows_changes() -> None:
    cache = Cache()
    cache.put(configmap("a", owner="p"))
    cache.put(configmap("b", owner="p"))
    cache.put(configmap("c", owner="q"))
    cache.put(configmap("free"))
    assert [o["metadata"]["name"] for o in cache.owned_by("uid-p")] == ["a", "b"]
    moved = configmap("b", owner="q", rv="2")
    replaced = cache.put(moved)
    assert replaced is not None and replaced["metadata"]["resourceVersion"] == "1"
    assert [o["metadata"]["name"] for o in cache.owned_by("uid-p")] == ["a"]
    assert [o["metadata"]["name"] for o in cache.owned_by("uid-q")] == ["b", "c"]
    cache.pop(("ns", "a"))
    assert cache.owned_by("uid-p") == []
    assert len(cache) == 3
    assert cache.pop(("ns", "missing")) is None


def test_cache_reads_are_copies_filtered_by_namespace_and_labels() -> None:
    cache = Cache()
    cache.put(configmap("a", labels={"app": "x"}))
    other = configmap("b", labels={"app": "y"})
    other["metadata"]["namespace"] = "other"
    cache.put(other)
    got = cache.get("ns", "a")
    assert got is not None
    got["metadata"]["labels"]["app"] = "changed"
    assert cache.peek(("ns", "a"))["metadata"]["labels"] == {"app": "x"}  # type: ignore[index]
    assert [o["metadata"]["name"] for o in cache.list()] == ["a", "b"]
    assert [o["metadata"]["name"] for o in cache.list("other")] == ["b"]
    assert [o["metadata"]["name"] for o in cache.list(None, "app in (x)")] == ["a"]
    assert [o["metadata"]["name"] for o in cache.list(None, {"app": "y"})] == ["b"]
    assert cache.list("ns", "app=y") == []


def test_copy_json_is_deep() -> None:
    value: dict[str, Any] = {"a": [{"b": 1}], "c": "d"}
    copied = copy_json(value)
    assert copied == value
    copied["a"][0]["b"] = 2
    assert value["a"][0]["b"] == 1


def test_informer_hands_on_changes_after_its_cache_holds_them() -> None:
    backend = FakeBackend()
    backend.initial[CONFIGMAPS] = [configmap("a"), configmap("b")]
    events: list[Any] = []
    recorder = Recorder()
    informer = Informer(
        backend, CONFIGMAPS, recorder, name="v1/ConfigMap", role="owns", sink=events.append
    )
    informer.start()
    assert informer.wait_synced(30)
    assert informer.has_synced
    backend.send(CONFIGMAPS, "MODIFIED", configmap("a", rv="2"))
    backend.send(CONFIGMAPS, "ADDED", configmap("b", rv="3"))  # a relist's add of a known key
    backend.send(CONFIGMAPS, "DELETED", configmap("a", rv="4"))
    wait_for(lambda: len(recorder.seen) == 5)
    assert recorder.seen == [
        ("add", "a", True),
        ("add", "b", True),
        ("update 1>2", "a", True),
        ("update 1>3", "b", True),
        ("delete", "a", False),  # gone from the cache when told
    ]
    assert informer.cache.keys() == [("ns", "b")]
    # listed without apiVersion and kind: the informer gives them
    cached = informer.cache.get("ns", "b")
    assert cached is not None and (cached["apiVersion"], cached["kind"]) == ("v1", "ConfigMap")
    informer.stop()
    assert informer.stopped
    assert [type(e) for e in events] == [WatchStarted, WatchSynced, WatchStopped]
    synced = events[1]
    assert isinstance(synced, WatchSynced) and synced.objects == 2


def test_a_failing_handler_is_reported_and_the_watch_goes_on() -> None:
    backend = FakeBackend()
    events: list[Any] = []
    recorder = Recorder()
    recorder.fail_on = "bad"
    informer = Informer(backend, CONFIGMAPS, recorder, sink=events.append)
    informer.start()
    informer.wait_synced(30)
    backend.send(CONFIGMAPS, "ADDED", configmap("bad"))
    backend.send(CONFIGMAPS, "ADDED", configmap("good"))
    wait_for(lambda: len(recorder.seen) == 1)
    informer.stop()
    assert recorder.seen == [("add", "good", True)]
    errors = [e for e in events if isinstance(e, WatchError)]
    assert len(errors) == 1 and "handler bug" in errors[0].message


def test_resync_replays_the_cache_without_asking_the_backend() -> None:
    backend = FakeBackend()
    backend.initial[CONFIGMAPS] = [configmap("a"), configmap("b")]
    recorder = Recorder()
    informer = Informer(backend, CONFIGMAPS, recorder, resync=0.05)
    informer.start()
    informer.wait_synced(30)
    wait_for(lambda: sum(1 for s in recorder.seen if s[0] == "resync") >= 4)
    informer.stop()
    assert backend.watches == [CONFIGMAPS]  # one list-then-watch, replays from memory
    resynced = [s[1] for s in recorder.seen if s[0] == "resync"]
    assert set(resynced) == {"a", "b"}
    assert informer.replay() == 0  # stopped: nothing replayed
