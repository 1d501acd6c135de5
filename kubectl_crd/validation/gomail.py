"""Go's ``net/mail.ParseAddress``, as a yes or no: what kube-openapi's ``email`` format
asks (``strfmt.IsEmail``). A port of ``src/net/mail/message.go``'s ``addrParser``:
an addr-spec (dot-atom or quoted-string local part, dot-atom or domain-literal
domain) optionally followed by a parenthesised display name, else a phrase and an
angle-addr, or a group (``name: addr;``) of exactly one address; comments (CFWS)
around. Characters past ASCII are RFC 6532's multibyte text (atext, qtext, dtext).

Pure: stdlib, the model layer, and ``validation.decoding``'s Go base64 (imported only
for a base64 encoded-word).
"""

from __future__ import annotations

from kubectl_crd.model.gonetip import parse_ip

#: RFC 5322 specials: never atext
_SPECIALS = frozenset('()<>[]:;@\\,"')


class _Refused(Exception):
    """The parser's error: the address is not one."""


def _vchar(char: str) -> bool:
    return "!" <= char <= "~" or char >= "\x80"


def _atext(char: str, dot: bool) -> bool:
    if char == ".":
        return dot
    return char not in _SPECIALS and _vchar(char)


def _qtext(char: str) -> bool:
    return char not in '\\"' and _vchar(char)


def _dtext(char: str) -> bool:
    return char not in "[]\\" and _vchar(char)


class _Parser:
    def __init__(self, text: str) -> None:
        self.s = text

    # -- the primitives ---------------------------------------------------------------

    def consume(self, char: str) -> bool:
        if self.s[:1] == char:
            self.s = self.s[1:]
            return True
        return False

    def skip_space(self) -> None:
        self.s = self.s.lstrip(" \t")

    def skip_cfws(self) -> bool:
        self.skip_space()
        while self.consume("("):
            if self.comment() is None:
                return False
            self.skip_space()
        return True

    def comment(self) -> str | None:
        """``consumeComment`` after its '(': the text, or None when it never closes."""
        depth = 1
        out = []
        while self.s and depth:
            first = self.s[0]
            if first == "\\" and len(self.s) > 1:
                self.s = self.s[1:]
            elif first == "(":
                depth += 1
            elif first == ")":
                depth -= 1
            if depth:
                out.append(self.s[0])
            self.s = self.s[1:]
        return "".join(out) if depth == 0 else None

    # -- the grammar ------------------------------------------------------------------

    def single_address(self) -> None:
        count = self.address(handle_group=True)
        if not self.skip_cfws() or self.s or count != 1:
            raise _Refused

    def address(self, *, handle_group: bool) -> int:
        """``parseAddress``: how many addresses it read (a group's may be 0 or more)."""
        self.skip_space()
        if not self.s:
            raise _Refused
        saved = self.s
        try:
            self.addr_spec()
        except _Refused:
            self.s = saved
        else:
            self.skip_space()
            if self.s[:1] == "(":
                self.display_name_comment()
            return 1
        if self.s[:1] != "<":
            self.phrase()
        self.skip_space()
        if handle_group and self.consume(":"):
            return self.group_list()
        if not self.consume("<"):
            raise _Refused
        self.addr_spec()
        if not self.consume(">"):
            raise _Refused
        return 1

    def group_list(self) -> int:
        count = 0
        self.skip_space()
        if self.consume(";"):
            if not self.skip_cfws():
                raise _Refused
            return 0
        while True:
            self.skip_space()
            count += self.address(handle_group=False)
            if not self.skip_cfws():
                raise _Refused
            if self.consume(";"):
                if not self.skip_cfws():
                    raise _Refused
                return count
            if not self.consume(","):
                raise _Refused

    def addr_spec(self) -> None:
        """``consumeAddrSpec``; the caller restores ``s`` when it refuses."""
        self.skip_space()
        if not self.s:
            raise _Refused
        if self.s[0] == '"':
            if not self.quoted_string():
                raise _Refused  # an empty quoted local part
        else:
            self.atom(dot=True, permissive=False)
        if not self.consume("@"):
            raise _Refused
        self.skip_space()
        if not self.s:
            raise _Refused
        if self.s[0] == "[":
            self.domain_literal()
        else:
            self.atom(dot=True, permissive=False)

    def phrase(self) -> None:
        """``consumePhrase``: words (atoms, permissive dot-atoms, quoted strings) until
        one fails; refused only when none was read. Encoded-words in a row make one
        word, and CFWS is skipped only once a word is complete (Go's ``words``)."""
        words = 0
        pending = False  # encoded-words read since the last plain word (Go's ``sb``)
        failed = False
        while True:
            if words and not self.skip_cfws():
                raise _Refused
            self.skip_space()
            if not self.s:
                break
            encoded = False
            try:
                if self.s[0] == '"':
                    self.quoted_string()
                else:
                    found = _encoded_word(self.atom(dot=True, permissive=True))
                    if found == _CHARSET_REFUSED:
                        raise _Refused
                    if found != _PLAIN:
                        encoded, pending = True, pending or found == _TEXT
            except _Refused:
                failed = True
                break
            if not encoded:
                words += 2 if pending else 1
                pending = False
        if pending:
            words += 1
        if failed and not words:
            raise _Refused

    def quoted_string(self) -> str:
        """``consumeQuotedString`` at a '"': its content."""
        out = []
        index = 1
        escaped = False
        while True:
            if index >= len(self.s):
                raise _Refused  # unclosed
            char = self.s[index]
            if escaped:
                if not (_vchar(char) or char in " \t"):
                    raise _Refused
                out.append(char)
                escaped = False
            elif _qtext(char) or char in " \t":
                out.append(char)
            elif char == '"':
                break
            elif char == "\\":
                escaped = True
            else:
                raise _Refused
            index += 1
        self.s = self.s[index + 1 :]
        return "".join(out)

    def atom(self, *, dot: bool, permissive: bool) -> str:
        index = 0
        while index < len(self.s) and _atext(self.s[index], dot):
            index += 1
        if index == 0:
            raise _Refused
        atom, self.s = self.s[:index], self.s[index:]
        if not permissive and (atom.startswith(".") or ".." in atom or atom.endswith(".")):
            raise _Refused
        return atom

    def domain_literal(self) -> None:
        self.consume("[")
        index = 0
        while True:
            if index >= len(self.s):
                raise _Refused  # unclosed
            char = self.s[index]
            if char == "]":
                break
            if not _dtext(char):
                raise _Refused
            index += 1
        literal, self.s = self.s[:index], self.s[index + 1 :]
        if parse_ip(literal) is None:
            raise _Refused

    def display_name_comment(self) -> None:
        self.consume("(")
        comment = self.comment()
        if comment is None:
            raise _Refused
        for word in comment.replace("\t", " ").split(" "):
            if word and _encoded_word(word) == _CHARSET_REFUSED:
                raise _Refused


