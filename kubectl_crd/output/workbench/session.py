"""The workbench's state and every answer it shows, free of any UI library.

A ``Session`` holds one CRD version (its published schema, as ``explain`` reads it)
and one custom-resource file. It answers what the screen draws:

- the field tree, one level at a time (``children``: ``model.explain``'s FIELDS order,
  so a node of argo-workflows' Workflow costs microseconds however big the schema is),
  every field path for the finder (``paths``, ``explain -i``'s list), and a field's
  explanation with the extras (``explanation``: kubectl's plaintext, then the details
  section of ``explain``);
- ``check_text``: a text (the editor pane's, or the file's: ``check``) read with
  positions (``io``), its chosen object of the CRD's kind (``document``: the first by
  default; ``d`` on the screen cycles) put through the admission step
  (``validation.admission``) as a create, or with an old object (``--old``'s file, or
  the live object of ``--against-cluster``: an ``OldObjects``) as an update of it
  (transition rules, ratcheting): every error with its
  line, column and the field in the tree it belongs to; the rows ``kubectl get`` and
  ``kubectl get -o wide`` would print (``model.columns``, ``output.table``); the
  object as the server would store it, with what it would not keep (pruned, or a status
  split off) and what defaulting or the server adds.

A file that is not YAML, holds another kind, is empty or is gone is a ``Check`` with a
``message``, never an exception. Nothing here writes the user's file but
``create_from_sample`` (only a file that does not exist: ``open(..., "x")``) and
``Session.save`` (the screen's save key, with the editor pane's text).

Edits of the editor pane that the workbench could not ask about (its terminal went
away, it was sent SIGTERM, it crashed) are kept beside the file, in ``FILE.unsaved``
(``keep_unsaved``), never over it; the next workbench on the file offers them back
(``read_unsaved``), and the copy is removed once its edits are saved or discarded
(``drop_unsaved``).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
from kubectl_crd.model.explain.target import ExplainTarget
from kubectl_crd.model.schema import FieldPath
from kubectl_crd.model.styled import Line

#: the suffix of the file that keeps edits nobody could be asked about (``keep_unsaved``)
UNSAVED_SUFFIX = ".unsaved"
#: kube-apiserver's field path segments: ``spec.items[0].name``, ``metadata.labels[a.b/c]``
_INDEX = re.compile(r"\[[^\]]*\]")


@dataclass(frozen=True, slots=True)
class Problem:
    """One error of the object: where (1-based; 0 when unknown), the server's field and
    message, the field path in the tree it belongs to, and whether the server would
    have stopped at an earlier stage before reporting it (``blocked``)."""

    line: int
    column: int
    field: str
    message: str
    tree_path: FieldPath = ()
    blocked: bool = False

    @property
    def where(self) -> str:
        return f"{self.line}:{self.column}" if self.line else "-"


@dataclass(frozen=True, slots=True)
class Check:
    """What one look at the file found.

    ``message`` says why there is no object to check (the file is gone, not YAML, of
    another kind, empty); ``problems`` are the object's errors (or the YAML error with
    its position); ``valid`` is the admission's answer. ``get`` and ``wide`` are the
    texts ``kubectl get`` and ``kubectl get -o wide`` would print for the object
    (computed from what the file says when the server would refuse it, as
    ``get -f`` does). ``stored`` is the object as the server would store it (None when
    refused); ``not_stored`` lists the leaf paths of the file the server would not keep
    (pruned, or a status a status subresource drops) and ``added`` those defaulting
    or the server set.
    """

    message: str = ""
    valid: bool = False
    problems: tuple[Problem, ...] = ()
    warnings: tuple[str, ...] = ()
    get: str = ""
    wide: str = ""
    stored: Any = None
    not_stored: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    operation: str = "create"
    refusal: str = ""
    #: which object of the CRD's kind was checked (1-based) of how many the text holds
    document: int = 0
    documents: int = 0
    #: why the check is not what was asked (the cluster unreachable, no live object)
    note: str = ""
    #: the CRD version the object is written in (its tree paths are that version's);
    #: empty when the object names no version the CRD has
    version: str = ""

    @property
    def summary(self) -> str:
        """One line for the status bar."""
        if self.message:
            return self.message
        if self.valid:
            note = f", {len(self.warnings)} warning(s)" if self.warnings else ""
            line = f"valid ({self.operation}){note}"
        else:
            shown = sum(1 for p in self.problems if not p.blocked)
            behind = len(self.problems) - shown
            line = f"invalid ({self.operation}): {shown} error(s) the server reports" + (
                f", {behind} more behind them" if behind else ""
            )
        return f"{line} | {self.note}" if self.note else line


class OldObjects(Protocol):
    """Where an update's old object comes from (``--old FILE``, ``--against-cluster``).

    ``old(session, content)`` answers for the object being written (its name and
    namespace say which) with ``(old, note, problem)``: an old object checks an update;
    None a create, with ``note`` saying why in the status line (the cluster has no such
    object, or cannot be reached); a ``problem`` is shown instead of any check
    (``--old`` names a file without such an object).
    """

    def old(self, session: Session, content: Any) -> tuple[Any, str, str]: ...


@dataclass
class _FileState:
    """The file's identity last time it was read (what ``changed`` compares)."""

    stamp: tuple[int, int, int] | None = None
    texts: dict[str, Any] = field(default_factory=dict)


