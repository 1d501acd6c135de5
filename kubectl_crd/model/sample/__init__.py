"""``kubectl crd sample``'s generator: a skeleton custom resource as pure data.

One module per step, stdlib only:

- ``skeleton``: ``build_sample`` makes the object for one CRD version (required fields,
  defaults, values that satisfy types, formats, patterns, bounds, list types and the
  ``oneOf``/``anyOf`` branches) with the comment lines per field, which
  ``io.dump_yaml`` writes as commented YAML, and ``select_version``
  picks the version as the command's ``--api-version`` asks.
- ``regex_examples``: candidate strings for an RE2 ``pattern`` (parsed with RE2's syntax).

CEL rules, the OpenAPI value validations and RE2 patterns are judged by the
``RuleCheck``, ``SchemaCheck`` and ``PatternMatch`` a caller passes in ``SampleOptions``
(the commands pass the validation engine's, ``validation.sample_checks``).

Siblings of ``model.explain``, never importing it (an import-linter contract says so).
"""

from kubectl_crd.model.sample.skeleton import (
    CelRule,
    PatternMatch,
    RuleCheck,
    Sample,
    SampleOptions,
    SchemaCheck,
    build_sample,
    select_version,
)

__all__ = [
    "CelRule",
    "PatternMatch",
    "RuleCheck",
    "Sample",
    "SampleOptions",
    "SchemaCheck",
    "build_sample",
    "select_version",
]
