"""A built-in object's body decoded into its Go type, as kube-apiserver decodes a create
or an update (POST, PUT, PUT of ``/status``), and the values the server then stores.

The server's JSON serializer (apimachinery ``runtime/serializer/json/json.go``) decodes a
request body with sigs.k8s.io/json's ``UnmarshalCaseSensitivePreserveInts``, a fork of
encoding/json (``internal/golang/encoding/json/decode.go``) that matches field names
case-sensitively. A failure is the 400 of apiserver's ``handlers/create.go`` and
``update.go`` (``transformDecodeError``)::

    <Kind> in version "<version>" cannot be handled as a <Kind>: <error>

The Go types are read from k8s.io/api by ``hack/builtin_types.py`` (``builtin_types.json``'s
``"go"``: each struct's JSON fields in order, ``omitempty``/``omitzero``, the Go type
names the messages print). What this mirrors of decode.go:

- a value of the wrong JSON kind for its Go type is an ``UnmarshalTypeError``, kept while
  decoding goes on; the first one (in the body's order) is the error::

      json: cannot unmarshal <what> into Go struct field <Struct>.<path> of type <type>

  ``<what>`` the JSON kind (``number``, ``string``, ``bool``, ``array``, ``object``), or
  ``number <literal>`` for a number an integer type cannot hold (a fraction, out of
  range); ``<Struct>`` the innermost struct whose field is being decoded; ``<path>``
  the JSON names of the fields from the top, no list index or map key; ``<type>`` the
  Go type the value went into (a pointer's element: ``int32``, ``v1.Protocol``,
  ``map[string]string``, ``[]v1.Container``);
- a type's own ``UnmarshalJSON`` failing ends the decoding at once, and its error is the
  one returned even after a kept one: ``metav1.Time`` and ``MicroTime`` (a string
  ``time.Parse`` takes: ``model.gotime``; anything else ``cannot unmarshal
  <what> into ... of type string``), ``intstr.IntOrString`` (a string, or a JSON int32),
  ``resource.Quantity`` (its parse error, no field named: ``model.quantity``);
- ``[]byte`` is a base64 string (``encoding/base64``'s StdEncoding: padding required,
  ``\\r`` and ``\\n`` skipped), else ``illegal base64 data at input byte N``, kept, with
  no field named;
- null leaves a string, number, bool or struct as it was (omitted if ``omitempty``), makes a
  pointer, map or list nil, and a map value or list item its type's zero value (a
  ConfigMap's ``a: null`` is stored as ``a: ""``); ``Time`` null, ``Quantity`` ``"0"``,
  ``IntOrString`` 0;
- a field the struct has not (``Data`` is not ``data``) is dropped: the fieldValidation
  the server takes when a request names none is ``Warn`` (the store's writes name none:
  ``Strict``'s 400 is never asked for), whose warnings ``decode_builtin(unknown=)``
  gives.

What the server stores (the body is normalised in place): a time in UTC, ``Time`` to the
second, ``MicroTime`` to the microsecond, the zero time as null
(``gotime.stored_time``); bytes in canonical base64; a quantity as
``Quantity.String`` writes it (``model.quantity.stored_quantity``: ``0.5`` -> ``500m``), in a
``ResourceList`` rounded up to the milli first (core/v1's ``SetDefaults_ResourceList``,
done here as every container's resources go through the walk; the other defaults are
``validation.builtin_defaulting``'s); an ``omitempty`` field whose value is empty
(``""``, 0, false, ``{}``, ``[]``, null) and an ``omitzero`` time that is zero left out;
and every field encoding/json writes though the body left it out (not ``omitempty``,
or a struct, which omitempty never drops, and not ``omitzero``) at its zero value
(``_zeros``): a container's ``resources: {}``, a Deployment's ``status: {}``, a
ServicePort's ``targetPort: 0`` (defaulting then makes it the port), a Role's
``rules: null``, an Event's ``eventTime: null``; ``zero_field`` gives a top-level
field's (the status a create starts with).

``lenient`` (a server-side apply's merged object: the server converts it from
unstructured, ``runtime/converter.go``, whose refusals ``validation.typed`` mirrors):
nothing is refused, values are normalised as stored (a whole float in an integer field
an int, an int32 that overflows wrapped as the converter wraps it).

Not mirrored: ``fieldValidation=Strict``'s 400 for unknown and duplicate fields (no
caller of the store can ask for it); a Warn path under a map value names no key.

Pure: stdlib and the model and validation layers; the types are read on first use.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kubectl_crd.model.govalues import go_json_float, json_kind, unmarshal_type_error
from kubectl_crd.model.quantity import stored_quantity
from kubectl_crd.model.schema import copy_json

__all__ = [
    "GoType",
    "decode_builtin",
    "go_base64",
    "metadata_only_error",
    "object_meta_error",
    "read_back",
    "zero_field",
]

_EMPTY_STRING, _EMPTY_NUMBER, _EMPTY_BOOL, _EMPTY_LENGTH, _EMPTY_NIL = 1, 2, 3, 4, 5
_OMITEMPTY, _OMITZERO = 1, 2


@dataclass(eq=False, slots=True)
class GoType:
    """One Go type as encoding/json decodes into it."""

    kind: str  # struct slice map ptr string bool int uint float bytes any json
    go: str  # reflect's String(): the type a message names
    name: str = ""  # a struct's Name(): the message's <Struct>
    #: a struct's fields by JSON name: (type, what makes it empty under omitempty (0:
    #: never), whether omitzero drops a zero time)
    fields: dict[str, tuple[GoType, int, bool]] = field(default_factory=dict)
    elem: GoType | None = None
    bits: int = 0
    #: Python types of a value that needs no walk (a string in a string field)
    ok: frozenset[type] = frozenset()
    #: the type a value is decoded into: a pointer's element, else the type itself
    target: GoType = field(init=False)
    #: a struct's fields encoding/json writes even when a body leaves them out (neither
    #: ``omitempty`` on a non-struct nor ``omitzero``), with their zero values
    #: (``_zeros``: made on first use; None until then)
    zeros: tuple[tuple[str, Any], ...] | None = None

    def __post_init__(self) -> None:
        self.target = self


_TIME, _MICRO_TIME = "apis/meta/v1.Time", "apis/meta/v1.MicroTime"
_RESOURCE_LIST = "core/v1.ResourceList"
_QUANTITY, _INT_OR_STRING = "api/resource.Quantity", "util/intstr.IntOrString"


class _Types:
    """The ``"go"`` part of ``builtin_types.json`` made into ``GoType``\\s, each once."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.kinds: dict[str, str] = data["kinds"]
        self.raw: dict[str, Any] = data["types"]
        self.made: dict[str, GoType] = {}
        self.lock = threading.Lock()

    def kind(self, api_version: str, kind: str) -> GoType | None:
        name = self.kinds.get(f"{api_version}/{kind}")
        if name is None:
            return None
        with self.lock:
            return self.type(name)

    def type(self, name: str) -> GoType:
        made = self.made.get(name)
        if made is not None:
            return made
        raw = self.raw[name]
        kind = raw["k"]
        go = raw["go"]
        made = self.made[name] = GoType(kind, go, bits=raw.get("bits", 0))
        if kind in ("json", "map"):
            made.name = name  # which decoder it is (_special), a ResourceList
        if kind == "struct":
            made.name = go.rpartition(".")[2]
            for json_name, type_name, flags in raw["f"]:
                field_type = self.type(type_name)
                empty = _empty_kind(field_type) if flags & _OMITEMPTY else 0
                made.fields[json_name] = (field_type, empty, bool(flags & _OMITZERO))
        elif kind in ("slice", "map", "ptr"):
            made.elem = self.type(raw["e"])
            if kind == "ptr":
                made.target = made.elem.target
        # a pointer's value is its element's (a *bool's true needs no walk either)
        ok: frozenset[type] = _OK.get(kind, _NONE)
        made.ok = made.elem.ok if made.elem is not None and kind == "ptr" else ok
        return made


