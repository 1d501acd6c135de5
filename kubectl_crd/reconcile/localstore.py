"""An in-process object store with the API server's semantics that reconcilers depend on.

The engine behind issue 27's ``--local DIR`` (``reconcile.local.LocalBackend`` puts a
``Backend`` and DIR's files on it). Pure: no files, no threads of its own; every method
is safe to call from any thread (one lock: the controller's workers and informers are
threads). Objects go in and come out as plain dicts, as the API server sends them.

What it keeps, and the upstream behaviour each piece mirrors
(kubernetes/kubernetes, staging/src/k8s.io/...):

- one resourceVersion counter for the whole store (etcd's revision is shared by every
  kind); a write that changes nothing keeps it (etcd3 ``GuaranteedUpdate``);
- custom resources are written through ``validation.admission.Admission``: decoding,
  pruning, defaulting, schema and CEL validation, the server-set fields, the status
  subresource split, generation + 1 on a change of anything but metadata, finalizers
  and deletionTimestamp; a refusal raises ``StoreRefusal`` with the server's Status and
  the ``FieldError``\\s (with file:line:column when the object came from a file);
- a server-side apply starts, as on the server, with the typed conversion of the
  applied object (``validation.typed``, structured-merge-diff's): a field of the wrong
  type (``data: {a: 1}`` in a ConfigMap, ``replicas: "2"``), one the schema does not
  declare, a duplicate in a list map or set is refused before anything is stored, with
  the server's 500 and its ``failed to create typed patch object`` message; built-in
  kinds by the server's own schemas (shipped, read on the first apply), custom
  resources by their CRD version's schema; then, for a built-in, the numbers of its
  decoding into the Go type (a fraction in an int field, an int-or-string neither
  string nor int32, a quantity that does not parse: ``failed to convert new object``);
- a built-in's body naming another kind or apiVersion than its endpoint's is the
  server's 400 (``validation.decoding.body_kind_problem``: ``no kind "Gadget" is
  registered``, ``converting (v1.Secret) to (core.ConfigMap)``; a merge patch's, the
  patch handler's 422), and one leaving them out is given the endpoint's; but a merge
  patch's result without an apiVersion is decoded as the internal type, as the server
  decodes it (``_as_internal``: unknown fields, no name), and is held to the URL's
  namespace and name (``_patched_identity``; 31 cases on built-ins and a custom
  resource in tests/integration/test_localstore_patch_differential.py);
- a built-in's body (create, update, status update) is first decoded into the kind's Go
  type as the server decodes it (``validation.decoding``, from the Go types
  hack/builtin_types.py reads from k8s.io/api): a value the type cannot hold (a number
  in a ConfigMap's ``data``, ``port: "80"``, an int32 that overflows, bytes that are no
  base64, a ``metav1.Time`` or ``MicroTime`` that does not parse, a quantity that does
  not) is the server's 400 ``cannot be handled as a <Kind>`` with encoding/json's
  message, the first in the body's order unless a type's own ``UnmarshalJSON`` fails
  later; what is stored is what the server stores: times in UTC (``Time`` to the
  second, ``MicroTime`` to the microsecond), bytes in canonical base64, quantities
  spelt as the server spells them (``0.5`` -> ``500m``; a container's resources rounded
  up to the milli, core/v1's one default mirrored), a null map value its zero value,
  empty ``omitempty`` fields and unknown fields (``Data``) dropped, and the fields a body
  leaves out written at their zero values as encoding/json writes them (a container's
  ``resources: {}``, a Deployment's ``status: {}``, a Role's ``rules: null``); each
  unknown field dropped is the warning the server's ``fieldValidation=Warn`` sends
  (``unknown field "spec.template.spec.containers[0].bogus"``, to ``on_warning``; the
  store's callers never ask for ``Strict``);
- a built-in is then defaulted as the server's scheme defaults it
  (``validation.builtin_defaulting``, each kind's ``SetDefaults_*``: a Deployment's
  replicas, strategy and limits, a pod template's policies, a container's pull policy,
  a Service's type, affinity, ports and traffic policies, a Secret's type and its
  stringData merged into data, a Job's and a CronJob's, ...) on every write (create,
  update, the merged object of an apply), and given on a create what its registry
  strategy and the default admission plugins add: a Service's cluster IP, families and
  node ports (``ServiceAllocator``: the lowest free address of the test control plane's
  10.0.0.0/24, kept by updates, freed by deletes; a dry run's answer holds the range's
  network address and node ports from 32769 up, as the server's, and holds nothing),
  a Job's generated selector and
  labels, a Pod's Pending status with its QoS class, priority and default tolerations,
  a claim's protection finalizer, a namespace's ``kubernetes`` finalizer, a DaemonSet's
  template generation, a pod spec's fields of features off by default dropped
  (``_drop_disabled_pod_fields``: image volumes, a container's restart policy, ...); 63 cases, every kind in ``BUILTINS``, against kube-apiserver in
  tests/integration/test_localstore_defaulting_differential.py;
- a Service is refused as the server refuses it (``validation.services``): first what
  its allocation refuses (a requested cluster IP malformed, outside 10.0.0.0/24 or
  taken, dual-stack or IPv6 on this single-stack IPv4 cluster, a node port outside
  30000-32767 or taken: a 422 of that alone), then ``ValidateService``'s rules (ports,
  names, protocols, target ports, type, affinity, traffic policies, external IPs) in
  one 422 with its metadata's; 80 cases in
  tests/integration/test_localstore_service_differential.py; a workload's counts
  that must not be negative (``validation.workloads``: Deployment, ReplicaSet,
  StatefulSet, DaemonSet, Job), as an int32 that overflowed
  in an apply becomes; an apps/v1 workload's selector (required but for a DaemonSet's,
  well formed, not empty, immutable on update; a StatefulSet's spec but for a few
  fields too) and template (labels its selector matches, containers), a Job's selector
  (its own only with ``manualSelector``) and restart policy, in each kind's
  validation's order: 118 cases in tests/integration/test_localstore_workloads_differential.py;
  a pod template's spec as ``ValidatePodSpec`` checks its commonest rules
  (``validation.pods``; tests/integration/test_localstore_pod_template_differential.py);
  a Lease's spec (``validation.leases``);
  a ConfigMap's and a Secret's content (``validation.configmaps``, ``ValidateConfigMap``
  and ``ValidateSecret``: config keys, a key in both of a ConfigMap's maps, the 1 MiB
  total, a Secret's type-specific keys and dockercfg JSON; on an update, a Secret's type
  and an immutable object's data, between the metadata passes): 91 cases in
  tests/integration/test_localstore_configmap_secret_differential.py;
  a PersistentVolumeClaim's spec (``validation.claims``, ``ValidatePersistentVolumeClaim``
  on the spec with its data sources normalised as ``PrepareForCreate`` does; on an
  update ``ValidatePersistentVolumeClaimUpdate``'s rules: the spec immutable but for a
  first volumeName, a storageClassName given, a bound claim's request and attributes
  class, with the server's JSON diff; a shrunk request, the volume mode, the beta
  storage-class annotation; the spec's errors after each metadata pass; then the
  PersistentVolumeClaimResize admission plugin's 403 for a grown request, which no
  StorageClass here allows): 58 cases in
  tests/integration/test_localstore_claim_differential.py, 7 of them on claims bound
  through ``/status`` (the stored spec keeps the data sources as sent: the
  normalisation is not stored);
  a Role's, a ClusterRole's, a RoleBinding's and a ClusterRoleBinding's content
  (``validation.rbac``, ``ValidateRole``, ``ValidateClusterRole``,
  ``ValidateRoleBinding``, ``ValidateClusterRoleBinding``: each rule's verbs, groups and
  resources or non-resource URLs, an aggregation rule's selectors, a binding's roleRef
  and subjects; on an update the content after each metadata pass, a binding's roleRef
  unchanged): 89 cases in
  tests/integration/test_localstore_rbac_differential.py;
  a PodDisruptionBudget's spec (``validation.policy``, ``ValidatePodDisruptionBudget``:
  minAvailable and maxUnavailable exclusive, each an integer not negative or a
  percentage up to 100%, the selector, the eviction policy; on a create alone, before
  the name is checked as a path segment, on an update after the metadata): 34 cases in
  tests/integration/test_localstore_pdb_differential.py;
  a NetworkPolicy's spec (``validation.networking``, ``ValidateNetworkPolicySpec``: the
  pod selector, each rule's ports and peers, ipBlock CIDRs and their exceptions, the
  policy types; on an update again after the metadata update pass): 36 cases in
  tests/integration/test_localstore_networkpolicy_differential.py;
  an Ingress's spec (``validation.networking``, ``ValidateIngressSpec``: rules or a
  default backend, hosts, paths and their types, backends, TLS hosts and secret names,
  the class name; on a create the class annotation; on an update after the metadata
  update pass and the metadata pass): 42 cases in
  tests/integration/test_localstore_ingress_differential.py;
- other built-in kinds (``BUILTINS``: ServiceAccount, Event, ...) and the rest of a
  workload's spec are stored without schema validation beyond those checks
  (strategies, the pod spec's rarer rules), their metadata validated as
  ``ValidateObjectMeta`` validates it (each kind's name rule, labels, annotations,
  ownerReferences, finalizers: 422 Invalid with the server's message) and kept as
  ``ObjectMeta`` decodes it (no empty ``labels: {}``), with the metadata the server sets (uid,
  resourceVersion, creationTimestamp, the request's namespace, generation for the kinds
  whose strategy keeps one), their ``status`` kept apart as their ``/status`` endpoint
  keeps it (``registry/*/strategy.go``: create and main updates keep the old status);
- a PUT of a missing object is the lookup's 404 before validation sees the body, but
  for the kinds whose strategy allows a create on update (``_CREATE_ON_UPDATE``: a
  Service, Lease, Role, ...), whose PUT creates it;
- an update's metadata checked as often as each kind's server checks it
  (``objectmeta.BUILTIN_UPDATE_STRATEGIES``), a PUT's uid as its precondition (a
  patch's changed uid is "field is immutable");
- deletes with a uid or resourceVersion precondition (409 as the server words it),
  finalizers holding an object with a deletionTimestamp, and the garbage collector's
  background cascade (``pkg/controller/garbagecollector``): once an object is removed,
  every object whose ownerReferences all name removed owners is deleted, transitively;
- server-side apply under field managers, a pragmatic subset of
  ``structured-merge-diff`` (see ``apply``);
- ``managedFields`` as the server's field manager keeps them
  (``apiserver/pkg/endpoints/handlers/fieldmanager`` on structured-merge-diff): an
  ``Update`` entry per manager, apiVersion and subresource for create, PUT and patch
  (a request's ``field_manager``, else the server's default for our User-Agent,
  ``kubectl-crd``), owning what its writes added or changed; an ``Apply`` entry per
  applier, owning the applied object's field set; each write taking what it changes
  from the others; ``fieldsV1`` as the server spells it, entries in its order
  (``_fields_after``; a dry run's answer shows them too), at most ten ``Update``
  entries, the oldest merged into ``ancient-changes`` (``_capped``); none for an
  object created with nothing to own, whose updates then go untracked until its first
  apply seeds ``before-first-apply`` (``_seed_first_apply``); 66 writes, dry runs and a
  delete among them, on ConfigMaps, a Deployment, a Service, a Pod and a custom resource
  in tests/integration/test_localstore_managedfields_differential.py;
- label-selected lists and list-then-watch (``kube.reflector``'s ADDED, MODIFIED,
  DELETED, SYNCED), a selected watch seeing an object that stops matching as DELETED
  and one that starts matching as ADDED (the watch cache's filter,
  ``apiserver/pkg/storage/cacher``);
- Kubernetes Events recorded in memory (``events``).

What it does not simulate (the README's list): controllers (a Deployment gets no
ReplicaSet or pods, a Service no endpoints, unless DIR says so), validation of built-in
kinds beyond their metadata, their decoding and the typed check (a Service's, a
workload's, a Lease's, a ConfigMap's, a Secret's, a PersistentVolumeClaim's, rbac's,
a PodDisruptionBudget's, a NetworkPolicy's and an Ingress's aside;
of a Service update's own rules only the primary cluster IP's is checked; a tls
Secret's warning when its certificate and key do not parse is not sent), admission
plugins beyond the defaults above and a claim's resize
(ServiceAccount's token volume, LimitRanger, ResourceQuota),
an apply to ``/status``,
the garbage collector's
foreground deletion and orphaning (``propagationPolicy`` is background), admission
webhooks, RBAC, namespaces' lifecycle (a namespace need not exist), ``generateName`` for
built-ins, dry-run's untouched resourceVersion counter (a dry run may use up a number),
and watch history (a watch starts from now: no 410). Of a built-in's decoding
(``validation.decoding``): an applied int32 beyond its range, which the server's
conversion wraps and its validation then refuses, is refused alike only where the
store validates what it became (a Service's ports, a workload's counts:
``validation.workloads``); other kinds store the wrapped value;
a merge patch whose result does not decode is the patch handler's 422, its value the
patched object's JSON as the server writes it (json-patch's re-marshalled maps sorted,
the structs the patch did not reach in their fields' order, the store's own
managedFields).
"""

from __future__ import annotations

import functools
import json
import marshal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from kubectl_crd.kube.reflector import EventType, ReflectorEvent
from kubectl_crd.model.errors import ResourceNotFoundError, StoreRefusal, VersionNotFoundError
from kubectl_crd.model.govalues import go_equal
from kubectl_crd.model.labels import LabelSelector, parse_selector
from kubectl_crd.model.schema import copy_json as _copy
from kubectl_crd.model.schema import is_mapping, plain
from kubectl_crd.reconcile.backends import ResourceInfo, kubernetes_event, parse_resource_spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from kubectl_crd.model.crd import CustomResourceDefinition
    from kubectl_crd.validation.admission import Admission, AdmissionResult
    from kubectl_crd.validation.typed import Atom

__all__ = ["BUILTINS", "ObjectStore", "StoreRefusal", "apply_merge_patch"]

#: how often a watch looks at its ``stop`` event
_POLL_SECONDS = 0.05

# (group, version, plural, kind, namespaced, has /status, keeps metadata.generation)
BUILTINS: tuple[tuple[str, str, str, str, bool, bool, bool], ...] = (
    ("", "v1", "configmaps", "ConfigMap", True, False, False),
    ("", "v1", "secrets", "Secret", True, False, False),
    ("", "v1", "services", "Service", True, True, False),
    ("", "v1", "serviceaccounts", "ServiceAccount", True, False, False),
    # a Pod's generation: PodObservedGenerationTracking (beta, on in 1.34)
    ("", "v1", "pods", "Pod", True, True, True),
    ("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", True, True, False),
    ("", "v1", "namespaces", "Namespace", False, True, False),
    ("", "v1", "events", "Event", True, False, False),
    ("apps", "v1", "deployments", "Deployment", True, True, True),
    ("apps", "v1", "statefulsets", "StatefulSet", True, True, True),
    ("apps", "v1", "daemonsets", "DaemonSet", True, True, True),
    ("apps", "v1", "replicasets", "ReplicaSet", True, True, True),
    ("batch", "v1", "jobs", "Job", True, True, True),
    ("batch", "v1", "cronjobs", "CronJob", True, True, True),
    ("networking.k8s.io", "v1", "ingresses", "Ingress", True, True, True),
    ("networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", True, False, True),
    ("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", True, True, True),
    ("rbac.authorization.k8s.io", "v1", "roles", "Role", True, False, False),
    ("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", True, False, False),
    ("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", False, False, False),
    (
        "rbac.authorization.k8s.io",
        "v1",
        "clusterrolebindings",
        "ClusterRoleBinding",
        False,
        False,
        False,
    ),
    ("coordination.k8s.io", "v1", "leases", "Lease", True, False, False),
)

