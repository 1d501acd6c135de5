"""The user's reconciler module, imported in isolation, its declarations checked, its
results made into ``Result``.

``load_reconciler(path)`` imports the file as ``kubectl_crd_dev_<n>.<stem>``, a fresh
module each time (``n`` counts loads), inside a package of that unique name whose path
is the file's directory, so ``from . import helpers`` works too. While it imports, the
directory is on ``sys.path`` and a finder placed before the standard path finder
serves the modules of the user's directory tree from their source (never a
``__pycache__`` file: a ``.pyc`` is trusted when the source's size and whole-second
mtime are unchanged, and an editor saving ``1`` -> ``2`` within a second keeps both).
The user's own modules (a file under the reconciler's directory, outside the
interpreter's prefixes, site-packages and this package) that an earlier load imported
(of any file) are taken out of ``sys.modules`` first, so an edit to a helper takes
effect on the next load; the modules the load imports from that tree are those its
own loader ran (told by identity, not by what appeared in ``sys.modules``: another load
may run meanwhile) and are the reconciler's ``watched_files``. A load that fails takes
its new modules out again and puts the earlier ones back: ``sys.modules`` is as it was,
and code loaded before keeps running. A lock guards every change to ``sys.path``,
``sys.meta_path`` and ``sys.modules`` (process-wide), not the module's run or the
reading of its declarations (``OWNS``' iteration is user code too): one that
never returns is abandoned past ``load_reconciler``'s timeout and undone around its
thread, so the next load runs beside it (``_Load.abandon``); not of the same code,
while it is stuck: that would hang beside it, a thread more that cannot be stopped
(``_load_bounded``). A module of the
user's first imported later, inside ``reconcile``, is looked up on the ``sys.path`` of
that moment (the directory is no longer on it): import helpers at the top of the file.

What a module declares:

- ``FOR``: the resource it reconciles, ``plural.group/version``
  (``foos.samplecontroller.k8s.io/v1alpha1``) or ``group/version/Kind``;
- ``OWNS`` (optional): the resources of its children, ``apps/v1/Deployment``,
  ``v1/ConfigMap`` (``version/Kind`` for the core group), or plural forms;
- ``WATCHES`` (optional): a mapping from other resources to a function taking a changed
  object and returning the parents to reconcile, as ``(namespace, name)`` pairs, names
  (in the object's namespace), or parent objects;
- ``reconcile(obj, ctx)``, returning ``None``, a ``Result`` or a plain dict with only
  ``children``, ``status``, ``requeue_after``; ``reconcile(obj)`` is the same function
  called without ``ctx``;
- ``finalize(obj, ctx)`` (or ``finalize(obj)``, optional): clean-up before the object
  goes; the loop keeps a finalizer on objects while it exists. It returns ``None`` or
  ``True`` when done, ``False`` when not yet (it is called again), or a result like
  ``reconcile``'s, whose dict form may add ``finalized``;
- ``FINALIZER`` (optional): that finalizer's name, a qualified name as Kubernetes checks
  it (``example.com/cleanup``; apimachinery's ``IsQualifiedName``); the controller's
  default otherwise.

Metacontroller hooks (``metacontroller.py``) are told by their names, as metacontroller
names them (``spec.hooks``: ``sync``, ``finalize``, ``customize``), never by a parameter
count: a module that defines ``sync(request)`` and no ``reconcile`` is a sync hook, and
its ``finalize(request)``, if any, the finalize hook. A hook is given metacontroller's
request and returns its response; its ``OWNS`` must name kinds (``apps/v1/Deployment``),
since the request keys children by ``Kind.apiVersion``. ``reconcile`` wins over a
function named ``sync``. What would stay ambiguous is a load error at the ``def``: a
``reconcile(request)`` (a metacontroller request, or controller-runtime's, neither of
which the loop passes), a ``sync`` that does not take one request (metacontroller's
Python examples' ``sync(self, parent, children)``), a ``finalize(obj, ctx)`` beside
``sync``, and a ``customize`` hook (not run: the request's ``related`` stays empty).

Every error is one ``ReconcilerLoadError`` or ``ReconcilerResultError`` with the place in
the user's file (``reconciler.py:12:5: SyntaxError: invalid syntax``, the line and a
caret), never a traceback of the loader.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kubectl_crd.io.inputs import display_path
from kubectl_crd.model.errors import (
    Location,
    ReconcilerError,
    ReconcilerLoadError,
    ReconcilerResultError,
)
from kubectl_crd.model.records import record
from kubectl_crd.reconcile import metacontroller
from kubectl_crd.reconcile.api import Result
from kubectl_crd.reconcile.backends import parse_resource_spec

if TYPE_CHECKING:
    import types
    from importlib.machinery import ModuleSpec

__all__ = [
    "Finalization",
    "LoadedReconciler",
    "ResourceSpec",
    "UserFrame",
    "load_reconciler",
    "parse_resource",
]

#: the keys of ``reconcile``'s plain dict form (``finalized`` is ``finalize``'s too)
RESULT_KEYS = ("children", "status", "requeue_after")

_LOCK = threading.Lock()
_GENERATIONS = itertools.count(1)
_PACKAGE_PREFIX = "kubectl_crd_dev_"
#: top-level names of the user's modules that loads imported (any directory): taken out
#: of ``sys.modules`` before each load, so that ``import helpers`` never finds another
#: directory's ``helpers`` or an older one
_IMPORTED: set[str] = set()
#: per reconciler file, the packages of its loads still in ``sys.modules``: the newest
#: two (the code running and the one before, which may still be finishing a call);
#: older ones are dropped, so a module holding big data at import is not kept once per
#: save for the whole session
_GENERATIONS_KEPT = 2
_LOADED: dict[str, list[str]] = {}


# -- resources -------------------------------------------------------------------------

_GROUP = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_LABEL = r"[a-z]([-a-z0-9]*[a-z0-9])?"
_KIND = r"[A-Z][A-Za-z0-9]*"
# apimachinery's IsQualifiedName: an optional DNS-subdomain prefix and a 63-character name
_QUALIFIED = re.compile(
    r"(?:(?=[^/]{1,253}/)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
    r"(?=.{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?"
)


@record
class ResourceSpec:
    """A resource as a reconciler names it; ``name`` is a Kind when ``is_kind``, else a
    plural. The cluster (a backend's discovery) resolves it."""

    text: str
    group: str
    version: str
    name: str
    is_kind: bool

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def __str__(self) -> str:
        return self.text


def parse_resource(text: object) -> ResourceSpec:
    """``plural.group/version``, ``plural/version`` (core), ``group/version/Kind``,
    ``version/Kind`` (core; a plural in place of the Kind too), as the backends read
    them (``backends.parse_resource_spec``), each part a name Kubernetes would take;
    ``ValueError`` with the forms when it is none of them."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a string like 'apps/v1/Deployment'")
    group, version, name, is_kind = parse_resource_spec(text)
    if not (
        re.fullmatch(_LABEL, version)
        and re.fullmatch(_KIND if is_kind else _LABEL, name)
        and (not group or re.fullmatch(_GROUP, group))
    ):
        raise ValueError(
            f"{text!r} is not a resource: write plural.group/version "
            "(foos.example.com/v1), group/version/Kind (apps/v1/Deployment) "
            "or version/Kind (v1/ConfigMap)"
        )
    return ResourceSpec(text, group, version, name, is_kind)


# -- results ---------------------------------------------------------------------------


@record
class Finalization:
    """What one ``finalize`` call wants: the result to apply, and whether clean-up is
    done (the loop removes its finalizer only then)."""

    result: Result
    finalized: bool


@record
class UserFrame:
    """Where in the user's files an exception was raised: the innermost frame there."""

    file: str
    line: int
    column: int = 0
    source_line: str = ""
    caret: str = ""

    @property
    def location(self) -> Location:
        return Location(self.file, self.line, self.column)


class LoadedReconciler:
    """One load of a reconciler module: its declarations, and calls into it that return
    ``Result`` whatever form the user's function answered in."""

    def __init__(
        self,
        *,
        path: str,
        display: str,
        module: types.ModuleType,
        generation: int,
        for_resource: ResourceSpec,
        owns: tuple[ResourceSpec, ...],
        watches: tuple[tuple[ResourceSpec, Callable[[Any], Any]], ...],
        reconcile: Callable[..., Any],
        finalize: Callable[..., Any] | None,
        sync_hook: bool,
        watched_files: tuple[str, ...],
        user_file: Callable[[str], bool],
        finalizer: str | None = None,
        reconcile_ctx: bool = True,
        finalize_ctx: bool = True,
    ) -> None:
        self.path = path
        self.display = display
        self.module = module
        self.generation = generation
        self.for_resource = for_resource
        self.owns = owns
        self.watches = watches
        self.sync_hook = sync_hook
        self.watched_files = watched_files
        #: the module's ``FINALIZER``, or None for the controller's default
        self.finalizer = finalizer
        self._reconcile = reconcile
        self._finalize = finalize
        #: whether the user's reconcile and finalize take ctx: (obj, ctx), else (obj)
        self._reconcile_ctx = reconcile_ctx
        self._finalize_ctx = finalize_ctx
        self._user_file = user_file
        self._watch_functions = {spec.text: function for spec, function in watches}
        self._first_call: Callable[[float], None] | None = None
        self._first_call_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<LoadedReconciler {self.display} #{self.generation} FOR {self.for_resource}>"

    @property
    def has_finalize(self) -> bool:
        return self._finalize is not None

    @property
    def finalize_hook(self) -> bool:
        """A metacontroller finalize hook: ``finalize(request)`` beside ``sync``."""
        return self.sync_hook and self._finalize is not None

    @property
    def resources(self) -> tuple[ResourceSpec, ...]:
        """Every resource the loop watches for this reconciler: FOR, OWNS, WATCHES."""
        return (self.for_resource, *self.owns, *(spec for spec, _ in self.watches))

    def call(self, obj: Mapping[str, Any], ctx: Any) -> Result:
        """Reconcile ``obj``; the user's exceptions (``TerminalError`` included) pass
        through, a result that is not one raises ``ReconcilerResultError``."""
        self._note_call()
        if self.sync_hook:
            request = self._hook_request(obj, ctx, finalizing=False)
            return self._from_hook(self._reconcile, self._reconcile(request))[0]
        value = self._reconcile(obj, ctx) if self._reconcile_ctx else self._reconcile(obj)
        return _result(value, self._reconcile, "reconcile")

    def finalize(self, obj: Mapping[str, Any], ctx: Any) -> Finalization:
        """Run ``finalize`` for an object being deleted (``has_finalize`` must be true)."""
        function = self._finalize
        if function is None:
            raise TypeError(f"{self.display} defines no finalize")
        self._note_call()
        if self.finalize_hook:
            request = self._hook_request(obj, ctx, finalizing=True)
            result, finalized = self._from_hook(function, function(request))
            return Finalization(result, finalized)
        value = function(obj, ctx) if self._finalize_ctx else function(obj)
        if value is None or isinstance(value, bool):
            return Finalization(Result(), value is not False)
        finalized = True
        if isinstance(value, Mapping) and "finalized" in value:
            finalized = value["finalized"]
            if not isinstance(finalized, bool):
                raise _result_error(
                    function, f"returned finalized {finalized!r}; use True or False"
                )
            value = {key: item for key, item in value.items() if key != "finalized"}
        return Finalization(_result(value, function, "finalize", extra=("finalized",)), finalized)

    def parents_of(
        self, resource: ResourceSpec | str, obj: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """The ``(namespace, name)`` keys of the parents that ``WATCHES[resource]`` maps
        ``obj`` to. The function may return a list of names (in ``obj``'s namespace),
        ``(namespace, name)`` pairs or parent objects, one of those alone, or None."""
        function = self._watch_functions[str(resource)]
        answer = function(obj)
        if answer is None:
            return []
        namespace = (obj.get("metadata") or {}).get("namespace") or ""
        if isinstance(answer, str | Mapping | tuple) and _parent_key(answer, namespace):
            answer = [answer]  # one parent
        keys: list[tuple[str, str]] = []
        if isinstance(answer, Iterable) and not isinstance(answer, str | Mapping):
            for item in answer:
                key = _parent_key(item, namespace)
                if key is None:
                    raise _result_error(
                        function,
                        f"returned {item!r} for a parent; use (namespace, name), a name "
                        "or the parent object",
                    )
                keys.append(key)
            return keys
        raise _result_error(
            function,
            f"returned {_a(answer)}; use a list of (namespace, name) pairs, names or objects",
        )

    def unserved(self, resource: object, message: str) -> ReconcilerLoadError:
        """The error for ``resource`` (one of ``resources``) that the backend does not
        serve: ``rec.py:3:9: OWNS: <message>`` at the string that names it, with the
        line and a caret, as the load's own errors are (the line as loaded)."""
        role = (
            "FOR"
            if resource is self.for_resource
            else "OWNS"
            if any(resource is spec for spec in self.owns)
            else "WATCHES"
        )
        loader = _module_namespace(self.module).get("__loader__")
        raw = getattr(loader, "source", None)
        source = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else None
        place = _declaration_place(self.path, role, literal=str(resource), source=source)
        if place is None:
            return ReconcilerLoadError(f"{role}: {message}", location=Location(self.display))
        line, column, shown, caret = place
        return ReconcilerLoadError(
            f"{role}: {message}",
            location=Location(self.display, line, column),
            source_line=shown,
            caret=caret,
        )

    def user_frame(self, error: BaseException) -> UserFrame | None:
        """The innermost frame of ``error``'s traceback in the user's files (the
        reconciler's directory tree), for the error display; ``None`` when it was
        raised elsewhere only."""
        return user_frame(error, self._user_file)

    def running_at(self, thread: threading.Thread) -> tuple[str, int] | None:
        """Where in the user's files ``thread`` runs now (a reconcile past its timeout):
        the innermost such frame, its file as shown and line."""
        found = _running_at(thread.ident, self._user_file)
        return (display_path(found[0]), found[1]) if found is not None else None

    def user_traceback(self, error: BaseException) -> str:
        """``error``'s traceback from the first frame in the user's files on (the loop's
        own frames left out), as Python prints it; just the error's line when no frame
        is the user's."""
        import traceback

        frames = traceback.extract_tb(error.__traceback__)
        last = "".join(traceback.format_exception_only(type(error), error))
        for index, frame in enumerate(frames):
            if self._user_file(frame.filename):
                shown = traceback.StackSummary.from_list(frames[index:])
                return "Traceback (most recent call last):\n" + "".join(shown.format()) + last
        # raised by the loop on the user's behalf (a result that is not one): no frames
        return str(error) + "\n" if isinstance(error, ReconcilerError) else last

    def on_first_call(self, callback: Callable[[float], None] | None) -> None:
        """Have ``callback(time.time())`` called once, when the loop first calls into this
        code (``call`` or ``finalize``): the hot reloader's latency ends there."""
        with self._first_call_lock:
            self._first_call = callback

    def _note_call(self) -> None:
        if self._first_call is None:
            return
        with self._first_call_lock:
            callback, self._first_call = self._first_call, None
        if callback is not None:
            import contextlib

            # a report of ours failing is not the user's reconcile failing
            with contextlib.suppress(Exception):
                callback(time.time())

    def _hook_request(
        self, obj: Mapping[str, Any], ctx: Any, *, finalizing: bool
    ) -> dict[str, Any]:
        child_types = [
            (spec.text, metacontroller.type_key(spec.name, spec.api_version)) for spec in self.owns
        ]
        children = metacontroller.collect_children(obj, ctx, child_types)
        return metacontroller.request(obj, children, finalizing=finalizing)

    def _from_hook(self, function: Callable[..., Any], response: object) -> tuple[Result, bool]:
        try:
            plain, finalized = metacontroller.read_response(response)
        except ValueError as error:
            raise _result_error(function, str(error)) from None
        return _result(plain, function, _name(function)), finalized


def _result(
    value: object, function: Callable[..., Any], name: str, *, extra: Sequence[str] = ()
) -> Result:
    """``value`` as a ``Result``: ``None``, a ``Result``, or a dict of ``RESULT_KEYS``."""
    if value is None:
        return Result()
    if isinstance(value, Result):
        children, status, requeue_after = value.children, value.status, value.requeue_after
    elif isinstance(value, Mapping):
        unknown = sorted(str(key) for key in value if key not in RESULT_KEYS)
        if unknown:
            allowed = ", ".join((*RESULT_KEYS, *extra))
            raise _result_error(
                function,
                f"returned a dict with unknown key{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(repr(key) for key in unknown)} (allowed: {allowed})",
            )
        children = value.get("children") or ()
        status = value.get("status")
        requeue_after = value.get("requeue_after")
    else:
        raise _result_error(
            function,
            f"returned {_a(value)}; expected None, a Result, or a dict with "
            f"{', '.join(RESULT_KEYS)}",
        )
    if isinstance(children, str | bytes | Mapping) or not isinstance(children, Iterable):
        raise _result_error(function, f"returned children as {_a(children)}; use a list of objects")
    children = tuple(children)
    for index, child in enumerate(children):
        problem = _child_problem(child)
        if problem:
            raise _result_error(function, f"returned children[{index}] {problem}")
    if status is not None and not isinstance(status, Mapping):
        raise _result_error(function, f"returned status as {_a(status)}; use a dict or None")
    if requeue_after is not None:
        import datetime

        if isinstance(requeue_after, datetime.timedelta):
            requeue_after = requeue_after.total_seconds()
        if isinstance(requeue_after, bool) or not isinstance(requeue_after, int | float):
            raise _result_error(
                function, f"returned requeue_after {requeue_after!r}; use a number of seconds"
            )
        if requeue_after < 0:
            raise _result_error(function, f"returned requeue_after {requeue_after}; use 0 or more")
        requeue_after = float(requeue_after)
    return Result(children=children, status=status, requeue_after=requeue_after)


def _child_problem(child: object) -> str:
    if not isinstance(child, Mapping):
        return f"as {_a(child)}; a child is an object (a dict)"
    missing = [key for key in ("apiVersion", "kind") if not child.get(key)]
    metadata = child.get("metadata")
    if not isinstance(metadata, Mapping) or not metadata.get("name"):
        missing.append("metadata.name")
    if missing:
        return f"without {', '.join(missing)}"
    return ""


def _parent_key(item: object, namespace: str) -> tuple[str, str] | None:
    if isinstance(item, str):
        return (namespace, item) if item else None
    if isinstance(item, Mapping):
        metadata = item.get("metadata") or {}
        name = metadata.get("name")
        return (metadata.get("namespace") or "", name) if isinstance(name, str) and name else None
    if (
        isinstance(item, tuple | list)
        and len(item) == 2
        and all(isinstance(part, str) for part in item)
        and item[1]
    ):
        return (item[0], item[1])
    return None


def _a(value: object) -> str:
    """``a list``, ``an int``, ``None``: a value's type for a message."""
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[0].lower() in 'aeiou' else 'a'} {name}"


def _name(function: Callable[..., Any]) -> str:
    return getattr(function, "__name__", "the function")


def _result_error(function: Callable[..., Any], message: str) -> ReconcilerResultError:
    """An error at ``function``'s ``def`` line: ``reconciler.py:7: reconcile returned ...``."""
    code = getattr(_unwrap(function), "__code__", None)
    location = None
    if code is not None:
        location = Location(display_path(code.co_filename), code.co_firstlineno)
    return ReconcilerResultError(f"{_name(function)} {message}", location=location)


def _unwrap(function: Callable[..., Any]) -> Callable[..., Any]:
    seen = 0
    while hasattr(function, "__wrapped__") and seen < 100:
        function = function.__wrapped__
        seen += 1
    return function


# -- where an error is -----------------------------------------------------------------


def _excerpt(raw: str, start: int, end: int) -> tuple[str, str]:
    """A source line without its indent, and a caret under columns ``start``..``end``
    (0-based characters of ``raw``), as Python's traceback draws them."""
    shown = raw.strip()
    if not shown:
        return "", ""
    indent = len(raw) - len(raw.lstrip())
    # one column past the end is a place too ("expected ':'" points there)
    start = min(max(start - indent, 0), len(shown))
    end = max(min(end - indent, len(shown)), start + 1)
    return shown, " " * start + "^" * (end - start)


def user_frame(error: BaseException, user_file: Callable[[str], bool]) -> UserFrame | None:
    """The innermost frame of ``error``'s traceback in a file ``user_file`` accepts;
    for a ``SyntaxError`` in such a file, the error's own place.

    The line and its caret come from the source the frame's code was compiled from (its
    module's ``FreshSourceLoader`` kept it): the file may have been saved since (an
    edit the hot reload has not taken yet, or one that failed), and the code's column
    offsets then point into the old line. Only a module the loader did not load (one
    first imported inside ``reconcile``) has its line read from the file as it is now,
    as Python's own traceback does."""
    import linecache
    import traceback

    if isinstance(error, ReconcilerError) and error.location is not None:
        place = error.location
        return UserFrame(place.file, place.line, place.column, error.source_line, error.caret)
    if isinstance(error, SyntaxError) and error.filename and user_file(error.filename):
        line = error.lineno or 0
        raw = (error.text or "").rstrip("\n")
        column = error.offset or 0
        end = error.end_offset if error.end_lineno == error.lineno and error.end_offset else 0
        shown, caret = _excerpt(raw, column - 1, max(end - 1, column)) if raw else ("", "")
        return UserFrame(display_path(error.filename), line, column, shown, caret)
    found = None
    globals_: Mapping[str, Any] = {}
    tb = error.__traceback__
    # extract_tb's summaries carry the columns, walk_tb's frames the module: one each
    for summary, (frame, _) in zip(traceback.extract_tb(tb), traceback.walk_tb(tb), strict=True):
        if user_file(summary.filename):
            found, globals_ = summary, frame.f_globals
    if found is None or not found.lineno:
        return None
    loaded = _loaded_line(globals_, found.filename, found.lineno)
    if loaded is None:
        linecache.checkcache(found.filename)
    raw = loaded if loaded is not None else linecache.getline(found.filename, found.lineno)
    raw = raw.rstrip("\n")
    column, shown, caret = 0, raw.strip(), ""
    if raw and found.colno is not None:
        # the code object's positions are UTF-8 byte offsets
        encoded = raw.encode()
        start = len(encoded[: found.colno].decode(errors="replace"))
        end = start + 1
        if found.end_lineno == found.lineno and found.end_colno is not None:
            end = len(encoded[: found.end_colno].decode(errors="replace"))
        shown, caret = _excerpt(raw, start, end)
        column = start + 1
    return UserFrame(display_path(found.filename), found.lineno, column, shown, caret)


def _loaded_line(globals_: Mapping[str, Any], filename: str, lineno: int) -> str | None:
    """Line ``lineno`` of the source the module of ``globals_`` was compiled from, when
    its loader kept it (``FreshSourceLoader``) and it is ``filename``'s; else None."""
    import importlib.util

    loader = globals_.get("__loader__")
    source = getattr(loader, "source", None)
    if not isinstance(source, bytes) or getattr(loader, "path", None) != filename:
        return None
    # decoded as the compiler decoded it (a coding cookie, universal newlines)
    lines = importlib.util.decode_source(source).split("\n")
    return lines[lineno - 1] if 0 < lineno <= len(lines) else ""


def _load_error(error: BaseException, user_file: Callable[[str], bool]) -> ReconcilerLoadError:
    """``error``, raised while importing, as ``file:line:col: Type: message`` with the
    line and a caret."""
    if isinstance(error, SyntaxError):
        message = f"{type(error).__name__}: {error.msg}"
    else:
        import traceback

        lines = traceback.format_exception_only(type(error), error)
        message = "".join(lines).strip().splitlines()[-1]
    frame = user_frame(error, user_file)
    if frame is None:
        return ReconcilerLoadError(message)
    return ReconcilerLoadError(
        message, location=frame.location, source_line=frame.source_line, caret=frame.caret
    )


# -- loading ---------------------------------------------------------------------------


class _UserFiles:
    """Which files are the user's: under ``root``, and not the interpreter's, an
    installed package's, or this tool's."""

    def __init__(self, directory: str) -> None:
        import site

        # the directory as given and as resolved: module files and code objects carry
        # one or the other, and a string test costs nothing beside a realpath per module
        self.root = os.path.realpath(directory)
        self._inside = (self.root + os.sep, os.path.abspath(directory) + os.sep)
        outside = {sys.prefix, sys.base_prefix, sys.exec_prefix, _package_dir()}
        user_site = getattr(site, "USER_SITE", None)
        if user_site:
            outside.add(user_site)
        self._outside = tuple(
            each + os.sep for path in outside if path for each in {path, os.path.realpath(path)}
        )

    def __call__(self, path: str) -> bool:
        if not path.startswith(self._inside) and path.rstrip(os.sep) != self.root:
            return False
        parts = path.split(os.sep)
        if "site-packages" in parts or "dist-packages" in parts:
            return False
        return not path.startswith(self._outside)


def _package_dir() -> str:
    import kubectl_crd

    return os.path.dirname(os.path.realpath(kubectl_crd.__file__ or ""))


def _module_file(module: object) -> str:
    """A module's ``__file__``, read from its own namespace: never by ``getattr``, which
    runs the user's code under ``_LOCK`` (a module-level ``__getattr__`` when the module
    has no ``__file__``, an object put in ``sys.modules`` in its place) that may hang
    there or raise out of the loader's clean-up. Anything else has no file."""
    path = _module_namespace(module).get("__file__")
    return path if type(path) is str else ""


def _module_namespace(module: object) -> dict[str, Any]:
    """The namespace of a real module (``ModuleType``'s own ``__dict__`` slot, so no
    ``__getattr__``, property or ``__class__`` of the user's runs); empty otherwise."""
    import types

    if not issubclass(type(module), types.ModuleType):
        return {}
    slot: Any = vars(types.ModuleType)["__dict__"]
    namespace = slot.__get__(module)
    return namespace if type(namespace) is dict else {}


def _initializing(module: object) -> str | None:
    """The name of a module still running its body (its spec's ``_initializing``, as
    ``importlib._bootstrap`` sets it), read as ``_module_file`` reads: no user code."""
    from importlib.machinery import ModuleSpec

    spec = _module_namespace(module).get("__spec__")
    if type(spec) is not ModuleSpec or not vars(spec).get("_initializing", False):
        return None
    name = vars(spec).get("name")
    return name if type(name) is str else None


def _fresh_loader_class() -> Any:  # a class with ``created``
    from importlib.machinery import SourceFileLoader

    class FreshSourceLoader(SourceFileLoader):
        """Compiles the source each time; never reads or writes ``__pycache__``. Keeps
        the bytes it compiled (``source``): an error's line is drawn from them, not from
        the file as it is when the error is reported (``user_frame``)."""

        source: bytes | None = None
        #: every module a loader of this class (one class per load) ran, in order, put
        #: here before it runs: a load's own modules, told by identity (another load
        #: running at the same time, an abandoned one, imports modules of the same names)
        created: list[types.ModuleType] = []  # noqa: RUF012  # per class, on purpose
        #: file -> the source bytes this load compiled from it (``_Load.same_code``)
        read: dict[str, bytes] = {}  # noqa: RUF012  # per class, on purpose
        #: name -> file of each module it ran: a module that put another object in
        #: ``sys.modules`` in its place (a lazy module) is still told by its name
        ran: dict[str, str] = {}  # noqa: RUF012  # per class, on purpose

        def exec_module(self, module: types.ModuleType) -> None:
            type(self).created.append(module)
            type(self).ran[self.name] = self.path
            super().exec_module(module)

        def get_code(self, fullname: str) -> types.CodeType:
            path = self.get_filename(fullname)
            self.source = self.get_data(path)
            type(self).read[path] = self.source
            return self.source_to_code(self.source, path)  # type: ignore[arg-type]

    return FreshSourceLoader


class _FreshFinder:
    """A meta path finder for the user's tree only, with ``FreshSourceLoader``; one
    ``FileFinder`` per directory for the load (each lists its directory once)."""

    def __init__(self, root: str, user_file: _UserFiles, loader: type) -> None:
        self.root = root
        self.user_file = user_file
        self.loader = loader
        self._finders: dict[str, Any] = {}
        #: only the load's own thread is served: an abandoned load's thread, running
        #: again later, must not import into (and be counted in) a newer load
        self.thread = threading.get_ident()

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: object = None
    ) -> ModuleSpec | None:
        from importlib.machinery import SOURCE_SUFFIXES, FileFinder

        if threading.get_ident() != self.thread:
            return None
        places = [self.root] if path is None else [p for p in path if self.user_file(p)]
        for place in places:
            finder = self._finders.get(place)
            if finder is None:
                finder = self._finders[place] = FileFinder(place, (self.loader, SOURCE_SUFFIXES))
            spec = finder.find_spec(fullname)
            if spec is not None and spec.loader is not None:
                return spec  # type: ignore[no-any-return]
        return None


