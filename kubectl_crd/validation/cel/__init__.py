"""CEL ``x-kubernetes-validations`` rules, run as the API server runs them.

The engine is cel-expr-python (Google's cel-cpp); it is imported only inside this
package (an import-linter contract), so that commands without rules never load it.

- ``library``: the Kubernetes CEL libraries (regex, lists, quantity, IP, CIDR, URLs,
  format, semver, sets, ext.Lists), each written once as functions registered with
  the engine, and the message types that stand for Kubernetes' opaque values;
- ``environment``: the environment of the pinned Kubernetes release, built once;
- ``rules``: the rules of a schema, compiled once per schema and run in the API
  server's order, with its messages, reasons and field paths (the pipeline's CEL stage).
"""