_NONE: frozenset[type] = frozenset()
_OK: dict[str, frozenset[type]] = {
    "string": frozenset((str,)),
    "bool": frozenset((bool,)),
    "any": frozenset((str, int, float, bool, list, dict, type(None))),
}


def _empty_kind(go_type: GoType) -> int:
    """encoding/json's ``isEmptyValue`` for an omitempty field of this type."""
    kind = go_type.kind
    if kind == "string":
        return _EMPTY_STRING
    if kind in ("int", "uint", "float"):
        return _EMPTY_NUMBER
    if kind == "bool":
        return _EMPTY_BOOL
    if kind in ("slice", "map", "bytes"):
        return _EMPTY_LENGTH
    if kind in ("ptr", "any"):
        return _EMPTY_NIL
    return 0  # a struct (Time, Quantity, IntOrString too) is never empty


def _is_empty(value: Any, empty: int) -> bool:
    if value is None:
        return True
    if empty in (_EMPTY_STRING, _EMPTY_LENGTH):
        return not value
    if empty == _EMPTY_NUMBER:
        return value == 0 and value is not False
    if empty == _EMPTY_BOOL:
        return value is False
    return False


_TYPES: _Types | None = None
_LOADING = threading.Lock()


def _types() -> _Types:
    global _TYPES
    if _TYPES is None:
        with _LOADING:
            if _TYPES is None:
                from kubectl_crd.validation.typed import builtin

                _TYPES = _Types(builtin().go_types)
    return _TYPES


