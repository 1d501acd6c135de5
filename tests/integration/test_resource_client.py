"""``ResourceClient`` and ``list_then_watch`` against the real API server.

What the server really does is the oracle: pages of a list of 1,000 objects, server-side
apply conflicts and ``force``, each delete propagation policy (envtest runs no garbage
collector, so Orphan and Foreground leave the object with its finalizer: compared with
what the real kubectl's ``--cascade`` gets), preconditions, conditional updates, the
``status`` and ``scale`` subresources, dry runs. The reflector runs on a control plane of
this module's own: its API server is stopped while a second one on the same etcd makes
changes, then started again (nothing may be lost), and its etcd is compacted every
second with the watch cache off for ConfigMaps, so a watch from an old resourceVersion
gets a real 410 Gone from etcd and the reflector lists again.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.discovery import CORE_NAMES, Discovery
from kubectl_crd.kube.reflector import Backoff, EventType, Reflector, ReflectorEvent
from kubectl_crd.kube.resources import PatchType, PropagationPolicy, ResourceClient
from kubectl_crd.model.errors import ApiError, ClusterError, ResourceExpiredError
from tests.integration.envtest import ControlPlane, EnvtestError

CRONTAB_CRD = Path(__file__).parents[2] / "examples" / "crds" / "crontab.yaml"


def _client(kubeconfig: Path, home: Path) -> KubeClient:
    return KubeClient(ClusterConfig(kubeconfig=str(kubeconfig)), environ={"HOME": str(home)})


@pytest.fixture
def client(apiserver: ControlPlane, tmp_path: Path) -> Iterator[KubeClient]:
    with _client(apiserver.kubeconfig, tmp_path) as made:
        yield made


def _configmaps(client: KubeClient, namespace: str | None) -> ResourceClient:
    return ResourceClient(client, "", "v1", "configmaps", namespaced=True, namespace=namespace)


def _configmap(name: str, **data: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}


def _names(objects: Any) -> list[str]:
    return [obj["metadata"]["name"] for obj in objects]


# -- one resource's calls --------------------------------------------------------------


def test_paged_list_of_1000_objects_created_from_eight_threads(
    apiserver: ControlPlane, client: KubeClient, namespace: str
) -> None:
    configmaps = _configmaps(client, namespace)
    names = [f"cm-{index:04d}" for index in range(1000)]
    # one client shared by eight threads: each gets a connection of its own
    with ThreadPoolExecutor(max_workers=8) as pool:
        created = list(pool.map(lambda name: configmaps.create(_configmap(name, n=name)), names))
    assert _names(created) == names
    assert 2 <= len(client._opened) <= 8
    # what the real kubectl sees
    listed = apiserver.kubectl("get", "configmaps", "-n", namespace, "-o", "name").stdout.split()
    assert listed == [f"configmap/{name}" for name in names]

    # the requests are kubectl's for --chunk-size (the audit log shows both)
    def chunked_requests(user_agent: str, mark: int) -> list[tuple[str, list[str]]]:
        seen = []
        for event in apiserver.audit_events(mark):
            uri = event["requestURI"]
            if event.get("stage") != "ResponseComplete" or "/configmaps" not in uri:
                continue
            if not event.get("userAgent", "").startswith(user_agent):
                continue
            path, _, query = uri.partition("?")
            keys = sorted(
                pair if pair.startswith("limit=") else pair.split("=", 1)[0]
                for pair in query.split("&")
            )
            seen.append((path, keys))
        return seen

    mark = apiserver.audit_mark()
    apiserver.kubectl("get", "configmaps", "-n", namespace, "-o", "name", "--chunk-size=150")
    kubectls = chunked_requests("kubectl/", mark)
    mark = apiserver.audit_mark()
    pages = list(configmaps.pages(limit=150))
    assert chunked_requests("kubectl-crd/", mark) == kubectls
    assert [keys for _, keys in kubectls] == [["limit=150"]] + [["continue", "limit=150"]] * 6
    assert [len(page["items"]) for page in pages] == [150] * 6 + [100]
    assert all(page["metadata"].get("continue") for page in pages[:-1])
    assert not pages[-1]["metadata"].get("continue")
    assert [name for page in pages for name in _names(page["items"])] == names
    assert _names(configmaps.items(limit=400)) == names
    whole = configmaps.list(limit=333)
    assert whole["kind"] == "ConfigMapList" and _names(whole["items"]) == names
    assert "continue" not in whole["metadata"] and whole["metadata"]["resourceVersion"]

    # the Table kubectl asks for, paged, with the cells only
    tables = list(configmaps.pages(limit=400, table=True, include_object="None"))
    assert [page["kind"] for page in tables] == ["Table"] * 3
    assert [len(page["rows"]) for page in tables] == [400, 400, 200]
    assert [c["name"] for c in tables[0]["columnDefinitions"]] == ["Name", "Data", "Age"]
    assert [row["cells"][0] for page in tables for row in page["rows"]] == names
    assert tables[0]["rows"][0]["object"] is None
    table = configmaps.get("cm-0007", table=True, include_object="Metadata")
    assert table["rows"][0]["object"]["kind"] == "PartialObjectMetadata"

    # and the reflector's first list: every object ADDED, then SYNCED
    stop = threading.Event()
    reflector = Reflector(configmaps, stop=stop, page_size=300)
    events: list[ReflectorEvent] = []
    for event in reflector.events():
        events.append(event)
        if event.type is EventType.SYNCED:
            stop.set()
    assert [e.type for e in events] == [EventType.ADDED] * 1000 + [EventType.SYNCED]
    assert sorted(name for _, name in reflector.store) == names
    assert reflector.lists == 1 and reflector.resource_version


def test_server_side_apply_conflict_and_force(client: KubeClient, namespace: str) -> None:
    configmaps = _configmaps(client, namespace)
    configmaps.apply(_configmap("shared", a="1", b="1"), field_manager="first")
    with pytest.raises(ApiError) as caught:
        configmaps.apply(_configmap("shared", a="2"), field_manager="second")
    error = caught.value
    assert (error.status, error.reason) == (409, "Conflict")
    assert error.status_object["message"] == (
        'Apply failed with 1 conflict: conflict with "first": .data.a'
    )
    assert error.kubectl_line == (
        'Error from server (Conflict): Apply failed with 1 conflict: conflict with "first": .data.a'
    )
    # a dry run with force changes nothing
    configmaps.apply(_configmap("shared", a="2"), field_manager="second", force=True, dry_run=True)
    assert configmaps.get("shared")["data"] == {"a": "1", "b": "1"}
    forced = configmaps.apply(_configmap("shared", a="2"), field_manager="second", force=True)
    assert forced["data"] == {"a": "2", "b": "1"}
    owners = {
        entry["manager"]: sorted(entry["fieldsV1"]["f:data"])
        for entry in forced["metadata"]["managedFields"]
    }
    assert owners == {"first": ["f:b"], "second": ["f:a"]}


#: text a reconciler's child may carry: beyond U+FFFF (an emoji, json.dumps's surrogate
#: pairs), YAML 1.1 line breaks (NEL, U+2028, U+2029), DEL and a C1 control, a BOM, a tab
#: and a newline, quotes and backslashes
_AWKWARD = {
    "emoji": "ready \U0001f600",
    "cjk": "\U00020000 \u00e9",
    "breaks": "a\x85b\u2028c\u2029d",
    "controls": "x\x7fy\x9bz\ufeff",
    "plain": 'tab\tnew\nline "q" \\',
}


@pytest.mark.parametrize("write", ["apply", "create"])
def test_any_text_goes_through_as_itself(client: KubeClient, namespace: str, write: str) -> None:
    """A server-side apply's body is read as YAML by the server: the emoji json.dumps
    would write as a surrogate pair was refused (400, ``found invalid Unicode character
    escape code``) and a raw NEL would be folded into a space; each string is stored as
    it was sent, by apply (YAML) and by create (JSON) alike."""
    configmaps = _configmaps(client, namespace)
    obj = _configmap(f"text-{write}", **_AWKWARD)
    if write == "apply":
        answer = configmaps.apply(obj, field_manager="text")
    else:
        answer = configmaps.create(obj)
    assert answer["data"] == _AWKWARD
    assert configmaps.get(f"text-{write}")["data"] == _AWKWARD


def test_a_lone_surrogate_is_the_servers_one_line_error(client: KubeClient, namespace: str) -> None:
    configmaps = _configmaps(client, namespace)
    with pytest.raises(ApiError) as caught:
        configmaps.apply(_configmap("lone", a="\ud800"), field_manager="text")
    assert caught.value.status == 400
    assert "invalid Unicode character escape code" in caught.value.kubectl_line
    assert "\n" not in caught.value.kubectl_line


def _finalizers_after(
    apiserver: ControlPlane, configmaps: ResourceClient, policy: PropagationPolicy
) -> tuple[Any, Any]:
    """What our delete and kubectl's delete with the same cascade leave behind."""
    ours, theirs = f"ours-{policy.value.lower()}", f"kubectl-{policy.value.lower()}"
    for name in (ours, theirs):
        configmaps.create(_configmap(name))
    answer = configmaps.delete(ours, propagation_policy=policy)
    cascade = {"Orphan": "orphan", "Background": "background", "Foreground": "foreground"}
    apiserver.kubectl(
        "delete", "configmap", theirs, "-n", str(configmaps.namespace),
        f"--cascade={cascade[policy.value]}", "--wait=false",
    )  # fmt: skip

    def left(name: str) -> Any:
        try:
            obj = configmaps.get(name)
        except ApiError as exc:
            return exc.status
        return (obj["metadata"].get("finalizers"), bool(obj["metadata"].get("deletionTimestamp")))

    assert answer["kind"] in ("ConfigMap", "Status")
    return left(ours), left(theirs)


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (PropagationPolicy.BACKGROUND, 404),
        # no garbage collector in envtest: the finalizer it would remove stays
        (PropagationPolicy.ORPHAN, (["orphan"], True)),
        (PropagationPolicy.FOREGROUND, (["foregroundDeletion"], True)),
    ],
)
def test_delete_with_each_propagation_policy(
    apiserver: ControlPlane,
    client: KubeClient,
    namespace: str,
    policy: PropagationPolicy,
    expected: Any,
) -> None:
    configmaps = _configmaps(client, namespace)
    ours, kubectls = _finalizers_after(apiserver, configmaps, policy)
    assert ours == kubectls == expected
    if expected != 404:
        # the object goes once its finalizer is removed
        name = f"ours-{policy.value.lower()}"
        configmaps.patch(name, [{"op": "remove", "path": "/metadata/finalizers"}],
                         patch_type=PatchType.JSON)  # fmt: skip
        with pytest.raises(ApiError) as gone:
            configmaps.get(name)
        assert gone.value.status == 404


