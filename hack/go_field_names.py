#!/usr/bin/env python3
"""Write kubectl_crd/validation/pod_go_types.py: the Go field names of every internal type
a pod spec reaches, with the v1 JSON name that holds each field.

    .venv/bin/python hack/go_field_names.py [--modcache DIR] [--out FILE]

kube-apiserver prints a Job's changed template (``field.Invalid`` of
``pkg/apis/batch/validation/validation.go`` ``ValidateJobSpecUpdate``) as
``json.Marshal`` of the internal ``core.PodTemplateSpec``, whose types have no JSON tags:
Go's field names, in declaration order, the fields of an embedded struct in its place,
every field (no ``omitempty``). The store (``validation.workloads``) prints the same from
the v1 object it holds, so it needs, per internal type, each field's Go name, the v1 JSON
name it is read from, and how it is written. OpenAPI (``builtin_types.json``) has no Go
names; they are read here from two files of the module cache, of the release
``hack/envtest-versions.env`` pins:

- k8s.io/kubernetes ``pkg/apis/core/types.go``: the internal types (names, order, Go
  types; hack/envtest-assets.sh downloads the module);
- k8s.io/api ``core/v1/types.go`` (v0.X.Y of release v1.X.Y): the JSON tags of the v1
  fields of the same Go names.

Plain text reading (stdlib only, no Go toolchain): each ``type T struct { ... }`` of the
two files; starting from ``PodSpec``, every internal type a field reaches. A field's kind
(workloads' codes): ``s`` / ``b`` / ``i`` a string, bool or integer (named types
included), written as its zero value when absent; ``p`` a pointer to a scalar, a slice or
map of scalars, or a type of another package (``metav1.LabelSelector``,
``resource.Quantity``, ``intstr.IntOrString``), written as the API's JSON; ``!T`` /
``*T`` / ``[]T`` a struct of this package, a pointer to one, a slice of them; ``m`` an
embedded ``metav1.ObjectMeta`` (an ephemeral volume's claim template: its JSON tags
inline, json.Marshal writes its fields in the struct's place).

The test tests/unit/validation/test_pod_go_types.py runs this script and compares its
output with the committed module; run it when the pinned release moves and review the
diff (one line per field).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "kubectl_crd" / "validation" / "pod_go_types.py"
VERSIONS = ROOT / "hack" / "envtest-versions.env"
INTERNAL = "pkg/apis/core/types.go"
V1 = "core/v1/types.go"
ROOT_TYPE = "PodSpec"
LINE_LENGTH = 100  # pyproject.toml [tool.ruff] line-length: the output is ruff-format clean

#: Internal fields held elsewhere in v1: ``pkg/apis/core/v1/conversion.go``
#: (``Convert_core_PodSpec_To_v1_PodSpec``, ``Convert_v1_PodSpec_To_core_PodSpec``)
#: moves the host namespaces between v1's ``PodSpec`` and the internal
#: ``PodSecurityContext``; their JSON names are v1 ``PodSpec``'s.
MOVED = {
    ("PodSecurityContext", go): ("PodSpec", go)
    for go in ("HostNetwork", "HostPID", "HostIPC", "ShareProcessNamespace", "HostUsers")
}
#: v1 fields no internal field is read from: ``DeprecatedServiceAccount``
#: (``serviceAccount``), which the same conversion reads into ``ServiceAccountName``
#: when that is empty. workloads consumes it, and the moved fields, before it renders
#: a ``PodSpec``; a new one stops the script (the renderer must learn it first).
V1_ONLY = {("PodSpec", "DeprecatedServiceAccount")}
_INTEGERS = ("int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32")
_SCALARS = {"string": "s", "bool": "b", "uint64": "i", **dict.fromkeys(_INTEGERS, "i")}
_OBJECT_META = "metav1.ObjectMeta"


class SourceError(Exception):
    """The Go sources are missing, or say something this reader does not know."""


@dataclass(frozen=True)
class GoField:
    name: str  # Go's name; for an embedded field, the embedded type's
    type: str  # Go's type expression, e.g. "*[]string" or "metav1.ObjectMeta"
    json: str | None  # the json tag's name ("" when the tag names none), None when untagged
    embedded: bool


@dataclass
class GoFile:
    structs: dict[str, list[GoField]]
    named: dict[str, str]  # type T U (and aliases): T's underlying type expression


def strip_comments(text: str) -> str:
    """Go source without its ``//`` and ``/* */`` comments (newlines kept), strings and
    raw strings (struct tags) left whole."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise SourceError("an unterminated /* comment")
            out.append("\n" * text.count("\n", i, end))
            i = end + 2
        elif c in "\"`'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if c != "`" and text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


_STRUCT = re.compile(r"^type (\w+) struct \{\s*$")
_EMPTY_STRUCT = re.compile(r"^type (\w+) struct\s*\{\s*\}\s*$")
_NAMED = re.compile(r"^type (\w+) (?:= )?(\S+)\s*$")
_TAG = re.compile(r"\s*`([^`]*)`\s*$")
_JSON_TAG = re.compile(r'(?:^|\s)json:"([^"]*)"')


def parse_go(path: Path) -> GoFile:
    """The top-level ``type`` declarations of one Go file."""
    lines = strip_comments(path.read_text(encoding="utf-8")).splitlines()
    found = GoFile({}, {})
    at = 0
    while at < len(lines):
        line = lines[at]
        at += 1
        if line.startswith("type ("):
            raise SourceError(f"{path}: a grouped type declaration (not read)")
        if match := _EMPTY_STRUCT.match(line):
            found.structs[match[1]] = []
        elif match := _STRUCT.match(line):
            fields: list[GoField] = []
            while lines[at] != "}":
                fields += _parse_field(path, lines[at])
                at += 1
            at += 1
            found.structs[match[1]] = fields
        elif match := _NAMED.match(line):
            found.named[match[1]] = match[2]
    return found


def _parse_field(path: Path, line: str) -> list[GoField]:
    tag_json: str | None = None
    if tag := _TAG.search(line):
        json_tag = _JSON_TAG.search(tag[1])
        tag_json = json_tag[1].split(",")[0] if json_tag else None
        line = line[: tag.start()]
    words = line.split()
    if not words:
        return []
    if line.rstrip().endswith(("{", "(")) or "func(" in line:
        raise SourceError(f"{path}: a field this reader does not know: {line.strip()!r}")
    if len(words) == 1:
        name = words[0].lstrip("*").rsplit(".", 1)[-1]
        return [GoField(name, words[0], tag_json, embedded=True)]
    names = " ".join(words[:-1]).replace(",", " ").split()
    return [GoField(name, words[-1], tag_json, embedded=False) for name in names]


class Reader:
    """The internal types of ``pkg/apis/core`` and the JSON names of their v1 twins."""

    def __init__(self, internal: GoFile, v1: GoFile) -> None:
        self.internal, self.v1 = internal, v1

    def fields(self, type_name: str) -> list[GoField]:
        """A struct's fields as encoding/json sees them: an untagged embedded struct of
        this package in its place."""
        out: list[GoField] = []
        for field in self.internal.structs[type_name]:
            if field.embedded and field.type in self.internal.structs:
                out += self.fields(field.type)
            else:
                out.append(field)
        names = [field.name for field in out]
        if len(set(names)) != len(names):
            raise SourceError(f"{type_name}: a Go field name twice (shadowing not read)")
        return out

    def json_names(self, type_name: str) -> dict[str, str]:
        """v1 ``type_name``'s fields: Go name to JSON name, an inline or untagged
        embedded struct's fields in its place."""
        if type_name not in self.v1.structs:
            raise SourceError(f"k8s.io/api {V1} has no type {type_name}")
        out: dict[str, str] = {}
        for field in self.v1.structs[type_name]:
            if field.json == "-":
                continue
            if field.embedded and not field.json and field.type.lstrip("*") in self.v1.structs:
                out.update(self.json_names(field.type.lstrip("*")))
            else:
                out[field.name] = field.json or field.name
        return out

    def embeds_object_meta(self, type_name: str) -> bool:
        return any(f.embedded and f.type == _OBJECT_META for f in self.internal.structs[type_name])

    def _scalar(self, expression: str) -> str | None:
        """``s``, ``b``, ``i``, ``p`` (a map, slice or another package's type) for a
        non-pointer type that is not a struct of this package; None for one that is."""
        seen: set[str] = set()
        while expression in self.internal.named and expression not in seen:
            seen.add(expression)
            expression = self.internal.named[expression]
        if expression in _SCALARS:
            return _SCALARS[expression]
        if expression.startswith(("[]", "map[")) or "." in expression:
            # A non-pointer resource.Quantity (ResourceFieldSelector.Divisor) or
            # intstr.IntOrString (HTTPGetAction.Port, TCPSocketAction.Port) is ``p`` too,
            # as the pasted table of 7bb6f09 had it: written as the API's JSON, where
            # json.Marshal calls its MarshalJSON. The same text: the stored v1 object
            # always holds them (omitempty does not omit a struct, k8s.io/api
            # core/v1/types.go ``Divisor resource.Quantity `json:"divisor,omitempty"```:
            # an absent divisor is stored "0", an absent port 0, as MarshalJSON of the
            # zero values writes them, apimachinery pkg/api/resource/quantity.go and
            # pkg/util/intstr/intstr.go), so ``null`` (absent) never reaches the renderer.
            return "p"
        if expression in self.internal.structs:
            return None
        raise SourceError(f"{INTERNAL}: no type {expression}")

    def kind(self, expression: str) -> str:
        """A field's kind code (see the module docstring)."""
        if expression.startswith("*"):
            inner = expression[1:]
            if self._scalar(inner) is not None:
                return "p"
            return f"*{inner}"
        if expression.startswith("[]"):
            inner = expression[2:]
            if self._scalar(inner) is not None:
                return "p"
            if self.embeds_object_meta(inner):
                raise SourceError(f"{INTERNAL}: a slice of {inner}, which embeds ObjectMeta")
            return f"[]{inner}"
        scalar = self._scalar(expression)
        if scalar is not None:
            return scalar
        if self.embeds_object_meta(expression):
            raise SourceError(f"{INTERNAL}: a {expression} value, which embeds ObjectMeta")
        return f"!{expression}"

    def table(self, root: str) -> dict[str, list[tuple[str, str, str]]]:
        """Every struct ``root`` reaches, in the order a depth-first walk of the fields
        meets them: (Go name, v1 JSON name, kind)."""
        out: dict[str, list[tuple[str, str, str]]] = {}
        used: set[tuple[str, str]] = set()

        def visit(type_name: str) -> None:
            out[type_name] = []
            for field in self.fields(type_name):
                if field.embedded and field.type != _OBJECT_META:
                    raise SourceError(f"{type_name} embeds {field.type} (not read)")
                home = MOVED.get((type_name, field.name), (type_name, field.name))
                json_names = self.json_names(home[0])
                if home[1] not in json_names:
                    raise SourceError(f"v1 {home[0]} has no field {home[1]}")
                used.add(home)
                kind = "m" if field.embedded else self.kind(field.type)
                out[type_name].append((field.name, json_names[home[1]], kind))
                reached = kind.lstrip("*![]")
                if kind not in _KINDS and reached not in out:
                    visit(reached)

        visit(root)
        v1_only = {(type_name, go) for type_name in out for go in self.json_names(type_name)} - used
        if v1_only - V1_ONLY:
            raise SourceError(f"v1 fields with no internal field: {sorted(v1_only - V1_ONLY)}")
        if V1_ONLY - v1_only:
            raise SourceError(f"V1_ONLY fields v1 has no more: {sorted(V1_ONLY - v1_only)}")
        return out

    def pod_spec_elsewhere(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """v1 ``PodSpec``'s JSON names of the fields ``MOVED`` to another internal type,
        and of the ``V1_ONLY`` ones: what the renderer takes out of a pod spec first."""
        names = self.json_names("PodSpec")
        moved = tuple(names[go] for (_, go) in MOVED.values())
        return moved, tuple(sorted(names[go] for (_, go) in V1_ONLY))


_KINDS = {"s", "b", "i", "p", "m"}


def modcache(given: str | None) -> Path:
    if given:
        return Path(given)
    if os.environ.get("GOMODCACHE"):
        return Path(os.environ["GOMODCACHE"])
    go = shutil.which("go")
    if go:
        answer = subprocess.run(
            [go, "env", "GOMODCACHE"], capture_output=True, text=True, check=False
        )
        if answer.returncode == 0 and answer.stdout.strip():
            return Path(answer.stdout.strip())
    return Path.home() / "go" / "pkg" / "mod"


def pinned_release() -> str:
    """KUBERNETES_VERSION of hack/envtest-versions.env, e.g. ``v1.34.4``."""
    for line in VERSIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("KUBERNETES_VERSION="):
            return line.split("=", 1)[1].strip()
    raise SourceError(f"{VERSIONS}: no KUBERNETES_VERSION")


def sources(cache: Path, release: str) -> tuple[Path, Path, str]:
    """The two files, and the k8s.io/api version (v0.X.Y of v1.X.Y)."""
    api = "v0." + release.removeprefix("v1.")
    internal = cache / "k8s.io" / f"kubernetes@{release}" / INTERNAL
    v1 = cache / "k8s.io" / f"api@{api}" / V1
    for path in (internal, v1):
        if not path.is_file():
            raise SourceError(
                f"{path} is missing (hack/envtest-assets.sh downloads the modules, or "
                f"`go mod download k8s.io/kubernetes@{release} k8s.io/api@{api}`)"
            )
    return internal, v1, api


def render(
    table: dict[str, list[tuple[str, str, str]]],
    elsewhere: tuple[tuple[str, ...], tuple[str, ...]],
    release: str,
    api: str,
) -> str:
    """The module's text: one line per field, as ``ruff format`` leaves it."""
    out = [
        '"""Generated by hack/go_field_names.py: do not edit, re-run the script.',
        "",
        f"Read from k8s.io/kubernetes {release} ``{INTERNAL}`` and k8s.io/api {api}",
        f"``{V1}``.",
        "",
        "Pure data. Per internal Go type a pod spec reaches, its fields as kube-apiserver's",
        "``json.Marshal`` writes them (declaration order, an embedded struct's fields in its",
        "place): (Go name, v1 JSON name, kind), the kind codes ``validation.workloads``",
        "reads (its comment on ``GO_TYPES`` says what each means).",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        '__all__ = ["GO_TYPES", "POD_SPEC_MOVED", "POD_SPEC_V1_ONLY"]',
        "",
        "#: v1 PodSpec's fields the internal PodSecurityContext holds (the host namespaces:",
        "#: pkg/apis/core/v1/conversion.go Convert_v1_PodSpec_To_core_PodSpec)",
        f"POD_SPEC_MOVED = {_tuple(elsewhere[0])}",
        "#: v1 PodSpec's fields no internal field is read from (serviceAccount: the same",
        "#: conversion's deprecated alias of serviceAccountName)",
        f"POD_SPEC_V1_ONLY = {_tuple(elsewhere[1])}",
        "",
        "GO_TYPES: dict[str, tuple[tuple[str, str, str], ...]] = {",
    ]
    for type_name, fields in table.items():
        triples = ["(" + ", ".join(f'"{word}"' for word in triple) + ")" for triple in fields]
        # ruff joins a one-element tuple that fits (its trailing comma is not magic)
        if not triples:
            out.append(f'    "{type_name}": (),')
            continue
        joined = f'    "{type_name}": ({triples[0]},),'
        if len(triples) == 1 and len(joined) <= LINE_LENGTH:
            out.append(joined)
            continue
        out.append(f'    "{type_name}": (')
        for triple, text in zip(fields, triples, strict=True):
            if len(f"        {text},") <= LINE_LENGTH:
                out.append(f"        {text},")
            else:
                out += ["        (", *(f'            "{word}",' for word in triple), "        ),"]
        out.append("    ),")
    out.append("}")
    return "\n".join(out) + "\n"


def _tuple(words: tuple[str, ...]) -> str:
    text = ", ".join(f'"{word}"' for word in words)
    return f"({text},)" if len(words) == 1 else f"({text})"


def generate(
    name: str,
    description: str,
    out: Path,
    write: Callable[[Path, str], str],
    argv: list[str] | None,
) -> int:
    """A generator script's command line (``--modcache``, ``--out``): the text ``write``
    makes from the module cache and the pinned release, written to ``out``; a source
    missing or not understood is one line on stderr and exit code 1 (nothing written).
    hack/scheme_kinds.py's too."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--modcache", help="Go's module cache (default: go env GOMODCACHE)")
    parser.add_argument("--out", default=str(out), help=f"the module to write ({out})")
    args = parser.parse_args(argv)
    try:
        text = write(modcache(args.modcache), pinned_release())
    except SourceError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 1
    Path(args.out).write_text(text, encoding="utf-8")
    return 0


def _write(cache: Path, release: str) -> str:
    internal, v1, api = sources(cache, release)
    reader = Reader(parse_go(internal), parse_go(v1))
    return render(reader.table(ROOT_TYPE), reader.pod_spec_elsewhere(), release, api)


def main(argv: list[str] | None = None) -> int:
    return generate("go_field_names", __doc__.splitlines()[0], OUT, _write, argv)


if __name__ == "__main__":
    sys.exit(main())
