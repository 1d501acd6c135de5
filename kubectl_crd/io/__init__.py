"""Reading inputs: multi-document YAML/JSON that remembers where every node came from.

Values are decoded the way Kubernetes decodes them (go-yaml v2 and a JSON round
trip, see ``model.yamlscalars``), every mapping and sequence knows the file, line and column of
its parts (``YamlMap``, ``YamlList``, ``locate``), and a document that cannot be read
is a ``Document`` with an ``error``, never an exception. ``dump_yaml`` writes plain
data back as YAML (stdlib only). ``filewatch.changes`` yields the files saved under
some paths (the only module that imports watchdog, pinned by an import-linter
contract); ``cachefiles`` says where caches live and writes their files atomically.
Importing this package does not import ruamel.yaml; parsing does, on first use; and no
name is imported before it is used (PEP 562 ``__getattr__``), so reading a cached CRD
never loads the YAML decoder's modules.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up

if TYPE_CHECKING:
    from kubectl_crd.io.caching import (
        add_mark,
        cache_dir,
        has_mark,
        load_documents_cached,
        load_value,
        reload_with_positions,
        store_value,
    )
    from kubectl_crd.io.documents import Document, expand_lists, is_list_object
    from kubectl_crd.io.dumping import dump_yaml
    from kubectl_crd.io.inputs import (
        EXTENSIONS,
        expand_paths,
        files_defining_crds,
        input_documents,
        read_inputs,
        require_paths,
    )
    from kubectl_crd.io.loading import MAX_DEPTH, load_documents
    from kubectl_crd.io.positions import YamlList, YamlMap, copy_tree, locate, locate_field
    from kubectl_crd.io.reading import STDIN, STDIN_SOURCE


__all__ = [
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
    "reload_with_positions",
    "require_paths",
    "store_value",
]

# public name -> the module under kubectl_crd.io that defines it
_HOMES = {
    "add_mark": "caching",
    "cache_dir": "caching",
    "has_mark": "caching",
    "load_documents_cached": "caching",
    "load_value": "caching",
    "reload_with_positions": "caching",
    "store_value": "caching",
    "Document": "documents",
    "expand_lists": "documents",
    "is_list_object": "documents",
    "dump_yaml": "dumping",
    "EXTENSIONS": "inputs",
    "STDIN": "reading",
    "STDIN_SOURCE": "reading",
    "expand_paths": "inputs",
    "files_defining_crds": "inputs",
    "input_documents": "inputs",
    "read_inputs": "inputs",
    "require_paths": "inputs",
    "MAX_DEPTH": "loading",
    "load_documents": "loading",
    "YamlList": "positions",
    "YamlMap": "positions",
    "copy_tree": "positions",
    "locate": "positions",
    "locate_field": "positions",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    # __import__, not importlib.import_module: importing importlib costs start-up time.
    value = getattr(__import__(f"{__name__}.{home}", fromlist=(name,)), name)
    globals()[name] = value  # later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
