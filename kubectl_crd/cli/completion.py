"""Shell completion: the candidates for a partly typed ``kubectl crd`` command line.

kubectl (1.26+) completes a plugin's arguments by running ``kubectl_complete-crd`` from
PATH with the words after the plugin's name, the word being completed last (``""`` for
a new one), and reads one candidate a line (``value`` or ``value<TAB>description``)
and, last, cobra's directive as ``:N`` (``k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go``,
``getPluginCompletions``). It passes our stderr to the user's terminal and ignores our
output when we exit non-zero, so ``main`` writes nothing to stderr and always exits 0;
an unexpected failure is the directive ``:1`` (error: the shell offers nothing). The
same answer serves ``kubectl-crd __complete WORDS...`` (cobra's hidden command, which
the standalone scripts of ``kubectl crd completion bash|zsh|fish`` call).

What is completed, and from where:

- command names, from ``cli.commands.COMMANDS`` (no command module imported);
- flags (for a word starting with ``-``), as cobra offers them (``getFlagNameCompletions``
  in ``github.com/spf13/cobra/completions.go``): ``--long`` and ``-x`` with the help as
  description, a flag already given left out unless it may be repeated; a command's
  flags are its module's ``FLAGS`` plus the global flags it inherits;
- flag values: ``--crd``/``-f`` files as kubectl's ``-f`` (the extensions ``json``,
  ``yaml``, ``yml`` with directive 8), ``--kubeconfig`` any file (0), ``--context``
  (and ``--cluster``/``--user`` where a command has them) from the kubeconfig read
  with kubectl's rules (``kube.kubeconfig``), ``-n`` from the cluster's namespaces
  within ``CLUSTER_TIMEOUT`` (nothing when it is out of reach), a flag's choices,
  ``--api-version`` from the CRDs; a ``--flag=value`` word gets bare values, as cobra
  gives them (the shell scripts put the ``--flag=`` back);
- resource names, from the ``--crd`` files on the line (read through the parse cache),
  else from the cluster's discovery cache (``kube.discovery``; one bounded request when
  it is missing or stale), custom resources only;
- field paths for ``explain`` (``crontab.spec.<TAB>``): the fields under that node of
  the CRD's published schema, as ``explain`` resolves it (``model.explain``), with
  kubectl's type guess as description; the CRD from the ``--crd`` files, else the one
  the word names read from the cluster (one GET);
- object names for ``get`` and ``scale`` (``get crontabs <TAB>``, ``crontabs/<TAB>``),
  listed from the cluster as kubectl lists them for its own ``get``.

Whatever asks the cluster is bounded by ``CLUSTER_TIMEOUT`` and answers nothing when the
cluster is out of reach.

A command line already typed is read loosely: an unknown flag is taken for a switch,
and nothing here raises a usage error.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence

from kubectl_crd.cli.app import GLOBAL_FLAGS, inherited_global_flags
from kubectl_crd.cli.commands import COMMANDS, declared_command
from kubectl_crd.cli.flags import REPEATED, SWITCH, Flag

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.discovery import ResourceRef
    from kubectl_crd.model.crd import CustomResourceDefinition

# cobra's ShellCompDirective (github.com/spf13/cobra/completions.go)
#: An error: the shell offers nothing.
ERROR = 1
#: No space after the completion.
NO_SPACE = 2
#: No file names when there are no candidates.
NO_FILE_COMP = 4
#: The candidates are file extensions: offer files with those (and directories).
FILTER_FILE_EXT = 8
#: Offer directories only.
FILTER_DIRS = 16
#: Keep the candidates in the order given.
KEEP_ORDER = 32
#: Files and nothing else, as the shell would complete them (cobra's Default).
DEFAULT = 0

#: kubectl's ``-f`` (``cmdutil.AddFilenameOptionFlags``: cobra's BashCompFilenameExt
#: annotation): ``kubectl __complete apply -f ''`` answers these with directive 8.
MANIFEST_EXTENSIONS = ("json", "yaml", "yml")
#: How long a completion waits for the cluster (namespaces, discovery), in seconds.
CLUSTER_TIMEOUT = 1.0
#: Commands whose words after the resource (or after ``TYPE/``) name its objects.
_NAMED_OBJECTS = frozenset(("get", "scale"))
#: A list of objects' metadata only (what ``kubectl get -o name`` needs, a fraction of
#: the objects), falling back to the full objects from a server that cannot.
_METADATA_ACCEPT = (
    "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json"
)
#: At most this many CRDs are read from the cluster for one field-path completion.
_MAX_CRD_READS = 3
#: The shells ``kubectl crd completion`` writes a script for.
SHELLS = ("bash", "zsh", "fish")

#: Flags whose values are files of manifests or CRDs.
_MANIFEST_FLAGS = frozenset(("--crd", "--filename"))
#: Flags whose values are any file (or directory): the shell's own completion.
_PATH_METAVARS = frozenset(("PATH", "FILE", "DIR", "DIRECTORY"))
#: The flag every command has (click's, cobra's).
HELP_FLAG = Flag(("-h", "--help"), "help", SWITCH, "help for this command")
#: What each command's positionals are: a resource (then field paths for explain), files
#: of manifests, any file, or one of a few words. Every command has an entry (a test
#: says so), as every command module declares its ``FLAGS``.
_POSITIONALS: dict[str, str | tuple[str, ...]] = {
    "explain": "field",
    "sample": "resource",
    "get": "resource",
    "scale": "resource",
    "columns": "resource",
    "validate": "manifests",
    "dev": "file",
    "workbench": "resource",
    "completion": SHELLS,
}
# a dot not escaped with a backslash (a field name holding a dot is written a\.b)
_FIELD_DOT = re.compile(r"(?<!\\)\.")
# the end of a help text's first sentence (not the dot of "e.g. 1s")
_SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")


class Completion:
    """The answer: ``(value, description)`` candidates and cobra's directive."""

    __slots__ = ("candidates", "directive")

    def __init__(self, candidates: Sequence[tuple[str, str]] = (), directive: int = 0) -> None:
        self.candidates = list(candidates)
        self.directive = directive

    def __repr__(self) -> str:
        return f"Completion({self.candidates!r}, directive={self.directive})"

    @property
    def values(self) -> list[str]:
        return [value for value, _ in self.candidates]

    def text(self) -> str:
        """The lines kubectl and cobra's shell scripts read."""
        lines = [
            f"{value}\t{description}" if description else value
            for value, description in self.candidates
        ]
        lines.append(f":{self.directive}")
        return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    """A description on one line: the first sentence of a help text, without tabs."""
    first = " ".join(text.split())
    end = _SENTENCE_END.search(first)
    return first[: end.start() + 1] if end else first


