"""What validation returns: plain, frozen data that every printer and caller can read.

A ``ValidationResult`` holds the object as the API server would store it (pruned,
defaulted, ``.status`` dropped on create when the version has a status subresource),
the ``FieldError`` list in pipeline order, and the warnings the server would send.
Each error carries the server's field path, reason and full message, the stage it
comes from, whether the server would have stopped before reaching it (``blocked``),
and where it was written in the input.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubectl_crd.model.errors import Location


class Reason:
    """The ``details.causes[].reason`` values (``apimachinery/pkg/util/validation/field``)."""

    INVALID = "FieldValueInvalid"
    REQUIRED = "FieldValueRequired"
    NOT_SUPPORTED = "FieldValueNotSupported"
    TYPE_INVALID = "FieldValueTypeInvalid"
    DUPLICATE = "FieldValueDuplicate"
    TOO_LONG = "FieldValueTooLong"
    TOO_MANY = "FieldValueTooMany"
    FORBIDDEN = "FieldValueForbidden"
    NOT_FOUND = "FieldValueNotFound"
    # Strict decoding answers with HTTP 400 and a message, not with causes: these two
    # reasons are ours, named after what the message says.
    UNKNOWN_FIELD = "UnknownField"
    DUPLICATE_FIELD = "DuplicateField"
    # A request the server refuses before validation (malformed metadata, wrong kind).
    BAD_REQUEST = "BadRequest"
    # A body over the server's limit (413, the Status's reason), and a create etcd
    # refuses for its size (a 500 whose Status names no reason: ours, named after it).
    REQUEST_ENTITY_TOO_LARGE = "RequestEntityTooLarge"
    STORAGE_TOO_LARGE = "StorageRequestTooLarge"


class Stage:
    """Where in the create pipeline an error comes from, in the server's order
    (``REQUEST``: the body's size, before anything; or etcd's refusal, after all)."""

    REQUEST = "request"
    TYPE_META = "typemeta"
    DECODING = "decoding"
    OBJECT_META = "objectmeta"
    SCHEMA = "schema"
    SCALE = "scale"
    EMBEDDED = "embedded"
    LIST_TYPE = "listtype"
    CEL = "cel"


class FieldValidation:
    """The ``fieldValidation`` query parameter (kubectl's ``--validate``)."""

    STRICT = "Strict"
    WARN = "Warn"
    IGNORE = "Ignore"


# Errors after which the server does not run CEL rules (``strategy.go: hasBlockingErr``).
BLOCKING_REASONS = frozenset(
    {
        Reason.NOT_SUPPORTED,
        Reason.REQUIRED,
        Reason.TOO_LONG,
        Reason.TOO_MANY,
        Reason.TYPE_INVALID,
    }
)


@dataclass(frozen=True, slots=True)
class FieldError:
    """One error as the API server reports it, plus where it is in the input.

    ``field`` is the cause's field exactly as the server prints it (``<nil>`` for
    errors without a path, such as oneOf failures); ``message`` is the full
    ``field: body`` text of ``field.Error.Error()``. ``blocked`` is true when the
    server would have answered with an earlier stage's error and never reported
    this one.
    """

    field: str
    reason: str
    message: str
    stage: str
    location: Location | None = None
    blocked: bool = False
    # a CEL transition rule's error (the rule uses oldSelf): runs only on updates
    transition: bool = False


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """The outcome of validating one object against one CRD version."""

    object: Any
    errors: tuple[FieldError, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def reported(self) -> tuple[FieldError, ...]:
        """The errors the API server itself would answer with (its first failing stage)."""
        return tuple(e for e in self.errors if not e.blocked)

    @property
    def server_message(self) -> str:
        """The Status message the server would send, for errors it reports as causes.

        Strict-decoding failures come as ``strict decoding error: ...``; validation
        failures as the joined causes (``[e1, e2]`` when there are several); the
        ``<Kind>.<group> "<name>" is invalid:`` prefix is the caller's to add.
        """
        reported = self.reported
        if not reported:
            return ""
        if reported[0].reason == Reason.BAD_REQUEST or reported[0].stage == Stage.REQUEST:
            return reported[0].message
        if reported[0].stage == Stage.DECODING:
            return "strict decoding error: " + ", ".join(e.message for e in reported)
        # field.ErrorList.ToAggregate drops repeated messages (an update's metadata
        # errors come twice as causes, once in the message)
        messages = list(dict.fromkeys(e.message for e in reported))
        if len(messages) == 1:
            return messages[0]
        return "[" + ", ".join(messages) + "]"
