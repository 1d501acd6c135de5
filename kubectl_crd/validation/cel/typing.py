"""Rules type-checked against their schema, as the API server does when a CRD is written.

``apiserver/pkg/cel/common/schemas.go: SchemaDeclType`` gives ``self`` the type of its
schema node: objects with their (escaped) properties, maps, lists, strings, bytes,
timestamps and durations by format, int-or-string as ``dyn``; untyped nodes, and lists
and maps of them, are not visible. The engine type-checks against protobuf messages,
so every object node becomes a message generated here (package
``kubectl_crd.gen.s<hash>``); where protobuf cannot say a CEL type (a list of lists, a
map of lists) the field holds ``google.protobuf.Value`` items, which CEL reads as
``dyn``. A rule selecting such a field is compiled again with a call after each
selection that gives the value its schema's type (``_exact_fields``), so the checker
and the cost estimate see the server's types (a rule that does not compile as it is:
where the field is reached from ``self`` by selections and indexes,
``_errors_typed_exactly``); where it cannot be (a presence test, an optional
selection ``.?f``) the rule is checked less strictly than by the server, never more.

The checker's words are cel-cpp's; ``compile_error_text`` puts them in cel-go's
(``undefined field 'x'``, member calls as ``'int.()'``), and cross-type numeric
comparisons, which Kubernetes enables since 1.28, are not errors.

Each rule that compiles is also costed (``cost``) as the server does next: its
estimate times the number of places its node may occur, against the per-rule limit,
and all of a schema's rules and messageExpressions together against the per-CRD one.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from cel_expr_python import cel
from google.protobuf import descriptor_pb2

from kubectl_crd.validation.cel.checked import (
    CheckedRule,
    Node,
    format_literal_errors,
    homogeneous_literal_errors,
    index_of_type_errors,
    overload_type_errors,
    read_checked,
)
from kubectl_crd.validation.cel.cost import EXACT_PREFIX
from kubectl_crd.validation.cel.escaping import field_names
from kubectl_crd.validation.cel.folding import instantiation_error
from kubectl_crd.validation.cel.programs import compile_error_text, optional_old_self
from kubectl_crd.validation.cel.tree import Rule, RuleNode, rule_tree
from kubectl_crd.validation.compiled import SchemaNode

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {
    "string": (_F.TYPE_STRING, "string"),
    "boolean": (_F.TYPE_BOOL, "bool"),
    "integer": (_F.TYPE_INT64, "int"),
    "number": (_F.TYPE_DOUBLE, "double"),
}
_WELL_KNOWN = {
    "date": ".google.protobuf.Timestamp",
    "date-time": ".google.protobuf.Timestamp",
    "duration": ".google.protobuf.Duration",
}
_CEL_WELL_KNOWN = {
    ".google.protobuf.Timestamp": "google.protobuf.Timestamp",
    ".google.protobuf.Duration": "google.protobuf.Duration",
    ".google.protobuf.Value": "dyn",
}
_DYN = ".google.protobuf.Value"
#: the name the server gives the type of the node a rule is on, ``selfType`` and a
#: clock's nanoseconds (which a message cannot match): here always 0
SELF_TYPE = "selfType0"


@dataclass(frozen=True, slots=True)
class _Decl:
    """A node's CEL type: its signature, and how a protobuf field holds it."""

    signature: str  # "int", "list(string)", "kubectl_crd.gen.s1.M3", "dyn"
    field_type: int  # a FieldDescriptorProto type
    type_name: str = ""  # for messages: ".pkg.Name"
    repeated: bool = False
    map_value: _Decl | None = None
    item: _Decl | None = None

    def cel_type(self) -> Any:
        """The engine's type (built from parts: a signature string would make ``list``
        an opaque type the checker cannot range over)."""
        if self.item is not None:
            return cel.Type.List(self.item.cel_type())
        if self.map_value is not None:
            return cel.Type.Map(cel.Type.STRING, self.map_value.cel_type())
        simple = _SIMPLE.get(self.signature)
        return simple() if simple is not None else cel.Type(self.signature)


_SIMPLE = {
    "dyn": lambda: cel.Type.DYN,
    "string": lambda: cel.Type.STRING,
    "bool": lambda: cel.Type.BOOL,
    "int": lambda: cel.Type.INT,
    "double": lambda: cel.Type.DOUBLE,
    "bytes": lambda: cel.Type.BYTES,
    "google.protobuf.Timestamp": lambda: cel.Type.TIMESTAMP,
    "google.protobuf.Duration": lambda: cel.Type.DURATION,
}


