"""Objects as kubectl writes them with ``-o json`` and ``-o yaml``: the text of one
document, for ``output.printing``'s printer (which every command prints objects with).

- ``kubectl_json``: ``kubectl -o json``'s layout (``json.MarshalIndent`` with four
  spaces, keys sorted as Go sorts map keys, ``<``, ``>``, ``&`` escaped); ``compact``
  is ``json.Marshal``'s one line with the keys in the order given (a watch event);
- ``without_managed_fields``: kubectl hides ``metadata.managedFields`` unless
  ``--show-managed-fields`` (``get.go``: ``printers.OmitManagedFieldsPrinter``);
- ``kubectl_yaml``: ``kubectl -o yaml``'s bytes (``io.goyaml``: go-yaml v2's emitter).
"""

from __future__ import annotations

import json
from typing import Any


def kubectl_json(obj: Any, *, compact: bool = False) -> str:
    """kubectl's ``-o json`` text of ``obj`` (no final newline)."""
    if compact:
        text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    else:
        text = json.dumps(obj, indent=4, sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def without_managed_fields(obj: Any) -> Any:
    """``obj`` without ``metadata.managedFields`` (a shallow copy when it had them)."""
    metadata = obj.get("metadata") if isinstance(obj, dict) else None
    if not isinstance(metadata, dict) or "managedFields" not in metadata:
        return obj
    return {**obj, "metadata": {k: v for k, v in metadata.items() if k != "managedFields"}}


def kubectl_yaml(obj: Any) -> str:
    """kubectl's ``-o yaml`` text of ``obj`` (``io.goyaml``)."""
    from kubectl_crd.io.goyaml import kubectl_yaml as go_yaml

    return go_yaml(obj)
