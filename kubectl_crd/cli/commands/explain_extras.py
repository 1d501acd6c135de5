"""What ``kubectl crd explain`` offers beyond kubectl explain; ``explain.py`` plugs it in.

- ``RENDERERS``: ``-o json`` and ``-o yaml`` (the explained schema node with its path,
  ``model.explain.document``) and ``-o markdown`` (reference docs for the resource or
  a subtree, ``model.explain.markdown``).
- ``write_details``: the "beyond kubectl explain" section printed after kubectl's
  plaintext, behind a separator line, unless ``--kubectl`` is given
  (``model.explain.detailtext``); coloured on a terminal (``output.terminal``).
- ``explore``: ``-i``, the interactive finder (``output.explorer``).

Every heavy import (ruamel for YAML, json, prompt_toolkit) happens in the function
that needs it, so ``explain --crd`` starts fast; colour needs no import at all
(``output.terminal`` writes the escape codes itself).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from kubectl_crd.model.crd import CustomResourceDefinition
from kubectl_crd.model.errors import KubectlCrdError, UsageError
from kubectl_crd.model.explain.target import ExplainTarget, MissingFieldError, resolve_target

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import Protocol, TextIO

    class ExplainFlags(Protocol):
        """The options of ``explain`` that the renderers here read."""

        @property
        def recursive(self) -> bool: ...

        @property
        def max_depth(self) -> int: ...


def render_json(target: ExplainTarget, flags: ExplainFlags) -> str:
    import json

    from kubectl_crd.model.explain.document import node_document

    return json.dumps(node_document(target), indent=2, ensure_ascii=False) + "\n"


def render_yaml(target: ExplainTarget, flags: ExplainFlags) -> str:
    from kubectl_crd.io.dumping import dump_yaml
    from kubectl_crd.model.explain.document import node_document

    return dump_yaml(node_document(target))


def render_markdown(target: ExplainTarget, flags: ExplainFlags) -> str:
    from kubectl_crd.model.explain.markdown import render_markdown as markdown

    return markdown(target)


#: The ``-o`` formats added to kubectl's (``explain.RENDERERS`` takes them in).
RENDERERS: dict[str, Callable[[ExplainTarget, ExplainFlags], str]] = {
    "json": render_json,
    "yaml": render_yaml,
    "markdown": render_markdown,
}


def write_details(target: ExplainTarget, flags: ExplainFlags, stream: TextIO | None = None) -> None:
    """The "beyond kubectl explain" section for ``target`` (after kubectl's output)."""
    from kubectl_crd.model.explain.details import explain_details
    from kubectl_crd.model.explain.detailtext import details_lines
    from kubectl_crd.output.terminal import Terminal

    details = explain_details(target, recursive=flags.recursive, max_depth=flags.max_depth)
    Terminal(stream if stream is not None else sys.stdout).write_lines(details_lines(details))


def explore(
    crds: Sequence[CustomResourceDefinition],
    argument: str,
    flags: ExplainFlags,
    *,
    api_version: str | None = None,
    kubectl_only: bool = False,
) -> None:
    """``explain -i``: pick a field path interactively, then print its explanation.

    ``argument`` names the resource as for ``explain``; a field path after it, even
    one that does not exist (``crontab.spec.rep``), is the finder's first query.
    Quitting prints nothing.
    """
    if not sys.stdin.isatty():
        raise UsageError("-i/--interactive needs a terminal: standard input is not one")
    target, query = _resource_and_query(crds, argument, api_version)
    from kubectl_crd.model.explain.fieldpath import walk
    from kubectl_crd.model.explain.finder import field_paths, path_text
    from kubectl_crd.model.explain.plaintext import render_plaintext
    from kubectl_crd.model.explain.styled import Line, Style, text_lines

    try:
        from kubectl_crd.output.explorer import run_explorer
    except ImportError as exc:  # a krew install ships no dependencies
        raise KubectlCrdError(
            f"-i/--interactive needs prompt_toolkit ({exc}): "
            "pip install 'prompt_toolkit>=3.0.36,<3.1'"
        ) from exc

    published = target.published
    paths = field_paths(published)

    def target_at(index: int) -> ExplainTarget:
        path = paths[index]
        return ExplainTarget(target.crd, target.version, published, path, walk(published, path))

    def preview(index: int) -> list[Line]:
        try:
            chosen = target_at(index)
            lines = text_lines(render_plaintext(chosen))
            if not kubectl_only:
                from kubectl_crd.model.explain.details import explain_details
                from kubectl_crd.model.explain.detailtext import details_lines

                lines += details_lines(explain_details(chosen))
        except Exception as exc:  # a preview must never end the UI
            return [((f"error: {exc}", Style.WARNING),)]
        return lines

    env_colour = not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    chosen = run_explorer(
        [path_text(path) for path in paths],
        preview,
        title=f"kubectl crd explain {target.crd.names.plural} ({target.gvk.api_version})",
        initial_query=query,
        colour=env_colour,
    )
    if chosen is None:
        return
    picked = target_at(chosen)
    sys.stdout.write(render_plaintext(picked, recursive=flags.recursive, max_depth=flags.max_depth))
    sys.stdout.flush()
    if not kubectl_only:
        write_details(picked, flags)


def _resource_and_query(
    crds: Sequence[CustomResourceDefinition], argument: str, api_version: str | None
) -> tuple[ExplainTarget, str]:
    """The target of the longest prefix of ``argument`` that exists, and the field
    path part of ``argument`` as typed (the finder's query)."""
    import re

    parts = re.split(r"(?<!\\)\.", argument)
    for end in range(len(parts), 0, -1):
        try:
            target = resolve_target(crds, ".".join(parts[:end]), api_version=api_version)
        except MissingFieldError:
            continue
        resource_parts = end - len(target.path)
        return target, ".".join(parts[resource_parts:])
    # the resource itself is unknown: let explain's own error say so
    return resolve_target(crds, argument, api_version=api_version), ""
