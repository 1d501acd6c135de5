"""``kubectl crd dev FILE``: a local reconcile loop that hot-reloads a Python reconciler.

The command parses flags (``dev_options``, a pure function) and wires the engine in one
place (``run_loop``): the reconciler loaded (``reconcile.loading``), a backend on the
cluster of the kubeconfig, on a local control plane (``--envtest``,
``reconcile.controlplane``) or on an in-process store fed from a directory's YAML files
(``--local DIR``, ``reconcile.local``; no kubeconfig is read, DIR's problems are error
lines and the loop goes on with what loaded), the ``Controller``, the ``HotReloader`` swapping saved code
in, and ``output.devlog`` printing the engine's events (on a terminal,
``output.devdash`` drawing them live, with ``reconcile.trigger``'s socket for ``dev
--trigger NAME`` from another shell). It runs until Ctrl-C (or SIGTERM, or the
dashboard's q): the reconciles in flight finish, the watches stop, and objects still carrying
the loop's finalizer are named (``--remove-finalizers-on-exit`` takes it off them).
With ``--once`` it stops as soon as the queue is empty and nothing is in flight (keys
delayed by ``requeue_after`` are not waited for; a failed reconcile is not retried),
prints a summary line (objects, reconciles, writes, errors) and exits 0 only when every
object's last reconcile succeeded, the input had no problem and no ``WATCHES`` mapping
raised.

Errors at start are one line each and exit 1: the file missing, or not importing (its
file:line:column, the line and a caret), a resource the cluster does not serve or a CRD
not installed, an unreachable cluster, no envtest binaries (how to get them). Once the
loop runs, nothing the reconciler does ends it: errors are log lines.
"""

from __future__ import annotations

import gc  # built in: no start-up cost
import os
import sys
from typing import TYPE_CHECKING, Any

import click

from kubectl_crd.cli.app import Application
from kubectl_crd.cli.flags import COUNT, CRD_PATHS, REPEATED, SWITCH, VALUE, Flag
from kubectl_crd.cli.options import click_options, kubectl_command
from kubectl_crd.model.errors import DurationFlagError, UsageError
from kubectl_crd.model.records import record

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Collection

    from kubectl_crd.output.devdash import DashState
    from kubectl_crd.output.devlog import DevLog, Tally
    from kubectl_crd.reconcile.backends import Backend
    from kubectl_crd.reconcile.controller import Controller
    from kubectl_crd.reconcile.controlplane import LocalControlPlane
    from kubectl_crd.reconcile.events import Event
    from kubectl_crd.reconcile.local import LocalBackend
    from kubectl_crd.reconcile.trigger import TriggerServer

