"""The CEL environment of CRD validation rules, built once per set of variables.

``apiserver/pkg/cel/environment/base.go`` (Kubernetes 1.34): the standard library with
the extensions cel-cpp carries itself (strings v2 as Kubernetes pins it, optional
types, sets, two-variable comprehensions), and the Kubernetes libraries of
``library`` registered as Python functions. Message types live in one descriptor
pool: the libraries' opaque types and, for type-checking a CRD's rules, the messages
``typing`` generates for its schema (``files``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from cel_expr_python import cel
from google.protobuf import descriptor_pool

from kubectl_crd.validation.cel.library import (
    comprehensions,
    conversions,
    formats,
    formatting,
    gostrings,
    indexing,
    lists,
    network,
    quantity,
    regex,
    semver,
    types,
    urls,
)
from kubectl_crd.validation.cel.library.base import Library

if TYPE_CHECKING:
    from kubectl_crd.validation.cel.checked import CheckedRule, Node

LIBRARIES: tuple[Library, ...] = (
    regex.LIBRARY,
    lists.LIBRARY,
    indexing.LIBRARY,
    urls.LIBRARY,
    quantity.LIBRARY,
    network.LIBRARY,
    formats.LIBRARY,
    semver.LIBRARY,
    comprehensions.LIBRARY,
    formatting.LIBRARY,
    conversions.LIBRARY,
    gostrings.LIBRARY,
)

# The extensions of Kubernetes' CRD environment that cel-cpp implements: strings at
# version 2 as base.go pins it (no reverse()), optional types, sets, two-variable
# comprehensions. ext.Lists (sort, flatten, range...) is not in a 1.34 server's CRD
# environment: it refuses such rules as undeclared references.
_CONFIG = """
extensions:
  - name: "optional"
    version: 2
  - name: "strings"
    version: 2
  - name: "sets"
  - name: "two-var-comprehensions"