class _Line:
    """What the words before the one being completed say: command, flags, positionals."""

    def __init__(self) -> None:
        self.command: str | None = None
        self.flags: tuple[Flag, ...] = (*GLOBAL_FLAGS, HELP_FLAG)
        self.values: dict[str, list[str]] = {}
        self.given: set[str] = set()
        self.positionals: list[str] = []
        self.pending: Flag | None = None  # a flag waiting for its value
        self.unknown_command = False
        self.dashdash = False  # after "--" every word is a positional
        self.file_crds: Sequence[CustomResourceDefinition] | None = None  # read once
        self.cluster_slow = False  # a cluster call ran out of time: no more of them

    def last(self, dest: str) -> str | None:
        """The last value given to ``dest`` (the one that wins)."""
        values = self.values.get(dest)
        return values[-1] if values else None

    def read(self, words: Sequence[str]) -> None:
        for word in words:
            if self.pending is not None:
                self.values.setdefault(self.pending.dest, []).append(word)
                self.pending = None
            elif word == "--" and not self.dashdash:
                self.dashdash = True
            elif word.startswith("-") and len(word) > 1 and not self.dashdash:
                self._read_flag(word)
            elif self.command is None and not self.unknown_command:
                self._enter(word)
            else:
                self.positionals.append(word)

    def _read_flag(self, word: str) -> None:
        flag, inline = split_flag(word, self.flags)
        if flag is None:
            return  # unknown: taken for a switch
        self.given.add(flag.dest)
        if flag.kind == SWITCH:
            return
        if inline is not None:
            self.values.setdefault(flag.dest, []).append(inline)
        elif flag.no_value is None:
            self.pending = flag

    def _enter(self, name: str) -> None:
        if name not in COMMANDS:
            self.unknown_command = True
            return
        self.command = name
        own = tuple(declared_command(name).FLAGS)
        self.flags = (*own, *inherited_global_flags(own), HELP_FLAG)