class _Generator:
    """Messages for one schema, in one generated file."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.file = descriptor_pb2.FileDescriptorProto(
            name=f"kubectl_crd/gen/{package}.proto", package=package, syntax="proto2"
        )
        self.file.dependency.extend(
            [
                "google/protobuf/struct.proto",
                "google/protobuf/timestamp.proto",
                "google/protobuf/duration.proto",
            ]
        )
        self.types: dict[tuple[int, bool], _Decl | None] = {}
        #: each message's fields (by the escaped name the server's type has them under)
        self.fields: dict[str, dict[str, _Decl]] = {}
        #: each message's fields by every name a rule may select them with
        self.selectable: dict[str, dict[str, _Decl]] = {}
        #: the function giving each type a field cannot hold exactly (``exact_fields``)
        self.exact_names: dict[str, str] = {}
        self.exact_decls: dict[str, _Decl] = {}
        self.count = 0

    def decl(self, node: SchemaNode, resource_root: bool) -> _Decl | None:
        key = (id(node), resource_root)
        if key not in self.types:
            self.types[key] = None  # a schema is a tree; this only guards odd inputs
            self.types[key] = self._decl(node, resource_root)
        return self.types[key]

    def _decl(self, node: SchemaNode, resource_root: bool) -> _Decl | None:
        if node.types == ("integer", "string"):
            return _Decl("dyn", _F.TYPE_MESSAGE, _DYN)
        kind = node.types[0] if len(node.types) == 1 else ""
        if kind == "array":
            if node.items is None:
                return None
            item = self.decl(node.items, node.items.embedded)
            if item is None:
                return None
            if item.repeated or item.map_value is not None:
                # protobuf has no list of lists: the field holds dyn items, the type is exact
                return _Decl(
                    f"list({item.signature})", _F.TYPE_MESSAGE, _DYN, repeated=True, item=item
                )
            return _Decl(
                f"list({item.signature})",
                item.field_type,
                item.type_name,
                repeated=True,
                item=item,
            )
        if kind == "object":
            if node.additional is not None and not node.properties:
                value = self.decl(node.additional, node.additional.embedded)
                if value is None:
                    return None
                return _Decl(
                    f"map(string, {value.signature})", _F.TYPE_MESSAGE, "", map_value=value
                )
            return self._message(node, resource_root or node.embedded)
        if kind == "string":
            if node.format == "byte":
                return _Decl("bytes", _F.TYPE_BYTES)
            well_known = _WELL_KNOWN.get(node.format)
            if well_known:
                return _Decl(_CEL_WELL_KNOWN[well_known], _F.TYPE_MESSAGE, well_known)
        scalar = _SCALARS.get(kind)
        if scalar is None:
            return None
        return _Decl(scalar[1], scalar[0])

    def _message(self, node: SchemaNode, resource_root: bool) -> _Decl:
        self.count += 1
        name = f"M{self.count}"
        message = self.file.message_type.add(name=name)
        # no JSON name checks: protobuf camel-cases a field's JSON name, so properties
        # such as istio's mirror_percent and mirrorPercent share one, which the
        # descriptor pool refuses (and, given json_names, still warns of on stderr);
        # CEL reads no JSON, and the server's types have no such names
        message.options.deprecated_legacy_json_field_conflicts = True
        fields: dict[str, _Decl] = {}
        escaped: dict[str, _Decl] = {}
        for key, child in node.properties.items():
            names = field_names(key)
            decl = self.decl(child, child.embedded) if names else None
            if decl is not None:
                escaped[names[0]] = decl
                for field_name in names:
                    fields[field_name] = decl
        if resource_root:
            fields["apiVersion"] = escaped["apiVersion"] = _Decl("string", _F.TYPE_STRING)
            fields["kind"] = escaped["kind"] = _Decl("string", _F.TYPE_STRING)
            fields["metadata"] = escaped["metadata"] = self._metadata()
        for number, (field_name, decl) in enumerate(sorted(fields.items()), start=1):
            self._field(message, name, field_name, number, decl)
            if _held_as_dyn(decl) and decl.signature not in self.exact_names:
                self.exact_names[decl.signature] = f"{EXACT_PREFIX}{len(self.exact_names)}"
                self.exact_decls[decl.signature] = decl
        self.fields[f"{self.package}.{name}"] = escaped
        self.selectable[f"{self.package}.{name}"] = fields
        return _Decl(f"{self.package}.{name}", _F.TYPE_MESSAGE, f".{self.package}.{name}")

    def exact_functions(self) -> list[Any]:
        """One function per type a message field cannot hold exactly: on the field's
        value as the engine types it (a list or map of ``dyn``), giving that value its
        schema's type."""
        functions = []
        for signature, name in self.exact_names.items():
            decl = self.exact_decls[signature]
            held = (
                cel.Type.List(cel.Type.DYN)
                if decl.item is not None
                else cel.Type.Map(cel.Type.STRING, cel.Type.DYN)
            )
            overload = cel.Overload(f"{name}_value", decl.cel_type(), [held], is_member=True)
            functions.append(cel.FunctionDecl(name, [overload]))
        return functions

    def server_names(self, decl: _Decl, text: str) -> str:
        """``text`` (an engine message about rules on a node of type ``decl``) with each
        generated message named as the server names that object type: the node's own
        ``selfType<n>``, and below it the path of escaped property names, ``@idx`` for a
        list's items, ``@elem`` for a map's values (``compilation.go`` gives each node's
        compilation the name ``generateUniqueSelfTypeName``, ``selfType`` and the
        nanosecond of the clock; ``DeclType.MaybeAssignTypeName`` names the rest). The
        number is the server's clock: ``SELF_TYPE`` says 0."""
        names: dict[str, str] = {}
        self._name(decl, SELF_TYPE, names)
        return re.sub(
            rf"\b{re.escape(self.package)}\.M\d+\b", lambda m: names.get(m[0], m[0]), text
        )

    def _name(self, decl: _Decl, name: str, names: dict[str, str]) -> None:
        if decl.item is not None:
            self._name(decl.item, f"{name}.@idx", names)
        elif decl.map_value is not None:
            self._name(decl.map_value, f"{name}.@elem", names)
        elif decl.signature in self.fields:
            names[decl.signature] = name
            for field_name, field in self.fields[decl.signature].items():
                self._name(field, f"{name}.{field_name}", names)

    def _metadata(self) -> _Decl:
        self.count += 1
        name = f"M{self.count}"
        message = self.file.message_type.add(name=name)
        self.fields[f"{self.package}.{name}"] = {}
        for number, field_name in enumerate(("generateName", "name"), start=1):
            message.field.add(
                name=field_name, number=number, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL
            )
        return _Decl(f"{self.package}.{name}", _F.TYPE_MESSAGE, f".{self.package}.{name}")

    def _field(
        self,
        message: descriptor_pb2.DescriptorProto,
        message_name: str,
        field_name: str,
        number: int,
        decl: _Decl,
    ) -> None:
        if decl.map_value is not None:
            value = decl.map_value
            if value.repeated or value.map_value is not None:
                value = _Decl("dyn", _F.TYPE_MESSAGE, _DYN)
            entry_name = _map_entry_name(field_name)
            entry = message.nested_type.add(name=entry_name)
            entry.options.map_entry = True
            entry.field.add(name="key", number=1, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
            value_field = entry.field.add(
                name="value", number=2, type=value.field_type, label=_F.LABEL_OPTIONAL
            )
            if value.type_name:
                value_field.type_name = value.type_name
            message.field.add(
                name=field_name,
                number=number,
                type=_F.TYPE_MESSAGE,
                type_name=f".{self.package}.{message_name}.{entry_name}",
                label=_F.LABEL_REPEATED,
            )
            return
        added = message.field.add(
            name=field_name,
            number=number,
            type=decl.field_type,
            label=_F.LABEL_REPEATED if decl.repeated else _F.LABEL_OPTIONAL,
        )
        if decl.type_name:
            added.type_name = decl.type_name


_FIELD_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)")


