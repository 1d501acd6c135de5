"""The cluster core: the only package that talks to the Kubernetes API server.

A lean client on the standard library's ``socket`` and ``ssl`` that follows
client-go's kubeconfig semantics (kubectl is the reference), so that live commands start
nearly as fast as kubectl. Modules, from the flags down to the wire:

- ``config``: ``ClusterConfig``, kubectl's global flags (``--kubeconfig``, ``--context``,
  ``-n``, ``--request-timeout``); pure data.
- ``kubeconfig``: loading and merging kubeconfig files and the in-cluster config into one
  ``Connection`` (``clientcmd/loader.go``, ``client_config.go``); PyYAML's C loader.
- ``credentials``: who requests are made as: token, token file, basic auth, exec
  plugins (``plugin/pkg/client/auth/exec/exec.go``), the ``oidc`` auth-provider (the
  only importer of the ``kubernetes`` package), impersonation headers.
- ``tls``: the SSL context (CA, insecure, ``tls-server-name``, client certificates with
  keys kept off the disk).
- ``proxy``: ``proxy-url`` and the proxy environment variables with Go's ``httpproxy``
  rules.
- ``transport``: one HTTP/1.1 connection (direct or through a CONNECT proxy) and
  transport failures in kubectl's words.
- ``client``: ``KubeClient``: JSON requests, watch streams, retries, warnings, and API
  status errors in kubectl's words; one client serves several threads.
- ``discovery``: every group's resources (``/apis``, and the core group at ``/api``),
  cached on disk for six hours as kubectl caches them.
- ``resolving``: RESOURCE arguments and documents to the resources they name.
- ``targets``: kubectl's resource builder: ``TYPE NAME``, ``TYPE/NAME``, ``-l``,
  ``--all``, ``-A`` and ``-f`` read and checked in its words, then the objects found.
- ``resources``: ``ResourceClient``, every call on one resource (get, paged list and
  Table, create, update, patch, server-side apply, delete, ``/status``, ``/scale``),
  its URLs built in one place (``resource_path``).
- ``reflector``: ``list_then_watch``, client-go's Reflector: list, watch, resume,
  relist on 410 Gone, backoff, events as plain records.
- ``scaling``: kubectl's scaler on ``/scale``, and scale's use case (find, scale with
  dry runs and retries on conflicts, wait, show).

Errors are the ``ClusterError`` tree of ``kubectl_crd.model.errors``; each carries the
line kubectl prints (``kubectl_line``) and never a credential.
"""
