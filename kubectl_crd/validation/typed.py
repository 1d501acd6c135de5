"""The typed conversion of a server-side apply's patch, as structured-merge-diff makes it.

The first step of every server-side apply on kube-apiserver (apimachinery's
``util/managedfields/internal/structuredmerge.go``, ``Apply``) turns the applied object
into a typed value of its kind's schema (``typeConverter.ObjectToTyped``, which runs
``sigs.k8s.io/structured-merge-diff/v6/typed/validate.go``). A field of the wrong type,
a field the schema does not declare, a duplicate in a list map or set: the apply is
refused there, before anything else looks at the object, with a plain Go error the
server answers as ``500`` with no reason::

    failed to create typed patch object (<ns>/<name>; <group>/<version>, Kind=<Kind>): <errors>

For a built-in kind the next step is mirrored too, where it is about numbers: the merged
object decoded into the kind's Go type (``failed to convert new object ... to proper
version``, also a 500 with no reason): a fraction in an ``int32``/``int64`` field, an
int-or-string neither a string nor an int32, a quantity that does not parse, a
timestamp that is not a string or not RFC 3339 (``apply_refusal``); of several, the
server names the first in Go's struct order (``first_conversion_problem``, with the
orders hack/builtin_types.py reads from k8s.io/api). Not mirrored: the other decoding
errors.

Pure: no I/O beyond reading the shipped ``builtin_types.json`` once, lazily (``builtin``).

What it mirrors, each piece from the upstream file named:

- the schema: kube-openapi's ``pkg/schemaconv`` (``openapi.go``, ``smd.go``) turns
  OpenAPI into atoms (``Atom``): ``integer``/``number`` numeric, ``string`` (``byte``
  format) string, another string format any scalar, ``boolean``; ``object`` a map of
  its ``properties`` whose other keys take ``additionalProperties`` (none without it,
  unless the object has no properties or ``x-kubernetes-preserve-unknown-fields`` is set
  on it or an ancestor of the same definition), atomic with ``x-kubernetes-map-type:
  atomic`` (an apply replaces it whole), else granular; ``array`` a list, atomic unless
  ``x-kubernetes-list-type`` makes it a ``set`` or a ``map`` keyed by
  ``x-kubernetes-list-map-keys``; no ``type`` (int-or-string, preserve-unknown-fields)
  anything. Built-in kinds come from the server's own OpenAPI v3, folded by
  ``hack/builtin_types.py``; a CRD version's schema as apiextensions-apiserver's
  ``controller/openapi/builder`` publishes it (``buildKubeNative``: ``apiVersion`` and
  ``kind`` strings, ``metadata`` the built-in ``ObjectMeta``; ``addEmbeddedProperties``:
  the same three on every ``x-kubernetes-embedded-resource``; value validations such as
  ``format`` stripped);
- the walk and its messages: ``typed/validate.go`` and ``typed/helpers.go`` (a null is
  any type; an undeclared field ends the walk of its map; a list-map or set item whose
  key cannot be made ends the walk of its list; a missing key field takes the field's
  ``default``), paths as ``fieldpath/element.go`` spells them (``.a``, ``[0]``,
  ``[name="c"]``, ``[="v"]``), several errors as ``errors:`` and one per line;
- values as the server holds them: the patch is YAML-decoded (``sigs.k8s.io/yaml``), so a
  number is an ``int64`` when its JSON text is an integer in range, else a ``float64``;
  printed with Go's ``%v``, ``%#v`` and ``%T`` as each message does.

Unlike the server, a map's fields are walked in the object's order (Go's map order is
random: an object with several errors in one map gets them in another order, and an
undeclared field ends that map's walk at a different point).
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubectl_crd.model.govalues import (
    as_kubectl_decodes,
    go_json_float,
    go_print,
    go_quote,
    go_type,
    json_kind,
    unmarshal_type_error,
)

__all__ = [
    "ANYTHING",
    "OBJECT_META",
    "Atom",
    "ListType",
    "MapType",
    "TypedErrors",
    "apply_refusal",
    "builtin",
    "conversion_problem",
    "crd_atom",
    "first_conversion_problem",
    "list_keys",
    "typed_errors",
    "typed_patch_message",
]

STRING, NUMERIC, BOOLEAN, UNTYPED = "string", "numeric", "boolean", "untyped"
INT_OR_STRING = "int-or-string"
QUANTITY = "quantity"
TIME = "time"
MICRO_TIME = "micro-time"
_TIME = "apis.meta.v1.Time"
_MICRO_TIME = "apis.meta.v1.MicroTime"
_SCALAR_TYPES: dict[str, tuple[type, ...]] = {
    STRING: (str,),
    NUMERIC: (int, float),
    BOOLEAN: (bool,),
    UNTYPED: (str, int, float, bool),
}
_NULL: frozenset[type] = frozenset((type(None),))


@dataclass(eq=False)
class MapType:
    """``schema.Map``: declared fields, and the type of any other key (None: none allowed)."""

    fields: dict[str, Atom] = field(default_factory=dict)
    element: Atom | None = None
    #: the fields' ``default``\\s (a list map's missing key field takes it)
    defaults: dict[str, Any] = field(default_factory=dict)
    #: a built-in Go struct's field order, where known (``first_conversion_problem``)
    go_order: dict[str, int] | None = None
    #: ``x-kubernetes-map-type: atomic`` (``+structType=atomic`` / ``+mapType=atomic``):
    #: schemaconv's ``ElementRelationship`` atomic, an apply replaces the map whole
    atomic: bool = False


@dataclass(eq=False)
class ListType:
    """``schema.List``: its items' type; ``keys`` None for an atomic list, () for a set."""

    element: Atom
    keys: tuple[str, ...] | None = None


