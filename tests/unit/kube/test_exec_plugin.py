"""Exec credential plugins (client-go plugin/pkg/client/auth/exec/exec.go), with small
plugins written by the tests. Error texts are kubectl 1.33's."""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from kubectl_crd.kube.credentials import INSTALL_HINT_HELP, ExecPlugin
from kubectl_crd.kube.kubeconfig import Connection, ExecConfig
from kubectl_crd.model.errors import CredentialError

V1 = "client.authentication.k8s.io/v1"
V1BETA1 = "client.authentication.k8s.io/v1beta1"
PREFIX = "Unable to connect to the server: getting credentials: "
_TIME = 'decoding stdout: parsing time "%s" as "2006-01-02T15:04:05Z07:00": cannot parse %s'
_FIND_KIND = (
    "decoding stdout: couldn't get version/kind; json parse error: json: cannot unmarshal %s "
    'into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; '
    'Kind string "json:\\"kind,omitempty\\"" }'
)
_FIELD = (
    "decoding stdout: json: cannot unmarshal %s into Go struct field "
    "ExecCredentialStatus.status.%s of type string"
)


def _plugin(tmp_path: Path, body: str, name: str = "plugin") -> str:
    """A plugin script; it appends KUBERNETES_EXEC_INFO and its argv to calls.jsonl."""
    path = tmp_path / name
    path.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"log = open({str(tmp_path / 'calls.jsonl')!r}, 'a')\n"
        "log.write(json.dumps({'info': json.loads(os.environ['KUBERNETES_EXEC_INFO']),"
        " 'argv': sys.argv[1:], 'env': os.environ.get('PLUGIN_ENV'),"
        " 'stdin_tty': os.isatty(0)}) + '\\n')\n"
        "log.close()\n" + body
    )
    path.chmod(0o755)
    return str(path)


def _calls(tmp_path: Path) -> list[dict[str, object]]:
    log = tmp_path / "calls.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def _credential(api_version: str = V1, **status: object) -> str:
    return json.dumps({"apiVersion": api_version, "kind": "ExecCredential", "status": status})


def _printing(document: str) -> str:
    return f"print({document!r})\n"


def _exec(command: str, **config: object) -> ExecPlugin:
    values: dict[str, object] = {"api_version": V1, "interactive_mode": "Never", **config}
    exec_config = ExecConfig(command=command, **values)  # type: ignore[arg-type]
    connection = Connection(
        server="https://api.example.com:6443",
        certificate_authority_data=b"-----BEGIN CERTIFICATE-----\n",
        tls_server_name="api.internal",
        exec_config=exec_config,
    )
    return ExecPlugin(exec_config, connection, environ=dict(os.environ), stdin_is_terminal=False)


def test_token_and_exec_info(tmp_path: Path) -> None:
    command = _plugin(tmp_path, _printing(_credential(token="MARKER-exec-token")))
    plugin = _exec(command, args=("--flag", "x"), env=(("PLUGIN_ENV", "set"),))
    assert plugin.authorization() == "Bearer MARKER-exec-token"
    (call,) = _calls(tmp_path)
    assert call["info"] == {
        "kind": "ExecCredential",
        "apiVersion": V1,
        "spec": {"interactive": False},
    }
    assert call["argv"] == ["--flag", "x"]
    assert call["env"] == "set"
    assert call["stdin_tty"] is False


def test_provide_cluster_info(tmp_path: Path) -> None:
    command = _plugin(tmp_path, _printing(_credential(V1BETA1, token="t")))
    plugin = _exec(
        command,
        api_version=V1BETA1,
        provide_cluster_info=True,
        cluster_config={"audience": "x"},
    )
    plugin.authorization()
    (call,) = _calls(tmp_path)
    info = call["info"]
    assert isinstance(info, dict)
    assert info["apiVersion"] == V1BETA1
    assert info["spec"] == {
        "cluster": {
            "server": "https://api.example.com:6443",
            "tls-server-name": "api.internal",
            "certificate-authority-data": "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==",
            "config": {"audience": "x"},
        },
        "interactive": False,
    }


