"""Many documents against many CRDs: one ``DocumentResult`` per document, never an exception.

What ``kubectl crd validate`` runs, as a library: every input document becomes a plain
result with a status, as kubeconform's ``pkg/validator`` does, so an unreadable file,
an unknown kind or a broken CRD is a result like any other and never hides the others:

- ``valid`` / ``invalid``: a custom resource checked by ``validate_custom_resource``,
  or a CRD given as input, checked as the API server checks a CRD it is sent;
- ``error``: the document could not be read, or no CRD serves its kind
  (``missing="error"``);
- ``skipped``: a built-in kind (apps/v1 Deployment, ...), or a kind with no CRD
  under ``missing="warn"`` (with a note) or ``missing="skip"``;
- ``empty``: a document with nothing in it.

CRDs found among the inputs apply to the resources beside them.

With ``old`` (an ``OldObjects``: what ``--old`` files or the cluster hold), a document
whose object exists there is validated as an update of it (transition rules,
ratcheting); the others as creates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from kubectl_crd.io.documents import Document
from kubectl_crd.model.crd import CustomResourceDefinition, is_crd_object, same_definition
from kubectl_crd.model.errors import CRDError, InputError, Location, YamlError
from kubectl_crd.model.govalues import go_json, json_kind, unmarshal_type_error
from kubectl_crd.model.gvk import is_builtin_group
from kubectl_crd.model.lookup import differing_definitions_message
from kubectl_crd.validation.objectmeta import plainly_decodes
from kubectl_crd.validation.pipeline import validate_custom_resource
from kubectl_crd.validation.results import FieldError, FieldValidation, Reason, ValidationResult

DocumentStatus = Literal["valid", "invalid", "error", "skipped", "empty"]
MissingPolicy = Literal["error", "warn", "skip"]
STATUSES: tuple[DocumentStatus, ...] = ("valid", "invalid", "error", "skipped", "empty")

#: The stage of errors found in a CRD given as input (the server's CRD validation).
CRD_STAGE = "crd"

#: The stored object an input updates, if any: given the CRD that serves it and the
#: input's content, the old object as the server holds it (pruned, defaulted), or None.
OldObjects = Callable[[CustomResourceDefinition, dict[str, Any]], Any]


@dataclass(frozen=True, slots=True)
class DocumentResult:
    """The outcome for one input document.

    ``message`` says why for ``error`` and ``skipped``; ``errors`` are the field errors
    of an ``invalid`` document in the API server's order; ``stored`` is the object as
    the server would store it (pruned and defaulted), when it was validated.
    """

    source: str
    index: int
    location: Location
    status: DocumentStatus
    item: int | None = None
    api_version: str = ""
    kind: str = ""
    name: str = ""
    namespace: str = ""
    errors: tuple[FieldError, ...] = ()
    warnings: tuple[str, ...] = ()
    message: str = ""
    stored: Any = None
    operation: Literal["create", "update"] = "create"

    @property
    def title(self) -> str:
        """``Kind/name`` as kubectl names an object (``Kind`` alone without a name)."""
        if not self.kind:
            return "document"
        return f"{self.kind}/{self.name}" if self.name else self.kind


@dataclass
class Summary:
    """How many documents ended in each status."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUSES, 0))

    def add(self, result: DocumentResult) -> None:
        self.counts[result.status] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def failed(self) -> bool:
        return bool(self.counts["invalid"] or self.counts["error"])


#: Where a document is: its source, its index in the file, its item in a List. The
#: same for a file read twice (the CRDs first, through the parsed-value cache, then the
#: documents streamed), unlike the identity of either parse's content.
DocumentKey = tuple[str, int, int | None]


def _document_key(document: Document) -> DocumentKey:
    return (document.source, document.index, document.item)