@dataclass(eq=False)
class Atom:
    """``schema.Atom``: which of scalar, list and map a value of this type may be."""

    scalar: str | None = None
    list: ListType | None = None
    map: MapType | None = None
    #: the exact Python types a value needs no walk for (null always; a scalar type's
    #: own): the walk's fast path, most of an object's values being fine strings
    ok: frozenset[type] = _NULL
    #: the Go type a built-in's value is decoded into after the merge (``int32``,
    #: ``int64``, ``int-or-string``, ``quantity``): ``conversion_problem``
    go: str | None = None


def _scalar_atom(scalar: str) -> Atom:
    return Atom(scalar=scalar, ok=frozenset((*_SCALAR_TYPES[scalar], type(None))))


def _anything() -> Atom:
    """schemaconv's ``__untyped_deduced_``: any value, its maps' keys anything."""
    atom = Atom(scalar=UNTYPED)
    atom.list = ListType(atom)
    atom.map = MapType(element=atom)
    return atom


ANYTHING = _anything()


class _Converter:
    """OpenAPI (a CRD's structural schema, or the built-in file's) to atoms; ``$ref``s
    name definitions in ``types``, each made once (cycles allowed)."""

    def __init__(
        self, types: Mapping[str, Any], *, go: bool = False, go_orders: Mapping[str, Any] = {}
    ) -> None:
        self.types = types
        self.named: dict[str, Atom] = {}
        #: a built-in's schema: keep the Go types of its integers and int-or-strings
        self.go = go
        #: a definition's Go struct fields ([name, type, flags] in declared order), by name
        self.go_orders = go_orders

    def ref(self, name: str) -> Atom:
        atom = self.named.get(name)
        if atom is None and self.go and name in (_TIME, _MICRO_TIME):
            # metav1.Time, MicroTime: any scalar to the typed conversion, decoded by
            # their own UnmarshalJSON (a string time.Parse takes), every value looked at
            atom = self.named[name] = Atom(scalar=UNTYPED, go=TIME if name == _TIME else MICRO_TIME)
        if atom is None:
            atom = self.named[name] = Atom()
            # a definition starts with the global preserve flag (false, as for every
            # built-in and v1 CRD), not its referrer's (schemaconv ``push``)
            made = self.atom(self.types[name], preserve=False)
            atom.scalar, atom.list, atom.map = made.scalar, made.list, made.map
            atom.ok, atom.go = made.ok, made.go
            go_fields = self.go_orders.get(name)
            if go_fields is not None and atom.map is not None:
                atom.map.go_order = {field[0]: index for index, field in enumerate(go_fields)}
        return atom

    def atom(self, schema: Mapping[str, Any], *, preserve: bool, embedded: bool = False) -> Atom:
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self.ref(ref.rsplit("/", 1)[-1])
        if schema.get("x-kubernetes-preserve-unknown-fields") is True:
            preserve = True
        kind = schema.get("type") or ""
        if kind == "object":
            return Atom(map=self.map(schema, preserve, embedded))
        if kind == "array":
            return Atom(list=self.list(schema, preserve))
        if kind == "integer" and self.go and schema.get("format") in ("int32", "int64"):
            # a float with a fraction is refused when the merged object is decoded
            return Atom(scalar=NUMERIC, ok=frozenset((int, type(None))), go=schema["format"])
        if kind in ("integer", "number"):
            return _scalar_atom(NUMERIC)
        if kind == "string":
            return _scalar_atom(STRING)
        if kind == "boolean":
            return _scalar_atom(BOOLEAN)
        if kind == UNTYPED:  # the built-in file's word for a scalar of any type
            if self.go and schema.get("format") == QUANTITY:
                return Atom(scalar=UNTYPED, go=QUANTITY)  # parsed when decoded
            return _scalar_atom(UNTYPED)
        if self.go and schema.get("x-kubernetes-int-or-string") is True:
            # intstr.IntOrString: typed as anything (no type), decoded as a string or
            # an int32 (its UnmarshalJSON)
            return Atom(
                UNTYPED, ANYTHING.list, ANYTHING.map, frozenset((str, type(None))), INT_OR_STRING
            )
        if (
            not schema.get("properties")
            and not schema.get("items")
            and schema.get("additionalProperties") in (None, True)
        ):
            return ANYTHING
        # no type: any scalar, a list, a map (schemaconv parseSchema's "" case)
        return Atom(
            scalar=UNTYPED,
            list=self.list(schema, preserve),
            map=self.map(schema, preserve, embedded),
        )

    def map(self, schema: Mapping[str, Any], preserve: bool, embedded: bool) -> MapType:
        made = MapType(atomic=schema.get("x-kubernetes-map-type") == "atomic")
        properties = schema.get("properties") or {}
        for name, sub in properties.items():
            if isinstance(sub, Mapping):
                made.fields[name] = self.field(sub, preserve)
                if "default" in sub and sub["default"] is not None:
                    made.defaults[name] = sub["default"]
        if embedded or schema.get("x-kubernetes-embedded-resource") is True:
            # builder.go addEmbeddedProperties (and buildKubeNative at the root)
            made.fields["apiVersion"] = _scalar_atom(STRING)
            made.fields["kind"] = _scalar_atom(STRING)
            made.fields["metadata"] = builtin().ref(_OBJECT_META, go=self.go)
        extra = schema.get("additionalProperties")
        if isinstance(extra, Mapping):
            made.element = self.field(extra, preserve)
        elif extra is True or (extra is None and (preserve or not properties)):
            made.element = ANYTHING
        return made

    def field(self, schema: Mapping[str, Any], preserve: bool) -> Atom:
        return self.atom(schema, preserve=preserve)

    def list(self, schema: Mapping[str, Any], preserve: bool) -> ListType:
        items = schema.get("items")
        element = self.field(items, preserve) if isinstance(items, Mapping) else ANYTHING
        list_type = schema.get("x-kubernetes-list-type")
        if list_type == "map":
            return ListType(element, tuple(schema.get("x-kubernetes-list-map-keys") or ()))
        if list_type == "set":
            return ListType(element, ())
        return ListType(element)


