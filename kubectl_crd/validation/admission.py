"""What the API server does to one custom resource on a write, as a library call.

``Admission(crd)`` answers a create, an update, a ``status`` update or a delete of one
object the way kube-apiserver answers it, without a cluster: the object as the server
would return it, or the refusal with the server's code, message and causes. It is the
step ``get -f`` (a manifest shown as created), ``scale --local`` and the dev loop's
in-process store share; the store keeps ``AdmissionResult.stored``, answers reads with
``Admission.read``, and a missing or taken name with ``not_found`` / ``already_exists``
(uniqueness is the store's to know).

Mirrored upstream files (kubernetes/kubernetes, staging/src/k8s.io/...):

- ``apiserver/pkg/registry/generic/registry/store.go``: ``create`` (system fields, a
  generated name), ``Update`` (the resourceVersion check, no-op updates, the delete of
  an object whose last finalizer an update removes), ``Delete`` and
  ``updateForGracefulDeletionAndFinalizers`` / ``markAsDeleting`` (deletionTimestamp,
  deletionGracePeriodSeconds 0, generation + 1, the garbage collector's finalizers);
- ``apiserver/pkg/registry/rest/create.go`` and ``update.go``: ``BeforeCreate`` (the
  request's namespace), ``BeforeUpdate`` (generation, uid, creationTimestamp and
  deletion fields kept from the old object, ``ValidateObjectMetaAccessorUpdate``);
- ``apiextensions-apiserver/pkg/registry/customresource/strategy.go`` and
  ``status_strategy.go``: with a status subresource a create drops ``.status``, a
  main-resource update keeps the old ``.status``, a ``status`` update keeps everything
  of the old object but ``.status``; generation 1 on create, + 1 when anything but
  ``metadata`` changes (so, with the subresource, only a spec change bumps it);
- the decoding, pruning, defaulting and validation (schema, CEL, transition rules,
  ratcheting) are ``validation.pipeline.validate_custom_resource``'s, called here, in
  the version the request's apiVersion names;
- ``apiextensions-apiserver/pkg/apiserver/customresource_handler.go`` and
  ``conversion/nop_converter.go``: objects are stored in the storage version and read
  through its schema, converted as the ``None`` strategy converts.

What the step leaves out, deliberately: ``managedFields`` (a request's are dropped and
none are added: server-side apply's bookkeeping is not modelled), ``Webhook``
conversion (objects are converted as by ``None``), the ``scale`` subresource, admission
webhooks and namespace lifecycle (a namespace need not exist), and graceful deletion
(custom resources have none: a delete is immediate or waits for finalizers).

``tests/integration/test_admission_differential.py`` holds it to kube-apiserver: a
script of writes on three CRDs (answers and watch events) and a sample of every corpus
CRD version.
"""

from __future__ import annotations

import dataclasses
import itertools
import marshal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from kubectl_crd.model.crd import CRDVersion, CustomResourceDefinition
from kubectl_crd.model.errors import InputError
from kubectl_crd.model.govalues import bad_value, go_equal, go_quote
from kubectl_crd.model.records import replace
from kubectl_crd.validation.defaulting import apply_defaults
from kubectl_crd.validation.objectmeta import NAME_ALPHABET, generated_name
from kubectl_crd.validation.pipeline import (
    default_as_read,
    read_adds_status,
    validate_custom_resource,
)
from kubectl_crd.validation.pruning import drop_non_nullable_nulls, prune
from kubectl_crd.validation.results import (
    FieldError,
    FieldValidation,
    Reason,
    Stage,
    ValidationResult,
)
from kubectl_crd.validation.schemas import compile_schema

if TYPE_CHECKING:  # random loads on first use (start-up time)
    import random

Operation = Literal["create", "update", "status", "delete"]

#: ``metav1.DeletionPropagation`` (``DeleteOptions.propagationPolicy``)
PropagationPolicy = Literal["Orphan", "Background", "Foreground"]

# the garbage collector's finalizers (apimachinery/pkg/apis/meta/v1/types.go)
ORPHAN_FINALIZER = "orphan"
FOREGROUND_FINALIZER = "foregroundDeletion"

_OPTIMISTIC_LOCK = (
    "the object has been modified; please apply your changes to the latest version and try again"
)


@dataclass(frozen=True, slots=True)
class AdmissionResult:
    """The server's answer to one write, as plain data.

    ``code`` is the HTTP status (201 for a create, 200 otherwise; 400, 404, 409, 422 or
    500 when refused) and ``reason`` the ``Status`` reason of a refusal (``Invalid``,
    ``BadRequest``, ``Conflict``, ``NotFound``; none for a 500). ``errors`` are the
    refusal's causes in the server's order (a 422's ``details.causes``, a strict
    decoding failure's fields), ``message`` the ``Status`` message, ``warnings`` the
    ``Warning`` headers of an accepted write (a refusal's are left out). ``validation`` is the pipeline's full result (blocked errors
    and input positions included) when the write got that far.

    On success ``object`` is the object as watchers see it after the write (defaulted
    as read: the ADDED, MODIFIED or DELETED event's object when ``written``);
    ``stored`` is what storage keeps, for the caller's store; ``response`` is the body
    the client gets: the object as read, except when the object is removed: a delete
    answers a ``Status`` of kind ``Success``, an update that took away the last
    finalizer the object as updated (at its old resourceVersion). ``written``: storage
    changed and ``object`` has a new resourceVersion (a no-op update writes nothing, and
    watchers see no event). ``removed``: the object is gone (``stored`` is None) and
    ``object`` is its stored state at the delete's resourceVersion.

    ``object``, ``stored`` and ``response`` may be one dict (a create whose read adds
    nothing): treat them as read-only and copy before changing one, as with an
    informer's cached objects.
    """

    operation: Operation
    code: int
    object: Any = None
    stored: Any = None
    response: Any = None
    errors: tuple[FieldError, ...] = ()
    warnings: tuple[str, ...] = ()
    message: str = ""
    reason: str = ""
    written: bool = False
    removed: bool = False
    validation: ValidationResult | None = None

    @property
    def ok(self) -> bool:
        return self.code < 400


