"""Strings that match a CRD ``pattern``: a small RE2 parser and example generator.

CRD patterns are Go RE2 expressions evaluated with search semantics (a match anywhere
in the value passes, ``apiextensions-apiserver`` uses ``regexp.MatchString``). Python's
``re`` is not a faithful stand-in: it rejects RE2's mid-pattern flags such as
``^((?i)january|...)`` (kueue and velero use them) and it backtracks where RE2 does
not. So this module parses the RE2 subset that CRDs use into a tiny syntax tree and
*generates* candidate strings from it; *checking* a candidate is RE2's own job (the
caller injects the validation engine's matcher, see ``examples``).

Pure and stdlib-only. ``examples`` never raises for a pattern it cannot parse: it
yields nothing, and the caller reports the pattern as too hard.

Supported: literals and escapes (``\\d \\w \\s \\D \\W \\S \\xHH \\x{H..} \\t \\n \\pL``),
classes with ranges, negation and ``[:alpha:]``-style names, ``.``, groups (capturing,
``(?:...)``, ``(?P<name>...)``, ``(?flags)`` and ``(?flags:...)``), alternation,
``* + ? {n} {n,} {n,m}`` (lazy or not), and the zero-width ``^ $ \\A \\z \\b \\B``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from kubectl_crd.model.records import record

# Characters tried first when a class has to be turned into one character: what a
# human would type in a placeholder, so that e.g. ``[a-z0-9]`` gives ``a``, not ``0``.
_PREFERRED = (
    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "-._/:@=+~,;!#$%&'()*?[]^`{|}<>\"\\ "
)
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_SPACE = frozenset(" \t\n\r\f\v")
_DIGIT = frozenset("0123456789")
_POSIX = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "ascii": "\x00-\x7f",
    "blank": " \t",
    "cntrl": "\x00-\x1f\x7f",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@[-`{-~",
    "space": " \t\n\r\f\v",
    "upper": "A-Z",
    "word": "a-zA-Z0-9_",
    "xdigit": "0-9A-Fa-f",
}
# How many repetitions an unbounded ``*``/``+``/``{n,}`` may take while generating.
_MAX_EXTRA_REPEATS = 256


class PatternSyntaxError(ValueError):
    """A pattern outside the RE2 subset this module understands."""


# ---------------------------------------------------------------------------- tree


@record
class CharSet:
    """A set of characters as inclusive code point ranges, possibly negated."""

    ranges: tuple[tuple[int, int], ...]
    negated: bool = False
    ignore_case: bool = False

    def __contains__(self, char: str) -> bool:
        found = self._has(ord(char))
        if not found and self.ignore_case:
            other = char.swapcase()
            found = other != char and self._has(ord(other))
        return found != self.negated

    def _has(self, code: int) -> bool:
        return any(lo <= code <= hi for lo, hi in self.ranges)

    def choices(self) -> list[str]:
        """Members in placeholder-friendly order (the first ones a human would pick)."""
        picked = [c for c in _PREFERRED if c in self]
        if not picked and not self.negated:
            picked = [chr(lo) for lo, _ in self.ranges if lo > 0x1F][:4]
        return picked


@record
class Seq:
    items: tuple[Node, ...]


@record
class Alt:
    branches: tuple[Node, ...]


@record
class Repeat:
    node: Node
    min: int
    max: int | None  # None: unbounded


@record
class Assert:
    kind: str  # "^", "$", "b", "B"


Node = CharSet | Seq | Alt | Repeat | Assert


class _Flags:
    """The inline flags in force, ``(?i)`` and ``(?s)``; changed as groups set them."""

    __slots__ = ("dot_all", "ignore_case")

    def __init__(self, ignore_case: bool = False, dot_all: bool = False) -> None:
        self.ignore_case = ignore_case
        self.dot_all = dot_all


# -------------------------------------------------------------------------- parser


class _Parser:
    __slots__ = ("flags", "pos", "text")

    def __init__(self, text: str, pos: int = 0) -> None:
        self.text = text
        self.pos = pos
        self.flags = _Flags()

    def parse(self) -> Node:
        node = self._alternation()
        if self.pos != len(self.text):
            raise PatternSyntaxError(f"unexpected {self.text[self.pos]!r} at {self.pos}")
        return node

    def _peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _alternation(self) -> Node:
        saved = _Flags(self.flags.ignore_case, self.flags.dot_all)
        branches = [self._sequence()]
        while self._peek() == "|":
            self.pos += 1
            branches.append(self._sequence())
        self.flags = saved
        return branches[0] if len(branches) == 1 else Alt(tuple(branches))

    def _sequence(self) -> Node:
        items: list[Node] = []
        while self._peek() not in ("", "|", ")"):
            atom = self._atom()
            if atom is None:
                continue
            items.append(self._quantified(atom))
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def _quantified(self, atom: Node) -> Node:
        char = self._peek()
        if char in ("*", "+", "?"):
            self.pos += 1
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
            atom = Repeat(atom, low, high)
        elif char == "{" and (bounds := self._braces()) is not None:
            atom = Repeat(atom, *bounds)
        else:
            return atom
        if self._peek() == "?":  # lazy: same language
            self.pos += 1
        following = self._peek()
        if following in ("*", "+", "?") or (following == "{" and self._braces(peek=True)):
            raise PatternSyntaxError(f"bad repetition operator at {self.pos}")
        return atom

    def _braces(self, *, peek: bool = False) -> tuple[int, int | None] | None:
        end = self.text.find("}", self.pos)
        if end < 0:
            return None
        body = self.text[self.pos + 1 : end]
        low_text, comma, high_text = body.partition(",")
        if not low_text.isdigit() or (high_text and not high_text.isdigit()):
            return None  # RE2 reads a malformed repeat as literal text
        if not peek:
            self.pos = end + 1
        low = int(low_text)
        high: int | None = low if not comma else (int(high_text) if high_text else None)
        if high is not None and high < low:
            raise PatternSyntaxError(f"invalid repeat count {{{body}}}")
        return low, high

    def _atom(self) -> Node | None:
        char = self._peek()
        self.pos += 1
        if char == "(":
            return self._group()
        if char == "[":
            return self._class()
        if char == ".":
            excluded = () if self.flags.dot_all else ((10, 10),)
            return CharSet(excluded, negated=True)
        if char == "^":
            return Assert("^")
        if char == "$":
            return Assert("$")
        if char == "\\":
            return self._escape(in_class=False)
        if char in ("*", "+", "?"):
            raise PatternSyntaxError(f"missing argument to repetition operator {char!r}")
        return self._literal(char)

    def _literal(self, char: str) -> CharSet:
        code = ord(char)
        return CharSet(((code, code),), ignore_case=self.flags.ignore_case)

    def _group(self) -> Node | None:
        if self.text.startswith("?P<", self.pos) or self.text.startswith("?<", self.pos):
            self.pos = self.text.index(">", self.pos) + 1
        elif self._peek() == "?":
            end = self.pos + 1
            while end < len(self.text) and self.text[end] not in ":)":
                end += 1
            letters = self.text[self.pos + 1 : end]
            if end >= len(self.text):
                raise PatternSyntaxError("missing closing )")
            flags = self._apply_flags(letters)
            if self.text[end] == ")":  # (?i): flags for the rest of this group
                self.pos = end + 1
                self.flags = flags
                return None
            self.pos = end + 1
            saved, self.flags = self.flags, flags
            node = self._alternation()
            self._expect_close()
            self.flags = saved
            return node
        saved = _Flags(self.flags.ignore_case, self.flags.dot_all)
        node = self._alternation()
        self._expect_close()
        self.flags = saved
        return node

    def _apply_flags(self, letters: str) -> _Flags:
        flags = _Flags(self.flags.ignore_case, self.flags.dot_all)
        on = True
        for letter in letters:
            if letter == "-":
                on = False
            elif letter == "i":
                flags.ignore_case = on
            elif letter == "s":
                flags.dot_all = on
            elif letter in "mU":
                pass  # multi-line and ungreedy do not change which strings match whole
            else:
                raise PatternSyntaxError(f"unknown flag {letter!r}")
        return flags

    def _expect_close(self) -> None:
        if self._peek() != ")":
            raise PatternSyntaxError("missing closing )")
        self.pos += 1

    def _escape(self, *, in_class: bool) -> Node:
        char = self._peek()
        if not char:
            raise PatternSyntaxError("trailing backslash")
        self.pos += 1
        named = {
            "d": (_ranges_of(_DIGIT), False),
            "D": (_ranges_of(_DIGIT), True),
            "w": (_ranges_of(_WORD), False),
            "W": (_ranges_of(_WORD), True),
            "s": (_ranges_of(_SPACE), False),
            "S": (_ranges_of(_SPACE), True),
        }
        if char in named:
            ranges, negated = named[char]
            return CharSet(ranges, negated=negated)
        if not in_class:
            if char in ("A", "z"):
                return Assert("^" if char == "A" else "$")
            if char in ("b", "B"):
                return Assert(char)
        if char in ("p", "P"):
            if self._peek() == "{":
                self.pos = self.text.index("}", self.pos) + 1
            else:
                self.pos += 1
            # Unicode classes: letters are the useful approximation for placeholders.
            return CharSet(((65, 90), (97, 122), (0xC0, 0x24F)), negated=char == "P")
        simple = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}
        if char in simple:
            return self._literal(simple[char])
        if char == "x":
            return self._literal(chr(self._hex()))
        if char.isdigit() and char != "0":
            raise PatternSyntaxError("backreferences are not RE2")
        if char == "0":
            return self._literal("\0")
        return self._literal(char)

    def _hex(self) -> int:
        if self._peek() == "{":
            end = self.text.index("}", self.pos)
            digits = self.text[self.pos + 1 : end]
            self.pos = end + 1
        else:
            digits = self.text[self.pos : self.pos + 2]
            self.pos += 2
        try:
            return int(digits, 16)
        except ValueError as exc:
            raise PatternSyntaxError(f"invalid escape \\x{digits}") from exc

    def _class(self) -> CharSet:
        negated = self._peek() == "^"
        if negated:
            self.pos += 1
        ranges: list[tuple[int, int]] = []
        negated_parts: list[CharSet] = []
        first = True
        while True:
            char = self._peek()
            if not char:
                raise PatternSyntaxError("missing closing ]")
            if char == "]" and not first:
                self.pos += 1
                break
            first = False
            if self.text.startswith("[:", self.pos):
                end = self.text.find(":]", self.pos)
                name = self.text[self.pos + 2 : end] if end > 0 else ""
                spec = _POSIX.get(name.lstrip("^"))
                if spec is None:
                    raise PatternSyntaxError(f"invalid character class [:{name}:]")
                self.pos = end + 2
                part = _Parser(f"[{'^' if name.startswith('^') else ''}{spec}]", 1)._class()
                if part.negated:
                    negated_parts.append(part)
                else:
                    ranges.extend(part.ranges)
                continue
            low = self._class_char()
            if isinstance(low, CharSet):
                if low.negated:
                    negated_parts.append(low)
                else:
                    ranges.extend(low.ranges)
                continue
            if self._peek() == "-" and self.text[self.pos + 1 : self.pos + 2] not in ("]", ""):
                self.pos += 1
                high = self._class_char()
                if isinstance(high, CharSet):
                    raise PatternSyntaxError("invalid character class range")
                if ord(high) < ord(low):
                    raise PatternSyntaxError(f"invalid character class range {low}-{high}")
                ranges.append((ord(low), ord(high)))
            else:
                ranges.append((ord(low), ord(low)))
        if negated_parts:
            # [^\S] and [\W\d] style: approximate by listing printable ASCII members.
            members = {c for part in negated_parts for c in map(chr, range(32, 127)) if c in part}
            ranges.extend(_ranges_of(frozenset(members)))
        return CharSet(tuple(ranges), negated=negated, ignore_case=self.flags.ignore_case)

    def _class_char(self) -> str | CharSet:
        char = self._peek()
        self.pos += 1
        if char != "\\":
            return char
        node = self._escape(in_class=True)
        if isinstance(node, CharSet) and len(node.ranges) == 1 and not node.negated:
            lo, hi = node.ranges[0]
            if lo == hi:
                return chr(lo)
        if isinstance(node, CharSet):
            return node
        raise PatternSyntaxError("invalid escape in character class")


def _ranges_of(chars: frozenset[str]) -> tuple[tuple[int, int], ...]:
    return tuple((ord(c), ord(c)) for c in sorted(chars))


def parse(pattern: str) -> Node:
    """Parse an RE2 pattern; raises ``PatternSyntaxError`` outside the supported subset."""
    try:
        return _Parser(pattern).parse()
    except (IndexError, ValueError) as exc:
        if isinstance(exc, PatternSyntaxError):
            raise
        raise PatternSyntaxError(str(exc)) from exc


# ----------------------------------------------------------------------- generator


def examples(
    pattern: str,
    *,
    min_length: int = 0,
    max_length: int | None = None,
    preferred: tuple[str, ...] = (),
    limit: int = 400,
    matches: Callable[[str], bool] | None = None,
) -> Iterator[str]:
    """Distinct strings matching ``pattern`` within the length bounds, nicest first.

    ``preferred`` placeholders (``"example"``, a URL, ...) come first when they match
    (so only with ``matches``);
    then strings built from the pattern itself. The generator ignores anchors and
    may overshoot, so each string is checked with ``matches`` (injected: Go's RE2
    ``regexp.MatchString`` from the validation engine, which ``model`` cannot import)
    before it is yielded; without one, the strings are unchecked candidates.
    """
    try:
        node = parse(pattern)
    except PatternSyntaxError:
        return
    seen: set[str] = set()

    def fits(candidate: str) -> bool:
        return (
            candidate not in seen
            and len(candidate) >= min_length
            and (max_length is None or len(candidate) <= max_length)
            and (matches is None or matches(candidate))
        )

    # A placeholder owes nothing to the pattern: without a matcher it cannot be offered.
    for candidate in preferred if matches else ():
        if fits(candidate):
            seen.add(candidate)
            yield candidate
    targets = [min_length] if min_length else [0, 1]
    tried = 0
    for target in targets:
        for candidate in _generate(node, target):
            tried += 1
            if tried > limit:
                return
            if fits(candidate):
                seen.add(candidate)
                yield candidate


def _min_length(node: Node) -> int:
    if isinstance(node, CharSet):
        return 1
    if isinstance(node, Assert):
        return 0
    if isinstance(node, Seq):
        return sum(_min_length(i) for i in node.items)
    if isinstance(node, Alt):
        return min(_min_length(b) for b in node.branches)
    return node.min * _min_length(node.node)


def _generate(node: Node, need: int) -> Iterator[str]:
    """Strings of the node's language, trying to be at least ``need`` characters long.

    Anchors are ignored here (the matcher filters out what they forbid), which keeps
    generation a plain product over the tree.
    """
    if isinstance(node, CharSet):
        yield from node.choices()[:3]
    elif isinstance(node, Assert):
        yield ""
    elif isinstance(node, Alt):
        # Round-robin over branches so that every branch gets an early try.
        iterators = [_generate(b, need) for b in node.branches]
        for group in itertools.zip_longest(*iterators):
            yield from (g for g in group if g is not None)
    elif isinstance(node, Seq):
        yield from _generate_seq(node.items, need)
    else:
        yield from _generate_repeat(node, need)


def _generate_seq(items: tuple[Node, ...], need: int) -> Iterator[str]:
    if not items:
        yield ""
        return
    head, rest = items[0], items[1:]
    rest_min = sum(_min_length(i) for i in rest)
    for first in itertools.islice(_generate(head, max(0, need - rest_min)), 3):
        for tail in itertools.islice(_generate_seq(rest, max(0, need - len(first))), 9):
            yield first + tail


def _generate_repeat(node: Repeat, need: int) -> Iterator[str]:
    units = list(itertools.islice(_generate(node.node, 0), 3))
    if not units:
        if node.min == 0:
            yield ""
        return
    upper = node.max if node.max is not None else node.min + _MAX_EXTRA_REPEATS
    for unit in units:
        count = node.min
        if need and unit:
            count = max(count, -(-need // len(unit)))
        count = min(count, upper)
        yield unit * count
        if count != node.min:
            yield unit * node.min
        if count < upper and not need:
            yield unit * (count + 1)