def _exact_fields(
    checked: CheckedRule,
    text: str,
    generator: _Generator,
    fields_of: Callable[[Node], Mapping[str, _Decl]] | None = None,
) -> tuple[str, list[tuple[int, int]]] | None:
    """``text`` (the compiled text of ``checked``) with each selection of a field that
    holds its items as ``dyn`` followed by the call of the field's exact function
    (``_Generator.exact_functions``): compiled again, the checker types what the rule
    does with the field as the server, whose types are the schema's, does
    (``self.grid[0][0] + 'x'`` on a list of lists of integers does not compile). With
    where each call went (offset in the result, length); None where there is none. A
    presence test (``has()``) and an optional selection (``.?f``) keep the field as it
    was: there is no call to follow them with. ``fields_of`` gives the fields of a
    selection's operand; by default, those of the message the checker typed it."""
    found: list[tuple[int, str]] = []

    def checked_fields(operand: Node) -> Mapping[str, _Decl]:
        found_type = checked.types.get(operand.id)
        return generator.selectable.get(found_type.name, {}) if found_type is not None else {}

    def visit(node: Node) -> None:
        if node.kind == "select" and not node.test_only and node.children:
            decl = (fields_of or checked_fields)(node.children[0]).get(node.name)
            at = checked.positions.get(node.id, -1)
            if decl is not None and decl.signature in generator.exact_names and at >= 0:
                name = _FIELD_NAME.match(text, at + 1)
                if text[at] == "." and name is not None and name.group(1) == node.name:
                    found.append((name.end(), f".{generator.exact_names[decl.signature]}()"))
        for child in (*node.children, *node.elements):
            visit(child)

    visit(checked.root)
    if not found:
        return None
    out: list[str] = []
    inserted: list[tuple[int, int]] = []
    at = length = 0
    for end, call in sorted(found):
        out += [text[at:end], call]
        inserted.append((end + length, len(call)))
        length += len(call)
        at = end
    return "".join([*out, text[at:]]), inserted