FLAGS = (
    Flag(
        ("--crd",),
        "crd_paths",
        REPEATED,
        "With --envtest or --local: CRD files or directories to install in the local "
        "control plane or the local store before the loop starts (repeatable).",
        metavar=CRD_PATHS.metavar,
    ),
    Flag(
        ("-A", "--all-namespaces"),
        "all_namespaces",
        SWITCH,
        "Reconcile objects in every namespace (default: the -n namespace, else the context's).",
    ),
    Flag(
        ("-l", "--selector"),
        "selector",
        VALUE,
        "Reconcile only the objects this label selector matches (children and watched "
        "objects are all seen).",
        metavar="SELECTOR",
    ),
    Flag(
        ("-j", "--jobs"),
        "jobs",
        COUNT,
        "Reconcile this many objects at once (never one object twice at once); "
        "8 against a cluster, 1 with --local unless given.",
        # against a cluster 8, not 4: a worker mostly waits for the server's answers, and
        # with 8 in flight 1,000 objects converged in 3.2 s against 5.0 s (bench/
        # dev_bench.py's engine, medians of 10 interleaved rounds, 2 cores at load
        # 2.7-5.6). With --local a write waits for nothing, so more workers only take
        # turns at the GIL: 1,000 Foos --once in 1.15 s with 1, 1.42 with 2, 1.50 with 8
        # (medians of 6 interleaved runs, in-process; bench/local_bench.py --jobs);
        # controller-runtime's MaxConcurrentReconciles is 1 by default too
        default=None,
    ),
    Flag(
        ("--dry-run",),
        "dry_run",
        SWITCH,
        "Send every write as a server dry run (the server checks it, nothing is stored) "
        "and print what it would change, as kubectl diff does: the live object against "
        "the server's answer.",
    ),
    Flag(
        ("--as",),
        "as_user",
        VALUE,
        "Username to impersonate for every request (run with the rights the controller "
        "will have in the cluster).",
        metavar="USER",
    ),
    Flag(
        ("--as-group",),
        "as_groups",
        REPEATED,
        "Group to impersonate, with --as (repeatable).",
        metavar="GROUP",
    ),
    Flag(
        ("--reconcile-timeout",),
        "reconcile_timeout",
        VALUE,
        "Report a reconcile still running after this long (0: never); its object is "
        "reconciled again once it returns (with --once it counts as failed instead).",
        metavar="DURATION",
        default="30s",
        show_default=True,
    ),
    Flag(
        ("--resync",),
        "resync",
        VALUE,
        "Reconcile every cached object again this often, from the cache (default: never).",
        metavar="DURATION",
    ),
    Flag(
        ("--watch-extra",),
        "watch_extra",
        REPEATED,
        "Reload the reconciler when this file or directory changes too (repeatable); the "
        "reconciler's own modules are watched already.",
        metavar="PATH",
    ),
    Flag(
        ("--field-manager",),
        "field_manager",
        VALUE,
        "The field manager of the loop's server-side applies.",
        metavar="NAME",
        default="kubectl-crd-dev",
        show_default=True,
    ),
    Flag(
        ("--envtest",),
        "envtest",
        SWITCH,
        "Run against a local control plane (etcd and kube-apiserver, no controllers) "
        "started for this run and stopped on exit; it prints a kubeconfig for kubectl.",
    ),
    Flag(
        ("--local",),
        "local",
        VALUE,
        "Run against an in-process object store fed from the YAML files of DIR (CRDs and "
        "objects; no cluster, no kubeconfig; every namespace unless -n); edits of its "
        "files are creates, updates and deletes, and each write is shown as a diff.",
        metavar="DIR",
    ),
    Flag(
        ("--once",),
        "once",
        SWITCH,
        "Reconcile every object once, print a summary and exit: 0 when every object "
        "reconciled cleanly, 1 otherwise (for CI).",
    ),
    Flag(
        ("--out",),
        "out",
        VALUE,
        "Write each child the loop applies and each object whose status it writes as "
        "YAML under this directory (<namespace>/<kind>[.<group>]/<name>.yaml, _cluster "
        "for cluster-scoped objects), rewritten when it changes, removed when it goes.",
        metavar="DIR",
    ),
    Flag(
        ("--remove-finalizers-on-exit",),
        "remove_finalizers_on_exit",
        SWITCH,
        "On exit, take the loop's finalizer off every object, so none is left undeletable "
        "with no loop running.",
    ),
    Flag(
        ("--log-format",),
        "log_format",
        VALUE,
        "Log lines for a person (text) or one JSON object per event (json).",
        default="text",
        show_default=True,
        choices=("text", "json"),
    ),
    Flag(
        ("--no-dashboard",),
        "no_dashboard",
        SWITCH,
        "On a terminal, print log lines instead of the live dashboard (piped output, "
        "--log-format json and --once always print log lines).",
    ),
    Flag(
        ("--trigger",),
        "trigger",
        VALUE,
        "Do not run a loop: ask the loop already running FILE (or, without FILE, the one "
        "running loop that has NAME) to reconcile the object NAME now (-n for its "
        "namespace), print what happened and exit (1 when that reconcile failed).",
        metavar="NAME",
    ),
    Flag(
        ("-v", "--verbose"),
        "verbose",
        SWITCH,
        "Also log each reconcile's start, each object cached or found gone, and a failed "
        "reconcile's traceback (writes and deleted objects are always logged).",
    ),
)

HELP = """Run a Python reconciler against a cluster, reloading it on every save.

\b
Examples:
  kubectl crd dev reconciler.py -n demo
  kubectl crd dev reconciler.py --envtest --crd crds/
  kubectl crd dev examples/foo/reconciler.py --local examples/foo --once
  kubectl crd dev reconciler.py -A --dry-run --as system:serviceaccount:ops:my-controller
  kubectl crd dev examples/foo/reconciler.py --trigger example-foo -n default

FILE declares FOR (the resource it reconciles, e.g. foos.example.com/v1), optionally
OWNS (its children's kinds, e.g. v1/ConfigMap) and WATCHES, and reconcile(obj, ctx),
which returns the desired children, status and requeue_after (a dict, a Result from
kubectl_crd.reconcile, or None); a reconcile(obj) is called without ctx, and a
metacontroller hook, sync(request), runs unchanged. Children are server-side applied
with a controller ownerReference, undesired owned children deleted, status written
with observedGeneration; a write that would change nothing is not sent. Saving FILE (or a
module of its own it imports) loads the new code beside the running one and swaps it
in, keeping the cache and the watches; code that does not load is reported with
file:line and the old code runs on. Ctrl-C finishes the reconciles in flight and exits.

On a terminal the loop is a live dashboard: the objects by state (synced, pending,
erroring, backing off) with each one's last result or error at its file:line, the
queue, reconciles per second and the last reload. Keys: up/down select an object, r
reconciles it now, q quits. From another shell, kubectl crd dev FILE --trigger NAME
[-n NS] reconciles one object of the running loop now and prints how it ended (exit 1
when the reconcile fails, no loop runs or it has no such object). Piped, with --log-format json or
--no-dashboard, the loop prints log lines instead. q, like Ctrl-C, exits 0.
"""


