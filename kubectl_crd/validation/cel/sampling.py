"""One rule against one value, for ``kubectl crd sample``'s ``RuleCheck``.

The sample generator (model code, which cannot import the engine) tries candidate
values and asks whether a node's rule holds; the command hands it ``rule_holds``.
Same programs and value typing as the validation stage; a rule that does not compile
is ``None`` (unknown), a runtime error ``False`` (the server refuses the object).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from kubectl_crd.validation.cel.programs import CompiledRule, compile_rule, run
from kubectl_crd.validation.cel.tree import Rule
from kubectl_crd.validation.cel.values import to_cel
from kubectl_crd.validation.schemas import compile_schema


@lru_cache(maxsize=4096)
def _compiled(rule: str) -> CompiledRule:
    return compile_rule(Rule(rule))


def rule_holds(
    rule: str, value: Any, schema: Mapping[str, Any], resource_root: bool = False
) -> bool | None:
    compiled = _compiled(rule)
    if compiled.error or compiled.transition:
        return None
    data = {"self": to_cel(value, compile_schema(schema), resource_root), "__hasOldSelf": False}
    outcome = run(compiled.program, data)
    if outcome.error:
        return False
    return outcome.value if isinstance(outcome.value, bool) else None
