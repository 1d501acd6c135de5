"""The local reconcile loop behind ``kubectl crd dev``, and its public reconciler API.

A user's reconciler imports only from here (``from kubectl_crd.reconcile import Result``);
the names are those of ``api.py``, pinned by ``tests/unit/test_public_surfaces.py``.
The engine's modules (each says what it promises in its docstring) sit
below ``output`` and above ``sources``/``validation``: they emit plain events and draw
nothing.

- ``api``: the public reconciler API (``Result``, ``TerminalError``, ``Context``);
- ``events``: the plain records the engine emits to one ``EventSink``;
- ``workqueue``: client-go's deduplicating, rate-limited work queue;
- ``backends``: what the controller needs of a cluster (``ClusterBackend``);
- ``informers``: list-then-watch into a cache per resource, with handlers;
- ``metacontroller``: metacontroller sync hooks' request and response;
- ``loading``: the user's reconciler file imported in isolation, its declarations
  checked, its answers made ``Result``s;
- ``controller``: the loop (informers, queue, workers, writes, finalizers, ``swap``);
- ``reloading``: hot reload on save, through the controller's ``swap``.
- ``trigger``: the running loop's socket that reconciles one object now (``dev
  --trigger``), and its client;
- ``testing`` (public, for users' pytest): ``run_reconcile`` runs a reconciler once
  against objects in the local store, without a cluster.
"""

from kubectl_crd.reconcile.api import Context, Result, TerminalError

__all__ = ["Context", "Result", "TerminalError"]