def split_flag(word: str, flags: Sequence[Flag]) -> tuple[Flag | None, str | None]:
    """The flag ``word`` names and its attached value (``--x=v``, ``-x=v``, ``-xv``)."""
    by_name = {name: flag for flag in flags for name in flag.names}
    if word.startswith("--"):
        name, equals, value = word.partition("=")
        return by_name.get(name), value if equals else None
    flag = by_name.get(word[:2])
    if len(word) == 2 or flag is None:
        return flag, None
    if flag.kind == SWITCH:
        return flag, None  # a cluster of switches (-Ri): the first is enough here
    return flag, word[3:] if word[2] == "=" else word[2:]


def complete(words: Sequence[str], environ: Mapping[str, str] | None = None) -> Completion:
    """The completion of the last of ``words`` (the words after ``kubectl crd``)."""
    environ = os.environ if environ is None else environ
    *before, current = words or ("",)
    line = _Line()
    line.read(before)
    if line.pending is not None:
        return flag_values(line.pending, current, line, environ)
    if current.startswith("-") and not line.dashdash:
        flag, inline = split_flag(current, line.flags)
        if flag is not None and inline is not None and "=" in current and flag.kind != SWITCH:
            return flag_values(flag, inline, line, environ)
        return flag_names(line, current)
    if line.unknown_command:
        return Completion((), NO_FILE_COMP)
    if line.command is None:
        return Completion(
            [(e.name, e.short_help) for e in COMMANDS.values() if e.name.startswith(current)],
            NO_FILE_COMP,
        )
    return positional_values(line, current, environ)


def flag_names(line: _Line, current: str) -> Completion:
    """cobra's flag-name completion: ``--long`` then ``-x`` of each flag, the help as
    description; a flag already given only if it may be repeated."""
    candidates: list[tuple[str, str]] = []
    for flag in line.flags:
        if flag.dest in line.given and flag.kind != REPEATED:
            continue
        description = _one_line(flag.help)
        for name in sorted(flag.names, key=lambda n: not n.startswith("--")):
            if name.startswith(current) and not (len(name) == 2 and current.startswith("--")):
                candidates.append((name, description))
    return Completion(candidates, NO_FILE_COMP)


def flag_values(flag: Flag, current: str, line: _Line, environ: Mapping[str, str]) -> Completion:
    """The values ``flag`` may take that start with ``current``."""
    names = set(flag.names)
    if names & _MANIFEST_FLAGS:
        return Completion([(ext, "") for ext in MANIFEST_EXTENSIONS], FILTER_FILE_EXT)
    if "--context" in names or "--cluster" in names or "--user" in names:
        kind = (
            "contexts" if "--context" in names else "clusters" if "--cluster" in names else "users"
        )
        return _matching(kubeconfig_names(kind, line.last("kubeconfig"), environ), current)
    if "--namespace" in names:
        return _matching(namespaces(line, environ), current)
    if flag.suggestions:
        # "jsonpath=TEMPLATE": the value's own part is the user's to write
        return _matching([value.split("=", 1)[0] for value in flag.suggestions], current)
    if "--api-version" in names:
        crds = _file_crds(line)
        versions = sorted({f"{crd.group}/{v.name}" for crd in crds for v in crd.served_versions})
        return _matching(versions, current)
    if flag.metavar in _PATH_METAVARS or "--kubeconfig" in names:
        return Completion((), DEFAULT)
    return Completion((), NO_FILE_COMP)


