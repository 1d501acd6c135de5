"""A metacontroller sync hook, run unchanged by kubectl-crd.

``sync(request)`` takes metacontroller's request (``parent``, ``children`` keyed by
``Kind.apiVersion``) and returns its response (``status``, ``children``), as a
CompositeController's webhook would; the module only adds ``FOR`` and ``OWNS``, which
a CompositeController's ``parentResource`` and ``childResources`` say.
"""

from typing import Any

FOR = "helloworlds.example.com/v1"
OWNS = ["v1/Pod"]


def sync(request: dict[str, Any]) -> dict[str, Any]:
    parent = request["parent"]
    who = parent.get("spec", {}).get("who", "World")
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": parent["metadata"]["name"]},
        "spec": {
            "restartPolicy": "OnFailure",
            "containers": [
                {"name": "hello", "image": "busybox", "command": ["echo", f"Hello, {who}!"]}
            ],
        },
    }
    observed = request["children"].get("Pod.v1", {})
    return {"status": {"pods": len(observed)}, "children": [pod]}