class _Fatal(Exception):
    """An ``UnmarshalJSON`` error: the decoding ends here."""


class _DROP:
    """A struct field the decoded struct leaves out."""


def _literal(value: int | float) -> str:
    """A number's text in the body, as Python's json writes it (the store's caller
    sends its objects so; Go's message quotes the text)."""
    return repr(value) if isinstance(value, float) else str(value)


class _Decoder:
    __slots__ = (
        "indices", "lenient", "literal", "milli", "path", "saved", "saved_at", "struct", "unknown",
    )  # fmt: skip

    def __init__(self, lenient: bool, unknown: list[str] | None = None) -> None:
        self.lenient = lenient
        #: the unknown fields' paths found, when asked for (``decode_builtin``)
        self.unknown = unknown
        #: the index of the list item being decoded under ``path[:depth]``, by depth
        self.indices: dict[int, int] = {}
        #: a number's text as the message quotes it: the body's
        self.literal: Callable[[int | float], str] = _literal
        self.milli = False
        self.struct = ""
        self.path: list[str] = []
        self.saved: str | None = None
        #: where ``saved`` was found: the JSON path, list indices included
        self.saved_at: list[str | int] = []

    # -- errors ----------------------------------------------------------------------

    def message(self, what: str, go: str) -> str:
        where = f"{self.struct}.{'.'.join(self.path)}" if self.struct or self.path else ""
        return unmarshal_type_error(what, go, where)

    def mismatch(self, what: str, go: str) -> None:
        """``d.saveError(&UnmarshalTypeError{...})``: the first one is kept."""
        if self.saved is None and not self.lenient:
            self.saved = self.message(what, go)
            self.saved_at = self.segments()

    def segments(self) -> list[str | int]:
        """The JSON path being decoded, each list item's index after its list's name."""
        out: list[str | int] = []
        for depth, name in enumerate(self.path, 1):
            out.append(name)
            if depth in self.indices:
                out.append(self.indices[depth])
        return out

    def where(self, key: str) -> str:
        """The field path the server's Warn names (``unknown field "<path>"``): the JSON
        names from the top with each list item's index (``containers[0].bogus``)."""
        indices = self.indices
        parts = [
            f"{name}[{indices[depth]}]" if depth in indices else name
            for depth, name in enumerate(self.path, 1)
        ]
        return ".".join([*parts, key])

    # -- values ----------------------------------------------------------------------

    def value(self, go_type: GoType, value: Any) -> Any:
        """The value as stored, after the checks of its decoding into ``go_type``."""
        if value is None:
            return _zero(go_type)
        go_type = go_type.target
        if type(value) in go_type.ok:
            return value
        kind = go_type.kind
        if kind == "struct":
            if type(value) is dict:
                return self.struct_value(go_type, value)
        elif kind == "map":
            if type(value) is dict:
                return self.map_value(go_type, value)
        elif kind == "slice":
            if type(value) is list:
                return self.list_value(go_type, value)
        elif kind == "json":
            return self.special(go_type, value)
        elif kind == "int" or kind == "uint":
            return self.integer(go_type, value)
        elif kind == "bytes":
            return self.bytes_value(go_type, value)
        elif kind == "float" and type(value) in (int, float):
            return value
        what = json_kind(value)
        self.mismatch(what, go_type.go)
        return value

    def struct_value(self, go_type: GoType, value: dict[str, Any]) -> dict[str, Any]:
        fields = go_type.fields
        name = go_type.name
        outer = self.struct
        path = self.path
        dropped: list[str] = []
        # values are replaced as the walk goes (a dict allows that); keys are dropped after
        for key, item in value.items():
            found = fields.get(key)
            if found is None:
                dropped.append(key)  # an unknown field: Warn drops it
                if self.unknown is not None:
                    self.unknown.append(self.where(key))
                continue
            field_type, empty, omitzero = found
            if type(item) in field_type.ok:
                if empty and not item and _is_empty(item, empty):
                    dropped.append(key)
                continue
            path.append(key)
            self.struct = name
            made: Any
            target = field_type.target
            if type(item) is dict and target.kind == "struct":
                # the usual nested object (spec, template, metadata): never omitted (a
                # struct is not empty to omitempty; a pointer to one is set)
                self.struct_value(target, item)
                made = item
            else:
                made = self.field_value(field_type, item, empty, omitzero)
            # an UnmarshalJSON error raised past here ends the walk: no state to restore
            path.pop()
            self.struct = outer
            if made is _DROP:
                dropped.append(key)
            elif made is not item:
                value[key] = made
        for key in dropped:
            del value[key]
        # encoding/json writes every field that is not omitempty (a non-struct) or
        # omitzero, set or not: the zero values of the fields the body left out
        zeros = go_type.zeros if go_type.zeros is not None else _zeros(go_type)
        for key, zero in zeros:
            if key not in value:
                value[key] = _fresh(zero) if type(zero) is dict else zero
        return value

    def field_value(self, field_type: GoType, item: Any, empty: int, omitzero: bool) -> Any:
        if item is None:
            # a literal null: nil for a pointer, map, list; a primitive or struct keeps
            # its zero value; a type with UnmarshalJSON decodes "null" itself
            target = field_type
            if target.kind == "json":
                made = _SPECIAL_NULLS.get(target.name)
            elif target.kind in ("string", "int", "uint", "float", "bool", "struct"):
                made = _zero(target)
            else:
                made = None
        else:
            made = self.value(field_type, item)
            if empty == _EMPTY_NIL:
                return made  # a pointer set by a value, even one marshalled as null
        if (empty and _is_empty(made, empty)) or (omitzero and made is None):
            return _DROP
        return made

    def map_value(self, go_type: GoType, value: dict[str, Any]) -> dict[str, Any]:
        elem = go_type.elem
        assert elem is not None
        ok = elem.ok
        # core/v1's defaulting (SetDefaults_ResourceList) rounds a ResourceList's
        # quantities up to the milli: the one default the store applies, as every
        # container's resources go through it
        self.milli = go_type.name == _RESOURCE_LIST
        for key, item in value.items():
            if type(item) in ok:
                continue
            made = _zero(elem) if item is None else self.value(elem, item)
            if made is not item:
                value[key] = made
        self.milli = False
        return value

    def list_value(self, go_type: GoType, value: list[Any]) -> list[Any]:
        elem = go_type.elem
        assert elem is not None
        ok = elem.ok
        struct = elem.target if elem.target.kind == "struct" else None
        depth = len(self.path)
        for index, item in enumerate(value):
            if type(item) in ok:
                continue
            self.indices[depth] = index
            if struct is not None and type(item) is dict:
                self.struct_value(struct, item)  # containers, ports, env: no detour
                continue
            made = _zero(elem) if item is None else self.value(elem, item)
            if made is not item:
                value[index] = made
        self.indices.pop(depth, None)
        return value

    def integer(self, go_type: GoType, value: Any) -> Any:
        """strconv.ParseInt/ParseUint of the number's text, then the type's range."""
        bits = go_type.bits
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        if go_type.kind == "uint":
            low, high = 0, (1 << bits) - 1
        kind = type(value)
        if kind is int:
            if low <= value <= high:
                return value
            if self.lenient:
                # the unstructured converter's SetInt: two's complement of the bits
                wrapped = value & ((1 << bits) - 1)
                if go_type.kind == "int" and wrapped > high:
                    wrapped -= 1 << bits
                return wrapped
            self.mismatch(f"number {value}", go_type.go)
            return value
        if kind is float:
            if self.lenient:
                return int(value) if value.is_integer() else value
            self.mismatch(f"number {self.literal(value)}", go_type.go)
            return value
        self.mismatch(json_kind(value), go_type.go)
        return value

    def bytes_value(self, go_type: GoType, value: Any) -> Any:
        if type(value) is str:
            decoded, problem = go_base64(value)
            if problem is not None:
                if self.saved is None and not self.lenient:
                    self.saved = problem  # a plain error: no field named
                return value
            return base64.b64encode(decoded).decode("ascii")
        if type(value) is list:
            # a JSON array into []byte: its items are uint8 numbers
            byte_type = GoType("uint", "uint8", bits=8)
            items = [self.integer(byte_type, item) if item is not None else 0 for item in value]
            if all(type(item) is int and 0 <= item < 256 for item in items):
                return base64.b64encode(bytes(items)).decode("ascii")
            return value
        self.mismatch(json_kind(value), go_type.go)
        return value

    def special(self, go_type: GoType, value: Any) -> Any:
        """A type with its own ``UnmarshalJSON``: its errors end the decoding."""
        name = go_type.name
        if name in (_TIME, _MICRO_TIME):
            micro = name == _MICRO_TIME
            if type(value) is str:
                # the same times come back on every update of an object: parsed once
                known = _TIMES.get((value, micro), _TIMES)
                if known is not _TIMES:
                    return known
            from kubectl_crd.model.gotime import stored_time, time_problem

            problem = time_problem(value, micro=micro)
            if problem is None:
                stored = stored_time(value, micro=micro)
                if len(_TIMES) >= 4096:
                    _TIMES.clear()
                _TIMES[(value, micro)] = stored
                return stored
            if self.lenient:
                return value
            # the inner json.Unmarshal's type error gets the field's context
            # (decode.go addErrorContext); time.Parse's error is returned as is
            raise _Fatal(problem.replace("Go value of type", _field(self)))
        if name == _INT_OR_STRING:
            if type(value) is str:
                return value
            if type(value) is int:
                if -(1 << 31) <= value < (1 << 31):
                    return value
                what = f"number {value}"
            elif type(value) is float:
                if self.lenient and value.is_integer():
                    return int(value)
                what = f"number {_literal(value)}"
            else:
                what = json_kind(value)
            if self.lenient:
                return value
            raise _Fatal(self.message(what, "int32"))
        if name == _QUANTITY:
            if type(value) is str:
                known = _QUANTITIES.get((value, self.milli))
                if known is not None:
                    return known
                text = value
            elif value is True or value is False:
                text = "true" if value else "false"
            elif type(value) in (int, float):
                text = _literal(value)
            else:
                text = "{" if type(value) is dict else "["  # the raw JSON text's start
            try:
                stored = stored_quantity(text.strip(), milli=self.milli)
            except (ValueError, ZeroDivisionError) as problem:
                if self.lenient:
                    return value
                raise _Fatal(str(problem)) from None
            if type(value) is str:
                if len(_QUANTITIES) >= 4096:
                    _QUANTITIES.clear()
                _QUANTITIES[(value, self.milli)] = stored  # objects repeat them ("100m")
            return stored
        return value  # FieldsV1 and the like: any JSON