_OBJECT_META = OBJECT_META = "apis.meta.v1.ObjectMeta"


class BuiltinTypes:
    """The shipped schemas of the store's built-in kinds (``builtin_types.json``)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.kinds: Mapping[str, str] = data["kinds"]
        #: the kinds' Go types, as ``validation.decoding`` decodes a body into them
        self.go_types: dict[str, Any] = data.get("go") or {"kinds": {}, "types": {}}
        # the Go structs' field orders by OpenAPI definition name (Go's package path
        # "apps/v1" is OpenAPI's "apps.v1"): the order the conversion walks them in
        orders = {
            name.replace("/", "."): raw["f"]
            for name, raw in self.go_types["types"].items()
            if raw.get("k") == "struct"
        }
        self._converter = _Converter(data["types"], go=True, go_orders=orders)
        #: the same types without their Go types: a custom resource's ``metadata`` (its
        #: object is never decoded into a Go struct, so an apply never fails there)
        self._untyped = _Converter(data["types"])
        # atoms are built on first use: one thread at a time (a half-built one is empty)
        self._lock = threading.RLock()

    def ref(self, name: str, *, go: bool = True) -> Atom:
        with self._lock:
            return (self._converter if go else self._untyped).ref(name)

    def kind(self, api_version: str, kind: str) -> Atom | None:
        """The atom of ``api_version``'s ``kind``; None for a kind the file has not."""
        name = self.kinds.get(f"{api_version}/{kind}")
        if name is None:
            return None
        return self.ref(name)


