#!/usr/bin/env python3
"""Write kubectl_crd/validation/builtin_types.json from a real kube-apiserver's OpenAPI v3.

    .venv/bin/python hack/builtin_types.py [--kubeconfig FILE] [--out FILE]

The in-process store (``reconcile.localstore``) checks an applied built-in object as the
server's first step of a server-side apply does (``validation.typed``); this script
gives it the schemas of the store's built-in kinds (``localstore.BUILTINS``) and what
they reference, from ``/openapi/v3/api/v1``, ``/openapi/v3/apis/apps/v1``, ... of the
envtest control plane the tests use (``tests/integration/envtest.py``; started here
unless ``--kubeconfig`` names a running one). Re-run it when the envtest version moves.

Kept: what the typed check and the list-map keys need, in OpenAPI's own words where it
has them (``type``, ``properties``, ``items``, ``additionalProperties``, ``$ref`` by
definition name, ``x-kubernetes-list-type`` / ``x-kubernetes-list-map-keys``,
``x-kubernetes-preserve-unknown-fields``, ``x-kubernetes-map-type: atomic``, the ``default`` of a field some list uses as a
key). Folded here, as kube-openapi's ``pkg/schemaconv`` folds them when it builds the
server's structured-merge-diff schema: the ``x-kubernetes-patch-strategy`` /
``patch-merge-key`` of a list with no list type (merge with a key: a map keyed by it;
merge without: a set; anything else: atomic), a ``string`` with a ``format`` other than
``byte`` (``date-time``, ``int-or-string``, ...) and ``Quantity`` (schemaconv's
hard-coded scalar) written ``{"type": "untyped"}`` (any scalar: the file's one word that
OpenAPI has not), ``RawExtension`` written ``{}`` (anything), ``IntOrString``
``{"x-kubernetes-int-or-string": true}``; an integer's ``int32``/``int64`` format is kept
(the store mirrors the decoding of a number into the Go field after the merge). Definition names lose
their ``io.k8s.api.`` / ``io.k8s.apimachinery.pkg.`` prefix.

Under ``"go"``, the kinds' Go types as encoding/json (sigs.k8s.io/json's fork, which the
server's JSON serializer uses) decodes a create's or update's body into them
(``validation.decoding``): read with Go's ``reflect`` from k8s.io/api and
k8s.io/apimachinery of the server's release (``go run`` of a small program written to a
temporary directory; Go and the modules, from the module cache or the module proxy, are
needed only here). OpenAPI has not these facts: the Go type each message names
(``v1.Protocol``, ``v1.ResourceList``), a struct's name and field order, ``omitempty`` /
``omitzero``, which types decode themselves (``UnmarshalJSON``: ``v1.Time``,
``v1.MicroTime``, ``resource.Quantity``, ``intstr.IntOrString``, ``v1.FieldsV1``). Each
type is ``{"go": <reflect's String()>, "k": <kind>, ...}``: ``struct`` with ``f``, its
JSON fields in order as ``[name, type, flags]`` (flags: 1 omitempty, 2 omitzero; embedded
structs without a JSON name promoted, as encoding/json's typeFields does); ``slice``,
``map`` (string keys) and ``ptr`` with ``e``, their element; ``int``/``uint``/``float``
with ``bits``; ``string``, ``bool``, ``bytes`` (``[]byte``: base64), ``any``; ``json`` for
a type with its own ``UnmarshalJSON``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "kubectl_crd" / "validation" / "builtin_types.json"
QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
RAW_EXTENSION = "io.k8s.apimachinery.pkg.runtime.RawExtension"
INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"


def short(name: str) -> str:
    for prefix in ("io.k8s.api.", "io.k8s.apimachinery.pkg."):
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def ref_name(schema: dict[str, Any]) -> str | None:
    ref = schema.get("$ref")
    if ref is None and len(schema.get("allOf") or ()) == 1:
        ref = schema["allOf"][0].get("$ref")
    return str(ref).rsplit("/", 1)[-1] if ref else None


def list_markers(schema: dict[str, Any]) -> dict[str, Any]:
    """schemaconv's getListElementRelationship, folded into list-type words."""
    list_type = schema.get("x-kubernetes-list-type")
    if list_type is not None:
        out: dict[str, Any] = {"x-kubernetes-list-type": list_type}
        if list_type == "map":
            out["x-kubernetes-list-map-keys"] = list(schema["x-kubernetes-list-map-keys"])
        return out
    strategy = schema.get("x-kubernetes-patch-strategy")
    if strategy in ("merge", "merge,retainKeys"):
        key = schema.get("x-kubernetes-patch-merge-key")
        if key:
            return {"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": [key]}
        return {"x-kubernetes-list-type": "set"}
    return {}


