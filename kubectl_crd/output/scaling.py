"""What ``kubectl crd scale`` prints: Scales, objects as kubectl writes them, and progress.

- ``describe_scale``: the current Scale beside the CRD's paths it comes from;
- objects as ``-o json|yaml`` print them: ``output.objects``;
- ``WaitProgress``: ``--wait``'s progress, a rich live display on a terminal (one row
  per object, spec against status replicas) and one plain line per change when piped;
  no colour with ``NO_COLOR``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TextIO

from kubectl_crd.kube.scaling import ScaleTarget
from kubectl_crd.model.crd import ScaleSubresource


def describe_scale(target: ScaleTarget, scale: Mapping[str, Any], paths: ScaleSubresource) -> str:
    """The current Scale with the CRD's paths it comes from."""
    spec = (scale.get("spec") or {}).get("replicas")
    status = scale.get("status") or {}
    where = f" in namespace {target.namespace}" if target.namespace else ""
    rows = [
        ("spec replicas", str(spec if spec is not None else "<unset>"), paths.spec_replicas_path),
        ("status replicas", str(status.get("replicas") or 0), paths.status_replicas_path),
        (
            "selector",
            str(status.get("selector") or "<none>"),
            paths.label_selector_path or "(no labelSelectorPath)",
        ),
    ]
    lines = [f"{target.kind_name}{where} (version {target.version})"]
    lines += [f"  {label + ':':<17} {value:<10} {path}" for label, value, path in rows]
    lines.append(
        f"  {'resourceVersion:':<17} {(scale.get('metadata') or {}).get('resourceVersion', '')}"
    )
    return "\n".join(lines)


class WaitProgress:
    """``--wait``'s progress: one line per change when piped; on a terminal, a rich live
    table of the objects (ready or not, the latest state of each)."""

    def __init__(self, stream: TextIO, total: int, *, live: bool | None = None) -> None:
        import threading

        self._stream = stream
        self._total = total
        self._lock = threading.Lock()
        self._states: dict[str, tuple[str, bool]] = {}
        self._live_display: Any = None
        if live if live is not None else stream.isatty():
            from rich.console import Console
            from rich.live import Live

            from kubectl_crd.output.terminal import colour_wanted

            console = Console(file=stream, no_color=not colour_wanted(stream), highlight=False)
            self._live_display = Live(self._render(), console=console, auto_refresh=False)
            self._live_display.start()

    def report(self, target: ScaleTarget, line: str) -> None:
        with self._lock:
            ready = self._states.get(target.kind_name, ("", False))[1]
            self._states[target.kind_name] = (line, ready)
            if self._live_display is not None:
                self._live_display.update(self._render(), refresh=True)
            else:
                self._stream.write(line + "\n")
                self._stream.flush()

    def finished(self, target: ScaleTarget) -> None:
        with self._lock:
            line = self._states.get(target.kind_name, ("", False))[0]
            self._states[target.kind_name] = (line, True)
            if self._live_display is not None:
                self._live_display.update(self._render(), refresh=True)

    def close(self) -> None:
        if self._live_display is not None:
            self._live_display.stop()

    def _render(self) -> Any:
        from rich.table import Table
        from rich.text import Text

        ready = sum(done for _, done in self._states.values())
        table = Table(box=None, show_header=False, title=f"{ready}/{self._total} ready")
        for line, done in self._states.values():
            state = Text("ready", style="green") if done else Text("waiting", style="yellow")
            table.add_row(state, Text(line))
        return table