@record
class DevOptions:
    """The command line, checked (``dev_options``)."""

    #: None only with --trigger (the one running loop holding the object)
    file: str | None
    crd_paths: tuple[str, ...] = ()
    all_namespaces: bool = False
    selector: str | None = None
    #: None: 8 against a cluster, 1 with --local (``_workers``)
    jobs: int | None = None
    dry_run: bool = False
    as_user: str | None = None
    as_groups: tuple[str, ...] = ()
    #: seconds; None for no timeout / no resync
    reconcile_timeout: float | None = 30.0
    resync: float | None = None
    watch_extra: tuple[str, ...] = ()
    field_manager: str = "kubectl-crd-dev"
    envtest: bool = False
    #: the --local DIR (None: a cluster)
    local: str | None = None
    once: bool = False
    #: the --out DIR (None: no files)
    out: str | None = None
    remove_finalizers_on_exit: bool = False
    log_format: str = "text"
    verbose: bool = False
    #: the live dashboard on a terminal (``--no-dashboard``: log lines)
    dashboard: bool = True
    #: --trigger NAME: ask the running loop to reconcile NAME now
    trigger: str | None = None


def _workers(options: DevOptions) -> int:
    """-j, or its default: 8 against a cluster, 1 with --local (the flag's comment)."""
    if options.jobs is not None:
        return options.jobs
    from kubectl_crd.reconcile.controller import CLUSTER_WORKERS, LOCAL_WORKERS

    return LOCAL_WORKERS if options.local is not None else CLUSTER_WORKERS


def _seconds(flag: str, value: str | None) -> float | None:
    """A Go duration (``30s``, ``1m30s``) or whole seconds; None for empty or zero."""
    if value is None or value == "":
        return None
    from kubectl_crd.model.durations import DurationSyntaxError, parse_go_duration

    if value.isascii() and value.isdigit():
        return float(value) or None
    try:
        nanoseconds = parse_go_duration(value)
    except DurationSyntaxError as exc:
        raise DurationFlagError(flag, value, str(exc)) from None
    if nanoseconds < 0:  # pflag takes it; a timeout or a resync period cannot be one
        raise DurationFlagError(flag, value, "must not be negative")
    return nanoseconds / 1e9 or None


def dev_options(
    file: str | None,
    *,
    crd_paths: tuple[str, ...] = (),
    all_namespaces: bool = False,
    selector: str | None = None,
    jobs: int | None = None,
    dry_run: bool = False,
    as_user: str | None = None,
    as_groups: tuple[str, ...] = (),
    reconcile_timeout: str | None = "30s",
    resync: str | None = None,
    watch_extra: tuple[str, ...] = (),
    field_manager: str = "kubectl-crd-dev",
    envtest: bool = False,
    local: str | None = None,
    once: bool = False,
    out: str | None = None,
    remove_finalizers_on_exit: bool = False,
    log_format: str = "text",
    verbose: bool = False,
    no_dashboard: bool = False,
    trigger: str | None = None,
    given: Collection[str] = (),
) -> DevOptions:
    """The flags checked and converted; ``UsageError`` for what cannot run.

    ``given``: the parameters the user passed (command line or environment); a flag
    with a default cannot tell from its value alone that it was given.
    """
    if trigger is not None and (not trigger or "/" in trigger):
        raise UsageError(f"--trigger {trigger!r}: give the object's name (and -n NAMESPACE)")
    if trigger is not None:
        # the loop's own flags: with --trigger they would be ignored (only --once was
        # refused: `--trigger x -A` or `--local DIR` looked taken, and were not)
        ignored = [
            flag
            for flag, given in (
                ("--once", once),
                ("--local", local is not None),
                ("--envtest", envtest),
                ("--crd", crd_paths),
                ("-A", all_namespaces),
                ("-l", selector),
                ("-j", jobs is not None),
                ("--dry-run", dry_run),
                ("--as", as_user),
                ("--as-group", as_groups),
                ("--reconcile-timeout", "reconcile_timeout" in given),
                ("--resync", resync),
                ("--watch-extra", watch_extra),
                ("--field-manager", "field_manager" in given),
                ("--out", out),
                ("--remove-finalizers-on-exit", remove_finalizers_on_exit),
                ("--no-dashboard", no_dashboard),
            )
            if given
        ]
        if ignored:
            raise UsageError(
                f"--trigger asks a running loop; it does not take {', '.join(ignored)}"
            )
    if jobs is not None and jobs < 1:
        raise UsageError("-j/--jobs must be at least 1")
    if local is not None and envtest:
        raise UsageError("--local and --envtest are alternatives: choose one")
    if local is not None and not os.path.isdir(local):
        if os.path.exists(local):  # FILE and DIR swapped, say
            raise UsageError(
                f"--local {local}: not a directory (DIR holds the CRDs and objects; the "
                "reconciler is FILE)"
            )
        raise UsageError(f"--local {local}: no such directory")
    if out is not None and (not out or os.path.isfile(out)):
        raise UsageError(f"--out {out}: not a directory")
    if crd_paths and not envtest and local is None:
        raise UsageError(
            "--crd installs CRDs in the --envtest control plane or the --local store; "
            "for a cluster, install them with kubectl apply -f"
        )
    if not field_manager:
        raise UsageError("--field-manager must not be empty")
    if selector is not None:
        from kubectl_crd.model.labels import parse_selector

        try:
            parse_selector(selector)
        except ValueError as exc:
            raise UsageError(f"invalid -l/--selector {selector!r}: {exc}") from None
    return DevOptions(
        file=file,
        crd_paths=crd_paths,
        all_namespaces=all_namespaces,
        selector=selector or None,
        jobs=jobs,
        dry_run=dry_run,
        as_user=as_user or None,
        as_groups=as_groups,
        reconcile_timeout=_seconds("--reconcile-timeout", reconcile_timeout),
        resync=_seconds("--resync", resync),
        watch_extra=watch_extra,
        field_manager=field_manager,
        envtest=envtest,
        local=local or None,
        once=once,
        out=out or None,
        remove_finalizers_on_exit=remove_finalizers_on_exit,
        log_format=log_format,
        verbose=verbose,
        dashboard=not no_dashboard,
        trigger=trigger,
    )


