"""Kubernetes name and label rules with their exact messages.

The words are those of the API server this project is tested against (kube-apiserver
1.34, ``tests/integration/test_localstore_metadata_differential.py``):
``k8s.io/apimachinery/pkg/util/validation/validation.go`` (``IsDNS1123Subdomain``,
``IsDNS1123Label``, ``IsDNS1035Label``, ``IsQualifiedName`` for label and annotation
keys, ``IsLabelValue``, ``IsValidPortName``, ``IsValidPortNum``, ``MaxLenError``,
``RegexError``),
``apimachinery/pkg/api/validation/generic.go`` (``NameIsDNSSubdomain`` and its
``maskTrailingDash``, which really does drop the character before the dash) and
``path/name.go`` (``IsValidPathSegmentName``). Go's ``len`` counts bytes, so a limit is
checked on the UTF-8 length, and worded "characters" as ``MaxLenError`` words it.
"""

from __future__ import annotations

import re

_DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN = _DNS1123_LABEL + "(\\." + _DNS1123_LABEL + ")*"
_LABEL_RE = re.compile("^" + _DNS1123_LABEL + r"\Z")
_SUBDOMAIN_RE = re.compile("^" + _DNS1123_SUBDOMAIN + r"\Z")
_LABEL_KEY = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_RE = re.compile("^" + _LABEL_KEY + r"\Z")
_LABEL_VALUE = "(" + _LABEL_KEY + ")?"
_LABEL_VALUE_RE = re.compile("^" + _LABEL_VALUE + r"\Z")


def _regex_error(message: str, regex: str, *examples: str) -> str:
    if not examples:
        return f"{message} (regex used for validation is '{regex}')"
    listed = "".join(f"{' or ' if i else ''}'{e}', " for i, e in enumerate(examples))
    return f"{message} (e.g. {listed}regex used for validation is '{regex}')"


def _max_len(length: int) -> str:
    """``MaxLenError``: every name and label rule words its limit in characters."""
    return f"must be no more than {length} characters"


def dns1123_subdomain(value: str) -> list[str]:
    errors = []
    if len(value.encode()) > 253:
        errors.append(_max_len(253))
    if not _SUBDOMAIN_RE.match(value):
        errors.append(
            _regex_error(
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                "characters, '-' or '.', and must start and end with an alphanumeric character",
                _DNS1123_SUBDOMAIN,
                "example.com",
            )
        )
    return errors


def dns1123_label(value: str) -> list[str]:
    errors = []
    if len(value.encode()) > 63:
        errors.append(_max_len(63))
    if not _LABEL_RE.match(value):
        if _SUBDOMAIN_RE.match(value):
            errors.append("must not contain dots")
        else:
            errors.append(
                _regex_error(
                    "a lowercase RFC 1123 label must consist of lower case alphanumeric "
                    "characters or '-', and must start and end with an alphanumeric character",
                    _DNS1123_LABEL,
                    "my-name",
                    "123-abc",
                )
            )
    return errors


def mask_trailing_dash(name: str) -> str:
    if len(name) > 1 and name.endswith("-"):
        return name[:-2] + "a"
    return name


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    return dns1123_subdomain(mask_trailing_dash(name) if prefix else name)


def path_segment_name(name: str, prefix: bool) -> list[str]:
    if not prefix and name in (".", ".."):
        return [f"may not be '{name}'"]
    return [f"may not contain '{c}'" for c in ("/", "%") if c in name]


_KEY_MESSAGE = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character"
)


def qualified_name(value: str) -> list[str]:
    errors: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errors.append("prefix part must be non-empty")
        else:
            errors.extend("prefix part " + m for m in dns1123_subdomain(prefix))
    else:
        return [
            "a qualified name "
            + _regex_error(_KEY_MESSAGE, _LABEL_KEY, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errors.append("name part must be non-empty")
    elif len(name.encode()) > 63:
        errors.append("name part " + _max_len(63))
    if not _LABEL_KEY_RE.match(name):
        errors.append(
            "name part " + _regex_error(_KEY_MESSAGE, _LABEL_KEY, "MyName", "my.name", "123-abc")
        )
    return errors


def label_value(value: str) -> list[str]:
    errors = []
    if len(value.encode()) > 63:
        errors.append(_max_len(63))
    if not _LABEL_VALUE_RE.match(value):
        errors.append(
            _regex_error(
                "a valid label must be an empty string or consist of alphanumeric characters,"
                " '-', '_' or '.', and must start and end with an alphanumeric character",
                _LABEL_VALUE,
                "MyValue",
                "my_value",
                "12345",
            )
        )
    return errors


_DNS1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?"
_DNS1035_RE = re.compile("^" + _DNS1035_LABEL + r"\Z")


def dns1035_label(value: str) -> list[str]:
    errors = []
    if len(value.encode()) > 63:
        errors.append(_max_len(63))
    if not _DNS1035_RE.match(value):
        errors.append(
            _regex_error(
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
                "start with an alphabetic character, and end with an alphanumeric character",
                _DNS1035_LABEL,
                "my-name",
                "abc-123",
            )
        )
    return errors


#: ``IsValidPortNum``'s one error (``InclusiveRangeError(1, 65535)``)
PORT_RANGE_MESSAGE = "must be between 1 and 65535, inclusive"

_PORT_NAME_CHARSET = re.compile(r"^[-a-z0-9]+\Z")
_PORT_NAME_LETTER = re.compile("[a-z]")


def port_name(value: str) -> list[str]:
    """``IsValidPortName``: an IANA service name (a Service's or a container's port)."""
    errors = []
    if len(value.encode()) > 15:
        errors.append(_max_len(15))
    if not _PORT_NAME_CHARSET.match(value):
        errors.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if not _PORT_NAME_LETTER.search(value):
        errors.append("must contain at least one letter (a-z)")
    if "--" in value:
        errors.append("must not contain consecutive hyphens")
    if value and (value[0] == "-" or value[-1] == "-"):
        errors.append("must not begin or end with a hyphen")
    return errors
