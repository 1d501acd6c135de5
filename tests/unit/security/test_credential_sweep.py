"""No credential in any output or written file: every kind of kubeconfig secret, swept
across the commands that reach a cluster and the flags that make them talk more.

A kubeconfig holds marker secrets of every kind (``credentials.marker_users``: a token,
a token file, a password, client certificate and key data, an exec plugin whose output
carries a token, an oidc auth-provider's id-token, refresh-token and client secret) and
a context for each (peer, user) pair. Each of explain, get, scale and dev (``--once``,
``-v``, ``--out``) runs against each context, with ``--debug``, ``KUBECTL_CRD_DEBUG=1``
or neither (rotated so that each pair of user and command meets all three); the peers
are unreachable (http and https), or answer 401, 403, 500, or a body that is not JSON.
Nothing a run prints on stdout or stderr, and no file it leaves in its home, working
directory or ``--out`` directory, may hold a secret. The same sweep against the real API
server, where the credentials work: ``tests/integration/test_credential_sweep.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.unit.security.credentials import (
    failing_peers,
    marker_users,
    secrets_of,
    write_marker_kubeconfig,
)

REPO = Path(__file__).resolve().parents[3]
RECONCILER = REPO / "examples" / "foo" / "reconciler.py"

#: command -> its arguments (dev's --out directory is added per run)
COMMANDS: dict[str, list[str]] = {
    "explain": ["explain", "foos.spec"],
    "get": ["get", "foos", "-o", "yaml"],
    "get-watch": ["get", "foos", "-w"],
    "scale": ["scale", "foos/x", "--replicas=2"],
    "dev": ["dev", str(RECONCILER), "--once", "-v"],
}
#: the kubeconfig users of ``credentials.marker_users``, one per kind of secret
USERS = ["token", "token-file", "basic", "client-cert", "exec", "oidc"]
#: (flags, environment) that make a run tell more
LOUDNESS: list[tuple[list[str], dict[str, str]]] = [
    (["--debug"], {}),
    ([], {"KUBECTL_CRD_DEBUG": "1"}),
    ([], {}),
]


def _run(
    kubeconfig: Path, context: str, command: str, home: Path, loudness: int
) -> tuple[str, str]:
    """One run: what is wrong with its exit (or ""), and everything it printed and wrote,
    to be searched for secrets."""
    flags, more_env = LOUDNESS[loudness]
    home.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_CRD"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), **more_env)
    args = list(COMMANDS[command])
    if command == "dev":
        args += ["--out", str(home / "out")]
    result = subprocess.run(
        [sys.executable, "-m", "kubectl_crd", *args, *flags,
         f"--kubeconfig={kubeconfig}", f"--context={context}", "--request-timeout=5s"],
        capture_output=True, text=True, env=env, cwd=home, timeout=60, check=False,
    )  # fmt: skip
    written = [
        path.read_text(errors="replace") for path in sorted(home.rglob("*")) if path.is_file()
    ]
    problem = ""
    if result.returncode != 1:  # every peer fails: an error, never an internal one (3)
        problem = f"exit {result.returncode}: {result.stderr.strip().splitlines()[-1:]}"
    elif "Traceback" in result.stderr and not (flags or more_env):
        problem = "a traceback without --debug"
    return problem, "\n".join([result.stdout, result.stderr, *written])


def test_no_secret_is_printed_or_written(tmp_path: Path) -> None:
    secrets_dir = tmp_path / "secrets"
    secrets_dir.mkdir()
    users = marker_users(secrets_dir)
    assert list(users) == USERS
    secrets = secrets_of(users)
    with failing_peers() as urls:
        urls["unreachable-tls"] = "https://127.0.0.1:1"
        contexts = write_marker_kubeconfig(secrets_dir / "config", urls)
        peers = list(urls)
        # each (user, command) pair on two peers, so that each user meets every peer;
        # the loudness rotates over the three
        runs: list[tuple[str, str, int, int]] = []
        for i, user in enumerate(USERS):
            for j, command in enumerate(COMMANDS):
                for k in (i + 2 * j, i + 2 * j + 1):
                    context = f"{peers[k % len(peers)]}.{user}"
                    runs.append((context, command, (i + j + k) % len(LOUDNESS), len(runs)))
        assert {context for context, *_ in runs} == set(contexts)
        with ThreadPoolExecutor(max_workers=4) as pool:
            results = list(
                pool.map(
                    lambda run: _run(
                        secrets_dir / "config", run[0], run[1], tmp_path / f"run-{run[3]}", run[2]
                    ),
                    runs,
                )
            )
    problems = [
        f"{context} {command} loudness={loudness}: {problem}"
        for (context, command, loudness, _), (problem, _) in zip(runs, results, strict=True)
        if problem
    ]
    leaks = [
        f"{context} {command} loudness={loudness}: {secret[:40]}"
        for (context, command, loudness, _), (_, output) in zip(runs, results, strict=True)
        for secret in secrets
        if secret in output
    ]
    print(f"\ncredential sweep: {len(runs)} runs, {len(secrets)} secrets, {len(leaks)} leaks")
    assert len(runs) == 2 * len(USERS) * len(COMMANDS)
    assert not leaks, "\n".join(leaks)
    assert not problems, "\n".join(problems)