def test_credentials_are_cached_until_they_expire(tmp_path: Path) -> None:
    later = (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    command = _plugin(tmp_path, _printing(_credential(token="t", expirationTimestamp=later)))
    plugin = _exec(command)
    plugin.authorization()
    plugin.authorization()
    assert len(_calls(tmp_path)) == 1


def test_expired_credentials_run_the_plugin_again(tmp_path: Path) -> None:
    past = (datetime.now(UTC) - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    command = _plugin(tmp_path, _printing(_credential(token="t", expirationTimestamp=past)))
    plugin = _exec(command)
    plugin.authorization()
    plugin.authorization()
    assert len(_calls(tmp_path)) == 2


def test_refresh_after_unauthorized_runs_the_plugin_again(tmp_path: Path) -> None:
    body = (
        "n = len(open(log.name).read().splitlines())\n"
        f"print(json.dumps({{'apiVersion': {V1!r}, 'kind': 'ExecCredential',"
        " 'status': {'token': 'token-%d' % n}}))\n"
    )
    plugin = _exec(_plugin(tmp_path, body))
    assert plugin.authorization() == "Bearer token-1"
    assert plugin.refresh_after_unauthorized() is True
    assert plugin.authorization() == "Bearer token-2"


def test_client_certificate_output(tmp_path: Path) -> None:
    command = _plugin(
        tmp_path,
        _printing(_credential(clientCertificateData="CERT", clientKeyData="MARKER-KEY")),
    )
    plugin = _exec(command)
    assert plugin.authorization() == ""
    assert plugin.client_certificate() == (b"CERT", b"MARKER-KEY")


@pytest.mark.parametrize(
    ("stdout", "message"),
    [
        ("", f"exec plugin is configured to use API version {V1}, plugin returned version "
         "client.authentication.k8s.io/__internal"),
        (json.dumps({"apiVersion": V1, "kind": "ExecCredential"}),
         "exec plugin didn't return a status field"),
        (json.dumps({"apiVersion": V1, "kind": "ExecCredential", "status": {}}),
         "exec plugin didn't return a token or cert/key pair"),
        (_credential(V1BETA1, token="x"),
         f"exec plugin is configured to use API version {V1}, plugin returned version {V1BETA1}"),
        (_credential(clientCertificateData="c"),
         "exec plugin returned only certificate or key, not both"),
        # the status as client-go decodes it (kubectl 1.33's texts, each checked by hand;
        # the matrix's exec-undecodable-expiry form compares the first with kubectl):
        # time.Parse(RFC3339) refuses a date alone, an empty string, an hour of 25
        (_credential(token="t", expirationTimestamp="2026-01-01"),
         _TIME % ("2026-01-01", '"" as "T"')),
        (_credential(token="t", expirationTimestamp=""), _TIME % ("", '"" as "2006"')),
        (_credential(token="t", expirationTimestamp="2026-01-01T25:00:00Z"),
         'decoding stdout: parsing time "2026-01-01T25:00:00Z": hour out of range'),
        (_credential(token="t", expirationTimestamp={}), _FIELD % ("object", "expirationTimestamp")),
        (_credential(token=12), _FIELD % ("number", "token")),
        (_credential(token="t", clientCertificateData=True),
         _FIELD % ("bool", "clientCertificateData")),
        # the first field of the wrong kind in the document's order...
        (_credential(clientKeyData=1, token=True), _FIELD % ("number", "clientKeyData")),
        # ...unless the time fails: its error ends the decoding, wherever it stands
        (_credential(token=["a"], expirationTimestamp="x"), _TIME % ("x", '"x" as "2006"')),
        # the universal decoder's steps (checked by hand against kubectl 1.33): what
        # apiVersion and kind are read into, their defaults from the internal type, the
        # kinds the scheme registers, then the unmarshal into the version's types
        ("[1]", _FIND_KIND % "array"),
        ('"x"', _FIND_KIND % "string"),
        ('{"apiVersion": 1, "kind": "ExecCredential"}',
         "decoding stdout: couldn't get version/kind; json parse error: json: cannot "
         "unmarshal number into Go struct field .apiVersion of type string"),
        ("{}", f"exec plugin is configured to use API version {V1}, plugin returned version "
         "client.authentication.k8s.io/__internal"),
        ("null", f"exec plugin is configured to use API version {V1}, plugin returned "
         "version client.authentication.k8s.io/__internal"),
        (json.dumps({"kind": "ExecCredential", "status": {"token": "t"}}),
         f"exec plugin is configured to use API version {V1}, plugin returned version "
         "client.authentication.k8s.io/__internal"),
        (json.dumps({"apiVersion": V1, "kind": "Foo"}),
         f'decoding stdout: no kind "Foo" is registered for version "{V1}" in scheme '
         '"pkg/client/auth/exec/exec.go:62"'),
        (json.dumps({"apiVersion": "v1", "kind": "ExecCredential"}),
         'decoding stdout: no kind "ExecCredential" is registered for version "v1" in '
         'scheme "pkg/client/auth/exec/exec.go:62"'),
        (json.dumps({"apiVersion": "a/b/c"}), "decoding stdout: unexpected GroupVersion string: a/b/c"),
        (json.dumps({"apiVersion": V1, "kind": "ExecCredential", "status": "x"}),
         "decoding stdout: json: cannot unmarshal string into Go struct field "
         "ExecCredential.status of type v1.ExecCredentialStatus"),
        (json.dumps({"apiVersion": V1BETA1, "kind": "ExecCredential", "status": 5}),
         "decoding stdout: json: cannot unmarshal number into Go struct field "
         "ExecCredential.status of type v1beta1.ExecCredentialStatus"),
        (_credential(token="t") [:-1] + ', "spec": {"interactive": "yes"}}',
         "decoding stdout: json: cannot unmarshal string into Go struct field "
         "ExecCredentialSpec.spec.interactive of type bool"),
    ],
)  # fmt: skip
def test_bad_output(tmp_path: Path, stdout: str, message: str) -> None:
    plugin = _exec(_plugin(tmp_path, f"sys.stdout.write({stdout!r})\n"))
    with pytest.raises(CredentialError) as caught:
        plugin.authorization()
    assert caught.value.kubectl_line == PREFIX + message


def test_a_null_expiry_never_expires(tmp_path: Path) -> None:
    plugin = _exec(_plugin(tmp_path, _printing(_credential(token="t", expirationTimestamp=None))))
    assert plugin.authorization() == plugin.authorization() == "Bearer t"
    assert len(_calls(tmp_path)) == 1


@pytest.mark.parametrize(("hours", "calls"), [(1, 1), (-1, 2)])
def test_an_expiry_is_read_with_its_offset_and_fraction(
    tmp_path: Path, hours: int, calls: int
) -> None:
    # an hour ahead (behind) written at -05:00: read as +05:00 it would be 9 hours behind
    # (11 ahead), and the cache would answer the other way
    at = (datetime.now(UTC) + timedelta(hours=hours)).astimezone(timezone(timedelta(hours=-5)))
    stamp = at.strftime("%Y-%m-%dT%H:%M:%S,5-05:00")  # Go's parse takes a comma fraction
    plugin = _exec(_plugin(tmp_path, _printing(_credential(token="t", expirationTimestamp=stamp))))
    plugin.authorization()
    plugin.authorization()
    assert len(_calls(tmp_path)) == calls


def test_output_that_is_not_json_is_not_quoted(tmp_path: Path) -> None:
    plugin = _exec(_plugin(tmp_path, "print('MARKER-not-json')\n"))
    with pytest.raises(CredentialError) as caught:
        plugin.authorization()
    assert caught.value.kubectl_line.startswith(
        PREFIX + "decoding stdout: couldn't get version/kind; json parse error: "
    )
    assert "MARKER" not in caught.value.kubectl_line


def test_failing_plugin(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    command = _plugin(
        tmp_path,
        "sys.stderr.write('plugin says why\\n')\n"
        + _printing(_credential(token="MARKER-failed"))
        + "sys.exit(3)\n",
    )
    with pytest.raises(CredentialError) as caught:
        _exec(command).authorization()
    assert caught.value.kubectl_line == (
        PREFIX + f"exec: executable {command} failed with exit code 3"
    )
    captured = capfd.readouterr()
    assert "plugin says why" in captured.err  # the plugin's stderr is the user's
    assert "MARKER" not in captured.out + captured.err


def test_plugin_not_on_path_shows_the_install_hint(tmp_path: Path) -> None:
    plugin = _exec("kcrd-no-such-plugin", install_hint="brew install it")
    with pytest.raises(CredentialError) as caught:
        plugin.authorization()
    assert caught.value.kubectl_line == (
        PREFIX + "exec: executable kcrd-no-such-plugin not found" + INSTALL_HINT_HELP
        + "\n\nbrew install it"
    )  # fmt: skip
    assert INSTALL_HINT_HELP.startswith(
        "\n\nIt looks like you are trying to use a client-go credential plugin"
    )


def test_interactive_always_without_a_terminal_does_not_run(tmp_path: Path) -> None:
    command = _plugin(tmp_path, _printing(_credential(token="t")))
    with pytest.raises(CredentialError) as caught:
        _exec(command, interactive_mode="Always").authorization()
    assert caught.value.kubectl_line == (
        PREFIX + "exec plugin cannot support interactive mode: standard input is not a terminal"
    )
    assert _calls(tmp_path) == []


def test_if_available_on_a_terminal_is_interactive(tmp_path: Path) -> None:
    command = _plugin(tmp_path, _printing(_credential(token="t")))
    exec_config = ExecConfig(command=command, api_version=V1, interactive_mode="IfAvailable")
    plugin = ExecPlugin(
        exec_config, Connection(server="https://h:1"), environ=dict(os.environ),
        stdin_is_terminal=True,
    )  # fmt: skip
    plugin.authorization()
    (call,) = _calls(tmp_path)
    assert call["info"]["spec"] == {"interactive": True}  # type: ignore[index]


def test_repr_has_no_secret(tmp_path: Path) -> None:
    plugin = _exec(_plugin(tmp_path, _printing(_credential(token="MARKER-repr"))))
    plugin.authorization()
    assert "MARKER" not in repr(plugin)
    assert "MARKER-repr" in plugin.secrets()
