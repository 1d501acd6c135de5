"""Inputs that atheris (``atheris_yaml.py``, coverage-guided) found to crash the YAML
readers, kept as regression cases under the same property as ``test_fuzz_yaml.py``.

- 2026-11-26, 50,437 inputs, < 2 min: a double-quoted scalar with an unknown escape
  below lines broken by a lone carriage return. libyaml's mark counts "\\r" as a line
  break; ``loading._reads_as_go_yaml`` split on "\\n" only and indexed past the end
  (IndexError: ``kubectl crd validate -f`` of an 18-byte file exited 3, "internal
  error"). Now a one-line YamlError, and the ``\\'`` escape go-yaml reads is found on
  such lines too.
"""

from __future__ import annotations

import pytest

from kubectl_crd.io.loading import load_documents
from tests.unit.fuzz.test_fuzz_yaml import _read_all_ways

#: the crashing input as atheris saved it (a mutated examples/ manifest)
FOUND = b'# sample-controller\'s Foo (k8s.io/salidat the same "unapproved" value\n    api-approved.kubernetes.io: "unapproved, experomental-\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n        type: integer\n                  format: int32\n     \n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n     %%%%%%%%%%%%%%%%%%%\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r% t\\Se: integer\n                  format: int64\n'


@pytest.mark.parametrize(
    "data",
    [FOUND, b'a: 1\r\r\rb: "\\q"\n', b'a: 1\r\nb: "x\\%"\n', 'a: 1\x85b: "\\q"\n'.encode()],
)
def test_an_unknown_escape_below_carriage_returns_is_a_one_line_error(data: bytes) -> None:
    _read_all_ways(data)
    (document,) = load_documents(data, "in.yaml")[-1:]
    assert document.error is not None
    assert "found unknown escape character" in str(document.error)


def test_the_go_yaml_quote_escape_below_carriage_returns_reads() -> None:
    # go-yaml v2 reads "\\'" as a quote; libyaml refuses it and the loader reads the
    # chunk again with the pure-Python parser, also when "\\r" breaks the lines above
    (document,) = load_documents(b'a: 1\r\rb: "it\\\'s"\n', "in.yaml")
    assert document.error is None
    assert dict(document.content) == {"a": 1, "b": "it's"}
