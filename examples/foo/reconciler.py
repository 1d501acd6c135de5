"""sample-controller's Foo, as a kubectl-crd reconciler.

A Foo owns a Deployment named by ``spec.deploymentName`` running ``spec.replicas`` nginx
pods; its ``status.availableReplicas`` follows the Deployment's (sample-controller's
controller.go ``syncHandler`` and ``newDeployment``). Run it with no cluster:
``kubectl crd dev examples/foo/reconciler.py --local examples/foo --once``.
"""

from typing import Any

from kubectl_crd.reconcile import Result, TerminalError

FOR = "foos.samplecontroller.k8s.io/v1alpha1"
OWNS = ["apps/v1/Deployment"]


def reconcile(foo: dict[str, Any], ctx: Any) -> Result:
    spec = foo.get("spec") or {}
    name = spec.get("deploymentName")
    if not name:
        # sample-controller: "deployment name must be specified" (the CRD requires it too)
        raise TerminalError("spec.deploymentName must be specified")
    labels = {"app": "nginx", "controller": foo["metadata"]["name"]}
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": labels},
        "spec": {
            "replicas": spec.get("replicas", 1),
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]},
            },
        },
    }
    current = ctx.get("apps/v1/Deployment", name)
    available = ((current or {}).get("status") or {}).get("availableReplicas", 0)
    if current is not None and not _owned_by(current, foo):
        # sample-controller's ErrResourceExists: never take over someone else's Deployment
        message = f'Resource "{name}" already exists and is not managed by Foo'
        ctx.event("ErrResourceExists", message, type="Warning")
        raise TerminalError(message)
    ctx.event("Synced", "Foo synced successfully")
    return Result(children=[deployment], status={"availableReplicas": available})


def _owned_by(child: dict[str, Any], owner: dict[str, Any]) -> bool:
    uid = owner["metadata"].get("uid")
    refs = child.get("metadata", {}).get("ownerReferences") or []
    return any(ref.get("uid") == uid and ref.get("controller") for ref in refs)
