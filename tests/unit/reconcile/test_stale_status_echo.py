"""A status written from a stale cache is not taken for the loop's own echo (issue 30).

Found by the 1,000-object soak through a cutting proxy (bench/soak_dev.py): once per run
one object stayed at ``spec.n`` 9176 with ``status`` {ready: 9150, observedGeneration: 11}
for good. While its watch was down, the writer changed the spec (generation 12) and a
retried reconcile, reading the cache (generation 11), wrote the status; the relist then
brought the object exactly as that status write answered, which the loop filters as the
echo of its own write, so the new spec was never reconciled. The write's answer carries
the generation the status does not observe: the key is reconciled again.

Here the watch loses the spec change outright (as a relist after an outage shows only
the latest state); the backend is the in-process store.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kubectl_crd.reconcile.controller import Controller
from kubectl_crd.reconcile.local import LocalBackend
from tests.unit.reconcile.test_localstore import GROUP, widget_crd

WIDGET = f"""\
apiVersion: {GROUP}/v1
kind: Widget
metadata:
  name: a
  namespace: ns
spec:
  size: 1
"""


class LossyBackend:
    """The local backend whose watch never delivers the spec change the test makes
    (an object at size 7 without a status)."""

    def __init__(self, inner: LocalBackend) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def list_then_watch(self, info: Any, **options: Any) -> Iterator[Any]:
        for event in self.inner.list_then_watch(info, **options):
            obj = event.object or {}
            if (obj.get("spec") or {}).get("size") == 7 and not obj.get("status"):
                continue
            yield event


class ChangesSpecUnderItself:
    """Its first reconcile changes the spec behind the loop's back (another writer)."""

    for_resource = f"widgets.{GROUP}/v1"
    owns: tuple[Any, ...] = ()
    watches: tuple[Any, ...] = ()
    has_finalize = False

    def __init__(self, backend: LocalBackend) -> None:
        self.backend = backend
        self.seen: list[int] = []

    def call(self, obj: dict[str, Any], ctx: Any) -> Any:
        from kubectl_crd.reconcile.api import Result

        size = obj["spec"]["size"]
        self.seen.append(size)
        if len(self.seen) == 1:
            info = self.backend.resolve(self.for_resource)
            self.backend.store.patch(info, "ns", "a", {"spec": {"size": 7}})
        return Result(status={"size": size})

    def parents_of(self, resource: Any, obj: Any) -> list[tuple[str, str]]:
        return []


def test_a_status_written_from_a_stale_read_is_reconciled_again(tmp_path: Path) -> None:
    (tmp_path / "crd.json").write_text(json.dumps(widget_crd()))
    (tmp_path / "a.yaml").write_text(WIDGET)
    local = LocalBackend(str(tmp_path))
    assert local.load() == []
    reconciler = ChangesSpecUnderItself(local)
    controller = Controller(LossyBackend(local), reconciler)  # type: ignore[arg-type]
    controller.start()
    try:
        assert controller.wait_idle(timeout=10, settle=0.3)
    finally:
        controller.stop()
    widget = local.store.get(local.resolve(f"widgets.{GROUP}/v1"), "ns", "a")
    assert widget["metadata"]["generation"] == 2
    # without the mend: {"size": 1, "observedGeneration": 1}, and one reconcile only
    assert widget["status"] == {"size": 7, "observedGeneration": 2}
    # reconciled again at the new spec (perhaps once more from the cache before the
    # watch brings the write's answer: level-based, and that pass writes nothing)
    assert reconciler.seen[0] == 1 and reconciler.seen[-1] == 7