def _matching(values: Sequence[str], current: str) -> Completion:
    return Completion(
        [(value, "") for value in sorted(set(values)) if value.startswith(current)], NO_FILE_COMP
    )


def positional_values(line: _Line, current: str, environ: Mapping[str, str]) -> Completion:
    kind = _POSITIONALS.get(line.command or "")
    if isinstance(kind, tuple):
        if line.positionals:
            return Completion((), NO_FILE_COMP)
        return _matching(kind, current)
    if kind == "manifests":
        return Completion([(ext, "") for ext in MANIFEST_EXTENSIONS], FILTER_FILE_EXT)
    if kind == "file":
        return Completion((), DEFAULT) if not line.positionals else Completion((), NO_FILE_COMP)
    if line.command in _NAMED_OBJECTS and (line.positionals or "/" in current):
        return _matching(object_names(line, current, environ), current)
    if kind in ("resource", "field") and not line.positionals:
        if kind == "field" and _FIELD_DOT.search(current):
            if line.values.get("crd_paths"):
                crds = _file_crds(line)
            else:
                crds = cluster_crds(line, current, environ)
            fields = field_paths(line, current, crds)
            # crontabs.st: the fields of crontabs starting st, and crontabs.stable.example.com
            names = resource_names(line, current, environ)
            if fields.candidates:
                return Completion(fields.candidates + names.candidates, fields.directive)
            return names
        return resource_names(line, current, environ)
    return Completion((), NO_FILE_COMP)


# -- resources and fields ---------------------------------------------------------------


def _file_crds(line: _Line) -> Sequence[CustomResourceDefinition]:
    """The CRDs of the ``--crd`` files on the line (broken ones left out)."""
    paths = line.values.get("crd_paths")
    if not paths:
        return ()
    if line.file_crds is None:
        from kubectl_crd.sources.files import FileSource

        line.file_crds = FileSource(paths).crds()
    return line.file_crds


def resource_names(line: _Line, current: str, environ: Mapping[str, str]) -> Completion:
    """Plurals of the CRDs (``plural.group`` where two groups share a plural, or where
    ``current`` has a dot), from the ``--crd`` files or the cluster's discovery."""
    if line.values.get("crd_paths"):
        known = [
            (crd.names.plural, crd.group, crd.names.kind, crd.names.short_names)
            for crd in _file_crds(line)
        ]
    else:
        known = [
            (ref.plural, ref.group, ref.kind, ref.short_names)
            for ref in cluster_resources(line, environ)
        ]
    counts: dict[str, int] = {}
    for plural, *_ in known:
        counts[plural] = counts.get(plural, 0) + 1
    candidates: dict[str, str] = {}
    for plural, group, kind, _ in known:
        description = f"{kind} ({group})"
        qualified = f"{plural}.{group}"
        if counts[plural] == 1 and plural.startswith(current):
            candidates.setdefault(plural, description)
        elif qualified.startswith(current):
            candidates.setdefault(qualified, description)
    return Completion(sorted(candidates.items()), NO_FILE_COMP)


def field_paths(line: _Line, current: str, crds: Sequence[CustomResourceDefinition]) -> Completion:
    """``RESOURCE.a.b.<partial>``: the fields under ``RESOURCE.a.b`` of ``crds`` starting
    with ``partial``, as ``RESOURCE.a.b.field``; no space after them where a field has
    fields of its own (so that a dot can follow)."""
    if not crds:
        return Completion((), NO_FILE_COMP)
    from kubectl_crd.model.errors import KubectlCrdError
    from kubectl_crd.model.explain import field_entries, resolve_target, type_guess
    from kubectl_crd.model.explain.details import escape_field

    parts = _FIELD_DOT.split(current)
    prefix, partial = current[: len(current) - len(parts[-1]) - 1], parts[-1]
    try:
        target = resolve_target(crds, prefix, api_version=line.last("api_version"))
    except KubectlCrdError:
        return Completion((), NO_FILE_COMP)
    published = target.published
    candidates: dict[str, str] = {}
    nested = False
    for name, schema, _ in field_entries(published, target.schema):
        value = f"{prefix}.{escape_field(name)}"
        if not value.startswith(f"{prefix}.{partial}") or value in candidates:
            continue
        try:
            guess = type_guess(published, schema)
        except KubectlCrdError:
            guess = ""
        candidates[value] = f"<{guess}>" if guess else ""
        nested = nested or any(True for _ in field_entries(published, schema))
    return Completion(list(candidates.items()), NO_FILE_COMP | (NO_SPACE if nested else 0))