#: (group, kind) of the built-ins whose PUT of a missing object creates it: their
#: strategies' ``AllowCreateOnUpdate`` (pkg/registry/core/service/strategy.go,
#: core/event, coordination/lease, rbac/role, rolebinding, clusterrole,
#: clusterrolebinding); every other
#: kind's is the lookup's 404, before validation looks at the body
_CREATE_ON_UPDATE = frozenset(
    {
        ("", "Service"),
        ("", "Event"),
        ("coordination.k8s.io", "Lease"),
        ("rbac.authorization.k8s.io", "Role"),
        ("rbac.authorization.k8s.io", "RoleBinding"),
        ("rbac.authorization.k8s.io", "ClusterRole"),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    }
)

_OPTIMISTIC_LOCK = (
    "the object has been modified; please apply your changes to the latest version and try again"
)

ObjectKey = tuple[str, str]
#: an object's managedFields entries, in the server's order (``ObjectStore.list`` hides
#: the builtin in the class)
_Entries = list["_FieldsEntry"]


@dataclass
class _Kind:
    """One resource: its versions as ResourceInfo, the admission step of a CRD."""

    group: str
    plural: str
    kind: str
    namespaced: bool
    infos: dict[str, ResourceInfo]
    admission: Admission | None = None
    crd: CustomResourceDefinition | None = None
    has_status: bool = False
    keeps_generation: bool = True
    objects: dict[ObjectKey, dict[str, Any]] = field(default_factory=dict)

    @property
    def resource(self) -> str:
        return f"{self.plural}.{self.group}" if self.group else self.plural


@dataclass
class _Watch:
    kind: _Kind
    version: str
    namespace: str | None
    selector: LabelSelector
    events: deque[ReflectorEvent] = field(default_factory=deque)
    ready: threading.Condition = field(default_factory=threading.Condition)
    #: the reader came back for the next event and found none: every event it was
    #: sent has been handled (``ObjectStore.watches_quiet``)
    waiting: bool = False

    def put(self, event: ReflectorEvent) -> None:
        with self.ready:
            self.events.append(event)
            self.ready.notify()

    def next(self, stop: threading.Event) -> ReflectorEvent | None:
        """The next event; None once ``stop`` is set."""
        with self.ready:
            while not self.events:
                if stop.is_set():
                    return None
                self.waiting = True
                self.ready.wait(_POLL_SECONDS)
            self.waiting = False
            return self.events.popleft()

    def quiet(self) -> bool:
        with self.ready:
            return self.waiting and not self.events

    def sees(self, obj: Mapping[str, Any] | None) -> bool:
        if obj is None:
            return False
        meta = obj.get("metadata") or {}
        if self.namespace and meta.get("namespace") != self.namespace:
            return False
        return self.selector.matches(meta.get("labels"))


