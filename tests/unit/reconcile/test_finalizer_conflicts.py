"""``Controller.remove_finalizers`` (``dev --remove-finalizers-on-exit``) while others write
the objects: a 409 Conflict on the conditional patch is answered as client-go's
``retry.RetryOnConflict`` answers it, with the server's version read again (the watch may
be down). Found by the dev-loop soak: a stop while the writer ran, right after the proxy
refused connections, left 20 of 30 (and 350 of 1,000) finalizers behind."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from kubectl_crd.model.errors import ApiError
from kubectl_crd.reconcile.controller import FINALIZER, Controller
from kubectl_crd.reconcile.events import WriteFailed
from tests.unit.reconcile.fakes import WIDGETS, FakeBackend, FakeReconciler, wait_for, widget

CONFLICT = (
    'Operation cannot be fulfilled on widgets.dev.example.com "a": the object has been '
    "modified; please apply your changes to the latest version and try again"
)


@pytest.fixture
def backend() -> FakeBackend:
    backend = FakeBackend()
    backend.initial[WIDGETS] = [widget("a", finalizers=[FINALIZER])]
    return backend


@pytest.fixture
def started(backend: FakeBackend) -> Iterator[tuple[Controller, list[Any]]]:
    events: list[Any] = []
    reconciler = FakeReconciler(finalize=lambda obj, ctx: True)
    controller = Controller(backend, reconciler, events.append, workers=1)
    controller.start()  # the first list is in: "a" is queued
    wait_for(lambda: reconciler.calls == ["a"], "the first reconcile of a")
    assert controller.wait_idle(timeout=30, settle=0.05)
    yield controller, events
    controller.stop(timeout=2)


def finalizer_patches(backend: FakeBackend) -> list[dict[str, Any]]:
    return [call[3]["patch"]["metadata"] for call in backend.calls if call[0] == "patch"]


def conflict_once(backend: FakeBackend, attempts: list[str]) -> None:
    """The first patch meets a write of someone else's (the server now holds version 7,
    which no watch event brought); the next ones are let through."""

    def refuse(verb: str, obj: Mapping[str, Any]) -> Exception | None:
        if verb != "patch":
            return None
        attempts.append(obj["patch"]["metadata"]["resourceVersion"])
        if len(attempts) > 1:
            return None
        backend.stored[(WIDGETS, "ns", "a")] = widget(
            "a", rv="7", finalizers=[FINALIZER], labels={"x": "1"}
        )
        return ApiError(CONFLICT, status=409, reason="Conflict")

    backend.refuse = refuse


def test_a_conflict_is_retried_at_the_servers_version(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    controller, events = started
    attempts: list[str] = []
    conflict_once(backend, attempts)
    assert controller.remove_finalizers() == [("ns", "a")]
    assert attempts == ["1", "7"]
    assert finalizer_patches(backend) == [{"finalizers": [], "resourceVersion": "7"}]
    assert [e.status for e in events if isinstance(e, WriteFailed)] == [409]
    assert controller.stop(timeout=2).finalizers_left == ()


def refuse_every_patch(
    backend: FakeBackend, error: ApiError, at: list[float] | None = None
) -> list[str]:
    """Every patch refused with ``error``; the list grows by one per patch tried (and
    ``at`` by when it was tried, ``time.monotonic``)."""
    tried: list[str] = []

    def refuse(verb: str, obj: Mapping[str, Any]) -> Exception | None:
        if verb != "patch":
            return None
        tried.append(obj["patch"]["metadata"]["resourceVersion"])
        if at is not None:
            at.append(time.monotonic())
        return error

    backend.refuse = refuse
    return tried


def test_an_object_gone_after_the_conflict_is_left_alone(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    controller, _events = started
    # the server holds nothing now (backend.stored is empty: its read is a 404)
    tried = refuse_every_patch(backend, ApiError(CONFLICT, status=409, reason="Conflict"))
    assert controller.remove_finalizers() == []
    assert tried == ["1"]  # the read found nothing to patch
    assert ("get", "widgets", "a", {}, {}) in backend.calls


def test_conflicts_that_go_on_give_up_after_four_tries(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    controller, _events = started
    backend.stored[(WIDGETS, "ns", "a")] = widget("a", rv="7", finalizers=[FINALIZER])
    at: list[float] = []
    tried = refuse_every_patch(backend, ApiError(CONFLICT, status=409, reason="Conflict"), at)
    assert controller.remove_finalizers() == []
    assert tried == ["1", "7", "7", "7"]  # client-go's DefaultBackoff: 4 steps
    # and its waits between them, 10, 50 and 250 ms: never shorter (a load only makes
    # them longer); that the tries end, four and no more, is what bounds the stop
    gaps = [later - earlier for earlier, later in itertools.pairwise(at)]
    assert all(gap >= wait for gap, wait in zip(gaps, (0.01, 0.05, 0.25), strict=True)), gaps


def test_other_refusals_are_not_retried(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    controller, _events = started
    forbidden = ApiError('widgets "a" is forbidden', status=403, reason="Forbidden")
    tried = refuse_every_patch(backend, forbidden)
    assert controller.remove_finalizers() == []
    assert tried == ["1"]


@pytest.mark.parametrize("change", ["for", "finalizer"])
def test_a_reload_that_leaves_the_finalizer_behind_names_it_and_removes_it_on_exit(
    backend: FakeBackend, change: str
) -> None:
    # the new code reconciles another resource (or finalizes under another name): no
    # code of the loop removes the old finalizer from "a" any more. Before, the reload
    # said nothing, the stop named no object, and --remove-finalizers-on-exit left it.
    # No workers: the stop comes before the new code has reconciled "a" (with them, the
    # swap's requeue of "a" raced this test's looks; the order where the new code wins
    # is the test after this one)
    controller = Controller(backend, FakeReconciler(finalize=lambda obj, ctx: True), workers=1)
    controller.start(run_workers=False)
    new = FakeReconciler(finalize=lambda obj, ctx: True, owns=())
    if change == "for":
        new.for_resource = "v1/Secret"
    else:
        new.finalizer = "example.com/other"  # type: ignore[attr-defined]
    swapped = controller.swap(new)
    assert swapped.finalizers_left == (("ns", "a"),)
    assert controller.finalizers_left() == [("ns", "a")]
    backend.stored[(WIDGETS, "ns", "a")] = widget("a", rv="7", finalizers=[FINALIZER])
    stopped = controller.stop(timeout=5, remove_finalizers=True)
    assert (stopped.finalizers_removed, stopped.finalizers_left) == ((("ns", "a"),), ())
    (patch,) = [
        c[3]["patch"]["metadata"] for c in backend.calls if c[0] == "patch" and c[1] == "widgets"
    ]
    # the server's version where no cache follows the resource any more
    assert patch == {"finalizers": [], "resourceVersion": "7" if change == "for" else "1"}


def finalizers_patched(verb: str, answer: dict[str, Any]) -> None:
    """A patch's answer made to carry the finalizers it set, as the server's does (the
    fake's answer is the request's body): for a ``FakeBackend.on_write``."""
    finalizers = (answer.get("patch") or {}).get("metadata", {}).get("finalizers")
    if verb == "patch" and finalizers is not None:
        answer["metadata"]["finalizers"] = finalizers


def answers_with_the_finalizers_patched(backend: FakeBackend) -> None:
    backend.on_write = lambda verb, info, answer: finalizers_patched(verb, answer)


def test_an_object_the_new_code_finalizes_too_is_named_once_and_freed_of_both_on_exit(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    # the reload renames the finalizer, and the new code adds its own to "a" (the key the
    # swap requeued) before the stop: "a" carries both, each removed, and it is one
    # object the stop freed (it was named twice: (("ns", "a"), ("ns", "a")))
    controller, _events = started
    answers_with_the_finalizers_patched(backend)
    new = FakeReconciler(finalize=lambda obj, ctx: True, owns=())
    new.finalizer = "example.com/other"  # type: ignore[attr-defined]
    assert controller.swap(new).finalizers_left == (("ns", "a"),)
    wait_for(lambda: new.calls == ["a"], "the new code's reconcile of a")
    assert controller.wait_idle(timeout=30, settle=0.05)
    assert controller.finalizers_left() == [("ns", "a")]
    stopped = controller.stop(timeout=5, remove_finalizers=True)
    assert (stopped.finalizers_removed, stopped.finalizers_left) == ((("ns", "a"),), ())
    # its own finalizer added, then each removed at the version the last write answered
    assert finalizer_patches(backend) == [
        {"finalizers": [FINALIZER, "example.com/other"], "resourceVersion": "1"},
        {"finalizers": [FINALIZER], "resourceVersion": "100"},
        {"finalizers": [], "resourceVersion": "101"},
    ]


def test_a_reload_back_to_the_code_that_finalizes_takes_its_objects_over_again(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    controller, _events = started
    other = FakeReconciler(owns=())
    other.for_resource = "v1/Secret"
    assert controller.swap(other).finalizers_left == (("ns", "a"),)
    assert controller.swap(FakeReconciler(finalize=lambda obj, ctx: True)).finalizers_left == ()
    assert controller.finalizers_left() == [("ns", "a")]  # in the cache again: its own


def test_a_left_behind_finalizer_the_exit_could_not_remove_is_still_named(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    # the stop's warning is the only word the user gets about "a": a refused removal
    # must not take it off the list as a done or needless one does
    controller, _events = started
    other = FakeReconciler(owns=())
    other.for_resource = "v1/Secret"
    assert controller.swap(other).finalizers_left == (("ns", "a"),)
    backend.stored[(WIDGETS, "ns", "a")] = widget("a", rv="7", finalizers=[FINALIZER])
    forbidden = ApiError('widgets "a" is forbidden', status=403, reason="Forbidden")
    tried = refuse_every_patch(backend, forbidden)
    stopped = controller.stop(timeout=5, remove_finalizers=True)
    assert tried == ["7"]
    assert (stopped.finalizers_removed, stopped.finalizers_left) == ((), (("ns", "a"),))


def test_a_left_behind_object_found_gone_at_the_exit_is_no_longer_named(
    backend: FakeBackend, started: tuple[Controller, list[Any]]
) -> None:
    controller, _events = started
    other = FakeReconciler(owns=())
    other.for_resource = "v1/Secret"
    assert controller.swap(other).finalizers_left == (("ns", "a"),)
    backend.stored.pop((WIDGETS, "ns", "a"), None)  # deleted since: its read is a 404
    stopped = controller.stop(timeout=5, remove_finalizers=True)
    assert (stopped.finalizers_removed, stopped.finalizers_left) == ((), ())


def test_a_finalize_that_ends_after_a_reload_renamed_the_finalizer_removes_its_own() -> None:
    # the old code's finalize is still running when the reload to a finalizer of
    # another name lands: what it finished is its own finalizer's to release. Before,
    # the removal read the name from the code now loaded and patched the object's
    # finalizers unchanged, leaving it undeletable
    import threading

    backend = FakeBackend()
    deleting = widget("a", finalizers=[FINALIZER], deletionTimestamp="2026-11-27T17:00:00Z")
    backend.initial[WIDGETS] = [deleting]
    release = threading.Event()
    old = FakeReconciler(finalize=lambda obj, ctx: release.wait(30))
    controller = Controller(backend, old, lambda event: None, workers=1)
    controller.start()
    try:
        wait_for(lambda: controller.queue.processing(), "the old code's finalize of a")
        new = FakeReconciler(finalize=lambda obj, ctx: True)
        new.finalizer = "example.com/other"  # type: ignore[attr-defined]
        controller.swap(new)
        release.set()
        wait_for(lambda: finalizer_patches(backend), "the old code's removal")
        assert finalizer_patches(backend)[0]["finalizers"] == []
        # and the reload's list of objects left with it no longer names it
        wait_for(lambda: controller.finalizers_left() == [], "a no longer named")
    finally:
        release.set()
        controller.stop(timeout=5)


def test_a_finalizer_the_old_code_adds_while_a_reload_lands_is_named_too() -> None:
    # the old code's reconcile of "b" is adding its finalizer (the patch in flight) when
    # the reload to code reconciling another resource takes its list of the objects
    # left with it: the add's answer comes after it. Before, "b" was left with the
    # finalizer, undeletable, and named nowhere
    import threading

    backend = FakeBackend()
    backend.initial[WIDGETS] = [widget("b")]
    in_flight, release = threading.Event(), threading.Event()

    def hold(verb: str, obj: Mapping[str, Any]) -> Exception | None:
        if verb == "patch":
            in_flight.set()
            release.wait(30)
        return None

    backend.refuse = hold
    old = FakeReconciler(finalize=lambda obj, ctx: True)
    controller = Controller(backend, old, lambda event: None, workers=1)
    controller.start()
    try:
        assert in_flight.wait(30), "the old code's finalizer patch"
        new = FakeReconciler(owns=())
        new.for_resource = "v1/Secret"
        assert controller.swap(new).finalizers_left == ()  # not there yet
        release.set()
        wait_for(lambda: not controller.queue.processing(), "the old code's reconcile")
        assert controller.finalizers_left() == [("ns", "b")]
    finally:
        release.set()
        controller.stop(timeout=5)