_BUILTIN: BuiltinTypes | None = None
_LOADING = threading.Lock()


def builtin() -> BuiltinTypes:
    """The built-in schemas, read on first use (start-up reads nothing)."""
    global _BUILTIN
    if _BUILTIN is None:
        with _LOADING:
            if _BUILTIN is None:
                # beside this module (a wheel's package data; importlib.resources ~9 ms)
                here = Path(__file__).with_name("builtin_types.json")
                _BUILTIN = BuiltinTypes(json.loads(here.read_text(encoding="utf-8")))
    return _BUILTIN


def crd_atom(schema: Mapping[str, Any] | None) -> Atom:
    """The atom of a custom resource whose version has ``schema`` (its
    ``openAPIV3Schema``): the schema as the server publishes it for apply
    (``buildKubeNative``: ``apiVersion``, ``kind`` and ``metadata`` added at the root)."""
    if schema is None:
        return ANYTHING
    return _Converter({}).atom(schema, preserve=False, embedded=True)


# -- Go's renderings of a value --------------------------------------------------------


def _keys(value: Mapping[Any, Any]) -> list[Any]:
    """A map's keys in fmt's order (sorted; a key that is not a string, which JSON
    would have made one, by its text)."""
    return sorted(value, key=str)


def go_v(value: Any) -> str:
    """Go's ``%v`` of an unstructured value as the server decoded it (the YAML-to-JSON
    decoding of a patch: a number is an int64 when whole and within range, else a
    float64)."""
    return go_print(as_kubectl_decodes(value))


def go_sharp_v(value: Any) -> str:
    """Go's ``%#v`` of an unstructured value held in an ``interface{}`` field
    (``valueUnstructured``'s ``Value``): ``model.gotemplate``'s, not at the top (a nil
    is ``interface {}(nil)``), over the value as the server's JSON decoding holds it."""
    from kubectl_crd.model.gotemplate import go_sharp_v as sharp_v

    return sharp_v(as_kubectl_decodes(value), top=False)


def _to_string(value: Any) -> str:
    """``value.ToString``: a list-map key's or set item's spelling in a path."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return go_v(value)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, Mapping):
        return "".join(f"{k}={_to_string(value[k])}" for k in _keys(value))
    return "[" + ",".join(_to_string(item) for item in value) + "]"


# -- the walk ----------------------------------------------------------------------------

#: one error: [path, message] (a list: a parent prefixes the path in place)
Error = list[str]
#: the answer of a walk that found nothing (shared: only a walk's own lists grow)
_NO_ERRORS: list[Error] = []


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float))  # bool is an int


def _deduce(atom: Atom, value: Any) -> Atom:
    """``deduceAtom``: the one of the atom's types the value is, if the atom has it."""
    if value is None or (atom.scalar is None) + (atom.list is None) + (atom.map is None) == 2:
        return atom
    if _is_scalar(value):
        return Atom(scalar=atom.scalar) if atom.scalar is not None else atom
    if isinstance(value, list):
        return Atom(list=atom.list) if atom.list is not None else atom
    if isinstance(value, Mapping) and atom.map is not None:
        return Atom(map=atom.map)
    return atom


