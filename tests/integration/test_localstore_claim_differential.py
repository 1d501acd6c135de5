"""A PersistentVolumeClaim's spec: the store against the real server.

``ValidatePersistentVolumeClaim`` and ``ValidatePersistentVolumeClaimUpdate``
(kube-apiserver 1.34, ``pkg/apis/core/validation/validation.go``; run by
``pkg/registry/core/persistentvolumeclaim/strategy.go``, after its ``PrepareForCreate``
/ ``PrepareForUpdate`` normalised the data sources): access modes, the selector, the
storage request, the class names, the volume mode, the data source and its ref; on an
update, the spec immutable but for a first volumeName, a storageClassName given to a
claim without one, and (bound claims) resources.requests and volumeAttributesClassName,
with the server's JSON diff of the two specs; a shrunk request, the volume mode and the
beta storage-class annotation; the spec's own errors twice, between the metadata passes
of the strategy's ``Validate`` and of ``ValidatePersistentVolumeClaimUpdate``.

Each case writes the same body to the session's kube-apiserver and to an
``ObjectStore``: the status code, reason, message and each cause's field, reason and
message must be the same, or the stored spec. No case has two bad entries in one map
(Go's random order).
"""

from __future__ import annotations

import copy
from typing import Any

from kubectl_crd.kube.client import KubeClient
from tests.integration import localstore_answers
from tests.integration.localstore_answers import Edit, Sides, assert_agree, spec_set
from tests.integration.localstore_answers import spec_answer as answer


def claim(name: str, meta: Any = None, **spec: Any) -> dict[str, Any]:
    """A claim of 1Gi, ReadWriteOnce, with ``spec``'s fields (``None``: removed)."""
    body: dict[str, Any] = {
        "accessModes": ["ReadWriteOnce"],
        "resources": {"requests": {"storage": "1Gi"}},
    }
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": {"name": name, **(meta or {})},
        "spec": localstore_answers.changed(body, spec),
    }


def meta_set(labels: Any = None, annotations: Any = None, **fields: Any) -> Edit:
    """An edit setting labels and annotations, and the spec's ``fields``."""

    def edit(obj: dict[str, Any]) -> dict[str, Any]:
        obj = spec_set(**fields)(obj)
        meta = copy.deepcopy(obj["metadata"])
        if labels is not None:
            meta["labels"] = labels
        if annotations is not None:
            meta["annotations"] = annotations
        obj["metadata"] = meta
        return obj

    return edit


