"""The reconciler loader: declarations, one-line errors with a caret, results normalised,
and each load isolated (fresh helpers, a failed load leaving ``sys.modules`` as it was)."""

from __future__ import annotations

import datetime
import os
import sys
import textwrap
import traceback  # noqa: F401  (loaded before the sys.modules comparisons below)
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.model.errors import ReconcilerLoadError, ReconcilerResultError
from kubectl_crd.reconcile import Result
from kubectl_crd.reconcile.loading import (
    Finalization,
    LoadedReconciler,
    load_reconciler,
    parse_resource,
)

FOR = 'FOR = "foos.samplecontroller.k8s.io/v1alpha1"\n'


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # messages show paths relative to the working directory
    monkeypatch.chdir(tmp_path)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def load_error(path: Path) -> ReconcilerLoadError:
    with pytest.raises(ReconcilerLoadError) as caught:
        load_reconciler(str(path))
    return caught.value


def dev_modules() -> set[str]:
    return {name for name in sys.modules if name.startswith("kubectl_crd_dev_")}


# -- declarations ----------------------------------------------------------------------


def test_declarations_are_read(tmp_path: Path) -> None:
    write(
        tmp_path / "rec.py",
        """\
        FOR = "foos.samplecontroller.k8s.io/v1alpha1"
        OWNS = ["apps/v1/Deployment", "v1/ConfigMap"]
        WATCHES = {"v1/Secret": lambda secret: [secret["metadata"]["name"]]}

        def reconcile(obj, ctx):
            return None

        def finalize(obj, ctx):
            return True
        """,
    )
    loaded = load_reconciler("rec.py")
    assert loaded.for_resource == parse_resource("foos.samplecontroller.k8s.io/v1alpha1")
    assert loaded.for_resource.name == "foos"
    assert loaded.for_resource.api_version == "samplecontroller.k8s.io/v1alpha1"
    assert [str(spec) for spec in loaded.owns] == ["apps/v1/Deployment", "v1/ConfigMap"]
    assert [(spec.api_version, spec.name, spec.is_kind) for spec in loaded.owns] == [
        ("apps/v1", "Deployment", True),
        ("v1", "ConfigMap", True),
    ]
    assert [str(spec) for spec, _ in loaded.watches] == ["v1/Secret"]
    assert [str(spec) for spec in loaded.resources] == [
        "foos.samplecontroller.k8s.io/v1alpha1",
        "apps/v1/Deployment",
        "v1/ConfigMap",
        "v1/Secret",
    ]
    assert loaded.has_finalize and not loaded.sync_hook and not loaded.finalize_hook
    assert loaded.watched_files == (str(tmp_path / "rec.py"),)


@pytest.mark.parametrize(
    ("text", "group", "version", "name", "is_kind"),
    [
        (
            "foos.samplecontroller.k8s.io/v1alpha1",
            "samplecontroller.k8s.io",
            "v1alpha1",
            "foos",
            False,
        ),
        ("apps/v1/Deployment", "apps", "v1", "Deployment", True),
        ("v1/ConfigMap", "", "v1", "ConfigMap", True),
        ("v1/configmaps", "", "v1", "configmaps", False),
        ("configmaps/v1", "", "v1", "configmaps", False),
        ("deployments.apps/v1", "apps", "v1", "deployments", False),
        ("example.com/v2beta1/Widget", "example.com", "v2beta1", "Widget", True),
    ],
)
def test_resource_forms(text: str, group: str, version: str, name: str, is_kind: bool) -> None:
    spec = parse_resource(text)
    assert (spec.group, spec.version, spec.name, spec.is_kind) == (group, version, name, is_kind)
    assert str(spec) == text


@pytest.mark.parametrize(
    "text", ["foos", "apps/Deployment", "a/b/c/d", "Foos.example.com/v1", "foos.example.com/", ""]
)
def test_resource_forms_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a resource: write plural\.group/version"):
        parse_resource(text)


