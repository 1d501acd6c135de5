"""The Kubernetes CEL libraries (``apiserver/pkg/cel/library``), one module each.

Each module exposes ``LIBRARY``, a ``Library``: the function declarations with their
Python implementations and the release that brought them. Their opaque values
(``kubernetes.Quantity``, ``net.IP``...) are messages of ``types``. The extensions
cel-cpp already has (strings, optional, sets, lists, two-variable comprehensions) are
named in ``environment``'s configuration instead; ``comprehensions`` only implements
the ``cel.@mapInsert`` that cel-cpp's two-variable comprehensions leave unbound, and
``formatting`` the strings extension's ``string.format`` as cel-go words it (cel-cpp's
differs).
"""
