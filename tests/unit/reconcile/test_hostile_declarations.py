"""A reconciler whose declarations run code (an ``OWNS`` list's ``__iter__``) or whose
modules answer attribute reads with code (a module-level ``__getattr__``, an object put
in ``sys.modules`` in a module's place) blocks no other load, keeps its load's bound,
and fails as a one-line ``file:line`` error.

The loader read the declarations holding its process-wide lock, and read each new
module's ``__file__`` with ``getattr`` under it: one that hung held every other load
(of any file) and the caller of a bounded load past its bound; one that raised escaped
as a bare exception (a traceback in the CLI) with the failed load's modules left in
``sys.modules``."""

from __future__ import annotations

import builtins
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kubectl_crd.model.errors import ReconcilerLoadError
from kubectl_crd.reconcile.loading import LoadedReconciler, load_reconciler, stuck_loads

HOLD = "hostile_declarations_hold"


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # messages show paths relative to the working directory
    before = set(sys.modules)
    yield
    # the hostile modules a load keeps (the loader holds its last generations in
    # sys.modules) answer attribute reads with code that needs this module's hold: left
    # there, they broke whatever read every module's __file__ later in the process
    # (hypothesis does, collecting constants: KeyError 'hostile_declarations_hold')
    # (the user's: the loader's packages, objects in a module's place, files of
    # tmp_path; not a library first imported meanwhile, whose classes others now hold)
    for name in set(sys.modules) - before:
        module = sys.modules.get(name)
        where = module.__dict__.get("__file__") if isinstance(module, ModuleType) else None
        if (
            name.startswith("kubectl_crd_dev_")
            or not isinstance(module, ModuleType)
            or (where is not None and Path(where).is_relative_to(tmp_path))
        ):
            sys.modules.pop(name, None)


@pytest.fixture
def hold() -> Iterator[threading.Event]:
    """An event the user's hostile code waits on; set at the end, so no thread is left."""
    event = threading.Event()
    builtins.__dict__[HOLD] = event
    try:
        yield event
    finally:
        event.set()
        del builtins.__dict__[HOLD]


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text))
    return path


def in_thread(call: Any) -> tuple[threading.Thread, list[object]]:
    answer: list[object] = []

    def run() -> None:
        try:
            answer.append(call())
        except BaseException as error:
            answer.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, answer


def test_a_declaration_that_hangs_keeps_the_bound_and_blocks_no_other_load(
    tmp_path: Path, hold: threading.Event
) -> None:
    hung = write(
        tmp_path / "hung_rec.py",
        f"""\
        import builtins

        class Owns(list):
            def __iter__(self):
                builtins.__dict__["{HOLD}"].wait(60)
                return iter(["v1/ConfigMap"])

        FOR = "foos.example.com/v1"
        OWNS = Owns()
        def reconcile(obj):
            pass
        """,
    )
    (tmp_path / "other").mkdir()
    other = write(
        tmp_path / "other" / "other_rec.py",
        'FOR = "bars.example.com/v1"\ndef reconcile(obj):\n    pass\n',
    )
    bounded, answer = in_thread(lambda: load_reconciler(str(hung), timeout=0.3))
    # the bound holds: before, the caller waited as long as __iter__ did (60 s here)
    bounded.join(20.0)
    assert not hold.is_set() and answer, "the bounded load outlived its bound"
    error = answer[0]
    assert isinstance(error, ReconcilerLoadError), error
    assert str(error).splitlines() == [
        "hung_rec.py:5: still loading after 0.3 s (a module-level call that does not "
        "return?); a save that changes a file it ran loads again",
        f'    builtins.__dict__["{HOLD}"].wait(60)',
    ]
    # and another reconciler loads while __iter__ still hangs (before: it waited too)
    other_load, other_answer = in_thread(lambda: load_reconciler(str(other), timeout=10.0))
    other_load.join(20.0)
    assert not hold.is_set() and other_answer
    assert isinstance(other_answer[0], LoadedReconciler), other_answer
    assert str(other_answer[0].for_resource) == "bars.example.com/v1"
    # __iter__ returns at last: the abandoned load ends, dropped with what it made
    hold.set()
    deadline = time.monotonic() + 20.0
    while stuck_loads(str(hung)) and time.monotonic() < deadline:
        threading.Event().wait(0.01)
    assert stuck_loads(str(hung)) == ()
    assert not [name for name in sys.modules if name.endswith(".hung_rec")]


