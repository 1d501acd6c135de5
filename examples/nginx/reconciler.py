"""The Nginx of the classic operator tutorials, as a kubectl-crd reconciler.

``spec.count`` drives a Deployment of nginx pods; ``status.nodes`` lists the names of
the pods it runs, found through ``ctx.list`` with the Deployment's labels. Pods are
not the Nginx's children (their ReplicaSet owns them), so a pod's change reaches the
Nginx through ``WATCHES``.
"""

from typing import Any

FOR = "nginxes.nginx.example.com/v1"
OWNS = ["apps/v1/Deployment"]


def labels_of(name: str) -> dict[str, str]:
    return {"app": "nginx", "nginx": name}


def parent_of(pod: dict[str, Any]) -> list[str]:
    labels = pod.get("metadata", {}).get("labels") or {}
    return [labels["nginx"]] if labels.get("app") == "nginx" and labels.get("nginx") else []


WATCHES = {"v1/Pod": parent_of}


def reconcile(nginx: dict[str, Any], ctx: Any) -> dict[str, Any]:
    name = nginx["metadata"]["name"]
    spec = nginx.get("spec") or {}
    labels = labels_of(name)
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "replicas": spec.get("count", 1),
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "containers": [
                        {
                            "name": "nginx",
                            "image": spec.get("image", "nginx:1.27"),
                            "ports": [{"containerPort": 80}],
                        }
                    ]
                },
            },
        },
    }
    pods = ctx.list("v1/Pod", labels=labels)
    nodes = sorted(pod["metadata"]["name"] for pod in pods)
    return {"children": [deployment], "status": {"nodes": nodes}}