def _zeros(go_type: GoType) -> tuple[tuple[str, Any], ...]:
    """``go_type.zeros``, made once (a recursive type sees itself with none)."""
    if go_type.zeros is None:
        go_type.zeros = ()
        go_type.zeros = tuple(
            (name, _zero(field_type))
            for name, (field_type, empty, omitzero) in go_type.fields.items()
            if not empty and not omitzero
        )
    return go_type.zeros


def _zero(go_type: GoType) -> Any:
    """What encoding/json writes for ``go_type``'s zero value (a struct: its fields that
    are always written; a pointer, list, map or interface: null): what a null map value
    or list item decodes to, and a field a body leaves out."""
    kind = go_type.kind
    if kind == "string":
        return ""
    if kind in ("int", "uint", "float"):
        return 0
    if kind == "bool":
        return False
    if kind == "struct":
        zeros = go_type.zeros if go_type.zeros is not None else _zeros(go_type)
        return {key: _fresh(zero) if type(zero) is dict else zero for key, zero in zeros}
    if kind == "json":
        return _SPECIAL_NULLS.get(go_type.name)
    return None


def _fresh(zero: dict[str, Any]) -> dict[str, Any]:
    """A copy of a struct's zero value (dicts of scalars and dicts, mostly empty)."""
    return {key: _fresh(value) if type(value) is dict else value for key, value in zero.items()}