class CRDIndex:
    """CRDs by (group, kind), the first given winning; ``lookup`` may ask a fallback."""

    def __init__(
        self,
        crds: Iterable[CustomResourceDefinition] = (),
        fallback: Callable[[], Sequence[CustomResourceDefinition]] | None = None,
    ) -> None:
        self._by_kind: dict[tuple[str, str], CustomResourceDefinition] = {}
        self._conflicts: dict[tuple[str, str], list[CustomResourceDefinition]] = {}
        self._fallback = fallback
        #: the document of each CRD found among the inputs (``add_inputs``) that won
        #: its kind, and whether the API server refuses it (None: not asked yet)
        self._input_of: dict[tuple[str, str], DocumentKey] = {}
        self._verdicts: dict[DocumentKey, bool | None] = {}
        self.add(crds)

    def add_inputs(self, documents: Iterable[Document]) -> None:
        """The CRDs defined among input documents: checked as the server checks a CRD
        it is sent, and one it refuses serves no object (``refused``)."""
        for document in documents:
            crd = _crd_or_none(document)
            if crd is None:
                continue
            key = _document_key(document)
            self._verdicts.setdefault(key, None)
            self.add((crd,))
            kind = (crd.group, crd.names.kind)
            if self._by_kind[kind] is crd:
                self._input_of[kind] = key

    def note_checked(self, document: Document, refused: bool) -> None:
        """A CRD document's verdict, so that its objects need not ask again."""
        key = _document_key(document)
        if key in self._verdicts:
            self._verdicts[key] = refused

    def refused(self, crd: CustomResourceDefinition) -> bool:
        """An input CRD the API server would refuse (``validation.crds``): kube-apiserver
        would serve none of its objects. CRDs from ``--crd`` and clusters are not asked."""
        kind = (crd.group, crd.names.kind)
        key = self._input_of.get(kind)
        if key is None or self._by_kind[kind] is not crd:
            return False
        verdict = self._verdicts[key]
        if verdict is None:
            from kubectl_crd.validation.crds import crd_errors

            verdict = self._verdicts[key] = bool(crd_errors(crd.raw))
        return verdict

    def add(self, crds: Iterable[CustomResourceDefinition]) -> None:
        for crd in crds:
            key = (crd.group, crd.names.kind)
            known = self._by_kind.setdefault(key, crd)
            if known is not crd and not same_definition(known, crd):
                self._conflicts.setdefault(key, [known]).append(crd)

    def known(self) -> list[CustomResourceDefinition]:
        """The CRDs given or found so far (one per group and kind)."""
        return list(self._by_kind.values())

    def conflict(self, group: str, kind: str) -> str:
        """Why a kind cannot be checked: its CRD is defined differently in two files."""
        crds = self._conflicts.get((group, kind))
        return differing_definitions_message(crds) if crds else ""

    def lookup(self, group: str, kind: str) -> CustomResourceDefinition | None:
        found = self._by_kind.get((group, kind))
        if found is None and self._fallback is not None:
            fallback, self._fallback = self._fallback, None  # asked once per run
            self.add(fallback())
            found = self._by_kind.get((group, kind))
        return found


def validate_documents(
    documents: Iterable[Document],
    index: CRDIndex,
    *,
    missing: MissingPolicy = "error",
    field_validation: str = FieldValidation.STRICT,
    old: OldObjects | None = None,
    crds_indexed: bool = False,
) -> Iterator[DocumentResult]:
    """A result per document, in input order. CRDs among ``documents`` join ``index``
    before any resource is checked, so their order in the input does not matter.

    ``crds_indexed``: the caller has already added them (``CRDIndex.add_inputs``, a first pass
    over files it can read twice); the documents then stream, one at a time, and the
    memory a run needs does not grow with its input.
    """
    if crds_indexed:
        for streamed in documents:
            yield validate_located(
                streamed, index, missing=missing, field_validation=field_validation, old=old
            )
        return
    pending: list[Document | None] = list(documents)
    index.add_inputs(d for d in pending if d)
    for position, held in enumerate(pending):
        assert held is not None
        pending[position] = None  # let each document go once it is checked
        yield validate_located(
            held, index, missing=missing, field_validation=field_validation, old=old
        )


