"""Our plaintext equals what kubectl 1.33 printed for the Widget CRD (data/golden.json).

The Widget CRD (data/widgets.yaml) was made to hit every branch of kubectl's
template; the golden output was captured from the real kubectl and API server, so a
change here that breaks byte equality fails without needing a cluster.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import FieldNotFoundError
from kubectl_crd.model.explain import render_header, render_plaintext, resolve_target
from tests.unit.explain.conftest import golden_cases


def _parse(args: list[str]) -> tuple[str, bool, str | None]:
    argument = next(a for a in args if not a.startswith("-"))
    recursive = "--recursive" in args
    api_version = next((a.split("=", 1)[1] for a in args if a.startswith("--api-version=")), None)
    return argument, recursive, api_version


@pytest.mark.parametrize("case", golden_cases(), ids=lambda c: " ".join(c["args"]))
def test_plaintext_matches_kubectl(case: dict[str, Any], widgets: CustomResourceDefinition) -> None:
    argument, recursive, api_version = _parse(case["args"])
    if case["exit"] == 0:
        target = resolve_target([widgets], argument, api_version=api_version)
        assert render_plaintext(target, recursive=recursive) == case["stdout"]
        return
    with pytest.raises(FieldNotFoundError) as excinfo:
        resolve_target([widgets], argument, api_version=api_version)
    error = excinfo.value
    assert error.gvk is not None
    # kubectl prints the header before it notices, then one line on stderr.
    assert render_header(error.gvk) == case["stdout"]
    assert f"error: {error}".splitlines()[0] == case["stderr"]
    assert case["exit"] == 1