#: what ``_encoded_word`` finds
_PLAIN, _EMPTY, _TEXT, _CHARSET_REFUSED = range(4)


def _encoded_word(word: str) -> int:
    """``decodeRFC2047Word``: whether ``word`` is a well-formed RFC 2047 encoded-word
    whose text decodes (to nothing, ``_EMPTY``, or to something, ``_TEXT``),
    ``_CHARSET_REFUSED`` when its charset is not one ``mime.WordDecoder`` converts
    itself (net/mail's decoder knows no other: ``charset not supported``), or
    ``_PLAIN``: any other word, taken as plain text."""
    if (
        len(word) < 8
        or not word.startswith("=?")
        or not word.endswith("?=")
        or word.count("?") != 4
    ):
        return _PLAIN
    charset, _, rest = word[2:-2].partition("?")
    encoding, _, text = rest.partition("?")
    if not charset or len(encoding) != 1:
        return _PLAIN
    if encoding in "Bb":
        from kubectl_crd.validation.decoding import go_base64

        content, error = go_base64(text)
        if error is not None:
            return _PLAIN
        empty = not content
    elif encoding in "Qq":
        if not _q_decodes(text):
            return _PLAIN
        empty = not text
    else:
        return _PLAIN
    if charset.lower() not in ("utf-8", "iso-8859-1", "us-ascii"):
        return _CHARSET_REFUSED
    return _EMPTY if empty else _TEXT


def _q_decodes(text: str) -> bool:
    """``qDecode`` succeeds: printable ASCII, ``_``, and ``=XX`` hex escapes."""
    index = 0
    while index < len(text):
        char = text[index]
        if char == "=":
            if index + 2 >= len(text):
                return False
            if not all(c in "0123456789abcdefABCDEF" for c in text[index + 1 : index + 3]):
                return False
            index += 2
        elif not (" " <= char <= "~" or char in "\n\r\t"):
            return False
        index += 1
    return True


def is_address(text: str) -> bool:
    """``mail.ParseAddress(text)`` succeeds."""
    try:
        _Parser(text).single_address()
    except _Refused:
        return False
    return True
