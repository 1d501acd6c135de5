"""The exception tree drawn in ``model/errors.py``'s docstring is the tree of classes."""

from __future__ import annotations

import importlib
import pkgutil
import re

import kubectl_crd
from kubectl_crd.model import errors
from kubectl_crd.model.errors import ExitCode, KubectlCrdError

_ROW = re.compile(r"^(?P<indent>[ │├└─]*)(?P<name>[A-Z]\w+)\b")


def drawn_tree() -> dict[str, str | None]:
    """class name -> parent name, read from the docstring's drawing."""
    parents: dict[str, str | None] = {}
    stack: list[tuple[int, str]] = []
    doc = errors.__doc__ or ""
    drawing = doc[doc.index("    KubectlCrdError") :].split("\n\n")[0]
    for line in drawing.splitlines():
        match = _ROW.match(line.removeprefix("    "))
        assert match, line
        depth = len(match["indent"]) // 4
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parents[match["name"]] = stack[-1][1] if stack else None
        stack.append((depth, match["name"]))
    return parents


def every_error_class() -> set[type[KubectlCrdError]]:
    for module in pkgutil.walk_packages(kubectl_crd.__path__, "kubectl_crd."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    found: set[type[KubectlCrdError]] = set()
    pending: list[type[KubectlCrdError]] = [KubectlCrdError]
    while pending:
        cls = pending.pop()
        found.add(cls)
        pending.extend(cls.__subclasses__())
    return found


def test_the_drawing_is_the_class_tree() -> None:
    classes = {cls.__name__: cls for cls in every_error_class()}
    drawn = drawn_tree()
    assert set(drawn) == set(classes)
    for name, parent in drawn.items():
        bases = [base.__name__ for base in classes[name].__bases__]
        assert bases == ([parent] if parent else ["Exception"]), name


def test_every_error_is_defined_in_the_one_module() -> None:
    for cls in every_error_class():
        assert cls.__module__ == "kubectl_crd.model.errors", cls


def test_exit_codes() -> None:
    assert errors.UsageError("x").exit_code == ExitCode.USAGE == 1  # as kubectl
    assert errors.FieldPathSyntaxError("x").exit_code == ExitCode.USAGE
    assert errors.ApiError("x").exit_code == ExitCode.ERROR == 1
    assert ExitCode.INTERNAL == 3