@kubectl_command("dev", help=HELP)
@click.argument("file", nargs=1, required=False)
@click_options(FLAGS)
def command(app: Application, file: str | None, **flags: object) -> None:
    context = click.get_current_context()
    if file is None and flags.get("trigger") is None:
        param = next(p for p in context.command.params if p.name == "file")
        raise click.MissingParameter(ctx=context, param=param)
    passed = (click.core.ParameterSource.COMMANDLINE, click.core.ParameterSource.ENVIRONMENT)
    given = {name for name in flags if context.get_parameter_source(name) in passed}
    try:
        options = dev_options(file, given=given, **flags)  # type: ignore[arg-type]
    except DurationFlagError as exc:
        from kubectl_crd.cli.options import FlagValueError

        param = next(p for p in context.command.params if exc.flag in getattr(p, "opts", ()))
        raise FlagValueError(exc.value, param, exc.reason) from None
    if options.trigger is not None:
        run_trigger(app, options)
        return
    run_loop(app, options)


def run_trigger(app: Application, options: DevOptions) -> None:
    """``--trigger NAME``: the running loop reconciles NAME now; its outcome printed
    (exit 0 when the reconcile succeeded or did not finish in time; 1 when it failed,
    the object went away, no loop runs or the object is not there)."""
    from kubectl_crd.model.errors import ExitCode
    from kubectl_crd.model.styled import Style
    from kubectl_crd.output.devlog import event_lines
    from kubectl_crd.output.terminal import Terminal
    from kubectl_crd.reconcile import events as ev
    from kubectl_crd.reconcile.trigger import send_trigger

    terminal = Terminal(sys.stdout)
    assert options.trigger is not None
    result = send_trigger(
        options.file,
        options.trigger,
        app.namespace,
        on_triggered=lambda text: terminal.write_lines([((f"{text} triggered", Style.PLAIN),)]),
    )
    if result is not None:
        terminal.write_lines(event_lines(result))
        if result.outcome is not ev.Outcome.SUCCESS:  # as a kubectl command whose action failed
            sys.exit(ExitCode.ERROR)


def dashboard_wanted(options: DevOptions, stream: Any, environ: Any = None) -> bool:
    """The live dashboard, not log lines: a terminal that can draw it, text format, a
    loop that keeps running, and no --no-dashboard."""
    env = os.environ if environ is None else environ
    isatty = getattr(stream, "isatty", None)
    return bool(
        options.dashboard
        and not options.once
        and options.log_format == "text"
        and env.get("TERM", "") not in ("", "dumb")
        and isatty is not None
        and isatty()
    )


