"""kubectl's resource builder (``kube.targets``): the arguments read and checked as
``k8s.io/cli-runtime/pkg/resource/builder.go`` reads them, and the objects found.

The refusals' texts are kubectl 1.33's, from ``kubectl scale`` run against envtest's API
server with a Foo CRD installed (``kubectl.1.33`` standing for ``kubectl crd``):

    kubectl scale foo --replicas=1                  resource(s) were provided, but no ...
    kubectl scale foo/a bar --replicas=1            there is no need to specify ...
    kubectl scale foo/a/b --replicas=1              ... may not have more than one slash
    kubectl scale foo/one -f example.yaml ...       resource/name arguments cannot be ...
    kubectl scale -l x=y --replicas=1               at least one resource must be ...

Discovery is served by a fake ``request`` (a unit test; the builder's listing and the
parity with kubectl run against the real server in tests/integration/test_scale.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.io import read_inputs
from kubectl_crd.kube.discovery import Discovery
from kubectl_crd.kube.resolving import Resolver
from kubectl_crd.kube.targets import (
    MIXED_FORMS,
    NO_NAME,
    NO_RESOURCES,
    PATH_AND_PAIRS,
    PATH_AND_TYPES,
    SELECTOR_AND_NAMES,
    SELECTOR_AND_PAIRS,
    SELECTOR_NO_TYPE,
    SINGLE_PAIR,
    SLASHES,
    ResourceQuery,
    Target,
    check_paths,
    find_targets,
    parse_resource_args,
)
from kubectl_crd.model.errors import KubectlCrdError, UsageError

DATA = Path(__file__).parents[1] / "scale" / "data"

# (arguments, flags, the query) for what the builder accepts
ACCEPTED: list[tuple[list[str], dict[str, Any], ResourceQuery]] = [
    (["foo/a", "foo/b"], {}, ResourceQuery(pairs=(("foo", "a"), ("foo", "b")))),
    (["foo", "a", "b"], {}, ResourceQuery(pairs=(("foo", "a"), ("foo", "b")))),
    # normalizeMultipleResourcesArgs: every type with every name
    (
        ["foo,bar", "a", "b"],
        {},
        ResourceQuery(pairs=(("foo", "a"), ("foo", "b"), ("bar", "a"), ("bar", "b"))),
    ),
    (["foo,foo", "a"], {}, ResourceQuery(pairs=(("foo", "a"),))),
    (["foo"], {"selector": "app=x"}, ResourceQuery(types=("foo",), selector="app=x", listing=True)),
    (["foo,bar"], {"all_objects": True}, ResourceQuery(types=("foo", "bar"), listing=True)),
    (
        ["foo"],
        {"selector": "a=b", "all_objects": True, "all_namespaces": True},
        ResourceQuery(types=("foo",), selector="a=b", listing=True, all_namespaces=True),
    ),
    # --all only allows an empty selector for a lone TYPE: with names it is ignored
    (["foo", "a"], {"all_objects": True}, ResourceQuery(pairs=(("foo", "a"),))),
    (["foo/a"], {"all_objects": True}, ResourceQuery(pairs=(("foo", "a"),))),
    # an empty -l is no selector (LabelSelectorParam)
    (["foo", "a"], {"selector": "  "}, ResourceQuery(pairs=(("foo", "a"),))),
    ([], {"filenames": ["x.yaml"]}, ResourceQuery(filenames=("x.yaml",))),
    ([], {"filenames": ["x.yaml"], "all_objects": True}, ResourceQuery(filenames=("x.yaml",))),
    (
        [],
        {"filenames": ["x.yaml"], "selector": "a=b"},
        ResourceQuery(filenames=("x.yaml",), selector="a=b"),
    ),
    # a lone TYPE: resolved, then refused with NO_NAME (find_targets)
    (["foo"], {}, ResourceQuery(types=("foo",))),
]

# (arguments, flags, kubectl's message) for what it refuses
REFUSED: list[tuple[list[str], dict[str, Any], str]] = [
    ([], {}, NO_RESOURCES),
    ([], {"all_objects": True}, NO_RESOURCES),
    (["foo/a", "bar"], {}, MIXED_FORMS),
    (["foo", "a/b"], {}, MIXED_FORMS),
    (["foo/"], {}, SINGLE_PAIR),
    (["/a"], {}, SINGLE_PAIR),
    (["foo,bar/a"], {}, SINGLE_PAIR),
    (["foo/a/b"], {}, SLASHES),
    (["foo/a/"], {}, SLASHES),
    (["foo,bar", "a/b"], {}, SLASHES),
    (["foo/a"], {"selector": "x=y"}, SELECTOR_AND_PAIRS),
    (["foo", "a"], {"selector": "x=y"}, SELECTOR_AND_NAMES),
    ([], {"selector": "x=y"}, SELECTOR_NO_TYPE),
    (["foo/a"], {"filenames": ["x.yaml"]}, PATH_AND_PAIRS),
    (["foo", "a"], {"filenames": ["x.yaml"]}, PATH_AND_TYPES),
    (["foo"], {"filenames": ["x.yaml"]}, PATH_AND_TYPES),
    # the argument errors come first, as the builder collects them before visiting
    (["foo/a/b"], {"filenames": ["x.yaml"]}, SLASHES),
]


@pytest.mark.parametrize(("args", "flags", "query"), ACCEPTED)
def test_accepted_arguments(args: list[str], flags: dict[str, Any], query: ResourceQuery) -> None:
    assert parse_resource_args(args, **flags) == query


@pytest.mark.parametrize(("args", "flags", "message"), REFUSED)
def test_refused_arguments_in_kubectls_words(
    args: list[str], flags: dict[str, Any], message: str
) -> None:
    with pytest.raises(KubectlCrdError) as caught:
        parse_resource_args(args, **flags)
    assert caught.value.kubectl_line == f"error: {message}"
    assert caught.value.exit_code == 1


def test_kubectls_texts() -> None:
    # the constants as kubectl 1.33 prints them (the binary's name read as kubectl crd)
    assert MIXED_FORMS == (
        "there is no need to specify a resource type as a separate argument when passing "
        "arguments in resource/name form (e.g. 'kubectl crd get resource/<resource_name>' "
        "instead of 'kubectl crd get resource resource/<resource_name>'"
    )
    assert NO_RESOURCES.splitlines()[0] == (
        "You must provide one or more resources by argument or filename."
    )
    assert NO_NAME == "resource(s) were provided, but no name was specified"


@pytest.mark.parametrize("flags", [{}, {"filenames": ["x.yaml"]}])
def test_all_namespaces_needs_a_selection(flags: dict[str, Any]) -> None:
    with pytest.raises(UsageError, match=r"^-A/--all-namespaces needs -l or --all$"):
        parse_resource_args(["foo"], all_namespaces=True, **flags)


# -- find_targets, discovery and the list served by a fake server -------------------------

DISCOVERY = {
    "kind": "APIGroupDiscoveryList",
    "items": [
        {
            "metadata": {"name": "samplecontroller.k8s.io"},
            "versions": [
                {
                    "version": "v1alpha1",
                    "resources": [
                        {
                            "resource": "foos",
                            "singularResource": "foo",
                            "scope": "Namespaced",
                            "shortNames": ["fo"],
                            "responseKind": {"kind": "Foo"},
                            "subresources": [{"subresource": "scale"}],
                        }
                    ],
                }
            ],
        }
    ],
}


class FakeServer:
    """Discovery and the list of Foos; records the requests."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        self.items = items
        self.requests: list[tuple[str, Any]] = []

    def request(self, method: str, path: str, **options: Any) -> Any:
        self.requests.append((path, options.get("query")))
        if path == "/apis":
            return DISCOVERY
        assert path.endswith("/foos"), path
        return {"kind": "FooList", "metadata": {}, "items": self.items}


