"""The checks of a CRD as a whole, before its schemas, as the API server words them.

``apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go``:
``ValidateCustomResourceDefinition`` (the name rule ``plural.group`` on ObjectMeta),
``validateCustomResourceDefinitionSpec`` (group, scope, versions, names),
``validateCustomResourceDefinitionVersion`` (deprecation warnings, the root schema),
``ValidateCustomResourceDefinitionNames``, ``ValidateCustomResourceColumnDefinition``
and ``ValidateCustomResourceDefinitionStoredVersions`` as a create leaves them (the
registry records the first storage version as stored), and ``validateAPIApproval``
(a protected group's ``api-approved.kubernetes.io`` annotation). Paths are the internal
object's: ``spec.version`` is the first version's name, a column's path is
``JSONPath``, and what all versions share (schema, subresources, columns) is named at
``spec.validation``, ``spec.subresources``, ``spec.additionalPrinterColumns``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.gostrconv import go_is_print
from kubectl_crd.model.govalues import bad_value, go_json
from kubectl_crd.model.schema import as_mapping
from kubectl_crd.validation.fielderrors import unsupported
from kubectl_crd.validation.names import dns1035_label, dns1123_subdomain

#: (field, message, where in the CRD document)
CRDProblem = tuple[str, str, list[str | int]]

COLUMN_TYPES = ("boolean", "date", "integer", "number", "string")
COLUMN_FORMATS = ("byte", "date", "date-time", "double", "float", "int32", "int64", "password")
_SCOPES = ("Cluster", "Namespaced")


def spec_errors(crd: Mapping[str, Any]) -> list[CRDProblem]:
    """Everything wrong with the CRD outside its schemas' contents, in the server's words."""
    problems: list[CRDProblem] = []

    def add(field: str, body: str, where: list[str | int]) -> None:
        problems.append((field, f"{field}: {body}", where))

    metadata = as_mapping(crd.get("metadata"))
    spec = as_mapping(crd.get("spec"))
    names = as_mapping(spec.get("names"))
    group = _text(spec.get("group"))
    plural = _text(names.get("plural"))
    name = _text(metadata.get("name"))
    if name:
        for message in dns1123_subdomain(name):
            add(
                "metadata.name",
                f"Invalid value: {bad_value(name)}: {message}",
                ["metadata", "name"],
            )
        if name != f"{plural}.{group}":
            add(
                "metadata.name",
                f'Invalid value: {bad_value(name)}: must be spec.names.plural+"."+spec.group',
                ["metadata", "name"],
            )
    if not group:
        add("spec.group", "Required value", ["spec", "group"])
    elif failures := dns1123_subdomain(group):
        add(
            "spec.group",
            f"Invalid value: {bad_value(group)}: {','.join(failures)}",
            ["spec", "group"],
        )
    elif "." not in group:
        add(
            "spec.group",
            f"Invalid value: {bad_value(group)}: should be a domain with at least one dot",
            ["spec", "group"],
        )
    scope = _text(spec.get("scope"))
    if not scope:
        add("spec.scope", "Required value", ["spec", "scope"])
    elif scope not in _SCOPES:
        add("spec.scope", unsupported(scope, _SCOPES), ["spec", "scope"])
    versions = spec.get("versions")
    versions = [v for v in versions if isinstance(v, Mapping)] if isinstance(versions, list) else []
    if not isinstance(spec.get("validation"), Mapping):
        for index, version in enumerate(versions):
            if not isinstance(as_mapping(version.get("schema")).get("openAPIV3Schema"), Mapping):
                field = f"spec.versions[{index}].schema.openAPIV3Schema"
                add(field, "Required value", ["spec", "versions", index])
    _versions(versions, add)
    _names(names, add)
    _conversion(spec.get("conversion"), add)
    if spec.get("preserveUnknownFields") is True:
        add(
            "spec.preserveUnknownFields",
            "Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields "
            "to true in spec.versions[*].schema instead",
            ["spec", "preserveUnknownFields"],
        )
    _api_approval(group, as_mapping(metadata.get("annotations")), add)
    return problems


_REVIEW_VERSIONS = ("v1", "v1beta1")
_STRATEGIES = ("None", "Webhook")


def _conversion(conversion: Any, add: Any) -> None:
    """``validateCustomResourceConversion`` of the v1 fields (``webhook.clientConfig``
    and ``webhook.conversionReviewVersions`` are the internal
    ``webhookClientConfig`` and ``conversionReviewVersions``)."""
    if not isinstance(conversion, Mapping):
        return
    at: list[str | int] = ["spec", "conversion"]
    strategy = _text(conversion.get("strategy")) or "None"  # the v1 default
    if strategy not in _STRATEGIES:
        add("spec.conversion.strategy", unsupported(strategy, _STRATEGIES), [*at, "strategy"])
    webhook = as_mapping(conversion.get("webhook"))
    client = webhook.get("clientConfig")
    versions = webhook.get("conversionReviewVersions")
    versions = [_text(v) for v in versions] if isinstance(versions, list) else []
    field = "spec.conversion.webhookClientConfig"
    if strategy != "Webhook":
        if isinstance(client, Mapping):
            add(field, "Forbidden: should not be set when strategy is not set to Webhook", at)
        if versions:
            add(
                "spec.conversion.conversionReviewVersions",
                "Forbidden: should not be set when strategy is not set to Webhook",
                at,
            )
        return
    if not isinstance(client, Mapping):
        add(field, "Required value: required when strategy is set to Webhook", at)
    elif ("url" in client and client["url"] is not None) == isinstance(
        client.get("service"), Mapping
    ):
        add(field, "Required value: exactly one of url or service is required", at)
    elif isinstance(client.get("service"), Mapping):
        _webhook_service(client["service"], add, [*at, "webhook", "clientConfig", "service"])
    else:
        _webhook_url(_text(client.get("url")), add, [*at, "webhook", "clientConfig", "url"])
    _review_versions(versions, add, [*at, "webhook", "conversionReviewVersions"])


def _webhook_url(text: str, add: Any, where: list[str | int]) -> None:
    """``webhook.ValidateWebhookURL`` with https required, on Go's ``url.Parse``."""
    from kubectl_crd.model.gourl import GoURLError, parse_go_url

    field = "spec.conversion.webhookClientConfig.url"
    form = "; desired format: https://host[/path]"
    try:
        parts = parse_go_url(text)
    except GoURLError as refused:
        add(field, f"Required value: url must be a valid URL: {refused}{form}", where)
        return
    if parts.scheme != "https":
        add(
            field,
            f"Invalid value: {bad_value(parts.scheme)}: 'https' is the only allowed URL scheme{form}",
            where,
        )
    if not parts.host:
        add(field, f'Invalid value: "": host must be specified{form}', where)
    if parts.userinfo is not None:
        # the server shows the user information whole (Userinfo.String); a password is
        # never printed here
        shown = bad_value(parts.username())
        add(field, f"Invalid value: {shown}: user information is not permitted in the URL", where)
    if parts.fragment:
        add(
            field,
            f"Invalid value: {bad_value(parts.fragment)}: fragments are not permitted in the URL",
            where,
        )
    if parts.raw_query:
        add(
            field,
            f"Invalid value: {bad_value(parts.raw_query)}: query parameters are not permitted in the URL",
            where,
        )


