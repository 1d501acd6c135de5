"""The string formats the API server checks, and how it checks them.

In objects, only the formats in ``apiextensions-apiserver/pkg/apiserver/validation/
formats.go`` known at the default compatibility version are kept (``-`` is ignored in
the name); every other format is stripped and never checked. A CRD's ``default``
values are checked with every format of kube-openapi's ``strfmt.Default`` registry
(``defaulting/validation.go`` builds its validator from ``Structural.ToKubeOpenAPI``,
which strips nothing), so ``k8s-short-name`` and ``k8s-long-name`` are checked there.
Each check follows kube-openapi's ``strfmt`` registry (``pkg/validation/strfmt/
default.go``, ``kubernetes-extensions.go``), which mostly delegates to Go's net package
and govalidator.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from kubectl_crd.model.durations import DurationSyntaxError, parse_strfmt_duration
from kubectl_crd.model.gonetip import parse_cidr_sloppy, parse_ip, parse_ip_sloppy
from kubectl_crd.model.gotime import FULL_DATE, layout_time
from kubectl_crd.model.gourl import GoURLError, parse_go_url
from kubectl_crd.validation.gomail import is_address
from kubectl_crd.validation.regexps import go_regexp

# Formats known at the default compatibility version (1.0 set; the 1.34 additions
# k8s-short-name and k8s-long-name are not enabled by a 1.34 server's default
# compatibility version).
SUPPORTED_FORMATS = frozenset(
    {
        "bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac",
        "uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard",
        "ssn", "hexcolor", "rgbcolor", "byte", "password", "date", "duration", "datetime",
    }
)  # fmt: skip


#: kube-openapi's ``strfmt.Default``: the supported set and the two Kubernetes names
#: (registered by ``strfmt/kubernetes-extensions.go``), what a CRD's defaults meet
REGISTERED_FORMATS = SUPPORTED_FORMATS | {"k8sshortname", "k8slongname"}


def kept_format(format_name: str, *, registered: bool = False) -> str:
    """The format the validator sees after ``StripUnsupportedFormatsPostProcessor``.

    As in Kubernetes 1.34 (apiextensions-apiserver v0.34): a format is kept when its
    name, without ``-``, is in the supported set, whatever the type; so ``int32``,
    ``int64``, ``float`` and ``double`` are stripped (later releases keep them for
    numbers, and kube-openapi then checks ranges: not this server's behaviour).
    ``registered``: the validator of a CRD's defaults, which strips nothing and knows
    every format of ``strfmt.Default`` (``REGISTERED_FORMATS``).
    """
    known = REGISTERED_FORMATS if registered else SUPPORTED_FORMATS
    return format_name if format_name.replace("-", "") in known else ""


@cache
def _hostname() -> Any:
    """govalidator's hostname regex, compiled on first use: its Unicode classes make RE2
    take over 100 ms to compile it, which no command should pay at start-up."""
    return go_regexp(
        r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$"
    )


_UUID = {
    "uuid": go_regexp(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$"),
    "uuid3": go_regexp(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$"),
    "uuid4": go_regexp(
        r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"
    ),
    "uuid5": go_regexp(
        r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"
    ),
}
_DATETIME_TIME = re.compile(
    r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))\Z"
)
# govalidator's patterns (kube-openapi pkg/internal/third_party/govalidator/patterns.go),
# as Go's regexp reads them: $ is the end of the text and \d, \s are ASCII, where
# Python's re takes a final newline before $ and any Unicode digit or space
_CREDITCARD = go_regexp(
    r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}"
    r"|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$"
)
_ISBN10 = go_regexp(r"^(?:[0-9]{9}X|[0-9]{10})$")
_ISBN13 = go_regexp(r"^(?:[0-9]{13})$")
_HEXCOLOR = go_regexp(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_RGBCOLOR = go_regexp(
    r"^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])"
    r"\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$"
)
_BASE64 = go_regexp(
    r"^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$"
)
_SSN = go_regexp(r"^\d{3}[- ]?\d{2}[- ]?\d{4}$")
#: govalidator's whiteSpacesAndMinus, `[\s-]+`: Go's \s is these four and the space
_ISBN_SEPARATORS = re.compile(r"[\t\n\f\r -]+")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _is_date(text: str) -> bool:
    # strfmt.IsDate: time.Parse(RFC3339FullDate): the year 0000 too, no trailing newline
    return layout_time(text, FULL_DATE)[0] is not None


def _is_datetime(text: str) -> bool:
    # strfmt.IsDateTime: split on "t" after lower-casing, date then a time regex
    if len(text) < 4:
        return False
    parts = text.lower().split("t")
    if len(parts) < 2 or not _is_date(parts[0]):
        return False
    match = _DATETIME_TIME.search(parts[1])
    return match is not None and match[1] <= "23" and match[2] <= "59" and match[3] <= "59"


def _is_duration(text: str) -> bool:
    try:
        parse_strfmt_duration(text)
    except DurationSyntaxError:
        return False
    return True


def _is_ipv4(text: str) -> bool:
    # strfmt isIPv4: netutils.ParseIPSloppy (leading zeros read), and a dot in the text
    return "." in text and parse_ip_sloppy(text) is not None


def _is_ipv6(text: str) -> bool:
    # govalidator.IsIPv6: net.ParseIP, and a colon in the text
    return ":" in text and parse_ip(text) is not None


def _is_cidr(text: str) -> bool:
    # strfmt isCIDR: netutils.ParseCIDRSloppy
    return parse_cidr_sloppy(text) is not None


def _is_isbn10(text: str) -> bool:
    # govalidator.IsISBN(str, 10): whitespace and '-' taken out first
    clean = _ISBN_SEPARATORS.sub("", text)
    if not _ISBN10.search(clean):
        return False
    total = sum((i + 1) * (10 if c == "X" else int(c)) for i, c in enumerate(clean))
    return total % 11 == 0


def _is_isbn13(text: str) -> bool:
    clean = _ISBN_SEPARATORS.sub("", text)
    if not _ISBN13.search(clean):
        return False
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(clean[:12]))
    return (10 - total % 10) % 10 == int(clean[12])


def _is_mac(text: str) -> bool:
    # govalidator.IsMAC: net.ParseMAC: 6, 8 or 20 octets as hex pairs all separated by
    # the third character (':' or '-'), or as dot-separated groups of four
    if len(text) < 14 or not text.isascii():
        return False
    if text[2] in ":-":
        separator, width = text[2], 2
    elif text[4] == ".":
        separator, width = ".", 4
    else:
        return False
    groups = text.split(separator)
    return len(groups) * width // 2 in (6, 8, 20) and all(
        len(group) == width and _HEX_DIGITS.issuperset(group) for group in groups
    )


def _is_creditcard(text: str) -> bool:
    digits = re.sub(r"[^0-9]", "", text)
    if not _CREDITCARD.search(digits):
        return False
    total, double = 0, False
    for char in reversed(digits):
        value = int(char)
        if double:
            value *= 2
            if value > 9:
                value = value % 10 + 1
        total += value
        double = not double
    return total % 10 == 0


def _is_base64(text: str) -> bool:
    # govalidator.IsBase64: a regex that wants at least one 4-character group
    return _BASE64.search(text) is not None


def _is_hostname(text: str) -> bool:
    # strfmt.IsHostname: the pattern, then at most 255 bytes and 63 a label (Go's len
    # counts UTF-8 bytes: a label of 32 "é" is too long)
    if not _hostname().search(text):
        return False
    data = text.encode("utf-8", "surrogatepass")
    return len(data) <= 255 and all(len(label) <= 63 for label in data.split(b"."))


def _is_request_uri(text: str) -> bool:
    # govalidator.IsRequestURI: url.ParseRequestURI succeeds (model.gourl's port)
    try:
        parse_go_url(text, request=True)
    except GoURLError:
        return False
    return True


# strfmt/kubernetes-extensions.go: a DNS label, and dot-separated labels, lower case
# (no per-label length limit in a long name)
_SHORT_NAME = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_LONG_NAME = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


_CHECKS: dict[str, Callable[[str], bool]] = {
    "bsonobjectid": lambda s: len(s) == 24 and all(c in "0123456789abcdefABCDEF" for c in s),
    "uri": _is_request_uri,
    "email": is_address,  # strfmt.IsEmail: net/mail.ParseAddress
    "hostname": _is_hostname,
    "ipv4": _is_ipv4,
    "ipv6": _is_ipv6,
    "cidr": _is_cidr,
    "mac": _is_mac,
    "uuid": lambda s: bool(_UUID["uuid"].search(s)),
    "uuid3": lambda s: bool(_UUID["uuid3"].search(s)),
    "uuid4": lambda s: bool(_UUID["uuid4"].search(s)),
    "uuid5": lambda s: bool(_UUID["uuid5"].search(s)),
    "isbn": lambda s: _is_isbn10(s) or _is_isbn13(s),
    "isbn10": _is_isbn10,
    "isbn13": _is_isbn13,
    "creditcard": _is_creditcard,
    "ssn": lambda s: len(s) == 11 and bool(_SSN.search(s)),  # govalidator.IsSSN
    "hexcolor": lambda s: bool(_HEXCOLOR.search(s)),
    "rgbcolor": lambda s: bool(_RGBCOLOR.search(s)),
    "byte": _is_base64,
    "password": lambda s: True,
    "date": _is_date,
    "duration": _is_duration,
    "datetime": _is_datetime,
    # len() in Go counts bytes; every accepted character is ASCII, so characters do
    "k8sshortname": lambda s: len(s) <= 63 and _SHORT_NAME.fullmatch(s) is not None,
    "k8slongname": lambda s: len(s) <= 253 and _LONG_NAME.fullmatch(s) is not None,
}


def format_checker(format_name: str) -> Callable[[str], bool] | None:
    """The check for a kept format (names compared without ``-``), or None."""
    return _CHECKS.get(format_name.replace("-", ""))
