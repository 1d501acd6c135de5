"""What ``kubectl crd scale`` prints: Scales, objects as kubectl writes them, and progress.

- ``describe_scale``: the current Scale beside the CRD's paths it comes from;
- ``ScaleReport``: each object's outcome, objects through ``output.printing``'s
  printer (``-o name|json|yaml``, kubectl's ``NAME scaled`` without ``-o``);
- ``WaitProgress``: ``--wait``'s progress, a rich live display on a terminal (one row
  per object, spec against status replicas) and one plain line per change when piped;
  no colour with ``NO_COLOR``;
- the command's steps, each reported: ``scale_and_report`` (``kube.scaling``, then
  ``--wait``), ``show_and_report`` (no ``--replicas``), ``scale_files`` (``--local``,
  through ``validation.scaling``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from kubectl_crd.kube.scaling import ScaleTarget
from kubectl_crd.model.crd import ScaleSubresource

if TYPE_CHECKING:
    from kubectl_crd.io import Document
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.resolving import Resolver
    from kubectl_crd.kube.scaling import Precondition
    from kubectl_crd.model.crd import CustomResourceDefinition
    from kubectl_crd.model.errors import KubectlCrdError
    from kubectl_crd.model.scaleflags import ScaleFlags


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


class ScaleReport:
    """What ``scale`` prints of each object, as ``kubectl scale`` prints it, one
    ``write(target, result)`` each: a failure as kubectl's error line on ``err``; else
    ``-o name|json|yaml`` through ``output.printing`` (the object, or a Scale), and
    without ``-o`` the name and ``operation`` (``foo.example.com/a scaled``), or, with
    ``paths`` (show mode: the CRD's scale paths of a target), the Scale described."""

    def __init__(
        self,
        output: str,
        stream: TextIO,
        err: TextIO,
        *,
        operation: str = "",
        paths: Callable[[ScaleTarget], ScaleSubresource] | None = None,
    ) -> None:
        from kubectl_crd.output.printing import ObjectPrinter

        self._output = output
        self._stream = stream
        self._err = err
        self._paths = paths
        self._printer = ObjectPrinter(output, stream, streaming=True, operation=operation)
        self.failed = False

    def write(self, target: ScaleTarget, result: Any) -> None:
        from kubectl_crd.model.errors import KubectlCrdError

        if isinstance(result, KubectlCrdError):
            self.error(result)
        elif self._paths is not None and not self._output:
            self._stream.write(describe_scale(target, result, self._paths(target)) + "\n")
        else:
            from kubectl_crd.output.printing import Named

            self._printer.write(Named(target.kind_name, result))

    def error(self, error: KubectlCrdError) -> None:
        """An object's failure, in kubectl's words."""
        print(error.kubectl_line, file=self._err)
        self.failed = True

    def flush(self) -> None:
        self._printer.flush()


# -- the command's steps, each reported as kubectl reports it ---------------------------


def scale_and_report(
    client: KubeClient,
    targets: Sequence[ScaleTarget],
    flags: ScaleFlags,
    precondition: Precondition,
    output: str,
    stream: TextIO,
    err: TextIO,
) -> bool:
    """Scale every target (``kube.scaling.scale_all``), report each, then with
    ``--wait`` follow them until their status agrees; true when any failed.

    ``--timeout`` alone is kubectl's: each object is reported once its replicas agree
    (``NAME scaled`` only then, as kubectl's scaler waits before it prints), or with the
    timeout's error, and nothing is printed meanwhile; ``--wait`` reports the scale at
    once and shows the progress."""
    from kubectl_crd.kube.scaling import scale_all, wait_all

    assert flags.replicas is not None
    results = scale_all(
        client,
        targets,
        flags.replicas,
        precondition,
        dry_run=flags.dry_run,
        fetch_objects=output not in ("", "name"),
    )
    suffix = {"client": " (dry run)", "server": " (server dry run)"}.get(flags.dry_run, "")
    report = ScaleReport(output, stream, err, operation=f"scaled{suffix}")
    waiting = bool(flags.wait_seconds) and flags.dry_run == "none"
    if not waiting or flags.follow:
        for target, result in zip(targets, results, strict=True):
            report.write(target, result)
        report.flush()
    if not waiting:
        return report.failed
    done = [t for t, r in zip(targets, results, strict=True) if not isinstance(r, Exception)]
    progress = WaitProgress(err, len(done)) if flags.follow else None
    try:
        waited = wait_all(
            client,
            done,
            flags.replicas,
            flags.wait_seconds,
            progress.report if progress else lambda target, line: None,
            progress.finished if progress else lambda target: None,
        )
    finally:
        if progress is not None:
            progress.close()
    if flags.follow:
        for failure in waited:
            if failure is not None:
                report.error(failure)
        return report.failed
    outcome = dict(zip(done, waited, strict=True))
    for target, result in zip(targets, results, strict=True):
        failure = outcome.get(target)
        report.write(target, failure if failure is not None else result)
    report.flush()
    return report.failed


def show_and_report(
    client: KubeClient,
    resolver: Resolver,
    targets: Sequence[ScaleTarget],
    output: str,
    stream: TextIO,
    err: TextIO,
) -> bool:
    """Each target's current Scale, beside its CRD's paths; true when any failed."""
    from kubectl_crd.kube.scaling import scale_paths, show_all

    report = ScaleReport(output, stream, err, paths=scale_paths(resolver))
    for target, result in zip(targets, show_all(client, targets), strict=True):
        report.write(target, result)
    report.flush()
    return report.failed


def scale_files(
    documents: Sequence[Document],
    crds: Sequence[CustomResourceDefinition],
    count: int,
    output: str,
    stream: TextIO,
    err: TextIO,
) -> bool:
    """``--local``: specReplicasPath changed in each object among ``documents``, admitted
    as the server admits a ``/scale`` write (``validation.scaling``); the objects printed
    (yaml without ``-o``), or every rejection on ``err`` and nothing printed. True when
    any was rejected."""
    from kubectl_crd.model.crd import is_crd_object
    from kubectl_crd.output.printing import Named, ObjectPrinter
    from kubectl_crd.validation.scaling import scale_documents

    objects = [d for d in documents if not is_crd_object(d.content)]
    scaled = scale_documents(objects, crds, count)
    if not all(each.ok for each in scaled):
        # imported only then: the rejection formatter imports validate's result records
        from kubectl_crd.output.validation import scale_rejections

        for line in scale_rejections(objects, scaled):
            print(line, file=err)
        return True
    # the files' objects as written (managedFields kept)
    printer = ObjectPrinter(output or "yaml", stream, streaming=True, managed_fields=True)
    for each in scaled:
        printer.write(Named(each.name, each.changed))
    printer.flush()
    return False
