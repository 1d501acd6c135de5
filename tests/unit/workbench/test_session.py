"""The workbench's answers without a screen: tree, file checks, rows, stored object."""

from __future__ import annotations

import os
from pathlib import Path

from kubectl_crd.model.explain import resolve_target
from kubectl_crd.model.styled import plain
from kubectl_crd.output.workbench.session import Session, create_from_sample, stored_text
from kubectl_crd.sources.files import FileSource
from tests.unit.workbench.conftest import CERTIFICATE, GATEWAYCLASS, MakeSession

REPO = Path(__file__).resolve().parents[3]


def _position(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the value after ``needle`` (``"secretName: "``)."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + len(needle) + 1
    raise AssertionError(f"{needle!r} not in the text")


def test_sample_created_once_and_never_overwritten(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    assert create_from_sample(session)
    text = Path(session.path).read_text()
    assert text.startswith("# Certificate (cert-manager.io/v1), a sample")
    Path(session.path).write_text(text + "# mine\n")
    assert not create_from_sample(session)
    assert Path(session.path).read_text().endswith("# mine\n")


def test_sample_is_valid_and_previewed(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    check = session.check()
    assert check.valid, check.problems
    assert check.get.splitlines()[0].split() == ["NAME", "READY", "SECRET", "AGE"]
    assert check.get.splitlines()[1].split() == ["example-certificate", "example", "0s"]
    assert check.wide.splitlines()[0].split() == [
        "NAME", "READY", "SECRET", "ISSUER", "STATUS", "AGE",
    ]  # fmt: skip
    assert "metadata.uid" in check.added and not check.not_stored


def test_invalid_value_has_line_column_and_tree_path(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    text = Path(session.path).read_text().replace("secretName: example", "secretName: 42")
    Path(session.path).write_text(text)
    assert session.changed()
    check = session.check()
    assert not check.valid
    line, column = _position(text, "secretName: ")
    (problem,) = [p for p in check.problems if not p.blocked]
    assert (problem.line, problem.column) == (line, column)
    assert problem.field == "spec.secretName"
    assert "must be of type string" in problem.message
    assert problem.tree_path == ("spec", "secretName")
    # a rejected object's row is computed from what the file says, as get -f does
    assert check.get.splitlines()[1].split()[:2] == ["example-certificate", "42"]
    assert stored_text(check).startswith("no stored object: ")
    assert not session.changed()


def test_not_stored_and_added(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    text = Path(session.path).read_text()
    status = 'kind: Certificate\nstatus:\n  notAfter: "2030-01-01T00:00:00Z"'
    Path(session.path).write_text(text.replace("kind: Certificate", status))
    check = session.check()
    # status is a subresource: a create drops it
    assert check.valid and check.not_stored == ("status.notAfter",)
    assert "status" not in check.stored
    assert "- not stored: status.notAfter" in stored_text(check)


def test_defaults_are_added(tmp_path: Path) -> None:
    crds = FileSource([str(REPO / "examples" / "crds")]).crds()
    session = Session(resolve_target(crds, "crontab"), str(tmp_path / "ct.yaml"))
    create_from_sample(session)
    text = Path(session.path).read_text()
    assert "minReplicas: 0" in text  # sample writes the defaults out
    Path(session.path).write_text(text.replace("minReplicas: 0", "").replace("replicas: 1", ""))
    check = session.check()
    assert check.valid
    assert {"spec.minReplicas", "spec.replicas"} <= set(check.added)
    assert "spec.concurrencyPolicy" not in check.added  # written in the file
    assert check.stored["spec"]["minReplicas"] == 0 and check.stored["spec"]["replicas"] == 1
    assert "+ added (default or server): spec.minReplicas" in stored_text(check)


def test_tree_paths_of_server_fields(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    assert session.tree_path("spec.dnsNames[0]") == ("spec", "dnsNames")
    assert session.tree_path(".spec.issuerRef.name") == ("spec", "issuerRef", "name")
    assert session.tree_path("metadata.labels[app.kubernetes.io/name]") == ("metadata", "labels")
    assert session.tree_path("spec.noSuchField.deeper") == ("spec",)
    assert session.tree_path("<nil>") == ()


def test_children_one_level_in_fields_order(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    top = session.children(())
    assert [name for name, _ in top] == ["apiVersion", "kind", "metadata", "spec", "status"]
    assert dict(top)["spec"] and not dict(top)["kind"]
    issuer = dict(session.children(("spec", "issuerRef")))
    assert set(issuer) == {"group", "kind", "name"}
    assert ("spec", "issuerRef", "name") in session.finder_lists()[0]
    text = plain(session.explanation(("spec", "secretName")))
    assert "FIELD: secretName <string>" in text


def test_bad_inputs_are_messages(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    path = Path(session.path)
    assert "is gone" in session.check().message
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    assert (
        session.check().message
        == "no cert-manager.io Certificate in the file: it holds v1 ConfigMap"
    )
    path.write_text("spec: [\n")
    check = session.check()
    assert check.message.startswith("not YAML this workbench can read")
    assert check.problems[0].line >= 1
    path.write_text("")
    assert session.check().message.startswith("the file is empty")
    path.write_bytes(b"\xff\xfe\x00bad")
    assert session.check().message  # a message, not an exception


def test_update_runs_transition_rules(make_session: MakeSession, tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(
        "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\n"
        "metadata: {name: gc}\nspec:\n  controllerName: example.com/a\n"
    )
    session = make_session(GATEWAYCLASS, old_path=str(old))
    new = old.read_text().replace("example.com/a", "example.com/b")
    Path(session.path).write_text(new)
    check = session.check()
    assert check.operation == "update" and not check.valid
    (problem,) = check.problems
    assert "Value is immutable" in problem.message
    assert (problem.line, problem.column) == _position(new, "controllerName: ")
    # the same file as a create is valid: the rule needs oldSelf
    assert make_session(GATEWAYCLASS, name=os.path.basename(session.path)).check().valid
    Path(session.path).write_text(old.read_text())
    assert session.check().valid


def test_old_file_problems_are_messages(make_session: MakeSession, tmp_path: Path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text("apiVersion: v1\nkind: ConfigMap\n")
    session = make_session(GATEWAYCLASS, old_path=str(old))
    Path(session.path).write_text("apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\n")
    assert session.check().message.startswith(f"--old {old}: no gateway.networking.k8s.io")


def test_save_writes_in_place_and_is_not_a_change(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    path = Path(session.path)
    os.chmod(path, 0o640)
    inode = path.stat().st_ino
    text, problem = session.read()
    assert text is not None and not problem and not session.changed()
    session.save(text.replace("secretName: example", "secretName: saved"))
    assert not session.changed()  # the screen's own save is not a change on disk
    assert "secretName: saved" in path.read_text()
    assert (path.stat().st_ino, path.stat().st_mode & 0o777) == (inode, 0o640)
    path.write_bytes(b"kind: \xff\n")
    assert session.changed()
    text, problem = session.read()
    assert text == "kind: \ufffd\n" and problem == f"{path} is not UTF-8 (invalid start byte)"


def test_check_text_checks_the_chosen_object_of_the_kind(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    sample = Path(session.path).read_text()
    second = sample.replace("secretName: example", "secretName: 42")
    text = sample + "---\napiVersion: v1\nkind: ConfigMap\n---\n" + second
    check = session.check_text(text)
    assert (check.valid, check.document, check.documents) == (True, 1, 2)
    session.document = 1
    check = session.check_text(text)
    assert (check.valid, check.document, check.documents) == (False, 2, 2)
    (problem,) = [p for p in check.problems if not p.blocked]
    offset = len((sample + "---\napiVersion: v1\nkind: ConfigMap\n---\n").splitlines())
    assert (problem.line, problem.column) == (
        offset + _position(second, "secretName: ")[0],
        _position(second, "secretName: ")[1],
    )
    session.document = 2  # taken modulo the number of objects: back to the first
    assert session.check_text(text).document == 1
    assert Path(session.path).read_text() == sample  # checking never writes
