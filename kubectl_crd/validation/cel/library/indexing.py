"""``indexOf`` and ``lastIndexOf``: on lists (Kubernetes' ``library/lists.go``) and on
strings (cel-go's strings extension, as Kubernetes 1.34 vendors it).

The engine's strings extension owns both names for strings and refuses a second
declaration, so a list could not have them. Rules are therefore compiled with
``.indexOf(``/``.lastIndexOf(`` rewritten (outside string literals) to
``.__indexOf(``/``.__lastIndexOf(`` (``rewrite``), which this module declares for both:

- on a list, the position of the first (last) element equal to the argument under CEL's
  equality (numbers equal across int, uint and double; ``true`` is not ``1``; lists and
  maps element by element), or -1; one overload per kind of argument, since the engine
  matches Python functions on kinds and not on ``dyn``;
- on a string, cel-go v0.26's ``indexOfOffset``/``lastIndexOfOffset``: positions in
  code points; ``""`` found at the offset; an offset past the end gives -1; a negative
  offset is the error ``index out of range: N``.

A library's value (a URL, an IP...) reaching a call through ``dyn`` with operands no
overload takes is cel-go's dispatch error naming their types
(``no such overload: indexOf(kubernetes.URL, int)``): overloads on a type no expression
has (``types.ANY_LIBRARY_VALUE``) catch it at run time, and a list's search finds one.

Checker messages name ``indexOf`` again (``original_name``); a compile error's column
after a rewritten call is off by two (the engine saw ``__``).

The engine cannot hand Python a list holding an optional (``checked.optional_escapes``:
it raises, or kills the process), nor an optional argument (no overload takes one),
and ``optional.of(1.0)`` equals ``optional.of(1)`` (cel-go's ``Optional.Equal``
compares the values) where ``cel_equal`` cannot see it. So in a rule that makes an
optional, a call whose receiver is typed ``list`` or ``dyn`` is compiled as
``in_engine`` writes it (``environment.compile_runnable``): a comprehension comparing
each element with the engine's own ``==``, which is cel-go's ``Equal`` for every type
(test_cel_index_of_differential holds it to the server), and which ``runtime_cost``
charges as the server charges the call (``INDEX_PAIRS``).
"""

from __future__ import annotations

import re
from typing import Any

from cel_expr_python import cel

from kubectl_crd.validation.cel.library import types
from kubectl_crd.validation.cel.library.base import Library

T = cel.Type
LIST = T.List(T.DYN)
_NAMES = {"indexOf": "__indexOf", "lastIndexOf": "__lastIndexOf"}
_CALL = re.compile(r"\.\s*(indexOf|lastIndexOf)\s*\(")


def cel_equal(a: Any, b: Any) -> bool:
    """CEL's ``==`` on plain values (heterogeneous numeric equality)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(cel_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(cel_equal(a[k], b[k]) for k in a)
    if type(a) is not type(b) and not (isinstance(a, str) and isinstance(b, str)):
        return False
    return bool(a == b)


def list_index_of(items: list[Any], wanted: Any) -> int:
    for position, item in enumerate(items):
        if cel_equal(item, wanted):
            return position
    return -1


def list_last_index_of(items: list[Any], wanted: Any) -> int:
    for position in range(len(items) - 1, -1, -1):
        if cel_equal(items[position], wanted):
            return position
    return -1


def _searched(text: str, sub: str, offset: int) -> int | None:
    """cel-go's guards of both offset searches: the answer they give without searching
    (``""`` is found at the offset, past the end is -1), or None to search."""
    if sub == "":
        return offset
    if offset < 0:
        raise ValueError(f"index out of range: {offset}")
    return -1 if offset >= len(text) else None


def string_index_of(text: str, sub: str, offset: int = 0) -> int:
    answer = _searched(text, sub, offset)
    return text.find(sub, offset) if answer is None else answer


def string_last_index_of(text: str, sub: str, offset: int | None = None) -> int:
    if offset is None:
        if sub == "":
            return len(text)
        if len(text.encode()) < len(sub.encode()):
            return -1
        offset = len(text) - 1
    answer = _searched(text, sub, offset)
    if answer is not None:
        return answer
    return text.rfind(sub, 0, min(offset, len(text) - len(sub)) + len(sub))


# the kinds an element can have, with cel-go's name of each (``ref.Type.TypeName``);
# the engine matches a Python function on kinds
_ELEMENT_KINDS = (
    ("int", T.INT, "int"),
    ("uint", T.UINT, "uint"),
    ("double", T.DOUBLE, "double"),
    ("string", T.STRING, "string"),
    ("bool", T.BOOL, "bool"),
    ("bytes", T.BYTES, "bytes"),
    ("null", T.NULL, "null_type"),
    ("list", LIST, "list"),
    ("map", T.Map(T.DYN, T.DYN), "map"),
    ("duration", T.DURATION, "google.protobuf.Duration"),
    ("timestamp", T.TIMESTAMP, "google.protobuf.Timestamp"),
)
#: any library value (``types.ANY_LIBRARY_VALUE``): only a ``dyn`` operand reaches these
_LIBRARY_VALUE = T(types.ANY_LIBRARY_VALUE)


def _no_such_overload(function: str, *names: str | None) -> Any:
    """cel-go's error where its dispatch over ``function``'s overloads finds none for
    the operands (``common/decls/decls.go: MaybeNoSuchOverload``), which names each
    operand's type: ``names``, None where the operand is a library value (its message's
    name is its type's)."""

    def impl(*operands: Any) -> int:
        said = [
            name if name is not None else operand.DESCRIPTOR.full_name
            for name, operand in zip(names, operands, strict=True)
        ]
        raise ValueError(f"no such overload: {function}({', '.join(said)})")

    return impl


