"""The resource client's pure parts: every path is built by ``resource_path``; and list
answers no API server gives (a broken server or proxy), from a scripted loopback peer.

The calls themselves are tested against the real API server
(``tests/integration/test_resource_client.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.discovery import ResourceRef
from kubectl_crd.kube.resources import PatchType, ResourceClient, resource_path
from kubectl_crd.model.errors import ClusterUnreachableError
from tests.unit.kube.conftest import Reply, ScriptedServer, write_kubeconfig

# (group, version, plural, namespace, name, subresource) -> path
PATHS = [
    (("", "v1", "configmaps", "", "", ""), "/api/v1/configmaps"),
    (("", "v1", "configmaps", "ns", "", ""), "/api/v1/namespaces/ns/configmaps"),
    (("", "v1", "namespaces", "", "ns", ""), "/api/v1/namespaces/ns"),
    (("apps", "v1", "deployments", "ns", "web", "scale"),
     "/apis/apps/v1/namespaces/ns/deployments/web/scale"),
    (("stable.example.com", "v1", "crontabs", "", "c", "status"),
     "/apis/stable.example.com/v1/crontabs/c/status"),
    # escaped as Go's URL.EscapedPath: ':', '@', '+', '=' stay; ' ', '/', '%', '!', '?' do not
    (("rbac.authorization.k8s.io", "v1", "clusterroles", "", "system:a@b+c=d", ""),
     "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:a@b+c=d"),
    (("g", "v1", "things", "", "x!y?z", ""), "/apis/g/v1/things/x%21y%3Fz"),
    (("g", "v1", "things", "n s", "a/b%c", ""), "/apis/g/v1/namespaces/n%20s/things/a%2Fb%25c"),
]  # fmt: skip


@pytest.mark.parametrize(("parts", "expected"), PATHS)
def test_resource_path(parts: tuple[str, str, str, str, str, str], expected: str) -> None:
    group, version, plural, namespace, name, subresource = parts
    assert (
        resource_path(
            group, version, plural, namespace=namespace, name=name, subresource=subresource
        )
        == expected
    )


def test_a_subresource_needs_a_name_and_a_path_a_version() -> None:
    with pytest.raises(ValueError, match="subresource"):
        resource_path("g", "v1", "things", subresource="status")
    with pytest.raises(ValueError, match="version"):
        resource_path("g", "", "things")


def _ref(namespaced: bool) -> ResourceRef:
    return ResourceRef(
        group="stable.example.com",
        kind="CronTab",
        plural="crontabs",
        singular="crontab",
        namespaced=namespaced,
        versions=("v2", "v1"),
    )


def test_namespaces_of_collection_and_object_paths() -> None:
    every = ResourceClient.for_ref(None, _ref(True))  # type: ignore[arg-type]
    assert every.api_version == "stable.example.com/v2"
    assert every.collection_path == "/apis/stable.example.com/v2/crontabs"
    # an object's own namespace, else the one given, else the client's
    assert every._object_path({"metadata": {"name": "a", "namespace": "x"}}, "", None) == (
        "/apis/stable.example.com/v2/namespaces/x/crontabs/a"
    )
    with pytest.raises(ValueError, match="namespaced"):
        every.path("a")
    ns = every.in_namespace("ns")
    assert ns.collection_path == "/apis/stable.example.com/v2/namespaces/ns/crontabs"
    assert ns.path("a", subresource="scale") == (
        "/apis/stable.example.com/v2/namespaces/ns/crontabs/a/scale"
    )
    assert ns.path("a", namespace="other") == (
        "/apis/stable.example.com/v2/namespaces/other/crontabs/a"
    )
    # a cluster-scoped resource ignores every namespace
    cluster = ResourceClient.for_ref(None, _ref(False), "v1", namespace="ns")  # type: ignore[arg-type]
    assert cluster.collection_path == "/apis/stable.example.com/v1/crontabs"
    assert cluster._object_path({"metadata": {"name": "a", "namespace": "x"}}, "status", None) == (
        "/apis/stable.example.com/v1/crontabs/a/status"
    )


def test_patch_types_are_the_servers_content_types() -> None:
    assert {t.name: t.value for t in PatchType} == {
        "MERGE": "application/merge-patch+json",
        "JSON": "application/json-patch+json",
        "STRATEGIC": "application/strategic-merge-patch+json",
        "APPLY": "application/apply-patch+yaml",
    }


NOT_AN_OBJECT = [
    ([{"metadata": {"name": "a"}}], "a JSON array"),
    (b"<html>bad gateway</html>", "not JSON"),
    (b"", "empty"),
    (7, "a bare JSON value"),
]


@pytest.mark.parametrize(("body", "said"), NOT_AN_OBJECT)
@pytest.mark.parametrize("how", ["items", "list", "second page"])
def test_a_list_answer_that_is_not_an_object_is_a_one_line_error(
    tmp_path: Path, scripted_server: ScriptedServer, body: Any, said: str, how: str
) -> None:
    """``items`` read ``page.get`` of a JSON array and raised AttributeError (an internal
    error, exit 3, with a traceback); every reader of the pages gets one line now."""
    kubeconfig = write_kubeconfig(
        tmp_path / "config",
        clusters={"c": {"server": scripted_server.url}},
        users={"u": {}},
        contexts={"c": {"cluster": "c", "user": "u"}},
        current="c",
    )
    client = KubeClient(ClusterConfig(kubeconfig=str(kubeconfig)), environ={"HOME": str(tmp_path)})
    things = ResourceClient(client, "g", "v1", "things", namespaced=True, namespace="ns")
    first = {"kind": "ThingList", "metadata": {"continue": "next"}, "items": [{"a": 1}]}
    scripted_server.replies = (
        [Reply(200, first), Reply(200, body)] if how == "second page" else [Reply(200, body)]
    )
    with client, pytest.raises(ClusterUnreachableError) as caught:
        if how == "list":
            things.list()
        else:
            list(things.items(limit=1 if how == "second page" else None))
    assert str(caught.value) == (
        "Unable to connect to the server: the list answer from "
        f"/apis/g/v1/namespaces/ns/things is {said}, not an object"
    )
    assert len(scripted_server.requests) == (2 if how == "second page" else 1)


#: every ASCII character, a few others, and what a name is usually made of
_SEGMENT_TEXT = st.text(
    alphabet=st.one_of(st.characters(max_codepoint=0x7F), st.sampled_from("é☃\U0001f600")),
    max_size=40,
) | st.from_regex(r"[a-z0-9][-a-z0-9.]{0,20}", fullmatch=True)


@given(_SEGMENT_TEXT)
def test_a_path_segment_is_escaped_as_go_escapes_a_path(text: str) -> None:
    """Go's ``URL.EscapedPath`` (net/url ``shouldEscape`` for a path: unreserved
    characters and ``$&+,;=:@`` kept, every other byte of the UTF-8 as ``%XX``); '/'
    escaped too, inside one segment. The common name takes a shortcut (kept whole):
    both ways give the same path."""
    from urllib.parse import quote

    if not text:
        return
    path = resource_path("g", "v1", "things", namespace=text, name=text)
    escaped = quote(text, safe="$&+,;=:@")
    assert path == f"/apis/g/v1/namespaces/{escaped}/things/{escaped}"