def _errors_typed_exactly(
    env: Any, text: str, self_decl: _Decl, generator: _Generator
) -> str | None:
    """The compile errors of ``text``, which does not compile, with its fields typed
    as the schema types them (``_exact_fields``), at their places in ``text``; None
    where that changes nothing. With no checked tree to read the operands' types from,
    a selection's is resolved from ``self`` (``oldSelf``) down selections and indexes
    only: a comprehension's variable is not."""

    def resolved(node: Node) -> _Decl | None:
        if node.kind == "ident" and node.name in ("self", "oldSelf"):
            return self_decl
        if node.kind == "select" and not node.test_only and node.children:
            operand = resolved(node.children[0])
            fields = generator.selectable.get(operand.signature, {}) if operand else {}
            return fields.get(node.name)
        if node.kind == "call" and node.function == "_[_]" and len(node.args) == 2:
            operand = resolved(node.args[0])
            return None if operand is None else operand.item or operand.map_value
        return None

    def fields_of(operand: Node) -> Mapping[str, _Decl]:
        found = resolved(operand)
        return generator.selectable.get(found.signature, {}) if found is not None else {}

    from kubectl_crd.validation.cel.environment import compile_expression

    try:
        parsed = read_checked(env.compile(text, disable_check=True).serialize())
    except RuntimeError:
        return None  # a syntax error: no field is typed
    exact = _exact_fields(parsed, text, generator, fields_of)
    if exact is None:
        return None
    exacted, inserted = exact
    try:
        compile_expression(env, exacted)
    except RuntimeError as exc:
        if f"'{EXACT_PREFIX}" in str(exc):
            return None
        return _errors_before_insertions(str(exc), exacted, text, inserted)
    return None


def _before_insertions(inserted: list[tuple[int, int]], offset: int) -> int:
    """An offset in ``_exact_fields``' text as one in the text it was made from; one
    inside an inserted call is the end of the field name it follows."""
    shift = 0
    for start, length in inserted:
        if offset >= start + length:
            shift += length
        elif offset >= start:
            return start - shift
    return offset - shift


def _position_in(prepared: str, inserted: list[tuple[int, int]], offset: int) -> int:
    """An offset of the compiled text as one in the rule's own: before the exact
    functions' calls, then before ``indexOf``'s renames."""
    from kubectl_crd.validation.cel.library.indexing import original_offset

    return original_offset(prepared, _before_insertions(inserted, offset))


def _errors_before_insertions(
    engine_text: str, exacted: str, text: str, inserted: list[tuple[int, int]]
) -> str:
    """The engine's compile errors of ``exacted`` at their places in ``text``."""
    exacted_lines = exacted.split("\n")
    lines = text.split("\n")

    def block(match: re.Match[str]) -> str:
        line, column, message = int(match[1]), int(match[2]), match[3]
        if line > len(exacted_lines):
            return match[0]
        offset = sum(len(x) + 1 for x in exacted_lines[: line - 1]) + column - 1
        at = _before_insertions(inserted, offset)
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1)
        return f"ERROR: <input>:{line}:{column + 1}: {message}\n | {lines[line - 1]}\n | {'.' * column}^"

    return _ERROR_BLOCK.sub(block, engine_text)


def _held_as_dyn(decl: _Decl) -> bool:
    """Whether a message field of type ``decl`` holds its items (a map's values) as
    ``dyn`` (``_field``: protobuf has no list of lists, no map of lists)."""
    inner = decl.item if decl.item is not None else decl.map_value
    return inner is not None and (inner.repeated or inner.map_value is not None)


def _map_entry_name(field_name: str) -> str:
    """protobuf's name for a map field's entry type: the field in CamelCase + ``Entry``
    (descriptor.cc refuses any other as "map_entry should not be set explicitly")."""
    parts = field_name.split("_")
    camel = "".join(p[:1].upper() + p[1:] for p in parts if p)
    return f"{camel}Entry"


@dataclass(frozen=True, slots=True)
class RuleProblem:
    """A rule (or its messageExpression) the server would refuse when the CRD is written.

    ``forbidden`` problems are about cost (``field.Forbidden``), the others about the
    rule's value (``field.Invalid``); an ``index`` of -1 is the schema's total cost."""

    schema_path: str  # ".properties[spec].x-kubernetes-validations[0]", from the version's schema
    rule: Rule | None
    index: int
    field: str  # "rule" or "messageExpression"
    detail: str  # "compilation failed: ERROR: <input>:1:5: undefined field 'x'\n | ..."
    forbidden: bool = False
    #: a rule using oldSelf below a list or map whose items cannot be correlated: the
    #: schema path of that list or map (the detail then ends with the caller's prefix
    #: and it, as the server names it)
    within: str | None = None


@dataclass(frozen=True, slots=True)
class RuleCost:
    """A rule's (or messageExpression's) estimated cost: once (``cost``), and as the
    server counts it against the limits (``total``: a rule's times the number of
    places it may run)."""

    schema_path: str
    index: int
    field: str
    cost: int
    total: int


def rule_problems(
    schema: Mapping[str, Any], skipped: Callable[[str], bool] | None = None
) -> list[RuleProblem]:
    """Every rule of a version's schema that does not type-check, or costs too much, in
    schema order (the total's problems last); not the rules of nodes ``skipped`` says
    (by their path, ``.properties[spec]``)."""
    return check_rules(schema, skipped)[0]