class Session:
    """One CRD version and one custom-resource file (``old``: the object it updates)."""

    def __init__(
        self,
        target: ExplainTarget,
        path: str,
        *,
        old_path: str | None = None,
        old: OldObjects | None = None,
        namespace: str | None = None,
    ) -> None:
        self.target = target
        self.crd: CustomResourceDefinition = target.crd
        self.version: CRDVersion = _version(target)
        self.path = path
        self.olds: OldObjects | None = OldFile(old_path) if old_path is not None else old
        self.namespace = namespace
        #: which object of the CRD's kind to check (0-based; taken modulo their count)
        self.document = 0
        self._state = _FileState()
        self._paths: tuple[list[FieldPath], list[str]] | None = None
        #: each version's explain target, for an object written in another version
        self._targets: dict[str, ExplainTarget] = {target.version: target}
        self._admission: Any = None
        self._names: Any = None  # the generateName suffixes' generator (random.Random)
        self._written = 0  # resourceVersions the session gave (a create's: the count)
        self._after = ""  # the old object's resourceVersion, during an update's check
        self._seed = 0
        self._now = time.time()

    # -- the field tree -----------------------------------------------------------------

    @property
    def title(self) -> str:
        gvk = self.target.gvk
        return f"{gvk.kind} ({gvk.api_version})"

    def children(self, path: FieldPath) -> list[tuple[str, bool]]:
        """The fields under ``path``: ``(name, has fields of its own)``, kubectl's order."""
        from kubectl_crd.model.explain.target import field_entries

        published = self.target.published
        schema = self._schema(path)
        if schema is None:
            return []
        out: list[tuple[str, bool]] = []
        seen: set[str] = set()
        for name, child, _ in field_entries(published, schema):
            if name in seen:
                continue
            seen.add(name)
            has = next(iter(field_entries(published, child)), None) is not None
            out.append((name, has))
        return out

    def finder_lists(self) -> tuple[list[FieldPath], list[str]]:
        """Every field path (``explain -i``'s list), and each as the finder ranks it
        (``spec.template.name``): one pair, computed once per version, on first search
        (the search ranks them in a worker thread)."""
        lists = self._paths
        if lists is None:
            from kubectl_crd.model.explain.finder import field_paths, path_text

            paths = field_paths(self.target.published)
            lists = self._paths = (paths, [path_text(path) for path in paths])
        return lists

    def explanation(self, path: FieldPath) -> list[Line]:
        """kubectl explain's text for ``path``, then the extras (default, enum, pattern,
        bounds, CEL rules, ...), as ``explain`` prints them."""
        from kubectl_crd.model.explain.details import explain_details
        from kubectl_crd.model.explain.detailtext import details_lines
        from kubectl_crd.model.explain.plaintext import render_plaintext
        from kubectl_crd.model.styled import Style, text_lines

        try:
            chosen = self._target_at(path)
            return text_lines(render_plaintext(chosen)) + details_lines(explain_details(chosen))
        except Exception as exc:  # an explanation must never end the UI
            return [((f"cannot explain {'.'.join(path)}: {exc}", Style.WARNING),)]

    def tree_path(self, server_field: str, target: ExplainTarget | None = None) -> FieldPath:
        """The longest field path of the tree (of ``target``'s version, else the one
        shown) that a server field path (``spec.items[0].name``, ``.spec.replicas``,
        ``<nil>``) starts with."""
        text = _INDEX.sub("", server_field.strip().lstrip("."))
        if not text or text.startswith("<"):
            return ()
        found: FieldPath = ()
        for part in text.split("."):
            candidate = (*found, part)
            if self._schema(candidate, target) is None:
                break
            found = candidate
        return found

    def use_version(self, version: str) -> None:
        """Show ``version``'s fields (the version the file's object is written in:
        its errors are that version's schema's, as the server checks an object in the
        version it names)."""
        target = self._target_of(version)
        if target is None or target is self.target:
            return
        self.target, self.version, self._paths = target, _version(target), None

    def _target_of(self, version: str) -> ExplainTarget | None:
        """``version``'s explain target (None: the CRD has no such version). Called
        from the checking thread and the screen's: a dict entry set twice is harmless."""
        known = self._targets.get(version)
        if known is None and self.crd.version(version) is not None:
            from kubectl_crd.model.explain.published import publish

            known = ExplainTarget(self.crd, version, publish(self.crd, version))
            self._targets[version] = known
        return known

    def _target_at(self, path: FieldPath, target: ExplainTarget | None = None) -> ExplainTarget:
        from kubectl_crd.model.explain.fieldpath import walk

        target = target or self.target
        return ExplainTarget(
            target.crd, target.version, target.published, path, walk(target.published, path)
        )

    def _schema(self, path: FieldPath, target: ExplainTarget | None = None) -> Any:
        from kubectl_crd.model.errors import KubectlCrdError

        if not path:
            return (target or self.target).published.root
        try:
            return self._target_at(path, target).schema
        except KubectlCrdError:
            return None

    # -- the file -------------------------------------------------------------------------

    def disk_stamp(self) -> tuple[int, int, int] | None:
        """The file's identity now (mtime, size, inode; None when it is gone)."""
        return _stamp(self.path)

    def changed(self) -> bool:
        """Whether the file differs from the last ``check`` (mtime, size or inode: an
        editor that saves by renaming a new file over it counts too)."""
        return _stamp(self.path) != self._state.stamp

    def read(self) -> tuple[str | None, str]:
        """The file's text, or None and why not (gone, unreadable); what ``changed``
        compares with from now on. Bytes that are not UTF-8 read as U+FFFD (the
        message then says so: saving that text would change those bytes)."""
        self._state.stamp = _stamp(self.path)
        try:
            with open(self.path, "rb") as stream:
                data = stream.read()
        except FileNotFoundError:
            return None, f"{self.path} is gone (deleted or renamed); waiting for it to come back"
        except OSError as exc:
            return None, f"cannot read {self.path}: {exc.strerror or exc}"
        try:
            return data.decode("utf-8"), ""
        except UnicodeDecodeError as exc:
            return data.decode("utf-8", "replace"), f"{self.path} is not UTF-8 ({exc.reason})"

    def save(self, text: str) -> None:
        """Write ``text`` to the file (the screen's save key, nothing else): in place,
        so the file keeps its inode, owner and mode; ``changed`` is False after it."""
        with open(self.path, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        self._state.stamp = _stamp(self.path)

    @property
    def unsaved_path(self) -> str:
        """Where the editor pane's edits go when nobody could be asked about them."""
        return self.path + UNSAVED_SUFFIX

    def keep_unsaved(self, text: str) -> None:
        """Write ``text`` to ``FILE.unsaved``: whole or not at all (a temporary file
        renamed over it), readable by its owner only (the edits may hold a secret)."""
        temporary = f"{self.unsaved_path}.{os.getpid()}.tmp"
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with open(descriptor, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
            os.replace(temporary, self.unsaved_path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def read_unsaved(self) -> str | None:
        """The edits kept in ``FILE.unsaved`` by an earlier workbench, or None."""
        try:
            with open(self.unsaved_path, "rb") as stream:
                return stream.read().decode("utf-8", "replace")
        except OSError:  # none (or unreadable: nothing to offer)
            return None

    def drop_unsaved(self) -> None:
        """Remove ``FILE.unsaved``: its edits were saved or discarded."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.unsaved_path)

    def check(self) -> Check:
        """Read the file and answer as the API server would (see the module docstring)."""
        text, message = self.read()
        if text is None or message:
            return Check(message=message)
        return self.check_text(text)

    def check_text(self, text: str) -> Check:
        """Answer for ``text`` (the file's, or the editor pane's unsaved one)."""
        from kubectl_crd.io import load_documents

        documents = load_documents(text, self.path)
        chosen, message, problems, (index, count) = self._document(documents, self.document)
        if chosen is None:
            return Check(message=message, problems=problems)
        check = self._admit(chosen)
        return _replace(check, document=index + 1, documents=count)

    def _document(
        self, documents: Sequence[Any], wanted: int = 0
    ) -> tuple[Any, str, tuple[Problem, ...], tuple[int, int]]:
        """The ``wanted``-th document of the CRD's kind (modulo their number), or why
        there is none; with (its index, how many there are)."""
        kind, group = self.crd.names.kind, self.crd.group
        others: list[str] = []
        mine: list[Any] = []
        for document in documents:
            content = document.content
            if document.error is not None and not isinstance(content, dict):
                error = document.error
                where = error.location
                line, column = (where.line, where.column) if where else (0, 0)
                problem = Problem(line, column, "", error.message)
                message = f"not YAML this workbench can read: {error.message}"
                return None, message, (problem,), (0, 0)
            if not isinstance(content, dict):
                if content is not None:
                    others.append(f"a {type(content).__name__}")
                continue
            written_kind = str(content.get("kind") or "")
            written_group = str(content.get("apiVersion") or "").rpartition("/")[0]
            if written_kind == kind and written_group == group:
                mine.append(document)
                continue
            others.append(f"{content.get('apiVersion') or '?'} {written_kind or '(no kind)'}")
        if mine:
            index = wanted % len(mine)
            return mine[index], "", (), (index, len(mine))
        if others:
            return (
                None,
                f"no {group} {kind} in the file: it holds {', '.join(others)}",
                (),
                (0, 0),
            )
        return None, "the file is empty: write a " + kind + " (or press e to edit it)", (), (0, 0)

    def _admission_step(self) -> Any:
        from kubectl_crd.validation.admission import Admission

        if self._admission is None:
            import random
            import uuid

            # one clock for the object and its row, as get -f: a create's
            # creationTimestamp is this check's now, so AGE reads 0s. One uid and one
            # generateName suffix for the session (the generator seeded again before
            # each check): a pause in typing must not rename the object on the screen
            uid = str(uuid.uuid4())
            self._names = random.Random()
            self._seed = random.getrandbits(64)
            self._admission = Admission(
                self.crd,
                clock=lambda: self._now,
                uids=lambda: uid,
                rng=self._names,
                resource_versions=self._next_resource_version,
            )
        return self._admission

    def _next_resource_version(self) -> str:
        """The stored object's resourceVersion: after the old object's when it has a
        number (a live object at 644 is stored at 645, as etcd's revision only grows),
        else the session's own count."""
        self._written += 1
        after = self._after
        return str(int(after) + 1) if after.isdigit() else str(self._written)

    def _admit(self, document: Any) -> Check:
        self._now = time.time()
        admission = self._admission_step()
        self._names.seed(self._seed)
        content = document.content
        operation = "create"
        old, note, problem = (None, "", "")
        if self.olds is not None:
            old, note, problem = self.olds.old(self, content)
            if problem:
                return Check(message=problem)
        # each check counts from 0: the stored view does not change from check to check
        self._after, self._written = _resource_version(old), 0
        if old is not None:
            operation = "update"
            result = admission.update(
                _with_old_version(content, old), old, decode_errors=document.errors
            )
        else:
            result = admission.create(
                content, namespace=self.namespace, decode_errors=document.errors
            )
        errors = result.validation.errors if result.validation is not None else result.errors
        # the object is checked in the version it names: its fields are that version's
        named = str(content.get("apiVersion") or "").rpartition("/")[2]
        target = self._target_of(named)
        problems = [self._problem(e, document.location, target) for e in errors]
        if not result.ok and not problems:
            start = document.location
            problems.append(Problem(start.line, start.column, "", result.message))
        shown = result.object if result.ok else _plain(content)
        get, wide = self._rows(shown)
        not_stored: tuple[str, ...] = ()
        added: tuple[str, ...] = ()
        if result.ok:
            written = set(_leaves(_plain(content)))
            stored = set(_leaves(result.stored))
            not_stored = tuple(sorted(written - stored))
            added = tuple(sorted(stored - written))
        return Check(
            valid=result.ok,
            problems=tuple(problems),
            warnings=tuple(result.warnings),
            get=get,
            wide=wide,
            stored=result.stored if result.ok else None,
            not_stored=not_stored,
            added=added,
            operation=operation,
            refusal="" if result.ok else result.message,
            note=note,
            version=target.version if target is not None else "",
        )

    def _problem(self, error: Any, start: Any, target: ExplainTarget | None) -> Problem:
        # an error without a node of its own (the server's "<nil>" one, when CEL rules
        # were not run) is at its document's start, as validate places it
        where = error.location or start
        line, column = (where.line, where.column) if where is not None else (0, 0)
        return Problem(
            line,
            column,
            error.field,
            error.message,
            self.tree_path(error.field, target),
            error.blocked,
        )

    def _rows(self, obj: Any) -> tuple[str, str]:
        """``kubectl get`` and ``kubectl get -o wide`` for one object."""
        from datetime import UTC, datetime

        from kubectl_crd.model.columns import plan_columns
        from kubectl_crd.output.table import TableOptions, render_table

        plan = plan_columns(self.version.printer_columns)
        now = datetime.fromtimestamp(self._now, UTC)
        if plan.problem:
            problem = f"warning: {plan.problem}\n"
            return problem, problem
        return (
            render_table(plan, [obj], TableOptions(), now),
            render_table(plan, [obj], TableOptions(wide=True), now),
        )

    def admit_create(self, content: Any, errors: Any = ()) -> Any:
        """The admission's answer to a create of ``content`` (what ``--old`` stores)."""
        admission = self._admission_step()
        return admission.create(content, namespace=self.namespace, decode_errors=errors)

    def pick(self, documents: Sequence[Any]) -> tuple[Any, str]:
        """The first object of the CRD's kind in ``documents``, or why there is none."""
        document, message, _, _ = self._document(documents)
        return document, message

    # -- what the file becomes ------------------------------------------------------------


class OldFile:
    """``--old FILE``: its object, as a create would have stored it, is the old object
    of every check (read once)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._answer: tuple[Any, str, str] | None = None

    def old(self, session: Session, content: Any) -> tuple[Any, str, str]:
        if self._answer is None:
            self._answer = self._read(session)
        return self._answer

    def _read(self, session: Session) -> tuple[Any, str, str]:
        from kubectl_crd.io import load_documents

        try:
            with open(self.path, "rb") as stream:
                documents = load_documents(stream.read(), self.path)
        except OSError as exc:
            return None, "", f"--old {self.path}: {exc.strerror or exc}"
        document, message = session.pick(documents)
        if document is None:
            return None, "", f"--old {self.path}: {message}"
        created = session.admit_create(document.content, document.errors)
        if not created.ok:
            message = f"--old {self.path}: a create of it is refused: {created.message}"
            return None, "", message
        return created.stored, "", ""


def create_from_sample(session: Session) -> bool:
    """Write ``kubectl crd sample``'s skeleton to the session's file if it does not
    exist; whether it did (never overwrites: the file is opened with ``"x"``)."""
    from kubectl_crd.io import dump_yaml
    from kubectl_crd.model.sample import build_sample
    from kubectl_crd.validation.sample_checks import checked_sample_options

    if os.path.exists(session.path):
        return False
    sample = build_sample(
        session.crd,
        session.version,
        checked_sample_options(name=None, namespace=session.namespace, all_fields=False),
    )
    text = dump_yaml(sample.value, comments=sample.comments, header=sample.header())
    try:
        with open(session.path, "x", encoding="utf-8") as stream:
            stream.write(text)
    except FileExistsError:
        return False
    return True


def stored_text(check: Check) -> str:
    """The stored object as YAML, then what is not stored and what was added."""
    from kubectl_crd.io import dump_yaml

    if check.stored is None:
        why = check.message or check.refusal or "the server would refuse the object"
        return f"no stored object: {why}\n"
    lines = [dump_yaml(check.stored).rstrip("\n"), ""]
    lines += [f"- not stored: {path}" for path in check.not_stored]
    lines += [f"+ added (default or server): {path}" for path in check.added]
    if not check.not_stored and not check.added:
        lines.append("(everything stored as written, nothing added)")
    return "\n".join(lines) + "\n"


def _replace(check: Check, **changes: Any) -> Check:
    from dataclasses import replace

    return replace(check, **changes)


def _version(target: ExplainTarget) -> CRDVersion:
    version = target.crd.version(target.version)
    assert version is not None  # resolve_target picked a version the CRD has
    return version


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _plain(value: Any) -> Any:
    """``value`` as plain dicts and lists (a ``YamlMap`` is a dict subclass)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _with_old_version(content: Any, old: Any) -> Any:
    """The new object with the old one's resourceVersion when it has none: a custom
    resource's update must name one (``customresource/strategy.go``:
    ``AllowUnconditionalUpdate`` is false), and ``kubectl apply`` sends the live one."""
    meta = content.get("metadata") if isinstance(content, dict) else None
    old_meta = old.get("metadata") if isinstance(old, dict) else None
    if not isinstance(meta, dict) or not isinstance(old_meta, dict):
        return content
    if meta.get("resourceVersion") or not old_meta.get("resourceVersion"):
        return content
    copied = dict(content)
    copied["metadata"] = {**meta, "resourceVersion": old_meta["resourceVersion"]}
    return copied


def _resource_version(obj: Any) -> str:
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    return str(meta.get("resourceVersion") or "") if isinstance(meta, dict) else ""


def _leaves(value: Any, prefix: str = "") -> list[str]:
    """The paths of every scalar (and empty map or list) in ``value``."""
    if isinstance(value, dict) and value:
        out: list[str] = []
        for key, item in value.items():
            out += _leaves(item, f"{prefix}.{key}" if prefix else str(key))
        return out
    if isinstance(value, list) and value:
        out = []
        for index, item in enumerate(value):
            out += _leaves(item, f"{prefix}[{index}]")
        return out
    return [prefix] if prefix else []
