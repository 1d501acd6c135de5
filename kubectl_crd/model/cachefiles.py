"""Where kubectl-crd keeps caches, and how a cache file is written safely.

``${KUBECTL_CRD_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/kubectl-crd}``: parsed CRD files
(``io.caching``) and the cluster's discovery (``kube.discovery``) live under it. Stdlib
only, so both layers can share it.
"""

from __future__ import annotations

import os


def cache_root() -> str:
    """The kubectl-crd cache directory (it may not exist yet)."""
    root = os.environ.get("KUBECTL_CRD_CACHE_DIR")
    if root:
        return root
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "kubectl-crd")


def write_atomically(path: str, data: bytes, *, prefix: str = ".cache-") -> bool:
    """Write ``path`` so that a reader sees the old file or the whole new one; False
    when it could not be written (a cache is never worth an error)."""
    import contextlib
    import tempfile  # ~5 ms: only when a cache file is written

    directory = os.path.dirname(path)
    temporary = ""
    try:
        os.makedirs(directory, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=prefix, suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except OSError:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return False
    return True
