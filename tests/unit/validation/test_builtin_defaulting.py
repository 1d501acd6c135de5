"""validation.builtin_defaulting without a server.

The whole objects are held to kube-apiserver by
tests/integration/test_localstore_defaulting_differential.py; these cases pin what that
table does not reach (image references the parser refuses, a value a body already set,
the allocator's bookkeeping) and run in milliseconds.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from kubectl_crd.validation.builtin_defaulting import (
    ServiceAllocator,
    default_builtin,
    image_pull_policy,
    prepare_job_for_create,
)


def defaulted(body: dict[str, Any]) -> dict[str, Any]:
    body = copy.deepcopy(body)
    default_builtin(body, body["apiVersion"], body["kind"])
    return body


@pytest.mark.parametrize(
    ("image", "policy"),
    [
        ("nginx", "Always"),
        ("nginx:latest", "Always"),
        ("nginx:1.27", "IfNotPresent"),
        ("localhost:5000/team/app", "Always"),  # a registry's port is no tag
        ("localhost:5000/team/app:v2", "IfNotPresent"),
        ("app@sha256:" + "a" * 64, "IfNotPresent"),  # a digest alone: no tag
        ("app:latest@sha256:" + "a" * 64, "Always"),
        ("Nginx", "IfNotPresent"),  # no reference (upper case): its tag is ""
        ("app:latest@sha256:" + "A" * 64, "IfNotPresent"),  # go-digest: lowercase hex
        ("app:latest@sha256:" + "a" * 32, "IfNotPresent"),  # sha256: 64 digits
        ("app:latest@md5:" + "a" * 32, "IfNotPresent"),  # no such algorithm
        ("a" * 64, "IfNotPresent"),  # an image ID, refused as a name
        ("b" * 248, "IfNotPresent"),  # a path (library/ + 248) over 255
        ("b" * 247, "Always"),
        ("x.io/" + "b" * 255, "Always"),  # the domain is not counted
        ("", "IfNotPresent"),
        (None, "IfNotPresent"),
    ],
)
def test_the_pull_policy_follows_the_images_tag(image: Any, policy: str) -> None:
    assert image_pull_policy(image) == policy


def test_a_value_the_body_set_is_kept_and_only_unset_ones_are_defaulted() -> None:
    body = {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {},
        "spec": {"replicas": 0, "strategy": {"type": "Recreate"}, "template": {"spec": {
            "restartPolicy": "", "terminationGracePeriodSeconds": 0,
            "containers": [{"name": "c", "image": "x", "imagePullPolicy": "Never"}]}}},
    }  # fmt: skip
    spec = defaulted(body)["spec"]
    assert spec["replicas"] == 0  # a pointer set to 0 is set
    assert spec["strategy"] == {"type": "Recreate"}  # no rollingUpdate for Recreate
    pod = spec["template"]["spec"]
    assert pod["restartPolicy"] == "Always"  # "" is Go's unset string
    assert pod["terminationGracePeriodSeconds"] == 0
    assert pod["containers"][0]["imagePullPolicy"] == "Never"
    assert "enableServiceLinks" not in pod  # SetDefaults_Pod is a Pod's, not a template's


def test_kinds_without_defaults_are_left_alone() -> None:
    for body in (
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}, "data": {"a": "b"}},
        {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {}, "spec": {}},
        {"apiVersion": "example.com/v1", "kind": "Thing", "metadata": {}},
    ):
        assert defaulted(body) == body


def test_a_pods_requests_default_to_its_limits() -> None:
    body = {
        "apiVersion": "v1", "kind": "Pod", "metadata": {},
        "spec": {"containers": [{"name": "c", "image": "x:1", "resources": {
            "limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "100m"}}}]},
    }  # fmt: skip
    resources = defaulted(body)["spec"]["containers"][0]["resources"]
    assert resources["requests"] == {"cpu": "100m", "memory": "1Gi"}


def test_a_job_copies_its_templates_labels_and_gets_its_selector() -> None:
    body = {
        "apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
        "spec": {"template": {"metadata": {"labels": {"app": "a"}}, "spec": {}}},
    }  # fmt: skip
    job = defaulted(body)
    assert job["metadata"]["labels"] == {"app": "a"}
    prepare_job_for_create(job, "u1", shares_labels=True)
    assert job["spec"]["selector"] == {"matchLabels": {"batch.kubernetes.io/controller-uid": "u1"}}
    assert job["spec"]["template"]["metadata"]["labels"] == {
        "app": "a",
        "batch.kubernetes.io/controller-uid": "u1",
        "batch.kubernetes.io/job-name": "j",
        "controller-uid": "u1",
        "job-name": "j",
    }
    # the Job's labels were its template's map: the generated labels are its own too
    assert job["metadata"]["labels"] == job["spec"]["template"]["metadata"]["labels"]
    own = defaulted({**body, "metadata": {"name": "j", "labels": {"app": "a"}}})
    prepare_job_for_create(own, "u1", shares_labels=False)
    assert own["metadata"]["labels"] == {"app": "a"}
    manual = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
              "spec": {"manualSelector": True}}  # fmt: skip
    prepare_job_for_create(manual, "u1", shares_labels=True)
    assert "selector" not in manual["spec"]


def service(**spec: Any) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Service", "metadata": {},
            "spec": {"ports": [{"port": 80}], **spec}}  # fmt: skip


def test_services_get_the_lowest_free_address_and_node_port_and_give_them_back() -> None:
    allocator = ServiceAllocator()
    first, second = defaulted(service(type="NodePort")), defaulted(service())
    assert allocator.allocate(first, None) is None
    assert allocator.allocate(second, None) is None
    # 10.0.0.1 is the kubernetes Service's
    assert (first["spec"]["clusterIP"], second["spec"]["clusterIPs"]) == ("10.0.0.2", ["10.0.0.3"])
    assert first["spec"]["ports"][0]["nodePort"] == 30000
    assert "nodePort" not in second["spec"]["ports"][0]
    assert (first["spec"]["ipFamilies"], first["spec"]["ipFamilyPolicy"]) == (
        ["IPv4"],
        "SingleStack",
    )
    # an update that leaves them out keeps them (patchAllocatedValues)
    update = defaulted(service(type="NodePort"))
    assert allocator.allocate(update, first) is None
    assert update["spec"] == first["spec"]
    allocator.release(first)
    again = defaulted(service(type="NodePort"))
    allocator.allocate(again, None)
    assert (again["spec"]["clusterIP"], again["spec"]["ports"][0]["nodePort"]) == (
        "10.0.0.2",
        30000,
    )


def test_a_local_load_balancer_gets_a_health_check_port_that_updates_keep() -> None:
    allocator = ServiceAllocator()
    local = defaulted(service(type="LoadBalancer", externalTrafficPolicy="Local"))
    assert allocator.allocate(local, None) is None
    assert (local["spec"]["ports"][0]["nodePort"], local["spec"]["healthCheckNodePort"]) == (
        30000,
        30001,
    )
    update = defaulted(service(type="LoadBalancer", externalTrafficPolicy="Local"))
    allocator.allocate(update, local)
    assert update["spec"]["healthCheckNodePort"] == 30001


def test_a_type_that_no_longer_needs_node_ports_drops_and_frees_them() -> None:
    """dropTypeDependentFields: an apply's merged object still carries the NodePort's
    node port and traffic policy; as a ClusterIP the update drops both, and the port is
    free again."""
    allocator = ServiceAllocator()
    node_port = defaulted(service(type="NodePort"))
    allocator.allocate(node_port, None)
    merged = copy.deepcopy(node_port)
    merged["spec"]["type"] = "ClusterIP"
    allocator.allocate(merged, node_port)
    assert "nodePort" not in merged["spec"]["ports"][0]
    assert "externalTrafficPolicy" not in merged["spec"]
    assert merged["spec"]["clusterIP"] == node_port["spec"]["clusterIP"]
    again = defaulted(service(type="NodePort"))
    allocator.allocate(again, None)
    assert again["spec"]["ports"][0]["nodePort"] == 30000


def test_headless_and_external_name_services_get_no_address() -> None:
    allocator = ServiceAllocator()
    headless = defaulted(service(clusterIP="None"))
    allocator.allocate(headless, None)
    assert (headless["spec"]["clusterIP"], headless["spec"]["clusterIPs"]) == ("None", ["None"])
    external = defaulted(service(type="ExternalName", externalName="example.com"))
    allocator.allocate(external, None)
    assert "clusterIP" not in external["spec"] and "ipFamilies" not in external["spec"]


def test_a_full_range_is_the_servers_internal_error() -> None:
    allocator = ServiceAllocator("10.0.0.0/30")  # two hosts: the kubernetes Service's and one
    assert allocator.allocate(defaulted(service()), None) is None
    assert allocator.allocate(defaulted(service()), None) == (
        "Internal error occurred: failed to allocate a serviceIP: range is full"
    )
