"""Go's ``strconv`` readings that kubectl's flags go through; each defined once.

``parse_go_bool`` is ``strconv.ParseBool`` (``src/strconv/atob.go``): ``cli.options`` reads a
switch given ``=VALUE`` with it (pflag's bool flags, ``github.com/spf13/pflag/bool.go``), and
``model.scaleflags`` the old boolean spelling of ``--dry-run`` (``GetDryRunStrategy``).

Pure, and imports nothing: ``cli.options`` loads it on every click-parsed command line.
(``model.govalues`` would do as a home but imports ``json``, which start-up does not need.)
"""

from __future__ import annotations

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
        raise ValueError(f'strconv.ParseBool: parsing "{text}": invalid syntax') from None