def zero_field(api_version: str, kind: str, name: str) -> Any:
    """What the server writes for ``kind``'s top-level field ``name`` left at its zero
    value (a Deployment's ``status: {}``, a Service's ``status: {loadBalancer: {}}``);
    None for a kind or field the shipped types have not."""
    go_type = _kind_type(api_version, kind)
    if go_type is None or name not in go_type.fields:
        return None
    return _zero(go_type.fields[name][0].target)


def _field(decoder: _Decoder) -> str:
    """``Go struct field <Struct>.<path> of type`` of where the decoder is."""
    return f"Go struct field {decoder.struct}.{'.'.join(decoder.path)} of type"


#: (quantity string, rounded to the milli) -> what is stored (dict operations are atomic
#: under the GIL)
_QUANTITIES: dict[tuple[str, bool], str] = {}
#: (apiVersion, kind) -> its Go type (None: not a kind the file has)
_KINDS: dict[tuple[str, str], Any] = {}
#: times that parsed, (text, micro) -> what is stored (None: the zero time)
_TIMES: dict[tuple[str, bool], Any] = {}

#: what a null decodes to in a type with its own UnmarshalJSON (then marshalled)
_SPECIAL_NULLS: dict[str, Any] = {_TIME: None, _MICRO_TIME: None, _QUANTITY: "0", _INT_OR_STRING: 0}

_BASE64_CANONICAL = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_BASE64_ALPHABET = {
    c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
}
_BASE64_URL_CANONICAL = re.compile(r"[A-Za-z0-9_-]*={0,2}")
_BASE64_URL_ALPHABET = {
    c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
}
_FROM_URL = str.maketrans("-_", "+/")


