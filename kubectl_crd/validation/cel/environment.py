"""The CEL environment of CRD validation rules, built once per process.

``apiserver/pkg/cel/environment/base.go``: the libraries by release; this module
registers every ``library`` module's functions with the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from cel_expr_python import cel
from cel_expr_python.ext import ext_optional, ext_strings


@cache
def _extensions() -> tuple[Any, ...]:
    return (ext_strings.ExtStrings(), ext_optional.ExtOptional())


def build_environment(variables: Mapping[str, Any]) -> Any:
    """A ``cel.Env`` with ``variables`` (name to ``cel.Type``) and every library."""
    return cel.NewEnv(variables=dict(variables), extensions=list(_extensions()))