# -- the kubeconfig and the cluster -------------------------------------------------------


def kubeconfig_names(kind: str, kubeconfig: str | None, environ: Mapping[str, str]) -> list[str]:
    """The names of the ``contexts``, ``clusters`` or ``users`` of the kubeconfig files
    kubectl would read (``--kubeconfig``, else ``$KUBECONFIG``, else ``~/.kube/config``);
    none when they cannot be read, as kubectl."""
    from kubectl_crd.kube.kubeconfig import load_merged
    from kubectl_crd.model.errors import KubectlCrdError

    try:
        merged = load_merged(kubeconfig, environ)
    except KubectlCrdError:
        return []
    entries: dict[str, object] = getattr(merged, kind)
    return list(entries)


def _client(line: _Line, environ: Mapping[str, str]) -> KubeClient:
    """A client for the line's cluster (its --kubeconfig, --context, -n) that bounds each
    request by ``CLUSTER_TIMEOUT`` and never prompts or prints a warning."""
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig

    config = ClusterConfig(
        kubeconfig=line.last("kubeconfig"),
        context=line.last("context"),
        namespace=line.last("namespace"),
        request_timeout=f"{CLUSTER_TIMEOUT:g}s",
    )
    return KubeClient(config, environ=environ, on_warning=lambda _: None, stdin_is_terminal=False)


def _bounded(line: _Line, call: Callable[[], list[Any]]) -> list[Any]:
    """``call()`` within ``CLUSTER_TIMEOUT`` (plus a margin for an exec credential
    plugin), or nothing: a completion never waits on a cluster for long, nor twice
    for one that did not answer in time."""
    import contextlib
    import threading
    import time

    if line.cluster_slow:
        return []

    result: list[list[Any]] = []

    def run() -> None:
        # unreachable, forbidden, no kubeconfig: nothing to offer
        with contextlib.suppress(Exception):
            result.append(call())

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(CLUSTER_TIMEOUT * 2)
    # Slow is still running, or done but only after the timeout: a request the client
    # gave up on (a TLS handshake that timed out ends the call at ~1.3 s, before the
    # join's bound) must not be waited for a second time either.
    line.cluster_slow = thread.is_alive() or time.monotonic() - started >= CLUSTER_TIMEOUT
    return result[0] if result else []


def namespaces(line: _Line, environ: Mapping[str, str]) -> list[str]:
    """The cluster's namespaces, when it answers within ``CLUSTER_TIMEOUT``."""

    def listed() -> list[str]:
        with _client(line, environ) as client:
            answer = client.get("/api/v1/namespaces")
        return [
            item["metadata"]["name"]
            for item in (answer or {}).get("items") or ()
            if isinstance(item, dict) and isinstance(item.get("metadata"), dict)
        ]

    return [str(name) for name in _bounded(line, listed)]


def cluster_resources(line: _Line, environ: Mapping[str, str]) -> list[ResourceRef]:
    """The custom resources of the cluster's discovery: from the disk cache while it is
    fresh, else asked for once within ``CLUSTER_TIMEOUT`` (and cached for next time)."""

    def discovered() -> list[ResourceRef]:
        from kubectl_crd.kube.discovery import Discovery, resources_of
        from kubectl_crd.model.gvk import is_builtin_group

        with _client(line, environ) as client:
            groups = Discovery(client.request, client.server).groups()
        return [ref for ref in resources_of(groups or ()) if not is_builtin_group(ref.group)]

    return _bounded(line, discovered)