def test_delete_preconditions_and_conditional_update(client: KubeClient, namespace: str) -> None:
    configmaps = _configmaps(client, namespace)
    made = configmaps.create(_configmap("guarded", a="1"))
    uid, version = made["metadata"]["uid"], made["metadata"]["resourceVersion"]
    with pytest.raises(ApiError) as wrong_uid:
        configmaps.delete("guarded", uid="00000000-0000-0000-0000-000000000000")
    assert (wrong_uid.value.status, wrong_uid.value.reason) == (409, "Conflict")
    assert wrong_uid.value.status_object["message"] == (
        'Operation cannot be fulfilled on ConfigMap "guarded": the UID in the precondition '
        f"(00000000-0000-0000-0000-000000000000) does not match the UID in record ({uid}). "
        "The object might have been deleted and then recreated"
    )
    # a PUT with the resourceVersion read is conditional on it
    changed = dict(made, data={"a": "2"})
    updated = configmaps.update(changed)
    assert updated["data"] == {"a": "2"}
    with pytest.raises(ApiError) as stale:
        configmaps.update(dict(made, data={"a": "3"}))
    assert stale.value.status == 409
    assert "the object has been modified" in str(stale.value.status_object["message"])
    with pytest.raises(ApiError) as old_version:
        configmaps.delete("guarded", uid=uid, resource_version=version)
    assert old_version.value.status == 409
    # a dry run deletes nothing; the right preconditions delete
    configmaps.delete("guarded", uid=uid, dry_run=True)
    assert configmaps.get("guarded")["data"] == {"a": "2"}
    configmaps.delete("guarded", uid=uid, resource_version=updated["metadata"]["resourceVersion"])
    with pytest.raises(ApiError) as gone:
        configmaps.get("guarded")
    assert gone.value.kubectl_line == 'Error from server (NotFound): configmaps "guarded" not found'