def test_missing_for(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", "def reconcile(obj, ctx):\n    pass\n")
    assert str(load_error(tmp_path / "rec.py")) == (
        "rec.py: no FOR: declare FOR = 'plural.group/version' "
        "(as 'foos.samplecontroller.k8s.io/v1alpha1') and def reconcile(obj, ctx)"
    )


def test_bad_owns_points_at_the_value(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR + 'OWNS = ["apps/Deployment"]\ndef reconcile(obj, ctx): pass\n')
    error = load_error(tmp_path / "rec.py")
    assert str(error).splitlines() == [
        "rec.py:2:8: OWNS: 'apps/Deployment' is not a resource: write plural.group/version "
        "(foos.example.com/v1), group/version/Kind (apps/v1/Deployment) or version/Kind "
        "(v1/ConfigMap)",
        '    OWNS = ["apps/Deployment"]',
        "           ^^^^^^^^^^^^^^^^^^^",
    ]
    assert (error.location.line, error.location.column) == (2, 8)  # type: ignore[union-attr]


def test_owns_not_a_list(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR + "OWNS = 3\ndef reconcile(obj, ctx): pass\n")
    assert str(load_error(tmp_path / "rec.py")).splitlines()[0] == (
        "rec.py:2:8: OWNS is an int; use a list like ['apps/v1/Deployment']"
    )


def test_bad_watches(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR + 'WATCHES = {"v1/Secret": 5}\ndef reconcile(obj, ctx): pass\n')
    assert str(load_error(tmp_path / "rec.py")).splitlines()[0] == (
        "rec.py:2:11: WATCHES['v1/Secret'] is not a function of one object (obj) -> parents"
    )


def test_missing_reconcile(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR)
    assert str(load_error(tmp_path / "rec.py")).startswith("rec.py: no reconcile function: ")


def test_reconcile_not_callable(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR + "reconcile = 3\n")
    assert str(load_error(tmp_path / "rec.py")).splitlines() == [
        "rec.py:2:13: reconcile is an int, not a function; a reconciler takes (obj, ctx) or "
        "(obj); a metacontroller sync hook is def sync(request)",
        "    reconcile = 3",
        "                ^",
    ]


def test_reconcile_wrong_arity(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR + "\ndef reconcile(obj, ctx, extra):\n    return None\n")
    assert str(load_error(tmp_path / "rec.py")).splitlines() == [
        "rec.py:3:1: reconcile takes (obj, ctx, extra); a reconciler takes (obj, ctx) or "
        "(obj); a metacontroller sync hook is def sync(request)",
        "    def reconcile(obj, ctx, extra):",
        "    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
    ]


def test_missing_file(tmp_path: Path) -> None:
    assert str(load_error(tmp_path / "nope.py")) == "nope.py: no such file or directory"


def test_a_directory_or_an_objects_file_is_not_a_reconciler(tmp_path: Path) -> None:
    # a YAML file given as FILE was a SyntaxError at its first key; a JSON one, Python
    # syntax, was "no FOR"; a directory, "is a directory"
    write(tmp_path / "foo.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
    write(tmp_path / "foo.json", '{"apiVersion": "v1", "kind": "ConfigMap"}\n')
    (tmp_path / "dir").mkdir()
    for name in ("foo.yaml", "foo.json"):
        assert str(load_error(tmp_path / name)) == (
            f"{name}: not a Python file: the reconciler is a .py file (objects go in the "
            "--local DIR, or on the cluster)"
        )
    assert str(load_error(tmp_path / "dir")) == (
        "dir: is a directory: the reconciler is a .py file"
    )


# -- errors while importing ------------------------------------------------------------


def test_syntax_error_with_caret(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR + "def reconcile(obj, ctx):\n    x = = 1\n")
    error = load_error(tmp_path / "rec.py")
    # Python's own traceback shows the same line and caret
    assert str(error) == "rec.py:3:9: SyntaxError: invalid syntax\n    x = = 1\n        ^"
    assert "loading.py" not in str(error) and error.__cause__ is None


def test_syntax_error_in_a_helper_module_is_placed_there(tmp_path: Path) -> None:
    write(tmp_path / "helpers.py", "def f(:\n    pass\n")
    write(tmp_path / "rec.py", "import helpers\n" + FOR + "def reconcile(obj, ctx): pass\n")
    error = load_error(tmp_path / "rec.py")
    assert str(error).splitlines()[0] == "helpers.py:1:7: SyntaxError: invalid syntax"
    assert "helpers" not in sys.modules


def test_import_error(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", "import os\nimport nosuch_module_xyz\n")
    assert str(load_error(tmp_path / "rec.py")).splitlines() == [
        "rec.py:2:1: ModuleNotFoundError: No module named 'nosuch_module_xyz'",
        "    import nosuch_module_xyz",
        "    ^^^^^^^^^^^^^^^^^^^^^^^^",
    ]


def test_exception_at_import_in_a_helper(tmp_path: Path) -> None:
    write(tmp_path / "helpers.py", "values = {}\n\nTABLE = values['missing']\n")
    write(tmp_path / "rec.py", "import helpers\n" + FOR + "def reconcile(obj, ctx): pass\n")
    assert str(load_error(tmp_path / "rec.py")).splitlines() == [
        "helpers.py:3:9: KeyError: 'missing'",
        "    TABLE = values['missing']",
        "            ^^^^^^^^^^^^^^^^^",
    ]


def test_system_exit_at_import_is_a_load_error(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", "import sys\nsys.exit(4)\n")
    assert str(load_error(tmp_path / "rec.py")).splitlines()[0] == "rec.py:2:1: SystemExit: 4"


# -- isolation -------------------------------------------------------------------------


def test_two_versions_of_one_file_coexist(tmp_path: Path) -> None:
    path = write(
        tmp_path / "rec.py", FOR + "def reconcile(obj, ctx):\n    return {'status': {'v': 1}}\n"
    )
    first = load_reconciler(str(path))
    write(path, FOR + "def reconcile(obj, ctx):\n    return {'status': {'v': 2}}\n")
    second = load_reconciler(str(path))
    assert first.module is not second.module
    assert first.module.__name__ != second.module.__name__
    assert first.module.__name__.startswith("kubectl_crd_dev_")
    assert first.module.__name__.endswith(".rec")
    assert first.call({}, None).status == {"v": 1}
    assert second.call({}, None).status == {"v": 2}


def test_an_edited_helper_is_imported_afresh(tmp_path: Path) -> None:
    write(tmp_path / "helpers.py", "VALUE = 1\n")
    write(tmp_path / "pkg" / "__init__.py", "")
    write(tmp_path / "pkg" / "deep.py", "WORD = 'a'\n")
    path = write(
        tmp_path / "rec.py",
        """\
        import helpers
        from pkg import deep
        FOR = "foos.samplecontroller.k8s.io/v1alpha1"
        def reconcile(obj, ctx):
            return {"status": {"v": helpers.VALUE, "w": deep.WORD}}
        """,
    )
    first = load_reconciler(str(path))
    assert set(first.watched_files) == {
        str(path),
        str(tmp_path / "helpers.py"),
        str(tmp_path / "pkg" / "__init__.py"),
        str(tmp_path / "pkg" / "deep.py"),
    }
    # the same size, within the same second: a .pyc would be trusted and stale
    write(tmp_path / "helpers.py", "VALUE = 2\n")
    write(tmp_path / "pkg" / "deep.py", "WORD = 'b'\n")
    second = load_reconciler(str(path))
    assert second.call({}, None).status == {"v": 2, "w": "b"}
    assert first.call({}, None).status == {"v": 1, "w": "a"}  # old code keeps its modules
    assert not (tmp_path / "__pycache__").exists()
    assert not (tmp_path / "pkg" / "__pycache__").exists()


def test_relative_imports_of_the_directory(tmp_path: Path) -> None:
    write(tmp_path / "shared.py", "N = 1\n")
    path = write(
        tmp_path / "rec.py",
        "from . import shared\n"
        + FOR
        + "def reconcile(obj, ctx):\n    return {'requeue_after': shared.N}\n",
    )
    first = load_reconciler(str(path))
    write(tmp_path / "shared.py", "N = 5\n")
    second = load_reconciler(str(path))
    assert (first.call({}, None).requeue_after, second.call({}, None).requeue_after) == (1.0, 5.0)
    assert str(tmp_path / "shared.py") in second.watched_files


def test_directory_on_sys_path_only_while_importing(tmp_path: Path) -> None:
    path = write(
        tmp_path / "rec.py",
        "import sys\nSEEN = list(sys.path)\n" + FOR + "def reconcile(obj, ctx): pass\n",
    )
    before = list(sys.path)
    loaded = load_reconciler(str(path))
    assert os.path.realpath(tmp_path) in loaded.module.SEEN
    assert sys.path == before


def test_a_failed_load_leaves_sys_modules_as_it_was(tmp_path: Path) -> None:
    write(tmp_path / "helpers.py", "VALUE = 1\n")
    path = write(
        tmp_path / "rec.py",
        "import helpers\n"
        + FOR
        + "def reconcile(obj, ctx):\n    return {'status': {'v': helpers.VALUE}}\n",
    )
    good = load_reconciler(str(path))
    helpers_before = sys.modules["helpers"]
    before = set(sys.modules)
    # the broken edit imports a new helper, a changed one, then fails
    write(tmp_path / "helpers.py", "VALUE = 2\n")
    write(tmp_path / "other.py", "X = 1\n")
    write(path, "import helpers\nimport other\n" + FOR + "raise RuntimeError('half way')\n")
    error = load_error(path)
    assert str(error).splitlines()[0] == "rec.py:4:1: RuntimeError: half way"
    assert set(sys.modules) == before
    assert sys.modules["helpers"] is helpers_before
    assert "other" not in sys.modules
    assert good.call({}, None).status == {"v": 1}
    # a declaration error is a failed load too
    write(path, "import other\nOWNS = 1\n")
    load_error(path)
    assert set(sys.modules) == before


def test_sys_modules_holds_only_the_latest_helpers(tmp_path: Path) -> None:
    write(tmp_path / "helpers.py", "VALUE = 1\n")
    path = write(tmp_path / "rec.py", "import helpers\n" + FOR + "def reconcile(obj, ctx): pass\n")
    load_reconciler(str(path))
    first = sys.modules["helpers"]
    second_load = load_reconciler(str(path))
    assert sys.modules["helpers"] is not first
    assert second_load.module.helpers is sys.modules["helpers"]


# -- results ---------------------------------------------------------------------------


def loaded_returning(tmp_path: Path, expression: str) -> LoadedReconciler:
    path = write(
        tmp_path / "rec.py",
        "import datetime\nfrom kubectl_crd.reconcile import Result\n"
        + FOR
        + f"\ndef reconcile(obj, ctx):\n    return {expression}\n",
    )
    return load_reconciler(str(path))


CHILD = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("None", Result()),
        ("{}", Result()),
        ("{'status': {'ready': True}}", Result(status={"ready": True})),
        ("{'requeue_after': 3}", Result(requeue_after=3.0)),
        ("{'requeue_after': datetime.timedelta(minutes=1)}", Result(requeue_after=60.0)),
        (f"{{'children': [{CHILD!r}]}}", Result(children=(CHILD,))),
        (f"{{'children': ({CHILD!r} for _ in range(2))}}", Result(children=(CHILD, CHILD))),
        (
            f"Result(children=[{CHILD!r}], requeue_after=1)",
            Result(children=(CHILD,), requeue_after=1.0),
        ),
        ("{'children': None, 'status': None}", Result()),
    ],
)
def test_results_are_normalised(tmp_path: Path, expression: str, expected: Result) -> None:
    result = loaded_returning(tmp_path, expression).call({}, None)
    assert isinstance(result, Result)
    assert result == expected


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        (
            "[obj]",
            "reconcile returned a list; expected None, a Result, or a dict with children, status, requeue_after",
        ),
        (
            "'done'",
            "reconcile returned a str; expected None, a Result, or a dict with children, status, requeue_after",
        ),
        (
            "{'childs': [], 'state': 1}",
            "reconcile returned a dict with unknown keys 'childs', 'state' (allowed: children, status, requeue_after)",
        ),
        ("{'children': {'a': 1}}", "reconcile returned children as a dict; use a list of objects"),
        (
            "{'children': ['x']}",
            "reconcile returned children[0] as a str; a child is an object (a dict)",
        ),
        (
            "{'children': [{'kind': 'ConfigMap'}]}",
            "reconcile returned children[0] without apiVersion, metadata.name",
        ),
        ("{'status': 'ok'}", "reconcile returned status as a str; use a dict or None"),
        (
            "{'requeue_after': '5s'}",
            "reconcile returned requeue_after '5s'; use a number of seconds",
        ),
        (
            "{'requeue_after': True}",
            "reconcile returned requeue_after True; use a number of seconds",
        ),
        ("{'requeue_after': -1}", "reconcile returned requeue_after -1; use 0 or more"),
    ],
)
def test_bad_results_name_the_type_and_the_function(
    tmp_path: Path, expression: str, message: str
) -> None:
    loaded = loaded_returning(tmp_path, expression)
    with pytest.raises(ReconcilerResultError) as caught:
        loaded.call({}, None)
    assert str(caught.value) == f"rec.py:5: {message}"


