"""The dev loop's log: each engine event (``reconcile.events``) as one line, or as JSON.

``DevLog`` is an ``EventSink``: the engine's threads call it with plain records and it
writes them to one stream under a lock, a whole line (and the lines that belong to it:
a caret under a broken line, a traceback, a write's diff) at a time, so lines from
two workers never interleave.

Two formats:

- ``text``, for a person: ``HH:MM:SS.mmm`` then what happened in kubectl's lower-case
  words (``reconciled default/foo in 3.2ms, 2 writes``, ``configmap default/foo-cm
  applied``, the server's own line for a refused write). Colour only when the stream is
  a terminal and ``NO_COLOR`` is unset (``output.terminal.colour_wanted``); the coloured
  text is the plain text plus SGR codes. Objects cached, reconcile starts and
  reconciles that found their object gone are shown with ``verbose`` only, as is the
  traceback of a failed reconcile (its last line, the user's file:line, is always
  shown); a reconciled object's deletion always is.
- ``json``, for a program: one JSON object per line, every event, with ``time`` (Unix
  seconds), ``event`` (the record's class name) and the record's fields; keys are
  ``namespace/name`` strings (``events.key_text``), enums their value. The command's
  own lines (``DevLog.note``: the control plane's kubeconfig, a server's warning) are
  ``{"event": "note"|"warning", "message": ...}``.

The log draws nothing else (issue 27's dashboard renders the same events live).
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from collections.abc import Mapping

from kubectl_crd.model.records import fields, record
from kubectl_crd.model.styled import Style
from kubectl_crd.output.terminal import ansi_line, colour_wanted
from kubectl_crd.reconcile import events as ev

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TextIO

    from kubectl_crd.model.errors import Location
    from kubectl_crd.model.styled import Line

__all__ = [
    "FORMATS",
    "Change",
    "Changes",
    "DevLog",
    "OutDir",
    "OutEntry",
    "Tally",
    "event_json",
    "event_lines",
    "out_path",
]

#: the values of ``--log-format``
FORMATS = ("text", "json")

_OK = Style.TYPE  # green
_BAD = Style.REQUIRED  # red
_KEY = Style.PATH  # bold cyan
_WRITE = Style.LABEL  # blue
_RELOAD = Style.NOTE  # magenta
_TIME = Style.MUTED
_WARN = Style.WARNING
_CODE = Style.CODE
_P = Style.PLAIN


def duration_text(seconds: float) -> str:
    """A short duration: ``850us``, ``3.2ms``, ``120ms``, ``1.52s``, ``2m05s``."""
    if seconds < 0.001:
        return f"{seconds * 1e6:.0f}us"
    if seconds < 0.01:
        return f"{seconds * 1e3:.1f}ms"
    if seconds < 1:
        return f"{seconds * 1e3:.0f}ms"
    if seconds < 60:
        return f"{seconds:.2f}s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}m{rest:02d}s"


def _key(key: ev.ObjectKey) -> tuple[str, Style]:
    return (ev.key_text(key), _KEY)


def _object(kind: str, namespace: str, name: str) -> str:
    """``configmap default/x``: kubectl's ``kind/name`` reads badly with a namespace."""
    where = f"{namespace}/{name}" if namespace else name
    return f"{kind.lower()} {where}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _indented(text: str, style: Style = _P) -> list[Line]:
    return [(("    " + line, style),) for line in text.rstrip("\n").splitlines()]


def _stuck_lines(stuck: tuple[str, ...]) -> list[Line]:
    """The warning under a reload while an earlier load never returned: its thread
    cannot be stopped (``reconcile.loading.load_reconciler``), only the loop's end ends
    it, and it may still be doing what its module does."""
    if not stuck:
        return []
    places = ", ".join(stuck)
    return [
        (
            (
                f"  warning: an earlier load is still stuck at {places} and cannot be "
                "stopped; restart the loop to end it",
                _WARN,
            ),
        )
    ]


def where_prefix(file: str, line: int) -> str:
    """``file:line: `` (or ``file: ``) before a message about that place; empty when unknown."""
    return f"{file}:{line}: " if file and line else (f"{file}: " if file else "")


def located_error(error: str, file: str, line: int) -> str:
    """``error`` with its place in front, unless it says where already.

    A load error's own text starts with ``file:line:column:`` (``reconcile.loading``'s
    ReconcilerLoadError), so a second prefix would only repeat it.
    """
    if file and error.startswith(f"{file}:"):
        return error
    return where_prefix(file, line) + error


_VERB_DONE = {
    "apply": "applied",
    "move-fields": "fields moved from its create to its apply (managedFields)",
    "status": "status written",
    "delete": "deleted",
    "add-finalizer": "finalizer added",
    "remove-finalizer": "finalizer removed",
}


