"""A typed, read-only view of an ``apiextensions.k8s.io/v1`` CustomResourceDefinition.

``CustomResourceDefinition.from_object`` checks what the rest of the tool relies on
(apiVersion, names, versions, a schema per version, a structural schema) and raises
``CRDError`` naming the CRD and the offending field, so that a broken CRD file is
reported and never crashes a command. The raw schema stays a plain dict: explain and
validation walk it directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubectl_crd.model.errors import CRDError, Location
from kubectl_crd.model.gvk import GroupVersionKind, GroupVersionResource
from kubectl_crd.model.records import field, record
from kubectl_crd.model.structural import structural_schema_errors
from kubectl_crd.model.versions import sort_kube_versions

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any, Literal

    #: ``spec.scope``: the two values the API server accepts.
    Scope = Literal["Namespaced", "Cluster"]

CRD_API_VERSION = "apiextensions.k8s.io/v1"
CRD_KIND = "CustomResourceDefinition"


@record
class PrinterColumn:
    name: str
    type: str
    json_path: str
    description: str = ""
    format: str = ""
    priority: int = 0


@record
class ScaleSubresource:
    spec_replicas_path: str
    status_replicas_path: str
    label_selector_path: str = ""


@record
class Subresources:
    status: bool = False
    scale: ScaleSubresource | None = None


@record
class CRDVersion:
    name: str
    served: bool
    storage: bool
    schema: Mapping[str, Any]
    deprecated: bool = False
    deprecation_warning: str = ""
    subresources: Subresources = field(default_factory=Subresources)
    printer_columns: tuple[PrinterColumn, ...] = ()
    selectable_fields: tuple[str, ...] = ()


@record
class CRDNames:
    kind: str
    plural: str
    singular: str
    list_kind: str
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()


@record
class CustomResourceDefinition:
    name: str
    group: str
    names: CRDNames
    scope: Scope
    versions: tuple[CRDVersion, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    location: Location | None = field(default=None, compare=False)

    @property
    def namespaced(self) -> bool:
        return self.scope == "Namespaced"

    @property
    def served_versions(self) -> list[CRDVersion]:
        """Served versions in discovery order (preferred first)."""
        order = sort_kube_versions(v.name for v in self.versions if v.served)
        by_name = {v.name: v for v in self.versions}
        return [by_name[name] for name in order]

    @property
    def preferred_version(self) -> CRDVersion:
        served = self.served_versions
        if not served:
            raise CRDError("serves no version", crd_name=self.name, location=self.location)
        return served[0]

    @property
    def storage_version(self) -> CRDVersion | None:
        return next((v for v in self.versions if v.storage), None)

    def version(self, name: str) -> CRDVersion | None:
        for version in self.versions:  # a loop, not next(generator): asked once an object
            if version.name == name:
                return version
        return None

    def served_version(self, wanted: str | None) -> CRDVersion:
        """The version of that name, or the preferred one (the first served) when none is
        wanted or the CRD has no such version: the version a RESOURCE argument names."""
        return (self.version(wanted) if wanted else None) or self.preferred_version

    def gvk(self, version: str) -> GroupVersionKind:
        return GroupVersionKind(self.group, version, self.names.kind)

    def gvr(self, version: str) -> GroupVersionResource:
        return GroupVersionResource(self.group, version, self.names.plural)

    @classmethod
    def from_object(
        cls,
        obj: Mapping[str, Any],
        location: Location | None = None,
        *,
        check_structural: bool = True,
    ) -> CustomResourceDefinition:
        """Parse and check a CRD object.

        ``check_structural=False`` is for CRDs the API server already accepted: it
        refuses non-structural v1 schemas itself, and walking every schema node of a
        large cluster's CRDs again costs seconds.
        """
        return _parse_crd(obj, location, check_structural)


def same_definition(a: CustomResourceDefinition, b: CustomResourceDefinition) -> bool:
    """The same CRD, defined the same way (a copy in another file is no conflict)."""
    return a.name == b.name and a.raw == b.raw


def is_crd_object(obj: object) -> bool:
    """True for anything that claims to be a CRD, whatever its apiVersion."""
    return (
        isinstance(obj, (dict, Mapping))  # dict first: a dict needs no ABC check
        and obj.get("kind") == CRD_KIND
        and str(obj.get("apiVersion", "")).startswith("apiextensions.k8s.io/")
    )


def _parse_crd(
    obj: Mapping[str, Any], location: Location | None, check_structural: bool
) -> CustomResourceDefinition:
    metadata = obj.get("metadata")
    name = str(metadata.get("name", "")) if isinstance(metadata, Mapping) else ""

    def fail(message: str) -> CRDError:
        return CRDError(message, crd_name=name, location=location)

    api_version = obj.get("apiVersion")
    if api_version != CRD_API_VERSION:
        raise fail(
            f"apiVersion {api_version!s} is not supported: only {CRD_API_VERSION} CRDs are "
            "(v1beta1 was removed in Kubernetes 1.22)"
        )
    if obj.get("kind") != CRD_KIND:
        raise fail(f"kind must be {CRD_KIND}, not {obj.get('kind')!s}")
    if not name:
        raise fail("metadata.name: Required value")
    spec = obj.get("spec")
    if not isinstance(spec, Mapping):
        raise fail("spec: Required value")
    group = spec.get("group")
    if not isinstance(group, str) or not group:
        raise fail("spec.group: Required value")
    raw_names = spec.get("names")
    if not isinstance(raw_names, Mapping):
        raise fail("spec.names: Required value")
    names = _parse_names(raw_names, fail)
    if name != f"{names.plural}.{group}":
        raise fail(
            f'metadata.name: Invalid value: "{name}": must be spec.names.plural+"."+spec.group'
        )
    scope = spec.get("scope")
    if scope != "Namespaced" and scope != "Cluster":
        raise fail(
            f'spec.scope: Unsupported value: "{scope!s}": supported values: "Cluster", "Namespaced"'
        )
    raw_versions = spec.get("versions")
    if not isinstance(raw_versions, Sequence) or isinstance(raw_versions, str) or not raw_versions:
        raise fail(
            "spec.versions: Invalid value: must have exactly one version marked as storage version"
        )
    versions = tuple(
        _parse_version(index, raw, fail, check_structural) for index, raw in enumerate(raw_versions)
    )
    if sum(1 for v in versions if v.storage) != 1:
        raise fail(
            "spec.versions: Invalid value: must have exactly one version marked as storage version"
        )
    return CustomResourceDefinition(
        name=name,
        group=group,
        names=names,
        scope=scope,
        versions=versions,
        raw=obj,
        location=location,
    )


def _parse_names(raw: Mapping[str, Any], fail: Any) -> CRDNames:
    kind = raw.get("kind")
    plural = raw.get("plural")
    if not isinstance(plural, str) or not plural:
        raise fail("spec.names.plural: Required value")
    if not isinstance(kind, str) or not kind:
        raise fail("spec.names.kind: Required value")
    singular = raw.get("singular") or kind.lower()
    list_kind = raw.get("listKind") or f"{kind}List"
    return CRDNames(
        kind=kind,
        plural=plural,
        singular=str(singular),
        list_kind=str(list_kind),
        short_names=tuple(str(s) for s in raw.get("shortNames") or ()),
        categories=tuple(str(s) for s in raw.get("categories") or ()),
    )


def _parse_version(index: int, raw: Any, fail: Any, check_structural: bool) -> CRDVersion:
    where = f"spec.versions[{index}]"
    if not isinstance(raw, Mapping):
        raise fail(f"{where}: Invalid value: must be an object")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise fail(f"{where}.name: Required value")
    schema_holder = raw.get("schema")
    schema = schema_holder.get("openAPIV3Schema") if isinstance(schema_holder, Mapping) else None
    if not isinstance(schema, Mapping):
        raise fail(f"{where}.schema.openAPIV3Schema: Required value: schemas are required")
    problems = (
        structural_schema_errors(schema, f"{where}.schema.openAPIV3Schema")
        if check_structural
        else []
    )
    if problems:
        extra = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise fail(f"schema is not structural: {problems[0]}{extra}")
    return CRDVersion(
        name=name,
        served=bool(raw.get("served", False)),
        storage=bool(raw.get("storage", False)),
        schema=schema,
        deprecated=bool(raw.get("deprecated", False)),
        deprecation_warning=str(raw.get("deprecationWarning") or ""),
        subresources=_parse_subresources(raw.get("subresources")),
        printer_columns=tuple(
            PrinterColumn(
                name=str(col.get("name", "")),
                type=str(col.get("type", "")),
                json_path=str(col.get("jsonPath", "")),
                description=str(col.get("description") or ""),
                format=str(col.get("format") or ""),
                priority=int(col.get("priority") or 0),
            )
            for col in raw.get("additionalPrinterColumns") or ()
            if isinstance(col, Mapping)
        ),
        selectable_fields=tuple(
            str(f.get("jsonPath", ""))
            for f in raw.get("selectableFields") or ()
            if isinstance(f, Mapping)
        ),
    )


def _parse_subresources(raw: Any) -> Subresources:
    if not isinstance(raw, Mapping):
        return Subresources()
    scale = raw.get("scale")
    return Subresources(
        status="status" in raw,
        scale=ScaleSubresource(
            spec_replicas_path=str(scale.get("specReplicasPath", "")),
            status_replicas_path=str(scale.get("statusReplicasPath", "")),
            label_selector_path=str(scale.get("labelSelectorPath") or ""),
        )
        if isinstance(scale, Mapping)
        else None,
    )
