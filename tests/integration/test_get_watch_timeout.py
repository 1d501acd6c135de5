"""``kubectl crd get -w --request-timeout=3s`` ends as the real ``kubectl get -w`` does.

client-go bounds every request with ``http.Client.Timeout`` (``--request-timeout``), a
watch included; when it passes, ``watch/streamwatcher.go`` takes the cut body for the
watch's end, and ``kubectl get -w`` prints what it had and exits 0, nothing on stderr
(``kubectl_crd.kube.client.KubeClient.watch``). Both tools are run side by side on the
same server with the same flags (``-w``, ``--watch-only``, a named object, ``-o name``):
the same exit code, output (ages may tick between the two) and stderr, both ended
within the bound below, each watch held by the server until the timeout cut it (its
audit log), and the same watch request (its query, ``?timeout=3s`` included).
"""

from __future__ import annotations

import subprocess
import time
from datetime import datetime
from urllib.parse import parse_qsl, urlsplit

from tests.integration.envtest import ControlPlane
from tests.integration.test_get_differential import KUBECTL_CRD
from tests.integration.test_get_watch import CRONTAB, CRONTAB_CRD, RESOURCE, _same_but_ages

#: 3 s, not 1 s: eight processes start at once, and on a loaded CI machine a 1 s timeout
#: passed before a watch's response headers came (kubectl would fail so too: "Client.Timeout
#: exceeded while awaiting headers"), which made one tool exit 1 and the other 0 at random
TIMEOUT_SECONDS = 3
TIMEOUT = f"{TIMEOUT_SECONDS}s"
#: a watch that never ends is cut here (and fails the test): the process start, the
#: list and the 3 s watch take ~4 s
BOUND = 25.0
FLAG_SETS: list[list[str]] = [
    ["-w"],
    ["--watch-only"],
    ["only", "-w"],
    ["-w", "-o", "name"],
]


def _requests(
    plane: ControlPlane, mark: int, namespace: str, verb: str = "watch"
) -> dict[str, list[tuple[str, float]]]:
    """Each tool's requests of ``verb`` in ``namespace``: their query (the
    resourceVersion's value left out: each tool's list read its own) and how long the
    server held them."""
    watches: dict[str, list[tuple[str, float]]] = {"kubectl": [], "kubectl-crd": []}
    for event in plane.audit_events(mark):
        if (
            event.get("verb") == verb
            and event.get("stage") == "ResponseComplete"
            and event.get("objectRef", {}).get("namespace") == namespace
        ):
            pairs = parse_qsl(urlsplit(event["requestURI"]).query)
            query = "&".join(
                f"{key}={'RV' if key == 'resourceVersion' else value}"
                for key, value in sorted(pairs)
            )
            held = datetime.fromisoformat(event["stageTimestamp"]) - datetime.fromisoformat(
                event["requestReceivedTimestamp"]
            )
            # kubectl's agent is its binary's name (kubectl.1.33/v1.33.x ...)
            agent = event.get("userAgent", "")
            tool = "kubectl-crd" if agent.startswith("kubectl-crd/") else "kubectl"
            watches[tool].append((query, held.total_seconds()))
    return watches


def test_watch_ends_at_the_request_timeout_as_kubectl(
    apiserver: ControlPlane, namespace: str
) -> None:
    apiserver.install_crds([CRONTAB_CRD])
    text = CRONTAB.format(name="only", namespace=namespace, schedule="0 1 * * *", replicas=1)
    apiserver.kubectl("apply", "-f", "-", input=text)
    config = [
        f"--kubeconfig={apiserver.kubeconfig}",
        f"--context={apiserver.context}",
        f"--request-timeout={TIMEOUT}",
    ]
    mark = apiserver.audit_mark()
    started = time.monotonic()
    runs = [
        (
            flags,
            [
                subprocess.Popen(
                    [*command, "get", RESOURCE, "-n", namespace, *flags, *config],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    env=apiserver.env(),
                )
                for command in ([apiserver.kubectl_binary], KUBECTL_CRD)
            ],
        )
        for flags in FLAG_SETS
    ]
    problems: list[str] = []
    for flags, processes in runs:
        results = []
        for process in processes:
            try:
                out, err = process.communicate(timeout=max(0.1, started + BOUND - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                out, err = process.communicate()
                problems.append(f"{process.args[0]} get {' '.join(flags)}: still running")
            results.append((process.returncode, out, err))
        (real_code, real_out, real_err), (our_code, our_out, our_err) = results
        if (our_code, our_err) != (real_code, real_err) or not _same_but_ages(our_out, real_out):
            problems.append(
                f"get {' '.join(flags)}: exit {our_code}, kubectl {real_code}\n"
                f"--- kubectl\n{real_out}{real_err}--- ours\n{our_out}{our_err}"
            )
        assert real_code == 0 and not real_err, (flags, real_err)
    assert not problems, "\n".join(problems)
    # a watch's ResponseComplete is logged once the server sees it end: a client that
    # cut it at its own timer may have exited a moment before (seen once in CI)
    deadline = time.monotonic() + 5.0
    watches = _requests(apiserver, mark, namespace)
    while time.monotonic() < deadline and any(
        len(made) < len(FLAG_SETS) for made in watches.values()
    ):
        time.sleep(0.1)
        watches = _requests(apiserver, mark, namespace)
    queries = {tool: sorted(query for query, _ in made) for tool, made in watches.items()}
    assert len(queries["kubectl"]) == len(FLAG_SETS), watches
    assert queries["kubectl-crd"] == queries["kubectl"], watches
    assert all(f"timeout={TIMEOUT}" in query for query in queries["kubectl"]), watches
    # each watch was held open until the client's timeout cut it, not ended before
    # (client-side, the timer starts a moment before the server receives the request)
    held = sorted(seconds for made in watches.values() for _, seconds in made)
    assert held[0] >= TIMEOUT_SECONDS - 0.5 and held[-1] < TIMEOUT_SECONDS + 4, watches
    print(
        f"\nget -w --request-timeout={TIMEOUT}: {len(FLAG_SETS)} flag sets, "
        f"watches held {held[0]:.2f}-{held[-1]:.2f} s"
    )


def test_request_timeout_is_sent_as_kubectl_writes_it(
    apiserver: ControlPlane, namespace: str
) -> None:
    """``?timeout=`` is ``time.Duration.String()`` of ``--request-timeout``
    (rest/request.go ``URL``): ``1m30s`` for 90 s, ``1.5s``, ``2m0s``."""
    apiserver.install_crds([CRONTAB_CRD])
    timeouts = ["90", "1500ms", "2m", "0.5s", "1h", "45s"]
    mark = apiserver.audit_mark()
    for timeout in timeouts:
        for command in ([apiserver.kubectl_binary], KUBECTL_CRD):
            done = subprocess.run(
                [*command, "get", RESOURCE, "-n", namespace, f"--request-timeout={timeout}"],
                capture_output=True,
                text=True,
                env=apiserver.env(),
                timeout=BOUND,
                check=False,
            )
            assert done.returncode == 0, (command, timeout, done.stderr)
    lists = _requests(apiserver, mark, namespace, "list")
    # the timeouts only: ours asks for no row metadata (includeObject=None) on purpose
    sent = {
        tool: [dict(parse_qsl(query)).get("timeout") for query, _ in made]
        for tool, made in lists.items()
    }
    assert len(sent["kubectl"]) == len(timeouts) and None not in sent["kubectl"], lists
    assert sent["kubectl-crd"] == sent["kubectl"], sent