def go_base64(text: str, *, url: bool = False) -> tuple[bytes, str | None]:
    """``base64.StdEncoding.Decode`` of a string's UTF-8 bytes (``URLEncoding``'s with
    ``url``: ``-`` and ``_`` for ``+`` and ``/``): the bytes, or Go's
    ``CorruptInputError`` message (``illegal base64 data at input byte N``). Padding
    is required; ``\\r`` and ``\\n`` are skipped anywhere; bits after the last byte
    need not be zero (not strict)."""
    canonical, alphabet = (
        (_BASE64_URL_CANONICAL, _BASE64_URL_ALPHABET)
        if url
        else (_BASE64_CANONICAL, _BASE64_ALPHABET)
    )
    if len(text) % 4 == 0 and canonical.fullmatch(text):
        try:
            plain = text.translate(_FROM_URL) if url else text
            return binascii.a2b_base64(plain, strict_mode=True), None
        except binascii.Error:
            pass  # a misplaced "=": Go's walk below names the byte
    data = text.encode("utf-8", "surrogatepass")
    out = bytearray()
    at = 0
    size = len(data)
    while at < size:
        # decodeQuantum: up to four characters, newlines skipped
        quantum: list[int] = []
        length = 4
        while len(quantum) < 4:
            if at == size:
                if not quantum:
                    return bytes(out), None
                return bytes(out), f"illegal base64 data at input byte {at - len(quantum)}"
            char = data[at]
            at += 1
            if char in (10, 13):
                continue
            sextet = alphabet.get(chr(char))
            if sextet is not None:
                quantum.append(sextet)
                continue
            if char != 61:  # not "="
                return bytes(out), f"illegal base64 data at input byte {at - 1}"
            # padding
            got = len(quantum)
            if got < 2:
                return bytes(out), f"illegal base64 data at input byte {at - 1}"
            if got == 2:
                while at < size and data[at] in (10, 13):
                    at += 1
                if at == size:
                    return bytes(out), f"illegal base64 data at input byte {size}"
                if data[at] != 61:
                    return bytes(out), f"illegal base64 data at input byte {at - 1}"
                at += 1
            while at < size and data[at] in (10, 13):
                at += 1
            length = got
            if at < size:
                problem = f"illegal base64 data at input byte {at}"
                _append(out, quantum, length)
                return bytes(out), problem
            break
        _append(out, quantum, length)
    return bytes(out), None


def _append(out: bytearray, quantum: list[int], length: int) -> None:
    quantum = quantum + [0] * (4 - len(quantum))
    value = quantum[0] << 18 | quantum[1] << 12 | quantum[2] << 6 | quantum[3]
    out.extend(value.to_bytes(3, "big")[: length - 1])


def decode_builtin(
    obj: dict[str, Any],
    api_version: str,
    kind: str,
    *,
    lenient: bool = False,
    bare: bool = False,
    unknown: list[str] | None = None,
) -> str | None:
    """Decode ``obj`` (a built-in object's body, a plain dict the caller owns) into
    ``api_version``'s ``kind`` as the server decodes a create's or update's body:
    normalised in place to what the server stores, and the server's 400 message when
    it does not decode (None when it does, and always with ``lenient``). A kind the
    shipped types have not is left as it is. ``bare``: the decoder's own error, without
    the create and update handlers' head (a patch's handler words it otherwise).
    ``unknown``: the paths of the fields the types have not (which the decoding drops)
    are appended to it, in the body's order, as the server's ``fieldValidation=Warn``
    names them in its warnings (``spec.template.spec.containers[0].bogus``)."""
    go_type = _kind_type(api_version, kind)
    if go_type is None:
        return None
    decoder = _Decoder(lenient, unknown)
    try:
        decoder.struct_value(go_type, obj)
    except _Fatal as fatal:
        error: str | None = str(fatal)
    else:
        error = decoder.saved
    if error is None or bare:
        return error
    return undecodable_body(kind, api_version.rpartition("/")[2], kind, error)


def undecodable_body(body_kind: str, version: str, endpoint_kind: str, error: str) -> str:
    """The create and update handlers' 400 for a body they could not decode or convert
    (apiserver ``handlers/create.go``, ``update.go``: transformDecodeError), naming the
    kind and version the body was read as and the endpoint's kind."""
    return f'{body_kind} in version "{version}" cannot be handled as a {endpoint_kind}: {error}'


def _kind_type(api_version: str, kind: str) -> Any:
    """The shipped Go type of ``api_version``'s ``kind`` (None: a kind the file has not)."""
    go_type = _KINDS.get((api_version, kind), _KINDS)
    if go_type is _KINDS:
        go_type = _KINDS[(api_version, kind)] = _types().kind(api_version, kind)
    return go_type


#: runtime.NewNotRegisteredErrForKind's scheme name: the file and line of
#: apimachinery's runtime.NewScheme that made kube-apiserver's (``pkg/runtime/scheme.go:110``)
SCHEME_NAME = "pkg/runtime/scheme.go:110"


