#!/usr/bin/env python3
"""Write kubectl_crd/validation/scheme_kinds.py: the kinds kube-apiserver's scheme decodes
a request body into, by group version.

    .venv/bin/python hack/scheme_kinds.py [--modcache DIR] [--out FILE]

A create's or update's body names its own apiVersion and kind; the handler decodes it
into the type they name (the endpoint's filling in what the body leaves out), then
converts it to the endpoint's internal type (apiserver ``handlers/create.go``,
``update.go``). Which 400 a body of another kind gets depends on whether the scheme
knows its kind: ``no kind "Gadget" is registered for version "v1"``, or, for a kind it
knows (a Secret sent to the ConfigMap endpoint), ``converting (v1.Secret) to
(core.ConfigMap): unknown conversion``. The store (``validation.decoding``) needs that
list; it is read here, as plain text, from the module cache, of the release
``hack/envtest-versions.env`` pins:

- k8s.io/kubernetes ``pkg/controlplane/import_known_versions.go``: the API groups the
  server installs; each ``pkg/apis/<group>/install/install.go``: their versions;
  ``pkg/apis/<group>/register.go``: the group's name;
- k8s.io/api ``<group>/<version>/register.go``: the kinds ``addKnownTypes`` registers,
  and apimachinery's ``metav1.AddToGroupVersion`` adds to every version (``WatchEvent``
  and the option kinds; ``Status`` and the discovery kinds unversioned, as core ``v1``).

The test tests/unit/validation/test_scheme_kinds.py runs this script and compares its
output with the committed module; run it when the pinned release moves.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HACK = Path(__file__).resolve().parent
sys.path.insert(0, str(HACK))

from go_field_names import SourceError, generate  # noqa: E402

ROOT = HACK.parent
OUT = ROOT / "kubectl_crd" / "validation" / "scheme_kinds.py"
KNOWN_VERSIONS = "pkg/controlplane/import_known_versions.go"

#: metav1.AddToGroupVersion (apimachinery pkg/apis/meta/v1/register.go): every version
META_KINDS = (
    "WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions",
    "UpdateOptions", "PatchOptions",
)  # fmt: skip
#: its AddUnversionedTypes(Unversioned, ...): registered as the core group's v1
UNVERSIONED_KINDS = ("Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList")


def _read(path: Path) -> str:
    if not path.is_file():
        raise SourceError(f"{path} is missing (hack/envtest-assets.sh downloads the modules)")
    return path.read_text(encoding="utf-8")


def installed_groups(kubernetes: Path) -> list[str]:
    """The directories under pkg/apis whose install package the server imports."""
    text = _read(kubernetes / KNOWN_VERSIONS)
    groups = re.findall(r'"k8s\.io/kubernetes/pkg/apis/([a-z0-9]+)/install"', text)
    if not groups:
        raise SourceError(f"{KNOWN_VERSIONS}: no install package imported")
    return groups


def group_name(kubernetes: Path, directory: str) -> str:
    found = re.search(
        r'GroupName\s*=\s*"([^"]*)"', _read(kubernetes / "pkg/apis" / directory / "register.go")
    )
    if found is None:
        raise SourceError(f"pkg/apis/{directory}/register.go: no GroupName")
    return found.group(1)


def installed_versions(kubernetes: Path, directory: str) -> list[str]:
    """The external versions install.go adds to the scheme (``<alias>.AddToScheme``, each
    alias an import of ``pkg/apis/<group>/<version>``)."""
    text = _read(kubernetes / "pkg/apis" / directory / "install/install.go")
    imports = {
        alias or path.rpartition("/")[2]: path.rpartition("/")[2]
        for alias, path in re.findall(
            r'^\s*(?:([A-Za-z0-9_]+)\s+)?"k8s\.io/kubernetes/pkg/apis/'
            + directory
            + r'/([a-z0-9]+)"',
            text,
            flags=re.MULTILINE,
        )
    }
    versions = [
        imports[a] for a in re.findall(r"Must\(([A-Za-z0-9_]+)\.AddToScheme", text) if a in imports
    ]
    if not versions:
        raise SourceError(f"pkg/apis/{directory}/install/install.go: no version installed")
    return sorted(versions)


def registered_kinds(api: Path, directory: str, version: str) -> list[str]:
    """addKnownTypes' kinds of k8s.io/api <group>/<version>/register.go (its own types;
    ``metav1.Status`` and the like are added with the meta kinds)."""
    text = _read(api / directory / version / "register.go")
    body = re.search(r"func addKnownTypes\(.*?\n}\n", text, flags=re.DOTALL)
    if body is None:
        raise SourceError(f"k8s.io/api {directory}/{version}/register.go: no addKnownTypes")
    return re.findall(r"&([A-Z][A-Za-z0-9]*)\{\}", body.group(0))


def table(kubernetes: Path, api: Path) -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """Each group version's kinds (core's as ``v1``), and each group's internal package."""
    kinds: dict[str, tuple[str, ...]] = {}
    packages: dict[str, str] = {}
    for directory in installed_groups(kubernetes):
        group = group_name(kubernetes, directory)
        packages[group] = directory
        for version in installed_versions(kubernetes, directory):
            found = set(registered_kinds(api, directory, version)) | set(META_KINDS)
            if not group and version == "v1":
                found |= set(UNVERSIONED_KINDS)
            kinds[f"{group}/{version}" if group else version] = tuple(sorted(found))
    return dict(sorted(kinds.items())), dict(sorted(packages.items()))


def render(kinds: dict[str, tuple[str, ...]], packages: dict[str, str], release: str) -> str:
    """The module: each group version's kinds as one space-separated line (ruff format
    leaves a long string as it is)."""
    out = [
        f'"""kube-apiserver {release}\'s scheme: the kinds a request body may name, by group',
        "version (space-separated), and each group's internal Go package (the type a body is",
        "converted to). ``META_KINDS`` are apimachinery's (Go package ``v1`` in every group).",
        "",
        "Written by hack/scheme_kinds.py from the Go sources of the release; do not edit.",
        '"""',
        "",
        "SCHEME_KINDS: dict[str, str] = {",
    ]
    out.extend(f'    "{gv}": "{" ".join(names)}",' for gv, names in kinds.items())
    out.append("}")
    out.append("")
    out.append("INTERNAL_PACKAGES: dict[str, str] = {")
    out.extend(f'    "{group}": "{package}",' for group, package in packages.items())
    out.append("}")
    out.append("")
    out.append(f'META_KINDS = "{" ".join(META_KINDS + UNVERSIONED_KINDS)}"')
    return "\n".join(out) + "\n"


def _write(cache: Path, release: str) -> str:
    kubernetes = cache / "k8s.io" / f"kubernetes@{release}"
    api = cache / "k8s.io" / f"api@v0.{release.removeprefix('v1.')}"
    return render(*table(kubernetes, api), release)


def main(argv: list[str] | None = None) -> int:
    return generate("scheme_kinds", __doc__.splitlines()[0], OUT, _write, argv)


if __name__ == "__main__":
    sys.exit(main())