def run_loop(app: Application, options: DevOptions) -> None:
    """Load, connect, run until Ctrl-C or SIGTERM (or, with ``--once``, until every
    object was reconciled), stop (see the module docstring)."""
    import signal
    import threading

    from kubectl_crd.io import require_paths
    from kubectl_crd.model.errors import ExitCode, KubectlCrdError
    from kubectl_crd.output.devlog import Changes, DevLog, OutDir, Tally
    from kubectl_crd.reconcile.controller import Controller, tune_collector
    from kubectl_crd.reconcile.loading import load_reconciler
    from kubectl_crd.reconcile.reloading import HotReloader

    assert options.file is not None
    controllers: list[Controller] = []
    dashboard = dashboard_wanted(options, sys.stdout)

    def lookup(resource: str, key: tuple[str, str]) -> dict[str, Any] | None:
        informer = controllers[0].informer(resource) if controllers else None
        return informer.cache.peek(key) if informer is not None else None

    # with --local, and with --dry-run anywhere, each write's change is shown (a diff,
    # one printer for both); --out writes them to files
    diffs = options.local is not None or options.dry_run
    changes = None
    if diffs or options.out is not None:
        out = OutDir(options.out) if options.out is not None else None
        # the dashboard shows the selected object's last diff, not each one as the log
        changes = Changes(lookup, out=out, show=diffs and not dashboard)
    # the reader of the log gone (| head): stop as on SIGTERM
    pipe_closed = threading.Event()
    log = DevLog(
        sys.stdout,
        format=options.log_format,
        verbose=options.verbose,
        on_broken=lambda: _closed(pipe_closed),
        changes=changes,
        flush_after=_LOG_FLUSH_SECONDS,
        dry_run_words="dry run" if options.local is not None else "server dry run",
    )
    # a module-level call that never returns held the start silently: said after 10 s
    loaded = load_reconciler(
        options.file, on_slow=lambda error: log.note(f"warning: {error}", warning=True)
    )
    for extra in options.watch_extra:
        if not os.path.exists(extra):  # the watcher would fail in its thread, unseen
            raise UsageError(f"--watch-extra {extra}: no such file or directory")
    require_paths(options.crd_paths)  # before a control plane starts (seconds) or DIR loads
    # set once the loop stops: from then on the loop's own SIGTERM for a reader gone
    # (``_closed``) is not a second Ctrl-C (``_sigterm``)
    stopping = threading.Event()
    # SIGTERM ends the loop as Ctrl-C does (a terminal closing, a process manager)
    previous_sigterm = signal.signal(signal.SIGTERM, _sigterm(pipe_closed, stopping))
    # and SIGINT stops it even when the process was started with SIGINT ignored (a
    # script's `cmd &` without job control: Python then installs no handler, and the
    # loop ran on through every SIGINT of bench/soak_dev.py until it was killed, its
    # finalizers left behind). A Go controller does the same: controller-runtime's
    # signal handler calls signal.Notify, which installs a handler for a SIGINT the
    # program was started with ignored (go src/os/signal/doc.go)
    previous_sigint = signal.signal(signal.SIGINT, signal.default_int_handler)
    plane = None
    tally = Tally()
    interrupted = False
    # the dashboard's model and the trigger socket follow the events too
    observers: list[Callable[[Event], None]] = []
    state = None
    if dashboard:
        from kubectl_crd.output.devdash import DashState, Tee

        state = DashState()
        observers.append(state)
        if diffs:  # each object's last diff in the detail area
            log.on_change = state.changed
        log.stream = Tee(sys.stdout, state)  # type: ignore[assignment]  # the start's lines are its first recent lines
    # set to stop the loop as Ctrl-C does (the dashboard's q)
    stop = threading.Event()
    restore_collector = tune_collector()  # the ``finally`` below puts it back
    try:
        # with --envtest or --local the objects go with the run: no finalizer is left
        logged = tally.wrap(
            _finalizers_sink(log, envtest=options.envtest or options.local is not None),
            once=options.once,
        )

        def sink(event: Event) -> None:
            for observe in observers:
                observe(event)
            logged(event)

        local = None
        official: Callable[[], object] | None = None
        if options.local is not None:
            unused = [
                flag
                for flag, given in (
                    ("--kubeconfig", app.kubeconfig),
                    ("--context", app.context),
                    ("--as", options.as_user),
                    ("--as-group", options.as_groups),
                )
                if given
            ]
            if unused:  # no cluster: nothing to connect or impersonate with
                log.note(
                    f"--local: {', '.join(unused[:-1])}{' and ' if unused[1:] else ''}"
                    f"{unused[-1]} {'are' if unused[1:] else 'is'} not used",
                    warning=True,
                )
            local = _local_backend(options, log, tally)
            # what is alive now (the modules, the store as loaded) lives as long as the
            # loop: out of the cyclic collector's way, whose full passes would walk it
            # again and again (1,000 Foos, --once: GC time 0.18-0.27 -> 0.11-0.12 s, one
            # full pass instead of two); the ``finally`` below unfreezes it
            gc.freeze()
            backend: Backend = local
            namespace = None if options.all_namespaces else app.namespace
        else:
            backend, namespace, official, plane = _cluster_backend(app, options, log)
            if state is not None and plane is not None:
                state.kubeconfig = str(plane.kubeconfig)
        rate_limiter = None
        if options.once:
            from kubectl_crd.reconcile.workqueue import ItemExponentialRateLimiter

            # --once: a failed reconcile is reported, not retried before the run ends
            rate_limiter = ItemExponentialRateLimiter[tuple[str, str]](
                base=_ONCE_BACKOFF, cap=_ONCE_BACKOFF
            )
        controller = Controller(
            backend,
            loaded,
            sink,
            workers=_workers(options),
            namespace=namespace,
            selector=options.selector,
            dry_run=options.dry_run,
            field_manager=options.field_manager,
            reconcile_timeout=options.reconcile_timeout,
            resync=options.resync,
            rate_limiter=rate_limiter,
            kubernetes_client=official,
            # --once is one pass: a reconcile past the timeout is failed, not run again
            requeue_timed_out=not options.once,
            unserved_hint=_unserved_hint(options),
            # only the --local store comes without a cluster client
            no_cluster_hint="run with --envtest instead of --local",
        )
        controllers.append(controller)
        scope = "every namespace" if namespace is None else f"namespace {namespace}"
        where = f" of {options.local}" if options.local is not None else ""
        if state is not None:
            display = loaded.display
            state.retitle = lambda resource: (
                f"kubectl crd dev {display}: {resource}{where} in {scope}"
            )
            state.title = state.retitle(str(loaded.for_resource))
            state.queue_depth = lambda: len(controller.queue)
            if local is not None:
                found = local
                state.problems = lambda: [f"{p.location}: {p.message}" for p in found.problems]
        reloader: HotReloader | None = None
        server: TriggerServer | None = None
        try:  # a Ctrl-C from here on stops the loop gracefully, even while it lists
            try:
                controller.start(
                    on_resolved=lambda: log.note(
                        f"{loaded.display}: reconciling {loaded.for_resource}{where} in {scope}"
                    )
                )
            except KubectlCrdError:
                backend.close()
                raise
            if options.once:
                # requeue_after and backoff are delayed keys: not waited for
                controller.wait_idle(
                    timeout=float("inf"), settle=_ONCE_SETTLE, after_own_writes=True
                )
                empty = _empty_plane_hint(options, tally, str(loaded.for_resource))
                if empty is not None:
                    log.note(empty, warning=True)
            else:
                if local is not None:
                    local.start_watching()
                reloader = HotReloader(loaded, controller.swap, sink, extra=options.watch_extra)
                reloader.start()
                server = _trigger_server(controller, options.file, loaded.display, log)
                if server is not None:
                    observers.append(server.triggers.observe)
                log.note(f"watching {loaded.display} for changes; Ctrl-C to stop")
                if state is not None:
                    _run_dashboard(state, log, stop, server, options.file)
                else:
                    while not stop.wait(0.5):  # Ctrl-C and SIGTERM raise KeyboardInterrupt
                        pass
        except KeyboardInterrupt:
            interrupted = True
        stopping.set()
        if reloader is not None:
            reloader.stop()
        if server is not None:
            server.stop()
        try:
            controller.stop(graceful=True, remove_finalizers=options.remove_finalizers_on_exit)
        except KeyboardInterrupt:  # a second Ctrl-C: out at once, saying what is left
            _warn_left(controller, log, envtest=options.envtest or options.local is not None)
            raise
        backend.close()
    except BaseException:  # a second Ctrl-C, an error at start: no graceful stop
        if plane is not None:
            plane.stop(grace=1.0)
        raise
    finally:
        log.close()  # what it kept is written; the lines from here on at once
        signal.signal(signal.SIGTERM, previous_sigterm)
        signal.signal(signal.SIGINT, previous_sigint)
        if options.local is not None:
            gc.unfreeze()  # the freeze ends with the loop (an in-process caller goes on)
        restore_collector()
        if pipe_closed.is_set():
            # what the log buffered would fail again in the interpreter's last flush
            # (a traceback and exit 120): the reader is gone, so it goes nowhere
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    if plane is not None:
        plane.stop()
        log.note("stopped the local control plane")
    if options.once or state is not None:
        log.summary(tally)  # what the dashboard showed, in one line left on the terminal
    if options.once:
        if interrupted:  # not everything was reconciled: 130, as on Ctrl-C (cli.group)
            sys.exit(130)
        if not tally.clean:
            sys.exit(ExitCode.ERROR)


