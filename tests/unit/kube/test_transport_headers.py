"""A response's headers, as net/http's ``Header.Get`` and ``Values`` read them: names
case-insensitive, ``get`` the first of a repeated name, ``get_all`` each in order."""

from __future__ import annotations

from kubectl_crd.kube.transport import Headers


def test_get_is_case_insensitive_and_takes_the_first_of_a_repeated_name() -> None:
    headers = Headers(
        [
            ("Content-Type", "application/json"),
            ("Warning", '299 - "first"'),
            ("warning", '299 - "second"'),
            ("X-Empty", ""),
        ]
    )
    assert headers.get("content-type") == "application/json"
    assert headers.get("CONTENT-TYPE") == "application/json"
    assert headers.get("Warning") == '299 - "first"'
    assert headers.get("X-Empty", "default") == ""
    assert headers.get("Retry-After") == ""
    assert headers.get("Retry-After", "none") == "none"
    assert headers.get_all("WARNING") == ['299 - "first"', '299 - "second"']
    assert headers.get_all("Retry-After") == []