"""


@cache
def _pool() -> Any:
    from google.protobuf import duration_pb2, struct_pb2, timestamp_pb2

    pool = descriptor_pool.DescriptorPool()
    for module in (struct_pb2, timestamp_pb2, duration_pb2):
        pool.AddSerializedFile(module.DESCRIPTOR.serialized_pb)
    for file in types.files():
        pool.Add(file)
    types.bind(pool)
    return pool


@cache
def _functions() -> tuple[Any, ...]:
    overloads: dict[str, list[Any]] = {}
    for library in LIBRARIES:
        for name, found in library.functions:
            overloads.setdefault(name, []).extend(found)
    return tuple(cel.FunctionDecl(name, found) for name, found in overloads.items())


# the checker's words for string() of an IP or a CIDR, at the call's "("
_STRING_OF_ADDRESS = re.compile(
    r"<input>:(\d+):(\d+): found no matching overload for 'string' applied to "
    r"'\((net\.IP|net\.CIDR)\)'"
)


def compile_expression(environment: Any, text: str) -> tuple[Any, str]:
    """``environment.compile(text)``, and the text compiled: Kubernetes' IP and CIDR
    libraries add ``string(ip)`` and ``string(cidr)``, which cel-cpp cannot declare
    beside the standard ``string()``, so each call the checker refuses for that is
    renamed (``library.network.STRING_OF``) and the text compiled again."""
    from kubectl_crd.validation.cel.library.network import STRING_OF

    while True:
        try:
            return environment.compile(text), text
        except RuntimeError as exc:
            found = _STRING_OF_ADDRESS.search(str(exc))
            if found is None:
                raise
            line, column = int(found.group(1)), int(found.group(2))
            lines = text.split("\n")
            at = sum(len(x) + 1 for x in lines[: line - 1]) + column - 1
            if text[at - len("string") : at] != "string" or text[at : at + 1] != "(":
                raise
            text = text[: at - len("string")] + STRING_OF[found.group(3)] + text[at:]


def runnable(program: Any, environment: Any) -> Any:
    """A compiled program as this engine can run it: calls of ``cel.@mapInsert``
    (``transformMap``, ``transformMapEntry``), which cel-cpp declares but does not
    bind, renamed to ``library.comprehensions.MAP_INSERT``, which is bound; calls
    of ``string.format`` renamed to ``library.formatting.FORMAT``, cel-go's formatter
    (cel-cpp's words its results and errors otherwise); the conversions of a string
    to ``library.conversions``' (cel-cpp reads the strings otherwise); and ``charAt``,
    ``substring`` and a duration's ``getMilliseconds`` to ``library.gostrings``'."""
    from kubectl_crd.validation.cel.checked import rename_calls

    serialized = program.serialize()
    changed = False
    for old, new, overloads, only in (
        ("cel.@mapInsert", comprehensions.MAP_INSERT, comprehensions.OVERLOAD_IDS, ""),
        ("format", formatting.FORMAT, formatting.OVERLOAD_IDS, ""),
        *(
            (name, renamed, (f"{renamed}_string",), overload)
            for name, overload, renamed, _, _ in conversions.CONVERSIONS
        ),
        *(
            (name, renamed, gostrings.overload_ids(renamed), overload)
            for name, overload, renamed, _, _, _ in gostrings.MEMBERS
        ),
    ):
        # a conversion's name is in most programs (a type's): its overload's id is not
        if (only or old).encode() in serialized:
            renamed = rename_calls(serialized, old, new, overloads, only=only)
            changed = changed or renamed != serialized
            serialized = renamed
    from kubectl_crd.validation.cel.checked import wrap_calls

    for overload, wrapper, _ in gostrings.REWORDED:
        if overload.encode() in serialized:
            wrapped = wrap_calls(serialized, overload, wrapper, f"{wrapper}_string")
            changed = changed or wrapped != serialized
            serialized = wrapped
    return environment.deserialize(serialized) if changed else program


#: what makes an optional: optional.of/none/ofNonZeroValue, ``.?f``, ``[?i]``, ``{?k: v}``,
#: ``[?e, ...]`` (a ternary's ``?`` follows an operand)
_MAKES_OPTIONAL = re.compile(r"optional\.|[\[{.,]\s*\?")

#: the functions bound to Python that take a list or a map
_TAKE_CONTAINERS = frozenset(
    {name for library in (lists.LIBRARY, indexing.LIBRARY) for name, _ in library.functions}
    | {"cel.@mapInsert"}
)


def compile_runnable(environment: Any, text: str) -> tuple[Any, str]:
    """``compile_expression`` then ``runnable``: the program to run and the text it was
    compiled from. Where the checker typed a node ``optional_type`` or ``uint`` and the
    text calls ``format``, the text compiled is ``formatting.guard_arguments'`` (an
    optional reaching the formatter would crash the engine). Where the text makes an
    optional, ``indexOf`` and ``lastIndexOf`` on what may be a list run in the engine
    (``indexing.in_engine``). Where an optional can end up in a list or a map
    (``checked.optional_escapes``), the receivers of the lists library's calls are
    guarded (``lists.guard_receivers``: answered as the server does); another Python
    function taking a list or a map (``transformMap``'s insert, an ``indexOf`` whose text
    could not be rewritten) would crash the engine handing one over: a compile error
    instead."""
    from kubectl_crd.validation.cel.checked import CelType, optional_escapes, read_checked

    program, source = compile_expression(environment, text)
    makes_optional = _MAKES_OPTIONAL.search(source) is not None
    if not (makes_optional or formatting.calls_format(source)):
        return runnable(program, environment), source
    checked = read_checked(program.serialize())

    def has(kind: CelType, names: tuple[str, ...]) -> bool:
        return kind.name in names or any(has(p, names) for p in kind.parameters)

    def functions(node: Node) -> set[str]:
        found = {node.function} if node.kind == "call" else set()
        for child in (*node.children, *node.elements):
            found |= functions(child)
        return found

    if makes_optional and _index_calls(checked):
        # an optional may be the argument, or in the list (indexing's docstring)
        program, source, checked = _indexed_in_engine(environment, program, source, checked)
    if makes_optional and optional_escapes(checked):
        found = functions(checked.root)
        if found & lists.GUARDED:
            program, source, checked = _lists_guarded(environment, program, source, checked)
            found = functions(checked.root) - lists.GUARDED
        if not _index_calls(checked):
            # what is left takes a string, or a string and an offset, and no optional
            found -= indexing.INDEX_PAIRS.keys()
        refused = sorted(found & _TAKE_CONTAINERS)
        if refused:
            raise RuntimeError(
                "kubectl-crd cannot run this expression: an optional value may reach "
                f"{refused[0].replace('cel.@mapInsert', 'transformMap').lstrip('_')} inside a list or a map, which crashes its CEL engine "
                "(cel_expr_python)"
            )
    types = checked.types.values()
    if formatting.calls_format(source) and any(
        has(kind, ("optional_type", "uint")) for kind in types
    ):
        # how deep the expression can nest lists and maps: an optional sits no deeper
        def nesting(node: Node) -> int:
            own = node.kind in ("list", "map", "comprehension")
            return own + max(map(nesting, (*node.children, *node.elements)), default=0)

        optional = any(has(kind, ("optional_type",)) for kind in types)
        needed = nesting(checked.root) if optional else 0
        program, source = _guarded(environment, source, needed)
    return runnable(program, environment), source


def _lists_guarded(
    environment: Any, program: Any, source: str, checked: CheckedRule
) -> tuple[Any, str, CheckedRule]:
    """``source`` with the receivers of the lists library's calls guarded
    (``lists.guard_receivers``), compiled; as it was when that cannot be done (the
    calls are then refused)."""
    from kubectl_crd.validation.cel.checked import read_checked

    calls: list[tuple[int, int]] = []

    def visit(node: Node) -> None:
        if node.kind == "call" and node.function in lists.GUARDED and node.target is not None:
            calls.append((checked.positions.get(node.id, 0), _first_offset(checked, node.target)))
        for child in (*node.children, *node.elements):
            visit(child)

    visit(checked.root)
    guarded = lists.guard_receivers(source, calls)
    if guarded is None:
        return program, source, checked
    try:
        program, source = compile_expression(environment, guarded)
    except RuntimeError:
        return program, source, checked
    return program, source, read_checked(program.serialize())


def _indexed_in_engine(
    environment: Any, program: Any, source: str, checked: CheckedRule
) -> tuple[Any, str, CheckedRule]:
    """``source`` with each call of ``_index_calls`` written as ``indexing.in_engine``'s
    comprehension (a call inside another's receiver or argument too), compiled once; a
    call whose text cannot be told is left as it was (and refused where an optional
    may reach it); the whole as it was if the engine refuses the result."""
    from kubectl_crd.validation.cel.checked import read_checked

    blanked = lists.masked(source)
    spans: list[tuple[int, int, int, int, str]] = []  # start, end, dot, "(", function
    for opening, function, receiver in _index_calls(checked):
        span = lists.receiver_span(blanked, opening, receiver)
        closing = _closing(blanked, opening)
        if span is not None and closing is not None:
            spans.append((span[0], closing + 1, span[1], opening, function))
    # calls are nested or apart: outermost first where two start together
    spans.sort(key=lambda span: (span[0], -span[1]))

    def rendered(low: int, high: int) -> str:
        out: list[str] = []
        at = low
        for start, end, dot, opening, function in spans:
            if start < at or end > high:
                continue  # inside a call already written, or outside this text
            receiver, argument = rendered(start, dot), rendered(opening + 1, end - 1)
            out += [source[at:start], indexing.in_engine(function, receiver, argument)]
            at = end
        return "".join([*out, source[at:high]])

    if not spans:
        return program, source, checked
    try:
        program, source = compile_expression(environment, rendered(0, len(source)))
    except RuntimeError:
        return program, source, checked
    return program, source, read_checked(program.serialize())


def _index_calls(checked: CheckedRule) -> list[tuple[int, str, int]]:
    """The calls of ``indexOf`` and ``lastIndexOf`` that may be given a list (one
    argument, a receiver not typed ``string``), but ``in_engine``'s own: the offset of
    each one's ``(``, its function and the smallest offset of its receiver's nodes."""
    from kubectl_crd.validation.cel.checked import CelType

    def in_engine(target: Node) -> bool:
        """``in_engine``'s own call, on what is not a list: ``pair[0]``."""
        pair = target.args[0] if target.function == "_[_]" and target.args else target
        return pair.kind == "ident" and pair.name in indexing.INDEX_PAIRS.values()

    def visit(node: Node) -> list[tuple[int, str, int]]:
        found = []
        if (
            node.kind == "call"
            and node.function in indexing.INDEX_PAIRS
            and node.target is not None
            and len(node.args) == 1
            and checked.types.get(node.target.id, CelType("dyn")).name != "string"
            and not in_engine(node.target)
        ):
            at = checked.positions.get(node.id, 0)
            found.append((at, node.function, _first_offset(checked, node.target)))
        for child in (*node.children, *node.elements):
            found += visit(child)
        return found

    return visit(checked.root)


def _first_offset(checked: CheckedRule, node: Node) -> int:
    """The smallest source offset of ``node`` and the nodes under it: where a call's
    receiver starts (``lists.receiver_span``)."""
    own = checked.positions.get(node.id, 1 << 30)
    children = (*node.children, *node.elements)
    return min([own, *(_first_offset(checked, child) for child in children)])


def _closing(masked_text: str, opening: int) -> int | None:
    """The offset of the ``)`` closing the ``(`` at ``opening``."""
    depth = 0
    for at in range(opening, len(masked_text)):
        char = masked_text[at]
        depth += char in "([{"
        depth -= char in ")]}"
        if depth == 0:
            return at if char == ")" else None
    return None


def _guarded(environment: Any, text: str, needed: int) -> tuple[Any, str]:
    """``text`` guarded (``formatting.guard_arguments``) as deep as cel-cpp's parser
    takes it (less when a ``format`` call holds another); the parser's error when even
    the shallowest search is too deep: a compile error, never a crash."""
    depth = min(needed, formatting.MAX_DEPTH)
    while True:
        guarded = formatting.guard_arguments(text, depth, complete=depth >= needed)
        try:
            return compile_expression(environment, guarded)
        except RuntimeError:
            if depth == 0:
                raise
            depth -= 1


def prepare(expression: str) -> str:
    """An expression as this engine compiles it: ``format``'s ``validate`` rewritten to
    give an optional (``library.formats.rewrite``), ``indexOf`` and ``lastIndexOf``
    renamed to reach lists too (``library.indexing.rewrite``)."""
    from kubectl_crd.validation.cel.library.formats import rewrite

    return indexing.rewrite(rewrite(expression))


def build_environment(
    variables: Mapping[str, Any], *, files: Sequence[Any] = (), functions: Sequence[Any] = ()
) -> Any:
    """A ``cel.Env`` with ``variables`` (name to ``cel.Type``), every library and
    ``functions`` (``cel.FunctionDecl``, e.g. ``runtime_cost``'s tracing calls).

    ``files`` are ``FileDescriptorProto`` messages added to the pool once (by name).
    """
    pool = _pool()
    for file in files:
        try:
            pool.FindFileByName(file.name)
        except KeyError:
            pool.Add(file)
    return cel.NewEnv(
        descriptor_pool=pool,
        config=cel.NewEnvConfigFromYaml(_CONFIG),
        variables=dict(variables),
        functions=[*_functions(), *functions],
    )