def _overloads(name: str, function: str, on_list: Any, on_string: Any) -> list[Any]:
    overloads = [
        cel.Overload(f"list_{name}_{kind}", T.INT, [LIST, cel_type], is_member=True, impl=on_list)
        for kind, cel_type, _ in _ELEMENT_KINDS
    ]
    overloads.append(
        cel.Overload(
            f"list_{name}_library_value",
            T.INT,
            [LIST, _LIBRARY_VALUE],
            is_member=True,
            impl=on_list,
        )
    )
    overloads.append(
        cel.Overload(f"string_{name}", T.INT, [T.STRING, T.STRING], is_member=True, impl=on_string)
    )
    overloads.append(
        cel.Overload(
            f"string_{name}_offset",
            T.INT,
            [T.STRING, T.STRING, T.INT],
            is_member=True,
            impl=on_string,
        )
    )
    # operands of a dyn call that no overload of cel-go's takes, where one is a library
    # value: the engine's own dispatch error could not name its type (``struct``). Not
    # for a list or a map argument, which may hold an optional the engine cannot hand
    # over (the module's docstring): those stay ``dispatch_error``'s plain words.
    scalars = [
        (kind, cel_type, go) for kind, cel_type, go in _ELEMENT_KINDS if go not in ("list", "map")
    ]
    for kind, cel_type, go_name in [*scalars, ("library_value", _LIBRARY_VALUE, None)]:
        overloads.append(
            cel.Overload(
                f"library_value_{name}_{kind}",
                T.INT,
                [_LIBRARY_VALUE, cel_type],
                is_member=True,
                impl=_no_such_overload(function, None, go_name),
            )
        )
    overloads.append(
        cel.Overload(
            f"library_value_{name}_offset",
            T.INT,
            [_LIBRARY_VALUE, T.STRING, T.INT],
            is_member=True,
            impl=_no_such_overload(function, None, "string", "int"),
        )
    )
    overloads.append(
        cel.Overload(
            f"string_{name}_library_value",
            T.INT,
            [T.STRING, _LIBRARY_VALUE],
            is_member=True,
            impl=_no_such_overload(function, "string", None),
        )
    )
    return overloads


#: the variable of the comprehension ``in_engine`` writes, by function: ``runtime_cost``
#: knows the comprehension by it, and charges what the server charges for the call
INDEX_PAIRS = {"__indexOf": "__kcIndexOf", "__lastIndexOf": "__kcLastIndexOf"}


