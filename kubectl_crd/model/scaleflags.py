"""``kubectl scale``'s flag values read as kubectl reads them, with its error texts.

Pure: stdlib only. ``ScaleFlags.read`` does what ``ScaleOptions.Complete``/``Validate``
do in ``k8s.io/kubectl/pkg/cmd/scale/scale.go`` before any request: ``--replicas`` and
``--current-replicas`` as pflag's ``IntVar`` reads them (Go's ``strconv.ParseInt(s, 0,
64)``), the range checks in kubectl's words, ``--dry-run``'s old boolean spelling
(``GetDryRunStrategy`` in ``k8s.io/kubectl/pkg/cmd/util/helpers.go``), and ``--timeout``
as a Go duration. The command (``cli.commands.scale``) only hands the strings on.
"""

from __future__ import annotations

from kubectl_crd.model.errors import KubectlCrdError

#: ``--wait`` without ``--timeout``.
DEFAULT_WAIT_TIMEOUT = 300.0

REPLICAS_REQUIRED = (
    "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
)
CURRENT_REPLICAS_INVALID = "The --current-replicas must specify an integer of -1 or greater"


class ScaleFlags:
    """The checked values: ``replicas`` (``None``: show mode), the ``current_replicas``
    precondition (-1: none), ``dry_run`` (none, server or client) and ``wait_seconds``
    (0: no wait)."""

    __slots__ = ("current_replicas", "dry_run", "replicas", "wait_seconds")

    def __init__(
        self, replicas: int | None, current_replicas: int, dry_run: str, wait_seconds: float
    ) -> None:
        self.replicas = replicas
        self.current_replicas = current_replicas
        self.dry_run = dry_run
        self.wait_seconds = wait_seconds

    @classmethod
    def read(
        cls, replicas: str | None, current_replicas: str, dry_run: str, wait: bool, timeout: str
    ) -> ScaleFlags:
        """The flags' strings checked in kubectl's order (``--current-replicas`` before
        anything is read from a file or the cluster)."""
        count = parse_replicas(replicas)
        size = parse_current_replicas(current_replicas)
        # kubectl's GetDryRunStrategy still reads the old boolean spelling
        mode = {"true": "client", "false": "none"}.get(dry_run, dry_run)
        return cls(count, size, mode, wait_seconds(wait, timeout))


def parse_replicas(text: str | None) -> int | None:
    """``--replicas``: ``None`` when not given (show mode); kubectl's errors otherwise."""
    if text is None:
        return None
    value = parse_go_int(text, "--replicas")
    if value < 0:
        raise KubectlCrdError(REPLICAS_REQUIRED)
    return value


def parse_current_replicas(text: str) -> int:
    value = parse_go_int(text, "--current-replicas")
    if value < -1:
        raise KubectlCrdError(CURRENT_REPLICAS_INVALID)
    return value


def parse_go_int(text: str, flag: str) -> int:
    """pflag's IntVar: Go's ``strconv.ParseInt(s, 0, 64)`` message on failure."""
    try:
        if text != text.strip():
            raise ValueError(text)
        digits = text.lstrip("+-")
        if len(digits) > 1 and digits[0] == "0" and digits[1] in "01234567_":
            # Go's base 0: a leading 0 is octal ("010" is 8); Python's int() refuses it
            value = int(digits, 8)
            return -value if text.startswith("-") else value
        return int(text, 0)
    except ValueError:
        raise KubectlCrdError(
            f'invalid argument "{text}" for "{flag}" flag: strconv.ParseInt: '
            f'parsing "{text}": invalid syntax\n'
            "See 'kubectl crd scale --help' for usage."
        ) from None


def wait_seconds(wait: bool, timeout: str) -> float:
    """``--timeout`` in seconds; with ``--wait`` and no timeout, ``DEFAULT_WAIT_TIMEOUT``."""
    from kubectl_crd.model.durations import DurationSyntaxError, parse_go_duration

    try:
        seconds = parse_go_duration(timeout) / 1e9
    except DurationSyntaxError as exc:
        raise KubectlCrdError(f'invalid argument "{timeout}" for "--timeout" flag: {exc}') from None
    if seconds < 0:
        raise KubectlCrdError("--timeout must not be negative")
    if wait and not seconds:
        return DEFAULT_WAIT_TIMEOUT
    return seconds