def test_user_exceptions_pass_through_with_the_users_frame(tmp_path: Path) -> None:
    write(tmp_path / "helpers.py", "def ratio(obj):\n    return 1 / obj['spec']['zero']\n")
    path = write(
        tmp_path / "rec.py",
        "import helpers\n"
        + FOR
        + "def reconcile(obj, ctx):\n    return {'requeue_after': helpers.ratio(obj)}\n",
    )
    loaded = load_reconciler(str(path))
    with pytest.raises(ZeroDivisionError) as caught:
        loaded.call({"spec": {"zero": 0}}, None)
    frame = loaded.user_frame(caught.value)
    assert frame is not None
    assert (frame.file, frame.line, frame.column) == ("helpers.py", 2, 12)
    assert frame.source_line == "return 1 / obj['spec']['zero']"
    assert frame.caret == "       ^^^^^^^^^^^^^^^^^^^^^^^"
    text = loaded.user_traceback(caught.value)
    assert text.startswith(
        f'Traceback (most recent call last):\n  File "{path}", line 4, in reconcile\n'
    )
    assert "loading.py" not in text
    assert text.endswith("ZeroDivisionError: division by zero\n")


def test_a_frame_outside_the_users_files_is_not_theirs(tmp_path: Path) -> None:
    loaded = loaded_returning(tmp_path, "None")
    try:
        {}["x"]
    except KeyError as error:
        assert loaded.user_frame(error) is None