def event_lines(
    event: ev.Event, *, verbose: bool = False, dry_run_words: str = "server dry run"
) -> list[Line]:
    """The text lines of one event (without the time stamp); none for an event this
    verbosity does not show."""
    if isinstance(event, ev.ObjectDeleted):
        # always: the user's own object going is what the loop's next lines answer (its
        # finalizer running, its children's deletes), as kubectl get -w shows it
        return [(_key(event.key), (" deleted", _P))]
    if isinstance(event, ev.ObjectCached):
        return [(_key(event.key), (" cached, queued", _P))] if verbose else []
    if isinstance(event, ev.ReconcileStarted):
        if not verbose:
            return []
        generation = f" (generation {event.generation})" if event.generation else ""
        return [(("reconciling ", _P), _key(event.key), (generation, _P))]
    if isinstance(event, ev.ReconcileFinished):
        return _finished(event, verbose)
    if isinstance(event, ev.ReconcileTimedOut):
        return [
            (
                ("still reconciling ", _WARN),
                _key(event.key),
                (
                    f" after {duration_text(event.elapsed)}"
                    + (f" at {event.file}:{event.line}" if event.file and event.line else "")
                    + " (--reconcile-timeout "
                    f"{duration_text(event.timeout)}); "
                    + (
                        "it is reconciled again when it returns"
                        if event.again
                        else "it counts as failed"
                    ),
                    _WARN,
                ),
            )
        ]
    if isinstance(event, ev.Requeued):
        if event.reason == "swap":
            return []
        why = {
            "error": f"backoff, {_plural(event.failures, 'failure')} in a row",
            "requeue_after": "requeue_after",
            "timeout": "it ran past the timeout",
        }.get(event.reason, event.reason)
        return [
            (("requeued ", _P), _key(event.key), (f" in {duration_text(event.after)} ({why})", _P))
        ]
    if isinstance(event, ev.Write):
        done = _VERB_DONE.get(event.verb, event.verb)
        # kubectl's words: "(server dry run)"; "(dry run)" where no server checks it
        dry = f" ({dry_run_words})" if event.dry_run else ""
        lines: list[Line] = [
            (
                ("  ", _P),
                (_object(event.kind, event.namespace, event.name), _WRITE),
                (f" {done}{dry}", _P),
            )
        ]
        return lines  # a dry run's change is shown under it by DevLog, as --local's are
    if isinstance(event, ev.WriteFailed):
        status = f" ({event.status})" if event.status else ""
        return [
            (
                ("  ", _P),
                (_object(event.kind, event.namespace, event.name), _WRITE),
                (f" {event.verb} refused{status}: {event.message}", _BAD),
            )
        ]
    if isinstance(event, ev.KubernetesEventFailed):
        return [
            (
                ("  event ", _WARN),
                (event.reason, _WARN),
                (" on ", _WARN),
                _key(event.key),
                (f" not recorded: {event.message}", _WARN),
            )
        ]
    if isinstance(event, ev.Log):
        level = logging.getLevelName(event.level).lower()
        style = (
            _BAD
            if event.level >= logging.ERROR
            else _WARN
            if event.level >= logging.WARNING
            else _P
        )
        return [(_key(event.key), (f" {level}: ", style), (event.message, _P))]
    if isinstance(event, ev.WatchStarted):
        return [(("watching ", _P), (event.resource, _KEY), (f" ({event.role})", _P))]
    if isinstance(event, ev.WatchSynced):
        return [
            (
                ("listed ", _P),
                (event.resource, _KEY),
                (f": {_plural(event.objects, 'object')} in {duration_text(event.elapsed)}", _P),
            )
        ]
    if isinstance(event, ev.WatchError):
        return [
            (
                ("watch of ", _WARN),
                (event.resource, _KEY),
                (f"{' failed, retrying' if event.retrying else ''}: {event.message}", _WARN),
            )
        ]
    if isinstance(event, ev.WatchStopped):
        return [(("stopped watching ", _P), (event.resource, _KEY))]
    if isinstance(event, ev.ReloadStarted):
        changed = f" ({', '.join(event.changed)} changed)" if event.changed else ""
        return [((f"reloading {event.path}{changed}", _RELOAD),)]
    if isinstance(event, ev.ReloadSucceeded):
        lines = [((f"reloaded {event.path} in {duration_text(event.latency)}", _RELOAD),)]
        for resource in event.watches_started:
            lines.append((("  now watching ", _P), (resource, _KEY)))
        for resource in event.watches_stopped:
            lines.append((("  no longer watching ", _P), (resource, _KEY)))
        return lines + _stuck_lines(event.stuck)
    if isinstance(event, ev.ReloadFailed):
        lines = [
            (
                (f"reload of {event.path} failed, the running code stays: ", _BAD),
                (located_error(event.error, event.file, event.line), _BAD),
            )
        ]
        if event.caret:
            lines.extend(_indented(event.caret, _CODE))
        return lines + _stuck_lines(event.stuck)
    if isinstance(event, ev.Swapped):
        lines = [((f"new code runs: {_plural(event.requeued, 'object')} requeued", _RELOAD),)]
        if event.finalizers_left:
            left = event.finalizers_left
            lines.append(
                (
                    (
                        f"warning: {_plural(len(left), 'object')} "
                        f"keep{'s' if len(left) == 1 else ''} the old code's finalizer, "
                        f"which the new code does not remove: {', '.join(map(ev.key_text, left))} "
                        "(named again on exit; --remove-finalizers-on-exit takes it off)",
                        _WARN,
                    ),
                )
            )
        return lines
    if isinstance(event, ev.Stopping):
        flight = f", finishing {event.in_flight} in flight" if event.in_flight else ""
        return [((f"stopping{flight}", _P),)]
    if isinstance(event, ev.Stopped):
        lines = [(("stopped", _P),)]
        if event.abandoned:
            places = (*event.abandoned_at, *[""] * len(event.abandoned))
            keys = ", ".join(
                ev.key_text(key) + (f" at {place}" if place else "")
                for key, place in zip(event.abandoned, places, strict=False)
            )
            lines.append(
                (
                    (
                        f"warning: gave up waiting for {_plural(len(event.abandoned), 'reconcile')}"
                        f" still running: {keys} (it ends with the process, unfinished)",
                        _WARN,
                    ),
                )
            )
        if event.finalizers_removed:
            keys = ", ".join(map(ev.key_text, event.finalizers_removed))
            lines.append(((f"removed the loop's finalizer from {keys}", _P),))
        if event.finalizers_left:
            keys = ", ".join(map(ev.key_text, event.finalizers_left))
            lines.append(
                (
                    (
                        f"warning: {_plural(len(event.finalizers_left), 'object')} still "
                        f"{'carries' if len(event.finalizers_left) == 1 else 'carry'} the "
                        "loop's finalizer and cannot be deleted until a loop "
                        f"removes it: {keys} (run again with --remove-finalizers-on-exit)",
                        _WARN,
                    ),
                )
            )
        return lines
    return [((f"{type(event).__name__}", _P),)]