class ObjectStore:
    """The store (see the module docstring). ``clock`` (POSIX seconds) and ``uids``
    make timestamps and uids deterministic in tests; ``on_warning`` is told the text
    of each warning the server would send with its answer (a built-in body's unknown
    field: ``unknown field "spec.foo"``)."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.time,
        uids: Callable[[], str] | None = None,
        on_warning: Callable[[str], None] | None = None,
    ) -> None:
        from kubectl_crd.validation.admission import _uuid4

        self._lock = threading.RLock()
        self._revision = 0
        self._clock = clock
        self._uids = uids or _uuid4
        #: told each warning the server would send (``_decoded``), as
        #: ``KubeClient(on_warning=)`` is told a Warning header's text
        self._on_warning = on_warning
        #: the warning texts told so far (``_warn``)
        self._warned: set[str] = set()
        self._kinds: dict[tuple[str, str], _Kind] = {}
        self._by_kind: dict[tuple[str, str], _Kind] = {}
        self._watches: list[_Watch] = []
        #: watch events sent so far (``watches_quiet``)
        self._sent = 0
        #: uid -> (kind, key) of every stored object
        self._by_uid: dict[str, tuple[_Kind, ObjectKey]] = {}
        #: owner uid -> (group, plural, key) of the objects that named it as an owner
        self._dependents: dict[str, set[tuple[str, str, ObjectKey]]] = {}
        #: uids removed whose dependents the garbage collector has still to look at
        self._gone: list[str] = []
        #: uid -> manager -> the object it last applied
        self._applied: dict[str, dict[str, dict[str, Any]]] = {}
        #: uid -> its managedFields entries (``_track_fields``)
        self._fields: dict[str, list[_FieldsEntry]] = {}
        #: uid -> its managedFields entries marshalled (``_with_managed``), dropped when
        #: they change
        self._managed: dict[str, bytes] = {}
        #: (apiVersion, kind) -> the empty object a create is compared with (``_zero``)
        self._zeros: dict[tuple[str, str], dict[str, Any]] = {}
        #: the field manager and subresource of the write in progress (under the lock)
        self._writer: tuple[str, str] | None = None
        #: the manager and object of the apply in progress (under the lock)
        self._applying: tuple[str, dict[str, Any], KeysAt] | None = None
        #: the managedFields an update's body gives (``_given_fields``), which the write's
        #: field manager starts from instead of the object's (under the lock)
        self._given: _Entries | None = None
        #: Kubernetes Events recorded (core v1 Event objects, in order)
        self.events: list[dict[str, Any]] = []
        from kubectl_crd.validation.builtin_defaulting import ServiceAllocator

        #: the Services' cluster IPs and node ports
        self._services = ServiceAllocator()
        #: (group, plural, version) -> (the CRD it was made from, the kind's typed schema
        #: (``validation.typed``), its list-map keys by path)
        self._types: dict[tuple[str, str, str], tuple[Any, Atom, KeysAt]] = {}
        for group, version, plural, kind, namespaced, status, generation in BUILTINS:
            info = ResourceInfo(
                group, version, plural, kind, namespaced, has_status=status,
                has_scale=kind in ("Deployment", "StatefulSet", "ReplicaSet"),
            )  # fmt: skip
            self._add_kind(
                _Kind(
                    group,
                    plural,
                    kind,
                    namespaced,
                    {version: info},
                    has_status=status,
                    keeps_generation=generation,
                )
            )

    # -- kinds -------------------------------------------------------------------------

    def _add_kind(self, kind: _Kind) -> None:
        self._kinds[(kind.group, kind.plural)] = kind
        self._by_kind[(kind.group, kind.kind)] = kind

    def _next_version(self) -> str:
        with self._lock:
            self._revision += 1
            return str(self._revision)

    def add_crd(self, crd: CustomResourceDefinition) -> None:
        """Serve ``crd``'s resource (a CRD of the same name replaces the old one's
        schema; stored objects stay, as the server keeps them)."""
        from kubectl_crd.validation.admission import Admission

        admission = Admission(
            crd, resource_versions=self._next_version, clock=self._clock, uids=self._uids
        )
        infos = {
            v.name: ResourceInfo(
                crd.group,
                v.name,
                crd.names.plural,
                crd.names.kind,
                crd.namespaced,
                has_status=v.subresources.status,
                has_scale=v.subresources.scale is not None,
            )
            for v in crd.served_versions
        }
        with self._lock:
            old = self._kinds.get((crd.group, crd.names.plural))
            kind = _Kind(
                crd.group, crd.names.plural, crd.names.kind, crd.namespaced, infos,
                admission=admission, crd=crd,
            )  # fmt: skip
            if old is not None:
                kind.objects = old.objects
                for uid, (holder, key) in list(self._by_uid.items()):
                    if holder is old:
                        self._by_uid[uid] = (kind, key)
            self._add_kind(kind)

    def resolve(self, spec: str) -> ResourceInfo:
        """``Backend.resolve``: ``plural.group/version``, ``group/version/Kind``, ..."""
        try:
            group, version, name, is_kind = parse_resource_spec(spec)
        except ValueError as exc:
            raise ResourceNotFoundError(str(exc), query=spec) from None
        with self._lock:
            kind = (self._by_kind if is_kind else self._kinds).get((group, name))
        if kind is None:
            if is_kind:
                api_version = f"{group}/{version}" if group else version
                message = f'no matches for kind "{name}" in version "{api_version}"'
            else:
                message = f'the server doesn\'t have a resource type "{name}.{group}"'
            raise ResourceNotFoundError(message, query=spec)
        info = kind.infos.get(version)
        if info is None:  # its CRD is there: not the "is its CRD installed?" of the CLI
            raise VersionNotFoundError(
                f'{kind.resource} has no version "{version}" (served: {", ".join(kind.infos)})'
            )
        return info

    def resolve_kind(self, api_version: str, kind: str) -> ResourceInfo:
        return self.resolve(f"{api_version}/{kind}")

    def _kind(self, info: ResourceInfo) -> _Kind:
        kind = self._kinds.get((info.group, info.plural))
        if kind is None:
            raise ResourceNotFoundError(f"the server could not find {info}", query=str(info))
        return kind

    # -- reads -------------------------------------------------------------------------

    def get(self, info: ResourceInfo, namespace: str, name: str) -> dict[str, Any]:
        with self._lock:
            kind = self._kind(info)
            stored = kind.objects.get((namespace if kind.namespaced else "", name))
            if stored is None:
                raise self._not_found(kind, name)
            return self._shown(kind, stored, info.version)

    def list(
        self,
        info: ResourceInfo,
        namespace: str | None = None,
        label_selector: str | Mapping[str, str] | None = None,
    ) -> list[dict[str, Any]]:
        """The objects (in ``namespace``, matching the selector) in the server's list
        order (etcd key order: namespace/name)."""
        selector = parse_selector(label_selector)
        with self._lock:
            kind = self._kind(info)
            watch = _Watch(kind, info.version, namespace, selector)
            return [
                self._shown(kind, kind.objects[key], info.version)
                for key in sorted(kind.objects, key=_etcd_order)
                if watch.sees(kind.objects[key])
            ]

    def list_then_watch(
        self,
        info: ResourceInfo,
        *,
        stop: threading.Event,
        namespace: str | None = None,
        label_selector: str | None = None,
        on_error: Callable[[Any], None] | None = None,
    ) -> Iterator[ReflectorEvent]:
        """ADDED for each object listed, SYNCED, then each change until ``stop``."""
        selector = parse_selector(label_selector)
        with self._lock:
            kind = self._kind(info)
            watch = _Watch(kind, info.version, namespace or None, selector)
            listed = [
                self._shown(kind, kind.objects[key], info.version)
                for key in sorted(kind.objects, key=_etcd_order)
                if watch.sees(kind.objects[key])
            ]
            self._watches.append(watch)
        try:
            for obj in listed:
                yield ReflectorEvent(EventType.ADDED, obj)
            yield ReflectorEvent(EventType.SYNCED)
            while (event := watch.next(stop)) is not None:
                yield event
        finally:
            with self._lock:
                if watch in self._watches:
                    self._watches.remove(watch)

    def watches_quiet(self) -> int | None:
        """How many watch events were sent so far when every watch's reader has handled
        all it was sent (it came back for the next and found none), else None."""
        with self._lock:
            return self._sent if all(watch.quiet() for watch in self._watches) else None

    def applied(self, uid: str, manager: str) -> dict[str, Any] | None:
        """What ``manager`` last applied to the object ``uid`` (a copy)."""
        with self._lock:
            found = self._applied.get(uid, {}).get(manager)
            return _copy(found) if found is not None else None

    # -- writes ------------------------------------------------------------------------

    def create(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        namespace: str | None = None,
        dry_run: bool = False,
        field_manager: str = "",
    ) -> dict[str, Any]:
        """POST: the object as stored, read in ``info``'s version."""
        with self._lock, self._written_by(field_manager):
            kind = self._kind(info)
            name = _name(obj)
            ns = (namespace or _namespace(obj) or "default") if kind.namespaced else ""
            existing = kind.objects.get((ns, name)) if name else None
            if kind.admission is not None:
                if existing is not None:
                    raise _refused(kind.admission.already_exists(name, existing))
                result = kind.admission.create(obj, namespace=ns or None, version=info.version)
                return self._commit(kind, info, result, dry_run=dry_run)
            # the body is decoded and defaulted before the registry looks at it
            created = self._decoded(kind, info, obj, create=True)
            if existing is not None:
                message = f'{kind.resource} "{name}" already exists'
                raise _status_refusal(409, "AlreadyExists", message, kind, name)
            if not name:
                message = "resource name may not be empty"
                raise _status_refusal(422, "Invalid", message, kind, name)
            meta = created.setdefault("metadata", {})
            for dropped in (
                "resourceVersion", "deletionTimestamp", "deletionGracePeriodSeconds",
                "managedFields",
            ):  # fmt: skip
                meta.pop(dropped, None)
            meta["uid"] = self._uids()
            meta["creationTimestamp"] = _timestamp(self._clock())
            if ns:
                meta["namespace"] = ns
            else:
                meta.pop("namespace", None)
            if kind.keeps_generation:
                meta["generation"] = 1
            # the field manager sees the decoded, defaulted body, before admission
            # plugins and the registry add theirs (handlers/create.go: a Service's
            # cluster IP, a Job's selector, a Pod's tolerations are no manager's); an
            # apply's create, the field manager's only entry, owns the applied object's
            # fields and never looks at it (``_fields_after``), unless managedFields
            # are given (``_reapplied`` reads its values)
            sole_applier = self._applying is not None and self._given is None
            compared = None if sole_applier else _copy(created)
            self._prepare_for_create(kind, created, obj)
            # a Service's allocation (the registry's BeginCreate) refuses before the
            # strategy's validation runs (genericregistry.Store.Create)
            held = self._services.held()
            self._allocate(kind, created, None, dry_run=dry_run)
            try:
                # ValidateObjectMeta sees the body's generation (a ConfigMap's -1 is
                # refused) of a kind whose strategy sets none; it is dropped after
                _check_builtin(kind, created, given=obj)
            except StoreRefusal:
                self._services.restore(held)
                raise
            self._warn_of_write(kind, created, None)
            if not kind.keeps_generation:
                meta.pop("generation", None)
            return self._store_builtin(
                kind, info, None, created, dry_run=dry_run, compared=compared
            )

    def update(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        dry_run: bool = False,
        field_manager: str = "",
    ) -> dict[str, Any]:
        """PUT of the main resource (its status kept when the kind has ``/status``)."""
        with self._lock, self._written_by(field_manager):
            return self._update(info, obj, status=False, dry_run=dry_run)

    def update_status(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        dry_run: bool = False,
        field_manager: str = "",
    ) -> dict[str, Any]:
        """PUT of ``/status``: only ``.status`` is taken."""
        with self._lock, self._written_by(field_manager, "status"):
            return self._update(info, obj, status=True, dry_run=dry_run)

    def _update(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        status: bool,
        dry_run: bool,
        quoted: Callable[[], str] | None = None,
        url: tuple[str, str] | None = None,
        uid_precondition: bool | None = None,
    ) -> dict[str, Any]:
        """``quoted``: ``obj`` is a merge patch's result, and this its JSON as the
        patch handler's 422 quotes it (``_decoded``); ``url``: the patch's namespace and
        name, which ``obj`` must match (``_patched_identity``: refused after a
        built-in's decoding, as the patch handler decodes first); ``uid_precondition``:
        whether ``obj``'s uid is the write's precondition (by default a PUT's, not a
        patch's)."""
        if uid_precondition is None:
            uid_precondition = quoted is None
        # fieldmanager.go FieldManager.Update: the body's own managedFields, when they
        # decode, are what the write starts from (a client moving a manager's fields, as
        # kubectl's csaupgrade patch does; none given, [] or [{}], empties them); a
        # subresource's write always starts from the object's
        given = None if status else _given_fields(obj)
        with self._lock, self._starting_from(given):
            kind = self._kind(info)
            misnamed = None
            if url is not None:
                obj, misnamed = _patched_identity(kind, obj, *url)
                if misnamed is not None and kind.admission is not None:
                    raise misnamed
            name = _name(obj)
            ns = (_namespace(obj) or "default") if kind.namespaced else ""
            old = kind.objects.get((ns, name))
            if kind.admission is not None:
                if old is None:
                    raise _refused(kind.admission.not_found(name, "status" if status else "update"))
                admission = kind.admission
                write = admission.update_status if status else admission.update
                result = write(
                    obj,
                    old,
                    version=info.version,
                    patched=quoted is not None,
                    uid_precondition=uid_precondition,
                )
                return self._commit(kind, info, result, dry_run=dry_run)
            if status and not kind.has_status:
                raise self._not_found(kind, name)  # no such endpoint: nothing decoded
            new = self._decoded(kind, info, obj, quoted=quoted)
            if misnamed is not None:
                raise misnamed
            if old is None:
                if status or (kind.group, kind.kind) not in _CREATE_ON_UPDATE:
                    raise self._not_found(kind, name)
                # a PUT of a missing object of these kinds is its create (store.go
                # Update: the lookup's NotFound only unless AllowCreateOnUpdate)
                return self.create(info, obj, namespace=ns or None, dry_run=dry_run)
            body_meta = obj.get("metadata") or {}
            body_uid = body_meta.get("uid")
            if uid_precondition and body_uid and body_uid != old["metadata"].get("uid"):
                # store.go Update: a PUT's uid is its precondition, checked before the
                # optimistic lock (a patch has none: its changed uid is the validation's)
                from kubectl_crd.validation.admission import uid_precondition_failed

                detail = uid_precondition_failed(
                    _etcd_key(kind, ns, name), body_uid, old["metadata"].get("uid")
                )
                message = f'Operation cannot be fulfilled on {kind.resource} "{name}": {detail}'
                raise _status_refusal(409, "Conflict", message, kind, name)
            version = body_meta.get("resourceVersion")
            if version and version != old["metadata"].get("resourceVersion"):
                raise _status_refusal(409, "Conflict", _conflict(kind, name), kind, name)
            meta = new.setdefault("metadata", {})
            meta.pop("managedFields", None)
            compared: dict[str, Any] | None = None
            if status:
                # status_strategy.go of each kind: the old object, the new status
                status_value = new.get("status")
                new = _copy(old)
                new.pop("status", None)
                if status_value is not None:
                    new["status"] = status_value
            else:
                # rest/update.go BeforeUpdate: the server's fields stay the old ones
                old_meta = old["metadata"]
                if not meta.get("uid"):  # else a patch's uid, which validation refuses
                    meta["uid"] = old_meta.get("uid")
                for kept in ("creationTimestamp", "namespace", "generation"):
                    if kept in old_meta:
                        meta[kept] = old_meta[kept]
                    else:
                        meta.pop(kept, None)
                for kept in ("deletionTimestamp", "deletionGracePeriodSeconds"):
                    if kept in old_meta:
                        meta[kept] = old_meta[kept]
                if kind.has_status:
                    new.pop("status", None)
                    if "status" in old:
                        new["status"] = old["status"]
                # PrepareForUpdate drops the pod fields of disabled features (and a
                # Lease its gated fields) after the field manager looked
                if _has_disabled_pod_fields(kind, new):
                    compared = _copy(new)
                    _drop_disabled_pod_fields(kind, new)
                if kind.group == "coordination.k8s.io" and kind.kind == "Lease":
                    from kubectl_crd.validation.builtin_defaulting import prepare_lease

                    if prepare_lease(new, old, dry=True):
                        compared = compared if compared is not None else _copy(new)
                        prepare_lease(new, old)
                if not kind.group and kind.kind == "PersistentVolumeClaim":
                    from kubectl_crd.validation.claims import normalize_data_sources

                    before = _copy(new) if compared is None else compared
                    spec = new.get("spec")
                    if isinstance(spec, dict) and normalize_data_sources(spec, old.get("spec")):
                        compared = before
                # BeginUpdate (a Service's allocation), then ValidateObjectMetaUpdate's
                # ValidateObjectMeta of the new object and the kind's own validation
                held = self._services.held()
                self._allocate(kind, new, old, dry_run=dry_run)
                try:
                    _check_builtin(kind, new, old, given=obj)
                except StoreRefusal:
                    self._services.restore(held)
                    raise
                if kind.group == "apps" and kind.kind == "DaemonSet":
                    from kubectl_crd.validation.builtin_defaulting import prepare_daemon_set

                    prepare_daemon_set(new, old)
                if kind.keeps_generation and _non_metadata(new) != _non_metadata(old):
                    meta["generation"] = int(old_meta.get("generation") or 0) + 1
                # WarningsOnUpdate looks at the generation the update moved
                self._warn_of_write(kind, new, old)
            new["metadata"]["resourceVersion"] = old["metadata"].get("resourceVersion")
            if old["metadata"].get("deletionTimestamp") and not new["metadata"].get("finalizers"):
                # store.go ShouldDeleteDuringUpdate: the last finalizer gone, it is deleted
                return self._remove(kind, info, old, dry_run=dry_run)
            return self._store_builtin(kind, info, old, new, dry_run=dry_run, compared=compared)

    def patch(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        patch: Mapping[str, Any],
        *,
        subresource: str = "",
        dry_run: bool = False,
        field_manager: str = "",
    ) -> dict[str, Any]:
        """A JSON merge patch (RFC 7386) of the object or its ``status``; a
        ``metadata.resourceVersion`` in the patch makes it conditional (409), null
        unconditional (for a built-in; a custom resource's strategy allows no
        unconditional update: 422).

        The patch handler (``apiserver/pkg/endpoints/handlers/patch.go``) decodes the
        patched object, then holds it to the URL's namespace and name (``applyPatch``:
        ``rest.EnsureObjectNamespaceMatchesRequestNamespace``, then ``checkName`` of
        ``handlers/rest.go``, each a 400): a patch that renames, moves or drops the name
        is refused, one dropping the namespace is given the URL's. A built-in's result
        with no apiVersion is decoded as the internal type (``_as_internal``); a custom
        resource's with no kind is the unstructured decoder's error, a 422."""
        with self._lock, self._written_by(field_manager, subresource):
            kind = self._kind(info)
            stored = kind.objects.get((namespace if kind.namespaced else "", name))
            if stored is None:
                raise self._not_found(kind, name)
            current = self._shown(kind, stored, info.version, managed=False)
            current.get("metadata", {}).pop("managedFields", None)
            patched = apply_merge_patch(current, patch)

            def quoted() -> str:
                # the patched JSON as the server writes it: the current object encoded
                # with its managedFields (a built-in's structs in their fields' order, a
                # custom resource's maps sorted), then the patch applied
                # (apply_merge_patch's ``as_sent``)
                from kubectl_crd.model.govalues import go_json

                shown = self._shown(kind, stored, info.version)
                encoded = _go_ordered(kind, info, shown) if kind.admission is None else shown
                return go_json(apply_merge_patch(encoded, patch, as_sent=_in_order))

            if kind.admission is not None:
                if patched.get("kind") in (None, ""):
                    # unstructured.go unstructuredJSONScheme.Decode: NewMissingKindErr of
                    # the patched JSON (its apiVersion is looked at later: the 500)
                    text = quoted()
                    raise _undecodable_patch(text, f"Object 'Kind' is missing in '{text}'")
            elif patched.get("apiVersion") in (None, "", "/"):
                patched = self._as_internal(kind, info, patched, quoted)
            # the patched object's resourceVersion (the current one unless the patch
            # set or removed it) is the update's optimistic lock, checked after the
            # decoding and the URL's checks, as store.go's Update checks it
            return self._update(
                info,
                patched,
                status=subresource == "status",
                dry_run=dry_run,
                quoted=quoted,
                url=(namespace, name),
            )

    def apply(
        self,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        field_manager: str,
        force: bool = True,
        dry_run: bool = False,
    ) -> dict[str, Any]:
        """Server-side apply of ``obj`` by ``field_manager`` (unless ``force``, a field
        another manager owns that the apply changes is the server's 409:
        ``_check_conflicts``): a pragmatic subset of
        ``structured-merge-diff`` (``sigs.k8s.io/structured-merge-diff/v4/merge``).

        The fields ``field_manager`` applied before and leaves out now are removed; the
        applied fields then replace the object's, mappings merged key by key, lists
        merged item by item where the schema makes them list maps (a CRD's
        ``x-kubernetes-list-type: map`` with its ``x-kubernetes-list-map-keys``; for
        built-ins the keys of the server's OpenAPI: containers and env by name, a
        container's ports by containerPort and protocol, a Service's by port and
        protocol, ...; ``metadata.ownerReferences`` by uid), ``set`` lists as unions,
        other lists replaced whole, and so are atomic maps and structs
        (``x-kubernetes-map-type: atomic``: a LabelSelector, a PodSpec's nodeSelector, an
        OwnerReference, a CRD field so marked), as the server replaces them. First the typed check (``_check_typed``): an object
        the server could not convert is refused as the server refuses it. Simplified: each
        applier's fields to remove are what it last applied, less what a later apply of
        another set to another value (a forced conflict, an atomic map or struct as one
        field), and less what another manager's managedFields entry owns (a field two
        managers set stays until neither does). ``managedFields``: ``_track_fields``."""
        with self._lock:
            kind = self._kind(info)
            name = _name(obj)
            ns = (_namespace(obj) or "default") if kind.namespaced else ""
            applied = _plain_object(obj)
            if kind.admission is None:
                _check_applied_type(kind, info, applied)
            atom, keys_at = self._typed(kind, info.version)
            _check_typed(atom, applied)
            meta = applied.setdefault("metadata", {})
            # what the server sets itself (an applied generation of 1.5 is no error); an
            # applied uid is not a field anyone manages (fieldmanager's stripMeta), but
            # the object must have it (``_apply``)
            applied_uid = meta.pop("uid", None)
            for dropped in ("resourceVersion", "managedFields", "creationTimestamp", "generation"):
                meta.pop(dropped, None)
            if kind.namespaced:
                meta["namespace"] = ns
            old = kind.objects.get((ns, name))
            # recorded when the write is stored, before the watches hear of it: an
            # informer's copy then carries this manager's managedFields
            self._applying = (field_manager, applied, keys_at)
            try:
                with self._written_by(field_manager):
                    return self._apply(
                        kind, info, old, applied, field_manager, keys_at, dry_run, force,
                        applied_uid,
                    )  # fmt: skip
            finally:
                self._applying = None

    def _apply(
        self,
        kind: _Kind,
        info: ResourceInfo,
        old: dict[str, Any] | None,
        applied: dict[str, Any],
        field_manager: str,
        keys_at: KeysAt,
        dry_run: bool,
        force: bool,
        applied_uid: Any = None,
    ) -> dict[str, Any]:
        ns = _namespace(applied)
        if old is None:
            if applied_uid:
                # handlers/patch.go applyPatcher: an apply that would create names no uid
                name = _name(applied)
                message = (
                    f'Operation cannot be fulfilled on {kind.resource} "{name}": uid '
                    f"mismatch: the provided object specified uid {applied_uid}, and no "
                    "existing object was found"
                )
                raise _status_refusal(409, "Conflict", message, kind, name)
            written = self.create(info, applied, namespace=ns or None, dry_run=dry_run)
        else:
            current = self._shown(kind, old, info.version, managed=False)
            uid = current["metadata"].get("uid", "")
            seeded = self._seed_first_apply(kind, info, uid, current)
            kept = False
            try:
                if not force:
                    _check_conflicts(
                        self._fields.get(uid, ()), field_manager, current, applied, keys_at
                    )
                previous = self._applied.get(uid, {}).get(field_manager)
                if previous is not None:
                    owned = frozenset(
                        path[:end]
                        for entry in self._fields.get(uid, ())
                        if not entry.is_for(field_manager, "Apply", "", "")
                        for path in entry.paths
                        for end in range(1, len(path) + 1)
                    )
                    _remove_unapplied(current, previous, applied, keys_at, (), (), owned)
                merged = _merge(current, applied, keys_at, ())
                merged["metadata"]["resourceVersion"] = current["metadata"].get("resourceVersion")
                if applied_uid:
                    # an apply is a patch: a uid of its own is the validation's "field is
                    # immutable", not a precondition
                    merged["metadata"]["uid"] = applied_uid
                written = self._update(
                    info, merged, status=False, dry_run=dry_run, uid_precondition=False
                )
                kept = not dry_run
            finally:
                # a dry run, or a refused apply, stores nothing: not the seed either
                if seeded is not None and not kept and self._fields.get(uid) is seeded:
                    del self._fields[uid]
                    self._managed.pop(uid, None)
        if not dry_run:
            uid = written["metadata"].get("uid", "")
            if uid in self._by_uid:
                managers = self._applied.setdefault(uid, {})
                # the same fields applied again (a level-triggered reconcile's usual
                # apply) keep the recorded object. A write that was stored recorded
                # ``applied`` itself (``_record_apply``): nothing to compare (a create
                # walked its whole object against itself: ~11 us of a Deployment's
                # ~130 us create)
                recorded = managers.get(field_manager)
                if recorded is not applied and not go_equal(recorded, applied):
                    managers[field_manager] = applied
        return written

    def _seed_first_apply(
        self, kind: _Kind, info: ResourceInfo, uid: str, live: Mapping[str, Any]
    ) -> _Entries | None:
        """The first apply to an object with no managedFields first gives every field it
        has to an ``Update`` by ``before-first-apply`` (skipnonapplied.go:
        ``skipNonAppliedManager.Apply``, the kind's empty object updated to the live
        one), which the apply then takes fields from, or conflicts with, as from any
        manager. The entries recorded, None when the object had some."""
        if not uid or self._fields.get(uid):
            return None
        applying, writer = self._applying, self._writer
        self._applying, self._writer = None, (_BEFORE_FIRST_APPLY, "")
        try:
            seeded = self._fields_after(kind, info, self._zero(kind, info), live, seeding=True)
        finally:
            self._applying, self._writer = applying, writer
        if seeded:
            self._fields[uid] = seeded
            self._managed.pop(uid, None)
        return seeded

    def delete(
        self,
        info: ResourceInfo,
        namespace: str,
        name: str,
        *,
        uid: str | None = None,
        resource_version: str | None = None,
        dry_run: bool = False,
    ) -> None:
        """DELETE in the background: the object goes (or waits for its finalizers), then
        the garbage collector deletes what it owned."""
        with self._lock, self._written_by(None):
            kind = self._kind(info)
            old = kind.objects.get((namespace if kind.namespaced else "", name))
            if old is None:
                raise self._not_found(kind, name)
            if kind.admission is not None:
                result = kind.admission.delete(old, uid=uid, resource_version=resource_version)
                self._commit(kind, info, result, dry_run=dry_run)
            else:
                meta = old["metadata"]
                for given, have, what in (
                    (uid, meta.get("uid"), "UID"),
                    (resource_version, meta.get("resourceVersion"), "ResourceVersion"),
                ):
                    if given is not None and given != have:
                        detail = (
                            f"the {what} in the precondition ({given}) does not match the "
                            f"{what} in record ({have or ''}). The object might have been "
                            + ("deleted and then recreated" if what == "UID" else "modified")
                        )
                        group = f".{kind.group}" if kind.group else ""
                        message = f'Operation cannot be fulfilled on {kind.kind}{group} "{name}": '
                        raise _status_refusal(409, "Conflict", message + detail, kind, name)
                if meta.get("finalizers"):
                    if not meta.get("deletionTimestamp"):
                        marked = _copy(old)
                        marked["metadata"]["deletionTimestamp"] = _timestamp(self._clock())
                        marked["metadata"]["deletionGracePeriodSeconds"] = 0
                        if kind.keeps_generation and meta.get("generation"):
                            marked["metadata"]["generation"] = int(meta["generation"]) + 1
                        self._store_builtin(kind, info, old, marked, dry_run=dry_run)
                else:
                    self._remove(kind, info, old, dry_run=dry_run)
            if not dry_run:
                self._collect_garbage()

    def record_event(
        self,
        involved: Mapping[str, Any],
        reason: str,
        message: str,
        *,
        type: str = "Normal",
        dry_run: bool = False,
    ) -> None:
        if dry_run:
            return
        event = kubernetes_event(involved, reason, message, type=type, now=self._clock())
        with self._lock:
            self.events.append(event)

    # -- storing and telling the watches ---------------------------------------------

    def _commit(
        self, kind: _Kind, info: ResourceInfo, result: AdmissionResult, *, dry_run: bool
    ) -> dict[str, Any]:
        """Keep what an admission result stores, tell the watches; the client's answer."""
        if not result.ok:
            raise _refused(result)
        obj = result.object
        meta = obj.get("metadata") or {}
        key = (str(meta.get("namespace") or ""), str(meta.get("name") or ""))
        old = kind.objects.get(key)
        if dry_run:
            response = result.response
            if result.removed or not isinstance(response, dict) or response.get("kind") == "Status":
                return _copy_object(response)
            new = result.stored if result.written else old
            return self._dry_answer(response, kind, info, old, new if new is not None else response)
        uid = str(meta.get("uid") or "")
        if result.removed:
            self._drop(kind, key, old, result.object)
        elif result.written:
            kind.objects[key] = result.stored
            self._by_uid[uid] = (kind, key)
            self._index_owners(kind, key, result.stored)
            self._record_apply(uid)
            self._track_fields(kind, info, uid, old, result.stored)
            self._notify(kind, old, result.stored, None, read=result.object)
        elif old is not None and self._track_fields(kind, info, uid, old, old):
            # the object is unchanged but a manager's fields are not (an apply of values
            # another manager set): the server writes the new managedFields
            new = _copy(old)
            new["metadata"]["resourceVersion"] = self._next_version()
            kind.objects[key] = new
            self._record_apply(uid)
            self._notify(kind, old, new, None)
            return self._shown(kind, new, info.version)
        if result.removed:
            self._collect_garbage()
        response = result.response
        if isinstance(response, dict) and response.get("kind") == "Status":
            return _copy_object(response)
        # admission's answer is mostly its own fresh read of what it stored (``read``
        # copies), held by nothing else once this result is dropped: copied only when it
        # is the stored dict itself (a create read back in the version it is stored in)
        if response is result.stored:
            response = _copy(response)
        return self._with_managed(response, info)

    def _store_builtin(
        self,
        kind: _Kind,
        info: ResourceInfo,
        old: dict[str, Any] | None,
        new: dict[str, Any],
        *,
        dry_run: bool,
        compared: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Store ``new`` (``old`` replaced) and tell the watches; ``compared``: the object
        the write's managedFields are made from, when not ``new`` itself. ``new`` is
        first what the server reads back from etcd (``decoding.read_back``)."""
        from kubectl_crd.validation.decoding import read_back

        read_back(new, f"{kind.group}/{info.version}" if kind.group else info.version, kind.kind)
        unchanged = old is not None and go_equal(_without_version(new), _without_version(old))
        if compared is None:
            compared = old if old is not None and unchanged else new
        if dry_run:
            if old is not None and unchanged:
                return self._dry_answer(old, kind, info, old, compared)
            new["metadata"].setdefault("resourceVersion", "")
            return self._dry_answer(new, kind, info, old, compared)
        # unchanged, unless a manager's fields are not (an apply of values another
        # manager set): the server writes the new managedFields
        if old is not None and unchanged and not self._track_fields(kind, info, "", old, old):
            return self._with_managed(_copy(old), info)
        new["metadata"]["resourceVersion"] = self._next_version()
        meta = new["metadata"]
        key = (str(meta.get("namespace") or ""), str(meta["name"]))
        kind.objects[key] = new
        self._by_uid[str(meta["uid"])] = (kind, key)
        self._index_owners(kind, key, new)
        self._record_apply(str(meta["uid"]))
        self._track_fields(kind, info, str(meta["uid"]), old, compared)
        self._notify(kind, old, new, None)
        return self._with_managed(_copy(new), info)

    def _record_apply(self, uid: str) -> None:
        if self._applying is not None:
            manager, applied, keys_at = self._applying
            managers = self._applied.setdefault(uid, {})
            managers[manager] = applied
            # a forced apply takes the fields it sets to another value from the managers
            # that applied them (structured-merge-diff's merge/update.go: a conflict
            # forced is a change of owner), an atomic map or struct as one field
            for other, record in list(managers.items()):
                if other != manager:
                    kept = _without_taken(record, applied, keys_at, ())
                    if kept is not record:
                        managers[other] = kept
                        if _owns_nothing(kept):  # its managedFields entry is gone too
                            del managers[other]

    def _remove(
        self, kind: _Kind, info: ResourceInfo, old: dict[str, Any], *, dry_run: bool
    ) -> dict[str, Any]:
        last = _copy_object(old)
        if dry_run:
            return last
        last["metadata"]["resourceVersion"] = self._next_version()
        meta = old["metadata"]
        self._drop(kind, (str(meta.get("namespace") or ""), str(meta["name"])), old, last)
        self._collect_garbage()
        return last

    def _drop(
        self, kind: _Kind, key: ObjectKey, old: dict[str, Any] | None, last: dict[str, Any]
    ) -> None:
        kind.objects.pop(key, None)
        if kind.kind == "Service" and not kind.group and kind.admission is None:
            self._services.release(last)
        uid = str((last.get("metadata") or {}).get("uid") or "")
        self._by_uid.pop(uid, None)
        self._applied.pop(uid, None)
        self._fields.pop(uid, None)
        self._managed.pop(uid, None)
        self._gone.append(uid)
        self._notify(kind, old, None, last)

    def _notify(
        self,
        kind: _Kind,
        old: dict[str, Any] | None,
        new: dict[str, Any] | None,
        last: dict[str, Any] | None,
        *,
        read: Any = None,
    ) -> None:
        """Tell the watches of a write. ``read``: admission's read of ``new`` after it
        (a custom resource's ``AdmissionResult.object``), which a watch of the version
        it was read in gets a copy of instead of a read of its own."""
        read_as = read.get("apiVersion") if type(read) is dict else None
        for watch in self._watches:
            if watch.kind.group != kind.group or watch.kind.plural != kind.plural:
                continue
            had, has = watch.sees(old), watch.sees(new)
            if new is not None and has:
                if read_as is not None and read_as == f"{kind.group}/{watch.version}":
                    shown = self._with_managed(_copy(read), kind.infos.get(watch.version))
                else:
                    shown = self._shown(kind, new, watch.version)
                event = EventType.MODIFIED if had else EventType.ADDED
                watch.put(ReflectorEvent(event, shown))
                self._sent += 1
            elif had:
                # removed: its last state at the delete's resourceVersion; no longer
                # selected: its previous state at the new resourceVersion (the cacher's
                # filter, cacher/cache_watcher.go convertToWatchEvent)
                if new is None:
                    assert last is not None
                    gone = self._shown(kind, last, watch.version)
                else:
                    assert old is not None
                    gone = self._shown(kind, old, watch.version)
                    gone["metadata"]["resourceVersion"] = new["metadata"].get("resourceVersion")
                watch.put(ReflectorEvent(EventType.DELETED, gone))
                self._sent += 1

    def _index_owners(self, kind: _Kind, key: ObjectKey, obj: Mapping[str, Any]) -> None:
        """Remember ``obj`` as a dependent of each owner it names (entries that went
        stale are checked when used)."""
        for ref in (obj.get("metadata") or {}).get("ownerReferences") or ():
            if isinstance(ref, Mapping) and ref.get("uid"):
                self._dependents.setdefault(str(ref["uid"]), set()).add(
                    (kind.group, kind.plural, key)
                )

    def _collect_garbage(self) -> None:
        """The garbage collector's background deletion: an object whose
        ownerReferences all name objects that are gone is deleted (in turn its own
        dependents), until nothing changes (``garbagecollector.go attemptToDeleteItem``:
        the owner is looked up by uid). Only the dependents of removed objects are
        looked at (an index by owner uid), so a cascade costs its own size."""
        while self._gone:
            uid = self._gone.pop()
            for group, plural, key in sorted(self._dependents.pop(uid, ())):
                kind = self._kinds.get((group, plural))
                obj = kind.objects.get(key) if kind is not None else None
                if kind is None or obj is None:
                    continue
                if _owners_gone(obj, self._by_uid) and not obj["metadata"].get("deletionTimestamp"):
                    info = next(iter(kind.infos.values()))
                    self.delete(info, key[0], key[1], uid=obj["metadata"].get("uid"))

    # -- pieces ------------------------------------------------------------------------

    def _shown(
        self, kind: _Kind, stored: dict[str, Any], version: str, *, managed: bool = True
    ) -> dict[str, Any]:
        """A stored object as a read of ``version`` returns it (a copy)."""
        obj: dict[str, Any] = (
            kind.admission.read(stored, version) if kind.admission is not None else _copy(stored)
        )
        if managed:
            return self._with_managed(obj, kind.infos.get(version))
        return obj

    def _with_managed(self, obj: dict[str, Any], info: ResourceInfo | None) -> dict[str, Any]:
        """``obj`` with its managedFields: every read shows them, marshalled once per
        change and loaded per read (a read's copy is one ``marshal.loads``: the bytes
        are ~1/8 of the dicts)."""
        meta = obj.get("metadata")
        if not isinstance(meta, dict):
            return obj
        uid = str(meta.get("uid") or "")
        entries = self._fields.get(uid)
        if entries:
            cached = self._managed.get(uid)
            if cached is None:
                cached = self._managed[uid] = marshal.dumps([e.shown() for e in entries])
            meta["managedFields"] = marshal.loads(cached)
        return obj

    @contextmanager
    def _starting_from(self, given: _Entries | None) -> Iterator[None]:
        """The managedFields the write in progress gives (``_given``; under the lock)."""
        outer, self._given = self._given, given
        try:
            yield
        finally:
            self._given = outer

    @contextmanager
    def _written_by(self, manager: str | None, subresource: str = "") -> Iterator[None]:
        """The field manager and subresource of the write in progress (a write made by
        another, an apply's create or update, keeps the outer one's). ``None``: a
        delete, whose marking of an object (deletionTimestamp) and the garbage
        collector's deletes it sets off change no managedFields, as on the server (the
        delete handler runs no field manager)."""
        outer = self._writer
        if outer is not None and manager is not None:
            yield
            return
        # the server's default manager is its client's User-Agent up to the first "/"
        # (handlers/rest.go prefixFromUserAgent): ours is "kubectl-crd/<version> (...)"
        self._writer = None if manager is None else (manager or "kubectl-crd", subresource)
        try:
            yield
        finally:
            self._writer = outer

    def _track_fields(
        self,
        kind: _Kind,
        info: ResourceInfo,
        uid: str,
        old: Mapping[str, Any] | None,
        new: Mapping[str, Any],
    ) -> bool:
        """Record the managedFields a write of ``old`` into ``new`` leaves (with
        ``uid``; with none, only whether they would change): whether they changed."""
        after = self._fields_after(kind, info, old, new)
        if after is None:
            return False
        if uid:
            self._fields[uid] = after
            self._managed.pop(uid, None)
            if self._given is not None:
                self._reapplied(kind, info, uid, after, new)
        return True

    def _reapplied(
        self,
        kind: _Kind,
        info: ResourceInfo,
        uid: str,
        entries: _Entries,
        obj: Mapping[str, Any],
    ) -> None:
        """After a write that gave managedFields: what each applier's next apply removes
        when it leaves a field out is what its ``Apply`` entry now owns (the server
        knows nothing else), so its record of what it applied becomes the object's
        values at those fields (``_projected``)."""
        _, keys_at = self._typed(kind, info.version)
        appliers = {
            entry.manager: _projected(obj, _fields_v1(entry.paths), keys_at, ())
            for entry in entries
            if entry.operation == "Apply" and not entry.subresource
        }
        self._applied[uid] = {manager: value for manager, value in appliers.items() if value}

    def _dry_answer(
        self,
        answer: dict[str, Any],
        kind: _Kind,
        info: ResourceInfo,
        old: Mapping[str, Any] | None,
        new: Mapping[str, Any],
    ) -> dict[str, Any]:
        """A dry run's answer (a copy of ``answer``) with the managedFields the write
        would leave, as the server's dry run answers (it runs the field manager)."""
        shown = _copy_object(answer)
        meta = shown.get("metadata")
        if isinstance(meta, dict):
            after = self._fields_after(kind, info, old, new)
            if after is None:
                after = self._fields.get(str(meta.get("uid") or ""), [])
            if after:
                meta["managedFields"] = [entry.shown() for entry in after]
        return shown

    def _fields_after(
        self,
        kind: _Kind,
        info: ResourceInfo,
        old: Mapping[str, Any] | None,
        new: Mapping[str, Any],
        *,
        seeding: bool = False,
    ) -> _Entries | None:
        """The managedFields entries a write of ``old`` into ``new`` leaves; None when
        they would not change. What the server's field manager does (handlers/fieldmanager, on
        structured-merge-diff's merge/update.go): an ``Update`` owns what it added or
        changed (``_compared``: a map it added is a member too) beside what its
        manager owned before; an ``Apply`` owns the applied object's field set
        (``_applied_fields``); either takes the fields it changes, and those it
        removed, from every other manager; a manager left with nothing has no entry.
        A write made by no manager (a deletion's mark, the garbage collector's) leaves
        them alone; an update of an object with none is not tracked (``seeding``: it is,
        the first apply's ``before-first-apply``)."""
        if self._writer is None:
            return None
        manager, subresource = self._writer
        live = self._fields.get(str((new.get("metadata") or {}).get("uid") or ""), [])
        applying = self._applying is not None
        before = self._given if self._given is not None and not applying else live
        if not applying and old is not None and not before and not seeding:
            # an object with no managedFields (created with nothing for its creator to
            # own) has its updates untracked until an apply (skipnonapplied.go:
            # skipNonAppliedManager.Update); given none, the object's are dropped
            return [] if live and before is not live else None
        _, keys_at = self._typed(kind, info.version)
        operation = "Apply" if applying else "Update"
        api_version = info.api_version
        if applying and all(e.is_for(manager, operation, subresource, "") for e in before):
            # an apply's own fields are the applied object's: what it changed matters
            # only to other managers, and there are none (a child a reconciler alone
            # applies, the dev loop's usual write)
            added: AbstractSet[FieldPath] = _NOTHING
            modified: AbstractSet[FieldPath] = _NOTHING
            removed: AbstractSet[FieldPath] = _NOTHING
        else:
            if old is None:
                old = self._zero(kind, info)
            added, modified, removed = _compared(old, new, keys_at)
        # the status or the spec a write to the other part sends is reset by the
        # strategy (each registry's GetResetFields): never owned through that write
        reset = ("f:spec",) if subresource == "status" else ("f:status",) if info.has_status else ()
        changed = _without_under(added | modified, reset)
        removed = _without_under(removed, reset)
        now = self._clock()
        after: list[_FieldsEntry] = []
        mine: _FieldsEntry | None = None
        for entry in before:
            if entry.is_for(manager, operation, subresource, api_version):
                mine = entry
                continue
            kept = entry.paths - changed - removed
            if kept:
                after.append(entry if kept == entry.paths else entry.with_paths(kept))
        if applying:
            assert self._applying is not None
            paths = frozenset(_applied_fields(self._applying[1], keys_at) - _STRIPPED)
            # an apply that changes nothing but managedFields keeps the times they had
            # (handlers/fieldmanager/equality.go IgnoreManagedFieldsTimestampsTransformer:
            # a new entry then has none)
            stamp = (mine.time if mine is not None else None) if old is new else now
        else:
            previous = mine.paths - removed if mine is not None else frozenset()
            paths = frozenset((previous | changed) - _STRIPPED)
            # managedfieldsupdater.go: the time moves when the write itself owns
            # something (it changed a field)
            stamp = now if (changed - _STRIPPED) or mine is None else mine.time
        if paths:
            after.append(_FieldsEntry(manager, operation, api_version, subresource, paths, stamp))
        if not applying and len(after) > _MAX_UPDATE_MANAGERS:
            after = _capped(after)
        after.sort(key=_FieldsEntry.order)
        return None if after == live else after

    def _zero(self, kind: _Kind, info: ResourceInfo) -> dict[str, Any]:
        """What a create is compared with: the kind's empty object (the create
        handler's ``r.New()``: a built-in's Go zero value as encoding/json writes it;
        a custom resource's only its apiVersion and kind)."""
        api_version = info.api_version
        zero = self._zeros.get((api_version, kind.kind))
        if zero is None:
            zero = {"apiVersion": api_version, "kind": kind.kind}
            if kind.admission is None:
                from kubectl_crd.validation.decoding import decode_builtin

                decode_builtin(zero, api_version, kind.kind, lenient=True)
            # read only (``_compared`` walks it), so made once per kind
            self._zeros[(api_version, kind.kind)] = zero
        return zero

    def _decoded(
        self,
        kind: _Kind,
        info: ResourceInfo,
        obj: Mapping[str, Any],
        *,
        create: bool = False,
        quoted: Callable[[], str] | None = None,
    ) -> dict[str, Any]:
        """A copy of a built-in's body decoded into its Go type as the server decodes a
        create's or update's (``validation.decoding``): normalised to what the server
        stores, or refused with its 400; then defaulted (``validation.builtin_defaulting``,
        the scheme's defaulting after decoding). The merged object of a server-side
        apply is converted, not decoded (the server never parses it as JSON): the
        typed check refused what the conversion refuses, and its values are normalised
        alike. ``create``: a kind with ``/status`` starts with its zero status (each
        strategy's ``PrepareForCreate``), defaulted as the server's read of what it
        stored defaults it (a claim's ``phase: Pending``, a namespace's ``Active``).
        ``quoted``: ``obj`` is a merge patch's result, whose decoding error the patch
        handler words as a 422 quoting this JSON (``_undecodable_patch``)."""
        from kubectl_crd.validation.builtin_defaulting import default_builtin
        from kubectl_crd.validation.decoding import body_kind_problem, decode_builtin, zero_field

        body = _plain_object(obj)
        api_version = f"{kind.group}/{info.version}" if kind.group else info.version
        lenient = self._applying is not None
        # fieldValidation=Warn, the server's when a request names none: each field the
        # type has not is a warning (an apply's typed check refused them already)
        unknown: list[str] | None = [] if self._on_warning is not None and not lenient else None
        patched = quoted is not None
        problem = None if lenient else body_kind_problem(body, api_version, kind.kind, bare=patched)
        if problem is None:
            problem = decode_builtin(
                body, api_version, kind.kind, lenient=lenient, bare=patched, unknown=unknown
            )
        if problem is not None:
            if quoted is not None:
                raise _undecodable_patch(quoted(), problem)
            raise _failure(400, "BadRequest", problem, None)
        for path in unknown or ():
            self._warn(f'unknown field "{path}"')
        if create and kind.has_status:
            body["status"] = zero_field(api_version, kind.kind, "status")
        default_builtin(body, api_version, kind.kind, sent=obj if kind.kind == "Pod" else None)
        return body

    def _as_internal(
        self,
        kind: _Kind,
        info: ResourceInfo,
        patched: dict[str, Any],
        quoted: Callable[[], str],
    ) -> dict[str, Any]:
        """A built-in's patched object with no apiVersion, decoded as the server decodes
        it: the JSON serializer's ``gvkWithDefaults`` fills the empty group and version
        in from the type it decodes into, the handler's internal one
        (``runtime/serializer/json/json.go``). A kind other than the endpoint's is then
        not registered for the internal version, or fails the conversion: the patch
        handler's 422. The endpoint's kind decodes into the internal struct, whose
        ``ObjectMeta`` is embedded without a JSON tag: its fields are read from the top
        level (``name``, ``labels``, ...), and ``metadata`` and every field of the v1
        type is an unknown field, a warning (``fieldValidation=Warn``; the patched JSON's
        keys come sorted). What is left is that metadata alone: an object with no name
        (a 400 of ``_patched_identity``), or, given a top-level ``name``, one whose
        other fields are gone. Not mirrored: the internal struct's Go field names
        (``Data``), which it would decode, and the wording of a decoding error of the
        top-level metadata fields."""
        named = patched.get("kind")
        if not isinstance(named, str | None):
            return patched  # the decoding's error, as for any body
        if named and named != kind.kind:
            raise _undecodable_patch(quoted(), _internal_kind_problem(kind.group, named, kind.kind))
        meta_fields = _object_meta_fields()
        for key in sorted(patched):
            if key not in meta_fields and key not in ("apiVersion", "kind"):
                self._warn(f'unknown field "{key}"')
        api_version = f"{kind.group}/{info.version}" if kind.group else info.version
        meta = {key: value for key, value in patched.items() if key in meta_fields}
        return {"apiVersion": api_version, "kind": kind.kind, "metadata": meta}

    def _warn_of_write(
        self, kind: _Kind, obj: Mapping[str, Any], old: Mapping[str, Any] | None
    ) -> None:
        """A valid write's strategy warnings (``WarningsOnCreate`` / ``OnUpdate``:
        ``validation.pod_warnings``), told as the server's Warning headers are."""
        if self._on_warning is None:
            return
        from kubectl_crd.validation.pod_warnings import write_warnings

        for text in write_warnings(kind.group, kind.kind, obj, old):
            self._warn(text)

    def _warn(self, text: str) -> None:
        """``on_warning`` told ``text`` the first time only, as ``KubeClient`` tells each
        Warning header's text once (kubectl's handler deduplicates too): a backend's
        warnings are the same in the loop against a cluster and against the store."""
        if self._on_warning is not None and text not in self._warned:
            self._warned.add(text)
            self._on_warning(text)

    def _prepare_for_create(
        self, kind: _Kind, obj: dict[str, Any], body: Mapping[str, Any]
    ) -> None:
        """What a built-in's registry strategy (and the admission plugins every server
        runs) add on a create of ``body``, past defaulting."""
        from kubectl_crd.validation import builtin_defaulting as prepare

        _drop_disabled_pod_fields(kind, obj)
        if kind.group == "batch" and kind.kind == "Job":
            body_meta = body.get("metadata")
            own = body_meta.get("labels") if isinstance(body_meta, Mapping) else None
            uid = str(obj["metadata"]["uid"])
            prepare.prepare_job_for_create(obj, uid, shares_labels=not own)
        elif not kind.group and kind.kind == "Pod":
            prepare.prepare_pod_for_create(obj)
        elif not kind.group and kind.kind == "Namespace":
            prepare.prepare_namespace_for_create(obj)
        elif not kind.group and kind.kind == "PersistentVolumeClaim":
            from kubectl_crd.validation.claims import normalize_data_sources

            prepare.prepare_claim_for_create(obj)
            if isinstance(obj.get("spec"), dict):
                normalize_data_sources(obj["spec"], None)
        elif kind.group == "apps" and kind.kind == "DaemonSet":
            prepare.prepare_daemon_set(obj, None)
        elif kind.group == "coordination.k8s.io" and kind.kind == "Lease":
            prepare.prepare_lease(obj, None)

    def _allocate(
        self, kind: _Kind, obj: dict[str, Any], old: dict[str, Any] | None, *, dry_run: bool
    ) -> None:
        """A Service's cluster IP, families and node ports (``ServiceAllocator``): a
        refusal is its 500, or the 422 of its causes."""
        if kind.group or kind.kind != "Service":
            return
        from kubectl_crd.validation.results import Stage

        problem = self._services.allocate(obj, old, dry_run=dry_run)
        if isinstance(problem, str):
            raise _failure(500, "InternalError", problem, None)
        if problem:
            raise _invalid(kind, obj, [(f, r, m, Stage.SCHEMA) for f, r, m in problem])

    def _typed(self, kind: _Kind, version: str) -> tuple[Atom, KeysAt]:
        """The kind's typed schema in ``version`` (``validation.typed``: a built-in's
        from the shipped file, a custom resource's from its CRD version's schema), and
        its list-map keys by path (``x-kubernetes-list-type`` and ``-list-map-keys``;
        for built-ins what ``+listType`` / ``patchMergeKey`` make of them in the
        server's OpenAPI: containers and env by name, a container's ports by
        containerPort and protocol, ``metadata.ownerReferences`` by uid, ...: its keys;
        ``"set"`` for a set; None, atomic), made once per kind, version and CRD."""
        stamp = (kind.group, kind.plural, version)
        made = self._types.get(stamp)
        if made is not None and made[0] is kind.crd:
            return made[1], made[2]
        from kubectl_crd.validation import typed

        atom: Atom
        if kind.crd is not None:
            found = kind.crd.version(version)
            atom = typed.crd_atom(found.schema if found is not None else None)
        else:
            api_version = f"{kind.group}/{version}" if kind.group else version
            atom = typed.builtin().kind(api_version, kind.kind) or typed.ANYTHING
        keys: dict[tuple[str, ...], tuple[str, ...] | str | None] = {}

        def keys_at(path: tuple[str, ...], atom: Atom = atom) -> tuple[str, ...] | str | None:
            try:
                return keys[path]
            except KeyError:
                found = keys[path] = typed.list_keys(atom, path)
                return found

        self._types[stamp] = (kind.crd, atom, keys_at)
        return atom, keys_at

    def _not_found(self, kind: _Kind, name: str) -> StoreRefusal:
        if kind.admission is not None:
            return _refused(kind.admission.not_found(name))
        return _status_refusal(404, "NotFound", f'{kind.resource} "{name}" not found', kind, name)


# -- module-level pieces ------------------------------------------------------------------


def _check_typed(atom: Atom, applied: dict[str, Any]) -> None:
    """The typed conversion of an applied object, the server's first step of an apply
    (``validation.typed``): a field of the wrong type, one the schema has not, a
    duplicate in a list map or set is the server's 500 with no reason, before anything
    else looks at the object; then, for a built-in, a number its Go type cannot hold
    (a fraction in an int field, an int-or-string neither string nor int32), the
    server's next 500 (``failed to convert new object``)."""
    from kubectl_crd.validation.typed import apply_refusal

    message = apply_refusal(atom, applied)
    if message is not None:
        raise _failure(500, "", message, None)  # the server's Status: no reason, no details


#: where each kind's pod spec is
_POD_SPEC_AT: dict[tuple[str, str], tuple[str, ...]] = {
    ("", "Pod"): ("spec",),
    **{
        ("apps", name): ("spec", "template", "spec")
        for name in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet")
    },
    ("batch", "Job"): ("spec", "template", "spec"),
    ("batch", "CronJob"): ("spec", "jobTemplate", "spec", "template", "spec"),
}


def _pod_spec(kind: _Kind, obj: Mapping[str, Any]) -> dict[str, Any] | None:
    path = _POD_SPEC_AT.get((kind.group, kind.kind))
    node: Any = obj
    for part in path or ():
        node = node.get(part) if isinstance(node, dict) else None
    return node if path and isinstance(node, dict) else None


def _has_disabled_pod_fields(kind: _Kind, obj: Mapping[str, Any]) -> bool:
    from kubectl_crd.validation.builtin_defaulting import drop_disabled_pod_fields

    spec = _pod_spec(kind, obj)
    return spec is not None and drop_disabled_pod_fields(spec, dry=True)


def _drop_disabled_pod_fields(kind: _Kind, obj: dict[str, Any]) -> None:
    """The fields of ``obj``'s pod spec that features off by default hold taken out, as
    every pod-carrying strategy's PrepareForCreate and PrepareForUpdate take them out
    (``builtin_defaulting.drop_disabled_pod_fields``). The field manager ran before:
    the writer's managedFields still own them."""
    from kubectl_crd.validation.builtin_defaulting import drop_disabled_pod_fields

    spec = _pod_spec(kind, obj)
    if spec is not None:
        drop_disabled_pod_fields(spec)


def _check_conflicts(
    entries: Sequence[_FieldsEntry],
    manager: str,
    current: Mapping[str, Any],
    applied: Mapping[str, Any],
    keys_at: KeysAt,
) -> None:
    """An apply without force that changes or adds a field another entry owns (another
    manager's, or this manager's by an update) is refused as the server refuses it
    (structured-merge-diff's merge/update.go: the live object against it merged with the
    applied one; apiserver fieldmanager/internal/conflict.go words the 409): one cause
    per field, managers by their identifier, each one's fields in fieldpath.Set's order
    (members before children, at each level by element)."""
    others = [e for e in entries if not e.is_for(manager, "Apply", "", "")]
    if not others:
        return
    added, modified, _ = _compared(current, _merge(current, applied, keys_at, ()), keys_at)
    changed = added | modified
    found = sorted(
        ((e.identifier(), e, sorted(e.paths & changed, key=_set_order)) for e in others),
        key=lambda each: each[0],
    )
    conflicts = [(_conflict_manager(e), _path_text(p)) for _, e, paths in found for p in paths]
    if not conflicts:
        return
    if len(conflicts) == 1:
        who, path = conflicts[0]
        message = f"Apply failed with 1 conflict: conflict with {who}: {path}"
    else:
        lines: list[str] = []
        for _, entry, paths in found:
            if paths:
                lines.append(f"conflicts with {_conflict_manager(entry)}:")
                lines.extend(f"- {_path_text(p)}" for p in paths)
        message = f"Apply failed with {len(conflicts)} conflicts: " + "\n".join(lines)
    causes = [
        {"reason": "FieldManagerConflict", "message": f"conflict with {who}", "field": path}
        for who, path in conflicts
    ]
    raise _failure(409, "Conflict", message, {"causes": causes})


def _conflict_manager(entry: _FieldsEntry) -> str:
    """conflict.go's printManager: the name quoted, its subresource, an update's
    apiVersion."""
    text = json.dumps(entry.manager, ensure_ascii=False)
    if entry.subresource:
        text += f" with subresource {json.dumps(entry.subresource, ensure_ascii=False)}"
    if entry.operation == "Update":
        text += f" using {entry.api_version}"
    return text


def _element_order(step: str) -> tuple[int, Any]:
    """fieldpath's PathElement order: field names, then keys, values, indexes."""
    kind, text = step[:2], step[2:]
    rank = {"f:": 0, "k:": 1, "v:": 2, "i:": 3}.get(kind, 4)
    return (rank, int(text) if kind == "i:" and text.isdigit() else text)


def _set_order(path: FieldPath) -> tuple[tuple[int, tuple[int, Any]], ...]:
    last = len(path) - 1
    return tuple((0 if at == last else 1, _element_order(step)) for at, step in enumerate(path))


def _path_text(path: FieldPath) -> str:
    """A field path as fieldpath.Path's String writes it: ``.spec.ports[port=80,
    protocol="TCP"].name``, a set's value ``[="a"]``, an index ``[0]``."""
    parts: list[str] = []
    for step in path:
        kind, text = step[:2], step[2:]
        if kind == "f:":
            parts.append("." + text)
        elif kind == "k:":
            keys = json.loads(text)
            fields = ",".join(
                f"{k}={json.dumps(v, separators=(',', ':'), ensure_ascii=False)}"
                for k, v in sorted(keys.items())
            )
            parts.append(f"[{fields}]")
        elif kind == "v:":
            parts.append(f"[={text}]")
        else:
            parts.append(f"[{text}]")
    return "".join(parts)


def _check_applied_type(kind: _Kind, info: ResourceInfo, applied: Mapping[str, Any]) -> None:
    """An applied built-in whose apiVersion and kind are not the URL's is the server's
    400 naming them as a Go ``schema.GroupVersionKind`` prints ("apps/v1beta1,
    Kind=Deployment", a core or unparsable version "/v1", "/"), before any typed
    conversion: the field manager finds no such type (probed on kube-apiserver 1.34)."""
    api_version, kind_name = applied.get("apiVersion"), applied.get("kind")
    if api_version == info.api_version and kind_name == kind.kind:
        return
    text = api_version if isinstance(api_version, str) else ""
    group, _, version = text.rpartition("/") if text.count("/") < 2 else ("", "", "")
    kind_text = kind_name if isinstance(kind_name, str) else ""
    message = f"invalid object type: {group}/{version}, Kind={kind_text}"
    raise _failure(400, "BadRequest", message, None)


def _refused(result: AdmissionResult) -> StoreRefusal:
    from kubectl_crd.kube.client import status_error

    response = result.response if isinstance(result.response, dict) else {}
    line = status_error(result.code, response, "POST").message
    return StoreRefusal(
        line,
        status=result.code,
        reason=result.reason,
        status_object=response,
        errors=result.errors,
    )


def _status_refusal(code: int, reason: str, message: str, kind: _Kind, name: str) -> StoreRefusal:
    # metav1.StatusDetails omits an empty group (a core kind's)
    details: dict[str, object] = {"name": name, "group": kind.group, "kind": kind.plural}
    if not kind.group:
        del details["group"]
    return _failure(code, reason, message, details)


def _failure(
    code: int,
    reason: str,
    message: str,
    details: dict[str, object] | None,
    errors: Sequence[Any] = (),
) -> StoreRefusal:
    """The refusal carrying the server's ``Status`` of ``code`` and ``reason``, and the
    line kubectl prints for it (an empty reason and no details are left out, as
    ``metav1.Status`` omits them)."""
    status: dict[str, object] = {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
    }
    if reason:
        status["reason"] = reason
    if details is not None:
        status["details"] = details
    status["code"] = code
    from kubectl_crd.kube.client import status_error

    line = status_error(code, status, "POST").message
    return StoreRefusal(line, status=code, reason=reason, status_object=status, errors=errors)


def _undecodable_patch(patched: str, error: str) -> StoreRefusal:
    """A merge patch whose result does not decode: the patch handler's 422
    (``apiserver/pkg/endpoints/handlers/patch.go`` applyPatchToCurrentObject:
    ``NewInvalid`` of no kind and no name, the field ``patch`` holding the patched
    object's JSON, ``patched``: ``ObjectStore.patch``'s ``quoted``)."""
    from kubectl_crd.model.gostrconv import go_quote
    from kubectl_crd.validation.results import FieldError, Reason, Stage

    cause = f"Invalid value: {go_quote(patched)}: {error}"
    details: dict[str, object] = {
        "causes": [{"reason": Reason.INVALID, "message": cause, "field": "patch"}]
    }
    found = FieldError("patch", Reason.INVALID, f"patch: {cause}", Stage.DECODING)
    return _failure(422, "Invalid", f' "" is invalid: patch: {cause}', details, [found])


@functools.cache
def _object_meta_fields() -> frozenset[str]:
    """``metav1.ObjectMeta``'s JSON names (the shipped Go types')."""
    from kubectl_crd.validation.typed import builtin

    fields = builtin().go_types["types"]["apis/meta/v1.ObjectMeta"]["f"]
    return frozenset(json_name for json_name, _, _ in fields)


#: apimachinery's unversioned kinds (``metav1.AddToGroupVersion``: AddUnversionedTypes),
#: known to every version, the internal one too
_UNVERSIONED_KINDS = frozenset(
    ("Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList")
)
#: kinds whose internal type is another group's (kube-apiserver 1.34.4 answers
#: ``converting (autoscaling.Scale) to (apps.Deployment)``)
_INTERNAL_ELSEWHERE = {("apps", "Scale"): "autoscaling"}


def _internal_kind_problem(group: str, named: str, endpoint_kind: str) -> str:
    """The error of a patched object with no apiVersion naming ``named``, not the
    endpoint's kind: decoded as ``group``'s internal version, then converted to the
    endpoint's internal type. The kinds of the internal version are taken as those of
    the group's versions (``validation.scheme_kinds``) but for the options kinds, which
    ``metav1.AddToGroupVersion`` registers only in versions; the watch event's internal
    type is ``InternalEvent``."""
    from kubectl_crd.validation.decoding import SCHEME_NAME
    from kubectl_crd.validation.scheme_kinds import INTERNAL_PACKAGES, META_KINDS, SCHEME_KINDS

    internal = INTERNAL_PACKAGES.get(group, group)
    if named in _UNVERSIONED_KINDS:
        source = f"v1.{named}"
    elif named == "WatchEvent":
        source = "v1.InternalEvent"
    else:
        kinds = {
            each
            for group_version, listed in SCHEME_KINDS.items()
            if group_version.rpartition("/")[0] == group
            for each in listed.split()
        }
        if named not in kinds or named in META_KINDS.split():
            return (
                f'no kind "{named}" is registered for the internal version of group '
                f'"{group}" in scheme "{SCHEME_NAME}"'
            )
        source = f"{_INTERNAL_ELSEWHERE.get((group, named), internal)}.{named}"
    return f"converting ({source}) to ({internal}.{endpoint_kind}): unknown conversion"


def _patched_identity(
    kind: _Kind, obj: Mapping[str, Any], namespace: str, name: str
) -> tuple[Mapping[str, Any], StoreRefusal | None]:
    """A patched object held to its URL's ``namespace`` and ``name``: the object, its
    empty namespace made the URL's (a cluster-scoped object's cleared), and the 400 of
    ``rest.EnsureObjectNamespaceMatchesRequestNamespace`` or ``checkName``
    (``apiserver/pkg/endpoints/handlers/rest.go``), None when it matches."""
    meta = obj.get("metadata")
    meta = dict(meta) if isinstance(meta, Mapping) else {}
    own = meta.get("namespace")
    own = own if isinstance(own, str) else ""
    if not kind.namespaced:
        meta.pop("namespace", None)
    elif not own:
        meta["namespace"] = namespace
    elif own != namespace:
        message = (
            "the namespace of the provided object does not match the namespace sent on the request"
        )
        return obj, _failure(400, "BadRequest", message, None)
    named = meta.get("name")
    named = named if isinstance(named, str) else ""
    if not named:
        problem = f"({name} based on URL) was undeterminable: name must be provided"
    elif named != name:
        problem = f"({named}) does not match the name on the URL ({name})"
    else:
        return {**obj, "metadata": meta}, None
    return obj, _failure(400, "BadRequest", f"the name of the object {problem}", None)


def _dns_label_name(name: str, prefix: bool) -> list[str]:
    from kubectl_crd.validation import names

    return names.dns1123_label(names.mask_trailing_dash(name) if prefix else name)


def _dns1035_name(name: str, prefix: bool) -> list[str]:
    from kubectl_crd.validation import names

    return names.dns1035_label(names.mask_trailing_dash(name) if prefix else name)


def _path_segment_name(name: str, prefix: bool) -> list[str]:
    from kubectl_crd.validation import names

    return names.path_segment_name(name, prefix)


#: the built-in kinds whose names are not DNS subdomains (the ``ValidateNameFunc`` each
#: kind's validation passes to ``ValidateObjectMeta``: ``pkg/apis/core/validation``
#: ValidateServiceName (NameIsDNS1035Label) and ValidateNamespaceName (NameIsDNSLabel),
#: ``pkg/apis/rbac/validation`` ValidateRBACName (path.IsValidPathSegmentName))
_NAME_CHECKS: dict[str, Callable[[str, bool], list[str]]] = {
    "Service": _dns1035_name,
    "Namespace": _dns_label_name,
    "Role": _path_segment_name,
    "RoleBinding": _path_segment_name,
    "ClusterRole": _path_segment_name,
    "ClusterRoleBinding": _path_segment_name,
}


def _check_builtin(
    kind: _Kind,
    obj: dict[str, Any],
    old: Mapping[str, Any] | None = None,
    *,
    given: Mapping[str, Any] | None = None,
) -> None:
    """``ValidateObjectMeta`` of a built-in object (apimachinery's
    ``api/validation/objectmeta.go``, through ``validation.objectmeta``, the check the
    custom resources' admission runs): its name (a DNS subdomain unless ``_NAME_CHECKS``
    says otherwise), label keys and values, annotation keys and their total size,
    ownerReferences and finalizers; then a Service's spec (``validation.services``,
    ``ValidateService``, after ``ValidateServiceUpdate``'s own rules when ``old``), a
    ConfigMap's and a Secret's content (``validation.configmaps``: an update's own rules
    between its metadata passes, the content's after them), and the kinds of
    ``validation.contents`` (a PersistentVolumeClaim's spec, a Role's, ClusterRole's,
    RoleBinding's or ClusterRoleBinding's content, a NetworkPolicy's and an Ingress's
    spec: after each of the strategy's ``META`` passes, as ValidateX runs there, then an
    update's own rules; a PodDisruptionBudget's spec: a create's alone if any, an
    update's after the common metadata checks). A problem is the server's 422
    ``Invalid`` (``_invalid``); an update that passes is then held to the kind's
    validating admission plugin, if ``validation.contents`` names one (a claim's resize: 403 ``Forbidden``)."""
    from kubectl_crd.validation.contents import CONTENT_CHECKS
    from kubectl_crd.validation.names import name_is_dns_subdomain
    from kubectl_crd.validation.objectmeta import (
        BUILTIN_UPDATE_STRATEGIES,
        DEFAULT_UPDATE_STRATEGY,
        META,
        UPDATE,
        update_meta_errors,
        validate_object_meta,
    )
    from kubectl_crd.validation.results import Reason, Stage
    from kubectl_crd.validation.workloads import validate_job_update, validate_workload

    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        return
    check = _NAME_CHECKS.get(kind.kind, name_is_dns_subdomain)
    job = (kind.group, kind.kind) == ("batch", "Job")
    content = not kind.group and kind.kind in ("ConfigMap", "Secret")
    # validation.contents: a kind's content checked at each of its strategy's META
    # passes, its update's own rules last
    contents = CONTENT_CHECKS.get((kind.group, kind.kind))
    checked = contents.problems(obj, old, given) if contents is not None else []
    if contents is not None and contents.alone_on_create:
        check = _path_segment_name
    if old is None:
        found = validate_object_meta(meta, None, name_check=check, generate_names=False)
        problems = [(f, reason, message, Stage.OBJECT_META) for f, reason, message, _ in found]
    elif contents is not None:
        strategy = BUILTIN_UPDATE_STRATEGIES.get(kind.kind, DEFAULT_UPDATE_STRATEGY)
        old_meta = old.get("metadata")
        found = update_meta_errors(meta, old_meta, (), name_check=check)
        problems = [(f, reason, message, Stage.OBJECT_META) for f, reason, message, _ in found]
        for each in strategy:
            found = update_meta_errors(meta, old_meta, (each,), name_check=check, common=False)
            problems += [(f, r, m, Stage.OBJECT_META) for f, r, m, _ in found]
            if each == META:
                problems += [(f, r, m, Stage.SCHEMA) for f, r, m in checked]
    else:
        strategy = BUILTIN_UPDATE_STRATEGIES.get(kind.kind, DEFAULT_UPDATE_STRATEGY)
        old_meta = old.get("metadata")
        own: list[tuple[str, str, str]] = []
        cut = len(strategy)
        if content:
            # ValidateConfigMapUpdate / ValidateSecretUpdate: their ObjectMetaUpdate (the
            # strategy's first pass), their own rules, then ValidateX's ObjectMeta
            from kubectl_crd.validation.configmaps import update_problems

            own, cut = update_problems(kind.kind, obj, old), 1
        found = update_meta_errors(meta, old_meta, strategy[:cut], name_check=check)
        rest = strategy[cut:]
        later = (
            update_meta_errors(meta, old_meta, rest, name_check=check, common=False) if rest else []
        )
        problems = [(f, reason, message, Stage.OBJECT_META) for f, reason, message, _ in found]
        problems += [(f, reason, message, Stage.SCHEMA) for f, reason, message in own]
        problems += [(f, reason, message, Stage.OBJECT_META) for f, reason, message, _ in later]
    if content:
        from kubectl_crd.validation.configmaps import content_problems

        problems += [(f, r, m, Stage.SCHEMA) for f, r, m in content_problems(kind.kind, obj)]
    if contents is not None and old is None:
        problems = [] if contents.alone_on_create and checked else problems
        problems += [(f, r, m, Stage.SCHEMA) for f, r, m in checked]
    elif contents is not None and old is not None:
        last = contents.update_problems(obj, old)
        problems += [(f, r, m, Stage.SCHEMA) for f, r, m in last]
    spec_causes = validate_workload(kind.group, kind.kind, obj, given, None if job else old)
    problems += [(f, reason, message, Stage.SCHEMA) for f, reason, message in spec_causes]
    if job and old is not None:
        # ValidateJobUpdate after ValidateJob: its ObjectMeta update, then its spec's
        tail = update_meta_errors(meta, old_meta, (UPDATE,), common=False)
        problems += [(f, reason, message, Stage.OBJECT_META) for f, reason, message, _ in tail]
        problems += [
            (f, reason, message, Stage.SCHEMA)
            for f, reason, message in validate_job_update(obj, old, given)
        ]
    if kind.kind == "CronJob" and len(str(meta.get("name") or "")) > 52:
        # batch/validation ValidateCronJobCreate, after the spec's problems: the Jobs
        # it makes get an 11-character suffix and must stay DNS-1035 labels
        name = str(meta["name"])
        problems.append(
            ("metadata.name", Reason.INVALID,
             f'metadata.name: Invalid value: "{name}": must be no more than 52 characters',
             Stage.OBJECT_META)
        )  # fmt: skip
    if kind.group == "coordination.k8s.io" and kind.kind == "Lease":
        from kubectl_crd.validation.leases import validate_lease_spec

        problems += [(f, r, m, Stage.SCHEMA) for f, r, m in validate_lease_spec(obj)]
    if not kind.group and kind.kind == "Service":
        from kubectl_crd.validation.services import validate_service, validate_service_update

        if old is not None:
            problems += [
                (f, reason, message, Stage.SCHEMA)
                for f, reason, message in validate_service_update(obj, old)
            ]
        problems += [
            (f, reason, message, Stage.SCHEMA) for f, reason, message in validate_service(obj)
        ]
    if problems:
        raise _invalid(kind, obj, problems)
    refusal = contents.refusal if contents is not None and old is not None else None
    refused = refusal(obj, old) if refusal is not None and old is not None else None
    if refused:
        # a validating admission plugin's answer, after validation passed
        # (genericregistry.Store.Update: BeforeUpdate, then updateValidation)
        name = str(meta.get("name") or "")
        message = f'{kind.resource} "{name}" is forbidden: {refused}'
        raise _failure(403, "Forbidden", message, {"name": name, "kind": kind.resource})


def _invalid(
    kind: _Kind, obj: Mapping[str, Any], problems: Sequence[tuple[str, str, str, str]]
) -> StoreRefusal:
    """The server's 422 ``Invalid`` of (field, reason, message, stage) problems:
    ``<Kind>[.<group>] "<name>" is invalid: <cause>`` (``[c1, c2]`` for several,
    repeats dropped as ``field.ErrorList.ToAggregate`` drops them)."""
    from kubectl_crd.validation.results import FieldError

    meta = obj.get("metadata")
    meta = meta if isinstance(meta, Mapping) else {}
    errors = [FieldError(f, reason, message, stage) for f, reason, message, stage in problems]
    messages = list(dict.fromkeys(e.message for e in errors))
    cause = messages[0] if len(messages) == 1 else "[" + ", ".join(messages) + "]"
    name = str(meta.get("name") or "")
    qualified = f"{kind.kind}.{kind.group}" if kind.group else kind.kind
    message = f'{qualified} "{name}" is invalid: {cause}'
    details: dict[str, object] = {"name": name, "kind": kind.kind}
    if kind.group:
        details["group"] = kind.group
    details["causes"] = [
        {"reason": e.reason, "message": e.message.removeprefix(f"{e.field}: "), "field": e.field}
        for e in errors
    ]
    return _failure(422, "Invalid", message, details, errors)


#: (group, plural) -> the etcd key's resource prefix where it is not the plural
#: (pkg/registry/core/service/storage/storage.go "services/specs", networking's
#: ingress storage "ingress")
_ETCD_PREFIXES = {("", "services"): "services/specs", ("networking.k8s.io", "ingresses"): "ingress"}


def _etcd_key(kind: _Kind, namespace: str, name: str) -> str:
    """The etcd key a built-in's storage error names."""
    prefix = _ETCD_PREFIXES.get((kind.group, kind.plural), kind.plural)
    return f"/registry/{prefix}/{namespace}/{name}" if namespace else f"/registry/{prefix}/{name}"


def _conflict(kind: _Kind, name: str) -> str:
    return f'Operation cannot be fulfilled on {kind.resource} "{name}": {_OPTIMISTIC_LOCK}'


def _owners_gone(obj: Mapping[str, Any], live: Mapping[str, object]) -> bool:
    refs = (obj.get("metadata") or {}).get("ownerReferences") or ()
    uids = [ref.get("uid") for ref in refs if isinstance(ref, Mapping)]
    return bool(uids) and all(uid not in live for uid in uids)


def _etcd_order(key: ObjectKey) -> str:
    return f"{key[0]}/{key[1]}" if key[0] else key[1]


def _name(obj: Mapping[str, Any]) -> str:
    meta = obj.get("metadata")
    return str(meta.get("name") or "") if isinstance(meta, Mapping) else ""


def _namespace(obj: Mapping[str, Any]) -> str:
    meta = obj.get("metadata")
    return str(meta.get("namespace") or "") if isinstance(meta, Mapping) else ""


@functools.lru_cache(maxsize=64)
def _second_text(second: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))


