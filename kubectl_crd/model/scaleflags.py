"""``kubectl scale``'s flag values read as kubectl reads them, with its error texts.

Pure: stdlib only. ``ScaleFlags.read`` does what kubectl does before any request, in
its order: pflag parses ``--replicas`` and ``--current-replicas`` as ``IntVar`` (Go's
``strconv.ParseInt(s, 0, 64)``) and ``--timeout`` as a Go duration; then
``ScaleOptions.Complete`` (``k8s.io/kubectl/pkg/cmd/scale/scale.go``) reads
``--dry-run`` (``GetDryRunStrategy`` in ``k8s.io/kubectl/pkg/cmd/util/helpers.go``: the
old boolean spellings, else none, server or client), and ``Validate`` checks the
ranges, each in kubectl's words. A negative ``--timeout`` is kubectl's too: the object is
scaled, and the wait's deadline has passed already. The command
(``cli.commands.scale``) only hands the strings on.
"""

from __future__ import annotations

from kubectl_crd.model.errors import KubectlCrdError, invalid_flag_value
from kubectl_crd.model.gostrconv import parse_go_bool, parse_go_int

#: ``--wait`` without ``--timeout``.
DEFAULT_WAIT_TIMEOUT = 300.0

REPLICAS_REQUIRED = (
    "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
)
CURRENT_REPLICAS_INVALID = "The --current-replicas must specify an integer of -1 or greater"


class ScaleFlags:
    """The checked values: ``replicas`` (``None``: show mode), the ``current_replicas``
    precondition (-1: none), ``dry_run`` (none, server or client), ``wait_seconds`` (0:
    no wait; negative: a deadline passed already, as kubectl's negative ``--timeout``)
    and ``follow`` (``--wait``: progress shown, as kubectl's ``--timeout`` does not)."""

    __slots__ = ("current_replicas", "dry_run", "follow", "replicas", "wait_seconds")

    def __init__(
        self,
        replicas: int | None,
        current_replicas: int,
        dry_run: str,
        wait_seconds: float,
        follow: bool = False,
    ) -> None:
        self.replicas = replicas
        self.current_replicas = current_replicas
        self.dry_run = dry_run
        self.wait_seconds = wait_seconds
        self.follow = follow

    @classmethod
    def read(
        cls, replicas: str | None, current_replicas: str, dry_run: str, wait: bool, timeout: str
    ) -> ScaleFlags:
        """The flags' strings checked in kubectl's order (see the module docstring),
        before anything is read from a file or the cluster."""
        count = None if replicas is None else count_flag(replicas, "--replicas")
        size = count_flag(current_replicas, "--current-replicas")
        seconds = wait_seconds(wait, timeout)
        mode = dry_run_mode(dry_run)
        if count is not None and count < 0:
            raise KubectlCrdError(REPLICAS_REQUIRED)
        if size < -1:
            raise KubectlCrdError(CURRENT_REPLICAS_INVALID)
        return cls(count, size, mode, seconds, follow=wait)


def dry_run_mode(text: str) -> str:
    """``--dry-run``'s value as ``GetDryRunStrategy`` reads it: none, server or client
    (a Go boolean as the old spelling), else its error."""
    if text in ("none", "server", "client"):
        return text
    try:
        return "client" if parse_go_bool(text) else "none"  # the old boolean spelling
    except ValueError:
        message = f'Invalid dry-run value ({text}). Must be "none", "server", or "client".'
        raise KubectlCrdError(message) from None


def count_flag(text: str, flag: str) -> int:
    """pflag's IntVar (``--replicas``, ``--current-replicas``): Go's
    ``strconv.ParseInt(s, 0, 64)``, its message on failure (a syntax error, or a number
    past int64: ``value out of range``)."""
    try:
        return parse_go_int(text)
    except ValueError as exc:
        raise KubectlCrdError(
            f"{invalid_flag_value(text, flag, str(exc))}\nSee 'kubectl crd scale --help' for usage."
        ) from None


def wait_seconds(wait: bool, timeout: str) -> float:
    """``--timeout`` in seconds; with ``--wait`` and no timeout, ``DEFAULT_WAIT_TIMEOUT``."""
    from kubectl_crd.model.durations import DurationSyntaxError, parse_go_duration

    try:
        seconds = parse_go_duration(timeout) / 1e9
    except DurationSyntaxError as exc:
        raise KubectlCrdError(
            f'invalid argument "{timeout}" for "--timeout" flag: {exc}\n'
            "See 'kubectl crd scale --help' for usage."
        ) from None
    if wait and not seconds:
        return DEFAULT_WAIT_TIMEOUT
    return seconds
