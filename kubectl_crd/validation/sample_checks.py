"""The validation engine's checks, handed to ``kubectl crd sample``'s generator.

``model.sample`` is pure and cannot import the engine, so the commands that build
skeletons (``sample``, ``columns``) inject these: CEL rules, the OpenAPI stage and
RE2 patterns judged as the API server judges them. This module stays light; each
check imports its part of the engine on first use, so start-up stays fast and a
platform without the CEL engine still samples (its rules are left unevaluated,
and the skeleton's header says so).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubectl_crd.model.sample import SampleOptions


def checked_sample_options(**settings: Any) -> SampleOptions:
    """``SampleOptions`` whose candidate values the validation engine checks."""
    return SampleOptions(
        rule_check=_rule_holds, schema_check=_conforms, pattern_match=_pattern_matches, **settings
    )


def _rule_holds(
    rule: str, value: object, schema: Mapping[str, Any], resource_root: bool
) -> bool | None:
    from kubectl_crd.validation.cel.availability import engine_missing

    if engine_missing():
        return None
    from kubectl_crd.validation.cel.sampling import rule_holds

    return rule_holds(rule, value, schema, resource_root)


def _conforms(value: object, schema: Mapping[str, Any]) -> bool:
    from kubectl_crd.validation.schemas import conforms

    return conforms(value, schema)


def _pattern_matches(pattern: str, value: str) -> bool:
    from kubectl_crd.validation.regexps import pattern_matches

    return pattern_matches(pattern, value)