def body_kind_problem(
    obj: dict[str, Any], api_version: str, kind: str, *, bare: bool = False
) -> str | None:
    """The server's 400 for a create's or update's body sent to ``api_version``'s
    ``kind`` endpoint that names another kind, None when it names that one (an
    apiVersion or kind the body leaves out is the endpoint's, and ``obj`` is given them:
    the server's answer and what it stores always have them).

    The handler (apiserver ``handlers/create.go``, ``update.go``) decodes the body into
    the type its apiVersion and kind name, the endpoint's filling in what it leaves out
    as the JSON serializer's ``gvkWithDefaults`` does (``runtime/serializer/json``),
    then converts it to the endpoint's internal type. A kind the scheme has not is
    ``no kind "Gadget" is registered for version "v1"`` (``validation.scheme_kinds``,
    read from the release's sources); one it has fails the conversion, ``converting
    (v1.Secret) to (core.ConfigMap): unknown conversion``, after its own decoding, whose
    error comes first (a Secret's ``data`` is base64). The same kind of another version
    or group is converted (``apps/v1beta2``'s Deployment, ``events.k8s.io``'s Event):
    taken here as the endpoint's version (the differences of the older types are not
    mirrored). An apiVersion or kind that is no string is left to the decoding. ``bare``:
    the error without the create and update handlers' head (``decode_builtin``'s)."""
    named_version, named_kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(named_version, str | None) or not isinstance(named_kind, str | None):
        return None
    group, _, version = (named_version or "").rpartition("/")
    endpoint_group, _, endpoint_version = api_version.rpartition("/")
    actual_kind = named_kind or kind
    if not version and not group:
        group, version = endpoint_group, endpoint_version
    elif not version and group == endpoint_group:
        version = endpoint_version
    group_version = f"{group}/{version}" if group else version
    problem = None
    if not version:
        # another group with no version: the serializer's NewMissingVersionErr, which
        # quotes the body as sent (compact JSON, as the clients of the store would send it)
        sent = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
        problem = f"Object 'apiVersion' is missing in '{sent}'"
    elif group_version != api_version or actual_kind != kind:
        from kubectl_crd.validation.scheme_kinds import INTERNAL_PACKAGES, META_KINDS, SCHEME_KINDS

        if actual_kind not in SCHEME_KINDS.get(group_version, "").split():
            problem = (
                f'no kind "{actual_kind}" is registered for version "{group_version}" '
                f'in scheme "{SCHEME_NAME}"'
            )
        elif actual_kind != kind:
            problem = decode_builtin(copy_json(obj), group_version, actual_kind, bare=True)
            if problem is None:
                package = "v1" if actual_kind in META_KINDS.split() else version
                internal = INTERNAL_PACKAGES.get(endpoint_group, endpoint_group)
                problem = (
                    f"converting ({package}.{actual_kind}) to ({internal}.{kind}): "
                    "unknown conversion"
                )
    if problem is not None:
        if bare:
            return problem
        return undecodable_body(actual_kind, version, kind, problem)
    if named_version != api_version or named_kind != kind:
        # first, as the server writes TypeMeta's fields
        rest = {key: value for key, value in obj.items() if key not in ("apiVersion", "kind")}
        obj.clear()
        obj.update(apiVersion=api_version, kind=kind, **rest)
    return None


_OBJECT_META = "apis/meta/v1.ObjectMeta"
_INT64_RANGE = range(-(1 << 63), 1 << 63)


def _go_number(value: int | float) -> str:
    return go_json_float(value) if type(value) is float else str(value)


def _object_meta_decoding() -> tuple[_Decoder, GoType]:
    """A strict decoder writing numbers as Go writes the ones it read, and
    ``metav1.ObjectMeta``'s type: what decoding metadata alone takes."""
    decoder = _Decoder(False)
    decoder.literal = _go_number
    types = _types()
    with types.lock:  # a type is in ``made`` before its fields are (as in ``_Types.kind``)
        object_meta = types.type(_OBJECT_META)
    return decoder, object_meta


def object_meta_error(metadata: dict[str, Any]) -> str | None:
    """The error of a custom resource's ``metadata`` decoded into ``metav1.ObjectMeta``,
    None when it decodes. apiextensions-apiserver decodes the unstructured map marshalled
    again (``schema/objectmeta/coerce.go`` GetObjectMeta): its keys come sorted, and a
    number past int64 was read as a float64 and is written as Go writes one
    (``9223372036854776000``). ``metadata`` is not changed."""
    value = {}
    for key in sorted(metadata):
        item = metadata[key]
        if type(item) is int and item not in _INT64_RANGE:
            item = float(item)
        value[key] = item
    value = copy_json(value)  # one copy, which the decoding may change
    decoder, object_meta = _object_meta_decoding()
    try:
        decoder.struct_value(object_meta, value)
    except _Fatal as fatal:
        return str(fatal)
    return decoder.saved


