"""Every kubeconfig form, live against the real API server, kubectl and kubectl-crd side by side.

For each form of ``cluster_access.FORMS`` and each live command of ``LIVE_COMMANDS``:

- ``test_kubectl_meets_the_form``: the real kubectl does what the form expects (its
  exit code, its error text, the user the server saw, the proxy and plugin calls).
  This is the check on the expectations themselves: they are kubectl's behaviour.
- ``test_kubectl_crd_matches_kubectl``: kubectl-crd, run right after kubectl on the
  same files, does the same: the same exit code, on success the same stdout and an
  empty stderr, on failure kubectl's error text of that very run (or, where the form
  documents why it cannot, the stated stable part), the same user on the server, no
  request at all where kubectl sends none; and none of the form's marker secrets in
  its output, with and without ``--debug``.

``test_token_file_is_read_for_each_call`` rewrites a tokenFile between calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.cluster_access import (
    FORMS,
    LIVE_COMMANDS,
    Access,
    Expect,
    Form,
    FormContext,
    LiveCommand,
    Run,
    expectation_problems,
    kubeconfig_document,
    leaked_secrets,
    run_tool,
    verified_cluster,
    warm_kubectl_cache,
    write_kubeconfig,
)
from tests.integration.connect_proxy import ConnectProxy
from tests.integration.envtest import SERVER_DNS_NAME, ControlPlane

UNAUTHORIZED = re.escape("error: You must be logged in to the server (Unauthorized)")


@pytest.fixture(scope="module")
def kubectl_cache(apiserver: ControlPlane, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The commands' CRDs installed, and kubectl's discovery cache warm."""
    for command in LIVE_COMMANDS:
        command.prepare(apiserver)
    return warm_kubectl_cache(apiserver, tmp_path_factory.mktemp("kubectl"))


@pytest.fixture
def context(apiserver: ControlPlane, kubectl_cache: Path, tmp_path: Path) -> Iterator[FormContext]:
    with ConnectProxy({SERVER_DNS_NAME: "127.0.0.1"}) as proxy:
        context = FormContext(apiserver, tmp_path, proxy, kubectl_cache)
        try:
            yield context
        finally:
            context.close()


def _kubectl_args(command: LiveCommand, expect: Expect) -> tuple[str, ...]:
    return command.kubectl if expect.ok else command.kubectl_same_request


def _report(problems: list[str], *runs: Run) -> str:
    return "\n".join(["", *problems, *(run.describe() for run in runs)])


@pytest.mark.parametrize("command", LIVE_COMMANDS, ids=str)
@pytest.mark.parametrize("form", FORMS, ids=str)
def test_kubectl_meets_the_form(form: Form, command: LiveCommand, context: FormContext) -> None:
    access = form.build(context)
    run = run_tool("kubectl", _kubectl_args(command, access.expect), access, context)
    problems = expectation_problems(run, access, error_pattern=access.expect.error)
    assert not problems, _report(problems, run)


@pytest.mark.parametrize("command", LIVE_COMMANDS, ids=str)
@pytest.mark.parametrize("form", FORMS, ids=str)
def test_kubectl_crd_matches_kubectl(
    form: Form, command: LiveCommand, context: FormContext
) -> None:
    access = form.build(context)
    expect = access.expect
    kubectl = run_tool("kubectl", _kubectl_args(command, expect), access, context)
    ours = run_tool("kubectl-crd", command.ours, access, context)
    if expect.ours_error is not None:
        pattern: str | None = expect.ours_error  # why: expect.why_different
    elif expect.ok:
        pattern = None
    else:
        pattern = re.escape(kubectl.error_text(access.plugin_stderr))
    problems = expectation_problems(ours, access, error_pattern=pattern)
    if ours.returncode != kubectl.returncode:
        problems.append(f"exit {ours.returncode}, kubectl exited {kubectl.returncode}")
    if ours.stdout != kubectl.stdout:  # on failure, both print nothing there
        problems.append("stdout differs from kubectl's")
    problems.extend(
        f"secret in the output: {secret}" for secret in leaked_secrets(ours, access.secrets)
    )
    debug = run_tool("kubectl-crd", ["--debug", *command.ours], access, context)
    problems.extend(
        f"secret in the --debug output: {secret}"
        for secret in leaked_secrets(debug, access.secrets)
    )
    if debug.returncode != ours.returncode:
        problems.append(f"exit {debug.returncode} with --debug, {ours.returncode} without")
    if problems and expect.ours_error is not None:
        problems.append(f"(ours may differ from kubectl here: {expect.why_different})")
    assert not problems, _report(problems, kubectl, ours, debug)


