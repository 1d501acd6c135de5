"""Flags declared once, read by click and by a small click-free parser.

Importing click costs 20-25 ms, a quarter of ``kubectl crd explain --crd``'s whole
run, so the root command first tries ``parse_flags`` on the command line. It accepts
only the plain forms (``--name value``, ``--name=value``, ``-x value``, kubectl's
``-xvalue`` and ``-x=value``, lone flags, positionals) and declines everything else
(help, version, clustered switches, ``--``, values that look like flags, anything
unknown) by returning ``None``; click then parses the same line from the same
declarations (``cli.options``), with its usual errors and help.
``tests/unit/cli/test_flags.py`` checks that both parsers agree wherever the small
one accepts.

The rule: a command joins this fast path only where a row of
``bench/fast_path_bench.py`` shows that it pays (its ``fast_path`` entry in
``cli.commands.COMMANDS``); every other command is a plain click command. A start-up
trick is a cost to every reader, so it has to earn its place with a measurement.
"""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Final, Literal

    #: What a flag takes; checked by mypy, free at run time (no enum import).
    FlagKind = Literal["switch", "value", "repeated", "count"]

#: A switch: present or not (click ``is_flag``).
SWITCH: Final = "switch"
#: One value; given twice, the last wins (as click).
VALUE: Final = "value"
#: A value that may be given many times; a tuple of them.
REPEATED: Final = "repeated"
#: A non-negative integer value (click ``IntRange(min=0)``).
COUNT: Final = "count"


class Flag:
    """One flag: its spellings, the parameter it fills, and its help."""

    __slots__ = (
        "choices",
        "default",
        "dest",
        "help",
        "kind",
        "metavar",
        "names",
        "no_value",
        "show_default",
        "suggestions",
    )

    def __init__(
        self,
        names: tuple[str, ...],
        dest: str,
        kind: FlagKind,
        help: str,
        *,
        metavar: str | None = None,
        default: object = None,
        show_default: bool = False,
        choices: tuple[str, ...] = (),
        no_value: str | None = None,
        suggestions: tuple[str, ...] = (),
    ) -> None:
        self.names = names
        self.choices = choices
        # pflag's NoOptDefVal: given without =VALUE, the flag means this and never takes
        # the next argument (kubectl's bare --dry-run is --dry-run=client)
        self.no_value = no_value
        # values shell completion offers (cli.completion): the choices, or for a flag the
        # command checks itself, the values it names (-o's formats)
        self.suggestions = suggestions or choices
        self.dest = dest
        self.kind = kind
        self.help = help
        self.metavar = metavar
        self.show_default = show_default
        if kind == SWITCH:
            default = False
        elif kind == REPEATED:
            default = ()
        self.default = default


#: ``--crd PATH`` (repeatable), the same in every command that reads CRDs.
CRD_PATHS = Flag(
    ("--crd",),
    "crd_paths",
    REPEATED,
    "Read CRDs from this file or directory instead of the cluster (repeatable).",
    metavar="PATH",
)


# The flags of kubectl's resource builder that several commands take (get, scale, and
# the dev loop next), declared once here as kopf declares its logging options once
# (``kopf/_core/actions/loggers.py``: ``logging_options``): a command lists these in its
# ``FLAGS``, and both parsers read the same declaration. Their help is kubectl's.

#: ``-l/--selector``: a label selector (``kubectl get --help``).
SELECTOR = Flag(
    ("-l", "--selector"),
    "selector",
    VALUE,
    "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin' "
    "(e.g. -l key1=value1,key2=value2); the objects of -f files are filtered too.",
    metavar="SELECTOR",
    default="",
)

#: ``--field-selector``: a field selector (``kubectl get --help``).
FIELD_SELECTOR = Flag(
    ("--field-selector",),
    "field_selector",
    VALUE,
    "Selector (field query) to filter on: metadata.name, metadata.namespace and the "
    "CRD's selectableFields, e.g. --field-selector metadata.name=a; objects on the "
    "cluster only.",
    metavar="SELECTOR",
    default="",
)

#: ``-A/--all-namespaces``.
ALL_NAMESPACES = Flag(
    ("-A", "--all-namespaces"),
    "all_namespaces",
    SWITCH,
    "If present, list the requested object(s) across all namespaces. Namespace in "
    "current context is ignored even if specified with --namespace.",
)

#: ``--chunk-size``: list in pages, as kubectl.
CHUNK_SIZE = Flag(
    ("--chunk-size",),
    "chunk_size",
    COUNT,
    "List from the cluster in pages of this many objects (0: all at once), as kubectl.",
    default=500,
    show_default=True,
)


#: kubectl's ``--dry-run[=none|server|client]`` (``cmdutil.AddDryRunFlag``): alone it
#: means "client", and the old boolean spelling is still read (``GetDryRunStrategy``).
DRY_RUN = Flag(
    ("--dry-run",),
    "dry_run",
    VALUE,
    'Must be "none", "server", or "client": "server" asks the API server to check '
    'without persisting, "client" only reads. Alone, it means "client".',
    metavar="[none|server|client]",
    default="none",
    # checked by the command in kubectl's words ('Invalid dry-run value (x). ...')
    suggestions=("none", "server", "client"),
    no_value="client",
)


def filename_flag(help: str) -> Flag:
    """``-f/--filename PATH`` (repeatable), with what the command does with the files."""
    return Flag(("-f", "--filename"), "filenames", REPEATED, help, metavar="PATH")


#: The object printer's formats (``output.printing``), for ``object_output_flag``.
OBJECT_FORMATS = ("name", "json", "yaml")
#: kubectl's template formats, which ``get`` and ``scale`` offer after their own
TEMPLATE_FORMATS = (
    "go-template=TEMPLATE",
    "go-template-file=FILE",
    "template=TEMPLATE",
    "templatefile=FILE",
    "jsonpath=TEMPLATE",
    "jsonpath-file=FILE",
    "jsonpath-as-json=TEMPLATE",
)