def compact(schema: dict[str, Any], keys: set[str], refs: set[str]) -> dict[str, Any]:
    name = ref_name(schema)
    if name is not None:
        if schema.get("x-kubernetes-map-type"):
            # schemaconv lets a reference override its type's map type; none in 1.34
            raise SystemExit(f"builtin-types: a map type beside the $ref of {name}: fold it")
        refs.add(name)
        return {"$ref": short(name)}
    out: dict[str, Any] = {}
    kind = schema.get("type")
    if kind == "string" and schema.get("format") not in (None, "", "byte"):
        out["type"] = "untyped"
    elif kind:
        out["type"] = kind
    if kind == "integer" and schema.get("format") in ("int32", "int64"):
        out["format"] = schema["format"]  # the Go type the merged object is decoded into
    if schema.get("x-kubernetes-preserve-unknown-fields") is True:
        out["x-kubernetes-preserve-unknown-fields"] = True
    if schema.get("x-kubernetes-map-type") == "atomic":
        # +structType=atomic / +mapType=atomic (LabelSelector, ObjectReference, ...):
        # schemaconv makes the map atomic, replaced whole by an apply ("granular", the
        # default, is left out)
        out["x-kubernetes-map-type"] = "atomic"
    properties = schema.get("properties")
    if properties:
        fields = {}
        for field, sub in sorted(properties.items()):
            done = compact(sub, keys, refs)
            if field in keys and isinstance(sub.get("default"), (str, int, bool)):
                done["default"] = sub["default"]
            fields[field] = done
        out["properties"] = fields
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        out["additionalProperties"] = compact(extra, keys, refs)
    elif isinstance(extra, bool):
        out["additionalProperties"] = extra
    if "items" in schema:
        out["items"] = compact(schema["items"], keys, refs)
    if kind == "array":
        out.update(list_markers(schema))
    return out


