"""The error hierarchy of kubectl-crd: every error the tool reports on purpose, in one tree.

Every error the tool reports on purpose derives from ``KubectlCrdError``, is defined
here and nowhere else, and carries what a user needs to act on it. The CLI turns them
into a one-line-first message on stderr and an exit code; anything else is an
internal error (exit 3) and only shows a traceback with ``--debug``.
``tests/unit/model/test_errors.py`` pins this tree to the classes.

    KubectlCrdError                      exit 1 unless said otherwise
    ├── UsageError                       bad flags or arguments (exit 1, as kubectl)
    │   ├── FieldPathSyntaxError         ... a RESOURCE.path that is not a plain field path
    │   └── DurationFlagError            ... a duration flag's value, in pflag's words
    ├── NotAvailableError                a command that is not built yet
    ├── InputError                       a file or document cannot be read
    │   └── YamlError                    ... or is not valid YAML/JSON (file, line, column)
    ├── CRDError                         a CRD document that is itself broken
    │   └── UnpublishableSchema          ... a schema node the API server would refuse
    ├── ResourceLookupError              a RESOURCE argument matched nothing usable
    │   ├── ResourceNotFoundError        ... no CRD serves it (with the nearest names)
    │   └── AmbiguousResourceError       ... several CRDs serve it (with the candidates)
    ├── VersionNotFoundError             the group/version asked for is not served
    ├── FieldNotFoundError               a field path that the schema does not have
    ├── RenderError                      kubectl's explain template would fail
    ├── ScaleError                       scaling through /scale cannot go on
    │   ├── NoScaleSubresourceError      ... the CRD version has no scale subresource
    │   ├── ScalePreconditionError       ... --current-replicas / --resource-version failed
    │   └── ScaleTimeoutError            ... --wait/--timeout ran out before spec == status
    ├── ReconcilerError                  the dev loop's reconciler module cannot be used
    │   ├── ReconcilerLoadError          ... it does not import or declares wrongly (file:line, caret)
    │   └── ReconcilerResultError        ... reconcile returned what is not a result
    ├── ControlPlaneError                the local control plane of dev --envtest cannot run
    └── ClusterError                     talking to the API server failed
        ├── KubeconfigError              ... kubeconfig missing, unreadable, or no such context
        ├── ClusterUnreachableError      ... no connection, TLS problems
        │   └── CredentialError          ... credentials could not be had (exec plugin)
        └── ApiError                     ... the server answered with an error status
            ├── UnauthorizedError        ... 401
            ├── InvalidObjectError       ... 422 Invalid, printed as kubectl prints it
            ├── ResourceExpiredError     ... 410 Gone: a watch's resourceVersion is too old
            └── StoreRefusal             ... the dev loop's local store refused a write, as the server would

``kubectl_line`` is the line the CLI prints. kubectl does not prefix every error with
``error:`` (``cmdutil.CheckErr`` in ``k8s.io/kubectl/pkg/cmd/util/helpers.go``): API
statuses are ``Error from server (Reason): ...``, transport failures ``The connection to
the server HOST:PORT was refused - ...`` or ``Unable to connect to the server: ...``,
invalid configurations ``Error in configuration: ...``, a 401 ``error: You must be
logged in to the server (...)``; the cluster errors say so, the others get ``error:``.

Helpers that never reach a user keep their own exceptions, subclassing a builtin
(``DurationSyntaxError``, ``ScalarError``, ``PatternSyntaxError``, ``CelError``): the
code that catches them turns them into one of the above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubectl_crd.model.gostrconv import go_quote
from kubectl_crd.model.records import record

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Any


class ExitCode:
    """Process exit codes, following kubectl: 1 for every error it reports, bad flags and
    arguments included (``DefaultErrorExitCode`` in ``k8s.io/kubectl/pkg/cmd/util/
    helpers.go``: ``kubectl get -o bogus``, ``kubectl scale --replicas=x`` and ``kubectl
    get --bogus`` all exit 1); 3 for an internal error, as kubectl-validate."""

    OK = 0
    ERROR = 1
    # kubectl-validate exits 2 for bad arguments; a kubectl plugin answers as kubectl does
    USAGE = 1
    INTERNAL = 3


@record
class Location:
    """A place in an input: file plus 1-based line and column (0 when unknown)."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line and self.column:
            return f"{self.file}:{self.line}:{self.column}"
        if self.line:
            return f"{self.file}:{self.line}"
        return self.file