def object_names(line: _Line, current: str, environ: Mapping[str, str]) -> list[str]:
    """Names of the objects of the line's resource (``get crontabs <TAB>``) or of the
    word's ``TYPE/`` (``get crontabs/<TAB>``, the names prefixed), in ``-n``'s namespace
    (the context's by default) or every one with ``-A``, as kubectl completes its own
    ``get``; within ``CLUSTER_TIMEOUT``."""
    if line.positionals:
        resource, prefix = line.positionals[0].split("/", 1)[0], ""
    else:
        resource = current.split("/", 1)[0]
        prefix = f"{resource}/"
    every = "all_namespaces" in line.given

    def listed() -> list[str]:
        from kubectl_crd.kube.discovery import Discovery
        from kubectl_crd.kube.resources import resource_path

        with _client(line, environ) as client:
            found = Discovery(client.request, client.server).find(resource)
            if not found:
                return []
            _, ref, version = min(found, key=lambda match: match[0])
            namespace = client.namespace if ref.namespaced and not every else ""
            path = resource_path(
                ref.group, version or ref.versions[0], ref.plural, namespace=namespace
            )
            answer = client.request("GET", path, accept=_METADATA_ACCEPT)
        return [
            prefix + str(item["metadata"]["name"])
            for item in (answer or {}).get("items") or ()
            if isinstance(item, dict) and isinstance(item.get("metadata"), dict)
        ]

    return _bounded(line, listed)


def cluster_crds(
    line: _Line, current: str, environ: Mapping[str, str]
) -> list[CustomResourceDefinition]:
    """The CRDs ``current`` may name (``crontab.spec.``, ``crontabs.stable.example.com.``),
    found in the cluster's discovery and read one by one (a list of every CRD can be
    megabytes), all within ``CLUSTER_TIMEOUT``."""
    first = _FIELD_DOT.split(current, maxsplit=1)[0]
    lowered = current.lower()

    def read() -> list[CustomResourceDefinition]:
        from kubectl_crd.kube.client import CRD_LIST_PATH
        from kubectl_crd.kube.discovery import Discovery, resources_of
        from kubectl_crd.model.crd import CRD_API_VERSION, CRD_KIND, CustomResourceDefinition
        from kubectl_crd.model.errors import Location
        from kubectl_crd.model.gvk import is_builtin_group

        with _client(line, environ) as client:
            groups = Discovery(client.request, client.server).groups()
            named = [
                ref
                for ref in resources_of(groups or ())
                if not is_builtin_group(ref.group)
                and (ref.matches(first) is not None or lowered.startswith(f"{ref.crd_name}."))
            ]
            crds = []
            for ref in named[:_MAX_CRD_READS]:
                body = client.get(f"{CRD_LIST_PATH}/{ref.crd_name}")
                # a served CRD may lack apiVersion/kind (as on list items)
                crd = {"apiVersion": CRD_API_VERSION, "kind": CRD_KIND, **body}
                location = Location(f"cluster:{ref.crd_name}")
                crds.append(
                    CustomResourceDefinition.from_object(crd, location, check_structural=False)
                )
        return crds

    return _bounded(line, read)


# -- the entry points ---------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    """``kubectl_complete-crd WORDS...``: the candidates on stdout, always exit 0.

    Nothing goes to stderr (kubectl shows it on the user's terminal) unless
    ``KUBECTL_CRD_DEBUG`` is set.
    """
    from kubectl_crd.cli.app import debug_from_env

    words = list(sys.argv[1:] if argv is None else argv)
    debug = debug_from_env()
    if not debug:
        _silence_stderr()
    try:
        answer = complete(words)
    except Exception:
        if debug:
            raise
        answer = Completion((), ERROR)
    try:
        sys.stdout.write(answer.text())
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    sys.exit(0)


def _silence_stderr() -> None:
    """stderr (ours and our children's: an exec credential plugin) to /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
    except OSError:
        pass
