"""A skeleton custom resource for one CRD version: the smallest object a user can start from.

``build_sample`` returns plain data (what ``kubectl create`` would send) plus, per field
path, the comment lines that explain it; ``io.dump_yaml`` turns both into
commented YAML. Pure and stdlib-only.

What goes in, and why (mirrors what the API server checks on create, see
``apiextensions-apiserver/pkg/registry/customresource/validator.go``):

- ``apiVersion``, ``kind``, ``metadata.name`` (a DNS-1123 subdomain), ``metadata.namespace``
  only when asked for and only for namespaced kinds. ``spec`` is always there when the
  schema has one (it is what a user fills in), even when the schema leaves it optional.
- Every required field, recursively; optional fields only when they carry a ``default``
  (the server would add them anyway, so the sample shows what the object will look like),
  or all of them with ``all_fields``. ``status`` is left out when the version has the
  status subresource (the server ignores it on create).
- Values: the default when there is one, else the first enum value, else a value built
  for the type, ``format``, ``pattern`` (``regex_examples``), length and numeric bounds.
  Arrays get ``minItems`` items, unique by their keys for ``x-kubernetes-list-type: map``
  (whose keys are always filled in) and unique for ``set``; maps get ``minProperties``
  entries; embedded resources get ``apiVersion``/``kind``/``metadata``.
- ``oneOf``/``anyOf``/``allOf``/``not`` are honoured by trying the branches' required fields
  and property constraints until the value conforms, as judged by the ``SchemaCheck``
  the caller gives (the command hands in the validation engine's OpenAPI stage; model
  code cannot import it). Without one, every candidate is taken as conforming.
- CEL (``x-kubernetes-validations``) is evaluated by the ``RuleCheck`` the caller gives in
  ``SampleOptions`` (the command hands in the validation engine's; model code cannot
  import it): a skeleton whose rule fails is repaired where the rule names optional
  fields, and every rule on the sample's fields is listed in ``Sample.cel_rules`` with
  its outcome (``holds`` is ``None`` where it cannot be told: no check given, or a rule
  that does not compile), so that the header names the rules left unchecked.

Field order is alphabetical below the root (the API server stores ``properties`` as a Go
map and serves it sorted, and ``kubectl explain`` lists fields that way), so a sample is
the same whether its CRD came from a file or from the cluster. The root starts with
``apiVersion``, ``kind``, ``metadata``, then the other fields in the same order.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import itertools
import math
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
from kubectl_crd.model.errors import ResourceLookupError
from kubectl_crd.model.records import record
from kubectl_crd.model.sample import regex_examples
from kubectl_crd.model.schema import COMPOSITION_KEYWORDS, Path, Schema

_MAX_BRANCH_COMBINATIONS = 64
_MAX_UNIQUE_TRIES = 50
_MAX_REPAIRED_BASES = 4
_MAX_PAIRED_OPTIONS = 30
_MAX_NAMED_DROPS = 8  # fields named by a node's CEL rules, dropped in any combination
_COMMENT_LINES = 3  # of a description: its first paragraph, cut after this many lines
_DNS1123_SUBDOMAIN = re.compile(
    r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
)
# Placeholders tried first for a string with a pattern: nicer than what the pattern
# itself produces (``example`` beats ``a``, ``https://example.com`` beats ``http://a``).
_PREFERRED_STRINGS = (
    "example",
    "example.com",
    "example.com/example",
    "example.com/example:v1",
    "https://example.com",
    "1",
    "1s",
    "example-1",
    "Example",
    "EXAMPLE",
)
# Values for the formats the API server checks (``kube-openapi/pkg/validation/strfmt``).
_FORMAT_EXAMPLES: dict[str, tuple[str, ...]] = {
    "date-time": ("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z", "2024-01-03T00:00:00Z"),
    "datetime": ("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z"),
    "date": ("2024-01-01", "2024-01-02", "2024-01-03"),
    "duration": ("1s", "2s", "3s"),
    "byte": ("ZXhhbXBsZQ==", "ZXhhbXBsZTI=", "ZXhhbXBsZTM="),
    "ipv4": ("192.0.2.1", "192.0.2.2", "192.0.2.3"),
    "ipv6": ("2001:db8::1", "2001:db8::2", "2001:db8::3"),
    "cidr": ("192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"),
    "hostname": ("example.com", "example.org", "example.net"),
    "email": ("user@example.com", "user2@example.com"),
    "uri": ("https://example.com", "https://example.org"),
    "uuid": ("123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174001"),
    "uuid3": ("a3bb189e-8bf9-3888-9912-ace4e6543002",),
    "uuid4": ("123e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-42d3-a456-426614174001"),
    "uuid5": ("a6edc906-2f9f-5fb2-a373-efac406f0ef2",),
    "mac": ("00:00:5e:00:53:01", "00:00:5e:00:53:02"),
    "hexcolor": ("#ffffff", "#000000"),
    "rgbcolor": ("rgb(255,255,255)", "rgb(0,0,0)"),
    "isbn": ("0306406152",),
    "isbn10": ("0306406152",),
    "isbn13": ("9780306406157",),
    "creditcard": ("4111111111111111",),
    "ssn": ("123-45-6789",),
    "bsonobjectid": ("507f1f77bcf86cd799439011",),
    "password": ("changeme",),
}
_INT_BOUNDS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}


#: Whether a CEL rule holds for a value under a schema node (the last argument: the
#: node is a resource root, which shows ``apiVersion``, ``kind`` and ``metadata``):
#: True, False (fails, or errs as the server would report), None (cannot be told).
RuleCheck = Callable[[str, Any, Mapping[str, Any], bool], "bool | None"]


#: Whether a value satisfies a schema node's OpenAPI value validations (types, enum,
#: pattern, format, bounds, required, junctors), as the API server would judge it.
SchemaCheck = Callable[[Any, Mapping[str, Any]], bool]


#: Whether an RE2 pattern matches somewhere in a string, as Go's
#: ``regexp.MatchString`` (the OpenAPI ``pattern`` check) answers.
PatternMatch = Callable[[str, str], bool]


@record
class SampleOptions:
    name: str | None = None
    namespace: str | None = None
    all_fields: bool = False
    rule_check: RuleCheck | None = None
    schema_check: SchemaCheck | None = None
    pattern_match: PatternMatch | None = None


@record
class CelRule:
    path: str  # the field the rule sits on, ``spec.foo`` (``<root>`` for the object)
    rule: str
    message: str = ""
    holds: bool | None = None  # None: not evaluated here, only the server can tell


@record
class Sample:
    crd_name: str
    api_version: str
    kind: str
    value: dict[str, Any]
    comments: Mapping[Path, tuple[str, ...]]
    problems: tuple[str, ...]  # places where no conforming value could be made
    cel_rules: tuple[CelRule, ...]  # rules on the fields in the sample (create-time only)
    all_fields: bool = False

    def header(self, *, has_file_hint: bool = True) -> list[str]:
        """Comment lines for the top of the YAML output."""
        lines = [
            f"{self.kind} ({self.api_version}), a sample from CRD {self.crd_name}.",
            "All fields are filled in (fields that exclude each other are left out);"
            if self.all_fields
            else "Required fields, server-side defaults and first enum values are filled in;",
            "replace the placeholders with real values.",
        ]
        if has_file_hint:
            lines.append("Check it against the API server: kubectl create --dry-run=server -f FILE")
        unknown = [r for r in self.cel_rules if r.holds is None]
        if unknown:
            where = sorted({r.path for r in unknown})
            shown = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
            lines.append(f"Not evaluated here: {len(unknown)} CEL rule(s) on {shown}.")
        lines.extend(f"WARNING: {p}" for p in self.problems)
        return lines


def build_sample(
    crd: CustomResourceDefinition, version: CRDVersion, options: SampleOptions | None = None
) -> Sample:
    options = options or SampleOptions()
    generator = _Generator(
        all_fields=options.all_fields,
        rule_check=options.rule_check,
        schema_check=options.schema_check,
        pattern_match=options.pattern_match,
    )
    schema = version.schema
    properties = _properties(schema)
    skip = {"apiVersion", "kind", "metadata"}
    if version.subresources.status:
        skip.add("status")
    body_schema = {
        **schema,
        "properties": {k: v for k, v in properties.items() if k not in skip},
        "required": [r for r in _strings(schema.get("required")) if r not in skip],
    }
    forced = ("spec",) if "spec" in properties else ()
    body = generator.value(body_schema, (), forced=forced)
    if not isinstance(body, dict):
        body = {}
    metadata: dict[str, Any] = {
        "name": _object_name(
            options.name,
            crd,
            _properties(properties.get("metadata") or {}),
            _cel_rules(schema),
            generator,
        )
    }
    if options.namespace and crd.namespaced:
        metadata["namespace"] = options.namespace
    value: dict[str, Any] = {
        "apiVersion": crd.gvk(version.name).api_version,
        "kind": crd.names.kind,
        "metadata": metadata,
    }
    value.update(body)
    annotator = _Annotator(options.rule_check)
    annotator.walk(value, schema, (), None)
    return Sample(
        crd_name=crd.name,
        api_version=value["apiVersion"],
        kind=crd.names.kind,
        value=value,
        comments=annotator.comments,
        problems=tuple(
            dict.fromkeys(
                [
                    *generator.reported_problems(),
                    *(
                        f"{r.path}: CEL rule fails: {r.message or r.rule}"
                        for r in annotator.cel_rules
                        if r.holds is False
                    ),
                ]
            )
        ),
        cel_rules=tuple(annotator.cel_rules),
        all_fields=options.all_fields,
    )


def select_version(
    crd: CustomResourceDefinition, api_version: str | None, from_resource: str | None = None
) -> CRDVersion:
    """The version to sample: ``--api-version`` (``group/version`` or ``version``), the
    version named in ``RESOURCE.version.group``, or the preferred version."""
    served = [v.name for v in crd.served_versions]
    hint = f"served versions: {', '.join(served)}" if served else "it serves no version"
    wanted = from_resource
    if api_version:
        group, _, version = api_version.rpartition("/")
        if group and group != crd.group:
            raise ResourceLookupError(
                f'--api-version {api_version}: CRD {crd.name} is in group "{crd.group}", '
                f'not "{group}"',
                query=api_version,
                candidates=[f"{crd.group}/{v}" for v in served],
            )
        if from_resource and from_resource != version:
            raise ResourceLookupError(
                f"--api-version {api_version} contradicts the version {from_resource} "
                "named in RESOURCE",
                query=api_version,
            )
        wanted = version
    if not wanted:
        return crd.preferred_version
    version_obj = crd.version(wanted)
    if version_obj is None:
        raise ResourceLookupError(
            f'CRD {crd.name} has no version "{wanted}"; {hint}',
            query=wanted,
            candidates=served,
        )
    if not version_obj.served:
        raise ResourceLookupError(
            f'version "{wanted}" of CRD {crd.name} is not served; {hint}',
            query=wanted,
            candidates=served,
        )
    return version_obj


def _object_name(
    wanted: str | None,
    crd: CustomResourceDefinition,
    meta_props: Schema,
    root_rules: Sequence[str],
    generator: _Generator,
) -> str:
    if wanted:
        return wanted
    name = re.sub(r"[^a-z0-9.-]+", "-", f"example-{crd.names.singular.lower()}").strip("-.")
    name_schema = meta_props.get("name")
    # A CRD may only constrain metadata.name (maxLength, pattern, enum) in v1.
    name_schema = name_schema if isinstance(name_schema, Mapping) else {}
    conforms = generator.schema_check
    # names the root's rules pin it to (NVIDIA gpu-operator's GPUCluster, a singleton:
    # ``self.metadata.name == 'gpu-cluster'``)
    pinned = _compared_literals(root_rules, owner=r"\bself\.metadata").get("name", [])
    if pinned or not conforms(name, name_schema):
        # an enum too (hierarchical-namespaces: HNCConfiguration's only name is "config")
        enum = [v for v in name_schema.get("enum") or () if isinstance(v, str)]
        strings = generator.string_candidates(name_schema, 0) if name_schema else ()
        for candidate in itertools.chain(pinned, enum, strings):
            if _DNS1123_SUBDOMAIN.match(candidate) and conforms(candidate, name_schema):
                return candidate
    return name[:253]


# --------------------------------------------------------------------- generation


def _conforms_to_anything(value: Any, schema: Mapping[str, Any]) -> bool:
    return True


class _Generator:
    def __init__(
        self,
        *,
        all_fields: bool,
        rule_check: RuleCheck | None = None,
        schema_check: SchemaCheck | None = None,
        pattern_match: PatternMatch | None = None,
    ) -> None:
        self.all_fields = all_fields
        self.rule_check = rule_check
        self.schema_check: SchemaCheck = schema_check or _conforms_to_anything
        self.pattern_match = pattern_match
        # (path, message); an empty message marks a value that only fails a CEL rule,
        # which the annotator reports with the rule's own message.
        self.problems: list[tuple[Path, str]] = []
        # field name -> strings that failing CEL rules above compare it with, tried first
        self.hints: dict[str, list[str]] = {}

    def value(
        self, schema: Schema, path: Path, variant: int = 0, forced: Sequence[str] = ()
    ) -> Any:
        """A value for ``schema``: the first candidate that conforms to its value validations."""
        first: Any = _MISSING
        first_conforms = False
        mark = len(self.problems)
        rules = _cel_rules(schema)
        for candidate in self._candidates(schema, path, variant, forced):
            conforms = self._conforms(schema, candidate)
            if first is _MISSING:
                first, first_conforms = candidate, conforms
            if conforms and all(
                _holds(self.rule_check, r, candidate, schema, not path) is not False for r in rules
            ):
                return candidate
            del self.problems[mark:]
        if first_conforms:
            self._problem(path, "")
        else:
            pattern = schema.get("pattern")
            if isinstance(pattern, str) and not _pattern_supported(pattern):
                self._problem(
                    path,
                    f"pattern '{pattern}' is beyond the RE2 subset this tool can generate "
                    "strings for; fill in a matching value by hand",
                )
            else:
                self._problem(path, f"no value satisfying {self._what(schema)} could be made")
        return "" if first is _MISSING else first

    def _conforms(self, schema: Schema, candidate: Any) -> bool:
        # Objects and arrays are assembled from conforming children; only their own
        # counts and junctors can still fail (a variant may have left fields out).
        if isinstance(candidate, (dict, list)) and not any(
            j in schema for j in COMPOSITION_KEYWORDS
        ):
            merged = _merged(schema)
            if isinstance(candidate, dict):
                return _within(len(candidate), merged, "minProperties", "maxProperties")
            return _within(len(candidate), merged, "minItems", "maxItems")
        return self.schema_check(candidate, schema)

    def _what(self, schema: Schema) -> str:
        parts = [
            f"{key} {schema[key]!r}"
            for key in ("pattern", "format", "enum", "minLength", "maxLength", "minimum", "maximum")
            if key in schema
        ]
        parts.extend(j for j in COMPOSITION_KEYWORDS if j in schema)
        return ", ".join(parts) or "the schema"

    def _problem(self, path: Path, message: str) -> None:
        self.problems.append((path, message))

    def reported_problems(self) -> list[str]:
        return [
            f"{_dotted(path) or '<root>'}: {message}" for path, message in self.problems if message
        ]

    def _candidates(
        self, schema: Schema, path: Path, variant: int, forced: Sequence[str]
    ) -> Iterator[Any]:
        if "default" in schema and variant == 0:
            yield copy.deepcopy(schema["default"])
        # an enum may sit in allOf branches only (envoy gateway: allOf: [{enum: [HTTP, Image]},
        # {enum: [HTTP, Image, ConfigMap]}]); their intersection is what the server allows
        enum = [v for v in _merged(schema).get("enum") or () if v is not None]
        if enum:
            hinted = [v for v in self.hints.get(_field_name(path), ()) if v in enum]
            yield from hinted
            yield from (v for v in _rotate(enum, variant) if v not in hinted)
            return
        kind = _type_of(schema)
        if kind == "object":
            yield from self._object_candidates(schema, path, variant, forced)
        elif kind == "array":
            yield self._array(schema, path, variant)
            rules = _cel_rules(schema)
            if rules:  # e.g. size(self) > 0
                yield self._array(schema, path, variant, at_least=1)
                # Rules that pin the items' fields to literals through a macro variable
                # (apisix-ingress-controller's L4RoutePolicy: ``self.all(r, r.kind ==
                # 'TCPRoute' || ...)``): the items again, those fields trying them first.
                literals = _compared_literals(rules)
                if literals:
                    with self._hinted(literals):
                        hinted = self._array(schema, path, variant, at_least=1)
                    yield hinted
        elif kind == "int-or-string":
            yield from self.integer_candidates(_merged(schema), variant, integer=True)
            yield from self.string_candidates(schema, variant)
        elif kind == "string":
            yield from self.string_candidates(schema, variant, name=_field_name(path))
        elif kind in ("integer", "number"):
            yield from self.integer_candidates(_merged(schema), variant, integer=kind == "integer")
        elif kind == "boolean":
            yield from _rotate([False, True], variant)
        else:  # no type: x-kubernetes-preserve-unknown-fields on its own
            yield {}

    @contextlib.contextmanager
    def _hinted(self, literals: Mapping[str, list[str]]) -> Iterator[None]:
        """Strings tried first for the fields so named, while building one candidate."""
        saved = self.hints
        self.hints = {**saved, **literals}
        try:
            yield
        finally:
            self.hints = saved

    # objects ---------------------------------------------------------------

    def _object_candidates(
        self, schema: Schema, path: Path, variant: int, forced: Sequence[str]
    ) -> Iterator[dict[str, Any]]:
        rules = _cel_rules(schema)
        bases = [self._object(schema, path, variant, forced, {})]
        yield bases[0]
        if rules and not _properties(schema) and bases[0]:
            # A map whose keys a rule parses (ports: ``int(key)``).
            bases.append(self._object(schema, path, variant, forced, {}, map_keys="numeric"))
            yield bases[-1]
        for extra in itertools.islice(_branch_requirements(schema), _MAX_BRANCH_COMBINATIONS):
            bases.append(self._object(schema, path, variant, forced, extra))
            yield bases[-1]
        if self.all_fields:
            # A full template sets fields that exclude each other ("exactly one of"):
            # keep one oneOf branch's fields, or leave out one or two optional fields.
            yield from _without_exclusive_fields(schema, bases[0], forced)
            yield from _without_optional_fields(schema, bases[0], forced, rules)
        if not rules:
            return
        # A CEL rule failed on every base: try adding optional fields, which is what
        # presence rules ("exactly one of a or b", "x requires y") ask for.
        for base in bases[:_MAX_REPAIRED_BASES]:
            if self._conforms(schema, base):
                yield from self._with_optional_fields(schema, path, base)
        # A rule reaching into items through a macro variable (``self.roles.all(r,
        # !has(r.spec.replicas) ...)``, kubernetes-sigs/lws): selecting a field of an
        # absent object is "no such key" on the server, so add the optional objects and
        # lists the rules select, below this node.
        names = _selected_fields(rules)
        for base in bases[:_MAX_REPAIRED_BASES]:
            filled = self._with_selected_descendants(schema, path, base, names)
            if filled != base:
                yield filled
        # Rules that pin fields below to literals (envoy gateway: ``self.targetRef.kind
        # in ['Gateway', 'HTTPRoute', ...]`` in several rules at once): the object again,
        # each string field so named trying those literals first, the ones most rules
        # accept first; then, for a full template, that object less optional fields.
        literals = _compared_literals(rules)
        if literals:
            with self._hinted(literals):
                hinted = self._object(schema, path, variant, forced, {})
            if hinted not in bases:
                yield hinted
                if self.all_fields:
                    yield from _without_optional_fields(schema, hinted, forced, rules)
        if self.all_fields:
            # Rules that reach deep below their node (Kong's KongUpstreamPolicy: a dozen
            # rules on the root, ``has(self.spec.hashOn) ? [has(self.spec.hashOn.cookie),
            # ...].filter(...).size() <= 1``, ``!has(self.spec.healthchecks.passive.
            # healthy.interval)``): the full template less the optional fields they name,
            # one at a time, each the removal that leaves the fewest rules failing.
            pruned = self._pruned_for_rules(schema, bases[0], rules, not path)
            if pruned is not None:
                yield pruned

    def _pruned_for_rules(
        self, schema: Schema, base: dict[str, Any], rules: Sequence[str], root: bool
    ) -> dict[str, Any] | None:
        def failing(value: dict[str, Any]) -> int:
            return sum(_holds(self.rule_check, r, value, schema, root) is False for r in rules)

        chains = sorted({c[:n] for c in _self_chains(rules) for n in range(1, len(c) + 1)})
        current, left = base, failing(base)
        while left:
            best: tuple[int, int, dict[str, Any]] | None = None
            # one field at a time; two where no single one helps ("at most one of a, b
            # or c" counts the same until two of the three are gone)
            for size in (1, 2):
                for removed in itertools.combinations(chains, size):
                    candidate: dict[str, Any] | None = current
                    for chain in removed:
                        if candidate is not None:
                            candidate = _without_optional_path(schema, candidate, chain)
                    if candidate is None:
                        continue
                    count = failing(candidate)
                    # fewer failing rules first; at a tie the deeper fields, to keep the most
                    depth = -sum(len(chain) for chain in removed)
                    if count < left and (best is None or (count, depth) < best[:2]):
                        best = (count, depth, candidate)
                if best is not None:
                    break
            if best is None:
                return None
            left, current = best[0], best[2]
        return current if current != base else None

    def _with_selected_descendants(
        self, schema: Schema, path: Path, value: Any, names: set[str]
    ) -> Any:
        merged = _merged(schema)
        if isinstance(value, list):
            items = merged.get("items")
            if not isinstance(items, Mapping):
                return value
            return [
                self._with_selected_descendants(items, (*path, index), item, names)
                for index, item in enumerate(value)
            ]
        if not isinstance(value, dict):
            return value
        result = dict(value)
        for name, child in _properties(merged).items():
            if not isinstance(child, Mapping):
                continue
            if name in result:
                result[name] = self._with_selected_descendants(
                    child, (*path, name), result[name], names
                )
            elif path and name in names and _type_of(child) in ("object", "array"):
                mark = len(self.problems)
                made = self.value(child, (*path, name))
                if len(self.problems) == mark:
                    result[name] = made
                del self.problems[mark:]
        return dict(sorted(result.items()))

    def _with_optional_fields(
        self, schema: Schema, path: Path, base: dict[str, Any]
    ) -> Iterator[dict[str, Any]]:
        properties = _properties(_merged(schema))
        options: dict[str, list[Any]] = {}
        for name in sorted(properties):
            if name in base or not isinstance(properties[name], Mapping):
                continue
            mark = len(self.problems)
            values = [self.value(properties[name], (*path, name))]
            if _type_of(properties[name]) == "array" and not values[0]:
                values.append(self._array(properties[name], (*path, name), 0, at_least=1))
            if len(self.problems) == mark:
                options[name] = values
            del self.problems[mark:]
        for name, values in options.items():
            for value in values:
                yield dict(sorted({**base, name: value}.items()))
        if len(options) <= _MAX_PAIRED_OPTIONS:
            for first, second in itertools.combinations(options, 2):
                pair = {first: options[first][-1], second: options[second][-1]}
                yield dict(sorted({**base, **pair}.items()))

    def _object(
        self,
        schema: Schema,
        path: Path,
        variant: int,
        forced: Sequence[str],
        extra: Schema,
        map_keys: str = "words",
    ) -> dict[str, Any]:
        merged = _merged(_merge(schema, extra)) if extra else _merged(schema)
        properties = _properties(merged)
        required = list(dict.fromkeys([*_strings(merged.get("required")), *forced]))
        additional = merged.get("additionalProperties")
        keys = set(required)
        for name, prop in properties.items():
            if self.all_fields or (isinstance(prop, Mapping) and "default" in prop):
                keys.add(name)
        result: dict[str, Any] = {}
        kept = _kept(merged, forced)
        for name in sorted(keys):
            child = properties.get(name)
            if child is None:
                child = additional if isinstance(additional, Mapping) else {}
            mark = len(self.problems)
            value = self.value(child, (*path, name), variant if name in forced else 0)
            if name not in kept and len(self.problems) > mark:
                # An optional field of a full template that cannot be made valid
                # (a CEL rule that always fails, an impossible pattern): leave it out.
                del self.problems[mark:]
                continue
            result[name] = value
        max_properties = _int(merged, "maxProperties")
        if max_properties is not None and len(result) > max_properties:
            for name in sorted(keys - set(required), reverse=True):
                if len(result) <= max_properties:
                    break
                del result[name]
        wanted = _int(merged, "minProperties") or 0
        if self.all_fields and not properties and isinstance(additional, Mapping):
            wanted = max(wanted, 1)
        max_properties = _int(merged, "maxProperties")
        if max_properties is not None:
            wanted = min(wanted, max_properties)
        for name in properties:
            if len(result) >= wanted:
                break
            if name not in result:
                result[name] = self.value(properties[name], (*path, name))
        index = 0
        while len(result) < wanted:
            index += 1
            key = _map_key(index, numeric=map_keys == "numeric")
            if key in result:
                continue
            if isinstance(additional, Mapping):
                result[key] = self.value(additional, (*path, key), index - 1)
            else:  # preserve-unknown-fields: anything goes
                result[key] = "example"
        if _is_true(merged, "x-kubernetes-embedded-resource"):
            result.setdefault("apiVersion", "v1")
            result.setdefault("kind", "ConfigMap")
            result.setdefault("metadata", {"name": "example"})
        return dict(sorted(result.items()))

    # arrays ----------------------------------------------------------------

    def _array(self, schema: Schema, path: Path, variant: int, at_least: int = 0) -> list[Any]:
        merged = _merged(schema)
        count = max(_int(merged, "minItems") or 0, at_least)
        if self.all_fields and count == 0 and _int(merged, "maxItems") != 0:
            count = 1
        items = merged.get("items")
        if not isinstance(items, Mapping):
            items = {}
        list_type = merged.get("x-kubernetes-list-type")
        keys = (
            tuple(_strings(merged.get("x-kubernetes-list-map-keys"))) if list_type == "map" else ()
        )
        result: list[Any] = []
        identities: set[str] = set()
        for index in range(count):
            item: Any = None
            for attempt in range(_MAX_UNIQUE_TRIES):
                item = self.value(items, (*path, index), variant + index + attempt, forced=keys)
                identity = _identity(item, keys, list_type)
                if identity is None or identity not in identities:
                    if identity is not None:
                        identities.add(identity)
                    break
            else:
                self._problem(path, f"cannot make {count} distinct items ({list_type} list)")
            result.append(item)
        return result

    # scalars ---------------------------------------------------------------

    def string_candidates(self, schema: Schema, variant: int, name: str = "") -> Iterator[str]:
        yield from self.hints.get(name, ())
        merged = _merged(schema)
        min_length = _int(merged, "minLength") or 0
        max_length = _int(merged, "maxLength")
        formats = _format_examples(merged)
        # The schema's pattern, then regexes of ``self.matches('...')`` CEL rules.
        patterns = [merged["pattern"]] if isinstance(merged.get("pattern"), str) else []
        patterns += [p for r in _cel_rules(merged) if (p := _matches_pattern(r))]
        if not formats and name.lower().endswith(("url", "uri")):
            formats = _FORMAT_EXAMPLES["uri"]  # jwksUri, webhookURL: CEL rules may parse it
        if patterns:
            preferred = (*formats, *_PREFERRED_STRINGS)
            found: list[str] = []
            for pattern in patterns:
                matches = (
                    functools.partial(self.pattern_match, pattern) if self.pattern_match else None
                )
                found += itertools.islice(
                    itertools.chain(
                        regex_examples.examples(
                            pattern,
                            min_length=max(min_length, 1),
                            max_length=max_length,
                            preferred=preferred,
                            matches=matches,
                        ),
                        regex_examples.examples(
                            pattern, min_length=min_length, max_length=max_length, matches=matches
                        ),
                    ),
                    variant + 8,
                )
            yield from _rotate(list(dict.fromkeys(found)), variant)
            return
        if formats:
            yield from _rotate(list(formats), variant)
            return
        suffix = "" if variant == 0 else f"-{variant + 1}"
        base = "example" + suffix
        if max_length is not None and len(base) > max_length:
            suffix = suffix.lstrip("-")
            base = ("example"[: max(0, max_length - len(suffix))] + suffix)[:max_length]
        if len(base) < min_length:
            base += "x" * (min_length - len(base))
        yield base

    def integer_candidates(self, schema: Schema, variant: int, *, integer: bool) -> Iterator[Any]:
        """1 when the bounds allow it (a count, a port, a weight), else the nearest bound."""
        low, high = _numeric_bounds(schema, integer=integer)
        step = _number(schema, "multipleOf")
        stride = step if step is not None and step > 0 else 1
        start: float = 1
        if low is not None and start < low:
            start = low
        if high is not None and start > high:
            start = high
        if stride != 1:
            start = math.ceil(start / stride) * stride
            if high is not None and start > high:
                start = math.floor(high / stride) * stride
        values = [start + index * stride for index in range(variant, variant + 3)]
        values.extend(v for v in (low, high, 0) if v is not None)
        for value in values:
            yield int(value) if integer or float(value).is_integer() else float(value)


def _map_key(index: int, *, numeric: bool) -> str:
    if numeric:
        return str(index)
    return "example-key" if index == 1 else f"example-key-{index}"


def _field_name(path: Path) -> str:
    return path[-1] if path and isinstance(path[-1], str) else ""


def _kept(schema: Schema, forced: Sequence[str]) -> set[str]:
    """Fields a variant may not leave out: required, forced, or defaulted by the server."""
    merged = _merged(schema)
    defaulted = {
        name
        for name, prop in _properties(merged).items()
        if isinstance(prop, Mapping) and "default" in prop
    }
    return {*_strings(merged.get("required")), *forced, *defaulted}


def _without_exclusive_fields(
    schema: Schema, base: dict[str, Any], forced: Sequence[str]
) -> Iterator[dict[str, Any]]:
    kept = _kept(schema, forced)
    for branches in _junctor_lists(schema, "oneOf"):
        required = [set(_strings(b.get("required"))) for b in branches if isinstance(b, Mapping)]
        mentioned = set().union(*required) if required else set()
        for own in required:
            drop = (mentioned - own - kept) & set(base)
            if drop:
                yield {k: v for k, v in base.items() if k not in drop}


def _without_optional_fields(
    schema: Schema, base: dict[str, Any], forced: Sequence[str], rules: Sequence[str]
) -> Iterator[dict[str, Any]]:
    # From the last field backwards, so that the earlier fields stay in the template.
    optional = [name for name in reversed(base) if name not in _kept(schema, forced)]
    # Fields the node's CEL rules name ("at most one of a, b or c") first, in any number.
    # All of them too (grafana-operator's top route: six rules of the form ``!has(self.f)``).
    named = [name for name in optional if name in _fields_named_by(rules)]
    for size in range(1, 1 + (len(named) if len(named) <= _MAX_NAMED_DROPS else 2)):
        for dropped in itertools.combinations(named, size):
            yield {k: v for k, v in base.items() if k not in dropped}
    for name in optional:
        yield {k: v for k, v in base.items() if k != name}
    if len(optional) <= _MAX_PAIRED_OPTIONS:
        for pair in itertools.combinations(optional, 2):
            yield {k: v for k, v in base.items() if k not in pair}


_SELF_FIELD = re.compile(r"\bself\.([A-Za-z_][A-Za-z0-9_]*)")


def _fields_named_by(rules: Sequence[str]) -> set[str]:
    """``self.<field>`` names in CEL rules, unescaped (``__namespace__`` -> ``namespace``)."""
    return {_unescape(m) for rule in rules for m in _SELF_FIELD.findall(rule)}


_SELECTED_FIELD = re.compile(r"\.\s*([A-Za-z_][A-Za-z0-9_]*)\b(?!\s*\()")


def _selected_fields(rules: Sequence[str]) -> set[str]:
    """Every ``<expr>.<field>`` a rule selects (method calls left out), unescaped."""
    return {_unescape(m) for rule in rules for m in _SELECTED_FIELD.findall(rule)}


_SELF_CHAIN = re.compile(r"\bself((?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*\b(?!\s*\())+)")


def _self_chains(rules: Sequence[str]) -> set[tuple[str, ...]]:
    """Every field chain a rule selects from ``self`` (``self.spec.a.b`` -> ``(spec, a,
    b)``; method calls left out), unescaped."""
    return {
        tuple(_unescape(name.strip()) for name in match.split(".")[1:])
        for rule in rules
        for match in _SELF_CHAIN.findall(rule)
    }


def _without_optional_path(
    schema: Schema, value: Any, chain: tuple[str, ...]
) -> dict[str, Any] | None:
    """``value`` less the field at ``chain`` (objects only), or ``None`` when it is not
    there or its object may not leave it out (required or defaulted)."""
    if not isinstance(value, dict) or chain[0] not in value:
        return None
    name = chain[0]
    if len(chain) == 1:
        if name in _kept(schema, ()):
            return None
        return {k: v for k, v in value.items() if k != name}
    child = _properties(_merged(schema)).get(name)
    below = _without_optional_path(
        child if isinstance(child, Mapping) else {}, value[name], chain[1:]
    )
    return None if below is None else {**value, name: below}


# A CEL string literal without escapes, in either quote (apisix-ingress-controller's
# BackendTrafficPolicy: ``self.group == ""``); cel-go's lexer takes both alike.
_STRING_LITERAL = r"'([^'\\]*)'" + r'|"([^"\\]*)"'
_FIELD = r"\.\s*([A-Za-z_][A-Za-z0-9_]*)"
_EQUALS_LITERAL = r"\s*==\s*(?:" + _STRING_LITERAL + ")"
_IN_LITERALS = r"\s+in\s+\[([^\]]*)\]"


def _compared_literals(rules: Sequence[str], owner: str = "") -> dict[str, list[str]]:
    """Field name -> the string literals rules compare it with (``.f == 'x'``, ``.f in
    ['x', 'y']``), those named by the most comparisons first (a static reading).

    ``owner``: a regex the field's reference must follow (``\\bself\\.metadata``).
    """
    counts: dict[tuple[str, str], int] = {}
    equals = re.compile(owner + _FIELD + _EQUALS_LITERAL)
    in_list = re.compile(owner + _FIELD + _IN_LITERALS)
    for rule in rules:
        pairs = [(m.group(1), _literal(m.group(2), m.group(3))) for m in equals.finditer(rule)]
        for match in in_list.finditer(rule):
            pairs += [
                (match.group(1), _literal(*quoted))
                for quoted in re.findall(_STRING_LITERAL, match.group(2))
            ]
        for name, literal in pairs:
            key = (_unescape(name), literal)
            counts[key] = counts.get(key, 0) + 1
    literals: dict[str, list[str]] = {}
    for (name, literal), _count in sorted(counts.items(), key=lambda item: -item[1]):
        literals.setdefault(name, []).append(literal)
    return literals


def _literal(single: str | None, double: str | None) -> str:
    """The text of a matched ``_STRING_LITERAL``, whichever quote it had (the group of
    the other is ``None`` in a match, empty in ``findall``)."""
    return single or double or ""


_ESCAPED = {"__dash__": "-", "__dot__": ".", "__slash__": "/", "__underscores__": "__"}
_RESERVED_NAME = re.compile(r"^__([a-z]+)__$")


def _unescape(name: str) -> str:
    """A CEL field name as the property it stands for (``apiserver/pkg/cel/escaping.go``)."""
    for escaped, plain in _ESCAPED.items():
        name = name.replace(escaped, plain)
    match = _RESERVED_NAME.match(name)
    return match.group(1) if match else name


_MATCHES = re.compile(
    r"""^\s*self\.matches\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*\)\s*$"""
)
_LITERAL_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"'}


def _matches_pattern(rule: str) -> str | None:
    """The regex of a rule that is exactly ``self.matches('...')``, else ``None``.

    Pattern text for the string generator (a static reading of the rule, not evaluation).
    """
    match = _MATCHES.match(rule)
    if match is None:
        return None
    body = match.group(1) if match.group(1) is not None else match.group(2)
    return re.sub(r"\\(.)", lambda m: _LITERAL_ESCAPES.get(m.group(1), "\\" + m.group(1)), body)


def _holds(
    check: RuleCheck | None, rule: str, value: Any, schema: Schema, resource_root: bool
) -> bool | None:
    return None if check is None else check(rule, value, schema, resource_root)


def _junctor_lists(schema: Schema, junctor: str) -> Iterator[list[Any]]:
    """The branch lists of ``junctor`` on the node and inside its ``allOf``."""
    branches = schema.get(junctor)
    if isinstance(branches, list) and branches:
        yield branches
    for part in schema.get("allOf") or ():
        if isinstance(part, Mapping):
            yield from _junctor_lists(part, junctor)


def _rotate(values: list[Any], variant: int) -> list[Any]:
    if not values:
        return values
    shift = variant % len(values)
    return values[shift:] + values[:shift]


def _identity(item: Any, keys: tuple[str, ...], list_type: Any) -> str | None:
    if list_type == "map" and isinstance(item, dict):
        return repr([item.get(k) for k in keys])
    if list_type == "set":
        return repr(item)
    return None


def _numeric_bounds(schema: Schema, *, integer: bool) -> tuple[float | None, float | None]:
    low, high = _number(schema, "minimum"), _number(schema, "maximum")
    format_bounds = _INT_BOUNDS.get(str(schema.get("format")))
    if integer and format_bounds:
        low = format_bounds[0] if low is None else max(low, format_bounds[0])
        high = format_bounds[1] if high is None else min(high, format_bounds[1])
    # An exclusive bound moves inwards by one for integers; for numbers by a half,
    # which keeps the value readable and is still strictly inside.
    epsilon = 1 if integer else 0.5
    if low is not None and schema.get("exclusiveMinimum") is True:
        low += epsilon
    if high is not None and schema.get("exclusiveMaximum") is True:
        high -= epsilon
    if integer:
        low = math.ceil(low) if low is not None else None
        high = math.floor(high) if high is not None else None
    return low, high


def _format_examples(schema: Schema) -> tuple[str, ...]:
    fmt = schema.get("format")
    return _FORMAT_EXAMPLES.get(fmt, ()) if isinstance(fmt, str) else ()


# ------------------------------------------------------------- schema helpers

_MISSING: Any = object()


def _properties(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, Mapping):
        return {}
    props = schema.get("properties")
    return dict(props) if isinstance(props, Mapping) else {}


def _strings(value: Any) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return []


def _pattern_supported(pattern: str) -> bool:
    try:
        regex_examples.parse(pattern)
    except regex_examples.PatternSyntaxError:
        return False
    return True


def _cel_rule_entries(schema: Schema) -> list[Mapping[str, Any]]:
    """The node's ``x-kubernetes-validations`` that run on create (transition rules do not)."""
    return [
        rule
        for rule in schema.get("x-kubernetes-validations") or ()
        if isinstance(rule, Mapping)
        and isinstance(rule.get("rule"), str)
        and "oldSelf" not in rule["rule"]
    ]