def test_patches_status_and_scale_of_a_deployment(client: KubeClient, namespace: str) -> None:
    deployments = ResourceClient(
        client, "apps", "v1", "deployments", namespaced=True, namespace=namespace
    )
    container = {"name": "web", "image": "nginx:1"}
    body = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web"},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [container]},
            },
        },
    }
    assert deployments.create(body, dry_run=True)["metadata"]["name"] == "web"
    with pytest.raises(ApiError):
        deployments.get("web")  # the dry run stored nothing
    deployments.create(body)
    # strategic merge: containers merge by name; a merge patch would replace the list
    side = {"name": "side", "image": "busybox"}
    patched = deployments.patch(
        "web",
        {"spec": {"template": {"spec": {"containers": [side]}}}},
        patch_type=PatchType.STRATEGIC,
    )
    assert _names_of(patched) == ["side", "web"]
    replaced = deployments.patch(
        "web", {"spec": {"template": {"spec": {"containers": [side]}}}}, patch_type=PatchType.MERGE
    )
    assert _names_of(replaced) == ["side"]
    # /scale: the Scale of the deployment, written through to its spec
    scale = deployments.get_scale("web")
    assert (scale["kind"], scale["spec"]["replicas"]) == ("Scale", 1)
    assert deployments.patch_scale("web", {"spec": {"replicas": 3}})["spec"]["replicas"] == 3
    assert deployments.get("web")["spec"]["replicas"] == 3
    with pytest.raises(ApiError) as stale:
        deployments.update_scale("web", scale)  # the resourceVersion read before the patch
    assert stale.value.status == 409
    # /status: the status changes, the spec written along is ignored
    current = deployments.get_status("web")
    current["status"] = {"replicas": 3, "observedGeneration": 7}
    current["spec"]["replicas"] = 9
    written = deployments.update_status(current)
    assert written["status"]["observedGeneration"] == 7 and written["spec"]["replicas"] == 3
    applied = deployments.apply_status(
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web"},
            "status": {"readyReplicas": 2, "availableReplicas": 2},
        },
        field_manager="status-writer",
        force=True,
    )
    assert applied["status"]["availableReplicas"] == 2
    patched_status = deployments.patch_status("web", {"status": {"updatedReplicas": 1}})
    assert patched_status["status"]["updatedReplicas"] == 1


