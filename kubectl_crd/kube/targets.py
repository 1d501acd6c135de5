"""kubectl's resource builder: which objects a command's arguments, ``-f``, ``-l``, ``--all``
and ``-A`` name, found through discovery.

Two steps, as ``k8s.io/cli-runtime/pkg/resource/builder.go`` takes them:

- ``parse_resource_args`` (pure): the arguments read as ``ResourceTypeOrNameArgs`` reads
  them (``TYPE NAME...``, ``TYPE/NAME...``, ``TYPE1,TYPE2 NAME`` made pairs as
  ``normalizeMultipleResourcesArgs`` makes them), then checked in ``visitorResult``'s
  order: paths first, then a selector, then pairs, then names; each bad combination
  refused in the builder's own words. ``tests/unit/kube/test_targets.py`` holds the
  table, its texts taken from kubectl 1.33.
- ``find_targets``: the query resolved through a ``Resolver`` (discovery), a lone
  ``TYPE`` listed (paged, ``-l`` sent to the server), the ``-f`` documents matched to
  their resources; what cannot be found is returned beside the targets (kubectl's
  ``infoErr``: reported after the others are acted on).

Beyond kubectl: ``-A`` (with ``-l`` or ``--all``) lists every namespace.
"""

from __future__ import annotations

from kubectl_crd.model.errors import ApiError, KubectlCrdError, ResourceNotFoundError, UsageError
from kubectl_crd.model.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any, Protocol

    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.discovery import ResourceRef
    from kubectl_crd.kube.resolving import Resolver

    class InputDocument(Protocol):
        """What ``io.read_inputs`` yields (kube does not import io)."""

        @property
        def ok(self) -> bool: ...
        @property
        def errors(self) -> Sequence[KubectlCrdError]: ...
        @property
        def content(self) -> Any: ...
        @property
        def source(self) -> str: ...


__all__ = [
    "NO_RESOURCES",
    "ResourceQuery",
    "Target",
    "check_paths",
    "find_targets",
    "parse_resource_args",
]

#: builder.go's missingResourceError
NO_RESOURCES = (
    "You must provide one or more resources by argument or filename.\n"
    "Example resource specifications include:\n"
    "   '-f rsrc.yaml'\n"
    "   '--filename=rsrc.json'\n"
    "   '<resource> <name>'\n"
    "   '<resource>'"
)
#: builder.go's hasCombinedTypeArgs names the program (os.Args[0]) and, whatever the
#: command, ``get``: so does kubectl scale
MIXED_FORMS = (
    "there is no need to specify a resource type as a separate argument when passing "
    "arguments in resource/name form (e.g. 'kubectl crd get resource/<resource_name>' "
    "instead of 'kubectl crd get resource resource/<resource_name>'"
)
SLASHES = "arguments in resource/name form may not have more than one slash"
SINGLE_PAIR = "arguments in resource/name form must have a single resource and name"
PATH_AND_TYPES = (
    "when paths, URLs, or stdin is provided as input, you may not specify resource "
    "arguments as well"
)
PATH_AND_PAIRS = "resource/name arguments cannot be provided when a path is specified"
SELECTOR_AND_NAMES = "name cannot be provided when a selector is specified"
SELECTOR_AND_PAIRS = (
    "selectors and the all flag cannot be used when passing resource/name arguments"
)
SELECTOR_NO_TYPE = "at least one resource must be specified to use a selector"
NO_NAME = "resource(s) were provided, but no name was specified"
ALL_NAMESPACES_ALONE = "-A/--all-namespaces needs -l or --all"


@record
class ResourceQuery:
    """What the command line asks for, checked. One way is taken: ``filenames``;
    ``types`` listed (``listing``: with ``selector``, or every object); ``pairs``. Types
    without names and without ``listing`` are resolved, then refused (``NO_NAME``), as
    the builder maps them before it says no name was given."""

    pairs: tuple[tuple[str, str], ...] = ()
    types: tuple[str, ...] = ()
    filenames: tuple[str, ...] = ()
    selector: str = ""
    listing: bool = False
    all_namespaces: bool = False


