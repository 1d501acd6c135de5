"""Benchmark: ``kubectl crd workbench``'s first paint and its re-check after an edit.

Rows, measured interleaved (A, B, A, B ...) in the same minutes, with the load average:

- first paint: the installed ``kubectl-crd workbench workflow -f FILE --crd
  argoproj.io_workflows.yaml`` (argo-workflows' Workflow, the largest corpus CRD, 2.8
  MB) started on a pseudo-terminal (120x36), timed from the spawn until the screen's
  first frame is written (the field tree's root and the footer's keys both out), the
  parse cache warm (one run first); then ``q``. Also until the file's check is on the
  screen too (the status line's ``valid (create)``: it runs after the first frame, its
  first create compiling the schema). Next to it ``explain -i`` on the same
  CRD (prompt_toolkit, until its help line is out), and a bare Textual app (one line
  and a footer): the library choice's evidence, and Textual's own floor;
- import: ``import textual.app`` plus the widgets the workbench uses, against
  ``prompt_toolkit.application`` plus its layout, each in a new interpreter;
- re-check: ``Session.check()`` after the file changed (read, parse with positions,
  admission as a create, both printer-column rows, the not-stored/added lists), on a
  typical resource (a 2 KB Workflow of argo's examples, the corpus'
  ``ci-output-artifact.yaml``) and on ``kubectl crd sample``'s Certificate; the screen
  adds at most one poll interval (``POLL_SECONDS``, 0.2 s) before it starts. The first
  check of a session also compiles the schema: a row each.

Targets (issue 29): first paint under 500 ms; re-check under 50 ms for a typical
resource. Run from the repository root:

    .venv/bin/python bench/workbench_bench.py [--runs 9] [--against DIR]

``--against DIR``: the first-paint rows of another checkout too (``DIR/kubectl_crd``,
say ``git archive REV kubectl_crd | tar -x -C DIR``), run as ``python -m kubectl_crd``
from DIR, interleaved with ours run the same way (A, B, A, B ...): a change's effect
on the first paint, measured in the same minutes.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.corpus import require_corpus  # noqa: E402

CORPUS = require_corpus()
WORKFLOWS = CORPUS / "crds" / "argo-workflows" / "argoproj.io_workflows.yaml"
CERTIFICATES = CORPUS / "crds" / "cert-manager" / "cert-manager.io_certificates.yaml"
#: A typical resource: a real Workflow of argo's examples (2 KB, 3 templates).
TYPICAL = CORPUS / "samples" / "argo-workflows" / "ci-output-artifact.yaml"
TIMEOUT = 60.0
#: Textual's own floor: an app that draws one line and the footer's keys.
BARE_APP = """
from textual.app import App
from textual.widgets import Footer, Static


class Bare(App):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self):
        yield Static("bare")
        yield Footer()


