"""``@record`` against ``@dataclass(frozen=True)``: the same class bodies, the same answers."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
from collections.abc import Callable
from typing import Any, ClassVar

import pytest

from kubectl_crd.model import records
from kubectl_crd.model.records import FrozenInstanceError, record

Body = Callable[[Callable[..., Any]], type]


def point_body(field: Callable[..., Any]) -> type:
    class Point:
        x: int
        label: str = "p"
        tags: tuple[str, ...] = ()
        made: list[int] = field(default_factory=list)
        note: str = field(default="", compare=False)
        secret: str = field(default="hidden", repr=False)
        UNITS: ClassVar[str] = "cm"

        def double(self) -> int:
            return 2 * self.x

    return Point


def version_body(field: Callable[..., Any]) -> type:
    class Version:
        group: str
        version: str
        kind: str = ""

    return Version


def single_body(field: Callable[..., Any]) -> type:
    class Single:
        value: object

    return Single


def empty_body(field: Callable[..., Any]) -> type:
    class Empty:
        pass

    return Empty


def both(body: Body, *, order: bool = False) -> tuple[type, type]:
    """The class of ``body`` made by dataclasses and by records (fresh classes each)."""
    reference = dataclasses.dataclass(frozen=True, order=order)(body(dataclasses.field))
    ours = record(order=order)(body(records.field)) if order else record(body(records.field))
    return reference, ours


# Calls of the Point constructor, good and bad.
POINT_CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, "a"), {}),
    ((1, "a", ("t",), [1], "n", "s"), {}),
    ((), {"x": 1}),
    ((1,), {"note": "other"}),
    ((1,), {"secret": "x", "label": "b"}),
    ((), {"label": "b", "x": 2, "tags": ("u",)}),
    ((1, "a", (), [], "n", "s", "extra"), {}),  # too many positional
    ((), {}),  # x missing
    ((), {"label": "b"}),  # x missing
    ((1,), {"x": 2}),  # x twice
    ((1,), {"nope": 2}),  # unknown keyword
    ((1,), {"UNITS": "m"}),  # a ClassVar is no field
    ((1,), {"double": 3}),
]


def outcome(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> object:
    try:
        return repr(cls(*args, **kwargs))
    except TypeError:
        return TypeError


@pytest.mark.parametrize(("args", "kwargs"), POINT_CALLS)
def test_init_accepts_and_refuses_the_same_calls(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    reference, ours = both(point_body)
    assert outcome(ours, args, kwargs) == outcome(reference, args, kwargs)


def test_the_calls_above_include_refused_ones() -> None:
    reference, _ = both(point_body)
    results = [outcome(reference, args, kwargs) for args, kwargs in POINT_CALLS]
    assert TypeError in results
    assert any(result is not TypeError for result in results)


def test_repr_names_the_fields_in_order_without_repr_false_ones() -> None:
    reference, ours = both(point_body)
    assert repr(ours(1, "a", ("t",), [2], "n")) == repr(reference(1, "a", ("t",), [2], "n"))
    assert repr(ours(3)) == f"{ours.__qualname__}(x=3, label='p', tags=(), made=[], note='')"


def test_defaults_and_default_factory() -> None:
    reference, ours = both(point_body)
    first, second = ours(1), ours(2)
    assert first.made == [] and first.made is not second.made
    assert (first.label, first.tags, first.note, first.secret) == ("p", (), "", "hidden")
    for name in ("x", "label", "tags", "made", "note", "secret", "UNITS"):
        assert hasattr(ours, name) == hasattr(reference, name), name
        if hasattr(reference, name):
            assert getattr(ours, name) == getattr(reference, name), name
    assert ours(1).double() == 2


INSTANCES: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1,), {"note": "ignored by eq"}),
    ((1, "b"), {}),
    ((2,), {}),
    ((1,), {"made": [1]}),
    ((1,), {"secret": "other"}),
]


def test_eq_and_hash_agree_with_dataclasses() -> None:
    reference, ours = both(point_body)
    made = [(reference(*a, **k), ours(*a, **k)) for a, k in INSTANCES]
    for left_ref, left in made:
        for right_ref, right in made:
            assert (left == right) == (left_ref == right_ref)
            assert (left != right) == (left_ref != right_ref)
    for ref, ours_instance in made:  # a list field: both refuse to hash
        assert hash_or_error(ours_instance) is hash_or_error(ref) is TypeError


def hash_or_error(value: object) -> object:
    try:
        return hash(value)
    except TypeError:
        return TypeError


def test_hash_is_over_the_compared_fields() -> None:
    def body(field: Callable[..., Any]) -> type:
        class Tagged:
            name: str
            tags: tuple[str, ...] = ()
            note: str = field(default="", compare=False)

        return Tagged

    reference, ours = both(body)
    calls: list[tuple[Any, ...]] = [("a",), ("a", ("x",)), ("a", (), "n"), ("b", ([1],))]
    for args in calls:
        assert hash_or_error(ours(*args)) == hash_or_error(reference(*args))
    assert hash(ours("a")) == hash(ours("a", (), "note is compare=False"))
    assert hash(ours("a")) != hash(ours("b"))


def test_eq_is_for_the_same_class_only() -> None:
    reference, ours = both(version_body)
    _, other = both(version_body)
    assert ours("g", "v") != reference("g", "v")
    assert ours("g", "v") != other("g", "v")
    assert ours("g", "v") != ("g", "v", "")
    assert ours("g", "v") == ours("g", "v")


@pytest.mark.parametrize("body", [single_body, empty_body, version_body])
def test_few_fields(body: Body) -> None:
    reference, ours = both(body)
    args = tuple(range(len(ours.__match_args__)))
    assert repr(ours(*args)) == repr(reference(*args))
    assert ours(*args) == ours(*args)
    assert hash(ours(*args)) == hash(reference(*args))
    assert ours.__match_args__ == reference.__match_args__


def test_order_compares_field_tuples() -> None:
    reference, ours = both(version_body, order=True)
    values = [("a", "v1"), ("a", "v2"), ("b", "v1"), ("a", "v1", "K"), ("a", "v10")]
    pairs = [(reference(*v), ours(*v)) for v in values]
    for left_ref, left in pairs:
        for right_ref, right in pairs:
            assert (left < right) == (left_ref < right_ref)
            assert (left <= right) == (left_ref <= right_ref)
            assert (left > right) == (left_ref > right_ref)
            assert (left >= right) == (left_ref >= right_ref)
    ordered = sorted(ours(*v) for v in values)
    assert [repr(x) for x in ordered] == [repr(x) for x in sorted(reference(*v) for v in values)]
    with pytest.raises(TypeError):
        _ = ours("a", "v") < reference("a", "v")
    with pytest.raises(TypeError):
        _ = ours("a", "v") < ("a", "v", "")


def test_no_order_unless_asked() -> None:
    reference, ours = both(version_body)
    with pytest.raises(TypeError):
        _ = reference("a", "b") < reference("a", "c")
    with pytest.raises(TypeError):
        _ = ours("a", "b") < ours("a", "c")


def test_frozen() -> None:
    reference, ours = both(point_body)
    for cls, error in ((reference, dataclasses.FrozenInstanceError), (ours, FrozenInstanceError)):
        instance = cls(1)
        with pytest.raises(error):
            instance.x = 2
        with pytest.raises(error):
            instance.other = 2  # not a field: still refused, as dataclasses do
        with pytest.raises(error):
            del instance.label
        assert instance.x == 1
    assert issubclass(FrozenInstanceError, AttributeError)


def test_match_args_and_match() -> None:
    reference, ours = both(point_body)
    assert ours.__match_args__ == reference.__match_args__
    match ours(5, "five"):
        case ours(x, label):  # type: ignore[misc]
            assert (x, label) == (5, "five")
        case _:
            pytest.fail("no match")


def test_replace_fields_pickle_and_copy() -> None:
    reference, ours = both(point_body)
    original = ours(1, tags=("a",), note="n")
    changed = records.replace(original, label="q")
    assert repr(changed) == repr(
        dataclasses.replace(reference(1, tags=("a",), note="n"), label="q")
    )
    assert changed.note == "n" and original.label == "p"
    assert [f.name for f in records.fields(ours)] == [f.name for f in dataclasses.fields(reference)]
    with pytest.raises(TypeError):
        records.replace(original, nope=1)
    with pytest.raises(TypeError):
        records.fields(object())
    for clone in (copy.copy(original), copy.deepcopy(original)):
        assert clone == original and repr(clone) == repr(original)


@record
class Module:
    """At module level, so that pickle can find it."""

    name: str
    size: int = 0


def test_pickle() -> None:
    assert pickle.loads(pickle.dumps(Module("a", 3))) == Module("a", 3)


def test_methods_the_class_defines_are_kept() -> None:
    def body(field: Callable[..., Any]) -> type:
        class Custom:
            a: int
            b: int = 0

            def __repr__(self) -> str:
                return "custom"

            def __eq__(self, other: object) -> bool:
                return isinstance(other, Custom) and self.a == other.a

            def __hash__(self) -> int:
                return 7

        return Custom

    reference, ours = both(body)
    for cls in (reference, ours):
        assert repr(cls(1)) == "custom"
        assert cls(1, 2) == cls(1, 3)
        assert hash(cls(1)) == 7


def test_eq_without_hash_in_the_body_gets_a_field_hash() -> None:
    def body(field: Callable[..., Any]) -> type:
        class OwnEq:
            a: int

            def __eq__(self, other: object) -> bool:
                return True

        return OwnEq

    reference, ours = both(body)
    assert hash(ours(1)) == hash(reference(1)) == hash((1,))
    assert ours(1) == ours(2)


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (lambda field: type("Mutable", (), {"__annotations__": {"a": "list[int]"}, "a": []}),
         ValueError),
        (lambda field: type("Order", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 0}),
         TypeError),
        (lambda field: type("Both", (), {"__annotations__": {"a": "int"},
                                         "a": field(default=1, default_factory=int)}),
         ValueError),
    ],
)  # fmt: skip
def test_bad_definitions_are_refused_alike(body: Body, error: type[Exception]) -> None:
    with pytest.raises(error):
        dataclasses.dataclass(frozen=True)(body(dataclasses.field))
    with pytest.raises(error):
        record(body(records.field))


def test_records_do_not_inherit_from_records() -> None:
    with pytest.raises(TypeError):

        @record
        class Child(Module):
            extra: int = 0


def test_hot_modules_import_neither_dataclasses_nor_inspect_nor_typing() -> None:
    """What ``records`` is for: start-up time of ``explain`` (io.caching is not checked)."""
    modules = [
        "kubectl_crd.model.records",
        "kubectl_crd.model.crd",
        "kubectl_crd.model.lookup",
        "kubectl_crd.model.explain",
        "kubectl_crd.model.explain.details",
        "kubectl_crd.model.explain.detailtext",
        "kubectl_crd.io",
        "kubectl_crd.io.documents",
        "kubectl_crd.io.inputs",
        "kubectl_crd.io.loading",
        "kubectl_crd.output.terminal",
    ]
    code = (
        f"import sys, {', '.join(modules)}; "
        "print(sorted(m for m in ('dataclasses', 'inspect', 'typing') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
