"""A CRD's conversion webhook URL, and bad values that Go quotes two ways, against
kube-apiserver: ``validation.crds.crd_errors`` must give the server's causes.

- URLs: the server reads ``spec.conversion.webhook.clientConfig.url`` with Go's
  ``url.Parse`` (``ValidateWebhookURL``), refusing what it cannot parse with the
  parser's own words (``model.gourl``): control characters, hosts with characters a
  host may not hold or escape, ports that are not digits, IP literals, bad escapes,
  userinfo, then the scheme, host, user, fragment and query rules. One divergence is
  deliberate: the server prints a URL's password with its user; ours never prints a
  credential (the case below says what ours shows instead).
- Odd values (``ODD``: DEL, U+00A0, U+200B, a tab, & and <): ``field.Error`` writes a
  plain string's bad value with ``%q`` and a named string type's with ``json.Marshal``
  (a CEL rule's ``reason`` is a ``*FieldValueErrorReason``).
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from kubectl_crd.validation.crds import crd_errors
from tests.crd_factory import make_crd
from tests.integration.localstore_answers import ODD
from tests.integration.test_hostile_crds_server import server_crd_causes

URLS = [
    "https://a/\x7f", "https://exa mple.com/", "https://a:b/", "https://a:/", "https://[::1/",
    "https://[::1]x/", "https://a/%zz", "https://a/%4", "https://%41/", "https://a%2Fb/",
    "https://u@a/", "https://u{@a/", "https://a/#%zz", "https://a/#f", "https://a/?q",
    "https://a/?", ":foo", "https:foo", "//a/b", "a:b/c", "1https://a/", "https://a{b/",
    "https://a<b>/", "https://\u00e9t\u00e9.com/", "https://a/\u00e9", "HTTPS://A/",
    'https://a"b/', "https://[fe80::1%25en0]/", "https://[fe80::1%en0]/", 'https://a/p"q',
    "https://u%zz@a/", "https://a@b@c/", "", "https://", "https:///p", "http://a/",
    "https://a:1:2/", "https://[::1]/", "https://[1.2.3.4]/", "https://a[b]/",
    "https://[::1]:80/", "https://[::1]:x/", "https://[fe80::1%25%41]/",
    "https://[fe80::1%25%C3]/", "https://u%41!:p@a/", "https://a/#x%41", "https://a/?q#f",
    "https://a%C3%A9/", "https://a%41/", "https://a/" + ODD,
    # a release reads the port after the host's last colon (GODEBUG urlstrictcolons=0
    # under its go.mod's default=go1.24; Go 1.26's own default reads it after the first)
    "https://a:b:1/", "https://a::1/", "https://a:1:/", "https://a:1:x/", "http://a:1:2/",
    "https://a:1:2:3/p",
    # bracketed literals netip refuses, each in its own words (model.gonetip)
    "https://[1::2::3]/", "https://[12345::]/", "https://[g::1]/", "https://[fe80::1%25]/",
    "https://[::1.2.3]/", "https://[1:2:3]/", "https://[::ffff:1.2.3.4]/",
]  # fmt: skip


def _webhook(url: str) -> dict[str, Any]:
    client_config = {"url": url}
    return {"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"], "clientConfig": client_config}}  # fmt: skip


def _spec_node(crd: dict[str, Any], **node: Any) -> None:
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    schema.setdefault("properties", {})["spec"] = {"type": "object", **node}


ODD_CASES = {
    "a conversion strategy": lambda crd: crd["spec"].__setitem__("conversion", {"strategy": ODD}),
    "a scope": lambda crd: crd["spec"].__setitem__("scope", ODD),
    "a list kind": lambda crd: crd["spec"]["names"].__setitem__("listKind", ODD),
    "a column type": lambda crd: crd["spec"]["versions"][0].__setitem__(
        "additionalPrinterColumns", [{"name": "x", "type": ODD, "jsonPath": ".spec"}]
    ),
    "a list type": lambda crd: _spec_node(
        crd, properties={"a": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": ODD}}
    ),
    "a rule's reason": lambda crd: _spec_node(
        crd, **{"x-kubernetes-validations": [{"rule": "true", "reason": ODD}]}
    ),
    "a rule's field path": lambda crd: _spec_node(
        crd, **{"x-kubernetes-validations": [{"rule": "true", "fieldPath": ODD}]}
    ),
}  # fmt: skip


def _compare(client: KubeClient, cases: dict[str, dict[str, Any]]) -> list[str]:
    problems = []
    for what, crd in cases.items():
        theirs = server_crd_causes(client, crd)
        ours = sorted(message for _, message, _ in crd_errors(crd))
        # the one deliberate difference: no credential in our output (every case's
        # password is "p")
        theirs = [each.replace(':p": user information', '": user information') for each in theirs]
        if ours != theirs:
            problems.append(f"{what}:\n  server {theirs}\n  ours   {ours}")
    return problems


def test_webhook_urls_are_refused_as_the_server_refuses_them(client: KubeClient) -> None:
    cases = {}
    for url in [*URLS, "https://u:p@a/"]:
        crd = make_crd("Widget", "example.com")
        crd["spec"]["conversion"] = _webhook(url)
        cases[f"url {url!r}"] = crd
    problems = _compare(client, cases)
    assert problems == [], f"{len(problems)} of {len(cases)} differ:\n" + "\n".join(problems)


def test_odd_bad_values_are_quoted_as_the_server_quotes_them(client: KubeClient) -> None:
    cases = {}
    for what, change in ODD_CASES.items():
        crd = make_crd("Widget", "example.com")
        change(crd)
        cases[what] = crd
    problems = _compare(client, cases)
    assert problems == [], f"{len(problems)} of {len(cases)} differ:\n" + "\n".join(problems)