Bare().run()
"""


def _program() -> list[str]:
    script = Path(sys.executable).parent / "kubectl-crd"
    return [str(script)] if script.exists() else [sys.executable, "-m", "kubectl_crd"]


def first_frame(
    command: list[str],
    markers: tuple[bytes, ...],
    quit_key: bytes,
    then: bytes = b"",
    checkout: Path | None = None,
) -> float:
    """Seconds from spawning ``command`` on a 120x36 pseudo-terminal until every marker
    has been written (and ``then`` after them, when given); then ``quit_key`` and wait
    for the exit. ``checkout``: run with that directory first on the path."""
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "KUBECONFIG": os.devnull}
    env.pop("NO_COLOR", None)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        cwd=checkout or REPO,
        start_new_session=True,
    )
    os.close(secondary)
    seen = b""
    painted = 0.0
    try:
        while not painted:
            if time.perf_counter() - start > TIMEOUT:
                raise SystemExit(f"no first frame in {TIMEOUT} s from {command}: {seen[-400:]!r}")
            ready, _, _ = select.select([primary], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(primary, 65536)
                except OSError:
                    break
                if all(marker in seen for marker in markers) and then in seen:
                    painted = time.perf_counter() - start
        os.write(primary, quit_key)
        deadline = time.monotonic() + TIMEOUT
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([primary], [], [], 0.1)[0]:
                try:
                    os.read(primary, 65536)
                except OSError:
                    break
        try:
            process.wait(timeout=max(deadline - time.monotonic(), 1))
        except subprocess.TimeoutExpired:
            process.kill()
            raise SystemExit(f"{command} did not quit on {quit_key!r}") from None
    finally:
        os.close(primary)
        process.wait()
    if not painted:
        raise SystemExit(f"{command} ended before its first frame: {seen[-400:]!r}")
    return painted


def import_seconds(statement: str) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return float(result.stdout)


def recheck_seconds(
    crd: Path, resource: str, runs: int, sample: Path | None = None
) -> tuple[float, list[float]]:
    """The first ``Session.check()`` (it compiles the schema), then each after a change
    of the file (an annotation added, then changed): the file is ``sample``, else what
    ``kubectl crd sample`` writes."""
    from kubectl_crd.model.explain import resolve_target
    from kubectl_crd.output.workbench.session import Session, create_from_sample
    from kubectl_crd.sources.files import FileSource

    target = resolve_target(FileSource([str(crd)]).crds(), resource)
    with tempfile.TemporaryDirectory() as directory:
        session = Session(target, os.path.join(directory, "cr.yaml"), namespace="default")
        if sample is None:
            create_from_sample(session)
        else:
            Path(session.path).write_text(sample.read_text())
        text = Path(session.path).read_text()
        start = time.perf_counter()
        assert session.check().valid, f"the {resource} file is not valid"
        first = time.perf_counter() - start
        times = []
        for run in range(runs):
            Path(session.path).write_text(
                text.replace("metadata:\n", f"metadata:\n  annotations: {{edit: e{run}}}\n", 1)
            )
            assert session.changed()
            start = time.perf_counter()
            check = session.check()
            times.append(time.perf_counter() - start)
            assert check.valid, check.problems
    return first, times


def row(label: str, times: list[float], target: str = "") -> str:
    median = statistics.median(times) * 1000
    spread = f"{min(times) * 1000:.0f}-{max(times) * 1000:.0f}"
    extra = f"  (target {target})" if target else ""
    return f"{label:<58} {median:7.1f} ms median  [{spread} ms, {len(times)} runs]{extra}"


def against(checkout: Path, runs: int) -> None:
    """First paint and first checked screen, ours and ``checkout``'s, interleaved."""
    load_before = os.getloadavg()[0]
    painted = (b"Quit", b"Workflow")
    module = [sys.executable, "-m", "kubectl_crd"]
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as directory:
        file = os.path.join(directory, "wf.yaml")
        command = [*module, "workbench", "workflow", "-f", file, "--crd", str(WORKFLOWS)]
        sides = {"this checkout": REPO, f"{checkout}": checkout}
        for where in sides.values():
            first_frame(command, painted, b"q", checkout=where)  # warm caches, create the file
        for _ in range(runs):
            for name, where in sides.items():
                times.setdefault(f"first paint: {name}", []).append(
                    first_frame(command, painted, b"q", checkout=where)
                )
                times.setdefault(f"checked screen: {name}", []).append(
                    first_frame(command, painted, b"q", then=b"valid (create)", checkout=where)
                )
    load_after = os.getloadavg()[0]
    print(f"load average {load_before:.1f} before, {load_after:.1f} after; {os.cpu_count()} CPUs")
    for label, measured in sorted(times.items()):
        print(row(label, measured))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--against", type=Path, help="another checkout's first paint too")
    options = parser.parse_args()
    runs = max(options.runs, 1)
    if options.against is not None:
        against(options.against.resolve(), runs)
        return
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as directory:
        file = os.path.join(directory, "wf.yaml")
        workbench = [*_program(), "workbench", "workflow", "-f", file, "--crd", str(WORKFLOWS)]
        explorer = [*_program(), "explain", "-i", "workflow", "--crd", str(WORKFLOWS)]
        # the footer's keys and the tree's root: the whole first frame is out
        painted = (b"Quit", b"Workflow")
        first_frame(workbench, painted, b"q")  # warm the parse cache; creates the file
        first_frame(explorer, (b"Esc quit",), b"\x1b")
        ours: list[float] = []
        theirs: list[float] = []
        bare: list[float] = []
        checked: list[float] = []
        for _ in range(runs):
            ours.append(first_frame(workbench, painted, b"q"))
            checked.append(first_frame(workbench, painted, b"q", then=b"valid (create)"))
            theirs.append(first_frame(explorer, (b"Esc quit",), b"\x1b"))
            bare.append(first_frame([sys.executable, "-c", BARE_APP], (b"Quit", b"bare"), b"q"))
    textual_imports: list[float] = []
    toolkit_imports: list[float] = []
    for _ in range(runs):
        textual_imports.append(
            import_seconds(
                "import textual.app, textual.widgets; "
                "from textual.widgets import Tree, OptionList, Static, Input, Footer, "
                "ContentSwitcher, TextArea"
            )
        )
        toolkit_imports.append(
            import_seconds("import prompt_toolkit.application, prompt_toolkit.layout")
        )
    checks = max(runs * 5, 5)
    typical_first, typical = recheck_seconds(WORKFLOWS, "workflow", checks, TYPICAL)
    sampled_first, sampled = recheck_seconds(CERTIFICATES, "certificate", checks)
    load_after = os.getloadavg()[0]
    print(f"load average {load_before:.1f} before, {load_after:.1f} after; {os.cpu_count()} CPUs")
    print(row("first paint: workbench, argo Workflow (warm cache)", ours, "< 500 ms"))
    print(row("first screen with the file checked (status line)", checked))
    print(row("first paint: explain -i (prompt_toolkit), same CRD", theirs))
    print(row("first paint: a bare Textual app (a line and a footer)", bare))
    print(row("import: textual.app + the workbench's widgets", textual_imports))
    print(row("import: prompt_toolkit application + layout", toolkit_imports))
    print(row("re-check after an edit: Workflow ci-output-artifact.yaml", typical, "< 50 ms"))
    print(row("re-check after an edit: Certificate from kubectl crd sample", sampled))
    print(row("first check (compiles the schema): that Workflow", [typical_first]))
    print(row("first check (compiles the schema): that Certificate", [sampled_first]))


if __name__ == "__main__":
    main()