def validate_located(document: Document, index: CRDIndex, **options: Any) -> DocumentResult:
    """``validate_document``, for a document from the parsed-value cache too: one that
    turns out invalid is parsed again with positions, so that each error has its
    file:line:column (the cache keeps values only)."""
    result = validate_document(document, index, **options)
    if result.status == "invalid" and not document.has_positions:
        from kubectl_crd.io import reload_with_positions

        located = reload_with_positions(document)
        if located is not document:
            result = validate_document(located, index, **options)
    return result


def validate_document(
    document: Document,
    index: CRDIndex,
    *,
    missing: MissingPolicy = "error",
    field_validation: str = FieldValidation.STRICT,
    old: OldObjects | None = None,
) -> DocumentResult:
    content = document.content
    base: dict[str, Any] = {
        "source": document.source,
        "index": document.index,
        "item": document.item,
        "location": document.location,
    }
    duplicates = [e for e in document.errors if _is_duplicate_key(e)]
    if document.error is not None and (content is None or len(duplicates) != len(document.errors)):
        error = document.error
        return DocumentResult(status="error", message=error.message, **_at(base, error))
    if content is None or content == {}:
        return DocumentResult(status="empty", **base)
    if not isinstance(content, dict):
        return DocumentResult(status="error", message="not a mapping/object", **base)
    given_version, given_kind = content.get("apiVersion"), content.get("kind")
    api_version = given_version if isinstance(given_version, str) else ""
    kind = given_kind if isinstance(given_kind, str) else ""
    metadata = content.get("metadata")
    meta = metadata if isinstance(metadata, dict) else {}
    base.update(
        api_version=api_version,
        kind=kind,
        name=str(meta.get("name") or meta.get("generateName") or ""),
        namespace=str(meta.get("namespace") or ""),
    )
    problem = _identity_problem(content, given_version, kind)
    if problem is not None:
        message = problem or f"apiVersion not set in '{document.source}'"
        return DocumentResult(status="error", message=message, **base)
    if metadata is not None and not (isinstance(metadata, dict) and plainly_decodes(metadata)):
        from kubectl_crd.validation.decoding import metadata_only_error

        undecodable = metadata_only_error(content)
        if undecodable is not None:
            # kubectl refuses it as it reads it, a built-in's or a custom resource's
            message, where = undecodable
            located = {**base, "location": document.locate(where)}
            return DocumentResult(status="error", message=message, **located)
    if is_crd_object(content):
        checked = _validate_crd(document, base)
        index.note_checked(document, checked.status == "invalid")
        return checked
    group = api_version.rpartition("/")[0]
    crd = index.lookup(group, kind)
    conflict = index.conflict(group, kind)
    if conflict:
        return DocumentResult(status="error", message=conflict, **base)
    if crd is None:
        if is_builtin_group(group):
            note = f"{api_version} {kind} is a built-in kind: only custom resources are validated"
            return DocumentResult(status="skipped", message=note, **base)
        note = f"no CRD serves {api_version} {kind} (pass it with --crd, or use --missing)"
        if missing == "error":
            return DocumentResult(status="error", message=note, **base)
        return DocumentResult(status="skipped", message=note if missing == "warn" else "", **base)
    if index.refused(crd):
        note = (
            f"no valid CRD serves {api_version} {kind}: the CustomResourceDefinition "
            f'"{crd.name}" is invalid (its errors are listed with it)'
        )
        return DocumentResult(status="error", message=note, **base)
    stored = old(crd, content) if old is not None else None
    result = validate_custom_resource(
        content, crd, field_validation=field_validation, decode_errors=duplicates, old=stored
    )
    if stored is not None:
        base["operation"] = "update"
    return _from_validation(result, base)


def _identity_problem(content: dict[str, Any], given_version: Any, kind: str) -> str | None:
    """Why kubectl cannot send the document, in its words: its builder decodes each
    document with unstructured's scheme, whose kind is only a string ("Object 'Kind' is
    missing in '<the document's JSON>'"), then into a metadataOnlyObject, whose
    apiVersion is a string (cli-runtime resource/mapper.go ``infoForData``); "" for no
    apiVersion (kubectl would find no resource for the kind); None when neither."""
    if not kind:
        return f"Object 'Kind' is missing in '{go_json(content)}'"
    if given_version is not None and not isinstance(given_version, str):
        field = "metadataOnlyObject.apiVersion"
        return unmarshal_type_error(json_kind(given_version), "string", field)
    return "" if not given_version else None