def _names_of(deployment: dict[str, Any]) -> list[str]:
    return sorted(c["name"] for c in deployment["spec"]["template"]["spec"]["containers"])


def test_strategic_merge_is_refused_for_a_custom_resource(
    apiserver: ControlPlane, client: KubeClient, namespace: str
) -> None:
    apiserver.install_crds([CRONTAB_CRD])
    crontabs = ResourceClient(
        client, "stable.example.com", "v1", "crontabs", namespaced=True, namespace=namespace
    )
    crontab = {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "c"},
        "spec": {"cronSpec": "* * * * */5", "image": "x", "replicas": 1},
    }
    crontabs.create(crontab)
    with pytest.raises(ApiError) as caught:
        crontabs.patch("c", {"spec": {"image": "y"}}, patch_type=PatchType.STRATEGIC)
    assert caught.value.status == 415
    # a custom resource's /scale and /status
    assert crontabs.patch_scale("c", {"spec": {"replicas": 4}})["spec"]["replicas"] == 4
    status = crontabs.patch_status("c", {"status": {"replicas": 4}})
    assert status["status"]["replicas"] == 4 and status["spec"]["replicas"] == 4


def test_object_paths_are_escaped_as_kubectls(apiserver: ControlPlane, namespace: str) -> None:
    """The URL kubectl requests for each odd name (``-v=6`` logs it) is ours."""
    names = ["a:b", "a@b", "a+b", "a=b", "a!b", "a*b", "a'b", "a(b)", "a b", "a,b", "a;b",
             "a$b", "a&b", "a~b", "a?b", "a#b", "é"]  # fmt: skip
    result = apiserver.kubectl(
        "get", "configmap", *names, "-n", namespace, "-v=6", "--ignore-not-found", check=False
    )
    prefix = f"/api/v1/namespaces/{namespace}/configmaps/"
    # each URL is logged twice (request, response): the first of each, in order
    requested = list(dict.fromkeys(re.findall(re.escape(prefix) + r'([^\s"?]+)', result.stderr)))
    configmaps = ResourceClient(None, "", "v1", "configmaps", namespaced=True, namespace=namespace)  # type: ignore[arg-type]
    assert requested == [configmaps.path(name).removeprefix(prefix) for name in names]


# -- discovery of the core group ------------------------------------------------------


