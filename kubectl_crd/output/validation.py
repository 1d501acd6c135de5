"""Printers for validation results: one per ``-o`` format, each ``write(result)`` then ``flush()``.

As kubeconform's ``pkg/output``: the command hands every ``DocumentResult`` to one
printer and calls ``flush`` once at the end; no command formats text itself.

- ``human``: grouped by file, each error at ``file:line:column`` with the source line
  and a caret under the column; coloured on a terminal, never with ``NO_COLOR``.
- ``json``: ``{"resources": [...], "summary": {...}}``, one record per document.
- ``yaml``: each validated object as the API server would store it (pruned and
  defaulted), documents separated by ``---``; problems go to stderr.
- ``junit``: JUnit XML, a test case per document (CI dashboards read it).
- ``sarif``: SARIF 2.1.0, so GitHub code scanning shows errors inline.
- ``github``: GitHub Actions workflow commands (``::error file=...,line=...::``).

Stdlib only, and each printer imports what it needs when it is built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from kubectl_crd.model.errors import Location, invalid_object_head
from kubectl_crd.model.styled import Line, Style
from kubectl_crd.validation.documents import STATUSES, DocumentResult, Summary
from kubectl_crd.validation.results import FieldError

if TYPE_CHECKING:
    from kubectl_crd.io import Document
    from kubectl_crd.validation.scaling import LocalScale

TOOL_NAME = "kubectl-crd"
TOOL_URI = "https://github.com/kubectl-crd/kubectl-crd"


class Printer(Protocol):
    """What every output format implements."""

    def write(self, result: DocumentResult) -> None: ...

    def flush(self) -> None: ...


def _position(location: Location | None) -> tuple[int, int]:
    if location is None:
        return 0, 0
    return location.line, location.column


def _where(result: DocumentResult, error: FieldError | None = None) -> Location:
    if error is not None and error.location is not None:
        return error.location
    return result.location


def rejected(kind: str, name: str) -> str:
    """How an object the API server would refuse is named, in kubectl's words:
    ``The CronTab "broken" is invalid``.

    The one wording of a rejected object, for ``validate``, ``get -f`` and ``scale
    --local`` alike (``rejection_line``, ``problem_lines``), each of its errors a line::

        file:8:13: error: The CronTab "broken" is invalid: spec.replicas: Invalid value: ...

    Of the three wordings these commands had, this keeps what each did best: the
    ``file:line:column: error:`` prefix of ``validate`` (what editors, CI problem
    matchers and ``grep`` read: GCC's shape, which VS Code's ``$gcc`` matcher and
    Vim's and Emacs's error formats parse, severity included, so the line of a
    rejected object reads as ``error`` beside validate's ``warning`` and ``skipped``
    lines), and after it the sentence kubectl itself prints for a 422 Invalid answer
    (``cmdutil.CheckErr``: ``The CronTab "broken" is invalid: spec.x: ...``), which
    ``scale --local`` used, so a user who knows kubectl's message finds it word for
    word. ``get -f``'s ``error: file:l:c: CronTab/broken:`` put the severity first,
    where no editor looks for it, and ``CronTab/broken`` is no name kubectl prints.
    Several errors are one line each, at the node each one is about (kubectl joins
    them as ``[a, b]`` on one line: a list nobody can jump to).
    """
    return invalid_object_head(kind, name)


def rejection_text(kind: str, name: str, error: FieldError) -> str:
    """One error of a rejected object, without its place (SARIF and GitHub give that
    apart): ``The CronTab "broken" is invalid: spec.replicas: ...``."""
    return f"{rejected(kind, name)}: {error_text(error)}"


def rejection_line(where: Location, kind: str, name: str, error: FieldError) -> str:
    """One error of a rejected object, as a line (see ``rejected``)."""
    return f"{where}: error: {rejection_text(kind, name, error)}"


def scale_rejections(documents: Sequence[Document], scaled: Sequence[LocalScale]) -> list[str]:
    """``scale --local``'s refused objects (``validation.scaling``, one per document): a
    line for each error (``rejection_line``, at the document when the error has no
    place), one for a refusal without causes."""
    lines: list[str] = []
    for document, each in zip(documents, scaled, strict=True):
        where, short = document.location, each.name.rpartition("/")[2]
        for error in each.errors:
            lines.append(rejection_line(error.location or where, each.kind, short, error))
        if not each.ok and not each.errors:
            lines.append(f"{where}: error: {each.message}")
    return lines


def problem_lines(result: DocumentResult) -> list[str]:
    """Why a document was not accepted, plain text, a line for each error of an invalid
    object (``rejection_line``), or one for a document that could not be checked; none
    for a valid one. What ``HumanPrinter`` says of it, without colours or excerpts."""
    if result.status == "invalid":
        return [
            rejection_line(_where(result, error), result.kind, result.name, error)
            for error in result.errors
        ]
    if result.status == "error":
        return [f"{result.location}: error: {result.title}: {result.message}"]
    return []


def error_text(error: FieldError) -> str:
    """The error as the API server words it, and a note when it would not say it yet,
    or when it comes from a transition rule (one that compares with oldSelf)."""
    text = error.message
    if error.transition:
        text += " (transition rule)"
    if error.blocked:
        text += " (reported once the errors before it are fixed)"
    return text


class HumanPrinter:
    """Errors grouped by file, at file:line:column, with the source line and a caret."""

    def __init__(
        self,
        stream: TextIO,
        *,
        colour: bool | None = None,
        summary: bool = False,
        show_valid: bool = False,
        **_: object,
    ) -> None:
        from kubectl_crd.output.terminal import Terminal

        self._terminal = Terminal(stream, colour=colour)
        self._summary_wanted = summary
        self._show_valid = show_valid
        self._summary = Summary()
        self._sources: dict[str, list[str] | None] = {}
        self._file = ""

    def write(self, result: DocumentResult) -> None:
        self._summary.add(result)
        lines: list[Line] = []
        quiet = result.status in ("valid", "empty") or (
            result.status == "skipped" and not result.message
        )
        if quiet and not result.warnings and not self._show_valid:
            return
        if result.source != self._file:
            self._file = result.source
            lines.append(((result.source, Style.HEADING),))
        title = result.title
        if result.status == "valid" and self._show_valid:
            lines.append(((f"{result.location}: ", Style.PATH), (f"valid: {title}", Style.VALUE)))
        if result.status in ("error", "skipped"):
            style = Style.WARNING if result.status == "error" else Style.NOTE
            label = "error" if result.status == "error" else "skipped"
            lines.append(
                (
                    (f"{result.location}: ", Style.PATH),
                    (f"{label}: ", style),
                    (f"{title}: {result.message}", Style.PLAIN),
                )
            )
            lines.extend(self._excerpt(result.location))
        for error in result.errors:
            where = _where(result, error)
            lines.append(
                (
                    (f"{where}: ", Style.PATH),
                    ("error: ", Style.WARNING),
                    (f"{rejected(result.kind, result.name)}: ", Style.LABEL),
                    (error_text(error), Style.MUTED if error.blocked else Style.PLAIN),
                )
            )
            lines.extend(self._excerpt(where))
        for warning in result.warnings:
            lines.append(
                (
                    (f"{result.location}: ", Style.PATH),
                    ("warning: ", Style.NOTE),
                    (f"{title}: {warning}", Style.PLAIN),
                )
            )
        self._terminal.write_lines(lines)

    def _excerpt(self, location: Location) -> list[Line]:
        if not location.line:
            return []
        source = self._source_lines(location.file)
        if source is None or location.line > len(source):
            return []
        text = source[location.line - 1].rstrip("\n").expandtabs(1)
        gutter = f"{location.line:>5} | "
        lines: list[Line] = [((gutter, Style.MUTED), (text, Style.CODE))]
        if location.column:
            lines.append(
                (("      | ", Style.MUTED), (" " * (location.column - 1) + "^", Style.WARNING))
            )
        return lines

    def _source_lines(self, path: str) -> list[str] | None:
        if path not in self._sources:
            try:
                with open(path, encoding="utf-8", errors="replace") as file:
                    self._sources[path] = file.readlines()
            except OSError:  # stdin, or a file gone since: no excerpt
                self._sources[path] = None
        return self._sources[path]

    def flush(self) -> None:
        if not self._summary_wanted:
            return
        counts = self._summary.counts
        parts = ", ".join(f"{counts[status]} {status}" for status in STATUSES if counts[status])
        total = self._summary.total
        self._terminal.write_lines(
            [
                (
                    (
                        f"Summary: {total} document{'s' if total != 1 else ''}: {parts or 'none'}",
                        Style.LABEL,
                    ),
                )
            ]
        )


def result_record(result: DocumentResult) -> dict[str, Any]:
    """One document's result as plain JSON data (``-o json``)."""
    line, column = _position(result.location)
    return {
        "source": result.source,
        "index": result.index,
        **({"item": result.item} if result.item is not None else {}),
        "line": line,
        "column": column,
        "status": result.status,
        "apiVersion": result.api_version,
        "kind": result.kind,
        "name": result.name,
        **({"namespace": result.namespace} if result.namespace else {}),
        **({"operation": "update"} if result.operation == "update" else {}),
        **({"message": result.message} if result.message else {}),
        "errors": [error_record(result, error) for error in result.errors],
        "warnings": list(result.warnings),
    }


