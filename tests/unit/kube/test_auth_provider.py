"""kubeconfig auth-provider users: oidc through the kubernetes package, the providers
kubectl removed with kubectl's own notice, anything else refused as kubectl does."""

from __future__ import annotations

import base64
import json
import time

import pytest

from kubectl_crd.kube.credentials import AuthProviderToken, credentials_for
from kubectl_crd.kube.kubeconfig import Connection
from kubectl_crd.model.errors import CredentialError, KubeconfigError


def _jwt(expires_in: int) -> str:
    def part(document: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(document).encode()).decode().rstrip("=")

    return f"{part({'alg': 'none'})}.{part({'exp': int(time.time()) + expires_in})}.sig"


def _oidc(id_token: str) -> dict[str, object]:
    return {
        "name": "oidc",
        "config": {
            "id-token": id_token,
            "client-id": "kubectl",
            "idp-issuer-url": "https://127.0.0.1:1",
            "refresh-token": "MARKER-refresh",
        },
    }


def test_oidc_id_token_is_the_bearer_token() -> None:
    token = _jwt(3600)
    credentials = credentials_for(
        Connection(server="https://h:1", user_name="u", auth_provider=_oidc(token))
    )
    assert isinstance(credentials, AuthProviderToken)
    assert credentials.authorization() == f"Bearer {token}"
    assert "MARKER" not in repr(credentials)
    assert "MARKER-refresh" in credentials.secrets()


def test_oidc_refresh_failure_is_an_error_without_secrets() -> None:
    credentials = credentials_for(
        Connection(server="https://h:1", user_name="u", auth_provider=_oidc(_jwt(-3600)))
    )
    with pytest.raises(CredentialError) as caught:
        credentials.authorization()
    assert caught.value.kubectl_line.startswith(
        "Unable to connect to the server: getting credentials: oidc: "
    )
    assert "MARKER" not in caught.value.kubectl_line
    assert caught.value.__cause__ is None


@pytest.mark.parametrize(
    ("name", "first_line"),
    [
        ("gcp", "error: The gcp auth plugin has been removed."),
        ("azure", "error: The azure auth plugin has been removed."),
        ("foo", 'error: no Auth Provider found for name "foo"'),
    ],
)
def test_other_providers_fail_as_kubectl(name: str, first_line: str) -> None:
    with pytest.raises(KubeconfigError) as caught:
        credentials_for(Connection(server="https://h:1", auth_provider={"name": name}))
    assert caught.value.kubectl_line.splitlines()[0] == first_line