def _webhook_service(service: Mapping[str, Any], add: Any, where: list[str | int]) -> None:
    """``webhook.ValidateWebhookService``, as the CRD validation calls it: with the name
    and the namespace swapped (upstream passes them in the wrong order), so an empty
    namespace is reported as the name, and the reverse."""
    field = "spec.conversion.webhookClientConfig.service"
    if not _text(service.get("namespace")):
        add(f"{field}.name", "Required value", where)
    if not _text(service.get("name")):
        add(f"{field}.namespace", "Required value", where)
    port = service.get("port", 443)  # the v1 default
    if isinstance(port, int) and not 1 <= port <= 65535:
        add(
            f"{field}.port",
            f"Invalid value: {port}: port is not valid: must be between 1 and 65535, inclusive",
            where,
        )
    path = service.get("path")
    if not isinstance(path, str) or path in ("", "/"):
        return
    if path == "//":
        add(
            f"{field}.path", f"Invalid value: {bad_value(path)}: segment[0] may not be empty", where
        )
        return
    if not path.startswith("/"):
        add(f"{field}.path", f"Invalid value: {bad_value(path)}: must start with a '/'", where)
    rest = path[1:]
    rest = rest[:-1] if rest.endswith("/") else rest
    for index, step in enumerate(rest.split("/")):
        if not step:
            add(
                f"{field}.path",
                f"Invalid value: {bad_value(path)}: segment[{index}] may not be empty",
                where,
            )
            continue
        for failure in dns1123_subdomain(step):
            add(
                f"{field}.path",
                f"Invalid value: {bad_value(path)}: segment[{index}]: {failure}",
                where,
            )