def error_record(result: DocumentResult, error: FieldError) -> dict[str, Any]:
    line, column = _position(_where(result, error))
    return {
        "field": error.field,
        "reason": error.reason,
        "message": error.message,
        "stage": error.stage,
        "line": line,
        "column": column,
        "blocked": error.blocked,
        **({"transition": True} if error.transition else {}),
    }


class JsonPrinter:
    def __init__(self, stream: TextIO, **_: object) -> None:
        self._stream = stream
        self._records: list[dict[str, Any]] = []
        self._summary = Summary()

    def write(self, result: DocumentResult) -> None:
        self._summary.add(result)
        self._records.append(result_record(result))

    def flush(self) -> None:
        import json

        document = {"resources": self._records, "summary": dict(self._summary.counts)}
        self._stream.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        self._stream.flush()


class YamlPrinter:
    """Each object as stored (pruned, defaulted); what could not be stored goes to stderr."""

    def __init__(self, stream: TextIO, *, err: TextIO | None = None, **_: object) -> None:
        import sys

        self._stream = stream
        self._problems = HumanPrinter(err or sys.stderr)
        self._first = True

    def write(self, result: DocumentResult) -> None:
        from kubectl_crd.io.dumping import dump_yaml
        from kubectl_crd.model.schema import plain

        if result.status != "valid" or result.stored is None:
            self._problems.write(result)
            return
        if not self._first:
            self._stream.write("---\n")
        self._first = False
        self._stream.write(dump_yaml(plain(result.stored)))

    def flush(self) -> None:
        self._stream.flush()


