"""YAML byte for byte as ``kubectl -o yaml`` writes it.

kubectl's YAML printer is ``sigs.k8s.io/yaml.Marshal``: ``json.Marshal``, then the JSON
read back by go-yaml v2 into ``interface{}`` and written by go-yaml v2's emitter (a port
of libyaml's ``emitter.c``, unicode on, width 80, indent 2). This module writes plain
data (what a JSON decoder gives) the same way, so ``kubectl crd get -o yaml`` and
``scale -o yaml`` print kubectl's text, not merely equivalent YAML.

What it mirrors, from go-yaml v2 (``encode.go``, ``emitterc.go``, ``sorter.go``):

- map keys in ``keyList.Less`` order: rune by rune, letters after other characters,
  digit runs compared as numbers (``a9`` before ``a10``);
- a sequence in a mapping is not indented (``- `` at the key's column), ``{}``/``[]``
  for empty collections, a scalar's continuation lines two columns in;
- strings: plain unless go-yaml's resolver would read them back as something else
  (``resolve``; ``"257"``, ``"true"``, ``"2024-01-01T00:00:00Z"``, ``""``) or base-60
  floats (``"1:20"``), which are double-quoted; a string with a newline as a literal
  block (``|``, ``|-``, ``|+``, ``|2``) when the emitter allows it; the emitter's
  scalar analysis then demotes plain to single-quoted (indicators, outer spaces) and
  single to double-quoted (special characters, a space next to a line break);
- long plain, single- and double-quoted scalars folded at a space once the line is
  past column 80, as go-yaml does (keys never);
- numbers as JSON gave them: an integral float is an int (``json.Marshal`` writes no
  ``.0`` and go-yaml reads an int back), other floats as Go's ``%g`` shortest form;
- the JSON text is read by a YAML parser: ``json.Marshal`` leaves U+0085 (NEL) raw,
  and YAML takes it for a line break inside a double-quoted scalar and folds it
  (``_as_yaml_reads_json``), so kubectl prints ``"a\u0085b"`` as ``a b``.

``dump_yaml`` (``io.dumping``) stays the tool's own writer (comments, our quoting); this
one exists only to match kubectl's bytes. Keys longer than 128 bytes (written by go-yaml
as ``? key``) are not handled.
"""

from __future__ import annotations

import re
from functools import cmp_to_key

from kubectl_crd.model.govalues import go_float_v
from kubectl_crd.model.yamlscalars import STR_TAG, resolve_tag

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any

__all__ = ["kubectl_yaml"]

_BEST_WIDTH = 80
_BEST_INDENT = 2
_BREAKS = "\n\r\x85\u2028\u2029"
# isBase60Float (go-yaml v2 encode.go): "1:20" would read back as a sexagesimal float
_BASE60_FLOAT = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
_ESCAPES = {
    0x00: "0",
    0x07: "a",
    0x08: "b",
    0x09: "t",
    0x0A: "n",
    0x0B: "v",
    0x0C: "f",
    0x0D: "r",
    0x1B: "e",
    0x22: '"',
    0x5C: "\\",
    0x85: "N",
    0xA0: "_",
    0x2028: "L",
    0x2029: "P",
}


def kubectl_yaml(value: Any) -> str:
    """The text ``kubectl -o yaml`` prints for ``value`` (JSON-decoded data)."""
    emitter = _Emitter()
    emitter.node(value, indent=-1, mapping_context=False)
    if not emitter.out or not emitter.out[-1].endswith("\n"):
        emitter.out.append("\n")
    return "".join(emitter.out)


# a raw NEL in the JSON text, with the spaces around it: one folds to a space, each one
# after the first is kept as a newline (libyaml's double-quoted scanner)
_FOLDED_NEL = re.compile("[ ]*\x85[ \x85]*")


def _as_yaml_reads_json(text: str) -> str:
    """A string as go-yaml reads it back from ``json.Marshal``'s text."""
    if "\x85" not in text:
        return text
    return _FOLDED_NEL.sub(lambda m: "\n" * (m.group().count("\x85") - 1) or " ", text)