def in_engine(function: str, receiver: str, argument: str) -> str:
    """``receiver.indexOf(argument)`` (``function``, ``__indexOf`` or ``__lastIndexOf``)
    as a comprehension the engine runs itself. lists.go's ``indexOf`` evaluates the
    list, then the argument, once, and compares each element in turn with
    ``Equal``; here ``[[receiver, argument]]`` evaluates both once and in that order
    (the first error is the answer), ``transformList`` keeps the positions of the
    elements ``==`` the argument (cel-go's ``==`` is ``Equal``, and never an error),
    the first or the last of them is the answer, else -1. A receiver that is not a
    list (a string, through ``dyn``) is the call's: the engine dispatches on kinds
    before it converts, so an optional reaches no Python function, and an argument no
    overload takes is the engine's error (``dispatch_error``). The answer is typed
    ``int``."""
    pair = INDEX_PAIRS[function]
    found = f"{pair}[0].transformList(__kci, __kcv, __kcv == {pair}[1], __kci)"
    if function == "__indexOf":
        answer = f"({found} + [-1])[0]"
    else:
        answer = f"[{found}].map(__kcf, size(__kcf) == 0 ? -1 : __kcf[size(__kcf) - 1])[0]"
    call = f"{pair}[0].{function}({pair}[1])"
    return f"[[{receiver}, {argument}]].map({pair}, type({pair}[0]) == list ? {answer} : {call})[0]"


def rewrite(expression: str) -> str:
    """``.indexOf(`` and ``.lastIndexOf(`` outside string literals renamed."""
    if "IndexOf" not in expression and "indexOf" not in expression:
        return expression
    from kubectl_crd.validation.cel.tree import _STRINGS

    out: list[str] = []
    position = 0
    for match in _STRINGS.finditer(expression):
        out.append(_rename(expression[position : match.start()]))
        out.append(match.group())
        position = match.end()
    out.append(_rename(expression[position:]))
    return "".join(out)


def original_offset(rewritten: str, offset: int) -> int:
    """An offset in ``rewrite(text)`` as the same place in ``text``: each call renamed
    before it is two characters longer."""
    from kubectl_crd.validation.cel.library.lists import masked

    renamed = _RENAMED.finditer(masked(rewritten), 0, offset + 1)  # a call's "(" is its own
    return offset - 2 * sum(1 for _ in renamed)


_RENAMED = re.compile(r"\.\s*__(?:indexOf|lastIndexOf)\s*\(")


def _rename(code: str) -> str:
    return _CALL.sub(lambda m: m.group().replace(m.group(1), _NAMES[m.group(1)], 1), code)


#: the engine's words when no overload of a renamed call takes its operands
_DISPATCH = re.compile(r"^No matching overloads found : \((.*)\)\.__(indexOf|lastIndexOf)\((.*)\)$")
#: the engine's names of the operands' types as cel-go names them; ``struct`` (a
#: library's type: ``net.IP``, ``kubernetes.Quantity``...) is not told apart: the
#: overloads on ``_LIBRARY_VALUE`` name it, but for a list, a map or an optional beside it
_GO_TYPE_NAMES = {
    "int64": "int",
    "uint64": "uint",
    "double": "double",
    "bool": "bool",
    "string": "string",
    "bytes": "bytes",
    "list": "list",
    "map": "map",
    "null_type": "null_type",
    "duration": "google.protobuf.Duration",
    "timestamp": "google.protobuf.Timestamp",
    "type": "type",
    "*opaque*": "optional_type",  # the only opaque value of a CRD rule
}


def dispatch_error(text: str) -> str | None:
    """cel-go's run-time error where no overload of ``indexOf`` (``lastIndexOf``) takes
    the operands (``no such overload: indexOf(map, int)``), from the engine's words
    (``No matching overloads found : (map).__indexOf(int64)``); None for other text."""
    found = _DISPATCH.match(text)
    if found is None:
        return None
    names = [found.group(1), *(found.group(3).split(", ") if found.group(3) else [])]
    if any(name not in _GO_TYPE_NAMES for name in names):
        return None
    operands = ", ".join(_GO_TYPE_NAMES[name] for name in names)
    return f"no such overload: {found.group(2)}({operands})"


def original_name(text: str) -> str:
    """An engine message with the rewritten names as the rule wrote them."""
    text = text.replace("__lastIndexOf", "lastIndexOf").replace("__indexOf", "indexOf")
    # environment.compile_expression's renames
    return text.replace("__stringOfIP(", "string(").replace("__stringOfCIDR(", "string(")


LIBRARY = Library(
    "lists",
    "base",
    (
        ("__indexOf", _overloads("index_of", "indexOf", list_index_of, string_index_of)),
        (
            "__lastIndexOf",
            _overloads("last_index_of", "lastIndexOf", list_last_index_of, string_last_index_of),
        ),
    ),
)