class JunitPrinter:
    """JUnit XML: a ``testsuite`` per file, a ``testcase`` per document."""

    def __init__(self, stream: TextIO, **_: object) -> None:
        self._stream = stream
        self._by_file: dict[str, list[DocumentResult]] = {}

    def write(self, result: DocumentResult) -> None:
        self._by_file.setdefault(result.source, []).append(result)

    def flush(self) -> None:
        from xml.sax.saxutils import escape
        from xml.sax.saxutils import quoteattr as attr

        out = ['<?xml version="1.0" encoding="UTF-8"?>']
        results = [r for rs in self._by_file.values() for r in rs]
        failures = sum(r.status == "invalid" for r in results)
        errors = sum(r.status == "error" for r in results)
        skipped = sum(r.status in ("skipped", "empty") for r in results)
        out.append(
            f'<testsuites name={attr(TOOL_NAME)} tests="{len(results)}" '
            f'failures="{failures}" errors="{errors}" skipped="{skipped}">'
        )
        for source, group in self._by_file.items():
            out.append(
                f'  <testsuite name={attr(source)} tests="{len(group)}" '
                f'failures="{sum(r.status == "invalid" for r in group)}" '
                f'errors="{sum(r.status == "error" for r in group)}" '
                f'skipped="{sum(r.status in ("skipped", "empty") for r in group)}">'
            )
            for result in group:
                name = f"{result.title} ({result.location})"
                out.append(
                    f"    <testcase name={attr(name)} classname={attr(result.kind or 'document')}>"
                )
                if result.status == "invalid":
                    body = "\n".join(f"{_where(result, e)}: {error_text(e)}" for e in result.errors)
                    first = result.errors[0].message if result.errors else "invalid"
                    out.append(
                        f'      <failure message={attr(first)} type="invalid">{escape(body)}</failure>'
                    )
                elif result.status == "error":
                    out.append(f'      <error message={attr(result.message)} type="error"/>')
                elif result.status in ("skipped", "empty"):
                    out.append(f"      <skipped message={attr(result.message or result.status)}/>")
                out.append("    </testcase>")
            out.append("  </testsuite>")
        out.append("</testsuites>")
        self._stream.write("\n".join(out) + "\n")
        self._stream.flush()


