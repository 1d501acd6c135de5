"""The one object printer: kubectl's -o formats for listings, streams and watch events."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from kubectl_crd.model.errors import KubectlCrdError, UsageError
from kubectl_crd.output.printing import (
    GET_FORMATS,
    Listing,
    ListingFormat,
    Named,
    ObjectPrinter,
    WatchPrinter,
    print_listing,
    resolve_output,
)

QUALIFIED = "crontab.stable.example.com"


def crontab(name: str, replicas: int, **metadata: Any) -> dict[str, Any]:
    return {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": name, **metadata},
        "spec": {"replicas": replicas},
    }


class Event:
    def __init__(self, type: str, object: Any) -> None:
        self.type = type
        self.object = object


def printed(output: str, *items: Any, **options: Any) -> str:
    stream = io.StringIO()
    printer = ObjectPrinter(output, stream, qualified=QUALIFIED, **options)
    for item in items:
        printer.write(item)
    printer.flush()
    return stream.getvalue()


def test_a_listing_is_one_list_and_hides_managed_fields() -> None:
    managed = crontab("a", 1, managedFields=[{"manager": "kubectl"}])
    text = printed("json", managed, crontab("b", 2))
    document = json.loads(text)
    assert document["kind"] == "List"
    assert document["metadata"] == {"resourceVersion": ""}
    assert [item["metadata"] for item in document["items"]] == [{"name": "a"}, {"name": "b"}]
    assert text.startswith('{\n    "apiVersion": "v1",\n    "items": [\n')
    assert text.endswith("}\n")


def test_a_single_object_is_printed_alone() -> None:
    assert json.loads(printed("json", crontab("a", 1), single=True))["kind"] == "CronTab"
    assert printed("yaml", crontab("a", 1), single=True).startswith("apiVersion: stable")


def test_managed_fields_are_kept_when_asked() -> None:
    managed = crontab("a", 1, managedFields=[{"manager": "kubectl"}])
    text = printed("json", managed, single=True, managed_fields=True)
    assert json.loads(text)["metadata"]["managedFields"] == [{"manager": "kubectl"}]


def test_names_with_and_without_an_operation() -> None:
    assert printed("name", crontab("a", 1), crontab("b", 1)) == (f"{QUALIFIED}/a\n{QUALIFIED}/b\n")
    scaled = Named("foo.example.com/x", None)
    assert printed("", scaled, operation="scaled (dry run)") == (
        "foo.example.com/x scaled (dry run)\n"
    )
    # -o name drops the operation, as kubectl's short name output does
    assert printed("name", scaled, operation="scaled") == "foo.example.com/x\n"


def test_sort_by_orders_names_before_they_are_printed() -> None:
    objects = [crontab("b", 3), crontab("a", 1), crontab("c", 2)]
    assert printed("name", *objects, sort_by=".spec.replicas") == (
        f"{QUALIFIED}/a\n{QUALIFIED}/c\n{QUALIFIED}/b\n"
    )


def test_streamed_yaml_is_separated_between_objects_only() -> None:
    text = printed("yaml", crontab("a", 1), crontab("b", 2), streaming=True)
    assert not text.startswith("---")
    assert text.count("---\n") == 1
    assert text.index("name: a") < text.index("---\n") < text.index("name: b")


def test_watch_events_wrap_the_object_as_the_server_sent_it() -> None:
    obj = crontab("a", 1, managedFields=[{"manager": "m"}])
    text = printed("json", Event("ADDED", obj), Event("DELETED", obj), streaming=True, events=True)
    first, second = text.splitlines()
    assert json.loads(first) == {"type": "ADDED", "object": obj}
    assert first.startswith('{"type":"ADDED","object":{')
    assert json.loads(second)["type"] == "DELETED"
    yaml_text = printed(
        "yaml", Event("ADDED", obj), Event("MODIFIED", obj), streaming=True, events=True
    )
    assert yaml_text.startswith("object:\n")
    assert yaml_text.count("---\n") == 1
    # events change nothing for -o name: the object's name, as kubectl prints it
    assert printed("name", Event("ADDED", obj), streaming=True, events=True) == f"{QUALIFIED}/a\n"


def test_jsonpath_sees_numbers_as_go_floats_and_the_list() -> None:
    objects = [crontab("a", 1), crontab("b", 20)]
    assert printed("jsonpath={.items[*].spec.replicas}", *objects) == "1 20"
    assert printed("jsonpath={.spec.replicas}", objects[1], single=True) == "20"


def test_custom_columns_align_and_mark_missing_values() -> None:
    text = printed(
        "custom-columns=NAME:.metadata.name,SIZE:spec.replicas,X:.spec.x", crontab("a", 1)
    )
    assert text == "NAME   SIZE   X\na      1      <none>\n"


@pytest.mark.parametrize(
    ("output", "message"),
    [
        (
            "custom-columns=NAME",
            "unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>",
        ),
        ("jsonpath={.spec", "error parsing jsonpath {.spec, "),
    ],
)
def test_a_bad_template_is_a_usage_error_when_the_printer_is_built(
    output: str, message: str
) -> None:
    with pytest.raises(UsageError) as caught:
        ObjectPrinter(output, io.StringIO())
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("namespace", "all_namespaces", "namespaced", "said"),
    [
        (None, False, True, "No resources found in default namespace.\n"),
        ("dev", False, True, "No resources found in dev namespace.\n"),
        ("dev", True, True, "No resources found\n"),
        ("dev", False, False, "No resources found\n"),
    ],
)
def test_an_empty_listing_says_where_nothing_was_found(
    namespace: str | None, all_namespaces: bool, namespaced: bool, said: str
) -> None:
    out, err = io.StringIO(), io.StringIO()
    settings = ListingFormat(all_namespaces=all_namespaces)
    listing = Listing(namespaced, QUALIFIED)
    print_listing(listing, settings, namespace=namespace, single=False, stream=out, err=err)
    assert (out.getvalue(), err.getvalue()) == ("", said)


def test_a_failed_empty_listing_says_nothing_more() -> None:
    out, err = io.StringIO(), io.StringIO()
    listing = Listing(True, QUALIFIED, failed=True)
    print_listing(listing, ListingFormat(), namespace=None, single=True, stream=out, err=err)
    assert (out.getvalue(), err.getvalue()) == ("", "")


def test_a_listings_pages_become_rows_or_objects() -> None:
    table = {
        "kind": "Table",
        "metadata": {"resourceVersion": "7"},
        "columnDefinitions": [{"name": "Name", "type": "string", "format": "name"}],
        "rows": [{"cells": ["a"], "object": {"metadata": {"name": "a"}}}],
    }
    listing = Listing(True, QUALIFIED)
    listing.add_page(table)
    listing.add_page({"kind": "List", "metadata": {"resourceVersion": "9"}, "items": [{}]})
    assert [c.name for c in listing.columns] == ["Name"]
    assert [row[0] for row in listing.rows] == [["a"]]
    assert listing.objects == [{}]
    assert listing.resource_version == "9"
    out, err = io.StringIO(), io.StringIO()
    print_listing(listing, ListingFormat(), namespace=None, single=False, stream=out, err=err)
    assert out.getvalue() == "NAME\na\n"


def test_a_watch_of_objects_streams_each_event() -> None:
    stream = io.StringIO()
    settings = ListingFormat(output="yaml")
    listing = Listing(True, QUALIFIED, objects=[crontab("a", 1)])
    printer = WatchPrinter(listing, settings, stream, live=False)
    printer.initial(listing)
    printer.write(Event("BOOKMARK", {"metadata": {"resourceVersion": "8"}}))
    printer.write(Event("MODIFIED", crontab("a", 2)))
    printer.flush()
    assert stream.getvalue().count("---\n") == 1
    assert stream.getvalue().count("kind: CronTab") == 2


def test_a_watch_of_server_tables_prints_each_events_rows() -> None:
    def table(name: str, replicas: int) -> dict[str, Any]:
        return {
            "kind": "Table",
            "columnDefinitions": [
                {"name": "Name", "type": "string", "format": "name"},
                {"name": "Replicas", "type": "integer"},
            ],
            "rows": [{"cells": [name, replicas], "object": {"metadata": {"name": name}}}],
        }

    stream = io.StringIO()
    settings = ListingFormat(watch_events=True)
    printer = WatchPrinter(Listing(True, QUALIFIED), settings, stream, live=False)
    printer.write(Event("ADDED", table("a", 1)))
    printer.write(Event("BOOKMARK", {"kind": "Table", "metadata": {}}))
    printer.write(Event("DELETED", table("a-longer-name", 2)))
    printer.flush()
    assert stream.getvalue() == (
        "EVENT      NAME   REPLICAS\nADDED      a      1\nDELETED    a-longer-name   2\n"
    )


@pytest.mark.parametrize("streaming", [False, True])
def test_a_template_writes_the_bytes_of_its_strings(streaming: bool) -> None:
    # kubectl writes a Go string's bytes as they are: a rune cut in two, binary data
    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding="utf-8")
    obj = {**crontab("h\u00e9", 1), "data": "/w=="}
    template = 'go-template=<{{slice .metadata.name 0 2}}|{{base64decode .data}}|{{"\u2603"}}>'
    printer = ObjectPrinter(template, stream, single=True, streaming=streaming)
    stream.write("before ")
    printer.write(obj)
    printer.flush()
    assert buffer.getvalue() == b"before <h\xc3|\xff|\xe2\x98\x83>"


def test_a_failing_template_writes_its_partial_bytes_before_the_error() -> None:
    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding="utf-8")
    template = "go-template={{slice .metadata.name 0 2}}{{.metadata.name.x}}"
    printer = ObjectPrinter(template, stream, single=True)
    printer.write(crontab("h\u00e9", 1))
    with pytest.raises(KubectlCrdError):
        printer.flush()
    assert buffer.getvalue().startswith(b"h\xc3Error executing template: ")


def test_a_template_file_is_read_as_its_bytes(tmp_path: Any) -> None:
    # kubectl 1.33 (label --local -o go-template-file=) printed these bytes for this file
    path = tmp_path / "crlf.tmpl"
    path.write_bytes(b'{{.kind}}\r\nx\ry\r\n{{"\\xff"}}\xc3')
    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding="utf-8")
    spec = resolve_output(f"go-template-file={path}", GET_FORMATS)
    printer = ObjectPrinter(spec, stream, single=True)
    printer.write(crontab("a", 1))
    printer.flush()
    assert buffer.getvalue() == b"CronTab\r\nx\ry\r\n\xff\xc3"
