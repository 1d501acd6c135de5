"""What a new user of the workbench ran into, each driven by Textual's pilot (or, for
the session's answers, without a screen): the search's arrow keys, a terminal of 80
or 60 columns (the rows of ``kubectl get``, the keys in the footer, room for the
tree), an error without a position of its own, and a file of another version of a
multi-version CRD.

The screen is read as its characters (``export_screenshot``, row by row), as the
snapshot tests read it; every wait is for a state, bounded (``_until``).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Tree

from kubectl_crd.model.explain import resolve_target
from kubectl_crd.model.explain.finder import rank
from kubectl_crd.output.workbench.app import WorkbenchApp
from kubectl_crd.output.workbench.session import Session, create_from_sample
from kubectl_crd.sources.files import FileSource
from tests.unit.workbench.conftest import CERTIFICATE, GATEWAYCLASS, MakeSession
from tests.unit.workbench.test_screen import _cursor, _problems, _text, _until
from tests.unit.workbench.test_snapshots import _screen_text

#: every key of the screen's footer outside the editor pane (a file of one object: no d)
FOOTER_KEYS = ("q", "^s", "/", "j", "g", "n", "f", "e", "x", "s", "w")


def _screen(app: WorkbenchApp) -> list[str]:
    return _screen_text(app.export_screenshot())


def _missing_keys(app: WorkbenchApp, rows: int) -> list[str]:
    """The keys of ``FOOTER_KEYS`` not on the screen's last ``rows`` rows."""
    footer = " " + " ".join(_screen(app)[-rows:]) + " "
    return [key for key in FOOTER_KEYS if f" {key} " not in footer]


def _run(session: Session, size: tuple[int, int], scene: Callable[..., object]) -> None:
    async def run() -> None:
        app = WorkbenchApp(session, colour=False)
        async with app.run_test(size=size) as pilot:
            await _until(pilot, lambda: app._checked and not app._checking, "the first check")
            await scene(app, pilot)  # type: ignore[misc]

    asyncio.run(run())


#: the search query of the ranking tests, and the certificate's paths it ranks
QUERY = "issuerref"


def _certificate_ranked(make_session: MakeSession) -> tuple[Session, list[str]]:
    """A session on cert-manager's Certificate with its sample, and the field paths
    ``QUERY`` ranks, best first, as the finder ranks them."""
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    paths, texts = session.finder_lists()
    return session, [paths[m.index] for m in rank(QUERY, texts)]


def test_search_arrow_keys_choose_among_the_matches(make_session: MakeSession) -> None:
    # before: Down in the search box did nothing, Enter always took the first match
    session, ranked = _certificate_ranked(make_session)
    query = QUERY
    assert len(ranked) >= 3

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        await pilot.press("slash", *query)
        matches = app.query_one("#matches", OptionList)
        await _until(pilot, lambda: matches.option_count == len(ranked), "the matches")
        assert matches.highlighted == 0
        await pilot.press("down", "down")
        assert matches.highlighted == 2
        await pilot.press("up")
        assert matches.highlighted == 1
        await pilot.press("enter")
        await _until(pilot, lambda: _cursor(app) == ranked[1], "the second match chosen")

    _run(session, (120, 40), scene)


def _preview_rows(screen: list[str]) -> list[str]:
    """The preview pane's rows, between its borders."""
    rows = []
    for line in screen:
        if line.count("│") >= 2 and "╭" not in line:
            inner = line.rsplit("│", 2)[-2] if line.endswith("│") else ""
            rows.append(inner.rstrip())
    return rows