def _counter() -> Callable[[], str]:
    """resourceVersions 1, 2, 3, ... (``next`` on ``itertools.count`` is atomic)."""
    count = itertools.count(1)

    def next_version() -> str:
        return str(next(count))

    return next_version


class _Timestamps:
    """``metav1.Time`` as JSON (RFC 3339 in UTC, whole seconds) of ``clock``'s now (POSIX
    seconds), formatted once a second: strftime cost as much as the rest of a create."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._last: tuple[int, str] = (-1, "")

    def __call__(self) -> str:
        second = int(self._clock())
        last = self._last
        if last[0] != second:
            last = self._last = (second, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second)))
        return last[1]


def uid_precondition_failed(key: str, given: str, stored: Any) -> str:
    """The storage error of an update whose body's uid (its precondition) is not the
    stored object's (apiserver/pkg/storage/errors.go NewInvalidObjError, etcd3's
    Preconditions.Check); ``key``: the object's etcd key."""
    return (
        f"StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, "
        f"AdditionalErrorMsg: Precondition failed: UID in precondition: {given}, "
        f"UID in object meta: {stored or ''}"
    )


def _uuid4() -> str:
    """A random (version 4, RFC 4122 variant) uid, as ``uuid.NewUUID`` gives the server's
    objects: formatted from 16 random bytes, 3x cheaper than ``str(uuid.uuid4())``."""
    import os

    x = os.urandom(16).hex()
    variant = "89ab"[int(x[16], 16) & 3]
    return f"{x[:8]}-{x[8:12]}-4{x[13:16]}-{variant}{x[17:20]}-{x[20:]}"