def uncompiled_rules(tree: RuleNode) -> Iterator[tuple[RuleNode, int, str]]:
    """Each rule of ``tree`` (a schema node's rule tree, ``tree.subtree_rules``) that
    does not type-check against its node, with its index and the compile error."""
    nodes = {path: node for path, node, _, _ in _walk(tree, "", tree.resource_root, 1)}
    for problem in check_rules(tree.schema.raw, tree=tree)[0]:
        if problem.field == "rule" and not problem.forbidden:
            yield nodes[problem.schema_path], problem.index, problem.detail


def check_rules(
    schema: Mapping[str, Any],
    skipped: Callable[[str], bool] | None = None,
    *,
    tree: RuleNode | None = None,
) -> tuple[list[RuleProblem], list[RuleCost]]:
    """``rule_problems``, and the estimated cost of every rule that compiles; of
    ``tree`` when given (``schema`` its node's), else of the version's rule tree."""
    if tree is None:
        tree = rule_tree(schema)
    if tree is None:
        return [], []
    digest = hashlib.sha256(json.dumps(schema, sort_keys=True, default=str).encode()).hexdigest()
    generator = _Generator(f"kubectl_crd.gen.s{digest[:16]}")
    located = list(_walk(tree, "", tree.resource_root, 1))
    declared = [
        (path, node, generator.decl(node.schema, root), root, cardinality)
        for path, node, root, cardinality in located
    ]
    from kubectl_crd.validation.cel.environment import (
        build_environment,
        compile_expression,
        prepare,
    )
    from kubectl_crd.validation.cel.library.indexing import rewrite

    try:
        build_environment({}, files=(generator.file,))
    except (TypeError, RuntimeError):  # a schema protobuf cannot describe: not checked
        return [], []
    problems: list[RuleProblem] = []
    environments: dict[str, Any] = {}  # one per type of self: NewEnv costs ~2 ms
    exact_functions = generator.exact_functions()

    def environment(decl: _Decl) -> Any:
        if decl.signature not in environments:
            self_type = decl.cel_type()
            # an optionalOldSelf rule is compiled rewritten, as programs runs it: the
            # engine takes no optional-typed variable
            environments[decl.signature] = build_environment(
                {
                    "self": self_type,
                    "oldSelf": self_type,
                    "__oldSelf": self_type,
                    "__hasOldSelf": cel.Type.BOOL,
                },
                files=(generator.file,),
                functions=exact_functions,
            )
        return environments[decl.signature]

    costs = _CostTotal()
    uncorrelatable = _uncorrelatable(tree, "", None)
    for path, node, decl, root, cardinality in declared:
        if decl is None or (skipped is not None and skipped(path)):
            continue
        sizes = costs.sizes(node, root)
        for index, rule in enumerate(node.rules):
            env = environment(decl)
            refused = False
            for field_name, text in (
                ("rule", rule.rule),
                ("messageExpression", rule.message_expression),
            ):
                if not text:
                    continue
                compiled = text
                if field_name == "rule" and rule.optional_old_self and rule.transition:
                    compiled = optional_old_self(text)
                checked_tree = None
                try:
                    try:
                        program, prepared = compile_expression(env, prepare(compiled))
                    except RuntimeError as exc:
                        exactly = _errors_typed_exactly(env, prepare(compiled), decl, generator)
                        if exactly is None:
                            raise
                        raise RuntimeError(exactly) from exc
                    checked_tree = read_checked(program.serialize())
                    exact = _exact_fields(checked_tree, prepared, generator)
                    inserted: list[tuple[int, int]] = []
                    if exact is not None:
                        exacted, inserted = exact
                        try:
                            program, _ = compile_expression(env, exacted)
                        except RuntimeError as exc:
                            if f"'{EXACT_PREFIX}" in str(exc):  # not the rule's: kept as dyn
                                inserted = []
                            else:
                                raise RuntimeError(
                                    _errors_before_insertions(str(exc), exacted, prepared, inserted)
                                ) from exc
                        if inserted:
                            checked_tree = read_checked(program.serialize())

                    # positions in the checked tree are the compiled text's: checked
                    # only when no rewrite moved them, or only indexOf's renames did
                    detail = literal_errors(
                        text,
                        checked_tree if prepared in (text, rewrite(text)) else None,
                        partial(_position_in, prepared, inserted),
                    )
                    if not detail:
                        detail = _output_type_error(field_name, checked_tree)
                    failed = "" if detail else instantiation_error(checked_tree)
                    if failed:
                        # compilation.go: "messageExpression " is put before the latter
                        detail = (
                            f"instantiation failed: {failed}"
                            if field_name == "messageExpression"
                            else f"program instantiation failed: {failed}"
                        )
                except RuntimeError as exc:
                    detail = generator.server_names(decl, checker_error_text(str(exc), text))
                    if compiled != text:
                        detail = _at_original(detail, text)
                if not detail and checked_tree and compiled == text and sizes is not None:
                    problems += costs.observe(
                        checked_tree, sizes, cardinality, path, rule, index, field_name
                    )
                if detail:
                    if field_name == "messageExpression":
                        detail = "messageExpression " + detail
                    problems.append(RuleProblem(path, rule, index, field_name, detail))
                    if field_name == "rule":
                        refused = True
                        break  # compilation.go stops before the messageExpression
            within = uncorrelatable.get(path)
            if not refused and rule.transition and within is not None:
                detail = "oldSelf cannot be used on the uncorrelatable portion of the schema within"
                problems.append(RuleProblem(path, rule, index, "rule", detail, within=within))
            # a rule that does not compile is not known to use oldSelf (the server's
            # CompilationResult.UsesOldSelf stays false)
            if rule.optional_old_self and (refused or not rule.transition):
                problems.append(
                    RuleProblem(
                        path,
                        rule,
                        index,
                        "optionalOldSelf",
                        "may not be set if oldSelf is not used in rule",
                    )
                )
    return problems + costs.total_problems(), costs.observed