# -- finalize and watches --------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("None", Finalization(Result(), True)),
        ("True", Finalization(Result(), True)),
        ("False", Finalization(Result(), False)),
        (
            "{'finalized': False, 'requeue_after': 2}",
            Finalization(Result(requeue_after=2.0), False),
        ),
        (
            "{'status': {'phase': 'Deleting'}}",
            Finalization(Result(status={"phase": "Deleting"}), True),
        ),
        ("Result(requeue_after=1)", Finalization(Result(requeue_after=1.0), True)),
    ],
)
def test_finalize_forms(tmp_path: Path, expression: str, expected: Finalization) -> None:
    path = write(
        tmp_path / "rec.py",
        "from kubectl_crd.reconcile import Result\n"
        + FOR
        + f"def reconcile(obj, ctx): pass\ndef finalize(obj, ctx):\n    return {expression}\n",
    )
    assert load_reconciler(str(path)).finalize({}, None) == expected


def test_finalize_refuses_a_bad_finalized(tmp_path: Path) -> None:
    path = write(
        tmp_path / "rec.py",
        FOR
        + "def reconcile(obj, ctx): pass\ndef finalize(obj, ctx):\n    return {'finalized': 'yes'}\n",
    )
    with pytest.raises(
        ReconcilerResultError, match=r"^rec.py:3: finalize returned finalized 'yes'"
    ):
        load_reconciler(str(path)).finalize({}, None)