def _printable(char: str) -> bool:
    """libyaml's ``is_printable`` (on UTF-8 bytes): tab, CR, NEL, the BOM, U+FFFE/F and
    everything past the Basic Multilingual Plane are not."""
    code = ord(char)
    return (
        code == 0x0A
        or 0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
    )


def _key_less(a: str, b: str) -> bool:
    """go-yaml v2's ``keyList.Less`` for two string keys."""
    for i in range(min(len(a), len(b))):
        x, y = a[i], b[i]
        if x == y:
            continue
        x_letter, y_letter = x.isalpha(), y.isalpha()
        if x_letter and y_letter:
            return x < y
        if x_letter or y_letter:
            return y_letter
        a_number = b_number = 0
        if x == "0" or y == "0":
            j = i - 1
            while j >= 0 and a[j].isdecimal():
                if a[j] != "0":
                    a_number = b_number = 1
                    break
                j -= 1
        ai = i
        while ai < len(a) and a[ai].isdecimal():
            a_number = a_number * 10 + (ord(a[ai]) - 48)
            ai += 1
        bi = i
        while bi < len(b) and b[bi].isdecimal():
            b_number = b_number * 10 + (ord(b[bi]) - 48)
            bi += 1
        if a_number != b_number:
            return a_number < b_number
        if ai != bi:
            return ai < bi
        return x < y
    return len(a) < len(b)


def _compare_keys(a: str, b: str) -> int:
    return -1 if _key_less(a, b) else (1 if _key_less(b, a) else 0)


_SORT_KEY = cmp_to_key(_compare_keys)


class _Analysis:
    """libyaml's ``yaml_emitter_analyze_scalar``: which styles can write a string."""

    __slots__ = ("block", "block_plain", "single")

    def __init__(self, text: str) -> None:
        if not text:
            self.block_plain, self.single, self.block = True, True, False
            return
        block_indicators = flow_indicators = line_breaks = special = False
        leading_space = leading_break = trailing_space = trailing_break = False
        break_space = space_break = previous_space = previous_break = False
        if text.startswith(("---", "...")):
            block_indicators = flow_indicators = True
        preceded_by_whitespace = True
        last = len(text) - 1
        for i, char in enumerate(text):
            followed_by_whitespace = i == last or text[i + 1] in " \t"
            if i == 0:
                if char in "#,[]{}&*!|>'\"%@`":
                    flow_indicators = block_indicators = True
                elif char in "?:":
                    flow_indicators = True
                    block_indicators = block_indicators or followed_by_whitespace
                elif char == "-" and followed_by_whitespace:
                    flow_indicators = block_indicators = True
            elif char in ",?[]{}":
                flow_indicators = True
            elif char == ":":
                flow_indicators = True
                block_indicators = block_indicators or followed_by_whitespace
            elif char == "#" and preceded_by_whitespace:
                flow_indicators = block_indicators = True
            if not _printable(char):
                special = True
            if char == " ":
                leading_space = leading_space or i == 0
                trailing_space = trailing_space or i == last
                break_space = break_space or previous_break
                previous_space, previous_break = True, False
            elif char in _BREAKS:
                line_breaks = True
                leading_break = leading_break or i == 0
                trailing_break = trailing_break or i == last
                space_break = space_break or previous_space
                previous_space, previous_break = False, True
            else:
                previous_space = previous_break = False
            preceded_by_whitespace = char in " \t" or char in _BREAKS
        self.block_plain = self.single = self.block = True
        if leading_space or leading_break or trailing_space or trailing_break:
            self.block_plain = False
        if trailing_space:
            self.block = False
        if break_space:
            self.block_plain = self.single = False
        if space_break or special:
            self.block_plain = self.single = self.block = False
        if line_breaks or block_indicators:
            self.block_plain = False
        del flow_indicators  # only flow style (never written here) would use it