def test_80x24_rows_unwrapped_every_key_shown_room_for_the_tree(
    make_session: MakeSession,
) -> None:
    # before: at 80x24 the preview wrapped kubectl get's row in two ("NAME  READY" /
    # "SECRET  AGE"), the footer stopped at "f Editor" (e, x, s, w cut off), and the
    # error and preview panes took 11 of the 24 rows, leaving the tree 9
    session = make_session(CERTIFICATE)
    create_from_sample(session)

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        await _until(pilot, lambda: "example-certificate" in " ".join(_screen(app)), "the row")
        screen = _screen(app)
        rows = _preview_rows(screen)
        # the header and the row each on one line of the pane (cut at its width, never
        # wrapped onto the next line)
        header, row = app.check.get.splitlines()
        assert len(rows) >= 2 and len(rows[0]) >= 30, "\n".join(screen)
        assert header.startswith(rows[0]) and row.startswith(rows[1]), "\n".join(screen)
        # the footer is composed again after the bindings change: waited for
        await _until(pilot, lambda: _missing_keys(app, 2) == [], "every key in 2 rows")
        tree = app.query_one("#fields", Tree)
        assert tree.size.height >= 11, tree.size

    _run(session, (80, 24), scene)


def test_60x16_still_shows_the_tree_and_every_key(make_session: MakeSession) -> None:
    session = make_session(CERTIFICATE)
    create_from_sample(session)

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        await _until(pilot, lambda: "example-certificate" in " ".join(_screen(app)), "the row")
        await _until(pilot, lambda: _missing_keys(app, 3) == [], "every key in 3 rows")
        assert app.query_one("#fields", Tree).size.height >= 5

    _run(session, (60, 16), scene)


def test_an_error_without_a_position_is_at_its_documents_start(
    make_session: MakeSession,
) -> None:
    # before: shown at "-" (line 0), so g had nowhere to go; validate says the
    # document's first line, and the workbench now says the same
    session = make_session(GATEWAYCLASS)
    # a schema error keeps the CEL rules from running: the server's "<nil>" error
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other}\n---\n"
        "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\n"
        "metadata:\n  name: c\nspec:\n  controllerName: 42\n"
    )
    check = session.check_text(text)
    assert not check.valid
    placed = [(p.line, p.column) for p in check.problems if p.field == "<nil>"]
    assert placed == [(5, 1)], check.problems
    assert all(p.line for p in check.problems), check.problems


def test_the_tree_follows_the_version_the_file_is_written_in(
    corpus_dir: Path, tmp_path: Path
) -> None:
    # before: a CronJob written as v2 was checked against v2's schema while the tree,
    # the explanation and j showed v1's fields (spec.schedule a string there, an object
    # in v2): the error said one thing, the field it jumped to another
    crd_file = (
        corpus_dir
        / "crds/kubebuilder-multiversion-tutorial/batch.tutorial.kubebuilder.io_cronjobs.yaml"
    )
    crds = FileSource([str(crd_file)]).crds()
    target = resolve_target(crds, "cronjob", api_version="batch.tutorial.kubebuilder.io/v1")
    path = tmp_path / "cj.yaml"
    path.write_text(
        "apiVersion: batch.tutorial.kubebuilder.io/v2\nkind: CronJob\n"
        "metadata: {name: c}\nspec:\n  jobTemplate: {}\n  schedule: '*/5 * * * *'\n"
    )
    session = Session(target, str(path))

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        await _until(pilot, lambda: bool(_problems(app)), "the error")
        assert "must be of type object" in _problems(app)[0]
        assert "(batch.tutorial.kubebuilder.io/v2)" in _text(app, "#title")
        await pilot.press("j")
        await _until(pilot, lambda: _cursor(app) == ("spec", "schedule"), "the jump")
        assert "FIELD: schedule <Object>" in _text(app, "#explain")

    _run(session, (120, 40), scene)