def test_discovery_resolves_core_and_group_kinds(client: KubeClient, tmp_path: Path) -> None:
    asked: list[str] = []

    def request(method: str, path: str, **options: Any) -> Any:
        asked.append(path)
        return client.request(method, path, **options)

    discovery = Discovery(request, client.server, cache_dir=str(tmp_path))
    # a name no core resource has: /api is not read (one request on a cold cache)
    assert discovery.find("customresourcedefinitions")[0][1].group == "apiextensions.k8s.io"
    assert asked == ["/apis"]
    configmap = discovery.find_kind("", "ConfigMap")
    assert configmap is not None and (configmap.plural, configmap.namespaced) == (
        "configmaps",
        True,
    )
    assert asked == ["/apis", "/api"]
    deployment = discovery.find_kind("apps", "Deployment")
    assert deployment is not None and deployment.versions[0] == "v1"
    assert deployment.scale_versions == ("v1",)
    # the core group first, as kubectl's priority: "events" is v1 Event, not events.k8s.io's
    (found,) = discovery.find("events")
    assert (found[1].group, found[1].kind) == ("", "Event")
    assert [ref.plural for _, ref, _ in discovery.find("svc")] == ["services"]
    assert [ref.group for _, ref, _ in discovery.find("deploy")] == ["apps"]
    # everything from the disk cache in a new process's discovery
    again = Discovery(request, client.server, cache_dir=str(tmp_path))
    assert again.find_kind("", "Namespace") is not None and len(asked) == 2
    assert again.find("pods")[0][1].plural == "pods" and len(asked) == 2
    # every name of a core resource is in CORE_NAMES, and nothing else is
    names = set()
    for ref in discovery.core():
        names |= {ref.plural, ref.singular, ref.kind.lower(), *ref.short_names}
    assert names == CORE_NAMES


def test_core_discovery_without_the_aggregated_form(client: KubeClient, tmp_path: Path) -> None:
    """A server that answers /api without the aggregated form: /api/v1 gives the same."""

    def plain(method: str, path: str, **options: Any) -> Any:
        options.pop("accept", None)
        return client.request(method, path, **options)

    aggregated = Discovery(client.request, client.server, cache_dir=str(tmp_path / "a"))
    listed = Discovery(plain, client.server, cache_dir=str(tmp_path / "b"))
    assert sorted(listed.core(), key=repr) == sorted(aggregated.core(), key=repr)
    assert len(aggregated.core()) >= 17


# -- the reflector on a control plane of its own ----------------------------------------


@pytest.fixture(scope="module")
def plane(envtest_assets: Path) -> Iterator[ControlPlane]:
    """Its etcd compacted every second, and ConfigMaps watched from etcd (no watch
    cache), so an old resourceVersion is soon a 410 Gone from etcd itself."""
    made = ControlPlane(
        envtest_assets,
        apiserver_args=["--etcd-compaction-interval=1s", "--watch-cache-sizes=configmaps#0"],
    )
    try:
        made.start()
    except EnvtestError as exc:
        pytest.fail(f"the test control plane did not start: {exc}", pytrace=False)
    try:
        yield made
    finally:
        made.stop()


def _fresh_namespace(client: KubeClient, name: str) -> str:
    namespaces = ResourceClient(client, "", "v1", "namespaces", namespaced=False)
    namespaces.create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
    return name


def _wait_until_compacted(configmaps: ResourceClient, version: str, timeout: float = 30) -> None:
    """Until a watch from ``version`` is answered 410 Gone (etcd compacted past it)."""
    deadline = time.monotonic() + timeout
    while True:
        stream = configmaps.watch(resource_version=version, timeout_seconds=1, read_timeout=10)
        try:
            for _ in stream:
                pass
        except ResourceExpiredError:
            return
        finally:
            stream.close()
        assert time.monotonic() < deadline, f"etcd not compacted past {version}"
        time.sleep(0.5)


def _fast_reflector(resource: ResourceClient, stop: threading.Event, **options: Any) -> Reflector:
    # the schedule is client-go's (unit-tested); shorter here to keep the test short
    return Reflector(
        resource,
        stop=stop,
        backoff=Backoff(initial=0.1, cap=0.5),
        connect_backoff=Backoff(initial=0.1, cap=0.5),
        **options,
    )


def _state(objects: Any) -> dict[str, tuple[str, Any]]:
    return {
        o["metadata"]["name"]: (o["metadata"]["resourceVersion"], o.get("data")) for o in objects
    }