@record
class Target:
    """One object found: its resource, the served version used, namespace, name."""

    resource: ResourceRef
    version: str
    namespace: str
    name: str


def _split_types(argument: str) -> list[str]:
    """builder.go ``SplitResourceArgument``: comma-separated, repeats dropped."""
    types: list[str] = []
    for each in argument.split(","):
        if each not in types:
            types.append(each)
    return types


def _pair(argument: str) -> tuple[str, str]:
    """builder.go ``splitResourceTypeName``."""
    parts = argument.split("/")
    if len(parts) != 2:
        raise KubectlCrdError(SLASHES)
    kind, name = parts
    if not kind or not name or len(_split_types(kind)) != 1:
        raise KubectlCrdError(SINGLE_PAIR)
    return kind, name


def check_paths(filenames: Sequence[str]) -> None:
    """builder.go ``FilenameParam`` (``expandIfFilePattern``): a ``-f`` path that names
    nothing (no file, no glob match) stops the command before anything else is read."""
    import os

    for path in filenames:
        if path == "-" or os.path.exists(path):
            continue
        import glob

        if not (glob.has_magic(path) and glob.glob(path)):
            raise KubectlCrdError(f'the path "{path}" does not exist')


def parse_resource_args(
    args: Sequence[str],
    *,
    filenames: Sequence[str] = (),
    selector: str = "",
    all_objects: bool = False,
    all_namespaces: bool = False,
) -> ResourceQuery:
    """The arguments as kubectl's resource builder reads and checks them (see the module
    docstring); raises ``KubectlCrdError`` with the builder's message."""
    if all_namespaces and not (selector or all_objects):
        raise UsageError(ALL_NAMESPACES_ALONE)
    arguments = list(args)
    if len(arguments) >= 2 and len(_split_types(arguments[0])) > 1:
        # normalizeMultipleResourcesArgs: "a,b x y" is a/x a/y b/x b/y
        arguments = [f"{t}/{n}" for t in _split_types(arguments[0]) for n in arguments[1:]]
    pairs: list[tuple[str, str]] = []
    types: list[str] = []
    names: list[str] = []
    slashed = sum("/" in argument for argument in arguments)
    if slashed and slashed != len(arguments):
        raise KubectlCrdError(MIXED_FORMS)
    if slashed:
        pairs = [_pair(argument) for argument in arguments]
    elif arguments:
        types = _split_types(arguments[0])
        names = arguments[1:]
    # LabelSelectorParam ignores an empty -l; a lone TYPE with --all selects everything
    # (ResourceTypeOrNameArgs' allowEmptySelector)
    selecting = bool(selector.strip()) or (all_objects and len(arguments) == 1 and not slashed)
    if filenames:
        if types:
            raise KubectlCrdError(PATH_AND_TYPES)
        if pairs:
            raise KubectlCrdError(PATH_AND_PAIRS)
        return ResourceQuery(filenames=tuple(filenames), selector=selector.strip())
    if selecting:
        if names:
            raise KubectlCrdError(SELECTOR_AND_NAMES)
        if pairs:
            raise KubectlCrdError(SELECTOR_AND_PAIRS)
        if not types:
            raise KubectlCrdError(SELECTOR_NO_TYPE)
        return ResourceQuery(
            types=tuple(types),
            selector=selector.strip(),
            listing=True,
            all_namespaces=all_namespaces,
        )
    if names:
        pairs = [(kind, name) for kind in types for name in names]
    if pairs:
        return ResourceQuery(pairs=tuple(pairs))
    if types:
        return ResourceQuery(types=tuple(types))  # NO_NAME, once the types resolve
    raise KubectlCrdError(NO_RESOURCES)