def build(documents: list[dict[str, Any]], kinds: list[tuple[str, str, str]]) -> dict[str, Any]:
    schemas: dict[str, dict[str, Any]] = {}
    for document in documents:
        schemas.update(document["components"]["schemas"])
    # every field name some list is keyed by: their defaults are kept
    keys: set[str] = set()
    for schema in schemas.values():
        stack = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                markers = list_markers(node) if node.get("type") == "array" else {}
                keys.update(markers.get("x-kubernetes-list-map-keys") or ())
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    roots: dict[str, str] = {}
    for group, version, kind in kinds:
        for name, schema in schemas.items():
            for gvk in schema.get("x-kubernetes-group-version-kind") or ():
                if (gvk.get("group"), gvk.get("version"), gvk.get("kind")) == (
                    group,
                    version,
                    kind,
                ):
                    roots[f"{group}/{version}/{kind}" if group else f"{version}/{kind}"] = name
        api = f"{group}/{version}" if group else version
        if not any(key.endswith(f"/{kind}") and key.startswith(api) for key in roots):
            raise SystemExit(f"builtin-types: no OpenAPI definition for {api} {kind}")
    types: dict[str, Any] = {}
    todo = [*roots.values(), "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]
    while todo:
        name = todo.pop()
        if short(name) in types:
            continue
        if name == QUANTITY:
            # format "quantity": the store parses one as the decoding of the merged
            # object does (resource.ParseQuantity)
            types[short(name)] = {"type": "untyped", "format": "quantity"}
            continue
        if name == RAW_EXTENSION:
            types[short(name)] = {}
            continue
        if name == INT_OR_STRING:
            # the CRD world's word for it: typed as anything, decoded as int32 or string
            types[short(name)] = {"x-kubernetes-int-or-string": True}
            continue
        refs: set[str] = set()
        types[short(name)] = compact(schemas[name], keys, refs)
        todo.extend(sorted(refs))
    return {
        "source": "kube-apiserver OpenAPI v3, by hack/builtin_types.py",
        "kinds": {key: short(name) for key, name in sorted(roots.items())},
        "types": dict(sorted(types.items())),
    }


#: the Go program that prints the kinds' Go types (``{roots}``: one line per kind)
GO_MAIN = """\
package main

import (
\t"encoding"
\t"encoding/json"
\t"os"
\t"reflect"
\t"strings"
{imports}
)

var roots = map[string]any{{
{roots}
}}

var (
\tunmarshaler     = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
\ttextUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
\ttypes           = map[string]map[string]any{{}}
)

func id(t reflect.Type) string {{
\tif t.Name() != "" {{
\t\tif t.PkgPath() == "" {{
\t\t\treturn t.Name()
\t\t}}
\t\tpath := strings.TrimPrefix(strings.TrimPrefix(t.PkgPath(), "k8s.io/api/"), "k8s.io/apimachinery/pkg/")
\t\treturn path + "." + t.Name()
\t}}
\tswitch t.Kind() {{
\tcase reflect.Slice:
\t\treturn "[]" + id(t.Elem())
\tcase reflect.Map:
\t\treturn "map[" + id(t.Key()) + "]" + id(t.Elem())
\tcase reflect.Pointer:
\t\treturn "*" + id(t.Elem())
\t}}
\treturn t.String()
}}

// fields lists a struct's JSON fields as encoding/json's typeFields does: embedded
// structs without a JSON name promoted, in declaration order.
func fields(t reflect.Type, out *[][]any) {{
\tfor i := 0; i < t.NumField(); i++ {{
\t\tf := t.Field(i)
\t\ttag := f.Tag.Get("json")
\t\tif tag == "-" {{
\t\t\tcontinue
\t\t}}
\t\tname, opts, _ := strings.Cut(tag, ",")
\t\tft := f.Type
\t\tif ft.Kind() == reflect.Pointer {{
\t\t\tft = ft.Elem()
\t\t}}
\t\tif f.Anonymous && name == "" && ft.Kind() == reflect.Struct {{
\t\t\tfields(ft, out)
\t\t\tcontinue
\t\t}}
\t\tif !f.IsExported() {{
\t\t\tcontinue
\t\t}}
\t\tif name == "" {{
\t\t\tname = f.Name
\t\t}}
\t\tflags := 0
\t\tfor _, o := range strings.Split(opts, ",") {{
\t\t\tswitch o {{
\t\t\tcase "omitempty":
\t\t\t\tflags |= 1
\t\t\tcase "omitzero":
\t\t\t\tflags |= 2
\t\t\tcase "string":
\t\t\t\tpanic("a ,string option: " + t.String() + "." + f.Name)
\t\t\t}}
\t\t}}
\t\t*out = append(*out, []any{{name, visit(f.Type), flags}})
\t}}
}}

func visit(t reflect.Type) string {{
\tkey := id(t)
\tif _, ok := types[key]; ok {{
\t\treturn key
\t}}
\td := map[string]any{{"go": t.String()}}
\ttypes[key] = d
\tif t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(unmarshaler) {{
\t\td["k"] = "json"
\t\treturn key
\t}}
\tswitch t.Kind() {{
\tcase reflect.Struct:
\t\td["k"] = "struct"
\t\tout := [][]any{{}}
\t\tfields(t, &out)
\t\td["f"] = out
\tcase reflect.Slice:
\t\tif t.Elem().Kind() == reflect.Uint8 {{
\t\t\td["k"] = "bytes"
\t\t}} else {{
\t\t\td["k"] = "slice"
\t\t\td["e"] = visit(t.Elem())
\t\t}}
\tcase reflect.Map:
\t\tif t.Key().Kind() != reflect.String || reflect.PointerTo(t.Key()).Implements(textUnmarshaler) {{
\t\t\tpanic("a map key that is not a plain string: " + t.String())
\t\t}}
\t\td["k"] = "map"
\t\td["e"] = visit(t.Elem())
\tcase reflect.Pointer:
\t\td["k"] = "ptr"
\t\td["e"] = visit(t.Elem())
\tcase reflect.String:
\t\td["k"] = "string"
\tcase reflect.Bool:
\t\td["k"] = "bool"
\tcase reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
\t\td["k"], d["bits"] = "int", t.Bits()
\tcase reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
\t\td["k"], d["bits"] = "uint", t.Bits()
\tcase reflect.Float32, reflect.Float64:
\t\td["k"], d["bits"] = "float", t.Bits()
\tcase reflect.Interface:
\t\td["k"] = "any"
\tdefault:
\t\tpanic("a kind the decoder has no word for: " + t.String())
\t}}
\treturn key
}}

func main() {{
\tkinds := map[string]string{{}}
\tfor name, root := range roots {{
\t\tkinds[name] = visit(reflect.TypeOf(root))
\t}}
\tdata, err := json.Marshal(map[string]any{{"kinds": kinds, "types": types}})
\tif err != nil {{
\t\tpanic(err)
\t}}
\tos.Stdout.Write(data)
}}
"""

GO_MOD = """\
module builtintypes

go 1.24.0

require (
\tk8s.io/api {version}
\tk8s.io/apimachinery {version}
)
"""


def go_package(group: str) -> str:
    """k8s.io/api's package of an API group: core for the core group, else the group's
    first label (``rbac`` for rbac.authorization.k8s.io)."""
    return "core" if not group else group.split(".")[0]


def go_types(kinds: list[tuple[str, str, str]], server_version: str) -> dict[str, Any]:
    """The kinds' Go types (the module docstring's ``"go"``), read by ``reflect`` in a
    Go program built against k8s.io/api of the server's release (``v1.34.4`` ->
    ``v0.34.4``). ``GOFLAGS=-mod=mod`` by default; for an offline machine with the
    modules in its cache, ``GOPROXY=off GOSUMDB=off``."""
    import subprocess
    import tempfile

    _, minor, patch = server_version.lstrip("v").split("-")[0].split(".")
    module_version = f"v0.{minor}.{patch}"
    packages = sorted({(go_package(group), version) for group, version, _ in kinds})
    imports = "\n".join(f'\t{p}{v} "k8s.io/api/{p}/{v}"' for p, v in packages)
    roots = "\n".join(
        f'\t"{group + "/" if group else ""}{version}/{kind}": {go_package(group)}{version}.{kind}{{}},'
        for group, version, kind in kinds
    )
    with tempfile.TemporaryDirectory(prefix="builtin-types-") as work:
        Path(work, "main.go").write_text(GO_MAIN.format(imports=imports, roots=roots))
        Path(work, "go.mod").write_text(GO_MOD.format(version=module_version))
        env = {"GOFLAGS": "-mod=mod", **os.environ}
        done = subprocess.run(
            ["go", "run", "."], cwd=work, env=env, capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        raise SystemExit(f"builtin-types: go run failed:\n{done.stderr.strip()}")
    made: dict[str, Any] = json.loads(done.stdout)
    return {
        "kinds": dict(sorted(made["kinds"].items())),
        "types": dict(sorted(made["types"].items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--kubeconfig", help="a running server's kubeconfig (default: start envtest)"
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.reconcile.localstore import BUILTINS

    kinds = [(group, version, kind) for group, version, _, kind, *_ in BUILTINS]
    paths = sorted(
        {f"/openapi/v3/apis/{g}/{v}" if g else f"/openapi/v3/api/{v}" for g, v, _ in kinds}
    )
    plane = None
    kubeconfig = args.kubeconfig
    if kubeconfig is None:
        from tests.integration.envtest import ControlPlane, ensure_assets

        assets = (
            Path(os.environ["KUBEBUILDER_ASSETS"])
            if "KUBEBUILDER_ASSETS" in os.environ
            else ensure_assets()
        )
        plane = ControlPlane(assets)
        plane.start()
        kubeconfig = str(plane.kubeconfig)
    try:
        with KubeClient(ClusterConfig(kubeconfig=kubeconfig)) as client:
            version = client.get("/version")
            documents = [client.get(path) for path in paths]
    finally:
        if plane is not None:
            plane.stop()
    data = build(documents, kinds)
    data["source"] += f" (kube-apiserver {version.get('gitVersion')})"
    data["go"] = go_types(kinds, str(version.get("gitVersion")))
    text = json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n"
    args.out.write_text(text)
    print(
        f"{args.out}: {len(text.encode())} bytes, {len(data['types'])} types, "
        f"{len(data['go']['types'])} Go types, {len(data['kinds'])} kinds"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