class _Emitter:
    """The parts of go-yaml v2's emitter that block-style output of plain data uses:
    the column and indentation state (``indent``, ``whitespace``, ``indention``)."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.column = 0
        self.whitespace = True
        self.indention = True
        self.indent = -1

    # -- the writer's primitives (put, write_indent, write_indicator) -----------------

    def put(self, text: str) -> None:
        self.out.append(text)
        self.column += len(text)

    def put_break(self) -> None:
        self.out.append("\n")
        self.column = 0

    def write_indent(self) -> None:
        indent = max(self.indent, 0)
        if (
            not self.indention
            or self.column > indent
            or (self.column == indent and not self.whitespace)
        ):
            self.put_break()
        if self.column < indent:
            self.put(" " * (indent - self.column))
        self.whitespace = self.indention = True

    def write_indicator(
        self, indicator: str, need_whitespace: bool, is_whitespace: bool, is_indention: bool
    ) -> None:
        if need_whitespace and not self.whitespace:
            self.put(" ")
        self.put(indicator)
        self.whitespace = is_whitespace
        self.indention = self.indention and is_indention

    # -- nodes -------------------------------------------------------------------------

    def node(self, value: Any, *, indent: int, mapping_context: bool) -> None:
        """A node in block context; ``indent`` is the enclosing collection's."""
        if isinstance(value, dict) and value:
            self.mapping(value, indent)
        elif isinstance(value, list) and value:
            self.sequence(value, indent, indentless=mapping_context and not self.indention)
        elif isinstance(value, dict):
            self.write_indicator("{}", True, False, False)
        elif isinstance(value, list):
            self.write_indicator("[]", True, False, False)
        else:
            self.scalar(value, indent, simple_key=False)

    def mapping(self, mapping: dict[str, Any], indent: int) -> None:
        saved = self.indent
        self.indent = _BEST_INDENT + indent if indent >= 0 else 0
        for key in sorted(mapping, key=_SORT_KEY):
            self.write_indent()
            self.scalar(str(key), self.indent, simple_key=True)
            self.write_indicator(":", False, False, False)
            self.node(mapping[key], indent=self.indent, mapping_context=True)
        self.indent = saved

    def sequence(self, items: list[Any], indent: int, *, indentless: bool) -> None:
        saved = self.indent
        if indentless:
            self.indent = max(indent, 0)
        else:
            self.indent = _BEST_INDENT + indent if indent >= 0 else 0
        for item in items:
            self.write_indent()
            self.write_indicator("-", True, False, True)
            self.node(item, indent=self.indent, mapping_context=False)
        self.indent = saved

    # -- scalars -----------------------------------------------------------------------

    def scalar(self, value: Any, indent: int, *, simple_key: bool) -> None:
        saved = self.indent
        # emit_scalar's increase_indent(flow=true): continuation lines two columns in
        self.indent = _BEST_INDENT + indent if indent >= 0 else 0
        if value is None:
            self.plain("null", allow_breaks=not simple_key)
        elif isinstance(value, bool):
            self.plain("true" if value else "false", allow_breaks=not simple_key)
        elif isinstance(value, int):
            self.plain(str(value), allow_breaks=not simple_key)
        elif isinstance(value, float):
            # json.Marshal writes an integral float64 without ".0"; go-yaml reads an int
            text = (
                str(int(value)) if value.is_integer() and abs(value) < 1e21 else go_float_v(value)
            )
            self.plain(text, allow_breaks=not simple_key)
        else:
            self.string(str(value), simple_key=simple_key)
        self.indent = saved

    def string(self, text: str, *, simple_key: bool) -> None:
        """``encoder.stringv`` then ``yaml_emitter_select_scalar_style``."""
        text = _as_yaml_reads_json(text)
        can_use_plain = resolve_tag(text) == STR_TAG and not _BASE60_FLOAT.match(text)
        analysis = _Analysis(text)
        if "\n" in text:
            style = "literal"
        elif can_use_plain:
            style = "plain"
        else:
            style = "double"
        if style == "plain" and (not analysis.block_plain or (not text and simple_key)):
            style = "single"
        if style == "single" and not analysis.single:
            style = "double"
        if style == "literal" and (not analysis.block or simple_key):
            style = "double"
        allow_breaks = not simple_key
        if style == "plain":
            self.plain(text, allow_breaks=allow_breaks)
        elif style == "single":
            self.single_quoted(text, allow_breaks=allow_breaks)
        elif style == "double":
            self.double_quoted(text, allow_breaks=allow_breaks)
        else:
            self.literal(text)

    def _fold_here(self, spaces: bool, allow_breaks: bool) -> bool:
        """At a space: break the line here (past column 80, not in a run of spaces)."""
        return allow_breaks and not spaces and self.column > _BEST_WIDTH

    def plain(self, text: str, *, allow_breaks: bool) -> None:
        if not self.whitespace:
            self.put(" ")
        spaces = False
        for i, char in enumerate(text):
            if char == " ":
                following = text[i + 1] if i + 1 < len(text) else ""
                if self._fold_here(spaces, allow_breaks) and following != " ":
                    self.write_indent()
                else:
                    self.put(char)
                spaces = True
            else:
                self.put(char)
                self.indention = False
                spaces = False
        self.whitespace = self.indention = False

    def single_quoted(self, text: str, *, allow_breaks: bool) -> None:
        self.write_indicator("'", True, False, False)
        spaces = breaks = False
        last = len(text) - 1
        for i, char in enumerate(text):
            if char == " ":
                following = text[i + 1] if i < last else ""
                if self._fold_here(spaces, allow_breaks) and 0 < i < last and following != " ":
                    self.write_indent()
                else:
                    self.put(char)
                spaces = True
            elif char in _BREAKS:  # U+2028 and U+2029: json.Marshal escapes "\n"
                self.out.append(char)
                self.column = 0
                self.indention = breaks = True
            else:
                if breaks:
                    self.write_indent()
                    breaks = False
                if char == "'":
                    self.put("'")
                self.put(char)
                self.indention = False
                spaces = False
        self.write_indicator("'", False, False, False)
        self.whitespace = self.indention = False

    def double_quoted(self, text: str, *, allow_breaks: bool) -> None:
        self.write_indicator('"', True, False, False)
        spaces = False
        last = len(text) - 1
        for i, char in enumerate(text):
            code = ord(char)
            if not _printable(char) or code == 0xFEFF or char in _BREAKS or char in '"\\':
                escape = _ESCAPES.get(code)
                if escape is None:
                    if code <= 0xFF:
                        escape = f"x{code:02X}"
                    elif code <= 0xFFFF:
                        escape = f"u{code:04X}"
                    else:
                        escape = f"U{code:08X}"
                self.put("\\" + escape)
                spaces = False
            elif char == " ":
                if self._fold_here(spaces, allow_breaks) and 0 < i < last:
                    self.write_indent()
                    if text[i + 1] == " ":
                        self.put("\\")
                else:
                    self.put(char)
                spaces = True
            else:
                self.put(char)
                spaces = False
        self.write_indicator('"', False, False, False)
        self.whitespace = self.indention = False

    def literal(self, text: str) -> None:
        self.write_indicator("|", True, False, False)
        if text[0] == " " or text[0] in _BREAKS:
            self.write_indicator(str(_BEST_INDENT), False, False, False)
        if not text.endswith(tuple(_BREAKS)):
            self.write_indicator("-", False, False, False)
        elif len(text) == 1 or text[-2] in _BREAKS:
            self.write_indicator("+", False, False, False)
        self.put_break()
        self.indention = self.whitespace = True
        breaks = True
        for char in text:
            if char in _BREAKS:
                self.out.append(char)
                self.column = 0
                self.indention = True
                breaks = True
            else:
                if breaks:
                    self.write_indent()
                    breaks = False
                self.put(char)
                self.indention = False