def estimate_rules(schema: Mapping[str, Any], per_call_limit: int) -> None:
    """Set each rule node's ``estimate``: what running all its rules and messages once
    may cost at most (the estimate the server checks when the CRD is written), so that
    objects whose estimates stay within the limits need no exact count
    (``rules.run_rules``); ``None`` where a rule has no estimate (it does not type
    here) or one over ``per_call_limit``."""
    tree = rule_tree(schema)
    if tree is None:
        return
    costs = {(c.schema_path, c.index, c.field): c.cost for c in check_rules(schema)[1]}
    for path, node, _, _ in _walk(tree, "", True, 1):
        total: int | None = 0
        for index, rule in enumerate(node.rules):
            for field, text in (
                ("rule", rule.rule),
                ("messageExpression", rule.message_expression),
            ):
                cost = costs.get((path, index, field)) if text else 0
                if total is None or cost is None or cost > per_call_limit:
                    total = None
                else:
                    total += cost
        node.estimate = total


class _CostTotal:
    """Each rule's estimated cost against the per-rule limit, and their total against the
    per-CRD one (``validation.go``, ``cel_validation.go: TotalCost``)."""

    def __init__(self) -> None:
        self.total = 0
        self.most_expensive: list[tuple[int, str, Rule, int, str]] = []
        self.observed: list[RuleCost] = []
        self.size_memo: dict[tuple[int, bool], Any] = {}  # the schema's sizes, computed once

    def sizes(self, node: RuleNode, root: bool) -> Any:
        from kubectl_crd.validation.cel.cost import decl_size

        return decl_size(node.schema, root, self.size_memo)

    def observe(
        self,
        tree: CheckedRule,
        sizes: Any,
        cardinality: int | None,
        path: str,
        rule: Rule,
        index: int,
        field_name: str,
    ) -> list[RuleProblem]:
        from kubectl_crd.validation.cel import cost as costs

        once = costs.estimate_cost(tree, sizes)[1]
        estimate = once
        if field_name == "rule":
            # a rule runs once per place its node may be (getExpressionCost); where
            # that is unbounded, as often as the smallest such value fits a request
            if cardinality is None:
                cardinality = costs.max_cardinality(sizes.min_size)
            estimate = costs.times_with_guard(once, cardinality)
        self.observed.append(RuleCost(path, index, field_name, once, estimate))
        self.total = min(self.total + estimate, costs.MAX_UINT64)
        if estimate >= costs.PER_CRD_LIMIT // 100:
            self.most_expensive.append((estimate, path, rule, index, field_name))
            self.most_expensive.sort(key=lambda entry: -entry[0])
            del self.most_expensive[4:]
        if estimate <= costs.PER_EXPRESSION_LIMIT:
            return []
        name = "estimated rule cost" if field_name == "rule" else "estimated messageExpression cost"
        message = costs.cost_error_message(name, estimate, costs.PER_EXPRESSION_LIMIT)
        return [RuleProblem(path, rule, index, field_name, message, forbidden=True)]

    def total_problems(self) -> list[RuleProblem]:
        from kubectl_crd.validation.cel import cost as costs

        if self.total <= costs.PER_CRD_LIMIT:
            return []
        message = "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"
        found = [
            RuleProblem(path, rule, index, field_name, message, forbidden=True)
            for _, path, rule, index, field_name in self.most_expensive
        ]
        total = costs.cost_error_message(
            "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
            self.total,
            costs.PER_CRD_LIMIT,
        )
        return [*found, RuleProblem("", None, -1, "", total, forbidden=True)]


# cel-go's literal validators (cel.ValidateDurationLiterals, ...TimestampLiterals,
# ...RegexLiterals), which Kubernetes enables since 1.29: a constant argument that
# cannot be parsed is a compile error at the literal.
_LITERAL_CALL = re.compile(
    r"""(?P<call>\bduration|\btimestamp|\.matches|\bmatches)\(\s*(?:[^,()'"]*,\s*)?"""
    r"""(?P<literal>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\s*\)"""
)


