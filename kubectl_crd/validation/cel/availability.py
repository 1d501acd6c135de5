"""Whether the CEL engine can be loaded here: it is a native wheel, not on every platform.

``pyproject.toml`` installs cel-expr-python only where wheels exist (Linux x86_64 and
aarch64, macOS, Windows x86_64); elsewhere validation goes on without the rules and
says so once per object, instead of failing to install or to start.
"""

from __future__ import annotations

from functools import cache

NOT_CHECKED = (
    "CEL rules (x-kubernetes-validations) not checked: the CEL engine (cel-expr-python) "
    "is not installed on this platform"
)


@cache
def engine_missing() -> bool:
    try:
        import cel_expr_python.cel  # noqa: F401
    except ImportError:
        return True
    return False
