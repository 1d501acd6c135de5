"""The public surface of ``kubectl_crd.io`` is deliberate: pinned here."""

from __future__ import annotations

import subprocess
import sys

import pytest

import kubectl_crd.io as io_package


def test_public_names() -> None:
    assert sorted(io_package.__all__) == sorted(
        [
            "EXTENSIONS",
            "MAX_DEPTH",
            "STDIN",
            "STDIN_SOURCE",
            "Document",
            "YamlList",
            "YamlMap",
            "add_mark",
            "cache_dir",
            "copy_tree",
            "dump_yaml",
            "expand_lists",
            "expand_paths",
            "files_defining_crds",
            "has_mark",
            "input_documents",
            "is_list_object",
            "load_documents",
            "load_documents_cached",
            "load_value",
            "locate",
            "locate_field",
            "read_inputs",
            "require_paths",
            "reload_with_positions",
            "store_value",
        ]
    )
    for name in io_package.__all__:
        assert getattr(io_package, name) is not None


def test_names_are_imported_on_first_use() -> None:
    # A cache hit (``explain --crd``) must not pay for the YAML decoder's modules.
    script = (
        "import sys\n"
        "from kubectl_crd.io import Document, load_documents_cached\n"
        "assert 'kubectl_crd.io.loading' not in sys.modules\n"
        "from kubectl_crd.io import load_documents, loading\n"
        "assert loading.load_documents is load_documents\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        io_package.no_such_name  # noqa: B018