#: what a rule and a messageExpression must evaluate to (compilation.go: compileRule
#: compares ``ast.OutputType()`` with ``cel.BoolType`` / ``cel.StringType``: ``dyn``
#: is neither), and the server's words when one does not
_OUTPUT_TYPES = {
    "rule": ("bool", "cel expression must evaluate to a bool"),
    "messageExpression": ("string", "must evaluate to a string"),
}


def _output_type_error(field_name: str, checked: CheckedRule) -> str:
    """The server's refusal of a rule (or messageExpression) that compiles but whose
    checked type is not the one it must have, or ""."""
    wanted, detail = _OUTPUT_TYPES[field_name]
    found = checked.types.get(checked.root.id)
    return "" if found is not None and str(found) == wanted else detail


def literal_errors(
    expression: str,
    checked: CheckedRule | None = None,
    position: Callable[[int], int] = lambda offset: offset,
) -> str:
    """The compile errors of Kubernetes' AST validators, or "": constant duration,
    timestamp and regex arguments that do not parse, and, given the checked tree of
    ``expression`` itself (``position`` maps its offsets to ``expression``'s), list and
    map literals of mixed types (``checked.homogeneous_literal_errors``), constant
    format strings their list does not fit (``checked.format_literal_errors``) and
    ``indexOf`` given another type than its list's elements
    (``checked.index_of_type_errors``); cel-go reports them by position."""
    found: list[tuple[int, str]] = []
    for match in _LITERAL_CALL.finditer(expression):
        call = match.group("call").lstrip(".")
        text = _literal_text(match.group("literal"))
        if text is None or _literal_ok(call, text):
            continue
        found.append((match.start("literal"), f"invalid {call} argument"))
    if checked is not None:
        from_checked = [
            *homogeneous_literal_errors(checked),
            *format_literal_errors(checked),
            *index_of_type_errors(checked),
            *overload_type_errors(checked),
        ]
        found.extend((position(offset), message) for offset, message in from_checked)
    if not found:
        return ""
    return "compilation failed: " + "\n".join(
        _error_block(expression, offset, message) for offset, message in sorted(found)
    )


def _error_block(expression: str, offset: int, message: str) -> str:
    """cel-go's ``ERROR: <input>:L:C: message`` with the source line and a caret."""
    line = expression.count("\n", 0, offset) + 1
    line_start = expression.rfind("\n", 0, offset) + 1
    source = expression.split("\n")[line - 1]
    return _displayed(line, offset - line_start, message, source)


#: cel-go common/error.go: a longer source line is not shown
_MAX_SNIPPET = 16384


def _displayed(line: int, column: int, message: str, source: str) -> str:
    """cel-go's ``Error.ToDisplayString``: the error at 0-based ``column`` (in runes) of
    ``line``, then that line (tabs as spaces) and a line of dots up to a caret, each
    rune of more than one UTF-8 byte marked wide (U+FF0E, U+FF3E)."""
    text = f"ERROR: <input>:{line}:{column + 1}: {message}"
    if len(source.encode("utf-8", "surrogatepass")) > _MAX_SNIPPET:
        return text
    snippet = source.replace("\t", " ")
    marks = "".join("\uff0e" if ord(c) > 0x7F else "." for c in snippet[:column])
    marks += "\uff3e" if column < len(snippet) and ord(snippet[column]) > 0x7F else "^"
    return f"{text}\n | {snippet}\n | {marks}"


def _literal_text(literal: str) -> str | None:
    body = literal[1:-1]
    if "\\" in body:
        try:
            return body.encode("latin-1", "backslashreplace").decode("unicode_escape")
        except UnicodeDecodeError:
            return None
    return body


def _literal_ok(call: str, text: str) -> bool:
    if call in ("duration", "timestamp"):
        # cel-go's validators evaluate the conversion of the literal
        from kubectl_crd.validation.cel.library.conversions import to_duration, to_timestamp

        try:
            (to_duration if call == "duration" else to_timestamp)(text)
        except ValueError:
            return False
        return True
    from kubectl_crd.validation.regexps import error as regexp_error
    from kubectl_crd.validation.regexps import go_regexp

    try:
        go_regexp(text)
    except regexp_error:
        return False
    return True


def _walk(
    node: RuleNode, path: str, root: bool, cardinality: int | None
) -> Iterator[tuple[str, RuleNode, bool, int | None]]:
    """Every rule node, whether it is a resource root, and how many times it may occur
    in an object (``CELSchemaContext.MaxCardinality``; None: unbounded)."""
    from kubectl_crd.validation.cel.cost import max_elements, times_with_guard

    yield path, node, root, cardinality
    below = max_elements(node.schema)
    inner = None if cardinality is None or below is None else times_with_guard(cardinality, below)
    for name, child in node.properties.items():
        yield from _walk(child, f"{path}.properties[{name}]", child.resource_root, inner)
    if node.additional is not None:
        yield from _walk(
            node.additional, f"{path}.additionalProperties", node.additional.resource_root, inner
        )
    if node.items is not None:
        yield from _walk(node.items, f"{path}.items", node.items.resource_root, inner)
    for index, branch in enumerate(node.all_of):
        yield from _walk(branch, f"{path}.allOf[{index}]", root, cardinality)