def _review_versions(versions: list[str], add: Any, where: list[str | int]) -> None:
    """``validateConversionReviewVersions`` (a recognized version required on create)."""
    field = "spec.conversion.conversionReviewVersions"
    if not versions:
        add(field, "Required value", where)
        return
    seen: set[str] = set()
    for index, version in enumerate(versions):
        if version in seen:
            add(
                f"{field}[{index}]",
                f"Invalid value: {bad_value(version)}: duplicate version",
                where,
            )
            continue
        seen.add(version)
        for failure in dns1035_label(version):
            add(f"{field}[{index}]", f"Invalid value: {bad_value(version)}: {failure}", where)
    if not any(v in _REVIEW_VERSIONS for v in versions):
        add(
            field,
            f"Invalid value: {go_json(versions)}: must include at least one of v1, v1beta1",
            where,
        )


def _versions(versions: list[Mapping[str, Any]], add: Any) -> None:
    seen: set[str] = set()
    unique = True
    for index, version in enumerate(versions):
        name = _text(version.get("name"))
        unique = unique and name not in seen
        seen.add(name)
        where: list[str | int] = ["spec", "versions", index]
        for message in dns1035_label(name):
            add(
                f"spec.versions[{index}].name",
                f"Invalid value: {bad_value(name)}: {message}",
                [*where, "name"],
            )
        warning = version.get("deprecationWarning")
        if warning is not None:
            for message in _deprecation_warning_errors(
                version.get("deprecated") is True, str(warning)
            ):
                add(
                    f"spec.versions[{index}].deprecationWarning",
                    f"Invalid value: {bad_value(str(warning))}: {message}",
                    [*where, "deprecationWarning"],
                )
    storage = [_text(v.get("name")) for v in versions if v.get("storage") is True]
    shown = _internal_versions(versions)
    if not unique:
        add(
            "spec.versions",
            f"Invalid value: {shown}: must contain unique version names",
            ["spec", "versions"],
        )
    if len(storage) != 1:
        add(
            "spec.versions",
            f"Invalid value: {shown}: must have exactly one version marked as storage version",
            ["spec", "versions"],
        )
    first = _text(versions[0].get("name")) if versions else ""
    if first:
        for message in dns1035_label(first):
            add(
                "spec.version",
                f"Invalid value: {bad_value(first)}: {message}",
                ["spec", "versions", 0, "name"],
            )
    # status.storedVersions, as a create records it: the first storage version
    if not storage:
        add(
            "status.storedVersions",
            "Invalid value: null: must have at least one stored version",
            ["spec", "versions"],
        )
    for other in storage[1:]:
        if other != storage[0]:
            add(
                "status.storedVersions",
                f"Invalid value: {go_json([storage[0]])}: must have the storage version {other}",
                ["spec", "versions"],
            )


def _internal_versions(versions: list[Mapping[str, Any]]) -> str:
    """How ``field.Invalid`` prints the internal versions: Go's field names, and null for
    a schema, subresources, columns and selectable fields (moved to the top level when
    the versions share them; a per-version one would be printed in full, which is left
    out here)."""
    fields = (
        ("Name", lambda v: _text(v.get("name"))),
        ("Served", lambda v: v.get("served") is True),
        ("Storage", lambda v: v.get("storage") is True),
        ("Deprecated", lambda v: v.get("deprecated") is True),
        ("DeprecationWarning", lambda v: v.get("deprecationWarning")),
        ("Schema", lambda v: None),
        ("Subresources", lambda v: None),
        ("AdditionalPrinterColumns", lambda v: None),
        ("SelectableFields", lambda v: None),
    )
    # a Go struct: its fields in their declared order (go_json sorts a map's keys)
    shown = [
        "{" + ",".join(f'"{name}":{go_json(value(v))}' for name, value in fields) + "}"
        for v in versions
    ]
    return "[" + ",".join(shown) + "]"