def old_objects_from(documents: Iterable[Document], index: CRDIndex) -> OldObjects:
    """``--old FILE``: the objects of ``documents`` as the server would have stored them
    when they were created, found by group, kind, namespace and name."""
    pending = list(documents)
    stored: dict[tuple[str, str, str, str], Any] = {}

    def load() -> None:
        # on first use, when the index holds the CRDs found among the new inputs too
        for document in pending:
            content = document.content
            if not isinstance(content, dict) or is_crd_object(content):
                continue
            group = str(content.get("apiVersion") or "").rpartition("/")[0]
            crd = index.lookup(group, str(content.get("kind") or ""))
            if crd is None:
                continue
            created = validate_custom_resource(content, crd, rules=False)
            stored.setdefault(_identity(crd, content), created.object)
        pending.clear()

    def lookup(crd: CustomResourceDefinition, content: dict[str, Any]) -> Any:
        if pending:
            load()
        return stored.get(_identity(crd, content))

    return lookup


def _identity(crd: CustomResourceDefinition, content: dict[str, Any]) -> tuple[str, str, str, str]:
    metadata = content.get("metadata")
    meta = metadata if isinstance(metadata, dict) else {}
    namespace = str(meta.get("namespace") or "") if crd.namespaced else ""
    return (crd.group, crd.names.kind, namespace, str(meta.get("name") or ""))


def _from_validation(result: ValidationResult, base: dict[str, Any]) -> DocumentResult:
    return DocumentResult(
        status="valid" if result.valid else "invalid",
        errors=result.errors,
        warnings=result.warnings,
        stored=result.object,
        **base,
    )


def _validate_crd(document: Document, base: dict[str, Any]) -> DocumentResult:
    """A CRD as the API server checks one it is sent (``validation.crds``); what our CRD
    reader refuses beyond that is the one error then."""
    found = _crd_errors(document)
    if found:
        return DocumentResult(status="invalid", errors=tuple(found), **base)
    try:
        CustomResourceDefinition.from_object(document.content, document.location)
    except CRDError as exc:
        error = FieldError(
            field="",
            reason=Reason.INVALID,
            message=exc.message,
            stage=CRD_STAGE,
            location=exc.location or document.location,
        )
        return DocumentResult(status="invalid", errors=(error,), **base)
    from kubectl_crd.validation.crds import crd_warnings

    return DocumentResult(
        status="valid",
        warnings=tuple(crd_warnings(document.content)),
        stored=document.content,
        **base,
    )


def _crd_errors(document: Document) -> list[FieldError]:
    """What the server refuses when the CRD is written: its names and versions, its
    schemas (structure, OpenAPI checks, defaults, CEL rules), scale paths and printer
    columns (``validation.crds``)."""
    from kubectl_crd.validation.crds import crd_errors

    return _as_field_errors(document, crd_errors(document.content))


def _as_field_errors(document: Document, problems: list[Any]) -> list[FieldError]:
    from kubectl_crd.io.positions import locate

    return [
        FieldError(
            field=field,
            reason=Reason.INVALID,
            message=message,
            stage=CRD_STAGE,
            location=locate(document.content, where) or document.location,
        )
        for field, message, where in problems
    ]


def _crd_or_none(document: Document) -> CustomResourceDefinition | None:
    if document.error is not None or not is_crd_object(document.content):
        return None
    try:
        return CustomResourceDefinition.from_object(document.content, document.location)
    except CRDError:
        return None


def _is_duplicate_key(error: InputError) -> bool:
    return isinstance(error, YamlError) and "duplicate" in error.message


def _at(base: dict[str, Any], error: InputError) -> dict[str, Any]:
    return {**base, "location": error.location or base["location"]}