def _finished(event: ev.ReconcileFinished, verbose: bool) -> list[Line]:
    took = duration_text(event.duration)
    if event.outcome is ev.Outcome.GONE:
        return [(_key(event.key), (" is gone", _P))] if verbose else []
    if event.outcome is ev.Outcome.SUCCESS:
        writes = f", {_plural(event.writes, 'write')}" if event.writes else ", no writes"
        return [(("reconciled ", _OK), _key(event.key), (f" in {took}{writes}", _P))]
    label = "terminal error in " if event.outcome is ev.Outcome.TERMINAL else "error in "
    tail = " (not retried until it changes)" if event.outcome is ev.Outcome.TERMINAL else ""
    lines: list[Line] = [
        (
            (label, _BAD),
            _key(event.key),
            (f" after {took}: ", _P),
            (located_error(event.error, event.file, event.line), _BAD),
            (tail, _P),
        )
    ]
    if verbose and event.traceback:
        lines.extend(_indented(event.traceback, _P))
    return lines


def _diff_lines(diff: list[str]) -> list[Line]:
    lines: list[Line] = []
    for line in diff:
        style = (
            _OK
            if line.startswith("+")
            else _BAD
            if line.startswith("-")
            else _KEY
            if line.startswith("@@")
            else _P
        )
        lines.append((("    " + line, style),))
    return lines


#: values ``json.dumps`` takes as they are: most of an event's fields (checked by exact
#: type, before the isinstance checks below, as ``--log-format json`` writes ~7 events
#: per reconciled object)
_AS_IS = frozenset({str, int, float, bool, type(None), dict, list})


def _jsonable(value: Any) -> Any:
    if type(value) in _AS_IS:
        return value
    if isinstance(value, ev.Outcome):
        return value.value
    if isinstance(value, tuple):
        if len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], str):
            return ev.key_text(value)  # type: ignore[arg-type]
        return [_jsonable(item) for item in value]
    return value


#: ``json.dumps(body, default=str)``'s encoder, made once (``dumps`` builds one per call
#: when given ``default``)
_ENCODER = json.JSONEncoder(default=str)

#: how a field becomes JSON: a list of keys as texts, a list, or ``_jsonable``
_KEY_LIST, _LIST, _VALUE = 0, 1, 2
_KEY_LISTS = frozenset({"finalizers_left", "finalizers_removed"})
_LISTS = frozenset({"changed", "watches_started", "watches_stopped", "stuck", "abandoned_at"})
#: each event class's fields and how each is written, worked out at its first event
_PLANS: dict[type, tuple[tuple[str, int], ...]] = {}


def event_json(event: ev.Event, *, now: float) -> dict[str, Any]:
    """One event as a JSON object: ``time``, ``event`` and the record's fields."""
    cls = type(event)
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = tuple(
            (
                each.name,
                _KEY_LIST if each.name in _KEY_LISTS else _LIST if each.name in _LISTS else _VALUE,
            )
            for each in fields(event)
        )
    body: dict[str, Any] = {"time": round(now, 6), "event": cls.__name__}
    for name, how in plan:
        value = getattr(event, name)
        if how == _VALUE:
            body[name] = _jsonable(value)
        elif how == _LIST:
            body[name] = list(value)
        else:
            body[name] = [ev.key_text(key) for key in value]
    return body


# -- what each write changed (--local's diffs, --out's files) ---------------------------

#: an object's identity: (apiVersion, kind, namespace, name)
Identity = tuple[str, str, str, str]

#: metadata the server sets, left out of a diff and of an --out file (they change on
#: every run, or on every write, and say nothing about what the reconciler wants)
_SERVER_METADATA = (
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "managedFields",
    "selfLink",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
)


def review_view(obj: Mapping[str, Any]) -> dict[str, Any]:
    """``obj`` as a person reviews it: without the server's metadata, and its
    ownerReferences without the owner's uid (a new one on every ``--local`` run)."""
    out = {key: value for key, value in obj.items()}
    metadata = dict(out.get("metadata") or {})
    for name in _SERVER_METADATA:
        metadata.pop(name, None)
    refs = metadata.get("ownerReferences")
    if isinstance(refs, list):
        metadata["ownerReferences"] = [
            {k: v for k, v in ref.items() if k != "uid"} if isinstance(ref, Mapping) else ref
            for ref in refs
        ]
    if metadata:
        out["metadata"] = metadata
    return out


def sorted_keys(value: Any) -> Any:
    """``value`` with every mapping's keys in order, as ``kubectl get -o yaml`` writes
    objects (a custom resource comes back from the server so; a file's order would make
    the same object two texts)."""
    if isinstance(value, Mapping):
        return {key: sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(item) for item in value]
    return value


