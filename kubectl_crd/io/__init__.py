"""Reading inputs: multi-document YAML/JSON that remembers where every node came from.

Values are decoded the way Kubernetes decodes them (go-yaml v2 and a JSON round
trip, see ``scalars``), every mapping and sequence knows the file, line and column of
its parts (``YamlMap``, ``YamlList``, ``locate``), and a document that cannot be read
is a ``Document`` with an ``error``, never an exception. ``dump_yaml`` writes plain
data back as YAML. Importing this package does not import ruamel.yaml; parsing and
dumping do, on first use.
"""

from kubectl_crd.io.caching import cache_dir, load_documents_cached, reload_with_positions
from kubectl_crd.io.documents import Document, expand_lists, is_list_object
from kubectl_crd.io.dumping import dump_yaml
from kubectl_crd.io.inputs import EXTENSIONS, STDIN, STDIN_SOURCE, expand_paths, read_inputs
from kubectl_crd.io.loading import MAX_DEPTH, load_documents
from kubectl_crd.io.positions import YamlList, YamlMap, copy_tree, locate, locate_field

__all__ = [
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
