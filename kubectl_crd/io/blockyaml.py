"""The shape most manifests are written in, read without libyaml: block mappings and
sequences of scalars, line by line, for a plain build (no per-node positions).

Why: a first ``get -f`` or ``validate`` over new files spent about a third of its time
turning libyaml's events into values (each event a Python object, 0.7 us). No library
on the package index does better for this job: ``rapidyaml`` parses in C++ but walking
its tree from Python costs as much as the events, PyYAML's binding makes the same event
objects, and none resolves scalars the way go-yaml v2 does. This reader takes the common
case at about twice the speed and says ``None`` for everything else, which
``loading.load_documents`` then reads with libyaml as before.

What it reads (anything else, and anything the full loader would report, gives
``None``): lines of ``key: value``, ``key:`` with a nested block or nothing (null),
``- `` sequence entries (nested ``- - x`` and ``- key: value`` included, and sequences
at their key's indentation), ``---`` between documents, blank and comment lines; values
that are plain scalars (resolved by ``model.yamlscalars`` as the full loader does; a mapping's
plain value may go on over more indented lines, folded as libyaml folds them),
quoted ones (the escapes libyaml and go-yaml share, in double quotes; a mapping's quoted value may go on
over more indented lines), one-line flow collections of those, and ``|`` or ``|-``
literals as a mapping's values. Tabs,
carriage returns, characters libyaml refuses or treats as line breaks, anchors,
aliases, tags, folded (``>``) and kept (``|+``) block scalars, complex or merge keys,
duplicate keys, directives, ``...``, a root that is not a mapping, a value Kubernetes
refuses: ``None``. ``tests/unit/io/test_blockyaml.py`` compares every answer with the
full loader's over the corpus and over thousands of mutations of it.
"""

from __future__ import annotations

import re