class KubectlCrdError(Exception):
    """Root of every error the tool reports on purpose."""

    exit_code: int = ExitCode.ERROR

    def __init__(self, message: str, *, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is not None:
            return f"{self.location}: {self.message}"
        return self.message

    @property
    def kubectl_line(self) -> str:
        """The line printed on stderr for this error."""
        return f"error: {self}"


class UsageError(KubectlCrdError):
    exit_code = ExitCode.USAGE


class NotAvailableError(KubectlCrdError):
    """Raised by commands that a later release builds."""


class InputError(KubectlCrdError):
    """A file, directory or stdin could not be read."""


class YamlError(InputError):
    """A document is not valid YAML or JSON, or breaks a Kubernetes decoding rule."""


class CRDError(KubectlCrdError):
    """A CustomResourceDefinition document that cannot be used as one."""

    def __init__(
        self, message: str, *, crd_name: str = "", location: Location | None = None
    ) -> None:
        if crd_name:
            message = f'CustomResourceDefinition "{crd_name}": {message}'
        super().__init__(message, location=location)
        self.crd_name = crd_name


class ResourceLookupError(KubectlCrdError):
    def __init__(self, message: str, *, query: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.query = query
        self.candidates = tuple(candidates)


class ResourceNotFoundError(ResourceLookupError):
    pass


class AmbiguousResourceError(ResourceLookupError):
    pass


class VersionNotFoundError(KubectlCrdError):
    """kubectl's errors for a group/version it cannot find in the OpenAPI documents."""


class FieldNotFoundError(KubectlCrdError):
    """A field path the schema does not have.

    ``field`` is the missing name and ``candidates`` the names that were there. Raised
    first by the walk (``model.explain.fieldpath.walk``) with ``found``, the steps
    taken, and ``container``, the schema that lacks the field; explain then raises the
    user's message with ``gvk``, since kubectl prints the resource's header first.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str,
        candidates: Sequence[str] = (),
        found: Sequence[Any] = (),
        container: Mapping[str, Any] | None = None,
        gvk: Any = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.candidates = tuple(candidates)
        self.found = tuple(found)
        self.container: Mapping[str, Any] = container if container is not None else {}
        self.gvk = gvk


class FieldPathSyntaxError(UsageError):
    """The RESOURCE argument is not a JSONPath made only of fields."""


def invalid_flag_value(value: str, flag: str, reason: str) -> str:
    """pflag's refusal of a flag's value (``FlagSet.Set`` in ``github.com/spf13/pflag/flag.go``:
    ``invalid argument %q for %q flag: %v``); ``flag`` as pflag names it (``-o, --output``)."""
    return f"invalid argument {go_quote(value)} for {go_quote(flag)} flag: {reason}"


class DurationFlagError(UsageError):
    """A duration flag's value refused, in pflag's words (``invalid_flag_value``, as kubectl
    wait's ``--timeout abc`` is); the command turns it into click's ``FlagValueError`` for
    cobra's ``See ...`` line."""

    def __init__(self, flag: str, value: str, reason: str) -> None:
        super().__init__(invalid_flag_value(value, flag, reason))
        self.flag, self.value, self.reason = flag, value, reason


class UnpublishableSchema(CRDError):
    """A schema node ``NewStructural`` refuses; the API server rejects such a CRD."""


class RenderError(KubectlCrdError):
    """kubectl's template failed (a field whose schema is empty)."""


class ScaleError(KubectlCrdError):
    """``kubectl crd scale`` cannot scale an object (its own words, not the server's)."""


class NoScaleSubresourceError(ScaleError):
    """The CRD version serves no ``/scale``; the message shows the stanza to add."""


class ScalePreconditionError(ScaleError):
    """kubectl's ``PreconditionError`` (``k8s.io/kubectl/pkg/scale/scale.go``):
    ``Expected replicas to be 2, was 3``."""


class ScaleTimeoutError(ScaleError):
    """``timed out waiting for "NAME" to be synced`` (``WaitForScaleHasDesiredReplicas``)."""


class ReconcilerError(KubectlCrdError):
    """A user's reconciler module (``kubectl crd dev FILE``) the loop cannot use. The
    location is in the user's file; ``source_line`` and ``caret`` show the place as
    Python's own traceback line does (the line without its indent, ``^`` under the
    column range), printed under the message."""

    def __init__(
        self,
        message: str,
        *,
        location: Location | None = None,
        source_line: str = "",
        caret: str = "",
    ) -> None:
        super().__init__(message, location=location)
        self.source_line = source_line
        self.caret = caret

    def __str__(self) -> str:
        text = super().__str__()
        if self.source_line:
            text += f"\n    {self.source_line}"
            if self.caret:
                text += f"\n    {self.caret}"
        return text


class ReconcilerLoadError(ReconcilerError):
    """The reconciler, or a module of its own that it imports, does not compile or
    import, or its declarations (``FOR``, ``OWNS``, ``WATCHES``, ``reconcile``) are not
    usable: ``reconciler.py:12:5: SyntaxError: invalid syntax``."""


class ReconcilerResultError(ReconcilerError):
    """``reconcile`` (or a metacontroller hook) returned what is not a result; the
    location is the function's ``def`` line."""


class ControlPlaneError(KubectlCrdError):
    """``kubectl crd dev --envtest``: no kube-apiserver and etcd to run (the message
    says how to get them), or they did not start (the tail of their logs)."""


class ClusterError(KubectlCrdError):
    pass


class KubeconfigError(ClusterError):
    """The kubeconfig is missing, unreadable, invalid, or names what it does not hold.

    ``in_configuration`` marks what client-go reports as an invalid configuration
    (``clientcmd.IsConfigurationInvalid``), printed as ``Error in configuration: ...``.
    """

    def __init__(self, message: str, *, in_configuration: bool = False) -> None:
        super().__init__(message)
        self.in_configuration = in_configuration

    @property
    def kubectl_line(self) -> str:
        if self.in_configuration:
            return f"Error in configuration: {self.message}"
        return f"error: {self.message}"


class ClusterUnreachableError(ClusterError):
    """No usable answer; the message is kubectl's whole line (``The connection to the
    server ... was refused - ...``, ``Unable to connect to the server: ...``)."""

    @property
    def kubectl_line(self) -> str:
        return self.message


class CredentialError(ClusterUnreachableError):
    """Credentials could not be obtained (a failing exec plugin): ``Unable to connect to
    the server: getting credentials: ...``."""


class ApiError(ClusterError):
    """``Error from server (Reason): message``; ``status_object`` is the ``Status`` the
    server sent, or the one client-go builds from the HTTP code."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        reason: str = "",
        status_object: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.status_object = status_object or {}

    @property
    def kubectl_line(self) -> str:
        return self.message


class UnauthorizedError(ApiError):
    """401: ``error: You must be logged in to the server (MESSAGE)``."""

    @property
    def kubectl_line(self) -> str:
        return f"error: {self.message}"


def invalid_object_head(kind: str, name: str) -> str:
    """kubectl's words before the causes of a 422 Invalid (``checkErr`` in
    ``k8s.io/kubectl/pkg/cmd/util/helpers.go``: ``The %s %q is invalid``; ``The request
    is invalid`` when the answer names neither); ``validate`` and ``scale --local`` head
    an object they refuse with the same words."""
    if not kind and not name:
        return "The request is invalid"
    return f"The {kind} {go_quote(name)} is invalid"


class InvalidObjectError(ApiError):
    """A 422 ``Invalid`` status in kubectl's words (``checkErr`` in
    ``k8s.io/kubectl/pkg/cmd/util/helpers.go``): ``The Foo "x" is invalid: field: msg``
    with no ``Error from server`` prefix, one ``* cause`` line each when there are several."""

    @property
    def kubectl_line(self) -> str:
        return self.message


class ResourceExpiredError(ApiError):
    """410 Gone on a list or watch whose resourceVersion the server no longer has: list
    again and watch from the new resourceVersion."""


class StoreRefusal(ApiError):
    """A write the dev loop's in-process store (``reconcile.localstore``) refuses as the
    API server would: ``status``, ``reason`` and ``status_object`` are the server's;
    ``errors`` the causes (``validation.results.FieldError``) with where each is in the
    input (file:line:column for an object read from a file)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        reason: str,
        status_object: dict[str, object],
        errors: Sequence[Any] = (),
    ) -> None:
        super().__init__(message, status=status, reason=reason, status_object=status_object)
        self.errors = tuple(errors)