def load_reconciler(
    path: str,
    *,
    timeout: float | None = None,
    on_slow: Callable[[ReconcilerLoadError], None] | None = None,
    slow_after: float = 10.0,
) -> LoadedReconciler:
    """Import the reconciler at ``path`` in isolation and check what it declares;
    ``ReconcilerLoadError`` when it cannot be used (see the module doc).

    With ``timeout``, the import runs in a thread of its own and is abandoned past it
    (``ReconcilerLoadError`` at the user's line it is at): a module-level call that
    never returns would hold the caller for ever. A thread cannot be killed, so an
    abandoned load is undone around it instead (``_Load.abandon``): its modules leave
    ``sys.modules``, the import locks it holds are let go, and what it does if it ever
    returns is dropped; ``stuck_loads`` names those still running.

    Without ``timeout``, ``on_slow`` is told once, after ``slow_after`` seconds, where
    a load still running is (the same error), and the load goes on: at the loop's
    start there is no running code to keep, and a slow import may yet end."""
    absolute = os.path.abspath(path)
    display = display_path(absolute)
    try:
        with open(absolute, "rb") as handle:
            handle.read(0)
    except IsADirectoryError:
        raise ReconcilerLoadError(
            "is a directory: the reconciler is a .py file", location=Location(display)
        ) from None
    except OSError as error:
        raise ReconcilerLoadError(
            (error.strerror or str(error)).lower(), location=Location(display)
        ) from None
    if absolute.lower().endswith((".yaml", ".yml", ".json")):
        # objects given where the reconciler goes: YAML failed as a SyntaxError at its
        # first key, JSON (Python syntax) as "no FOR"
        raise ReconcilerLoadError(
            "not a Python file: the reconciler is a .py file (objects go in the --local "
            "DIR, or on the cluster)",
            location=Location(display),
        )
    if timeout is not None:
        return _load_bounded(absolute, display, timeout)
    if on_slow is None:
        return _load(absolute, display)
    loads: list[_Load] = []

    def tell() -> None:
        with _LOCK:
            if not loads or loads[0].done:
                return
            position = loads[0].position()
        on_slow(_still_loading(_place(position), slow_after, "Ctrl-C to stop"))

    timer = threading.Timer(slow_after, tell)
    timer.daemon = True
    timer.start()
    try:
        return _load(absolute, display, on_start=loads.append)
    finally:
        timer.cancel()


