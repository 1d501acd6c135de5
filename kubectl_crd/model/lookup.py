"""Find the CRD a user means by a RESOURCE argument, the way kubectl resolves names.

Accepted spellings, case-insensitively: kind, plural, singular and short names, each
optionally qualified as ``NAME.group`` or ``NAME.version.group``. Exact names (plural,
singular, kind) beat short names, so a short name never hides a resource whose real
name matches (kubernetes/kubectl#749). Two different CRDs that match equally well make
the argument ambiguous; nothing matching gives the nearest names as suggestions.
"""

from __future__ import annotations

from collections.abc import Iterable

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import AmbiguousResourceError, ResourceNotFoundError
from kubectl_crd.model.records import record
from kubectl_crd.model.resourcenames import match_resource_name


@record
class ResourceMatch:
    crd: CustomResourceDefinition
    version: str | None  # set when the argument named one (``NAME.version.group``)


def resolve_resource(crds: Iterable[CustomResourceDefinition], query: str) -> ResourceMatch:
    wanted = query.strip().lower()
    candidates = list(crds)
    tiers: tuple[list[ResourceMatch], list[ResourceMatch]] = ([], [])
    for crd in candidates:
        match = _match(crd, wanted)
        if match is not None:
            tier, version = match
            tiers[tier].append(ResourceMatch(crd, version))
    for matches in tiers:
        if not matches:
            continue
        if len(matches) == 1:
            return matches[0]
        if len({m.crd.name for m in matches}) == 1:
            raise AmbiguousResourceError(
                differing_definitions_message([m.crd for m in matches]),
                query=query,
                candidates=sorted(_describe(m.crd) for m in matches),
            )
        names = sorted(_describe(m.crd) for m in matches)
        raise AmbiguousResourceError(
            f'the server has multiple resources matching "{query}": {", ".join(names)}; '
            "qualify it as plural.group",
            query=query,
            candidates=names,
        )
    import difflib  # only for a name that matches nothing

    suggestions = difflib.get_close_matches(
        wanted, sorted({n for crd in candidates for n in _all_names(crd)}), n=5, cutoff=0.6
    )
    hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
    raise ResourceNotFoundError(
        f'the server doesn\'t have a resource type "{query}"{hint}',
        query=query,
        candidates=suggestions,
    )


def _match(crd: CustomResourceDefinition, wanted: str) -> tuple[int, str | None] | None:
    names = crd.names
    return match_resource_name(
        wanted,
        (names.plural, names.singular, names.kind),
        names.short_names,
        crd.group,
        [version.name for version in crd.versions],
    )


def differing_definitions_message(crds: Iterable[CustomResourceDefinition]) -> str:
    """One CRD defined differently in several files (two channels of Gateway API, say):
    qualifying the name cannot choose, only giving one file can."""
    crds = list(crds)
    files = sorted({crd.location.file if crd.location else "?" for crd in crds})
    where = ", ".join(files[:-1]) + f" and {files[-1]}" if len(files) > 1 else files[0]
    return (
        f"the CRD {crds[0].name} is defined differently in {where}: "
        "pass the one you mean with --crd"
    )


def _describe(crd: CustomResourceDefinition) -> str:
    where = f" ({crd.location.file})" if crd.location is not None else ""
    return f"{crd.names.plural}.{crd.group}{where}"


def _all_names(crd: CustomResourceDefinition) -> set[str]:
    names = crd.names
    plain = {names.plural, names.singular, names.kind.lower(), *names.short_names}
    return {n.lower() for n in plain} | {f"{names.plural}.{crd.group}".lower()}
