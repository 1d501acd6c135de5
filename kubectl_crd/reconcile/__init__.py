"""The local reconcile loop behind ``kubectl crd dev``, and its public reconciler API.

A user's reconciler imports only from here (``from kubectl_crd.reconcile import Result``);
the names are those of ``api.py``, pinned by ``tests/unit/test_public_surfaces.py``.
The engine's modules (each says what it promises in its docstring) sit
below ``output`` and above ``sources``/``validation``: they emit plain events and draw
nothing.
"""

from kubectl_crd.reconcile.api import Context, Result, TerminalError

__all__ = ["Context", "Result", "TerminalError"]