def _uncorrelatable(node: RuleNode, path: str, within: str | None) -> dict[str, str]:
    """The rule nodes below a list's items that no old item correlates with (a list
    that is not ``x-kubernetes-list-type: map``), each with the path of the first such
    list (validation.go: ``withForbidOldSelfValidations``), where a rule may not use
    oldSelf. Maps always correlate (``cel.MapIsCorrelatable``: granular and atomic)."""
    found = {path: within} if within is not None else {}
    for name, child in node.properties.items():
        found |= _uncorrelatable(child, f"{path}.properties[{name}]", within)
    if node.additional is not None:
        found |= _uncorrelatable(node.additional, f"{path}.additionalProperties", within)
    if node.items is not None:
        correlated = node.schema.list_type == "map"
        found |= _uncorrelatable(
            node.items, f"{path}.items", within or (None if correlated else path)
        )
    for index, branch in enumerate(node.all_of):
        found |= _uncorrelatable(branch, f"{path}.allOf[{index}]", within)
    return found


_ERROR_BLOCK = re.compile(r"ERROR: <input>:(\d+):(\d+): (.*?)\n \| (.*?)\n \| ([. ]*\^)", re.S)
_CROSS_NUMERIC = re.compile(
    r"found no matching overload for '_(?:<|<=|>|>=)_' applied to '\((?:int|uint|double), (?:int|uint|double)\)'"
)
_NOT_IN_STRUCT = re.compile(r" not found in struct '[^']*'")
_APPLIED = re.compile(r"found no matching overload for '([^']+)' applied to '\((.*)\)'")
#: a field selected from a value that has no fields (cel-go checker/errors.go:
#: typeDoesNotSupportFieldSelection)
_SELECT = re.compile(r"expression of type '(.*)' cannot be the operand of a select operation")


def checker_error_text(engine_text: str, expression: str) -> str:
    """cel-cpp's compile errors in cel-go's words; "" when Kubernetes would accept it."""
    from kubectl_crd.validation.cel.library.indexing import original_name

    engine_text = original_name(engine_text)
    kept: list[str] = []
    for match in _ERROR_BLOCK.finditer(engine_text):
        line, column, message, source, caret = match.groups()
        if _CROSS_NUMERIC.fullmatch(message) or "'*error*'" in message:
            # cross-type numeric comparisons are allowed in Kubernetes; an error about
            # the type of an earlier error is cel-cpp's echo, which cel-go does not print
            continue
        message = _NOT_IN_STRUCT.sub("", message)
        message = _SELECT.sub(r"type '\1' does not support field selection", message)
        applied = _APPLIED.fullmatch(message)
        # a namespaced global (sets.contains) is no member call, though a '.' precedes
        # its name
        if (
            applied
            and "." not in applied.group(1)
            and _member_call(expression, int(line), int(column))
        ):
            function, arguments = applied.groups()
            receiver, _, rest = arguments.partition(", ")
            message = (
                f"found no matching overload for '{function}' applied to '{receiver}.({rest})'"
            )
        kept.append(f"ERROR: <input>:{line}:{column}: {message}\n | {source}\n | {caret}")
    if not kept and "ERROR: <input>" in engine_text:
        return ""
    if not kept:
        return compile_error_text(engine_text)
    return "compilation failed: " + "\n".join(kept)


def _at_original(detail: str, original: str) -> str:
    """Compile errors of an ``optionalOldSelf`` rule (compiled rewritten, see
    ``programs.optional_old_self``) at the rule's own text and columns, as the server,
    which compiles the rule as written, shows them."""
    from kubectl_crd.validation.cel.programs import optional_old_self

    lines = original.split("\n")

    def block(match: re.Match[str]) -> str:
        line, column, message = int(match[1]), int(match[2]), match[3]
        if line > len(lines):
            return match[0]
        source = lines[line - 1]
        # the first original column whose rewritten prefix reaches the error's column;
        # one inside a rewritten oldSelf is that oldSelf's
        target = column - 1
        at = next(
            (c for c in range(len(source) + 1) if len(optional_old_self(source[:c])) >= target),
            len(source),
        )
        if at and len(optional_old_self(source[:at])) > target:
            at = max(source.rfind("oldSelf", 0, at), 0)
        for word in re.finditer("oldSelf", source):
            if word.start() < at < word.end():
                at = word.start()
        return _displayed(line, at, message, source)

    return _ERROR_BLOCK.sub(block, detail)


def _member_call(expression: str, line: int, column: int) -> bool:
    """Whether the call the checker points at (its ``(``) is ``target.name(...)``."""
    lines = expression.split("\n")
    if line > len(lines):
        return False
    text = lines[line - 1]
    position = column - 1
    if position >= len(text) or text[position] != "(":
        return False
    start = position
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return start > 0 and text[start - 1] == "."