def _deprecation_warning_errors(deprecated: bool, warning: str) -> list[str]:
    """``validateDeprecationWarning``."""
    if not deprecated:
        return ["can only be set for deprecated versions"]
    errors = []
    if len(warning.encode()) > 256:
        errors.append("must be <= 256 characters long")
    if not warning:
        errors.append("must not be an empty string")
    for position, char in enumerate(warning):
        # apiextensions validation.go: unicode.IsPrint over the server's Go Unicode (15.0,
        # not Python's); a control character is not printable either
        if not go_is_print(char):
            offset = len(warning[:position].encode())  # Go ranges over bytes
            errors.append(
                "must only contain printable UTF-8 characters; non-printable character "
                f"found at index {offset}"
            )
            break
    return errors


def _names(names: Mapping[str, Any], add: Any) -> None:
    """The required names, then ``ValidateCustomResourceDefinitionNames``."""
    values = {key: _text(names.get(key)) for key in ("plural", "singular", "kind", "listKind")}
    # v1 defaulting (SetDefaults_CustomResourceDefinitionSpec) comes first
    values["singular"] = values["singular"] or values["kind"].lower()
    if not values["listKind"] and values["kind"]:
        values["listKind"] = values["kind"] + "List"
    for key, value in values.items():
        if not value:
            add(f"spec.names.{key}", "Required value", ["spec", "names", key])
    for key in ("plural", "singular"):
        value = values[key]
        if value and (failures := dns1035_label(value)):
            add(
                f"spec.names.{key}",
                f"Invalid value: {bad_value(value)}: {','.join(failures)}",
                ["spec", "names", key],
            )
    for key in ("kind", "listKind"):
        value = values[key]
        if value and (failures := dns1035_label(value.lower())):
            add(
                f"spec.names.{key}",
                f"Invalid value: {bad_value(value)}: may have mixed case, but should otherwise "
                f"match: {','.join(failures)}",
                ["spec", "names", key],
            )
    for key in ("shortNames", "categories"):
        listed = names.get(key)
        for index, item in enumerate(listed if isinstance(listed, list) else []):
            text = _text(item)
            if failures := dns1035_label(text):
                add(
                    f"spec.names.{key}[{index}]",
                    f"Invalid value: {bad_value(text)}: {','.join(failures)}",
                    ["spec", "names", key, index],
                )
    if values["kind"] and values["kind"] == values["listKind"]:
        add(
            "spec.names.listKind",
            f"Invalid value: {bad_value(values['listKind'])}: kind and listKind may not be the same",
            ["spec", "names", "listKind"],
        )


def column_errors(
    field: str, column: Mapping[str, Any], where: list[str | int]
) -> list[CRDProblem]:
    """``ValidateCustomResourceColumnDefinition`` of one column at ``field``."""
    problems: list[CRDProblem] = []

    def add(child: str, body: str, at: str) -> None:
        problems.append((f"{field}.{child}", f"{field}.{child}: {body}", [*where, at]))

    if not _text(column.get("name")):
        add("name", "Required value", "name")
    kind = _text(column.get("type"))
    if not kind:
        add("type", f"Required value: must be one of {','.join(COLUMN_TYPES)}", "type")
    elif kind not in COLUMN_TYPES:
        add(
            "type",
            f"Invalid value: {bad_value(kind)}: must be one of {','.join(COLUMN_TYPES)}",
            "type",
        )
    form = _text(column.get("format"))
    if form and form not in COLUMN_FORMATS:
        add(
            "format",
            f"Invalid value: {bad_value(form)}: must be one of {','.join(COLUMN_FORMATS)}",
            "format",
        )
    path = _text(column.get("jsonPath"))
    if not path:
        add("JSONPath", "Required value", "jsonPath")
    elif not path.startswith("."):
        add(
            "JSONPath",
            f"Invalid value: {bad_value(path)}: must be a simple json path starting with .",
            "jsonPath",
        )
    return problems