def _empty_plane_hint(options: DevOptions, tally: Tally, resource: str) -> str | None:
    """Why ``--envtest --once`` reconciled nothing, when it did not: the control plane
    is new, and ``--crd`` installs only CRDs (an object in those files is an error at
    its line), so no FOR object can be there; the run would pass CI having checked
    nothing, without a word (README 'Dev loop', ``--envtest``)."""
    if not (options.envtest and options.once) or tally.outcomes:
        return None
    return (
        f"--envtest: the control plane started for this run holds no {resource} object "
        "(--crd installs CRDs only), so --once reconciled none; run without --once and "
        "create them with the kubectl line above, or use --local DIR with the objects in DIR"
    )


def _unserved_hint(options: DevOptions) -> str:
    """What to do about a resource whose CRD is not installed, for what the user runs
    (at start, and at a reload to code that names one)."""
    if options.local is not None:
        return "put its CRD in the --local directory or give it with --crd FILE"
    if options.envtest:  # a control plane of this run: --crd is the way in
        return "give it with --crd FILE"
    return "kubectl apply -f it, or run with --envtest --crd FILE"


#: how long the log keeps its lines to write them together (``DevLog``'s flush_after)
_LOG_FLUSH_SECONDS = 0.05
#: --once: the backoff of a failed reconcile, longer than any run (so it runs once)
_ONCE_BACKOFF = 3600.0
#: --once: how long after the last reconcile that wrote the run is over, the queue idle
#: (the echo of a write, a child's watch event, may still enqueue its owner); a pass
#: that wrote nothing ends as soon as its queue is idle
_ONCE_SETTLE = 0.1