def _resolver(server: FakeServer, tmp_path: Path) -> Resolver:
    discovery = Discovery(server.request, "https://fake", cache_dir=str(tmp_path))
    return Resolver(client=server, discovery=discovery)  # type: ignore[arg-type]


def test_pairs_and_lists_are_found(tmp_path: Path) -> None:
    items = [
        {"metadata": {"name": "a", "namespace": "ns1"}},
        {"metadata": {"name": "b", "namespace": "ns2"}},
    ]
    server = FakeServer(items)
    resolver = _resolver(server, tmp_path)
    query = parse_resource_args(["fo/x", "foos/y"])
    targets, problems = find_targets(query, resolver, server, "ns0")  # type: ignore[arg-type]
    assert [(t.namespace, t.name) for t in targets] == [("ns0", "x"), ("ns0", "y")]
    assert targets[0] == Target(targets[0].resource, "v1alpha1", "ns0", "x")
    assert targets[0].resource.plural == "foos" and not problems

    listed = parse_resource_args(["foo"], selector="app=x", all_namespaces=True)
    targets, _ = find_targets(listed, resolver, server, "ns0")  # type: ignore[arg-type]
    assert [(t.namespace, t.name) for t in targets] == [("ns1", "a"), ("ns2", "b")]
    path, query_sent = server.requests[-1]
    # every namespace, the selector sent to the server, in pages of client-go's size
    assert path == "/apis/samplecontroller.k8s.io/v1alpha1/foos"
    assert query_sent == {"labelSelector": "app=x", "limit": 500}