@pytest.mark.parametrize("command", LIVE_COMMANDS, ids=str)
@pytest.mark.parametrize("tool", ["kubectl", "kubectl-crd"])
def test_token_file_is_read_for_each_call(
    tool: str, command: LiveCommand, context: FormContext
) -> None:
    """Each call uses the token the file holds then; a token the server does not know
    (revoked) is a 401, not a fallback to an earlier one."""
    tokens = context.plane.tokens
    token_file = context.directory / "token"
    path = write_kubeconfig(
        context.directory / "kubeconfig",
        kubeconfig_document(
            cluster=verified_cluster(context.plane), user={"tokenFile": str(token_file)}
        ),
    )
    revoked = "kcrd-revoked-" + tokens.admin.token[-16:][::-1]
    steps = [
        (tokens.admin.token, Expect(user=tokens.admin.user)),
        (tokens.second_admin.token, Expect(user=tokens.second_admin.user)),
        (revoked, Expect(error=UNAUTHORIZED)),
    ]
    secrets = [tokens.admin.token, tokens.second_admin.token, revoked]
    problems: list[str] = []
    runs: list[Run] = []
    for token, expect in steps:
        token_file.write_text(token + "\n")
        access = Access(expect, [path], secrets=secrets)
        args = command.ours if tool == "kubectl-crd" else _kubectl_args(command, expect)
        run = run_tool(tool, args, access, context)
        runs.append(run)
        step = f"token {token[:18]}...: "
        problems.extend(
            step + p for p in expectation_problems(run, access, error_pattern=expect.error)
        )
        if tool == "kubectl-crd":
            problems.extend(
                step + f"secret in the output: {s}" for s in leaked_secrets(run, secrets)
            )
    assert not problems, _report(problems, *runs)


@pytest.mark.parametrize("command", LIVE_COMMANDS, ids=str)
@pytest.mark.parametrize("form", ["token", "client-cert-data", "exec-v1-token"])
def test_live_commands_do_not_import_kubernetes(
    form: str, command: LiveCommand, context: FormContext
) -> None:
    """Issue 8: one-shot commands never import the ``kubernetes`` package (~340 ms)."""
    access = next(f for f in FORMS if f.name == form).build(context)
    access.env["PYTHONPROFILEIMPORTTIME"] = "1"
    run = run_tool("kubectl-crd", command.ours, access, context)
    assert run.returncode == 0, run.describe()
    imported = [
        line.rsplit("|", 1)[1].strip()
        for line in run.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    ]
    assert imported, "PYTHONPROFILEIMPORTTIME printed nothing"
    heavy = sorted(
        {name for name in imported if name.split(".")[0] in ("kubernetes", "urllib3", "requests")}
    )
    assert not heavy, f"imported: {heavy[:20]}"


@pytest.mark.parametrize("command", LIVE_COMMANDS, ids=str)
def test_in_cluster_configuration_from_the_command_line(
    command: LiveCommand, context: FormContext
) -> None:
    """In a pod (no kubeconfig; service host, port and account): the account's token and
    CA, as the admin kubeconfig's kubectl sees the same output. kubectl itself cannot
    join in: its service-account directory is fixed at /var/run/secrets/..."""
    plane = context.plane
    account = context.directory / "serviceaccount"
    account.mkdir()
    (account / "token").write_text(plane.tokens.second_admin.token)
    (account / "ca.crt").write_bytes(plane.pki.ca_cert.read_bytes())
    (account / "namespace").write_text("kcrd-pod-namespace")
    env = {
        "KUBERNETES_SERVICE_HOST": "127.0.0.1",
        "KUBERNETES_SERVICE_PORT": str(plane.port),
        "KUBECTL_CRD_SERVICE_ACCOUNT_DIR": str(account),
    }
    access = Access(
        Expect(user=plane.tokens.second_admin.user),
        [context.directory / "absent"],
        env=env,
        secrets=[plane.tokens.second_admin.token],
    )
    ours = run_tool("kubectl-crd", command.ours, access, context)
    reference = run_tool("kubectl", command.kubectl, Access(Expect(), [plane.kubeconfig]), context)
    problems = expectation_problems(ours, access, error_pattern=None)
    if ours.stdout != reference.stdout:
        problems.append("stdout differs from kubectl's with the admin kubeconfig")
    problems.extend(f"secret in the output: {s}" for s in leaked_secrets(ours, access.secrets))
    assert not problems, _report(problems, ours, reference)