PVC = {"kind": "PersistentVolumeClaim", "name": "src"}
SNAP = {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot", "name": "snap"}
STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class"
POPULATOR = {"apiGroup": "example.com", "kind": "Populator", "name": "p"}

CREATES = [
    ("valid minimal", claim("ok-min")),
    ("valid every field", claim("ok-all", selector={"matchLabels": {"a": "b"}, "matchExpressions": [{"key": "k", "operator": "In", "values": ["v"]}]},
                                storageClassName="fast", volumeMode="Block", volumeAttributesClassName="gold",
                                dataSource=SNAP, dataSourceRef=SNAP, volumeName="pv-1")),
    ("valid ReadWriteOncePod alone", claim("ok-rwop", accessModes=["ReadWriteOncePod"])),
    ("valid several modes", claim("ok-modes", accessModes=["ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany"])),
    ("valid cpu request and limits beside storage", claim("ok-cpu", resources={"requests": {"storage": "1.5", "cpu": "1"}, "limits": {"storage": "2Gi"}})),
    ("valid dataSource of a claim alone", claim("ok-source", dataSource=PVC, dataSourceRef=PVC)),
    # PrepareForCreate's data sources (pkg/api/persistentvolumeclaim/util.go): one of
    # another kind than a claim or a snapshot dropped, then each filled from the other
    ("valid a claim as the data source only, its ref filled", claim("ok-source-only", dataSource=PVC)),
    ("valid a snapshot as the data source only", claim("ok-snap-only", dataSource=SNAP)),
    ("valid a populator as the ref only, the data source filled", claim("ok-ref-only", dataSourceRef=POPULATOR)),
    ("valid a populator as the data source only, dropped", claim("ok-dropped", dataSource=POPULATOR)),
    ("valid a Secret as the data source only, dropped", claim("ok-dropped-core", dataSource={"kind": "Secret", "name": "s"})),
    ("valid a ref with a namespace (the feature off)", claim("ok-ref-ns", dataSourceRef=PVC | {"namespace": "other"})),
    ("valid a ref with an empty group", claim("ok-ref-group", dataSourceRef=PVC | {"apiGroup": ""})),
    ("no access modes", claim("no-modes", accessModes=None)),
    ("an empty access modes list", claim("empty-modes", accessModes=[])),
    ("an unknown access mode", claim("bad-mode", accessModes=["ReadWriteSometimes"])),
    ("ReadWriteOncePod with ReadWriteOnce", claim("rwop-mixed", accessModes=["ReadWriteOnce", "ReadWriteOncePod"])),
    ("ReadWriteOncePod with an unknown mode", claim("rwop-unknown", accessModes=["ReadWriteOncePod", "Nope"])),
    ("no resources", claim("no-resources", resources=None)),
    ("no storage request, a limit", claim("no-storage", resources={"limits": {"storage": "1Gi"}})),
    ("a zero storage request", claim("zero-storage", resources={"requests": {"storage": "0"}})),
    ("a negative storage request", claim("negative-storage", resources={"requests": {"storage": "-1Gi"}})),
    ("a bad storage class name", claim("bad-class", storageClassName="Fast_Class")),
    ("a bad volume attributes class name", claim("bad-vac", volumeAttributesClassName="gold.")),
    ("an unknown volume mode", claim("bad-volume-mode", volumeMode="Raw")),
    ("a bad selector value", claim("bad-selector", selector={"matchLabels": {"a": "b c"}})),
    ("a bad selector operator", claim("bad-operator", selector={"matchExpressions": [{"key": "k", "operator": "Like", "values": ["v"]}]})),
    ("an In requirement without values", claim("bad-in", selector={"matchExpressions": [{"key": "k", "operator": "In"}]})),
    ("a data source without name or kind", claim("source-empty", dataSource={"apiGroup": "example.com"}, dataSourceRef={"apiGroup": "example.com"})),
    ("a core data source not a claim", claim("source-core", dataSource={"kind": "Secret", "name": "s"}, dataSourceRef={"kind": "Secret", "name": "s"})),
    ("a bad data source group", claim("source-group", dataSource={"apiGroup": "Bad_Group", "kind": "K", "name": "n"}, dataSourceRef={"apiGroup": "Bad_Group", "kind": "K", "name": "n"})),
    ("a data source not its ref", claim("source-mismatch", dataSource=PVC, dataSourceRef=SNAP)),
    ("a data source ref alone without a name", claim("ref-alone", dataSourceRef={"apiGroup": "example.com", "kind": "Populator"})),
    ("a data source alone, a snapshot without a name", claim("source-alone", dataSource={"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot"})),
    ("a bad name", claim("Bad_Name")),
    ("a bad label, no modes, a zero request", claim("bad-label", {"labels": {"a": "b c"}}, accessModes=None, resources={"requests": {"storage": "0"}})),
    ("everything wrong at once", claim("all-wrong", accessModes=["Nope"], resources={}, storageClassName="A", volumeMode="Raw",
                                       dataSource={"kind": "Secret"}, dataSourceRef={"kind": "Secret"}, volumeAttributesClassName="B")),
]  # fmt: skip

UPDATES = [
    ("valid new label", claim("u-label"), meta_set({"x": "y"})),
    ("valid first volumeName", claim("u-volume"), spec_set(volumeName="pv-1")),
    ("valid storageClassName given", claim("u-class"), spec_set(storageClassName="fast")),
    ("valid storageClassName from its annotation", claim("u-class-ann", {"annotations": {STORAGE_CLASS: "fast"}}), spec_set(storageClassName="fast")),
    ("valid same storage in another spelling", claim("u-spelling"), spec_set(resources={"requests": {"storage": "1073741824"}})),
    ("volumeName changed", claim("u-volume-again", volumeName="pv-1"), spec_set(volumeName="pv-2")),
    ("storage grown on a pending claim", claim("u-grow"), spec_set(resources={"requests": {"storage": "2Gi"}})),
    ("storage shrunk", claim("u-shrink", resources={"requests": {"storage": "2Gi"}}), spec_set(resources={"requests": {"storage": "1Gi"}})),
    ("storage removed", claim("u-no-storage"), spec_set(resources={"requests": {"cpu": "1"}})),
    ("access modes changed", claim("u-modes"), spec_set(accessModes=["ReadWriteMany"])),
    ("storageClassName changed", claim("u-class-change", storageClassName="slow"), spec_set(storageClassName="fast")),
    ("storageClassName removed", claim("u-class-gone", storageClassName="slow"), spec_set(storageClassName=None)),
    ("storageClassName not its annotation", claim("u-class-other", {"annotations": {STORAGE_CLASS: "fast"}}), spec_set(storageClassName="slow")),
    ("the storage-class annotation changed", claim("u-ann", {"annotations": {STORAGE_CLASS: "fast"}}), meta_set(annotations={STORAGE_CLASS: "slow"})),
    ("volumeMode changed", claim("u-mode"), spec_set(volumeMode="Block")),
    ("volumeAttributesClassName given to a pending claim", claim("u-vac"), spec_set(volumeAttributesClassName="gold")),
    ("a selector added", claim("u-selector"), spec_set(selector={"matchLabels": {"a": "b"}})),
    ("a bad storage class given", claim("u-bad-class"), spec_set(storageClassName="Bad_Class")),
    ("a bad data source group, allowed as the old had a group", claim("u-group", dataSource=SNAP, dataSourceRef=SNAP),
     spec_set(dataSource=SNAP | {"apiGroup": "Bad_Group"}, dataSourceRef=SNAP | {"apiGroup": "Bad_Group"})),
    ("a bad label and the access modes changed", claim("u-bad-label"), meta_set({"a": "b c"}, accessModes=["ReadWriteOncePod"])),
    ("valid an update that leaves the filled ref out (an old client)", claim("u-old-client", dataSource=PVC), spec_set(dataSourceRef=None)),
    ("valid a populator source given to a claim without one, dropped", claim("u-populator"), spec_set(dataSource=POPULATOR)),
    ("a bad label, no modes, the mode changed", claim("u-all"), meta_set({"a": "b c"}, accessModes=None, volumeMode="Block")),
]  # fmt: skip


def bound(capacity: str = "1Gi", **status: Any) -> dict[str, Any]:
    """A bound claim's status, as its controller writes it to ``/status``."""
    return {"phase": "Bound", "capacity": {"storage": capacity}, **status}


#: (what, claim, its status, edit): the claim created, its status written, then edited
BOUND_UPDATES = [
    ("storage grown on a bound claim, no StorageClass allowing it", claim("b-grow"), bound(), spec_set(resources={"requests": {"storage": "2Gi"}})),
    ("valid storage shrunk, above the capacity", claim("b-recover", resources={"requests": {"storage": "3Gi"}}), bound(),
     spec_set(resources={"requests": {"storage": "2Gi"}})),
    ("storage shrunk to the capacity", claim("b-shrink", resources={"requests": {"storage": "3Gi"}}), bound(),
     spec_set(resources={"requests": {"storage": "1Gi"}})),
    ("valid attributes class given to a bound claim", claim("b-vac"), bound(), spec_set(volumeAttributesClassName="gold")),
    ("an attributes class removed once current", claim("b-vac-gone", volumeAttributesClassName="gold"),
     bound(currentVolumeAttributesClassName="gold"), spec_set(volumeAttributesClassName=None)),
    ("access modes and storage changed on a bound claim", claim("b-modes"), bound(),
     spec_set(accessModes=["ReadWriteMany"], resources={"requests": {"storage": "5Gi"}})),
    ("a limit added on a bound claim", claim("b-limit"), bound(), spec_set(resources={"requests": {"storage": "1Gi"}, "limits": {"storage": "9Gi"}})),
]  # fmt: skip


def test_bound_claim_updates(client: KubeClient, namespace: str) -> None:
    """The claims of ``BOUND_UPDATES`` bound through ``/status`` first, on both sides:
    what a bound claim may change (its request, its attributes class)."""
    sides = Sides.of(client, namespace, "", "PersistentVolumeClaim", "persistentvolumeclaims")
    problems: list[str] = []
    for what, body, status, edit in BOUND_UPDATES:
        answers = []
        for create, update_status, update in (
            (sides.server.create, sides.server.update_status, sides.server.update),
            (
                lambda b: sides.store.create(sides.info, b, namespace=sides.namespace),
                lambda b: sides.store.update_status(sides.info, b),
                lambda b: sides.store.update(sides.info, b),
            ),
        ):
            created = create(body)
            stored = update_status({**created, "status": status})
            new = edit(copy.deepcopy(stored))
            answers.append(answer(lambda new=new, update=update: update(new)))
        localstore_answers.check(problems, what, *answers)
    assert_agree(problems, len(BOUND_UPDATES), "bound PersistentVolumeClaim updates")


def test_claim_spec(client: KubeClient, namespace: str) -> None:
    sides = Sides.of(client, namespace, "", "PersistentVolumeClaim", "persistentvolumeclaims")
    problems = sides.creates(answer, CREATES)
    problems += sides.updates(answer, UPDATES)
    assert_agree(problems, len(CREATES) + len(UPDATES), "PersistentVolumeClaim writes")
