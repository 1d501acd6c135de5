"""Fuzzing the kubeconfig reader (``kube.kubeconfig``): generated kubeconfigs whose
fields have any type, corrupted files, alias bombs and self-referencing aliases.

Property: a ``Connection`` or a ``KubectlCrdError`` with a clear line (kubectl's
``error loading config file`` family); never another exception; bounded in time.
No exec plugin is ever run: resolving a connection does not call one.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.credentials import credentials_for
from kubectl_crd.kube.kubeconfig import resolve_connection
from kubectl_crd.kube.tls import load_client_certificate, server_context
from kubectl_crd.model.errors import KubectlCrdError
from tests.unit.fuzz.bounds import clear_error, fuzz_settings, tallied
from tests.unit.fuzz.strategies import json_values, names

anything = json_values | st.sampled_from(["", "x", "https://127.0.0.1:6443", "LS0tCg==", "-"])
cluster = st.fixed_dictionaries(
    {},
    optional={
        "server": anything,
        "certificate-authority-data": anything,
        "certificate-authority": anything,
        "insecure-skip-tls-verify": anything,
        "proxy-url": anything,
        "tls-server-name": anything,
    },
)
user = st.fixed_dictionaries(
    {},
    optional={
        "token": anything,
        "tokenFile": anything,
        "username": anything,
        "password": anything,
        "client-certificate-data": anything,
        "client-key-data": anything,
        "as": anything,
        "exec": st.fixed_dictionaries(
            {"command": st.just("/nonexistent/credential-plugin")},
            optional={"apiVersion": anything, "args": anything, "env": anything},
        )
        | anything,
        "auth-provider": st.fixed_dictionaries(
            {"name": st.sampled_from(["oidc", "gcp", "azure", "x"])},
            optional={"config": anything},
        )
        | anything,
    },
)


def _named(body: st.SearchStrategy[Any], key: str) -> st.SearchStrategy[Any]:
    entry = st.fixed_dictionaries({"name": names | anything, key: body | anything})
    return st.lists(entry | anything, max_size=3) | anything


kubeconfigs = st.fixed_dictionaries(
    {"apiVersion": st.just("v1"), "kind": st.just("Config")},
    optional={
        "clusters": _named(cluster, "cluster"),
        "users": _named(user, "user"),
        "contexts": _named(
            st.fixed_dictionaries(
                {}, optional={"cluster": names, "user": names, "namespace": anything}
            ),
            "context",
        ),
        "current-context": names | anything,
        "preferences": anything,
    },
)


def _resolve(data: bytes, context: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config"
        path.write_bytes(data)
        try:
            connection = resolve_connection(
                ClusterConfig(kubeconfig=str(path), context=context), environ={}
            )
            assert isinstance(connection.server, str)
            # what a client builds next: the server's TLS context, the client certificate,
            # and the Authorization header (not for an exec plugin or auth-provider, which
            # would run a program or reach an issuer)
            tls_context = server_context(connection)
            if connection.client_certificate_data or connection.client_key_data:
                load_client_certificate(
                    tls_context,
                    cert_pem=connection.client_certificate_data,
                    key_pem=connection.client_key_data,
                )
            credentials = credentials_for(connection, environ={}, stdin_is_terminal=False)
            if type(credentials).__name__ not in ("ExecPlugin", "AuthProviderToken"):
                assert isinstance(credentials.authorization(), str)
        except KubectlCrdError as exc:
            clear_error(exc)


@fuzz_settings()
@given(kubeconfigs, st.none() | names)
@tallied
def test_generated_kubeconfigs_resolve_or_fail_in_one_line(
    document: dict[str, Any], context: str | None
) -> None:
    _resolve(json.dumps(document).encode(), context)


@fuzz_settings()
@given(
    kubeconfigs.map(lambda d: json.dumps(d, indent=1).encode()),
    st.lists(st.tuples(st.integers(0, 10_000), st.binary(max_size=3)), max_size=4),
    st.integers(0, 10_000),
)
@tallied
def test_corrupted_kubeconfigs_resolve_or_fail_in_one_line(
    data: bytes, splices: list[tuple[int, bytes]], cut: int
) -> None:
    for at, piece in splices:
        data = data[:at] + piece + data[at + len(piece) :]
    _resolve(data[: max(cut, len(data) // 2)], None)


ALIASED = [
    # a billion laughs: shared nodes, never expanded
    b"a0: &a0 [x]\n"
    + b"".join(
        b"a%d: &a%d [%s]\n" % (i, i, b",".join([b"*a%d" % (i - 1)] * 9)) for i in range(1, 9)
    )
    + b"clusters: *a8\nusers: *a8\ncontexts: *a8\n",
    # lists and mappings that contain themselves
    b"clusters: &c [*c]\n",
    b"users: &u [{name: u, user: *u}]\ncontexts: [{name: x, context: {user: u}}]\n"
    b"current-context: x\n",
    b"contexts: &c [{name: x, context: {cluster: c}}]\nclusters: [{name: c, cluster: &k "
    b"{server: 'https://h', extensions: [*k]}}]\ncurrent-context: x\n",
    b"preferences: &p {a: *p}\ncurrent-context: &x *x\n",
]


@fuzz_settings(examples=len(ALIASED) * 2)
@given(st.sampled_from(ALIASED), st.none() | st.just("x"))
@tallied
def test_aliased_kubeconfigs_resolve_or_fail_in_one_line(data: bytes, context: str | None) -> None:
    _resolve(data, context)