def test_watches_map_objects_to_parent_keys(tmp_path: Path) -> None:
    path = write(
        tmp_path / "rec.py",
        FOR
        + """\
WATCHES = {
    "v1/Secret": lambda secret: secret["data"]["parents"],
    "v1/ConfigMap": lambda cm: ("other", "one"),
    "v1/Service": lambda svc: None,
    "v1/Pod": lambda pod: 7,
}
def reconcile(obj, ctx): pass
""",
    )
    loaded = load_reconciler(str(path))
    secret: dict[str, Any] = {
        "metadata": {"namespace": "ns", "name": "s"},
        "data": {"parents": ["a", ("x", "b"), {"metadata": {"namespace": "y", "name": "c"}}]},
    }
    assert loaded.parents_of("v1/Secret", secret) == [("ns", "a"), ("x", "b"), ("y", "c")]
    assert loaded.parents_of(parse_resource("v1/ConfigMap"), secret) == [("other", "one")]
    assert loaded.parents_of("v1/Service", secret) == []
    with pytest.raises(
        ReconcilerResultError, match=r"^rec.py:6: <lambda> returned an int; use a list"
    ):
        loaded.parents_of("v1/Pod", secret)
    secret["data"]["parents"] = [3]
    with pytest.raises(ReconcilerResultError, match=r"<lambda> returned 3 for a parent"):
        loaded.parents_of("v1/Secret", secret)


def test_first_call_is_reported_once(tmp_path: Path) -> None:
    loaded = loaded_returning(tmp_path, "None")
    seen: list[float] = []
    loaded.on_first_call(seen.append)
    loaded.call({}, None)
    loaded.call({}, None)
    assert len(seen) == 1 and seen[0] > datetime.datetime(2020, 1, 1).timestamp()


def test_a_bad_result_is_placed_at_the_function_without_the_loops_frames(tmp_path: Path) -> None:
    loaded = loaded_returning(tmp_path, "[obj]")
    with pytest.raises(ReconcilerResultError) as caught:
        loaded.call({}, None)
    frame = loaded.user_frame(caught.value)
    assert frame is not None and (frame.file, frame.line) == ("rec.py", 5)
    assert loaded.user_traceback(caught.value) == (
        "rec.py:5: reconcile returned a list; expected None, a Result, or a dict with "
        "children, status, requeue_after\n"
    )


def test_finalizer_name(tmp_path: Path) -> None:
    path = write(
        tmp_path / "rec.py",
        FOR + "FINALIZER = 'example.com/cleanup'\ndef reconcile(obj, ctx): pass\n"
        "def finalize(obj, ctx): pass\n",
    )
    assert load_reconciler(str(path)).finalizer == "example.com/cleanup"
    write(path, FOR + "def reconcile(obj, ctx): pass\n")
    assert load_reconciler(str(path)).finalizer is None
    write(path, FOR + "FINALIZER = 'Example.com/a b'\ndef reconcile(obj, ctx): pass\n")
    assert str(load_error(path)).splitlines()[0] == (
        "rec.py:2:13: FINALIZER 'Example.com/a b' is not a finalizer name; use a qualified "
        "name, as 'example.com/cleanup'"
    )


