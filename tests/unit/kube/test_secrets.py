"""No credential in any output: marker secrets of every auth kind, through the CLI with
and without --debug (tracebacks included), on the failures that can carry them."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kubectl_crd.kube.client import _scrub
from kubectl_crd.model.errors import ClusterUnreachableError
from tests.unit.kube.conftest import Reply, ScriptedServer, write_kubeconfig

MARKER = "MARKERSECRET"


def _run(kubeconfig: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KUBE")}
    env["HOME"] = str(kubeconfig.parent)
    return subprocess.run(
        [sys.executable, "-m", "kubectl_crd", *flags, "--kubeconfig", str(kubeconfig),
         "explain", "things"],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip


def _plugin(tmp_path: Path, exit_code: int) -> str:
    path = tmp_path / f"plugin-{exit_code}"
    credential = {
        "apiVersion": "client.authentication.k8s.io/v1",
        "kind": "ExecCredential",
        "status": {"token": f"{MARKER}-exec"},
    }
    path.write_text(
        f"#!{sys.executable}\nimport sys\nprint({json.dumps(credential)!r})\nsys.exit({exit_code})\n"
    )
    path.chmod(0o755)
    return str(path)


def _users(tmp_path: Path) -> dict[str, dict[str, Any]]:
    tmp_path.mkdir(parents=True)
    token_file = tmp_path / "token"
    token_file.write_text(f"{MARKER}-file\n")
    return {
        "token": {"token": f"{MARKER}-token"},
        "token-with-newline": {"token": f"{MARKER}-nl\nx"},
        "token-file": {"tokenFile": str(token_file)},
        "basic": {"username": "me", "password": f"{MARKER}-password"},
        "exec-ok": {
            "exec": {
                "apiVersion": "client.authentication.k8s.io/v1",
                "command": _plugin(tmp_path, 0),
                "interactiveMode": "Never",
            }
        },
        "exec-fails": {
            "exec": {
                "apiVersion": "client.authentication.k8s.io/v1",
                "command": _plugin(tmp_path, 1),
                "interactiveMode": "Never",
            }
        },
        "bad-key-data": {
            "client-certificate-data": base64.b64encode(b"not a certificate").decode(),
            "client-key-data": base64.b64encode(f"{MARKER}-key".encode()).decode(),
        },
    }


@pytest.mark.parametrize("debug", [False, True])
def test_no_secret_in_any_output(
    tmp_path: Path, scripted_server: ScriptedServer, debug: bool
) -> None:
    servers = {
        "forbidden": scripted_server.url,
        "tls-refused": "https://127.0.0.1:1",
    }
    checked = 0
    for server_name, server in servers.items():
        for user_name, user in _users(tmp_path / f"{server_name}-{debug}").items():
            if server_name == "forbidden":
                scripted_server.replies = [
                    Reply(403, {"kind": "Status", "reason": "Forbidden", "message": "no"})
                ]
            path = write_kubeconfig(
                tmp_path / f"{server_name}-{debug}" / f"{user_name}.kubeconfig",
                clusters={"c": {"server": server, "insecure-skip-tls-verify": True}},
                users={user_name: user},
                contexts={"x": {"cluster": "c", "user": user_name}},
                current="x",
            )
            result = _run(path, *(["--debug"] if debug else []))
            assert result.returncode != 0, (user_name, result.stdout, result.stderr)
            assert MARKER not in result.stdout + result.stderr, (
                user_name, server_name, result.stderr,
            )  # fmt: skip
            if debug and user_name != "exec-fails":
                # the error line is printed, the traceback too, yet no secret
                assert result.stderr.strip(), user_name
            checked += 1
    assert checked == 14
    sent = json.dumps([r["headers"].get("Authorization", "") for r in scripted_server.requests])
    assert f"{MARKER}-token" in sent  # the credentials did reach the server


def test_scrub_replaces_secrets_in_the_whole_chain() -> None:
    try:
        try:
            raise ValueError(f"Invalid header value b'Bearer {MARKER}\\n'")
        except ValueError as inner:
            raise ClusterUnreachableError(f"wrapping {MARKER}") from inner
    except ClusterUnreachableError as outer:
        _scrub(outer, (MARKER,))
        assert MARKER not in str(outer) + outer.kubectl_line
        assert outer.__cause__ is not None
        assert MARKER not in str(outer.__cause__)
