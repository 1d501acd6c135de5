"""Go's ``strconv`` as kubectl's messages and flags use it; each function defined once.

- ``go_quote``: ``strconv.Quote`` (``src/strconv/quote.go``), which ``%q`` of a string
  prints: the values in pflag's and field.Error's messages, a printer column's path;
  ``go_bytes``: the bytes a Go string holds for a Python character (the time package's
  own quote, ``model.durations``, escapes them too).
- ``parse_go_bool``: ``strconv.ParseBool`` (``src/strconv/atob.go``): ``cli.options``
  reads a switch given ``=VALUE`` with it (pflag's bool flags,
  ``github.com/spf13/pflag/bool.go``), ``model.scaleflags`` the old boolean spelling of
  ``--dry-run`` (``GetDryRunStrategy``).

Pure, and imports nothing: ``cli.options`` loads it on every click-parsed command line.
(``model.govalues``, which re-exports ``go_quote``, imports ``json``: start-up needs none.)
"""

from __future__ import annotations

_QUOTE_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
    '"': '\\"',
}


def go_bytes(char: str) -> bytes:
    """The bytes of ``char`` in a Go string: its UTF-8; a lone surrogate, which no UTF-8
    holds, is what the text was before Python decoded it: the byte an argument's
    ``surrogateescape`` kept (U+DC80-U+DCFF), else the three bytes of the surrogate."""
    if "\udc80" <= char <= "\udcff":
        return char.encode("utf-8", "surrogateescape")
    return char.encode("utf-8", "surrogatepass")


def go_quote(text: str) -> str:
    """``strconv.Quote``: printable runes kept, the rest escaped the way Go does."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'  # nothing to escape (a name, a key: the usual text), no walk
    out = ['"']
    for char in text:
        escaped = _QUOTE_ESCAPES.get(char)
        if escaped is not None:
            out.append(escaped)
        elif char.isprintable() or char == " ":
            out.append(char)
        elif "\ud800" <= char <= "\udfff":
            # not UTF-8 in Go: each byte of an invalid sequence is quoted as \xNN
            out.extend(f"\\x{byte:02x}" for byte in go_bytes(char))
        else:
            code = ord(char)
            if code < 0x80:
                out.append(f"\\x{code:02x}")
            elif code < 0x10000:
                out.append(f"\\u{code:04x}")
            else:
                out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


#: The spellings ``strconv.ParseBool`` accepts: these twelve, case and all, nothing else.
_GO_BOOLS = {
    **dict.fromkeys(("1", "t", "T", "TRUE", "true", "True"), True),
    **dict.fromkeys(("0", "f", "F", "FALSE", "false", "False"), False),
}


def parse_go_bool(text: str) -> bool:
    """``text`` as ``strconv.ParseBool`` reads it; any other spelling raises ``ValueError``
    with Go's error text (``strconv.ParseBool: parsing "x": invalid syntax``)."""
    try:
        return _GO_BOOLS[text]
    except KeyError:
        raise ValueError(f"strconv.ParseBool: parsing {go_quote(text)}: invalid syntax") from None