def _cel_rules(schema: Schema) -> list[str]:
    return [rule["rule"] for rule in _cel_rule_entries(schema)]


def _int(schema: Schema, key: str) -> int | None:
    value = schema.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _number(schema: Schema, key: str) -> float | None:
    value = schema.get(key)
    return value if _is_number(value) else None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_true(schema: Schema, key: str) -> bool:
    return schema.get(key) is True


def _type_of(schema: Schema) -> str:
    if _is_true(schema, "x-kubernetes-int-or-string"):
        return "int-or-string"
    kind = schema.get("type")
    if isinstance(kind, str) and kind:
        return kind
    if _is_true(schema, "x-kubernetes-embedded-resource") or "properties" in schema:
        return "object"
    return ""


def _merge(base: Schema, extra: Schema) -> dict[str, Any]:
    """Conjunction of two schemas' value validations, for generation (not exact)."""
    merged = dict(base)
    for key, value in extra.items():
        if key not in merged:
            merged[key] = value
        elif key == "required":
            merged[key] = list(dict.fromkeys([*_strings(merged[key]), *_strings(value)]))
        elif key == "properties":
            props = dict(_properties(merged))
            for name, sub in _properties(extra).items():
                props[name] = _merge(props[name], sub) if name in props else sub
            merged[key] = props
        elif key == "enum":
            allowed = list(value or ())
            merged[key] = [v for v in merged[key] or () if v in allowed]
        elif key in ("minimum", "minLength", "minItems", "minProperties"):
            merged[key] = max(merged[key], value)
        elif key in ("maximum", "maxLength", "maxItems", "maxProperties"):
            merged[key] = min(merged[key], value)
        elif key == "items" and isinstance(value, Mapping) and isinstance(merged[key], Mapping):
            merged[key] = _merge(merged[key], value)
        elif key == "allOf":
            merged[key] = [*merged[key], *value]
        # Other keys (a second pattern, format, junctors): the base wins here and the
        # conformance check filters the candidates.
    return merged