def _timestamp(now: float) -> str:
    """A metav1.Time as the server writes it (RFC 3339, to the second): the writes of
    one second share it (every create's creationTimestamp, every managedFields entry's
    time: strftime was ~2 us of each)."""
    return _second_text(int(now))


def _copy_object(obj: Any) -> dict[str, Any]:
    copied: dict[str, Any] = _copy(obj)
    return copied


def _plain_object(obj: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a caller's object as the store keeps values: every mapping a dict,
    every list or tuple a list (what a JSON round trip to the server makes of them).
    The store's own copies of what it holds then use ``model.schema.copy_json``. Plain
    data round trips through ``marshal`` (in C: 3.9 us for a Deployment against 11.6
    for ``plain``'s recursion); format 2 writes a tuple as ``(`` and nothing else with
    that type code, so data whose bytes hold no ``(`` has no tuple (a string or length
    holding the byte only sends it to the recursion)."""
    if type(obj) is dict:
        try:
            data = marshal.dumps(obj, 2)
        except ValueError:
            pass  # a mapping of another type inside, a value marshal has not
        else:
            if b"(" not in data:
                copied: dict[str, Any] = marshal.loads(data)
                return copied
    copied = plain(obj)
    return copied


def _non_metadata(obj: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in obj.items() if key != "metadata"}


def _without_version(obj: Mapping[str, Any]) -> dict[str, Any]:
    meta = {k: v for k, v in (obj.get("metadata") or {}).items() if k != "resourceVersion"}
    return {**obj, "metadata": meta}


def apply_merge_patch(target: Any, patch: Any, *, as_sent: Callable[[Any], Any] = plain) -> Any:
    """RFC 7386 as kube-apiserver applies it (json-patch v4's ``MergePatch``,
    gopkg.in/evanphx/json-patch.v4 ``merge.go``): ``patch`` applied to (a copy of)
    ``target``: null removes a key, mappings merge key by key; a value that replaces a
    mapping is taken as sent (``as_sent`` of it), one that replaces anything else or
    nothing without its null map values, in lists' mappings too (``pruneNulls``: a
    list's null items stay). What the
    merge left alone is ``target``'s own (shared, not copied); a mapping it reached is a
    new dict. ``encoding/json`` then writes json-patch's result with the keys of each
    mapping it reached or pruned sorted, and the rest as it was: ``as_sent=_in_order``
    and a target in its own order keep that apart (``ObjectStore.patch``)."""
    if not is_mapping(patch):
        return as_sent(patch) if is_mapping(target) else _pruned(patch)
    if not is_mapping(target):
        return _pruned(patch)
    # a mapping the merge reaches is json-patch's parsed map, written sorted: plain keys
    result = {str(key): item for key, item in target.items()}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        elif result.get(key) is None:
            result[key] = _pruned(value)
        else:
            result[key] = apply_merge_patch(result[key], value, as_sent=as_sent)
    return result


def _pruned(value: Any) -> Any:
    """json-patch v4's ``pruneNulls``: ``value`` without null map values, at any depth
    (kube-apiserver 1.34.4 keeps a list's null items: ``[null, 1]`` stays)."""
    if is_mapping(value):
        return {key: _pruned(item) for key, item in value.items() if item is not None}
    if isinstance(value, list | tuple):
        return [_pruned(item) for item in value]
    return value


class _Placed(str):
    """A JSON object's key that sorts by its place: ``go_json`` writes a mapping's keys
    sorted, as ``json.Marshal`` writes a map, and a mapping keyed by these in the order
    of its places, as ``json.Marshal`` writes a struct or a ``json.RawMessage``."""

    place: int

    def __new__(cls, text: str, place: int) -> _Placed:
        key = super().__new__(cls, text)
        key.place = place
        return key

    def __lt__(self, other: object) -> bool:
        return self.place < getattr(other, "place", -1)


def _in_order(value: Any) -> Any:
    """``value`` written as json-patch writes a value it did not parse (a ``RawMessage``:
    every mapping's keys in their order), as ``go_json`` is given it."""
    if is_mapping(value):
        return {_Placed(key, at): _in_order(item) for at, (key, item) in enumerate(value.items())}
    if isinstance(value, list | tuple):
        return [_in_order(item) for item in value]
    return value


def _go_ordered(kind: _Kind, info: ResourceInfo, obj: Mapping[str, Any]) -> Any:
    """A built-in object as its versioned Go type encodes it, as ``go_json`` is given
    it: each struct's fields in their declaration order (the shipped Go types'), each
    map's keys sorted."""
    from kubectl_crd.validation.typed import builtin

    types = builtin().go_types
    api_version = f"{kind.group}/{info.version}" if kind.group else info.version
    name = types["kinds"].get(f"{api_version}/{kind.kind}")
    return obj if name is None else _encoded(obj, name, types["types"])


def _encoded(value: Any, name: str, types: Mapping[str, Any]) -> Any:
    raw = types.get(name)
    if raw is None:
        return value
    shape = raw["k"]
    if shape == "ptr":
        return _encoded(value, raw["e"], types)
    if shape == "struct" and is_mapping(value):
        fields = raw["f"]
        ordered = {
            _Placed(field_name, at): _encoded(value[field_name], type_name, types)
            for at, (field_name, type_name, _) in enumerate(fields)
            if field_name in value
        }
        # a field the type has not (none in what the store keeps) after the others
        for at, key in enumerate(sorted(set(value) - set(ordered)), start=len(fields)):
            ordered[_Placed(key, at)] = value[key]
        return ordered
    if shape == "slice" and isinstance(value, list):
        return [_encoded(item, raw["e"], types) for item in value]
    if shape == "map" and is_mapping(value):
        return {key: _encoded(item, raw["e"], types) for key, item in value.items()}
    return value


# -- server-side apply's pieces -------------------------------------------------------------

KeysAt = Callable[[tuple[str, ...]], "tuple[str, ...] | str | None"]


#: list-map key fields with a default in the built-in schemas: structured-merge-diff keys
#: an item that leaves one out by its default (``typed/helpers.go`` keyedAssociativeList-
#: Item, the schema's ``default``), so an applied ``{containerPort: 80}`` is the stored,
#: defaulted ``{containerPort: 80, protocol: TCP}`` (ContainerPort, ServicePort)
_KEY_DEFAULTS = {"protocol": "TCP"}


def _item_key(item: Any, keys: tuple[str, ...]) -> tuple[Any, ...] | None:
    if not isinstance(item, Mapping):
        return None
    return tuple(json.dumps(item.get(k, _KEY_DEFAULTS.get(k)), sort_keys=True) for k in keys)


def _merge(base: Any, applied: Any, keys_at: KeysAt, path: tuple[str, ...]) -> Any:
    """``applied`` over ``base``: mappings key by key (but an atomic map or struct, a
    LabelSelector, a PodSpec's nodeSelector, replaced whole), list maps item by item,
    sets as unions, anything else replaced."""
    if isinstance(applied, Mapping) and isinstance(base, Mapping) and keys_at(path) != "atomic":
        merged = dict(base)
        for key, value in applied.items():
            merged[key] = (
                _merge(merged[key], value, keys_at, (*path, key)) if key in merged else _copy(value)
            )
        return merged
    if isinstance(applied, list) and isinstance(base, list):
        keys = keys_at(path)
        if keys == "set":
            return [*base, *(_copy(v) for v in applied if v not in base)]
        if isinstance(keys, tuple) and keys:
            result = list(base)
            index = {_item_key(item, keys): at for at, item in enumerate(result)}
            for item in applied:
                found = index.get(_item_key(item, keys))
                if found is None:
                    result.append(_copy(item))
                else:
                    result[found] = _merge(result[found], item, keys_at, (*path, "[]"))
            return result
    return _copy(applied)


def _remove_unapplied(
    obj: dict[str, Any],
    previous: Any,
    applied: Any,
    keys_at: KeysAt,
    path: tuple[str, ...],
    fpath: FieldPath = (),
    owned: frozenset[FieldPath] = frozenset(),
) -> None:
    """Remove from ``obj`` what ``previous`` (the manager's last apply) set and
    ``applied`` (its new one) does not, but for what another manager owns: ``owned``
    holds the field paths (``fpath`` is ``path``'s) another manager's managedFields
    hold, and every path above them (structured-merge-diff's merge/update.go
    ``prune`` removes only what no other manager owns, and adds back a list item
    another owns a field of: ``addBackOwnedItems``)."""
    if not isinstance(previous, Mapping):
        return
    applied = applied if isinstance(applied, Mapping) else {}
    for key, before in previous.items():
        if path == () and key in ("apiVersion", "kind"):
            continue
        if path == ("metadata",) and key in ("name", "namespace"):
            continue
        now, here = applied.get(key, _TAKEN), obj.get(key)
        at, fat = (*path, key), (*fpath, "f:" + key)
        keys = keys_at(at)
        items = isinstance(before, list) and isinstance(here, list) and _granular(here, keys_at, at)
        if now is _TAKEN and not items:
            if (
                isinstance(before, Mapping)
                and before
                and isinstance(here, dict)
                and keys != "atomic"
            ):
                # a granular map or struct: only what this manager applied goes
                # (another's keys stay), and the map if nothing is left
                _remove_unapplied(here, before, {}, keys_at, at, fat, owned)
                if here or fat in owned:
                    continue
            elif fat in owned:
                continue
            obj.pop(key, None)
            continue
        if isinstance(before, Mapping) and isinstance(here, dict):
            if keys != "atomic":  # an atomic one is replaced by the merge
                _remove_unapplied(here, before, now, keys_at, at, fat, owned)
        elif items and isinstance(before, list) and isinstance(here, list) and keys is not None:
            now = now if isinstance(now, list) else []
            kept: list[Any] = []
            if keys == "set":
                kept = [
                    v
                    for v in here
                    if v in now or v not in before or (*fat, _item_label(v, keys)) in owned
                ]
            elif isinstance(keys, tuple):
                wanted = {_item_key(item, keys): item for item in now}
                old_items = {_item_key(item, keys): item for item in before}
                for item in here:
                    k = _item_key(item, keys)
                    label = (*fat, _item_label(item, keys) or "")
                    if k in old_items and k not in wanted and label not in owned:
                        continue
                    if k in old_items and isinstance(item, dict):
                        item_at = (*at, "[]")
                        mine = wanted.get(k, {})
                        _remove_unapplied(item, old_items[k], mine, keys_at, item_at, label, owned)
                    kept.append(item)
            if kept or key in applied or fat in owned:
                obj[key] = kept
            else:
                obj.pop(key, None)


#: ``_without_taken``'s mark of a field taken by another manager
_TAKEN = object()


def _without_taken(record: Any, applied: Any, keys_at: KeysAt, path: tuple[str, ...]) -> Any:
    """``record`` (a manager's last apply) without the fields ``applied`` (another's)
    sets to another value: scalars, atomic lists, atomic maps and structs compared
    whole; granular maps and list maps (by item key) walked; a set's items never
    conflict. ``record`` itself when nothing is taken; a mapping left empty is gone."""
    if not isinstance(record, Mapping) or not isinstance(applied, Mapping):
        return record
    out: dict[str, Any] | None = None
    for key, mine in record.items():
        if key not in applied:
            continue
        theirs, here = applied[key], (*path, key)
        how = keys_at(here)
        kept: Any = mine
        if isinstance(mine, Mapping) and isinstance(theirs, Mapping) and how != "atomic":
            kept = _without_taken(mine, theirs, keys_at, here)
            if mine and not kept:
                kept = _TAKEN
        elif isinstance(mine, list) and isinstance(theirs, list) and how == "set":
            pass
        elif isinstance(mine, list) and isinstance(theirs, list) and isinstance(how, tuple) and how:
            index = {_item_key(item, how): item for item in theirs}
            items = []
            for item in mine:
                other = index.get(_item_key(item, how), _TAKEN)
                if other is _TAKEN:
                    items.append(item)
                elif keys_at((*here, "[]")) == "atomic":
                    if go_equal(item, other):
                        items.append(item)
                else:
                    left = _without_taken(item, other, keys_at, (*here, "[]"))
                    if left:
                        items.append(left)
            if len(items) != len(mine) or any(a is not b for a, b in zip(items, mine, strict=True)):
                kept = items if items else _TAKEN
        elif not go_equal(mine, theirs):
            kept = _TAKEN
        if kept is not mine:
            out = dict(record) if out is None else out
            if kept is _TAKEN:
                del out[key]
            else:
                out[key] = kept
    return record if out is None else out


def _owns_nothing(record: Mapping[str, Any]) -> bool:
    """A manager's record down to the object's identity (what managedFields leave out)."""
    meta = record.get("metadata")
    return set(record) <= {"apiVersion", "kind", "metadata"} and (
        not isinstance(meta, Mapping) or set(meta) <= {"name", "namespace"}
    )


#: a field path as managedFields spell its steps ("f:spec", 'k:{"name":"x"}', 'v:"a"')
FieldPath = tuple[str, ...]

#: what the field manager strips from every manager's fields (fieldmanager's
#: stripmeta.go): the paths themselves, not what is below them (``metadata``'s
#: children stay)
_STRIPPED = frozenset(
    ("f:" + name,) for name in ("apiVersion", "kind", "metadata")
) | frozenset(
    ("f:metadata", "f:" + name)
    for name in (
        "name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
        "generation", "managedFields", "resourceVersion",
    )
)  # fmt: skip


_NOTHING: frozenset[FieldPath] = frozenset()

#: the manager skipnonapplied.go gives an object's fields at its first apply
_BEFORE_FIRST_APPLY = "before-first-apply"


@dataclass(frozen=True)
class _FieldsEntry:
    """One ``managedFields`` entry: a manager's fields by one operation (and
    subresource), and when they last changed (POSIX seconds)."""

    manager: str
    operation: str
    api_version: str
    subresource: str
    paths: frozenset[FieldPath]
    time: float | None

    def is_for(self, manager: str, operation: str, subresource: str, api_version: str) -> bool:
        """The entry of that manager, operation and subresource: an ``Update``'s of that
        apiVersion too (fieldmanager's ``BuildManagerIdentifier`` leaves an
        ``Apply``'s apiVersion out: an applier keeps one entry across versions)."""
        return (
            self.manager == manager
            and self.operation == operation
            and self.subresource == subresource
            and (operation == "Apply" or self.api_version == api_version)
        )

    def with_paths(self, paths: frozenset[FieldPath]) -> _FieldsEntry:
        return _FieldsEntry(
            self.manager, self.operation, self.api_version, self.subresource, paths, self.time
        )

    def at(self, time: float | None) -> _FieldsEntry:
        return _FieldsEntry(
            self.manager, self.operation, self.api_version, self.subresource, self.paths, time
        )

    def identifier(self) -> str:
        """The field manager's key of the entry (``BuildManagerIdentifier``: the entry
        as JSON without time and fields, an ``Apply``'s without apiVersion)."""
        entry = {"manager": self.manager, "operation": self.operation}
        if self.operation != "Apply":
            entry["apiVersion"] = self.api_version
        if self.subresource:
            entry["subresource"] = self.subresource
        text = json.dumps(entry, separators=(",", ":"), ensure_ascii=False)
        # encoding/json's HTML escaping
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

    def order(self) -> tuple[str, int, str, str, str]:
        """The server's order of entries (fieldmanager's managedfields.go
        ``sortEncodedManagedFields``): operation, time to the second, manager,
        apiVersion, subresource."""
        seconds = int(self.time) if self.time is not None else 0
        return (self.operation, seconds, self.manager, self.api_version, self.subresource)

    def shown(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "manager": self.manager,
            "operation": self.operation,
            "apiVersion": self.api_version,
        }
        if self.time is not None:
            entry["time"] = _timestamp(self.time)
        entry["fieldsType"] = "FieldsV1"
        entry["fieldsV1"] = _fields_v1(self.paths)
        if self.subresource:
            entry["subresource"] = self.subresource
        return entry


#: fieldmanager's DefaultMaxUpdateManagers and the bucket its oldest Update entries are
#: merged into (apiserver/pkg/endpoints/handlers/fieldmanager: capmanagers.go)
_MAX_UPDATE_MANAGERS = 10
_ANCIENT_CHANGES = "ancient-changes"


def _capped(entries: _Entries) -> _Entries:
    """``entries`` with at most ten ``Update`` entries, as an update's
    ``capUpdateManagers`` leaves them (an apply caps nothing): oldest first (time to the
    second, then the manager's identifier), the second and later entries of an
    apiVersion are merged, with the first, into that version's ``ancient-changes``
    entry, which takes the time of the last merged, until ten are left. Mirrored step
    by step, a bucket met again among the oldest included (it is then merged into
    itself and removed, as upstream's loop does)."""
    updaters = [e for e in entries if e.operation == "Update"]
    if len(updaters) <= _MAX_UPDATE_MANAGERS:
        return entries
    by_key = {e.identifier(): e for e in entries}
    updaters.sort(key=lambda e: (int(e.time) if e.time is not None else 0, e.identifier()))
    first_of: dict[str, str] = {}
    length = len(updaters)
    for updater in updaters:
        if length <= _MAX_UPDATE_MANAGERS:
            break
        key = updater.identifier()
        current = by_key.get(key)
        if current is None:
            continue
        version = current.api_version
        first = first_of.get(version)
        if first is None:
            first_of[version] = key
            continue
        bucket = _FieldsEntry(_ANCIENT_CHANGES, "Update", version, "", _NOTHING, None)
        bucket_key = bucket.identifier()
        held = by_key.get(bucket_key) or by_key.pop(first)
        by_key[bucket_key] = bucket.with_paths(current.paths | held.paths).at(current.time)
        del by_key[key]
        length -= 1
    return list(by_key.values())


def _without_under(paths: AbstractSet[FieldPath], prefix: FieldPath) -> AbstractSet[FieldPath]:
    """``paths`` but ``prefix`` and what is below it (structured-merge-diff's
    ``RecursiveDifference``)."""
    if not prefix:
        return paths
    return {path for path in paths if path[: len(prefix)] != prefix}


def _item_label(item: Any, how: tuple[str, ...] | str) -> str | None:
    """A list item's path step: ``k:`` and its keys' values for a list map, ``v:`` and
    its value for a set (JSON, keys sorted, as structured-merge-diff's
    fieldpath/serialize-pe.go writes them); None for a list map's item that is no map."""
    if how == "set":
        return "v:" + json.dumps(item, separators=(",", ":"), sort_keys=True)
    if not is_mapping(item):
        return None
    if isinstance(how, tuple) and len(how) == 1:
        # one key (a container's name, a condition's type): its text written directly,
        # as json.dumps of the one-key map writes it (~6x faster than that dumps)
        (key,) = how
        value = item.get(key, _KEY_DEFAULTS.get(key))
        if type(value) in _SCALARS and (key in item or key in _KEY_DEFAULTS):
            return f"k:{{{json.dumps(key)}:{json.dumps(value)}}}"
    # a key the item leaves out is its schema default (an applied port's protocol: TCP),
    # as merging reads it (``_item_key``)
    ident = {k: item.get(k, _KEY_DEFAULTS.get(k)) for k in how if k in item or k in _KEY_DEFAULTS}
    return "k:" + json.dumps(ident, separators=(",", ":"), sort_keys=True)


def _granular(value: Any, keys_at: KeysAt, at: tuple[str, ...]) -> str:
    """How structured-merge-diff walks ``value`` at schema path ``at``: ``"map"`` key
    by key, ``"list"`` item by item (a list map or a set), or ``""``, one field (a
    scalar, an atomic map, struct or list)."""
    if is_mapping(value):
        return "map" if not at or keys_at(at) != "atomic" else ""
    if isinstance(value, list):
        how = keys_at(at)
        return "list" if how == "set" or (isinstance(how, tuple) and how) else ""
    return ""


def _labelled(items: list[Any], how: Any) -> dict[str, Any]:
    labelled: dict[str, Any] = {}
    for item in items:
        label = _item_label(item, how)
        if label is not None:
            labelled[label] = item
    return labelled


def _all_fields(
    value: Any, keys_at: KeysAt, at: tuple[str, ...], path: FieldPath, into: set[FieldPath]
) -> None:
    """``path`` and every field below it: what a value added or removed whole is to an
    ``Update`` (typed/compare.go: a map or list item one side lacks is a member, and
    so is each of its fields)."""
    into.add(path)
    walk = _granular(value, keys_at, at)
    if walk == "map":
        for key, inner in value.items():
            _all_fields(inner, keys_at, (*at, key), (*path, "f:" + key), into)
    elif walk == "list":
        how = keys_at(at)
        for label, item in _labelled(value, how).items():
            if how == "set":
                into.add((*path, label))
            else:
                _all_fields(item, keys_at, (*at, "[]"), (*path, label), into)


def _compared(
    old: Any, new: Any, keys_at: KeysAt
) -> tuple[AbstractSet[FieldPath], AbstractSet[FieldPath], AbstractSet[FieldPath]]:
    """The fields ``new`` added to ``old``, changed and removed (structured-merge-diff's
    typed/compare.go)."""
    added: set[FieldPath] = set()
    modified: set[FieldPath] = set()
    removed: set[FieldPath] = set()

    def walk(old: Any, new: Any, at: tuple[str, ...], path: FieldPath) -> None:
        if type(old) is type(new) and old == new:
            return  # most of an update's object: compared at C speed, not walked
        how_old, how_new = _granular(old, keys_at, at), _granular(new, keys_at, at)
        if how_old == how_new == "map":
            for key, value in new.items():
                if key in old:
                    walk(old[key], value, (*at, key), (*path, "f:" + key))
                else:
                    _all_fields(value, keys_at, (*at, key), (*path, "f:" + key), added)
            for key, value in old.items():
                if key not in new:
                    _all_fields(value, keys_at, (*at, key), (*path, "f:" + key), removed)
            return
        if how_old == how_new == "list":
            how = keys_at(at)
            olds, news = _labelled(old, how), _labelled(new, how)
            item_at = (*at, "[]")
            for label, item in news.items():
                if label not in olds:
                    _all_fields(item, keys_at, item_at, (*path, label), added)
                elif how != "set":
                    walk(olds[label], item, item_at, (*path, label))
            for label, item in olds.items():
                if label not in news:
                    _all_fields(item, keys_at, item_at, (*path, label), removed)
            return
        if how_old != how_new:
            # a map or list became a scalar or null, or the other way round: what was
            # below it went (or came); a null is an empty map or list of the schema's
            # (a Go zero value's ``containers: null`` filled is no change of the list
            # itself), anything else a change of the field
            for side, into in ((old, removed), (new, added)):
                below: set[FieldPath] = set()
                _all_fields(side, keys_at, at, path, below)
                into |= below - {path}
            if old is not None and new is not None:
                modified.add(path)
        elif not go_equal(old, new):
            modified.add(path)

    walk(old, new, (), ())
    return added, modified, removed


def _applied_fields(value: Any, keys_at: KeysAt) -> set[FieldPath]:
    """The fields of an applied object (structured-merge-diff's typed/tofieldset.go):
    its leaves (scalars, nulls, empty maps, atomic maps and lists) and its list maps'
    and sets' items; a map with fields is no member itself."""
    fields: set[FieldPath] = set()
    _add_applied_fields(value, keys_at, (), (), fields)
    return fields


#: the types of JSON's scalars: a leaf, added without a walk (most of an object)
_SCALARS = (str, int, float, bool)


def _add_applied_fields(
    value: Any, keys_at: KeysAt, at: tuple[str, ...], path: FieldPath, into: set[FieldPath]
) -> None:
    walk = _granular(value, keys_at, at)
    if walk == "map":
        for key, inner in value.items():
            child = (*path, "f:" + key)
            if type(inner) in _SCALARS or inner is None or (is_mapping(inner) and not inner):
                into.add(child)
            else:
                _add_applied_fields(inner, keys_at, (*at, key), child, into)
    elif walk == "list":
        how = keys_at(at)
        for label, item in _labelled(value, how).items():
            into.add((*path, label))
            if how != "set":
                _add_applied_fields(item, keys_at, (*at, "[]"), (*path, label), into)
    elif path:
        into.add(path)


def _projected(value: Any, trie: Mapping[str, Any], keys_at: KeysAt, at: tuple[str, ...]) -> Any:
    """``value`` cut down to the fields of the ``fieldsV1`` trie ``trie`` (a list map's
    item keeps its keys, as an applied item names them); a member with nothing below
    it whole."""
    if not any(step != "." for step in trie):
        return _copy(value)
    if is_mapping(value):
        return {
            step[2:]: _projected(value[step[2:]], below, keys_at, (*at, step[2:]))
            for step, below in trie.items()
            if step.startswith("f:") and step[2:] in value
        }
    if not isinstance(value, list):
        return _copy(value)
    how = keys_at(at)
    items = []
    for item in value:
        label = _item_label(item, how) if how else None
        if label is None or label not in trie:
            continue
        cut = _projected(item, trie[label], keys_at, (*at, "[]"))
        if isinstance(how, tuple) and isinstance(cut, dict):
            cut.update({key: item[key] for key in how if key in item})
        items.append(cut)
    return items


def _given_fields(obj: Mapping[str, Any]) -> _Entries | None:
    """The managedFields a write's body gives, as entries; None when it gives none or
    they do not decode (fieldmanager.go ``DecodeManagedFields``: the object's own are
    used then). An entry owning nothing is dropped; given no entry (``[]``, ``[{}]``),
    the object keeps none, and the write itself is not tracked (as an object with
    none: ``_fields_after``)."""
    meta = obj.get("metadata")
    given = meta.get("managedFields") if isinstance(meta, Mapping) else None
    if not isinstance(given, list):
        return None
    from kubectl_crd.model.gotime import unix_nanoseconds  # Go's time.Parse(RFC3339)

    entries: _Entries = []
    for entry in given:
        if not isinstance(entry, Mapping):
            return None
        fields = entry.get("fieldsV1") or {}
        if not isinstance(fields, Mapping) or entry.get("fieldsType", "FieldsV1") != "FieldsV1":
            return None
        stamp = entry.get("time")
        instant = unix_nanoseconds(stamp) if isinstance(stamp, str) else None
        if stamp and instant is None:
            return None  # metav1.Time's UnmarshalJSON refuses it
        seconds = instant / 1e9 if instant is not None else None
        paths = frozenset(_fields_v1_paths(fields, ()))
        if paths:
            entries.append(
                _FieldsEntry(
                    str(entry.get("manager") or ""),
                    str(entry.get("operation") or ""),
                    str(entry.get("apiVersion") or ""),
                    str(entry.get("subresource") or ""),
                    paths,
                    seconds,
                )
            )
    entries.sort(key=_FieldsEntry.order)
    return entries


def _fields_v1_paths(trie: Mapping[str, Any], at: FieldPath) -> Iterator[FieldPath]:
    """The paths of a ``fieldsV1`` trie (``_fields_v1``'s inverse): its leaves, and a
    node holding ``"."``."""
    for step, below in trie.items():
        if step == ".":
            yield at
        elif isinstance(below, Mapping) and below:
            yield from _fields_v1_paths(below, (*at, step))
        else:
            yield (*at, step)


def _fields_v1(paths: frozenset[FieldPath]) -> dict[str, Any]:
    """A field set as ``fieldsV1`` writes it (fieldpath/serialize.go): a trie of path
    steps; a path that is a member and has fields below it holds ``".": {}`` too."""
    root: dict[str, Any] = {}
    members = []
    for path in paths:
        node = root
        for step in path:
            node = node.setdefault(step, {})
        members.append(node)
    for node in members:
        if node and "." not in node:
            node["."] = {}
    return root