def _validate(atom: Atom, value: Any, conv: list[str]) -> list[Error]:
    """The typed errors of ``value``; the first decoding problem goes to ``conv``."""
    if atom is ANYTHING:
        return _NO_ERRORS
    if atom.scalar is None and atom.list is None and atom.map is not None:
        return _map(atom.map, value, conv)  # an object's type: the usual case, no deducing
    if atom.go is not None and not conv:
        problem = conversion_problem(atom.go, value)
        if problem is not None:
            conv.append(problem)
    atom = _deduce(atom, value)
    if atom.map is not None:
        return _map(atom.map, value, conv)
    if atom.scalar is not None:
        return _scalar(atom.scalar, value)
    if atom.list is not None:
        return _list(atom.list, value, conv)
    return [["", "schema error: invalid atom: inlined"]]


def _scalar(scalar: str, value: Any) -> list[Error]:
    if value is None:
        return _NO_ERRORS
    if scalar == NUMERIC:
        if isinstance(value, (int, float)) and value is not True and value is not False:
            return _NO_ERRORS
        return [["", f"expected numeric (int or float), got {go_type(value)}"]]
    if scalar == STRING:
        if isinstance(value, str):
            return _NO_ERRORS
        return [["", f"expected string, got &value.valueUnstructured{{Value:{go_sharp_v(value)}}}"]]
    if scalar == BOOLEAN:
        if value is True or value is False:
            return _NO_ERRORS
        return [["", f"expected boolean, got &{{{go_v(value)}}}"]]
    if _is_scalar(value):
        return _NO_ERRORS
    return [["", f"expected any scalar, got &{{{go_v(value)}}}"]]


def _map(map_type: MapType, value: Any, conv: list[str]) -> list[Error]:
    if value is None:
        return _NO_ERRORS
    if type(value) is not dict and not isinstance(value, Mapping):
        return [["", f"expected map, got &{{{go_v(value)}}}"]]
    errors: list[Error] = _NO_ERRORS
    fields, element = map_type.fields, map_type.element
    for key, item in value.items():
        atom = fields.get(key, element)
        if atom is None:
            errors = [*errors, [f".{key}", "field not declared in schema"]]
            break
        if type(item) in atom.ok or atom is ANYTHING:
            continue
        if type(item) is dict and atom.scalar is None and atom.list is None and atom.map:
            found = _map(atom.map, item, conv)  # a nested object: no deducing
        else:
            found = _validate(atom, item, conv)
        if found:
            for error in found:
                error[0] = f".{key}{error[0]}"
            errors = [*errors, *found]
    return errors


def _list(list_type: ListType, value: Any, conv: list[str]) -> list[Error]:
    if value is None:
        return _NO_ERRORS
    if not isinstance(value, list):
        return [["", f"expected list, got &{{{go_v(value)}}}"]]
    errors: list[Error] = []
    keys, element = list_type.keys, list_type.element
    seen: set[str] = set()
    for index, item in enumerate(value):
        if keys is None:
            if type(item) in element.ok:
                continue
            label = f"[{index}]"
        else:
            label, problem = _path_element(element, keys, item)
            if problem is not None:
                errors.append(["", f"element {index}: {problem}"])
                return errors
            if label in seen:
                errors.append(["", f"duplicate entries for key {label}"])
            seen.add(label)
            if type(item) in element.ok:
                continue
        if type(item) is dict and element.scalar is None and element.list is None and element.map:
            found = _map(element.map, item, conv)
        else:
            found = _validate(element, item, conv)
        if found:
            for error in found:
                error[0] = label + error[0]
            errors.extend(found)
    return errors


