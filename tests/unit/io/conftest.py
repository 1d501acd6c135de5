from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kubectl_crd.io import Document, load_documents, loading


@pytest.fixture(params=["c", "python"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Runs a test with libyaml's C parser and with ruamel's pure-Python fallback."""
    monkeypatch.setattr(loading, "BACKEND", request.param)
    yield request.param


def load(text: str, source: str = "test.yaml") -> list[Document]:
    return load_documents(text, source)


def load_one(text: str, source: str = "test.yaml") -> Document:
    documents = load_documents(text, source)
    assert len(documents) == 1, documents
    return documents[0]


def content_of(text: str) -> Any:
    document = load_one(text)
    assert document.error is None, document.error
    return document.content