class Admission:
    """The API server's write path for the custom resources of one CRD.

    ``resource_versions`` gives the next resourceVersion (a store shares its counter
    across kinds, as etcd's revision is shared); ``clock``, ``uids`` and ``rng`` make
    timestamps (``clock`` gives POSIX seconds), uids and generated names deterministic
    in tests. Safe to share between threads as long as the callables are (the default
    ones are).
    """

    def __init__(
        self,
        crd: CustomResourceDefinition,
        *,
        resource_versions: Callable[[], str] | None = None,
        clock: Callable[[], float] = time.time,
        uids: Callable[[], str] = _uuid4,
        rng: random.Random | None = None,
    ) -> None:
        self.crd = crd
        self._next_version = resource_versions or _counter()
        self._timestamp = _Timestamps(clock)
        self._uids = uids
        self._versions: dict[str, CRDVersion | None] = {}
        self._given_rng = rng

    def _rng(self) -> random.Random:
        """The generateName suffixes' source, made on first use: importing ``random``
        costs ~1 ms that a run without ``generateName`` need not pay."""
        if self._given_rng is None:
            import random

            self._given_rng = random.Random()
        return self._given_rng

    # -- reads --------------------------------------------------------------------------

    def read(self, stored: Any, version: str | None = None) -> Any:
        """A stored object as a read of ``version`` (by default the one it is stored in)
        returns it: a copy, pruned and defaulted again by the storage decoder
        (``customresource_handler.go``: the storage codec's coercer and defaulter), so a
        default of ``status``, which a create drops, is there, and an object written in
        another version fits the storage version's schema.

        In another version it is then converted as the ``None`` conversion strategy
        converts (only apiVersion changes: ``apiserver/conversion/nop_converter.go``),
        and pruned by the version read (``schemaCoercingConverter``), not defaulted: the
        response's encoder has no defaulter, so a default only that version has is not
        there (Cluster API's KubeadmControlPlane read as v1beta1 has no
        ``spec.rolloutStrategy``). A ``Webhook`` strategy's conversion is not run."""
        obj = _plain_copy(stored)
        own = self._version_of(obj)
        if own is None:
            return obj
        node = compile_schema(own.schema)  # decoded as stored: coerced and defaulted
        prune(obj, node)
        drop_non_nullable_nulls(obj, node)
        apply_defaults(obj, node)
        if version is not None and version != own.name:
            obj["apiVersion"] = f"{self.crd.group}/{version}"
            target = self.crd.version(version)
            if target is not None:  # converted, then made fit the version read
                node = compile_schema(target.schema)
                prune(obj, node)
                drop_non_nullable_nulls(obj, node)
        return obj

    def _to_storage(self, obj: dict[str, Any]) -> dict[str, Any]:
        """``obj`` as storage keeps it: in the storage version (the ``None`` conversion:
        a new apiVersion, the rest shared with ``obj``)."""
        storage = self.crd.storage_version
        own = self._version_of(obj)
        if storage is None or own is None or own.name == storage.name:
            return obj
        return {**obj, "apiVersion": f"{self.crd.group}/{storage.name}"}

    # -- writes -------------------------------------------------------------------------

    def create(
        self,
        content: Any,
        *,
        namespace: str | None = None,
        field_validation: str = FieldValidation.STRICT,
        decode_errors: Sequence[InputError] = (),
        version: str | None = None,
    ) -> AdmissionResult:
        """POST of ``content`` to the collection of ``namespace`` (the request's; by
        default the object's own, else ``default``, as kubectl picks it) in ``version``
        (the URL's; by default the one the body's apiVersion names, as kubectl picks it)."""
        operation: Operation = "create"
        refused = self._type_problem(operation, content) or self._request_version_problem(
            operation, content, version, field_validation, decode_errors
        )
        if refused is not None:
            return refused
        meta = content.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        other_namespace = False
        if self.crd.namespaced:
            written_ns = meta.get("namespace") or ""
            if not isinstance(written_ns, str):
                # the body's decoding (ObjectMeta.namespace is a string) refuses it first
                written_ns = ""
            request_ns = namespace or written_ns or "default"
            other_namespace = bool(written_ns) and written_ns != request_ns
        else:
            request_ns = ""
        created = self._timestamp()
        uid = self._uids()
        status_subresource = False
        body_version = self._version_of(content)
        if body_version is not None:
            status_subresource = body_version.subresources.status

        def prepare(obj: Any) -> None:
            # store.go: create (FillObjectMetaSystemFields, the generated name);
            # rest/create.go: BeforeCreate (the namespace); strategy.go: PrepareForCreate
            metadata = _metadata_of(obj)
            if metadata is None:
                return
            metadata["creationTimestamp"] = created
            metadata["uid"] = uid
            generate = metadata.get("generateName")
            if generate and isinstance(generate, str) and not metadata.get("name"):
                suffix = "".join(self._rng().choices(NAME_ALPHABET, k=5))
                metadata["name"] = generated_name(generate, suffix)
            if request_ns:
                metadata["namespace"] = request_ns
            else:
                metadata.pop("namespace", None)
            for dropped in ("deletionTimestamp", "deletionGracePeriodSeconds", "managedFields"):
                metadata.pop(dropped, None)
            if status_subresource:
                obj.pop("status", None)
            metadata["generation"] = 1

        result = validate_custom_resource(
            content,
            self.crd,
            version=body_version,  # None: the pipeline's own look-up refuses the apiVersion
            field_validation=field_validation,
            decode_errors=decode_errors,
            prepare=prepare,
        )
        if _undecoded(result):
            return self._invalid(operation, result)
        if other_namespace:
            # handlers/create.go: EnsureObjectNamespaceMatchesRequestNamespace, after
            # the body decoded and before the strategy validates it
            return _refusal(operation, 400, "BadRequest", _NAMESPACE_MISMATCH)
        if not result.valid:
            return self._invalid(operation, result)
        obj = result.object  # plain: the pipeline's copy has no positions
        if meta.get("resourceVersion"):
            # etcd3/store.go: Create refuses an object that carries one, after validation
            message = "resourceVersion should not be set on objects to be created"
            # an internal error: its Status names no reason
            return _refusal(operation, 500, "", message, validation=result)
        obj["metadata"]["resourceVersion"] = self._next_version()
        stored = self._to_storage(obj)
        # reading back in the same version can only add a status default: without one,
        # what a read returns is what is stored, and the two are one dict
        shown = stored
        if stored is not obj:
            shown = self.read(stored, body_version.name if body_version else None)
        elif body_version is not None and read_adds_status(obj, body_version):
            # pruned and defaulted already by the pipeline, but for the status default
            shown = _plain_copy(obj)
            default_as_read(shown, body_version)
        return AdmissionResult(
            operation,
            201,
            object=shown,
            stored=stored,
            response=shown,
            warnings=result.warnings,
            written=True,
            validation=result,
        )

    def update(
        self,
        content: Any,
        old: Any,
        *,
        field_validation: str = FieldValidation.STRICT,
        decode_errors: Sequence[InputError] = (),
        version: str | None = None,
        patched: bool = False,
        uid_precondition: bool | None = None,
    ) -> AdmissionResult:
        """PUT of ``content`` to the object stored as ``old`` (``stored`` of an earlier
        result): the main resource, whose write keeps the old ``.status`` when the
        version has a status subresource. ``version`` is the URL's (by default the one
        the body names); ``patched``: ``content`` is a patch applied to the object as
        read in ``version``, whose apiVersion the server checks later and otherwise.
        ``uid_precondition``: whether the body's uid is the write's precondition (a
        PUT's, by default unless ``patched``; a server-side apply's is not)."""
        return self._update(
            "update", content, old, field_validation, decode_errors, version, patched,
            uid_precondition,
        )  # fmt: skip

    def update_status(
        self,
        content: Any,
        old: Any,
        *,
        field_validation: str = FieldValidation.STRICT,
        decode_errors: Sequence[InputError] = (),
        version: str | None = None,
        patched: bool = False,
        uid_precondition: bool | None = None,
    ) -> AdmissionResult:
        """PUT of ``content`` to ``/status`` of the object stored as ``old``: only
        ``.status`` is taken (an absent one removes it); spec and every metadata field
        (labels, annotations, finalizers, ownerReferences, ...) stay the old ones.
        ``version``, ``patched`` and ``uid_precondition`` as for ``update``."""
        return self._update(
            "status", content, old, field_validation, decode_errors, version, patched,
            uid_precondition,
        )  # fmt: skip

    def delete(
        self,
        old: Any,
        *,
        propagation_policy: PropagationPolicy | None = None,
        uid: str | None = None,
        resource_version: str | None = None,
        version: str | None = None,
    ) -> AdmissionResult:
        """DELETE of the object stored as ``old``; ``uid`` and ``resource_version`` are
        the request's preconditions, ``version`` the one the answer is in (by default the
        one the object is stored in).

        With finalizers (the object's, plus ``foregroundDeletion`` or ``orphan`` that
        the propagation policy adds) the object stays, marked as being deleted; without
        any it is removed and the server answers with a ``Status``."""
        operation: Operation = "delete"
        existing = self.read(old)
        meta = _metadata_of(existing) or {}
        name = str(meta.get("name") or "")
        # rest/delete.go: BeforeDelete's preconditions, worded with the kind (not the resource)
        qualified_kind = f"{self.crd.names.kind}.{self.crd.group}"
        if uid is not None and uid != meta.get("uid"):
            detail = (
                f"the UID in the precondition ({uid}) does not match the UID in record "
                f"({meta.get('uid', '')}). The object might have been deleted and then recreated"
            )
            message = _conflict(qualified_kind, name, detail)
            details = self._details(name, self.crd.names.kind)
            return _refusal(operation, 409, "Conflict", message, details=details)
        if resource_version is not None and resource_version != meta.get("resourceVersion"):
            detail = (
                f"the ResourceVersion in the precondition ({resource_version}) does not match "
                f"the ResourceVersion in record ({meta.get('resourceVersion', '')}). "
                "The object might have been modified"
            )
            message = _conflict(qualified_kind, name, detail)
            details = self._details(name, self.crd.names.kind)
            return _refusal(operation, 409, "Conflict", message, details=details)
        finalizers = _gc_finalizers(list(meta.get("finalizers") or ()), propagation_policy)
        if finalizers:
            # store.go: updateForGracefulDeletionAndFinalizers, markAsDeleting
            meta["finalizers"] = finalizers
            if "deletionTimestamp" not in meta:
                generation = meta.get("generation")
                if isinstance(generation, int) and generation > 0:
                    meta["generation"] = generation + 1
                meta["deletionTimestamp"] = self._timestamp()
            meta["deletionGracePeriodSeconds"] = 0
            return self._stored(operation, existing, old, version)
        # deleted now: watchers get the stored state (garbage collector finalizers that
        # the policy would have dropped included: that update is never written) at the
        # delete's resourceVersion (etcd3/watcher.go); the client gets a Status (the
        # custom resource store does not return the object)
        meta["resourceVersion"] = self._next_version()
        return AdmissionResult(
            operation,
            200,
            object=self.read(existing, version) if version else existing,
            response=self._deleted_status(name, str(meta.get("uid") or "")),
            written=True,
            removed=True,
        )

    # -- the update path ----------------------------------------------------------------

    def _update(
        self,
        operation: Operation,
        content: Any,
        old: Any,
        field_validation: str,
        decode_errors: Sequence[InputError],
        url_version: str | None,
        patched: bool,
        uid_precondition: bool | None,
    ) -> AdmissionResult:
        if uid_precondition is None:
            uid_precondition = not patched  # a PUT's uid is its precondition, a patch's not
        refused = self._type_problem(operation, content)
        if refused is not None:
            return refused
        version = self._version_of(content)
        if url_version is not None:
            version = self.crd.version(url_version)
        status_subresource = version is not None and version.subresources.status
        if operation == "status" and not status_subresource:
            # no /status endpoint is installed for such a version: the URL's name (the
            # stored object's) is not found, whatever the body names
            return self.not_found(_metadata_name(old), operation)
        if patched:
            refused = self._patched_without_version(operation, content)
        else:
            refused = self._request_version_problem(
                operation, content, url_version, field_validation, decode_errors
            )
        if refused is not None:
            return refused
        request_version = version.name if version is not None else None
        existing = self.read(old, request_version)
        # read in the version it is stored in: pruned, its nulls dropped and defaulted
        # with the schema the update is validated with (one read back, not two)
        stored_version = self._version_of(old)
        read_as_stored = stored_version is not None and stored_version.name == request_version
        old_meta = _metadata_of(existing) or {}
        name = str(old_meta.get("name") or "")
        new_meta = content.get("metadata")
        new_meta = new_meta if isinstance(new_meta, dict) else {}

        def prepare(obj: Any) -> None:
            metadata = _metadata_of(obj)
            if metadata is None:
                return
            metadata.pop("managedFields", None)
            if operation == "status":
                # status_strategy.go: PrepareForUpdate takes the old object whole, then
                # the new status (or none)
                status = obj.get("status", _MISSING)
                obj.clear()
                obj.update(_plain_copy(existing))
                if status is _MISSING:
                    obj.pop("status", None)
                else:
                    obj["status"] = status
                return
            # rest/update.go: BeforeUpdate; strategy.go: PrepareForUpdate
            if self.crd.namespaced:
                metadata["namespace"] = old_meta.get("namespace", "")
            else:
                metadata.pop("namespace", None)
            _set_or_drop(metadata, "generation", old_meta.get("generation"))
            if status_subresource:
                if "status" in existing:
                    obj["status"] = existing["status"]
                else:
                    obj.pop("status", None)
            if not go_equal(_non_metadata(obj), _non_metadata(existing)):
                metadata["generation"] = int(old_meta.get("generation") or 0) + 1
            if not metadata.get("uid") and old_meta.get("uid"):
                metadata["uid"] = old_meta["uid"]
            if old_meta.get("creationTimestamp"):
                metadata["creationTimestamp"] = old_meta["creationTimestamp"]
            if old_meta.get("deletionTimestamp"):
                metadata["deletionTimestamp"] = old_meta["deletionTimestamp"]
            if "deletionGracePeriodSeconds" in old_meta and (
                metadata.get("deletionGracePeriodSeconds") is None
            ):
                metadata["deletionGracePeriodSeconds"] = old_meta["deletionGracePeriodSeconds"]

        checked = content
        if operation == "status" and content.get("kind") != existing.get("kind"):
            # status_strategy.go: PrepareForUpdate keeps the old object's kind too, and
            # the strategy's kind check sees that one: a body of another kind is taken
            checked = {**content, "kind": existing.get("kind")}
        result = validate_custom_resource(
            checked,
            self.crd,
            # the URL's, which a patched body may not name (checked below)
            version=version if url_version is not None else None,
            field_validation=field_validation,
            decode_errors=decode_errors,
            old=existing,
            prepare=prepare,
            status_update=operation == "status",
            old_read=read_as_stored,
        )
        # endpoints/handlers/update.go: the body is read and decoded (its size, strict
        # decoding, ObjectMeta's field types) before its namespace and name are
        # compared with the request's, and those before anything is validated
        if _undecoded(result):
            return self._invalid(operation, result)
        if self.crd.namespaced and new_meta.get("namespace") not in (
            None,
            "",
            old_meta.get("namespace"),
        ):
            # rest/meta.go: EnsureObjectNamespaceMatchesRequestNamespace
            return _refusal(operation, 400, "BadRequest", _NAMESPACE_MISMATCH)
        # endpoints/handlers/rest.go: checkName, the body names the object of the URL
        if not new_meta.get("name"):
            message = (
                f"the name of the object ({name} based on URL) was undeterminable: "
                "name must be provided"
            )
            return _refusal(operation, 400, "BadRequest", message)
        if new_meta.get("name") != name:
            message = (
                f"the name of the object ({new_meta.get('name', '')}) does not match "
                f"the name on the URL ({name})"
            )
            return _refusal(operation, 400, "BadRequest", message)
        reported = result.reported
        if reported and reported[0].stage == Stage.TYPE_META:
            return self._invalid(operation, result)
        # store.go: Update's preconditions (a PUT's uid: a patch has none, its changed
        # uid is the validation's "field is immutable") and optimistic lock
        qualified_resource = f"{self.crd.names.plural}.{self.crd.group}"
        body_uid = new_meta.get("uid")
        if uid_precondition and body_uid and body_uid != old_meta.get("uid"):
            detail = uid_precondition_failed(self._key(old_meta), body_uid, old_meta.get("uid"))
            message = _conflict(qualified_resource, name, detail)
            return _refusal(operation, 409, "Conflict", message, details=self._details(name))
        body_version = new_meta.get("resourceVersion")
        unreadable = _resource_version_error(body_version)
        if unreadable:
            # etcd3's Versioner.ObjectResourceVersion, inside GuaranteedUpdate after the
            # uid precondition: an internal error, its Status naming no reason
            return _refusal(operation, 500, "", unreadable)
        if not body_version:
            field = "metadata.resourceVersion"
            error = FieldError(
                field,
                Reason.INVALID,
                f"{field}: Invalid value: 0: must be specified for an update",
                Stage.OBJECT_META,
            )
            message = f'{qualified_resource} "{name}" is invalid: {error.message}'
            details = {**self._details(name), "causes": _causes((error,))}
            return _refusal(operation, 422, "Invalid", message, errors=(error,), details=details)
        if body_version != old_meta.get("resourceVersion"):
            message = _conflict(qualified_resource, name, _OPTIMISTIC_LOCK)
            return _refusal(operation, 409, "Conflict", message, details=self._details(name))
        obj = result.object  # plain: the pipeline's copy has no positions
        meta = _metadata_of(obj) or {}
        if patched and url_version is not None:
            result = self._patched_type_meta(result, content, url_version)
        if not result.valid:
            return self._invalid(operation, result)
        # a status write adds no finalizer (they are the old ones), so its warnings are
        # the decoder's and the ratcheted rules' (status_strategy.go: WarningsOnUpdate)
        warnings = result.warnings
        if (
            not meta.get("finalizers")
            and old_meta.get("deletionTimestamp")
            and (not old_meta.get("deletionGracePeriodSeconds"))
        ):
            # store.go: ShouldDeleteDuringUpdate, deleteWithoutFinalizers: the update is not
            # written, the stored object is deleted; watchers get that object (its
            # finalizers still on) at the delete's resourceVersion, the client the object
            # it sent, as updated
            last = self.read(old, request_version)
            last["metadata"]["resourceVersion"] = self._next_version()
            return AdmissionResult(
                operation,
                200,
                object=last,
                response=obj,
                warnings=warnings,
                written=True,
                removed=True,
                validation=result,
            )
        return self._stored(
            operation, obj, old, request_version, warnings=warnings, validation=result
        )

    # -- pieces -------------------------------------------------------------------------

    def _stored(
        self,
        operation: Operation,
        obj: dict[str, Any],
        old: Any,
        version: str | None,
        *,
        warnings: tuple[str, ...] = (),
        validation: ValidationResult | None = None,
    ) -> AdmissionResult:
        """Store ``obj`` over ``old`` and answer in ``version``: etcd3's GuaranteedUpdate
        writes nothing when the encoded object is unchanged, and the resourceVersion
        stays."""
        obj = self._to_storage(obj)
        if go_equal(obj, old):
            shown = self.read(old, version)
            return AdmissionResult(
                operation,
                200,
                object=shown,
                stored=old,
                response=shown,
                warnings=warnings,
                validation=validation,
            )
        obj["metadata"]["resourceVersion"] = self._next_version()
        shown = self.read(obj, version)
        return AdmissionResult(
            operation,
            200,
            object=shown,
            stored=obj,
            response=shown,
            warnings=warnings,
            written=True,
            validation=validation,
        )

    def _invalid(self, operation: Operation, result: ValidationResult) -> AdmissionResult:
        """The server's refusal of what the pipeline found: 400 when the body did not
        decode (strict decoding, malformed metadata), else 422 with the causes."""
        reported = result.reported
        obj = result.object if isinstance(result.object, dict) else {}
        metadata = obj.get("metadata")
        name = str(metadata.get("name") or "") if isinstance(metadata, dict) else ""
        kind = self.crd.names.kind
        first = reported[0]
        if first.stage == Stage.REQUEST:
            # the body's size (413) or etcd's refusal to store it (a 500 with no reason)
            if first.reason == Reason.REQUEST_ENTITY_TOO_LARGE:
                return _refusal(
                    operation, 413, first.reason, first.message, errors=reported, validation=result
                )
            return _refusal(operation, 500, "", first.message, errors=reported, validation=result)
        # the object's own kind and group (the decoder's GroupVersionKind of the body;
        # strategy.ObjectKinds in rest/create.go, update.go), which may not be the CRD's
        body_kind = obj.get("kind")
        if isinstance(body_kind, str) and body_kind:
            kind = body_kind
        group, _, version = str(obj.get("apiVersion", "")).rpartition("/")
        if first.stage in (Stage.DECODING, Stage.TYPE_META) or first.reason == Reason.BAD_REQUEST:
            from kubectl_crd.validation.decoding import undecodable_body

            message = undecodable_body(kind, version, self.crd.names.kind, result.server_message)
            return _refusal(
                operation, 400, "BadRequest", message, errors=reported, validation=result
            )
        # a patched object's group may be the core one: apimachinery's NewInvalid then
        # names the kind alone, and the details no group
        qualified = f"{kind}.{group}" if group else kind
        message = f'{qualified} "{name}" is invalid: {result.server_message}'
        details: dict[str, Any] = {"name": name, "group": group, "kind": kind}
        if not group:
            del details["group"]
        details["causes"] = _causes(reported)
        return AdmissionResult(
            operation,
            422,
            errors=reported,
            message=message,
            reason="Invalid",
            response=_failure(422, "Invalid", message, details),
            validation=result,
        )

    # -- what the caller's store answers ------------------------------------------------

    def not_found(self, name: str, operation: Operation = "update") -> AdmissionResult:
        """The server's 404 for an object the store does not hold (a read, update, status
        update or delete of it), and for ``/status`` of a version without that
        subresource (whose endpoint the server does not install)."""
        message = f'{self.crd.names.plural}.{self.crd.group} "{name}" not found'
        return _refusal(operation, 404, "NotFound", message, details=self._details(name))

    def already_exists(self, name: str, existing: Any = None) -> AdmissionResult:
        """The server's 409 for a create whose name the store already holds (``existing``,
        the stored object, says whether it is being deleted). For a generated name the
        server tries again with another suffix, up to 8 times (store.go:
        ``maxNameGenerationCreateAttempts``): so may the caller."""
        message = f'{self.crd.names.plural}.{self.crd.group} "{name}" already exists'
        meta = _metadata_of(existing) if isinstance(existing, dict) else None
        if meta and meta.get("deletionTimestamp"):
            message = f"object is being deleted: {message}"
        details = self._details(name)
        return _refusal("create", 409, "AlreadyExists", message, details=details)

    def _details(self, name: str, kind: str = "") -> dict[str, Any]:
        """``Status.details``: the object's name, group and kind (the resource unless
        the error names the kind)."""
        return {"name": name, "group": self.crd.group, "kind": kind or self.crd.names.plural}

    def _type_problem(self, operation: Operation, content: Any) -> AdmissionResult | None:
        if isinstance(content, dict):
            return None
        message = "Object 'Kind' is missing in the request body: it is not a mapping"
        return _refusal(operation, 400, "BadRequest", message)

    def _request_version_problem(
        self,
        operation: Operation,
        content: dict[str, Any],
        url_version: str | None,
        field_validation: str,
        decode_errors: Sequence[InputError],
    ) -> AdmissionResult | None:
        """The server's refusal of a POST or PUT body to ``url_version``'s URL for what it
        says of itself, or None. endpoints/handlers/create.go and update.go decode the
        body first (runtime/serializer/json: its apiVersion and kind, then the decoding
        in the body's own version, strict field checks and ObjectMeta's types), and only
        then compare its GroupVersion with the URL's (``AcceptsGroupVersion``): a body
        naming another version, served or not, is refused, not converted."""
        if url_version is None:
            return None  # no URL: the body's apiVersion picks it, as kubectl does
        unrecognized = _type_meta_problem(content)
        if unrecognized:
            # rest.go: transformDecodeError without a kind, quoting the start of the body
            message = (
                f"the object provided is unrecognized (must be of type {self.crd.names.kind}): "
                f"{unrecognized} ({_summary(_body_bytes(content))})"
            )
            return _refusal(operation, 400, "BadRequest", message)
        api_version = str(content.get("apiVersion") or "")
        group, _, name = api_version.rpartition("/")
        if group == self.crd.group and name == url_version:
            return None
        result = validate_custom_resource(
            content,
            self.crd,
            version=self._decoding_version(group, name, url_version),
            field_validation=field_validation,
            decode_errors=decode_errors,
            rules=False,
        )
        if _undecoded(result):
            return self._invalid(operation, result)
        # schema.GroupVersion.String(): the version alone in the core group
        shown = f"{group}/{name}" if group else name
        message = (
            f"the API version in the data ({shown}) does not match the expected API "
            f"version ({self.crd.group}/{url_version})"
        )
        return _refusal(operation, 400, "BadRequest", message)

    def _decoding_version(self, group: str, name: str, url_version: str) -> CRDVersion | None:
        """The version whose schema the server's decoder prunes a body of ``group/name``
        with (customresource_handler.go: ``schemaCoercingDecoder`` knows every version
        of the CRD, served or not; a version it does not know has an empty schema,
        which keeps nothing; a body of another group is not pruned), made served so
        that the pipeline decodes it."""
        base = self.crd.version(url_version) or self.crd.storage_version
        if base is None:
            return None
        if group == self.crd.group:
            own = self.crd.version(name)
            if own is not None:
                return replace(own, served=True)
            return replace(base, schema={"type": "object"})
        return replace(
            base, schema={"type": "object", "x-kubernetes-preserve-unknown-fields": True}
        )

    def _patched_without_version(
        self, operation: Operation, content: dict[str, Any]
    ) -> AdmissionResult | None:
        """A patch that took the object's apiVersion away: the patched object has no
        GroupVersionKind to be typed by (an internal error; patch.go, ``ObjectKinds``)."""
        if content.get("apiVersion"):
            return None
        cause = "Object 'apiVersion' is missing in 'object has no apiVersion field'"
        details = {"causes": [{"message": cause}]}
        message = f"Internal error occurred: {cause}"
        return _refusal(operation, 500, "InternalError", message, details=details)

    def _patched_type_meta(
        self, result: ValidationResult, content: dict[str, Any], url_version: str
    ) -> ValidationResult:
        """A patched object whose apiVersion is not the URL's: customresource/validator.go
        ``ValidateTypeMeta`` refuses it (after its kind's error) and the schema is not
        checked; the object's metadata errors stay in front."""
        expected = f"{self.crd.group}/{url_version}"
        api_version = content.get("apiVersion")
        if api_version == expected or (
            result.reported and result.reported[0].stage in (Stage.REQUEST, Stage.DECODING)
        ):
            return result
        kept = [e for e in result.reported if e.stage == Stage.OBJECT_META]
        kept += [e for e in result.reported if e.field == "kind" and e.stage == Stage.SCHEMA]
        # the value as the decoder typed it: schema.GroupVersion.String() ("/v2" is "v2")
        group, _, name = str(api_version).rpartition("/")
        shown = f"{group}/{name}" if group else name
        message = f"apiVersion: Invalid value: {bad_value(shown)}: must be {expected}"
        kept.append(FieldError("apiVersion", Reason.INVALID, message, Stage.SCHEMA))
        return dataclasses.replace(result, errors=tuple(kept))

    def _version_of(self, obj: Any) -> CRDVersion | None:
        """The CRD version an object's apiVersion names (looked up once each)."""
        api_version = obj.get("apiVersion") if isinstance(obj, dict) else None
        key = api_version if isinstance(api_version, str) else ""
        try:
            return self._versions[key]
        except KeyError:
            group, _, name = key.rpartition("/")
            found = self.crd.version(name) if group == self.crd.group else None
            self._versions[key] = found
            return found

    def _key(self, meta: dict[str, Any]) -> str:
        """The etcd key the server names in a storage error."""
        parts = ["/registry", self.crd.group, self.crd.names.plural]
        if self.crd.namespaced:
            parts.append(str(meta.get("namespace") or ""))
        parts.append(str(meta.get("name") or ""))
        return "/".join(parts)

    def _deleted_status(self, name: str, uid: str) -> dict[str, Any]:
        return {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Success",
            "details": {
                "name": name,
                "group": self.crd.group,
                "kind": self.crd.names.plural,
                "uid": uid,
            },
        }


