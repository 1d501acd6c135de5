"""Pure model code: no cluster, CLI, YAML-library or terminal imports (stdlib only).

Everything here can be unit-tested without I/O; the layers above build on it.

The CRD core:

- ``crd``: a typed, read-only view of a CustomResourceDefinition (versions, scope,
  subresources, printer columns), checked on the way in; ``structural`` checks a
  schema is structural with the API server's messages; ``versions`` sorts versions
  as Kubernetes does; ``gvk`` has the group/version/kind and resource types.
- ``lookup``: a RESOURCE argument (kind, plural, singular, short name, NAME.group)
  matched against CRDs, with candidates and nearest names; ``resourcenames``: the one
  name matcher, which discovery (``kube.discovery``) uses too.
- ``errors``: the one exception tree of the tool, and its exit codes.
- ``records``: ``@record``, the value classes of ``model`` and ``io``.
- ``durations``: Go's ``time.ParseDuration``; ``gostrconv``: Go's ``strconv.ParseBool``;
  ``styled``: text tagged with semantic styles, the one layout behind plain and coloured
  output.
- ``scaling``: the scale subresource's paths; ``scaleflags``: ``kubectl scale``'s flag
  values read and checked as kubectl reads them.

Two packages for the commands, siblings that never import each other:
``explain`` (kubectl explain's semantics and our extras) and ``sample`` (the
skeleton generator).
"""