def _path_element(element: Atom, keys: tuple[str, ...], item: Any) -> tuple[str, str | None]:
    """``listItemToPathElement``: the item's path element, or why it has none."""
    if not keys:
        if isinstance(item, Mapping):
            return "", "associative list without keys has an element that's a map type"
        if isinstance(item, list):
            return "", "not supported: associative list with lists as elements"
        if item is None:
            return "", "associative list without keys has an element that's an explicit null"
        return f"[={_to_string(item)}]", None
    if item is None:
        return "", "associative list with keys may not have a null element"
    if not isinstance(item, Mapping):
        return "", "associative list with keys may not have non-map elements"
    defaults = element.map.defaults if element.map is not None else {}
    parts = {}
    for key in keys:
        if key in item:
            parts[key] = _to_string(item[key])
        elif key in defaults:
            parts[key] = _to_string(defaults[key])
    if not parts:
        quoted = " ".join(go_quote(key) for key in keys)
        return "", (
            f"associative list with keys has an element that omits all key fields [{quoted}] "
            "(and doesn't have default values for any key fields)"
        )
    return "[" + ",".join(f"{k}={parts[k]}" for k in sorted(parts)) + "]", None


@dataclass(frozen=True)
class TypedErrors:
    """What the typed conversion found: each error's path and message."""

    errors: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        """``ValidationErrors.Error()``: one error alone, several after ``errors:``."""
        lines = [f"{path}: {message}" if path else message for path, message in self.errors]
        if len(lines) == 1:
            return lines[0]
        return "\n".join(["errors:", *("  " + line for line in lines)])


def typed_errors(atom: Atom, obj: Any) -> TypedErrors | None:
    """The typed conversion of ``obj`` to ``atom``: None when it converts."""
    found = _validate(atom, obj, [])
    if not found:
        return None
    return TypedErrors(tuple((path, message) for path, message in found))


def apply_refusal(atom: Atom, obj: Mapping[str, Any]) -> str | None:
    """The server's message refusing an apply of ``obj`` at its first steps, None when
    they pass: the typed conversion of the patch, then (built-in kinds) the decoding of
    the merged object into its Go type (``structuredmerge.go``'s ``toUnversioned``:
    ``failed to convert new object``), of which the numbers and timestamps are
    mirrored (a fraction in an ``int32``/``int64`` field, an int-or-string neither a
    string nor an int32, a quantity or a timestamp that does not parse), the first one
    found."""
    conv: list[str] = []
    found = _validate(atom, obj, conv)
    if found:
        errors = TypedErrors(tuple((path, message) for path, message in found))
        return typed_patch_message(obj, errors)
    if conv:
        where, gvk = _patch_names(obj)
        first = first_conversion_problem(atom, obj) or conv[0]
        return (
            f"failed to convert new object ({where}; {gvk}) to proper version: "
            f"unable to convert unstructured object to {gvk}: {first}"
        )
    return None


def first_conversion_problem(atom: Atom, value: Any) -> str | None:
    """The decoding problem the server names when an object has several: apimachinery's
    ``runtime/converter.go`` (``fromUnstructured``) walks a Go struct's fields in their
    declared order and stops at the first error, items of a list in order, a map's
    keys in Go's random order. The structs' orders are read from k8s.io/api
    (``builtin_types.json``'s ``"go"``). A second walk, made only for an object that has a problem (the typed walk keeps
    the first it meets, in the object's order)."""
    if atom is ANYTHING or value is None:
        return None
    if atom.go is not None:
        problem = conversion_problem(atom.go, value)
        if problem is not None:
            return problem
    atom = _deduce(atom, value)
    if atom.map is not None and isinstance(value, Mapping):
        fields, element, order = atom.map.fields, atom.map.element, atom.map.go_order
        keys = list(value)
        if order is not None:
            keys.sort(key=lambda key: order.get(key, len(order)))  # stable: the rest in order
        for key in keys:
            field_atom = fields.get(key, element)
            found = None if field_atom is None else first_conversion_problem(field_atom, value[key])
            if found is not None:
                return found
    elif atom.list is not None and isinstance(value, list):
        for item in value:
            found = first_conversion_problem(atom.list.element, item)
            if found is not None:
                return found
    return None


