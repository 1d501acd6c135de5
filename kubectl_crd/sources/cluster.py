"""CRDs served by the cluster of the current kubeconfig context (``apiextensions.k8s.io/v1``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubectl_crd.kube.client import CRD_LIST_PATH, KubeClient
from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.model.crd import CRD_API_VERSION, CRD_KIND, CustomResourceDefinition
from kubectl_crd.model.errors import CRDError, KubectlCrdError, Location


class ClusterSource:
    def __init__(self, config: ClusterConfig | KubeClient) -> None:
        self._client = config if isinstance(config, KubeClient) else KubeClient(config)
        self._crds: list[CustomResourceDefinition] | None = None
        self._problems: list[KubectlCrdError] = []

    @property
    def client(self) -> KubeClient:
        return self._client

    @property
    def description(self) -> str:
        context = self._client.config.context
        return f"cluster (context {context})" if context else "cluster (current context)"

    def crds(self) -> Sequence[CustomResourceDefinition]:
        if self._crds is None:
            listing = self._client.request("GET", CRD_LIST_PATH)
            items = listing.get("items", []) if isinstance(listing, Mapping) else []
            crds: list[CustomResourceDefinition] = []
            for item in items if isinstance(items, list) else ():
                if not isinstance(item, Mapping) or not isinstance(item.get("metadata"), Mapping):
                    continue  # not a CRD: the answer is from whatever the kubeconfig names
                # Served CRDs lack apiVersion/kind on list items; put them back for the parser.
                obj = {
                    "apiVersion": CRD_API_VERSION,
                    "kind": CRD_KIND,
                    **item,
                }
                name = (item.get("metadata") or {}).get("name", "?")
                try:
                    crds.append(
                        CustomResourceDefinition.from_object(
                            obj, Location(f"cluster:{name}"), check_structural=False
                        )
                    )
                except CRDError as exc:
                    self._problems.append(exc)
            self._crds = crds
        return self._crds

    def problems(self) -> Sequence[KubectlCrdError]:
        return list(self._problems)
