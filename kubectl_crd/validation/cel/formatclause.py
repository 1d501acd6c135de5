"""cel-go's ``parseFormattingClause`` (ext/formatting.go): the clause after a ``%`` in a
``string.format`` string, read the same way by the compile-time check
(``checked.format_literal_errors``) and by the formatter that runs it
(``library.formatting.string_format``). Pure: no engine import."""

from __future__ import annotations

#: the verbs cel-go's formatter knows
VERBS = "sdfebxXo"
_GO_INT_MAX = 2**63 - 1


class ClauseError(ValueError):
    """A clause cel-go cannot parse, in its words."""


def parse_clause(data: bytes, at: int) -> tuple[int, str, int | None]:
    """The clause at ``at`` (just after its ``%``) of a format string's UTF-8 ``data``:
    (the index after it, its verb, its precision or None). A verb is one byte, read as a
    Latin-1 rune (cel-go: ``rune(formatStr[i])``)."""
    index, precision = at, None
    if data[index : index + 1] == b".":
        index += 1
        start = index
        while True:
            if index >= len(data):
                raise ClauseError(
                    "could not parse formatting clause: error while parsing precision: "
                    "could not find end of precision specifier"
                )
            if not 0x30 <= data[index] <= 0x39:
                break
            index += 1
        digits = data[start:index].decode()
        if not digits or int(digits) > _GO_INT_MAX:
            problem = "invalid syntax" if not digits else "value out of range"
            raise ClauseError(
                "could not parse formatting clause: error while parsing precision: "
                "error while converting precision to integer: strconv.Atoi: parsing "
                f'"{digits}": {problem}'
            )
        precision = int(digits)
    verb = chr(data[index])
    if verb not in VERBS:
        raise ClauseError(
            f'could not parse formatting clause: unrecognized formatting clause "{verb}"'
        )
    return index + 1, verb, precision