from kubectl_crd.io.documents import Document
from kubectl_crd.model.errors import Location
from kubectl_crd.model.yamlscalars import ScalarError, json_key, json_value, resolve_plain

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: What may start a plain scalar here: not an indicator (``-`` is checked apart)
_INDICATORS = frozenset("?:,[]{}#&*!|>'\"%@`")
#: Characters libyaml refuses, or reads as line breaks (NEL, LS, PS), in non-ASCII text
_UNUSUAL = re.compile(
    "[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029\ufeff]"
)
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f]")
#: A flow collection's plain scalar: up to a flow indicator or a comment (libyaml's
#: flow indicators include "?", which ends a plain scalar there: "[x?y]" is refused)
_FLOW_PLAIN = re.compile(r"[^,\[\]{}#:?]+")
#: Keys longer than this are left to the full loader (libyaml's limit for a simple key
#: is 1024 characters from its start to its ``:``)
_MAX_KEY = 1000
#: A double-quoted scalar's special characters, and the escapes libyaml and go-yaml v2
#: share (go-yaml has no "\/", libyaml no "\'": both are left to the full loader)
_DOUBLE_SPECIAL = re.compile(r'["\\]')
_ESCAPES = {
    "0": "\x00",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_HEX_DIGITS = re.compile("[0-9a-fA-F]+")
#: No column: what no line's indentation is more than
_NO_COLUMN = 1 << 30
#: A plain scalar over more lines than half this is left to the full loader (each line
#: resolves the text so far again)
_MAX_FOLDED = 200
#: Nesting beyond this is left to the full loader (its ``MAX_DEPTH``)
_MAX_DEPTH = 400


class _Unsupported(Exception):
    """Not in the shape this reader takes: the full loader reads the text."""


class _Frame:
    """A block mapping or sequence being built: its column, and whether a value is
    still due (``key:`` or ``-`` with nothing after it on the line)."""

    __slots__ = ("column", "container", "is_map", "key", "pending")

    def __init__(self, column: int, container: Any, is_map: bool) -> None:
        self.column = column
        self.container = container
        self.is_map = is_map
        self.key = ""
        self.pending = False


def read_block_yaml(text: str, source: str, digest: str = "") -> list[Document] | None:
    """The documents of ``text`` as a plain build of the full loader gives them
    (``loading.load_documents(..., positions=False)``), or None when ``text`` is not
    in the shape this reader takes."""
    if "\t" in text or "\r" in text:
        return None
    if (_CONTROL if text.isascii() else _UNUSUAL).search(text):
        return None
    try:
        return _Reader(source, digest).read(text)
    except (_Unsupported, ScalarError, RecursionError):
        return None


class _Reader:
    def __init__(self, source: str, digest: str) -> None:
        self.source = source
        self.digest = digest
        self.documents: list[Document] = []
        self.index = -1
        self.in_document = False
        self.stack: list[_Frame] = []
        self.root: Any = None
        self.root_location: Location | None = None
        # scalar values by the text written (the rest of a line after "key: ", or a
        # flow collection's plain scalar), and keys: manifests repeat both
        self.scalars: dict[str, Any] = {}
        self.keys: dict[str, str] = {}
        # a value over several lines being read (a "|" literal, a quoted scalar), and
        # what reads its lines: a line it does not take ends it
        self.literal: _Literal | None = None
        self.quoted: _Quoted | None = None
        self.consume: Callable[[str, str, int], bool] | None = None
        self.unbroken = 0  # the number of a last line without a line break
        self.lines: list[str] = []
        # the last value written after "key: ", and its line (its parts once it goes on)
        self.last_value: str | list[str] = ""
        self.last_line = 0
        self.last_column = _NO_COLUMN  # its mapping's (none after a key without a value)

    def read(self, text: str) -> list[Document]:
        lines = self.lines = text.split("\n")
        # the last line has no line break when the text does not end with one
        self.unbroken = len(lines) if lines[-1] else 0
        for number, line in enumerate(lines, 1):
            content = line.lstrip(" ")
            if self.consume is not None and self.consume(line, content, number):
                continue
            if not content or content[0] == "#":
                continue
            column = len(line) - len(content)
            if column > self.last_column and self._continues(column, content, number):
                continue
            if column == 0 and (content.startswith("---") or content.startswith("...")):
                if content.rstrip(" ") != "---":
                    raise _Unsupported  # "--- value", "...", "---x"
                self._end_document()
                self.index += 1
                self.in_document = True
                continue
            if not self.in_document:
                self.index += 1
                self.in_document = True
            opened = False
            while content[0] == "-" and (len(content) == 1 or content[1] == " "):
                self._entry(column)
                opened = True
                rest = content[1:].lstrip(" ")
                if not rest or rest[0] == "#":
                    content = ""
                    break
                column += len(content) - len(rest)
                content = rest
            if content:
                self._content(column, content, number, opened)
        self._end_document()
        return self.documents

    # -- structure -------------------------------------------------------------------

    def _entry(self, column: int) -> None:
        """A ``-`` at ``column``: a new entry of the sequence there."""
        stack = self.stack
        while True:
            if not stack:
                raise _Unsupported  # a sequence at the root: not a mapping
            top = stack[-1]
            if top.column > column:
                self._close(stack.pop())
                continue
            if top.column == column:
                if not top.is_map:
                    if top.pending:
                        top.container.append(None)
                    top.pending = True
                    return
                if not top.pending:
                    raise _Unsupported
                # a sequence at its key's indentation
            elif not top.pending:
                raise _Unsupported
            frame = _Frame(column, [], False)
            self._fill(top, frame.container)
            self._push(frame)
            frame.pending = True
            return

    def _key(self, column: int, key: str, number: int) -> _Frame:
        """A ``key:`` at ``column``: the mapping it belongs to, its key set."""
        stack = self.stack
        while True:
            if not stack:
                if self.root is not None:
                    raise _Unsupported  # a second root node
                frame = _Frame(column, {}, True)
                self.root = frame.container
                self.root_location = Location(self.source, number, column + 1)
                self._push(frame)
                break
            top = stack[-1]
            if top.column > column:
                self._close(stack.pop())
                continue
            if top.column == column:
                if top.is_map:
                    self._close(top)  # a key above without a value: null
                    frame = top
                    break
                # a key below a sequence at its key's indentation ends the sequence
                self._close(stack.pop())
                if not stack or not stack[-1].is_map or stack[-1].column != column:
                    raise _Unsupported
                continue
            if not top.pending:
                raise _Unsupported  # deeper than a value can be: a continuation line
            frame = _Frame(column, {}, True)
            self._fill(top, frame.container)
            self._push(frame)
            break
        if key in frame.container:
            raise _Unsupported  # a duplicate: the full loader reports it
        frame.key = key
        return frame

    def _push(self, frame: _Frame) -> None:
        if len(self.stack) >= _MAX_DEPTH:
            raise _Unsupported
        self.stack.append(frame)

    @staticmethod
    def _fill(frame: _Frame, value: Any) -> None:
        """Give ``frame`` the value it was waiting for."""
        if frame.is_map:
            frame.container[frame.key] = value
        else:
            frame.container.append(value)
        frame.pending = False

    def _close(self, frame: _Frame) -> None:
        if frame.pending:
            self._fill(frame, None)

    def _end_document(self) -> None:
        if self.literal is not None:
            self._end_literal()
        if self.quoted is not None:
            raise _Unsupported  # a quote not closed: the full loader says where
        while self.stack:
            self._close(self.stack.pop())
        if self.root is not None:
            location = self.root_location or Location(self.source)
            self.documents.append(
                Document(self.source, self.index, location, self.root, None, None, (), self.digest)
            )
        self.root = None
        self.root_location = None
        self.in_document = False

    # -- literal block scalars -------------------------------------------------------

    def _literal_line(self, line: str, content: str, number: int) -> bool:
        """A line while a ``|`` scalar is open: True when it is part of it, False when
        it ends it (the line is then read as any other)."""
        literal = self.literal
        assert literal is not None
        if not content:  # an empty line (spaces only): part of the text, or trailing
            literal.blanks = max(literal.blanks, len(line))
            literal.lines.append("")
            return True
        column = len(line) - len(content)
        if not literal.indent:
            # the first non-empty line sets the indentation (libyaml's auto-detection);
            # a line too little indented leaves the scalar empty
            if column < literal.minimum:
                self._end_literal()
                return False
            literal.indent = column
        if column < literal.indent:
            self._end_literal()
            return False
        literal.lines.append(line[literal.indent :])
        literal.last = number
        return True

    def _end_literal(self) -> None:
        """``|`` keeps the lines and the last one's line break, ``|-`` no final break."""
        literal = self.literal
        assert literal is not None
        self.literal = self.consume = None
        if literal.blanks > literal.indent:
            raise _Unsupported  # spaces beyond the indentation on an empty line
        lines = literal.lines
        while lines and not lines[-1]:
            lines.pop()  # trailing empty lines: chomped away
        if not lines:
            raise _Unsupported  # an empty scalar: libyaml's rules for it are subtle
        text = "\n".join(lines)
        broken = not literal.strip and literal.last != self.unbroken
        literal.container[literal.key] = text + "\n" if broken else text

    # -- quoted scalars over several lines -------------------------------------------

    def _quoted_line(self, line: str, content: str, number: int) -> bool:
        """A line of a quoted value that began above: folded as libyaml folds it (a
        line break is a space, each empty line a line break, the spaces around a break
        dropped; after an escaped break, ``\\`` at a line's end, nothing), up to the
        closing quote."""
        quoted = self.quoted
        assert quoted is not None
        if not content:
            quoted.blanks += 1
            return True
        if len(line) - len(content) < quoted.minimum:
            raise _Unsupported  # less indented than its key: the full loader decides
        part, end, escaped = _quoted_part(content, 0, quoted.quote)
        if quoted.blanks:
            quoted.parts.append("\n" * quoted.blanks)
        elif not quoted.escaped:
            quoted.parts.append(" ")
        quoted.parts.append(part)
        quoted.blanks = 0
        quoted.escaped = escaped
        if end is None:
            return True
        _end_of_line(content[end:])
        quoted.container[quoted.key] = "".join(quoted.parts)
        self.quoted = self.consume = None
        return True

    # -- a line's content ------------------------------------------------------------

    def _content(self, column: int, content: str, number: int, opened: bool) -> None:
        """``key: value``, ``key:``, or (after a ``-`` on this line) a scalar."""
        first = content[0]
        if first == "'" or first == '"':
            text, end = _quoted(content, 0)
            rest = content[end:]
            if rest[:1] != ":" or (len(rest) > 1 and rest[1] != " "):
                if not opened or self.stack[-1].is_map:
                    raise _Unsupported
                _end_of_line(rest)
                self._fill(self.stack[-1], text)
                return
            if end > _MAX_KEY:
                raise _Unsupported
            key = text
            after = rest[1:]
        else:
            # the key ends at the first ":" followed by a space or the end of the line
            colon = content.find(": ")
            if colon < 0:
                if content[-1] != ":":
                    if not opened or self.stack[-1].is_map:
                        raise _Unsupported  # a scalar alone on its line
                    self._fill(self.stack[-1], self._value(content))
                    return
                colon = len(content) - 1
            plain_key = content[:colon]
            key = self.keys.get(plain_key)  # type: ignore[assignment]
            if key is None:
                key = self._new_key(plain_key)
            after = content[colon + 1 :]  # " value", or nothing
        stack = self.stack
        top = stack[-1] if stack else None
        if (
            top is not None
            and top.column == column
            and top.is_map
            and not top.pending
            and key not in top.container
        ):
            frame = top  # the next key of the mapping being read: the usual line
            frame.key = key
        else:
            frame = self._key(column, key, number)
        text = after.lstrip(" ")
        if not text or text[0] == "#":
            frame.pending = True
            self.last_column = _NO_COLUMN
            return
        if text[0] == "|":
            self.literal = _Literal(frame.container, key, _literal_strips(text), frame.column + 1)
            self.consume = self._literal_line
            self.last_column = _NO_COLUMN
            return
        value = self.scalars.get(text, self)
        if value is self:
            if text[0] == "'" or text[0] == '"':
                first, closed, escaped = _quoted_part(text, 1, text[0])
                if closed is None:  # it goes on over the next lines
                    self.quoted = _Quoted(frame.container, key, text[0], frame.column + 1)
                    self.quoted.parts.append(first)
                    self.quoted.escaped = escaped
                    self.consume = self._quoted_line
                    self.last_column = _NO_COLUMN
                    return
            value = self._value(text)
        frame.container[key] = value
        # a plain value may go on over the next lines, more indented than its key
        self.last_value = text
        self.last_line = number
        self.last_column = frame.column

    def _continues(self, column: int, content: str, number: int) -> bool:
        """Whether ``content`` goes on with the plain value written last, a line or some
        empty lines above it and less indented (a line break is then a space, each
        empty line a line break, as libyaml folds a multi-line plain scalar)."""
        top = self.stack[-1] if self.stack else None
        if top is None or not top.is_map or top.pending or column <= top.column:
            return False
        between = self.lines[self.last_line : number - 1]
        if any(line.strip(" ") for line in between):
            return False  # not right below it: a comment, or other content, came between
        value = self.last_value
        if isinstance(value, str):
            if not _first_plain(value) or " #" in value:
                return False
            value = self.last_value = [value.rstrip(" ")]
        # any text goes on with it, indicators first included, but a key or a comment
        text = content.rstrip(" ")
        if ": " in text or text.endswith(":") or " #" in text or len(value) > _MAX_FOLDED:
            raise _Unsupported
        value.append("\n" * len(between) if between else " ")
        value.append(text)
        top.container[top.key] = json_value(resolve_plain("".join(value)))
        self.last_line = number
        return True

    def _new_key(self, text: str) -> str:
        """A plain key met for the first time: checked, resolved, kept."""
        first = text[:1]
        if (
            not first
            or first in _INDICATORS
            or first == "-"
            or " #" in text
            or text.endswith(" ")
            or text == "<<"
            or len(text) > _MAX_KEY
        ):
            raise _Unsupported
        key = self.keys[text] = json_key(resolve_plain(text))
        return key

    def _value(self, text: str) -> Any:
        """A value written after ``key: `` or ``- ``, to the end of the line."""
        first = text[0]
        if first == "'" or first == '"':
            value, end = _quoted(text, 0)
            _end_of_line(text[end:])
        elif first == "[" or first == "{":
            value, end = self._flow(text, 0, len(self.stack) + 1)
            _end_of_line(text[end:])
            return value  # a new container each time: not kept
        else:
            if not _first_plain(text):
                raise _Unsupported
            plain = text
            comment = plain.find(" #")
            if comment >= 0:
                plain = plain[:comment]
            plain = plain.rstrip(" ")
            if ": " in plain or plain.endswith(":"):
                raise _Unsupported
            value = json_value(resolve_plain(plain))
        self.scalars[text] = value
        return value

    def _plain(self, text: str) -> Any:
        """A flow collection's plain scalar (no quotes, comment or flow indicator in it,
        so it means what the same text after ``key: `` means)."""
        value = self.scalars.get(text, self)
        if value is self:
            value = self.scalars[text] = json_value(resolve_plain(text))
        return value

    def _flow(self, text: str, position: int, depth: int) -> tuple[Any, int]:
        """A one-line flow collection at ``position``, ``depth`` containers deep (its
        own included): its value and where it ends. Deeper than ``_MAX_DEPTH``, the
        full loader reads it (and counts the depth), whatever Python's recursion limit
        (a test runner's higher one let 500 levels through here, past ``MAX_DEPTH``)."""
        if depth >= _MAX_DEPTH:
            raise _Unsupported
        closing = "]" if text[position] == "[" else "}"
        is_map = closing == "}"
        out: Any = {} if is_map else []
        position = _skip_spaces(text, position + 1)
        if text[position : position + 1] == closing:
            return out, position + 1
        while True:
            if is_map:
                key, position = self._flow_scalar(text, position, key=True)
                if text[position : position + 2] != ": ":
                    raise _Unsupported
                position = _skip_spaces(text, position + 2)
                if key in out:
                    raise _Unsupported
                out[key], position = self._flow_item(text, position, depth)
            else:
                item, position = self._flow_item(text, position, depth)
                out.append(item)
            position = _skip_spaces(text, position)
            mark = text[position : position + 1]
            if mark == closing:
                return out, position + 1
            if mark != ",":
                raise _Unsupported
            position = _skip_spaces(text, position + 1)
            if text[position : position + 1] in (closing, ","):
                raise _Unsupported  # a trailing or doubled comma

    def _flow_item(self, text: str, position: int, depth: int) -> tuple[Any, int]:
        if text[position : position + 1] in ("[", "{"):
            return self._flow(text, position, depth + 1)
        return self._flow_scalar(text, position, key=False)

    def _flow_scalar(self, text: str, position: int, *, key: bool) -> tuple[Any, int]:
        first = text[position : position + 1]
        if first in ("'", '"'):
            return _quoted(text, position)
        found = _FLOW_PLAIN.match(text, position)
        if (
            found is None
            or first in _INDICATORS
            # "-" starts a plain scalar when a character of one follows it ("-c")
            or (first == "-" and found.group()[1:2] in ("", " "))
        ):
            raise _Unsupported
        plain = found.group().rstrip(" ")
        if not plain:
            raise _Unsupported
        end = position + len(plain)
        if key:
            resolved = self.keys.get(plain)
            return (self._new_key(plain) if resolved is None else resolved), end
        return self._plain(plain), end


def _quoted(text: str, position: int) -> tuple[str, int]:
    """The quoted scalar at ``position`` (closed on this line) and where it ends."""
    part, closed, _ = _quoted_part(text, position + 1, text[position])
    if closed is None:
        raise _Unsupported
    return part, closed


def _quoted_part(text: str, start: int, quote: str) -> tuple[str, int | None, bool]:
    """A quoted scalar's text from ``start`` to its closing quote or the line's end
    (then without the spaces before the break), where the quote ends (None when the
    line ends first), and whether the line ends in an escaped line break."""
    if quote == "'":
        part, end = _single_quoted_part(text, start)
        return (part if end is not None else part.rstrip(" ")), end, False
    end = text.find('"', start)
    if end >= 0 and text.find("\\", start, end) < 0:
        return text[start:end], end + 1, False  # the usual: closed, no escapes
    out = []
    position = start
    while True:
        found = _DOUBLE_SPECIAL.search(text, position)
        if found is None:
            out.append(text[position:].rstrip(" "))
            return "".join(out), None, False
        index = found.start()
        out.append(text[position:index])
        if text[index] == '"':
            return "".join(out), index + 1, False
        if index + 1 == len(text):
            return "".join(out), None, True  # "\\" ends the line: the break is escaped
        code = text[index + 1]
        simple = _ESCAPES.get(code)
        if simple is not None:
            out.append(simple)
            position = index + 2
            continue
        width = _HEX_ESCAPES.get(code, 0)
        digits = text[index + 2 : index + 2 + width]
        if not width or len(digits) != width or not _HEX_DIGITS.fullmatch(digits):
            raise _Unsupported  # not an escape libyaml knows: it reports it
        value = int(digits, 16)
        if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
            raise _Unsupported
        out.append(chr(value))
        position = index + 2 + width


def _single_quoted_part(text: str, start: int) -> tuple[str, int | None]:
    """A single-quoted scalar's text from ``start`` (``''`` read as ``'``) up to its
    closing quote, and where the quote ends; None for the end when the line ends first."""
    parts = []
    while True:
        end = text.find("'", start)
        if end < 0:
            parts.append(text[start:])
            return "'".join(parts), None
        parts.append(text[start:end])
        if text[end + 1 : end + 2] != "'":
            return "'".join(parts), end + 1
        start = end + 2


def _end_of_line(rest: str) -> None:
    """What may follow a value on its line: spaces, then a comment after a space."""
    stripped = rest.lstrip(" ")
    if stripped and (stripped[0] != "#" or stripped == rest):
        raise _Unsupported


def _skip_spaces(text: str, position: int) -> int:
    while text[position : position + 1] == " ":
        position += 1
    return position


class _Literal:
    """A ``key: |`` or ``key: |-`` value being read: its lines so far, the indentation
    they share (0 until the first non-empty one), and the least it may be."""

    __slots__ = ("blanks", "container", "indent", "key", "last", "lines", "minimum", "strip")

    def __init__(self, container: dict[str, Any], key: str, strip: bool, minimum: int) -> None:
        self.container = container
        self.key = key
        self.strip = strip
        self.minimum = minimum
        self.indent = 0
        self.lines: list[str] = []
        self.blanks = 0  # the longest empty line's spaces
        self.last = 0  # the number of the last non-empty line


def _literal_strips(header: str) -> bool:
    """Whether a literal's header (``|`` or ``|-``, then a comment or nothing) strips
    the final line break; other headers (``|+``, indentation digits) are not read here."""
    strip = header[1:2] == "-"
    _end_of_line(header[1 + strip :])  # so "|+", "|2", "|x" are refused
    return strip


def _first_plain(text: str) -> bool:
    """Whether ``text`` starts as a plain scalar in a block does (no indicator first)."""
    first = text[0]
    return first not in _INDICATORS and not (first == "-" and (len(text) == 1 or text[1] == " "))


class _Quoted:
    """A mapping's quoted value going on over several lines: its parts so far, the
    empty lines since the last, whether the last ended in an escaped line break."""

    __slots__ = ("blanks", "container", "escaped", "key", "minimum", "parts", "quote")

    def __init__(self, container: dict[str, Any], key: str, quote: str, minimum: int) -> None:
        self.container = container
        self.key = key
        self.quote = quote
        self.minimum = minimum
        self.parts: list[str] = []
        self.blanks = 0
        self.escaped = False