def _still_loading(place: _Place, waited: float, then: str) -> ReconcilerLoadError:
    return ReconcilerLoadError(
        f"still loading after {waited:g} s (a module-level call that does not return?); {then}",
        location=Location(place.file, place.line),
        source_line=place.source_line,
    )


def _refuse_same_code(absolute: str) -> None:
    """The bound on threads that cannot be stopped: the same code is not run again
    while a load of it is stuck (5 saves of a hanging helper left 5 threads, a busy loop
    burning a CPU each); a load stuck in other code does not hold this one back."""
    with _LOCK:
        stuck = [
            earlier
            for earlier in _ABANDONED
            if earlier.absolute == absolute
            and earlier.thread is not None
            and earlier.thread.is_alive()
        ]
    for earlier in stuck:
        if earlier.same_code():  # read outside the lock: the files are the user's
            with _LOCK:
                position = earlier.position()
            place = _place(position)
            raise ReconcilerLoadError(
                "not loaded again: an earlier load of the same code is still stuck here; "
                "a save that changes a file it ran loads again",
                location=Location(place.file, place.line),
                source_line=place.source_line,
            )


def _load_bounded(absolute: str, display: str, timeout: float) -> LoadedReconciler:
    _refuse_same_code(absolute)
    answer: list[tuple[bool, object]] = []
    loads: list[_Load] = []
    begun = threading.Event()

    def started(this: _Load) -> None:
        loads.append(this)
        begun.set()

    def load() -> None:
        try:
            answer.append((True, _load(absolute, display, on_start=started)))
        except BaseException as error:  # raised again in the caller's thread
            answer.append((False, error))
        finally:
            begun.set()

    thread = threading.Thread(target=load, name="kubectl-crd-reload-import", daemon=True)
    thread.start()
    # the bound is the module's run's, counted from the load's start: a thread slow to
    # begin (a loaded machine) and found not begun was then waited for without one. No
    # code of the user's runs before the start
    begun.wait()
    thread.join(timeout)
    with _LOCK:
        # under the lock: the load either ended in time or is abandoned, not both
        abandoned = loads[0] if not answer and loads and not loads[0].done else None
        if abandoned is not None:
            position = abandoned.abandon(thread)
    if abandoned is not None:
        abandoned.keep()
        raise _still_loading(
            _place(position), timeout, "a save that changes a file it ran loads again"
        )
    thread.join()  # finished (or about to: it has nothing left to wait for)
    loaded, value = answer[0]
    if not loaded:
        raise value  # type: ignore[misc]
    return value  # type: ignore[return-value]