_MISSING: Any = object()
_NAMESPACE_MISMATCH = (
    "the namespace of the provided object does not match the namespace sent on the request"
)


def _undecoded(result: ValidationResult) -> bool:
    """Whether the server refuses the request while it reads and decodes the body
    (endpoints/handlers/create.go, update.go), before it compares the body's namespace
    and name with the request's: the body's size (413), an apiVersion the CRD does not
    serve, strict decoding, and ObjectMeta's or an embedded resource's field types."""
    reported = result.reported
    if not reported:
        return False
    first = reported[0]
    if first.stage == Stage.REQUEST:
        return first.reason == Reason.REQUEST_ENTITY_TOO_LARGE
    return first.stage == Stage.DECODING or (
        first.stage == Stage.TYPE_META and first.field == "apiVersion"
    )


#: encoding/json's names of a JSON value's type (UnmarshalTypeError.Value)
def _type_meta_problem(content: dict[str, Any]) -> str:
    """What the JSON serializer finds wrong with a body's apiVersion and kind
    (runtime/serializer/json, ``SimpleMetaFactory.Interpret``, then
    ``schema.ParseGroupVersion`` and the unstructured decoder's missing kind), or ""."""
    from kubectl_crd.model.gojson import interpret_problem

    problem = interpret_problem(content)
    if problem is not None:
        return problem
    api_version = content.get("apiVersion") or ""
    if api_version.count("/") > 1:
        return f"unexpected GroupVersion string: {api_version}"
    if not content.get("kind"):
        body = _body_bytes(content).decode("utf-8", errors="replace")
        return f"Object 'Kind' is missing in '{body}'"
    return ""


