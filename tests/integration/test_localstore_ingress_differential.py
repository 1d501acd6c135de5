"""An Ingress's spec: the store against the real server.

``ValidateIngressCreate`` / ``ValidateIngressUpdate`` (kube-apiserver 1.34,
``pkg/apis/networking/validation/validation.go``; run by ``pkg/registry/networking/
ingress/strategy.go``): rules or a default backend, each rule's host (a DNS name or a
wildcard one, no IP) and HTTP paths (a pathType, an absolute path without ``//``,
``/./``, ``%2f``...), each backend (a service with a DNS-1035 name and a port name or
number, or a resource), TLS hosts and secret names, the class name; on a create an
``kubernetes.io/ingress.class`` annotation other than ``ingressClassName``; on an update
the spec after the metadata update pass and the metadata pass.

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or the stored spec. No case has two bad entries in one map.
"""

from __future__ import annotations

from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Sides, assert_agree, spec_set
from tests.integration.localstore_answers import spec_answer as answer

SERVICE = {"service": {"name": "web", "port": {"number": 80}}}
CLASS = "kubernetes.io/ingress.class"


def ingress(name: str, meta: Any = None, **spec: Any) -> dict[str, Any]:
    """An Ingress with ``spec`` (a default backend unless ``spec`` sets rules)."""
    body = {} if "rules" in spec else {"defaultBackend": SERVICE}
    return {
        "apiVersion": "networking.k8s.io/v1",
        "kind": "Ingress",
        "metadata": {"name": name, **(meta or {})},
        "spec": localstore_answers.changed(body, spec),
    }


def path(path_: Any = "/", type_: Any = "Prefix", backend: Any = None) -> dict[str, Any]:
    found: dict[str, Any] = {"backend": SERVICE if backend is None else backend}
    if path_ is not None:
        found["path"] = path_
    if type_ is not None:
        found["pathType"] = type_
    return found


def rule(*paths: Any, host: Any = None) -> dict[str, Any]:
    found: dict[str, Any] = {"http": {"paths": list(paths or [path()])}}
    if host is not None:
        found["host"] = host
    return found


def backend(service: Any = None, resource: Any = None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if service is not None:
        found["service"] = service
    if resource is not None:
        found["resource"] = resource
    return found


BUCKET = {"apiGroup": "k8s.example.com", "kind": "StorageBucket", "name": "static"}

CREATES = [
    ("valid default backend", ingress("ok-default")),
    ("valid rules and TLS", ingress("ok-rules", rules=[rule(path("/api", "Prefix"), path("/exact", "Exact"), path(None, "ImplementationSpecific"), host="app.example.com"),
                                                       rule(path("/", "Prefix", backend({"name": "web", "port": {"name": "http"}})))],
                                    tls=[{"hosts": ["app.example.com", "*.example.com"], "secretName": "tls"}, {}], ingressClassName="nginx")),
    ("valid wildcard host", ingress("ok-wildcard", rules=[rule(host="*.example.com")])),
    ("valid resource backend", ingress("ok-resource", defaultBackend=backend(resource=BUCKET))),
    ("valid rule without http", ingress("ok-host-only", rules=[{"host": "a.example.com"}])),
    ("valid matching class annotation", ingress("ok-annotation", {"annotations": {CLASS: "nginx"}}, ingressClassName="nginx")),
    ("neither rules nor a default backend", ingress("nothing", defaultBackend=None)),
    ("empty rules, no default backend", ingress("empty-rules", rules=[])),
    ("an IP host", ingress("host-ip", rules=[rule(host="1.2.3.4")])),
    ("a bad host", ingress("host-bad", rules=[rule(host="Bad_Host")])),
    ("a bad wildcard host", ingress("host-wildcard", rules=[rule(host="foo.*.com")])),
    ("no paths", ingress("no-paths", rules=[{"http": {}}])),
    ("empty paths", ingress("empty-paths", rules=[{"http": {"paths": []}}])),
    ("a path without a type", ingress("no-type", rules=[rule(path("/", None))])),
    ("an unknown path type", ingress("bad-type", rules=[rule(path("/", "Regex"))])),
    ("a relative Prefix path", ingress("relative", rules=[rule(path("api", "Prefix"))])),
    ("an Exact path with // ending /..", ingress("dots", rules=[rule(path("/a//b/..", "Exact"))])),
    ("a Prefix path with %2f and /./", ingress("escaped", rules=[rule(path("/a%2fb/./c", "Prefix"))])),
    ("an empty Prefix path", ingress("empty-prefix", rules=[rule(path("", "Prefix"))])),
    ("a relative ImplementationSpecific path", ingress("relative-impl", rules=[rule(path("api", "ImplementationSpecific"))])),
    ("both a resource and a service", ingress("both-backends", defaultBackend=backend(SERVICE["service"], BUCKET))),
    ("an empty backend", ingress("empty-backend", rules=[rule(path("/", "Prefix", {}))])),
    ("a service without a name", ingress("service-no-name", defaultBackend=backend({"port": {"number": 80}}))),
    ("a service name not a DNS-1035 label", ingress("service-name", defaultBackend=backend({"name": "1web", "port": {"number": 80}}))),
    ("a port name and number", ingress("port-both", defaultBackend=backend({"name": "web", "port": {"name": "http", "number": 80}}))),
    ("no port", ingress("port-none", defaultBackend=backend({"name": "web"}))),
    ("a bad port name", ingress("port-name", defaultBackend=backend({"name": "web", "port": {"name": "http_1"}}))),
    ("a port number too high", ingress("port-number", defaultBackend=backend({"name": "web", "port": {"number": 70000}}))),
    ("a resource without kind or name", ingress("resource-empty", defaultBackend=backend(resource={"apiGroup": "Bad_Group"}))),
    ("a resource kind with a slash", ingress("resource-kind", defaultBackend=backend(resource={"kind": "a/b", "name": ".."}))),
    ("a bad TLS host", ingress("tls-host", tls=[{"hosts": ["Bad_Host"]}])),
    ("a bad wildcard TLS host", ingress("tls-wildcard", tls=[{"hosts": ["*.*.example.com"]}])),
    ("a bad TLS secret name", ingress("tls-secret", tls=[{"secretName": "Bad_Secret"}])),
    ("a bad class name", ingress("class-name", ingressClassName="Nginx_Class")),
    ("a class annotation not the class name", ingress("class-mismatch", {"annotations": {CLASS: "traefik"}}, ingressClassName="nginx")),
    ("a bad name", ingress("Bad_Name", rules=[rule(path("x"))])),
    ("a bad label and a bad backend", ingress("bad-label", {"labels": {"a": "b c"}}, defaultBackend={})),
]  # fmt: skip

UPDATES = [
    ("valid rule added", ingress("u-ok"), spec_set(rules=[rule(host="b.example.com")])),
    ("valid class annotation not matching on update", ingress("u-annotation", {"annotations": {CLASS: "traefik"}}), spec_set(ingressClassName="nginx")),
    ("a bad path", ingress("u-path", rules=[rule()]), spec_set(rules=[rule(path("/a/."))])),
    ("the default backend removed", ingress("u-default"), spec_set(defaultBackend=None)),
    ("a bad label and a bad TLS host", ingress("u-label"), spec_set({"a": "b c"}, tls=[{"hosts": ["1..2"]}])),
]  # fmt: skip


def test_ingress_spec(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "networking.k8s.io", "Ingress", "ingresses")
    problems = sides.creates(answer, CREATES)
    problems += sides.updates(answer, UPDATES)
    assert_agree(problems, len(CREATES) + len(UPDATES), "Ingress writes")
