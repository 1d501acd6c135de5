"""The public surface of ``kubectl_crd.io`` is deliberate: pinned here."""

from __future__ import annotations

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
            "cache_dir",
            "copy_tree",
            "dump_yaml",
            "expand_lists",
            "expand_paths",
            "is_list_object",
            "load_documents",
            "load_documents_cached",
            "locate",
            "locate_field",
            "read_inputs",
            "reload_with_positions",
        ]
    )
    for name in io_package.__all__:
        assert getattr(io_package, name) is not None
