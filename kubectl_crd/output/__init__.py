"""Printers, one per output format, and the terminal wrapper that owns colour.

- ``printing``: the one object printer (``-o name|json|yaml|jsonpath=|custom-columns=``,
  listings, streams and watch events), get's listings and watch, for every command;
- ``objects``: one object's ``-o json`` and ``-o yaml`` text, kubectl's bytes;
- ``table``: kubectl's human-readable table and its tab writer;
- ``validation``: validate's printers, and the one wording of a rejected object;
- ``scaling``: what scale prints of each object, and ``--wait``'s progress;
- ``explain``, ``explorer``: explain's output formats, and ``explain -i``'s finder;
- ``progress``: a progress bar for long runs; ``terminal``: where colour is decided.
- ``devdash``: the dev loop's live dashboard, drawn from the engine's events.
"""
