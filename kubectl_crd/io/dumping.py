"""Writing plain data as YAML, the way a person would write it by hand.

Block style, keys in the order given (not sorted), multi-line strings as literal
blocks (``|``) when that keeps them exact, no line folding, and the words YAML 1.1
reads as booleans or null (``yes``, ``on``, ...) quoted for go-yaml readers. ruamel.yaml is imported
on the first call only, so commands that never write YAML do not pay for it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any


def dump_yaml(data: Any) -> str:
    """``data`` (JSON-shaped: mappings, lists, scalars) as one YAML document."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.default_flow_style = False
    yaml.width = 1_000_000  # never fold long descriptions or CEL rules
    out = io.StringIO()
    yaml.dump(_prepared(data), out)
    return out.getvalue()


# Plain words a YAML 1.1 reader (go-yaml, so kubectl) takes for booleans or null;
# ruamel writes YAML 1.2, where they are strings, so it would leave them unquoted.
_YAML11_WORDS = frozenset(("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"))


def _prepared(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {_prepared(str(key)): _prepared(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_prepared(item) for item in value]
    if isinstance(value, str):
        from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

        if value.lower() in _YAML11_WORDS:
            return DoubleQuotedScalarString(value)
        if _literal_block_fits(value):
            return LiteralScalarString(value)
    return value


def _literal_block_fits(text: str) -> bool:
    """A ``|`` block reproduces ``text`` exactly: several lines, no trailing blanks."""
    if "\n" not in text.rstrip("\n") or text.startswith((" ", "\t")):
        return False
    return all(line == line.rstrip() for line in text.split("\n")) and "\r" not in text