@record
class _Place:
    file: str
    line: int
    source_line: str = ""


class _Load:
    """One load running: what it changed in the process-wide import state
    (``sys.modules``, ``sys.meta_path``, ``sys.path``), so that ``abandon`` can undo
    it around a thread that never returns. Changed and read under ``_LOCK``."""

    def __init__(
        self,
        *,
        absolute: str,
        package: str,
        root: str,
        finder: _FreshFinder,
        loader_class: Any,
        evicted: dict[str, types.ModuleType],
        before: set[str],
        user_file: _UserFiles,
    ) -> None:
        self.absolute = absolute
        #: the keys of ``sys.modules`` as the load began (after its eviction)
        self.before = before
        self.user_file = user_file
        self.package = package
        self.root = root
        self.finder = finder
        self.loader_class = loader_class
        self.evicted = evicted
        self.abandoned = False
        #: the load ended (its outcome decided): too late to abandon
        self.done = False
        self.thread: threading.Thread | None = None
        #: abandoned: the bytes of each file it ran (``same_code``); None, unreadable
        self.sources: dict[str, bytes | None] = {}

    def mine(self, *, late: bool = False) -> dict[str, Any]:
        """The entries of ``sys.modules`` this load made: its package, the modules its
        own loaders ran (by identity: another load may have run meanwhile), and the
        user's modules new since it began that another finder loaded (a directory the
        module put on ``sys.path`` itself) or that one of its loaders ran under that
        name and that put another object in its place; ``late``, an abandoned load
        ending after others ran, by identity only."""
        ran = {id(module) for module in self.loader_class.created}
        prefix = f"{self.package}."
        return {
            key: module
            for key, module in list(sys.modules.items())
            if key == self.package
            or key.startswith(prefix)
            or id(module) in ran
            or (
                not late
                and key not in self.before
                and (key in self.loader_class.ran or self.user_file(_module_file(module)))
            )
        }

    def file_of(self, key: str, module: object) -> str:
        """The file of ``sys.modules[key]`` (``module``): its own, else the file one of
        this load's loaders ran under that name (an object in a module's place)."""
        return _module_file(module) or self.loader_class.ran.get(key, "")

    def unhook(self) -> None:
        """The finder and the path entry out (the load's end, or its abandonment)."""
        if self.finder in sys.meta_path:
            sys.meta_path.remove(self.finder)  # type: ignore[arg-type]
        if sys.path and sys.path[0] == self.root:
            del sys.path[0]
        elif self.root in sys.path:
            sys.path.remove(self.root)

    def undo(self, *, late: bool = False) -> None:
        """Its modules out of ``sys.modules`` (``mine``); the modules it evicted back
        where no other load has put its own since. Not ``late``: ``abandon`` put them
        back, and a newer load may have evicted them since, to import them afresh."""
        for key in self.mine(late=late):
            del sys.modules[key]
        if late:
            return
        for key, module in self.evicted.items():
            sys.modules.setdefault(key, module)

    def drop_if_abandoned(self, display: str) -> None:
        """A load abandoned while it ran that has now ended (``_LOCK`` held): too late,
        it is dropped, and the modules it made with it."""
        if self.abandoned:
            self.done = True
            self.undo(late=True)
            raise ReconcilerLoadError("abandoned", location=Location(display))

    def abandon(self, thread: threading.Thread) -> tuple[str, int]:
        """Give up a load stuck in ``thread`` (``_LOCK`` held): where it is
        (``position``), and the process's import state as if it had failed, so the next
        load imports afresh; ``keep`` then records it, outside the lock.

        Python's import lock of each module it is still running (``_ModuleLock``, one
        per module name: ``importlib._bootstrap._get_module_lock``) stays held by the
        stuck thread, and every later ``import helper`` would wait on it for ever: the
        name's entry in ``_bootstrap._module_locks`` is dropped, so the next import of
        that name makes a lock of its own (the stuck thread keeps and releases its own;
        the weakref callback removes only the entry it made). Those names are taken out
        of ``sys.modules`` first, so the next import runs the module afresh."""
        self.abandoned = True
        self.thread = thread
        position = self.position()
        self.unhook()
        # its own loaders' modules and those another finder loaded for it (a directory
        # the module put on sys.path): ``undo`` takes both out of sys.modules
        running = {
            name
            for module in (*self.loader_class.created, *self.mine().values())
            if (name := _initializing(module)) is not None
        }
        # the bytes each file it ran held: its own loaders' as compiled; a module another
        # finder loaded for it (a directory the module put on sys.path): None, read by
        # ``keep``
        compiled = self.loader_class.read
        self.sources = {file: compiled.get(file) for file in self.note_attempt()}
        self.undo()
        _let_go_import_locks(running, thread.ident)
        return position

    def keep(self) -> None:
        """An abandoned load (``_LOCK`` not held: the user's files are read, and one on a
        file system that hangs would hold every load): the files it ran that its loaders
        did not compile are read as they are now, then it joins the loads
        ``stuck_loads`` and ``_refuse_same_code`` see."""
        self.sources = {
            file: _source(file) if source is None else source
            for file, source in self.sources.items()
        }
        with _LOCK:
            _ABANDONED.append(self)

    def note_attempt(self) -> tuple[str, ...]:
        """Record the user's files this load ran (``attempted_files``), and say them."""
        # what its loaders ran, those that failed (out of sys.modules already) included
        ran = [*self.loader_class.created, *self.mine().values()]
        files = {file for file in map(_module_file, ran) if self.user_file(file)}
        attempted = _ATTEMPTED[self.absolute] = (self.absolute, *sorted(files - {self.absolute}))
        return attempted

    def same_code(self) -> bool:
        """Every file it compiled still holds the bytes it compiled: a load now would
        run the same code up to the same place, and hang there beside it."""
        return all(_source(file) == source for file, source in self.sources.items())

    def position(self) -> tuple[str, int]:
        """Where the load's thread is: the innermost line in the reconciler's directory
        tree (a file of the user's), else the reconciler's file (line 0). Reads no file
        (``_place`` does): asked under ``_LOCK``."""
        directory = os.path.dirname(self.absolute) + os.sep
        ident = self.thread.ident if self.thread is not None else self.finder.thread
        return _running_at(ident, lambda file: file.startswith(directory)) or (self.absolute, 0)


