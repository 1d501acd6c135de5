"""Multi-document YAML and JSON to ``Document`` values, decoded the way Kubernetes does.

Values are built straight from the parser's events (libyaml through ruamel.yaml's C
extension when present, ruamel's pure-Python parser otherwise) by a loop that never
recurses, so deep documents cannot hit Python's recursion limit. Scalars follow
go-yaml v2 and the JSON round trip (see ``model.yamlscalars``); mappings and sequences become
``YamlMap`` / ``YamlList`` that know where each part was written. A plain build (the
parsed-value cache's, without positions) first tries ``blockyaml``, which reads the
usual shape of a manifest line by line for the same values, twice as fast.

What the loader promises:

- a syntax error costs only its own document: earlier ones are kept, and parsing
  resumes at the next ``---`` line, as kubectl splits a stream before decoding it;
- what the API server would refuse becomes ``Document.error``, never an exception:
  duplicate keys (strict decoding; the value is still kept, last one wins), +Inf and
  NaN, bad explicit tags, null or non-scalar keys, excessive aliasing (go-yaml v2's
  budget), nesting deeper than ``MAX_DEPTH``, documents that are not mappings, binary
  files and invalid UTF-8;
- go-yaml v2's verdicts, as kubectl reads a file (``sigs.k8s.io/yaml`` after
  k8s.io/apimachinery's ``YAMLReader`` has cut it at ``---`` lines): a ``\\/`` escape
  is refused; a line starting with ``---`` and more than a comment, and a piece
  between two cuts that starts with a ``%YAML``/``%TAG`` directive or ``...``, end the
  reading (kubectl stops there); ``\\'`` and a ``:``
  inside a flow plain scalar are read (ruamel's YAML 1.1 Python parser takes a chunk
  that libyaml 0.2.5 refuses for them), the last line ends with a line break, and
  after a document ends (``...``, or a line less indented than its root) nothing is
  read until the next ``---``; held to go-yaml by
  ``tests/unit/io/test_goyaml_differential.py``;
- empty documents (only comments) are skipped;
- ruamel.yaml is imported on first use only, so callers that never parse (a
  parsed-value cache hit) do not pay for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from kubectl_crd.io.blockyaml import read_block_yaml
from kubectl_crd.io.documents import Document, is_list_object
from kubectl_crd.io.positions import YamlList, YamlMap, copy_tree, pack, unpack
from kubectl_crd.model.errors import Location, YamlError
from kubectl_crd.model.records import record
from kubectl_crd.model.yamlscalars import (
    MERGE_TAG,
    ScalarError,
    allowed_alias_ratio,
    json_float,
    json_key,
    json_value,
    resolve,
    resolve_plain,
)

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

# go-yaml v2 allows 10000 levels, but every accepted document must stay usable by
# Python code that recurses over it (json.dumps, schema walks) under the default
# recursion limit of 1000, with room left for the caller's own stack.
MAX_DEPTH = 500

# "---" at the start of a line followed by a blank or the end: where kubectl's
# YAMLReader cuts a stream into documents.
_SEPARATOR = re.compile(r"^---(?=[ \t\r\n]|\Z)", re.MULTILINE)
#: YAML's line breaks (yaml.org/spec/1.1 b-break, as libyaml and ruamel count lines)
_YAML_BREAK = re.compile("\r\n|\r|\n|\x85|\u2028|\u2029")

# Which parser to use: "c" (libyaml, when importable) or "python". Tests set it.
BACKEND = "c"


@record
class _ParserApi:
    new: Callable[[str], Callable[[], Any]]
    events: Any
    errors: tuple[type[BaseException], ...]
    reader_error: type[BaseException]
    offsets_in_bytes: bool


_api_cache: dict[str, _ParserApi] = {}


def _parser_api(backend: str = "") -> _ParserApi:
    """The parser of ``backend`` ("c" or "python"; ``BACKEND`` when not given)."""
    backend = backend or BACKEND
    cached = _api_cache.get(backend)
    if cached is not None:
        return cached
    from ruamel.yaml import events
    from ruamel.yaml.error import YAMLError as RuamelError
    from ruamel.yaml.reader import ReaderError

    c_parser: Any = None
    if backend == "c":
        import importlib

        # ruamel.yaml.cyaml's own order: the old libyaml binding, then the bundled one.
        for module in ("_ruamel_yaml", "_ruamel_yaml_clibz"):
            try:
                c_parser = importlib.import_module(module).CParser
                break
            except (ImportError, AttributeError):
                continue
    if c_parser is not None:
        parser_class = c_parser

        def new_c(text: str) -> Callable[[], Any]:
            # A fresh parser per call: a parser that raised keeps its broken state.
            return parser_class(text).get_event  # type: ignore[no-any-return]

        api = _ParserApi(new_c, events, (RuamelError,), ReaderError, offsets_in_bytes=True)
    else:
        api = _python_api(events, RuamelError, ReaderError)
    _api_cache[backend] = api
    return api


def _python_api(events: Any, ruamel_error: type[BaseException], reader_error: Any) -> _ParserApi:
    from ruamel.yaml.docinfo import DocInfo
    from ruamel.yaml.loader import BaseLoader

    # go-yaml v2 (scannerc.go) reads "\'" in double quotes as "'", which libyaml 0.2.5
    # refuses; "\/" is refused by go-yaml and checked by the builder for both parsers.
    escapes = {**BaseLoader.ESCAPE_REPLACEMENTS, "'": "'"}

    def new_python(text: str) -> Callable[[], Any]:
        # YAML 1.1 as go-yaml: "?" ends a plain scalar in a flow collection
        loader = BaseLoader(text, version=(1, 1))
        loader.ESCAPE_REPLACEMENTS = escapes
        # what ruamel's own YAML() sets up, and its scanner writes directives into
        loader.doc_infos = [DocInfo()]  # type: ignore[attr-defined]
        return loader.get_event  # type: ignore[no-any-return]

    return _ParserApi(new_python, events, (ruamel_error,), reader_error, offsets_in_bytes=False)


def load_documents(
    data: bytes | str, source: str, *, positions: bool = True, digest: str = ""
) -> list[Document]:
    """Every non-empty document in ``data``, in order; problems are in ``Document.error``.

    ``positions=False``: plain ``dict`` and ``list`` values, as the parsed-value cache
    keeps them (a fifth faster to build, and nothing to strip before caching); a file
    whose documents have problems, or that holds a List, is read with positions all
    the same, so that its errors and its items point at their nodes. ``digest``: the
    file's, given to each document of a plain build (``Document.digest``).
    """
    text, problem = decode_text(data, source)
    if problem is not None:
        return [Document(source, 0, problem.location or Location(source), error=problem)]
    if not positions:
        # the usual shape of a manifest without libyaml's events (``blockyaml``, which
        # takes no "---" line but a bare one), else libyaml's plain build
        found = read_block_yaml(text, source, digest)
        if found is None:
            stop = _kubectl_stop(text)
            if stop is not None:
                return _until_kubectl_stops(text, source, stop, positions, digest)
            try:
                found = _load_text(text, source, positions=False, digest=digest)
            except _NeedsPositions:
                found = None
        # a List's items keep where each was written (expand_lists)
        if found is not None and all(
            d.error is None and not is_list_object(d.content) for d in found
        ):
            return found
    stop = _kubectl_stop(text)
    if stop is not None:
        return _until_kubectl_stops(text, source, stop, positions, digest)
    return _load_text(text, source)


# Where a line starts with "---", "..." or "%": a search for the line break first (faster
# than str.find for each marker, and than a MULTILINE "^" 5 times over)
_MARK_LINE = re.compile(r"\n(?:---|\.\.\.|%)")


def _ends_a_document(rest: str) -> bool:
    """Whether a "---" line followed by ``rest`` is a separator for kubectl: its
    YAMLReader (k8s.io/apimachinery pkg/util/yaml/decoder.go) ends a document at every
    line that starts with "---", and refuses one with more than a comment after it."""
    rest = rest.strip()
    return not rest or rest[0] == "#"


def _kubectl_stop(text: str) -> tuple[int, int, str] | None:
    """Where kubectl stops reading ``text`` before go-yaml sees it: the start of the
    piece (the part between two "---" lines) it refuses, the line why, and why. A "---"
    line with more than a comment after it is refused with the piece it ends; a piece
    whose first line with content is "..." or a directive ("%YAML", "%TAG": kubectl has
    cut the "---" that must follow it) is refused by go-yaml: libyaml reads all three
    as part of the stream. (A directive after a document in its piece is never read by
    go-yaml, which reads one document a piece.)"""
    marks = [match.start() + 1 for match in _MARK_LINE.finditer(text)]
    if text.startswith(("---", "...", "%")):
        marks.insert(0, 0)
    piece_start = counted = 0
    line = 1
    for offset in marks:
        end = text.find("\n", offset)
        rest = text[offset + 3 : end if end >= 0 else len(text)]
        line += text.count("\n", counted, offset)  # counted on from the last mark
        counted = offset
        if text.startswith("---", offset):
            if not _ends_a_document(rest):
                return (
                    piece_start,
                    line,
                    (
                        f"invalid Yaml document separator: {rest.strip()} (kubectl ends a "
                        'document at every line that starts with "---" and refuses this file too)'
                    ),
                )
            if offset > piece_start:  # kubectl keeps a separator that ends nothing
                piece_start = end + 1 if end >= 0 else len(text)
        elif not _only_comments(text[piece_start:offset]):
            continue
        elif text[offset] == "%":
            return piece_start, line, _DIRECTIVE_ALONE
        elif rest[:1] in ("", " ", "\t", "\r"):
            return piece_start, line, _DOCUMENT_END_ALONE
    return None


_DIRECTIVE_ALONE = (
    'a %YAML or %TAG directive: kubectl cuts the stream at the "---" line after it, and '
    "go-yaml refuses the directive alone (error converting YAML to JSON: yaml: did not find "
    "expected <document start>): kubectl refuses this file too"
)
_DOCUMENT_END_ALONE = (
    'a document that starts with "...": kubectl cuts the stream at "---" lines, and go-yaml '
    "refuses this piece (error converting YAML to JSON: yaml: did not find expected node "
    "content): kubectl refuses this file too"
)


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.lstrip()[0] == "#" for line in text.split("\n"))


def _until_kubectl_stops(
    text: str, source: str, stop: tuple[int, int, str], positions: bool, digest: str
) -> list[Document]:
    """What kubectl reads of a stream it stops reading (``_kubectl_stop``): the
    documents before the piece it refuses, then the error."""
    piece_start, line, message = stop
    documents = load_documents(text[:piece_start], source, positions=positions, digest=digest)
    where = Location(source, line, 1)
    index = documents[-1].index + 1 if documents else 0
    documents.append(Document(source, index, where, error=YamlError(message, location=where)))
    return documents


def decode_text(data: bytes | str, source: str) -> tuple[str, YamlError | None]:
    """The text of a YAML or JSON input as kubectl reads it (every line ended by a line
    break), or why it is not one (binary, invalid UTF-8)."""
    if isinstance(data, str):
        text = data.removeprefix("\ufeff")
    else:
        encoding = "utf-8"
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        elif data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            # go-yaml reads UTF-16 with a byte order mark, as libyaml does.
            encoding = "utf-16"
        if encoding == "utf-8" and b"\x00" in data:
            return "", _binary_error(source)
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as exc:
            before = data[: exc.start]
            line = before.count(b"\n") + 1
            column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
            return "", YamlError(
                f"not a YAML or JSON file: invalid {encoding.upper()} at byte {exc.start}",
                location=Location(source, line, column),
            )
    if "\x00" in text:
        return "", _binary_error(source)
    if text and text[-1] != "\n":
        # kubectl's LineReader ends every line with "\n", the last one too: a block
        # scalar at the end of a file keeps its line break ("|" clips to one)
        text += "\n"
    return text, None


def _binary_error(source: str) -> YamlError:
    return YamlError(
        "not a YAML or JSON file: it contains NUL bytes (binary data?)",
        location=Location(source),
    )


# "---#": a separator with a comment for kubectl, a plain scalar for libyaml, which
# wants a blank after the dashes; one is put there (the line holds nothing else)
_DASHES_COMMENT = re.compile(r"^---#", re.MULTILINE)


def _spaced_separators(text: str) -> str:
    """``text`` with a blank after the dashes of each "---#" line that ends a document
    for kubectl (one that ends nothing, first in the stream or right after another
    separator, stays in its piece, where go-yaml reads it as libyaml does)."""
    parts, done = [], 0
    for match in _DASHES_COMMENT.finditer(text):
        start = match.start()
        previous = text[text.rfind("\n", 0, max(start - 1, 0)) + 1 : max(start - 1, 0)]
        if start and not (previous.startswith("---") and _ends_a_document(previous[3:])):
            parts.append(text[done : start + 3] + " ")
            done = start + 3
    return "".join(parts) + text[done:] if parts else text


def _load_text(
    text: str, source: str, *, positions: bool = True, digest: str = ""
) -> list[Document]:
    if "---#" in text:
        text = _spaced_separators(text)
    api = _parser_api()
    documents: list[Document] = []
    chunk, line_offset, index = text, 0, 0
    while True:
        builder = _Builder(
            source, line_offset, index, api, positions=positions, digest=digest, chunk=chunk
        )
        try:
            builder.run(api.new(chunk))
        except _Fatal as fatal:
            if isinstance(fatal, _GoYamlFatal) and line_offset == 0 and text.lstrip()[:1] == "{":
                # kubectl reads a stream that starts with "{" as JSON first
                from_json = _load_json_stream(text, source, api)
                if from_json is not None:
                    return from_json
            # The parser could go on, but skipping to the next "---" is as good and
            # does not make a slow parser wade through a 100k-deep nest first.
            documents.extend(builder.documents)
            error, error_line = fatal.error, builder.document_line
        except api.errors as exc:
            if line_offset == 0 and _looks_like_json(text):
                # JSON that libyaml cannot read (surrogate-pair escapes from Python's
                # json.dumps, several objects back to back) is still JSON.
                from_json = _load_json_stream(text, source, api)
                if from_json is not None:
                    return from_json
            if _reads_as_go_yaml(exc, chunk, api):
                api = _parser_api("python")
                continue
            if builder.in_document and builder.root_done:
                # the Python parser can look past a document's end before it ends it
                builder.end_document()
            documents.extend(builder.documents)
            error, error_line = _syntax_error(exc, source, chunk, line_offset, api)
            if builder.ended and not builder.in_document:
                # go-yaml reads one document of each piece kubectl cuts at "---" lines:
                # what follows a document's end (a "...", or a line less indented than
                # its root) is not read until the next "---" (libyaml wants one there)
                resume = _next_separator(chunk, builder.document_line)
                if resume is None:
                    return documents
                offset, lines = resume
                chunk, line_offset, index = chunk[offset:], line_offset + lines, builder.index + 1
                continue
        else:
            documents.extend(builder.documents)
            return documents
        failed = builder.index if builder.in_document else builder.index + 1
        start = builder.start_location() if builder.in_document else None
        documents.append(
            Document(source, failed, start or error.location or Location(source), error=error)
        )
        fail_line = builder.document_line if builder.in_document else error_line
        resume = _next_separator(chunk, fail_line)
        if resume is None:
            return documents
        offset, lines = resume
        chunk, line_offset, index = chunk[offset:], line_offset + lines, failed + 1


def _reads_as_go_yaml(exc: BaseException, chunk: str, api: _ParserApi) -> bool:
    """Whether libyaml refused what go-yaml v2 reads: a ":" inside a flow plain scalar
    (``[a:b]``, ``{k: 12:30}``; libyaml 0.2.5 refuses it, go-yaml's scanner reads on)
    and the ``\\'`` escape. ruamel's pure-Python parser (``_python_api``) reads both
    as go-yaml does: the chunk is read again with it."""
    if api.offsets_in_bytes is False:
        return False  # already the pure-Python parser
    problem = getattr(exc, "problem", None)
    if problem == "found unexpected ':'":
        return True
    mark = getattr(exc, "problem_mark", None)
    if problem != "found unknown escape character" or mark is None:
        return False
    # the parser's mark counts every YAML line break (a lone "\r" too), not only "\n"
    lines = _YAML_BREAK.split(chunk, mark.line + 1)
    if mark.line >= len(lines):
        return False
    line: str = lines[mark.line]
    return line[mark.column : mark.column + 2] == "\\'"


def _next_separator(chunk: str, after_line: int) -> tuple[int, int] | None:
    """Offset and 0-based line of the first ``---`` line below ``after_line``."""
    for match in _SEPARATOR.finditer(chunk):
        line = chunk.count("\n", 0, match.start())
        if line > after_line:
            return match.start(), line
    return None


def _syntax_error(
    exc: BaseException, source: str, chunk: str, line_offset: int, api: _ParserApi
) -> tuple[YamlError, int]:
    """A parser exception as one clear line, plus its 0-based line within ``chunk``."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None:
        line, column = mark.line, mark.column
    elif isinstance(exc, api.reader_error):
        position = int(getattr(exc, "position", 0))
        if api.offsets_in_bytes:
            before = chunk.encode("utf-8")[:position].decode("utf-8", "ignore")
        else:
            before = chunk[:position]
        line = before.count("\n")
        column = len(before) - (before.rfind("\n") + 1)
    else:
        line = column = 0
    problem = getattr(exc, "problem", None)
    character = getattr(exc, "character", None)
    if isinstance(exc, api.reader_error) and isinstance(character, int):
        message = f"control character U+{character:04X} is not allowed in YAML"
    elif problem:
        message = str(problem)
        context = getattr(exc, "context", None)
        context_mark = getattr(exc, "context_mark", None)
        if (
            context
            and context_mark is not None
            and (context_mark.line, context_mark.column)
            != (
                line,
                column,
            )
        ):
            where = f"line {context_mark.line + 1 + line_offset}, column {context_mark.column + 1}"
            message += f" ({context} at {where})"
        elif context:
            message += f" ({context})"
    else:
        message = str(exc).splitlines()[0]
    location = Location(source, line + 1 + line_offset, column + 1)
    return YamlError(message, location=location), line


def _looks_like_json(text: str) -> bool:
    return text.lstrip(" \t\r\n")[:1] in ("{", "[")


_JSON_SPACE = re.compile(r"[ \t\r\n]*")


def _load_json_stream(text: str, source: str, api: _ParserApi) -> list[Document] | None:
    """One document per JSON value in ``text``; None when it is not a JSON stream."""

    def reject_constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                duplicates.append(key)
            result[key] = value
        return result

    decoder = json.JSONDecoder(
        parse_constant=reject_constant,
        parse_int=lambda digits: json_value(int(digits)),
        parse_float=lambda digits: json_float(float(digits)),
        object_pairs_hook=pairs,
    )
    spans: list[tuple[int, int, Any, list[str]]] = []
    position = _JSON_SPACE.match(text, 0).end()  # type: ignore[union-attr]
    while position < len(text):
        duplicates = []
        try:
            value, end = decoder.raw_decode(text, position)
        except (ValueError, ScalarError):
            return None
        spans.append((position, end, value, duplicates))
        position = _JSON_SPACE.match(text, end).end()  # type: ignore[union-attr]
    documents: list[Document] = []
    for index, (start, end, value, found_duplicates) in enumerate(spans):
        line = text.count("\n", 0, start)
        column = start - (text.rfind("\n", 0, start) + 1)
        # Indenting the value by its column keeps libyaml's columns exact.
        builder = _Builder(source, line, index, api, go_yaml=False)
        try:
            builder.run(api.new(" " * column + text[start:end]))
        except _Fatal as fatal:
            documents.append(
                Document(
                    source,
                    index,
                    builder.start_location() or Location(source, line + 1, column + 1),
                    error=fatal.error,
                )
            )
        except api.errors:
            location = Location(source, line + 1, column + 1)
            problems = [
                YamlError(f'duplicate field "{key}"', location=location) for key in found_duplicates
            ]
            documents.append(_finished(source, index, location, value, problems))
        else:
            documents.extend(builder.documents)
    return documents


def _finished(
    source: str,
    index: int,
    location: Location,
    root: Any,
    problems: list[YamlError],
    digest: str = "",
) -> Document:
    if not isinstance(root, dict):
        problems.insert(
            0,
            YamlError(
                f"document is not a mapping/object: it is {_describe(root)}", location=location
            ),
        )
    if not problems:  # every field given: the record's fast path (once per document)
        return Document(source, index, location, root, None, None, (), digest)
    return Document(
        source,
        index,
        location,
        content=root,
        error=problems[0],
        more_errors=tuple(problems[1:]),
    )


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "a string"


def _go_yaml_error(where: Location, problem: str) -> YamlError:
    """What go-yaml v2 alone refuses, worded as kubectl reports it."""
    return YamlError(
        f"error converting YAML to JSON: yaml: {problem} (kubectl and the API server "
        "refuse this file too)",
        location=where,
    )


class _NeedsPositions(Exception):
    """A positionless build met what only positions can tell (a duplicate key's first
    line, a merge): the file is read again with them."""


class _Fatal(Exception):
    """A problem that makes the server reject the whole document."""

    def __init__(self, error: YamlError) -> None:
        super().__init__(error.message)
        self.error = error


class _GoYamlFatal(_Fatal):
    """What go-yaml v2 refuses and libyaml reads (not JSON's rules)."""


# Sentinels: a mapping waiting for its next key, and an anchor whose node is still open.
_NO_KEY: Any = object()
_OPEN: Any = object()


class _Frame:
    """A mapping or sequence being built, with what its next event needs."""

    __slots__ = (
        "anchor",
        "container",
        "count_at_start",
        "is_map",
        "key",
        "key_position",
        "merge",
        "positions",
        "start",
    )

    def __init__(
        self, container: Any, start: int, count: int, anchor: str | None, is_map: bool
    ) -> None:
        self.container = container
        self.start = start
        self.is_map = is_map
        # The alias budget's decode count when the node opened: its size is the difference.
        self.count_at_start = count
        self.anchor = anchor
        self.key: Any = _NO_KEY
        self.key_position = 0
        # The pending key is "<<": the value is merged, not stored.
        self.merge = False
        self.positions: list[int] = []


class _Builder:
    """Builds the documents of one parser's event stream.

    A parser cannot continue after a syntax error, so ``_load_text`` makes a new
    builder and parser for the rest of the stream; ``index``, ``in_document`` and
    ``document_line`` tell it where the failure happened.
    """

    def __init__(
        self,
        source: str,
        line_offset: int,
        first_index: int,
        api: _ParserApi,
        *,
        positions: bool = True,
        digest: str = "",
        chunk: str = "",
        go_yaml: bool = True,
    ) -> None:
        self.source = source
        # go-yaml's own refusals apply (not to what kubectl reads as JSON)
        self.go_yaml = go_yaml
        self.chunk = chunk
        self._chunk_lines: list[str] | None = None
        self.ended = False  # a document ended (the parser is between documents)
        self.positions = positions
        self.digest = digest
        self.line_offset = line_offset
        self.api = api
        self.documents: list[Document] = []
        self.index = first_index - 1
        self.in_document = False
        self.document_line = 0
        self.document_start = 0  # the current document's "---" (packed), 0 when none
        # Memo of plain scalars: CRDs repeat "string", "object", "type" thousands of times.
        self._plain_values: dict[str, Any] = {}
        self._plain_keys: dict[str, str] = {}
        self.stack: list[_Frame] = []
        self.anchors: dict[str, Any] = {}
        self.problems: list[YamlError] = []
        self._start_document()

    def _start_document(self) -> None:
        # the last document left its stack empty and kept neither its anchors nor its
        # problems: new ones only where it had some (this runs once per document)
        if self.stack:
            self.stack = []
        if self.anchors:
            self.anchors = {}
        if self.problems:
            self.problems = []
        self.root: Any = None
        self.root_done = False  # the root node is complete
        self.root_position = 0
        self.count = 1
        self.alias_count = 0

    def run(self, get_event: Callable[[], Any]) -> None:
        """Build documents until the stream ends; raises on the first broken document."""
        self._consume(get_event, self.api.events)

    def start_location(self) -> Location | None:
        """Where the current document starts: its first node, else its ``---``."""
        if self.root_position:
            return self._location(self.root_position)
        return self._location(self.document_start) if self.document_start else None

    def _location(self, position: int) -> Location:
        line, column = unpack(position)
        return Location(self.source, line, column)

    def _consume(self, get_event: Callable[[], Any], events: Any) -> bool:
        """Handle events until the stream ends (True); raises ``_Fatal`` for a bad document."""
        scalar_event = events.ScalarEvent
        mapping_start = events.MappingStartEvent
        mapping_end = events.MappingEndEvent
        sequence_start = events.SequenceStartEvent
        sequence_end = events.SequenceEndEvent
        alias_event = events.AliasEvent
        document_start = events.DocumentStartEvent
        document_end = events.DocumentEndEvent
        stream_end = events.StreamEndEvent
        line_base = self.line_offset + 1
        plain_values = self._plain_values
        plain_keys = self._plain_keys
        stack = self.stack
        positions = self.positions
        while True:
            event = get_event()
            kind = type(event)
            if kind is scalar_event:
                mark = event.start_mark
                position = pack(mark.line + line_base, mark.column + 1)
                self.count += 1
                frame = stack[-1] if stack else None
                text = event.value
                # the slot behind ruamel's ``tag`` property (a Tag object), read
                # without the property's call: most scalars have no tag
                tag = event.ctag
                if tag is not None:
                    tag = str(tag)
                plain = tag is None and event.implicit[0]
                if frame is not None and frame.is_map and frame.key is _NO_KEY:
                    # the common key (plain, no anchor, seen before) without a call
                    key = plain_keys.get(text) if plain and event.anchor is None else None
                    if key is None:
                        self._scalar_key(frame, event, text, tag, position)
                    else:
                        frame.key, frame.merge = key, False
                        frame.key_position = position
                    continue
                # An empty value: libyaml marks it after the colon, the pure-Python
                # parser at the next token, possibly lines later. Use the key's line.
                if (
                    not text
                    and frame is not None
                    and frame.is_map
                    and unpack(position)[0] > unpack(frame.key_position)[0]
                ):
                    position = frame.key_position
                if plain:
                    value = plain_values.get(text, _NO_KEY)
                    if value is _NO_KEY:
                        try:
                            value = json_value(resolve_plain(text))
                        except ScalarError as exc:
                            value = exc
                        plain_values[text] = value
                    if type(value) is ScalarError:
                        raise _Fatal(YamlError(str(value), location=self._location(position)))
                    raw = None
                else:
                    if "/" in text and event.style == '"' and self.go_yaml:
                        self._refuse_slash_escape(event)
                    raw = self._raw_scalar(text, tag, position)
                    value = self._json_value(raw, position)
                if event.anchor is not None:
                    # Keep the value before the JSON round trip: an alias used as a
                    # key is converted the key way ("1e+06", not "1000000").
                    if plain:
                        raw = resolve_plain(text)
                    self.anchors[event.anchor] = ("scalar", raw, 1)
            elif kind is mapping_end or kind is sequence_end:
                ended = stack.pop()
                value = ended.container
                position = ended.start
                if not ended.is_map and positions:
                    value.set_positions(ended.positions)
                if ended.anchor is not None:
                    size = self.count - ended.count_at_start
                    self.anchors[ended.anchor] = ("container", value, size)
                frame = stack[-1] if stack else None
            elif kind is mapping_start or kind is sequence_start:
                mark = event.start_mark
                position = pack(mark.line + line_base, mark.column + 1)
                self.count += 1
                if stack:
                    parent = stack[-1]
                    if parent.is_map and parent.key is _NO_KEY:
                        what = "mapping" if kind is mapping_start else "sequence"
                        raise _Fatal(
                            YamlError(
                                f"invalid map key: a {what} cannot be a key in Kubernetes YAML",
                                location=self._location(position),
                            )
                        )
                    if len(stack) >= MAX_DEPTH:
                        raise _Fatal(
                            YamlError(
                                f"exceeded max depth of {MAX_DEPTH}",
                                location=self._location(position),
                            )
                        )
                elif not self.root_position:
                    self.root_position = position
                anchor = event.anchor
                if anchor is not None:
                    self.anchors[anchor] = _OPEN
                opened: dict[str, Any] | list[Any]
                is_map = kind is mapping_start
                if not positions:
                    opened = {} if is_map else []
                elif is_map:
                    opened = YamlMap(source=self.source, start=position)
                else:
                    opened = YamlList(source=self.source, start=position)
                stack.append(_Frame(opened, position, self.count - 1, anchor, is_map))
                continue
            elif kind is alias_event:
                mark = event.start_mark
                position = pack(mark.line + line_base, mark.column + 1)
                self._alias(event.anchor, position)
                continue
            elif kind is document_start:
                self._start_document()
                stack = self.stack
                self.index += 1
                self.in_document = True
                mark = event.start_mark
                self.document_line = mark.line
                self.document_start = pack(mark.line + line_base, mark.column + 1)
                continue
            elif kind is document_end:
                self._end_document()
                self.in_document = False
                self.ended = True
                continue
            elif kind is stream_end:
                return True
            else:  # the stream's start
                continue
            # a scalar or a finished mapping or sequence: added to its parent; the
            # common cases of a plain build as _add would, without the call
            if frame is not None and not positions:
                if not frame.is_map:
                    frame.container.append(value)
                    continue
                key = frame.key
                if not frame.merge and key not in frame.container:
                    frame.container[key] = value
                    frame.key = _NO_KEY
                    continue
            self._add(value, position)

    def _raw_scalar(self, text: str, tag: str | None, position: int) -> Any:
        if tag is None or tag == "!":
            # Quoted without a tag, or the non-specific "!" tag: a string.
            return text
        try:
            return resolve(tag, text)
        except ScalarError as exc:
            raise _Fatal(YamlError(str(exc), location=self._location(position))) from None

    def _json_value(self, raw: Any, position: int) -> Any:
        try:
            return json_value(raw)
        except ScalarError as exc:
            raise _Fatal(YamlError(str(exc), location=self._location(position))) from None

    def _key(self, raw: Any, position: int) -> str:
        try:
            return json_key(raw)
        except ScalarError as exc:
            raise _Fatal(YamlError(str(exc), location=self._location(position))) from None

    def _scalar_key(
        self, frame: _Frame, event: Any, text: str, tag: str | None, position: int
    ) -> None:
        plain = tag is None and event.implicit[0]
        if not plain and "/" in text and event.style == '"' and self.go_yaml:
            self._refuse_slash_escape(event)
        # go-yaml v2 isMerge: "<<", plain or tagged !!merge, is a merge key.
        if text == "<<" and (plain or tag == MERGE_TAG):
            frame.key, frame.merge = "<<", True
        else:
            raw = resolve_plain(text) if plain else self._raw_scalar(text, tag, position)
            frame.key, frame.merge = self._key(raw, position), False
            if plain:
                self._plain_keys[text] = frame.key
            if event.anchor is not None:
                self.anchors[event.anchor] = ("scalar", raw, 1)
        frame.key_position = position

    def _refuse_slash_escape(self, event: Any) -> None:
        """go-yaml v2 has no ``\\/`` escape (libyaml 0.2.5 and YAML 1.2 have): a
        double-quoted scalar with one is refused by kubectl and the API server."""
        if self._chunk_lines is None:
            self._chunk_lines = self.chunk.split("\n")
        start, end = event.start_mark, event.end_mark
        line, column = start.line, start.column + 1
        while (line, column) < (end.line, end.column):
            text = self._chunk_lines[line]
            found = text.find("\\", column)
            if found < 0 or (line == end.line and found >= end.column):
                line, column = line + 1, 0
                continue
            if text[found + 1 : found + 2] == "/":
                where = Location(self.source, line + 1 + self.line_offset, found + 1)
                # go-yaml's scanner errors give the 1-based line in kubectl's piece, or
                # none on its first line (yaml.v2 decode.go, parser.fail)
                piece_line = line - self._piece_start(line) + 1
                problem = "found unknown escape character"
                if piece_line > 1:
                    problem = f"line {piece_line}: {problem}"
                raise _GoYamlFatal(_go_yaml_error(where, problem))
            column = found + 2

    def _piece_start(self, line: int) -> int:
        """The first line (of the chunk) of the piece kubectl cuts ``line`` into: the
        one after the nearest "---" line above, or that line itself when it starts the
        stream (kubectl keeps a separator that ends nothing)."""
        lines = self._chunk_lines or []
        for above in range(line, -1, -1):
            if lines[above].startswith("---") and _ends_a_document(lines[above][3:]):
                return above if above + self.line_offset == 0 else above + 1
        return 0

    def _alias(self, name: str, position: int) -> None:
        anchor = self.anchors.get(name)
        if anchor is None:
            raise _Fatal(
                YamlError(f"unknown anchor '{name}' referenced", location=self._location(position))
            )
        if anchor is _OPEN:
            raise _Fatal(
                YamlError(
                    f"anchor '{name}' value contains itself", location=self._location(position)
                )
            )
        kind, value, size = anchor
        self.count += 1 + size
        self.alias_count += size
        if (
            self.alias_count > 100
            and self.count > 1000
            and self.alias_count / self.count > allowed_alias_ratio(self.count)
        ):
            raise _Fatal(
                YamlError("document contains excessive aliasing", location=self._location(position))
            )
        frame = self.stack[-1] if self.stack else None
        if frame is not None and frame.is_map and frame.key is _NO_KEY:
            if kind != "scalar":
                raise _Fatal(
                    YamlError(
                        f"invalid map key: alias '{name}' is not a scalar",
                        location=self._location(position),
                    )
                )
            frame.key, frame.merge = self._key(value, position), False
            frame.key_position = position
            return
        if kind == "scalar":
            self._add(self._json_value(value, position), position)
        else:
            self._add(copy_tree(value), position)

    def _add(self, value: Any, position: int) -> None:
        stack = self.stack
        if not stack:
            self.root = value
            self.root_done = True
            if not self.root_position:
                self.root_position = position
            return
        frame = stack[-1]
        if not frame.is_map:
            frame.container.append(value)
            if self.positions:
                frame.positions.append(position)
            return
        key = frame.key
        frame.key = _NO_KEY
        if frame.merge:
            self._merge(frame, value, position)
        else:
            self._set(frame.container, key, value, frame.key_position, position, None)

    def _set(
        self,
        target: Any,
        key: str,
        value: Any,
        key_position: int,
        value_position: int,
        merge_position: int | None,
    ) -> None:
        if key in target:
            if not self.positions:
                raise _NeedsPositions
            first_line = unpack(target.positions(key)[0])[0]
            if merge_position is None:
                line, column = unpack(key_position)
                message = f'duplicate field "{key}" at line {line} (first at line {first_line})'
            else:
                line, column = unpack(merge_position)
                message = (
                    f'duplicate field "{key}": the merge key at line {line} sets it '
                    f"again (first at line {first_line})"
                )
            self.problems.append(YamlError(message, location=Location(self.source, line, column)))
        target[key] = value
        if self.positions:
            target.set_positions(key, key_position, value_position)

    def _merge(self, frame: _Frame, value: Any, position: int) -> None:
        if not self.positions:
            raise _NeedsPositions
        # go-yaml v2 merges in document order: keys written before "<<" are
        # overwritten by it, keys after it win; in a list of maps the first map wins.
        if isinstance(value, YamlMap):
            sources = [value]
        elif isinstance(value, YamlList) and all(isinstance(item, YamlMap) for item in value):
            sources = list(reversed(value))
        else:
            raise _Fatal(
                YamlError(
                    "map merge requires map or sequence of maps as the value",
                    location=self._location(position),
                )
            )
        target = frame.container
        for source in sources:
            for key, item in source.items():
                key_position, value_position = source.positions(key)
                self._set(target, key, item, key_position, value_position, frame.key_position)

    def end_document(self) -> None:
        """End the current document here (its root is complete)."""
        self._end_document()
        self.in_document = False
        self.ended = True

    def _end_document(self) -> None:
        if self.root is None and not self.problems:
            return
        self.documents.append(
            _finished(
                self.source,
                self.index,
                self._location(self.root_position),
                self.root,
                self.problems,
                self.digest,
            )
        )