def test_a_watch_from_a_compacted_version_is_answered_by_a_relist(
    plane: ControlPlane, tmp_path: Path
) -> None:
    with _client(plane.kubeconfig, tmp_path) as client:
        namespace = _fresh_namespace(client, "compacted")
        configmaps = _configmaps(client, namespace)
        configmaps.create(_configmap("kept", v="1"))
        configmaps.create(_configmap("changed", v="1"))
        configmaps.create(_configmap("deleted", v="1"))
        stop = threading.Event()
        reflector = _fast_reflector(configmaps, stop=stop)
        events = reflector.events()
        first = [next(events) for _ in range(4)]
        assert [e.type for e in first] == [EventType.ADDED] * 3 + [EventType.SYNCED]
        listed_at = reflector.resource_version
        # a slow consumer: while it holds the SYNCED event no watch is open; meanwhile
        # objects change and etcd forgets the list's resourceVersion
        configmaps.patch("changed", {"data": {"v": "2"}})
        configmaps.delete("deleted")
        configmaps.create(_configmap("added", v="1"))
        _wait_until_compacted(configmaps, listed_at)
        after = []
        for event in events:
            after.append(event)
            if event.type is EventType.SYNCED:
                break
        stop.set()
        events.close()
        assert reflector.expired == 1 and reflector.lists == 2
        assert sorted((e.type.value, e.key[1]) for e in after[:-1]) == [
            ("ADDED", "added"),
            ("DELETED", "deleted"),
            ("MODIFIED", "changed"),
        ]
        assert _state(reflector.store.values()) == _state(configmaps.items())


def test_a_watch_survives_the_api_server_restarting_with_nothing_lost(
    plane: ControlPlane, tmp_path: Path
) -> None:
    with _client(plane.kubeconfig, tmp_path) as client:
        namespace = _fresh_namespace(client, "restarted")
        configmaps = _configmaps(client, namespace)
        configmaps.create(_configmap("kept", v="1"))
        configmaps.create(_configmap("changed", v="1"))
        configmaps.create(_configmap("deleted", v="1"))
        stop = threading.Event()
        errors: list[ClusterError] = []
        seen: list[ReflectorEvent] = []
        reflector = _fast_reflector(configmaps, stop=stop, on_error=errors.append)

        def consume() -> None:
            for event in reflector.events():
                seen.append(event)

        consumer = threading.Thread(target=consume, daemon=True)
        consumer.start()
        _until(lambda: len(seen) >= 4, "the first list")
        configmaps.patch("kept", {"data": {"v": "live"}})
        _until(lambda: len(seen) >= 5, "a live event")
        assert (seen[4].type, seen[4].key[1]) == (EventType.MODIFIED, "kept")
        watches_before = reflector.watches

        plane.stop_apiserver(grace=1.0)  # it stops listening at once; then killed
        _until(lambda: any("refused" in e.kubectl_line for e in errors), "a refused watch")
        # a second API server on the same etcd writes while the first is down
        _, other_kubeconfig = plane.extra_apiserver()
        with _client(other_kubeconfig, tmp_path) as other:
            elsewhere = _configmaps(other, namespace)
            elsewhere.patch("changed", {"data": {"v": "2"}})
            elsewhere.delete("deleted")
            elsewhere.create(_configmap("added", v="1"))
            expected = _state(elsewhere.items())
        marker = len(seen)
        plane.start_apiserver()
        _until(lambda: _state(reflector.store.values()) == expected, "the changes", timeout=60)
        assert reflector.watches > watches_before
        late = sorted((e.type.value, e.key[1]) for e in seen[marker:] if e.object is not None)
        assert late == [("ADDED", "added"), ("DELETED", "deleted"), ("MODIFIED", "changed")]

        # and it goes on watching after the restart
        configmaps.create(_configmap("after", v="1"))
        _until(lambda: (namespace, "after") in reflector.store, "an event after the restart")
        # stopped from another thread while a watch is blocked: by the stop, not by the
        # watch's own end (its timeoutSeconds, 300-600 s) nor an error, and without a
        # new watch; the 30 s join only guards against a hang (a loaded 2-core CI
        # machine may not run the consumer for seconds: the test's clock is no measure)
        watches, failures = reflector.watches, len(errors)
        stop.set()
        consumer.join(30)
        assert not consumer.is_alive(), "the reflector still watched 30 s after stop"
        assert (reflector.watches, len(errors)) == (watches, failures)


def _until(condition: Any, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