def out_path(identity: Identity) -> str:
    """Where ``--out`` writes an object: ``<namespace>/<kind>[.<group>]/<name>.yaml``,
    ``_cluster`` for a cluster-scoped one (no namespace is spelled so: namespace names
    are DNS labels), the kind lower-case and qualified by its group unless it is core
    (``default/configmap/web.yaml``, ``default/gizmo.dev.example.com/a.yaml``)."""
    api_version, kind, namespace, name = identity
    group = api_version.rpartition("/")[0]
    folder = kind.lower() + (f".{group}" if group else "")
    return f"{namespace or '_cluster'}/{folder}/{name}.yaml"


@record
class Change:
    """One write's effect on one object, as the loop knows it: ``old`` and ``new`` in
    ``review_view`` form (None: not there)."""

    identity: Identity
    old: Mapping[str, Any] | None
    new: Mapping[str, Any] | None
    #: the reconciled object whose write it was
    key: ev.ObjectKey = ("", "")


def yaml_diff(change: Change) -> list[str]:
    """A unified diff (3 lines of context, no file header) of the object's YAML (keys
    sorted), the status alone for a status write (``Changes`` gives it so)."""
    import difflib

    from kubectl_crd.io.dumping import dump_yaml

    old = dump_yaml(sorted_keys(change.old)).splitlines() if change.old is not None else []
    new = dump_yaml(sorted_keys(change.new)).splitlines() if change.new is not None else []
    if not old or not new:
        # a child's first apply, an object gone: one hunk of every line, which is what
        # difflib would say, without its matching (a third of the diff's time over a
        # thousand new children)
        sign, body = ("+", new) if new else ("-", old)
        if not body:
            return []
        span = f"1,{len(body)}" if len(body) > 1 else "1"
        head = f"@@ -0,0 +{span} @@" if new else f"@@ -{span} +0,0 @@"
        return [head, *(sign + line for line in body)]
    diff = difflib.unified_diff(old, new, lineterm="", n=3)
    return [line for line in diff if not line.startswith(("---", "+++"))]