def _merged(schema: Schema) -> Schema:
    """``schema`` with its ``allOf`` branches folded in."""
    branches = schema.get("allOf")
    if not isinstance(branches, list) or not branches:
        return schema
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    for branch in branches:
        if isinstance(branch, Mapping):
            merged = _merge(merged, _merged(branch))
    return merged


def _branch_requirements(schema: Schema) -> Iterator[Schema]:
    """Extra constraints to try, one combination of oneOf/anyOf branches at a time."""
    choice_lists: list[list[Schema]] = []

    def collect(node: Schema) -> None:
        for junctor in ("oneOf", "anyOf"):
            branches = node.get(junctor)
            if isinstance(branches, list) and branches:
                choice_lists.append(
                    [b for b in branches if isinstance(b, Mapping) and _has_demands(b)] or [{}]
                )
        for branch in node.get("allOf") or ():
            if isinstance(branch, Mapping):
                collect(branch)

    collect(schema)
    if not choice_lists:
        return
    for combination in itertools.product(*choice_lists):
        extra: dict[str, Any] = {}
        for branch in combination:
            extra = _merge(
                extra, {k: v for k, v in branch.items() if k not in COMPOSITION_KEYWORDS}
            )
        if extra:
            yield extra


def _has_demands(branch: Schema) -> bool:
    return any(k not in COMPOSITION_KEYWORDS for k in branch)


