"""What the local store differentials of built-in writes compare, written once.

A write's answer is the refusal's status code, reason, message and each cause's
(field, reason, message), or what the write stored (each module picks the part and
masks what each side makes its own: uids, allocated addresses and ports); a case's
body is a spec with fields changed or removed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kubectl_crd.kube.client import ApiError, KubeClient
from kubectl_crd.kube.resources import ResourceClient
from kubectl_crd.reconcile.backends import ResourceInfo
from kubectl_crd.reconcile.localstore import ObjectStore

#: a value holding what %q and json.Marshal write differently: DEL, a no-break space, a
#: zero-width space (escaped by %q, not by JSON), a tab, and HTML's & and < (escaped by
#: JSON). field.Error.ErrorBody quotes a plain string's bad value, and json.Marshals a
#: named string type's (core.Protocol, batch.CompletionMode, ...)
ODD = "a\x7fb\u00a0c\u200bd\te&f<g"

#: a write's answer, of the call that makes it
Answer = Callable[[Callable[[], dict[str, Any]]], tuple[Any, ...]]
#: an update's change of the object read back
Edit = Callable[[dict[str, Any]], dict[str, Any]]


def answer(
    call: Callable[[], dict[str, Any]], stored: Callable[[dict[str, Any]], tuple[Any, ...]]
) -> tuple[Any, ...]:
    """``call``'s refusal as (code, reason, message, causes), or ``("accepted",
    *stored(object))``."""
    try:
        written = call()
    except ApiError as exc:
        status = exc.status_object or {}
        causes = [
            (each.get("field"), each.get("reason"), each.get("message"))
            for each in (status.get("details") or {}).get("causes") or ()
        ]
        return (exc.status, status.get("reason"), status.get("message"), causes)
    return ("accepted", *stored(written))


def spec_answer(call: Callable[[], dict[str, Any]]) -> tuple[Any, ...]:
    """A write's outcome (``answer``): the spec stored."""
    return answer(call, lambda stored: (stored.get("spec"),))


def spec_set(labels: Any = None, **fields: Any) -> Edit:
    """An edit setting the spec's fields (``None``: removed) and, given, the labels."""

    def edit(obj: dict[str, Any]) -> dict[str, Any]:
        obj["spec"] = changed(obj["spec"], fields)
        if labels is not None:
            obj["metadata"] = copy.deepcopy(obj["metadata"]) | {"labels": labels}
        return obj

    return edit


def changed(spec: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``spec`` with ``changes``' fields set (``None``: removed)."""
    spec = copy.deepcopy(spec)
    for key, value in changes.items():
        if value is None:
            spec.pop(key, None)
        else:
            spec[key] = copy.deepcopy(value)
    return spec


def check(problems: list[str], what: str, server: tuple[Any, ...], ours: tuple[Any, ...]) -> None:
    """A case named ``valid...`` must be accepted by the server, any other refused (or
    the case is not what it says), and the store must answer as the server did."""
    if what.startswith("valid") != (server[0] == "accepted"):
        problems.append(f"{what}: the server answered {server[:3]} (the case is wrong)")
    if ours != server:
        problems.append(f"{what}:\n  server {server}\n  store  {ours}")


@dataclass(frozen=True)
class Sides:
    """One resource on the server (``server``) and in an ``ObjectStore`` (``info``)."""

    server: ResourceClient
    store: ObjectStore
    info: ResourceInfo
    namespace: str

    @classmethod
    def of(cls, client: KubeClient, namespace: str, group: str, kind: str, plural: str) -> Sides:
        store = ObjectStore()
        server = ResourceClient(client, group, "v1", plural, namespaced=True, namespace=namespace)
        return cls(
            server, store, store.resolve(f"{group}/v1/{kind}" if group else f"v1/{kind}"), namespace
        )

    def creates(self, answer: Answer, cases: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Each (what, body) created on both sides: the problems ``check`` finds."""
        problems: list[str] = []
        for what, body in cases:
            theirs = answer(lambda body=body: self.server.create(body))
            ours = answer(
                lambda body=body: self.store.create(self.info, body, namespace=self.namespace)
            )
            check(problems, what, theirs, ours)
        return problems

    def updates(self, answer: Answer, cases: list[tuple[str, dict[str, Any], Edit]]) -> list[str]:
        """Each (what, body, edit) created on both sides, then the object read back,
        edited, updated: the problems ``check`` finds of the updates."""
        problems: list[str] = []
        for what, body, edit in cases:
            answers = []
            for old, update in (
                (self.server.create(body), self.server.update),
                (
                    self.store.create(self.info, body, namespace=self.namespace),
                    lambda b: self.store.update(self.info, b),
                ),
            ):
                new = edit(copy.deepcopy(old))
                answers.append(answer(lambda new=new, update=update: update(new)))
            check(problems, what, *answers)
        return problems


def assert_agree(problems: list[str], cases: int, what: str) -> None:
    """Print how many writes were compared (each of ``cases`` on the server and in the
    store), then fail with the problems ``check`` found."""
    print(f"{2 * cases} writes compared: {cases} {what}, on the server and the store")
    assert problems == [], f"{len(problems)} of {cases}:\n" + "\n".join(problems)