def _trigger_server(
    controller: Controller, file: str, display: str, log: DevLog
) -> TriggerServer | None:
    """The loop's trigger socket (``reconcile.trigger``), listening; None when it cannot
    (told in a warning line: the loop runs on without it)."""
    from kubectl_crd.model.errors import KubectlCrdError
    from kubectl_crd.reconcile.trigger import Triggers, TriggerServer, socket_path

    try:
        server = TriggerServer(Triggers(controller, display), socket_path(file))
        if server.start():
            return server
        log.note(
            f"another dev loop of {display} is running: --trigger reaches that one", warning=True
        )
    except (KubectlCrdError, OSError) as exc:
        log.note(f"--trigger will not reach this loop: {exc}", warning=True)
    return None


def _run_dashboard(
    state: DashState,
    log: DevLog,
    stop: threading.Event,
    server: TriggerServer | None,
    file: str,
) -> None:
    """The live dashboard until ``stop`` is set (q) or Ctrl-C; the log's lines go to
    its recent lines meanwhile, and back to the terminal after (the stop's lines)."""
    from kubectl_crd.output.devdash import Dashboard
    from kubectl_crd.output.terminal import colour_wanted

    triggers = server.triggers if server is not None else None

    def trigger(key: tuple[str, str]) -> str:
        if triggers is None:
            return "no trigger: the loop could not open its socket"
        triggers.trigger(key, follow=False)
        return f"{triggers.describe(key)} triggered"

    stream = sys.stdout
    hint = f"another shell: kubectl crd dev {file} --trigger NAME" if server is not None else ""
    try:
        with Dashboard(
            state,
            stream,
            colour=colour_wanted(stream),
            trigger=trigger,
            on_quit=stop.set,
            keys=sys.stdin.isatty(),
            trigger_hint=hint,
        ):
            log.stream = state  # type: ignore[assignment]
            while not stop.wait(0.5):  # Ctrl-C and SIGTERM raise KeyboardInterrupt
                pass
    finally:
        log.stream = stream


def _local_backend(options: DevOptions, log: DevLog, tally: Tally) -> LocalBackend:
    """The ``--local`` store: the ``--crd`` files first (DIR's objects may be of their
    kinds), then DIR; each problem a one-line error, the loop going on without it."""
    from kubectl_crd.reconcile.local import LocalBackend, LocalProblem

    def problem(found: LocalProblem) -> None:
        tally.problem()
        log.problem(found.location, found.message)

    # --out inside DIR is the loop's output, not DIR's objects
    exclude = (options.out,) if options.out is not None else ()
    # the store's warnings worded as a cluster's (``_cluster_backend``)
    backend = LocalBackend(
        options.local or ".",
        on_problem=problem,
        on_warning=log.server_warning,
        exclude=exclude,
    )
    for path in options.crd_paths:
        LocalBackend(path, store=backend.store, on_problem=problem).load()
    backend.load()
    return backend