def test_a_caret_past_the_end_of_the_line(tmp_path: Path) -> None:
    write(tmp_path / "rec.py", FOR + "def reconcile(obj, ctx)\n    pass\n")
    # as Python shows it: the caret one column past the closing parenthesis
    assert str(load_error(tmp_path / "rec.py")).splitlines() == [
        "rec.py:2:24: SyntaxError: expected ':'",
        "    def reconcile(obj, ctx)",
        "                           ^",
    ]


def test_old_loads_are_not_kept_for_the_whole_session(tmp_path: Path) -> None:
    import gc
    import weakref

    path = write(
        tmp_path / "rec.py", FOR + "BIG = bytearray(1000)\ndef reconcile(obj, ctx): pass\n"
    )
    first = load_reconciler(str(path))
    first_name = first.module.__name__
    gone = weakref.ref(first.module)
    del first
    loads = [load_reconciler(str(path)) for _ in range(4)]
    gc.collect()
    assert gone() is None  # nothing of ours holds the first load's module
    assert first_name not in sys.modules
    # the newest two loads stay importable by name (the running code and the one before)
    assert {each.module.__name__ for each in loads[-2:]} <= set(sys.modules)
    assert loads[0].module.__name__ not in sys.modules
    assert loads[0].call({}, None) == Result()  # a load that is still held keeps working


