"""The cluster core's errors, each carrying the line kubectl prints for the same failure.

kubectl does not prefix every error with ``error:``: ``cmdutil.CheckErr``
(``k8s.io/kubectl/pkg/cmd/util/helpers.go``) prints API status errors as ``Error from
server (Reason): ...``, a refused connection as ``The connection to the server HOST:PORT
was refused - ...``, other transport failures as ``Unable to connect to the server:
...``, configuration errors as ``Error in configuration: ...`` and anything else as
``error: ...``. ``kubectl_line`` is that full line; ``str(error)`` is the message without
an ``error:`` prefix, as for every other ``KubectlCrdError``.

The classes below subclass the tree in ``kubectl_crd.model.errors``::

    ClusterError
    ├── KubeconfigError              the kubeconfig cannot be used ("error: ..." or
    │                                "Error in configuration: ...")
    ├── ClusterUnreachableError
    │   └── ServerUnreachableError   no answer: refused, TLS, timeout, proxy
    │       └── CredentialError      ... credentials could not be obtained (exec plugin)
    └── ApiError
        └── ServerStatusError        the server answered with an error status
            ├── UnauthorizedError    ... 401: "error: You must be logged in to the server"
            └── ResourceExpiredError ... 410 Gone: a watch's resourceVersion is too old

No message built here ever contains a credential: callers pass texts that name files,
commands and hosts, never tokens, passwords, keys or a plugin's output.
"""

from __future__ import annotations

from kubectl_crd.model.errors import ApiError, ClusterError, ClusterUnreachableError

__all__ = [
    "CredentialError",
    "KubeconfigError",
    "ResourceExpiredError",
    "ServerStatusError",
    "ServerUnreachableError",
    "UnauthorizedError",
]


class KubeconfigError(ClusterError):
    """The kubeconfig is missing, unreadable, invalid, or names what it does not hold.

    ``in_configuration`` marks the errors client-go reports as an invalid configuration
    (``clientcmd.IsConfigurationInvalid``), which kubectl prints as ``Error in
    configuration: ...``; the others (a missing file, a bad plugin setting) as ``error:``.
    """

    def __init__(self, message: str, *, in_configuration: bool = False) -> None:
        super().__init__(message)
        self.in_configuration = in_configuration

    @property
    def kubectl_line(self) -> str:
        prefix = "Error in configuration: " if self.in_configuration else "error: "
        return prefix + self.message


class ServerUnreachableError(ClusterUnreachableError):
    """No usable answer: ``The connection to the server HOST:PORT was refused - ...`` or
    ``Unable to connect to the server: ...``; kubectl prints the message as it is."""

    @property
    def kubectl_line(self) -> str:
        return self.message


class CredentialError(ServerUnreachableError):
    """Credentials could not be obtained: a failing exec plugin, an unreadable token file.

    kubectl reports these as transport errors: ``Unable to connect to the server:
    getting credentials: exec: ...``; the message is that line.
    """


class ServerStatusError(ApiError):
    """``Error from server (Reason): message``, printed as it is. ``status_object`` is the
    ``Status`` the server sent (or one built from the HTTP status, as client-go does)."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        reason: str = "",
        status_object: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message, status=status, reason=reason)
        self.status_object = status_object or {}

    @property
    def kubectl_line(self) -> str:
        return self.message


class UnauthorizedError(ServerStatusError):
    """401: kubectl's ``error: You must be logged in to the server (MESSAGE)``."""

    @property
    def kubectl_line(self) -> str:
        return "error: " + self.message


class ResourceExpiredError(ServerStatusError):
    """410 Gone, on a list or watch whose resourceVersion the server no longer has.

    A watcher must list again and watch from the new resourceVersion.
    """