class SarifPrinter:
    """SARIF 2.1.0: a rule per reason, a result per error, with its region."""

    def __init__(self, stream: TextIO, **_: object) -> None:
        self._stream = stream
        self._results: list[dict[str, Any]] = []
        self._rules: dict[str, int] = {}

    def _rule(self, rule_id: str) -> int:
        return self._rules.setdefault(rule_id, len(self._rules))

    def _add(self, rule_id: str, level: str, text: str, location: Location) -> None:
        line, column = _position(location)
        region = {"startLine": max(line, 1), **({"startColumn": column} if column else {})}
        self._results.append(
            {
                "ruleId": rule_id,
                "ruleIndex": self._rule(rule_id),
                "level": level,
                "message": {"text": text},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": location.file},
                            "region": region,
                        }
                    }
                ],
            }
        )

    def write(self, result: DocumentResult) -> None:
        for error in result.errors:
            self._add(
                error.reason,
                "error",
                rejection_text(result.kind, result.name, error),
                _where(result, error),
            )
        if result.status == "error":
            self._add(
                "DocumentError", "error", f"{result.title}: {result.message}", result.location
            )
        elif result.status == "skipped" and result.message:
            self._add("Skipped", "note", f"{result.title}: {result.message}", result.location)
        for warning in result.warnings:
            self._add("Warning", "warning", f"{result.title}: {warning}", result.location)

    def flush(self) -> None:
        import json

        from kubectl_crd import __version__

        rules = [
            {"id": rule_id, "shortDescription": {"text": rule_id}}
            for rule_id in sorted(self._rules, key=self._rules.__getitem__)
        ]
        log = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": TOOL_NAME,
                            "version": __version__,
                            "informationUri": TOOL_URI,
                            "rules": rules,
                        }
                    },
                    "results": self._results,
                }
            ],
        }
        self._stream.write(json.dumps(log, indent=2, ensure_ascii=False) + "\n")
        self._stream.flush()


def _github_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubPrinter:
    """GitHub Actions workflow commands: an annotation per error, warning and note."""

    def __init__(self, stream: TextIO, **_: object) -> None:
        self._stream = stream

    def _command(self, command: str, location: Location, text: str) -> None:
        line, column = _position(location)
        properties = [f"file={_github_property(location.file)}"]
        if line:
            properties.append(f"line={line}")
        if column:
            properties.append(f"col={column}")
        properties.append(f"title={_github_property(TOOL_NAME + ' validate')}")
        self._stream.write(f"::{command} {','.join(properties)}::{_github_data(text)}\n")

    def write(self, result: DocumentResult) -> None:
        for error in result.errors:
            text = rejection_text(result.kind, result.name, error)
            self._command("error", _where(result, error), text)
        if result.status == "error":
            self._command("error", result.location, f"{result.title}: {result.message}")
        elif result.status == "skipped" and result.message:
            self._command("notice", result.location, f"{result.title}: {result.message}")
        for warning in result.warnings:
            self._command("warning", result.location, f"{result.title}: {warning}")

    def flush(self) -> None:
        self._stream.flush()


#: ``-o`` value -> printer class; every class takes the stream, then keyword options.
PRINTERS: dict[str, Callable[..., Printer]] = {
    "human": HumanPrinter,
    "json": JsonPrinter,
    "yaml": YamlPrinter,
    "junit": JunitPrinter,
    "sarif": SarifPrinter,
    "github": GithubPrinter,
}
