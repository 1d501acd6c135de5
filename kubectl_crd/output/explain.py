"""``explain``'s output formats, each a printer behind ``write(target)`` / ``flush()``.

The same small interface as ``output.validation``'s printers (kubeconform's
``pkg/output``): the command resolves the target and hands it to the printer of
``-o``; no command formats text itself.

- ``RENDERERS``: ``-o plaintext`` (kubectl's, ``model.explain.plaintext``), ``-o json``
  and ``-o yaml`` (the explained schema node with its path, ``model.explain.document``)
  and ``-o markdown`` (reference docs for the resource or a subtree,
  ``model.explain.markdown``); ``ExplainPrinter`` writes one of them.
- ``write_details``: the "beyond kubectl explain" section printed after kubectl's
  plaintext, behind a separator line, unless ``--kubectl`` is given
  (``model.explain.detailtext``); coloured on a terminal (``output.terminal``).

Every import beyond the plaintext path (the YAML writer, json) happens in the function that needs it, so
``explain --crd`` starts fast; colour needs no import at all (``output.terminal``
writes the escape codes itself).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from kubectl_crd.model.explain.target import ExplainTarget

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Protocol, TextIO

    class ExplainFlags(Protocol):
        """The options of ``explain`` that the renderers here read."""

        @property
        def recursive(self) -> bool: ...

        @property
        def max_depth(self) -> int: ...


def render_plaintext(target: ExplainTarget, flags: ExplainFlags) -> str:
    from kubectl_crd.model.explain import render_plaintext as plaintext

    return plaintext(target, recursive=flags.recursive, max_depth=flags.max_depth)


def render_json(target: ExplainTarget, flags: ExplainFlags) -> str:
    import json

    from kubectl_crd.model.explain.document import node_document

    try:
        return json.dumps(node_document(target), indent=2, ensure_ascii=False) + "\n"
    except RecursionError:
        raise _too_deep(target, "json") from None


def render_yaml(target: ExplainTarget, flags: ExplainFlags) -> str:
    from kubectl_crd.io.dumping import dump_yaml
    from kubectl_crd.model.explain.document import node_document

    try:
        return dump_yaml(node_document(target))
    except RecursionError:
        raise _too_deep(target, "yaml") from None


def _too_deep(target: ExplainTarget, output: str) -> Exception:
    """A schema nested deeper than the JSON and YAML writers recurse (a cluster's CRD can
    be: the API server takes some hundreds of levels; a file's reader stops at 500
    levels of YAML first). The other formats walk it; this one says so."""
    from kubectl_crd.model.errors import RenderError

    return RenderError(
        f"the schema of {target.display_path} nests too deeply to write with -o {output}: "
        "use -o plaintext or -o markdown"
    )


def render_markdown(target: ExplainTarget, flags: ExplainFlags) -> str:
    from kubectl_crd.model.explain.markdown import render_markdown as markdown

    return markdown(target)


#: ``-o`` value -> renderer. kubectl's ``plaintext-openapiv2`` (its OpenAPI v2 renderer)
#: is deliberately absent: the server's v3 document is what we reproduce.
RENDERERS: dict[str, Callable[[ExplainTarget, ExplainFlags], str]] = {
    "plaintext": render_plaintext,
    "json": render_json,
    "yaml": render_yaml,
    "markdown": render_markdown,
}


class ExplainPrinter:
    """One ``-o`` format: ``write`` an explained target, ``flush`` at the end. With
    ``details``, kubectl's plaintext is followed by the section kubectl leaves out."""

    def __init__(
        self, output: str, flags: ExplainFlags, stream: TextIO, *, details: bool = False
    ) -> None:
        self._render = RENDERERS[output]
        self._flags = flags
        self._stream = stream
        self._details = details

    def write(self, target: ExplainTarget) -> None:
        self._stream.write(self._render(target, self._flags))
        if self._details:
            self._stream.flush()
            write_details(target, self._flags, self._stream)

    def flush(self) -> None:
        self._stream.flush()


def write_details(target: ExplainTarget, flags: ExplainFlags, stream: TextIO | None = None) -> None:
    """The "beyond kubectl explain" section for ``target`` (after kubectl's output)."""
    from kubectl_crd.model.explain.details import explain_details
    from kubectl_crd.model.explain.detailtext import details_lines
    from kubectl_crd.output.terminal import Terminal

    details = explain_details(target, recursive=flags.recursive, max_depth=flags.max_depth)
    Terminal(stream if stream is not None else sys.stdout).write_lines(details_lines(details))
