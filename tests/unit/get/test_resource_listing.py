"""``kube.listing.ResourceListing``: what get asks of one resource, decided from the flags.

The requests themselves meet the real API server in
``tests/integration/test_get_differential.py`` and ``test_get_watch.py``; here, the
decisions: a Table or objects, how much of each row's object, names read one by one
with their errors kept, a named watch narrowed to the name."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.kube.listing import ResourceListing
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.model.errors import ApiError


class Recorded(ResourceClient):
    """The resource client's calls, recorded and answered from a dict of objects."""

    def __init__(self, objects: dict[str, dict[str, Any]]) -> None:
        super().__init__(None, "g", "v1", "things", namespaced=True, namespace="ns")  # type: ignore[arg-type]
        self.objects = objects
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def get(self, name: str, **options: Any) -> dict[str, Any]:
        self.calls.append(("get", {"name": name, **options}))
        if name not in self.objects:
            raise ApiError(f'things.g "{name}" not found', status=404)
        return self.objects[name]

    def pages(self, **options: Any) -> Any:
        self.calls.append(("pages", options))
        return iter(
            [{"items": list(self.objects.values())[:1]}, {"items": list(self.objects.values())[1:]}]
        )

    def watch(self, **options: Any) -> Any:
        self.calls.append(("watch", options))
        return iter(())


# (table, sort, row_metadata) -> includeObject
INCLUDE = [
    ((True, False, False), "None"),  # only cells shown: no object per row
    ((True, False, True), None),  # namespaces or labels shown: the server's default
    ((True, True, False), "Object"),  # sorted: the whole object
    ((True, True, True), "Object"),
    ((False, False, False), None),  # objects, not a Table
    ((False, True, True), None),
]  # fmt: skip


@pytest.mark.parametrize(("flags", "include"), INCLUDE)
def test_how_much_of_each_row_object_is_asked_for(
    flags: tuple[bool, bool, bool], include: str | None
) -> None:
    table, sort, row_metadata = flags
    resource = Recorded({"a": {"metadata": {"name": "a"}}})
    listing = ResourceListing(
        resource, table=table, sort=sort, row_metadata=row_metadata, chunk_size=7
    )
    listing.read()
    listing.read(["a"])
    assert resource.calls == [
        (
            "pages",
            {
                "label_selector": "",
                "field_selector": "",
                "limit": 7,
                "table": table,
                "include_object": include,
            },
        ),
        ("get", {"name": "a", "table": table, "include_object": include}),
    ]


def test_names_are_read_one_by_one_and_a_missing_one_is_an_error_beside_the_others() -> None:
    resource = Recorded({"a": {"metadata": {"name": "a"}}, "c": {"metadata": {"name": "c"}}})
    read = ResourceListing(resource).read(["a", "b", "c"])
    assert [page["metadata"]["name"] for page in read.pages] == ["a", "c"]
    assert [error.status for error in read.errors] == [404]


def test_a_chunk_size_of_0_lists_at_once_and_items_come_page_by_page() -> None:
    resource = Recorded({n: {"metadata": {"name": n}} for n in "abc"})
    listing = ResourceListing(resource, chunk_size=0, label_selector="app=x")
    assert [obj["metadata"]["name"] for obj in listing.items()] == ["a", "b", "c"]
    assert resource.calls[0][1]["limit"] is None
    assert resource.calls[0][1]["label_selector"] == "app=x"


def test_a_named_watch_is_the_collections_narrowed_to_the_name_without_bookmarks() -> None:
    resource = Recorded({})
    listing = ResourceListing(resource, field_selector="spec.x=1", table=True)
    listing.watch(["a"], "42")
    listing.watch([], "43")
    assert resource.calls == [
        ("watch", {
            "resource_version": "42", "allow_bookmarks": False, "table": True,
            "label_selector": "", "field_selector": "metadata.name=a", "timeout": None,
        }),
        ("watch", {
            "resource_version": "43", "allow_bookmarks": False, "table": True,
            "label_selector": "", "field_selector": "spec.x=1", "timeout": None,
        }),
    ]  # fmt: skip