def test_a_lone_type_resolves_first_then_needs_a_name(tmp_path: Path) -> None:
    server = FakeServer([])
    resolver = _resolver(server, tmp_path)
    with pytest.raises(KubectlCrdError, match=r"^resource\(s\) were provided, but no name"):
        find_targets(parse_resource_args(["foo"]), resolver, server, "ns")  # type: ignore[arg-type]
    with pytest.raises(KubectlCrdError, match="nosuchthing"):
        find_targets(parse_resource_args(["nosuchthing"]), resolver, server, "ns")  # type: ignore[arg-type]


def test_files_are_matched_filtered_and_held_to_the_namespace(tmp_path: Path) -> None:
    server = FakeServer([])
    resolver = _resolver(server, tmp_path)
    documents = list(read_inputs([str(DATA / "foos.yaml"), str(DATA / "unknown-kind.yaml")]))
    query = parse_resource_args([], filenames=["x"], selector="app=demo")
    checked: list[tuple[str, str]] = []
    targets, problems = find_targets(
        query,
        resolver,
        server,  # type: ignore[arg-type]
        "ns",
        documents=documents,
        check=lambda ref, version: checked.append((ref.plural, version)),
    )
    # 'one' has app=demo, 'two' no labels: the builder's label filter over files
    assert [(t.namespace, t.name) for t in targets] == [("ns", "one")]
    assert checked == [("foos", "v1alpha1"), ("foos", "v1alpha1")]
    assert [str(p).splitlines()[0] for p in problems] == [
        f'resource mapping not found for name: "example" namespace: "" from '
        f'"{DATA / "unknown-kind.yaml"}": no matches for kind "Bogus" in version '
        '"samplecontroller.k8s.io/v1alpha1"'
    ]
    in_default = list(read_inputs([str(DATA / "in-default.yaml")]))
    targets, problems = find_targets(
        parse_resource_args([], filenames=["x"]),
        resolver,
        server,  # type: ignore[arg-type]
        "ns",
        documents=in_default,
        enforce_namespace=True,
    )
    assert not targets
    assert str(problems[0]) == (
        'the namespace from the provided object "default" does not match the namespace '
        "\"ns\". You must pass '--namespace=default' to perform this operation."
    )


def test_a_path_that_names_nothing_is_kubectls_error(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("")
    check_paths(["-", str(tmp_path / "a.yaml"), str(tmp_path / "*.yaml"), str(tmp_path)])
    for missing in ("no-such.yaml", str(tmp_path / "*.json")):
        with pytest.raises(KubectlCrdError) as caught:
            check_paths([str(tmp_path / "a.yaml"), missing])
        assert caught.value.kubectl_line == f'error: the path "{missing}" does not exist'
