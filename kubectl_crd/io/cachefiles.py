"""Where kubectl-crd keeps caches, and how a cache file is written safely.

``${KUBECTL_CRD_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/kubectl-crd}``: parsed CRD files
(``io.caching``) and the cluster's discovery (``kube.discovery``) live under it. Stdlib
only; it writes files, so it is io's, and kube's discovery cache is the one import from
kube into io that the layer contract allows (``pyproject.toml``).
"""

from __future__ import annotations

import contextlib
import itertools
import os


def cache_root() -> str:
    """The kubectl-crd cache directory (it may not exist yet)."""
    root = os.environ.get("KUBECTL_CRD_CACHE_DIR")
    if root:
        return root
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(xdg, "kubectl-crd")


#: Directories this process has made (or found) already: not made again per write.
_MADE: set[str] = set()
#: Numbers the temporary files of this process (its pid names the process).
_WRITES = itertools.count()


def write_atomically(path: str, data: bytes, *, prefix: str = ".cache-") -> bool:
    """Write ``path`` so that a reader sees the old file or the whole new one; False
    when it could not be written (a cache is never worth an error).

    The temporary file is named by the process and a counter and created exclusively
    (``O_EXCL``: never an existing file or a link), as ``tempfile.mkstemp`` would, for a
    fraction of its cost: a first ``get -f`` over 100 new files writes 200 of them."""
    directory = os.path.dirname(path)
    temporary = ""
    try:
        if directory not in _MADE:
            os.makedirs(directory, exist_ok=True)
            _MADE.add(directory)
        name = os.path.join(directory, f"{prefix}{os.getpid()}-{next(_WRITES)}.tmp")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOSE_ON_EXEC | _BINARY
        try:
            handle = os.open(name, flags, 0o600)
        except FileNotFoundError:  # the directory was removed since: made again
            os.makedirs(directory, exist_ok=True)
            handle = os.open(name, flags, 0o600)
        temporary = name
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except OSError:
        if temporary:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return False
    return True


_CLOSE_ON_EXEC = getattr(os, "O_CLOEXEC", 0)
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