#: synthetic objects for what the corpus samples lack: a CEL rule refused, an
#: int-or-string of the wrong kind, fields kept by x-kubernetes-preserve-unknown-fields,
#: a multi-version CRD's other version; each the second document of its file
_WRITTEN = {
    "gateway.yaml": (
        "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g}\n"
        "spec:\n  gatewayClassName: c\n  addresses:\n  - {type: Hostname, value: 'Not_A.Host'}\n"
        "  listeners:\n  - {name: l, port: 80, protocol: HTTP}\n"
    ),
    "certificate.yaml": (
        "apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: c}\n"
        "spec:\n  secretName: s\n  issuerRef: {name: ca}\n  revisionHistoryLimit: 'x'\n"
        "  privateKey: {size: many}\n"
    ),
    "application.yaml": (
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: a}\n"
        "spec:\n  project: default\n  destination: {server: 'https://k'}\n"
        "  source: {repoURL: 'https://r', helm: {valuesObject: {any: {thing: 1}}}}\n"
        "  bogus: true\n"
    ),
    "cronjob.yaml": (
        "apiVersion: batch.tutorial.kubebuilder.io/v2\nkind: CronJob\nmetadata: {name: c}\n"
        "spec:\n  jobTemplate: {}\n  schedule: '*/5 * * * *'\n  startingDeadlineSeconds: x\n"
    ),
}

#: corpus samples whose errors have no node of their own, or are behind earlier ones
_SAMPLES = (
    "cert-manager/website-md__configuration__acme__dns01__acme-dns.block02.yaml",
    "argo-workflows/fun-with-gifs.yaml",
    "argo-workflows/k8s-jobs.yaml",
    "crossplane/e2e__composition__validation__composition-invalid-duplicate-pipeline-steps.yaml",
    "argo-cd/operator-manual__applicationset.yaml",
    "external-secrets/passworddepot-secret-store.yaml",
)


def test_errors_are_validates_position_message_and_stage(corpus_dir: Path, tmp_path: Path) -> None:
    """Every object of the files, as ``kubectl crd validate -o json`` answers for it:
    valid or not, and each error's line, column, message and whether it is behind an
    earlier stage's (before: errors without a node were at line 0 on the screen)."""
    import json

    from tests.cli_runner import run_cli

    files = [str(corpus_dir / "samples" / name) for name in _SAMPLES]
    for name, text in _WRITTEN.items():
        (tmp_path / name).write_text(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n" + text
        )
        files.append(str(tmp_path / name))
    # one CRD of each name: the corpus has gateway-api's standard and experimental
    # Gateway, and kubebuilder's CronJob of one version and of two
    twins = ("gateway-api-experimental", "kubebuilder-cronjob-tutorial")
    crd_dirs = [
        str(d) for d in sorted((corpus_dir / "crds").iterdir())
        if d.is_dir() and d.name not in twins
    ]  # fmt: skip
    args = [arg for f in files for arg in ("-f", f)]
    crd_args = [arg for d in crd_dirs for arg in ("--crd", d)]
    result = run_cli("validate", *args, *crd_args, "-o", "json")
    assert result.returncode == 1, result.stderr
    crds = FileSource(crd_dirs).crds()
    compared = 0
    for resource in json.loads(result.stdout)["resources"]:
        if resource["status"] not in ("valid", "invalid"):
            continue
        group, _, _ = resource["apiVersion"].rpartition("/")
        (crd,) = [c for c in crds if c.group == group and c.names.kind == resource["kind"]]
        text = Path(resource["source"]).read_text(encoding="utf-8")
        session = Session(resolve_target([crd], crd.names.plural), resource["source"])
        check = session.check_text(text)
        # the resource's place among the file's objects of its kind
        while check.document and _start(session, text) != resource["line"]:
            session.document += 1
            check = session.check_text(text)
            assert session.document < 50, resource
        got = [(p.line, p.column, p.message, p.blocked) for p in check.problems]
        wanted = [(e["line"], e["column"], e["message"], e["blocked"]) for e in resource["errors"]]
        assert (check.valid, got) == (resource["status"] == "valid", wanted), resource["source"]
        compared += 1
    assert compared == len(_SAMPLES) + len(_WRITTEN)


def _start(session: Session, text: str) -> int:
    from kubectl_crd.io import load_documents

    document, _, _, _ = session._document(load_documents(text, session.path), session.document)
    return int(document.location.line)