def object_output_flag(*formats: str, help: str = "") -> Flag:
    """kubectl's ``-o/--output`` of a command that prints objects: ``formats`` (the object
    printer's by default), empty by default (the command's own output), checked by the
    command to word the error as kubectl does."""
    return output_flag(formats or OBJECT_FORMATS, default="", help=help, checked=False)


#: kubectl's ``--template`` (cli-runtime ``genericclioptions/template_flags.go``): the
#: template of ``-o go-template|jsonpath|...`` given apart; alone, a go-template.
TEMPLATE = Flag(
    ("--template",),
    "template",
    VALUE,
    "Template string or path to template file to use when -o=go-template, "
    "-o=go-template-file. The template format is golang templates "
    "[http://golang.org/pkg/text/template/#pkg-overview].",
    metavar="TEMPLATE",
    default="",
)

#: kubectl's ``--allow-missing-template-keys`` (a pflag bool: alone it means true, and
#: it never takes the next argument); read by ``allow_missing_keys``.
ALLOW_MISSING_TEMPLATE_KEYS = Flag(
    ("--allow-missing-template-keys",),
    "allow_missing_template_keys",
    VALUE,
    "If true, ignore any errors in templates when a field or map key is missing in the "
    "template. Only applies to golang and jsonpath output formats.",
    metavar="BOOL",
    default="true",
    show_default=True,
    suggestions=("true", "false"),
    no_value="true",
)


def allow_missing_keys(text: str, command: str) -> bool:
    """``--allow-missing-template-keys``'s value as pflag reads a bool, or its refusal in
    pflag's words with cobra's usage line."""
    from kubectl_crd.model.errors import KubectlCrdError, invalid_flag_value
    from kubectl_crd.model.gostrconv import parse_go_bool

    try:
        return parse_go_bool(text)
    except ValueError as exc:
        raise KubectlCrdError(
            f"{invalid_flag_value(text, '--allow-missing-template-keys', str(exc))}\n"
            f"See 'kubectl crd {command} --help' for usage."
        ) from None


def api_version_flag(help: str) -> Flag:
    """``--api-version GROUP/VERSION``, with the command's own help text."""
    return Flag(("--api-version",), "api_version", VALUE, help, metavar="GROUP/VERSION")


def output_flag(
    formats: Sequence[str], *, default: str, help: str = "", checked: bool = True
) -> Flag:
    """kubectl's ``-o/--output FORMAT``. With ``checked`` the parsers refuse other values;
    without, the command does (to word the error as kubectl does)."""
    return Flag(
        ("-o", "--output"),
        "output",
        VALUE,
        help or "Output format: " + ", ".join(formats) + ".",
        metavar="FORMAT",
        default=default,
        show_default=bool(default),  # no default, nothing to show (a command's own output)
        choices=tuple(formats) if checked else (),
        suggestions=tuple(formats),
    )


class ParsedFlags:
    """What ``parse_flags`` read: values by parameter name, and the positionals."""

    __slots__ = ("positionals", "values")

    def __init__(self, values: dict[str, object], positionals: list[str]) -> None:
        self.values = values
        self.positionals = positionals


def parse_flags(
    flags: Sequence[Flag], argv: Sequence[str], *, stop_at_positional: bool = False
) -> ParsedFlags | None:
    """``argv`` read against ``flags``, or ``None`` where click should decide.

    With ``stop_at_positional`` (a group's own flags) parsing ends at the first
    positional, which stays in ``positionals`` with everything after it unread.
    """
    by_name = {name: flag for flag in flags for name in flag.names}
    values: dict[str, object] = {flag.dest: flag.default for flag in flags}
    repeated: dict[str, list[str]] = {}
    positionals: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        index += 1
        if arg == "-" or arg == "--":
            return None
        if not arg.startswith("-"):
            if stop_at_positional:
                return ParsedFlags(values, [arg, *argv[index:]])
            positionals.append(arg)
            continue
        if arg.startswith("--"):
            name, equals, inline = arg.partition("=")
        elif len(arg) > 2:
            # kubectl's -ojson and -o=json (pflag); a cluster of switches (-Ri) goes to click
            name, inline = arg[:2], arg[3:] if arg[2] == "=" else arg[2:]
            equals = "="
            if by_name.get(name) is None or by_name[name].kind == SWITCH:
                return None
        else:
            name, equals, inline = arg, "", ""
        flag = by_name.get(name)
        if flag is None:
            return None
        if flag.kind == SWITCH:
            if equals:
                return None
            values[flag.dest] = True
            continue
        if equals:
            value = inline
        elif flag.no_value is not None:
            value = flag.no_value
        elif index < len(argv):
            value = argv[index]
            index += 1
        else:
            return None
        if value.startswith("-"):
            return None
        if flag.kind == COUNT:
            # plain decimal only, which int() reads as strconv.ParseInt does; a leading 0
            # (octal in Go), a sign, a base prefix or an int64's worth of digits go to
            # click (cli.options.Count: model.gostrconv.parse_go_int)
            if not (value.isascii() and value.isdigit() and len(value) < 19):
                return None
            if value[0] == "0" and value != "0":
                return None
            values[flag.dest] = int(value)
        elif flag.choices and value not in flag.choices:
            return None
        elif flag.kind == REPEATED:
            repeated.setdefault(flag.dest, []).append(value)
        else:
            values[flag.dest] = value
    for dest, given in repeated.items():
        values[dest] = tuple(given)
    return ParsedFlags(values, positionals)