APPROVAL_ANNOTATION = "api-approved.kubernetes.io"
_APPROVAL_KEP = "see https://github.com/kubernetes/enhancements/pull/1111"


def _api_approval(group: str, annotations: Mapping[str, Any], add: Any) -> None:
    """``validateAPIApproval`` for a create: a group that is ``k8s.io`` or
    ``kubernetes.io`` or ends in ``.k8s.io`` / ``.kubernetes.io`` must carry the
    approval annotation, with a URL (``url.ParseRequestURI`` with a scheme and a host)
    or a reason starting with ``unapproved`` (``apihelpers.GetAPIApprovalState``,
    ``apiextensions-apiserver/pkg/apihelpers/helpers.go``; KEP 1111)."""
    if not any(group == d or group.endswith(f".{d}") for d in ("k8s.io", "kubernetes.io")):
        return
    field = f"metadata.annotations[{APPROVAL_ANNOTATION}]"
    where: list[str | int] = ["metadata", "annotations", APPROVAL_ANNOTATION]
    value = _text(annotations.get(APPROVAL_ANNOTATION))
    if not value:
        add(
            field,
            f'Required value: protected groups must have approval annotation "{APPROVAL_ANNOTATION}", '
            f"{_APPROVAL_KEP}",
            where,
        )
    elif not value.startswith("unapproved") and not _request_uri_with_host(value):
        add(
            field,
            f"Invalid value: {bad_value(value)}: protected groups must have approval annotation "
            f'"{APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", '
            f"{_APPROVAL_KEP}",
            where,
        )


_SCHEME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SCHEME_REST = _SCHEME_START | frozenset("0123456789+-.")
_ALNUM = _SCHEME_START | frozenset("0123456789")
# the ASCII a host may hold unescaped, and a user information part (net/url's
# shouldEscape in encodeHost mode, validUserinfo)
_HOST_CHARS = _ALNUM | frozenset("-_.~!$&'()*+,;=:[]<>\"")
_USERINFO_CHARS = _ALNUM | frozenset("-._:~!$&'()*+,;=%@")
_HEX = frozenset("0123456789abcdefABCDEF")


def _request_uri_with_host(text: str) -> bool:
    """Go's ``url.ParseRequestURI(text)`` succeeds and the URL has a scheme and a host
    (``net/url/url.go``: no control character, ``scheme:`` then ``//authority``, an
    authority whose host and user information are well formed, escapes that decode)."""
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        return False
    scheme, colon, rest = text.partition(":")
    if not colon or not scheme or scheme[0] not in _SCHEME_START:
        return False
    if any(c not in _SCHEME_REST for c in scheme):
        return False
    rest = rest.partition("?")[0]
    if not rest.startswith("//") or rest.startswith("///"):
        return False  # opaque (no host) or a path with no authority
    authority, slash, path = rest[2:].partition("/")
    userinfo, at, host = authority.rpartition("@")
    if at and any(c not in _USERINFO_CHARS for c in userinfo):
        return False
    return bool(host) and _valid_host(host) and _escapes_decode(userinfo + slash + path)


def _valid_host(host: str) -> bool:
    if host.startswith("["):
        close = host.find("]")
        if close < 0 or not _valid_port(host[close + 1 :]):
            return False
    elif ":" in host and not _valid_port(host[host.rindex(":") :]):
        return False
    for index, char in enumerate(host):
        if char == "%":
            # an escape in a host may only stand for a non-ASCII byte, or be %25
            escape = host[index + 1 : index + 3]
            if len(escape) < 2 or any(c not in _HEX for c in escape):
                return False
            if int(escape[0], 16) < 8 and escape != "25":
                return False
        elif ord(char) < 0x80 and char not in _HOST_CHARS:
            return False
    return True


def _valid_port(port: str) -> bool:
    return not port or (
        port[0] == ":" and port[1:].isascii() and all(c.isdigit() for c in port[1:])
    )


def _escapes_decode(text: str) -> bool:
    return all(
        len(text[i + 1 : i + 3]) == 2 and all(c in _HEX for c in text[i + 1 : i + 3])
        for i, char in enumerate(text)
        if char == "%"
    )


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
