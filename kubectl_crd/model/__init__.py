"""Pure model code: no cluster, CLI, YAML-library or terminal imports (stdlib only).

Everything here can be unit-tested without I/O. Layers above build on it.
"""
