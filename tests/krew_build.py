"""hack/build_krew.py as a module, for the tests of the krew archives (tests/unit/ship,
tests/integration/test_krew.py). It lives in hack/ because it is a release tool, not part
of the package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = ROOT / "plugins" / "kubectl-crd"


def _load():  # type: ignore[no-untyped-def]
    name = "kubectl_crd_build_krew"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "hack" / "build_krew.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


build_krew = _load()
