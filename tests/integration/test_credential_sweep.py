"""No credential in any output or written file, against the real API server.

The unit sweep (``tests/unit/security/test_credential_sweep.py``) covers peers that
fail; here the credentials are bearer tokens kube-apiserver knows (each a marker: the
static tokens of ``envtest.StaticTokens``) plus one it refuses, in a kubeconfig that
also holds the admin's client key: an admin whose commands succeed (explain, get -o
yaml/json, get -w, scale, dev --once -v --out writing files), a user without rights
(403 from the server's RBAC) and a revoked token (401). Every command runs with
``--debug`` and with ``KUBECTL_CRD_DEBUG=1``; nothing printed or written may hold a
token or a line of the client key.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from tests.integration.envtest import ControlPlane

REPO = Path(__file__).resolve().parents[2]
FOO = REPO / "examples" / "foo"
REVOKED = "kcrd-revoked-MARKERSECRET-0123456789abcdef"

#: command -> (arguments, whether the admin's run succeeds)
COMMANDS: dict[str, list[str]] = {
    "explain": ["explain", "foos.spec"],
    "get-yaml": ["get", "foos", "-o", "yaml"],
    "get-json": ["get", "foos.samplecontroller.k8s.io", "example-foo", "-o", "json"],
    "scale": ["scale", "foos/example-foo", "--replicas=2"],
    "dev": ["dev", str(FOO / "reconciler.py"), "--once", "-v"],
}


def _kubeconfig(plane: ControlPlane, path: Path) -> list[str]:
    """The plane's kubeconfig with a user per token; returns every secret it holds."""
    config = yaml.safe_load(plane.kubeconfig.read_text())
    cluster = config["contexts"][0]["context"]["cluster"]
    key = config["users"][0]["user"]["client-key-data"]
    tokens = {
        "admin": plane.tokens.admin.token,
        "nobody": plane.tokens.no_rights.token,
        "revoked": REVOKED,
    }
    config["users"] += [{"name": name, "user": {"token": t}} for name, t in tokens.items()]
    config["contexts"] += [
        {"name": name, "context": {"cluster": cluster, "user": name}} for name in tokens
    ]
    path.write_text(json.dumps(config))
    pem_lines = base64.b64decode(key).decode().splitlines()
    return [*tokens.values(), key, *(line for line in pem_lines if len(line) > 40)]


def test_no_secret_is_printed_or_written_against_the_api_server(
    apiserver: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    apiserver.install_crds([FOO / "crd.yaml"])
    foo = (FOO / "foo.yaml").read_text().replace("namespace: default", f"namespace: {namespace}")
    apiserver.kubectl("apply", "-f", "-", input=foo)
    kubeconfig = tmp_path / "config"
    secrets = _kubeconfig(apiserver, kubeconfig)
    outcomes: dict[tuple[str, str, bool], int] = {}
    leaks: list[str] = []
    for user in ("admin", "nobody", "revoked"):
        for command, args in COMMANDS.items():
            for loud in (["--debug"], []):
                home = tmp_path / f"{user}-{command}-{len(loud)}"
                home.mkdir()
                env = {k: v for k, v in os.environ.items() if not k.startswith("KUBE")}
                env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
                if not loud:
                    env["KUBECTL_CRD_DEBUG"] = "1"
                extra = ["--out", str(home / "out")] if command == "dev" else []
                result = subprocess.run(
                    [sys.executable, "-m", "kubectl_crd", *args, *extra, *loud,
                     f"--kubeconfig={kubeconfig}", f"--context={user}", "-n", namespace],
                    capture_output=True, text=True, env=env, cwd=home, timeout=120,
                    check=False,
                )  # fmt: skip
                outcomes[(user, command, bool(loud))] = result.returncode
                written = [p.read_text(errors="replace") for p in home.rglob("*") if p.is_file()]
                text = "\n".join([result.stdout, result.stderr, *written])
                leaks += [f"{user} {command} {loud}: {s[:20]}..." for s in secrets if s in text]
    print(f"\ncredential sweep on the API server: {len(outcomes)} runs, {len(leaks)} leaks")
    # the sweep reached the server: the admin's commands worked, the others were refused
    assert len(outcomes) == 3 * len(COMMANDS) * 2
    assert {code for (user, *_), code in outcomes.items() if user == "admin"} == {0}, outcomes
    assert {code for (user, *_), code in outcomes.items() if user != "admin"} == {1}, outcomes
    # and dev --out wrote what it reconciled (the files were searched too)
    assert list((tmp_path / "admin-dev-1" / "out").rglob("*.yaml"))
    assert not leaks, "\n".join(leaks)
