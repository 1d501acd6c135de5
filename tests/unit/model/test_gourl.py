"""``model.gourl``: what Go's ``url.Parse`` reads (its refusals are held to kube-apiserver
by tests/integration/test_crd_url_and_quoting_differential.py)."""

from __future__ import annotations

import pytest

from kubectl_crd.model.gourl import GoURL, GoURLError, parse_go_url


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        ("HTTPS://A:8/p%41?q=1#f%41", GoURL("https", "", None, "A:8", "/pA", "q=1", "fA")),
        ("https:opaque?x", GoURL("https", "opaque", None, "", "", "x", "")),
        ("https://u%41:p@h/", GoURL("https", "", "u%41:p", "h", "/", "", "")),
        ("//h/p", GoURL("", "", None, "h", "/p", "", "")),
        ("https://a/?", GoURL("https", "", None, "a", "/", "", "")),
        ("https://[fe80::1%25en0]:1/", GoURL("https", "", None, "[fe80::1%en0]:1", "/", "", "")),
        ("https://a%C3%A9/", GoURL("https", "", None, "a\u00e9", "/", "", "")),
        # the port after the last colon (a release's urlstrictcolons=0), any scheme
        ("https://a:1:2/", GoURL("https", "", None, "a:1:2", "/", "", "")),
        ("http://a::1/", GoURL("http", "", None, "a::1", "/", "", "")),
        ("https://a:x:/", GoURL("https", "", None, "a:x:", "/", "", "")),
        ("mongodb://a:1,b:2/", GoURL("mongodb", "", None, "a:1,b:2", "/", "", "")),
    ],
)
def test_what_go_reads(raw: str, parsed: GoURL) -> None:
    assert parse_go_url(raw) == parsed


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("https://a b/", 'parse "https://a b/": invalid character " " in host name'),
        ("https://a/%zz#x", 'parse "https://a/%zz": invalid URL escape "%zz"'),
        ("https://a/#%z", 'parse "https://a/#%z": invalid URL escape "%z"'),
        ("https://[::1/", "parse \"https://[::1/\": missing ']' in host"),
        ("https://a:1:x/", 'parse "https://a:1:x/": invalid port ":x" after host'),
        ("https://[1.2.3.4]/", 'parse "https://[1.2.3.4]/": invalid IP-literal'),
        (":x", 'parse ":x": missing protocol scheme'),
        ("1a:b/c", 'parse "1a:b/c": first path segment in URL cannot contain colon'),
        ("https://a/\x7f", 'parse "https://a/\\x7f": net/url: invalid control character in URL'),
    ],
)
def test_what_go_refuses_in_its_words(raw: str, message: str) -> None:
    with pytest.raises(GoURLError) as refused:
        parse_go_url(raw)
    assert str(refused.value) == message


def test_the_user_name_is_shown_escaped_again_and_never_the_password() -> None:
    assert parse_go_url("https://a%40b!:secret@h/").username() == "a%40b%21"
