"""The reflector's requests, in order, for answers the real API server gives only by
chance (a 429 on a watch, a watch that ends at once, a 410 as an ERROR event): a
loopback server plays them. The same flows against the real server, where it can
produce them (410 after compaction, a restart), are in
``tests/integration/test_resource_client.py``."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.reflector import Backoff, EventType, Reflector
from kubectl_crd.kube.resources import ResourceClient
from tests.unit.kube.conftest import Reply, ScriptedServer, write_kubeconfig


def _obj(name: str, version: str) -> dict[str, Any]:
    return {"metadata": {"name": name, "namespace": "ns", "resourceVersion": version}}


def _list(version: str, *items: dict[str, Any]) -> Reply:
    return Reply(200, {"kind": "ThingList", "metadata": {"resourceVersion": version},
                       "items": list(items)})  # fmt: skip


def _requests(server: ScriptedServer) -> list[tuple[str, dict[str, str]]]:
    out = []
    for request in server.requests:
        parts = urlsplit(request["path"])
        out.append((parts.path, dict(parse_qsl(parts.query))))
    return out


def test_watch_resume_429_and_410_in_client_gos_order(
    tmp_path: Path, scripted_server: ScriptedServer
) -> None:
    kubeconfig = write_kubeconfig(
        tmp_path / "kubeconfig",
        clusters={"c": {"server": scripted_server.url}},
        users={"u": {"token": "t"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    client = KubeClient(ClusterConfig(kubeconfig=str(kubeconfig)), environ={"HOME": str(tmp_path)})
    scripted_server.replies = [
        _list("10", _obj("a", "5")),
        Reply(429, {"kind": "Status", "code": 429, "reason": "TooManyRequests"}),
        Reply(lines=[{"type": "ADDED", "object": _obj("b", "11")},
                     {"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "15"}}}]),
        Reply(lines=[{"type": "ERROR", "object": {"kind": "Status", "code": 410,
                                                  "reason": "Expired", "message": "gone"}}]),
        _list("20", _obj("b", "11"), _obj("c", "19")),
    ]  # fmt: skip
    stop = threading.Event()
    draws = iter([0.0, 0.5, 0.25, 0.999] + [0.0] * 20)
    reflector = Reflector(
        ResourceClient(client, "g", "v1", "things", namespaced=True, namespace="ns"),
        stop=stop,
        backoff=Backoff(initial=0.01, cap=0.02),
        connect_backoff=Backoff(initial=0.01, cap=0.02),
        random=lambda: next(draws),
    )
    seen = []
    for event in reflector.events():
        seen.append((event.type, event.key[1] if event.object else ""))
        if len([s for s in seen if s[0] is EventType.SYNCED]) == 2:
            stop.set()
    assert seen == [
        (EventType.ADDED, "a"),
        (EventType.SYNCED, ""),
        (EventType.ADDED, "b"),  # live
        # the relist after the 410: "a" went while no watch saw it, "c" came
        (EventType.ADDED, "c"),
        (EventType.DELETED, "a"),
        (EventType.SYNCED, ""),
    ]
    path = "/apis/g/v1/namespaces/ns/things"

    def watch(version: str, timeout: int) -> tuple[str, dict[str, str]]:
        query = {"watch": "true", "resourceVersion": version, "allowWatchBookmarks": "true"}
        return path, {**query, "timeoutSeconds": str(timeout)}

    assert _requests(scripted_server) == [
        (path, {"limit": "500", "resourceVersion": "0"}),  # the first list: watch cache, paged
        watch("10", 300),  # answered 429: tried again after the backoff, no list
        watch("10", 450),
        watch("15", 375),  # the stream ended: resumed from the bookmark's version
        # the 410: a list not older than the last version seen, unpaged (watch cache)
        (path, {"resourceVersion": "15"}),
    ]
    assert reflector.lists == 2 and reflector.expired == 1 and reflector.watches == 3
    assert sorted(reflector.store) == [("ns", "b"), ("ns", "c")]