def _dotted(path: Path) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


# -------------------------------------------------------------- conformance


def _within(count: int, schema: Schema, low_key: str, high_key: str) -> bool:
    low, high = _int(schema, low_key), _int(schema, high_key)
    return (low is None or count >= low) and (high is None or count <= high)


# --------------------------------------------------------------- annotation


class _Annotator:
    """Comments and the CEL rules for the fields a finished sample contains."""

    def __init__(self, rule_check: RuleCheck | None = None) -> None:
        self.rule_check = rule_check
        self.comments: dict[Path, tuple[str, ...]] = {}
        self.cel_rules: list[CelRule] = []

    def walk(self, value: Any, schema: Any, path: Path, parent: Schema | None) -> None:
        if not isinstance(schema, Mapping):
            return
        for rule in _cel_rule_entries(schema):
            self.cel_rules.append(
                CelRule(
                    _dotted(path) or "<root>",
                    rule["rule"],
                    str(rule.get("message") or ""),
                    _holds(self.rule_check, rule["rule"], value, schema, not path),
                )
            )
        if path and isinstance(path[-1], str) and parent is not None:
            lines = _comment_lines(schema, parent, path[-1])
            if lines:
                self.comments[path] = lines
        if isinstance(value, dict):
            properties = _properties(schema)
            additional = schema.get("additionalProperties")
            for key, item in value.items():
                if not path and key in ("apiVersion", "kind"):
                    continue
                sub = properties.get(key)
                if sub is None and isinstance(additional, Mapping):
                    sub = additional
                if isinstance(sub, Mapping):
                    self.walk(item, sub, (*path, key), schema)
        elif isinstance(value, list):
            items = schema.get("items")
            for index, item in enumerate(value):
                # Comment only the first item; the others repeat its fields.
                annotator = self if index == 0 else _CelOnly(self)
                annotator.walk(item, items, (*path, index), schema)