def _body_bytes(content: Any) -> bytes:
    """The body as the project's client sends it (the server quotes its bytes)."""
    from kubectl_crd.kube.client import encode_body

    return encode_body(content)


def _summary(data: bytes, limit: int = 30) -> str:
    """endpoints/handlers/rest.go: summarizeData of a JSON object's body."""
    if not data:
        return "<empty>"
    text = data[:limit].decode("utf-8", errors="replace")
    return text + " ..." if len(data) > limit else text


def _metadata_of(obj: Any) -> dict[str, Any] | None:
    """The object's metadata mapping, made when absent; None when it is not a mapping
    (the pipeline then reports the decoding error)."""
    if not isinstance(obj, dict):
        return None
    metadata = obj.get("metadata")
    if metadata is None:
        metadata = obj["metadata"] = {}
    return metadata if isinstance(metadata, dict) else None


def _set_or_drop(mapping: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        mapping.pop(key, None)
    else:
        mapping[key] = value


def _non_metadata(obj: dict[str, Any]) -> dict[str, Any]:
    """strategy.go: copyNonMetadata, what a generation bump is decided on."""
    return {key: value for key, value in obj.items() if key != "metadata"}


def _gc_finalizers(finalizers: list[str], policy: PropagationPolicy | None) -> list[str]:
    """store.go: deletionFinalizersForGarbageCollection for a kind without a default
    policy: the policy replaces the garbage collector's finalizers; without one, those
    already on the object stay."""
    orphan = foreground = False
    if policy == "Orphan":
        orphan = True
    elif policy == "Foreground":
        foreground = True
    elif policy is None:
        for finalizer in finalizers:
            if finalizer == ORPHAN_FINALIZER:
                orphan = True
                break
            if finalizer == FOREGROUND_FINALIZER:
                foreground = True
                break
    kept = [f for f in finalizers if f not in (ORPHAN_FINALIZER, FOREGROUND_FINALIZER)]
    if orphan:
        kept.append(ORPHAN_FINALIZER)
    if foreground:
        kept.append(FOREGROUND_FINALIZER)
    if set(kept) == set(finalizers):
        return finalizers  # unchanged: the object's own order stays
    return kept


def _resource_version_error(text: Any) -> str:
    """``strconv.ParseUint(text, 10, 64)``'s error for a body's resourceVersion that is
    not one (storage/etcd3 APIObjectVersioner.ParseResourceVersion), or ""."""
    if not isinstance(text, str) or not text:
        return ""
    if not (text.isascii() and text.isdigit()):
        return f"strconv.ParseUint: parsing {go_quote(text)}: invalid syntax"
    if int(text) >= 2**64:
        return f"strconv.ParseUint: parsing {go_quote(text)}: value out of range"
    return ""


def _conflict(qualified: str, name: str, detail: str) -> str:
    return f'Operation cannot be fulfilled on {qualified} "{name}": {detail}'


def _failure(
    code: int, reason: str, message: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The ``Status`` of a refusal, as the server words it."""
    status: dict[str, Any] = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
    }
    if reason:
        status["reason"] = reason
    if details:
        status["details"] = details
    status["code"] = code
    return status


def _causes(errors: Sequence[FieldError]) -> list[dict[str, str]]:
    """``details.causes``: each error's reason, its message without the field in front,
    and its field."""
    return [
        {
            "reason": error.reason,
            "message": error.message.removeprefix(f"{error.field}: "),
            "field": error.field,
        }
        for error in errors
    ]


def _metadata_name(content: Any) -> str:
    meta = content.get("metadata") if isinstance(content, dict) else None
    return str(meta.get("name") or "") if isinstance(meta, dict) else ""


def _refusal(
    operation: Operation,
    code: int,
    reason: str,
    message: str,
    *,
    errors: tuple[FieldError, ...] = (),
    validation: ValidationResult | None = None,
    details: dict[str, Any] | None = None,
) -> AdmissionResult:
    return AdmissionResult(
        operation,
        code,
        errors=errors,
        message=message,
        reason=reason,
        response=_failure(code, reason, message, details),
        validation=validation,
    )


def _plain_copy(obj: Any) -> Any:
    """A deep copy as plain dicts and lists (marshal, in C, for plain JSON values)."""
    if type(obj) is dict:
        try:
            return marshal.loads(marshal.dumps(obj, 2))
        except ValueError:
            pass
    from kubectl_crd.model.schema import plain

    return plain(obj)