def json_changes(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """The leaf changes from ``old`` to ``new``: ``{"op": "add"|"remove"|"replace",
    "path": JSON Pointer, "old"?, "new"?}`` (a list that differs is one replace)."""
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        out = []
        for key in [*old, *(k for k in new if k not in old)]:
            where = f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"
            if key not in new:
                out.append({"op": "remove", "path": where, "old": old[key]})
            elif key not in old:
                out.append({"op": "add", "path": where, "new": new[key]})
            else:
                out += json_changes(old[key], new[key], where)
        return out
    if old == new:
        return []
    if old is None:
        return [{"op": "add", "path": path or "/", "new": new}]
    if new is None:
        return [{"op": "remove", "path": path or "/", "old": old}]
    return [{"op": "replace", "path": path or "/", "old": old, "new": new}]


class Changes:
    """What each of the loop's writes changed, followed from the engine's events.

    A child is known by the body the loop applied (what the reconciler asked for) and a
    status by the object the reconcile started from (``lookup(resource, key)``, the
    informer's cache) with the write's merge patch applied: both work on any backend
    and need no read. A child's first apply in this run has no old state; an owned
    child the loop deletes, or a reconciled object gone, has no new one (its children
    go with it, by cascade). A dry run's write is the cached object against the
    server's answer, as ``kubectl diff`` shows it (``_would``), on any backend."""

    def __init__(
        self,
        lookup: Callable[[str, ev.ObjectKey], Mapping[str, Any] | None],
        *,
        out: OutDir | None = None,
        show: bool = True,
    ) -> None:
        self._lookup = lookup
        self.out = out
        #: whether the log shows the changes (with --local), or only --out writes them
        self.show = show
        self._lock = threading.Lock()
        #: key -> the reconciled object as its reconcile started (then as written)
        self._parents: dict[ev.ObjectKey, dict[str, Any]] = {}
        #: child (kind, namespace, name) -> its identity and last applied body
        self._children: dict[tuple[str, str, str], tuple[Identity, dict[str, Any]]] = {}
        #: key -> the children (kind, namespace, name) its reconciles applied
        self._owned: dict[ev.ObjectKey, set[tuple[str, str, str]]] = {}
        #: the objects this run reconciled (and has not seen go): --out keeps the files
        #: of earlier runs that belong to them (see ``OutDir.finish``)
        self._seen: set[ev.ObjectKey] = set()
        #: a dry run writes no file: nothing of an earlier run is then pruned
        self._dry = False

    def event(self, event: ev.Event) -> Change | None:
        """Follow one event; the change a ``Write`` made (for a child, the whole
        object; for a status, ``{"status": ...}`` before and after)."""
        if isinstance(event, ev.ReconcileStarted):
            obj = self._lookup(event.resource, event.key)
            with self._lock:
                self._seen.add(event.key)
                if obj is not None:
                    self._parents[event.key] = review_view(obj)
            return None
        if isinstance(event, ev.ReconcileFinished) and event.outcome is ev.Outcome.GONE:
            self._gone(event.key)
            return None
        if isinstance(event, ev.Stopped):
            if self.out is not None and not self._dry:
                self.out.finish(self._stale)
            return None
        if not isinstance(event, ev.Write):
            return None
        if event.dry_run:
            self._dry = True
            return self._would(event)
        short = (event.kind, event.namespace, event.name)
        if event.verb == "apply" and event.body is not None:
            body = review_view(event.body)
            identity = (str(body.get("apiVersion") or ""), event.kind, *short[1:])
            with self._lock:
                before = self._children.get(short)
                self._children[short] = (identity, body)
                self._owned.setdefault(event.key, set()).add(short)
            change = Change(identity, before[1] if before else None, body, event.key)
            if self.out is not None:
                self.out.write(identity, body, owner=event.key, child=True)
            return change
        if event.verb == "delete":
            with self._lock:
                before = self._children.pop(short, None)
                self._owned.get(event.key, set()).discard(short)
            if before is None:
                # applied by an earlier run (a converged restart applies nothing): its
                # file, if that run wrote one, goes
                if self.out is not None:
                    self.out.remove_earlier(event.kind, event.namespace, event.name)
                return None
            if self.out is not None:
                self.out.remove(before[0])
            return Change(before[0], before[1], None, event.key)
        if event.verb == "status" and event.body is not None:
            from kubectl_crd.reconcile.localstore import apply_merge_patch

            with self._lock:
                parent = self._parents.get(event.key)
                if parent is None:
                    return None
                old_status = parent.get("status")
                status = apply_merge_patch(old_status or {}, event.body.get("status") or {})
                parent = {**parent, "status": status}
                self._parents[event.key] = parent
            identity = (str(parent.get("apiVersion") or ""), event.kind, *short[1:])
            if self.out is not None:
                self.out.write(identity, parent, owner=event.key)
            old = {"status": old_status} if old_status is not None else None
            return Change(identity, old, {"status": status}, event.key)
        return None

    def _would(self, event: ev.Write) -> Change | None:
        """A dry run's change, as ``kubectl diff`` shows one (kubectl's
        pkg/cmd/diff/diff.go: the live object against the server's answer to a dry
        run): the object as the loop's cache holds it against the write's ``answer``
        (a delete's answer is the object it would remove). Nothing is recorded and no
        file written: the run wrote nothing."""
        answer = event.answer
        if answer is None:
            return None
        api_version = str(answer.get("apiVersion") or "")
        identity = (api_version, event.kind, event.namespace, event.name)
        if event.verb == "apply":
            live = self._lookup(f"{api_version}/{event.kind}", (event.namespace, event.name))
            old = review_view(live) if live is not None else None
            return Change(identity, old, review_view(answer), event.key)
        if event.verb == "delete":
            return Change(identity, review_view(answer), None, event.key)
        if event.verb == "status":
            with self._lock:
                parent = self._parents.get(event.key)
            old_status = parent.get("status") if parent is not None else None
            new_status = answer.get("status")
            return Change(
                identity,
                {"status": old_status} if old_status is not None else None,
                {"status": new_status} if new_status is not None else None,
                event.key,
            )
        return None

    def _stale(self, entry: OutEntry) -> bool:
        """Whether a file an earlier run wrote no longer stands for anything: its
        object (or, for a child, its owner) was not reconciled in this run, or is
        gone; or it is a child the cache no longer holds (a --local run starts from
        DIR: a child no longer desired was never made). A child of an object
        reconciled here that the cluster still holds stays (a converged restart
        applies nothing, and a child the loop deletes is removed when it does)."""
        with self._lock:
            if entry.owner not in self._seen:
                return True
        if not entry.child:
            return False
        api_version, kind, namespace, name = entry.identity
        return self._lookup(f"{api_version}/{kind}", (namespace, name)) is None

    def _gone(self, key: ev.ObjectKey) -> None:
        with self._lock:
            self._seen.discard(key)
            parent = self._parents.pop(key, None)
            owned = self._owned.pop(key, set())
            children = [self._children.pop(short, None) for short in owned]
        if self.out is None:
            return
        if parent is not None:
            meta = parent.get("metadata") or {}
            kind = str(parent.get("kind") or "")
            self.out.remove(
                (
                    str(parent.get("apiVersion") or ""),
                    kind,
                    str(meta.get("namespace") or ""),
                    key[1],
                )
            )
        for child in children:
            if child is not None:
                self.out.remove(child[0])


@record
class OutEntry:
    """One file ``--out`` wrote, as its index keeps it: the object's identity, the
    reconciled object (namespace, name) whose write it was, whether it is a child (or
    the reconciled object itself, with its status), and its text's SHA-256."""

    identity: Identity
    owner: ev.ObjectKey
    child: bool
    sha256: str


class OutDir:
    """``--out DIR``: each object the loop wrote as one YAML file (``out_path``; keys
    sorted, as ``kubectl get -o yaml`` writes them), rewritten when it changes and
    removed when the object goes. A file is written to a temporary name then renamed,
    so a reader never sees half of it.

    What it wrote is kept in an index in DIR (``INDEX``, JSON): the next run removes a
    file an earlier run wrote that no longer stands for anything (``finish``, at the
    loop's end: a child no longer desired, an object deleted meanwhile), and only such
    a file: one the index does not name, or whose text changed since it was written
    (a person's edit), is never removed."""

    #: the index's name in DIR (a dot file: not an object's path, which has folders)
    INDEX = ".kubectl-crd-out.json"

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.written: set[str] = set()
        self._lock = threading.Lock()
        #: relative path -> entry, of this run's files
        self._entries: dict[str, OutEntry] = {}
        #: relative path -> entry, of the files earlier runs wrote (the index read)
        self._earlier: dict[str, OutEntry] = self._read_index()
        self._finished = False

    def path(self, identity: Identity) -> str:
        import os

        return os.path.join(self.directory, *out_path(identity).split("/"))

    def write(
        self,
        identity: Identity,
        obj: Mapping[str, Any],
        *,
        owner: ev.ObjectKey = ("", ""),
        child: bool = False,
    ) -> None:
        import hashlib
        import os

        from kubectl_crd.io.dumping import dump_yaml

        path = self.path(identity)
        text = dump_yaml(sorted_keys(obj))
        digest = hashlib.sha256(text.encode()).hexdigest()
        with self._lock:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            temporary = path + ".tmp"
            with open(temporary, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(temporary, path)
            self.written.add(path)
            self._entries[out_path(identity)] = OutEntry(identity, owner, child, digest)
            if self._finished:  # a write after the loop's end: the index follows it
                self._write_index()

    def remove(self, identity: Identity) -> None:
        relative = out_path(identity)
        with self._lock:
            self._entries.pop(relative, None)
            self._earlier.pop(relative, None)
            self._remove(self.path(identity))
            if self._finished:
                self._write_index()

    def remove_earlier(self, kind: str, namespace: str, name: str) -> None:
        """Remove the file an earlier run wrote for the child ``kind`` ``namespace/name``
        (the loop deleted it), if the index names one and it is unchanged."""
        with self._lock:
            for relative, entry in list(self._earlier.items()):
                same = entry.child and entry.identity[1:] == (kind, namespace, name)
                if same and self._unchanged(relative, entry):
                    del self._earlier[relative]
                    self._remove(self._full(relative))

    def finish(self, stale: Callable[[OutEntry], bool]) -> None:
        """The loop's end: remove the files of earlier runs not rewritten by this one
        that ``stale`` says stand for nothing any more (and are unchanged since they
        were written), then write the index of the files DIR now holds from us."""
        with self._lock:
            earlier = {k: v for k, v in self._earlier.items() if k not in self._entries}
        gone = [relative for relative, entry in earlier.items() if stale(entry)]
        with self._lock:
            for relative in gone:
                entry = self._earlier.pop(relative)
                if self._unchanged(relative, entry):
                    self._remove(self._full(relative))
            self._finished = True
            self._write_index()

    # -- pieces (under the lock) ------------------------------------------------------

    def _full(self, relative: str) -> str:
        import os

        return os.path.join(self.directory, *relative.split("/"))

    def _unchanged(self, relative: str, entry: OutEntry) -> bool:
        import hashlib

        try:
            with open(self._full(relative), "rb") as handle:
                return hashlib.sha256(handle.read()).hexdigest() == entry.sha256
        except OSError:
            return False

    def _remove(self, path: str) -> None:
        import contextlib
        import os

        self.written.discard(path)
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)
        # an emptied kind or namespace folder goes too
        with contextlib.suppress(OSError):
            folder = os.path.dirname(path)
            os.rmdir(folder)
            os.rmdir(os.path.dirname(folder))

    def _read_index(self) -> dict[str, OutEntry]:
        import os

        try:
            with open(os.path.join(self.directory, self.INDEX), encoding="utf-8") as handle:
                data = json.load(handle)
            files = data["files"]
            return {
                str(relative): OutEntry(
                    tuple(str(part) for part in item["identity"]),  # type: ignore[arg-type]
                    (str(item["owner"][0]), str(item["owner"][1])),
                    bool(item["child"]),
                    str(item["sha256"]),
                )
                for relative, item in files.items()
                # only what out_path makes: an index edited to name another file is not
                # followed there
                if relative == out_path(tuple(str(p) for p in item["identity"]))  # type: ignore[arg-type]
            }
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            return {}  # none yet, or unreadable: nothing of an earlier run is removed

    def _write_index(self) -> None:
        import os

        files = {**self._earlier, **self._entries}
        body = {
            "comment": "files kubectl crd dev --out wrote here; it removes them when "
            "their objects go",
            "files": {
                relative: {
                    "identity": list(entry.identity),
                    "owner": list(entry.owner),
                    "child": entry.child,
                    "sha256": entry.sha256,
                }
                for relative, entry in sorted(files.items())
            },
        }
        path = os.path.join(self.directory, self.INDEX)
        if not body["files"]:
            import contextlib

            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
            return
        os.makedirs(self.directory, exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as handle:
            json.dump(body, handle, indent=1)
            handle.write("\n")
        os.replace(path + ".tmp", path)


class Tally:
    """What a run did, counted from its events (``--once``'s summary and exit code):
    the objects reconciled, the reconciles, the writes, the failed reconciles, the
    problems of the input (``--local`` DIR's files), the ``WATCHES`` mappings that
    raised (``WatchError`` with ``retrying`` false: the user's code failed, and the
    parents that object maps to may not have been reconciled), and each object's last
    outcome. A reconcile that ran past ``--reconcile-timeout`` and is not run again (``--once``:
    ``ReconcileTimedOut.again`` false) is a failed one from then on, whatever it returns
    later: the bound the user set was broken, and the run does not wait for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reconciles = 0
        self.writes = 0
        self.errors = 0
        self.problems = 0
        self.watches_errors = 0
        #: key -> the outcome of its last reconcile
        self.outcomes: dict[ev.ObjectKey, ev.Outcome] = {}
        #: the keys whose reconcile in flight ran past the timeout, not to run again
        self._late: set[ev.ObjectKey] = set()

    def count(self, event: ev.Event) -> None:
        with self._lock:
            if isinstance(event, ev.ReconcileFinished):
                if event.key in self._late:  # counted when it timed out
                    self._late.discard(event.key)
                    return
                if event.outcome is ev.Outcome.GONE:
                    self.outcomes.pop(event.key, None)
                    return
                self._reconciled(event.key, event.outcome)
            elif isinstance(event, ev.ReconcileTimedOut) and not event.again:
                self._late.add(event.key)
                self._reconciled(event.key, ev.Outcome.ERROR)
            elif isinstance(event, ev.Write):
                self.writes += 1
            elif isinstance(event, ev.WatchError) and not event.retrying:
                self.watches_errors += 1

    def _reconciled(self, key: ev.ObjectKey, outcome: ev.Outcome) -> None:
        self.reconciles += 1
        self.outcomes[key] = outcome
        if outcome is not ev.Outcome.SUCCESS:
            self.errors += 1

    def problem(self) -> None:
        with self._lock:
            self.problems += 1

    @property
    def failing(self) -> list[ev.ObjectKey]:
        """The objects whose last reconcile did not succeed."""
        with self._lock:
            return sorted(k for k, o in self.outcomes.items() if o is not ev.Outcome.SUCCESS)

    @property
    def clean(self) -> bool:
        return not self.problems and not self.watches_errors and not self.failing

    def wrap(
        self, sink: Callable[[ev.Event], None], *, once: bool = False
    ) -> Callable[[ev.Event], None]:
        """``sink`` counting through this tally first; with ``once``, a failed
        reconcile's backoff requeue is not told (the run ends before it)."""

        def counting(event: ev.Event) -> None:
            self.count(event)
            if once and isinstance(event, ev.Requeued) and event.reason == "error":
                return
            sink(event)

        return counting

    def summary(self) -> dict[str, Any]:
        with self._lock:
            objects = len(self.outcomes)
            body: dict[str, Any] = {
                "objects": objects,
                "reconciles": self.reconciles,
                "writes": self.writes,
                "errors": self.errors,
                "problems": self.problems,
            }
            if self.watches_errors:  # only then: the summary's keys stay as they were
                body["watches_errors"] = self.watches_errors
        body["failed"] = [ev.key_text(key) for key in self.failing]
        return body


#: how often an idle log's flusher looks whether the reader of its pipe is gone
_READER_LOOKS_SECONDS = 0.5


def _reader_gone(stream: object) -> bool:
    """``stream`` is a pipe or socket whose reading end is closed: ``poll`` reports an
    error or hang-up on the writing end (Linux fs/pipe.c pipe_poll: EPOLLERR with no
    readers), without writing anything. False for anything else."""
    import os
    import select
    import stat

    poll = getattr(select, "poll", None)
    fileno = getattr(stream, "fileno", None)
    if poll is None or fileno is None:
        return False
    try:
        fd = fileno()
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return False
        poller = poll()
        poller.register(fd, 0)  # errors and hang-ups are always reported
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError):  # a closed stream, a stream without a descriptor
        return False


class DevLog:
    """An ``EventSink`` writing each event to ``stream`` (see the module docstring).

    When the stream's reader is gone (``kubectl crd dev r.py | head``) the log writes
    nothing more and calls ``on_broken`` once (the command stops the loop), instead of
    failing in the engine's threads on every event.

    With ``flush_after`` (seconds), lines are kept and written together that long after
    the first of them, by a thread of the log's own; ``flush`` and ``close`` write what
    is kept at once. A write per line lets go of the GIL on every event, and every
    thread of the loop then takes its turn: with ``--local --once`` over 1,000 Foos
    (7,000 lines) 7,000 context switches and 0.3 s of its 1.5 s, against 1,300-3,000
    switches written together (bench/local_bench.py)."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        format: str = "text",
        colour: bool | None = None,
        verbose: bool = False,
        timestamps: bool = True,
        clock: Callable[[], float] = time.time,
        environ: Mapping[str, str] | None = None,
        on_broken: Callable[[], None] | None = None,
        changes: Changes | None = None,
        on_change: Callable[[ev.Write, list[str]], None] | None = None,
        flush_after: float | None = None,
        dry_run_words: str = "server dry run",
    ) -> None:
        if format not in FORMATS:
            raise ValueError(f"unknown log format {format!r}")
        self._stream: TextIO = stream if stream is not None else sys.stderr
        self.format = format
        self.colour = colour_wanted(self.stream, environ) if colour is None else colour
        self.verbose = verbose
        #: what a dry run's write line says it was: "dry run" with --local (no server)
        self.dry_run_words = dry_run_words
        self.timestamps = timestamps
        self._clock = clock
        self._lock = threading.Lock()
        self._broken = False
        self._flush_after = flush_after
        #: the lines kept for the flusher (``flush_after``), and its wake-up
        self._pending: list[str] = []
        self._due = threading.Event()
        #: set by ``close``: the flusher's wait between a line and its write ends at once
        #: (a sleep there held every exit of the loop up to ``flush_after``)
        self._closing = threading.Event()
        self._flusher: threading.Thread | None = None
        self._closed = False
        #: the last whole second stamped and its HH:MM:SS (``_text``)
        self._second = -1
        self._clock_text = ""
        self._on_broken = on_broken
        #: with --local: each write's change, shown under its line (a diff, or in JSON
        #: the ``changes`` field); with --out, written to files
        self.changes = changes
        #: each write's line and diff, as the log would write them (coloured when it
        #: is, no time stamp), also when it does not show them: the dashboard shows
        #: the selected object's last ones
        self.on_change = on_change

    def __call__(self, event: ev.Event) -> None:
        now = self._clock()
        change = self.changes.event(event) if self.changes is not None else None
        if change is not None and self.on_change is not None and isinstance(event, ev.Write):
            shown = [
                *event_lines(event, dry_run_words=self.dry_run_words),
                *_diff_lines(yaml_diff(change)),
            ]
            self.on_change(event, [self._line(spans) for spans in shown])
        if change is not None and self.changes is not None and not self.changes.show:
            change = None
        if self.format == "json":
            body = event_json(event, now=now)
            if change is not None:
                body["changes"] = json_changes(change.old or {}, change.new or {})
            text = _ENCODER.encode(body) + "\n"
        else:
            lines = event_lines(event, verbose=self.verbose, dry_run_words=self.dry_run_words)
            if not lines:
                return
            if change is not None:
                lines += _diff_lines(yaml_diff(change))
            text = self._text(lines, now)
        self._write(text)

    def note(self, message: str, *, warning: bool = False) -> None:
        """A line of the command's own (the envtest kubeconfig, how to stop)."""
        style = _WARN if warning else _P
        if self.format == "json":
            kind = "warning" if warning else "note"
            text = json.dumps({"time": round(self._clock(), 6), "event": kind, "message": message})
            text += "\n"
        else:
            text = self._text([((message, style),)], self._clock())
        self._write(text)

    def server_warning(self, text: str) -> None:
        """A warning the server sent with its answer (a Warning header's text; the
        ``--local`` store's own, worded alike), as kubectl prints one: ``Warning: text``
        (k8s.io/client-go rest/warnings.go, the writer kubectl sets up)."""
        self.note(f"Warning: {text}", warning=True)

    def problem(self, where: Location, message: str) -> None:
        """An error in the input that does not stop the loop (a ``--local`` file's
        object that does not validate): ``file:line:column: error: message``."""
        if self.format == "json":
            body = {"time": round(self._clock(), 6), "event": "problem"}
            body.update(file=where.file, line=where.line, column=where.column)
            body["message"] = message
            text = json.dumps(body) + "\n"
        else:
            text = self._text([((f"{where}: error: {message}", _BAD),)], self._clock())
        self._write(text)

    def summary(self, tally: Tally) -> None:
        """``--once``'s last line: ``2 objects, 3 reconciles, 4 writes, 0 errors``."""
        counts = tally.summary()
        if self.format == "json":
            text = json.dumps({"time": round(self._clock(), 6), "event": "summary", **counts})
            self._write(text + "\n")
            return
        parts = [
            _plural(counts["objects"], "object"),
            _plural(counts["reconciles"], "reconcile"),
            _plural(counts["writes"], "write"),
            _plural(counts["errors"], "error"),
        ]
        if counts["problems"]:
            parts.append(_plural(counts["problems"], "input problem"))
        if counts.get("watches_errors"):
            parts.append(_plural(counts["watches_errors"], "WATCHES error"))
        text = ", ".join(parts)
        failed = counts["failed"]
        if failed:
            text += f"; failed: {', '.join(failed)}"
        style = _OK if tally.clean else _BAD
        self._write(self._text([((text, style),)], self._clock()))

    @property
    def stream(self) -> TextIO:
        return self._stream

    @stream.setter
    def stream(self, stream: TextIO) -> None:
        """Write to ``stream`` from now on; what was kept goes to the one before."""
        self.flush()
        self._stream = stream

    def flush(self) -> None:
        """Write the lines kept (``flush_after``) now."""
        self._write("")

    def close(self) -> None:
        """Write what is kept and stop the flusher; later lines are written at once."""
        self.flush()
        with self._lock:
            self._closed = True
            flusher, self._flusher = self._flusher, None
        self._closing.set()
        self._due.set()
        if flusher is not None and flusher is not threading.current_thread():
            flusher.join()

    def _write(self, text: str) -> None:
        with self._lock:
            if self._broken:
                return
            if self._flush_after is not None and not self._closed and text:
                self._pending.append(text)
                if len(self._pending) == 1:
                    if self._flusher is None:
                        self._flusher = threading.Thread(
                            target=self._flush_later, name="log flusher", daemon=True
                        )
                        self._flusher.start()
                    self._due.set()
                return
            if self._pending:
                text = "".join(self._pending) + text
                self._pending.clear()
            if not text:
                return
            try:
                self._stream.write(text)
                self._stream.flush()
            except (BrokenPipeError, ValueError):  # a reader gone (| head), a closed stream
                broken = self._break()
            else:
                return
        if broken is not None:
            broken()

    def _break(self) -> Callable[[], None] | None:
        """Mark the log broken (the lock held); ``on_broken`` to call after letting go of
        the lock, the first time only."""
        if self._broken:
            return None
        self._broken = True
        return self._on_broken

    def _flush_later(self) -> None:
        assert self._flush_after is not None
        while True:
            if not self._due.wait(_READER_LOOKS_SECONDS):
                # idle: a reader gone is found without a write (``kubectl crd dev ... |
                # head -3`` gets its lines in one write, and the loop may write nothing
                # more for hours; it stops as on a failed write)
                if _reader_gone(self._stream):
                    with self._lock:
                        broken = None if self._closed else self._break()
                    if broken is not None:
                        broken()
                    return
                continue
            with self._lock:
                if self._closed:
                    return
                self._due.clear()
            self._closing.wait(self._flush_after)  # the lines of that while go together
            self.flush()

    def _line(self, spans: Line) -> str:
        return ansi_line(spans) if self.colour else "".join([chunk for chunk, _ in spans])

    def _text(self, lines: list[Line], now: float) -> str:
        stamp = ""
        if self.timestamps:
            second = int(now)
            if second != self._second:  # strftime once a second, not once a line
                self._second = second
                self._clock_text = time.strftime("%H:%M:%S", time.localtime(now))
            stamp = f"{self._clock_text}.{int(now * 1000) % 1000:03d} "
        out = []
        pad = " " * len(stamp)
        for index, spans in enumerate(lines):
            prefix = stamp if index == 0 else pad
            if self.colour:
                out.append(ansi_line(((prefix, _TIME), *spans) if prefix else spans))
            else:
                out.append(prefix + "".join([chunk for chunk, _ in spans]))
        return "\n".join(out) + "\n"
