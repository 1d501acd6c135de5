"""kubeconfig loading and merging: client-go's loader.go and client_config.go rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubectl_crd.kube.config import ClusterConfig
from kubectl_crd.kube.kubeconfig import resolve_connection
from kubectl_crd.model.errors import KubeconfigError
from tests.unit.kube.conftest import write_kubeconfig


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(tmp_path / "home"), **extra}


@pytest.fixture
def two_files(tmp_path: Path) -> tuple[Path, Path]:
    first = write_kubeconfig(
        tmp_path / "a" / "config",
        clusters={"shared": {"server": "https://first:6443", "certificate-authority": "ca.crt"}},
        users={"shared": {"token": "first-token"}},
        contexts={
            "one": {"cluster": "shared", "user": "shared", "namespace": "ns-one"},
            "both": {"cluster": "shared", "user": "shared", "namespace": "from-first"},
        },
        current="one",
    )
    second = write_kubeconfig(
        tmp_path / "b" / "config",
        clusters={
            "shared": {"server": "https://second:6443"},
            "own": {"server": "https://own:6443", "certificate-authority": "sub/ca.crt"},
        },
        users={
            "shared": {"token": "second-token"},
            "other": {
                "tokenFile": "tok",
                "client-certificate": "c.crt",
                "client-key": "/abs/c.key",
            },
        },
        contexts={
            "both": {"cluster": "own", "user": "other", "namespace": "from-second"},
            "second": {"cluster": "shared", "user": "other"},
            "own": {"cluster": "own", "user": "other"},
        },
        current="second",
    )
    (tmp_path / "b" / "tok").write_text("file-token\n")
    return first, second


def _resolve(paths: list[Path], tmp_path: Path, **flags: str):  # type: ignore[no-untyped-def]
    env = _env(tmp_path, KUBECONFIG=":".join(str(p) for p in paths))
    return resolve_connection(ClusterConfig(**flags), env)


@pytest.mark.parametrize(
    ("context", "server", "user", "namespace"),
    [
        # the first file's current-context wins over the second's
        (None, "https://first:6443", "shared", "ns-one"),
        # a context in both files: the first file's definition
        ("both", "https://first:6443", "shared", "from-first"),
        # a context only in the second file, naming a cluster both define: the first's cluster
        ("second", "https://first:6443", "other", "default"),
        ("own", "https://own:6443", "other", "default"),
    ],
)
def test_first_file_wins_per_name_and_for_current_context(
    two_files: tuple[Path, Path],
    tmp_path: Path,
    context: str | None,
    server: str,
    user: str,
    namespace: str,
) -> None:
    flags = {"context": context} if context else {}
    connection = _resolve(list(two_files), tmp_path, **flags)
    assert (connection.server, connection.user_name, connection.namespace) == (
        server,
        user,
        namespace,
    )


def test_order_of_the_list_decides(two_files: tuple[Path, Path], tmp_path: Path) -> None:
    first, second = two_files
    connection = _resolve([second, first], tmp_path)
    assert connection.context_name == "second"
    assert connection.server == "https://second:6443"


def test_relative_paths_resolve_against_the_defining_file(
    two_files: tuple[Path, Path], tmp_path: Path
) -> None:
    connection = _resolve(list(two_files), tmp_path, context="own")
    assert connection.certificate_authority == str(tmp_path / "b" / "sub" / "ca.crt")
    assert connection.client_certificate == str(tmp_path / "b" / "c.crt")
    assert connection.client_key == "/abs/c.key"
    assert connection.token_file == str(tmp_path / "b" / "tok")
    # the cluster of "second" comes from file a: its CA is relative to a
    connection = _resolve(list(two_files), tmp_path, context="second")
    assert connection.certificate_authority == str(tmp_path / "a" / "ca.crt")


def test_missing_files_in_the_list_are_skipped(
    two_files: tuple[Path, Path], tmp_path: Path
) -> None:
    connection = _resolve([tmp_path / "absent", two_files[1]], tmp_path)
    assert connection.context_name == "second"
    assert connection.server == "https://second:6443"


def test_explicit_kubeconfig_must_exist_and_beats_the_environment(
    two_files: tuple[Path, Path], tmp_path: Path
) -> None:
    env = _env(tmp_path, KUBECONFIG=str(two_files[0]))
    with pytest.raises(KubeconfigError) as caught:
        resolve_connection(ClusterConfig(kubeconfig=str(tmp_path / "nope")), env)
    assert (
        caught.value.kubectl_line == f"error: stat {tmp_path / 'nope'}: no such file or directory"
    )
    connection = resolve_connection(ClusterConfig(kubeconfig=str(two_files[1])), env)
    assert connection.context_name == "second"


def test_home_kube_config_is_the_default(two_files: tuple[Path, Path], tmp_path: Path) -> None:
    home = tmp_path / "home" / ".kube"
    home.mkdir(parents=True)
    (home / "config").write_text(two_files[1].read_text())
    (home / "tok").write_text("t")
    connection = resolve_connection(ClusterConfig(), _env(tmp_path))
    assert connection.context_name == "second"


def test_unknown_context_is_an_invalid_configuration(
    two_files: tuple[Path, Path], tmp_path: Path
) -> None:
    with pytest.raises(KubeconfigError) as caught:
        _resolve(list(two_files), tmp_path, context="nope")
    assert caught.value.kubectl_line == (
        "Error in configuration: context was not found for specified context: nope"
    )


def test_nothing_configured_means_localhost_8080(tmp_path: Path) -> None:
    connection = resolve_connection(ClusterConfig(), _env(tmp_path))
    assert connection.server == "http://localhost:8080"
    assert connection.namespace == "default"


def test_context_with_a_missing_cluster_means_localhost_8080(tmp_path: Path) -> None:
    path = write_kubeconfig(
        tmp_path / "k", contexts={"c": {"cluster": "gone", "user": "gone"}}, current="c"
    )
    connection = resolve_connection(ClusterConfig(kubeconfig=str(path)), _env(tmp_path))
    assert connection.server == "http://localhost:8080"
    assert connection.token == ""


def test_namespace_flag_beats_the_context(two_files: tuple[Path, Path], tmp_path: Path) -> None:
    assert _resolve(list(two_files), tmp_path, namespace="x").namespace == "x"


def test_yaml_kubeconfig_and_inline_data(tmp_path: Path) -> None:
    path = tmp_path / "config"
    path.write_text(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
        "    server: https://h:1\n    certificate-authority-data: aGVsbG8=\n"
        "    tls-server-name: api.internal\n    proxy-url: http://proxy:3128\n"
        "users:\n- name: u\n  user:\n    as: someone\n    as-groups: [g1, g2]\n"
        "    as-user-extra: {scopes: [a, b]}\n"
        "contexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n"
    )
    connection = resolve_connection(ClusterConfig(kubeconfig=str(path)), _env(tmp_path))
    assert connection.certificate_authority_data == b"hello"
    assert connection.tls_server_name == "api.internal"
    assert connection.proxy_url == "http://proxy:3128"
    assert connection.impersonate_user == "someone"
    assert connection.impersonate_groups == ("g1", "g2")
    assert connection.impersonate_extra == (("scopes", ("a", "b")),)


def test_broken_yaml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "config"
    path.write_text("clusters: [unclosed\n")
    with pytest.raises(KubeconfigError, match=f'error loading config file "{path}"'):
        resolve_connection(ClusterConfig(kubeconfig=str(path)), _env(tmp_path))


@pytest.mark.parametrize(
    ("exec_config", "message"),
    [
        (
            {"apiVersion": "client.authentication.k8s.io/v1", "command": "x"},
            "interactiveMode must be specified for u to use exec authentication plugin",
        ),
        (
            {"apiVersion": "client.authentication.k8s.io/v2", "command": "x"},
            'exec plugin: invalid apiVersion "client.authentication.k8s.io/v2"',
        ),
        (
            {
                "apiVersion": "client.authentication.k8s.io/v1",
                "command": "x",
                "interactiveMode": "Sometimes",
            },
            'invalid interactiveMode for u: "Sometimes"',
        ),
    ],
)
def test_exec_stanza_checks(tmp_path: Path, exec_config: dict[str, str], message: str) -> None:
    # texts as kubectl 1.33 prints them (after "error: ")
    path = write_kubeconfig(
        tmp_path / "k",
        clusters={"c": {"server": "https://h:1"}},
        users={"u": {"exec": exec_config}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    with pytest.raises(KubeconfigError) as caught:
        resolve_connection(ClusterConfig(kubeconfig=str(path)), _env(tmp_path))
    assert caught.value.kubectl_line == f"error: {message}"


def test_exec_command_with_a_separator_is_relative_to_its_file(tmp_path: Path) -> None:
    def command(value: str) -> str:
        path = write_kubeconfig(
            tmp_path / "dir" / "k",
            clusters={"c": {"server": "https://h:1"}},
            users={
                "u": {
                    "exec": {
                        "apiVersion": "client.authentication.k8s.io/v1beta1",
                        "command": value,
                    }
                }
            },
            contexts={"x": {"cluster": "c", "user": "u"}},
            current="x",
        )
        connection = resolve_connection(ClusterConfig(kubeconfig=str(path)), _env(tmp_path))
        assert connection.exec_config is not None
        return connection.exec_config.command

    assert command("./bin/plugin") == str(tmp_path / "dir" / "bin" / "plugin")
    assert command("plugin") == "plugin"  # looked up on PATH
    assert command("/usr/bin/plugin") == "/usr/bin/plugin"


def test_missing_token_file_fails_as_kubectl(tmp_path: Path) -> None:
    path = write_kubeconfig(
        tmp_path / "k",
        clusters={"c": {"server": "https://h:1"}},
        users={"u": {"tokenFile": "missing"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    with pytest.raises(KubeconfigError) as caught:
        resolve_connection(ClusterConfig(kubeconfig=str(path)), _env(tmp_path))
    assert caught.value.kubectl_line == (
        f"error: open {tmp_path / 'missing'}: no such file or directory"
    )


def _service_account(tmp_path: Path) -> Path:
    directory = tmp_path / "sa"
    directory.mkdir()
    (directory / "token").write_text("sa-token")
    (directory / "namespace").write_text("pod-ns\n")
    (directory / "ca.crt").write_text("")
    return directory


def test_in_cluster_when_no_kubeconfig(tmp_path: Path) -> None:
    directory = _service_account(tmp_path)
    env = _env(
        tmp_path,
        KUBERNETES_SERVICE_HOST="10.0.0.1",
        KUBERNETES_SERVICE_PORT="443",
        KUBECTL_CRD_SERVICE_ACCOUNT_DIR=str(directory),
    )
    connection = resolve_connection(ClusterConfig(), env)
    assert connection.in_cluster
    assert connection.server == "https://10.0.0.1:443"
    assert connection.token_file == str(directory / "token")
    assert connection.certificate_authority == str(directory / "ca.crt")
    assert connection.namespace == "pod-ns"
    assert resolve_connection(ClusterConfig(namespace="x"), env).namespace == "x"
    assert resolve_connection(ClusterConfig(), {**env, "POD_NAMESPACE": "p"}).namespace == "p"
    ipv6 = resolve_connection(ClusterConfig(), {**env, "KUBERNETES_SERVICE_HOST": "fd00::1"})
    assert ipv6.server == "https://[fd00::1]:443"


def test_a_kubeconfig_beats_in_cluster(two_files: tuple[Path, Path], tmp_path: Path) -> None:
    directory = _service_account(tmp_path)
    env = _env(
        tmp_path,
        KUBECONFIG=str(two_files[0]),
        KUBERNETES_SERVICE_HOST="10.0.0.1",
        KUBERNETES_SERVICE_PORT="443",
        KUBECTL_CRD_SERVICE_ACCOUNT_DIR=str(directory),
    )
    assert not resolve_connection(ClusterConfig(), env).in_cluster


def test_in_cluster_needs_the_token_file(tmp_path: Path) -> None:
    env = _env(
        tmp_path,
        KUBERNETES_SERVICE_HOST="10.0.0.1",
        KUBERNETES_SERVICE_PORT="443",
        KUBECTL_CRD_SERVICE_ACCOUNT_DIR=str(tmp_path / "none"),
    )
    assert resolve_connection(ClusterConfig(), env).server == "http://localhost:8080"


def test_secrets_stay_out_of_repr(tmp_path: Path) -> None:
    path = write_kubeconfig(
        tmp_path / "k",
        clusters={"c": {"server": "https://h:1"}},
        users={"u": {"token": "MARKER-token-1", "password": "MARKER-pw", "username": "me"}},
        contexts={"x": {"cluster": "c", "user": "u"}},
        current="x",
    )
    connection = resolve_connection(ClusterConfig(kubeconfig=str(path)), _env(tmp_path))
    assert connection.token == "MARKER-token-1"
    assert "MARKER" not in repr(connection)