class _CelOnly(_Annotator):
    def __init__(self, outer: _Annotator) -> None:
        super().__init__(outer.rule_check)
        self.cel_rules = outer.cel_rules


def _comment_lines(schema: Schema, parent: Schema, name: str) -> tuple[str, ...]:
    lines: list[str] = []
    description = schema.get("description")
    if isinstance(description, str) and description.strip():
        first = description.strip().split("\n\n")[0]
        text = " ".join(first.split())
        wrapped = textwrap.wrap(text, width=76, break_long_words=False, break_on_hyphens=False)
        if len(wrapped) > _COMMENT_LINES:
            last = wrapped[_COMMENT_LINES - 1]
            if len(last) > 72:
                cut = last.rfind(" ", 0, 72)
                last = last[: cut if cut > 0 else 72]
            wrapped = [*wrapped[: _COMMENT_LINES - 1], last + " ..."]
        lines.extend(wrapped)
    hints: list[str] = []
    if name in _strings(parent.get("required")):
        hints.append("required")
    enum = [v for v in schema.get("enum") or () if v is not None]
    if len(enum) > 1:
        shown = ", ".join(_short(v) for v in enum[:8]) + (", ..." if len(enum) > 8 else "")
        hints.append(f"one of: {shown}")
    if "default" in schema:
        hints.append(f"default: {_short(schema['default'])}")
    if _is_true(schema, "x-kubernetes-preserve-unknown-fields") and not _properties(schema):
        hints.append("free-form")
    if hints:
        lines.append("(" + "; ".join(hints) + ")")
    return tuple(lines)


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 40 else text[:37] + "..."