def metadata_only_error(obj: dict[str, Any]) -> tuple[str, list[str | int]] | None:
    """What kubectl says of a document whose metadata does not decode, and where, None
    when it decodes. kubectl's builder decodes each document it reads into
    ``metadataOnlyObject`` (apiVersion, kind, ``metav1.ObjectMeta`` at ``metadata``)
    before it sends anything (cli-runtime ``resource/metadata_decoder.go``), with the
    server's case-sensitive decoder, over the JSON ``sigs.k8s.io/yaml`` made of the
    YAML: every map's keys sorted, a whole float written as an integer. ``obj`` is not
    changed."""
    from kubectl_crd.model.yamlscalars import ScalarError, json_float

    def as_sent(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: as_sent(value[key]) for key in sorted(value)}
        if isinstance(value, list):
            return [as_sent(item) for item in value]
        if type(value) is float:
            try:
                return json_float(value)
            except ScalarError:
                return value
        return value

    metadata = obj.get("metadata")
    if metadata is None:
        return None
    decoder, object_meta = _object_meta_decoding()
    decoder.struct, decoder.path = "metadataOnlyObject", ["metadata"]
    try:
        decoder.value(object_meta, as_sent(metadata))
    except _Fatal as fatal:
        return str(fatal), decoder.segments()
    return None if decoder.saved is None else (decoder.saved, decoder.saved_at)


def read_back(obj: dict[str, Any], api_version: str, kind: str) -> None:
    """``obj``, a decoded built-in object, as the server reads it back from etcd, where
    a built-in is stored as protobuf: an empty list, map or bytes and nil are one there,
    so a field that is not ``omitempty`` and held one is null in what every read (and a
    write's answer, a dry run's too: the storage codec's round trip) shows, as a Role's
    ``rules: []`` (apimachinery ``runtime/serializer/protobuf``, the generated
    ``Unmarshal`` leaving a repeated field with no element nil). Validation saw the
    request's value before this (``[]``: a Go slice of length 0). In place."""
    go_type = _kind_type(api_version, kind)
    plan = _READ_BACK_PLANS.get(go_type, _READ_BACK_PLANS) if go_type is not None else None
    if plan is _READ_BACK_PLANS:
        # made aside and published whole: another thread never sees a plan half made
        made: dict[GoType, Any] = {}
        plan = _read_back_plan(go_type, made)
        _READ_BACK_PLANS.update(made)
    if plan:
        _read_back_struct(plan, obj)


#: what the round trip can change in a value of a Go type (``_read_back_plan``): a
#: struct's plan is a list of (JSON name, whether an empty value there becomes null, the
#: plan of its value or None), only of the fields where something can change; a list's
#: or map's is ("items", its element's plan); None: nothing can. Most fields are
#: ``omitempty``, so a Deployment's write looks at a handful of its values, not all.
_READ_BACK_PLANS: dict[GoType, Any] = {}


def _read_back_plan(go_type: GoType, made: dict[GoType, Any]) -> Any:
    for known in (_READ_BACK_PLANS, made):
        if go_type in known:
            return known[go_type]
    kind = go_type.kind
    plan: Any = None
    if kind == "struct":
        # registered before its fields are looked at: a type met again inside itself
        # shares the list, filled below
        fields: list[tuple[str, bool, Any]] = []
        made[go_type] = fields
        for key, (field_type, empty, _) in go_type.fields.items():
            target = field_type.target
            nulled = (
                not empty and target.kind in ("slice", "map", "bytes") and field_type.kind != "ptr"
            )
            inner = _read_back_plan(target, made)
            if nulled or inner is not None:
                fields.append((key, nulled, inner))
        plan = fields or None
    elif kind in ("slice", "map") and go_type.elem is not None:
        inner = _read_back_plan(go_type.elem.target, made)
        plan = None if inner is None else ("items", inner)
    made[go_type] = plan
    return plan


def _read_back_struct(plan: list[tuple[str, bool, Any]], value: dict[str, Any]) -> None:
    for key, nulled, inner in plan:
        item = value.get(key)
        if not item:
            # an empty list, map or bytes in a field that is not omitempty is null (one
            # under a pointer stays); nothing is under an empty value
            if nulled and item is not None:
                value[key] = None
            continue
        if inner is not None:
            _read_back_value(inner, item)


def _read_back_value(plan: Any, value: Any) -> None:
    if type(plan) is tuple:
        inner = plan[1]
        for item in value.values() if type(value) is dict else value:
            if item:
                _read_back_value(inner, item)
    elif type(value) is dict:
        _read_back_struct(plan, value)