def _cluster_backend(
    app: Application, options: DevOptions, log: DevLog
) -> tuple[Backend, str | None, Callable[[], object], LocalControlPlane | None]:
    """The backend on the kubeconfig's cluster or on a local control plane (--envtest):
    the backend, the namespace reconciled (None: all), the official client's factory,
    and the control plane to stop."""
    from kubectl_crd.kube.client import KubeClient
    from kubectl_crd.kube.config import ClusterConfig
    from kubectl_crd.kube.discovery import Discovery
    from kubectl_crd.reconcile.backends import ClusterBackend

    kubeconfig, context = app.kubeconfig, app.context
    cache_dir = None
    plane = None
    if options.envtest:
        if app.kubeconfig or app.context:
            log.note("--envtest: --kubeconfig and --context are not used", warning=True)
        plane = _start_control_plane(options, log)
        kubeconfig, context = plane.kubeconfig, None
        cache_dir = os.path.join(plane.workdir, "discovery")
    config = ClusterConfig(
        kubeconfig=kubeconfig,
        context=context,
        namespace=app.namespace,
        request_timeout=app.request_timeout,
        impersonate_user=options.as_user,
        impersonate_groups=options.as_groups,
    )
    try:
        # the loop's lists and writes get an idle-read bound when --request-timeout is
        # absent (a dead peer is noticed as client-go's HTTP/2 pings would; kube.client):
        # 105 s, over the API server's own 60 s deadline for a non-watch request
        # (kube-apiserver --request-timeout, default 1m), so no live answer is cut
        from kubectl_crd.kube.reflector import WATCH_IDLE_SECONDS

        # the server's warnings (an unknown field in a child) as log lines
        client = KubeClient(
            config,
            on_warning=log.server_warning,
            idle_timeout=WATCH_IDLE_SECONDS,
        )
        namespace = None if options.all_namespaces else client.namespace
        backend = ClusterBackend(
            client, Discovery(client.request, client.server, cache_dir=cache_dir)
        )
    except BaseException:
        if plane is not None:
            plane.stop(grace=1.0)
        raise

    def official() -> object:
        from kubectl_crd.kube.official import official_client

        return official_client(config)

    return backend, namespace, official, plane


def _closed(pipe_closed: threading.Event) -> None:
    import signal

    pipe_closed.set()
    os.kill(os.getpid(), signal.SIGTERM)


def _warn_left(controller: Controller, log: DevLog, *, envtest: bool) -> None:
    """The one line of a stop cut short: how many objects the loop leaves its finalizer
    on (none with --envtest or --local: the objects go with the run)."""
    left = 0 if envtest else len(controller.finalizers_left())
    if left:
        log.note(
            f"interrupted again: {left} object{'' if left == 1 else 's'} still "
            f"carr{'ies' if left == 1 else 'y'} the loop's finalizer and cannot be deleted "
            "until a loop removes it (let the stop finish, or run again with "
            "--remove-finalizers-on-exit)",
            warning=True,
        )


def _sigterm(
    pipe_closed: threading.Event, stopping: threading.Event
) -> Callable[[int, object], None]:
    """The loop's SIGTERM handler: a KeyboardInterrupt, as Ctrl-C, except for the
    SIGTERM the loop sends itself when its reader went (``_closed``) once it is already
    stopping: that stop goes on (it was taken for a second Ctrl-C, the stop cut short,
    "Aborted!" and exit 130: ``dev --once | head -1`` every time)."""

    def handler(signum: int, frame: object) -> None:
        if pipe_closed.is_set() and stopping.is_set():
            return
        raise KeyboardInterrupt

    return handler


def _start_control_plane(options: DevOptions, log: DevLog) -> LocalControlPlane:
    from kubectl_crd.reconcile.controlplane import LocalControlPlane, find_assets

    # the engine's messages name what needed the binaries in the command's words
    assets = find_assets(needed_for="--envtest")
    log.note(f"starting a local control plane (etcd, kube-apiserver from {assets})")
    plane = LocalControlPlane(assets, needed_for="--envtest")
    plane.start()
    try:
        names = plane.install_crds(options.crd_paths)
    except BaseException:
        plane.stop()
        raise
    if names:
        log.note("installed " + ", ".join(names))
    log.note(
        f"control plane at {plane.server} (no controllers: no garbage collection); "
        f"kubectl --kubeconfig {plane.kubeconfig} get ..."
    )
    return plane


def _finalizers_sink(log: DevLog, *, envtest: bool) -> Callable[[Event], None]:
    """The log; with --envtest or --local, ``Stopped`` says no finalizer is left, the
    objects going with the run (the controller's own count already leaves out those
    ``remove_finalizers`` took it off: ``Controller.finalizers_left``)."""
    if not envtest:
        return log
    from kubectl_crd.model.records import replace
    from kubectl_crd.reconcile.events import Stopped

    def sink(event: Event) -> None:
        log(replace(event, finalizers_left=()) if isinstance(event, Stopped) else event)

    return sink
