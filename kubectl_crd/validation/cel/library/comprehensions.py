"""``cel.@mapInsert``, which the two-variable comprehensions' ``transformMap`` and
``transformMapEntry`` expand to (cel-go ``ext/comprehensions.go``).

cel-cpp declares the function with the extension but binds no implementation of it
in this engine ("No overload found in reference resolve step for cel.@mapInsert"),
and a name it declared cannot be declared again; so ``environment.runnable`` renames
the calls in a compiled program to ``MAP_INSERT``, implemented here. Overloads per
kind of key and value: a parameter of type ``dyn`` does not dispatch in this engine.
"""

from __future__ import annotations

from typing import Any

from cel_expr_python import cel

from kubectl_crd.validation.cel.library.base import Library

T = cel.Type
MAP_INSERT = "__mapInsert"
_KEYS = {"int": T.INT, "uint": T.UINT, "string": T.STRING, "bool": T.BOOL}
_VALUES = {
    **_KEYS,
    "double": T.DOUBLE,
    "bytes": T.BYTES,
    "null": T.NULL,
    "list": T.List(T.DYN),
    "map": T.Map(T.DYN, T.DYN),
    "timestamp": T.TIMESTAMP,
    "duration": T.DURATION,
}
_MAP = T.Map(T.DYN, T.DYN)


def _go_text(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def insert(target: dict[Any, Any], key: Any, value: Any) -> dict[Any, Any]:
    """``types.InsertMapKeyValue``: a new map with one more entry."""
    if key in target:
        raise ValueError(f"insert failed: key {_go_text(key)} already exists")
    inserted = dict(target)
    inserted[key] = value
    return inserted


def merge(target: dict[Any, Any], update: dict[Any, Any]) -> dict[Any, Any]:
    """``@mapInsert_map_map``: each entry of ``update`` inserted in turn."""
    for key, value in update.items():
        target = insert(target, key, value)
    return target


_SIGNATURES = [
    *(
        (f"__mapInsert_{key}_{value}", [_MAP, key_type, value_type], insert)
        for key, key_type in _KEYS.items()
        for value, value_type in _VALUES.items()
    ),
    ("__mapInsert_map_map", [_MAP, _MAP], merge),
]
OVERLOAD_IDS = tuple(overload for overload, _, _ in _SIGNATURES)
OVERLOADS = [cel.Overload(o, _MAP, parameters, impl=impl) for o, parameters, impl in _SIGNATURES]

LIBRARY = Library("two-variable comprehensions", "1.32", ((MAP_INSERT, OVERLOADS),))
