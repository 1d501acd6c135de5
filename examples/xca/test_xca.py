"""Unit tests of the Xca reconciler, without a cluster."""

import datetime
from pathlib import Path

from kubectl_crd.reconcile.testing import run_finalize, run_reconcile

HERE = Path(__file__).parent
RECONCILER = HERE / "reconciler.py"
CRD = HERE / "crd.yaml"
XCA = HERE / "xca.yaml"


def test_a_new_xca_is_active_from_now() -> None:
    before = datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    out = run_reconcile(RECONCILER, XCA, crds=[CRD])
    assert out.error is None
    assert out.status is not None and out.status["active"] is True
    stamp = datetime.datetime.strptime(out.status["lastUpdateTime"], "%Y-%m-%dT%H:%M:%SZ")
    assert stamp.replace(tzinfo=datetime.UTC) >= before
    assert out.logs == ("INFO active=True",)


def test_the_time_stays_while_active_does_not_change_and_moves_when_it_does() -> None:
    xca = XCA.read_text() + "status:\n  active: true\n  lastUpdateTime: '2024-01-02T03:04:05Z'\n"
    out = run_reconcile(RECONCILER, xca, crds=[CRD])
    assert out.status == {"active": True, "lastUpdateTime": "2024-01-02T03:04:05Z"}
    suspended = xca.replace("foo: bar", "foo: bar\n  suspend: true")
    out = run_reconcile(RECONCILER, suspended, crds=[CRD])
    assert out.status is not None and out.status["active"] is False
    assert out.status["lastUpdateTime"] != "2024-01-02T03:04:05Z"


def test_finalize_records_an_event_and_is_done() -> None:
    out = run_finalize(RECONCILER, XCA, crds=[CRD])
    assert out.error is None
    assert out.finalized is True
    assert [(e.reason, e.object) for e in out.events] == [("Finalized", "Xca/xca-sample")]