def test_a_module_of_the_tree_imported_by_someone_else_is_left_alone(tmp_path: Path) -> None:
    write(tmp_path / "owned_by_tests.py", "X = 1\n")
    path = write(tmp_path / "rec.py", FOR + "def reconcile(obj, ctx): pass\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import owned_by_tests  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
    try:
        load_reconciler(str(path))
        load_reconciler(str(path))
        assert sys.modules["owned_by_tests"] is owned_by_tests
    finally:
        del sys.modules["owned_by_tests"]


def test_a_failing_first_call_report_does_not_fail_the_reconcile(tmp_path: Path) -> None:
    loaded = loaded_returning(tmp_path, "{'status': {'ok': True}}")

    def broken(when: float) -> None:
        raise RuntimeError("sink down")

    loaded.on_first_call(broken)
    assert loaded.call({}, None) == Result(status={"ok": True})


def test_every_load_watches_the_helpers_it_imports(tmp_path: Path) -> None:
    # the second load imported helpers afresh but did not count them as its own (they
    # were in sys.modules before the load took them out), so after the first hot reload
    # an edit to a helper reloaded nothing
    write(tmp_path / "helpers.py", "VALUE = 1\n")
    write(tmp_path / "pkg" / "__init__.py", "")
    write(tmp_path / "pkg" / "deep.py", "WORD = 'a'\n")
    path = write(
        tmp_path / "rec.py",
        "import helpers\nfrom pkg import deep\n" + FOR + "def reconcile(obj, ctx): pass\n",
    )
    expected = {
        str(path),
        str(tmp_path / "helpers.py"),
        str(tmp_path / "pkg" / "__init__.py"),
        str(tmp_path / "pkg" / "deep.py"),
    }
    for _ in range(3):
        assert set(load_reconciler(str(path)).watched_files) == expected


def test_a_start_whose_import_does_not_return_says_where_it_is(tmp_path: Path) -> None:
    # at the loop's start a module-level call that never returned held it with not a
    # word (Ctrl-C was the only way out); now, after slow_after, where it is, and the
    # load goes on (here the report itself lets the module return)
    import builtins
    import threading

    release = threading.Event()
    builtins.__dict__["load_test_release"] = release
    told: list[ReconcilerLoadError] = []

    def slow(error: ReconcilerLoadError) -> None:
        told.append(error)
        release.set()

    path = write(
        tmp_path / "rec.py",
        """\
        import builtins
        builtins.__dict__["load_test_release"].wait(60)
        FOR = "foos.example.com/v1"
        def reconcile(obj):
            pass
        """,
    )
    try:
        loaded = load_reconciler(str(path), on_slow=slow, slow_after=0.1)
        assert str(loaded.for_resource) == "foos.example.com/v1"
        assert [str(error) for error in told] == [
            "rec.py:2: still loading after 0.1 s (a module-level call that does not "
            "return?); Ctrl-C to stop\n"
            '    builtins.__dict__["load_test_release"].wait(60)'
        ]
        told.clear()
        load_reconciler(str(path), on_slow=slow, slow_after=5.0)  # released: no word
        assert told == []
    finally:
        release.set()
        del builtins.__dict__["load_test_release"]


def test_a_module_found_on_a_path_the_reconciler_added_is_its_own(tmp_path: Path) -> None:
    # a helper in a directory the module puts on sys.path itself is loaded by the
    # standard finder, not the loader's: it is still the user's, watched, taken out of
    # sys.modules before the next load (its edit taken) and after a failed one
    lib = tmp_path / "lib"
    write(lib / "pathlib_helper_x.py", "VALUE = 1\n")
    text = (
        "import os, sys\n"
        "sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\n"
        "import pathlib_helper_x\n"
        "sys.path.pop(0)\n" + FOR + "def reconcile(obj):\n    return None\n"
    )
    path = write(tmp_path / "rec.py", text)
    first = load_reconciler(str(path))
    assert str(lib / "pathlib_helper_x.py") in first.watched_files
    assert first.module.pathlib_helper_x.VALUE == 1
    write(lib / "pathlib_helper_x.py", "VALUE = 2\n")
    assert load_reconciler(str(path)).module.pathlib_helper_x.VALUE == 2
    write(path, text + "x = (\n")
    with pytest.raises(ReconcilerLoadError):
        load_reconciler(str(path))
    write(lib / "pathlib_helper_x.py", "VALUE = 3\n")
    write(path, text)
    assert load_reconciler(str(path)).module.pathlib_helper_x.VALUE == 3


def test_a_hung_helper_found_on_a_path_the_reconciler_added_blocks_no_later_load(
    tmp_path: Path,
) -> None:
    # the abandoned load let go of the import locks of the modules its own loader ran
    # only: a helper the standard finder loaded (from a directory the module put on
    # sys.path) kept its lock held by the stuck thread, so every later load waited on
    # it ("still loading" at rec.py's import line, the fixed helper never taken)
    import builtins
    import threading

    release = threading.Event()
    builtins.__dict__["load_test_hold_lib"] = release
    helper = write(
        tmp_path / "lib" / "lib_hang_helper_y.py",
        "import builtins\nbuiltins.__dict__['load_test_hold_lib'].wait(60)\n",
    )
    path = write(
        tmp_path / "rec.py",
        "import os, sys\n"
        "sys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\n"
        "import lib_hang_helper_y\n"
        "sys.path.pop(0)\n" + FOR + "def reconcile(obj):\n    return None\n",
    )
    try:
        with pytest.raises(ReconcilerLoadError, match="still loading") as stuck:
            load_reconciler(str(path), timeout=0.5)
        assert stuck.value.location is not None
        place = (stuck.value.location.file, stuck.value.location.line)
        assert place == ("lib/lib_hang_helper_y.py", 2)
        write(helper, "VALUE = 3\n")
        assert load_reconciler(str(path), timeout=5.0).module.lib_hang_helper_y.VALUE == 3
    finally:
        release.set()
        del builtins.__dict__["load_test_hold_lib"]


def test_an_abandoned_load_ending_late_puts_back_nothing_a_newer_load_evicted(
    tmp_path: Path,
) -> None:
    # abandon() puts back the modules the stuck load had evicted; when that load's
    # module returned later it put them back again, over a newer load's eviction: the
    # newer load then imported the stale helper (VALUE 1 where 2 was saved)
    import builtins
    import threading

    from kubectl_crd.reconcile.loading import stuck_loads

    hold, newer_waits, newer_runs = threading.Event(), threading.Event(), threading.Event()
    builtins.__dict__["load_test_late"] = (hold, newer_waits, newer_runs)
    helper = write(tmp_path / "late_helper_w.py", "VALUE = 1\n")
    path = write(
        tmp_path / "rec.py",
        "import late_helper_w\n" + FOR + "def reconcile(obj):\n    return None\n",
    )
    assert load_reconciler(str(path)).module.late_helper_w.VALUE == 1
    write(
        path,
        "import late_helper_w, builtins\nbuiltins.__dict__['load_test_late'][0].wait(60)\n"
        + FOR
        + "def reconcile(obj):\n    return None\n",
    )
    newer: list[Any] = []
    try:
        with pytest.raises(ReconcilerLoadError, match="still loading"):
            load_reconciler(str(path), timeout=0.3)
        write(helper, "VALUE = 2\n")
        write(
            path,
            "import builtins\nbuiltins.__dict__['load_test_late'][1].set()\n"
            "builtins.__dict__['load_test_late'][2].wait(60)\nimport late_helper_w\n"
            + FOR
            + "def reconcile(obj):\n    return None\n",
        )
        caller = threading.Thread(
            target=lambda: newer.append(load_reconciler(str(path), timeout=30.0)), daemon=True
        )
        caller.start()
        assert newer_waits.wait(20.0)  # the newer load has evicted the helper and waits
        hold.set()  # the abandoned load's module returns
        deadline = datetime.datetime.now() + datetime.timedelta(seconds=20)
        while stuck_loads(str(path)) and datetime.datetime.now() < deadline:
            hold.wait(0.01)
        assert stuck_loads(str(path)) == ()
        newer_runs.set()
        caller.join(30.0)
        assert newer and newer[0].module.late_helper_w.VALUE == 2
    finally:
        hold.set()
        newer_runs.set()
        del builtins.__dict__["load_test_late"]


def test_a_bounded_load_that_begins_late_is_still_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the bound was counted from the thread's start: a load that had not begun when it
    # ran out (its thread slow to get going on a loaded machine) was then waited for
    # without one, through a module-level call that never returns
    import builtins
    import threading

    from kubectl_crd.reconcile import loading

    hold, go = threading.Event(), threading.Event()
    builtins.__dict__["load_test_begins_late"] = hold
    real = loading._UserFiles

    def slow_to_begin(root: str) -> Any:
        go.wait(20.0)
        return real(root)

    monkeypatch.setattr(loading, "_UserFiles", slow_to_begin)
    path = write(
        tmp_path / "rec.py",
        "import builtins\nbuiltins.__dict__['load_test_begins_late'].wait(60)\n"
        + FOR
        + "def reconcile(obj):\n    return None\n",
    )
    answers: list[BaseException | None] = []

    def load() -> None:
        try:
            load_reconciler(str(path), timeout=0.2)
            answers.append(None)
        except BaseException as error:
            answers.append(error)

    caller = threading.Thread(target=load, daemon=True)
    try:
        caller.start()
        hold.wait(1.0)  # the load begins 5 times its bound after its thread started
        go.set()
        caller.join(10.0)
        assert answers and isinstance(answers[0], ReconcilerLoadError), answers
        assert "still loading after 0.2 s" in str(answers[0])
    finally:
        go.set()
        hold.set()
        caller.join(70.0)
        del builtins.__dict__["load_test_begins_late"]


def test_an_abandoned_load_reads_the_users_files_with_the_loaders_lock_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a file of the user's on a file system that hangs (a stale network mount) read
    # under the loader's lock held every load behind it, the next save's included: where
    # the load is stuck (its source line) and the bytes of the files it ran that another
    # finder loaded (a directory the module put on sys.path) are read with the lock free
    import builtins
    import linecache
    import threading
    import time

    from kubectl_crd.reconcile import loading

    hold = threading.Event()
    builtins.__dict__["load_test_reads_free"] = hold
    lib = tmp_path / "lib"
    write(
        lib / "libhang.py", "import builtins\nbuiltins.__dict__['load_test_reads_free'].wait(60)\n"
    )
    path = write(
        tmp_path / "rec.py",
        f"import sys\nsys.path.insert(0, {str(lib)!r})\nimport libhang\n"
        + FOR
        + "def reconcile(obj):\n    return None\n",
    )
    reads: list[tuple[str, str, bool]] = []
    real_source, real_getline = loading._source, linecache.getline

    def source(file: str) -> bytes | None:
        reads.append(("source", os.path.basename(file), loading._LOCK.locked()))
        return real_source(file)

    def getline(file: str, line: int, *rest: Any) -> str:
        reads.append(("getline", os.path.basename(file), loading._LOCK.locked()))
        return real_getline(file, line, *rest)

    monkeypatch.setattr(loading, "_source", source)
    monkeypatch.setattr(linecache, "getline", getline)
    try:
        with pytest.raises(ReconcilerLoadError, match=r"still loading after 0\.2 s") as caught:
            load_reconciler(str(path), timeout=0.2)
        assert str(caught.value).startswith(os.path.join("lib", "libhang.py") + ":2: ")
        assert caught.value.source_line == "builtins.__dict__['load_test_reads_free'].wait(60)"
        assert {(kind, name) for kind, name, _ in reads} >= {
            ("getline", "libhang.py"),
            ("source", "libhang.py"),
        }
        assert [read for read in reads if read[2]] == []
        assert loading.stuck_loads(str(path)) == (os.path.join("lib", "libhang.py") + ":2",)
    finally:
        hold.set()
        del builtins.__dict__["load_test_reads_free"]
        if str(lib) in sys.path:
            sys.path.remove(str(lib))
        deadline = time.monotonic() + 30
        while loading.stuck_loads(str(path)) and time.monotonic() < deadline:
            hold.wait(0.01)