def test_a_generated_name_and_uid_stay_the_same_from_check_to_check(
    corpus_dir: Path, tmp_path: Path
) -> None:
    # before: every check (every pause in typing) drew a new generateName suffix and
    # uid: the preview's NAME and the stored object changed under the user's eyes
    crds = FileSource([str(corpus_dir / "crds/argo-workflows/argoproj.io_workflows.yaml")]).crds()
    session = Session(resolve_target(crds, "workflow"), str(tmp_path / "wf.yaml"))
    text = (
        "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n"
        "metadata: {generateName: hello-}\nspec: {entrypoint: a}\n"
    )
    first, second = session.check_text(text), session.check_text(text + "# edited\n")
    assert first.valid and second.valid
    name = first.get.splitlines()[1].split()[0]
    assert name.startswith("hello-") and len(name) == len("hello-") + 5
    assert second.get == first.get
    assert second.stored["metadata"]["uid"] == first.stored["metadata"]["uid"]


class HeldRanking:
    """The workbench's search ranking held until ``release`` is set (a slow ranking,
    as on argo's Workflow); it then ranks as ``rank`` does. ``queries`` are the
    queries ranked, in order, and ``most`` the most rankings that ran at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.queries: list[str] = []
        self.most = 0
        self._running = 0
        self._lock = threading.Lock()

    def rank(self, query: str, texts: list[str]) -> object:
        with self._lock:
            self.queries.append(query)
            self._running += 1
            self.most = max(self.most, self._running)
        try:
            self.release.wait()
            return rank(query, texts)
        finally:
            with self._lock:
                self._running -= 1


@pytest.fixture
def held_ranking(monkeypatch: pytest.MonkeyPatch) -> HeldRanking:
    from kubectl_crd.output.workbench import app as app_module

    held = HeldRanking()
    monkeypatch.setattr(app_module, "rank", held.rank)
    return held


def test_a_slow_search_leaves_the_screen_live(
    make_session: MakeSession, held_ranking: HeldRanking
) -> None:
    # before: every keystroke ranked every field path on the screen's own loop: on
    # argo's Workflow (9,261 paths) 0.2-0.3 s a key, the screen frozen meanwhile
    session = make_session(CERTIFICATE)
    create_from_sample(session)
    release = held_ranking.release

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        # the ranking ends by itself after 30 s: a screen that waits for it handles
        # the Esc only then, once release is set
        timer = threading.Timer(30, release.set)
        timer.start()
        await pilot.press("slash", "i")
        await pilot.press("escape")  # handled while the ranking still runs
        assert not release.is_set()
        timer.cancel()
        assert not app.query_one("#left").has_class("-searching")
        release.set()
        # a query typed again is answered with the matches of that query only
        await pilot.press("slash", *"issuerref")
        matches = app.query_one("#matches", OptionList)
        texts = session.finder_lists()[1]
        wanted = [texts[m.index] for m in rank("issuerref", texts)]
        await _until(
            pilot,
            lambda: (
                [str(matches.get_option_at_index(i).prompt) for i in range(matches.option_count)]
                == wanted
            ),
            "the matches of the last query",
        )

    _run(session, (120, 40), scene)


def test_arrow_keys_typed_before_the_matches_apply_to_them(
    make_session: MakeSession, held_ranking: HeldRanking
) -> None:
    # the ranking runs in a thread: Down typed before its answer must move through
    # that answer's matches (as in the order typed), not a stale list that is replaced
    session, ranked = _certificate_ranked(make_session)
    release = held_ranking.release
    query = QUERY

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        timer = threading.Timer(20, release.set)  # never left blocked
        timer.start()
        await pilot.press("slash", *query, "down", "down")
        release.set()
        timer.cancel()
        matches = app.query_one("#matches", OptionList)
        await _until(pilot, lambda: matches.option_count == len(ranked), "the matches of the query")
        assert matches.highlighted == 2
        await pilot.press("enter")
        await _until(pilot, lambda: _cursor(app) == ranked[2], "the third match chosen")

    _run(session, (120, 40), scene)


def test_fast_typing_ranks_one_query_at_a_time_and_the_last_wins(
    make_session: MakeSession, held_ranking: HeldRanking
) -> None:
    # before: every key started a ranking thread of its own (nine keys, nine threads
    # ranking at once, each 0.2-0.3 s on argo's Workflow); now one runs, the keys typed
    # meanwhile are coalesced, and the query typed last is ranked once it ends
    session, ranked = _certificate_ranked(make_session)
    query = QUERY

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        timer = threading.Timer(20, held_ranking.release.set)  # never left blocked
        timer.start()
        await pilot.press("slash", *query)
        await _until(
            pilot, lambda: held_ranking.queries == ["i"], "only the first key's query ranked"
        )
        held_ranking.release.set()
        timer.cancel()
        matches = app.query_one("#matches", OptionList)
        await _until(pilot, lambda: app._matched == query, "the matches of the last query")
        assert matches.option_count == len(ranked)
        assert held_ranking.most == 1, held_ranking.queries
        assert held_ranking.queries == ["i", query]

    _run(session, (120, 40), scene)


def test_enter_before_the_matches_waits_for_them_off_the_screens_loop(
    make_session: MakeSession, held_ranking: HeldRanking
) -> None:
    # before: Enter pressed while the query was being ranked ranked it again on the
    # screen's loop: the screen froze for a whole ranking (here until the timer)
    session, ranked = _certificate_ranked(make_session)
    query = QUERY
    release = held_ranking.release

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        timer = threading.Timer(30, release.set)  # a frozen screen waits for this
        timer.start()
        await pilot.press("slash", *query, "down", "enter")  # handled: it returned
        assert not release.is_set()
        timer.cancel()
        assert app.query_one("#left").has_class("-searching")
        release.set()
        await _until(pilot, lambda: _cursor(app) == ranked[1], "the second match chosen")
        assert not app.query_one("#left").has_class("-searching")

    _run(session, (120, 40), scene)


def test_an_update_is_stored_with_a_resource_version_after_the_old_ones(
    make_session: MakeSession,
) -> None:
    # before: the stored view of an update of a live object at resourceVersion 644
    # showed resourceVersion "1" (the session's own counter), as if it went back
    from kubectl_crd.io import load_documents

    class Live:
        """The sample as the live object, at resourceVersion 644."""

        def old(self, session: Session, content: object) -> tuple[object, str, str]:
            (sample,) = load_documents(original, session.path)
            old = session.admit_create(sample.content).stored
            old["metadata"]["resourceVersion"] = "644"
            return old, "against the live one", ""

    session = make_session(CERTIFICATE, old=Live())
    create_from_sample(session)
    original = Path(session.path).read_text()
    text = original.replace("secretName: example", "secretName: other")
    check = session.check_text(text)
    assert check.valid and check.operation == "update", check.problems
    assert check.stored["metadata"]["resourceVersion"] == "645"
    # a create keeps the session's own count, the same at every check
    fresh = make_session(CERTIFICATE, "new.yaml")
    for _ in range(2):
        assert fresh.check_text(text).stored["metadata"]["resourceVersion"] == "1"


def test_keys_typed_right_behind_slash_go_into_the_search_box(make_session: MakeSession) -> None:
    # before: '/issuer' read in one go ran / only once it had bubbled up to the app,
    # and the letters behind it went to the tree as keys of their own (in '/podgc', d:
    # next object, g: error to line); posted to the app together, as its driver does
    from textual import events
    from textual.widgets import Input

    session = make_session(CERTIFICATE)
    create_from_sample(session)

    async def scene(app: WorkbenchApp, pilot: Pilot[None]) -> None:
        for key in ("slash", *"issuer"):
            event = events.Key(key, "/" if key == "slash" else key)
            event.set_sender(app)
            app.post_message(event)
        search = app.query_one("#search", Input)
        await _until(pilot, lambda: search.value == "issuer", "the query typed")
        assert app.focused is search
        # the editor pane was not opened by the f of a query either
        await pilot.press("backspace", "f")
        await _until(pilot, lambda: search.value == "issuef", "f typed into the box")
        assert app.focused is search

    _run(session, (120, 40), scene)