def _place(position: tuple[str, int]) -> _Place:
    """A load's ``position`` as shown, with its source line (read from the user's file:
    never under ``_LOCK``)."""
    import linecache

    file, line = position
    source = linecache.getline(file, line).strip() if line else ""
    return _Place(display_path(file), line, source)


def _source(file: str) -> bytes | None:
    """The bytes of ``file``; None when it cannot be read."""
    try:
        with open(file, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _running_at(ident: int | None, accept: Callable[[str], bool]) -> tuple[str, int] | None:
    """The file and line a thread is running at: its innermost frame in a file
    ``accept`` takes; None when it runs in none (or is gone)."""
    frame = sys._current_frames().get(ident or 0)
    while frame is not None:
        if accept(frame.f_code.co_filename):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None


#: loads abandoned past their timeout whose thread may still run (``stuck_loads``)
_ABANDONED: list[_Load] = []
#: per reconciler file, the user's files its latest load ran, whatever it ended with
_ATTEMPTED: dict[str, tuple[str, ...]] = {}


def attempted_files(path: str) -> tuple[str, ...]:
    """The reconciler's file and the modules of the user's that its latest load ran,
    also when that load failed or was abandoned: a helper that a failed load was first
    to import (its syntax error, its module-level call that never returns) is one the
    user fixes next, and its save must reload, though no loaded code imports it yet."""
    absolute = os.path.abspath(path)
    with _LOCK:
        return _ATTEMPTED.get(absolute, (absolute,))


def stuck_loads(path: str | None = None) -> tuple[str, ...]:
    """Where the abandoned loads (of ``path``, else of any reconciler) still running
    are, as ``helper.py:2``: their threads cannot be stopped, and live as long as the
    process."""
    absolute = os.path.abspath(path) if path is not None else None
    with _LOCK:
        _ABANDONED[:] = [
            load for load in _ABANDONED if load.thread is not None and load.thread.is_alive()
        ]
        positions = [
            load.position() for load in _ABANDONED if absolute is None or load.absolute == absolute
        ]
    return tuple(str(Location(display_path(file), line)) for file, line in positions)


def _let_go_import_locks(names: Iterable[str], owner: int | None) -> None:
    """Drop ``importlib._bootstrap``'s lock entries of ``names`` that ``owner`` holds
    (``_Load.abandon`` says why); nothing where the interpreter keeps no such table."""
    import _imp
    from importlib import _bootstrap  # type: ignore[attr-defined]

    locks = getattr(_bootstrap, "_module_locks", None)
    if not isinstance(locks, dict):
        return
    _imp.acquire_lock()
    try:
        for name in names:
            ref = locks.get(name)
            lock = ref() if callable(ref) else None
            if lock is not None and getattr(lock, "owner", None) == owner:
                del locks[name]
    finally:
        _imp.release_lock()


def _load(
    absolute: str, display: str, *, on_start: Callable[[_Load], None] | None = None
) -> LoadedReconciler:
    """The load itself. ``_LOCK`` is held while ``sys.modules``, ``sys.meta_path`` and
    ``sys.path`` are changed and read, not while the module runs nor while its
    declarations are read (user code too), and no user code runs under it (modules'
    files and specs are read from their namespaces: ``_module_file``): held around its run,
    a module-level call that never returns held it for ever, and every later load (the
    fixed file's too) waited on it (``load_reconciler``'s timeout abandons such a
    load). A load abandoned meanwhile changes nothing when it ends."""
    import importlib
    import importlib.util
    import types
    from importlib.machinery import ModuleSpec, PathFinder

    user_file = _UserFiles(os.path.dirname(absolute))
    root = user_file.root
    with _LOCK:
        generation = next(_GENERATIONS)
        package = f"{_PACKAGE_PREFIX}{generation}"
        stem = re.sub(r"\W|^(?=\d)", "_", os.path.splitext(os.path.basename(absolute))[0])
        name = f"{package}.{stem}"

        # the user's modules earlier loads imported: out, so this load imports them
        # afresh. Only those: a module of the tree that something else imported (the
        # test suite of a reconciler kept beside it, say) is not the loader's to take away.
        evicted = {key: sys.modules[key] for key in _IMPORTED if key in sys.modules}
        for key in evicted:
            del sys.modules[key]
        # after the eviction: what this load imports again is its own (its
        # watched_files), and what a failed load leaves is taken out before the evicted
        # come back
        before = set(sys.modules)

        parent = types.ModuleType(package)
        parent.__path__ = [root]
        parent.__package__ = package
        parent.__spec__ = ModuleSpec(package, None, is_package=True)
        parent.__spec__.submodule_search_locations = [root]
        loader_class = _fresh_loader_class()
        loader = loader_class(name, absolute)
        spec = importlib.util.spec_from_file_location(name, absolute, loader=loader)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        finder = _FreshFinder(root, user_file, loader_class)
        position = next(
            (i for i, each in enumerate(sys.meta_path) if each is PathFinder),
            len(sys.meta_path),
        )
        sys.meta_path.insert(position, finder)  # type: ignore[arg-type]
        sys.path.insert(0, root)
        importlib.invalidate_caches()
        sys.modules[package] = parent
        sys.modules[name] = module
        this = _Load(
            absolute=absolute,
            package=package,
            root=root,
            finder=finder,
            loader_class=loader_class,
            evicted=evicted,
            before=before,
            user_file=user_file,
        )
        if on_start is not None:
            on_start(this)
    try:
        try:
            loader.exec_module(module)
        finally:
            with _LOCK:
                if not this.abandoned:  # else abandon() did it
                    this.unhook()
        with _LOCK:
            this.drop_if_abandoned(display)
            # what this load imported of the user's (the reconciler included)
            imported = {
                key: file
                for key, made in this.mine().items()
                if user_file(file := this.file_of(key, made))
            }
        # The declarations are read outside the lock and before the load is done, as
        # the module's run is: reading them runs the user's code too (an OWNS list's
        # __iter__, a WATCHES mapping's items(), a callable's __signature__), and held
        # under the lock, one that hung held every other load (of any file) and the
        # caller of a bounded load, whose bound it escaped, until it returned
        local = sorted(set(imported.values()) - {absolute})
        loaded = _declarations(
            module,
            path=absolute,
            display=display,
            generation=generation,
            watched_files=(absolute, *local),
            user_file=user_file,
        )
        with _LOCK:
            this.drop_if_abandoned(display)
            this.done = True
            _IMPORTED.update(key for key in imported if not key.startswith(_PACKAGE_PREFIX))
            _forget_old_generations(absolute, package)
            _ATTEMPTED[absolute] = loaded.watched_files
            return loaded
    except BaseException as error:
        with _LOCK:
            this.done = True
            if not this.abandoned:  # else undone by abandon(), or above
                this.note_attempt()
                this.undo()  # sys.modules as it was: the earlier load's modules back
        if isinstance(error, ReconcilerLoadError):
            raise
        if not isinstance(error, Exception) and not isinstance(error, SystemExit):
            raise
        raise _load_error(error, user_file) from None


def _forget_old_generations(path: str, package: str) -> None:
    packages = _LOADED.setdefault(path, [])
    packages.append(package)
    while len(packages) > _GENERATIONS_KEPT:
        old = packages.pop(0)
        for key in [key for key in sys.modules if key == old or key.startswith(f"{old}.")]:
            del sys.modules[key]


_HOW = (
    "declare FOR = 'plural.group/version' (as 'foos.samplecontroller.k8s.io/v1alpha1') "
    "and def reconcile(obj, ctx)"
)


def _declarations(
    module: types.ModuleType,
    *,
    path: str,
    display: str,
    generation: int,
    watched_files: tuple[str, ...],
    user_file: _UserFiles,
) -> LoadedReconciler:
    names = vars(module)

    def fail(message: str, declared: str | None = None) -> ReconcilerLoadError:
        place = _declaration_place(path, declared) if declared else None
        if place is None:
            return ReconcilerLoadError(message, location=Location(display))
        line, column, shown, caret = place
        return ReconcilerLoadError(
            message,
            location=Location(display, line, column),
            source_line=shown,
            caret=caret,
        )

    if "FOR" not in names:
        raise fail(f"no FOR: {_HOW}")
    try:
        for_resource = parse_resource(names["FOR"])
    except ValueError as error:
        raise fail(f"FOR: {error}", "FOR") from None
    owns_value = names.get("OWNS", ())
    if isinstance(owns_value, str):
        owns_value = [owns_value]
    if not isinstance(owns_value, list | tuple | set | frozenset):
        raise fail(f"OWNS is {_a(owns_value)}; use a list like ['apps/v1/Deployment']", "OWNS")
    try:
        owns = tuple(parse_resource(each) for each in owns_value)
    except ValueError as error:
        raise fail(f"OWNS: {error}", "OWNS") from None
    watches_value = names.get("WATCHES", {})
    if not isinstance(watches_value, Mapping):
        raise fail(
            f"WATCHES is {_a(watches_value)}; use a dict of resource -> function(obj) "
            "returning the parents' (namespace, name)",
            "WATCHES",
        )
    watches = []
    for key, function in watches_value.items():
        try:
            spec = parse_resource(key)
        except ValueError as error:
            raise fail(f"WATCHES: {error}", "WATCHES") from None
        if _arity(function, 1) is not True:
            raise fail(
                f"WATCHES[{key!r}] is not a function of one object (obj) -> parents", "WATCHES"
            )
        watches.append((spec, function))

    # The entry point is told by its name, never by its parameter count alone (a
    # one-parameter reconcile(obj) needs no ctx; metacontroller names its hooks sync,
    # finalize and customize: docs/src/api/compositecontroller.md, spec.hooks).
    reconcile = names.get("reconcile")
    sync = names.get("sync")
    sync_hook = reconcile is None and sync is not None
    if sync_hook:
        reconcile = sync
        if _arity(sync, 1) is not True:
            raise fail(
                f"sync {_takes(sync)}; a metacontroller sync hook takes one request: "
                "def sync(request), with request['parent'] and request['children']",
                "sync",
            )
        if names.get("customize") is not None:
            raise fail(
                "customize is metacontroller's customize hook, which kubectl crd dev does "
                "not run (its request's related stays empty); remove it",
                "customize",
            )
    if reconcile is None:
        raise fail(f"no reconcile function: {_HOW}")
    reconcile_ctx = sync_hook or _reconciler_shape(reconcile, "reconcile", fail)
    finalize = names.get("finalize")
    finalize_ctx = True
    if finalize is not None:
        if sync_hook and _arity(finalize, 1) is not True:
            raise fail(
                f"finalize {_takes(finalize)}; beside sync(request), finalize is "
                "metacontroller's finalize hook: def finalize(request)",
                "finalize",
            )
        finalize_ctx = sync_hook or _reconciler_shape(finalize, "finalize", fail)
    finalizer = names.get("FINALIZER")
    if finalizer is not None and not (
        isinstance(finalizer, str) and _QUALIFIED.fullmatch(finalizer)
    ):
        raise fail(
            f"FINALIZER {finalizer!r} is not a finalizer name; use a qualified name, "
            "as 'example.com/cleanup'",
            "FINALIZER",
        )
    if sync_hook and any(not spec.is_kind for spec in owns):
        plural = next(spec for spec in owns if not spec.is_kind)
        raise fail(
            f"OWNS: {plural.text!r}: a metacontroller hook needs kinds, as "
            "'apps/v1/Deployment' (its request keys children by Kind.apiVersion)",
            "OWNS",
        )
    return LoadedReconciler(
        path=path,
        display=display,
        module=module,
        generation=generation,
        for_resource=for_resource,
        owns=owns,
        watches=tuple(watches),
        reconcile=reconcile,
        finalize=finalize,
        sync_hook=sync_hook,
        reconcile_ctx=reconcile_ctx,
        finalize_ctx=finalize_ctx,
        watched_files=watched_files,
        user_file=user_file,
        finalizer=finalizer,
    )


_SHAPES = "a reconciler takes (obj, ctx) or (obj); a metacontroller sync hook is def sync(request)"


def _reconciler_shape(
    function: object, name: str, fail: Callable[[str, str], ReconcilerLoadError]
) -> bool:
    """Whether a reconciler's ``reconcile`` (or ``finalize``) takes ``ctx``: True for
    ``(obj, ctx)``, False for ``(obj)``. A lone parameter named ``request`` is refused:
    metacontroller's hooks and controller-runtime's ``Reconcile`` both take a request,
    neither of which the loop would pass."""
    import inspect

    shape = _arity(function, 2)
    label = _name(function) if callable(function) else name
    if shape is None:
        raise fail(f"{label} {_takes(function)}; {_SHAPES}", label)
    if shape is False:
        first = next(iter(inspect.signature(function).parameters), "")  # type: ignore[arg-type]
        if first == "request":
            raise fail(
                f"{label}(request) is ambiguous: a metacontroller sync hook is "
                f"def sync(request); a reconciler takes the object, def {label}(obj, ctx) "
                f"or def {label}(obj)",
                label,
            )
    return shape


def _takes(function: object) -> str:
    """``takes (obj, ctx, extra)``, or ``is not callable``, for a message."""
    import inspect

    if not callable(function):
        return f"is {_a(function)}, not a function"
    try:
        return f"takes {inspect.signature(function)}"
    except (TypeError, ValueError):
        return "takes arguments that cannot be read"


def _arity(function: object, wanted: int) -> bool | None:
    """True when ``function`` takes ``wanted`` positional arguments, False when it takes
    only one (a metacontroller hook, for ``wanted`` 2), None when neither."""
    import inspect

    if not callable(function):
        return None
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None

    def takes(count: int) -> bool:
        try:
            signature.bind(*range(count))
        except TypeError:
            return False
        return True

    if takes(wanted):
        return True
    if wanted != 1 and takes(1):
        return False
    return None


def _declaration_place(
    path: str, name: str, *, literal: str | None = None, source: str | None = None
) -> tuple[int, int, str, str] | None:
    """Line, column, source line and caret of the top-level statement that binds
    ``name`` (its value, for an assignment); with ``literal``, of the string constant
    in that value that spells it (``"v1/Gizmo"`` in an ``OWNS`` list, a ``WATCHES``
    key), when there is one. ``source``: the text the module was compiled from (the
    file may have been saved since), else the file as it is."""
    import ast

    try:
        if source is None:
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
        tree = ast.parse(source, path)
    except (OSError, SyntaxError, ValueError):
        return None
    node: ast.expr | ast.stmt | None = None
    for statement in tree.body:
        if (
            isinstance(statement, ast.Assign)
            and any(
                isinstance(target, ast.Name) and target.id == name for target in statement.targets
            )
        ) or (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and statement.target.id == name
            and statement.value is not None
        ):
            node = statement.value
        elif (
            isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef) and statement.name == name
        ):
            node = statement
    if node is None or not hasattr(node, "lineno"):
        return None
    if literal is not None:
        node = next(
            (
                each
                for each in ast.walk(node)
                if isinstance(each, ast.Constant) and each.value == literal
            ),
            node,
        )
    lines = source.splitlines()
    raw = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
    end = node.end_col_offset if node.end_lineno == node.lineno else len(raw)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        start = raw.find("def ")
        end = len(raw.rstrip().rstrip(":"))
    else:
        start = node.col_offset
    shown, caret = _excerpt(raw, start, end or start + 1)
    return node.lineno, start + 1, shown, caret