def conversion_problem(go: str, value: Any) -> str | None:
    """Why ``value`` does not decode into the Go type ``go``: apimachinery's
    ``runtime/converter.go`` (a float64 into an int field only when whole) and
    ``util/intstr``'s ``UnmarshalJSON`` (a string, or ``json.Unmarshal`` into an int32,
    whose errors name the JSON value's kind), and ``metav1.Time``'s and ``MicroTime``'s
    (a string ``time.Parse`` takes as RFC 3339, with six fraction digits for
    ``MicroTime``: ``model.gotime``)."""
    if go == INT_OR_STRING:
        if value is None or isinstance(value, str):
            return None
        kind = json_kind(value)
        if kind == "number":
            text = _go_json_number(value)
            if text.lstrip("-").isdigit() and -(2**31) <= int(text) < 2**31:
                return None
            kind = "number " + text
        return unmarshal_type_error(kind, "int32")
    if go in (TIME, MICRO_TIME):
        from kubectl_crd.model.gotime import time_problem

        return time_problem(value, micro=go == MICRO_TIME)
    if go == QUANTITY:
        # resource.Quantity's UnmarshalJSON parses a string, or the JSON text of
        # anything else (a number's, ``true``'s)
        if value is None:
            return None
        if isinstance(value, str):
            text = value
        elif value is True or value is False:
            text = "true" if value else "false"
        elif isinstance(value, (int, float)):
            text = _go_json_number(value)
        else:
            return None  # a map or list: the typed conversion refused it already
        from kubectl_crd.model.quantity import parse_quantity

        try:
            parse_quantity(text.strip())
        except (ValueError, ZeroDivisionError) as problem:
            return str(problem)
        return None
    if type(value) is float and math.isfinite(value) and not value.is_integer():
        return f"cannot convert float64 to {go}"
    return None


def _go_json_number(value: int | float) -> str:
    """A number as Go's encoding/json writes the value the server decoded (an int64, or
    a float64: 'f' between 1e-6 and 1e21, else 'e' with ``e-07`` cleaned to ``e-7``)."""
    shown = go_v(value)
    if "e" not in shown and "." not in shown:
        return shown  # an int64
    return go_json_float(float(value))


def typed_patch_message(obj: Mapping[str, Any], errors: TypedErrors) -> str:
    """The server's message for a patch that does not convert (``structuredmerge.go``
    Apply, with ``objectGVKNN``: the namespace and name as the patch has them)."""
    where, gvk = _patch_names(obj)
    return f"failed to create typed patch object ({where}; {gvk}): {errors}"


def _patch_names(obj: Mapping[str, Any]) -> tuple[str, str]:
    """``objectGVKNN``'s two halves: ``<ns>/<name>`` as the patch has them, and the
    GroupVersionKind as Go prints it (``/v1, Kind=ConfigMap`` for the core group)."""
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    group, _, version = str(obj.get("apiVersion") or "").rpartition("/")
    where = f"{meta.get('namespace') or ''}/{meta.get('name') or ''}"
    return where, f"{group}/{version}, Kind={obj.get('kind') or ''}"


# -- list-map keys ---------------------------------------------------------------------


def list_keys(atom: Atom, path: tuple[str, ...]) -> tuple[str, ...] | str | None:
    """How an apply merges the value at ``path`` (field names, ``"[]"`` for a list's
    items): a list map's keys, ``"set"`` for a set, ``"atomic"`` for an atomic map or
    struct (replaced whole, as structured-merge-diff's ``merge/update.go`` replaces a
    map whose ``ElementRelationship`` is atomic); None for an atomic list (replaced
    too), a granular map (merged key by key) or a path the schema has not."""
    node: Atom | None = atom
    for part in path:
        if node is None:
            return None
        if part == "[]":
            node = node.list.element if node.list is not None else None
        elif node.map is not None:
            node = node.map.fields.get(part, node.map.element)
        else:
            return None
    if node is not None and node.map is not None and node.map.atomic:
        return "atomic"
    if node is None or node.list is None or node.list.keys is None or node is ANYTHING:
        return None
    return node.list.keys if node.list.keys else "set"