def find_targets(
    query: ResourceQuery,
    resolver: Resolver,
    client: KubeClient,
    namespace: str,
    *,
    documents: Iterable[InputDocument] = (),
    check: Callable[[ResourceRef, str], None] | None = None,
    enforce_namespace: bool = False,
) -> tuple[list[Target], list[KubectlCrdError]]:
    """The objects ``query`` names, and the problems with the ones that could not be
    found. ``documents`` are the ``-f`` files' (read by the caller); ``check`` is called
    on each resource and version before it is used (scale: it must have ``/scale``);
    ``enforce_namespace`` (``-n`` given): a file's object in another namespace is a
    problem, as the builder's ``RequireNamespace`` makes it."""
    targets: list[Target] = []
    problems: list[KubectlCrdError] = []

    def resolved(ref: ResourceRef, version: str) -> tuple[ResourceRef, str]:
        if check is not None:
            check(ref, version)
        return ref, version

    listed = [resolver.by_argument(kind) for kind in query.types]
    if listed and not query.listing:
        raise KubectlCrdError(NO_NAME)
    if listed:
        from kubectl_crd.kube.resources import DEFAULT_PAGE_SIZE, ResourceClient
    for ref, version in listed:
        resolved(ref, version)
        calls = ResourceClient.for_ref(
            client, ref, version, namespace=None if query.all_namespaces else namespace
        )
        try:
            for item in calls.items(label_selector=query.selector, limit=DEFAULT_PAGE_SIZE):
                metadata = item.get("metadata") or {}
                item_namespace = str(metadata.get("namespace") or "")
                targets.append(Target(ref, version, item_namespace, str(metadata["name"])))
        except ApiError as exc:
            problems.append(_list_refused(exc, ref, version, query.selector))
    for kind, name in query.pairs:
        ref, version = resolved(*resolver.by_argument(kind))
        targets.append(Target(ref, version, namespace if ref.namespaced else "", name))
    if query.filenames:
        wanted = _label_filter(query.selector)
        for document in documents:
            if not document.ok:
                problems.extend(document.errors)
                continue
            obj = document.content
            try:
                ref, version = resolved(*resolver.by_document(obj, document.source))
            except ResourceNotFoundError as exc:
                problems.append(exc)
                continue
            metadata = obj.get("metadata") or {}
            if wanted is not None and not wanted(metadata.get("labels")):
                continue  # the builder's FilterFunc for a selector over files
            ns = str(metadata.get("namespace") or namespace) if ref.namespaced else ""
            if enforce_namespace and ref.namespaced and ns != namespace:
                problems.append(
                    KubectlCrdError(
                        f'the namespace from the provided object "{ns}" does not match the '
                        f"namespace \"{namespace}\". You must pass '--namespace={ns}' to "
                        "perform this operation."
                    )
                )
                continue
            targets.append(Target(ref, version, ns, str(metadata.get("name") or "")))
    return targets, problems


def _list_refused(
    error: ApiError, ref: ResourceRef, version: str, selector: str
) -> KubectlCrdError:
    """A list's 400 or 404 in the builder's words (``Selector.Visit`` in cli-runtime's
    ``resource/selector.go`` rewrites the Status message: ``Unable to find
    "GROUP/VERSION, Resource=PLURAL" that match label selector ...``); other errors stand."""
    if error.status not in (400, 404):
        return error
    from kubectl_crd.model.govalues import go_quote

    resource = go_quote(f"{ref.group}/{version}, Resource={ref.plural}")
    message = str(error.status_object.get("message", ""))
    if selector:
        text = f"Unable to find {resource} that match label selector {go_quote(selector)}, "
        text += f'field selector "": {message}'
    else:
        text = f"Unable to list {resource}: {message}"
    return KubectlCrdError(text)


def _label_filter(selector: str) -> Callable[[Any], bool] | None:
    if not selector:
        return None
    from kubectl_crd.model.labels import LabelSelectorError, parse_selector

    try:
        parsed = parse_selector(selector)
    except LabelSelectorError as exc:
        raise KubectlCrdError(str(exc)) from None
    return parsed.matches