def test_a_declaration_that_raises_is_a_one_line_error_at_its_line(tmp_path: Path) -> None:
    path = write(
        tmp_path / "raising_rec.py",
        """\
        class Owns(list):
            def __iter__(self):
                raise RuntimeError("not yet")

        FOR = "foos.example.com/v1"
        OWNS = Owns()
        def reconcile(obj):
            pass
        """,
    )
    before = set(sys.modules)
    with pytest.raises(ReconcilerLoadError) as caught:
        load_reconciler(str(path), timeout=10.0)
    assert str(caught.value).splitlines() == [
        "raising_rec.py:3:9: RuntimeError: not yet",
        '    raise RuntimeError("not yet")',
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ]
    assert set(sys.modules) - before == set()


#: a helper that puts an object in sys.modules in its place, whose attribute reads run
#: code (a lazy module); and a reconciler with a module-level __getattr__ and no __file__
LAZY_HELPER = f"""\
import builtins, sys

class _Lazy:
    def __getattr__(self, name):
        if builtins.__dict__.get("{HOLD}_raise"):
            raise RuntimeError(f"lazy {{name}}")
        builtins.__dict__["{HOLD}"].wait(60)
        raise AttributeError(name)

sys.modules[__name__] = _Lazy()
"""
GETATTR_RECONCILER = f"""\
import builtins

def __getattr__(name):
    if builtins.__dict__.get("{HOLD}_raise"):
        raise RuntimeError(f"no {{name}}")
    builtins.__dict__["{HOLD}"].wait(60)
    raise AttributeError(name)

del __file__
FOR = "foos.example.com/v1"
def reconcile(obj):
    pass
"""


@pytest.mark.parametrize("raising", [False, True], ids=["hanging", "raising"])
@pytest.mark.parametrize("shape", ["object in sys.modules", "module __getattr__"])
def test_attribute_reads_of_the_users_modules_run_none_of_their_code(
    tmp_path: Path,
    hold: threading.Event,
    monkeypatch: pytest.MonkeyPatch,
    shape: str,
    raising: bool,
) -> None:
    # the loader read each new module's __file__ with getattr, under its lock: the
    # hanging __getattr__ held the load (and every other) past its 0.3 s bound; the
    # raising one escaped as a bare RuntimeError with the load's modules left behind
    if raising:
        monkeypatch.setitem(builtins.__dict__, f"{HOLD}_raise", True)
    helper = f"lazy_helper_{'r' if raising else 'h'}_{len(shape)}"
    if shape == "object in sys.modules":
        write(tmp_path / f"{helper}.py", LAZY_HELPER)
        path = write(
            tmp_path / "rec.py",
            f'import {helper}\nFOR = "foos.example.com/v1"\ndef reconcile(obj):\n    pass\n',
        )
    else:
        path = write(tmp_path / "rec.py", GETATTR_RECONCILER)
    load, answer = in_thread(lambda: load_reconciler(str(path), timeout=0.3))
    load.join(20.0)
    assert not hold.is_set() and answer, "the load outlived its bound"
    assert isinstance(answer[0], LoadedReconciler), answer
    assert str(answer[0].for_resource) == "foos.example.com/v1"
    sys.modules.pop(helper, None)


def test_a_helper_that_puts_an_object_in_its_place_is_still_the_loads_own(
    tmp_path: Path,
) -> None:
    # a lazy module (an object in sys.modules in the helper's place) was not the
    # load's: not watched, never taken out of sys.modules, so its edit was never
    # imported (every later load found the first object), nor after a failed load
    helper = tmp_path / "lazy_helper_v.py"
    lazy = "import sys\n\nclass _Lazy:\n    VALUE = {value}\n\nsys.modules[__name__] = _Lazy()\n"
    write(helper, lazy.format(value=1))
    text = 'import lazy_helper_v\nFOR = "foos.example.com/v1"\ndef reconcile(obj):\n    pass\n'
    path = write(tmp_path / "rec.py", text)
    try:
        first = load_reconciler(str(path))
        assert first.module.lazy_helper_v.VALUE == 1
        assert str(helper) in first.watched_files
        write(helper, lazy.format(value=2))
        assert load_reconciler(str(path)).module.lazy_helper_v.VALUE == 2
        before = dict(sys.modules)
        write(helper, lazy.format(value=3) + "raise RuntimeError('broken')\n")
        with pytest.raises(ReconcilerLoadError, match="RuntimeError: broken"):
            load_reconciler(str(path))
        assert sys.modules.get("lazy_helper_v") is before["lazy_helper_v"]  # as it was
    finally:
        sys.modules.pop("lazy_helper_v", None)
