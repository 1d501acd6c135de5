"""The thin HTTP layer over the official client: raw JSON in and out, our errors out.

We use ``kubernetes`` for what it does well (kubeconfig, auth plugins, TLS) and skip
its model classes: decoding large lists into generated models is slow
(kubernetes-client/python#1921), and the commands want plain JSON anyway. Every
client exception leaves this module as a ``ClusterError`` with the cause chained.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.errors import (
    ApiError,
    ClusterError,
    ClusterUnreachableError,
    KubeconfigError,
)

CRD_LIST_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"


class KubeClient:
    def __init__(self, config: ClusterConfig) -> None:
        self.config = config
        self._api: Any = None
        self._namespace: str | None = None

    @property
    def namespace(self) -> str:
        """``-n`` when given, else the context's namespace, else ``default`` (as kubectl)."""
        self._connect()
        return self.config.namespace or self._namespace or "default"

    def _connect(self) -> Any:
        if self._api is not None:
            return self._api
        try:
            from kubernetes import client, config
            from kubernetes.config.config_exception import ConfigException
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ClusterError("the kubernetes Python package is not installed") from exc
        path = self.config.kubeconfig or os.environ.get("KUBECONFIG") or None
        configuration = client.Configuration()
        try:
            contexts, current = config.list_kube_config_contexts(config_file=path)
            chosen = self.config.context or (current or {}).get("name")
            context = next((c for c in contexts if c.get("name") == chosen), None)
            if self.config.context and context is None:
                raise KubeconfigError(
                    f"context was not found for specified context: {self.config.context}"
                )
            self._namespace = ((context or {}).get("context") or {}).get("namespace")
            config.load_kube_config(
                config_file=path,
                context=self.config.context,
                client_configuration=configuration,
                persist_config=False,
            )
        except ConfigException as exc:
            where = path or "~/.kube/config"
            raise KubeconfigError(f"invalid configuration ({where}): {exc}") from exc
        except OSError as exc:
            raise KubeconfigError(f"cannot read kubeconfig: {exc}") from exc
        self._api = client.ApiClient(configuration)
        return self._api

    @property
    def server(self) -> str:
        return str(self._connect().configuration.host)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, str] | None = None,
        body: Any = None,
        content_type: str = "application/json",
    ) -> Any:
        """One API call; returns the decoded JSON body."""
        api = self._connect()
        url = api.configuration.host + path + (f"?{urlencode(query)}" if query else "")
        headers = {"Accept": "application/json", "User-Agent": "kubectl-crd"}
        payload: str | None = None
        if body is not None:
            headers["Content-Type"] = content_type
            payload = body if isinstance(body, str) else json.dumps(body)
        try:
            from kubernetes.client.exceptions import ApiException
            from urllib3.exceptions import HTTPError

            response = api.call_api(
                method,
                url,
                header_params=headers,
                body=payload,
                _request_timeout=self.config.timeout_seconds,
            )
            raw = response.read()
        except ApiException as exc:
            raise ClusterUnreachableError(
                f"unable to connect to the server {api.configuration.host}: {exc.reason}"
            ) from exc
        except HTTPError as exc:
            raise ClusterUnreachableError(
                _unreachable_message(api.configuration.host, exc)
            ) from exc
        status = int(response.status)
        data = _decode(raw)
        if status >= 400:
            raise _api_error(status, data, path)
        return data


def _decode(raw: bytes | None) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


def _api_error(status: int, data: Any, path: str) -> ApiError:
    """Mirror kubectl's ``Error from server (Reason): message``."""
    if isinstance(data, Mapping) and data.get("kind") == "Status":
        reason = str(data.get("reason") or "")
        message = str(data.get("message") or "")
    else:
        reason, message = "", str(data or "")
    label = reason or f"HTTP {status}"
    return ApiError(f"Error from server ({label}): {message or path}", status=status, reason=reason)


def _unreachable_message(host: str, exc: Exception) -> str:
    text = str(exc)
    if (
        "Connection refused" in text
        or "NewConnectionError" in type(getattr(exc, "reason", exc)).__name__
    ):
        hostport = host.split("://", 1)[-1]
        return f"The connection to the server {hostport} was refused - did you specify the right host or port?"
    return f"Unable to connect to the server: {getattr(exc, 'reason', exc)}"
